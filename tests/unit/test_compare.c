// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_compare - percentile confidence intervals and the comparison of runs.
 *
 * The interval logic is checked on known answers (textbook ranks of the
 * median, ranks computed independently with exact binomial sums, Student t
 * quantiles from tables) and on synthetic runs from known distributions:
 * coverage of the true quantile over many trials, B = A / 4 must read "4.0x
 * lower" with 4 inside the interval, identical runs "not distinguishable",
 * small runs "too few samples". Recorded identical-condition runs of the
 * development VM (tests/data/compare/identical-*) must come out "not
 * distinguishable" pairwise and as rounds, and the same runs shifted 2x, or
 * recorded with an injector (tests/data/compare/injected-*), must not. The
 * table's numbers are checked against nearest-rank percentiles of the sorted
 * samples; fingerprint differences against the warnings they must raise.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "present/compare.h"
#include "core/stats.h"
#include "core/units.h"
#include "../tap.h"

/* ---------------------------------------------------------------- random samples */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t splitmix(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double uniform(void)
{
	return ((double)(splitmix() >> 11) + 0.5) / 9007199254740992.0;
}

/* Exponential with mean @mean_ns above an offset: a latency-like tail. */
static uint64_t draw_exp(double offset_ns, double mean_ns)
{
	return (uint64_t)(offset_ns - mean_ns * log(uniform()));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank of sorted samples: the independent reference for the table. */
static uint64_t exact_pct(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n - 1e-9);

	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

/* A cyclic-like result: @ncpus CPUs, @n samples each, exponential tails. */
static struct rtm_result *make_result(int ncpus, size_t n, double offset_ns, double mean_ns,
				      double scale, uint64_t **samples)
{
	struct rtm_result *r = rtm_result_alloc("cyclic");
	size_t k;
	int i;

	if (samples)
		*samples = malloc((size_t)ncpus * n * sizeof(uint64_t));
	struct rtm_hist *iv = rtm_hist_alloc();

	for (i = 0; i < ncpus; i++) {
		struct rtm_result_cpu *c = rtm_result_add_cpu(r, i, false, 1000000000ULL);

		for (k = 0; k < n; k++) {
			uint64_t v = (uint64_t)((double)draw_exp(offset_ns, mean_ns) * scale);

			rtm_hist_record(c->raw, v);
			rtm_hist_record(iv, v);
			if (samples)
				(*samples)[(size_t)i * n + k] = v;
			/* a 1 ms period: one time-series point per 1000 samples */
			if ((k + 1) % 1000 == 0 || k + 1 == n) {
				struct rtm_ts_point pt = {
					.start_ns = k / 1000 * 1000000000ULL,
					.width_ns = 1000000000ULL, .count = iv->count,
					.min_ns = iv->min_ns, .max_ns = iv->max_ns,
					.p99_ns = rtm_hist_percentile(iv, 99),
				};

				rtm_ts_add(c->ts, &pt);
				rtm_hist_reset(iv);
			}
		}
	}
	rtm_hist_free(iv);
	r->duration_ns = n / 1000 * 1000000000ULL;
	return r;
}

static void set_fp(struct rtm_result *r, const char *release, const char *model, bool vm,
		   int prio, const char *isol)
{
	json_decref(r->sysinfo);
	r->sysinfo = json_pack("{s:s, s:s, s:{s:s, s:{s:s, s:b}, s:s, s:{s:o}}, s:{s:s, s:i},"
			       " s:{s:b, s:s}}",
			       "schema", "rtmeasure-sysinfo/1", "hostname", "box",
			       "kernel", "release", release, "preempt", "model",
			       strstr(release, "rt") ? "rt" : "voluntary", "dynamic", 0,
			       "cmdline", "quiet", "cmdline_options", "isolcpus",
			       isol ? json_string(isol) : json_null(),
			       "cpu", "model", model, "online_count", 4,
			       "virtualization", "vm", vm, "hypervisor", vm ? "KVM" : "");
	json_object_set_new(r->options, "interval_ns", json_integer(1000000));
	json_object_set_new(r->options, "sched", json_pack("{s:s, s:i}", "policy", "fifo",
							   "priority", prio));
	json_object_set_new(r->options, "mode", json_string("nanosleep"));
}

static struct rtm_compare *compare2(struct rtm_result *a, struct rtm_result *b, const char *la,
				    const char *lb)
{
	struct rtm_compare *c = rtm_compare_alloc();
	struct rtm_error err = { "" };

	rtm_compare_add(c, a, la, NULL, &err);
	rtm_compare_add(c, b, lb, NULL, &err);
	rtm_compare_finish(c);
	return c;
}

/* Sides of several rounds each: @na results on the first, the rest on the second. */
static struct rtm_compare *compare_rounds(struct rtm_result **r, int na, int n, const char *la,
					  const char *lb)
{
	struct rtm_compare *c = rtm_compare_alloc();
	struct rtm_error err = { "" };
	int i;

	for (i = 0; i < n; i++) {
		if (i == 0 || i == na)
			rtm_compare_add(c, r[i], i ? lb : la, NULL, &err);
		else
			rtm_compare_add_round(c, r[i], NULL, &err);
	}
	rtm_compare_finish(c);
	return c;
}

static const struct rtm_compare_warning *warning_id(const struct rtm_compare *c, const char *id)
{
	int i;

	for (i = 0; i < c->nwarnings; i++)
		if (!strcmp(c->warnings[i].id, id))
			return &c->warnings[i];
	return NULL;
}

static int fp_warnings(const struct rtm_compare *c)
{
	int i, n = 0;

	for (i = 0; i < c->nwarnings; i++)
		n += c->warnings[i].field < RTM_FP_NFIELDS;
	return n;
}

static const struct rtm_compare_verdict *verdict(const struct rtm_compare *c, int run, double p)
{
	int i;

	for (i = 0; i < c->nverdicts; i++)
		if (c->verdicts[i].run == run && fabs(c->verdicts[i].pct - p) < 1e-9)
			return &c->verdicts[i];
	return NULL;
}

static bool has_warning(const struct rtm_compare *c, enum rtm_fp_field f)
{
	int i;

	for (i = 0; i < c->nwarnings; i++)
		if (c->warnings[i].field == f)
			return true;
	return false;
}

/* ---------------------------------------------------------------- tests */

static void test_ranks(void)
{
	static const struct {
		uint64_t n;
		double p, conf;
		uint64_t lo, hi;	/* exact binomial sums done independently (Python) */
	} t[] = {
		{ 100, 50, 0.95, 40, 61 },		/* textbook: median of 100 */
		{ 1000, 50, 0.95, 469, 532 },		/* textbook: median of 1000 */
		{ 1000, 99, 0.95, 983, 997 },
		{ 20000, 99.9, 0.95, 19971, 19989 },
		{ 1000000, 99.9, 0.975, 998928, 999071 },
		{ 10000000, 99, 0.95, 9899383, 9900617 },	/* normal approximation */
	};
	uint64_t lo, hi;
	size_t i;
	int ret;

	ok(fabs(rtm_norm_quantile(0.975) - 1.959963985) < 1e-8, "normal quantile 0.975");
	ok(fabs(rtm_norm_quantile(0.5)) < 1e-12, "normal quantile 0.5");
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		bool approx = t[i].n >= 10000000;

		ret = rtm_quantile_ci_ranks(t[i].n, t[i].p, t[i].conf, &lo, &hi);

		ok(!ret && (approx ? (llabs((long long)(lo - t[i].lo)) <= 1 &&
				      llabs((long long)(hi - t[i].hi)) <= 1) :
			    (lo == t[i].lo && hi == t[i].hi)),
		   "ranks n=%llu p%g %.3f: [%llu, %llu], want [%llu, %llu]",
		   (unsigned long long)t[i].n, t[i].p, t[i].conf, (unsigned long long)lo,
		   (unsigned long long)hi, (unsigned long long)t[i].lo,
		   (unsigned long long)t[i].hi);
	}
	is_int(rtm_quantile_ci_ranks(30, 90, 0.95, &lo, &hi), -ERANGE,
	       "30 samples: no upper rank for p90");
	is_int(rtm_quantile_ci_ranks(0, 50, 0.95, &lo, &hi), -ERANGE, "no samples");
	/* the switch to the normal approximation moves a rank by at most one */
	ret = rtm_quantile_ci_ranks(1200000, 90, 0.95, &lo, &hi);
	ok(!ret && llabs((long long)lo - 1079356) <= 1 && llabs((long long)hi - 1080645) <= 1,
	   "normal approximation just past the switch: [%llu, %llu]", (unsigned long long)lo,
	   (unsigned long long)hi);
}

static void test_rank_ranges(void)
{
	struct rtm_hist *h = rtm_hist_alloc();
	uint64_t ranks[] = { 1, 2, 3, 4, 5 }, lo[5], hi[5];

	rtm_hist_record(h, 100);		/* exact bucket */
	rtm_hist_record(h, 200);
	rtm_hist_record(h, 10001);		/* bucket [9984, 10015] */
	rtm_hist_record(h, 10010);
	rtm_hist_record(h, 50000);
	rtm_hist_rank_ranges(h, ranks, 5, lo, hi);
	ok(lo[0] == 100 && hi[0] == 100, "rank 1 is the exact minimum");
	ok(lo[1] == 200 && hi[1] == 200, "rank 2 in an exact bucket");
	ok(lo[2] == 9984 && hi[2] == 10015, "rank 3: its bucket's edges [%llu, %llu]",
	   (unsigned long long)lo[2], (unsigned long long)hi[2]);
	ok(lo[3] == 9984 && hi[3] == 10015, "rank 4: same bucket");
	ok(lo[4] == 50000 && hi[4] == 50000, "last rank is the exact maximum");
	rtm_hist_free(h);
}

/* Over many runs the 95% interval must hold the true quantile about 95% of the time. */
static void test_coverage(void)
{
	const double mean = 20000, offset = 10000;
	static const double ps[] = { 99, 99.9 };
	struct rtm_hist *h = rtm_hist_alloc();
	int trials = 300, t, k, j;

	for (j = 0; j < 2; j++) {
		double q = offset - mean * log(1.0 - ps[j] / 100.0);
		int covered = 0, valid = 0;

		for (t = 0; t < trials; t++) {
			struct rtm_quantile_ci ci;

			rtm_hist_reset(h);
			for (k = 0; k < 20000; k++)
				rtm_hist_record(h, draw_exp(offset, mean));
			rtm_hist_quantile_ci(h, ps[j], 0.95, &ci);
			valid += ci.valid;
			covered += ci.valid && (double)ci.lo_ns <= q && q <= (double)ci.hi_ns;
		}
		ok(valid == trials, "p%g: every trial of 20000 samples has an interval", ps[j]);
		ok(covered >= 0.93 * trials && covered <= 0.995 * trials,
		   "p%g: 95%% interval covers the true quantile in %d of %d trials", ps[j],
		   covered, trials);
	}
	rtm_hist_free(h);
}

/* The ratio interval of two runs (each at 97.5%) must hold the true ratio >= 95% of the time. */
static void test_ratio_coverage(void)
{
	struct rtm_hist *a = rtm_hist_alloc(), *b = rtm_hist_alloc();
	int trials = 300, t, k, covered = 0, decided = 0;

	for (t = 0; t < trials; t++) {
		struct rtm_quantile_ci ca, cb;

		rtm_hist_reset(a);
		rtm_hist_reset(b);
		for (k = 0; k < 20000; k++) {
			rtm_hist_record(a, draw_exp(10000, 20000));
			rtm_hist_record(b, draw_exp(10000, 20000) / 4);
		}
		rtm_hist_quantile_ci(a, 99.9, 0.975, &ca);
		rtm_hist_quantile_ci(b, 99.9, 0.975, &cb);
		covered += (double)cb.lo_ns / (double)ca.hi_ns <= 0.25 &&
			   0.25 <= (double)cb.hi_ns / (double)ca.lo_ns;
		decided += cb.hi_ns < ca.lo_ns;
	}
	ok(covered >= 0.95 * trials, "p99.9 ratio interval holds the true 0.25 in %d of %d trials",
	   covered, trials);
	is_int(decided, trials, "and B = A / 4 is told apart in every trial of 20000 samples");
	rtm_hist_free(a);
	rtm_hist_free(b);
}

static void test_scaled(void)
{
	struct rtm_result *a = make_result(2, 400000, 10000, 20000, 1.0, NULL);
	struct rtm_result *b = make_result(2, 400000, 10000, 20000, 0.25, NULL);
	struct rtm_result *d = make_result(2, 400000, 10000, 20000, 2.0, NULL);
	struct rtm_result *r[6];
	struct rtm_compare *c = compare2(a, b, "stock", "rt");
	const struct rtm_compare_verdict *v;
	struct rtm_error err = { "" };
	char want[128];
	int i;

	/* one run per side: p99 from batches of the time series */
	v = verdict(c, 1, 99);
	ok(v && v->kind == RTM_VERDICT_LOWER && v->method == RTM_METHOD_BATCHES &&
	   v->ratio_lo <= 0.25 && 0.25 <= v->ratio_hi && v->ci.na == 10 && v->ci.nb == 10,
	   "B = A / 4, one run each: p99 lower from 10 batches each, interval [%.4f, %.4f] holds "
	   "0.25", v ? v->ratio_lo : 0, v ? v->ratio_hi : 0);
	ok(v && strstr(v->text, "rt's per-interval p99 (geometric mean over time, not the table's "
			  "p99) is 4.0x lower than stock's (95% CI ") &&
	   strstr(v->text, "; over 10 and 10 batches of about 40s of the runs' time series, "
		  "Welch t; table's p99 ratio 0.25, no interval: the series keep no per-interval "
		  "histograms)"), "batch verdict text names its own statistic: %s",
	   v ? v->text : "");
	v = verdict(c, 1, 99.9);
	ok(v && v->kind == RTM_VERDICT_SAME && v->method == RTM_METHOD_NONE &&
	   isnan(v->ratio_lo) && strstr(v->text, "no per-interval histograms in stock's time "
	   "series there is no interval for p99.9;"), "one run each: no p99.9 verdict: %s",
	   v ? v->text : "");
	v = verdict(c, 1, 99.999);
	ok(v && v->kind == RTM_VERDICT_FEW && strstr(v->text, "too few samples for p99.999 in "
	   "stock (800000; 1000000 needed"), "p99.999 with 800000 samples (8 beyond): %s",
	   v ? v->text : "");
	rtm_compare_free(c);

	/* three rounds per side: every percentile with enough samples */
	for (i = 0; i < 6; i++)
		r[i] = make_result(2, 400000, 10000, 20000, i < 3 ? 1.0 : 0.25, NULL);
	c = compare_rounds(r, 3, 6, "stock", "rt");
	v = verdict(c, 1, 99.9);
	ok(v && v->kind == RTM_VERDICT_LOWER && v->method == RTM_METHOD_RUNS && v->ci.welch &&
	   v->ci.na == 3 && v->ci.nb == 3, "B = A / 4, three runs each: p99.9 lower over runs");
	ok(v && v->ratio_lo <= 0.25 && 0.25 <= v->ratio_hi,
	   "B = A / 4: the ratio interval [%.4f, %.4f] holds 0.25", v ? v->ratio_lo : 0,
	   v ? v->ratio_hi : 0);
	ok(v && v->ratio_hi / v->ratio_lo < 1.2, "B = A / 4: the interval is narrow with "
	   "800000 samples a run");
	snprintf(want, sizeof(want), "rt's per-run p99.9 (geometric mean) is 4.0x lower than "
		 "stock's (95%% CI ");
	ok(v && !strncmp(v->text, want, strlen(want)) && strstr(v->text, "; over 3 and 3 runs, "
	   "Welch t; table's p99.9 ratio of the merged runs 0.25"), "verdict text: %s",
	   v ? v->text : "");
	v = verdict(c, 1, 99.99);
	ok(v && v->kind == RTM_VERDICT_LOWER, "p99.99 has 80 samples beyond in each run: a "
	   "verdict");
	v = verdict(c, 1, 99.999);
	ok(v && v->kind == RTM_VERDICT_FEW && strstr(v->text, "too few samples for p99.999 in "
	   "run 1 of stock"), "rounds, p99.999: %s", v ? v->text : "");
	is_int(c->runs[0].nrounds, 3, "three rounds on a side");
	is_int((int)c->runs[0].rows[2].samples, 2400000, "the table merges the rounds' histograms");
	rtm_compare_free(c);
	/* one run against three: pooled t */
	c = compare_rounds(r + 2, 1, 4, "stock", "rt");
	v = verdict(c, 1, 99.9);
	ok(v && v->kind == RTM_VERDICT_LOWER && !v->ci.welch && v->ci.df == 2 &&
	   strstr(v->text, "over 1 and 3 runs, pooled t;"), "one run against three: %s",
	   v ? v->text : "");
	rtm_compare_free(c);
	for (i = 0; i < 6; i++)
		rtm_result_free(r[i]);

	c = compare2(a, d, "A", "B");
	v = verdict(c, 1, 99);
	ok(v && v->kind == RTM_VERDICT_HIGHER && v->ratio_lo <= 2 && 2 <= v->ratio_hi &&
	   !strncmp(v->text, "B's per-interval p99 ", 21) &&
	   strstr(v->text, "x higher than A's (95% CI "),
	   "B = 2 A: %s", v ? v->text : "");
	rtm_compare_free(c);

	/* three runs: each compared with the first */
	c = rtm_compare_alloc();
	rtm_compare_add(c, a, "A", NULL, &err);
	rtm_compare_add(c, b, "B", NULL, &err);
	rtm_compare_add(c, d, "C", NULL, &err);
	rtm_compare_finish(c);
	is_int(c->nverdicts, 2 * RTM_COMPARE_NPCT, "three runs: verdicts for B and C");
	ok(verdict(c, 2, 99)->kind == RTM_VERDICT_HIGHER && verdict(c, 1, 99)->kind ==
	   RTM_VERDICT_LOWER, "three runs: C against A, B against A");
	rtm_compare_free(c);
	rtm_result_free(a);
	rtm_result_free(b);
	rtm_result_free(d);
}

static void test_same_and_few(void)
{
	struct rtm_result *a = make_result(1, 100000, 10000, 20000, 1.0, NULL);
	struct rtm_result *a2 = make_result(1, 100000, 10000, 20000, 1.0, NULL);
	struct rtm_result *s = make_result(1, 500, 10000, 20000, 0.25, NULL);
	struct rtm_compare *c = compare2(a, a, "A", "A2");
	const struct rtm_compare_verdict *v;
	int i, same = 0;

	for (i = 0; i < c->nverdicts; i++)
		same += c->verdicts[i].kind == RTM_VERDICT_SAME && c->verdicts[i].ratio == 1.0;
	is_int(same, 3, "identical runs: p99, p99.9, p99.99 not distinguishable, ratio 1");
	ok(verdict(c, 1, 99)->ratio_lo < 1.0 && verdict(c, 1, 99)->ratio_hi > 1.0 &&
	   verdict(c, 1, 99)->ratio_lo * verdict(c, 1, 99)->ratio_hi > 0.999999 &&
	   verdict(c, 1, 99)->ratio_lo * verdict(c, 1, 99)->ratio_hi < 1.000001,
	   "a run against itself: the batch interval is centred on 1");
	v = verdict(c, 1, 99.9);
	ok(v && strstr(v->text, "A2's p99.9 is not distinguishable from A's"), "%s",
	   v ? v->text : "");
	rtm_compare_free(c);

	c = compare2(a, a2, "A", "A2");
	for (i = 0, same = 0; i < c->nverdicts; i++)
		same += c->verdicts[i].kind == RTM_VERDICT_SAME;
	is_int(same, 3, "two draws of one distribution: not distinguishable");
	rtm_compare_free(c);

	/* 9 s runs: 4 batches of two intervals each, fewer than 5, whatever the ratio */
	{
		struct rtm_result *s9 = make_result(2, 9000, 10000, 20000, 1.0, NULL);
		struct rtm_result *q9 = make_result(2, 9000, 10000, 20000, 0.25, NULL);

		c = compare2(s9, q9, "A", "B");
		v = verdict(c, 1, 99);
		ok(v && v->kind == RTM_VERDICT_SAME && c->runs[0].nbatches == 4 &&
		   strstr(v->text, "B's p99 is not distinguishable from A's: too few batches of "
			  "the time series (A 4, B 4; 5 needed"), "9 s runs: %s", v ? v->text : "");
		rtm_compare_free(c);
		/* merged points (an upper bound of p99) are left out */
		rtm_ts_point_merge(&s9->cpus[0].ts->pts[0], &s9->cpus[0].ts->pts[1]);
		s9->cpus[0].ts->pts[0].merged = 1;
		c = compare2(s9, q9, "A", "B");
		is_int(c->runs[0].batch_merged, 1, "a merged point is counted and left out");
		rtm_compare_free(c);
		rtm_result_free(s9);
		rtm_result_free(q9);
	}

	/* 500 samples: 5 beyond p99, even though the run is 4x lower */
	c = compare2(a, s, "A", "tiny");
	v = verdict(c, 1, 99);
	ok(v && v->kind == RTM_VERDICT_FEW && !strcmp(v->text, "too few samples for p99 in tiny "
	   "(500; 1000 needed for 10 beyond it)"), "tiny run: %s", v ? v->text : "");
	ok(!c->runs[1].ci[0].valid && c->runs[1].ci[0].value_ns > 0,
	   "tiny run: the value is kept, without an interval");
	rtm_compare_free(c);
	rtm_result_free(a);
	rtm_result_free(a2);
	rtm_result_free(s);
}

/* The table's numbers against nearest-rank percentiles of the sorted samples. */
static void test_numbers(void)
{
	const size_t n = 30000;
	uint64_t *sa, *sb, *all;
	struct rtm_result *a = make_result(3, n, 5000, 8000, 1.0, &sa);
	struct rtm_result *b = make_result(2, n, 5000, 8000, 0.5, &sb);
	struct rtm_compare *c = compare2(a, b, "A", "B");
	static const double ps[] = { 50, 90, 99, 99.9, 99.99, 99.999 };
	const struct rtm_summary_row *row;
	int bad = 0, cpu, k;
	json_t *j, *x;

	all = malloc(3 * n * sizeof(*all));
	memcpy(all, sa, 3 * n * sizeof(*all));
	qsort(all, 3 * n, sizeof(*all), cmp_u64);
	for (cpu = 0; cpu < 3; cpu++)
		qsort(sa + (size_t)cpu * n, n, sizeof(*sa), cmp_u64);
	for (cpu = -1; cpu < 3; cpu++) {
		const uint64_t *s = cpu < 0 ? all : sa + (size_t)cpu * n;
		size_t m = cpu < 0 ? 3 * n : n;

		row = cpu < 0 ? &c->runs[0].rows[3] : &c->runs[0].rows[cpu];
		for (k = 0; k < 6; k++) {
			double want = (double)exact_pct(s, m, ps[k]);

			/* a histogram holds a value to half its bucket: 1/512 */
			if (fabs((double)row->pct_ns[k] - want) > want / 500.0 + 1) {
				bad++;
				diag("CPU %d p%g: %llu, sorted samples give %.0f", cpu, ps[k],
				     (unsigned long long)row->pct_ns[k], want);
			}
		}
		bad += row->min_ns != s[0] || row->max_ns != s[m - 1] || row->samples != m;
	}
	is_int(bad, 0, "percentiles per CPU and overall equal the sorted samples' (to a bucket)");
	for (k = 0; k < RTM_COMPARE_NPCT; k++) {
		const struct rtm_quantile_ci *ci = &c->runs[0].ci[k];
		double want = (double)exact_pct(all, 3 * n, rtm_compare_pcts[k]);

		if (ci->valid && !((double)ci->lo_ns <= want && want <= (double)ci->hi_ns))
			bad++;
	}
	is_int(bad, 0, "each interval holds the sample percentile it brackets");

	j = rtm_compare_to_json(c);
	is_str(json_string_value(json_object_get(j, "schema")), "rtmeasure-compare/1",
	       "JSON schema");
	x = json_array_get(json_object_get(j, "comparisons"), 0);
	ok(fabs(json_real_value(json_object_get(json_object_get(json_object_get(x, "all"),
		"p99_ns"), "ratio")) - (double)c->runs[1].rows[2].pct_ns[2] /
		(double)c->runs[0].rows[3].pct_ns[2]) < 1e-12, "JSON: p99 ratio of all CPUs");
	is_int(json_array_size(json_object_get(x, "cpus")), 2,
	       "JSON: per-CPU ratios only where both runs measured the CPU");
	is_str(json_string_value(json_object_get(json_array_get(json_object_get(x, "verdicts"), 0),
	       "verdict")), "lower", "JSON: p99 verdict");
	is_str(json_string_value(json_object_get(json_array_get(json_object_get(x, "verdicts"), 0),
	       "method")), "batches", "JSON: the p99 verdict's method");
	is_str(json_string_value(json_object_get(json_array_get(json_object_get(x, "verdicts"), 1),
	       "verdict")), "not distinguishable", "JSON: no p99.9 verdict from one run each");
	ok(json_is_null(json_object_get(json_array_get(json_object_get(x, "verdicts"), 3),
	   "ratio_ci_lo")), "JSON: no interval where there are too few samples");
	json_decref(j);
	free(all);
	free(sa);
	free(sb);
	rtm_compare_free(c);
	rtm_result_free(a);
	rtm_result_free(b);
}

static void test_fingerprints(void)
{
	struct rtm_result *a = make_result(1, 2000, 10000, 20000, 1.0, NULL);
	struct rtm_result *b = make_result(1, 2000, 10000, 20000, 1.0, NULL);
	struct rtm_result *g;
	struct rtm_error err = { "" };
	struct rtm_compare *c;
	char path[4096];
	const char *data = getenv("RTM_TESTDATA");

	/* stock vs RT kernel on the same box: shown, not warned */
	set_fp(a, "6.1.0-57-amd64", "Xeon", false, 95, NULL);
	set_fp(b, "6.1.0-57-rt-amd64", "Xeon", false, 95, NULL);
	c = compare2(a, b, "stock", "rt");
	is_int(c->nwarnings, 0, "kernel and preemption model differ: no warning");
	is_str(c->runs[1].fp[RTM_FP_PREEMPT], "rt", "preemption model shown");
	is_str(c->runs[0].fp[RTM_FP_SCHED], "fifo 95", "scheduling shown");
	is_str(c->runs[0].fp[RTM_FP_VM], "bare metal", "bare metal shown");
	is_str(c->runs[0].fp[RTM_FP_INTERVAL], "1.00 ms", "interval shown");
	is_str(c->runs[0].fp[RTM_FP_LOAD], "none", "no load section in a cyclic run: none");
	rtm_compare_free(c);

	set_fp(b, "6.1.0-57-rt-amd64", "EPYC", true, 80, "2-3");
	json_object_set_new(b->options, "interval_ns", json_integer(200000));
	json_object_set_new(b->sections, "load", json_pack("{s:[s], s:[s]}", "kinds", "cpu",
							   "commands", "stress-ng --cpu 4"));
	b->duration_ns = 3 * a->duration_ns;
	b->cpus[0].cpu = 3;
	c = compare2(a, b, "stock", "rt");
	ok(has_warning(c, RTM_FP_CPU_MODEL) && has_warning(c, RTM_FP_VM) &&
	   has_warning(c, RTM_FP_SCHED) && has_warning(c, RTM_FP_ISOLCPUS) &&
	   has_warning(c, RTM_FP_INTERVAL) && has_warning(c, RTM_FP_LOAD) &&
	   has_warning(c, RTM_FP_DURATION) && has_warning(c, RTM_FP_MEASURED),
	   "CPU, VM, priority, isolcpus, interval, load, duration, measured CPUs: warned");
	ok(!has_warning(c, RTM_FP_KERNEL) && !has_warning(c, RTM_FP_PREEMPT) &&
	   !has_warning(c, RTM_FP_HOST), "kernel and preemption model: not warned");
	is_int(fp_warnings(c), 8, "one warning per unfair difference");
	ok(one_line(c->warnings[0].text), "warnings are one line");
	{
		int i;
		bool found = false;

		for (i = 0; i < c->nwarnings; i++)
			found |= !strcmp(c->warnings[i].text, "different scheduling (stock: fifo 95; "
					 "rt: fifo 80): policy and priority decide what may "
					 "preempt the probe");
		ok(found, "the warning names both values and why it matters");
	}
	rtm_compare_free(c);

	b->duration_ns = a->duration_ns * 3 / 2;
	c = compare2(a, b, "stock", "rt");
	ok(!has_warning(c, RTM_FP_DURATION), "duration 1.5x: not warned");
	rtm_compare_free(c);

	/* a result with almost no sysinfo: unknown facts raise no warning */
	snprintf(path, sizeof(path), "%s/results/golden-v1", data ? data : "tests/data");
	g = rtm_result_load(path, &err);
	ok(g != NULL, "golden-v1 loads (%s)", err.msg);
	if (g) {
		c = compare2(g, a, "golden", "synthetic");
		ok(!has_warning(c, RTM_FP_CPU_MODEL) && !has_warning(c, RTM_FP_VM) &&
		   !c->runs[0].fp[RTM_FP_CPU_MODEL], "unknown facts: shown as unknown, not warned");
		is_str(c->runs[0].fp[RTM_FP_SCHED], "priority 95", "old options: priority");
		is_str(c->runs[0].fp[RTM_FP_INTERVAL], "1.00 ms", "old options: interval_us");
		rtm_compare_free(c);
		rtm_result_free(g);
	}
	rtm_result_free(a);
	rtm_result_free(b);
}

static void test_t(void)
{
	static const struct {
		double q, df, t;	/* Student t tables */
	} t[] = {
		{ 0.975, 1, 12.7062 }, { 0.975, 2, 4.3027 }, { 0.975, 4, 2.7764 },
		{ 0.975, 10, 2.2281 }, { 0.975, 30, 2.0423 }, { 0.95, 5, 2.0150 },
		{ 0.995, 3, 5.8409 }, { 0.975, 1e6, 1.9600 },
	};
	/* log 2 and log 4 against log 8, 16, 32: worked by hand */
	double la[] = { log(2), log(4) }, lb[] = { log(8), log(16), log(32) };
	struct rtm_ratio_ci ci;
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		double got = rtm_t_quantile(t[i].q, t[i].df);

		if (fabs(got - t[i].t) > 1e-4) {
			bad++;
			diag("t(%g, df %g) = %.5f, tables %.4f", t[i].q, t[i].df, got, t[i].t);
		}
	}
	is_int(bad, 0, "Student t quantiles equal the tables' to 4 decimals");
	ok(fabs(rtm_t_quantile(0.025, 4) + 2.7764) < 1e-4, "lower tail by symmetry");
	/*
	 * means log 2^1.5 and log 16: ratio 2^2.5; Welch: variances (ln2)^2 / 2 and (ln2)^2,
	 * se^2 = (ln2)^2 (1/4 + 1/3), df = (7/12)^2 / ((1/4)^2 + (1/3)^2 / 2) = 2.882...
	 */
	rtm_ratio_ci_logs(la, 2, lb, 3, 0.95, 0, 0, &ci);
	ok(ci.valid && ci.welch && fabs(ci.ratio - pow(2, 2.5)) < 1e-9 &&
	   fabs(ci.df - (49.0 / 144) / (1.0 / 16 + 1.0 / 18)) < 1e-9,
	   "Welch: ratio 2^2.5, df %.4f", ci.df);
	ok(fabs(log(ci.hi / ci.ratio) - rtm_t_quantile(0.975, ci.df) * log(2) * sqrt(7.0 / 12))
	   < 1e-9 && fabs(ci.ratio * ci.ratio - ci.lo * ci.hi) < 1e-6,
	   "Welch: the interval is the ratio times exp(+-t se)");
	rtm_ratio_ci_logs(la, 1, lb, 3, 0.95, 0, 0, &ci);
	ok(ci.valid && !ci.welch && ci.df == 2 && fabs(ci.ratio - 8) < 1e-9 &&
	   fabs(log(ci.hi / ci.ratio) - 4.3027 * log(2) * sqrt(4.0 / 3)) < 1e-3,
	   "pooled: one value against three, df 2");
	rtm_ratio_ci_logs(la, 1, lb, 1, 0.95, 0, 0, &ci);
	ok(!ci.valid && fabs(ci.ratio - 4) < 1e-9, "one value each: no interval");
	is_int(rtm_ratio_ci_logs(la, 0, lb, 1, 0.95, 0, 0, &ci), -EINVAL, "no value: -EINVAL");
	/* two equal values: without a floor a zero-width interval, with one it has width */
	la[1] = la[0];
	rtm_ratio_ci_logs(la, 2, lb, 1, 0.95, 0, 0, &ci);
	ok(ci.valid && ci.lo == ci.hi, "equal values, no floor: zero width");
	rtm_ratio_ci_logs(la, 2, lb, 1, 0.95, 0.01, 0.02, &ci);
	ok(ci.valid && fabs(log(ci.hi / ci.ratio) - 12.7062 * sqrt(0.02 * 1.5)) < 1e-3,
	   "equal values: the larger floor is the pooled variance (df 1)");
}

