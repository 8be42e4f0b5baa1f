#!/bin/bash
# Integration: what disturbed a run travels with its numbers (root, real RT threads).
#  - two runs on CPU 0 at once: the later one's summary, report.md and
#    report.html say another rtmeasure measured CPU 0 during it (naming the
#    first's pid), the first's too once it noticed; compare of the two warns on
#    each side and qualifies its verdicts; the export carries it
#  - a run asked for 60 s and stopped by SIGINT: its summary and report give the
#    time it measured of the 60 s asked and the signal
# A lock directory of its own keeps other tests' runs out of it.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
command -v gnuplot >/dev/null || skip "gnuplot not installed: run writes no report"
measure_lock "$@"

out=$(mktemp -d)
export RTMEASURE_LOCK_DIR="$out/locks"
first=
trap '[ -n "$first" ] && kill -9 $first 2>/dev/null; rm -rf "$out"' EXIT

"$RTMEASURE" run -a 0 -q -o "$out/a" >"$out/a.out" 2>"$out/a.err" &
first=$!
for i in $(seq 3000); do	# a bound: a sanitizer build on a loaded box is slow
	[ "$(cut -d' ' -f1 "$RTMEASURE_LOCK_DIR/cpu0.lock" 2>/dev/null)" = "$first" ] && break
	sleep 0.1
done
"$RTMEASURE" run -a 0 -D 2s -q -o "$out/b" >"$out/b.out" 2>"$out/b.err" ||
	fail "second run exited $? ($(cat "$out/b.err"))"
kill -INT $first
wait $first
rc=$?
pid=$first
first=
[ $rc -eq 130 ] || fail "first run: exit $rc after SIGINT, want 130 ($(cat "$out/a.err"))"

said="another rtmeasure measured CPU 0 during this run (pid $pid): its probes disturb these numbers"
grep -qxF "note: $said" "$out/b.out" || fail "second run's summary: $(grep note "$out/b.out")"
sed '/^| CPU |/q' "$out/b/report.md" | grep -qxF "> **Warning:** $said." ||
	fail "second run's report.md has no banner: $(head -8 "$out/b/report.md")"
sed '/<table>/q' "$out/b/report.html" | grep -qF "id=\"warning-shared_cpus\">Warning: $said.</p>" ||
	fail "second run's report.html has no banner"
sed '/^| CPU |/q' "$out/a/report.md" |
	grep -q '^> \*\*Warning:\*\* another rtmeasure measured CPU 0 during this run: ' ||
	fail "first run's report.md has no banner: $(head -8 "$out/a/report.md")"

"$RTMEASURE" compare "$out/a" "$out/b" >"$out/cmp.txt" 2>&1 || fail "compare: $(cat "$out/cmp.txt")"
grep -qxF "warning: b: $said" "$out/cmp.txt" &&
	grep -q '^warning: a: another rtmeasure measured CPU 0 during this run: ' "$out/cmp.txt" ||
	fail "compare: no warning per side: $(grep '^warning' "$out/cmp.txt")"
v=$(grep "^  b's p99 " "$out/cmp.txt")
echo "$v" | grep -q "; but a and b shared their CPUs with another measuring rtmeasure" ||
	fail "compare: the p99 verdict is not qualified: $v"
"$RTMEASURE" compare --json "$out/a" "$out/b" |
	jq -e '.comparisons[0].shared_cpus == ["a", "b"]' >/dev/null ||
	fail "compare --json: comparisons[0].shared_cpus"
"$RTMEASURE" export --prometheus "$out/b" |
	grep -q '^rtmeasure_run_disturbed{.*,reason="shared_cpus"} 1$' ||
	fail "export --prometheus: no rtmeasure_run_disturbed"
unset RTMEASURE_LOCK_DIR

# asked for 60 s, stopped by SIGINT once it measures
"$RTMEASURE" run -a 0 -D 60s -q -o "$out/s" >"$out/s.out" 2>"$out/s.err" &
first=$!
wait_probes $first
kill -INT $first
wait $first
first=
jq -e '.interrupted and .stop_signal == "SIGINT"' "$out/s/result.json" >/dev/null ||
	fail "result.json: $(jq -c '{interrupted, stop_signal}' "$out/s/result.json")"
re='interrupted after [0-9]+\.[0-9] s of 60 s asked, stopped by SIGINT: the figures cover only the time measured'
grep -qE "^note: $re$" "$out/s.out" || fail "summary: $(grep note "$out/s.out")"
sed '/^| CPU |/q' "$out/s/report.md" | grep -qE "^> \*\*Warning:\*\* $re\.$" ||
	fail "report.md: $(head -8 "$out/s/report.md")"
echo "PASS: shared CPUs and an interrupted run said in the summary, report, compare and export"
