// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_compare_series - with one run per side, the verdict is about the ratio
 * the table shows. Recorded runs (tests/data/compare/boot-*: two idle runs
 * and one with a FIFO 99 spin of 600 us every 10 ms on CPU 1, their time
 * series keeping per-interval histograms): the injected run's all-CPU p99 is
 * 6.8x the idle one's in the table, while the geometric mean of per-interval
 * p99 moves 2.8x with an interval that does not hold 6.8. The verdict must
 * print the table's ratio with an interval that holds it and lies beyond the
 * one-run margin; the two idle runs must be "not distinguishable" either way;
 * a run with fewer than 8 intervals gets "too few intervals to say".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "present/compare.h"
#include "core/stats.h"
#include "result/summary.h"
#include "../tap.h"

static struct rtm_result *load(const char *name)
{
	const char *data = getenv("RTM_TESTDATA");
	struct rtm_error err = { "" };
	struct rtm_result *r;
	char path[4096];

	snprintf(path, sizeof(path), "%s/compare/%s", data ? data : "tests/data", name);
	r = rtm_result_load(path, &err);
	if (!r)
		diag("%s: %s", path, err.msg);
	return r;
}

static struct rtm_compare *compare2(const struct rtm_result *a, const struct rtm_result *b)
{
	struct rtm_compare *c = rtm_compare_alloc();
	struct rtm_error err = { "" };

	if (rtm_compare_add(c, a, "a", NULL, &err) || rtm_compare_add(c, b, "b", NULL, &err))
		diag("compare: %s", err.msg);
	rtm_compare_finish(c);
	return c;
}

static const struct rtm_compare_verdict *verdict(const struct rtm_compare *c, double p)
{
	int i;

	for (i = 0; i < c->nverdicts; i++)
		if (fabs(c->verdicts[i].pct - p) < 1e-9)
			return &c->verdicts[i];
	return NULL;
}

/* The all-CPU ratio of percentile @p as the table prints it (run 1 / run 0). */
static double table_ratio(const struct rtm_compare *c, double p)
{
	const struct rtm_summary_row *a = &c->runs[0].rows[c->runs[0].nrows - 1];
	const struct rtm_summary_row *b = &c->runs[1].rows[c->runs[1].nrows - 1];
	int k;

	for (k = 0; k < RTM_SUMMARY_NPCT; k++)
		if (fabs(rtm_summary_pcts[k] - p) < 1e-9)
			return (double)b->pct_ns[k] / (double)a->pct_ns[k];
	return NAN;
}

/* The verdict's ratio is the table's, and its interval holds it. */
static bool about_table(const struct rtm_compare *c, const struct rtm_compare_verdict *v)
{
	double t = table_ratio(c, v->pct);

	return fabs(v->ratio - t) <= 1e-9 * t && v->ratio_lo <= t && t <= v->ratio_hi;
}

