// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cyclic.c - timer-latency measuring session (probe + time series + result).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "probe/cyclic.h"
#include "probe/probe.h"
#include "core/timeseries.h"

struct cyclic_cpu {
	struct rtm_hist *prev;		/* cumulative snapshot at the last boundary */
	struct rtm_hist *cur;		/* scratch for the newest snapshot */
	struct rtm_hist *delta;		/* scratch: cur - prev */
	struct rtm_ts *ts;
	struct rtm_cyclic_stats stats;
};

struct rtm_cyclic {
	struct rtm_probe_timer *probe;
	uint64_t ts_interval_ns;
	uint64_t start_ns;
	uint64_t next_tick_ns;
	uint64_t last_tick_ns;		/* boundary the prev snapshots belong to */
	uint64_t duration_ns;
	uint64_t interval_ns;		/* the probes' period, 0 when they differ (-d) */
	int n;
	struct cyclic_cpu *cpus;
	bool finished;
};

void rtm_cyclic_free(struct rtm_cyclic *c)
{
	int i;

	if (!c)
		return;
	rtm_probe_timer_free(c->probe);
	for (i = 0; c->cpus && i < c->n; i++) {
		rtm_hist_free(c->cpus[i].prev);
		rtm_hist_free(c->cpus[i].cur);
		rtm_hist_free(c->cpus[i].delta);
		rtm_ts_free(c->cpus[i].ts);
	}
	free(c->cpus);
	free(c);
}

struct rtm_cyclic *rtm_cyclic_start(const struct rtm_probe_timer_opts *o, uint64_t ts_interval_ns,
				    struct rtm_error *err)
{
	struct rtm_cyclic *c = calloc(1, sizeof(*c));
	int i;

	if (!c)
		goto nomem;
	c->ts_interval_ns = ts_interval_ns ? ts_interval_ns : RTM_TS_DEFAULT_INTERVAL_NS;
	c->duration_ns = o->duration_ns;
	c->interval_ns = o->distance_ns && o->cpus.n > 1 ? 0 : o->interval_ns;
	c->n = o->cpus.n;
	c->cpus = calloc((size_t)c->n, sizeof(*c->cpus));
	if (!c->cpus)
		goto nomem;
	/* allocate everything before the probes lock memory and start */
	for (i = 0; i < c->n; i++) {
		struct cyclic_cpu *cc = &c->cpus[i];

		cc->prev = rtm_hist_alloc();
		cc->cur = rtm_hist_alloc();
		cc->delta = rtm_hist_alloc();
		cc->ts = rtm_ts_alloc(c->ts_interval_ns, 0);
		/* each interval's histogram: compare resamples intervals to bound a percentile */
		if (!cc->prev || !cc->cur || !cc->delta || !cc->ts || rtm_ts_keep_hists(cc->ts))
			goto nomem;
		cc->stats.cpu = o->cpus.cpus[i];
		cc->stats.min_ns = UINT64_MAX;
	}
	c->probe = rtm_probe_timer_start(o, err);
	if (!c->probe) {
		rtm_cyclic_free(c);
		return NULL;
	}
	c->start_ns = rtm_probe_timer_start_ns(c->probe);
	c->last_tick_ns = c->start_ns;
	c->next_tick_ns = c->start_ns + c->ts_interval_ns;
	return c;
nomem:
	rtm_error_set(err, "out of memory");
	rtm_cyclic_free(c);
	return NULL;
}

uint64_t rtm_cyclic_next_tick_ns(const struct rtm_cyclic *c)
{
	return c->next_tick_ns;
}

uint64_t rtm_cyclic_quiet_ns(const struct rtm_cyclic *c, uint64_t t_ns)
{
	uint64_t half, k;

	if (!c->interval_ns || t_ns <= c->start_ns)
		return t_ns;
	/* the probes wake at start + k * I: the quiet moments are start + k * I + I/2 */
	half = c->interval_ns / 2;
	k = (t_ns - c->start_ns + c->interval_ns - half - 1) / c->interval_ns;
	return c->start_ns + k * c->interval_ns + half;
}

