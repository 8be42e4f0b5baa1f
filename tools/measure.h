/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * measure.h - what `rtmeasure cyclic`, `run` and `noise` share: their options,
 * and the drive loop that starts a probe through the runner (lib/probe/probe.h),
 * shows progress, handles signals and writes the results folder.
 */
#ifndef RTM_TOOL_MEASURE_H
#define RTM_TOOL_MEASURE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "probe/cyclic.h"
#include "probe/ktracer.h"
#include "probe/probe.h"
#include "probe/probe_noise.h"
#include "probe/probe_timer.h"
#include "result/result.h"
#include "result/summary.h"
#include "trace/stream.h"
#include "tracefs/instance.h"

#define MEASURE_MAX_BOUNDS 16

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
	const char *outdir;			/* NULL: default name */
	bool force;				/* --force: replace an earlier result in -o */
	bool follow;				/* --follow: -o and FILEs may be symlinks */
	unsigned int hist_rows;			/* histogram.txt rows, 0 = auto */
	int nbounds;
	struct rtm_bound bounds[MEASURE_MAX_BOUNDS];
	bool report;				/* run: report.html and plots at the end */
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
	bool rt_hold_given;			/* given: sched_switch traced even without --trace */
	/* --timer-irq: the timer IRQ part of each wake-up (on unless 0/off) */
	bool timer_irq;
	bool timer_irq_given;			/* given: traced even without --trace */
	/* noise --trace: a cause for each gap; -1: on as root, unless it fails */
	int noise_trace;
};

/* run --noise: the noise phase after the latency phase (measure_noisephase.c). */
struct rtm_session_noise_phase {
	bool on;
	uint64_t duration_ns;			/* 0: a quarter of --duration */
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
	/* --backend timerlat: filled from @probe when it starts (measure.c) */
	struct rtm_probe_timerlat_opts timerlat;
	const char *backend;			/* --backend auto|timer|timerlat, NULL: timer */
	uint64_t ts_interval_ns;
	unsigned int load_kinds;		/* run only */
	const char *preempt_model;		/* the kernel's, from sysinfo (spike verdicts) */
	const char *prometheus;			/* --prometheus [ADDR:]PORT: serve /metrics */
	struct rtm_session_box box;
	struct rtm_session_out out;
	struct rtm_session_trace trace;
	struct rtm_session_noise_phase noise_phase;
	void *throughput;			/* run --throughput (cmd_run.c), NULL: none */
};

/* Defaults: all allowed CPUs, 1000 us, FIFO 95, nanosleep, mlockall, dma latency 0. */
void measure_opts_init(struct rtm_session_opts *m, const char *command);
void measure_opts_release(struct rtm_session_opts *m);

/*
 * Parse option @c (from getopt_long with MEASURE_SHORTOPTS/MEASURE_LONGOPTS;
 * optarg and optind as it left them: an optional value may be the next
 * argument, as cyclictest takes "-t 4" and "-a 1"). Returns 1 if @c was one
 * of the shared options, 0 if not, or RTM_EXIT_USAGE after the one-line
 * error (a cyclictest option rtmeasure does not take names the option, why,
 * and what to use instead).
 */
int measure_parse_opt(struct rtm_session_opts *m, int c, int argc, char **argv);

/* "-b/--breaktrace" or "--fail-above": the option a getopt value stands for. */
const char *measure_opt_name(int c, char *buf, size_t len);

/* Option values of the shared table that only cyclic and run take. */
#define MEASURE_OPT_FAIL_ABOVE	1003
#define MEASURE_OPT_JSON	1004
#define MEASURE_OPT_TRACE	1011
#define MEASURE_OPT_CAPTURE	1014
#define MEASURE_OPT_MAX_CAPT	1015
#define MEASURE_OPT_HOLDOFF	1016
#define MEASURE_OPT_HISTFILE	1020
#define MEASURE_OPT_FORCE	1040
#define MEASURE_OPT_FOLLOW	1041
#define MEASURE_OPT_RT_HOLD	1060	/* --rt-hold (issue 18) */
#define MEASURE_OPT_TIMER_IRQ	1061	/* --timer-irq (issue 16) */
#define MEASURE_OPT_BACKEND	1062	/* --backend (issue 16) */
#define MEASURE_OPT_NOISE		2010	/* run --noise and its options (issue 16) */
#define MEASURE_OPT_NOISE_WINDOW	2011
#define MEASURE_OPT_NOISE_WIDTH		2012
#define MEASURE_OPT_NOISE_THRESHOLD	2013
#define MEASURE_OPT_NOISE_TRACE		2014

