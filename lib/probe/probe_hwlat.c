// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe_hwlat.c - the kernel's hwlat and osnoise tracers on the probe seam:
 * `rtmeasure noise --backend hwlat|osnoise`. The kernel's threads do the
 * sampling (the same --window/--width, one thread per measured CPU: hwlat in
 * per-cpu mode with interrupts off, osnoise preemptible with its causes
 * counted); this side configures the tracer, drains its events from a private
 * instance once a second, and puts every global setting back when it ends,
 * however it ends.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "probe/ktracer.h"
#include "probe/probe.h"
#include "tracefs/instance.h"


struct probe_hwlat {
	bool osnoise;			/* the osnoise tracer, else hwlat */
	struct rtm_probe_noise_opts opts;
	struct rtm_cpulist cpus;	/* the measured CPUs (every online one by default) */
	const char *dir;		/* tracefs top level: hwlat's global files */
	struct rtm_hwlat_saved saved;
	struct rtm_osnoise_saved osaved;
	bool applied;			/* the saved settings must be put back */
	struct rtm_trace *trace;
	struct rtm_hwlat_acc *acc;
	struct rtm_osnoise_acc *oacc;
	struct rtm_ktclock clk;
	uint64_t lost;			/* events the ring buffer lost */
};

/* Put back what was changed; safe to call twice. */
static void teardown(struct probe_hwlat *p)
{
	rtm_trace_destroy(p->trace);	/* current_tracer nop first: hwlat resets its thresh */
	p->trace = NULL;
	if (p->applied && p->osnoise)
		rtm_osnoise_restore(p->dir, &p->osaved);
	else if (p->applied)
		rtm_hwlat_restore(p->dir, &p->saved);
	p->applied = false;
}

static void drain(struct probe_hwlat *p)
{
	struct rtm_error err = { "" };
	uint64_t lost = 0;

	if (p->trace && (p->osnoise ?
			 rtm_trace_read(p->trace, rtm_osnoise_acc_event, p->oacc, &lost, &err) :
			 rtm_trace_read(p->trace, rtm_hwlat_acc_event, p->acc, &lost, &err)) >= 0)
		p->lost += lost;
}

static void hwlat_free(void *v)
{
	struct probe_hwlat *p = v;

	if (!p)
		return;
	teardown(p);
	rtm_hwlat_acc_free(p->acc);
	rtm_osnoise_acc_free(p->oacc);
	rtm_cpulist_release(&p->cpus);
	free(p);
}

/* The measured CPUs: @given, or every online one when none is given. */
static int measured_cpus(const struct rtm_cpulist *given, struct rtm_cpulist *cl,
			 struct rtm_error *err)
{
	char buf[4096];
	int ret;

	if (given->n) {
		rtm_cpulist_format(given, buf, sizeof(buf));
		return rtm_cpulist_parse(buf, cl, err);
	}
	ret = rtm_read_small("/sys/devices/system/cpu", "online", buf, sizeof(buf));
	if (ret < 0)
		return rtm_error_setn(err, ret, "cannot read the online CPUs: %s", strerror(-ret));
	return rtm_cpulist_parse(buf, cl, err);
}

/* The tracer's global settings saved, then ours written; 0 or -errno with @err set. */
static int configure(struct probe_hwlat *p, const char *cpus, struct rtm_error *err)
{
	const struct rtm_probe_noise_opts *o = &p->opts;
	/* the tracers count in us: a threshold below 1 us is 1 us */
	uint64_t th = o->threshold_ns < 1000 ? 1 : (o->threshold_ns + 999) / 1000;

	if (p->osnoise) {
		if (rtm_osnoise_save(p->dir, &p->osaved, err))
			return -1;
		p->applied = true;
		return rtm_osnoise_apply(p->dir, th, o->width_ns / 1000, o->window_ns / 1000, cpus,
					 err) ? -1 : 0;
	}
	if (rtm_hwlat_save(p->dir, &p->saved, err))
		return -1;
	p->applied = true;
	return rtm_hwlat_apply(p->dir, th, o->width_ns / 1000, o->window_ns / 1000, "per-cpu",
			       err) ? -1 : 0;
}

