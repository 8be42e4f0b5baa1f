// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_mkresult.c - write a large synthetic result.json for the report and
 * compare benchmarks (scripts/bench/compare-part, scripts/bench/report).
 *
 * usage: bench_mkresult OUTDIR [--cpus N] [--samples TOTAL] [--scale X] [--seed S]
 *                       [--no-series] [--no-corrected] [--kernel RELEASE]
 *
 * Each CPU gets a realistic latency distribution: a log-normal body (median
 * 12-30 us, varying by CPU, times --scale) holding 99.8 % of the samples and a
 * Pareto tail from three medians up to 20 ms. The histograms are filled bucket
 * by bucket from the distribution function (expected counts, randomly rounded),
 * so 10^9 samples take a second, not minutes. Like a real 1 ms cyclic run the
 * result also holds the coordinated-omission corrected histogram, overruns and
 * a 1 s time series (one point per second of the run: 3906 per CPU for 10^9
 * samples on 256 CPUs), unless --no-corrected / --no-series. The result is
 * written with rtm_result_save().
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/result.h"

#define INTERVAL_NS	1000000ULL
#define TAIL_MASS	0.002
#define TAIL_ALPHA	2.0
#define TAIL_MAX_NS	20000000.0

static uint64_t rng = 0x853c49e6748fea9bULL;