/*
 * getopt_long tables of the shared options (cyclic, run and monitor), declared
 * once. They include cyclictest's options, so each is either taken with its
 * cyclictest meaning or refused with the reason (see rtmeasure-cyclic(1),
 * COMPATIBILITY). Short options group as in cyclictest: -mSp90.
 */
#define MEASURE_SHORTOPTS "a::A:b:c:d:D:e:F:h:H:i:l:mMnNo:p:qrRsSt::uvx"
#define MEASURE_LONGOPTS							\
	{ "cpus", required_argument, NULL, 'a' },				\
	{ "affinity", optional_argument, NULL, 'a' },				\
	{ "threads", optional_argument, NULL, 't' },				\
	{ "smp", no_argument, NULL, 'S' },					\
	{ "interval", required_argument, NULL, 'i' },				\
	{ "distance", required_argument, NULL, 'd' },				\
	{ "priority", required_argument, NULL, 'p' },				\
	{ "prio", required_argument, NULL, 'p' },				\
	{ "policy", required_argument, NULL, 1001 },				\
	{ "mode", required_argument, NULL, 1002 },				\
	{ "nanosleep", no_argument, NULL, 'n' },				\
	{ "posix_timers", no_argument, NULL, 'x' },				\
	{ "clock", required_argument, NULL, 'c' },				\
	{ "duration", required_argument, NULL, 'D' },				\
	{ "loops", required_argument, NULL, 'l' },				\
	{ "breaktrace", required_argument, NULL, 'b' },				\
	{ "fail-above", required_argument, NULL, 1003 },			\
	{ "histogram", required_argument, NULL, 'h' },				\
	{ "histofall", required_argument, NULL, 'H' },				\
	{ "histfile", required_argument, NULL, 1020 },				\
	{ "output", required_argument, NULL, 'o' },				\
	{ "force", no_argument, NULL, 1040 },					\
	{ "follow", no_argument, NULL, 1041 },					\
	{ "quiet", no_argument, NULL, 'q' },					\
	{ "json", optional_argument, NULL, 1004 },				\
	{ "nsecs", no_argument, NULL, 'N' },					\
	{ "unbuffered", no_argument, NULL, 'u' },				\
	{ "mlockall", no_argument, NULL, 'm' },					\
	{ "no-mlock", no_argument, NULL, 1005 },				\
	{ "no-dma-latency", no_argument, NULL, 1006 },				\
	{ "laptop", no_argument, NULL, 1006 },					\
	{ "default-system", no_argument, NULL, 1006 },				\
	{ "latency", required_argument, NULL, 'e' },				\
	{ "deepest-idle-state", required_argument, NULL, 1022 },		\
	{ "prometheus", required_argument, NULL, 1023 },			\
	{ "no-rt", no_argument, NULL, 1007 },					\
	{ "housekeeping", required_argument, NULL, 1021 },			\
	{ "exclusive", no_argument, NULL, 1024 },				\
	{ "mainaffinity", required_argument, NULL, 1021 },			\
	{ "series-interval", required_argument, NULL, 1008 },			\
	{ "log-above", required_argument, NULL, 1009 },				\
	{ "spike", required_argument, NULL, 1009 },				\
	{ "log-max", required_argument, NULL, 1010 },				\
	{ "spike-nodes", required_argument, NULL, 1010 },			\
	{ "trace", no_argument, NULL, 1011 },					\
	{ "trace-events", required_argument, NULL, 1012 },			\
	{ "trace-buffer", required_argument, NULL, 1013 },			\
	{ "capture-above", required_argument, NULL, 1014 },			\
	{ "max-captures", required_argument, NULL, 1015 },			\
	{ "capture-holdoff", required_argument, NULL, 1016 },			\
	{ "trace-filter", required_argument, NULL, 1017 },			\
	{ "rt-hold", required_argument, NULL, MEASURE_OPT_RT_HOLD },		\
	{ "timer-irq", optional_argument, NULL, MEASURE_OPT_TIMER_IRQ },	\
	{ "backend", required_argument, NULL, MEASURE_OPT_BACKEND },		\
	{ "aligned", required_argument, NULL, 'A' },				\
	{ "fifo", required_argument, NULL, 'F' },				\
	{ "refresh_on_max", no_argument, NULL, 'M' },				\
	{ "relative", no_argument, NULL, 'r' },					\
	{ "resolution", no_argument, NULL, 'R' },				\
	{ "system", no_argument, NULL, 's' },					\
	{ "verbose", no_argument, NULL, 'v' },					\
	{ "oscope", required_argument, NULL, 1101 },				\
	{ "priospread", no_argument, NULL, 1102 },				\
	{ "secaligned", optional_argument, NULL, 1103 },			\
	{ "smi", no_argument, NULL, 1104 },					\
	{ "tracemark", no_argument, NULL, 1105 },				\
	{ "dbg_cyclictest", no_argument, NULL, 1106 }

