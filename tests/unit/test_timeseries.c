// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_timeseries.c - bounded per-interval series: verbatim below the cap,
 * pairwise merging above it, totals preserved, JSON round trip and rejection.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/timeseries.h"
#include "../tap.h"

#define SEC	UINT64_C(1000000000)

static struct rtm_ts_point point(uint64_t start, uint64_t width, uint64_t count, uint64_t min,
				 uint64_t max, uint64_t p99)
{
	struct rtm_ts_point p = {
		.start_ns = start, .width_ns = width, .count = count,
		.min_ns = count ? min : UINT64_MAX, .max_ns = count ? max : 0,
		.p99_ns = count ? p99 : 0, .merged = 0,
	};

	return p;
}

static bool point_equal(const struct rtm_ts_point *a, const struct rtm_ts_point *b)
{
	return a->start_ns == b->start_ns && a->width_ns == b->width_ns && a->count == b->count &&
	       a->min_ns == b->min_ns && a->max_ns == b->max_ns && a->p99_ns == b->p99_ns &&
	       a->merged == b->merged;
}

static bool ts_equal(const struct rtm_ts *a, const struct rtm_ts *b)
{
	if (a->interval_ns != b->interval_ns || a->stride_ns != b->stride_ns || a->cap != b->cap ||
	    a->n != b->n)
		return false;
	for (uint32_t i = 0; i < a->n; i++)
		if (!point_equal(&a->pts[i], &b->pts[i]))
			return false;
	return true;
}

/* the i-th test interval: distinct, recognisable values */
static struct rtm_ts_point nth(uint64_t i, uint64_t interval)
{
	return point(i * interval, interval, i + 1, 100 + i, 1000 + 10 * i, 500 + 3 * (i % 5));
}

static void test_alloc(void)
{
	struct rtm_ts *ts = rtm_ts_alloc(0, 0);

	ok(ts && ts->cap == RTM_TS_DEFAULT_CAP && ts->interval_ns == RTM_TS_DEFAULT_INTERVAL_NS &&
	   ts->stride_ns == ts->interval_ns && ts->n == 0, "alloc: defaults for 0, 0");
	rtm_ts_free(ts);
	errno = 0;
	ts = rtm_ts_alloc(SEC, 1);
	ok(!ts && errno == EINVAL, "alloc: cap 1 -> EINVAL");
	errno = 0;
	ts = rtm_ts_alloc(SEC, RTM_TS_MAX_CAP + 1);
	ok(!ts && errno == EINVAL, "alloc: cap above RTM_TS_MAX_CAP -> EINVAL");
	rtm_ts_free(NULL);
}

static void test_below_cap(void)
{
	struct rtm_ts *ts = rtm_ts_alloc(1000, 16);
	bool same = true;

	for (uint64_t i = 0; i < 16; i++) {
		struct rtm_ts_point p = nth(i, 1000);

		rtm_ts_add(ts, &p);
	}
	for (uint64_t i = 0; i < 16; i++) {
		struct rtm_ts_point p = nth(i, 1000);

		same &= point_equal(&ts->pts[i], &p);
	}
	ok(ts->n == 16 && same && ts->stride_ns == 1000, "below cap: 16 points kept verbatim");
	rtm_ts_reset(ts);
	ok(ts->n == 0 && ts->stride_ns == 1000, "reset: empty again");
	rtm_ts_free(ts);
}

static void test_pairwise(void)
{
	struct rtm_ts *ts = rtm_ts_alloc(1000, 8);
	struct rtm_ts_point p;
	bool good = true;

	for (uint64_t i = 0; i < 9; i++) {
		p = nth(i, 1000);
		rtm_ts_add(ts, &p);
	}
	is_int(ts->n, 5, "cap 8: the 9th point merges pairs, 4 + 1 left");
	is_u64(ts->stride_ns, 2000, "cap 8: stride doubled");
	for (uint64_t j = 0; j < 4; j++) {
		struct rtm_ts_point a = nth(2 * j, 1000), b = nth(2 * j + 1, 1000);
		const struct rtm_ts_point *m = &ts->pts[j];

		if (m->start_ns != a.start_ns || m->width_ns != 2000 ||
		    m->count != a.count + b.count || m->min_ns != a.min_ns ||
		    m->max_ns != b.max_ns || m->merged != 1 ||
		    m->p99_ns != (a.p99_ns > b.p99_ns ? a.p99_ns : b.p99_ns)) {
			diag("merged point %" PRIu64 " wrong", j);
			good = false;
		}
	}
	ok(good,
	   "cap 8: merged points have start, width 2x, count sum, min, max, p99 max, merged 1");
	p = nth(8, 1000);
	ok(point_equal(&ts->pts[4], &p), "cap 8: the new point is appended verbatim");

	p = nth(9, 1000);
	rtm_ts_add(ts, &p);
	ok(ts->n == 5 && ts->pts[4].width_ns == 2000 && ts->pts[4].merged == 1 &&
	   ts->pts[4].count == 9 + 10 && ts->pts[4].min_ns == 108 && ts->pts[4].max_ns == 1090,
	   "cap 8: the 10th point folds into the 9th up to the stride");
	p = nth(10, 1000);
	rtm_ts_add(ts, &p);
	ok(ts->n == 6 && ts->pts[5].width_ns == 1000, "cap 8: the 11th point starts a new one");
	rtm_ts_free(ts);

	/* odd cap: the unpaired last point stays open and takes the next one */
	ts = rtm_ts_alloc(1000, 5);
	for (uint64_t i = 0; i < 6; i++) {
		p = nth(i, 1000);
		rtm_ts_add(ts, &p);
	}
	ok(ts->n == 3 && ts->stride_ns == 2000 && ts->pts[2].start_ns == 4000 &&
	   ts->pts[2].width_ns == 2000 && ts->pts[2].count == 5 + 6 && ts->pts[2].merged == 1,
	   "cap 5: the unpaired point is completed by the next one");
	rtm_ts_free(ts);
}

