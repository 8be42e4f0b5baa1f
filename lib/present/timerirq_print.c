// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timerirq_print.c - the timer IRQ delay (result.json's sections.timer_irq)
 * next to the wake-up latency of the same CPUs, for people: the run summary's
 * table, report.html's and report.md's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/hist.h"
#include "core/stats.h"
#include "present/timerirq_print.h"
#include "core/units.h"

/*
 * One CPU's row: the IRQ's and the wake-up's p50, p99, p99.9, max; "unknown"
 * when empty, "-" for a percentile too few samples define (rtm_pct_defined()).
 */
struct row {
	long long cpu, count, samples;
	long long unmatched_starts, unmatched_expires, early;
	char irq[4][16], wake[4][16];
};

static const double row_ps[4] = { 50, 99, 99.9, 100 };

static void fmt_ps(const struct rtm_hist *h, char out[4][16])
{
	uint64_t v[4];
	int k;

	if (!h || !h->count) {
		for (k = 0; k < 4; k++)
			snprintf(out[k], 16, "unknown");
		return;
	}
	rtm_hist_percentiles(h, row_ps, 4, v);
	for (k = 0; k < 4; k++) {
		if (rtm_pct_defined(h->count, row_ps[k]))	/* the tables' one rule */
			rtm_fmt_ns(out[k], 16, v[k]);
		else
			snprintf(out[k], 16, "-");
	}
}

/* The rows of @r's sections.timer_irq; NULL when it has none (or out of memory). */
static struct row *rows(const struct rtm_result *r, size_t *n)
{
	const json_t *sec = json_object_get(r->sections, "timer_irq");
	const json_t *cpus = json_object_get(sec, "cpus"), *e;
	struct rtm_error err = { "" };
	struct rtm_hist *h;
	struct row *out;
	size_t i;
	int k;

	if (!sec || !json_array_size(cpus))
		return NULL;
	h = rtm_hist_alloc();
	out = calloc(json_array_size(cpus), sizeof(*out));
	if (!h || !out) {
		rtm_hist_free(h);
		free(out);
		return NULL;
	}
	json_array_foreach(cpus, i, e) {
		struct row *w = &out[i];
		const struct rtm_hist *wake = NULL;

		w->cpu = json_integer_value(json_object_get(e, "cpu"));
		w->count = json_integer_value(json_object_get(e, "count"));
		w->unmatched_starts = json_integer_value(json_object_get(e, "unmatched_starts"));
		w->unmatched_expires = json_integer_value(json_object_get(e, "unmatched_expires"));
		w->early = json_integer_value(json_object_get(e, "early"));
		if (rtm_hist_from_json(h, json_object_get(e, "delay"), &err))
			rtm_hist_reset(h);
		fmt_ps(h, w->irq);
		for (k = 0; k < r->ncpus; k++)
			if (r->cpus[k].cpu == w->cpu)
				wake = r->cpus[k].raw;
		w->samples = wake ? (long long)wake->count : -1;
		fmt_ps(wake, w->wake);
	}
	rtm_hist_free(h);
	*n = json_array_size(cpus);
	return out;
}

static bool complete(const struct rtm_result *r, long long *lost)
{
	const json_t *sec = json_object_get(r->sections, "timer_irq");

	*lost = json_integer_value(json_object_get(sec, "trace_lost"));
	return !json_is_false(json_object_get(sec, "complete"));
}

