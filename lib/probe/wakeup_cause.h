/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wakeup_cause.h - the waits over rtmeasure wakeup's bound, each with the
 * cause the BPF programs decided (struct rtm_wk_cause_rec, through their ring
 * buffer): tallied per CPU and culprit in memory allocated once, written as
 * sections.wakeup.census and said in sentences like the spike census's.
 */
#ifndef RTM_WAKEUP_CAUSE_H
#define RTM_WAKEUP_CAUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "probe/wakeup_maps.h"

/* Waits listed one by one in result.json (all are counted). */
#define RTM_WAKEUP_CAUSE_LIST	1000
/* Culprits told apart in all (a CPU, a cause, a task); the others count as "other". */
#define RTM_WAKEUP_CULPRITS	256

/* "thread", "irq", "softirq", "wake_path"; NULL past the end */
const char *rtm_wakeup_cause_name(unsigned int cause);

/* A task's scheduling in words from its policy and kernel prio: "FIFO 99", "OTHER nice 0". */
void rtm_wakeup_sched_words(int policy, int prio, char *buf, size_t len);

/*
 * One wait in a sentence: "cyclictest pid 812 (FIFO 80) waited 2.87 ms on CPU 1:
 * behind rtm-inject pid 3301 (FIFO 99, 2.85 ms); hard interrupts 12.0 us, softirqs
 * 0 ns". The cause leads; the other parts follow; a waker on another CPU and a
 * move to another CPU are said at the end.
 */
void rtm_wakeup_cause_sentence(const struct rtm_wk_cause_rec *r, char *buf, size_t len);

struct rtm_wakeup_census;

/* For CPUs 0 .. @ncpus-1 and waits over @above_ns; NULL with errno set. */
struct rtm_wakeup_census *rtm_wakeup_census_alloc(int ncpus, uint64_t above_ns);
void rtm_wakeup_census_free(struct rtm_wakeup_census *c);

/* One record from the ring buffer (a record of a CPU out of range is ignored). */
void rtm_wakeup_census_add(struct rtm_wakeup_census *c, const struct rtm_wk_cause_rec *r);
/* Waits added so far. */
uint64_t rtm_wakeup_census_count(const struct rtm_wakeup_census *c);

/*
 * sections.wakeup.census (docs/result-schema.md): "bound_ns", "waits", "remote",
 * "causes" (culprits over all CPUs, most waits first), "cpus" (each CPU with a
 * wait: by cause, remote, culprits), "list" (the first RTM_WAKEUP_CAUSE_LIST
 * waits, "list_truncated"), "limited" and "ring_full" (waits over the bound
 * the programs did not send: @limited over the rate, @full with the ring
 * buffer full), "complete". NULL when out of memory.
 */
json_t *rtm_wakeup_census_json(const struct rtm_wakeup_census *c, uint64_t limited,
			       uint64_t full);

/*
 * "20 waits over 1.00 ms: 20 behind rtm-inject (FIFO 99, 2.90 ms)" from a
 * census section (at most @top culprits, the rest summed); "no wait over 1.00 ms".
 */
void rtm_wakeup_census_sentence(const json_t *census, char *buf, size_t len, int top);
/* The same for one of its "cpus": "CPU 1: 20 waits over 1.00 ms: 20 behind ...". */
void rtm_wakeup_census_cpu_sentence(const json_t *census, const json_t *cpu, char *buf,
				    size_t len, int top);

#endif
