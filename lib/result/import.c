// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * import.c - format detection, the parser for a format, and the step from
 * parsed histogram columns to a result with its provenance. What the parsers
 * and this file share is in import_set.c, below both.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/grow.h"
#include "core/fileio.h"
#include "core/units.h"
#include "result/import_priv.h"
#include "core/jsonutil.h"

/* ------------------------------------------------------------ detection */

static const char *find_line(const char *text, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (l >= n && memcmp(p, prefix, n) == 0)
			return p;
		p = nl ? nl + 1 : end;
	}
	return NULL;
}

/* hwlatdetect's stdout starts "hwlatdetect:", its --report file "ts: " */
static bool hwlatdetect_text(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	/* with --quiet and --report its stdout starts "report saved to FILE (N samples)" */
	return ((size_t)(end - p) >= 12 && !memcmp(p, "hwlatdetect:", 12)) ||
	       ((size_t)(end - p) >= 4 && !memcmp(p, "ts: ", 4)) ||
	       ((size_t)(end - p) >= 16 && !memcmp(p, "report saved to ", 16));
}

enum rtm_import_format rtm_import_detect(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	if (!len || memchr(text, '\0', len))
		return RTM_IMPORT_UNKNOWN;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (p < end && *p == '{')
		return memmem(p, (size_t)(end - p), "\"thread\"", 8) ? RTM_IMPORT_RTTESTS_JSON :
								      RTM_IMPORT_UNKNOWN;
	if (hwlatdetect_text(text, len))
		return RTM_IMPORT_HWLATDETECT;
	if (memmem(text, len, "Operating System Noise", 22) &&
	    memmem(text, len, "CPU Period", 10) && memmem(text, len, "duration:", 9))
		return RTM_IMPORT_RTLA_OSNOISE_TOP;
	if (find_line(text, len, "# RTLA timerlat histogram") ||
	    find_line(text, len, "# RTLA osnoise histogram"))
		return RTM_IMPORT_RTLA_HIST;
	p = find_line(text, len, "# Histogram");
	if (p && (p + 11 == end || p[11] == '\n' || p[11] == '\r'))
		return RTM_IMPORT_CYCLICTEST_HIST;
	return RTM_IMPORT_UNKNOWN;
}

static const char *const format_names[] = {
	[RTM_IMPORT_CYCLICTEST_HIST] = "cyclictest-hist",
	[RTM_IMPORT_RTTESTS_JSON] = "rt-tests-json",
	[RTM_IMPORT_RTLA_HIST] = "rtla-hist",
	[RTM_IMPORT_RTLA_OSNOISE_TOP] = "rtla-osnoise-top",
	[RTM_IMPORT_HWLATDETECT] = "hwlatdetect",
};

const char *rtm_import_format_name(enum rtm_import_format f)
{
	if ((size_t)f >= sizeof(format_names) / sizeof(format_names[0]) || !format_names[f])
		return "unknown";
	return format_names[f];
}

enum rtm_import_format rtm_import_format_parse(const char *name)
{
	size_t i;

	for (i = 1; name && i < sizeof(format_names) / sizeof(format_names[0]); i++)
		if (format_names[i] && !strcmp(name, format_names[i]))
			return (enum rtm_import_format)i;
	return RTM_IMPORT_UNKNOWN;
}

/* ------------------------------------------------------------ building */

static void fmt_value(char *buf, size_t len, const struct imp_set *s, uint64_t ns)
{
	if (!strcmp(s->unit, "ns"))
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	else
		snprintf(buf, len, "%llu us", (unsigned long long)(ns / 1000));
}

