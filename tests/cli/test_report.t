#!/bin/bash
# Command-level tests of `rtmeasure report` on recorded result folders (no root):
# the files exist, gnuplot draws every plot at the requested size, report.html is
# self-contained and holds the summary table with the numbers of result.json;
# bad input gives one line, exit 2 and no output.
. "$RTM_SRCDIR/tests/lib.sh"
command -v gnuplot >/dev/null || { echo "1..0 # SKIP gnuplot not installed"; exit 0; }
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
data="$RTM_TESTDATA/results"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# width x height from the PNG's IHDR chunk (bytes 16-23, big-endian)
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", (($1 * 256 + $2) * 256 + $3) * 256 + $4, (($5 * 256 + $6) * 256 + $7) * 256 + $8 }'; }

run_cmd report "$data/vm-6.18-load" -o "$tmp/a"
ok $rc "report on a recorded run exits 0 ($err)"
for f in report.html report.md plots/histogram.png plots/percentiles.png plots/timeseries.png \
	plots/irq.png plots/data/histogram.dat plots/data/percentiles.dat; do
	[ -s "$tmp/a/$f" ]; ok $? "$f written"
done
[ "$(png_size "$tmp/a/plots/histogram.png")" = 1000x560 ]
ok $? "PNG of the default size 1000x560 ($(png_size "$tmp/a/plots/histogram.png"))"
grep -q 'src="plots/\|<link \|<script' "$tmp/a/report.html"
ok $(( $? == 0 )) "report.html links nothing: images embedded, styles inline"
[ "$(grep -c 'src="data:image/png;base64,' "$tmp/a/report.html")" = 4 ]
ok $? "report.html embeds the 4 plots"

# the summary row "all" against result.json: samples, min, max, overruns exactly,
# p99 within its histogram bucket (nearest rank over the merged buckets)
r="$data/vm-6.18-load/result.json"
row=$(tr -d '\n' <"$tmp/a/report.html" | grep -o '<tr class="all">.*</tr>' | sed 's/<\/tr>.*//' |
	sed 's/<[^>]*>/ /g' | tr -s ' ')
set -- $row
samples=$(jq '[.cpus[].hist.count] | add' "$r")
[ "$2" = "$samples" ]; ok $? "all CPUs: samples $2 = $samples"
min=$(jq '[.cpus[].hist.min_ns] | min / 100 | round / 10' "$r")
awk -v a="$3" -v b="$min" 'BEGIN { exit !(a - b < 0.051 && b - a < 0.051) }'
ok $? "all CPUs: min $3 us = $min"
max=$(jq '[.cpus[].hist.max_ns] | max / 100 | round / 10' "$r")
awk -v a="${10}" -v b="$max" 'BEGIN { exit !(a - b < 0.051 && b - a < 0.051) }'
ok $? "all CPUs: max ${10} us = $max"
over=$(jq '[.cpus[].overruns] | add' "$r")
[ "${11}" = "$over" ]; ok $? "all CPUs: overruns ${11} = $over"
bounds=$(jq -r '[.cpus[].hist.buckets[]] | group_by(.[0]) | map([.[0][0], (map(.[1]) | add)]) |
	sort_by(.[0]) as $b | ($b | map(.[1]) | add) as $n | ($n * 0.99 | ceil) as $rank |
	reduce range(0; $b | length) as $i ({acc: 0, lo: null, hi: null};
		if .lo == null then .acc += $b[$i][1] |
			if .acc >= $rank then .lo = $b[$i][0] | .hi = ($b[$i + 1][0] // 1e18) else . end
		else . end) | "\(.lo / 1000) \(.hi / 1000)"' "$r")
awk -v p="$7" -v b="$bounds" 'BEGIN { split(b, x, " "); exit !(p >= x[1] - 0.05 && p <= x[2] + 0.05) }'
ok $? "all CPUs: p99 $7 us inside its bucket [$bounds) us"
grep -q 'class="verdict"' "$tmp/a/report.html"; ok $? "the spike verdicts are in the report"
grep -q 'Interrupts on the measured CPUs' "$tmp/a/report.html"; ok $? "the IRQ section is in"
grep -q '^| \*\*all\*\* | '"$samples"' |' "$tmp/a/report.md"; ok $? "report.md has the table"

run_cmd report "$data/vm-6.18-load/result.json" -o "$tmp/b" --format svg,pdf --size 640x400
ok $rc "report --format svg,pdf --size 640x400 exits 0"
[ -s "$tmp/b/plots/percentiles.svg" ] && [ -s "$tmp/b/plots/percentiles.pdf" ]
ok $? "SVG and PDF plots written"
[ ! -e "$tmp/b/plots/percentiles.png" ]; ok $? "no PNG when not asked for"
grep -q '<svg' "$tmp/b/report.html"; ok $? "SVG plots inline in report.html"
grep -q 'width="640"' "$tmp/b/plots/histogram.svg"; ok $? "SVG of the requested width"

run_cmd report "$data/golden-v1" -o "$tmp/g"
ok $rc "the golden schema-1 result reports ($err)"

expect_usage_error "report: no argument" report
expect_usage_error "report: no such folder" report "$tmp/none"
expect_usage_error "report: bad format" report "$data/golden-v1" --format gif
expect_usage_error "report: bad size" report "$data/golden-v1" --size 10x10
expect_usage_error "report: unknown option" report "$data/golden-v1" --frobnicate
head -c 3000 "$r" >"$tmp/trunc.json"
expect_usage_error "report: truncated result.json" report "$tmp/trunc.json" -o "$tmp/t"
[ ! -e "$tmp/t" ]; ok $? "nothing written for a truncated result"
echo '{"schema": "something-else/9"}' >"$tmp/wrong.json"
expect_usage_error "report: wrong schema" report "$tmp/wrong.json" -o "$tmp/w"
: >"$tmp/empty.json"
expect_usage_error "report: empty file" report "$tmp/empty.json" -o "$tmp/e"
err=$(PATH=/nonexistent "$RTMEASURE" report "$data/golden-v1" -o "$tmp/n" 2>&1 >/dev/null)
rc=$?
[ "$rc" = 2 ] && echo "$err" | grep -q 'gnuplot-nox' && [ ! -e "$tmp/n" ]
ok $? "gnuplot missing: exit 2 naming gnuplot-nox, nothing written ($err)"
done_testing
