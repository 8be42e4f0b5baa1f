#!/bin/bash
# A storage run (rtmeasure io, sections.io) in report, compare and export, on results recorded
# with the real binary on a loop device (tests/data/results/vm-6.18-io, tests/data/compare/io-*):
# the report's table shows what rtmeasure io printed; compare weighs storage runs per operation
# with the latency comparison's statistics and refuses to mix them with latency runs; the
# Prometheus page has a histogram per operation that promtool accepts.
. "$RTM_SRCDIR/tests/lib.sh"
need_jq
R="$RTM_TESTDATA/results/vm-6.18-io"
C="$RTM_TESTDATA/compare"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- report
if command -v gnuplot >/dev/null; then
	run_cmd report "$R" -o "$tmp/rep"
	ok $rc "report of a storage run exits 0 ($err)"
	for f in report.html report.md plots/io_latency.png plots/io_percentiles.png \
		plots/data/io_latency.dat plots/data/io_percentiles.dat; do
		[ -s "$tmp/rep/$f" ]; ok $? "$f written"
	done
	[ "$(grep -c 'src="data:image/png;base64,' "$tmp/rep/report.html")" = 2 ]
	ok $? "report.html embeds the 2 plots"
	# each operation's three rows against the table rtmeasure io printed at the end of the run
	for op in $(jq -r '.sections.io.ops | keys[]' "$R/result.json"); do
		# io's rows: OP, "  service", "  issue late": samples min avg p50 p99 p99.9 max
		io_rows=$(awk -v op="$op" '$1 == op { n = 3 } n && n-- { sub(/^ +/, "");
			sub(/^issue late/, "late"); print $2, $3, $4, $5, $6, $7, $8 }' \
			"$R/io-summary.txt")
		md_rows=$(awk -F' *\\| *' -v op="$op" '$2 == op { n = 3 } n && n-- {
			print $4, $5, $6, $7, $8, $9, $10 }' "$tmp/rep/report.md")
		[ -n "$io_rows" ] && [ "$io_rows" = "$md_rows" ]
		ok $? "$op: report.md's latency, service and lateness rows are rtmeasure io's"
	done
	echo "$md_rows" | awk '{ exit !($6 == "-") }'
	ok $? "p99.9 of 3000 requests is \"-\" in the report as in io's summary (10000 needed)"
	misses=$(jq '.sections.io.misses' "$R/result.json")
	grep -q "^$misses of 6000 requests completed later than 300 us" "$tmp/rep/report.md"
	ok $? "the misses counted in report.md ($misses)"
	[ "$(grep -c '^| [0-9.]* [mun]*s | \(read\|randread\|write\) |' "$tmp/rep/report.md")" = 20 ]
	ok $? "the first 20 misses listed"
	grep -q '"latency_us" "write (max 7241.7 us)"' "$tmp/rep/plots/data/io_latency.dat"
	ok $? "the histogram's data has a line per operation, its maximum in the title"

	# run --io: a latency result with the storage probe's section gets it as a section
	jq -c --slurpfile io "$R/result.json" '.sections.io = $io[0].sections.io' \
		"$RTM_TESTDATA/results/vm-6.18-few/result.json" >"$tmp/runio.json"
	run_cmd report "$tmp/runio.json" -o "$tmp/runio"
	ok $rc "report of a run --io result exits 0 ($err)"
	[ -s "$tmp/runio/plots/io_latency.png" ] && [ -s "$tmp/runio/plots/io_percentiles.png" ] &&
		[ -s "$tmp/runio/plots/histogram.png" ] && grep -q '^## Storage I/O$' "$tmp/runio/report.md" &&
		grep -q '<h2>Storage I/O</h2>' "$tmp/runio/report.html" &&
		grep -q '^# Latency report\|^# ' "$tmp/runio/report.md"
	ok $? "run --io: the latency report with a Storage I/O section and its 2 plots"
	for op in $(jq -r '.sections.io.ops | keys[]' "$R/result.json"); do
		io_rows=$(awk -v op="$op" '$1 == op { n = 3 } n && n-- { sub(/^ +/, "");
			sub(/^issue late/, "late"); print $2, $3, $4, $5, $6, $7, $8 }' \
			"$R/io-summary.txt")
		md_rows=$(awk -F' *\\| *' -v op="$op" '$2 == op { n = 3 } n && n-- {
			print $4, $5, $6, $7, $8, $9, $10 }' "$tmp/runio/report.md")
		[ -n "$io_rows" ] && [ "$io_rows" = "$md_rows" ]
		ok $? "run --io, $op: the section's rows are rtmeasure io's"
	done

	jq -c '.sections.io.ops.write.latency.buckets = 5' "$R/result.json" >"$tmp/bad.json"
	run_cmd report "$tmp/bad.json" -o "$tmp/bad"
	[ "$rc" -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && [ ! -e "$tmp/bad/report.md" ]
	ok $? "a broken operation histogram: one line, exit 2, no report ($err)"
fi

# ---- compare
run_cmd compare "$C/io-be-1" "$C/io-rt-1"
ok $rc "compare of two storage runs exits 0 ($err)"
p99() { awk '$1 == "randread" { print $6 }' "$1/io-summary.txt"; }
row=$(echo "$out" | awk '$1 == "io-rt-1"')
set -- $row
[ "$5" = "$(p99 "$C/io-rt-1")" ]
ok $? "io-rt-1's p99 in the table ($5) is rtmeasure io's ($(p99 "$C/io-rt-1"))"
ratio=$(echo "$out" | awk '$1 == "ratio" { print $3 }')
awk -v r="$ratio" -v a="$(p99 "$C/io-be-1")" -v b="$(p99 "$C/io-rt-1")" \
	'BEGIN { exit !(r + 0 > 0 && (b / a - r) ^ 2 < 0.0001) }'
ok $? "the ratio row's p99 ($ratio) is rt / be of the two summaries"
echo "$out" | grep -q "randread: no verdict: io-rt-1's p99 of randread is .*one run a side gives no interval"
ok $? "one run a side: the ratio and no verdict, said"
echo "$out" | grep -q "randread: too few samples for p99.9 in io-be-1 (2000; 10000 needed"
ok $? "p99.9: too few samples, as the latency comparison says it"

run_cmd compare -l q,x4 "$C/io-quiet-1,$C/io-quiet-2,$C/io-quiet-3" "$C/io-quiet-1,$C/io-quiet-2"
echo "$out" | grep -q "randread: x4's per-run p99 (geometric mean) is not distinguishable .*over 3 and 2 runs"
ok $? "the same runs on both sides: not distinguishable over runs"
# the quiet runs with every latency 4x (bucket bounds times 4 are bucket bounds)
for n in 1 2 3; do
	sq=$(jq -r '.sections.io.ops.randread.latency.sum_sq' "$C/io-quiet-$n/result.json")
	mkdir -p "$tmp/x4-$n"
	jq -c --arg sq "$(echo "$sq * 16" | bc)" '.sections.io.ops.randread.latency |=
		(.buckets |= map([.[0] * 4, .[1]]) | .min_ns *= 4 | .max_ns *= 4 | .sum_ns *= 4 |
		 .sum_sq = $sq)' "$C/io-quiet-$n/result.json" >"$tmp/x4-$n/result.json"
done
run_cmd compare -l q,x4 "$C/io-quiet-1,$C/io-quiet-2,$C/io-quiet-3" \
	"$tmp/x4-1,$tmp/x4-2,$tmp/x4-3"
echo "$out" | grep -q "randread: x4's per-run p99 (geometric mean) is 4.0x higher than q's (95% CI .*over 3 and 3 runs"
ok $? "every latency 4x over 3 and 3 runs: told apart, as latency runs are"
run_cmd compare --json -l q,x4 "$C/io-quiet-1,$C/io-quiet-2,$C/io-quiet-3" \
	"$tmp/x4-1,$tmp/x4-2,$tmp/x4-3"
[ "$rc" -eq 0 ] && echo "$out" | jq -e '.kind == "io" and .verdicts[0].op == "randread" and
	.verdicts[0].verdict == "higher" and
	(.runs[1].ops[0].p99_ns / .runs[0].ops[0].p99_ns - 4 | fabs) < 0.02' \
	>/dev/null
ok $? "--json: kind io, the verdict, p99s 4x apart (within their buckets)"

expect_usage_error "a storage run against a latency run" compare "$C/io-be-1" \
	"$RTM_TESTDATA/results/vm-6.18-few"
echo "$err" | grep -q "vm-6.18-few is a latency result and .*io-be-1 a storage one"
ok $? "the refusal names both and their kinds ($err)"
expect_usage_error "a latency run against a storage run" compare \
	"$RTM_TESTDATA/results/vm-6.18-few" "$C/io-be-1"
expect_usage_error "a storage run as a round of a latency side" compare \
	"$RTM_TESTDATA/results/vm-6.18-few,$C/io-be-1" "$RTM_TESTDATA/results/vm-6.18-few"

# compare -o: the pages of storage runs, their figures those of compare --json
if command -v gnuplot >/dev/null; then
	run_cmd compare --json -l be,rt "$C/io-be-1,$C/io-be-2" "$C/io-rt-1"
	json=$out
	run_cmd compare -o "$tmp/cmp" -l be,rt "$C/io-be-1,$C/io-be-2" "$C/io-rt-1"
	ok $rc "compare -o of storage runs exits 0 ($err)"
	for f in compare.html compare.md plots/compare-io-0.png plots/data/compare-io-0.dat; do
		[ -s "$tmp/cmp/$f" ]; ok $? "$f written"
	done
	[ "$(grep -c 'src="data:image/png;base64,' "$tmp/cmp/compare.html")" = 1 ]
	ok $? "compare.html embeds the randread plot"
	# each side's row in compare.md: requests, p50, p99, p99.9 and max (us) as --json has them
	for side in 0 1; do
		label=$(echo "$json" | jq -r ".runs[$side].label")
		want=$(echo "$json" | jq -r ".runs[$side].ops[0] | [.requests, (.p50_ns, .p99_ns,
			.[\"p99.9_ns\"], .max_ns | if . == null then \"-\" else . / 1000 end)] |
			map(tostring) | join(\" \")")
		got=$(awk -F' *\\| *' -v l="$label" '$2 == l { print $4, $5, $6, $7, $8 }' \
			"$tmp/cmp/compare.md" | awk '{ printf "%s", $1; for (i = 2; i <= NF; i++)
			printf " %s", ($i == "-" ? "-" : $i + 0); print "" }')
		w=$(echo "$want" | awk '{ printf "%s", $1; for (i = 2; i <= NF; i++)
			printf " %s", ($i == "-" ? "-" : sprintf("%.1f", $i) + 0); print "" }')
		[ -n "$got" ] && [ "$got" = "$w" ]
		ok $? "$label: compare.md's randread row ($got) is compare --json's ($w)"
	done
	echo "$json" | jq -r '.verdicts[0].text' >"$tmp/v.txt"
	grep -qF "$(cat "$tmp/v.txt")" "$tmp/cmp/compare.md"
	ok $? "compare.md carries --json's verdict ($(cat "$tmp/v.txt"))"
	grep -q '^| ratio | ' "$tmp/cmp/compare.md"
	ok $? "the ratio row under rt's"
	grep -q '^| I/O priority | be:4 | rt:4 |' "$tmp/cmp/compare.md"
	ok $? "the set-ups side by side: I/O priority be:4 and rt:4"
fi

# I/O priority classes, recorded by scripts/bench/io-class on a loop device (128 driver tags)
# beside a best-effort writer keeping 192 requests in flight, so that the rest wait in the I/O
# scheduler: 5 runs of rt:0 and of be:4 each under mq-deadline and under none (the miss lists
# cut to 10, the rest counted in misses_dropped). Several runs a side give the interval over
# the runs' p99s: the class tells the runs apart under mq-deadline, and not without a scheduler.
K="$C/io-class"
side() { ls -d "$K/$1-"[0-9] | paste -sd, -; }
run_cmd compare --json -l be,rt "$(side mq-deadline-be4)" "$(side mq-deadline-rt0)"
[ "$rc" -eq 0 ] && echo "$out" | jq -e '.runs[0].rounds == 5 and .runs[1].rounds == 5 and
	.runs[0].setup.scheduler == "mq-deadline" and .runs[1].setup.ioprio == "rt:0" and
	(.verdicts[] | select(.op == "randwrite" and .percentile == 99) |
	 .verdict == "lower" and .ratio_hi < 1)' >/dev/null
ok $? "mq-deadline, 5 runs a side: rt:0's p99 is lower than be:4's, its interval below 1"
run_cmd compare --json -l be,rt "$(side none-be4)" "$(side none-rt0)"
[ "$rc" -eq 0 ] && echo "$out" | jq -e '.runs[0].setup.scheduler == "none" and
	(.verdicts[] | select(.op == "randwrite" and .percentile == 99) |
	 .verdict == "not_distinguishable" and .ratio_lo < 1 and .ratio_hi > 1)' >/dev/null
ok $? "no scheduler, 5 runs a side: rt:0 and be:4 not distinguishable"
run_cmd compare -l none,mq-deadline "$(side none-be4)" "$(side mq-deadline-be4)"
echo "$out" | grep -q "randwrite: mq-deadline's per-run p99 (geometric mean) is .* higher than none's (95% CI .*over 5 and 5 runs"
ok $? "be:4 under mq-deadline against none: the scheduler told apart"
! echo "$out" | grep -q "warning: different I/O scheduler"
ok $? "the scheduler is what is compared, not a warning"
run_cmd compare -l be,rt "$K/mq-deadline-be4-1" "$K/mq-deadline-rt0-1"
echo "$out" | grep -q "randwrite: no verdict: rt's p99 of randwrite is 0.02x be's, but one run a side"
ok $? "one run a side of the same data: the ratio, no verdict"

# ---- export
run_cmd export --prometheus "$R"
ok $rc "export --prometheus of a storage run exits 0 ($err)"
for op in randread write; do
	n=$(jq ".sections.io.ops.$op.latency.count" "$R/result.json")
	m=$(jq ".sections.io.ops.$op.misses" "$R/result.json")
	echo "$out" | grep -q "^rtmeasure_io_latency_seconds_bucket{probe=\"io\",.*,op=\"$op\",le=\"+Inf\"} $n\$" &&
		echo "$out" | grep -q "^rtmeasure_io_service_seconds_count{probe=\"io\",.*,op=\"$op\"} $n\$" &&
		echo "$out" | grep -q "^rtmeasure_io_lateness_seconds_count{probe=\"io\",.*,op=\"$op\"} $n\$" &&
		echo "$out" | grep -q "^rtmeasure_io_misses_total{probe=\"io\",.*,op=\"$op\"} $m\$"
	ok $? "$op: latency, service and lateness histograms of $n requests, $m misses"
done
# the bound near 1 ms is a bucket's inclusive upper edge: every bucket starting at or below it
le=$(echo "$out" | sed -n 's/^rtmeasure_io_latency_seconds_bucket{.*op="randread",le="\(0\.0010[0-9]*\)"} .*/\1/p')
le_ns=$(echo "$le * 1000000000 / 1" | bc)
le1ms=$(echo "$out" | sed -n "s/^rtmeasure_io_latency_seconds_bucket{.*op=\"randread\",le=\"$le\"} //p")
below=$(jq --argjson e "${le_ns:-0}" '[.sections.io.ops.randread.latency.buckets[] |
	select(.[0] <= $e) | .[1]] | add' "$R/result.json")
[ -n "$le1ms" ] && [ "$le1ms" = "$below" ]
ok $? "randread's le=$le s bucket ($le1ms) counts the histogram's requests up to it ($below)"
! echo "$out" | grep -q wakeup_latency
ok $? "no wake-up series on a storage run's page"
if command -v promtool >/dev/null; then
	echo "$out" | promtool check metrics >/dev/null 2>&1
	ok $? "promtool check metrics accepts the storage page"
fi
expect_usage_error "export --csv of a storage run" export --csv "$R"
expect_usage_error "export --cyclictest-json of a storage run" export --cyclictest-json "$R"

done_testing
