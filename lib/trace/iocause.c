// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iocause.c - a cause for every deadline miss of the storage probe (iocause.h):
 * the events taken in time order into requests and CPU switches, each miss
 * split along its request and the tasks and requests in its way named.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "trace/iocause_priv.h"

/* Requests looked back at when an issue or a completion is matched to its request. */
#define MATCH_BACK	8192
/* A miss is judged once the trace was read this far past its end (commits in flight). */
#define SETTLE_NS	1000000ULL

const char *rtm_iocause_cause_name(enum rtm_iocause_cause c)
{
	static const char *const names[] = { "issue_late", "queued", "device", "wakeup",
					     "syscall", "untraced" };

	return (unsigned int)c < RTM_IOCAUSE_NCAUSES ? names[c] : NULL;
}

const char *rtm_iocause_part_key(enum rtm_iocause_part p)
{
	static const char *const keys[] = { "issue_late_ns", "submit_ns", "queued_ns",
					    "device_ns", "wakeup_ns", "return_ns" };

	return (unsigned int)p < RTM_IOPART_N ? keys[p] : NULL;
}

struct rtm_iocause *rtm_iocause_alloc(uint32_t dev, int cpu, uint64_t deadline_ns,
				      const char *proc_root)
{
	struct rtm_iocause *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->dev = dev;
	c->cpu = cpu;
	c->tid = -1;
	c->own_tid = -1;
	c->deadline_ns = deadline_ns;
	c->proc_root = proc_root ? strdup(proc_root) : NULL;
	if (proc_root && !c->proc_root) {
		free(c);
		return NULL;
	}
	return c;
}

void rtm_iocause_free(struct rtm_iocause *c)
{
	if (!c)
		return;
	free(c->proc_root);
	free(c->pend);
	free(c->req);
	free(c->sw);
	free(c->wk);
	free(c->miss);
	free(c->v);
	free(c->tally);
	free(c->at);
	free(c->tasks);
	free(c);
}

void rtm_iocause_follow(struct rtm_iocause *c, int tid)
{
	c->tid = tid;
}

void rtm_iocause_own(struct rtm_iocause *c, int tid)
{
	c->own_tid = tid;
}

void rtm_iocause_begin(struct rtm_iocause *c, uint64_t t_ns)
{
	c->since = t_ns;
}

void rtm_iocause_lost(struct rtm_iocause *c, uint64_t events)
{
	c->lost = events;
}

void rtm_iocause_not_listed(struct rtm_iocause *c, uint64_t n)
{
	c->not_listed = n;
}

/* ---------------------------------------------------------------- events in */

int rtm_iocause_event(const struct rtm_event *ev, void *ctx)
{
	struct rtm_iocause *c = ctx;
	struct ioc_ev *e, *np;

	switch (ev->type) {
	case RTM_EV_BLOCK_INSERT:
	case RTM_EV_BLOCK_ISSUE:
	case RTM_EV_BLOCK_COMPLETE:
		if (ev->blk.dev != c->dev)
			return 0;
		break;
	case RTM_EV_SCHED_SWITCH:
		if (ev->cpu != c->cpu)
			return 0;
		break;
	case RTM_EV_SCHED_WAKEUP:
		if (ev->wakeup.pid != c->tid)
			return 0;
		break;
	default:
		return 0;
	}
	np = rtm_grow(c->pend, &c->cap_pend, c->npend, sizeof(*c->pend), 1024);
	if (!np) {
		c->failed = true;
		return -ENOMEM;
	}
	c->pend = np;
	e = &c->pend[c->npend++];
	memset(e, 0, sizeof(*e));
	e->ts = ev->ts_ns;
	e->seq = c->seq++;
	e->type = ev->type;
	e->cpu = ev->cpu;
	e->pid = ev->pid;
	if (ev->type == RTM_EV_SCHED_SWITCH) {
		e->sw.next_pid = ev->sw.next_pid;
		e->sw.next_prio = ev->sw.next_prio;
		memcpy(e->sw.next_comm, ev->sw.next_comm, sizeof(e->sw.next_comm));
	} else if (ev->type == RTM_EV_SCHED_WAKEUP) {
		e->woken = ev->wakeup.pid;
	} else {
		e->b.sector = ev->blk.sector;
		e->b.dev = ev->blk.dev;
		e->b.nr = ev->blk.nr_sector;
		e->b.ioprio = ev->blk.ioprio;
		memcpy(e->b.rwbs, ev->blk.rwbs, sizeof(e->b.rwbs));
		memcpy(e->b.comm, ev->blk.comm, sizeof(e->b.comm));
	}
	return 0;
}

