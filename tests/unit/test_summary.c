// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: summary rows, --fail-above bounds and the cyclictest histogram file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "present/summary_print.h"
#include "result/histfile.h"
#include "result/summary.h"
#include "../tap.h"

/*
 * CPU 0: 1000 x 5 us, 10 x 50.5 us, 1 x 2500 us; CPU 3: 500 x 7 us, 1 x 120.4 us.
 * (Mid-microsecond values: a bucket straddling a microsecond boundary is counted
 * in the row of its midpoint, see histfile.h.)
 */
static struct rtm_result *make(void)
{
	struct rtm_result *r = rtm_result_alloc("cyclic");
	struct rtm_result_cpu *c;

	c = rtm_result_add_cpu(r, 0, true, 0);
	rtm_hist_record_n(c->raw, 5000, 1000);
	rtm_hist_record_n(c->raw, 50500, 10);
	rtm_hist_record(c->raw, 2500000);
	c->overruns = 2;
	c = rtm_result_add_cpu(r, 3, true, 0);
	rtm_hist_record_n(c->raw, 7000, 500);
	rtm_hist_record(c->raw, 120400);
	return r;
}

static char *histfile_any(const struct rtm_result *r, unsigned int rows, bool all)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (all)
		rtm_histfile_write_all(r, f, rows);
	else
		rtm_histfile_write(r, f, rows);
	fclose(f);
	return buf;
}

static char *histfile(const struct rtm_result *r, unsigned int rows)
{
	return histfile_any(r, rows, false);
}

static int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}

/* The one rule: percentile p of n samples is a number when n (1 - p/100) >= 10. */
static void pct_rule(void)
{
	static const struct { double pct; uint64_t need; } want[] = {
		{ 50, 20 }, { 90, 100 }, { 99, 1000 }, { 99.9, 10000 }, { 99.99, 100000 },
		{ 99.999, 1000000 },
	};
	char why[64];
	unsigned int i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ok(rtm_pct_min_samples(want[i].pct) == want[i].need, "p%g needs %llu samples (%llu)",
		   want[i].pct, (unsigned long long)want[i].need,
		   (unsigned long long)rtm_pct_min_samples(want[i].pct));
		ok(rtm_pct_defined(want[i].need, want[i].pct) &&
		   !rtm_pct_defined(want[i].need - 1, want[i].pct),
		   "p%g: a number from %llu samples on, not below", want[i].pct,
		   (unsigned long long)want[i].need);
	}
	ok(rtm_pct_defined(1, 100) && rtm_pct_defined(1, 0) && !rtm_pct_defined(0, 100),
	   "min and max: any sample");
	rtm_pct_few_reason(why, sizeof(why), 9966, 99.99);
	is_str(why, "too few samples: 9966, 100000 needed", "the reason names N and M");
}

