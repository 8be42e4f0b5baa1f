#!/bin/bash
# Integration: rtmeasure noise --backend. On a kernel without the hwlat or
# osnoise tracer (CONFIG_HWLAT_TRACER, CONFIG_OSNOISE_TRACER, like this
# project's development VMs): --backend hwlat|osnoise is one line naming the
# option and the fix, exit 2, nothing measured; auto runs the busy loop and the
# summary and result.json say why. On a kernel with them: each fills
# sections.noise from its tracer and leaves every setting it changed and no
# instance behind; a run killed with SIGKILL leaves them changed, and the next
# measuring command puts them back and says so. Never asserts timing.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
need_tracefs
measure_lock "$@"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
T=/sys/kernel/tracing

state() {
	local f
	for f in current_tracer tracing_thresh tracing_on hwlat_detector/width \
		hwlat_detector/window hwlat_detector/mode osnoise/cpus osnoise/period_us \
		osnoise/runtime_us osnoise/stop_tracing_us osnoise/stop_tracing_total_us; do
		[ -e "$T/$f" ] && echo "$f=$(cat "$T/$f")"
	done
}

# refused: one line naming the kernel option and the fix, nothing measured
refused() {
	"$RTMEASURE" noise --backend "$1" -D 1s -o "$out/$1" >"$out/$1.out" 2>"$out/$1.err"
	rc=$?
	[ $rc -eq 2 ] || fail "--backend $1 without the tracer: exit $rc, expected 2"
	[ "$(grep -c . "$out/$1.err")" -eq 1 ] && [ ! -s "$out/$1.out" ] ||
		fail "--backend $1: not one line: $(cat "$out/$1.err")"
	grep -q "$2.*--backend user" "$out/$1.err" ||
		fail "--backend $1: the kernel option and the fix are not named: $(cat "$out/$1.err")"
	[ ! -e "$out/$1" ] || fail "--backend $1: a results folder was made"
}

# auto without the tracer: the busy loop, and why
auto_user() {
	local rc
	"$RTMEASURE" "$1" -a 0 -D 1s -o "$out/auto-$1" >"$out/auto.out" 2>"$out/auto.err"
	rc=$?
	# hwlat keeps hwlatdetect's --hardlimit (the threshold, 10 us): above it, exit 1
	[ $rc -eq 0 ] || { [ "$1" = hwlat ] && [ $rc -eq 1 ]; } ||
		fail "$1 (auto) without the tracer: exit $rc ($(cat "$out/auto.err"))"
	grep -q "^noise: backend user, chosen by --backend auto: .*$2" "$out/auto.out" ||
		fail "$1: the summary does not say why the busy loop ran"
	jq -e --arg c "$2" '.sections.noise.backend == "user" and
		(.sections.noise.backend_reason | test($c)) and
		.sections.noise.cpus[0].sampled_ns > 0' "$out/auto-$1/result.json" >/dev/null ||
		fail "$1: result.json: no user backend with its reason"
}

tested=0
if ! grep -qw hwlat "$T/available_tracers"; then
	refused hwlat CONFIG_HWLAT_TRACER
	auto_user hwlat CONFIG_HWLAT_TRACER
	echo "ok: no hwlat tracer: --backend hwlat refused, auto ran the busy loop"
	tested=$((tested + 1))
fi
if ! grep -qw osnoise "$T/available_tracers"; then
	refused osnoise CONFIG_OSNOISE_TRACER
	auto_user noise CONFIG_OSNOISE_TRACER
	echo "ok: no osnoise tracer: --backend osnoise refused, auto ran the busy loop"
	tested=$((tested + 1))
fi
[ $tested -eq 2 ] && exit 0

[ "$(cat $T/current_tracer)" = nop ] || skip "the top level runs $(cat $T/current_tracer)"
before=$(state)
"$RTMEASURE" noise --backend hwlat -D 3s --window 200ms --width 100ms -o "$out/hw" \
	>"$out/hw.out" 2>"$out/hw.err" & pid=$!
wait $pid || fail "--backend hwlat: exit $? ($(cat "$out/hw.err"))"
[ "$(state)" = "$before" ] || fail "settings not restored: before: $before; after: $(state)"
no_instances_of $pid
jq -e '.sections.noise.backend == "hwlat" and (.sections.noise.cpus | length) >= 1 and
	.sections.noise.cpus[0].sampled_ns == null and .sections.noise.cpus[0].samples >= 0' \
	"$out/hw/result.json" >/dev/null || fail "result.json: no hwlat section"
echo "ok: hwlat backend: section filled, settings restored"

# SIGKILL: nothing runs in the killed process; its journal (a private lock
# directory, so no other run's start restores it first) is the next run's
export RTMEASURE_LOCK_DIR="$out/locks"
"$RTMEASURE" noise --backend hwlat -D 60s --window 200ms --width 100ms -o "$out/hwk" \
	>"$out/hwk.out" 2>"$out/hwk.err" & pid=$!
for _ in $(seq 100); do
	ls "$RTMEASURE_LOCK_DIR"/ktracer-$pid-*.journal >/dev/null 2>&1 &&
		[ "$(cat $T/hwlat_detector/width)" = 100000 ] && break
	sleep 0.1
done
kill -KILL $pid
wait $pid 2>/dev/null
[ "$(state)" != "$before" ] || fail "the killed run changed no setting: nothing to test"
"$RTMEASURE" cyclic --no-rt -l 20 -i 200us -a 0 -q -o "$out/next" 2>"$out/next.err" ||
	fail "the next run: exit $? ($(cat "$out/next.err"))"
grep -q "^rtmeasure: restored the hwlat settings a killed rtmeasure changed (pid $pid: " \
	"$out/next.err" || fail "the next run does not say it restored them: $(cat "$out/next.err")"
[ "$(state)" = "$before" ] || fail "not restored after SIGKILL: before: $before; after: $(state)"
ls "$RTMEASURE_LOCK_DIR"/*.journal >/dev/null 2>&1 && fail "a journal is left"
no_instances_of $pid
echo "ok: hwlat killed: the next run restored its settings and said so"
exit 0
