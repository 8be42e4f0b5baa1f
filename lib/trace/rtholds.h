/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtholds.h - real-time tasks that held a CPU longer than a bound, from sched_switch.
 *
 * Fed the sched_switch events of each CPU in time order (rtm_rtholds_event()
 * is an rtm_event_cb), it follows which task is on each CPU and records every
 * interval in which one task stayed there, without a switch to another task,
 * for longer than the bound while it had a real-time priority (the kernel's
 * prio below 100 at its switch-in or its switch-out: SCHED_FIFO, SCHED_RR,
 * SCHED_DEADLINE, or a task boosted to one by priority inheritance).
 *
 * Excluded threads (rtmeasure's own probes, which preempt a task for a few
 * microseconds each period and sleep again) are transparent: a task they
 * preempt keeps holding the CPU, and they are never reported themselves.
 *
 * What the trace cannot tell is marked, never guessed: a task already on the
 * CPU when the trace began has an unknown start (its length is a lower bound),
 * a task still on the CPU when the trace ended is "open" (a lower bound too),
 * and a switch whose previous task is not the one the trace had on that CPU
 * (events lost, or a switch the kernel did not record) drops the interval it
 * would have ended, and that previous task counts from the switch, its start
 * unknown. The policy comes from
 * /proc under @root, read while the task holds the CPU beyond the bound (the
 * trace carries the priority, not the policy); "unknown" when it is gone.
 */
#ifndef RTM_RTHOLDS_H
#define RTM_RTHOLDS_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "core/task.h"
#include "tracefs/tracedec.h"

#define RTM_RTHOLD_DEFAULT_NS	(100ULL * 1000000ULL)	/* 100 ms */
#define RTM_RTHOLD_PRIO_NONE	INT32_MIN		/* a prio the trace did not show */
#define RTM_RTHOLD_MAX_INTERVALS 4096			/* kept one by one; tasks count all */

/* One interval over the bound. */
struct rtm_rthold_interval {
	int pid;			/* the thread, as sched_switch names it */
	char comm[RTM_COMM_LEN];
	int cpu;
	uint64_t start_ns, end_ns;	/* trace clock (CLOCK_MONOTONIC) */
	bool start_known;		/* false: on the CPU before the trace began */
	bool open;			/* true: still on the CPU when the trace ended */
	int prio_in, prio_out;		/* the kernel's prio at switch-in and -out, or
					 * RTM_RTHOLD_PRIO_NONE */
};

/* One task on one CPU: its intervals over the bound. */
struct rtm_rthold_task {
	int pid;
	char comm[RTM_COMM_LEN];
	int cpu;
	int prio;			/* the lowest kernel prio seen (<100: real-time) */
	char policy[12];		/* FIFO, RR, DEADLINE, OTHER, BATCH, IDLE, unknown */
	uint64_t intervals;
	uint64_t total_ns;
	uint64_t longest_ns;		/* a lower bound when longest_open or !longest_known */
	bool longest_open, longest_known;
};

struct rtm_rtholds;

/*
 * @ncpus: CPUs 0 .. ncpus-1 are followed; @bound_ns: an interval must be longer;
 * @root: where /proc is ("/" live, a recorded tree in tests), NULL: no look-ups
 * (every policy "unknown"). Tracing is taken to begin at 0 until rtm_rtholds_begin().
 */
struct rtm_rtholds *rtm_rtholds_alloc(int ncpus, uint64_t bound_ns, const char *root);
void rtm_rtholds_free(struct rtm_rtholds *h);

/* A thread that is never reported and does not end another's hold (a probe). */
int rtm_rtholds_exclude(struct rtm_rtholds *h, int tid);

/* Tracing (re)starts at @from_ns: what each CPU runs is unknown until its first switch. */
void rtm_rtholds_begin(struct rtm_rtholds *h, uint64_t from_ns);

/* Account one event (an rtm_event_cb; @ctx is the rtm_rtholds). Returns 0 or -ENOMEM. */
int rtm_rtholds_event(const struct rtm_event *ev, void *ctx);

/*
 * The time is @now_ns: the policy of a real-time task that has held its CPU
 * beyond the bound is read from /proc now, while it is still there.
 */
void rtm_rtholds_tick(struct rtm_rtholds *h, uint64_t now_ns);

/*
 * Tracing stopped at @to_ns: the tasks still on their CPUs are recorded as
 * open intervals (when over the bound) and every CPU becomes unknown again.
 */
int rtm_rtholds_end(struct rtm_rtholds *h, uint64_t to_ns);

uint64_t rtm_rtholds_bound_ns(const struct rtm_rtholds *h);
/* Tasks in the order first seen over the bound; valid until the next event. */
const struct rtm_rthold_task *rtm_rtholds_tasks(const struct rtm_rtholds *h, int *n);
/* The first RTM_RTHOLD_MAX_INTERVALS intervals; @dropped: those beyond (counted in tasks). */
const struct rtm_rthold_interval *rtm_rtholds_intervals(const struct rtm_rtholds *h, int *n,
							uint64_t *dropped);
/* Switches whose previous task was not the one on the CPU (lost events). */
uint64_t rtm_rtholds_inconsistent(const struct rtm_rtholds *h);
/*
 * Those of them that may hide or cut a real-time hold: the task they end or
 * start had a real-time priority, or the time since the CPU's last switch
 * (where the unseen switches lie) is over the bound. The others lie between
 * SCHED_OTHER tasks within the bound and cannot change the answer.
 */
uint64_t rtm_rtholds_uncertain(const struct rtm_rtholds *h);

/*
 * A task's scheduling for people, from its policy and lowest kernel prio: "FIFO 90",
 * "DEADLINE", "RT 90 (policy unknown)", "OTHER (RT 90 in the trace)".
 */
void rtm_rthold_fmt_sched(char *buf, size_t len, const char *policy, int kernel_prio);

/*
 * One line for a live display: the tasks so far and those on a CPU beyond the
 * bound at @now_ns ("rtm-inject 4321 FIFO 90 CPU 1 running 2.31 s"), or "none".
 */
void rtm_rtholds_line(const struct rtm_rtholds *h, uint64_t now_ns, char *buf, size_t len);

/*
 * result.json sections.rt_holds (docs/result-schema.md): bound_ns, from_ns,
 * to_ns, inconsistent, uncertain, tasks, intervals, intervals_dropped. The caller adds
 * cpus, excluded, trace_lost and complete.
 */
json_t *rtm_rtholds_to_json(const struct rtm_rtholds *h);

/* Validate a loaded sections.rt_holds; -EINVAL with a message naming @what. */
int rtm_rtholds_check(const json_t *sec, const char *what, struct rtm_error *err);

#endif
