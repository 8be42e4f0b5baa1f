// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare_pages.c - the comparison's overlay plots (histogram.gp and
 * percentiles.gp with one block, so one colour, per run), compare.html
 * (self-contained: images embedded) and compare.md (images linked).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"
#include "fileio.h"
#include "report.h"

#define HIST_NAME "compare-histogram"
#define PCT_NAME "compare-percentiles"

struct pages {
	const struct rtm_compare *c;
	const struct rtm_compare_opts *o;
	char plots[PATH_MAX];
	char title[512];
};

static int draw(const struct pages *p, const char *tmpl, const char *name,
		struct rtm_plot_var *vars, int nvars, struct rtm_error *err)
{
	return rtm_plot_draw_formats(tmpl, p->o->formats, p->o->width, p->o->height, p->plots,
				     name, vars, nvars, err);
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

static int plot_histogram(const struct pages *p, struct rtm_error *err)
{
	const struct rtm_compare *c = p->c;
	char path[PATH_MAX + 64], t[128], mx[16], n[16], logx[4];
	struct rtm_plot_var v[4];
	bool log = false;
	FILE *f = open_data(p, HIST_NAME, path, sizeof(path), err);
	int i;

	if (!f)
		return -EIO;
	for (i = 0; i < c->nruns; i++) {
		const struct rtm_hist *h = c->runs[i].all;
		uint64_t p99 = rtm_hist_percentile(h, 99);

		rtm_fmt_us(mx, sizeof(mx), h->max_ns);
		snprintf(t, sizeof(t), "%s (max %s us)", c->runs[i].label, mx);
		rtm_report_hist_block(f, h, t);
		/* a tail far beyond the body reads better on a log axis (as the report) */
		log |= h->max_ns > 20 * (p99 ? p99 : 1);
	}
	if (fclose(f))
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path,
				      rtm_write_strerror(-errno));
	snprintf(n, sizeof(n), "%d", c->nruns);
	snprintf(logx, sizeof(logx), "%d", log);
	v[0] = (struct rtm_plot_var){ "ncpus", n, true };
	v[1] = (struct rtm_plot_var){ "title_text", p->title, false };
	v[2] = (struct rtm_plot_var){ "logx", logx, true };
	v[3] = (struct rtm_plot_var){ "datafile", path, false };
	return draw(p, "histogram", HIST_NAME, v, 4, err);
}

static int plot_percentiles(const struct pages *p, struct rtm_error *err)
{
	const struct rtm_compare *c = p->c;
	char path[PATH_MAX + 64], n[16], xm[32];
	struct rtm_plot_var v[4];
	double xmax = 10, x;
	FILE *f = open_data(p, PCT_NAME, path, sizeof(path), err);
	int i;

	if (!f)
		return -EIO;
	for (i = 0; i < c->nruns; i++) {
		x = rtm_report_pct_block(f, c->runs[i].all, c->runs[i].label);
		xmax = x > xmax ? x : xmax;
	}
	if (fclose(f))
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path,
				      rtm_write_strerror(-errno));
	snprintf(n, sizeof(n), "%d", c->nruns);
	snprintf(xm, sizeof(xm), "%.6g", xmax);
	v[0] = (struct rtm_plot_var){ "nblocks", n, true };
	v[1] = (struct rtm_plot_var){ "title_text", p->title, false };
	v[2] = (struct rtm_plot_var){ "xmax", xm, true };
	v[3] = (struct rtm_plot_var){ "datafile", path, false };
	return draw(p, "percentiles", PCT_NAME, v, 4, err);
}

