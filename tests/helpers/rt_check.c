// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rt_check - live checks of lib/box/rt.c and lib/box/load.c for tests/integration/rt_load.sh.
 *
 *   rt_check [--cpu N]	(N defaults to 1)
 *
 * Applies SCHED_FIFO 95 to a thread and reads it back, pins it to CPU N, holds
 * /dev/cpu_dma_latency at 0 and reads it back, runs the cpu,vm and io,net loads
 * for a second each and checks their processes, their scheduling and that
 * everything is gone afterwards. Exit status: 0 pass, 1 fail, 77 skip.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/fileio.h"
#include "box/load.h"
#include "box/rt.h"

#define MAX_GROUPS 16

static int failures;

static void __attribute__((format(printf, 2, 3))) check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", cond ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		failures++;
}

static void __attribute__((noreturn)) skip(const char *why)
{
	printf("SKIP: %s\n", why);
	exit(77);
}

struct thread_check {
	int cpu;
	struct rtm_error err;
	int apply_ret, affinity_ret, get_ret;
	struct rtm_sched got;
	int getscheduler, param_prio, cpu_seen;
};

static void *rt_thread(void *arg)
{
	struct thread_check *tc = arg;
	struct rtm_sched s = { .policy = RTM_POLICY_FIFO, .priority = 95 };
	struct sched_param sp = { 0 };

	tc->affinity_ret = rtm_affinity_set(tc->cpu, &tc->err);
	tc->apply_ret = tc->affinity_ret ? -1 : rtm_sched_apply(&s, &tc->err);
	tc->get_ret = rtm_sched_get(0, &tc->got, &tc->err);
	tc->getscheduler = sched_getscheduler(0);
	tc->param_prio = sched_getparam(0, &sp) == 0 ? sp.sched_priority : -1;
	tc->cpu_seen = sched_getcpu();
	return NULL;
}

static int main_policy(void)
{
	struct rtm_sched s;

	if (rtm_sched_get(0, &s, NULL))
		return -1;
	return (int)s.policy;
}

static void check_rt(int cpu)
{
	struct rtm_sched fifo = { .policy = RTM_POLICY_FIFO, .priority = 95 };
	struct thread_check tc = { .cpu = cpu };
	struct rtm_error err = { "" };
	pthread_t t;
	int ret;

	ret = rtm_rt_privileges(&fifo, true, &err);
	check(ret == 0, "rtm_rt_privileges(FIFO 95, mlockall) as root (%s)", err.msg);
	check(main_policy() == RTM_POLICY_OTHER, "main thread still SCHED_OTHER after the check");

	if (pthread_create(&t, NULL, rt_thread, &tc) != 0) {
		check(0, "pthread_create");
		return;
	}
	pthread_join(t, NULL);
	check(tc.affinity_ret == 0 && tc.apply_ret == 0, "pin to CPU %d and apply FIFO 95 (%s)",
	      cpu, tc.err.msg);
	check(tc.get_ret == 0 && tc.got.policy == RTM_POLICY_FIFO && tc.got.priority == 95,
	      "sched_getattr reads back %s %d", rtm_policy_name(tc.got.policy), tc.got.priority);
	check(tc.getscheduler == SCHED_FIFO && tc.param_prio == 95,
	      "sched_getscheduler/sched_getparam read back policy %d priority %d",
	      tc.getscheduler, tc.param_prio);
	check(tc.cpu_seen == cpu, "sched_getcpu() is %d, want %d", tc.cpu_seen, cpu);
	check(main_policy() == RTM_POLICY_OTHER, "main thread unchanged by the RT thread");

	strcpy(err.msg, "");
	ret = rtm_affinity_set(RTM_MAX_CPUS - 1, &err);
	check(ret == -EINVAL && err.msg[0] && !strchr(err.msg, '\n'),
	      "pinning to an absent CPU fails with one line: %s", err.msg);
}

static int has_dma_fd(long pid)
{
	char path[64], link[PATH_MAX];
	struct dirent *de;
	int found = 0;
	ssize_t n;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%ld/fd", pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/%ld/fd/%s", pid, de->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			found |= strcmp(link, "/dev/cpu_dma_latency") == 0;
		}
	}
	closedir(d);
	return found;
}

/* Does any process but us hold /dev/cpu_dma_latency open? */
static bool other_dma_holders(void)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir("/proc");

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		long pid = strtol(de->d_name, NULL, 10);

		if (pid > 0 && pid != (long)getpid())
			found = has_dma_fd(pid);
	}
	closedir(d);
	return found;
}

