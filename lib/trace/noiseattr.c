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
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/task.h"
#include "irq/handlers.h"
#include "trace/noiseattr.h"
#include "trace/noiseattr_priv.h"
#include "core/units.h"

static const char *const kind_names[] = {
	"irq", "vector", "softirq", "nmi", "thread", "rt_throttling",
};
const enum rtm_noise_class rtm_noiseattr_kind_class[] = {
	RTM_NOISE_IRQ, RTM_NOISE_IRQ, RTM_NOISE_SOFTIRQ, RTM_NOISE_NMI, RTM_NOISE_THREAD,
	RTM_NOISE_RT_THROTTLING,
};
static const char *const class_names[] = {
	"irq", "softirq", "nmi", "thread", "rt_throttling", "unexplained",
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
	for (i = 0; i < ncpus; i++) {
		a->cpu[i].task = NO_CAUSE;
		a->cpu[i].probe_prio = -1;
	}
	for (k = 0; k < K_NKINDS; k++)
		a->last[k] = NO_CAUSE;
	a->rt_runtime_us = -1;
	a->tick_ns = 10000000ULL;
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
	n = rtm_grow(a->self, &a->capself, (size_t)a->nself, sizeof(*n), 16);
	if (!n)
		return -ENOMEM;
	a->self = n;
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

void rtm_noiseattr_rt_limit(struct rtm_noiseattr *a, int64_t runtime_us, int64_t period_us,
			    uint64_t tick_ns)
{
	a->rt_runtime_us = runtime_us;
	a->rt_period_us = period_us;
	a->tick_ns = tick_ns ? tick_ns : 10000000ULL;
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
		c = rtm_grow(a->causes, &a->capc, a->ncauses, sizeof(*c), 64);
		if (!c)
			return NO_CAUSE;
		a->causes = c;
		c = &a->causes[a->ncauses++];
		c->kind = kind;
		c->id = id;
		c->prio = prio;
		snprintf(c->name, sizeof(c->name), "%s", name ? name : "");
		/* while the thread is young: its pid may be reused later */
		snprintf(c->policy, sizeof(c->policy), "%s", kind == K_THREAD ?
			 rtm_task_policy_name(a->proc_root, id, c->name) : "");
	}
	a->last[kind] = i;
	return i;
}

