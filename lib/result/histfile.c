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

static int write_hist(const struct rtm_result *r, FILE *f, unsigned int rows, bool all)
{
	uint64_t *cells, *total, *overflow, sum, maxmax = 0;
	int n = r->ncpus, i;
	unsigned int row;

	if (!rows)
		rows = rtm_histfile_auto_rows(r);
	cells = calloc((size_t)rows * (size_t)(n ? n : 1), sizeof(*cells));
	total = calloc((size_t)(n ? n : 1), sizeof(*total));
	overflow = calloc((size_t)(n ? n : 1), sizeof(*overflow));
	if (!cells || !total || !overflow) {
		free(cells);
		free(total);
		free(overflow);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct rtm_hist *h = r->cpus[i].raw;
		struct rtm_hist_bucket b;
		unsigned int pos = 0;

		while (rtm_hist_next(h, &pos, &b)) {
			uint64_t u = rtm_hist_bucket_value(h, &b) / 1000;

			if (u < rows) {
				cells[(size_t)u * (size_t)n + (size_t)i] += b.count;
				total[i] += b.count;
			} else {
				overflow[i] += b.count;
			}
		}
	}

	all = all && n > 1;	/* cyclictest: -H with one thread is -h */
	fprintf(f, "# Histogram\n");
	for (row = 0; row < rows; row++) {
		fprintf(f, "%06u", row);
		for (i = 0, sum = 0; i < n; i++) {
			sum += cells[(size_t)row * (size_t)n + (size_t)i];
			fprintf(f, "%s%06llu", i ? "\t" : " ",
				(unsigned long long)cells[(size_t)row * (size_t)n + (size_t)i]);
		}
		if (all)
			fprintf(f, "\t%06llu", (unsigned long long)sum);
		fputc('\n', f);
	}
	fprintf(f, "# Total:");
	for (i = 0, sum = 0; i < n; i++) {
		fprintf(f, " %09llu", (unsigned long long)total[i]);
		sum += total[i];
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
		fprintf(f, " %05llu", (unsigned long long)overflow[i]);
		sum += overflow[i];
	}
	if (all)
		fprintf(f, " %05llu", (unsigned long long)sum);
	fprintf(f, "\n# Histogram Overflow at cycle number:\n");
	for (i = 0; i < n; i++)
		fprintf(f, "# Thread %d:\n", i);
	free(cells);
	free(total);
	free(overflow);
	return ferror(f) ? -EIO : 0;
}

int rtm_histfile_write(const struct rtm_result *r, FILE *f, unsigned int rows)
{
	return write_hist(r, f, rows, false);
}

int rtm_histfile_write_all(const struct rtm_result *r, FILE *f, unsigned int rows)
{
	return write_hist(r, f, rows, true);
}
