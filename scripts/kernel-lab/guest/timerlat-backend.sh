#!/bin/sh
# timerlat-backend.sh - guest script (boot --kernel rt --with-build): rtmeasure
# cyclic --backend timerlat and the userspace probe on the same boot (and
# `rtla timerlat hist` when /lab/rtla was passed with --file), and whether
# timerlat's settings are left as found (after a run, after SIGTERM, after the
# refusals because another instance holds timerlat or osnoise). Writes to
# /out: tl/, timer/, term/ (results folders), *.json (--json summaries),
# rtla.txt, state-*.txt (the settings), kthreads.txt (the timerlat/N threads'
# policy and priority during the run), rc-* (exit statuses), busy*.err.
# TL_DURATION (default 3s) is each run's length.
set -u
T=/sys/kernel/tracing
D=${TL_DURATION:-3s}
state() {
	for f in current_tracer tracing_on tracing_cpumask osnoise/cpus osnoise/period_us \
		osnoise/runtime_us osnoise/stop_tracing_us osnoise/stop_tracing_total_us \
		osnoise/timerlat_period_us osnoise/print_stack; do
		echo "$f=$(cat $T/$f)"
	done
	ls $T/instances
	grep -hs '^timerlat/' /proc/[0-9]*/comm | sed 's/^/thread left: /'
}
# the timerlat/N kthreads' rt_priority and policy (/proc/PID/stat fields 40 and 41);
# one grep over /proc: a fork per process takes seconds under emulation
kthreads() {
	for f in $(grep -ls '^timerlat/' /proc/[0-9]*/comm); do
		echo "$(cat "$f") $(cut -d' ' -f40,41 "${f%/comm}/stat")"
	done
}
cd "$OUT" || exit 2
# settings that differ from what rtmeasure writes, so putting them back shows
echo 700 > $T/osnoise/timerlat_period_us
echo 5000 > $T/osnoise/stop_tracing_total_us
state > state-before.txt
rtmeasure cyclic --backend timerlat -p 90 -D "$D" -o "$OUT/tl" --json=tl.json > tl.out 2>&1 &
p=$!
# the kthreads appear once rtmeasure has started (slow under emulation): wait for
# them, then a second more (rtmeasure sets their priority after their first sample)
i=0
while [ $i -lt 40 ] && [ -z "$(kthreads)" ]; do sleep 0.25; i=$((i + 1)); done
sleep 1
kthreads > kthreads.txt
wait $p; echo $? > rc-tl
state > state-after-tl.txt
rtmeasure cyclic -D "$D" -o "$OUT/timer" --json=timer.json > timer.out 2>&1; echo $? > rc-timer
if [ -x /lab/rtla ]; then
	# rtla takes the stop_tracing settings it finds: none for it; 10 us buckets to
	# 20 ms (emulation's latencies run to milliseconds)
	echo 0 > $T/osnoise/stop_tracing_total_us
	/lab/ld-linux-x86-64.so.2 --library-path /lab /lab/rtla timerlat hist -d "${D%s}" \
		-b 10 -E 2000 > rtla.txt 2> rtla.err
	echo $? > rc-rtla
	echo 5000 > $T/osnoise/stop_tracing_total_us
	echo 700 > $T/osnoise/timerlat_period_us
fi
rtmeasure cyclic --backend timerlat -D 30s -q -o "$OUT/term" > term.out 2>&1 &
p=$!
sleep 4
kill -TERM $p
wait $p; echo $? > rc-term
state > state-after-term.txt
mkdir $T/instances/other && echo timerlat > $T/instances/other/current_tracer
rtmeasure cyclic --backend timerlat -D 2s -o "$OUT/busy" 2> busy.err; echo $? > rc-busy
# auto leaves timerlat to its user and measures with the userspace probe
rtmeasure cyclic --backend auto -D 2s -q -o "$OUT/auto" > auto.out 2>&1; echo $? > rc-auto
echo nop > $T/instances/other/current_tracer
echo osnoise > $T/instances/other/current_tracer
rtmeasure cyclic --backend timerlat -D 2s -o "$OUT/osbusy" 2> osbusy.err; echo $? > rc-osbusy
echo nop > $T/instances/other/current_tracer
rmdir $T/instances/other
state > state-after-busy.txt
exit 0
