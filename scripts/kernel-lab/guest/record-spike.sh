#!/bin/sh
# Guest script for scripts/kernel-lab/boot --with-build: measure CPU 0 with
# `rtmeasure cyclic` while a load runs, and keep the spike windows it saves.
#   PREP      shell commands run first (e.g. sysctls)
#   LOAD      the load generator: one simple command, run in the background
#   AFTER     shell commands run 1 s after LOAD started (e.g. IRQ affinity)
#   CLEANUP   shell commands run after the load was stopped
#   RTM_ARGS  arguments of `rtmeasure cyclic` (-o and -q are added)
#   SETTLE    seconds to wait after boot (default 2)
# Writes $OUT/result.json, $OUT/spikes/, $OUT/load.txt, $OUT/interrupts.{before,after}
# and $OUT/info (uname, cmdline, threads with their policy and priority).
set -u
SETTLE=${SETTLE:-2}
[ "${LAB_BUILD:-}" = 1 ] || { echo "record-spike: boot with --with-build"; exit 2; }
sleep "$SETTLE"
ip link set lo up 2>/dev/null
[ -z "${PREP:-}" ] || eval "$PREP"
cat /proc/interrupts > "$OUT/interrupts.before"
LPID=""
if [ -n "${LOAD:-}" ]; then
    eval "exec $LOAD" > "$OUT/load.txt" 2>&1 &
    LPID=$!
    sleep 1
fi
[ -z "${AFTER:-}" ] || eval "$AFTER"
{
    uname -a
    cat /proc/cmdline
    cat /sys/kernel/debug/sched/preempt 2>/dev/null
    for t in /proc/[0-9]*/task/[0-9]*; do
        printf '%s %s\n' "$(cat "$t/comm" 2>/dev/null)" "$(cut -d' ' -f1,18,40,41 "$t/stat" 2>/dev/null)"
    done
} > "$OUT/info" 2>/dev/null
# shellcheck disable=SC2086
rtmeasure cyclic $RTM_ARGS -q -o /tmp/res
RC=$?
[ -z "$LPID" ] || { kill "$LPID" 2>/dev/null; wait "$LPID"; }
[ -z "${CLEANUP:-}" ] || eval "$CLEANUP"
cat /proc/interrupts > "$OUT/interrupts.after"
cp /tmp/res/result.json "$OUT/" 2>/dev/null
[ -d /tmp/res/spikes ] && cp -r /tmp/res/spikes "$OUT/"
for f in "$OUT"/spikes/*.json; do
    [ -f "$f" ] || continue
    printf '%s %s bytes: ' "${f##*/}" "$(wc -c < "$f")"
    sed -n 's/^  "verdict": "\(.*\)"$/\1/p' "$f"
done
echo "rtmeasure rc=$RC"
[ "$RC" -le 1 ]
