#!/bin/bash
# Command-level tests of `rtmeasure compare` on recorded runs (no root): two
# cyclic runs on this VM (idle and under `--load cpu`), two from the kernel
# lab (Debian 6.1 stock and PREEMPT_RT under qemu) and six identical-condition
# runs (compared as three rounds against three). The numbers must equal
# percentiles computed here from the inputs' buckets; fingerprint differences
# that make a comparison unfair must be warned, kernel differences shown only;
# bad input gives one line, exit 2 and nothing written.
. "$RTM_SRCDIR/tests/lib.sh"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
d="$RTM_TESTDATA/compare"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# nearest-rank percentile over all CPUs' buckets, reported as rtm_hist_percentile
# does: the bucket's midpoint, clamped to the exact min and max; null with fewer
# than 10 samples expected beyond it, n (100 - p) / 100 < 10
pct() {	# pct FILE P
	jq --argjson p "$2" '
	def width: if . < 512 then 1 else pow(2; (log2 | floor) - 8) end;
	.cpus as $c
	| ([$c[].hist.count] | add) as $n
	| ([$c[].hist.min_ns] | min) as $mn | ([$c[].hist.max_ns] | max) as $mx
	| ([$c[].hist.buckets[]] | group_by(.[0]) | map([.[0][0], (map(.[1]) | add)])) as $b
	| (($p * $n / 100 - 1e-9) | ceil) as $rank
	| if $n * (100 - $p) < 1000 - 1e-6 then null else
	first(foreach $b[] as $x ([0, null]; [.[0] + $x[1], $x]; select(.[0] >= $rank) | .[1]))
	| (.[0] + ((.[0] | width) - 1) / 2 | floor) | [., $mn] | max | [., $mx] | min end' "$1"
}

# --- two runs on this VM: only the load differs
run_cmd compare "$d/vm-idle" "$d/vm-cpuload"
ok $rc "compare two results folders exits 0 ($err)"
[ "$(echo "$out" | grep -c '^warning: different')" -eq 1 ] &&
	echo "$out" | grep -q '^warning: different load (vm-idle: none; vm-cpuload: cpu): ' &&
	echo "$out" | grep -q '^warning: ran under a hypervisor (vm-idle: VM (KVM); vm-cpuload: VM (KVM)): '
ok $? "the load difference is the only unfair one; the hypervisor is warned about"
echo "$out" | head -1 | grep -q '^\*\*\* virtual machine: the latencies include the hypervisor'"'"'s'
ok $? "a VM banner opens the output"
echo "$out" | grep -q '^all   vm-idle ' && echo "$out" | grep -q '^0     vm-idle ' &&
	echo "$out" | grep -q '^1     vm-idle ' && [ "$(echo "$out" | grep -c '^ *ratio ')" -eq 3 ]
