/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * charged.h - who is charged for interrupt time.
 *
 * Three views of the same CPU time, per task and per CPU:
 *   charged   what the kernel booked to the task: utime+stime of
 *             /proc/PID/task/TID/stat (clock ticks, 1/USER_HZ s) and
 *             sum_exec_runtime of /proc/PID/task/TID/schedstat (ns), the
 *             difference of two snapshots (struct rtm_task_snap);
 *   ran       the task's on-CPU time: the intervals between its sched_switch in
 *             and out, from the trace;
 *   interrupt the hard-IRQ (irq_handler, irq_vectors) and softirq handler time
 *             that fell inside those intervals, from irq/handlers.h's handler
 *             pairing (a softirq's time without the hard IRQs nested in it).
 *
 * Fed the decoded events of each CPU in time order (rtm_cpuacct_event() is an
 * rtm_event_cb). A task's ran and interrupt time are counted in its own window,
 * the times its two snapshots were read, so they cover the span its charged
 * time covers; the per-CPU totals use the whole window [begin, end].
 *
 * A CPU's running task is known from its first sched_switch on; before it,
 * handler time on that CPU is "unattributed" (counted, never guessed).
 * Which accounting the kernel does, and so how charged relates to ran, is
 * struct rtm_acct_mode.
 */
#ifndef RTM_CPUACCT_H
#define RTM_CPUACCT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "core/task.h"
#include "irq/irq.h"
#include "irq/handlers.h"
#include "box/sysinfo.h"
#include "tracefs/tracedec.h"
#include "core/units.h"

struct rtm_trace;

/* ------------------------------------------------------------ /proc tasks */

/* Every thread of every process, sorted by tid. */
struct rtm_task_snap {
	int n, cap;
	struct rtm_task_stat *t;
	uint64_t begin_ns, end_ns;	/* CLOCK_MONOTONIC around the whole read */
};

/*
 * Read /proc/[pid]/task/[tid]/stat and schedstat of every thread below @root.
 * Threads that end while being read are skipped. A thread whose two reads took
 * over 100 us (the reader was preempted) is read again, up to 3 times: the
 * values belong to a time between read_ns and read_end_ns. -errno with a message when
 * /proc cannot be listed or holds no task at all.
 */
int rtm_task_snap_read(const char *root, struct rtm_task_snap *s, struct rtm_error *err);
void rtm_task_snap_release(struct rtm_task_snap *s);
const struct rtm_task_stat *rtm_task_snap_find(const struct rtm_task_snap *s, int tid);

/* ------------------------------------------------------------ the kernel's accounting */

enum rtm_cputime_kind {
	RTM_CPUTIME_UNKNOWN,
	RTM_CPUTIME_TICK,		/* CONFIG_TICK_CPU_ACCOUNTING */
	RTM_CPUTIME_VIRT_GEN,		/* CONFIG_VIRT_CPU_ACCOUNTING_GEN (nohz_full CPUs) */
	RTM_CPUTIME_VIRT_NATIVE,	/* CONFIG_VIRT_CPU_ACCOUNTING_NATIVE (not x86) */
};

struct rtm_acct_mode {
	int irq_time_config;		/* CONFIG_IRQ_TIME_ACCOUNTING: 1, 0, -1 unknown */
	bool irq_time_noirqtime;	/* x86 tsc=noirqtime: built in but never enabled */
	bool irq_time;			/* in effect, as far as can be known */
	enum rtm_cputime_kind cputime;
	char nohz_full[256];		/* "" none */
	int forced_threading;		/* CONFIG_IRQ_FORCED_THREADING: 1, 0, -1 */
	bool threadirqs, preempt_rt;
	bool threaded;			/* device handlers run in irq/N-name threads */
	int paravirt_steal;		/* CONFIG_PARAVIRT_TIME_ACCOUNTING: 1, 0, -1 */
	bool vm;
	int hz, user_hz;
	char config_source[96];		/* "" when no config was found */
};

void rtm_acct_mode_from_sysinfo(const struct rtm_sysinfo *si, struct rtm_acct_mode *m);

#define RTM_ACCT_LINES 4
/*
 * The statements: which accounting the kernel uses and what follows for the
 * tables (IRQ time, the utime/stime split, IRQ threads, steal time). Returns
 * the number of lines written into @out (not "lines": term.h defines that name).
 */
int rtm_acct_mode_lines(const struct rtm_acct_mode *m, char out[RTM_ACCT_LINES][400]);
json_t *rtm_acct_mode_to_json(const struct rtm_acct_mode *m);

/* ------------------------------------------------------------ trace accounting */

/* A task's time on one CPU (or a CPU's, summed), in ns. */
struct rtm_cpuacct_share {
	uint64_t ran_ns;
	uint64_t hardirq_ns, softirq_ns, nmi_ns;	/* handler time inside ran_ns */
	uint64_t hardirqs, softirqs;			/* handler runs */
};

struct rtm_cpuacct_task {
	int tid;			/* 0: the idle task of each CPU */
	char comm[16];			/* from the trace */
	uint64_t win_start_ns, win_end_ns;
	uint64_t spanning;		/* handlers that began before a switch, ended after */
	struct rtm_cpuacct_share *cpu;	/* [ncpus] */
};

struct rtm_cpuacct_cpu {
	bool known;			/* a sched_switch was seen: its running task is known */
	struct rtm_cpuacct_share tasks;	/* all tasks but idle, in [begin, end] */
	struct rtm_cpuacct_share idle;	/* the idle task */
	uint64_t unattributed_ns;	/* handlers before the CPU's first switch */
};

struct rtm_cpuacct;

/* CPUs 0 .. @ncpus - 1 are accounted. NULL when out of memory. */
struct rtm_cpuacct *rtm_cpuacct_alloc(int ncpus);
void rtm_cpuacct_free(struct rtm_cpuacct *a);

/*
 * @on_ns: tracing was on at this time (read after enabling it): the task a
 * CPU's first sched_switch switches out ran since then.
 */
void rtm_cpuacct_trace_on(struct rtm_cpuacct *a, uint64_t on_ns);
/*
 * The window: the per-CPU totals count [@begin_ns, @end_ns]; a task listed in
 * @first (may be NULL) counts from its read time there, one in @last (may be
 * NULL) until its read time there. Call with @first before the first event
 * is fed, and with @last before the events after its reads are fed (the
 * final drain); @end_ns UINT64_MAX until then.
 */
int rtm_cpuacct_window(struct rtm_cpuacct *a, uint64_t begin_ns, uint64_t end_ns,
		       const struct rtm_task_snap *first, const struct rtm_task_snap *last);

/* Account one event (an rtm_event_cb; @ctx is the rtm_cpuacct). 0 or -ENOMEM. */
int rtm_cpuacct_event(const struct rtm_event *ev, void *ctx);

/* Close the running intervals at @off_ns (read before tracing was stopped). */
void rtm_cpuacct_finish(struct rtm_cpuacct *a, uint64_t off_ns);

int rtm_cpuacct_ncpus(const struct rtm_cpuacct *a);
/* The tasks seen (idle tasks have tid 0, one entry for all CPUs). */
const struct rtm_cpuacct_task *rtm_cpuacct_tasks(const struct rtm_cpuacct *a, int *n);
const struct rtm_cpuacct_cpu *rtm_cpuacct_cpu(const struct rtm_cpuacct *a, int cpu);
/* A task's shares summed over the CPUs in @cpus (NULL: all). */
void rtm_cpuacct_task_total(const struct rtm_cpuacct *a, const struct rtm_cpuacct_task *t,
			    const struct rtm_cpulist *cpus, struct rtm_cpuacct_share *out);
/* The handler pairing underneath (per source figures of the same events). */
const struct rtm_irqacct *rtm_cpuacct_irqacct(const struct rtm_cpuacct *a);

/* ------------------------------------------------------------ the table */

/* One task: what the kernel charged it, what it ran, the interrupts inside. */
struct rtm_cpuacct_row {
	const struct rtm_cpuacct_task *task;
	const struct rtm_task_stat *first, *last;	/* its reads; NULL: not there */
	int pid;				/* process (thread group), -1 unknown */
	bool irq_thread;			/* irq/N-name, ksoftirqd/N, ktimers/N */
	bool has_charged;			/* false: it ended before the last read */
	uint64_t read_spread_ns;		/* read_end_ns - read_ns of both reads */
	uint64_t charged_stat_ns;		/* utime+stime difference, in ns */
	bool has_schedstat;
	uint64_t charged_sched_ns;		/* sum_exec_runtime difference */
	struct rtm_cpuacct_share total;		/* all CPUs */
	struct rtm_cpulist ran_on;		/* CPUs it ran on */
};

/*
 * The tasks that ran on a CPU of @cpus (NULL: any), busiest first, and the IRQ
 * threads that ran at all; @user_hz converts utime+stime. Returns the number
 * of rows (*@rows to free with rtm_cpuacct_rows_free()) or -ENOMEM.
 */
int rtm_cpuacct_rows(const struct rtm_cpuacct *a, const struct rtm_cpulist *cpus, int user_hz,
		     struct rtm_cpuacct_row **rows);
void rtm_cpuacct_rows_free(struct rtm_cpuacct_row *rows, int n);

/*
 * JSON: {"window_ns", "cpus": [{"cpu", "known", "tasks": share, "idle": share,
 * "unattributed_ns", "proc_stat": {"irq_ns", "softirq_ns", "steal_ns"}}],
 * "tasks": [{"tid", "pid", "comm", "policy", "rt_priority", "irq_thread",
 * "charged_stat_ns", "charged_schedstat_ns" (null when unknown), "ran_ns",
 * "hardirq_ns", "softirq_ns", "nmi_ns", "interrupt_ns", "per_cpu": [...]}]}.
 * @stat: the /proc/stat difference over the window (may be NULL).
 */
json_t *rtm_cpuacct_to_json(const struct rtm_cpuacct *a, const struct rtm_cpuacct_row *rows,
			    int n, const struct rtm_cpulist *cpus, const struct rtm_irq_snap *stat,
			    int user_hz);

/* ------------------------------------------------------------ a run (charged_run.c) */

/*
 * One run of irq --accounting on this kernel: tracing on, one switch forced on
 * every CPU (so each CPU's running task is known from then on), /proc/stat and
 * every thread's stat and schedstat read, the run, the same reads again,
 * tracing off. A task's ran and interrupt time count between its own two
 * reads, like its charged time.
 */
struct rtm_charged_run {
	const struct rtm_cpulist *cpus;	/* borrowed; NULL or none: all CPUs */
	int ncpus;			/* configured CPUs, all accounted */
	struct rtm_trace *trace;	/* its stale-instance note is the caller's to print */
	struct rtm_acct_mode mode;
	struct rtm_cpuacct *a;
	struct rtm_task_snap first, last;
	struct rtm_irq_snap stat0, stat1;
	/* the outcome of rtm_charged_run_measure() */
	struct rtm_irq_snap stat;	/* the /proc/stat difference over the window */
	struct rtm_cpuacct_row *rows;
	int nrows;
	uint64_t window_ns;		/* from the first reads to the end of the last */
	long events;			/* trace events read */
	uint64_t lost;			/* trace events lost */
};

/*
 * Learn the kernel's accounting (sysinfo), check @cpus are online and create
 * the streaming instance (not started). 0, or -errno with a message (all is
 * released then).
 */
int rtm_charged_run_open(struct rtm_charged_run *run, const struct rtm_cpulist *cpus,
			 struct rtm_error *err);
/*
 * Trace and account for @duration_ns (0: until *@stop is set), draining every
 * 100 ms; the run ends early when *@stop is set (@stop NULL: never). Fills
 * the outcome. 0, or -errno with a message.
 */
int rtm_charged_run_measure(struct rtm_charged_run *run, uint64_t duration_ns,
			    const volatile sig_atomic_t *stop, struct rtm_error *err);
/* {"accounting", "result" (rtm_cpuacct_to_json()), "trace_events", "trace_lost"} */
json_t *rtm_charged_run_to_json(const struct rtm_charged_run *run);
/* Tracing off, the instance removed, everything freed; safe after a failed open. */
void rtm_charged_run_release(struct rtm_charged_run *run);

#endif
