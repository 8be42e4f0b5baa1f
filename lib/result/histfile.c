// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * histfile.c - write results in cyclictest's histogram text layout.
 */
#include <errno.h>
#include <stdlib.h>

#include "result/histfile.h"

#define AUTO_MIN_ROWS	1000u
#define AUTO_MAX_ROWS	100000u

unsigned int rtm_histfile_auto_rows(const struct rtm_result *r)
{
	uint64_t max_us = 0;
	int i;

	for (i = 0; i < r->ncpus; i++)
		if (r->cpus[i].raw->max_ns / 1000 > max_us)
			max_us = r->cpus[i].raw->max_ns / 1000;
	if (max_us + 1 < AUTO_MIN_ROWS)
		return AUTO_MIN_ROWS;
	if (max_us + 1 > AUTO_MAX_ROWS)
		return AUTO_MAX_ROWS;
	return (unsigned int)(max_us + 1);
}

/* cyclictest's table: @rows rows of 1 us by CPU, what lies beyond them overflows. */
struct hist_table {
	unsigned int rows;
	int n;				/* columns: the CPUs */
	uint64_t *cells;		/* rows x n */
	uint64_t *total;		/* a CPU's samples in the rows */
	uint64_t *overflow;		/* a CPU's samples beyond them */
};

static void fill_table(const struct rtm_result *r, struct hist_table *t)
{
	int i;

	for (i = 0; i < t->n; i++) {
		const struct rtm_hist *h = r->cpus[i].raw;
		struct rtm_hist_bucket b;
		unsigned int pos = 0;

		while (rtm_hist_next(h, &pos, &b)) {
			uint64_t u = rtm_hist_bucket_value(h, &b) / 1000;

			if (u < t->rows) {
				t->cells[(size_t)u * (size_t)t->n + (size_t)i] += b.count;
				t->total[i] += b.count;
			} else {
				t->overflow[i] += b.count;
			}
		}
	}
}

/* "# Histogram" and its rows, with the -H all column when @all */
static void print_rows(const struct hist_table *t, FILE *f, bool all)
{
	unsigned int row;
	uint64_t sum;
	int i, n = t->n;

	fprintf(f, "# Histogram\n");
	for (row = 0; row < t->rows; row++) {
		fprintf(f, "%06u", row);
		for (i = 0, sum = 0; i < n; i++) {
			sum += t->cells[(size_t)row * (size_t)n + (size_t)i];
			fprintf(f, "%s%06llu", i ? "\t" : " ",
				(unsigned long long)t->cells[(size_t)row * (size_t)n + (size_t)i]);
		}
		if (all)
			fprintf(f, "\t%06llu", (unsigned long long)sum);
		fputc('\n', f);
	}
}

/* The trailer: totals, min, avg and max latencies, overflows */
static void print_trailer(const struct rtm_result *r, const struct hist_table *t, FILE *f,
			  bool all)
{
	uint64_t sum, maxmax = 0;
	int i, n = t->n;

	fprintf(f, "# Total:");
	for (i = 0, sum = 0; i < n; i++) {
		fprintf(f, " %09llu", (unsigned long long)t->total[i]);
		sum += t->total[i];
	}
	if (all)
		fprintf(f, " %09llu", (unsigned long long)sum);
	fprintf(f, "\n# Min Latencies:");
	for (i = 0; i < n; i++)
		fprintf(f, " %05llu", (unsigned long long)(r->cpus[i].raw->count ?
							   r->cpus[i].raw->min_ns / 1000 : 0));
	fprintf(f, "\n# Avg Latencies:");
	for (i = 0; i < n; i++)
		fprintf(f, " %05llu", (unsigned long long)(rtm_hist_mean(r->cpus[i].raw) / 1000));
	fprintf(f, "\n# Max Latencies:");
	for (i = 0; i < n; i++) {
		fprintf(f, " %05llu", (unsigned long long)(r->cpus[i].raw->max_ns / 1000));
		if (r->cpus[i].raw->max_ns > maxmax)
			maxmax = r->cpus[i].raw->max_ns;
	}
	if (all)
		fprintf(f, " %05llu", (unsigned long long)(maxmax / 1000));
	fprintf(f, "\n# Histogram Overflows:");
	for (i = 0, sum = 0; i < n; i++) {
		fprintf(f, " %05llu", (unsigned long long)t->overflow[i]);
		sum += t->overflow[i];
	}
	if (all)
		fprintf(f, " %05llu", (unsigned long long)sum);
	fprintf(f, "\n# Histogram Overflow at cycle number:\n");
	for (i = 0; i < n; i++)
		fprintf(f, "# Thread %d:\n", i);
}

static int write_hist(const struct rtm_result *r, FILE *f, unsigned int rows, bool all)
{
	struct hist_table t = { .rows = rows, .n = r->ncpus };
	int n = t.n, ret = -ENOMEM;

	if (!t.rows)
		t.rows = rtm_histfile_auto_rows(r);
	t.cells = calloc((size_t)t.rows * (size_t)(n ? n : 1), sizeof(*t.cells));
	t.total = calloc((size_t)(n ? n : 1), sizeof(*t.total));
	t.overflow = calloc((size_t)(n ? n : 1), sizeof(*t.overflow));
	if (t.cells && t.total && t.overflow) {
		fill_table(r, &t);
		all = all && n > 1;	/* cyclictest: -H with one thread is -h */
		print_rows(&t, f, all);
		print_trailer(r, &t, f, all);
		ret = ferror(f) ? -EIO : 0;
	}
	free(t.cells);
	free(t.total);
	free(t.overflow);
	return ret;
}

int rtm_histfile_write(const struct rtm_result *r, FILE *f, unsigned int rows)
{
	return write_hist(r, f, rows, false);
}

int rtm_histfile_write_all(const struct rtm_result *r, FILE *f, unsigned int rows)
{
	return write_hist(r, f, rows, true);
}
