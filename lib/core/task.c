// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * task.c - the tasks of /proc and the names of the scheduling policies (task.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/task.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

#define STAT_MAX	1024	/* a stat line: ~300 bytes, the command at most 64 */
#define KPRIO_RT_END	100	/* kernel prio below this: real-time (MAX_RT_PRIO) */
#define TRACE_COMM_MAX	15	/* the characters of a command a trace event keeps */

/* ------------------------------------------------------------ policy names */

/*
 * SCHED_EXT has no upper-case name: the trace readers' policies were written
 * before it and call it unknown, as they call every policy they do not know.
 */
static const struct {
	int kpolicy;
	const char *name[3];	/* by enum rtm_kpolicy_style */
} kpolicies[] = {
	{ SCHED_OTHER, { "other", "OTHER", "SCHED_OTHER" } },
	{ SCHED_FIFO, { "fifo", "FIFO", "SCHED_FIFO" } },
	{ SCHED_RR, { "rr", "RR", "SCHED_RR" } },
	{ SCHED_BATCH, { "batch", "BATCH", "SCHED_BATCH" } },
	{ SCHED_IDLE, { "idle", "IDLE", "SCHED_IDLE" } },
	{ SCHED_DEADLINE, { "deadline", "DEADLINE", "SCHED_DEADLINE" } },
	{ SCHED_EXT, { "ext", NULL, "SCHED_EXT" } },
};

#define NKPOLICIES (sizeof(kpolicies) / sizeof(kpolicies[0]))

const char *rtm_kpolicy_str(int kpolicy, enum rtm_kpolicy_style style)
{
	size_t i;

	if ((unsigned int)style > RTM_KPOLICY_SCHED)
		return NULL;
	for (i = 0; i < NKPOLICIES; i++)
		if (kpolicies[i].kpolicy == kpolicy)
			return kpolicies[i].name[style];
	return NULL;
}

int rtm_kpolicy_parse(const char *name, enum rtm_kpolicy_style style)
{
	size_t i;

	if (!name || (unsigned int)style > RTM_KPOLICY_SCHED)
		return -1;
	for (i = 0; i < NKPOLICIES; i++)
		if (kpolicies[i].name[style] && !strcmp(kpolicies[i].name[style], name))
			return kpolicies[i].kpolicy;
	return -1;
}

const char *rtm_kpolicy_name(int kpolicy, char *buf, size_t len)
{
	const char *s = rtm_kpolicy_str(kpolicy, RTM_KPOLICY_LOWER);

	if (s)
		return s;
	snprintf(buf, len, "policy %d", kpolicy);
	return buf;
}

int rtm_task_user_prio(int kernel_prio)
{
	if (kernel_prio < 0)
		return 0;			/* SCHED_DEADLINE */
	return kernel_prio < KPRIO_RT_END ? KPRIO_RT_END - 1 - kernel_prio : 0;
}

/* ------------------------------------------------------------ stat files */

/*
 * /proc/PID/task/TID/stat (proc(5)): "tid (comm) S ..."; fields counted from
 * the last ')': 3 state, 5 pgrp, 9 flags, 14 utime, 15 stime, 19 nice,
 * 39 processor, 40 rt_priority, 41 policy.
 */
int rtm_task_parse_stat(const char *buf, struct rtm_task_stat *t)
{
	const char *lp = strchr(buf, '('), *rp = strrchr(buf, ')'), *p;
	unsigned long long v;
	int field, n;
	bool neg;
	char *end;

	if (!lp || !rp || rp < lp || rp[1] != ' ')
		return -EINVAL;
	errno = 0;
	t->tid = (int)strtol(buf, &end, 10);
	if (errno || end == buf || t->tid < 0)
		return -EINVAL;
	snprintf(t->comm, sizeof(t->comm), "%.*s", (int)(rp - lp - 1), lp + 1);
	p = rp + 2;
	if (!*p || p[1] != ' ')
		return -EINVAL;
	t->state = *p;
	p += 2;
	for (field = 4; field <= 41; field++) {
		neg = *p == '-';	/* negative fields (nice, priority, ...) */
		if (neg)
			p++;
		if (sscanf(p, "%llu%n", &v, &n) != 1)
			return -EINVAL;
		p += n;
		if (*p == ' ')
			p++;
		else if (field < 41)
			return -EINVAL;
		switch (field) {
		case 5: t->pgrp = (int)v; break;
		case 9: t->flags = (unsigned int)v; break;
		case 14: t->utime_ticks = v; break;
		case 15: t->stime_ticks = v; break;
		case 19: t->nice = neg ? -(int)v : (int)v; break;
		case 39: t->cpu = (int)v; break;
		case 40: t->rt_priority = (int)v; break;
		case 41: t->kpolicy = (int)v; break;
		default: break;
		}
	}
	return 0;
}

