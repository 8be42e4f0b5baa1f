// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the data blocks the plot templates read (microsecond rows of the
 * histogram broken at empty microseconds, the percentile curve up to the
 * maximum), the axes and titles of the plots, and, when gnuplot is installed,
 * a whole report of a synthetic 64-CPU result: the all-CPUs line and the 7 CPUs
 * with the highest maxima are drawn, and the summary table lists every CPU.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fileio.h"
#include "present/compare.h"
#include "present/report.h"
#include "present/summary_print.h"
#include "../tap.h"

static char *block_text(const struct rtm_hist *h, double *xmax, bool pct)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (pct)
		*xmax = rtm_report_pct_block(f, h, "CPU \"0\"");
	else
		rtm_report_hist_block(f, h, "CPU \"0\"");
	fclose(f);
	return text;
}

static void blocks(void)
{
	struct rtm_hist *h = rtm_hist_alloc();
	double xmax = 0;
	char *t;
	int i;

	rtm_hist_record_n(h, 5200, 10);		/* row 5 */
	rtm_hist_record_n(h, 12300, 3);		/* row 12 */
	rtm_hist_record(h, 12900);		/* row 12 too */
	rtm_hist_record(h, 13100);		/* row 13, next to 12 */
	t = block_text(h, NULL, false);
	is_str(t, "\"latency_us\" \"CPU \\\"0\\\"\"\n5 10\n\n12 4\n13 1\n\n\n",
	       "histogram block: quoted title, one row per microsecond with samples, a blank "
	       "line (a break in the line) only where microseconds without samples lie between");
	free(t);

	t = block_text(h, &xmax, true);
	ok(xmax == 15, "15 samples: the percentile axis ends at the maximum's x = 15 (%g)", xmax);
	ok(strstr(t, "\n1 5.2") != NULL, "the curve starts at p0 = the minimum (5.2 us)");
	ok(strstr(t, "\n\n10 12.") && strstr(t, "\n15 13.100 100\n\n\n"),
	   "then the last supported point (x = 10) and the exact maximum (13.1 us) at x = 15");
	free(t);

	rtm_hist_reset(h);
	for (i = 0; i < 100000; i++)
		rtm_hist_record(h, 10000 + (uint64_t)i);
	t = block_text(h, &xmax, true);
	ok(xmax == 100000, "100000 samples: the axis reaches the maximum at x = 100000");
	ok(strstr(t, "\n10000 ") != NULL, "the curve's last point is at x = 10000 (p99.99)");
	ok(strstr(t, "\n100000 109.999 100\n") != NULL, "the maximum 109.999 us is drawn");
	free(t);

	rtm_hist_reset(h);
	t = block_text(h, NULL, false);
	is_str(t, "\"latency_us\" \"CPU \\\"0\\\"\"\n0 0\n\n\n", "an empty histogram still has a row");
	free(t);
	rtm_hist_free(h);
}