double rtm_cyclic_elapsed_s(const struct rtm_cyclic *c)
{
	uint64_t now = rtm_clock_ns(CLOCK_MONOTONIC);

	if (now <= c->start_ns)
		return 0;
	now -= c->start_ns;
	if (c->duration_ns && now > c->duration_ns)
		now = c->duration_ns;
	return (double)now / 1e9;
}

/* Snapshot every CPU; close the interval [last_tick, @boundary) into the series. */
static void sample(struct rtm_cyclic *c, uint64_t boundary, bool close_interval)
{
	int i;

	for (i = 0; i < c->n; i++) {
		struct cyclic_cpu *cc = &c->cpus[i];
		struct rtm_probe_cpu_snap snap;
		struct rtm_hist *tmp;

		rtm_probe_timer_snapshot(c->probe, i, &snap, cc->cur, NULL);
		cc->stats.samples = snap.samples;
		cc->stats.overruns = snap.overruns;
		cc->stats.implied = snap.implied;
		cc->stats.cur_ns = snap.last_ns;
		cc->stats.min_ns = cc->cur->count ? cc->cur->min_ns : UINT64_MAX;
		cc->stats.max_ns = cc->cur->max_ns;
		cc->stats.avg_ns = rtm_hist_mean(cc->cur);
		cc->stats.p99_ns = rtm_hist_percentile(cc->cur, 99.0);
		cc->stats.p999_ns = rtm_hist_percentile(cc->cur, 99.9);
		if (!close_interval || boundary <= c->last_tick_ns)
			continue;
		if (rtm_hist_diff(cc->delta, cc->cur, cc->prev) == 0) {
			struct rtm_ts_point pt = {
				.start_ns = c->last_tick_ns - c->start_ns,
				.width_ns = boundary - c->last_tick_ns,
				.count = cc->delta->count,
				.min_ns = cc->delta->count ? cc->delta->min_ns : UINT64_MAX,
				.max_ns = cc->delta->count ? cc->delta->max_ns : 0,
				.p99_ns = cc->delta->count ? rtm_hist_percentile(cc->delta, 99.0) : 0,
			};

			rtm_ts_add_hist(cc->ts, &pt, cc->delta);
		}
		tmp = cc->prev;
		cc->prev = cc->cur;
		cc->cur = tmp;
	}
	if (close_interval && boundary > c->last_tick_ns)
		c->last_tick_ns = boundary;
}

void rtm_cyclic_hists(const struct rtm_cyclic *c, int i, const struct rtm_hist **run,
		      const struct rtm_hist **last)
{
	*run = c->cpus[i].prev;
	*last = c->cpus[i].delta;
}

void rtm_cyclic_refresh(struct rtm_cyclic *c)
{
	sample(c, 0, false);
}

void rtm_cyclic_tick(struct rtm_cyclic *c)
{
	uint64_t now = rtm_clock_ns(CLOCK_MONOTONIC);

	if (now < c->next_tick_ns)
		return;
	/* an interval ends at its boundary; late ticks still close at the boundary */
	sample(c, c->next_tick_ns, true);
	while (c->next_tick_ns <= now)
		c->next_tick_ns += c->ts_interval_ns;
}

int rtm_cyclic_stats(const struct rtm_cyclic *c, struct rtm_cyclic_stats *out, int n)
{
	int i;

	for (i = 0; i < c->n && i < n; i++)
		out[i] = c->cpus[i].stats;
	return c->n;
}

bool rtm_cyclic_done(const struct rtm_cyclic *c)
{
	return rtm_probe_timer_done(c->probe);
}

void rtm_cyclic_stop(struct rtm_cyclic *c)
{
	rtm_probe_timer_stop(c->probe);
}

/* Move the --log-above entries of thread @i into r->events. */
static void log_spikes(struct rtm_cyclic *c, int i, struct rtm_result *r)
{
	const struct rtm_probe_spike *log;
	uint64_t dropped;
	uint32_t n, k;

	n = rtm_probe_timer_spikes(c->probe, i, &log, &dropped);
	for (k = 0; k < n; k++)
		json_array_append_new(r->events, json_pack("{s:s, s:i, s:I, s:I, s:I}",
			"type", "spike", "cpu", c->cpus[i].stats.cpu,
			"planned_ns", (json_int_t)(log[k].planned_ns - c->start_ns),
			"planned_mono_ns", (json_int_t)log[k].planned_ns,
			"latency_ns", (json_int_t)log[k].latency_ns));
	if (dropped)
		json_array_append_new(r->events, json_pack("{s:s, s:i, s:I}",
			"type", "spikes_dropped", "cpu", c->cpus[i].stats.cpu,
			"count", (json_int_t)dropped));
}

