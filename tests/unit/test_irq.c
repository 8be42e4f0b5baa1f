// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the irq module on /proc files recorded from varied machines
 * (tests/data/sysroot-* trees and tests/data/irq, see its README.md):
 * parsers, affinity, IRQ threads, differences, rates, top N, JSON; and on
 * truncated, corrupt and mutated copies, which must fail with a one-line
 * message naming the file and line, never crash.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "irq/irq.h"
#include "../tap.h"

static const char *datadir;
static char work[PATH_MAX];

static void tree(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", datadir, name);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f) {
		diag("cannot open %s", path);
		exit(99);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(99);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void put(const char *rel, const char *content)
{
	char path[PATH_MAX + 64], cmd[2 * PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", work, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) != 0)
		exit(99);
	f = fopen(path, "w");
	if (!f)
		exit(99);
	fputs(content, f);
	fclose(f);
}

/* ------------------------------------------------------------ recorded machines */

struct irq_case {
	const char *tree;
	int ncpus, last_cpu, nrows;
	const char *row;		/* a numbered row and its count on one CPU */
	int cpu;
	uint64_t count;
	const char *chip;
	int64_t hwirq;
	const char *trigger, *actions;
	const char *named;		/* a named row, its description and a count */
	const char *desc;
	int named_cpu;
	uint64_t named_count;
	int soft_cpus;			/* possible CPUs in /proc/softirqs, 0: no file */
};

static const struct irq_case cases[] = {
	/* this VM, 6.18, 2 CPUs */
	{ "sysroot-vm-6.18", 2, 1, 35, "36", 1, 100079, "PCI-MSIX-0000:00:02.0", 1, "edge",
	  "virtio1-req.0", "HYP", "Hypervisor callback interrupts", 0, 86, 2 },
	/* Debian 6.1 stock and PREEMPT_RT */
	{ "sysroot-stock-6.1", 2, 1, 25, "4", 1, 6, "IO-APIC", 4, "edge", "ttyS0",
	  "CAL", "Function call interrupts", 0, 274, 2 },
	{ "sysroot-rt-6.1", 2, 1, 25, "9", 0, 0, "IO-APIC", 9, "fasteoi", "acpi",
	  "LOC", "Local timer interrupts", 1, 564, 2 },
	{ "sysroot-rt-isolated", 4, 3, 25, "12", 0, 3, "IO-APIC", 12, "edge", "i8042",
	  "IWI", "IRQ work interrupts", 3, 7, 4 },
	/* 64 CPUs */
	{ "sysroot-many-cpus", 64, 63, 25, "0", 0, 198, "IO-APIC", 2, "edge", "timer",
	  "LOC", "Local timer interrupts", 0, 4889, 64 },
	/* 256 CPUs, IRQ numbers above 999, a per-CPU count at 2^32 - 1 */
	{ "irq/x86-256cpu", 256, 255, 120, "1047", 237, 3546997384ULL,
	  "IR-PCI-MSIX-0000:c1:00.0", 47, "edge", "mlx5_comp47@pci:0000:c1:00.0",
	  "LOC", "Local timer interrupts", 0, 4294967295ULL, 256 },
	/* 16 CPUs, named rows indented to the 4-digit IRQ column */
	{ "irq/x86-16cpu-prec4", 16, 15, 46, "122", 0, 0, "IR-PCI-MSI", 98304, "edge",
	  "aerdrv, pcie-dpc", "NMI", "Non-maskable interrupts", 2, 1051, 0 },
	/* Linux 3.x: chip and flow handler joined, no hwirq */
	{ "irq/x86-3.x-8cpu", 8, 7, 28, "43", 0, 68033968, "IR-PCI-MSI", -1, "edge", "eth0",
	  "RES", "Rescheduling interrupts", 4, 31979910, 0 },
	/* CPU 2 offline: header CPU0 CPU1 CPU3 */
	{ "irq/x86-offline", 3, 3, 25, "0", 0, 99, "IO-APIC", 2, "edge", "timer",
	  "LOC", "Local timer interrupts", 3, 133, 4 },
	/* arm64 Apple M1 (AIC): chip names with blanks, IPI rows */
	{ "irq/arm64-asahi", 8, 7, 46, "100", 0, 0, "PCIe MSI", 0, "Edge", "PCIe PME, aerdrv",
	  "IPI0", "Rescheduling interrupts", 4, 404619, 0 },
	/* arm64 GICv3 + ITS */
	{ "irq/arm64-gicv3", 4, 3, 21, "14", 0, 0, "9030000.pl061", 3, "Edge", "ACPI:Event",
	  "IPI3", "CPU stop NMIs", 0, 0, 4 },
	/* arm32 GIC */
	{ "irq/arm32-zte-gic", 2, 1, 24, "29", 0, 88652, "GIC", 68, "Level",
	  "9000000.usb, dwc2_hsotg:usb3", "IPI0", "CPU wakeup interrupts", 1, 1, 0 },
	/* arm32 MediaTek, 1 CPU online of 4, chip without a name */
	{ "irq/arm32-mediatek", 1, 0, 68, "220", 0, 33893, "", -1, "", "SGX ISR",
	  "FIQ", "fiq_glue", -1, 0, 4 },
};

static void test_case(const struct irq_case *t)
{
	const struct rtm_irq_row *r, *n;
	struct rtm_error err = { "" };
	struct rtm_irq_snap s;
	char root[PATH_MAX];
	int col;

	tree(root, sizeof(root), t->tree);
	if (!ok(rtm_irq_snap_read(root, &s, &err) == 0, "%s: snapshot read (%s)", t->tree, err.msg))
		return;
	is_int(s.ncpus, t->ncpus, "CPU columns");
	is_int(s.cpus[s.ncpus - 1], t->last_cpu, "CPU of the last column");
	is_int(s.nrows, t->nrows, "rows");
	r = rtm_irq_find(&s, t->row);
	col = rtm_irq_col(&s, t->cpu);
	if (ok(r && col >= 0 && r->percpu, "%s: IRQ %s found with per-CPU counts", t->tree,
	       t->row)) {
		is_int(r->irq, atoi(t->row), "IRQ number");
		is_u64(r->counts[col], t->count, "count on the CPU");
		is_str(r->chip, t->chip, "chip");
		is_int(r->hwirq, t->hwirq, "hwirq");
		is_str(r->trigger, t->trigger, "trigger");
		is_str(r->actions, t->actions, "actions");
	}
	n = rtm_irq_find(&s, t->named);
	if (ok(n && n->irq == -1, "%s: row %s found", t->tree, t->named)) {
		is_str(n->desc, t->desc, "description");
		if (t->named_cpu >= 0 && ok(n->percpu, "%s: %s per CPU", t->tree, t->named))
			is_u64(n->counts[rtm_irq_col(&s, t->named_cpu)], t->named_count,
			       "named row count on the CPU");
	}
	is_int(s.has_softirqs ? s.nsoft_cpus : 0, t->soft_cpus, "softirq CPU columns");
	rtm_irq_snap_release(&s);
}

/* Layout details the table does not hold. */
static void test_layouts(void)
{
	const struct rtm_irq_row *r;
	struct rtm_error err = { "" };
	struct rtm_irq_snap s;
	char root[PATH_MAX];
	uint64_t sum = 0;
	int c;

	tree(root, sizeof(root), "irq/arm64-asahi");
	rtm_irq_snap_read(root, &s, &err);
	r = rtm_irq_find(&s, "Err");
	ok(r && !r->percpu && r->counts == NULL && r->total == 0,
	   "arm64: Err has one number, no per-CPU counts");
	ok(!s.has_softirqs && !s.has_stat, "missing softirqs and stat are tolerated");
	r = rtm_irq_find(&s, "35");
	ok(r && !strcmp(r->chip, "AIC-FIQ") && r->hwirq == 0 && !strcmp(r->trigger, "Level") &&
	   r->total == 108001593, "arm64: arch_timer row taken apart, total %llu",
	   r ? (unsigned long long)r->total : 0ULL);
	r = rtm_irq_find(&s, "IPI6");
	ok(r && !strcmp(r->desc, "CPU wake-up interrupts"), "arm64: IPI6 description");
	for (c = 0; c < s.ncpus; c++)
		sum += s.cpu_totals[c];
	r = rtm_irq_find(&s, "Err");
	is_u64(sum + (r ? r->total : 0), s.total, "per-CPU totals add up to the total");
	rtm_irq_snap_release(&s);

	/* IPI rows wider than the header (counts for CPUs the header leaves out) */
	tree(root, sizeof(root), "irq/arm32-mediatek");
	rtm_irq_snap_read(root, &s, &err);
	r = rtm_irq_find(&s, "IPI1");
	ok(r && !r->percpu && r->total == 257706 && !strcmp(r->desc, "Rescheduling interrupts"),
	   "arm32: IPI1 with 4 counts under a 1-CPU header: total only");
	r = rtm_irq_find(&s, "126");
	ok(r && !strcmp(r->actions, "mt_emi_mpu, spc, mt6577_devapc") && !strcmp(r->chip, ""),
	   "arm32: shared IRQ actions, nameless chip");
	ok(rtm_softirq_find(&s, "BLOCK_IOPOLL") && s.nsoft == 10, "arm32: old BLOCK_IOPOLL vector");
	is_u64(rtm_softirq_find(&s, "TIMER")->counts[rtm_softirq_col(&s, 3)], 2241,
	       "arm32: TIMER softirqs of offline CPU 3");
	rtm_irq_snap_release(&s);

	tree(root, sizeof(root), "irq/arm64-gicv3");
	rtm_irq_snap_read(root, &s, &err);
	r = rtm_irq_find(&s, "10");
	ok(r && !strcmp(r->chip, "GICv3") && r->hwirq == 27 && !strcmp(r->trigger, "Level") &&
	   !strcmp(r->actions, "arch_timer"), "GICv3: arch_timer PPI 27 level");
	r = rtm_irq_find(&s, "18");
	ok(r && !strcmp(r->chip, "ITS-MSI") && r->hwirq == 32768 &&
	   !strcmp(r->actions, "aerdrv, PCIe PME, pciehp"), "GICv3: ITS-MSI shared actions");
	is_int(s.nsoft, 10, "GICv3: softirq vectors");
	rtm_irq_snap_release(&s);

	tree(root, sizeof(root), "irq/x86-offline");
	rtm_irq_snap_read(root, &s, &err);
	is_int(rtm_irq_col(&s, 2), -1, "offline CPU 2 has no column");
	is_int(rtm_irq_col(&s, 3), 2, "CPU 3 is the third column");
	is_int(rtm_softirq_col(&s, 2), 2, "softirqs list offline CPU 2");
	ok(s.nstat_cpus == 3 && s.stat_cpus[2].cpu == 3, "/proc/stat lists online CPUs 0, 1, 3");
	rtm_irq_snap_release(&s);

	tree(root, sizeof(root), "irq/x86-3.x-8cpu");
	rtm_irq_snap_read(root, &s, &err);
	r = rtm_irq_find(&s, "47");
	ok(r && !strcmp(r->actions, "fglrx[0]@PCI:1:0:0"), "3.x: action with brackets and colons");
	r = rtm_irq_find(&s, "40");
	ok(r && !strcmp(r->chip, "DMAR_MSI") && !strcmp(r->trigger, "edge"), "3.x: DMAR_MSI-edge");
	rtm_irq_snap_release(&s);
}

static void test_softirqs_stat(void)
{
	const struct rtm_softirq_row *sr;
	struct rtm_error err = { "" };
	static const char *const vec[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
					   "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };
	struct rtm_irq_snap s;
	char root[PATH_MAX];
	int i, inorder = 1;

	tree(root, sizeof(root), "irq/vm-6.18-t0");
	ok(rtm_irq_snap_read(root, &s, &err) == 0, "vm t0 read (%s)", err.msg);
	is_u64(s.ts_ns, 17692330000000ULL, "time stamp from the recorded /proc/uptime");
	is_int(s.nsoft, 10, "softirq vectors");
	for (i = 0; i < s.nsoft && i < 10; i++)
		inorder &= !strcmp(s.soft[i].name, vec[i]);
	ok(inorder, "softirq vectors in kernel order");
	sr = rtm_softirq_find(&s, "TIMER");
	ok(sr && sr->counts[0] == 215512 && sr->total == 215512 + 192054, "TIMER softirqs");
	is_u64(s.stat_intr, 9704467, "/proc/stat intr total");
	is_u64(s.stat_softirq, 3552334, "/proc/stat softirq total");
	ok(s.nstat_cpus == 2 && s.stat_cpus[1].cpu == 1 && s.stat_cpus[1].irq == 0 &&
	   s.stat_cpus[1].softirq == 1122 && s.stat_cpus[1].steal == 10589,
	   "/proc/stat cpu1 irq, softirq and steal ticks");
	rtm_irq_snap_release(&s);
}

/* ------------------------------------------------------------ affinity, threads */

static void test_affinity(void)
{
	static const struct { int irq; const char *smp, *eff; } want[] = {
		{ 0, "0-1", "0" }, { 1, "0-1", "1" }, { 4, "0-1", "1" }, { 8, "0-1", "0" },
		{ 9, "0-1", "1" }, { 12, "0-1", "0" },
	};
	struct rtm_error err = { "" };
	struct rtm_irq_affinity a;
	struct rtm_irq_snap s;
	char root[PATH_MAX], buf[64];
	unsigned int i;
	json_t *j;

	tree(root, sizeof(root), "sysroot-rt-isolated");
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char eff[64];

		if (!ok(rtm_irq_affinity_read(root, want[i].irq, &a, &err) == 0,
			"IRQ %d affinity read (%s)", want[i].irq, err.msg))
			continue;
		rtm_cpulist_format(&a.smp, buf, sizeof(buf));
		rtm_cpulist_format(&a.effective, eff, sizeof(eff));
		ok(a.has_smp && a.has_effective && !strcmp(buf, want[i].smp) &&
		   !strcmp(eff, want[i].eff) && a.node == 0,
		   "IRQ %d: smp %s effective %s node %d", want[i].irq, buf, eff, a.node);
		rtm_irq_affinity_release(&a);
	}
	ok(rtm_irq_affinity_read(root, 999, &a, &err) == -ENOENT && one_line(err.msg) &&
	   strstr(err.msg, "/proc/irq/999"), "no such IRQ: -ENOENT (%s)", err.msg);

	ok(rtm_irq_snap_read(root, &s, &err) == 0 &&
	   rtm_irq_snap_read_affinity(&s, root, &err) == 0, "affinity of every row (%s)", err.msg);
	ok(rtm_irq_find(&s, "4")->aff && !rtm_irq_find(&s, "LOC")->aff,
	   "numbered rows have affinity, named rows none");
	j = rtm_irq_delta_to_json(&s, false);
	is_str(json_string_value(json_object_get(json_object_get(json_array_get(
		json_object_get(j, "irqs"), 2), "affinity"), "effective")), "1",
	       "JSON: effective affinity of IRQ 4");
	json_decref(j);
	rtm_irq_snap_release(&s);

	/* a missing file is tolerated, a corrupt one is an error naming it */
	snprintf(buf, sizeof(buf), "%s", "/proc/irq/7/smp_affinity_list");
	put(buf, "2-3\n");
	ok(rtm_irq_affinity_read(work, 7, &a, &err) == 0 && a.has_smp && !a.has_effective &&
	   a.node == -1 && a.smp.n == 2, "only smp_affinity_list: tolerated");
	rtm_irq_affinity_release(&a);
	put(buf, "3-x\n");
	ok(rtm_irq_affinity_read(work, 7, &a, &err) == -EINVAL && one_line(err.msg) &&
	   strstr(err.msg, "/proc/irq/7/smp_affinity_list"), "corrupt CPU list: %s", err.msg);
	put("/proc/irq/7/node", "zero\n");
	put(buf, "1\n");
	ok(rtm_irq_affinity_read(work, 7, &a, &err) == -EINVAL && strstr(err.msg, "node"),
	   "corrupt node: %s", err.msg);
}

static void test_threads(void)
{
	static const struct { int irq, pid, cpu; const char *name; } want[] = {
		{ 1, 64, 1, "i8042" }, { 4, 99, 1, "ttyS0" }, { 8, 66, 0, "rtc0" },
		{ 9, 47, 1, "acpi" }, { 12, 63, 0, "i8042" },
	};
	struct rtm_error err = { "" };
	struct rtm_irq_threads th;
	char root[PATH_MAX];
	int i;

	tree(root, sizeof(root), "sysroot-rt-6.1");
	ok(rtm_irq_threads_read(root, &th, &err) == 0, "RT 6.1: IRQ threads read (%s)", err.msg);
	is_int(th.n, 5, "RT 6.1: five IRQ threads");
	for (i = 0; i < th.n && i < 5; i++) {
		const struct rtm_irq_thread *t = &th.t[i];

		ok(t->irq == want[i].irq && t->pid == want[i].pid &&
		   !strcmp(t->name, want[i].name) && t->policy_known &&
		   t->policy == RTM_POLICY_FIFO && t->rt_priority == 50 &&
		   t->cpu == want[i].cpu && !t->secondary,
		   "irq/%d-%s: pid %d, %s priority %d, CPU %d", t->irq, t->name, t->pid,
		   rtm_policy_name(t->policy), t->rt_priority, t->cpu);
	}
	rtm_irq_threads_release(&th);

	tree(root, sizeof(root), "sysroot-stock-6.1");
	ok(rtm_irq_threads_read(root, &th, &err) == 0 && th.n == 0,
	   "stock kernel: no IRQ threads, no error");
	rtm_irq_threads_release(&th);

	put("/proc/700/comm", "irq/33-s-eth0\n");
	put("/proc/700/stat", "700 (irq/33-s-eth0) S 2 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 -52 0 "
	    "1 0 88 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 1 0 0 17 3 51 2 0\n");
	ok(rtm_irq_threads_read(work, &th, &err) == 0 && th.n == 1 && th.t[0].secondary &&
	   !strcmp(th.t[0].name, "eth0") && th.t[0].policy == RTM_POLICY_RR &&
	   th.t[0].rt_priority == 51 && th.t[0].cpu == 3, "secondary thread, SCHED_RR");
	rtm_irq_threads_release(&th);
	put("/proc/700/stat", "700 (irq/33-s-eth0) S 2 0 0\n");
	ok(rtm_irq_threads_read(work, &th, &err) == -EINVAL && one_line(err.msg) &&
	   strstr(err.msg, "/proc/700/stat"), "corrupt stat: %s", err.msg);
}

/* ------------------------------------------------------------ differences */

static void test_delta_live(void)
{
	const struct rtm_irq_row *r;
	struct rtm_error err = { "" };
	struct rtm_irq_snap a, b, d, boot;
	struct rtm_cpulist cpu0, cpu1;
	char root[PATH_MAX];
	int idx[8], n;
	json_t *j, *irqs, *rates;

	tree(root, sizeof(root), "irq/vm-6.18-t0");
	rtm_irq_snap_read(root, &a, &err);
	tree(root, sizeof(root), "irq/vm-6.18-t1");
	rtm_irq_snap_read(root, &b, &err);
	ok(rtm_irq_delta(&a, &b, &d, &err) == 0, "difference of the two live snapshots");
	is_u64(d.interval_ns, 1010000000ULL, "interval 1.01 s");
	r = rtm_irq_find(&d, "LOC");
	ok(r && r->counts[0] == 1250 && r->counts[1] == 1230 && r->total == 2480,
	   "LOC: 1250 + 1230 timer interrupts");
	ok(fabs(rtm_irq_rate_hz(&d, r->total) - 2480 / 1.01) < 1e-6, "LOC rate %.3f/s",
	   rtm_irq_rate_hz(&d, r->total));
	r = rtm_irq_find(&d, "42");
	ok(r && r->counts[0] == 0 && r->counts[1] == 1 && !r->flags,
	   "IRQ 42 (virtio3-tx): 1 on CPU 1");
	is_u64(d.total, 2481, "total of all rows");
	ok(d.cpu_totals[0] == 1250 && d.cpu_totals[1] == 1231, "per-CPU totals 1250, 1231");
	ok(rtm_softirq_find(&d, "TIMER")->counts[0] == 19 &&
	   rtm_softirq_find(&d, "TIMER")->counts[1] == 11 &&
	   rtm_softirq_find(&d, "SCHED")->total == 447 && rtm_softirq_find(&d, "RCU")->total == 34,
	   "softirqs: TIMER 19 + 11, SCHED 447, RCU 34");
	ok(d.stat_intr == 2485 && d.stat_softirq == 511 && d.nstat_cpus == 2 &&
	   d.stat_cpus[1].steal == 1 && d.stat_cpus[0].softirq == 0,
	   "/proc/stat: 2485 interrupts, 511 softirqs, 1 steal tick on CPU 1");

	n = rtm_irq_top(&d, NULL, 8, idx);
	ok(n == 2 && !strcmp(d.rows[idx[0]].name, "LOC") && !strcmp(d.rows[idx[1]].name, "42"),
	   "top: LOC then 42");
	rtm_cpulist_parse("1", &cpu1, NULL);
	rtm_cpulist_parse("0", &cpu0, NULL);
	n = rtm_irq_top(&d, &cpu0, 8, idx);
	ok(n == 1 && !strcmp(d.rows[idx[0]].name, "LOC"), "IRQs hitting CPU 0: LOC only");
	n = rtm_irq_top(&d, &cpu1, 1, idx);
	ok(n == 1 && rtm_irq_count_on(&d, &d.rows[idx[0]], &cpu1) == 1230,
	   "top 1 on CPU 1: LOC, 1230");
	is_u64(rtm_irq_count_on(&d, rtm_irq_find(&d, "42"), &cpu1), 1, "IRQ 42 on CPU 1");
	rtm_cpulist_release(&cpu0);
	rtm_cpulist_release(&cpu1);

	j = rtm_irq_delta_to_json(&d, false);
	irqs = json_object_get(j, "irqs");
	ok(j && json_array_size(irqs) == 2, "JSON: rows with events only");
	is_str(json_string_value(json_object_get(json_array_get(irqs, 0), "actions")),
	       "virtio3-tx", "JSON: IRQ 42 first (file order), with its actions");
	is_int(json_integer_value(json_object_get(j, "interval_ns")), 1010000000, "JSON interval");
	rates = json_object_get(json_array_get(irqs, 1), "rates_hz");
	ok(fabs(json_real_value(json_array_get(rates, 0)) - 1250 / 1.01) < 1e-6,
	   "JSON: LOC rate on CPU 0");
	is_int(json_integer_value(json_object_get(json_object_get(j, "stat"), "intr")), 2485,
	       "JSON: /proc/stat interrupts");
	json_decref(j);
	j = rtm_irq_delta_to_json(&d, true);
	is_int(json_array_size(json_object_get(j, "irqs")), 35, "JSON with all rows");
	json_decref(j);

	ok(rtm_irq_delta(&b, &a, &boot, &err) == -EINVAL && one_line(err.msg),
	   "snapshots swapped: %s", err.msg);
	ok(rtm_irq_delta(NULL, &a, &boot, &err) == 0 && boot.interval_ns == a.ts_ns &&
	   rtm_irq_find(&boot, "LOC")->total == rtm_irq_find(&a, "LOC")->total &&
	   !rtm_irq_find(&boot, "LOC")->flags, "since boot: the counts themselves");
	rtm_irq_snap_release(&boot);
	rtm_irq_snap_release(&d);
	rtm_irq_snap_release(&a);
	rtm_irq_snap_release(&b);
}

static void parse_text(struct rtm_irq_snap *s, const char *text, uint64_t ts_ns)
{
	struct rtm_error err = { "" };

	memset(s, 0, sizeof(*s));
	if (rtm_irq_parse_interrupts(s, text, strlen(text), "test", &err)) {
		diag("parse failed: %s", err.msg);
		exit(99);
	}
	s->ts_ns = ts_ns;
}

static void test_delta_edges(void)
{
	const struct rtm_irq_row *r;
	struct rtm_error err = { "" };
	struct rtm_irq_snap a, b, d;

	parse_text(&a, "           CPU0       CPU1       CPU2\n"
		   " 24: 4294967290         10          0   IO-APIC   5-edge      eth0\n"
		   " 25:          5          5          5   IO-APIC   6-edge      gone\n"
		   " 27: 5000000000          1          0   IO-APIC   7-edge      reset\n"
		   "LOC:        100        200        300   Local timer interrupts\n"
		   "ERR:          7\n", 1000000000);
	parse_text(&b, "           CPU0       CPU2\n"
		   " 24:          5          4   IO-APIC   5-edge      eth0\n"
		   " 26:          3          4   IO-APIC   4-edge      new\n"
		   " 27:          7          0   IO-APIC   7-edge      reset\n"
		   "LOC:        150        360   Local timer interrupts\n"
		   "ERR:          9\n", 3000000000);
	ok(rtm_irq_delta(&a, &b, &d, &err) == 0, "difference with CPU 1 gone offline");
	ok(d.ncpus == 2 && d.cpus[0] == 0 && d.cpus[1] == 2, "columns: CPUs in both, 0 and 2");
	r = rtm_irq_find(&d, "24");
	ok(r && r->counts[0] == 11 && r->counts[1] == 4 && (r->flags & RTM_IRQ_WRAPPED),
	   "32-bit wrap: 4294967290 -> 5 is 11 events");
	r = rtm_irq_find(&d, "27");
	ok(r && r->counts[0] == 7 && (r->flags & RTM_IRQ_WRAPPED),
	   "64-bit counter going back: reset");
	r = rtm_irq_find(&d, "26");
	ok(r && r->total == 7 && (r->flags & RTM_IRQ_APPEARED), "new IRQ counts from zero");
	ok(!rtm_irq_find(&d, "25") && d.nrows == 5, "IRQ gone from the second snapshot: left out");
	r = rtm_irq_find(&d, "LOC");
	ok(r && r->counts[0] == 50 && r->counts[1] == 60 && rtm_irq_rate_hz(&d, r->total) == 55.0,
	   "LOC matched by name: 110 events in 2 s = 55/s");
	r = rtm_irq_find(&d, "ERR");
	ok(r && !r->percpu && r->total == 2, "ERR: total only");
	rtm_irq_snap_release(&d);
	rtm_irq_snap_release(&a);
	rtm_irq_snap_release(&b);
}

/* ------------------------------------------------------------ corrupt input */

enum which { INTERRUPTS, SOFTIRQS, STAT };

struct bad_case {
	const char *what;
	enum which file;
	const char *text;
	size_t len;			/* 0: strlen */
	const char *needle;
};

#define HDR "           CPU0       CPU1       \n"
#define SHDR "                    CPU0       CPU1       \n"

static const struct bad_case bad[] = {
	{ "empty file", INTERRUPTS, "", 0, "empty" },
	{ "header missing", INTERRUPTS, " 24:  1  2  IO-APIC  5-edge  eth0\n", 0, "CPU header" },
	{ "header with a stray word", INTERRUPTS, "  CPU0 CPUx\n", 0, "CPU header" },
	{ "header out of order", INTERRUPTS, "  CPU1 CPU0\n", 0, "increasing" },
	{ "cut in the middle of a line", INTERRUPTS, HDR " 24:       12", 0, "test:2: the last" },
	{ "binary junk", INTERRUPTS, HDR "\x01\x02\xff\xfe\n", 0, "test:2: binary data" },
	{ "NUL byte", INTERRUPTS, HDR " 24: 1\0 2\n", sizeof(HDR) - 1 + 10, "byte 0x00" },
	{ "non-numeric count", INTERRUPTS, HDR " 24:    12a4   5678   IO-APIC   5-edge   eth0\n", 0,
	  "test:2: count '12a4' of 24 is not a number" },
	{ "count too large", INTERRUPTS, HDR "LOC: 99999999999999999999999 1 Local\n", 0,
	  "too large" },
	{ "too few counts", INTERRUPTS, HDR " 24:          5\n", 0, "1 counts for 2 CPU columns" },
	{ "no name", INTERRUPTS, HDR "garbage line\n", 0, "test:2: expected" },
	{ "IRQ repeated", INTERRUPTS, HDR " 24: 1 2 a\n 24: 1 2 a\n", 0, "out of order" },
	{ "named row twice", INTERRUPTS, HDR "LOC: 1 2 x\nLOC: 1 2 x\n", 0, "listed twice" },
	{ "non-numeric named count", INTERRUPTS, HDR "LOC: 1x 2 Local\n", 0, "not a number" },
	{ "softirq cut short", SOFTIRQS, SHDR "     TIMER:   10\n", 0, "1 counts for 2" },
	{ "softirq extra count", SOFTIRQS, SHDR "     TIMER:   10  20  30\n", 0, "more counts" },
	{ "softirq bad count", SOFTIRQS, SHDR "     TIMER:   10  2-0\n", 0, "not a number" },
	{ "softirq no header", SOFTIRQS, "     TIMER:   10  20\n", 0, "CPU header" },
	{ "stat without intr", STAT, "cpu  1 2 3 4 5 6 7 8\n", 0, "no 'intr' line" },
	{ "stat short cpu line", STAT, "cpu0 1 2 3\nintr 5\n", 0, "at least 7" },
	{ "stat bad intr", STAT, "intr abc 1 2\n", 0, "not a number" },
};

static int parse_which(enum which w, struct rtm_irq_snap *s, const char *t, size_t len,
		       struct rtm_error *err)
{
	switch (w) {
	case SOFTIRQS:	return rtm_irq_parse_softirqs(s, t, len, "test", err);
	case STAT:	return rtm_irq_parse_stat(s, t, len, "test", err);
	default:	return rtm_irq_parse_interrupts(s, t, len, "test", err);
	}
}

static void test_bad(void)
{
	static const char wide[] = HDR " 24: 12345678901 18446744073709551615 chip 3-edge x\n";
	struct rtm_irq_snap s;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rtm_error err = { "" };
		const struct bad_case *b = &bad[i];
		int ret;

		memset(&s, 0, sizeof(s));
		ret = parse_which(b->file, &s, b->text, b->len ? b->len : strlen(b->text), &err);
		ok(ret == -EINVAL && one_line(err.msg) && strstr(err.msg, b->needle) &&
		   !strncmp(err.msg, "test", 4), "%s: -EINVAL, \"%s\"", b->what, err.msg);
		ok(s.rows == NULL && s.soft == NULL && s.stat_cpus == NULL,
		   "%s: nothing left behind", b->what);
		rtm_irq_snap_release(&s);
	}

	/* counts wider than their 10-character field */
	memset(&s, 0, sizeof(s));
	ok(rtm_irq_parse_interrupts(&s, wide, strlen(wide), "test", NULL) == 0 &&
	   s.rows[0].counts[0] == 12345678901ULL && s.rows[0].counts[1] == UINT64_MAX,
	   "counts longer than 10 digits");
	rtm_irq_snap_release(&s);
}

/* Every cut of real files: a clean cut at a line end parses, any other fails cleanly. */
static void test_truncations(const char *rel)
{
	char path[PATH_MAX];
	size_t len, cut;
	int good = 1, lines_ok = 1, clean = 0;
	char *text;

	tree(path, sizeof(path), rel);
	text = slurp(path, &len);
	for (cut = 0; cut <= len; cut++) {
		struct rtm_error err = { "" };
		struct rtm_irq_snap s;
		int ret, want_line = 1;
		size_t k;
		char needle[32];

		memset(&s, 0, sizeof(s));
		ret = rtm_irq_parse_interrupts(&s, text, cut, "cut", &err);
		for (k = 0; k < cut; k++)
			want_line += text[k] == '\n';
		if (cut > 0 && text[cut - 1] == '\n') {
			good &= ret == 0 && s.nrows == want_line - 2;
			clean++;
		} else {
			snprintf(needle, sizeof(needle), "cut:%d:", want_line);
			good &= ret == -EINVAL;
			lines_ok &= cut == 0 || (one_line(err.msg) && strstr(err.msg, needle));
		}
		rtm_irq_snap_release(&s);
	}
	ok(good, "%s: %zu cuts, %d at line ends parse, the others fail", rel, len + 1, clean);
	ok(lines_ok, "%s: every failure names the line it stopped at", rel);
	free(text);
}

/* Deterministic byte mutations of real files: 0 or -EINVAL, never a crash. */
static void test_mutations(const char *rel, enum which w)
{
	uint32_t x = 12345;
	char path[PATH_MAX];
	size_t len;
	int i, fine = 1, failed = 0;
	char *orig, *text;

	tree(path, sizeof(path), rel);
	orig = slurp(path, &len);
	text = malloc(len + 1);
	for (i = 0; i < 3000; i++) {
		struct rtm_error err = { "" };
		struct rtm_irq_snap s;
		int k, ret;

		memcpy(text, orig, len + 1);
		for (k = 0; k < 1 + i % 4; k++) {
			x = x * 1664525 + 1013904223;
			text[(x >> 8) % len] = (char)(x >> 24);
		}
		memset(&s, 0, sizeof(s));
		ret = parse_which(w, &s, text, len, &err);
		fine &= ret == 0 || (ret == -EINVAL && one_line(err.msg));
		failed += ret != 0;
		rtm_irq_snap_release(&s);
	}
	ok(fine, "%s: 3000 mutated copies parse or fail with one line (%d failed)", rel, failed);
	free(orig);
	free(text);
}

static void test_read_errors(void)
{
	struct rtm_error err = { "" };
	struct rtm_irq_snap s;
	char want[PATH_MAX + 32];

	ok(rtm_irq_snap_read(work, &s, &err) == -ENOENT && one_line(err.msg) &&
	   strstr(err.msg, "/proc/interrupts"), "no /proc/interrupts: %s", err.msg);
	put("/proc/interrupts", HDR " 24: 1 2 chip 1-edge a\n 25: 1 x chip 2-edge b\n");
	snprintf(want, sizeof(want), "%s/proc/interrupts:3:", work);
	ok(rtm_irq_snap_read(work, &s, &err) == -EINVAL && strstr(err.msg, want),
	   "corrupt file named with its path and line: %s", err.msg);
	put("/proc/interrupts", HDR " 24: 1 2 chip 1-edge a\n");
	put("/proc/softirqs", SHDR "     TIMER: 1\n");
	ok(rtm_irq_snap_read(work, &s, &err) == -EINVAL && strstr(err.msg, "/proc/softirqs:2:"),
	   "corrupt softirqs: %s", err.msg);
	put("/proc/softirqs", SHDR "     TIMER: 1 2\n");
	put("/proc/stat", "cpu0 1 2\n");
	ok(rtm_irq_snap_read(work, &s, &err) == -EINVAL && strstr(err.msg, "/proc/stat:1:"),
	   "corrupt stat: %s", err.msg);
	put("/proc/stat", "intr 5\n");
	ok(rtm_irq_snap_read(work, &s, &err) == 0 && s.has_softirqs && s.has_stat &&
	   s.stat_intr == 5, "repaired tree reads");
	rtm_irq_snap_release(&s);
}

int main(void)
{
	unsigned int i;
	char cmd[PATH_MAX + 16];

	datadir = getenv("RTM_TESTDATA");
	if (!datadir)
		datadir = "tests/data";
	snprintf(work, sizeof(work), "%s/rtm-test-irq.%d",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_case(&cases[i]);
	test_layouts();
	test_softirqs_stat();
	test_affinity();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", work);
	if (system(cmd) != 0)
		return 99;
	test_threads();
	if (system(cmd) != 0)
		return 99;
	test_delta_live();
	test_delta_edges();
	test_bad();
	test_truncations("irq/vm-6.18-t0/proc/interrupts");
	test_truncations("irq/arm64-asahi/proc/interrupts");
	test_mutations("irq/vm-6.18-t0/proc/interrupts", INTERRUPTS);
	test_mutations("irq/arm32-mediatek/proc/interrupts", INTERRUPTS);
	test_mutations("irq/vm-6.18-t0/proc/softirqs", SOFTIRQS);
	test_mutations("irq/vm-6.18-t0/proc/stat", STAT);
	test_read_errors();
	if (system(cmd) != 0)
		return 99;
	return tap_done();
}
