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
 *
 * A series may also keep each point's histogram (rtm_ts_keep_hists), at a
 * coarser resolution than struct rtm_hist's: RTM_TS_HIST_SHIFT bits fewer, so
 * a bucket is 1/8 of a power of two above 512 ns and 32 ns wide below. Merged
 * points add their histograms, which stay exact. They let a comparison
 * resample a run's intervals and take the percentile of the resampled run
 * (core/pctboot.h), which the per-interval p99 alone cannot give.
 */
#ifndef RTM_TIMESERIES_H
#define RTM_TIMESERIES_H

#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "core/hist.h"

#define RTM_TS_DEFAULT_INTERVAL_NS	1000000000ULL
#define RTM_TS_DEFAULT_CAP		512
#define RTM_TS_MAX_CAP			(1u << 24)
#define RTM_TS_HIST_SHIFT		5
#define RTM_TS_HIST_N			(RTM_HIST_NCOUNTS >> RTM_TS_HIST_SHIFT)

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
	/* NULL, or cap * RTM_TS_HIST_N counts: point i's at i * RTM_TS_HIST_N (saturating) */
	uint32_t *hists;
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

/*
 * Keep each point's histogram from now on (allocates them, cap * RTM_TS_HIST_N *
 * 4 bytes); 0 or -ENOMEM. A series that keeps them takes them from
 * rtm_ts_add_hist; rtm_ts_add gives a point none (all counts 0).
 */
int rtm_ts_keep_hists(struct rtm_ts *ts);
/* rtm_ts_add, with the interval's samples @h (NULL: none) when the series keeps histograms. */
void rtm_ts_add_hist(struct rtm_ts *ts, const struct rtm_ts_point *p, const struct rtm_hist *h);
/* The histogram bucket of a value, and a bucket's lowest value. */
static inline unsigned int rtm_ts_hist_index(uint64_t v_ns)
{
	return rtm_hist_index(v_ns > RTM_HIST_MAX_NS ? RTM_HIST_MAX_NS : v_ns) >>
	       RTM_TS_HIST_SHIFT;
}
uint64_t rtm_ts_hist_lo(unsigned int idx);

/* Fold @b into @a (both summaries; p99 becomes max of the two). */
void rtm_ts_point_merge(struct rtm_ts_point *a, const struct rtm_ts_point *b);

/*
 * JSON: {"interval_ns", "stride_ns", "cap", "points": [[start, width, count, min, max,
 * p99, merged], ...]} (min is null for empty points; a 64-bit value above 2^63 - 1
 * is written as a decimal string), and when the series keeps histograms
 * "hists": [[[lo_ns, count], ...], ...], one per point, non-empty buckets in
 * ascending order, their counts adding up to the point's. rtm_ts_from_json()
 * validates it and returns NULL with errno set (EINVAL with a message in @err,
 * or ENOMEM) on failure.
 */
json_t *rtm_ts_to_json(const struct rtm_ts *ts);
struct rtm_ts *rtm_ts_from_json(const json_t *obj, struct rtm_error *err);

#endif
