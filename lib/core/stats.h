/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - confidence intervals of percentiles from a latency histogram, and
 * of a ratio of geometric means from per-run (or per-batch) values.
 *
 * Distribution-free (order-statistic) intervals: for n i.i.d. samples the
 * number of them at or below the true p-quantile is Binomial(n, p), so the
 * k-th smallest sample lies below it with a probability the binomial gives.
 * Choosing two ranks from the binomial's tails gives an interval that covers
 * the true quantile with at least the asked confidence, whatever the latency
 * distribution. The binomial is summed exactly where its variance is small
 * (the tail percentiles that matter) and taken as normal with continuity
 * correction elsewhere. A histogram holds a rank only to its bucket, so the
 * interval's ends are the bucket edges (wider by at most 1/256, never
 * narrower).
 *
 * The samples of a latency run are not independent (a stall delays several
 * wake-ups; host noise comes in bursts), so the effective sample count is
 * smaller than n and these intervals are optimistic: they capture the
 * sampling noise within one run, not the difference between two runs of the
 * same box. Comparisons therefore use rtm_ratio_ci_logs() over whole runs, or
 * resample a run's time-series intervals in blocks (core/pctboot.h).
 */
#ifndef RTM_STATS_H
#define RTM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"

/*
 * The one rule for when a percentile is a number, in every output: percentile
 * p of n samples is one when at least RTM_STATS_MIN_BEYOND samples are
 * expected beyond it, n (1 - p/100) >= 10. With fewer, the nearest rank is one
 * of the few largest samples (p99.99 of 9,966 is the max) and says nothing the
 * max does not; such a percentile is shown as "-" and is null in JSON, with
 * rtm_pct_few_reason(). Intervals (rtm_hist_quantile_ci()) follow the same rule.
 */
#define RTM_STATS_MIN_BEYOND	10

/* The fewest samples for which percentile @pct (0 < pct < 100) is a number. */
uint64_t rtm_pct_min_samples(double pct);
/* Whether percentile @pct of @n samples is a number (p0 and p100: any sample). */
bool rtm_pct_defined(uint64_t n, double pct);
/* Why it is not: "too few samples: 9966, 100000 needed". */
void rtm_pct_few_reason(char *buf, size_t len, uint64_t n, double pct);

/* Inverse of the standard normal distribution function, 0 < @q < 1. */
double rtm_norm_quantile(double q);

/**
 * rtm_quantile_ci_ranks - ranks (1-based) of a percentile's confidence interval
 * @n: samples
 * @p: percentile, 0 < p < 100
 * @conf: confidence, 0 < conf < 1 (0.95)
 * @lo_rank, @hi_rank: the interval is [X(lo_rank), X(hi_rank)] of the sorted samples
 *
 * Returns 0, or -ERANGE when @n is too small for such an interval to exist
 * (every rank would have to lie beyond the largest or below the smallest sample).
 */
int rtm_quantile_ci_ranks(uint64_t n, double p, double conf, uint64_t *lo_rank,
			  uint64_t *hi_rank);

/**
 * rtm_hist_rank_ranges - the value range of ranked samples
 * @ranks: 1-based ranks, ascending, each <= h->count
 * @lo, @hi: for each rank, the lowest and highest value the sample can have
 *	(its bucket, narrowed to the exact min/max; exact for rank 1 and rank count)
 */
void rtm_hist_rank_ranges(const struct rtm_hist *h, const uint64_t *ranks, int n, uint64_t *lo,
			  uint64_t *hi);

struct rtm_quantile_ci {
	double pct;		/* percentile, 0..100 */
	double conf;		/* confidence, 0..1 */
	uint64_t n;		/* samples */
	double beyond;		/* expected samples above the percentile: n (1 - p) */
	bool valid;		/* beyond >= RTM_STATS_MIN_BEYOND and both ranks exist */
	uint64_t value_ns;	/* the percentile, as rtm_hist_percentile() gives it */
	uint64_t lo_ns, hi_ns;	/* the interval (when valid) */
	uint64_t lo_rank, hi_rank;
};

/* The percentile @pct of @h with its @conf confidence interval. */
void rtm_hist_quantile_ci(const struct rtm_hist *h, double pct, double conf,
			  struct rtm_quantile_ci *ci);

/* Inverse of Student's t distribution function with @df > 0 degrees of freedom (fractional too). */
double rtm_t_quantile(double q, double df);

/*
 * A ratio of geometric means with its confidence interval, from two samples of
 * logarithms (per-run percentiles, or per-batch means of a run's time series).
 * Welch's t interval when each sample has at least two values; when one has a
 * single value, Student's pooled-variance interval (that value's variance is
 * taken to equal the other sample's). The ratio is exp(mean(b) - mean(a)).
 */
struct rtm_ratio_ci {
	int na, nb;		/* values on each side */
	bool welch;		/* Welch (both >= 2) or pooled */
	bool valid;		/* an interval exists (na + nb >= 3, variance known) */
	double df;		/* degrees of freedom */
	double ratio;		/* exp(mean(b) - mean(a)) */
	double lo, hi;		/* the interval of the ratio (when valid) */
};

/*
 * @floor_a, @floor_b: the least variance each side's values can have (0: none).
 * A few values can agree by chance (two runs' percentiles in the same
 * histogram bucket) and give a variance of 0 and a zero-width interval; a
 * floor, such as the values' own sampling variance, keeps the interval honest.
 * Returns 0, or -EINVAL when a side has no value.
 */
int rtm_ratio_ci_logs(const double *log_a, int na, const double *log_b, int nb, double conf,
		      double floor_a, double floor_b, struct rtm_ratio_ci *ci);

#endif
