#!/bin/bash
# Integration: a 3 s rtmeasure cyclic run on all CPUs (root, real RT threads).
# Samples per CPU within 2% of duration/interval, every latency positive,
# result.json loads, histogram.txt adds up.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
measure_lock "$@"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
check="$RTM_BUILDDIR/tests/helpers/result_check"

json=$("$RTMEASURE" cyclic -D 3s -i 1000us -q --json -o "$out/r") || fail "cyclic exited $?"
echo "$json" | jq -e . >/dev/null || fail "--json output is not JSON"
ncpu=$(getconf _NPROCESSORS_ONLN)
[ "$(echo "$json" | jq '.cpus | length')" -eq "$ncpu" ] || fail "not one row per CPU"

facts=$("$check" "$out/r") || fail "result.json does not load: $facts"
echo "$facts"
echo "$facts" | grep -q "duration_ns=3000000000 interrupted=0" || fail "duration is not 3 s"
while read -r line; do
	case "$line" in cpu=*) ;; *) continue ;; esac
	eval "$(echo "$line" | tr ' ' '\n' | sed 's/^/f_/')"
	# 3 s at 1 ms: 3000 planned wake-ups; overruns are wake-ups that were swallowed
	total=$((f_count + f_overruns))
	# a stall at the very end may count overruns past the end: allow some above
	[ "$total" -ge 2940 ] && [ "$total" -le 3200 ] ||
		fail "cpu $f_cpu: $f_count samples + $f_overruns overruns, want 3000 +- 2%"
	[ "$f_min_ns" -gt 0 ] || fail "cpu $f_cpu: a latency of 0 ns"
	[ "$f_corrected" -ge "$f_count" ] || fail "cpu $f_cpu: corrected has fewer samples"
	[ "$f_ts_points" -ge 3 ] || fail "cpu $f_cpu: $f_ts_points time-series points for 3 s"
done <<<"$facts"

# histogram.txt: cyclictest layout, rows + overflows = samples for every CPU
h="$out/r/histogram.txt"
[ "$(head -1 "$h")" = "# Histogram" ] || fail "histogram.txt header"
for ((i = 0; i < ncpu; i++)); do
	rows=$(awk -v c=$((i + 2)) '!/^#/ { s += $c } END { print s + 0 }' "$h")
	total=$(awk -v c=$((i + 3)) '/^# Total:/ { print $c + 0 }' "$h")
	over=$(awk -v c=$((i + 4)) '/^# Histogram Overflows:/ { print $c + 0 }' "$h")
	samples=$(jq ".cpus[$i].samples" <<<"$json")
	[ "$rows" -eq "$total" ] || fail "cpu index $i: rows sum $rows != Total $total"
	[ $((total + over)) -eq "$samples" ] || fail "cpu index $i: $total + $over != $samples"
done
grep -q '^# Max Latencies:' "$h" || fail "no Max Latencies line"

echo "PASS: 3 s on $ncpu CPUs, counts, files and histogram.txt consistent"
