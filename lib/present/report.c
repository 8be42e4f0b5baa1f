// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.c - the report of one result: plots by gnuplot, report.html (self
 * contained: images embedded) and report.md (images linked).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/jsonutil.h"
#include "core/stage.h"
#include "present/report.h"
#include "present/report_priv.h"
#include "result/summary.h"
#include "core/units.h"

/* Which CPUs get a line: all of them, or the all-CPUs line and the worst maxima. */
static void select_lines(struct rtm_report_ctx *c)
{
	const struct rtm_result *r = c->r;
	int i, k;

	c->nsel = 0;
	c->lines_all = r->ncpus > RTM_REPORT_MAX_LINES;
	if (!c->lines_all) {
		for (i = 0; i < r->ncpus; i++)
			c->sel[c->nsel++] = i;
		return;
	}
	for (k = 0; k < 7; k++) {
		int best = -1;

		for (i = 0; i < r->ncpus; i++) {
			bool taken = false;
			int j;

			for (j = 0; j < c->nsel; j++)
				taken |= c->sel[j] == i;
			if (!taken && (best < 0 || r->cpus[i].raw->max_ns > r->cpus[best].raw->max_ns))
				best = i;
		}
		if (best >= 0)
			c->sel[c->nsel++] = best;
	}
}

static FILE *open_data(const struct rtm_report_ctx *c, const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/data/%s.dat", c->plots, name);
	return rtm_fopen_atomic(path);	/* saved whole at fclose(), or not at all */
}

/*
 * Draw plots/@name.* from template @tmpl and list it for the pages; the script
 * is kept beside its data (plots/data/@name.gp) for redrawing by hand.
 */
static int draw_as(struct rtm_report_ctx *c, const char *tmpl, const char *name,
		   const char *caption, const char *datafile, struct rtm_plot_var *vars, int nvars,
		   struct rtm_error *err)
{
	int ret;

	vars[nvars].name = "datafile";
	vars[nvars].value = datafile;
	vars[nvars].number = false;
	ret = rtm_plot_draw_kept(tmpl, rtm_report_draw_formats(c->o->formats), c->o->width,
				 c->o->height, c->plots, name, vars, nvars + 1, err);
	if (ret)
		return ret;
	c->pf[c->npf].name = name;
	c->pf[c->npf].caption = caption;
	c->npf++;
	return 0;
}

static int draw(struct rtm_report_ctx *c, const char *name, const char *caption,
		const char *datafile, struct rtm_plot_var *vars, int nvars, struct rtm_error *err)
{
	return draw_as(c, name, name, caption, datafile, vars, nvars, err);
}

/* The lines' colours, in the order of their blocks: @cpu's own (-1: all CPUs). */
static void add_colour(char *list, size_t len, int cpu)
{
	rtm_plot_list_add(list, len, rtm_plot_cpu_colour(cpu < 0 ? RTM_PLOT_ALL_CPUS : cpu));
}

static void cpu_title(char *buf, size_t len, int cpu, const struct rtm_hist *h)
{
	char mx[16];

	rtm_fmt_us(mx, sizeof(mx), h->max_ns);
	if (cpu < 0)
		snprintf(buf, len, "all CPUs (max %s us)", mx);
	else
		snprintf(buf, len, "CPU%d (max %s us)", cpu, mx);
}

static int plot_histogram(struct rtm_report_ctx *c, const char *title, const char *sub,
			  struct rtm_error *err)
{
	char path[PATH_MAX + 32], t[64], colours[RTM_REPORT_COLOURS_LEN] = "";
	struct rtm_report_hist_vars hv;
	bool ovf = false;
	const struct rtm_hist *lines[RTM_REPORT_MAX_LINES + 1];
	struct rtm_report_mark marks[RTM_REPORT_MAX_LINES + 1];
	uint64_t ovf_ns = (uint64_t)json_integer_value(rtm_json_path(c->r->sections,
						"provenance.overflow_above_ns"));
	struct rtm_plot_var v[12];
	struct rtm_hist_axis ax;
	FILE *f = open_data(c, "histogram", path, sizeof(path));
	int i, blocks = 0;