/* OSADL's axis: linear from 0; a far tail in its own panel; --log-x on request. */
static void axes(void)
{
	struct rtm_hist *h = rtm_hist_alloc(), *clean = rtm_hist_alloc();
	const struct rtm_hist *lines[2] = { h, clean };
	struct rtm_hist_axis ax;
	char *t;
	int i;

	/* a recorded run: the body at 20-100 us, lone outliers at 200 and 3488 us */
	for (i = 0; i < 100000; i++)
		rtm_hist_record(h, 20500 + (uint64_t)(i % 80) * 1000);
	rtm_hist_record(h, 200500);
	rtm_hist_record(h, 3488500);
	rtm_report_hist_axis(lines, 1, false, &ax);
	ok(!ax.logx && ax.xmin_us == 0 && ax.xmax_us == 4000,
	   "linear axis from 0 to 4000 us, past the 3488 us maximum (%g-%g)", ax.xmin_us,
	   ax.xmax_us);
	ok(ax.split_us == 300, "the body panel ends at 300 us: 3 x p90 (91 us), rounded (%g)",
	   ax.split_us);
	ok(ax.tail_tic_us == 1000, "the tail panel has a tic every 1000 us (%g)", ax.tail_tic_us);
	ok(ax.ymax == 1250, "y reaches the fullest row, 1250 samples (%g)", ax.ymax);
	t = block_text(h, NULL, false);
	/* 3488.5 us lies in a bucket 8.2 us wide: its row is the bucket's value, 348x */
	ok(strstr(t, "\n99 1250\n\n200 1\n\n348") != NULL && strstr(t, " 1\n\n\n"),
	   "the outliers stand alone: no line from 99 us to 200 us to 3488 us");
	free(t);
	rtm_report_hist_axis(lines, 1, true, &ax);
	ok(ax.logx && ax.xmin_us == 10 && ax.xmax_us == 5000 && ax.split_us == 0,
	   "--log-x: 10 to 5000 us, one panel (%g-%g, split %g)", ax.xmin_us, ax.xmax_us,
	   ax.split_us);

	/* a clean run: 10-30 us, max 60 us: one linear panel */
	for (i = 0; i < 10000; i++)
		rtm_hist_record(clean, 10500 + (uint64_t)(i % 20) * 1000);
	rtm_hist_record(clean, 60500);
	rtm_report_hist_axis(lines + 1, 1, false, &ax);
	ok(ax.split_us == 0 && ax.xmin_us == 0 && ax.xmax_us == 80,
	   "a clean run: one panel, 0 to 80 us (%g-%g, split %g)", ax.xmin_us, ax.xmax_us,
	   ax.split_us);
	/* both on one axis (compare): the far tail splits it */
	rtm_report_hist_axis(lines, 2, false, &ax);
	ok(ax.split_us == 300 && ax.xmax_us == 4000, "two lines share one axis (%g, %g)",
	   ax.split_us, ax.xmax_us);
	rtm_hist_reset(h);
	rtm_report_hist_axis(lines, 1, false, &ax);
	ok(ax.xmin_us == 0 && ax.xmax_us == 10 && ax.split_us == 0, "no samples: 0 to 10 us");
	ok(rtm_report_nice_up(3663) == 4000 && rtm_report_nice_up(121) == 150 &&
	   rtm_report_nice_up(80) == 80 && rtm_report_nice_up(10001) == 12000,
	   "round numbers: 3663 -> 4000, 121 -> 150, 80 -> 80, 10001 -> 12000");
	rtm_hist_free(h);
	rtm_hist_free(clean);
}

/* Each line's maximum and overflowed samples, and the IRQ chart's log axis. */
static void marks_and_irq(void)
{
	struct rtm_hist *h = rtm_hist_alloc();
	struct rtm_report_mark m[2];
	double rates[3] = { 2524.3, 0.2, 25 }, lo, hi;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	rtm_hist_record_n(h, 20000, 5);
	rtm_hist_record_n(h, 7400, 2);
	rtm_hist_record(h, 7900);
	rtm_report_mark_of(h, 0, 0, &m[0]);
	ok(m[0].max_ns == 20000 && m[0].max_row_count == 5 && !m[0].overflows,
	   "the maximum 20 us sits on its row of 5 samples");
	rtm_report_mark_of(h, 3, 0, &m[1]);
	ok(m[1].overflows == 3 && m[1].overflow_ns == 20000,
	   "3 overflowed samples, limit unknown: drawn at the maximum, their upper bound");
	rtm_report_mark_of(h, 3, 15000, &m[1]);
	ok(m[1].overflow_ns == 15000, "the source's limit when known");
	f = open_memstream(&text, &len);
	rtm_report_marks_block(f, m, 2);
	fclose(f);
	is_str(text, "# max_us samples overflow_us overflows\n20.000 5 NaN NaN\n"
	       "20.000 5 15.000 3\n\n\n", "marks block: one row per line");
	free(text);
	rtm_hist_free(h);

	rtm_report_irq_axis(rates, 3, &lo, &hi);
	ok(lo == 0.01 && hi == 10000, "IRQ rates 0.2 to 2524/s: log axis 0.01 to 10000 (%g-%g)",
	   lo, hi);
	ok(rtm_report_draw_formats(1u << RTM_PLOT_PDF) ==
	   ((1u << RTM_PLOT_PDF) | (1u << RTM_PLOT_PNG)) &&
	   rtm_report_draw_formats(1u << RTM_PLOT_SVG) == (1u << RTM_PLOT_SVG),
	   "--format pdf draws a PNG for the page too; svg alone does not");
}

