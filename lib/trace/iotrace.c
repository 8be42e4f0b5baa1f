// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iotrace.c - the storage probe's trace instance (iotrace.h), drained into
 * lib/trace/iocause.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "trace/iocause.h"
#include "trace/iotrace.h"
#include "tracefs/instance.h"

#define IOTRACE_EVENTS	"block:block_rq_insert,block:block_rq_issue,block:block_rq_complete," \
			"sched:sched_switch,sched:sched_wakeup"

struct rtm_iotrace {
	struct rtm_trace *trace;
	struct rtm_iocause *cause;
	uint64_t lost;
	bool failed;			/* a drain failed: the causes are incomplete */
};

/* The instance, its events filtered to the device and the CPU where the kernel takes it. */
static struct rtm_trace *create(const struct rtm_iotrace_opts *o, struct rtm_error *err)
{
	static const char *const block[] = { "block_rq_insert", "block_rq_issue",
					     "block_rq_complete" };
	struct rtm_trace_opts to = { .events = IOTRACE_EVENTS, .overwrite = false,
				     .suffix = "io",
				     .buffer_kb = o->buffer_kb ? o->buffer_kb : 2048 };
	char f[5][96];
	struct rtm_trace *t;
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(f[i], sizeof(f[i]), "block:%s:dev == %u", block[i],
			 o->major << 20 | o->minor);
		to.filters[to.nfilters++] = f[i];
	}
	snprintf(f[3], sizeof(f[3]), "sched:sched_switch:CPU == %d", o->cpu);
	snprintf(f[4], sizeof(f[4]), "sched:sched_wakeup:target_cpu == %d", o->cpu);
	to.filters[to.nfilters++] = f[3];
	to.filters[to.nfilters++] = f[4];
	t = rtm_trace_create(&to, err);
	if (!t && strstr(err->msg, "trace filter")) {
		/* a kernel that refuses a filter: the causes check device and CPU themselves */
		to.nfilters = 0;
		t = rtm_trace_create(&to, err);
	}
	return t;
}

struct rtm_iotrace *rtm_iotrace_start(const struct rtm_iotrace_opts *o, struct rtm_error *err)
{
	struct rtm_iotrace *t = calloc(1, sizeof(*t));

	if (!t) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	t->cause = rtm_iocause_alloc(o->major << 20 | o->minor, o->cpu, o->deadline_ns, "/");
	if (!t->cause) {
		rtm_error_set(err, "out of memory");
		free(t);
		return NULL;
	}
	rtm_iocause_own(t->cause, (int)getpid());
	t->trace = create(o, err);
	if (!t->trace) {
		rtm_iotrace_free(t);
		return NULL;
	}
	rtm_iocause_begin(t->cause, rtm_clock_ns(CLOCK_MONOTONIC));
	if (rtm_trace_start(t->trace)) {
		rtm_error_set(err, "cannot switch tracing on in %s", rtm_trace_name(t->trace));
		rtm_iotrace_free(t);
		return NULL;
	}
	return t;
}

void rtm_iotrace_stale_note(const struct rtm_iotrace *t, FILE *f)
{
	rtm_trace_stale_note(t ? t->trace : NULL, f);
}

void rtm_iotrace_follow(struct rtm_iotrace *t, int tid)
{
	rtm_iocause_follow(t->cause, tid);
}

int rtm_iotrace_add(struct rtm_iotrace *t, const char *op, uint64_t planned_ns,
		    uint64_t issue_ns, uint64_t done_ns)
{
	return rtm_iocause_add(t->cause, op, planned_ns, issue_ns, done_ns);
}

static void drain(struct rtm_iotrace *t, uint64_t horizon)
{
	uint64_t lost = 0;

	if (t->failed)
		return;
	if (rtm_trace_read(t->trace, rtm_iocause_event, t->cause, &lost, NULL) < 0)
		t->failed = true;
	t->lost += lost;
	rtm_iocause_lost(t->cause, t->lost);
	if (rtm_iocause_advance(t->cause, horizon))
		t->failed = true;
}

void rtm_iotrace_poll(struct rtm_iotrace *t)
{
	/* every event before the drain began is in the buffers it reads */
	drain(t, rtm_clock_ns(CLOCK_MONOTONIC));
}

json_t *rtm_iotrace_finish(struct rtm_iotrace *t, uint64_t not_listed, FILE *err)
{
	json_t *sec;

	rtm_trace_stop(t->trace);
	drain(t, UINT64_MAX);
	if (t->failed)	/* whatever was read is still judged */
		rtm_iocause_advance(t->cause, UINT64_MAX);
	t->lost += rtm_trace_dropped(t->trace);
	rtm_iocause_lost(t->cause, t->lost);
	rtm_iocause_not_listed(t->cause, not_listed);
	sec = rtm_iocause_to_json(t->cause);
	if (!sec) {
		if (err)
			fprintf(err, "rtmeasure: warning: no causes for the misses (out of memory)\n");
		return NULL;
	}
	if (t->failed || rtm_trace_refused(t->trace))
		json_object_set_new(sec, "complete", json_false());
	return sec;
}

void rtm_iotrace_free(struct rtm_iotrace *t)
{
	if (!t)
		return;
	rtm_trace_destroy(t->trace);
	rtm_iocause_free(t->cause);
	free(t);
}
