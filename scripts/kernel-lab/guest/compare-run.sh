#!/bin/sh
# Guest script of scripts/kernel-lab/compare-kernels (boot --with-build and
# --program stress-ng/hackbench): one `rtmeasure run` on this kernel.
#   RUN_ARGS  arguments of `rtmeasure run` (--duration, --load, ...); --no-report
#             is added (the guest has no gnuplot: the host makes the report)
#   SETTLE    seconds to wait after boot before measuring (default 2)
# Runs in /out (see /init), so the default results folder of `rtmeasure run`
# (rtmeasure-<host>-<release>-<time>) lands where the lab brings files back.
# Writes $OUT/sysinfo.txt too.
set -u
[ "${LAB_BUILD:-}" = 1 ] || { echo "compare-run: boot with --with-build"; exit 2; }
# loopback up: stress-ng --sock (run --throughput, --load net without hackbench) talks TCP over it
ip link set lo up 2>/dev/null
sleep "${SETTLE:-2}"
rtmeasure sysinfo > "$OUT/sysinfo.txt" 2>&1
grep -E '^(kernel|preemption|virtual) ' "$OUT/sysinfo.txt"
# shellcheck disable=SC2086
rtmeasure run ${RUN_ARGS:-} --no-report
RC=$?
echo "rtmeasure rc=$RC"
exit "$RC"
