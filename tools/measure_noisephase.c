// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure_noisephase.c - run --noise: the noise phase after the latency phase.
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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "measure.h"
#include "probe/probe_noise.h"
#include "rtmeasure.h"
#include "core/units.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void measure_noise_init(struct rtm_session_opts *m)
{
	m->noise.window_ns = RTM_NOISE_WINDOW_NS;
	m->noise.width_ns = RTM_NOISE_WIDTH_NS;
	m->noise.threshold_ns = RTM_NOISE_THRESHOLD_NS;
	m->noise.report_above_ns = RTM_NOISE_REPORT_NS;
	m->noise.max_gaps = RTM_NOISE_MAX_GAPS;
	m->trace.noise_trace = -1;	/* on as root when tracefs works, as noise's */
}

static bool onoff(const char *s, int *v)
{
	if (!strcmp(s, "1") || !strcasecmp(s, "on"))
		*v = 1;
	else if (!strcmp(s, "0") || !strcasecmp(s, "off"))
		*v = 0;
	else
		return false;
	return true;
}

int measure_noise_parse(struct rtm_session_opts *m, int c, int argc, char **argv)
{
	struct rtm_error err = { "" };
	const char *cmd = m->command;
	int v;

	switch (c) {
	case MEASURE_OPT_NOISE:
		m->noise_phase.on = true;
		if (optarg && rtm_parse_duration_ns(optarg, &m->noise_phase.duration_ns, &err))
			return rtm_cli_fail("%s: --noise: %s", cmd, err.msg);
		return 1;
	case MEASURE_OPT_NOISE_WINDOW:
		if (rtm_parse_duration_ns(optarg, &m->noise.window_ns, &err))
			return rtm_cli_fail("%s: --noise-window: %s", cmd, err.msg);
		return 1;
	case MEASURE_OPT_NOISE_WIDTH:
		if (rtm_parse_duration_ns(optarg, &m->noise.width_ns, &err))
			return rtm_cli_fail("%s: --noise-width: %s", cmd, err.msg);
		return 1;
	case MEASURE_OPT_NOISE_THRESHOLD:
		if (rtm_parse_latency_ns(optarg, &m->noise.threshold_ns, &err))
			return rtm_cli_fail("%s: --noise-threshold: %s", cmd, err.msg);
		return 1;
	case MEASURE_OPT_NOISE_TRACE:
		/* --noise-trace, --noise-trace=0, --noise-trace 0 */
		if (!optarg && optind < argc && onoff(argv[optind], &v)) {
			optind++;
			m->trace.noise_trace = v;
			return 1;
		}
		if (optarg && !onoff(optarg, &v))
			return rtm_cli_fail("%s: --noise-trace=%s: give 1/on or 0/off (alone: on)",
					    cmd, optarg);
		m->trace.noise_trace = optarg ? v : 1;
		return 1;
	}
	return 0;
}

int measure_noise_check(struct rtm_session_opts *m, bool given)
{
	const struct rtm_probe_noise_opts *o = &m->noise;
	const char *cmd = m->command;
	char a[16], b[16];

	if (!m->noise_phase.on) {
		if (given)
			return rtm_cli_fail("%s: --noise-window, --noise-width, --noise-threshold and "
					    "--noise-trace go with --noise", cmd);
		return 0;
	}
	if (!m->noise_phase.duration_ns)	/* a quarter of the latency phase, 15 s when open */
		m->noise_phase.duration_ns = m->probe.duration_ns ? m->probe.duration_ns / 4 :
					15000000000ULL;
	if (m->noise_phase.duration_ns < o->window_ns)
		m->noise_phase.duration_ns = o->window_ns;	/* one whole window at least */
	rtm_fmt_ns(a, sizeof(a), o->width_ns);
	rtm_fmt_ns(b, sizeof(b), o->window_ns);
	if (o->window_ns < 10000000ULL || o->window_ns > 3600000000000ULL)
		return rtm_cli_fail("%s: --noise-window %s: give 10ms to 1h", cmd, b);
	if (o->width_ns < 1000000ULL)
		return rtm_cli_fail("%s: --noise-width %s: give 1ms or more", cmd, a);
	if (o->width_ns >= o->window_ns)
		return rtm_cli_fail("%s: --noise-width %s: give less than --noise-window %s (the "
				    "measured CPUs need time for the rest; rtmeasure noise --force "
				    "measures without a pause)", cmd, a, b);
	if (o->threshold_ns < 100 || o->threshold_ns > 1000000000ULL)
		return rtm_cli_fail("%s: --noise-threshold: give 100ns to 1s (the loop reads the "
				    "counter every few tens of ns)", cmd);
	if (m->noise.report_above_ns < o->threshold_ns)
		m->noise.report_above_ns = o->threshold_ns;
	if (m->trace.noise_trace < 0 && geteuid() != 0)
		m->trace.noise_trace = 0;
	return 0;
}

