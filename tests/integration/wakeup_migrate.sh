#!/bin/bash
# Integration: a measured task moved to another CPU while it waits is still
# measured, its whole wait, on the CPU it ran on. Each CPU's switches look only
# for the tasks waiting on that CPU; a task that moves while it waits
# (sched_migrate_task: an affinity change, an RT push or pull) takes its stamp
# along, or its wait would go unseen.
#
# A FIFO 50 thread (a renamed cyclictest, at I = 7 ms) runs on CPU 0; a FIFO 99
# helper spins 400 ms there, starting 1 s after it is started. Once the thread
# has been runnable for 30 ms (it waits: inside the spin), the test waits 100
# ms more and moves it to CPU 1 (taskset): it runs there at once. The programs
# must count that wait whole (about 130 to 140 ms; 100 to 350 allowed for
# the polling), ended on CPU 1, woken on CPU 0, and the thread's longest; its
# census record says "migrated", and names the helper, which held CPU 0 the
# whole wait and still ran when the thread left (the timer woke the thread on
# CPU 0, interrupting the helper: the programs know what ran there).
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs"
command -v cyclictest >/dev/null || skip "cyclictest (rt-tests) not installed"
need_bpf
measure_lock "$@"

out=$(mktemp -d)
trap 'kill $inj $wk $ct 2>/dev/null; rm -rf "$out"' EXIT
inject="$RTM_BUILDDIR/tests/helpers/inject"
ctname=ctmig$$
cp "$(command -v cyclictest)" "$out/$ctname" || fail "cannot copy cyclictest"

"$RTMEASURE" wakeup --comm "$ctname" --above 50ms --interval 1s -o "$out/w" >"$out/w.txt" 2>&1 &
wk=$!
bpf_attached $wk sched_migrate_task "$out/w.txt"

taskset -c 0 "$out/$ctname" -t1 -a0 -p50 -i 7000 -D 4 -q --mainaffinity=1 >/dev/null 2>&1 &
ct=$!
tid=
for i in $(seq 100); do
	tid=$(ps -L -o tid=,cls= -p $ct | awk '$2 == "FF" { print $1 }')
	[ -n "$tid" ] && break
	sleep 0.05
done
[ -n "$tid" ] || fail "no FIFO thread in cyclictest"
"$inject" --cpu 0 --spin 400ms --every 1s --count 1 --delay 1s >"$out/inj.txt" &
inj=$!
# inside the spin: the thread runnable, not running, in 4 polls 10 ms apart
n=0
for i in $(seq 500); do
	st=$(awk '{ print $3 }' /proc/$tid/stat 2>/dev/null)
	[ "$st" = R ] && n=$((n + 1)) || n=0
	[ $n -ge 4 ] && break
	sleep 0.01
done
[ $n -ge 4 ] || fail "thread $tid never waited behind the spin"
sleep 0.1
moved_at=$(awk '{ print $1 }' /proc/uptime)
taskset -p -c 1 "$tid" >/dev/null || fail "cannot move thread $tid to CPU 1"
wait $inj || fail "inject exited $?"
wait $ct || fail "cyclictest exited $?"
ct=
kill -INT $wk
wait $wk
rc=$?
wk=
[ $rc -eq 130 ] || { cat "$out/w.txt"; fail "rtmeasure wakeup exited $rc after SIGINT, want 130"; }
r="$out/w/result.json"
[ -s "$r" ] || fail "no result.json"
cat "$out/inj.txt"
echo "moved at $moved_at s (uptime)"

task=$(jq -c --argjson t "$tid" '[.sections.wakeup.tasks[] | select(.pid == $t)][0]' "$r")
[ "$task" != null ] || fail "thread $tid is not in sections.wakeup.tasks"
max=$(echo "$task" | jq .max_ns)
echo "thread $tid: $(echo "$task" | jq -c '{count, max_ns, max_cpu}')"
[ "$max" -ge 100000000 ] && [ "$max" -le 350000000 ] ||
	fail "the thread's longest wait is $max ns, want the moved wait of 100..350 ms"
[ "$(echo "$task" | jq .max_cpu)" = 1 ] || fail "the longest wait did not end on CPU 1"
rec=$(jq -c --argjson t "$tid" '[.sections.wakeup.census.list[] | select(.pid == $t and
	.wait_ns >= 100000000)][0]' "$r")
[ "$rec" != null ] || fail "no census record of the moved wait"
echo "census: $rec"
echo "$rec" | jq -e '.cpu == 1 and .target_cpu == 0 and .migrated' >/dev/null ||
	fail "the census record does not say woken on CPU 0, moved, ended on CPU 1"
echo "$rec" | jq -r .sentence | grep -q "moved from CPU 0" ||
	fail "the cause sentence does not say the task moved from CPU 0"
echo "$rec" | jq -e '.cause == "thread" and .task.comm == "rtm-inject" and
	.task.policy == "fifo" and .task.priority == 99' >/dev/null ||
	fail "the moved wait is not named for rtm-inject (FIFO 99), which held CPU 0"
echo "PASS: a wait moved from CPU 0 to CPU 1 measured whole: $((max / 1000000)) ms"
