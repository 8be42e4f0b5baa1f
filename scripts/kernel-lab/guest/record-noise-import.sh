#!/bin/sh
# Guest script for scripts/kernel-lab/boot: record `rtla osnoise top`,
# `rtla osnoise hist` and rt-tests' hwlatdetect outputs on the lab's
# PREEMPT_RT kernel, for the import tests (tests/data/import/). The host's
# rtla and its libraries come with --file (as for record-rtla.sh); hwlatdetect
# needs python3: the host's /usr/bin/python3.11 comes with --program and the
# part of its standard library hwlatdetect imports as a tar file (PYLIB):
#
#   mkdir -p /tmp/py/lib/python3.11 && cd /usr/lib/python3.11 &&
#   tar cf - --exclude=__pycache__ *.py collections encodings importlib re |
#       (cd /tmp/py/lib/python3.11 && tar xf -) && cd /tmp/py && tar cf /tmp/pylib.tar lib
#   scripts/kernel-lab/boot --kernel rt --run scripts/kernel-lab/guest/record-noise-import.sh \
#       --file /usr/bin/rtla --file /lib/x86_64-linux-gnu/libtracefs.so.1 \
#       --file /lib/x86_64-linux-gnu/libtraceevent.so.1 \
#       --file /lib/x86_64-linux-gnu/libc.so.6 --file /lib64/ld-linux-x86-64.so.2 \
#       --program /usr/bin/python3.11 --file /tmp/pylib.tar --file /usr/sbin/hwlatdetect \
#       --out DIR
#
#   DURATION  seconds per recording (default 10)
# Writes $OUT/osnoise-top-q.txt (rtla osnoise top -q), osnoise-top.txt (the
# refreshing screen, escape sequences and all), osnoise-hist.txt,
# hwlatdetect.txt (stdout) and hwlatdetect-report.txt (--report), *.err
# (stderr) and $OUT/info (uname, versions, the exact command lines).
set -u
DURATION=${DURATION:-10}
RTLA="/lab/ld-linux-x86-64.so.2 --library-path /lab /lab/rtla"
T=/sys/kernel/tracing
[ -x /lab/rtla ] || { echo "record-noise-import: pass --file /usr/bin/rtla and its libraries"; exit 2; }
[ -e $T/available_tracers ] || mount -t tracefs nodev $T 2>/dev/null
grep -qw osnoise $T/available_tracers ||
    { echo "record-noise-import: this kernel has no osnoise tracer"; exit 2; }
grep -q ' debugfs ' /proc/mounts || mount -t debugfs none /sys/kernel/debug
sleep 2

RC=0
run() {	# run NAME CMD...: CMD > $OUT/NAME.txt
    name=$1
    shift
    echo "$*" >> "$OUT/info"
    # shellcheck disable=SC2086
    timeout 60 "$@" > "$OUT/$name.txt" 2> "$OUT/$name.err"
    rc=$?
    echo "  rc=$rc, $(wc -l < "$OUT/$name.txt") lines" >> "$OUT/info"
    [ "$rc" -eq 0 ] || RC=1
}

{
    uname -a
    cat /proc/cmdline
    $RTLA --help 2>&1 | sed -n 2p
    date -u
} > "$OUT/info" 2>&1
# shellcheck disable=SC2086
run osnoise-top-q $RTLA osnoise top -q -d "$DURATION"
# shellcheck disable=SC2086
run osnoise-top $RTLA osnoise top -d 4
# shellcheck disable=SC2086
run osnoise-hist $RTLA osnoise hist -d "$DURATION"
echo nop > $T/current_tracer

if [ -x /lab/bin/python3.11 ] && [ -e /lab/pylib.tar ] && [ -e /lab/hwlatdetect ]; then
    mkdir -p /lab/py && (cd /lab/py && tar xf /lab/pylib.tar)
    mkdir -p /usr/sbin /bin
    export PYTHONHOME=/lab/py
    /lab/bin/python3.11 -c 'import sys; print("python", sys.version.split()[0])' >> "$OUT/info" 2>&1
    run hwlatdetect /lab/bin/python3.11 /lab/hwlatdetect --duration=${DURATION}s \
        --threshold=10us --report="$OUT/hwlatdetect-report.txt"
    # hwlatdetect exits 1 when the maximum is above the threshold (hardlimit)
else
    echo "no python3.11/pylib.tar/hwlatdetect in /lab: hwlatdetect not recorded" >> "$OUT/info"
fi
cat "$OUT/info"
for f in "$OUT"/*.err; do
    [ -s "$f" ] && { echo "== $f"; head -20 "$f"; }
done
exit $RC
