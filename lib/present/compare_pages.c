// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare_pages.c - the comparison's overlay plots (histogram.gp and
 * percentiles.gp with one block, so one colour, per run: the runs' colours,
 * which no CPU has in the report's plots), compare.html
 * (self-contained: images embedded) and compare.md (images linked).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "present/compare_priv.h"
#include "core/fileio.h"
#include "core/stage.h"
#include "present/report.h"
#include "core/units.h"

#define HIST_NAME "compare-histogram"
#define PCT_NAME "compare-percentiles"

struct pages {
	const struct rtm_compare *c;
	const struct rtm_compare_opts *o;
	char plots[PATH_MAX];
	char title[512];
};

/* Draw plots/@name.*; the script is kept beside its data (plots/data/@name.gp). */
static int draw(const struct pages *p, const char *tmpl, const char *name,
		struct rtm_plot_var *vars, int nvars, struct rtm_error *err)
{
	return rtm_plot_draw_kept(tmpl, rtm_report_draw_formats(p->o->formats), p->o->width,
				  p->o->height, p->plots, name, vars, nvars, err);
}

static FILE *open_data(const struct pages *p, const char *name, char *path, size_t len,
		       struct rtm_error *err)
{
	FILE *f;

	snprintf(path, len, "%s/data/%s.dat", p->plots, name);
	f = rtm_fopen_atomic(path);	/* saved whole at fclose(), or not at all */
	if (!f)
		rtm_error_set(err, "cannot write %s: %s", path, strerror(errno));
	return f;
}

/* The runs' colours, one a line in the order of the runs. */
static void run_colours(const struct rtm_compare *c, char *list, size_t len)
{
	int i;

	list[0] = '\0';
	for (i = 0; i < c->nruns; i++)
		rtm_plot_list_add(list, len, rtm_plot_run_colour(i));
}

/* The plots' subtitle: one line per run saying what it measured. */
static void subtitle(const struct rtm_compare *c, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < c->nruns && off < len; i++) {
		const struct rtm_compare_run *r = &c->runs[i];
		struct rtm_report_desc_in d = {
			.interval = r->fp[RTM_FP_INTERVAL], .sched = r->fp[RTM_FP_SCHED],
			.duration = r->fp[RTM_FP_DURATION], .load = r->fp[RTM_FP_LOAD],
			.kernel = r->fp[RTM_FP_KERNEL], .samples = r->all->count,
		};
		char line[512];

		rtm_report_desc(line, sizeof(line), &d);
		off += (size_t)snprintf(buf + off, len - off, "%s%s: %s", i ? "\n" : "", r->label,
					line);
	}
}

static int plot_histogram(const struct pages *p, const char *sub, struct rtm_error *err)
{
	const struct rtm_compare *c = p->c;
	char path[PATH_MAX + 64], t[128], mx[16], n[16], logx[4], xmin[32], xmax[32], split[32];
	char ymax[32], tt[32], colours[RTM_COMPARE_MAX_RUNS * 8 + 1];
	const struct rtm_hist *lines[RTM_COMPARE_MAX_RUNS];
	struct rtm_report_mark marks[RTM_COMPARE_MAX_RUNS];
	struct rtm_plot_var v[12];
	struct rtm_hist_axis ax;
	bool ovf = false;
	FILE *f = open_data(p, HIST_NAME, path, sizeof(path), err);
	int i;

	if (!f)
		return -EIO;
	for (i = 0; i < c->nruns; i++) {
		const struct rtm_hist *h = c->runs[i].all;

		rtm_fmt_us(mx, sizeof(mx), h->max_ns);
		snprintf(t, sizeof(t), "%s (max %s us)", c->runs[i].label, mx);
		rtm_report_hist_block(f, h, t);
		/* the source's histogram limit is not kept: the overflowed lie up to the max */
		rtm_report_mark_of(h, c->runs[i].overflows, 0, &marks[i]);
		ovf |= c->runs[i].overflows > 0;
		lines[i] = h;
	}
	rtm_report_marks_block(f, marks, c->nruns);
	if (fclose(f))
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path,
				      rtm_write_strerror(-errno));
	/* the same axis as the report: linear, the tail in its own panel when far */
	rtm_report_hist_axis(lines, c->nruns, p->o->log_x, &ax);
	snprintf(n, sizeof(n), "%d", c->nruns);
	snprintf(logx, sizeof(logx), "%d", ax.logx);
	snprintf(xmin, sizeof(xmin), "%.6g", ax.xmin_us);
	snprintf(xmax, sizeof(xmax), "%.6g", ax.xmax_us);
	snprintf(split, sizeof(split), "%.6g", ax.split_us);
	snprintf(ymax, sizeof(ymax), "%.6g", ax.ymax);
	snprintf(tt, sizeof(tt), "%.6g", ax.tail_tic_us ? ax.tail_tic_us : 1);
	v[0] = (struct rtm_plot_var){ "ncpus", n, true };
	v[1] = (struct rtm_plot_var){ "title_text", p->title, false };
	v[2] = (struct rtm_plot_var){ "logx", logx, true };
	v[3] = (struct rtm_plot_var){ "datafile", path, false };
	v[4] = (struct rtm_plot_var){ "subtitle_text", sub, false };
	v[5] = (struct rtm_plot_var){ "xmin", xmin, true };
	v[6] = (struct rtm_plot_var){ "xmax", xmax, true };
	v[7] = (struct rtm_plot_var){ "split", split, true };
	v[8] = (struct rtm_plot_var){ "ymax", ymax, true };
	v[9] = (struct rtm_plot_var){ "has_overflow", ovf ? "1" : "0", true };
	v[10] = (struct rtm_plot_var){ "tailtic", tt, true };
	run_colours(c, colours, sizeof(colours));
	v[11] = (struct rtm_plot_var){ "colours", colours, false };
	return draw(p, "histogram", HIST_NAME, v, 12, err);
}

