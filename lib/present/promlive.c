// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * promlive.c - --prometheus for cyclic, run, monitor, noise, wakeup and io:
 * /metrics while a command measures (promlive.h).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "present/promhttp.h"
#include "present/promlive.h"
#include "probe/cyclic.h"
#include "probe/probe.h"
#include "probe/timersplit.h"
#include "result/disturb.h"
#include "trace/stream.h"

struct rtm_promlive {
	struct rtm_promhttp *srv;
	struct rtm_prom_cpu *cpus;
	struct rtm_cyclic_stats *st;
	int n;
	uint64_t boundary;		/* the interval boundary last published */
};

/* CPU time of this thread, ns. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * No CPU is free of probes: where the server runs and what a scrape costs there,
 * measured by formatting the page of this many CPUs (the least of three tries)
 * into @buf as " (...)".
 */
static void shared_note(const struct rtm_cpulist *measured, const struct rtm_prom_target *t,
			char *buf, size_t len)
{
	struct rtm_prom_run run = { .trace_lost = -1, .spikes_captured = -1 };
	int n = measured->n, i, k;
	struct rtm_prom_cpu *cpus = calloc((size_t)(n > 0 ? n : 1), sizeof(*cpus));
	struct rtm_hist *empty = rtm_hist_alloc();
	uint64_t best = 0, t0, d;
	char list[1024], *page = NULL;
	size_t bytes = 0;

	rtm_cpulist_format(measured, list, sizeof(list));
	for (k = 0; cpus && empty && k < 3; k++) {
		FILE *f = open_memstream(&page, &bytes);

		if (!f)
			break;
		for (i = 0; i < n; i++) {
			cpus[i].cpu = measured->cpus[i];
			rtm_prom_hist_from(&cpus[i].run, empty, 0, 0);
			rtm_prom_hist_from(&cpus[i].last, empty, 0, 0);
		}
		t0 = thread_cpu_ns();
		rtm_prom_write(f, RTM_PROM_TEXT, t, cpus, n, &run);
		fclose(f);
		d = thread_cpu_ns() - t0;
		best = !k || d < best ? d : best;
		free(page);
		page = NULL;
	}
	if (best)
		snprintf(buf, len, " (no CPU is free of probes: the server runs on the measured "
			 "CPUs %s, where each scrape takes about %.0f us of CPU to format its "
			 "%zu-byte page, and the scraper's own work lands there too; leave a CPU "
			 "out of the measured ones to keep both off the probes)", list,
			 (double)best / 1e3, bytes);
	else
		snprintf(buf, len, " (no CPU is free of probes: the server runs on the measured "
			 "CPUs %s)", list);
	free(cpus);
	rtm_hist_free(empty);
}

int rtm_promlive_open(const struct rtm_promlive_opts *o, struct rtm_promlive **out,
		      struct rtm_error *err)
{
	struct rtm_prom_target t;
	struct rtm_promlive *mp;
	cpu_set_t free_cpus;
	int i;

	*out = NULL;
	mp = calloc(1, sizeof(*mp));
	if (!mp)
		return rtm_error_set(err, "out of memory");
	/* the CPUs this process may use that nothing measures */
	if (sched_getaffinity(0, sizeof(free_cpus), &free_cpus))
		CPU_ZERO(&free_cpus);
	for (i = 0; i < o->measured->n; i++)
		if (o->measured->cpus[i] < CPU_SETSIZE)
			CPU_CLR(o->measured->cpus[i], &free_cpus);
	rtm_prom_target_from_sysinfo(&t, o->sysinfo, o->probe, (double)time(NULL));
	mp->srv = rtm_promhttp_start(o->spec, CPU_COUNT(&free_cpus) ? &free_cpus : NULL, &t, err);
	if (!mp->srv) {
		free(mp);
		return -EINVAL;
	}
	/* with port 0 the port is news even to a quiet run */
	if (!o->quiet || !rtm_promhttp_port_given(o->spec)) {
		char where[1200] = "";

		if (!CPU_COUNT(&free_cpus))
			shared_note(o->measured, &t, where, sizeof(where));
		fprintf(o->errf, "rtmeasure %s: metrics for Prometheus at port %u, /metrics%s\n",
			o->command, rtm_promhttp_port(mp->srv), where);
	}
	*out = mp;
	return 0;
}

int rtm_promlive_start(const struct rtm_session_opts *m, const json_t *sysinfo,
		       struct rtm_promlive **out, struct rtm_error *err)
{
	struct rtm_promlive_opts o = {
		.spec = m->prometheus, .command = m->command, .probe = m->ops->name,
		.sysinfo = sysinfo, .measured = &m->probe.cpus,
		.quiet = m->out.quiet || m->out.json, .errf = m->errf,
	};

	*out = NULL;
	if (!m->prometheus)
		return 0;
	return rtm_promlive_open(&o, out, err);
}

/* Spike windows saved so far, -1 when the run does not capture. */
static int64_t spikes(const struct rtm_result *r)
{
	int64_t n = 0;
	size_t i;

	if (!r || !json_object_get(r->options, "trace_events"))	/* not traced */
		return -1;
	for (i = 0; i < json_array_size(r->events); i++) {
		const char *type = json_string_value(json_object_get(json_array_get(r->events, i),
								     "type"));

		n += type && !strcmp(type, "spike_capture");
	}
	return n;
}

