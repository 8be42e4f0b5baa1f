/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * noiseattr.h - a cause for every noise gap (`rtmeasure noise --trace`).
 *
 * Fed each measured CPU's events in time order (an rtm_event_cb on the streaming
 * instance: irq_handler_entry/exit, softirq_entry/exit, irq_vectors *_entry/exit,
 * nmi_handler, sched_switch), it cuts the CPU's time into intervals, each owned by
 * the innermost thing running: an NMI, a hard IRQ (by number and name), a vector
 * (local_timer, reschedule, ...), a softirq (by name), or a thread other than the
 * noise probe's (by comm, pid and priority) while the probe was switched out, or RT
 * throttling: the real-time probe switched out still runnable and the CPU given to
 * the idle task or to a task of lower priority (the kernel's RT bandwidth limit, or
 * since 6.12 its fair server running SCHED_OTHER tasks; no lower task can take the
 * CPU from a runnable real-time one otherwise). Nested
 * handlers count once, to the innermost. Only the time while the probe thread wants
 * the CPU is kept (from its switch-in to its switch-out asleep), so memory follows
 * the gaps, not the run.
 *
 * rtm_noiseattr_apply() then lays each gap of sections.noise over those intervals:
 * the time each cause took inside the gap (widened by the clock tolerance, the sum
 * capped at the gap), the rest "unexplained", the main cause (largest share), and
 * per CPU the noise by cause class and the contributors.
 */
#ifndef RTM_NOISEATTR_H
#define RTM_NOISEATTR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "tracefs/tracedec.h"

/*
 * A gap's start is the window's CLOCK_MONOTONIC read plus TSC cycles converted at
 * the rate calibrated over 50 ms against CLOCK_MONOTONIC_RAW (lib/probe/probe_noise.c):
 * off by the calibration error and by NTP's slew of CLOCK_MONOTONIC, both growing
 * with the time since the window began. A gap is matched with this much slack on
 * each side: a base plus parts per million of its offset into the window.
 */
#define RTM_NOISEATTR_TOL_BASE_NS	5000ULL
#define RTM_NOISEATTR_TOL_PPM		100ULL

/*
 * The periodic tick inside a gap (the local timer vector, a timer IRQ, or the
 * TIMER/HRTIMER softirq it raised) is the gap's cause: the loop runs with
 * interrupts on, so the tick's entry and exit around its traced handler (and in
 * a VM the hypervisor's delivery of the timer) are time no tracepoint covers.
 * That untraced rest goes to the tick up to this much; a longer rest is
 * something else (a stall, steal, firmware) and stays unexplained.
 */
#define RTM_NOISEATTR_TICK_REST_MAX_NS	50000ULL

/* Intervals kept per CPU before further ones are dropped (and counted). */
#define RTM_NOISEATTR_MAX_SEGS		(1U << 21)

enum rtm_noise_class {
	RTM_NOISE_IRQ,		/* hard IRQs and x86 vectors, as rtla osnoise counts them */
	RTM_NOISE_SOFTIRQ,
	RTM_NOISE_NMI,
	RTM_NOISE_THREAD,
	RTM_NOISE_RT_THROTTLING,	/* the probe throttled (kernel.sched_rt_runtime_us) */
	RTM_NOISE_UNEXPLAINED,
	RTM_NOISE_NCLASSES,
};

/* "irq", "softirq", "nmi", "thread", "rt_throttling", "unexplained" */
const char *rtm_noise_class_name(enum rtm_noise_class c);

struct rtm_noiseattr;

/*
 * For CPUs 0..@ncpus-1; @proc_root: where /proc is ("/"), to read a preempting
 * thread's policy when it is first seen (sched_switch has only its priority), or
 * NULL (recorded events: the policy stays unknown, "rt N"). NULL when out of memory.
 */
struct rtm_noiseattr *rtm_noiseattr_alloc(int ncpus, const char *proc_root);
void rtm_noiseattr_free(struct rtm_noiseattr *a);

/*
 * @tid is a noise probe thread: its running time is the measured time, never a
 * cause. Call before the events of its first switch-in are fed. 0 or -ENOMEM.
 */
int rtm_noiseattr_self(struct rtm_noiseattr *a, int tid);

