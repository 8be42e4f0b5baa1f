// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_hist.c - the log-linear histogram against exact computations.
 *
 * Percentiles are compared with nearest-rank percentiles of the sorted samples,
 * corrected recording with the naive HdrHistogram loop, merge and diff with
 * histograms recorded directly, and the JSON form with itself after a round trip.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/hist.h"
#include "../tap.h"

typedef unsigned __int128 u128;

/* ---------------------------------------------------------------- helpers */

struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)		/* xorshift64* */
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * UINT64_C(0x2545F4914F6CDD1D);
}

static double rng_unit(struct rng *r)		/* [0, 1) */
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

struct vec {
	uint64_t *v;
	size_t n, cap;
};

static void push(struct vec *a, uint64_t x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 1024;
		a->v = realloc(a->v, a->cap * sizeof(*a->v));
		if (!a->v)
			abort();
	}
	a->v[a->n++] = x;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The same nearest-rank rule as hist.h: ceil(p/100 * n), p to 12 digits. */
static uint64_t exact_percentile(const uint64_t *sorted, size_t n, double p)
{
	long double x = (long double)p * n / 100;
	uint64_t r;

	if (p <= 0)
		return sorted[0];
	if (p >= 100)
		return sorted[n - 1];
	x -= x * 1e-12L;
	r = (uint64_t)ceill(x);
	if (r < 1)
		r = 1;
	if (r > n)
		r = n;
	return sorted[r - 1];
}

static struct rtm_hist *hist_new(void)
{
	struct rtm_hist *h = rtm_hist_alloc();

	if (!h)
		abort();
	return h;
}

static struct rtm_hist *hist_of(const struct vec *a)
{
	struct rtm_hist *h = hist_new();

	for (size_t i = 0; i < a->n; i++)
		rtm_hist_record(h, a->v[i]);
	return h;
}

/* Every field equal; names the first difference. */
static bool hist_equal(const struct rtm_hist *a, const struct rtm_hist *b)
{
	if (a->count != b->count || a->min_ns != b->min_ns || a->max_ns != b->max_ns ||
	    a->sum_ns != b->sum_ns || a->sum_sq != b->sum_sq || a->saturated != b->saturated) {
		diag("summary differs: count %" PRIu64 "/%" PRIu64 " min %" PRIu64 "/%" PRIu64
		     " max %" PRIu64 "/%" PRIu64 " sum %" PRIu64 "/%" PRIu64 " sq %s sat %"
		     PRIu64 "/%" PRIu64, a->count, b->count, a->min_ns, b->min_ns, a->max_ns,
		     b->max_ns, a->sum_ns, b->sum_ns, a->sum_sq == b->sum_sq ? "same" : "differs",
		     a->saturated, b->saturated);
		return false;
	}
	for (unsigned int i = 0; i < RTM_HIST_NCOUNTS; i++) {
		if (a->counts[i] != b->counts[i]) {
			diag("counts[%u] (lo %" PRIu64 "): %" PRIu64 " vs %" PRIu64, i,
			     rtm_hist_index_lo(i), a->counts[i], b->counts[i]);
			return false;
		}
	}
	return true;
}

static bool close_rel(double got, long double want, double rel)
{
	return fabsl((long double)got - want) <= rel * fabsl(want) + 1e-9;
}

/* ---------------------------------------------------------------- data sets */

static void gen_uniform(struct vec *a)
{
	struct rng r = { 0x1234567 };

	for (int i = 0; i < 200000; i++)
		push(a, rng_next(&r) % 1000000);
}

static void gen_constant(struct vec *a)
{
	for (int i = 0; i < 100000; i++)
		push(a, 20000);
}

static void gen_pareto(struct vec *a)
{
	struct rng r = { 0xfeedbeef };

	for (int i = 0; i < 500000; i++) {
		double v = 10000.0 * pow(1.0 - rng_unit(&r), -1.0 / 1.2);

		push(a, v >= (double)RTM_HIST_MAX_NS ? RTM_HIST_MAX_NS : (uint64_t)v);
	}
}

static void gen_outlier(struct vec *a)
{
	struct rng r = { 42 };

	for (int i = 0; i < 1000000; i++)
		push(a, 19000 + rng_next(&r) % 2000);
	push(a, 5000000);
}

static void gen_boundaries(struct vec *a)
{
	for (unsigned int i = 0; i < RTM_HIST_NCOUNTS; i += 7) {
		uint64_t lo = rtm_hist_index_lo(i), hi = rtm_hist_index_hi(i);

		push(a, lo);
		push(a, hi);
		if (lo)
			push(a, lo - 1);
		push(a, hi + 1);
	}
	push(a, RTM_HIST_MAX_NS);
}

