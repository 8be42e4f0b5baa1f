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
# A run still there after $2 seconds has hung: what its threads and every
# runnable task were doing goes to /out/hang-$3.txt and the kernel log (the
# console, even when user-space output is stuck), then SIGKILL: its rc is 137
# and the test names the hang instead of timing out blind. At fifo 99 (chrt,
# when boot --program chrt brought it), so an RT hog cannot hold it off; off the
# console's pipe (its sleep would hold the guest's output open past the script).
watchdog() {	# PID SECONDS NAME
	c=; command -v chrt >/dev/null && c="chrt -f 99"
	$c sh -c '
		pid=$1 secs=$2 name=$3 f=/out/hang-$3.txt
		sleep "$secs"
		kill -0 "$pid" 2>/dev/null || exit 0
		{
		echo "hang: $name (pid $pid) still running after $secs s"
		for t in /proc/$pid/task/*; do
			echo "thread $(cat $t/comm): wchan $(cat $t/wchan) stat $(cut -d" " -f3,14,15,39,40,41 $t/stat)"
		done
		for t in /proc/[0-9]*/task/*; do
			set -- $(sed "s/.*) //" $t/stat 2>/dev/null)
			[ "${1:-}" = R ] && echo "runnable: $(cat $t/comm) cpu ${37} rtprio ${38} policy ${39} utime ${12} stime ${13}"
		done
		} > "$f" 2>&1
		while read -r l; do echo "<3>rtlab-hang: $l" > /dev/kmsg; done < "$f"
		kill -KILL "$pid"' watchdog "$@" </dev/null >/dev/null 2>&1 &
	w=$!
}
# run NAME COMMAND...: the command under the watchdog (90 s: each run is a few seconds), its rc to rc-NAME
run() {
	n=$1; shift
	"$@" & p=$!
	watchdog $p 90 "$n"
	wait $p; echo $? > "rc-$n"
	kill $w 2>/dev/null
}
# step NAME: where the script is, in the kernel log (at level 3, so the quiet
# console shows it, even when user-space output is stuck) and for the
# script's own watchdog, which after 150 s (the boot's timeout is 240 s) names
# the step and every blocked or runnable task with its kernel stack
step() {
	echo "<3>rtlab-step: $1" > /dev/kmsg
	echo "$1" > /tmp/rtlab-step
}
c=; command -v chrt >/dev/null && c="chrt -f 99"
$c sh -c '
	sleep 150
	echo "<3>rtlab-hang: the guest script is stuck at step $(cat /tmp/rtlab-step)" > /dev/kmsg
	for t in /proc/[0-9]*/task/*; do
		st=$(sed "s/.*) //" $t/stat 2>/dev/null | cut -d" " -f1)
		case "$st" in D|R) ;; *) continue ;; esac
		echo "<3>rtlab-hang: $st $(cat $t/comm) wchan $(cat $t/wchan) $(head -n 6 $t/stack 2>/dev/null | tr "\n" " ")" > /dev/kmsg
	done' </dev/null >/dev/null 2>&1 &
cd "$OUT" || exit 2
state > state-before.txt
step hw
run hw rtmeasure noise --backend hwlat -D "$D" -o "$OUT/hw"
state > state-after-hw.txt
step os
# --threshold 10us: under emulation every microsecond of noise would be a sample event
run os rtmeasure noise --backend osnoise --threshold 10us -D "$D" -o "$OUT/os"
state > state-after-os.txt
step user
run user rtmeasure noise --backend user -D "$D" -o "$OUT/user"
step term
rtmeasure hwlat -D 30s -q -o "$OUT/term" > term.out 2>&1 &
p=$!
sleep 4
kill -TERM $p
watchdog $p 60 term
wait $p; echo $? > rc-term
kill $w 2>/dev/null
state > state-after-term.txt
step osterm
rtmeasure noise --backend osnoise -D 30s -q -o "$OUT/osterm" > osterm.out 2>&1 &
p=$!
sleep 4
kill -TERM $p
watchdog $p 60 osterm
wait $p; echo $? > rc-osterm
kill $w 2>/dev/null
state > state-after-osterm.txt
step "busy (hwlat in another instance)"
mkdir $T/instances/other && echo hwlat > $T/instances/other/current_tracer
run busy rtmeasure noise --backend hwlat -D 2s -o "$OUT/busy" 2> busy.err
step "osbusy (osnoise in another instance)"
echo nop > $T/instances/other/current_tracer
echo osnoise > $T/instances/other/current_tracer
run osbusy rtmeasure noise --backend osnoise -D 2s -o "$OUT/osbusy" 2> osbusy.err
step "the other instance removed"
echo nop > $T/instances/other/current_tracer
rmdir $T/instances/other
state > state-after-busy.txt
step done
exit 0
