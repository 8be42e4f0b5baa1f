// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wakeup_cause.c - the waits over the bound with their in-kernel cause: the
 * records tallied, written as sections.wakeup.census and said in sentences.
 * Memory only, allocated once: unit-tested on synthetic records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonutil.h"
#include "core/task.h"
#include "core/units.h"
#include "probe/wakeup_cause.h"

struct culprit {
	int cpu;
	unsigned int cause;
	char comm[RTM_WK_COMM_LEN];	/* thread: the task; else "" */
	int policy, prio;
	uint32_t pid;			/* the last one seen under this name */
	uint64_t count, max_culprit_ns, max_wait_ns;
};

struct rtm_wakeup_census {
	int ncpus;
	uint64_t above_ns;
	uint64_t count;
	uint64_t *by_cause;		/* ncpus * RTM_WK_NCAUSES */
	uint64_t *remote;		/* per CPU: woken from another CPU */
	uint64_t *other;		/* per CPU: waits of culprits past RTM_WAKEUP_CULPRITS */
	uint64_t *other_max;		/* and their largest culprit time */
	struct culprit *culprits;
	size_t nculprits;
	struct rtm_wk_cause_rec *list;
	size_t nlist;
};

static const char *const cause_names[RTM_WK_NCAUSES] = {
	[RTM_WK_CAUSE_THREAD] = "thread",
	[RTM_WK_CAUSE_IRQ] = "irq",
	[RTM_WK_CAUSE_SOFTIRQ] = "softirq",
	[RTM_WK_CAUSE_WAKE_PATH] = "wake_path",
};

const char *rtm_wakeup_cause_name(unsigned int cause)
{
	return cause < RTM_WK_NCAUSES ? cause_names[cause] : NULL;
}

void rtm_wakeup_sched_words(int policy, int prio, char *buf, size_t len)
{
	const char *name = rtm_kpolicy_str(policy, RTM_KPOLICY_UPPER);
	char other[24];

	if (!name) {
		snprintf(other, sizeof(other), "policy %d", policy);
		name = other;
	}
	if (policy == 1 || policy == 2)		/* FIFO, RR: rt_priority is 99 - prio */
		snprintf(buf, len, "%s %d", name, 99 - prio);
	else if (prio >= 100)			/* the fair classes: nice is prio - 120 */
		snprintf(buf, len, "%s nice %d", name, prio - 120);
	else
		snprintf(buf, len, "%s", name);
}

/* The comm of a record, which the kernel may leave without its NUL at 16. */
static void comm_of(const char *comm, char *buf)
{
	memcpy(buf, comm, RTM_WK_COMM_LEN);
	buf[RTM_WK_COMM_LEN] = '\0';
}

/* The time of the part that made @r's cause (the rest, for wake_path). */
static uint64_t culprit_ns(const struct rtm_wk_cause_rec *r)
{
	uint64_t known = r->task_ns + r->irq_ns + r->softirq_ns;

	switch (r->cause) {
	case RTM_WK_CAUSE_THREAD:
		return r->task_ns;
	case RTM_WK_CAUSE_IRQ:
		return r->irq_ns;
	case RTM_WK_CAUSE_SOFTIRQ:
		return r->softirq_ns;
	default:
		return r->lat_ns > known ? r->lat_ns - known : 0;
	}
}

/* "rtm-inject pid 3301 (FIFO 99, 2.85 ms)", or with @with_pid false "rtm-inject (FIFO 99" */
static int task_words(char *buf, size_t len, const char *comm, uint32_t pid, int policy,
		      int prio, bool with_pid)
{
	char c[RTM_WK_COMM_LEN + 1], sched[40];

	comm_of(comm, c);
	rtm_wakeup_sched_words(policy, prio, sched, sizeof(sched));
	if (with_pid)
		return snprintf(buf, len, "%s pid %u (%s", c, pid, sched);
	return snprintf(buf, len, "%s (%s", c, sched);
}

