// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_noise.c - report.html and report.md of a noise result (rtmeasure
 * noise, sections.noise): the run, the per-CPU table, the gap causes when
 * traced, osnoise's interference counts, the long gaps, and a gap-length
 * histogram drawn with the latency histogram's template (plots/histogram.gp).
 *
 * A noise result has no wake-up latency, so nothing of the latency report's
 * pages applies; the figures are read from the section as it is, and what it
 * holds as null (a backend that does not measure it) is shown as unknown.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/jsonutil.h"
#include "present/noise_print.h"
#include "present/report.h"
#include "present/report_priv.h"
#include "core/units.h"

#define UNKNOWN "unknown"
#define TOP_CAUSES 5	/* contributors shown per CPU */

/* ---- checking the section before anything is written */

static const char *const num_keys[] = { "sampled_ns", "noise_ns", "max_gap_ns", "gaps", "loops",
					"above_report", "gaps_dropped", "sample_period_ns" };

int rtm_report_noise_check(const json_t *noise, struct rtm_error *err)
{
	const json_t *cpus = json_object_get(noise, "cpus"), *c, *v;
	struct rtm_hist *h;
	struct rtm_error herr = { "" };
	size_t i, k;

	if (!json_is_object(noise) || !json_is_array(cpus))
		return rtm_error_setn(err, -EINVAL, "sections.noise has no cpus array (a damaged "
				      "result.json; measure again with rtmeasure noise)");
	h = rtm_hist_alloc();
	if (!h)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	json_array_foreach(cpus, i, c) {
		const char *bad = NULL;

		if (!json_is_integer(json_object_get(c, "cpu")))
			bad = "cpu";
		for (k = 0; !bad && k < sizeof(num_keys) / sizeof(num_keys[0]); k++) {
			v = json_object_get(c, num_keys[k]);
			if (v && !json_is_null(v) && !json_is_number(v))
				bad = num_keys[k];
		}
		v = json_object_get(c, "gap_list");
		if (!bad && v && !json_is_array(v))
			bad = "gap_list";
		v = json_object_get(c, "hist");
		if (!bad && v && !json_is_null(v) && rtm_hist_from_json(h, v, &herr)) {
			rtm_hist_free(h);
			return rtm_error_setn(err, -EINVAL, "sections.noise.cpus[%zu].hist: %s (a "
					      "damaged result.json)", i, herr.msg);
		}
		if (bad) {
			rtm_hist_free(h);
			return rtm_error_setn(err, -EINVAL, "sections.noise.cpus[%zu].%s is missing "
					      "or not a number (a damaged result.json)", i, bad);
		}
	}
	rtm_hist_free(h);
	return 0;
}

/* ---- the cells */

/* @key of @o as a number: false when null or absent (the backend does not measure it). */
static bool num(const json_t *o, const char *key, double *v)
{
	const json_t *j = json_object_get(o, key);

	if (!json_is_number(j))
		return false;
	*v = json_number_value(j);
	return true;
}

static void cell_us(char *buf, size_t len, const json_t *o, const char *key)
{
	double v;

	if (num(o, key, &v) && v >= 0)
		rtm_fmt_us(buf, len, (uint64_t)v);
	else
		snprintf(buf, len, UNKNOWN);
}

/* a duration setting, "unknown" when null (an imported source does not state it) */
static void cell_ns(char *buf, size_t len, const json_t *o, const char *key)
{
	double v;

	if (num(o, key, &v) && v >= 0)
		rtm_fmt_ns(buf, len, (uint64_t)v);
	else
		snprintf(buf, len, UNKNOWN);
}

static void cell_count(char *buf, size_t len, const json_t *o, const char *key)
{
	double v;

	if (num(o, key, &v) && v >= 0)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, UNKNOWN);
}

