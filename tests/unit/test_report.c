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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fileio.h"
#include "present/compare.h"
#include "present/report.h"
#include "result/summary.h"
#include "present/summary_print.h"
#include "../tap.h"

static char *block_text(const struct rtm_hist *h, double *xmax, bool pct)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (pct)
		rtm_report_pct_block(f, h, "CPU \"0\"", xmax);
	else
		rtm_report_hist_block(f, h, "CPU \"0\"");
	fclose(f);
	return text;
}

/* The maxima of the percentile curves: a data set of their own, one marker a curve. */
static void pct_marks(void)
{
	struct rtm_hist *a = rtm_hist_alloc(), *b = rtm_hist_alloc(), *e = rtm_hist_alloc();
	const struct rtm_hist *curves[3] = { a, b, e };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	rtm_hist_record_n(a, 20000, 99);
	rtm_hist_record(a, 4481234);
	rtm_hist_merge(b, a);
	rtm_hist_record(b, 30000);
	rtm_report_pct_marks_block(f, curves, 3);
	fclose(f);
	is_str(text, "# samples max_us label\n100 4481.234 \"max 4481.2 us\"\n"
	       "101 4481.234 \"\"\nNaN NaN \"\"\n\n\n",
	       "marks: the exact maximum at x = samples, labelled once; none for an empty curve");
	free(text);
	rtm_hist_free(a);
	rtm_hist_free(b);
	rtm_hist_free(e);
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

	/*
	 * the curve as steps: a row where each bucket's ranks start (x = 1/(1-p)
	 * of the ranks below it) at its value, then the last step closed at x = 15
	 * (the last rank's start); the maximum is no point of the curve
	 */
	t = block_text(h, &xmax, true);
	ok(xmax == 15, "15 samples: the percentile axis ends at x = 15 samples (%g)", xmax);
	is_str(t, "\"x\" \"CPU \\\"0\\\"\"\n1 5.207 0\n3 12.303 66.66666667\n"
	       "7.5 12.911 86.66666667\n15 13.100 93.33333333\n\n\n",
	       "percentile block: one step per bucket at its value, from the rank below it");
	ok(rtm_hist_percentile(h, 60) == 5207 && rtm_hist_percentile(h, 80) == 12303 &&
	   rtm_hist_percentile(h, 90) == 12911 && rtm_hist_percentile(h, 99) == 13100,
	   "each step's value is rtm_hist_percentile()'s inside it");
	free(t);

	rtm_hist_reset(h);
	for (i = 0; i < 100000; i++)
		rtm_hist_record(h, 10000 + (uint64_t)i);
	t = block_text(h, &xmax, true);
	ok(xmax == 100000, "100000 samples: the axis reaches x = 100000");
	ok(strstr(t, "\n100000 109.") && !strstr(t, " 100\n") && !strstr(t, "\n\n1"),
	   "the last step ends at x = 100000, in one run of rows: nothing drawn to the maximum");
	free(t);

	rtm_hist_reset(h);
	t = block_text(h, &xmax, true);
	is_str(t, "\"x\" \"CPU \\\"0\\\"\"\n1 NaN 0\n\n\n", "an empty curve still has a row");
	free(t);
	pct_marks();

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

/* ---- plots of recorded runs, drawn by gnuplot, against the tables */

static bool have_gnuplot(void)
{
	if (access("/usr/bin/gnuplot", X_OK) && access("/usr/local/bin/gnuplot", X_OK)) {
		ok(1, "# SKIP gnuplot not installed");
		return false;
	}
	if (getenv("RTM_SRCDIR")) {	/* the templates of this tree, not installed ones */
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/plots", getenv("RTM_SRCDIR"));
		setenv("RTMEASURE_PLOTS", path, 1);
	}
	return true;
}

static struct rtm_result *load(const char *name)
{
	struct rtm_error err = { "" };
	struct rtm_result *r = rtm_result_load(name, &err);

	ok(r != NULL, "%s loads (%s)", name, err.msg);
	return r;
}

static char *file_of(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return rtm_read_all("/", path, NULL);
}

static void remove_dir(const char *dir)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
}

