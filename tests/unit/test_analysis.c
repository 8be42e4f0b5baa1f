// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: spike analysis on recorded event windows (tests/data/spikes, see
 * its README): this VM (a FIFO 99 injection, a vCPU stall) and Debian's 6.1
 * stock and PREEMPT_RT kernels under qemu (a higher-priority RT thread, a
 * threaded and a hard device IRQ, the TIMER softirq in irq exit/ksoftirqd and
 * in ktimers, a SCHED_OTHER task in a non-preemptible section, interrupts off,
 * a vCPU stall). Each window is loaded back from its spike JSON and analysed
 * again; the verdict's numbers are checked against what the events show,
 * recomputed here from the events themselves.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "capture.h"
#include "units.h"
#include "../tap.h"

#define SLACK_NS 5000

struct spike_case {
	const char *file;
	const char *task;		/* who held the CPU after the wake-up (tasks[0]) */
	int task_prio;			/* its kernel prio (99 - RT priority, 120 + nice) */
	const char *irq;		/* the interrupt or softirq that explains most */
	double share;			/* the cause's part of the latency, at least */
	bool unexplained;		/* the spike is time no event explains */
	const char *running;		/* the task on the CPU at the planned wake-up */
	const char *says[3];		/* in the verdict */
	const char *model;		/* the recording kernel's preemption model */
	const char *held;		/* a lower-priority task the kernel could not preempt */
};

static const struct spike_case cases[] = {
	{ "inject-5ms-vm-6.18.json", "rtm-inject", 0, NULL, 0.9, false, NULL,
	  { "rtm-inject", "RT priority 99", "CPU0 woke" }, "none", NULL },
	{ "vm-stall-6.18.json", NULL, -1, NULL, 0.9, true, NULL,
	  { "unexplained", "hypervisor", NULL }, "none", NULL },
	{ "inject-rt-6.1.json", "rtm-inject", 0, NULL, 0.8, false, NULL,
	  { "rtm-inject", "RT priority 99", NULL }, "rt", NULL },
	/* PREEMPT_RT: the device IRQ's handler runs in its thread at FIFO 50 */
	{ "irq-thread-rt-6.1.json", "irq/3-ttyS1", 49, NULL, 0.8, false, NULL,
	  { "irq/3-ttyS1", "RT priority 50", "IRQ 3 (ttyS1)" }, "rt", NULL },
	/* stock: the same device's handler in hard IRQ context */
	{ "irq-stock-6.1.json", NULL, -1, "IRQ 3 (ttyS1)", 0.8, false, NULL,
	  { "IRQ 3 (ttyS1)", NULL, NULL }, "voluntary", NULL },
	{ "softirq-stock-6.1.json", NULL, -1, "softirq TIMER", 0.8, false, NULL,
	  { "softirq TIMER", NULL, NULL }, "voluntary", NULL },
	/* PREEMPT_RT: timer softirqs run in ktimers/N at FIFO 1, the probe's priority */
	{ "softirq-rt-6.1.json", "ktimers/0", 98, "softirq TIMER", 0.5, false, NULL,
	  { "ktimers/0", "RT priority 1", "softirq TIMER" }, "rt", NULL },
	/* preempt=none: epoll_wait() over 10000 ready fds has no preemption point */
	{ "nonpreempt-stock-6.1.json", "rtm-epoll", 120, NULL, 0.8, false, NULL,
	  { "rtm-epoll", "SCHED_OTHER nice 0", NULL }, "none", "rtm-epoll" },
	/* printk on the serial console: interrupts off, no event */
	{ "irqoff-stock-6.1.json", NULL, -1, NULL, 0.8, true, "rtm-kmsg",
	  { "unexplained", "interrupts off", NULL }, "voluntary", "rtm-kmsg" },
	{ "stall-rt-6.1.json", NULL, -1, NULL, 0.8, true, "swapper/0",
	  { "unexplained", NULL, NULL }, "rt", NULL },
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

static uint64_t clampu(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* What the events say, worked out here independently of lib/analysis.c. */
struct facts {
	bool woken;
	uint64_t t_timer, t_wake, t_switch;	/* clamped into [planned, woke] */
	char running[RTM_COMM_LEN];		/* on the CPU at the planned wake-up */
	uint64_t gap;				/* longest stretch without an event */
};

static void facts_of(const struct rtm_event *ev, size_t n, int cpu, uint64_t planned,
		     uint64_t woke, const char *probe, struct facts *f)
{
	uint64_t prev = planned, hr = 0, wake = 0, sw = 0;
	size_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < n; i++) {
		const struct rtm_event *e = &ev[i];

		if (e->cpu != cpu)
			continue;
		if (e->type == RTM_EV_SCHED_SWITCH && e->ts_ns <= planned)
			snprintf(f->running, sizeof(f->running), "%s", e->sw.next_comm);
		if (e->ts_ns >= planned && e->ts_ns <= woke) {
			if (e->ts_ns - prev > f->gap)
				f->gap = e->ts_ns - prev;
			prev = e->ts_ns;
		}
		if (e->ts_ns + SLACK_NS < planned)
			continue;
		if (!wake && e->type == RTM_EV_HRTIMER_ENTRY)
			hr = e->ts_ns;
		if (!wake && (e->type == RTM_EV_SCHED_WAKEUP || e->type == RTM_EV_SCHED_WAKING) &&
		    !strcmp(e->wakeup.comm, probe))
			wake = e->ts_ns;
		/* the probe's last switch-in before it read the clock */
		if (wake && e->type == RTM_EV_SCHED_SWITCH && !strcmp(e->sw.next_comm, probe) &&
		    e->ts_ns <= woke)
			sw = e->ts_ns;
	}
	if (woke - prev > f->gap)
		f->gap = woke - prev;
	f->woken = wake != 0;
	f->t_wake = clampu(wake ? wake : woke, planned, woke);
	f->t_timer = clampu(hr ? hr : f->t_wake, planned, woke);
	f->t_switch = clampu(sw ? sw : woke, f->t_wake, woke);
}

/* How long @comm was on the CPU within [from, to], from the sched_switch events. */
static uint64_t ran_ns(const struct rtm_event *ev, size_t n, int cpu, const char *comm,
		       uint64_t from, uint64_t to)
{
	const char *cur = NULL;
	uint64_t since = from, sum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct rtm_event *e = &ev[i];

		if (e->cpu != cpu || e->type != RTM_EV_SCHED_SWITCH)
			continue;
		if (e->ts_ns <= from) {
			cur = e->sw.next_comm;
			continue;
		}
		if (e->ts_ns >= to)
			break;
		if (cur && !strcmp(cur, comm))
			sum += e->ts_ns - since;
		cur = e->sw.next_comm;
		since = e->ts_ns;
	}
	if (cur && !strcmp(cur, comm))
		sum += to - since;
	return sum;
}

