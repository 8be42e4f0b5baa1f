// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_pages.c - report.html (self-contained) and report.md of one result.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "box/cost.h"
#include "box/sysinfo.h"
#include "present/cost_report.h"
#include "core/fileio.h"
#include "core/stats.h"
#include "present/html.h"
#include "core/jsonutil.h"
#include "irq/handlers.h"
#include "present/report_priv.h"
#include "present/rtholds_print.h"
#include "present/census_print.h"
#include "present/timerirq_print.h"
#include "present/wakeup_print.h"
#include "result/disturb.h"
#include "result/summary.h"
#include "core/units.h"

static const char *const pct_names[RTM_SUMMARY_NPCT] = { "p50", "p90", "p99", "p99.9",
							 "p99.99", "p99.999" };
#define SHOWN_PCTS 5	/* p50 .. p99.99 */

static bool imported(const struct rtm_result *r)
{
	return json_is_object(json_object_get(r->sections, "provenance"));
}

/* A table cell in us, or what an unknown figure (@bit of s->unknown) shows. */
static void cell_us(char *buf, size_t len, const struct rtm_summary_row *s, unsigned int bit,
		    double ns)
{
	if (s->unknown & bit) {
		snprintf(buf, len, "n/a");
		return;
	}
	rtm_fmt_us(buf, len, ns);
}

struct fp_item {
	const char *label;
	char *value;		/* malloc()ed: a long kernel command line is kept whole */
};

static void fp_free(struct fp_item *it, int n)
{
	while (n-- > 0)
		free(it[n].value);
}

#define UNKNOWN "unknown"

/* A sysinfo the run recorded on its box; an import's is partial or absent. */
static bool box_known(const json_t *si)
{
	return si && !json_is_true(json_object_get(si, "imported"));
}

/*
 * "12.3 s measured", "2.4 s of 60 s asked, stopped by SIGINT" (result/disturb.h),
 * or "duration unknown" (an import whose source does not tell).
 */
static void fmt_measured(char *buf, size_t len, const struct rtm_result *r)
{
	if (!r->duration_ns && imported(r))
		snprintf(buf, len, "duration unknown");
	else if (r->interrupted)
		rtm_result_duration_text(r, buf, len);
	else
		snprintf(buf, len, "%.1f s measured", (double)r->duration_ns / 1e9);
}

/* What the run measured: "CPUs 0-1, interval 1000 us, fifo 95, nanosleep". */
static void fmt_run_options(char *buf, size_t len, const struct rtm_result *r)
{
	const json_t *o = r->options, *iv = json_object_get(o, "interval_ns");
	const json_t *prio = rtm_json_path(o, "sched.priority");
	const char *pol = rtm_json_path_str(o, "sched.policy");
	char iv_s[32], sched[48];

	if (json_is_integer(iv))
		snprintf(iv_s, sizeof(iv_s), "%.0f us", (double)json_integer_value(iv) / 1000.0);
	else
		snprintf(iv_s, sizeof(iv_s), UNKNOWN);
	if (pol && json_is_integer(prio))
		snprintf(sched, sizeof(sched), "%s %lld", pol, json_integer_value(prio));
	else
		snprintf(sched, sizeof(sched), "%s", pol ?: "scheduling " UNKNOWN);
	snprintf(buf, len, "CPUs %s, interval %s, %s, %s",
		 rtm_json_path_str(o, "cpus") ?: UNKNOWN, iv_s, sched,
		 rtm_json_path_str(o, "mode") ?: "probe mode " UNKNOWN);
}

/* The box and the run, as facts a reader compares runs by; what a result does
 * not record (an import) is "unknown", never a guess. */
