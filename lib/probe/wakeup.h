/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wakeup.h - the wake-up latency of the box's own tasks, measured in the kernel
 * by BPF programs on the scheduler's tracepoints (wakeup.bpf.c): load and
 * attach them, read their maps, turn what they counted into a result.
 *
 * A wait runs from the task's sched_wakeup (or sched_wakeup_new) to its
 * sched_switch in, on the CPU it runs on. Memory is fixed at the start: the
 * maps are sized then (per-CPU histograms of core/hist.h's layout, a bounded
 * table of tasks) and so is the snapshot they are copied into.
 */
#ifndef RTM_WAKEUP_H
#define RTM_WAKEUP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "core/hist.h"
#include "core/timeseries.h"
#include "probe/wakeup_cause.h"
#include "probe/wakeup_maps.h"
#include "result/result.h"

#define RTM_WAKEUP_TASK_CAP	1024	/* tasks measured apart, default */
/* slots of the pending wake-ups, indexed by pid modulo it (a power of two) */
#define RTM_WAKEUP_WAKE_SLOTS	16384
#define RTM_WAKEUP_TOP		20	/* tasks kept in the result, the longest waits first */
#define RTM_WAKEUP_POLL_MS	100	/* the cause records are read at least this often */
/* the default selection: SCHED_FIFO, SCHED_RR and SCHED_DEADLINE */
#define RTM_WAKEUP_RT_POLICIES	((1u << 1) | (1u << 2) | (1u << 6))

struct rtm_wakeup_opts {
	enum rtm_wk_sel sel;
	unsigned int policies;		/* RTM_WK_SEL_POLICY: bit n for SCHED_* n */
	int pid;			/* RTM_WK_SEL_PID */
	char comm[RTM_WK_COMM_LEN];	/* RTM_WK_SEL_COMM */
	const int *cpus;		/* CPUs whose switch-ins count; NULL: all */
	int ncpus;
	uint64_t above_ns;		/* count the waits above it; 0: none */
	uint32_t task_cap;		/* 0: RTM_WAKEUP_TASK_CAP */
	/* each wait over above_ns with its cause, from rtm_wakeup_poll() */
	void (*on_cause)(const struct rtm_wk_cause_rec *r, void *ctx);
	void *cause_ctx;
};

/* A copy of the maps, allocated once (rtm_wakeup_snap_alloc) and refilled. */
struct rtm_wakeup_snap {
	int ncpus;			/* possible CPUs: the slices of @counts */
	uint64_t *counts;		/* ncpus * RTM_HIST_NCOUNTS bucket counters */
	struct rtm_wk_cpu *cpu;		/* ncpus */
	struct rtm_wk_task *tasks;	/* ntasks of task_cap */
	uint32_t ntasks, task_cap;
	/* how the programs read a task's fields: "direct" or "helper" (bpfload.h) */
	const char *reads;
};

/* The cause records not sent, over all CPUs of @s: over the rate, and with the ring full. */
void rtm_wakeup_causes_lost(const struct rtm_wakeup_snap *s, uint64_t *limited, uint64_t *full);

struct rtm_wakeup_snap *rtm_wakeup_snap_alloc(int ncpus, uint32_t task_cap);
void rtm_wakeup_snap_free(struct rtm_wakeup_snap *s);

/* ------------------------------------------------ the programs (wakeup.c) */

struct rtm_wakeup;

/* Whether this build has the BPF programs; when not, what configure missed in @err. */
bool rtm_wakeup_built(struct rtm_error *err);

/**
 * rtm_wakeup_create - load the programs with @o's selection and attach them
 *
 * Returns NULL with errno set and a one-line message naming the cause and the
 * fix in @err: not built with BPF, no privilege, no BTF, a kernel refusal.
 */
struct rtm_wakeup *rtm_wakeup_create(const struct rtm_wakeup_opts *o, struct rtm_error *err);
/* Detach and unload; NULL is ignored. */
void rtm_wakeup_destroy(struct rtm_wakeup *w);
/* Detach the programs: the maps stay readable and stop changing. */
void rtm_wakeup_detach(struct rtm_wakeup *w);
/* Possible CPUs, as the maps are sized. */
int rtm_wakeup_ncpus(const struct rtm_wakeup *w);
uint32_t rtm_wakeup_task_cap(const struct rtm_wakeup *w);
/*
 * Start the next interval: the figures of the interval that ends are kept in
 * the slot the programs leave; rtm_wakeup_read() then copies them.
 */
