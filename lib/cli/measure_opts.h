/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * measure_opts.h - the options `rtmeasure cyclic`, `run` and `monitor` share
 * (cyclictest's among them) as option tables (cli/opts.h), and their parsing
 * into a session's options (lib/session/session.h). `noise` takes some of them
 * under the same keys, from a table of its own.
 *
 * The shared rows come in five tables, in the order getopt_long() has always
 * seen them (its ambiguity messages list the candidates in that order): the
 * probe (CPUs, scheduling, timing, duration), the results, the system around
 * the probes, tracing, and cyclictest's refused options. A command's table
 * list is these five and its own (cli/opts.h allows six); the monitor swaps
 * the results and tracing tables for its own versions of them.
 */
#ifndef RTM_CLI_MEASURE_OPTS_H
#define RTM_CLI_MEASURE_OPTS_H

#include <stddef.h>

#include "cli/opts.h"
#include "session/session.h"

/* --fallback-dir's help line, in every measuring command's table. */
#define MEASURE_HELP_FALLBACK	"where the results go when -o cannot be written at the end " \
				"(a full disk; default: a new folder in $TMPDIR or /tmp)"

/* The keys of the shared options without a short option. */
enum measure_opt_key {
	MEASURE_OPT_POLICY = RTM_OPT_KEY0,
	MEASURE_OPT_MODE,
	MEASURE_OPT_FAIL_ABOVE,
	MEASURE_OPT_JSON,
	MEASURE_OPT_NO_MLOCK,
	MEASURE_OPT_NO_DMA_LATENCY,	/* cyclictest's --laptop and --default-system */
	MEASURE_OPT_NO_RT,
	MEASURE_OPT_SERIES_INTERVAL,
	MEASURE_OPT_LOG_ABOVE,		/* cyclictest's --spike */
	MEASURE_OPT_LOG_MAX,		/* cyclictest's --spike-nodes */
	MEASURE_OPT_TRACE,
	MEASURE_OPT_TRACE_EVENTS,
	MEASURE_OPT_TRACE_BUFFER,
	MEASURE_OPT_CAPTURE,		/* --capture-above */
	MEASURE_OPT_MAX_CAPT,
	MEASURE_OPT_HOLDOFF,
	MEASURE_OPT_TRACE_FILTER,
	MEASURE_OPT_HISTFILE,
	MEASURE_OPT_HOUSEKEEPING,	/* cyclictest's --mainaffinity */
	MEASURE_OPT_DEEPEST_IDLE,
	MEASURE_OPT_PROMETHEUS,
	MEASURE_OPT_EXCLUSIVE,
	MEASURE_OPT_FORCE,
	MEASURE_OPT_FOLLOW,
	MEASURE_OPT_FALLBACK_DIR,
	MEASURE_OPT_RT_HOLD,
	MEASURE_OPT_TIMER_IRQ,
	MEASURE_OPT_BACKEND,
	MEASURE_OPT_BPF,		/* the timer IRQ split in BPF */
	/* cyclictest's long options that are refused */
	MEASURE_OPT_OSCOPE,
	MEASURE_OPT_PRIOSPREAD,
	MEASURE_OPT_SECALIGNED,
	MEASURE_OPT_SMI,
	MEASURE_OPT_TRACEMARK,
	MEASURE_OPT_DBG_CYCLICTEST,
	/* run --noise and its options (the monitor takes the last four) */
	MEASURE_OPT_NOISE,
	MEASURE_OPT_NOISE_WINDOW,
	MEASURE_OPT_NOISE_WIDTH,
	MEASURE_OPT_NOISE_THRESHOLD,
	MEASURE_OPT_NOISE_TRACE,
	MEASURE_OPT_KEY_END		/* the keys of a command's own options start here */
};

/*
 * The groups of the shared rows, the same indices in every measuring
 * command's group array. MEASURE_G_OWN is for the command's own options
 * (first in --help), MEASURE_G_HELP for --help and --help-all (the last of
 * the common groups); a command's further groups start at MEASURE_G_END.
 */
enum measure_group {
	MEASURE_G_OWN,
	MEASURE_G_CPUS,		/* CPUs and threads */
	MEASURE_G_SCHED,	/* scheduling */
	MEASURE_G_TIMING,	/* the period and how the probe sleeps */
	MEASURE_G_DURATION,	/* when the measurement stops */
	MEASURE_G_RESULTS,	/* the results folder and what is printed */
	MEASURE_G_TRACE,	/* late wake-ups kept, tracing, captures */
	MEASURE_G_HELP,
	MEASURE_G_EVENTS,	/* what is traced, the capture limits */
	MEASURE_G_POWER,	/* memory and power management */
	MEASURE_G_SERIES,	/* time series and Prometheus */
	MEASURE_G_COMPAT,	/* cyclictest's names and options */
	MEASURE_G_END
};

/* The titles and common flags of the shared groups, for a command's group array. */
#define MEASURE_GROUPS							\
	[MEASURE_G_CPUS] = { "CPUs and threads", true },		\
	[MEASURE_G_SCHED] = { "Scheduling", true },			\
	[MEASURE_G_TIMING] = { "Timing", true },			\
	[MEASURE_G_DURATION] = { "Duration", true },			\
	[MEASURE_G_RESULTS] = { "Results", true },			\
	[MEASURE_G_TRACE] = { "Late wake-ups and tracing", true },	\
	[MEASURE_G_HELP] = { NULL, true },				\
	[MEASURE_G_EVENTS] = { "Tracing details", false },		\
	[MEASURE_G_POWER] = { "Memory and power management", false },	\
	[MEASURE_G_SERIES] = { "Time series and Prometheus", false },	\
	[MEASURE_G_COMPAT] = { "cyclictest's options", false }

/* The shared tables, in getopt_long()'s order (each ended by RTM_OPT_END). */
extern const struct rtm_opt measure_opts_probe[];	/* CPUs, scheduling, timing, duration */
extern const struct rtm_opt measure_opts_results[];	/* bounds, histogram, folder, output */
extern const struct rtm_opt measure_opts_system[];	/* memory, PM QoS, other runs, spikes */
extern const struct rtm_opt measure_opts_trace[];	/* tracing, captures, the backend */
extern const struct rtm_opt measure_opts_refused[];	/* cyclictest's, refused */
/* The monitor's versions: the end-result rows hidden, its own --trace. */
extern const struct rtm_opt measure_opts_results_monitor[];
extern const struct rtm_opt measure_opts_trace_monitor[];

/* After the options: where the rest of them is described (cyclic and run). */
#define MEASURE_EPILOG							\
	"\nOther cyclictest options are taken or refused as rtmeasure-cyclic(1),\n" \
	"COMPATIBILITY, lists.\n"

/*
 * Parse option @c (from getopt_long with a command's tables; optarg and
 * optind as it left them: an optional value may be the next argument, as
 * cyclictest takes "-t 4" and "-a 1"). Returns 1 if @c was one of the shared
 * options, 0 if not, or 2 (usage) after the one-line error (a cyclictest
 * option rtmeasure does not take names the option, why, and what to use
 * instead).
 */
int measure_parse_opt(struct rtm_session_opts *m, int c, int argc, char **argv);

/* "-b/--breaktrace" or "--fail-above": the shared option a getopt value stands for. */
const char *measure_opt_name(int c, char *buf, size_t len);

/* One of the --noise options (MEASURE_OPT_NOISE...): 1 taken, 0 not ours, 2 after the message. */
int measure_noise_parse(struct rtm_session_opts *m, int c, int argc, char **argv);

#endif
