/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hist.h - log-linear latency histogram of nanosecond values.
 *
 * Layout (HdrHistogram-style, unit 1 ns): values below 2^RTM_HIST_SUB_BITS are
 * counted exactly; above that every power-of-two range is split into
 * 2^(RTM_HIST_SUB_BITS - 1) equal buckets, so a bucket is never wider than
 * 1/2^(RTM_HIST_SUB_BITS - 1) of its lowest value (1/256 with 9 bits).
 * Values up to RTM_HIST_MAX_NS (2^43 ns, about 2.4 hours) are tracked;
 * larger values land in the top bucket and are counted as saturated, while
 * min/max/sum stay exact.
 *
 * Recording is O(1), allocation-free and lock-free: one histogram per thread,
 * readers take copies (rtm_hist_copy) or merge.
 *
 * Every writer keeps the counters outside those of min_ns and max_ns at zero
 * (all of them when count is 0): copies, differences and percentiles touch
 * only the counters between, a few kilobytes of a live histogram's 72.
 */
#ifndef RTM_HIST_H
#define RTM_HIST_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"

#include "core/hist_layout.h"	/* RTM_HIST_SUB_BITS, _MAX_BITS, _NCOUNTS */

#define RTM_HIST_MAX_NS		((UINT64_C(1) << RTM_HIST_MAX_BITS) - 1)

struct rtm_hist {
	uint64_t count;			/* samples recorded */
	uint64_t min_ns;		/* exact; UINT64_MAX when empty */
	uint64_t max_ns;		/* exact; 0 when empty */
	uint64_t sum_ns;		/* exact sum (wraps after ~584 years of latency) */
	unsigned __int128 sum_sq;	/* exact sum of squares, for the deviation */
	uint64_t saturated;		/* samples above RTM_HIST_MAX_NS */
	uint64_t counts[RTM_HIST_NCOUNTS];
};

/* One non-empty bucket, as the iterator and the JSON form see it. */
struct rtm_hist_bucket {
	uint64_t lo_ns;		/* lowest value that maps to this bucket */
	uint64_t hi_ns;		/* highest value that maps to this bucket */
	uint64_t count;
};

/*
 * alloc/free act on memory only. rtm_hist_alloc() returns an empty histogram
 * whose pages are already touched (no page fault on a first record), or NULL
 * with errno set.
 */
struct rtm_hist *rtm_hist_alloc(void);
void rtm_hist_free(struct rtm_hist *h);
void rtm_hist_reset(struct rtm_hist *h);
void rtm_hist_copy(struct rtm_hist *dst, const struct rtm_hist *src);

/* Index of the counter a value (<= RTM_HIST_MAX_NS) falls into. */
static inline unsigned int rtm_hist_index(uint64_t v_ns)
{
	/* 63 ^ clz == 63 - clz == bsr: lets the compiler use bsr/lzcnt alone */
	unsigned int b = (63 ^ __builtin_clzll(v_ns | ((1u << RTM_HIST_SUB_BITS) - 1))) -
			 (RTM_HIST_SUB_BITS - 1);

	return (b << (RTM_HIST_SUB_BITS - 1)) + (unsigned int)(v_ns >> b);
}

/* The value range [lo, hi] of a counter. */
uint64_t rtm_hist_index_lo(unsigned int idx);
uint64_t rtm_hist_index_hi(unsigned int idx);

/**
 * rtm_hist_record - count one value; O(1), no allocation, no lock
 */
static inline void rtm_hist_record(struct rtm_hist *h, uint64_t v_ns)
{
	uint64_t x = v_ns;

	/*
	 * Rare cases as predicted-not-taken branches: measured cheaper than
	 * cmov/adc on the common path (scripts/bench/hist).
	 */
	if (__builtin_expect(x > RTM_HIST_MAX_NS, 0)) {
		h->saturated++;
		x = RTM_HIST_MAX_NS;
	}
	h->counts[rtm_hist_index(x)]++;
	h->count++;
	h->sum_ns += v_ns;
	h->sum_sq += (unsigned __int128)v_ns * v_ns;
	if (__builtin_expect(v_ns < h->min_ns, 0))
		h->min_ns = v_ns;
	if (__builtin_expect(v_ns > h->max_ns, 0))
		h->max_ns = v_ns;
}

