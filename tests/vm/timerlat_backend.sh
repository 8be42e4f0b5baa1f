#!/bin/bash
# VM test (make check-vm; root): rtmeasure cyclic --backend timerlat on Debian's
# PREEMPT_RT kernel (6.1, which has the timerlat tracer) under qemu, through
# scripts/kernel-lab/boot and scripts/kernel-lab/guest/timerlat-backend.sh.
# Asserts from what comes back: per-CPU thread (the wake-up histograms) and IRQ
# (sections.timer_irq) latency for both CPUs with the backend named; -p 90 given
# to the timerlat/N kthreads; timerlat's settings (osnoise/*, current_tracer,
# tracing_on, tracing_cpumask) and the instances as found after the run, after
# SIGTERM (which saves the result as interrupted) and after the refusals when
# another instance holds timerlat or osnoise (one line, exit 2); no timerlat
# thread left; --backend auto beside that other user measures with the
# userspace probe and says why. On the same boot rtmeasure's own probe (and rtla timerlat hist,
# when rtla is installed) ran: their medians are printed beside timerlat's
# thread latency, never asserted (emulation noise). Skips (77) with the reason
# when not root or when the Debian packages or qemu cannot be had.
# VM_TIMEOUT (seconds, default 240) bounds the boot: ~45 s with the cache filled.
. "$RTM_SRCDIR/tests/lib.sh"
# qemu keeps both CPUs busy, and the guest's figures suffer from others' load too
measure_lock "$@"

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
rtla=()
if command -v rtla >/dev/null; then	# its libraries beside it (record-rtla.sh's way)
	rtla=(--file "$(command -v rtla)")
	for l in $(ldd "$(command -v rtla)" | awk '$3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }'); do
		rtla+=(--file "$l")
	done
fi
"$lab/boot" --kernel rt --with-build "$RTM_BUILDDIR" --env TL_DURATION=3s "${rtla[@]}" \
	--run "$lab/guest/timerlat-backend.sh" --timeout "${VM_TIMEOUT:-240}" --out "$tmp/lab" \
	>"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
cat "$tmp/stderr" "$tmp/stdout"
# a failed guest run: its console's last lines (boot stage, the script's last words) first
[ "$rc" -eq 0 ] || { tail -n 40 "$tmp/lab/qemu.log" 2>/dev/null | sed 's/^/guest: /'
	fail "the guest run failed (boot exited $rc: $(tail -n 1 "$tmp/stderr"); the guest's last line: $(tr -d '\r' <"$tmp/lab/qemu.log" 2>/dev/null | grep -v -e '^qemu-system' -e '^ *$' | tail -n 1))"; }
o=$tmp/lab/out

[ "$(cat "$o/rc-tl")" = 0 ] || fail "--backend timerlat exited $(cat "$o/rc-tl"): $(cat "$o/tl.out")"
[ "$(cat "$o/rc-timer")" = 0 ] || fail "the timer probe exited $(cat "$o/rc-timer")"
jq -e '.options.backend == "timerlat" and (.cpus | length) == 2 and
	all(.cpus[]; .hist.count > 0) and
	(.sections.timer_irq.cpus | length) == 2 and
	all(.sections.timer_irq.cpus[]; .count > 0 and .delay.count == .count) and
	.sections.timerlat.tracer == "timerlat" and
	all(.sections.timerlat.cpus[]; .thread_samples > 0 and .irq_samples > 0)' \
	"$o/tl/result.json" >/dev/null ||
	fail "timerlat: no thread and IRQ histograms for both CPUs: $(jq -c '{options, s: .sections.timerlat, n: [.cpus[].hist.count]}' "$o/tl/result.json")"
[ "$(grep -c '^timerlat/[01] 90 1$' "$o/kthreads.txt")" -eq 2 ] ||
	fail "-p 90 not given to both timerlat kthreads: $(cat "$o/kthreads.txt")"
for s in tl term busy; do
	cmp -s "$o/state-before.txt" "$o/state-after-$s.txt" ||
		fail "settings not as found after $s: $(diff "$o/state-before.txt" "$o/state-after-$s.txt" | tr '\n' ' ')"
done
[ "$(cat "$o/rc-term")" = 143 ] || fail "SIGTERM: exit $(cat "$o/rc-term"), want 143"
jq -e '.interrupted == true and .options.backend == "timerlat" and
	all(.cpus[]; .hist.count > 0)' "$o/term/result.json" >/dev/null ||
	fail "SIGTERM: the timerlat result was not saved as interrupted with its samples"
for b in busy osbusy; do
	[ "$(cat "$o/rc-$b")" = 2 ] && [ "$(grep -c . "$o/$b.err")" -eq 1 ] &&
		grep -q 'tracer is in use' "$o/$b.err" ||
		fail "$b: timerlat/osnoise held by another instance: rc $(cat "$o/rc-$b"): $(cat "$o/$b.err")"
done
[ "$(cat "$o/rc-auto")" = 0 ] && jq -e '.options.backend == "timer" and
	(.options.backend_reason | test("in use"))' "$o/auto/result.json" >/dev/null ||
	fail "--backend auto beside another timerlat user: rc $(cat "$o/rc-auto"): $(jq -c .options "$o/auto/result.json" 2>&1)"

# the medians on the same boot: reported, not asserted
p50() { jq -r "[.cpus[] | \"CPU \(.cpu) \(.p50_ns / 100 | round / 10) us\"] | join(\", \")"; }
echo "median wake-up, rtmeasure's probe:           $(p50 < "$o/timer.json")"
echo "median thread latency, timerlat (rtmeasure): $(p50 < "$o/tl.json")"
echo "median IRQ latency, timerlat (rtmeasure):    $(awk '$2 ~ /^[0-9]+\/[0-9]+$/ && $3 == "|" { printf "%sCPU %s %s %s", s, $1, $4, $5; s = ", " }' "$o/tl.out")"
if [ -s "$o/rtla.txt" ] && "$RTM_BUILDDIR/tools/rtmeasure" import -j -o "$tmp/rtla" \
	"$o/rtla.txt" > "$tmp/rtla.json" 2>/dev/null; then
	echo "median thread latency, rtla timerlat hist:   $(jq '.[0].summary' "$tmp/rtla.json" | p50)"
fi
echo "PASS: timerlat backend on the RT kernel: thread and IRQ latency on both CPUs; settings as found after a run, SIGTERM and refusals"
