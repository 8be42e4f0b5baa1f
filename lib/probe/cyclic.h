/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cyclic.h - a timer-latency measuring session: the probe threads, per-interval
 * time series taken from snapshots, and the result at the end.
 *
 * The caller (the command) drives it: rtm_cyclic_tick() at every interval
 * boundary, rtm_cyclic_stats() to show progress, rtm_cyclic_finish() to fill a
 * result. Ticks read snapshots; they never stop or slow the probes.
 */
#ifndef RTM_CYCLIC_H
#define RTM_CYCLIC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "probe/probe_timer.h"
#include "result/result.h"

struct rtm_cyclic;

/* Live figures of one CPU as of the latest tick. */
struct rtm_cyclic_stats {
	int cpu;
	uint64_t samples;
	uint64_t overruns;
	uint64_t cur_ns;
	uint64_t min_ns;
	uint64_t max_ns;
	uint64_t p99_ns;
	uint64_t p999_ns;
	double avg_ns;
	uint64_t implied;		/* coordinated-omission samples so far */
};

struct rtm_cyclic *rtm_cyclic_start(const struct rtm_probe_timer_opts *o, uint64_t ts_interval_ns,
				    struct rtm_error *err);

/* CLOCK_MONOTONIC ns of the next interval boundary, for the caller's sleep. */
uint64_t rtm_cyclic_next_tick_ns(const struct rtm_cyclic *c);
/*
 * The first instant at or after @t_ns that is half a period away from the
 * probes' wake-ups (they wake together at start + k * interval), for the
 * caller's own wake-ups: its work then never lands on a probe's wake-up on any
 * CPU. @t_ns itself when the probes have different periods (-d) or before the
 * start.
 */
uint64_t rtm_cyclic_quiet_ns(const struct rtm_cyclic *c, uint64_t t_ns);
/*
 * After an interval boundary: take snapshots and close the interval; else
 * nothing. Called at a quiet moment after the boundary, the snapshot holds the
 * wake-ups planned up to the boundary.
 */
void rtm_cyclic_tick(struct rtm_cyclic *c);
/* Take snapshots for rtm_cyclic_stats() between boundaries (live display). */
void rtm_cyclic_refresh(struct rtm_cyclic *c);
/*
 * The histograms of CPU slot @i as of the latest interval boundary: the whole
 * run until then and that interval's own (count 0 before the first). Valid
 * until the next rtm_cyclic_tick().
 */
void rtm_cyclic_hists(const struct rtm_cyclic *c, int i, const struct rtm_hist **run,
		      const struct rtm_hist **last);

/* Copy the latest figures of up to @n CPUs; returns the number of CPUs. */
int rtm_cyclic_stats(const struct rtm_cyclic *c, struct rtm_cyclic_stats *out, int n);
/* Seconds measured so far (0 before the aligned start). */
double rtm_cyclic_elapsed_s(const struct rtm_cyclic *c);

bool rtm_cyclic_done(const struct rtm_cyclic *c);
/* The session's probes (captures, break information); valid until free. */
struct rtm_probe_timer *rtm_cyclic_probe(struct rtm_cyclic *c);
void rtm_cyclic_stop(struct rtm_cyclic *c);

/**
 * rtm_cyclic_finish - stop and join the probes and move everything measured into @r
 *
 * Fills r->cpus (raw and corrected histograms, time series, overruns),
 * r->duration_ns, and appends a "break" event when -b stopped the run.
 */
int rtm_cyclic_finish(struct rtm_cyclic *c, struct rtm_result *r, struct rtm_error *err);
void rtm_cyclic_free(struct rtm_cyclic *c);

#endif
