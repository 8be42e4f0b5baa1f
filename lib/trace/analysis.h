/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analysis.h - explain one latency spike from the events around it.
 *
 * Splits the time from the planned wake-up to the actual one on CPU c into:
 *   timer delay     planned expiry -> hrtimer_expire_entry of the probe's timer
 *                   (interrupts disabled, hardware, hypervisor)
 *   wake-up         hrtimer -> sched_wakeup of the probe thread
 *   scheduling      wakeup -> the last sched_switch to the probe before it read
 *                   the clock (which tasks ran, with their policy, priority and
 *                   time; a probe preempted before the read waits on)
 *   return          switch -> the probe reads the clock
 * and lists every hard IRQ, interrupt vector and softirq in the window with its
 * time (a softirq's without the hard IRQs that interrupted it). Time no event explains is "unexplained (hardware, hypervisor or
 * untraced kernel code)". Works from the decoded events alone, so it runs on
 * saved captures as well.
 */
#ifndef RTM_ANALYSIS_H
#define RTM_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "tracefs/tracedec.h"

#define RTM_ANALYSIS_MAX_ITEMS 16

struct rtm_analysis_task {
	char comm[RTM_COMM_LEN];
	int pid;
	int prio;			/* kernel prio: < 100 RT (99 - prio), 120 + nice */
	uint64_t ran_ns;		/* time it ran while the probe waited */
	bool own;			/* a thread of the measuring process (rtm_analysis_own) */
};

struct rtm_analysis_irq {
	char what[48];			/* "IRQ 24 (virtio0)", "local_timer", "softirq TIMER" */
	unsigned int count;
	uint64_t total_ns;
};

struct rtm_analysis {
	int cpu;
	char preempt_model[16];		/* the kernel's: none, voluntary, full, lazy, rt, unknown */
	int probe_prio;			/* the probe's kernel prio from its wake-up, -1 unknown */
	int held_by;			/* index in tasks[] of a lower-priority task the kernel
					 * could not preempt for the probe, -1 none */
	uint64_t latency_ns;
	bool found_timer, found_wakeup, found_switch;
	uint64_t timer_delay_ns;	/* planned -> hrtimer entry */
	uint64_t wakeup_ns;		/* hrtimer entry -> sched_wakeup */
	uint64_t sched_delay_ns;	/* wakeup -> switch to the probe */
	uint64_t return_ns;		/* switch -> wake-up time read by the probe */
	uint64_t irq_ns;		/* hard IRQs, vectors, softirqs inside the window */
	uint64_t unexplained_ns;
	uint64_t largest_gap_ns;	/* longest stretch without any event in the window */
	int ntasks;
	struct rtm_analysis_task tasks[RTM_ANALYSIS_MAX_ITEMS];
	int nirqs;
	struct rtm_analysis_irq irqs[RTM_ANALYSIS_MAX_ITEMS];
	char own_name[24];		/* how the verdict names those ("this monitor") */
	char verdict[1024];
};

/**
 * rtm_analyze - explain one spike
 * @ev, @n: the CPU's events in time order (others are ignored)
 * @probe_comm: the probe thread's name ("rtm-probe/0")
 * @preempt_model: the kernel's preemption model ("none", "voluntary", "full",
 *                 "lazy", "rt"; NULL or anything else: unknown). It says why a
 *                 task of lower priority than the probe kept the CPU after the
 *                 probe woke (50 us or more of its own, outside interrupt
 *                 handlers, and at least a quarter of the scheduling delay):
 *                 no preemption point in kernel code (none, voluntary) or a
 *                 non-preemptible section (the others).
 */
void rtm_analyze(const struct rtm_event *ev, size_t n, int cpu, uint64_t planned_ns,
		 uint64_t woke_ns, const char *probe_comm, const char *preempt_model,
		 struct rtm_analysis *a);

/*
 * The tasks of @a whose pid is one of @tids (@n) are threads of the measuring
 * process (the command's drawing and draining, never the probe): still causes,
 * but the verdict names them "@name (comm, pid N, ...)" so that nobody takes the
 * tool for the system's load. The verdict is written again.
 */
void rtm_analysis_own(struct rtm_analysis *a, const int *tids, int n, const char *name);

json_t *rtm_analysis_to_json(const struct rtm_analysis *a);

#endif
