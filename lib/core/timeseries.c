// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timeseries.c - per-interval latency summaries with bounded memory.
 *
 * A point is "open" while it is narrower than the stride: points arriving
 * within its stride window are folded into it. When a closed series is full,
 * neighbours are merged pairwise (n -> ceil(n / 2)) and the stride doubles.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonutil.h"
#include "core/timeseries.h"

/**
 * rtm_ts_alloc - allocate an empty series
 * @interval_ns: width of a fresh point (0: RTM_TS_DEFAULT_INTERVAL_NS)
 * @cap: maximum points held (0: RTM_TS_DEFAULT_CAP)
 *
 * Returns NULL with errno EINVAL (bad @cap) or ENOMEM.
 */
struct rtm_ts *rtm_ts_alloc(uint64_t interval_ns, uint32_t cap)
{
	struct rtm_ts *ts;

	if (!cap)
		cap = RTM_TS_DEFAULT_CAP;
	if (!interval_ns)
		interval_ns = RTM_TS_DEFAULT_INTERVAL_NS;
	if (cap < 2 || cap > RTM_TS_MAX_CAP) {
		errno = EINVAL;
		return NULL;
	}
	ts = calloc(1, sizeof(*ts));
	if (!ts)
		return NULL;
	ts->pts = calloc(cap, sizeof(*ts->pts));
	if (!ts->pts) {
		free(ts);
		return NULL;
	}
	ts->interval_ns = interval_ns;
	ts->stride_ns = interval_ns;
	ts->cap = cap;
	return ts;
}

/**
 * rtm_ts_free - release a series
 * @ts: the series, may be NULL
 */
void rtm_ts_free(struct rtm_ts *ts)
{
	if (!ts)
		return;
	free(ts->pts);
	free(ts->hists);
	free(ts);
}

/**
 * rtm_ts_reset - drop all points and return to the initial stride
 * @ts: the series
 */
void rtm_ts_reset(struct rtm_ts *ts)
{
	ts->n = 0;
	ts->stride_ns = ts->interval_ns;
}

/**
 * rtm_ts_keep_hists - keep each point's histogram from now on (see timeseries.h)
 * @ts: the series
 *
 * Returns 0 or -ENOMEM.
 */
int rtm_ts_keep_hists(struct rtm_ts *ts)
{
	if (!ts->hists)
		ts->hists = calloc((size_t)ts->cap * RTM_TS_HIST_N, sizeof(*ts->hists));
	return ts->hists ? 0 : -ENOMEM;
}

uint64_t rtm_ts_hist_lo(unsigned int idx)
{
	return rtm_hist_index_lo(idx << RTM_TS_HIST_SHIFT);
}

/* Add point @src's histogram into point @dst's (a count saturates at UINT32_MAX). */
static void hist_fold(struct rtm_ts *ts, uint32_t dst, uint32_t src)
{
	uint32_t *d = &ts->hists[(size_t)dst * RTM_TS_HIST_N];
	const uint32_t *s = &ts->hists[(size_t)src * RTM_TS_HIST_N];
	unsigned int k;

	for (k = 0; k < RTM_TS_HIST_N; k++)
		d[k] = s[k] > UINT32_MAX - d[k] ? UINT32_MAX : d[k] + s[k];
}

static uint64_t pt_end(const struct rtm_ts_point *p)
{
	uint64_t end = p->start_ns + p->width_ns;

	return end < p->start_ns ? UINT64_MAX : end;
}

/**
 * rtm_ts_point_merge - fold summary @b into @a
 * @a: the point that grows to cover both
 * @b: the point folded in
 */
void rtm_ts_point_merge(struct rtm_ts_point *a, const struct rtm_ts_point *b)
{
	uint64_t start = a->start_ns < b->start_ns ? a->start_ns : b->start_ns;
	uint64_t end_a = pt_end(a), end_b = pt_end(b);
	uint64_t merged = (uint64_t)a->merged + b->merged + 1;

	a->start_ns = start;
	a->width_ns = (end_a > end_b ? end_a : end_b) - start;
	a->count += b->count;
	if (b->min_ns < a->min_ns)
		a->min_ns = b->min_ns;
	if (b->max_ns > a->max_ns)
		a->max_ns = b->max_ns;
	if (b->p99_ns > a->p99_ns)
		a->p99_ns = b->p99_ns;
	a->merged = merged > UINT32_MAX ? UINT32_MAX : (uint32_t)merged;
}

