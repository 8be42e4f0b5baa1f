// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analysis.c - explain one latency spike from the events around it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analysis.h"
#include "irq/handlers.h"
#include "core/jsonutil.h"
#include "core/task.h"
#include "core/units.h"

#define NONE ((size_t)-1)
/* the trace clock and the probe's clock read can differ by a few microseconds */
#define SLACK_NS 5000
/* a lower-priority task running this long after the probe's wake-up was not preempted */
#define HELD_MIN_NS 50000

static uint64_t clampu(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void add_task(struct rtm_analysis *a, const char *comm, int pid, int prio, uint64_t ns)
{
	int i;

	if (!ns || pid == 0)
		return;		/* idle is not a task that delays anybody */
	for (i = 0; i < a->ntasks; i++) {
		if (a->tasks[i].pid == pid) {
			a->tasks[i].ran_ns += ns;
			return;
		}
	}
	if (a->ntasks == RTM_ANALYSIS_MAX_ITEMS)
		return;
	snprintf(a->tasks[a->ntasks].comm, sizeof(a->tasks[0].comm), "%s", comm);
	a->tasks[a->ntasks].pid = pid;
	a->tasks[a->ntasks].prio = prio;
	a->tasks[a->ntasks].ran_ns = ns;
	a->ntasks++;
}

static void add_irq(struct rtm_analysis *a, const char *what, uint64_t ns)
{
	int i;

	for (i = 0; i < a->nirqs; i++) {
		if (!strcmp(a->irqs[i].what, what)) {
			a->irqs[i].count++;
			a->irqs[i].total_ns += ns;
			return;
		}
	}
	if (a->nirqs == RTM_ANALYSIS_MAX_ITEMS)
		return;
	snprintf(a->irqs[a->nirqs].what, sizeof(a->irqs[0].what), "%s", what);
	a->irqs[a->nirqs].count = 1;
	a->irqs[a->nirqs].total_ns = ns;
	a->nirqs++;
}

/*
 * Close the handler opened by *@open (an entry event) at @exit_ts: account its
 * part inside [from, to], less @nested_ns of other handlers that interrupted it,
 * and return it.
 */
static uint64_t close_span(struct rtm_analysis *a, const struct rtm_event **open,
			   uint64_t exit_ts, uint64_t from, uint64_t to, uint64_t nested_ns)
{
	const struct rtm_event *e = *open;
	uint64_t s, t;
	char what[48];

	*open = NULL;
	if (!e)
		return 0;
	s = clampu(e->ts_ns, from, to);
	t = clampu(exit_ts, from, to);
	if (t <= s + nested_ns)
		return 0;
	t -= nested_ns;
	if (a) {
		if (e->type == RTM_EV_IRQ_ENTRY)
			snprintf(what, sizeof(what), "IRQ %d (%s)", e->irq.irq, e->irq.name);
		else if (e->type == RTM_EV_SOFTIRQ_ENTRY)
			snprintf(what, sizeof(what), "softirq %s", rtm_softirq_name(e->softirq.vec));
		else	/* irq_vectors: "local_timer_entry" -> "local_timer" */
			snprintf(what, sizeof(what), "%.*s", (int)strlen(e->name) - 6, e->name);
		add_irq(a, what, t - s);
	}
	return t - s;
}

/*
 * Pair entries with exits on the CPU and account what falls in [from, to]:
 * listed in @a when it is given; the total time is returned either way, with
 * the softirqs' or without (@softirqs). Softirqs run with interrupts on: the
 * hard IRQs and vectors that interrupt one are counted for themselves and not
 * again in the softirq's time.
 */
static uint64_t account_irqs(struct rtm_analysis *a, const struct rtm_event *ev, size_t n,
			     int cpu, uint64_t from, uint64_t to, bool softirqs)
{
	const struct rtm_event *irq = NULL, *vec = NULL, *soft = NULL;
	uint64_t total = 0, nested = 0, d;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct rtm_event *e = &ev[i];

		if (e->cpu != cpu)
			continue;
		switch (e->type) {
		case RTM_EV_IRQ_ENTRY:
			irq = e;
			break;
		case RTM_EV_VECTOR_ENTRY:
			vec = e;
			break;
		case RTM_EV_SOFTIRQ_ENTRY:
			soft = e;
			nested = 0;
			break;
		case RTM_EV_IRQ_EXIT:
		case RTM_EV_VECTOR_EXIT:
			d = close_span(a, e->type == RTM_EV_IRQ_EXIT ? &irq : &vec, e->ts_ns, from,
				       to, 0);
			total += d;
			if (soft)
				nested += d;
			break;
		case RTM_EV_SOFTIRQ_EXIT:
			d = close_span(a, &soft, e->ts_ns, from, to, nested);
			total += softirqs ? d : 0;
			nested = 0;
			break;
		default:
			break;
		}
	}
	return total;
}

