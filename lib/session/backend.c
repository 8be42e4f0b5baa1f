// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * backend.c - `cyclic`/`run --backend auto|timer|timerlat`: which probe measures
 * the wake-up latency. timer (the default) is rtmeasure's own userspace probe;
 * timerlat is the kernel's timerlat tracer (lib/probe/probe_timerlat.c), whose
 * kthreads measure the same thing from inside the kernel and split each wake-up
 * into its IRQ and thread part. auto takes timerlat where the kernel has it and
 * can run it here (tracefs, root, nobody else running timerlat or osnoise) and
 * nothing asked for needs the userspace probe; else timer. The reason goes into
 * result.json.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "probe/ktracer.h"
#include "session/session_priv.h"
#include "tracefs/instance.h"

/* The first option given that only the userspace probe has, or NULL. */
static const char *timer_only_option(const struct rtm_session_opts *m)
{
	if (m->probe.mode != RTM_TIMER_NANOSLEEP)
		return "--mode (the kernel's threads sleep on an hrtimer of their own)";
	if (m->probe.distance_ns)
		return "-d/--distance (timerlat has one period for all CPUs)";
	if (m->probe.loops)
		return "-l/--loops (give -D)";
	if (m->probe.break_ns)
		return "-b/--breaktrace";
	if (m->trace.on || m->probe.capture_ns)
		return "--trace and --capture-above (the flight recorder follows rtmeasure's "
		       "own threads)";
	if (m->probe.log_above_ns)
		return "--log-above";
	if (m->trace.timer_irq_given)
		return "--timer-irq (timerlat splits every wake-up itself)";
	if (m->trace.bpf > 0)
		return "--bpf (the split of rtmeasure's own probe)";
	if (m->trace.rt_hold_given)
		return "--rt-hold";
	if (m->prometheus)
		return "--prometheus (no live figures from the tracer yet)";
	if (m->box.no_rt)
		return "--no-rt (the tracer needs root; give --policy other)";
	return NULL;
}

/* Why the timerlat tracer cannot run here, or NULL when it can. Written into @buf. */
static const char *timerlat_missing(char *buf, size_t len)
{
	struct rtm_error err = { "" };
	const char *dir = rtm_trace_find_tracefs(&err);

	if (!dir)
		snprintf(buf, len, "%s", err.msg);
	else if (geteuid() != 0 && access(dir, W_OK) != 0)
		snprintf(buf, len, "the timerlat tracer needs root (or write access to %s)", dir);
	else if (!rtm_ktracer_has(dir, "timerlat"))
		snprintf(buf, len, "this kernel has no timerlat tracer (CONFIG_TIMERLAT_TRACER)");
	else
		return NULL;
	return buf;
}

/* Another user of timerlat or osnoise (they share threads and settings): @where names it. */
static bool in_use(char *where, size_t len)
{
	struct rtm_error err = { "" };
	const char *dir = rtm_trace_find_tracefs(&err);

	return dir && (rtm_ktracer_in_use(dir, "timerlat", where, len) ||
		       rtm_ktracer_in_use(dir, "osnoise", where, len));
}

int rtm_session_pick_backend(struct rtm_session_opts *m)
{
	char *reason = m->backend_why;	/* read by the probe until the run ends */
	const size_t len = sizeof(m->backend_why);
	const char *b = m->backend, *only;
	char why[256];

	if (!b || !strcmp(b, "timer")) {
		m->timerlat.backend_reason = b ? "asked for with --backend timer" : NULL;
		return 0;
	}
	only = timer_only_option(m);
	if (!strcmp(b, "timerlat")) {
		if (only)
			return rtm_session_fail(m, "%s: --backend timerlat: %s works with "
						"rtmeasure's own probe only; use --backend timer",
						m->command, only);
		if (timerlat_missing(why, sizeof(why)))
			return rtm_session_fail(m, "%s: --backend timerlat: %s; use --backend "
						"timer", m->command, why);
		m->ops = &rtm_probe_timerlat_ops;
		m->timerlat.backend_reason = "asked for with --backend timerlat";
		return 0;
	}
	/* auto: the userspace probe unless timerlat can run now, untouched by anyone */
	m->timerlat.backend_reason = reason;
	if (only) {
		snprintf(reason, len, "chosen by --backend auto: %s asked for", only);
		return 0;
	}
	if (timerlat_missing(why, sizeof(why))) {
		snprintf(reason, len, "chosen by --backend auto: %s", why);
		return 0;
	}
	if (in_use(why, sizeof(why))) {
		snprintf(reason, len, "chosen by --backend auto: the timerlat/osnoise "
			 "tracer is in use (%s)", why);
		return 0;
	}
	snprintf(reason, len, "chosen by --backend auto: the kernel has the timerlat "
		 "tracer");
	m->ops = &rtm_probe_timerlat_ops;
	return 0;
}