/* report.html, report.md and the plots of @r in a new folder @dir (a mkdtemp template). */
static bool report_into(const struct rtm_result *r, char *dir)
{
	struct rtm_report_opts o = { .formats = 1u << RTM_PLOT_SVG, .width = 600, .height = 400 };
	struct rtm_error err = { "" };

	if (!mkdtemp(dir)) {
		ok(0, "a temporary folder for the report (%s): %s", dir, strerror(errno));
		return false;
	}
	o.out_dir = o.results_dir = dir;
	return ok(rtm_report_write(r, &o, &err) == 0, "the report is written (%s)", err.msg);
}

/* One block of a data file: its title (the header's second string) and its rows. */
struct block {
	char title[128];
	int n;
	double x[RTM_HIST_NCOUNTS + 2], y[RTM_HIST_NCOUNTS + 2];
	bool broken;			/* a single blank line inside: two data sets */
};

/* The blocks of @text (separated by two blank lines) into @b, at most @max; their number. */
static int parse_blocks(const char *text, struct block *b, int max)
{
	const char *p = text;
	int n = 0;

	while (p && *p && n < max) {
		const char *end = strstr(p, "\n\n\n"), *line = p;
		struct block *k = &b[n++];

		memset(k, 0, sizeof(*k));
		while (line && (!end || line < end)) {
			const char *q;

			if (*line == '"' && (q = strchr(line + 1, '"')) && (q = strchr(q + 1, '"')))
				sscanf(q + 1, "%127[^\"]", k->title);
			else if (*line == '\n')
				k->broken = true;
			else if (*line != '#' && k->n < RTM_HIST_NCOUNTS + 2 &&
				 sscanf(line, "%lf %lf", &k->x[k->n], &k->y[k->n]) == 2)
				k->n++;
			line = strchr(line, '\n');
			line = line ? line + 1 : NULL;
		}
		p = end ? end + 3 : NULL;
	}
	return n;
}

/* The summary row a curve titled @title shows the figures of (NULL: none). */
static const struct rtm_summary_row *row_of(const char *title, const struct rtm_summary_row *raw,
					    const struct rtm_summary_row *corr, int nrows)
{
	int cpu, i;

	if (!strncmp(title, "all CPUs, corrected", 19))
		return &corr[nrows - 1];
	if (!strncmp(title, "all CPUs", 8))
		return &raw[nrows - 1];
	if (sscanf(title, "CPU%d (max", &cpu) == 1)
		for (i = 0; i < nrows - 1; i++)
			if (raw[i].cpu == cpu)
				return &raw[i];
	return NULL;
}

/*
 * One curve against its table row: steps only (x rising, one data set), up
 * to x = samples; at each percentile the table shows, the step it falls on
 * (ranks are closed on the right: the last step starting below x) holds the
 * table's value. Counts the percentiles checked and those that disagree.
 */
static void check_curve(const struct block *b, const struct rtm_summary_row *row, int *checked,
			int *wrong)
{
	int i, k, bad = 0;

	for (i = 1; i < b->n; i++)
		bad += b->x[i] <= b->x[i - 1] && !(i == b->n - 1 && b->x[i] == b->x[i - 1]);
	ok(!b->broken && !bad && b->n > 1 && b->x[b->n - 1] == (double)row->samples,
	   "%s: one run of steps, x rising to %llu samples, nothing beyond", b->title,
	   (unsigned long long)row->samples);
	for (k = 0; k < RTM_SUMMARY_NPCT; k++) {
		double xp = 1.0 / (1.0 - rtm_summary_pcts[k] / 100.0);
		int at = 0;

		if (!rtm_summary_pct_known(row, k) || xp > (double)row->samples)
			continue;
		for (i = 0; i < b->n; i++)
			if (b->x[i] < xp * (1 - 1e-9))
				at = i;
		(*checked)++;
		if (fabs(b->y[at] - (double)row->pct_ns[k] / 1000.0) > 0.0005) {
			(*wrong)++;
			diag("%s: p%g is %.3f us in the table, %.3f on the curve", b->title,
			     rtm_summary_pcts[k], (double)row->pct_ns[k] / 1000.0, b->y[at]);
		}
	}
}