int rtm_report_noise_row(const json_t *cpu, struct rtm_report_noise_row *row)
{
	double sampled, noise, period;

	if (!json_is_integer(json_object_get(cpu, "cpu")))
		return -EINVAL;
	row->cpu = json_integer_value(json_object_get(cpu, "cpu"));
	cell_us(row->runtime, sizeof(row->runtime), cpu, "sampled_ns");
	cell_us(row->noise, sizeof(row->noise), cpu, "noise_ns");
	/* imported: as the source printed it; else 100 - 100 * noise / sampled, as the
	 * summary and noise --json reckon it */
	if (num(cpu, "cpu_available_pct", &period))
		snprintf(row->avail, sizeof(row->avail), "%.5f", period);
	else if (num(cpu, "sampled_ns", &sampled) && num(cpu, "noise_ns", &noise) && sampled > 0)
		snprintf(row->avail, sizeof(row->avail), "%.5f", 100.0 - 100.0 * noise / sampled);
	else
		snprintf(row->avail, sizeof(row->avail), UNKNOWN);
	cell_us(row->max_gap, sizeof(row->max_gap), cpu, "max_gap_ns");
	cell_count(row->gaps, sizeof(row->gaps), cpu, "gaps");
	cell_count(row->above, sizeof(row->above), cpu, "above_report");
	if (num(cpu, "sample_period_ns", &period))
		snprintf(row->period, sizeof(row->period), "%.1f", period);
	else
		snprintf(row->period, sizeof(row->period), UNKNOWN);
	return 0;
}

/* some CPU has @key, not null */
static bool any_member(const json_t *noise, const char *key)
{
	const json_t *c;
	size_t i;

	json_array_foreach(json_object_get(noise, "cpus"), i, c)
		if (json_object_get(c, key) && !json_is_null(json_object_get(c, key)))
			return true;
	return false;
}

/* "3", or "unknown" for -1: the source does not name the CPU (hwlatdetect) */
static void cpu_label(char *buf, size_t len, long long cpu)
{
	if (cpu < 0)
		snprintf(buf, len, UNKNOWN);
	else
		snprintf(buf, len, "%lld", cpu);
}

/* ---- the page: one writer for HTML and Markdown, so both say the same */

static const char *str(const json_t *o, const char *path)
{
	return rtm_json_path_str(o, path);
}

static void run_table(struct rtm_report_page *p, const struct rtm_result *r, const json_t *noise)
{
	char v[512], a[16], b[16], t[16], rep[16], when[256];
	const char *cells[2], *model = str(r->sysinfo, "kernel.preempt.model");
	const char *backend = str(noise, "backend") ?: "user";	/* written before backends */
	double hz;

	rtm_report_table_begin(p, "ll", (const char *const[]){ "the run", "" }, 2);
	cells[1] = v;
#define KV(label) do { cells[0] = (label); rtm_report_row(p, cells, 2, false); } while (0)
	snprintf(v, sizeof(v), "%s", str(r->sysinfo, "hostname") ?: UNKNOWN);
	KV("host");
	snprintf(v, sizeof(v), "%s", str(r->sysinfo, "kernel.release") ?: UNKNOWN);
	KV("kernel");
	snprintf(v, sizeof(v), "%s%s", model ?: UNKNOWN,
		 json_is_true(rtm_json_path(r->sysinfo, "kernel.preempt.dynamic")) ?
		 " (PREEMPT_DYNAMIC)" : "");
	KV("preemption model");
	snprintf(v, sizeof(v), "%s: %s", backend,
		 str(noise, "backend_reason") ?: "no reason recorded (a result written before "
		 "the backends existed: the busy loop)");
	KV("backend");
	cell_ns(a, sizeof(a), noise, "width_ns");
	cell_ns(b, sizeof(b), noise, "window_ns");
	cell_ns(t, sizeof(t), noise, "threshold_ns");
	cell_ns(rep, sizeof(rep), noise, "report_above_ns");
	snprintf(v, sizeof(v), "busy %s of every %s; a gap is longer than %s; gaps above %s "
		 "listed", a, b, t, rep);
	KV("window, width, threshold");
	if (num(noise, "counter_hz", &hz)) {
		snprintf(v, sizeof(v), "%s at %.2f MHz", str(noise, "counter") ?: UNKNOWN,
			 hz / 1e6);
		KV("counter");
	}
	/* sampled time against wall time: a duty cycle samples a share of the run */
	snprintf(v, sizeof(v), "%s%s%s", rtm_noise_time_text(noise, when, sizeof(when)),
		 (p->sub ? json_is_true(rtm_json_path(noise, "phase.interrupted")) :
		  r->interrupted) ? " (interrupted: what was measured until then)" : "",
		 p->sub ? ", after the latency phase, on the same CPUs" : "");
	KV("time");
	snprintf(v, sizeof(v), "%s %s, started %s", r->tool, r->command, r->created);
	KV("command");
#undef KV
	rtm_report_table_end(p);
}