void rtm_promlive_timer(struct rtm_promlive *mp, struct rtm_cyclic *c,
			struct rtm_session_irq *irq, const struct rtm_result *r,
			struct rtm_stream *st, struct rtm_timersplit *split)
{
	struct rtm_prom_run run = { .trace_lost = -1, .spikes_captured = -1 };
	struct rtm_disturbances d;
	json_t *irqsec = NULL;
	uint64_t next = rtm_cyclic_next_tick_ns(c);
	int i, n;

	if (!mp || next == mp->boundary)
		return;
	mp->boundary = next;
	n = rtm_cyclic_stats(c, NULL, 0);
	if (n > mp->n) {
		struct rtm_prom_cpu *p = realloc(mp->cpus, (size_t)n * sizeof(*p));
		struct rtm_cyclic_stats *q = p ? realloc(mp->st, (size_t)n * sizeof(*q)) : NULL;

		if (p)
			mp->cpus = p;
		if (!q)
			return;	/* the scrapes keep the previous figures */
		mp->st = q;
		mp->n = n;
	}
	rtm_cyclic_stats(c, mp->st, n);
	for (i = 0; i < n; i++) {
		const struct rtm_hist *all, *last;

		rtm_cyclic_hists(c, i, &all, &last);
		mp->cpus[i].cpu = mp->st[i].cpu;
		rtm_prom_hist_from(&mp->cpus[i].run, all, 0, 0);
		rtm_prom_hist_from(&mp->cpus[i].last, last, 0, 0);
		mp->cpus[i].has_last = last->count > 0;
		mp->cpus[i].overruns = mp->st[i].overruns;
		mp->cpus[i].implied = mp->st[i].implied;
	}
	irqsec = rtm_session_irq_live(irq, &run.trace_lost);
	run.irq = irqsec;
	run.spikes_captured = spikes(r);
	/* as drained so far (250 ms), or the BPF maps as they read now */
	run.timer_irq = split ? rtm_timersplit_to_json(split, NULL) : rtm_stream_timer_irq_live(st);
	if (r) {	/* while measuring, only the kinds known so far: not how the run ends */
		rtm_result_disturbances(r, &d);
		run.disturbed = &d;
		run.disturb_known = 1u << RTM_DISTURB_SHARED_CPUS | 1u << RTM_DISTURB_HYPERVISOR |
				    1u << RTM_DISTURB_EMULATED;
		rtm_prom_run_wakeup(&run, r);	/* monitor --wakeup: the tasks' series */
	}
	rtm_promhttp_publish(mp->srv, mp->cpus, n, &run);
	json_decref(irqsec);
	json_decref((json_t *)run.timer_irq);
}

void rtm_promlive_probe(struct rtm_promlive *mp, struct rtm_probe_run *pr,
			struct rtm_session_irq *irq, struct rtm_stream *st)
{
	struct rtm_prom_run run = { .trace_lost = -1, .spikes_captured = -1 };
	uint64_t next;
	json_t *sec;

	if (!mp || !pr || !rtm_probe_run_ops(pr)->next_tick_ns)
		return;
	next = rtm_probe_run_ops(pr)->next_tick_ns(rtm_probe_run_probe(pr));
	if (next == mp->boundary)
		return;
	sec = rtm_probe_run_live_section(pr);
	if (!sec)
		return;	/* the scrapes keep the previous figures */
	mp->boundary = next;
	rtm_stream_noise_live_causes(st, sec);	/* noise --trace: the causes so far */
	run.noise = sec;
	run.irq = rtm_session_irq_live(irq, &run.trace_lost);
	rtm_promhttp_publish(mp->srv, NULL, 0, &run);
	json_decref((json_t *)run.irq);
	json_decref(sec);
}

void rtm_promlive_result(struct rtm_promlive *mp, const struct rtm_result *r)
{
	struct rtm_prom_result pr;

	if (!mp || rtm_prom_of_result(&pr, r))
		return;	/* the scrapes keep the previous figures */
	rtm_promhttp_set_target(mp->srv, &pr.t);
	rtm_promhttp_publish(mp->srv, pr.cpus, pr.n, &pr.run);
	rtm_prom_result_release(&pr);
}

void rtm_promlive_stop(struct rtm_promlive *mp)
{
	if (!mp)
		return;
	rtm_promhttp_stop(mp->srv);
	free(mp->cpus);
	free(mp->st);
	free(mp);
}

int rtm_promlive_serve(const struct rtm_session_opts *o, const json_t *sysinfo, void **state,
		       struct rtm_error *err)
{
	struct rtm_promlive *mp = NULL;
	int ret = rtm_promlive_start(o, sysinfo, &mp, err);

	*state = mp;
	return ret;
}

void rtm_promlive_publish(void *state, const struct rtm_session_live *live)
{
	if (live->c)
		rtm_promlive_timer(state, live->c, live->irq, live->r, live->stream, live->split);
	else	/* noise: its section through the probe seam */
		rtm_promlive_probe(state, live->run, live->irq, live->stream);
}

void rtm_promlive_unserve(void *state)
{
	rtm_promlive_stop(state);
}