	if (!f)
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path, strerror(errno));
	if (c->lines_all) {
		cpu_title(t, sizeof(t), -1, c->all_raw);
		rtm_report_hist_block(f, c->all_raw, t);
		rtm_report_mark_of(c->all_raw, rtm_result_unplaced_cpu(c->r, -1), ovf_ns,
				   &marks[blocks]);
		add_colour(colours, sizeof(colours), -1);
		lines[blocks++] = c->all_raw;
	}
	for (i = 0; i < c->nsel; i++) {
		const struct rtm_result_cpu *rc = &c->r->cpus[c->sel[i]];

		cpu_title(t, sizeof(t), rc->cpu, rc->raw);
		rtm_report_hist_block(f, rc->raw, t);
		rtm_report_mark_of(rc->raw, rtm_result_unplaced_cpu(c->r, rc->cpu), ovf_ns,
				   &marks[blocks]);
		add_colour(colours, sizeof(colours), rc->cpu);
		lines[blocks++] = rc->raw;
	}
	rtm_report_marks_block(f, marks, blocks);
	if (fclose(f))
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path,
				      rtm_write_strerror(-errno));
	rtm_report_hist_axis(lines, blocks, c->o->log_x, &ax);
	for (i = 0; i < blocks; i++) {	/* the overflowed samples' place is on the axis too */
		double at_us = (double)marks[i].overflow_ns / 1000.0;

		ovf |= marks[i].overflows > 0;
		if (marks[i].overflows && at_us > ax.xmax_us)
			ax.xmax_us = rtm_report_nice_up(at_us * 1.05);
	}
	rtm_report_hist_vars(&ax, blocks, ovf, &hv, v);
	v[8] = (struct rtm_plot_var){ "title_text", title, false };
	v[9] = (struct rtm_plot_var){ "subtitle_text", sub, false };
	v[10] = (struct rtm_plot_var){ "colours", colours, false };
	return draw(c, "histogram", ax.split_us > 0 ?
		    "Latency histogram: samples per microsecond, one line per CPU (OSADL style); "
		    "left the body, right the tail on its own scale; triangles mark each CPU's "
		    "maximum" :
		    "Latency histogram: samples per microsecond, one line per CPU (OSADL style); "
		    "triangles mark each CPU's maximum", path, v, 11, err);
}

/* The curves of a percentile plot: their histograms (for the markers), colours and dashes. */
struct pct_curves {
	const struct rtm_hist *h[2 * RTM_REPORT_MAX_LINES + 2];
	char colours[RTM_REPORT_COLOURS_LEN], dashes[RTM_REPORT_COLOURS_LEN];
	double xmax;
	int n;
};

static int pct_curve(FILE *f, struct pct_curves *pc, const struct rtm_hist *h, const char *title,
		     int cpu, const char *dash)
{
	double x;
	int ret = rtm_report_pct_block(f, h, title, &x);

	pc->xmax = x > pc->xmax ? x : pc->xmax;
	pc->h[pc->n++] = h;
	add_colour(pc->colours, sizeof(pc->colours), cpu);
	rtm_plot_list_add(pc->dashes, sizeof(pc->dashes), dash);
	return ret;
}

/* The markers after the curves, then the file closed and the template's variables. */
static int pct_finish(FILE *f, const char *path, struct pct_curves *pc, uint64_t top_ns,
		      char (*buf)[32], struct rtm_plot_var *v, struct rtm_error *err)
{
	int ret = rtm_report_pct_marks_block(f, pc->h, pc->n);

	if (fclose(f) || ret)
		return rtm_error_setn(err, ret ? ret : -errno, "cannot write %s: %s", path,
				      ret ? strerror(-ret) : rtm_write_strerror(-errno));
	snprintf(buf[0], sizeof(buf[0]), "%d", pc->n);
	snprintf(buf[1], sizeof(buf[1]), "%.6g", pc->xmax);
	/* room above the highest maximum's marker and its label */
	snprintf(buf[2], sizeof(buf[2]), "%.6g", (double)top_ns / 1000.0 * 1.6 + 1);
	v[0] = (struct rtm_plot_var){ "nblocks", buf[0], true };
	v[1] = (struct rtm_plot_var){ "xmax", buf[1], true };
	v[2] = (struct rtm_plot_var){ "ymax", buf[2], true };
	v[3] = (struct rtm_plot_var){ "colours", pc->colours, false };
	v[4] = (struct rtm_plot_var){ "dashes", pc->dashes, false };
	return 0;
}

static int plot_percentiles(struct rtm_report_ctx *c, const char *title, const char *sub,
			    struct rtm_error *err)
{
	char path[PATH_MAX + 32], t[64], mx[16], buf[3][32];
	struct pct_curves pc = { .xmax = 10 };
	struct rtm_plot_var v[8];
	FILE *f = open_data(c, "percentiles", path, sizeof(path));
	int i, ret = 0;