/* Does @p belong to the last point, which is narrower than the stride? */
static bool ts_open(const struct rtm_ts *ts, const struct rtm_ts_point *p)
{
	const struct rtm_ts_point *last = &ts->pts[ts->n - 1];

	if (last->width_ns >= ts->stride_ns)
		return false;
	return p->start_ns < last->start_ns || p->start_ns - last->start_ns < ts->stride_ns;
}

static void ts_compact(struct rtm_ts *ts)
{
	uint32_t i, j;

	for (i = 0, j = 0; j + 1 < ts->n; i++, j += 2) {
		ts->pts[i] = ts->pts[j];
		rtm_ts_point_merge(&ts->pts[i], &ts->pts[j + 1]);
		if (ts->hists) {
			hist_fold(ts, j, j + 1);
			memmove(&ts->hists[(size_t)i * RTM_TS_HIST_N],
				&ts->hists[(size_t)j * RTM_TS_HIST_N],
				RTM_TS_HIST_N * sizeof(*ts->hists));
		}
	}
	if (j < ts->n) {
		if (ts->hists)
			memmove(&ts->hists[(size_t)i * RTM_TS_HIST_N],
				&ts->hists[(size_t)j * RTM_TS_HIST_N],
				RTM_TS_HIST_N * sizeof(*ts->hists));
		ts->pts[i++] = ts->pts[j];
	}
	ts->n = i;
	if (ts->stride_ns <= UINT64_MAX / 2)
		ts->stride_ns *= 2;
}

/**
 * rtm_ts_add - append one interval's summary (see timeseries.h)
 * @ts: the series
 * @p: the summary; copied
 */
void rtm_ts_add(struct rtm_ts *ts, const struct rtm_ts_point *p)
{
	rtm_ts_add_hist(ts, p, NULL);
}

/* Add the samples of @h into point @i's histogram (nothing without one). */
static void hist_add(struct rtm_ts *ts, uint32_t i, const struct rtm_hist *h)
{
	uint32_t *d = &ts->hists[(size_t)i * RTM_TS_HIST_N];
	unsigned int k;

	for (k = 0; h && k < RTM_HIST_NCOUNTS; k++) {
		uint32_t *c = &d[k >> RTM_TS_HIST_SHIFT];
		uint64_t n = h->counts[k];

		if (n)
			*c = n > UINT32_MAX - *c ? UINT32_MAX : *c + (uint32_t)n;
	}
}

/**
 * rtm_ts_add_hist - rtm_ts_add with the interval's histogram (see timeseries.h)
 * @ts: the series
 * @p: the summary; copied
 * @h: the interval's samples, NULL for none; ignored when the series keeps no histograms
 */
void rtm_ts_add_hist(struct rtm_ts *ts, const struct rtm_ts_point *p, const struct rtm_hist *h)
{
	if (!ts->n || !ts_open(ts, p)) {
		if (ts->n == ts->cap)
			ts_compact(ts);
		if (!ts->n || !ts_open(ts, p)) {
			ts->pts[ts->n++] = *p;
			if (ts->hists) {
				memset(&ts->hists[(size_t)(ts->n - 1) * RTM_TS_HIST_N], 0,
				       RTM_TS_HIST_N * sizeof(*ts->hists));
				hist_add(ts, ts->n - 1, h);
			}
			return;
		}
	}
	rtm_ts_point_merge(&ts->pts[ts->n - 1], p);
	if (ts->hists)
		hist_add(ts, ts->n - 1, h);
}

/* ---------------------------------------------------------------- JSON */

/* "hists": each point's non-empty buckets as [lo_ns, count]; NULL when out of memory. */
static json_t *hists_to_json(const struct rtm_ts *ts)
{
	json_t *all = json_array();
	uint32_t i;
	unsigned int k;

	for (i = 0; all && i < ts->n; i++) {
		const uint32_t *c = &ts->hists[(size_t)i * RTM_TS_HIST_N];
		json_t *one = json_array();

		for (k = 0; one && k < RTM_TS_HIST_N; k++)
			if (c[k] && json_array_append_new(one, json_pack("[o, I]",
					rtm_json_u64(rtm_ts_hist_lo(k)), (json_int_t)c[k]))) {
				json_decref(one);
				one = NULL;
			}
		if (json_array_append_new(all, one)) {
			json_decref(all);
			all = NULL;
		}
	}
	return all;
}

/**
 * rtm_ts_to_json - the JSON form of a series (see timeseries.h)
 * @ts: the series
 *
 * Returns a new reference, or NULL when out of memory.
 */
