#!/bin/bash
# Command-level tests of run --io (the storage probe beside the timer probe): every bad
# --io-* value and every refused combination is one line and exit 2, before anything is
# measured or any file created; the --io-* options need --io; --help-all lists them.
. "$RTM_SRCDIR/tests/lib.sh"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

expect_usage_error "--io-op with an unknown operation" run --io --io-op read,wrte -o "$d/a"
echo "$err" | grep -q "'wrte'" && echo "$err" | grep -q -- "--io-op:"
ok $? "the bad word and the option as run spells it are named ($err)"
expect_usage_error "--io-size not a size" run --io --io-size big -o "$d/a"
echo "$err" | grep -q -- "--io-size"
ok $? "the option is named as run spells it ($err)"
expect_usage_error "--io-size 0" run --io --io-size 0 -o "$d/a"
expect_usage_error "--io-file-size not a size" run --io --io-file-size lots -o "$d/a"
expect_usage_error "--io-interval not a latency" run --io --io-interval soon -o "$d/a"
expect_usage_error "--io-interval 0" run --io --io-interval 0 -o "$d/a"
expect_usage_error "--io-deadline not a latency" run --io --io-deadline soon -o "$d/a"
expect_usage_error "--io-ioprio level 9" run --io --io-ioprio rt:9 -o "$d/a"
expect_usage_error "--io-ioprio unknown class" run --io --io-ioprio fifo -o "$d/a"
echo "$err" | grep -q -- "--io-ioprio:"
ok $? "the option is named as run spells it ($err)"
expect_usage_error "--io-cpu not a number" run --io --io-cpu one -o "$d/a"
expect_usage_error "--io-cpu that does not exist" run --io --io-cpu 4000 -o "$d/a"
echo "$err" | grep -q "CPUs 0-"
ok $? "the CPUs there are are named ($err)"
expect_usage_error "--io-force-device without --io-target" run --io --io-force-device \
	-o "$d/a"
expect_usage_error "--io-size larger than --io-file-size" run --io --io-size 1m \
	--io-file-size 512k -o "$d/a"
expect_usage_error "--io-target without --io" run --io-target "$d" -o "$d/a"
echo "$err" | grep -q -- "--io"
ok $? "--io is named ($err)"
expect_usage_error "--io-op without --io" run --io-op read -o "$d/a"
[ ! -e "$d/a" ]
ok $? "no results folder made by a refused run"

run_cmd run --help-all
[ $rc -eq 0 ] && echo "$out" | grep -q -- "--io-target" && echo "$out" | grep -q -- "--io-cpu"
ok $? "run --help-all lists --io-target and --io-cpu"
run_cmd run --help
echo "$out" | grep -q -- "--io "
ok $? "run --help lists --io"

done_testing
