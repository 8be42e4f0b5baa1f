// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * import_noise.c - noise tools' text as a noise result (sections.noise):
 *
 *   rtla osnoise top (-q, or the refreshing screen: its last frame)
 *     duration:   0 00:00:10 | time is in us
 *     CPU Period       Runtime        Noise  % CPU Aval   Max Noise   Max Single
 *             HW          NMI          IRQ      Softirq       Thread
 *       0 #10         10005230      5818034    41.85007      708825        40251
 *           1733            0         1446            0          343
 *     (one line a CPU; the header and title lines carry colour escapes)
 *
 *   hwlatdetect (rt-tests): its parameters, "Max Latency: 505383us",
 *   "Samples recorded: 9", and one line a sample, also alone in its --report file:
 *     ts: 1796469547.965896220, inner:42, outer:500731
 *
 * and the per-CPU part of rtla osnoise hist, which import.c's histogram
 * columns bring. What the source does not print is null ("unknown"), never
 * reckoned from something else.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/grow.h"
#include "core/hist.h"
#include "result/import_priv.h"
#include "core/jsonutil.h"

#define MAX_CPUS 8192
#define MAX_US (IMP_MAX_VALUE_NS / 1000)
#define MAX_COUNT 1000000000000000ull	/* counts beyond are corrupt */

/* ---- shared */

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* The result every noise format gives: command import, tool, provenance. */
static struct rtm_result *noise_result(struct imp_set *s, json_t *sec, struct rtm_error *err)
{
	struct rtm_result *r = rtm_result_alloc("import");
	json_t *prov;

	if (!r || !sec) {
		rtm_result_free(r);
		json_decref(sec);
		rtm_error_setn(err, -ENOMEM, "out of memory");
		return NULL;
	}
	snprintf(r->tool, sizeof(r->tool), "%s", s->tool);
	snprintf(r->created, sizeof(r->created), "%s", s->created);
	r->duration_ns = s->duration_ns;
	json_object_set_new(r->sections, "noise", sec);
	prov = json_pack("{s:o, s:n, s:n, s:o, s:s, s:s, s:b, s:O}",
		"tool", rtm_json_text(s->tool),
		"version", "command_line",
		"source_file", rtm_json_text(s->name),
		"format", s->format,
		"unit", s->unit,
		"cpus_known", s->cpus_known,
		"notes", s->notes);
	json_object_set_new(r->sections, "provenance", prov);
	return r;
}

static json_t *ns_or_null(bool known, uint64_t us)
{
	return known ? json_integer((json_int_t)(us * 1000)) : json_null();
}

/* The section's run-wide keys, null where the source does not tell. */
static json_t *section(const char *probe, const char *backend, const char *reason)
{
	return json_pack("{s:s, s:s, s:s, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n}",
		"probe", probe, "backend", backend, "backend_reason", reason,
		"counter", "counter_hz", "window_ns", "width_ns", "threshold_ns",
		"report_above_ns", "start_mono_ns", "duration_ns");
}

/* ---- rtla osnoise top */

#define TOP_FIELDS 12	/* CPU #periods runtime noise %avail maxnoise maxsingle hw nmi irq sirq thr */

struct top_row {
	uint64_t cpu, periods, runtime, noise, max_noise, max_single, hw, nmi, irq, softirq, thread;
	double avail;
	char avail_text[24];
};

