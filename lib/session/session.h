/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.h - a measuring session: what `rtmeasure cyclic`, `run`, `noise` and
 * `monitor` share. The options (struct rtm_session_opts, in parts each phase
 * reads), the checks before a run, the drive loop that runs a probe through the
 * runner (lib/probe/probe.h) with its trace instances, interrupt counts and run
 * locks, the phases after it (run --noise, run --throughput), and the results
 * folder with the summary.
 *
 * The session prints to the streams the command hands it (@outf: the summary,
 * tables, --json; @errf: the banner, progress, notes, warnings and one-line
 * errors) and stops when the command's stop flag is set. What lies above it
 * (the --prometheus server, report.html, run --throughput's stress-ng phase) it
 * reaches through the hooks of struct rtm_session_ops, which the command fills.
 * The monitor's data side is lib/session/monitor.h.
 */
#ifndef RTM_SESSION_H
#define RTM_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "box/iotarget.h"
#include "core/error.h"
#include "probe/ktracer.h"
#include "probe/probe.h"
#include "probe/probe_io.h"
#include "probe/probe_noise.h"
#include "probe/probe_timer.h"
#include "result/result.h"
#include "result/summary.h"
#include "tracefs/instance.h"

/* What rtm_session_run() and the checks return: the command's exit statuses. */
#define RTM_SESSION_EXIT_OK	0
#define RTM_SESSION_EXIT_BOUND	1	/* a --fail-above bound was exceeded */
#define RTM_SESSION_EXIT_USAGE	2	/* usage or environment error (after its line) */

#define RTM_SESSION_MAX_BOUNDS 16

/* The box around the probes: which CPUs, the other threads, idle states, privileges. */
struct rtm_session_box {
	bool cpus_given;
	unsigned int threads;			/* -t N: the first N measured CPUs, 0: all */
	struct rtm_cpulist housekeeping;	/* --housekeeping: the other threads' CPUs */
	int deepest_idle;			/* --deepest-idle-state N, -2: not given */
	bool no_rt;
	bool exclusive;				/* --exclusive: no other rtmeasure on our CPUs */
};

/* What is written and printed at the end. */
struct rtm_session_out {
	bool quiet;
	bool json;
	bool nsecs;				/* -N: the summary in ns */
	bool histofall;				/* -H: histograms with an all-CPU column */
	const char *histfile;			/* --histfile: the histogram here too */
	const char *json_file;			/* --json=FILE: the summary JSON there */
	bool json_file_rttests;			/* cyclic: --json=FILE is cyclictest's */
	const char *cmdline;			/* as typed: rt-tests JSON's "cmdline:" */
	const char *outdir;			/* NULL: default name */
	bool force;				/* --force: replace an earlier result in -o */
	bool follow;				/* --follow: -o and FILEs may be symlinks */
	const char *fallback_dir;		/* --fallback-dir: -o could not be written */
	unsigned int hist_rows;			/* histogram.txt rows, 0 = auto */
	int nbounds;
	struct rtm_bound bounds[RTM_SESSION_MAX_BOUNDS];
	bool report;				/* run: report.html and plots at the end */
	bool line_buffered;			/* -u: the output stream flushed by line */
	bool verbose;				/* noise -v: the summary in full */
};

/* The trace instances: the flight recorder and the streaming instance's consumers. */
struct rtm_session_trace {
	bool on;				/* --trace: flight recorder around spikes */
	const char *events;			/* NULL: the presets */
	size_t buffer_kb;
	const char *filters[RTM_TRACE_MAX_FILTERS];
	int nfilters;
	/* --rt-hold: RT tasks that held a measured CPU longer than this (0: off) */
	uint64_t rt_hold_ns;
	bool rt_hold_given;			/* given: traced even without --trace */
	/* --timer-irq: the timer IRQ part of each wake-up (on unless 0/off) */
	bool timer_irq;
	bool timer_irq_given;			/* given: traced even without --trace */
	const char *timer_irq_off;		/* why the default one is off, for the note */
	uint64_t wakeup_fn;			/* hrtimer_wakeup's address once looked up, 0:
						 * not yet (/proc/kallsyms takes ~40 ms a read) */
	/* noise --trace: a cause for each gap; -1: on as root, unless it fails */
	int noise_trace;
	/* --bpf: the timer IRQ split counted in the kernel; -1: automatic (bpfsplit.c) */
	int bpf;
	bool split_bpf;				/* decided: the BPF split runs */
	char split_why[128];			/* why, for the start line */
};

/* run --noise: the noise phase after the latency phase (lib/session/noisephase.c). */
struct rtm_session_noise_phase {
	bool on;
	uint64_t duration_ns;			/* 0: a quarter of --duration */
};

/* run --io: the storage probe beside the timer probe (lib/session/ioside.c). */
struct rtm_session_io_opts {
	bool on;
	struct rtm_probe_io_opts probe;		/* target, region, CPU: set when it opens */
	struct rtm_io_target_req req;
	bool cpu_given;				/* --io-cpu */
	bool cpu_measured;			/* its CPU is one the timer probe measures */
};

struct rtm_session_opts {
	const char *command;			/* "cyclic", "run", "monitor" or "noise" */
	const struct rtm_probe_ops *ops;	/* the probe: rtm_probe_timer_ops (default) */
	/*
	 * The timer probe's options; CPUs, scheduling, duration, memory locking and
	 * the PM QoS target here are shared by every probe (the checks use them).
	 */
	struct rtm_probe_timer_opts probe;
	struct rtm_probe_noise_opts noise;	/* noise: its own options */
	/* --backend timerlat: filled from @probe when it starts (lib/session/session.c) */
	struct rtm_probe_timerlat_opts timerlat;
	const char *backend;			/* --backend auto|timer|timerlat, NULL: timer */
	char backend_why[320];			/* the backend's reason, when it is worded */
	uint64_t ts_interval_ns;
	unsigned int load_kinds;		/* run only */
	const char *preempt_model;		/* the kernel's, from sysinfo (spike verdicts) */
	const char *prometheus;			/* --prometheus [ADDR:]PORT: serve /metrics */
	struct rtm_session_box box;
	struct rtm_session_out out;
	struct rtm_session_trace trace;
	struct rtm_session_noise_phase noise_phase;
	struct rtm_session_io_opts io;		/* run --io */
	/* the command's: where the session prints, and its stop flag (a signal) */
	FILE *outf;				/* the summary, tables, --json */
	FILE *errf;				/* progress, notes, warnings, errors */
	const volatile sig_atomic_t *stop;	/* set: end now and save; NULL: never */
};

/* Defaults: all allowed CPUs, 1000 us, FIFO 95, nanosleep, mlockall, dma latency 0. */
void rtm_session_opts_init(struct rtm_session_opts *o, const char *command);
void rtm_session_opts_release(struct rtm_session_opts *o);
/* The noise probe's defaults into @o (its options stay unused without --noise). */
void rtm_session_noise_init(struct rtm_session_opts *o);
/*
 * run --noise: the noise options against each other and the run's (@given: one of
 * them was given); the default duration; RTM_SESSION_EXIT_USAGE after the message.
 */
int rtm_session_noise_check(struct rtm_session_opts *o, bool given);

/*
 * run --io: the --io-* options against each other (@given: one of them was
 * given); RTM_SESSION_EXIT_USAGE after the message.
 */
int rtm_session_io_check_opts(struct rtm_session_opts *o, bool given);

/*
 * The causes of the storage probe's misses (`io`, `run --io --trace`): the trace
 * of @t's block device and @cpu, or NULL with @err set; the probe's new misses
 * since the *@taken-th handed to it; at the end sections.io.causes into @r
 * (warnings on @errf).
 */
struct rtm_iotrace;
struct rtm_iotrace *rtm_session_io_causes_start(const struct rtm_io_target *t, int cpu,
						uint64_t deadline_ns, struct rtm_error *err);
void rtm_session_io_causes_feed(struct rtm_iotrace *tr, const struct rtm_probe_io *p,
				uint32_t *taken);
void rtm_session_io_causes_finish(struct rtm_iotrace *tr, const struct rtm_probe_io *p,
				  uint32_t *taken, struct rtm_result *r, FILE *errf);

struct rtm_cyclic;
struct rtm_stream;
struct rtm_session_irq;
struct rtm_timersplit;

/* What a live reader (--prometheus) may read at a turn of the drive loop. */
struct rtm_session_live {
	struct rtm_cyclic *c;			/* the timer session; NULL for another probe */
	struct rtm_probe_run *run;		/* the runner */
	struct rtm_session_irq *irq;		/* interrupt counts (rtm_session_irq_live()) */
	const struct rtm_result *r;		/* the result so far (its spike captures) */
	struct rtm_stream *stream;		/* the streaming instance, or NULL */
	struct rtm_timersplit *split;		/* --bpf: the timer IRQ split, or NULL */
};

/*
 * struct rtm_session_ops - what the command lends the session from above it
 * @serve: --prometheus (@o->prometheus set): start the server before anything is
 *	measured, its handle into *@state; 0, or -errno with @err set
 * @publish: at each turn of the drive loop (the server picks the interval
 *	boundaries): new figures for the scrapes
 * @unserve: stop it (@state NULL: nothing to do)
 * @report: run's report.html and plots of the saved result in @dir; 0, 1 when
 *	nothing can draw them (gnuplot not installed: a note), or -errno with @err
 *	set (the results are kept; the run exits 2, a promised output missing)
 * @throughput: run --throughput, the cost phase after the latency phase with
 *	@ctx: its section into @r; -1 after a warning when it failed
 * @summary: the table at the end (the latency summary, with run --noise's noise
 *	table after it; noise: its table), also when the results folder failed
 * @throughput_table: run --throughput's table (sections.throughput, or NULL)
 * NULL hooks are not called (no --prometheus server, no report, no cost phase,
 * nothing printed).
 */
struct rtm_session_ops {
	int (*serve)(const struct rtm_session_opts *o, const json_t *sysinfo, void **state,
		     struct rtm_error *err);
	void (*publish)(void *state, const struct rtm_session_live *live);
	void (*unserve)(void *state);
	int (*report)(const struct rtm_result *r, const char *dir, struct rtm_error *err);
	int (*throughput)(void *ctx, const struct rtm_session_opts *o, struct rtm_result *r);
	void *ctx;
	void (*summary)(const struct rtm_session_opts *o, const struct rtm_result *r, FILE *f);
	void (*throughput_table)(const json_t *sec, FILE *f);
};

/* Run the measurement (set-up, the drive loop, the phases after it, the outcome). */
int rtm_session_run(struct rtm_session_opts *o, const struct rtm_session_ops *ops);

/* ---- interrupt counts during the run (lib/session/irqs.c) */

/*
 * The IRQ section as it stands now (counts since the start, handler times with
 * --trace), for --prometheus; NULL without one. *lost: trace events lost so
 * far, -1 without --trace.
 */
json_t *rtm_session_irq_live(struct rtm_session_irq *mi, int64_t *lost);

#endif