/* The latency phase's options, turned into the noise phase's. */
static void phase_opts(const struct rtm_session_opts *m, struct rtm_session_opts *n)
{
	*n = *m;	/* the CPU list is borrowed: released with @m */
	n->ops = &rtm_probe_noise_ops;
	n->trace.on = false;		/* the flight recorder is the latency phase's */
	n->trace.rt_hold_given = false;
	n->trace.rt_hold_ns = 0;
	n->trace.timer_irq_given = false;
	n->noise.cpus = m->probe.cpus;
	n->noise.sched = m->probe.sched;
	/* a busy loop runs at fifo, rr or other: deadline takes FIFO 95, batch/idle other */
	if (n->noise.sched.policy != RTM_POLICY_FIFO && n->noise.sched.policy != RTM_POLICY_RR &&
	    n->noise.sched.policy != RTM_POLICY_OTHER) {
		bool rt = n->noise.sched.policy == RTM_POLICY_DEADLINE;

		memset(&n->noise.sched, 0, sizeof(n->noise.sched));
		n->noise.sched.policy = rt ? RTM_POLICY_FIFO : RTM_POLICY_OTHER;
		n->noise.sched.priority = rt ? 95 : 0;
	}
	n->noise.duration_ns = m->noise_phase.duration_ns;
	n->noise.lock_memory = m->probe.lock_memory;
	n->noise.dma_latency_us = m->probe.dma_latency_us;
	n->noise.backend_reason = "run --noise: the busy loop, on the CPUs the latency phase "
				  "measured";
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
	fprintf(stderr, "rtmeasure %s: noise phase: CPUs %s, %s %d, busy %s of every %s, gaps "
		"above %s, %s%s\n", n->command, cpus, rtm_policy_name(n->noise.sched.policy),
		n->noise.sched.priority, wid, win, thr, dur,
		n->trace.noise_trace ? ", gap causes traced" : "");
}

int measure_noise_phase(struct rtm_session_opts *m, struct rtm_result *r, uint64_t latency_end_ns)
{
	struct rtm_error err = { "" };
	struct rtm_session_opts n;
	struct rtm_stream *hold = NULL;
	struct rtm_probe_run *run;
	struct rtm_result *t;
	json_t *sec;
	bool stopped = false;

	phase_opts(m, &n);
	t = rtm_result_alloc("noise");
	if (!t) {
		fprintf(stderr, "rtmeasure: warning: noise phase: out of memory; the latency "
			"results are saved without it\n");
		return -1;
	}
	if (measure_noise_trace_wanted(&n) && !(hold = measure_hold_start(&n, &err)) &&
	    !measure_hold_optional(&n, &err)) {
		fprintf(stderr, "rtmeasure: warning: noise phase: %s (give --noise-trace 0 to "
			"measure without gap causes); the latency results are saved without it\n",
			err.msg);
		rtm_result_free(t);
		return -1;
	}
	run = rtm_probe_run_start(n.ops, &n.noise, n.ts_interval_ns, &err);
	if (!run) {
		fprintf(stderr, "rtmeasure: warning: noise phase: %s; the latency results are "
			"saved without it\n", err.msg);
		rtm_stream_free(hold);
		rtm_result_free(t);
		return -1;
	}
	banner(&n);
	while (!rtm_probe_run_done(run) && !rtm_cli_stopping()) {
		rtm_probe_run_wait(run, 250000000ULL);
		rtm_probe_run_tick(run);
		rtm_stream_poll(hold);
	}
	if (rtm_cli_stopping()) {
		stopped = true;
		rtm_probe_run_stop(run);
	}
	if (rtm_probe_run_finish(run, t, &err)) {
		fprintf(stderr, "rtmeasure: warning: noise phase: %s; the latency results are "
			"saved without it\n", err.msg);
		rtm_probe_run_free(run);
		rtm_stream_free(hold);
		rtm_result_free(t);
		return -1;
	}
	rtm_probe_run_free(run);
	measure_hold_finish(hold, t);	/* the gap causes into t's sections.noise */
	rtm_stream_free(hold);
	sec = json_object_get(t->sections, "noise");
	if (sec) {
		json_object_set_new(sec, "phase", json_pack("{s:s, s:I, s:I, s:b}",
			"when", "after_latency",
			"latency_end_mono_ns", (json_int_t)latency_end_ns,
			"planned_ns", (json_int_t)n.noise.duration_ns,
			"interrupted", stopped));
		json_object_set(r->sections, "noise", sec);
	}
	if (stopped)
		fprintf(stderr, "rtmeasure: noise phase interrupted after %.1f s; what it measured "
			"is saved\n", (double)t->duration_ns / 1e9);
	rtm_result_free(t);
	return sec ? 0 : -1;
}

uint64_t measure_noise_now_ns(void)
{
	return mono_ns();
}
