#!/bin/sh
# record-timerlat.sh - guest script: record the timerlat tracer's raw ring-buffer
# pages (its ftrace:timerlat samples, IRQ and thread context) and formats
# (tests/data/trace-rt-6.1-timerlat), with listing.txt: per CPU and context the
# kernel's own text of the samples summed up (count, first and last seqnum,
# min, max and sum of timer_latency), and the first 20 sample lines verbatim,
# to check the decoding against. facts.txt: the osnoise/ files, whether an
# instance may run timerlat, the timerlat kthreads' scheduling.
#
# Run by: scripts/kernel-lab/boot --kernel rt --run scripts/kernel-lab/guest/record-timerlat.sh
# then copy OUT/out/timerlat/* (but trace.txt) to tests/data/trace-rt-6.1-timerlat/.
set -u
T=/sys/kernel/tracing
D=$OUT/timerlat
mkdir -p "$D/events/ftrace/timerlat"
cp $T/events/header_page $T/events/header_event "$D/events/"
cp $T/events/ftrace/timerlat/format "$D/events/ftrace/timerlat/"
: > "$D/events/ftrace/enable"	# the decoder loads systems that have one
cd $T || exit 1
{
	echo "# osnoise/ files and values"
	for f in osnoise/*; do [ -f "$f" ] && echo "$f: $(cat "$f" 2>&1 | head -c 200)"; done
	echo "# timerlat in an instance"
	mkdir instances/tlcheck && echo timerlat > instances/tlcheck/current_tracer &&
		echo "instance: $(cat instances/tlcheck/current_tracer)"
	sleep 1
	for p in /proc/[0-9]*; do
		c=$(cat "$p/comm" 2>/dev/null)
		case "$c" in timerlat/*) echo "kthread $c pid ${p#/proc/} policy/prio: $(awk '{print $41, $18}' "$p/stat")";; esac
	done
	echo nop > instances/tlcheck/current_tracer
	rmdir instances/tlcheck
} > "$D/facts.txt" 2>&1
echo 0 > tracing_on
echo mono > trace_clock
echo 2000 > osnoise/timerlat_period_us
echo timerlat > current_tracer
echo 1 > tracing_on
sleep 1
echo 0 > tracing_on
cat trace > "$D/trace.txt"
# trace_pipe_raw blocks when empty: timeout ends the read after the last page
for c in 0 1; do timeout 1 cat per_cpu/cpu$c/trace_pipe_raw > "$D/cpu$c.raw"; done
echo nop > current_tracer
echo 1000 > osnoise/timerlat_period_us
echo local > trace_clock
{
	echo "# the first 20 samples as the kernel prints them"
	grep 'timer_latency' "$D/trace.txt" | head -20
	echo "# per CPU and context: cpu context count first_seq last_seq min_ns max_ns sum_ns"
	awk '/timer_latency/ { cpu = $0; sub(/.*\[/, "", cpu); sub(/\].*/, "", cpu); cpu += 0
		for (i = 1; i <= NF; i++) {
			if ($i == "context") ctx = $(i + 1)
			if ($i == "timer_latency") lat = $(i + 1)
			if ($i ~ /^#[0-9]+$/) seq = substr($i, 2)
		}
		k = cpu " " ctx
		if (!(k in n)) { first[k] = seq; mn[k] = lat; mx[k] = lat }
		n[k]++; last[k] = seq; s[k] += lat
		if (lat + 0 < mn[k] + 0) mn[k] = lat
		if (lat + 0 > mx[k] + 0) mx[k] = lat }
		END { for (k in n) print "# " k, n[k], first[k], last[k], mn[k], mx[k], s[k] }' \
		"$D/trace.txt" | sort
} > "$D/listing.txt"
cat "$D/facts.txt" "$D/listing.txt"
