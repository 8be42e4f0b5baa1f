#!/bin/bash
# Command-level test on a recorded run (no root): the outputs of one result state
# the same percentiles and avg. vm-6.18-few (9,970 and 9,987 samples, 19,957 on all
# CPUs) has p99.9 as a number on all CPUs only and p99.99 nowhere: each output shows
# those as "-" (null in JSON, no Prometheus sample) and the rest to the same
# printed value: result.json's histograms (reckoned here), report.md, compare's
# table and --json (the run against itself), and export --prometheus-textfile.
# The same outputs, export --csv and --cyclictest-json too, name the same warnings
# (its hypervisor; tests/data/results/disturbed: four kinds).
. "$RTM_SRCDIR/tests/lib.sh"
. "$RTM_SRCDIR/tests/outputs.sh"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
R="$RTM_TESTDATA/results/vm-6.18-few"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

agree_result_json result.json "$R/result.json" >"$t/lines"
grep -q '^result.json all p99.99 -$' "$t/lines" && grep -q '^result.json 0 p99.9 -$' "$t/lines" &&
	! grep -q '^result.json all p99.9 -$' "$t/lines"
ok $? "result.json's histograms: p99.99 has too few samples everywhere, p99.9 on each CPU"

run_cmd compare "$R" "$R"
ok $rc "compare of the run against itself exits 0 ($err)"
echo "$out" >"$t/compare.txt"
agree_compare_text compare "$t/compare.txt" >>"$t/lines"
run_cmd compare --json "$R" "$R"
ok $rc "compare --json exits 0"
echo "$out" >"$t/compare.json"
agree_compare_json compare-json "$t/compare.json" >>"$t/lines"
jq -e '.runs[0].all | .["p99.99_ns"] == null and
	.unknown["p99.99_ns"] == "too few samples: 19957, 100000 needed" and
	(.unknown | has("p99.9_ns") | not)' "$t/compare.json" >/dev/null &&
	jq -e '.runs[0].cpus[0].unknown["p99.9_ns"] == "too few samples: 9970, 10000 needed"' \
		"$t/compare.json" >/dev/null
ok $? "compare --json: null with the reason, 'too few samples: N, M needed'"
run_cmd export --prometheus-textfile "$t/page.prom" "$R"
ok $rc "export --prometheus-textfile exits 0"
agree_prom metrics "$t/page.prom" >>"$t/lines"
if command -v gnuplot >/dev/null; then
	run_cmd report -o "$t/rep" "$R"
	ok $rc "report exits 0 ($err)"
	agree_report_md report.md "$t/rep/report.md" >>"$t/lines"
	grep -q 'p99.99 needs 100000 for 10 beyond it' "$t/rep/report.md" &&
		grep -q '<td title="too few samples: 19957, 100000 needed">&ndash;</td>' \
			"$t/rep/report.html"
	ok $? "report: the '-' explained, with the reason in report.html's cell"
else
	echo "ok - # SKIP report: gnuplot not installed"
	echo "ok - # SKIP report: gnuplot not installed"
fi

# the warnings: vm-6.18-few's (a KVM guest), then tests/data/results/disturbed's, which
# has every kind but emulation: each output names the same keys
warnings_of() {	# DIR: the warnings lines of every output of the result in DIR
	local o=$t/w.$((++nw))
	"$RTMEASURE" compare --json "$1" "$1" >"$o.cmp.json" &&
		warn_json compare-json "$o.cmp.json" '.runs[0].warnings'
	"$RTMEASURE" export --csv -o "$o.csv" "$1" && warn_csv export-csv "$o.csv"
	"$RTMEASURE" export --cyclictest-json -o "$o.ct.json" "$1" &&
		warn_json export-cyclictest "$o.ct.json" '.rtmeasure_warnings'
	"$RTMEASURE" export --prometheus-textfile "$o.prom" "$1" && warn_prom metrics "$o.prom"
	if command -v gnuplot >/dev/null; then
		"$RTMEASURE" report -o "$o.rep" "$1" >/dev/null && warn_report_md report.md "$o.rep/report.md"
	fi
}
nw=0
warnings_of "$R" >>"$t/lines"
grep -q '^metrics run warnings hypervisor$' "$t/lines" &&
	[ "$(grep -c ' run warnings ' "$t/lines")" -ge 4 ]
ok $? "vm-6.18-few: the warnings read from each output ($(grep ' run warnings ' "$t/lines" | tr '\n' ';'))"
warnings_of "$RTM_TESTDATA/results/disturbed" >"$t/dlines"
want="hypervisor,interrupted,missed_periods,shared_cpus"
[ "$(grep -c " run warnings $want$" "$t/dlines")" -ge 4 ] && agree_check "$t/dlines"
ok $? "disturbed: every output names $want"

for s in result.json compare compare-json compare-json-percentiles metrics; do
	grep -q "^$s " "$t/lines" || echo "# no figures from $s"
done
[ "$(cut -d' ' -f1 "$t/lines" | sort -u | wc -l)" -ge 5 ] && agree_check "$t/lines"
ok $? "every output states the same percentiles and avg ('-' alike), and the same warnings"
grep -c . "$t/lines" | sed 's/^/# figures compared: /'
done_testing