static bool is_handler(const struct rtm_event *e, const char *what, bool entry)
{
	char name[48];

	if (e->type == (entry ? RTM_EV_IRQ_ENTRY : RTM_EV_IRQ_EXIT)) {
		if (!entry)
			return !strncmp(what, "IRQ ", 4) && atoi(what + 4) == e->irq.irq;
		snprintf(name, sizeof(name), "IRQ %d (%s)", e->irq.irq, e->irq.name);
		return !strcmp(name, what);
	}
	if (e->type == (entry ? RTM_EV_SOFTIRQ_ENTRY : RTM_EV_SOFTIRQ_EXIT))
		return (!strcmp(what, "softirq TIMER") && e->softirq.vec == 1) ||
		       (!strcmp(what, "softirq NET_RX") && e->softirq.vec == 3);
	return false;
}

/*
 * Time inside handler @what within [from, to]; hard IRQs and vectors that
 * interrupted a softirq are not its time. @runs: how many runs had time there.
 */
static uint64_t handler_ns(const struct rtm_event *ev, size_t n, int cpu, const char *what,
			   uint64_t from, uint64_t to, int *runs)
{
	uint64_t start = 0, inner_start = 0, inner = 0, sum = 0;
	bool open = false;
	size_t i;

	*runs = 0;
	for (i = 0; i < n; i++) {
		const struct rtm_event *e = &ev[i];

		if (e->cpu != cpu)
			continue;
		if (is_handler(e, what, true)) {
			open = true;
			start = e->ts_ns;
			inner = 0;
		} else if (open && is_handler(e, what, false)) {
			uint64_t s = clampu(start, from, to), t = clampu(e->ts_ns, from, to);

			open = false;
			if (t > s + inner) {
				sum += t - s - inner;
				(*runs)++;
			}
		} else if (open && !strncmp(what, "softirq", 7) &&
			   (e->type == RTM_EV_IRQ_ENTRY || e->type == RTM_EV_VECTOR_ENTRY)) {
			inner_start = e->ts_ns;
		} else if (open && inner_start &&
			   (e->type == RTM_EV_IRQ_EXIT || e->type == RTM_EV_VECTOR_EXIT)) {
			uint64_t s = clampu(inner_start, from, to), t = clampu(e->ts_ns, from, to);

			inner += t - s;
			inner_start = 0;
		}
	}
	return sum;
}