/* Who ran on the CPU during [from, to], from the sched_switch events. */
static void account_tasks(struct rtm_analysis *a, const struct rtm_event *ev, size_t n, int cpu,
			  uint64_t from, uint64_t to, const char *probe)
{
	const struct rtm_event *cur = NULL;
	uint64_t since = from;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct rtm_event *e = &ev[i];

		if (e->cpu != cpu || e->type != RTM_EV_SCHED_SWITCH)
			continue;
		if (e->ts_ns <= from) {
			cur = e;	/* the task running when the window opens */
			continue;
		}
		if (e->ts_ns >= to)
			break;
		if (cur && strcmp(cur->sw.next_comm, probe))
			add_task(a, cur->sw.next_comm, cur->sw.next_pid, cur->sw.next_prio,
				 e->ts_ns - since);
		cur = e;
		since = e->ts_ns;
	}
	if (cur && strcmp(cur->sw.next_comm, probe) && to > since)
		add_task(a, cur->sw.next_comm, cur->sw.next_pid, cur->sw.next_prio, to - since);
}

static void policy_text(int prio, char *buf, size_t len)
{
	if (prio < 0)
		snprintf(buf, len, "SCHED_DEADLINE");
	else if (prio < 100)
		snprintf(buf, len, "RT priority %d", rtm_task_user_prio(prio));
	else
		snprintf(buf, len, "SCHED_OTHER nice %d", prio - 120);
}

/* Why a task of lower priority than the woken probe kept the CPU, by model. */
static void held_reason(const char *model, const char **where, const char **why)
{
	if (!strcmp(model, "none") || !strcmp(model, "voluntary")) {
		*where = "in kernel code without a preemption point";
		*why = "kernel code gives the CPU up only where it checks for it";
	} else if (!strcmp(model, "full") || !strcmp(model, "lazy")) {
		*where = "in a non-preemptible section";
		*why = "preemption or interrupts disabled, e.g. under a spinlock";
	} else if (!strcmp(model, "rt")) {
		*where = "in a non-preemptible section";
		*why = "raw spinlock, preempt_disable or interrupts disabled";
	} else {
		*where = "without being preempted";
		*why = "kernel code that could not be preempted";
	}
}