/* What a plot's title says of the run; unknowns shown as such. */
static void titles(void)
{
	struct rtm_report_desc_in d = { .interval = "1.00 ms", .sched = "fifo 95",
					.duration = "20s", .load = "stress-ng --cpu 2",
					.kernel = "6.18.44", .samples = 39875 };
	struct rtm_report_desc_in none = { .samples = 7 };
	struct rtm_result *r = rtm_result_alloc("cyclic");
	char buf[512];

	rtm_report_desc(buf, sizeof(buf), &d);
	is_str(buf, "interval 1.00 ms, fifo 95, 39875 samples, 20s, load: stress-ng --cpu 2, "
	       "kernel 6.18.44", "title: interval, priority, samples, duration, load, kernel");
	rtm_report_desc(buf, sizeof(buf), &none);
	is_str(buf, "interval ?, priority ?, 7 samples, duration ?, load: ?, kernel ?",
	       "unknown facts are marked unknown");
	json_decref(r->options);
	r->options = json_pack("{s:I, s:{s:s, s:i}}", "interval_ns", (json_int_t)200000,
			       "sched", "policy", "rr", "priority", 80);
	r->sysinfo = json_pack("{s:{s:s}}", "kernel", "release", "6.1.0-rt");
	r->duration_ns = 60000000000ULL;
	rtm_report_result_desc(buf, sizeof(buf), r, 300000);
	is_str(buf, "interval 200 us, rr 80, 300000 samples, 1m00s, load: none, kernel 6.1.0-rt",
	       "from a result: a cyclic run without a load section ran idle");
	rtm_result_free(r);
}

static void many_cpus(void)
{
	struct rtm_report_opts o = { .formats = 1u << RTM_PLOT_SVG, .width = 600, .height = 400 };
	struct rtm_error err = { "" };
	struct rtm_result *r = rtm_result_alloc("cyclic");
	char dir[] = "/tmp/rtm-test-report.XXXXXX", path[PATH_MAX];
	char *dat, *html;
	int c, k, titles = 0;

	if (access("/usr/bin/gnuplot", X_OK) && access("/usr/local/bin/gnuplot", X_OK)) {
		ok(1, "# SKIP gnuplot not installed");
		rtm_result_free(r);
		return;
	}
	for (c = 0; c < 64; c++) {
		struct rtm_result_cpu *rc = rtm_result_add_cpu(r, c, true, 0);

		/* CPU c's maximum grows with c: the worst 7 are 57..63 */
		for (k = 0; k < 100; k++)
			rtm_hist_record(rc->raw, 10000 + (uint64_t)k * 10);
		rtm_hist_record(rc->raw, 100000 + (uint64_t)c * 1000);
		rtm_hist_merge(rc->corrected, rc->raw);
	}
	if (!mkdtemp(dir)) {
		ok(0, "a temporary folder for the report (%s): %s", dir, strerror(errno));
		rtm_result_free(r);
		return;
	}
	o.out_dir = o.results_dir = dir;
	if (getenv("RTM_SRCDIR")) {	/* the templates of this tree, not installed ones */
		snprintf(path, sizeof(path), "%s/plots", getenv("RTM_SRCDIR"));
		setenv("RTMEASURE_PLOTS", path, 1);
	}
	ok(rtm_report_write(r, &o, &err) == 0, "a 64-CPU report is written (%s)", err.msg);
	snprintf(path, sizeof(path), "%s/plots/data/histogram.dat", dir);
	dat = rtm_read_all("/", path, NULL);
	for (c = 0; dat && c < 64; c++) {
		char t[32];

		snprintf(t, sizeof(t), "\"CPU%d (max", c);
		titles += strstr(dat, t) != NULL;
	}
	ok(dat && strstr(dat, "\"all CPUs (max 163.0 us)\""), "the all-CPUs line, with its max");
	is_int(titles, 7, "7 CPU lines");
	ok(dat && strstr(dat, "\"CPU63 (max 163.0 us)\"") && strstr(dat, "\"CPU57 (max") &&
	   !strstr(dat, "\"CPU56 (max"), "the lines are CPUs 57-63, the highest maxima");
	snprintf(path, sizeof(path), "%s/report.html", dir);
	html = rtm_read_all("/", path, NULL);
	ok(html && strstr(html, "<td class=\"l\">63</td>") && strstr(html, "<td class=\"l\">0</td>"),
	   "the summary table lists every CPU");
	ok(html && strstr(html, "<svg"), "SVG plots inline");
	free(dat);
	free(html);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		diag("could not remove %s", dir);
	rtm_result_free(r);
}

