// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: spike analysis on recorded event windows (tests/data/spikes, see
 * its README): this VM (a FIFO 99 injection, a vCPU stall) and Debian's 6.1
 * stock and PREEMPT_RT kernels under qemu (a higher-priority RT thread, a
 * threaded and a hard device IRQ, the TIMER softirq in irq exit/ksoftirqd and
 * in ktimers, a SCHED_OTHER task in a non-preemptible section, interrupts off,
 * a vCPU stall). Each window is loaded back from its spike JSON and analysed
 * again and its verdict is checked against values known without lib/trace/analysis.c:
 * the scenario each window was recorded in (the injector, the device IRQ, the
 * task that held the CPU, its priority, the kernel's preemption model) and the
 * time stamps of the events that mark each phase, read from the files with jq
 * (tests/data/spikes/facts.jq, see the README there). Nothing here recomputes
 * the accounting, so the test and the library cannot share a mistake.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analysis.h"
#include "trace/capture.h"
#include "core/units.h"
#include "../tap.h"

struct spike_case {
	const char *file;
	const char *task;		/* who held the CPU after the wake-up (tasks[0]) */
	int task_prio;			/* its kernel prio (99 - RT priority, 120 + nice) */
	const char *irq;		/* the interrupt or softirq that explains most */
	bool unexplained;		/* the spike is time no event explains */
	const char *running;		/* the task on the CPU at the planned wake-up */
	const char *says[3];		/* in the verdict */
	const char *model;		/* the recording kernel's preemption model */
	const char *held;		/* a lower-priority task the kernel could not preempt */
	/* time stamps (ns) of the window's events, from facts.jq */
	uint64_t timer_ns;		/* the probe's hrtimer_expire_entry */
	uint64_t wake_ns;		/* the probe's first sched_waking/wakeup */
	uint64_t switch_ns;		/* its last switch-in before it woke; woke_ns if none */
	uint64_t gap_ns;		/* the longest stretch without an event */
	uint64_t irq_ns;		/* @irq: entry -> exit, nested hard IRQs taken out */
	int irq_runs;			/* @irq: its runs inside the window */
};

static const struct spike_case cases[] = {
	{ "inject-5ms-vm-6.18.json", "rtm-inject", 0, NULL, false, "rtm-inject",
	  { "rtm-inject", "RT priority 99", "CPU0 woke" }, "none", NULL,
	  8599054399467, 8599054399827, 8599058537050, 2488980, 0, 0 },
	{ "vm-stall-6.18.json", NULL, -1, NULL, true, "swapper/1",
	  { "unexplained", "hypervisor", NULL }, "none", NULL,
	  8650723875807, 8650723876579, 8650723913884, 4562765, 0, 0 },
	{ "inject-rt-6.1.json", "rtm-inject", 0, NULL, false, "rtm-inject",
	  { "rtm-inject", "RT priority 99", NULL }, "rt", NULL,
	  14375353760, 14375363430, 14380465690, 3627230, 0, 0 },
	/* PREEMPT_RT: the device IRQ's handler runs in its thread at FIFO 50 */
	{ "irq-thread-rt-6.1.json", "irq/3-ttyS1", 49, "IRQ 3 (ttyS1)", false, "irq/3-ttyS1",
	  { "irq/3-ttyS1", "RT priority 50", "IRQ 3 (ttyS1)" }, "rt", NULL,
	  13917695550, 13917698730, 13922346490, 108900, 1226460, 351 },
	/* stock: the same device's handler in hard IRQ context */
	{ "irq-stock-6.1.json", NULL, -1, "IRQ 3 (ttyS1)", false, "swapper/0",
	  { "IRQ 3 (ttyS1)", NULL, NULL }, "voluntary", NULL,
	  21634053290, 21634061010, 21634410310, 6028540, 6036180, 2 },
	{ "softirq-stock-6.1.json", NULL, -1, "softirq TIMER", false, "swapper/0",
	  { "softirq TIMER", NULL, NULL }, "voluntary", NULL,
	  17660464753, 17660467763, 17668574093, 2148560, 7764890, 1 },
	/* PREEMPT_RT: timer softirqs run in ktimers/N at FIFO 1, the probe's priority */
	{ "softirq-rt-6.1.json", "ktimers/0", 98, "softirq TIMER", false, "ktimers/0",
	  { "ktimers/0", "RT priority 1", "softirq TIMER" }, "rt", NULL,
	  30161343949, 30161346589, 30170043489, 1175710, 7661740, 1 },
	/* preempt=none: epoll_wait() over 10000 ready fds has no preemption point */
	{ "nonpreempt-stock-6.1.json", "rtm-epoll", 120, NULL, false, "rtm-epoll",
	  { "rtm-epoll", "SCHED_OTHER nice 0", NULL }, "none", "rtm-epoll",
	  13540034860, 13540040510, 13550697930, 3964900, 0, 0 },
	/* printk on the serial console: interrupts off, no event */
	{ "irqoff-stock-6.1.json", "rtm-kmsg", 120, NULL, true, "rtm-kmsg",
	  { "unexplained", "interrupts off", NULL }, "voluntary", "rtm-kmsg",
	  19610333990, 19610341840, 19610522450, 5910200, 0, 0 },
	{ "stall-rt-6.1.json", NULL, -1, NULL, true, "swapper/0",
	  { "unexplained", NULL, NULL }, "rt", NULL,
	  14932037680, 14932042220, 14932178090, 2967810, 0, 0 },
};

static json_t *load(const char *name, struct rtm_event **ev, size_t *n)
{
	const char *data = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
	char path[PATH_MAX];
	struct rtm_error err = { "" };
	json_t *doc;

	snprintf(path, sizeof(path), "%s/spikes/%s", data, name);
	doc = json_load_file(path, 0, NULL);
	if (!ok(doc && rtm_events_from_json(json_object_get(doc, "events"), ev, n, &err) == 0,
		"%s loads (%s)", name, err.msg)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

static uint64_t jget(json_t *doc, const char *key)
{
	return (uint64_t)json_integer_value(json_object_get(doc, key));
}

static const struct rtm_analysis_irq *find_irq(const struct rtm_analysis *a, const char *what)
{
	int i;

	for (i = 0; i < a->nirqs; i++)
		if (!strcmp(a->irqs[i].what, what))
			return &a->irqs[i];
	return NULL;
}

static void check_case(const struct spike_case *c)
{
	struct rtm_event *ev = NULL;
	struct rtm_analysis a;
	uint64_t planned, woke;
	const char *probe;
	char t[16], t2[16];
	json_t *doc;
	size_t n;
	int cpu, k;

	doc = load(c->file, &ev, &n);
	if (!doc)
		return;
	planned = jget(doc, "planned_ns");
	woke = jget(doc, "woke_ns");
	cpu = (int)jget(doc, "cpu");
	probe = json_string_value(json_object_get(doc, "probe_comm"));
	rtm_analyze(ev, n, cpu, planned, woke, probe, c->model, &a);
	is_str(a.preempt_model, c->model, "the preemption model is taken as given");
	if (c->held) {
		char why[96];

		ok(a.held_by >= 0 && !strcmp(a.tasks[a.held_by].comm, c->held),
		   "%s (lower priority than the probe) kept the CPU: it could not be preempted",
		   c->held);
		snprintf(why, sizeof(why), "ran %s in kernel code without a preemption point "
			 "(preemption model %s", a.held_by >= 0 ? rtm_fmt_ns(t, sizeof(t),
			 a.tasks[a.held_by].ran_ns) : "?", c->model);
		ok(strstr(a.verdict, why) != NULL, "the verdict says why: %s", a.verdict);
	} else {
		ok(a.held_by == -1, "no lower-priority task held the CPU (held_by %d)", a.held_by);
		ok(!strstr(a.verdict, "preemption point") && !strstr(a.verdict, "non-preemptible"),
		   "and the verdict blames none");
	}

	is_u64(a.latency_ns, woke - planned, "latency = woke - planned");
	ok(strstr(a.verdict, rtm_fmt_ns(t, sizeof(t), a.latency_ns)) != NULL,
	   "%s: the verdict gives the latency (%s): %s", c->file, t, a.verdict);
	for (k = 0; k < 3; k++)
		if (c->says[k])
			ok(strstr(a.verdict, c->says[k]) != NULL, "it says \"%s\"", c->says[k]);
	ok(a.irq_ns <= a.latency_ns, "interrupt time (%llu ns) fits in the latency: "
	   "nothing counted twice", (unsigned long long)a.irq_ns);

	/* the phases, from the time stamps of the events that end them */
	ok(a.found_timer && a.found_wakeup, "the probe's timer and wake-up are found");
	is_u64(a.timer_delay_ns, c->timer_ns - planned,
	       "timer delay = planned -> the probe's hrtimer_expire_entry");
	is_u64(a.wakeup_ns, c->wake_ns - c->timer_ns, "wake-up = hrtimer entry -> its wake-up");
	is_u64(a.sched_delay_ns, c->switch_ns - c->wake_ns,
	       "scheduling delay = wake-up -> last switch to the probe");
	is_u64(a.return_ns, woke - c->switch_ns, "return = switch -> the probe's clock read");
	is_u64(a.largest_gap_ns, c->gap_ns, "the longest stretch without events");

	if (c->task) {
		ok(a.ntasks >= 1 && !strcmp(a.tasks[0].comm, c->task),
		   "the task that held the CPU: %s", a.ntasks ? a.tasks[0].comm : "none");
		if (a.ntasks >= 1) {
			is_int(a.tasks[0].prio, c->task_prio, "with its priority");
			/* the only switch in between is the holder's to the probe */
			is_u64(a.tasks[0].ran_ns, c->switch_ns - c->wake_ns,
			       "it ran from the wake-up until it switched to the probe");
			ok(strstr(a.verdict, rtm_fmt_ns(t, sizeof(t), a.tasks[0].ran_ns)) != NULL,
			   "the verdict gives its run time (%s)", t);
		}
	} else {
		is_int(a.ntasks, 0, "no task ran between the wake-up and the probe");
	}
	if (c->irq) {
		const struct rtm_analysis_irq *q = find_irq(&a, c->irq);

		ok(q != NULL, "%s is listed", c->irq);
		if (q) {
			is_u64(q->total_ns, c->irq_ns, "its time between its entries and exits");
			is_int(q->count, c->irq_runs, "counted once per run");
			ok(strstr(a.verdict, rtm_fmt_ns(t, sizeof(t), q->total_ns)) != NULL,
			   "the verdict gives its time (%s)", t);
		}
	}
	if (c->unexplained) {
		is_u64(a.unexplained_ns, c->gap_ns,
		       "unexplained: the one stretch without events, nothing else");
		ok(strstr(a.verdict, rtm_fmt_ns(t2, sizeof(t2), a.unexplained_ns)) != NULL,
		   "the verdict gives the unexplained time (%s)", t2);
	} else {
		ok(a.unexplained_ns * 10 < a.latency_ns,
		   "little unexplained (%llu ns)", (unsigned long long)a.unexplained_ns);
	}
	if (c->running) {
		const char *cur = NULL;
		size_t i;

		for (i = 0; i < n && ev[i].ts_ns <= planned; i++)
			if (ev[i].cpu == cpu && ev[i].type == RTM_EV_SCHED_SWITCH)
				cur = ev[i].sw.next_comm;
		is_str(cur, c->running, "on the CPU when the wake-up was due");
	}
	free(ev);
	json_decref(doc);
}

int main(void)
{
	struct rtm_analysis a;
	struct rtm_event *ev = NULL;
	json_t *doc;
	size_t i, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&cases[i]);

	/* --- facts particular to one window */
	doc = load("inject-5ms-vm-6.18.json", &ev, &n);
	if (doc) {
		uint64_t planned = jget(doc, "planned_ns"), woke = jget(doc, "woke_ns");
		json_t *j;

		rtm_analyze(ev, n, 0, planned, woke, "rtm-probe/0", NULL, &a);
		j = rtm_analysis_to_json(&a);
		ok(j && !strcmp(json_string_value(json_object_get(j, "verdict")), a.verdict),
		   "JSON form carries the verdict");
		json_decref(j);
		/* another CPU's probe name finds nothing: no wake-up, all unexplained */
		rtm_analyze(ev, n, 0, planned, woke, "rtm-probe/7", NULL, &a);
		ok(!a.found_wakeup && strstr(a.verdict, "no wake-up"),
		   "a probe that is not in the window: %s", a.verdict);
	}
	free(ev);
	json_decref(doc);

	/*
	 * The measuring process's own thread as the cause: rtm-epoll (pid 103) of the
	 * recorded window stands in for the monitor's main thread. It stays the cause,
	 * named as the monitor; a pid not in the window changes nothing.
	 */
	ev = NULL;
	doc = load("nonpreempt-stock-6.1.json", &ev, &n);
	if (doc) {
		uint64_t planned = jget(doc, "planned_ns"), woke = jget(doc, "woke_ns");
		static const int self[] = { 4242, 103 }, other[] = { 4242 };
		char before[sizeof(a.verdict)];
		json_t *j;

		rtm_analyze(ev, n, 0, planned, woke, "rtm-probe/0", "none", &a);
		snprintf(before, sizeof(before), "%s", a.verdict);
		rtm_analysis_own(&a, other, 1, "this monitor");
		is_str(a.verdict, before, "no thread of the monitor in the window: the same "
		       "verdict");
		rtm_analysis_own(&a, self, 2, "this monitor");
		ok(strstr(a.verdict, ", while this monitor (rtm-epoll, pid 103, SCHED_OTHER nice "
			  "0) ran ") && !strstr(a.verdict, "while rtm-epoll"),
		   "its own thread named as the monitor: %s", a.verdict);
		ok(a.held_by >= 0 && a.tasks[a.held_by].own &&
		   strstr(a.verdict, "preemption model"),
		   "still the cause, and why it held the CPU");
		j = rtm_analysis_to_json(&a);
		ok(j && !strcmp(json_string_value(json_object_get(j, "verdict")), a.verdict),
		   "the JSON form carries the named verdict");
		json_decref(j);
	}
	free(ev);
	json_decref(doc);

	ev = NULL;
	doc = load("irq-thread-rt-6.1.json", &ev, &n);
	if (doc) {
		const char *probe = json_string_value(json_object_get(doc, "probe_comm"));
		int hard = 0, prio = -1;

		for (i = 0; i < n; i++) {
			if (ev[i].cpu == 0 && ev[i].type == RTM_EV_IRQ_ENTRY && ev[i].irq.irq == 3)
				hard++;
			if (ev[i].type == RTM_EV_SCHED_WAKEUP && !strcmp(ev[i].wakeup.comm, probe))
				prio = ev[i].wakeup.prio;
		}
		ok(hard > 10, "PREEMPT_RT: %d hard IRQ 3 entries, the handler in irq/3-ttyS1", hard);
		is_int(prio, 59, "the probe ran at FIFO 40, below the IRQ threads");
	}
	free(ev);
	json_decref(doc);

	/*
	 * Where the TIMER softirq ran: on the stock kernel in irq exit (right after a
	 * hard IRQ or vector ends) or in ksoftirqd/0, on PREEMPT_RT in ktimers/0.
	 */
	for (i = 0; i < 2; i++) {
		static const char *const file[] = { "softirq-stock-6.1.json", "softirq-rt-6.1.json" };

		ev = NULL;
		doc = load(file[i], &ev, &n);
		if (doc) {
			uint64_t planned = jget(doc, "planned_ns"), woke = jget(doc, "woke_ns");
			int runs = 0, irq_exit = 0, ksoftirqd = 0, ktimers = 0, woken = 0;
			enum rtm_ev_type prev = RTM_EV_OTHER;
			const char *cur = "";
			size_t k;

			for (k = 0; k < n; k++) {
				const struct rtm_event *e = &ev[k];

				if (e->cpu != 0)
					continue;
				if (e->type == RTM_EV_SCHED_SWITCH)
					cur = e->sw.next_comm;
				if (e->type == RTM_EV_SOFTIRQ_ENTRY && e->softirq.vec == 1 &&
				    e->ts_ns <= woke) {
					runs++;
					irq_exit += prev == RTM_EV_IRQ_EXIT || prev == RTM_EV_VECTOR_EXIT;
					ksoftirqd += !strcmp(cur, "ksoftirqd/0");
					ktimers += !strcmp(cur, "ktimers/0");
				}
				woken += e->type == RTM_EV_SCHED_WAKING && e->ts_ns >= planned &&
					 e->ts_ns <= woke && !strcmp(e->wakeup.comm, "rtm-timeout");
				if (e->type != RTM_EV_SOFTIRQ_RAISE)
					prev = e->type;
			}
			if (i == 0)
				ok(runs > 0 && irq_exit + ksoftirqd == runs && !ktimers,
				   "stock: the TIMER softirq ran in irq exit (%d) or ksoftirqd/0 (%d)",
				   irq_exit, ksoftirqd);
			else
				ok(runs > 0 && ktimers == runs,
				   "PREEMPT_RT: the TIMER softirq ran in ktimers/0 (%d of %d runs)",
				   ktimers, runs);
			ok(woken >= 100, "%s: it woke %d rtm-timeout threads while the probe waited",
			   file[i], woken);
		}
		free(ev);
		json_decref(doc);
	}

	/* --- the same held CPU, explained by each preemption model */
	doc = load("nonpreempt-stock-6.1.json", &ev, &n);
	if (doc) {
		static const struct { const char *model, *says; } why[] = {
			{ "voluntary", "in kernel code without a preemption point (preemption model "
				       "voluntary" },
			{ "full", "in a non-preemptible section (preemption model full" },
			{ "rt", "in a non-preemptible section (preemption model rt" },
			{ NULL, "without being preempted (preemption model unknown" },
			{ "bogus", "without being preempted (preemption model unknown" },
		};

		for (i = 0; i < sizeof(why) / sizeof(why[0]); i++) {
			rtm_analyze(ev, n, (int)jget(doc, "cpu"), jget(doc, "planned_ns"),
				    jget(doc, "woke_ns"), "rtm-probe/0", why[i].model, &a);
			ok(strstr(a.verdict, why[i].says) != NULL, "model %s: \"%s\"",
			   why[i].model ? why[i].model : "(none given)", why[i].says);
		}
		free(ev);
		json_decref(doc);
	}

	/* --- no events at all */
	rtm_analyze(NULL, 0, 3, 1000000, 1500000, "rtm-probe/3", "full", &a);
	ok(a.latency_ns == 500000 && a.unexplained_ns == 500000 && a.largest_gap_ns == 500000,
	   "an empty window: all 500 us unexplained");

	/* --- bad spike JSON */
	{
		struct rtm_error err = { "" };
		json_t *bad = json_loads("[{\"ts_ns\": 1}]", 0, NULL);

		ok(rtm_events_from_json(bad, &ev, &n, &err) < 0 && one_line(err.msg),
		   "an event without names is rejected: %s", err.msg);
		json_decref(bad);
		bad = json_loads("{}", 0, NULL);
		ok(rtm_events_from_json(bad, &ev, &n, &err) < 0, "not an array is rejected");
		json_decref(bad);
	}
	return tap_done();
}