static struct rtm_result *load_recorded(const char *name, int i)
{
	const char *data = getenv("RTM_TESTDATA");
	struct rtm_error err = { "" };
	struct rtm_result *r;
	char path[4096];

	snprintf(path, sizeof(path), "%s/compare/%s-%d", data ? data : "tests/data", name, i);
	r = rtm_result_load(path, &err);
	if (!r)
		diag("%s: %s", path, err.msg);
	return r;
}

/* Every latency of @r times @f: the histograms and the time series. */
static void scale_result(struct rtm_result *r, double f)
{
	int i;
	uint32_t j;

	for (i = 0; i < r->ncpus; i++) {
		struct rtm_result_cpu *c = &r->cpus[i];
		struct rtm_hist *h = rtm_hist_alloc();
		struct rtm_hist_bucket b;
		unsigned int pos = 0;

		while (rtm_hist_next(c->raw, &pos, &b)) {
			double x = (double)rtm_hist_bucket_value(c->raw, &b) * f;

			rtm_hist_record_n(h, (uint64_t)x, b.count);
		}
		rtm_hist_free(c->raw);
		c->raw = h;
		for (j = 0; c->ts && j < c->ts->n; j++)
			c->ts->pts[j].p99_ns = (uint64_t)((double)c->ts->pts[j].p99_ns * f);
	}
}

