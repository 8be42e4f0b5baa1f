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
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_tracefs
command -v strace >/dev/null || skip "strace is not installed"
measure_lock "$@"

out=$(mktemp -d)
trap 'kill $st 2>/dev/null; rm -rf "$out"' EXIT

# the instances' names as made (mkdir) and as removed (rmdir), one a line
made() { sed -n 's|.*mkdir("/sys/kernel/tracing/instances/\([^"]*\)".*= 0$|\1|p' "$1"; }
removed() { sed -n 's|.*rmdir("/sys/kernel/tracing/instances/\([^"]*\)").*= 0$|\1|p' "$1"; }
check_order() {	# STRACE-FILE WHAT
	local m r
	m=$(made "$1" | tac | tr '\n' ' ')
	r=$(removed "$1" | tr '\n' ' ')
	[ "$(made "$1" | wc -l)" -ge 2 ] || fail "$2: fewer than two instances made: ${m:-none}"
	[ "$r" = "$m" ] || fail "$2: instances removed in the order $r, not the reverse of their making ($m)"
	echo "ok: $2: removed $r"
}

strace -f -e trace=%file -o "$out/run.st" \
	"$RTMEASURE" cyclic -D 1s -q --trace --capture-above 10ms -o "$out/a" >/dev/null 2>"$out/a.err" ||
	fail "cyclic --trace --capture-above exited $? ($(cat "$out/a.err"))"
check_order "$out/run.st" "a whole run"
n=$(grep -cE '"/sys/kernel/tracing/.*/enable"' "$out/run.st")
[ "$n" -le 200 ] || fail "a traced run looked at $n enable files: a system's file enables its events"
echo "ok: $n enable files looked at"
pid=$(made "$out/run.st" | sed -n '1s/^rtmeasure-\([0-9]*\).*/\1/p')
no_instances_of "$pid"

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
check_order "$out/int.st" "stopped by SIGINT"
no_instances_of "$pid"
