// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_io.c - the report of a storage run (rtmeasure io, sections.io): the
 * run, a table per operation with the figures io's summary prints
 * (present/io_print.h), the misses, and plots of each operation's latency from
 * its planned issue time: a histogram and percentile curves (service time
 * dashed), drawn by the templates the latency report uses.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/jsonutil.h"
#include "core/units.h"
#include "present/io_print.h"
#include "present/report.h"
#include "present/report_priv.h"

#define IO_MAX_OPS	8	/* the probe has five; a hand-made file gets no more lines */
#define IO_MISSES	20	/* misses listed on the page */

/* Each operation's latency and service histograms, in sections.io's order. */
struct io_lines {
	const char *name[IO_MAX_OPS];
	struct rtm_hist *lat[IO_MAX_OPS], *svc[IO_MAX_OPS];
	int n;
};

static void lines_free(struct io_lines *l)
{
	int i;

	for (i = 0; i < l->n; i++) {
		rtm_hist_free(l->lat[i]);
		rtm_hist_free(l->svc[i]);
	}
	l->n = 0;
}

/* sections.io's operations read back; -EINVAL naming the one that does not. */
static int lines_load(const json_t *io, struct io_lines *l, struct rtm_error *err)
{
	const json_t *ops = json_object_get(io, "ops"), *op;
	struct rtm_error herr = { "" };
	const char *name;

	memset(l, 0, sizeof(*l));
	if (!json_object_size(ops))
		return rtm_error_setn(err, -EINVAL, "sections.io.ops holds no operation");
	json_object_foreach((json_t *)ops, name, op) {
		int k = l->n;

		if (k == IO_MAX_OPS)
			break;
		l->name[k] = name;
		l->lat[k] = rtm_hist_alloc();
		l->svc[k] = rtm_hist_alloc();
		l->n++;
		if (!l->lat[k] || !l->svc[k])
			return rtm_error_setn(err, -ENOMEM, "out of memory");
		if (rtm_hist_from_json(l->lat[k], json_object_get(op, "latency"), &herr) ||
		    rtm_hist_from_json(l->svc[k], json_object_get(op, "service"), &herr) ||
		    !json_is_object(json_object_get(op, "lateness")))
			return rtm_error_setn(err, -EINVAL, "sections.io.ops.%s: a histogram does "
					      "not read back%s%s", name, herr.msg[0] ? ": " : "",
					      herr.msg);
	}
	return 0;
}

/* ---- the plots */

static int data_close(FILE *f, const char *path, int ret, struct rtm_error *err)
{
	if (fclose(f) || ret)
		return rtm_error_setn(err, ret ? ret : -errno, "cannot write %s: %s", path,
				      rtm_write_strerror(ret ? ret : -errno));
	return 0;
}

/* One line per operation: its latency from the planned time, in its own colour. */
static int plot_hist(const struct io_lines *l, const struct rtm_report_opts *o,
		     const char *plots, const char *title, const char *sub, struct rtm_error *err)
{
	struct rtm_report_mark marks[IO_MAX_OPS];
	char path[PATH_MAX + 32], t[64], mx[16], colours[IO_MAX_OPS * 8 + 1] = "";
	struct rtm_report_hist_vars hv;
	struct rtm_plot_var v[RTM_REPORT_HIST_NVARS + 6];
	struct rtm_hist_axis ax;
	FILE *f;
	int i, ret = 0;

	snprintf(path, sizeof(path), "%s/data/io_latency.dat", plots);
	f = rtm_fopen_atomic(path);	/* saved whole at fclose(), or not at all */
	if (!f)
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path, strerror(errno));
	for (i = 0; i < l->n && !ret; i++) {
		rtm_fmt_us(mx, sizeof(mx), l->lat[i]->max_ns);
		snprintf(t, sizeof(t), "%s (max %s us)", l->name[i], mx);
		ret = rtm_report_hist_block(f, l->lat[i], t);
		rtm_report_mark_of(l->lat[i], 0, 0, &marks[i]);
		/* operations are neither CPUs nor runs: the comparison's colours, by order */
		rtm_plot_list_add(colours, sizeof(colours), rtm_plot_run_colour(i));
	}
	if (!ret)
		ret = rtm_report_marks_block(f, marks, l->n);
	ret = data_close(f, path, ret, err);
	if (ret)
		return ret;
	rtm_report_hist_axis((const struct rtm_hist *const *)l->lat, l->n, o->log_x, &ax);
	rtm_report_hist_vars(&ax, l->n, false, &hv, v);
	v[8] = (struct rtm_plot_var){ "title_text", title, false };
	v[9] = (struct rtm_plot_var){ "subtitle_text", sub, false };
	v[10] = (struct rtm_plot_var){ "what", "latency from the planned issue", false };
	v[11] = (struct rtm_plot_var){ "ylabel_text", "requests", false };
	v[12] = (struct rtm_plot_var){ "colours", colours, false };
	v[13] = (struct rtm_plot_var){ "datafile", path, false };
	return rtm_plot_draw_kept("histogram", rtm_report_draw_formats(o->formats), o->width,
				  o->height, plots, "io_latency", v, 14, err);
}

