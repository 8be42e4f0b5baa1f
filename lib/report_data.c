// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_data.c - the data files the plot templates read.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

void rtm_report_gp_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (*s != '\n')
			fputc(*s, f);
	}
	fputc('"', f);
}

int rtm_report_hist_block(FILE *f, const struct rtm_hist *h, const char *title)
{
	struct rtm_hist_bucket b;
	unsigned int pos = 0;
	uint64_t row = UINT64_MAX, count = 0;

	fputs("\"latency_us\" ", f);
	rtm_report_gp_quoted(f, title);
	fputc('\n', f);
	/* buckets into microsecond rows, as histogram.txt has them */
	while (rtm_hist_next(h, &pos, &b)) {
		uint64_t u = rtm_hist_bucket_value(h, &b) / 1000;

		if (u != row && count) {
			fprintf(f, "%llu %llu\n", (unsigned long long)row, (unsigned long long)count);
			count = 0;
		}
		row = u;
		count += b.count;
	}
	if (count)
		fprintf(f, "%llu %llu\n", (unsigned long long)row, (unsigned long long)count);
	if (!h->count)
		fputs("0 0\n", f);	/* gnuplot wants a row in every block */
	fputs("\n\n", f);
	return ferror(f) ? -EIO : 0;
}

double rtm_report_pct_block(FILE *f, const struct rtm_hist *h, const char *title)
{
	double xmax = h->count >= 100 ? (double)h->count / 10.0 : 10.0, x;
	double ps[512] = { 0 };
	uint64_t v[512] = { 0 };
	int n = 0, i;

	/* 1/(1-p) from 1 to xmax, 24 points a decade */
	for (x = 1.0; x <= xmax * 1.0001 && n < 511; x *= pow(10.0, 1.0 / 24.0))
		ps[n++] = 100.0 * (1.0 - 1.0 / x);
	if (n && ps[n - 1] < 100.0 * (1.0 - 1.0 / xmax))
		ps[n++] = 100.0 * (1.0 - 1.0 / xmax);
	rtm_hist_percentiles(h, ps, n, v);
	fputs("\"x\" ", f);
	rtm_report_gp_quoted(f, title);
	fputc('\n', f);
	for (i = 0; i < n; i++)
		fprintf(f, "%.6g %.3f %.6f\n", 1.0 / (1.0 - ps[i] / 100.0), (double)v[i] / 1000.0,
			ps[i]);
	fputs("\n\n", f);
	return xmax;
}
