/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timersplit_maps.h - the per-CPU figures of the timer IRQ split programs
 * (timersplit.bpf.c), shared by the programs and their loader (timersplit.c).
 */
#ifndef RTM_TIMERSPLIT_MAPS_H
#define RTM_TIMERSPLIT_MAPS_H

#include "probe/wakeup_maps.h"

#define RTM_TS_MAX_CPUS		1024
#define RTM_TS_COMM_PREFIX	"rtm-probe/"	/* the probe's threads (probe_timer.c) */
#define RTM_TS_COMM_PREFIX_LEN	10

/*
 * One CPU's figures and its state. Every event of a probe's sleep happens on the
 * probe's own CPU (it is pinned, and an hrtimer expires on the CPU it was started
 * on), each with interrupts off: only that CPU writes its entry, without atomics.
 */
struct rtm_ts_cpu {
	/* the figures, read by the loader */
	struct rtm_wk_cpu irq;		/* the IRQ parts: count, min, max, sums */
	struct rtm_wk_cpu wake;		/* the wake-up parts */
	__u64 unmatched_starts;		/* starts never expired (re-armed, cancelled) */
	__u64 unmatched_expires;	/* a probe sleeper's expiry without its start */
	__u64 early;			/* expired before the hard expiry (timer slack) */
	__u64 unswitched;		/* woken while still running: no switch-in ended it */
	__u64 max_ns;			/* the longest IRQ part + wake-up part ... */
	__u64 max_irq_ns;		/* ... its IRQ part */
	__u64 max_wake_ns;		/* ... its wake-up part */
	/* the state: the start waiting for its expiry, the expiry for the switch-in */
	__u64 hrtimer;			/* the armed sleeper's address, 0: none */
	__s64 expires_ns;
	__u64 expired_ns;		/* its expiry's "now", 0: no switch-in awaited */
	__u64 irq_ns;			/* its IRQ part */
	__u32 tid;			/* the probe thread that started it */
	__u32 pad;
};

#endif
