// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: Prometheus/OpenMetrics pages. Bucket counts are checked against
 * counts made directly from the recorded values (not from the histogram), so
 * an edge that splits a bucket shows up as a wrong count.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/prom.h"
#include "../tap.h"

static char *page(enum rtm_prom_format fmt, const struct rtm_prom_target *t,
		  const struct rtm_prom_cpu *c, int n, const struct rtm_prom_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || rtm_prom_write(f, fmt, t, c, n, run)) {
		fprintf(stderr, "rtm_prom_write failed\n");
		exit(99);
	}
	fclose(f);
	return buf;
}

/* The value of the first line that starts with @prefix, or -1. */
static double value_of(const char *text, const char *prefix)
{
	const char *s = text;
	size_t n = strlen(prefix);

	while (s && *s) {
		if (!strncmp(s, prefix, n))
			return strtod(strchr(s, '}') + 2, NULL);
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return -1;
}

static void test_edges(void)
{
	static const double round_us[] = { 1, 1.5, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70 };
	uint64_t le[RTM_PROM_NEDGES];
	int i, bad = 0;

	rtm_prom_edges(le);
	for (i = 0; i < RTM_PROM_NEDGES; i++) {
		/* an upper edge: the next nanosecond is in another bucket */
		if (rtm_hist_index(le[i]) == rtm_hist_index(le[i] + 1))
			bad++;
		if (i && le[i] <= le[i - 1])
			bad++;
	}
	ok(!bad, "edges ascend and each is a bucket's upper edge");
	for (i = 0; i < 12; i++) {
		double want = round_us[i] * 1000;

		if ((double)le[i] < want || (double)le[i] > want * (1 + 1.0 / 256))
			bad++;
	}
	ok(!bad, "edges 1 us .. 70 us lie at most 1/256 above the round values");
	ok(le[RTM_PROM_NEDGES - 1] >= 100000000 &&
	   le[RTM_PROM_NEDGES - 1] <= 100000000 + 100000000 / 256, "last edge 100 ms (%" PRIu64 ")",
	   le[RTM_PROM_NEDGES - 1]);
}

static void target(struct rtm_prom_target *t)
{
	memset(t, 0, sizeof(*t));
	strcpy(t->host, "lab\"1\\a");
	strcpy(t->kernel, "6.1.0-rt");
	strcpy(t->preempt, "rt");
	strcpy(t->probe, "timer");
	t->created_s = 1764859220.5;
}

static void test_exact_buckets(void)
{
	static const uint64_t vals[] = {
		999, 1000, 1000, 1001, 1002, 1003, 1500, 1507, 1508, 35000, 35123, 70000,
		70273, 70274, 99999999, 100000000, 100390000, 100400000, 250000000,
	};
	struct rtm_prom_target t;
	struct rtm_prom_cpu c = { .cpu = 3, .overruns = 7, .implied = 12 };
	struct rtm_hist *h = rtm_hist_alloc();
	uint64_t le[RTM_PROM_NEDGES], sum = 0;
	char *txt, prefix[256], lebuf[64];
	size_t i;
	int e, bad = 0;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		rtm_hist_record(h, vals[i]);
		sum += vals[i];
	}
	rtm_prom_hist_from(&c.run, h, 0, 0);
	target(&t);
	txt = page(RTM_PROM_TEXT, &t, &c, 1, NULL);
	rtm_prom_edges(le);
	for (e = 0; e < RTM_PROM_NEDGES; e++) {
		uint64_t want = 0;

		for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
			want += vals[i] <= le[e];
		snprintf(lebuf, sizeof(lebuf), "%.9f", (double)le[e] / 1e9);
		/* the page prints exact decimals without trailing zeros */
		while (lebuf[strlen(lebuf) - 1] == '0')
			lebuf[strlen(lebuf) - 1] = '\0';
		snprintf(prefix, sizeof(prefix),
			 "rtmeasure_wakeup_latency_seconds_bucket{cpu=\"3\",probe=\"timer\","
			 "host=\"lab\\\"1\\\\a\",kernel=\"6.1.0-rt\",preempt_model=\"rt\",le=\"%s\"}",
			 lebuf);
		if (value_of(txt, prefix) != (double)want) {
			diag("le %s: got %g want %" PRIu64, lebuf, value_of(txt, prefix), want);
			bad++;
		}
	}
	ok(!bad, "every bucket count equals the values at or below its bound");
	ok(strstr(txt, "le=\"+Inf\"} 19\n") != NULL, "+Inf holds every sample");
	snprintf(prefix, sizeof(prefix), "} %" PRIu64 ".%09" PRIu64 "\n", sum / 1000000000,
		 sum % 1000000000);
	ok(strstr(txt, prefix) != NULL, "_sum exact (%s)", prefix + 2);
	ok(strstr(txt, "rtmeasure_wakeup_latency_max_seconds{cpu=\"3\"") &&
	   strstr(txt, "window=\"run\"} 0.25\n"), "max over the run exact");
	ok(!strstr(txt, "window=\"interval\""), "no interval window without one");
	ok(strstr(txt, "rtmeasure_overruns_total{cpu=\"3\"") && strstr(txt, "} 7\n") &&
	   strstr(txt, "rtmeasure_implied_samples_total{cpu=\"3\""), "overrun and implied counters");
	ok(strstr(txt, "# TYPE rtmeasure_overruns_total counter\n") != NULL,
	   "0.0.4 names counters with _total in TYPE");
	ok(!strstr(txt, "# EOF") && !strstr(txt, "_created"), "0.0.4: no EOF, no _created");
	ok(strstr(txt, "host=\"lab\\\"1\\\\a\"") != NULL, "label values escaped");
	free(txt);
	rtm_hist_free(h);
}