static void verdict(struct rtm_analysis *a)
{
	char *v = a->verdict, t1[16], t2[16], pol[32];
	size_t len = sizeof(a->verdict), off;
	int i, shown;

#define PUT(...) do { off = strlen(v); snprintf(v + off, len - off, __VA_ARGS__); } while (0)
	v[0] = '\0';
	PUT("CPU%d woke %s late: ", a->cpu, rtm_fmt_ns(t1, sizeof(t1), a->latency_ns));
	if (!a->found_wakeup) {
		PUT("no wake-up of the probe in the trace (it was not asleep when its time came: "
		    "held up before its sleep, or the vCPU was stopped); longest stretch without "
		    "any event %s, unexplained %s (hardware, hypervisor or untraced kernel code)",
		    rtm_fmt_ns(t1, sizeof(t1), a->largest_gap_ns),
		    rtm_fmt_ns(t2, sizeof(t2), a->unexplained_ns));
	} else {
		PUT("timer IRQ %s late", rtm_fmt_ns(t1, sizeof(t1), a->timer_delay_ns));
		if (a->unexplained_ns >= 10000)
			PUT(" (%s unexplained: interrupts off, hardware, hypervisor or untraced "
			    "kernel code)", rtm_fmt_ns(t2, sizeof(t2), a->unexplained_ns));
		if (a->found_switch && a->sched_delay_ns >= 1000) {
			PUT("; then %s until the probe ran",
			    rtm_fmt_ns(t1, sizeof(t1), a->sched_delay_ns));
			for (i = 0, shown = 0; i < a->ntasks && shown < 3; i++, shown++) {
				policy_text(a->tasks[i].prio, pol, sizeof(pol));
				if (a->tasks[i].own)	/* the measuring process: said so */
					PUT("%s %s (%s, pid %d, %s) ran %s",
					    shown ? "," : ", while", a->own_name, a->tasks[i].comm,
					    a->tasks[i].pid, pol,
					    rtm_fmt_ns(t1, sizeof(t1), a->tasks[i].ran_ns));
				else
					PUT("%s %s (pid %d, %s) ran %s", shown ? "," : ", while",
					    a->tasks[i].comm, a->tasks[i].pid, pol,
					    rtm_fmt_ns(t1, sizeof(t1), a->tasks[i].ran_ns));
				if (i == a->held_by) {
					const char *where, *why;

					held_reason(a->preempt_model, &where, &why);
					PUT(" %s (preemption model %s: %s)", where,
					    a->preempt_model, why);
				}
			}
		} else if (!a->found_switch) {
			PUT("; the switch to the probe is not in the trace");
		}
	}
	for (i = 0, shown = 0; i < a->nirqs && shown < 3; i++) {
		if (a->irqs[i].total_ns < 1000)
			continue;
		PUT("; %s %s%s", a->irqs[i].what, rtm_fmt_ns(t1, sizeof(t1), a->irqs[i].total_ns),
		    a->irqs[i].count > 1 ? " in total" : "");
		shown++;
	}
#undef PUT
}

static int cmp_task(const void *x, const void *y)
{
	const struct rtm_analysis_task *a = x, *b = y;

	return (a->ran_ns < b->ran_ns) - (a->ran_ns > b->ran_ns);
}

static int cmp_irq(const void *x, const void *y)
{
	const struct rtm_analysis_irq *a = x, *b = y;

	return (a->total_ns < b->total_ns) - (a->total_ns > b->total_ns);
}

static void set_model(struct rtm_analysis *a, const char *model)
{
	static const char *const models[] = { "none", "voluntary", "full", "lazy", "rt" };
	size_t i;

	snprintf(a->preempt_model, sizeof(a->preempt_model), "unknown");
	for (i = 0; model && i < sizeof(models) / sizeof(models[0]); i++)
		if (!strcmp(model, models[i]))
			snprintf(a->preempt_model, sizeof(a->preempt_model), "%s", models[i]);
}

/* The indexes in @ev of the spike's timer, wake-up and switch events, NONE when absent. */
struct spike_events {
	size_t timer, wakeup, sw;
};

static void find_events(const struct rtm_event *ev, size_t n, int cpu, uint64_t from,
			uint64_t woke_ns, const char *probe, struct spike_events *se)
{
	size_t i, it = NONE, iw = NONE, is = NONE;

	for (i = 0; i < n; i++) {
		const struct rtm_event *e = &ev[i];

		if (e->cpu != cpu || e->ts_ns < from)
			continue;
		if (iw == NONE && e->type == RTM_EV_HRTIMER_ENTRY)
			it = i;		/* the last timer before the probe's wake-up */
		if (iw == NONE && (e->type == RTM_EV_SCHED_WAKEUP ||
				   e->type == RTM_EV_SCHED_WAKING) && !strcmp(e->wakeup.comm, probe))
			iw = i;
		/*
		 * The last switch to the probe before it read the clock: it can be
		 * preempted (RT: by an IRQ thread) between the first one and the read.
		 */
		if (iw != NONE && e->type == RTM_EV_SCHED_SWITCH &&
		    !strcmp(e->sw.next_comm, probe)) {
			if (is == NONE || e->ts_ns <= woke_ns)
				is = i;
			if (e->ts_ns > woke_ns)
				break;
		}
	}
	se->timer = it;
	se->wakeup = iw;
	se->sw = is;
}

