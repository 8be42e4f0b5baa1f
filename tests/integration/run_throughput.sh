#!/bin/bash
# Integration: run --throughput (the cost phase). A 5 s latency run followed by
# stress-ng cpu, switch and sock for 2 s each on the measured CPUs: result.json
# has sections.throughput with every stressor, positive scores that agree with
# their own repetitions (rate x wall clock = bogo-ops), the workers and time
# asked for, and the exact commands; the summary prints it, report.html shows
# it, compare puts it beside the latency. SIGINT during the phase stops
# stress-ng, keeps the latency and marks the section incomplete (exit 130).
# Nothing is left behind: no stress-ng, no temporary folder. No timing is
# asserted.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
command -v stress-ng >/dev/null || skip "stress-ng not installed (apt-get install stress-ng)"
measure_lock "$@"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
mkdir "$d/tmp"
check="$RTM_BUILDDIR/tests/helpers/result_check"

TMPDIR=$d/tmp "$RTMEASURE" run -D 5s --throughput --throughput-time 2s -q -o "$d/r" \
	--json="$d/summary.json" >"$d/out" 2>"$d/err"
rc=$?
cat "$d/out" "$d/err"
[ $rc -eq 0 ] || fail "run --throughput exited $rc"
"$check" "$d/r" >/dev/null || fail "result.json does not load"
# --json's summary carries the same section
jq -e --slurpfile r "$d/r/result.json" '.throughput == $r[0].sections.throughput and
	(.throughput.stressors | length) > 0' "$d/summary.json" >/dev/null ||
	fail "--json summary lacks the throughput section: $(head -c 300 "$d/summary.json")"
t=$(jq -c '.sections.throughput' "$d/r/result.json")
[ "$t" != null ] || fail "no sections.throughput"
ncpu=$(jq '.cpus | length' "$d/r/result.json")
jq -e --argjson n "$ncpu" '.sections.throughput |
	.tool == "stress-ng" and .complete == true and .workers == $n and
	.time_per_stressor_ns == 2000000000 and .repetitions == 1 and
	([.stressors[].name] == ["cpu", "switch", "sock"]) and
	(.version | test("^[0-9]+\\.[0-9]+"))' "$d/r/result.json" >/dev/null ||
	fail "section facts wrong: $t"
jq -e '.sections.throughput.stressors | all(
	.bogo_ops_per_s > 0 and .repetitions == 1 and (.reps | length) == 1 and
	.reps[0].bogo_ops > 0 and .reps[0].wall_clock_s > 0 and
	.bogo_ops_per_s == .reps[0].bogo_ops_per_s and
	((.reps[0].bogo_ops_per_s * .reps[0].wall_clock_s - .reps[0].bogo_ops) | fabs) <=
		0.01 * .reps[0].bogo_ops and
	(.command | test("^stress-ng --[a-z]+ [0-9]+ .*--timeout 2 --metrics --yaml ")))' \
	"$d/r/result.json" >/dev/null || fail "stressor facts inconsistent: $t"
cpus=$(jq -r '.options.cpus' "$d/r/result.json")
jq -e --arg c "$cpus" '.sections.throughput | .cpus == $c and
	all(.stressors[]; .command | contains("--taskset " + $c))' "$d/r/result.json" \
	>/dev/null || fail "not on the measured CPUs $cpus: $t"
jq -e '.sections.throughput.stressors[0].command | contains("--cpu-method int64")' \
	"$d/r/result.json" >/dev/null || fail "cpu stressor without its fixed method"
grep -q '^throughput (stress-ng .*): cpu [0-9.]* switch [0-9.]* sock [0-9.]*$' "$d/out" ||
	fail "summary does not print the throughput line"
[ -z "$(ls -A "$d/tmp")" ] || fail "temporary files left: $(ls -A "$d/tmp")"
if [ -f "$d/r/report.html" ]; then
	grep -q '<h2>Throughput</h2>' "$d/r/report.html" || fail "report.html without Throughput"
fi

# compare: the run against itself is "the same", with no interval for one run a side
"$RTMEASURE" compare --labels a,b "$d/r" "$d/r" >"$d/cmp" 2>&1 || fail "compare failed"
grep -q 'b vs a: .*throughput the same (CI unknown: one run per side)' "$d/cmp" ||
	fail "compare has no throughput headline: $(grep -i throughput "$d/cmp")"

# SIGINT while stress-ng runs: stopped, section incomplete, latency kept, exit 130
TMPDIR=$d/tmp "$RTMEASURE" run -D 1s --throughput=cpu,switch --throughput-time 60s -q \
	-o "$d/i" >"$d/iout" 2>"$d/ierr" &
pid=$!
sng=""
for i in $(seq 600); do
	sng=$(pgrep -P $pid -x stress-ng | head -n 1)
	[ -n "$sng" ] && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
[ -n "$sng" ] || fail "no stress-ng started by run $pid ($(cat "$d/ierr"))"
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "SIGINT in the cost phase: exit $rc, want 130 ($(cat "$d/ierr"))"
jq -e '.sections.throughput.complete == false and .interrupted == false and
	(.cpus[0].hist.count > 0)' "$d/i/result.json" >/dev/null ||
	fail "interrupted phase: $(jq -c .sections.throughput "$d/i/result.json")"
pgrep -g "$sng" >/dev/null && fail "stress-ng (group $sng) still runs after SIGINT"
[ -z "$(ls -A "$d/tmp")" ] || fail "temporary files left after SIGINT: $(ls -A "$d/tmp")"

# SIGKILL while stress-ng runs: nothing can be saved, but stress-ng and its
# workers must not keep loading the CPUs until their own 60 s timeout
TMPDIR=$d/tmp "$RTMEASURE" run -D 1s --throughput=cpu --throughput-time 60s -q \
	-o "$d/k" >/dev/null 2>"$d/kerr" &
pid=$!
sng=""
for i in $(seq 600); do
	sng=$(pgrep -P $pid -x stress-ng | head -n 1)
	[ -n "$sng" ] && [ "$(pgrep -g "$sng" | wc -l)" -gt 1 ] && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
[ -n "$sng" ] || fail "no stress-ng started by run $pid ($(cat "$d/kerr"))"
kill -KILL $pid
wait $pid 2>/dev/null
for i in $(seq 100); do
	pgrep -g "$sng" >/dev/null || break
	sleep 0.1
done
pgrep -g "$sng" >/dev/null && { pkill -KILL -g "$sng"; fail "stress-ng (group $sng) and its workers outlive a SIGKILLed run by 10 s"; }
# what the killed run could not remove, the next run removes and names
left=$(cd "$d/tmp" && ls -d rtmeasure-cost.* 2>/dev/null)
[ -n "$left" ] || fail "the killed run left no temporary folder (was it killed mid-phase?)"
TMPDIR=$d/tmp "$RTMEASURE" cyclic -D 1s -q -o "$d/n" >/dev/null 2>"$d/nerr" ||
	fail "the run after the SIGKILL failed: $(cat "$d/nerr")"
grep -q "removed temporary folders of a killed rtmeasure: $left" "$d/nerr" ||
	fail "the next run did not say it removed $left: $(cat "$d/nerr")"
[ -z "$(ls -A "$d/tmp")" ] || fail "left after the next run: $(ls -A "$d/tmp")"
echo "PASS: run --throughput writes, prints, reports and compares the cost phase; SIGINT stops it cleanly, SIGKILL leaves no stress-ng"