/* Add @n samples of value @v_ns at once. */
void rtm_hist_record_n(struct rtm_hist *h, uint64_t v_ns, uint64_t n);

/**
 * rtm_hist_record_corrected - coordinated-omission corrected record
 * @h: the corrected histogram (keep the raw one separately)
 * @v_ns: measured latency
 * @interval_ns: expected interval between samples (0: plain record)
 *
 * HdrHistogram's recordValueWithExpectedInterval: records @v_ns and, when it
 * exceeds @interval_ns, the samples the stall swallowed: v - i, v - 2i, ...
 * down to (and including) the first value >= i. Cost is bounded by the number
 * of buckets spanned, not by v / i.
 */
void rtm_hist_record_corrected(struct rtm_hist *h, uint64_t v_ns, uint64_t interval_ns);

void rtm_hist_merge(struct rtm_hist *dst, const struct rtm_hist *src);

/* Subtract an earlier snapshot: dst = later - earlier (counts only; min/max of
 * the difference are estimated from its buckets). Returns -EINVAL if @earlier is
 * not a prefix of @later. */
int rtm_hist_diff(struct rtm_hist *dst, const struct rtm_hist *later,
		  const struct rtm_hist *earlier);

/*
 * The max_ns rtm_hist_diff(@later, @earlier) would give (0: nothing added),
 * found from the top down without the difference; @earlier must be an earlier
 * snapshot of the same histogram (its counters are not checked).
 */
uint64_t rtm_hist_diff_max(const struct rtm_hist *later, const struct rtm_hist *earlier);

/* Exact mean and population standard deviation from sum_ns/sum_sq; 0 when empty. */
double rtm_hist_mean(const struct rtm_hist *h);
double rtm_hist_stddev(const struct rtm_hist *h);

/**
 * rtm_hist_percentile - value at percentile @p (0..100), nearest-rank
 *
 * Returns the midpoint of the bucket that holds the rank ceil(p/100 * count),
 * clamped to [min, max]; p = 0 gives min, p = 100 gives max exactly. The error
 * is at most half a bucket. A rank that falls among the saturated samples gives
 * max_ns (an upper bound, exact when they share one value). @p is taken to 12
 * significant digits, so that 99.9 of 1000 samples is rank 999, not 1000.
 * Returns 0 for an empty histogram.
 */
uint64_t rtm_hist_percentile(const struct rtm_hist *h, double p);
/* The rank rtm_hist_percentile takes: ceil(p / 100 * count) for p to 12 digits, 1..count. */
uint64_t rtm_hist_rank(uint64_t count, double p);
/* Several percentiles in one pass; @ps must be ascending. */
void rtm_hist_percentiles(const struct rtm_hist *h, const double *ps, int n, uint64_t *out);

/**
 * rtm_hist_next - iterate over non-empty buckets
 * @pos: start with 0; updated to continue after the returned bucket
 *
 * Returns true and fills @b while there are buckets left. The top bucket's
 * hi_ns is max_ns when it holds saturated samples.
 */
bool rtm_hist_next(const struct rtm_hist *h, unsigned int *pos, struct rtm_hist_bucket *b);

/*
 * The value a bucket stands for in fixed-width tables (histogram.txt, plots):
 * its midpoint, clamped to the histogram's exact min and max so the extremes
 * land in their own rows.
 */
uint64_t rtm_hist_bucket_value(const struct rtm_hist *h, const struct rtm_hist_bucket *b);

/*
 * JSON form: {"count", "min_ns", "max_ns", "sum_ns", "sum_sq" (decimal string),
 * "saturated", "sub_bits", "buckets": [[lo_ns, count], ...]} with non-empty
 * buckets only, in ascending order. min_ns is null when count is 0. A 64-bit
 * value above 2^63 - 1 (which a JSON integer cannot hold) is written as a
 * decimal string; both forms are read back. rtm_hist_from_json() validates it
 * (counts must add up, min/max/sums must fit the buckets) and on error leaves
 * @h empty, sets @err and returns -EINVAL.
 */
json_t *rtm_hist_to_json(const struct rtm_hist *h);
int rtm_hist_from_json(struct rtm_hist *h, const json_t *obj, struct rtm_error *err);

#endif
