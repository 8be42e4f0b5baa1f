/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report.h - plots (gnuplot, plot.h) and a self-contained HTML and Markdown
 * report of a result; the building blocks are shared with the comparison.
 *
 * Data files are plain text written next to the images (plots/data/), with the
 * script each plot was drawn with (plots/data/NAME.gp), so the plots can be
 * redrawn or restyled by hand.
 */
#ifndef RTM_REPORT_H
#define RTM_REPORT_H

#include <stdio.h>

#include "core/error.h"
#include "present/html.h"	/* compare_pages.c still takes it from here */
#include "core/hist.h"
#include "present/plot.h"
#include "result/result.h"

struct rtm_report_opts {
	const char *results_dir;	/* the folder the result came from (links to spikes) */
	const char *out_dir;		/* where report.html, report.md and plots/ go */
	unsigned int formats;		/* 1 << enum rtm_plot_format */
	int width, height;		/* image size in pixels (default 1000 x 560) */
	bool log_x;			/* logarithmic latency axis (default linear, OSADL's) */
};

/* ---- data files for the templates (report_data.c) */

/*
 * One gnuplot block for histogram.gp: a header line ("latency_us" "TITLE"), then
 * one row per microsecond that holds samples: "us count". A blank line stands
 * where microseconds without samples lie between two rows, so no line bridges
 * them. Two blank lines end it.
 */
int rtm_report_hist_block(FILE *f, const struct rtm_hist *h, const char *title);

/* What histogram.gp marks for each line: its maximum and its overflowed samples. */
struct rtm_report_mark {
	uint64_t max_ns;		/* exact maximum (0: empty) */
	uint64_t max_row_count;		/* samples in the maximum's microsecond row */
	uint64_t overflows;		/* beyond the source's histogram: values unknown */
	uint64_t overflow_ns;		/* where they lie: the source's limit, else the max */
};

void rtm_report_mark_of(const struct rtm_hist *h, uint64_t overflows, uint64_t overflow_ns,
			struct rtm_report_mark *m);
/*
 * The block after the lines: a header, then one row per line, in order:
 * "max_us samples overflow_us overflows" (NaN NaN when nothing overflowed).
 */
int rtm_report_marks_block(FILE *f, const struct rtm_report_mark *m, int n);

/*
 * One block for percentiles.gp: header, then the curve as steps, one row
 * "1/(1-p) latency_us p" per non-empty bucket where it starts, its value the
 * one rtm_hist_percentile() gives inside it (no point between two measured
 * values, no line to the maximum), and a last row closing the last step at
 * x = samples, where the last sample's rank starts. *@xmax: that x (>= 10),
 * for the x range. 0 or -ENOMEM / -EIO.
 */
int rtm_report_pct_block(FILE *f, const struct rtm_hist *h, const char *title, double *xmax);
/*
 * The block after the curves: the maxima as markers, one row per curve in
 * order, "samples max_us label" (the exact maximum at x = samples; NaN when
 * the curve is empty).
 */
int rtm_report_pct_marks_block(FILE *f, const struct rtm_hist *const *h, int n);

/* ---- axes and titles of the plots (report_data.c): no files, no gnuplot */

/* The smallest round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k) that is >= @x. */
double rtm_report_nice_up(double x);

/*
 * The latency axis of a histogram plot. Linear from 0 in microseconds
 * (OSADL's) unless @logx. The body ends at 3 x the largest p90 (the maximum
 * for lines of under 10 samples), rounded up; when the axis would reach beyond
 * 5 times that, it is split: a body panel [xmin_us, split_us] and a tail panel
 * [split_us, xmax_us], both linear, so the body is not a few pixels wide.
 */
struct rtm_hist_axis {
	double xmin_us, xmax_us;
	double split_us;		/* 0: one panel */
	double tail_tic_us;		/* the tail panel's tic step (it is narrow) */
	double ymax;			/* the most samples in one microsecond row */
	bool logx;
};

void rtm_report_hist_axis(const struct rtm_hist *const *h, int n, bool logx,
			  struct rtm_hist_axis *ax);

/*
 * The histogram template's variables from @ax, @nlines and @overflow
 * (histogram.gp: ncpus, logx, xmin, xmax, split, ymax, has_overflow, tailtic)
 * into @v[0..7], their text kept in @buf; the caller adds the titles.
 */
#define RTM_REPORT_HIST_NVARS 8
struct rtm_report_hist_vars {
	char n[16], logx[4], xmin[32], xmax[32], split[32], ymax[32], tt[32];
};
void rtm_report_hist_vars(const struct rtm_hist_axis *ax, int nlines, bool overflow,
			  struct rtm_report_hist_vars *buf, struct rtm_plot_var *v);

/* What a plot's title says about a run; NULL fields print as unknown ("?"). */
struct rtm_report_desc_in {
	const char *interval, *sched, *duration, *load, *kernel;
	uint64_t samples;
};

