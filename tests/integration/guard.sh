#!/bin/bash
# Integration: rtmeasure guard against a real runaway. A SCHED_FIFO 90
# spinner (tests/helpers/inject, bounded: it stops by itself after 3 s) on
# CPU 1 with RT throttling off (restored after, whatever happens): the
# report names it within --starve plus a poll (with 250 ms of slack for this
# shared VM); demote makes it SCHED_OTHER and the CPU's non-RT tasks run
# again; a protected spinner is left alone; the guard leaves RT throttling as
# it found it.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
measure_lock "$@"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs (the guard keeps one of its own)"
[ -w /proc/sys/kernel/sched_rt_runtime_us ] || skip "cannot switch RT throttling off here"

inject="$RTM_BUILDDIR/tests/helpers/inject"
t=$(mktemp -d)
old=$(cat /proc/sys/kernel/sched_rt_runtime_us)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill -CONT "$p" 2>/dev/null; kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	echo "$old" >/proc/sys/kernel/sched_rt_runtime_us
	rm -rf "$t"
}
trap cleanup EXIT

# run_case NAME GUARD-OPTIONS...: guard on CPU 1 while a 3 s spinner runs there
run_case() {
	local name=$1
	shift
	"$RTMEASURE" guard -a 1 --starve 500ms --poll 50ms -D 4s "$@" >"$t/$name.out" 2>"$t/$name.err" &
	gpid=$!
	pids+=("$gpid")
	sleep 0.5
	"$inject" --cpu 1 --priority 90 --spin 3s --every 7s --count 1 >"$t/$name.inj" &
	ipid=$!
	pids+=("$ipid")
	sleep 1.5
	policy=$(awk '{ print $41 }' /proc/$ipid/stat 2>/dev/null)
	wait "$gpid" || fail "$name: guard exited $?: $(cat "$t/$name.err")"
	kill -CONT "$ipid" 2>/dev/null	# a stopped spinner ends once resumed
	wait "$ipid" 2>/dev/null
	cat "$t/$name.out"
}

echo -1 >/proc/sys/kernel/sched_rt_runtime_us

run_case report --action report
grep -q "CPU 1 starved .*: rtm-inject (pid $ipid, tid $ipid, SCHED_FIFO 90) ran .*; reported" \
	"$t/report.out" || fail "report: the spinner is not named"
starved=$(sed -n 's/.*CPU 1 starved \([0-9.]*\) s: rtm-inject.*/\1/p' "$t/report.out" | head -n1)
awk -v s="$starved" 'BEGIN { exit !(s >= 0.5 && s <= 0.5 + 0.05 + 0.25) }' ||
	fail "report: named after $starved s, want --starve 0.5 s + a 0.05 s poll (+ 0.25 s slack)"
[ "$policy" = 1 ] || fail "report: the spinner's policy changed to $policy"
[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = -1 ] || fail "the guard changed RT throttling"
echo "ok: report names the spinner after $starved s and changes nothing"

run_case demote --action demote
grep -q "rtm-inject (pid $ipid.*; demoted to SCHED_OTHER" "$t/demote.out" ||
	fail "demote: no demotion logged"
[ "$policy" = 0 ] || fail "demote: the spinner is still policy $policy"
grep -q "CPU 1 non-RT tasks run again" "$t/demote.out" ||
	fail "demote: the CPU's canary did not run again"
grep -v 'rtm-inject\|non-RT tasks run again' "$t/demote.out" | grep -q 'demoted' &&
	fail "demote: something else than the spinner was demoted"
echo "ok: demote made the spinner SCHED_OTHER and the CPU's other tasks run again"

run_case protect --action demote --protect rtm-inject
grep -q "rtm-inject (pid $ipid.*; left alone: protected (--protect)" "$t/protect.out" ||
	fail "protect: not reported as protected"
[ "$policy" = 1 ] || fail "protect: the protected spinner was changed (policy $policy)"
echo "ok: a protected spinner is left alone"

run_case stop --action stop
grep -q "rtm-inject (pid $ipid.*; stopped (SIGSTOP" "$t/stop.out" || fail "stop: no SIGSTOP logged"
echo "ok: stop"

[ "$(cat /proc/sys/kernel/sched_rt_runtime_us)" = -1 ] || fail "the guard changed RT throttling"
exit 0
