#!/bin/bash
# Command-level tests of rtmeasure import and export on outputs of cyclictest,
# oslat and rtla recorded on real machines (tests/data/import/README.md).
. "$RTM_SRCDIR/tests/lib.sh"

D="$RTM_TESTDATA/import"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# ---------------------------------------------------------------- import
run_cmd import -o "$t/loaded" "$D/cyclictest-loaded-h50.txt"
ok $(( rc != 0 )) "import FILE -o DIR exits 0"
[ -f "$t/loaded/result.json" ]; ok $? "DIR/result.json written"
echo "$out" | grep -q '^note: thread 0: 240 of 14964 samples lay beyond'
ok $? "the output states the 240 overflowed samples of thread 0"
echo "$out" | grep -q '^note: .*not CPUs'; ok $? "the output says the entries are threads"
jq -e '.schema == "rtmeasure-result/1" and .command == "import" and .tool == "cyclictest" and
	.sections.provenance.format == "cyclictest-hist" and
	.sections.provenance.cpus[0].overflows == 240 and
	.sections.provenance.cpus[1].overflows == 471 and
	.sections.provenance.cpus_known == false and
	(.sections.provenance.notes | length) > 0' "$t/loaded/result.json" >/dev/null
ok $? "result.json: provenance with the overflows per thread"
"$RTM_BUILDDIR/tests/helpers/result_check" "$t/loaded" >/dev/null
ok $? "the result loads and validates"

run_cmd import -a 0-1 -q -o "$t/aff" "$D/cyclictest-break-h200.txt"
[ "$rc" -eq 0 ] && [ -z "$out" ] &&
	jq -e '.sections.provenance.cpus_known and .events[0].type == "break" and
		.events[0].cpu == 1 and .events[0].latency_ns == 4252500' \
		"$t/aff/result.json" >/dev/null
ok $? "-a 0-1: CPUs; -b trailer as a break event; -q prints nothing"
jq -e '.options == {"cpus": "0-1"}' "$t/aff/result.json" >/dev/null
ok $? "-a 0-1: options.cpus, and nothing the text does not tell"

run_cmd import -o "$t/many" "$D/cyclictest-h100.json" "$D/cyclictest-h100.txt" "$D/oslat.json" \
	"$D/rtla-timerlat-hist-us.txt" "$D/rtla-osnoise-hist-us.txt"
[ "$rc" -eq 0 ] && [ -f "$t/many/oslat/result.json" ] &&
	[ -f "$t/many/rtla-timerlat-hist-us/result.json" ] &&
	[ -f "$t/many/rtla-osnoise-hist-us/result.json" ]
ok $? "several FILEs: DIR/<name without extension>/ each"
[ -f "$t/many/cyclictest-h100.json/result.json" ] && [ -f "$t/many/cyclictest-h100.txt/result.json" ]
ok $? "two FILEs that differ in the extension only keep it"
jq -e '.tool == "cyclictest 2.40" and
	.sections.provenance.command_line == "cyclictest -m -p95 -a 0-1 -t2 -h 100 -D 10 -q --json=ct-json-h100.json" and
	.created == "2026-12-03T13:08:28Z"' "$t/many/cyclictest-h100.json/result.json" >/dev/null
ok $? "rt-tests JSON: version, command line (\"cmdline:\"), start time"
jq -e '.sections.timerlat.irq | length == 2' "$t/many/rtla-timerlat-hist-us/result.json" \
	>/dev/null
ok $? "rtla timerlat: IRQ latency kept in sections.timerlat"

# samples beyond the histogram: the percentiles among them are unknown, avg is cyclictest's
run_cmd import -o "$t/h400t" "$D/cyclictest-loaded-h400.txt"
echo "$out" | grep -Eq '^0 +19775 +17\.5 +113\.0 +52\.5 +>400 +>400 +- +16965\.5 '
ok $? "-h 400 with overflow: all samples, cyclictest's avg, p99 and p99.9 '>400', p99.99 '-'"
run_cmd import --json -o "$t/h400k" "$D/cyclictest-loaded-h400.txt"
echo "$out" | jq -e '.[0].summary.cpus[0] | .samples == 19775 and .avg_ns == 113000 and
	.["p99_ns"] == null and (.unknown["p99_ns"] | test("1048 of 19775")) and
	.unknown_above_ns == 400000' >/dev/null
ok $? "--json: unknown percentiles null, with the reason"
jq -e '.sections.provenance.cpus[0] | .run_percentiles_ns["p99"] == null and
	(.run_percentiles_unknown | test("1048 samples beyond .* 400000 ns"))' \
	"$t/h400t/result.json" >/dev/null
