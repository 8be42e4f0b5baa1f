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
# the checklist's tracers line says what rtmeasure does with the kernel's tracers today, also
# for results an older rtmeasure recorded (vm-6.18-load: none of them; lab-rt: all three)
uses='noise --backend hwlat|osnoise and cyclic/run --backend timerlat'
grep -q "kernel lacks the hwlat, osnoise and timerlat tracers: rtmeasure measures with its \
userspace probes.*CONFIG_TIMERLAT_TRACER would add $uses</td>" "$tmp/a/report.html"
ok $? "checklist without the tracers: the configs that add them, the options that use them"
run_cmd report "$RTM_TESTDATA/compare/lab-rt" -o "$tmp/rt"
grep -q "\">ok</td><td class=\"l\">kernel tracers hwlat, osnoise and timerlat present: \
rtmeasure measures with them through $uses" "$tmp/rt/report.html" &&
	! grep -q 'does not drive' "$tmp/rt/report.html"
ok $? "checklist with the tracers: the options that use them (rc=$rc $err)"

run_cmd report "$data/vm-6.18-load/result.json" -o "$tmp/b" --format svg,pdf --size 640x400
ok $rc "report --format svg,pdf --size 640x400 exits 0"
[ -s "$tmp/b/plots/percentiles.svg" ] && [ -s "$tmp/b/plots/percentiles.pdf" ]
ok $? "SVG and PDF plots written"
[ ! -e "$tmp/b/plots/percentiles.png" ]; ok $? "no PNG when not asked for"
grep -q '<svg' "$tmp/b/report.html"; ok $? "SVG plots inline in report.html"
grep -q 'width="640"' "$tmp/b/plots/histogram.svg"; ok $? "SVG of the requested width"

# plots an OSADL reader trusts
# no line bridges empty microseconds: inside a run of rows (no blank line) each
# row is the microsecond after the one before
awk 'BEGIN { bad = 0 } /^#/ || /^"/ { prev = ""; next } NF == 0 { prev = ""; next }
	NF == 2 { if (prev != "" && $1 != prev + 1) bad++; prev = $1 } END { exit bad }' \
	"$tmp/a/plots/data/histogram.dat"
ok $? "histogram data: rows joined by a line are adjacent microseconds (gaps break the line)"
awk 'NF == 2 && $1 == 200' "$tmp/a/plots/data/histogram.dat" | grep -q . &&
	grep -B1 '^[0-9]* 1$' "$tmp/a/plots/data/histogram.dat" | grep -q '^$'
ok $? "lone outliers stand after a break"
# each CPU's exact maximum is a labelled marker at x = its samples
for i in 0 1; do
	n=$(jq ".cpus[$i].hist.count" "$r")
	m=$(jq -r ".cpus[$i].hist.max_ns / 1000 | . * 1000 | round / 1000" "$r")
	awk -v n="$n" -v m="$m" '$1 == n && ($2 - m < 0.0005 && m - $2 < 0.0005) &&
		$3 == "\"max" { f = 1 } END { exit !f }' "$tmp/a/plots/data/percentiles.dat"
	ok $? "percentile plot: CPU$i's maximum $m us marked at x = $n samples"
done
# the titles carry the test (SVG text is readable)
sub='interval 1.00 ms, fifo 95, 39875 samples, 20s, load: stress-ng --cpu 2 --timeout 0, kernel 6.18.44-fc-v1098'
for p in histogram percentiles timeseries irq; do
	grep -qF "<text>$sub</text>" "$tmp/b/plots/$p.svg"; ok $? "$p title: $sub"
done
# linear latency axis by default; this run's tail (10 ms) lies far beyond its
# body (p90 47 us): the tail gets its own panel
grep -q '>latency (us): body<' "$tmp/b/plots/histogram.svg" &&
	grep -q '>tail (us)<' "$tmp/b/plots/histogram.svg" &&
	! grep -q 'log scale' "$tmp/b/plots/histogram.svg"
ok $? "histogram: linear axis, body and tail panels"
grep -q '>maximum<' "$tmp/b/plots/histogram.svg"; ok $? "histogram: the maxima are marked"
grep -q '>interrupts per second (log scale)<' "$tmp/b/plots/irq.svg" &&
	grep -q '>2524<' "$tmp/b/plots/irq.svg"
