// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtholds_print.c - the real-time tasks that held a CPU (result.json's
 * sections.rt_holds) for people: the run summary's block, report.html's
 * section and report.md's.
 */
#include <stdio.h>

#include "present/html.h"
#include "present/rtholds_print.h"
#include "trace/rtholds.h"
#include "core/units.h"

static void task_line(const json_t *t, char *buf, size_t len)
{
	char sched[48], d[16];
	const json_t *prio = json_object_get(t, "kernel_prio");
	long long n = json_integer_value(json_object_get(t, "intervals"));
	bool open = json_is_true(json_object_get(t, "longest_open"));
	bool known = json_is_true(json_object_get(t, "longest_start_known"));

	rtm_rthold_fmt_sched(sched, sizeof(sched),
			     json_string_value(json_object_get(t, "policy")) ?: "unknown",
			     (int)json_integer_value(prio));
	rtm_fmt_ns(d, sizeof(d), (uint64_t)json_integer_value(json_object_get(t, "longest_ns")));
	snprintf(buf, len, "%s %lld %s on CPU %lld: %lld interval%s, longest %s%s%s",
		 json_string_value(json_object_get(t, "comm")) ?: "?",
		 json_integer_value(json_object_get(t, "pid")), sched,
		 json_integer_value(json_object_get(t, "cpu")), n, n == 1 ? "" : "s",
		 open ? "still running, >= " : known ? "" : ">= ", d,
		 !known ? " (on the CPU before the trace began)" : "");
}

void rtm_rtholds_fprint(const json_t *sec, FILE *f)
{
	const json_t *tasks = json_object_get(sec, "tasks"), *t;
	long long lost = json_integer_value(json_object_get(sec, "trace_lost"));
	long long bad = json_integer_value(json_object_get(sec, "uncertain"));
	char bound[16], line[256];
	size_t i;

	if (!sec)
		return;
	rtm_fmt_ns(bound, sizeof(bound),
		   (uint64_t)json_integer_value(json_object_get(sec, "bound_ns")));
	if (!json_array_size(tasks)) {
		fprintf(f, "RT tasks holding a CPU > %s: none\n", bound);
	} else {
		fprintf(f, "RT tasks holding a CPU > %s (result.json: sections.rt_holds):\n", bound);
		json_array_foreach(tasks, i, t) {
			task_line(t, line, sizeof(line));
			fprintf(f, "  %s\n", line);
		}
	}
	if (lost > 0 || bad > 0)
		fprintf(f, "  (the trace is incomplete: %lld events lost, %lld switches out of sequence "
			"around real-time tasks or long gaps: holds may be missing or cut short)\n",
			lost, bad);
}

void rtm_rtholds_md(const json_t *sec, FILE *f)
{
	const json_t *tasks = json_object_get(sec, "tasks"), *t;
	long long lost = json_integer_value(json_object_get(sec, "trace_lost"));
	long long bad = json_integer_value(json_object_get(sec, "uncertain"));
	char bound[16], line[256];
	size_t i;

	if (!sec)
		return;
	rtm_fmt_ns(bound, sizeof(bound),
		   (uint64_t)json_integer_value(json_object_get(sec, "bound_ns")));
	fprintf(f, "**Real-time tasks holding a CPU over %s:**%s\n\n", bound,
		json_array_size(tasks) ? "" : " none.");
	json_array_foreach(tasks, i, t) {
		task_line(t, line, sizeof(line));
		fputs("- ", f);
		rtm_md_text(f, line);
		fputs("\n", f);
	}
	if (json_array_size(tasks))
		fputs("\n", f);
	if (lost > 0 || bad > 0)
		fprintf(f, "The trace is incomplete (%lld events lost, %lld switches out of sequence): "
			"holds may be missing or cut short.\n\n", lost, bad);
}

void rtm_rtholds_html(const json_t *sec, FILE *f)
{
	const json_t *tasks = json_object_get(sec, "tasks"), *t;
	long long lost = json_integer_value(json_object_get(sec, "trace_lost"));
	long long bad = json_integer_value(json_object_get(sec, "uncertain"));
	char bound[16], sched[48], d[16], tot[16];
	size_t i;

	if (!sec)
		return;
	rtm_fmt_ns(bound, sizeof(bound),
		   (uint64_t)json_integer_value(json_object_get(sec, "bound_ns")));
	fprintf(f, "<h2>Real-time tasks holding a CPU over %s</h2>\n", bound);
	if (!json_array_size(tasks)) {
		fprintf(f, "<p>None: no SCHED_FIFO, SCHED_RR or SCHED_DEADLINE task stayed on a "
			"measured CPU for longer than %s without a switch.</p>\n", bound);
	} else {
		fputs("<table>\n<tr><th class=\"l\">task</th><th>pid</th><th class=\"l\">policy"
		      "</th><th>CPU</th><th>intervals</th><th>longest</th><th>total</th></tr>\n",
		      f);
		json_array_foreach(tasks, i, t) {
			rtm_rthold_fmt_sched(sched, sizeof(sched),
					     json_string_value(json_object_get(t, "policy")) ?:
					     "unknown",
					     (int)json_integer_value(json_object_get(t,
								     "kernel_prio")));
			rtm_fmt_ns(d, sizeof(d),
				   (uint64_t)json_integer_value(json_object_get(t, "longest_ns")));
			rtm_fmt_ns(tot, sizeof(tot),
				   (uint64_t)json_integer_value(json_object_get(t, "total_ns")));
			fputs("<tr><td class=\"l\">", f);
			rtm_html_text(f, json_string_value(json_object_get(t, "comm")) ?: "?");
			fprintf(f, "</td><td>%lld</td><td class=\"l\">",
				json_integer_value(json_object_get(t, "pid")));
			rtm_html_text(f, sched);
			fprintf(f, "</td><td>%lld</td><td>%lld</td><td>%s%s%s</td><td>%s</td></tr>\n",
				json_integer_value(json_object_get(t, "cpu")),
				json_integer_value(json_object_get(t, "intervals")),
				json_is_true(json_object_get(t, "longest_open")) ? "still running, " :
				"", json_is_true(json_object_get(t, "longest_open")) ||
				!json_is_true(json_object_get(t, "longest_start_known")) ? "&ge; " : "",
				d, tot);
		}
		fputs("</table>\n", f);
	}
	if (lost > 0 || bad > 0)
		fprintf(f, "<p class=\"warn\">The trace is incomplete: %lld events lost, %lld "
			"switches out of sequence around real-time tasks or long gaps: holds may be "
			"missing or cut short.</p>\n", lost, bad);
}
