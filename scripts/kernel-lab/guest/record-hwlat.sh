#!/bin/sh
# record-hwlat.sh - guest script: record the hwlat tracer's raw ring-buffer pages
# and event format (tests/data/trace-rt-6.1-hwlat), with the kernel's own text
# listing of the same events (trace.txt) to check the decoding against.
#
# Run by: scripts/kernel-lab/boot --kernel rt --run scripts/kernel-lab/guest/record-hwlat.sh
# then copy OUT/out/hwlat/* to tests/data/trace-rt-6.1-hwlat/.
set -u
T=/sys/kernel/tracing
D=$OUT/hwlat
mkdir -p "$D/events/ftrace/hwlat"
cp $T/events/header_page $T/events/header_event "$D/events/"
cp $T/events/ftrace/hwlat/format "$D/events/ftrace/hwlat/"
cd $T || exit 1
echo 0 > tracing_on
echo mono > trace_clock
echo 1 > tracing_thresh
echo 100000 > hwlat_detector/width
echo 200000 > hwlat_detector/window
echo hwlat > current_tracer
echo 1 > tracing_on
sleep 3
echo 0 > tracing_on
cat trace > "$D/trace.txt"
# trace_pipe_raw blocks when empty: timeout ends the read after the last page
for c in 0 1; do timeout 1 cat per_cpu/cpu$c/trace_pipe_raw > "$D/cpu$c.raw"; done
echo nop > current_tracer
echo 0 > tracing_thresh
echo local > trace_clock
uname -a > "$D/uname"
