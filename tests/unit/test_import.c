// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: rtmeasure import on outputs of cyclictest, oslat and rtla recorded
 * on real machines (tests/data/import, see its README.md), export and the round
 * trip, and corrupt, truncated, empty and wrong-format inputs.
 *
 * The expected counts and percentiles are computed here from the files' raw
 * rows with a small reader and a nearest-rank routine of their own, not with
 * the importer: every row is a value at the middle of what it stands for, and
 * the stated maximum is one more sample when the source has overflows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "result/export.h"
#include "core/fileio.h"
#include "result/import.h"
#include "result/summary.h"
#include "present/summary_print.h"
#include "../tap.h"

static const char *datadir;

static char *edit(const char *text, const char *after, const char *old, const char *new);

/* ------------------------------------------------------------ reference */

#define REF_COLS 4
#define REF_ROWS 4096

struct ref {
	int ncols;
	int nrows[REF_COLS];
	uint64_t val[REF_COLS][REF_ROWS], cnt[REF_COLS][REF_ROWS];
	uint64_t overflow[REF_COLS], max_ns[REF_COLS];
};

/* A recorded file under tests/data/import, whole (NULL when it cannot be read). */
static char *slurp(const char *name, size_t *len)
{
	char path[4096];

	snprintf(path, sizeof(path), "import/%s", name);
	return rtm_read_all(datadir, path, len);
}

static void ref_add(struct ref *r, int c, uint64_t v, uint64_t n)
{
	if (n && r->nrows[c] < REF_ROWS) {
		r->val[c][r->nrows[c]] = v;
		r->cnt[c][r->nrows[c]++] = n;
	}
}

/* numbers after @prefix on the line that starts with it */
static int line_nums(const char *text, const char *prefix, uint64_t *v, int max)
{
	const char *p = strstr(text, prefix);
	int n = 0;

	if (!p)
		return 0;
	p += strlen(prefix);
	while (n < max) {
		char *end;
		unsigned long long x;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		x = strtoull(p, &end, 10);
		v[n++] = x;
		p = end;
	}
	return n;
}

/* cyclictest text: "NNNNNN a b [all]" rows (us), overflows and max per thread */
static void ref_cyclictest(const char *text, int threads, struct ref *r)
{
	uint64_t ovf[REF_COLS + 1], mx[REF_COLS + 1];
	const char *p = strstr(text, "# Histogram\n");
	int c;

	memset(r, 0, sizeof(*r));
	r->ncols = threads;
	for (p = strchr(p, '\n') + 1; *p >= '0' && *p <= '9'; p = strchr(p, '\n') + 1) {
		unsigned long long row, v;
		char *end;

		row = strtoull(p, &end, 10);
		for (c = 0; c < threads; c++) {
			v = strtoull(end, &end, 10);
			ref_add(r, c, row * 1000 + 500, v);
		}
	}
	line_nums(text, "# Histogram Overflows:", ovf, threads);
	line_nums(text, "# Max Latencies:", mx, threads);
	for (c = 0; c < threads; c++) {
		r->overflow[c] = ovf[c];
		r->max_ns[c] = mx[c] * 1000 + 500;
		if (ovf[c])
			ref_add(r, c, r->max_ns[c], 1);
	}
}

/* rt-tests JSON of cyclictest (rows u -> u + 0.5 us) or oslat (L -> L - 0.5 us, last
 * key overflows) */
static void ref_json(const char *text, bool oslat, struct ref *r)
{
	json_t *root = json_loads(text, 0, NULL), *th = json_object_get(root, "thread");
	int c;

	memset(r, 0, sizeof(*r));
	r->ncols = (int)json_object_size(th);
	for (c = 0; c < r->ncols; c++) {
		char key[8];
		json_t *t, *h;
		uint64_t sum = 0, k, last = 0;

		snprintf(key, sizeof(key), "%d", c);
		t = json_object_get(th, key);
		h = json_object_get(t, "histogram");
		{
			const char *kk;
			json_t *vv;

			json_object_foreach(h, kk, vv)
				if (strtoull(kk, NULL, 10) > last)
					last = strtoull(kk, NULL, 10);
		}
		for (k = 0; k <= last; k++) {
			json_t *v;

			snprintf(key, sizeof(key), "%llu", (unsigned long long)k);
			v = json_object_get(h, key);
			if (!v)
				continue;
			if (oslat && k == last) {
				r->overflow[c] = (uint64_t)json_integer_value(v);
				continue;
			}
			ref_add(r, c, oslat ? (k - 1) * 1000 + 500 : k * 1000 + 500,
				(uint64_t)json_integer_value(v));
			sum += (uint64_t)json_integer_value(v);
		}
		if (!oslat)
			r->overflow[c] = (uint64_t)json_integer_value(json_object_get(t,
									"cycles")) - sum;
		r->max_ns[c] = (uint64_t)json_integer_value(json_object_get(t, "max")) * 1000 +
			       (oslat ? 0 : 1000) - 500;
		if (r->overflow[c])
			ref_add(r, c, r->max_ns[c], 1);
	}
	json_decref(root);
}

/* rtla hist text: "Index col..." rows; @stride/@first pick the columns of the main
 * histogram (timerlat: Thr = every 2nd from 1); @unit ns per index, @bucket width */
static void ref_rtla(const char *text, int ncols, int first, int stride, uint64_t unit,
		     uint64_t bucket, struct ref *r)
{
	const char *p = strstr(text, "\nIndex");
	uint64_t v[16], mx[16];
	int c, n;

	memset(r, 0, sizeof(*r));
	r->ncols = ncols;
	for (p = strchr(p + 1, '\n') + 1; *p >= '0' && *p <= '9'; p = strchr(p, '\n') + 1) {
		char line[512];
		size_t l = (size_t)(strchr(p, '\n') - p);

		snprintf(line, sizeof(line), "%.*s", (int)l, p);
		n = line_nums(line, "", v, 16);
		for (c = 0; c < ncols && first + c * stride < n - 1; c++)
			ref_add(r, c, v[0] * unit + bucket * unit / 2, v[1 + first + c * stride]);
	}
	line_nums(text, "over:", v, 16);
	line_nums(text, "max:", mx, 16);
	for (c = 0; c < ncols; c++) {
		r->overflow[c] = v[first + c * stride];
		r->max_ns[c] = mx[first + c * stride] * unit + unit / 2;
		if (r->overflow[c])
			ref_add(r, c, r->max_ns[c], 1);
	}
}

