#!/bin/bash
# Integration: `rtmeasure run --rt-hold` names a real runaway. A SCHED_FIFO 90
# spinner (tests/helpers/inject, bounded: it spins 800 ms once, then exits) on
# CPU 1 with RT throttling off (restored after, whatever happens, as guard.sh
# does), while run measures CPU 1 with its FIFO 95 probe preempting the
# spinner every millisecond: the summary, result.json and report.html name it
# with its pid, FIFO 90 and CPU 1, with one interval that holds the spin
# (switch-in before the spin's first clock read, switch-out after its last)
# and exceeds it by at most one probe period on either side (plus 10 ms for
# this shared VM's vCPU stalls and for inject's own exit: it drops to
# SCHED_OTHER, prints and exits before it leaves the CPU; 0.04-1.4 ms here);
# the probes are never reported. The monitor's live line shows it while it
# spins and monitor -o keeps it. Without a
# spinner nothing is reported. No trace instance is left behind.
#
# 800 ms, not seconds: from 6.12 on, with RT throttling off, the fair server
# still gives waiting SCHED_OTHER tasks 50 ms a second, 950 ms after they
# began to wait, which cuts a longer spin into ~950 ms holds (measured here:
# a 3 s spin gave 950, 950 and 856 ms). A shorter spin is mostly one hold,
# checked tightly at both ends; when SCHED_OTHER tasks had been waiting since
# before it (another RT load on CPU 1), it can be cut too (seen once: 564 ms +
# a second hold): then every hold must still lie within the spin, and only a
# piece within the bound at either end may be missing. When the task that ran before the spinner was one whose
# switch-out this VM's kernel does not record (PID 1's tokio-rt-worker
# threads), the spinner is first seen at its next switch (within a probe
# period) and its start is marked unknown; the check allows for that.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
need_tracefs
measure_lock "$@"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs (the spinner takes CPU 1)"
[ -w /proc/sys/kernel/sched_rt_runtime_us ] || skip "cannot switch RT throttling off here"
grep -q '^sched:sched_switch$' /sys/kernel/tracing/available_events ||
	skip "this kernel has no sched:sched_switch event"

inject="$RTM_BUILDDIR/tests/helpers/inject"
t=$(mktemp -d)
old=$(cat /proc/sys/kernel/sched_rt_runtime_us)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	echo "$old" >/proc/sys/kernel/sched_rt_runtime_us
	rm -rf "$t"
}
trap cleanup EXIT

echo -1 >/proc/sys/kernel/sched_rt_runtime_us

# --- a spinner: named, its interval holds the spin
"$RTMEASURE" run -a 1 -D 6s --rt-hold 100ms -o "$t/spin" >"$t/spin.out" 2>"$t/spin.err" &
rpid=$!
pids+=("$rpid")
wait_probes "$rpid"
"$inject" --cpu 1 --priority 90 --spin 800ms --every 7s --count 1 --delay 200ms >"$t/inj" ||
	fail "inject exited $?"
wait "$rpid" || fail "run exited $?: $(cat "$t/spin.err")"
no_instances_of "$rpid"
judged_alone "$t/spin"
read -r _ _ start end <"$t/inj"
ipid=$(jq -r '.sections.rt_holds.tasks[] | select(.comm == "rtm-inject") | .pid' \
	"$t/spin/result.json")
[ -n "$ipid" ] || fail "the spinner is not in sections.rt_holds: $(jq -c .sections.rt_holds \
	"$t/spin/result.json")"
cat "$t/spin.out"
grep -q "^  rtm-inject $ipid FIFO 90 on CPU 1: [0-9]* intervals\?, longest " "$t/spin.out" ||
	fail "the summary does not name the spinner as FIFO 90 on CPU 1"
jq -e --argjson p "$ipid" '.sections.rt_holds.tasks[] | select(.pid == $p) |
	.policy == "FIFO" and .priority == 90 and .cpu == 1' \
	"$t/spin/result.json" >/dev/null || fail "the task entry is wrong"
jq -e '.sections.rt_holds.complete' "$t/spin/result.json" >/dev/null ||
	echo "note: the trace was not complete: $(jq -c '.sections.rt_holds |
		{trace_lost, inconsistent, uncertain}' "$t/spin/result.json")"
jq -e '[.sections.rt_holds.tasks[] | select(.comm | startswith("rtm-probe"))] | length == 0' \
	"$t/spin/result.json" >/dev/null || fail "a probe thread was reported"
period=1000000 slack=10000000 bound=100000000
jq -r --argjson p "$ipid" '.sections.rt_holds.intervals[] | select(.pid == $p) |
	"\(.cpu) \(.start_ns) \(.end_ns) \(.start_known) \(.open) \(.prio_in)"' \
	"$t/spin/result.json" >"$t/ivs"
n=$(wc -l <"$t/ivs")
echo "spin $start..$end ns; $n hold(s) of the spinner:"
cat "$t/ivs"
# every hold lies within the spin, one probe period (+ slack) at most beyond either end
while read -r cpu hs he known open prio; do
	[ "$cpu" = 1 ] && [ "$open" = false ] || fail "hold $hs..$he: want CPU 1, closed"
	[ "$known" = false ] || [ "$prio" = 9 ] || fail "hold $hs..$he: want prio 9 at switch-in"
	[ "$hs" -ge $((start - period - slack)) ] && [ "$he" -le $((end + period + slack)) ] ||
		fail "hold $hs..$he reaches beyond the spin by more than a period (+ slack)"
