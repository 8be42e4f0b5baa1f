#!/bin/bash
# Command-level tests of `rtmeasure monitor` without a terminal (no root:
# --no-rt): bad options give one line and exit 2; --once and a pipe give plain
# tables, one per refresh, without escape codes.
. "$RTM_SRCDIR/tests/lib.sh"
measure_lock "$@"

run_cmd monitor --help
ok $(( rc != 0 )) "monitor --help exits 0"
echo "$out" | grep -q -- '--threshold'; ok $? "monitor --help documents --threshold"
expect_usage_error "monitor: refresh too short" monitor --refresh 10ms
expect_usage_error "monitor: bad refresh" monitor --refresh soon
expect_usage_error "monitor: zero threshold" monitor --threshold 0
expect_usage_error "monitor: bad threshold" monitor --threshold fast
expect_usage_error "monitor: -b belongs to cyclic" monitor -b 1ms
# --io: io's parsers, their messages under the monitor's option names
expect_usage_error "monitor: --io-op of no operation" monitor --io --io-op foo
echo "$err" | grep -q "^rtmeasure: monitor: --io-op: unknown operation 'foo'"
ok $? "the bad operation under --io-op, not io's --op ($err)"
expect_usage_error "monitor: --io-size not a size" monitor --io --io-size 7x
echo "$err" | grep -q "^rtmeasure: monitor: --io-size: '7x' is not a size"
ok $? "the bad size under --io-size ($err)"
expect_usage_error "monitor: --io-interval 0" monitor --io --io-interval 0 --io-target .
echo "$err" | grep -q "^rtmeasure: monitor: --io-interval must be above 0 (e.g. --io-interval 10ms)"
ok $? "io's check of the interval under --io-interval ($err)"
# --wakeup: wakeup's selection parser, its messages under the monitor's option names
for args in "--wakeup-pid 0|--wakeup-pid '0': give a whole number" \
	"--wakeup-pid abc|--wakeup-pid 'abc': give a whole number" \
	"--wakeup-comm a-name-longer-than-15|--wakeup-comm 'a-name-longer-than-15': a task's name" \
	"--wakeup-policy fifo,realtime|--wakeup-policy: unknown policy 'realtime'" \
	"--wakeup-policy ,|--wakeup-policy: give at least one policy" \
	"--wakeup-above soon|--wakeup-above: invalid latency 'soon'" \
	"--wakeup-pid 1 --wakeup-comm x|--wakeup-pid, --wakeup-comm and --wakeup-policy select"; do
	expect_usage_error "monitor --wakeup ${args%%|*}" monitor --no-rt --wakeup ${args%%|*}
	echo "$err" | grep -qF "rtmeasure: monitor: ${args#*|}"
	ok $? "monitor ${args%%|*}: the monitor's option name ($err)"
done
expect_usage_error "monitor: --wakeup-* without --wakeup" monitor --no-rt --wakeup-policy fifo
echo "$err" | grep -q "^rtmeasure: monitor: the --wakeup-\* options go with --wakeup$"
ok $? "the --wakeup-* options need --wakeup ($err)"
# --wakeup where the programs cannot load (not root, or a build without BPF): wakeup's one line
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	wtmp=$(mktemp -d)
	chmod 1777 "$wtmp"
	# (the test's private lock folder is root's: the unprivileged run gets its own, so the
	# only line is the refusal, not a warning about the locks)
	nobody() {
		(cd "$wtmp" && RTMEASURE_LOCK_DIR=$wtmp setpriv --reuid=65534 --regid=65534 \
			--clear-groups --inh-caps=-all "$RTMEASURE" "$@" 2>&1 >/dev/null)
	}
	merr=$(nobody monitor --no-rt --wakeup --once -a 0)
	rc=$?
	werr=$(nobody wakeup -D 1s -o "$wtmp/w")
	[ $rc -eq 2 ] && [ "$(echo "$merr" | wc -l)" -eq 1 ] &&
		[ "${merr#rtmeasure: monitor: }" = "${werr#rtmeasure: wakeup: }" ] &&
		echo "$merr" | grep -qE 'needs root|built without BPF'
	ok $? "monitor --wakeup not root: exit 2, wakeup's one line ($merr)"
	rm -rf "$wtmp"