static void check_dma(void)
{
	struct rtm_error err = { "" };
	int32_t before = -1, during = -1, after = -1;
	int fd, ret;

	if (rtm_dma_latency_current(&before, &err)) {
		check(0, "read /dev/cpu_dma_latency: %s", err.msg);
		return;
	}
	fd = rtm_dma_latency_hold(0, &err);
	check(fd >= 0, "hold cpu_dma_latency 0 (%s)", err.msg);
	if (fd < 0)
		return;
	ret = rtm_dma_latency_current(&during, &err);
	check(ret == 0 && during == 0, "cpu_dma_latency reads %d while held (was %d)", during,
	      before);
	rtm_dma_latency_release(fd);
	ret = rtm_dma_latency_current(&after, &err);
	check(!has_dma_fd((long)getpid()), "our cpu_dma_latency descriptor is closed");
	if (ret == 0 && after != before && other_dma_holders())
		printf("note: cpu_dma_latency went from %d to %d, other processes hold it\n",
		       before, after);
	else
		check(ret == 0 && after == before,
		      "cpu_dma_latency reads %d after release, as before", after);
	check(rtm_dma_latency_hold(-1, &err) == -EINVAL, "negative latency rejected: %s",
	      err.msg);
}

struct proc_info {
	long pid, ppid, pgrp;
	char state;
	char comm[64];
};

static int read_proc(long pid, struct proc_info *pi)
{
	char buf[1024], *l, *r;

	if (rtm_read_smallf("/", buf, sizeof(buf), "/proc/%ld/stat", pid) < 0)
		return -1;
	l = strchr(buf, '(');
	r = strrchr(buf, ')');
	if (!l || !r || r < l)
		return -1;
	snprintf(pi->comm, sizeof(pi->comm), "%.*s", (int)(r - l - 1), l + 1);
	pi->pid = pid;
	if (sscanf(r + 1, " %c %ld %ld", &pi->state, &pi->ppid, &pi->pgrp) != 3)
		return -1;
	return 0;
}

/* Process groups led by our children (the generators). */
static int load_groups(long *groups, int max)
{
	struct proc_info pi;
	struct dirent *de;
	int n = 0;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		long pid = strtol(de->d_name, NULL, 10);

		if (pid > 0 && read_proc(pid, &pi) == 0 && pi.ppid == getpid() && pi.pgrp == pid)
			groups[n++] = pid;
	}
	closedir(d);
	return n;
}

/*
 * Members of @groups whose comm starts with @prefix (all when NULL), zombies only
 * when @zombies; one member other than a leader in *@sample.
 */
static int count_members(const long *groups, int ngroups, const char *prefix, bool zombies,
			 long *sample)
{
	struct proc_info pi;
	struct dirent *de;
	int n = 0, i;
	DIR *d = opendir("/proc");

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		long pid = strtol(de->d_name, NULL, 10);

		if (pid <= 0 || read_proc(pid, &pi))
			continue;
		for (i = 0; i < ngroups; i++) {
			if (pi.pgrp != groups[i])
				continue;
			if (prefix && strncmp(pi.comm, prefix, strlen(prefix)) != 0)
				continue;
			if ((pi.state == 'Z') != zombies)
				continue;
			n++;
			if (!prefix && !zombies)
				printf("# left running: %ld %s state %c ppid %ld\n", pid, pi.comm,
				       pi.state, pi.ppid);
			if (sample && pid != groups[i])
				*sample = pid;
		}
	}
	closedir(d);
	return n;
}

