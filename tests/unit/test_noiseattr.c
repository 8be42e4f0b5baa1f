// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: a cause for every noise gap (lib/trace/noiseattr.c), from event sequences
 * whose answers are known by construction: a hard IRQ, a vector, a softirq with an
 * IRQ nested in it (counted once, to the innermost), an NMI inside a softirq, a gap
 * with no event, another thread preempting the probe, the probe asleep (nothing
 * kept), the clock tolerance's edge, two CPUs; the JSON, its check on load and the
 * text; then raw pages recorded on this VM during `noise --trace -a 1` with
 * tests/helpers/inject spinning on CPU 1, checked against the event listing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/noiseattr.h"
#include "present/noise_print.h"
#include "result/result.h"
#include "tracefs/tracedec.h"
#include "../fakeproc.h"
#include "../tap.h"

#define US(x) ((uint64_t)(x) * 1000ULL)
#define MS(x) ((uint64_t)(x) * 1000000ULL)
#define T0 MS(1000)		/* start_mono_ns of the hand-made runs */
#define PROBE 700		/* the noise thread of CPU 1 */
#define PROBE0 701		/* ... of CPU 0 */

static void ev_put(struct rtm_noiseattr *a, struct rtm_event *e, int cpu, uint64_t t,
		   enum rtm_ev_type type, const char *name)
{
	e->cpu = cpu;
	e->ts_ns = t;
	e->type = type;
	e->name = name;
	rtm_noiseattr_event(e, a);
}

static void sw(struct rtm_noiseattr *a, int cpu, uint64_t t, int prev, int64_t prev_state,
	       const char *next_comm, int next, int next_prio)
{
	struct rtm_event e;

	memset(&e, 0, sizeof(e));
	e.sw.prev_pid = prev;
	e.sw.prev_prio = prev == PROBE || prev == PROBE0 ? 4 : 120;	/* the probe: FIFO 95 */
	e.sw.prev_state = prev_state;
	e.sw.next_pid = next;
	e.sw.next_prio = next_prio;
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "%s", next_comm);
	ev_put(a, &e, cpu, t, RTM_EV_SCHED_SWITCH, "sched_switch");
}

/* A switch from @prev at kernel prio @prev_prio, still runnable. */
static void sw_prio(struct rtm_noiseattr *a, int cpu, uint64_t t, int prev, int prev_prio,
		    const char *next_comm, int next, int next_prio)
{
	struct rtm_event e;

	memset(&e, 0, sizeof(e));
	e.sw.prev_pid = prev;
	e.sw.prev_prio = prev_prio;
	e.sw.prev_state = 0x100;
	e.sw.next_pid = next;
	e.sw.next_prio = next_prio;
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "%s", next_comm);
	ev_put(a, &e, cpu, t, RTM_EV_SCHED_SWITCH, "sched_switch");
}

static void irq(struct rtm_noiseattr *a, int cpu, uint64_t t, int n, const char *name,
		bool entry)
{
	struct rtm_event e;

	memset(&e, 0, sizeof(e));
	e.irq.irq = n;
	snprintf(e.irq.name, sizeof(e.irq.name), "%s", entry ? name : "");
	ev_put(a, &e, cpu, t, entry ? RTM_EV_IRQ_ENTRY : RTM_EV_IRQ_EXIT,
	       entry ? "irq_handler_entry" : "irq_handler_exit");
}

static void soft(struct rtm_noiseattr *a, int cpu, uint64_t t, unsigned int vec, bool entry)
{
	struct rtm_event e;

	memset(&e, 0, sizeof(e));
	e.softirq.vec = vec;
	ev_put(a, &e, cpu, t, entry ? RTM_EV_SOFTIRQ_ENTRY : RTM_EV_SOFTIRQ_EXIT,
	       entry ? "softirq_entry" : "softirq_exit");
}

static void vec(struct rtm_noiseattr *a, int cpu, uint64_t t, const char *name, bool entry)
{
	struct rtm_event e;

	memset(&e, 0, sizeof(e));
	e.vector.vector = 236;
	ev_put(a, &e, cpu, t, entry ? RTM_EV_VECTOR_ENTRY : RTM_EV_VECTOR_EXIT, name);
}

static void nmi(struct rtm_noiseattr *a, int cpu, uint64_t t, uint64_t delta)
{
	struct rtm_event e;

	memset(&e, 0, sizeof(e));
	e.nmi.delta_ns = delta;
	ev_put(a, &e, cpu, t, RTM_EV_NMI, "nmi_handler");
}

/* A noise section of CPUs @cpus (gap lists filled by the caller). */
static json_t *section(void)
{
	return json_pack("{s:I, s:I, s:[{s:i, s:[]}, {s:i, s:[]}]}",
			 "start_mono_ns", (json_int_t)T0, "window_ns", (json_int_t)MS(1000),
			 "cpus", "cpu", 1, "gap_list", "cpu", 0, "gap_list");
}

static void gap(json_t *noise, int idx, uint64_t start, uint64_t len)
{
	json_array_append_new(json_object_get(json_array_get(json_object_get(noise, "cpus"),
							     (size_t)idx), "gap_list"),
			      json_pack("[I, I]", (json_int_t)(start - T0), (json_int_t)len));
}

static const json_t *cpu_of(const json_t *noise, int idx)
{
	return json_array_get(json_object_get(noise, "cpus"), (size_t)idx);
}

static json_int_t causes_int(const json_t *noise, int idx, const char *key)
{
	return json_integer_value(json_object_get(json_object_get(cpu_of(noise, idx), "causes"),
						  key));
}

/* Gap @g of CPU index @idx: [contributor, main_ns, unexplained_ns] and the main's label. */
static json_int_t gc(const json_t *noise, int idx, int g, int field)
{
	return json_integer_value(json_array_get(json_array_get(
		json_object_get(cpu_of(noise, idx), "gap_causes"), (size_t)g), (size_t)field));
}

static const char *gap_label(const json_t *noise, int idx, int g)
{
	json_int_t k = gc(noise, idx, g, 0);

	if (k < 0)
		return "unexplained";
	return json_string_value(json_object_get(json_array_get(json_object_get(
		json_object_get(cpu_of(noise, idx), "causes"), "contributors"), (size_t)k),
		"label"));
}