static uint64_t ref_count(const struct ref *r, int c)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < r->nrows[c]; i++)
		n += r->cnt[c][i];
	return n;
}

/* nearest rank among @n samples over the (value, count) rows, in ascending order */
static uint64_t ref_pct_n(const struct ref *r, int c, double p, uint64_t n)
{
	uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)n - 1e-9), seen = 0;
	int i;

	if (rank < 1)
		rank = 1;
	for (i = 0; i < r->nrows[c]; i++) {
		seen += r->cnt[c][i];
		if (seen >= rank)
			return r->val[c][i];
	}
	return 0;
}

static uint64_t ref_pct(const struct ref *r, int c, double p)
{
	return ref_pct_n(r, c, p, ref_count(r, c));
}

/* the histogram keeps a value within half a bucket: 1/512 of it */
static int close_to(uint64_t got, uint64_t want)
{
	uint64_t d = got > want ? got - want : want - got;

	return d <= want / 512 + 1;
}

static void check_against(const char *what, const struct rtm_result *res, const struct ref *r)
{
	const json_t *pc = json_object_get(json_object_get(res->sections, "provenance"), "cpus");
	/* rtla osnoise hist: a noise result, the histograms in sections.noise */
	const json_t *noise = json_object_get(json_object_get(res->sections, "noise"), "cpus");
	int c, n = noise ? (int)json_array_size(noise) : res->ncpus;
	struct rtm_hist *nh = rtm_hist_alloc();
	struct rtm_error herr = { "" };

	ok(n == r->ncols, "%s: one entry per CPU/thread (%d)", what, n);
	for (c = 0; c < r->ncols && c < n; c++) {
		const struct rtm_hist *h = noise ? nh : res->cpus[c].raw;
		const double ps[] = { 50, 99 };
		char name[160];
		int k;

		if (noise && rtm_hist_from_json(nh, json_object_get(json_array_get(noise,
							(size_t)c), "hist"), &herr))
			diag("%s", herr.msg);

		snprintf(name, sizeof(name), "%s: CPU %d count %llu = rows + known max", what, c,
			 (unsigned long long)ref_count(r, c));
		is_u64(h->count, ref_count(r, c), name);
		snprintf(name, sizeof(name), "%s: CPU %d max = the stated maximum", what, c);
		is_u64(h->max_ns, r->overflow[c] ? r->max_ns[c] : r->val[c][r->nrows[c] - 1], name);
		for (k = 0; k < 2; k++) {
			uint64_t got = rtm_hist_percentile(h, ps[k]), want = ref_pct(r, c, ps[k]);

			if (!ok(close_to(got, want), "%s: CPU %d p%g %llu ns ~ by hand %llu ns",
				what, c, ps[k], (unsigned long long)got, (unsigned long long)want))
				diag("differ by more than half a bucket");
		}
		snprintf(name, sizeof(name), "%s: CPU %d overflows carried", what, c);
		is_u64(json_integer_value(json_object_get(json_array_get(pc, (size_t)c),
							  "overflows")), r->overflow[c], name);
	}
	rtm_hist_free(nh);
}

static struct rtm_result *imp(const char *name, const struct rtm_import_opts *o)
{
	struct rtm_error err = { "" };
	struct rtm_result *r;
	size_t len;
	char *text = slurp(name, &len);

	if (!text) {
		ok(0, "%s readable", name);
		return NULL;
	}
	r = rtm_import_buffer(text, len, name, o, &err);
	if (!ok(r != NULL, "%s imports", name))
		diag("%s", err.msg);
	free(text);
	return r;
}

static const char *pstr(const struct rtm_result *r, const char *key)
{
	return json_string_value(json_object_get(json_object_get(r->sections, "provenance"), key));
}

static const json_t *pget(const struct rtm_result *r, const char *key)
{
	return json_object_get(json_object_get(r->sections, "provenance"), key);
}

/* ------------------------------------------------------------ the recorded files */

