// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the guard's /proc reading (recorded stat lines in a copied
 * /proc tree, tests/data/guard), who held a CPU, protection rules.
 */
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "box/guard.h"
#include "../tap.h"

static char root[PATH_MAX];

static void put(const char *pid, const char *file, const char *data_file, const char *text)
{
	char path[PATH_MAX + 128], src[PATH_MAX], buf[4096];
	size_t n = 0;
	FILE *in, *out;

	snprintf(path, sizeof(path), "%s/proc/%s/task/%s", root, pid, pid);
	snprintf(buf, sizeof(buf), "mkdir -p '%s'", path);
	if (system(buf))
		exit(99);
	snprintf(path, sizeof(path), "%s/proc/%s/task/%s/%s", root, pid, pid, file);
	out = fopen(path, "w");
	if (!out)
		exit(99);
	if (data_file) {
		snprintf(src, sizeof(src), "%s/guard/%s", getenv("RTM_TESTDATA") ?: RTM_SRCDIR "/tests/data",
			 data_file);
		in = fopen(src, "r");
		if (!in)
			exit(99);
		n = fread(buf, 1, sizeof(buf), in);
		fclose(in);
		fwrite(buf, 1, n, out);
	} else {
		fputs(text, out);
	}
	fclose(out);
}

/* /proc/PID/task/TID/FILE with @text: a thread that is not its process's leader. */
static void put2(const char *pid, const char *tid, const char *file, const char *text)
{
	char path[PATH_MAX + 128], cmd[PATH_MAX + 160];
	FILE *out;

	snprintf(path, sizeof(path), "%s/proc/%s/task/%s", root, pid, tid);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	if (system(cmd))
		exit(99);
	snprintf(path, sizeof(path), "%s/proc/%s/task/%s/%s", root, pid, tid, file);
	out = fopen(path, "w");
	if (!out)
		exit(99);
	fputs(text, out);
	fclose(out);
}

static const struct rtm_guard_task *find(const struct rtm_guard_scan *s, pid_t tid)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->tasks[i].tid == tid)
			return &s->tasks[i];
	return NULL;
}