static const json_t *contrib(const json_t *noise, int idx, const char *label)
{
	const json_t *list = json_object_get(json_object_get(cpu_of(noise, idx), "causes"),
					     "contributors"), *c;
	size_t i;

	json_array_foreach(list, i, c)
		if (!strcmp(json_string_value(json_object_get(c, "label")), label))
			return c;
	return NULL;
}

static void test_sequences(void)
{
	struct rtm_noiseattr *a = rtm_noiseattr_alloc(4, NULL);
	struct rtm_noiseattr_env env[4] = { { .steal_ns = -1, .vm = true }, { .steal_ns = 0, .vm = true },
					    { .steal_ns = -1, .vm = true }, { .steal_ns = -1, .vm = true } };
	json_t *noise = section();
	char why[160], *text = NULL;
	size_t tlen = 0;
	FILE *f;

	ok(a && !rtm_noiseattr_self(a, PROBE) && !rtm_noiseattr_self(a, PROBE0), "allocated");
	/* CPU 1: the probe comes in at T0 */
	sw(a, 1, T0, 0, 0, "rtm-noise/1", PROBE, 4);
	/* gap 0: irq 11 virtio0 from +10 to +15 us; the gap measured 9.5 us + 6 us */
	irq(a, 1, T0 + US(10), 11, "virtio0", true);
	irq(a, 1, T0 + US(15), 11, NULL, false);
	gap(noise, 0, T0 + 9500, 6000);
	/* gap 1: softirq TIMER 100-110 us with irq 11 nested 102-104: 8 + 2 us */
	soft(a, 1, T0 + US(100), 1, true);
	irq(a, 1, T0 + US(102), 11, "virtio0", true);
	irq(a, 1, T0 + US(104), 11, NULL, false);
	soft(a, 1, T0 + US(110), 1, false);
	gap(noise, 0, T0 + US(100), US(10));
	/* gap 2: nothing traced (the hypervisor) */
	gap(noise, 0, T0 + US(150), US(30));
	/* gap 3: rtm-inject (FIFO 97: prio 2) preempts the probe for 1 ms */
	sw(a, 1, T0 + US(200), PROBE, 0, "rtm-inject", 4242, 2);
	sw(a, 1, T0 + US(1200), 4242, 1, "rtm-noise/1", PROBE, 4);
	gap(noise, 0, T0 + US(200), US(1000));
	/* gap 4: an NMI of 3 us ending at 2010 us inside softirq RCU 2000-2020 us */
	soft(a, 1, T0 + US(2000), 9, true);
	nmi(a, 1, T0 + US(2010), US(3));
	soft(a, 1, T0 + US(2020), 9, false);
	gap(noise, 0, T0 + US(2000), US(20));
	/* gap 5: the tick (vector local_timer) 3000-3004 us */
	vec(a, 1, T0 + US(3000), "local_timer_entry", true);
	vec(a, 1, T0 + US(3004), "local_timer_exit", false);
	gap(noise, 0, T0 + US(3000), US(4));
	/* the probe sleeps: a kworker and an IRQ while it does are never kept */
	sw(a, 1, T0 + US(4000), PROBE, 1, "kworker/1:2", 123, 120);
	irq(a, 1, T0 + US(4100), 11, "virtio0", true);
	irq(a, 1, T0 + US(4150), 11, NULL, false);
	sw(a, 1, T0 + US(4300), 123, 1, "swapper/1", 0, 120);
	gap(noise, 0, T0 + US(4100), US(50));	/* impossible, but proves nothing was kept */
	/* gap 7: an IRQ 8 us after the gap (beyond the 5 us slack) is not its cause */
	sw(a, 1, T0 + US(5000), 0, 0, "rtm-noise/1", PROBE, 4);
	irq(a, 1, T0 + US(5018), 11, "virtio0", true);
	irq(a, 1, T0 + US(5020), 11, NULL, false);
	gap(noise, 0, T0 + US(5000), US(10));
	/* gaps 8, 9: 0.5 us apart; the IRQ 6000-6004 us is the first's only */
	irq(a, 1, T0 + US(6000), 11, "virtio0", true);
	irq(a, 1, T0 + US(6004), 11, NULL, false);
	gap(noise, 0, T0 + US(6000), US(4));
	gap(noise, 0, T0 + US(6004) + 500, US(3));
	/* CPU 0, the same instants: a FIFO 98 kthread preempts its probe during 100-130 us */
	sw(a, 0, T0, 0, 0, "rtm-noise/0", PROBE0, 4);
	sw(a, 0, T0 + US(100), PROBE0, 0x100, "ktimers/0", 77, 1);
	sw(a, 0, T0 + US(130), 77, 1, "rtm-noise/0", PROBE0, 4);
	gap(noise, 1, T0 + US(100), US(30));

	is_int(rtm_noiseattr_apply(a, noise, env, 4), 0, "applied");
	is_str(gap_label(noise, 0, 0), "irq 11 virtio0", "an IRQ's gap");
	is_int(gc(noise, 0, 0, 1), 5000, "the IRQ took 5 us of it");
	is_int(gc(noise, 0, 0, 2), 1000, "1 us unexplained (entry and exit around the handler)");
	is_str(gap_label(noise, 0, 1), "softirq TIMER", "softirq with a nested IRQ: softirq main");
	is_int(gc(noise, 0, 1, 1), US(8), "softirq 8 us (the nested 2 us are the IRQ's)");
	is_int(gc(noise, 0, 1, 2), 0, "nothing unexplained");
	is_str(gap_label(noise, 0, 2), "unexplained", "a gap with no event");
	is_int(gc(noise, 0, 2, 1), US(30), "all of it unexplained");
	is_str(gap_label(noise, 0, 3), "thread rtm-inject pid 4242 (rt 97)",
	       "the preempting thread");
	is_int(gc(noise, 0, 3, 1), US(1000), "for its 1 ms");
	is_str(gap_label(noise, 0, 4), "softirq RCU", "softirq around an NMI");
	is_int(gc(noise, 0, 4, 1), US(17), "the NMI's 3 us cut from it");
	is_str(gap_label(noise, 0, 5), "vector local_timer", "the tick");
	is_str(gap_label(noise, 0, 6), "unexplained", "nothing kept while the probe slept");
	is_str(gap_label(noise, 0, 7), "unexplained", "an IRQ beyond the slack is not a cause");
	is_str(gap_label(noise, 0, 8), "irq 11 virtio0", "the first of two close gaps");
	is_str(gap_label(noise, 0, 9), "unexplained", "the second: its time not given twice");
	is_str(gap_label(noise, 1, 0), "thread ktimers/0 pid 77 (rt 98)", "CPU 0's own cause");
	is_int(gc(noise, 1, 0, 1), US(30), "CPU 0: 30 us");
	/* CPU 1's classes: IRQ 5 + 2 us + tick 4 us, softirq 8 + 17, NMI 3, thread 1000 */
	is_int(causes_int(noise, 0, "irq_ns"), US(15), "irq class (IRQ and vector)");
	is_int(causes_int(noise, 0, "softirq_ns"), US(25), "softirq class");
	is_int(causes_int(noise, 0, "nmi_ns"), US(3), "nmi class");
	is_int(causes_int(noise, 0, "thread_ns"), US(1000), "thread class");
	is_int(causes_int(noise, 0, "unexplained_ns"), US(1 + 30 + 50 + 10 + 3), "unexplained");
	is_int(causes_int(noise, 0, "irq_gaps"), 3, "IRQs and tick were main of 3 gaps");
	is_int(causes_int(noise, 0, "unexplained_gaps"), 4, "4 gaps unexplained");
	is_str(json_string_value(json_object_get(json_object_get(cpu_of(noise, 0), "causes"),
						 "unexplained")),
	       "no event; a VM: hypervisor or SMI cannot be told apart",
	       "steal 0 on a VM: the hypervisor is not claimed");
	ok(json_is_null(json_object_get(json_object_get(cpu_of(noise, 1), "causes"), "steal_ns")),
	   "CPU 0's steal unknown: null");
	is_int(json_integer_value(json_object_get(contrib(noise, 0, "irq 11 virtio0"), "gaps")), 3,
	       "irq 11 took time in 3 gaps");
	is_int(json_integer_value(json_object_get(contrib(noise, 0, "irq 11 virtio0"), "main_of")),
	       2, "... and was the main cause of 2");
	is_str(json_string_value(json_object_get(json_array_get(json_object_get(json_object_get(
		cpu_of(noise, 0), "causes"), "contributors"), 1), "label")), "softirq RCU",
	       "contributors by time: RCU's 17 us second");
	ok(json_is_true(json_object_get(json_object_get(noise, "attribution"), "complete")),
	   "complete: nothing lost");

	is_int(rtm_noiseattr_check(cpu_of(noise, 0), why, sizeof(why)), 0, "check accepts it");
	json_array_append_new(json_object_get((json_t *)cpu_of(noise, 0), "gap_list"),
			      json_pack("[i, i]", 1, 2));
	is_int(rtm_noiseattr_check(cpu_of(noise, 0), why, sizeof(why)), -EINVAL,
	       "check: a gap without its cause");
	ok(strstr(why, "gap_causes has 10 entries for 11") != NULL, "... named (%s)", why);
	json_array_remove(json_object_get((json_t *)cpu_of(noise, 0), "gap_list"), 10);
	json_array_set_new(json_array_get(json_object_get((json_t *)cpu_of(noise, 0),
					  "gap_causes"), 0), 0, json_integer(99));
	is_int(rtm_noiseattr_check(cpu_of(noise, 0), why, sizeof(why)), -EINVAL,
	       "check: a contributor index out of range");
	json_array_set_new(json_array_get(json_object_get((json_t *)cpu_of(noise, 0),
					  "gap_causes"), 0), 0, json_integer(1));

	f = open_memstream(&text, &tlen);
	rtm_noiseattr_fprint(noise, f, 3);
	fclose(f);
	ok(text && strstr(text, "CPU 1: thread rtm-inject pid 4242 (rt 97): 1.00 ms in 1 gaps "
			  "(main cause of 1)"), "text: the top contributor");
	ok(text && strstr(text, "CPU 1: unexplained 94.0 us (no event; a VM"), "text: unexplained");
	if (text && !strstr(text, "rtm-inject"))
		diag("%s", text);
	free(text);
	json_decref(noise);
	rtm_noiseattr_free(a);
}

