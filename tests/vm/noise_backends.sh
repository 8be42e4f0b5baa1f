#!/bin/bash
# VM test (make check-vm; root): rtmeasure noise's backends on Debian's PREEMPT_RT
# kernel (6.1, which has the hwlat and osnoise tracers) under qemu, through
# scripts/kernel-lab/boot and scripts/kernel-lab/guest/noise-backends.sh.
# Asserts from what comes back: --backend hwlat, osnoise and user each wrote
# sections.noise for both CPUs with their backend named; the tracers' settings
# (current_tracer, tracing_thresh, hwlat_detector/*, osnoise/*,
# tracing_cpumask, tracing_on) and the instances are as found after each run,
# after SIGTERM (which saves the result as interrupted) and after the refusal
# when another instance holds the tracer (one line, exit 2); a run the guest's
# watchdog killed fails with what was running then; a guest that hangs, with the
# step it hung at and the guest's blocked tasks (rtlab-step/rtlab-hang in its
# console). Never asserts timing. Skips (77) with the
# reason when not root or when the Debian packages or qemu cannot be had.
# VM_TIMEOUT (seconds, default 240) bounds the boot: ~1 minute with the cache filled.
. "$RTM_SRCDIR/tests/lib.sh"

lab=$RTM_SRCDIR/scripts/kernel-lab
[ "$(id -u)" -eq 0 ] || skip "not root (the lab builds initramfs device nodes and installs qemu)"
command -v jq >/dev/null || skip "jq not installed (apt-get install jq)"
if ! msg=$("$lab/fetch" rt busybox 2>&1); then
	skip "the Debian packages cannot be fetched: $(printf '%s\n' "$msg" | tail -n 1)"
fi
if ! command -v qemu-system-x86_64 >/dev/null &&
   ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
	qemu-system-x86 >/dev/null 2>&1; then
	skip "qemu-system-x86_64 missing and apt-get install qemu-system-x86 failed"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$lab/boot" --kernel rt --with-build "$RTM_BUILDDIR" --env NOISE_DURATION=3s --program chrt \
	--run "$lab/guest/noise-backends.sh" --timeout "${VM_TIMEOUT:-240}" --out "$tmp/lab" \
	>"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
cat "$tmp/stderr" "$tmp/stdout"
# a failed guest run: its console's last lines (boot stage, the script's last words) first
[ "$rc" -eq 0 ] || { tail -n 40 "$tmp/lab/qemu.log" 2>/dev/null | sed 's/^/guest: /'
	fail "the guest run failed (boot exited $rc: $(tail -n 1 "$tmp/stderr"); the guest's last line: $(tr -d '\r' <"$tmp/lab/qemu.log" 2>/dev/null | grep -v -e '^qemu-system' -e '^ *$' | tail -n 1); $(tr -d '\r' <"$tmp/lab/qemu.log" 2>/dev/null | grep -o 'rtlab-step: .*' | tail -n 1); $(tr -d '\r' <"$tmp/lab/qemu.log" 2>/dev/null | grep -o 'rtlab-hang: .*' | head -n 4 | tr '\n' ';'))"; }
o=$tmp/lab/out
# a run the guest's watchdog killed: what was running then
for h in "$o"/hang-*.txt; do
	[ -f "$h" ] || continue
	sed 's/^/guest: /' "$h"
	fail "$(head -n 1 "$h"); $(grep -m 3 '^runnable' "$h" | tr '\n' ';')"
done

[ "$(cat "$o/rc-hw")" = 0 ] || fail "--backend hwlat exited $(cat "$o/rc-hw")"
[ "$(cat "$o/rc-os")" = 0 ] || fail "--backend osnoise exited $(cat "$o/rc-os")"
[ "$(cat "$o/rc-user")" = 0 ] || fail "--backend user exited $(cat "$o/rc-user")"
jq -e '.sections.noise | .backend == "hwlat" and (.cpus | length) == 2 and
	all(.cpus[]; .sampled_ns == null and (.samples | type) == "number" and
	    .gaps == .samples)' "$o/hw/result.json" >/dev/null ||
	fail "hwlat: no section for both CPUs: $(jq -c '.sections.noise | del(.cpus[].hist, .cpus[].gap_list)' "$o/hw/result.json")"
jq -e '.sections.noise | .backend == "osnoise" and (.cpus | length) == 2 and
	all(.cpus[]; .sampled_ns > 0 and .windows > 0 and (.interference | type) == "object")' \
	"$o/os/result.json" >/dev/null ||
	fail "osnoise: no section for both CPUs: $(jq -c '.sections.noise | del(.cpus[].hist, .cpus[].gap_list)' "$o/os/result.json")"
jq -e '.sections.noise | .backend == "user" and (.cpus | length) == 2 and
	all(.cpus[]; .sampled_ns > 0)' "$o/user/result.json" >/dev/null ||
	fail "user: no section for both CPUs"
for s in hw os term osterm busy; do
	cmp -s "$o/state-before.txt" "$o/state-after-$s.txt" ||
		fail "settings not as found after $s: $(diff "$o/state-before.txt" "$o/state-after-$s.txt" | tr '\n' ' ')"
done
[ "$(cat "$o/rc-term")" = 143 ] || fail "SIGTERM: exit $(cat "$o/rc-term"), want 143"
jq -e '.interrupted == true and .sections.noise.backend == "hwlat"' "$o/term/result.json" \
	>/dev/null || fail "SIGTERM: the hwlat result was not saved as interrupted"
[ "$(cat "$o/rc-osterm")" = 143 ] || fail "osnoise SIGTERM: exit $(cat "$o/rc-osterm"), want 143"
jq -e '.interrupted == true and .sections.noise.backend == "osnoise"' \
	"$o/osterm/result.json" >/dev/null || fail "SIGTERM: the osnoise result was not saved"
[ "$(cat "$o/rc-busy")" = 2 ] && [ "$(grep -c . "$o/busy.err")" -eq 1 ] &&
	grep -q 'hwlat tracer is in use' "$o/busy.err" ||
	fail "hwlat held by another instance: rc $(cat "$o/rc-busy"): $(cat "$o/busy.err")"
[ "$(cat "$o/rc-osbusy")" = 2 ] && [ "$(grep -c . "$o/osbusy.err")" -eq 1 ] &&
	grep -q 'osnoise tracer is in use' "$o/osbusy.err" ||
	fail "osnoise held by another instance: rc $(cat "$o/rc-osbusy"): $(cat "$o/osbusy.err")"
echo "PASS: hwlat, osnoise and user backends on the RT kernel; settings as found after runs, SIGTERM and refusals"
