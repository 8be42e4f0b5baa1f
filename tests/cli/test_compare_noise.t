#!/bin/bash
# Command-level tests of compare on results with sections.noise (run --noise),
# recorded on this VM (tests/data/compare/README.md): the noise section of the
# text output equals its golden file, for rounds (a verdict over runs) and for
# one run a side with different thresholds (figures only, and a warning); its
# figures equal those computed here from the inputs; --json carries them, the
# verdict and the warning; compare.html and compare.md have the section; a
# side without noise has no verdict; sides on different CPUs are warned about. Results of rtmeasure noise alone are
# compared the same way (golden output, --json kind "noise", pages), with what
# disturbed each side (another rtmeasure on its CPUs, a signal) in its warnings
# and verdicts; mixing them with latency results is refused.
. "$RTM_SRCDIR/tests/lib.sh"
command -v jq >/dev/null || { echo "1..0 # SKIP jq not installed"; exit 0; }
d="$RTM_TESTDATA/compare"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run_cmd compare --labels a,b "$d/noise-a1,$d/noise-a2" "$d/noise-b1"
ok $rc "compare of two run --noise rounds against one exits 0 ($err)"
echo "$out" | sed -n '/^noise (/,$p' >"$tmp/rounds.txt"
diff -u "$d/noise-golden-rounds.txt" "$tmp/rounds.txt"
ok $? "the noise section (rounds) equals noise-golden-rounds.txt"

run_cmd compare --labels a,c "$d/noise-a1" "$d/noise-c1"
ok $rc "compare of two runs with different thresholds exits 0 ($err)"
echo "$out" | sed -n '/^noise (/,$p' >"$tmp/thr.txt"
diff -u "$d/noise-golden-threshold.txt" "$tmp/thr.txt"
ok $? "the noise section (one run a side) equals noise-golden-threshold.txt"
echo "$out" | grep -q "^  c vs a: noise .*(figures only, no verdict: one run per side"
ok $? "one run a side: figures only, and it says so"

# the figures from the inputs: noise % = sum noise_ns / sum sampled_ns over CPUs and runs
run_cmd compare --json --labels a,b "$d/noise-a1,$d/noise-a2" "$d/noise-b1"
echo "$out" >"$tmp/r.json"
want=$(jq -s '[.[].sections.noise.cpus[]] | {n: (map(.noise_ns) | add),
	s: (map(.sampled_ns) | add), m: (map(.max_gap_ns) | max), g: (map(.gaps) | add),
	irq: (map(.causes.irq_ns) | add), un: (map(.causes.unexplained_ns) | add)}' \
	"$d/noise-a1/result.json" "$d/noise-a2/result.json")
jq -e --argjson w "$want" '.runs[0].noise | .noise_ns == $w.n and .sampled_ns == $w.s and
	.max_gap_ns == $w.m and .gaps == $w.g and .causes.irq_ns == $w.irq and
	.causes.unexplained_ns == $w.un and .rounds == 2 and
	((.noise_pct - 100 * $w.n / $w.s) | fabs) < 1e-9 and (.noise_pct_per_run | length) == 2' \
	"$tmp/r.json" >/dev/null
ok $? "--json: side a's sums, max gap, gap count and causes equal the inputs' ($want)"
jq -e '.comparisons[0].noise | .interval == "pooled-t" and .n_baseline == 2 and
	.n_run == 1 and (.verdict == "same" or .verdict == "lower" or .verdict == "higher") and
	.ratio_ci_lo < .ratio and .ratio < .ratio_ci_hi' "$tmp/r.json" >/dev/null
ok $? "--json: a verdict on noise % over runs, with its interval"
jq -e '.runs[0].noise | .gap_p50_ns > 0 and .gap_p99_ns > 0 and .gap_p99_9_ns == null' \
	"$tmp/r.json" >/dev/null