/* Steal reported: said, with its figure; a bare metal box names firmware. */
static void test_reasons(void)
{
	struct rtm_noiseattr *a = rtm_noiseattr_alloc(2, NULL);
	struct rtm_noiseattr_env env[2] = { { .steal_ns = -1 }, { .steal_ns = MS(3), .vm = true } };
	json_t *noise = section();

	gap(noise, 0, T0 + US(5), US(5));
	gap(noise, 1, T0 + US(5), US(5));
	rtm_noiseattr_apply(a, noise, env, 2);
	is_str(json_string_value(json_object_get(json_object_get(cpu_of(noise, 0), "causes"),
						 "unexplained")),
	       "no event; the hypervisor reported 3.00 ms of steal time on this CPU during the run",
	       "steal > 0: the hypervisor named");
	is_str(json_string_value(json_object_get(json_object_get(cpu_of(noise, 1), "causes"),
						 "unexplained")),
	       "no event: firmware (SMI) or a cause not traced", "bare metal: firmware");
	rtm_noiseattr_lost(a, 5);
	rtm_noiseattr_apply(a, noise, env, 2);
	ok(json_is_false(json_object_get(json_object_get(noise, "attribution"), "complete")),
	   "lost events: incomplete");
	is_int(rtm_noiseattr_apply(a, json_object_get(noise, "nothing"), env, 2), -EINVAL,
	       "not a noise section");
	json_decref(noise);
	rtm_noiseattr_free(a);
}

/*
 * RT throttling: the FIFO 95 probe (prio 4) switched out still runnable (R+) to a
 * SCHED_OTHER task (the fair server, 6.12+) or to the idle task (the rt_rq
 * throttled), both against kernel.sched_rt_runtime_us 950000 of 1000000 at HZ=250.
 */
