// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wakeup_run.c - one rtmeasure wakeup measurement: the programs loaded with
 * every buffer already allocated, their maps read at each interval's end into
 * the result's histograms and time series, result.json saved as it goes.
 */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "box/sysinfo.h"
#include "core/clock.h"
#include "core/units.h"
#include "probe/wakeup.h"

struct wk_state {
	const struct rtm_wakeup_run *o;
	struct rtm_wakeup *w;
	struct rtm_wakeup_snap *snap;
	struct rtm_result *r;
	struct rtm_hist **prev;		/* each result CPU's histogram at the last interval */
	struct rtm_hist *diff;
	struct rtm_cpulist cpus;	/* the CPUs measured */
	struct rtm_wakeup_census *census; /* with a bound: the waits over it */
	struct rtm_wakeup_opts sel;	/* o->sel, with the census's hook */
};

static void take_cause(const struct rtm_wk_cause_rec *r, void *ctx)
{
	struct wk_state *st = ctx;

	rtm_wakeup_census_add(st->census, r);
}

/* The box's facts into the result; the CPUs of -a, or those online. */
static int pick_cpus(struct wk_state *st, struct rtm_error *err)
{
	const struct rtm_wakeup_opts *sel = &st->o->sel;
	struct rtm_sysinfo *si = rtm_sysinfo_collect("/", err);
	int ret = 0, i;

	if (!si)
		return -EIO;
	st->r->sysinfo = rtm_sysinfo_to_json(si);
	if (sel->cpus) {
		st->cpus.cpus = malloc((size_t)sel->ncpus * sizeof(int));
		if (!st->cpus.cpus)
			ret = rtm_error_setn(err, -ENOMEM, "out of memory");
		for (i = 0; !ret && i < sel->ncpus; i++)
			st->cpus.cpus[i] = sel->cpus[i];
		st->cpus.n = ret ? 0 : sel->ncpus;
	} else {
		ret = rtm_cpulist_parse(si->online, &st->cpus, err);
	}
	rtm_sysinfo_free(si);
	return ret;
}