static void test_empty_and_gaps(void)
{
	struct rtm_ts *ts = rtm_ts_alloc(1000, 2);
	struct rtm_ts_point p;

	p = point(0, 1000, 0, 0, 0, 0);
	rtm_ts_add(ts, &p);
	p = point(1000, 1000, 3, 50, 70, 60);
	rtm_ts_add(ts, &p);
	p = point(2000, 1000, 0, 0, 0, 0);
	rtm_ts_add(ts, &p);
	ok(ts->n == 2 && ts->pts[0].count == 3 && ts->pts[0].min_ns == 50 &&
	   ts->pts[0].max_ns == 70 && ts->pts[0].p99_ns == 60 && ts->pts[1].count == 0 &&
	   ts->pts[1].min_ns == UINT64_MAX, "empty points merge without touching min/max");

	/* a gap wider than the stride starts a new point although the last is open */
	p = point(10000, 1000, 1, 5, 5, 5);
	rtm_ts_add(ts, &p);
	ok(ts->n == 2 && ts->pts[1].start_ns == 10000 && ts->pts[1].width_ns == 1000 &&
	   ts->pts[0].width_ns == 3000 && ts->stride_ns == 4000,
	   "a gap starts a new point (after merging the full series)");
	rtm_ts_free(ts);
}

static void test_three_days(void)
{
	const uint64_t npts = 3 * 24 * 3600;
	struct rtm_ts *ts = rtm_ts_alloc(SEC, 64);
	uint64_t total = 0, count = 0, folded = 0, end = 0, max = 0, min = UINT64_MAX;
	uint64_t pmax = 0, pmin = UINT64_MAX, p99 = 0, pp99 = 0;
	bool bounded = true, contiguous = true, widths = true;

	for (uint64_t i = 0; i < npts; i++) {
		struct rtm_ts_point p = point(i * SEC, SEC, 1000 + i % 17, 20000 + i % 1000,
					      60000 + i % 77777, 40000 + i % 333);

		total += p.count;
		if (p.min_ns < min)
			min = p.min_ns;
		if (p.max_ns > max)
			max = p.max_ns;
		if (p.p99_ns > p99)
			p99 = p.p99_ns;
		rtm_ts_add(ts, &p);
		bounded &= ts->n <= 64;
	}
	for (uint32_t i = 0; i < ts->n; i++) {
		const struct rtm_ts_point *p = &ts->pts[i];

		contiguous &= p->start_ns == end;
		end = p->start_ns + p->width_ns;
		count += p->count;
		folded += p->merged + 1ULL;
		if (i + 1 < ts->n)
			widths &= p->width_ns == ts->stride_ns;
		else
			widths &= p->width_ns <= ts->stride_ns;
		pmin = p->min_ns < pmin ? p->min_ns : pmin;
		pmax = p->max_ns > pmax ? p->max_ns : pmax;
		pp99 = p->p99_ns > pp99 ? p->p99_ns : pp99;
	}
	ok(bounded, "3 days at 1 s, cap 64: never more than 64 points");
	is_u64(count, total, "3 days: total count preserved");
	is_u64(folded, npts, "3 days: every interval accounted for in merged");
	ok(contiguous && end == npts * SEC, "3 days: points tile the whole run");
	ok(widths && ts->stride_ns == 4096 * SEC,
	   "3 days: every closed point is one stride (%" PRIu64 " s) wide", ts->stride_ns / SEC);
	ok(pmin == min && pmax == max && pp99 == p99, "3 days: overall min, max and p99 kept");
	rtm_ts_free(ts);
}

/* ---------------------------------------------------------------- JSON */

static struct rtm_ts *round_trip(const struct rtm_ts *ts, struct rtm_error *err)
{
	json_t *j = rtm_ts_to_json(ts), *back;
	char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
	struct rtm_ts *r;

	back = text ? json_loads(text, 0, NULL) : NULL;
	r = back ? rtm_ts_from_json(back, err) : NULL;
	json_decref(j);
	json_decref(back);
	free(text);
	return r;
}

