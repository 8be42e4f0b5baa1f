// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ktracer_timerlat.c - the timerlat tracer's global settings (save, apply,
 * restore) and its samples gathered per CPU into the result: the thread
 * latency (ftrace:timerlat context thread: timer expiry to the timerlat/N
 * kthread running, what `rtla timerlat hist` calls Thr) into the wake-up
 * histograms r->cpus[], the IRQ latency (context irq: expiry to the timer
 * interrupt, rtla's IRQ) into sections.timer_irq, the counts into
 * sections.timerlat. The kernel numbers each CPU's periods (seqnum, shared by
 * a period's IRQ and thread sample): a number skipped between two samples of
 * the same context was lost, and is counted, never filled in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/hist.h"
#include "probe/ktracer.h"

int rtm_timerlat_save(const char *dir, struct rtm_timerlat_saved *s, struct rtm_error *err)
{
	const struct rtm_ktracer_file files[] = {
		{ "osnoise/timerlat_period_us", s->period, sizeof(s->period) },
		{ "osnoise/stop_tracing_us", s->stop, sizeof(s->stop) },
		{ "osnoise/stop_tracing_total_us", s->stop_total, sizeof(s->stop_total) },
		{ "osnoise/cpus", s->cpus, sizeof(s->cpus) },
	};
	int ret;

	memset(s, 0, sizeof(*s));
	ret = rtm_ktracer_save(dir, files, sizeof(files) / sizeof(files[0]), err);
	if (ret)
		return ret;
	/* print_stack came with 5.19's timerlat stack traces: optional */
	if (rtm_read_small(dir, "osnoise/print_stack", s->print_stack,
			   sizeof(s->print_stack)) < 0)
		s->print_stack[0] = '\0';
	return 0;
}

int rtm_timerlat_apply(const char *dir, uint64_t period_us, const char *cpus,
		       struct rtm_error *err)
{
	char pd[32];
	int ret;

	snprintf(pd, sizeof(pd), "%llu", (unsigned long long)period_us);
	ret = rtm_ktracer_write(dir, "osnoise/stop_tracing_us", "0");
	if (!ret)
		ret = rtm_ktracer_write(dir, "osnoise/stop_tracing_total_us", "0");
	if (!ret && rtm_exists(dir, "osnoise/print_stack"))
		ret = rtm_ktracer_write(dir, "osnoise/print_stack", "0");
	if (ret)
		return rtm_error_setn(err, ret, "cannot write timerlat's settings under %s/osnoise: "
				      "%s", dir, strerror(-ret));
	ret = rtm_ktracer_write(dir, "osnoise/timerlat_period_us", pd);
	if (ret)
		return rtm_error_setn(err, ret, "cannot set %s/osnoise/timerlat_period_us to %s: "
				      "%s", dir, pd, strerror(-ret));
	ret = rtm_ktracer_write(dir, "osnoise/cpus", cpus);
	if (ret)
		return rtm_error_setn(err, ret, "cannot set %s/osnoise/cpus to %s: %s", dir, cpus,
				      strerror(-ret));
	return 0;
}

int rtm_timerlat_restore(const char *dir, const struct rtm_timerlat_saved *s)
{
	int ret = 0, r;

	/* an empty cpus file is not a valid write: it read empty, it stays as written */
	if (s->cpus[0] && (r = rtm_ktracer_write(dir, "osnoise/cpus", s->cpus)) && !ret)
		ret = r;
	if ((r = rtm_ktracer_write(dir, "osnoise/timerlat_period_us", s->period)) && !ret)
		ret = r;
	if ((r = rtm_ktracer_write(dir, "osnoise/stop_tracing_us", s->stop)) && !ret)
		ret = r;
	if ((r = rtm_ktracer_write(dir, "osnoise/stop_tracing_total_us", s->stop_total)) && !ret)
		ret = r;
	if (s->print_stack[0] &&
	    (r = rtm_ktracer_write(dir, "osnoise/print_stack", s->print_stack)) && !ret)
		ret = r;
	return ret;
}

/* ------------------------------------------------------------- the samples */

/* One context's samples on one CPU. */
struct tl_ctx {
	struct rtm_hist *hist;
	uint64_t samples, lost;
	unsigned int last_seq;
	bool seen;
};

struct tl_cpu {
	struct tl_ctx irq, thread;
	uint64_t overruns;		/* later periods already past when the thread ran */
	uint64_t other;			/* samples of another context (user, later kernels) */
};

struct rtm_timerlat_acc {
	int ncpus;
	uint64_t period_ns;
	struct tl_cpu *cpu;		/* indexed by CPU number */
};

struct rtm_timerlat_acc *rtm_timerlat_acc_alloc(int ncpus, uint64_t period_ns)
{
	struct rtm_timerlat_acc *a = calloc(1, sizeof(*a));
	int i;

	if (!a || ncpus <= 0)
		goto fail;
	a->ncpus = ncpus;
	a->period_ns = period_ns;
	a->cpu = calloc((size_t)ncpus, sizeof(*a->cpu));
	if (!a->cpu)
		goto fail;
	for (i = 0; i < ncpus; i++) {
		a->cpu[i].irq.hist = rtm_hist_alloc();
		a->cpu[i].thread.hist = rtm_hist_alloc();
		if (!a->cpu[i].irq.hist || !a->cpu[i].thread.hist)
			goto fail;
	}
	return a;
fail:
	rtm_timerlat_acc_free(a);
	return NULL;
}

void rtm_timerlat_acc_free(struct rtm_timerlat_acc *a)
{
	int i;

	if (!a)
		return;
	for (i = 0; a->cpu && i < a->ncpus; i++) {
		rtm_hist_free(a->cpu[i].irq.hist);
		rtm_hist_free(a->cpu[i].thread.hist);
	}
	free(a->cpu);
	free(a);
}

static void ctx_add(struct tl_ctx *c, unsigned int seq, uint64_t lat_ns)
{
	/* a number skipped since this context's last sample: lost (a lower seq: restarted) */
	if (c->seen && seq > c->last_seq + 1)
		c->lost += seq - c->last_seq - 1;
	c->seen = true;
	c->last_seq = seq;
	c->samples++;
	rtm_hist_record(c->hist, lat_ns);
}

int rtm_timerlat_acc_event(const struct rtm_event *ev, void *arg)
{
	struct rtm_timerlat_acc *a = arg;
	struct tl_cpu *c;

	if (ev->type != RTM_EV_TIMERLAT || ev->cpu < 0 || ev->cpu >= a->ncpus)
		return 0;
	c = &a->cpu[ev->cpu];
	if (ev->timerlat.context == 0) {
		ctx_add(&c->irq, ev->timerlat.seqnum, ev->timerlat.latency_ns);
	} else if (ev->timerlat.context == 1) {
		ctx_add(&c->thread, ev->timerlat.seqnum, ev->timerlat.latency_ns);
		/* the kernel skips the periods whose start passed before the thread ran */
		if (a->period_ns && ev->timerlat.latency_ns)
			c->overruns += (ev->timerlat.latency_ns - 1) / a->period_ns;
	} else {
		c->other++;
	}
	return 0;
}

uint64_t rtm_timerlat_acc_thread_samples(const struct rtm_timerlat_acc *a, int cpu)
{
	return cpu >= 0 && cpu < a->ncpus ? a->cpu[cpu].thread.samples : 0;
}

static json_t *irq_cpu_json(const struct tl_cpu *c, int cpu)
{
	/* nothing is paired here: the kernel measured each IRQ itself */
	json_t *o = json_pack("{s:i, s:I, s:i, s:i, s:i, s:o}", "cpu", cpu,
			      "count", (json_int_t)c->irq.samples, "unmatched_starts", 0,
			      "unmatched_expires", 0, "early", 0,
			      "delay", rtm_hist_to_json(c->irq.hist));

	if (o)
		json_object_set_new(o, "samples_lost", json_integer((json_int_t)c->irq.lost));
	return o;
}

static json_t *count_cpu_json(const struct tl_cpu *c, int cpu)
{
	return json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:I}", "cpu", cpu,
			 "irq_samples", (json_int_t)c->irq.samples,
			 "thread_samples", (json_int_t)c->thread.samples,
			 "irq_lost", (json_int_t)c->irq.lost,
			 "thread_lost", (json_int_t)c->thread.lost,
			 "overruns", (json_int_t)c->overruns,
			 "other_samples", (json_int_t)c->other);
}