/* The cause's phrase: "behind X pid N (FIFO 99, 2.85 ms)", "in hard interrupt handlers (...)" */
static void put_cause(const struct rtm_wk_cause_rec *r, char *buf, size_t len, size_t *off)
{
	char t[16], who[64];

	rtm_fmt_ns(t, sizeof(t), culprit_ns(r));
	switch (r->cause) {
	case RTM_WK_CAUSE_THREAD:
		task_words(who, sizeof(who), r->top_comm, r->top_pid, r->top_policy, r->top_prio,
			   true);
		rtm_fmt_put(buf, len, off, "behind %s, %s)", who, t);
		break;
	case RTM_WK_CAUSE_IRQ:
		rtm_fmt_put(buf, len, off, "in hard interrupt handlers (%s)", t);
		break;
	case RTM_WK_CAUSE_SOFTIRQ:
		rtm_fmt_put(buf, len, off, "in softirq handlers (%s)", t);
		break;
	default:
		rtm_fmt_put(buf, len, off, "no task or handler in the way (%s unexplained)", t);
	}
}

void rtm_wakeup_cause_sentence(const struct rtm_wk_cause_rec *r, char *buf, size_t len)
{
	char lat[16], t[16], who[64];
	size_t off = 0;

	if (!len)
		return;
	buf[0] = '\0';
	task_words(who, sizeof(who), r->comm, r->pid, r->policy, r->prio, true);
	rtm_fmt_ns(lat, sizeof(lat), r->lat_ns);
	rtm_fmt_put(buf, len, &off, "%s) waited %s on CPU %u: ", who, lat, r->cpu);
	put_cause(r, buf, len, &off);
	rtm_fmt_put(buf, len, &off, ";");
	if (r->cause != RTM_WK_CAUSE_THREAD) {
		if (r->top_pid) {
			rtm_fmt_ns(t, sizeof(t), r->task_ns);
			task_words(who, sizeof(who), r->top_comm, r->top_pid, r->top_policy,
				   r->top_prio, true);
			rtm_fmt_put(buf, len, &off, " longest other task %s, %s),", who, t);
		} else {
			rtm_fmt_put(buf, len, &off, " no other task ran,");
		}
	}
	if (r->cause != RTM_WK_CAUSE_IRQ) {
		rtm_fmt_ns(t, sizeof(t), r->irq_ns);
		rtm_fmt_put(buf, len, &off, " hard interrupts %s%s", t,
		    r->cause != RTM_WK_CAUSE_SOFTIRQ ? "," : "");
	}
	if (r->cause != RTM_WK_CAUSE_SOFTIRQ) {
		rtm_fmt_ns(t, sizeof(t), r->softirq_ns);
		rtm_fmt_put(buf, len, &off, " softirqs %s", t);
	}
	if (r->flags & RTM_WK_REMOTE)
		rtm_fmt_put(buf, len, &off, "; woken from CPU %u", r->waker_cpu);
	if (r->flags & RTM_WK_MIGRATED)
		rtm_fmt_put(buf, len, &off, "; moved from CPU %u", r->target_cpu);
}

struct rtm_wakeup_census *rtm_wakeup_census_alloc(int ncpus, uint64_t above_ns)
{
	struct rtm_wakeup_census *c;

