// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_wakeup.c - rtmeasure wakeup without the kernel: the BPF programs' bucket
 * index and recording code (core/hist_layout.h, probe/wakeup_record.h) compiled
 * for the host against core/hist.c, and synthetic map contents turned into
 * histograms, interval figures, the task table and a result.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "probe/wakeup.h"
#include "probe/wakeup_record.h"
#include "result/result.h"
#include "../tap.h"

typedef unsigned __int128 u128;

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng_next(void)		/* xorshift64* */
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(0x2545F4914F6CDD1D);
}

/* The host's index of a value as rtm_hist_record() counts it. */
static unsigned int host_index(uint64_t v)
{
	return rtm_hist_index(v > RTM_HIST_MAX_NS ? RTM_HIST_MAX_NS : v);
}

static void test_index(void)
{
	uint64_t v, bad = 0, first_bad = 0, n = 0;
	int bit, d, i;

	for (v = 0; v < (1u << 20); v++, n++)
		if (rtm_hist_layout_index(v) != host_index(v) && !bad++)
			first_bad = v;
	for (bit = 0; bit < 64; bit++)
		for (d = -3; d <= 3; d++, n++) {
			v = (UINT64_C(1) << bit) + (uint64_t)(int64_t)d;
			if (rtm_hist_layout_index(v) != host_index(v) && !bad++)
				first_bad = v;
		}
	for (i = 0; i < 2000000; i++, n++) {
		v = rng_next() >> (rng_next() % 64);	/* every magnitude */
		if (rtm_hist_layout_index(v) != host_index(v) && !bad++)
			first_bad = v;
	}
	if (!ok(!bad, "BPF bucket index equals rtm_hist_index on %" PRIu64 " values", n))
		diag("%" PRIu64 " differ, the first at %" PRIu64, bad, first_bad);
	is_int(rtm_hist_layout_index(UINT64_MAX), RTM_HIST_NCOUNTS - 1,
	       "values above the top go to the top counter");
}

/*
 * The filter of stamped tasks that spares sched_switch its look-up in "wakes":
 * never 0 for a task with a stamp (stamps, a slot taken by another task and
 * ends in a random order, as the programs make them), 0 again when none is
 * left, and mostly 0 for the other tasks. Task addresses as a slab gives them.
 */
#define FT_TASKS 512

static void test_filter(void)
{
	static __u32 filter[RTM_WK_FILTER_LEN];	/* one CPU's (struct rtm_wk_cstate) */
	uint64_t task[FT_TASKS], owner[64] = { 0 };
	int stamped[FT_TASKS] = { 0 }, per[RTM_WK_FILTER_LEN] = { 0 };
	int i, k, step, missed = 0, left = 0, maxper = 0, fp = 0, probes = 0;
	const uint32_t mask = 63;	/* few slots: collisions on purpose */
	uint32_t slot;

	for (i = 0; i < FT_TASKS; i++) {
		task[i] = UINT64_C(0xffff888100000000) + (uint64_t)i * 0x2440;
		per[rtm_wk_filter_of(task[i])]++;
		if (rtm_wk_filter_of(task[i]) >= RTM_WK_FILTER_LEN)
			missed++;
	}
	for (i = 0; i < (int)RTM_WK_FILTER_LEN; i++)
		if (per[i] > maxper)
			maxper = per[i];
	ok(!missed && maxper <= 4 * FT_TASKS / (int)RTM_WK_FILTER_LEN,
	   "filter counters in range and spread (at most %d of %d tasks on one)", maxper, FT_TASKS);
	missed = 0;
	for (step = 0; step < 200000; step++) {
		k = (int)(rng_next() % FT_TASKS);
		slot = rtm_wk_slot_of(task[k], mask);
		if (rng_next() % 2) {			/* a wake-up: stamp() */
			if (!owner[slot]) {
				rtm_wk_filter_add(filter, task[k], 1);
			} else if (owner[slot] != task[k]) {	/* another task's slot */
				rtm_wk_filter_add(filter, task[k], 1);
				rtm_wk_filter_add(filter, owner[slot], -1);
				for (i = 0; i < FT_TASKS; i++)
					if (task[i] == owner[slot])
						stamped[i] = 0;
			}
			owner[slot] = task[k];
			stamped[k] = 1;
		} else if (owner[slot] == task[k]) {	/* its switch: unstamp() */
			owner[slot] = 0;
			stamped[k] = 0;
			rtm_wk_filter_add(filter, task[k], -1);
		}
		for (i = 0; i < FT_TASKS; i++)
			if (stamped[i] && !rtm_wk_filter_may(filter, task[i]))
				missed++;
	}
	ok(!missed, "a stamped task always passes the filter (%d misses)", missed);
	for (slot = 0; slot <= mask; slot++)
		if (owner[slot])
			rtm_wk_filter_add(filter, owner[slot], -1);
	for (i = 0; i < (int)RTM_WK_FILTER_LEN; i++)
		left += filter[i] != 0;
	is_int(left, 0, "the filter empty when every stamp has ended");
	for (step = 0; step < 100; step++) {	/* two tasks wait: the others */
		int a = (int)(rng_next() % FT_TASKS), b = (int)(rng_next() % FT_TASKS);

		rtm_wk_filter_add(filter, task[a], 1);
		rtm_wk_filter_add(filter, task[b], 1);
		for (i = 0; i < FT_TASKS; i++)
			if (i != a && i != b) {
				probes++;
				fp += rtm_wk_filter_may(filter, task[i]);
			}
		rtm_wk_filter_add(filter, task[a], -1);
		rtm_wk_filter_add(filter, task[b], -1);
	}
	ok(probes && fp * 10 < probes, "with 2 stamped, nearly all other tasks fail it (%d of %d pass)",
	   fp, probes);
}

