// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * watch.c - the rates of `rtmeasure irq`, interval by interval: /proc
 * snapshots and their differences (rates.c), and with tracing the handler
 * times of each interval and of the whole run (handlers.c), both fed from one
 * drain of the streaming instance.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "irq/watch.h"
#include "tracefs/instance.h"

int rtm_irq_watch_open(struct rtm_irq_watch *w, const char *root,
		       const struct rtm_cpulist *cpus, bool trace, struct rtm_error *err)
{
	struct rtm_trace_opts to = { .events = "irq,nmi,sched:sched_switch",
				     .buffer_kb = 4096, .overwrite = false };
	int ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	char list[1024];

	memset(w, 0, sizeof(*w));
	w->root = root;
	w->cpus = cpus;
	if (!trace)
		return 0;
	if (cpus) {
		rtm_cpulist_format(cpus, list, sizeof(list));
		to.cpus = list;
	}
	w->iv = rtm_irqacct_alloc(ncpus);
	w->all = rtm_irqacct_alloc(ncpus);
	w->trace = w->iv && w->all ? rtm_trace_create(&to, err) : NULL;
	if (!w->trace) {
		if (err && !err->msg[0])
			rtm_error_set(err, "out of memory");
		rtm_irq_watch_release(w);
		return -ENOMEM;
	}
	return 0;
}

int rtm_irq_watch_start(struct rtm_irq_watch *w, struct rtm_error *err)
{
	int ret;

	if (w->trace)
		rtm_trace_start(w->trace);
	w->start_ns = rtm_clock_ns(CLOCK_MONOTONIC);
	ret = rtm_irq_snap_read(w->root, &w->first, err);
	if (!ret)
		ret = rtm_irq_check_cpus(&w->first, w->cpus, err);
	return ret;
}

/* Each event counts for the interval and for the whole run. */
static int feed_both(const struct rtm_event *ev, void *ctx)
{
	struct rtm_irq_watch *w = ctx;
	int ret = rtm_irqacct_event(ev, w->iv);

	return ret ? ret : rtm_irqacct_event(ev, w->all);
}

int rtm_irq_watch_step(struct rtm_irq_watch *w, bool last, struct rtm_irq_snap *d,
		       struct rtm_error *err)
{
	struct rtm_irq_snap cur;
	uint64_t l = 0;
	int ret;

	memset(&cur, 0, sizeof(cur));
	memset(d, 0, sizeof(*d));
	ret = rtm_irq_snap_read(w->root, &cur, err);
	if (!ret)
		ret = rtm_irq_delta(w->have_prev ? &w->prev : &w->first, &cur, d, err);
	if (ret) {
		rtm_irq_snap_release(&cur);
		return ret;
	}
	if (w->trace && last)
		rtm_trace_stop(w->trace);	/* the trace ends with the counts */
	if (w->trace) {
		rtm_irqacct_reset(w->iv);
		if (rtm_trace_read(w->trace, feed_both, w, &l, err) < 0) {
			rtm_irq_snap_release(&cur);
			rtm_irq_snap_release(d);
			return -EIO;
		}
		w->lost += l;
	}
	if (w->have_prev)
		rtm_irq_snap_release(&w->prev);
	w->prev = cur;
	w->have_prev = true;
	return 0;
}

uint64_t rtm_irq_watch_lost(const struct rtm_irq_watch *w)
{
	return w->trace ? w->lost + rtm_trace_dropped(w->trace) : 0;
}

void rtm_irq_watch_stop(struct rtm_irq_watch *w)
{
	if (!w->trace)
		return;
	rtm_trace_stop(w->trace);
	w->lost += rtm_trace_dropped(w->trace);
	rtm_trace_destroy(w->trace);
	w->trace = NULL;
}

json_t *rtm_irq_watch_to_json(const struct rtm_irq_watch *w, struct rtm_error *err)
{
	struct rtm_irq_snap d;
	json_t *doc;

	memset(&d, 0, sizeof(d));
	if (rtm_irq_delta(&w->first, w->have_prev ? &w->prev : &w->first, &d, err))
		return NULL;
	doc = json_pack("{s:o}", "interrupts", rtm_irq_delta_to_json(&d, false));
	if (w->all) {
		json_object_set_new(doc, "handlers", rtm_irqacct_to_json(w->all));
		json_object_set_new(doc, "trace_lost", json_integer((json_int_t)w->lost));
	}
	rtm_irq_snap_release(&d);
	return doc;
}

void rtm_irq_watch_release(struct rtm_irq_watch *w)
{
	rtm_irq_watch_stop(w);
	rtm_irqacct_free(w->iv);
	rtm_irqacct_free(w->all);
	if (w->have_prev)
		rtm_irq_snap_release(&w->prev);
	rtm_irq_snap_release(&w->first);
	memset(w, 0, sizeof(*w));
}
