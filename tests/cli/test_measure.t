#!/bin/bash
# Command-level tests of cyclic and run: bad options and values give one line
# and exit 2 before anything is measured; --help works; --no-rt measures
# without privileges.
. "$RTM_SRCDIR/tests/lib.sh"

for cmd in cyclic run; do
	run_cmd $cmd --help
	ok $(( rc != 0 )) "$cmd --help exits 0"
	echo "$out" | grep -q -- '--fail-above'; ok $? "$cmd --help documents --fail-above"
	expect_usage_error "$cmd: bad duration" $cmd -D 5x
	expect_usage_error "$cmd: zero duration" $cmd -D 0
	expect_usage_error "$cmd: bad interval" $cmd -i fast
	expect_usage_error "$cmd: interval too short" $cmd -i 1us
	expect_usage_error "$cmd: bad CPU list" $cmd -a 3-1
	expect_usage_error "$cmd: CPU that does not exist" $cmd -a 4000 -D 1s
	expect_usage_error "$cmd: priority out of range" $cmd -p 120
	expect_usage_error "$cmd: bad policy" $cmd --policy fast
	expect_usage_error "$cmd: bad mode" $cmd --mode poll
	expect_usage_error "$cmd: bad breaktrace" $cmd -b soon
	expect_usage_error "$cmd: bad fail-above" $cmd --fail-above p200=5us
	expect_usage_error "$cmd: bad fail-above latency" $cmd --fail-above p99=fast
	expect_usage_error "$cmd: bad loops" $cmd -l -5
	expect_usage_error "$cmd: bad histogram rows" $cmd -h 0
	expect_usage_error "$cmd: unknown option" $cmd --frobnicate
	expect_usage_error "$cmd: stray argument" $cmd extra
	expect_usage_error "$cmd: --trace without a threshold" $cmd --trace -D 1s
	expect_usage_error "$cmd: zero capture threshold" $cmd --capture-above 0
	expect_usage_error "$cmd: bad capture threshold" $cmd --capture-above soon
	expect_usage_error "$cmd: zero max captures" $cmd --capture-above 1ms --max-captures 0
	expect_usage_error "$cmd: bad capture hold-off" $cmd --capture-above 1ms --capture-holdoff x
	expect_usage_error "$cmd: hold-off shorter than the window" \
		$cmd --capture-above 1ms --capture-holdoff 10us -D 1s
	expect_usage_error "$cmd: trace filter without an expression" $cmd -b 1ms \
		--trace-filter irq:irq_handler_entry
	expect_usage_error "$cmd: too many trace filters" $cmd -b 1ms \
		$(for i in 1 2 3 4 5 6 7 8 9; do echo --trace-filter irq:irq_handler_entry:irq!=$i; done)
done
expect_usage_error "run: bad load" run --load dishes

# unprivileged: a clear message naming the capability, or --no-rt works
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RTMEASURE" cyclic -D 1s -q -o /tmp/rtm-never 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 2 ] && echo "$out" | grep -q CAP_SYS_NICE
	ok $? "not root: exit 2 naming CAP_SYS_NICE ($out)"
	d=$(mktemp -d)
	chmod 777 "$d"
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RTMEASURE" cyclic --no-rt -a 0 -D 1s -q --json -o "$d/r" >"$d/out.json" 2>"$d/err"
	rc=$?
	ok $rc "not root with --no-rt: measures ($(cat "$d/err"))"
	# at SCHED_OTHER a stall swallows periods: every one is a sample or an overrun
	jq -e '.all.samples + .all.overruns >= 950 and .all.samples >= 500' \
		"$d/out.json" >/dev/null
	ok $? "--no-rt: 1000 periods accounted for ($(jq -c '[.all.samples, .all.overruns]' \
		"$d/out.json" 2>/dev/null))"
	jq -e '.options.rt == false' "$d/r/result.json" >/dev/null; ok $? "--no-rt is recorded"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RTMEASURE" cyclic --no-rt -a 0 -D 1s -b 1ms --trace -q -o "$d/t" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 2 ] && echo "$out" | grep -qi 'root\|tracefs'
	ok $? "not root with --trace: exit 2 naming root or tracefs ($out)"
	ls /sys/kernel/tracing/instances 2>/dev/null | grep -q '^rtmeasure-'
	ok $(( $? == 0 )) "and no trace instance left"
	rm -rf "$d"
fi
done_testing
