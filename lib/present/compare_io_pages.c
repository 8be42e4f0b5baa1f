// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare_io_pages.c - the pages of a comparison of storage runs (rtmeasure
 * io): compare.html (self-contained: images embedded) and compare.md (images
 * linked), with what the text output has (the verdicts, the set-ups and their
 * warnings, per operation the table and its ratio row, from the same cells:
 * rtm_compare_io_cells()) and per operation a plot of the sides' percentile
 * curves of the latency from the planned issue time (plots/compare-io-N.*, N
 * the operation's place in the baseline), one colour per side as the latency
 * comparison's plots have them.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/stage.h"
#include "core/units.h"
#include "present/compare_io.h"
#include "present/html.h"
#include "present/report.h"

struct io_pages {
	const struct rtm_compare_io *c;
	const struct rtm_compare_opts *o;
	char plots[PATH_MAX];
	char title[512];
};

static const char *const heads[RTM_CIO_NCELLS] = { "requests", "p50 (us)", "p99 (us)",
						   "p99.9 (us)", "max (us)", "misses" };

/*
 * plots/compare-io-@idx.* (the baseline's operation @idx, @op: numbered, as a
 * name from a result never becomes a path) of every side that measured it.
 */
static int plot_op(const struct io_pages *p, int idx, const char *op, struct rtm_error *err)
{
	const struct rtm_compare_io *c = p->c;
	const struct rtm_hist *curves[RTM_COMPARE_MAX_RUNS];
	char path[PATH_MAX + 64], name[64], n[16], xm[32], ym[32], t[128], mx[16], title[600];
	char colours[RTM_COMPARE_MAX_RUNS * 8 + 1] = "";
	struct rtm_plot_var v[7];
	double xmax = 10, x;
	uint64_t top = 0;
	int i, k, ncurves = 0, ret = 0;
	FILE *f;

	snprintf(name, sizeof(name), "compare-io-%d", idx);
	snprintf(path, sizeof(path), "%s/data/%s.dat", p->plots, name);
	f = rtm_fopen_atomic(path);	/* saved whole at fclose(), or not at all */
	if (!f)
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path, strerror(errno));
	for (i = 0; i < c->nsides && !ret; i++)
		for (k = 0; k < c->sides[i].nops; k++) {
			const struct rtm_hist *h = c->sides[i].ops[k].lat;

			if (strcmp(c->sides[i].ops[k].name, op))
				continue;
			rtm_fmt_us(mx, sizeof(mx), (double)h->max_ns);
			snprintf(t, sizeof(t), "%s (max %s us)", c->sides[i].label, mx);
			ret = rtm_report_pct_block(f, h, t, &x);
			xmax = x > xmax ? x : xmax;
			top = h->max_ns > top ? h->max_ns : top;
			curves[ncurves++] = h;
			rtm_plot_list_add(colours, sizeof(colours), rtm_plot_run_colour(i));
		}
	if (!ret)
		ret = rtm_report_pct_marks_block(f, curves, ncurves);
	if (fclose(f) || ret)
		return rtm_error_setn(err, ret ? ret : -errno, "cannot write %s: %s", path,
				      ret ? strerror(-ret) : rtm_write_strerror(-errno));
	snprintf(n, sizeof(n), "%d", ncurves);
	snprintf(xm, sizeof(xm), "%.6g", xmax);
	snprintf(ym, sizeof(ym), "%.6g", (double)top / 1000.0 * 1.6 + 1);
	snprintf(title, sizeof(title), "%s: %s", p->title, op);
	v[0] = (struct rtm_plot_var){ "nblocks", n, true };
	v[1] = (struct rtm_plot_var){ "title_text", title, false };
	v[2] = (struct rtm_plot_var){ "xmax", xm, true };
	v[3] = (struct rtm_plot_var){ "datafile", path, false };
	v[4] = (struct rtm_plot_var){ "subtitle_text", "latency from the planned issue time",
				      false };
	v[5] = (struct rtm_plot_var){ "ymax", ym, true };
	v[6] = (struct rtm_plot_var){ "colours", colours, false };
	return rtm_plot_draw_kept("percentiles", rtm_report_draw_formats(p->o->formats),
				  p->o->width, p->o->height, p->plots, name, v, 7, err);
}

