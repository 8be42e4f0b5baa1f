// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * import_json.c - rt-tests --json output of cyclictest and oslat.
 *
 *   { "file_version": 1, "cmdline:": "cyclictest ...", "rt_test_version:": "2.40",
 *     "start_time": "Thu, 03 Dec 2026 13:08:28 +0000", "end_time": "...",
 *     "return_code": 0, "sysinfo": { "sysname", "nodename", "release", "version",
 *     "machine", "realtime" }, "num_threads": 2, "resolution_in_ns": 0,
 *     "thread": { "0": { "histogram": { "7": 1, ... }, "cycles": 9987, "min": 7,
 *                        "max": 4742, "avg": 28.77, "cpu": 0, "node": 0 }, ... } }
 *
 * The keys "cmdline:" and "rt_test_version:" carry a stray colon in every
 * rt-tests release; the spelling without it is read too. cyclictest's
 * histogram lists non-empty rows only and no overflow count: the overflows are
 * "cycles" minus the rows. oslat's threads have "cpu", "freq", "min", "avg",
 * "max", "duration" and a histogram whose key L counts the loop durations in
 * [L-1, L) us (oslat rounds up); its last key also holds every longer one.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "result/import_priv.h"

static const char *str2(const json_t *o, const char *a, const char *b)
{
	const json_t *v = json_object_get(o, a);

	if (!v)
		v = json_object_get(o, b);
	return json_string_value(v);
}

/* "Thu, 03 Dec 2026 13:08:28 +0000" -> seconds since the epoch; -1 when not that */
static time_t rfc2822(const char *s)
{
	struct tm tm;
	const char *end;

	if (!s)
		return -1;
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%a, %d %b %Y %H:%M:%S %z", &tm);
	if (!end || *end)
		return -1;
	return timegm(&tm) - tm.tm_gmtoff;
}

static int num(const json_t *o, const char *key, double *v)
{
	const json_t *j = json_object_get(o, key);

	if (!json_is_number(j) || json_number_value(j) < 0)
		return -1;
	*v = json_number_value(j);
	return 0;
}

static int cmp_row(const void *a, const void *b)
{
	const struct imp_row *x = a, *y = b;

	return x->lo_ns < y->lo_ns ? -1 : x->lo_ns > y->lo_ns;
}

/* The histogram object into @c's rows (keys as they are, in the source's unit). */
static int read_hist(struct imp_set *s, struct imp_col *c, const json_t *h, int t,
		     struct rtm_error *err)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)h, key, v) {
		const char *p = key;
		uint64_t k;

		if (imp_parse_u64(&p, &k) || *p || k >= IMP_MAX_ROWS)
			return rtm_error_set(err, "%s: thread %d: histogram key \"%s\" is not a "
					     "row number (corrupt file?)", s->name, t, key);
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return rtm_error_set(err, "%s: thread %d: histogram row %s is not a count "
					     "(corrupt file?)", s->name, t, key);
		if (imp_col_add_row(c, k, (uint64_t)json_integer_value(v)))
			return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	if (c->nrows)	/* qsort(NULL, 0) is undefined */
		qsort(c->rows, c->nrows, sizeof(*c->rows), cmp_row);
	return 0;
}

/* @v source units times @unit ns into @ns; false when that is not a 64-bit count */
static bool to_ns(double v, double unit, uint64_t *ns)
{
	double x = v * unit;

	if (!(x >= 0 && x < 18446744073709551616.0))	/* 2^64, exact in a double */
		return false;
	*ns = (uint64_t)x;
	return true;
}

/* Source values (us, or ns) to the lower bound in ns of what they stand for. */
static int set_extremes(struct imp_set *s, struct imp_col *c, const json_t *th, int t,
			double offset, struct rtm_error *err)
{
	double unit = (double)s->val_width_ns;

	if (!num(th, "min", &c->src_min) && c->src_min >= offset) {
		if (!to_ns(c->src_min - offset, unit, &c->min_ns))
			goto range;
		c->has_min = true;
	}
	if (!num(th, "max", &c->src_max) && c->src_max >= offset) {
		if (!to_ns(c->src_max - offset, unit, &c->max_ns))
			goto range;
		c->has_max = true;
	}
	if (!num(th, "avg", &c->src_avg)) {
		c->has_avg = true;
		c->avg_ns = c->src_avg * unit;
	}
	return 0;
range:
	return rtm_error_set(err, "%s: thread %d: min or max is beyond 2^64 ns (corrupt file?)",
			     s->name, t);
}

