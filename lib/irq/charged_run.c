// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * charged_run.c - one run of irq --accounting: the trace and the /proc reads
 * around it, fed to the accounting of charged.c and charged_proc.c.
 *
 * Order: tracing on, one switch forced on every CPU (so each CPU's running
 * task is known from then on), /proc/stat and every thread's stat and
 * schedstat read, the run, the same reads again, tracing off. A task's ran
 * and interrupt time count between its own two reads, like its charged time.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "irq/charged.h"
#include "irq/irq.h"
#include "box/sysinfo.h"
#include "tracefs/instance.h"

#define DRAIN_NS 100000000ULL	/* drain the buffers every 100 ms */

static uint64_t mono_ns(void)
{
	return rtm_clock_ns(CLOCK_MONOTONIC);
}

static void sleep_until(uint64_t t_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(t_ns / 1000000000ULL),
			       .tv_nsec = (long)(t_ns % 1000000000ULL) };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);	/* EINTR: a signal */
}

/*
 * Make every CPU switch once: moving this thread onto the CPU runs the
 * migration stopper there, and then this thread. A CPU whose running task
 * never switched would otherwise have no known task for the whole run.
 */
static void force_switches(int ncpus)
{
	cpu_set_t old, one;
	int c;

	if (sched_getaffinity(0, sizeof(old), &old))
		return;
	for (c = 0; c < ncpus && c < CPU_SETSIZE; c++) {	/* also outside our own mask */
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		if (sched_setaffinity(0, sizeof(one), &one) == 0)
			sched_yield();
	}
	sched_setaffinity(0, sizeof(old), &old);
}

static const struct rtm_cpulist *selected(const struct rtm_charged_run *run)
{
	return run->cpus && run->cpus->n ? run->cpus : NULL;
}

int rtm_charged_run_open(struct rtm_charged_run *run, const struct rtm_cpulist *cpus,
			 struct rtm_error *err)
{
	/* softirq_raise is not needed here: a filter no raise passes keeps it out */
	struct rtm_trace_opts to = { .events = "irq,nmi,sched:sched_switch",
				     .buffer_kb = 32768, .overwrite = false,
				     .filters = { "irq:softirq_raise:vec > 99" }, .nfilters = 1 };
	struct rtm_sysinfo *si;
	int ret;

	memset(run, 0, sizeof(*run));
	run->cpus = cpus;
	run->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	si = rtm_sysinfo_collect("/", err);
	if (!si)
		return -EINVAL;
	rtm_acct_mode_from_sysinfo(si, &run->mode);
	rtm_sysinfo_free(si);
	ret = rtm_irq_snap_read("/", &run->stat0, err);
	if (!ret)
		ret = rtm_irq_check_cpus(&run->stat0, cpus, err);
	rtm_irq_snap_release(&run->stat0);	/* read again once tracing is on */
	if (ret)
		return ret;
	run->a = rtm_cpuacct_alloc(run->ncpus);
	run->trace = run->a ? rtm_trace_create(&to, err) : NULL;
	if (!run->trace) {
		if (err && !err->msg[0])
			rtm_error_set(err, "out of memory");
		rtm_charged_run_release(run);
		return -ENOMEM;
	}
	return 0;
}

/* Tracing on, every CPU switched once, the first reads: the window opens. */
static int run_begin(struct rtm_charged_run *run, struct rtm_error *err)
{
	if (rtm_trace_start(run->trace))
		return rtm_error_set(err, "cannot switch tracing on in %s",
				     rtm_trace_name(run->trace));
	rtm_cpuacct_trace_on(run->a, mono_ns());
	force_switches(run->ncpus);
	if (rtm_irq_snap_read("/", &run->stat0, err) || rtm_task_snap_read("/", &run->first, err))
		return -EINVAL;
	rtm_cpuacct_window(run->a, run->first.begin_ns, UINT64_MAX, &run->first, NULL);
	return 0;
}

/* Feed what the buffers hold to the accounting. */
static int run_drain(struct rtm_charged_run *run, bool last, struct rtm_error *err)
{
	uint64_t l = 0;
	long r = rtm_trace_read(run->trace, rtm_cpuacct_event, run->a, &l, err);

	if (r < 0)
		return (int)r;
	run->events += r;
	run->lost += l + (last ? rtm_trace_dropped(run->trace) : 0);
	return 0;
}

/* The last reads close the window; tracing off, the rest drained, the table. */
static int run_end(struct rtm_charged_run *run, struct rtm_error *err)
{
	uint64_t off;
	int ret;

	if (rtm_task_snap_read("/", &run->last, err) || rtm_irq_snap_read("/", &run->stat1, err) ||
	    rtm_irq_delta(&run->stat0, &run->stat1, &run->stat, err))
		return -EINVAL;
	rtm_cpuacct_window(run->a, run->first.begin_ns, run->last.end_ns, &run->first,
			   &run->last);
	off = mono_ns();
	rtm_trace_stop(run->trace);
	ret = run_drain(run, true, err);
	if (ret)
		return ret;
	rtm_cpuacct_finish(run->a, off);
	run->nrows = rtm_cpuacct_rows(run->a, selected(run), run->mode.user_hz, &run->rows);
	if (run->nrows < 0) {
		run->nrows = 0;
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	run->window_ns = run->last.end_ns - run->first.begin_ns;
	return 0;
}

int rtm_charged_run_measure(struct rtm_charged_run *run, uint64_t duration_ns,
			    const volatile sig_atomic_t *stop, struct rtm_error *err)
{
	uint64_t start, next;
	int ret = run_begin(run, err);

	if (ret)
		return ret;
	start = mono_ns();
	for (next = start + DRAIN_NS; !(stop && *stop); next += DRAIN_NS) {
		if (duration_ns && next - start >= duration_ns)
			break;
		sleep_until(next);
		ret = run_drain(run, false, err);
		if (ret)
			return ret;
	}
	if (duration_ns && !(stop && *stop))
		sleep_until(start + duration_ns);
	return run_end(run, err);
}

json_t *rtm_charged_run_to_json(const struct rtm_charged_run *run)
{
	return json_pack("{s:o, s:o, s:I, s:I}", "accounting", rtm_acct_mode_to_json(&run->mode),
			 "result", rtm_cpuacct_to_json(run->a, run->rows, run->nrows,
						       selected(run), &run->stat,
						       run->mode.user_hz),
			 "trace_events", (json_int_t)run->events,
			 "trace_lost", (json_int_t)run->lost);
}

void rtm_charged_run_release(struct rtm_charged_run *run)
{
	if (run->trace)
		rtm_trace_stop(run->trace);
	rtm_trace_destroy(run->trace);
	rtm_cpuacct_rows_free(run->rows, run->nrows);
	rtm_cpuacct_free(run->a);
	rtm_task_snap_release(&run->first);
	rtm_task_snap_release(&run->last);
	rtm_irq_snap_release(&run->stat0);
	rtm_irq_snap_release(&run->stat1);
	rtm_irq_snap_release(&run->stat);
	memset(run, 0, sizeof(*run));
}