/* longest stretch without events, window edges included */
static uint64_t largest_gap(const struct rtm_event *ev, size_t n, int cpu, uint64_t planned_ns,
			    uint64_t woke_ns)
{
	uint64_t prev = planned_ns, gap = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (ev[i].cpu != cpu || ev[i].ts_ns < planned_ns || ev[i].ts_ns > woke_ns)
			continue;
		if (ev[i].ts_ns < prev)
			continue;	/* out of order (a corrupt spike file): no gap */
		if (ev[i].ts_ns - prev > gap)
			gap = ev[i].ts_ns - prev;
		prev = ev[i].ts_ns;
	}
	if (woke_ns - prev > gap)
		gap = woke_ns - prev;
	return gap;
}

/*
 * A task of lower priority than the woken probe (a higher kernel prio
 * number) that kept running on its own for a good part of the scheduling
 * delay was not preempted when the probe woke: the kernel could not, and
 * the model says why. Its own time leaves out the handlers that ran in
 * the delay; HELD_MIN_NS keeps the switch itself (the return from the
 * timer interrupt through schedule(), some microseconds) out of it.
 */
static void find_holder(struct rtm_analysis *a, const struct rtm_event *ev, size_t n, int cpu,
			uint64_t t_wake, uint64_t t_switch)
{
	uint64_t handlers = account_irqs(NULL, ev, n, cpu, t_wake, t_switch, true);
	size_t i;

	for (i = 0; i < (size_t)a->ntasks; i++) {
		const struct rtm_analysis_task *t = &a->tasks[i];
		uint64_t own = t->ran_ns > handlers ? t->ran_ns - handlers : 0;

		if (t->prio > a->probe_prio && own >= HELD_MIN_NS &&
		    own * 4 >= a->sched_delay_ns) {
			a->held_by = (int)i;
			break;
		}
	}
}

