/* SPDX-License-Identifier: GPL-2.0-or-later */
/* census_priv.h - the census's state, shared by census.c and census_out.c. */
#ifndef RTM_CENSUS_PRIV_H
#define RTM_CENSUS_PRIV_H

#include "trace/census.h"

/* Intervals kept per CPU before further ones are dropped (and counted). */
#define CENSUS_MAX_SEGS		(1U << 20)
/* Tasks and handlers told apart inside one wake-up. */
#define CENSUS_MAX_PARTS	32
/* A late wake-up is judged once the stream was read this far past its end. */
#define CENSUS_SETTLE_NS	50000000ULL

enum seg_kind { SEG_THREAD, SEG_IRQ, SEG_VECTOR, SEG_SOFTIRQ, SEG_NMI };

/* Something other than the probe held the CPU from @start to @end. */
struct seg {
	uint64_t start, end;
	uint64_t own;			/* handlers: own time (nested handlers excluded) */
	enum seg_kind kind;
	int id;				/* task pid, IRQ number, softirq vector, -1 */
	int host;			/* handlers: the task they interrupted (-1: unknown) */
	int prio;			/* tasks: the kernel's prio */
	char name[24];
	char policy[12];
};

/* A probe's timer expiry: planned (expires) and the interrupt's now. */
struct exp {
	uint64_t expires, now;
};

struct steal {
	uint64_t t;
	int64_t ns;
};

struct late {
	uint64_t planned, latency;
};

struct part {
	const struct seg *g;
	uint64_t ns;
};

struct task {
	int pid;
	char comm[RTM_COMM_LEN];
	char policy[12];
};

struct cpu_state {
	bool watched;
	uint64_t first_ts, last_ts;	/* the first and latest event seen */
	bool cur_known;			/* the task on the CPU since the last switch */
	int cur_pid, cur_prio;
	char cur_comm[RTM_COMM_LEN];
	uint64_t cur_since;
	struct seg *segs;
	size_t seg0, nseg, segcap;	/* [seg0, nseg) kept */
	struct exp *exps;
	size_t exp0, nexp, expcap;
	struct late *pend;		/* late wake-ups waiting for their events */
	size_t npend, pendcap;
	struct steal *steal;
	size_t nsteal, stealcap;
	/*
	 * Set when an interval came out of order (its end, an expiry's now or a steal
	 * read's time earlier than the one before): the verdicts then walk all that is
	 * kept instead of searching for where the late wake-up's time begins.
	 */
	bool segs_unsorted, exps_unsorted, steal_unsorted;
	uint64_t by_cause[RTM_CENSUS_NCAUSES];
};

/* One CPU's count of a culprit. */
struct census_tally {
	int cpu;
	enum rtm_census_cause cause;
	char culprit[96];
	uint64_t count, max_latency_ns;
};

struct rtm_census {
	int ncpus;
	uint64_t bound_ns;
	bool vm;
	char *proc_root;
	struct cpu_state *cpu;
	struct rtm_irqacct *irq;	/* handler runs (its span callback) */
	int *tids;
	size_t ntids, tcap;
	int *own;			/* this process's other threads (rtm_census_own()) */
	size_t nown, ocap;
	char own_name[24];
	struct task *tasks;
	size_t ntasks, taskcap;
	uint32_t *task_slot;		/* tasks by pid: index + 1, 0 empty; a power of two */
	size_t nslots;
	struct rtm_census_verdict *verdicts;
	size_t nverdicts, vcap;
	bool list_truncated;
	struct census_tally *tally;
	size_t ntally, tallycap;
	uint64_t count, lost, dropped, seg_dropped;
	bool failed;			/* out of memory: the census is incomplete */
};

void census_judge(struct rtm_census *c, const struct cpu_state *s, int cpu,
		  const struct late *l, struct rtm_census_verdict *v);

#endif