/* "interval 1 ms, fifo 95, 39875 samples, 20 s, load: stress-ng ..., kernel 6.18.0" */
void rtm_report_desc(char *buf, size_t len, const struct rtm_report_desc_in *d);
/* The same line from a result's options, sections.load and sysinfo. */
void rtm_report_result_desc(char *buf, size_t len, const struct rtm_result *r,
			    uint64_t samples);

/* The log axis of the IRQ-rate chart: whole decades, from one below the smallest rate. */
void rtm_report_irq_axis(const double *rates, int n, double *ymin, double *ymax);

/* The formats drawn: those asked for, and PNG for the page when neither PNG nor SVG is. */
unsigned int rtm_report_draw_formats(unsigned int formats);

/* A gnuplot string for a header line: "text" with quotes and backslashes escaped. */
void rtm_report_gp_quoted(FILE *f, const char *s);

/* ---- a noise result (report_noise.c): sections.noise, no wake-up latency */

#define RTM_REPORT_NOISE_LINES 16	/* CPUs in the gap-length plot (the longest gaps) */
#define RTM_REPORT_NOISE_GAPS 20	/* gaps listed per CPU */

/* One row of the per-CPU table, the cells as shown; "unknown" where the section has null. */
struct rtm_report_noise_row {
	long long cpu;
	char runtime[24], noise[24], avail[24], max_gap[24], gaps[24], period[24], above[24];
};

/* The row of one sections.noise.cpus[] object; -EINVAL when it has no cpu number. */
int rtm_report_noise_row(const json_t *cpu, struct rtm_report_noise_row *row);
/* sections.noise can be shown: -EINVAL with a one-line message naming the bad member. */
int rtm_report_noise_check(const json_t *noise, struct rtm_error *err);
/*
 * report.html (@html) or report.md of a noise result: the run, the per-CPU table,
 * osnoise's interference and the gap causes when present, the gaps above
 * report_above_ns (at most @max_gaps per CPU), and @img (the gap-length plot,
 * embedded in HTML, linked as plots/NAME in Markdown; NULL: none drawn), with a
 * link to plots/noise_hist.pdf when @pdf.
 */
void rtm_report_noise_page(FILE *f, const struct rtm_result *r, bool html, const char *img,
			   bool pdf, int max_gaps);
/*
 * The same tables and plot as a section of a latency report (run --noise: the
 * noise phase after the latency phase), headed "Noise"; nothing without sections.noise.
 */
void rtm_report_noise_section(FILE *f, const struct rtm_result *r, bool html, const char *img,
			      bool pdf, int max_gaps);
/*
 * The gap-length plot (plots/noise_hist.*, its data in @plots/data, which must
 * exist); *@drawn false when no CPU had a gap. 0 or -errno with @err set.
 */
int rtm_report_noise_plot(const struct rtm_result *r, const struct rtm_report_opts *o,
			  const char *plots, bool *drawn, struct rtm_error *err);
/* The plot and both pages of a noise result, as rtm_report_write(). */
int rtm_report_noise_write(const struct rtm_result *r, const struct rtm_report_opts *o,
			   struct rtm_error *err);

/* ---- a storage run (report_io.c): sections.io, no wake-up latency */

/*
 * The plots (plots/io_latency.*: each operation's latency from its planned
 * issue time as a histogram; plots/io_percentiles.*: its percentile curves,
 * service time dashed) and both pages: the run, the table per operation with
 * the figures rtmeasure io's summary prints (present/io_print.h), the misses.
 * As rtm_report_write(); -EINVAL naming the member when sections.io's
 * operations do not read back.
 */
int rtm_report_io_write(const struct rtm_result *r, const struct rtm_report_opts *o,
			struct rtm_error *err);
/* Those two plots alone, into @plots (a folder that exists): run --io's report. */
int rtm_report_io_plot(const struct rtm_result *r, const struct rtm_report_opts *o,
		       const char *plots, struct rtm_error *err);
/*
 * run --io: the storage probe's section of a latency report (its tables and
 * the two plots in @plots, images of extension @ext), headings one level down;
 * nothing without sections.io.
 */
void rtm_report_io_section(FILE *f, const struct rtm_result *r, bool html, const char *plots,
			   const char *ext);

/* ---- the report (report.c) */

/**
 * rtm_report_write - plots, report.html and report.md of one result
 *
 * Creates @o->out_dir/plots/ (data files and images in every format asked for)
 * and the two reports; a noise result (no CPU, sections.noise) gets its own
 * pages (rtm_report_noise_write()), and so does a storage run (sections.io,
 * rtm_report_io_write()); a latency result with sections.io (run --io) gets
 * its plots and rtm_report_io_section(). Returns 0 or -errno with a one-line message (gnuplot
 * missing or failing included).
 */
int rtm_report_write(const struct rtm_result *r, const struct rtm_report_opts *o,
		     struct rtm_error *err);

#endif
