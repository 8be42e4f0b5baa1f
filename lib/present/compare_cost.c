// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare_cost.c - the cost of RT in a comparison: throughput beside latency.
 *
 * Each side's runs bring their stress-ng scores (sections.throughput of
 * `rtmeasure run --throughput`). A stressor's ratio is run / baseline of the
 * geometric means over the runs; "all" is the geometric mean over the
 * stressors both sides ran. The interval is the one the latency verdicts use
 * over runs (rtm_ratio_ci_logs: Welch t on the logarithms of the per-run
 * scores, pooled when one side has a single run). With one run per side there
 * is no interval: the repetitions inside one run do not show how whole runs of
 * a box differ (runs differ more than the samples inside one run say; see
 * compare.h), so the ratio is given with its interval "unknown".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/compare_priv.h"
#include "present/report.h"
#include "core/units.h"

/* ---------------------------------------------------------------- digest */

static int cost_index(struct rtm_compare_cost *cc, const char *name, bool add)
{
	int k;

	for (k = 0; k < cc->n; k++)
		if (!strcmp(cc->names[k], name))
			return k;
	if (!add || cc->n >= RTM_COST_MAX_STRESSORS)
		return -1;
	snprintf(cc->names[cc->n], sizeof(cc->names[0]), "%s", name);
	for (k = 0; k < RTM_COMPARE_MAX_ROUNDS; k++)
		cc->score[k][cc->n] = NAN;
	return cc->n++;
}

int rtm_compare_cost_digest(struct rtm_compare_run *run, const struct rtm_result *r,
			    struct rtm_error *err)
{
	struct rtm_compare_cost *cc = &run->cost;
	const json_t *sec = json_object_get(r->sections, "throughput");
	struct rtm_cost_summary s;
	int i, k, j;

	if (run->nrounds == 1)
		memset(cc, 0, sizeof(*cc));
	if (!sec) {
		cc->missing++;
		return 0;
	}
	if (rtm_cost_summary_read(sec, &s, err))
		return -EINVAL;
	j = cc->nrounds;
	if (!j) {
		snprintf(cc->workload, sizeof(cc->workload), "%s", s.workload);
	} else if (strcmp(cc->workload, s.workload)) {
		cc->workload_differs = true;
	}
	for (k = 0; k < RTM_COST_MAX_STRESSORS; k++)
		cc->score[j][k] = NAN;
	for (i = 0; i < s.n; i++) {
		k = cost_index(cc, s.s[i].name, true);
		if (k >= 0)
			cc->score[j][k] = s.s[i].score;
	}
	cc->incomplete |= !s.complete;
	cc->nrounds++;
	return 0;
}

/* ---------------------------------------------------------------- rows */

/* "8.0% lower", "3.1% higher", "the same" for a ratio run / baseline. */
static void fmt_change(char *buf, size_t len, double ratio)
{
	double pct = (ratio - 1.0) * 100.0;
	int d = fabs(pct) < 9.95 ? 1 : 0;

	if (!isfinite(ratio))
		snprintf(buf, len, "unknown");
	else if (fabs(pct) < 0.05)
		snprintf(buf, len, "the same");
	else
		snprintf(buf, len, "%.*f%% %s", d, fabs(pct), pct < 0 ? "lower" : "higher");
}

/* "95% CI 5.1% to 10.9% lower" or "95% CI 4.0% lower to 2.2% higher". */
static void fmt_ci(char *buf, size_t len, double lo, double hi)
{
	char a[32], b[32];

	if (hi < 1.0 || lo > 1.0) {
		/* both on one side: the smaller change first */
		double near = hi < 1.0 ? hi : lo, far = hi < 1.0 ? lo : hi;
		double pn = fabs(near - 1.0) * 100, pf = fabs(far - 1.0) * 100;
		int d = pf < 9.95 ? 1 : 0;

		snprintf(buf, len, "%.0f%% CI %.*f%% to %.*f%% %s", RTM_COMPARE_CONF * 100, d, pn,
			 d, pf, hi < 1.0 ? "lower" : "higher");
		return;
	}
	fmt_change(a, sizeof(a), lo);
	fmt_change(b, sizeof(b), hi);
	snprintf(buf, len, "%.0f%% CI %s to %s", RTM_COMPARE_CONF * 100, a, b);
}