static bool near(uint64_t got, uint64_t want, double rel)
{
	double d = (double)got - (double)want;

	return (d < 0 ? -d : d) <= rel * (double)want + 1000.0;
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
	struct facts f;
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
	facts_of(ev, n, cpu, planned, woke, probe, &f);
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
	if (f.woken) {
		is_u64(a.timer_delay_ns + a.wakeup_ns + a.sched_delay_ns + a.return_ns,
		       a.latency_ns, "timer + wake-up + scheduling + return = latency");
		is_u64(a.timer_delay_ns, f.t_timer - planned,
		       "timer delay = planned -> hrtimer_expire_entry in the events");
		is_u64(a.sched_delay_ns, f.t_switch - f.t_wake,
		       "scheduling delay = wake-up -> last switch to the probe in the events");
	} else {
		ok(!a.found_wakeup, "no wake-up of the probe in the events, none found");
	}
	if (c->task) {
		uint64_t ran = ran_ns(ev, n, cpu, c->task, f.t_wake, f.t_switch);

		ok(a.ntasks >= 1 && !strcmp(a.tasks[0].comm, c->task),
		   "the task that held the CPU: %s", a.ntasks ? a.tasks[0].comm : "none");
		if (a.ntasks >= 1) {
			is_int(a.tasks[0].prio, c->task_prio, "with its priority");
			ok(near(a.tasks[0].ran_ns, ran, 0.02),
			   "its run time %llu ns = %llu ns between the switches in the events",
			   (unsigned long long)a.tasks[0].ran_ns, (unsigned long long)ran);
			ok(a.tasks[0].ran_ns >= c->share * (double)a.latency_ns,
			   "and is at least %.0f%% of the latency", c->share * 100);
			ok(strstr(a.verdict, rtm_fmt_ns(t, sizeof(t), a.tasks[0].ran_ns)) != NULL,
			   "the verdict gives its run time (%s)", t);
		}
	}
	if (c->irq) {
		const struct rtm_analysis_irq *q = find_irq(&a, c->irq);
		int runs = 0;
		uint64_t in = handler_ns(ev, n, cpu, c->irq, planned, woke, &runs);

		ok(q != NULL, "%s is listed", c->irq);
		if (q) {
			ok(near(q->total_ns, in, 0.02),
			   "its time %llu ns = %llu ns between its entries and exits (%d runs)",
			   (unsigned long long)q->total_ns, (unsigned long long)in, runs);
			is_int(q->count, runs, "counted once per run");
			ok(q->total_ns >= c->share * (double)a.latency_ns,
			   "and is at least %.0f%% of the latency", c->share * 100);
			ok(strstr(a.verdict, rtm_fmt_ns(t, sizeof(t), q->total_ns)) != NULL,
			   "the verdict gives its time (%s)", t);
		}
	}
	if (c->unexplained) {
		ok(a.unexplained_ns >= c->share * (double)a.latency_ns,
		   "unexplained %llu ns is at least %.0f%% of the latency",
		   (unsigned long long)a.unexplained_ns, c->share * 100);
		is_u64(a.largest_gap_ns, f.gap, "longest stretch without events, as in the events");
		ok(a.largest_gap_ns * 10 >= a.unexplained_ns * 9,
		   "nearly all of it one stretch without events");
		ok(strstr(a.verdict, rtm_fmt_ns(t2, sizeof(t2), a.unexplained_ns)) != NULL,
		   "the verdict gives the unexplained time (%s)", t2);
	} else {
		ok(a.unexplained_ns * 10 < a.latency_ns,
		   "little unexplained (%llu ns)", (unsigned long long)a.unexplained_ns);
	}
	if (c->running)
		is_str(f.running, c->running, "on the CPU when the wake-up was due");
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