static void gen_zero(struct vec *a)
{
	for (int i = 0; i < 1000; i++)
		push(a, 0);
	for (int i = 0; i < 10; i++)
		push(a, 1);
}

static void gen_small_exact(struct vec *a)
{
	struct rng r = { 7 };

	for (int i = 0; i < 50000; i++)
		push(a, rng_next(&r) % 512);
}

/* values above RTM_HIST_MAX_NS, sharing one value (a 3-hour stall) */
static void gen_saturated(struct vec *a)
{
	struct rng r = { 99 };

	for (int i = 0; i < 100000; i++)
		push(a, 10000 + rng_next(&r) % 90000);
	for (int i = 0; i < 500; i++)
		push(a, UINT64_C(3) * 3600 * 1000000000);
	push(a, RTM_HIST_MAX_NS);
	push(a, RTM_HIST_MAX_NS - 1);
}

static const struct dataset {
	const char *name;
	void (*gen)(struct vec *a);
} datasets[] = {
	{ "uniform", gen_uniform },
	{ "constant", gen_constant },
	{ "pareto", gen_pareto },
	{ "outlier", gen_outlier },
	{ "boundaries", gen_boundaries },
	{ "zero", gen_zero },
	{ "small-exact", gen_small_exact },
	{ "saturated", gen_saturated },
};

static const double pcts[] = {
	0, 0.001, 1, 10, 12.5, 25, 33.3333, 50, 66.6, 75, 87.654, 90, 99, 99.9, 99.99,
	99.999, 99.9999, 100,
};
#define NPCTS ((int)(sizeof(pcts) / sizeof(pcts[0])))

/* ---------------------------------------------------------------- tests */

static void test_layout(void)
{
	bool round = true, contiguous = true, width = true;
	struct rtm_hist *h = hist_new();
	bool zero = true;

	for (unsigned int i = 0; i < RTM_HIST_NCOUNTS; i++) {
		uint64_t lo = rtm_hist_index_lo(i), hi = rtm_hist_index_hi(i);

		if (rtm_hist_index(lo) != i || rtm_hist_index(hi) != i || lo > hi)
			round = false;
		if (i && rtm_hist_index_hi(i - 1) + 1 != lo)
			contiguous = false;
		if (lo >= 512 ? (hi - lo + 1) * 256 > lo : lo != hi)
			width = false;
		if (h->counts[i])
			zero = false;
	}
	ok(round, "layout: index(lo(i)) == index(hi(i)) == i for every counter");
	ok(contiguous, "layout: buckets are contiguous from 0");
	ok(width, "layout: exact below 512, width <= lo/256 above");
	is_u64(rtm_hist_index_lo(0), 0, "layout: first bucket starts at 0");
	is_u64(rtm_hist_index_hi(RTM_HIST_NCOUNTS - 1), RTM_HIST_MAX_NS,
	       "layout: top bucket ends at RTM_HIST_MAX_NS");
	ok(zero && h->count == 0 && h->min_ns == UINT64_MAX && h->max_ns == 0 &&
	   h->sum_ns == 0 && h->sum_sq == 0 && h->saturated == 0,
	   "alloc: empty, min_ns = UINT64_MAX");
	is_u64(rtm_hist_percentile(h, 50), 0, "empty: p50 is 0");
	ok(rtm_hist_mean(h) == 0 && rtm_hist_stddev(h) == 0, "empty: mean and stddev are 0");
	rtm_hist_free(h);
}

