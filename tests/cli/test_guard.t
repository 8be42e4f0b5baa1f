#!/bin/bash
# Command-level tests of rtmeasure guard's options: every bad value is one
# line and exit 2, before any thread starts or anything is watched.
. "$RTM_SRCDIR/tests/lib.sh"

expect_usage_error "--action with an unknown action" guard --action kill
expect_usage_error "--action signal= with an unknown signal" guard --action signal=FOO
expect_usage_error "--action signal=STOP (use stop)" guard --action signal=STOP
expect_usage_error "--starve below two polls" guard --starve 100ms --poll 100ms
expect_usage_error "--poll too short" guard --poll 1ms
expect_usage_error "--protect empty" guard --protect ,
expect_usage_error "--protect with too long a name" guard --protect a-name-longer-than-15
expect_usage_error "a CPU that does not exist" guard -a 4000
expect_usage_error "a bad CPU list" guard -a 3-1
expect_usage_error "a stray argument" guard extra
expect_usage_error "an unknown option" guard --frobnicate

run_cmd guard --help
[ "$rc" -eq 0 ] && echo "$out" | grep -q -- '--action ACT' && echo "$out" | grep -q -- '--protect LIST'
ok $? "guard --help documents --action and --protect"

done_testing