static void test_cyclictest_text(void)
{
	static const struct { const char *file; int threads; } files[] = {
		{ "cyclictest-idle-h2000.txt", 2 },
		{ "cyclictest-histofall-h400.txt", 2 },
		{ "cyclictest-loaded-h50.txt", 2 },
		{ "cyclictest-loaded-h50-sparse.txt", 2 },
		{ "cyclictest-break-h200.txt", 2 },
		{ "cyclictest-h100.txt", 2 },
	};
	struct rtm_import_opts aff = { "0-1", false, 0, NULL, RTM_IMPORT_UNKNOWN };
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *text = slurp(files[i].file, NULL);
		struct rtm_result *r = imp(files[i].file, NULL);
		struct ref ref;

		if (!r || !text) {
			free(text);
			continue;
		}
		ref_cyclictest(text, files[i].threads, &ref);
		check_against(files[i].file, r, &ref);
		free(text);
		rtm_result_free(r);
	}

	/* provenance, threads vs CPUs */
	{
		struct rtm_result *r = imp("cyclictest-loaded-h50.txt", NULL);
		struct rtm_result *a = imp("cyclictest-loaded-h50.txt", &aff);
		const json_t *c0;

		if (r && a) {
			is_str(r->command, "import", "command is import");
			is_str(r->tool, "cyclictest", "tool cyclictest (no version in the text)");
			is_str(pstr(r, "tool"), "cyclictest", "provenance.tool");
			is_str(pstr(r, "format"), "cyclictest-hist", "provenance.format");
			is_str(pstr(r, "source_file"), "cyclictest-loaded-h50.txt",
			       "provenance.source_file");
			ok(json_is_null(pget(r, "version")) &&
			   json_is_null(pget(r, "command_line")),
			   "version and command line: null, not guessed");
			ok(json_is_false(pget(r, "cpus_known")), "without -a: threads, not CPUs");
			ok(json_is_true(pget(a, "cpus_known")) && a->cpus[1].cpu == 1,
			   "--affinity 0-1: CPUs");
			is_u64(json_integer_value(pget(r, "overflow_above_ns")), 50000,
			       "dense rows: overflows begin at 50 us (-h 50)");
			c0 = json_array_get(pget(r, "cpus"), 0);
			{
				char *text = slurp("cyclictest-loaded-h50.txt", NULL);
				const json_t *rp = json_object_get(c0, "run_percentiles_ns");
				static struct ref ref;

				ref_cyclictest(text, 2, &ref);
				/* all 14964 cycles: the rows, the max and 239 unknown values */
				is_u64(json_integer_value(json_object_get(rp, "p50")),
				       ref_pct_n(&ref, 0, 50, 14964),
				       "the run's own p50 over all 14964 cycles, by hand");
				ok(json_is_null(json_object_get(rp, "p99")),
				   "the run's p99 lies among the overflows: null, not guessed");
				free(text);
			}
			is_u64(json_integer_value(json_object_get(c0, "overflows")), 240,
			       "thread 0: 240 overflows (loaded run)");
			is_u64(json_integer_value(json_object_get(c0, "overflows_placed")), 1,
			       "thread 0: the maximum is placed");
			is_u64(json_integer_value(json_object_get(c0, "count")), 14964,
			       "thread 0: 14964 cycles in all");
			is_int(json_integer_value(json_object_get(c0, "max")), 25639,
			       "thread 0: max as the trailer states it");
			{
				int has = 0;
				json_t *n;
				size_t idx;

				json_array_foreach(pget(r, "notes"), idx, n)
					has |= strstr(json_string_value(n), "240 of 14964") != NULL;
				ok(has, "a note states the 240 unplaced samples");
			}
		}
		rtm_result_free(r);
		rtm_result_free(a);
	}
	/* -H: the all-threads column is not a CPU */
	{
		struct rtm_result *r = imp("cyclictest-histofall-h400.txt", NULL);

		if (r) {
			ok(r->ncpus == 2 && r->cpus[0].cpu == 0 && r->cpus[1].cpu == 1,
			   "-H: two threads, the all column not imported");
		}
		rtm_result_free(r);
	}
	/* -b trailer */
	{
		struct rtm_result *r = imp("cyclictest-break-h200.txt", &aff);
		const json_t *ev = r ? json_array_get(r->events, 0) : NULL;

		is_str(json_string_value(json_object_get(ev, "type")), "break",
		       "-b: a break event");
		is_int(json_integer_value(json_object_get(ev, "cpu")), 1,
		       "-b: break thread tid 8646 is thread 1 on CPU 1");
		is_int(json_integer_value(json_object_get(ev, "latency_ns")), 4252500,
		       "-b: break value 4252 us -> 4252.5 us");
		rtm_result_free(r);
	}
	/* dense (2.4) and sparse (>= 2.5) rows of one run give the same histograms */
	{
		struct rtm_result *d = imp("cyclictest-loaded-h50.txt", NULL);
		struct rtm_result *s = imp("cyclictest-loaded-h50-sparse.txt", NULL);

		if (d && s)
			ok(d->cpus[0].raw->count == s->cpus[0].raw->count &&
			   !memcmp(d->cpus[1].raw->counts, s->cpus[1].raw->counts,
				   sizeof(d->cpus[1].raw->counts)),
			   "dense and sparse rows of one run: identical histograms");
		if (s)
			ok(json_is_null(pget(s, "overflow_above_ns")),
			   "sparse rows: the -h limit is unknown (null)");
		rtm_result_free(d);
		rtm_result_free(s);
	}
}

static void test_json(void)
{
	char *text = slurp("cyclictest-h100.json", NULL);
	struct rtm_result *r = imp("cyclictest-h100.json", NULL), *t;
	struct ref ref;

	if (r && text) {
		ref_json(text, false, &ref);
		check_against("cyclictest-h100.json", r, &ref);
		is_str(r->tool, "cyclictest 2.40", "JSON: tool and version from rt_test_version:");
		is_str(pstr(r, "command_line"),
		       "cyclictest -m -p95 -a 0-1 -t2 -h 100 -D 10 -q --json=ct-json-h100.json",
		       "JSON: command line from the \"cmdline:\" key");
		is_str(pstr(r, "version"), "2.40", "JSON: provenance.version");
		ok(json_is_true(pget(r, "cpus_known")), "JSON: CPUs from each thread's \"cpu\"");
		is_str(r->created, "2026-12-03T13:08:28Z", "JSON: created from start_time");
		is_int(r->duration_ns, 10000000000LL, "JSON: duration from start and end time");
		is_str(json_string_value(json_object_get(json_object_get(r->sysinfo, "kernel"),
							 "release")), "6.18.44-fc-v1098",
		       "JSON: kernel release into sysinfo");
		/* the text and the JSON of the same run */
		t = imp("cyclictest-h100.txt", NULL);
		if (t)
			ok(!memcmp(t->cpus[0].raw->counts, r->cpus[0].raw->counts,
				   sizeof(t->cpus[0].raw->counts)) &&
			   t->cpus[1].raw->count == r->cpus[1].raw->count,
			   "text and JSON of one run: identical histograms");
		rtm_result_free(t);
	}
	rtm_result_free(r);
	free(text);

	text = slurp("oslat.json", NULL);
	r = imp("oslat.json", NULL);
	if (r && text) {
		ref_json(text, true, &ref);
		check_against("oslat.json", r, &ref);
		is_str(r->tool, "oslat 2.40", "oslat: tool and version");
		is_u64(json_integer_value(json_object_get(json_array_get(pget(r, "cpus"), 1),
							  "overflows")), 11967,
		       "oslat: the last row (\"including overflows\") is overflows");
		is_u64(json_integer_value(pget(r, "overflow_above_ns")), 31000,
		       "oslat: its last row begins at 31 us");
		ok(r->duration_ns > 9900000000ULL && r->duration_ns < 10100000000ULL,
		   "oslat: duration from the threads' \"duration\"");
	}
	rtm_result_free(r);
	free(text);
}