static void test_dataset(const struct dataset *d)
{
	struct vec a = { 0 };
	struct rtm_hist *h;
	uint64_t sum = 0, sat = 0, est[NPCTS];
	long double mean = 0, var = 0;
	u128 sq = 0;
	int bad = 0;

	d->gen(&a);
	h = hist_of(&a);
	for (size_t i = 0; i < a.n; i++) {
		sum += a.v[i];
		sq += (u128)a.v[i] * a.v[i];
		sat += a.v[i] > RTM_HIST_MAX_NS;
		mean += a.v[i];
	}
	mean /= a.n;
	for (size_t i = 0; i < a.n; i++)
		var += (a.v[i] - mean) * (a.v[i] - mean);
	var /= a.n;
	qsort(a.v, a.n, sizeof(*a.v), cmp_u64);

	is_u64(h->count, a.n, "count");
	is_u64(h->min_ns, a.v[0], "min");
	is_u64(h->max_ns, a.v[a.n - 1], "max");
	is_u64(h->sum_ns, sum, "sum_ns");
	ok(h->sum_sq == sq, "%s: sum_sq exact", d->name);
	is_u64(h->saturated, sat, "saturated");
	ok(close_rel(rtm_hist_mean(h), mean, 1e-12), "%s: mean %.6f vs %.6Lf", d->name,
	   rtm_hist_mean(h), mean);
	ok(close_rel(rtm_hist_stddev(h), sqrtl(var), 1e-9), "%s: stddev %.6f vs %.6Lf", d->name,
	   rtm_hist_stddev(h), sqrtl(var));

	rtm_hist_percentiles(h, pcts, NPCTS, est);
	for (int i = 0; i < NPCTS; i++) {
		uint64_t exact = exact_percentile(a.v, a.n, pcts[i]);
		uint64_t one = rtm_hist_percentile(h, pcts[i]);
		uint64_t dist = est[i] > exact ? est[i] - exact : exact - est[i];

		ok(dist <= exact / 256 + 1 && one == est[i],
		   "%s: p%g = %" PRIu64 ", exact %" PRIu64 " (single query %" PRIu64 ")",
		   d->name, pcts[i], est[i], exact, one);
	}
	ok(rtm_hist_percentile(h, 0) == a.v[0] && rtm_hist_percentile(h, 100) == a.v[a.n - 1] &&
	   rtm_hist_percentile(h, -5) == a.v[0] && rtm_hist_percentile(h, 250) == a.v[a.n - 1],
	   "%s: p0/p100 (and beyond) are min/max exactly", d->name);

	/* descending percentiles restart the scan and still agree */
	for (int i = 0; i < NPCTS; i++) {
		double p = pcts[NPCTS - 1 - i];
		uint64_t v;

		rtm_hist_percentiles(h, &p, 1, &v);
		bad += v != est[NPCTS - 1 - i];
	}
	for (int i = NPCTS - 1; i >= 0; i--) {
		uint64_t v2[2];
		double p2[2] = { pcts[i], pcts[NPCTS - 1 - i] };

		rtm_hist_percentiles(h, p2, 2, v2);
		bad += v2[0] != est[i] || v2[1] != est[NPCTS - 1 - i];
	}
	ok(!bad, "%s: percentiles in any order give the same values", d->name);
	rtm_hist_free(h);
	free(a.v);
}

/* distinct saturated values: their ranks give max, an upper bound */
static void test_saturated_bound(void)
{
	struct rtm_hist *h = hist_new();
	uint64_t big = RTM_HIST_MAX_NS + 1000;

	for (int i = 0; i < 90; i++)
		rtm_hist_record(h, 50000);
	for (int i = 0; i < 10; i++)
		rtm_hist_record(h, big * (i + 1));
	is_u64(h->saturated, 10, "saturated: counted");
	is_u64(h->counts[RTM_HIST_NCOUNTS - 1], 10, "saturated: in the top bucket");
	is_u64(rtm_hist_percentile(h, 95), big * 10, "saturated: p95 is max (upper bound)");
	is_u64(rtm_hist_percentile(h, 90), 50000, "saturated: p90 unaffected");
	rtm_hist_record(h, UINT64_MAX);
	is_u64(h->max_ns, UINT64_MAX, "saturated: UINT64_MAX recorded, max exact");
	rtm_hist_free(h);
}

static void test_record_n(void)
{
	static const uint64_t vals[] = { 0, 1, 511, 512, 1023, 20000, RTM_HIST_MAX_NS,
					 RTM_HIST_MAX_NS + 1, UINT64_MAX };
	struct rtm_hist *a = hist_new(), *b = hist_new();

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		rtm_hist_record_n(a, vals[i], 1000 + i);
		for (size_t j = 0; j < 1000 + i; j++)
			rtm_hist_record(b, vals[i]);
	}
	rtm_hist_record_n(a, 7, 0);
	ok(hist_equal(a, b), "record_n equals n records (n = 0 changes nothing)");
	rtm_hist_free(a);
	rtm_hist_free(b);
}

static void test_merge(void)
{
	for (size_t d = 0; d < sizeof(datasets) / sizeof(datasets[0]); d++) {
		struct vec a = { 0 };
		struct rtm_hist *whole, *h1 = hist_new(), *h2 = hist_new(), *e = hist_new();

		datasets[d].gen(&a);
		whole = hist_of(&a);
		for (size_t i = 0; i < a.n; i++)
			rtm_hist_record(i % 3 ? h1 : h2, a.v[i]);
		rtm_hist_merge(h1, h2);
		rtm_hist_merge(h1, e);
		ok(hist_equal(h1, whole), "merge: %s halves equal the whole", datasets[d].name);
		rtm_hist_merge(e, whole);
		ok(hist_equal(e, whole), "merge: %s into empty equals it", datasets[d].name);
		rtm_hist_copy(h2, whole);
		ok(hist_equal(h2, whole), "copy: %s", datasets[d].name);
		rtm_hist_free(whole);
		rtm_hist_free(h1);
		rtm_hist_free(h2);
		rtm_hist_free(e);
		free(a.v);
	}
}

