// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_noise.c - the noise probe without a real loop: counter calibration
 * maths (pairs -> rate, counts <-> ns, refusals), the loop's gap rule on
 * recorded counter reads (threshold, lengths, times, sums, histogram, the
 * bounded log), and sections.noise for people and programs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "probe/probe_noise.h"
#include "present/noise_print.h"
#include "../tap.h"

static struct rtm_counter counter_at(double hz)
{
	struct rtm_counter c = { .kind = RTM_COUNTER_RDTSC };
	struct rtm_clock_pair a = { .cycles = 1000, .ns = 5000000000ULL };
	struct rtm_clock_pair b = { .ns = 5000000000ULL + 50000000ULL };
	struct rtm_error err = { "" };

	b.cycles = a.cycles + (uint64_t)(hz * 0.05 + 0.5);
	if (rtm_counter_from_pairs(&c, &a, &b, &err))
		diag("calibration at %.0f Hz refused: %s", hz, err.msg);
	return c;
}

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static void test_calibration(void)
{
	struct rtm_counter c = counter_at(1e9);
	struct rtm_clock_pair a = { .cycles = 100, .ns = 1000 }, b = a;
	struct rtm_clock_pair tries[4] = {
		{ 10, 100, 80 }, { 20, 200, 35 }, { 30, 300, 36 }, { 40, 400, 90 },
	};
	struct rtm_error err = { "" };
	uint64_t ten_hours;

	is_u64(c.mult, 1ULL << RTM_CLOCK_SHIFT, "1 GHz: one count is one ns exactly");
	is_u64(rtm_counter_ns(&c, 123456789), 123456789, "1 GHz: counts are ns");

	c = counter_at(2.1e9);
	ok(c.hz > 2.1e9 - 1 && c.hz < 2.1e9 + 1, "2.1 GHz measured as %.1f Hz", c.hz);
	ok(absdiff(rtm_counter_ns(&c, 2100), 1000) <= 1, "2100 counts at 2.1 GHz: 1000 ns (%llu)",
	   (unsigned long long)rtm_counter_ns(&c, 2100));
	ok(absdiff(rtm_counter_cycles(&c, 1000), 2100) <= 1, "1000 ns at 2.1 GHz: 2100 counts (%llu)",
	   (unsigned long long)rtm_counter_cycles(&c, 1000));
	/* ten hours of counts: the 128-bit product neither overflows nor drifts */
	ten_hours = 36000ULL * 2100000000ULL;
	ok(absdiff(rtm_counter_ns(&c, ten_hours), 36000ULL * 1000000000ULL) <= 360,
	   "ten hours at 2.1 GHz within 1 ns per 100 s (%llu ns)",
	   (unsigned long long)rtm_counter_ns(&c, ten_hours));
	c = counter_at(3e9);
	ok(absdiff(rtm_counter_ns(&c, 3000), 1000) <= 1, "3000 counts at 3 GHz: 1000 ns");

	/* refusals: time or counts that did not advance, absurd rates */
	ok(rtm_counter_from_pairs(&c, &a, &b, &err) == -EINVAL && one_line(err.msg),
	   "no time between the pairs: refused (%s)", err.msg);
	b.ns = a.ns + 1000000;
	b.cycles = a.cycles - 1;
	ok(rtm_counter_from_pairs(&c, &a, &b, &err) == -EINVAL, "a counter that went back: refused");
	b.cycles = a.cycles + 100;	/* 100 kHz */
	ok(rtm_counter_from_pairs(&c, &a, &b, &err) == -EINVAL && strstr(err.msg, "Hz"),
	   "a 100 kHz counter: refused (%s)", err.msg);

	ok(rtm_clock_best_pair(tries, 4) == &tries[1], "the pair read closest together is used");
	ok(rtm_clock_best_pair(tries, 0) == NULL, "no pair: none");
}

static void rec_init(struct rtm_noise_rec *rec, const struct rtm_counter *c, uint64_t thr_ns,
		     uint64_t report_ns, uint32_t max_log)
{
	memset(rec, 0, sizeof(*rec));
	rec->threshold_cycles = rtm_counter_cycles(c, thr_ns);
	rec->report_above_ns = report_ns;
	rec->hist = rtm_hist_alloc();
	rec->max_log = max_log;
	rec->log = calloc(max_log ? max_log : 1, sizeof(*rec->log));
}

static void rec_release(struct rtm_noise_rec *rec)
{
	rtm_hist_free(rec->hist);
	free(rec->log);
}

