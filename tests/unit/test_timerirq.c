// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the timer IRQ delay of the probes' own hrtimers (lib/trace/timerirq.c),
 * from hrtimer_start / hrtimer_expire_entry sequences whose answers are known by
 * construction (matched, a start without its expiry, an expiry without its start,
 * a re-arm before expiry, other tasks' and other handlers' hrtimers, two CPUs
 * interleaved, the timer slack), then raw pages recorded on this VM (a FIFO
 * thread sleeping 20 times to 1 ms boundaries), whose figures were worked out by
 * hand from the helper's listing (tests/data/timerirq-vm-6.18/RECORDED); then the
 * JSON section, its check on load, and the summary's table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/result.h"
#include "trace/timerirq.h"
#include "present/timerirq_print.h"
#include "tracefs/tracedec.h"
#include "../tap.h"

#define WAKEUP	0xffffffff8142de30ULL	/* hrtimer_wakeup */
#define TICK	0xffffffff813cd8c0ULL	/* another handler */
#define PROBE0	100			/* the probe of CPU 0 */
#define PROBE1	101
#define OTHER	777
#define SLEEPER	0xffffc90006083cc8ULL	/* an hrtimer_sleeper on a probe's stack */

static const char *data_dir(void)
{
	return getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
}

static void start(struct rtm_timerirq *t, int cpu, int pid, uint64_t hrtimer, uint64_t fn,
		  int64_t expires, int64_t soft)
{
	struct rtm_event e;

	memset(&e, 0, sizeof(e));
	e.cpu = cpu;
	e.pid = pid;
	e.ts_ns = (uint64_t)soft - 900000;
	e.type = RTM_EV_HRTIMER_START;
	e.hrstart.hrtimer = hrtimer;
	e.hrstart.function = fn;
	e.hrstart.expires = expires;
	e.hrstart.softexpires = soft;
	if (rtm_timerirq_event(&e, t))
		printf("# event failed\n");
}

static void expire(struct rtm_timerirq *t, int cpu, uint64_t hrtimer, uint64_t fn, uint64_t now)
{
	struct rtm_event e;

	memset(&e, 0, sizeof(e));
	e.cpu = cpu;
	e.ts_ns = now + 300;
	e.type = RTM_EV_HRTIMER_ENTRY;
	e.hrtimer.hrtimer = hrtimer;
	e.hrtimer.function = fn;
	e.hrtimer.now = now;
	rtm_timerirq_event(&e, t);
}

static struct rtm_timerirq *fresh(void)
{
	struct rtm_timerirq *t = rtm_timerirq_alloc(4, WAKEUP);

	if (!t || rtm_timerirq_watch(t, 0) || rtm_timerirq_watch(t, 1) ||
	    rtm_timerirq_follow(t, PROBE0) || rtm_timerirq_follow(t, PROBE1)) {
		printf("Bail out! cannot set up\n");
		exit(1);
	}
	return t;
}

static struct rtm_timerirq_cpu cpu_of(struct rtm_timerirq *t, int cpu)
{
	struct rtm_timerirq_cpu c[4], none = { .cpu = -1 };
	int i, n = rtm_timerirq_cpus(t, c, 4);

	for (i = 0; i < n; i++)
		if (c[i].cpu == cpu)
			return c[i];
	return none;
}