static void naive_corrected(struct rtm_hist *h, uint64_t v, uint64_t i)
{
	rtm_hist_record(h, v);
	if (!i || v <= i)
		return;
	for (uint64_t m = v - i; m >= i; m -= i)
		rtm_hist_record(h, m);
}

static void test_corrected(void)
{
	static const struct {
		uint64_t v, i;
	} cases[] = {
		{ 0, 0 }, { 5, 0 }, { 0, 10 }, { 5, 10 }, { 10, 10 }, { 11, 10 }, { 19, 10 },
		{ 20, 10 }, { 25, 10 }, { 30, 10 }, { 1000, 1 }, { 1000, 999 }, { 1000, 500 },
		{ 1000000, 1 }, { 1000000, 1000 }, { 5000000, 1000000 }, { 5000001, 1000000 },
		{ 4999999, 1000000 }, { 3000000000ULL, 3000 }, { 1000000007ULL, 997 },
		{ 1ULL << 40, 1ULL << 21 }, { (1ULL << 40) + 12345, 1234567 },
		{ RTM_HIST_MAX_NS, 10000000 }, { RTM_HIST_MAX_NS + 1, 10000000 },
		{ RTM_HIST_MAX_NS + 5000, 8796093 }, { 3 * RTM_HIST_MAX_NS, 30000000 },
		{ UINT64_MAX, 1ULL << 45 }, { UINT64_MAX, UINT64_MAX / 3 },
		{ UINT64_MAX, UINT64_MAX }, { UINT64_MAX, 1ULL << 63 },
		{ UINT64_MAX - 7, (UINT64_MAX - 7) / 1000000 },
	};
	struct rng r = { 2024 };
	int bad = 0;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct rtm_hist *fast = hist_new(), *slow = hist_new();
		bool same;

		rtm_hist_record(fast, 700);
		rtm_hist_record(slow, 700);
		rtm_hist_record_corrected(fast, cases[c].v, cases[c].i);
		naive_corrected(slow, cases[c].v, cases[c].i);
		same = hist_equal(fast, slow);
		ok(same, "corrected(v=%" PRIu64 ", i=%" PRIu64 ") equals the naive loop (%" PRIu64
		   " samples)", cases[c].v, cases[c].i, slow->count);
		rtm_hist_free(fast);
		rtm_hist_free(slow);
	}

	/* random pairs, accumulated into one histogram each */
	struct rtm_hist *fast = hist_new(), *slow = hist_new();

	for (int k = 0; k < 3000; k++) {
		uint64_t i = 1 + rng_next(&r) % (1ULL << (rng_next(&r) % 40));
		uint64_t v = i * (rng_next(&r) % 2000) + rng_next(&r) % (2 * i);

		rtm_hist_record_corrected(fast, v, i);
		naive_corrected(slow, v, i);
		if (k % 100 == 99 && !hist_equal(fast, slow))
			bad++;
	}
	ok(!bad && hist_equal(fast, slow),
	   "corrected: 3000 random (v, i) pairs equal the naive loop");
	rtm_hist_free(fast);
	rtm_hist_free(slow);
}

static void test_iterator(void)
{
	for (size_t d = 0; d < sizeof(datasets) / sizeof(datasets[0]); d++) {
		struct vec a = { 0 };
		struct rtm_hist *h;
		struct rtm_hist_bucket b;
		unsigned int pos = 0, nonempty = 0, visited = 0;
		uint64_t total = 0, prev_hi = 0;
		bool good = true;

		datasets[d].gen(&a);
		h = hist_of(&a);
		for (unsigned int i = 0; i < RTM_HIST_NCOUNTS; i++)
			nonempty += h->counts[i] != 0;
		while (rtm_hist_next(h, &pos, &b)) {
			unsigned int idx = rtm_hist_index(b.lo_ns);

			if (!b.count || b.count != h->counts[idx] ||
			    b.lo_ns != rtm_hist_index_lo(idx) || (visited && b.lo_ns <= prev_hi) ||
			    (idx < RTM_HIST_NCOUNTS - 1 && b.hi_ns != rtm_hist_index_hi(idx)))
				good = false;
			prev_hi = b.hi_ns;
			total += b.count;
			visited++;
		}
		ok(good && visited == nonempty && total == h->count && !rtm_hist_next(h, &pos, &b),
		   "iterator: %s visits exactly the %u non-empty buckets (visited %u)",
		   datasets[d].name, nonempty, visited);
		rtm_hist_free(h);
		free(a.v);
	}
}