static void cpu_table(struct rtm_report_page *p, const json_t *noise)
{
	const json_t *c;
	char rep[16], above[32], cpu[16];
	size_t i;

	cell_ns(rep, sizeof(rep), noise, "report_above_ns");
	snprintf(above, sizeof(above), "gaps above %s", rep);
	rtm_report_heading(p, 2, "Noise per CPU");
	rtm_report_table_begin(p, "lrrrrrrr", (const char *const[]){ "CPU", "runtime (us)",
			       "noise (us)", "% CPU available", "max single gap (us)", "gaps",
			       "loop period (ns)", above }, 8);
	json_array_foreach(json_object_get(noise, "cpus"), i, c) {
		struct rtm_report_noise_row rw;

		if (rtm_report_noise_row(c, &rw))
			continue;
		cpu_label(cpu, sizeof(cpu), rw.cpu);
		rtm_report_row(p, (const char *const[]){ cpu, rw.runtime, rw.noise, rw.avail,
			       rw.max_gap, rw.gaps, rw.period, rw.above }, 8, false);
	}
	rtm_report_table_end(p);
	rtm_report_para(p, "sub", "Runtime is the time in the loop (gaps included), noise the sum "
			"of the gaps, % CPU available 100 - 100 x noise / runtime, the loop "
			"period the time between two reads of the counter; unknown: the backend "
			"does not measure it.");
}

/* hwlat's own figures (--backend hwlat, hwlatdetect imported), unknown where null */
static void hwlat_table(struct rtm_report_page *p, const json_t *noise)
{
	static const char *const keys[] = { "samples", "inner_max_ns", "outer_max_ns",
					    "nmi_count", "nmi_total_ns", "gaps_above_threshold" };
	const json_t *c;
	char cell[6][24], cpu[16], line[160];
	bool any = false;
	size_t i;
	int k;

	json_array_foreach(json_object_get(noise, "cpus"), i, c)
		any |= json_object_get(c, "inner_max_ns") != NULL;
	if (!any)
		return;
	rtm_report_heading(p, 2, "hwlat samples");
	rtm_report_table_begin(p, "lrrrrrr", (const char *const[]){ "CPU", "samples",
			       "inner max (us)", "outer max (us)", "NMIs", "NMI time (us)",
			       "gaps above threshold" }, 7);
	json_array_foreach(json_object_get(noise, "cpus"), i, c) {
		cpu_label(cpu, sizeof(cpu), json_integer_value(json_object_get(c, "cpu")));
		for (k = 0; k < 6; k++) {
			if (strstr(keys[k], "_ns"))
				cell_us(cell[k], sizeof(cell[k]), c, keys[k]);
			else
				cell_count(cell[k], sizeof(cell[k]), c, keys[k]);
		}
		rtm_report_row(p, (const char *const[]){ cpu, cell[0], cell[1], cell[2], cell[3],
			       cell[4], cell[5] }, 7, false);
	}
	rtm_report_table_end(p);
	rtm_report_para(p, "sub", "Inner: the largest gap between two reads of the clock inside "
			"hwlat's loop; outer: between two loop rounds; NMIs: those that came "
			"during the samples and their time; gaps above threshold: hwlat's count; "
			"unknown: the source does not give it (hwlatdetect prints only inner and "
			"outer).");
	if (json_object_get(noise, "smi_count")) {
		if (json_is_integer(json_object_get(noise, "smi_count")))
			snprintf(line, sizeof(line), "SMIs during the run: %lld (hwlatdetect's "
				 "count through rdmsr).",
				 json_integer_value(json_object_get(noise, "smi_count")));
		else
			snprintf(line, sizeof(line), "SMIs during the run: " UNKNOWN " (hwlatdetect "
				 "counts them only where rdmsr is installed).");
		rtm_report_para(p, NULL, line);
	}
}