static void test_rtla(void)
{
	char *text = slurp("rtla-timerlat-hist-us.txt", NULL);
	struct rtm_result *r = imp("rtla-timerlat-hist-us.txt", NULL);
	struct ref ref;

	if (r && text) {
		const json_t *irq = json_object_get(json_object_get(r->sections, "timerlat"),
						    "irq");

		ref_rtla(text, 2, 1, 2, 1000, 1, &ref);	/* Thr-000, Thr-001 */
		check_against("timerlat us", r, &ref);
		ref_rtla(text, 2, 0, 2, 1000, 1, &ref);	/* IRQ-000, IRQ-001 */
		is_u64(json_integer_value(json_object_get(json_array_get(irq, 1), "overflows")),
		       ref.overflow[1], "timerlat: IRQ overflows of CPU 1 in sections.timerlat");
		is_u64(json_integer_value(json_object_get(json_object_get(json_array_get(irq, 0),
			"hist"), "count")), ref_count(&ref, 0),
		       "timerlat: IRQ histogram of CPU 0 in sections.timerlat");
		is_str(r->tool, "rtla timerlat", "timerlat: tool");
		is_int(r->duration_ns, 10000000000LL, "timerlat: duration from '# Duration:'");
		ok(json_is_true(pget(r, "cpus_known")), "timerlat: CPUs from the column names");
	}
	rtm_result_free(r);
	free(text);

	text = slurp("rtla-timerlat-hist-ns.txt", NULL);
	r = imp("rtla-timerlat-hist-ns.txt", NULL);
	if (r && text) {
		ref_rtla(text, 2, 1, 2, 1, 500, &ref);
		check_against("timerlat --nano -b 500", r, &ref);
		is_str(pstr(r, "unit"), "ns", "--nano: unit ns from the header");
		is_u64(json_integer_value(pget(r, "row_width_ns")), 500,
		       "--nano -b 500: bucket 500 ns from the row indices");
	}
	rtm_result_free(r);
	free(text);

	text = slurp("rtla-osnoise-hist-us.txt", NULL);
	r = imp("rtla-osnoise-hist-us.txt", NULL);
	if (r && text) {
		ref_rtla(text, 2, 0, 1, 1000, 1, &ref);
		check_against("osnoise", r, &ref);
		is_str(pstr(r, "format"), "rtla-osnoise-hist", "osnoise: format");
		is_int(r->ncpus, 0, "osnoise hist: a noise result, no wake-up latency entries");
		is_str(json_string_value(json_object_get(json_object_get(r->sections, "noise"),
			"backend")), "osnoise-imported", "osnoise hist: backend osnoise-imported");
	}
	rtm_result_free(r);
	free(text);
}

/* ------------------------------------------------------------ export, round trip */

static void test_round_trip(void)
{
	static const char *const files[] = {
		"cyclictest-loaded-h50.txt", "cyclictest-h100.json", "cyclictest-idle-h2000.txt",
		"rtla-timerlat-hist-us.txt",
	};
	size_t f;

	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct rtm_error err = { "" };
		struct rtm_result *a = imp(files[f], NULL), *b;
		const char *gen;
		json_t *j;
		char *text;
		int c, good = 1;

		if (!a)
			continue;
		j = rtm_export_cyclictest_json(a, "rtmeasure export --cyclictest-json x");
		ok(json_is_string(json_object_get(j, "cmdline:")) &&
		   json_is_integer(json_object_get(j, "resolution_in_ns")),
		   "%s: export has cyclictest's keys, \"cmdline:\" quirk included", files[f]);
		/* an rt-tests version only as cyclictest wrote it, beside its own cmdline */
		gen = json_string_value(json_object_get(j, "generator"));
		ok(json_is_string(json_object_get(j, "rt_test_version:")) ==
		   !strcmp(files[f], "cyclictest-h100.json") &&
		   gen && !strncmp(gen, "rtmeasure ", 10),
		   "%s: \"rt_test_version:\" only from cyclictest's JSON, \"generator\" rtmeasure",
		   files[f]);
		text = json_dumps(j, 0);
		json_decref(j);
		b = rtm_import_buffer(text, strlen(text), "export.json", NULL, &err);
		if (!ok(b != NULL, "%s: the export imports again", files[f]))
			diag("%s", err.msg);
		for (c = 0; b && c < a->ncpus; c++) {
			const struct rtm_hist *x = a->cpus[c].raw, *y = b->cpus[c].raw;
			const json_t *px = json_array_get(pget(a, "cpus"), (size_t)c);
			const json_t *py = json_array_get(pget(b, "cpus"), (size_t)c);
			uint64_t p;

			if (x->count != y->count ||
			    json_integer_value(json_object_get(px, "overflows")) !=
			    json_integer_value(json_object_get(py, "overflows"))) {
				good = 0;
				diag("CPU %d: count %llu vs %llu", c, (unsigned long long)x->count,
				     (unsigned long long)y->count);
			}
			for (p = 1; p <= 100; p++) {
				uint64_t u = rtm_hist_percentile(x, (double)p);
				uint64_t v = rtm_hist_percentile(y, (double)p);
				uint64_t d = u > v ? u - v : v - u;

				/* a bucket wider than 1 us may land one row off */
				if (d > 1000 && d > u / 128) {
					good = 0;
					diag("CPU %d p%llu: %llu vs %llu", c, (unsigned long long)p,
					     (unsigned long long)u, (unsigned long long)v);
				}
			}
		}
		ok(b && good, "%s: export then import: same counts and overflows, percentiles "
		   "within the microsecond rounding", files[f]);
		rtm_result_free(a);
		rtm_result_free(b);
		free(text);
	}
	/* CSV */
	{
		struct rtm_result *r = imp("cyclictest-break-h200.txt", NULL);
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		uint64_t sum = 0;
		char *line;

		if (r) {
			rtm_export_csv(r, m);
			fclose(m);
			ok(!strncmp(buf, "cpu,lo_ns,hi_ns,count\n", 22), "CSV: header");
			for (line = strchr(buf, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
				int cpu;
				unsigned long long lo, hi, n;

				if (sscanf(line, "%d,%llu,%llu,%llu", &cpu, &lo, &hi, &n) == 4 &&
				    lo <= hi)
					sum += n;
			}
			is_u64(sum, r->cpus[0].raw->count + r->cpus[1].raw->count,
			       "CSV: the buckets add up to the samples");
		} else {
			fclose(m);
		}
		free(buf);
		rtm_result_free(r);
	}
}