/* The percentile plot of a recorded run reads the summary table's values. */
static void pct_agrees_with_table(void)
{
	char dir[] = "/tmp/rtm-test-pct.XXXXXX";
	struct rtm_summary_row *raw = NULL, *corr = NULL;
	struct block *b = calloc(8, sizeof(*b));
	int i, n, nrows, checked = 0, wrong = 0;
	struct rtm_result *r;
	char *dat = NULL;

	r = load(RTM_SRCDIR "/tests/data/results/vm-6.18-load/result.json");
	if (!r || !b || !report_into(r, dir))
		goto out;
	dat = file_of(dir, "plots/data/percentiles.dat");
	nrows = rtm_summary_rows(r, false, &raw);
	if (!ok(dat && nrows > 0 && rtm_summary_rows(r, true, &corr) == nrows,
		"percentiles.dat and the summary table"))
		goto out;
	n = parse_blocks(dat, b, 8);
	is_int(n, 4, "CPU0, CPU1 and the corrected all-CPUs curve, then the maxima: 4 data sets");
	for (i = 0; i < n - 1; i++) {
		const struct rtm_summary_row *row = row_of(b[i].title, raw, corr, nrows);

		if (!ok(row != NULL, "curve '%s' is a row of the table", b[i].title))
			continue;
		check_curve(&b[i], row, &checked, &wrong);
		/* the maximum: a marker in the data set after the curves, not a point of them */
		ok(n > 1 && b[n - 1].n == n - 1 && b[n - 1].x[i] == (double)row->samples &&
		   fabs(b[n - 1].y[i] - (double)row->max_ns / 1000.0) < 0.0005,
		   "%s: its maximum is marker %d of the last data set, at x = samples", b[i].title,
		   i);
	}
	ok(checked >= 12 && !wrong, "every percentile the table shows (%d checked) is the curve's "
	   "value there; %d differ", checked, wrong);
out:
	free(dat);
	free(raw);
	free(corr);
	free(b);
	rtm_result_free(r);
	if (dir[strlen(dir) - 1] != 'X')
		remove_dir(dir);
}

/* ---- one colour a CPU */

struct seen {
	char cpu[2][8], all[8];		/* the colour CPU 0 and 1 and all CPUs had */
	int conflicts;			/* a CPU drawn in another colour than before */
};

static void note(char *had, const char *colour, int *conflicts)
{
	if (had[0] && strcmp(had, colour))
		(*conflicts)++;
	snprintf(had, 8, "%s", colour);
}

/*
 * The colours of plot @name (its saved script's "colours", one a block) into
 * @words, and noted in @s by the titles of its data file's blocks. Returns
 * the number of colours, or -1 when they are not one per titled block.
 */
static int plot_colours(const char *dir, const char *name, struct seen *s, char (*words)[8],
			int max)
{
	char file[64], *gp, *dat, *c;
	struct block *b = calloc(48, sizeof(*b));
	int n = 0, nb = 0, titled = 0, i, cpu;

	snprintf(file, sizeof(file), "plots/data/%s.gp", name);
	gp = file_of(dir, file);
	snprintf(file, sizeof(file), "plots/data/%s.dat", name);
	dat = file_of(dir, file);
	c = gp ? strstr(gp, "\ncolours = '") : NULL;
	for (c = c ? c + 12 : NULL; c && *c == '#' && n < max; c += 7 + (c[7] == ' '))
		snprintf(words[n++], 8, "%.7s", c);
	if (b && dat)
		nb = parse_blocks(dat, b, 48);
	for (i = 0; i < nb; i++) {
		if (!b[i].title[0])
			continue;	/* the markers' data set */
		if (titled < n && sscanf(b[i].title, "CPU%d", &cpu) == 1 && cpu >= 0 && cpu < 2)
			note(s->cpu[cpu], words[titled], &s->conflicts);
		else if (titled < n && !strncmp(b[i].title, "all CPUs", 8))
			note(s->all, words[titled], &s->conflicts);
		titled++;
	}
	free(gp);
	free(dat);
	free(b);
	return titled == n ? n : -1;
}

/* A result with sections.timer_irq: each CPU's timer IRQ delay a fifth of its wake-up. */
static void add_timer_irq(struct rtm_result *r)
{
	json_t *cpus = json_array();
	int i;

	for (i = 0; i < r->ncpus; i++) {
		struct rtm_hist *h = rtm_hist_alloc();
		struct rtm_hist_bucket bk;
		unsigned int pos = 0;

		while (rtm_hist_next(r->cpus[i].raw, &pos, &bk))
			rtm_hist_record_n(h, rtm_hist_bucket_value(r->cpus[i].raw, &bk) / 5, bk.count);
		json_array_append_new(cpus, json_pack("{s:i, s:I, s:o}", "cpu", r->cpus[i].cpu,
						      "count", (json_int_t)h->count, "delay",
						      rtm_hist_to_json(h)));
		rtm_hist_free(h);
	}
	json_object_set_new(r->sections, "timer_irq", json_pack("{s:o}", "cpus", cpus));
}