ok $? "IRQ chart: log scale, bars labelled with their rate (LOC 2524/s)"
run_cmd report "$data/vm-6.18-load" -o "$tmp/l" --format svg --log-x
ok $rc "report --log-x exits 0 ($err)"
grep -q '>latency (us, log scale)<' "$tmp/l/plots/histogram.svg" &&
	! grep -q '>tail (us)<' "$tmp/l/plots/histogram.svg"
ok $? "--log-x: one panel on a logarithmic latency axis"
expect_usage_error "report: --log-x takes no value" report "$data/golden-v1" --log-x=2

# --format pdf: the page stays self-contained (PNG embedded), the PDFs are extra files
run_cmd report "$data/vm-6.18-load" -o "$tmp/p" --format pdf
ok $rc "report --format pdf exits 0 ($err)"
[ -s "$tmp/p/plots/histogram.pdf" ] && [ -s "$tmp/p/plots/histogram.png" ]
ok $? "PDF written, and a PNG for the page"
[ "$(grep -c 'src="data:image/png;base64,' "$tmp/p/report.html")" = 4 ] &&
	! grep -q 'src="plots/' "$tmp/p/report.html" && grep -q 'href="plots/histogram.pdf"' "$tmp/p/report.html"
ok $? "report.html embeds 4 PNGs and links the PDFs"
! grep -q '!\[[^]]*\]([^)]*\.pdf)' "$tmp/p/report.md" && grep -q '](plots/histogram.pdf)' "$tmp/p/report.md" &&
	grep -q '!\[[^]]*\](plots/histogram.png)' "$tmp/p/report.md"
ok $? "report.md shows PNGs and links the PDFs, no PDF as an image"

# a kernel command line of 1500 characters is kept whole (it wraps in the page)
long=$(printf 'opt%04d=x ' $(seq 1 150))END_OF_CMDLINE
jq --arg c "$long" '.sysinfo.kernel.cmdline = $c' "$r" >"$tmp/long.json"
run_cmd report "$tmp/long.json" -o "$tmp/k"
ok $rc "report with a ${#long}-character command line exits 0 ($err)"
grep -qF "$long" "$tmp/k/report.html" && grep -qF "$long" "$tmp/k/report.md"
ok $? "the whole command line is in report.html and report.md"

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
jq '.cpus |= map(.hist |= (.buckets = [] | .count = 0 | .min_ns = null | .max_ns = 0 |
	.sum_ns = 0 | .sum_sq = "0"))' "$data/golden-v1/result.json" >"$tmp/nosamples.json"
expect_usage_error "report: a result without samples" report "$tmp/nosamples.json" -o "$tmp/z"
[ ! -e "$tmp/z" ]; ok $? "nothing written for a result without samples"
err=$(PATH=/nonexistent "$RTMEASURE" report "$data/golden-v1" -o "$tmp/n" 2>&1 >/dev/null)
rc=$?
[ "$rc" = 2 ] && echo "$err" | grep -q 'gnuplot-nox' && [ ! -e "$tmp/n" ]
ok $? "gnuplot missing: exit 2 naming gnuplot-nox, nothing written ($err)"

# a noise result (rtmeasure noise): its own pages with result.json's figures
N="$data/vm-6.18-noise"
run_cmd report "$N" -o "$tmp/noise"
ok $rc "report of a noise result exits 0 ($err)"
for f in report.html report.md plots/noise_hist.png plots/data/noise_hist.dat; do
	[ -s "$tmp/noise/$f" ]; ok $? "noise: $f written"
done
us() { jq ".sections.noise.cpus[$1].$2" "$N/result.json" | awk '{ printf "%.1f", $1 / 1000 }'; }
for i in 0 1; do
	cpu=$(jq ".sections.noise.cpus[$i].cpu" "$N/result.json")
	gaps=$(jq ".sections.noise.cpus[$i].gaps" "$N/result.json")
	avail=$(jq ".sections.noise.cpus[$i] | 100 - 100 * .noise_ns / .sampled_ns" "$N/result.json" |
		awk '{ printf "%.5f", $1 }')
	row="<td class=\"l\">$cpu</td><td>$(us $i sampled_ns)</td><td>$(us $i noise_ns)</td>"
	row="$row<td>$avail</td><td>$(us $i max_gap_ns)</td><td>$gaps</td>"
	grep -qF "$row" "$tmp/noise/report.html"
	ok $? "report.html: CPU $cpu noise $(us $i noise_ns) us, $avail % available, max gap \
$(us $i max_gap_ns) us, $gaps gaps"
	md="| $cpu | $(us $i sampled_ns) | $(us $i noise_ns) | $avail | $(us $i max_gap_ns) | $gaps |"
	grep -qF "$md" "$tmp/noise/report.md"
	ok $? "report.md: the same row for CPU $cpu"
