// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * census.c - a cause and a culprit for every late wake-up: the per-CPU
 * intervals of the stream, matched with the probe's late wake-ups.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/census.h"
#include "trace/census_priv.h"
#include "core/grow.h"
#include "core/task.h"
#include "core/units.h"

const char *rtm_census_cause_name(enum rtm_census_cause c)
{
	static const char *const names[] = { "timer_late", "irq", "softirq", "nmi", "thread",
					     "wake_path", "untraced" };

	return (unsigned int)c < RTM_CENSUS_NCAUSES ? names[c] : NULL;
}

static void span_cb(const struct rtm_irqspan *sp, void *ctx);

struct rtm_census *rtm_census_alloc(int ncpus, uint64_t bound_ns, const char *proc_root)
{
	struct rtm_census *c;

	if (ncpus <= 0) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->ncpus = ncpus;
	c->bound_ns = bound_ns;
	c->cpu = calloc((size_t)ncpus, sizeof(*c->cpu));
	c->irq = rtm_irqacct_alloc(ncpus);
	c->proc_root = proc_root ? strdup(proc_root) : NULL;
	if (!c->cpu || !c->irq || (proc_root && !c->proc_root)) {
		rtm_census_free(c);
		errno = ENOMEM;
		return NULL;
	}
	rtm_irqacct_set_span_cb(c->irq, span_cb, c);
	return c;
}

void rtm_census_free(struct rtm_census *c)
{
	int i;

	if (!c)
		return;
	for (i = 0; c->cpu && i < c->ncpus; i++) {
		free(c->cpu[i].segs);
		free(c->cpu[i].exps);
		free(c->cpu[i].pend);
		free(c->cpu[i].steal);
	}
	free(c->cpu);
	rtm_irqacct_free(c->irq);
	free(c->proc_root);
	free(c->tids);
	free(c->own);
	free(c->tasks);
	free(c->task_slot);
	free(c->verdicts);
	free(c->tally);
	free(c);
}

int rtm_census_watch(struct rtm_census *c, int cpu)
{
	if (cpu < 0 || cpu >= c->ncpus)
		return -EINVAL;
	c->cpu[cpu].watched = true;
	return 0;
}

static bool followed(const struct rtm_census *c, int tid)
{
	size_t i;

	for (i = 0; i < c->ntids; i++)
		if (c->tids[i] == tid)
			return true;
	return false;
}

int rtm_census_follow(struct rtm_census *c, int tid)
{
	int *n;

	if (followed(c, tid))
		return 0;
	n = rtm_grow(c->tids, &c->tcap, c->ntids, sizeof(*n), 16);
	if (!n)
		return -ENOMEM;
	c->tids = n;
	c->tids[c->ntids++] = tid;
	return 0;
}

static bool own(const struct rtm_census *c, int tid)
{
	size_t i;

	for (i = 0; i < c->nown; i++)
		if (c->own[i] == tid)
			return true;
	return false;
}

int rtm_census_own(struct rtm_census *c, int tid, const char *name)
{
	int *n;

	rtm_strcopy(c->own_name, sizeof(c->own_name), name);
	if (own(c, tid))
		return 0;
	n = rtm_grow(c->own, &c->ocap, c->nown, sizeof(*n), 16);
	if (!n)
		return -ENOMEM;
	c->own = n;
	c->own[c->nown++] = tid;
	return 0;
}

void rtm_census_set_vm(struct rtm_census *c, bool vm)
{
	c->vm = vm;
}

void rtm_census_lost(struct rtm_census *c, uint64_t events)
{
	if (events > c->lost)
		c->lost = events;
}

void rtm_census_dropped(struct rtm_census *c, uint64_t n)
{
	if (n > c->dropped)
		c->dropped = n;
}

static struct cpu_state *watched(struct rtm_census *c, int cpu)
{
	return cpu >= 0 && cpu < c->ncpus && c->cpu[cpu].watched ? &c->cpu[cpu] : NULL;
}

/* ------------------------------------------------------------ the intervals */