/* log of the per-round score of stressor @k, or the mean log over @keys (k < 0). */
static int side_logs(const struct rtm_compare_cost *cc, int k, const int *keys, int nkeys,
		     double *out)
{
	int j, m, n = 0;

	for (j = 0; j < cc->nrounds; j++) {
		double sum = 0;

		if (k >= 0) {
			out[n++] = log(cc->score[j][k]);
			continue;
		}
		for (m = 0; m < nkeys; m++)
			sum += log(cc->score[j][keys[m]]);
		out[n++] = sum / nkeys;
	}
	return n;
}

/* Stressor @name in every throughput round of a side: its index, else -1. */
static int everywhere(const struct rtm_compare_cost *cc, const char *name)
{
	int k, j;

	for (k = 0; k < cc->n; k++) {
		if (strcmp(cc->names[k], name))
			continue;
		for (j = 0; j < cc->nrounds; j++)
			if (!isfinite(cc->score[j][k]))
				return -1;
		return k;
	}
	return -1;
}

static void row_verdict(const struct rtm_compare_run *a, const struct rtm_compare_run *b,
			const double *la, int na, const double *lb, int nb, const char *what,
			struct rtm_compare_cost_row *row)
{
	char chg[48], ci[96], t[sizeof(row->text)];

	rtm_ratio_ci_logs(la, na, lb, nb, RTM_COMPARE_CONF, 0, 0, &row->ci);
	row->ratio = row->ci.ratio;
	row->lo = row->hi = NAN;
	fmt_change(chg, sizeof(chg), row->ratio);
	if (!row->ci.valid) {
		row->kind = RTM_COST_NO_CI;
		snprintf(t, sizeof(t), "%s's %s is %s than %s's (one run per "
			 "side: confidence interval unknown; give several runs per side, compare "
			 "A1,A2 B1,B2)", b->label, what, chg, a->label);
		if (!strcmp(chg, "the same"))
			snprintf(t, sizeof(t), "%s's %s is the same as %s's (one "
				 "run per side: confidence interval unknown)", b->label, what,
				 a->label);
		memcpy(row->text, t, sizeof(t));
		return;
	}
	row->lo = row->ci.lo;
	row->hi = row->ci.hi;
	fmt_ci(ci, sizeof(ci), row->lo, row->hi);
	if (row->hi < 1.0 || row->lo > 1.0) {
		row->kind = row->hi < 1.0 ? RTM_COST_LOWER : RTM_COST_HIGHER;
		snprintf(t, sizeof(t), "%s's %s is %s than %s's (%s; per-run "
			 "scores over %d and %d runs, %s t)", b->label, what, chg, a->label, ci,
			 na, nb, row->ci.welch ? "Welch" : "pooled");
	} else {
		row->kind = RTM_COST_SAME;
		snprintf(t, sizeof(t), "%s's %s is not distinguishable from %s's "
			 "(%s, %s; per-run scores over %d and %d runs, %s t)", b->label, what,
			 a->label, chg, ci, na, nb, row->ci.welch ? "Welch" : "pooled");
	}
	memcpy(row->text, t, sizeof(t));
}

static struct rtm_compare_cost_row *new_row(struct rtm_compare *c, int run, const char *name)
{
	struct rtm_compare_cost_row *row = &c->cost[c->ncost++];

	memset(row, 0, sizeof(*row));
	row->run = run;
	row->ratio = row->lo = row->hi = NAN;
	snprintf(row->stressor, sizeof(row->stressor), "%s", name);
	return row;
}

