/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * noiseattr_priv.h - what noiseattr_live.c takes from noiseattr.c: the per-CPU
 * intervals, the causes they belong to, and the laying of a gap over them. Not a
 * public header.
 */
#ifndef RTM_NOISEATTR_PRIV_H
#define RTM_NOISEATTR_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "trace/noiseattr.h"

#define STACK_MAX	8	/* NMI aside, softirq < IRQ < vector nests at most a few deep */
#define GAP_SHARES	32	/* distinct causes kept per gap (more: the rest is unexplained) */
#define NO_CAUSE	UINT32_MAX

enum kind { K_IRQ, K_VECTOR, K_SOFTIRQ, K_NMI, K_THREAD, K_THROTTLE, K_NKINDS };

/* K_THROTTLE's ids: what had the CPU while the probe was throttled */
#define THROTTLE_IDLE	0	/* the idle task: the RT bandwidth limit (rt_rq throttled) */
#define THROTTLE_FAIR	1	/* a lower task: the fair server (6.12+) or the limit */

struct cause {
	enum kind kind;
	int id;			/* IRQ number, vector, softirq number, pid */
	int prio;		/* thread: the kernel's prio from sched_switch */
	char name[32];		/* IRQ action, vector, softirq name, comm */
	char policy[12];	/* thread: FIFO, RR, OTHER, ... or unknown (rtholds.h) */
};

struct seg {
	uint64_t start_ns, end_ns;
	uint32_t cause;
};

struct cpu_state {
	uint32_t stack[STACK_MAX];
	int depth;
	uint32_t task;		/* the thread's cause, NO_CAUSE: a probe, idle or unknown */
	bool active;		/* the probe wants the CPU (running or preempted) */
	bool running;		/* ... and has it */
	int probe_prio;		/* the probe's prio at its last preemption */
	uint64_t seg_start_ns;
	uint64_t last_ts;	/* the last event's time: the live horizon */
	uint32_t live_taken;	/* gaps laid live */
	uint64_t live_claimed;
	uint64_t live_ns[RTM_NOISE_NCLASSES];
	struct seg *segs;
	uint32_t nsegs;
	size_t cap;
};

struct rtm_noiseattr {
	int ncpus;
	struct cpu_state *cpu;
	struct cause *causes;
	uint32_t ncauses;
	size_t capc;
	uint32_t last[K_NKINDS];	/* the cause each kind found last (a cache) */
	int64_t rt_runtime_us, rt_period_us;	/* RT throttling, period <= 0: unknown */
	uint64_t tick_ns;			/* its accounting step */
	int *self;
	int nself;
	size_t capself;
	uint64_t lost, dropped;
	char *proc_root;		/* NULL: no policy look-up */
};

struct share {
	uint32_t cause;
	uint64_t ns;
};

/* The class of each kind of cause. */
extern const enum rtm_noise_class rtm_noiseattr_kind_class[K_NKINDS];

/* The slack of a gap @rel ns after the run's start (noiseattr.h). */
uint64_t rtm_noiseattr_tolerance(uint64_t rel, uint64_t window);

/*
 * Lay one gap (start @gs, @len) over @cs's intervals with slack @tol, not before
 * *@claimed (moved to the end of what it took): its shares into @sh (at most
 * GAP_SHARES), the explained sum capped at @len into @explained. How many shares.
 */
int rtm_noiseattr_gap_shares(const struct cpu_state *cs, uint64_t gs, uint64_t len,
			     uint64_t tol, uint64_t *claimed, struct share *sh,
			     uint64_t *explained);
/*
 * A gap of @len with the tick among its @n shares and an untraced rest of at most
 * RTM_NOISEATTR_TICK_REST_MAX_NS: the rest given to the tick's share (its hard
 * handler first), *@explained raised to @len. The time given, 0 when none.
 */
uint64_t rtm_noiseattr_tick_rest(const struct rtm_noiseattr *a, struct share *sh, int n,
				 uint64_t len, uint64_t *explained);

#endif