/* Everything the run needs, before the programs attach. */
static int setup(struct wk_state *st, struct rtm_error *err)
{
	int i, ret;

	st->r = rtm_result_alloc("wakeup");
	if (!st->r)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	ret = pick_cpus(st, err);
	if (ret)
		return ret;
	st->sel = st->o->sel;
	if (st->sel.above_ns) {
		/* the census is allocated below, before the first poll */
		st->sel.on_cause = take_cause;
		st->sel.cause_ctx = st;
	}
	st->w = rtm_wakeup_create(&st->sel, err);
	if (!st->w)
		return -errno;
	if (st->sel.above_ns) {
		st->census = rtm_wakeup_census_alloc(rtm_wakeup_ncpus(st->w), st->sel.above_ns);
		if (!st->census)
			return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < st->cpus.n; i++)
		if (st->cpus.cpus[i] >= rtm_wakeup_ncpus(st->w))
			return rtm_error_set(err, "-a: CPU %d does not exist (possible CPUs: 0-%d)",
					     st->cpus.cpus[i], rtm_wakeup_ncpus(st->w) - 1);
	st->snap = rtm_wakeup_snap_alloc(rtm_wakeup_ncpus(st->w), rtm_wakeup_task_cap(st->w));
	st->prev = calloc((size_t)st->cpus.n, sizeof(*st->prev));
	st->diff = rtm_hist_alloc();
	if (!st->snap || !st->prev || !st->diff)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	for (i = 0; i < st->cpus.n; i++) {
		st->prev[i] = rtm_hist_alloc();
		if (!st->prev[i])
			return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	if (st->o->options)
		json_object_update(st->r->options, st->o->options);
	ret = rtm_wakeup_fill_result(st->r, st->snap, st->cpus.cpus, st->cpus.n,
				     st->o->interval_ns);
	return ret ? rtm_error_setn(err, ret, "out of memory") : 0;
}

/* The maps at an interval's end into the result: a time-series point per CPU. */
static int read_interval(struct wk_state *st, uint64_t e, uint64_t start_ns, uint64_t width_ns,
			 struct rtm_error *err)
{
	struct rtm_ts_point p;
	int i, ret;

	ret = rtm_wakeup_read(st->w, st->snap);
	if (ret)
		return rtm_error_setn(err, ret, "cannot read the wake-up maps: %s", strerror(-ret));
	for (i = 0; i < st->r->ncpus; i++) {
		struct rtm_result_cpu *rc = &st->r->cpus[i];

		rtm_hist_copy(st->prev[i], rc->raw);
		rtm_wakeup_cpu_hist(st->snap, rc->cpu, rc->raw);
		rtm_wakeup_ts_point(st->snap, rc->cpu, e, st->prev[i], rc->raw, st->diff, &p);
		p.start_ns = start_ns;
		p.width_ns = width_ns;
		if (rc->ts)
			rtm_ts_add(rc->ts, &p);
	}
	rtm_wakeup_sort_tasks(st->snap);
	json_object_set_new(st->r->sections, "wakeup",
			    rtm_wakeup_section(&st->o->sel, st->snap, st->o->top, st->census));
	return 0;
}

/* Until @t_ns, the cause records handed to the census as they come (EINTR: a signal). */
static void wait_until(struct wk_state *st, uint64_t t_ns, uint64_t now)
{
	uint64_t left_ms = (t_ns - now + 999999) / 1000000;

	rtm_wakeup_poll(st->w, left_ms < RTM_WAKEUP_POLL_MS ? (int)left_ms : RTM_WAKEUP_POLL_MS);
}

/*
 * Between saves only the structures sized at start stay: the section's JSON
 * (its census list alone grows to RTM_WAKEUP_CAUSE_LIST records) is built anew
 * from them at each save, and the heap the save used goes back to the system,
 * so a run of days keeps the resident set it had after its first interval.
 */
static void settle_memory(struct wk_state *st)
{
	json_object_del(st->r->sections, "wakeup");
	malloc_trim(0);
}

/* Intervals until the end or a stop; the last one ends when the run does. */
static int measure(struct wk_state *st, const volatile sig_atomic_t *stop, struct rtm_error *err)
{
	const struct rtm_wakeup_run *o = st->o;
	uint64_t start = rtm_clock_ns(CLOCK_MONOTONIC), from = start, to, now;
	int ret;

	for (;;) {
		to = from + o->interval_ns;
		if (o->duration_ns && to > start + o->duration_ns)
			to = start + o->duration_ns;
		while (!*stop && (now = rtm_clock_ns(CLOCK_MONOTONIC)) < to)
			wait_until(st, to, now);
		now = rtm_clock_ns(CLOCK_MONOTONIC);
		if (*stop || (o->duration_ns && now >= start + o->duration_ns))
			rtm_wakeup_detach(st->w);	/* the last read is exact */
		rtm_wakeup_poll(st->w, 0);		/* the records sent so far */
		rtm_wakeup_next_interval(st->w);
		ret = read_interval(st, rtm_wakeup_epoch(st->w) - 1, from - start, now - from, err);
		if (ret)
			return ret;
		st->r->duration_ns = now - start;
		st->r->interrupted = *stop != 0;
		ret = rtm_result_save(st->r, o->dir, err);
		if (!ret && o->on_interval)
			o->on_interval(st->r, o->interval_ctx);
		if (ret || *stop || (o->duration_ns && now >= start + o->duration_ns))
			return ret;
		settle_memory(st);
		from = now;
	}
}

int rtm_wakeup_run(const struct rtm_wakeup_run *o, const volatile sig_atomic_t *stop,
		   struct rtm_result **out, struct rtm_error *err)
{
	struct wk_state st = { .o = o };
	int ret, i;

	*out = NULL;
	ret = setup(&st, err);
	if (!ret)
		ret = measure(&st, stop, err);
	rtm_wakeup_destroy(st.w);
	rtm_wakeup_snap_free(st.snap);
	for (i = 0; st.prev && i < st.cpus.n; i++)
		rtm_hist_free(st.prev[i]);
	free(st.prev);
	rtm_hist_free(st.diff);
	rtm_cpulist_release(&st.cpus);
	rtm_wakeup_census_free(st.census);
	if (ret)
		rtm_result_free(st.r);
	else
		*out = st.r;
	return ret;
}