/* The rows of run @i against the baseline: each stressor, then all of them. */
static void cost_rows(struct rtm_compare *c, int i)
{
	const struct rtm_compare_run *a = &c->runs[0], *b = &c->runs[i];
	const struct rtm_compare_cost *ca = &a->cost, *cb = &b->cost;
	double la[RTM_COMPARE_MAX_ROUNDS], lb[RTM_COMPARE_MAX_ROUNDS];
	int keys_a[RTM_COST_MAX_STRESSORS], keys_b[RTM_COST_MAX_STRESSORS];
	char what[64], t[sizeof(c->cost[0].text)];
	int k, nkeys = 0, na, nb;
	struct rtm_compare_cost_row *row;

	if (!ca->nrounds || !cb->nrounds) {
		const struct rtm_compare_run *x = ca->nrounds ? b : a;

		row = new_row(c, i, "");
		row->kind = RTM_COST_UNKNOWN;
		snprintf(t, sizeof(t), "%s's throughput against %s's is unknown: "
			 "%s has no throughput scores (rtmeasure run --throughput)", b->label,
			 a->label, x->label);
		memcpy(row->text, t, sizeof(t));
		return;
	}
	for (k = 0; k < ca->n && c->ncost < RTM_COMPARE_MAX_COST_ROWS; k++) {
		int kb = everywhere(cb, ca->names[k]), ka = everywhere(ca, ca->names[k]);

		row = new_row(c, i, ca->names[k]);
		if (ka < 0 || kb < 0) {
			row->kind = RTM_COST_UNKNOWN;
			snprintf(t, sizeof(t), "%s: unknown, not in every run of "
				 "%s", ca->names[k], ka < 0 ? a->label : b->label);
			memcpy(row->text, t, sizeof(t));
			continue;
		}
		keys_a[nkeys] = ka;
		keys_b[nkeys++] = kb;
		na = side_logs(ca, ka, NULL, 0, la);
		nb = side_logs(cb, kb, NULL, 0, lb);
		snprintf(what, sizeof(what), "%s throughput", ca->names[k]);
		row_verdict(a, b, la, na, lb, nb, what, row);
	}
	if (c->ncost >= RTM_COMPARE_MAX_COST_ROWS)
		return;
	row = new_row(c, i, "");
	if (!nkeys) {
		row->kind = RTM_COST_UNKNOWN;
		snprintf(t, sizeof(t), "%s's throughput against %s's is unknown: "
			 "no stressor ran in every run of both", b->label, a->label);
		memcpy(row->text, t, sizeof(t));
		return;
	}
	na = side_logs(ca, -1, keys_a, nkeys, la);
	nb = side_logs(cb, -1, keys_b, nkeys, lb);
	snprintf(what, sizeof(what), "throughput (geometric mean of %d stressor%s)", nkeys,
		 nkeys == 1 ? "" : "s");
	row_verdict(a, b, la, na, lb, nb, what, row);
}

/* "p99.9 6.1x lower" from the latency verdict of run @i at percentile @pct. */
static void latency_pct(const struct rtm_compare *c, int i, double pct, char *buf, size_t len)
{
	const struct rtm_compare_verdict *v = NULL;
	char f[24];
	int k;

	for (k = 0; k < c->nverdicts; k++)
		if (c->verdicts[k].run == i && c->verdicts[k].pct == pct)
			v = &c->verdicts[k];
	if (!v || v->kind == RTM_VERDICT_FEW) {
		snprintf(buf, len, "p%g unknown (too few samples)", pct);
		return;
	}
	if (v->kind == RTM_VERDICT_SAME) {
		snprintf(buf, len, "p%g not distinguishable", pct);
		return;
	}
	rtm_fmt_factor(f, sizeof(f), v->kind == RTM_VERDICT_LOWER ? 1.0 / v->ratio :
			       v->ratio);
	snprintf(buf, len, "p%g %sx %s", pct, f, v->kind == RTM_VERDICT_LOWER ? "lower" :
		 "higher");
}

/* The headline's latency: p99.9, and p99 too when p99.9 has too few samples. */
static void latency_part(const struct rtm_compare *c, int i, char *buf, size_t len)
{
	char p99[64];
	size_t n;

	latency_pct(c, i, 99.9, buf, len);
	if (!strstr(buf, "too few"))
		return;
	latency_pct(c, i, 99, p99, sizeof(p99));
	n = strlen(buf);
	snprintf(buf + n, len - n, ", %s", p99);
}

static void headline(struct rtm_compare *c, int i, const struct rtm_compare_cost_row *all)
{
	char lat[96], chg[48], ci[96], t[sizeof(c->headline[0])];

	latency_part(c, i, lat, sizeof(lat));
	if (!all || all->kind == RTM_COST_UNKNOWN) {
		snprintf(t, sizeof(t), "%s vs %s: %s, throughput unknown",
			 c->runs[i].label, c->runs[0].label, lat);
		memcpy(c->headline[i], t, sizeof(t));
		return;
	}
	fmt_change(chg, sizeof(chg), all->ratio);
	if (all->kind == RTM_COST_NO_CI)
		snprintf(ci, sizeof(ci), "CI unknown: one run per side");
	else
		fmt_ci(ci, sizeof(ci), all->lo, all->hi);
	snprintf(t, sizeof(t), "%s vs %s: %s, throughput %s%s (%s)",
		 c->runs[i].label, c->runs[0].label, lat,
		 all->kind == RTM_COST_SAME ? "not distinguishable, " : "", chg, ci);
	memcpy(c->headline[i], t, sizeof(t));
}