static int check_col(const struct imp_set *s, const struct imp_col *c, struct rtm_error *err)
{
	uint64_t top = c->nrows ? c->rows[c->nrows - 1].lo_ns + s->row_width_ns : 0;

	/*
	 * Every value must fit the ns counts the result keeps: a text source's
	 * integer times its unit would wrap, a double beyond 2^64 has no uint64_t.
	 * 2^64 is exact in a double.
	 */
	double unit = (double)s->val_width_ns, lim = 18446744073709551616.0;

	if ((c->has_min && !(c->src_min * unit < lim)) ||
	    (c->has_max && !(c->src_max * unit < lim)) ||
	    (c->has_avg && !(c->avg_ns >= 0 && c->avg_ns < lim)))
		return rtm_error_set(err, "%s: CPU/thread %d: its min, avg or max is beyond 2^64 ns "
				     "(corrupt file?)", s->name, c->cpu);
	if (c->overflows && c->has_max && c->in_rows && c->max_ns < top)
		return rtm_error_set(err, "%s: inconsistent: CPU/thread %d has %llu samples beyond "
				     "its last row but its maximum lies inside the rows (corrupt "
				     "file?)", s->name, c->cpu, (unsigned long long)c->overflows);
	if (c->has_count && c->count != c->in_rows + c->overflows)
		return rtm_error_set(err, "%s: inconsistent: CPU/thread %d counts %llu samples but "
				     "its rows and overflows add up to %llu (truncated or corrupt)",
				     s->name, c->cpu, (unsigned long long)c->count,
				     (unsigned long long)(c->in_rows + c->overflows));
	return 0;
}