static void interference_table(struct rtm_report_page *p, const json_t *noise)
{
	static const char *const keys[] = { "hw", "nmi", "irq", "softirq", "thread" };
	const json_t *c, *in;
	char cell[5][24], cpu[16];
	bool any = false;
	size_t i;
	int k;

	json_array_foreach(json_object_get(noise, "cpus"), i, c)
		any |= json_is_object(json_object_get(c, "interference"));
	if (!any)
		return;
	rtm_report_heading(p, 2, "Interference (osnoise's counts by cause)");
	rtm_report_table_begin(p, "lrrrrr", (const char *const[]){ "CPU", "HW", "NMI", "IRQ",
			       "SoftIRQ", "Thread" }, 6);
	json_array_foreach(json_object_get(noise, "cpus"), i, c) {
		in = json_object_get(c, "interference");
		if (!json_is_object(in))
			continue;
		cpu_label(cpu, sizeof(cpu), json_integer_value(json_object_get(c, "cpu")));
		for (k = 0; k < 5; k++)
			cell_count(cell[k], sizeof(cell[k]), in, keys[k]);
		rtm_report_row(p, (const char *const[]){ cpu, cell[0], cell[1], cell[2], cell[3],
			       cell[4] }, 6, false);
	}
	rtm_report_table_end(p);
}

/* "12 gaps, 345.6 us": the gaps a class was the main cause of, its time in all gaps. */
static void class_cell(char *buf, size_t len, const json_t *causes, const char *cls)
{
	char k_ns[32], k_gaps[32], t[16], g[24];

	snprintf(k_ns, sizeof(k_ns), "%s_ns", cls);
	snprintf(k_gaps, sizeof(k_gaps), "%s_gaps", cls);
	cell_us(t, sizeof(t), causes, k_ns);
	cell_count(g, sizeof(g), causes, k_gaps);
	snprintf(buf, len, "%s gaps, %s us", g, t);
}