void rtm_compare_cost_finish(struct rtm_compare *c)
{
	struct rtm_compare_warning *w;
	bool differs = false;
	int i, k;

	c->ncost = 0;
	c->has_cost = false;
	for (i = 0; i < c->nruns; i++) {
		c->headline[i][0] = '\0';
		c->has_cost |= c->runs[i].cost.nrounds > 0;
	}
	if (!c->has_cost)
		return;
	for (i = 0; i < c->nruns; i++) {
		const struct rtm_compare_cost *cc = &c->runs[i].cost;

		differs |= cc->workload_differs;
		if (i && cc->nrounds && c->runs[0].cost.nrounds &&
		    strcmp(cc->workload, c->runs[0].cost.workload))
			differs = true;
	}
	if (differs && c->nwarnings < RTM_COMPARE_MAX_WARNINGS) {
		/* built apart: the labels and workloads live in *c too (gcc's -Wrestrict) */
		char text[sizeof(w->text)];
		size_t len;

		w = &c->warnings[c->nwarnings++];
		w->field = RTM_FP_NFIELDS;
		w->id = "throughput_workload";
		len = (size_t)snprintf(text, sizeof(text), "different throughput workloads (");
		for (i = 0; i < c->nruns && len < sizeof(text); i++)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s: %.100s%s",
						i ? "; " : "", c->runs[i].label,
						c->runs[i].cost.nrounds ? c->runs[i].cost.workload :
						"none", c->runs[i].cost.workload_differs ?
						" and others" : "");
		if (len < sizeof(text))
			snprintf(text + len, sizeof(text) - len, "): bogo-ops of different "
				 "workloads or stress-ng versions do not compare");
		memcpy(w->text, text, sizeof(text));
	}
	for (i = 1; i < c->nruns; i++) {
		int first = c->ncost;

		cost_rows(c, i);
		for (k = first; k < c->ncost && c->cost[k].stressor[0]; k++)
			;
		headline(c, i, k < c->ncost ? &c->cost[k] : NULL);
	}
}

/* ---------------------------------------------------------------- text */

/* A side's score of stressor @name: the geometric mean over its runs, NAN if unknown. */
static double side_score(const struct rtm_compare_cost *cc, const char *name)
{
	double l[RTM_COMPARE_MAX_ROUNDS], sum = 0;
	int k = everywhere(cc, name), n, j;

	if (k < 0 || !cc->nrounds)
		return NAN;
	n = side_logs(cc, k, NULL, 0, l);
	for (j = 0; j < n; j++)
		sum += l[j];
	return exp(sum / n);
}

/* The cells of a row: each side's score, the ratio and its interval. */
static void row_cells(const struct rtm_compare *c, const struct rtm_compare_cost_row *row,
		      char *base, char *run, char *ratio, char *ci, size_t len)
{
	double sa, sb;

	sa = row->stressor[0] ? side_score(&c->runs[0].cost, row->stressor) : NAN;
	sb = row->stressor[0] ? side_score(&c->runs[row->run].cost, row->stressor) : NAN;
	if (isfinite(sa))
		rtm_cost_fmt_rate(base, len, sa);
	else
		snprintf(base, len, row->stressor[0] ? "unknown" : "");
	if (isfinite(sb))
		rtm_cost_fmt_rate(run, len, sb);
	else
		snprintf(run, len, row->stressor[0] ? "unknown" : "");
	if (row->kind == RTM_COST_UNKNOWN) {
		snprintf(ratio, len, "-");
		snprintf(ci, len, "-");
		return;
	}
	snprintf(ratio, len, "%.3f", row->ratio);
	if (row->kind == RTM_COST_NO_CI)
		snprintf(ci, len, "unknown (1 run a side)");
	else
		snprintf(ci, len, "%.3f-%.3f", row->lo, row->hi);
}

