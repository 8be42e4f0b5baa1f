// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: rtmeasure import of noise tools' output recorded in the kernel
 * lab (tests/data/import, see its README.md): rtla osnoise top (-q and the
 * refreshing screen), rtla osnoise hist and hwlatdetect (stdout and --report
 * file) as noise results, each figure checked against the file's own text read
 * here with sscanf; and corrupt and truncated inputs refused in one line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/fileio.h"
#include "core/hist.h"
#include "result/import.h"
#include "../tap.h"

static const char *datadir;

/* tap.h's is_* with a printf-style name */
#define IS_INT(got, want, ...) do { char _n[256]; snprintf(_n, sizeof(_n), __VA_ARGS__); \
	is_int(got, want, _n); } while (0)
#define IS_U64(got, want, ...) do { char _n[256]; snprintf(_n, sizeof(_n), __VA_ARGS__); \
	is_u64(got, want, _n); } while (0)
#define IS_STR(got, want, ...) do { char _n[256]; snprintf(_n, sizeof(_n), __VA_ARGS__); \
	is_str(got, want, _n); } while (0)

/* A recorded file under tests/data/import, whole (NULL when it cannot be read). */
static char *slurp(const char *name, size_t *len)
{
	char path[4096];

	snprintf(path, sizeof(path), "import/%s", name);
	return rtm_read_all(datadir, path, len);
}

static struct rtm_result *imp_text(const char *text, size_t len, const char *name)
{
	struct rtm_error err = { "" };
	struct rtm_result *r = rtm_import_buffer(text, len, name, NULL, &err);

	if (!ok(r != NULL, "%s imports", name))
		diag("%s", err.msg);
	return r;
}

static const json_t *noise(const struct rtm_result *r)
{
	return json_object_get(r->sections, "noise");
}

static const json_t *ncpu(const struct rtm_result *r, size_t i)
{
	return json_array_get(json_object_get(noise(r), "cpus"), i);
}

