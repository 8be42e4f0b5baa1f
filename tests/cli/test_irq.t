#!/bin/bash
# Command-level tests of `rtmeasure irq` on recorded trees (no root): the
# affinity list flags IRQs that can land on isolated CPUs, counts since boot
# match the recorded /proc/interrupts, --json is valid, and bad options or a
# corrupt /proc/interrupts give one line and exit 2.
. "$RTM_SRCDIR/tests/lib.sh"
data="$RTM_TESTDATA"

run_cmd irq --help
ok $(( rc != 0 )) "irq --help exits 0"
echo "$out" | grep -q -- '--affinity'; ok $? "irq --help documents --affinity"
expect_usage_error "irq: interval too short" irq -i 1ms
expect_usage_error "irq: bad interval" irq -i soon
expect_usage_error "irq: bad duration" irq -D 0
expect_usage_error "irq: bad CPU list" irq -a 3-1
expect_usage_error "irq: bad top" irq --top 0
expect_usage_error "irq: --trace with --root" irq --trace --root "$data/sysroot-vm-6.18"
expect_usage_error "irq: unknown option" irq --frobnicate
expect_usage_error "irq: stray argument" irq extra
expect_usage_error "irq: no such tree" irq --once --root /nonexistent
# a CPU that is not online: exit 2 like cyclic, not an empty table
off=$(( $(getconf _NPROCESSORS_ONLN) + 5 ))
expect_usage_error "irq --once -a $off (not online)" irq --once -i 10ms -a $off
run_cmd irq --once -i 10ms -a $off
echo "$err" | grep -q "CPU $off is not online"; ok $? "the error names CPU $off ($err)"
expect_usage_error "irq -a 300 on a 64-CPU tree" irq -a 300 --root "$data/sysroot-many-cpus"
expect_usage_error "irq --affinity -a 300 on a 64-CPU tree" irq --affinity -a 300 \
	--root "$data/sysroot-many-cpus"
expect_usage_error "irq: -h is not help" irq -h
d=$(mktemp -d)
mkdir -p "$d/proc"
printf '           CPU0       CPU1\n  0:         12     banana  IO-APIC   2-edge      timer\n' \
	>"$d/proc/interrupts"
expect_usage_error "irq: corrupt /proc/interrupts" irq --once --root "$d"
run_cmd irq --once --root "$d"
echo "$err" | grep -q 'proc/interrupts:2: .*banana'; ok $? "the error names the file and line ($err)"

# 64 CPUs, isolcpus=nohz_full=2-31: IRQs whose effective CPU is isolated are flagged
run_cmd irq --affinity --root "$data/sysroot-many-cpus"
ok $rc "irq --affinity on a recorded tree exits 0"
echo "$out" | grep -q '^1 .* 0-63 .* 3 .*LANDS ON ISOLATED CPUS'
ok $? "IRQ 1 (effective CPU 3) lands on an isolated CPU"
echo "$out" | grep -q '^0 .*may land on isolated CPUs'
ok $? "IRQ 0 (effective CPU 0, allowed 0-63) may land on one"
echo "$out" | grep -q '^isolated CPUs 2-31: 6 IRQs may land on them'
ok $? "the summary counts the 6 flagged IRQs"
run_cmd irq --affinity --json --root "$data/sysroot-many-cpus"
[ "$(echo "$out" | jq -r '.isolated_cpus')" = 2-31 ] &&
	[ "$(echo "$out" | jq '[.irqs[] | select(.isolated != "")] | length')" = 6 ]
ok $? "--affinity --json: isolated CPUs and the flagged IRQs"
# PREEMPT_RT tree: IRQ threads with their policy and priority
run_cmd irq --affinity --root "$data/sysroot-rt-isolated"
echo "$out" | grep -q '^9 .*pid 69 fifo 50 .*acpi'
ok $? "IRQ 9's thread: pid 69, FIFO 50"
echo "$out" | grep -q '^isolated CPUs 2-3: 0 IRQs'
ok $? "no IRQ may land on isolated CPUs 2-3 there"

# counts since boot of a recorded /proc/interrupts, checked against the file
t0="$data/irq/vm-6.18-t0"
run_cmd irq --once --json --root "$t0"
ok $rc "irq --once --json on a recorded tree exits 0"
want=$(awk '$1 == "LOC:" { print $2 + $3 }' "$t0/proc/interrupts")
got=$(echo "$out" | jq '.interrupts.irqs[] | select(.name == "LOC") | .count')
[ "$got" = "$want" ]; ok $? "LOC since boot: $got = $want from the file"
run_cmd irq --once --root "$t0" -a 1 --top 3
echo "$out" | grep -q '^-- average since boot (17692 s)   CPUs 1 '
ok $? "table header: average since boot, CPU 1 only"
[ "$(echo "$out" | grep -c '^[A-Z0-9][A-Z0-9]* ')" -le 4 ]; ok $? "--top 3 keeps 3 rows"

# irq --accounting (irqacct): options it does not take; the CPU check comes before tracing
run_cmd irq --help
echo "$out" | grep -q -- '--accounting'; ok $? "irq --help documents --accounting"
expect_usage_error "irq --accounting with --trace" irq --accounting --trace
expect_usage_error "irq --accounting with --once" irq --accounting --once
expect_usage_error "irq --accounting with -i" irq --accounting -i 100ms
expect_usage_error "irq --accounting with --affinity" irq --accounting --affinity
expect_usage_error "irq --accounting with --root" irq --accounting --root "$t0"
expect_usage_error "irq --accounting: bad duration" irq --accounting -D soon
expect_usage_error "irq --accounting: bad CPU list" irq --accounting -a 2-x
expect_usage_error "irq --accounting -a $off (not online)" irq --accounting -D 1s -a $off
run_cmd irq --accounting --trace
echo "$err" | grep -q -- '--accounting does not go with --trace'
ok $? "the error names both options ($err)"
rm -rf "$d"
done_testing