static void test_openmetrics(void)
{
	struct rtm_prom_target t;
	struct rtm_prom_cpu c = { .cpu = 0 };
	struct rtm_prom_run run = { .trace_lost = 5, .spikes_captured = 2 };
	struct rtm_hist *h = rtm_hist_alloc(), *last = rtm_hist_alloc();
	char *om;
	int i;

	for (i = 1; i <= 10000; i++)
		rtm_hist_record(h, 20000 + (uint64_t)i);
	rtm_hist_record(last, 40000);
	rtm_prom_hist_from(&c.run, h, 0, 0);
	rtm_prom_hist_from(&c.last, last, 0, 0);
	c.has_last = true;
	target(&t);
	om = page(RTM_PROM_OPENMETRICS, &t, &c, 1, &run);
	ok(strlen(om) > 6 && !strcmp(om + strlen(om) - 6, "# EOF\n"), "OpenMetrics ends with # EOF");
	ok(strstr(om, "# UNIT rtmeasure_wakeup_latency_seconds seconds\n") != NULL, "histogram unit");
	ok(strstr(om, "# TYPE rtmeasure_overruns counter\n") && strstr(om, "rtmeasure_overruns_total{") &&
	   strstr(om, "rtmeasure_overruns_created{"), "counter family, _total and _created");
	ok(strstr(om, "rtmeasure_wakeup_latency_seconds_created{cpu=\"0\"") &&
	   strstr(om, "} 1764859220.500\n"), "histogram _created is the run's start");
	ok(strstr(om, "rtmeasure_trace_events_lost_total{") && strstr(om, "rtmeasure_spikes_captured_total{"),
	   "lost events and captured spikes");
	ok(strstr(om, "# TYPE rtmeasure_build info\n") && strstr(om, "rtmeasure_build_info{"),
	   "build info");
	ok(strstr(om, "percentile=\"99\",window=\"run\"} 0.0000299") != NULL,
	   "p99 of 20001..30000 ns is ~29.9 us");
	ok(strstr(om, "max_seconds{cpu=\"0\"") &&
	   strstr(om, ",window=\"interval\"} 0.00004\n") != NULL,
	   "interval window from the latest interval");
	ok(!strstr(om, "percentile=\"99\",window=\"interval\"}") &&
	   !strstr(om, "percentile=\"99.99\",window=\"interval\"}"),
	   "no percentile of the latest interval's 1 sample (too few beyond it)");
	ok(strstr(om, "percentile=\"99.9\",window=\"run\"}") &&
	   !strstr(om, "percentile=\"99.99\",window=\"run\"}"),
	   "p99.9 of 10000 samples, no p99.99 (100000 needed for 10 beyond it)");
	free(om);
	rtm_hist_free(h);
	rtm_hist_free(last);
}

