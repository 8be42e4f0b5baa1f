/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * task.h - the tasks of /proc: listing them, their stat, schedstat and comm
 * files, the policy a task runs at, and the names of the scheduling policies
 * (SCHED_* numbers both ways).
 *
 * Every reader takes a root directory ("/" on the live system, a recorded tree
 * in tests), as core/fileio.h does.
 */
#ifndef RTM_TASK_H
#define RTM_TASK_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------ policy names */

#ifndef SCHED_EXT
#define SCHED_EXT	7	/* sched_ext (6.12), not yet in every libc */
#endif

/* The spellings of a policy, each where it is written. */
enum rtm_kpolicy_style {
	RTM_KPOLICY_LOWER,	/* "fifo": options, result.json, irq --accounting */
	RTM_KPOLICY_UPPER,	/* "FIFO": what the trace readers (rtholds, census) keep */
	RTM_KPOLICY_SCHED,	/* "SCHED_FIFO": the kernel's name, in messages */
};

/* The name of SCHED_* number @kpolicy in @style; NULL when it has none in that style. */
const char *rtm_kpolicy_str(int kpolicy, enum rtm_kpolicy_style style);

/* The SCHED_* number of @name written exactly in @style; -1 when none. */
int rtm_kpolicy_parse(const char *name, enum rtm_kpolicy_style style);

/* "fifo", "other", ... of a SCHED_* number; "policy N" (in @buf) for unknown ones. */
const char *rtm_kpolicy_name(int kpolicy, char *buf, size_t len);

/*
 * The user's view of a kernel prio (a trace's prio field): the "FIFO 90"-like
 * priority 99 - prio of a real-time one (below 100), 0 for DEADLINE (-1) and
 * the others.
 */
int rtm_task_user_prio(int kernel_prio);

/* ------------------------------------------------------------ stat files */

/* What rtmeasure reads of /proc/PID/task/TID/stat and schedstat. */
struct rtm_task_stat {
	int tid;
	int pid;			/* thread group (the process), from the path */
	char comm[64];			/* as /proc has it: kthreads' and kworkers' may pass 15 */
	char state;			/* 'R', 'S', ... */
	int pgrp;			/* process group */
	unsigned int flags;		/* PF_* */
	int nice;
	int cpu;			/* CPU it ran on last */
	int kpolicy;			/* SCHED_* number */
	int rt_priority;
	uint64_t utime_ticks, stime_ticks;	/* 1/USER_HZ s */
	bool has_schedstat;		/* CONFIG_SCHED_INFO */
	uint64_t sum_exec_ns, run_delay_ns, timeslices;
	uint64_t read_ns;		/* CLOCK_MONOTONIC just before the reads */
	uint64_t read_end_ns;		/* and just after: the values are of a time between */
};

/*
 * The parsers: 0 or -EINVAL. The command may hold blanks and ')': the fields
 * are counted from the last ')'. Only the fields above are set.
 */
int rtm_task_parse_stat(const char *buf, struct rtm_task_stat *t);
int rtm_task_parse_schedstat(const char *buf, struct rtm_task_stat *t);

/*
 * Read and parse /proc/@pid/task/@tid/stat (/proc/@pid/stat when @tid is 0);
 * 0, -EINVAL for a file that is not a stat line, or -errno of the read.
 */
int rtm_task_read_stat(const char *root, int pid, int tid, struct rtm_task_stat *t);
/* The same for schedstat (@t->has_schedstat set when read). */
int rtm_task_read_schedstat(const char *root, int pid, int tid, struct rtm_task_stat *t);

/* /proc/@pid/comm without its newline: its length or -errno, as rtm_read_small(). */
int rtm_task_read_comm(const char *root, int pid, char *buf, size_t len);

/*
 * /proc/@pid/task/@tid/comm, a thread's, the same way; @pid 0 is this process
 * (/proc/self).
 */
int rtm_task_read_thread_comm(const char *root, int pid, int tid, char *buf, size_t len);

/*
 * The SCHED_* policy of task @pid as /proc/@pid/stat has it, when its command
 * is still @comm (its first 15 characters, what a trace keeps): -1 when @root is NULL,
 * the task is gone or its pid went to another command.
 */
int rtm_task_policy(const char *root, int pid, const char *comm);

/* The same as an upper-case name ("FIFO"), or "unknown": what the trace readers keep. */
const char *rtm_task_policy_name(const char *root, int pid, const char *comm);

/* ------------------------------------------------------------ listing */

/* @s is a pid as /proc names its folders: decimal digits only, at least one. */
bool rtm_task_is_pid(const char *s);

/*
 * Every process of @root/proc: @fn(@pid, @arg) in directory order, until one
 * returns non-zero. Returns that value, 0, or -errno when @root/proc cannot be
 * listed.
 */
int rtm_task_each_process(const char *root, int (*fn)(int pid, void *arg), void *arg);

/*
 * Every thread of every process (/proc/PID/task/TID): @fn(@pid, @tid, @arg),
 * as above; a process that ends while being listed is skipped.
 */
int rtm_task_each_thread(const char *root, int (*fn)(int pid, int tid, void *arg), void *arg);

/*
 * The threads of process @pid (0: this process, /proc/self): @fn(@tid, @arg),
 * as above; -errno when its task directory cannot be listed (it has ended).
 */
int rtm_task_each_thread_of(const char *root, int pid, int (*fn)(int tid, void *arg), void *arg);

#endif
