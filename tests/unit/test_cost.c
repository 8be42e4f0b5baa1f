// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_cost - the cost of RT: stress-ng's YAML metrics parsed from outputs
 * recorded on the development VM (tests/data/cost, stress-ng 0.15.06) and
 * refused, with one line, when truncated or corrupt; the throughput section
 * checked; compare's throughput rows on hand-made runs whose ratio and
 * interval are worked out here by hand (equal log-variances on both sides:
 * Welch's df is exactly 2, t(0.975, 2) = 4.302653 from the tables).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "present/compare.h"
#include "box/cost.h"
#include "present/cost_report.h"
#include "core/fileio.h"
#include "../tap.h"

static const char *data_dir(void)
{
	const char *d = getenv("RTM_TESTDATA");

	return d ? d : RTM_SRCDIR "/tests/data";
}

static char *read_data(const char *name, size_t *len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/cost/%s", data_dir(), name);
	return rtm_read_all(NULL, path, len);
}

/* ---------------------------------------------------------------- YAML */

static void test_recorded(void)
{
	static const struct {
		const char *file, *stressor;
	} rec[] = {
		{ "stress-ng-0.15.06-cpu.yaml", "cpu" },
		{ "stress-ng-0.15.06-switch.yaml", "switch" },
		{ "stress-ng-0.15.06-sock.yaml", "sock" },
	};
	struct rtm_cost_metrics m[4];
	struct rtm_error err = { "" };
	char version[32];
	size_t i, len;

	for (i = 0; i < sizeof(rec) / sizeof(rec[0]); i++) {
		char *text = read_data(rec[i].file, &len);
		int n;

		if (!ok(text, "%s recorded", rec[i].file))
			continue;
		n = rtm_cost_parse_yaml(text, len, m, 4, version, sizeof(version), &err);
		is_int(n, 1, rec[i].file);
		if (n != 1) {
			diag("%s", err.msg);
			free(text);
			continue;
		}
		is_str(m[0].stressor, rec[i].stressor, "its stressor");
		is_str(version, "0.15.06", "stress-ng's version");
		ok(m[0].bogo_ops > 0, "%s: bogo-ops %llu", rec[i].stressor,
		   (unsigned long long)m[0].bogo_ops);
		ok(m[0].wall_clock_s > 1.9 && m[0].wall_clock_s < 2.5,
		   "%s: wall-clock %.2f s of a 2 s --timeout", rec[i].stressor, m[0].wall_clock_s);
		/* stress-ng's rate is its bogo-ops over its wall clock, to its printed digits */
		ok(fabs(m[0].rate_real * m[0].wall_clock_s - (double)m[0].bogo_ops) <=
		   0.01 * (double)m[0].bogo_ops, "%s: rate %.2f x wall %.2f = bogo-ops %llu",
		   rec[i].stressor, m[0].rate_real, m[0].wall_clock_s,
		   (unsigned long long)m[0].bogo_ops);
		ok(isfinite(m[0].rate_usr_sys), "%s: usr+sys rate read", rec[i].stressor);
		free(text);
	}
}

static void expect_refused(const char *name, const char *text, const char *want)
{
	struct rtm_cost_metrics m[4];
	struct rtm_error err = { "" };
	int n = rtm_cost_parse_yaml(text, strlen(text), m, 4, NULL, 0, &err);

	ok(n == -EINVAL && one_line(err.msg) && strstr(err.msg, want), "%s refused: %s", name,
	   err.msg);
}

static void test_corrupt(void)
{
	struct rtm_cost_metrics m[4];
	struct rtm_error err = { "" };
	char *text, *copy;
	size_t len, cut;
	const char *p;
	int n;

	/* the recorded file cut where stress-ng would have been killed */
	text = read_data("stress-ng-0.15.06-truncated.yaml", &len);
	if (ok(text, "truncated file recorded")) {
		n = rtm_cost_parse_yaml(text, len, m, 4, NULL, 0, &err);
		ok(n == -EINVAL && one_line(err.msg), "truncated file refused: %s", err.msg);
		free(text);
	}
	/* every cut of a good file before its end marker is refused, never half-read */
	text = read_data("stress-ng-0.15.06-cpu.yaml", &len);
	if (!ok(text, "cpu file again"))
		return;
	p = strstr(text, "\n...");
	ok(p, "the good file ends with '...'");
	for (cut = 0, n = 0; p && cut <= (size_t)(p - text); cut++) {
		copy = strndup(text, cut);
		if (rtm_cost_parse_yaml(copy, cut, m, 4, NULL, 0, &err) >= 0)
			n++;
		free(copy);
	}
	is_int(n, 0, "no prefix of the file is taken for a result");
	free(text);

	expect_refused("empty", "", "empty");
	expect_refused("not YAML", "stress-ng: info: [1] dispatching hogs\n", "YAML document");
	expect_refused("no metrics", "---\nsystem-info:\n      stress-ng-version: 0.15.06\n...\n",
		       "no metrics");
	expect_refused("missing real-time rate", "---\nmetrics:\n    - stressor: cpu\n"
		       "      bogo-ops: 100\n      wall-clock-time: 2.00\n...\n",
		       "bogo-ops-per-second-real-time");
	expect_refused("rate not a number", "---\nmetrics:\n    - stressor: cpu\n"
		       "      bogo-ops: 100\n      bogo-ops-per-second-real-time: fast\n"
		       "      wall-clock-time: 2.00\n...\n", "fast");
	expect_refused("negative bogo-ops", "---\nmetrics:\n    - stressor: cpu\n"
		       "      bogo-ops: -5\n      bogo-ops-per-second-real-time: 1.0\n"
		       "      wall-clock-time: 2.00\n...\n", "bogo-ops");
	expect_refused("entry without a stressor", "---\nmetrics:\n    - bogo-ops: 5\n...\n",
		       "stressor");
	n = rtm_cost_parse_yaml("---\n\0...\n", 8, m, 4, NULL, 0, &err);
	ok(n == -EINVAL && strstr(err.msg, "NUL"), "a NUL byte refused: %s", err.msg);
}

/* ---------------------------------------------------------------- section */

static json_t *section(const char *names[], const double *scores, int n, int workers)
{
	json_t *list = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(list, json_pack("{s:s, s:s, s:f, s:i, s:[]}", "name",
						      names[i], "command", "stress-ng ...",
						      "bogo_ops_per_s", scores[i], "repetitions", 1,
						      "reps"));
	return json_pack("{s:s, s:s, s:s, s:i, s:s, s:I, s:i, s:I, s:b, s:o}", "tool", "stress-ng",
			 "version", "0.15.06", "phase", "after", "workers", workers, "cpus", "0-1",
			 "time_per_stressor_ns", (json_int_t)2000000000, "repetitions", 1,
			 "duration_ns", (json_int_t)6000000000, "complete", 1, "stressors", list);
}

static void test_section(void)
{
	const char *names[] = { "cpu", "switch" };
	const double scores[] = { 1000, 500 };
	struct rtm_cost_summary s;
	struct rtm_error err = { "" };
	json_t *sec = section(names, scores, 2, 2), *bad;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	is_int(rtm_cost_summary_read(sec, &s, &err), 0, "a section is read");
	is_int(s.n, 2, "two stressors");
	is_str(s.workload, "stress-ng 0.15.06, cpu switch; 2 workers, 2 s each, 1 repetition",
	       "its workload");
	f = open_memstream(&text, &len);
	rtm_cost_fprint(sec, f);
	fclose(f);
	ok(text && strstr(text, "cpu 1000 switch 500"), "printed: %s", text ? text : "");
	free(text);

	/* report.html and report.md: the table, or the problem when the section is bad */
	text = NULL;
	f = open_memstream(&text, &len);
	rtm_cost_html(sec, f);
	rtm_cost_md(sec, f);
	fclose(f);
	ok(text && strstr(text, "<h2>Throughput</h2>") &&
	   strstr(text, "<td class=\"l\">switch</td><td>500</td><td>1</td>") &&
	   strstr(text, "## Throughput") && strstr(text, "| cpu | 1000 | 1 |"),
	   "report.html and report.md show the scores");
	free(text);

	bad = json_deep_copy(sec);
	json_object_set_new(json_array_get(json_object_get(bad, "stressors"), 1),
			    "bogo_ops_per_s", json_real(-1));
	text = NULL;
	f = open_memstream(&text, &len);
	rtm_cost_html(bad, f);
	fclose(f);
	ok(text && strstr(text, "class=\"warn\">sections.throughput.stressors[1]"),
	   "report.html names a bad section instead of showing it");
	free(text);
	ok(rtm_cost_summary_read(bad, &s, &err) == -EINVAL && one_line(err.msg) &&
	   strstr(err.msg, "stressors[1].bogo_ops_per_s"), "a negative score is refused: %s",
	   err.msg);
	json_decref(bad);
	bad = json_deep_copy(sec);
	json_object_set_new(bad, "workers", json_string("two"));
	ok(rtm_cost_summary_read(bad, &s, &err) == -EINVAL && strstr(err.msg, "workers"),
	   "workers not a number refused: %s", err.msg);
	json_decref(bad);
	bad = json_deep_copy(sec);
	json_object_set_new(json_array_get(json_object_get(bad, "stressors"), 0), "name",
			    json_string("cpu | <b>"));
	ok(rtm_cost_summary_read(bad, &s, &err) == -EINVAL && strstr(err.msg, "name"),
	   "a stressor name with markup refused: %s", err.msg);
	json_decref(bad);
	json_decref(sec);
}

/* ---------------------------------------------------------------- compare */

/*
 * A run whose latency is deterministic (p99.9 exact; @scale 0.25 makes every
 * value a quarter) with throughput @cpu and @sw bogo-ops/s, or none when @cpu <= 0.
 */
static struct rtm_result *run_n(double scale, double cpu, double sw, int workers, uint64_t n)
{
	struct rtm_result *r = rtm_result_alloc("run");
	struct rtm_result_cpu *c = rtm_result_add_cpu(r, 0, false, 0);
	const char *names[] = { "cpu", "switch" };
	double scores[2] = { cpu, sw };
	uint64_t k;

	for (k = 0; k < n; k++)
		rtm_hist_record(c->raw, (uint64_t)((20000.0 + (double)(k * 7919 % 40000) *
						    (k % 97 == 0 ? 20.0 : 1.0)) * scale));
	r->duration_ns = 40000000000ULL;
	if (cpu > 0)
		json_object_set_new(r->sections, "throughput", section(names, scores, 2, workers));
	return r;
}

static struct rtm_result *run(double scale, double cpu, double sw, int workers)
{
	return run_n(scale, cpu, sw, workers, 40000);
}

static struct rtm_compare *compare_runs(struct rtm_result **a, int na, struct rtm_result **b,
					int nb)
{
	struct rtm_compare *c = rtm_compare_alloc();
	struct rtm_error err = { "" };
	int i, ret = 0;

	ret |= rtm_compare_add(c, a[0], "stock", "a1", &err);
	for (i = 1; i < na; i++)
		ret |= rtm_compare_add_round(c, a[i], "a", &err);
	ret |= rtm_compare_add(c, b[0], "rt", "b1", &err);
	for (i = 1; i < nb; i++)
		ret |= rtm_compare_add_round(c, b[i], "b", &err);
	if (ret)
		diag("compare: %s", err.msg);
	for (i = 0; i < na; i++)
		rtm_result_free(a[i]);
	for (i = 0; i < nb; i++)
		rtm_result_free(b[i]);
	rtm_compare_finish(c);
	return c;
}

static const struct rtm_compare_cost_row *row_of(const struct rtm_compare *c, const char *name)
{
	int k;

	for (k = 0; k < c->ncost; k++)
		if (!strcmp(c->cost[k].stressor, name))
			return &c->cost[k];
	return NULL;
}

#define NEAR(x, want, tol) (fabs((x) - (want)) <= (tol))

static void test_compare_rounds(void)
{
	/* log-variance (ln 1.1)^2 / 2 on every side and stressor: df = 2, se = ln(1.1)/sqrt(2) */
	struct rtm_result *a[2] = { run(1, 1000, 500, 2), run(1, 1100, 550, 2) };
	struct rtm_result *b[2] = { run(0.25, 900, 250, 2), run(0.25, 990, 275, 2) };
	struct rtm_compare *c = compare_runs(a, 2, b, 2);
	const struct rtm_compare_cost_row *cpu = row_of(c, "cpu"), *sw = row_of(c, "switch");
	const struct rtm_compare_cost_row *all = row_of(c, "");
	double w = exp(4.302653 * log(1.1) / sqrt(2.0));	/* the interval's half-width factor */
	char *text = NULL;
	size_t len = 0;
	json_t *j;
	FILE *f;

	ok(c->has_cost, "throughput seen");
	is_int(c->ncost, 3, "rows: cpu, switch, all");
	if (!cpu || !sw || !all) {
		rtm_compare_free(c);
		return;
	}
	ok(NEAR(cpu->ratio, 0.9, 1e-9), "cpu ratio 0.9 (%.6f)", cpu->ratio);
	ok(cpu->ci.welch && NEAR(cpu->ci.df, 2.0, 1e-9), "Welch, df 2 (%.4f)", cpu->ci.df);
	ok(NEAR(cpu->lo, 0.9 / w, 1e-4) && NEAR(cpu->hi, 0.9 * w, 1e-4),
	   "cpu interval %.4f-%.4f, by hand %.4f-%.4f", cpu->lo, cpu->hi, 0.9 / w, 0.9 * w);
	is_int(cpu->kind, RTM_COST_SAME, "cpu: the interval holds 1");
	ok(NEAR(sw->ratio, 0.5, 1e-9) && NEAR(sw->hi, 0.5 * w, 1e-4), "switch 0.5 (%.4f-%.4f)",
	   sw->lo, sw->hi);
	is_int(sw->kind, RTM_COST_LOWER, "switch: lower");
	ok(NEAR(all->ratio, sqrt(0.45), 1e-9) && NEAR(all->lo, sqrt(0.45) / w, 1e-4) &&
	   NEAR(all->hi, sqrt(0.45) * w, 1e-4), "all: geometric mean %.4f (%.4f-%.4f)",
	   all->ratio, all->lo, all->hi);
	is_str(all->text, "rt's throughput (geometric mean of 2 stressors) is 33% lower than "
	       "stock's (95% CI 10% to 50% lower; per-run scores over 2 and 2 runs, Welch t)",
	       "the overall verdict");
	is_str(c->headline[1], "rt vs stock: p99.9 4.0x lower, throughput 33% lower (95% CI 10% "
	       "to 50% lower)", "the headline");
	f = open_memstream(&text, &len);
	rtm_compare_fprint(c, f);
	fclose(f);
	ok(text && strstr(text, c->headline[1]) && strstr(text, "switch"),
	   "the text shows the headline and the rows");
	free(text);
	j = rtm_compare_to_json(c);
	ok(NEAR(json_real_value(json_object_get(json_array_get(json_object_get(json_object_get(
		json_array_get(json_object_get(j, "comparisons"), 0), "throughput"), "rows"), 1),
		"ratio")), 0.5, 1e-9), "JSON: the switch row's ratio");
	json_decref(j);
	is_int(c->nwarnings, 0, "the same workload: no warning");
	rtm_compare_free(c);
}

/* 4000 samples a run: no p99.9 verdict, so the headline adds p99's */
static void test_compare_short(void)
{
	struct rtm_result *a[2] = { run_n(1, 1000, 500, 2, 4000), run_n(1, 1100, 550, 2, 4000) };
	struct rtm_result *b[2] = { run_n(0.25, 900, 250, 2, 4000), run_n(0.25, 990, 275, 2, 4000) };
	struct rtm_compare *c = compare_runs(a, 2, b, 2);

	ok(!strncmp(c->headline[1], "rt vs stock: p99.9 unknown (too few samples), p99 ", 50) &&
	   strstr(c->headline[1], ", throughput 33% lower (95% CI 10% to 50% lower)"),
	   "too few samples for p99.9: the headline gives p99's verdict too (%s)", c->headline[1]);
	rtm_compare_free(c);
}

static void test_compare_single(void)
{
	struct rtm_result *a[1] = { run(1, 1000, 500, 2) };
	struct rtm_result *b[1] = { run(0.25, 920, 500, 4) };
	struct rtm_compare *c = compare_runs(a, 1, b, 1);
	const struct rtm_compare_cost_row *all = row_of(c, "");
	int k;
	bool warned = false;

	ok(all && all->kind == RTM_COST_NO_CI && isnan(all->lo) && isnan(all->hi),
	   "one run per side: no interval");
	ok(all && NEAR(all->ratio, sqrt(0.92), 1e-9), "but the ratio (%.4f)", all ? all->ratio : 0);
	ok(all && strstr(all->text, "confidence interval unknown"), "said so: %s",
	   all ? all->text : "");
	ok(strstr(c->headline[1], "CI unknown: one run per side") != NULL, "headline: %s",
	   c->headline[1]);
	for (k = 0; k < c->nwarnings; k++)
		warned |= !strcmp(c->warnings[k].id, "throughput_workload");
	ok(warned, "2 workers against 4: the workloads differ, warned");
	rtm_compare_free(c);
}

static void test_compare_missing(void)
{
	struct rtm_result *a[1] = { run(1, 0, 0, 2) };
	struct rtm_result *b[1] = { run(0.25, 900, 400, 2) };
	struct rtm_compare *c = compare_runs(a, 1, b, 1);
	struct rtm_compare *none;
	struct rtm_result *bad = run(1, 1000, 500, 2), *x = run(1, 0, 0, 2), *y = run(1, 0, 0, 2);
	struct rtm_error err = { "" };

	ok(c->ncost == 1 && c->cost[0].kind == RTM_COST_UNKNOWN, "baseline without scores: unknown");
	ok(strstr(c->headline[1], "throughput unknown") != NULL, "headline: %s", c->headline[1]);
	rtm_compare_free(c);

	none = compare_runs(&x, 1, &y, 1);
	ok(!none->has_cost && none->ncost == 0, "no throughput anywhere: nothing shown");
	rtm_compare_free(none);

	json_object_set_new(json_array_get(json_object_get(json_object_get(bad->sections,
		"throughput"), "stressors"), 0), "bogo_ops_per_s", json_string("many"));
	c = rtm_compare_alloc();
	ok(rtm_compare_add(c, bad, "stock", "runs/a", &err) == -EINVAL && one_line(err.msg) &&
	   strstr(err.msg, "runs/a") && strstr(err.msg, "bogo_ops_per_s"),
	   "a bad section names the run and the key: %s", err.msg);
	rtm_compare_free(c);
	rtm_result_free(bad);
}

int main(void)
{
	test_recorded();
	test_corrupt();
	test_section();
	test_compare_rounds();
	test_compare_short();
	test_compare_single();
	test_compare_missing();
	return tap_done();
}
