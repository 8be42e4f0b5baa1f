#!/bin/bash
# Integration: rtmeasure hwlat with hwlatdetect's options and units. --window
# and --width in microseconds, --threshold in us, --duration in seconds, and
# --cpu-list reach result.json; --report FILE holds every sample of the gap
# lists in hwlatdetect's layout, --watch printed each of them; the summary
# has hwlatdetect's lines; where the busy loop measures (no hwlat tracer, or
# --backend user) the first line says interrupts stay enabled there; a
# largest sample above --hardlimit is exit 1, as hwlatdetect. Never asserts
# timing.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
measure_lock "$@"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# the busy loop even where the kernel has the hwlat tracer (--report and --watch need it)
backend=()
grep -qsw hwlat /sys/kernel/tracing/available_tracers && backend=(--backend user)

"$RTMEASURE" hwlat "${backend[@]}" --duration 2 --window 200000 --width 100000 \
	--threshold 10 --hardlimit 5000000 --cpu-list 1 --report "$out/report.txt" --watch \
	-o "$out/a" >"$out/a.out" 2>"$out/a.err"
rc=$?
[ "$rc" -eq 0 ] || fail "hwlat exited $rc: $(cat "$out/a.err")"
jq -e '.sections.noise | .window_ns == 200000000 and .width_ns == 100000000 and
	.threshold_ns == 10000 and .backend == "user" and (.cpus | map(.cpu)) == [1]' \
	"$out/a/result.json" >/dev/null || fail "hwlatdetect's units did not reach result.json"
jq -e '.options.duration_ns == 2000000000' "$out/a/result.json" >/dev/null ||
	fail "--duration 2 is not 2 s"
head -n1 "$out/a.err" | grep -q "^rtmeasure hwlat: the userspace busy loop measures.*interrupts enabled" ||
	fail "the first line does not say interrupts stay enabled: $(head -n1 "$out/a.err")"
n=$(jq '[.sections.noise.cpus[].gap_list | length] | add' "$out/a/result.json")
[ "$n" -gt 0 ] || fail "no sample above 10 us in 2 s (the tick alone makes some)"
[ "$(wc -l <"$out/report.txt")" -eq "$n" ] && ! grep -qv \
	'^ts: [0-9]*\.[0-9]\{9\}, inner:[0-9]*, outer:0, cpu:1$' "$out/report.txt" ||
	fail "--report: not $n lines in hwlatdetect's layout: $(head -n3 "$out/report.txt")"
diff <(grep '^ts: ' "$out/a.out" | sort) <(sort "$out/report.txt") >/dev/null ||
	fail "--watch did not print each sample of the report"
grep -q "^Samples recorded: $n\$" "$out/a.out" &&
	grep -q "^Samples exceeding threshold: $n\$" "$out/a.out" &&
	grep -q '^Max Latency: [0-9]*us$' "$out/a.out" &&
	grep -q "^report saved to $out/report.txt ($n samples)\$" "$out/a.out" ||
	fail "hwlatdetect's summary lines missing: $(grep -v '^ts: ' "$out/a.out")"

# --hardlimit below the largest sample: exit 1 (hwlatdetect's), the results kept
"$RTMEASURE" hwlat "${backend[@]}" --duration 1 --window 100000 --width 50000 \
	--threshold 10 --hardlimit 1 -q -a 1 -o "$out/b" >"$out/b.out" 2>"$out/b.err"
rc=$?
if jq -e '[.sections.noise.cpus[].gaps] | add > 0' "$out/b/result.json" >/dev/null; then
	[ "$rc" -eq 1 ] && grep -q 'above --hardlimit 1us: exit status 1' "$out/b.err" ||
		fail "a sample above --hardlimit 1: exit $rc ($(cat "$out/b.err"))"
else
	[ "$rc" -eq 0 ] || fail "no sample, yet exit $rc"
fi
exit 0
