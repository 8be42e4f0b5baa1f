#!/bin/bash
# Integration: the trace module on the live kernel (root, tracefs).
#  - a private rtmeasure-<pid> instance with trace clock mono: trace_marker
#    writes carrying CLOCK_MONOTONIC come back as events a few microseconds
#    later; sched/irq/timer events decode; nothing lost; per-CPU time order
#  - the instance is gone afterwards; the top-level instance is untouched
#  - SIGKILL during a traced run leaves a stale instance that the next run
#    removes, saying so; staleness is decided by the instance's lock, so a
#    process in another PID namespace (PID 1 there) is neither taken for
#    alive nor robbed of its instance by one with the same PID
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_tracefs
measure_lock "$@"

check="$RTM_BUILDDIR/tests/helpers/trace_check"
T=/sys/kernel/tracing
field() { sed -n "s/.*\b$1=\(-\?[0-9]*\).*/\1/p"; }

top_on=$(cat $T/tracing_on)
top_clock=$(cat $T/trace_clock)
top_events=$(grep -c . $T/set_event)

out=$("$check" run) || fail "trace_check run exited $?"
echo "$out"
inst=$(echo "$out" | sed -n 's/^instance=//p')
[ -n "$inst" ] || fail "no instance name"
[ ! -d "$T/instances/$inst" ] || fail "instance $inst left behind"
facts=$(echo "$out" | grep '^events=')
[ "$(echo "$facts" | field markers)" = 20 ] || fail "markers: $facts"
[ "$(echo "$facts" | field lost)" = 0 ] || fail "events lost: $facts"
[ "$(echo "$facts" | field disorder)" = 0 ] || fail "time order broken: $facts"
min=$(echo "$facts" | field min_delta_ns)
[ "$min" -ge 0 ] && [ "$min" -le 20000 ] ||
	fail "trace clock vs CLOCK_MONOTONIC: marker event $min ns after the clock read"
types=$(echo "$out" | tail -1)
for ty in sched_switch sched_wakeup hrtimer_entry print; do
	n=$(echo "$types" | field $ty)
	[ "$n" -gt 0 ] || fail "no $ty events decoded: $types"
done

# the top-level instance is as it was
[ "$(cat $T/tracing_on)" = "$top_on" ] || fail "top-level tracing_on changed"
[ "$(cat $T/trace_clock)" = "$top_clock" ] || fail "top-level trace_clock changed"
[ "$(grep -c . $T/set_event)" = "$top_events" ] || fail "top-level events changed"

# SIGKILL leaves a stale instance; the next run removes it and says so. The
# runs here use a lock directory of their own: rtmeasure runs of other tests
# (default lock directory) find no lock file for these instances and leave
# them alone, so what is seen here is this test's doing only.
export RTMEASURE_LOCK_DIR="$RTM_BUILDDIR/trace_basic.locks.$$"
mkdir -p "$RTMEASURE_LOCK_DIR"
hold="$RTM_BUILDDIR/trace_hold.$$"
cleanup() {	# on any exit: what this test's killed processes left goes too
	kill -9 $pid 2>/dev/null
	wait 2>/dev/null
	sleep 1	# not an assertion: --kill-child's PID 1 dies just after unshare
	"$check" run >/dev/null 2>&1	# removes them: their lock files are still there
	rm -rf "$RTMEASURE_LOCK_DIR" "$hold".*
}
trap cleanup EXIT
wait_instance() {	# FILE: the instance= line a held trace_check wrote
	local i
	for i in $(seq 3000); do	# slow under a sanitizer on a loaded box
		grep -q '^instance=' "$1" 2>/dev/null && break
		sleep 0.1
	done
	sed -n 's/^instance=//p' "$1"
}
"$check" run --hold 600 >"$hold.1" &
pid=$!
inst=$(wait_instance "$hold.1")
[ "$inst" = "rtmeasure-$pid" ] || { kill -9 $pid; fail "instance '$inst', want rtmeasure-$pid"; }
[ -d "$T/instances/$inst" ] || { kill -9 $pid; fail "instance $inst not seen"; }
kill -9 $pid
wait $pid 2>/dev/null
[ -d "$T/instances/$inst" ] || fail "expected a stale instance after SIGKILL"
out=$("$check" run) || fail "trace_check after SIGKILL exited $?"
[ ! -d "$T/instances/$inst" ] || fail "stale instance $inst not removed"
echo "$out" | grep -qx "stale=$inst" || fail "the removal of $inst was not reported: $out"

# Staleness is the instance's lock, not kill(PID, 0): a process in a PID
# namespace of its own is PID 1 there, and PID 1 (init) always runs out here.
command -v unshare >/dev/null || skip "unshare (util-linux) missing"
unshare --pid --fork --kill-child "$check" run --hold 600 >"$hold.2" &
pid=$!
inst=$(wait_instance "$hold.2")
[ "$inst" = rtmeasure-1 ] || { kill -9 $pid; fail "in a PID namespace: instance '$inst'"; }
# a second process with the same PID in another namespace gets a name of its own
out=$(unshare --pid --fork "$check" run) || fail "second PID 1: trace_check exited $?"
echo "$out" | grep -qx 'instance=rtmeasure-1\.1' ||
	fail "same PID in another namespace: $(echo "$out" | head -2 | tr '\n' ' ')"
[ -d "$T/instances/rtmeasure-1" ] || fail "the second PID 1 removed the live rtmeasure-1"
kill -9 $pid	# --kill-child: PID 1 inside dies with unshare
wait $pid 2>/dev/null
for _ in $(seq 100); do
	"$check" run >"$hold.3" 2>&1 && grep -qx 'stale=rtmeasure-1' "$hold.3" && break
	sleep 0.1	# PID 1 of the namespace exits just after unshare
done
grep -qx 'stale=rtmeasure-1' "$hold.3" || fail "stale rtmeasure-1 not removed: $(cat "$hold.3")"
[ ! -d "$T/instances/rtmeasure-1" ] || fail "rtmeasure-1 left behind"
[ -z "$(ls -A "$RTMEASURE_LOCK_DIR")" ] || fail "lock files left: $(ls "$RTMEASURE_LOCK_DIR")"
echo "PASS: private instance, mono clock within $min ns, decoding, clean-up after SIGKILL (said in one line), staleness by lock across PID namespaces"
