/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irq.h - interrupt counts from /proc: snapshots, rates, affinity, IRQ threads.
 *
 * A snapshot holds /proc/interrupts (numbered IRQs with chip, hwirq, trigger and
 * actions; named rows such as LOC, RES, IPI0 with their description), the
 * softirq counts of /proc/softirqs and the interrupt totals and per-CPU irq,
 * softirq and steal time of /proc/stat. The difference of two snapshots has the
 * same form, with counts for the interval, and gives rates, totals, the top N
 * and the IRQs that hit a set of CPUs (the measured or isolated ones).
 *
 * Column numbers are not CPU numbers: /proc/interrupts lists online CPUs only and
 * /proc/softirqs every possible CPU, so each table keeps the CPU of each column.
 * Every file is read through a root prefix ("/" live, or a recorded tree).
 */
#ifndef RTM_IRQ_H
#define RTM_IRQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "box/rt.h"
#include "core/units.h"

#define RTM_IRQ_NAME_LEN 16

/* /proc/irq/N: missing files leave has_* false and node -1. */
struct rtm_irq_affinity {
	bool has_smp, has_effective;
	struct rtm_cpulist smp;		/* smp_affinity_list */
	struct rtm_cpulist effective;	/* effective_affinity_list */
	int node;			/* NUMA node, -1 unknown or none */
};

/* Row flags, set in differences only. */
#define RTM_IRQ_APPEARED	0x1	/* not in the first snapshot: counted from zero */
#define RTM_IRQ_WRAPPED		0x2	/* a counter went back: 32-bit wrap or reset */

struct rtm_irq_row {
	char name[RTM_IRQ_NAME_LEN];	/* "24", "LOC", "IPI0", "Err" */
	int irq;			/* the number of a numbered IRQ, -1 for named rows */
	bool percpu;			/* counts[] valid; false for ERR, MIS and rows whose
					 * count columns do not match the CPU header */
	uint64_t *counts;		/* one per column when percpu, else NULL */
	uint64_t total;
	char *desc;			/* the text after the counts, trimmed */
	/* numbered IRQs: the description taken apart; "" / -1 when not printed */
	char *chip;			/* "IO-APIC", "GICv3", "PCIe MSI" */
	int64_t hwirq;
	char *trigger;			/* "edge", "fasteoi" (x86), "Level", "Edge" (ARM) */
	char *actions;			/* "aerdrv, PCIe PME, pciehp" */
	unsigned int flags;		/* RTM_IRQ_* */
	struct rtm_irq_affinity *aff;	/* NULL unless rtm_irq_snap_read_affinity() found it */
};

struct rtm_softirq_row {
	char name[RTM_IRQ_NAME_LEN];	/* "TIMER", "NET_RX", ... */
	uint64_t *counts;		/* one per softirq column */
	uint64_t total;
	unsigned int flags;
};

/* One CPU line of /proc/stat, in USER_HZ ticks. */
struct rtm_irq_cpu_ticks {
	int cpu;
	uint64_t irq, softirq, steal;
};

/* A snapshot, or the difference of two (interval_ns > 0). */
struct rtm_irq_snap {
	uint64_t ts_ns;			/* CLOCK_MONOTONIC, or a tree's /proc/uptime */
	uint64_t interval_ns;		/* differences: time between the snapshots */

	int ncpus;			/* /proc/interrupts columns */
	int *cpus;			/* CPU number of each column */
	int nrows;
	struct rtm_irq_row *rows;
	uint64_t *cpu_totals;		/* per column: sum of the per-CPU rows */
	uint64_t total;			/* sum of all rows */

	bool has_softirqs;
	int nsoft_cpus;
	int *soft_cpus;			/* possible CPUs */
	int nsoft;
	struct rtm_softirq_row *soft;

	bool has_stat;
	uint64_t stat_intr;		/* "intr" total */
	uint64_t stat_softirq;		/* "softirq" total */
	int nstat_cpus;
	struct rtm_irq_cpu_ticks *stat_cpus;
};

int rtm_irq_snap_read(const char *root, struct rtm_irq_snap *snap, struct rtm_error *err);
void rtm_irq_snap_release(struct rtm_irq_snap *snap);

/*
 * The parsers behind rtm_irq_snap_read(), for text already in memory (@len bytes,
 * NUL bytes included); @file names the source in error messages.
 */
int rtm_irq_parse_interrupts(struct rtm_irq_snap *snap, const char *buf, size_t len,
			     const char *file, struct rtm_error *err);
int rtm_irq_parse_softirqs(struct rtm_irq_snap *snap, const char *buf, size_t len,
			   const char *file, struct rtm_error *err);
