// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats.c - order-statistic confidence intervals of percentiles (see stats.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"

/* Above this binomial variance the normal approximation is used (skewness < 0.003). */
#define EXACT_MAX_VAR	1e5

double rtm_norm_quantile(double q)
{
	double lo = -40.0, hi = 40.0;
	int i;

	/* bisection on the normal distribution function: 100 steps reach double precision */
	for (i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2.0;

		if (0.5 * erfc(-mid / M_SQRT2) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

/*
 * K ~ Binomial(n, q): *k_lo = the largest k with P(K <= k) <= a (-1 when even
 * P(K = 0) is larger), *k_hi = the smallest k with P(K > k) <= a.
 */
static int binom_tails(uint64_t n, double q, double a, int64_t *k_lo, int64_t *k_hi)
{
	double m = (double)n * q, var = m * (1.0 - q), sd = sqrt(var), total = 0, cum;
	int64_t mode, k0, k1, k, width;
	double *w;

	if (var > EXACT_MAX_VAR) {
		double z = rtm_norm_quantile(1.0 - a);

		*k_lo = (int64_t)floor(m - z * sd - 0.5);
		*k_hi = (int64_t)ceil(m + z * sd - 0.5);
		if (*k_lo < -1)
			*k_lo = -1;
		if (*k_hi > (int64_t)n)
			*k_hi = (int64_t)n;
		return 0;
	}
	/* sum the probabilities relative to the mode's, 40 deviations each side */
	mode = (int64_t)floor(((double)n + 1.0) * q);
	if (mode > (int64_t)n)
		mode = (int64_t)n;
	width = (int64_t)(40.0 * sd) + 64;
	k0 = mode - width > 0 ? mode - width : 0;
	k1 = mode + width < (int64_t)n ? mode + width : (int64_t)n;
	w = malloc((size_t)(k1 - k0 + 1) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	w[mode - k0] = 1.0;
	/* P(k - 1) / P(k) = k / (n - k + 1) * (1 - q) / q, and the reverse upwards */
	for (k = mode; k > k0; k--)
		w[k - 1 - k0] = w[k - k0] * (double)k / ((double)n - (double)k + 1.0) *
				(1.0 - q) / q;
	for (k = mode; k < k1; k++)
		w[k + 1 - k0] = w[k - k0] * ((double)n - (double)k) / ((double)k + 1.0) *
				q / (1.0 - q);
	for (k = k0; k <= k1; k++)
		total += w[k - k0];
	/* lower tail summed from below, upper tail from above: no cancellation */
	*k_lo = k0 - 1;
	for (k = k0, cum = 0; k <= k1; k++) {
		cum += w[k - k0];
		if (cum / total > a)
			break;
		*k_lo = k;
	}
	*k_hi = k1;
	for (k = k1, cum = 0; k >= k0; k--) {
		/* cum = P(K > k - 1) before adding: check P(K > k) <= a */
		if (cum / total > a)
			break;
		*k_hi = k;
		cum += w[k - k0];
	}
	free(w);
	return 0;
}

int rtm_quantile_ci_ranks(uint64_t n, double p, double conf, uint64_t *lo_rank,
			  uint64_t *hi_rank)
{
	double q = 1.0 - p / 100.0, a = (1.0 - conf) / 2.0;
	int64_t k_lo, k_hi;
	int ret;

	if (!n || !(p > 0 && p < 100) || !(conf > 0 && conf < 1))
		return -ERANGE;
	/*
	 * K, the samples above the true quantile, is Binomial(n, 1 - p).
	 * X(u) < q_p exactly when K <= n - u: u = n - k_lo makes that at most a.
	 * X(l) > q_p exactly when K >= n - l + 1: l = n - k_hi makes that at most a.
	 */
	ret = binom_tails(n, q, a, &k_lo, &k_hi);
	if (ret)
		return ret;
	if (k_lo < 0 || k_hi >= (int64_t)n)
		return -ERANGE;
	*hi_rank = n - (uint64_t)k_lo;
	*lo_rank = n - (uint64_t)k_hi;
	return 0;
}

void rtm_hist_rank_ranges(const struct rtm_hist *h, const uint64_t *ranks, int n, uint64_t *lo,
			  uint64_t *hi)
{
	struct rtm_hist_bucket b = { 0, 0, 0 };
	unsigned int pos = 0;
	uint64_t below = 0;
	bool have = false;
	int j;

	for (j = 0; j < n; j++) {
		uint64_t r = ranks[j];

		while (!have || below + b.count < r) {
			if (have)
				below += b.count;
			if (!rtm_hist_next(h, &pos, &b)) {
				/* counts add up to less than count: stay at max */
				b.lo_ns = b.hi_ns = h->max_ns;
				b.count = UINT64_MAX / 2;
			}
			have = true;
		}
		lo[j] = b.lo_ns > h->min_ns ? b.lo_ns : h->min_ns;
		hi[j] = b.hi_ns < h->max_ns ? b.hi_ns : h->max_ns;
		if (r <= 1)
			hi[j] = lo[j] = h->min_ns;
		if (r >= h->count)
			lo[j] = hi[j] = h->max_ns;
	}
}

uint64_t rtm_pct_min_samples(double pct)
{
	double x;

	if (pct <= 0 || pct >= 100)
		return 1;
	/* n >= 10 / (1 - p/100), taken to 9 digits: 100 - 99.9 is not 0.1 in binary */
	x = RTM_STATS_MIN_BEYOND * 100.0 / (100.0 - pct);
	x = ceil(x - x * 1e-9);
	return x < 1 ? 1 : (uint64_t)x;
}

bool rtm_pct_defined(uint64_t n, double pct)
{
	if (pct <= 0 || pct >= 100)
		return n > 0;
	return n >= rtm_pct_min_samples(pct);
}

void rtm_pct_few_reason(char *buf, size_t len, uint64_t n, double pct)
{
	snprintf(buf, len, "too few samples: %llu, %llu needed", (unsigned long long)n,
		 (unsigned long long)rtm_pct_min_samples(pct));
}

void rtm_hist_quantile_ci(const struct rtm_hist *h, double pct, double conf,
			  struct rtm_quantile_ci *ci)
{
	uint64_t ranks[2], lo[2], hi[2];

	ci->pct = pct;
	ci->conf = conf;
	ci->n = h->count;
	ci->beyond = (double)h->count * (1.0 - pct / 100.0);
	ci->value_ns = rtm_hist_percentile(h, pct);
	ci->valid = false;
	ci->lo_ns = ci->hi_ns = ci->value_ns;
	ci->lo_rank = ci->hi_rank = 0;
	if (!rtm_pct_defined(h->count, pct) ||
	    rtm_quantile_ci_ranks(h->count, pct, conf, &ranks[0], &ranks[1]))
		return;
	rtm_hist_rank_ranges(h, ranks, 2, lo, hi);
	ci->lo_rank = ranks[0];
	ci->hi_rank = ranks[1];
	ci->lo_ns = lo[0];
	ci->hi_ns = hi[1];
	ci->valid = true;
}

/*
 * The continued fraction of the regularized incomplete beta function (modified
 * Lentz evaluation); it converges fast for x < (a + 1) / (a + b + 2).
 */
static double beta_cf(double x, double a, double b)
{
	const double tiny = 1e-300;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), f;
	int m;

	d = fabs(d) < tiny ? tiny : d;
	d = 1.0 / d;
	f = d;
	for (m = 1; m <= 400; m++) {
		double m2 = 2.0 * m, num, delta;
		int step;

		for (step = 0; step < 2; step++) {
			/* even term m (b - m) x / ..., then odd term -(a + m)(a + b + m) x / ... */
			num = step == 0 ? m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)) :
			      -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
			d = 1.0 + num * d;
			d = fabs(d) < tiny ? tiny : d;
			c = 1.0 + num / c;
			c = fabs(c) < tiny ? tiny : c;
			d = 1.0 / d;
			delta = c * d;
			f *= delta;
			if (step == 1 && fabs(delta - 1.0) < 1e-15)
				return f;
		}
	}
	return f;
}

/* I_x(a, b), 0 <= x <= 1. */
static double beta_reg(double x, double a, double b)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(x, a, b) / a;
	return 1.0 - front * beta_cf(1.0 - x, b, a) / b;
}

