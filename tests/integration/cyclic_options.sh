#!/bin/bash
# Integration: the options that change how the probe runs or ends.
#  - --mode timerfd and --mode signal measure as many wake-ups as nanosleep
#  - --fail-above: exit 1 with a message when exceeded, 0 when not
#  - -b/--breaktrace: with injected 1.9 ms stalls on CPU 0 the run stops early,
#    exit 0, at the first wake-up above the bound on any CPU (checked against
#    the --log-above log; normally the first injection, unless the VM's own
#    spike came first)
#  - run --load cpu: the stress-ng command line is recorded, nothing is left
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
measure_lock "$@"

out=$(mktemp -d)
trap 'rm -rf "$out"; kill $inj 2>/dev/null' EXIT
inject="$RTM_BUILDDIR/tests/helpers/inject"

for mode in timerfd signal; do
	j=$("$RTMEASURE" cyclic -a 0 -D 2s -i 1000us --mode $mode -q --json -o "$out/$mode") ||
		fail "--mode $mode exited $?"
	n=$(echo "$j" | jq '.all.samples + .all.overruns')
	# a stall at the very end may count overruns past the end: no tight upper bound
	[ "$n" -ge 1960 ] && [ "$n" -le 2100 ] || fail "--mode $mode: $n wake-ups in 2 s at 1 ms"
	[ "$(jq -r .options.mode "$out/$mode/result.json")" = $mode ] || fail "mode not recorded"
	echo "mode $mode: $n wake-ups, min $(echo "$j" | jq .all.min_ns) ns"
done

"$RTMEASURE" cyclic -a 0 -D 1s -q --fail-above 1ns -o "$out/f1" >/dev/null 2>"$out/f1.err"
rc=$?
[ $rc -eq 1 ] || fail "--fail-above 1ns: exit $rc, want 1"
grep -q -- '--fail-above 1ns exceeded' "$out/f1.err" || fail "no exceeded message: $(cat "$out/f1.err")"
"$RTMEASURE" cyclic -a 0 -D 1s -q --fail-above 10s --fail-above p90=9s -o "$out/f2" >/dev/null ||
	fail "--fail-above 10s: exit $?, want 0"

"$RTMEASURE" cyclic -a 0,1 -D 10s -i 1000us -b 1ms --log-above 1ms -q -o "$out/b" \
	>/dev/null 2>"$out/b.err" &
cyc=$!
wait_probes $cyc
"$inject" --cpu 0 --spin 1900us --every 100ms --count 5 --delay 500ms >"$out/binj.txt" &
inj=$!
wait $cyc
rc=$?
wait $inj
[ $rc -eq 0 ] || fail "-b: exit $rc"
cat "$out/b.err"
ev=$(jq -c '.events[] | select(.type == "break")' "$out/b/result.json")
[ -n "$ev" ] || fail "no break event"
[ "$(echo "$ev" | jq '.latency_ns > 1000000')" = true ] || fail "break latency not above 1 ms"
dur=$(jq .duration_ns "$out/b/result.json")
[ "$dur" -lt 5000000000 ] || fail "-b did not stop the run ($dur ns)"
grep -q "break: CPU $(echo "$ev" | jq .cpu) " "$out/b.err" || fail "break not reported on stderr"
# the break is the first wake-up above the bound on any CPU (by wake time)
first=$(jq -c '[.events[] | select(.type == "spike")] | sort_by(.planned_mono_ns + .latency_ns) | .[0]' \
	"$out/b/result.json")
[ "$(echo "$first" | jq .cpu)" = "$(echo "$ev" | jq .cpu)" ] &&
[ "$(echo "$first" | jq .planned_mono_ns)" = "$(echo "$ev" | jq .planned_mono_ns)" ] ||
	fail "break $ev is not the first late wake-up $first"
# normally that is the first injection on CPU 0; the VM's own spikes may come first
if [ "$(echo "$ev" | jq .cpu)" = 0 ]; then
	woke=$(echo "$ev" | jq '.planned_mono_ns + .latency_ns')
	awk -v w="$woke" '$1 == "inject" && w >= $4 && w <= $4 + 300000 { f = 1 } END { exit !f }' \
		"$out/binj.txt" || echo "note: break on CPU 0 not at an injection (VM noise)"
else
	echo "note: the VM's own spike on CPU $(echo "$ev" | jq .cpu) came before the injection"
fi

if command -v stress-ng >/dev/null; then
	"$RTMEASURE" run -D 2s --load cpu -q -o "$out/l" >/dev/null || fail "run --load cpu: exit $?"
	jq -e '.sections.load.commands[0] | test("^stress-ng ")' "$out/l/result.json" >/dev/null ||
		fail "load command line not recorded"
	sleep 0.5
	pgrep -x stress-ng >/dev/null && fail "stress-ng left running"
	echo "load: $(jq -r '.sections.load.commands[0]' "$out/l/result.json")"
fi
echo "PASS: timer modes, --fail-above, -b and --load"