	if (ncpus <= 0 || ncpus > RTM_WK_MAX_CPUS) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->ncpus = ncpus;
	c->above_ns = above_ns;
	c->by_cause = calloc((size_t)ncpus * RTM_WK_NCAUSES, sizeof(*c->by_cause));
	c->remote = calloc((size_t)ncpus, sizeof(*c->remote));
	c->other = calloc((size_t)ncpus, sizeof(*c->other));
	c->other_max = calloc((size_t)ncpus, sizeof(*c->other_max));
	c->culprits = calloc(RTM_WAKEUP_CULPRITS, sizeof(*c->culprits));
	c->list = calloc(RTM_WAKEUP_CAUSE_LIST, sizeof(*c->list));
	if (!c->by_cause || !c->remote || !c->other || !c->other_max || !c->culprits ||
	    !c->list) {
		rtm_wakeup_census_free(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

void rtm_wakeup_census_free(struct rtm_wakeup_census *c)
{
	if (!c)
		return;
	free(c->by_cause);
	free(c->remote);
	free(c->other);
	free(c->other_max);
	free(c->culprits);
	free(c->list);
	free(c);
}

/* The culprit of @r on its CPU, a new one when there is room; NULL when not. */
static struct culprit *culprit_of(struct rtm_wakeup_census *c, const struct rtm_wk_cause_rec *r)
{
	bool task = r->cause == RTM_WK_CAUSE_THREAD;
	struct culprit *u;
	size_t i;

	for (i = 0; i < c->nculprits; i++) {
		u = &c->culprits[i];
		if (u->cpu == (int)r->cpu && u->cause == r->cause &&
		    (!task || (!strncmp(u->comm, r->top_comm, RTM_WK_COMM_LEN) &&
			       u->policy == r->top_policy && u->prio == r->top_prio)))
			return u;
	}
	if (c->nculprits == RTM_WAKEUP_CULPRITS)
		return NULL;
	u = &c->culprits[c->nculprits++];
	u->cpu = (int)r->cpu;
	u->cause = r->cause;
	if (task) {
		memcpy(u->comm, r->top_comm, RTM_WK_COMM_LEN);
		u->policy = r->top_policy;
		u->prio = r->top_prio;
	}
	return u;
}

void rtm_wakeup_census_add(struct rtm_wakeup_census *c, const struct rtm_wk_cause_rec *r)
{
	uint64_t part = culprit_ns(r);
	struct culprit *u;

	if ((int)r->cpu < 0 || (int)r->cpu >= c->ncpus || r->cause >= RTM_WK_NCAUSES)
		return;
	c->count++;
	c->by_cause[r->cpu * RTM_WK_NCAUSES + r->cause]++;
	if (r->flags & RTM_WK_REMOTE)
		c->remote[r->cpu]++;
	u = culprit_of(c, r);
	if (u) {
		u->count++;
		u->pid = r->top_pid;
		if (part > u->max_culprit_ns)
			u->max_culprit_ns = part;
		if (r->lat_ns > u->max_wait_ns)
			u->max_wait_ns = r->lat_ns;
	} else {
		c->other[r->cpu]++;
		if (part > c->other_max[r->cpu])
			c->other_max[r->cpu] = part;
	}
	if (c->nlist < RTM_WAKEUP_CAUSE_LIST)
		c->list[c->nlist++] = *r;
}

uint64_t rtm_wakeup_census_count(const struct rtm_wakeup_census *c)
{
	return c->count;
}

/* ------------------------------------------------------------------ JSON */

/* The words of a culprit: "rtm-inject (FIFO 99)", "hard interrupt handlers", ... */
static void culprit_words(const struct culprit *u, char *buf, size_t len)
{
	char c[RTM_WK_COMM_LEN + 1], sched[40];

	switch (u->cause) {
	case RTM_WK_CAUSE_THREAD:
		comm_of(u->comm, c);
		rtm_wakeup_sched_words(u->policy, u->prio, sched, sizeof(sched));
		snprintf(buf, len, "%s (%s)", c, sched);
		break;
	case RTM_WK_CAUSE_IRQ:
		snprintf(buf, len, "hard interrupt handlers");
		break;
	case RTM_WK_CAUSE_SOFTIRQ:
		snprintf(buf, len, "softirq handlers");
		break;
	default:
		snprintf(buf, len, "no task or handler");
	}
}

/* The user's priority: rt_priority of FIFO and RR, nice of the fair classes, else 0. */
static int user_prio(int policy, int prio)
{
	if (policy == 1 || policy == 2)
		return 99 - prio;
	return prio >= 100 ? prio - 120 : 0;
}

static json_t *task_obj(const char *comm, uint32_t pid, int policy, int prio)
{
	char c[RTM_WK_COMM_LEN + 1], buf[32], sched[40];

	comm_of(comm, c);
	rtm_wakeup_sched_words(policy, prio, sched, sizeof(sched));
	return json_pack("{s:o, s:i, s:s, s:i, s:s}", "comm", rtm_json_textn(c, strlen(c)),
			 "pid", (int)pid, "policy", rtm_kpolicy_name(policy, buf, sizeof(buf)),
			 "priority", user_prio(policy, prio), "sched", sched);
}

static json_t *culprit_json(const struct culprit *u, uint64_t count, uint64_t max_culprit_ns,
			    uint64_t max_wait_ns)
{
	char words[96];
	json_t *o;

	culprit_words(u, words, sizeof(words));
	o = json_pack("{s:s, s:o, s:o, s:o, s:o}", "cause", rtm_wakeup_cause_name(u->cause),
		      "culprit", rtm_json_textn(words, strlen(words)), "count", rtm_json_u64(count),
		      "max_culprit_ns", rtm_json_u64(max_culprit_ns),
		      "max_wait_ns", rtm_json_u64(max_wait_ns));
	if (o && u->cause == RTM_WK_CAUSE_THREAD)
		json_object_set_new(o, "task", task_obj(u->comm, u->pid, u->policy, u->prio));
	return o;
}

static bool same_culprit(const struct culprit *a, const struct culprit *b)
{
	return a->cause == b->cause && (a->cause != RTM_WK_CAUSE_THREAD ||
		(!strncmp(a->comm, b->comm, RTM_WK_COMM_LEN) && a->policy == b->policy &&
		 a->prio == b->prio));
}

/* Most waits first; equal counts by the larger culprit time. */
static int by_count(const void *a, const void *b)
{
	const json_t *x = *(const json_t *const *)a, *y = *(const json_t *const *)b;
	uint64_t cx = 0, cy = 0;

	rtm_json_get_u64(json_object_get(x, "count"), &cx);
	rtm_json_get_u64(json_object_get(y, "count"), &cy);
	if (cx != cy)
		return cx < cy ? 1 : -1;
	rtm_json_get_u64(json_object_get(x, "max_culprit_ns"), &cx);
	rtm_json_get_u64(json_object_get(y, "max_culprit_ns"), &cy);
	return cx < cy ? 1 : cx > cy ? -1 : 0;
}

static json_t *sorted(json_t *arr)
{
	size_t n = json_array_size(arr), i;
	json_t **v;

	if (n < 2)
		return arr;
	v = malloc(n * sizeof(*v));
	if (!v)
		return arr;
	for (i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(arr, i));
	qsort(v, n, sizeof(*v), by_count);
	json_array_clear(arr);
	for (i = 0; i < n; i++)
		json_array_append_new(arr, v[i]);
	free(v);
	return arr;
}

/* The culprits of every CPU, the same one on several CPUs summed. */
static json_t *all_culprits(const struct rtm_wakeup_census *c)
{
	json_t *all = json_array();
	size_t i, j;

	for (i = 0; all && i < c->nculprits; i++) {
		const struct culprit *u = &c->culprits[i];
		uint64_t n = 0, mc = 0, mw = 0;

		for (j = 0; j < i && !same_culprit(&c->culprits[j], u); j++)
			;
		if (j < i)
			continue;
		for (j = i; j < c->nculprits; j++) {
			const struct culprit *v = &c->culprits[j];

			if (!same_culprit(v, u))
				continue;
			n += v->count;
			mc = v->max_culprit_ns > mc ? v->max_culprit_ns : mc;
			mw = v->max_wait_ns > mw ? v->max_wait_ns : mw;
		}
		json_array_append_new(all, culprit_json(u, n, mc, mw));
	}
	return sorted(all);
}

static json_t *cpu_json(const struct rtm_wakeup_census *c, int cpu)
{
	json_t *bc = json_object(), *cl = json_array();
	uint64_t n = 0;
	size_t i;
	int k;

	for (k = 0; bc && k < RTM_WK_NCAUSES; k++) {
		json_object_set_new(bc, cause_names[k],
				    rtm_json_u64(c->by_cause[cpu * RTM_WK_NCAUSES + k]));
		n += c->by_cause[cpu * RTM_WK_NCAUSES + k];
	}
	for (i = 0; cl && i < c->nculprits; i++)
		if (c->culprits[i].cpu == cpu)
			json_array_append_new(cl, culprit_json(&c->culprits[i],
					      c->culprits[i].count, c->culprits[i].max_culprit_ns,
					      c->culprits[i].max_wait_ns));
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:o}", "cpu", cpu, "waits",
			 rtm_json_u64(n), "by_cause", bc, "remote", rtm_json_u64(c->remote[cpu]),
			 "culprits", sorted(cl), "other", rtm_json_u64(c->other[cpu]),
			 "other_max_ns", rtm_json_u64(c->other_max[cpu]));
}

static json_t *wait_json(const struct rtm_wk_cause_rec *r)
{
	char line[512], c[RTM_WK_COMM_LEN + 1], buf[32];
	json_t *o;

	comm_of(r->comm, c);
	rtm_wakeup_cause_sentence(r, line, sizeof(line));
	o = json_pack("{s:i, s:o, s:o, s:i, s:i, s:o, s:s, s:i, s:s, s:o, s:o, s:o, s:o, s:i, "
		      "s:i, s:b, s:b, s:o}",
		      "cpu", (int)r->cpu, "wake_mono_ns", rtm_json_u64(r->wake_ns),
		      "wait_ns", rtm_json_u64(r->lat_ns), "pid", (int)r->pid, "tgid", (int)r->tgid,
		      "comm", rtm_json_textn(c, strlen(c)),
		      "policy", rtm_kpolicy_name(r->policy, buf, sizeof(buf)),
		      "priority", user_prio(r->policy, r->prio),
		      "cause", rtm_wakeup_cause_name(r->cause),
		      "culprit_ns", rtm_json_u64(culprit_ns(r)),
		      "task_ns", rtm_json_u64(r->task_ns),
		      "irq_ns", rtm_json_u64(r->irq_ns), "softirq_ns", rtm_json_u64(r->softirq_ns),
		      "target_cpu", (int)r->target_cpu, "waker_cpu", (int)r->waker_cpu,
		      "remote", (r->flags & RTM_WK_REMOTE) != 0,
		      "migrated", (r->flags & RTM_WK_MIGRATED) != 0,
		      "sentence", rtm_json_textn(line, strlen(line)));
	if (o)
		json_object_set_new(o, "task", r->top_pid ? task_obj(r->top_comm, r->top_pid,
				    r->top_policy, r->top_prio) : json_null());
	return o;
}

json_t *rtm_wakeup_census_json(const struct rtm_wakeup_census *c, uint64_t limited,
			       uint64_t full)
{
	json_t *cpus = json_array(), *list = json_array();
	uint64_t remote = 0;
	size_t i;
	int cpu;

	for (cpu = 0; cpus && cpu < c->ncpus; cpu++) {
		remote += c->remote[cpu];
		for (i = 0; i < RTM_WK_NCAUSES; i++)
			if (c->by_cause[cpu * RTM_WK_NCAUSES + i])
				break;
		if (i < RTM_WK_NCAUSES)
			json_array_append_new(cpus, cpu_json(c, cpu));
	}
	for (i = 0; list && i < c->nlist; i++)
		json_array_append_new(list, wait_json(&c->list[i]));
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:b}",
			 "source", "the BPF programs' cause of each wait over the bound: the "
			 "longest other task on its CPU, hard and soft interrupt handlers' time",
			 "bound_ns", rtm_json_u64(c->above_ns), "waits", rtm_json_u64(c->count),
			 "remote", rtm_json_u64(remote), "causes", all_culprits(c), "cpus", cpus,
			 "list", list, "list_truncated", c->count > c->nlist,
			 "limited", rtm_json_u64(limited), "ring_full", rtm_json_u64(full),
			 "complete", !limited && !full);
}