static void sequences(void)
{
	struct rtm_timerirq *t = fresh();
	struct rtm_timerirq_cpu c;
	char line[128];

	/* matched: planned at 1 ms, the interrupt ran it at 1 ms + 12.5 us */
	start(t, 0, PROBE0, SLEEPER, WAKEUP, 1000000, 1000000);
	expire(t, 0, SLEEPER, WAKEUP, 1012500);
	c = cpu_of(t, 0);
	ok(c.matched == 1 && c.delay->count == 1 && c.delay->min_ns == 12500,
	   "matched: one delay of 12500 ns");
	ok(!c.unmatched_starts && !c.unmatched_expires && !c.early, "matched: nothing apart");
	rtm_timerirq_line(t, line, sizeof(line));
	ok(!strcmp(line, "timer IRQ p99: CPU 0 -, CPU 1 unknown (1 matched)"),
	   "live line: one delay defines no p99 (the tables' \"-\"): %s", line);

	/* an expiry whose start was not seen (a sleeper address the probe used before) */
	expire(t, 0, SLEEPER, WAKEUP, 2010000);
	c = cpu_of(t, 0);
	ok(c.matched == 1 && c.unmatched_expires == 1, "expiry without its start: counted apart");
	/* ... and one at an address no followed thread ever used: someone else's sleep */
	expire(t, 0, SLEEPER + 0x10, WAKEUP, 2020000);
	ok(cpu_of(t, 0).unmatched_expires == 1, "another task's expiry is ignored");

	/* a start without its expiry, then re-armed before it expired */
	start(t, 0, PROBE0, SLEEPER, WAKEUP, 3000000, 3000000);
	start(t, 0, PROBE0, SLEEPER, WAKEUP, 4000000, 4000000);
	expire(t, 0, SLEEPER, WAKEUP, 4007000);
	c = cpu_of(t, 0);
	ok(c.matched == 2 && c.unmatched_starts == 1 && c.delay->max_ns == 12500 &&
	   c.delay->min_ns == 7000,
	   "re-armed: the earlier start counted apart, the delay from the later expiry (7000 ns)");

	/* other tasks' sleepers and the probe's other hrtimers (the tick's) are ignored */
	start(t, 0, OTHER, SLEEPER + 0x40, WAKEUP, 5000000, 4950000);
	expire(t, 0, SLEEPER + 0x40, WAKEUP, 5001000);
	start(t, 0, PROBE0, 0xffffffff83950ff0ULL, TICK, 5000000, 5000000);
	expire(t, 0, 0xffffffff83950ff0ULL, TICK, 5030000);
	c = cpu_of(t, 0);
	ok(c.matched == 2 && c.unmatched_starts == 1 && c.unmatched_expires == 1,
	   "another task's sleeper and the probe's tick hrtimer: ignored");

	/* two CPUs interleaved, the same address on both (two stacks may share an offset) */
	start(t, 0, PROBE0, SLEEPER, WAKEUP, 6000000, 6000000);
	start(t, 1, PROBE1, SLEEPER, WAKEUP, 6000000, 6000000);
	expire(t, 1, SLEEPER, WAKEUP, 6003000);
	expire(t, 0, SLEEPER, WAKEUP, 6020000);
	ok(cpu_of(t, 0).matched == 3 && cpu_of(t, 0).delay->max_ns == 20000,
	   "two CPUs: CPU 0 pairs its own start (20000 ns)");
	ok(cpu_of(t, 1).matched == 1 && cpu_of(t, 1).delay->max_ns == 3000,
	   "two CPUs: CPU 1 pairs its own (3000 ns)");
	/* a probe's start on CPU 1 whose expiry comes on CPU 0 (migrated): paired on neither */
	start(t, 1, PROBE1, SLEEPER + 0x20, WAKEUP, 7000000, 7000000);
	expire(t, 0, SLEEPER + 0x20, WAKEUP, 7001000);
	ok(cpu_of(t, 0).unmatched_expires == 1 && cpu_of(t, 0).matched == 3,
	   "an expiry on another CPU than its start: not paired, not ours there");

	/* the timer slack: an expiry between softexpires and expires is not a delay */
	start(t, 1, PROBE1, SLEEPER, WAKEUP, 8050000, 8000000);
	expire(t, 1, SLEEPER, WAKEUP, 8010000);
	ok(cpu_of(t, 1).early == 1 && cpu_of(t, 1).matched == 1, "inside the slack: early, apart");

	/* a CPU not watched is ignored; the end turns waiting starts into unmatched ones */
	start(t, 2, PROBE0, SLEEPER, WAKEUP, 9000000, 9000000);
	expire(t, 2, SLEEPER, WAKEUP, 9001000);
	ok(cpu_of(t, 2).cpu == -1, "an unwatched CPU is not listed");
	rtm_timerirq_end(t);
	ok(cpu_of(t, 1).unmatched_starts == 1, "the end: CPU 1's waiting start counted apart");
	ok(cpu_of(t, 0).unmatched_starts == 1, "the end: CPU 0 had none waiting");
	expire(t, 1, SLEEPER + 0x20, WAKEUP, 10001000);
	ok(cpu_of(t, 1).unmatched_expires == 1, "after the end, an expiry of its sleeper is apart");
	rtm_timerirq_free(t);

	/* more waiting starts than a CPU keeps: the oldest is dropped, counted */
	t = fresh();
	for (int i = 0; i < 9; i++)
		start(t, 0, PROBE0, SLEEPER + 16 * (uint64_t)i, WAKEUP, 1000000, 1000000);
	expire(t, 0, SLEEPER + 16 * 8, WAKEUP, 1001000);
	ok(cpu_of(t, 0).unmatched_starts == 1 && cpu_of(t, 0).matched == 1,
	   "nine starts waiting: the oldest dropped and counted, the newest still paired");
	rtm_timerirq_free(t);

	/* the sleeper addresses a CPU remembers are bounded (1024) */
	t = fresh();
	for (uint64_t a = 0; a < 1100; a++) {
		start(t, 0, PROBE0, SLEEPER + 16 * a, WAKEUP, 1000000, 1000000);
		expire(t, 0, SLEEPER + 16 * a, WAKEUP, 1001000);
	}
	expire(t, 0, SLEEPER + 16 * 1050, WAKEUP, 2001000);
	expire(t, 0, SLEEPER + 16 * 10, WAKEUP, 2001000);
	ok(cpu_of(t, 0).matched == 1100 && cpu_of(t, 0).unmatched_expires == 1,
	   "1100 addresses: all paired; an unpaired expiry counted among the first 1024 only");
	rtm_timerirq_free(t);
}

