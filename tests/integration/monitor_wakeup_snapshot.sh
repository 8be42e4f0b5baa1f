#!/bin/bash
# Integration: the s key of `rtmeasure monitor --wakeup` (root, BPF) driven through tmux saves a
# snapshot with the box's tasks as -o saves them. The timer probe on CPU 0; the selected task is a
# cyclictest under a name of this test's own, its measuring thread on CPU 1 (300 loops). Once the
# panel shows its row, s saves snapshot-001, whose sections.wakeup (marked beside_probe) has the
# task with its wake-ups 3 % below to 1 % above its loops (a loop whose next expiry has passed
# when it sleeps, after a vCPU stall, is woken not: 296 seen under load) and none of the monitor's own threads; report
# gives a latency report with the task's row and export the task's series beside CPU 0's timer
# probe (probe="timer"). No timing is judged.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs (the task off the timer probe's)"
command -v cyclictest >/dev/null || skip "cyclictest (rt-tests) not installed"
command -v tmux >/dev/null || skip "tmux not installed (scripts/setup installs it)"
need_bpf
measure_lock "$@"

t=$(mktemp -d)
sock="$t/tmux.sock"
ct=
T() { tmux -S "$sock" "$@"; }
trap '[ -n "$ct" ] && kill $ct 2>/dev/null; tmux -S "$t/tmux.sock" kill-server 2>/dev/null;
	rm -rf "$t"' EXIT
screen() { T capture-pane -p -t mon >"$t/screen" 2>/dev/null; cat "$t/screen"; }
wait_for() {	# PATTERN [SECONDS]: a bound, not a measurement
	local i
	for ((i = 0; i < ${2:-10} * 10; i++)); do
		screen | grep -q -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
ctname=ctsnap$$
cp "$(command -v cyclictest)" "$t/$ctname" || fail "cannot copy cyclictest"

T new-session -d -s mon -x 120 -y 40 \
	"TERM=xterm-256color LANG=C.UTF-8 '$RTMEASURE' monitor --wakeup -a 0 --refresh 300ms \
	-o '$t/m'; echo \$? >'$t/rc'; sleep 60"
wait_for '^tasks, worst first' || fail "no tasks panel within 10 s: $(cat "$t/screen")"
monpid=$(pgrep -P "$(T display -p -t mon '#{pane_pid}')" -x rtmeasure)
[ -n "$monpid" ] || fail "no rtmeasure process in the pane"

# the task: 300 wake-ups of its thread on CPU 1, its main thread on CPU 0
taskset -c 0 "$t/$ctname" -t1 -a1 -p80 -i 2000 -l 300 -q --mainaffinity=0 >/dev/null 2>&1 &
ct=$!
wait $ct || fail "cyclictest exited $?"
ct=
wait_for "^$ctname " || fail "no row of the task in 10 s: $(cat "$t/screen")"
T send-keys -t mon s
# the status line says so (the path cut at the screen's edge)
wait_for " saved $t/m/snap" 5 || fail "s: no 'saved' message: $(cat "$t/screen")"
T send-keys -t mon q
for _ in $(seq 100); do [ -s "$t/rc" ] && break; sleep 0.1; done
[ "$(cat "$t/rc" 2>/dev/null)" = 0 ]
ok $? "q ends the monitor ($(cat "$t/rc" 2>/dev/null))"

snap=$t/m/snapshot-001
"$RTM_BUILDDIR/tests/helpers/result_check" "$snap" >/dev/null
ok $? "the snapshot is a valid results folder"
n=$(jq --arg c "$ctname" '[.sections.wakeup.tasks[] | select(.comm == $c) | .count] | add' \
	"$snap/result.json")
[ -n "$n" ] && [ "$n" != null ] && [ "$n" -ge 291 ] && [ "$n" -le 303 ]
ok $? "the snapshot's sections.wakeup: the task's wake-ups 3 % below to 1 % above its 300 loops ($n)"
jq -e --argjson p "$monpid" '.sections.wakeup.beside_probe == true and
	.sections.wakeup.measures == "wakeup-to-switch-in" and .cpus[0].cpu == 0 and
	([.sections.wakeup.tasks[] | select(.tgid == $p)] | length == 0)' "$snap/result.json" \
	>/dev/null
ok $? "beside CPU 0's figures, none of the monitor's own threads"

"$RTMEASURE" report "$snap" >/dev/null 2>&1 || fail "report of the snapshot exited $?"
head -1 "$snap/report.md" | grep -q '^# Latency report' &&
	grep -q "^| [0-9]* | [0-9]* | $ctname | fifo 80 | $n |" "$snap/report.md"
ok $? "report.md of the snapshot: the task's row ($(grep "$ctname" "$snap/report.md"))"
"$RTMEASURE" export --prometheus "$snap" >"$t/prom" || fail "export --prometheus exited $?"
wakeups=rtmeasure_task_wakeup_per_task_wakeups_total
grep -q '^rtmeasure_wakeup_latency_seconds_count{cpu="0",probe="timer",' "$t/prom" &&
	grep -q "^$wakeups{probe=\"timer\",.*comm=\"$ctname\".* $n\$" "$t/prom"
ok $? "export of the snapshot: the task's $n wake-ups beside CPU 0's timer probe"
done_testing