static int push_seg(struct rtm_census *c, struct cpu_state *s, const struct seg *g)
{
	struct seg *n;

	if (s->nseg - s->seg0 >= CENSUS_MAX_SEGS) {
		c->seg_dropped++;
		return 0;
	}
	n = rtm_grow(s->segs, &s->segcap, s->nseg, sizeof(*n), 256);
	if (!n)
		return -ENOMEM;
	s->segs = n;
	if (s->nseg > s->seg0 && g->end < s->segs[s->nseg - 1].end)
		s->segs_unsorted = true;
	s->segs[s->nseg++] = *g;
	return 0;
}

static size_t task_hash(int pid, size_t mask)
{
	return ((uint32_t)pid * 2654435761u) & mask;
}

/* The slot of (@pid, @comm), or the empty slot where it goes. */
static uint32_t *task_find(struct rtm_census *c, int pid, const char *comm)
{
	size_t mask = c->nslots - 1, i = task_hash(pid, mask);

	while (c->task_slot[i]) {
		const struct task *t = &c->tasks[c->task_slot[i] - 1];

		if (t->pid == pid && !strcmp(t->comm, comm))
			break;
		i = (i + 1) & mask;
	}
	return &c->task_slot[i];
}

/* Room for one more task in the table, kept at most half full. */
static int task_room(struct rtm_census *c)
{
	size_t n = c->nslots ? c->nslots * 2 : 256, i;
	uint32_t *old = c->task_slot;

	if (c->nslots && (c->ntasks + 1) * 2 <= c->nslots)
		return 0;
	c->task_slot = calloc(n, sizeof(*c->task_slot));
	if (!c->task_slot) {
		c->task_slot = old;
		return -ENOMEM;
	}
	c->nslots = n;
	free(old);
	for (i = 0; i < c->ntasks; i++)
		*task_find(c, c->tasks[i].pid, c->tasks[i].comm) = (uint32_t)i + 1;
	return 0;
}

/*
 * A task's policy, looked up once per pid and name (the trace gives only its
 * priority), when a verdict names it; found again by hash, not by a walk of all.
 */
static const char *task_policy(struct rtm_census *c, int pid, const char *comm)
{
	uint32_t *slot;
	struct task *t;

	if (c->nslots) {
		slot = task_find(c, pid, comm);
		if (*slot)
			return c->tasks[*slot - 1].policy;
	}
	if (task_room(c))
		return "unknown";
	t = rtm_grow(c->tasks, &c->taskcap, c->ntasks, sizeof(*t), 32);
	if (!t)
		return "unknown";
	c->tasks = t;
	t = &c->tasks[c->ntasks];
	t->pid = pid;
	rtm_strcopy(t->comm, sizeof(t->comm), comm);
	rtm_strcopy(t->policy, sizeof(t->policy), rtm_task_policy_name(c->proc_root, pid, comm));
	/* found by the name as stored (a longer one is cut to the same length) */
	*task_find(c, pid, t->comm) = (uint32_t)++c->ntasks;
	return t->policy;
}

static void span_cb(const struct rtm_irqspan *sp, void *ctx)
{
	struct rtm_census *c = ctx;
	struct cpu_state *s = watched(c, sp->cpu);
	struct seg g = { .start = sp->start_ns, .end = sp->end_ns, .own = sp->own_ns,
			 .id = sp->id };

	if (!s || sp->kind == RTM_IRQSRC_THREAD)
		return;
	g.kind = sp->kind == RTM_IRQSRC_IRQ ? SEG_IRQ : sp->kind == RTM_IRQSRC_VECTOR ?
		 SEG_VECTOR : sp->kind == RTM_IRQSRC_SOFTIRQ ? SEG_SOFTIRQ : SEG_NMI;
	g.host = s->cur_known ? s->cur_pid : -1;
	rtm_strcopy(g.name, sizeof(g.name), sp->name ? sp->name : "?");
	if (push_seg(c, s, &g))
		c->failed = true;
}