/* Text, escaped for the page's kind. */
static void put(FILE *f, bool html, const char *s)
{
	if (html)
		rtm_html_text(f, s);
	else
		rtm_md_text(f, s);
}

static void cell(FILE *f, bool html, const char *s, bool left)
{
	fputs(html ? (left ? "<td class=\"l\">" : "<td>") : "| ", f);
	put(f, html, s);
	fputs(html ? "</td>" : " ", f);
}

/* The sides' set-ups, a column a side. */
static void setups(const struct rtm_compare_io *c, FILE *f, bool html)
{
	int i, k;

	fputs(html ? "<h2>Set-ups</h2>\n<table>\n<tr><th class=\"l\"></th>" : "## Set-ups\n\n| ",
	      f);
	for (i = 0; i < c->nsides; i++) {
		fputs(html ? "<th class=\"l\">" : "| ", f);
		put(f, html, c->sides[i].label);
		fputs(html ? "</th>" : " ", f);
	}
	fputs(html ? "</tr>\n" : "|\n|---", f);
	for (i = 0; !html && i < c->nsides; i++)
		fputs("|---", f);
	fputs(html ? "" : "|\n", f);
	for (k = 0; k < RTM_CIO_NFP; k++) {
		fputs(html ? "<tr>" : "", f);
		cell(f, html, rtm_compare_io_fp_name((enum rtm_cio_fp)k), true);
		for (i = 0; i < c->nsides; i++)
			cell(f, html, c->sides[i].fp[k] ?: "unknown", true);
		fputs(html ? "</tr>\n" : "|\n", f);
	}
	fputs(html ? "</table>\n" : "\n", f);
	for (i = 0; i < c->nwarnings; i++) {
		fputs(html ? "<p class=\"warn\">Warning: " : "**Warning:** ", f);
		put(f, html, c->warnings[i]);
		fputs(html ? "</p>\n" : "\n\n", f);
	}
}

/* The baseline's operation @idx, @op: the table with its ratio rows, then its plot. */
static void op_section(const struct io_pages *p, int idx, const char *op, FILE *f, bool html)
{
	const struct rtm_compare_io *c = p->c;
	char cells[RTM_CIO_NCELLS][48], runs[16], img[PATH_MAX + 128], cap[160];
	const char *ext = rtm_report_draw_formats(p->o->formats) & (1u << RTM_PLOT_PNG) ?
			  "png" : "svg";
	int i, k, w;

	fputs(html ? "<h2>" : "## ", f);
	put(f, html, op);
	fputs(html ? ": latency from the planned issue time</h2>\n<table>\n<tr>"
	      "<th class=\"l\">run</th><th>runs</th>" : ": latency from the planned issue "
	      "time\n\n| run | runs ", f);
	for (k = 0; k < RTM_CIO_NCELLS; k++)
		fprintf(f, html ? "<th>%s</th>" : "| %s ", heads[k]);
	fputs(html ? "</tr>\n" : "|\n|---|---|---|---|---|---|---|---|\n", f);
	for (i = 0; i < c->nsides; i++)
		for (w = 0; w < (i ? 2 : 1); w++) {
			if (!rtm_compare_io_cells(c, i, op, w == 1, cells))
				break;
			snprintf(runs, sizeof(runs), "%d", rtm_compare_io_op_runs(c, i, op));
			fputs(html ? "<tr>" : "", f);
			cell(f, html, w ? "ratio" : c->sides[i].label, true);
			cell(f, html, w ? "" : runs, false);
			for (k = 0; k < RTM_CIO_NCELLS; k++)
				cell(f, html, cells[k], false);
			fputs(html ? "</tr>\n" : "|\n", f);
		}
	fputs(html ? "</table>\n" : "\n", f);
	snprintf(cap, sizeof(cap), "Percentile distributions of %s's latency from the planned "
		 "issue time, one colour per run; triangles mark each run's maximum", op);
	snprintf(img, sizeof(img), "%s/compare-io-%d.%s", p->plots, idx, ext);
	if (!html) {
		fputs("![", f);
		rtm_md_text(f, cap);
		fprintf(f, "](plots/compare-io-%d.%s)\n\n", idx, ext);
	} else if (rtm_html_image(f, img, cap)) {
		fprintf(f, "<p><a href=\"plots/compare-io-%d.%s\">", idx, ext);
		rtm_html_text(f, cap);
		fputs("</a></p>\n", f);
	}
}

