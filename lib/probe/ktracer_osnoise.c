// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ktracer_osnoise.c - the osnoise tracer's global settings (save, apply,
 * restore) and its figures gathered into sections.noise: per CPU the periods'
 * runtime, noise and largest single noise with the interference counts by
 * cause (ftrace:osnoise, what `rtla osnoise top` sums), and every noise above
 * the threshold (osnoise:sample_threshold) as a gap.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/hist.h"
#include "probe/ktracer.h"

int rtm_osnoise_save(const char *dir, struct rtm_osnoise_saved *s, struct rtm_error *err)
{
	const struct rtm_ktracer_file files[] = {
		{ "tracing_thresh", s->thresh, sizeof(s->thresh) },
		{ "osnoise/runtime_us", s->runtime, sizeof(s->runtime) },
		{ "osnoise/period_us", s->period, sizeof(s->period) },
		{ "osnoise/stop_tracing_us", s->stop, sizeof(s->stop) },
		{ "osnoise/stop_tracing_total_us", s->stop_total, sizeof(s->stop_total) },
		{ "osnoise/cpus", s->cpus, sizeof(s->cpus) },
	};

	memset(s, 0, sizeof(*s));
	return rtm_ktracer_save(dir, files, sizeof(files) / sizeof(files[0]), err);
}

int rtm_osnoise_apply(const char *dir, uint64_t thresh_us, uint64_t runtime_us,
		      uint64_t period_us, const char *cpus, struct rtm_error *err)
{
	char th[32], rt[32], pd[32];
	int ret;

	snprintf(th, sizeof(th), "%llu", (unsigned long long)thresh_us);
	snprintf(rt, sizeof(rt), "%llu", (unsigned long long)runtime_us);
	snprintf(pd, sizeof(pd), "%llu", (unsigned long long)period_us);
	ret = rtm_ktracer_write(dir, "tracing_thresh", th);
	if (!ret)
		ret = rtm_ktracer_write(dir, "osnoise/stop_tracing_us", "0");
	if (!ret)
		ret = rtm_ktracer_write(dir, "osnoise/stop_tracing_total_us", "0");
	if (ret)
		return rtm_error_setn(err, ret, "cannot write osnoise's settings under %s: %s",
				      dir, strerror(-ret));
	ret = rtm_ktracer_write_duty(dir, "osnoise/runtime_us", rt, "osnoise/period_us", pd);
	if (ret)
		return rtm_error_setn(err, ret, "cannot set osnoise's runtime %s us of period %s "
				      "us in %s/osnoise: %s", rt, pd, dir, strerror(-ret));
	ret = rtm_ktracer_write(dir, "osnoise/cpus", cpus);
	if (ret)
		return rtm_error_setn(err, ret, "cannot set %s/osnoise/cpus to %s: %s", dir, cpus,
				      strerror(-ret));
	return 0;
}

int rtm_osnoise_restore(const char *dir, const struct rtm_osnoise_saved *s)
{
	int ret = 0, r;

	/* an empty cpus file is not a valid write: it read empty, it stays as written */
	if (s->cpus[0] && (r = rtm_ktracer_write(dir, "osnoise/cpus", s->cpus)) && !ret)
		ret = r;
	if ((r = rtm_ktracer_write_duty(dir, "osnoise/runtime_us", s->runtime,
					"osnoise/period_us", s->period)) && !ret)
		ret = r;
	if ((r = rtm_ktracer_write(dir, "osnoise/stop_tracing_us", s->stop)) && !ret)
		ret = r;
	if ((r = rtm_ktracer_write(dir, "osnoise/stop_tracing_total_us", s->stop_total)) && !ret)
		ret = r;
	if ((r = rtm_ktracer_write(dir, "tracing_thresh", s->thresh)) && !ret)
		ret = r;
	return ret;
}

struct osnoise_cpu {
	struct rtm_noise_rec rec;	/* first (struct rtm_ktnoise): the samples above */
					/* the threshold */
	uint64_t periods, runtime_ns, noise_ns, max_ns;
	uint64_t hw, nmi, irq, softirq, thread;
};

_Static_assert(offsetof(struct osnoise_cpu, rec) == 0, "struct rtm_ktnoise: the record first");

struct rtm_osnoise_acc {
	struct rtm_ktnoise noise;	/* first (rtm_ktnoise_alloc): struct osnoise_cpu */
};

