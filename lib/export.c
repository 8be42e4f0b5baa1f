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

#include "export.h"

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

/* The microsecond rows of one CPU, without the extremes an import placed from
 * beyond its rows; returns the samples in the rows. */
static uint64_t hist_rows(const struct rtm_hist *h, uint64_t take_max, uint64_t take_min,
			  json_t *rows)
{
	struct rtm_hist_bucket b;
	unsigned int pos = 0;
	uint64_t row = UINT64_MAX, cnt = 0, total = 0, seen = 0;
	char key[24];

	while (rtm_hist_next(h, &pos, &b)) {
		uint64_t u = rtm_hist_bucket_value(h, &b) / 1000, n = b.count;

		if (take_min && seen == 0 && n) {
			n--;		/* the lowest sample */
			take_min = 0;
		}
		seen += b.count;
		if (take_max && seen == h->count && n) {
			n--;		/* the highest sample */
			take_max = 0;
		}
		if (u != row && cnt) {
			snprintf(key, sizeof(key), "%llu", (unsigned long long)row);
			json_object_set_new(rows, key, json_integer((json_int_t)cnt));
			total += cnt;
			cnt = 0;
		}
		row = u;
		cnt += n;
	}
	if (cnt) {
		snprintf(key, sizeof(key), "%llu", (unsigned long long)row);
		json_object_set_new(rows, key, json_integer((json_int_t)cnt));
		total += cnt;
	}
	return total;
}

json_t *rtm_export_cyclictest_json(const struct rtm_result *r, const char *cmdline)
{
	const json_t *prov = json_object_get(r->sections, "provenance");
	bool threads = prov && json_is_false(json_object_get(prov, "cpus_known"));
	json_t *root, *th = json_object(), *start, *end;
	char cmd[128];
	int i;

	if (!th)
		return NULL;
	for (i = 0; i < r->ncpus; i++) {
		const struct rtm_result_cpu *c = &r->cpus[i];
		const struct rtm_hist *h = c->raw;
		const json_t *pc = prov_cpu(r, c->cpu);
		uint64_t placed = juint(pc, "overflows_placed"), over = juint(pc, "overflows");
		uint64_t in_rows;
		json_t *rows = json_object(), *t;
		char key[16];

		if (placed > h->count)
			placed = h->count;
		in_rows = hist_rows(h, placed >= 1, placed >= 2, rows);
		t = json_pack("{s:o, s:I, s:I, s:I, s:f, s:i, s:i}",
			"histogram", rows,
			"cycles", (json_int_t)(in_rows + (over > placed ? over : placed)),
			"min", (json_int_t)(h->count ? h->min_ns / 1000 : 0),
			"max", (json_int_t)(h->max_ns / 1000),
			"avg", round(rtm_hist_mean(h) / 10.0) / 100.0,
			"cpu", threads ? -1 : c->cpu,
			"node", 0);
		snprintf(key, sizeof(key), "%d", i);
		json_object_set_new(th, key, t);
	}
	if (!cmdline) {
		snprintf(cmd, sizeof(cmd), "%s %s", r->tool, r->command);
		cmdline = cmd;
	}
	start = rfc2822(r->created, 0);
	end = rfc2822(r->created, r->duration_ns);
	root = json_pack("{s:i, s:s, s:s, s:o, s:o, s:i}",
		"file_version", 1,
		"cmdline:", cmdline,
		"rt_test_version:", PACKAGE_VERSION,
		"start_time", start ? start : json_string(""),
		"end_time", end ? end : json_string(""),
		"return_code", 0);
	if (!root) {
		json_decref(th);
		return NULL;
	}
	if (r->sysinfo)
		json_object_set_new(root, "sysinfo", sysinfo(r->sysinfo));
	json_object_set_new(root, "num_threads", json_integer(r->ncpus));
	json_object_set_new(root, "resolution_in_ns", json_integer(0));
	json_object_set_new(root, "thread", th);
	json_object_set_new(root, "exported_by", json_pack("{s:s, s:s, s:s}",
		"tool", "rtmeasure " PACKAGE_VERSION,
		"source_tool", r->tool,
		"source_command", r->command));
	return root;
}

int rtm_export_csv(const struct rtm_result *r, FILE *f)
{
	int i;

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
