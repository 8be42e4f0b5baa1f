/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * measure_opts.h - the options `rtmeasure cyclic`, `run` and `monitor` share
 * (cyclictest's among them), parsed into a session's options
 * (lib/session/session.h); their getopt tables and help text.
 */
#ifndef RTM_CLI_MEASURE_OPTS_H
#define RTM_CLI_MEASURE_OPTS_H

#include <stddef.h>

#include "session/session.h"

/*
 * Parse option @c (from getopt_long with MEASURE_SHORTOPTS/MEASURE_LONGOPTS;
 * optarg and optind as it left them: an optional value may be the next
 * argument, as cyclictest takes "-t 4" and "-a 1"). Returns 1 if @c was one
 * of the shared options, 0 if not, or 2 (usage) after the one-line
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
#define MEASURE_OPT_RT_HOLD	1060	/* --rt-hold */
#define MEASURE_OPT_TIMER_IRQ	1061	/* --timer-irq */
#define MEASURE_OPT_BACKEND	1062	/* --backend */
#define MEASURE_OPT_NOISE		2010	/* run --noise and its options */
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

/* ---- run --noise: the noise phase after the latency phase */

#define MEASURE_NOISE_LONGOPTS							\
	{ "noise", optional_argument, NULL, MEASURE_OPT_NOISE },		\
	{ "noise-window", required_argument, NULL, MEASURE_OPT_NOISE_WINDOW },	\
	{ "noise-width", required_argument, NULL, MEASURE_OPT_NOISE_WIDTH },	\
	{ "noise-threshold", required_argument, NULL, MEASURE_OPT_NOISE_THRESHOLD }, \
	{ "noise-trace", optional_argument, NULL, MEASURE_OPT_NOISE_TRACE }

/* One of MEASURE_NOISE_LONGOPTS: 1 taken, 0 not ours, 2 after the message. */
int measure_noise_parse(struct rtm_session_opts *m, int c, int argc, char **argv);

#endif
