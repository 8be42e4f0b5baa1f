// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe_hwlat.c - the kernel's hwlat and osnoise tracers on the probe seam:
 * `rtmeasure noise --backend hwlat|osnoise`. The kernel's threads do the
 * sampling (the same --window/--width, one thread per measured CPU: hwlat in
 * per-cpu mode with interrupts off, osnoise preemptible with its causes
 * counted); this side configures the tracer, drains its events from a private
 * instance once a second (lib/probe/ktracer_probe.c), and puts every global
 * setting back when it ends, however it ends: on SIGKILL, the next run does,
 * from the journal written before the first change (lib/probe/ktjournal.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/ktracer.h"
#include "probe/ktracer_probe.h"
#include "probe/probe.h"

struct probe_hwlat {
	struct rtm_ktprobe k;		/* first: the shared ops take it */
	bool osnoise;			/* the osnoise tracer, else hwlat */
	struct rtm_probe_noise_opts opts;
	struct rtm_hwlat_saved saved;
	struct rtm_osnoise_saved osaved;
	struct rtm_ktjournal journal;	/* the saved settings, for a run after a SIGKILL */
	bool applied;			/* the saved settings must be put back */
};

/* Put back what was changed; safe to call twice. */
static void teardown(struct probe_hwlat *p)
{
	int ret = 0;

	rtm_ktprobe_close(&p->k);	/* current_tracer nop first: hwlat resets its thresh */
	if (p->applied && p->osnoise)
		ret = rtm_osnoise_restore(p->k.dir, &p->osaved);
	else if (p->applied)
		ret = rtm_hwlat_restore(p->k.dir, &p->saved);
	/* not all put back: the journal stays, and the next run tries again */
	rtm_ktjournal_close(&p->journal, ret == 0);
	p->applied = false;
}

static void hwlat_free(void *v)
{
	struct probe_hwlat *p = v;

	if (!p)
		return;
	teardown(p);
	if (p->osnoise)
		rtm_osnoise_acc_free(p->k.acc);
	else
		rtm_hwlat_acc_free(p->k.acc);
	rtm_ktprobe_release(&p->k);
	free(p);
}

/* The tracer's global settings saved, then ours written; 0 or -errno with @err set. */
static int configure(struct probe_hwlat *p, struct rtm_error *err)
{
	const struct rtm_probe_noise_opts *o = &p->opts;
	const char *dir = p->k.dir;
	/* the tracers count in us: a threshold below 1 us is 1 us */
	uint64_t th = o->threshold_ns < 1000 ? 1 : (o->threshold_ns + 999) / 1000;

	if (p->osnoise) {
		if (rtm_osnoise_save(dir, &p->osaved, err) ||
		    rtm_ktjournal_write(&p->journal, dir, "osnoise", &p->osaved, err))
			return -1;
		p->applied = true;
		return rtm_osnoise_apply(dir, th, o->width_ns / 1000, o->window_ns / 1000,
					 p->k.cpulist, err) ? -1 : 0;
	}
	if (rtm_hwlat_save(dir, &p->saved, err) ||
	    rtm_ktjournal_write(&p->journal, dir, "hwlat", &p->saved, err))
		return -1;
	p->applied = true;
	return rtm_hwlat_apply(dir, th, o->width_ns / 1000, o->window_ns / 1000, "per-cpu",
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
	char where[4200];

	if (!p) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	p->osnoise = osnoise;
	p->opts = *o;
	if (rtm_ktprobe_open(&p->k, name, "user", err))
		goto fail;
	/* osnoise shares itself (and its settings) between instances: refuse, not join */
	if (rtm_ktracer_in_use(p->k.dir, name, where, sizeof(where)) ||
	    (osnoise && rtm_ktracer_in_use(p->k.dir, "timerlat", where, sizeof(where)))) {
		rtm_error_set(err, "the %s tracer is in use (%s): stop that user first, or use "
			      "--backend user", name, where);
		goto fail;
	}
	if (rtm_ktprobe_cpus(&p->k, &o->cpus, err))
		goto fail;
	p->opts.cpus = p->k.cpus;
	if (osnoise) {
		p->k.event = rtm_osnoise_acc_event;
		p->k.acc = rtm_osnoise_acc_alloc(p->k.ncpus, o->report_above_ns, o->max_gaps);
	} else {
		p->k.event = rtm_hwlat_acc_event;
		p->k.acc = rtm_hwlat_acc_alloc(p->k.ncpus, o->report_above_ns, o->max_gaps);
	}
	if (!p->k.acc) {
		rtm_error_set(err, "out of memory");
		goto fail;
	}
	if (rtm_ktprobe_trace(&p->k, &to, err) || configure(p, err) ||
	    rtm_ktprobe_set_tracer(&p->k, err))
		goto fail;
	rtm_ktclock_start(&p->k.clk, p->opts.duration_ns);
	if (rtm_ktprobe_trace_on(&p->k, err))
		goto fail;
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

static int hwlat_finish(void *v, struct rtm_result *r, struct rtm_error *err)
{
	struct probe_hwlat *p = v;
	uint64_t start_ns = p->k.clk.start_ns;
	json_t *sec;

	rtm_ktprobe_end(&p->k, r);
	teardown(p);
	sec = p->osnoise ? rtm_osnoise_section(p->k.acc, &p->opts, start_ns, r->duration_ns) :
		rtm_hwlat_section(p->k.acc, &p->opts, start_ns, r->duration_ns);
	if (!sec)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	json_object_set_new(sec, "events_lost", json_integer((json_int_t)p->k.lost));
	if (p->opts.backend_reason)
		json_object_set_new(sec, "backend_reason", json_string(p->opts.backend_reason));
	json_object_set_new(r->sections, "noise", sec);
	return 0;
}

const struct rtm_probe_ops rtm_probe_hwlat_ops = {
	.name = "noise",
	.section = "noise",
	.start = hwlat_start,
	.snapshot = rtm_ktprobe_snapshot,
	.next_tick_ns = rtm_ktprobe_next_tick_ns,
	.quiet_ns = NULL,
	.elapsed_s = rtm_ktprobe_elapsed_s,
	.done = rtm_ktprobe_done,
	.stop = rtm_ktprobe_stop,
	.finish = hwlat_finish,
	.free = hwlat_free,
	.live_section = NULL,
};

const struct rtm_probe_ops rtm_probe_osnoise_ops = {
	.name = "noise",
	.section = "noise",
	.start = osnoise_start,
	.snapshot = rtm_ktprobe_snapshot,
	.next_tick_ns = rtm_ktprobe_next_tick_ns,
	.quiet_ns = NULL,
	.elapsed_s = rtm_ktprobe_elapsed_s,
	.done = rtm_ktprobe_done,
	.stop = rtm_ktprobe_stop,
	.finish = hwlat_finish,
	.free = hwlat_free,
	.live_section = NULL,
};
