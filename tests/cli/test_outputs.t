#!/bin/bash
# Command-level test on a recorded run (no root): the outputs of one result state
# the same percentiles and avg. vm-6.18-few (9,970 and 9,987 samples, 19,957 on all
# CPUs) has p99.9 as a number on all CPUs only and p99.99 nowhere: each output shows
# those as "-" (null in JSON, no Prometheus sample) and the rest to the same
# printed value: result.json's histograms (reckoned here), report.md, compare's
# table and --json (the run against itself), and export --prometheus-textfile.
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

for s in result.json compare compare-json compare-json-percentiles metrics; do
	grep -q "^$s " "$t/lines" || echo "# no figures from $s"
done
[ "$(cut -d' ' -f1 "$t/lines" | sort -u | wc -l)" -ge 5 ] && agree_check "$t/lines"
ok $? "every output states the same percentiles and avg ('-' alike)"
grep -c . "$t/lines" | sed 's/^/# figures compared: /'
done_testing