static void test_throttling(void)
{
	struct rtm_noiseattr *a = rtm_noiseattr_alloc(2, NULL);
	json_t *noise = section(), *rt;
	char *text = NULL, why[160];
	size_t tlen = 0;
	FILE *f;
	int p;

	rtm_noiseattr_self(a, PROBE);
	rtm_noiseattr_self(a, PROBE0);
	rtm_noiseattr_rt_limit(a, 950000, 1000000, MS(4));
	sw(a, 1, T0, 0, 0, "rtm-noise/1", PROBE, 4);
	/* period 1: 50 ms of a fair task, the tick cutting it at 20 ms */
	sw(a, 1, T0 + MS(950), PROBE, 0x100, "cc1", 555, 120);
	vec(a, 1, T0 + MS(970), "local_timer_entry", true);
	vec(a, 1, T0 + MS(970) + US(4), "local_timer_exit", false);
	sw(a, 1, T0 + MS(1000), 555, 0, "rtm-noise/1", PROBE, 4);
	gap(noise, 0, T0 + MS(950), MS(50));
	/* period 2: 53 ms (one tick late), idle: the rt_rq throttled, nothing else to run */
	sw(a, 1, T0 + MS(1950), PROBE, 0, "swapper/1", 0, 120);
	sw(a, 1, T0 + MS(2003), 0, 0, "rtm-noise/1", PROBE, 4);
	gap(noise, 0, T0 + MS(1950), MS(53));
	/* a FIFO 97 task preempting the probe is a thread, not throttling */
	sw(a, 1, T0 + MS(2500), PROBE, 0x100, "rtm-inject", 4242, 2);
	sw(a, 1, T0 + MS(2501), 4242, 1, "rtm-noise/1", PROBE, 4);
	gap(noise, 0, T0 + MS(2500), MS(1));
	/* CPU 0: a probe at SCHED_OTHER (prio 120) preempted by another: a thread */
	sw(a, 0, T0, 0, 0, "rtm-noise/0", PROBE0, 120);
	sw_prio(a, 0, T0 + MS(10), PROBE0, 120, "make", 88, 120);
	sw(a, 0, T0 + MS(14), 88, 0, "rtm-noise/0", PROBE0, 120);
	gap(noise, 1, T0 + MS(10), MS(4));

	is_int(rtm_noiseattr_apply(a, noise, NULL, 0), 0, "applied");
	is_str(gap_label(noise, 0, 0), "RT throttling (SCHED_OTHER tasks ran: the fair server)",
	       "a fair task in the probe's stead: RT throttling, not the task");
	is_int(gc(noise, 0, 0, 1), MS(50) - US(4), "its 50 ms but the tick's 4 us");
	is_str(gap_label(noise, 0, 1), "RT throttling (the CPU idle)",
	       "the idle task in the probe's stead: RT throttling, not unexplained");
	is_int(gc(noise, 0, 1, 2), 0, "nothing unexplained");
	is_str(gap_label(noise, 0, 2), "thread rtm-inject pid 4242 (rt 97)",
	       "a higher task: the thread");
	is_str(gap_label(noise, 1, 0), "thread make pid 88 (nice 0)",
	       "a SCHED_OTHER probe preempted: the thread");
	is_int(causes_int(noise, 0, "rt_throttling_ns"), MS(103) - US(4), "rt_throttling class");
	is_int(causes_int(noise, 0, "rt_throttling_gaps"), 2, "... main cause of 2 gaps");
	rt = json_object_get(json_object_get(cpu_of(noise, 0), "causes"), "rt_throttling");
	is_int(json_integer_value(json_object_get(rt, "limit_per_period_ns")), MS(50),
	       "limit: period - runtime");
	is_int(json_integer_value(json_object_get(rt, "max_per_period_ns")), MS(53),
	       "the most in one period: period 2's 53 ms");
	ok(json_is_true(json_object_get(rt, "within_limit")), "53 ms: within a 4 ms tick");
	rtm_noiseattr_rt_limit(a, 950000, 1000000, MS(1));
	rtm_noiseattr_apply(a, noise, NULL, 0);
	rt = json_object_get(json_object_get(cpu_of(noise, 0), "causes"), "rt_throttling");
	ok(json_is_false(json_object_get(rt, "within_limit")), "53 ms: over at a 1 ms tick");
	/* a sliding period: 30 ms at 0.95 s and 30 ms at 1.9 s fall in one period */
	is_int(rtm_noiseattr_check(cpu_of(noise, 0), why, sizeof(why)), 0, "check accepts it");
	f = open_memstream(&text, &tlen);
	rtm_noiseattr_fprint(noise, f, 3);
	fclose(f);
	ok(text && strstr(text, "CPU 1: RT throttling took 103 ms, at most 53.0 ms in one period "
			  "of 1.00 s"), "text: the throttling against the setting");
	ok(text && strstr(text, "RT throttling"), "text: the class column");
	if (text && !strstr(text, "RT throttling took"))
		diag("%s", text);
	free(text);
	rtm_noiseattr_rt_limit(a, -1, 1000000, MS(4));
	rtm_noiseattr_apply(a, noise, NULL, 0);
	rt = json_object_get(json_object_get(cpu_of(noise, 0), "causes"), "rt_throttling");
	ok(json_is_null(json_object_get(rt, "within_limit")) &&
	   json_is_null(json_object_get(rt, "limit_per_period_ns")), "runtime -1: no limit");
	json_decref(noise);
	rtm_noiseattr_free(a);

	/* the sliding period: 30 + 30 ms inside one second, though in two aligned ones */
	a = rtm_noiseattr_alloc(2, NULL);
	noise = section();
	rtm_noiseattr_self(a, PROBE);
	rtm_noiseattr_rt_limit(a, 950000, 1000000, MS(4));
	sw(a, 1, T0, 0, 0, "rtm-noise/1", PROBE, 4);
	for (p = 0; p < 2; p++) {
		sw(a, 1, T0 + MS(900 + 200 * p), PROBE, 0x100, "cc1", 555, 120);
		sw(a, 1, T0 + MS(930 + 200 * p), 555, 0, "rtm-noise/1", PROBE, 4);
		gap(noise, 0, T0 + MS(900 + 200 * p), MS(30));
	}
	rtm_noiseattr_apply(a, noise, NULL, 0);
	rt = json_object_get(json_object_get(cpu_of(noise, 0), "causes"), "rt_throttling");
	is_int(json_integer_value(json_object_get(rt, "max_per_period_ns")), MS(60),
	       "sliding: 60 ms within one period");
	ok(json_is_false(json_object_get(rt, "within_limit")), "... over 50 ms + a tick");
	json_decref(noise);
	rtm_noiseattr_free(a);

	/* the probe's switch-in not seen (it ran before it was known), then throttled */
	a = rtm_noiseattr_alloc(2, NULL);
	noise = section();
	rtm_noiseattr_self(a, PROBE);
	sw_prio(a, 1, T0 + MS(950), PROBE, 4, "kworker/1:2", 89, 120);
	sw(a, 1, T0 + MS(1000), 89, 0, "rtm-noise/1", PROBE, 4);
	gap(noise, 0, T0 + MS(950), MS(50));
	rtm_noiseattr_apply(a, noise, NULL, 0);
	is_str(gap_label(noise, 0, 0), "RT throttling (SCHED_OTHER tasks ran: the fair server)",
	       "switch-in missed: the preemption alone makes the probe active");
	json_decref(noise);
	rtm_noiseattr_free(a);
}