/* -------------------------------------------------------------- sentences */

/* ": 20 behind rtm-inject (FIFO 99, 2.90 ms), 2 in ... (1.10 ms), 3 other" */
static void put_culprits(const json_t *arr, uint64_t other, int top, char *buf, size_t len,
			 size_t *off)
{
	uint64_t rest = other, k, t;
	const char *cause, *sched;
	const json_t *e, *task;
	char tm[16], cm[RTM_WK_COMM_LEN + 1];
	size_t i;

	json_array_foreach(arr, i, e) {
		k = t = 0;
		rtm_json_get_u64(json_object_get(e, "count"), &k);
		if ((int)i >= top) {
			rest += k;
			continue;
		}
		rtm_json_get_u64(json_object_get(e, "max_culprit_ns"), &t);
		rtm_fmt_ns(tm, sizeof(tm), t);
		cause = json_string_value(json_object_get(e, "cause"));
		task = json_object_get(e, "task");
		rtm_fmt_put(buf, len, off, "%s %llu ", i ? "," : ":", (unsigned long long)k);
		if (cause && !strcmp(cause, "thread") && task) {
			snprintf(cm, sizeof(cm), "%s",
				 json_string_value(json_object_get(task, "comm")) ?: "?");
			sched = json_string_value(json_object_get(task, "sched"));
			rtm_fmt_put(buf, len, off, "behind %s (%s, %s)", cm, sched ? sched : "?",
				    tm);
		} else if (cause && !strcmp(cause, "wake_path")) {
			rtm_fmt_put(buf, len, off, "with no task or handler in the way (%s)", tm);
		} else {
			rtm_fmt_put(buf, len, off, "in %s (%s)",
			    json_string_value(json_object_get(e, "culprit")) ?: "?", tm);
		}
	}
	if (rest)
		rtm_fmt_put(buf, len, off, "%s %llu other", json_array_size(arr) ? "," : ":",
		    (unsigned long long)rest);
}

