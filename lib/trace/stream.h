/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stream.h - the streaming trace instance of a measurement (rtmeasure-PID-stream).
 *
 * One instance on the measured CPUs, not overwriting, drained by the drive loop
 * (every 250 ms) and dispatched to the consumers the measurement wants:
 *   - lib/trace/rtholds.c: real-time tasks that held a CPU longer than a bound
 *     (sched_switch; --rt-hold);
 *   - lib/trace/timerirq.c: the timer IRQ part of each probe wake-up
 *     (hrtimer_start, hrtimer_expire_entry; --timer-irq);
 *   - lib/trace/census.c: a cause for every late wake-up (the spike census),
 *     with the timer IRQ split's expiries;
 *   - lib/trace/noiseattr.c: a cause for every noise gap (noise --trace);
 *   - a tap (rtm_stream_tap_irq()): the handler times of a traced run or the
 *     monitor (lib/irq/handlers.c), which then need no instance of their own.
 * rtmeasure's own threads (the probes, found by name before each drain) are
 * excluded from the holds and followed by the timer IRQ split and the census.
 *
 * The stream never reads a probe: what it needs from them (the timer probe's late
 * wake-ups, the noise probe's gaps) the caller hands to its consumers
 * (rtm_stream_census(), rtm_stream_noiseattr()). At the end it writes its
 * sections (rt_holds, timer_irq, spike_census, the causes in noise) into a
 * result's "sections" object.
 */
#ifndef RTM_STREAM_H
#define RTM_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/error.h"
#include "core/units.h"
#include "tracefs/tracedec.h"

struct rtm_irqacct;

struct rtm_stream_opts {
	const struct rtm_cpulist *cpus;	/* the measured CPUs */
	uint64_t rt_hold_ns;		/* RT tasks holding a CPU longer than this, 0: off */
	bool timer_irq;			/* the timer IRQ part of the probe's wake-ups */
	uint64_t census_ns;		/* the spike census above this (needs timer_irq), 0: off */
	bool noise_causes;		/* a cause for each noise gap */
	uint64_t noise_window_ns;	/* the noise probe's duty cycle (the gaps' tolerance) */
	size_t buffer_kb;		/* per CPU, 0: 4096 */
	const char *own_name;		/* how causes name this process's threads other than
					 * the probes ("this monitor"); NULL: "this rtmeasure" */
	uint64_t wakeup_fn;		/* hrtimer_wakeup's address if the caller has it,
					 * 0: looked up in /proc/kallsyms */
	bool irq_events;		/* the IRQ, softirq (raises too), vector and NMI
					 * events for a handler-time tap (rtm_stream_tap_irq()) */
	/*
	 * The run's flight recorder in the same instance: these events too (presets
	 * or system:event, before the consumers' own), none filtered, and the
	 * newest @keep_kb KB a CPU of what the drains read kept for the spike
	 * windows (rtm_trace_keep()). Every traced event is then written once.
	 */
	const char *flight_events;
	size_t keep_kb;
	bool start_off;			/* tracing left off: rtm_stream_begin() starts it */
};

struct rtm_stream;
struct rtm_trace;
struct rtm_census;
struct rtm_noiseattr;

/*
 * rtm_stream_start - create the instance with the events each wanted consumer
 * needs and start tracing: sched:sched_switch for the holds, timer:hrtimer_start
 * and timer:hrtimer_expire_entry (filtered to hrtimer_wakeup) for the timer IRQ
 * split, the IRQ, softirq, vector, NMI and switch events for the census and the
 * gap causes, the IRQ, softirq, vector and NMI events and the softirq raises for
 * @o->irq_events. NULL with @err set (naming the option that needs a missing event).
 */
struct rtm_stream *rtm_stream_start(const struct rtm_stream_opts *o, struct rtm_error *err);
/*
 * Every event the stream carries handed to @cb too, when the stream carries the
 * IRQ, softirq, vector and NMI events (the census or the gap causes want them,
 * or rtm_stream_opts.irq_events): then true, and a caller needs no instance of
 * its own for handler times (the monitor's, a traced run's). False, and nothing
 * handed, otherwise. The softirq raises, there for @cb alone, go to @cb alone.
 */
bool rtm_stream_tap_irq(struct rtm_stream *st, rtm_event_cb cb, void *ctx);
/*
 * The census's handler times, when the stream has a census: it follows every
 * handler of the stream's CPUs for its intervals and never reads their totals, so
 * a caller that wants handler times (the monitor's table) reads and resets these
 * (rtm_irqacct_reset()) rather than feeding a second accounting the same events.
 * Owned by the stream; NULL without a census.
 */
struct rtm_irqacct *rtm_stream_irqacct(struct rtm_stream *st);
/* The instance (its stale-instance note: rtm_trace_stale_removed(); the flight recorder). */
struct rtm_trace *rtm_stream_trace(const struct rtm_stream *st);
/* Start tracing (and the holds' clock) of a stream started with @start_off. */
void rtm_stream_begin(struct rtm_stream *st);

/* Drain it (the drive loop); nothing after a failed drain or while paused. */
void rtm_stream_poll(struct rtm_stream *st);
/*
 * Events lost so far: counted at the drains and those the kernel reports
 * dropped or overwritten now (rtm_trace_dropped()). Any consumer's, a tap's too.
 * Before rtm_stream_finish(), which adds the dropped ones to the count it keeps.
 */
uint64_t rtm_stream_lost(struct rtm_stream *st);
/* A drain failed (or a consumer ran out of memory): what was found is incomplete. */
bool rtm_stream_failed(const struct rtm_stream *st);
/* Stop and resume tracing (the monitor's key t); what was found so far is kept. */
void rtm_stream_pause(struct rtm_stream *st);
void rtm_stream_resume(struct rtm_stream *st);

/* The holds so far and those going on, one line; "" without the holds. */
void rtm_stream_holds_line(struct rtm_stream *st, char *buf, size_t len);
/* The timer IRQ delay's p99 per CPU so far, one line; "" without the split. */
void rtm_stream_timer_irq_line(struct rtm_stream *st, char *buf, size_t len);
/* The census so far, one line; "" when there is none (or paused). */
void rtm_stream_census_line(struct rtm_stream *st, char *buf, size_t len);
/* sections.timer_irq as it stands (a new reference); NULL without the split. */
json_t *rtm_stream_timer_irq_live(struct rtm_stream *st);

/*
 * The census, to hand it the probe's late wake-ups and the steal time, and when
 * the latest drain began (rtm_census_advance()); NULL when none, paused or failed.
 */
struct rtm_census *rtm_stream_census(struct rtm_stream *st, uint64_t *drained_at);

/* The gap causes being fed (rtm_noiseattr_live_add() of the probe's gaps), or NULL. */
struct rtm_noiseattr *rtm_stream_noiseattr(struct rtm_stream *st);
/* The noise probe's duty-cycle window (rtm_stream_opts), 0 when unknown. */
uint64_t rtm_stream_window_ns(const struct rtm_stream *st);
/* The causes so far into each CPU of a live sections.noise (--prometheus). */
void rtm_stream_noise_live_causes(struct rtm_stream *st, json_t *sec);
/*
 * Drain, then lay the gaps of @noise (a section with start_mono_ns, window_ns and
 * per CPU gap_list) over the events so far (rtm_noiseattr_apply()). -ENOENT when
 * the stream traces no gap causes.
 */
int rtm_stream_noise_apply(struct rtm_stream *st, json_t *noise);

/*
 * rtm_stream_finish - stop, drain, close what is open, and write the sections
 * @sections: a result's "sections": rt_holds, timer_irq, spike_census, and the
 *	causes into its "noise" (the probe's section, written before)
 * @tick_ns: the kernel's tick (RT throttling's slack), 0 when unknown
 * @err: where the warnings go (gap causes or census incomplete), NULL: nowhere
 */
void rtm_stream_finish(struct rtm_stream *st, json_t *sections, uint64_t tick_ns, FILE *err);
void rtm_stream_free(struct rtm_stream *st);

/* Steal time per CPU from /proc/stat in ns (-1: not listed); @n entries. */
void rtm_stream_read_steal(int64_t *steal, int n);
/* The same, from /proc/stat kept open by @st (for a census asking at every drain). */
void rtm_stream_steal(struct rtm_stream *st, int64_t *steal, int n);

#endif
