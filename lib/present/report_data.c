// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_data.c - the data files the plot templates read, and the axes and
 * titles of the plots (pure functions: they look at histograms and results and
 * write nothing, so report.c and compare_pages.c draw alike), the
 * banner of what disturbed the run, which every report page opens with, and
 * the headings, paragraphs and tables of the storage and noise pages.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "irq/irq.h"
#include "core/fileio.h"
#include "core/jsonutil.h"
#include "present/html.h"
#include "present/report.h"
#include "present/report_priv.h"
#include "present/wakeup_print.h"
#include "core/units.h"
#include "result/disturb.h"

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

/* The histogram's buckets merged into microsecond rows, as histogram.txt has them. */
struct row_iter {
	const struct rtm_hist *h;
	unsigned int pos;
	bool started, have;
	struct rtm_hist_bucket b;
};

static bool row_next(struct row_iter *it, uint64_t *us, uint64_t *count)
{
	uint64_t u;

	if (!it->started) {
		it->started = true;
		it->have = rtm_hist_next(it->h, &it->pos, &it->b);
	}
	if (!it->have)
		return false;
	u = rtm_hist_bucket_value(it->h, &it->b) / 1000;
	*count = 0;
	do {
		*count += it->b.count;
		it->have = rtm_hist_next(it->h, &it->pos, &it->b);
	} while (it->have && rtm_hist_bucket_value(it->h, &it->b) / 1000 == u);
	*us = u;
	return true;
}

int rtm_report_hist_block(FILE *f, const struct rtm_hist *h, const char *title)
{
	struct row_iter it = { .h = h };
	uint64_t u, count, prev = 0;
	bool first = true;

	fputs("\"latency_us\" ", f);
	rtm_report_gp_quoted(f, title);
	fputc('\n', f);
	while (row_next(&it, &u, &count)) {
		/* an empty microsecond breaks the line: nothing bridges a gap */
		if (!first && u != prev + 1)
			fputc('\n', f);
		fprintf(f, "%llu %llu\n", (unsigned long long)u, (unsigned long long)count);
		prev = u;
		first = false;
	}
	if (!h->count)
		fputs("0 0\n", f);	/* gnuplot wants a row in every block */
	fputs("\n\n", f);
	return ferror(f) ? -EIO : 0;
}

int rtm_report_marks_block(FILE *f, const struct rtm_report_mark *m, int n)
{
	int i;

	fputs("# max_us samples overflow_us overflows\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%.3f %llu ", (double)m[i].max_ns / 1000.0,
			(unsigned long long)m[i].max_row_count);
		if (m[i].overflows)
			fprintf(f, "%.3f %llu\n", (double)m[i].overflow_ns / 1000.0,
				(unsigned long long)m[i].overflows);
		else
			fputs("NaN NaN\n", f);
	}
	if (!n)
		fputs("NaN NaN NaN NaN\n", f);
	fputs("\n\n", f);
	return ferror(f) ? -EIO : 0;
}

void rtm_report_mark_of(const struct rtm_hist *h, uint64_t overflows, uint64_t overflow_ns,
			struct rtm_report_mark *m)
{
	struct row_iter it = { .h = h };
	uint64_t u, count;

	memset(m, 0, sizeof(*m));
	m->max_ns = h->count ? h->max_ns : 0;
	while (row_next(&it, &u, &count))
		m->max_row_count = count;	/* the last row holds the maximum */
	m->overflows = overflows;
	m->overflow_ns = overflows ? (overflow_ns ? overflow_ns : h->max_ns) : 0;
}

/*
 * The steps of @h's percentile curve: for each non-empty bucket, the x where it
 * starts (1/(1 - p) at the rank below it) and its value, which is what
 * rtm_hist_percentile() gives for any percentile inside it: it is asked at the
 * bucket's first rank, so the curve and the tables cannot disagree.
 */
