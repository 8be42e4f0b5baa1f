// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * noiseattr.c - a cause for every noise gap, from the measured CPUs' tracepoints.
 *
 * Per CPU a stack of the handlers open (hard IRQ, vector, softirq) over the task
 * sched_switch put on it; the time between two events belongs to the innermost.
 * NMIs come as one event at their end with their length (nmi_handler's delta_ns)
 * and cut the interval they interrupted. Intervals are stored only while the noise
 * probe wants the CPU: that is the only time a gap can be measured.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irqacct.h"
#include "noiseattr.h"
#include "rtholds.h"
#include "units.h"

#define STACK_MAX	8	/* NMI aside, softirq < IRQ < vector nests at most a few deep */
#define GAP_SHARES	32	/* distinct causes kept per gap (more: the rest is unexplained) */
#define NO_CAUSE	UINT32_MAX

enum kind { K_IRQ, K_VECTOR, K_SOFTIRQ, K_NMI, K_THREAD };

static const char *const kind_names[] = { "irq", "vector", "softirq", "nmi", "thread" };
static const enum rtm_noise_class kind_class[] = {
	RTM_NOISE_IRQ, RTM_NOISE_IRQ, RTM_NOISE_SOFTIRQ, RTM_NOISE_NMI, RTM_NOISE_THREAD,
};
static const char *const class_names[] = { "irq", "softirq", "nmi", "thread", "unexplained" };

struct cause {
	enum kind kind;
	int id;			/* IRQ number, vector, softirq number, pid */
	int prio;		/* thread: the kernel's prio from sched_switch */
	char name[32];		/* IRQ action, vector, softirq name, comm */
	char policy[12];	/* thread: FIFO, RR, OTHER, ... or unknown (rtholds.h) */
};

struct seg {
	uint64_t start_ns, end_ns;
	uint32_t cause;
};

struct cpu_state {
	uint32_t stack[STACK_MAX];
	int depth;
	uint32_t task;		/* the thread's cause, NO_CAUSE: a probe, idle or unknown */
	bool active;		/* the probe wants the CPU (running or preempted) */
	uint64_t seg_start_ns;
	struct seg *segs;
	uint32_t nsegs, cap;
};

struct rtm_noiseattr {
	int ncpus;
	struct cpu_state *cpu;
	struct cause *causes;
	uint32_t ncauses, capc;
	uint32_t last[K_THREAD + 1];	/* the cause each kind found last (a cache) */
	int *self;
	int nself, capself;
	uint64_t lost, dropped;
	char *proc_root;		/* NULL: no policy look-up */
};

const char *rtm_noise_class_name(enum rtm_noise_class c)
{
	return c < RTM_NOISE_NCLASSES ? class_names[c] : "?";
}

struct rtm_noiseattr *rtm_noiseattr_alloc(int ncpus, const char *proc_root)
{
	struct rtm_noiseattr *a = calloc(1, sizeof(*a));
	int i, k;

	if (!a || ncpus <= 0)
		goto fail;
	a->ncpus = ncpus;
	a->cpu = calloc((size_t)ncpus, sizeof(*a->cpu));
	if (!a->cpu || (proc_root && !(a->proc_root = strdup(proc_root))))
		goto fail;
	for (i = 0; i < ncpus; i++)
		a->cpu[i].task = NO_CAUSE;
	for (k = 0; k <= K_THREAD; k++)
		a->last[k] = NO_CAUSE;
	return a;
fail:
	if (a)
		free(a->cpu);
	free(a);
	return NULL;
}

void rtm_noiseattr_free(struct rtm_noiseattr *a)
{
	int i;

	if (!a)
		return;
	for (i = 0; i < a->ncpus; i++)
		free(a->cpu[i].segs);
	free(a->cpu);
	free(a->causes);
	free(a->self);
	free(a->proc_root);
	free(a);
}

int rtm_noiseattr_self(struct rtm_noiseattr *a, int tid)
{
	int i, *n;

	for (i = 0; i < a->nself; i++)
		if (a->self[i] == tid)
			return 0;
	if (a->nself == a->capself) {
		n = realloc(a->self, (size_t)(a->capself ? 2 * a->capself : 16) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		a->self = n;
		a->capself = a->capself ? 2 * a->capself : 16;
	}
	a->self[a->nself++] = tid;
	return 0;
}

static bool is_self(const struct rtm_noiseattr *a, int tid)
{
	int i;

	for (i = 0; i < a->nself; i++)
		if (a->self[i] == tid)
			return true;
	return false;
}

void rtm_noiseattr_lost(struct rtm_noiseattr *a, uint64_t events)
{
	a->lost += events;
}

uint64_t rtm_noiseattr_dropped(const struct rtm_noiseattr *a)
{
	return a->dropped;
}

/* The cause of (@kind, @id, @name), added when new; NO_CAUSE when out of memory. */
static uint32_t cause_of(struct rtm_noiseattr *a, enum kind kind, int id, const char *name,
			 int prio)
{
	struct cause *c;
	uint32_t i = a->last[kind];

	/* an IRQ's exit has no name: its entry's is kept */
	if (i != NO_CAUSE && a->causes[i].id == id && a->causes[i].prio == prio &&
	    (!name || !strcmp(a->causes[i].name, name)))
		return i;
	for (i = 0; i < a->ncauses; i++) {
		c = &a->causes[i];
		if (c->kind == kind && c->id == id && c->prio == prio &&
		    (!name || !strcmp(c->name, name)))
			break;
	}
	if (i == a->ncauses) {
		if (a->ncauses == a->capc) {
			c = realloc(a->causes, (size_t)(a->capc ? 2 * a->capc : 64) * sizeof(*c));
			if (!c)
				return NO_CAUSE;
			a->causes = c;
			a->capc = a->capc ? 2 * a->capc : 64;
		}
		c = &a->causes[a->ncauses++];
		c->kind = kind;
		c->id = id;
		c->prio = prio;
		snprintf(c->name, sizeof(c->name), "%s", name ? name : "");
		/* while the thread is young: its pid may be reused later */
		snprintf(c->policy, sizeof(c->policy), "%s", kind == K_THREAD ?
			 rtm_rthold_policy(a->proc_root, id, c->name) : "");
	}
	a->last[kind] = i;
	return i;
}

static void push_seg(struct rtm_noiseattr *a, struct cpu_state *cs, uint64_t start,
		     uint64_t end, uint32_t cause)
{
	struct seg *s;
	uint32_t cap;

	if (cause == NO_CAUSE || end <= start)
		return;
	s = cs->nsegs ? &cs->segs[cs->nsegs - 1] : NULL;
	if (s && s->cause == cause && s->end_ns == start) {	/* one interval, cut by nothing */
		s->end_ns = end;
		return;
	}
	if (cs->nsegs == cs->cap) {
		cap = cs->cap ? 2 * cs->cap : 256;
		if (cs->cap >= RTM_NOISEATTR_MAX_SEGS ||
		    !(s = realloc(cs->segs, (size_t)cap * sizeof(*s)))) {
			a->dropped++;
			return;
		}
		cs->segs = s;
		cs->cap = cap;
	}
	cs->segs[cs->nsegs++] = (struct seg){ start, end, cause };
}

static uint32_t innermost(const struct cpu_state *cs)
{
	return cs->depth ? cs->stack[cs->depth - 1] : cs->task;
}

/* The interval of the innermost owner up to @ts; the next starts there. */
static void cut(struct rtm_noiseattr *a, struct cpu_state *cs, uint64_t ts)
{
	if (cs->active && ts > cs->seg_start_ns)
		push_seg(a, cs, cs->seg_start_ns, ts, innermost(cs));
	if (ts > cs->seg_start_ns)
		cs->seg_start_ns = ts;
}

static void enter(struct cpu_state *cs, uint32_t cause)
{
	if (cs->depth < STACK_MAX)
		cs->stack[cs->depth++] = cause;
}

/* An exit closes the innermost handler of its kind; one without its entry changes nothing. */
static void leave(struct rtm_noiseattr *a, struct cpu_state *cs, enum kind kind)
{
	int d;

	for (d = cs->depth - 1; d >= 0; d--)
		if (cs->stack[d] != NO_CAUSE && a->causes[cs->stack[d]].kind == kind)
			break;
	if (d >= 0)
		cs->depth = d;	/* handlers above it lost their exits: closed with it */
}

/* "local_timer_entry" -> "local_timer" */
static void vector_name(const char *ev, char *buf, size_t len)
{
	const char *us = strrchr(ev, '_');
	int n = us ? (int)(us - ev) : (int)strlen(ev);

	snprintf(buf, len, "%.*s", n, ev);
}

/* The task's prev_state: asleep, or still wanting the CPU (preempted: R or R+). */
static bool asleep(int64_t prev_state)
{
	return (prev_state & 0xff) != 0;
}

int rtm_noiseattr_event(const struct rtm_event *ev, void *ctx)
{
	struct rtm_noiseattr *a = ctx;
	struct cpu_state *cs;
	char name[32];
	uint64_t start;
	uint32_t c;

	if (ev->cpu < 0 || ev->cpu >= a->ncpus)
		return 0;
	cs = &a->cpu[ev->cpu];
	switch (ev->type) {
	case RTM_EV_IRQ_ENTRY:
		cut(a, cs, ev->ts_ns);
		enter(cs, cause_of(a, K_IRQ, ev->irq.irq, ev->irq.name, 0));
		break;
	case RTM_EV_VECTOR_ENTRY:
		cut(a, cs, ev->ts_ns);
		vector_name(ev->name, name, sizeof(name));
		enter(cs, cause_of(a, K_VECTOR, ev->vector.vector, name, 0));
		break;
	case RTM_EV_SOFTIRQ_ENTRY:
		cut(a, cs, ev->ts_ns);
		enter(cs, cause_of(a, K_SOFTIRQ, (int)ev->softirq.vec,
				   rtm_softirq_name(ev->softirq.vec), 0));
		break;
	case RTM_EV_IRQ_EXIT:
		cut(a, cs, ev->ts_ns);
		leave(a, cs, K_IRQ);
		break;
	case RTM_EV_VECTOR_EXIT:
		cut(a, cs, ev->ts_ns);
		leave(a, cs, K_VECTOR);
		break;
	case RTM_EV_SOFTIRQ_EXIT:
		cut(a, cs, ev->ts_ns);
		leave(a, cs, K_SOFTIRQ);
		break;
	case RTM_EV_NMI:
		/* recorded as the handler ends: [ts - delta, ts] cut from what it interrupted */
		start = ev->nmi.delta_ns < ev->ts_ns ? ev->ts_ns - ev->nmi.delta_ns : 0;
		if (start < cs->seg_start_ns)
			start = cs->seg_start_ns;
		cut(a, cs, start);
		if (cs->active)
			push_seg(a, cs, start, ev->ts_ns, cause_of(a, K_NMI, 0, "nmi", 0));
		if (ev->ts_ns > cs->seg_start_ns)
			cs->seg_start_ns = ev->ts_ns;
		break;
	case RTM_EV_SCHED_SWITCH:
		cut(a, cs, ev->ts_ns);
		cs->depth = 0;	/* a switch happens in task context: handlers lost their exits */
		if (is_self(a, ev->sw.prev_pid) && asleep(ev->sw.prev_state))
			cs->active = false;
		if (is_self(a, ev->sw.next_pid))
			cs->active = true;
		c = NO_CAUSE;
		if (ev->sw.next_pid > 0 && !is_self(a, ev->sw.next_pid))
			c = cause_of(a, K_THREAD, ev->sw.next_pid, ev->sw.next_comm,
				     ev->sw.next_prio);
		cs->task = c;
		break;
	default:
		break;
	}
	return 0;
}

/* ------------------------------------------------------------ attribution */

static void cause_label(const struct cause *c, char *buf, size_t len)
{
	switch (c->kind) {
	case K_IRQ:
		snprintf(buf, len, "irq %d %s", c->id, c->name);
		break;
	case K_VECTOR:
		snprintf(buf, len, "vector %s", c->name);
		break;
	case K_SOFTIRQ:
		snprintf(buf, len, "softirq %s", c->name);
		break;
	case K_NMI:
		snprintf(buf, len, "nmi");
		break;
	case K_THREAD:
		/* the policy as /proc said when first seen; FIFO and RR look alike in the trace */
		if (c->prio < 0)
			snprintf(buf, len, "thread %s pid %d (deadline)", c->name, c->id);
		else if (c->prio < 100 && (!strcmp(c->policy, "FIFO") || !strcmp(c->policy, "RR")))
			snprintf(buf, len, "thread %s pid %d (%s %d)", c->name, c->id,
				 !strcmp(c->policy, "FIFO") ? "fifo" : "rr", 99 - c->prio);
		else if (c->prio < 100)
			snprintf(buf, len, "thread %s pid %d (rt %d)", c->name, c->id,
				 99 - c->prio);
		else if (!strcmp(c->policy, "BATCH") || !strcmp(c->policy, "IDLE"))
			snprintf(buf, len, "thread %s pid %d (%s, nice %d)", c->name, c->id,
				 !strcmp(c->policy, "BATCH") ? "batch" : "idle", c->prio - 120);
		else
			snprintf(buf, len, "thread %s pid %d (nice %d)", c->name, c->id,
				 c->prio - 120);
		break;
	}
}

/* The first interval of @cs ending after @t (intervals are in time order, disjoint). */
static uint32_t first_after(const struct cpu_state *cs, uint64_t t)
{
	uint32_t lo = 0, hi = cs->nsegs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cs->segs[mid].end_ns <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct share {
	uint32_t cause;
	uint64_t ns;
};

struct gap_out {
	uint32_t main;		/* cause, NO_CAUSE: unexplained */
	uint64_t main_ns, unexplained_ns;
};

/*
 * Lay one gap over the intervals: its shares (capped at its length) into @sh. The
 * slack reaches back only to @claimed, the end of what the gap before took: time
 * is given to one gap (two gaps a few us apart would both claim it otherwise).
 */
static int gap_shares(const struct cpu_state *cs, uint64_t gs, uint64_t len, uint64_t tol,
		      uint64_t *claimed, struct share *sh, uint64_t *explained)
{
	uint64_t lo = gs > tol ? gs - tol : 0, hi = gs + len + tol, s, e, total = 0;
	uint32_t k;
	int n = 0, i;

	if (lo < *claimed)
		lo = *claimed;
	for (k = first_after(cs, lo); k < cs->nsegs && cs->segs[k].start_ns < hi; k++) {
		s = cs->segs[k].start_ns > lo ? cs->segs[k].start_ns : lo;
		e = cs->segs[k].end_ns < hi ? cs->segs[k].end_ns : hi;
		*claimed = e;
		for (i = 0; i < n && sh[i].cause != cs->segs[k].cause; i++)
			;
		if (i == n) {
			if (n == GAP_SHARES)
				continue;
			sh[n++] = (struct share){ cs->segs[k].cause, 0 };
		}
		sh[i].ns += e - s;
		total += e - s;
	}
	/* the slack may take in a neighbour's edge: never more than the gap */
	if (total > len) {
		double scale = (double)len / (double)total;

		for (i = 0, total = 0; i < n; i++) {
			sh[i].ns = (uint64_t)((double)sh[i].ns * scale);
			total += sh[i].ns;
		}
		if (total > len)
			total = len;
	}
	*explained = total;
	return n;
}

static const char *unexplained_reason(const struct rtm_noiseattr_env *env, char *buf,
				      size_t len)
{
	char s[16];

	if (env && env->steal_ns > 0) {
		rtm_fmt_ns(s, sizeof(s), (uint64_t)env->steal_ns);
		snprintf(buf, len, "no event; the hypervisor reported %s of steal time on this "
			 "CPU during the run", s);
	} else if (env && env->vm) {
		snprintf(buf, len, "no event; a VM: hypervisor or SMI cannot be told apart");
	} else {
		snprintf(buf, len, "no event: firmware (SMI) or a cause not traced");
	}
	return buf;
}

struct cpu_acc {
	uint64_t *ns;		/* per cause */
	uint64_t *gaps;		/* gaps it took time in */
	uint64_t *main_of;	/* gaps it was the main cause of */
	uint64_t class_ns[RTM_NOISE_NCLASSES], class_gaps[RTM_NOISE_NCLASSES];
};

struct rank {
	uint64_t ns;
	uint32_t cause;
};

/* Most time first; equal times by cause (first seen first), so the order is stable. */
static int by_ns(const void *x, const void *y)
{
	const struct rank *a = x, *b = y;

	if (a->ns != b->ns)
		return a->ns < b->ns ? 1 : -1;
	return a->cause < b->cause ? -1 : a->cause > b->cause;
}

static json_t *causes_json(const struct rtm_noiseattr *a, const struct cpu_acc *acc,
			   const uint32_t *order, uint32_t n, const char *reason, int64_t steal)
{
	json_t *o = json_object(), *list = json_array(), *c;
	char label[96], key[32];
	uint32_t i;
	int k;

	for (k = 0; k < RTM_NOISE_NCLASSES; k++) {
		snprintf(key, sizeof(key), "%s_ns", class_names[k]);
		json_object_set_new(o, key, json_integer((json_int_t)acc->class_ns[k]));
		snprintf(key, sizeof(key), "%s_gaps", class_names[k]);
		json_object_set_new(o, key, json_integer((json_int_t)acc->class_gaps[k]));
	}
	for (i = 0; i < n; i++) {
		const struct cause *cs = &a->causes[order[i]];

		cause_label(cs, label, sizeof(label));
		c = json_pack("{s:s, s:s, s:s, s:i, s:s, s:I, s:I, s:I}",
			      "class", class_names[kind_class[cs->kind]],
			      "kind", kind_names[cs->kind], "name", cs->name, "id", cs->id,
			      "label", label, "ns", (json_int_t)acc->ns[order[i]],
			      "gaps", (json_int_t)acc->gaps[order[i]],
			      "main_of", (json_int_t)acc->main_of[order[i]]);
		if (cs->kind == K_THREAD) {
			json_object_set_new(c, "prio", json_integer(cs->prio));
			json_object_set_new(c, "policy", json_string(cs->policy));
		}
		json_array_append_new(list, c);
	}
	json_object_set_new(o, "contributors", list);
	json_object_set_new(o, "steal_ns", steal >= 0 ? json_integer(steal) : json_null());
	json_object_set_new(o, "unexplained", json_string(reason));
	return o;
}

/* One CPU of sections.noise: "causes" and "gap_causes". */
static int apply_cpu(struct rtm_noiseattr *a, json_t *cpu, uint64_t start_mono,
		     uint64_t window, const struct rtm_noiseattr_env *env)
{
	json_int_t cpun = json_integer_value(json_object_get(cpu, "cpu"));
	json_t *list = json_object_get(cpu, "gap_list"), *g, *gc;
	struct cpu_state none = { .task = NO_CAUSE }, *cs;
	struct cpu_acc acc = { 0 };
	struct share sh[GAP_SHARES];
	struct gap_out *out = NULL;
	uint32_t *order = NULL, *pos = NULL, n = 0, i;
	struct rank *rank = NULL;
	uint64_t rel, len, tol, explained, claimed = 0;
	char reason[160];
	size_t j, ngaps = json_array_size(list);
	int k, m, ret = -ENOMEM;

	cs = cpun >= 0 && cpun < a->ncpus ? &a->cpu[cpun] : &none;
	acc.ns = calloc(a->ncauses + 1, sizeof(uint64_t));
	acc.gaps = calloc(a->ncauses + 1, sizeof(uint64_t));
	acc.main_of = calloc(a->ncauses + 1, sizeof(uint64_t));
	order = calloc(a->ncauses + 1, sizeof(*order));
	pos = calloc(a->ncauses + 1, sizeof(*pos));
	rank = calloc(a->ncauses + 1, sizeof(*rank));
	out = calloc(ngaps + 1, sizeof(*out));
	if (!acc.ns || !acc.gaps || !acc.main_of || !order || !pos || !rank || !out)
		goto done;
	json_array_foreach(list, j, g) {
		rel = (uint64_t)json_integer_value(json_array_get(g, 0));
		len = (uint64_t)json_integer_value(json_array_get(g, 1));
		tol = RTM_NOISEATTR_TOL_BASE_NS +
		      (window ? rel % window : rel) / 1000000ULL * RTM_NOISEATTR_TOL_PPM;
		m = gap_shares(cs, start_mono + rel, len, tol, &claimed, sh, &explained);
		out[j] = (struct gap_out){ NO_CAUSE, 0, len - explained };
		for (k = 0; k < m; k++) {
			acc.ns[sh[k].cause] += sh[k].ns;
			acc.gaps[sh[k].cause]++;
			acc.class_ns[kind_class[a->causes[sh[k].cause].kind]] += sh[k].ns;
			if (sh[k].ns > out[j].main_ns) {
				out[j].main = sh[k].cause;
				out[j].main_ns = sh[k].ns;
			}
		}
		acc.class_ns[RTM_NOISE_UNEXPLAINED] += len - explained;
		if (out[j].main_ns < len - explained || out[j].main == NO_CAUSE) {
			out[j].main = NO_CAUSE;
			out[j].main_ns = len - explained;
			acc.class_gaps[RTM_NOISE_UNEXPLAINED]++;
		} else {
			acc.main_of[out[j].main]++;
			acc.class_gaps[kind_class[a->causes[out[j].main].kind]]++;
		}
	}
	for (i = 0; i < a->ncauses; i++)
		if (acc.ns[i])
			rank[n++] = (struct rank){ acc.ns[i], i };
	qsort(rank, n, sizeof(*rank), by_ns);
	for (i = 0; i < n; i++) {
		order[i] = rank[i].cause;
		pos[order[i]] = i;
	}
	gc = json_array();
	for (j = 0; j < ngaps; j++)
		json_array_append_new(gc, json_pack("[i, I, I]",
			out[j].main == NO_CAUSE ? -1 : (int)pos[out[j].main],
			(json_int_t)out[j].main_ns, (json_int_t)out[j].unexplained_ns));
	json_object_set_new(cpu, "gap_causes", gc);
	json_object_set_new(cpu, "causes", causes_json(a, &acc, order, n,
			    unexplained_reason(env, reason, sizeof(reason)),
			    env ? env->steal_ns : -1));
	ret = 0;
done:
	free(acc.ns);
	free(acc.gaps);
	free(acc.main_of);
	free(order);
	free(pos);
	free(rank);
	free(out);
	return ret;
}

int rtm_noiseattr_apply(struct rtm_noiseattr *a, json_t *noise,
			const struct rtm_noiseattr_env *env, int nenv)
{
	json_t *cpus = json_object_get(noise, "cpus"), *cpu;
	uint64_t start = (uint64_t)json_integer_value(json_object_get(noise, "start_mono_ns"));
	uint64_t window = (uint64_t)json_integer_value(json_object_get(noise, "window_ns"));
	json_int_t n;
	size_t i;
	int ret;

	if (!json_is_array(cpus) || !json_is_integer(json_object_get(noise, "start_mono_ns")))
		return -EINVAL;
	json_array_foreach(cpus, i, cpu) {
		n = json_integer_value(json_object_get(cpu, "cpu"));
		ret = apply_cpu(a, cpu, start, window, env && n >= 0 && n < nenv ? &env[n] : NULL);
		if (ret)
			return ret;
	}
	json_object_set_new(noise, "attribution", json_pack("{s:I, s:I, s:I, s:I, s:b}",
		"tolerance_base_ns", (json_int_t)RTM_NOISEATTR_TOL_BASE_NS,
		"tolerance_ppm", (json_int_t)RTM_NOISEATTR_TOL_PPM,
		"events_lost", (json_int_t)a->lost,
		"intervals_dropped", (json_int_t)a->dropped,
		"complete", !a->lost && !a->dropped));
	return 0;
}

/* ------------------------------------------------------------ check, print */

int rtm_noiseattr_check(const json_t *cpu, char *why, size_t len)
{
	const json_t *causes = json_object_get(cpu, "causes");
	const json_t *gc = json_object_get(cpu, "gap_causes"), *list, *e, *c;
	size_t i, ncontrib;
	char key[32];
	int k;

	if (!causes && !gc)
		return 0;
	if (!json_is_object(causes) || !json_is_array(gc)) {
		snprintf(why, len, "causes and gap_causes go together (an object and an array)");
		return -EINVAL;
	}
	for (k = 0; k < RTM_NOISE_NCLASSES; k++) {
		snprintf(key, sizeof(key), "%s_ns", class_names[k]);
		e = json_object_get(causes, key);
		if (!json_is_integer(e) || json_integer_value(e) < 0) {
			snprintf(why, len, "causes.%s is not a count of ns", key);
			return -EINVAL;
		}
	}
	list = json_object_get(causes, "contributors");
	if (!json_is_array(list)) {
		snprintf(why, len, "causes.contributors is not an array");
		return -EINVAL;
	}
	json_array_foreach(list, i, c)
		if (!json_is_string(json_object_get(c, "label")) ||
		    !json_is_integer(json_object_get(c, "ns"))) {
			snprintf(why, len, "causes.contributors[%zu] has no label or ns", i);
			return -EINVAL;
		}
	ncontrib = json_array_size(list);
	if (json_array_size(gc) != json_array_size(json_object_get(cpu, "gap_list"))) {
		snprintf(why, len, "gap_causes has %zu entries for %zu in gap_list",
			 json_array_size(gc), json_array_size(json_object_get(cpu, "gap_list")));
		return -EINVAL;
	}
	json_array_foreach(gc, i, e) {
		json_int_t idx = json_integer_value(json_array_get(e, 0));

		if (json_array_size(e) != 3 || !json_is_integer(json_array_get(e, 0)) ||
		    idx < -1 || idx >= (json_int_t)ncontrib ||
		    !json_is_integer(json_array_get(e, 1)) ||
		    !json_is_integer(json_array_get(e, 2))) {
			snprintf(why, len, "gap_causes[%zu] is not [contributor or -1, main_ns, "
				 "unexplained_ns]", i);
			return -EINVAL;
		}
	}
	return 0;
}

static void fmt_count_ns(char *buf, size_t len, const json_t *causes, int k)
{
	char key[32], t[16];

	snprintf(key, sizeof(key), "%s_ns", class_names[k]);
	rtm_fmt_ns(t, sizeof(t), (uint64_t)json_integer_value(json_object_get(causes, key)));
	snprintf(key, sizeof(key), "%s_gaps", class_names[k]);
	snprintf(buf, len, "%6lld %9s", json_integer_value(json_object_get(causes, key)), t);
}

void rtm_noiseattr_fprint(const json_t *noise, FILE *f, int top)
{
	const json_t *cpus = json_object_get(noise, "cpus"), *cpu, *causes, *c;
	const json_t *at = json_object_get(noise, "attribution");
	char col[RTM_NOISE_NCLASSES][40], t[16];
	json_int_t unexplained;
	size_t i, j;
	int k;

	if (!json_is_object(at))
		return;
	fprintf(f, "\nGap causes (tracepoints; per class: gaps it was the main cause of, its "
		"time in all gaps)\n");
	fprintf(f, "CPU  %16s %16s %16s %16s %16s\n", "IRQ", "SoftIRQ", "NMI", "Thread",
		"Unexplained");
	json_array_foreach(cpus, i, cpu) {
		causes = json_object_get(cpu, "causes");
		if (!causes)
			continue;
		for (k = 0; k < RTM_NOISE_NCLASSES; k++)
			fmt_count_ns(col[k], sizeof(col[k]), causes, k);
		fprintf(f, "%3lld  %s %s %s %s %s\n",
			json_integer_value(json_object_get(cpu, "cpu")), col[0], col[1], col[2],
			col[3], col[4]);
	}
	json_array_foreach(cpus, i, cpu) {
		causes = json_object_get(cpu, "causes");
		if (!causes)
			continue;
		json_array_foreach(json_object_get(causes, "contributors"), j, c) {
			if ((int)j >= top)
				break;
			rtm_fmt_ns(t, sizeof(t),
				   (uint64_t)json_integer_value(json_object_get(c, "ns")));
			fprintf(f, "  CPU %lld: %s: %s in %lld gaps (main cause of %lld)\n",
				json_integer_value(json_object_get(cpu, "cpu")),
				json_string_value(json_object_get(c, "label")), t,
				json_integer_value(json_object_get(c, "gaps")),
				json_integer_value(json_object_get(c, "main_of")));
		}
		unexplained = json_integer_value(json_object_get(causes, "unexplained_ns"));
		if (unexplained > 0) {
			rtm_fmt_ns(t, sizeof(t), (uint64_t)unexplained);
			fprintf(f, "  CPU %lld: unexplained %s (%s)\n",
				json_integer_value(json_object_get(cpu, "cpu")), t,
				json_string_value(json_object_get(causes, "unexplained")) ?: "");
		}
	}
	if (!json_is_true(json_object_get(at, "complete")))
		fprintf(f, "  incomplete: %lld events lost, %lld intervals dropped (raise the "
			"trace buffer or shorten the run)\n",
			json_integer_value(json_object_get(at, "events_lost")),
			json_integer_value(json_object_get(at, "intervals_dropped")));
}