/* The causes so far: gaps laid as their events arrive, each once, never ahead of them. */
static void test_live(void)
{
	struct rtm_noiseattr *a = rtm_noiseattr_alloc(2, NULL);
	struct rtm_noiseattr_gap g[3] = {
		{ T0 + US(100), US(10) }, { T0 + MS(950), MS(50) }, { T0 + MS(1500), US(20) },
	};
	uint64_t ns[RTM_NOISE_NCLASSES];
	json_t *o;

	rtm_noiseattr_self(a, PROBE);
	sw(a, 1, T0, 0, 0, "rtm-noise/1", PROBE, 4);
	irq(a, 1, T0 + US(100), 11, "virtio0", true);
	irq(a, 1, T0 + US(108), 11, NULL, false);
	sw(a, 1, T0 + MS(950), PROBE, 0x100, "cc1", 555, 120);
	/* drained so far: up to 950 ms. Gap 0 can be laid, gap 1 not yet */
	is_int(rtm_noiseattr_live_add(a, 1, T0, MS(1000), g, 3), 1, "one gap before the horizon");
	is_int(rtm_noiseattr_live_taken(a, 1), 1, "taken: 1");
	rtm_noiseattr_live_get(a, 1, ns);
	is_int(ns[RTM_NOISE_IRQ], US(8), "irq so far: 8 us");
	is_int(ns[RTM_NOISE_UNEXPLAINED], US(2), "unexplained so far: 2 us");
	is_int(ns[RTM_NOISE_RT_THROTTLING], 0, "no throttling yet");
	/* the next drain: the throttle ends, the probe runs on to 1.6 s */
	sw(a, 1, T0 + MS(1000), 555, 0, "rtm-noise/1", PROBE, 4);
	vec(a, 1, T0 + MS(1500), "local_timer_entry", true);
	vec(a, 1, T0 + MS(1500) + US(20), "local_timer_exit", false);
	vec(a, 1, T0 + MS(1600), "local_timer_entry", true);
	is_int(rtm_noiseattr_live_add(a, 1, T0, MS(1000), g + 1, 2), 2, "the other two laid");
	rtm_noiseattr_live_get(a, 1, ns);
	is_int(ns[RTM_NOISE_RT_THROTTLING], MS(50), "throttling so far: 50 ms");
	is_int(ns[RTM_NOISE_IRQ], US(28), "irq so far: 8 + 20 us");
	is_int(rtm_noiseattr_live_add(a, 1, T0, MS(1000), g + 3, 0), 0, "nothing new: none laid");
	o = rtm_noiseattr_live_json(a, 1);
	is_int(json_integer_value(json_object_get(o, "rt_throttling_ns")), MS(50),
	       "JSON: rt_throttling_ns");
	is_int(json_integer_value(json_object_get(o, "unexplained_ns")), US(2),
	       "JSON: unexplained_ns");
	json_decref(o);
	rtm_noiseattr_live_get(a, 7, ns);
	is_int(ns[RTM_NOISE_IRQ], 0, "an unknown CPU: zeros");
	is_int(rtm_noiseattr_live_add(a, 0, T0, MS(1000), g, 3), 0,
	       "a CPU without events: nothing laid (no horizon)");
	rtm_noiseattr_free(a);
}

/* What the SMI counter says words the unexplained part. */
static void test_smi_reasons(void)
{
	struct rtm_noiseattr *a = rtm_noiseattr_alloc(2, NULL);
	struct rtm_noiseattr_env env[2] = {
		{ .steal_ns = -1, .vm = false, .smi_read = true, .smis = 3 },
		{ .steal_ns = -1, .vm = true, .smi_why = "no /dev/cpu/1/msr (the msr module: "
			"modprobe msr)" },
	};
	json_t *noise = section();
	const json_t *c0, *c1;

	gap(noise, 0, T0 + US(5), US(5));
	gap(noise, 1, T0 + US(5), US(5));
	rtm_noiseattr_apply(a, noise, env, 2);
	c1 = json_object_get(cpu_of(noise, 0), "causes");
	c0 = json_object_get(cpu_of(noise, 1), "causes");
	is_str(json_string_value(json_object_get(c1, "unexplained")),
	       "no event; a VM: hypervisor or SMI cannot be told apart; SMIs unknown: no "
	       "/dev/cpu/1/msr (the msr module: modprobe msr)", "unreadable: unknown and why");
	ok(json_is_null(json_object_get(c1, "smis")), "... smis null");
	is_str(json_string_value(json_object_get(c1, "smis_unknown")),
	       "no /dev/cpu/1/msr (the msr module: modprobe msr)", "... smis_unknown");
	is_str(json_string_value(json_object_get(c0, "unexplained")),
	       "no event; firmware: 3 SMIs on this CPU during the run (MSR_SMI_COUNT)",
	       "the counter grew: firmware, with the count");
	is_int(json_integer_value(json_object_get(c0, "smis")), 3, "... smis 3");
	env[0].smis = 0;
	env[0].steal_ns = MS(2);
	rtm_noiseattr_apply(a, noise, env, 2);
	c0 = json_object_get(cpu_of(noise, 1), "causes");
	is_str(json_string_value(json_object_get(c0, "unexplained")),
	       "no event; not firmware: no SMI on this CPU during the run (MSR_SMI_COUNT); the "
	       "hypervisor reported 2.00 ms of steal time", "no SMI, steal: the hypervisor");
	env[0].steal_ns = 0;
	rtm_noiseattr_apply(a, noise, env, 2);
	c0 = json_object_get(cpu_of(noise, 1), "causes");
	is_str(json_string_value(json_object_get(c0, "unexplained")),
	       "no event; not firmware: no SMI on this CPU during the run (MSR_SMI_COUNT); a "
	       "cause not traced", "no SMI on bare metal: a cause not traced");
	env[0].smis = 2;
	env[0].steal_ns = MS(2);
	rtm_noiseattr_apply(a, noise, env, 2);
	c0 = json_object_get(cpu_of(noise, 1), "causes");
	is_str(json_string_value(json_object_get(c0, "unexplained")),
	       "no event; firmware: 2 SMIs on this CPU during the run (MSR_SMI_COUNT), and the "
	       "hypervisor reported 2.00 ms of steal time", "SMIs and steal: both said");
	json_decref(noise);
	rtm_noiseattr_free(a);
}