	if (!f)
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path, strerror(errno));
	if (c->lines_all) {
		rtm_fmt_us(mx, sizeof(mx), c->all_raw->max_ns);
		snprintf(t, sizeof(t), "all CPUs (max %s us)", mx);
		ret = pct_curve(f, &pc, c->all_raw, t, -1, "1");
	}
	for (i = 0; i < c->nsel && !ret; i++) {
		const struct rtm_result_cpu *rc = &c->r->cpus[c->sel[i]];

		cpu_title(t, sizeof(t), rc->cpu, rc->raw);
		ret = pct_curve(f, &pc, rc->raw, t, rc->cpu, "1");
	}
	/* the corrected curve where a stall swallowed periods: all CPUs' colour, dashed */
	if (!ret && c->all_corr && c->all_corr->count > c->all_raw->count) {
		rtm_fmt_us(mx, sizeof(mx), c->all_corr->max_ns);
		snprintf(t, sizeof(t), "all CPUs, corrected (max %s us)", mx);
		ret = pct_curve(f, &pc, c->all_corr, t, -1, "2");
	}
	if (ret) {
		fclose(f);
		return rtm_error_setn(err, ret, "cannot write %s: %s", path, strerror(-ret));
	}
	/* the corrected maximum is the raw one: no higher */
	ret = pct_finish(f, path, &pc, c->all_raw->max_ns, buf, v, err);
	if (ret)
		return ret;
	v[5] = (struct rtm_plot_var){ "title_text", title, false };
	v[6] = (struct rtm_plot_var){ "subtitle_text", sub, false };
	return draw(c, "percentiles", "Percentile distribution (HdrHistogram style): each "
		    "histogram bucket a step at the latency the tables give for the percentiles "
		    "inside it, up to the last sample's rank (x = samples), where a triangle marks "
		    "the exact maximum; the corrected curve (dashed) adds the wake-ups a stall "
		    "swallowed", path, v, 7, err);
}

static int plot_timeseries(struct rtm_report_ctx *c, const char *title, const char *sub,
			   struct rtm_error *err)
{
	char path[PATH_MAX + 32], t[32], n[16], colours[RTM_REPORT_COLOURS_LEN] = "";
	struct rtm_plot_var v[5];
	FILE *f;
	int i, blocks = 0;
	uint32_t k;

	for (i = 0; i < c->nsel; i++)
		blocks += c->r->cpus[c->sel[i]].ts && c->r->cpus[c->sel[i]].ts->n;
	if (!blocks)
		return 0;	/* imported results may have no series */
	f = open_data(c, "timeseries", path, sizeof(path));
	if (!f)
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path, strerror(errno));
	blocks = 0;
	for (i = 0; i < c->nsel; i++) {
		const struct rtm_result_cpu *rc = &c->r->cpus[c->sel[i]];

		if (!rc->ts || !rc->ts->n)
			continue;
		snprintf(t, sizeof(t), "CPU%d", rc->cpu);
		fputs("\"t_s\" ", f);
		rtm_report_gp_quoted(f, t);
		fputc('\n', f);
		for (k = 0; k < rc->ts->n; k++) {
			const struct rtm_ts_point *p = &rc->ts->pts[k];

			if (!p->count)
				continue;
			fprintf(f, "%.3f %.3f %.3f\n", (double)(p->start_ns + p->width_ns) / 1e9,
				(double)p->max_ns / 1000.0, (double)p->p99_ns / 1000.0);
		}
		fputs("\n\n", f);
		add_colour(colours, sizeof(colours), rc->cpu);
		blocks++;
	}
	if (fclose(f))
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path,
				      rtm_write_strerror(-errno));
	snprintf(n, sizeof(n), "%d", blocks);
	v[0] = (struct rtm_plot_var){ "ncpus", n, true };
	v[1] = (struct rtm_plot_var){ "title_text", title, false };
	v[2] = (struct rtm_plot_var){ "subtitle_text", sub, false };
	v[3] = (struct rtm_plot_var){ "colours", colours, false };
	return draw(c, "timeseries", "Per-interval maximum (solid) and p99 (dashed) of each CPU "
		    "over the run", path, v, 4, err);
}

