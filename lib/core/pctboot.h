/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pctboot.h - a confidence interval for the ratio of two runs' percentiles
 * (each of its whole histogram, the number a table shows), by a block
 * bootstrap over the intervals of each run's time series.
 *
 * A run's samples are not independent (a stall delays several wake-ups, load
 * comes in bursts), so resampling single samples would give an interval far
 * too narrow. Resampling whole intervals, in blocks of consecutive ones, keeps
 * the dependence inside an interval and between neighbours: each resample of
 * a run of n intervals is ceil(n / L) blocks of L consecutive intervals
 * (wrapping around at the end, the circular block bootstrap), cut to n
 * intervals, with L = sqrt(n) rounded. The resampled intervals' histograms
 * (struct rtm_ts' per-point histograms, all CPUs added) are merged and the
 * percentile taken; the two runs are resampled independently and the
 * percentile interval of the ratio's resampled logarithms is the interval.
 *
 * The interval histograms are coarser than the run's (1/8 of a power of two);
 * inside a coarse bucket the rank is placed by the run's whole histogram at
 * full resolution, so resampling every interval once gives the run's own
 * percentile exactly. The point estimate is the ratio of the whole runs'
 * percentiles; should the percentile interval not hold it (a skewed resampling
 * distribution), the interval is stretched to it and says so.
 *
 * Resamples come from a fixed seed: the same inputs give the same interval.
 */
#ifndef RTM_PCTBOOT_H
#define RTM_PCTBOOT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/hist.h"
#include "core/timeseries.h"

#define RTM_PCTBOOT_RESAMPLES		2000
#define RTM_PCTBOOT_MIN_INTERVALS	8	/* fewer on a side: no interval */
#define RTM_PCTBOOT_SEED		UINT64_C(0x72746d6561737572)

/* One run: its intervals in time order and its whole histogram. */
struct rtm_pctboot_run {
	int n;				/* intervals */
	const uint64_t *counts;		/* interval j's buckets at j * RTM_TS_HIST_N */
	const struct rtm_hist *whole;	/* every sample of the run, full resolution */
};

struct rtm_pctboot {
	int resamples;
	int block_a, block_b;		/* block lengths, in intervals */
	double ratio;			/* b / a of the whole histograms' percentiles */
	double lo, hi;			/* the interval */
	bool stretched;			/* the percentile interval missed ratio: stretched */
};

/* The block length for @n intervals: sqrt(n), rounded, at least 1. */
int rtm_pctboot_block(int n);

/**
 * rtm_pctboot_ratio - interval of the ratio of percentile @pct, run @b against run @a
 * @conf: confidence, 0 < conf < 1
 *
 * Returns 0, -EINVAL (a run with fewer than RTM_PCTBOOT_MIN_INTERVALS
 * intervals, or an empty one: no interval) or -ENOMEM.
 */
int rtm_pctboot_ratio(const struct rtm_pctboot_run *a, const struct rtm_pctboot_run *b,
		      double pct, double conf, struct rtm_pctboot *out);

#endif