/*
 * Six identical 40 s cyclic -a 0-1 runs recorded on the development VM: no pair,
 * and no split into three runs against three, may claim a difference at p99 or
 * p99.9. Shifted 2x, they must be told apart.
 */
static void test_recorded(void)
{
	struct rtm_result *r[6], *x[6];
	const struct rtm_compare_verdict *v;
	struct rtm_compare *c;
	int i, j, m, k, claims = 0, pairs = 0, splits = 0, told = 0;

	for (i = 0; i < 6; i++)
		r[i] = load_recorded("identical", i + 1);
	for (i = 0; i < 6; i++)
		if (!r[i]) {
			ok(0, "recorded identical runs load");
			goto out;
		}
	for (i = 0; i < 6; i++)
		for (j = i + 1; j < 6; j++) {
			c = compare2(r[i], r[j], "a", "b");
			for (k = 0; k < 2; k++) {
				v = verdict(c, 1, rtm_compare_pcts[k]);
				if (v->kind != RTM_VERDICT_SAME) {
					claims++;
					diag("identical-%d vs -%d: %s", i + 1, j + 1, v->text);
				}
			}
			pairs++;
			rtm_compare_free(c);
		}
	ok(claims == 0 && pairs == 15, "%d pairs of identical runs, one run each: p99 and p99.9 "
	   "not distinguishable (%d claims)", pairs, claims);
	/* each way of splitting the six into three and three (run 1 in the first) */
	for (m = 0; m < 64; m++) {
		int na = 0, nb = 0;

		if (!(m & 1) || __builtin_popcount((unsigned)m) != 3)
			continue;
		for (i = 0; i < 6; i++) {
			if (m & (1 << i))
				x[na++] = r[i];
			else
				x[3 + nb++] = r[i];
		}
		c = compare_rounds(x, 3, 6, "a", "b");
		for (k = 0; k < 2; k++) {
			v = verdict(c, 1, rtm_compare_pcts[k]);
			if (v->kind != RTM_VERDICT_SAME || v->method != RTM_METHOD_RUNS) {
				claims++;
				diag("split %#x: %s", m, v->text);
			}
		}
		splits++;
		rtm_compare_free(c);
	}
	ok(claims == 0 && splits == 10, "all %d splits into three runs against three: p99 and "
	   "p99.9 not distinguishable (%d claims)", splits, claims);

	/* the same runs 2x later: told apart, with 2 in the interval */
	for (i = 3; i < 6; i++)
		scale_result(r[i], 2.0);
	c = compare_rounds(r, 3, 6, "a", "b");
	for (k = 0; k < 2; k++) {
		v = verdict(c, 1, rtm_compare_pcts[k]);
		told += v->kind == RTM_VERDICT_HIGHER && v->ratio_lo <= 2.6 && v->ratio_hi >= 1.6;
		diag("%s", v->text);
	}
	rtm_compare_free(c);
	is_int(told, 2, "runs 4-6 shifted 2x, three against three: p99 and p99.9 higher");
	for (i = 0, told = 0; i < 3; i++) {
		c = compare2(r[i], r[i + 3], "a", "b");
		v = verdict(c, 1, 99);
		told += v->kind == RTM_VERDICT_HIGHER && v->method == RTM_METHOD_BATCHES;
		if (v->kind != RTM_VERDICT_HIGHER)
			diag("%s", v->text);
		rtm_compare_free(c);
	}
	is_int(told, 3, "one run against another shifted 2x: p99 higher from batches");
	c = compare2(r[0], r[0], "a", "b");
	v = verdict(c, 1, 99);
	scale_result(r[0], 2.0);
	rtm_compare_free(c);
	c = compare2(r[3], r[0], "a", "b");	/* both shifted: equal again */
	v = verdict(c, 1, 99);
	ok(v->kind == RTM_VERDICT_SAME, "both shifted 2x: not distinguishable (%s)", v->text);
	rtm_compare_free(c);
out:
	for (i = 0; i < 6; i++)
		rtm_result_free(r[i]);
}

