/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iocause.h - a cause for every deadline miss of the storage probe
 * (lib/probe/probe_io.c), from the block and scheduler events of a trace.
 *
 * The events (an rtm_event_cb, as lib/trace/iotrace.c streams them): the block
 * layer's block_rq_insert, block_rq_issue and block_rq_complete of the probe's
 * device, and sched_switch and sched_wakeup of the probe thread's CPU. A drain
 * delivers each CPU's events in order but CPU after CPU, so they are held
 * until rtm_iocause_advance() says the trace was read up to a time, then
 * taken in time order. Requests are followed by their sector: inserted into
 * the I/O scheduler (no insert: issued directly), issued to the driver,
 * completed; a request is the probe's when its insert (or direct issue) ran
 * in the probe thread's context.
 *
 * A miss (its planned time P, the probe's clock read before the request I and
 * after it D) is split along the probe's last request of the operation:
 *   issue_late  P -> I: the thread ran late (what ran on the CPU instead is named)
 *   submit      I -> the request's insert (or direct issue): the system call's
 *               way down (file system; earlier requests of the operation)
 *   queued      insert -> issue: waiting in the I/O scheduler
 *   device      issue -> complete: in the driver and on the device
 *   wakeup      complete -> the probe thread switched in (what ran instead is named)
 *   return      switched in -> D: the system call's way back
 * The parts add up to the latency. The largest of issue_late, queued, device,
 * wakeup and syscall (submit + return) is the miss's cause; untraced when the
 * trace has no request of the probe for it or did not reach back to P.
 * Requests of other tasks "ahead" of the probe's are those issued before it
 * and not completed when it arrived: "queued" when they were issued while it
 * waited in the scheduler, "in flight" when they were on the device already;
 * they are named by the task that submitted them (comm, pid), their rwbs and
 * their I/O priority class.
 */
#ifndef RTM_IOCAUSE_H
#define RTM_IOCAUSE_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "tracefs/tracedec.h"

enum rtm_iocause_cause {
	RTM_IOCAUSE_ISSUE_LATE,
	RTM_IOCAUSE_QUEUED,
	RTM_IOCAUSE_DEVICE,
	RTM_IOCAUSE_WAKEUP,
	RTM_IOCAUSE_SYSCALL,
	RTM_IOCAUSE_UNTRACED,
	RTM_IOCAUSE_NCAUSES,
};

enum rtm_iocause_part {
	RTM_IOPART_ISSUE_LATE,
	RTM_IOPART_SUBMIT,
	RTM_IOPART_QUEUED,
	RTM_IOPART_DEVICE,
	RTM_IOPART_WAKEUP,
	RTM_IOPART_RETURN,
	RTM_IOPART_N,
};

/* "issue_late", "queued", "device", "wakeup", "syscall", "untraced"; NULL past the end */
const char *rtm_iocause_cause_name(enum rtm_iocause_cause c);
/* "issue_late_ns", "submit_ns", "queued_ns", "device_ns", "wakeup_ns", "return_ns" */
const char *rtm_iocause_part_key(enum rtm_iocause_part p);

/* Misses listed one by one (all are counted). */
#define RTM_IOCAUSE_LIST_MAX	10000
/* Requesters named per miss (the others are summed). */
#define RTM_IOCAUSE_AHEAD_MAX	4
/* How long events are kept behind the newest horizon (ns). */
#define RTM_IOCAUSE_KEEP_NS	5000000000ULL

/* The requests of one task ahead of the probe's request. */
struct rtm_iocause_ahead {
	char comm[RTM_COMM_LEN];
	int pid;
	int ioprio;			/* class << 13 | level, -1 unknown */
	char rwbs[12];
	uint32_t queued;		/* issued while the probe's request waited in the queue */
	uint32_t in_flight;		/* on the device when the probe's request arrived */
};