/* Per operation the latency's percentile curve, and its service time's dashed below it. */
static int plot_pct(const struct io_lines *l, const struct rtm_report_opts *o,
		    const char *plots, const char *title, const char *sub, struct rtm_error *err)
{
	const struct rtm_hist *curves[2 * IO_MAX_OPS];
	char path[PATH_MAX + 32], t[80], mx[16], nb[16], xm[32], ym[32];
	char colours[2 * IO_MAX_OPS * 8 + 1] = "", dashes[2 * IO_MAX_OPS * 8 + 1] = "";
	struct rtm_plot_var v[8];
	double x, xmax = 10;
	uint64_t top = 0;
	int i, s, n = 0, ret = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/data/io_percentiles.dat", plots);
	f = rtm_fopen_atomic(path);
	if (!f)
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path, strerror(errno));
	for (i = 0; i < l->n && !ret; i++)
		for (s = 0; s < 2 && !ret; s++) {
			const struct rtm_hist *h = s ? l->svc[i] : l->lat[i];

			rtm_fmt_us(mx, sizeof(mx), h->max_ns);
			snprintf(t, sizeof(t), "%s %s (max %s us)", l->name[i],
				 s ? "service" : "latency", mx);
			ret = rtm_report_pct_block(f, h, t, &x);
			xmax = x > xmax ? x : xmax;
			top = h->count && h->max_ns > top ? h->max_ns : top;
			curves[n++] = h;
			rtm_plot_list_add(colours, sizeof(colours), rtm_plot_run_colour(i));
			rtm_plot_list_add(dashes, sizeof(dashes), s ? "2" : "1");
		}
	if (!ret)
		ret = rtm_report_pct_marks_block(f, curves, n);
	ret = data_close(f, path, ret, err);
	if (ret)
		return ret;
	snprintf(nb, sizeof(nb), "%d", n);
	snprintf(xm, sizeof(xm), "%.6g", xmax);
	snprintf(ym, sizeof(ym), "%.6g", (double)top / 1000.0 * 1.6 + 1);
	v[0] = (struct rtm_plot_var){ "nblocks", nb, true };
	v[1] = (struct rtm_plot_var){ "xmax", xm, true };
	v[2] = (struct rtm_plot_var){ "ymax", ym, true };
	v[3] = (struct rtm_plot_var){ "colours", colours, false };
	v[4] = (struct rtm_plot_var){ "dashes", dashes, false };
	v[5] = (struct rtm_plot_var){ "title_text", title, false };
	v[6] = (struct rtm_plot_var){ "subtitle_text", sub, false };
	v[7] = (struct rtm_plot_var){ "datafile", path, false };
	return rtm_plot_draw_kept("percentiles", rtm_report_draw_formats(o->formats), o->width,
				  o->height, plots, "io_percentiles", v, 8, err);
}

/* The plots' subtitle: what was asked of the device, and where. */
static void io_sub(char *buf, size_t len, const struct rtm_result *r, const json_t *io)
{
	const json_t *t = json_object_get(io, "target");
	char iv[32], dl[32] = "none", dur[32];
	uint64_t d = (uint64_t)json_integer_value(json_object_get(io, "deadline_ns"));

	rtm_fmt_ns(iv, sizeof(iv), (uint64_t)json_integer_value(json_object_get(io,
								"interval_ns")));
	if (d)
		rtm_fmt_ns(dl, sizeof(dl), d);
	snprintf(buf, len, "%lld bytes every %s, deadline %s, ioprio %s, disk %s, scheduler %s, "
		 "%lld requests, %s, kernel %s",
		 (long long)json_integer_value(json_object_get(io, "size")), iv, dl,
		 json_string_value(json_object_get(io, "ioprio")) ?: "?",
		 json_string_value(json_object_get(t, "disk")) ?: "unknown",
		 json_string_value(json_object_get(t, "scheduler_set")) ?:
		 json_string_value(json_object_get(t, "scheduler")) ?: "unknown",
		 (long long)json_integer_value(json_object_get(io, "requests")),
		 rtm_fmt_duration(dur, sizeof(dur), r->duration_ns),
		 rtm_json_path_str(r->sysinfo, "kernel.release") ?: "?");
}