/* ------------------------------------------------ recorded on this VM */

#define REC "noiseattr-vm-6.18"
#define MAX_ON 256

static const char *data_dir(void)
{
	return getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
}

/* The independent reading: when the injector ran, from sched_switch alone. */
struct on_cpu {
	int inject_pid;
	uint64_t start[MAX_ON], end[MAX_ON];
	int n;
	bool in;
	struct rtm_noiseattr *a;
};

static int rec_event(const struct rtm_event *ev, void *ctx)
{
	struct on_cpu *oc = ctx;

	if (ev->type == RTM_EV_SCHED_SWITCH) {
		if (!strcmp(ev->sw.next_comm, "rtm-inject") && oc->n < MAX_ON) {
			oc->inject_pid = ev->sw.next_pid;
			oc->start[oc->n] = ev->ts_ns;
			oc->in = true;
		} else if (oc->in && ev->sw.prev_pid == oc->inject_pid) {
			oc->end[oc->n++] = ev->ts_ns;
			oc->in = false;
		}
	}
	return rtm_noiseattr_event(ev, oc->a);
}

static void test_recorded(void)
{
	static struct on_cpu oc;
	struct rtm_error err = { "" };
	struct rtm_tracedec *d;
	char path[512], page[4096], label[64], line[128];
	uint64_t lost = 0, s, e, start, window, width, on_ns = 0, gap_inject_ns = 0;
	int tid = 0, expected = 0, named = 0, covered = 0, touching = 0, k;
	const json_t *cpu, *c;
	json_t *noise;
	size_t j;
	FILE *f;

	snprintf(path, sizeof(path), "%s/" REC "/probe", data_dir());
	f = fopen(path, "r");
	ok(f && fscanf(f, "tid %d", &tid) == 1 && tid > 0, "recorded: the probe's tid");
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "%s/" REC, data_dir());
	d = rtm_tracedec_alloc(path, &err);
	ok(d != NULL, "recorded: formats load (%s)", err.msg);
	snprintf(path, sizeof(path), "%s/" REC "/noise.json", data_dir());
	noise = json_load_file(path, 0, NULL);
	oc.a = rtm_noiseattr_alloc(2, NULL);
	if (!d || !noise || !oc.a) {
		ok(0, "recorded data readable");
		goto out;
	}
	rtm_noiseattr_self(oc.a, tid);
	snprintf(path, sizeof(path), "%s/" REC "/cpu1.raw", data_dir());
	f = fopen(path, "r");
	while (f && fread(page, 1, sizeof(page), f) == sizeof(page))
		rtm_tracedec_page(d, page, 1, rec_event, &oc, &lost);
	if (f)
		fclose(f);
	is_u64(lost, 0, "recorded: nothing lost");
	is_int(oc.n, 25, "recorded: 25 runs of the injector (24 spins and its start; RECORDED)");
	is_int(rtm_noiseattr_apply(oc.a, noise, NULL, 0), 0, "recorded: applied");
	cpu = json_array_get(json_object_get(noise, "cpus"), 0);
	snprintf(label, sizeof(label), "thread rtm-inject pid %d (rt 97)", oc.inject_pid);
	start = (uint64_t)json_integer_value(json_object_get(noise, "start_mono_ns"));
	window = (uint64_t)json_integer_value(json_object_get(noise, "window_ns"));
	width = (uint64_t)json_integer_value(json_object_get(noise, "width_ns"));

	/* every injection inside a busy part is a gap whose main cause is the injector */
	snprintf(path, sizeof(path), "%s/" REC "/inject.txt", data_dir());
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		const json_t *g;
		uint64_t ws;

		if (sscanf(line, "inject %*d %lu %lu", &s, &e) != 2)
			continue;
		ws = start + (s - start) / window * window;
		touching += s < ws + width;
		if (s < ws + MS(5) || e > ws + width)
			continue;	/* the probe sleeps then, or only just woke */
		expected++;
		json_array_foreach(json_object_get(cpu, "gap_list"), j, g) {
			uint64_t gs = start + (uint64_t)json_integer_value(json_array_get(g, 0));
			uint64_t gl = (uint64_t)json_integer_value(json_array_get(g, 1));

			if (gs > s || gs + gl < e)
				continue;
			covered++;
			/*
			 * its share: the spin less the interrupts it took (the tick every
			 * 4 ms: their own causes); explained: nearly all of the spin
			 */
			if (!strcmp(gap_label(noise, 0, (int)j), label) &&
			    (uint64_t)gc(noise, 0, (int)j, 1) >= (e - s) * 95 / 100 &&
			    (uint64_t)gc(noise, 0, (int)j, 1) <= gl &&
			    gl - (uint64_t)gc(noise, 0, (int)j, 2) >= (e - s) * 98 / 100)
				named++;
			else
				diag("injection at %lu: gap %lu ns, main %s %lld ns", s, gl,
				     gap_label(noise, 0, (int)j), gc(noise, 0, (int)j, 1));
			break;
		}
	}
	if (f)
		fclose(f);
	ok(expected >= 14, "recorded: %d injections inside busy parts", expected);
	is_int(covered, expected, "recorded: each covered by one gap");
	is_int(named, expected,
	       "recorded: each named rtm-inject (95 % of its spin), 98 % explained");

	/*
	 * The injector's share against sched_switch alone: its on-CPU time inside the
	 * gaps, less the interrupts it took meanwhile (their own causes).
	 */
	for (k = 0; k < oc.n; k++)
		json_array_foreach(json_object_get(cpu, "gap_list"), j, c) {
			uint64_t gs = start + (uint64_t)json_integer_value(json_array_get(c, 0));
			uint64_t ge = gs + (uint64_t)json_integer_value(json_array_get(c, 1));

			if (gs <= oc.end[k] && ge >= oc.start[k])
				on_ns += (oc.end[k] < ge ? oc.end[k] : ge) -
					 (oc.start[k] > gs ? oc.start[k] : gs);
		}
	gap_inject_ns = (uint64_t)json_integer_value(json_object_get(contrib(noise, 0, label),
								      "ns"));
	ok(gap_inject_ns <= on_ns + US(5) * (uint64_t)expected && gap_inject_ns >= on_ns * 99 / 100,
	   "recorded: the injector's %lu ns in gaps match its on-CPU time there (%lu ns)",
	   gap_inject_ns, on_ns);
	/*
	 * The tick (local_timer every 4 ms) lies inside 394 gaps; its traced handler is
	 * a few us of each, the rest its untraced entry and exit (and the hypervisor's
	 * delivery of the timer): the tick is their cause, not "unexplained" (it was
	 * the main cause of 36 of them when only the traced part counted).
	 */
	c = contrib(noise, 0, "vector local_timer");
	k = (int)json_integer_value(json_object_get(c, "main_of"));
	ok(json_integer_value(json_object_get(c, "gaps")) == 394 && k >= 394 * 9 / 10 &&
	   k <= 394, "recorded: the tick is the main cause of %d of the 394 gaps it lies in", k);
	ok(causes_int(noise, 0, "tick_rest_ns") > 0 &&
	   causes_int(noise, 0, "tick_rest_ns") <= (json_int_t)k * (json_int_t)US(50),
	   "recorded: the untraced rest given to the tick, at most 50 us a gap (%lld ns)",
	   causes_int(noise, 0, "tick_rest_ns"));
	/* and of those at a busy part's edges, nothing else */
	k = (int)json_integer_value(json_object_get(contrib(noise, 0, label), "main_of"));
	ok(k >= expected && k <= touching, "recorded: main cause of %d gaps (%d injections "
	   "inside busy parts, %d touching one)", k, expected, touching);