static int cyclictest_thread(struct imp_set *s, struct imp_col *c, const json_t *th, int t,
			     struct rtm_error *err)
{
	const json_t *h = json_object_get(th, "histogram");
	const json_t *cy = json_object_get(th, "cycles");
	const json_t *node = json_object_get(th, "node");
	size_t i;

	if (!json_is_object(h))
		return rtm_error_set(err, "%s: thread %d has no histogram (record with cyclictest "
				     "-h N --json=FILE)", s->name, t);
	if (!json_is_integer(cy) || json_integer_value(cy) < 0)
		return rtm_error_set(err, "%s: thread %d has no \"cycles\" count (truncated or "
				     "corrupt)", s->name, t);
	if (read_hist(s, c, h, t, err))
		return -EINVAL;
	for (i = 0; i < c->nrows; i++)
		c->rows[i].lo_ns *= s->row_width_ns;
	c->has_count = true;
	c->count = (uint64_t)json_integer_value(cy);
	if (c->in_rows > c->count)
		return rtm_error_set(err, "%s: thread %d: the histogram holds %llu samples, more "
				     "than its %llu cycles (corrupt file?)", s->name, t,
				     (unsigned long long)c->in_rows, (unsigned long long)c->count);
	c->overflows = c->count - c->in_rows;
	/* -1 (cyclictest -S, no NUMA) is kept for export, not read as node 0 */
	if (json_is_integer(node) && json_integer_value(node) >= -1 &&
	    json_integer_value(node) <= INT_MAX) {
		c->has_node = true;
		c->node = (int)json_integer_value(node);
	}
	return c->count ? set_extremes(s, c, th, t, 0, err) : 0;
}

static int oslat_thread(struct imp_set *s, struct imp_col *c, const json_t *th, int t,
			uint64_t *over_lo, struct rtm_error *err)
{
	const json_t *h = json_object_get(th, "histogram");
	double dur;
	size_t i;

	if (!json_is_object(h))
		return rtm_error_set(err, "%s: thread %d has no histogram (truncated or corrupt)",
				     s->name, t);
	if (read_hist(s, c, h, t, err))
		return -EINVAL;
	for (i = 0; i < c->nrows; i++) {
		if (!c->rows[i].lo_ns)
			return rtm_error_set(err, "%s: thread %d: oslat has no histogram key 0 "
					     "(corrupt file?)", s->name, t);
		c->rows[i].lo_ns = (c->rows[i].lo_ns - 1) * 1000;
	}
	/* the last bucket holds every longer sample: none of them has a known value */
	if (c->nrows) {
		const json_t *last;
		char key[24];
		uint64_t lastkey = 0;
		const char *k;
		json_t *v;

		json_object_foreach((json_t *)h, k, v) {
			const char *p = k;
			uint64_t x;

			if (!imp_parse_u64(&p, &x) && x > lastkey)
				lastkey = x;
		}
		snprintf(key, sizeof(key), "%llu", (unsigned long long)lastkey);
		last = json_object_get(h, key);
		c->overflows = (uint64_t)json_integer_value(last);
		if (c->overflows) {
			c->nrows--;
			c->in_rows -= c->overflows;
		}
		if (!*over_lo || (lastkey - 1) * 1000 < *over_lo)
			*over_lo = (lastkey - 1) * 1000;
	}
	if (set_extremes(s, c, th, t, 1, err))
		return -EINVAL;
	if (!num(th, "duration", &dur)) {
		uint64_t ns;

		if (!to_ns(dur, 1e9, &ns) || ns > (uint64_t)IMP_MAX_DURATION_S * 1000000000ull)
			return rtm_error_set(err, "%s: thread %d: duration %g s is beyond 2^63 ns "
					     "(corrupt file?)", s->name, t, dur);
		if (ns > s->duration_ns) {
			s->duration_ns = ns;
			s->has_duration = true;
		}
	}
	return 0;
}

