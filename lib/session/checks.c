// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * checks.c - what a measurement checks before it starts: the CPUs
 * (online, in this process's cpuset, -t), --housekeeping, idle states,
 * privileges, and the other rtmeasure runs on the same CPUs (run locks).
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/runlock.h"
#include "core/units.h"
#include "result/disturb.h"
#include "session/session_priv.h"

/* ------------------------------------------------------------ checks */

/*
 * The online CPUs (sysfs), or the affinity mask where sysfs cannot be read.
 */
static int online_cpus(struct rtm_cpulist *online)
{
	char buf[4096];
	cpu_set_t set;
	int i;

	if (rtm_read_small(NULL, "/sys/devices/system/cpu/online", buf, sizeof(buf)) > 0 &&
	    rtm_cpulist_parse(buf, online, NULL) == 0)
		return 0;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	online->n = 0;
	online->cpus = calloc(CPU_SETSIZE, sizeof(int));
	if (!online->cpus)
		return -ENOMEM;
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			online->cpus[online->n++] = i;
	return 0;
}

/*
 * cyclictest's -t N: one thread per CPU here, so the first N measured CPUs; more
 * threads than CPUs cannot be placed one per CPU and are refused.
 */
static int check_threads(struct rtm_session_opts *m)
{
	char list[256];

	if (!m->box.threads || m->box.threads == (unsigned int)m->probe.cpus.n)
		return 0;
	if (m->box.threads > (unsigned int)m->probe.cpus.n) {
		rtm_cpulist_format(&m->probe.cpus, list, sizeof(list));
		return rtm_session_fail(m, "%s: -t %u: rtmeasure runs one thread per CPU and can "
					"measure %d CPU%s (%s); give -t %d or fewer, or more CPUs "
					"with -a", m->command, m->box.threads, m->probe.cpus.n,
					m->probe.cpus.n == 1 ? "" : "s", list, m->probe.cpus.n);
	}
	m->probe.cpus.n = (int)m->box.threads;
	return 0;
}

/* --housekeeping: online CPUs of this process's cpuset, as -a. */
static int check_housekeeping(struct rtm_session_opts *m, const struct rtm_cpulist *online,
			      const struct rtm_cpulist *usable)
{
	char list[256];
	int i, cpu;

	for (i = 0; i < m->box.housekeeping.n; i++) {
		cpu = m->box.housekeeping.cpus[i];
		if (!rtm_cpulist_has(online, cpu)) {
			rtm_cpulist_format(online, list, sizeof(list));
			return rtm_session_fail(m, "%s: --housekeeping: CPU %d is not online "
						"(online CPUs: %s)", m->command, cpu, list);
		}
		if (!rtm_cpulist_has(usable, cpu)) {
			rtm_cpulist_format(usable, list, sizeof(list));
			return rtm_session_fail(m, "%s: --housekeeping: CPU %d is outside this "
						"process's cpuset (cgroup), which allows CPUs %s",
						m->command, cpu, list);
		}
	}
	return 0;
}

/*
 * --deepest-idle-state N: the exit latency of idle state N of the first
 * measured CPU becomes the /dev/cpu_dma_latency target, so the kernel keeps
 * every CPU out of deeper states (cyclictest disables the deeper states of the
 * measured CPUs in sysfs; the PM QoS request needs no restoring and ends with
 * the process). -1: no idle state, the target 0.
 */
static int check_idle_state(struct rtm_session_opts *m)
{
	char buf[64];
	int64_t lat;
	int cpu, ret;

	if (m->box.deepest_idle < -1)
		return 0;
	if (m->box.deepest_idle == -1) {
		m->probe.dma_latency_us = 0;
		return 0;
	}
	cpu = m->probe.cpus.n ? m->probe.cpus.cpus[0] : 0;
	snprintf(buf, sizeof(buf), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency", cpu,
		 m->box.deepest_idle);
	ret = rtm_read_s64("/", buf, &lat);
	if (ret == -ENOENT && !rtm_exists("/", "/sys/devices/system/cpu/cpu0/cpuidle"))
		return rtm_session_fail(m, "%s: --deepest-idle-state %d: this box has no cpuidle "
					"states (/sys/devices/system/cpu/cpu0/cpuidle); leave it "
					"out", m->command, m->box.deepest_idle);
	if (ret < 0 || lat < 0 || lat > INT32_MAX)
		return rtm_session_fail(m, "%s: --deepest-idle-state %d: cannot read %s: %s (see "
					"the states in /sys/devices/system/cpu/cpu%d/cpuidle)",
					m->command, m->box.deepest_idle, buf,
					strerror(ret < 0 ? -ret : EINVAL), cpu);
	m->probe.dma_latency_us = (int32_t)lat;
	return 0;
}

/*
 * The measured CPUs: -a, or every online CPU a probe may be pinned to. That
 * is the process's cpuset, not its affinity mask, so CPUs isolated with
 * isolcpus= (left out of every process's inherited mask) are measured, and
 * taskset only places rtmeasure's own threads that do not measure.
 */
static int check_cpus(struct rtm_session_opts *m)
{
	struct rtm_cpulist online = { 0, NULL }, usable = { 0, NULL };
	struct rtm_error err = { "" };
	char list[256];
	int i, cpu, ret = 0;

	ret = online_cpus(&online);
	if (ret < 0)
		return rtm_session_fail(m, "%s: cannot read the online CPUs: %s", m->command,
					strerror(-ret));
	if (rtm_cpus_pinnable(&online, &usable, &err) < 0) {
		rtm_cpulist_release(&online);
		return rtm_session_fail(m, "%s: %s", m->command, err.msg);
	}
	ret = check_housekeeping(m, &online, &usable);
	if (!m->box.cpus_given && !ret) {
		m->probe.cpus = usable;	/* default: every CPU a probe may run on */
		usable.cpus = NULL;
	}
	for (i = 0; m->box.cpus_given && i < m->probe.cpus.n && !ret; i++) {
		cpu = m->probe.cpus.cpus[i];
		if (!rtm_cpulist_has(&online, cpu)) {
			rtm_cpulist_format(&online, list, sizeof(list));
			ret = rtm_session_fail(m, "%s: CPU %d is not online (online CPUs: %s); "
					       "pick others with -a", m->command, cpu, list);
		} else if (!rtm_cpulist_has(&usable, cpu)) {
			rtm_cpulist_format(&usable, list, sizeof(list));
			ret = rtm_session_fail(m, "%s: CPU %d is outside this process's cpuset "
					       "(cgroup), which allows CPUs %s; pick others with "
					       "-a or run rtmeasure in a cpuset that has it",
					       m->command, cpu, list);
		}
	}
	if (!m->probe.cpus.n && !ret)
		ret = rtm_session_fail(m, "%s: no CPU to measure: this process may not run on any "
				       "online CPU", m->command);
	if (!ret)
		ret = check_threads(m);
	rtm_cpulist_release(&online);
	rtm_cpulist_release(&usable);
	return ret;
}

static int check_privileges(struct rtm_session_opts *m)
{
	struct rtm_error err = { "" };
	int ret;

	if (m->box.no_rt) {
		m->probe.sched.policy = RTM_POLICY_OTHER;
		m->probe.sched.priority = 0;
		if (geteuid() != 0)
			m->probe.dma_latency_us = -1;	/* root-only device */
		if (geteuid() != 0 && m->probe.lock_memory) {
			struct rtm_sched other = { .policy = RTM_POLICY_OTHER };

			if (rtm_rt_privileges(&other, true, NULL))
				m->probe.lock_memory = false;
		}
		return 0;
	}
	if (m->probe.sched.policy == RTM_POLICY_OTHER)
		m->probe.sched.priority = 0;
	if (rtm_sched_validate(&m->probe.sched, &err))
		return rtm_session_fail(m, "%s: %s", m->command, err.msg);
	ret = rtm_rt_privileges(&m->probe.sched, m->probe.lock_memory, &err);
	/* a privilege missing: rtmeasure's own threads can measure without it, a tracer's not */
	if (ret == -EPERM && (m->ops == &rtm_probe_timer_ops || m->ops == &rtm_probe_noise_ops))
		return rtm_session_fail(m, "%s, or measure without RT with --no-rt", err.msg);
	if (ret)
		return rtm_session_fail(m, "%s", err.msg);
	if (m->probe.dma_latency_us >= 0 && access("/dev/cpu_dma_latency", W_OK) != 0 &&
	    errno != ENOENT)
		return rtm_session_fail(m, "cannot write /dev/cpu_dma_latency: %s (run as root, or "
					"--no-dma-latency)", strerror(errno));
	if (m->probe.dma_latency_us >= 0 && access("/dev/cpu_dma_latency", F_OK) != 0)
		m->probe.dma_latency_us = -1;	/* no PM QoS device: nothing to hold */
	return 0;
}

int rtm_session_prepare(struct rtm_session_opts *m)
{
	int ret;

	if ((ret = rtm_session_trace_check(m)) || (ret = check_cpus(m)) ||
	    (ret = check_idle_state(m)) || (ret = check_privileges(m)))
		return ret;
	return 0;
}

int rtm_session_housekeeping_apply(const struct rtm_session_opts *m)
{
	cpu_set_t set;
	int i;

	if (!m->box.housekeeping.n)
		return 0;
	CPU_ZERO(&set);
	for (i = 0; i < m->box.housekeeping.n; i++)
		if (m->box.housekeeping.cpus[i] < CPU_SETSIZE)
			CPU_SET(m->box.housekeeping.cpus[i], &set);
	/* this thread's mask; the threads started later inherit it, probes pin themselves */
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? -errno : 0;
}

/* ------------------------------------------------------------ other runs */

struct rtm_cpulock *rtm_session_cpus_lock(const struct rtm_session_opts *m, char *note, size_t len,
				      int *status)
{
	struct rtm_error err = { "" };
	struct rtm_cpulist shared;
	struct rtm_cpulock *l;
	char list[256];
	long pid = 0;

	note[0] = '\0';
	*status = 0;
	l = rtm_cpulock_take(&m->probe.cpus, m->box.exclusive, &err);
	if (!l && (errno == EBUSY || m->box.exclusive)) {
		*status = rtm_session_fail(m, "%s: %s", m->command, err.msg);
		return NULL;
	}
	if (!l) {
		snprintf(note, len, "cannot tell whether another rtmeasure measures these CPUs: %s",
			 err.msg);
		return NULL;
	}
	if (rtm_cpulock_shared(l, &shared, &pid)) {
		char who[48] = "";

		if (pid > 0)
			snprintf(who, sizeof(who), " (pid %ld)", pid);
		rtm_cpulist_format(&shared, list, sizeof(list));
		snprintf(note, len, "CPU%s %s %s measured by another rtmeasure%s too: each run's "
			 "probes disturb the other's numbers (--exclusive refuses instead)",
			 shared.n > 1 ? "s" : "", list, shared.n > 1 ? "are" : "is", who);
	}
	rtm_cpulist_release(&shared);
	return l;
}

bool rtm_session_cpus_poll(struct rtm_cpulock *l, double elapsed_s, char *note, size_t len)
{
	struct rtm_cpulist shared;
	char list[256];

	if (!l || !rtm_cpulock_poll(l))
		return false;
	rtm_cpulock_shared(l, &shared, NULL);
	rtm_cpulist_format(&shared, list, sizeof(list));
	snprintf(note, len, "another rtmeasure started measuring CPU%s %s at %.1f s: each run's "
		 "probes disturb the other's numbers", shared.n > 1 ? "s" : "", list, elapsed_s);
	rtm_cpulist_release(&shared);
	return true;
}

void rtm_session_cpus_note(const struct rtm_cpulock *l, struct rtm_result *r)
{
	struct rtm_cpulist shared;
	char list[256];
	long pid = 0;

	if (!l)
		return;
	if (rtm_cpulock_shared(l, &shared, &pid)) {
		rtm_cpulist_format(&shared, list, sizeof(list));
		json_object_set_new(r->sections, "shared_cpus", json_pack("{s:s, s:o}",
			"cpus", list,
			"other_pid", pid > 0 ? json_integer(pid) : json_null()));
	}
	rtm_cpulist_release(&shared);
}

void rtm_session_cpus_record(struct rtm_cpulock *l, struct rtm_result *r)
{
	if (!l)
		return;
	rtm_cpulock_poll(l);
	rtm_session_cpus_note(l, r);
}

bool rtm_session_cpus_line(const struct rtm_cpulock *l, char *buf, size_t len)
{
	struct rtm_cpulist shared;
	char list[256];
	long pid = 0;
	bool any = l && rtm_cpulock_shared(l, &shared, &pid);

	if (any) {
		rtm_cpulist_format(&shared, list, sizeof(list));
		rtm_disturb_shared_text(buf, len, list, pid, true);
	}
	if (l)
		rtm_cpulist_release(&shared);
	return any;
}