/* One wait counted as the programs count it: counter, then the CPU's figures. */
static void bpf_record(struct rtm_wakeup_snap *s, int cpu, uint64_t lat, uint64_t above,
		       uint64_t epoch)
{
	s->counts[(size_t)cpu * RTM_HIST_NCOUNTS + rtm_hist_layout_index(lat)]++;
	rtm_wk_record_cpu(&s->cpu[cpu], lat, above, epoch);
}

static int hist_equal(const struct rtm_hist *a, const struct rtm_hist *b)
{
	return a->count == b->count && a->min_ns == b->min_ns && a->max_ns == b->max_ns &&
	       a->sum_ns == b->sum_ns && a->sum_sq == b->sum_sq && a->saturated == b->saturated &&
	       !memcmp(a->counts, b->counts, sizeof(a->counts));
}

/* Valid as result.json would carry it: the JSON form read back without complaint. */
static int hist_valid(const struct rtm_hist *h)
{
	struct rtm_hist *back = rtm_hist_alloc();
	struct rtm_error err = { "" };
	json_t *j = rtm_hist_to_json(h);
	int ret = back && j && !rtm_hist_from_json(back, j, &err);

	if (!ret)
		diag("%s", err.msg);
	json_decref(j);
	rtm_hist_free(back);
	return ret;
}

/* A time-series point: p99 of the interval's counters, never above its exact max. */
static void test_point(struct rtm_wakeup_snap *s)
{
	struct rtm_hist *prev = rtm_hist_alloc(), *cur = rtm_hist_alloc(), *d = rtm_hist_alloc();
	struct rtm_ts_point p;
	int i;

	if (!prev || !cur || !d)
		abort();
	memset(s->cpu, 0, 4 * sizeof(*s->cpu));
	memset(s->counts, 0, 4 * RTM_HIST_NCOUNTS * sizeof(*s->counts));
	for (i = 0; i < 10; i++)
		bpf_record(s, 1, 100000, 0, 0);
	rtm_wakeup_cpu_hist(s, 1, prev);
	for (i = 0; i < 200; i++)	/* 4707 ns: its bucket's midpoint is 4711 */
		bpf_record(s, 1, i < 190 ? 4000 : 4707, 0, 1);
	rtm_wakeup_cpu_hist(s, 1, cur);
	rtm_wakeup_ts_point(s, 1, 1, prev, cur, d, &p);
	is_u64(p.count, 200, "the interval's count");
	is_u64(p.max_ns, 4707, "its exact max, not the earlier interval's");
	ok(p.p99_ns >= p.min_ns && p.p99_ns <= p.max_ns, "its p99 (%" PRIu64 ") within min and "
	   "max", p.p99_ns);
	rtm_wakeup_ts_point(s, 1, 1, cur, prev, d, &p);
	is_u64(p.p99_ns, 4707, "a torn copy: p99 is the max");
	rtm_hist_free(prev);
	rtm_hist_free(cur);
	rtm_hist_free(d);
}

