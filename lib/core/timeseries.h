/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timeseries.h - per-interval latency summaries of one CPU with bounded memory.
 *
 * Each point covers [start_ns, start_ns + width_ns) and holds count, min, max and
 * p99 of the samples in it. The series never holds more than its capacity: when
 * it is full, neighbouring points are merged pairwise and the stride (the width
 * new points accumulate to) doubles, so a run of days keeps its whole shape at a
 * coarser resolution. A merged point's p99 is the larger of the two p99s (an
 * upper bound: the exact p99 of the union is not recoverable) and it says so
 * through merged > 0.
 */
#ifndef RTM_TIMESERIES_H
#define RTM_TIMESERIES_H

#include <stdint.h>

#include <jansson.h>

#include "core/error.h"

#define RTM_TS_DEFAULT_INTERVAL_NS	1000000000ULL
#define RTM_TS_DEFAULT_CAP		512
#define RTM_TS_MAX_CAP			(1u << 24)

struct rtm_ts_point {
	uint64_t start_ns;	/* interval start, ns since the run's start */
	uint64_t width_ns;	/* interval length */
	uint64_t count;		/* samples */
	uint64_t min_ns;	/* UINT64_MAX when count is 0 */
	uint64_t max_ns;
	uint64_t p99_ns;	/* exact within histogram precision, or upper bound if merged */
	uint32_t merged;	/* how many original intervals were folded in, minus one */
};

struct rtm_ts {
	uint64_t interval_ns;	/* width of a fresh point */
	uint64_t stride_ns;	/* current width new points accumulate to */
	uint32_t cap;		/* maximum points held */
	uint32_t n;		/* points held */
	struct rtm_ts_point *pts;
};

/*
 * alloc/free act on memory only; @interval_ns 0 means RTM_TS_DEFAULT_INTERVAL_NS,
 * @cap 0 means RTM_TS_DEFAULT_CAP, otherwise 2 <= @cap <= RTM_TS_MAX_CAP.
 * Returns NULL with errno EINVAL or ENOMEM.
 */
struct rtm_ts *rtm_ts_alloc(uint64_t interval_ns, uint32_t cap);
void rtm_ts_free(struct rtm_ts *ts);
void rtm_ts_reset(struct rtm_ts *ts);

/**
 * rtm_ts_add - append one interval's summary
 *
 * @p->start_ns must not be earlier than the last point's end. Points arriving
 * while the stride is wider than one interval are folded into the last point
 * until it reaches the stride. Never allocates once allocated.
 */
void rtm_ts_add(struct rtm_ts *ts, const struct rtm_ts_point *p);

/* Fold @b into @a (both summaries; p99 becomes max of the two). */
void rtm_ts_point_merge(struct rtm_ts_point *a, const struct rtm_ts_point *b);

/*
 * JSON: {"interval_ns", "stride_ns", "cap", "points": [[start, width, count, min, max,
 * p99, merged], ...]} (min is null for empty points; a 64-bit value above 2^63 - 1
 * is written as a decimal string). rtm_ts_from_json() validates it and returns
 * NULL with errno set (EINVAL with a message in @err, or ENOMEM) on failure.
 */
json_t *rtm_ts_to_json(const struct rtm_ts *ts);
struct rtm_ts *rtm_ts_from_json(const json_t *obj, struct rtm_error *err);

#endif
