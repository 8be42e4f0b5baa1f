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
expect_usage_error "unknown preemption model" analyze --preempt-model bogus "$S/inject-5ms-vm-6.18.json"

# why a lower-priority task kept the CPU: the model given, or the run's own
run_cmd analyze --preempt-model none "$S/nonpreempt-stock-6.1.json"
echo "$out" | grep -q 'rtm-epoll (pid 103, SCHED_OTHER nice 0) ran 10.7 ms in kernel code without a preemption point (preemption model none'
ok $? "--preempt-model none: the epoll loop had no preemption point"
run_cmd analyze --preempt-model full "$S/nonpreempt-stock-6.1.json"
echo "$out" | grep -q 'ran 10.7 ms in a non-preemptible section (preemption model full'
ok $? "--preempt-model full: a non-preemptible section"
mkdir -p "$d/run/spikes"
jq 'del(.preempt_model)' "$S/nonpreempt-stock-6.1.json" >"$d/run/spikes/spike-001.json"
echo '{"sysinfo": {"kernel": {"preempt": {"model": "voluntary"}}}}' >"$d/run/result.json"
run_cmd analyze "$d/run"
echo "$out" | grep -q 'without a preemption point (preemption model voluntary'
ok $? "a spike file without the model takes its results folder's"
rm -rf "$d"
done_testing
