// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iocause_judge.c - one miss of the storage probe split along its request
 * (iocause.h): the parts, the cause, the tasks that ran instead on the probe's
 * CPU and the requests of other tasks ahead of it on the device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/task.h"
#include "trace/iocause_priv.h"

/* The probe's clock and the trace clock are both CLOCK_MONOTONIC; reads differ by this much. */
#define SLACK_NS	20000ULL
/* Requests of other tasks looked back at before the probe's: one in flight longer is rare. */
#define AHEAD_BACK_NS	1000000000ULL
#define MAX_RAN		16
#define MAX_GROUPS	64

char *rtm_iocause_ioprio_str(int ioprio, char *buf, size_t len)
{
	int klass = (ioprio >> 13) & 7, level = ioprio & 7;

	if (ioprio < 0)
		snprintf(buf, len, "?");
	else if (klass == 1 || klass == 2)
		snprintf(buf, len, "%s:%d", klass == 1 ? "rt" : "be", level);
	else
		snprintf(buf, len, "%s", klass == 3 ? "idle" : klass ? "invalid" : "none");
	return buf;
}

/* A task's policy, looked up once per pid (the trace gives only its priority). */
static const char *task_policy(struct rtm_iocause *c, int pid, const char *comm)
{
	struct ioc_task *t;
	size_t i;

	for (i = 0; i < c->ntasks; i++)
		if (c->tasks[i].pid == pid && !strcmp(c->tasks[i].comm, comm))
			return c->tasks[i].policy;
	t = rtm_grow(c->tasks, &c->cap_tasks, c->ntasks, sizeof(*t), 16);
	if (!t)
		return "unknown";
	c->tasks = t;
	t = &c->tasks[c->ntasks++];
	t->pid = pid;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	snprintf(t->policy, sizeof(t->policy), "%s", rtm_task_policy_name(c->proc_root, pid, comm));
	return t->policy;
}

/* "cc1 pid 7 (OTHER nice 0)", "rtm-inject pid 9 (FIFO 99)", "this rtmeasure (...)". */
static void name_task(struct rtm_iocause *c, int pid, int prio, const char *comm, char *buf,
		      size_t len)
{
	const char *pol = task_policy(c, pid, comm);
	bool known = strcmp(pol, "unknown") != 0;
	char sched[32];

	if (prio < 100)
		snprintf(sched, sizeof(sched), "%s %d", known ? pol : "rt",
			 rtm_task_user_prio(prio));
	else
		snprintf(sched, sizeof(sched), "%s%snice %d", known ? pol : "", known ? " " : "",
			 prio - 120);
	if (pid == c->own_tid)
		snprintf(buf, len, "this rtmeasure (%s pid %d, %s)", comm, pid, sched);
	else
		snprintf(buf, len, "%s pid %d (%s)", comm, pid, sched);
}