/* ---------------------------------------------------------------- JSON */

static struct rtm_hist *round_trip(const struct rtm_hist *h, int *ret, struct rtm_error *err)
{
	json_t *j = rtm_hist_to_json(h), *back;
	char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
	struct rtm_hist *r = hist_new();

	back = text ? json_loads(text, 0, NULL) : NULL;
	*ret = back ? rtm_hist_from_json(r, back, err) : -ENOMEM;
	json_decref(j);
	json_decref(back);
	free(text);
	return r;
}

static void test_json_round_trip(void)
{
	struct rtm_error err = { "" };
	struct rtm_hist *h, *r;
	int ret;

	for (size_t d = 0; d < sizeof(datasets) / sizeof(datasets[0]); d++) {
		struct vec a = { 0 };

		datasets[d].gen(&a);
		h = hist_of(&a);
		r = round_trip(h, &ret, &err);
		ok(ret == 0 && hist_equal(h, r), "json: %s round trip (%s)", datasets[d].name,
		   ret ? err.msg : "ok");
		rtm_hist_free(h);
		rtm_hist_free(r);
		free(a.v);
	}

	h = hist_new();
	r = round_trip(h, &ret, &err);
	ok(ret == 0 && hist_equal(h, r), "json: empty round trip");
	rtm_hist_free(r);

	/* 64-bit values above INT64_MAX travel as decimal strings */
	rtm_hist_record(h, UINT64_MAX);
	rtm_hist_record(h, UINT64_MAX - 1);
	rtm_hist_record_corrected(h, UINT64_MAX, UINT64_MAX / 5);
	r = round_trip(h, &ret, &err);
	ok(ret == 0 && hist_equal(h, r), "json: values above INT64_MAX round trip (%s)",
	   ret ? err.msg : "ok");
	rtm_hist_free(r);
	rtm_hist_free(h);
}

/* A valid document to corrupt: three buckets, nothing saturated. */
static const char *valid_json =
	"{\"count\": 6, \"min_ns\": 100, \"max_ns\": 30000, \"sum_ns\": 100200,"
	" \"sum_sq\": \"2600020000\", \"saturated\": 0, \"sub_bits\": 9,"
	" \"buckets\": [[100, 2], [19968, 2], [29952, 2]]}";

static const struct json_corrupt corrupts[] = {
	{ "not an object", NULL, "[1, 2, 3]" },
	{ "a string", NULL, "\"histogram\"" },
	{ "missing count", "count", NULL },
	{ "missing min_ns", "min_ns", NULL },
	{ "missing max_ns", "max_ns", NULL },
	{ "missing sum_ns", "sum_ns", NULL },
	{ "missing sum_sq", "sum_sq", NULL },
	{ "missing saturated", "saturated", NULL },
	{ "missing sub_bits", "sub_bits", NULL },
	{ "missing buckets", "buckets", NULL },
	{ "count is a string", "count", "\"six\"" },
	{ "count is a real", "count", "6.0" },
	{ "count is negative", "count", "-6" },
	{ "count too high", "count", "7" },
	{ "count too low", "count", "5" },
	{ "count above 2^64", "count", "\"18446744073709551616\"" },
	{ "count string with sign", "count", "\"+6\"" },
	{ "count empty string", "count", "\"\"" },
	{ "min_ns negative", "min_ns", "-100" },
	{ "min_ns null with samples", "min_ns", "null" },
	{ "min_ns above max_ns", "min_ns", "40000" },
	{ "min_ns not in first bucket", "min_ns", "101" },
	{ "max_ns not in last bucket", "max_ns", "31000" },
	{ "max_ns below a bucket", "max_ns", "20000" },
	{ "max_ns a bool", "max_ns", "true" },
	{ "sum_ns too large", "sum_ns", "999999999" },
	{ "sum_ns too small", "sum_ns", "10" },
	{ "sum_ns negative", "sum_ns", "-100200" },
	{ "sum_sq a number", "sum_sq", "2600020000" },
	{ "sum_sq not decimal", "sum_sq", "\"26000x0000\"" },
	{ "sum_sq negative", "sum_sq", "\"-2600020000\"" },
	{ "sum_sq above 2^128", "sum_sq", "\"340282366920938463463374607431768211456\"" },
	{ "sum_sq out of range", "sum_sq", "\"1\"" },
	{ "saturated without top bucket", "saturated", "1" },
	{ "saturated negative", "saturated", "-1" },
	{ "sub_bits differs", "sub_bits", "10" },
	{ "sub_bits a string", "sub_bits", "\"9\"" },
	{ "buckets an object", "buckets", "{\"100\": 6}" },
	{ "bucket not a pair", "buckets", "[[100, 2, 1], [19968, 2], [29952, 2]]" },
	{ "bucket a number", "buckets", "[100, [19968, 2], [29952, 2]]" },
	{ "bucket lo not a boundary", "buckets", "[[100, 2], [19969, 2], [29952, 2]]" },
	{ "bucket lo beyond range", "buckets",
	  "[[100, 2], [19968, 2], [8796093022208, 2]]" },
	{ "bucket lo negative", "buckets", "[[-100, 2], [19968, 2], [29952, 2]]" },
	{ "bucket lo a real", "buckets", "[[100.0, 2], [19968, 2], [29952, 2]]" },
	{ "bucket count negative", "buckets", "[[100, 2], [19968, -2], [29952, 6]]" },
	{ "bucket count zero", "buckets", "[[100, 2], [512, 0], [19968, 2], [29952, 2]]" },
	{ "bucket count a string", "buckets", "[[100, 2], [19968, \"two\"], [29952, 2]]" },
	{ "buckets descending", "buckets", "[[100, 2], [29952, 2], [19968, 2]]" },
	{ "bucket repeated", "buckets", "[[100, 2], [19968, 1], [19968, 1], [29952, 2]]" },
	{ "bucket counts overflow", "buckets",
	  "[[100, 9223372036854775807], [19968, 9223372036854775807], [29952, 4]]" },
	{ "no buckets", "buckets", "[]" },
};