/*
 * Three runs with a FIFO 99 injector spinning 3 ms every 50 ms on each measured
 * CPU, recorded right after the identical ones: a real difference. Each of them
 * against each identical run, and three against six, must say higher at p99
 * (and at p99.9 over runs); the injected runs among themselves must not.
 */
static void test_recorded_injected(void)
{
	struct rtm_result *r[9];
	const struct rtm_compare_verdict *v;
	struct rtm_compare *c;
	int i, j, higher = 0, pairs = 0, claims = 0;

	for (i = 0; i < 9; i++)
		r[i] = i < 6 ? load_recorded("identical", i + 1) : load_recorded("injected", i - 5);
	for (i = 0; i < 9; i++)
		if (!r[i]) {
			ok(0, "recorded runs load");
			goto out;
		}
	for (i = 0; i < 6; i++)
		for (j = 6; j < 9; j++) {
			c = compare2(r[i], r[j], "idle", "injected");
			v = verdict(c, 1, 99);
			higher += v->kind == RTM_VERDICT_HIGHER && v->ratio_lo > 2.0;
			if (v->kind != RTM_VERDICT_HIGHER)
				diag("identical-%d vs injected-%d: %s", i + 1, j - 5, v->text);
			pairs++;
			rtm_compare_free(c);
		}
	ok(higher == 18 && pairs == 18, "each injected run against each identical one: p99 "
	   "higher, more than 2x (%d of %d)", higher, pairs);
	c = compare_rounds(r, 6, 9, "idle", "injected");
	v = verdict(c, 1, 99);
	ok(v->kind == RTM_VERDICT_HIGHER && v->ci.na == 6 && v->ci.nb == 3, "six idle against "
	   "three injected: %s", v->text);
	v = verdict(c, 1, 99.9);
	ok(v->kind == RTM_VERDICT_HIGHER, "and at p99.9: %s", v->text);
	rtm_compare_free(c);
	/* identical-1 and -2 have the same p99.9 (one bucket): no zero-width interval */
	{
		struct rtm_result *x[3] = { r[0], r[1], r[6] };

		c = compare_rounds(x, 2, 3, "idle", "injected");
		v = verdict(c, 1, 99.9);
		ok(c->runs[0].rounds[0].pct_ns[1] == c->runs[0].rounds[1].pct_ns[1] &&
		   v->method == RTM_METHOD_RUNS && v->ratio_hi / v->ratio_lo > 2,
		   "two runs with equal p99.9 against one: the interval keeps the runs' sampling "
		   "variance (%s)", v->text);
		rtm_compare_free(c);
	}
	for (i = 6; i < 9; i++)
		for (j = i + 1; j < 9; j++) {
			c = compare2(r[i], r[j], "a", "b");
			claims += verdict(c, 1, 99)->kind != RTM_VERDICT_SAME;
			rtm_compare_free(c);
		}
	is_int(claims, 0, "the injected runs among themselves: not distinguishable");
out:
	for (i = 0; i < 9; i++)
		rtm_result_free(r[i]);
}