static void causes_tables(struct rtm_report_page *p, const json_t *noise)
{
	static const char *const cls[] = {
		"irq", "softirq", "nmi", "thread", "rt_throttling", "unexplained",
	};
	const json_t *c, *causes, *e, *at = json_object_get(noise, "attribution");
	char cell[6][64], cpu[16], t[16], g[24], m[24], line[512];
	size_t i, j;
	int k;

	if (!json_is_object(at))
		return;
	rtm_report_heading(p, 2, "Gap causes (tracepoints)");
	rtm_report_para(p, NULL, "Per class: the gaps it was the main cause of, and its time in "
			"all gaps of the gap list (IRQ holds hard IRQs and x86 vectors, as rtla "
			"osnoise counts them).");
	rtm_report_table_begin(p, "lrrrrrr", (const char *const[]){ "CPU", "IRQ", "SoftIRQ", "NMI",
			       "Thread", "RT throttling", "Unexplained" }, 7);
	json_array_foreach(json_object_get(noise, "cpus"), i, c) {
		causes = json_object_get(c, "causes");
		if (!json_is_object(causes))
			continue;
		cpu_label(cpu, sizeof(cpu), json_integer_value(json_object_get(c, "cpu")));
		for (k = 0; k < 6; k++)
			class_cell(cell[k], sizeof(cell[k]), causes, cls[k]);
		rtm_report_row(p, (const char *const[]){ cpu, cell[0], cell[1], cell[2], cell[3],
			       cell[4], cell[5] }, 7, false);
	}
	rtm_report_table_end(p);
	rtm_report_heading(p, 2, "Top contributors");
	rtm_report_table_begin(p, "llrrr", (const char *const[]){ "CPU", "cause",
			       "time in gaps (us)", "gaps", "main cause of" }, 5);
	json_array_foreach(json_object_get(noise, "cpus"), i, c) {
		causes = json_object_get(c, "causes");
		cpu_label(cpu, sizeof(cpu), json_integer_value(json_object_get(c, "cpu")));
		json_array_foreach(json_object_get(causes, "contributors"), j, e) {
			if (j >= TOP_CAUSES)
				break;
			cell_us(t, sizeof(t), e, "ns");
			cell_count(g, sizeof(g), e, "gaps");
			cell_count(m, sizeof(m), e, "main_of");
			rtm_report_row(p, (const char *const[]){ cpu, str(e, "label") ?: UNKNOWN,
				       t, g, m }, 5, false);
		}
	}
	rtm_report_table_end(p);
	json_array_foreach(json_object_get(noise, "cpus"), i, c) {
		causes = json_object_get(c, "causes");
		if (json_integer_value(json_object_get(causes, "unexplained_ns")) <= 0)
			continue;
		cell_us(t, sizeof(t), causes, "unexplained_ns");
		snprintf(line, sizeof(line), "CPU %lld: %s us unexplained (%s)",
			 json_integer_value(json_object_get(c, "cpu")), t,
			 str(causes, "unexplained") ?: "no event explains it");
		rtm_report_para(p, NULL, line);
	}
	if (!json_is_true(json_object_get(at, "complete"))) {
		snprintf(line, sizeof(line), "Incomplete: %lld events lost, %lld intervals dropped; "
			 "the causes' figures are lower bounds.",
			 json_integer_value(json_object_get(at, "events_lost")),
			 json_integer_value(json_object_get(at, "intervals_dropped")));
		rtm_report_para(p, "warn", line);
	}
}

static void gaps_table(struct rtm_report_page *p, const json_t *noise, int max)
{
	uint64_t above = (uint64_t)json_integer_value(json_object_get(noise, "report_above_ns"));
	const json_t *c, *g, *contrib, *gc;
	char rep[16], head[64], cpu[16], at[32], len[16], line[256];
	uint64_t dropped = 0;
	bool any = false;
	size_t i, j;

	cell_ns(rep, sizeof(rep), noise, "report_above_ns");
	if (json_is_number(json_object_get(noise, "report_above_ns")))
		snprintf(head, sizeof(head), "Gaps above %s", rep);
	else	/* imported: every gap the source lists */
		snprintf(head, sizeof(head), "Gaps");
	rtm_report_heading(p, 2, head);
	json_array_foreach(json_object_get(noise, "cpus"), i, c) {
		int shown = 0, more = 0;

		contrib = rtm_json_path(c, "causes.contributors");
		gc = json_object_get(c, "gap_causes");
		dropped += (uint64_t)json_integer_value(json_object_get(c, "gaps_dropped"));
		cpu_label(cpu, sizeof(cpu), json_integer_value(json_object_get(c, "cpu")));
		json_array_foreach(json_object_get(c, "gap_list"), j, g) {
			json_int_t l = json_integer_value(json_array_get(g, 1)), k;
			const char *why = "not traced (noise --trace)";

			if (l <= 0 || (uint64_t)l <= above)
				continue;
			if (shown == max) {
				more++;
				continue;
			}
			if (!any)
				rtm_report_table_begin(p, "lrrl", (const char *const[]){ "CPU",
						       "at (s after the start)", "length (us)",
						       "main cause" }, 4);
			any = true;
			if (gc) {
				k = json_integer_value(json_array_get(json_array_get(gc, j), 0));
				why = k >= 0 ? str(json_array_get(contrib, (size_t)k), "label") : NULL;
				why = why ?: "unexplained";
			}
			snprintf(at, sizeof(at), "%.6f",
				 (double)json_integer_value(json_array_get(g, 0)) / 1e9);
			rtm_fmt_us(len, sizeof(len), (uint64_t)l);
			rtm_report_row(p, (const char *const[]){ cpu, at, len, why }, 4, false);
			shown++;
		}
		if (more) {
			char m[64];

			snprintf(m, sizeof(m), "... and %d more (result.json)", more);
			rtm_report_row(p, (const char *const[]){ cpu, m, "", "" }, 4, false);
		}
	}
	if (any)
		rtm_report_table_end(p);
	else if (!any_member(noise, "gap_list"))
		rtm_report_para(p, NULL, "Unknown: the source lists no gaps.");
	else
		rtm_report_para(p, NULL, "None in the gap list.");
	if (dropped) {
		snprintf(line, sizeof(line), "%llu gaps were counted but not kept with their time "
			 "(--max-gaps): the list may miss some.", (unsigned long long)dropped);
		rtm_report_para(p, "sub", line);
	}
}