static void overflow_note(struct imp_set *s, const struct imp_col *c, uint64_t placed)
{
	uint64_t total = c->in_rows + c->overflows, kept = c->in_rows + placed;
	char where[64] = "", maxs[48] = "", lab[32];
	double known = total ? floor(10000.0 * (double)c->in_rows / (double)total) / 100 : 0;

	if (s->overflow_above_ns) {
		char v[32];

		fmt_value(v, sizeof(v), s, s->overflow_above_ns);
		snprintf(where, sizeof(where), " (%s and more)", v);
	}
	if (placed)
		fmt_value(maxs, sizeof(maxs), s, c->max_ns);
	if (s->cpus_known || c->kind)
		snprintf(lab, sizeof(lab), "CPU %d%s%s", c->cpu, c->kind ? " " : "",
			 c->kind ? c->kind : "");
	else
		snprintf(lab, sizeof(lab), "thread %d", c->cpu);
	if (kept == total) {
		imp_note(s, "%s: %llu sample%s beyond the histogram's last row%s: the maximum "
			 "(%s), recorded as a known sample; nothing is missing", lab,
			 (unsigned long long)c->overflows, c->overflows == 1 ? "" : "s", where,
			 maxs);
		return;
	}
	imp_note(s, "%s: %llu of %llu samples lay beyond the histogram's last row%s; their "
		 "values are unknown and they are not in the histogram%s%s%s: the run's "
		 "percentiles are known up to p%.2f only, those above are shown as unknown "
		 "(the histogram's own, of the %llu samples kept, are lower bounds)",
		 lab, (unsigned long long)c->overflows, (unsigned long long)total, where,
		 placed ? ", except the maximum (" : "", maxs, placed ? ", a known sample)" : "",
		 known, (unsigned long long)kept);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Each column passes check_col(), no CPU twice, and there is at least one. */
static int check_cols(const struct imp_set *s, struct rtm_error *err)
{
	int i, j;

	for (i = 0; i < s->ncols; i++) {
		if (check_col(s, &s->cols[i], err))
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (s->cols[j].cpu == s->cols[i].cpu)
				return rtm_error_set(err, "%s: CPU %d appears twice (corrupt "
						     "file?)", s->name, s->cols[i].cpu);
	}
	for (i = 0; i < s->nextra; i++)
		if (check_col(s, &s->extra[i], err))
			return -EINVAL;
	if (!s->ncols)
		return rtm_error_set(err, "%s: no CPU or thread has samples: nothing to import",
				     s->name);
	return 0;
}

/* options.cpus from the columns, when the source's CPUs are known and it names none */
static void set_cpus_option(const struct imp_set *s, struct rtm_result *r)
{
	struct rtm_cpulist cl = { 0, malloc((size_t)s->ncols * sizeof(int)) };
	char buf[1024];
	int i;

	for (i = 0; cl.cpus && i < s->ncols; i++)
		cl.cpus[cl.n++] = s->cols[i].cpu;
	if (cl.cpus) {
		qsort(cl.cpus, (size_t)cl.n, sizeof(int), cmp_int);
		if (!rtm_cpulist_format(&cl, buf, sizeof(buf)))
			json_object_set_new(r->options, "cpus", json_string(buf));
	}
	free(cl.cpus);
}

/* The tool, its start, its command line and the options taken from it. */
static void set_origin(struct imp_set *s, const struct rtm_import_opts *o, struct rtm_result *r)
{
	snprintf(r->tool, sizeof(r->tool), "%s%s%s", s->tool, s->version[0] ? " " : "",
		 s->version);
	snprintf(r->created, sizeof(r->created), "%s", s->created);
	if (!s->command_line && o->command_line) {
		s->command_line = strdup(o->command_line);
		imp_note(s, "command line as --command-line gives it (the file does not name "
			 "it)");
	} else if (o->command_line) {
		imp_note(s, "--command-line ignored: the file names its own command line");
	}
	imp_cmd_options(s, r->options);
	if (s->cpus_known && !json_object_get(r->options, "cpus"))
		set_cpus_option(s, r);
}

/* The per-CPU histograms, each described in @pcpus for the provenance. */
static int add_cpu_cols(struct imp_set *s, struct rtm_result *r, json_t *pcpus,
			struct rtm_error *err)
{
	int i;

	for (i = 0; i < s->ncols; i++) {
		const struct imp_col *col = &s->cols[i];
		struct rtm_result_cpu *c = NULL;
		uint64_t placed;

		if (json_object_get(r->sections, "noise")) {	/* the section has the histograms */
			struct rtm_hist *h = rtm_hist_alloc();

			placed = h ? imp_col_hist(s, col, h) : 0;
			rtm_hist_free(h);
		} else {
			c = rtm_result_add_cpu(r, col->cpu, false, 0);
			if (!c)
				return rtm_error_setn(err, -ENOMEM, "out of memory");
			placed = imp_col_hist(s, col, c->raw);
		}
		json_array_append_new(pcpus, imp_col_json(s, col, placed));
		if (col->overflows)
			overflow_note(s, col, placed);
	}
	return 0;
}

/* rtla timerlat's other contexts (irq, user) into sections.timerlat. */
static int add_timerlat_cols(struct imp_set *s, struct rtm_result *r, struct rtm_error *err)
{
	json_t *irq = NULL, *user = NULL;
	int i;

	for (i = 0; i < s->nextra; i++) {
		const struct imp_col *col = &s->extra[i];
		struct rtm_hist *h = rtm_hist_alloc();
		json_t *e, **arr = !strcmp(col->kind, "irq") ? &irq : &user;
		uint64_t placed;

		if (!h) {
			json_decref(irq);
			json_decref(user);
			return rtm_error_setn(err, -ENOMEM, "out of memory");
		}
		placed = imp_col_hist(s, col, h);
		e = imp_col_json(s, col, placed);
		json_object_set_new(e, "hist", rtm_hist_to_json(h));
		rtm_hist_free(h);
		if (!*arr)
			*arr = json_array();
		json_array_append_new(*arr, e);
		if (col->overflows)
			overflow_note(s, col, placed);
	}
	if (irq || user) {
		json_t *tl = json_pack("{s:s, s:I}", "unit", s->unit, "row_width_ns",
				       (json_int_t)s->row_width_ns);

		if (irq)
			json_object_set_new(tl, "irq", irq);
		if (user)
			json_object_set_new(tl, "user", user);
		json_object_set_new(r->sections, "timerlat", tl);
	}
	return 0;
}

/* sections.provenance: where the result comes from; takes @pcpus. */
static json_t *provenance_json(const struct imp_set *s, json_t *pcpus)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:s, s:s, s:I, s:I, s:o, s:b, s:o, s:o}",
		"tool", rtm_json_text(s->tool),
		"version", s->version[0] ? rtm_json_text(s->version) : json_null(),
		"command_line", s->command_line ? rtm_json_text(s->command_line) : json_null(),
		"source_file", rtm_json_text(s->name),
		"format", s->format,
		"unit", s->unit,
		"row_width_ns", (json_int_t)s->row_width_ns,
		"value_width_ns", (json_int_t)s->val_width_ns,
		"overflow_above_ns", s->overflow_above_ns ?
			json_integer((json_int_t)s->overflow_above_ns) : json_null(),
		"cpus_known", s->cpus_known,
		"cpus", pcpus,
		"notes", json_incref(s->notes));
}

