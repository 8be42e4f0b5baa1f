#!/bin/bash
# Integration: `rtmeasure monitor --trace` (plain, not a terminal) explains its spikes.
# A 1 us threshold makes every wake-up a spike: the spike log's lines carry a cause
# from the flight recorder. Without -o the spike windows are analysed, not saved:
# no temporary folder of spike files is made while it runs (writing them cost the
# dashboard a file and an fsync per spike, and nobody read them). With -o they are
# saved as spikes/spike-NNN.txt and .json, each named in result.json's events.
# The stream is the flight recorder (one instance, rtmeasure-PID-stream), as in cyclic;
# with --trace-events (refused before: it asked for -b, which the monitor does not take)
# the recorder is an instance of its own.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
need_tracefs
measure_lock "$@"

t=$(mktemp -d)
trap 'kill $mon 2>/dev/null; rm -rf "$t"' EXIT
mkdir "$t/tmp"

TMPDIR="$t/tmp" "$RTMEASURE" monitor --trace -a 0 --threshold 1us --refresh 500ms -D 3s \
	</dev/null >"$t/a.out" 2>"$t/a.err" &
mon=$!
sleep 2
ls -R "$t/tmp" >"$t/tmp.ls"
made=$(ls /sys/kernel/tracing/instances | grep -E "^rtmeasure-$mon([.-]|\$)" | tr '\n' ' ')
wait $mon || fail "monitor --trace exited $?: $(cat "$t/a.err")"
[ "$made" = "rtmeasure-$mon-stream " ] ||
	fail "instances of the monitor: $made (the stream alone, its flight recorder too)"
no_instances_of $mon
mon=
[ -s "$t/tmp.ls" ] && ! grep -q 'rtmeasure-monitor\|spike-' "$t/tmp.ls" ||
	fail "monitor without -o made spike files: $(cat "$t/tmp.ls")"
grep -Eq '^spike .* CPU0 .*: CPU0 woke .* late' "$t/a.out" ||
	fail "no spike with its cause: $(grep '^spike' "$t/a.out" | tail -3)"
! grep -q 'tracing off\|cannot' "$t/a.out" || fail "spikes not traced: $(grep '^spike' "$t/a.out")"
echo "ok: without -o, $(grep -c '^spike' "$t/a.out") spike lines with causes, no files"

# --trace-events: the events are the user's, the flight recorder an instance of its own
# (stopped by the probe at each spike) beside the stream; tracing from the start
"$RTMEASURE" monitor --trace-events sched,irq,timer -a 0 --threshold 1us --refresh 500ms \
	-D 3s </dev/null >"$t/e.out" 2>"$t/e.err" &
mon=$!
sleep 2
made=$(ls /sys/kernel/tracing/instances | grep -E "^rtmeasure-$mon([.-]|\$)" | sort | tr '\n' ' ')
wait $mon || fail "monitor --trace-events exited $?: $(cat "$t/e.err")"
[ "$made" = "rtmeasure-$mon rtmeasure-$mon-stream " ] ||
	fail "instances of monitor --trace-events: $made (a recorder and the stream)"
no_instances_of $mon
mon=
grep -Eq '^spike .* CPU0 .*: CPU0 woke .* late' "$t/e.out" ||
	fail "--trace-events: no spike with its cause: $(grep '^spike' "$t/e.out" | tail -3)"
echo "ok: --trace-events, a recorder of its own, $(grep -c '^spike' "$t/e.out") spikes explained"

"$RTMEASURE" monitor --trace -a 0 --threshold 1us --refresh 500ms -D 2s -o "$t/m" \
	</dev/null >"$t/m.out" 2>"$t/m.err" ||
	fail "monitor --trace -o exited $?: $(cat "$t/m.err")"
[ -s "$t/m/spikes/spike-001.txt" ] || fail "-o: no spikes/spike-001.txt"
# the first may come before the flight recorder held anything: the second holds events
[ -s "$t/m/spikes/spike-002.json" ] || fail "-o: no second spike window"
jq -e '.events | length > 0' "$t/m/spikes/spike-002.json" >/dev/null ||
	fail "-o: spike-002.json has no events"
jq -e '.analysis.verdict | length > 0' "$t/m/spikes/spike-002.json" >/dev/null ||
	fail "-o: spike-002.json has no verdict"
# tracing went on through the captures: the windows hold events after the wake-up
# (the probe going back to sleep), the drain after it awaited
n=0
for f in "$t"/m/spikes/spike-*.json; do
	jq -e '.events[-1].ts_ns > .woke_ns' "$f" >/dev/null && n=$((n + 1))
done
[ "$n" -ge 2 ] || fail "-o: $n spike windows with events after their wake-up"
jq -e '[.events[] | select(.type == "monitor_spike")] | length > 0' "$t/m/result.json" \
	>/dev/null || fail "-o: no monitor_spike in result.json"
echo "ok: with -o, $(ls "$t/m/spikes" | grep -c 'txt$') spike windows saved"
