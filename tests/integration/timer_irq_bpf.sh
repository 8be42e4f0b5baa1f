#!/bin/bash
# Integration: `rtmeasure cyclic --bpf` and `run --bpf` split each wake-up of
# the probe into its timer IRQ part (the hrtimer's expiry to
# hrtimer_expire_entry) and its wake-up part (to the probe switched in) with
# BPF programs counting in the kernel, nothing streamed. On CPUs 0-1 for 3 s:
# sections.timer_irq has both CPUs, backend "bpf", no trace instance of ours
# was made; on each CPU every sample's sleep is accounted for (the IRQ count
# plus the starts whose expiry the programs did not see is the probe's samples
# within 1 %), and the IRQ count and wake-up count are the samples within 2 %
# (on the busy development VM up to ~1 % of the expiries go unseen); the longest sample's IRQ part plus wake-up part is at most the
# probe's own maximum (each part ends before the probe reads its clock), and
# the IRQ part's p50 bucket at most the wake-up latency's. The start line
# names the split and why; the summary prints the table; `run --bpf` writes
# the same section. Nothing here asserts a latency.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
measure_lock "$@"
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs"
[ -r /sys/kernel/btf/vmlinux ] || skip "this kernel has no BTF (/sys/kernel/btf/vmlinux)"
grep -qw hrtimer_wakeup /proc/kallsyms || skip "no hrtimer_wakeup in /proc/kallsyms"
grep -q '^#define RTM_HAVE_BPF 1' "$RTM_BUILDDIR/config.h" ||
	skip "rtmeasure built without BPF (clang, libbpf-dev, bpftool)"

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# the split of one CPU checked against the probe's samples of that CPU
check_cpu() {	# result.json, CPU
	local r=$1 cpu=$2 irq wake s max kmax line acc
	read -r irq wake s max acc kmax line < <(jq -r --argjson c "$cpu" '
		(.sections.timer_irq.cpus[] | select(.cpu == $c)) as $t |
		(.cpus[] | select(.cpu == $c)) as $p |
		[$t.count, $t.woken, $p.hist.count, $p.hist.max_ns,
		 ($t.count + $t.unmatched_starts),
		 ($t.max.irq_ns + $t.max.wake_ns),
		 "\($t.max.irq_ns)+\($t.max.wake_ns)"] | @tsv' "$r")
	echo "CPU $cpu: IRQ parts $irq (+ unseen: $acc), wake-up parts $wake, samples $s; split" \
		"$line = $kmax ns, probe max $max ns"
	[ -n "$s" ] && [ "$s" -gt 0 ] || fail "CPU $cpu: no samples"
	# within 1 %: 100 * |n - samples| <= samples; 2 %: 50 * ...
	[ $(( 100 * (acc > s ? acc - s : s - acc) )) -le "$s" ] ||
		fail "CPU $cpu: $acc sleeps accounted for $s samples (more than 1 % apart)"
	[ $(( 50 * (irq > s ? irq - s : s - irq) )) -le "$s" ] ||
		fail "CPU $cpu: $irq IRQ parts for $s samples (more than 2 % apart)"
	[ $(( 50 * (wake > s ? wake - s : s - wake) )) -le "$s" ] ||
		fail "CPU $cpu: $wake wake-up parts for $s samples (more than 2 % apart)"
	[ "$kmax" -gt 0 ] || fail "CPU $cpu: no longest split"
	[ "$kmax" -le "$max" ] ||
		fail "CPU $cpu: IRQ + wake-up part of the longest $kmax ns > probe max $max ns"
}

"$RTMEASURE" cyclic --bpf -a 0-1 -D 3s -o "$t/a" >"$t/a.out" 2>"$t/a.err" &
rpid=$!
wait_probes "$rpid"
left=$(ls /sys/kernel/tracing/instances 2>/dev/null | grep -E "^rtmeasure-$rpid([.-]|\$)")
[ -z "$left" ] || fail "cyclic --bpf made a trace instance: $left"
wait "$rpid" || fail "cyclic --bpf exited $?: $(cat "$t/a.err")"
no_instances_of "$rpid"
grep -q "timer IRQ split: bpf (asked for with --bpf)" "$t/a.err" ||
	fail "the start line does not name the BPF split: $(head -1 "$t/a.err")"
r="$t/a/result.json"
jq -e '.sections.timer_irq.backend == "bpf" and .sections.timer_irq.complete and
	(.sections.timer_irq.cpus | map(.cpu) == [0, 1])' "$r" >/dev/null ||
	fail "sections.timer_irq is not the BPF split of CPUs 0 and 1: $(jq -c \
		'.sections.timer_irq | del(.cpus)' "$r")"
for cpu in 0 1; do
	check_cpu "$r" "$cpu"
done
grep -q "^Timer IRQ (expiry to handler)" "$t/a.out" || fail "the summary has no timer IRQ table"
echo "ok: cyclic --bpf: both CPUs, every sleep accounted for, parts inside the maximum"

"$RTMEASURE" run --bpf -a 0-1 -D 2s -o "$t/b" >"$t/b.out" 2>"$t/b.err" &
rpid=$!
wait "$rpid" || fail "run --bpf exited $?: $(cat "$t/b.err")"
no_instances_of "$rpid"
for cpu in 0 1; do
	check_cpu "$t/b/result.json" "$cpu"
done
grep -q "^Timer IRQ (expiry to handler)" "$t/b.out" || fail "run: no timer IRQ table"
if command -v gnuplot >/dev/null; then
	grep -q "<h2>Timer IRQ and wake-up</h2>" "$t/b/report.html" ||
		fail "run: report.html has no timer IRQ table"
fi
echo "ok: run --bpf: the same section, in the summary and the report"

# a run over 10 minutes without --trace takes it by itself; stopped by SIGINT, it is saved
"$RTMEASURE" cyclic -a 0 -D 11m -o "$t/c" >"$t/c.out" 2>"$t/c.err" &
rpid=$!
wait_probes "$rpid"
sleep 1	# not an assertion: a few hundred wake-ups before the interrupt
kill -INT "$rpid"
wait "$rpid"
rc=$?
[ "$rc" = 130 ] || fail "SIGINT: exit $rc, want 130: $(cat "$t/c.err")"
no_instances_of "$rpid"
grep -q "timer IRQ split: bpf (automatic: -D 11m00s is longer than 10m00s, no --trace" "$t/c.err" ||
	fail "-D 11m: the start line does not name the automatic BPF split: $(cat "$t/c.err")"
jq -e '.interrupted and .sections.timer_irq.backend == "bpf" and
	(.sections.timer_irq.backend_reason | startswith("automatic"))' "$t/c/result.json" \
	>/dev/null || fail "-D 11m: no automatic BPF split in the interrupted result"
check_cpu "$t/c/result.json" 0
"$RTMEASURE" cyclic -a 0 -D 11m --bpf 0 -o "$t/d" >"$t/d.out" 2>"$t/d.err" &
rpid=$!
wait_probes "$rpid"
kill -INT "$rpid"
wait "$rpid"
grep -q "timer IRQ split" "$t/d.err" && fail "--bpf 0 still split: $(cat "$t/d.err")"
jq -e '.sections | has("timer_irq") | not' "$t/d/result.json" >/dev/null ||
	fail "--bpf 0 still wrote sections.timer_irq"
echo "ok: -D 11m: the BPF split by itself, named in the start line; --bpf 0: none"
exit 0