static int plot_percentiles(const struct pages *p, const char *sub, struct rtm_error *err)
{
	const struct rtm_compare *c = p->c;
	char path[PATH_MAX + 64], n[16], xm[32], ym[32], t[128], mx[16];
	char colours[RTM_COMPARE_MAX_RUNS * 8 + 1];
	const struct rtm_hist *curves[RTM_COMPARE_MAX_RUNS];
	struct rtm_plot_var v[7];
	double xmax = 10, x;
	uint64_t top = 0;
	FILE *f = open_data(p, PCT_NAME, path, sizeof(path), err);
	int i, ret = 0;

	if (!f)
		return -EIO;
	for (i = 0; i < c->nruns && !ret; i++) {
		rtm_fmt_us(mx, sizeof(mx), c->runs[i].all->max_ns);
		snprintf(t, sizeof(t), "%s (max %s us)", c->runs[i].label, mx);
		ret = rtm_report_pct_block(f, c->runs[i].all, t, &x);
		xmax = x > xmax ? x : xmax;
		top = c->runs[i].all->max_ns > top ? c->runs[i].all->max_ns : top;
		curves[i] = c->runs[i].all;
	}
	if (!ret)
		ret = rtm_report_pct_marks_block(f, curves, c->nruns);
	if (fclose(f) || ret)
		return rtm_error_setn(err, ret ? ret : -errno, "cannot write %s: %s", path,
				      ret ? strerror(-ret) : rtm_write_strerror(-errno));
	snprintf(n, sizeof(n), "%d", c->nruns);
	snprintf(xm, sizeof(xm), "%.6g", xmax);
	snprintf(ym, sizeof(ym), "%.6g", (double)top / 1000.0 * 1.6 + 1);
	run_colours(c, colours, sizeof(colours));
	v[0] = (struct rtm_plot_var){ "nblocks", n, true };
	v[1] = (struct rtm_plot_var){ "title_text", p->title, false };
	v[2] = (struct rtm_plot_var){ "xmax", xm, true };
	v[3] = (struct rtm_plot_var){ "datafile", path, false };
	v[4] = (struct rtm_plot_var){ "subtitle_text", sub, false };
	v[5] = (struct rtm_plot_var){ "ymax", ym, true };
	v[6] = (struct rtm_plot_var){ "colours", colours, false };
	return draw(p, "percentiles", PCT_NAME, v, 7, err);
}

static const char *const captions[2] = {
	"Latency histograms of all CPUs, one colour per run (samples per microsecond, log "
	"scale); triangles mark each run's maximum",
	"Percentile distributions of all CPUs, one colour per run (HdrHistogram style): each "
	"histogram bucket a step at the latency the table gives for the percentiles inside it, "
	"up to the last sample's rank (x = samples), where a triangle marks the exact maximum",
};

