// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bpfsplit.c - which path splits the timer probe's wake-ups into their timer IRQ
 * part and wake-up part, and why: the tracefs stream (--trace, --timer-irq:
 * lib/trace/timerirq.c) or BPF programs counting in the kernel (--bpf:
 * lib/probe/timersplit.h). Both fill sections.timer_irq.
 *
 * The stream decodes every hrtimer event in userspace: fine for a spike hunt,
 * a cost that grows with the run. A run longer than RTM_SESSION_BPF_AUTO_NS
 * that asked for no tracing gets the BPF split by itself when it can load
 * (root, BTF, a build with BPF); when it cannot, such a run goes without a
 * split, as it did before, and --bpf makes that an error.
 *
 * Either path's figures so far show in the live lines and the progress lines
 * by the same formatter (rtm_timerirq_line_of()): the BPF maps are read there,
 * and at each interval boundary for the --prometheus page (promlive.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "probe/cyclic.h"
#include "probe/probe_timer.h"
#include "probe/timersplit.h"
#include "session/session_priv.h"
#include "trace/stream.h"
#include "trace/timerirq.h"

/* Longer runs without --trace take the BPF split by themselves. */
#define RTM_SESSION_BPF_AUTO_NS	(10ULL * 60 * 1000000000ULL)

/* Why --bpf cannot go with the options given, or NULL. */
static const char *bpf_conflict(const struct rtm_session_opts *m)
{
	if (m->trace.on)
		return "--trace and --capture-above stream the same split through tracefs: "
		       "give one of them";
	if (m->trace.timer_irq_given)
		return "--timer-irq asks for the tracefs split of the same wake-ups: give one "
		       "of them";
	if (!m->trace.timer_irq)
		return "--timer-irq 0 turns the split off: give one of them";
	if (m->ops != &rtm_probe_timer_ops)
		return "the timerlat backend splits every wake-up itself (use --backend timer)";
	if (m->probe.mode != RTM_TIMER_NANOSLEEP)
		return "the split follows the probe's clock_nanosleep hrtimer: not with --mode "
		       "timerfd or signal (drop --mode)";
	return NULL;
}

/* A long run that asked for no split of its own takes the BPF one when it loads. */
static bool auto_wanted(const struct rtm_session_opts *m)
{
	struct rtm_error err = { "" };

	return m->trace.bpf < 0 && m->probe.duration_ns > RTM_SESSION_BPF_AUTO_NS &&
	       !bpf_conflict(m) && rtm_timersplit_usable(&err);
}

int rtm_session_split_check(struct rtm_session_opts *m)
{
	struct rtm_error err = { "" };
	char dur[16], bound[16];
	const char *why;

	m->trace.split_bpf = false;
	if (m->trace.bpf > 0) {
		why = bpf_conflict(m);
		if (why)
			return rtm_session_fail(m, "%s: --bpf: %s", m->command, why);
		if (!rtm_timersplit_usable(&err))
			return rtm_session_fail(m, "%s: %s", m->command, err.msg);
		snprintf(m->trace.split_why, sizeof(m->trace.split_why), "asked for with --bpf");
	} else if (auto_wanted(m)) {
		rtm_fmt_duration(dur, sizeof(dur), m->probe.duration_ns);
		rtm_fmt_duration(bound, sizeof(bound), RTM_SESSION_BPF_AUTO_NS);
		snprintf(m->trace.split_why, sizeof(m->trace.split_why), "automatic: -D %s is "
			 "longer than %s, no --trace; --bpf 0: none", dur, bound);
	} else {
		return 0;
	}
	if (!m->trace.wakeup_fn && rtm_timerirq_kallsyms("/", "hrtimer_wakeup",
							 &m->trace.wakeup_fn))
		return m->trace.bpf > 0 ? rtm_session_fail(m, "%s: --bpf: hrtimer_wakeup is not "
					    "in /proc/kallsyms (sysctl kernel.kptr_restrict=1 "
					    "shows it to root): drop --bpf", m->command) : 0;
	m->trace.split_bpf = true;
	return 0;
}

void rtm_session_split_desc(const struct rtm_session_opts *m, char *buf, size_t len)
{
	buf[0] = '\0';
	if (m->trace.split_bpf)
		snprintf(buf, len, ", timer IRQ split: bpf (%s)", m->trace.split_why);
	else if (rtm_session_timer_irq_wanted(m))
		snprintf(buf, len, ", timer IRQ split: tracefs (%s streams the timer events)",
			 m->trace.timer_irq_given ? "--timer-irq" : "--trace");
}

struct rtm_timersplit *rtm_session_split_start(const struct rtm_session_opts *m,
					       struct rtm_error *err)
{
	return rtm_timersplit_create(m->trace.wakeup_fn, &m->probe.cpus, err);
}

void rtm_session_split_line(struct rtm_session *s, char *buf, size_t len)
{
	if (s->split)
		rtm_timersplit_line(s->split, buf, len);
	else
		rtm_stream_timer_irq_line(s->stream, buf, len);
}

void rtm_session_split_finish(const struct rtm_session_opts *m, struct rtm_timersplit *ts,
			      struct rtm_result *r)
{
	json_t *sec;

	rtm_timersplit_detach(ts);
	sec = rtm_timersplit_to_json(ts, &m->probe.cpus);
	if (sec) {
		json_object_set_new(sec, "backend_reason", json_string(m->trace.split_why));
		json_object_set_new(r->sections, "timer_irq", sec);
	}
	else
		fprintf(m->errf, "rtmeasure: warning: no timer IRQ split (out of memory)\n");
}