static void set_vm(struct rtm_result *r, bool vm, const char *hv, const char *cpuid)
{
	json_decref(r->sysinfo);
	r->sysinfo = json_pack("{s:s, s:{s:b, s:s, s:s}}", "schema", "rtmeasure-sysinfo/1",
			       "virtualization", "vm", vm, "hypervisor", hv, "cpuid", cpuid);
}

static void test_vm_banner(void)
{
	struct rtm_result *a = make_result(1, 20000, 10000, 20000, 1.0, NULL);
	struct rtm_result *b = make_result(1, 20000, 10000, 20000, 1.0, NULL);
	const struct rtm_compare_warning *w;
	struct rtm_compare *c;
	char *html = NULL;
	size_t len = 0;
	FILE *f;

	set_vm(a, false, "", "");
	set_vm(b, false, "", "");
	c = compare2(a, b, "a", "b");
	ok(!c->banner[0] && c->nwarnings == 0, "bare metal both: no banner, no warning");
	rtm_compare_free(c);

	set_vm(b, true, "QEMU TCG (emulation)", "QEMU TCG (emulation)");
	c = compare2(a, b, "a", "b");
	is_str(c->banner, "emulated: the kernels' relative behaviour only, not this hardware's "
	       "latency", "TCG on one side: the emulation banner");
	w = warning_id(c, "emulated");
	ok(w && strstr(w->text, "b: emulated (QEMU TCG)") && one_line(w->text),
	   "and a warning naming the emulated run: %s", w ? w->text : "");
	rtm_compare_free(c);

	/* a TCG guest that the kernel log names otherwise: CPUID still tells */
	set_vm(a, true, "KVM", "TCGTCGTCGTCG");
	set_vm(b, true, "KVM", "TCGTCGTCGTCG");
	c = compare2(a, b, "a", "b");
	ok(c->runs[0].emulated && !strncmp(c->banner, "emulated:", 9),
	   "CPUID TCGTCGTCGTCG: emulated");
	rtm_compare_free(c);

	set_vm(a, true, "PVM", "bhyve");
	set_vm(b, true, "PVM", "bhyve");
	c = compare2(a, b, "a", "b");
	ok(!strncmp(c->banner, "virtual machine: ", 17) && warning_id(c, "hypervisor") &&
	   fp_warnings(c) == 0, "the same hypervisor both sides: banner and warning (%s)",
	   c->banner);
	f = open_memstream(&html, &len);
	rtm_compare_fprint(c, f);
	fclose(f);
	ok(html && !strncmp(html, "*** virtual machine: ", 21), "text output opens with the "
	   "banner");
	free(html);
	rtm_compare_free(c);
	rtm_result_free(a);
	rtm_result_free(b);
}