static void partial_sysinfo(struct imp_set *s, const json_t *si)
{
	const json_t *rt = json_object_get(si, "realtime");

	if (!json_is_object(si))
		return;
	s->sysinfo = json_pack("{s:s, s:o, s:b, s:o, s:{s:o, s:o, s:{s:s, s:o, s:s}}, s:{s:o}, "
			       "s:b}",
		"schema", "rtmeasure-sysinfo/1",
		"root", json_null(),
		"live", 0,
		"hostname", json_deep_copy(json_object_get(si, "nodename")) ?: json_null(),
		"kernel",
		  "release", json_deep_copy(json_object_get(si, "release")) ?: json_null(),
		  "version", json_deep_copy(json_object_get(si, "version")) ?: json_null(),
		  "preempt",
		    "model", json_integer_value(rt) == 1 ? "rt" : "unknown",
		    "dynamic", json_null(),
		    "source", "rt-tests JSON sysinfo.realtime",
		"cpu", "arch", json_deep_copy(json_object_get(si, "machine")) ?: json_null(),
		"imported", 1);
}

/* The document is rt-tests --json output: an object with a "thread" object. */
static int json_document(struct imp_set *s, const json_t *root, const json_t **threads,
			 struct rtm_error *err)
{
	if (!json_is_object(root))
		return rtm_error_set(err, "%s: JSON but not rt-tests --json output (not an object)",
				     s->name);
	if (json_is_string(json_object_get(root, "schema")))
		return rtm_error_set(err, "%s is already an rtmeasure result or report (report, "
				     "compare and export read results as they are)", s->name);
	*threads = json_object_get(root, "thread");
	if (!json_is_object(*threads))
		return rtm_error_set(err, "%s: JSON but not rt-tests --json output (no \"thread\" "
				     "object)", s->name);
	return 0;
}

/* Which tool wrote it (cyclictest or oslat), its version and command line, the unit. */
static int json_tool(struct imp_set *s, const json_t *root, const json_t *threads, bool *oslat,
		     struct rtm_error *err)
{
	const char *cmd = str2(root, "cmdline:", "cmdline");
	const char *ver = str2(root, "rt_test_version:", "rt_test_version");
	const char *base = "";
	const json_t *t0j = json_object_get(threads, "0");

	if (cmd) {
		const char *sp = strchr(cmd, ' '), *sl;
		size_t l = sp ? (size_t)(sp - cmd) : strlen(cmd);

		s->command_line = strdup(cmd);
		for (sl = cmd; sl < cmd + l; sl++)
			if (*sl == '/')
				base = sl + 1;
		if (!*base || base > cmd + l)
			base = cmd;
		snprintf(s->tool, sizeof(s->tool), "%.*s", (int)(cmd + l - base), base);
	}
	if (ver)
		snprintf(s->version, sizeof(s->version), "%s", ver);
	*oslat = !strcmp(s->tool, "oslat") ||
		 (!s->tool[0] && json_object_get(t0j, "freq") && !json_object_get(t0j, "cycles"));
	if (!*oslat && s->tool[0] && strcmp(s->tool, "cyclictest") &&
	    !json_object_get(t0j, "cycles"))
		return rtm_error_set(err, "%s: rt-tests JSON of %s, which has no latency histogram "
				     "rtmeasure imports (cyclictest, oslat)", s->name, s->tool);
	if (!s->tool[0])
		snprintf(s->tool, sizeof(s->tool), "%s", *oslat ? "oslat" : "cyclictest");
	s->format = "rt-tests-json";
	if (!*oslat && json_integer_value(json_object_get(root, "resolution_in_ns")) == 1) {
		s->unit = "ns";
		s->row_width_ns = s->val_width_ns = 1;
	}
	return 0;
}

