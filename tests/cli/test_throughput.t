#!/bin/bash
# Command-level tests of run --throughput (the cost phase): bad values give one
# line and exit 2 before anything is measured; stress-ng missing is named with
# its fix before measuring; cyclic has no such option.
. "$RTM_SRCDIR/tests/lib.sh"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

run_cmd run --help
echo "$out" | grep -q -- '--throughput\[=LIST\]'; ok $? "run --help documents --throughput"
expect_usage_error "unknown stressor" run --throughput=cpu,dishes -D 1s
expect_usage_error "empty stressor list" run --throughput= -D 1s
expect_usage_error "empty word in the list" run --throughput=cpu,,sock -D 1s
expect_usage_error "bad stressor time" run --throughput --throughput-time soon -D 1s
expect_usage_error "stressor time not whole seconds" run --throughput --throughput-time 1500ms
expect_usage_error "stressor time of 0" run --throughput --throughput-time 0
expect_usage_error "stressor time beyond an hour" run --throughput --throughput-time 2h
expect_usage_error "repetitions 0" run --throughput --throughput-reps 0
expect_usage_error "repetitions not a number" run --throughput --throughput-reps many
expect_usage_error "too many repetitions" run --throughput --throughput-reps 21
expect_usage_error "--throughput-time without --throughput" run --throughput-time 5s -D 1s
expect_usage_error "--throughput-reps without --throughput" run --throughput-reps 2 -D 1s
expect_usage_error "cyclic has no cost phase" cyclic --throughput -D 1s

# stress-ng missing: named with the fix, before anything is measured or written
mkdir "$d/bin"
PATH=$d/bin "$RTMEASURE" run --throughput --no-rt -D 1s -o "$d/res" >"$d/o" 2>"$d/e" </dev/null
rc=$?
out=$(cat "$d/o")
err=$(cat "$d/e")
lines=$(printf '%s\n' "$err" | grep -c .)
[ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ -z "$out" ] && echo "$err" | grep -q 'apt-get install stress-ng'
ok $? "stress-ng missing: one line with the apt-get fix, exit 2 ($rc: $err)"
[ ! -e "$d/res" ]; ok $? "  and nothing was measured or written"
done_testing