/* The "thread" entries of an export, without what differs by design. */
static json_t *threads_of(const json_t *j)
{
	return json_deep_copy(json_object_get(j, "thread"));
}

/*
 * Export then import then export again writes the same threads (rows, cycles,
 * min, avg, max) byte for byte; an rt-tests JSON source's own threads come
 * back as they were, with its "cmdline:".
 */
static void test_round_trip_exact(void)
{
	static const struct {
		const char *file;
		bool json;	/* compare with the source's own "thread" */
	} files[] = {
		{ "cyclictest-h100.json", true }, { "cyclictest-loaded-h400.json", true },
		{ "cyclictest-smp-h100.json", true }, { "cyclictest-loaded-h400.txt", false },
		{ "cyclictest-idle-h2000.txt", false },
		{ "cyclictest-loaded-h50.txt", false }, { "rtla-timerlat-hist-us.txt", false },
	};
	size_t f;

	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct rtm_error err = { "" };
		struct rtm_result *a = imp(files[f].file, NULL), *b = NULL;
		json_t *j1, *j2 = NULL, *t1, *t2 = NULL;
		char *text;

		if (!ok(a != NULL, "%s: imports", files[f].file))
			continue;
		j1 = rtm_export_cyclictest_json(a, "rtmeasure export --cyclictest-json x");
		text = json_dumps(j1, 0);
		b = rtm_import_buffer(text, strlen(text), "export.json", NULL, &err);
		free(text);
		if (b)
			j2 = rtm_export_cyclictest_json(b, "rtmeasure export --cyclictest-json y");
		t1 = threads_of(j1);
		t2 = threads_of(j2);
		ok(b && json_equal(t1, t2), "%s: export, import, export: the same rows, cycles, "
		   "min, avg and max", files[f].file);
		if (files[f].json) {
			char *src = slurp(files[f].file, NULL);
			json_t *root = json_loads(src, 0, NULL), *ts = threads_of(root);

			/* rtmeasure writes avg rounded to 0.01 us, cyclictest to 0.01 too */
			ok(json_equal(ts, t1), "%s: the export has the source's own threads "
			   "(every row count, cycles, min, avg, max, cpu, node)", files[f].file);
			ok(!strcmp(json_string_value(json_object_get(j1, "cmdline:")) ?: "",
				   json_string_value(json_object_get(root, "cmdline:")) ?: "-"),
			   "%s: the export keeps the source's \"cmdline:\"", files[f].file);
			json_decref(ts);
			json_decref(root);
			free(src);
		}
		json_decref(t1);
		json_decref(t2);
		json_decref(j1);
		json_decref(j2);
		rtm_result_free(a);
		rtm_result_free(b);
	}
}

/* A measured result: the max lies in the top row, the min in the bottom one. */
static void test_export_extremes(void)
{
	struct rtm_result *r = rtm_result_alloc("cyclic");
	struct rtm_result_cpu *c = r ? rtm_result_add_cpu(r, 0, false, 0) : NULL;
	json_t *j, *h;
	const char *k;
	json_t *v;
	uint64_t top = 0, bottom = UINT64_MAX, sum = 0;

	if (!ok(c != NULL, "extremes: a result"))
		return;
	/* 3488.9 us shares a bucket whose midpoint is row 3485 */
	rtm_hist_record_n(c->raw, 50000, 100);
	rtm_hist_record(c->raw, 3488900);
	rtm_hist_record(c->raw, 3482000);
	rtm_hist_record(c->raw, 300700);	/* bucket [300032, 301055]: midpoint 300.5 */
	rtm_hist_record_n(c->raw, 300900, 3);
	j = rtm_export_cyclictest_json(r, NULL);
	h = json_object_get(json_object_get(json_object_get(j, "thread"), "0"), "histogram");
	json_object_foreach(h, k, v) {
		uint64_t u = strtoull(k, NULL, 10);

		top = u > top ? u : top;
		bottom = u < bottom ? u : bottom;
		sum += (uint64_t)json_integer_value(v);
	}
	is_u64(top, 3488, "extremes: the top row is the max's (3488 us), not its bucket's "
	       "midpoint (3485)");
	is_u64((uint64_t)json_integer_value(json_object_get(json_object_get(
		json_object_get(j, "thread"), "0"), "max")), top,
	       "extremes: \"max\" is the top row");
	is_u64(bottom, 50, "extremes: the bottom row is the min's");
	is_u64(sum, 106, "extremes: every sample in a row");
	json_decref(j);
	rtm_result_free(r);
}

/* ------------------------------------------------------------ overflow: unknown figures */

/*
 * cyclictest -h 400 under load: 4-5% of the samples lie above 400 us with no
 * known value. The summary counts them, takes cyclictest's own avg, gives the
 * percentiles whose rank lies in the rows (by hand over the full count) and
 * marks the others unknown: ">400" in the table, null plus a reason in JSON.
 */