/* One column per entry of "thread"; its CPU when every thread names its own. */
static int json_threads(struct imp_set *s, const json_t *root, const json_t *threads,
			bool oslat, uint64_t *over_lo, struct rtm_error *err)
{
	int n = (int)json_object_size(threads), i, j;
	const json_t *nt = json_object_get(root, "num_threads");
	bool cpus_ok = true;

	if (nt && (!json_is_integer(nt) || json_integer_value(nt) != n))
		return rtm_error_set(err, "%s: \"num_threads\" is %lld but \"thread\" has %d "
				     "entries (truncated or corrupt)", s->name,
				     (long long)json_integer_value(nt), n);
	if (!n)
		return rtm_error_set(err, "%s: no threads in \"thread\": nothing to import",
				     s->name);
	for (i = 0; i < n; i++) {
		char key[16];
		const json_t *th, *cpu;
		struct imp_col *c;

		snprintf(key, sizeof(key), "%d", i);
		th = json_object_get(threads, key);
		if (!json_is_object(th))
			return rtm_error_set(err, "%s: \"thread\" has no entry \"%d\" (corrupt "
					     "file?)", s->name, i);
		cpu = json_object_get(th, "cpu");
		c = imp_add_col(s, json_is_integer(cpu) ? (int)json_integer_value(cpu) : -1, i);
		if (!c)
			return rtm_error_setn(err, -ENOMEM, "out of memory");
		if (c->cpu < 0 || c->cpu >= 8192)
			cpus_ok = false;
		if (oslat ? oslat_thread(s, c, th, i, over_lo, err) :
			    cyclictest_thread(s, c, th, i, err))
			return -EINVAL;
	}
	for (i = 0; i < n && cpus_ok; i++)
		for (j = 0; j < i; j++)
			if (s->cols[i].cpu == s->cols[j].cpu)
				cpus_ok = false;
	s->cpus_known = cpus_ok;
	if (!cpus_ok) {
		for (i = 0; i < n; i++)
			s->cols[i].cpu = i;
		imp_note(s, "the threads' \"cpu\" values are unset (-1, no -a) or shared: the "
			 "entries are threads 0..%d, not CPUs", n - 1);
	}
	return 0;
}

/* How the tool's rows and overflows are read, said once per import. */
static void json_notes(struct imp_set *s, bool oslat, uint64_t over_lo)
{
	if (oslat) {
		s->overflow_above_ns = over_lo;
		imp_note(s, "oslat rounds each loop duration up to whole microseconds: a row L "
			 "stands for [L-1, L) us and is imported as L - 0.5 us; so are min and "
			 "max");
		imp_note(s, "oslat's last row (\"including overflows\") also holds every longer "
			 "sample: those are counted as overflows");
	} else if (!strcmp(s->unit, "ns")) {
		imp_note(s, "resolution_in_ns is 1 (cyclictest -N): rows are nanoseconds, "
			 "imported as they are");
	} else {
		imp_note(s, "a row u stands for the latencies [u, u+1) us (cyclictest truncates) "
			 "and is imported as u + 0.5 us; so is the maximum");
		imp_note(s, "cyclictest's JSON has no overflow count: overflows are \"cycles\" "
			 "minus the histogram's samples");
	}
}

/* Start time and duration, the tool's exit code, and its sysinfo. */
static void json_run(struct imp_set *s, const json_t *root)
{
	time_t t0 = rfc2822(json_string_value(json_object_get(root, "start_time")));
	time_t t1 = rfc2822(json_string_value(json_object_get(root, "end_time")));

	if (t0 >= 0) {
		struct tm tm;

		gmtime_r(&t0, &tm);
		strftime(s->created, sizeof(s->created), "%Y-%m-%dT%H:%M:%SZ", &tm);
		/* beyond 292 years the ns count would not fit: no duration then */
		if (t1 >= t0 && t1 - t0 <= (time_t)IMP_MAX_DURATION_S && !s->has_duration) {
			s->duration_ns = (uint64_t)(t1 - t0) * 1000000000ull;
			s->has_duration = true;
			imp_note(s, "duration from start_time and end_time (whole seconds)");
		}
	}
	if (json_is_integer(json_object_get(root, "return_code")) &&
	    json_integer_value(json_object_get(root, "return_code")) != 0)
		imp_note(s, "%s exited with return_code %lld", s->tool,
			 (long long)json_integer_value(json_object_get(root, "return_code")));
	partial_sysinfo(s, json_object_get(root, "sysinfo"));
}

int imp_parse_rttests_json(struct imp_set *s, const char *text, size_t len,
			   struct rtm_error *err)
{
	const json_t *threads = NULL;
	uint64_t over_lo = 0;
	json_error_t jerr;
	bool oslat = false;
	json_t *root;
	int ret;

	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return rtm_error_set(err, "%s is not valid JSON (line %d, column %d: %s): the file "
				     "is truncated or corrupt", s->name, jerr.line, jerr.column,
				     jerr.text);
	ret = json_document(s, root, &threads, err);
	if (!ret)
		ret = json_tool(s, root, threads, &oslat, err);
	if (!ret)
		ret = json_threads(s, root, threads, oslat, &over_lo, err);
	if (!ret) {
		json_notes(s, oslat, over_lo);
		json_run(s, root);
	}
	json_decref(root);
	return ret;
}