static int fingerprint(const struct rtm_result *r, struct fp_item *it)
{
	const json_t *si = r->sysinfo, *load;
	const json_t *pre = json_object_get(json_object_get(si, "kernel"), "preempt");
	const json_t *virt = json_object_get(si, "virtualization");
	const json_t *online = rtm_json_path(si, "cpu.online_count");
	const char *s;
	char *ld = NULL, m[96], opts[512];
	size_t k, ldlen = 0;
	FILE *lf;
	int n = 0;

#define ITEM(l, ...) do { it[n].label = (l); \
			  if (asprintf(&it[n].value, __VA_ARGS__) < 0) \
				  it[n].value = NULL; \
			  n++; } while (0)
	ITEM("host", "%s", rtm_json_path_str(si, "hostname") ?: UNKNOWN);
	ITEM("kernel", "%s %s", rtm_json_path_str(si, "kernel.release") ?: UNKNOWN,
	     rtm_json_path_str(si, "kernel.version") ?: "");
	if (pre)
		ITEM("preemption", "%s%s", json_string_value(json_object_get(pre, "model")) ?:
		     UNKNOWN,
		     json_is_true(json_object_get(pre, "dynamic")) ? " (PREEMPT_DYNAMIC)" : "");
	if (json_is_integer(online))
		ITEM("CPU", "%s, %lld online (%s)", rtm_json_path_str(si, "cpu.model") ?: UNKNOWN,
		     json_integer_value(online), rtm_json_path_str(si, "cpu.online") ?: UNKNOWN);
	else
		ITEM("CPU", "%s", rtm_json_path_str(si, "cpu.model") ?: UNKNOWN);
	if (box_known(si))
		ITEM("isolated CPUs", "%s; nohz_full %s",
		     rtm_json_path_str(si, "cpu.isolated") ?: "none",
		     rtm_json_path_str(si, "cpu.nohz_full") ?: "none");
	else
		ITEM("isolated CPUs", UNKNOWN);
	if (virt)
		ITEM("virtual machine", "%s", json_is_true(json_object_get(virt, "vm")) ?
		     (json_string_value(json_object_get(virt, "hypervisor")) ?: "yes") : "no");
	if ((s = rtm_json_path_str(si, "kernel.cmdline")))
		ITEM("kernel command line", "%s", s);
	fmt_run_options(opts, sizeof(opts), r);
	ITEM("measured", "%s", opts);
	load = json_object_get(json_object_get(r->sections, "load"), "commands");
	lf = open_memstream(&ld, &ldlen);
	for (k = 0; lf && k < json_array_size(load); k++)
		fprintf(lf, "%s%s", k ? "; " : "",
			json_string_value(json_array_get(load, k)) ?: "");
	if (lf)
		fclose(lf);
	ITEM("load", "%s", ld && *ld ? ld :
	     imported(r) ? UNKNOWN " (not in the imported file)" : "none (idle)");
	free(ld);
	fmt_measured(m, sizeof(m), r);
	ITEM("run", "%s %s, %s, %s%s", r->tool, r->command, r->created, m,
	     r->interrupted ? " (interrupted)" : "");
#undef ITEM
	return n;
}

