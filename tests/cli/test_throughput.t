#!/bin/bash
# Command-level tests of run --throughput (the cost phase): bad values give one
# line and exit 2 before anything is measured; stress-ng missing is named with
# its fix before measuring; cyclic has no such option. A stress-ng that fails,
# or writes a truncated YAML file (fakes on PATH), is named with the end of its
# output, the latency is saved without the section, and the status is 2.
. "$RTM_SRCDIR/tests/lib.sh"
measure_lock "$@"

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
# stress-ng failing, or leaving a truncated YAML: the latency is kept, exit 2
mkdir "$d/fail" "$d/trunc" "$d/tmp"
printf '#!/bin/sh\necho "stress-ng: error: [1] cpu stressor failed"\nexit 2\n' >"$d/fail/stress-ng"
cat >"$d/trunc/stress-ng" <<'FAKE'
#!/bin/sh
# the metrics file cut short, as a full disk leaves it
while [ $# -gt 0 ]; do [ "$1" = --yaml ] && y=$2; shift; done
printf -- '---\nmetrics:\n    - stressor: cpu\n      bogo-ops: 12\n' >"$y"
FAKE
chmod +x "$d/fail/stress-ng" "$d/trunc/stress-ng"
for fake in fail trunc; do
	TMPDIR=$d/tmp PATH=$d/$fake:$PATH "$RTMEASURE" run --no-rt -l 50 -i 1ms --no-report -q --throughput=cpu \
		--throughput-time 1s -o "$d/r-$fake" >"$d/o" 2>"$d/e" </dev/null
	rc=$?
	err=$(cat "$d/e")
	case $fake in
	fail) want='exited with status 2: stress-ng: error: \[1\] cpu stressor failed' ;;
	trunc) want="stressor cpu has no bogo-ops-per-second-real-time" ;;
	esac
	# another rtmeasure measuring these CPUs (a run by hand beside the tests)
	# adds a warning line: not counted here
	[ $rc -eq 2 ] && echo "$err" | grep -q "throughput phase failed: .*$want" &&
		[ "$(echo "$err" | grep -v 'another rtmeasure' | grep -c .)" -eq 1 ]
	ok $? "stress-ng $fake: one line naming it, exit 2 ($rc: $err)"
	[ -f "$d/r-$fake/result.json" ] && ! grep -q '"throughput"' "$d/r-$fake/result.json"
	ok $? "  the latency is saved, without a throughput section"
	[ -z "$(ls -A "$d/tmp")" ]
	ok $? "  and its temporary folder is removed"
done
done_testing