ok $? "--json: gap percentiles, null where fewer than 10 gaps lie beyond"
run_cmd compare --json --labels a,c "$d/noise-a1" "$d/noise-c1"
echo "$out" | jq -e '(.warnings | map(select(.id == "noise_threshold")) | length) == 1 and
	.comparisons[0].noise.verdict == "none" and .comparisons[0].noise.ratio_ci_lo == null and
	.runs[1].noise.threshold_ns == 10000 and .runs[1].noise.causes == null' >/dev/null
ok $? "--json: the threshold warning, no verdict with one run a side, no causes untraced"

# a side without noise: its row says so, no noise verdict
run_cmd compare --labels idle,noise "$d/vm-idle" "$d/noise-a1"
echo "$out" | grep -q '^idle  *no noise ' && ! echo "$out" | grep -q '^  noise vs idle: noise'
ok $? "a side without sections.noise: 'no noise', no verdict"
run_cmd compare --labels idle,other "$d/vm-idle" "$d/vm-cpuload"
! echo "$out" | grep -q '^noise ('
ok $? "no noise section at all without sections.noise"

# results of rtmeasure noise alone (no latency): their noise side by side
run_cmd compare --labels old,new "$RTM_TESTDATA/results/vm-6.18-noise" \
	"$d/noise-only-1,$d/noise-only-2"
ok $rc "compare of rtmeasure noise results exits 0 ($err)"
echo "$out" >"$tmp/only.txt"
diff -u "$d/noise-golden-only.txt" "$tmp/only.txt"
ok $? "noise results alone: the output equals noise-golden-only.txt"
run_cmd compare --json --labels old,new "$RTM_TESTDATA/results/vm-6.18-noise" \
	"$d/noise-only-1,$d/noise-only-2"
want=$(jq -s '[.[].sections.noise.cpus[]] | (map(.noise_ns) | add) / (map(.sampled_ns) | add) * 100' \
	"$d/noise-only-1/result.json" "$d/noise-only-2/result.json")
echo "$out" | jq -e --argjson w "$want" '.kind == "noise" and (.runs | length) == 2 and
	.runs[1].rounds == 2 and ((.runs[1].noise.noise_pct - $w) | fabs) < 1e-9 and
	.comparisons[0].noise.interval == "pooled-t" and
	(.warnings | map(.id)) == ["hypervisor", "shared_cpus", "noise_threshold"]' >/dev/null
ok $? "--json of noise results: kind noise, the sides' noise % ($want), verdict, warnings"

# what disturbed a side goes with its noise: vm-6.18-noise shared CPU 1 with another
# rtmeasure; a copy of noise-only-1 stopped by SIGINT (1.5 s of the 2 s asked)
mkdir "$tmp/int"
jq '.interrupted = true | .stop_signal = "SIGINT"' "$d/noise-only-1/result.json" \
	>"$tmp/int/result.json"
shared="another rtmeasure measured CPU 1 during this run (pid 16684): its probes disturb these numbers"
stopped="interrupted after 1.5 s of 2 s asked, stopped by SIGINT: the figures cover only the time measured"
qual="; but old shared its CPUs with another measuring rtmeasure (warning shared_cpus): the verdict may be about that disturbance, not the set-ups"
run_cmd compare --labels old,new "$RTM_TESTDATA/results/vm-6.18-noise" "$tmp/int"
echo "$out" | grep -qxF "warning: old: $shared" && echo "$out" | grep -qxF "warning: new: $stopped"
ok $? "noise results: each side's warnings, named after it ($err)"
echo "$out" | grep "^  new vs old: noise " | grep -qF "$qual"
ok $? "noise results: the verdict says the baseline shared its CPUs"
run_cmd compare --json --labels old,new "$RTM_TESTDATA/results/vm-6.18-noise" "$tmp/int"
echo "$out" | jq -e --arg q "$qual" '(.runs[0].warnings | map(.id)) == ["shared_cpus", "hypervisor"] and
	(.runs[1].warnings | map(.id)) == ["interrupted", "hypervisor"] and
	(.warnings | map(.id)) == ["hypervisor", "shared_cpus", "interrupted", "noise_threshold"] and
	.comparisons[0].shared_cpus == ["old"] and (.comparisons[0].noise.text | endswith($q))' \
	>/dev/null