static int on_switch(struct rtm_census *c, struct cpu_state *s, const struct rtm_event *ev)
{
	struct seg g = { .kind = SEG_THREAD };

	/* the task switched out held the CPU since it came (or since the trace began) */
	if (ev->sw.prev_pid > 0 && !followed(c, ev->sw.prev_pid)) {
		/*
		 * A CPU runs one task at a time: the one leaving came at the last switch,
		 * even when its pid or name changed meanwhile (a thread's exec takes its
		 * leader's pid); with no switch seen yet, it ran since the trace began.
		 * Its priority: the higher of the two the switches show (a task may change
		 * it while on the CPU, rising to spin or dropping to leave; against the
		 * probe it held the higher one).
		 */
		g.start = s->cur_known ? s->cur_since : s->first_ts;
		g.end = ev->ts_ns;
		g.id = ev->sw.prev_pid;
		g.prio = s->cur_known && s->cur_prio < ev->sw.prev_prio ? s->cur_prio :
			 ev->sw.prev_prio;
		rtm_strcopy(g.name, sizeof(g.name), ev->sw.prev_comm);
		/* its policy only when a verdict names it (name_task()): few tasks ever are */
		if (push_seg(c, s, &g))
			return -ENOMEM;
	}
	s->cur_known = true;
	s->cur_pid = ev->sw.next_pid;
	s->cur_prio = ev->sw.next_prio;
	rtm_strcopy(s->cur_comm, sizeof(s->cur_comm), ev->sw.next_comm);
	s->cur_since = ev->ts_ns;
	return 0;
}

int rtm_census_event(const struct rtm_event *ev, void *ctx)
{
	struct rtm_census *c = ctx;
	struct cpu_state *s = watched(c, ev->cpu);
	int ret;

	if (!s)
		return 0;
	if (!s->first_ts)
		s->first_ts = ev->ts_ns;
	s->last_ts = ev->ts_ns;
	ret = rtm_irqacct_event(ev, c->irq);
	if (!ret && ev->type == RTM_EV_SCHED_SWITCH)
		ret = on_switch(c, s, ev);
	return ret ? ret : c->failed ? -ENOMEM : 0;
}

void rtm_census_expiry(const struct rtm_timerirq_expiry *e, void *ctx)
{
	struct rtm_census *c = ctx;
	struct cpu_state *s = watched(c, e->cpu);
	struct exp *n;

	if (!s || e->expires_ns < 0 || e->now_ns < e->expires_ns)
		return;
	n = rtm_grow(s->exps, &s->expcap, s->nexp, sizeof(*n), 256);
	if (!n) {
		c->failed = true;
		return;
	}
	s->exps = n;
	if (s->nexp > s->exp0 && (uint64_t)e->now_ns < s->exps[s->nexp - 1].now)
		s->exps_unsorted = true;
	s->exps[s->nexp++] = (struct exp){ (uint64_t)e->expires_ns, (uint64_t)e->now_ns };
}

void rtm_census_steal(struct rtm_census *c, int cpu, uint64_t t_ns, int64_t steal_ns)
{
	struct cpu_state *s = watched(c, cpu);
	struct steal *n;

	if (!s || steal_ns < 0)
		return;
	/* only the changes matter: a run of equal reads keeps its first and last */
	if (s->nsteal >= 2 && s->steal[s->nsteal - 1].ns == steal_ns &&
	    s->steal[s->nsteal - 2].ns == steal_ns) {
		if (t_ns < s->steal[s->nsteal - 2].t)
			s->steal_unsorted = true;
		s->steal[s->nsteal - 1].t = t_ns;
		return;
	}
	n = rtm_grow(s->steal, &s->stealcap, s->nsteal, sizeof(*n), 64);
	if (!n)
		return;
	s->steal = n;
	if (s->nsteal && t_ns < s->steal[s->nsteal - 1].t)
		s->steal_unsorted = true;
	s->steal[s->nsteal++] = (struct steal){ t_ns, steal_ns };
}