static void write_page(const struct io_pages *p, FILE *f, bool html)
{
	const struct rtm_compare_io *c = p->c;
	int i, k;

	if (html) {
		rtm_html_begin(f, p->title);
		fputs("<h1>", f);
		rtm_html_text(f, p->title);
		fputs("</h1>\n<p class=\"sub\">Baseline: ", f);
		rtm_html_text(f, c->sides[0].label);
		fputs(". Ratios are run / baseline.</p>\n<h2>Verdicts</h2>\n", f);
	} else {
		fputs("# ", f);
		rtm_md_text(f, p->title);
		fputs("\n\nBaseline: ", f);
		rtm_md_text(f, c->sides[0].label);
		fputs(". Ratios are run / baseline.\n\n## Verdicts\n\n", f);
	}
	for (i = 0; i < c->nverdicts; i++) {
		fputs(html ? "<div class=\"verdict\">" : "- ", f);
		put(f, html, c->verdicts[i].op);
		fputs(": ", f);
		put(f, html, c->verdicts[i].v.text);
		fputs(html ? "</div>\n" : "\n", f);
	}
	if (!c->nverdicts)
		put(f, html, "none: no operation was measured on both sides");
	fprintf(f, html ? "<p class=\"sub\">Latency from the planned issue time, %.0f%% "
		"confidence, with the latency comparison's statistics.</p>\n" : "\n\nLatency "
		"from the planned issue time, %.0f%% confidence, with the latency comparison's "
		"statistics.\n\n", RTM_COMPARE_CONF * 100);
	setups(c, f, html);
	for (k = 0; k < c->sides[0].nops; k++)
		op_section(p, k, c->sides[0].ops[k].name, f, html);
	if (html)
		rtm_html_end(f);
}

static int save_page(const struct io_pages *p, bool html, struct rtm_error *err)
{
	char path[PATH_MAX + 32], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	write_page(p, f, html);
	if (fclose(f)) {
		free(buf);
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	snprintf(path, sizeof(path), "%s/compare.%s", p->o->out_dir, html ? "html" : "md");
	ret = rtm_write_atomic(path, buf, len);
	free(buf);
	if (ret)
		return rtm_error_setn(err, ret, "cannot write %s: %s", path,
				      rtm_write_strerror(ret));
	return 0;
}

struct io_staged {
	const struct rtm_compare_io *c;
	const struct rtm_compare_opts *o;
};

/* The plots and both pages into the staging folder @dir (rtm_stage_write()). */
static int io_staged(const char *dir, void *arg, struct rtm_error *err)
{
	const struct io_staged *a = arg;
	struct rtm_compare_opts o = *a->o;
	struct io_pages p = { .c = a->c, .o = &o };
	size_t len;
	int i, k, ret;

	o.out_dir = dir;
	len = (size_t)snprintf(p.title, sizeof(p.title), "Storage comparison: ");
	for (i = 0; i < a->c->nsides && len < sizeof(p.title); i++)
		len += (size_t)snprintf(p.title + len, sizeof(p.title) - len, "%s%s",
					i ? " vs " : "", a->c->sides[i].label);
	snprintf(p.plots, sizeof(p.plots), "%s/plots", dir);
	ret = rtm_dir_make(dir, "plots/data");	/* no symlink at plots followed */
	if (ret)
		return rtm_error_setn(err, ret, "cannot create %s/data: %s", p.plots,
				      rtm_write_strerror(ret));
	for (k = 0; k < a->c->sides[0].nops && !ret; k++)
		ret = plot_op(&p, k, a->c->sides[0].ops[k].name, err);
	if (!ret)
		ret = save_page(&p, true, err);
	return ret ? ret : save_page(&p, false, err);
}

int rtm_compare_io_write(const struct rtm_compare_io *c, const struct rtm_compare_opts *o,
			 struct rtm_error *err)
{
	struct io_staged a = { c, o };

	if (c->nsides < 2)
		return rtm_error_setn(err, -EINVAL, "a comparison needs at least two runs");
	/* all or nothing: a full disk leaves no plot without its page */
	return rtm_stage_write(o->out_dir, io_staged, &a, err);
}
