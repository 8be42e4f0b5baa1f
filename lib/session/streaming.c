// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * streaming.c - which consumers of the streaming instance (lib/trace/stream.h) a
 * session wants, from its options; the instance started with them and finished
 * into the result; and the spike census fed: the timer probe's late wake-ups and
 * the CPUs' steal time handed to it between drains.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "probe/cyclic.h"
#include "probe/probe_timer.h"
#include "session/session_priv.h"
#include "trace/census.h"
#include "trace/stream.h"

static bool rt_hold_wanted(const struct rtm_session_opts *m)
{
	return m->trace.rt_hold_ns && (m->trace.rt_hold_given || m->trace.on);
}

static bool timer_irq_wanted(const struct rtm_session_opts *m)
{
	return m->trace.timer_irq && (m->trace.timer_irq_given || m->trace.on) &&
	       m->ops == &rtm_probe_timer_ops && m->probe.mode == RTM_TIMER_NANOSLEEP;
}

bool rtm_session_timer_irq_wanted(const struct rtm_session_opts *m)
{
	return timer_irq_wanted(m);
}

bool rtm_session_noise_trace_wanted(const struct rtm_session_opts *m)
{
	return m->ops == &rtm_probe_noise_ops && m->trace.noise_trace != 0;
}

/* The census matches the late wake-ups with the probe's timer expiries (--timer-irq). */
bool rtm_session_census_wanted(const struct rtm_session_opts *m)
{
	return m->trace.on && m->probe.capture_ns && timer_irq_wanted(m);
}

bool rtm_session_stream_wanted(const struct rtm_session_opts *m)
{
	return rt_hold_wanted(m) || timer_irq_wanted(m) || rtm_session_noise_trace_wanted(m) ||
	       rtm_session_census_wanted(m);
}

bool rtm_session_flight_in_stream(const struct rtm_session_opts *m)
{
	return m->trace.on && !m->trace.events && !m->trace.nfilters &&
	       m->ops == &rtm_probe_timer_ops && rtm_session_stream_wanted(m);
}

bool rtm_session_stream_optional(struct rtm_session_opts *m, const struct rtm_error *err)
{
	if (m->ops != &rtm_probe_noise_ops || m->trace.noise_trace >= 0)
		return false;
	fprintf(m->errf, "rtmeasure: note: no gap causes: %s (give --trace to make this an error, "
		"--trace 0 to go without)\n", err->msg);
	m->trace.noise_trace = 0;
	return true;
}

static struct rtm_stream *stream_start(const struct rtm_session_opts *m, bool irq_events,
				       bool flight, struct rtm_error *err)
{
	char presets[96];
	struct rtm_stream_opts so = {
		.cpus = &m->probe.cpus,
		.rt_hold_ns = rt_hold_wanted(m) ? m->trace.rt_hold_ns : 0,
		.timer_irq = timer_irq_wanted(m),
		.census_ns = rtm_session_census_wanted(m) ? m->probe.capture_ns : 0,
		.noise_causes = rtm_session_noise_trace_wanted(m),
		.noise_window_ns = m->noise.window_ns,
		.own_name = !strcmp(m->command, "monitor") ? "this monitor" : NULL,
		.wakeup_fn = m->trace.wakeup_fn,
		.irq_events = irq_events,
	};
	struct rtm_stream *st;

	if (flight) {	/* rtm_session_trace_in_stream() starts it */
		rtm_trace_default_events(presets, sizeof(presets));
		so.flight_events = presets;
		so.keep_kb = m->trace.buffer_kb;	/* the kernel's buffer: the stream's 4 MB */
		so.start_off = true;
	}
	st = rtm_stream_start(&so, err);

	if (st)
		rtm_trace_stale_note(rtm_stream_trace(st), m->errf);
	return st;
}

struct rtm_stream *rtm_session_stream_start(const struct rtm_session_opts *m,
					    struct rtm_error *err)
{
	return stream_start(m, false, false, err);
}

struct rtm_stream *rtm_session_stream_start_irq(const struct rtm_session_opts *m,
						struct rtm_error *err)
{
	return stream_start(m, m->trace.on, rtm_session_flight_in_stream(m), err);
}

void rtm_session_stream_finish(const struct rtm_session_opts *m, struct rtm_stream *st,
			       struct rtm_result *r)
{
	json_t *hz = json_object_get(json_object_get(r->sysinfo, "kernel"), "hz");

	rtm_stream_finish(st, r->sections, json_integer_value(hz) > 0 ?
			  1000000000ULL / (uint64_t)json_integer_value(hz) : 0, m->errf);
}

void rtm_session_census_poll(struct rtm_stream *st, struct rtm_cyclic *c)
{
	struct rtm_probe_spike late[256];
	struct rtm_probe_cpu_snap snap;
	struct rtm_probe_timer *p;
	uint64_t drained_at = 0, dropped, all_dropped = 0, t;
	struct rtm_census *cs = rtm_stream_census(st, &drained_at);
	int i, n, ncpus;
	int64_t *steal;
	uint32_t k, got;

	if (!c)
		return;
	p = rtm_cyclic_probe(c);
	if (!cs) {	/* not tracing (the monitor before its key t): not the census's */
		for (i = 0; i < rtm_probe_timer_ncpus(p); i++)
			while (rtm_probe_timer_late_take(p, i, late, 256, NULL) == 256)
				;
		return;
	}
	for (i = 0; i < rtm_probe_timer_ncpus(p); i++) {
		rtm_probe_timer_snapshot(p, i, &snap, NULL, NULL);
		do {
			got = rtm_probe_timer_late_take(p, i, late, 256, &dropped);
			for (k = 0; k < got; k++)
				if (rtm_census_add(cs, snap.cpu, late[k].planned_ns,
						   late[k].latency_ns))
					dropped++;
		} while (got == 256);
		all_dropped += dropped;
	}
	rtm_census_dropped(cs, all_dropped);
	ncpus = rtm_census_ncpus(cs);	/* glibc's sysconf() reads sysfs at every call */
	steal = calloc((size_t)ncpus, sizeof(*steal));
	if (steal) {
		t = rtm_clock_ns(CLOCK_MONOTONIC);
		rtm_stream_steal(st, steal, ncpus);
		for (n = 0; n < ncpus; n++)
			rtm_census_steal(cs, n, t, steal[n]);
		free(steal);
	}
	rtm_census_advance(cs, drained_at);
}