ok $? "--json of noise results: runs[].warnings, warnings, shared_cpus, the verdict's text"
run_cmd compare -o "$tmp/dist" --labels old,new "$RTM_TESTDATA/results/vm-6.18-noise" "$tmp/int"
grep -qF "<p class=\"warn\">Warning: old: $shared</p>" "$tmp/dist/compare.html" &&
	grep -qF "Warning: new: $stopped</p>" "$tmp/dist/compare.html" &&
	grep -qF "but old shared its CPUs" "$tmp/dist/compare.html" &&
	grep -qxF "**Warning:** old: $shared" "$tmp/dist/compare.md" &&
	grep -qxF "**Warning:** new: $stopped" "$tmp/dist/compare.md" &&
	grep -qF "but old shared its CPUs" "$tmp/dist/compare.md"
ok $? "noise results: compare.html and compare.md carry the warnings and the qualified verdict"
# run --noise results beside latency: their noise verdict is qualified the same way
mkdir "$tmp/sh"
jq '.sections.shared_cpus = {cpus: "0-1", other_pid: null}' "$d/noise-a1/result.json" \
	>"$tmp/sh/result.json"
run_cmd compare --labels a,b "$tmp/sh" "$d/noise-b1"
echo "$out" | grep "^  b vs a: noise " | grep -qF "but a shared its CPUs with another measuring"
ok $? "run --noise results: the noise verdict says a side shared its CPUs ($err)"
# sides measured on different CPUs: their sums are over other CPUs, and it is said
run_cmd compare --labels both,one "$d/noise-only-1" "$d/noise-only-cpu1"
ok $rc "compare of noise results on CPUs 0-1 and on CPU 1 exits 0 ($err)"
echo "$out" | grep -q "^warning: different noise CPU sets (both: CPUs 0-1; one: CPUs 1): "
ok $? "different CPU sets: a warning naming each side's CPUs"
run_cmd compare --json --labels both,one "$d/noise-only-1" "$d/noise-only-cpu1"
echo "$out" | jq -e '(.warnings | map(select(.id == "noise_cpus")) | length) == 1' >/dev/null
ok $? "--json: the CPU-set warning, id noise_cpus"
run_cmd compare --json --labels a,b "$d/noise-only-1" "$d/noise-only-2"
echo "$out" | jq -e '(.warnings | map(select(.id == "noise_cpus")) | length) == 0' >/dev/null
ok $? "the same CPUs on both sides: no CPU-set warning"
expect_usage_error "a latency result beside noise results" compare \
	"$RTM_TESTDATA/results/vm-6.18-noise" "$d/vm-idle"
expect_usage_error "a noise result beside latency results" compare "$d/vm-idle" \
	"$d/noise-only-1"
run_cmd compare -o "$tmp/only" --labels old,new "$RTM_TESTDATA/results/vm-6.18-noise" \
	"$d/noise-only-1"
grep -q '<h1>Noise comparison</h1>' "$tmp/only/compare.html" &&
	grep -q '<h2>Noise</h2>' "$tmp/only/compare.html" &&
	grep -q '</html>' "$tmp/only/compare.html" &&
	grep -q '^# Noise comparison$' "$tmp/only/compare.md" &&
	grep -q '^| new | ' "$tmp/only/compare.md"
ok $? "noise results: compare.html and compare.md with the Noise part ($rc $err)"

# compare.html and compare.md
if command -v gnuplot >/dev/null; then
	run_cmd compare --labels a,c -o "$tmp/out" "$d/noise-a1" "$d/noise-c1"
	grep -q '<h2>Noise</h2>' "$tmp/out/compare.html" &&
		grep -q 'different noise thresholds' "$tmp/out/compare.html" &&
		grep -q '^## Noise$' "$tmp/out/compare.md" &&
		grep -q '^| a | 0.762% | 15.2 ms | 117.9 | 757 |' "$tmp/out/compare.md"
	ok $? "compare.html and compare.md: the Noise section, its table and warning"
else
	echo "ok $((tap_n += 1)) # SKIP gnuplot missing"
fi
done_testing
