// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * charged.c - on-CPU intervals of every task from sched_switch, and the
 * interrupt handler time that fell inside them.
 *
 * irqacct pairs the handler entries and exits and tells each handler run, as it
 * closes, to span(); this file keeps, per CPU, which task runs since when, so
 * a handler run is charged to the task that was on the CPU when it began.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "irq/charged.h"
#include "irq/handlers.h"
#include "core/jsonutil.h"

/* A CPU's running task. */
struct cpu_run {
	bool known;			/* after the CPU's first sched_switch */
	int cur;			/* task index */
	uint64_t since_ns;
};

struct rtm_cpuacct {
	int ncpus;
	struct rtm_irqacct *irq;
	struct cpu_run *run;
	struct rtm_cpuacct_cpu *cpus;
	struct rtm_cpuacct_task *tasks;
	int ntasks;
	size_t cap;
	int *hash;			/* open addressing on tid: task index + 1, 0 empty */
	int hcap;
	uint64_t on_ns, begin_ns, end_ns;
	const struct rtm_task_snap *first, *last;
};

static void span(const struct rtm_irqspan *sp, void *ctx);

struct rtm_cpuacct *rtm_cpuacct_alloc(int ncpus)
{
	struct rtm_cpuacct *a;

	if (ncpus <= 0)
		return NULL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->ncpus = ncpus;
	a->irq = rtm_irqacct_alloc(ncpus);
	a->run = calloc((size_t)ncpus, sizeof(*a->run));
	a->cpus = calloc((size_t)ncpus, sizeof(*a->cpus));
	a->end_ns = UINT64_MAX;
	if (!a->irq || !a->run || !a->cpus) {
		rtm_cpuacct_free(a);
		return NULL;
	}
	rtm_irqacct_set_span_cb(a->irq, span, a);
	return a;
}

void rtm_cpuacct_free(struct rtm_cpuacct *a)
{
	int i;

	if (!a)
		return;
	for (i = 0; i < a->ntasks; i++)
		free(a->tasks[i].cpu);
	free(a->tasks);
	free(a->hash);
	free(a->cpus);
	free(a->run);
	rtm_irqacct_free(a->irq);
	free(a);
}

void rtm_cpuacct_trace_on(struct rtm_cpuacct *a, uint64_t on_ns)
{
	a->on_ns = on_ns;
}

int rtm_cpuacct_window(struct rtm_cpuacct *a, uint64_t begin_ns, uint64_t end_ns,
		       const struct rtm_task_snap *first, const struct rtm_task_snap *last)
{
	if (end_ns < begin_ns)
		return -EINVAL;
	a->begin_ns = begin_ns;
	a->end_ns = end_ns;
	a->first = first;
	a->last = last;
	return 0;
}

static unsigned int hash_of(int tid, int hcap)
{
	return ((unsigned int)tid * 2654435761u) & (unsigned int)(hcap - 1);
}

static int grow_hash(struct rtm_cpuacct *a)
{
	int hcap = a->hcap ? a->hcap * 2 : 256, i;
	int *h = calloc((size_t)hcap, sizeof(*h));

	if (!h)
		return -ENOMEM;
	for (i = 0; i < a->ntasks; i++) {
		unsigned int k = hash_of(a->tasks[i].tid, hcap);

		while (h[k])
			k = (k + 1) & (unsigned int)(hcap - 1);
		h[k] = i + 1;
	}
	free(a->hash);
	a->hash = h;
	a->hcap = hcap;
	return 0;
}

