// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_pctboot - the block bootstrap of the ratio of two runs' percentiles on
 * synthetic time series: per-interval histograms kept by struct rtm_ts (their
 * coarse buckets, merging and JSON), the point estimate equal to the whole
 * histograms' ratio, an interval that holds it, two runs drawn from one
 * distribution "not distinguishable", a disturbance concentrated in a few
 * intervals seen at its full size (where the mean of per-interval p99 sees a
 * fraction of it), too few intervals refused, and the same interval on every
 * call (fixed seed).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/pctboot.h"
#include "core/timeseries.h"
#include "../tap.h"

#define SEC	UINT64_C(1000000000)
#define US	UINT64_C(1000)

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A value around @base_ns: uniform within +-25%. */
static uint64_t around(uint64_t base_ns)
{
	return base_ns - base_ns / 4 + next() % (base_ns / 2 + 1);
}

/* One synthetic run: a series that keeps histograms, its whole histogram, its counts. */
struct run {
	struct rtm_ts *ts;
	struct rtm_hist *whole;
	uint64_t *counts;
	struct rtm_pctboot_run boot;
};

/*
 * @n intervals of @per samples around 50 us; in the intervals @hit says, a
 * fraction @frac of them around @spike_ns.
 */
static void make_run(struct run *r, int n, int per, bool (*hit)(int), double frac,
		     uint64_t spike_ns)
{
	struct rtm_hist *h = rtm_hist_alloc();
	int j, i;

	r->ts = rtm_ts_alloc(SEC, 1024);
	r->whole = rtm_hist_alloc();
	r->counts = calloc((size_t)n * RTM_TS_HIST_N, sizeof(*r->counts));
	if (!h || !r->ts || !r->whole || !r->counts || rtm_ts_keep_hists(r->ts))
		abort();
	for (j = 0; j < n; j++) {
		struct rtm_ts_point p = { .start_ns = (uint64_t)j * SEC, .width_ns = SEC };
		int spikes = hit && hit(j) ? (int)(frac * per) : 0;

		rtm_hist_reset(h);
		for (i = 0; i < per; i++)
			rtm_hist_record(h, i < spikes ? around(spike_ns) : around(50 * US));
		p.count = h->count;
		p.min_ns = h->min_ns;
		p.max_ns = h->max_ns;
		p.p99_ns = rtm_hist_percentile(h, 99);
		rtm_ts_add_hist(r->ts, &p, h);
		rtm_hist_merge(r->whole, h);
	}
	for (j = 0; j < (int)r->ts->n; j++)
		for (i = 0; i < (int)RTM_TS_HIST_N; i++)
			r->counts[(size_t)j * RTM_TS_HIST_N + i] =
				r->ts->hists[(size_t)j * RTM_TS_HIST_N + i];
	r->boot.n = (int)r->ts->n;
	r->boot.counts = r->counts;
	r->boot.whole = r->whole;
	rtm_hist_free(h);
}

static void free_run(struct run *r)
{
	rtm_ts_free(r->ts);
	rtm_hist_free(r->whole);
	free(r->counts);
}

static bool every_fifth(int j)
{
	return j % 5 == 0;
}

static bool every_one(int j)
{
	(void)j;
	return true;
}

/* The series' histograms: coarse buckets, counts, merging and the JSON round trip. */
static void test_series_hists(void)
{
	struct rtm_ts *ts = rtm_ts_alloc(SEC, 4), *back;
	struct rtm_hist *h = rtm_hist_alloc();
	struct rtm_error err = { "" };
	uint64_t sum = 0;
	unsigned int k;
	json_t *j;
	int i;

	ok(ts && h && !rtm_ts_keep_hists(ts), "a series keeps histograms on request");
	is_u64(rtm_ts_hist_lo(rtm_ts_hist_index(50 * US)), UINT64_C(49152),
	       "50 us falls in the bucket from 49152 ns (1/8 of 32768..65535)");
	is_u64(rtm_ts_hist_lo(rtm_ts_hist_index(100)), UINT64_C(96), "below 512 ns: 32 ns buckets");
	for (i = 0; i < 6; i++) {
		struct rtm_ts_point p = { .start_ns = (uint64_t)i * SEC, .width_ns = SEC,
					  .count = 2, .min_ns = 40 * US, .max_ns = 900 * US,
					  .p99_ns = 900 * US };

		rtm_hist_reset(h);
		rtm_hist_record(h, 40 * US);
		rtm_hist_record(h, 900 * US);
		rtm_ts_add_hist(ts, &p, h);
	}
	/* 6 intervals in 4 slots: pairs merged, their histograms added */
	for (k = 0; k < ts->n * RTM_TS_HIST_N; k++)
		sum += ts->hists[k];
	ok(ts->n == 3 && sum == 12 && ts->hists[rtm_ts_hist_index(900 * US)] == 2,
	   "merged points add their histograms (%u points, %llu samples)", ts->n,
	   (unsigned long long)sum);
	j = rtm_ts_to_json(ts);
	back = j ? rtm_ts_from_json(j, &err) : NULL;
	ok(back && back->hists && !memcmp(back->hists, ts->hists,
					  (size_t)ts->n * RTM_TS_HIST_N * sizeof(*ts->hists)),
	   "hists survive the JSON round trip %s", err.msg);
	rtm_ts_free(back);
	json_array_set_new(json_array_get(json_array_get(json_object_get(j, "hists"), 0), 0), 1,
			   json_integer(3));
	back = rtm_ts_from_json(j, &err);
	ok(!back && strstr(err.msg, "hists[0] holds 5 samples, its point 4"),
	   "a histogram that does not add up to its point is refused: %s", err.msg);
	json_array_set_new(json_array_get(json_array_get(json_object_get(j, "hists"), 0), 0), 0,
			   json_integer(40000));
	back = rtm_ts_from_json(j, &err);
	ok(!back && strstr(err.msg, "is not the next bucket's lowest value"),
	   "a bucket that is not one is refused: %s", err.msg);
	json_decref(j);
	rtm_ts_free(ts);
	rtm_hist_free(h);
}