int rtm_census_add(struct rtm_census *c, int cpu, uint64_t planned_ns, uint64_t latency_ns)
{
	struct cpu_state *s = watched(c, cpu);
	struct late *n;

	if (!s)
		return 0;
	n = rtm_grow(s->pend, &s->pendcap, s->npend, sizeof(*n), 64);
	if (!n)
		return -ENOMEM;
	s->pend = n;
	s->pend[s->npend++] = (struct late){ planned_ns, latency_ns };
	return 0;
}

/* ------------------------------------------------------------ the verdicts */

/* The steal time grew between the reads around [@a, @b]: the hypervisor took the CPU. */
static bool stolen(const struct cpu_state *s, uint64_t a, uint64_t b)
{
	size_t i, lo = 1, hi = s->nsteal;

	/* in time order, the reads before @a cannot count: start at the first at or after it */
	while (!s->steal_unsorted && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->steal[mid].t < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = s->steal_unsorted ? 1 : lo; i < s->nsteal; i++) {
		if (!s->steal_unsorted && s->steal[i - 1].t > b)
			break;		/* and none after one that began past @b */
		if (s->steal[i].t >= a && s->steal[i - 1].t <= b &&
		    s->steal[i].ns > s->steal[i - 1].ns)
			return true;
	}
	return false;
}

/*
 * The first kept interval that ends after @t: none before it can overlap [@t, ...).
 * Kept in order of their ends (a CPU's events come in time order), so it is searched
 * for; out of order, the walk starts at the oldest kept.
 */
static size_t seg_after(const struct cpu_state *s, uint64_t t)
{
	size_t lo = s->seg0, hi = s->nseg;

	if (s->segs_unsorted)
		return s->seg0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->segs[mid].end <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint64_t overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	uint64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

/* The expiry of the sleep planned at @planned (a non-RT sleeper's lies in its slack). */
static const struct exp *find_exp(const struct cpu_state *s, uint64_t planned, uint64_t woke)
{
	size_t i, lo = s->exp0, hi = s->nexp;

	/* an expiry is kept only with now >= expires: one run before @planned cannot match */
	while (!s->exps_unsorted && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->exps[mid].now < planned)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < s->nexp; i++)
		if (s->exps[i].expires >= planned && s->exps[i].expires <= woke)
			return &s->exps[i];
	return NULL;
}

static int add_part(struct part *p, int *np, const struct seg *g, uint64_t ns)
{
	int i;

	for (i = 0; i < *np; i++)
		if (p[i].g->kind == g->kind && p[i].g->id == g->id &&
		    !strcmp(p[i].g->name, g->name)) {
			p[i].ns += ns;
			return i;
		}
	if (*np == CENSUS_MAX_PARTS)
		return -1;
	p[*np].g = g;
	p[*np].ns = ns;
	return (*np)++;
}

/* Handler time overlapping [@a, @b], their own time in proportion. */
static uint64_t handler_share(const struct seg *g, uint64_t a, uint64_t b)
{
	uint64_t len = g->end - g->start, o = overlap(g->start, g->end, a, b);

	return len ? (uint64_t)((double)g->own * (double)o / (double)len) : 0;
}

/* What held the CPU in [@a, @b]: parts by task and handler; the largest's index (-1: none). */
static int lay_over(const struct cpu_state *s, uint64_t a, uint64_t b, struct part *p, int *np,
		    const struct seg *open)
{
	size_t i, first = seg_after(s, a);
	int k, j, pass;

	*np = 0;
	/* the tasks first, then the handlers, each taken off the task it interrupted */
	for (pass = 0; pass < 2; pass++)
		for (i = first; i <= s->nseg; i++) {
			const struct seg *g = i < s->nseg ? &s->segs[i] : open;
			uint64_t ns;

			if (!g || g->end <= a || g->start >= b || (g->kind == SEG_THREAD) == pass)
				continue;
			if (!pass) {
				add_part(p, np, g, overlap(g->start, g->end, a, b));
				continue;
			}
			ns = handler_share(g, a, b);
			if (!ns)
				continue;
			add_part(p, np, g, ns);
			for (j = 0; j < *np; j++)
				if (p[j].g->kind == SEG_THREAD && p[j].g->id == g->host)
					p[j].ns = p[j].ns > ns ? p[j].ns - ns : 0;
		}
	k = -1;
	for (j = 0; j < *np; j++)
		if (k < 0 || p[j].ns > p[k].ns)
			k = j;
	return k;
}

