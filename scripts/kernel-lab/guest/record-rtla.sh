#!/bin/sh
# Guest script for scripts/kernel-lab/boot: record `rtla timerlat hist` and
# `rtla osnoise hist` text outputs on the lab's PREEMPT_RT kernel, for the
# import tests (tests/data/import/). The host's rtla binary and the shared
# libraries ldd lists for it are passed with --file (they land in /lab/):
#
#   scripts/kernel-lab/boot --kernel rt --run scripts/kernel-lab/guest/record-rtla.sh \
#       --file /usr/bin/rtla --file /lib/x86_64-linux-gnu/libtracefs.so.1 \
#       --file /lib/x86_64-linux-gnu/libtraceevent.so.1 \
#       --file /lib/x86_64-linux-gnu/libc.so.6 --file /lib64/ld-linux-x86-64.so.2 \
#       --out DIR
#
#   DURATION  seconds per recording (default 10)
# Writes $OUT/timerlat-hist-us.txt, timerlat-hist-ns.txt, osnoise-hist-us.txt
# (stdout of each run), *.err (stderr) and $OUT/info (uname, rtla version,
# the exact command lines).
set -u
DURATION=${DURATION:-10}
RTLA="/lab/ld-linux-x86-64.so.2 --library-path /lab /lab/rtla"
[ -x /lab/rtla ] || { echo "record-rtla: pass --file /usr/bin/rtla and its libraries"; exit 2; }
[ -e /sys/kernel/tracing/available_tracers ] ||
    mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
grep -qw timerlat /sys/kernel/tracing/available_tracers ||
    { echo "record-rtla: this kernel has no timerlat tracer"; exit 2; }
sleep 2

RC=0
run() {	# run NAME ARGS...: rtla ARGS > $OUT/NAME.txt
    name=$1
    shift
    echo "rtla $*" >> "$OUT/info"
    # shellcheck disable=SC2086
    $RTLA "$@" > "$OUT/$name.txt" 2> "$OUT/$name.err"
    rc=$?
    echo "  rc=$rc, $(wc -l < "$OUT/$name.txt") lines" >> "$OUT/info"
    [ "$rc" -eq 0 ] || RC=1
}

{
    uname -a
    cat /proc/cmdline
    $RTLA --help 2>&1 | sed -n 2p
} > "$OUT/info" 2>&1
run timerlat-hist-us timerlat hist -d "$DURATION"
run timerlat-hist-ns timerlat hist -d "$DURATION" -n -b 500 -E 400
run osnoise-hist-us osnoise hist -d "$DURATION" -p 100000 -r 50000
cat "$OUT/info"
for f in "$OUT"/*.err; do
    [ -s "$f" ] && { echo "== $f"; head -20 "$f"; }
done
exit $RC