/* ---- the pages: one writer for HTML and Markdown, so both say the same */

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void run_table(struct rtm_report_page *p, const struct rtm_result *r, const json_t *io)
{
	const json_t *t = json_object_get(io, "target"), *seq = json_object_get(io, "op_sequence");
	const json_t *sched = json_object_get(io, "sched");
	char v[512], iv[32], dl[32], dur[32];
	const char *cells[2] = { NULL, v };
	size_t k, len;

	rtm_report_table_begin(p, "ll", (const char *const[]){ "the run", "" }, 2);
#define KV(label) do { cells[0] = (label); rtm_report_row(p, cells, 2, false); } while (0)
	snprintf(v, sizeof(v), "%s, kernel %s", rtm_json_path_str(r->sysinfo, "hostname") ?: "?",
		 rtm_json_path_str(r->sysinfo, "kernel.release") ?: "?");
	KV("host");
	snprintf(v, sizeof(v), "%s (%s%s%s)", str(t, "path") ?: "?", str(t, "kind") ?: "?",
		 str(t, "fstype") ? " on " : "", str(t, "fstype") ?: "");
	KV("target");
	snprintf(v, sizeof(v), "%s, disk %s, I/O scheduler %s%s", str(t, "dev") ?: "?",
		 str(t, "disk") ?: "unknown", str(t, "scheduler_set") ?: str(t, "scheduler") ?:
		 "unknown", str(t, "scheduler_set") ? " (set for the run, put back after)" : "");
	KV("device");
	rtm_fmt_ns(iv, sizeof(iv), (uint64_t)json_integer_value(json_object_get(io,
								"interval_ns")));
	len = (size_t)snprintf(v, sizeof(v), "%lld bytes every %s, in turn:",
			       (long long)json_integer_value(json_object_get(io, "size")), iv);
	for (k = 0; k < json_array_size(seq) && len < sizeof(v); k++)
		len += (size_t)snprintf(v + len, sizeof(v) - len, " %s",
					json_string_value(json_array_get(seq, k)) ?: "?");
	KV("requests");
	if (json_integer_value(json_object_get(io, "deadline_ns")) > 0)
		rtm_fmt_ns(dl, sizeof(dl),
			   (uint64_t)json_integer_value(json_object_get(io, "deadline_ns")));
	snprintf(v, sizeof(v), "%s", json_integer_value(json_object_get(io, "deadline_ns")) > 0 ?
		 dl : "none (--deadline): no misses counted");
	KV("deadline");
	snprintf(v, sizeof(v), "CPU %lld, %s %lld, ioprio %s",
		 (long long)json_integer_value(json_object_get(io, "cpu")),
		 str(sched, "policy") ?: "?", (long long)json_integer_value(json_object_get(sched,
		 "priority")), str(io, "ioprio") ?: "?");
	KV("thread");
	snprintf(v, sizeof(v), "%s, %lld requests issued%s",
		 rtm_fmt_duration(dur, sizeof(dur), r->duration_ns),
		 (long long)json_integer_value(json_object_get(io, "requests")),
		 r->interrupted ? " (interrupted: what was measured until then)" : "");
	KV("time");
	if (str(io, "first_error")) {
		snprintf(v, sizeof(v), "%s", str(io, "first_error"));
		KV("first failed request");
	}
	snprintf(v, sizeof(v), "%s %s, started %s", r->tool, r->command, r->created);
	KV("command");
#undef KV
	rtm_report_table_end(p);
}

