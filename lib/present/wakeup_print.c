// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wakeup_print.c - what rtmeasure wakeup measured and the tasks with the
 * longest wake-up waits: a table for the terminal, a section for the report;
 * the census of the waits over the bound, as sentences, a table and the longest.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/jsonutil.h"
#include "core/units.h"
#include "present/html.h"
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

void rtm_wakeup_selection_text(char *buf, size_t len, const json_t *wk)
{
	const json_t *sel = json_object_get(wk, "selection"), *pol = json_object_get(sel, "policies");
	const char *by = json_string_value(json_object_get(sel, "by")) ?: "";
	size_t i, n = 0;
	bool rt;

	if (!strcmp(by, "pid")) {
		snprintf(buf, len, "the threads of process %" JSON_INTEGER_FORMAT,
			 json_integer_value(json_object_get(sel, "pid")));
		return;
	}
	if (!strcmp(by, "comm")) {
		snprintf(buf, len, "the threads named %s",
			 json_string_value(json_object_get(sel, "comm")) ?: "?");
		return;
	}
	/* the default, every real-time policy: fifo, rr, deadline and nothing else */
	rt = json_array_size(pol) == 3;
	for (i = 0; rt && i < 3; i++) {
		const char *p = json_string_value(json_array_get(pol, i)) ?: "";

		rt = !strcmp(p, "fifo") || !strcmp(p, "rr") || !strcmp(p, "deadline");
	}
	n = (size_t)snprintf(buf, len, "%s (", rt ? "real-time tasks" : "tasks of policy");
	for (i = 0; i < json_array_size(pol) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				      json_string_value(json_array_get(pol, i)) ?: "?");
	if (n < len)
		snprintf(buf + n, len - n, ")");
}

void rtm_wakeup_what_text(char *buf, size_t len, const json_t *wk)
{
	char sel[160];

	rtm_wakeup_selection_text(sel, sizeof(sel), wk);
	if (json_is_true(json_object_get(wk, "beside_probe"))) {	/* monitor --wakeup */
		snprintf(buf, len, "Also measured: the box's own tasks' waits from each wake-up "
			 "to the switch-in, tasks taken: %s (monitor --wakeup: BPF programs on "
			 "sched_wakeup and sched_switch), per task; the CPUs' figures are the timer "
			 "probe's, and the monitor's own threads are not among the tasks.", sel);
		return;
	}
	snprintf(buf, len, "Measured: the box's own tasks' waits from each wake-up to the "
		 "switch-in, tasks taken: %s (rtmeasure wakeup: BPF programs on sched_wakeup and "
		 "sched_switch), per CPU the wait ended on. Not rtmeasure's timer probe: no probe "
		 "thread ran, and a timer's own delay before it wakes a task is not in these waits.",
		 sel);
}

/* The cells of one task: TID, PID, comm, policy, wake-ups, avg, max, CPU, over the bound. */
struct task_cells {
	char tid[16], pid[16], policy[32], count[24], avg[16], max[16], cpu[16], above[24];
	const char *comm;
};

static void task_cells(const json_t *t, struct task_cells *c)
{
	const char *policy = json_string_value(json_object_get(t, "policy"));

	snprintf(c->tid, sizeof(c->tid), "%" JSON_INTEGER_FORMAT,
		 json_integer_value(json_object_get(t, "pid")));
	snprintf(c->pid, sizeof(c->pid), "%" JSON_INTEGER_FORMAT,
		 json_integer_value(json_object_get(t, "tgid")));
	snprintf(c->policy, sizeof(c->policy), "%s %" JSON_INTEGER_FORMAT, policy ?: "?",
		 json_integer_value(json_object_get(t, "rt_priority")));
	snprintf(c->count, sizeof(c->count), "%" PRIu64, u64_of(t, "count"));
	rtm_fmt_us(c->avg, sizeof(c->avg), u64_of(t, "avg_ns"));
	rtm_fmt_us(c->max, sizeof(c->max), u64_of(t, "max_ns"));
	snprintf(c->cpu, sizeof(c->cpu), "%" JSON_INTEGER_FORMAT,
		 json_integer_value(json_object_get(t, "max_cpu")));
	snprintf(c->above, sizeof(c->above), "%" PRIu64, u64_of(t, "above"));
	c->comm = json_string_value(json_object_get(t, "comm")) ?: "?";
}