static void test_json_corrupt(void)
{
	struct rtm_hist *h = hist_new(), *empty = hist_new();
	json_t *base = json_loads(valid_json, 0, NULL);
	struct rtm_error err;
	int ret;

	ok(base != NULL, "json: the valid document parses");
	ret = rtm_hist_from_json(h, base, NULL);
	ok(ret == 0 && h->count == 6 && rtm_hist_percentile(h, 50) == 19999,
	   "json: the valid document is accepted (ret %d)", ret);

	for (size_t c = 0; c < sizeof(corrupts) / sizeof(corrupts[0]); c++) {
		const struct json_corrupt *k = &corrupts[c];
		json_t *doc = json_corrupted(base, k);

		memset(err.msg, 0, sizeof(err.msg));
		rtm_hist_record(h, 5);
		ret = rtm_hist_from_json(h, doc, &err);
		ok(ret == -EINVAL && err.msg[0] && !strchr(err.msg, '\n') && hist_equal(h, empty),
		   "json corrupt: %s -> %s", k->name, err.msg[0] ? err.msg : "(accepted)");
		json_decref(doc);
	}
	ret = rtm_hist_from_json(h, NULL, &err);
	ok(ret == -EINVAL && err.msg[0], "json corrupt: NULL object -> %s", err.msg);
	json_decref(base);
	rtm_hist_free(h);
	rtm_hist_free(empty);
}

/* Random edits of a real document: each must be rejected cleanly or be consistent. */
static void test_json_fuzz(void)
{
	struct rtm_hist *h = hist_new(), *src = hist_new();
	struct rng r = { 31337 };
	json_t *j;
	char *text;
	size_t len;
	int accepted = 0, rejected = 0, bad = 0;

	for (int i = 0; i < 300; i++)
		rtm_hist_record(src, 20000 + (rng_next(&r) % 5000) * (i % 7 ? 1 : 977));
	j = rtm_hist_to_json(src);
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	len = strlen(text);
	for (int i = 0; i < 5000; i++) {
		char *t = strdup(text);
		struct rtm_error err = { "" };
		json_t *doc;
		uint64_t sum = 0;

		for (int e = 0; e < 1 + i % 3; e++)
			t[rng_next(&r) % len] = "0123456789-,[]{}\":. e"[rng_next(&r) % 21];
		doc = json_loads(t, 0, NULL);
		if (doc) {
			if (rtm_hist_from_json(h, doc, &err) == 0) {
				for (unsigned int k = 0; k < RTM_HIST_NCOUNTS; k++)
					sum += h->counts[k];
				bad += sum != h->count || h->min_ns > h->max_ns;
				accepted++;
			} else {
				bad += !err.msg[0] || h->count != 0;
				rejected++;
			}
			json_decref(doc);
		}
		free(t);
	}
	ok(!bad, "json fuzz: %d edits accepted consistently, %d rejected with a message",
	   accepted, rejected);
	free(text);
	rtm_hist_free(h);
	rtm_hist_free(src);
}

/* ---------------------------------------------------------------- diff */