#define HIST_CAPTION "Gap-length histogram: gaps per microsecond of length, one line per " \
	"CPU; triangles mark each CPU's longest gap"

/* The tables and the plot: the page's body, or a latency report's noise section (@p->sub). */
static void noise_body(struct rtm_report_page *p, const struct rtm_result *r, const char *img,
		       bool pdf, int max_gaps)
{
	const json_t *noise = json_object_get(r->sections, "noise");
	FILE *f = p->f;
	bool html = p->html;

	if (json_is_true(rtm_json_path(r->sysinfo, "virtualization.vm")))
		rtm_report_para(p, "warn", "Virtual machine: the gaps include the hypervisor's "
				"scheduling of the vCPUs.");
	run_table(p, r, noise);
	cpu_table(p, noise);
	hwlat_table(p, noise);
	interference_table(p, noise);
	causes_tables(p, noise);
	gaps_table(p, noise, max_gaps);
	rtm_report_heading(p, 2, "Gap lengths");
	if (!img && !any_member(noise, "hist"))	/* rtla osnoise top imported */
		rtm_report_para(p, NULL, "Gap lengths unknown: the source does not give them.");
	else if (!img)
		rtm_report_para(p, NULL, "No CPU had a gap: nothing to plot.");
	else if (html)
		rtm_html_image(f, img, HIST_CAPTION);
	else	/* linked beside the page: plots/NAME */
		fprintf(f, "![%s](plots/%s)\n\n", HIST_CAPTION,
			strrchr(img, '/') ? strrchr(img, '/') + 1 : img);
	/* the PDF is an extra file beside the page, linked, never embedded */
	if (img && pdf && html)
		fputs("<p class=\"sub\"><a href=\"plots/noise_hist.pdf\">noise_hist.pdf</a></p>\n", f);
	else if (img && pdf)
		fputs("[noise_hist.pdf](plots/noise_hist.pdf)\n\n", f);
}

void rtm_report_noise_section(FILE *f, const struct rtm_result *r, bool html, const char *img,
			      bool pdf, int max_gaps)
{
	struct rtm_report_page p = { f, html, "", true };

	if (!json_object_get(r->sections, "noise"))
		return;
	fputs(html ? "<h2>Noise</h2>\n" : "## Noise\n\n", f);
	rtm_report_para(&p, NULL, "The busy-loop detector of rtmeasure noise measured the same "
			"CPUs after the latency phase, under the same load (run --noise): time "
			"stolen from a CPU that no scheduler gives back. The two probes never ran "
			"at once.");
	noise_body(&p, r, img, pdf, max_gaps);
}

void rtm_report_noise_page(FILE *f, const struct rtm_result *r, bool html, const char *img,
			   bool pdf, int max_gaps)
{
	struct rtm_report_page p = { f, html, "", false };
	char title[256];

	snprintf(title, sizeof(title), "Noise report: %s, %s",
		 str(r->sysinfo, "hostname") ?: "host " UNKNOWN,
		 str(r->sysinfo, "kernel.release") ?: "kernel " UNKNOWN);
	if (html)
		rtm_html_begin(f, title);
	rtm_report_heading(&p, 1, title);
	rtm_report_banner(r, f, html);
	noise_body(&p, r, img, pdf, max_gaps);
	if (html)
		rtm_html_end(f);
}

