// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqs.c - the IRQ section of cyclic and run: /proc/interrupts,
 * /proc/softirqs and /proc/stat over the measurement, and with --trace the
 * handler times of the measured CPUs: from the streaming instance's events when
 * it carries them (a tap, trace/stream.h), else from a streaming trace instance
 * of their own (rtmeasure-PID-irq) that the drive loop drains at every wake-up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/units.h"
#include "irq/handlers.h"
#include "irq/irq.h"
#include "session/session_priv.h"
#include "trace/stream.h"

struct rtm_session_irq {
	struct rtm_irq_snap start;
	bool have_start;
	struct rtm_trace *trace;	/* the handler times' own instance, or NULL */
	struct rtm_stream *stream;	/* or the stream that hands them its events */
	struct rtm_irqacct *acct;
	uint64_t lost;
	bool failed;			/* a drain failed: handler times incomplete */
	char line[512];			/* the busiest sources, for the summary */
};

/*
 * The stream's events but its context switches (the census's): the handler
 * times as the irq instance would give them, without the IRQ threads' runs.
 */
static int irq_event(const struct rtm_event *ev, void *ctx)
{
	return ev->type == RTM_EV_SCHED_SWITCH ? 0 : rtm_irqacct_event(ev, ctx);
}

struct rtm_session_irq *rtm_session_irq_start(const struct rtm_session_opts *m,
					      struct rtm_stream *st, struct rtm_error *err)
{
	struct rtm_session_irq *mi = calloc(1, sizeof(*mi));
	char cpus[1024];

	if (!mi) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	if (m->trace.on) {
		struct rtm_trace_opts to = { .events = "irq,nmi", .buffer_kb = 2048,
					     .overwrite = false, .suffix = "irq" };

		rtm_cpulist_format(&m->probe.cpus, cpus, sizeof(cpus));
		to.cpus = cpus;
		mi->acct = rtm_irqacct_alloc((int)sysconf(_SC_NPROCESSORS_CONF));
		if (mi->acct && rtm_stream_tap_irq(st, irq_event, mi->acct))
			mi->stream = st;
		else
			mi->trace = mi->acct ? rtm_trace_create(&to, err) : NULL;
		if (!mi->trace && !mi->stream) {
			if (!mi->acct)
				rtm_error_set(err, "out of memory");
			rtm_session_irq_free(mi);
			return NULL;
		}
		rtm_trace_stale_note(mi->trace, m->errf);
		if (mi->trace)
			rtm_trace_start(mi->trace);
	}
	/* no /proc/interrupts (a container): the run goes on without the section */
	mi->have_start = rtm_irq_snap_read("/", &mi->start, NULL) == 0;
	return mi;
}

void rtm_session_irq_poll(struct rtm_session_irq *mi)
{
	uint64_t lost = 0;

	if (!mi || !mi->trace || mi->failed)
		return;
	if (rtm_trace_read(mi->trace, rtm_irqacct_event, mi->acct, &lost, NULL) < 0)
		mi->failed = true;
	mi->lost += lost;
}

json_t *rtm_session_irq_live(struct rtm_session_irq *mi, int64_t *lost)
{
	struct rtm_irq_snap now, d;
	json_t *sec;

	*lost = -1;
	if (!mi || !mi->have_start)
		return NULL;
	memset(&now, 0, sizeof(now));
	memset(&d, 0, sizeof(d));
	if (rtm_irq_snap_read("/", &now, NULL) || rtm_irq_delta(&mi->start, &now, &d, NULL)) {
		rtm_irq_snap_release(&now);
		return NULL;
	}
	sec = json_pack("{s:o}", "interrupts", rtm_irq_delta_to_json(&d, false));
	if (mi->trace || mi->stream) {
		json_object_set_new(sec, "handlers", rtm_irqacct_to_json(mi->acct));
		*lost = (int64_t)(mi->stream ? rtm_stream_lost(mi->stream) :
				  mi->lost + rtm_trace_dropped(mi->trace));
	}
	rtm_irq_snap_release(&now);
	rtm_irq_snap_release(&d);
	return sec;
}

void rtm_session_irq_finish(struct rtm_session_irq *mi, const struct rtm_session_opts *m,
			    struct rtm_result *r)
{
	struct rtm_irq_snap end, d;
	json_t *sec;

	if (!mi)
		return;
	memset(&end, 0, sizeof(end));
	memset(&d, 0, sizeof(d));
	if (mi->trace)
		rtm_trace_stop(mi->trace);
	rtm_stream_poll(mi->stream);	/* the events so far: it goes on for the census */
	if (!mi->have_start || rtm_irq_snap_read("/", &end, NULL) ||
	    rtm_irq_delta(&mi->start, &end, &d, NULL)) {
		rtm_irq_snap_release(&end);
		return;
	}
	rtm_irq_snap_read_affinity(&d, "/", NULL);
	sec = json_pack("{s:o}", "interrupts", rtm_irq_delta_to_json(&d, false));
	if (mi->stream) {
		mi->lost = rtm_stream_lost(mi->stream);
		mi->failed = rtm_stream_failed(mi->stream);
	} else if (mi->trace) {
		rtm_session_irq_poll(mi);
		mi->lost += rtm_trace_dropped(mi->trace);
	}
	if (mi->trace || mi->stream) {
		json_object_set_new(sec, "handlers", rtm_irqacct_to_json(mi->acct));
		json_object_set_new(sec, "trace_lost", json_integer((json_int_t)mi->lost));
		json_object_set_new(sec, "handlers_complete", json_boolean(!mi->failed));
	}
	json_object_set_new(r->sections, "irq", sec);
	{
		/* the three busiest sources on the measured CPUs, for the summary */
		int idx[3], n, i;
		size_t len = 0;

		n = rtm_irq_top(&d, &m->probe.cpus, 3, idx);
		for (i = 0; i < n && len < sizeof(mi->line); i++)
			len += (size_t)snprintf(mi->line + len, sizeof(mi->line) - len,
				"%s %s %.0f/s",
				i ? "," : "interrupts on the measured CPUs:", d.rows[idx[i]].name,
				rtm_irq_rate_hz(&d, rtm_irq_count_on(&d, &d.rows[idx[i]],
								   &m->probe.cpus)));
	}
	rtm_irq_snap_release(&d);
	rtm_irq_snap_release(&end);
}

void rtm_session_irq_print(const struct rtm_session_irq *mi, FILE *f)
{
	if (mi && mi->line[0])
		fprintf(f, "%s (result.json: sections.irq)\n", mi->line);
}

void rtm_session_irq_untrace(struct rtm_session_irq *mi)
{
	if (!mi)
		return;
	rtm_trace_destroy(mi->trace);
	mi->trace = NULL;
	mi->stream = NULL;
}

void rtm_session_irq_free(struct rtm_session_irq *mi)
{
	if (!mi)
		return;
	rtm_trace_destroy(mi->trace);
	rtm_irqacct_free(mi->acct);
	if (mi->have_start)
		rtm_irq_snap_release(&mi->start);
	free(mi);
}