static void test_unplaced(void)
{
	struct rtm_prom_target t;
	struct rtm_prom_cpu c = { .cpu = 1 };
	struct rtm_hist *h = rtm_hist_alloc();
	char *txt;
	int i;

	for (i = 0; i < 100; i++)
		rtm_hist_record(h, 10000 + (uint64_t)i * 1000);
	rtm_prom_hist_from(&c.run, h, 10, 400000);
	target(&t);
	txt = page(RTM_PROM_TEXT, &t, &c, 1, NULL);
	ok(strstr(txt, "le=\"0.0003") != NULL && !strstr(txt, "le=\"0.0005"),
	   "buckets stop below the overflow bound (400 us)");
	ok(strstr(txt, "le=\"+Inf\"} 110\n") && strstr(txt, "_count{cpu=\"1\"") &&
	   strstr(txt, "} 110\n"), "+Inf and _count include the unplaced samples");
	ok(!strstr(txt, "_sum{"), "no _sum when some values are unknown");
	ok(!strstr(txt, "percentile=\"99\""), "p99 among the unplaced samples left out");
	ok(strstr(txt, "rtmeasure_wakeup_latency_max_seconds{cpu=\"1\"") != NULL, "max still shown");
	free(txt);
	rtm_hist_free(h);
}

static void test_result(void)
{
	struct rtm_error err = { "" };
	struct rtm_result *r = rtm_result_load(RTM_SRCDIR "/tests/data/results/vm-6.18-load/result.json",
					       &err);
	char *buf = NULL, prefix[128];
	size_t len = 0;
	FILE *f;
	int i;

	ok(r != NULL, "recorded result loads (%s)", err.msg);
	if (!r)
		return;
	f = open_memstream(&buf, &len);
	ok(f && rtm_prom_write_result(f, RTM_PROM_TEXT, r, &err) == 0, "page from a result");
	fclose(f);
	for (i = 0; i < r->ncpus; i++) {
		snprintf(prefix, sizeof(prefix), "rtmeasure_wakeup_latency_seconds_count{cpu=\"%d\"",
			 r->cpus[i].cpu);
		ok(value_of(buf, prefix) == (double)r->cpus[i].raw->count,
		   "CPU %d: count %" PRIu64, r->cpus[i].cpu, r->cpus[i].raw->count);
	}
	ok(strstr(buf, "kernel=\"6.18.44-fc-v1098\",preempt_model=\"none\"") != NULL,
	   "target labels from the result's sysinfo");
	ok(strstr(buf, "rtmeasure_irq_interrupts_total{cpu=\"1\"") && strstr(buf, "irq=\"LOC\""),
	   "IRQ counts per CPU");
	ok(strstr(buf, "source=\"local_timer\"} 0.575649182\n") != NULL,
	   "handler time exact (575649182 ns)");
	ok(strstr(buf, "rtmeasure_spikes_captured_total{") != NULL, "captured spikes counted");
	free(buf);
	rtm_result_free(r);
}

/*
 * sections.noise made by hand: gaps at, just above and between the bounds,
 * beyond the last one; a CPU without a gap. Expected counts are made from the
 * gap lengths themselves.
 */
