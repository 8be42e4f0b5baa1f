/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - plots (gnuplot, plot.h) and a self-contained HTML and Markdown
 * report of a result; the building blocks are shared with the comparison.
 *
 * Data files are plain text written next to the images (plots/data/), so the
 * plots can be redrawn or restyled by hand from the templates in plots/.
 */
#ifndef RTM_REPORT_H
#define RTM_REPORT_H

#include <stdio.h>

#include "error.h"
#include "hist.h"
#include "plot.h"
#include "result.h"

struct rtm_report_opts {
	const char *results_dir;	/* the folder the result came from (links to spikes) */
	const char *out_dir;		/* where report.html, report.md and plots/ go */
	unsigned int formats;		/* 1 << enum rtm_plot_format */
	int width, height;		/* image size in pixels (default 1000 x 560) */
};

/* ---- data files for the templates (report_data.c) */

/*
 * One gnuplot block for histogram.gp: a header line ("latency_us" "TITLE"), then
 * one row per microsecond that holds samples: "us count". Two blank lines end it.
 */
int rtm_report_hist_block(FILE *f, const struct rtm_hist *h, const char *title);

/*
 * One block for percentiles.gp: header, then rows "1/(1-p) latency_us p" at
 * percentiles from 0 up to the one the sample count supports (at least 10
 * samples beyond it). Returns that largest 1/(1-p) (>= 10), for the x range.
 */
double rtm_report_pct_block(FILE *f, const struct rtm_hist *h, const char *title);

/* A gnuplot string for a header line: "text" with quotes and backslashes escaped. */
void rtm_report_gp_quoted(FILE *f, const char *s);

/* ---- HTML (report_html.c) */

/* Text with &, <, >, " escaped. */
void rtm_html_text(FILE *f, const char *s);
/* <!DOCTYPE html> ... <body> with the report's style sheet, and the end. */
void rtm_html_begin(FILE *f, const char *title);
void rtm_html_end(FILE *f);
/*
 * Embed an image file: a PNG as a base64 data: URI, an SVG inline. Nothing is
 * linked, so the page reads offline on its own. Returns 0 or -errno.
 */
int rtm_html_image(FILE *f, const char *path, const char *alt);

/* A latency in microseconds with 1 decimal ("12.3"), for tables. */
void rtm_fmt_us(char *buf, size_t len, uint64_t ns);

/* ---- the report (report.c) */

/**
 * rtm_report_write - plots, report.html and report.md of one result
 *
 * Creates @o->out_dir/plots/ (data files and images in every format asked for)
 * and the two reports. Returns 0 or -errno with a one-line message (gnuplot
 * missing or failing included).
 */
int rtm_report_write(const struct rtm_result *r, const struct rtm_report_opts *o,
		     struct rtm_error *err);

#endif