/* A recorded run of 9,970 + 9,987 samples: p99.99 nowhere, p99.9 on all CPUs only. */
static void recorded_few(void)
{
	const char *data = getenv("RTM_TESTDATA");
	struct rtm_error err = { "" };
	struct rtm_summary_row *rows;
	struct rtm_result *r;
	char path[4096], v[32], *text = NULL;
	size_t len = 0;
	json_t *j;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/results/vm-6.18-few", data ? data : "tests/data");
	r = rtm_result_load(path, &err);
	ok(r != NULL, "recorded vm-6.18-few loads (%s)", err.msg);
	if (!r)
		return;
	n = rtm_summary_rows(r, false, &rows);
	is_int(n, 3, "two CPUs and all");
	ok(rows[0].samples == 9970 && rows[1].samples == 9987 && rows[2].samples == 19957,
	   "9970 + 9987 = 19957 samples");
	ok((rows[0].few & (1u << 3)) && (rows[1].few & (1u << 3)) && !(rows[2].few & (1u << 3)),
	   "p99.9: too few on each CPU, a number on all CPUs");
	ok((rows[0].few & rows[1].few & rows[2].few & (1u << 4)) && !(rows[2].few & 7),
	   "p99.99: too few everywhere; p50, p90, p99 numbers");
	rtm_summary_fmt_pct(v, sizeof(v), &rows[2], 4, false);
	is_str(v, "-", "p99.99 of 19957 prints '-'");
	rtm_summary_fmt_pct(v, sizeof(v), &rows[2], 4, true);
	is_str(v, "-", "in ns too");
	free(rows);

	j = rtm_summary_to_json(r);
	ok(j && json_is_null(json_object_get(json_object_get(j, "all"), "p99.99_ns")) &&
	   !strcmp(json_string_value(json_object_get(json_object_get(json_object_get(j, "all"),
					"unknown"), "p99.99_ns")) ?: "",
		   "too few samples: 19957, 100000 needed"),
	   "JSON: all p99.99 null, the reason under unknown");
	ok(j && json_is_integer(json_object_get(json_object_get(j, "all"), "p99.9_ns")) &&
	   json_is_null(json_object_get(json_array_get(json_object_get(j, "cpus"), 0),
					"p99.9_ns")),
	   "JSON: p99.9 a number on all CPUs, null on CPU 0");
	ok(j && !json_object_get(json_object_get(json_array_get(json_object_get(j, "cpus"), 0),
						 "unknown"), "p99_ns"),
	   "JSON: no reason for a percentile that is a number");
	json_decref(j);

	f = open_memstream(&text, &len);
	rtm_summary_fprint(r, f);
	fclose(f);
	ok(text && strstr(text, "\nall        19957 ") &&
	   strstr(text, "\n0           9970 ") && has_line(text, "(-: too few samples for that "
	   "percentile, p99.9 needs 10000, p99.99 needs 100000 for 10 beyond it)"),
	   "the table: the rows and the note on '-'");
	{
		char *line = text ? strstr(text, "\nall ") : NULL;
		char c[10][24];

		ok(line && sscanf(line, " %23s %23s %23s %23s %23s %23s %23s %23s", c[0], c[1],
				  c[2], c[3], c[4], c[5], c[6], c[7]) == 8 &&
		   strcmp(c[6], "-") && !strcmp(c[7], "-"),
		   "all CPUs: p99.9 a number, p99.99 '-' (%.*s)",
		   line ? (int)strcspn(line + 1, "\n") : 0, line ? line + 1 : "");
		line = text ? strstr(text, "\n0 ") : NULL;
		ok(line && sscanf(line, " %23s %23s %23s %23s %23s %23s %23s %23s", c[0], c[1],
				  c[2], c[3], c[4], c[5], c[6], c[7]) == 8 &&
		   !strcmp(c[6], "-") && !strcmp(c[7], "-"),
		   "CPU 0: p99.9 and p99.99 '-'");
	}
	free(text);
	rtm_result_free(r);
}

