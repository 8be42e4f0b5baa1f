/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * census.h - a cause and a culprit for every late wake-up, not only
 * the few the flight recorder captures.
 *
 * The timer probe hands over each wake-up later than the bound (its planned
 * time, latency and CPU: rtm_probe_timer_late_take()); the streaming instance
 * brings the events of the measured CPUs (an rtm_event_cb). The census keeps,
 * for the last seconds of each CPU, what held it: the tasks other than the
 * probe (sched_switch), the interrupt, vector, softirq and NMI handlers (their
 * runs as lib/irq/handlers.c accounts them, nested time to the innermost) and the
 * probe's own timer expiries (lib/trace/timerirq.c's pairing of hrtimer_start with
 * hrtimer_expire_entry). Both sides use CLOCK_MONOTONIC: the stream's trace
 * clock is mono, the probe's planned time is the hrtimer's expires.
 *
 * A late wake-up from planned time E to the probe's clock read W = E + latency
 * is cut into the timer interrupt's delay (E to the expiry's "now", X) and the
 * time from X to W, which is laid over the intervals kept: each task's time
 * (less the handlers that interrupted it), each handler's own time, and the
 * rest. The largest part is the cause:
 *   timer_late   the interrupt came late; "hypervisor" when the CPU's steal
 *                time grew around it, "irqs_off" when a task or handler was
 *                running at E (it held interrupts off: named as the culprit),
 *                else "unexplained" (an idle CPU; "VM" when on one)
 *   irq, softirq, nmi   a handler's time (named: "irq 24 virtio0", "vector
 *                local_timer", "softirq TIMER")
 *   thread       a task that held the CPU (comm, pid, policy, priority)
 *   wake_path    the time after the interrupt that no event explains
 *                (the switch to the probe itself; "hypervisor" as above)
 *   untraced     the trace has nothing of the wake-up (events lost, or the
 *                trace did not reach it): counted, never guessed
 */
#ifndef RTM_CENSUS_H
#define RTM_CENSUS_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "irq/handlers.h"
#include "trace/timerirq.h"
#include "tracefs/tracedec.h"

enum rtm_census_cause {
	RTM_CENSUS_TIMER_LATE,
	RTM_CENSUS_IRQ,
	RTM_CENSUS_SOFTIRQ,
	RTM_CENSUS_NMI,
	RTM_CENSUS_THREAD,
	RTM_CENSUS_WAKE_PATH,
	RTM_CENSUS_UNTRACED,
	RTM_CENSUS_NCAUSES,
};

/* "timer_late", "irq", "softirq", "nmi", "thread", "wake_path", "untraced"; NULL past the end */
const char *rtm_census_cause_name(enum rtm_census_cause c);

/* Late wake-ups listed one by one in result.json (all are counted). */
#define RTM_CENSUS_LIST_MAX	1000
/* How long each CPU's intervals are kept behind the newest drain (ns). */
#define RTM_CENSUS_KEEP_NS	3000000000ULL

/* One late wake-up's verdict. */
struct rtm_census_verdict {
	int cpu;
	uint64_t planned_ns, latency_ns;
	enum rtm_census_cause cause;
	char detail[24];		/* timer_late / wake_path: "hypervisor", "irqs_off",
					 * "unexplained", "unexplained: VM"; else "" */
	char culprit[96];		/* "rtm-inject pid 123 (FIFO 99)", "vector local_timer", ... */
	char comm[RTM_COMM_LEN];	/* thread (or irqs_off in a thread): the task */
	int pid;			/* -1 when not a task */
	char policy[12];		/* FIFO, RR, OTHER, ... unknown; "" when not a task */
	int priority;			/* FIFO/RR 1-99, nice for the others */
	int64_t timer_irq_ns;		/* E -> X; -1 when the expiry is not in the trace */
	uint64_t culprit_ns;		/* the main cause's share of the latency */
};

struct rtm_census;

/*
 * CPUs 0 .. @ncpus-1 may be measured; wake-ups later than @bound_ns are the
 * census's. @proc_root: where /proc is ("/") for a task's policy when a verdict
 * first names it, or NULL (recorded events: "unknown"). NULL, errno set, on failure.
 */
struct rtm_census *rtm_census_alloc(int ncpus, uint64_t bound_ns, const char *proc_root);
void rtm_census_free(struct rtm_census *c);

