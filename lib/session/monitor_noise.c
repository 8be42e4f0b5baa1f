// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * monitor_noise.c - rtmeasure monitor --noise-cpus: the noise panel's data.
 *
 * The busy-loop noise detector (lib/probe/probe_noise.c) runs on CPUs the timer
 * probe does not measure, at the same time: the two probes never share a CPU
 * (a FIFO busy loop would delay the timer thread on its CPU or be delayed by
 * it). The dashboard shows per noise CPU the noise %, the largest gap and its
 * cause, and the cause class with the most time. Causes come from the same
 * tracepoints and attribution as `noise --trace` (lib/trace/noiseattr.c, on as root
 * when tracefs works): at each refresh the gaps that ended at least
 * CAUSE_LAG_NS ago (their events have been drained) are laid over the events,
 * once each, and their class totals added up. The panel itself is drawn by
 * lib/present/dashboard_noise.c.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/units.h"
#include "session/monitor.h"
#include "session/session_priv.h"
#include "trace/noiseattr.h"
#include "trace/stream.h"

#define CAUSE_LAG_NS	500000000ULL	/* a gap's events are drained by then */
#define CAUSE_BATCH	65536		/* gaps attributed per CPU and refresh at most */

/* Is @cpu one this process may run on (online, in its cpuset)? */
static bool cpu_allowed(int cpu)
{
	cpu_set_t set;

	return cpu >= 0 && cpu < CPU_SETSIZE && !sched_getaffinity(0, sizeof(set), &set) &&
	       CPU_ISSET(cpu, &set);
}

int rtm_mon_noise_prepare(struct rtm_mon *mo)
{
	struct rtm_cpulist *t = &mo->m.probe.cpus;
	char a[256], b[256];
	int i, j, k, ret;

	if (!mo->noise_cpus.n) {
		if (mo->noise_opt_given)
			return rtm_session_fail(&mo->m, "monitor: --noise-window, --noise-width, "
						"--noise-threshold and --noise-trace go with "
						"--noise-cpus");
		return 0;
	}
	rtm_cpulist_format(&mo->noise_cpus, a, sizeof(a));
	for (i = 0; i < mo->noise_cpus.n; i++)
		if (!cpu_allowed(mo->noise_cpus.cpus[i]))
			return rtm_session_fail(&mo->m, "monitor: --noise-cpus %s: CPU %d is not "
						"online or not in this process's cpuset", a,
						mo->noise_cpus.cpus[i]);
	if (mo->m.box.cpus_given) {
		for (i = 0; i < t->n; i++)
			if (rtm_cpulist_has(&mo->noise_cpus, t->cpus[i])) {
				rtm_cpulist_format(t, b, sizeof(b));
				return rtm_session_fail(&mo->m, "monitor: --noise-cpus %s and -a "
							"%s share CPU %d: the two probes never "
							"measure a CPU together; give them apart",
							a, b, t->cpus[i]);
			}
	} else {	/* the timer probe: every other CPU */
		for (i = j = 0; i < t->n; i++)
			if (!rtm_cpulist_has(&mo->noise_cpus, t->cpus[i]))
				t->cpus[j++] = t->cpus[i];
		t->n = j;
		if (!j)
			return rtm_session_fail(&mo->m, "monitor: --noise-cpus %s takes every CPU: "
						"leave one for the timer probe (or give -a)", a);
	}
	/* the duty cycle and the threshold, checked as run --noise checks them */
	mo->m.noise_phase.on = true;
	ret = rtm_session_noise_check(&mo->m, true);
	mo->m.noise_phase.on = false;
	if (ret)
		return ret;
	mo->nn = mo->noise_cpus.n;
	mo->noise = calloc((size_t)mo->nn, sizeof(*mo->noise));
	if (!mo->noise)
		return rtm_session_fail(&mo->m, "out of memory");
	for (k = 0; k < mo->nn; k++)
		mo->noise[k].cpu = mo->noise_cpus.cpus[k];
	return 0;
}

/* The noise probe's options: the monitor's, on the noise CPUs, until stopped. */
static void noise_opts(const struct rtm_mon *mo, struct rtm_session_opts *n)
{
	rtm_session_noise_opts(&mo->m, n, &mo->noise_cpus, 0, "monitor --noise-cpus: the busy "
			       "loop, on CPUs the timer probe does not measure");
	n->box.cpus_given = true;
	n->probe.cpus = mo->noise_cpus;		/* borrowed */
}

int rtm_mon_noise_start(struct rtm_mon *mo, struct rtm_error *err)
{
	struct rtm_session_opts n;

	if (!mo->nn)
		return 0;
	noise_opts(mo, &n);
	if (rtm_session_noise_trace_wanted(&n)) {
		mo->nhold = rtm_session_stream_start(&n, err);
		if (!mo->nhold && !rtm_session_stream_optional(&n, err))
			return -1;
		if (!mo->nhold)
			snprintf(mo->noise_note, sizeof(mo->noise_note), "no gap causes: %.200s",
				 err->msg);
		err->msg[0] = '\0';
	}
	mo->nrun = rtm_probe_run_start(n.ops, &n.noise, n.ts_interval_ns, err);
	if (!mo->nrun)
		return -1;
	mo->np = rtm_probe_run_probe(mo->nrun);
	return 0;
}