static void check_load(unsigned int kinds, const char *name, int ncpus, const char *prefix,
		       int min_procs, const char *const *logs)
{
	struct rtm_sched fifo = { .policy = RTM_POLICY_FIFO, .priority = 10 };
	struct rtm_sched other = { .policy = RTM_POLICY_OTHER, .priority = 0 };
	struct rtm_error err = { "" };
	long groups[MAX_GROUPS], worker = 0;
	char dir[PATH_MAX], path[PATH_MAX + 32];
	struct rtm_load *l;
	cpu_set_t set, saved;
	int ngroups, n, i, dma_fd, leaked = 0, ret;
	struct timespec t0, t1;
	json_t *j;
	char *s;

	/* start from a pinned FIFO thread holding cpu_dma_latency: the children must
	 * not inherit any of it */
	CPU_ZERO(&saved);
	sched_getaffinity(0, sizeof(saved), &saved);
	dma_fd = rtm_dma_latency_hold(0, &err);
	if (rtm_affinity_set(0, &err) || rtm_sched_apply(&fifo, &err)) {
		check(0, "prepare the main thread: %s", err.msg);
		return;
	}
	l = rtm_load_start(kinds, ncpus, &err);
	rtm_sched_apply(&other, NULL);
	sched_setaffinity(0, sizeof(saved), &saved);
	check(l != NULL, "start the %s load (%s)", name, err.msg);
	if (!l) {
		rtm_dma_latency_release(dma_fd);
		return;
	}
	snprintf(dir, sizeof(dir), "%s", rtm_load_dir(l));
	check(dir[0] == '/' && access(dir, F_OK) == 0, "temporary directory %s exists", dir);
	for (i = 0; logs[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, logs[i]);
		check(access(path, F_OK) == 0, "log %s exists", path);
	}

	sleep(1);
	check(rtm_load_poll(l, &err) == 0, "%s load still runs after 1 s (%s)", name, err.msg);
	ngroups = load_groups(groups, MAX_GROUPS);
	n = count_members(groups, ngroups, prefix, false, &worker);
	check(ngroups == (int)__builtin_popcount(kinds) && n >= min_procs,
	      "%d process groups, %d %s processes running (want >= %d)", ngroups, n,
	      prefix[0] ? prefix : "load", min_procs);
	if (worker) {
		struct rtm_sched ws;

		check(rtm_sched_get((pid_t)worker, &ws, NULL) == 0 &&
		      ws.policy == RTM_POLICY_OTHER,
		      "worker %ld runs SCHED_OTHER (started from a FIFO thread)", worker);
		CPU_ZERO(&set);
		check(sched_getaffinity((pid_t)worker, sizeof(set), &set) == 0 &&
		      CPU_COUNT(&set) == ncpus,
		      "worker %ld may run on all %d CPUs (started from a pinned thread)", worker,
		      ncpus);
	}
	for (i = 0; i < ngroups; i++)
		leaked |= has_dma_fd(groups[i]);
	check(!leaked, "generators did not inherit the cpu_dma_latency descriptor");
	rtm_dma_latency_release(dma_fd);

	j = rtm_load_to_json(l);
	s = j ? json_dumps(j, JSON_COMPACT) : NULL;
	check(s && strstr(s, "\"commands\":[\"") != NULL, "JSON: %s", s ? s : "(null)");
	free(s);
	json_decref(j);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = rtm_load_stop(l);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	check(ret == 0, "stop the %s load (%.2f s)", name,
	      (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	n = count_members(groups, ngroups, NULL, false, NULL);
	check(n == 0, "no process left running in the load's groups (%d)", n);
	/* orphaned grandchildren are dead but reaped by PID 1, in its own time */
	for (i = 0; i < 40 && count_members(groups, ngroups, NULL, true, NULL) > 0; i++)
		usleep(50000);
	n = count_members(groups, ngroups, NULL, true, NULL);
	if (n)
		printf("note: %d orphaned zombie(s) of the load still wait for PID 1 to reap "
		       "them\n", n);
	check(access(dir, F_OK) != 0 && errno == ENOENT, "temporary directory %s removed", dir);
	check(rtm_load_dir(l)[0] == '\0', "no directory reported after stop");
	rtm_load_free(l);
	check(load_groups(groups, MAX_GROUPS) == 0, "no child of ours left");
}

int main(int argc, char **argv)
{
	static const char *const logs_cpu_vm[] = { "cpu.log", "vm.log", NULL };
	static const char *const logs_io_net[] = { "io.log", "net.log", NULL };
	int cpu = 1, ncpus;
	char path[64];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && strcmp(argv[1], "--cpu") == 0) {
		cpu = atoi(argv[2]);
	} else if (argc != 1) {
		fprintf(stderr, "usage: rt_check [--cpu N]\n");
		return 2;
	}
	if (geteuid() != 0)
		skip("needs root");
	ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	if (cpu >= ncpus && access(path, F_OK) != 0)
		skip("CPU to pin to is not present");
	if (access("/dev/cpu_dma_latency", F_OK) != 0)
		skip("/dev/cpu_dma_latency missing (kernel without CPU latency QoS)");

	check_rt(cpu);
	check_dma();
	check_load(RTM_LOAD_CPU | RTM_LOAD_VM, "cpu,vm", ncpus, "stress-ng", ncpus + 2,
		   logs_cpu_vm);
	check_load(RTM_LOAD_IO | RTM_LOAD_NET, "io,net", ncpus, "", 3, logs_io_net);

	if (failures) {
		printf("FAIL: %d check(s) failed\n", failures);
		return 1;
	}
	printf("PASS: RT set-up and load checks\n");
	return 0;
}
