#!/bin/bash
# Integration: RT set-up and background load on the live system (root).
# tests/helpers/rt_check applies SCHED_FIFO 95 to a thread and pins it to CPU 1,
# holds /dev/cpu_dma_latency at 0, runs the cpu,vm and io,net loads for a
# second each; this script then checks that the system is left as found.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
command -v stress-ng >/dev/null || skip "stress-ng not installed (apt-get install stress-ng)"
[ -e /dev/cpu_dma_latency ] || skip "/dev/cpu_dma_latency missing (kernel without CPU latency QoS)"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 online CPUs (pins to CPU 1)"
[ "$(cat /sys/devices/system/cpu/cpu1/online 2>/dev/null || echo 1)" = 1 ] ||
	skip "CPU 1 is offline"
measure_lock "$@"

helper="$RTM_BUILDDIR/tests/helpers/rt_check"
[ -x "$helper" ] || fail "$helper not built (make check builds it)"

out=$(mktemp)
trap 'rm -f "$out"' EXIT
dma_before=$(od -An -t d4 /dev/cpu_dma_latency | tr -d ' ')

"$helper" --cpu 1 >"$out" 2>&1
rc=$?
cat "$out"
case $rc in
0) ;;
77) exit 77 ;;
*) fail "rt_check exited $rc" ;;
esac

# what rt_check reported must be gone: its load directories and their processes
for d in $(sed -n 's/^ok: temporary directory \(.*\) exists$/\1/p' "$out"); do
	[ -e "$d" ] && fail "load directory $d left behind"
done
grep -q '^ok: temporary directory .* removed' "$out" || fail "no load directory checked"
dma_after=$(od -An -t d4 /dev/cpu_dma_latency | tr -d ' ')
if [ "$dma_before" != "$dma_after" ]; then
	# another process (a concurrent test) may hold a request of its own
	holder=$(find /proc/[0-9]*/fd -lname /dev/cpu_dma_latency 2>/dev/null | head -n 1)
	[ -n "$holder" ] || fail "cpu_dma_latency is $dma_after after the test, was $dma_before"
	echo "note: cpu_dma_latency $dma_before -> $dma_after, held by ${holder%/fd/*}"
fi
echo "PASS: RT set-up, cpu_dma_latency and load start/stop work and leave nothing behind"
