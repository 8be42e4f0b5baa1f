// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wakeup_print.c - the tasks with the longest wake-up waits, as a table.
 */
#include <inttypes.h>
#include <stdio.h>

#include "core/jsonutil.h"
#include "core/units.h"
#include "present/wakeup_print.h"

static uint64_t u64_of(const json_t *o, const char *key)
{
	uint64_t v = 0;

	rtm_json_get_u64(json_object_get(o, key), &v);
	return v;
}

static void task_row(FILE *f, const json_t *t, uint64_t above_ns)
{
	char avg[16], max[16], prio[16];
	const char *policy = json_string_value(json_object_get(t, "policy"));

	rtm_fmt_us(avg, sizeof(avg), u64_of(t, "avg_ns"));
	rtm_fmt_us(max, sizeof(max), u64_of(t, "max_ns"));
	snprintf(prio, sizeof(prio), "%s %" JSON_INTEGER_FORMAT, policy ? policy : "?",
		 json_integer_value(json_object_get(t, "rt_priority")));
	fprintf(f, "%7" JSON_INTEGER_FORMAT " %7" JSON_INTEGER_FORMAT " %-16s %-9s %10" PRIu64
		" %9s %9s %4" JSON_INTEGER_FORMAT, json_integer_value(json_object_get(t, "pid")),
		json_integer_value(json_object_get(t, "tgid")),
		json_string_value(json_object_get(t, "comm")) ?: "?", prio, u64_of(t, "count"),
		avg, max, json_integer_value(json_object_get(t, "max_cpu")));
	if (above_ns)
		fprintf(f, " %9" PRIu64, u64_of(t, "above"));
	fputc('\n', f);
}

void rtm_wakeup_fprint_tasks(FILE *f, const json_t *wk)
{
	const json_t *tasks = json_object_get(wk, "tasks");
	uint64_t above_ns = u64_of(wk, "above_ns"), lost;
	char bound[24];
	size_t i;

	if (!json_array_size(tasks)) {
		fprintf(f, "no selected task was woken\n");
		return;
	}
	snprintf(bound, sizeof(bound), ">");
	rtm_fmt_us(bound + 1, sizeof(bound) - 1, above_ns);
	fprintf(f, "tasks with the longest waits, wake-up to switch-in (%zu of %" PRIu64
		" seen; us):\n", json_array_size(tasks), u64_of(wk, "tasks_seen"));
	fprintf(f, "%7s %7s %-16s %-9s %10s %9s %9s %4s", "TID", "PID", "COMM", "POLICY",
		"wake-ups", "avg", "max", "CPU");
	if (above_ns)
		fprintf(f, " %9s", bound);
	fputc('\n', f);
	for (i = 0; i < json_array_size(tasks); i++)
		task_row(f, json_array_get(tasks, i), above_ns);
	lost = u64_of(wk, "lost_wakeups");
	if (lost)
		fprintf(f, "%" PRIu64 " wake-ups not measured: more tasks waited at once than the "
			"wake-up table holds\n", lost);
	lost = u64_of(wk, "lost_tasks");
	if (lost)
		fprintf(f, "%" PRIu64 " wake-ups of tasks beyond the first %" PRIu64 " are in the "
			"histograms only (--tasks sets the table's size)\n", lost,
			u64_of(wk, "task_cap"));
}