static void test_injected(const struct rtm_result *idle, const struct rtm_result *inj)
{
	struct rtm_compare *c = compare2(idle, inj);
	const struct rtm_compare_verdict *v = verdict(c, 99);
	struct rtm_ratio_ci gm;
	double t = table_ratio(c, 99);
	const char *m;
	json_t *j, *jv;

	/* what the verdict said before: the geometric mean of per-interval p99 over batches */
	rtm_ratio_ci_logs(c->runs[0].batch_log_p99, c->runs[0].nbatches, c->runs[1].batch_log_p99,
			  c->runs[1].nbatches, 0.95, 0, 0, &gm);
	ok(gm.valid && t > gm.hi * 1.5, "the table's p99 ratio %.2f lies far beyond the "
	   "per-interval geometric mean's interval [%.2f, %.2f]", t, gm.lo, gm.hi);
	ok(v && v->kind == RTM_VERDICT_HIGHER && about_table(c, v) &&
	   v->ratio_lo > RTM_COMPARE_BATCH_MARGIN,
	   "injected p99: higher, the table's ratio %.2f in [%.2f, %.2f]: %s", t,
	   v ? v->ratio_lo : 0, v ? v->ratio_hi : 0, v ? v->text : "");
	ok(v && strstr(v->text, "b's p99 is 6.8x higher than a's (95% CI ") &&
	   strstr(v->text, "; block bootstrap of each run's p99 over its 20 and 20 intervals of "
		  "1s, blocks of 4 and 4, 2000 resamples)"), "the text says so and how");
	v = verdict(c, 99.9);
	ok(v && v->kind == RTM_VERDICT_HIGHER && about_table(c, v),
	   "injected p99.9: an interval of the table's ratio %.2f too: %s", table_ratio(c, 99.9),
	   v ? v->text : "");
	j = rtm_compare_to_json(c);
	jv = json_array_get(json_object_get(json_array_get(json_object_get(j, "comparisons"), 0),
					    "verdicts"), 0);
	m = json_string_value(json_object_get(jv, "method"));
	ok(m && !strcmp(m, "bootstrap") && json_real_value(json_object_get(jv, "ratio")) == t,
	   "JSON: method bootstrap, ratio the table's");
	json_decref(j);
	rtm_compare_free(c);

	c = compare2(inj, idle);
	v = verdict(c, 99);
	ok(v && v->kind == RTM_VERDICT_LOWER && about_table(c, v),
	   "the other way round: lower, about the table's ratio: %s", v ? v->text : "");
	rtm_compare_free(c);
}

static void test_idle(const struct rtm_result *a, const struct rtm_result *b)
{
	const struct rtm_result *x[2] = { a, b };
	const struct rtm_compare_verdict *v;
	struct rtm_compare *c;
	double lo = 0, hi = 0;
	int i, k, same = 0;

	for (i = 0; i < 2; i++) {
		c = compare2(x[i], x[1 - i]);
		for (k = 0; k < 2; k++) {
			v = verdict(c, k ? 99.9 : 99);
			same += v && v->kind == RTM_VERDICT_SAME && about_table(c, v);
			if (!v || v->kind != RTM_VERDICT_SAME)
				diag("%s", v ? v->text : "no verdict");
		}
		rtm_compare_free(c);
	}
	is_int(same, 4, "two idle runs, both ways, p99 and p99.9: not distinguishable, about the "
	       "table's ratio");
	for (i = 0; i < 2; i++) {
		c = compare2(a, b);
		v = verdict(c, 99);
		if (!i) {
			lo = v->ratio_lo;
			hi = v->ratio_hi;
		} else {
			ok(lo == v->ratio_lo && hi == v->ratio_hi, "the same interval every "
			   "time (a fixed seed)");
		}
		rtm_compare_free(c);
	}
}

/* Seven intervals left on each CPU of one side: too few to resample. */
static void test_few(struct rtm_result *a, const struct rtm_result *b)
{
	const struct rtm_compare_verdict *v;
	struct rtm_compare *c;
	int i;

	for (i = 0; i < a->ncpus; i++)
		a->cpus[i].ts->n = 7;
	c = compare2(a, b);
	v = verdict(c, 99);
	ok(v && v->kind == RTM_VERDICT_SAME && isnan(v->ratio_lo) &&
	   strstr(v->text, "b's p99 is not distinguishable from a's: too few intervals to say "
		  "(a 7, b 20; 8 needed on each side)"), "7 intervals: too few to say: %s",
	   v ? v->text : "");
	rtm_compare_free(c);
}

int main(void)
{
	struct rtm_result *a = load("boot-idle-1"), *b = load("boot-idle-2");
	struct rtm_result *inj = load("boot-inj-1");

	if (!a || !b || !inj) {
		ok(0, "recorded runs load");
		return tap_done();
	}
	test_injected(a, inj);
	test_idle(a, b);
	test_few(a, inj);
	rtm_result_free(a);
	rtm_result_free(b);
	rtm_result_free(inj);
	return tap_done();
}
