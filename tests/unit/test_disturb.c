// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: what disturbed a run (lib/result/disturb.c) and the outputs that
 * carry it: export (CSV comment lines, cyclictest JSON's key), the Prometheus
 * page's gauge, compare's warnings per side and its qualified verdicts.
 * Results built in memory, and tests/data/results/disturbed.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/compare.h"
#include "present/prom.h"
#include "result/disturb.h"
#include "result/export.h"
#include "result/result.h"
#include "../tap.h"

/* @ncpus CPUs of @n samples each at 20 us, @overruns on the last one */
static struct rtm_result *make(int ncpus, int n, uint64_t overruns)
{
	struct rtm_result *r = rtm_result_alloc("cyclic");
	int c, i;

	r->duration_ns = 2400000000ULL;
	for (c = 0; c < ncpus; c++) {
		struct rtm_result_cpu *rc = rtm_result_add_cpu(r, c, false, 0);

		for (i = 0; i < n; i++)
			rtm_hist_record(rc->raw, 20000 + (uint64_t)(i % 50) * 100);
		if (c == ncpus - 1)
			rc->overruns = overruns;
	}
	return r;
}

static const char *keys(const struct rtm_result *r, char *buf, size_t len)
{
	struct rtm_disturbances d;
	size_t n = 0;
	int i;

	buf[0] = '\0';
	rtm_result_disturbances(r, &d);
	for (i = 0; i < d.n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", d.d[i].key);
	return buf;
}

static const char *text_of(const struct rtm_result *r, const char *key)
{
	static struct rtm_disturbances d;
	const struct rtm_disturbance *x;

	rtm_result_disturbances(r, &d);
	x = rtm_disturbances_find(&d, key);
	return x ? x->text : NULL;
}

static void test_kinds(void)
{
	struct rtm_result *r = make(2, 10000, 0);
	char k[128], buf[128];

	is_str(keys(r, k, sizeof(k)), "", "an undisturbed run: no warning");
	rtm_result_duration_text(r, buf, sizeof(buf));
	is_str(buf, "2.4 s", "its duration: measured, to 0.1 s");

	json_object_set_new(r->sections, "shared_cpus", json_pack("{s:s, s:i}", "cpus", "0-1",
								  "other_pid", 4242));
	is_str(text_of(r, "shared_cpus"), "another rtmeasure measured CPUs 0-1 during this run "
	       "(pid 4242): its probes disturb these numbers", "sections.shared_cpus: named");
	json_object_set_new(r->sections, "shared_cpus", json_pack("{s:s, s:n}", "cpus", "1",
								  "other_pid"));
	is_str(text_of(r, "shared_cpus"), "another rtmeasure measured CPU 1 during this run: its "
	       "probes disturb these numbers", "a later run's pid unknown: left out");

	r->interrupted = true;
	is_str(keys(r, k, sizeof(k)), "shared_cpus", "stopped with no length asked (until "
	       "Ctrl-C): not a disturbance");
	json_object_set_new(r->options, "loops", json_integer(5000));
	is_str(text_of(r, "interrupted"), "interrupted after 2.4 s, before its 5000 loops: the "
	       "figures cover only the time measured", "stopped before its loops");
	json_object_set_new(r->options, "duration_ns", json_integer(60000000000LL));
	snprintf(r->stop_signal, sizeof(r->stop_signal), "SIGINT");
	is_str(text_of(r, "interrupted"), "interrupted after 2.4 s of 60 s asked, stopped by "
	       "SIGINT: the figures cover only the time measured", "stopped before its length");
	rtm_result_duration_text(r, buf, sizeof(buf));
	is_str(buf, "2.4 s of 60 s asked, stopped by SIGINT", "its duration: the real one, "
	       "not \"2s\"");

	r->cpus[1].overruns = 200;		/* 0.99% of 20200 periods */
	ok(!text_of(r, "missed_periods"), "1%% of the periods missed or less: no warning");
	r->cpus[1].overruns = 209;		/* 1.03% */
	is_str(text_of(r, "missed_periods"), "missed 1.0% of its periods (209 of 20209, more "
	       "than 1%): its percentiles are of the measured wake-ups only and do not include "
	       "the corrected histogram (the run kept none), so they understate the latency of "
	       "the missed periods", "more than 1%: a warning");

	r->sysinfo = json_pack("{s:{s:b, s:s}}", "virtualization", "vm", 1, "hypervisor", "KVM");
	is_str(text_of(r, "hypervisor"), "ran under a hypervisor (KVM): its exits and vCPU "
	       "scheduling add latency that no guest kernel can remove", "a VM");
	json_decref(r->sysinfo);
	r->sysinfo = json_pack("{s:{s:b, s:s}}", "virtualization", "vm", 0, "cpuid",
			       "TCGTCGTCGTCG");
	is_str(keys(r, k, sizeof(k)), "shared_cpus,interrupted,missed_periods,emulated",
	       "QEMU TCG: emulated (not a hypervisor); the kinds in their order");
	rtm_result_free(r);

	r = make(1, 100, 0);
	json_object_set_new(r->sections, "noise", json_pack("{s:I, s:{s:b, s:I}}", "duration_ns",
				(json_int_t)500000000, "phase", "interrupted", 1, "planned_ns",
				(json_int_t)2000000000));
	is_str(text_of(r, "interrupted"), "the noise phase was interrupted after 0.5 s of 2 s "
	       "asked: its figures cover only the time measured", "run --noise: its noise phase");
	rtm_result_free(r);
}

static void test_json(void)
{
	struct rtm_result *r = make(1, 100, 0), *back;
	struct rtm_error err = { "" };
	struct rtm_disturbances d;
	json_t *j, *w;

	r->interrupted = true;
	snprintf(r->stop_signal, sizeof(r->stop_signal), "SIGTERM");
	j = rtm_result_to_json(r);
	is_str(json_string_value(json_object_get(j, "stop_signal")), "SIGTERM",
	       "result.json: stop_signal");
	back = rtm_result_from_json(j, "test", &err);
	ok(back && !strcmp(back->stop_signal, "SIGTERM"), "and back (%s)", err.msg);
	json_object_set_new(j, "stop_signal", json_integer(15));
	rtm_result_free(back);
	back = rtm_result_from_json(j, "test", &err);
	ok(!back && strstr(err.msg, "\"stop_signal\" must be a string"), "not a string: %s",
	   err.msg);
	json_decref(j);
	r->interrupted = false;
	j = rtm_result_to_json(r);
	ok(!json_object_get(j, "stop_signal"), "a run that ran its course has none");
	json_decref(j);

	json_object_set_new(r->sections, "shared_cpus", json_pack("{s:s, s:n}", "cpus", "0",
								  "other_pid"));
	rtm_result_disturbances(r, &d);
	w = rtm_disturbances_to_json(&d);
	ok(json_array_size(w) == 1 && !strcmp(json_string_value(json_object_get(
	   json_array_get(w, 0), "id")), "shared_cpus") && json_is_string(json_object_get(
	   json_array_get(w, 0), "message")), "as JSON: [{id, message}]");
	json_decref(w);
	rtm_result_free(r);
}

static struct rtm_result *load(const char *name)
{
	struct rtm_error err = { "" };
	char path[PATH_MAX];
	struct rtm_result *r;

	snprintf(path, sizeof(path), "%s/tests/data/%s", getenv("RTM_SRCDIR") ?: "..", name);
	r = rtm_result_load(path, &err);
	if (!r) {
		printf("Bail out! %s\n", err.msg);
		exit(99);
	}
	return r;
}

static char *render(const struct rtm_result *r, int what)
{
	struct rtm_error err = { "" };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (what == 0)
		rtm_export_csv(r, f);
	else
		rtm_prom_write_result(f, RTM_PROM_TEXT, r, &err);
	fclose(f);
	return text;
}

/* @a is in @s, before @b */
static bool before(const char *s, const char *a, const char *b)
{
	const char *x = strstr(s, a), *y = strstr(s, b);

	return x && y && x < y;
}

/* The recorded folder through export and the Prometheus page. */
static void test_outputs(void)
{
	struct rtm_result *r = load("results/disturbed");
	const char *first = "# warning shared_cpus: another rtmeasure measured CPUs 0-1 during "
			    "this run (pid 4242): ";
	char k[128], *csv, *prom;
	json_t *j;

	is_str(keys(r, k, sizeof(k)), "shared_cpus,interrupted,missed_periods,hypervisor",
	       "results/disturbed: the four kinds");
	csv = render(r, 0);
	ok(!strncmp(csv, first, strlen(first)) &&
	   before(csv, "\n# warning interrupted: interrupted after 10.0 s of 60 s asked, stopped "
		  "by SIGINT", "\ncpu,lo_ns,hi_ns,count\n") &&
	   before(csv, "\n# warning missed_periods: missed 2.0%", "\ncpu,lo_ns,hi_ns,count\n") &&
	   before(csv, "\n# warning hypervisor: ", "\ncpu,lo_ns,hi_ns,count\n"),
	   "CSV: a comment line each, before the header");
	j = rtm_export_cyclictest_json(r, NULL);
	ok(json_array_size(json_object_get(j, "rtmeasure_warnings")) == 4 &&
	   !strcmp(json_string_value(json_object_get(json_array_get(json_object_get(j,
		   "rtmeasure_warnings"), 1), "id")), "interrupted"),
	   "cyclictest JSON: rtmeasure_warnings, beside rt-tests' keys");
	json_decref(j);
	prom = render(r, 1);
	ok(strstr(prom, "# TYPE rtmeasure_run_disturbed gauge\n") &&
	   strstr(prom, ",reason=\"shared_cpus\"} 1\n") &&
	   strstr(prom, ",reason=\"interrupted\"} 1\n") &&
	   strstr(prom, ",reason=\"missed_periods\"} 1\n") &&
	   strstr(prom, ",reason=\"hypervisor\"} 1\n") &&
	   strstr(prom, ",reason=\"emulated\"} 0\n"), "Prometheus: rtmeasure_run_disturbed, one "
	   "reason a sample");
	free(csv);
	free(prom);
	rtm_result_free(r);
}

/* compare: a warning per side and kind, and verdicts that say a side shared its CPUs. */
static void test_compare(void)
{
	struct rtm_result *a = load("results/disturbed"), *b = load("compare/vm-cpuload");
	struct rtm_compare *c = rtm_compare_alloc();
	struct rtm_error err = { "" };
	const char *want[] = { "shared_cpus", "interrupted", "missed_periods" };
	json_t *j, *w, *side = json_pack("[s]", "disturbed");
	int i, k, found = 0;

	ok(!rtm_compare_add(c, a, "disturbed", NULL, &err) &&
	   !rtm_compare_add(c, b, "alone", NULL, &err), "two sides (%s)", err.msg);
	rtm_compare_finish(c);
	for (k = 0; k < 3; k++)
		for (i = 0; i < c->nwarnings; i++)
			found += !strcmp(c->warnings[i].id, want[k]) &&
				 !strncmp(c->warnings[i].text, "disturbed: ", 11);
	is_int(found, 3, "a warning for each disturbance, named after its side");
	is_str(c->runs[0].fp[RTM_FP_DURATION], "10.0 s of 60 s asked, stopped by SIGINT",
	       "the duration: what was measured of what was asked");
	ok(strstr(c->verdicts[0].text, "; but disturbed shared its CPUs with another measuring "
		  "rtmeasure (warning shared_cpus): the verdict may be about that disturbance, "
		  "not the set-ups"), "the p99 verdict says it: %s", c->verdicts[0].text);
	j = rtm_compare_to_json(c);
	w = json_object_get(json_array_get(json_object_get(j, "runs"), 0), "warnings");
	ok(json_array_size(w) == 4 && json_array_size(json_object_get(json_array_get(
	   json_object_get(j, "runs"), 1), "warnings")) == 1, "JSON: runs[].warnings per side "
	   "(the VM on both)");
	ok(json_equal(json_object_get(json_array_get(json_object_get(j, "comparisons"), 0),
				      "shared_cpus"), side),
	   "JSON: comparisons[].shared_cpus names the side");
	json_decref(j);
	json_decref(side);
	rtm_compare_free(c);
	rtm_result_free(a);
	rtm_result_free(b);
}

int main(void)
{
	test_kinds();
	test_json();
	test_outputs();
	test_compare();
	return tap_done();
}
