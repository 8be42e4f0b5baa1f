#!/bin/bash
# Command-level tests of rtmeasure import of noise tools' output recorded in the
# kernel lab (tests/data/import/README.md): rtla osnoise top and hist, and
# hwlatdetect, as noise results; the summary, report and the refusals.
. "$RTM_SRCDIR/tests/lib.sh"

D="$RTM_TESTDATA/import"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# ---------------------------------------------------------------- rtla osnoise top
run_cmd import -o "$t/top" "$D/rtla-osnoise-top-q.txt"
ok $(( rc != 0 )) "import of rtla osnoise top -q exits 0 ($err)"
echo "$out" | grep -q '^noise: backend osnoise-imported, imported from rtla osnoise top' &&
	echo "$out" | grep -Eq '^  0 +10005230 +5818034 +41\.85007 +40251 +unknown ' &&
	echo "$out" | grep -Eq '^  1 +1751 +0 +1343 +0 +338$'
ok $? "summary: rtla's runtime, noise, % CPU available, max single; counts by cause"
jq -e '.command == "import" and .tool == "rtla osnoise" and
	.sections.provenance.format == "rtla-osnoise-top" and
	.sections.noise.backend == "osnoise-imported" and
	.sections.noise.cpus[0].sampled_ns == 10005230000 and
	.sections.noise.cpus[0].max_period_noise_ns == 708825000 and
	.sections.noise.cpus[1].interference.irq == 1343 and
	.sections.noise.cpus[0].gaps == null and .sections.noise.window_ns == null' \
	"$t/top/result.json" >/dev/null
ok $? "result.json: sections.noise from rtla, unknowns null"
"$RTM_BUILDDIR/tests/helpers/result_check" "$t/top" >/dev/null
ok $? "the result loads and validates"

run_cmd import --json -o "$t/topj" "$D/rtla-osnoise-top.txt"
echo "$out" | jq -e '.[0].summary.backend == "osnoise-imported" and
	.[0].summary.cpus[0].noise_ns == 1500680000 and
	(.[0].provenance.notes[0] | test("5 screens, the last one"))' >/dev/null
ok $? "the refreshing screen: its last screen; --json gives the noise summary"

# ---------------------------------------------------------------- rtla osnoise hist
run_cmd import -o "$t/hist" "$D/rtla-osnoise-hist-default.txt"
[ "$rc" -eq 0 ] && jq -e '.sections.noise.backend == "osnoise-imported" and
	(.cpus | length) == 0 and .sections.noise.cpus[0].gaps == 11047 and
	.sections.noise.cpus[1].max_gap_ns == 7536500 and
	.sections.noise.cpus[0].hist.count == 10829' "$t/hist/result.json" >/dev/null
ok $? "osnoise hist: a noise result, the noise histogram per CPU"

# ---------------------------------------------------------------- hwlatdetect
run_cmd import -o "$t/hw" "$D/hwlatdetect.txt"
[ "$rc" -eq 0 ] && echo "$out" | grep -q '^hwlat: 9 samples, inner max 505 ms, outer max 501 ms; NMIs unknown'
ok $? "hwlatdetect: summary with inner/outer maxima, NMIs unknown ($err)"
jq -e '.sections.noise.backend == "hwlat-imported" and .sections.noise.threshold_ns == 10000 and
	.sections.noise.cpus[0].cpu == -1 and .sections.noise.cpus[0].samples == 9 and
	(.sections.noise.cpus[0].gap_list | length) == 9 and
	.sections.noise.cpus[0].nmi_count == null and .created == "2026-12-05T11:19:07Z"' \
	"$t/hw/result.json" >/dev/null
ok $? "hwlatdetect: result.json samples as gaps, the unknowns null"
run_cmd import -q -o "$t/hwr" "$D/hwlatdetect-report.txt"
[ "$rc" -eq 0 ] && jq -e '.sections.noise.threshold_ns == null and
	.sections.noise.cpus[0].samples == 9' "$t/hwr/result.json" >/dev/null
ok $? "hwlatdetect --report file: the samples, the settings unknown"

# ---------------------------------------------------------------- report
if command -v gnuplot >/dev/null; then
	run_cmd report -o "$t/hwrep" "$t/hw"
	[ "$rc" -eq 0 ] &&
		grep -q '^| unknown | 9 | 505383.0 | 500731.0 | unknown | unknown | unknown |$' \
			"$t/hwrep/report.md" &&
		grep -q 'SMIs during the run: unknown' "$t/hwrep/report.md" &&
		grep -q '<h2>hwlat samples</h2>' "$t/hwrep/report.html"
	ok $? "report: hwlat's inner/outer maxima, NMIs unknown ($err)"
	run_cmd report -o "$t/toprep" "$t/top"
	[ "$rc" -eq 0 ] &&
		grep -q '^| 0 | 10005230.0 | 5818034.0 | 41.85007 | 40251.0 | unknown | unknown | unknown |$' \
			"$t/toprep/report.md" &&
		grep -q 'Gap lengths unknown: the source does not give them' "$t/toprep/report.md" &&
		! grep -q 'hwlat samples' "$t/toprep/report.md"
	ok $? "report of rtla osnoise top: rtla's figures, unknown where it gives none"
else
	echo "ok - # SKIP report: gnuplot not installed"
fi

# ---------------------------------------------------------------- export
run_cmd export --csv-gaps "$t/hw"
[ "$rc" -eq 0 ] && [ "$(echo "$out" | sed -n 2p)" = "-1,0,500731000" ] &&
	[ "$(echo "$out" | grep -c .)" -eq 10 ]
ok $? "export --csv-gaps of hwlatdetect: the 9 samples"
expect_usage_error "export --csv of rtla osnoise top: no gap lengths" export --csv "$t/top"

# ---------------------------------------------------------------- refused
head -c 700 "$D/hwlatdetect.txt" > "$t/hw-cut.txt"
run_cmd import -o "$t/e1" "$t/hw-cut.txt"
[ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] &&
	echo "$err" | grep -q 'truncated' && [ ! -e "$t/e1" ]
ok $? "cut hwlatdetect output: one line, exit 2, no folder ($err)"
sed 's/41.85007/41.95007/' "$D/rtla-osnoise-top-q.txt" > "$t/top-bad.txt"
run_cmd import -o "$t/e2" "$t/top-bad.txt"
[ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] &&
	echo "$err" | grep -q 'inconsistent'
ok $? "rtla osnoise top with a wrong % CPU available: one line, exit 2 ($err)"
run_cmd import -F rtla-osnoise-top -q -o "$t/f1" "$D/rtla-osnoise-top.txt"
[ "$rc" -eq 0 ] && [ -f "$t/f1/result.json" ]
ok $? "-F rtla-osnoise-top on its format imports ($err)"
run_cmd import -F hwlatdetect -o "$t/e3" "$D/rtla-osnoise-hist-default.txt"
[ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] &&
	echo "$err" | grep -q 'is not hwlatdetect output (its content is of the format rtla-hist'
ok $? "-F on another format: one line naming both, exit 2 ($err)"
expect_usage_error "-F with an unknown name" import -F osnoise -o "$t/e4" "$D/hwlatdetect.txt"
done_testing
