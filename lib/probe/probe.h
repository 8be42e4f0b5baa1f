/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe.h - the seam every probe plugs into, and the one runner that drives it.
 *
 * A probe is a module in lib/ that measures with its own threads and fills its
 * part of a result. It offers a table of operations (rtla's tool ops, without
 * its globals): start the threads, take snapshots while they run (at interval
 * boundaries, and for live figures), stop them, and at the end fill the result
 * section it owns. The runner gives cyclic, run, monitor and noise one way to
 * drive any probe: start, sleep to the next boundary, snapshot, until done or
 * stopped, then finish. The command keeps only wiring (options, output).
 */
#ifndef RTM_PROBE_H
#define RTM_PROBE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "result/result.h"

/**
 * struct rtm_probe_ops - one probe as the runner sees it
 * @name: "timer", "noise": what result.json's options and messages call it
 * @section: the part of a result finish() fills: "cpus" (r->cpus, the latency
 *	histograms) or the key under r->sections ("noise")
 * @start: check @opts (the probe's own options struct), allocate everything,
 *	start one thread per CPU; NULL with @err set, nothing left running
 * @snapshot: copy the threads' figures without stopping them; @boundary: close
 *	the interval that ended (a no-op before the next boundary), else only
 *	refresh the live figures
 * @next_tick_ns: CLOCK_MONOTONIC of the next interval boundary
 * @quiet_ns: the first instant at or after @t_ns at which waking the reader
 *	does not meet a probe's own wake-up (NULL: any instant)
 * @elapsed_s: seconds measured so far
 * @done: every thread has left its loop (duration, loops, a break)
 * @stop: ask the threads to stop; does not wait
 * @finish: join the threads and move what they measured into @r (its
 *	@section, r->duration_ns, events)
 * @free: release everything (after finish, or instead of it)
 * @live_section: the probe's @section as finish() would fill it, from fresh
 *	snapshots of the running threads, without per-event lists (for live
 *	readers: --prometheus); a new reference, NULL when out of memory. NULL
 *	op: the probe has no such form (the timer session is read through
 *	struct rtm_cyclic)
 */
struct rtm_probe_ops {
	const char *name;
	const char *section;
	void *(*start)(const void *opts, uint64_t ts_interval_ns, struct rtm_error *err);
	void (*snapshot)(void *p, bool boundary);
	uint64_t (*next_tick_ns)(const void *p);
	uint64_t (*quiet_ns)(const void *p, uint64_t t_ns);
	double (*elapsed_s)(const void *p);
	bool (*done)(const void *p);
	void (*stop)(void *p);
	int (*finish)(void *p, struct rtm_result *r, struct rtm_error *err);
	void (*free)(void *p);
	json_t *(*live_section)(void *p);
};

/* The probes (lib/probe/cyclic.c: the timer session; lib/probe/probe_noise.c). */
extern const struct rtm_probe_ops rtm_probe_timer_ops;	/* opts: rtm_probe_timer_opts */
extern const struct rtm_probe_ops rtm_probe_noise_ops;	/* opts: rtm_probe_noise_opts */

struct rtm_probe_run;

/* Start @ops with @opts; NULL with @err set (nothing left running). */
struct rtm_probe_run *rtm_probe_run_start(const struct rtm_probe_ops *ops, const void *opts,
					  uint64_t ts_interval_ns, struct rtm_error *err);

/*
 * Sleep until the next interval boundary, or @max_sleep_ns at most, moved to a
 * quiet moment (never together with the probes' wake-ups). A signal ends the
 * sleep early.
 */
void rtm_probe_run_wait(struct rtm_probe_run *run, uint64_t max_sleep_ns);
/* After a boundary: snapshots, the interval closed; else nothing. */
void rtm_probe_run_tick(struct rtm_probe_run *run);
/* Fresh snapshots for live figures between boundaries. */
void rtm_probe_run_refresh(struct rtm_probe_run *run);
double rtm_probe_run_elapsed_s(const struct rtm_probe_run *run);
bool rtm_probe_run_done(const struct rtm_probe_run *run);
void rtm_probe_run_stop(struct rtm_probe_run *run);
/* Join the probe and fill its section of @r; 0 or -errno with @err set. */
int rtm_probe_run_finish(struct rtm_probe_run *run, struct rtm_result *r, struct rtm_error *err);
void rtm_probe_run_free(struct rtm_probe_run *run);
/* The probe's section from fresh snapshots (ops->live_section); NULL when it has none. */
json_t *rtm_probe_run_live_section(struct rtm_probe_run *run);

const struct rtm_probe_ops *rtm_probe_run_ops(const struct rtm_probe_run *run);

/* ---- for the probes' own ops (probe.c) */

/*
 * elapsed_s: seconds since @start_ns on CLOCK_MONOTONIC (0 before it), at
 * most @duration_ns (0: no end).
 */
double rtm_probe_elapsed_s(uint64_t start_ns, uint64_t duration_ns);
/*
 * snapshot() at a boundary (@boundary): false while *@next_tick_ns is still
 * to come, else true with it moved past now by steps of @tick_ns. Between
 * boundaries: true, nothing moved.
 */
bool rtm_probe_tick(uint64_t *next_tick_ns, uint64_t tick_ns, bool boundary);
/*
 * pthread_create() with every signal blocked, so that a probe thread never
 * takes the command's signals; 0 or pthread_create()'s error number.
 */
int rtm_probe_thread_create(pthread_t *tid, void *(*fn)(void *), void *arg);
/*
 * The probe's own handle, for readers that know which probe it is (the timer
 * session's struct rtm_cyclic: live lines, captures, Prometheus).
 */
void *rtm_probe_run_probe(const struct rtm_probe_run *run);

#endif
