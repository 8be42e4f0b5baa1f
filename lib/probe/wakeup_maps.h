/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wakeup_maps.h - what the BPF programs of rtmeasure wakeup (wakeup.bpf.c)
 * and their loader (wakeup.c) share: the values of the maps and the limits.
 * Types from <linux/types.h> only, so both sides compile it.
 */
#ifndef RTM_WAKEUP_MAPS_H
#define RTM_WAKEUP_MAPS_H

#include <linux/types.h>

#define RTM_WK_COMM_LEN		16
/* CPUs the -a bitmap covers; a CPU above it is never selected */
#define RTM_WK_MAX_CPUS		4096

/* Which tasks are measured (rodata sel_mode). */
enum rtm_wk_sel {
	RTM_WK_SEL_POLICY,	/* tasks whose policy bit is in sel_policies */
	RTM_WK_SEL_PID,		/* the threads of process sel_pid, or thread sel_pid */
	RTM_WK_SEL_COMM,	/* threads named sel_comm */
};

/*
 * One CPU's figures, in the map "cpus" indexed by CPU number; written by the
 * programs on that CPU only (the switch-in of the woken task happens there).
 */
struct rtm_wk_cpu {
	__u64 count;		/* wake-ups measured */
	__u64 sum_ns;
	__u64 sum_sq_lo;	/* sum of squares, 128 bits */
	__u64 sum_sq_hi;
	__u64 min_ns;		/* meaningful when count > 0 */
	__u64 max_ns;
	__u64 saturated;	/* above the histogram's top */
	__u64 above;		/* above the --above bound (0: none) */
	/* the interval figures: slot epoch & 1 of the userspace epoch counter */
	__u64 ival_epoch[2];
	__u64 ival_count[2];
	__u64 ival_min_ns[2];
	__u64 ival_max_ns[2];
	__u64 lost_wakes;	/* wake-ups not recorded: the wake map was full */
	__u64 lost_tasks;	/* measured but not in the task map: it was full */
};

/* One task's figures, in the hash map "tasks" keyed by thread id. */
struct rtm_wk_task {
	__u64 count;
	__u64 sum_ns;
	__u64 max_ns;
	__u64 above;
	__u32 pid;		/* thread id */
	__u32 tgid;		/* process id */
	__s32 policy;		/* SCHED_* at the last measured wake-up */
	__s32 prio;		/* the kernel's prio then (0..98: RT, 99 - rt_priority) */
	__s32 max_cpu;		/* where the longest wait ended */
	__u32 pad;
	char comm[RTM_WK_COMM_LEN];
};

#endif