static const char *const captions[2] = {
	"Latency histograms of all CPUs, one colour per run (samples per microsecond, log scale)",
	"Percentile distributions of all CPUs, one colour per run (HdrHistogram style)",
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
	char v[16], lo[16], hi[16], cell[64];
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

			rtm_fmt_us(v, sizeof(v), ci->value_ns);
			rtm_fmt_us(lo, sizeof(lo), ci->lo_ns);
			rtm_fmt_us(hi, sizeof(hi), ci->hi_ns);
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

static const char *image_ext(const struct rtm_compare_opts *o)
{
	return o->formats & (1u << RTM_PLOT_PNG) ? "png" :
	       o->formats & (1u << RTM_PLOT_SVG) ? "svg" : NULL;
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

	fputs("<h2>Verdicts</h2>\n", f);
	for (i = 0; i < c->nverdicts; i++) {
		fputs("<div class=\"verdict\">", f);
		rtm_html_text(f, c->verdicts[i].text);
		fputs("</div>\n", f);
	}
	fprintf(f, "<p class=\"sub\">All CPUs. %.0f%% confidence intervals from order statistics "
		"of each run's histogram (distribution-free, for independent samples). Latency "
		"samples are autocorrelated (a stall delays several wake-ups), so the intervals "
		"are optimistic; they do not cover the difference between two runs of the same "
		"box. "
		"Not distinguishable: the intervals overlap.</p>\n", RTM_COMPARE_CONF * 100);
	html_intervals(f, c);

	fputs("<h2>Fingerprints</h2>\n", f);
	html_fingerprints(f, c);
	for (i = 0; i < c->nwarnings; i++) {
		fputs("<p class=\"warn\">Unfair comparison: ", f);
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

		snprintf(img, sizeof(img), "%s/%s.%s", p->plots, name, ext ? ext : "pdf");
		if (!ext || rtm_html_image(f, img, captions[i]))
			fprintf(f, "<p><a href=\"plots/%s.pdf\">%s (PDF)</a></p>\n", name,
				captions[i]);
	}
	rtm_html_end(f);
}

/* ---------------------------------------------------------------- Markdown */

static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("|*_`[]<>\\", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void write_md(const struct pages *p, FILE *f)
{
	const struct rtm_compare *c = p->c;
	const char *ext = image_ext(p->o);
	char buf[32];
	int i, j, k;

	fputs("# ", f);
	md_text(f, p->title);
	fputs("\n\n## Verdicts\n\n", f);
	for (i = 0; i < c->nverdicts; i++) {
		fputs("- ", f);
		md_text(f, c->verdicts[i].text);
		fputc('\n', f);
	}
	fprintf(f, "\nAll CPUs, %.0f%% confidence; the intervals assume independent samples and "
		"are optimistic for latency runs (see rtmeasure-compare(1)).\n\n"
		"## Fingerprints\n\n|",
		RTM_COMPARE_CONF * 100);
	for (i = 0; i < c->nruns; i++) {
		fputs(" | ", f);
		md_text(f, c->runs[i].label);
	}
	fputs(" |\n|---|", f);
	for (i = 0; i < c->nruns; i++)
		fputs("---|", f);
	fputc('\n', f);
	for (k = 0; k < RTM_FP_NFIELDS; k++) {
		fprintf(f, "| %s", rtm_fp_fields[k].name);
		for (i = 0; i < c->nruns; i++) {
			fputs(" | ", f);
			md_text(f, c->runs[i].fp[k] ? c->runs[i].fp[k] : "unknown");
		}
		fputs(" |\n", f);
	}
	fputc('\n', f);
	for (i = 0; i < c->nwarnings; i++) {
		fputs("**Unfair comparison:** ", f);
		md_text(f, c->warnings[i].text);
		fputs("\n\n", f);
	}
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
				md_text(f, c->runs[i].label);
			fputs(" |", f);
			for (j = 0; j < RTM_CM_NTABLE; j++) {
				rtm_compare_cell(buf, sizeof(buf), r, base, rtm_compare_table[j],
						 "vrd"[w]);
				fprintf(f, " %s |", buf);
			}
			fputc('\n', f);
		}
	}
	fputs("\n(latencies in us)\n\n## Plots\n\n", f);
	for (i = 0; i < 2; i++)
		fprintf(f, "![%s](plots/%s.%s)\n\n", captions[i], i ? PCT_NAME : HIST_NAME,
			ext ? ext : "pdf");
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

int rtm_compare_write(const struct rtm_compare *c, const struct rtm_compare_opts *o,
		      struct rtm_error *err)
{
	struct pages p;
	char path[PATH_MAX + 16];
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
	ret = plot_histogram(&p, err);
	if (!ret)
		ret = plot_percentiles(&p, err);
	if (!ret)
		ret = write_page(&p, "compare.html", write_html, err);
	if (!ret)
		ret = write_page(&p, "compare.md", write_md, err);
	return ret;
}