/*
 * avg is rounded once, in the one formatter: CPU 0's mean 33250.5 ns and CPU 1's
 * 33349.6 ns read 33.3 us in the summary table, compare and report.md alike
 * (rounding to whole ns first, or cutting to them, gave 33.4 or 33.2).
 */
static void avg_rounding(void)
{
	struct rtm_report_opts o = { .formats = 1u << RTM_PLOT_SVG, .width = 600, .height = 400 };
	struct rtm_error err = { "" };
	struct rtm_result *r = rtm_result_alloc("cyclic");
	struct rtm_result_cpu *c0 = rtm_result_add_cpu(r, 0, true, 0);
	struct rtm_result_cpu *c1 = rtm_result_add_cpu(r, 1, true, 0);
	char dir[] = "/tmp/rtm-test-report.XXXXXX", path[PATH_MAX];
	struct rtm_compare *cmp;
	char *text = NULL, *md;
	size_t len = 0;
	FILE *f;

	rtm_hist_record(c0->raw, 33250);
	rtm_hist_record(c0->raw, 33251);
	rtm_hist_record_n(c1->raw, 33349, 2);
	rtm_hist_record_n(c1->raw, 33350, 3);
	f = open_memstream(&text, &len);
	rtm_summary_fprint(r, f);
	fclose(f);
	if (!ok(text && strstr(text, "\n0              2      33.2      33.3 ") &&
		strstr(text, "\n1              5      33.3      33.3 "),
		"summary table: avg 33.3 on both CPUs"))
		diag("%s", text ?: "");
	free(text);
	cmp = rtm_compare_alloc();
	text = NULL;
	if (cmp && !rtm_compare_add(cmp, r, "a", NULL, &err) &&
	    !rtm_compare_add(cmp, r, "b", NULL, &err)) {
		rtm_compare_finish(cmp);
		f = open_memstream(&text, &len);
		rtm_compare_fprint(cmp, f);
		fclose(f);
	}
	if (!ok(text && strstr(text, "\n0     a                       2     33.2     33.3 ") &&
		strstr(text, "\n1     a                       5     33.3     33.3 "),
		"compare's table: avg 33.3 on both CPUs"))
		diag("%s", text ?: "");
	free(text);
	rtm_compare_free(cmp);
	if ((access("/usr/bin/gnuplot", X_OK) && access("/usr/local/bin/gnuplot", X_OK)) ||
	    !mkdtemp(dir)) {
		ok(1, "# SKIP gnuplot not installed, or no temporary folder");
		rtm_result_free(r);
		return;
	}
	o.out_dir = o.results_dir = dir;
	ok(rtm_report_write(r, &o, &err) == 0, "report written (%s)", err.msg);
	snprintf(path, sizeof(path), "%s/report.md", dir);
	md = rtm_read_all("/", path, NULL);
	ok(md && strstr(md, "\n| 0 | 2 | 33.2 | 33.3 |") && strstr(md, "\n| 1 | 5 | 33.3 | 33.3 |"),
	   "report.md: avg 33.3 on both CPUs");
	free(md);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		diag("could not remove %s", dir);
	rtm_result_free(r);
}

int main(void)
{
	blocks();
	axes();
	marks_and_irq();
	titles();
	many_cpus();
	avg_rounding();
	return tap_done();
}
