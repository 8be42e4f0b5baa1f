/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ktracer_probe.h - what the kernel tracer probes share on the probe seam
 * (hwlat and osnoise: lib/probe/probe_hwlat.c; timerlat:
 * lib/probe/probe_timerlat.c): the tracer found and checked, the measured
 * CPUs, a private instance that runs it, its events drained into the probe's
 * accumulator, and the clock of what was measured.
 *
 * A probe's own struct starts with a struct rtm_ktprobe, so the ops that only
 * drain and read the clock (snapshot, next_tick_ns, elapsed_s, done, stop)
 * are the ones here. The probe keeps what differs: its tracer's global
 * settings (save, apply, restore) and what it writes into the result.
 */
#ifndef RTM_KTRACER_PROBE_H
#define RTM_KTRACER_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "core/units.h"
#include "probe/ktracer.h"
#include "result/result.h"
#include "tracefs/instance.h"

struct rtm_ktprobe {
	const char *tracer;		/* "hwlat", "osnoise" or "timerlat" */
	const char *fallback;		/* the --backend to use instead: "user", "timer" */
	const char *dir;		/* tracefs top level: the tracer's global files */
	struct rtm_cpulist cpus;	/* the measured CPUs */
	char cpulist[4096];		/* @cpus written out: tracing_cpumask, osnoise/cpus */
	int ncpus;			/* the highest measured CPU + 1 */
	struct rtm_trace *trace;	/* the private instance */
	rtm_event_cb event;		/* the accumulator the events are drained into */
	void *acc;
	struct rtm_ktclock clk;
	uint64_t lost;			/* events the ring buffer lost */
};

/*
 * Find tracefs and check the kernel has @tracer; @fallback is the --backend
 * the messages name. 0, or -1 with @err set.
 */
int rtm_ktprobe_open(struct rtm_ktprobe *k, const char *tracer, const char *fallback,
		     struct rtm_error *err);
/* The measured CPUs: @given, or every online one when none is given. 0 or -errno. */
int rtm_ktprobe_cpus(struct rtm_ktprobe *k, const struct rtm_cpulist *given,
		     struct rtm_error *err);
/* The private instance, its events limited to the measured CPUs. 0, or -1 with @err set. */
int rtm_ktprobe_trace(struct rtm_ktprobe *k, struct rtm_trace_opts *to, struct rtm_error *err);
/* The instance's current_tracer set to the tracer. 0, or -1 with @err set. */
int rtm_ktprobe_set_tracer(struct rtm_ktprobe *k, struct rtm_error *err);
/* Tracing on in the instance. 0, or -1 with @err set. */
int rtm_ktprobe_trace_on(struct rtm_ktprobe *k, struct rtm_error *err);
/* What the instance holds, into the accumulator; the losses counted. */
void rtm_ktprobe_drain(struct rtm_ktprobe *k);
/*
 * The end of measuring: the clock and tracing stopped, the last events
 * drained, what the kernel refused counted, r->duration_ns set.
 */
void rtm_ktprobe_end(struct rtm_ktprobe *k, struct rtm_result *r);
/* The instance removed (current_tracer back to nop first); safe to call twice. */
void rtm_ktprobe_close(struct rtm_ktprobe *k);
/* The CPU list freed (after rtm_ktprobe_close()). */
void rtm_ktprobe_release(struct rtm_ktprobe *k);

/* The probe seam's ops: @p is the probe's struct, which starts with its rtm_ktprobe. */
void rtm_ktprobe_snapshot(void *p, bool boundary);
uint64_t rtm_ktprobe_next_tick_ns(const void *p);
double rtm_ktprobe_elapsed_s(const void *p);
bool rtm_ktprobe_done(const void *p);
void rtm_ktprobe_stop(void *p);

#endif