/* schedstat: "sum_exec_runtime run_delay timeslices" (ns, ns, count) */
int rtm_task_parse_schedstat(const char *buf, struct rtm_task_stat *t)
{
	unsigned long long run, delay, slices;
	int n = 0;

	if (sscanf(buf, "%llu %llu %llu%n", &run, &delay, &slices, &n) != 3 ||
	    (buf[n] && buf[n] != '\n'))
		return -EINVAL;
	t->sum_exec_ns = run;
	t->run_delay_ns = delay;
	t->timeslices = slices;
	t->has_schedstat = true;
	return 0;
}

/* Read /proc/@pid/task/@tid/@file (/proc/@pid/@file when @tid is 0). */
static int read_task_file(const char *root, int pid, int tid, const char *file, char *buf,
			  size_t len)
{
	if (tid)
		return rtm_read_smallf(root, buf, len, "/proc/%d/task/%d/%s", pid, tid, file);
	return rtm_read_smallf(root, buf, len, "/proc/%d/%s", pid, file);
}

int rtm_task_read_stat(const char *root, int pid, int tid, struct rtm_task_stat *t)
{
	char buf[STAT_MAX];
	int ret = read_task_file(root, pid, tid, "stat", buf, sizeof(buf));

	return ret < 0 ? ret : rtm_task_parse_stat(buf, t);
}

int rtm_task_read_schedstat(const char *root, int pid, int tid, struct rtm_task_stat *t)
{
	char buf[256];
	int ret = read_task_file(root, pid, tid, "schedstat", buf, sizeof(buf));

	return ret < 0 ? ret : rtm_task_parse_schedstat(buf, t);
}

int rtm_task_read_comm(const char *root, int pid, char *buf, size_t len)
{
	return read_task_file(root, pid, 0, "comm", buf, len);
}

/* "/proc/@pid/task" (/proc/self/task when @pid is 0) into @buf. */
static void task_dir(char *buf, size_t len, int pid)
{
	if (pid)
		snprintf(buf, len, "/proc/%d/task", pid);
	else
		snprintf(buf, len, "/proc/self/task");
}

int rtm_task_read_thread_comm(const char *root, int pid, int tid, char *buf, size_t len)
{
	char dir[64];

	task_dir(dir, sizeof(dir), pid);
	return rtm_read_smallf(root, buf, len, "%s/%d/comm", dir, tid);
}

int rtm_task_policy(const char *root, int pid, const char *comm)
{
	struct rtm_task_stat t;

	if (!root || pid <= 0 || rtm_task_read_stat(root, pid, 0, &t) ||
	    strncmp(t.comm, comm, TRACE_COMM_MAX))
		return -1;
	return t.kpolicy;
}

const char *rtm_task_policy_name(const char *root, int pid, const char *comm)
{
	const char *s = rtm_kpolicy_str(rtm_task_policy(root, pid, comm), RTM_KPOLICY_UPPER);

	return s ? s : "unknown";
}

/* ------------------------------------------------------------ listing */

bool rtm_task_is_pid(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/*
 * The numeric entries of @root/@rel: @fn(number, @arg) until one returns
 * non-zero; that value, or 0. *@list_err: 0, or -errno when the directory
 * could not be listed.
 */
static int each_number(const char *root, const char *rel, int (*fn)(int n, void *arg),
		       void *arg, int *list_err)
{
	char path[PATH_MAX];
	struct dirent *de;
	int ret = 0;
	DIR *d;

	*list_err = rtm_path(path, sizeof(path), root, rel);
	if (*list_err)
		return 0;
	d = opendir(path);
	if (!d) {
		*list_err = -errno;
		return 0;
	}
	while (!ret && (de = readdir(d)) != NULL)
		if (rtm_task_is_pid(de->d_name))
			ret = fn(atoi(de->d_name), arg);
	closedir(d);
	return ret;
}

int rtm_task_each_process(const char *root, int (*fn)(int pid, void *arg), void *arg)
{
	int list_err, ret = each_number(root, "/proc", fn, arg, &list_err);

	return list_err ? list_err : ret;
}

struct each_thread {
	const char *root;
	int (*fn)(int pid, int tid, void *arg);
	void *arg;
	int pid;
};

static int each_thread_of(int tid, void *arg)
{
	struct each_thread *e = arg;

	return e->fn(e->pid, tid, e->arg);
}

/* One process's threads; a process that ended meanwhile has none. */
static int each_process_thread(int pid, void *arg)
{
	struct each_thread *e = arg;
	char rel[64];
	int list_err;

	e->pid = pid;
	task_dir(rel, sizeof(rel), pid);
	return each_number(e->root, rel, each_thread_of, e, &list_err);
}

int rtm_task_each_thread(const char *root, int (*fn)(int pid, int tid, void *arg), void *arg)
{
	struct each_thread e = { .root = root, .fn = fn, .arg = arg };

	return rtm_task_each_process(root, each_process_thread, &e);
}

int rtm_task_each_thread_of(const char *root, int pid, int (*fn)(int tid, void *arg), void *arg)
{
	char rel[64];
	int list_err, ret;

	task_dir(rel, sizeof(rel), pid);
	ret = each_number(root, rel, fn, arg, &list_err);
	return list_err ? list_err : ret;
}