out:
	json_decref(noise);
	rtm_noiseattr_free(oc.a);
	rtm_tracedec_free(d);
}

/*
 * The periodic tick inside a gap is its cause: the rest of the gap no event covers
 * (the interrupt's entry and exit, a VM's timer delivery) goes to the tick, up to
 * RTM_NOISEATTR_TICK_REST_MAX_NS; another IRQ's gap keeps its rest unexplained.
 */
static void test_tick(void)
{
	struct rtm_noiseattr *a = rtm_noiseattr_alloc(2, NULL);
	json_t *noise = section();
	uint64_t cls[RTM_NOISE_NCLASSES];
	struct rtm_noiseattr_gap lg[5];
	int g;

	ok(a && !rtm_noiseattr_self(a, PROBE), "tick: allocated");
	sw(a, 1, T0, 0, 0, "rtm-noise/1", PROBE, 4);
	/* gap 0: 20 us, the local timer's handler 3 us of it */
	vec(a, 1, T0 + US(14), "local_timer_entry", true);
	vec(a, 1, T0 + US(17), "local_timer_exit", false);
	gap(noise, 0, T0 + US(10), US(20));
	/* gap 1: 300 us with a 3 us tick in it: too long a rest to be the tick's */
	vec(a, 1, T0 + US(1100), "local_timer_entry", true);
	vec(a, 1, T0 + US(1103), "local_timer_exit", false);
	gap(noise, 0, T0 + US(1000), US(300));
	/* gap 2: 15 us with only the TIMER softirq the tick raised */
	soft(a, 1, T0 + US(2005), 1, true);
	soft(a, 1, T0 + US(2008), 1, false);
	gap(noise, 0, T0 + US(2000), US(15));
	/* gap 3: 20 us with a device's IRQ of 3 us: not the tick, the rest unexplained */
	irq(a, 1, T0 + US(3005), 11, "virtio0", true);
	irq(a, 1, T0 + US(3008), 11, NULL, false);
	gap(noise, 0, T0 + US(3000), US(20));
	/* gap 4: 20 us, the tick's handler 2 us then its TIMER softirq 2 us */
	vec(a, 1, T0 + US(4002), "local_timer_entry", true);
	vec(a, 1, T0 + US(4004), "local_timer_exit", false);
	soft(a, 1, T0 + US(4004), 1, true);
	soft(a, 1, T0 + US(4006), 1, false);
	gap(noise, 0, T0 + US(4000), US(20));
	sw(a, 1, T0 + US(9000), PROBE, 1, "swapper/1", 0, 120);
	/* live, the same rule: the gaps laid so far */
	for (g = 0; g < 5; g++) {
		const json_t *e = json_array_get(json_object_get(cpu_of(noise, 0), "gap_list"),
						 (size_t)g);

		lg[g].start_ns = T0 + (uint64_t)json_integer_value(json_array_get(e, 0));
		lg[g].len_ns = (uint64_t)json_integer_value(json_array_get(e, 1));
	}
	is_int((int)rtm_noiseattr_live_add(a, 1, T0, MS(1000), lg, 5), 5, "tick: 5 gaps laid live");
	rtm_noiseattr_live_get(a, 1, cls);
	is_u64(cls[RTM_NOISE_UNEXPLAINED], US(297) + US(17), "tick live: unexplained only in gaps 1, 3");
	is_u64(cls[RTM_NOISE_IRQ], US(20) + US(3) + US(3) + US(18),
	       "tick live: the tick's handler and rest to the IRQ class");
	is_u64(cls[RTM_NOISE_SOFTIRQ], US(15) + US(2), "tick live: gap 2 all its softirq's");
	is_int(rtm_noiseattr_apply(a, noise, NULL, 0), 0, "tick: applied");
	is_str(gap_label(noise, 0, 0), "vector local_timer", "gap 0: the tick");
	is_int((int)gc(noise, 0, 0, 1), (int)US(20), "gap 0: all 20 us the tick's");
	is_int((int)gc(noise, 0, 0, 2), 0, "gap 0: nothing unexplained");
	is_str(gap_label(noise, 0, 1), "unexplained", "gap 1: a 297 us rest is not the tick's");
	is_int((int)gc(noise, 0, 1, 2), (int)US(297), "gap 1: 297 us unexplained");
	is_str(gap_label(noise, 0, 2), "softirq TIMER", "gap 2: the tick's softirq");
	is_int((int)gc(noise, 0, 2, 1), (int)US(15), "gap 2: all 15 us");
	is_str(gap_label(noise, 0, 3), "unexplained", "gap 3: a device IRQ's rest stays unexplained");
	is_str(gap_label(noise, 0, 4), "vector local_timer",
	       "gap 4: the rest to the tick's handler, not its softirq");
	is_int((int)gc(noise, 0, 4, 1), (int)US(18), "gap 4: the handler's 2 us and the 16 us rest");
	is_int((int)causes_int(noise, 0, "tick_rest_ns"), (int)(US(17) + US(12) + US(16)),
	       "tick_rest_ns: the untraced time given to the tick");
	json_decref(noise);
	rtm_noiseattr_free(a);
}