static void test_diff(void)
{
	struct vec a = { 0 };
	struct rtm_hist *early = hist_new(), *late, *only = hist_new(), *d = hist_new();
	size_t cut;
	int ret;

	gen_pareto(&a);
	cut = a.n / 3;
	for (size_t i = 0; i < a.n; i++) {
		if (i < cut)
			rtm_hist_record(early, a.v[i]);
		else
			rtm_hist_record(only, a.v[i]);
	}
	late = hist_of(&a);

	ret = rtm_hist_diff(d, late, early);
	is_int(ret, 0, "diff: later - earlier succeeds");
	ok(d->count == only->count && d->sum_ns == only->sum_ns && d->sum_sq == only->sum_sq &&
	   d->saturated == only->saturated &&
	   !memcmp(d->counts, only->counts, sizeof(d->counts)),
	   "diff: counts and sums equal those of the later samples alone");
	ok(d->min_ns <= only->min_ns && rtm_hist_index(d->min_ns) == rtm_hist_index(only->min_ns),
	   "diff: min %" PRIu64 " is in the bucket of the true min %" PRIu64, d->min_ns,
	   only->min_ns);
	ok(d->max_ns >= only->max_ns && rtm_hist_index(d->max_ns) == rtm_hist_index(only->max_ns),
	   "diff: max %" PRIu64 " is in the bucket of the true max %" PRIu64, d->max_ns,
	   only->max_ns);
	ok(d->min_ns >= late->min_ns && d->max_ns <= late->max_ns,
	   "diff: min/max within the later snapshot's");

	rtm_hist_reset(d);
	ret = rtm_hist_diff(d, late, d);
	ok(ret == 0 && hist_equal(d, late), "diff: minus an empty snapshot is the later one");

	ret = rtm_hist_diff(d, late, late);
	ok(ret == 0 && d->count == 0 && d->min_ns == UINT64_MAX && d->max_ns == 0 &&
	   d->sum_sq == 0, "diff: a snapshot minus itself is empty");

	rtm_hist_copy(d, late);
	ret = rtm_hist_diff(d, d, early);
	ok(ret == 0 && d->count == only->count &&
	   !memcmp(d->counts, only->counts, sizeof(d->counts)), "diff: in place (dst == later)");

	rtm_hist_copy(d, late);
	rtm_hist_record(early, 123);	/* early now has a sample late lacks */
	ret = rtm_hist_diff(d, late, early);
	ok(ret == -EINVAL && hist_equal(d, late),
	   "diff: earlier not a prefix -> -EINVAL, dst kept");
	ret = rtm_hist_diff(d, early, late);
	is_int(ret, -EINVAL, "diff: swapped snapshots -> -EINVAL");

	/* a difference made only of saturated samples */
	rtm_hist_reset(early);
	rtm_hist_record(early, 1000);
	rtm_hist_copy(late, early);
	rtm_hist_record(late, RTM_HIST_MAX_NS + 10);
	rtm_hist_record(late, RTM_HIST_MAX_NS + 99);
	ret = rtm_hist_diff(d, late, early);
	ok(ret == 0 && d->count == 2 && d->saturated == 2 && d->min_ns > RTM_HIST_MAX_NS &&
	   d->max_ns == RTM_HIST_MAX_NS + 99, "diff: saturated-only difference");

	rtm_hist_free(early);
	rtm_hist_free(late);
	rtm_hist_free(only);
	rtm_hist_free(d);
	free(a.v);
}

/*
 * The probe keeps raw samples and the implied ones apart and merges them when
 * read: raw(v) + corrected(v - i) for v >= 2i must equal corrected(v).
 */
static void test_corrected_split(void)
{
	static const uint64_t cases[][2] = {
		{ 2000000, 1000000 }, { 2500000, 1000000 }, { 9999999, 1000000 },
		{ 123456789, 1000 }, { 30000, 10000 }, { 1999999, 1000000 },
		{ 3600000000000ULL, 1000000 }, { 1000000, 1000000 }, { 500, 1000 },
	};
	struct rtm_hist *whole = rtm_hist_alloc(), *raw = rtm_hist_alloc();
	struct rtm_hist *implied = rtm_hist_alloc();
	size_t c;
	int same = 1;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		uint64_t v = cases[c][0], i = cases[c][1];

		rtm_hist_record_corrected(whole, v, i);
		rtm_hist_record(raw, v);
		if (v >= 2 * i)
			rtm_hist_record_corrected(implied, v - i, i);
	}
	rtm_hist_merge(raw, implied);
	same = raw->count == whole->count && raw->sum_ns == whole->sum_ns &&
	       raw->sum_sq == whole->sum_sq && raw->min_ns == whole->min_ns &&
	       raw->max_ns == whole->max_ns && raw->saturated == whole->saturated &&
	       memcmp(raw->counts, whole->counts, sizeof(raw->counts)) == 0;
	ok(same, "corrected = raw + implied(v - i) merged, as the probe keeps them");
	rtm_hist_free(whole);
	rtm_hist_free(raw);
	rtm_hist_free(implied);
}