static void test_noise(void)
{
	uint64_t le[RTM_PROM_NEDGES];
	uint64_t vals[12], sum = 0, max = 0;
	struct rtm_prom_target t;
	struct rtm_prom_run run = { .trace_lost = -1, .spikes_captured = -1 };
	struct rtm_hist *h = rtm_hist_alloc(), *none = rtm_hist_alloc();
	char *txt, prefix[256], lebuf[64];
	json_t *sec;
	size_t i, n = 0;
	int e, bad = 0;

	rtm_prom_edges(le);
	vals[n++] = 1000;		/* at the threshold's default */
	vals[n++] = le[0];		/* on the first bound */
	vals[n++] = le[0] + 1;		/* the next bucket */
	vals[n++] = 20000;
	vals[n++] = le[9];		/* 30 us bound */
	vals[n++] = le[9] + 1;
	vals[n++] = 680019;		/* the recorded run's largest */
	vals[n++] = le[RTM_PROM_NEDGES - 1];	/* 100 ms bound */
	vals[n++] = le[RTM_PROM_NEDGES - 1] + 1;
	vals[n++] = 250000000;		/* beyond every bound: +Inf only */
	for (i = 0; i < n; i++) {
		rtm_hist_record(h, vals[i]);
		sum += vals[i];
		max = vals[i] > max ? vals[i] : max;
	}
	sec = json_pack("{s:s, s:[{s:i, s:I, s:I, s:I, s:I, s:o}, {s:i, s:I, s:I, s:I, s:I, s:o}]}",
			"probe", "user", "cpus",
			"cpu", 3, "sampled_ns", (json_int_t)1500000000, "gaps", (json_int_t)n,
			"noise_ns", (json_int_t)sum, "max_gap_ns", (json_int_t)max,
			"hist", rtm_hist_to_json(h),
			"cpu", 5, "sampled_ns", (json_int_t)1000000007, "gaps", (json_int_t)0,
			"noise_ns", (json_int_t)0, "max_gap_ns", (json_int_t)0,
			"hist", rtm_hist_to_json(none));
	run.noise = sec;
	target(&t);
	txt = page(RTM_PROM_TEXT, &t, NULL, 0, &run);
	for (e = 0; e < RTM_PROM_NEDGES; e++) {
		uint64_t want = 0;

		for (i = 0; i < n; i++)
			want += vals[i] <= le[e];
		snprintf(lebuf, sizeof(lebuf), "%.9f", (double)le[e] / 1e9);
		while (lebuf[strlen(lebuf) - 1] == '0')
			lebuf[strlen(lebuf) - 1] = '\0';
		snprintf(prefix, sizeof(prefix),
			 "rtmeasure_noise_gap_seconds_bucket{cpu=\"3\",probe=\"noise\","
			 "host=\"lab\\\"1\\\\a\",kernel=\"6.1.0-rt\",preempt_model=\"rt\",le=\"%s\"}",
			 lebuf);
		if (value_of(txt, prefix) != (double)want) {
			diag("le %s: got %g want %" PRIu64, lebuf, value_of(txt, prefix), want);
			bad++;
		}
	}
	ok(!bad, "noise: every gap bucket count equals the gaps at or below its bound");
	ok(strstr(txt, "preempt_model=\"rt\",le=\"+Inf\"} 10\n") != NULL, "noise: +Inf holds every gap");
	ok(value_of(txt, "rtmeasure_noise_gap_seconds_count{cpu=\"3\"") == (double)n,
	   "noise: _count is the gaps");
	snprintf(prefix, sizeof(prefix), "} %" PRIu64 ".%09" PRIu64 "\n", sum / 1000000000,
		 sum % 1000000000);
	ok(strstr(txt, prefix) != NULL, "noise: _sum and noise exact (%s)", prefix + 2);
	ok(strstr(txt, "rtmeasure_noise_seconds_total{cpu=\"3\"") &&
	   value_of(txt, "rtmeasure_noise_seconds_total{cpu=\"3\"") * 1e9 > (double)sum - 1 &&
	   value_of(txt, "rtmeasure_noise_seconds_total{cpu=\"3\"") * 1e9 < (double)sum + 1,
	   "noise: rtmeasure_noise_seconds_total is the gaps summed");
	ok(strstr(txt, "rtmeasure_noise_sampled_seconds_total{cpu=\"5\",probe=\"noise\","
		  "host=\"lab\\\"1\\\\a\",kernel=\"6.1.0-rt\",preempt_model=\"rt\"} 1.000000007\n")
	   != NULL, "noise: sampled time in exact seconds");
	ok(value_of(txt, "rtmeasure_noise_gaps_total{cpu=\"3\"") == (double)n &&
	   value_of(txt, "rtmeasure_noise_gaps_total{cpu=\"5\"") == 0, "noise: gaps counted per CPU");
	ok(strstr(txt, "rtmeasure_noise_max_gap_seconds{cpu=\"3\"") &&
	   strstr(txt, "preempt_model=\"rt\"} 0.25\n") &&
	   !strstr(txt, "rtmeasure_noise_max_gap_seconds{cpu=\"5\""),
	   "noise: largest gap exact; left out for a CPU without a gap");
	ok(strstr(txt, "rtmeasure_noise_gap_seconds_bucket{cpu=\"5\"") &&
	   strstr(txt, "# TYPE rtmeasure_noise_gaps_total counter\n"),
	   "noise: an empty histogram is still a histogram (all zero)");
	ok(!strstr(txt, "rtmeasure_wakeup_latency") && !strstr(txt, "rtmeasure_overruns"),
	   "noise: no wake-up series on a noise page");
	ok(!strstr(txt, "cause"), "noise: no series by cause without noise --trace");
	free(txt);
	/* noise --trace: CPU 3's gaps by cause class */
	json_object_set_new(json_array_get(json_object_get(sec, "cpus"), 0), "causes",
			    json_pack("{s:I, s:I, s:I, s:I, s:I}", "irq_ns", (json_int_t)1500,
				      "softirq_ns", (json_int_t)0, "nmi_ns", (json_int_t)0,
				      "thread_ns", (json_int_t)2000000, "unexplained_ns",
				      (json_int_t)1000000007));
	txt = page(RTM_PROM_TEXT, &t, NULL, 0, &run);
	ok(strstr(txt, "# TYPE rtmeasure_noise_cause_seconds_total counter\n") &&
	   strstr(txt, "rtmeasure_noise_cause_seconds_total{cpu=\"3\",probe=\"noise\","
		  "host=\"lab\\\"1\\\\a\",kernel=\"6.1.0-rt\",preempt_model=\"rt\","
		  "cause=\"unexplained\"} 1.000000007\n") &&
	   value_of(txt, "rtmeasure_noise_cause_seconds_total{cpu=\"3\"") == 0.0000015 &&
	   !strstr(txt, "rtmeasure_noise_cause_seconds_total{cpu=\"5\""),
	   "noise --trace: per-CPU time by cause, exact; none for a CPU without causes");
	free(txt);
	json_object_del(json_array_get(json_object_get(sec, "cpus"), 0), "causes");
	txt = page(RTM_PROM_OPENMETRICS, &t, NULL, 0, &run);
	ok(strstr(txt, "# TYPE rtmeasure_noise_seconds counter\n# UNIT rtmeasure_noise_seconds "
		  "seconds\n") && strstr(txt, "rtmeasure_noise_gaps_created{cpu=\"3\"") &&
	   strstr(txt, "rtmeasure_noise_gap_seconds_created{cpu=\"3\"") &&
	   !strcmp(txt + strlen(txt) - 6, "# EOF\n"), "noise: OpenMetrics families, _created, # EOF");
	free(txt);
	json_decref(sec);
	rtm_hist_free(h);
	rtm_hist_free(none);
}