static void html_summary(FILE *f, const struct rtm_result *r, const struct rtm_summary_row *rows,
			 int nrows)
{
	char v[32], why[256];
	int i, k;

	fputs("<table>\n<tr><th class=\"l\">CPU</th><th>samples</th><th>min</th><th>avg</th>", f);
	for (k = 0; k < SHOWN_PCTS; k++)
		fprintf(f, "<th>%s</th>", pct_names[k]);
	fputs("<th>max</th><th>overruns</th></tr>\n", f);
	for (i = 0; i < nrows; i++) {
		const struct rtm_summary_row *s = &rows[i];

		fprintf(f, "<tr%s><td class=\"l\">", s->cpu < 0 ? " class=\"all\"" : "");
		if (s->cpu < 0)
			fputs("all", f);
		else
			fprintf(f, "%d", s->cpu);
		fprintf(f, "</td><td>%llu</td>", (unsigned long long)s->samples);
		cell_us(v, sizeof(v), s, RTM_SUMMARY_UNKNOWN_MIN, s->samples ? (double)s->min_ns : 0);
		fprintf(f, "<td>%s</td>", v);
		cell_us(v, sizeof(v), s, RTM_SUMMARY_UNKNOWN_AVG, s->avg_ns);
		fprintf(f, "<td>%s</td>", v);
		for (k = 0; k < SHOWN_PCTS; k++) {
			rtm_summary_fmt_pct(v, sizeof(v), s, k, false);
			if (s->few & (1u << k)) {
				rtm_summary_pct_reason(why, sizeof(why), s, k);
				fprintf(f, "<td title=\"%s\">&ndash;</td>", why);
				continue;
			}
			fputs("<td>", f);
			rtm_html_text(f, v);
			fputs("</td>", f);
		}
		cell_us(v, sizeof(v), s, RTM_SUMMARY_UNKNOWN_MAX, (double)s->max_ns);
		fprintf(f, "<td>%s</td><td>%llu</td></tr>\n", v, (unsigned long long)s->overruns);
	}
	fputs("</table>\n<p class=\"sub\">Latencies in microseconds, from the raw histograms "
	      "(bucket width at most 1/256 of the value", f);
	fputs(imported(r) ? "; an import's rows stand for what its source's rows stood for, and "
	      "its avg is the source's own figure" : "; min, avg and max exact", f);
	fputs(").", f);
	rtm_summary_few_note(why, sizeof(why), rows, nrows, (1u << SHOWN_PCTS) - 1);
	if (why[0])
		fprintf(f, " &ndash;%s.", why + 1);
	if (nrows && rows[nrows - 1].unknown & ~rows[nrows - 1].few) {
		char x[32];

		rtm_summary_fmt_unknown(x, sizeof(x), &rows[nrows - 1], false);
		rtm_summary_unknown_reason(why, sizeof(why), &rows[nrows - 1]);
		fputs(" ", f);
		rtm_html_text(f, x);
		fputs(": ", f);
		rtm_html_text(f, why);
		fputs(".", f);
	}
}

/* Handler time of a /proc row from sections.irq.handlers, "" when not traced. */
static void irq_handler_text(const struct rtm_result *r, const struct rtm_report_irq *row,
			     char *buf, size_t len)
{
	const json_t *src = json_object_get(json_object_get(json_object_get(r->sections, "irq"),
							    "handlers"), "sources");
	uint64_t count = 0, total = 0, max = 0;
	char avg[16], mx[16];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < json_array_size(src); i++) {
		const json_t *s = json_array_get(src, i);

		if (!rtm_irqsrc_matches(row->name, row->irq,
					json_string_value(json_object_get(s, "kind")) ?: "",
					(int)json_integer_value(json_object_get(s, "id")),
					json_string_value(json_object_get(s, "name")) ?: ""))
			continue;
		count += (uint64_t)json_integer_value(json_object_get(s, "count"));
		total += (uint64_t)json_integer_value(json_object_get(s, "total_ns"));
		if ((uint64_t)json_integer_value(json_object_get(s, "max_ns")) > max)
			max = (uint64_t)json_integer_value(json_object_get(s, "max_ns"));
	}
	if (!count)
		return;
	rtm_fmt_ns(avg, sizeof(avg), total / count);
	rtm_fmt_ns(mx, sizeof(mx), max);
	snprintf(buf, len, "avg %s, max %s", avg, mx);
}

/* The image a page shows: PNG, else SVG (one of them is always drawn). */
static const char *page_ext(unsigned int formats)
{
	return rtm_report_draw_formats(formats) & (1u << RTM_PLOT_PNG) ? "png" : "svg";
}

static const char *level_class(const char *level)
{
	return !level ? "info" : !strcmp(level, "warn") ? "warn" : !strcmp(level, "ok") ? "ok" :
	       "info";
}

/*
 * A wakeup result holds the box's own tasks' waits, not the probe's latency: said first
 * (monitor --wakeup's tasks are beside the timer probe's CPUs: a latency report).
 */
static const char *report_kind(const struct rtm_result *r)
{
	const json_t *wk = json_object_get(r->sections, "wakeup");

	return wk && !json_is_true(json_object_get(wk, "beside_probe")) ? "Task wake-up report" :
	       "Latency report";
}

