// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare_series.c - the verdict's interval when each side is one run: from
 * the runs' time series.
 *
 * The table shows each run's percentile of its whole histogram, so the
 * interval is of the ratio of those percentiles: a block bootstrap over each
 * run's intervals (core/pctboot.h), their histograms added over CPUs so that a
 * resampled interval keeps what every CPU saw at that time. A series that
 * keeps no per-interval histograms (an older rtmeasure's, an import) still gets
 * the interval over batches of its per-interval p99, which is another
 * statistic (a geometric mean over time) and is named so in the verdict.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/compare_priv.h"
#include "core/units.h"

/* Mean log per-interval p99 of each batch of the run's time series (all CPUs). */
static void digest_batches(struct rtm_compare_run *run, const struct rtm_result *r)
{
	double sum[RTM_COMPARE_BATCHES] = { 0 };
	int cnt[RTM_COMPARE_BATCHES] = { 0 };
	uint64_t end = 0;
	int i, j, m, most = 0;

	for (i = 0; i < r->ncpus; i++) {
		const struct rtm_ts *ts = r->cpus[i].ts;
		int used = 0;

		for (j = 0; ts && j < (int)ts->n; j++) {
			const struct rtm_ts_point *p = &ts->pts[j];

			if (p->merged) {
				run->batch_merged++;
				continue;
			}
			if (p->count < RTM_COMPARE_TS_MIN_COUNT)
				continue;
			used++;
			if (p->start_ns + p->width_ns > end)
				end = p->start_ns + p->width_ns;
		}
		most = used > most ? used : most;
	}
	/* at least two intervals per batch, so a batch is not one interval's p99 */
	m = most / 2 < RTM_COMPARE_BATCHES ? most / 2 : RTM_COMPARE_BATCHES;
	if (m < 1 || !end)
		return;
	for (i = 0; i < r->ncpus; i++) {
		const struct rtm_ts *ts = r->cpus[i].ts;

		for (j = 0; ts && j < (int)ts->n; j++) {
			const struct rtm_ts_point *p = &ts->pts[j];
			int b;

			if (p->merged || p->count < RTM_COMPARE_TS_MIN_COUNT)
				continue;
			b = (int)((double)p->start_ns / (double)end * m);
			b = b < m ? b : m - 1;
			sum[b] += log((double)(p->p99_ns ? p->p99_ns : 1));
			cnt[b]++;
			run->batch_points++;
		}
	}
	for (j = 0; j < m; j++)
		if (cnt[j])
			run->batch_log_p99[run->nbatches++] = sum[j] / cnt[j];
	run->batch_ns = end / (uint64_t)m;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The distinct interval starts of every CPU, ascending: their count, or -ENOMEM. */
static int interval_starts(const struct rtm_result *r, uint64_t **out)
{
	size_t total = 0, n = 0, k;
	uint64_t *s;
	int i;
	uint32_t j;

	for (i = 0; i < r->ncpus; i++)
		total += r->cpus[i].ts->n;
	s = malloc((total ? total : 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < r->ncpus; i++)
		for (j = 0; j < r->cpus[i].ts->n; j++)
			s[n++] = r->cpus[i].ts->pts[j].start_ns;
	qsort(s, n, sizeof(*s), cmp_u64);
	for (k = 0, total = 0; k < n; k++)
		if (!total || s[k] != s[total - 1])
			s[total++] = s[k];
	*out = s;
	return (int)total;
}

/*
 * Each interval's buckets, all CPUs added (the CPUs of one run close their
 * intervals together, so their points share starts); more than
 * RTM_COMPARE_BOOT_MAX_INTERVALS: consecutive ones added in groups.
 */
static int digest_boot(struct rtm_compare_run *run, const struct rtm_result *r)
{
	uint64_t *starts, *counts;
	int i, n, group;
	uint32_t j;

	for (i = 0; i < r->ncpus; i++)
		if (!r->cpus[i].ts || !r->cpus[i].ts->hists)
			return 0;	/* no bootstrap: the batches stay */
	n = interval_starts(r, &starts);
	if (n < 0)
		return n;
	group = (n + RTM_COMPARE_BOOT_MAX_INTERVALS - 1) / RTM_COMPARE_BOOT_MAX_INTERVALS;
	group = group < 1 ? 1 : group;
	run->boot_n = (n + group - 1) / group;
	counts = calloc((size_t)(run->boot_n ? run->boot_n : 1) * RTM_TS_HIST_N, sizeof(*counts));
	if (!counts) {
		free(starts);
		return -ENOMEM;
	}
	for (i = 0; i < r->ncpus; i++) {
		const struct rtm_ts *ts = r->cpus[i].ts;

		for (j = 0; j < ts->n; j++) {
			const uint64_t *at = bsearch(&ts->pts[j].start_ns, starts, (size_t)n,
						     sizeof(*starts), cmp_u64);
			uint64_t *dst = &counts[(size_t)((at - starts) / group) * RTM_TS_HIST_N];
			const uint32_t *src = &ts->hists[(size_t)j * RTM_TS_HIST_N];
			unsigned int k;

			for (k = 0; k < RTM_TS_HIST_N; k++)
				dst[k] += src[k];
		}
	}
	free(starts);
	run->boot_counts = counts;
	run->boot_ns = r->cpus[0].ts->stride_ns * (uint64_t)group;
	return 0;
}

int rtm_compare_series_digest(struct rtm_compare_run *run, const struct rtm_result *r)
{
	digest_batches(run, r);
	return digest_boot(run, r);
}

void rtm_compare_series_free(struct rtm_compare_run *run)
{
	free(run->boot_counts);
	run->boot_counts = NULL;
}

/* The interval over batches of the two runs' time series (p99 only). */
static bool verdict_batches(const struct rtm_compare_run *a, const struct rtm_compare_run *b,
			    int k, struct rtm_compare_verdict *v)
{
	double p = v->pct;

	v->kind = RTM_VERDICT_SAME;
	if (k != 0) {
		snprintf(v->text, sizeof(v->text), "%s's p%g is not distinguishable from %s's: "
			 "with one run per side and no per-interval histograms in %s's time series "
			 "there is no interval for p%g; record again with a current rtmeasure or "
			 "give several runs per side (compare A1,A2,A3 B1,B2,B3)", b->label, p,
			 a->label, a->boot_counts ? b->label : a->label, p);
		return false;
	}
	if (a->nbatches < RTM_COMPARE_MIN_BATCHES || b->nbatches < RTM_COMPARE_MIN_BATCHES) {
		snprintf(v->text, sizeof(v->text), "%s's p%g is not distinguishable from %s's: too "
			 "few batches of the time series (%s %d, %s %d; %d needed, each of at "
			 "least two unmerged intervals with %d samples); run longer or give "
			 "several runs per side", b->label, p, a->label, a->label, a->nbatches,
			 b->label, b->nbatches, RTM_COMPARE_MIN_BATCHES, RTM_COMPARE_TS_MIN_COUNT);
		return false;
	}
	v->method = RTM_METHOD_BATCHES;
	rtm_ratio_ci_logs(a->batch_log_p99, a->nbatches, b->batch_log_p99, b->nbatches,
			  RTM_COMPARE_CONF, 0, 0, &v->ci);
	return true;
}

/* The block bootstrap of the ratio of the runs' percentiles, as the table shows them. */
static bool verdict_boot(const struct rtm_compare_run *a, const struct rtm_compare_run *b,
			 int k, struct rtm_compare_verdict *v)
{
	struct rtm_pctboot_run ra = { a->boot_n, a->boot_counts, a->all };
	struct rtm_pctboot_run rb = { b->boot_n, b->boot_counts, b->all };
	double p = v->pct;
	int ret;

	v->kind = RTM_VERDICT_SAME;
	if (a->boot_n < RTM_PCTBOOT_MIN_INTERVALS || b->boot_n < RTM_PCTBOOT_MIN_INTERVALS) {
		snprintf(v->text, sizeof(v->text), "%s's p%g is not distinguishable from %s's: too "
			 "few intervals to say (%s %d, %s %d; %d needed on each side); run longer "
			 "or give several runs per side", b->label, p, a->label, a->label,
			 a->boot_n, b->label, b->boot_n, RTM_PCTBOOT_MIN_INTERVALS);
		return false;
	}
	ret = rtm_pctboot_ratio(&ra, &rb, p, RTM_COMPARE_CONF, &v->boot);
	if (ret) {
		snprintf(v->text, sizeof(v->text), "%s's p%g is not distinguishable from %s's: no "
			 "interval (%s)", b->label, p, a->label, strerror(-ret));
		return false;
	}
	v->method = RTM_METHOD_BOOTSTRAP;
	v->ci.na = a->boot_n;
	v->ci.nb = b->boot_n;
	v->ci.valid = true;
	v->ci.ratio = v->boot.ratio;
	v->ci.lo = v->boot.lo;
	v->ci.hi = v->boot.hi;
	return true;
}

bool rtm_compare_verdict_series(const struct rtm_compare_run *a, const struct rtm_compare_run *b,
				int k, struct rtm_compare_verdict *v)
{
	if (a->boot_counts && b->boot_counts)
		return verdict_boot(a, b, k, v);
	return verdict_batches(a, b, k, v);
}

const char *rtm_compare_statistic(const struct rtm_compare_verdict *v, char *buf, size_t len)
{
	if (v->method == RTM_METHOD_RUNS)
		snprintf(buf, len, "per-run p%g (geometric mean)", v->pct);
	else if (v->method == RTM_METHOD_BATCHES)
		snprintf(buf, len, "per-interval p%g (geometric mean over time, not the table's "
			 "p%g)", v->pct, v->pct);
	else
		snprintf(buf, len, "p%g", v->pct);
	return buf;
}