ok $? "result.json: the run's unknown percentiles null, with the reason"
run_cmd compare "$t/h400t" "$t/loaded"
echo "$out" | grep -Eq '^all +h400t +39588 +17\.5 +106\.0 +51\.5 +>400 +>400 +- +16965\.5'
ok $? "compare: an import's unknown percentiles as '>400', p99.99 of 39588 '-', every sample counted"
run_cmd compare --json "$t/h400t" "$t/loaded"
echo "$out" | jq -e '.runs[0] | .all["p99_ns"] == null and (.all.unknown["p99_ns"] | test("of 39588 samples")) and
	.all["p99.99_ns"] == null and .all.unknown["p99.99_ns"] == "too few samples: 39588, 100000 needed" and
	.percentiles[0].value_ns == null and (.percentiles[0].unknown | type) == "string" and
	.all.samples == 39588' >/dev/null
ok $? "compare --json: an import's unknown percentiles null, with the reason"
if command -v gnuplot >/dev/null; then
	run_cmd compare -o "$t/cmp" "$t/h400t" "$t/loaded"
	grep -q '&gt;400 (unknown: beyond the imported histogram)' "$t/cmp/compare.html"
	ok $? "compare.html: the intervals table marks an import's unknown percentiles"
else
	echo "ok - # SKIP compare.html: gnuplot not installed"
fi

if command -v gnuplot >/dev/null; then
	run_cmd report -o "$t/h400r" "$t/h400t"
	grep -Eq '^\| 0 \| 19775 \| 17\.5 \| 113\.0 \| 52\.5 \| [0-9.]+ \| \\>400 \| \\>400 \| - \| 16965\.5 \|' \
		"$t/h400r/report.md" && grep -q '<td>&gt;400</td>' "$t/h400r/report.html" &&
		! grep -q 'min, avg and max exact' "$t/h400r/report.html"
	ok $? "report: '>400' for the unknown percentiles, no claim that min, avg, max are exact"
	grep -q '^| isolated CPUs | unknown |$' "$t/h400r/report.md" &&
		grep -q '^| load | unknown (not in the imported file) |$' "$t/h400r/report.md" &&
		grep -q '^| measured | CPUs unknown, interval unknown, scheduling unknown, probe mode unknown |$' \
			"$t/h400r/report.md" && grep -q 'duration unknown' "$t/h400r/report.md" &&
		! grep -Eq '\?, \?|0\.0 s measured|interval 0 us|none \(idle\)|\| none; nohz_full none' \
			"$t/h400r/report.md" "$t/h400r/report.html"
	ok $? "report of a text import: what it cannot know is 'unknown', not '?', 0 or 'none'"
	run_cmd import -q -o "$t/h400c" "$D/cyclictest-loaded-h400.json"
	run_cmd report -o "$t/h400cr" "$t/h400c"
	grep -q '^| measured | CPUs 0-1, interval 1000 us, fifo 95, probe mode unknown |$' \
		"$t/h400cr/report.md" && grep -q '20.0 s measured' "$t/h400cr/report.md"
	ok $? "report of a JSON import: CPUs, interval, priority from its command line"
else
	echo "ok - # SKIP report: gnuplot not installed"
fi

# fingerprints: from the command line, 'unknown' where the file does not tell
sed 's/"cyclictest -m -p95 -a 0-1 -t2 -h 400/"cyclictest -m -p95 -i 200 -a 0-1 -t2 -h 400/' \
	"$D/cyclictest-loaded-h400.json" >"$t/i200.json"
run_cmd import -q -o "$t/i200" "$t/i200.json"
run_cmd import -q -o "$t/i1000" "$D/cyclictest-loaded-h400.json"
run_cmd compare "$t/i1000" "$t/i200"
echo "$out" | grep -q '^warning: different interval (i1000: 1.00 ms; i200: 200 us)'
ok $? "compare: two imports that differ in interval (-i on their command lines) warn"
run_cmd compare "$t/i1000" "$t/h400t"
echo "$out" | grep -q '^warning: different interval (i1000: 1.00 ms; h400t: unknown)' &&
	echo "$out" | grep -Eq '^duration +20s +unknown$' &&
	echo "$out" | grep -Eq '^measured CPUs +0-1 +unknown$' && ! echo "$out" | grep -q ' ? '
ok $? "compare: an import without command line: interval, duration, CPUs 'unknown' (and warned)"

