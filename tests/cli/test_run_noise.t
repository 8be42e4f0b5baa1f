#!/bin/bash
# Command-level tests of run --noise (the noise phase after the latency phase):
# bad values are one line and exit 2 before anything is measured; the noise
# options need --noise; a short run at SCHED_OTHER (no root) writes both the
# latency CPUs and sections.noise, with the phase after the latency phase,
# prints both tables and carries the noise summary in --json.
. "$RTM_SRCDIR/tests/lib.sh"
measure_lock "$@"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

run_cmd run --help
echo "$out" | grep -q -- '--noise\[=DUR\]'; ok $? "run --help documents --noise"
expect_usage_error "--noise not a duration" run --noise=soon -D 1s
expect_usage_error "--noise-window without --noise" run --noise-window 1s -D 1s
expect_usage_error "--noise-threshold without --noise" run --noise-threshold 5us -D 1s
expect_usage_error "--noise-trace without --noise" run --noise-trace -D 1s
expect_usage_error "--noise-width equal to --noise-window" run --noise --noise-window 1s \
	--noise-width 1s -D 1s
expect_usage_error "--noise-width longer than --noise-window" run --noise --noise-window 1s \
	--noise-width 2s -D 1s
expect_usage_error "--noise-window too short" run --noise --noise-window 5ms --noise-width 1ms
expect_usage_error "--noise-width too short" run --noise --noise-width 100us
expect_usage_error "--noise-threshold too small" run --noise --noise-threshold 10ns
expect_usage_error "--noise-threshold not a latency" run --noise --noise-threshold fast
expect_usage_error "--noise-trace bad value" run --noise --noise-trace=maybe
expect_usage_error "cyclic has no noise phase" cyclic --noise -D 1s

# a short run at SCHED_OTHER: both sections, the noise phase after the latency phase
"$RTMEASURE" run --no-rt -l 200 -i 1ms --noise=300ms --noise-window 100ms --noise-width 50ms \
	--noise-trace 0 --no-report -o "$d/r" --json="$d/s.json" >"$d/o" 2>"$d/e" </dev/null
rc=$?
[ $rc -eq 0 ]; ok $? "run --noise --no-rt exits 0 ($rc: $(tail -n 2 "$d/e"))"
if command -v jq >/dev/null; then
	jq -e '(.cpus | length) > 0 and .sections.noise.phase.when == "after_latency" and
		.sections.noise.phase.interrupted == false and
		.sections.noise.phase.planned_ns == 300000000 and
		.sections.noise.start_mono_ns >= .sections.noise.phase.latency_end_mono_ns and
		([.cpus[].cpu] == [.sections.noise.cpus[].cpu]) and
		.sections.noise.window_ns == 100000000 and .sections.noise.width_ns == 50000000 and
		(.sections.noise.cpus[0] | has("causes") | not)' "$d/r/result.json" >/dev/null
	ok $? "result.json: latency CPUs and sections.noise, after the latency phase, same CPUs"
	jq -e '.noise.cpus[0].sampled_ns > 0 and (.noise.cpus[0] | has("gap_list") | not) and
		.all != null' "$d/s.json" >/dev/null 2>&1 ||
		jq -e '.noise.cpus[0].sampled_ns > 0 and (.noise.cpus[0] | has("gap_list") | not)' \
		"$d/s.json" >/dev/null
	ok $? "--json carries the noise summary (no gap lists)"
else
	echo "ok $((tap_n += 1)) # SKIP jq missing"
	echo "ok $((tap_n += 1)) # SKIP jq missing"
fi
grep -q '^noise phase (after the latency phase, same CPUs):$' "$d/o"
ok $? "the summary prints the noise phase's table"
grep -q 'noise phase: CPUs .*, other 0, busy 50.0 ms of every 100 ms' "$d/e"
ok $? "the noise phase's banner names its duty cycle ($(grep 'noise phase' "$d/e"))"
# report of the saved result: the latency pages with a Noise section
if command -v gnuplot >/dev/null; then
	"$RTMEASURE" report "$d/r" >/dev/null 2>&1
	grep -q '<h2>Noise</h2>' "$d/r/report.html" && grep -q '^## Noise$' "$d/r/report.md" &&
		grep -q '<h2>Summary' "$d/r/report.html"
	ok $? "report.html and report.md: the latency report with a Noise section"
else
	echo "ok $((tap_n += 1)) # SKIP gnuplot missing"
fi
done_testing