static void test_overflow_unknown(void)
{
	static const char *const keys[RTM_SUMMARY_NPCT] = {
		"p50_ns", "p90_ns", "p99_ns", "p99.9_ns", "p99.99_ns", "p99.999_ns",
	};
	char *text = slurp("cyclictest-loaded-h400.txt", NULL), *out = NULL;
	struct rtm_result *r = imp("cyclictest-loaded-h400.txt", NULL);
	struct rtm_summary_row *rows = NULL;
	const uint64_t avg_us[2] = { 113, 99 };
	uint64_t total = 0;
	struct ref ref;
	json_t *j;
	size_t len;
	FILE *m;
	int c, k, n;

	if (!text || !r) {
		free(text);
		rtm_result_free(r);
		return;
	}
	ref_cyclictest(text, 2, &ref);
	n = rtm_summary_rows(r, false, &rows);
	ok(n == 3, "h400: two threads and all");
	for (c = 0; c < 2 && n == 3; c++) {
		uint64_t in_rows = ref_count(&ref, c) - 1, N = in_rows + ref.overflow[c];

		total += N;
		is_u64(rows[c].samples, N, "h400: thread samples = rows + overflows");
		ok(fabs(rows[c].avg_ns - (double)avg_us[c] * 1000) < 1e-6,
		   "h400: thread %d avg is cyclictest's own (%llu us), not the rows' mean", c,
		   (unsigned long long)avg_us[c]);
		is_u64(rows[c].beyond_ns, 400000, "h400: unknown figures lie above 400 us");
		ok(!rtm_summary_pct_known(&rows[c], 2), "h400: thread %d p99 is unknown", c);
		for (k = 0; k < RTM_SUMMARY_NPCT; k++) {
			double p = rtm_summary_pcts[k];
			uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)N - 1e-9);

			if (rank == N)
				ok(rtm_summary_pct_known(&rows[c], k) &&
				   rows[c].pct_ns[k] == rows[c].max_ns,
				   "h400: thread %d p%g: the top rank is the stated max", c,
				   rtm_summary_pcts[k]);
			else if (rank <= in_rows)
				ok(rtm_summary_pct_known(&rows[c], k) &&
				   close_to(rows[c].pct_ns[k],
					    ref_pct_n(&ref, c, rtm_summary_pcts[k], N)),
				   "h400: thread %d p%g known: %llu ns ~ by hand %llu ns", c,
				   rtm_summary_pcts[k], (unsigned long long)rows[c].pct_ns[k],
				   (unsigned long long)ref_pct_n(&ref, c, rtm_summary_pcts[k], N));
			else
				ok(!rtm_summary_pct_known(&rows[c], k) && !rows[c].pct_ns[k],
				   "h400: thread %d p%g unknown (rank %llu of %llu beyond the "
				   "%llu in rows)", c, p, (unsigned long long)rank,
				   (unsigned long long)N, (unsigned long long)in_rows);
		}
	}
	if (n == 3) {
		double want = (113000.0 * (double)rows[0].samples +
			       99000.0 * (double)rows[1].samples) / (double)total;

		is_u64(rows[2].samples, total, "h400: all: every sample counted");
		ok(fabs(rows[2].avg_ns - want) < 1e-3,
		   "h400: all: avg weighs the threads' own");
		ok(!rtm_summary_pct_known(&rows[2], 2), "h400: all: p99 unknown");
	}
	free(rows);

	m = open_memstream(&out, &len);
	rtm_summary_fprint(r, m);
	fclose(m);
	ok(out && strstr(out, "\n0          19775      17.5     113.0      52.5      >400      >400"
			      "         -   16965.5"),
	   "h400: the table shows >400 for p99 and p99.9, '-' for p99.99 (19775 samples), "
	   "cyclictest's avg, every sample");
	ok(out && !strstr(out, "min, avg and max exact"), "h400: no claim of exactness");
	free(out);

	j = rtm_summary_to_json(r);
	{
		const json_t *c0 = json_array_get(json_object_get(j, "cpus"), 0);
		const json_t *why = json_object_get(json_object_get(c0, "unknown"), "p99_ns");

		ok(json_is_null(json_object_get(c0, "p99_ns")) && json_is_string(why) &&
		   strstr(json_string_value(why), "1048 of 19775 samples") &&
		   json_is_integer(json_object_get(c0, "p50_ns")),
		   "h400: JSON: p99_ns null, with the reason in \"unknown\" (%s)",
		   json_string_value(why) ?: "none");
		for (k = 0; k < RTM_SUMMARY_NPCT; k++)
			ok(json_is_null(json_object_get(c0, keys[k])) ==
			   json_is_string(json_object_get(json_object_get(c0, "unknown"), keys[k])),
			   "h400: JSON %s: null exactly when \"unknown\" says why", keys[k]);
	}
	json_decref(j);
	rtm_result_free(r);
	free(text);
}

/* ------------------------------------------------------------ the source's command line */

static struct rtm_result *imp_cmdline(const char *cmdline)
{
	struct rtm_error err = { "" };
	char *text = slurp("cyclictest-h100.json", NULL), *t2, old[128];
	struct rtm_result *r;

	snprintf(old, sizeof(old), "\"%s\"",
		 "cyclictest -m -p95 -a 0-1 -t2 -h 100 -D 10 -q --json=ct-json-h100.json");
	{
		char nw[512];

		snprintf(nw, sizeof(nw), "\"%s\"", cmdline);
		t2 = edit(text ? text : "", NULL, old, nw);
	}
	r = rtm_import_buffer(t2, strlen(t2), "cmdline.json", NULL, &err);
	if (!r)
		diag("%s", err.msg);
	free(text);
	free(t2);
	return r;
}