static void sentence(const json_t *census, const json_t *counts, const json_t *culprits,
		     uint64_t other, const char *lead, char *buf, size_t len, int top)
{
	uint64_t n = 0, bound = 0, remote = 0;
	char b[16];
	size_t off = 0;

	if (!len)
		return;
	rtm_json_get_u64(json_object_get(counts, "waits"), &n);
	rtm_json_get_u64(json_object_get(counts, "remote"), &remote);
	rtm_json_get_u64(json_object_get(census, "bound_ns"), &bound);
	rtm_fmt_ns(b, sizeof(b), bound);
	buf[0] = '\0';
	if (!n) {
		rtm_fmt_put(buf, len, &off, "%sno wait over %s", lead, b);
		return;
	}
	rtm_fmt_put(buf, len, &off, "%s%llu wait%s over %s", lead, (unsigned long long)n,
	    n == 1 ? "" : "s", b);
	put_culprits(culprits, other, top, buf, len, &off);
	if (remote)
		rtm_fmt_put(buf, len, &off, "; %llu woken from another CPU",
			    (unsigned long long)remote);
}

void rtm_wakeup_census_sentence(const json_t *census, char *buf, size_t len, int top)
{
	uint64_t other = 0, k;
	const json_t *cpu;
	size_t i;

	json_array_foreach(json_object_get(census, "cpus"), i, cpu) {
		k = 0;
		rtm_json_get_u64(json_object_get(cpu, "other"), &k);
		other += k;
	}
	sentence(census, census, json_object_get(census, "causes"), other, "", buf, len, top);
}

void rtm_wakeup_census_cpu_sentence(const json_t *census, const json_t *cpu, char *buf,
				    size_t len, int top)
{
	uint64_t other = 0;
	char lead[24];

	rtm_json_get_u64(json_object_get(cpu, "other"), &other);
	snprintf(lead, sizeof(lead), "CPU %lld: ", json_integer_value(json_object_get(cpu, "cpu")));
	sentence(census, cpu, json_object_get(cpu, "culprits"), other, lead, buf, len, top);
}
