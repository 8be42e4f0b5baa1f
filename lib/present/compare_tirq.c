// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare_tirq.c - the timer IRQ part of the wake-ups in a comparison.
 *
 * Runs made with --timer-irq (on whenever tracing) carry sections.timer_irq:
 * per CPU the delay from the probe's hrtimer expiry to the interrupt running
 * it. Each side's delays, all CPUs and rounds merged, are shown beside each
 * other with their percentiles, so "rt vs stock" shows whether the timer
 * interrupt or the rest of the wake-up moved. Figures only, no verdict: the
 * batches and per-run intervals the latency verdicts rest on are not kept for
 * this histogram, and a percentile is shown only when at least 10 delays lie
 * beyond it (as the latency verdicts require), "few" otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/compare_priv.h"
#include "present/report.h"
#include "core/units.h"

static const double tirq_pcts[RTM_COMPARE_TIRQ_NPCT] = { 50, 99, 99.9 };
static const char *const tirq_names[RTM_COMPARE_TIRQ_NPCT] = { "p50", "p99", "p99.9" };

int rtm_compare_tirq_digest(struct rtm_compare_run *run, const struct rtm_result *r,
			    struct rtm_error *err)
{
	const json_t *sec = json_object_get(r->sections, "timer_irq"), *c;
	struct rtm_hist *h;
	size_t i;

	if (!sec)
		return 0;
	if (!run->tirq && !(run->tirq = rtm_hist_alloc()))
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	h = rtm_hist_alloc();
	if (!h)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	json_array_foreach(json_object_get(sec, "cpus"), i, c) {
		if (rtm_hist_from_json(h, json_object_get(c, "delay"), err)) {
			rtm_hist_free(h);
			return -EINVAL;
		}
		rtm_hist_merge(run->tirq, h);
		run->tirq_unmatched += (uint64_t)json_integer_value(json_object_get(c,
					"unmatched_starts")) +
				       (uint64_t)json_integer_value(json_object_get(c,
					"unmatched_expires"));
	}
	rtm_hist_free(h);
	if (json_is_false(json_object_get(sec, "complete")))
		run->tirq_incomplete = true;
	run->tirq_rounds++;
	return 0;
}

bool rtm_compare_tirq_any(const struct rtm_compare *c)
{
	int i;

	for (i = 0; i < c->nruns; i++)
		if (c->runs[i].tirq && c->runs[i].tirq->count)
			return true;
	return false;
}

/* Percentile @k of @run's delays: false with "few" by the one rule (rtm_pct_defined()). */
static bool tirq_value(const struct rtm_compare_run *run, int k, uint64_t *ns)
{
	if (!rtm_pct_defined(run->tirq->count, tirq_pcts[k]))
		return false;
	*ns = rtm_hist_percentile(run->tirq, tirq_pcts[k]);
	return true;
}

/* The cells of one run's row: count, p50, p99, p99.9, max (us), or why not. */
void rtm_compare_tirq_cells(const struct rtm_compare_run *run,
			    char cells[RTM_COMPARE_TIRQ_NPCT + 2][32])
{
	uint64_t ns;
	int k;

	if (!run->tirq || !run->tirq->count) {
		snprintf(cells[0], sizeof(cells[0]), "not traced");
		for (k = 1; k < RTM_COMPARE_TIRQ_NPCT + 2; k++)
			snprintf(cells[k], sizeof(cells[k]), "-");
		return;
	}
	snprintf(cells[0], sizeof(cells[0]), "%llu", (unsigned long long)run->tirq->count);
	for (k = 0; k < RTM_COMPARE_TIRQ_NPCT; k++) {
		if (tirq_value(run, k, &ns))
			rtm_fmt_us(cells[k + 1], sizeof(cells[k + 1]), ns);
		else
			snprintf(cells[k + 1], sizeof(cells[k + 1]), "few");
	}
	rtm_fmt_us(cells[RTM_COMPARE_TIRQ_NPCT + 1], sizeof(cells[0]), run->tirq->max_ns);
}