/* ---------------------------------------------------------------- HTML */

static void html_cell(FILE *f, const char *cls, const char *s)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	rtm_html_text(f, s);
	fputs("</td>", f);
}

static void html_table_rows(FILE *f, const struct rtm_compare *c, int cpu, bool cpu_col)
{
	const struct rtm_summary_row *base = rtm_compare_row(&c->runs[0], cpu);
	char buf[32], label[16];
	int i, j, w;

	snprintf(label, sizeof(label), "%d", cpu);
	for (i = 0; i < c->nruns; i++) {
		const struct rtm_summary_row *r = rtm_compare_row(&c->runs[i], cpu);

		for (w = 0; w < (i && r && base ? 3 : 1); w++) {
			fputs("<tr>", f);
			if (cpu_col)
				html_cell(f, "l", i || w ? "" : label);
			html_cell(f, "l", w == 0 ? c->runs[i].label : w == 1 ? "ratio" : "delta");
			for (j = 0; j < RTM_CM_NTABLE; j++) {
				rtm_compare_cell(buf, sizeof(buf), r, base, rtm_compare_table[j],
						 "vrd"[w]);
				html_cell(f, w ? "info" : NULL, buf);
			}
			fputs("</tr>\n", f);
		}
	}
}

static void html_table_head(FILE *f, bool cpu_col)
{
	int j;

	fputs("<table>\n<tr>", f);
	if (cpu_col)
		fputs("<th class=\"l\">CPU</th>", f);
	fputs("<th class=\"l\">run</th>", f);
	for (j = 0; j < RTM_CM_NTABLE; j++)
		fprintf(f, "<th>%s%s</th>", rtm_compare_metrics[rtm_compare_table[j]].name,
			rtm_compare_metrics[rtm_compare_table[j]].count ? "" : " (us)");
	fputs("</tr>\n", f);
}

