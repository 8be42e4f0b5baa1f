#!/bin/bash
# Integration: run --noise (the noise phase after the latency phase). A 3 s
# latency run then a 2 s noise phase at FIFO 95: result.json has the latency
# CPUs and sections.noise on the same CPUs; the noise threads started after
# the timer threads were joined (start_mono_ns >= phase.latency_end_mono_ns:
# no CPU measured by both probes at once), and while the noise phase runs no
# timer probe thread (rtm-probe/N) is alive; gap causes are traced when
# tracefs works; the summary, --json and report.html show both. SIGINT during
# the noise phase keeps the latency and what the noise phase measured
# (phase.interrupted, exit 130); SIGINT during the latency phase saves the
# latency, marked interrupted, and runs no noise phase. No trace instance is
# left. No timing is asserted.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
measure_lock "$@"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
check="$RTM_BUILDDIR/tests/helpers/result_check"

# wait_for FILE PATTERN PID: until FILE holds PATTERN (60 s at most, or PID ended)
wait_for() {
	local i
	for i in $(seq 600); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

"$RTMEASURE" run -D 3s --noise=2s -o "$d/r" --json="$d/s.json" >"$d/out" 2>"$d/err" &
pid=$!
wait_for "$d/err" "noise phase: CPUs" $pid || fail "no noise phase started ($(cat "$d/err"))"
# the timer probe's threads are gone while the noise probe's run
threads=$(for t in /proc/$pid/task/*; do cat "$t/comm"; done 2>/dev/null | sort | uniq -c)
echo "$threads"
echo "$threads" | grep -q 'rtm-probe' && fail "timer probe threads alive in the noise phase"
wait $pid
rc=$?
cat "$d/out" "$d/err"
[ $rc -eq 0 ] || fail "run --noise exited $rc"
"$check" "$d/r" >/dev/null || fail "result.json does not load"
n=$(jq -c '.sections.noise | {phase, start_mono_ns, backend, probe,
	cpus: [.cpus[] | {cpu, gaps, noise_ns, max_gap_ns}]}' "$d/r/result.json")
echo "$n"
jq -e '(.cpus | length) > 0 and ([.cpus[].cpu] == [.sections.noise.cpus[].cpu]) and
	.sections.noise.backend == "user" and
	.sections.noise.phase.when == "after_latency" and
	.sections.noise.phase.interrupted == false and
	.sections.noise.start_mono_ns >= .sections.noise.phase.latency_end_mono_ns and
	.interrupted == false and
	all(.sections.noise.cpus[]; .sampled_ns > 0 and .windows > 0)' "$d/r/result.json" \
	>/dev/null || fail "sections.noise wrong or overlapping the latency phase: $n"
jq -e '.duration_ns >= 2500000000 and .sections.noise.duration_ns < .duration_ns' \
	"$d/r/result.json" >/dev/null || fail "the latency duration is not the latency phase's"
if grep -q 'gap causes traced' "$d/err"; then
	jq -e 'all(.sections.noise.cpus[]; has("causes") and has("gap_causes")) and
		(.sections.noise | has("attribution"))' "$d/r/result.json" >/dev/null ||
		fail "gap causes announced but not in sections.noise"
fi
jq -e '.noise.cpus | length > 0' "$d/s.json" >/dev/null || fail "--json has no noise"
grep -q '^noise phase (after the latency phase, same CPUs):$' "$d/out" ||
	fail "the summary lacks the noise table"
if [ -f "$d/r/report.html" ]; then
	grep -q '<h2>Noise</h2>' "$d/r/report.html" || fail "report.html has no Noise section"
	grep -q '<h2>Summary' "$d/r/report.html" || fail "report.html lost its latency summary"
fi
no_instances_of $pid

# SIGINT in the noise phase: latency whole, the noise measured so far, exit 130
"$RTMEASURE" run -D 2s --noise=60s --noise-trace 0 --no-report -o "$d/i" >"$d/iout" \
	2>"$d/ierr" &
pid=$!
wait_for "$d/ierr" "noise phase: CPUs" $pid || fail "no noise phase started ($(cat "$d/ierr"))"
sleep 2.5
kill -INT $pid
wait $pid
rc=$?
cat "$d/ierr"
[ $rc -eq 130 ] || fail "SIGINT in the noise phase: exit $rc, want 130"
"$check" "$d/i" >/dev/null || fail "interrupted: result.json does not load"
jq -e '.interrupted == false and (.cpus | length) > 0 and
	.sections.noise.phase.interrupted == true and
	.sections.noise.duration_ns > 0 and .sections.noise.duration_ns < 60000000000 and
	all(.sections.noise.cpus[]; .sampled_ns > 0)' "$d/i/result.json" >/dev/null ||
	fail "SIGINT in the noise phase: $(jq -c '{interrupted, n: .sections.noise.phase,
		d: .sections.noise.duration_ns}' "$d/i/result.json")"
grep -q 'noise phase interrupted after' "$d/ierr" || fail "no 'noise phase interrupted after'"
no_instances_of $pid

# SIGINT in the latency phase: the latency saved, no noise phase
"$RTMEASURE" run -D 60s --noise=10s --no-report -o "$d/l" >"$d/lout" 2>"$d/lerr" &
pid=$!
wait_probes $pid 2>/dev/null || sleep 2
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "SIGINT in the latency phase: exit $rc, want 130 ($(cat "$d/lerr"))"
jq -e '.interrupted == true and (.cpus | length) > 0 and
	(.sections | has("noise") | not)' "$d/l/result.json" >/dev/null ||
	fail "SIGINT in the latency phase: a noise phase ran or the latency was lost"
grep -q 'noise phase: CPUs' "$d/lerr" && fail "a noise phase started after SIGINT"
no_instances_of $pid
echo "ok"