void rtm_wakeup_next_interval(struct rtm_wakeup *w);
/* The interval counter: slot (epoch - 1) & 1 holds the interval just ended. */
uint64_t rtm_wakeup_epoch(const struct rtm_wakeup *w);
/*
 * Hand the cause records the programs sent to the opts' on_cause, waiting up
 * to @timeout_ms for the first: the number handed, or -errno (-EINTR: a signal).
 */
int rtm_wakeup_poll(struct rtm_wakeup *w, int timeout_ms);
/* Copy the maps into @s (sized for @w). 0 or -errno. */
int rtm_wakeup_read(struct rtm_wakeup *w, struct rtm_wakeup_snap *s);

/* ------------------------------------- maps to results (wakeup_result.c) */

/**
 * rtm_wakeup_cpu_hist - CPU @cpu of @s as a histogram of core/hist.h
 *
 * The programs write while userspace copies, so a copy may hold a wake-up
 * in the counters and not yet in the sums (or the other way): the count is
 * the counters' sum and min, max and the sums are brought within what the
 * counters allow, so the histogram is always valid; after the programs are
 * detached it is exact.
 */
void rtm_wakeup_cpu_hist(const struct rtm_wakeup_snap *s, int cpu, struct rtm_hist *h);

/*
 * The same from one CPU's @counts (RTM_HIST_NCOUNTS bucket counters) and its
 * figures @c: any program counting into hist.c's layout (timersplit.bpf.c).
 */
void rtm_wakeup_fill_hist(const uint64_t *counts, const struct rtm_wk_cpu *c,
			  struct rtm_hist *h);

/*
 * The interval of epoch @e on CPU @cpu: count, min and max as the programs
 * kept them (zero wake-ups when the slot served another epoch).
 */
void rtm_wakeup_interval(const struct rtm_wakeup_snap *s, int cpu, uint64_t e,
			 uint64_t *count, uint64_t *min_ns, uint64_t *max_ns);

/*
 * The time-series point of the interval of epoch @e on CPU @cpu (start and width
 * left 0): count, min and max as the programs kept them, p99 from the counters'
 * difference @cur - @prev (@diff: room for it), within min and max.
 */
void rtm_wakeup_ts_point(const struct rtm_wakeup_snap *s, int cpu, uint64_t e,
			 const struct rtm_hist *prev, const struct rtm_hist *cur,
			 struct rtm_hist *diff, struct rtm_ts_point *p);

/* Sort @s's tasks by longest wait, longest first. */
void rtm_wakeup_sort_tasks(struct rtm_wakeup_snap *s);

/*
 * sections.wakeup of a result: the selection, the bound, the tasks with the
 * longest waits (at most @top, after rtm_wakeup_sort_tasks()), the lost counts,
 * and with a bound the census of the waits over it (@census, or NULL).
 */
json_t *rtm_wakeup_section(const struct rtm_wakeup_opts *o, const struct rtm_wakeup_snap *s,
			   int top, const struct rtm_wakeup_census *census);

/*
 * Fill @r's CPUs from @s: every CPU of @cpus (NULL: every CPU that measured a
 * wake-up) gets its histogram (a time series of @ts_interval_ns when the
 * CPU is new). 0 or -ENOMEM.
 */
int rtm_wakeup_fill_result(struct rtm_result *r, const struct rtm_wakeup_snap *s,
			   const int *cpus, int ncpus, uint64_t ts_interval_ns);

/* ------------------------------------------ one measurement (wakeup_run.c) */

struct rtm_wakeup_run {
	struct rtm_wakeup_opts sel;	/* sel.cpus NULL: the online CPUs */
	uint64_t duration_ns;		/* 0: until *stop */
	uint64_t interval_ns;		/* time-series points and saves of result.json */
	const char *dir;		/* the results folder, checked by the caller */
	json_t *options;		/* the options as given, for the result (a reference) */
	int top;			/* tasks kept in sections.wakeup */
	/*
	 * After each interval's result.json is saved: the result as saved, for a
	 * live reader (--prometheus); NULL: none. Called on the measuring thread.
	 */
	void (*on_interval)(const struct rtm_result *r, void *ctx);
	void *interval_ctx;
};

/**
 * rtm_wakeup_run - load the programs, measure until the end or *@stop, save
 *
 * result.json is written in @o->dir after every interval (a crash loses at
 * most one) and at the end, when the programs are detached and the figures
 * exact. Memory is allocated before the programs attach and not after.
 * Returns 0 with the result in @out (free it), or -errno with @err set.
 */
int rtm_wakeup_run(const struct rtm_wakeup_run *o, const volatile sig_atomic_t *stop,
		   struct rtm_result **out, struct rtm_error *err);

#endif
