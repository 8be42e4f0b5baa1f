// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * summary_print.c - the summary table of a result for people, followed by the
 * blocks of the traced sections (RT holds, timer IRQ, spike census).
 */
#include <stdio.h>
#include <stdlib.h>

#include "present/census_print.h"
#include "present/rtholds_print.h"
#include "present/summary_print.h"
#include "present/timerirq_print.h"
#include "core/units.h"

static void us(char *buf, size_t len, double ns, bool nsecs)
{
	if (nsecs)
		snprintf(buf, len, "%.0f", ns);
	else
		rtm_fmt_us(buf, len, ns);
}

void rtm_summary_fprint(const struct rtm_result *r, FILE *f)
{
	rtm_summary_fprint_unit(r, f, false);
}

void rtm_summary_fprint_unit(const struct rtm_result *r, FILE *f, bool nsecs)
{
	struct rtm_summary_row *rows;
	char note[160];
	int n, i, j;

	n = rtm_summary_rows(r, false, &rows);
	if (n < 0)
		return;
	fprintf(f, "%-5s %10s %9s %9s %9s %9s %9s %9s %9s %9s\n", "CPU", "samples", "min", "avg",
		"p50", "p99", "p99.9", "p99.99", "max", "overruns");
	for (i = 0; i < n; i++) {
		const struct rtm_summary_row *row = &rows[i];
		const int idx[] = { 0, 2, 3, 4 };	/* p50 p99 p99.9 p99.99 */
		char label[8], v[6][32];

		if (i == n - 1 && n == 2)
			break;			/* one CPU: "all" repeats it */
		if (row->cpu < 0)
			snprintf(label, sizeof(label), "all");
		else
			snprintf(label, sizeof(label), "%d", row->cpu);
		rtm_summary_fmt_unknown(v[4], sizeof(v[4]), row, nsecs);
		us(v[0], sizeof(v[0]), (double)row->min_ns, nsecs);
		us(v[1], sizeof(v[1]), row->avg_ns, nsecs);
		fprintf(f, "%-5s %10llu %9s %9s", label, (unsigned long long)row->samples,
			row->unknown & RTM_SUMMARY_UNKNOWN_MIN ? "n/a" : v[0],
			row->unknown & RTM_SUMMARY_UNKNOWN_AVG ? "n/a" : v[1]);
		for (j = 0; j < 4; j++) {
			rtm_summary_fmt_pct(v[2], sizeof(v[2]), row, idx[j], nsecs);
			fprintf(f, " %9s", v[2]);
		}
		us(v[3], sizeof(v[3]), (double)row->max_ns, nsecs);
		if (row->unknown & RTM_SUMMARY_UNKNOWN_MAX)
			snprintf(v[3], sizeof(v[3]), "n/a");
		fprintf(f, " %9s %9llu\n", v[3], (unsigned long long)row->overruns);
	}
	fprintf(f, "(latencies in %s)\n", nsecs ? "ns" : "us");
	/* "-" in the rows printed, of the percentiles shown: p50 p99 p99.9 p99.99 */
	rtm_summary_few_note(note, sizeof(note), rows, n == 2 ? 1 : n,
			     1u << 0 | 1u << 2 | 1u << 3 | 1u << 4);
	if (note[0])
		fprintf(f, "(%s)\n", note);
	for (i = 0; i < n; i++)
		if (rows[i].unknown & ~rows[i].few) {
			char why[256], x[32];

			rtm_summary_fmt_unknown(x, sizeof(x), &rows[i], nsecs);
			rtm_summary_unknown_reason(why, sizeof(why), &rows[n - 1]);
			fprintf(f, "(%s: %s)\n", x, why);
			break;
		}
	free(rows);
	/* RT tasks that held a CPU over --rt-hold (lib/trace/rtholds.c), when traced */
	rtm_rtholds_fprint(json_object_get(r->sections, "rt_holds"), f);
	/* the timer IRQ part of the wake-ups (--timer-irq, lib/trace/timerirq.c), when traced */
	rtm_timerirq_fprint(r, f);
	/* every wake-up over --capture-above with its cause (lib/trace/census.c), when traced */
	rtm_census_fprint(json_object_get(r->sections, "spike_census"), f);
}