fi
expect_usage_error "monitor: --capture-above belongs to cyclic" monitor --capture-above 1ms
expect_usage_error "monitor: bad CPU list" monitor -a 3-1
# --help lists only what monitor honours, each once; the others are refused with a reason
run_cmd monitor --help
for o in --fail-above --json --capture-above --max-captures --capture-holdoff --breaktrace \
	--histfile --quiet --nsecs; do
	echo "$out" | grep -q -- "$o"; ok $(( $? == 0 )) "monitor --help does not list $o"
done
[ "$(echo "$out" | grep -c -- '--trace ')" = 1 ]; ok $? "monitor --help lists --trace once"
for o in --cpus --threads --interval --housekeeping --threshold --once --log-above; do
	echo "$out" | grep -q -- "$o"; ok $? "monitor --help lists $o"
done
for args in "--fail-above 50us" "--json" "--json=out.json" "-q" "--max-captures 3" \
	"--capture-holdoff 2s" "--histfile h.txt" "-N"; do
	expect_usage_error "monitor $args is refused" monitor $args
	run_cmd monitor $args
	echo "$err" | grep -q "is not taken here: "; ok $? "monitor $args: the reason ($err)"
done
expect_usage_error "monitor: stray argument" monitor extra

run_cmd monitor --no-rt --once -a 0 --refresh 300ms
ok $rc "monitor --once --no-rt exits 0 ($err)"
echo "$out" | grep -q '^CPU  *cur  *min  *avg  *p99  *p99.9  *max  *samples  *overruns$'
ok $? "a plain table heading"
echo "$out" | grep -q '^0  '; ok $? "a row for CPU 0"
[ "$(echo "$out" | grep -c '^-- ')" = 1 ]; ok $? "--once: one table"
echo "$out" | grep -q $'\e'; ok $(( $? == 0 )) "no escape codes"
# the IRQ line (when CPU 0 had interrupts): each figure a rate with its unit, on CPU 0
irq=$(echo "$out" | grep '^irq/s')
if [ -n "$irq" ]; then
	echo "$irq" |
		grep -Eq '^irq/s, CPU 0:( (irq [0-9]+( \(.*\))?|[A-Za-z][A-Za-z0-9]*) [0-9]+/s,?)+$'
	ok $? "the IRQ line says what each figure is ($irq)"
else
	echo "ok $((tap_n += 1)) # SKIP no interrupt on CPU 0 in the refresh"
fi

# --noise-cpus: the noise probe beside the timer probe, never on the same CPU
expect_usage_error "monitor: --noise-cpus overlapping -a" monitor -a 0 --noise-cpus 0
expect_usage_error "monitor: --noise-cpus taking every CPU" monitor \
	--noise-cpus "0-$(($(nproc) - 1))"
expect_usage_error "monitor: --noise-cpus not a list" monitor --noise-cpus many
expect_usage_error "monitor: --noise-cpus of no CPU" monitor --noise-cpus 4000
expect_usage_error "monitor: --noise-threshold without --noise-cpus" monitor \
	--noise-threshold 5us
expect_usage_error "monitor: --noise-width of the whole window" monitor --noise-cpus 0 -a 1 \
	--noise-window 1s --noise-width 1s
expect_usage_error "monitor: run's --noise is not taken" monitor --noise
if [ "$(nproc)" -ge 2 ]; then
	run_cmd monitor --no-rt --once -a 0 --noise-cpus 1 --noise-window 100ms \
		--noise-width 50ms --noise-trace 0 --refresh 500ms
	ok $rc "monitor --noise-cpus --once --no-rt exits 0 ($err)"
	echo "$out" | grep -q '^0  ' && ! echo "$out" | grep -q '^1  '
	ok $? "the timer probe on CPU 0 only"
	echo "$out" | grep -Eq '^noise CPU1: [0-9.]+% noise, max gap .*, [0-9]+ gaps, largest '"gap's cause \(not traced\), main cause -$"
	ok $? "a noise line for CPU 1, its causes not traced ($(echo "$out" | grep noise))"
else
	for i in 1 2 3; do echo "ok $((tap_n += 1)) # SKIP one CPU"; done
fi

run_cmd monitor --no-rt -a 0 --refresh 200ms -D 1s
ok $rc "monitor -D 1s through a pipe exits 0"
n=$(echo "$out" | grep -c '^-- ')
[ "$n" -ge 3 ] && [ "$n" -le 6 ]; ok $? "a table per refresh ($n in 1 s at 200 ms)"
done_testing