static void test_json(void)
{
	struct rtm_error err = { "" };
	struct rtm_ts *ts = rtm_ts_alloc(1000, 6), *r;
	struct rtm_ts_point p;

	r = round_trip(ts, &err);
	ok(r && ts_equal(ts, r), "json: empty series round trip");
	rtm_ts_free(r);

	for (uint64_t i = 0; i < 20; i++) {
		p = nth(i, 1000);
		if (i == 3)
			p = point(3000, 1000, 0, 0, 0, 0);
		if (i == 7)
			p.max_ns = UINT64_MAX;
		rtm_ts_add(ts, &p);
	}
	r = round_trip(ts, &err);
	ok(r && ts_equal(ts, r), "json: merged series with an empty point and a 2^64-1 max (%s)",
	   r ? "ok" : err.msg);
	rtm_ts_free(r);
	rtm_ts_free(ts);
}

static const char *valid_json =
	"{\"interval_ns\": 1000, \"stride_ns\": 2000, \"cap\": 4, \"points\": ["
	"[0, 2000, 10, 100, 900, 800, 1], [2000, 2000, 0, null, 0, 0, 1],"
	" [4000, 1000, 5, 300, 400, 350, 0]]}";

static const struct json_corrupt corrupts[] = {
	{ "not an object", NULL, "[]" },
	{ "a number", NULL, "42" },
	{ "missing interval_ns", "interval_ns", NULL },
	{ "missing stride_ns", "stride_ns", NULL },
	{ "missing cap", "cap", NULL },
	{ "missing points", "points", NULL },
	{ "interval_ns 0", "interval_ns", "0" },
	{ "interval_ns negative", "interval_ns", "-1000" },
	{ "interval_ns a string", "interval_ns", "\"1 s\"" },
	{ "stride below interval", "stride_ns", "500" },
	{ "stride not a power-of-two multiple", "stride_ns", "3000" },
	{ "cap 1", "cap", "1" },
	{ "cap huge", "cap", "4294967296" },
	{ "cap a real", "cap", "4.0" },
	{ "points an object", "points", "{}" },
	{ "more points than cap", "points",
	  "[[0,1,0,null,0,0,0],[1,1,0,null,0,0,0],[2,1,0,null,0,0,0],[3,1,0,null,0,0,0],"
	  "[4,1,0,null,0,0,0]]" },
	{ "point not an array", "points", "[{\"start\": 0}]" },
	{ "point too short", "points", "[[0, 2000, 10, 100, 900, 800]]" },
	{ "point too long", "points", "[[0, 2000, 10, 100, 900, 800, 1, 2]]" },
	{ "negative count", "points", "[[0, 2000, -10, 100, 900, 800, 1]]" },
	{ "real width", "points", "[[0, 2000.5, 10, 100, 900, 800, 1]]" },
	{ "min null with samples", "points", "[[0, 2000, 10, null, 900, 800, 1]]" },
	{ "min with no samples", "points", "[[0, 2000, 0, 100, 0, 0, 1]]" },
	{ "max with no samples", "points", "[[0, 2000, 0, null, 5, 0, 1]]" },
	{ "min above max", "points", "[[0, 2000, 10, 1000, 900, 950, 1]]" },
	{ "p99 above max", "points", "[[0, 2000, 10, 100, 900, 901, 1]]" },
	{ "p99 below min", "points", "[[0, 2000, 10, 100, 900, 99, 1]]" },
	{ "merged above 32 bits", "points", "[[0, 2000, 10, 100, 900, 800, 4294967296]]" },
	{ "overlapping points", "points",
	  "[[0, 2000, 10, 100, 900, 800, 1], [1999, 1000, 1, 5, 5, 5, 0]]" },
	{ "start + width overflows", "points",
	  "[[\"18446744073709551615\", 2, 1, 5, 5, 5, 0]]" },
	{ "bad decimal string", "points", "[[\"12x\", 2, 1, 5, 5, 5, 0]]" },
};

static void test_json_corrupt(void)
{
	json_t *base = json_loads(valid_json, 0, NULL);
	struct rtm_error err = { "" };
	struct rtm_ts *ts;

	ts = base ? rtm_ts_from_json(base, &err) : NULL;
	ok(ts && ts->n == 3 && ts->pts[1].min_ns == UINT64_MAX && ts->stride_ns == 2000,
	   "json: the valid document is accepted (%s)", ts ? "ok" : err.msg);
	rtm_ts_free(ts);

	for (size_t c = 0; c < sizeof(corrupts) / sizeof(corrupts[0]); c++) {
		const struct json_corrupt *k = &corrupts[c];
		json_t *doc = json_corrupted(base, k);

		memset(err.msg, 0, sizeof(err.msg));
		errno = 0;
		ts = rtm_ts_from_json(doc, &err);
		ok(!ts && errno == EINVAL && err.msg[0] && !strchr(err.msg, '\n'),
		   "json corrupt: %s -> %s", k->name, err.msg[0] ? err.msg : "(accepted)");
		rtm_ts_free(ts);
		json_decref(doc);
	}
	json_decref(base);
}

int main(void)
{
	test_alloc();
	test_below_cap();
	test_pairwise();
	test_empty_and_gaps();
	test_three_days();
	test_json();
	test_json_corrupt();
	return tap_done();
}