/* What ran on the CPU at @t: a handler, else a task; NULL when idle (or the probe). */
static const struct seg *at(const struct cpu_state *s, uint64_t t, const struct seg *open)
{
	const struct seg *task = NULL;
	size_t i;

	for (i = seg_after(s, t); i < s->nseg; i++) {
		const struct seg *g = &s->segs[i];

		if (g->start > t || g->end <= t)
			continue;
		if (g->kind != SEG_THREAD)
			return g;
		task = g;
	}
	if (!task && open && open->start <= t)
		task = open;
	return task;
}

/*
 * A named task's scheduling in words, from the verdict's policy and priority: "FIFO 99",
 * "OTHER nice 0"; the policy as /proc said when first named, unknown: "rt 99" or "nice 0".
 */
static void sched_words(const struct rtm_census_verdict *v, bool rt, char *buf, size_t len)
{
	bool known = strcmp(v->policy, "unknown") != 0;

	if (rt)
		snprintf(buf, len, "%s %d", known ? v->policy : "rt", v->priority);
	else
		snprintf(buf, len, "%s%snice %d", known ? v->policy : "", known ? " " : "",
			 v->priority);
}

static void name_task(struct rtm_census *c, struct rtm_census_verdict *v, const struct seg *g)
{
	int up = rtm_task_user_prio(g->prio);
	char sched[48];

	rtm_strcopy(v->comm, sizeof(v->comm), g->name);
	v->pid = g->id;
	/*
	 * The policy looked up when a verdict first names the task, not at each new
	 * task's first switch: a busy box starts hundreds of tasks a second, and
	 * reading /proc for each cost the monitor more than the rest of its drain.
	 */
	rtm_strcopy(v->policy, sizeof(v->policy), g->policy[0] ? g->policy :
		    task_policy(c, g->id, g->name));
	if (g->prio >= 100)
		v->priority = g->prio - 120;
	else
		v->priority = up;
	sched_words(v, g->prio < 100, sched, sizeof(sched));
	if (own(c, g->id))	/* the measuring process itself: said so */
		snprintf(v->culprit, sizeof(v->culprit), "%s (%s pid %d, %s)", c->own_name,
			 g->name, g->id, sched);
	else
		snprintf(v->culprit, sizeof(v->culprit), "%s pid %d (%s)", g->name, g->id, sched);
}

static void name_seg(struct rtm_census *c, struct rtm_census_verdict *v, const struct seg *g)
{
	switch (g->kind) {
	case SEG_THREAD:
		v->cause = RTM_CENSUS_THREAD;
		name_task(c, v, g);
		return;
	case SEG_IRQ:
		v->cause = RTM_CENSUS_IRQ;
		snprintf(v->culprit, sizeof(v->culprit), "irq %d %s", g->id, g->name);
		return;
	case SEG_VECTOR:
		v->cause = RTM_CENSUS_IRQ;
		snprintf(v->culprit, sizeof(v->culprit), "vector %s", g->name);
		return;
	case SEG_SOFTIRQ:
		v->cause = RTM_CENSUS_SOFTIRQ;
		snprintf(v->culprit, sizeof(v->culprit), "softirq %s", g->name);
		return;
	default:
		v->cause = RTM_CENSUS_NMI;
		snprintf(v->culprit, sizeof(v->culprit), "nmi");
		return;
	}
}

static void unexplained(const struct rtm_census *c, const struct cpu_state *s,
			struct rtm_census_verdict *v, uint64_t a, uint64_t b)
{
	if (stolen(s, a, b))
		snprintf(v->detail, sizeof(v->detail), "hypervisor");
	else
		rtm_strcopy(v->detail, sizeof(v->detail), c->vm ? "unexplained: VM" :
			    "unexplained");
}

