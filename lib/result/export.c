// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * export.c - a result as rt-tests (cyclictest --json) JSON and as CSV.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/jsonutil.h"
#include "result/disturb.h"
#include "result/export.h"

/* sections.provenance.cpus entry of @cpu, or NULL (not an import) */
static const json_t *prov_cpu(const struct rtm_result *r, int cpu)
{
	const json_t *cpus = json_object_get(json_object_get(r->sections, "provenance"), "cpus");
	const json_t *e;
	size_t i;

	json_array_foreach(cpus, i, e)
		if (json_integer_value(json_object_get(e, "cpu")) == cpu)
			return e;
	return NULL;
}

static uint64_t juint(const json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));

	return v > 0 ? (uint64_t)v : 0;
}

/* "Thu, 03 Dec 2026 13:08:28 +0000" of @iso (+ @add_ns); NULL when @iso is not ISO 8601 */
static json_t *rfc2822(const char *iso, uint64_t add_ns)
{
	struct tm tm;
	char buf[64];
	time_t t;

	memset(&tm, 0, sizeof(tm));
	if (!iso || !strptime(iso, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return NULL;
	t = timegm(&tm) + (time_t)(add_ns / 1000000000ull);
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	return json_string(buf);
}

static json_t *sysinfo(const json_t *si)
{
	const json_t *k = json_object_get(si, "kernel");
	const char *model = json_string_value(json_object_get(json_object_get(k, "preempt"),
							      "model"));
	json_t *o = json_object();

#define COPY(dst, src) json_object_set_new(o, dst, json_string(json_string_value(src) ?: ""))
	json_object_set_new(o, "sysname", json_string("Linux"));
	COPY("nodename", json_object_get(si, "hostname"));
	COPY("release", json_object_get(k, "release"));
	COPY("version", json_object_get(k, "version"));
	COPY("machine", json_object_get(json_object_get(si, "cpu"), "arch"));
#undef COPY
	json_object_set_new(o, "realtime", json_integer(model && !strcmp(model, "rt")));
	return o;
}

/* Add @n samples to the microsecond row @us of @rows. */
static void add_row(json_t *rows, uint64_t us, uint64_t n)
{
	char key[24];

	if (!n)
		return;
	snprintf(key, sizeof(key), "%llu", (unsigned long long)us);
	json_object_set_new(rows, key, json_integer(json_integer_value(json_object_get(rows, key)) +
						    (json_int_t)n));
}

/*
 * The microsecond rows of one CPU from our histogram, without the extremes an
 * import placed from beyond its rows; returns the samples in the rows. The
 * lowest and the highest sample go to the rows of the exact min and max (a
 * bucket's midpoint can lie a few rows below the max above ~256 us), so that
 * the max lies in the top row as in cyclictest's own files.
 */
static uint64_t hist_rows(const struct rtm_hist *h, uint64_t take_max, uint64_t take_min,
			  json_t *rows)
{
	struct rtm_hist_bucket b;
	unsigned int pos = 0;
	uint64_t total = 0, seen = 0;

	while (rtm_hist_next(h, &pos, &b)) {
		uint64_t u = rtm_hist_bucket_value(h, &b) / 1000, n = b.count;

		if (seen == 0 && n) {
			n--;		/* the lowest sample */
			if (!take_min) {
				add_row(rows, h->min_ns / 1000, 1);
				total++;
			}
		}
		seen += b.count;
		if (seen == h->count && n) {
			n--;		/* the highest sample */
			if (!take_max) {
				add_row(rows, h->max_ns / 1000, 1);
				total++;
			}
		}
		add_row(rows, u, n);
		total += n;
	}
	return total;
}

/*
 * An import's own rows (provenance "rows", [lo_ns, count]) as microsecond rows,
 * when every row lies within one microsecond row (rows of 1 us, or of a divisor
 * of it); returns the samples in the rows, or -1 when they do not fit.
 */
static int64_t source_rows(const json_t *prov, const json_t *pc, json_t *rows)
{
	json_int_t w = json_integer_value(json_object_get(prov, "row_width_ns"));
	const json_t *src = json_object_get(pc, "rows"), *e;
	uint64_t total = 0;
	size_t i;

	if (!json_is_array(src) || w <= 0 || w > 1000 || 1000 % w)
		return -1;
	json_array_foreach(src, i, e) {
		json_int_t lo = json_integer_value(json_array_get(e, 0));
		json_int_t n = json_integer_value(json_array_get(e, 1));

		if (lo < 0 || n < 0)
			return -1;
		add_row(rows, (uint64_t)lo / 1000, (uint64_t)n);
		total += (uint64_t)n;
	}
	return (int64_t)total;
}

/* An import's stated average in us: the source's own figure; NAN when it has none. */
static double source_avg_us(const json_t *prov, const json_t *pc)
{
	const json_t *a = json_object_get(pc, "avg");
	const char *unit = json_string_value(json_object_get(prov, "unit"));

	if (!json_is_number(a))
		return NAN;
	return json_number_value(a) / (unit && !strcmp(unit, "ns") ? 1000.0 : 1.0);
}

/* One entry of cyclictest's "thread" object: a CPU's rows in us, its count and extremes. */
static json_t *thread_json(const struct rtm_result *r, const struct rtm_result_cpu *c,
			   const json_t *prov, bool threads)
{
	const struct rtm_hist *h = c->raw;
	const json_t *pc = prov_cpu(r, c->cpu);
	uint64_t placed = juint(pc, "overflows_placed"), over = juint(pc, "overflows");
	uint64_t in_rows, cycles;
	json_t *rows = json_object();
	int64_t srows = pc ? source_rows(prov, pc, rows) : -1;
	double avg = pc ? source_avg_us(prov, pc) : NAN;
	const json_t *node = json_object_get(pc, "node");

	if (placed > h->count)
		placed = h->count;
	if (srows >= 0) {
		in_rows = (uint64_t)srows;
	} else {
		json_object_clear(rows);
		in_rows = hist_rows(h, placed >= 1, placed >= 2, rows);
	}
	cycles = in_rows + (over > placed ? over : placed);
	if (pc && json_is_integer(json_object_get(pc, "count")))
		cycles = juint(pc, "count");
	/* the hist's mean is the run's only when nothing lies beyond the rows */
	if (isnan(avg) && over <= placed)
		avg = round(rtm_hist_mean(h) / 10.0) / 100.0;
	return json_pack("{s:o, s:I, s:I, s:I, s:o, s:i, s:i}",
		"histogram", rows,
		"cycles", (json_int_t)cycles,
		"min", (json_int_t)(h->count ? h->min_ns / 1000 : 0),
		"max", (json_int_t)(h->max_ns / 1000),
		"avg", isnan(avg) ? json_null() : json_real(avg),
		"cpu", threads ? -1 : c->cpu,
		"node", json_is_integer(node) ? (int)json_integer_value(node) : 0);
}

json_t *rtm_export_cyclictest_json(const struct rtm_result *r, const char *cmdline)
{
	const json_t *prov = json_object_get(r->sections, "provenance");
	bool threads = prov && json_is_false(json_object_get(prov, "cpus_known"));
	const char *src_cmd = json_string_value(json_object_get(prov, "command_line"));
	const char *src_ver = json_string_value(json_object_get(prov, "version"));
	const char *export_cmd;
	struct rtm_disturbances d;
	json_t *root, *th = json_object(), *start, *end;
	char cmd[128];
	int i;

	if (!th)
		return NULL;
	for (i = 0; i < r->ncpus; i++) {
		char key[16];

		snprintf(key, sizeof(key), "%d", i);
		json_object_set_new(th, key, thread_json(r, &r->cpus[i], prov, threads));
	}
	if (!cmdline) {
		snprintf(cmd, sizeof(cmd), "%s %s", r->tool, r->command);
		cmdline = cmd;
	}
	export_cmd = cmdline;
	/* cyclictest's own command line, as it wrote it; another tool's would make
	 * readers take the file for that tool's layout (oslat's rows differ) */
	if (src_cmd && !strcmp(json_string_value(json_object_get(prov, "tool")) ?: "",
			       "cyclictest"))
		cmdline = src_cmd;
	start = rfc2822(r->created, 0);
	end = rfc2822(r->created, r->duration_ns);
	/* a command line as typed may hold bytes that are not UTF-8 */
	root = json_pack("{s:i, s:o}", "file_version", 1, "cmdline:", rtm_json_text(cmdline));
	if (!root) {
		json_decref(start);
		json_decref(end);
		json_decref(th);
		return NULL;
	}
	/* rt-tests' version only for cyclictest's own run; who wrote the file is "generator" */
	if (cmdline == src_cmd && src_ver)
		json_object_set_new(root, "rt_test_version:", json_string(src_ver));
	json_object_set_new(root, "generator", json_string("rtmeasure " PACKAGE_VERSION));
	json_object_set_new(root, "start_time", start ? start : json_string(""));
	json_object_set_new(root, "end_time", end ? end : json_string(""));
	json_object_set_new(root, "return_code", json_integer(0));
	if (r->sysinfo)
		json_object_set_new(root, "sysinfo", sysinfo(r->sysinfo));
	json_object_set_new(root, "num_threads", json_integer(r->ncpus));
	json_object_set_new(root, "resolution_in_ns", json_integer(0));
	json_object_set_new(root, "thread", th);
	json_object_set_new(root, "exported_by", json_pack("{s:s, s:o, s:s, s:s}",
		"tool", "rtmeasure " PACKAGE_VERSION,
		"command", rtm_json_text(export_cmd),
		"source_tool", r->tool,
		"source_command", r->command));
	if (src_cmd && cmdline != src_cmd)
		json_object_set_new(json_object_get(root, "exported_by"), "source_command_line",
				    json_string(src_cmd));
	/* what disturbed the run: a key of rtmeasure's own, which rt-tests' readers skip */
	rtm_result_disturbances(r, &d);
	json_object_set_new(root, "rtmeasure_warnings", rtm_disturbances_to_json(&d));
	return root;
}

void rtm_export_csv_warnings(const struct rtm_result *r, FILE *f)
{
	struct rtm_disturbances d;
	int i;

	rtm_result_disturbances(r, &d);
	for (i = 0; i < d.n; i++)
		fprintf(f, "# warning %s: %s\n", d.d[i].key, d.d[i].text);
}

int rtm_export_csv(const struct rtm_result *r, FILE *f)
{
	int i;

	rtm_export_csv_warnings(r, f);
	fprintf(f, "cpu,lo_ns,hi_ns,count\n");
	for (i = 0; i < r->ncpus; i++) {
		struct rtm_hist_bucket b;
		unsigned int pos = 0;

		while (rtm_hist_next(r->cpus[i].raw, &pos, &b))
			fprintf(f, "%d,%llu,%llu,%llu\n", r->cpus[i].cpu,
				(unsigned long long)b.lo_ns, (unsigned long long)b.hi_ns,
				(unsigned long long)b.count);
	}
	return ferror(f) ? -EIO : 0;
}

static int noise_cpu_csv(const json_t *c, int cpu, FILE *f, bool gaps, struct rtm_error *err)
{
	const json_t *list = json_object_get(c, "gap_list"), *g;
	struct rtm_hist_bucket b;
	struct rtm_hist *h;
	unsigned int pos = 0;
	size_t i;

	if (gaps) {
		if (!json_is_array(list))
			return rtm_error_set(err, "sections.noise: CPU %d has no gap_list (an "
					     "imported source that lists no gaps, e.g. rtla osnoise "
					     "top or hist: nothing to export)", cpu);
		json_array_foreach(list, i, g) {
			const json_t *s = json_array_get(g, 0), *l = json_array_get(g, 1);

			if (json_array_size(g) != 2 || !json_is_integer(s) || !json_is_integer(l) ||
			    json_integer_value(s) < 0 || json_integer_value(l) < 0)
				return rtm_error_set(err, "sections.noise: CPU %d: gap_list entry "
						     "%zu is not [start_ns, length_ns]", cpu, i);
			fprintf(f, "%d,%lld,%lld\n", cpu, (long long)json_integer_value(s),
				(long long)json_integer_value(l));
		}
		return 0;
	}
	if (json_is_null(json_object_get(c, "hist")))	/* imported rtla osnoise top */
		return rtm_error_set(err, "sections.noise: CPU %d's gap lengths are unknown (the "
				     "imported source gives none): no histogram to export", cpu);
	h = rtm_hist_alloc();
	if (!h)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	if (rtm_hist_from_json(h, json_object_get(c, "hist"), err)) {
		rtm_hist_free(h);
		return -EINVAL;
	}
	while (rtm_hist_next(h, &pos, &b))
		fprintf(f, "%d,%llu,%llu,%llu\n", cpu, (unsigned long long)b.lo_ns,
			(unsigned long long)b.hi_ns, (unsigned long long)b.count);
	rtm_hist_free(h);
	return 0;
}

int rtm_export_noise_csv(const struct rtm_result *r, FILE *f, bool gaps, uint64_t *dropped,
			 struct rtm_error *err)
{
	const json_t *cpus = json_object_get(json_object_get(r->sections, "noise"), "cpus"), *c;
	size_t i;
	int ret;

	*dropped = 0;
	if (!json_is_array(cpus))
		return rtm_error_set(err, "the result has no sections.noise (not a noise run)");
	rtm_export_csv_warnings(r, f);
	fputs(gaps ? "cpu,start_ns,length_ns\n" : "cpu,gap_lo_ns,gap_hi_ns,count\n", f);
	json_array_foreach(cpus, i, c) {
		const json_t *cpu = json_object_get(c, "cpu");

		if (!json_is_integer(cpu))
			return rtm_error_set(err, "sections.noise: entry %zu has no cpu", i);
		ret = noise_cpu_csv(c, (int)json_integer_value(cpu), f, gaps, err);
		if (ret)
			return ret;
		if (gaps && json_integer_value(json_object_get(c, "gaps_dropped")) > 0)
			*dropped += (uint64_t)json_integer_value(json_object_get(c, "gaps_dropped"));
	}
	return ferror(f) ? -EIO : 0;
}