static void test_rule(void)
{
	is_int(rtm_pctboot_block(8), 3, "block length: sqrt(8) rounds to 3");
	is_int(rtm_pctboot_block(20), 4, "block length: sqrt(20) rounds to 4");
	is_int(rtm_pctboot_block(512), 23, "block length: sqrt(512) rounds to 23");
	is_int(rtm_pctboot_block(1), 1, "block length: at least 1");
}

static void test_same(void)
{
	struct run a, b;
	struct rtm_pctboot o, o2;
	int ret;

	make_run(&a, 30, 1000, every_fifth, 0.1, 400 * US);
	make_run(&b, 30, 1000, every_fifth, 0.1, 400 * US);
	ret = rtm_pctboot_ratio(&a.boot, &b.boot, 99, 0.95, &o);
	ok(!ret && o.lo <= 1.0 && o.hi >= 1.0 && o.lo <= o.ratio && o.ratio <= o.hi,
	   "one distribution twice: the interval [%.3f, %.3f] holds 1 and the ratio %.3f",
	   o.lo, o.hi, o.ratio);
	ok(o.ratio == (double)rtm_hist_percentile(b.whole, 99) /
		      (double)rtm_hist_percentile(a.whole, 99),
	   "the point estimate is the whole histograms' p99 ratio");
	ok(o.resamples == RTM_PCTBOOT_RESAMPLES && o.block_a == 5 && o.block_b == 5,
	   "2000 resamples, blocks of 5 for 30 intervals");
	rtm_pctboot_ratio(&a.boot, &b.boot, 99, 0.95, &o2);
	ok(o2.lo == o.lo && o2.hi == o.hi, "a fixed seed: the same interval on every call");
	ret = rtm_pctboot_ratio(&a.boot, &a.boot, 99.9, 0.95, &o);
	ok(!ret && o.ratio == 1.0 && o.lo < 1.0 && o.hi > 1.0,
	   "a run against itself: resampled independently, [%.3f, %.3f] around 1", o.lo, o.hi);
	free_run(&a);
	free_run(&b);
}

/*
 * The disturbance in every fifth interval, a fifth of its samples at 2 ms: 4%
 * of the run, so the run's p99 is about 2 ms against 60 us, while the
 * per-interval p99 is 2 ms in a fifth of the intervals only (their geometric
 * mean is about 60 us * 33^0.2 = 120 us).
 */
static void test_concentrated(void)
{
	struct run a, b;
	struct rtm_pctboot o;
	double gm = 0;
	uint32_t j;
	int ret;

	make_run(&a, 40, 1000, NULL, 0, 0);
	make_run(&b, 40, 1000, every_fifth, 0.2, 2000 * US);
	ret = rtm_pctboot_ratio(&a.boot, &b.boot, 99, 0.95, &o);
	for (j = 0; j < a.ts->n; j++)
		gm += log((double)b.ts->pts[j].p99_ns) - log((double)a.ts->pts[j].p99_ns);
	gm = exp(gm / a.ts->n);
	ok(!ret && o.ratio > 25 && o.lo <= o.ratio && o.ratio <= o.hi && o.lo > 1.5,
	   "a concentrated disturbance: ratio %.1f in [%.1f, %.1f], beyond 1.5", o.ratio, o.lo,
	   o.hi);
	ok(gm < o.lo, "the per-interval p99's geometric mean ratio %.2f lies below that interval",
	   gm);
	ret = rtm_pctboot_ratio(&b.boot, &a.boot, 99, 0.95, &o);
	ok(!ret && o.hi < 1 / 1.5 && o.lo <= o.ratio && o.ratio <= o.hi,
	   "the other way round: [%.3f, %.3f] below 1/1.5", o.lo, o.hi);
	free_run(&a);
	free_run(&b);
}

static void test_few(void)
{
	struct run a, b;
	struct rtm_pctboot o;

	make_run(&a, 7, 1000, NULL, 0, 0);
	make_run(&b, 30, 1000, every_one, 0.5, 300 * US);
	is_int(rtm_pctboot_ratio(&a.boot, &b.boot, 99, 0.95, &o), -EINVAL,
	       "7 intervals on a side: no interval (-EINVAL)");
	free_run(&a);
	free_run(&b);
}

int main(void)
{
	test_series_hists();
	test_rule();
	test_same();
	test_concentrated();
	test_few();
	return tap_done();
}