# cyclictest text names no command line: --command-line gives it
run_cmd import -q -C 'cyclictest -m -p95 -i 500 -a 0-1 -t2 -h 400 -D 20 -q' -o "$t/c500" \
	"$D/cyclictest-loaded-h400.txt"
[ "$rc" -eq 0 ] && jq -e '.options.interval_ns == 500000 and .options.cpus == "0-1" and
	.options.sched == {"policy": "fifo", "priority": 95} and .duration_ns == 20000000000 and
	.sections.provenance.cpus_known == false' "$t/c500/result.json" >/dev/null
ok $? "--command-line: interval, scheduling, CPUs, duration of a text import"
run_cmd compare "$t/c500" "$t/i1000"
echo "$out" | grep -q '^warning: different interval (c500: 500 us; i1000: 1.00 ms)'
ok $? "compare: a text import (--command-line -i 500) and a JSON one (no -i) differ in interval"
expect_usage_error "--command-line of another program" import -C 'stress-ng --cpu 2' \
	-o "$t/e13" "$D/cyclictest-loaded-h400.txt"

run_cmd import --json -o "$t/js" "$D/rtla-timerlat-hist-ns.txt"
echo "$out" | jq -e '.[0].provenance.unit == "ns" and .[0].provenance.row_width_ns == 500 and
	(.[0].summary | type) != "null"' >/dev/null
ok $? "--json: provenance (rtla --nano, bucket 500 ns) and summary"

# empty folder is fine, a non-empty one is not
mkdir "$t/empty"
run_cmd import -q -o "$t/empty" "$D/oslat.json"
ok $(( rc != 0 )) "an existing empty folder is used"

# ---------------------------------------------------------------- errors: exit 2, nothing written
no_output_dir() {	# DESC DIR: the folder and no temporary one exist
	[ ! -e "$2" ] && [ -z "$(ls -d "$2".import-tmp.* 2>/dev/null)" ]
	ok $? "$1: no folder left behind"
}
: >"$t/empty.txt"
expect_usage_error "empty file" import -o "$t/e1" "$t/empty.txt"
no_output_dir "empty file" "$t/e1"
echo "$err" | grep -q "empty.txt"; ok $? "the message names the file"
head -c 20000 "$D/cyclictest-idle-h2000.txt" >"$t/cut.txt"
expect_usage_error "truncated cyclictest text" import -o "$t/e2" "$t/cut.txt"
no_output_dir "truncated" "$t/e2"
head -c 1500 "$D/cyclictest-h100.json" >"$t/cut.json"
expect_usage_error "truncated JSON" import -o "$t/e3" "$t/cut.json"
sed 's/^000030 \(.*\)/000030 x\1/' "$D/cyclictest-idle-h2000.txt" >"$t/corrupt.txt"
expect_usage_error "corrupt row" import -o "$t/e4" "$t/corrupt.txt"
expect_usage_error "wrong format (an rtmeasure result)" import -o "$t/e5" \
	"$t/loaded/result.json"
head -c 2000 "$t/loaded/result.json" >"$t/cut-result.json"
expect_usage_error "a truncated rtmeasure result" import -o "$t/e5b" "$t/cut-result.json"
echo "$err" | grep -q 'cut-result.json is a truncated or corrupt rtmeasure result'
ok $? "a truncated result.json is named truncated, not 'already an rtmeasure result'"
expect_usage_error "wrong format (text)" import -o "$t/e6" "$RTM_SRCDIR/README.md"
expect_usage_error "missing file" import -o "$t/e7" "$t/nope.txt"
# a good file and a bad one: nothing at all is written
expect_usage_error "one good, one bad file" import -o "$t/e8" "$D/oslat.json" "$t/cut.json"
no_output_dir "one good, one bad file" "$t/e8"
expect_usage_error "same name twice" import -o "$t/e9" "$D/oslat.json" "$D/oslat.json"
no_output_dir "same name twice" "$t/e9"
expect_usage_error "non-empty DIR" import -o "$t/loaded" "$D/oslat.json"
jq -e '.tool == "cyclictest"' "$t/loaded/result.json" >/dev/null
ok $? "the non-empty DIR is left as it was"
expect_usage_error "no -o" import "$D/oslat.json"
expect_usage_error "no file" import -o "$t/e10"
expect_usage_error "bad --affinity" import -a 3-1 -o "$t/e11" "$D/cyclictest-loaded-h50.txt"
expect_usage_error "bad --bucket-size" import -b 0 -o "$t/e12" "$D/rtla-osnoise-hist-us.txt"
expect_usage_error "unknown option" import --frobnicate
run_cmd import --help
ok $(( rc != 0 )) "import --help exits 0"