static struct rtm_result *build(struct imp_set *s, const struct rtm_import_opts *o,
			       struct rtm_error *err)
{
	json_t *pcpus = json_array();
	struct rtm_result *r;

	if (check_cols(s, err))
		goto fail_early;
	r = rtm_result_alloc("import");
	if (!r) {
		rtm_error_setn(err, -ENOMEM, "out of memory");
		goto fail_early;
	}
	set_origin(s, o, r);
	r->duration_ns = s->duration_ns;
	r->sysinfo = s->sysinfo;
	s->sysinfo = NULL;	/* r owns it now: freed once, on either path */
	if (!strcmp(s->format, "rtla-osnoise-hist")) {	/* noise lengths: a noise result */
		json_t *sec = imp_osnoise_hist_section(s);

		if (!sec) {
			rtm_error_setn(err, -ENOMEM, "out of memory");
			goto fail;
		}
		json_object_set_new(r->sections, "noise", sec);
	}
	json_decref(r->events);
	r->events = s->events;
	s->events = json_array();

	if (add_cpu_cols(s, r, pcpus, err) || add_timerlat_cols(s, r, err))
		goto fail;
	json_object_set_new(r->sections, "provenance", provenance_json(s, pcpus));
	return r;
fail:
	rtm_result_free(r);
fail_early:
	json_decref(pcpus);
	return NULL;
}

/* ------------------------------------------------------------ entry points */

static bool all_blank(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r')
			return false;
	return true;
}

/*
 * An rtmeasure result (its schema among the first keys, as rtm_result_save()
 * writes it) is refused: whole, it needs no import; cut short, it is truncated
 * and says so. Returns true with the message in @err.
 */
static bool rtmeasure_result(const char *text, size_t len, const char *name,
			     struct rtm_error *err)
{
	size_t head = len < 512 ? len : 512;
	json_error_t jerr;
	json_t *j;

	if (memchr(text, '\0', len) || !memmem(text, head, "\"rtmeasure-result/", 18))
		return false;
	j = json_loadb(text, len, 0, &jerr);
	if (j) {
		json_decref(j);
		rtm_error_set(err, "%s is already an rtmeasure result (report, compare and export "
			      "read it as it is)", name);
	} else {
		rtm_error_set(err, "%s is a truncated or corrupt rtmeasure result, not another "
			      "tool's output (not valid JSON at line %d, column %d: %s); import "
			      "cannot repair it: measure again or restore the file", name,
			      jerr.line, jerr.column, jerr.text);
	}
	return true;
}

/* A writable, NUL-terminated copy of @text for the text parsers, or NULL. */
static char *text_copy(const char *text, size_t len)
{
	char *copy = malloc(len + 1);

	if (copy) {
		memcpy(copy, text, len);
		copy[len] = '\0';
	}
	return copy;
}

/*
 * Refuses what import cannot read: an empty input, an rtmeasure result, or
 * content of another format than -F names. Returns the format, or
 * RTM_IMPORT_UNKNOWN with the message in @err (for an unknown content, too).
 */