/* ---- the plot and the files */

/* The CPUs drawn: their gap lengths and numbers (-1: unknown). */
struct noise_lines {
	struct rtm_hist *h[RTM_REPORT_NOISE_LINES];
	long long cpu[RTM_REPORT_NOISE_LINES];
	int n;
};

/* the CPUs with gaps, the longest gaps first when there are more than lines */
static int pick_lines(const json_t *noise, struct noise_lines *nl, struct rtm_error *err)
{
	struct rtm_error herr = { "" };
	const json_t *c;
	size_t k;
	int i;

	json_array_foreach(json_object_get(noise, "cpus"), k, c) {
		struct rtm_hist *x = rtm_hist_alloc();

		if (!x)
			return rtm_error_setn(err, -ENOMEM, "out of memory");
		if (rtm_hist_from_json(x, json_object_get(c, "hist"), &herr) || !x->count) {
			rtm_hist_free(x);
			continue;
		}
		if (nl->n == RTM_REPORT_NOISE_LINES) {
			int worst = 0;

			for (i = 1; i < nl->n; i++)
				if (nl->h[i]->max_ns < nl->h[worst]->max_ns)
					worst = i;
			if (nl->h[worst]->max_ns >= x->max_ns) {
				rtm_hist_free(x);
				continue;
			}
			rtm_hist_free(nl->h[worst]);
			nl->h[worst] = x;
			nl->cpu[worst] = json_integer_value(json_object_get(c, "cpu"));
			continue;
		}
		nl->h[nl->n] = x;
		nl->cpu[nl->n++] = json_integer_value(json_object_get(c, "cpu"));
	}
	return 0;
}

/* gnuplot's data file @path: a histogram block a line, then their marks */
static int write_noise_data(const char *path, const struct noise_lines *nl,
			    struct rtm_error *err)
{
	struct rtm_report_mark marks[RTM_REPORT_NOISE_LINES];
	char t[64], mx[16];
	FILE *f;
	int i;

	f = rtm_fopen_atomic(path);	/* saved whole at fclose(), or not at all */
	if (!f)
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path, strerror(errno));
	for (i = 0; i < nl->n; i++) {
		rtm_fmt_us(mx, sizeof(mx), nl->h[i]->max_ns);
		if (nl->cpu[i] < 0)	/* hwlatdetect does not name the CPU */
			snprintf(t, sizeof(t), "CPU unknown (longest %s us)", mx);
		else
			snprintf(t, sizeof(t), "CPU%lld (longest %s us)", nl->cpu[i], mx);
		rtm_report_hist_block(f, nl->h[i], t);
	}
	for (i = 0; i < nl->n; i++)
		rtm_report_mark_of(nl->h[i], 0, 0, &marks[i]);
	rtm_report_marks_block(f, marks, nl->n);
	if (fclose(f))
		return rtm_error_setn(err, -errno, "cannot write %s: %s", path,
				      rtm_write_strerror(-errno));
	return 0;
}

/* Draw the histogram of @nl from the data file @path in the formats asked for. */
static int draw_noise_hist(const struct rtm_result *r, const struct rtm_report_opts *o,
			   const char *plots, const char *path, const struct noise_lines *nl,
			   struct rtm_error *err)
{
	const json_t *noise = json_object_get(r->sections, "noise");
	const struct rtm_hist *lines[RTM_REPORT_NOISE_LINES];
	char t[64], sub[256], win[16], wid[16], colours[RTM_REPORT_NOISE_LINES * 8 + 1] = "";
	struct rtm_report_hist_vars hv;
	struct rtm_plot_var v[14];
	struct rtm_hist_axis ax;
	int i;

