#!/bin/bash
# Integration: rtmeasure noise --backend. On a kernel without the hwlat tracer
# (CONFIG_HWLAT_TRACER, like this project's development VMs): --backend hwlat
# is one line naming the option and the fix, exit 2, nothing measured; auto
# runs the busy loop and the summary and result.json say why. On a kernel with
# it: --backend hwlat fills sections.noise from the tracer and leaves every
# setting it changed (current_tracer, tracing_thresh, hwlat_detector/*) and no
# instance behind. Never asserts timing.
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
		hwlat_detector/window hwlat_detector/mode; do
		[ -e "$T/$f" ] && echo "$f=$(cat "$T/$f")"
	done
}

if ! grep -qw hwlat "$T/available_tracers"; then
	"$RTMEASURE" noise --backend hwlat -D 1s -o "$out/hw" >"$out/hw.out" 2>"$out/hw.err"
	rc=$?
	[ $rc -eq 2 ] || fail "--backend hwlat without the tracer: exit $rc, expected 2"
	[ "$(grep -c . "$out/hw.err")" -eq 1 ] && [ ! -s "$out/hw.out" ] ||
		fail "--backend hwlat: not one line: $(cat "$out/hw.err")"
	grep -q 'CONFIG_HWLAT_TRACER.*--backend user' "$out/hw.err" ||
		fail "--backend hwlat: the kernel option and the fix are not named: $(cat "$out/hw.err")"
	[ ! -e "$out/hw" ] || fail "--backend hwlat: a results folder was made"

	"$RTMEASURE" hwlat -a 0 -D 1s -o "$out/auto" >"$out/auto.out" 2>"$out/auto.err" ||
		fail "hwlat (auto) without the tracer: exit $? ($(cat "$out/auto.err"))"
	grep -q '^noise: backend user, chosen by --backend auto: .*CONFIG_HWLAT_TRACER' \
		"$out/auto.out" || fail "the summary does not say why the busy loop ran"
	jq -e '.sections.noise.backend == "user" and
		(.sections.noise.backend_reason | test("CONFIG_HWLAT_TRACER")) and
		.sections.noise.cpus[0].sampled_ns > 0' "$out/auto/result.json" >/dev/null ||
		fail "result.json: no user backend with its reason"
	echo "ok: no hwlat tracer: --backend hwlat refused, auto ran the busy loop"
	exit 0
fi

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
exit 0