/*
 * Copies and differences touch only the counters between min and max: a
 * destination that held a wider range before must come out with none of its
 * old counters left, whatever it held.
 */
static uint64_t hist_total(const struct rtm_hist *h)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < RTM_HIST_NCOUNTS; i++)
		n += h->counts[i];
	return n;
}

static void test_bounded(void)
{
	struct rtm_hist *wide = rtm_hist_alloc(), *narrow = rtm_hist_alloc();
	struct rtm_hist *d = rtm_hist_alloc(), *later = rtm_hist_alloc();
	uint64_t v;

	rtm_hist_record(wide, 3);
	rtm_hist_record(wide, 40000);
	rtm_hist_record(wide, RTM_HIST_MAX_NS + 5);	/* the top counter too */
	for (v = 20000; v < 21000; v += 7)
		rtm_hist_record(narrow, v);
	rtm_hist_copy(d, wide);
	ok(hist_equal(d, wide), "copy: the wide one");
	rtm_hist_copy(d, narrow);
	ok(hist_equal(d, narrow), "copy: a narrower one over it leaves no old counter");
	rtm_hist_copy(d, wide);
	rtm_hist_reset(narrow);
	rtm_hist_copy(d, narrow);
	ok(hist_equal(d, narrow), "copy: an empty one over it leaves no old counter");

	/* a difference written over a wider histogram */
	for (v = 20000; v < 21000; v += 7)
		rtm_hist_record(narrow, v);
	rtm_hist_copy(later, narrow);
	rtm_hist_record(later, 20500);
	rtm_hist_copy(d, wide);
	ok(rtm_hist_diff(d, later, narrow) == 0 && d->count == 1 &&
	   d->counts[rtm_hist_index(20500)] == 1 && hist_total(d) == 1,
	   "diff: over a wider histogram, only the difference's counter");
	rtm_hist_free(wide);
	rtm_hist_free(narrow);
	rtm_hist_free(d);
	rtm_hist_free(later);
}

/* rtm_hist_diff_max() gives rtm_hist_diff()'s max_ns for snapshots of one histogram. */
static void test_diff_max(void)
{
	struct rtm_hist *h = rtm_hist_alloc(), *prev = rtm_hist_alloc(), *d = rtm_hist_alloc();
	static const uint64_t adds[][3] = {
		{ 0, 0, 0 },			/* nothing new */
		{ 25000, 0, 0 },		/* inside the old range */
		{ 12000, 13000, 0 },		/* below the old maximum */
		{ 9000000, 0, 0 },		/* a new maximum */
		{ 30000, 0, 0 },		/* far below it */
		{ RTM_HIST_MAX_NS + 77, 0, 0 },	/* saturated */
		{ 700, 0, 0 },			/* below everything */
	};
	bool same = true;
	size_t i, k;

	for (k = 0; k < 2000; k++)
		rtm_hist_record(h, 10000 + k * 37);
	for (i = 0; i < sizeof(adds) / sizeof(adds[0]); i++) {
		rtm_hist_copy(prev, h);
		for (k = 0; k < 3; k++)
			if (adds[i][k])
				rtm_hist_record(h, adds[i][k]);
		if (rtm_hist_diff(d, h, prev) || rtm_hist_diff_max(h, prev) != d->max_ns) {
			diag("case %zu: diff_max %" PRIu64 ", diff's max %" PRIu64, i,
			     rtm_hist_diff_max(h, prev), d->max_ns);
			same = false;
		}
	}
	ok(same, "diff_max: the difference's max in every case");
	is_int((int)rtm_hist_diff_max(h, h), 0, "diff_max: nothing added is 0");
	rtm_hist_free(h);
	rtm_hist_free(prev);
	rtm_hist_free(d);
}

int main(void)
{
	test_layout();
	test_corrected_split();
	for (size_t d = 0; d < sizeof(datasets) / sizeof(datasets[0]); d++)
		test_dataset(&datasets[d]);
	test_saturated_bound();
	test_record_n();
	test_merge();
	test_corrected();
	test_iterator();
	test_json_round_trip();
	test_json_corrupt();
	test_json_fuzz();
	test_diff();
	test_bounded();
	test_diff_max();
	return tap_done();
}