_Static_assert(offsetof(struct rtm_osnoise_acc, noise) == 0, "rtm_ktnoise_alloc: the noise first");

struct rtm_osnoise_acc *rtm_osnoise_acc_alloc(int ncpus, uint64_t report_above_ns,
					      uint32_t max_gaps)
{
	return rtm_ktnoise_alloc(sizeof(struct rtm_osnoise_acc), ncpus,
				 sizeof(struct osnoise_cpu), report_above_ns, max_gaps);
}

void rtm_osnoise_acc_free(struct rtm_osnoise_acc *a)
{
	rtm_ktnoise_free(a);
}

int rtm_osnoise_acc_event(const struct rtm_event *ev, void *arg)
{
	struct rtm_osnoise_acc *a = arg;
	struct osnoise_cpu *c = rtm_ktnoise_cpu(&a->noise, ev->cpu);

	if (!c)
		return 0;
	if (ev->type == RTM_EV_OSNOISE) {
		c->periods++;
		c->runtime_ns += ev->osnoise.runtime_us * 1000;
		c->noise_ns += ev->osnoise.noise_us * 1000;
		if (ev->osnoise.max_sample_us * 1000 > c->max_ns)
			c->max_ns = ev->osnoise.max_sample_us * 1000;
		c->hw += ev->osnoise.hw;
		c->nmi += ev->osnoise.nmi;
		c->irq += ev->osnoise.irq;
		c->softirq += ev->osnoise.softirq;
		c->thread += ev->osnoise.thread;
	} else if (ev->type == RTM_EV_OSNOISE_SAMPLE) {
		/* written when the noise ended: its start is the event time minus its length */
		rtm_noise_rec_add(&c->rec, ev->ts_ns > ev->osample.duration_ns ?
				  ev->ts_ns - ev->osample.duration_ns : 0,
				  ev->osample.duration_ns);
	}
	return 0;
}

static json_t *cpu_json(const void *entry, int cpu, json_t *gaps)
{
	const struct osnoise_cpu *c = entry;
	const struct rtm_noise_rec *rec = &c->rec;
	json_t *o;

	/* the periods' sums are osnoise's own figures; the gaps are its samples */
	o = json_pack("{s:i, s:I, s:n, s:I, s:I, s:I, s:I, s:I, s:o, s:I, s:o, s:n}",
		"cpu", cpu,
		"sampled_ns", (json_int_t)c->runtime_ns,
		"loops",
		"windows", (json_int_t)c->periods,
		"gaps", (json_int_t)rec->gaps,
		"noise_ns", (json_int_t)c->noise_ns,
		"max_gap_ns", (json_int_t)c->max_ns,
		"above_report", (json_int_t)rec->above_report,
		"hist", rtm_hist_to_json(rec->hist),
		"gaps_dropped", (json_int_t)rec->dropped,
		"gap_list", gaps,
		"sample_period_ns");
	if (!o)
		return NULL;
	json_object_set_new(o, "max_sample_gap_ns", json_integer((json_int_t)rec->max_gap_ns));
	json_object_set_new(o, "interference", json_pack("{s:I, s:I, s:I, s:I, s:I}",
		"hw", (json_int_t)c->hw, "nmi", (json_int_t)c->nmi, "irq", (json_int_t)c->irq,
		"softirq", (json_int_t)c->softirq, "thread", (json_int_t)c->thread));
	return o;
}

json_t *rtm_osnoise_section(const struct rtm_osnoise_acc *a,
			    const struct rtm_probe_noise_opts *o, uint64_t start_ns,
			    uint64_t duration_ns)
{
	json_t *cpus = rtm_ktnoise_cpus_json(&a->noise, &o->cpus, start_ns, cpu_json);

	if (!cpus)
		return NULL;
	return json_pack("{s:s, s:s, s:n, s:n, s:I, s:I, s:I, s:I, s:I, s:I, s:o}",
		"probe", "osnoise",
		"backend", "osnoise",
		"counter", "counter_hz",
		"window_ns", (json_int_t)o->window_ns,
		"width_ns", (json_int_t)o->width_ns,
		"threshold_ns", (json_int_t)o->threshold_ns,
		"report_above_ns", (json_int_t)o->report_above_ns,
		"start_mono_ns", (json_int_t)start_ns,
		"duration_ns", (json_int_t)duration_ns,
		"cpus", cpus);
}