json_t *rtm_ts_to_json(const struct rtm_ts *ts)
{
	json_t *obj = json_object(), *pts = json_array();
	uint32_t i;
	int bad = 0;

	if (!obj || !pts) {
		json_decref(obj);
		json_decref(pts);
		return NULL;
	}
	bad |= json_object_set_new(obj, "interval_ns", rtm_json_u64(ts->interval_ns));
	bad |= json_object_set_new(obj, "stride_ns", rtm_json_u64(ts->stride_ns));
	bad |= json_object_set_new(obj, "cap", json_integer(ts->cap));
	for (i = 0; i < ts->n && !bad; i++) {
		const struct rtm_ts_point *p = &ts->pts[i];
		json_t *a = json_array();

		bad |= json_array_append_new(a, rtm_json_u64(p->start_ns));
		bad |= json_array_append_new(a, rtm_json_u64(p->width_ns));
		bad |= json_array_append_new(a, rtm_json_u64(p->count));
		bad |= json_array_append_new(a, p->count ? rtm_json_u64(p->min_ns) : json_null());
		bad |= json_array_append_new(a, rtm_json_u64(p->max_ns));
		bad |= json_array_append_new(a, rtm_json_u64(p->p99_ns));
		bad |= json_array_append_new(a, json_integer(p->merged));
		bad |= json_array_append_new(pts, a);
	}
	bad |= json_object_set_new(obj, "points", pts);
	if (ts->hists && !bad)
		bad |= json_object_set_new(obj, "hists", hists_to_json(ts));
	if (bad) {
		json_decref(obj);
		return NULL;
	}
	return obj;
}

#define JERR(...) rtm_error_set(err, "time series JSON: " __VA_ARGS__)

static int parse_point(struct rtm_ts_point *p, const json_t *a, size_t i, struct rtm_error *err)
{
	static const char *const names[7] = {
		"start", "width", "count", "min", "max", "p99", "merged",
	};
	uint64_t v[7];
	size_t k;

	if (!json_is_array(a) || json_array_size(a) != 7)
		return JERR("point %zu is not [start, width, count, min, max, p99, merged]", i);
	for (k = 0; k < 7; k++) {
		if (k == 3 && json_is_null(json_array_get(a, k))) {
			v[k] = UINT64_MAX;
			continue;
		}
		if (rtm_json_get_u64(json_array_get(a, k), &v[k]))
			return JERR("point %zu: %s is not a non-negative integer", i, names[k]);
	}
	p->start_ns = v[0];
	p->width_ns = v[1];
	p->count = v[2];
	p->min_ns = v[3];
	p->max_ns = v[4];
	p->p99_ns = v[5];
	if (v[6] > UINT32_MAX)
		return JERR("point %zu: merged %" PRIu64 " is out of range", i, v[6]);
	p->merged = (uint32_t)v[6];
	if (p->start_ns + p->width_ns < p->start_ns)
		return JERR("point %zu: start + width overflows 64 bits", i);
	if (!p->count) {
		if (!json_is_null(json_array_get(a, 3)) || p->max_ns || p->p99_ns)
			return JERR("point %zu: count is 0 but min is not null or max/p99 not 0",
				    i);
		return 0;
	}
	if (json_is_null(json_array_get(a, 3)))
		return JERR("point %zu: min is null but count is %" PRIu64, i, p->count);
	if (p->min_ns > p->p99_ns || p->p99_ns > p->max_ns)
		return JERR("point %zu: not min <= p99 <= max (%" PRIu64 ", %" PRIu64 ", %"
			    PRIu64 ")", i, p->min_ns, p->p99_ns, p->max_ns);
	return 0;
}

