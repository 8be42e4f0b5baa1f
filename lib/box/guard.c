// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * guard.c - the real-time threads that held a CPU, from /proc
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/fileio.h"
#include "box/guard.h"

#define PF_KTHREAD_FLAG	0x00200000u	/* include/linux/sched.h */

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE	6
#endif

/*
 * One /proc/PID/task/TID/stat line. The command name sits in parentheses and
 * may hold spaces and parentheses itself: the fields start after the last ')'.
 */
static int parse_stat(const char *line, struct rtm_guard_task *t)
{
	const char *open = strchr(line, '('), *close = strrchr(line, ')');
	unsigned long long fields[40];
	char state;
	size_t len;
	int i = 0;
	const char *p;
	char *end;

	if (!open || !close || close < open || close[1] != ' ')
		return -EINVAL;
	len = (size_t)(close - open - 1);
	if (len >= sizeof(t->comm))
		len = sizeof(t->comm) - 1;
	memcpy(t->comm, open + 1, len);
	t->comm[len] = '\0';
	state = close[2];
	if (!state)
		return -EINVAL;
	/* fields 4.. (ppid onwards); field k is fields[k - 4]; some are negative */
	p = close + 3;
	while (i < 40) {
		long long v;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		v = strtoll(p, &end, 10);	/* a mask above LLONG_MAX saturates: unused */
		if (end == p)
			return -EINVAL;
		fields[i++] = (unsigned long long)v;
		p = end;
	}
	if (i < 38)	/* up to field 41, policy */
		return -EINVAL;
	t->state = state;
	t->kthread = (fields[9 - 4] & PF_KTHREAD_FLAG) != 0;
	t->cpu = (int)fields[39 - 4];
	t->priority = (int)fields[40 - 4];
	t->policy = (int)fields[41 - 4];
	return 0;
}

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

static bool number(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The threads of process @pid; threads that end meanwhile are skipped. */
static int scan_process(const char *root, const char *pid, struct rtm_guard_scan *s)
{
	char path[PATH_MAX], rel[64], buf[1024];
	struct rtm_guard_task t;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(rel, sizeof(rel), "/proc/%s/task", pid);
	if (rtm_path(path, sizeof(path), root, rel) || !(d = opendir(path)))
		return 0;
	while ((de = readdir(d))) {
		if (!number(de->d_name))
			continue;
		memset(&t, 0, sizeof(t));
		if (rtm_read_smallf(root, buf, sizeof(buf), "/proc/%s/task/%s/stat", pid,
				    de->d_name) < 0 || parse_stat(buf, &t) || !is_rt(t.policy))
			continue;
		t.pid = (pid_t)atoi(pid);
		t.tid = (pid_t)atoi(de->d_name);
		if (rtm_read_smallf(root, buf, sizeof(buf), "/proc/%s/task/%s/schedstat", pid,
				    de->d_name) >= 0)
			t.runtime_ns = strtoull(buf, NULL, 10);
		ret = add(s, &t);
		if (ret)
			break;
	}
	closedir(d);
	return ret;
}

int rtm_guard_scan_rt(const char *root, struct rtm_guard_scan *s, struct rtm_error *err)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	s->n = 0;
	if (rtm_path(path, sizeof(path), root, "/proc") || !(d = opendir(path)))
		return rtm_error_setn(err, -errno ? -errno : -ENOENT, "cannot read %s: %s", path,
				      strerror(errno));
	while ((de = readdir(d)) && !ret)
		if (number(de->d_name))
			ret = scan_process(root, de->d_name, s);
	closedir(d);
	if (ret)
		return rtm_error_setn(err, ret, "out of memory");
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
		if (number(tok)) {
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
		if (!strcmp(p->comms[i], t->comm))
			return "protected (--protect)";
	return NULL;
}