/* The options of the probes and the results folder: cyclic, run and monitor. */
#define MEASURE_PROBE_HELP							\
"  -a, --cpus LIST         CPUs to measure, one thread each (default: every CPU\n" \
"                          this process may use); cyclictest's -a/--affinity\n" \
"  -t, --threads [N]       the first N of those CPUs (no N: all; -S: all)\n"	\
"  -i, --interval LAT      wake-up period (default 1000us; a plain number is us)\n" \
"  -d, --distance LAT      added to the period of each further thread (default 0)\n" \
"  -p, --priority N        RT priority of the probe threads, all alike (default 95)\n" \
"      --policy P          fifo, rr, other, batch, idle, or\n"		\
"                          deadline:RUNTIME:DEADLINE:PERIOD\n"		\
"      --mode M            nanosleep (default, -n), timerfd or signal (-x)\n" \
"  -D, --duration DUR      measuring time, e.g. 30s, 5m, 2h, 1d\n"	\
"  -l, --loops N           stop after N wake-ups per CPU\n"			\
"  -h, --histogram US      rows of histogram.txt (default: up to the max)\n" \
"  -H, --histofall US      the same, with a column for all CPUs\n"	\
"  -o, --output DIR        results folder (default rtmeasure-HOST-KERNEL-TIME)\n" \
"  -m, --mlockall          lock memory (the default)\n"			\
"      --no-mlock          do not lock memory\n"				\
"      --latency US        hold /dev/cpu_dma_latency at US (default 0)\n" \
"      --no-dma-latency    do not hold /dev/cpu_dma_latency (--laptop)\n"	\
"      --deepest-idle-state N  allow idle states up to N (their exit latency\n" \
"                          into /dev/cpu_dma_latency); -1: none (the default)\n" \
"      --no-rt             measure at SCHED_OTHER (no privileges needed)\n" \
"      --prometheus [ADDR:]PORT  serve /metrics for Prometheus during the run\n" \
"                          (127.0.0.1 unless ADDR is given)\n"		\
"      --exclusive         refuse to measure a CPU another rtmeasure measures\n" \
"                          (default: warn), and make later runs refuse it\n" \
"      --housekeeping CPUS the threads that do not measure run there\n"	\
"                          (cyclictest's --mainaffinity)\n"		\
"      --series-interval D time-series interval (default 1s)\n"		\
"      --log-above LAT     keep time and value of wake-ups later than LAT\n"	\
"                          (cyclictest's --spike)\n"			\
"      --log-max N         at most N of them per CPU (default 10000)\n"	\
"      --trace-events L    event sets or system:event, comma separated\n"	\
"      --trace-filter F    system:event:expression, the kernel's event filter\n" \
"                          (e.g. irq:irq_handler_entry:irq!=0); repeatable\n"	\
"      --trace-buffer KB   trace buffer per CPU (default 8192)\n"		\
"      --rt-hold BOUND     name the real-time tasks that held a measured CPU\n"	\
"                          longer than BOUND without a switch (sched_switch;\n"	\
"                          default 100ms whenever tracing, 0: off; given alone\n"	\
"                          it traces sched_switch only)\n"			\
"      --timer-irq [0|off] split each wake-up's timer IRQ delay (expiry to the\n" \
"                          interrupt) from hrtimer_start/hrtimer_expire_entry;\n" \
"                          on whenever tracing, 0/off: off; given alone it\n"	\
"                          traces those two events only\n"