/* Point @i's histogram from "hists"[@i]: known buckets, ascending, adding up to its count. */
static int parse_hist(struct rtm_ts *ts, uint32_t i, const json_t *a, struct rtm_error *err)
{
	uint32_t *c = &ts->hists[(size_t)i * RTM_TS_HIST_N];
	uint64_t sum = 0, lo, n;
	bool saturated = false;
	const json_t *b;
	size_t j;
	int prev = -1;

	if (!json_is_array(a))
		return JERR("hists[%u] is not an array of [lo_ns, count]", i);
	json_array_foreach(a, j, b) {
		unsigned int k;

		if (!json_is_array(b) || json_array_size(b) != 2 ||
		    rtm_json_get_u64(json_array_get(b, 0), &lo) ||
		    rtm_json_get_u64(json_array_get(b, 1), &n))
			return JERR("hists[%u][%zu] is not [lo_ns, count]", i, j);
		k = rtm_ts_hist_index(lo);
		if (rtm_ts_hist_lo(k) != lo || (int)k <= prev)
			return JERR("hists[%u][%zu]: %" PRIu64 " is not the next bucket's lowest "
				    "value", i, j, lo);
		if (!n || n > UINT32_MAX)
			return JERR("hists[%u][%zu]: count %" PRIu64 " is outside 1..%u", i, j, n,
				    UINT32_MAX);
		c[k] = (uint32_t)n;
		saturated |= n == UINT32_MAX;
		sum += n;
		prev = (int)k;
	}
	if (sum != ts->pts[i].count && !(saturated && sum < ts->pts[i].count))
		return JERR("hists[%u] holds %" PRIu64 " samples, its point %" PRIu64, i, sum,
			    ts->pts[i].count);
	return 0;
}

/* The optional "hists", one per point. */
static int parse_hists(struct rtm_ts *ts, const json_t *obj, struct rtm_error *err)
{
	const json_t *h = json_object_get(obj, "hists");
	uint32_t i;
	int ret;

	if (!h)
		return 0;
	if (!json_is_array(h) || json_array_size(h) != ts->n)
		return JERR("\"hists\" is not an array of one histogram per point");
	if (rtm_ts_keep_hists(ts))
		return rtm_error_setn(err, -ENOMEM, "time series JSON: out of memory");
	for (i = 0; i < ts->n; i++) {
		ret = parse_hist(ts, i, json_array_get(h, i), err);
		if (ret)
			return ret;
	}
	return 0;
}

static int ts_parse(struct rtm_ts **out, const json_t *obj, struct rtm_error *err)
{
	uint64_t interval, stride, cap, prev_end = 0;
	const json_t *pts;
	struct rtm_ts *ts;
	size_t i;
	int ret;

	if (!json_is_object(obj))
		return JERR("not an object");
	ret = rtm_json_get_field(obj, "interval_ns", &interval, "time series JSON", err);
	if (!ret)
		ret = rtm_json_get_field(obj, "stride_ns", &stride, "time series JSON", err);
	if (!ret)
		ret = rtm_json_get_field(obj, "cap", &cap, "time series JSON", err);
	if (ret)
		return ret;
	if (!interval)
		return JERR("interval_ns is 0");
	if (stride < interval || stride % interval || (stride / interval & (stride / interval - 1)))
		return JERR("stride_ns %" PRIu64 " is not interval_ns %" PRIu64
			    " times a power of two", stride, interval);
	if (cap < 2 || cap > RTM_TS_MAX_CAP)
		return JERR("cap %" PRIu64 " is outside 2..%u", cap, RTM_TS_MAX_CAP);
	pts = json_object_get(obj, "points");
	if (!json_is_array(pts))
		return JERR("\"points\" is missing or not an array");
	if (json_array_size(pts) > cap)
		return JERR("%zu points but cap is %" PRIu64, json_array_size(pts), cap);

	ts = rtm_ts_alloc(interval, (uint32_t)cap);
	if (!ts)
		return rtm_error_setn(err, -ENOMEM, "time series JSON: out of memory");
	ts->stride_ns = stride;
	for (i = 0; i < json_array_size(pts); i++) {
		struct rtm_ts_point *p = &ts->pts[i];

		ret = parse_point(p, json_array_get(pts, i), i, err);
		if (!ret && p->start_ns < prev_end)
			ret = JERR("point %zu starts at %" PRIu64 ", before the previous one ends",
				   i, p->start_ns);
		if (ret) {
			rtm_ts_free(ts);
			return ret;
		}
		prev_end = p->start_ns + p->width_ns;
		ts->n++;
	}
	ret = parse_hists(ts, obj, err);
	if (ret) {
		rtm_ts_free(ts);
		return ret;
	}
	*out = ts;
	return 0;
}

/**
 * rtm_ts_from_json - read and validate the JSON form (see timeseries.h)
 * @obj: the JSON object
 * @err: a one-line message on error, may be NULL
 *
 * Returns a new series, or NULL with errno set.
 */
struct rtm_ts *rtm_ts_from_json(const json_t *obj, struct rtm_error *err)
{
	struct rtm_ts *ts = NULL;
	int ret = ts_parse(&ts, obj, err);

	if (ret) {
		errno = -ret;
		return NULL;
	}
	return ts;
}