struct rtm_probe_timer *rtm_cyclic_probe(struct rtm_cyclic *c)
{
	return c->probe;
}

int rtm_cyclic_finish(struct rtm_cyclic *c, struct rtm_result *r, struct rtm_error *err)
{
	struct rtm_probe_hit brk;
	uint64_t end, planned_end;
	int i;

	rtm_probe_timer_join(c->probe);
	end = rtm_clock_ns(CLOCK_MONOTONIC);
	planned_end = c->duration_ns ? c->start_ns + c->duration_ns : end;
	if (end > planned_end)
		end = planned_end;
	if (end < c->start_ns)
		end = c->start_ns;
	/* the last, partial interval */
	sample(c, end, true);
	r->duration_ns = end - c->start_ns;

	for (i = 0; i < c->n; i++) {
		struct cyclic_cpu *cc = &c->cpus[i];
		struct rtm_probe_cpu_snap snap;
		struct rtm_result_cpu *rc;

		rc = rtm_result_add_cpu(r, cc->stats.cpu, true, 0);
		if (!rc)
			return rtm_error_setn(err, -ENOMEM, "out of memory");
		rtm_probe_timer_snapshot(c->probe, i, &snap, rc->raw, rc->corrected);
		rc->overruns = snap.overruns;
		rc->ts = cc->ts;		/* hand over the series */
		cc->ts = NULL;
		log_spikes(c, i, r);
	}
	rtm_probe_timer_break_info(c->probe, &brk);
	if (brk.hit)
		json_array_append_new(r->events, json_pack("{s:s, s:i, s:I, s:I, s:I, s:I, s:I}",
			"type", "break", "cpu", brk.cpu, "latency_ns", (json_int_t)brk.latency_ns,
			"planned_ns", (json_int_t)(brk.planned_ns - c->start_ns),
			"woke_ns", (json_int_t)(brk.woke_ns - c->start_ns),
			"planned_mono_ns", (json_int_t)brk.planned_ns,
			"sample", (json_int_t)brk.sample));
	c->finished = true;
	return 0;
}

/* ------------------------------------------------------------ the probe seam */

static void *timer_start(const void *opts, uint64_t ts_interval_ns, struct rtm_error *err)
{
	return rtm_cyclic_start(opts, ts_interval_ns, err);
}

static void timer_snapshot(void *p, bool boundary)
{
	if (boundary)
		rtm_cyclic_tick(p);
	else
		rtm_cyclic_refresh(p);
}

static uint64_t timer_next_tick_ns(const void *p)
{
	return rtm_cyclic_next_tick_ns(p);
}

static uint64_t timer_quiet_ns(const void *p, uint64_t t_ns)
{
	return rtm_cyclic_quiet_ns(p, t_ns);
}

static double timer_elapsed_s(const void *p)
{
	return rtm_cyclic_elapsed_s(p);
}

static bool timer_done(const void *p)
{
	return rtm_cyclic_done(p);
}

static void timer_stop(void *p)
{
	rtm_cyclic_stop(p);
}

static int timer_finish(void *p, struct rtm_result *r, struct rtm_error *err)
{
	return rtm_cyclic_finish(p, r, err);
}

static void timer_free(void *p)
{
	rtm_cyclic_free(p);
}

const struct rtm_probe_ops rtm_probe_timer_ops = {
	.name = "timer",
	.section = "cpus",
	.start = timer_start,
	.snapshot = timer_snapshot,
	.next_tick_ns = timer_next_tick_ns,
	.quiet_ns = timer_quiet_ns,
	.elapsed_s = timer_elapsed_s,
	.done = timer_done,
	.stop = timer_stop,
	.finish = timer_finish,
	.free = timer_free,
};