/* The gaps of CPU @i ended by @until and not yet attributed, as a one-CPU section. */
static json_t *new_gaps(struct rtm_mon *mo, int i, uint64_t until, uint32_t *taken)
{
	struct rtm_mon_noise *mn = &mo->noise[i];
	uint64_t start = rtm_probe_noise_start_ns(mo->np);
	json_t *list = json_array(), *sec;
	uint32_t n, k;

	*taken = 0;
	n = rtm_probe_noise_gaps(mo->np, i, mn->attributed, mo->gapbuf, CAUSE_BATCH);
	for (k = 0; k < n && mo->gapbuf[k].start_ns + mo->gapbuf[k].len_ns <= until; k++)
		json_array_append_new(list, json_pack("[I, I]",
			(json_int_t)(mo->gapbuf[k].start_ns - start),
			(json_int_t)mo->gapbuf[k].len_ns));
	*taken = k;
	sec = json_pack("{s:I, s:I, s:[{s:i, s:o}]}", "start_mono_ns", (json_int_t)start,
			"window_ns", (json_int_t)mo->m.noise.window_ns, "cpus", "cpu", mn->cpu,
			"gap_list", list);
	return sec;
}

/* Fold one CPU's freshly attributed gaps into its totals and its largest gap's cause. */
static void fold_causes(struct rtm_mon_noise *mn, const json_t *cpu)
{
	static const char *const cls[RTM_NOISE_NCLASSES] = { "irq_ns", "softirq_ns", "nmi_ns",
							     "thread_ns", "rt_throttling_ns",
							     "unexplained_ns" };
	const json_t *causes = json_object_get(cpu, "causes"), *g, *gc;
	const json_t *contrib = json_object_get(causes, "contributors");
	size_t j;
	int k;

	for (k = 0; k < RTM_NOISE_NCLASSES; k++)
		mn->class_ns[k] += (uint64_t)json_integer_value(json_object_get(causes, cls[k]));
	json_array_foreach(json_object_get(cpu, "gap_list"), j, g) {
		uint64_t len = (uint64_t)json_integer_value(json_array_get(g, 1));
		json_int_t idx;

		if (len <= mn->caused_max_ns)
			continue;
		gc = json_array_get(json_object_get(cpu, "gap_causes"), j);
		idx = json_integer_value(json_array_get(gc, 0));
		mn->caused_max_ns = len;
		snprintf(mn->max_cause, sizeof(mn->max_cause), "%s", idx < 0 ? "unexplained" :
			 json_string_value(json_object_get(json_array_get(contrib, (size_t)idx),
							   "label")) ?: "?");
	}
	mn->traced = true;
}

void rtm_mon_noise_refresh(struct rtm_mon *mo)
{
	uint64_t until = rtm_clock_ns(CLOCK_MONOTONIC) - CAUSE_LAG_NS;
	struct rtm_noise_cpu_snap snap;
	int i;

	if (!mo->nn || !mo->np)
		return;
	if (mo->nhold && !mo->gapbuf)
		mo->gapbuf = calloc(CAUSE_BATCH, sizeof(*mo->gapbuf));
	for (i = 0; i < mo->nn; i++) {
		struct rtm_mon_noise *mn = &mo->noise[i];
		uint32_t taken;
		json_t *sec;

		rtm_probe_noise_snapshot(mo->np, i, &snap, NULL);
		mn->sampled_ns = snap.sampled_ns;
		mn->noise_ns = snap.noise_ns;
		mn->max_gap_ns = snap.max_gap_ns;
		mn->gaps = snap.gaps;
		if (!mo->nhold || !mo->gapbuf)
			continue;
		sec = new_gaps(mo, i, until, &taken);
		if (sec && taken && !rtm_stream_noise_apply(mo->nhold, sec)) {
			fold_causes(mn, json_array_get(json_object_get(sec, "cpus"), 0));
			mn->attributed += taken;
		} else if (sec && !taken) {
			mn->traced = true;
		}
		json_decref(sec);
	}
}

void rtm_mon_noise_poll(struct rtm_mon *mo)
{
	if (!mo->nrun)
		return;
	rtm_probe_run_tick(mo->nrun);
	rtm_stream_poll(mo->nhold);
}

int rtm_mon_noise_finish(struct rtm_mon *mo, struct rtm_result *r, struct rtm_error *err)
{
	struct rtm_result *t;
	json_t *sec;
	int ret;

	if (!mo->nrun)
		return 0;
	rtm_probe_run_stop(mo->nrun);
	t = rtm_result_alloc("noise");
	if (!t)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	ret = rtm_probe_run_finish(mo->nrun, t, err);
	if (!ret) {
		rtm_session_stream_finish(&mo->m, mo->nhold, t);	/* the gap causes */
		sec = json_object_get(t->sections, "noise");
		if (sec)
			json_object_set(r->sections, "noise", sec);
	}
	rtm_result_free(t);
	return ret;
}

void rtm_mon_noise_free(struct rtm_mon *mo)
{
	if (mo->nrun) {
		rtm_probe_run_stop(mo->nrun);
		rtm_probe_run_free(mo->nrun);
		mo->nrun = NULL;
		mo->np = NULL;
	}
	rtm_stream_free(mo->nhold);
	mo->nhold = NULL;
	free(mo->noise);
	mo->noise = NULL;
	free(mo->gapbuf);
	mo->gapbuf = NULL;
	rtm_cpulist_release(&mo->noise_cpus);
}
