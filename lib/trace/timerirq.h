/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timerirq.h - the timer-interrupt part of each probe wake-up, from two tracepoints.
 *
 * rtla's timerlat splits a wake-up into IRQ latency (timer expiry to the
 * interrupt running the hrtimer) and thread latency (to the thread running);
 * it needs the kernel's timerlat tracer. Without it the same IRQ part is
 * there in timer:hrtimer_start and timer:hrtimer_expire_entry: the probe
 * sleeps with clock_nanosleep(TIMER_ABSTIME), which starts an hrtimer_sleeper
 * in the probe's own context on its own CPU (common_pid = the probe's tid),
 * and the interrupt that expires it records the hrtimer base's time "now".
 * The delay is now - expires of that start.
 *
 * Fed each CPU's events in time order (rtm_timerirq_event() is an
 * rtm_event_cb), it keeps per watched CPU the hrtimers the followed threads
 * started and not yet expired, matched by the hrtimer's address on that CPU.
 * What the trace cannot pair is counted apart, never guessed:
 *  - a start never expired (a cancel, a re-arm before expiry, lost events, the
 *    trace ending first): unmatched_starts;
 *  - an expire of a followed thread's hrtimer (an address one of its starts
 *    used on that CPU: the sleeper lives on the thread's kernel stack, whose
 *    offset the kernel randomises per system call, so a thread uses a few
 *    dozen addresses) without its start on that CPU: unmatched_expires;
 *  - an expire before the start's hard expiry (inside the timer slack, which
 *    only a non-RT sleeper has): early, not recorded.
 * Other tasks' hrtimers are ignored.
 */
#ifndef RTM_TIMERIRQ_H
#define RTM_TIMERIRQ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/error.h"
#include "core/hist.h"
#include "tracefs/tracedec.h"

struct rtm_timerirq;

/* One CPU's figures. */
struct rtm_timerirq_cpu {
	int cpu;
	uint64_t matched;		/* delays recorded into @delay */
	uint64_t unmatched_starts, unmatched_expires, early;
	const struct rtm_hist *delay;	/* hrtimer_expire_entry.now - expires, ns */
};

/*
 * CPUs 0 .. ncpus-1 may be watched; none is until rtm_timerirq_watch().
 * @function: the address of the kernel's hrtimer_wakeup (rtm_timerirq_kallsyms()):
 * only the followed threads' hrtimers with that handler are their sleeps; the
 * same threads start other hrtimers too (the tick's, when their CPU leaves idle).
 */
struct rtm_timerirq *rtm_timerirq_alloc(int ncpus, uint64_t function);
void rtm_timerirq_free(struct rtm_timerirq *t);

/*
 * The address of kernel symbol @name (e.g. "hrtimer_wakeup") from @root/proc/kallsyms
 * (@root "/" live). 0, -ENOENT when absent, -EPERM when the kernel hides addresses
 * (kernel.kptr_restrict), -errno when the file cannot be read.
 */
int rtm_timerirq_kallsyms(const char *root, const char *name, uint64_t *addr);

/* Watch CPU @cpu (it is listed, with count 0 when nothing came). 0, -EINVAL or -ENOMEM. */
int rtm_timerirq_watch(struct rtm_timerirq *t, int cpu);

/* Follow the hrtimers thread @tid starts (a probe). 0 or -ENOMEM; twice is once. */
int rtm_timerirq_follow(struct rtm_timerirq *t, int tid);

/* One matched expiry of a followed thread's sleep, as it is recorded. */
struct rtm_timerirq_expiry {
	int cpu;
	int pid;			/* the thread that started the hrtimer */
	int64_t expires_ns;		/* hrtimer_start's expires (the planned wake-up) */
	int64_t now_ns;			/* hrtimer_expire_entry's now (the interrupt) */
};
typedef void (*rtm_timerirq_expiry_cb)(const struct rtm_timerirq_expiry *e, void *ctx);

/* Tell @cb each matched expiry as it is recorded (the spike census, census.h). */
void rtm_timerirq_set_expiry_cb(struct rtm_timerirq *t, rtm_timerirq_expiry_cb cb, void *ctx);

/* Account one event (an rtm_event_cb; @ctx is the rtm_timerirq). Returns 0 or -ENOMEM. */
int rtm_timerirq_event(const struct rtm_event *ev, void *ctx);

/*
 * Tracing stopped: the starts still waiting can no longer be paired and are
 * counted as unmatched; after a restart each CPU begins with none waiting.
 */
void rtm_timerirq_end(struct rtm_timerirq *t);

/* The watched CPUs in ascending order, at most @max into @out; returns how many. */
int rtm_timerirq_cpus(const struct rtm_timerirq *t, struct rtm_timerirq_cpu *out, int max);

/*
 * One line for a live display: each watched CPU's timer IRQ delay p99 so far
 * ("timer IRQ p99: CPU 0 25.4 us, CPU 1 22.6 us (6000 matched)"), "unknown"
 * for a CPU without one, "-" for one with too few for a p99 (rtm_pct_defined()).
 */
void rtm_timerirq_line(const struct rtm_timerirq *t, char *buf, size_t len);

/*
 * The same line from @n CPUs' figures, whichever path counted them (the BPF
 * split's too, probe/timersplit.h): each CPU's p99 of @delay, the sum of @matched.
 */
void rtm_timerirq_line_of(const struct rtm_timerirq_cpu *cpus, int n, char *buf, size_t len);

/*
 * result.json sections.timer_irq (docs/result-schema.md): "cpus": [{cpu, count,
 * unmatched_starts, unmatched_expires, early, delay (a histogram)}]. The caller
 * adds trace_lost and complete.
 */
json_t *rtm_timerirq_to_json(const struct rtm_timerirq *t);

/* Validate a loaded sections.timer_irq; -EINVAL with a message naming @what and the key. */
int rtm_timerirq_check(const json_t *sec, const char *what, struct rtm_error *err);

#endif
