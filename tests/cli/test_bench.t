#!/bin/bash
# scripts/bench/lib.sh's result lines and scripts/bench/all's table of them: targets
# worked out both ways, a script without result lines, a failing one and one past the
# budget each get a row saying so.
. "$RTM_SRCDIR/tests/lib.sh"

B="$RTM_SRCDIR/scripts/bench"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

. "$B/lib.sh"
line=$(bench_result p99_us 50 40 1.25 "ratio <= 1.05" "medians of 3")
[ "$line" = "$(printf 'result\tp99_us\t50\t40\t1.25\tratio <= 1.05\tno\tmedians of 3')" ]
ok $? "a ratio over its target: met no, the note last ($line)"
line=$(bench_result cpu_pct 0.3 0.4 0.75 "rtmeasure < 0.5")
[ "$line" = "$(printf 'result\tcpu_pct\t0.3\t0.4\t0.75\trtmeasure < 0.5\tyes')" ]
ok $? "rtmeasure's own figure under its target: met yes ($line)"
[ "$(bench_result x - - - "ratio >= 10" | cut -f7)" = - ]
ok $? "a missing figure: met -"
[ "$(bench_result x 7 | cut -f4-7)" = "$(printf -- '-\t-\t-\t-')" ]
ok $? "no reference, ratio or target: dashes"

mkdir "$d/s"
cat >"$d/s/good" <<'EOS'
#!/bin/bash
. "$RTM_SRCDIR/scripts/bench/lib.sh"
echo "a table first"
bench_result speed_x 12 10 1.2 "ratio >= 1"
bench_result cost_ms 3 - - "rtmeasure < 1" "too slow here"
EOS
printf '#!/bin/bash\necho "nothing to report"\n' >"$d/s/silent"
printf '#!/bin/bash\necho "bench: cyclictest missing" >&2\nexit 2\n' >"$d/s/broken"
printf '#!/bin/bash\nsleep 600\n' >"$d/s/slow"
printf 'not run: a C file\n' >"$d/s/bench_x.c"
chmod +x "$d/s/good" "$d/s/silent" "$d/s/broken" "$d/s/slow"
out=$(RTM_BENCH_DIR="$d/s" timeout 100 "$B/all" --budget 15s --only good,silent,broken,slow 2>/dev/null)
rc=$?
ok $rc "all exits 0 ($rc)"
echo "$out" | grep -Eq '^metric +rtmeasure +reference +ratio +target +met$'
ok $? "the table's header"
echo "$out" | grep -Eq '^good\.speed_x +12 +10 +1\.2 +ratio >= 1 +yes$'
ok $? "a met target, named after its script"
echo "$out" | grep -Eq '^good\.cost_ms +3 +- +- +rtmeasure < 1 +no \(too slow here\)$'
ok $? "an unmet one with its note"
echo "$out" | grep -Eq '^silent +- +- +- +- +- \(no result lines \(exit 0: nothing to report\)\)$'
ok $? "a script without result lines is named"
echo "$out" | grep -Eq '^broken +- +- +- +- +- \(no result lines \(exit 2: bench: cyclictest missing\)\)$'
ok $? "a failing script with its last line"
echo "$out" | grep -Eq '^slow +- +- +- +- +- \(out of time'
ok $? "a script cut off at the budget"
echo "$out" | grep -q "bench_x"
ok $(( ! $? )) "C files are not run"
echo "$out" | grep -q '^targets met: 1, not met: 1$'
ok $? "the count of targets met and not ($(echo "$out" | tail -2 | head -1))"

RTM_BENCH_DIR="$d/s" "$B/all" --budget x >/dev/null 2>&1
ok $(( $? != 2 )) "a budget that is neither minutes nor seconds: exit 2"

done_testing
