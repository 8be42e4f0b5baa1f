// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_wakeup_cause.c - the waits over rtmeasure wakeup's bound without the
 * kernel: the cause and the rate bound the BPF programs decide
 * (probe/wakeup_record.h, compiled for the host), and synthetic ring-buffer
 * records turned into sentences, the census's tallies and its JSON.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "present/wakeup_print.h"
#include "probe/wakeup.h"
#include "probe/wakeup_cause.h"
#include "probe/wakeup_record.h"
#include "../tap.h"

/* A wait of @lat_ns on @cpu, the task "ctl" (FIFO 80) woken there. */
static struct rtm_wk_cause_rec rec(unsigned int cpu, uint64_t lat_ns, uint64_t task_ns,
				   uint64_t irq_ns, uint64_t softirq_ns, const char *top_comm,
				   int top_policy, int top_prio)
{
	struct rtm_wk_cause_rec r;

	memset(&r, 0, sizeof(r));
	r.wake_ns = 1000000000ULL + lat_ns;
	r.lat_ns = lat_ns;
	r.task_ns = task_ns;
	r.irq_ns = irq_ns;
	r.softirq_ns = softirq_ns;
	r.pid = 812;
	r.tgid = 810;
	r.policy = 1;
	r.prio = 19;
	memcpy(r.comm, "ctl", 3);
	r.cpu = r.target_cpu = r.waker_cpu = cpu;
	if (top_comm) {
		r.top_pid = 3301;
		r.top_policy = top_policy;
		r.top_prio = top_prio;
		memcpy(r.top_comm, top_comm, strnlen(top_comm, RTM_WK_COMM_LEN));
	}
	r.cause = rtm_wk_cause_of(lat_ns, task_ns, irq_ns, softirq_ns);
	return r;
}

static void test_cause_of(void)
{
	is_int(rtm_wk_cause_of(3000000, 2900000, 10000, 0), RTM_WK_CAUSE_THREAD,
	       "a task that held the CPU for most of the wait");
	is_int(rtm_wk_cause_of(2000000, 300000, 1200000, 100000), RTM_WK_CAUSE_IRQ,
	       "hard interrupt handlers the largest part");
	is_int(rtm_wk_cause_of(2000000, 300000, 100000, 900000), RTM_WK_CAUSE_SOFTIRQ,
	       "softirq handlers the largest part");
	is_int(rtm_wk_cause_of(2000000, 300000, 100000, 200000), RTM_WK_CAUSE_WAKE_PATH,
	       "the rest larger than any part: nothing that ran explains it");
	is_int(rtm_wk_cause_of(1000000, 0, 0, 0), RTM_WK_CAUSE_WAKE_PATH,
	       "nothing ran at all");
	is_int(rtm_wk_cause_of(1000000, 500000, 500000, 0), RTM_WK_CAUSE_THREAD,
	       "a tie goes to the task");
}

static void test_token(void)
{
	const uint64_t cost = 10000000, burst = 3 * cost;	/* 100 a second, 3 at once */
	__u64 credit = 0, last = 0, now = 5000000000ULL;
	int sent = 0, i;

	for (i = 0; i < 10; i++)
		sent += rtm_wk_take_token(&credit, &last, now, cost, burst);
	is_int(sent, 3, "a burst of 10 at once: the bucket's 3 go");
	now += 25000000;		/* 25 ms: 2.5 records' worth */
	sent = 0;
	for (i = 0; i < 10; i++)
		sent += rtm_wk_take_token(&credit, &last, now, cost, burst);
	is_int(sent, 2, "25 ms later at 100/s: 2 more");
	now += 3600000000000ULL;
	sent = 0;
	for (i = 0; i < 10; i++)
		sent += rtm_wk_take_token(&credit, &last, now, cost, burst);
	is_int(sent, 3, "an hour later: never more than the burst");
}

