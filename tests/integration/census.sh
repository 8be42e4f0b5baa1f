#!/bin/bash
# Integration: the spike census (lib/trace/census.c) names the injector of
# every injection, not only of the few the flight recorder captures. A FIFO 99
# injector spins 1.5 ms every 300 ms on CPU 0, 10 times, during a 5 s
# `cyclic --trace --capture-above 900us --capture-holdoff 250ms --max-captures 30
# -a 0-1 -i 500us`. At 500 us every spin of 1.5 ms holds a wake-up of CPU 0 for
# more than 1 ms whatever its phase (at the default 1 ms an injection beginning
# in the last 0.6 ms before a wake-up delays none past 900 us: "every injection"
# would not be defined). For each injection the census lists a wake-up of CPU 0
# planned inside it whose cause is "thread" with comm rtm-inject and the
# injector's pid (10 of 10). The summary prints the census; result.json's section
# passes the load check (rtmeasure report); captures are per CPU (CPU 0 has one
# of its own); no trace instance is left. Nothing here asserts a latency.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
need_tracefs
measure_lock "$@"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs"
for e in hrtimer_start hrtimer_expire_entry; do
	grep -q "^timer:$e\$" /sys/kernel/tracing/available_events ||
		skip "this kernel has no timer:$e event"
done
grep -qw hrtimer_wakeup /proc/kallsyms || skip "no hrtimer_wakeup in /proc/kallsyms"

out=$(mktemp -d)
trap 'rm -rf "$out"; kill $inj 2>/dev/null' EXIT
inject="$RTM_BUILDDIR/tests/helpers/inject"

"$RTMEASURE" cyclic --trace --capture-above 900us --capture-holdoff 250ms --max-captures 30 \
	-a 0-1 -i 500us -D 5s -o "$out/c" >"$out/c.out" 2>"$out/c.err" &
cyc=$!
wait_probes $cyc
"$inject" --cpu 0 --spin 1500us --every 300ms --count 10 --delay 300ms >"$out/inj.txt" &
inj=$!
wait $cyc || fail "cyclic exited $? ($(cat "$out/c.err"))"
wait $inj || fail "inject failed"
no_instances_of $cyc
r="$out/c/result.json"
jq -e '.sections.spike_census' "$r" >/dev/null ||
	fail "no sections.spike_census: $(jq -c '.sections | keys' "$r")"
grep -q '^Spike census' "$out/c.out" || fail "the summary has no census: $(cat "$out/c.out")"
grep -A1 '^Spike census' "$out/c.out"

named=0
while read -r what n start end; do
	[ "$what" = inject ] || continue
	if jq -e --argjson a "$((start - 500000))" --argjson b "$end" --argjson pid "$inj" \
		'[.sections.spike_census.list[] | select(.cpu == 0 and .planned_mono_ns >= $a and
		  .planned_mono_ns <= $b and .cause == "thread" and .comm == "rtm-inject" and
		  .pid == $pid)] | length > 0' "$r" >/dev/null; then
		named=$((named + 1))
	else
		echo "injection $n ($start-$end) not named: $(jq -c --argjson a "$((start - 500000))" \
			--argjson b "$end" '[.sections.spike_census.list[] | select(.cpu == 0 and
			.planned_mono_ns >= $a and .planned_mono_ns <= $b)]' "$r")"
	fi
done <"$out/inj.txt"
echo "census: the injector named for $named of 10 injections"
[ "$named" = 10 ] || fail "the injector named for $named of 10 injections"
jq -e '.sections.spike_census.list_truncated == false' "$r" >/dev/null ||
	fail "the list was truncated"
# the section passes the load check (report loads result.json)
"$RTMEASURE" report "$out/c" >/dev/null 2>"$out/r.err" || fail "report: $(cat "$out/r.err")"
grep -q 'Spike census' "$out/c/report.html" || fail "report.html has no census"
n0=$(jq '[.events[] | select(.type == "spike_capture" and .cpu == 0)] | length' "$r")
n1=$(jq '[.events[] | select(.type == "spike_capture" and .cpu == 1)] | length' "$r")
echo "captures: CPU 0 $n0, CPU 1 $n1"
[ "$n0" -ge 1 ] || fail "no capture on CPU 0 (per-CPU captures)"
echo "PASS: the census named the injector for 10 of 10 injections"
