#!/bin/bash
# Command-level tests of rtmeasure wakeup's options: every bad value is one
# line and exit 2, before any BPF program loads.
. "$RTM_SRCDIR/tests/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_usage_error "--pid and --comm together" wakeup --pid 1 --comm cyclictest
expect_usage_error "--policy and --pid together" wakeup --policy fifo --pid 1
expect_usage_error "--comm longer than a task's name" wakeup --comm a-name-longer-than-15
expect_usage_error "--comm empty" wakeup --comm ''
expect_usage_error "--pid not a number" wakeup --pid abc
expect_usage_error "--pid 0" wakeup --pid 0
expect_usage_error "--policy unknown" wakeup --policy fifo,realtime
expect_usage_error "--policy empty" wakeup --policy ,
expect_usage_error "--interval too short" wakeup --interval 10ms
expect_usage_error "--above not a latency" wakeup --above soon
expect_usage_error "--tasks 0" wakeup --tasks 0
expect_usage_error "-D not a duration" wakeup -D forever
expect_usage_error "a bad CPU list" wakeup -a 3-1
expect_usage_error "a stray argument" wakeup extra
expect_usage_error "an unknown option" wakeup --frobnicate
echo x >"$tmp/file"
expect_usage_error "-o a file" wakeup -o "$tmp/file"
mkdir "$tmp/old" && echo '{}' >"$tmp/old/result.json"
expect_usage_error "-o a folder with an earlier result" wakeup -o "$tmp/old"
run_cmd wakeup -o "$tmp/old"
echo "$err" | grep -q -- '--force'; ok $? "which names --force"

run_cmd wakeup --help
[ "$rc" -eq 0 ] && echo "$out" | grep -q -- '--comm NAME' && echo "$out" | grep -q -- '--above LAT'
ok $? "wakeup --help documents --comm and --above"
run_cmd --help
echo "$out" | grep -q '^  wakeup '; ok $? "rtmeasure --help lists wakeup"

# not root: loading the programs needs root; one line, and no folder made
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod 1777 "$tmp"
	err=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$RTMEASURE" wakeup -D 1s -o "$tmp/new" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] &&
		echo "$err" | grep -qE 'needs root|built without BPF'
	ok $? "not root: exit 2, one line naming root or the missing build ($err)"
	[ ! -e "$tmp/new" ]; ok $? "and no results folder is left"
fi

done_testing
