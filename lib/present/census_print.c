// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * census_print.c - the spike census (result.json's sections.spike_census) for
 * people: the run summary's lines, report.html's table and report.md's.
 */
#include <stdio.h>

#include "present/census_print.h"
#include "present/html.h"
#include "trace/census.h"
#include "core/units.h"

static const char *incomplete(const json_t *sec, char *buf, size_t len)
{
	if (json_is_true(json_object_get(sec, "complete")))
		return NULL;
	snprintf(buf, len, "incomplete: %lld events lost, %lld late wake-ups the probe could not "
		 "hand over; the counts are lower bounds",
		 json_integer_value(json_object_get(sec, "trace_lost")),
		 json_integer_value(json_object_get(sec, "dropped")));
	return buf;
}

void rtm_census_fprint(const json_t *sec, FILE *f)
{
	const json_t *cpus = json_object_get(sec, "cpus"), *e;
	char line[1024], why[160];
	size_t i;

	if (!sec)
		return;
	rtm_census_sentence(sec, line, sizeof(line), 6);
	fprintf(f, "Spike census (every wake-up over the bound, result.json: "
		"sections.spike_census):\n  %s\n", line);
	json_array_foreach(cpus, i, e) {
		rtm_census_cpu_sentence(e, line, sizeof(line), 4);
		fprintf(f, "  %s\n", line);
	}
	if (incomplete(sec, why, sizeof(why)))
		fprintf(f, "  (%s)\n", why);
}

void rtm_census_html(const json_t *sec, FILE *f)
{
	const json_t *cpus = json_object_get(sec, "cpus"), *e, *t;
	char line[1024], lat[16], why[160];
	size_t i, j;

	if (!sec)
		return;
	rtm_census_sentence(sec, line, sizeof(line), 6);
	fputs("<h2>Spike census</h2>\n<p>", f);
	rtm_html_text(f, line);
	fputs("</p>\n<table>\n<tr><th>CPU</th><th>cause</th><th>culprit</th><th>wake-ups</th>"
	      "<th>largest</th></tr>\n", f);
	json_array_foreach(cpus, i, e)
		json_array_foreach(json_object_get(e, "culprits"), j, t) {
			rtm_fmt_ns(lat, sizeof(lat), (uint64_t)json_integer_value(
				   json_object_get(t, "max_latency_ns")));
			fprintf(f, "<tr><td>%lld</td><td>%s</td><td>",
				json_integer_value(json_object_get(e, "cpu")),
				json_string_value(json_object_get(t, "cause")));
			rtm_html_text(f, json_string_value(json_object_get(t, "culprit")));
			fprintf(f, "</td><td>%lld</td><td>%s</td></tr>\n",
				json_integer_value(json_object_get(t, "count")), lat);
		}
	fputs("</table>\n", f);
	if (incomplete(sec, why, sizeof(why)))
		fprintf(f, "<p class=\"warn\">The census is %s.</p>\n", why);
}

void rtm_census_md(const json_t *sec, FILE *f)
{
	const json_t *cpus = json_object_get(sec, "cpus"), *e, *t;
	char line[1024], lat[16], why[160];
	size_t i, j;

	if (!sec)
		return;
	rtm_census_sentence(sec, line, sizeof(line), 6);
	fprintf(f, "**Spike census:** %s\n\n| CPU | cause | culprit | wake-ups | largest |\n"
		"|---:|---|---|---:|---:|\n", line);
	json_array_foreach(cpus, i, e)
		json_array_foreach(json_object_get(e, "culprits"), j, t) {
			rtm_fmt_ns(lat, sizeof(lat), (uint64_t)json_integer_value(
				   json_object_get(t, "max_latency_ns")));
			fprintf(f, "| %lld | %s | ", json_integer_value(json_object_get(e, "cpu")),
				json_string_value(json_object_get(t, "cause")));
			rtm_md_text(f, json_string_value(json_object_get(t, "culprit")));
			fprintf(f, " | %lld | %s |\n",
				json_integer_value(json_object_get(t, "count")), lat);
		}
	fputs("\n", f);
	if (incomplete(sec, why, sizeof(why)))
		fprintf(f, "The census is %s.\n\n", why);
}