/* The options of a measurement that ends with a summary: cyclic and run. */
#define MEASURE_RESULT_HELP							\
"  -b, --breaktrace LAT    stop at the first wake-up later than LAT\n"	\
"      --fail-above B      exit 1 if B is exceeded: 50us (max), p99.9=50us,\n" \
"                          avg=20us; may be given several times\n"	\
"  -q, --quiet             no live lines or progress, only the summary\n"	\
"      --json[=FILE]       the summary as JSON on stdout (or into FILE, then\n" \
"                          the table stays on stdout)\n"			\
"      --histfile FILE     the histogram (cyclictest layout) into FILE too\n" \
"      --force             -o names an earlier result: replace it (its\n"	\
"                          result.json, histogram.txt, report, plots, spikes)\n" \
"      --follow            -o, --histfile and --json=FILE may be symbolic links\n" \
"  -N, --nsecs             the summary table in ns\n"			\
"      --backend B         timer (rtmeasure's own probe, the default), timerlat\n" \
"                          (the kernel's timerlat tracer: thread latency as the\n" \
"                          wake-up, its IRQ latency split off; root) or auto\n" \
"                          (timerlat where the kernel has it, else timer)\n" \
"      --trace             with -b or --capture-above: record sched, irq, timer,\n" \
"                          ipi and nmi events (flight recorder) and save each\n" \
"                          spike's events and their analysis in\n"		\
"                          spikes/spike-NNN.txt and .json (root, tracefs)\n" \
"      --capture-above LAT save the events of wake-ups later than LAT and keep\n" \
"                          measuring (implies --trace); every one of them gets\n" \
"                          a cause in the spike census\n"			\
"      --max-captures N    at most N such captures per CPU (default 10)\n"	\
"      --capture-holdoff D no capture on a CPU sooner than D after its last\n" \
"                          (default 1s)\n"					\
"      --help              this help\n"					\
"\nOther cyclictest options are taken or refused as rtmeasure-cyclic(1),\n"	\
"COMPATIBILITY, lists.\n"

/*
 * Check the options against the box: the CPUs (default: every allowed one),
 * privileges, /dev/cpu_dma_latency, the trace options. RTM_EXIT_USAGE after
 * the one-line message.
 */
int measure_prepare(struct rtm_session_opts *m);

/*
 * --housekeeping: move the calling thread (and so every thread it starts
 * later) to those CPUs; call after the load has started (its processes keep
 * their own placement) and before the probes (they pin themselves).
 * Returns 0 or -errno.
 */
int measure_housekeeping_apply(const struct rtm_session_opts *m);

/*
 * The results folder @dir, before measuring: created if missing; refused with
 * one line (RTM_EXIT_USAGE) when it is a file, a symbolic link without
 * --follow, not writable, or holds an earlier result without --force (which
 * clears the files rtmeasure wrote there). 0 when it can be used.
 */
int measure_check_outdir(const struct rtm_session_opts *m, const char *dir);
/* --prometheus (tools/measure_prom.c); *out stays NULL without the option. */
struct measure_prom;
struct rtm_cyclic;
int measure_prom_start(const struct rtm_session_opts *m, const json_t *sysinfo,
		       struct measure_prom **out, struct rtm_error *err);
struct measure_irq;
/*
 * New figures for the scrapes at each interval boundary: the probes', and
 * with @irq the run's interrupt counts (one /proc/interrupts read a boundary)
 * and handler times, with @r its captured spikes; both may be NULL.
 */
struct rtm_stream;
void measure_prom_publish(struct measure_prom *mp, struct rtm_cyclic *c,
			  struct measure_irq *irq, const struct rtm_result *r,
			  struct rtm_stream *hold);
/*
 * The same for a probe that is not the timer session (noise): its section from
 * fresh snapshots (rtm_probe_ops.live_section) once per interval boundary.
 */
struct rtm_probe_run;
void measure_prom_publish_probe(struct measure_prom *mp, struct rtm_probe_run *pr,
				struct measure_irq *irq, struct rtm_stream *hold);
void measure_prom_stop(struct measure_prom *mp);
struct rtm_cpulock;

