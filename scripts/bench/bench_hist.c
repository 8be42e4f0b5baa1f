// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_hist.c - cost of rtm_hist_record() against the reference recorders.
 *
 * One pre-generated stream of latencies (mostly 10-60 us with a tail to about
 * 10 ms) is fed, in the same run and in interleaved rounds, to:
 *   array      a plain array increment a[min(v / 1000, size - 1)]++
 *   cyclictest what cyclictest does per sample: us bucket with overflow
 *              check, min, max, double sum, cycle count
 *   hist       rtm_hist_record()
 *   corrected  rtm_hist_record_corrected() with a 1 ms interval
 * and prints the median ns/record of each and the ratios. It also times
 * percentile queries on a histogram with every bucket non-empty.
 *
 * --callgrind PASSES --variant NAME runs one variant PASSES times over a fixed
 * 65536-value stream and nothing else, so that the difference of two
 * callgrind totals (PASSES and 2 * PASSES) gives instructions per record.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/hist.h"

#define ARRAY_SIZE	10000		/* 10 ms in us, as cyclictest -h 10000 */
#define CG_VALUES	65536
#define INTERVAL_NS	1000000		/* expected interval for the corrected record */
#define MAX_ROUNDS	64

#define noinline __attribute__((noinline))

/* keep a pointer's memory alive so the loops are not optimised away */
#define escape(p) __asm__ volatile("" : : "g"(p) : "memory")

struct cyc_stat {
	uint64_t *hist;
	long size;
	long min, max;
	double avg;
	uint64_t cycles, overflow;
};

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(0x2545F4914F6CDD1D);
}

/* 95% 10-60 us (triangular around 35 us), 4.9% 60-200 us, 0.1% Pareto tail */
static void gen_values(uint64_t *v, size_t n, uint64_t seed)
{
	uint64_t s = seed;

	for (size_t i = 0; i < n; i++) {
		uint64_t r = xorshift(&s), sel = r % 1000;

		if (sel < 950) {
			v[i] = 10000 + (r >> 20) % 25001 + (r >> 40) % 25001;
		} else if (sel < 999) {
			v[i] = 60000 + (r >> 20) % 140000;
		} else {
			double u = (double)((r >> 11) | 1) * 0x1.0p-53;
			double x = 200000.0 * pow(u, -1.0 / 1.5);

			v[i] = x > 1e7 ? 10000000 : (uint64_t)x;
		}
	}
}

static noinline void run_array(const uint64_t *v, size_t n, uint64_t *a)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t idx = v[i] / 1000;

		if (idx >= ARRAY_SIZE)
			idx = ARRAY_SIZE - 1;
		a[idx]++;
	}
	escape(a);
}

/* cyclictest.c's per-sample statistics, diff in us as calcdiff() returns it */
static noinline void run_cyclictest(const uint64_t *v, size_t n, struct cyc_stat *st)
{
	for (size_t i = 0; i < n; i++) {
		long diff = (long)(v[i] / 1000);

		if (diff < st->min)
			st->min = diff;
		if (diff > st->max)
			st->max = diff;
		st->avg += (double)diff;
		if (diff >= st->size)
			st->overflow++;
		else
			st->hist[diff]++;
		st->cycles++;
	}
	escape(st);
}

static noinline void run_hist(const uint64_t *v, size_t n, struct rtm_hist *h)
{
	for (size_t i = 0; i < n; i++)
		rtm_hist_record(h, v[i]);
	escape(h);
}

static noinline void run_corrected(const uint64_t *v, size_t n, struct rtm_hist *h)
{
	for (size_t i = 0; i < n; i++)
		rtm_hist_record_corrected(h, v[i], INTERVAL_NS);
	escape(h);
}

static const double query_ps[] = { 50, 90, 99, 99.9, 99.99, 99.999, 100 };
#define NQUERY ((int)(sizeof(query_ps) / sizeof(query_ps[0])))

static noinline uint64_t run_percentile(const struct rtm_hist *h, size_t n, double p)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++) {
		escape(h);
		sum += rtm_hist_percentile(h, p);
	}
	return sum;
}