void rtm_analyze(const struct rtm_event *ev, size_t n, int cpu, uint64_t planned_ns,
		 uint64_t woke_ns, const char *probe, const char *model, struct rtm_analysis *a)
{
	uint64_t t_timer, t_wake, t_switch, from = planned_ns - SLACK_NS;
	struct spike_events se;

	memset(a, 0, sizeof(*a));
	a->cpu = cpu;
	a->probe_prio = -1;
	a->held_by = -1;
	set_model(a, model);
	a->latency_ns = woke_ns > planned_ns ? woke_ns - planned_ns : 0;
	if (woke_ns < planned_ns)
		woke_ns = planned_ns;	/* woke before its time (a corrupt spike file): no window */

	find_events(ev, n, cpu, from, woke_ns, probe, &se);
	a->found_wakeup = se.wakeup != NONE;
	a->found_timer = a->found_wakeup && se.timer != NONE && se.timer < se.wakeup;
	a->found_switch = se.sw != NONE;
	t_wake = a->found_wakeup ? clampu(ev[se.wakeup].ts_ns, planned_ns, woke_ns) : woke_ns;
	t_timer = a->found_timer ? clampu(ev[se.timer].ts_ns, planned_ns, woke_ns) : t_wake;
	t_switch = a->found_switch ? clampu(ev[se.sw].ts_ns, t_wake, woke_ns) : woke_ns;

	a->timer_delay_ns = t_timer - planned_ns;
	a->wakeup_ns = t_wake - t_timer;
	a->sched_delay_ns = a->found_wakeup ? t_switch - t_wake : 0;
	a->return_ns = a->found_switch ? woke_ns - t_switch : 0;

	a->irq_ns = account_irqs(a, ev, n, cpu, planned_ns, woke_ns, true);
	if (a->found_wakeup)
		account_tasks(a, ev, n, cpu, t_wake, t_switch, probe);
	else
		account_tasks(a, ev, n, cpu, planned_ns, woke_ns, probe);

	a->largest_gap_ns = largest_gap(ev, n, cpu, planned_ns, woke_ns);

	/*
	 * Unexplained: the timer's delay not covered by hard interrupt handlers
	 * (interrupts off, hardware, hypervisor; a softirq runs with interrupts on and
	 * does not hold the timer back), or, without a wake-up event, everything but
	 * the handlers.
	 */
	if (a->found_wakeup) {
		uint64_t before = account_irqs(NULL, ev, n, cpu, planned_ns, t_timer, false);

		a->unexplained_ns = a->timer_delay_ns > before ? a->timer_delay_ns - before : 0;
	} else
		a->unexplained_ns = a->latency_ns > a->irq_ns ? a->latency_ns - a->irq_ns : 0;

	qsort(a->tasks, (size_t)a->ntasks, sizeof(a->tasks[0]), cmp_task);
	qsort(a->irqs, (size_t)a->nirqs, sizeof(a->irqs[0]), cmp_irq);

	if (a->found_wakeup) {
		a->probe_prio = ev[se.wakeup].wakeup.prio;
		find_holder(a, ev, n, cpu, t_wake, t_switch);
	}
	verdict(a);
}

void rtm_analysis_own(struct rtm_analysis *a, const int *tids, int n, const char *name)
{
	int i, k;

	snprintf(a->own_name, sizeof(a->own_name), "%s", name);
	for (i = 0; i < a->ntasks; i++)
		for (k = 0; k < n; k++)
			if (a->tasks[i].pid == tids[k])
				a->tasks[i].own = true;
	verdict(a);
}

json_t *rtm_analysis_to_json(const struct rtm_analysis *a)
{
	json_t *tasks = json_array(), *irqs = json_array();
	int i;

	for (i = 0; i < a->ntasks; i++)
		json_array_append_new(tasks, json_pack("{s:o, s:i, s:i, s:I}", "comm",
			rtm_json_text(a->tasks[i].comm), "pid", a->tasks[i].pid, "prio", a->tasks[i].prio,
			"ran_ns", (json_int_t)a->tasks[i].ran_ns));
	for (i = 0; i < a->nirqs; i++)
		json_array_append_new(irqs, json_pack("{s:o, s:i, s:I}", "what",
			rtm_json_text(a->irqs[i].what),
			"count", (int)a->irqs[i].count, "total_ns", (json_int_t)a->irqs[i].total_ns));
	return json_pack("{s:i, s:I, s:b, s:b, s:b, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o,"
			 " s:o, s:s, s:i, s:o}",
		"cpu", a->cpu, "latency_ns", (json_int_t)a->latency_ns,
		"found_timer", a->found_timer, "found_wakeup", a->found_wakeup,
		"found_switch", a->found_switch,
		"timer_delay_ns", (json_int_t)a->timer_delay_ns,
		"wakeup_ns", (json_int_t)a->wakeup_ns,
		"sched_delay_ns", (json_int_t)a->sched_delay_ns,
		"return_ns", (json_int_t)a->return_ns, "irq_ns", (json_int_t)a->irq_ns,
		"unexplained_ns", (json_int_t)a->unexplained_ns,
		"largest_gap_ns", (json_int_t)a->largest_gap_ns,
		"tasks", tasks, "irqs", irqs, "verdict", rtm_json_text(a->verdict),
		"preempt_model", a->preempt_model, "probe_prio", a->probe_prio,
		"held_by", a->held_by >= 0 ? json_integer(a->tasks[a->held_by].pid) : json_null());
}