/* The rtm_event_cb: one event (@ctx the rtm_noiseattr); events of a CPU in time order. */
int rtm_noiseattr_event(const struct rtm_event *ev, void *ctx);

/* Events were lost (the trace buffer was full): the attribution is incomplete. */
void rtm_noiseattr_lost(struct rtm_noiseattr *a, uint64_t events);

/* Intervals dropped at RTM_NOISEATTR_MAX_SEGS, over all CPUs. */
uint64_t rtm_noiseattr_dropped(const struct rtm_noiseattr *a);

/*
 * The kernel's RT throttling setting (kernel.sched_rt_runtime_us of every
 * sched_rt_period_us; runtime -1: no limit, period <= 0: unknown) and its tick
 * (@tick_ns, 0: unknown, taken as 10 ms: HZ=100): each CPU's throttled time in
 * any one period is checked against period - runtime, give or take a tick (the
 * scheduler charges the runtime at the tick).
 */
void rtm_noiseattr_rt_limit(struct rtm_noiseattr *a, int64_t runtime_us, int64_t period_us,
			    uint64_t tick_ns);

/*
 * What the run's /proc/stat said of a CPU besides the events: the steal time the
 * hypervisor reported (-1: unknown) and whether the box is a virtual machine; and
 * the SMIs the CPU's counter (MSR_SMI_COUNT, lib/box/smi.h) saw during the run when
 * @smi_read, else why it could not be read (@smi_why, NULL: not tried). They only
 * word the unexplained part.
 */
struct rtm_noiseattr_env {
	int64_t steal_ns;
	bool vm;
	bool smi_read;
	uint64_t smis;
	const char *smi_why;
};

/* ---- live: the causes so far, while the probe runs (the prose: docs/architecture.md) */

/* A gap as the probe logs it: CLOCK_MONOTONIC start and length. */
struct rtm_noiseattr_gap {
	uint64_t start_ns;
	uint64_t len_ns;
};

/* Gaps of @cpu laid so far by rtm_noiseattr_live_add(): the next one to give it. */
uint32_t rtm_noiseattr_live_taken(const struct rtm_noiseattr *a, int cpu);

/*
 * rtm_noiseattr_live_add - lay the next gaps of @cpu over the intervals fed so far
 * @start_ns, @window_ns: the run's start and duty-cycle window (the tolerance)
 * @g: the gaps after the rtm_noiseattr_live_taken() first ones, in time order
 *
 * Only gaps ending (with the tolerance) before the last event fed for @cpu are
 * laid: later ones may still get events. Returns how many were laid (the caller
 * passes the rest again next time).
 */
uint32_t rtm_noiseattr_live_add(struct rtm_noiseattr *a, int cpu, uint64_t start_ns,
				uint64_t window_ns, const struct rtm_noiseattr_gap *g, uint32_t n);

/* The time per class laid so far on @cpu into @class_ns (zeros for an unknown CPU). */
void rtm_noiseattr_live_get(const struct rtm_noiseattr *a, int cpu,
			    uint64_t class_ns[RTM_NOISE_NCLASSES]);

/* {"irq_ns": ..., ..., "unexplained_ns": ...}: @cpu's classes so far (a "causes" object). */
json_t *rtm_noiseattr_live_json(const struct rtm_noiseattr *a, int cpu);

/*
 * rtm_noiseattr_apply - the causes into sections.noise (docs/result-schema.md)
 * @noise: sections.noise as rtm_probe_noise_finish() wrote it
 * @env: per CPU number (index: the CPU), or NULL
 * @nenv: entries of @env
 *
 * Adds to each CPU "causes" (class totals, the gaps each class was the main cause
 * of, the contributors by time) and "gap_causes" (one entry per gap_list entry),
 * and to the section "attribution" (tolerance, lost events, completeness).
 * 0, -EINVAL when @noise is not a noise section, -ENOMEM.
 */
int rtm_noiseattr_apply(struct rtm_noiseattr *a, json_t *noise,
			const struct rtm_noiseattr_env *env, int nenv);

/*
 * Check a noise CPU's "causes" and "gap_causes" (result.json load): absent is
 * fine (older results, --trace 0); present they must be well formed. 0 or -EINVAL
 * with the reason in @why.
 */
int rtm_noiseattr_check(const json_t *cpu, char *why, size_t len);

#endif