int rtm_irq_parse_stat(struct rtm_irq_snap *snap, const char *buf, size_t len,
		       const char *file, struct rtm_error *err);

const struct rtm_irq_row *rtm_irq_find(const struct rtm_irq_snap *snap, const char *name);
const struct rtm_softirq_row *rtm_softirq_find(const struct rtm_irq_snap *snap,
					       const char *name);
/* Index of @cpu in an increasing list of @n CPU numbers (a header), or -1. */
int rtm_cpu_col(const int *cpus, int n, int cpu);
/* Column of CPU @cpu in /proc/interrupts (-1 when not listed), and in /proc/softirqs. */
int rtm_irq_col(const struct rtm_irq_snap *snap, int cpu);
int rtm_softirq_col(const struct rtm_irq_snap *snap, int cpu);

int rtm_irq_affinity_read(const char *root, int irq, struct rtm_irq_affinity *aff,
			  struct rtm_error *err);
void rtm_irq_affinity_release(struct rtm_irq_affinity *aff);

enum rtm_irq_isolation {
	RTM_IRQ_ISO_NONE,	/* neither affinity touches the isolated CPUs (or unknown) */
	RTM_IRQ_ISO_MAY,	/* smp_affinity_list includes one: it may land there */
	RTM_IRQ_ISO_LANDS,	/* effective_affinity_list includes one: it lands there */
};
/* Whether an IRQ with affinity @aff (NULL: unknown) reaches the CPUs of @iso. */
enum rtm_irq_isolation rtm_irq_isolation_of(const struct rtm_irq_affinity *aff,
					     const struct rtm_cpulist *iso);
/* Read the affinity of every numbered row of @snap (a snapshot or a difference). */
int rtm_irq_snap_read_affinity(struct rtm_irq_snap *snap, const char *root,
			       struct rtm_error *err);

/* An IRQ thread ("irq/9-acpi") of a threaded or PREEMPT_RT kernel. */
struct rtm_irq_thread {
	int pid;
	int irq;
	char comm[32];			/* "irq/9-acpi" */
	char name[32];			/* "acpi" (the action, cut to the comm length) */
	bool secondary;			/* "irq/9-s-acpi": 2nd thread of a forced IRQ */
	int kpolicy;			/* policy number from /proc/PID/stat */
	bool policy_known;		/* kpolicy maps to @policy */
	enum rtm_policy policy;
	int rt_priority;		/* 1..99 for FIFO/RR, 0 otherwise */
	int nice;
	int cpu;			/* CPU it ran on last */
};

struct rtm_irq_threads {
	int n;
	struct rtm_irq_thread *t;	/* sorted by IRQ, then pid */
};

int rtm_irq_threads_read(const char *root, struct rtm_irq_threads *th, struct rtm_error *err);
void rtm_irq_threads_release(struct rtm_irq_threads *th);

/*
 * Every CPU of @cpus (NULL: none asked) has a column in /proc/interrupts of
 * @s, that is, is online; else -EINVAL with a message naming the first that
 * is not, the CPUs there and the fix (-a).
 */
int rtm_irq_check_cpus(const struct rtm_irq_snap *s, const struct rtm_cpulist *cpus,
		       struct rtm_error *err);

int rtm_irq_delta(const struct rtm_irq_snap *a, const struct rtm_irq_snap *b,
		  struct rtm_irq_snap *out, struct rtm_error *err);

/* @count events over the interval of @d, per second (0 without an interval). */
double rtm_irq_rate_hz(const struct rtm_irq_snap *d, uint64_t count);
/* Events of @row on the CPUs of @cpus (all CPUs when NULL). */
uint64_t rtm_irq_count_on(const struct rtm_irq_snap *s, const struct rtm_irq_row *row,
			  const struct rtm_cpulist *cpus);
/* Row indexes by @counts, most first, ties in row order, zero rows left out. */
int rtm_irq_rank(const uint64_t *counts, int n, int max, int *idx);
int rtm_irq_top(const struct rtm_irq_snap *s, const struct rtm_cpulist *cpus, int n, int *idx);

/*
 * JSON form for result.json: {"interval_ns", "cpus", "total", "rate_hz",
 * "cpu_totals", "irqs": [{"name", "irq", "description", "chip", "hwirq",
 * "trigger", "actions", "count", "rate_hz", "counts", "rates_hz", "affinity"}],
 * "softirqs": {"cpus", "vectors": [...]}, "stat": {...}}. Rows without events
 * are left out unless @all.
 */
json_t *rtm_irq_delta_to_json(const struct rtm_irq_snap *d, bool all);

#endif
