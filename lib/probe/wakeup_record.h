/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wakeup_record.h - how the wake-up programs count one wait into a CPU's
 * figures (struct rtm_wk_cpu): the code the BPF programs run, in a header so
 * that tests/unit/test_wakeup.c runs the same code on the host.
 */
#ifndef RTM_WAKEUP_RECORD_H
#define RTM_WAKEUP_RECORD_H

#include "core/hist_layout.h"
#include "probe/wakeup_maps.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

/* The interval slot of this epoch, emptied when it last served an earlier one. */
static __always_inline void rtm_wk_record_interval(struct rtm_wk_cpu *c, __u64 lat_ns, __u64 e)
{
	__u32 s = e & 1;

	if (c->ival_epoch[s] != e) {
		c->ival_epoch[s] = e;
		c->ival_count[s] = 0;
		c->ival_min_ns[s] = lat_ns;
		c->ival_max_ns[s] = lat_ns;
	}
	c->ival_count[s]++;
	if (lat_ns < c->ival_min_ns[s])
		c->ival_min_ns[s] = lat_ns;
	if (lat_ns > c->ival_max_ns[s])
		c->ival_max_ns[s] = lat_ns;
}

/* count, sum, 128-bit sum of squares, min, max of one CPU */
static __always_inline void rtm_wk_record_cpu(struct rtm_wk_cpu *c, __u64 lat_ns, __u64 above_ns,
					     __u64 epoch)
{
	__u64 hi = lat_ns >> 32, lo = lat_ns & 0xffffffffULL;
	__u64 mid = hi * lo, sq_lo, old;

	/* lat^2 = hi^2 << 64 + 2 * hi * lo << 32 + lo^2 */
	sq_lo = lo * lo;
	old = c->sum_sq_lo;
	c->sum_sq_lo += sq_lo;
	c->sum_sq_hi += hi * hi + (c->sum_sq_lo < old);
	old = c->sum_sq_lo;
	c->sum_sq_lo += mid << 33;
	c->sum_sq_hi += (mid >> 31) + (c->sum_sq_lo < old);
	if (!c->count || lat_ns < c->min_ns)
		c->min_ns = lat_ns;
	if (lat_ns > c->max_ns)
		c->max_ns = lat_ns;
	c->count++;
	c->sum_ns += lat_ns;
	if (lat_ns > RTM_HIST_LAYOUT_MAX_NS)
		c->saturated++;
	if (above_ns && lat_ns > above_ns)
		c->above++;
	rtm_wk_record_interval(c, lat_ns, epoch);
}

/*
 * The cause of a wait of @lat_ns: the largest of the longest other task's own
 * time @task_ns, the hard and soft interrupt handlers' @irq_ns and @softirq_ns,
 * and the rest, which none of them explains (a tie goes to the first named).
 */
static __always_inline __u8 rtm_wk_cause_of(__u64 lat_ns, __u64 task_ns, __u64 irq_ns,
					    __u64 softirq_ns)
{
	__u64 known = task_ns + irq_ns + softirq_ns;
	__u64 rest = lat_ns > known ? lat_ns - known : 0;
	__u8 cause = RTM_WK_CAUSE_THREAD;
	__u64 top = task_ns;

	if (irq_ns > top) {
		cause = RTM_WK_CAUSE_IRQ;
		top = irq_ns;
	}
	if (softirq_ns > top) {
		cause = RTM_WK_CAUSE_SOFTIRQ;
		top = softirq_ns;
	}
	if (rest > top)
		cause = RTM_WK_CAUSE_WAKE_PATH;
	return cause;
}

/* Fibonacci hashing of a task_struct's address (which the tracepoints pass). */
static __always_inline __u64 rtm_wk_hash(__u64 task)
{
	return task * 0x9E3779B97F4A7C15ULL;
}

/* The slot of @task in "wakes" of @mask + 1 slots: bits 40 and up of its hash. */
static __always_inline __u32 rtm_wk_slot_of(__u64 task, __u32 mask)
{
	return (__u32)(rtm_wk_hash(task) >> 40) & mask;
}

/* Its counter in the filter of stamped tasks: the top bits of its hash. */
static __always_inline __u32 rtm_wk_filter_of(__u64 task)
{
	return (__u32)(rtm_wk_hash(task) >> (64 - RTM_WK_FILTER_BITS));
}

/*
 * A stamp of @task enters the filter (before it is written) or leaves it
 * (after it is emptied): while it is in "wakes", its counter is not 0.
 */
static __always_inline void rtm_wk_filter_add(__u32 *filter, __u64 task, __s32 n)
{
	__sync_fetch_and_add(&filter[rtm_wk_filter_of(task)], (__u32)n);
}

/* 0: @task has no stamp in "wakes" (no need to look); 1: it may have. */
static __always_inline int rtm_wk_filter_may(const __u32 *filter, __u64 task)
{
	return filter[rtm_wk_filter_of(task)] != 0;
}

/*
 * The token bucket of the cause records: @credit_ns grows by the time since
 * @last_ns up to @burst_ns; a record costs @cost_ns. 1: send it.
 */
static __always_inline int rtm_wk_take_token(__u64 *credit_ns, __u64 *last_ns, __u64 now_ns,
					     __u64 cost_ns, __u64 burst_ns)
{
	__u64 credit = *credit_ns + (now_ns - *last_ns);

	if (now_ns < *last_ns || credit > burst_ns || credit < *credit_ns)
		credit = burst_ns;
	*last_ns = now_ns;
	if (credit < cost_ns) {
		*credit_ns = credit;
		return 0;
	}
	*credit_ns = credit - cost_ns;
	return 1;
}

#endif