static enum rtm_import_format check_input(const char *text, size_t len, const char *name,
					  const struct rtm_import_opts *o, struct rtm_error *err)
{
	enum rtm_import_format fmt;

	if (all_blank(text, len)) {
		rtm_error_set(err, "%s is empty (give the output file of cyclictest -h, cyclictest "
			      "or oslat --json, rtla timerlat/osnoise hist, rtla osnoise top or "
			      "hwlatdetect)", name);
		return RTM_IMPORT_UNKNOWN;
	}
	if (rtmeasure_result(text, len, name, err))
		return RTM_IMPORT_UNKNOWN;
	fmt = rtm_import_detect(text, len);
	if (o->format && fmt != o->format) {
		rtm_error_set(err, "%s is not %s output (its content is %s%s; leave -F out to "
			      "import it by its content)", name, rtm_import_format_name(o->format),
			      fmt ? "of the format " : "of no known format",
			      fmt ? rtm_import_format_name(fmt) : "");
		return RTM_IMPORT_UNKNOWN;
	}
	if (!fmt)
		rtm_error_set(err, "%s: unknown format (rtmeasure import reads cyclictest "
			      "-h/--histfile text, cyclictest or oslat --json, rtla "
			      "timerlat/osnoise hist and osnoise top text, hwlatdetect output)",
			      name);
	return fmt;
}

struct rtm_result *rtm_import_buffer(const char *text, size_t len, const char *name,
				     const struct rtm_import_opts *o, struct rtm_error *err)
{
	static const struct rtm_import_opts none;
	enum rtm_import_format fmt;
	struct rtm_result *r = NULL;
	struct imp_set s;
	char *copy = NULL;
	int ret = -EINVAL;

	if (!o)
		o = &none;
	if (!name)
		name = "input";
	memset(&s, 0, sizeof(s));
	s.name = name;
	s.unit = "us";
	s.row_width_ns = s.val_width_ns = 1000;
	s.notes = json_array();
	s.events = json_array();
	if (!s.notes || !s.events) {
		ret = rtm_error_setn(err, -ENOMEM, "out of memory");
		goto out;
	}
	fmt = check_input(text, len, name, o, err);
	if (!fmt)
		goto out;
	if (fmt != RTM_IMPORT_RTTESTS_JSON) {	/* the text parsers cut lines in place */
		copy = text_copy(text, len);
		if (!copy) {
			ret = rtm_error_setn(err, -ENOMEM, "out of memory");
			goto out;
		}
	}
	switch (fmt) {
	case RTM_IMPORT_CYCLICTEST_HIST:
		ret = imp_parse_cyclictest(&s, copy, len, o, err);
		break;
	case RTM_IMPORT_RTLA_HIST:
		ret = imp_parse_rtla(&s, copy, len, o, err);
		break;
	case RTM_IMPORT_RTTESTS_JSON:
		ret = imp_parse_rttests_json(&s, text, len, err);
		break;
	default:	/* RTM_IMPORT_RTLA_OSNOISE_TOP, RTM_IMPORT_HWLATDETECT */
		r = fmt == RTM_IMPORT_HWLATDETECT ? imp_hwlatdetect(&s, copy, len, err) :
						    imp_osnoise_top(&s, copy, len, err);
		ret = r ? 0 : -EINVAL;	/* an out-of-memory failure says so in @err */
		goto out;
	}
	if (ret)
		goto out;
	r = build(&s, o, err);
	ret = r ? 0 : -EINVAL;
out:
	free(copy);
	imp_set_release(&s);
	if (!r)
		errno = ret == -ENOMEM ? ENOMEM : EINVAL;
	return r;
}

struct rtm_result *rtm_import_file(const char *path, const struct rtm_import_opts *o,
				   struct rtm_error *err)
{
	struct rtm_result *r;
	struct stat st;
	size_t len = 0;
	char *text;

	if (stat(path, &st) < 0) {
		rtm_error_setn(err, -errno, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		rtm_error_set(err, "%s is a folder (give the tool's output file)", path);
		errno = EINVAL;
		return NULL;
	}
	text = rtm_read_all("", path, &len);
	if (!text) {
		rtm_error_setn(err, -errno, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	r = rtm_import_buffer(text, len, path, o, err);
	free(text);
	if (r && !r->created[0]) {
		struct tm tm;
		json_t *notes = json_object_get(json_object_get(r->sections, "provenance"),
						"notes");

		gmtime_r(&st.st_mtime, &tm);
		strftime(r->created, sizeof(r->created), "%Y-%m-%dT%H:%M:%SZ", &tm);
		json_array_append_new(notes, json_string("created: the source file's "
			"modification time (the file does not state when the run started)"));
	}
	return r;
}