static void test_cmdline(void)
{
	static const struct {
		const char *cmdline;
		long long interval_ns, prio, above_ns;
		const char *policy, *cpus;
	} cases[] = {
		{ "cyclictest -m -p95 -a 0-1 -t2 -h 100 -D 10 -q --json=x.json", 1000000, 95,
		  100000, "fifo", "0-1" },
		{ "cyclictest -mp80 --interval=250 -a0 -D 1m -h 100", 250000, 80, 100000, "fifo",
		  "0" },
		{ "/usr/bin/cyclictest -i 200 --priority 90 --policy=rr --affinity 1 "
		  "--histogram=64", 200000, 90, 64000, "rr", "1" },
		/* no -a: the threads' "cpu" still name them */
		{ "cyclictest -t2 -h 100", 1000000, 0, 100000, "other", "0-1" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rtm_result *r = imp_cmdline(cases[i].cmdline);
		struct rtm_summary_row *rows = NULL;
		const json_t *o = r ? r->options : NULL;

		if (!ok(r != NULL, "cmdline '%s': imports", cases[i].cmdline))
			continue;
		ok(json_integer_value(json_object_get(o, "interval_ns")) == cases[i].interval_ns &&
		   json_integer_value(json_object_get(json_object_get(o, "sched"), "priority")) ==
		   cases[i].prio &&
		   !strcmp(json_string_value(json_object_get(json_object_get(o, "sched"),
							     "policy")) ?: "", cases[i].policy),
		   "cmdline '%s': interval %lld ns, %s %lld", cases[i].cmdline,
		   cases[i].interval_ns, cases[i].policy, cases[i].prio);
		ok(cases[i].cpus ? !strcmp(json_string_value(json_object_get(o, "cpus")) ?: "",
					   cases[i].cpus) : !json_object_get(o, "cpus"),
		   "cmdline '%s': CPUs %s", cases[i].cmdline, cases[i].cpus ?: "not stated");
		ok(json_integer_value(pget(r, "overflow_above_ns")) == cases[i].above_ns &&
		   rtm_summary_rows(r, false, &rows) == 3 && rows[0].beyond_ns ==
		   (uint64_t)cases[i].above_ns, "cmdline '%s': overflows from -h: %lld ns",
		   cases[i].cmdline, cases[i].above_ns);
		free(rows);
		rtm_result_free(r);
	}
	/* text: no command line, nothing asserted */
	{
		struct rtm_result *r = imp("cyclictest-loaded-h400.txt", NULL);

		ok(r && !json_object_get(r->options, "interval_ns") &&
		   !json_object_get(r->options, "sched") && !r->duration_ns,
		   "text: no command line, so no interval, scheduling or duration");
		rtm_result_free(r);
	}
}

/* ------------------------------------------------------------ bad inputs */

static void expect_fail(const char *what, const char *text, size_t len, const char *name)
{
	struct rtm_error err = { "" };
	struct rtm_result *r;

	errno = 0;
	r = rtm_import_buffer(text, len, name, NULL, &err);
	ok(!r && errno == EINVAL && one_line(err.msg) && strstr(err.msg, name),
	   "%s: refused, one line naming the file (%s)", what, err.msg);
	rtm_result_free(r);
}

/* refused as above, for the reason @why names */
static void expect_fail_why(const char *what, const char *text, size_t len, const char *name,
			    const char *why)
{
	struct rtm_error err = { "" };
	struct rtm_result *r;

	errno = 0;
	r = rtm_import_buffer(text, len, name, NULL, &err);
	ok(!r && errno == EINVAL && one_line(err.msg) && strstr(err.msg, name) &&
	   strstr(err.msg, why), "%s: refused, one line naming the file and '%s' (%s)", what,
	   why, err.msg);
	rtm_result_free(r);
}

/* @text with the first @old after @after replaced by @new */
static char *edit(const char *text, const char *after, const char *old, const char *new)
{
	const char *a = after ? strstr(text, after) : text;
	const char *p = a ? strstr(a, old) : NULL;
	char *out;

	if (!p)
		return strdup("");
	out = malloc(strlen(text) + strlen(new) + 1);
	sprintf(out, "%.*s%s%s", (int)(p - text), text, new, p + strlen(old));
	return out;
}

static void test_bad_inputs(void)
{
	static const char *const all[] = {
		"cyclictest-idle-h2000.txt", "cyclictest-histofall-h400.txt",
		"cyclictest-loaded-h50.txt", "cyclictest-loaded-h50-sparse.txt",
		"cyclictest-break-h200.txt", "cyclictest-h100.json", "oslat.json",
		"rtla-timerlat-hist-us.txt", "rtla-timerlat-hist-ns.txt",
		"rtla-osnoise-hist-us.txt",
	};
	static const char pi_json[] =
		"{\"cmdline:\": \"pi_stress -D 5\", \"thread\": {\"0\": {\"inversion\": 3}}}";
	static const unsigned char png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0 };
	char name[96], *t, *e;
	size_t i, len;

	expect_fail("empty", "", 0, "empty.txt");
	expect_fail("only blank lines", "\n \n\t\n", 5, "blank.txt");
	expect_fail("binary (PNG)", (const char *)png, sizeof(png), "plot.png");
	expect_fail("plain text", "hello\nworld\n", 12, "notes.txt");
	expect_fail("other JSON", "{\"a\": 1}", 8, "other.json");
	expect_fail("rt-tests JSON of pi_stress", pi_json, strlen(pi_json), "pi.json");
	t = slurp("../results/golden-v1/result.json", &len);
	if (t) {
		struct rtm_error err = { "" };
		struct rtm_result *r;

		expect_fail("an rtmeasure result", t, len, "result.json");
		r = rtm_import_buffer(t, len, "result.json", NULL, &err);
		ok(!r && strstr(err.msg, "already an rtmeasure result"),
		   "a whole rtmeasure result: 'already an rtmeasure result' (%s)", err.msg);
		rtm_result_free(r);
		/* cut short, it says so, not that it is a result to read as it is */
		expect_fail("a truncated rtmeasure result", t, len / 2, "result.json");
		r = rtm_import_buffer(t, len / 2, "result.json", NULL, &err);
		ok(!r && strstr(err.msg, "is a truncated or corrupt rtmeasure result") &&
		   !strstr(err.msg, "already"), "a truncated rtmeasure result says it is truncated "
		   "(%s)", err.msg);
		rtm_result_free(r);
	}
	free(t);
	t = slurp("../irq/vm-6.18-t0/proc/interrupts", &len);
	if (t)
		expect_fail("/proc/interrupts", t, len, "interrupts");
	free(t);

	/* every recorded file cut in half, and cut before its last line */
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		t = slurp(all[i], &len);
		if (!t)
			continue;
		snprintf(name, sizeof(name), "half-%s", all[i]);
		expect_fail("truncated at half", t, len / 2, name);
		snprintf(name, sizeof(name), "cut-%s", all[i]);
		{
			size_t cut = len - 2;

			while (cut > 0 && t[cut - 1] != '\n')
				cut--;
			/* the last lines of cyclictest's text are the overflow cycles and -b
			 * lines, which add nothing: cut before "# Max Latencies:" instead */
			if (strstr(t, "# Max Latencies:") && !strstr(all[i], "json"))
				cut = (size_t)(strstr(t, "# Max Latencies:") - t);
			if (strstr(t, "\nover:"))
				cut = (size_t)(strstr(t, "\nover:") - t) + 1;
			expect_fail("truncated before the trailer", t, cut, name);
		}
		free(t);
	}

	/* corrupt values */
	t = slurp("cyclictest-idle-h2000.txt", NULL);
	if (t) {
		e = edit(t, "\n000029 ", "\t", "\tx");
		expect_fail("cyclictest: a letter in a row", e, strlen(e), "bad-row.txt");
		free(e);
		e = edit(t, "# Total: ", "000009999", "000009998");
		expect_fail("cyclictest: rows do not add up to # Total", e, strlen(e),
			    "bad-total.txt");
		free(e);
		e = edit(t, "\n000030 ", "\n000031 ", "\n000029 ");
		expect_fail("cyclictest: rows out of order", e, strlen(e), "bad-order.txt");
		free(e);
		e = edit(t, "\n000030 ", "\t", "\t1\t");
		expect_fail("cyclictest: a row with an extra column", e, strlen(e),
			    "bad-cols.txt");
		free(e);
		free(t);
	}
	t = slurp("cyclictest-histofall-h400.txt", NULL);
	if (t) {
		e = edit(t, "\n000029 ", "\t", "\t1");
		expect_fail("cyclictest -H: all column is not the sum", e, strlen(e),
			    "bad-all.txt");
		free(e);
		free(t);
	}
	t = slurp("cyclictest-h100.json", NULL);
	if (t) {
		e = edit(t, NULL, "\"cycles\": 9987", "\"cycles\": 12");
		expect_fail("JSON: fewer cycles than histogram samples", e, strlen(e),
			    "bad-cycles.json");
		free(e);
		e = edit(t, NULL, "\"7\": 1", "\"seven\": 1");
		expect_fail("JSON: a histogram key that is not a number", e, strlen(e),
			    "bad-key.json");
		free(e);
		/* values no 64-bit ns count holds (libFuzzer found the first: undefined
		 * behaviour converting it) */
		e = edit(t, NULL, "\"max\": 4742", "\"max\": 9.77778e+65");
		expect_fail_why("JSON: a max beyond 2^64 ns", e, strlen(e), "big-max.json",
				"beyond 2^64 ns");
		free(e);
		e = edit(t, NULL, "\"max\": 4742", "\"max\": 18446744073709552");
		expect_fail_why("JSON: a max beyond 2^64 ns by one us", e, strlen(e),
				"big-max2.json", "beyond 2^64 ns");
		free(e);
		e = edit(t, NULL, "\"avg\": ", "\"avg\": 1e300, \"x\": ");
		expect_fail_why("JSON: an avg beyond 2^64 ns", e, strlen(e), "big-avg.json",
				"beyond 2^64 ns");
		free(e);
		e = edit(t, NULL, "\"num_threads\": 2", "\"num_threads\": 3");
		expect_fail("JSON: num_threads does not match", e, strlen(e), "bad-n.json");
		free(e);
		free(t);
	}
	t = slurp("oslat.json", NULL);
	if (t) {
		e = edit(t, NULL, "\"duration\": 9.996", "\"duration\": 1e300");
		expect_fail_why("oslat JSON: a duration beyond 2^63 ns", e, strlen(e),
				"big-dur.json", "beyond 2^63 ns");
		free(e);
		e = edit(t, NULL, "\"max\": 56013", "\"max\": 1e20");
		expect_fail_why("oslat JSON: a max beyond 2^64 ns", e, strlen(e),
				"big-omax.json", "beyond 2^64 ns");
		free(e);
		free(t);
	}
	t = slurp("cyclictest-idle-h2000.txt", NULL);
	if (t) {
		e = edit(t, "# Max Latencies:", "01028", "18446744073709552");
		expect_fail_why("cyclictest: a max that wraps in ns", e, strlen(e),
				"big-max.txt", "beyond 2^64 ns");
		free(e);
		free(t);
	}
	t = slurp("rtla-timerlat-hist-us.txt", NULL);
	if (t) {
		e = edit(t, "count:", "8096", "8097");
		expect_fail_why("rtla: rows + over != count", e, strlen(e), "bad-count.txt",
				"add up to");
		free(e);
		e = edit(t, "max:", "16429", "18446744073709552");
		expect_fail_why("rtla: a max that wraps in ns", e, strlen(e), "big-max-rtla.txt",
				"beyond 2^64 ns");
		free(e);
		e = edit(t, NULL, "# Time unit is microseconds (us)\n", "");
		expect_fail("rtla: no time unit", e, strlen(e), "no-unit.txt");
		free(e);
		e = edit(t, NULL, "Index   ", "");
		expect_fail("rtla: --no-index", e, strlen(e), "no-index.txt");
		free(e);
		e = edit(t, "\nover:", "\n", "\n12 1 2\n");
		expect_fail("rtla: a short row among the summary", e, strlen(e), "bad-sum.txt");
		free(e);
		free(t);
	}
}

int main(void)
{
	datadir = getenv("RTM_TESTDATA");
	if (!datadir)
		datadir = RTM_SRCDIR "/tests/data";

	test_cyclictest_text();
	test_json();
	test_rtla();
	test_round_trip();
	test_round_trip_exact();
	test_export_extremes();
	test_overflow_unknown();
	test_cmdline();
	test_bad_inputs();
	return tap_done();
}