/* The task of @tid (the idle tasks of all CPUs are tid 0), made when new. */
static int task_of(struct rtm_cpuacct *a, int tid, const char *comm)
{
	struct rtm_cpuacct_task *t;
	unsigned int k;

	if (tid < 0)
		return -EINVAL;
	if (a->hcap) {
		unsigned int mask = (unsigned int)(a->hcap - 1);

		for (k = hash_of(tid, a->hcap); a->hash[k]; k = (k + 1) & mask)
			if (a->tasks[a->hash[k] - 1].tid == tid) {
				t = &a->tasks[a->hash[k] - 1];
				if (comm && comm[0] && tid)
					snprintf(t->comm, sizeof(t->comm), "%.15s", comm);
				return a->hash[k] - 1;
			}
	}
	if (2 * (a->ntasks + 1) > a->hcap && grow_hash(a))
		return -ENOMEM;
	t = rtm_grow(a->tasks, &a->cap, (size_t)a->ntasks, sizeof(*t), 64);
	if (!t)
		return -ENOMEM;
	a->tasks = t;
	t = &a->tasks[a->ntasks];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	snprintf(t->comm, sizeof(t->comm), "%.15s", tid ? (comm ? comm : "") : "<idle>");
	t->cpu = calloc((size_t)a->ncpus, sizeof(*t->cpu));
	if (!t->cpu)
		return -ENOMEM;
	for (k = hash_of(tid, a->hcap); a->hash[k]; k = (k + 1) & (unsigned int)(a->hcap - 1))
		;
	a->hash[k] = a->ntasks + 1;
	return a->ntasks++;
}

/* The span a task's figures count: from its first read to its last, within the window. */
static void task_window(const struct rtm_cpuacct *a, int tid, uint64_t *from, uint64_t *to)
{
	const struct rtm_task_stat *s;

	*from = a->begin_ns;
	*to = a->end_ns;
	if (!tid)
		return;
	s = rtm_task_snap_find(a->first, tid);
	if (s && s->read_ns > *from)
		*from = s->read_ns;
	s = rtm_task_snap_find(a->last, tid);
	if (s && s->read_ns < *to)
		*to = s->read_ns;
}

static uint64_t overlap(uint64_t s, uint64_t e, uint64_t from, uint64_t to)
{
	if (s < from)
		s = from;
	if (e > to)
		e = to;
	return e > s ? e - s : 0;
}

/* Task @ti ran on @cpu from @s to @e. */
static void ran(struct rtm_cpuacct *a, int cpu, int ti, uint64_t s, uint64_t e)
{
	struct rtm_cpuacct_task *t = &a->tasks[ti];
	uint64_t from, to;

	task_window(a, t->tid, &from, &to);
	t->cpu[cpu].ran_ns += overlap(s, e, from, to);
	if (t->tid)
		a->cpus[cpu].tasks.ran_ns += overlap(s, e, a->begin_ns, a->end_ns);
	else
		a->cpus[cpu].idle.ran_ns += overlap(s, e, a->begin_ns, a->end_ns);
}

static void add_handler(struct rtm_cpuacct_share *sh, enum rtm_irqsrc_kind kind, uint64_t ns)
{
	switch (kind) {
	case RTM_IRQSRC_IRQ:
	case RTM_IRQSRC_VECTOR:
		sh->hardirq_ns += ns;
		sh->hardirqs++;
		break;
	case RTM_IRQSRC_SOFTIRQ:
		sh->softirq_ns += ns;
		sh->softirqs++;
		break;
	case RTM_IRQSRC_NMI:
		sh->nmi_ns += ns;
		break;
	case RTM_IRQSRC_THREAD:
		break;
	}
}

/* A handler run closed (irqacct): charge it to the task on the CPU when it began. */
static void span(const struct rtm_irqspan *sp, void *ctx)
{
	struct rtm_cpuacct *a = ctx;
	struct cpu_run *r = &a->run[sp->cpu];
	struct rtm_cpuacct_task *t;
	bool in_window = sp->start_ns >= a->begin_ns && sp->start_ns < a->end_ns;
	uint64_t from, to;

	if (sp->kind == RTM_IRQSRC_THREAD)
		return;
	if (!r->known) {
		if (in_window)
			a->cpus[sp->cpu].unattributed_ns += sp->own_ns;
		return;
	}
	t = &a->tasks[r->cur];
	if (sp->start_ns < r->since_ns)
		t->spanning++;	/* a softirq preempted in a thread (PREEMPT_RT) */
	task_window(a, t->tid, &from, &to);
	if (sp->start_ns >= from && sp->start_ns < to)
		add_handler(&t->cpu[sp->cpu], sp->kind, sp->own_ns);
	if (in_window)
		add_handler(t->tid ? &a->cpus[sp->cpu].tasks : &a->cpus[sp->cpu].idle, sp->kind,
			    sp->own_ns);
}