static double uniform(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

struct dist {
	double mu, sigma;	/* log-normal body */
	double x0;		/* tail start */
};

static double cdf(const struct dist *d, double x)
{
	double body, tail = 0;

	if (x <= 0)
		return 0;
	body = 0.5 * erfc(-(log(x) - d->mu) / (d->sigma * M_SQRT2));
	if (x > d->x0)
		tail = (1.0 - pow(d->x0 / x, TAIL_ALPHA)) /
		       (1.0 - pow(d->x0 / TAIL_MAX_NS, TAIL_ALPHA));
	if (tail > 1)
		tail = 1;
	return (1.0 - TAIL_MASS) * body + TAIL_MASS * tail;
}

static int fill_cpu(struct rtm_result_cpu *c, uint64_t n, double scale, bool series)
{
	struct dist d;
	double median = (12000.0 + 18000.0 * uniform()) * scale;
	unsigned int idx, lo_idx = rtm_hist_index(1000), hi_idx = rtm_hist_index(TAIL_MAX_NS);
	unsigned int biggest = lo_idx;
	uint64_t total = 0, k;

	d.mu = log(median);
	d.sigma = 0.15 + 0.1 * uniform();
	d.x0 = 3 * median;
	for (idx = lo_idx; idx <= hi_idx; idx++) {
		uint64_t lo = rtm_hist_index_lo(idx), hi = rtm_hist_index_hi(idx);
		double e = (double)n * (cdf(&d, (double)hi + 1) - cdf(&d, (double)lo));
		uint64_t cnt = (uint64_t)e + (uniform() < e - floor(e));

		if (!cnt)
			continue;
		if (total + cnt > n)
			cnt = n - total;
		rtm_hist_record_n(c->raw, lo + (hi - lo) / 2, cnt);
		total += cnt;
		if (c->raw->counts[idx] > c->raw->counts[biggest])
			biggest = idx;
	}
	/* make the count exact: the rest goes to the fullest bucket */
	if (total < n)
		rtm_hist_record_n(c->raw, rtm_hist_index_lo(biggest), n - total);
	if (c->corrected) {
		/* as the probe does it: raw + the implied samples of each stall */
		struct rtm_hist_bucket b;
		unsigned int pos = 0;

		rtm_hist_copy(c->corrected, c->raw);
		while (rtm_hist_next(c->raw, &pos, &b)) {
			uint64_t v = b.lo_ns + (b.hi_ns - b.lo_ns) / 2;

			if (v < INTERVAL_NS)
				continue;
			c->overruns += b.count * (v / INTERVAL_NS);
			if (v < 2 * INTERVAL_NS)
				continue;
			for (k = 0; k < b.count; k++)
				rtm_hist_record_corrected(c->corrected, v - INTERVAL_NS, INTERVAL_NS);
		}
	}
	if (series && c->ts) {
		uint64_t secs = n * INTERVAL_NS / 1000000000ULL, s;

		for (s = 0; s < secs; s++) {
			struct rtm_ts_point p = {
				.start_ns = s * 1000000000ULL,
				.width_ns = 1000000000ULL,
				.count = 1000,
				.min_ns = (uint64_t)(median * (0.5 + 0.1 * uniform())),
				.p99_ns = (uint64_t)(median * (1.6 + 0.4 * uniform())),
				.merged = 0,
			};
			p.max_ns = p.p99_ns + (uint64_t)(median * 10 * pow(uniform(), 4));
			rtm_ts_add(c->ts, &p);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct rtm_error err = { "" };
	const char *out = NULL, *kernel = "6.1.0-57-amd64";
	uint64_t total = 1000000000ULL, per;
	double scale = 1.0;
	bool series = true, corrected = true;
	struct rtm_result *r;
	int ncpus = 256, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cpus") && i + 1 < argc)
			ncpus = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--samples") && i + 1 < argc)
			total = (uint64_t)strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
			scale = strtod(argv[++i], NULL);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			rng ^= strtoull(argv[++i], NULL, 0) * 0x2545f4914f6cdd1dULL;
		else if (!strcmp(argv[i], "--kernel") && i + 1 < argc)
			kernel = argv[++i];
		else if (!strcmp(argv[i], "--no-series"))
			series = false;
		else if (!strcmp(argv[i], "--no-corrected"))
			corrected = false;
		else if (argv[i][0] != '-' && !out)
			out = argv[i];
		else {
			fprintf(stderr, "usage: bench_mkresult OUTDIR [--cpus N] [--samples TOTAL] "
				"[--scale X] [--seed S] [--kernel RELEASE] [--no-series] "
				"[--no-corrected]\n");
			return 2;
		}
	}
	if (!out || ncpus < 1 || ncpus > 8192 || !total || !(scale > 0)) {
		fprintf(stderr, "bench_mkresult: give OUTDIR, 1-8192 CPUs, samples and a "
			"scale > 0\n");
		return 2;
	}
	r = rtm_result_alloc("cyclic");
	per = total / (uint64_t)ncpus;
	for (i = 0; i < ncpus; i++) {
		struct rtm_result_cpu *c = rtm_result_add_cpu(r, i, corrected,
							      series ? 1000000000ULL : 0);

		if (!c) {
			fprintf(stderr, "bench_mkresult: out of memory\n");
			return 1;
		}
		fill_cpu(c, per + ((uint64_t)i < total % (uint64_t)ncpus), scale, series);
	}
	r->duration_ns = per * INTERVAL_NS;
	r->sysinfo = json_pack("{s:s, s:s, s:{s:s, s:{s:s, s:b}, s:s, s:{}}, s:{s:s, s:s, s:i},"
			       " s:{s:b}}", "schema", "rtmeasure-sysinfo/1", "hostname", "bench",
			       "kernel", "release", kernel, "preempt", "model",
			       strstr(kernel, "-rt") ? "rt" : "voluntary", "dynamic", 0, "cmdline",
			       "quiet", "cmdline_options", "cpu", "model", "Synthetic 256-core",
			       "arch", "x86_64", "online_count", ncpus, "virtualization", "vm", 0);
	json_object_set_new(r->options, "cpus", json_sprintf("0-%d", ncpus - 1));
	json_object_set_new(r->options, "interval_ns", json_integer((json_int_t)INTERVAL_NS));
	json_object_set_new(r->options, "sched", json_pack("{s:s, s:i}", "policy", "fifo",
							   "priority", 95));
	json_object_set_new(r->options, "mode", json_string("nanosleep"));
	if (rtm_result_save(r, out, &err)) {
		fprintf(stderr, "bench_mkresult: %s\n", err.msg);
		rtm_result_free(r);
		return 1;
	}
	rtm_result_free(r);
	return 0;
}
