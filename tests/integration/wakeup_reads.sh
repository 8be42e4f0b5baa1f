#!/bin/bash
# Integration: the two builds of the BPF programs (lib/probe/bpf_read.h) give
# the same figures. The direct build reads a task's fields with plain loads
# (bpf_rdonly_cast, Linux 6.2 on), the helper build with bpf_probe_read_kernel
# calls (older kernels); RTMEASURE_BPF_READS=helper loads the second on any
# kernel.
#
# For each build, `rtmeasure wakeup --comm` measures a renamed cyclictest (one
# FIFO 80 thread on CPU 1 at I = 5 ms, 4 s) while a FIFO 99 helper spins 3 ms
# on CPU 1 every 100.3 ms (the period no multiple of I). Each run must say the
# build it loaded (sections.wakeup.task_reads: "helper" when asked; "direct"
# by default where the kernel's BTF has bpf_rdonly_cast, else "helper": the
# fall-back), and read the thread's fields right: its tid, its process's pid,
# its name, FIFO 80, every one of cyclictest's own wake-ups measured (its
# histogram's total, 90 % at least: the run covers cyclictest's), and its
# longest waits named for the spinner, rtm-inject, at FIFO 99 (fields the
# programs read from the other task), in the census. Then `cyclic --bpf` on
# CPU 1 for 2 s in each build: sections.timer_irq says the build and splits
# the probe's wake-ups (the IRQ count within 2 % of the probe's samples).
# Nothing here asserts a latency.
. "$RTM_SRCDIR/tests/lib.sh"
need_root
need_jq
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs 2 CPUs"
command -v cyclictest >/dev/null || skip "cyclictest (rt-tests) not installed"
command -v bpftool >/dev/null || skip "bpftool not installed: cannot read the kernel's BTF"
need_bpf
measure_lock "$@"

out=$(mktemp -d)
trap 'kill $inj $wk $ct 2>/dev/null; rm -rf "$out"' EXIT
inject="$RTM_BUILDDIR/tests/helpers/inject"
if bpftool btf dump file /sys/kernel/btf/vmlinux format raw 2>/dev/null |
	grep -q "^\[[0-9]*\] FUNC 'bpf_rdonly_cast'"; then
	default=direct
else
	default=helper
fi
echo "this kernel's default build: $default"

# one wakeup run of build $1 ("" for the default): the checks above
wakeup_run() {
	local want=${1:-$default} ctname=ctrd$$${1:0:1} r task ct_total n named
	cp "$(command -v cyclictest)" "$out/$ctname" || fail "cannot copy cyclictest"
	RTMEASURE_BPF_READS=$1 "$RTMEASURE" wakeup --comm "$ctname" -a 1 --above 1ms \
		--interval 1s -o "$out/w$1" >"$out/w$1.txt" 2>&1 &
	wk=$!
	bpf_attached $wk sched_switch "$out/w$1.txt"
	taskset -c 0 "$out/$ctname" -t1 -a1 -p80 -i 5000 -D 4 -q --mainaffinity=0 -h 4000 \
		--histfile="$out/ct$1.hist" >/dev/null 2>&1 &
	ct=$!
	"$inject" --cpu 1 --spin 3ms --every 100300us --count 30 --delay 500ms >"$out/inj.txt" &
	inj=$!
	wait $inj || fail "inject exited $?"
	wait $ct || fail "cyclictest exited $?"
	kill -INT $wk
	wait $wk
	[ $? -eq 130 ] || { cat "$out/w$1.txt"; fail "rtmeasure wakeup did not exit 130 after SIGINT"; }
	r="$out/w$1/result.json"
	[ -s "$r" ] || fail "no result.json"
	[ "$(jq -r .sections.wakeup.task_reads "$r")" = "$want" ] ||
		fail "RTMEASURE_BPF_READS='$1': task_reads $(jq .sections.wakeup.task_reads "$r"), want $want"
	task=$(jq -c --arg n "$ctname" '[.sections.wakeup.tasks[] | select(.comm == $n and
		.policy == "fifo")][0]' "$r")
	echo "$want build: $task"
	[ "$task" != null ] || fail "$want build: no FIFO thread named $ctname in the tasks"
	echo "$task" | jq -e --argjson p "$ct" '.tgid == $p and .pid != $p and .rt_priority == 80' \
		>/dev/null || fail "$want build: the thread's pid, process or priority is wrong (cyclictest $ct)"
	ct_total=$(awk '/^# Total:/ { print $3 + 0 }' "$out/ct$1.hist")
	n=$(echo "$task" | jq .count)
	[ "$ct_total" -gt 0 ] || fail "no total in cyclictest's histogram"
	[ $((n * 10)) -ge $((ct_total * 9)) ] && [ "$n" -le $((ct_total + 5)) ] ||
		fail "$want build: $n wake-ups measured, cyclictest counts $ct_total"
	named=$(jq '[.sections.wakeup.census.list[] | select(.cause == "thread" and
		.task.comm == "rtm-inject" and .task.policy == "fifo" and .task.priority == 99)] |
		length' "$r")
	echo "$want build: $n of cyclictest's $ct_total wake-ups; $named waits over 1 ms named" \
		"for rtm-inject (FIFO 99)"
	[ "$named" -ge 5 ] || fail "$want build: $named waits named for rtm-inject (FIFO 99) of 30 spins"
	rm -f "$out/$ctname"
	wk= ct= inj=
}

# one cyclic --bpf run of build $1 on CPU 1
split_run() {
	local want=${1:-$default} r irq samples
	RTMEASURE_BPF_READS=$1 "$RTMEASURE" cyclic --bpf -a 1 -D 2s -o "$out/c$1" \
		>"$out/c$1.txt" 2>&1 || { cat "$out/c$1.txt"; fail "cyclic --bpf failed"; }
	r="$out/c$1/result.json"
	[ "$(jq -r .sections.timer_irq.task_reads "$r")" = "$want" ] ||
		fail "cyclic --bpf, RTMEASURE_BPF_READS='$1': task_reads" \
			"$(jq .sections.timer_irq.task_reads "$r"), want $want"
	irq=$(jq '.sections.timer_irq.cpus[] | select(.cpu == 1) | .count' "$r")
	samples=$(jq '.cpus[] | select(.cpu == 1) | .hist.count' "$r")
	echo "cyclic --bpf, $want build: $irq timer IRQs split of $samples samples"
	[ $(((samples - irq) * 50)) -le "$samples" ] && [ $(((irq - samples) * 50)) -le "$samples" ] ||
		fail "cyclic --bpf, $want build: $irq IRQs split, the probe took $samples samples"
}

wakeup_run ""
wakeup_run helper
split_run ""
split_run helper
echo "PASS: the $default and helper builds measure the same thread alike"
