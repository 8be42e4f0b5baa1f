#!/bin/sh
# record-osnoise.sh - guest script: record the osnoise tracer's raw ring-buffer
# pages (its per-period ftrace:osnoise summaries and the osnoise:* events) and
# formats (tests/data/trace-rt-6.1-osnoise), with listing.txt: the kernel's own
# text of the summaries, and per CPU the count, longest and number above 20 us
# of its osnoise:sample_threshold lines, to check the decoding against.
#
# Run by: scripts/kernel-lab/boot --kernel rt --run scripts/kernel-lab/guest/record-osnoise.sh
# then copy OUT/out/osnoise/* (but trace.txt, ~1 MB) to tests/data/trace-rt-6.1-osnoise/.
set -u
T=/sys/kernel/tracing
D=$OUT/osnoise
mkdir -p "$D/events/ftrace/osnoise"
cp -r $T/events/osnoise "$D/events/"
cp $T/events/header_page $T/events/header_event "$D/events/"
cp $T/events/ftrace/osnoise/format "$D/events/ftrace/osnoise/"
cd $T || exit 1
echo 0 > tracing_on
echo mono > trace_clock
echo 0 > osnoise/stop_tracing_us
echo 50000 > osnoise/runtime_us		# of the default 1 s period
echo 1 > tracing_thresh
echo 1 > events/osnoise/enable
echo osnoise > current_tracer
echo 1 > tracing_on
sleep 3
echo 0 > tracing_on
cat trace > "$D/trace.txt"
# trace_pipe_raw blocks when empty: timeout ends the read after the last page
for c in 0 1; do timeout 1 cat per_cpu/cpu$c/trace_pipe_raw > "$D/cpu$c.raw"; done
echo 0 > events/osnoise/enable
echo nop > current_tracer
echo 1000000 > osnoise/runtime_us
echo 0 > tracing_thresh
echo local > trace_clock
{
	grep -v '^#' "$D/trace.txt" | grep -v 'sample_threshold\|_noise:'
	echo "# osnoise:sample_threshold per CPU: cpu events max_duration_ns above_20us sum_duration_ns"
	awk '/sample_threshold:/ { cpu = $2; gsub(/[\[\]]/, "", cpu)
		for (i = 1; i <= NF; i++) if ($i == "duration") d = $(i + 1)
		n[cpu]++; if (d > mx[cpu]) mx[cpu] = d; if (d > 20000) a[cpu]++; s[cpu] += d }
		END { for (c in n) print "# " c, n[c], mx[c], a[c], s[c] }' "$D/trace.txt" | sort
} > "$D/listing.txt"