static void test_missed(void)
{
	struct rtm_result *a = make_result(2, 50000, 10000, 20000, 1.0, NULL);
	struct rtm_result *b = make_result(2, 50000, 10000, 20000, 1.0, NULL);
	const struct rtm_compare_warning *w;
	struct rtm_compare *c;

	a->cpus[0].overruns = 400;		/* 0.4% of 100400 periods */
	b->cpus[1].overruns = 2041;		/* 2.0% of 102041 */
	c = compare2(a, b, "a", "b");
	w = warning_id(c, "missed_periods");
	ok(w && !strcmp(w->text, "b: missed 2.0% of its periods (2041 of 102041, more than 1%): "
	   "its percentiles are of the measured wake-ups only and do not include the corrected "
	   "histogram (the run kept none), so they understate the latency of the missed "
	   "periods"), "missed periods beyond 1%%: %s", w ? w->text : "");
	ok(c->nwarnings == 1, "0.4%% missed: no warning");
	rtm_compare_free(c);
	a->cpus[0].overruns = 1011;		/* 1.0% exactly: 1011 / 101011 = 1.0009% */
	c = compare2(b, a, "b", "a");
	is_int(c->nwarnings, 2, "1.0009%% and 2.0%% missed: a warning for each run");
	rtm_compare_free(c);
	rtm_result_free(a);
	rtm_result_free(b);
}