/* The recorded window: pages of CPU 1 into @t. */
static int feed(struct rtm_timerirq *t, const char *dir, uint64_t *lost)
{
	struct rtm_error err = { "" };
	struct rtm_tracedec *d = rtm_tracedec_alloc(dir, &err);
	char path[4096], page[4096];
	int ret = 0;
	FILE *f;

	if (!d)
		return -1;
	snprintf(path, sizeof(path), "%s/cpu1.raw", dir);
	f = fopen(path, "r");
	if (!f) {
		rtm_tracedec_free(d);
		return -1;
	}
	while (!ret && fread(page, 1, sizeof(page), f) == sizeof(page))
		ret = rtm_tracedec_page(d, page, 1, rtm_timerirq_event, t, lost) < 0;
	fclose(f);
	rtm_tracedec_free(d);
	rtm_timerirq_end(t);
	return ret ? -1 : 0;
}

static void recorded(void)
{
	char dir[4096], path[4096];
	unsigned long long fn = 0, planned, lat;
	struct rtm_timerirq_cpu c;
	struct rtm_timerirq *t;
	struct rtm_hist *wake = rtm_hist_alloc();
	uint64_t lost = 0;
	int tid = 0, k;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/timerirq-vm-6.18", data_dir());
	snprintf(path, sizeof(path), "%s/probe", dir);
	f = fopen(path, "r");
	k = f ? fscanf(f, "tid %d function %llx", &tid, &fn) : 0;
	if (!ok(k == 2, "probe file: tid %d, hrtimer_wakeup %#llx", tid, fn)) {
		if (f)
			fclose(f);
		rtm_hist_free(wake);
		return;
	}
	while (fscanf(f, "%llu %llu", &planned, &lat) == 2)
		rtm_hist_record(wake, lat);
	fclose(f);

	t = rtm_timerirq_alloc(2, fn);
	rtm_timerirq_watch(t, 1);
	rtm_timerirq_follow(t, tid);
	ok(feed(t, dir, &lost) == 0 && lost == 0, "recorded pages decode, nothing lost");
	c = cpu_of(t, 1);
	/* RECORDED: 20 starts, 20 matched, min 11119, max 36438, sum 301331 */
	ok(c.matched == 20 && c.delay->count == 20, "recorded: 20 wake-ups matched (%llu)",
	   (unsigned long long)c.matched);
	ok(!c.unmatched_starts && !c.unmatched_expires && !c.early,
	   "recorded: nothing apart (%llu, %llu, %llu)", (unsigned long long)c.unmatched_starts,
	   (unsigned long long)c.unmatched_expires, (unsigned long long)c.early);
	ok(c.delay->min_ns == 11119 && c.delay->max_ns == 36438 && c.delay->sum_ns == 301331,
	   "recorded: min 11119, max 36438, sum 301331 ns as worked out by hand (%llu, %llu, %llu)",
	   (unsigned long long)c.delay->min_ns, (unsigned long long)c.delay->max_ns,
	   (unsigned long long)c.delay->sum_ns);
	/* the IRQ part of each wake-up is inside it: so are the quantiles */
	ok(c.delay->count <= wake->count, "recorded: IRQ count %llu <= wake-ups %llu",
	   (unsigned long long)c.delay->count, (unsigned long long)wake->count);
	for (k = 0; k <= 100; k += 10)
		if (rtm_hist_percentile(c.delay, k) > rtm_hist_percentile(wake, k))
			break;
	ok(k > 100, "recorded: every decile of the IRQ delay <= the wake-up's (first failing %d)",
	   k);
	rtm_timerirq_free(t);

	/* the same thread's tick hrtimer, if taken for its sleep, would be a wrong pairing */
	t = rtm_timerirq_alloc(2, TICK);
	rtm_timerirq_watch(t, 1);
	rtm_timerirq_follow(t, tid);
	feed(t, dir, &lost);
	c = cpu_of(t, 1);
	ok(c.matched == 1 && c.delay->min_ns == 23304 && c.unmatched_starts == 1,
	   "recorded: the thread's tick hrtimer is another handler (23304 ns, re-armed once)");
	rtm_timerirq_free(t);

	/* another task's sleeps are not the probe's */
	t = rtm_timerirq_alloc(2, fn);
	rtm_timerirq_watch(t, 1);
	rtm_timerirq_follow(t, tid + 1000000);
	feed(t, dir, &lost);
	c = cpu_of(t, 1);
	ok(c.matched == 0 && !c.unmatched_expires, "recorded: following no one, nothing counted");
	rtm_timerirq_free(t);
	rtm_hist_free(wake);
}