static void test_sentence(void)
{
	struct rtm_wk_cause_rec r = rec(1, 2870000, 2850000, 12000, 0, "rtm-inject", 1, 0);
	char buf[512];

	rtm_wakeup_cause_sentence(&r, buf, sizeof(buf));
	is_str(buf, "ctl pid 812 (FIFO 80) waited 2.87 ms on CPU 1: behind rtm-inject pid 3301 "
	       "(FIFO 99, 2.85 ms); hard interrupts 12.0 us, softirqs 0 ns",
	       "a task behind a FIFO 99 disturber");
	r = rec(0, 1500000, 20000, 1300000, 0, "kworker/0:1", 0, 120);
	r.waker_cpu = 1;
	r.flags = RTM_WK_REMOTE;
	rtm_wakeup_cause_sentence(&r, buf, sizeof(buf));
	is_str(buf, "ctl pid 812 (FIFO 80) waited 1.50 ms on CPU 0: in hard interrupt handlers "
	       "(1.30 ms); longest other task kworker/0:1 pid 3301 (OTHER nice 0, 20.0 us), "
	       "softirqs 0 ns; woken from CPU 1", "interrupts, the longest task after, a waker "
	       "on another CPU");
	r = rec(1, 1200000, 0, 0, 700000, NULL, 0, 0);
	rtm_wakeup_cause_sentence(&r, buf, sizeof(buf));
	is_str(buf, "ctl pid 812 (FIFO 80) waited 1.20 ms on CPU 1: in softirq handlers "
	       "(700 us); no other task ran, hard interrupts 0 ns", "softirqs, nobody else ran");
	r = rec(1, 1100000, 0, 0, 0, NULL, 0, 0);
	r.target_cpu = 0;
	r.flags = RTM_WK_MIGRATED;
	rtm_wakeup_cause_sentence(&r, buf, sizeof(buf));
	is_str(buf, "ctl pid 812 (FIFO 80) waited 1.10 ms on CPU 1: no task or handler in the "
	       "way (1.10 ms unexplained); no other task ran, hard interrupts 0 ns, softirqs "
	       "0 ns; moved from CPU 0", "nothing explains it; moved to another CPU");
	memcpy(r.comm, "0123456789abcdef", 16);		/* the kernel's 16 bytes, no NUL */
	rtm_wakeup_cause_sentence(&r, buf, sizeof(buf));
	ok(!strncmp(buf, "0123456789abcdef pid 812 (FIFO 80) ", 35), "a 16-byte name is cut there");
	rtm_wakeup_cause_sentence(&r, buf, 20);
	is_int(strlen(buf), 19, "a short buffer: cut, terminated");
}

/* 20 waits behind the injector on CPU 1, 2 in interrupts on CPU 0, 1 unexplained. */
static struct rtm_wakeup_census *fill(void)
{
	struct rtm_wakeup_census *c = rtm_wakeup_census_alloc(2, 1000000);
	struct rtm_wk_cause_rec r;
	int i;

	if (!c)
		abort();
	for (i = 0; i < 20; i++) {
		r = rec(1, 1000000 + 100000 * (uint64_t)i, 950000 + 100000 * (uint64_t)i, 0, 0,
			"rtm-inject", 1, 0);
		rtm_wakeup_census_add(c, &r);
	}
	r = rec(0, 1400000, 0, 1300000, 0, NULL, 0, 0);
	r.waker_cpu = 1;
	r.flags = RTM_WK_REMOTE;
	rtm_wakeup_census_add(c, &r);
	r.lat_ns = 1600000;
	r.irq_ns = 1500000;
	rtm_wakeup_census_add(c, &r);
	r = rec(1, 1050000, 0, 0, 0, NULL, 0, 0);
	rtm_wakeup_census_add(c, &r);
	r.cpu = 7;		/* not one of the census's CPUs: ignored */
	rtm_wakeup_census_add(c, &r);
	return c;
}