static void test_gaps(void)
{
	struct rtm_counter c = counter_at(1e9);
	struct rtm_noise_rec rec;
	uint64_t reads[1000], t = 777;
	const uint64_t mono0 = 9000000000ULL;
	int i;

	/* reads every 20 ns; at read 100 a 5 us gap, at 200 exactly the threshold
	 * (not a gap), at 300 one ns over it, at 400 a 50 us gap */
	for (i = 0; i < 1000; i++) {
		reads[i] = t;
		t += i == 99 ? 5000 : i == 199 ? 1000 : i == 299 ? 1001 : i == 399 ? 50000 : 20;
	}
	rec_init(&rec, &c, 1000, 20000, 16);
	rtm_noise_rec_scan(&rec, &c, mono0, reads, 1000);
	is_u64(rec.gaps, 3, "three gaps over 1 us (exactly 1 us is none)");
	is_u64(rec.noise_ns, 5000 + 1001 + 50000, "noise is the sum of the gaps");
	is_u64(rec.max_gap_ns, 50000, "largest gap");
	is_u64(rec.above_report, 1, "one gap above --report-above 20 us");
	is_u64(rec.loops, 999, "a loop per read after the first");
	is_u64(rec.sampled_ns, reads[999] - reads[0], "sampled time: first to last read");
	is_u64(rec.windows, 1, "one window");
	is_u64(rec.nlog, 3, "all three gaps kept");
	is_u64(rec.log[0].start_ns, mono0 + 99 * 20, "gap 1 starts at the read before it");
	is_u64(rec.log[0].len_ns, 5000, "gap 1 length");
	is_u64(rec.log[1].len_ns, 1001, "gap 2 length");
	is_u64(rec.log[2].start_ns, mono0 + 99 * 20 + 5000 + 199 * 20 + 1000 + 1001 + 98 * 20,
	       "gap 3 starts at the read before it");
	is_u64(rec.hist->count, 3, "histogram: three gaps");
	is_u64(rec.hist->min_ns, 1001, "histogram min exact");
	is_u64(rec.hist->max_ns, 50000, "histogram max exact");
	ok(absdiff(rtm_hist_percentile(rec.hist, 50), 5000) <= 5000 / 256,
	   "histogram median 5 us within a bucket (%llu)",
	   (unsigned long long)rtm_hist_percentile(rec.hist, 50));
	rec_release(&rec);

	/* a log of two: the third gap counted, not kept */
	rec_init(&rec, &c, 1000, 20000, 2);
	rtm_noise_rec_scan(&rec, &c, mono0, reads, 1000);
	ok(rec.gaps == 3 && rec.nlog == 2 && rec.dropped == 1 && rec.hist->count == 3,
	   "a full log drops the time of a gap, never its count (kept %u, dropped %llu)",
	   rec.nlog, (unsigned long long)rec.dropped);
	rec_release(&rec);

	/* at 2 GHz: lengths converted from counts */
	c = counter_at(2e9);
	for (i = 0; i < 10; i++)
		reads[i] = 1000 + (uint64_t)i * 40 + (i >= 5 ? 20000 : 0);	/* 10 us gap */
	rec_init(&rec, &c, 1000, 20000, 4);
	rtm_noise_rec_scan(&rec, &c, mono0, reads, 10);
	ok(rec.gaps == 1 && absdiff(rec.log[0].len_ns, 10020) <= 1,
	   "2 GHz: a gap of 20040 counts is 10.02 us (%llu ns)",
	   (unsigned long long)rec.log[0].len_ns);
	ok(absdiff(rec.log[0].start_ns, mono0 + 80) <= 1, "2 GHz: its start 160 counts in (80 ns)");
	rec_release(&rec);
}