static void test_rounds_fingerprint(void)
{
	struct rtm_result *r[4];
	struct rtm_compare *c;
	int i;

	for (i = 0; i < 4; i++) {
		r[i] = make_result(1, 20000, 10000, 20000, 1.0, NULL);
		set_fp(r[i], "6.1.0", "Xeon", false, 95, NULL);
	}
	json_object_set_new(r[1]->sections, "load", json_pack("{s:[s]}", "kinds", "cpu"));
	c = compare_rounds(r, 2, 4, "a", "b");
	is_str(c->runs[0].fp[RTM_FP_LOAD], "none | cpu", "rounds with different loads: both "
	       "shown");
	ok(has_warning(c, RTM_FP_LOAD) && fp_warnings(c) == 1, "and warned");
	rtm_compare_free(c);
	for (i = 0; i < 4; i++)
		rtm_result_free(r[i]);
}

static void test_limits(void)
{
	struct rtm_result *a = make_result(1, 100, 10000, 20000, 1.0, NULL);
	struct rtm_result *empty = rtm_result_alloc("cyclic");
	struct rtm_compare *c = rtm_compare_alloc();
	struct rtm_error err = { "" };
	char buf[16];
	int i, ret = 0;

	for (i = 0; i < RTM_COMPARE_MAX_RUNS; i++)
		ret |= rtm_compare_add(c, a, "x", NULL, &err);
	is_int(ret, 0, "eight runs");
	is_int(rtm_compare_add(c, a, "x", NULL, &err), -E2BIG, "a ninth is refused");
	ok(one_line(err.msg), "with a one-line message: %s", err.msg);
	rtm_compare_free(c);
	c = rtm_compare_alloc();
	is_int(rtm_compare_add(c, empty, "e", "empty/", &err), -EINVAL, "a result without CPUs");
	rtm_compare_free(c);
	rtm_fmt_factor(buf, sizeof(buf), 1.049);
	is_str(buf, "1.05", "factor below 2: two decimals");
	rtm_fmt_factor(buf, sizeof(buf), 4.08);
	is_str(buf, "4.1", "factor below 10: one decimal");
	rtm_fmt_factor(buf, sizeof(buf), 12.4);
	is_str(buf, "12", "factor from 10: none");
	rtm_result_free(a);
	rtm_result_free(empty);
}