static int on_switch(struct rtm_cpuacct *a, const struct rtm_event *ev)
{
	struct cpu_run *r = &a->run[ev->cpu];
	int prev, next;

	if (r->known) {
		ran(a, ev->cpu, r->cur, r->since_ns, ev->ts_ns);
	} else if (ev->ts_ns > a->on_ns) {
		/* the first switch: what it switches out ran since tracing was on */
		prev = task_of(a, ev->sw.prev_pid, ev->sw.prev_comm);
		if (prev < 0)
			return prev;
		ran(a, ev->cpu, prev, a->on_ns, ev->ts_ns);
	}
	next = task_of(a, ev->sw.next_pid, ev->sw.next_comm);
	if (next < 0)
		return next;
	a->cpus[ev->cpu].known = true;
	r->known = true;
	r->cur = next;
	r->since_ns = ev->ts_ns;
	return 0;
}

int rtm_cpuacct_event(const struct rtm_event *ev, void *ctx)
{
	struct rtm_cpuacct *a = ctx;
	int ret;

	if (ev->cpu < 0 || ev->cpu >= a->ncpus)
		return 0;
	ret = rtm_irqacct_event(ev, a->irq);	/* handler runs come back through span() */
	if (ret)
		return ret;
	return ev->type == RTM_EV_SCHED_SWITCH ? on_switch(a, ev) : 0;
}

void rtm_cpuacct_finish(struct rtm_cpuacct *a, uint64_t off_ns)
{
	int c, i;

	for (c = 0; c < a->ncpus; c++) {
		if (!a->run[c].known)
			continue;
		ran(a, c, a->run[c].cur, a->run[c].since_ns, off_ns);
		a->run[c].since_ns = off_ns;
	}
	for (i = 0; i < a->ntasks; i++)
		task_window(a, a->tasks[i].tid, &a->tasks[i].win_start_ns,
			    &a->tasks[i].win_end_ns);
}

int rtm_cpuacct_ncpus(const struct rtm_cpuacct *a)
{
	return a->ncpus;
}

const struct rtm_cpuacct_task *rtm_cpuacct_tasks(const struct rtm_cpuacct *a, int *n)
{
	*n = a->ntasks;
	return a->tasks;
}

const struct rtm_cpuacct_cpu *rtm_cpuacct_cpu(const struct rtm_cpuacct *a, int cpu)
{
	return cpu >= 0 && cpu < a->ncpus ? &a->cpus[cpu] : NULL;
}

static void share_add(struct rtm_cpuacct_share *to, const struct rtm_cpuacct_share *x)
{
	to->ran_ns += x->ran_ns;
	to->hardirq_ns += x->hardirq_ns;
	to->softirq_ns += x->softirq_ns;
	to->nmi_ns += x->nmi_ns;
	to->hardirqs += x->hardirqs;
	to->softirqs += x->softirqs;
}

void rtm_cpuacct_task_total(const struct rtm_cpuacct *a, const struct rtm_cpuacct_task *t,
			    const struct rtm_cpulist *cpus, struct rtm_cpuacct_share *out)
{
	int c;

	memset(out, 0, sizeof(*out));
	for (c = 0; c < a->ncpus; c++)
		if (!cpus || rtm_cpulist_has(cpus, c))
			share_add(out, &t->cpu[c]);
}

const struct rtm_irqacct *rtm_cpuacct_irqacct(const struct rtm_cpuacct *a)
{
	return a->irq;
}

/* ------------------------------------------------------------ the table */

static bool is_irq_thread(const char *comm)
{
	return !strncmp(comm, "irq/", 4) || !strncmp(comm, "ksoftirqd/", 10) ||
	       !strncmp(comm, "ktimers/", 8);
}

