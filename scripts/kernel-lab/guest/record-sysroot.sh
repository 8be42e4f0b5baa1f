#!/bin/sh
# Guest script for scripts/kernel-lab/boot: record a sysroot into
# $OUT/sysroot with scripts/record-sysroot (shipped as /lab/record-sysroot).
#   SETTLE  seconds to wait before recording (default 3), so that the
#           boot-time kernel threads (irq/N-name, rcu, ...) exist
SETTLE=${SETTLE:-3}
sleep "$SETTLE"
sh /lab/record-sysroot --mount --how "$LAB_HOW" \
    --note "${LAB_NOTE:-kernel lab, $LAB_KERNEL kernel}" "$OUT/sysroot" || exit 1
echo "recorded $(find "$OUT/sysroot" -type f | wc -l) files, $(du -sk "$OUT/sysroot" | cut -f1) KiB"
cat "$OUT/sysroot/RECORDED"