int rtm_timerlat_fill(const struct rtm_timerlat_acc *a, const struct rtm_cpulist *cpus,
		      uint64_t events_lost, struct rtm_result *r)
{
	json_t *tirq = json_object(), *icpus = json_array(), *tl = json_object();
	json_t *tcpus = json_array();
	uint64_t lost = events_lost;
	int i;

	if (!tirq || !icpus || !tl || !tcpus)
		goto fail;
	json_object_set_new(tirq, "source", json_string("the kernel's timerlat tracer: "
			    "ftrace:timerlat context irq, timer_latency (expiry to the timer "
			    "interrupt)"));
	json_object_set_new(tirq, "backend", json_string("timerlat"));
	json_object_set(tirq, "cpus", icpus);
	json_object_set(tl, "cpus", tcpus);
	for (i = 0; i < cpus->n; i++) {
		int cpu = cpus->cpus[i];
		struct rtm_result_cpu *rc;
		const struct tl_cpu *c;

		if (cpu < 0 || cpu >= a->ncpus)
			continue;
		c = &a->cpu[cpu];
		rc = rtm_result_add_cpu(r, cpu, false, 0);
		if (!rc)
			goto fail;
		rtm_hist_merge(rc->raw, c->thread.hist);
		rc->overruns = c->overruns;
		lost += c->irq.lost + c->thread.lost;
		if (json_array_append_new(icpus, irq_cpu_json(c, cpu)) ||
		    json_array_append_new(tcpus, count_cpu_json(c, cpu)))
			goto fail;
	}
	json_object_set_new(tirq, "trace_lost", json_integer((json_int_t)events_lost));
	json_object_set_new(tirq, "complete", json_boolean(lost == 0));
	json_object_set_new(tl, "tracer", json_string("timerlat"));
	json_object_set_new(tl, "period_ns", json_integer((json_int_t)a->period_ns));
	json_object_set_new(tl, "events_lost", json_integer((json_int_t)events_lost));
	json_object_set_new(r->sections, "timer_irq", tirq);
	json_object_set_new(r->sections, "timerlat", tl);
	json_decref(icpus);
	json_decref(tcpus);
	return 0;
fail:
	json_decref(tirq);
	json_decref(icpus);
	json_decref(tl);
	json_decref(tcpus);
	return -ENOMEM;
}