static int plot_irq(struct rtm_report_ctx *c, const char *sub, struct rtm_error *err)
{
	struct rtm_report_irq rows[10];
	char path[PATH_MAX + 32];
	char ylo[32], yhi[32];
	struct rtm_plot_var v[5];
	double rates[10], ymin, ymax;
	int n = rtm_report_irq_rows(c->r, rows, 10), i;
	FILE *f;

	if (!n)
		return 0;
	f = open_data(c, "irq", path, sizeof(path));
	if (!f)
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path, strerror(errno));
	for (i = 0; i < n; i++) {
		char label[64];

		/* a numbered IRQ is known by its device */
		if (rows[i].irq >= 0 && rows[i].desc[0])
			snprintf(label, sizeof(label), "%s %.20s", rows[i].name, rows[i].desc);
		else
			snprintf(label, sizeof(label), "%s", rows[i].name);
		rtm_report_gp_quoted(f, label);
		fprintf(f, " %.2f\n", rows[i].rate);
		rates[i] = rows[i].rate;
	}
	if (fclose(f))
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path,
				      rtm_write_strerror(-errno));
	rtm_report_irq_axis(rates, n, &ymin, &ymax);
	snprintf(ylo, sizeof(ylo), "%.6g", ymin);
	snprintf(yhi, sizeof(yhi), "%.6g", ymax);
	v[0] = (struct rtm_plot_var){ "title_text", "Interrupts on the measured CPUs", false };
	v[1] = (struct rtm_plot_var){ "ymin", ylo, true };
	v[2] = (struct rtm_plot_var){ "ymax", yhi, true };
	v[3] = (struct rtm_plot_var){ "subtitle_text", sub, false };
	return draw(c, "irq", "The busiest interrupt sources of the measured CPUs (per second, "
		    "over the run, log scale; each bar labelled with its rate)", path, v, 4, err);
}

/*
 * --timer-irq (sections.timer_irq): each plotted CPU's wake-up and timer IRQ delay
 * as percentile curves in the CPU's colour (the IRQ part dashed), the percentiles
 * template drawn as plots/timer_irq.
 */
static int timer_irq_curves(struct rtm_report_ctx *c, FILE *f, struct pct_curves *pc,
			    struct rtm_hist **irq)
{
	const json_t *cpus = rtm_json_path(c->r->sections, "timer_irq.cpus"), *e;
	struct rtm_error herr = { "" };
	char t[64], mx[16];
	int i, ret = 0;
	size_t k;

	for (i = 0; i < c->nsel && !ret; i++) {
		const struct rtm_result_cpu *rc = &c->r->cpus[c->sel[i]];
		struct rtm_hist *h = irq[i];

		json_array_foreach(cpus, k, e) {
			if (json_integer_value(json_object_get(e, "cpu")) != rc->cpu ||
			    rtm_hist_from_json(h, json_object_get(e, "delay"), &herr) || !h->count)
				continue;
			rtm_fmt_us(mx, sizeof(mx), rc->raw->max_ns);
			snprintf(t, sizeof(t), "CPU%d wake-up (max %s us)", rc->cpu, mx);
			ret = pct_curve(f, pc, rc->raw, t, rc->cpu, "1");
			rtm_fmt_us(mx, sizeof(mx), h->max_ns);
			snprintf(t, sizeof(t), "CPU%d timer IRQ (max %s us)", rc->cpu, mx);
			if (!ret)
				ret = pct_curve(f, pc, h, t, rc->cpu, "2");
			break;
		}
	}
	return ret;
}

static int plot_timer_irq(struct rtm_report_ctx *c, const char *title, const char *sub,
			  struct rtm_error *err)
{
	struct rtm_hist *irq[RTM_REPORT_MAX_LINES] = { NULL };
	char path[PATH_MAX + 32], buf[3][32];
	struct pct_curves pc = { .xmax = 10 };
	struct rtm_plot_var v[8];
	int i, ret = 0;
	FILE *f;

