// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_compare - percentile confidence intervals and the comparison of runs.
 *
 * The interval logic is checked on known answers (textbook ranks of the
 * median, ranks computed independently with exact binomial sums) and on
 * synthetic runs from known distributions: coverage of the true quantile over
 * many trials, B = A / 4 must read "4.0x lower" with 4 inside the interval,
 * identical runs "not distinguishable", small runs "too few samples". The
 * table's numbers are checked against nearest-rank percentiles of the sorted
 * samples; fingerprint differences against the warnings they must raise.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "compare.h"
#include "stats.h"
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
	for (i = 0; i < ncpus; i++) {
		struct rtm_result_cpu *c = rtm_result_add_cpu(r, i, false, 0);

		for (k = 0; k < n; k++) {
			uint64_t v = (uint64_t)((double)draw_exp(offset_ns, mean_ns) * scale);

			rtm_hist_record(c->raw, v);
			if (samples)
				(*samples)[(size_t)i * n + k] = v;
		}
	}
	r->duration_ns = 10000000000ULL;
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
	struct rtm_compare *c = compare2(a, b, "stock", "rt");
	const struct rtm_compare_verdict *v;
	struct rtm_error err = { "" };
	char want[64];

	v = verdict(c, 1, 99.9);
	ok(v && v->kind == RTM_VERDICT_LOWER, "B = A / 4: p99.9 lower");
	ok(v && v->ratio_lo <= 0.25 && 0.25 <= v->ratio_hi,
	   "B = A / 4: the ratio interval [%.4f, %.4f] holds 0.25", v ? v->ratio_lo : 0,
	   v ? v->ratio_hi : 0);
	ok(v && v->ratio_hi / v->ratio_lo < 1.1, "B = A / 4: the interval is narrow with 800000 "
	   "samples");
	snprintf(want, sizeof(want), "rt's p99.9 is 4.0x lower than stock's (95%% CI ");
	ok(v && !strncmp(v->text, want, strlen(want)), "verdict text: %s", v ? v->text : "");
	v = verdict(c, 1, 99);
	ok(v && v->kind == RTM_VERDICT_LOWER && v->ratio_lo <= 0.25 && 0.25 <= v->ratio_hi,
	   "B = A / 4: p99 lower, interval holds 0.25");
	v = verdict(c, 1, 99.99);
	ok(v && v->kind == RTM_VERDICT_LOWER, "p99.99 has 80 samples beyond: a verdict");
	v = verdict(c, 1, 99.999);
	ok(v && v->kind == RTM_VERDICT_FEW && strstr(v->text, "too few samples for p99.999"),
	   "p99.999 with 800000 samples (8 beyond): %s", v ? v->text : "");
	rtm_compare_free(c);

	c = compare2(a, d, "A", "B");
	v = verdict(c, 1, 99.9);
	ok(v && v->kind == RTM_VERDICT_HIGHER && v->ratio_lo <= 2 && 2 <= v->ratio_hi &&
	   !strncmp(v->text, "B's p99.9 is ", 13) && strstr(v->text, "x higher than A's (95% CI "),
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
	v = verdict(c, 1, 99.9);
	ok(v && strstr(v->text, "A2's p99.9 is not distinguishable from A's"), "%s",
	   v ? v->text : "");
	rtm_compare_free(c);

	c = compare2(a, a2, "A", "A2");
	for (i = 0, same = 0; i < c->nverdicts; i++)
		same += c->verdicts[i].kind == RTM_VERDICT_SAME;
	is_int(same, 3, "two draws of one distribution: not distinguishable");
	rtm_compare_free(c);

	/* 500 samples: 5 beyond p99, even though the run is 4x lower */
	c = compare2(a, s, "A", "tiny");
	v = verdict(c, 1, 99);
	ok(v && v->kind == RTM_VERDICT_FEW && !strcmp(v->text, "too few samples for p99 (A has "
	   "100000, tiny 500; 1000 needed for 10 beyond it)"), "tiny run: %s", v ? v->text : "");
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
	is_str(json_string_value(json_object_get(json_array_get(json_object_get(x, "verdicts"), 1),
	       "verdict")), "lower", "JSON: p99.9 verdict");
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
	is_int(c->nwarnings, 8, "one warning per unfair difference");
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
	rtm_compare_fmt_factor(buf, sizeof(buf), 1.049);
	is_str(buf, "1.05", "factor below 2: two decimals");
	rtm_compare_fmt_factor(buf, sizeof(buf), 4.08);
	is_str(buf, "4.1", "factor below 10: one decimal");
	rtm_compare_fmt_factor(buf, sizeof(buf), 12.4);
	is_str(buf, "12", "factor from 10: none");
	rtm_result_free(a);
	rtm_result_free(empty);
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
	test_limits();
	return tap_done();
}