static void test_record(void)
{
	struct rtm_wakeup_snap *s = rtm_wakeup_snap_alloc(4, 8);
	struct rtm_hist *want = rtm_hist_alloc(), *got = rtm_hist_alloc();
	uint64_t v, c, mn, mx;
	int i;

	if (!s || !want || !got)
		abort();
	/* microseconds and hours: the 128-bit sum of squares takes values above 2^32 ns */
	for (i = 0; i < 50000; i++) {
		v = rng_next() >> (20 + rng_next() % 44);
		if (i % 1000 == 0)
			v = (UINT64_C(1) << 40) + rng_next() % 1000000;
		bpf_record(s, 2, v, 100000, 0);
		rtm_hist_record(want, v);
	}
	bpf_record(s, 2, RTM_HIST_MAX_NS + 12345, 100000, 0);	/* above the top */
	rtm_hist_record(want, RTM_HIST_MAX_NS + 12345);
	rtm_wakeup_cpu_hist(s, 2, got);
	ok(hist_equal(got, want), "the programs' counters and figures make the histogram "
	   "rtm_hist_record makes (counts, min, max, sum, sum of squares, saturated)");
	ok(hist_valid(got), "it is valid as JSON");
	rtm_wakeup_cpu_hist(s, 1, got);
	is_u64(got->count, 0, "a CPU without wake-ups has an empty histogram");
	ok(hist_valid(got), "which is valid");

	/* a copy taken mid-write: one more counter than the figures know */
	s->counts[2 * RTM_HIST_NCOUNTS + rtm_hist_layout_index(7 * RTM_HIST_MAX_NS / 8)]++;
	s->counts[2 * RTM_HIST_NCOUNTS + rtm_hist_layout_index(3)]++;
	rtm_wakeup_cpu_hist(s, 2, got);
	is_u64(got->count, want->count + 2, "a torn copy counts the counters");
	ok(hist_valid(got), "and is still a valid histogram");

	memset(s->cpu, 0, 4 * sizeof(*s->cpu));
	bpf_record(s, 0, 5000, 0, 7);
	bpf_record(s, 0, 9000, 0, 7);
	bpf_record(s, 0, 1000, 0, 8);
	rtm_wakeup_interval(s, 0, 7, &c, &mn, &mx);
	ok(c == 2 && mn == 5000 && mx == 9000, "interval 7's slot: 2 wake-ups, 5000..9000 ns");
	rtm_wakeup_interval(s, 0, 8, &c, &mn, &mx);
	ok(c == 1 && mn == 1000 && mx == 1000, "interval 8 in the other slot");
	bpf_record(s, 0, 4000, 0, 9);
	rtm_wakeup_interval(s, 0, 9, &c, &mn, &mx);
	ok(c == 1 && mx == 4000, "interval 9 empties the slot of 7 first");
	rtm_wakeup_interval(s, 0, 7, &c, &mn, &mx);
	ok(c == 0 && mx == 0, "interval 7 is gone: no wake-ups, not 9's");
	is_u64(s->cpu[0].above, 0, "no bound: nothing counted above it");
	test_point(s);
	rtm_wakeup_snap_free(s);
	rtm_hist_free(want);
	rtm_hist_free(got);
}

static struct rtm_wk_task task(uint32_t pid, const char *comm, int policy, int prio,
			       uint64_t count, uint64_t max_ns)
{
	struct rtm_wk_task t;

	memset(&t, 0, sizeof(t));
	t.pid = pid;
	t.tgid = 100;
	t.policy = policy;
	t.prio = prio;
	t.count = count;
	t.sum_ns = count * 1000;
	t.max_ns = max_ns;
	memcpy(t.comm, comm, strnlen(comm, sizeof(t.comm)));
	return t;
}

