// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the run locks in a private lock directory (no root). flock(2)
 * locks taken through two open() calls conflict inside one process too, so
 * "another run" is a second handle here, and "killed" is a handle whose
 * descriptor was closed without removing its file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/runlock.h"
#include "../tap.h"

static char dir[] = "/tmp/rtm-test-runlock.XXXXXX";

static int file_exists(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static void test_instances(void)
{
	struct rtm_error err = { "" };
	bool existed = true;
	int a, b, s;

	a = rtm_runlock_instance_take("rtmeasure-100", &existed, &err);
	ok(a >= 0, "take an instance name (%s)", err.msg);
	ok(!existed, "a new lock file");
	ok(file_exists("instance-rtmeasure-100.lock"), "its lock file exists while held");
	is_int(rtm_runlock_instance_take("rtmeasure-100", NULL, &err), -EBUSY,
	       "a live owner's name is busy for another process (PID namespace, PID reuse)");
	is_int(rtm_runlock_instance_stale("rtmeasure-100"), -EBUSY, "a live owner is not stale");
	is_int(rtm_runlock_instance_stale("rtmeasure-101"), -ENOENT,
	       "no lock file: owner unknown (older rtmeasure), not stale");

	close(a);	/* killed: the file stays, the lock is gone */
	s = rtm_runlock_instance_stale("rtmeasure-100");
	ok(s >= 0, "a killed owner's instance is stale");
	is_int(rtm_runlock_instance_take("rtmeasure-100", NULL, &err), -EBUSY,
	       "the name is busy while the stale instance is removed");
	rtm_runlock_instance_release("rtmeasure-100", s);
	ok(!file_exists("instance-rtmeasure-100.lock"), "removal takes the lock file with it");

	/* a reused PID finds the killed owner's file: existed tells it to clean up */
	a = rtm_runlock_instance_take("rtmeasure-200", NULL, &err);
	close(a);
	b = rtm_runlock_instance_take("rtmeasure-200", &existed, &err);
	ok(b >= 0 && existed, "the same name after a killed owner: taken, lock file existed");
	rtm_runlock_instance_release("rtmeasure-200", b);
	ok(!file_exists("instance-rtmeasure-200.lock"), "release removes the lock file");
}

static struct rtm_cpulist list(const char *s)
{
	struct rtm_cpulist l = { 0, NULL };

	rtm_cpulist_parse(s, &l, NULL);
	return l;
}

static void test_cpus(void)
{
	struct rtm_cpulist c01 = list("0-1"), c1 = list("1"), c2 = list("2"), shared;
	struct rtm_error err = { "" };
	struct rtm_cpulock *a, *b, *x;
	char text[64];
	long pid;

	a = rtm_cpulock_take(&c01, false, &err);
	ok(a != NULL, "first run takes CPUs 0-1 (%s)", err.msg);
	is_int(rtm_cpulock_shared(a, &shared, &pid), 0, "alone: nothing shared");
	rtm_cpulist_release(&shared);
	ok(!rtm_cpulock_poll(a), "no later run yet");

	b = rtm_cpulock_take(&c1, false, &err);
	ok(b != NULL, "a second run on CPU 1 goes on without --exclusive");
	is_int(rtm_cpulock_shared(b, &shared, &pid), 1, "it knows CPU 1 is shared");
	rtm_cpulist_format(&shared, text, sizeof(text));
	is_str(text, "1", "the shared CPU");
	is_int(pid, getpid(), "and names the other process");
	rtm_cpulist_release(&shared);
	ok(rtm_cpulock_poll(a), "the first run notices the later one");
	is_int(rtm_cpulock_shared(a, &shared, NULL), 1, "first run: one CPU shared");
	rtm_cpulist_format(&shared, text, sizeof(text));
	is_str(text, "1", "first run: CPU 1");
	rtm_cpulist_release(&shared);
	ok(!rtm_cpulock_poll(a), "noticed once");

	errno = 0;
	x = rtm_cpulock_take(&c1, true, &err);
	ok(x == NULL && errno == EBUSY, "--exclusive refuses a CPU another run measures");
	ok(strstr(err.msg, "CPU 1") && strstr(err.msg, "--exclusive"), "message: %s", err.msg);
	err.msg[0] = '\0';
	x = rtm_cpulock_take(&c2, true, &err);
	ok(x != NULL, "--exclusive on a free CPU (%s)", err.msg);
	errno = 0;
	ok(!rtm_cpulock_take(&c2, false, &err) && errno == EBUSY,
	   "an exclusive holder makes a later run refuse too: %s", err.msg);
	rtm_cpulock_release(x);

	rtm_cpulock_release(b);
	rtm_cpulock_release(a);	/* as if killed: only descriptors close */
	err.msg[0] = '\0';
	a = rtm_cpulock_take(&c01, true, &err);
	ok(a != NULL, "after the runs end (or are killed) the CPUs are free (%s)", err.msg);
	rtm_cpulock_release(a);
	rtm_cpulist_release(&c01);
	rtm_cpulist_release(&c1);
	rtm_cpulist_release(&c2);
}

static void test_bad_dir(void)
{
	struct rtm_cpulist c0 = list("0");
	struct rtm_error err = { "" };
	char file[600];
	int fd;

	snprintf(file, sizeof(file), "%s/not-a-dir", dir);
	fd = open(file, O_CREAT | O_WRONLY, 0600);
	close(fd);
	setenv("RTMEASURE_LOCK_DIR", file, 1);
	ok(!rtm_cpulock_take(&c0, false, &err) && strstr(err.msg, "not a directory"),
	   "a lock directory that is a file: %s", err.msg);
	ok(rtm_runlock_instance_take("rtmeasure-1", NULL, &err) < 0 &&
	   strstr(err.msg, "RTMEASURE_LOCK_DIR"), "instances too: %s", err.msg);
	unlink(file);
	rtm_cpulist_release(&c0);
}

int main(void)
{
	char cmd[600];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("RTMEASURE_LOCK_DIR", dir, 1);
	is_str(rtm_runlock_dir(), dir, "RTMEASURE_LOCK_DIR names the lock directory");
	test_instances();
	test_cpus();
	test_bad_dir();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return tap_done();
}
