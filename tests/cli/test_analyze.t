#!/bin/bash
# Command-level tests of rtmeasure analyze on spike captures recorded on this VM.
. "$RTM_SRCDIR/tests/lib.sh"

S="$RTM_TESTDATA/spikes"
run_cmd analyze "$S/inject-5ms-vm-6.18.json"
ok $(( rc != 0 )) "analyze FILE exits 0"
echo "$out" | grep -q 'rtm-inject (pid [0-9]*, RT priority 99)'; ok $? "verdict names the injector"
run_cmd analyze --json "$S/inject-5ms-vm-6.18.json" "$S/vm-stall-6.18.json"
echo "$out" | jq -e 'length == 2 and .[0].tasks[0].comm == "rtm-inject" and
	.[1].unexplained_ns > 0.9 * .[1].timer_delay_ns' >/dev/null
ok $? "--json: two analyses with the right facts"
d=$(mktemp -d)
mkdir "$d/spikes"
cp "$S/inject-5ms-vm-6.18.json" "$d/spikes/spike-001.json"
cp "$S/vm-stall-6.18.json" "$d/spikes/spike-002.json"
run_cmd analyze "$d"
[ "$(echo "$out" | grep -c 'woke .* late')" -eq 2 ] && echo "$out" | head -1 | grep -q spike-001
ok $? "analyze DIR: every spike, in order"
expect_usage_error "no argument" analyze
expect_usage_error "missing file" analyze "$d/nope.json"
expect_usage_error "folder without spikes" analyze "$RTM_TESTDATA/results/golden-v1"
echo '{"cpu": 1}' >"$d/bad.json"
expect_usage_error "not a spike capture" analyze "$d/bad.json"
echo '{"cpu": ' >"$d/cut.json"
expect_usage_error "truncated JSON" analyze "$d/cut.json"
expect_usage_error "unknown option" analyze --frobnicate
rm -rf "$d"
done_testing
