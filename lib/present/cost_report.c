// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cost_report.c - the "Throughput" part of a run's report.html and report.md,
 * and the run summary's line, from result.json's sections.throughput
 * (`rtmeasure run --throughput`).
 */
#include <stdio.h>

#include "box/cost.h"
#include "present/cost_report.h"
#include "present/html.h"

static const char *const cost_note =
	"Each stressor ran on its own after the latency phase, with no probe and no "
	"background load running; a score is stress-ng's bogo-ops per second of real time "
	"(the mean over the repetitions). Bogo-ops count the stressor's own loop, so scores "
	"compare one kernel with another on the same box and stress-ng version, never one "
	"stressor with another. rtmeasure compare puts them beside the latency.";

void rtm_cost_fprint(const json_t *sec, FILE *f)
{
	struct rtm_cost_summary s;
	char rate[32];
	int i;

	if (!sec || rtm_cost_summary_read(sec, &s, NULL))
		return;
	fprintf(f, "throughput (%s, bogo-ops/s of real time, after the latency phase):",
		s.workload);
	for (i = 0; i < s.n; i++) {
		rtm_cost_fmt_rate(rate, sizeof(rate), s.s[i].score);
		fprintf(f, " %s %s", s.s[i].name, rate);
	}
	fprintf(f, "%s\n", s.complete ? "" : " (interrupted: the stressors that finished)");
}

void rtm_cost_html(const json_t *sec, FILE *f)
{
	struct rtm_cost_summary s;
	struct rtm_error err = { "" };
	char rate[32];
	int i;

	if (!sec)
		return;
	fputs("<h2>Throughput</h2>\n", f);
	if (rtm_cost_summary_read(sec, &s, &err)) {
		fputs("<p class=\"warn\">", f);
		rtm_html_text(f, err.msg);
		fputs("</p>\n", f);
		return;
	}
	fputs("<p class=\"sub\">", f);
	rtm_html_text(f, s.workload);
	fputs(". ", f);
	rtm_html_text(f, cost_note);
	fputs("</p>\n", f);
	if (!s.complete)
		fputs("<p class=\"warn\">Interrupted: only the stressors that finished are "
		      "shown.</p>\n", f);
	fputs("<table>\n<tr><th class=\"l\">stressor</th><th>bogo-ops/s</th>"
	      "<th>repetitions</th></tr>\n", f);
	for (i = 0; i < s.n; i++) {
		rtm_cost_fmt_rate(rate, sizeof(rate), s.s[i].score);
		fputs("<tr><td class=\"l\">", f);
		rtm_html_text(f, s.s[i].name);
		fprintf(f, "</td><td>%s</td><td>%d</td></tr>\n", rate, s.s[i].reps);
	}
	fputs("</table>\n", f);
}

void rtm_cost_md(const json_t *sec, FILE *f)
{
	struct rtm_cost_summary s;
	char rate[32];
	int i;

	if (!sec || rtm_cost_summary_read(sec, &s, NULL))
		return;
	fprintf(f, "\n## Throughput\n\n%s. %s%s\n\n| stressor | bogo-ops/s | repetitions |\n"
		"|---|---:|---:|\n", s.workload, cost_note,
		s.complete ? "" : " Interrupted: only the stressors that finished are shown.");
	for (i = 0; i < s.n; i++) {
		rtm_cost_fmt_rate(rate, sizeof(rate), s.s[i].score);
		fprintf(f, "| %s | %s | %d |\n", s.s[i].name, rate, s.s[i].reps);
	}
	fputc('\n', f);
}