/*
 * Announce the measured CPUs to other rtmeasure runs (runlock.h). Another run
 * on one of them: with --exclusive (ours or its) exit 2 after the one-line
 * error (*@status), else @note says which CPUs are shared, with whom. A lock
 * directory that cannot be used is noted too (refused with --exclusive).
 */
struct rtm_cpulock *measure_cpus_lock(const struct rtm_session_opts *m, char *note, size_t len,
				      int *status);

/* A later run joined our CPUs since the last call: @note says so (once). */
bool measure_cpus_poll(struct rtm_cpulock *l, const struct rtm_session_opts *m, double elapsed_s,
		       char *note, size_t len);

/* result.json sections.shared_cpus: the CPUs another rtmeasure measured too. */
void measure_cpus_record(struct rtm_cpulock *l, struct rtm_result *r);

/*
 * run --throughput (cmd_run.c): the cost phase after the latency phase, its
 * section into @r; -1 after a warning when it failed (the latency is kept).
 */
int measure_throughput(struct rtm_session_opts *m, struct rtm_result *r);

/*
 * --backend (measure_backend.c): the latency probe, checked against the other
 * options and the kernel; RTM_EXIT_USAGE after the one-line message.
 */
int measure_pick_backend(struct rtm_session_opts *m);
/*
 * ---- measure_noisephase.c: run --noise, the noise phase after the latency phase
 */
#define MEASURE_NOISE_LONGOPTS							\
	{ "noise", optional_argument, NULL, MEASURE_OPT_NOISE },		\
	{ "noise-window", required_argument, NULL, MEASURE_OPT_NOISE_WINDOW },	\
	{ "noise-width", required_argument, NULL, MEASURE_OPT_NOISE_WIDTH },	\
	{ "noise-threshold", required_argument, NULL, MEASURE_OPT_NOISE_THRESHOLD }, \
	{ "noise-trace", optional_argument, NULL, MEASURE_OPT_NOISE_TRACE }

/* The noise probe's defaults into @m (its options stay unused without --noise). */
void measure_noise_init(struct rtm_session_opts *m);
/* One of MEASURE_NOISE_LONGOPTS: 1 taken, 0 not ours, RTM_EXIT_USAGE after the message. */
int measure_noise_parse(struct rtm_session_opts *m, int c, int argc, char **argv);
/*
 * The noise options against each other and the run's (@given: one of them was
 * given); the default duration; RTM_EXIT_USAGE after the message.
 */
int measure_noise_check(struct rtm_session_opts *m, bool given);
/*
 * The noise phase on the latency phase's CPUs, after its threads are joined
 * (@latency_end_ns, CLOCK_MONOTONIC, recorded in sections.noise.phase):
 * sections.noise into @r. Ctrl-C ends it with what was measured. -1 after a
 * warning when it could not run (the latency results are kept).
 */
int measure_noise_phase(struct rtm_session_opts *m, struct rtm_result *r, uint64_t latency_end_ns);
uint64_t measure_noise_now_ns(void);

/* Run the measurement; returns the exit status. */
int measure_main(struct rtm_session_opts *m);

/* The options as result.json records them. */
json_t *measure_options_json(const struct rtm_session_opts *m);

/* result.json and histogram.txt into @dir; RTM_EXIT_USAGE after the message. */
int measure_save_results(const struct rtm_session_opts *m, const struct rtm_result *r,
			 const char *dir);

/* ---- measure_trace.c: the flight recorder and the spike captures */

/*
 * Check the trace options against the others; RTM_EXIT_USAGE after the message.
 * The default --timer-irq is turned off (with a note when tracing) on a kernel
 * that hides hrtimer_wakeup's address.
 */
int measure_trace_check(struct rtm_session_opts *m);

/*
 * Create the instance (only the measured CPUs), check its clock, note the trace
 * options in @r and start recording. NULL with @err set.
 */
struct rtm_trace *measure_trace_start(struct rtm_session_opts *m, struct rtm_result *r,
				      struct rtm_error *err);

/*
 * Save the capture a probe asked for, if any (spikes/spike-NNN.*, an event in
 * @r), then switch tracing back on when @resume and more captures may follow.
 */