/* The first switch of the CPU after @t (c->nsw when none). */
static size_t sw_after(const struct rtm_iocause *c, uint64_t t)
{
	size_t lo = 0, hi = c->nsw;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->sw[mid].ts <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The task other than the probe and the idle task that held the probe's CPU
 * longest in [@a, @b), named into @buf ("" when none); its time.
 */
static uint64_t longest_ran(struct rtm_iocause *c, uint64_t a, uint64_t b, char *buf, size_t len)
{
	struct { int pid, prio; const char *comm; uint64_t ns; } ran[MAX_RAN];
	size_t lo, j;
	int n = 0, k, best = -1;

	buf[0] = '\0';
	lo = sw_after(c, a);
	for (j = lo ? lo - 1 : 0; j < c->nsw && c->sw[j].ts < b; j++) {
		const struct ioc_sw *s = &c->sw[j];
		uint64_t from = s->ts > a ? s->ts : a;
		uint64_t to = j + 1 < c->nsw && c->sw[j + 1].ts < b ? c->sw[j + 1].ts : b;

		if (to <= from || s->pid == c->tid || s->pid == 0)
			continue;
		for (k = 0; k < n && ran[k].pid != s->pid; k++)
			;
		if (k == n) {
			if (n == MAX_RAN)
				continue;
			ran[n].pid = s->pid;
			ran[n].prio = s->prio;
			ran[n].comm = s->comm;
			ran[n++].ns = 0;
		}
		ran[k].ns += to - from;
	}
	for (k = 0; k < n; k++)
		if (best < 0 || ran[k].ns > ran[best].ns)
			best = k;
	if (best < 0)
		return 0;
	name_task(c, ran[best].pid, ran[best].prio, ran[best].comm, buf, len);
	return ran[best].ns;
}

/* The first request (by its first event) at or after @t. */
static size_t req_from(const struct rtm_iocause *c, uint64_t t)
{
	size_t lo = 0, hi = c->nreq;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->req[mid].first < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The probe's last request of the miss: begun inside it, the latest to complete. */
static const struct ioc_req *probe_req(const struct rtm_iocause *c, const struct ioc_miss *m)
{
	const struct ioc_req *best = NULL;
	size_t i;

	for (i = req_from(c, m->issue - SLACK_NS); i < c->nreq; i++) {
		const struct ioc_req *r = &c->req[i];

		if (r->first > m->done + SLACK_NS)
			break;
		if (!r->probe)
			continue;
		if (!best || (r->complete && r->complete <= m->done + SLACK_NS &&
			      (!best->complete || r->complete >= best->complete)))
			best = r;
	}
	return best;
}

static int by_ahead(const void *a, const void *b)
{
	const struct rtm_iocause_ahead *x = a, *y = b;
	uint32_t nx = x->queued + x->in_flight, ny = y->queued + y->in_flight;

	if (nx != ny)
		return nx < ny ? 1 : -1;
	return x->pid - y->pid;
}

/*
 * The requests of other tasks ahead of @r: issued before it and not completed
 * when it arrived; grouped by task, rwbs and class, the largest groups kept.
 */
static void find_ahead(const struct rtm_iocause *c, const struct ioc_req *r,
		       struct rtm_iocause_verdict *v)
{
	struct rtm_iocause_ahead g[MAX_GROUPS];
	uint64_t back = r->first > AHEAD_BACK_NS ? r->first - AHEAD_BACK_NS : 0;
	int n = 0, k;
	size_t i;

	for (i = req_from(c, back); i < c->nreq && c->req[i].first < r->issue; i++) {
		const struct ioc_req *x = &c->req[i];
		bool queued;

		if (x == r || x->probe || !x->issue || x->issue >= r->issue ||
		    (x->complete && x->complete <= r->first))
			continue;
		queued = x->issue >= r->first;
		v->queued += queued;
		v->in_flight += !queued;
		for (k = 0; k < n; k++)
			if (g[k].pid == x->pid && g[k].ioprio == x->ioprio &&
			    !strcmp(g[k].comm, x->comm) && !strcmp(g[k].rwbs, x->rwbs))
				break;
		if (k == n) {
			if (n == MAX_GROUPS)
				continue;
			memset(&g[n], 0, sizeof(g[n]));
			memcpy(g[n].comm, x->comm, sizeof(g[n].comm));
			memcpy(g[n].rwbs, x->rwbs, sizeof(g[n].rwbs));
			g[n].pid = x->pid;
			g[n++].ioprio = x->ioprio;
		}
		g[k].queued += queued;
		g[k].in_flight += !queued;
	}
	qsort(g, (size_t)n, sizeof(g[0]), by_ahead);
	v->nahead = n < RTM_IOCAUSE_AHEAD_MAX ? n : RTM_IOCAUSE_AHEAD_MAX;
	memcpy(v->ahead, g, (size_t)v->nahead * sizeof(g[0]));
}

static uint64_t clamp(uint64_t t, uint64_t lo, uint64_t hi)
{
	return t < lo ? lo : t > hi ? hi : t;
}

/* The probe's first switch-in at or after @t and before @end; @t when none (it never slept). */
static uint64_t switched_in(const struct rtm_iocause *c, uint64_t t, uint64_t end)
{
	size_t j = sw_after(c, t);

	if (j && c->sw[j - 1].ts == t)
		j--;
	for (; j < c->nsw && c->sw[j].ts <= end; j++)
		if (c->sw[j].pid == c->tid)
			return c->sw[j].ts;
	return t;
}

static uint64_t woken_after(const struct rtm_iocause *c, uint64_t t, uint64_t end)
{
	size_t lo = 0, hi = c->nwk;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->wk[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nwk && c->wk[lo] <= end ? c->wk[lo] - t : UINT64_MAX;
}

/* The parts along @r's times, each clamped into the miss so that they add up. */
static void split(struct rtm_iocause *c, const struct ioc_miss *m, const struct ioc_req *r,
		  struct rtm_iocause_verdict *v)
{
	uint64_t t2 = clamp(r->first, m->issue, m->done);
	uint64_t t3 = clamp(r->issue, t2, m->done);
	uint64_t t4 = clamp(r->complete, t3, m->done);
	uint64_t t5 = clamp(switched_in(c, r->complete, m->done), t4, m->done);

	v->part_ns[RTM_IOPART_SUBMIT] = t2 - m->issue;
	v->part_ns[RTM_IOPART_QUEUED] = t3 - t2;
	v->part_ns[RTM_IOPART_DEVICE] = t4 - t3;
	v->part_ns[RTM_IOPART_WAKEUP] = t5 - t4;
	v->part_ns[RTM_IOPART_RETURN] = m->done - t5;
	v->woken_ns = woken_after(c, r->complete, m->done);
	if (v->part_ns[RTM_IOPART_WAKEUP])
		longest_ran(c, t4, t5, v->wakeup_by, sizeof(v->wakeup_by));
	v->request = true;
	v->sector = r->sector;
	v->nr_sector = r->nr;
	v->ioprio = r->ioprio;
	memcpy(v->rwbs, r->rwbs, sizeof(v->rwbs));
	find_ahead(c, r, v);
}

/* The largest part is the cause; the submit and return paths are the system call's. */
static enum rtm_iocause_cause main_cause(const struct rtm_iocause_verdict *v)
{
	const uint64_t *p = v->part_ns;
	uint64_t share[RTM_IOCAUSE_UNTRACED] = {
		[RTM_IOCAUSE_ISSUE_LATE] = p[RTM_IOPART_ISSUE_LATE],
		[RTM_IOCAUSE_QUEUED] = p[RTM_IOPART_QUEUED],
		[RTM_IOCAUSE_DEVICE] = p[RTM_IOPART_DEVICE],
		[RTM_IOCAUSE_WAKEUP] = p[RTM_IOPART_WAKEUP],
		[RTM_IOCAUSE_SYSCALL] = p[RTM_IOPART_SUBMIT] + p[RTM_IOPART_RETURN],
	};
	int k, best = 0;

	for (k = 1; k < RTM_IOCAUSE_UNTRACED; k++)
		if (share[k] > share[best])
			best = k;
	return (enum rtm_iocause_cause)best;
}

/* "fio pid 812 (WS, be:4)": a requester in words. */
static void name_requester(const struct rtm_iocause_ahead *a, char *buf, size_t len)
{
	char prio[16];

	snprintf(buf, len, "%s pid %d (%s, %s)", a->comm[0] ? a->comm : "?", a->pid, a->rwbs,
		 rtm_iocause_ioprio_str(a->ioprio, prio, sizeof(prio)));
}

static void untraced(struct rtm_iocause_verdict *v, const char *why)
{
	v->cause = RTM_IOCAUSE_UNTRACED;
	snprintf(v->culprit, sizeof(v->culprit), "%s", why);
}

int ioc_judge(struct rtm_iocause *c, const struct ioc_miss *m, struct rtm_iocause_verdict *v)
{
	const struct ioc_req *r;

	memset(v, 0, sizeof(*v));
	snprintf(v->op, sizeof(v->op), "%s", m->op);
	v->planned_ns = m->planned;
	v->latency_ns = m->done - m->planned;
	v->woken_ns = UINT64_MAX;
	v->ioprio = -1;
	v->part_ns[RTM_IOPART_ISSUE_LATE] = m->issue - m->planned;
	if (v->part_ns[RTM_IOPART_ISSUE_LATE])
		longest_ran(c, m->planned, m->issue, v->issue_by, sizeof(v->issue_by));
	if (m->planned < c->since) {
		untraced(v, "before the trace's window");
		return 0;
	}
	r = probe_req(c, m);
	if (r && (!r->issue || !r->complete)) {
		untraced(v, "its request's issue or completion is not in the trace");
		return 0;
	}
	if (!r && (c->lost || !c->probe_seen)) {
		untraced(v, c->lost ? "its request is not in the trace (events lost)" :
			 "no request of the probe on this device in the trace");
		return 0;
	}
	/*
	 * A read or write with O_DIRECT of the probe's filled file always reaches
	 * the device: without its request in the trace (a request the trace
	 * cannot tell as the probe's), nothing can be said. Only an fsync with
	 * nothing to write may end without one.
	 */
	if (!r && strcmp(m->op, "fsync")) {
		untraced(v, "its request is not in the trace");
		return 0;
	}
	if (!r) {	/* no request of its own reached the device: the time was in the call */
		v->part_ns[RTM_IOPART_SUBMIT] = m->done - m->issue;
		v->cause = main_cause(v);
		snprintf(v->culprit, sizeof(v->culprit), "%s", v->cause == RTM_IOCAUSE_SYSCALL ?
			 "no request of its own" : v->issue_by[0] ? v->issue_by : "none");
		return 0;
	}
	split(c, m, r, v);
	v->cause = main_cause(v);
	switch (v->cause) {
	case RTM_IOCAUSE_ISSUE_LATE:
	case RTM_IOCAUSE_WAKEUP:
		snprintf(v->culprit, sizeof(v->culprit), "%s", v->cause == RTM_IOCAUSE_WAKEUP ?
			 v->wakeup_by : v->issue_by);
		break;
	case RTM_IOCAUSE_QUEUED:
	case RTM_IOCAUSE_DEVICE:
		if (v->nahead)
			name_requester(&v->ahead[0], v->culprit, sizeof(v->culprit));
		break;
	default:
		break;
	}
	if (!v->culprit[0])
		snprintf(v->culprit, sizeof(v->culprit), "none");
	return 0;
}