int rtm_iocause_add(struct rtm_iocause *c, const char *op, uint64_t planned_ns, uint64_t issue_ns,
		    uint64_t done_ns)
{
	struct ioc_miss *np = rtm_grow(c->miss, &c->cap_miss, c->nmiss, sizeof(*c->miss), 64);

	if (!np) {
		c->failed = true;
		return -ENOMEM;
	}
	c->miss = np;
	snprintf(np[c->nmiss].op, sizeof(np[c->nmiss].op), "%s", op);
	np[c->nmiss].planned = planned_ns;
	np[c->nmiss].issue = issue_ns < planned_ns ? planned_ns : issue_ns;
	np[c->nmiss].done = done_ns < np[c->nmiss].issue ? np[c->nmiss].issue : done_ns;
	c->nmiss++;
	return 0;
}

/* ---------------------------------------------------------------- requests */

static struct ioc_req *new_req(struct rtm_iocause *c, const struct ioc_ev *e)
{
	struct ioc_req *np = rtm_grow(c->req, &c->cap_req, c->nreq, sizeof(*c->req), 1024), *r;

	if (!np)
		return NULL;
	c->req = np;
	r = &c->req[c->nreq++];
	memset(r, 0, sizeof(*r));
	r->sector = e->b.sector;
	r->nr = e->b.nr;
	r->first = e->ts;
	r->pid = e->pid;
	r->ioprio = e->b.ioprio;
	r->probe = c->tid > 0 && e->pid == c->tid;
	c->probe_seen |= r->probe;
	memcpy(r->comm, e->b.comm, sizeof(r->comm));
	memcpy(r->rwbs, e->b.rwbs, sizeof(r->rwbs));
	return r;
}

/* The oldest request of @sector inserted and not issued (@issued false), or issued and open. */
static struct ioc_req *find_open(struct rtm_iocause *c, uint64_t sector, bool issued)
{
	struct ioc_req *found = NULL;
	size_t i, stop = c->nreq > MATCH_BACK ? c->nreq - MATCH_BACK : 0;

	for (i = c->nreq; i-- > stop;) {
		struct ioc_req *r = &c->req[i];

		if (r->sector != sector || r->complete)
			continue;
		if (issued ? r->issue != 0 : r->insert && !r->issue)
			found = r;
	}
	return found;
}

static int take_block(struct rtm_iocause *c, const struct ioc_ev *e)
{
	struct ioc_req *r;

	switch (e->type) {
	case RTM_EV_BLOCK_INSERT:
		r = new_req(c, e);
		if (!r)
			return -ENOMEM;
		r->insert = e->ts;
		return 0;
	case RTM_EV_BLOCK_ISSUE:
		r = find_open(c, e->b.sector, false);
		if (!r) {	/* issued directly, without the scheduler's queue */
			r = new_req(c, e);
			if (!r)
				return -ENOMEM;
		}
		r->issue = e->ts;
		if (r->nr < e->b.nr)	/* a merge grew it */
			r->nr = e->b.nr;
		return 0;
	default:
		r = find_open(c, e->b.sector, true);
		if (r)
			r->complete = e->ts;
		return 0;
	}
}