/* The page's title, what was measured, and the warnings that frame every number. */
static void html_head(const struct rtm_result *r, FILE *f)
{
	char title[256], m[96];

	snprintf(title, sizeof(title), "%s: %s, %s", report_kind(r),
		 rtm_json_path_str(r->sysinfo, "hostname") ?: "host " UNKNOWN,
		 rtm_json_path_str(r->sysinfo, "kernel.release") ?: "kernel " UNKNOWN);
	rtm_html_begin(f, title);
	fputs("<h1>", f);
	rtm_html_text(f, title);
	fputs("</h1>\n<p class=\"sub\">", f);
	fmt_measured(m, sizeof(m), r);
	fprintf(f, "%s %s, started %s, %s%s</p>\n", r->tool, r->command, r->created, m,
		r->interrupted && !r->stop_signal[0] ? " (interrupted: what was measured until then)" :
		"");
	rtm_report_banner(r, f, true);

	if (rtm_result_unplaced_overflows(r))
		fprintf(f, "<p class=\"warn\">Imported: %llu samples lay beyond the source's "
			"histogram and have no known value; the percentiles whose rank lies among "
			"them are unknown and shown as such, and the plots hold only the samples "
			"with a value (sections.provenance of result.json has the details).</p>\n",
			(unsigned long long)rtm_result_unplaced_overflows(r));
}

/* Summary table, then the coordinated-omission figures when stalls added samples. */
static void html_summary_section(struct rtm_report_ctx *c, FILE *f,
				 const struct rtm_summary_row *rows, int nrows)
{
	fputs("<h2>Summary</h2>\n", f);
	html_summary(f, c->r, rows, nrows);
	if (c->all_corr && c->all_corr->count > c->all_raw->count) {
		char p99[16], p999[16];

		rtm_fmt_us(p99, sizeof(p99), (double)rtm_hist_percentile(c->all_corr, 99));
		rtm_fmt_us(p999, sizeof(p999), (double)rtm_hist_percentile(c->all_corr, 99.9));
		if (!rtm_pct_defined(c->all_corr->count, 99))
			snprintf(p99, sizeof(p99), "-");
		if (!rtm_pct_defined(c->all_corr->count, 99.9))
			snprintf(p999, sizeof(p999), "-");
		fprintf(f, " Corrected for coordinated omission (the %llu wake-ups that stalls "
			"swallowed added): p99 %s, p99.9 %s.",
			(unsigned long long)(c->all_corr->count - c->all_raw->count), p99, p999);
	}
	fputs("</p>\n", f);
}

static void html_plots(struct rtm_report_ctx *c, FILE *f)
{
	char img[PATH_MAX + 64];
	int i;

	fputs("<h2>Plots</h2>\n", f);
	for (i = 0; i < c->npf; i++) {
		snprintf(img, sizeof(img), "%s/%s.%s", c->plots, c->pf[i].name,
			 page_ext(c->o->formats));
		rtm_html_image(f, img, c->pf[i].caption);
		/* the PDF is an extra file beside the page, linked, never embedded */
		if (c->o->formats & (1u << RTM_PLOT_PDF))
			fprintf(f, "<p class=\"sub\"><a href=\"plots/%s.pdf\">%s.pdf</a></p>\n",
				c->pf[i].name, c->pf[i].name);
	}
}