/* The preempting threads' policies, read from /proc when first seen. */
static void test_policies(void)
{
	char root[] = "/tmp/test_noiseattr.XXXXXX", path[600];
	static const int pids[] = { 11, 12, 13, 14 };
	struct rtm_noiseattr *a;
	json_t *noise = section();
	size_t i;

	if (!mkdtemp(root)) {
		ok(0, "a temporary /proc");
		return;
	}
	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir(path, 0755);
	fake_proc_stat(root, 11, "fifo-thr", 1);
	fake_proc_stat(root, 12, "rr-thr", 2);
	fake_proc_stat(root, 13, "batch-thr", 3);
	fake_proc_stat(root, 14, "now-another", 1);	/* pid reused: not the traced comm */
	a = rtm_noiseattr_alloc(2, root);
	rtm_noiseattr_self(a, PROBE);
	/* a probe at --policy other (prio 120): any of them may preempt it */
	sw(a, 1, T0, 0, 0, "rtm-noise/1", PROBE, 4);
	sw_prio(a, 1, T0 + US(10), PROBE, 120, "fifo-thr", 11, 9);
	sw(a, 1, T0 + US(20), 11, 1, "rtm-noise/1", PROBE, 4);
	sw_prio(a, 1, T0 + US(110), PROBE, 120, "rr-thr", 12, 49);
	sw(a, 1, T0 + US(120), 12, 1, "rtm-noise/1", PROBE, 4);
	sw_prio(a, 1, T0 + US(210), PROBE, 120, "batch-thr", 13, 125);
	sw(a, 1, T0 + US(220), 13, 1, "rtm-noise/1", PROBE, 4);
	sw_prio(a, 1, T0 + US(310), PROBE, 120, "gone-thr", 14, 9);
	sw(a, 1, T0 + US(320), 14, 1, "rtm-noise/1", PROBE, 4);
	for (i = 0; i < 4; i++)
		gap(noise, 0, T0 + US(10 + 100 * i), US(10));
	rtm_noiseattr_apply(a, noise, NULL, 0);
	is_str(gap_label(noise, 0, 0), "thread fifo-thr pid 11 (fifo 90)", "policy: FIFO");
	is_str(gap_label(noise, 0, 1), "thread rr-thr pid 12 (rr 50)", "policy: RR");
	is_str(gap_label(noise, 0, 2), "thread batch-thr pid 13 (batch, nice 5)", "policy: BATCH");
	is_str(gap_label(noise, 0, 3), "thread gone-thr pid 14 (rt 90)",
	       "a reused pid: the policy unknown, the priority kept");
	is_str(json_string_value(json_object_get(contrib(noise, 0, "thread rr-thr pid 12 (rr 50)"),
						 "policy")), "RR", "the policy in the JSON");
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/proc/%d/stat", root, pids[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/proc/%d", root, pids[i]);
		rmdir(path);
	}
	snprintf(path, sizeof(path), "%s/proc", root);
	rmdir(path);
	rmdir(root);
	json_decref(noise);
	rtm_noiseattr_free(a);
}

/* result.json's load takes a result with causes and refuses a broken one. */
static void test_load(void)
{
	struct rtm_error err = { "" };
	struct rtm_result *r;
	struct rtm_noiseattr *a = rtm_noiseattr_alloc(2, NULL);
	char path[512];
	json_t *root, *cpu;

	snprintf(path, sizeof(path), "%s/results/vm-6.18-noise/result.json", data_dir());
	root = json_load_file(path, 0, NULL);
	ok(root && a, "a recorded noise result");
	if (!root || !a)
		goto out;
	rtm_noiseattr_apply(a, json_object_get(json_object_get(root, "sections"), "noise"),
			    NULL, 0);
	r = rtm_result_from_json(root, "x", &err);
	ok(r != NULL, "load: causes accepted (%s)", err.msg);
	rtm_result_free(r);
	cpu = json_array_get(json_object_get(json_object_get(json_object_get(root, "sections"),
							     "noise"), "cpus"), 0);
	json_array_remove(json_object_get(cpu, "gap_causes"), 0);
	r = rtm_result_from_json(root, "x", &err);
	ok(!r && strstr(err.msg, "sections.noise.cpus[0]: gap_causes has"),
	   "load: a gap_causes shorter than gap_list refused (%s)", err.msg);
	rtm_result_free(r);
	json_object_del(cpu, "gap_causes");
	r = rtm_result_from_json(root, "x", &err);
	ok(!r && strstr(err.msg, "go together"), "load: causes without gap_causes refused (%s)",
	   err.msg);
	rtm_result_free(r);
out:
	json_decref(root);
	rtm_noiseattr_free(a);
}

int main(void)
{
	test_load();
	test_sequences();
	test_tick();
	test_reasons();
	test_policies();
	test_throttling();
	test_live();
	test_smi_reasons();
	test_recorded();
	return tap_done();
}