void rtm_compare_tirq_fprint(const struct rtm_compare *c, FILE *f)
{
	char cells[RTM_COMPARE_TIRQ_NPCT + 2][32];
	int i, k;

	if (!rtm_compare_tirq_any(c))
		return;
	fprintf(f, "\ntimer IRQ delay (expiry to handler, --timer-irq; all CPUs, us; figures "
		"only, no verdict):\n");
	fprintf(f, "%-16s %10s %10s %10s %10s %10s\n", "run", "matched", "p50", "p99", "p99.9",
		"max");
	for (i = 0; i < c->nruns; i++) {
		const struct rtm_compare_run *run = &c->runs[i];

		rtm_compare_tirq_cells(run, cells);
		fprintf(f, "%-16s", run->label);
		for (k = 0; k < RTM_COMPARE_TIRQ_NPCT + 2; k++)
			fprintf(f, " %10s", cells[k]);
		fputc('\n', f);
		if (run->tirq && run->tirq_rounds < run->nrounds)
			fprintf(f, "  (%s: %d of its %d runs traced the timer IRQ)\n", run->label,
				run->tirq_rounds, run->nrounds);
		if (run->tirq && (run->tirq_unmatched || run->tirq_incomplete))
			fprintf(f, "  (%s: %llu timer starts or expiries unpaired%s)\n", run->label,
				(unsigned long long)run->tirq_unmatched,
				run->tirq_incomplete ? "; trace events lost: lower bounds" : "");
	}
}

json_t *rtm_compare_tirq_run_json(const struct rtm_compare_run *run)
{
	json_t *o;
	uint64_t ns;
	int k;

	if (!run->tirq || !run->tirq->count)
		return json_null();
	o = json_pack("{s:I, s:I, s:i, s:I, s:b}", "count", (json_int_t)run->tirq->count,
		      "max_ns", (json_int_t)run->tirq->max_ns, "rounds_traced", run->tirq_rounds,
		      "unmatched", (json_int_t)run->tirq_unmatched, "complete",
		      !run->tirq_incomplete);
	for (k = 0; o && k < RTM_COMPARE_TIRQ_NPCT; k++) {
		char key[24];

		snprintf(key, sizeof(key), "%s_ns", tirq_names[k]);
		json_object_set_new(o, key, tirq_value(run, k, &ns) ? json_integer((json_int_t)ns) :
				    json_null());
	}
	return o;
}

void rtm_compare_tirq_html(const struct rtm_compare *c, FILE *f)
{
	char cells[RTM_COMPARE_TIRQ_NPCT + 2][32];
	int i, k;

	if (!rtm_compare_tirq_any(c))
		return;
	fputs("<h2>Timer IRQ delay</h2>\n<p class=\"sub\">Expiry of the probe's timer to the "
	      "interrupt that runs it (--timer-irq), all CPUs merged, in us: the IRQ part of "
	      "each wake-up. Figures only, no verdict; \"few\": fewer than 10 delays beyond "
	      "the percentile.</p>\n<table>\n<tr><th class=\"l\">run</th><th>matched</th>"
	      "<th>p50</th><th>p99</th><th>p99.9</th><th>max</th></tr>\n", f);
	for (i = 0; i < c->nruns; i++) {
		rtm_compare_tirq_cells(&c->runs[i], cells);
		fputs("<tr><td class=\"l\">", f);
		rtm_html_text(f, c->runs[i].label);
		fputs("</td>", f);
		for (k = 0; k < RTM_COMPARE_TIRQ_NPCT + 2; k++)
			fprintf(f, "<td>%s</td>", cells[k]);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

void rtm_compare_tirq_md(const struct rtm_compare *c, FILE *f)
{
	char cells[RTM_COMPARE_TIRQ_NPCT + 2][32];
	int i, k;

	if (!rtm_compare_tirq_any(c))
		return;
	fputs("## Timer IRQ delay\n\nExpiry of the probe's timer to the interrupt that runs it "
	      "(--timer-irq), all CPUs merged, in us. Figures only, no verdict.\n\n"
	      "| run | matched | p50 | p99 | p99.9 | max |\n|---|---:|---:|---:|---:|---:|\n", f);
	for (i = 0; i < c->nruns; i++) {
		rtm_compare_tirq_cells(&c->runs[i], cells);
		fputs("| ", f);
		rtm_md_text(f, c->runs[i].label);
		for (k = 0; k < RTM_COMPARE_TIRQ_NPCT + 2; k++)
			fprintf(f, " | %s", cells[k]);
		fputs(" |\n", f);
	}
	fputc('\n', f);
}
