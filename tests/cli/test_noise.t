#!/bin/bash
# Command-level tests of rtmeasure noise (and its other name hwlat): every bad
# option or duty cycle is one line and exit 2, before any thread starts.
. "$RTM_SRCDIR/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_usage_error "--width longer than --window" noise --window 1s --width 2s
expect_usage_error "--width equal to --window without --force" noise --window 1s --width 1s
expect_usage_error "--window too short" noise --window 5ms --width 1ms
expect_usage_error "--width too short" noise --width 100us
expect_usage_error "--width not a duration" noise --width soon
expect_usage_error "--threshold below the loop's resolution" noise --threshold 10ns
expect_usage_error "--threshold not a latency" noise --threshold fast
expect_usage_error "--report-above below --threshold" noise --threshold 5us --report-above 2us
expect_usage_error "--max-gaps 0" noise --max-gaps 0
expect_usage_error "--max-gaps not a number" noise --max-gaps many
expect_usage_error "--policy deadline (a busy loop)" noise --policy deadline:1ms:2ms:3ms
expect_usage_error "--policy unknown" noise --policy fast
expect_usage_error "-p out of range" noise -p 100
expect_usage_error "a timer option (--interval)" noise --interval 100us
expect_usage_error "-h is not help" noise -h 100
expect_usage_error "a CPU that does not exist" noise -a 4000
expect_usage_error "a stray argument" noise extra
expect_usage_error "hwlat: the same checks" hwlat --window 1s --width 2s
# hwlat takes hwlatdetect's options with its units; those that make no sense are one line
expect_usage_error "hwlat --debug (no debug prints)" hwlat --debug
echo "$err" | grep -q "hwlat: --debug: rtmeasure has no debug prints; .*result.json"
ok $? "hwlat --debug: the reason and where the details are ($err)"
expect_usage_error "hwlat --duration with an unknown suffix" hwlat --duration 3x
echo "$err" | grep -q "hwlatdetect's form: 30, 90s, 5m, 2h, 1d, 1w"
ok $? "hwlat --duration: hwlatdetect's forms named ($err)"
expect_usage_error "hwlat --window not in us" hwlat --window soon
expect_usage_error "hwlat --hardlimit 0" hwlat --hardlimit 0
# --report FILE is checked before measuring, and a link planted there is refused
expect_usage_error "hwlat --report in a missing folder" \
	hwlat --report "$tmp/no-such-folder/r.txt" -D 1s -o "$tmp/hr1"
[ ! -e "$tmp/hr1" ]
ok $? "hwlat --report in a missing folder: nothing measured, no results folder"
ln -s "$tmp/victim" "$tmp/planted"
expect_usage_error "hwlat --report at a planted symbolic link" \
	hwlat --report "$tmp/planted" -D 1s -o "$tmp/hr2"
[ ! -e "$tmp/victim" ]
ok $? "hwlat --report: the link is not followed"
expect_usage_error "hwlat --window 5000 (5 ms: below 10 ms)" hwlat --window 5000 --width 2000
echo "$err" | grep -q -- "--window 5.00 ms: give 10ms to 1h"
ok $? "hwlat --window: a plain number is microseconds ($err)"
expect_usage_error "hwlat --report with --json" hwlat --report "$tmp/r.txt" --json
echo "$err" | grep -q -- "--json prints rtmeasure's summary as JSON; --report goes with"
ok $? "hwlat --report and --json: which summary each belongs to ($err)"
run_cmd hwlat --help
[ "$rc" -eq 0 ] && echo "$out" | grep -q -- "--hardlimit US" && echo "$out" | grep -q -- "--watch" &&
	echo "$out" | grep -q -- "--report FILE" && echo "$out" | grep -q -- "--cpu-list LIST" &&
	echo "$out" | grep -q -- "--window US"