static void ops_table(struct rtm_report_page *p, const json_t *io)
{
	static const char *const what[RTM_IO_NFIGURES] = {
		"latency from the plan", "service", "issued late",
	};
	const json_t *op;
	struct rtm_hist *h = rtm_hist_alloc();
	const char *name;

	rtm_report_heading(p, 2, "Latency per operation");
	if (!h)
		return;
	rtm_report_table_begin(p, "llrrrrrrrrr", (const char *const[]){ "operation", "figure",
			       "requests", "min (us)", "avg (us)", "p50 (us)", "p99 (us)",
			       "p99.9 (us)", "max (us)", "misses", "failed" }, 11);
	json_object_foreach((json_t *)json_object_get(io, "ops"), name, op) {
		char cells[RTM_IO_NCELLS][16], n[24], m[24], e[24];
		int k;

		for (k = 0; k < RTM_IO_NFIGURES; k++) {
			struct rtm_io_figs x;
			const char *row_cells[11];
			int c;

			if (rtm_io_figs_of(json_object_get(op, rtm_io_figures[k]), h, &x))
				continue;	/* checked on load: not reached */
			rtm_io_cells(&x, cells);
			snprintf(n, sizeof(n), "%llu", (unsigned long long)x.count);
			snprintf(m, sizeof(m), "%lld", json_integer_value(json_object_get(op,
				 "misses")));
			snprintf(e, sizeof(e), "%lld", json_integer_value(json_object_get(op,
				 "errors")));
			row_cells[0] = k ? "" : name;
			row_cells[1] = what[k];
			row_cells[2] = n;
			for (c = 0; c < RTM_IO_NCELLS; c++)
				row_cells[3 + c] = cells[c];
			row_cells[9] = k ? "" : m;
			row_cells[10] = k ? "" : e;
			rtm_report_row(p, row_cells, 11, false);
		}
	}
	rtm_report_table_end(p);
	rtm_hist_free(h);
	rtm_report_para(p, NULL, "Latency counts from the request's planned issue time, so a "
			"request issued late carries its lateness (no coordinated omission); "
			"service from the actual issue to the completion; issued late: planned "
			"to actual issue. \"-\": too few requests for the percentile (10 "
			"expected beyond it), as in rtmeasure io's summary.");
}

static void misses_table(struct rtm_report_page *p, const json_t *io)
{
	uint64_t n = (uint64_t)json_integer_value(json_object_get(io, "misses"));
	uint64_t dropped = (uint64_t)json_integer_value(json_object_get(io, "misses_dropped"));
	const json_t *list = json_object_get(io, "miss_list"), *m;
	char line[256], c[6][32];
	size_t i;

	rtm_report_heading(p, 2, "Misses");
	if (json_integer_value(json_object_get(io, "deadline_ns")) <= 0) {
		rtm_report_para(p, NULL, "No deadline was given (--deadline): no request counts "
				"as a miss.");
		return;
	}
	rtm_fmt_ns(c[0], sizeof(c[0]), (uint64_t)json_integer_value(json_object_get(io,
								    "deadline_ns")));
	snprintf(line, sizeof(line), "%llu of %lld requests completed later than %s after their "
		 "planned issue time%s", (unsigned long long)n,
		 (long long)json_integer_value(json_object_get(io, "requests")), c[0],
		 n ? "; the first:" : ".");
	rtm_report_para(p, NULL, line);
	if (!n)
		return;
	rtm_report_table_begin(p, "rlrrrr", (const char *const[]){ "at", "operation", "latency",
			       "service", "issued late", "offset (bytes)" }, 6);
	json_array_foreach(list, i, m) {
		const char *cells[6] = { c[0], str(m, "op") ?: "?", c[2], c[3], c[4], c[5] };

		if (i == IO_MISSES)
			break;
		rtm_fmt_ns(c[0], sizeof(c[0]), (uint64_t)json_integer_value(json_object_get(m,
									  "time_ns")));
		rtm_fmt_ns(c[2], sizeof(c[2]), (uint64_t)json_integer_value(json_object_get(m,
									  "latency_ns")));
		rtm_fmt_ns(c[3], sizeof(c[3]), (uint64_t)json_integer_value(json_object_get(m,
									  "service_ns")));
		rtm_fmt_ns(c[4], sizeof(c[4]), (uint64_t)json_integer_value(json_object_get(m,
									  "lateness_ns")));
		snprintf(c[5], sizeof(c[5]), "%lld", json_integer_value(json_object_get(m,
			 "offset")));
		rtm_report_row(p, cells, 6, false);
	}
	rtm_report_table_end(p);
	if (json_array_size(list) > IO_MISSES || dropped) {
		snprintf(line, sizeof(line), "%llu more in result.json's miss_list, %llu counted "
			 "beyond it (--max-misses).", (unsigned long long)(json_array_size(list) >
			 IO_MISSES ? json_array_size(list) - IO_MISSES : 0),
			 (unsigned long long)dropped);
		rtm_report_para(p, NULL, line);
	}
}