done <"$t/ivs"
read -r _ hs _ known _ _ < <(head -n1 "$t/ivs")
read -r _ _ he _ _ _ < <(tail -n1 "$t/ivs")
before=$((start - hs)) after=$((he - end))
echo "first hold from $before ns before the spin, last to $after ns after it"
cut_end=false
if [ "$n" = 1 ] && [ "$after" -lt 0 ]; then
	# one hold that ends inside the spin: the spin was cut near its end (the fair
	# server's slot for a waiting SCHED_OTHER task; seen once: 37 us before the
	# end) and the last piece, within the bound, is not reported
	cut_end=true
	echo "note: the hold ends $((-after)) ns before the spin: cut near its end"
	[ "$after" -ge $((-bound - slack)) ] ||
		fail "the hold ends more than the bound inside the spin"
fi
if [ "$n" = 1 ]; then
	# one hold: the whole spin, within a period at both ends (switch-in before the
	# first clock read unless its start is unknown, switch-out after the last,
	# unless cut as above)
	[ "$after" -ge 0 ] || [ "$cut_end" = true ] || fail "the hold ends before the spin"
	[ "$known" = false ] || [ "$before" -ge 0 ] || fail "the hold starts after the spin"
	[ "$before" -ge $((-period - slack)) ] && [ "$after" -le $((period + slack)) ] ||
		fail "the hold and the spin differ by more than a period (+ slack) at an end"
else
	# cut (the fair server gave waiting SCHED_OTHER tasks their 50 ms): a piece at
	# either end may be within the bound and so not reported
	echo "note: the spin was cut into $n holds (something else ran on CPU 1 in between)"
	[ "$before" -ge $((-bound - period - slack)) ] && [ "$after" -ge $((-bound - slack)) ] ||
		fail "the first hold starts, or the last ends, more than the bound inside the spin"
fi
if [ -f "$t/spin/report.html" ]; then
	grep -q "Real-time tasks holding a CPU over 100 ms" "$t/spin/report.html" &&
		grep -q "<td class=\"l\">rtm-inject</td><td>$ipid</td><td class=\"l\">FIFO 90</td>" \
			"$t/spin/report.html" || fail "report.html has no row for the spinner"
	echo "ok: report.html names it"
fi
echo "ok: run names the spinner (pid $ipid, FIFO 90, CPU 1) with its spin's interval"

# --- no spinner: nothing reported
"$RTMEASURE" run -a 1 -D 2s --rt-hold 100ms --no-report -o "$t/none" >"$t/none.out" \
	2>"$t/none.err" &
rpid=$!
pids+=("$rpid")
wait "$rpid" || fail "run exited $?: $(cat "$t/none.err")"
no_instances_of "$rpid"
grep -q "^RT tasks holding a CPU > 100 ms: none$" "$t/none.out" ||
	fail "no spinner, yet: $(grep -A3 '^RT tasks' "$t/none.out")"
jq -e '.sections.rt_holds.tasks == [] and .sections.rt_holds.intervals == []' \
	"$t/none/result.json" >/dev/null || fail "no spinner: sections.rt_holds is not empty"
echo "ok: nothing reported without a spinner"

# --- --rt-hold 0: no section, no instance
"$RTMEASURE" run -a 1 -D 1s --rt-hold 0 --no-report -o "$t/off" >"$t/off.out" 2>&1 ||
	fail "run --rt-hold 0 exited $?"
jq -e '.sections.rt_holds == null' "$t/off/result.json" >/dev/null ||
	fail "--rt-hold 0 still wrote sections.rt_holds"
grep -q "^RT tasks" "$t/off.out" && fail "--rt-hold 0 still printed the block"
echo "ok: --rt-hold 0 turns it off"

# --- monitor: the live line names it while it spins, -o keeps the section
"$RTMEASURE" monitor -a 1 -D 4s --rt-hold 100ms --refresh 200ms -o "$t/mon" >"$t/mon.out" \
	2>"$t/mon.err" </dev/null &
rpid=$!
pids+=("$rpid")
for i in $(seq 300); do	# tracing (three instances) is on once the stream one exists
	ls /sys/kernel/tracing/instances | grep -q "^rtmeasure-$rpid-stream\$" && break
	kill -0 "$rpid" 2>/dev/null || break
	sleep 0.1
done
"$inject" --cpu 1 --priority 90 --spin 800ms --every 7s --count 1 --delay 100ms >"$t/inj2" ||
	fail "inject exited $?"
wait "$rpid" || fail "monitor exited $?: $(cat "$t/mon.err")"
no_instances_of "$rpid"
judged_alone "$t/mon"
grep -q "^RT tasks holding a CPU > 100 ms: rtm-inject [0-9]* FIFO 90 on CPU 1 running " \
	"$t/mon.out" || fail "the monitor's line never showed the spinner running"
grep -q "^RT tasks holding a CPU > 100 ms: rtm-inject [0-9]* FIFO 90 on CPU 1: [0-9]* intervals\?, " \
	"$t/mon.out" || fail "the monitor's line never showed the spinner's hold"
jq -e '[.sections.rt_holds.tasks[] | select(.comm == "rtm-inject" and .policy == "FIFO" and
	.cpu == 1)] | length == 1' "$t/mon/result.json" >/dev/null ||
	fail "monitor -o: the spinner is not in sections.rt_holds"
echo "ok: monitor shows it live and keeps it with -o"

[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = -1 ] || fail "RT throttling changed under us"
exit 0