/* Watch CPU @cpu (listed even with no late wake-up). 0 or -EINVAL. */
int rtm_census_watch(struct rtm_census *c, int cpu);
/* @tid is a probe thread: its running time is the wake-up, never a cause. 0 or -ENOMEM. */
int rtm_census_follow(struct rtm_census *c, int tid);
/*
 * @tid is a thread of this process other than a probe (the command's own work:
 * drawing, draining the trace). It is still a cause when it held the CPU, but
 * named "@name (comm pid N, policy)" ("this monitor (rtmeasure pid 7, OTHER nice
 * 0)"), so that nobody takes the measuring tool for the system's load. 0 or -ENOMEM.
 */
int rtm_census_own(struct rtm_census *c, int tid, const char *name);
/* The box is a virtual machine (words "unexplained: VM"). */
void rtm_census_set_vm(struct rtm_census *c, bool vm);

/* The timerirq expiry callback (@ctx the census): rtm_timerirq_set_expiry_cb(). */
void rtm_census_expiry(const struct rtm_timerirq_expiry *e, void *ctx);
/* The event callback (@ctx the census); events of each CPU in time order. 0 or -ENOMEM. */
int rtm_census_event(const struct rtm_event *ev, void *ctx);

/* CPU @cpu's steal time (ns, /proc/stat) read at @t_ns; wake-ups between two reads
 * that differ were stolen from. */
void rtm_census_steal(struct rtm_census *c, int cpu, uint64_t t_ns, int64_t steal_ns);
/* Events the stream lost so far, in all (the verdicts may be incomplete). */
void rtm_census_lost(struct rtm_census *c, uint64_t events);
/* Late wake-ups the probe could not hand over so far, in all (its ring was full). */
void rtm_census_dropped(struct rtm_census *c, uint64_t n);

/* A late wake-up of the probe (CLOCK_MONOTONIC planned time). 0 or -ENOMEM. */
int rtm_census_add(struct rtm_census *c, int cpu, uint64_t planned_ns, uint64_t latency_ns);

/*
 * The stream has been read up to @horizon_ns (CLOCK_MONOTONIC, the time the
 * drain began): late wake-ups that ended before it get their verdict, and
 * intervals older than RTM_CENSUS_KEEP_NS are forgotten. UINT64_MAX at the end:
 * every wake-up is decided.
 */
void rtm_census_advance(struct rtm_census *c, uint64_t horizon_ns);

/* The verdicts so far (at most RTM_CENSUS_LIST_MAX, in the order decided). */
const struct rtm_census_verdict *rtm_census_verdicts(const struct rtm_census *c, size_t *n);
/* Late wake-ups decided so far (listed or not). */
uint64_t rtm_census_count(const struct rtm_census *c);
/*
 * A number that grows whenever anything rtm_census_to_json() shows changes (the
 * verdicts, the lost and dropped counts, a failure): equal, the JSON is the same.
 */
uint64_t rtm_census_changes(const struct rtm_census *c);
/*
 * The handler accounting behind its intervals (fed every event of the watched
 * CPUs): its totals are the census's to give away, never read by it; a reader may
 * reset them (rtm_irqacct_reset()) at will.
 */
struct rtm_irqacct *rtm_census_irqacct(struct rtm_census *c);
/* The CPUs it was made for (rtm_census_alloc()'s @ncpus): no sysconf() at every drain. */
int rtm_census_ncpus(const struct rtm_census *c);

/*
 * result.json sections.spike_census (docs/result-schema.md): "bound_ns",
 * "wakeups", "causes" (culprits by count over all CPUs), "cpus" (per CPU the
 * count by cause and the culprits), "list" (the verdicts, "list_truncated"),
 * "dropped", "trace_lost", "complete". NULL when out of memory.
 */
json_t *rtm_census_to_json(const struct rtm_census *c);

/* Validate a loaded sections.spike_census; -EINVAL with a message naming @what and the key. */
int rtm_census_check(const json_t *sec, const char *what, struct rtm_error *err);

/*
 * "37 wake-ups over 900 us: 18 with the timer interrupt late (unexplained: VM), 10 by
 * rtm-inject pid 123 (FIFO 99), 9 other" from a section (at most @top culprits, the rest
 * summed); "no wake-up over 900 us".
 */
void rtm_census_sentence(const json_t *sec, char *buf, size_t len, int top);
/* The same for one of its "cpus": "CPU 1: 6 late wake-ups: 6 by rtm-inject pid 6950 (rt 99)". */
void rtm_census_cpu_sentence(const json_t *cpu, char *buf, size_t len, int top);
/* The same live from the census (a monitor line). */
void rtm_census_line(const struct rtm_census *c, char *buf, size_t len);

#endif