/* A recorded noise run (--max-gaps 20): the page's figures are result.json's. */
static void test_noise_result(void)
{
	struct rtm_error err = { "" };
	struct rtm_result *r = rtm_result_load(RTM_SRCDIR "/tests/data/results/vm-6.18-noise/result.json",
					       &err);
	const json_t *c;
	char *buf = NULL, prefix[128];
	size_t len = 0, i;
	FILE *f;

	ok(r != NULL, "recorded noise result loads (%s)", err.msg);
	if (!r)
		return;
	f = open_memstream(&buf, &len);
	ok(f && rtm_prom_write_result(f, RTM_PROM_TEXT, r, &err) == 0, "page from a noise result");
	fclose(f);
	json_array_foreach(json_object_get(json_object_get(r->sections, "noise"), "cpus"), i, c) {
		json_int_t cpu = json_integer_value(json_object_get(c, "cpu"));
		json_int_t gaps = json_integer_value(json_object_get(c, "gaps"));

		snprintf(prefix, sizeof(prefix), "rtmeasure_noise_gaps_total{cpu=\"%d\"", (int)cpu);
		ok(value_of(buf, prefix) == (double)gaps, "CPU %d: gaps %d", (int)cpu, (int)gaps);
		snprintf(prefix, sizeof(prefix), "rtmeasure_noise_gap_seconds_count{cpu=\"%d\"",
			 (int)cpu);
		ok(value_of(buf, prefix) == (double)gaps, "CPU %d: histogram count = gaps", (int)cpu);
	}
	ok(strstr(buf, "rtmeasure_noise_max_gap_seconds{cpu=\"0\",probe=\"noise\",host=\"vm\"") &&
	   strstr(buf, "} 0.000680019\n"), "CPU 0: largest gap exact (680019 ns)");
	ok(strstr(buf, "rtmeasure_noise_seconds_total{cpu=\"1\"") &&
	   strstr(buf, "} 0.027134058\n"), "CPU 1: noise exact (27134058 ns)");
	ok(!strstr(buf, "rtmeasure_wakeup_latency") && !strstr(buf, "probe=\"timer\""),
	   "no wake-up series for a noise run, and no probe=\"timer\" label");
	free(buf);
	rtm_result_free(r);
}

