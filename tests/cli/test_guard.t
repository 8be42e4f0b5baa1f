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
help=$out

# not root: the guard needs SCHED_FIFO 99 for itself; the fix it names is one it takes
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	err=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RTMEASURE" guard -D 1s 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q CAP_SYS_NICE
	ok $? "not root: exit 2, one line naming CAP_SYS_NICE ($err)"
	bad=
	for o in $(echo "$err" | grep -oE -- '--[a-z][a-z-]*'); do
		echo "$help" | grep -q -- "$o" || bad="$bad $o"
	done
	[ -z "$bad" ]; ok $? "and it suggests no option guard refuses (${bad:-none})"
fi

done_testing