static void test_section(void)
{
	const char *text =
		"{\"probe\": \"user\", \"counter\": \"tsc (rdtsc)\", \"counter_hz\": 2.0e9, "
		"\"window_ns\": 1000000000, \"width_ns\": 500000000, \"threshold_ns\": 1000, "
		"\"report_above_ns\": 20000, \"cpus\": ["
		"{\"cpu\": 0, \"sampled_ns\": 2000000000, \"loops\": 100000000, \"windows\": 4, "
		"\"gaps\": 3, \"noise_ns\": 56001, \"max_gap_ns\": 50000, \"above_report\": 1, "
		"\"gaps_dropped\": 0, \"hist\": {}, \"gap_list\": [[1000, 5000], [2000, 1001], "
		"[1500000000, 50000]]}, "
		"{\"cpu\": 1, \"sampled_ns\": 0, \"loops\": 0, \"windows\": 0, \"gaps\": 0, "
		"\"noise_ns\": 0, \"max_gap_ns\": 0, \"above_report\": 0, \"gaps_dropped\": 0, "
		"\"hist\": {}, \"gap_list\": []}]}";
	json_t *sec = json_loads(text, 0, NULL), *sum, *c0;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	sum = rtm_noise_summary_json(sec);
	c0 = json_array_get(json_object_get(sum, "cpus"), 0);
	ok(c0 && !json_object_get(c0, "hist") && !json_object_get(c0, "gap_list"),
	   "--json summary: no histogram, no gap list");
	ok(json_real_value(json_object_get(c0, "noise_pct")) > 0.0028 &&
	   json_real_value(json_object_get(c0, "noise_pct")) < 0.0029, "noise %% of sampled time");
	ok(json_is_null(json_object_get(json_array_get(json_object_get(sum, "cpus"), 1),
					"noise_pct")), "nothing sampled: noise %% unknown (null)");
	json_decref(sum);

	f = open_memstream(&out, &len);
	ok(rtm_noise_fprint(sec, f, true) == 0, "table printed");
	fclose(f);
	ok(strstr(out, "  0       2000000           56    99.99720           50          3") != NULL,
	   "CPU 0 row: runtime, noise, %% available, max single, gaps in us");
	ok(strstr(out, "        20.0") != NULL, "sample period 20 ns");
	ok(strstr(out, "unknown") != NULL, "CPU 1 sampled nothing: unknown, not 100%%");
	ok(strstr(out, "CPU 0:   50.0 us at 1.500000 s") != NULL, "the gap above 20 us listed");
	ok(strstr(out, "5.00 us") == NULL, "gaps below --report-above not listed");
	if (tap_failed)
		diag("%s", out);
	free(out);
	ok(rtm_noise_fprint(json_object_get(sec, "probe"), stdout, true) == -EINVAL,
	   "not a noise section: -EINVAL");
	json_decref(sec);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/*
 * A recorded noise run (two CPUs, 5 s, gap causes traced): the listed gaps are the
 * longest, not the first in time (CPU 0's longest, 99.2 us, is its 43rd gap above
 * 20 us); compact by default, in full with verbose; what the time figures measure.
 */
static void test_recorded_print(void)
{
	const char *dir = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
	char path[512], *out = NULL, *full = NULL, *p, *q;
	json_t *r, *sec;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/compare/noise-only-1/result.json", dir);
	r = json_load_file(path, 0, NULL);
	sec = json_object_get(json_object_get(r, "sections"), "noise");
	ok(sec != NULL, "recorded: %s loads", path);
	if (!sec)
		return;
	f = open_memstream(&out, &len);
	ok(rtm_noise_fprint(sec, f, false) == 0, "recorded: compact summary printed");
	fclose(f);
	ok(strstr(out, "  CPU 0: 99.2 us (") != NULL,
	   "compact: CPU 0's longest gap (99.2 us, the 43rd in time) comes first");
	ok(strstr(out, "  CPU 1: 77.3 us (") != NULL, "compact: so does CPU 1's (77.3 us)");
	ok(strstr(out, ", ... and 60 more\n") != NULL, "compact: 3 of CPU 0's 63, the rest counted");
	ok(strstr(out, "noise: sampled 1.000 s per CPU in 1.508 s of wall time (duty cycle 50%: "
		  "busy 500 ms of every 1.00 s)\n") != NULL,
	   "the time sampled per CPU against the wall time, not a bare duration");
	ok(count_lines(out) <= 18, "compact: %d lines for two CPUs", count_lines(out));
	f = open_memstream(&full, &len);
	ok(rtm_noise_fprint(sec, f, true) == 0, "recorded: verbose summary printed");
	fclose(f);
	p = strstr(full, "  CPU 0:   99.2 us at ");
	q = p ? strstr(p, "\n         ... and 53 more\n") : NULL;
	ok(p && q, "verbose: CPU 0's longest first with its time, 10 shown, the rest counted");
	ok(p && q && strstr(p, "  CPU 1:   77.3 us at ") > q, "verbose: then CPU 1's longest");
	ok(count_lines(full) > count_lines(out) + 18, "verbose: %d lines, compact %d",
	   count_lines(full), count_lines(out));
	ok(!strstr(out, "were cut"), "recorded: no busy part cut, no note");
	if (tap_failed)
		diag("%s\n%s", out, full);
	free(out);
	free(full);
	/* busy parts the wall-clock guard cut: one note with their count */
	json_object_set_new(json_array_get(json_object_get(sec, "cpus"), 1), "windows_cut",
			    json_integer(2));
	out = NULL;
	f = open_memstream(&out, &len);
	ok(rtm_noise_fprint(sec, f, false) == 0, "cut: summary printed");
	fclose(f);
	ok(strstr(out, "note: 2 busy parts ran past their width by CLOCK_MONOTONIC and were "
		  "cut (windows_cut)") != NULL,
	   "cut: a note counts the busy parts the guard cut");
	free(out);
	json_decref(r);
}

/*
 * A thread that cannot be pinned (a CPU past the last one) stops the start with
 * its message: the starter reads the gate's error, not the thread's, which is
 * set only once the gate opens (before, the probe ran without that CPU).
 */
static void test_start_refused(void)
{
	int cpu = (int)sysconf(_SC_NPROCESSORS_CONF) + 3;
	struct rtm_probe_noise_opts o = {
		.cpus = { 1, &cpu },
		.sched = { .policy = RTM_POLICY_OTHER },
		.duration_ns = 20000000ULL,
		.window_ns = 100000000ULL,
		.width_ns = 10000000ULL,
		.threshold_ns = 1000,
		.report_above_ns = 20000,
		.max_gaps = 16,
		.dma_latency_us = -1,
	};
	struct rtm_error err = { "" };
	struct rtm_probe_noise *p = rtm_probe_noise_start(&o, &err);
	char want[32];

	snprintf(want, sizeof(want), "CPU %d", cpu);
	tap_ok(!p, "start: a thread that cannot be pinned to CPU %d stops the start", cpu);
	tap_ok(strstr(err.msg, want) != NULL, "start: its message names the CPU (%s)", err.msg);
	if (p) {
		rtm_probe_noise_stop(p);
		rtm_probe_noise_free(p);
	}
}

/*
 * The busy part's wall-clock guard: with a counter 50 times slower than its
 * calibration, a 10 ms busy part would last 500 ms; the guard cuts each one
 * 2 ms past its end and counts it. With the calibration as measured, none is
 * cut (a cut needs the counter behind the clock, not a late thread).
 */
static int guard_run(const struct rtm_counter *c, uint64_t *windows, uint64_t *cut)
{
	int cpu = 0;
	struct rtm_probe_noise_opts o = {
		.cpus = { 1, &cpu },
		.sched = { .policy = RTM_POLICY_OTHER },
		.duration_ns = 250000000ULL,
		.window_ns = 100000000ULL,
		.width_ns = 10000000ULL,
		.threshold_ns = 1000000,
		.report_above_ns = 1000000000ULL,
		.max_gaps = 16,
		.dma_latency_us = -1,
	};
	struct rtm_error err = { "" };
	struct rtm_result *r = rtm_result_alloc("noise");
	struct rtm_probe_noise *p = r ? rtm_probe_noise_start_with(&o, c, &err) : NULL;
	const json_t *c0;

	*windows = *cut = 0;
	if (!p) {
		printf("# guard: the probe did not start: %s\n", err.msg);
		rtm_result_free(r);
		return -1;
	}
	while (!rtm_probe_noise_done(p))
		usleep(10000);
	if (rtm_probe_noise_finish(p, r, &err)) {
		rtm_probe_noise_free(p);
		rtm_result_free(r);
		return -1;
	}
	c0 = json_array_get(json_object_get(json_object_get(r->sections, "noise"), "cpus"), 0);
	*windows = (uint64_t)json_integer_value(json_object_get(c0, "windows"));
	*cut = (uint64_t)json_integer_value(json_object_get(c0, "windows_cut"));
	rtm_probe_noise_free(p);
	rtm_result_free(r);
	return 0;
}

static void test_guard(void)
{
	struct rtm_counter good, slow;
	struct rtm_error err = { "" };
	uint64_t windows = 0, cut = 0;
	int ret;

	if (rtm_counter_calibrate(&good, 20000000ULL, &err)) {
		tap_ok(0, "guard: the counter calibrates (%s)", err.msg);
		return;
	}
	slow = good;
	slow.mult = good.mult / 50;	/* 50 times the counts per ns: the counter "slower" */
	ret = guard_run(&slow, &windows, &cut);
	tap_ok(!ret && windows >= 2 && cut == windows,
	       "guard: a counter 50x slower than calibrated: every busy part cut "
	       "(%" PRIu64 " of %" PRIu64 " windows)", cut, windows);
	ret = guard_run(&good, &windows, &cut);
	tap_ok(!ret && windows >= 2 && cut == 0,
	       "guard: the counter as calibrated: none cut (%" PRIu64 " of %" PRIu64 " windows)",
	       cut, windows);
}

int main(void)
{
	test_calibration();
	test_gaps();
	test_section();
	test_recorded_print();
	test_start_refused();
	test_guard();
	return tap_done();
}