done
[ "$(grep -c 'src="data:image/png;base64,' "$tmp/noise/report.html")" = 1 ]
ok $? "report.html embeds the gap-length histogram"
grep -q 'Gaps above 20.0 us' "$tmp/noise/report.md" &&
	grep -q '| 0 | 0.000711 | 41.3 |' "$tmp/noise/report.md"
ok $? "report.md lists the gaps above --report-above (CPU 0's 41.3 us at 0.000711 s)"
run_cmd report "$N" -o "$tmp/noisesvg" --format svg
[ "$rc" = 0 ] && [ -s "$tmp/noisesvg/plots/noise_hist.svg" ] &&
	grep -q '<svg' "$tmp/noisesvg/report.html" &&
	grep -q '](plots/noise_hist.svg)' "$tmp/noisesvg/report.md"
ok $? "noise report --format svg: the SVG inline in report.html, linked in report.md ($err)"
if gnuplot -e 'set terminal' 2>&1 | grep -qw pdfcairo; then
	run_cmd report "$N" -o "$tmp/noisepdf" --format png,pdf
	[ "$rc" = 0 ] && [ -s "$tmp/noisepdf/plots/noise_hist.pdf" ] &&
		grep -q 'href="plots/noise_hist.pdf"' "$tmp/noisepdf/report.html"
	ok $? "noise report --format png,pdf: the PDF beside the page, linked ($err)"
fi
jq '.sections.noise.cpus[0].hist.buckets = "x"' "$N/result.json" >"$tmp/badnoise.json"
expect_usage_error "report: a damaged noise section" report "$tmp/badnoise.json" -o "$tmp/bn"
[ ! -e "$tmp/bn" ]; ok $? "nothing written for a damaged noise section"
# a result of rtmeasure wakeup: the box's own tasks' waits, said as such before any number
W="$data/vm-6.18-wakeup"
run_cmd report "$W" -o "$tmp/wk"
ok $rc "report of a wakeup result exits 0 ($err)"
md="$tmp/wk/report.md"
grep -q "^# Task wake-up report: " "$md" && grep -q "^## The box's tasks: wake-up to switch-in$" "$md"
ok $? "report.md: titled a task wake-up report, with the section of the box's tasks"
grep -q "waits from each wake-up to the switch-in, tasks taken: real-time tasks (fifo, rr, deadline)" "$md" &&
	grep -q "Not rtmeasure's timer probe" "$md"
ok $? "report.md says what was measured (the selection) and that it is not the timer probe's"
[ "$(grep -n "Not rtmeasure's timer probe" "$md" | cut -d: -f1)" -lt \
  "$(grep -n '^| CPU | samples' "$md" | cut -d: -f1)" ]
ok $? "said before the latency table"
row=$(jq -r '.sections.wakeup.tasks[0] | "| \(.pid) | \(.tgid) | \(.comm | gsub("_"; "\\_")) | \(.policy) \(.rt_priority) | \(.count) |"' "$W/result.json")
grep -qF "$row" "$md"
ok $? "the longest-waiting task's row ($row)"
[ "$(grep -c '^| [0-9]* | [0-9]* | .* | [a-z]* [0-9]* | ' "$md")" -eq "$(jq '.sections.wakeup.tasks | length' "$W/result.json")" ]
ok $? "one row a task of sections.wakeup.tasks"
grep -q "<h2>The box&#39;s tasks: wake-up to switch-in</h2>\|<h2>The box's tasks: wake-up to switch-in</h2>" "$tmp/wk/report.html" &&
	grep -q "<h1>Task wake-up report: " "$tmp/wk/report.html"
ok $? "report.html: the same section"
grep -q "^subtitle_text = 'wake-up to switch-in of real-time tasks (fifo, rr, deadline), $(jq '[.cpus[].hist.count] | add' "$W/result.json") waits" \
	"$tmp/wk/plots/data/histogram.gp"
ok $? "the plots' subtitle names the waits, not a probe's interval and priority"
done_testing