/* Student's t distribution function. */
static double t_cdf(double t, double df)
{
	double tail = 0.5 * beta_reg(df / (df + t * t), df / 2.0, 0.5);

	return t >= 0 ? 1.0 - tail : tail;
}

double rtm_t_quantile(double q, double df)
{
	double lo = 0, hi = 1e7;
	int i;

	if (q == 0.5)
		return 0;
	if (q < 0.5)
		return -rtm_t_quantile(1.0 - q, df);
	/* bisection: 100 steps from 1e7 reach well below 1e-15 */
	for (i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2.0;

		if (t_cdf(mid, df) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

static void mean_var(const double *x, int n, double *mean, double *var)
{
	double m = 0, s = 0;
	int i;

	for (i = 0; i < n; i++)
		m += x[i];
	m /= n;
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var = n > 1 ? s / (n - 1) : 0;
}

int rtm_ratio_ci_logs(const double *log_a, int na, const double *log_b, int nb, double conf,
		      double floor_a, double floor_b, struct rtm_ratio_ci *ci)
{
	double ma, va, mb, vb, se, t;

	memset(ci, 0, sizeof(*ci));
	ci->na = na;
	ci->nb = nb;
	if (na < 1 || nb < 1)
		return -EINVAL;
	mean_var(log_a, na, &ma, &va);
	mean_var(log_b, nb, &mb, &vb);
	ci->ratio = exp(mb - ma);
	ci->lo = ci->hi = ci->ratio;
	if (na + nb < 3)
		return 0;
	ci->welch = na >= 2 && nb >= 2;
	va = va > floor_a ? va : floor_a;
	vb = vb > floor_b ? vb : floor_b;
	if (ci->welch) {
		double sa = va / na, sb = vb / nb;

		se = sqrt(sa + sb);
		/* Welch-Satterthwaite; both variances 0: the values agree exactly */
		ci->df = sa + sb > 0 ? (sa + sb) * (sa + sb) /
			 (sa * sa / (na - 1) + sb * sb / (nb - 1)) : (double)(na + nb - 2);
	} else {
		double pooled = ((na - 1) * va + (nb - 1) * vb) / (na + nb - 2);

		/* the single value's own floor counts too */
		pooled = pooled > floor_a ? pooled : floor_a;
		pooled = pooled > floor_b ? pooled : floor_b;

		se = sqrt(pooled * (1.0 / na + 1.0 / nb));
		ci->df = (double)(na + nb - 2);
	}
	t = rtm_t_quantile(1.0 - (1.0 - conf) / 2.0, ci->df);
	ci->lo = exp(mb - ma - t * se);
	ci->hi = exp(mb - ma + t * se);
	ci->valid = true;
	return 0;
}