	for (i = 0; i < nl->n; i++) {
		lines[i] = nl->h[i];
		/* each CPU in its colour of the latency plots; an unnamed one in none of them */
		rtm_plot_list_add(colours, sizeof(colours), rtm_plot_cpu_colour(
			nl->cpu[i] < 0 ? RTM_PLOT_ALL_CPUS : (int)nl->cpu[i]));
	}
	rtm_report_hist_axis(lines, nl->n, o->log_x, &ax);
	rtm_report_hist_vars(&ax, nl->n, false, &hv, v);
	snprintf(t, sizeof(t), "%s, noise, started %s",
		 str(r->sysinfo, "hostname") ?: "?", r->created);
	cell_ns(wid, sizeof(wid), noise, "width_ns");
	cell_ns(win, sizeof(win), noise, "window_ns");
	snprintf(sub, sizeof(sub), "backend %s, busy %s of every %s, kernel %s",
		 str(noise, "backend") ?: "user", wid, win,
		 str(r->sysinfo, "kernel.release") ?: "?");
	v[8] = (struct rtm_plot_var){ "title_text", t, false };
	v[9] = (struct rtm_plot_var){ "subtitle_text", sub, false };
	v[10] = (struct rtm_plot_var){ "what", "gap length", false };
	v[11] = (struct rtm_plot_var){ "ylabel_text", "gaps", false };
	v[12] = (struct rtm_plot_var){ "datafile", path, false };
	v[13] = (struct rtm_plot_var){ "colours", colours, false };
	return rtm_plot_draw_kept("histogram", rtm_report_draw_formats(o->formats), o->width,
				  o->height, plots, "noise_hist", v, 14, err);
}

int rtm_report_noise_plot(const struct rtm_result *r, const struct rtm_report_opts *o,
			  const char *plots, bool *drawn, struct rtm_error *err)
{
	const json_t *noise = json_object_get(r->sections, "noise");
	struct noise_lines nl = { .n = 0 };
	char path[PATH_MAX + 32];
	int i, ret;

	*drawn = false;
	ret = pick_lines(noise, &nl, err);
	if (ret || !nl.n)
		goto out;
	snprintf(path, sizeof(path), "%s/data/noise_hist.dat", plots);
	ret = write_noise_data(path, &nl, err);
	if (ret)
		goto out;
	ret = draw_noise_hist(r, o, plots, path, &nl, err);
	*drawn = !ret;
out:
	for (i = 0; i < RTM_REPORT_NOISE_LINES; i++)
		rtm_hist_free(nl.h[i]);
	return ret;
}

static int write_page(const struct rtm_result *r, const struct rtm_report_opts *o,
		      const char *name, bool html, const char *img, struct rtm_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	rtm_report_noise_page(f, r, html, img, o->formats & (1u << RTM_PLOT_PDF),
			      RTM_REPORT_NOISE_GAPS);
	fclose(f);
	return rtm_report_page_save(o->out_dir, name, buf, len, err);
}

int rtm_report_noise_write(const struct rtm_result *r, const struct rtm_report_opts *o,
			   struct rtm_error *err)
{
	char plots[PATH_MAX], img[PATH_MAX + 64];
	bool drawn;
	int ret;

	ret = rtm_report_noise_check(json_object_get(r->sections, "noise"), err);
	if (!ret)
		ret = rtm_plot_check(err);
	if (ret)
		return ret;
	ret = rtm_report_plots_dir(o->out_dir, plots, err);
	if (ret)
		return ret;
	ret = rtm_report_noise_plot(r, o, plots, &drawn, err);
	if (ret)
		return ret;
	snprintf(img, sizeof(img), "%s/noise_hist.%s", plots,
		 rtm_report_draw_formats(o->formats) & (1u << RTM_PLOT_PNG) ? "png" : "svg");
	ret = write_page(r, o, "report.html", true, drawn ? img : NULL, err);
	if (!ret)
		ret = write_page(r, o, "report.md", false, drawn ? img : NULL, err);
	return ret;
}
