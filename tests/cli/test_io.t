#!/bin/bash
# Command-level tests of rtmeasure io: every bad option and every refused target is one
# line and exit 2, before any thread starts or any file is created; --help lists the options.
. "$RTM_SRCDIR/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_usage_error "--op with an unknown operation" io --op read,wrte -o "$tmp/a"
echo "$err" | grep -q "'wrte'"
ok $? "the bad word is named ($err)"
expect_usage_error "--op ending with a comma" io --op read, -o "$tmp/a"
expect_usage_error "--size not a size" io --size big -o "$tmp/a"
expect_usage_error "--size 0" io --size 0 -o "$tmp/a"
expect_usage_error "--ioprio level 9" io --ioprio rt:9 -o "$tmp/a"
expect_usage_error "--ioprio unknown class" io --ioprio fifo -o "$tmp/a"
expect_usage_error "--deadline not a latency" io --deadline soon -o "$tmp/a"
expect_usage_error "-i 0" io -i 0 -o "$tmp/a"
expect_usage_error "-p out of range" io -p 100 -o "$tmp/a"
expect_usage_error "--force-device without --target" io --force-device -o "$tmp/a"
expect_usage_error "--target that does not exist" io --no-rt --target "$tmp/none" -o "$tmp/a"
echo "$err" | grep -q "$tmp/none"
ok $? "the missing target is named ($err)"
: >"$tmp/existing"
expect_usage_error "writes to an existing file without --allow-writes" \
	io --no-rt --target "$tmp/existing" --op write -o "$tmp/a"
echo "$err" | grep -q -- "--allow-writes"
ok $? "the way to allow it is named ($err)"
expect_usage_error "a CPU that does not exist" io -a 4000 -o "$tmp/a"
expect_usage_error "a stray argument" io extra
expect_usage_error "--causes without a deadline" io --causes -o "$tmp/a"
echo "$err" | grep -q -- "--deadline"
ok $? "the deadline is named ($err)"
[ ! -e "$tmp/a/result.json" ]
ok $? "no result written by a refused run"

run_cmd io --help
[ $rc -eq 0 ] && echo "$out" | grep -q -- "--deadline" && echo "$out" | grep -q -- "--force-device"
ok $? "--help lists --deadline and --force-device"
run_cmd --help
echo "$out" | grep -q "^  io "
ok $? "rtmeasure --help lists io"

done_testing
