#!/bin/bash
# Integration: the trace module's streaming mode (root, tracefs).
#  - tracing stays on while the buffers are drained between bursts of numbered
#    trace_marker writes: every marker comes back once, in order, nothing lost
#  - a 64 KB buffer never drained in time overflows: the events that did not
#    fit are counted (dropped), never hidden
#  - the drains keep each CPU's trace_pipe_raw open between them, not opened
#    and closed at each
#  - the drained pages kept: each drain leaves every marker so far in them, and
#    rtm_trace_kept_until() says from when
#  - a stream's steal times from /proc/stat kept open agree with a fresh read
#  - no instance is left behind
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_tracefs
measure_lock "$@"

check="$RTM_BUILDDIR/tests/helpers/trace_check"
field() { sed -n "s/.*\b$1=\([0-9]*\).*/\1/p"; }

out=$("$check" stream) || fail "trace_check stream exited $?"
echo "$out"
facts=$(echo "$out" | tail -1)
[ "$(echo "$facts" | field drains)" = 10 ] || fail "not drained while tracing: $facts"
[ "$(echo "$facts" | field markers)" = "$(echo "$facts" | field written)" ] ||
	fail "markers missing: $facts"
[ "$(echo "$facts" | field out_of_order)" = 0 ] || fail "markers out of order: $facts"
[ "$(echo "$facts" | field lost)" = 0 ] && [ "$(echo "$facts" | field dropped)" = 0 ] ||
	fail "events lost while streaming: $facts"

# the pages kept (rtm_trace_keep()): after each drain every marker so far, in
# order, and rtm_trace_kept_until() after the burst (the window a capture waits for)
[ "$(echo "$facts" | field kept_whole)" = 10 ] ||
	fail "kept pages short of the markers drained, or kept_until before them: $facts"
[ "$(echo "$facts" | field kept_markers)" = "$(echo "$facts" | field written)" ] ||
	fail "kept pages after the last read: $facts"
# a window's read starts at the kept page its start time falls in (found by halving):
# from marker 1000's time on, markers 1000 to 1999, in order, none missing
[ "$(echo "$facts" | field kept_from_1000)" = $(( $(echo "$facts" | field written) - 1000 )) ] ||
	fail "the kept pages from marker 1000's time: $facts"

# the readers stay open between drains (until the instance goes): one per CPU
[ "$(echo "$facts" | field readers)" -gt 0 ] 2>/dev/null ||
	fail "no per-CPU trace_pipe_raw open after the drains: reopened at each: $facts"

out=$("$check" overflow) || fail "trace_check overflow exited $?"
echo "$out"
facts=$(echo "$out" | tail -1)
written=$(echo "$facts" | field written)
markers=$(echo "$facts" | field markers)
missing=$((written - markers))
[ "$missing" -gt 0 ] || fail "a 64 KB buffer held all $written markers: $facts"
[ $(( $(echo "$facts" | field lost) + $(echo "$facts" | field dropped) )) -ge "$missing" ] ||
	fail "$missing markers missing but fewer events counted as lost: $facts"
[ "$(echo "$facts" | field out_of_order)" = 0 ] || fail "markers out of order: $facts"

for inst in $(echo "$out" | sed -n 's/^instance=//p'); do
	[ ! -d "/sys/kernel/tracing/instances/$inst" ] || fail "instance $inst left behind"
done
# the census's steal times from /proc/stat kept open (rtm_stream_steal(), at every drain):
# three reads, each CPU listed and within a tick of a fresh read's
out=$("$check" steal) || fail "trace_check steal exited $?"
echo "$out"
n=$(echo "$out" | field cpus)
[ "$(echo "$out" | field listed)" = $((3 * n)) ] && [ "$(echo "$out" | field agree)" = $((3 * n)) ] ||
	fail "steal times through the kept /proc/stat: $out"
inst=$(echo "$out" | sed -n 's/^instance=//p')
[ -n "$inst" ] && [ ! -d "/sys/kernel/tracing/instances/$inst" ] || fail "stream $inst left behind"

echo "PASS: streaming drains in order without loss; overflow counted; steal times agree"