void measure_trace_poll(const struct rtm_session_opts *m, struct rtm_trace *t,
			struct rtm_cyclic *c, struct rtm_result *r, const char *dir, bool resume);

/* After the run: save the window of the -b spike, if there was one. */
void measure_trace_break(const struct rtm_session_opts *m, struct rtm_trace *t,
			 struct rtm_result *r, const char *dir);

/* One line per saved capture: CPU, latency, verdict, file. */
void measure_trace_print(const struct rtm_result *r, const char *dir, FILE *f);

/* ---- measure_irq.c: interrupt counts (and handler times with --trace) */

struct measure_irq;

/* Snapshot /proc/interrupts; with --trace start the streaming irq instance. */
struct measure_irq *measure_irq_start(const struct rtm_session_opts *m, struct rtm_error *err);
/* Drain the irq instance (the drive loop, at every wake-up). */
void measure_irq_poll(struct measure_irq *mi);
/* Counts over the run (and handler times) into r->sections.irq. */
void measure_irq_finish(struct measure_irq *mi, const struct rtm_session_opts *m,
			struct rtm_result *r);
/* The busiest interrupts of the measured CPUs, one line. */
void measure_irq_print(const struct measure_irq *mi, FILE *f);
void measure_irq_free(struct measure_irq *mi);
/*
 * The IRQ section as it stands now (counts since the start, handler times with
 * --trace), for --prometheus; NULL without one. *lost: trace events lost so
 * far, -1 without --trace.
 */
json_t *measure_irq_live(struct measure_irq *mi, int64_t *lost);

/*
 * ---- measure_trace.c: the streaming instance (lib/trace/stream.h): RT tasks holding
 * a CPU (--rt-hold), the timer IRQ part of the wake-ups (--timer-irq), the spike
 * census and the gap causes (noise --trace)
 */

struct rtm_stream;

/* --rt-hold given, or tracing with a bound above 0; or the same for --timer-irq. */
bool measure_hold_wanted(const struct rtm_session_opts *m);
/* --timer-irq given, or tracing and not switched off (the timer probe only). */
bool measure_timer_irq_wanted(const struct rtm_session_opts *m);
/*
 * The streaming instance (rtmeasure-PID-stream) on the measured CPUs, started now,
 * with the events each wanted feature needs. NULL with @err set.
 */
struct rtm_stream *measure_hold_start(const struct rtm_session_opts *m, struct rtm_error *err);
/* noise --trace: each gap's cause (lib/trace/noiseattr.h), given or on by default as root. */
bool measure_noise_trace_wanted(const struct rtm_session_opts *m);
/*
 * measure_hold_start() failed: true (after a note naming why) when the run goes
 * on without it, which only noise's default gap causes do.
 */
bool measure_hold_optional(struct rtm_session_opts *m, const struct rtm_error *err);
/*
 * The spike census (lib/trace/census.h): with --trace, --capture-above and the timer
 * IRQ split, every wake-up over --capture-above gets a cause and a culprit.
 */
bool measure_census_wanted(const struct rtm_session_opts *m);
/*
 * Stop, drain, close what is open, and write r->sections.rt_holds, .timer_irq and
 * .spike_census, and the gap causes into r->sections.noise (call after the probe's
 * finish).
 */
void measure_hold_finish(struct rtm_stream *st, struct rtm_result *r);

/* ---- measure_census.c */

/*
 * The probe's late wake-ups so far into the census, the steal time beside them,
 * and the verdicts on those the stream has caught up with (the drive loop, after
 * rtm_stream_poll(); once more after the probe stopped, before measure_hold_finish()).
 */
struct rtm_cyclic;
void measure_census_poll(struct rtm_stream *st, struct rtm_cyclic *c);

/* ---- noise --trace while it runs (tools/measure_noise.c) */

/* After a drain: the gaps logged since the last call laid over the events. */
void measure_noise_live(struct rtm_stream *st, struct rtm_probe_run *run);
#define MEASURE_NOISE_LINE	320
/*
 * One line per measured CPU into @out (at most @max): noise, largest gap, gaps,
 * and with --trace the time per cause so far. How many; 0 when @run is not noise.
 */
int measure_noise_lines(struct rtm_stream *st, struct rtm_probe_run *run,
			char (*out)[MEASURE_NOISE_LINE], int max);

#endif