static void html_fingerprints(FILE *f, const struct rtm_compare *c)
{
	int i, k;

	fputs("<table>\n<tr><th class=\"l\"></th>", f);
	for (i = 0; i < c->nruns; i++) {
		fputs("<th class=\"l\">", f);
		rtm_html_text(f, c->runs[i].label);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (k = 0; k < RTM_FP_NFIELDS; k++) {
		bool warned = false;

		for (i = 0; i < c->nwarnings; i++)
			warned |= c->warnings[i].field == (enum rtm_fp_field)k;
		fputs("<tr>", f);
		html_cell(f, "l", rtm_fp_fields[k].name);
		for (i = 0; i < c->nruns; i++) {
			const char *v = c->runs[i].fp[k], *a = c->runs[0].fp[k];
			bool differs = i && v && a && strcmp(v, a);

			html_cell(f, differs ? (warned ? "l warn" : "l info") : "l",
				  v ? v : "unknown");
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* Each run's tail percentiles with their intervals, and where the run came from. */
static void html_intervals(FILE *f, const struct rtm_compare *c)
{
	char v[16], lo[16], hi[16], cell[96], why[64];
	int i, k;

	fputs("<table>\n<tr><th class=\"l\">run</th>", f);
	for (k = 0; k < RTM_COMPARE_NPCT; k++)
		fprintf(f, "<th>p%g (us), %.0f%% CI</th>", rtm_compare_pcts[k],
			RTM_COMPARE_CONF * 100);
	fputs("<th class=\"l\">from</th></tr>\n", f);
	for (i = 0; i < c->nruns; i++) {
		fputs("<tr>", f);
		html_cell(f, "l", c->runs[i].label);
		for (k = 0; k < RTM_COMPARE_NPCT; k++) {
			const struct rtm_quantile_ci *ci = &c->runs[i].ci[k];
			const struct rtm_summary_row *all = rtm_compare_row(&c->runs[i], -1);
			int sk;

			/* an import's percentile among the samples beyond its rows */
			for (sk = 0; sk < RTM_SUMMARY_NPCT; sk++)
				if (rtm_summary_pcts[sk] == rtm_compare_pcts[k])
					break;
			if (sk < RTM_SUMMARY_NPCT && !rtm_summary_pct_shown(all, sk)) {
				rtm_summary_fmt_pct(v, sizeof(v), all, sk, false);
				snprintf(why, sizeof(why), "unknown: beyond the imported histogram");
				if (all->few & (1u << sk))
					rtm_summary_pct_reason(why, sizeof(why), all, sk);
				snprintf(cell, sizeof(cell), "%s (%s)", v, why);
				html_cell(f, "info", cell);
				continue;
			}
			rtm_fmt_us(v, sizeof(v), (double)ci->value_ns);
			rtm_fmt_us(lo, sizeof(lo), (double)ci->lo_ns);
			rtm_fmt_us(hi, sizeof(hi), (double)ci->hi_ns);
			if (ci->valid)
				snprintf(cell, sizeof(cell), "%s (%s-%s)", v, lo, hi);
			else
				snprintf(cell, sizeof(cell), "%s (too few samples)", v);
			html_cell(f, ci->valid ? NULL : "info", cell);
		}
		html_cell(f, "l", c->runs[i].path);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The image a page shows: PNG, else SVG (one of them is always drawn). */
static const char *image_ext(const struct rtm_compare_opts *o)
{
	return rtm_report_draw_formats(o->formats) & (1u << RTM_PLOT_PNG) ? "png" : "svg";
}

static void write_html(const struct pages *p, FILE *f)
{
	const struct rtm_compare *c = p->c;
	const char *ext = image_ext(p->o);
	char img[PATH_MAX + 64];
	int i, n, *cpus = NULL;

	rtm_html_begin(f, p->title);
	fputs("<h1>", f);
	rtm_html_text(f, p->title);
	fputs("</h1>\n<p class=\"sub\">Baseline: ", f);
	rtm_html_text(f, c->runs[0].label);
	fputs(". Ratios are run / baseline, deltas run &minus; baseline.</p>\n", f);
	if (c->banner[0]) {
		fputs("<p class=\"warn\"><b>", f);
		rtm_html_text(f, c->banner);
		fputs("</b></p>\n", f);
	}

	fputs("<h2>Verdicts</h2>\n", f);
	for (i = 0; i < c->nverdicts; i++) {
		fputs("<div class=\"verdict\">", f);
		rtm_html_text(f, c->verdicts[i].text);
		fputs("</div>\n", f);
	}
	fprintf(f, "<p class=\"sub\">All CPUs, %.0f%% confidence. Whole runs of one box vary "
		"more than the samples inside one run tell, so the intervals are taken over runs "
		"or over stretches of time: with several runs on a side, a t interval on the "
		"logarithms of the per-run percentiles (Welch; pooled when one side has a single "
		"run), about the ratio of their geometric means; with one run per side, a block "
		"bootstrap of the ratio of the two runs' percentiles, the table's, over the "
		"intervals of their time series (a series without per-interval histograms: a "
		"Welch t interval on batch means of its per-interval p99, named so), naming a "
		"difference only beyond %.1fx. Each verdict says which it used and over how many "
		"runs, intervals or batches. Not distinguishable: the interval holds 1, or there "
		"are too few runs, intervals or batches to say. The table below gives each run's "
		"percentiles with order-statistic intervals of its merged histogram: the sampling "
		"noise within the runs only.</p>\n", RTM_COMPARE_CONF * 100,
		RTM_COMPARE_BATCH_MARGIN);
	html_intervals(f, c);
	rtm_compare_tirq_html(c, f);	/* the timer IRQ part (compare_tirq.c) */
	rtm_compare_noise_page(c, f, true);	/* run --noise (compare_noise.c) */
	rtm_compare_cost_html(c, f);	/* throughput beside latency (compare_cost.c) */

	fputs("<h2>Fingerprints</h2>\n", f);
	html_fingerprints(f, c);
	for (i = 0; i < c->nwarnings; i++) {
		fputs(c->warnings[i].field < RTM_FP_NFIELDS ? "<p class=\"warn\">Unfair "
		      "comparison: " : "<p class=\"warn\">Warning: ", f);
		rtm_html_text(f, c->warnings[i].text);
		fputs("</p>\n", f);
	}
	if (!c->nwarnings)
		fputs("<p class=\"ok\">Nothing that makes the comparison unfair differs.</p>\n", f);

	fputs("<h2>All CPUs</h2>\n", f);
	html_table_head(f, false);
	html_table_rows(f, c, -1, false);
	fputs("</table>\n", f);
	n = rtm_compare_per_cpu(c) ? rtm_compare_cpus(c, &cpus) : 0;
	if (n > 0) {
		fputs("<h2>Per CPU</h2>\n", f);
		html_table_head(f, true);
		for (i = 0; i < n; i++)
			html_table_rows(f, c, cpus[i], true);
		fputs("</table>\n", f);
	}
	free(cpus);

	fputs("<h2>Plots</h2>\n", f);
	for (i = 0; i < 2; i++) {
		const char *name = i ? PCT_NAME : HIST_NAME;

		snprintf(img, sizeof(img), "%s/%s.%s", p->plots, name, ext);
		if (rtm_html_image(f, img, captions[i]))
			fprintf(f, "<p><a href=\"plots/%s.%s\">%s</a></p>\n", name, ext,
				captions[i]);
		/* the PDF is an extra file beside the page, linked, never embedded */
		if (p->o->formats & (1u << RTM_PLOT_PDF))
			fprintf(f, "<p class=\"sub\"><a href=\"plots/%s.pdf\">%s.pdf</a></p>\n",
				name, name);
	}
	rtm_html_end(f);
}

/* ---------------------------------------------------------------- Markdown */

/* The fingerprint of each run, a column a run, then what makes them unfair to compare. */
static void md_fingerprints(const struct rtm_compare *c, FILE *f)
{
	int i, k;

	fputs("## Fingerprints\n\n|", f);
	for (i = 0; i < c->nruns; i++) {
		fputs(" | ", f);
		rtm_md_text(f, c->runs[i].label);
	}
	fputs(" |\n|---|", f);
	for (i = 0; i < c->nruns; i++)
		fputs("---|", f);
	fputc('\n', f);
	for (k = 0; k < RTM_FP_NFIELDS; k++) {
		fprintf(f, "| %s", rtm_fp_fields[k].name);
		for (i = 0; i < c->nruns; i++) {
			fputs(" | ", f);
			rtm_md_text(f, c->runs[i].fp[k] ? c->runs[i].fp[k] : "unknown");
		}
		fputs(" |\n", f);
	}
	fputc('\n', f);
	for (i = 0; i < c->nwarnings; i++) {
		fputs(c->warnings[i].field < RTM_FP_NFIELDS ? "**Unfair comparison:** " :
		      "**Warning:** ", f);
		rtm_md_text(f, c->warnings[i].text);
		fputs("\n\n", f);
	}
}

/* All CPUs: a row a run, and its ratio and delta to the baseline. */
static void md_all_cpus(const struct rtm_compare *c, FILE *f)
{
	char buf[32];
	int i, j;

	fputs("## All CPUs\n\n| run |", f);
	for (j = 0; j < RTM_CM_NTABLE; j++)
		fprintf(f, " %s |", rtm_compare_metrics[rtm_compare_table[j]].name);
	fputs("\n|---|", f);
	for (j = 0; j < RTM_CM_NTABLE; j++)
		fputs("---:|", f);
	fputc('\n', f);
	for (i = 0; i < c->nruns; i++) {
		const struct rtm_summary_row *r = rtm_compare_row(&c->runs[i], -1);
		const struct rtm_summary_row *base = rtm_compare_row(&c->runs[0], -1);
		int w;

		for (w = 0; w < (i ? 3 : 1); w++) {
			fputs("| ", f);
			if (w)
				fputs(w == 1 ? "ratio" : "delta", f);
			else
				rtm_md_text(f, c->runs[i].label);
			fputs(" |", f);
			for (j = 0; j < RTM_CM_NTABLE; j++) {
				rtm_compare_cell(buf, sizeof(buf), r, base, rtm_compare_table[j],
						 "vrd"[w]);
				fprintf(f, " %s |", buf);
			}
			fputc('\n', f);
		}
	}
}

static void write_md(const struct pages *p, FILE *f)
{
	const struct rtm_compare *c = p->c;
	const char *ext = image_ext(p->o);
	int i;

	fputs("# ", f);
	rtm_md_text(f, p->title);
	if (c->banner[0]) {
		fputs("\n\n**", f);
		rtm_md_text(f, c->banner);
		fputs("**", f);
	}
	fputs("\n\n## Verdicts\n\n", f);
	for (i = 0; i < c->nverdicts; i++) {
		fputs("- ", f);
		rtm_md_text(f, c->verdicts[i].text);
		fputc('\n', f);
	}
	fprintf(f, "\nAll CPUs, %.0f%% confidence; intervals over runs, or over the intervals "
		"of one run's time series (see rtmeasure-compare(1)).\n\n",
		RTM_COMPARE_CONF * 100);
	rtm_compare_tirq_md(c, f);	/* the timer IRQ part (compare_tirq.c) */
	rtm_compare_noise_page(c, f, false);	/* run --noise (compare_noise.c) */
	rtm_compare_cost_md(c, f);	/* throughput beside latency (compare_cost.c) */
	md_fingerprints(c, f);
	md_all_cpus(c, f);
	fputs("\n(latencies in us)\n\n## Plots\n\n", f);
	for (i = 0; i < 2; i++) {
		fprintf(f, "![%s](plots/%s.%s)\n\n", captions[i], i ? PCT_NAME : HIST_NAME, ext);
		if (p->o->formats & (1u << RTM_PLOT_PDF))
			fprintf(f, "[%s.pdf](plots/%s.pdf)\n\n", i ? PCT_NAME : HIST_NAME,
				i ? PCT_NAME : HIST_NAME);
	}
}

/* ---------------------------------------------------------------- write */

static int write_page(const struct pages *p, const char *name,
		      void (*fn)(const struct pages *, FILE *), struct rtm_error *err)
{
	char path[PATH_MAX + 32];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	fn(p, f);
	if (fclose(f)) {
		free(buf);
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	snprintf(path, sizeof(path), "%s/%s", p->o->out_dir, name);
	ret = rtm_write_atomic(path, buf, len);
	free(buf);
	if (ret)
		return rtm_error_setn(err, ret, "cannot write %s: %s", path,
				      rtm_write_strerror(ret));
	return 0;
}

/* The pages into @o->out_dir: rtm_compare_write() without the staging. */
static int compare_write(const struct rtm_compare *c, const struct rtm_compare_opts *o,
			 struct rtm_error *err)
{
	struct pages p;
	char path[PATH_MAX + 16], sub[RTM_COMPARE_MAX_RUNS * 300];
	size_t len;
	int i, ret;

	if (c->nruns < 2)
		return rtm_error_setn(err, -EINVAL, "a comparison needs at least two runs");
	memset(&p, 0, sizeof(p));
	p.c = c;
	p.o = o;
	len = (size_t)snprintf(p.title, sizeof(p.title), "Latency comparison: ");
	for (i = 0; i < c->nruns && len < sizeof(p.title); i++)
		len += (size_t)snprintf(p.title + len, sizeof(p.title) - len, "%s%s",
					i ? " vs " : "", c->runs[i].label);
	snprintf(p.plots, sizeof(p.plots), "%s/plots", o->out_dir);
	snprintf(path, sizeof(path), "%s/data", p.plots);
	ret = rtm_dir_make(o->out_dir, "plots/data");	/* no symlink at plots followed */
	if (ret)
		return rtm_error_setn(err, ret, "cannot create %s: %s", path,
				      rtm_write_strerror(ret));
	subtitle(c, sub, sizeof(sub));
	ret = plot_histogram(&p, sub, err);
	if (!ret)
		ret = plot_percentiles(&p, sub, err);
	if (!ret)
		ret = write_page(&p, "compare.html", write_html, err);
	if (!ret)
		ret = write_page(&p, "compare.md", write_md, err);
	return ret;
}

struct staged_compare {
	const struct rtm_compare *c;
	const struct rtm_compare_opts *o;
};

static int compare_staged(const char *dir, void *arg, struct rtm_error *err)
{
	const struct staged_compare *a = arg;
	struct rtm_compare_opts o = *a->o;

	o.out_dir = dir;
	return compare_write(a->c, &o, err);
}

int rtm_compare_write(const struct rtm_compare *c, const struct rtm_compare_opts *o,
		      struct rtm_error *err)
{
	struct staged_compare a = { c, o };

	/* all or nothing: a full disk leaves no plot without its page */
	return rtm_stage_write(o->out_dir, compare_staged, &a, err);
}