static void test_census(void)
{
	struct rtm_wakeup_census *c = fill();
	json_t *j = rtm_wakeup_census_json(c, 3, 0), *cpus, *l;
	char buf[512];

	is_int(rtm_wakeup_census_count(c), 23, "23 waits (one of a CPU out of range left out)");
	is_int(json_integer_value(json_object_get(j, "waits")), 23, "census: waits");
	ok(json_is_false(json_object_get(j, "complete")), "3 limited: not complete");
	cpus = json_object_get(j, "cpus");
	is_int(json_array_size(cpus), 2, "the two CPUs with waits");
	is_int(json_integer_value(json_object_get(json_object_get(json_array_get(cpus, 1),
		"by_cause"), "thread")), 20, "CPU 1: 20 behind a task");
	l = json_object_get(j, "list");
	is_int(json_array_size(l), 23, "each wait listed");
	is_str(json_string_value(json_object_get(json_object_get(json_array_get(l, 0), "task"),
					 "comm")), "rtm-inject", "a wait's culprit task");
	is_int(json_integer_value(json_object_get(json_object_get(json_array_get(l, 0), "task"),
					  "priority")), 99, "its rt_priority");
	rtm_wakeup_census_sentence(j, buf, sizeof(buf), 6);
	is_str(buf, "23 waits over 1.00 ms: 20 behind rtm-inject (FIFO 99, 2.85 ms), 2 in hard "
	       "interrupt handlers (1.50 ms), 1 with no task or handler in the way (1.05 ms); 2 "
	       "woken from another CPU", "the census in a sentence");
	rtm_wakeup_census_sentence(j, buf, sizeof(buf), 1);
	is_str(buf, "23 waits over 1.00 ms: 20 behind rtm-inject (FIFO 99, 2.85 ms), 3 other; 2 "
	       "woken from another CPU", "the top culprit, the rest summed");
	rtm_wakeup_census_cpu_sentence(j, json_array_get(cpus, 1), buf, sizeof(buf), 4);
	is_str(buf, "CPU 1: 21 waits over 1.00 ms: 20 behind rtm-inject (FIFO 99, 2.85 ms), 1 "
	       "with no task or handler in the way (1.05 ms)", "CPU 1's sentence");
	json_decref(j);
	rtm_wakeup_census_free(c);
	c = rtm_wakeup_census_alloc(2, 500000);
	j = rtm_wakeup_census_json(c, 0, 0);
	rtm_wakeup_census_sentence(j, buf, sizeof(buf), 6);
	is_str(buf, "no wait over 500 us", "no wait");
	ok(json_is_true(json_object_get(j, "complete")), "nothing lost: complete");
	json_decref(j);
	rtm_wakeup_census_free(c);
	ok(!rtm_wakeup_census_alloc(0, 1), "a census needs CPUs");
}

/* Culprits past the table's room count as "other", listed waits past the list's too. */
static void test_bounds(void)
{
	struct rtm_wakeup_census *c = rtm_wakeup_census_alloc(1, 1000);
	struct rtm_wk_cause_rec r;
	char comm[RTM_WK_COMM_LEN];
	json_t *j, *cpu;
	int i;

	if (!c)
		abort();
	for (i = 0; i < RTM_WAKEUP_CULPRITS + 5; i++) {
		snprintf(comm, sizeof(comm), "t%d", i);
		r = rec(0, 5000, 4000, 0, 0, comm, 0, 120);
		rtm_wakeup_census_add(c, &r);
	}
	for (i = 0; i < RTM_WAKEUP_CAUSE_LIST; i++)
		rtm_wakeup_census_add(c, &r);
	j = rtm_wakeup_census_json(c, 0, 0);
	cpu = json_array_get(json_object_get(j, "cpus"), 0);
	is_int(json_array_size(json_object_get(cpu, "culprits")), RTM_WAKEUP_CULPRITS,
	       "the culprit table's room");
	is_int(json_integer_value(json_object_get(cpu, "other")), 5 + RTM_WAKEUP_CAUSE_LIST,
	       "the rest as other");
	is_int(json_array_size(json_object_get(j, "list")), RTM_WAKEUP_CAUSE_LIST,
	       "the list's room");
	ok(json_is_true(json_object_get(j, "list_truncated")), "the list says it is cut");
	json_decref(j);
	rtm_wakeup_census_free(c);
}

/* The printed census: sentences, the table, the longest waits first. */
static void test_print(void)
{
	struct rtm_wakeup_census *c = fill();
	json_t *wk = json_pack("{s:o}", "census", rtm_wakeup_census_json(c, 0, 0));
	char *out = NULL, *p;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f || !wk)
		abort();
	rtm_wakeup_fprint_census(f, wk);
	fclose(f);
	ok(strstr(out, "  1 thread    rtm-inject (FIFO 99)                  20    2.85 ms    "
		  "2.90 ms\n") != NULL, "the table's row of the injector");
	p = strstr(out, "the 10 longest of the 23 waits");
	ok(p && strstr(p, "\n  ctl pid 812 (FIFO 80) waited 2.90 ms on CPU 1: behind "
		       "rtm-inject"), "the longest wait first");
	ok(p && strstr(p, "waited 2.00 ms") && !strstr(p, "waited 1.90 ms"),
	   "ten of them, no more");
	free(out);
	json_decref(wk);
	rtm_wakeup_census_free(c);
}

int main(void)
{
	test_cause_of();
	test_token();
	test_sentence();
	test_census();
	test_bounds();
	test_print();
	return tap_done();
}