static int take(struct rtm_iocause *c, const struct ioc_ev *e)
{
	struct ioc_sw *sw;
	uint64_t *wk;

	if (e->type == RTM_EV_SCHED_WAKEUP) {
		wk = rtm_grow(c->wk, &c->cap_wk, c->nwk, sizeof(*c->wk), 256);
		if (!wk)
			return -ENOMEM;
		c->wk = wk;
		c->wk[c->nwk++] = e->ts;
		return 0;
	}
	if (e->type != RTM_EV_SCHED_SWITCH)
		return take_block(c, e);
	sw = rtm_grow(c->sw, &c->cap_sw, c->nsw, sizeof(*c->sw), 1024);
	if (!sw)
		return -ENOMEM;
	c->sw = sw;
	sw = &c->sw[c->nsw++];
	sw->ts = e->ts;
	sw->pid = e->sw.next_pid;
	sw->prio = e->sw.next_prio;
	memcpy(sw->comm, e->sw.next_comm, sizeof(sw->comm));
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct ioc_ev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Forget what is older than the horizon less RTM_IOCAUSE_KEEP_NS. */
static void prune(struct rtm_iocause *c)
{
	uint64_t cut;
	size_t i, k, first;

	if (c->horizon == UINT64_MAX || c->horizon < RTM_IOCAUSE_KEEP_NS)
		return;
	cut = c->horizon - RTM_IOCAUSE_KEEP_NS;
	for (i = k = 0; i < c->nreq; i++) {
		const struct ioc_req *r = &c->req[i];

		if (r->complete ? r->complete < cut : r->first < cut)
			continue;
		c->req[k++] = *r;
	}
	c->nreq = k;
	/* the switch before the cut tells who ran at it */
	for (first = 0; first + 1 < c->nsw && c->sw[first + 1].ts < cut; first++)
		;
	if (first)	/* never with a NULL array: nothing to move */
		memmove(c->sw, c->sw + first, (c->nsw - first) * sizeof(*c->sw));
	c->nsw -= first;
	for (first = 0; first < c->nwk && c->wk[first] < cut; first++)
		;
	if (first)
		memmove(c->wk, c->wk + first, (c->nwk - first) * sizeof(*c->wk));
	c->nwk -= first;
	if (c->since < cut)
		c->since = cut;
}

static int record(struct rtm_iocause *c, const struct rtm_iocause_verdict *v);

int rtm_iocause_advance(struct rtm_iocause *c, uint64_t horizon_ns)
{
	struct rtm_iocause_verdict v;
	size_t i, k, n = 0;
	int ret = 0;

	if (c->npend > 1)	/* none yet: the array may still be NULL */
		qsort(c->pend, c->npend, sizeof(*c->pend), by_time);
	while (n < c->npend && c->pend[n].ts < horizon_ns)
		n++;
	for (i = 0; i < n && !ret; i++)
		ret = take(c, &c->pend[i]);
	if (n)
		memmove(c->pend, c->pend + n, (c->npend - n) * sizeof(*c->pend));
	c->npend -= n;
	if (horizon_ns > c->horizon)
		c->horizon = horizon_ns;
	for (i = k = 0; i < c->nmiss && !ret; i++) {
		const struct ioc_miss *m = &c->miss[i];

		if (horizon_ns != UINT64_MAX && m->done + SETTLE_NS >= horizon_ns) {
			c->miss[k++] = *m;
			continue;
		}
		ret = ioc_judge(c, m, &v);
		if (!ret)
			ret = record(c, &v);
	}
	if (ret) {
		c->failed = true;
		return ret;
	}
	c->nmiss = k;
	prune(c);
	return 0;
}

/* ---------------------------------------------------------------- the tallies */

static int tally_cause(struct rtm_iocause *c, const struct rtm_iocause_verdict *v)
{
	struct ioc_tally *t;
	size_t i;

	for (i = 0; i < c->ntally; i++)
		if (c->tally[i].cause == v->cause && !strcmp(c->tally[i].culprit, v->culprit))
			break;
	if (i == c->ntally) {
		t = rtm_grow(c->tally, &c->cap_tally, c->ntally, sizeof(*t), 16);
		if (!t)
			return -ENOMEM;
		c->tally = t;
		t = &c->tally[c->ntally++];
		memset(t, 0, sizeof(*t));
		t->cause = v->cause;
		snprintf(t->culprit, sizeof(t->culprit), "%s", v->culprit);
	}
	t = &c->tally[i];
	t->count++;
	if (v->latency_ns > t->max_ns)
		t->max_ns = v->latency_ns;
	return 0;
}

static int tally_ahead(struct rtm_iocause *c, const struct rtm_iocause_ahead *a, uint64_t lat)
{
	struct ioc_atally *t;
	size_t i;

	for (i = 0; i < c->nat; i++)
		if (c->at[i].pid == a->pid && c->at[i].ioprio == a->ioprio &&
		    !strcmp(c->at[i].comm, a->comm) && !strcmp(c->at[i].rwbs, a->rwbs))
			break;
	if (i == c->nat) {
		t = rtm_grow(c->at, &c->cap_at, c->nat, sizeof(*t), 16);
		if (!t)
			return -ENOMEM;
		c->at = t;
		t = &c->at[c->nat++];
		memset(t, 0, sizeof(*t));
		memcpy(t->comm, a->comm, sizeof(t->comm));
		memcpy(t->rwbs, a->rwbs, sizeof(t->rwbs));
		t->pid = a->pid;
		t->ioprio = a->ioprio;
	}
	t = &c->at[i];
	t->misses++;
	t->queued += a->queued;
	t->in_flight += a->in_flight;
	if (lat > t->max_ns)
		t->max_ns = lat;
	return 0;
}

static int record(struct rtm_iocause *c, const struct rtm_iocause_verdict *v)
{
	struct rtm_iocause_verdict *np;
	int k;

	c->count++;
	c->by_cause[v->cause]++;
	for (k = 0; k < RTM_IOPART_N; k++)
		c->parts[k] += v->part_ns[k];
	if (tally_cause(c, v))
		return -ENOMEM;
	for (k = 0; k < v->nahead; k++)
		if (tally_ahead(c, &v->ahead[k], v->latency_ns))
			return -ENOMEM;
	if (c->nv == RTM_IOCAUSE_LIST_MAX) {
		c->list_truncated = true;
		return 0;
	}
	np = rtm_grow(c->v, &c->cap_v, c->nv, sizeof(*c->v), 64);
	if (!np)
		return -ENOMEM;
	c->v = np;
	c->v[c->nv++] = *v;
	return 0;
}

const struct rtm_iocause_verdict *rtm_iocause_verdicts(const struct rtm_iocause *c, size_t *n)
{
	*n = c->nv;
	return c->v;
}