static void *kt_start(const void *opts, bool osnoise, struct rtm_error *err)
{
	const struct rtm_probe_noise_opts *o = opts;
	const char *name = osnoise ? "osnoise" : "hwlat";
	/*
	 * 4 MB a CPU: with a low threshold on a noisy box osnoise writes a sample
	 * event per noise (280 k in 3 s under emulation), and a full buffer would
	 * drop the period summaries the figures come from (they count as lost).
	 */
	struct rtm_trace_opts to = {
		.events = osnoise ? "osnoise:sample_threshold" : "", .overwrite = false,
		.buffer_kb = osnoise ? 4096 : 0,
	};
	struct probe_hwlat *p = calloc(1, sizeof(*p));
	char cpus[4096], where[4200];
	int i, max = 0, ret;

	if (!p) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	p->osnoise = osnoise;
	p->opts = *o;
	p->dir = rtm_trace_find_tracefs(err);
	if (!p->dir)
		goto fail;
	if (!rtm_ktracer_has(p->dir, name)) {
		rtm_error_set(err, "this kernel has no %s tracer (CONFIG_%s_TRACER): use --backend "
			      "user", name, osnoise ? "OSNOISE" : "HWLAT");
		goto fail;
	}
	/* osnoise shares itself (and its settings) between instances: refuse, not join */
	if (rtm_ktracer_in_use(p->dir, name, where, sizeof(where)) ||
	    (osnoise && rtm_ktracer_in_use(p->dir, "timerlat", where, sizeof(where)))) {
		rtm_error_set(err, "the %s tracer is in use (%s): stop that user first, or use "
			      "--backend user", name, where);
		goto fail;
	}
	if (measured_cpus(&o->cpus, &p->cpus, err))
		goto fail;
	p->opts.cpus = p->cpus;
	for (i = 0; i < p->cpus.n; i++)
		if (p->cpus.cpus[i] > max)
			max = p->cpus.cpus[i];
	if (osnoise)
		p->oacc = rtm_osnoise_acc_alloc(max + 1, o->report_above_ns, o->max_gaps);
	else
		p->acc = rtm_hwlat_acc_alloc(max + 1, o->report_above_ns, o->max_gaps);
	if (!p->acc && !p->oacc) {
		rtm_error_set(err, "out of memory");
		goto fail;
	}
	rtm_cpulist_format(&p->cpus, cpus, sizeof(cpus));
	to.cpus = cpus;		/* tracing_cpumask: the measured CPUs' events only */
	p->trace = rtm_trace_create(&to, err);
	if (!p->trace)
		goto fail;
	if (configure(p, cpus, err))
		goto fail;
	ret = rtm_trace_set_tracer(p->trace, name);
	if (ret == -EBUSY) {
		rtm_error_set(err, "the %s tracer is in use in another tracing instance or the "
			      "top level (%s/current_tracer): stop that user first, or use "
			      "--backend user", name, p->dir);
		goto fail;
	}
	if (ret == -ENODEV) {
		/* listed but refused in an instance: an older kernel without allow_instances */
		rtm_error_set(err, "this kernel runs the %s tracer only in the top level of "
			      "tracefs, which rtmeasure does not take over: use --backend user",
			      name);
		goto fail;
	}
	if (ret) {
		rtm_error_set(err, "cannot start the %s tracer: %s", name, strerror(-ret));
		goto fail;
	}
	rtm_ktclock_start(&p->clk, p->opts.duration_ns);
	if (rtm_trace_start(p->trace)) {
		rtm_error_set(err, "cannot turn tracing on in %s", rtm_trace_name(p->trace));
		goto fail;
	}
	return p;
fail:
	hwlat_free(p);
	return NULL;
}

static void *hwlat_start(const void *opts, uint64_t ts_interval_ns, struct rtm_error *err)
{
	(void)ts_interval_ns;
	return kt_start(opts, false, err);
}

static void *osnoise_start(const void *opts, uint64_t ts_interval_ns, struct rtm_error *err)
{
	(void)ts_interval_ns;
	return kt_start(opts, true, err);
}

static void hwlat_snapshot(void *v, bool boundary)
{
	struct probe_hwlat *p = v;

	if (rtm_ktclock_due(&p->clk, boundary))
		drain(p);
}

static uint64_t hwlat_next_tick_ns(const void *v)
{
	return ((const struct probe_hwlat *)v)->clk.next_tick_ns;
}

static double hwlat_elapsed_s(const void *v)
{
	return rtm_ktclock_elapsed_s(&((const struct probe_hwlat *)v)->clk);
}

static bool hwlat_done(const void *v)
{
	return rtm_ktclock_done(&((const struct probe_hwlat *)v)->clk);
}

static void hwlat_stop(void *v)
{
	rtm_ktclock_stop(&((struct probe_hwlat *)v)->clk);
}

static int hwlat_finish(void *v, struct rtm_result *r, struct rtm_error *err)
{
	struct probe_hwlat *p = v;
	json_t *sec;

	rtm_ktclock_stop(&p->clk);
	rtm_trace_stop(p->trace);
	drain(p);
	/* streaming: what did not fit was refused by the kernel and counted there */
	p->lost += rtm_trace_dropped(p->trace);
	r->duration_ns = rtm_ktclock_end_ns(&p->clk) - p->clk.start_ns;
	teardown(p);
	sec = p->osnoise ? rtm_osnoise_section(p->oacc, &p->opts, p->clk.start_ns, r->duration_ns) :
		rtm_hwlat_section(p->acc, &p->opts, p->clk.start_ns, r->duration_ns);
	if (!sec)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	json_object_set_new(sec, "events_lost", json_integer((json_int_t)p->lost));
	if (p->opts.backend_reason)
		json_object_set_new(sec, "backend_reason", json_string(p->opts.backend_reason));
	json_object_set_new(r->sections, "noise", sec);
	return 0;
}

const struct rtm_probe_ops rtm_probe_hwlat_ops = {
	.name = "noise",
	.section = "noise",
	.start = hwlat_start,
	.snapshot = hwlat_snapshot,
	.next_tick_ns = hwlat_next_tick_ns,
	.quiet_ns = NULL,
	.elapsed_s = hwlat_elapsed_s,
	.done = hwlat_done,
	.stop = hwlat_stop,
	.finish = hwlat_finish,
	.free = hwlat_free,
	.live_section = NULL,
};

const struct rtm_probe_ops rtm_probe_osnoise_ops = {
	.name = "noise",
	.section = "noise",
	.start = osnoise_start,
	.snapshot = hwlat_snapshot,
	.next_tick_ns = hwlat_next_tick_ns,
	.quiet_ns = NULL,
	.elapsed_s = hwlat_elapsed_s,
	.done = hwlat_done,
	.stop = hwlat_stop,
	.finish = hwlat_finish,
	.free = hwlat_free,
	.live_section = NULL,
};