ok $? "hwlat --help: hwlatdetect's options with their units"
run_cmd noise --help
! echo "$out" | grep -q -- "--hardlimit" && echo "$out" | grep -q -- "--window DUR"
ok $? "noise --help: its own window, not hwlatdetect's options"
expect_usage_error "--backend unknown" noise --backend fast
expect_usage_error "--backend osnoise with --policy" noise --backend osnoise --policy rr -D 1s
expect_usage_error "--backend empty" hwlat --backend ''
# hwlat's kthreads run at their own priority: the loop's options do not apply
# (or the kernel has no hwlat / we are not root: exit 2 just the same, one line)
expect_usage_error "--backend hwlat with --no-rt" noise --backend hwlat --no-rt -D 1s
expect_usage_error "--backend hwlat with -p" hwlat --backend hwlat -p 50 -D 1s
expect_usage_error "--backend hwlat with --prometheus" noise --backend hwlat --prometheus 0 -D 1s
if ! grep -qsw hwlat /sys/kernel/tracing/available_tracers; then
	run_cmd noise --backend hwlat -D 1s -o "$tmp/hw"
	[ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] &&
		echo "$err" | grep -q "^rtmeasure: noise: --backend hwlat: .*; use --backend user$" &&
		[ ! -e "$tmp/hw" ]
	ok $? "--backend hwlat where it cannot run: one line with the fix, exit 2 ($err)"
fi
if ! grep -qsw osnoise /sys/kernel/tracing/available_tracers; then
	run_cmd noise --backend osnoise -D 1s -o "$tmp/os"
	[ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(printf '%s\n' "$err" | grep -c .)" -eq 1 ] &&
		echo "$err" | grep -q "^rtmeasure: noise: --backend osnoise: .*; use --backend user$" &&
		[ ! -e "$tmp/os" ]
	ok $? "--backend osnoise where it cannot run: one line with the fix, exit 2 ($err)"
fi
expect_usage_error "--trace=maybe" noise --trace=maybe
run_cmd noise --backend osnoise --trace -D 1s
[ "$rc" -eq 2 ] && echo "$err" | grep -q -- "--backend osnoise: --trace gives the busy loop's gaps"
ok $? "--trace with --backend osnoise: refused before the tracer is looked for ($err)"
run_cmd noise --trace 0 extra
[ "$rc" -eq 2 ] && echo "$err" | grep -q "unexpected argument 'extra'"
ok $? "--trace 0: the 0 is its value ($err)"
run_cmd noise --trace maybe
[ "$rc" -eq 2 ] && echo "$err" | grep -q "unexpected argument 'maybe'"
ok $? "--trace maybe: not a value, a stray argument ($err)"
touch "$tmp/file"
# (another rtmeasure measuring these CPUs adds a warning line: not counted here)
run_cmd noise --no-rt --no-dma-latency --no-mlock -D 1s -o "$tmp/file"
[ "$rc" -eq 2 ] && [ -z "$out" ] &&
	[ "$(printf '%s\n' "$err" | grep -v 'measured by another rtmeasure' | grep -c .)" -eq 1 ] &&
	echo "$err" | grep -q "^rtmeasure: noise: -o .*/file exists and is not a folder"
ok $? "-o names a file: exit 2 before measuring ($err)"

run_cmd noise --help
[ "$rc" -eq 0 ] && echo "$out" | grep -q -- '--window DUR' && echo "$out" | grep -q -- '--threshold LAT'
ok $? "noise --help documents --window and --threshold"
echo "$out" | grep -q -- '--backend B' && echo "$out" | grep -q 'hwlat'
ok $? "noise --help documents --backend"
echo "$out" | grep -q -- '--no-report  *no report.html'
ok $? "noise --help documents --no-report"
echo "$out" | grep -q -- '--trace \[0|1\]' && echo "$out" | grep -q -- '--no-trace: off'
ok $? "noise --help documents --trace and --no-trace"
run_cmd hwlat --help
[ "$rc" -eq 0 ] && echo "$out" | grep -q 'usage: rtmeasure hwlat'
ok $? "hwlat --help"
run_cmd --help
echo "$out" | grep -q '^  noise' && echo "$out" | grep -q '^  hwlat'
ok $? "rtmeasure --help lists noise and hwlat"

done_testing