#define HIST_CAPTION "Latency histogram: requests per microsecond of latency from the " \
	"planned issue time, one line per operation; triangles mark each one's maximum"
#define PCT_CAPTION "Percentile distribution (HdrHistogram style): per operation the " \
	"latency from the planned issue time, and dashed in the same colour its service time " \
	"from the actual issue; the gap between them is the issue's lateness"

static void image(struct rtm_report_page *p, const char *plots, const char *name, const char *ext,
		  const char *caption)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s.%s", plots, name, ext);
	if (p->html)
		rtm_html_image(p->f, path, caption);
	else	/* linked beside the page */
		fprintf(p->f, "![%s](plots/%s.%s)\n\n", caption, name, ext);
}

static void page_write(FILE *f, const struct rtm_result *r, bool html, const char *plots,
		       const char *ext)
{
	const json_t *io = json_object_get(r->sections, "io");
	struct rtm_report_page p = { f, html, "", false };
	char title[256];

	snprintf(title, sizeof(title), "Storage I/O report: %s, kernel %s",
		 rtm_json_path_str(r->sysinfo, "hostname") ?: "host unknown",
		 rtm_json_path_str(r->sysinfo, "kernel.release") ?: "unknown");
	if (html)
		rtm_html_begin(f, title);
	rtm_report_heading(&p, 1, title);
	rtm_report_banner(r, f, html);
	run_table(&p, r, io);
	ops_table(&p, io);
	misses_table(&p, io);
	rtm_report_heading(&p, 2, "Plots");
	image(&p, plots, "io_latency", ext, HIST_CAPTION);
	image(&p, plots, "io_percentiles", ext, PCT_CAPTION);
	if (html)
		rtm_html_end(f);
}

static int write_page(const struct rtm_result *r, const struct rtm_report_opts *o,
		      const char *plots, const char *name, bool html, struct rtm_error *err)
{
	const char *ext = rtm_report_draw_formats(o->formats) & (1u << RTM_PLOT_PNG) ? "png" :
			  "svg";
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	page_write(f, r, html, plots, ext);
	fclose(f);
	return rtm_report_page_save(o->out_dir, name, buf, len, err);
}

int rtm_report_io_plot(const struct rtm_result *r, const struct rtm_report_opts *o,
		       const char *plots, struct rtm_error *err)
{
	const json_t *io = json_object_get(r->sections, "io");
	char title[256], sub[512];
	struct io_lines l;
	int ret;

	ret = lines_load(io, &l, err);
	if (ret)
		goto out;
	snprintf(title, sizeof(title), "%s, %s %s, started %s",
		 rtm_json_path_str(r->sysinfo, "hostname") ?: "?", r->tool,
		 r->ncpus ? "run --io" : "io", r->created);
	io_sub(sub, sizeof(sub), r, io);
	ret = plot_hist(&l, o, plots, title, sub, err);
	if (!ret)
		ret = plot_pct(&l, o, plots, title, sub, err);
out:
	lines_free(&l);
	return ret;
}

void rtm_report_io_section(FILE *f, const struct rtm_result *r, bool html, const char *plots,
			   const char *ext)
{
	const json_t *io = json_object_get(r->sections, "io");
	struct rtm_report_page p = { f, html, "", true };

	if (!io)
		return;
	rtm_report_heading(&p, 1, "Storage I/O");
	rtm_report_para(&p, NULL, "The storage deadline probe of rtmeasure io ran beside the "
			"timer probe for the whole run (run --io), on its own thread: each request "
			"at its planned time, its latency from that time.");
	run_table(&p, r, io);
	ops_table(&p, io);
	misses_table(&p, io);
	image(&p, plots, "io_latency", ext, HIST_CAPTION);
	image(&p, plots, "io_percentiles", ext, PCT_CAPTION);
}

int rtm_report_io_write(const struct rtm_result *r, const struct rtm_report_opts *o,
			struct rtm_error *err)
{
	char plots[PATH_MAX];
	int ret;

	ret = rtm_plot_check(err);
	if (!ret)
		ret = rtm_report_plots_dir(o->out_dir, plots, err);
	if (!ret)
		ret = rtm_report_io_plot(r, o, plots, err);
	if (!ret)
		ret = write_page(r, o, plots, "report.html", true, err);
	if (!ret)
		ret = write_page(r, o, plots, "report.md", false, err);
	return ret;
}