/* The busiest IRQ sources of the measured CPUs, with handler times when traced. */
static void html_irqs(const struct rtm_result *r, FILE *f)
{
	struct rtm_report_irq irqs[10];
	char h[64];
	int n, i;
	bool traced;

	n = rtm_report_irq_rows(r, irqs, 10);
	if (!n)
		return;
	traced = json_object_get(json_object_get(r->sections, "irq"), "handlers");
	fputs("<h2>Interrupts on the measured CPUs</h2>\n<table>\n<tr><th class=\"l\">IRQ"
	      "</th><th>per second</th>", f);
	if (traced)
		fputs("<th class=\"l\">handler time</th>", f);
	fputs("<th class=\"l\">device or kind</th></tr>\n", f);
	for (i = 0; i < n; i++) {
		fputs("<tr><td class=\"l\">", f);
		rtm_html_text(f, irqs[i].name);
		fprintf(f, "</td><td>%.1f</td>", irqs[i].rate);
		if (traced) {
			irq_handler_text(r, &irqs[i], h, sizeof(h));
			fprintf(f, "<td class=\"l\">%s</td>", h[0] ? h : "&ndash;");
		}
		fputs("<td class=\"l\">", f);
		rtm_html_text(f, irqs[i].desc);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* A -b stop, and each captured spike's verdict with a link to its events. */
static void html_spikes(struct rtm_report_ctx *c, FILE *f)
{
	const json_t *e;
	size_t k;
	int n = 0;

	/* RT tasks that held a CPU over --rt-hold (lib/trace/rtholds.c), when traced */
	rtm_rtholds_html(json_object_get(c->r->sections, "rt_holds"), f);
	/* the timer IRQ part of the wake-ups (--timer-irq, lib/trace/timerirq.c), when traced */
	rtm_timerirq_html(c->r, f);
	/* every wake-up over --capture-above with its cause (lib/trace/census.c), when traced */
	rtm_census_html(json_object_get(c->r->sections, "spike_census"), f);

	fputs("<h2>Spikes</h2>\n", f);
	json_array_foreach(c->r->events, k, e) {
		const char *type = json_string_value(json_object_get(e, "type")) ?: "";
		char lat[16];

		if (!strcmp(type, "break")) {
			rtm_fmt_ns(lat, sizeof(lat), (uint64_t)json_integer_value(
					json_object_get(e, "latency_ns")));
			fprintf(f, "<p>The run stopped at -b: CPU %lld woke %s late.</p>\n",
				json_integer_value(json_object_get(e, "cpu")), lat);
		}
		if (strcmp(type, "spike_capture"))
			continue;
		n++;
		fputs("<div class=\"verdict\">", f);
		rtm_html_text(f, json_string_value(json_object_get(e, "verdict")));
		fputs(" <a href=\"", f);
		if (c->o->results_dir && strcmp(c->o->results_dir, c->o->out_dir)) {
			rtm_html_text(f, c->o->results_dir);
			fputc('/', f);
		}
		rtm_html_text(f, json_string_value(json_object_get(e, "file")));
		fputs("\">events</a></div>\n", f);
	}
	if (!n)
		fputs("<p>No spike was captured (run with <code>--capture-above LAT</code> or "
		      "<code>-b LAT --trace</code> to keep the events around the worst wake-ups and "
		      "their explanation).</p>\n", f);
}

/*
 * The "tracers" check says what rtmeasure does with the kernel's tracers, so a result
 * recorded by an older rtmeasure is worded again from its facts (sysinfo.tracing); true
 * when @text and @level are set.
 */
static bool tracers_check(const json_t *si, const json_t *check, char *text, size_t len,
			  const char **level)
{
	const json_t *t = json_object_get(si, "tracing");
	const json_t *h = json_object_get(t, "hwlat"), *o = json_object_get(t, "osnoise");
	const json_t *l = json_object_get(t, "timerlat");
	const char *id = json_string_value(json_object_get(check, "id"));

	if (!id || strcmp(id, "tracers") || !json_is_boolean(h) || !json_is_boolean(o) ||
	    !json_is_boolean(l))
		return false;
	*level = rtm_check_level_name(rtm_sysinfo_tracers_verdict(json_is_true(h), json_is_true(o),
								  json_is_true(l), text, len));
	return true;
}

/* The box's fingerprint and the sysinfo checklist. */
static void html_box(const struct rtm_result *r, FILE *f)
{
	const json_t *checks = json_object_get(r->sysinfo, "checks"), *e;
	struct fp_item fp[16];
	size_t k;
	int n, i;

	rtm_cost_html(json_object_get(r->sections, "throughput"), f);	/* run --throughput */

	fputs("<h2>The box</h2>\n<table>\n", f);
	n = fingerprint(r, fp);
	for (i = 0; i < n; i++) {
		/* long values (the kernel command line) wrap, whole, inside the page */
		fprintf(f, "<tr><th class=\"l\">%s</th><td class=\"l wrap\">", fp[i].label);
		rtm_html_text(f, fp[i].value ?: "?");
		fputs("</td></tr>\n", f);
	}
	fp_free(fp, n);
	fputs("</table>\n", f);
	if (!json_array_size(checks))
		return;
	fputs("<h2>Checklist</h2>\n<table>\n", f);
	json_array_foreach(checks, k, e) {
		const char *lv = json_string_value(json_object_get(e, "level"));
		const char *msg = json_string_value(json_object_get(e, "message"));
		char text[sizeof(((struct rtm_check *)0)->text)];

		if (tracers_check(r->sysinfo, e, text, sizeof(text), &lv))
			msg = text;
		fprintf(f, "<tr><td class=\"l %s\">%s</td><td class=\"l\">", level_class(lv),
			lv ? lv : "");
		rtm_html_text(f, msg);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* run --noise: the noise phase's tables and gap plot (report_noise.c). */
static void noise_section(struct rtm_report_ctx *c, FILE *f, bool html)
{
	char img[PATH_MAX + 64];

	snprintf(img, sizeof(img), "%s/noise_hist.%s", c->plots, page_ext(c->o->formats));
	rtm_report_noise_section(f, c->r, html, c->noise_drawn ? img : NULL,
				 c->o->formats & (1u << RTM_PLOT_PDF), 5);
}

/* run --io: the storage probe's tables and plots (report_io.c). */
static void io_section(struct rtm_report_ctx *c, FILE *f, bool html)
{
	rtm_report_io_section(f, c->r, html, c->plots, page_ext(c->o->formats));
}

static void write_html(struct rtm_report_ctx *c, FILE *f, const struct rtm_summary_row *rows,
		       int nrows)
{
	html_head(c->r, f);
	rtm_wakeup_html(f, json_object_get(c->r->sections, "wakeup"));	/* rtmeasure wakeup */
	html_summary_section(c, f, rows, nrows);
	html_plots(c, f);
	html_irqs(c->r, f);
	html_spikes(c, f);
	noise_section(c, f, true);	/* run --noise */
	io_section(c, f, true);		/* run --io */
	html_box(c->r, f);
	rtm_html_end(f);
}

static void write_md(struct rtm_report_ctx *c, FILE *f, const struct rtm_summary_row *rows,
		     int nrows)
{
	const struct rtm_result *r = c->r;
	const char *ext = page_ext(c->o->formats);
	struct fp_item fp[16];
	const json_t *e;
	char v[32], m[96], v2[160];
	int i, k, n;
	size_t j;

	fmt_measured(m, sizeof(m), r);
	fprintf(f, "# %s: %s, %s\n\n%s %s, started %s, %s%s\n\n", report_kind(r),
		rtm_json_path_str(r->sysinfo, "hostname") ?: "host " UNKNOWN,
		rtm_json_path_str(r->sysinfo, "kernel.release") ?: "kernel " UNKNOWN, r->tool,
		r->command, r->created, m, r->interrupted && !r->stop_signal[0] ? " (interrupted)" :
		"");
	rtm_report_banner(r, f, false);
	rtm_wakeup_md(f, json_object_get(r->sections, "wakeup"));	/* rtmeasure wakeup */
	fputs("| CPU | samples | min | avg |", f);
	for (k = 0; k < SHOWN_PCTS; k++)
		fprintf(f, " %s |", pct_names[k]);
	fputs(" max | overruns |\n|---|---:|---:|---:|", f);
	for (k = 0; k < SHOWN_PCTS; k++)
		fputs("---:|", f);
	fputs("---:|---:|\n", f);
	for (i = 0; i < nrows; i++) {
		const struct rtm_summary_row *s = &rows[i];

		if (s->cpu < 0)
			fputs("| **all** ", f);
		else
			fprintf(f, "| %d ", s->cpu);
		fprintf(f, "| %llu ", (unsigned long long)s->samples);
		cell_us(v, sizeof(v), s, RTM_SUMMARY_UNKNOWN_MIN, s->samples ? (double)s->min_ns : 0);
		fprintf(f, "| %s ", v);
		cell_us(v, sizeof(v), s, RTM_SUMMARY_UNKNOWN_AVG, s->avg_ns);
		fprintf(f, "| %s ", v);
		for (k = 0; k < SHOWN_PCTS; k++) {
			rtm_summary_fmt_pct(v, sizeof(v), s, k, false);
			/* ">" opens a quote in Markdown: "\>" */
			fprintf(f, "| %s%s ", v[0] == '>' ? "\\" : "", v);
		}
		cell_us(v, sizeof(v), s, RTM_SUMMARY_UNKNOWN_MAX, (double)s->max_ns);
		fprintf(f, "| %s | %llu |\n", v, (unsigned long long)s->overruns);
	}
	fputs("\nLatencies in microseconds.", f);
	rtm_summary_few_note(v2, sizeof(v2), rows, nrows, (1u << SHOWN_PCTS) - 1);
	if (v2[0])
		fprintf(f, " %s.", v2);
	if (nrows && rows[nrows - 1].unknown & ~rows[nrows - 1].few) {
		char x[32], why[256];

		rtm_summary_fmt_unknown(x, sizeof(x), &rows[nrows - 1], false);
		rtm_summary_unknown_reason(why, sizeof(why), &rows[nrows - 1]);
		fprintf(f, " %s%s: %s.", x[0] == '>' ? "\\" : "", x, why);
	}
	fputs("\n\n", f);
	for (i = 0; i < c->npf; i++) {
		fprintf(f, "![%s](plots/%s.%s)\n\n", c->pf[i].caption, c->pf[i].name, ext);
		if (c->o->formats & (1u << RTM_PLOT_PDF))
			fprintf(f, "[%s.pdf](plots/%s.pdf)\n\n", c->pf[i].name, c->pf[i].name);
	}
	json_array_foreach(r->events, j, e)
		if (!strcmp(json_string_value(json_object_get(e, "type")) ?: "", "spike_capture"))
			fprintf(f, "- %s (`%s`)\n", json_string_value(json_object_get(e, "verdict")) ?: "",
				json_string_value(json_object_get(e, "file")) ?: "");
	fputs("\n", f);
	rtm_rtholds_md(json_object_get(r->sections, "rt_holds"), f);	/* --rt-hold */
	rtm_timerirq_md(r, f);						/* --timer-irq */
	rtm_census_md(json_object_get(r->sections, "spike_census"), f);	/* the census */
	rtm_cost_md(json_object_get(r->sections, "throughput"), f);	/* run --throughput */
	noise_section(c, f, false);					/* run --noise */
	io_section(c, f, false);					/* run --io */
	fputs("\n| | |\n|---|---|\n", f);
	n = fingerprint(r, fp);
	for (i = 0; i < n; i++)
		fprintf(f, "| %s | %s |\n", fp[i].label, fp[i].value ?: "?");
	fp_free(fp, n);
}

int rtm_report_pages(struct rtm_report_ctx *c, struct rtm_error *err)
{
	struct rtm_summary_row *rows = NULL;
	char path[PATH_MAX + 32], *text = NULL;
	size_t len = 0;
	int nrows, ret;
	FILE *f;

	nrows = rtm_summary_rows(c->r, false, &rows);
	if (nrows < 0)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	f = open_memstream(&text, &len);
	if (!f) {
		free(rows);
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	write_html(c, f, rows, nrows);
	fclose(f);
	snprintf(path, sizeof(path), "%s/report.html", c->o->out_dir);
	ret = text ? rtm_write_atomic(path, text, len) : -ENOMEM;
	free(text);
	text = NULL;
	if (!ret) {
		f = open_memstream(&text, &len);
		if (f) {
			write_md(c, f, rows, nrows);
			fclose(f);
		}
		snprintf(path, sizeof(path), "%s/report.md", c->o->out_dir);
		ret = text ? rtm_write_atomic(path, text, len) : -ENOMEM;
		free(text);
	}
	free(rows);
	if (ret)
		return rtm_error_setn(err, ret, "cannot write %s: %s", path,
				      rtm_write_strerror(ret));
	return 0;
}
