/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * guard - find the real-time tasks that keep a CPU from everything else
 *
 * A runaway SCHED_FIFO/RR task can hold its CPU forever (RT throttling off, or
 * on a PREEMPT_RT box tuned for it). rtmeasure guard notices a starved CPU from
 * a per-CPU SCHED_OTHER canary that stops beating; this module names the tasks
 * that held the CPU meanwhile, from /proc (per-thread run time, policy,
 * priority, the CPU it last ran on), and says which of them may be acted on.
 */
#ifndef RTM_GUARD_H
#define RTM_GUARD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/error.h"

struct rtm_guard_task {
	pid_t pid;		/* the process (thread group) */
	pid_t tid;		/* the thread */
	char comm[32];		/* the thread's name */
	char pcomm[32];		/* its process's name (the thread group leader's) */
	int policy;		/* SCHED_FIFO, SCHED_RR, ... */
	int priority;		/* rt_priority */
	int cpu;		/* the CPU it last ran on */
	char state;		/* R, S, D, ... */
	bool kthread;		/* a kernel thread (PF_KTHREAD) */
	uint64_t runtime_ns;	/* time on a CPU since it started (schedstat) */
};

/* Every real-time thread (FIFO, RR, DEADLINE) under @root/proc; @root "/" is this box. */
struct rtm_guard_scan {
	struct rtm_guard_task *tasks;
	int n, cap;
};

int rtm_guard_scan_rt(const char *root, struct rtm_guard_scan *s, struct rtm_error *err);
void rtm_guard_scan_release(struct rtm_guard_scan *s);

/*
 * The threads of @now that held @cpu: real-time, last on @cpu, and given at
 * least @min_ns of CPU time since @before (a thread absent from @before counts
 * from 0). Fills @out (indexes into now->tasks, most CPU time first) and
 * their run times in @ran_ns; returns how many.
 */
int rtm_guard_holders(const struct rtm_guard_scan *before, const struct rtm_guard_scan *now,
		      int cpu, uint64_t min_ns, int *out, uint64_t *ran_ns, int max);

/* Protected tasks: pids and command names, from "--protect 1,sshd,4711". */
struct rtm_guard_protect {
	pid_t pids[64];
	int npids;
	char comms[32][16];
	int ncomms;
};

int rtm_guard_protect_parse(const char *list, struct rtm_guard_protect *p, struct rtm_error *err);

/*
 * Whether @t may be acted on: not a kernel thread, not @self's process, not
 * PID 1, not protected. Returns NULL when it may, or why not.
 */
const char *rtm_guard_refusal(const struct rtm_guard_task *t, const struct rtm_guard_protect *p,
			      pid_t self);

#endif