void rtm_compare_cost_fprint(const struct rtm_compare *c, FILE *f)
{
	char base[32], run[32], ratio[32], ci[32];
	int i, k;

	if (!c->has_cost)
		return;
	fprintf(f, "\nlatency and throughput (bogo-ops/s of real time, stress-ng after the "
		"latency phase; %s):\n", c->runs[0].cost.nrounds ? c->runs[0].cost.workload :
		"baseline without throughput");
	for (i = 1; i < c->nruns; i++)
		fprintf(f, "  %s\n", c->headline[i]);
	for (i = 1; i < c->nruns; i++) {
		fprintf(f, "%-10s %12.12s %12.12s %8s  %s\n", "stressor", c->runs[0].label,
			c->runs[i].label, "ratio", "95% CI of the ratio");
		for (k = 0; k < c->ncost; k++) {
			const struct rtm_compare_cost_row *row = &c->cost[k];

			if (row->run != i)
				continue;
			row_cells(c, row, base, run, ratio, ci, sizeof(base));
			fprintf(f, "%-10s %12s %12s %8s  %s\n", row->stressor[0] ? row->stressor :
				"all (geo)", base, run, ratio, ci);
		}
		for (k = 0; k < c->ncost; k++)
			if (c->cost[k].run == i)
				fprintf(f, "  %s\n", c->cost[k].text);
	}
	for (i = 0; i < c->nruns; i++) {
		const struct rtm_compare_cost *cc = &c->runs[i].cost;

		if (cc->missing && cc->nrounds)
			fprintf(f, "(%s: %d of %d runs have no throughput scores; the others are "
				"used)\n", c->runs[i].label, cc->missing, cc->missing + cc->nrounds);
		if (cc->incomplete)
			fprintf(f, "(%s: a run's throughput phase was interrupted; stressors it "
				"lacks are unknown)\n", c->runs[i].label);
	}
}

/* ---------------------------------------------------------------- JSON */

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *rtm_compare_cost_run_json(const struct rtm_compare_run *run)
{
	const struct rtm_compare_cost *cc = &run->cost;
	json_t *rounds, *o;
	int j, k;

	if (!cc->nrounds && !cc->missing)
		return json_null();
	rounds = json_array();
	for (j = 0; j < cc->nrounds; j++) {
		json_t *r = json_object();

		for (k = 0; k < cc->n; k++)
			json_object_set_new(r, cc->names[k], num_or_null(cc->score[j][k]));
		json_array_append_new(rounds, r);
	}
	o = json_pack("{s:o, s:b, s:b, s:i, s:o}", "workload",
		      cc->nrounds ? json_string(cc->workload) : json_null(), "workload_differs",
		      cc->workload_differs, "incomplete", cc->incomplete, "runs_without",
		      cc->missing, "runs", rounds);
	return o;
}

static const char *const kind_names[] = {
	[RTM_COST_LOWER] = "lower",
	[RTM_COST_HIGHER] = "higher",
	[RTM_COST_SAME] = "not distinguishable",
	[RTM_COST_NO_CI] = "no interval (one run per side)",
	[RTM_COST_UNKNOWN] = "unknown",
};

json_t *rtm_compare_cost_json(const struct rtm_compare *c, int i)
{
	json_t *rows;
	int k;

	if (!c->has_cost)
		return json_null();
	rows = json_array();
	for (k = 0; k < c->ncost; k++) {
		const struct rtm_compare_cost_row *row = &c->cost[k];
		bool iv = row->kind != RTM_COST_UNKNOWN && row->kind != RTM_COST_NO_CI;

		if (row->run != i)
			continue;
		json_array_append_new(rows, json_pack("{s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, "
			"s:s}", "stressor", row->stressor[0] ? json_string(row->stressor) :
			json_null(), "verdict", kind_names[row->kind], "ratio",
			row->kind == RTM_COST_UNKNOWN ? json_null() : num_or_null(row->ratio),
			"ratio_ci_lo", iv ? num_or_null(row->lo) : json_null(),
			"ratio_ci_hi", iv ? num_or_null(row->hi) : json_null(),
			"n_baseline", row->kind == RTM_COST_UNKNOWN ? json_null() :
				      json_integer(row->ci.na),
			"n_run", row->kind == RTM_COST_UNKNOWN ? json_null() :
				 json_integer(row->ci.nb),
			"interval", !iv ? json_null() : json_string(row->ci.welch ? "welch-t" :
								      "pooled-t"),
			"text", row->text));
	}
	return json_pack("{s:s, s:o}", "headline", c->headline[i], "rows", rows);
}

/* ---------------------------------------------------------------- pages */