static void push_seg(struct rtm_noiseattr *a, struct cpu_state *cs, uint64_t start,
		     uint64_t end, uint32_t cause)
{
	struct seg *s;

	if (cause == NO_CAUSE || end <= start)
		return;
	s = cs->nsegs ? &cs->segs[cs->nsegs - 1] : NULL;
	if (s && s->cause == cause && s->end_ns == start) {	/* one interval, cut by nothing */
		s->end_ns = end;
		return;
	}
	/* full at RTM_NOISEATTR_MAX_SEGS, or out of memory: the interval is dropped */
	s = cs->nsegs < cs->cap || cs->cap < RTM_NOISEATTR_MAX_SEGS ?
	    rtm_grow(cs->segs, &cs->cap, cs->nsegs, sizeof(*s), 256) : NULL;
	if (!s) {
		a->dropped++;
		return;
	}
	cs->segs = s;
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

/*
 * The real-time probe, preempted but runnable, gave the CPU to the idle task or a
 * task of lower priority (larger prio): only RT throttling does that (the rt_rq
 * throttled at kernel.sched_rt_runtime_us, or the fair server of 6.12+ running
 * SCHED_OTHER tasks in the RT tasks' stead).
 */
static bool throttled(const struct cpu_state *cs, int next_pid, int next_prio)
{
	if (!cs->active || cs->running || cs->probe_prio < 0 || cs->probe_prio >= 100)
		return false;
	return next_pid == 0 || next_prio > cs->probe_prio;
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
	if (ev->ts_ns > cs->last_ts)
		cs->last_ts = ev->ts_ns;
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
		if (is_self(a, ev->sw.prev_pid)) {
			/*
			 * Preempted, it still wants the CPU: active even when its switch-in
			 * came before it was known as a probe (named after its first run).
			 */
			cs->running = false;
			cs->probe_prio = ev->sw.prev_prio;
			cs->active = !asleep(ev->sw.prev_state);
		}
		if (is_self(a, ev->sw.next_pid))
			cs->active = cs->running = true;
		c = NO_CAUSE;
		if (throttled(cs, ev->sw.next_pid, ev->sw.next_prio))
			c = ev->sw.next_pid ? cause_of(a, K_THROTTLE, THROTTLE_FAIR, "fair", 0) :
					      cause_of(a, K_THROTTLE, THROTTLE_IDLE, "idle", 0);
		else if (ev->sw.next_pid > 0 && !is_self(a, ev->sw.next_pid))
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
	int kp;

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
	case K_THROTTLE:
		snprintf(buf, len, "%s", c->id == THROTTLE_IDLE ? "RT throttling (the CPU idle)" :
			 "RT throttling (SCHED_OTHER tasks ran: the fair server)");
		break;
	case K_NKINDS:
		buf[0] = '\0';
		break;
	case K_THREAD:
		/* the policy as /proc said when first seen; FIFO and RR look alike in the trace */
		kp = rtm_kpolicy_parse(c->policy, RTM_KPOLICY_UPPER);
		if (c->prio < 0)
			snprintf(buf, len, "thread %s pid %d (deadline)", c->name, c->id);
		else if (c->prio < 100 && (kp == SCHED_FIFO || kp == SCHED_RR))
			snprintf(buf, len, "thread %s pid %d (%s %d)", c->name, c->id,
				 rtm_kpolicy_str(kp, RTM_KPOLICY_LOWER),
				 rtm_task_user_prio(c->prio));
		else if (c->prio < 100)
			snprintf(buf, len, "thread %s pid %d (rt %d)", c->name, c->id,
				 rtm_task_user_prio(c->prio));
		else if (kp == SCHED_BATCH || kp == SCHED_IDLE)
			snprintf(buf, len, "thread %s pid %d (%s, nice %d)", c->name, c->id,
				 rtm_kpolicy_str(kp, RTM_KPOLICY_LOWER), c->prio - 120);
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


struct gap_out {
	uint32_t main;		/* cause, NO_CAUSE: unexplained */
	uint64_t main_ns, unexplained_ns;
};

/*
 * Lay one gap over the intervals: its shares (capped at its length) into @sh. The
 * slack reaches back only to @claimed, the end of what the gap before took: time
 * is given to one gap (two gaps a few us apart would both claim it otherwise).
 */
int rtm_noiseattr_gap_shares(const struct cpu_state *cs, uint64_t gs, uint64_t len, uint64_t tol,
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

/* 2: the tick's hard handler (x86's local timer vector, a timer IRQ); 1: its softirq. */
static int tick_rank(const struct cause *c)
{
	if (c->kind == K_VECTOR && !strcmp(c->name, "local_timer"))
		return 2;
	if (c->kind == K_IRQ && strstr(c->name, "timer"))	/* arch_timer, riscv-timer */
		return 2;
	if (c->kind == K_SOFTIRQ && (!strcmp(c->name, "TIMER") || !strcmp(c->name, "HRTIMER")))
		return 1;
	return 0;
}

uint64_t rtm_noiseattr_tick_rest(const struct rtm_noiseattr *a, struct share *sh, int n,
				 uint64_t len, uint64_t *explained)
{
	uint64_t rest = len > *explained ? len - *explained : 0;
	int i, best = -1, r, rbest = 0;

	if (!rest || rest > RTM_NOISEATTR_TICK_REST_MAX_NS)
		return 0;
	for (i = 0; i < n; i++) {
		r = tick_rank(&a->causes[sh[i].cause]);
		if (r > rbest) {
			rbest = r;
			best = i;
		}
	}
	if (best < 0)
		return 0;
	sh[best].ns += rest;
	*explained = len;
	return rest;
}

/* The slack of a gap @rel_ns after the run's start (lib/trace/noiseattr.h). */
uint64_t rtm_noiseattr_tolerance(uint64_t rel, uint64_t window)
{
	return RTM_NOISEATTR_TOL_BASE_NS + (window ? rel % window : rel) / 1000000ULL *
	       RTM_NOISEATTR_TOL_PPM;
}


/* What the hypervisor's steal time and the SMI counter say of the unexplained part. */
static const char *unexplained_reason(const struct rtm_noiseattr_env *env, char *buf,
				      size_t len)
{
	char s[16];

	if (env && env->steal_ns > 0)
		rtm_fmt_ns(s, sizeof(s), (uint64_t)env->steal_ns);
	if (env && env->smi_read && env->smis) {
		snprintf(buf, len, "no event; firmware: %llu SMIs on this CPU during the run "
			 "(MSR_SMI_COUNT)%s%s%s", (unsigned long long)env->smis,
			 env->steal_ns > 0 ? ", and the hypervisor reported " : "",
			 env->steal_ns > 0 ? s : "", env->steal_ns > 0 ? " of steal time" : "");
		return buf;
	}
	if (env && env->smi_read) {
		snprintf(buf, len, "no event; not firmware: no SMI on this CPU during the run "
			 "(MSR_SMI_COUNT); %s%s%s", env->steal_ns > 0 ?
			 "the hypervisor reported " : env->vm ? "the hypervisor (a VM)" :
			 "a cause not traced", env->steal_ns > 0 ? s : "",
			 env->steal_ns > 0 ? " of steal time" : "");
		return buf;
	}
	if (env && env->steal_ns > 0) {
		rtm_fmt_ns(s, sizeof(s), (uint64_t)env->steal_ns);
		snprintf(buf, len, "no event; the hypervisor reported %s of steal time on this "
			 "CPU during the run", s);
	} else if (env && env->vm) {
		snprintf(buf, len, "no event; a VM: hypervisor or SMI cannot be told apart");
	} else {
		snprintf(buf, len, "no event: firmware (SMI) or a cause not traced");
	}
	if (env && env->smi_why)
		snprintf(buf + strlen(buf), len - strlen(buf), "; SMIs unknown: %s", env->smi_why);
	return buf;
}

struct cpu_acc {
	uint64_t *ns;		/* per cause */
	uint64_t *gaps;		/* gaps it took time in */
	uint64_t *main_of;	/* gaps it was the main cause of */
	uint64_t class_ns[RTM_NOISE_NCLASSES], class_gaps[RTM_NOISE_NCLASSES];
	uint64_t tick_rest_ns;	/* untraced time given to the tick (rtm_noiseattr_tick_rest) */
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


/*
 * The most RT throttling of @cs in any one period (from a throttled interval's
 * start, sliding over the later ones). UINT64_MAX when out of memory.
 */
static uint64_t throttle_max(const struct rtm_noiseattr *a, const struct cpu_state *cs,
			     uint64_t period)
{
	uint64_t *pre, best = 0, sum, end;
	uint32_t *idx, n = 0, i, lo, hi, mid;

	pre = calloc((size_t)cs->nsegs + 1, sizeof(*pre));
	idx = calloc((size_t)cs->nsegs + 1, sizeof(*idx));
	if (!pre || !idx) {
		free(pre);
		free(idx);
		return UINT64_MAX;
	}
	for (i = 0; i < cs->nsegs; i++)
		if (a->causes[cs->segs[i].cause].kind == K_THROTTLE) {
			idx[n] = i;
			pre[n + 1] = pre[n] + cs->segs[i].end_ns - cs->segs[i].start_ns;
			n++;
		}
	for (i = 0; i < n; i++) {
		end = cs->segs[idx[i]].start_ns + period;
		/* the last throttled interval starting before @end */
		for (lo = i, hi = n; hi - lo > 1;) {
			mid = lo + (hi - lo) / 2;
			if (cs->segs[idx[mid]].start_ns < end)
				lo = mid;
			else
				hi = mid;
		}
		sum = pre[lo] - pre[i] + (cs->segs[idx[lo]].end_ns < end ?
			cs->segs[idx[lo]].end_ns : end) - cs->segs[idx[lo]].start_ns;
		if (sum > best)
			best = sum;
	}
	free(pre);
	free(idx);
	return best;
}

/* causes.rt_throttling: the throttled time against the kernel's setting. */
static json_t *throttle_json(const struct rtm_noiseattr *a, const struct cpu_state *cs)
{
	uint64_t period = a->rt_period_us > 0 ? (uint64_t)a->rt_period_us * 1000ULL : 0;
	uint64_t limit = 0, max;
	bool limited = period && a->rt_runtime_us >= 0 &&
		       (uint64_t)a->rt_runtime_us * 1000ULL < period;
	json_t *o;

	if (!period)
		return json_pack("{s:n, s:n, s:n, s:n, s:n, s:n}", "period_ns", "runtime_ns",
				 "limit_per_period_ns", "tick_ns", "max_per_period_ns",
				 "within_limit");
	if (limited)
		limit = period - (uint64_t)a->rt_runtime_us * 1000ULL;
	max = throttle_max(a, cs, period);
	o = json_pack("{s:I}", "period_ns", (json_int_t)period);
	json_object_set_new(o, "runtime_ns", a->rt_runtime_us >= 0 ?
			    json_integer(a->rt_runtime_us * 1000) : json_null());
	json_object_set_new(o, "limit_per_period_ns", limited ? json_integer((json_int_t)limit) :
			    json_null());
	json_object_set_new(o, "tick_ns", json_integer((json_int_t)a->tick_ns));
	json_object_set_new(o, "max_per_period_ns", max != UINT64_MAX ?
			    json_integer((json_int_t)max) : json_null());
	json_object_set_new(o, "within_limit", limited && max != UINT64_MAX ?
			    json_boolean(max <= limit + a->tick_ns) : json_null());
	return o;
}

static json_t *causes_json(const struct rtm_noiseattr *a, const struct cpu_acc *acc,
			   const uint32_t *order, uint32_t n, const char *reason,
			   const struct rtm_noiseattr_env *env)
{
	int64_t steal = env ? env->steal_ns : -1;
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
			      "class", class_names[rtm_noiseattr_kind_class[cs->kind]],
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
	json_object_set_new(o, "tick_rest_ns", json_integer((json_int_t)acc->tick_rest_ns));
	json_object_set_new(o, "steal_ns", steal >= 0 ? json_integer(steal) : json_null());
	json_object_set_new(o, "smis", env && env->smi_read ?
			    json_integer((json_int_t)env->smis) : json_null());
	if (env && !env->smi_read && env->smi_why)
		json_object_set_new(o, "smis_unknown", json_string(env->smi_why));
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
	char reason[384];
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
		tol = rtm_noiseattr_tolerance(rel, window);
		m = rtm_noiseattr_gap_shares(cs, start_mono + rel, len, tol, &claimed, sh, &explained);
		acc.tick_rest_ns += rtm_noiseattr_tick_rest(a, sh, m, len, &explained);
		out[j] = (struct gap_out){ NO_CAUSE, 0, len - explained };
		for (k = 0; k < m; k++) {
			acc.ns[sh[k].cause] += sh[k].ns;
			acc.gaps[sh[k].cause]++;
			acc.class_ns[rtm_noiseattr_kind_class[a->causes[sh[k].cause].kind]] += sh[k].ns;
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
			acc.class_gaps[rtm_noiseattr_kind_class[a->causes[out[j].main].kind]]++;
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
	gc = causes_json(a, &acc, order, n, unexplained_reason(env, reason, sizeof(reason)),
			 env);
	json_object_set_new(gc, "rt_throttling", throttle_json(a, cs));
	json_object_set_new(cpu, "causes", gc);
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