static noinline uint64_t run_percentiles(const struct rtm_hist *h, size_t n)
{
	uint64_t sum = 0, out[NQUERY];

	for (size_t i = 0; i < n; i++) {
		escape(h);
		rtm_hist_percentiles(h, query_ps, NQUERY, out);
		sum += out[i % NQUERY];
	}
	return sum;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *x, int n)
{
	qsort(x, (size_t)n, sizeof(*x), cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

enum { V_ARRAY, V_CYCLICTEST, V_HIST, V_CORRECTED, V_NUM };

static const char *const vnames[V_NUM] = { "array", "cyclictest", "hist", "corrected" };
static const char *const vlabels[V_NUM] = {
	"plain array a[v/1000]++",
	"cyclictest-equivalent",
	"rtm_hist_record",
	"rtm_hist_record_corrected (1 ms)",
};

struct state {
	uint64_t *array;
	struct cyc_stat cyc;
	struct rtm_hist *hist, *corr;
};

static void state_reset(struct state *s)
{
	memset(s->array, 0, ARRAY_SIZE * sizeof(*s->array));
	memset(s->cyc.hist, 0, ARRAY_SIZE * sizeof(*s->cyc.hist));
	s->cyc.size = ARRAY_SIZE;
	s->cyc.min = 1000000;
	s->cyc.max = -1000000;
	s->cyc.avg = 0;
	s->cyc.cycles = 0;
	s->cyc.overflow = 0;
	rtm_hist_reset(s->hist);
	rtm_hist_reset(s->corr);
}

static void run_variant(struct state *s, int var, const uint64_t *v, size_t n)
{
	switch (var) {
	case V_ARRAY:
		run_array(v, n, s->array);
		break;
	case V_CYCLICTEST:
		run_cyclictest(v, n, &s->cyc);
		break;
	case V_HIST:
		run_hist(v, n, s->hist);
		break;
	default:
		run_corrected(v, n, s->corr);
		break;
	}
}

static void state_free(struct state *s)
{
	free(s->array);
	free(s->cyc.hist);
	rtm_hist_free(s->hist);
	rtm_hist_free(s->corr);
}

static int state_init(struct state *s)
{
	s->array = calloc(ARRAY_SIZE, sizeof(*s->array));
	s->cyc.hist = calloc(ARRAY_SIZE, sizeof(*s->cyc.hist));
	s->hist = rtm_hist_alloc();
	s->corr = rtm_hist_alloc();
	if (!s->array || !s->cyc.hist || !s->hist || !s->corr) {
		state_free(s);
		return -ENOMEM;
	}
	state_reset(s);
	return 0;
}

/* A histogram with every bucket non-empty, for the query timings. */
static struct rtm_hist *full_hist(const uint64_t *v, size_t n)
{
	struct rtm_hist *h = rtm_hist_alloc();

	if (!h)
		return NULL;
	for (size_t i = 0; i < n; i++)
		rtm_hist_record(h, v[i]);
	for (unsigned int i = 0; i < RTM_HIST_NCOUNTS; i++)
		rtm_hist_record(h, rtm_hist_index_lo(i));
	return h;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: bench_hist [--values N] [--rounds R]\n"
		   "       bench_hist --callgrind PASSES --variant "
		   "array|cyclictest|hist|corrected|percentile|percentiles\n");
}

/* variants beyond the recorders: percentile queries on a full histogram */
enum { V_PERCENTILE = V_NUM, V_PERCENTILES, V_ALL };

static int callgrind_mode(const char *variant, long passes)
{
	static const char *const extra[] = { "percentile", "percentiles" };
	struct rtm_hist *full = NULL;
	uint64_t *v, sink = 0;
	struct state s;
	int var, ret = 1;

	for (var = 0; var < V_ALL; var++)
		if (!strcmp(variant, var < V_NUM ? vnames[var] : extra[var - V_NUM]))
			break;
	if (var == V_ALL) {
		fprintf(stderr, "bench_hist: unknown variant %s\n", variant);
		usage(stderr);
		return 2;
	}
	v = malloc(CG_VALUES * sizeof(*v));
	if (!v || state_init(&s))
		goto out;
	gen_values(v, CG_VALUES, 1);
	if (var >= V_NUM) {
		full = full_hist(v, CG_VALUES);
		if (!full)
			goto out_state;
		if (var == V_PERCENTILES)
			sink = run_percentiles(full, (size_t)passes);
		else
			sink = run_percentile(full, (size_t)passes, 99.99);
	} else {
		for (long i = 0; i < passes; i++)
			run_variant(&s, var, v, CG_VALUES);
		sink = s.hist->count + s.corr->count + s.cyc.cycles + s.array[0];
	}
	printf("%s: %ld passes of %d values, checksum %" PRIu64 "\n", variant, passes,
	       CG_VALUES, sink);
	ret = 0;
	rtm_hist_free(full);
out_state:
	state_free(&s);
out:
	if (ret)
		fprintf(stderr, "bench_hist: out of memory\n");
	free(v);
	return ret;
}

int main(int argc, char **argv)
{
	size_t n = (size_t)1 << 24;
	int rounds = 11, var, r;
	long cg_passes = 0;
	const char *variant = "hist";
	double t[V_NUM][MAX_ROUNDS], med[V_NUM], q1[MAX_ROUNDS], q7[MAX_ROUNDS], mq1, mq7;
	double rat[3][MAX_ROUNDS], mrat[3];
	struct rtm_hist *full;
	struct state s;
	uint64_t *v, sink = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--values") && i + 1 < argc) {
			n = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			rounds = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--callgrind") && i + 1 < argc) {
			cg_passes = atol(argv[++i]);
		} else if (!strcmp(argv[i], "--variant") && i + 1 < argc) {
			variant = argv[++i];
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (cg_passes > 0)
		return callgrind_mode(variant, cg_passes);
	if (n < 1000 || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "bench_hist: need --values >= 1000 and 1 <= --rounds <= %d\n",
			MAX_ROUNDS);
		return 2;
	}

	v = malloc(n * sizeof(*v));
	if (!v || state_init(&s)) {
		fprintf(stderr, "bench_hist: out of memory for %zu values\n", n);
		return 1;
	}
	gen_values(v, n, 1);

	/* warm up caches and the branch predictor once, untimed */
	for (var = 0; var < V_NUM; var++)
		run_variant(&s, var, v, n < 65536 ? n : 65536);
	for (r = 0; r < rounds; r++) {
		state_reset(&s);
		for (int k = 0; k < V_NUM; k++) {
			double t0;

			var = (k + r) % V_NUM;		/* rotate the order each round */
			t0 = now_ns();
			run_variant(&s, var, v, n);
			t[var][r] = (now_ns() - t0) / (double)n;
		}
		sink += s.hist->count + s.corr->count + s.cyc.cycles + s.array[30];
	}
	for (r = 0; r < rounds; r++) {
		rat[0][r] = t[V_HIST][r] / t[V_ARRAY][r];
		rat[1][r] = t[V_HIST][r] / t[V_CYCLICTEST][r];
		rat[2][r] = t[V_CORRECTED][r] / t[V_HIST][r];
	}
	for (var = 0; var < V_NUM; var++)
		med[var] = median(t[var], rounds);
	for (var = 0; var < 3; var++)
		mrat[var] = median(rat[var], rounds);

	full = full_hist(v, n);
	if (!full) {
		fprintf(stderr, "bench_hist: out of memory\n");
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		double t0 = now_ns();

		sink += run_percentile(full, 2000, 99.99);
		q1[r] = (now_ns() - t0) / 2000;
		t0 = now_ns();
		sink += run_percentiles(full, 2000);
		q7[r] = (now_ns() - t0) / 2000;
	}
	mq1 = median(q1, rounds);
	mq7 = median(q7, rounds);

	printf("histogram record benchmark: %zu values (95%% 10-60 us, tail to 10 ms), "
	       "median of %d interleaved rounds\n", n, rounds);
	printf("%-34s %10s %10s %14s\n", "variant", "ns/record", "vs array", "vs cyclictest");
	for (var = 0; var < V_NUM; var++)
		printf("%-34s %10.3f %9.2fx %13.2fx\n", vlabels[var], med[var],
		       med[var] / med[V_ARRAY], med[var] / med[V_CYCLICTEST]);
	printf("percentile query, %d buckets all non-empty: p99.99 %.0f ns; "
	       "%d percentiles in one pass %.0f ns\n", RTM_HIST_NCOUNTS, mq1, NQUERY, mq7);
	printf("per-round ratios (median): hist/array %.2fx, hist/cyclictest %.2fx, "
	       "corrected/hist %.2fx\n", mrat[0], mrat[1], mrat[2]);
	printf("target record <= 2x array: %s (%.2fx); target record < 5 ns: %s (%.3f ns)\n",
	       mrat[0] <= 2 ? "met" : "MISSED", mrat[0], med[V_HIST] < 5 ? "met" : "MISSED",
	       med[V_HIST]);
	printf("(checksum %" PRIu64 ")\n", sink);

	rtm_hist_free(full);
	state_free(&s);
	free(v);
	return 0;
}
