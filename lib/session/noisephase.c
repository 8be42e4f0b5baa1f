// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * noisephase.c - run --noise: the noise phase after the latency phase.
 *
 * The busy-loop detector (lib/probe/probe_noise.c) measures the same CPUs once the
 * timer probe's threads are joined, under the same load, for its own duration.
 * It never runs beside the timer probe: a FIFO busy loop on a CPU would delay
 * the timer thread there (or be delayed by it), and on the other CPUs it would
 * share caches, memory bandwidth and SMT siblings with the probe being
 * measured. Two phases keep both sets of figures clean; the price is that the
 * noise is not measured at the same instants as the latency (see
 * docs/architecture.md). Its section, sections.noise, is the one `rtmeasure
 * noise` writes, with a "phase" object saying when it ran.
 */
#include <stdio.h>

#include "core/units.h"
#include "probe/probe_noise.h"
#include "session/session_priv.h"
#include "trace/stream.h"

void rtm_session_noise_opts(const struct rtm_session_opts *m, struct rtm_session_opts *n,
			    const struct rtm_cpulist *cpus, uint64_t duration_ns,
			    const char *reason)
{
	*n = *m;	/* the CPU lists are borrowed: released with @m */
	n->ops = &rtm_probe_noise_ops;
	n->trace.on = false;		/* the flight recorder is the latency probe's */
	n->trace.rt_hold_given = false;
	n->trace.rt_hold_ns = 0;
	n->trace.timer_irq_given = false;
	n->trace.timer_irq_off = NULL;	/* the latency phase noted it */
	n->noise.cpus = *cpus;
	rtm_noise_sched_of(&m->probe.sched, &n->noise.sched);
	n->noise.duration_ns = duration_ns;
	n->noise.lock_memory = m->probe.lock_memory;
	n->noise.dma_latency_us = m->probe.dma_latency_us;
	n->noise.backend_reason = reason;
}

static void banner(const struct rtm_session_opts *n)
{
	char cpus[256], wid[16], win[16], thr[16], dur[16];

	if (n->out.quiet || n->out.json)
		return;
	rtm_cpulist_format(&n->noise.cpus, cpus, sizeof(cpus));
	rtm_fmt_ns(wid, sizeof(wid), n->noise.width_ns);
	rtm_fmt_ns(win, sizeof(win), n->noise.window_ns);
	rtm_fmt_ns(thr, sizeof(thr), n->noise.threshold_ns);
	rtm_fmt_ns(dur, sizeof(dur), n->noise.duration_ns);
	fprintf(n->errf, "rtmeasure %s: noise phase: CPUs %s, %s %d, busy %s of every %s, gaps "
		"above %s, %s%s\n", n->command, cpus, rtm_policy_name(n->noise.sched.policy),
		n->noise.sched.priority, wid, win, thr, dur,
		n->trace.noise_trace ? ", gap causes traced" : "");
}

/* Why the noise phase cannot run: a warning, the latency results kept; -1. */
static int phase_warn(const struct rtm_session_opts *m, const char *why)
{
	fprintf(m->errf, "rtmeasure: warning: noise phase: %s; the latency results are saved "
		"without it\n", why);
	return -1;
}

/* The probe's section, its phase and the gap causes into @r; false when there is none. */
static bool phase_section(const struct rtm_session_opts *n, struct rtm_result *r,
			  struct rtm_result *t, uint64_t latency_end_ns, bool stopped)
{
	json_t *sec = json_object_get(t->sections, "noise");

	if (!sec)
		return false;
	json_object_set_new(sec, "phase", json_pack("{s:s, s:I, s:I, s:b}",
		"when", "after_latency",
		"latency_end_mono_ns", (json_int_t)latency_end_ns,
		"planned_ns", (json_int_t)n->noise.duration_ns,
		"interrupted", stopped));
	json_object_set(r->sections, "noise", sec);
	return true;
}

/* The noise probe until its duration or a stop; its figures into @t. */
static int phase_measure(struct rtm_session_opts *m, struct rtm_session_opts *n,
			 struct rtm_stream *hold, struct rtm_result *t, bool *stopped)
{
	struct rtm_error err = { "" };
	struct rtm_probe_run *run;

	run = rtm_probe_run_start(n->ops, &n->noise, n->ts_interval_ns, &err);
	if (!run)
		return phase_warn(m, err.msg);
	banner(n);
	while (!rtm_probe_run_done(run) && !rtm_session_stopping(m)) {
		rtm_probe_run_wait(run, 250000000ULL);
		rtm_probe_run_tick(run);
		rtm_stream_poll(hold);
	}
	if (rtm_session_stopping(m)) {
		*stopped = true;
		rtm_probe_run_stop(run);
	}
	if (rtm_probe_run_finish(run, t, &err)) {
		rtm_probe_run_free(run);
		return phase_warn(m, err.msg);
	}
	rtm_probe_run_free(run);
	return 0;
}

int rtm_session_noise_phase(struct rtm_session_opts *m, struct rtm_result *r,
			    uint64_t latency_end_ns)
{
	struct rtm_error err = { "" };
	struct rtm_session_opts n;
	struct rtm_stream *hold = NULL;
	struct rtm_result *t;
	bool stopped = false, saved;

	/* the latency phase's options, turned into the noise phase's */
	rtm_session_noise_opts(m, &n, &m->probe.cpus, m->noise_phase.duration_ns, "run --noise: "
			       "the busy loop, on the CPUs the latency phase measured");
	t = rtm_result_alloc("noise");
	if (!t)
		return phase_warn(m, "out of memory");
	if (rtm_session_noise_trace_wanted(&n) && !(hold = rtm_session_stream_start(&n, &err)) &&
	    !rtm_session_stream_optional(&n, &err)) {
		fprintf(m->errf, "rtmeasure: warning: noise phase: %s (give --noise-trace 0 to "
			"measure without gap causes); the latency results are saved without it\n",
			err.msg);
		rtm_result_free(t);
		return -1;
	}
	if (phase_measure(m, &n, hold, t, &stopped)) {
		rtm_stream_free(hold);
		rtm_result_free(t);
		return -1;
	}
	rtm_session_stream_finish(m, hold, t);	/* the gap causes into t's sections.noise */
	rtm_stream_free(hold);
	saved = phase_section(&n, r, t, latency_end_ns, stopped);
	if (stopped)
		fprintf(m->errf, "rtmeasure: noise phase interrupted after %.1f s; what it "
			"measured is saved\n", (double)t->duration_ns / 1e9);
	rtm_result_free(t);
	return saved ? 0 : -1;
}