ok $? "table: all CPUs and each CPU, with ratio and delta rows; default labels are folder names"
[ "$(echo "$out" | grep -c "^  vm-cpuload's \(per-interval \)\?p99.* is \|^  too few samples for p99")" -eq 4 ]
ok $? "a verdict for p99, p99.9, p99.99 and p99.999"

run_cmd compare --json "$d/vm-idle" "$d/vm-cpuload/result.json"
ok $rc "--json exits 0"
echo "$out" >"$tmp/vm.json"
jq -e '.schema == "rtmeasure-compare/1" and (.runs | length) == 2 and
	.runs[0].baseline and (.comparisons | length) == 1 and
	(.comparisons[0].verdicts | length) == 4 and
	(.warnings | map(.id)) == ["load", "hypervisor"] and (.banner | startswith("virtual machine"))
	and .comparisons[0].verdicts[0].method == "batches" and .batch_margin == 1.5' \
	"$tmp/vm.json" >/dev/null
ok $? "--json: runs, one comparison, four verdicts, the load and hypervisor warnings, banner"
bad=0
for i in 0 1; do
	f=$([ $i = 0 ] && echo "$d/vm-idle/result.json" || echo "$d/vm-cpuload/result.json")
	for p in 50 99 99.9 99.99; do
		want=$(pct "$f" $p)
		got=$(jq ".runs[$i].all[\"p${p}_ns\"]" "$tmp/vm.json")
		[ "$got" = "$want" ] ||
			{ bad=1; echo "# run $i p$p: $got, from the buckets $want"; }
	done
	got=$(jq ".runs[$i].all.samples" "$tmp/vm.json")
	[ "$got" = "$(jq '[.cpus[].hist.count] | add' "$f")" ] || bad=1
	got=$(jq ".runs[$i].all.max_ns" "$tmp/vm.json")
	[ "$got" = "$(jq '[.cpus[].hist.max_ns] | max' "$f")" ] || bad=1
done
ok $bad "percentiles, samples and max equal those computed from the inputs' buckets"
jq -e '.runs[0].all as $a | .runs[1].all as $b | .comparisons[0].all as $c
	| ($c["p99_ns"].ratio - $b["p99_ns"] / $a["p99_ns"] | fabs) < 1e-12 and
	$c.max_ns.delta == $b.max_ns - $a.max_ns and $c.samples.delta == $b.samples - $a.samples' \
	"$tmp/vm.json" >/dev/null
ok $? "ratio and delta of the inputs' numbers"
jq -e '.runs[] | .percentiles[] | select(.valid) | .ci_lo_ns <= .value_ns and
	.value_ns <= .ci_hi_ns' "$tmp/vm.json" | grep -qv true
ok $(( $? == 0 )) "every interval holds its percentile"

# --- stock vs PREEMPT_RT kernel from the kernel lab (their priorities differ)
run_cmd compare --labels stock,rt "$d/lab-stock" "$d/lab-rt"
ok $rc "stock vs rt exits 0"
echo "$out" | grep -q '^kernel  *6.1.0-57-amd64  *6.1.0-57-rt-amd64$' &&
	echo "$out" | grep -q '^preemption  *voluntary (dynamic)  *rt$'
ok $? "kernel release and preemption model side by side"
echo "$out" | grep -q '^warning: different scheduling (stock: fifo 95; rt: fifo 1)' &&
	! echo "$out" | grep -q '^warning: \(kernel\|preemption\)'
ok $? "priority difference warned; kernel and preemption model not"
echo "$out" | grep -q "^  rt's p99.9 is .* stock's" &&
	echo "$out" |
	grep -q '^  too few samples for p99.99 in stock (18460; 100000 needed'
ok $? "verdicts name the labels; too few samples for p99.99 at 18k samples"
echo "$out" | head -1 | grep -q "^\*\*\* emulated: the kernels' relative behaviour only, not this hardware's latency \*\*\*$" &&
	echo "$out" | grep -q '^warning: ran under emulation or a hypervisor (stock: emulated (QEMU TCG); rt: emulated (QEMU TCG)): '
ok $? "qemu TCG: the emulation banner and a warning"

# --- a run against itself, and three runs
run_cmd compare --json "$d/vm-idle" "$d/vm-idle/result.json"
echo "$out" | jq -e '[.comparisons[0].verdicts[].verdict] ==
	["not distinguishable", "not distinguishable", "too few samples", "too few samples"]
	and (.warnings | map(.id)) == ["hypervisor"]' >/dev/null
ok $? "a run against itself: not distinguishable, no warning but the hypervisor"
echo "$out" | jq -e '.runs[0].label != .runs[1].label' >/dev/null
ok $? "the same folder twice gets two labels"
run_cmd compare --json -l a,b,c "$d/vm-idle" "$d/vm-cpuload" "$d/lab-rt"
echo "$out" | jq -e '(.comparisons | map(.run)) == ["b", "c"] and
	(.warnings | map(.id) | index("cpu_model") != null)' >/dev/null
ok $? "three runs: b and c against a; another CPU model is warned"

# folders of the same name (lab-*/out): labels take the parent folder too
mkdir -p "$tmp/lab-stock/out" "$tmp/lab-rt/out"
cp "$d/lab-stock/result.json" "$tmp/lab-stock/out/"
cp "$d/lab-rt/result.json" "$tmp/lab-rt/out/"
run_cmd compare --json "$tmp/lab-stock/out" "$tmp/lab-rt/out/result.json"
echo "$out" | jq -e '(.runs | map(.label)) == ["lab-stock/out", "lab-rt/out"]' >/dev/null
ok $? "labels of same-named folders: lab-stock/out, lab-rt/out"

# --- rounds: identical-condition runs, three against three
i="$d/identical"
run_cmd compare "$i-1,$i-2,$i-3" "$i-4,$i-5/result.json,$i-6"
ok $rc "three runs against three exits 0 ($err)"
echo "$out" | grep -q "^  identical#2's per-run p99 (geometric mean) is not distinguishable from identical's (ratio .*; over 3 and 3 runs, Welch t; table's p99 ratio of the merged runs [0-9.]*)$" &&
	echo "$out" | grep -q "^  identical#2's per-run p99.9 (geometric mean) is not distinguishable from identical's (ratio .*over 3 and 3 runs, Welch t; table's p99.9 ratio of the merged runs [0-9.]*)$"
ok $? "identical runs as rounds: p99 and p99.9 not distinguishable, over 3 and 3 runs"
n=$(jq -s '[.[].cpus[].hist.count] | add' "$i-1/result.json" "$i-2/result.json" "$i-3/result.json")
echo "$out" | grep -q "^all   identical  *$n "
ok $? "the table merges the three runs' histograms ($n samples)"
o=$(jq -s '[.[].cpus[].overruns] | add' "$i-1/result.json" "$i-2/result.json" "$i-3/result.json")
frac=$(echo "$o $n" | awk '{ printf "%.1f", 100 * $1 / ($1 + $2) }')
echo "$out" | grep -q "^warning: identical, its 3 runs together: missed $frac% of its periods ($o of $((o + n)), more than 1%): its percentiles are of the measured wake-ups only and do not include the corrected histogram (result.json keeps it: hist + hist_implied)"
ok $? "missed periods: $frac% warned, said not to be in the percentiles"
run_cmd compare --json -l idle,shifted "$i-1,$i-2" "$i-3,$i-4"
echo "$out" | jq -e '(.runs[0].rounds | length) == 2 and .runs[0].path ==
	"'"$i-1,$i-2"'" and .comparisons[0].verdicts[1].method == "runs" and
	.comparisons[0].verdicts[1].interval == "welch-t" and .comparisons[0].verdicts[1].n_run == 2' \
	>/dev/null
ok $? "--json: rounds, paths, method and counts of each verdict"
run_cmd compare "$i-1" "$i-2"
echo "$out" | grep -q "^  identical-2's per-interval p99 (geometric mean over time, not the table's p99) is not distinguishable from identical-1's (ratio .*batches of about 4s of the runs' time series, Welch t; table's p99 ratio [0-9.]*, no interval: the series keep no per-interval histograms)" &&
	echo "$out" | grep -q "^  identical-2's p99.9 is not distinguishable from identical-1's: with one run per side and no per-interval histograms"
ok $? "one run each, series without per-interval histograms: p99 from batches, named so; p99.9 not decided"
b="$d/boot"
run_cmd compare --json "$b-idle-1" "$b-inj-1"
echo "$out" | jq -e '.comparisons[0] as $c | $c.verdicts[0] as $v | $v.method == "bootstrap" and
	$v.verdict == "higher" and $v.ratio == $c.all.p99_ns.ratio and $v.ratio_ci_lo <= $v.ratio and
	$v.ratio <= $v.ratio_ci_hi and $v.statistic == "p99" and $v.statistic_ratio == $v.ratio and
	$v.interval == "block-bootstrap" and $v.bootstrap.resamples == 2000 and
	$v.bootstrap.block_run == 4 and $c.verdicts[1].method == "bootstrap" and
	$c.verdicts[1].ratio == $c.all["p99.9_ns"].ratio' >/dev/null
ok $? "one run each with per-interval histograms: the verdict's ratio is the table's, inside its bootstrap interval"
run_cmd compare "$b-idle-1" "$b-idle-2"
[ "$(echo "$out" | grep -c "^  boot-idle-2's p99\(.9\)\? is not distinguishable from boot-idle-1's (ratio .*; block bootstrap of each run's p99\(.9\)\? over its 20 and 20 intervals of 1s, blocks of 4 and 4, 2000 resamples)\(; but boot-idle-2 shared its CPUs .*\)\?$")" -eq 2 ]
ok $? "two idle runs of one box: p99 and p99.9 not distinguishable by the bootstrap"

# --- files
if command -v gnuplot >/dev/null; then
	run_cmd compare -l stock,rt -o "$tmp/o" -f png,svg "$d/lab-stock" "$d/lab-rt"
	ok $rc "-o writes the plots and pages ($err)"
	for f in compare.html compare.md plots/compare-histogram.png plots/compare-histogram.svg \
		plots/compare-percentiles.png plots/data/compare-histogram.dat \
		plots/data/compare-percentiles.dat; do
		[ -s "$tmp/o/$f" ]; ok $? "$f written"
	done
	[ "$(grep -c 'src="data:image/png;base64,' "$tmp/o/compare.html")" = 2 ] &&
		! grep -q 'src="plots/\|<link \|<script' "$tmp/o/compare.html"
	ok $? "compare.html is self-contained: both plots embedded"
	grep -q "rt&#39;s p99.9 is\|rt's p99.9 is" "$tmp/o/compare.html" &&
		grep -q 'Unfair comparison: different scheduling' "$tmp/o/compare.html" &&
		grep -q "emulated: the kernels&#39;\|emulated: the kernels'" "$tmp/o/compare.html" &&
		! grep -q 'Nothing that makes the comparison unfair' "$tmp/o/compare.html" &&
		grep -q '^\*\*emulated: ' "$tmp/o/compare.md"
	ok $? "compare.html holds the verdicts, the warning and the emulation banner"
	run_cmd compare -o "$tmp/o2" "$d/identical-1" "$d/identical-2"
	! grep -q 'Nothing that makes the comparison unfair' "$tmp/o2/compare.html" &&
		grep -q 'Warning: ran under a hypervisor' "$tmp/o2/compare.html"
	ok $? "same VM on both sides: never 'nothing unfair' in compare.html"
	[ "$(grep -c '^"' "$tmp/o/plots/data/compare-histogram.dat")" -eq 2 ] &&
		grep -q '^"latency_us" "rt (max 14033.7 us)"$' \
			"$tmp/o/plots/data/compare-histogram.dat"
	ok $? "histogram data: one block per run, titled with the label"
	# the 60-200 us body is not squeezed by the 14 ms tail: its own panel
	h="$tmp/o/plots/compare-histogram.svg"
	grep -q '>latency (us): body<' "$h" && grep -q '>tail (us)<' "$h" &&
		! grep -q 'log scale' "$h"
	ok $? "compare histogram: linear axis, body and tail panels"
	grep -qF '<text>stock: interval 1.00 ms, fifo 95, 18460 samples, 20s, load: none, kernel 6.1.0-57-amd64</text>' "$h" &&
		grep -qF '<text>rt: interval 1.00 ms, fifo 1, 18585 samples, 20s, load: none, kernel 6.1.0-57-rt-amd64</text>' "$h"
	ok $? "compare histogram title: each run's interval, priority, samples, duration, load, kernel"
	grep -q '^[0-9]* 14033.7[0-9]* "max 14033.7 us"$' "$tmp/o/plots/data/compare-percentiles.dat"
	ok $? "compare percentiles: rt's maximum marked"
	run_cmd compare --log-x -o "$tmp/lx" -f pdf "$d/lab-stock" "$d/lab-rt"
	ok $rc "--log-x -f pdf exits 0 ($err)"
	[ "$(grep -c 'src="data:image/png;base64,' "$tmp/lx/compare.html")" = 2 ] &&
		grep -q 'href="plots/compare-histogram.pdf"' "$tmp/lx/compare.html" &&
		[ -s "$tmp/lx/plots/compare-histogram.pdf" ] &&
		! grep -q '!\[[^]]*\]([^)]*\.pdf)' "$tmp/lx/compare.md"
	ok $? "-f pdf: compare.html embeds PNGs and links the PDFs; compare.md shows no PDF as an image"
	run_cmd compare --log-x -o "$tmp/lxs" -f svg "$d/lab-stock" "$d/lab-rt"
	grep -q '>latency (us, log scale)<' "$tmp/lxs/plots/compare-histogram.svg"
	ok $? "--log-x: a logarithmic latency axis"
else
	echo "# gnuplot not installed: file checks skipped"
fi

# --- bad input: one line, exit 2, nothing written
expect_usage_error "one run only" compare "$d/vm-idle"
expect_usage_error "labels do not match the runs" compare -l a,b,c "$d/vm-idle" "$d/vm-cpuload"
expect_usage_error "empty label" compare -l a, "$d/vm-idle" "$d/vm-cpuload"
expect_usage_error "duplicate labels" compare -l a,a "$d/vm-idle" "$d/vm-cpuload"
expect_usage_error "missing folder" compare -o "$tmp/bad" "$d/vm-idle" "$tmp/nope"
head -c 2000 "$d/vm-idle/result.json" >"$tmp/cut.json"
expect_usage_error "truncated result.json" compare -o "$tmp/bad" "$d/vm-idle" "$tmp/cut.json"
echo '{"schema": "other/1"}' >"$tmp/other.json"
expect_usage_error "another schema" compare -o "$tmp/bad" "$tmp/other.json" "$d/vm-idle"
[ ! -e "$tmp/bad" ]; ok $? "nothing written for bad input"
expect_usage_error "unknown option" compare --frobnicate "$d/vm-idle" "$d/vm-cpuload"
expect_usage_error "bad format" compare -f gif "$d/vm-idle" "$d/vm-cpuload"
expect_usage_error "nine runs" compare "$d/vm-idle" "$d/vm-idle" "$d/vm-idle" "$d/vm-idle" \
	"$d/vm-idle" "$d/vm-idle" "$d/vm-idle" "$d/vm-idle" "$d/vm-idle"
expect_usage_error "empty name between commas" compare "$d/vm-idle,,$d/vm-idle" "$d/vm-cpuload"
expect_usage_error "missing round" compare "$d/vm-idle,$tmp/nope" "$d/vm-cpuload"
expect_usage_error "33 runs on a side" compare "$(printf "$d/vm-idle,%.0s" $(seq 33))$d/vm-idle" \
	"$d/vm-cpuload"
run_cmd compare --help
ok $rc "--help exits 0"
# an imported run with samples beyond its histogram: no verdict where they lie
imp=$(mktemp -d)
"$RTMEASURE" import "$RTM_TESTDATA/import/cyclictest-idle-h2000.txt" -o "$imp/idle" >/dev/null 2>&1
"$RTMEASURE" import "$RTM_TESTDATA/import/cyclictest-loaded-h50.txt" -o "$imp/loaded" >/dev/null 2>&1
run_cmd compare "$imp/idle" "$imp/loaded" --labels idle,loaded
ok $rc "compare with an imported run that overflowed exits 0"
echo "$out" | grep -q '^warning: loaded: 709 imported samples lay beyond its histogram'
ok $? "its overflowed samples are warned about"
echo "$out" | grep -q 'p99 of loaded is unknown: it lies among the 709 samples beyond'
ok $? "no p99 verdict where the rank lies among them"
rm -rf "$imp"
# two results of rtmeasure wakeup (the box's own tasks, e.g. on two kernels): the same
# statistics as any two runs, and the tasks they took named; a wakeup result against a
# timer-probe one is refused in one line, either way round (different quantities)
W="$RTM_TESTDATA/results/vm-6.18-wakeup"
WB="$RTM_TESTDATA/results/vm-6.18-wakeup-b"
L="$RTM_TESTDATA/results/vm-6.18-load"
run_cmd compare --json "$W" "$WB"
[ "$rc" -eq 0 ] && [ "$(echo "$out" | jq -r '.runs[0].fingerprint.mode')" = "wakeup: real-time tasks (fifo, rr, deadline)" ]
ok $? "compare of two wakeup results: exit 0, the tasks they took in the fingerprint"
p99=$(pct "$W/result.json" 99)
[ "$(echo "$out" | jq '.runs[0].all.p99_ns')" = "$p99" ]
ok $? "the baseline's p99 over all CPUs is its buckets' ($p99 ns)"
[ "$(echo "$out" | jq '.comparisons[0].verdicts | length')" -eq 4 ]
ok $? "a verdict for each percentile"
jq -c '.sections.wakeup.selection = {"by": "comm", "comm": "cyclictest"}' "$WB/result.json" >"$tmp/wkcomm.json"
run_cmd compare "$W" "$tmp/wkcomm.json"
[ "$rc" -eq 0 ] && echo "$out" | grep -q '^warning: different probe mode (.*wakeup: the threads named cyclictest): they measured different tasks$'
ok $? "different selections warned: they measured different tasks"
expect_usage_error "compare of a wakeup result and a timer-probe result" compare "$W" "$L"
echo "$err" | grep -q "vm-6.18-load is a latency result and .*vm-6.18-wakeup a wakeup one: different quantities"
ok $? "which names both kinds and says they are different quantities"
expect_usage_error "the same the other way round" compare "$L" "$W"
expect_usage_error "a wakeup round among timer-probe rounds" compare "$L,$W" "$L"
done_testing