/* Cut terminal escapes out of @line in place: ESC [ ... letter, ESC c, ESC ( x. */
static void strip_escapes(char *line)
{
	char *w = line, *p = line;

	while (*p) {
		if (*p != '\033') {
			*w++ = *p++;
			continue;
		}
		p++;
		if (*p == '[') {
			p++;
			while (*p && !((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
				p++;
			if (*p)
				p++;
		} else if (*p == '(' || *p == ')') {
			p++;
			if (*p)
				p++;
		} else if (*p) {
			p++;
		}
	}
	*w = '\0';
}

static int top_header(const char *line)
{
	static const char *const want[] = { "CPU", "Period", "Runtime", "Noise", "%", "CPU",
		"Aval", "Max", "Noise", "Max", "Single", "HW", "NMI", "IRQ", "Softirq", "Thread" };
	const char *p = line;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		size_t n = strlen(want[i]);

		p = imp_skip_blanks(p);
		if (strncmp(p, want[i], n) || (p[n] && p[n] != ' ' && p[n] != '\t'))
			return -1;
		p += n;
	}
	return imp_blank(p) ? 0 : -1;
}

static int top_row(const char *line, struct top_row *t)
{
	const char *p = line, *q;
	uint64_t *after[] = { &t->max_noise, &t->max_single, &t->hw, &t->nmi, &t->irq,
			      &t->softirq, &t->thread };
	size_t i, n;

	if (imp_parse_u64(&p, &t->cpu) || t->cpu >= MAX_CPUS)
		return -1;
	p = imp_skip_blanks(p);
	if (*p++ != '#' || imp_parse_u64(&p, &t->periods) || imp_parse_u64(&p, &t->runtime) ||
	    imp_parse_u64(&p, &t->noise))
		return -1;
	q = imp_skip_blanks(p);
	if (imp_parse_double(&p, &t->avail))
		return -1;
	n = (size_t)(p - q);
	if (n >= sizeof(t->avail_text))
		return -1;
	memcpy(t->avail_text, q, n);
	t->avail_text[n] = '\0';
	t->avail = strtod(t->avail_text, NULL);	/* the double nearest the printed text */
	for (i = 0; i < sizeof(after) / sizeof(after[0]); i++)
		if (imp_parse_u64(&p, after[i]) || *after[i] > MAX_COUNT)
			return -1;
	return imp_blank(p) && t->periods <= MAX_COUNT ? 0 : -1;
}

static json_t *top_cpu(const struct top_row *t, uint64_t unit)
{
	json_t *o = json_pack("{s:i, s:I, s:n, s:I, s:n, s:I, s:I, s:I, s:n, s:n, s:n, s:n}",
		"cpu", (int)t->cpu,
		"sampled_ns", (json_int_t)(t->runtime * unit),
		"loops",
		"windows", (json_int_t)t->periods,
		"gaps",
		"noise_ns", (json_int_t)(t->noise * unit),
		"max_gap_ns", (json_int_t)(t->max_single * unit),
		"max_period_noise_ns", (json_int_t)(t->max_noise * unit),
		"above_report", "sample_period_ns", "hist", "gaps_dropped");

	if (!o)
		return NULL;
	json_object_set_new(o, "cpu_available_pct", json_real(t->avail));
	json_object_set_new(o, "interference", json_pack("{s:I, s:I, s:I, s:I, s:I}",
		"hw", (json_int_t)t->hw, "nmi", (json_int_t)t->nmi, "irq", (json_int_t)t->irq,
		"softirq", (json_int_t)t->softirq, "thread", (json_int_t)t->thread));
	return o;
}

/* The row against itself: rtla's own sums must hold, or the file is corrupt. */
static int top_check(struct imp_set *s, const struct top_row *t, int lineno,
		     struct rtm_error *err)
{
	double want, tol;

	if (t->runtime > MAX_US || t->noise > t->runtime || t->max_single > t->max_noise ||
	    t->max_noise > t->noise)
		return rtm_error_set(err, "%s:%d: inconsistent: CPU %" PRIu64 "'s noise, max "
				     "noise and max single noise do not fit its runtime (corrupt "
				     "file?)", s->name, lineno, t->cpu);
	if (!t->runtime)
		return 0;
	/*
	 * rtla prints 100 - 100 * noise / runtime, five decimals cut, of its
	 * unrounded sums: the printed sums, cut too, put it within 200 / runtime
	 */
	want = 100.0 - 100.0 * (double)t->noise / (double)t->runtime;
	tol = 0.00001 + 200.0 / (double)t->runtime;
	if (t->avail - want > tol || want - t->avail > tol)
		return rtm_error_set(err, "%s:%d: inconsistent: CPU %" PRIu64 "'s %% CPU available "
				     "%s is not 100 - 100 x noise / runtime (%.5f; corrupt "
				     "file?)", s->name, lineno, t->cpu, t->avail_text, want);
	return 0;
}

static int parse_duration(const char *p, uint64_t *ns)
{
	unsigned int d, h, m, sec;

	if (sscanf(p, "%u %u:%u:%u", &d, &h, &m, &sec) != 4 || d > 3650000 || h > 23 ||
	    m > 59 || sec > 59)
		return -1;
	*ns = (((uint64_t)d * 24 + h) * 3600 + (uint64_t)m * 60 + sec) * 1000000000ull;
	return 0;
}

/* What the screens of rtla osnoise top hold, read line by line. */
struct top_read {
	struct top_row *rows;		/* the screen being read */
	size_t rows_cap;
	struct top_row *frame_rows;	/* the last screen before it */
	int nrows, nframe;
	int frames;			/* how many screens began */
	int most;			/* the most CPU lines an earlier screen had */
	bool in_table;
	uint64_t unit;			/* ns per unit of the values */
};

/* "duration: D HH:MM:SS | time is in us": a new screen begins. 0, or -1: not rtla's. */
static int top_duration(struct imp_set *s, struct top_read *t, const char *p)
{
	char *bar = strchr(p, '|');

	/* a new frame: the last one complete is the run's */
	if (parse_duration(p + 9, &s->duration_ns) || !bar)
		return -1;
	if (strstr(bar, "time is in us"))
		t->unit = 1000;
	else if (strstr(bar, "time is in ns"))
		t->unit = 1;
	else
		return -1;
	s->unit = t->unit == 1 ? "ns" : "us";
	t->frames++;
	if (t->nframe > t->most)
		t->most = t->nframe;
	free(t->frame_rows);
	t->frame_rows = t->rows;
	t->nframe = t->nrows;
	t->rows = NULL;
	t->rows_cap = 0;
	t->nrows = 0;
	t->in_table = false;
	s->has_duration = true;
	return 0;
}

/* A CPU line of the screen. 0, 1: not rtla's, or -errno with the message in @err. */
static int top_add_row(struct imp_set *s, struct top_read *t, const char *p, int lineno,
		       struct rtm_error *err)
{
	struct top_row row, *grown;
	int j;

	if (!t->in_table || top_row(p, &row))
		return 1;
	if (top_check(s, &row, lineno, err))
		return -EINVAL;
	for (j = 0; j < t->nrows; j++)
		if (t->rows[j].cpu == row.cpu)
			return rtm_error_set(err, "%s:%d: CPU %" PRIu64 " appears twice in one "
					     "screen (corrupt file?)", s->name, lineno, row.cpu);
	grown = t->nrows < MAX_CPUS ? rtm_grow(t->rows, &t->rows_cap, (size_t)t->nrows,
					       sizeof(*t->rows), 16) : NULL;
	if (!grown)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	t->rows = grown;
	t->rows[t->nrows++] = row;
	return 0;
}

/* All screens of @text into @t; 0 or -errno with the message in @err. */
static int top_read_screens(struct imp_set *s, struct top_read *t, char *text, size_t len,
			    struct rtm_error *err)
{
	struct imp_lines it;
	int lineno = 0, ret;
	char *line;

	imp_lines_init(&it, text, len);
	while ((line = imp_next_line(&it)) != NULL) {
		const char *p;

		lineno = it.lineno;
		strip_escapes(line);
		p = imp_skip_blanks(line);
		if (has_prefix(p, "duration:")) {
			ret = top_duration(s, t, p);
		} else if (has_prefix(p, "CPU Period")) {
			ret = !t->frames || top_header(p);
			if (!ret)
				t->in_table = true;
		} else if (*p >= '0' && *p <= '9') {
			ret = top_add_row(s, t, p, lineno, err);
			if (ret < 0)
				return ret;
		} else {
			ret = !imp_blank(p) && !(has_prefix(p, "Operating System Noise") &&
						 imp_blank(p + 22));
		}
		if (ret)
			return rtm_error_set(err, "%s:%d: not rtla osnoise top output (a line "
					     "neither title, duration, header nor CPU row; "
					     "truncated or corrupt?)", s->name, lineno);
	}
	if (!t->frames || !t->nrows)
		return rtm_error_set(err, "%s: no CPU line after rtla osnoise top's header "
				     "(truncated?)", s->name);
	if (t->nframe > t->most)
		t->most = t->nframe;
	if (t->nrows < t->most)
		return rtm_error_set(err, "%s: truncated: the last screen has %d CPU lines, an "
				     "earlier one %d", s->name, t->nrows, t->most);
	return 0;
}

struct rtm_result *imp_osnoise_top(struct imp_set *s, char *text, size_t len,
				   struct rtm_error *err)
{
	struct top_read t = { .unit = 1000 };
	json_t *sec = NULL, *cpus;
	int i;

	s->format = "rtla-osnoise-top";
	snprintf(s->tool, sizeof(s->tool), "rtla osnoise");
	if (top_read_screens(s, &t, text, len, err)) {
		free(t.rows);
		free(t.frame_rows);
		return NULL;
	}
	s->cpus_known = true;
	sec = section("osnoise", "osnoise-imported", "imported from rtla osnoise top's output");
	cpus = json_array();
	for (i = 0; sec && cpus && i < t.nrows; i++)
		json_array_append_new(cpus, top_cpu(&t.rows[i], t.unit));
	if (sec && cpus)
		json_object_set_new(sec, "duration_ns", json_integer((json_int_t)s->duration_ns));
	json_object_set_new(sec, "cpus", cpus);
	if (t.frames > 1)
		imp_note(s, "the refreshing screen: %d screens, the last one imported (duration "
			 "%" PRIu64 " s)", t.frames, s->duration_ns / 1000000000u);
	imp_note(s, "rtla osnoise top gives per-CPU sums: runtime, noise, max single noise "
		 "(max_gap_ns), max noise in one period (max_period_noise_ns), %% CPU available "
		 "as printed (cpu_available_pct) and the interference counts; the number of "
		 "noises, their lengths (no gap list, no histogram), the period, runtime and "
		 "threshold settings and the rtla version and command line are not in it: "
		 "unknown");
	imp_note(s, "duration: to the second, as rtla prints it");
	free(t.rows);
	free(t.frame_rows);
	return noise_result(s, sec, err);
}

/* ---- hwlatdetect */

struct hw_sample {
	uint64_t ts_ns, inner, outer;
	int cpu;
};

/* "ts: 1796469547.965896220, inner:42, outer:500731[, cpu:1]" */
static int hw_sample(const char *p, struct hw_sample *x)
{
	uint64_t sec, frac = 0, cpu;
	const char *q;
	int digits = 0;

	p += 3;
	if (imp_parse_u64(&p, &sec) || sec > 4000000000ull)
		return -1;
	if (*p == '.') {
		for (q = ++p; *q >= '0' && *q <= '9' && digits < 9; q++, digits++)
			frac = frac * 10 + (uint64_t)(*q - '0');
		if (!digits || (*q >= '0' && *q <= '9'))
			return -1;
		for (; digits < 9; digits++)
			frac *= 10;
		p = q;
	}
	x->ts_ns = sec * 1000000000ull + frac;
	if (strncmp(p, ", inner:", 8))
		return -1;
	p += 8;
	if (imp_parse_u64(&p, &x->inner) || strncmp(p, ", outer:", 8))
		return -1;
	p += 8;
	if (imp_parse_u64(&p, &x->outer) || x->inner > MAX_US || x->outer > MAX_US)
		return -1;
	x->cpu = -1;
	if (!strncmp(p, ", cpu:", 6)) {
		p += 6;
		if (imp_parse_u64(&p, &cpu) || cpu >= MAX_CPUS)
			return -1;
		x->cpu = (int)cpu;
	}
	return imp_blank(p) ? 0 : -1;
}

/* "Label: 123us" -> 123; -1 when the value is not N followed by @suffix */
static int labelled_u64(const char *p, const char *suffix, uint64_t *v)
{
	if (imp_parse_u64(&p, v))
		return -1;
	if (strncmp(p, suffix, strlen(suffix)))
		return -1;
	return imp_blank(p + strlen(suffix)) ? 0 : -1;
}

struct hw_summary {
	bool has_params, has_recorded, has_max, has_smis, below;
	bool has_thr, has_win, has_wid, has_exceeding;
	uint64_t duration_s, threshold, window, width, max, recorded, exceeding, smis;
	char cpulist[64];
};

/* A line of hwlatdetect's own output, or 1 when it is none of them. */
static int hw_line(struct hw_summary *h, const char *p)
{
	static const char *const ignored[] = { "detector:", "parameters:", "Non-sampling period:",
		"Output File:", "Starting test", "test finished", "report saved to ",
		"interrupted" };
	size_t i;

	if (has_prefix(p, "hwlatdetect:")) {
		p = imp_skip_blanks(p + 12);
		if (!has_prefix(p, "test duration"))
			return -1;
		h->has_params = true;
		return labelled_u64(p + 13, " seconds", &h->duration_s);
	}
	if (has_prefix(p, "CPU list:")) {
		p = imp_skip_blanks(p + 9);
		if (strlen(p) >= sizeof(h->cpulist))
			return -1;
		snprintf(h->cpulist, sizeof(h->cpulist), "%s", p);
		return 0;
	}
	if (has_prefix(p, "Latency threshold:"))
		return (h->has_thr = true), labelled_u64(p + 18, "us", &h->threshold);
	if (has_prefix(p, "Sample window:"))
		return (h->has_win = true), labelled_u64(p + 14, "us", &h->window);
	if (has_prefix(p, "Sample width:"))
		return (h->has_wid = true), labelled_u64(p + 13, "us", &h->width);
	if (has_prefix(p, "Max Latency:")) {
		h->has_max = true;
		p = imp_skip_blanks(p + 12);
		if (!strcmp(p, "Below threshold")) {
			h->below = true;
			h->max = 0;
			return 0;
		}
		return labelled_u64(p, "us", &h->max);
	}
	if (has_prefix(p, "Samples recorded:"))
		return (h->has_recorded = true), labelled_u64(p + 17, "", &h->recorded);
	if (has_prefix(p, "Samples exceeding threshold:"))
		return (h->has_exceeding = true), labelled_u64(p + 28, "", &h->exceeding);
	if (has_prefix(p, "SMIs during run:"))
		return (h->has_smis = true), labelled_u64(p + 16, "", &h->smis);
	if (strstr(p, " SMIs occured on cpu "))
		return 0;
	for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		if (has_prefix(p, ignored[i]))
			return 0;
	return 1;
}

static json_t *hw_cpu(int cpu, const struct hw_sample *x, size_t n, uint64_t t0)
{
	uint64_t inner = 0, outer = 0, max = 0;
	struct rtm_hist *h = rtm_hist_alloc();
	json_t *list = json_array(), *o;
	size_t i, k = 0;

	if (!h || !list) {
		rtm_hist_free(h);
		json_decref(list);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		uint64_t g;

		if (x[i].cpu != cpu)
			continue;
		/* one gap a sample, the larger of inner and outer, as --backend hwlat keeps */
		g = (x[i].inner > x[i].outer ? x[i].inner : x[i].outer) * 1000;
		inner = x[i].inner > inner ? x[i].inner : inner;
		outer = x[i].outer > outer ? x[i].outer : outer;
		max = g > max ? g : max;
		rtm_hist_record(h, g);
		json_array_append_new(list, json_pack("[I, I]", (json_int_t)(x[i].ts_ns - t0),
						      (json_int_t)g));
		k++;
	}
	o = json_pack("{s:i, s:n, s:n, s:n, s:I, s:n, s:I, s:n, s:o, s:I, s:o, s:n}",
		"cpu", cpu, "sampled_ns", "loops", "windows",
		"gaps", (json_int_t)k,
		"noise_ns",
		"max_gap_ns", (json_int_t)max,
		"above_report",
		"hist", rtm_hist_to_json(h),
		"gaps_dropped", (json_int_t)0,
		"gap_list", list,
		"sample_period_ns");
	rtm_hist_free(h);
	if (!o)
		return NULL;
	json_object_set_new(o, "samples", json_integer((json_int_t)k));
	json_object_set_new(o, "inner_max_ns", json_integer((json_int_t)(inner * 1000)));
	json_object_set_new(o, "outer_max_ns", json_integer((json_int_t)(outer * 1000)));
	json_object_set_new(o, "nmi_count", json_null());
	json_object_set_new(o, "nmi_total_ns", json_null());
	json_object_set_new(o, "gaps_above_threshold", json_null());
	return o;
}

static int cmp_cpu(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int hw_check(struct imp_set *s, const struct hw_summary *h, const struct hw_sample *x,
		    size_t n, struct rtm_error *err)
{
	uint64_t max = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t g = x[i].inner > x[i].outer ? x[i].inner : x[i].outer;

		max = g > max ? g : max;
	}
	if (h->has_params && !h->has_recorded)
		return rtm_error_set(err, "%s: hwlatdetect's summary ('Samples recorded:') is "
				     "missing: truncated (the run did not finish?)", s->name);
	if (h->has_recorded && h->recorded != n)
		return rtm_error_set(err, "%s: hwlatdetect says %" PRIu64 " samples recorded, the "
				     "file has %zu sample lines: truncated or corrupt", s->name,
				     h->recorded, n);
	if (h->has_exceeding && h->exceeding != n)	/* hwlatdetect: len(samples) */
		return rtm_error_set(err, "%s: inconsistent: hwlatdetect says %" PRIu64 " samples "
				     "exceeding the threshold, the file has %zu sample lines "
				     "(corrupt file?)", s->name, h->exceeding, n);
	if (h->has_max && h->max != max)
		return rtm_error_set(err, "%s: inconsistent: hwlatdetect's Max Latency %" PRIu64
				     " us is not the largest sample (%" PRIu64 " us; corrupt "
				     "file?)", s->name, h->max, max);
	if (!h->has_params && !n)
		return rtm_error_set(err, "%s: no hwlatdetect sample line ('ts: ..., inner:N, "
				     "outer:N'): nothing to import", s->name);
	return 0;
}

/* What hwlatdetect's output holds: its summary, its samples and their CPUs. */
struct hw_run {
	struct hw_summary h;
	struct hw_sample *x;
	size_t n, xcap;
	bool cpu_named;			/* the samples name their CPU */
	int cpus[64], ncpu;		/* the CPUs the samples name, -1: unknown */
	uint64_t t0;			/* the first sample's time */
};

/* The sample lines and hwlatdetect's own lines; 0 or -errno with the message in @err. */
static int hw_read(struct imp_set *s, struct hw_run *w, char *text, size_t len,
		   struct rtm_error *err)
{
	struct imp_lines it;
	char *line;

	imp_lines_init(&it, text, len);
	while ((line = imp_next_line(&it)) != NULL) {
		const char *p = imp_skip_blanks(line);
		int ret;

		if (has_prefix(p, "ts:")) {
			struct hw_sample *grown;

			if (w->n >= IMP_MAX_ROWS)
				goto bad_line;
			grown = rtm_grow(w->x, &w->xcap, w->n, sizeof(*w->x), 64);
			if (!grown)
				return rtm_error_setn(err, -ENOMEM, "out of memory");
			w->x = grown;
			if (hw_sample(p, &w->x[w->n]))
				goto bad_line;
			/* all name their CPU or none does: a mix is not one run's */
			if (w->n && w->cpu_named != (w->x[w->n].cpu >= 0))
				goto bad_line;
			w->cpu_named = w->x[w->n].cpu >= 0;
			w->n++;
			continue;
		}
		ret = imp_blank(p) ? 0 : hw_line(&w->h, p);
		if (ret)	/* not hwlatdetect's, or a value it does not write */
			goto bad_line;
	}
	return 0;
bad_line:
	return rtm_error_set(err, "%s:%d: not hwlatdetect output (want 'ts: S.N, inner:N, "
			     "outer:N' sample lines and hwlatdetect's own summary; truncated or "
			     "corrupt?)", s->name, it.lineno);
}

/* The CPUs the samples name, in order, and the first sample's time. */
static int hw_cpus(struct imp_set *s, struct hw_run *w, struct rtm_error *err)
{
	size_t k;
	int i;

	for (k = 0; k < w->n; k++) {
		if (!k || w->x[k].ts_ns < w->t0)
			w->t0 = w->x[k].ts_ns;
		for (i = 0; i < w->ncpu && w->cpus[i] != w->x[k].cpu; i++)
			;
		if (i == w->ncpu) {
			if (w->ncpu == (int)(sizeof(w->cpus) / sizeof(w->cpus[0])))
				return rtm_error_set(err, "%s: samples name more than %d CPUs: not "
						     "supported", s->name, w->ncpu);
			w->cpus[w->ncpu++] = w->x[k].cpu;
		}
	}
	if (!w->ncpu)
		w->cpus[w->ncpu++] = -1;
	qsort(w->cpus, (size_t)w->ncpu, sizeof(int), cmp_cpu);
	return 0;
}

/* sections.noise: one entry a CPU, the run-wide settings hwlatdetect printed */
static json_t *hw_section(const struct imp_set *s, const struct hw_run *w)
{
	const struct hw_summary *h = &w->h;
	json_t *sec, *arr;
	int i;

	sec = section("hwlat", "hwlat-imported", "imported from hwlatdetect's output "
		      "(rt-tests; the kernel's hwlat tracer)");
	arr = json_array();
	for (i = 0; sec && arr && i < w->ncpu; i++)
		json_array_append_new(arr, hw_cpu(w->cpus[i], w->x, w->n, w->t0));
	if (!sec) {
		json_decref(arr);
		return NULL;
	}
	json_object_set_new(sec, "cpus", arr);
	json_object_set_new(sec, "threshold_ns", ns_or_null(h->has_thr, h->threshold));
	json_object_set_new(sec, "window_ns", ns_or_null(h->has_win, h->window));
	json_object_set_new(sec, "width_ns", ns_or_null(h->has_wid, h->width));
	json_object_set_new(sec, "duration_ns", h->has_params ?
			    json_integer((json_int_t)s->duration_ns) : json_null());
	json_object_set_new(sec, "start_realtime_ns", w->n ? json_integer((json_int_t)w->t0) :
			    json_null());
	json_object_set_new(sec, "samples_lost", json_null());
	json_object_set_new(sec, "smi_count", h->has_smis ?
			    json_integer((json_int_t)h->smis) : json_null());
	json_object_set_new(sec, "cpu_list", h->has_params && strcmp(h->cpulist, "None") &&
			    h->cpulist[0] ? rtm_json_text(h->cpulist) : json_null());
	return sec;
}

/* What hwlatdetect's output does not tell, as notes. */
static void hw_notes(struct imp_set *s, const struct hw_run *w)
{
	if (!w->h.has_params)
		imp_note(s, "sample lines only (hwlatdetect's --report file): threshold, window, "
			 "width and duration are unknown");
	if (!w->cpu_named)
		imp_note(s, "hwlatdetect's sample lines do not name the CPU: all samples are in "
			 "one entry, cpu -1 (unknown)");
	imp_note(s, "one gap a sample, the larger of inner and outer, in us x 1000 as "
		 "--backend hwlat keeps them; NMI counts and times, hwlat's count of gaps "
		 "in a sample and its sequence numbers are not in hwlatdetect's output: unknown");
	if (w->h.has_params && !w->h.has_smis)
		imp_note(s, "SMIs: not counted (hwlatdetect counts them only with rdmsr)");
}

struct rtm_result *imp_hwlatdetect(struct imp_set *s, char *text, size_t len,
				   struct rtm_error *err)
{
	struct hw_run w;
	json_t *sec;

	memset(&w, 0, sizeof(w));
	s->format = "hwlatdetect";
	snprintf(s->tool, sizeof(s->tool), "hwlatdetect");
	if (hw_read(s, &w, text, len, err) || hw_check(s, &w.h, w.x, w.n, err) ||
	    hw_cpus(s, &w, err)) {
		free(w.x);
		return NULL;
	}
	s->cpus_known = w.cpu_named;
	s->duration_ns = w.h.duration_s * 1000000000ull;
	if (w.n) {
		time_t sec0 = (time_t)(w.t0 / 1000000000u);
		struct tm tm;

		if (gmtime_r(&sec0, &tm))
			strftime(s->created, sizeof(s->created), "%Y-%m-%dT%H:%M:%SZ", &tm);
		imp_note(s, "created: the first sample's time (hwlatdetect does not print when "
			 "the run started); gap_list times are seconds after that sample");
	}
	sec = hw_section(s, &w);
	hw_notes(s, &w);
	free(w.x);
	return noise_result(s, sec, err);
}

/* ---- rtla osnoise hist's columns as sections.noise */

json_t *imp_osnoise_hist_section(const struct imp_set *s)
{
	json_t *sec = section("osnoise", "osnoise-imported",
			      "imported from rtla osnoise hist's output"), *cpus = json_array();
	int i;

	if (!sec || !cpus) {
		json_decref(sec);
		json_decref(cpus);
		return NULL;
	}
	for (i = 0; i < s->ncols; i++) {
		const struct imp_col *c = &s->cols[i];
		struct rtm_hist *h = rtm_hist_alloc();
		json_t *o;

		if (!h)
			break;
		imp_col_hist(s, c, h);
		o = json_pack("{s:i, s:n, s:n, s:n, s:I, s:n, s:o, s:n, s:o, s:n, s:n}",
			"cpu", c->cpu, "sampled_ns", "loops", "windows",
			"gaps", (json_int_t)(c->in_rows + c->overflows),
			"noise_ns",
			/* rtla's max stands for [v, v + unit): its midpoint, as the rows */
			"max_gap_ns", c->has_max ? json_integer((json_int_t)(c->max_ns +
							s->val_width_ns / 2)) : json_null(),
			"above_report",
			"hist", rtm_hist_to_json(h),
			"gaps_dropped", "sample_period_ns");
		rtm_hist_free(h);
		json_array_append_new(cpus, o);
	}
	json_object_set_new(sec, "cpus", cpus);
	json_object_set_new(sec, "duration_ns", s->has_duration ?
			    json_integer((json_int_t)s->duration_ns) : json_null());
	return sec;
}
