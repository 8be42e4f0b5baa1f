#!/bin/sh
# noise-backends.sh - guest script (boot --kernel rt --with-build): rtmeasure
# noise with the hwlat and osnoise backends and the busy loop on the same boot,
# and whether the tracers' settings are left as found (after a run, after
# SIGTERM, after a refusal because another instance holds the tracer). Writes
# to /out: hw/, os/, user/, term/, osterm/ (results folders), state-*.txt (the
# settings), rc-* (exit statuses), busy*.err.
# NOISE_DURATION (default 5s) is each run's length.
set -u
T=/sys/kernel/tracing
D=${NOISE_DURATION:-5s}
state() {
	for f in current_tracer tracing_thresh tracing_on tracing_cpumask hwlat_detector/width \
		hwlat_detector/window hwlat_detector/mode osnoise/cpus osnoise/period_us \
		osnoise/runtime_us osnoise/stop_tracing_us osnoise/stop_tracing_total_us; do
		echo "$f=$(cat $T/$f)"
	done
	ls $T/instances
}
cd "$OUT" || exit 2
state > state-before.txt
rtmeasure noise --backend hwlat -D "$D" -o "$OUT/hw"; echo $? > rc-hw
state > state-after-hw.txt
# --threshold 10us: under emulation every microsecond of noise would be a sample event
rtmeasure noise --backend osnoise --threshold 10us -D "$D" -o "$OUT/os"; echo $? > rc-os
state > state-after-os.txt
rtmeasure noise --backend user -D "$D" -o "$OUT/user"; echo $? > rc-user
rtmeasure hwlat -D 30s -q -o "$OUT/term" > term.out 2>&1 &
p=$!
sleep 4
kill -TERM $p
wait $p; echo $? > rc-term
state > state-after-term.txt
rtmeasure noise --backend osnoise -D 30s -q -o "$OUT/osterm" > osterm.out 2>&1 &
p=$!
sleep 4
kill -TERM $p
wait $p; echo $? > rc-osterm
state > state-after-osterm.txt
mkdir $T/instances/other && echo hwlat > $T/instances/other/current_tracer
rtmeasure noise --backend hwlat -D 2s -o "$OUT/busy" 2> busy.err; echo $? > rc-busy
echo nop > $T/instances/other/current_tracer
echo osnoise > $T/instances/other/current_tracer
rtmeasure noise --backend osnoise -D 2s -o "$OUT/osbusy" 2> osbusy.err; echo $? > rc-osbusy
echo nop > $T/instances/other/current_tracer
rmdir $T/instances/other
state > state-after-busy.txt
exit 0