static int row_cmp(const void *x, const void *y)
{
	const struct rtm_cpuacct_row *a = x, *b = y;

	if (a->total.ran_ns != b->total.ran_ns)
		return a->total.ran_ns < b->total.ran_ns ? 1 : -1;
	return (a->task->tid > b->task->tid) - (a->task->tid < b->task->tid);
}

static int fill_row(const struct rtm_cpuacct *a, const struct rtm_cpuacct_task *t, int user_hz,
		    struct rtm_cpuacct_row *r)
{
	const struct rtm_task_stat *f = rtm_task_snap_find(a->first, t->tid);
	const struct rtm_task_stat *l = rtm_task_snap_find(a->last, t->tid);
	uint64_t ticks0 = 0, sched0 = 0;
	int c;

	memset(r, 0, sizeof(*r));
	r->task = t;
	r->first = f;
	r->last = l;
	r->pid = l ? l->pid : f ? f->pid : -1;
	r->irq_thread = is_irq_thread(t->comm);
	rtm_cpuacct_task_total(a, t, NULL, &r->total);
	r->read_spread_ns = (f ? f->read_end_ns - f->read_ns : 0) +
			    (l ? l->read_end_ns - l->read_ns : 0);
	if (l) {
		/* not in the first read: it began inside the window, from zero */
		if (f) {
			ticks0 = f->utime_ticks + f->stime_ticks;
			sched0 = f->sum_exec_ns;
		}
		r->has_charged = l->utime_ticks + l->stime_ticks >= ticks0;
		r->charged_stat_ns = (l->utime_ticks + l->stime_ticks - ticks0) *
				     (1000000000ULL / (uint64_t)user_hz);
		r->has_schedstat = l->has_schedstat && (!f || f->has_schedstat) &&
				   l->sum_exec_ns >= sched0;
		r->charged_sched_ns = r->has_schedstat ? l->sum_exec_ns - sched0 : 0;
	}
	r->ran_on.cpus = malloc((size_t)a->ncpus * sizeof(int));
	if (!r->ran_on.cpus)
		return -ENOMEM;
	for (c = 0; c < a->ncpus; c++)
		if (t->cpu[c].ran_ns)
			r->ran_on.cpus[r->ran_on.n++] = c;
	return 0;
}

int rtm_cpuacct_rows(const struct rtm_cpuacct *a, const struct rtm_cpulist *cpus, int user_hz,
		     struct rtm_cpuacct_row **rows)
{
	struct rtm_cpuacct_row *r;
	int i, n = 0, c;

	*rows = NULL;
	if (user_hz <= 0)
		return -EINVAL;
	r = calloc((size_t)a->ntasks + 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (i = 0; i < a->ntasks; i++) {
		const struct rtm_cpuacct_task *t = &a->tasks[i];
		bool shown = false;

		if (!t->tid)
			continue;	/* idle: in the per-CPU figures */
		for (c = 0; c < a->ncpus; c++)
			if (t->cpu[c].ran_ns && (!cpus || rtm_cpulist_has(cpus, c)))
				shown = true;
		if (!shown && is_irq_thread(t->comm)) {
			struct rtm_cpuacct_share tot;

			rtm_cpuacct_task_total(a, t, NULL, &tot);
			shown = tot.ran_ns > 0;		/* IRQ threads wherever they ran */
		}
		if (!shown)
			continue;
		if (fill_row(a, t, user_hz, &r[n])) {
			rtm_cpuacct_rows_free(r, n + 1);
			return -ENOMEM;
		}
		n++;
	}
	qsort(r, (size_t)n, sizeof(*r), row_cmp);
	*rows = r;
	return n;
}

void rtm_cpuacct_rows_free(struct rtm_cpuacct_row *rows, int n)
{
	int i;

	if (!rows)
		return;
	for (i = 0; i < n; i++)
		free(rows[i].ran_on.cpus);
	free(rows);
}

static json_t *share_json(const struct rtm_cpuacct_share *s)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "ran_ns", rtm_json_u64(s->ran_ns),
			 "interrupt_ns", rtm_json_u64(s->hardirq_ns + s->softirq_ns),
			 "hardirq_ns", rtm_json_u64(s->hardirq_ns),
			 "softirq_ns", rtm_json_u64(s->softirq_ns),
			 "nmi_ns", rtm_json_u64(s->nmi_ns),
			 "hardirqs", rtm_json_u64(s->hardirqs),
			 "softirqs", rtm_json_u64(s->softirqs));
}