static const char *const page_note =
	"Throughput: stress-ng stressors, each for a fixed time on the measured CPUs after "
	"the latency phase (no probe, no background load running); a score is bogo-ops per "
	"second of real time. The ratio is run / baseline of the geometric means over the "
	"runs; all (geo) is the geometric mean over the stressors. The interval is a t "
	"interval on the logarithms of the per-run scores (Welch; pooled when one side has a "
	"single run); with one run per side it is unknown, since the repetitions inside one "
	"run do not show how whole runs differ.";

static void html_td(FILE *f, const char *cls, const char *s)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	rtm_html_text(f, s);
	fputs("</td>", f);
}

void rtm_compare_cost_html(const struct rtm_compare *c, FILE *f)
{
	char base[32], run[32], ratio[32], ci[32];
	int i, k;

	if (!c->has_cost)
		return;
	fputs("<h2>Latency and throughput</h2>\n", f);
	for (i = 1; i < c->nruns; i++) {
		fputs("<div class=\"verdict\"><b>", f);
		rtm_html_text(f, c->headline[i]);
		fputs("</b></div>\n", f);
	}
	for (i = 1; i < c->nruns; i++) {
		fputs("<table>\n<tr><th class=\"l\">stressor</th><th>", f);
		rtm_html_text(f, c->runs[0].label);
		fputs(" (bogo-ops/s)</th><th>", f);
		rtm_html_text(f, c->runs[i].label);
		fprintf(f, " (bogo-ops/s)</th><th>ratio</th><th>%.0f%% CI</th></tr>\n",
			RTM_COMPARE_CONF * 100);
		for (k = 0; k < c->ncost; k++) {
			const struct rtm_compare_cost_row *row = &c->cost[k];

			if (row->run != i)
				continue;
			row_cells(c, row, base, run, ratio, ci, sizeof(base));
			fputs("<tr>", f);
			html_td(f, "l", row->stressor[0] ? row->stressor : "all (geo)");
			html_td(f, NULL, base);
			html_td(f, NULL, run);
			html_td(f, NULL, ratio);
			html_td(f, row->kind == RTM_COST_NO_CI ? "info" : NULL, ci);
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
		for (k = 0; k < c->ncost; k++) {
			if (c->cost[k].run != i)
				continue;
			fputs("<div class=\"verdict\">", f);
			rtm_html_text(f, c->cost[k].text);
			fputs("</div>\n", f);
		}
	}
	fputs("<p class=\"sub\">", f);
	rtm_html_text(f, page_note);
	fputs(" Workload: ", f);
	rtm_html_text(f, c->runs[0].cost.nrounds ? c->runs[0].cost.workload : "none");
	fputs(".</p>\n", f);
}

void rtm_compare_cost_md(const struct rtm_compare *c, FILE *f)
{
	char base[32], run[32], ratio[32], ci[32];
	int i, k;

	if (!c->has_cost)
		return;
	fputs("## Latency and throughput\n\n", f);
	for (i = 1; i < c->nruns; i++) {
		fputs("- **", f);
		rtm_md_text(f, c->headline[i]);
		fputs("**\n", f);
	}
	for (i = 1; i < c->nruns; i++) {
		fputs("\n| stressor | ", f);
		rtm_md_text(f, c->runs[0].label);
		fputs(" | ", f);
		rtm_md_text(f, c->runs[i].label);
		fprintf(f, " | ratio | %.0f%% CI |\n|---|---:|---:|---:|---:|\n",
			RTM_COMPARE_CONF * 100);
		for (k = 0; k < c->ncost; k++) {
			const struct rtm_compare_cost_row *row = &c->cost[k];

			if (row->run != i)
				continue;
			row_cells(c, row, base, run, ratio, ci, sizeof(base));
			fprintf(f, "| %s | %s | %s | %s | %s |\n", row->stressor[0] ? row->stressor :
				"all (geo)", base, run, ratio, ci);
		}
		fputc('\n', f);
		for (k = 0; k < c->ncost; k++) {
			if (c->cost[k].run != i)
				continue;
			fputs("- ", f);
			rtm_md_text(f, c->cost[k].text);
			fputc('\n', f);
		}
	}
	fprintf(f, "\n%s Workload: ", page_note);
	rtm_md_text(f, c->runs[0].cost.nrounds ? c->runs[0].cost.workload : "none");
	fputs(".\n\n", f);
}