/*
 * CPU N has one colour in every plot (the timer-IRQ plot's two curves of a CPU
 * included), all CPUs one of their own; a comparison's runs none of theirs.
 */
static void colours_agree(void)
{
	static const char *const plots[] = { "histogram", "percentiles", "timeseries",
					     "timer_irq" };
	static const int want[] = { 2, 3, 2, 4 };
	char dir[] = "/tmp/rtm-test-colours.XXXXXX", ndir[] = "/tmp/rtm-test-ncolours.XXXXXX";
	char cdir[] = "/tmp/rtm-test-ccolours.XXXXXX", words[48][8], runs[2][8][8];
	struct rtm_compare_opts co = { .formats = 1u << RTM_PLOT_SVG, .width = 600,
				       .height = 400 };
	struct rtm_result *r = NULL, *noise = NULL, *a = NULL, *b = NULL;
	struct rtm_compare *c = rtm_compare_alloc();
	struct rtm_error err = { "" };
	struct seen s = { .conflicts = 0 };
	int i, j, n;

	r = load(RTM_SRCDIR "/tests/data/results/vm-6.18-load/result.json");
	noise = load(RTM_SRCDIR "/tests/data/results/vm-6.18-noise/result.json");
	a = load(RTM_SRCDIR "/tests/data/compare/lab-stock");
	b = load(RTM_SRCDIR "/tests/data/compare/lab-rt");
	if (!r || !noise || !a || !b || !c)
		goto out;
	add_timer_irq(r);
	if (!report_into(r, dir) || !report_into(noise, ndir))
		goto out;
	for (i = 0; i < 4; i++) {
		n = plot_colours(dir, plots[i], &s, words, 48);
		ok(n == want[i], "%s: its script gives each of its %d curves a colour (%d)",
		   plots[i], want[i], n);
	}
	n = plot_colours(ndir, "noise_hist", &s, words, 48);
	is_int(n, 2, "noise_hist: its script gives each of its 2 CPUs a colour");
	ok(!s.conflicts && s.cpu[0][0] && s.cpu[1][0] && s.all[0],
	   "CPU0 is %s, CPU1 %s, all CPUs %s in every plot (%d other colours)", s.cpu[0],
	   s.cpu[1], s.all, s.conflicts);
	ok(strcmp(s.cpu[0], s.cpu[1]) && strcmp(s.all, s.cpu[0]) && strcmp(s.all, s.cpu[1]),
	   "each CPU and all CPUs a colour of their own");

	if (!mkdtemp(cdir) || rtm_compare_add(c, a, "stock", NULL, &err) ||
	    rtm_compare_add(c, b, "rt", NULL, &err)) {
		ok(0, "compare stock and rt (%s)", err.msg);
		goto out;
	}
	rtm_compare_finish(c);
	co.out_dir = cdir;
	ok(rtm_compare_write(c, &co, &err) == 0, "compare's pages are written (%s)", err.msg);
	n = plot_colours(cdir, "compare-histogram", &s, runs[0], 8);
	j = plot_colours(cdir, "compare-percentiles", &s, runs[1], 8);
	ok(n == 2 && j == 2 && !strcmp(runs[0][0], runs[1][0]) && !strcmp(runs[0][1], runs[1][1])
	   && strcmp(runs[0][0], runs[0][1]), "compare: each run one colour in both plots");
	for (i = 0, j = 0; i < n && n > 0; i++)
		j += !strcmp(runs[0][i], s.cpu[0]) || !strcmp(runs[0][i], s.cpu[1]) ||
		     !strcmp(runs[0][i], s.all);
	ok(n == 2 && !j, "compare: no run drawn in a CPU's colour");
out:
	rtm_compare_free(c);
	rtm_result_free(r);
	rtm_result_free(noise);
	rtm_result_free(a);
	rtm_result_free(b);
	if (dir[strlen(dir) - 1] != 'X')
		remove_dir(dir);
	if (ndir[strlen(ndir) - 1] != 'X')
		remove_dir(ndir);
	if (cdir[strlen(cdir) - 1] != 'X')
		remove_dir(cdir);
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
	if (have_gnuplot()) {
		pct_agrees_with_table();
		colours_agree();
	}
	avg_rounding();
	return tap_done();
}