/* The verdict on a late wake-up, from the intervals kept. */
void census_judge(struct rtm_census *c, const struct cpu_state *s, int cpu,
		  const struct late *l, struct rtm_census_verdict *v)
{
	uint64_t e = l->planned, w = l->planned + l->latency, x, rest, timer;
	struct seg open = { .kind = SEG_THREAD };
	const struct seg *o = NULL, *g;
	struct part p[CENSUS_MAX_PARTS];
	const struct exp *xp;
	int np, k;

	memset(v, 0, sizeof(*v));
	v->cpu = cpu;
	v->planned_ns = e;
	v->latency_ns = l->latency;
	v->pid = -1;
	v->timer_irq_ns = -1;
	if (s->cur_known && s->cur_pid > 0 && !followed(c, s->cur_pid)) {
		open = (struct seg){ .kind = SEG_THREAD, .start = s->cur_since, .end = UINT64_MAX,
				     .id = s->cur_pid, .prio = s->cur_prio };
		rtm_strcopy(open.name, sizeof(open.name), s->cur_comm);
		rtm_strcopy(open.policy, sizeof(open.policy), task_policy(c, open.id, open.name));
		o = &open;
	}
	xp = find_exp(s, e, w);
	/* nothing of the wake-up in the stream: the events were lost or not there */
	if (!s->first_ts || s->first_ts > e || (!xp && (s->last_ts < w || c->lost))) {
		v->cause = RTM_CENSUS_UNTRACED;
		snprintf(v->culprit, sizeof(v->culprit), "not in the trace");
		return;
	}
	x = xp ? xp->now : e;
	timer = x - e;
	if (xp)
		v->timer_irq_ns = (int64_t)timer;
	k = lay_over(s, x, w, p, &np, o);
	rest = w - x;
	for (int j = 0; j < np; j++)
		rest = rest > p[j].ns ? rest - p[j].ns : 0;
	if (xp && timer >= rest && (k < 0 || timer >= p[k].ns)) {
		g = at(s, e, o);
		if (stolen(s, e, x)) {
			snprintf(v->detail, sizeof(v->detail), "hypervisor");
		} else if (g) {
			/* something ran with the interrupt due: it held interrupts off */
			snprintf(v->detail, sizeof(v->detail), "irqs_off");
			name_seg(c, v, g);
		} else {
			unexplained(c, s, v, e, x);
		}
		v->cause = RTM_CENSUS_TIMER_LATE;
		v->culprit_ns = timer;
		if (g && !strcmp(v->detail, "irqs_off")) {
			char who[sizeof(v->culprit)], sched[48];

			/* a task's scheduling after a comma: no brackets inside the brackets */
			if (g->kind == SEG_THREAD) {
				sched_words(v, g->prio < 100, sched, sizeof(sched));
				snprintf(who, sizeof(who), "%s%s%s pid %d, %s",
					 own(c, v->pid) ? c->own_name : "",
					 own(c, v->pid) ? ": " : "", v->comm, v->pid, sched);
			} else {
				rtm_strcopy(who, sizeof(who), v->culprit);
			}
			snprintf(v->culprit, sizeof(v->culprit),
				 "timer interrupt late (interrupts off in %.60s)", who);
		} else {
			snprintf(v->culprit, sizeof(v->culprit), "timer interrupt late (%s)",
				 v->detail);
		}
		return;
	}
	if (k >= 0 && p[k].ns >= rest) {
		name_seg(c, v, p[k].g);
		v->culprit_ns = p[k].ns;
		return;
	}
	v->cause = RTM_CENSUS_WAKE_PATH;
	v->culprit_ns = rest;
	unexplained(c, s, v, x, w);
	snprintf(v->culprit, sizeof(v->culprit), "switch to the probe late (%s)", v->detail);
}

