// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * guard.c - the real-time threads that held a CPU, from /proc
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/fileio.h"
#include "core/task.h"
#include "box/guard.h"

#define PF_KTHREAD_FLAG	0x00200000u	/* include/linux/sched.h */

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

struct guard_read {
	struct rtm_guard_scan *s;
	const char *root;
	int err;			/* -ENOMEM */
};

static bool is_rt(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR || policy == SCHED_DEADLINE;
}

static int add(struct rtm_guard_scan *s, const struct rtm_guard_task *t)
{
	size_t cap = (size_t)s->cap;
	struct rtm_guard_task *nt = rtm_grow(s->tasks, &cap, (size_t)s->n, sizeof(*nt), 64);

	if (!nt)
		return -ENOMEM;
	s->tasks = nt;
	s->cap = (int)cap;	/* s->n is an int: never beyond INT_MAX */
	s->tasks[s->n++] = *t;
	return 0;
}

/* One thread: kept when real-time; a thread that ended meanwhile is skipped. */
static int scan_thread(int pid, int tid, void *arg)
{
	struct guard_read *r = arg;
	struct rtm_task_stat st;
	struct rtm_guard_task t;

	memset(&st, 0, sizeof(st));
	if (rtm_task_read_stat(r->root, pid, tid, &st) || !is_rt(st.kpolicy))
		return 0;
	memset(&t, 0, sizeof(t));
	t.pid = (pid_t)pid;
	t.tid = (pid_t)tid;
	snprintf(t.comm, sizeof(t.comm), "%s", st.comm);
	snprintf(t.pcomm, sizeof(t.pcomm), "%s", st.comm);
	t.policy = st.kpolicy;
	t.priority = st.rt_priority;
	t.cpu = st.cpu;
	t.state = st.state;
	t.kthread = (st.flags & PF_KTHREAD_FLAG) != 0;
	if (!rtm_task_read_schedstat(r->root, pid, tid, &st))
		t.runtime_ns = st.sum_exec_ns;
	/* a thread's process is named by its leader; a leader gone meanwhile leaves the thread's */
	memset(&st, 0, sizeof(st));
	if (tid != pid && !rtm_task_read_stat(r->root, pid, pid, &st))
		snprintf(t.pcomm, sizeof(t.pcomm), "%s", st.comm);
	return r->err = add(r->s, &t);
}

int rtm_guard_scan_rt(const char *root, struct rtm_guard_scan *s, struct rtm_error *err)
{
	struct guard_read r = { .s = s, .root = root };
	char path[PATH_MAX];
	int ret;

	s->n = 0;
	ret = rtm_task_each_thread(root, scan_thread, &r);
	if (r.err)
		return rtm_error_setn(err, r.err, "out of memory");
	if (ret) {
		if (rtm_path(path, sizeof(path), root, "/proc"))
			snprintf(path, sizeof(path), "%s/proc", root);
		return rtm_error_setn(err, ret, "cannot read %s: %s", path, strerror(-ret));
	}
	return 0;
}

void rtm_guard_scan_release(struct rtm_guard_scan *s)
{
	free(s->tasks);
	memset(s, 0, sizeof(*s));
}

static uint64_t runtime_before(const struct rtm_guard_scan *before, pid_t tid)
{
	int i;

	for (i = 0; before && i < before->n; i++)
		if (before->tasks[i].tid == tid)
			return before->tasks[i].runtime_ns;
	return 0;
}

int rtm_guard_holders(const struct rtm_guard_scan *before, const struct rtm_guard_scan *now,
		      int cpu, uint64_t min_ns, int *out, uint64_t *ran_ns, int max)
{
	int i, k, n = 0;

	for (i = 0; i < now->n; i++) {
		const struct rtm_guard_task *t = &now->tasks[i];
		uint64_t was = runtime_before(before, t->tid), ran;

		if (t->cpu != cpu || t->runtime_ns < was)
			continue;
		ran = t->runtime_ns - was;
		if (ran < min_ns)
			continue;
		/* insert by run time, most first; when full, only above the last */
		if (max <= 0 || (n == max && ran <= ran_ns[max - 1]))
			continue;
		for (k = n < max ? n : max - 1; k > 0 && ran_ns[k - 1] < ran; k--) {
			out[k] = out[k - 1];
			ran_ns[k] = ran_ns[k - 1];
		}
		out[k] = i;
		ran_ns[k] = ran;
		if (n < max)
			n++;
	}
	return n;
}

int rtm_guard_protect_parse(const char *list, struct rtm_guard_protect *p, struct rtm_error *err)
{
	char buf[1024], *tok, *save = NULL;

	if (snprintf(buf, sizeof(buf), "%s", list) >= (int)sizeof(buf))
		return rtm_error_set(err, "--protect: list too long");
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (rtm_task_is_pid(tok)) {
			if (p->npids == (int)(sizeof(p->pids) / sizeof(p->pids[0])))
				return rtm_error_set(err, "--protect: at most 64 pids");
			p->pids[p->npids++] = (pid_t)atoi(tok);
		} else {
			if (strlen(tok) >= sizeof(p->comms[0]))
				return rtm_error_set(err, "--protect: '%s' is longer than a command "
						     "name can be (15 characters)", tok);
			if (p->ncomms == (int)(sizeof(p->comms) / sizeof(p->comms[0])))
				return rtm_error_set(err, "--protect: at most 32 command names");
			snprintf(p->comms[p->ncomms++], sizeof(p->comms[0]), "%s", tok);
		}
	}
	if (!p->npids && !p->ncomms)
		return rtm_error_set(err, "--protect: give pids or command names, comma separated");
	return 0;
}

const char *rtm_guard_refusal(const struct rtm_guard_task *t, const struct rtm_guard_protect *p,
			      pid_t self)
{
	int i;

	if (t->kthread)
		return "a kernel thread";
	if (t->pid == 1)
		return "PID 1 (init)";
	if (t->pid == self)
		return "rtmeasure guard itself";
	for (i = 0; p && i < p->npids; i++)
		if (p->pids[i] == t->pid || p->pids[i] == t->tid)
			return "protected (--protect)";
	for (i = 0; p && i < p->ncomms; i++)
		if (!strcmp(p->comms[i], t->comm) || !strcmp(p->comms[i], t->pcomm))
			return "protected (--protect)";
	return NULL;
}