static json_t *stat_json(const struct rtm_irq_snap *stat, int cpu, int user_hz)
{
	int i;

	for (i = 0; stat && stat->has_stat && i < stat->nstat_cpus; i++) {
		const struct rtm_irq_cpu_ticks *t = &stat->stat_cpus[i];
		uint64_t tick = 1000000000ULL / (uint64_t)user_hz;

		if (t->cpu == cpu)
			return json_pack("{s:o, s:o, s:o}", "irq_ns", rtm_json_u64(t->irq * tick),
					 "softirq_ns", rtm_json_u64(t->softirq * tick),
					 "steal_ns", rtm_json_u64(t->steal * tick));
	}
	return json_null();
}

json_t *rtm_cpuacct_to_json(const struct rtm_cpuacct *a, const struct rtm_cpuacct_row *rows,
			    int n, const struct rtm_cpulist *cpus, const struct rtm_irq_snap *stat,
			    int user_hz)
{
	json_t *jc = json_array(), *jt = json_array();
	uint64_t window_ns;
	char pol[32];
	int c, i;

	for (c = 0; c < a->ncpus; c++) {
		const struct rtm_cpuacct_cpu *x = &a->cpus[c];

		if (cpus && !rtm_cpulist_has(cpus, c))
			continue;
		json_array_append_new(jc, json_pack("{s:i, s:b, s:o, s:o, s:o, s:o}", "cpu", c,
			"known", x->known, "tasks", share_json(&x->tasks), "idle",
			share_json(&x->idle), "unattributed_ns", rtm_json_u64(x->unattributed_ns),
			"proc_stat", stat_json(stat, c, user_hz)));
	}
	for (i = 0; i < n; i++) {
		const struct rtm_cpuacct_row *r = &rows[i];
		const struct rtm_task_stat *s = r->last ? r->last : r->first;
		json_t *per = json_array(), *o;

		for (c = 0; c < r->ran_on.n; c++) {
			o = share_json(&r->task->cpu[r->ran_on.cpus[c]]);
			json_object_set_new(o, "cpu", json_integer(r->ran_on.cpus[c]));
			json_array_append_new(per, o);
		}
		o = share_json(&r->total);
		json_object_update_new(o, json_pack("{s:i, s:i, s:o, s:o, s:o, s:b, s:o, s:o, "
			"s:b, s:I, s:I, s:I, s:o}", "tid", r->task->tid, "pid", r->pid,
			"comm", rtm_json_text(r->task->comm),
			"policy", s ? json_string(rtm_kpolicy_name(s->kpolicy, pol, sizeof(pol))) :
			json_null(), "rt_priority", s ? json_integer(s->rt_priority) : json_null(),
			"irq_thread", r->irq_thread,
			"charged_stat_ns", r->has_charged ? rtm_json_u64(r->charged_stat_ns) :
			json_null(), "charged_schedstat_ns", r->has_schedstat ?
			rtm_json_u64(r->charged_sched_ns) : json_null(),
			"began_in_window", r->last && !r->first,
			"window_start_ns", (json_int_t)r->task->win_start_ns,
			"window_end_ns", (json_int_t)r->task->win_end_ns,
			"read_spread_ns", (json_int_t)r->read_spread_ns,
			"per_cpu", per));
		json_array_append_new(jt, o);
	}
	window_ns = a->end_ns > a->begin_ns && a->end_ns != UINT64_MAX ?
		    a->end_ns - a->begin_ns : 0;
	return json_pack("{s:o, s:o, s:o, s:o, s:o}",
			 "window_ns", rtm_json_u64(window_ns),
			 "unpaired_handlers", rtm_json_u64(rtm_irqacct_unpaired(a->irq)),
			 "cpus", jc, "tasks", jt,
			 "handlers", rtm_irqacct_to_json(a->irq));
}