static void test_section(void)
{
	struct rtm_wakeup_opts o = { .sel = RTM_WK_SEL_POLICY, .policies = (1u << 1) | (1u << 2),
				     .above_ns = 50000 };
	struct rtm_wakeup_snap *s = rtm_wakeup_snap_alloc(2, 8);
	json_t *j, *t;

	if (!s)
		abort();
	s->tasks[0] = task(101, "ctl-loop", 1, 19, 10, 3000);		/* FIFO 80 */
	s->tasks[1] = task(102, "irq/24-eth0", 1, 49, 5, 90000);	/* FIFO 50 */
	s->tasks[2] = task(103, "logger", 2, 98, 7, 20000);		/* RR 1 */
	memcpy(s->tasks[2].comm, "0123456789abcdef", 16);		/* no NUL */
	s->ntasks = 3;
	s->cpu[1].lost_tasks = 4;
	s->cpu[0].above = 2;
	rtm_wakeup_sort_tasks(s);
	j = rtm_wakeup_section(&o, s, 2, NULL);
	t = json_object_get(j, "tasks");
	is_int(json_array_size(t), 2, "the top 2 tasks only");
	is_str(json_string_value(json_object_get(json_array_get(t, 0), "comm")), "irq/24-eth0",
	       "the longest wait first");
	is_int(json_integer_value(json_object_get(json_array_get(t, 0), "rt_priority")), 50,
	       "its rt_priority from the kernel's prio");
	is_str(json_string_value(json_object_get(json_array_get(t, 1), "comm")),
	       "0123456789abcdef", "a 16-byte name without NUL is cut at 16");
	is_str(json_string_value(json_object_get(json_array_get(t, 1), "policy")), "rr",
	       "its policy by name");
	is_int(json_integer_value(json_object_get(j, "lost_tasks")), 4,
	       "tasks the full table left out");
	is_int(json_integer_value(json_object_get(j, "above")), 2, "waits above the bound");
	is_str(json_string_value(json_array_get(json_object_get(json_object_get(j, "selection"),
						"policies"), 1)), "rr", "the selection's policies");
	json_decref(j);
	rtm_wakeup_snap_free(s);
}

static void test_result(void)
{
	struct rtm_wakeup_snap *s = rtm_wakeup_snap_alloc(4, 4);
	struct rtm_result *r = rtm_result_alloc("wakeup"), *back;
	struct rtm_error err = { "" };
	const int sel[] = { 1, 3 };
	json_t *j;
	int i;

	if (!s || !r)
		abort();
	for (i = 0; i < 100; i++)
		bpf_record(s, 3, 2000 + 37 * (uint64_t)i, 0, 0);
	bpf_record(s, 0, 1500, 0, 0);
	ok(!rtm_wakeup_fill_result(r, s, NULL, 0, 0), "filled from every CPU");
	ok(r->ncpus == 2 && r->cpus[0].cpu == 0 && r->cpus[1].cpu == 3,
	   "the CPUs that measured a wake-up, in order");
	ok(!rtm_wakeup_fill_result(r, s, NULL, 0, 0) && r->ncpus == 2,
	   "filled again: the same CPUs, refreshed");
	rtm_result_free(r);
	r = rtm_result_alloc("wakeup");
	ok(!rtm_wakeup_fill_result(r, s, sel, 2, 1000000000ULL) && r->ncpus == 2 &&
	   r->cpus[0].cpu == 1 && r->cpus[0].raw->count == 0 && r->cpus[1].raw->count == 100 &&
	   r->cpus[1].ts, "-a 1,3: those CPUs, an empty one among them, with time series");
	r->duration_ns = 1000000000ULL;
	j = rtm_result_to_json(r);
	back = j ? rtm_result_from_json(j, "test", &err) : NULL;
	if (!ok(back && back->ncpus == 2 && back->cpus[1].raw->max_ns == 2000 + 37 * 99,
		"the result reads back as result.json"))
		diag("%s", err.msg);
	rtm_result_free(back);
	json_decref(j);
	rtm_result_free(r);
	rtm_wakeup_snap_free(s);
	ok(!rtm_wakeup_snap_alloc(0, 4) && !rtm_wakeup_snap_alloc(2, 0), "a snapshot needs CPUs "
	   "and room for tasks");
}

int main(void)
{
	test_index();
	test_filter();
	test_record();
	test_section();
	test_result();
	return tap_done();
}