# ---------------------------------------------------------------- export
run_cmd export --cyclictest-json "$t/loaded"
echo "$out" | jq -e '.file_version == 1 and has("cmdline:") and
	.num_threads == 2 and .thread["0"].cycles == 14964 and .thread["0"].max == 25639 and
	.thread["0"].cpu == -1 and (.thread["0"].histogram | has("27"))' >/dev/null
ok $? "export --cyclictest-json: cyclictest's keys and values"
# rtmeasure's version is not rt-tests': "rt_test_version:" only as cyclictest wrote it
echo "$out" | jq -e '(has("rt_test_version:") | not) and
	(.generator | test("^rtmeasure [0-9]"))' >/dev/null
ok $? "export of a source that names no rt-tests version: no \"rt_test_version:\", a generator"
run_cmd export --cyclictest-json "$t/many/oslat"
echo "$out" | jq -e '(has("rt_test_version:") | not) and (."cmdline:" | startswith("rtmeasure "))' \
	>/dev/null
ok $? "export of oslat's JSON (not cyclictest's layout): no \"rt_test_version:\" of oslat's"
run_cmd export --cyclictest-json "$RTM_TESTDATA/results/vm-6.18-load"
echo "$out" | jq -e '(has("rt_test_version:") | not) and (.generator | startswith("rtmeasure ")) and
	(.thread | length) > 0' >/dev/null
ok $? "export of a measured result: no \"rt_test_version:\", a generator"
run_cmd export --cyclictest-json -o "$t/ct.json" "$t/loaded/result.json"
[ "$rc" -eq 0 ] && [ -z "$out" ] && jq -e '.thread["1"].cycles == 14955' "$t/ct.json" >/dev/null
ok $? "export -o FILE"
run_cmd import -q -o "$t/again" "$t/ct.json"
[ "$rc" -eq 0 ] && [ "$(jq -c '[.cpus[].hist.count, .sections.provenance.cpus[].overflows]' \
	"$t/again/result.json")" = "$(jq -c '[.cpus[].hist.count, .sections.provenance.cpus[].overflows]' \
	"$t/loaded/result.json")" ]
ok $? "export then import: the same samples and overflows per CPU"
# the round trip keeps every count, min, avg, max and the source's cmdline: exactly
run_cmd import -q -o "$t/h400" "$D/cyclictest-loaded-h400.json"
run_cmd export --cyclictest-json -o "$t/h400.json" "$t/h400"
[ "$rc" -eq 0 ] && [ "$(jq -S -c '[."cmdline:", (.thread[] | del(.node))]' "$t/h400.json")" = \
	"$(jq -S -c '[."cmdline:", (.thread[] | del(.node))]' "$D/cyclictest-loaded-h400.json")" ]
ok $? "import then export of cyclictest JSON: the source's rows, cycles, min, avg, max, cmdline:"
jq -e '."rt_test_version:" == "2.40"' "$t/h400.json" >/dev/null
ok $? "import then export of cyclictest JSON: the source's \"rt_test_version:\""
# cyclictest -S writes node -1 (no NUMA binding): the export keeps it, and all else
run_cmd import -q -o "$t/smp" "$D/cyclictest-smp-h100.json"
run_cmd export --cyclictest-json -o "$t/smp.json" "$t/smp"
[ "$rc" -eq 0 ] && jq -e '[.thread[].node] == [-1, -1]' "$t/smp.json" >/dev/null
ok $? "import then export of cyclictest -S JSON: node -1 kept"
[ "$(jq -S -c 'del(.generator, .exported_by, .rtmeasure_warnings)' "$t/smp.json")" = \
	"$(jq -S -c . "$D/cyclictest-smp-h100.json")" ]
ok $? "import then export of cyclictest -S JSON: its file, plus generator, exported_by and rtmeasure_warnings"
run_cmd export --csv "$t/aff"
[ "$(echo "$out" | head -1)" = "cpu,lo_ns,hi_ns,count" ] &&
	[ "$(echo "$out" | tail -n +2 | awk -F, '{s += $4} END {print s}')" = \
	  "$(jq '[.cpus[].hist.count] | add' "$t/aff/result.json")" ]
ok $? "export --csv: header and one line per bucket, adding up to the samples"
expect_usage_error "export without a format" export "$t/loaded"
expect_usage_error "export with two formats" export --csv --cyclictest-json "$t/loaded"
expect_usage_error "export of a missing folder" export --csv "$t/nope"
expect_usage_error "export of a non-result" export --csv "$D/oslat.json"
done_testing
