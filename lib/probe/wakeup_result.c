// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wakeup_result.c - what the wake-up programs counted (a copy of their maps)
 * as histograms, interval figures, the tasks with the longest waits, and a
 * result. Memory only: unit-tested on synthetic map contents.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonutil.h"
#include "core/task.h"
#include "probe/wakeup.h"

typedef unsigned __int128 u128;

/**
 * rtm_wakeup_snap_alloc - a copy of the maps of @ncpus CPUs and @task_cap tasks
 *
 * Returns NULL with errno set (EINVAL, ENOMEM).
 */
struct rtm_wakeup_snap *rtm_wakeup_snap_alloc(int ncpus, uint32_t task_cap)
{
	struct rtm_wakeup_snap *s;

	if (ncpus <= 0 || ncpus > RTM_WK_MAX_CPUS || !task_cap) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->ncpus = ncpus;
	s->task_cap = task_cap;
	s->counts = calloc((size_t)ncpus * RTM_HIST_NCOUNTS, sizeof(*s->counts));
	s->cpu = calloc((size_t)ncpus, sizeof(*s->cpu));
	s->tasks = calloc(task_cap, sizeof(*s->tasks));
	if (!s->counts || !s->cpu || !s->tasks) {
		rtm_wakeup_snap_free(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

void rtm_wakeup_snap_free(struct rtm_wakeup_snap *s)
{
	if (!s)
		return;
	free(s->counts);
	free(s->cpu);
	free(s->tasks);
	free(s);
}

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static u128 clamp_u128(u128 v, u128 lo, u128 hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * min, max and the sums of @h (counters filled) from the programs' figures @c,
 * each kept within what the counters allow.
 */
static void settle(struct rtm_hist *h, const struct rtm_wk_cpu *c)
{
	const unsigned int top = RTM_HIST_NCOUNTS - 1;
	unsigned int first = 0, last = top;
	u128 mm;

	if (!h->count) {
		rtm_hist_reset(h);
		return;
	}
	while (!h->counts[first])
		first++;
	while (!h->counts[last])
		last--;
	/* the top counter holds the values of its bucket and those above the top */
	h->saturated = last != top ? 0 : c->saturated < h->counts[top] ? c->saturated :
		       h->counts[top];
	if (h->saturated)
		h->max_ns = c->max_ns > RTM_HIST_MAX_NS ? c->max_ns : RTM_HIST_MAX_NS + 1;
	else
		h->max_ns = clamp_u64(c->max_ns, rtm_hist_index_lo(last), rtm_hist_index_hi(last));
	if (h->count == h->saturated)
		h->min_ns = clamp_u64(c->min_ns, RTM_HIST_MAX_NS + 1, h->max_ns);
	else
		h->min_ns = clamp_u64(c->min_ns, rtm_hist_index_lo(first),
				      rtm_hist_index_hi(first));
	if ((u128)h->count * h->max_ns <= UINT64_MAX)
		h->sum_ns = clamp_u64(c->sum_ns, h->count * h->min_ns, h->count * h->max_ns);
	else
		h->sum_ns = c->sum_ns;
	h->sum_sq = ((u128)c->sum_sq_hi << 64) | c->sum_sq_lo;
	mm = (u128)h->max_ns * h->max_ns;
	if (mm && h->count <= ~(u128)0 / mm)
		h->sum_sq = clamp_u128(h->sum_sq, (u128)h->min_ns * h->min_ns * h->count,
				       mm * h->count);
}

void rtm_wakeup_fill_hist(const uint64_t *counts, const struct rtm_wk_cpu *c,
			  struct rtm_hist *h)
{
	unsigned int i;

	rtm_hist_reset(h);
	for (i = 0; i < RTM_HIST_NCOUNTS; i++) {
		h->counts[i] = counts[i];
		h->count += counts[i];
	}
	settle(h, c);
}

void rtm_wakeup_cpu_hist(const struct rtm_wakeup_snap *s, int cpu, struct rtm_hist *h)
{
	rtm_wakeup_fill_hist(s->counts + (size_t)cpu * RTM_HIST_NCOUNTS, &s->cpu[cpu], h);
}

void rtm_wakeup_interval(const struct rtm_wakeup_snap *s, int cpu, uint64_t e,
			 uint64_t *count, uint64_t *min_ns, uint64_t *max_ns)
{
	const struct rtm_wk_cpu *c = &s->cpu[cpu];
	unsigned int slot = e & 1;

	if (c->ival_epoch[slot] != e || !c->ival_count[slot]) {
		*count = 0;
		*min_ns = UINT64_MAX;
		*max_ns = 0;
		return;
	}
	*count = c->ival_count[slot];
	*min_ns = c->ival_min_ns[slot];
	*max_ns = c->ival_max_ns[slot];
}

void rtm_wakeup_ts_point(const struct rtm_wakeup_snap *s, int cpu, uint64_t e,
			 const struct rtm_hist *prev, const struct rtm_hist *cur,
			 struct rtm_hist *diff, struct rtm_ts_point *p)
{
	memset(p, 0, sizeof(*p));
	rtm_wakeup_interval(s, cpu, e, &p->count, &p->min_ns, &p->max_ns);
	if (!p->count)
		return;
	/* a torn copy (no difference to take): the max, an upper bound */
	if (rtm_hist_diff(diff, cur, prev) || !diff->count)
		p->p99_ns = p->max_ns;
	else
		p->p99_ns = clamp_u64(rtm_hist_percentile(diff, 99.0), p->min_ns, p->max_ns);
}

static int by_max_desc(const void *a, const void *b)
{
	const struct rtm_wk_task *x = a, *y = b;

	if (x->max_ns != y->max_ns)
		return x->max_ns < y->max_ns ? 1 : -1;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

void rtm_wakeup_sort_tasks(struct rtm_wakeup_snap *s)
{
	qsort(s->tasks, s->ntasks, sizeof(*s->tasks), by_max_desc);
}

static json_t *task_json(const struct rtm_wk_task *t)
{
	char buf[32];

	return json_pack("{s:i, s:i, s:o, s:s, s:i, s:o, s:o, s:o, s:o, s:i}",
			 "pid", (int)t->pid, "tgid", (int)t->tgid,
			 "comm", rtm_json_textn(t->comm, strnlen(t->comm, sizeof(t->comm))),
			 "policy", rtm_kpolicy_name(t->policy, buf, sizeof(buf)),
			 /* rt_priority of an RT task: the kernel's prio is 99 - it */
			 "rt_priority", t->policy == 1 || t->policy == 2 ? 99 - t->prio : 0,
			 "count", rtm_json_u64(t->count),
			 "avg_ns", rtm_json_u64(t->count ? t->sum_ns / t->count : 0),
			 "max_ns", rtm_json_u64(t->max_ns), "above", rtm_json_u64(t->above),
			 "max_cpu", t->max_cpu);
}

static json_t *selection_json(const struct rtm_wakeup_opts *o)
{
	json_t *pol;
	char buf[32];
	int p;

	switch (o->sel) {
	case RTM_WK_SEL_PID:
		return json_pack("{s:s, s:i}", "by", "pid", "pid", o->pid);
	case RTM_WK_SEL_COMM:
		return json_pack("{s:s, s:o}", "by", "comm", "comm",
				 rtm_json_textn(o->comm, strnlen(o->comm, sizeof(o->comm))));
	default:
		pol = json_array();
		for (p = 0; pol && p < 32; p++)
			if (o->policies & (1u << p))
				json_array_append_new(pol, json_string(rtm_kpolicy_name(p, buf,
										sizeof(buf))));
		return json_pack("{s:s, s:o}", "by", "policy", "policies", pol);
	}
}

void rtm_wakeup_causes_lost(const struct rtm_wakeup_snap *s, uint64_t *limited, uint64_t *full)
{
	int cpu;

	*limited = *full = 0;
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		*limited += s->cpu[cpu].causes_limited;
		*full += s->cpu[cpu].causes_full;
	}
}

json_t *rtm_wakeup_section(const struct rtm_wakeup_opts *o, const struct rtm_wakeup_snap *s,
			   int top, const struct rtm_wakeup_census *census)
{
	uint64_t lost_wakes = 0, lost_tasks = 0, above = 0, limited, full;
	json_t *tasks = json_array(), *sec;
	uint32_t i;
	int cpu;

	for (cpu = 0; cpu < s->ncpus; cpu++) {
		lost_wakes += s->cpu[cpu].lost_wakes;
		lost_tasks += s->cpu[cpu].lost_tasks;
		above += s->cpu[cpu].above;
	}
	for (i = 0; tasks && i < s->ntasks && (int)i < top; i++)
		json_array_append_new(tasks, task_json(&s->tasks[i]));
	sec = json_pack("{s:s, s:o, s:o, s:o, s:i, s:i, s:o, s:o, s:o}",
			"measures", "wakeup-to-switch-in", "selection", selection_json(o),
			"above_ns", rtm_json_u64(o->above_ns), "above", rtm_json_u64(above),
			"tasks_seen", (int)s->ntasks, "task_cap", (int)s->task_cap,
			"lost_wakeups", rtm_json_u64(lost_wakes),
			"lost_tasks", rtm_json_u64(lost_tasks), "tasks", tasks);
	if (sec && s->reads)
		json_object_set_new(sec, "task_reads", json_string(s->reads));
	if (sec && census) {
		rtm_wakeup_causes_lost(s, &limited, &full);
		json_object_set_new(sec, "census", rtm_wakeup_census_json(census, limited, full));
	}
	return sec;
}

static struct rtm_result_cpu *result_cpu(struct rtm_result *r, int cpu, uint64_t ts_interval_ns)
{
	int i;

	for (i = 0; i < r->ncpus; i++)
		if (r->cpus[i].cpu == cpu)
			return &r->cpus[i];
	return rtm_result_add_cpu(r, cpu, false, ts_interval_ns);
}

int rtm_wakeup_fill_result(struct rtm_result *r, const struct rtm_wakeup_snap *s,
			   const int *cpus, int ncpus, uint64_t ts_interval_ns)
{
	struct rtm_result_cpu *rc;
	int i, cpu;

	for (i = 0; i < (cpus ? ncpus : s->ncpus); i++) {
		cpu = cpus ? cpus[i] : i;
		if (cpu < 0 || cpu >= s->ncpus || (!cpus && !s->cpu[cpu].count))
			continue;
		rc = result_cpu(r, cpu, ts_interval_ns);
		if (!rc)
			return -ENOMEM;
		rtm_wakeup_cpu_hist(s, cpu, rc->raw);
	}
	return 0;
}
