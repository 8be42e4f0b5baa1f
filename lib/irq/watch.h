/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * watch.h - the rates of `rtmeasure irq`, interval by interval: a snapshot of
 * /proc at each boundary, and with tracing the handler times of the interval
 * and of the whole run from a streaming instance drained at the same time.
 */
#ifndef RTM_IRQ_WATCH_H
#define RTM_IRQ_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "core/units.h"
#include "irq/handlers.h"
#include "irq/irq.h"

struct rtm_trace;

struct rtm_irq_watch {
	const char *root;		/* "/" or a recorded tree */
	const struct rtm_cpulist *cpus;	/* borrowed; NULL: all CPUs */
	struct rtm_trace *trace;	/* NULL without tracing; its stale note is the caller's */
	struct rtm_irqacct *iv, *all;	/* handler times: this interval, the whole run */
	uint64_t start_ns;		/* CLOCK_MONOTONIC when the counts began */
	struct rtm_irq_snap first, prev;	/* prev: the last one read, once there is */
	bool have_prev;
	uint64_t lost;			/* trace events lost while draining */
};

/*
 * Set up @w for the snapshots under @root on @cpus (NULL: all), and with
 * @trace create the streaming instance (not started). 0, or -errno with a
 * message (all is released then).
 */
int rtm_irq_watch_open(struct rtm_irq_watch *w, const char *root,
		       const struct rtm_cpulist *cpus, bool trace, struct rtm_error *err);
/*
 * Tracing on and the first snapshot (the counts start with the trace); the
 * CPUs are checked against it. 0, or -errno with a message.
 */
int rtm_irq_watch_start(struct rtm_irq_watch *w, struct rtm_error *err);
/*
 * At an interval boundary: a snapshot, the difference since the last one
 * into @d (release it with rtm_irq_snap_release()), and the handler times of
 * the interval into w->iv. @last: tracing is switched off before the drain,
 * so the trace ends with the counts. 0, or -errno with a message.
 */
int rtm_irq_watch_step(struct rtm_irq_watch *w, bool last, struct rtm_irq_snap *d,
		       struct rtm_error *err);
/* Trace events lost so far, 0 without tracing. */
uint64_t rtm_irq_watch_lost(const struct rtm_irq_watch *w);
/* Tracing off and the instance removed; the figures stay. */
void rtm_irq_watch_stop(struct rtm_irq_watch *w);
/*
 * The whole run: {"interrupts": rtm_irq_delta_to_json(), and with tracing
 * "handlers": rtm_irqacct_to_json(), "trace_lost"}. NULL with a message.
 */
json_t *rtm_irq_watch_to_json(const struct rtm_irq_watch *w, struct rtm_error *err);
/* Everything freed; safe after a failed open. */
void rtm_irq_watch_release(struct rtm_irq_watch *w);

#endif