/* What the tables leave out: wake-ups lost, waits outside the task table. */
static void lost_text(char *buf, size_t len, const json_t *wk)
{
	uint64_t wakes = u64_of(wk, "lost_wakeups"), tasks = u64_of(wk, "lost_tasks");
	size_t n = 0;

	buf[0] = '\0';
	if (wakes)
		n = (size_t)snprintf(buf, len, "%" PRIu64 " wake-ups were not measured: more tasks "
				     "waited at once than the wake-up table holds. ", wakes);
	if (tasks && n < len)
		snprintf(buf + n, len - n, "%" PRIu64 " waits of tasks beyond the first %" PRIu64
			 " are in the histograms only (--tasks sets the table's size).", tasks,
			 u64_of(wk, "task_cap"));
}

void rtm_wakeup_html(FILE *f, const json_t *wk)
{
	const json_t *tasks = json_object_get(wk, "tasks");
	uint64_t above_ns = u64_of(wk, "above_ns");
	struct task_cells c;
	char text[512], bound[16];
	size_t i;

	if (!wk)
		return;
	fputs("<h2>The box's tasks: wake-up to switch-in</h2>\n<p>", f);
	rtm_wakeup_what_text(text, sizeof(text), wk);
	rtm_html_text(f, text);
	fputs("</p>\n", f);
	if (!json_array_size(tasks)) {
		fputs("<p>No selected task was woken.</p>\n", f);
		return;
	}
	rtm_fmt_us(bound, sizeof(bound), above_ns);
	fprintf(f, "<p>The tasks with the longest waits (%zu of %" PRIu64 " seen), longest first; "
		"latencies in microseconds.</p>\n<table>\n<tr><th>TID</th><th>PID</th>"
		"<th class=\"l\">command</th><th class=\"l\">policy</th><th>wake-ups</th>"
		"<th>avg</th><th>max</th><th>CPU of max</th>", json_array_size(tasks),
		u64_of(wk, "tasks_seen"));
	if (above_ns)
		fprintf(f, "<th>over %s</th>", bound);
	fputs("</tr>\n", f);
	for (i = 0; i < json_array_size(tasks); i++) {
		task_cells(json_array_get(tasks, i), &c);
		fprintf(f, "<tr><td>%s</td><td>%s</td><td class=\"l\">", c.tid, c.pid);
		rtm_html_text(f, c.comm);
		fprintf(f, "</td><td class=\"l\">%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>",
			c.policy, c.count, c.avg, c.max, c.cpu);
		if (above_ns)
			fprintf(f, "<td>%s</td>", c.above);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	lost_text(text, sizeof(text), wk);
	if (text[0])
		fprintf(f, "<p class=\"warn\">%s</p>\n", text);
}

void rtm_wakeup_md(FILE *f, const json_t *wk)
{
	const json_t *tasks = json_object_get(wk, "tasks");
	uint64_t above_ns = u64_of(wk, "above_ns");
	struct task_cells c;
	char text[512], bound[16];
	size_t i;

	if (!wk)
		return;
	rtm_wakeup_what_text(text, sizeof(text), wk);
	fputs("## The box's tasks: wake-up to switch-in\n\n", f);
	rtm_md_text(f, text);
	fputs("\n\n", f);
	if (!json_array_size(tasks)) {
		fputs("No selected task was woken.\n\n", f);
		return;
	}
	rtm_fmt_us(bound, sizeof(bound), above_ns);
	fprintf(f, "The tasks with the longest waits (%zu of %" PRIu64 " seen), longest first; "
		"latencies in microseconds.\n\n| TID | PID | command | policy | wake-ups | avg | "
		"max | CPU of max |%s%s%s\n|---:|---:|---|---|---:|---:|---:|---:|%s\n",
		json_array_size(tasks), u64_of(wk, "tasks_seen"), above_ns ? " over " : "",
		above_ns ? bound : "", above_ns ? " |" : "", above_ns ? "---:|" : "");
	for (i = 0; i < json_array_size(tasks); i++) {
		task_cells(json_array_get(tasks, i), &c);
		fprintf(f, "| %s | %s | ", c.tid, c.pid);
		rtm_md_text(f, c.comm);
		fprintf(f, " | %s | %s | %s | %s | %s |", c.policy, c.count, c.avg, c.max, c.cpu);
		if (above_ns)
			fprintf(f, " %s |", c.above);
		fputc('\n', f);
	}
	fputc('\n', f);
	lost_text(text, sizeof(text), wk);
	if (text[0])
		fprintf(f, "%s\n\n", text);
}
