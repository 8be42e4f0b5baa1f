#!/bin/bash
# Integration: --capture-above keeps measuring and saves up to --max-captures
# windows. The stream is the flight recorder (one instance): tracing never
# stops, each window is decoded from the pages the drains kept, with the events
# after the wake-up, and the timer IRQ split loses no wake-up to a capture.
# A FIFO 99 injector spins 5 ms on CPU 0 four times, 700 ms apart; the probe on
# CPU 0 captures wake-ups later than 3 ms, at most 2, with a 200 ms hold-off.
# Then -b and --capture-above together: the wake-up over both is saved once.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
need_tracefs
measure_lock "$@"

out=$(mktemp -d)
trap 'rm -rf "$out"; kill $inj 2>/dev/null' EXIT
inject="$RTM_BUILDDIR/tests/helpers/inject"

"$RTMEASURE" cyclic -a 0 -D 4s --capture-above 3ms --max-captures 2 --capture-holdoff 200ms \
	-q --json -o "$out/c" >"$out/c.json" 2>"$out/c.err" &
cyc=$!
wait_probes $cyc
"$inject" --cpu 0 --spin 5ms --every 700ms --count 4 --delay 200ms >"$out/inj.txt" &
inj=$!
made=$(ls /sys/kernel/tracing/instances | grep -E "^rtmeasure-$cyc([.-]|\$)" | tr '\n' ' ')
[ "$made" = "rtmeasure-$cyc-stream " ] || fail "instances of the run: $made (the stream alone)"
wait $cyc || fail "cyclic --capture-above exited $? ($(cat "$out/c.err"))"
wait $inj
cat "$out/c.err"
no_instances_of $cyc

r="$out/c/result.json"
n=$(jq '[.events[] | select(.type == "spike_capture")] | length' "$r")
[ "$n" = 2 ] || fail "$n captures, expected --max-captures 2"
[ -s "$out/c/spikes/spike-001.txt" ] && [ -s "$out/c/spikes/spike-002.json" ] ||
	fail "capture files missing: $(ls "$out/c/spikes")"
[ ! -e "$out/c/spikes/spike-003.txt" ] || fail "a third capture despite --max-captures 2"
# measuring went on: the run was not stopped (periods = samples + overruns)
periods=$(jq '.cpus[0] | (.hist.count + .overruns)' "$r")
[ "$periods" -ge 3800 ] || fail "only $periods periods in 4 s: the captures stopped the run"
jq -e '.events[] | select(.type == "break")' "$r" >/dev/null && fail "a break without -b"
# the second capture came after tracing was switched on again: it has events
# of its own window, and at least one of the two names the injector
for k in 0 1; do
	jq -e "[.events[] | select(.type == \"spike_capture\")][$k] | .events > 0 and
		.trigger == \"capture-above\"" "$r" >/dev/null ||
		fail "capture $((k + 1)) has no events: $(jq -c '.events' "$r")"
done
# tracing went on through each capture: events after the wake-up (the probe
# arming its next sleep), and every wake-up in the timer IRQ split
for k in 0 1; do
	jq -e "[.events[] | select(.type == \"spike_capture\")][$k] |
		.last_event_ns > .planned_mono_ns + .latency_ns" "$r" >/dev/null ||
		fail "capture $((k + 1)) ends at the wake-up: $(jq -c '.events' "$r")"
done
# (a capture that stopped tracing for its tens of ms would take tens of them)
jq -e '.sections.timer_irq.cpus[0].count >= .cpus[0].hist.count - 5' "$r" >/dev/null ||
	fail "timer IRQ split: $(jq '.sections.timer_irq.cpus[0].count' "$r") of" \
		"$(jq '.cpus[0].hist.count' "$r") wake-ups"
grep -q 'rtm-inject' "$out/c/spikes/spike-001.txt" "$out/c/spikes/spike-002.txt" ||
	echo "note: neither capture was an injection (the VM's own spikes came first)"
jq -e '.options.capture_above_ns == 3000000 and .options.max_captures == 2' "$r" >/dev/null ||
	fail "capture options not recorded"

# -b and --capture-above on the same wake-up: one window, both triggers
"$RTMEASURE" cyclic -a 0 -D 5s -b 3ms --capture-above 3ms -q -o "$out/b" >/dev/null \
	2>"$out/b.err" &
cyc=$!
wait_probes $cyc
"$inject" --cpu 0 --spin 5ms --every 500ms --count 2 --delay 200ms >/dev/null &
inj=$!
wait $cyc || fail "cyclic -b --capture-above exited $? ($(cat "$out/b.err"))"
wait $inj
n=$(jq '[.events[] | select(.type == "spike_capture")] | length' "$out/b/result.json")
[ "$n" = 1 ] || fail "$n windows for one wake-up over -b and --capture-above"
jq -e '.events[] | select(.type == "spike_capture") |
	.trigger == "capture-above,breaktrace"' "$out/b/result.json" >/dev/null ||
	fail "trigger: $(jq -c '.events' "$out/b/result.json")"
no_instances_of $cyc
echo "PASS: 2 captures while measuring on, -b with --capture-above saved once"