	if (!json_array_size(rtm_json_path(c->r->sections, "timer_irq.cpus")))
		return 0;
	for (i = 0; i < c->nsel && !ret; i++)
		ret = (irq[i] = rtm_hist_alloc()) ? 0 : -ENOMEM;
	f = ret ? NULL : open_data(c, "timer_irq", path, sizeof(path));
	if (!f) {
		ret = ret ? rtm_error_setn(err, ret, "out of memory") :
		      rtm_error_setn(err, -errno, "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	ret = timer_irq_curves(c, f, &pc, irq);
	if (ret) {
		fclose(f);
		ret = rtm_error_setn(err, ret, "cannot write %s: %s", path, strerror(-ret));
		goto out;
	}
	/* the IRQ delay lies inside the wake-up: the wake-ups' maximum bounds both */
	ret = pct_finish(f, path, &pc, c->all_raw->max_ns, buf, v, err);
	if (ret || !pc.n)
		goto out;
	v[5] = (struct rtm_plot_var){ "title_text", title, false };
	v[6] = (struct rtm_plot_var){ "subtitle_text", sub, false };
	ret = draw_as(c, "percentiles", "timer_irq", "Timer IRQ and wake-up: for each plotted "
		      "CPU, in its colour, the percentile curve of the wake-up latency and, dashed "
		      "below it, of its timer IRQ part (the probe's hrtimer expiry to the "
		      "interrupt running it)", path, v, 7, err);
out:
	for (i = 0; i < c->nsel; i++)
		rtm_hist_free(irq[i]);
	return ret;
}

/* The report into @o->out_dir: rtm_report_write() without the staging. */
static int report_write(const struct rtm_result *r, const struct rtm_report_opts *o,
			struct rtm_error *err)
{
	struct rtm_report_ctx c;
	char title[256], sub[512], path[PATH_MAX + 32];
	const char *host = rtm_json_path_str(r->sysinfo, "hostname");
	int ret;

	memset(&c, 0, sizeof(c));
	c.r = r;
	c.o = o;
	if (!r->ncpus && json_object_get(r->sections, "noise"))	/* rtmeasure noise */
		return rtm_report_noise_write(r, o, err);
	if (!r->ncpus && json_object_get(r->sections, "io"))	/* rtmeasure io */
		return rtm_report_io_write(r, o, err);
	if (!r->ncpus)
		return rtm_error_setn(err, -EINVAL, "the result holds no CPU: nothing to report");
	ret = rtm_plot_check(err);
	if (ret)
		return ret;
	c.all_raw = rtm_hist_alloc();
	c.all_corr = rtm_hist_alloc();
	if (!c.all_raw || !c.all_corr) {
		rtm_hist_free(c.all_raw);
		rtm_hist_free(c.all_corr);
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	rtm_result_total(r, c.all_raw, c.all_corr);
	if (!c.all_raw->count) {
		rtm_hist_free(c.all_raw);
		rtm_hist_free(c.all_corr);
		return rtm_error_setn(err, -EINVAL, "the result holds no samples (every CPU's "
				      "histogram is empty): nothing to plot");
	}
	snprintf(c.plots, sizeof(c.plots), "%s/plots", o->out_dir);
	snprintf(path, sizeof(path), "%s/data", c.plots);
	ret = rtm_dir_make(o->out_dir, "plots/data");	/* no symlink at plots followed */
	if (ret) {
		rtm_hist_free(c.all_raw);
		rtm_hist_free(c.all_corr);
		return rtm_error_setn(err, ret, "cannot create %s: %s", path,
				      rtm_write_strerror(ret));
	}
	select_lines(&c);
	snprintf(title, sizeof(title), "%s, %s %s, started %s", host ? host : "?", r->tool,
		 r->command, r->created);
	rtm_report_result_desc(sub, sizeof(sub), r, c.all_raw->count);
	ret = plot_histogram(&c, title, sub, err);
	if (!ret)
		ret = plot_percentiles(&c, title, sub, err);
	if (!ret)
		ret = plot_timeseries(&c, title, sub, err);
	if (!ret)
		ret = plot_irq(&c, sub, err);
	if (!ret)
		ret = plot_timer_irq(&c, title, sub, err);
	if (!ret && json_object_get(r->sections, "noise"))	/* run --noise */
		ret = rtm_report_noise_plot(r, o, c.plots, &c.noise_drawn, err);
	if (!ret && json_object_get(r->sections, "io"))		/* run --io */
		ret = rtm_report_io_plot(r, o, c.plots, err);
	if (!ret)
		ret = rtm_report_pages(&c, err);
	rtm_hist_free(c.all_raw);
	rtm_hist_free(c.all_corr);
	return ret;
}

struct staged_report {
	const struct rtm_result *r;
	const struct rtm_report_opts *o;
};

/* The report written into the staging folder @dir in place of the results folder. */
static int report_staged(const char *dir, void *arg, struct rtm_error *err)
{
	const struct staged_report *a = arg;
	struct rtm_report_opts o = *a->o;

	o.out_dir = dir;
	if (o.results_dir && !strcmp(o.results_dir, a->o->out_dir))
		o.results_dir = dir;	/* links into the results folder stay relative */
	return report_write(a->r, &o, err);
}

int rtm_report_write(const struct rtm_result *r, const struct rtm_report_opts *o,
		     struct rtm_error *err)
{
	struct staged_report a = { r, o };

	/* all or nothing: a full disk leaves no plot without its page */
	return rtm_stage_write(o->out_dir, report_staged, &a, err);
}