static long long ival(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static bool is_null_key(const json_t *o, const char *key)
{
	return json_is_null(json_object_get(o, key));
}

static const char *prov(const struct rtm_result *r, const char *key)
{
	return json_string_value(json_object_get(json_object_get(r->sections, "provenance"),
						 key));
}

/* ------------------------------------------------------------ rtla osnoise top */

struct top_ref {
	int cpu;
	unsigned long long periods, runtime, noise, max_noise, max_single, cnt[5];
	double avail;
};

/* The last @n CPU rows of the file (the last screen), by hand. */
static int top_rows(const char *text, struct top_ref *t, int n)
{
	const char *p = text;
	int got = 0;

	while (p && *p) {
		struct top_ref x;

		if (sscanf(p, "%d #%llu %llu %llu %lf %llu %llu %llu %llu %llu %llu %llu", &x.cpu,
			   &x.periods, &x.runtime, &x.noise, &x.avail, &x.max_noise,
			   &x.max_single, &x.cnt[0], &x.cnt[1], &x.cnt[2], &x.cnt[3],
			   &x.cnt[4]) == 12)
			t[got++ % n] = x;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return got;
}

static void check_top(const char *name, long long duration_s)
{
	static const char *const keys[] = { "hw", "nmi", "irq", "softirq", "thread" };
	struct top_ref t[2];
	struct rtm_result *r;
	size_t len;
	char *text = slurp(name, &len);
	int c, k;

	if (!ok(text != NULL, "%s readable", name))
		return;
	ok(rtm_import_detect(text, len) == RTM_IMPORT_RTLA_OSNOISE_TOP, "%s: detected as rtla "
	   "osnoise top", name);
	ok(top_rows(text, t, 2) >= 2, "%s: two CPU rows by hand", name);
	r = imp_text(text, len, name);
	if (r) {
		IS_INT(r->ncpus, 0, "%s: a noise result, no wake-up latency entries", name);
		IS_STR(json_string_value(json_object_get(noise(r), "backend")), "osnoise-imported",
		       "%s: backend osnoise-imported", name);
		IS_STR(prov(r, "format"), "rtla-osnoise-top", "%s: format", name);
		IS_STR(r->tool, "rtla osnoise", "%s: tool", name);
		IS_INT(r->duration_ns, duration_s * 1000000000LL, "%s: duration of the last "
		       "screen", name);
		ok(is_null_key(noise(r), "window_ns") && is_null_key(noise(r), "width_ns") &&
		   is_null_key(noise(r), "threshold_ns"), "%s: period, runtime and threshold "
		   "settings unknown (not printed)", name);
		IS_INT((int)json_array_size(json_object_get(noise(r), "cpus")), 2, "%s: two CPUs",
		       name);
		for (c = 0; c < 2; c++) {
			const json_t *o = ncpu(r, (size_t)c), *in = json_object_get(o,
									"interference");
			bool counts = true;

			IS_INT(ival(o, "cpu"), t[c].cpu, "%s: CPU %d", name, c);
			IS_INT(ival(o, "sampled_ns"), (long long)t[c].runtime * 1000,
			       "%s: CPU %d runtime %llu us", name, c, t[c].runtime);
			IS_INT(ival(o, "noise_ns"), (long long)t[c].noise * 1000,
			       "%s: CPU %d noise %llu us", name, c, t[c].noise);
			IS_INT(ival(o, "windows"), (long long)t[c].periods, "%s: CPU %d periods",
			       name, c);
			IS_INT(ival(o, "max_gap_ns"), (long long)t[c].max_single * 1000,
			       "%s: CPU %d max single noise", name, c);
			IS_INT(ival(o, "max_period_noise_ns"), (long long)t[c].max_noise * 1000,
			       "%s: CPU %d max noise", name, c);
			ok(json_real_value(json_object_get(o, "cpu_available_pct")) == t[c].avail,
			   "%s: CPU %d %% CPU available as printed (%.5f)", name, c, t[c].avail);
			for (k = 0; k < 5; k++)
				counts &= ival(in, keys[k]) == (long long)t[c].cnt[k];
			ok(counts, "%s: CPU %d HW/NMI/IRQ/softirq/thread counts", name, c);
			ok(is_null_key(o, "gaps") && is_null_key(o, "hist") &&
			   !json_object_get(o, "gap_list") && is_null_key(o, "loops"),
			   "%s: CPU %d noise count, lengths and loop unknown", name, c);
		}
	}
	rtm_result_free(r);
	free(text);
}

/* ------------------------------------------------------------ rtla osnoise hist */

static void check_hist(void)
{
	const char *name = "rtla-osnoise-hist-default.txt";
	unsigned long long count[2], max[2], over[2], sum[2] = { 0, 0 };
	struct rtm_error herr = { "" };
	struct rtm_hist *h = rtm_hist_alloc();
	struct rtm_result *r;
	const char *p;
	size_t len;
	char *text = slurp(name, &len);
	int c;

	if (!ok(text != NULL && h, "%s readable", name))
		goto out;
	for (p = strstr(text, "\nIndex"); p && (p = strchr(p + 1, '\n')) != NULL;) {
		unsigned long long idx, a, b;

		if (sscanf(p + 1, "%llu %llu %llu", &idx, &a, &b) != 3)
			break;
		sum[0] += a;
		sum[1] += b;
	}
	ok(sscanf(strstr(text, "\nover:") + 6, "%llu %llu", &over[0], &over[1]) == 2 &&
	   sscanf(strstr(text, "\ncount:") + 7, "%llu %llu", &count[0], &count[1]) == 2 &&
	   sscanf(strstr(text, "\nmax:") + 5, "%llu %llu", &max[0], &max[1]) == 2,
	   "%s: over, count and max by hand", name);
	r = imp_text(text, len, name);
	if (!r)
		goto out;
	IS_INT(r->ncpus, 0, "osnoise hist: a noise result");
	for (c = 0; c < 2; c++) {
		const json_t *o = ncpu(r, (size_t)c);

		IS_INT(ival(o, "gaps"), (long long)count[c], "osnoise hist: CPU %d noises = "
		       "count: (%llu)", c, count[c]);
		IS_INT(ival(o, "max_gap_ns"), (long long)(max[c] * 1000 + 500),
		       "osnoise hist: CPU %d max = max: at its midpoint", c);
		ok(is_null_key(o, "sampled_ns") && is_null_key(o, "noise_ns"),
		   "osnoise hist: CPU %d runtime and total noise unknown", c);
		if (!ok(!rtm_hist_from_json(h, json_object_get(o, "hist"), &herr),
			"osnoise hist: CPU %d histogram loads", c))
			diag("%s", herr.msg);
		IS_U64(h->count, sum[c] + (over[c] ? 1 : 0), "osnoise hist: CPU %d histogram = "
		       "rows + the known max (%llu overflowed)", c, over[c]);
		IS_U64(h->max_ns, max[c] * 1000 + 500, "osnoise hist: CPU %d histogram max", c);
	}
	IS_INT(r->duration_ns, 10000000000LL, "osnoise hist: duration");
	rtm_result_free(r);
out:
	rtm_hist_free(h);
	free(text);
}

/* ------------------------------------------------------------ hwlatdetect */

static void check_hwlat(const char *name, bool summary)
{
	unsigned long long sec, nsec, in, out, imax = 0, omax = 0, first = 0;
	struct rtm_result *r;
	const json_t *o, *list;
	const char *p;
	size_t len;
	char *text = slurp(name, &len);
	int n = 0;

	if (!ok(text != NULL, "%s readable", name))
		return;
	ok(rtm_import_detect(text, len) == RTM_IMPORT_HWLATDETECT, "%s: detected as "
	   "hwlatdetect", name);
	for (p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (sscanf(p, "ts: %llu.%llu, inner:%llu, outer:%llu", &sec, &nsec, &in,
			   &out) == 4) {
			if (!n++)
				first = sec * 1000000000ull + nsec;
			imax = in > imax ? in : imax;
			omax = out > omax ? out : omax;
		}
	r = imp_text(text, len, name);
	if (!r)
		goto out;
	o = ncpu(r, 0);
	list = json_object_get(o, "gap_list");
	IS_STR(json_string_value(json_object_get(noise(r), "backend")), "hwlat-imported",
	       "%s: backend hwlat-imported", name);
	IS_STR(prov(r, "format"), "hwlatdetect", "%s: format", name);
	IS_INT(ival(o, "cpu"), -1, "%s: the CPU is not named: cpu -1", name);
	IS_INT(ival(o, "samples"), n, "%s: %d samples", name, n);
	IS_INT(ival(o, "gaps"), n, "%s: one gap a sample", name);
	IS_INT(ival(o, "inner_max_ns"), (long long)imax * 1000, "%s: inner max %llu us", name,
	       imax);
	IS_INT(ival(o, "outer_max_ns"), (long long)omax * 1000, "%s: outer max %llu us", name,
	       omax);
	IS_INT(ival(o, "max_gap_ns"), (long long)(imax > omax ? imax : omax) * 1000,
	       "%s: max gap", name);
	ok(is_null_key(o, "nmi_count") && is_null_key(o, "nmi_total_ns") &&
	   is_null_key(o, "gaps_above_threshold") && is_null_key(o, "sampled_ns"),
	   "%s: NMIs, hwlat's count and runtime unknown", name);
	IS_INT((int)json_array_size(list), n, "%s: every sample in gap_list", name);
	ok(json_integer_value(json_array_get(json_array_get(list, 0), 0)) == 0 &&
	   json_integer_value(json_array_get(json_array_get(list, 0), 1)) == 500731000,
	   "%s: first gap at 0 s, 500731 us (its outer)", name);
	IS_INT(ival(noise(r), "start_realtime_ns"), (long long)first, "%s: first sample's "
	       "time", name);
	if (summary) {
		IS_INT(ival(noise(r), "threshold_ns"), 10000, "%s: threshold 10us", name);
		IS_INT(ival(noise(r), "window_ns"), 1000000000, "%s: window 1000000us", name);
		IS_INT(ival(noise(r), "width_ns"), 500000000, "%s: width 500000us", name);
		IS_INT(r->duration_ns, 10000000000LL, "%s: test duration 10 seconds", name);
		IS_INT(ival(o, "samples"), 9, "%s: 'Samples recorded: 9'", name);
	} else {
		ok(is_null_key(noise(r), "threshold_ns") && is_null_key(noise(r), "window_ns") &&
		   is_null_key(noise(r), "duration_ns"), "%s: settings unknown in the --report "
		   "file", name);
	}
	rtm_result_free(r);
out:
	free(text);
}

/* ------------------------------------------------------------ bad inputs */

static char *edit(const char *text, const char *old, const char *new)
{
	const char *at = strstr(text, old);
	size_t n;
	char *s;

	if (!at)
		return NULL;
	n = strlen(text) - strlen(old) + strlen(new);
	s = malloc(n + 1);
	snprintf(s, n + 1, "%.*s%s%s", (int)(at - text), text, new, at + strlen(old));
	return s;
}

static void expect_fail(const char *what, const char *text, size_t len, const char *why)
{
	struct rtm_error err = { "" };
	struct rtm_result *r;

	if (!text) {
		ok(0, "%s: the edit applies", what);
		return;
	}
	errno = 0;
	r = rtm_import_buffer(text, len, "bad.txt", NULL, &err);
	ok(!r && errno == EINVAL && !strchr(err.msg, '\n') && strstr(err.msg, "bad.txt") &&
	   strstr(err.msg, why), "%s: refused in one line (%s)", what, err.msg);
	rtm_result_free(r);
}

static void bad_inputs(void)
{
	char *top = slurp("rtla-osnoise-top-q.txt", NULL), *scr = slurp("rtla-osnoise-top.txt",
									  NULL);
	char *hw = slurp("hwlatdetect.txt", NULL), *e;
	const char *cut;

	if (!ok(top && scr && hw, "recordings readable"))
		goto out;
	/* cut inside the last CPU row */
	expect_fail("top cut in a row", top, strlen(top) - 30, "not rtla osnoise top");
	/* cut before the last screen's second CPU row */
	cut = strrchr(scr, '\n');
	while (cut > scr && cut[-1] != '\n')
		cut--;
	expect_fail("screen cut before its last CPU row", scr, (size_t)(cut - scr), "truncated");
	expect_fail("top: no CPU row", top, (size_t)(strstr(top, "  0 #") - top), "truncated");
	e = edit(top, "41.85007", "41.95007");
	expect_fail("top: % CPU available off", e, e ? strlen(e) : 0, "inconsistent");
	free(e);
	e = edit(top, "  1 #9 ", "  0 #9 ");
	expect_fail("top: a CPU twice", e, e ? strlen(e) : 0, "twice");
	free(e);
	e = edit(top, "5818034", "99818034");
	expect_fail("top: noise above runtime", e, e ? strlen(e) : 0, "inconsistent");
	free(e);
	e = edit(top, "Max Single", "Max Singel");
	expect_fail("top: unknown header", e, e ? strlen(e) : 0, "not rtla osnoise top");
	free(e);

	e = edit(hw, "ts: 1796469552.186573460, inner:967, outer:788\n", "");
	expect_fail("hwlatdetect: a sample line gone", e, e ? strlen(e) : 0, "truncated");
	free(e);
	expect_fail("hwlatdetect: cut before its summary", hw,
		    (size_t)(strstr(hw, "Max Latency") - hw), "truncated");
	e = edit(hw, "Max Latency: 505383us", "Max Latency: 505384us");
	expect_fail("hwlatdetect: Max Latency not the largest sample", e, e ? strlen(e) : 0,
		    "inconsistent");
	free(e);
	e = edit(hw, "inner:1082,", "inner:1x82,");
	expect_fail("hwlatdetect: corrupt sample", e, e ? strlen(e) : 0, "not hwlatdetect");
	free(e);
	e = edit(hw, "Samples exceeding threshold: 9", "Samples exceeding threshold: 8");
	expect_fail("hwlatdetect: samples exceeding not the sample lines", e, e ? strlen(e) : 0,
		    "inconsistent");
	free(e);
	e = edit(hw, "Samples recorded: 9", "Samples recorded: nine");
	expect_fail("hwlatdetect: corrupt summary", e, e ? strlen(e) : 0, "not hwlatdetect");
	free(e);
	expect_fail("hwlatdetect --report: one cut sample", "ts: 1796469547.965896220, inn", 29,
		    "not hwlatdetect");
	expect_fail("hwlatdetect --report: another tool's line after", "ts: 1.5, inner:1, "
		    "outer:2\nhello\n", 32, "not hwlatdetect");
out:
	free(top);
	free(scr);
	free(hw);
}

/* ------------------------------------------------------------ -F and detection */

static void formats(void)
{
	static const char quiet[] = "report saved to /out/r.txt (2 samples)\n"
		"ts: 1796469547.965896220, inner:42, outer:500731\n"
		"ts: 1796469549.627226780, inner:505383, outer:678, cpu:1\n";
	struct rtm_import_opts o = { NULL, false, 0, NULL, RTM_IMPORT_HWLATDETECT };
	struct rtm_error err = { "" };
	struct rtm_result *r;
	char *top = slurp("rtla-osnoise-top-q.txt", NULL);
	enum rtm_import_format f;
	bool names = true;

	for (f = RTM_IMPORT_CYCLICTEST_HIST; f <= RTM_IMPORT_HWLATDETECT; f++)
		names &= rtm_import_format_parse(rtm_import_format_name(f)) == f;
	ok(names && !rtm_import_format_parse("rtla"), "format names and back");
	ok(rtm_import_detect(quiet, strlen(quiet)) == RTM_IMPORT_HWLATDETECT,
	   "hwlatdetect --quiet --report's stdout ('report saved to') detected");
	/* a mix of lines with and without the CPU is refused, not guessed */
	expect_fail("hwlatdetect: cpu on some samples only", quiet, strlen(quiet),
		    "not hwlatdetect");
	r = rtm_import_buffer(top, top ? strlen(top) : 0, "top.txt", &o, &err);
	ok(!r && strstr(err.msg, "top.txt is not hwlatdetect output") &&
	   strstr(err.msg, "rtla-osnoise-top"), "-F hwlatdetect on rtla osnoise top: refused, "
	   "naming both (%s)", err.msg);
	rtm_result_free(r);
	o.format = RTM_IMPORT_RTLA_OSNOISE_TOP;
	r = rtm_import_buffer(top, top ? strlen(top) : 0, "top.txt", &o, &err);
	ok(r != NULL, "-F rtla-osnoise-top on its own format imports");
	rtm_result_free(r);
	free(top);
	{
		static const char cpus[] = "ts: 10.5, inner:3, outer:4, cpu:1\n"
			"ts: 11.5, inner:30, outer:4, cpu:0\nts: 12.5, inner:7, outer:40, cpu:1\n";

		r = rtm_import_buffer(cpus, strlen(cpus), "cpus.txt", NULL, &err);
		ok(r && json_array_size(json_object_get(noise(r), "cpus")) == 2 &&
		   ival(ncpu(r, 0), "cpu") == 0 && ival(ncpu(r, 1), "samples") == 2 &&
		   ival(ncpu(r, 1), "outer_max_ns") == 40000 &&
		   json_is_true(json_object_get(json_object_get(r->sections, "provenance"),
						"cpus_known")),
		   "sample lines with ', cpu:N': one entry per CPU");
		rtm_result_free(r);
	}
}

int main(void)
{
	datadir = getenv("RTM_TESTDATA");
	if (!datadir)
		datadir = RTM_SRCDIR "/tests/data";
	check_top("rtla-osnoise-top-q.txt", 10);
	check_top("rtla-osnoise-top.txt", 4);
	check_hist();
	check_hwlat("hwlatdetect.txt", true);
	check_hwlat("hwlatdetect-report.txt", false);
	bad_inputs();
	formats();
	return tap_done();
}