static void test_scan(void)
{
	struct rtm_error err = { "" };
	struct rtm_guard_scan s = { 0 }, before = { 0 };
	const struct rtm_guard_task *t;
	int idx[4], n;
	uint64_t ran[4];

	put("25502", "stat", "inject-fifo90.stat", NULL);
	put("25502", "schedstat", "inject-fifo90.schedstat", NULL);
	put("2", "stat", "kthreadd.stat", NULL);
	put("4242", "stat", "parens-constructed.stat", NULL);
	put("4242", "schedstat", NULL, "123000000 0 0\n");
	/* process "protme" (SCHED_OTHER leader) with a FIFO 50 thread "spinthr" */
	put("4300", "stat", NULL, "4300 (protme) S 1 4300 4300 0 -1 4194560 0 0 0 0 0 0 0 0 20 "
	    "0 2 0 100 0 0 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n");
	put2("4300", "4301", "stat", "4301 (spinthr) R 1 4300 4300 0 -1 4194560 0 0 0 0 9 0 0 0 "
	     "-51 0 2 0 101 0 0 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 50 1 0 0 0\n");
	ok(rtm_guard_scan_rt(root, &s, &err) == 0, "scan of a recorded /proc (%s)", err.msg);
	is_int(s.n, 3, "the three real-time threads (kthreadd and protme's leader are SCHED_OTHER)");
	t = find(&s, 4301);
	ok(t && !strcmp(t->comm, "spinthr") && !strcmp(t->pcomm, "protme") && t->pid == 4300,
	   "a thread carries its process's name (%s of %s)", t ? t->comm : "?",
	   t ? t->pcomm : "?");
	{
		struct rtm_guard_protect p;

		memset(&p, 0, sizeof(p));
		rtm_guard_protect_parse("protme", &p, &err);
		ok(t && rtm_guard_refusal(t, &p, 999) != NULL,
		   "--protect NAME protects the threads of process NAME");
	}
	t = find(&s, 25502);
	ok(t && !strcmp(t->comm, "rtm-inject") && t->policy == SCHED_FIFO && t->priority == 90 &&
	   t->cpu == 1 && t->state == 'R' && !t->kthread && t->pid == 25502,
	   "inject: SCHED_FIFO 90, running, last on CPU 1");
	ok(t && t->runtime_ns > 100000000, "inject: run time from schedstat (%llu ns)",
	   t ? (unsigned long long)t->runtime_ns : 0ULL);
	t = find(&s, 4242);
	ok(t && !strcmp(t->comm, "a (weird) name") && t->priority == 90 && t->cpu == 1,
	   "a command name with spaces and parentheses");
	ok(t && t->runtime_ns == 123000000, "its run time");

	/* who held CPU 1: the one that ran most since the baseline first */
	before.tasks = calloc(2, sizeof(*before.tasks));
	before.n = before.cap = 2;
	before.tasks[0] = *find(&s, 25502);
	before.tasks[0].runtime_ns -= 200000000;	/* ran 200 ms since */
	before.tasks[1] = *find(&s, 4242);
	before.tasks[1].runtime_ns -= 50000000;	/* ran 50 ms since */
	n = rtm_guard_holders(&before, &s, 1, 20000000, idx, ran, 4);
	ok(n == 2 && s.tasks[idx[0]].tid == 25502 && ran[0] == 200000000 &&
	   s.tasks[idx[1]].tid == 4242 && ran[1] == 50000000, "holders by run time");
	n = rtm_guard_holders(&before, &s, 1, 100000000, idx, ran, 4);
	ok(n == 1 && s.tasks[idx[0]].tid == 25502, "a holder needs its share of the stretch");
	n = rtm_guard_holders(&before, &s, 0, 0, idx, ran, 4);
	is_int(n, 0, "nobody held CPU 0");
	n = rtm_guard_holders(NULL, &s, 1, 0, idx, ran, 1);
	ok(n == 1 && s.tasks[idx[0]].tid == 25502, "no baseline: run time since start; max 1 kept");
	rtm_guard_scan_release(&before);
	rtm_guard_scan_release(&s);
	ok(rtm_guard_scan_rt("/nonexistent-root-for-test", &s, &err) < 0 && one_line(err.msg),
	   "a tree without /proc: an error (%s)", err.msg);
}

static void test_protect(void)
{
	struct rtm_error err = { "" };
	struct rtm_guard_protect p;
	struct rtm_guard_task t = { .pid = 300, .tid = 301, .comm = "spinner", .policy = SCHED_FIFO };

	memset(&p, 0, sizeof(p));
	ok(rtm_guard_protect_parse("1,sshd,4711", &p, &err) == 0 && p.npids == 2 &&
	   p.pids[1] == 4711 && p.ncomms == 1 && !strcmp(p.comms[0], "sshd"), "pids and names");
	memset(&p, 0, sizeof(p));
	ok(rtm_guard_protect_parse(",", &p, &err) < 0 && one_line(err.msg), "empty list refused");
	memset(&p, 0, sizeof(p));
	ok(rtm_guard_protect_parse("a-name-longer-than-15", &p, &err) < 0, "too long a name refused");

	memset(&p, 0, sizeof(p));
	ok(rtm_guard_refusal(&t, &p, 999) == NULL, "an RT user task may be acted on");
	t.kthread = true;
	ok(rtm_guard_refusal(&t, &p, 999) && strstr(rtm_guard_refusal(&t, &p, 999), "kernel"),
	   "never a kernel thread");
	t.kthread = false;
	ok(rtm_guard_refusal(&t, &p, 300) != NULL, "never the guard itself");
	t.pid = 1;
	ok(rtm_guard_refusal(&t, &p, 999) != NULL, "never PID 1");
	t.pid = 300;
	rtm_guard_protect_parse("spinner", &p, &err);
	ok(rtm_guard_refusal(&t, &p, 999) != NULL, "protected by name");
	memset(&p, 0, sizeof(p));
	rtm_guard_protect_parse("301", &p, &err);
	ok(rtm_guard_refusal(&t, &p, 999) != NULL, "protected by thread id");
}

int main(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(root, sizeof(root), "%s/rtm-test-guard.XXXXXX", getenv("TMPDIR") ?: "/tmp");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	test_scan();
	test_protect();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		diag("could not remove %s", root);
	return tap_done();
}