static int pct_steps(FILE *f, const struct rtm_hist *h)
{
	double *ps = calloc(RTM_HIST_NCOUNTS, sizeof(*ps));
	uint64_t *below = calloc(RTM_HIST_NCOUNTS, sizeof(*below));
	uint64_t *v = calloc(RTM_HIST_NCOUNTS, sizeof(*v)), sum = 0;
	double count = (double)h->count;
	struct rtm_hist_bucket b;
	unsigned int pos = 0;
	int n = 0, i;

	if (!ps || !below || !v) {
		free(ps);
		free(below);
		free(v);
		return -ENOMEM;
	}
	while (n < RTM_HIST_NCOUNTS && rtm_hist_next(h, &pos, &b)) {
		below[n] = sum;
		ps[n++] = 100.0 * (double)(sum + 1) / count;
		sum += b.count;
	}
	rtm_hist_percentiles(h, ps, n, v);
	for (i = 0; i < n; i++)
		fprintf(f, "%.10g %.3f %.10g\n", count / (count - (double)below[i]),
			(double)v[i] / 1000.0, 100.0 * (double)below[i] / count);
	/* the last step runs to where the last sample's rank starts: x = samples */
	if (n && below[n - 1] + 1 < h->count)
		fprintf(f, "%.10g %.3f %.10g\n", count, (double)v[n - 1] / 1000.0,
			100.0 * (count - 1) / count);
	free(ps);
	free(below);
	free(v);
	return 0;
}

int rtm_report_pct_block(FILE *f, const struct rtm_hist *h, const char *title, double *xmax)
{
	int ret = 0;

	fputs("\"x\" ", f);
	rtm_report_gp_quoted(f, title);
	fputc('\n', f);
	if (h->count)
		ret = pct_steps(f, h);
	else
		fputs("1 NaN 0\n", f);	/* gnuplot wants a row in every block */
	fputs("\n\n", f);
	*xmax = h->count > 10 ? (double)h->count : 10.0;
	return ret ? ret : ferror(f) ? -EIO : 0;
}

