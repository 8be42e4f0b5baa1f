// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wakeup_print.c - the tasks with the longest wake-up waits, as a table; the
 * census of the waits over the bound, as sentences, a table and the longest.
 */
#include <inttypes.h>
#include <stdio.h>

#include "core/jsonutil.h"
#include "core/units.h"
#include "present/wakeup_print.h"
#include "probe/wakeup_cause.h"

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

/* The census's table: a row per CPU and culprit. */
static void census_table(FILE *f, const json_t *census)
{
	const json_t *cpu, *e;
	char c[16], w[16];
	size_t i, j;

	fprintf(f, "%4s %-9s %-32s %7s %10s %10s\n", "CPU", "cause", "culprit", "waits",
		"largest", "longest");
	json_array_foreach(json_object_get(census, "cpus"), i, cpu) {
		json_array_foreach(json_object_get(cpu, "culprits"), j, e) {
			rtm_fmt_ns(c, sizeof(c), u64_of(e, "max_culprit_ns"));
			rtm_fmt_ns(w, sizeof(w), u64_of(e, "max_wait_ns"));
			fprintf(f, "%4" JSON_INTEGER_FORMAT " %-9s %-32s %7" PRIu64 " %10s %10s\n",
				json_integer_value(json_object_get(cpu, "cpu")),
				json_string_value(json_object_get(e, "cause")) ?: "?",
				json_string_value(json_object_get(e, "culprit")) ?: "?",
				u64_of(e, "count"), c, w);
		}
		if (u64_of(cpu, "other")) {
			rtm_fmt_ns(c, sizeof(c), u64_of(cpu, "other_max_ns"));
			fprintf(f, "%4" JSON_INTEGER_FORMAT " %-9s %-32s %7" PRIu64 " %10s %10s\n",
				json_integer_value(json_object_get(cpu, "cpu")), "", "other",
				u64_of(cpu, "other"), c, "");
		}
	}
}

/* The @n longest waits of the list, longest first, a sentence each. */
static void longest_waits(FILE *f, const json_t *list, size_t n)
{
	size_t len = json_array_size(list), i, k, best;
	uint64_t prev = UINT64_MAX, prev_i = 0, v, bv;

	/* selection without a copy: each round the longest below the last one taken */
	for (k = 0; k < n && k < len; k++) {
		best = len;
		bv = 0;
		for (i = 0; i < len; i++) {
			v = u64_of(json_array_get(list, i), "wait_ns");
			if ((v < prev || (v == prev && i > prev_i)) && (best == len || v > bv)) {
				best = i;
				bv = v;
			}
		}
		if (best == len)
			break;
		fprintf(f, "  %s\n", json_string_value(json_object_get(json_array_get(list, best),
							"sentence")) ?: "?");
		prev = bv;
		prev_i = best;
	}
}

void rtm_wakeup_fprint_census(FILE *f, const json_t *wk)
{
	const json_t *census = json_object_get(wk, "census"), *cpu;
	uint64_t limited, full;
	size_t listed;
	char line[1024];
	size_t i;

	if (!census)
		return;
	rtm_wakeup_census_sentence(census, line, sizeof(line), 6);
	fprintf(f, "Wait census (every wait over the bound, its cause decided in the kernel; "
		"result.json: sections.wakeup.census):\n  %s\n", line);
	json_array_foreach(json_object_get(census, "cpus"), i, cpu) {
		rtm_wakeup_census_cpu_sentence(census, cpu, line, sizeof(line), 4);
		fprintf(f, "  %s\n", line);
	}
	if (!u64_of(census, "waits"))
		return;
	census_table(f, census);
	listed = json_array_size(json_object_get(census, "list"));
	if (listed > RTM_WAKEUP_PRINT_LONGEST)
		fprintf(f, "the %d longest of the %zu waits listed in result.json:\n",
			RTM_WAKEUP_PRINT_LONGEST, listed);
	else
		fprintf(f, "the waits, longest first:\n");
	longest_waits(f, json_object_get(census, "list"), RTM_WAKEUP_PRINT_LONGEST);
	limited = u64_of(census, "limited");
	full = u64_of(census, "ring_full");
	if (limited || full)
		fprintf(f, "%" PRIu64 " waits over the bound without a cause: %" PRIu64 " over "
			"the rate of %d a second per CPU, %" PRIu64 " with the ring buffer full\n",
			limited + full, limited, RTM_WK_CAUSE_RATE, full);
}