static void json_and_output(void)
{
	struct rtm_timerirq *t = fresh();
	struct rtm_error err = { "" };
	struct rtm_result *r, *back;
	json_t *sec, *copy, *root;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	start(t, 0, PROBE0, SLEEPER, WAKEUP, 1000000, 1000000);
	expire(t, 0, SLEEPER, WAKEUP, 1012500);
	start(t, 0, PROBE0, SLEEPER, WAKEUP, 2000000, 2000000);
	rtm_timerirq_end(t);
	sec = rtm_timerirq_to_json(t);
	ok(sec && json_array_size(json_object_get(sec, "cpus")) == 2, "JSON: both watched CPUs");
	ok(json_integer_value(json_object_get(json_array_get(json_object_get(sec, "cpus"), 0),
					      "unmatched_starts")) == 1, "JSON: unmatched starts");
	json_object_set_new(sec, "trace_lost", json_integer(0));
	json_object_set_new(sec, "complete", json_true());
	ok(rtm_timerirq_check(sec, "result.json", &err) == 0, "its own JSON passes the check (%s)",
	   err.msg);

	copy = json_deep_copy(sec);
	json_object_set_new(json_array_get(json_object_get(copy, "cpus"), 1), "count",
			    json_string("many"));
	ok(rtm_timerirq_check(copy, "result.json", &err) == -EINVAL &&
	   !strcmp(err.msg, "result.json: sections.timer_irq.cpus[1]: \"count\" is of the wrong "
		   "type, must be an integer >= 0"), "a wrong type is named: %s", err.msg);
	json_decref(copy);
	copy = json_deep_copy(sec);
	json_object_set_new(json_array_get(json_object_get(copy, "cpus"), 0), "count",
			    json_integer(5));
	ok(rtm_timerirq_check(copy, "result.json", &err) == -EINVAL &&
	   strstr(err.msg, "differs from its delay histogram"), "a count the histogram does not "
	   "hold: %s", err.msg);
	json_decref(copy);

	r = rtm_result_alloc("cyclic");
	rtm_result_add_cpu(r, 0, false, 0);
	for (int i = 0; i < 10; i++)
		rtm_hist_record(r->cpus[0].raw, 40000);
	json_object_set(r->sections, "timer_irq", sec);
	root = rtm_result_to_json(r);
	back = rtm_result_from_json(root, "result.json", &err);
	ok(back && json_equal(json_object_get(back->sections, "timer_irq"), sec),
	   "a result with sections.timer_irq loads unchanged (%s)", back ? "" : err.msg);
	rtm_result_free(back);
	json_object_set_new(json_object_get(root, "sections"), "timer_irq",
			    json_pack("{s:s}", "cpus", "none"));
	back = rtm_result_from_json(root, "result.json", &err);
	ok(!back && !strchr(err.msg, '\n') &&
	   !strcmp(err.msg, "result.json: sections.timer_irq: \"cpus\" is of the wrong type, must "
		   "be an array"), "a bad one is refused on load, one line: %s", err.msg);
	rtm_result_free(back);
	json_decref(root);
	/* the result's JSON shares its sections: put the good one back */
	json_object_set(r->sections, "timer_irq", sec);

	f = open_memstream(&text, &len);
	rtm_timerirq_fprint(r, f);
	fclose(f);
	ok(text && strstr(text, "Timer IRQ (expiry to handler)") &&
	   strstr(text, "1/10") && strstr(text, "12.5 us") && strstr(text, "40.0 us") &&
	   strstr(text, "CPU 0: 1 start(s) without their expiry"),
	   "summary: CPU 0 1 of 10 matched, IRQ 12.5us, wake-up 40.0us, the unmatched start");
	ok(text && strstr(text, "unknown"), "summary: CPU 1, no samples: unknown");
	printf("%s", text ? text : "");
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	rtm_timerirq_md(r, f);
	rtm_timerirq_html(r, f);
	fclose(f);
	ok(text && strstr(text, "| 0 | 1 | 10 | - | - | - | 12.5 us |") &&
	   strstr(text, "<td>12.5 us</td>"),
	   "report.md and report.html rows: one delay, its percentiles \"-\", its max");
	free(text);
	rtm_result_free(r);
	json_decref(sec);
	rtm_timerirq_free(t);
}

static void kallsyms(void)
{
	uint64_t a = 0;
	char root[4096];
	int ret;

	snprintf(root, sizeof(root), "%s/timerirq-vm-6.18/no-such-root", data_dir());
	ok(rtm_timerirq_kallsyms(root, "hrtimer_wakeup", &a) == -ENOENT,
	   "kallsyms: no file is -ENOENT");
	snprintf(root, sizeof(root), "%s/timerirq-vm-6.18/root", data_dir());
	ret = rtm_timerirq_kallsyms(root, "hrtimer_wakeup", &a);
	ok(ret == 0 && a == WAKEUP, "kallsyms: hrtimer_wakeup at %#llx", (unsigned long long)a);
	ok(rtm_timerirq_kallsyms(root, "hrtimer_wake", &a) == -ENOENT,
	   "kallsyms: a prefix is not the symbol");
	snprintf(root, sizeof(root), "%s/timerirq-vm-6.18/hidden", data_dir());
	ok(rtm_timerirq_kallsyms(root, "hrtimer_wakeup", &a) == -EPERM,
	   "kallsyms: addresses hidden (kptr_restrict) is -EPERM");
}

int main(void)
{
	sequences();
	recorded();
	json_and_output();
	kallsyms();
	return tap_done();
}
