#!/bin/bash
# Integration: `rtmeasure monitor --wakeup` (root, BPF) beside the timer probe on CPU 0. The
# selected task is a cyclictest under a name of this test's own, its measuring thread on CPU 1
# (300 loops). The plain form's last block must show its row with its wake-ups 3 % below to 1 %
# above its loops (a loop whose next expiry has passed when it sleeps, delayed by a stall of
# this VM's vCPU or a higher-priority task, sleeps not and is woken not: 296 seen under load),
# the same count -o's sections.wakeup holds; neither the panel nor the section has
# the monitor's own threads (the timer probe's rtm-probe/0 is FIFO, in the default selection).
# The programs the monitor loaded are named rtm_wk_*, found by its own file descriptors (not
# machine-wide: another wakeup may run), and none of them is left once it exits. --once gives
# the panel's lines in its one block. With --prometheus the live page has the task's series as
# export of the -o result gives them (probe="timer", the CPU the timer probe's). No timing is
# judged.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs (the task off the timer probe's)"
command -v cyclictest >/dev/null || skip "cyclictest (rt-tests) not installed"
command -v bpftool >/dev/null || skip "bpftool not installed (it names the loaded programs)"
command -v curl >/dev/null || skip "curl not installed (it scrapes the live page)"
need_bpf
measure_lock "$@"

t=$(mktemp -d)
mon= ct=
trap '[ -n "$ct" ] && kill $ct 2>/dev/null; [ -n "$mon" ] && kill $mon 2>/dev/null; rm -rf "$t"' \
	EXIT
ctname=ctmonwk$$
cp "$(command -v cyclictest)" "$t/$ctname" || fail "cannot copy cyclictest"

# every real-time task (the default selection), the timer probe on CPU 0
"$RTMEASURE" monitor --wakeup -a 0 --refresh 300ms --prometheus 0 -o "$t/m" >"$t/m.out" \
	2>"$t/m.err" &
mon=$!
monpid=$mon
blocks() { grep -c '^-- ' "$t/m.out"; }
for _ in $(seq 100); do	# a bound, not a measurement: the programs are loaded before it
	[ "$(blocks)" -ge 1 ] && break
	kill -0 $mon 2>/dev/null || fail "monitor ended: $(cat "$t/m.err")"
	sleep 0.1
done
[ "$(blocks)" -ge 1 ] || fail "no refresh in 10 s: $(cat "$t/m.err")"

# the programs it loaded, by its own file descriptors
ids=
for f in /proc/$mon/fd/*; do
	[ "$(readlink "$f")" = "anon_inode:bpf-prog" ] || continue
	ids="$ids $(awk '/^prog_id:/ { print $2 }' "/proc/$mon/fdinfo/${f##*/}")"
done
names=$(for id in $ids; do bpftool prog show id "$id" | sed -n 's/.* name \([^ ]*\) .*/\1/p'
	done | sort -u | tr '\n' ' ')
[ -n "$ids" ] && ! echo "$names" | tr ' ' '\n' | grep -v '^$' | grep -qv '^rtm_wk_'
ok $? "the monitor holds the wake-up programs, each named rtm_wk_* ($names)"
tids=$(ls /proc/$mon/task)

# the task: 300 wake-ups of its thread on CPU 1, its main thread on CPU 0
taskset -c 0 "$t/$ctname" -t1 -a1 -p80 -i 2000 -l 300 -q --mainaffinity=0 >/dev/null 2>&1 &
ct=$!
wait $ct || fail "cyclictest exited $?"
ct=
# two refreshes after its end: the last block was read wholly after it
n0=$(blocks)
for _ in $(seq 100); do [ "$(blocks)" -ge $((n0 + 2)) ] && break; sleep 0.1; done
[ "$(blocks)" -ge $((n0 + 2)) ] || fail "no refresh in 10 s after the task's end"
# the live page: the task's series once a refresh after its end is published
port=$(sed -n 's/.*metrics for Prometheus at port \([0-9]*\),.*/\1/p' "$t/m.err")
[ -n "$port" ] || fail "no port announced: $(cat "$t/m.err")"
rows() {	# the task's wake-ups in the latest block
	grep "^wakeup $ctname pid " "$t/m.out" | tail -1 | sed 's/.*: \([0-9]*\) wake-ups,.*/\1/'
}
wakeups=rtmeasure_task_wakeup_per_task_wakeups_total
for _ in $(seq 100); do	# a bound, not a measurement
	curl -s --max-time 2 "http://127.0.0.1:$port/metrics" >"$t/page" 2>/dev/null
	grep -q "^$wakeups{.*comm=\"$ctname\".* $(rows)\$" "$t/page" && break
	sleep 0.1
done
grep -q "^$wakeups{probe=\"timer\",.*comm=\"$ctname\".* $(rows)\$" "$t/page" &&
	grep -q '^rtmeasure_wakeup_latency_seconds_count{cpu="0",probe="timer",' "$t/page" &&
	! grep -q '^rtmeasure_task_wakeup_latency_seconds' "$t/page"