/* Count a verdict: per CPU by cause and culprit, and the list up to its cap. */
static int tally(struct rtm_census *c, const struct rtm_census_verdict *v)
{
	struct census_tally *t;
	size_t i;

	c->count++;
	c->cpu[v->cpu].by_cause[v->cause]++;
	if (c->nverdicts < RTM_CENSUS_LIST_MAX) {
		struct rtm_census_verdict *n = rtm_grow(c->verdicts, &c->vcap, c->nverdicts,
							sizeof(*n), 64);

		if (!n)
			return -ENOMEM;
		c->verdicts = n;
		c->verdicts[c->nverdicts++] = *v;
	} else {
		c->list_truncated = true;
	}
	for (i = 0; i < c->ntally; i++) {
		t = &c->tally[i];
		if (t->cpu == v->cpu && t->cause == v->cause && !strcmp(t->culprit, v->culprit))
			break;
	}
	if (i == c->ntally) {
		t = rtm_grow(c->tally, &c->tallycap, c->ntally, sizeof(*t), 32);
		if (!t)
			return -ENOMEM;
		c->tally = t;
		t = &c->tally[c->ntally++];
		memset(t, 0, sizeof(*t));
		t->cpu = v->cpu;
		t->cause = v->cause;
		rtm_strcopy(t->culprit, sizeof(t->culprit), v->culprit);
	}
	t = &c->tally[i];
	t->count++;
	if (v->latency_ns > t->max_latency_ns)
		t->max_latency_ns = v->latency_ns;
	return 0;
}

/* Forget what lies more than RTM_CENSUS_KEEP_NS behind @horizon. */
static void prune(struct cpu_state *s, uint64_t horizon)
{
	uint64_t old = horizon > RTM_CENSUS_KEEP_NS ? horizon - RTM_CENSUS_KEEP_NS : 0;

	while (s->seg0 < s->nseg && s->segs[s->seg0].end < old)
		s->seg0++;
	while (s->exp0 < s->nexp && s->exps[s->exp0].now < old)
		s->exp0++;
	if (s->seg0 > 4096 && s->seg0 * 2 > s->nseg) {
		memmove(s->segs, s->segs + s->seg0, (s->nseg - s->seg0) * sizeof(*s->segs));
		s->nseg -= s->seg0;
		s->seg0 = 0;
	}
	if (s->exp0 > 4096 && s->exp0 * 2 > s->nexp) {
		memmove(s->exps, s->exps + s->exp0, (s->nexp - s->exp0) * sizeof(*s->exps));
		s->nexp -= s->exp0;
		s->exp0 = 0;
	}
}

void rtm_census_advance(struct rtm_census *c, uint64_t horizon_ns)
{
	struct rtm_census_verdict v;
	int i;

	for (i = 0; i < c->ncpus; i++) {
		struct cpu_state *s = &c->cpu[i];
		size_t k, keep = 0;

		if (!s->watched)
			continue;
		for (k = 0; k < s->npend; k++) {
			const struct late *l = &s->pend[k];

			/* the events up to its end may still be on their way */
			if (horizon_ns != UINT64_MAX &&
			    l->planned + l->latency + CENSUS_SETTLE_NS > horizon_ns) {
				s->pend[keep++] = *l;
				continue;
			}
			census_judge(c, s, i, l, &v);
			if (tally(c, &v))
				c->failed = true;
		}
		s->npend = keep;
		if (horizon_ns != UINT64_MAX)
			prune(s, horizon_ns);
	}
}

const struct rtm_census_verdict *rtm_census_verdicts(const struct rtm_census *c, size_t *n)
{
	*n = c->nverdicts;
	return c->verdicts;
}

uint64_t rtm_census_count(const struct rtm_census *c)
{
	return c->count;
}

uint64_t rtm_census_changes(const struct rtm_census *c)
{
	/* each only grows (a tally's counts and maxima change with count) */
	return c->count + c->lost + c->dropped + c->seg_dropped + c->failed +
	       c->list_truncated;
}

struct rtm_irqacct *rtm_census_irqacct(struct rtm_census *c)
{
	return c->irq;
}

int rtm_census_ncpus(const struct rtm_census *c)
{
	return c->ncpus;
}
