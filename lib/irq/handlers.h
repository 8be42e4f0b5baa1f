/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * handlers.h - interrupt handler time from trace events.
 *
 * Fed the decoded events of each CPU in time order (rtm_irqacct_event() is an
 * rtm_event_cb), it pairs irq_handler_entry/exit, irq_vectors *_entry/exit and
 * softirq_entry/exit per CPU and keeps, per source and CPU, the count, total and
 * longest handler time, and per source a histogram of handler durations. A
 * softirq's time excludes the hard interrupts nested in it. softirq_raise gives
 * the raise-to-run delay; nmi_handler its own duration; on threaded and RT
 * kernels, the run time of IRQ threads (irq/N-name) and of the softirq threads
 * (ksoftirqd/N, ktimers/N) comes from sched_switch.
 *
 * An exit whose entry came before the trace began is not counted (its start is
 * unknown); rtm_irqacct_unpaired() says how many there were.
 */
#ifndef RTM_IRQACCT_H
#define RTM_IRQACCT_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/hist.h"
#include "tracefs/tracedec.h"
#include "core/units.h"

enum rtm_irqsrc_kind {
	RTM_IRQSRC_IRQ,			/* numbered hard IRQ (irq_handler_entry/exit) */
	RTM_IRQSRC_VECTOR,		/* x86 system vector: local_timer, call_function, ... */
	RTM_IRQSRC_SOFTIRQ,
	RTM_IRQSRC_NMI,			/* an NMI handler (nmi_handler's delta_ns) */
	RTM_IRQSRC_THREAD,		/* irq/N-name, ksoftirqd/N, ktimers/N run time */
};

const char *rtm_irqsrc_kind_name(enum rtm_irqsrc_kind k);
/* "HI", "TIMER", ... "RCU"; "?" for an unknown vector. */
const char *rtm_softirq_name(unsigned int vec);

struct rtm_irqacct_cpu {
	uint64_t count;
	uint64_t total_ns;
	uint64_t max_ns;
	uint64_t raised;		/* softirq: raises that were followed by a run */
	uint64_t raise_delay_total_ns;	/* softirq: raise -> entry */
	uint64_t raise_delay_max_ns;
};

struct rtm_irqsrc {
	enum rtm_irqsrc_kind kind;
	int id;				/* IRQ number, softirq vector, thread pid; else -1 */
	char name[48];			/* "virtio0-input.0", "local_timer", "NET_RX", "irq/24-virtio0" */
	struct rtm_irqacct_cpu *cpu;	/* [ncpus] */
	struct rtm_hist *dur;		/* handler durations, all CPUs */
};

struct rtm_irqacct;

/* @ncpus: CPU numbers 0 .. ncpus-1 are accounted (events of others are ignored). */
struct rtm_irqacct *rtm_irqacct_alloc(int ncpus);
void rtm_irqacct_free(struct rtm_irqacct *a);

/* Account one event (an rtm_event_cb; @ctx is the rtm_irqacct). Returns 0 or -ENOMEM. */
int rtm_irqacct_event(const struct rtm_event *ev, void *ctx);

/* Forget the counts (open handlers stay open); for per-interval tables. */
void rtm_irqacct_reset(struct rtm_irqacct *a);

int rtm_irqacct_ncpus(const struct rtm_irqacct *a);
/* The sources seen so far, in the order first seen; valid until the next event. */
const struct rtm_irqsrc *rtm_irqacct_sources(const struct rtm_irqacct *a, int *n);
/* Sum of a source's per-CPU figures over the CPUs in @cpus (NULL: all). */
void rtm_irqsrc_total(const struct rtm_irqsrc *s, int ncpus, const struct rtm_cpulist *cpus,
		      struct rtm_irqacct_cpu *out);
/*
 * Whether a trace source (@kind as rtm_irqsrc_kind_name(), @id, @name) counts the
 * interrupts of the /proc/interrupts row @row_name (@row_irq, -1 for named rows):
 * IRQ N by number, LOC with local_timer, CAL with call_function(_single), ...
 */
bool rtm_irqsrc_matches(const char *row_name, int row_irq, const char *kind, int id,
			const char *name);
/*
 * The handler time of the /proc/interrupts row @row_name (@row_irq) on the CPUs
 * in @cpus (NULL: all): the sum over the sources rtm_irqsrc_matches() gives it.
 * All zero when @a is NULL (not tracing).
 */
void rtm_irqacct_row_total(const struct rtm_irqacct *a, const char *row_name, int row_irq,
			   const struct rtm_cpulist *cpus, struct rtm_irqacct_cpu *out);
/* Exits seen without their entry (handlers running when the trace began). */
uint64_t rtm_irqacct_unpaired(const struct rtm_irqacct *a);

/*
 * One handler run as it is accounted (hard IRQ, vector, softirq, NMI; not IRQ
 * threads): for charging it to the task it interrupted (irq/charged.h). @own_ns is
 * the time added to its source: a softirq's without the hard IRQs nested in it.
 */
struct rtm_irqspan {
	int cpu;
	enum rtm_irqsrc_kind kind;
	uint64_t start_ns, end_ns, own_ns;
	int id;				/* the source's (rtm_irqsrc) */
	const char *name;		/* the source's; valid during the callback */
};
typedef void (*rtm_irqspan_cb)(const struct rtm_irqspan *span, void *ctx);
void rtm_irqacct_set_span_cb(struct rtm_irqacct *a, rtm_irqspan_cb cb, void *ctx);

/*
 * JSON: {"sources": [{"kind", "id", "name", "count", "total_ns", "max_ns",
 * "durations" (histogram), "per_cpu": [{"cpu", "count", "total_ns", "max_ns",
 * ...}]}], "unpaired"}; CPUs without events are left out of per_cpu.
 */
json_t *rtm_irqacct_to_json(const struct rtm_irqacct *a);

#endif