int rtm_report_pct_marks_block(FILE *f, const struct rtm_hist *const *h, int n)
{
	char mx[16];
	bool told;
	int i, j;

	fputs("# samples max_us label\n", f);
	for (i = 0; i < n; i++) {
		if (!h[i]->count) {
			fputs("NaN NaN \"\"\n", f);
			continue;
		}
		/* a maximum already labelled (the corrected curve's is the raw one) is not again */
		for (j = 0, told = false; j < i; j++)
			told |= h[j]->count && h[j]->max_ns == h[i]->max_ns;
		rtm_fmt_us(mx, sizeof(mx), h[i]->max_ns);
		fprintf(f, "%llu %.3f \"%s%s%s\"\n", (unsigned long long)h[i]->count,
			(double)h[i]->max_ns / 1000.0, told ? "" : "max ", told ? "" : mx,
			told ? "" : " us");
	}
	if (!n)
		fputs("NaN NaN \"\"\n", f);
	fputs("\n\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- axes */

/* The smallest round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten) >= @x. */
double rtm_report_nice_up(double x)
{
	static const double steps[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
	double p;
	size_t i;

	if (x <= 0)
		return 1;
	p = pow(10.0, floor(log10(x)));
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * p >= x * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}

void rtm_report_hist_vars(const struct rtm_hist_axis *ax, int nlines, bool overflow,
			  struct rtm_report_hist_vars *b, struct rtm_plot_var *v)
{
	snprintf(b->n, sizeof(b->n), "%d", nlines);
	snprintf(b->logx, sizeof(b->logx), "%d", ax->logx);
	snprintf(b->xmin, sizeof(b->xmin), "%.6g", ax->xmin_us);
	snprintf(b->xmax, sizeof(b->xmax), "%.6g", ax->xmax_us);
	snprintf(b->split, sizeof(b->split), "%.6g", ax->split_us);
	snprintf(b->ymax, sizeof(b->ymax), "%.6g", ax->ymax);
	snprintf(b->tt, sizeof(b->tt), "%.6g", ax->tail_tic_us ? ax->tail_tic_us : 1);
	v[0] = (struct rtm_plot_var){ "ncpus", b->n, true };
	v[1] = (struct rtm_plot_var){ "logx", b->logx, true };
	v[2] = (struct rtm_plot_var){ "xmin", b->xmin, true };
	v[3] = (struct rtm_plot_var){ "xmax", b->xmax, true };
	v[4] = (struct rtm_plot_var){ "split", b->split, true };
	v[5] = (struct rtm_plot_var){ "ymax", b->ymax, true };
	v[6] = (struct rtm_plot_var){ "has_overflow", overflow ? "1" : "0", true };
	v[7] = (struct rtm_plot_var){ "tailtic", b->tt, true };
}

void rtm_report_hist_axis(const struct rtm_hist *const *h, int n, bool logx,
			  struct rtm_hist_axis *ax)
{
	uint64_t lo = UINT64_MAX, hi = 0, body = 0, u, count;
	double body_end;
	int i;

	memset(ax, 0, sizeof(*ax));
	ax->logx = logx;
	ax->ymax = 1;
	for (i = 0; i < n; i++) {
		struct row_iter it = { .h = h[i] };
		uint64_t b;

		if (!h[i]->count)
			continue;
		lo = h[i]->min_ns < lo ? h[i]->min_ns : lo;
		hi = h[i]->max_ns > hi ? h[i]->max_ns : hi;
		/* the body: p90 where the count supports it, else all of it */
		b = h[i]->count >= 10 ? rtm_hist_percentile(h[i], 90) : h[i]->max_ns;
		body = b > body ? b : body;
		while (row_next(&it, &u, &count))
			ax->ymax = (double)count > ax->ymax ? (double)count : ax->ymax;
	}
	if (!hi) {
		ax->xmin_us = logx ? 1 : 0;
		ax->xmax_us = 10;
		return;
	}
	if (logx) {
		/* the rows sit at whole microseconds; row 0 has no place on a log axis */
		ax->xmin_us = pow(10.0, floor(log10(lo / 1000 ? (double)(lo / 1000) : 1.0)));
		ax->xmax_us = rtm_report_nice_up((double)hi / 1000.0 * 1.2 + 1);
		return;
	}
	/* OSADL's axis: linear from 0, one row per microsecond */
	ax->xmin_us = 0;
	body_end = rtm_report_nice_up((double)body / 1000.0 * 3 + 1);
	ax->xmax_us = rtm_report_nice_up((double)hi / 1000.0 * 1.05 + 1);
	/* a tail far beyond the body gets its own panel, so the body is not a few pixels */
	if (ax->xmax_us > 5 * body_end) {
		ax->split_us = body_end;
		ax->tail_tic_us = rtm_report_nice_up((ax->xmax_us - body_end) / 4);
	}
}

/* ---- titles */

void rtm_report_desc(char *buf, size_t len, const struct rtm_report_desc_in *d)
{
	snprintf(buf, len, "interval %s, %s, %llu samples, %s, load: %s, kernel %s",
		 d->interval ?: "?", d->sched ?: "priority ?", (unsigned long long)d->samples,
		 d->duration ?: "duration ?", d->load ?: "?", d->kernel ?: "?");
}

void rtm_report_result_desc(char *buf, size_t len, const struct rtm_result *r, uint64_t samples)
{
	const json_t *o = r->options, *sched = json_object_get(o, "sched");
	const json_t *load = json_object_get(json_object_get(r->sections, "load"), "commands");
	const json_t *iv = json_object_get(o, "interval_ns");
	const char *pol = json_string_value(json_object_get(sched, "policy"));
	char interval[32], sc[48], dur[32], ld[256] = "";
	struct rtm_report_desc_in d = { .samples = samples };
	const json_t *wk = json_object_get(r->sections, "wakeup");
	size_t k, l;

	/* rtmeasure wakeup: the tasks it took, not a probe's interval (monitor's: beside it) */
	if (wk && !json_is_true(json_object_get(wk, "beside_probe"))) {
		rtm_wakeup_selection_text(ld, sizeof(ld), wk);
		snprintf(buf, len, "wake-up to switch-in of %s, %llu waits, %s, kernel %s", ld,
			 (unsigned long long)samples, r->duration_ns ? rtm_fmt_duration(dur,
			 sizeof(dur), r->duration_ns) : "duration ?",
			 rtm_json_path_str(r->sysinfo, "kernel.release") ?: "?");
		return;
	}
	if (json_is_integer(iv))
		d.interval = rtm_fmt_ns(interval, sizeof(interval),
					(uint64_t)json_integer_value(iv));
	if (pol && json_is_integer(json_object_get(sched, "priority")))
		snprintf(sc, sizeof(sc), "%s %lld", pol,
			 json_integer_value(json_object_get(sched, "priority")));
	else
		snprintf(sc, sizeof(sc), "%s", pol ?: "priority ?");
	d.sched = sc;
	if (r->duration_ns)
		d.duration = rtm_fmt_duration(dur, sizeof(dur), r->duration_ns);
	for (k = 0; k < json_array_size(load); k++) {
		l = strlen(ld);
		snprintf(ld + l, sizeof(ld) - l, "%s%s", k ? "; " : "",
			 json_string_value(json_array_get(load, k)) ?: "");
	}
	/* no load section: none for our own runs, unknown for imported ones (as compare) */
	d.load = ld[0] ? ld : !strcmp(r->command, "cyclic") || !strcmp(r->command, "run") ?
		 "none" : NULL;
	d.kernel = rtm_json_path_str(r->sysinfo, "kernel.release");
	rtm_report_desc(buf, len, &d);
}

unsigned int rtm_report_draw_formats(unsigned int formats)
{
	/* a page embeds PNG or SVG; a PDF is an extra file, never the page's image */
	if (!(formats & ((1u << RTM_PLOT_PNG) | (1u << RTM_PLOT_SVG))))
		formats |= 1u << RTM_PLOT_PNG;
	return formats;
}

void rtm_report_irq_axis(const double *rates, int n, double *ymin, double *ymax)
{
	double lo = 0, hi = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (rates[i] > 0 && (lo == 0 || rates[i] < lo))
			lo = rates[i];
		hi = rates[i] > hi ? rates[i] : hi;
	}
	if (hi <= 0) {
		*ymin = 0.1;
		*ymax = 10;
		return;
	}
	/* a decade below the smallest bar, room above the largest for its label */
	*ymin = pow(10.0, floor(log10(lo)) - 1);
	*ymax = pow(10.0, ceil(log10(hi * 3)));
}

/* The IRQ rows of the report's plot and table, from sections.irq (see report_priv.h). */
int rtm_report_irq_rows(const struct rtm_result *r, struct rtm_report_irq *rows, int max)
{
	const json_t *ints = json_object_get(json_object_get(r->sections, "irq"), "interrupts");
	const json_t *cols = json_object_get(ints, "cpus"), *irqs = json_object_get(ints, "irqs");
	double secs = (double)json_integer_value(json_object_get(ints, "interval_ns")) / 1e9;
	struct rtm_cpulist meas = { 0, NULL };
	const char *cl = rtm_json_path_str(r->options, "cpus");
	size_t i, k, nirqs = json_array_size(irqs);
	uint64_t *count;
	int *idx, n, j;

	if (!irqs || secs <= 0 || !nirqs || max <= 0 || nirqs > INT_MAX)
		return 0;
	count = calloc(nirqs, sizeof(*count));
	idx = calloc((size_t)max, sizeof(*idx));
	if (!count || !idx) {
		free(count);
		free(idx);
		return 0;
	}
	if (cl)
		rtm_cpulist_parse(cl, &meas, NULL);
	for (i = 0; i < nirqs; i++) {
		const json_t *o = json_array_get(irqs, i), *counts = json_object_get(o, "counts");
		json_int_t c = 0;

		if (counts && meas.n) {
			for (k = 0; k < json_array_size(counts); k++)
				if (rtm_cpulist_has(&meas, (int)json_integer_value(json_array_get(cols, k))))
					c += json_integer_value(json_array_get(counts, k));
		} else {
			c = json_integer_value(json_object_get(o, "count"));
		}
		count[i] = c > 0 ? (uint64_t)c : 0;
	}
	/* one interval for all: the counts rank as the rates do */
	n = rtm_irq_rank(count, (int)nirqs, max, idx);
	for (j = 0; j < n; j++) {
		const json_t *o = json_array_get(irqs, (size_t)idx[j]);
		struct rtm_report_irq *row = &rows[j];

		row->name = json_string_value(json_object_get(o, "name"));
		row->desc = json_string_value(json_object_get(o, "actions"));
		if (!row->desc || !*row->desc)
			row->desc = json_string_value(json_object_get(o, "description"));
		row->name = row->name ? row->name : "?";
		row->desc = row->desc ? row->desc : "";
		row->rate = (double)count[idx[j]] / secs;
		/* named rows (LOC, RES, ...) have "irq": null */
		row->irq = json_is_integer(json_object_get(o, "irq")) ?
			   (int)json_integer_value(json_object_get(o, "irq")) : -1;
	}
	free(count);
	free(idx);
	rtm_cpulist_release(&meas);
	return n < 0 ? 0 : n;
}

void rtm_report_banner(const struct rtm_result *r, FILE *f, bool html)
{
	struct rtm_disturbances d;
	int i;

	rtm_result_disturbances(r, &d);
	for (i = 0; i < d.n; i++) {
		if (html) {
			fprintf(f, "<p class=\"warn\" id=\"warning-%s\">Warning: ", d.d[i].key);
			rtm_html_text(f, d.d[i].text);
			fputs(".</p>\n", f);
		} else {
			fputs("> **Warning:** ", f);
			rtm_md_text(f, d.d[i].text);
			fputs(".\n\n", f);
		}
	}
}

/* ---- the storage and noise pages: headings, paragraphs, tables, the files */

static void text(struct rtm_report_page *p, const char *s)
{
	if (p->html)
		rtm_html_text(p->f, s);
	else
		rtm_md_text(p->f, s);
}

void rtm_report_heading(struct rtm_report_page *p, int level, const char *s)
{
	level += p->sub;
	if (p->html)
		fprintf(p->f, "<h%d>", level);
	else
		fprintf(p->f, "%.*s ", level, "####");
	text(p, s);
	if (p->html)
		fprintf(p->f, "</h%d>\n", level);
	else
		fputs("\n\n", p->f);
}

void rtm_report_para(struct rtm_report_page *p, const char *cls, const char *s)
{
	if (p->html)
		fprintf(p->f, "<p%s%s%s>", cls ? " class=\"" : "", cls ?: "", cls ? "\"" : "");
	text(p, s);
	fputs(p->html ? "</p>\n" : "\n\n", p->f);
}

void rtm_report_row(struct rtm_report_page *p, const char *const *cells, int n, bool head)
{
	int i;

	fputs(p->html ? "<tr>" : "|", p->f);
	for (i = 0; i < n; i++) {
		if (p->html)
			fprintf(p->f, "<%s%s>", head ? "th" : "td",
				p->align[i] == 'l' ? " class=\"l\"" : "");
		else
			fputc(' ', p->f);
		text(p, cells[i]);
		if (p->html)
			fprintf(p->f, "</%s>", head ? "th" : "td");
		else
			fputs(" |", p->f);
	}
	fputs("\n", p->f);
	if (head && !p->html) {
		fputs("|", p->f);
		for (i = 0; i < n; i++)
			fputs(p->align[i] == 'l' ? "---|" : "---:|", p->f);
		fputs("\n", p->f);
	}
}

void rtm_report_table_begin(struct rtm_report_page *p, const char *align,
			    const char *const *heads, int n)
{
	p->align = align;
	if (p->html)
		fputs("<table>\n", p->f);
	rtm_report_row(p, heads, n, true);
}

void rtm_report_table_end(struct rtm_report_page *p)
{
	fputs(p->html ? "</table>\n" : "\n", p->f);
}

int rtm_report_page_save(const char *dir, const char *name, char *buf, size_t len,
			 struct rtm_error *err)
{
	char path[PATH_MAX + 32];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = buf ? rtm_write_atomic(path, buf, len) : -ENOMEM;
	free(buf);
	if (ret)
		return rtm_error_setn(err, ret, "cannot write %s: %s", path,
				      rtm_write_strerror(ret));
	return 0;
}

int rtm_report_plots_dir(const char *dir, char *plots, struct rtm_error *err)
{
	int ret;

	snprintf(plots, PATH_MAX, "%s/plots", dir);
	ret = rtm_dir_make(dir, "plots/data");	/* no symlink at plots followed */
	if (ret)
		return rtm_error_setn(err, ret, "cannot create %s/data: %s", plots,
				      rtm_write_strerror(ret));
	return 0;
}