int main(void)
{
	struct rtm_result *r = make();
	struct rtm_summary_row *rows;
	struct rtm_error err = { "" };
	struct rtm_bound b;
	uint64_t v;
	char *text;
	json_t *j;
	int n;

	n = rtm_summary_rows(r, false, &rows);
	is_int(n, 3, "two CPUs plus all");
	is_int(rows[0].cpu, 0, "row 0 is CPU 0");
	is_int(rows[1].cpu, 3, "row 1 is CPU 3");
	is_int(rows[2].cpu, -1, "last row is all CPUs");
	is_u64(rows[0].samples, 1011, "CPU 0 samples");
	is_u64(rows[2].samples, 1512, "all samples");
	is_u64(rows[2].overruns, 2, "all overruns");
	is_u64(rows[0].min_ns, 5000, "CPU 0 min exact");
	is_u64(rows[0].max_ns, 2500000, "CPU 0 max exact");
	is_u64(rows[2].max_ns, 2500000, "all max");
	is_u64(rows[2].min_ns, 5000, "all min");
	/* p50 of all: rank 756 of 1512 -> 5 us (1000 x 5 us come first) */
	ok(rows[2].pct_ns[0] >= 4990 && rows[2].pct_ns[0] <= 5010, "all p50 = 5 us (%llu)",
	   (unsigned long long)rows[2].pct_ns[0]);
	/* p99.9 of CPU 0: rank ceil(0.999 * 1011) = 1010 -> 50 us */
	ok(rows[0].pct_ns[3] >= 50400 && rows[0].pct_ns[3] <= 50600, "CPU 0 p99.9 = 50.5 us (%llu)",
	   (unsigned long long)rows[0].pct_ns[3]);
	/* p99.99 of CPU 0: rank 1011 -> the 2.5 ms outlier */
	is_u64(rows[0].pct_ns[4], 2500000, "CPU 0 p99.99 is the outlier");
	ok(rows[0].avg_ns > 7917.90 && rows[0].avg_ns < 7917.91,
	   "CPU 0 mean exact (8005000 / 1011 = 7917.903...) got %.3f",
	   rows[0].avg_ns);
	free(rows);

	j = rtm_summary_to_json(r);
	ok(j && json_array_size(json_object_get(j, "cpus")) == 2, "JSON has two CPU rows");
	ok(json_integer_value(json_object_get(json_object_get(j, "all"), "max_ns")) == 2500000,
	   "JSON all.max_ns");
	ok(json_object_get(json_object_get(j, "all"), "p99.99_ns") != NULL, "JSON has p99.99");
	json_decref(j);

	/* bounds */
	ok(rtm_bound_parse("50us", &b, &err) == 0 && b.pct == 100 && b.limit_ns == 50000,
	   "bound 50us is a max bound");
	ok(rtm_bound_exceeded(r, &b, &v) && v == 2500000, "max 2.5 ms exceeds 50us");
	ok(rtm_bound_parse("p99=60us", &b, &err) == 0 && b.pct == 99, "bound p99=60us");
	ok(!rtm_bound_exceeded(r, &b, &v), "p99 (%llu ns) within 60us", (unsigned long long)v);
	ok(rtm_bound_parse("p99.99=100us", &b, &err) == 0, "bound p99.99=100us");
	ok(rtm_bound_exceeded(r, &b, &v), "p99.99 (%llu ns) exceeds 100us", (unsigned long long)v);
	ok(rtm_bound_parse("avg=8us", &b, &err) == 0 && b.pct < 0, "bound avg=8us");
	ok(!rtm_bound_exceeded(r, &b, &v), "avg %llu ns within 8us", (unsigned long long)v);
	ok(rtm_bound_parse("max=3ms", &b, &err) == 0 && !rtm_bound_exceeded(r, &b, &v),
	   "max=3ms not exceeded");
	{
		static const char *const bad[] = { "", "p=5us", "p0=5us", "p101=5us", "q99=5us",
						   "p99=", "p99=5xs", "=5us", "p99.9", "avg=-1us" };
		unsigned int i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			err.msg[0] = '\0';
			ok(rtm_bound_parse(bad[i], &b, &err) < 0 && err.msg[0] &&
			   !strchr(err.msg, '\n'), "bound '%s' rejected: %s", bad[i], err.msg);
		}
	}

	/* histogram.txt in cyclictest's layout */
	is_int(rtm_histfile_auto_rows(r), 2501, "auto rows reach the max (2500 us)");
	text = histfile(r, 0);
	ok(strncmp(text, "# Histogram\n000000 000000\t000000\n", 33) == 0, "header and row 0");
	ok(has_line(text, "000005 001000\t000000"), "row 5 us: 1000 on CPU 0");
	ok(has_line(text, "000007 000000\t000500"), "row 7 us: 500 on CPU 3");
	ok(has_line(text, "000050 000010\t000000"), "row 50 us: 10 x 50.5 us on CPU 0");
	ok(has_line(text, "000120 000000\t000001"), "row 120 us: 1 x 120.4 us on CPU 3");
	ok(has_line(text, "002500 000001\t000000"), "row 2500 us: the outlier");
	ok(has_line(text, "# Total: 000001011 000000501"), "Total line");
	ok(has_line(text, "# Min Latencies: 00005 00007"), "Min line");
	ok(has_line(text, "# Avg Latencies: 00007 00007"), "Avg line (truncated us)");
	ok(has_line(text, "# Max Latencies: 02500 00120"), "Max line");
	ok(has_line(text, "# Histogram Overflows: 00000 00000"), "no overflows");
	ok(has_line(text, "# Thread 1:"), "cycle-number lines per thread");
	free(text);
	{
		/* a value exactly on a microsecond boundary may land one row low */
		struct rtm_result *e = rtm_result_alloc("cyclic");
		struct rtm_result_cpu *c = rtm_result_add_cpu(e, 0, false, 0);

		rtm_hist_record_n(c->raw, 50000, 3);
		rtm_hist_record(c->raw, 1000);
		text = histfile(e, 0);
		ok(has_line(text, "000049 000003") || has_line(text, "000050 000003"),
		   "exactly 50 us: row 49 or 50");
		ok(has_line(text, "# Total: 000000004") && has_line(text, "# Max Latencies: 00050"),
		   "totals and max exact regardless");
		free(text);
		rtm_result_free(e);
	}
	text = histfile(r, 100);
	ok(has_line(text, "# Total: 000001010 000000500"), "100 rows: Total without overflows");
	ok(has_line(text, "# Histogram Overflows: 00001 00001"), "100 rows: overflows counted");
	ok(!strstr(text, "\n000100 "), "100 rows: last row is 000099");
	free(text);

	/* -H/--histofall: a last column for all CPUs in rows, Total, Max and Overflows */
	text = histfile_any(r, 100, true);
	ok(has_line(text, "000005 001000\t000000\t001000"), "-H row 5 us: the all column");
	ok(has_line(text, "000007 000000\t000500\t000500"), "-H row 7 us: the all column");
	ok(has_line(text, "# Total: 000001010 000000500 000001510"), "-H Total with all");
	ok(has_line(text, "# Min Latencies: 00005 00007"), "-H Min without all (cyclictest)");
	ok(has_line(text, "# Max Latencies: 02500 00120 02500"), "-H Max with all");
	ok(has_line(text, "# Histogram Overflows: 00001 00001 00002"), "-H Overflows with all");
	free(text);

	/* --fail-above in words: the metric, the all-CPU value, the bound, the worst CPU */
	{
		char what[160];

		rtm_bound_parse("p99.99=100us", &b, &err);
		ok(rtm_bound_describe(r, &b, what, sizeof(what)) &&
		   !strcmp(what, "p99.99 on all CPUs: 2.50 ms > 100 us (CPU 0: 2.50 ms)"),
		   "p99.99 described: %s", what);
		rtm_bound_parse("avg=8us", &b, &err);
		ok(!rtm_bound_describe(r, &b, what, sizeof(what)) &&
		   !strncmp(what, "avg on all CPUs: ", 17) && strstr(what, " <= 8.00 us (CPU "),
		   "avg within the bound described: %s", what);
		rtm_bound_parse("50us", &b, &err);
		ok(rtm_bound_describe(r, &b, what, sizeof(what)) && !strncmp(what, "max on ", 7),
		   "max bound described: %s", what);
	}
	{
		struct rtm_result *e = rtm_result_alloc("cyclic");
		struct rtm_result_cpu *c = rtm_result_add_cpu(e, 1, false, 0);
		char what[160];

		rtm_hist_record_n(c->raw, 988000, 10);
		rtm_bound_parse("p99.9=1us", &b, &err);
		ok(rtm_bound_describe(e, &b, what, sizeof(what)) &&
		   !strncmp(what, "p99.9 on CPU 1: 98", 18) && strstr(what, " us > 1.00 us") &&
		   !strstr(what, "("), "one CPU: named, no worst: %s", what);
		rtm_result_free(e);
	}

	rtm_result_free(r);
	pct_rule();
	recorded_few();
	return tap_done();
}
