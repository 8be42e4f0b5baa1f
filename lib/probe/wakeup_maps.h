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

/* Which tasks are measured (wakeup.bpf.c's sel_mode). */
enum rtm_wk_sel {
	RTM_WK_SEL_POLICY,	/* tasks whose policy bit is in sel_policies */
	RTM_WK_SEL_PID,		/* the threads of process sel_pid, or thread sel_pid */
	RTM_WK_SEL_COMM,	/* threads named sel_comm */
};

/*
 * The cause of a wait over the bound, decided in the kernel: the largest of
 * the longest other task's own time inside the wait, the hard interrupt
 * handlers' time, the softirq handlers' time and the rest (none of them).
 */
enum rtm_wk_cause {
	RTM_WK_CAUSE_THREAD,	/* another task held the CPU */
	RTM_WK_CAUSE_IRQ,	/* hard interrupt handlers (irq_handler_entry/exit) */
	RTM_WK_CAUSE_SOFTIRQ,	/* softirq handlers (softirq_entry/exit) */
	RTM_WK_CAUSE_WAKE_PATH,	/* none of them: the switch path, an idle exit, the host */
	RTM_WK_NCAUSES,
};

/* Cause records sent per CPU: a token bucket of this rate (per second) and burst. */
#define RTM_WK_CAUSE_RATE	100
#define RTM_WK_CAUSE_BURST	100

/* rtm_wk_cause_rec.flags */
#define RTM_WK_REMOTE		1	/* sched_wakeup ran on another CPU than the task's */
#define RTM_WK_MIGRATED		2	/* switched in on another CPU than woken on */

/*
 * One wait over the bound, through the ring buffer "causes". The times are
 * those inside the wait [wake_ns, wake_ns + lat_ns] on the CPU it ended on.
 */
struct rtm_wk_cause_rec {
	__u64 wake_ns;		/* CLOCK_MONOTONIC of the wake-up */
	__u64 lat_ns;		/* the wait */
	__u64 task_ns;		/* the longest other task's own time (less handlers) */
	__u64 irq_ns;		/* hard interrupt handlers' time */
	__u64 softirq_ns;	/* softirq handlers' time (less hard interrupts in them) */
	__u32 pid, tgid;	/* the task that waited */
	__s32 policy, prio;	/* its SCHED_* and kernel prio */
	__u32 cpu;		/* where the wait ended */
	__u32 target_cpu;	/* the task's CPU at its wake-up */
	__u32 waker_cpu;	/* the CPU that ran sched_wakeup */
	__u32 top_pid;		/* the longest other task; 0: none ran (or the idle task) */
	__s32 top_policy, top_prio;
	__u8 cause;		/* enum rtm_wk_cause */
	__u8 flags;		/* RTM_WK_REMOTE, RTM_WK_MIGRATED */
	__u16 pad;
	__u32 pad2;
	char comm[RTM_WK_COMM_LEN];
	char top_comm[RTM_WK_COMM_LEN];
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
	__u64 lost_wakes;	/* wake-ups lost: another waiting task took the slot */
	__u64 lost_tasks;	/* measured but not in the task map: it was full */
	__u64 causes_sent;	/* waits over the bound sent with their cause */
	__u64 causes_limited;	/* not sent: over the rate (RTM_WK_CAUSE_RATE) */
	__u64 causes_full;	/* not sent: the ring buffer was full */
	__u64 pad[3];		/* a whole number of cache lines: no line shared by two CPUs */
};

/* The longest run of another task on a CPU while a selected task waited there. */
struct rtm_wk_top {
	__u64 start_ns, end_ns;	/* end_ns 0: none */
	__u64 own_ns;		/* its own time in it, less the handlers' */
	__u32 pid;
	__s32 policy, prio;
	__u32 pad;
	char comm[RTM_WK_COMM_LEN];
};

/*
 * A pending wake-up, in the array "wakes" at the slot of a hash of the task's
 * address (which the tracepoints pass: no read of the task needed to find
 * it), kept to tell the slot's owner; wake_ns 0 is an empty slot.
 */
struct rtm_wk_wake {
	__u64 task;		/* the task_struct's address */
	__u64 wake_ns;
	__u64 irq0_ns;		/* the target CPU's handler times then (rtm_wk_cstate) */
	__u64 softirq0_ns;
	__u32 pid;
	__u32 target_cpu;	/* the CPU it waits on: its CPU at the wake-up, then its migrations' */
	__u32 waker_cpu;
	__s32 policy, prio;	/* the task's at its wake-up: its switch-in reads nothing */
	__u32 woken_cpu;	/* its CPU at the wake-up */
	struct rtm_wk_top moved;	/* the longest on the CPUs it left while it waited */
};

/* Counters of a CPU's filter of pending wake-ups (struct rtm_wk_cstate), a power of two. */
#define RTM_WK_FILTER_BITS	6
#define RTM_WK_FILTER_LEN	(1u << RTM_WK_FILTER_BITS)

/*
 * What each CPU's programs keep, in the map "cstate" indexed by CPU number
 * (mapped to pages, so each CPU's entry starts on its own cache line): how
 * many selected tasks wait on it and which (a counting filter of them), the
 * handlers' time (counted only while one waits), the longest other task's
 * run. sched_switch reads nwait and returns while it is 0 (most of the time);
 * while one waits, it looks a task up in "wakes" (a line far away, one of many)
 * only when the task's counter in filter is not 0: most switches are of other
 * tasks. Written by that CPU's programs, and by a waker elsewhere (the stamp of
 * a task woken onto this CPU) and a migration (the stamp moves with its task):
 * the selection itself is in the programs' read-only data (wakeup.bpf.c).
 */
struct rtm_wk_cstate {
	__s64 nwait;		/* selected tasks woken onto this CPU, not yet run */
	__u64 since_ns;		/* when nwait last rose from 0 */
	__u32 filter[RTM_WK_FILTER_LEN];	/* per rtm_wk_filter_of() */
	__u64 irq_ns;		/* hard interrupt handlers' time, summed */
	__u64 softirq_ns;	/* softirq handlers' time (less hard interrupts), summed */
	__u64 irq_t0;		/* entry of the running handler; 0: none counted */
	__u64 softirq_t0;
	__u64 softirq_irq0;	/* irq_ns at softirq entry */
	__u64 curr_start_ns;	/* when the running task was switched in (while nwait) */
	__u64 curr_h0_ns;	/* irq_ns + softirq_ns then */
	__u64 curr_task;	/* that task (its address); 0: not known */
	struct rtm_wk_top top;	/* the longest run of another task since since_ns */
	__u64 idle_task;	/* this CPU's idle task, once seen: never a culprit */
	/* the cause records' token bucket: credit in ns, one record costs ns_per_cause */
	__u64 tb_credit_ns, tb_last_ns;
	__u64 pad[4];		/* a whole number of cache lines */
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

/* Each CPU's entry on lines of its own (the maps are mapped to pages: page-aligned). */
_Static_assert(sizeof(struct rtm_wk_cpu) % 64 == 0, "struct rtm_wk_cpu: whole cache lines");
_Static_assert(sizeof(struct rtm_wk_cstate) % 64 == 0, "struct rtm_wk_cstate: whole cache lines");

#endif
