/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iocause_priv.h - the miss causes' state, shared by iocause.c and iocause_out.c. */
#ifndef RTM_IOCAUSE_PRIV_H
#define RTM_IOCAUSE_PRIV_H

#include <stddef.h>

#include "trace/iocause.h"

/* An event kept until the horizon passes it: what the causes read of it. */
struct ioc_ev {
	uint64_t ts;
	uint64_t seq;			/* arrival order: equal times keep it */
	enum rtm_ev_type type;
	int cpu, pid;
	union {
		struct {
			uint64_t sector;
			uint32_t dev, nr;
			int ioprio;
			char rwbs[12];
			char comm[RTM_COMM_LEN];
		} b;
		struct {
			int next_pid, next_prio;
			char next_comm[RTM_COMM_LEN];
		} sw;
		int woken;		/* sched_wakeup: the task woken */
	};
};

/* A request of the device, from its first event to its completion (0: not seen). */
struct ioc_req {
	uint64_t sector;
	uint32_t nr;
	uint64_t first, insert, issue, complete;
	int pid, ioprio;
	bool probe;			/* inserted (or issued directly) by the probe thread */
	char comm[RTM_COMM_LEN];
	char rwbs[12];
};

/* The probe's CPU given to a task (pid 0: idle) from @ts on. */
struct ioc_sw {
	uint64_t ts;
	int pid, prio;
	char comm[RTM_COMM_LEN];
};

struct ioc_miss {
	char op[12];
	uint64_t planned, issue, done;
};

struct ioc_tally {
	enum rtm_iocause_cause cause;
	char culprit[96];
	uint64_t count, max_ns;
};

/* A task's requests ahead of the probe's, over all misses. */
struct ioc_atally {
	char comm[RTM_COMM_LEN];
	int pid, ioprio;
	char rwbs[12];
	uint64_t misses, queued, in_flight, max_ns;
};

struct ioc_task {
	int pid;
	char comm[RTM_COMM_LEN];
	char policy[12];
};

struct rtm_iocause {
	uint32_t dev;
	int cpu, tid, own_tid;
	uint64_t deadline_ns;
	char *proc_root;
	uint64_t since;			/* events are complete from here on */
	uint64_t horizon;		/* taken in order up to here */
	uint64_t seq;

	struct ioc_ev *pend;		/* events not yet taken */
	size_t npend, cap_pend;
	struct ioc_req *req;		/* by first event, oldest first */
	size_t nreq, cap_req;
	struct ioc_sw *sw;		/* the CPU's switches, oldest first */
	size_t nsw, cap_sw;
	uint64_t *wk;			/* the probe's wake-ups */
	size_t nwk, cap_wk;
	struct ioc_miss *miss;		/* misses waiting for the horizon */
	size_t nmiss, cap_miss;

	struct rtm_iocause_verdict *v;
	size_t nv, cap_v;
	bool list_truncated;
	struct ioc_tally *tally;
	size_t ntally, cap_tally;
	struct ioc_atally *at;
	size_t nat, cap_at;
	struct ioc_task *tasks;
	size_t ntasks, cap_tasks;
	uint64_t count, by_cause[RTM_IOCAUSE_NCAUSES], parts[RTM_IOPART_N];
	uint64_t lost, not_listed;
	bool probe_seen;		/* a request of the probe was in the trace */
	bool failed;			/* out of memory once: the figures are incomplete */
};

/* The verdict of @m (iocause.c); 0 or -ENOMEM. */
int ioc_judge(struct rtm_iocause *c, const struct ioc_miss *m, struct rtm_iocause_verdict *v);

#endif
