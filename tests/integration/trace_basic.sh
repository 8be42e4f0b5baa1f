#!/bin/bash
# Integration: the trace module on the live kernel (root, tracefs).
#  - a private rtmeasure-<pid> instance with trace clock mono: trace_marker
#    writes carrying CLOCK_MONOTONIC come back as events a few microseconds
#    later; sched/irq/timer events decode; nothing lost; per-CPU time order
#  - the instance is gone afterwards; the top-level instance is untouched
#  - SIGKILL during a traced run leaves a stale instance that the next run
#    removes
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_tracefs

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

# SIGKILL leaves a stale instance; the next run removes it
"$check" run --hold 30 >"$RTM_BUILDDIR/trace_hold.out" &
pid=$!
for _ in $(seq 50); do
	[ -d "$T/instances/rtmeasure-$pid" ] && break
	sleep 0.1
done
[ -d "$T/instances/rtmeasure-$pid" ] || { kill -9 $pid; fail "instance rtmeasure-$pid not seen"; }
kill -9 $pid
wait $pid 2>/dev/null
[ -d "$T/instances/rtmeasure-$pid" ] || fail "expected a stale instance after SIGKILL"
"$check" run >/dev/null || fail "trace_check after SIGKILL exited $?"
[ ! -d "$T/instances/rtmeasure-$pid" ] || fail "stale instance rtmeasure-$pid not removed"
left=$(ls $T/instances | grep -c '^rtmeasure-')
[ "$left" -eq 0 ] || fail "$left rtmeasure instances left"
rm -f "$RTM_BUILDDIR/trace_hold.out"
echo "PASS: private instance, mono clock within $min ns, decoding, clean-up after SIGKILL"