/* One miss's verdict. */
struct rtm_iocause_verdict {
	char op[12];
	uint64_t planned_ns, latency_ns;
	enum rtm_iocause_cause cause;
	char culprit[96];		/* who or what, in words */
	uint64_t part_ns[RTM_IOPART_N];
	char issue_by[96];		/* the task that ran longest instead while the issue was
					 * late, "" none */
	char wakeup_by[96];		/* the same between completion and switch-in */
	uint64_t woken_ns;		/* completion -> the probe's wake-up; UINT64_MAX: none */
	bool request;			/* the probe's request was found */
	uint64_t sector;
	uint32_t nr_sector;
	char rwbs[12];
	int ioprio;
	struct rtm_iocause_ahead ahead[RTM_IOCAUSE_AHEAD_MAX];
	int nahead;			/* requesters in @ahead */
	uint32_t queued, in_flight;	/* all requests ahead, named or not */
};

struct rtm_iocause;

/*
 * The probe's device (the kernel's dev_t, major << 20 | minor) and CPU; @deadline_ns
 * for the words; @proc_root ("/") to read a task's policy when first named, or NULL
 * (recorded events: "rt 99", "nice 0"). NULL when out of memory.
 */
struct rtm_iocause *rtm_iocause_alloc(uint32_t dev, int cpu, uint64_t deadline_ns,
				      const char *proc_root);
void rtm_iocause_free(struct rtm_iocause *c);

/* The probe thread (its requests and switches). */
void rtm_iocause_follow(struct rtm_iocause *c, int tid);
/* A thread of this process other than the probe: named "this rtmeasure (...)". */
void rtm_iocause_own(struct rtm_iocause *c, int tid);
/* Tracing began at @t_ns: misses planned before it are untraced. */
void rtm_iocause_begin(struct rtm_iocause *c, uint64_t t_ns);

/* The event callback (@ctx the census). 0 or -ENOMEM. */
int rtm_iocause_event(const struct rtm_event *ev, void *ctx);
/* A miss of the probe: @op's name, its planned time, issue and completion (CLOCK_MONOTONIC). */
int rtm_iocause_add(struct rtm_iocause *c, const char *op, uint64_t planned_ns, uint64_t issue_ns,
		    uint64_t done_ns);
/* Events the trace lost so far, in all. */
void rtm_iocause_lost(struct rtm_iocause *c, uint64_t events);
/* Misses the probe could not keep (its list was full), in all: counted, never judged. */
void rtm_iocause_not_listed(struct rtm_iocause *c, uint64_t n);

/*
 * Every event before @horizon_ns (CLOCK_MONOTONIC, when the latest drain began)
 * has been handed over: they are taken in time order, the misses that ended
 * before it get their verdict, events older than RTM_IOCAUSE_KEEP_NS are
 * forgotten. UINT64_MAX at the end. 0 or -ENOMEM.
 */
int rtm_iocause_advance(struct rtm_iocause *c, uint64_t horizon_ns);

const struct rtm_iocause_verdict *rtm_iocause_verdicts(const struct rtm_iocause *c, size_t *n);

/*
 * sections.io.causes (docs/result-schema.md): "misses", "by_cause", "causes" (culprits by
 * count), "ahead" (requesters by misses), "parts_ns" (each part summed), "list" (the
 * verdicts), "list_truncated", "not_listed", "trace_lost", "complete". NULL: no memory.
 */
json_t *rtm_iocause_to_json(const struct rtm_iocause *c);

/* "be:4", "rt:0", "idle", "none"; "?" for -1. */
char *rtm_iocause_ioprio_str(int ioprio, char *buf, size_t len);

/*
 * "12 misses over 2 ms: 9 queued behind fio pid 812 (WS, be:4), 2 on the device, 1 with
 * the issue late by cc1 pid 7 (OTHER nice 0)" from a section (at most @top culprits).
 */
void rtm_iocause_sentence(const json_t *sec, char *buf, size_t len, int top);
/*
 * One miss of the section's "list": "randread at 1.250 s, 12.3 ms: queued 9.1 ms behind 14
 * requests (2 queued, 12 in flight) of fio pid 812 (WS, be:4); on the device 2.1 ms; issued
 * 10 us late; woken 30 us after completion".
 */
void rtm_iocause_miss_sentence(const json_t *miss, uint64_t start_ns, char *buf, size_t len);

#endif
