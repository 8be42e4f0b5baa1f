/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iotrace.h - the trace instance of the storage probe (rtmeasure-PID-io): the
 * block events of its device and the scheduler events of its CPU, streamed to
 * lib/trace/iocause.c for a cause for every deadline miss.
 *
 * The instance traces every CPU (a request is inserted, issued and completed
 * wherever the kernel runs it), its block_rq_insert, block_rq_issue and
 * block_rq_complete filtered to the device, sched_switch to the probe's CPU
 * and sched_wakeup to the tasks woken there. It does not overwrite; the drive
 * loop drains it and hands the probe's misses over as they come.
 */
#ifndef RTM_IOTRACE_H
#define RTM_IOTRACE_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/error.h"

struct rtm_iotrace_opts {
	unsigned int major, minor;	/* the block device the probe's requests go to */
	int cpu;			/* the probe thread's CPU */
	uint64_t deadline_ns;
	size_t buffer_kb;		/* per CPU, 0: 2048 */
};

struct rtm_iotrace;

/*
 * Create the instance and start tracing (before the probe starts, so that its
 * first request is seen). NULL with @err naming the problem (no tracefs, not
 * root, no block events) and the fix.
 */
struct rtm_iotrace *rtm_iotrace_start(const struct rtm_iotrace_opts *o, struct rtm_error *err);
/* The instance's stale-instance note (rtm_trace_stale_note()) on @f. */
void rtm_iotrace_stale_note(const struct rtm_iotrace *t, FILE *f);
/* The probe thread, once it runs: its requests are the ones inserted in its context. */
void rtm_iotrace_follow(struct rtm_iotrace *t, int tid);
/* A miss of the probe (CLOCK_MONOTONIC times). 0 or -ENOMEM. */
int rtm_iotrace_add(struct rtm_iotrace *t, const char *op, uint64_t planned_ns,
		    uint64_t issue_ns, uint64_t done_ns);
/* Drain the buffers; the misses that ended before the drain get their verdict. */
void rtm_iotrace_poll(struct rtm_iotrace *t);
/*
 * Stop, drain, judge every miss left: sections.io.causes (a new reference;
 * NULL when out of memory, said on @err). @not_listed: misses the probe could
 * not keep.
 */
json_t *rtm_iotrace_finish(struct rtm_iotrace *t, uint64_t not_listed, FILE *err);
void rtm_iotrace_free(struct rtm_iotrace *t);

#endif
