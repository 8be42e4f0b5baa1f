#!/bin/bash
# Integration: a traced run removes its trace instances in the reverse order of
# their making, after a whole run and after SIGINT. An event enabled in two
# instances has two probes on its tracepoint; when the first one registered
# goes while the other stays, the kernel waits an RCU grace period for that
# event (a second for sched, irq and timer on a 6.18 guest). strace shows the
# order of the instances' mkdir and rmdir calls; none is left behind. The
# set-up and teardown switch events on and off a system at a time (one write to
# events/SYSTEM/enable, events/enable), without walking every event system of
# the kernel (libtracefs' tracefs_event_enable() looks at ~1900 enable files).
# Each instance costs tens of milliseconds of kernel work to make and remove
# (its clock and buffer size set, its rmdir: RCU grace periods under the
# kernel's trace_types_lock), and every event it records costs the traced
# wake-up its write: a traced run makes one, the stream, which is the flight
# recorder too (the drains keep its pages for the captures) and whose IRQ events
# also give sections.irq's handler times (with the softirq raises, without the
# IRQ threads' runs: what an instance of their own gave). With --trace-events,
# the flight recorder is an instance of its own: two, removed in reverse order.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_tracefs
need_jq
command -v strace >/dev/null || skip "strace is not installed"
measure_lock "$@"

out=$(mktemp -d)
trap 'kill $st 2>/dev/null; rm -rf "$out"' EXIT

# the instances' names as made (mkdir) and as removed (rmdir), one a line
made() { sed -n 's|.*mkdir("/sys/kernel/tracing/instances/\([^"]*\)".*= 0$|\1|p' "$1"; }
removed() { sed -n 's|.*rmdir("/sys/kernel/tracing/instances/\([^"]*\)").*= 0$|\1|p' "$1"; }
check_order() {	# STRACE-FILE WHAT N
	local m r
	m=$(made "$1" | tac | tr '\n' ' ')
	r=$(removed "$1" | tr '\n' ' ')
	[ "$(made "$1" | wc -l)" -eq "$3" ] || fail "$2: $(made "$1" | wc -l) instances made" \
		"(${m:-none}), not $3"
	[ "$r" = "$m" ] || fail "$2: instances removed in the order $r, not the reverse of their making ($m)"
	echo "ok: $2: removed $r"
}

strace -f -e trace=%file -o "$out/run.st" \
	"$RTMEASURE" cyclic -D 1s -q --trace --capture-above 10ms -o "$out/a" >/dev/null 2>"$out/a.err" ||
	fail "cyclic --trace --capture-above exited $? ($(cat "$out/a.err"))"
check_order "$out/run.st" "a whole run" 1
[ "$(made "$out/run.st")" = "rtmeasure-$(made "$out/run.st" | sed -n 's/^rtmeasure-\([0-9]*\).*/\1/p')-stream" ] ||
	fail "the one instance is not the stream: $(made "$out/run.st")"
n=$(grep -cE '"/sys/kernel/tracing/.*/enable"' "$out/run.st")
[ "$n" -le 200 ] || fail "a traced run looked at $n enable files: a system's file enables its events"
echo "ok: $n enable files looked at"
pid=$(made "$out/run.st" | sed -n '1s/^rtmeasure-\([0-9]*\).*/\1/p')
no_instances_of "$pid"
# the handler times, from the stream's events
irq=$(jq -c '.sections.irq' "$out/a/result.json")
jq -e '.handlers_complete == true and (.trace_lost | type) == "number"' <<<"$irq" >/dev/null ||
	fail "sections.irq: handler times incomplete: $(jq -c 'del(.handlers, .interrupts)' <<<"$irq")"
jq -e '[.handlers.sources[] | select(.kind == "irq" or .kind == "vector")] | length > 0' \
	<<<"$irq" >/dev/null || fail "sections.irq: no IRQ or vector handler times"
jq -e '[.handlers.sources[] | select(.kind == "softirq") | .per_cpu[].raised // 0] | add > 0' \
	<<<"$irq" >/dev/null || fail "sections.irq: no softirq raise counted"
jq -e '[.handlers.sources[] | select(.kind == "thread")] | length == 0' <<<"$irq" >/dev/null ||
	fail "sections.irq: IRQ threads' runs among the handler times"
echo "ok: handler times of $(jq '.handlers.sources | length' <<<"$irq") sources, raises counted"

strace -f -e trace=mkdir,rmdir -o "$out/int.st" \
	"$RTMEASURE" cyclic -D 60s -q --trace --capture-above 10ms -o "$out/b" >/dev/null 2>"$out/b.err" &
st=$!
for i in $(seq 600); do	# the run's pid, from its first instance's name
	pid=$(made "$out/int.st" 2>/dev/null | sed -n '1s/^rtmeasure-\([0-9]*\).*/\1/p')
	[ -n "$pid" ] && break
	sleep 0.1
done
[ -n "$pid" ] || fail "no trace instance made within 60 s"
wait_probes "$pid"
kill -INT "$pid"
wait $st
rc=$?
[ $rc -eq 130 ] || fail "cyclic stopped by SIGINT exited $rc, not 130 ($(cat "$out/b.err"))"
check_order "$out/int.st" "stopped by SIGINT" 1
no_instances_of "$pid"

# --trace-events: the flight recorder of its own, made first and removed last
strace -f -e trace=%file -o "$out/ev.st" \
	"$RTMEASURE" cyclic -D 1s -q --trace --trace-events sched,irq --capture-above 10ms \
	-o "$out/c" >/dev/null 2>"$out/c.err" ||
	fail "cyclic --trace --trace-events exited $? ($(cat "$out/c.err"))"
check_order "$out/ev.st" "with --trace-events" 2
pid=$(made "$out/ev.st" | sed -n '1s/^rtmeasure-\([0-9]*\).*/\1/p')
no_instances_of "$pid"