static void fmt_samples(char *buf, size_t len, long long n)
{
	if (n < 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%lld", n);
}

void rtm_timerirq_fprint(const struct rtm_result *r, FILE *f)
{
	char samples[24], pair[48];
	struct row *w;
	long long lost;
	size_t i, n = 0;
	int k;

	w = rows(r, &n);
	if (!w)
		return;
	fprintf(f, "Timer IRQ (expiry to handler) next to the wake-up (expiry to the probe running), "
		"result.json: sections.timer_irq:\n");
	fprintf(f, "  %3s %17s |%9s%9s%9s%9s |%9s%9s%9s%9s\n", "CPU", "matched/samples",
		"IRQ p50", "p99", "p99.9", "max", "wake p50", "p99", "p99.9", "max");
	for (i = 0; i < n; i++) {
		fmt_samples(samples, sizeof(samples), w[i].samples);
		snprintf(pair, sizeof(pair), "%lld/%s", w[i].count, samples);
		fprintf(f, "  %3lld %17s |", w[i].cpu, pair);
		for (k = 0; k < 4; k++)
			fprintf(f, "%9s", w[i].irq[k]);
		fputs(" |", f);
		for (k = 0; k < 4; k++)
			fprintf(f, "%9s", w[i].wake[k]);
		fputs("\n", f);
	}
	for (i = 0; i < n; i++)
		if (w[i].unmatched_starts || w[i].unmatched_expires || w[i].early)
			fprintf(f, "  CPU %lld: %lld start(s) without their expiry, %lld expiry(ies) "
				"without their start, %lld inside the timer slack: not counted\n",
				w[i].cpu, w[i].unmatched_starts, w[i].unmatched_expires,
				w[i].early);
	if (!complete(r, &lost))
		fprintf(f, "  (the trace is incomplete: %lld events lost; the counts are lower "
			"bounds)\n", lost);
	free(w);
}

void rtm_timerirq_html(const struct rtm_result *r, FILE *f)
{
	static const char *const ph[4] = { "p50", "p99", "p99.9", "max" };
	struct row *w;
	char samples[24];
	long long lost;
	size_t i, n = 0;
	int k;

	w = rows(r, &n);
	if (!w)
		return;
	fputs("<h2>Timer IRQ and wake-up</h2>\n<p>Timer IRQ: the probe's hrtimer expiry to the "
	      "interrupt running it (timer:hrtimer_start, timer:hrtimer_expire_entry); wake-up: "
	      "the expiry to the probe running. The IRQ delay is part of the wake-up.</p>\n", f);
	fputs("<table>\n<tr><th>CPU</th><th>matched</th><th>samples</th>", f);
	for (k = 0; k < 4; k++)
		fprintf(f, "<th>IRQ %s</th>", ph[k]);
	for (k = 0; k < 4; k++)
		fprintf(f, "<th>wake-up %s</th>", ph[k]);
	fputs("<th>unmatched starts</th><th>unmatched expiries</th></tr>\n", f);
	for (i = 0; i < n; i++) {
		fmt_samples(samples, sizeof(samples), w[i].samples);
		fprintf(f, "<tr><td>%lld</td><td>%lld</td><td>%s</td>", w[i].cpu, w[i].count,
			samples);
		for (k = 0; k < 4; k++)
			fprintf(f, "<td>%s</td>", w[i].irq[k]);
		for (k = 0; k < 4; k++)
			fprintf(f, "<td>%s</td>", w[i].wake[k]);
		fprintf(f, "<td>%lld</td><td>%lld</td></tr>\n", w[i].unmatched_starts,
			w[i].unmatched_expires);
	}
	fputs("</table>\n", f);
	if (!complete(r, &lost))
		fprintf(f, "<p class=\"warn\">The trace is incomplete: %lld events lost; the "
			"counts are lower bounds.</p>\n", lost);
	free(w);
}

void rtm_timerirq_md(const struct rtm_result *r, FILE *f)
{
	struct row *w;
	char samples[24];
	long long lost;
	size_t i, n = 0;
	int k;

	w = rows(r, &n);
	if (!w)
		return;
	fputs("**Timer IRQ (expiry to handler) and wake-up (expiry to the probe running):**\n\n"
	      "| CPU | matched | samples | IRQ p50 | IRQ p99 | IRQ p99.9 | IRQ max | wake-up p50 | "
	      "wake-up p99 | wake-up p99.9 | wake-up max | unmatched starts | unmatched expiries |\n"
	      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", f);
	for (i = 0; i < n; i++) {
		fmt_samples(samples, sizeof(samples), w[i].samples);
		fprintf(f, "| %lld | %lld | %s |", w[i].cpu, w[i].count, samples);
		for (k = 0; k < 4; k++)
			fprintf(f, " %s |", w[i].irq[k]);
		for (k = 0; k < 4; k++)
			fprintf(f, " %s |", w[i].wake[k]);
		fprintf(f, " %lld | %lld |\n", w[i].unmatched_starts, w[i].unmatched_expires);
	}
	fputs("\n", f);
	if (!complete(r, &lost))
		fprintf(f, "The trace is incomplete (%lld events lost): the counts are lower "
			"bounds.\n\n", lost);
	free(w);
}
