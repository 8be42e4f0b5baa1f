// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opts.c - a session's options: their defaults, run --noise's checked against
 * the run's, and the few things every file of the session shares (the one-line
 * error, which probe measures).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/units.h"
#include "session/session_priv.h"
#include "trace/rtholds.h"

void rtm_session_opts_init(struct rtm_session_opts *o, const char *command)
{
	memset(o, 0, sizeof(*o));
	o->command = command;
	o->ops = &rtm_probe_timer_ops;
	o->probe.interval_ns = 1000 * 1000;
	o->probe.sched.policy = RTM_POLICY_FIFO;
	o->probe.sched.priority = 95;
	o->probe.mode = RTM_TIMER_NANOSLEEP;
	o->probe.lock_memory = true;
	o->probe.dma_latency_us = 0;
	o->ts_interval_ns = RTM_TS_DEFAULT_INTERVAL_NS;
	o->probe.log_max = 10000;
	o->probe.trace_off_fd = -1;
	o->trace.buffer_kb = 8192;
	o->probe.capture_max = 10;
	o->probe.capture_holdoff_ns = 1000000000ULL;
	o->box.deepest_idle = -2;
	o->trace.rt_hold_ns = RTM_RTHOLD_DEFAULT_NS;	/* --rt-hold: see rtmeasure-run(1) */
	o->trace.bpf = -1;			/* --bpf: for long runs when it loads */
	o->trace.timer_irq = true;		/* --timer-irq: whenever tracing, as --rt-hold */
}

void rtm_session_opts_release(struct rtm_session_opts *o)
{
	rtm_cpulist_release(&o->probe.cpus);
	rtm_cpulist_release(&o->box.housekeeping);
}

void rtm_session_noise_init(struct rtm_session_opts *o)
{
	o->noise.window_ns = RTM_NOISE_WINDOW_NS;
	o->noise.width_ns = RTM_NOISE_WIDTH_NS;
	o->noise.threshold_ns = RTM_NOISE_THRESHOLD_NS;
	o->noise.report_above_ns = RTM_NOISE_REPORT_NS;
	o->noise.max_gaps = RTM_NOISE_MAX_GAPS;
	o->trace.noise_trace = -1;	/* on as root when tracefs works, as noise's */
}

int rtm_session_noise_check(struct rtm_session_opts *o, bool given)
{
	const struct rtm_probe_noise_opts *n = &o->noise;
	const char *cmd = o->command;
	unsigned int f;
	char a[16], b[16];

	if (!o->noise_phase.on) {
		if (given)
			return rtm_session_fail(o, "%s: --noise-window, --noise-width, "
						"--noise-threshold and --noise-trace go with "
						"--noise", cmd);
		return 0;
	}
	if (!o->noise_phase.duration_ns)	/* a quarter of the latency phase, 15 s when open */
		o->noise_phase.duration_ns = o->probe.duration_ns ? o->probe.duration_ns / 4 :
					     15000000000ULL;
	if (o->noise_phase.duration_ns < n->window_ns)
		o->noise_phase.duration_ns = n->window_ns;	/* one whole window at least */
	rtm_fmt_ns(a, sizeof(a), n->width_ns);
	rtm_fmt_ns(b, sizeof(b), n->window_ns);
	/* no policy fault: rtm_session_noise_opts() makes the probe's one a busy loop runs at */
	f = rtm_noise_opts_faults(n);
	if (f & RTM_NOISE_BAD_WINDOW)
		return rtm_session_fail(o, "%s: --noise-window %s: give 10ms to 1h", cmd, b);
	if (f & RTM_NOISE_BAD_WIDTH)
		return rtm_session_fail(o, "%s: --noise-width %s: give 1ms or more", cmd, a);
	if (f & (RTM_NOISE_WIDTH_OVER | RTM_NOISE_WIDTH_FULL))
		return rtm_session_fail(o, "%s: --noise-width %s: give less than --noise-window "
					"%s (the measured CPUs need time for the rest; rtmeasure "
					"noise --force measures without a pause)", cmd, a, b);
	if (f & RTM_NOISE_BAD_THRESHOLD)
		return rtm_session_fail(o, "%s: --noise-threshold: give 100ns to 1s (the loop "
					"reads the counter every few tens of ns)", cmd);
	if (f & RTM_NOISE_BAD_REPORT)
		o->noise.report_above_ns = n->threshold_ns;
	if (o->trace.noise_trace < 0 && geteuid() != 0)
		o->trace.noise_trace = 0;
	return 0;
}

int rtm_session_fail(const struct rtm_session_opts *o, const char *fmt, ...)
{
	FILE *f = o->errf ? o->errf : stderr;
	va_list ap;

	fputs("rtmeasure: ", f);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	return RTM_SESSION_EXIT_USAGE;
}

bool rtm_session_latency_probe(const struct rtm_session_opts *o)
{
	return !strcmp(o->ops->section, "cpus");
}
