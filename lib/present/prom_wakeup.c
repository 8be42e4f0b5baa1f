// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prom_wakeup.c - the Prometheus families of rtmeasure wakeup: the box's own
 * tasks' waits from wake-up to switch-in, named for that (rtmeasure_task_wakeup_*)
 * so that no query mistakes them for the probe's wake-up latency
 * (rtmeasure_wakeup_latency_*), and the tasks with the longest waits, labelled
 * comm, pid and tgid, at most RTM_PROM_WAKEUP_TASKS of them: the series a box
 * gives stay bounded whatever runs on it.
 */
#include <inttypes.h>
#include <stdio.h>

#include "core/jsonutil.h"
#include "present/prom_priv.h"

#define STR_(x)	#x
#define STR(x)	STR_(x)
#define TOP	"(at most " STR(RTM_PROM_WAKEUP_TASKS) " tasks, the longest first)"

const struct rtm_prom_latency rtm_prom_task_latency = {
	"rtmeasure_task_wakeup_latency_seconds",
	"How long the box's own selected tasks waited from their wake-up to running "
	"(sched_wakeup to sched_switch in), per CPU the wait ended on.",
	"rtmeasure_task_wakeup_latency_max_seconds",
	"Longest wait of the box's selected tasks from wake-up to switch-in, exact, over "
	"the whole run or the latest interval.",
	"rtmeasure_task_wakeup_latency_percentile_seconds",
	"Percentile of the box's selected tasks' waits from wake-up to switch-in (nearest "
	"rank, within half a histogram bucket); left out with fewer than 10 samples "
	"expected beyond it.",
};

/* @key of @o as a count or ns; false when missing or not one (left out, not guessed) */
static bool get_u64(const json_t *o, const char *key, uint64_t *v)
{
	return !rtm_json_get_u64(json_object_get(o, key), v);
}

static void counter_of(struct rtm_prom_page *p, const char *name, const char *const *kv,
		       const json_t *o, const char *key)
{
	char buf[32];
	uint64_t v;

	if (!get_u64(o, key, &v))
		return;
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	rtm_prom_counter(p, name, -1, kv, buf);
}

/* The whole run's figures: the bound and the waits over it, what was lost. */
static void run_series(struct rtm_prom_page *p, const json_t *wk)
{
	static const char above[] = "rtmeasure_task_wakeups_above";
	static const char bound[] = "rtmeasure_task_wakeup_above_bound_seconds";
	static const char unmeasured[] = "rtmeasure_task_wakeups_unmeasured";
	static const char untracked[] = "rtmeasure_task_wakeups_outside_task_table";
	static const char seen[] = "rtmeasure_task_wakeup_tasks_seen";
	char buf[40];
	uint64_t v;

	if (get_u64(wk, "above_ns", &v) && v) {
		rtm_prom_family(p, bound, "gauge", "seconds",
				"The bound of rtmeasure wakeup --above: waits longer than it are "
				"counted.");
		rtm_prom_sample(p, bound, "", -1, NULL, rtm_prom_secs(buf, sizeof(buf), v));
		rtm_prom_family(p, above, "counter", NULL,
				"Waits of the selected tasks longer than the --above bound, all "
				"CPUs.");
		counter_of(p, above, NULL, wk, "above");
	}
	rtm_prom_family(p, unmeasured, "counter", NULL,
			"Wake-ups not measured: more selected tasks waited at once than the "
			"table of pending wake-ups holds.");
	counter_of(p, unmeasured, NULL, wk, "lost_wakeups");
	rtm_prom_family(p, untracked, "counter", NULL,
			"Waits of tasks beyond the task table (--tasks): in the histograms, "
			"not in the per-task series.");
	counter_of(p, untracked, NULL, wk, "lost_tasks");
	if (get_u64(wk, "tasks_seen", &v)) {
		rtm_prom_family(p, seen, "gauge", NULL,
				"Selected tasks woken so far, each measured apart.");
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
		rtm_prom_sample(p, seen, "", -1, NULL, buf);
	}
}

/* One per-task family: @key of each of the first @n tasks, ns as seconds when @ns. */
static void task_family(struct rtm_prom_page *p, const json_t *tasks, size_t n,
			const char *name, const char *type, const char *key, bool ns,
			const char *help)
{
	char buf[40], pid[16], tgid[16];
	const char *kv[] = { "comm", NULL, "pid", pid, "tgid", tgid, NULL };
	bool counter = type[0] == 'c';
	size_t i;
	uint64_t v;

	rtm_prom_family(p, name, type, ns ? "seconds" : NULL, help);
	for (i = 0; i < n; i++) {
		const json_t *t = json_array_get(tasks, i);

		kv[1] = json_string_value(json_object_get(t, "comm")) ?: "";
		snprintf(pid, sizeof(pid), "%" JSON_INTEGER_FORMAT,
			 json_integer_value(json_object_get(t, "pid")));
		snprintf(tgid, sizeof(tgid), "%" JSON_INTEGER_FORMAT,
			 json_integer_value(json_object_get(t, "tgid")));
		if (!get_u64(t, key, &v))
			continue;
		if (ns)
			rtm_prom_secs(buf, sizeof(buf), v);
		else
			snprintf(buf, sizeof(buf), "%" PRIu64, v);
		if (counter)
			rtm_prom_counter(p, name, -1, kv, buf);
		else
			rtm_prom_sample(p, name, "", -1, kv, buf);
	}
}

void rtm_prom_wakeup_tasks(struct rtm_prom_page *p, const json_t *wk)
{
	const json_t *tasks = json_object_get(wk, "tasks");
	size_t n = json_array_size(tasks);
	uint64_t above_ns = 0;

	run_series(p, wk);
	if (n > RTM_PROM_WAKEUP_TASKS)
		n = RTM_PROM_WAKEUP_TASKS;
	if (!n)
		return;
	task_family(p, tasks, n, "rtmeasure_task_wakeup_per_task_wakeups", "counter", "count",
		    false, "Wake-ups measured of each task with the longest waits " TOP ".");
	task_family(p, tasks, n, "rtmeasure_task_wakeup_per_task_max_seconds", "gauge", "max_ns",
		    true, "Longest wait from wake-up to switch-in of each task with the longest "
		    "waits " TOP ".");
	task_family(p, tasks, n, "rtmeasure_task_wakeup_per_task_avg_seconds", "gauge", "avg_ns",
		    true, "Average wait from wake-up to switch-in of each task with the longest "
		    "waits " TOP ".");
	if (get_u64(wk, "above_ns", &above_ns) && above_ns)
		task_family(p, tasks, n, "rtmeasure_task_wakeup_per_task_above", "counter",
			    "above", false, "Waits longer than the --above bound of each task "
			    "with the longest waits " TOP ".");
}