/* sections.timer_irq of @n delays per CPU: value = base + i * step ns (i = 0..n-1). */
static void add_tirq(struct rtm_result *r, int ncpus, uint64_t n, uint64_t base, uint64_t step,
		     int unmatched, bool complete)
{
	json_t *cpus = json_array();
	uint64_t i;
	int k;

	for (k = 0; k < ncpus; k++) {
		struct rtm_hist *h = rtm_hist_alloc();

		for (i = 0; i < n; i++)
			rtm_hist_record(h, base + i * step);
		json_array_append_new(cpus, json_pack("{s:i, s:I, s:i, s:i, s:i, s:o}", "cpu", k,
				      "count", (json_int_t)n, "unmatched_starts", unmatched,
				      "unmatched_expires", 0, "early", 0, "delay",
				      rtm_hist_to_json(h)));
		rtm_hist_free(h);
	}
	json_object_set_new(r->sections, "timer_irq", json_pack("{s:s, s:o, s:i, s:b}", "source",
			    "test", "cpus", cpus, "trace_lost", complete ? 0 : 3, "complete",
			    complete));
}

/* The timer IRQ delays beside each other: merged over CPUs and rounds, figures only. */
static void test_timer_irq(void)
{
	struct rtm_result *r[4];
	struct rtm_compare *c;
	struct rtm_error err = { "" };
	char cells[RTM_COMPARE_TIRQ_NPCT + 2][32], *txt = NULL;
	size_t len = 0;
	json_t *j, *t;
	FILE *f;
	int i;

	for (i = 0; i < 4; i++)
		r[i] = make_result(2, 2000, 10000, 20000, 1.0, NULL);
	/* baseline: 2 rounds x 2 CPUs x 1000 delays, 1000..1999 ns + 0..999 ns steps of 1 */
	add_tirq(r[0], 2, 1000, 1000, 1, 0, true);
	add_tirq(r[1], 2, 1000, 1000, 1, 2, false);
	/* the other side: one round traced of two, delays 5000 ns.. in steps of 10 */
	add_tirq(r[2], 2, 600, 5000, 10, 0, true);
	c = compare_rounds(r, 2, 4, "stock", "rt");
	ok(c->runs[0].tirq && c->runs[0].tirq->count == 4000 && c->runs[0].tirq_rounds == 2,
	   "baseline: 4000 delays of 2 rounds and 2 CPUs merged");
	ok(c->runs[0].tirq_unmatched == 4 && c->runs[0].tirq_incomplete,
	   "baseline: unpaired counted, a round that lost events marked");
	ok(c->runs[1].tirq && c->runs[1].tirq->count == 1200 && c->runs[1].tirq_rounds == 1 &&
	   c->runs[1].nrounds == 2, "rt: 1200 delays of its one traced round (of 2)");
	rtm_compare_tirq_cells(&c->runs[0], cells);
	/* p50 of 1000..1999 twice each CPU and round: 1499 or 1500 ns, within 0.2 % */
	ok(!strcmp(cells[0], "4000") && (!strcmp(cells[1], "1.5") || !strcmp(cells[1], "1.4")) &&
	   !strcmp(cells[4], "2.0"), "baseline cells: count, p50 1.5 us, max 1999 ns as 2.0 us "
	   "(%s %s %s)", cells[0], cells[1], cells[4]);
	ok(strcmp(cells[3], "few") == 0 && strcmp(cells[2], "few") != 0,
	   "p99.9 of 4000 delays is 'few' (4 beyond it), p99 is shown (40 beyond)");
	rtm_compare_tirq_cells(&c->runs[1], cells);
	/* 5000..10990 ns in steps of 10, on each of 2 CPUs: rank 1188 of 1200 (12 beyond
	 * it) is the 594th value, 10930 ns */
	ok(!strcmp(cells[2], "10.9") && !strcmp(cells[3], "few"),
	   "rt: p99 of 1200 delays shown (%s), p99.9 'few' (1 beyond it)", cells[2]);
	f = open_memstream(&txt, &len);
	rtm_compare_fprint(c, f);
	fclose(f);
	ok(strstr(txt, "timer IRQ delay (expiry to handler") &&
	   strstr(txt, "(rt: 1 of its 2 runs traced the timer IRQ)") &&
	   strstr(txt, "(stock: 4 timer starts or expiries unpaired; trace events lost"),
	   "the printed table says what is partial");
	free(txt);
	j = rtm_compare_to_json(c);
	t = json_object_get(json_array_get(json_object_get(j, "runs"), 0), "timer_irq");
	ok(json_integer_value(json_object_get(t, "count")) == 4000 &&
	   json_is_null(json_object_get(t, "p99.9_ns")) &&
	   json_integer_value(json_object_get(t, "p99_ns")) > 1900 &&
	   json_is_false(json_object_get(t, "complete")), "JSON: count, p99, null p99.9, complete");
	json_decref(j);
	rtm_compare_free(c);

	/* a side without the section: "not traced", JSON null; a bad one names the run */
	c = compare2(r[3], r[2], "plain", "traced");
	rtm_compare_tirq_cells(&c->runs[0], cells);
	ok(!strcmp(cells[0], "not traced"), "a run without --timer-irq: not traced");
	j = rtm_compare_to_json(c);
	ok(json_is_null(json_object_get(json_array_get(json_object_get(j, "runs"), 0),
					"timer_irq")), "JSON: null for it");
	json_decref(j);
	rtm_compare_free(c);
	add_tirq(r[3], 1, 10, 1000, 1, 0, true);
	json_object_set_new(json_array_get(json_object_get(json_object_get(r[3]->sections,
			    "timer_irq"), "cpus"), 0), "delay", json_string("x"));
	c = rtm_compare_alloc();
	ok(rtm_compare_add(c, r[3], "bad", "bad/", &err) != 0 && strstr(err.msg, "bad/") &&
	   one_line(err.msg), "a malformed timer_irq section is refused naming the run (%s)",
	   err.msg);
	rtm_compare_free(c);
	for (i = 0; i < 4; i++)
		rtm_result_free(r[i]);
}

int main(void)
{
	test_ranks();
	test_rank_ranges();
	test_coverage();
	test_ratio_coverage();
	test_scaled();
	test_same_and_few();
	test_numbers();
	test_fingerprints();
	test_t();
	test_recorded();
	test_recorded_injected();
	test_vm_banner();
	test_missed();
	test_rounds_fingerprint();
	test_limits();
	test_timer_irq();
	return tap_done();
}