/* sections.timer_irq: the delay histogram exact at every bound, unmatched counts by event. */
static void test_timer_irq(void)
{
	static const char pre[] = "rtmeasure_timer_irq_delay_seconds_bucket{cpu=\"1\",probe=\"timer\","
				  "host=\"lab\\\"1\\\\a\",kernel=\"6.1.0-rt\",preempt_model=\"rt\",le=\"";
	uint64_t le[RTM_PROM_NEDGES], vals[8];
	struct rtm_prom_target t;
	struct rtm_prom_run run = { .trace_lost = -1, .spikes_captured = -1 };
	struct rtm_hist *h = rtm_hist_alloc();
	struct rtm_error err = { "" };
	struct rtm_result *r;
	char *txt, prefix[300], lebuf[64], *buf = NULL;
	size_t i, n = 0, len = 0;
	json_t *sec;
	FILE *f;
	int e, bad = 0;

	rtm_prom_edges(le);
	vals[n++] = 7640;		/* this VM's quiet p50 */
	vals[n++] = le[0];
	vals[n++] = le[0] + 1;
	vals[n++] = 17400;
	vals[n++] = le[12];
	vals[n++] = le[12] + 1;
	vals[n++] = 1740000;		/* under load, the largest */
	vals[n++] = 300000000;		/* beyond every bound */
	for (i = 0; i < n; i++)
		rtm_hist_record(h, vals[i]);
	sec = json_pack("{s:s, s:[{s:i, s:I, s:I, s:I, s:I, s:o}], s:I, s:b}", "source", "test",
			"cpus", "cpu", 1, "count", (json_int_t)n, "unmatched_starts", (json_int_t)3,
			"unmatched_expires", (json_int_t)0, "early", (json_int_t)0,
			"delay", rtm_hist_to_json(h), "trace_lost", (json_int_t)0, "complete", 1);
	run.timer_irq = sec;
	target(&t);
	txt = page(RTM_PROM_TEXT, &t, NULL, 0, &run);
	for (e = 0; e < RTM_PROM_NEDGES; e++) {
		uint64_t want = 0;

		for (i = 0; i < n; i++)
			want += vals[i] <= le[e];
		snprintf(lebuf, sizeof(lebuf), "%.9f", (double)le[e] / 1e9);
		while (lebuf[strlen(lebuf) - 1] == '0')
			lebuf[strlen(lebuf) - 1] = '\0';
		snprintf(prefix, sizeof(prefix), "%s%s\"}", pre, lebuf);
		if (value_of(txt, prefix) != (double)want) {
			diag("le %s: got %g want %" PRIu64, lebuf, value_of(txt, prefix), want);
			bad++;
		}
	}
	ok(!bad, "timer IRQ: every bucket count equals the delays at or below its bound");
	snprintf(prefix, sizeof(prefix), "%s+Inf\"}", pre);
	ok(value_of(txt, prefix) == (double)n &&
	   value_of(txt, "rtmeasure_timer_irq_delay_seconds_count{cpu=\"1\"") == (double)n,
	   "timer IRQ: +Inf and _count hold every delay");
	ok(value_of(txt, "rtmeasure_timer_irq_unmatched_total{cpu=\"1\",probe=\"timer\","
		    "host=\"lab\\\"1\\\\a\",kernel=\"6.1.0-rt\",preempt_model=\"rt\","
		    "event=\"start\"}") == 3 &&
	   strstr(txt, "event=\"expire\"} 0\n"), "timer IRQ: unmatched starts and expiries by event");
	free(txt);
	txt = page(RTM_PROM_OPENMETRICS, &t, NULL, 0, &run);
	ok(strstr(txt, "# TYPE rtmeasure_timer_irq_delay_seconds histogram\n# UNIT "
		  "rtmeasure_timer_irq_delay_seconds seconds\n") &&
	   strstr(txt, "rtmeasure_timer_irq_unmatched_created{cpu=\"1\""),
	   "timer IRQ: OpenMetrics family, unit and _created");
	free(txt);

	/* from a result: sections.timer_irq goes on the exported page */
	r = rtm_result_load(RTM_SRCDIR "/tests/data/results/vm-6.18-load/result.json", &err);
	ok(r != NULL, "a recorded result loads (%s)", err.msg);
	if (r) {
		json_object_set(r->sections, "timer_irq", sec);
		f = open_memstream(&buf, &len);
		ok(f && !rtm_prom_write_result(f, RTM_PROM_TEXT, r, &err) && !fclose(f) &&
		   strstr(buf, "rtmeasure_timer_irq_delay_seconds_count{cpu=\"1\",probe=\"timer\"") &&
		   strstr(buf, "rtmeasure_wakeup_latency_seconds_count{cpu=\"0\""),
		   "export: the timer IRQ histogram beside the wake-up's");
		free(buf);
		json_object_del(r->sections, "timer_irq");
		f = open_memstream(&buf, &len);
		ok(f && !rtm_prom_write_result(f, RTM_PROM_TEXT, r, &err) && !fclose(f) &&
		   !strstr(buf, "timer_irq"), "export: no timer IRQ series without the section");
		free(buf);
		rtm_result_free(r);
	}
	json_decref(sec);
	rtm_hist_free(h);
}

int main(void)
{
	test_edges();
	test_exact_buckets();
	test_openmetrics();
	test_unplaced();
	test_result();
	test_noise();
	test_noise_result();
	test_timer_irq();
	return tap_done();
}