ok $? "the live page: the task's $(rows) wake-ups beside CPU 0's timer probe, probe=\"timer\""
kill -INT $mon
wait $mon
rc=$?
mon=
[ $rc -eq 130 ]
ok $? "SIGINT ends the monitor ($rc: $(head -c 300 "$t/m.err"))"

# the last block's panel
last=$(awk '/^-- / { b = "" } { b = b $0 "\n" } END { printf "%s", b }' "$t/m.out")
line=$(echo "$last" | grep "^wakeup $ctname pid [0-9]* FIFO 80: ")
n=$(echo "$line" | sed -n 's/.*: \([0-9]*\) wake-ups, avg .*, max .*, [0-9]* over 100 us$/\1/p')
[ -n "$n" ] && [ "$n" -ge 291 ] && [ "$n" -le 303 ]
ok $? "the task's row: its wake-ups 3 % below to 1 % above its 300 loops ($line)"
own=0
for tid in $tids; do
	echo "$last" | grep -q "^wakeup .* pid $tid " && own=$((own + 1))
done
[ $own -eq 0 ]
ok $? "none of the monitor's own $(echo $tids | wc -w) threads in the panel"

# -o: sections.wakeup as wakeup writes it
want=$(jq --arg c "$ctname" '[.sections.wakeup.tasks[] | select(.comm == $c) | .count] | add' \
	"$t/m/result.json")
[ "$want" = "$n" ]
ok $? "sections.wakeup has the task's count as the panel ($want, $n)"
jq -e '.sections.wakeup.measures == "wakeup-to-switch-in" and
	.sections.wakeup.above_ns == 100000 and .cpus[0].cpu == 0' "$t/m/result.json" >/dev/null
ok $? "sections.wakeup: wait to switch-in over the threshold, beside CPU 0's figures"
jq -e --argjson p "$monpid" '[.sections.wakeup.tasks[] | select(.tgid == $p)] | length == 0' \
	"$t/m/result.json" >/dev/null
ok $? "and none of the monitor's own threads in it"

# report and export take it: the CPUs stay the timer probe's, the tasks beside them
"$RTMEASURE" report "$t/m" >/dev/null 2>&1 || fail "report exited $?"
head -1 "$t/m/report.md" | grep -q '^# Latency report' &&
	grep -q "^| [0-9]* | [0-9]* | $ctname | fifo 80 | $n |" "$t/m/report.md"
ok $? "report.md: a latency report with the task's row ($(grep "$ctname" "$t/m/report.md"))"
"$RTMEASURE" export --prometheus "$t/m" >"$t/prom" || fail "export --prometheus exited $?"
grep -q '^rtmeasure_wakeup_latency_seconds_count{cpu="0",probe="timer",' "$t/prom" &&
	grep -q "^rtmeasure_task_wakeup_per_task_wakeups_total{probe=\"timer\",.*comm=\"$ctname\".* $n\$" \
		"$t/prom" && ! grep -q '^rtmeasure_task_wakeup_latency_seconds' "$t/prom"
ok $? "export: CPU 0 the timer probe's, the task's $n wake-ups beside it"
# the live page's tasks' series are export's: the same families, the task's lines the same
fams() { grep -o '^rtmeasure_task_[a-z_]*' "$1" | sort -u; }
diff <(fams "$t/page") <(fams "$t/prom") >"$t/fams.diff" &&
	diff <(grep "^rtmeasure_task_.*comm=\"$ctname\"" "$t/page") \
		<(grep "^rtmeasure_task_.*comm=\"$ctname\"" "$t/prom") >"$t/task.diff" &&
	[ "$(fams "$t/prom" | wc -l)" -ge 4 ]
ok $? "the live page's tasks' families and the task's series are export's ($(fams "$t/prom" |
	wc -l) families)$(cat "$t/fams.diff" "$t/task.diff" 2>/dev/null | head -4 | tr '\n' ' ')"

# nothing left loaded once it exited (the kernel frees them as the last reference goes)
left=$ids
for _ in $(seq 50); do
	left=$(for id in $ids; do bpftool prog show id "$id" >/dev/null 2>&1 && echo "$id"; done)
	[ -z "$left" ] && break
	sleep 0.1
done
[ -z "$left" ]
ok $? "no program of the monitor's left after it exits ($(echo $left))"

# --once: the panel's lines in its one block, the programs gone after
run_cmd monitor --wakeup --once -a 0 --refresh 500ms
[ "$rc" -eq 0 ] && [ "$(echo "$out" | grep -c '^-- ')" = 1 ] &&
	echo "$out" | grep -Eq '^wakeup .* pid [0-9]+ .*: [0-9]+ wake-ups, |^wakeup: no wake-up of'
ok $? "--once: the tasks' lines in its block ($rc: $(echo "$err" | head -1))"
done_testing
