/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * measure.h - what `rtmeasure cyclic` and `rtmeasure run` share: their options,
 * and the drive loop that starts the probes, shows progress, handles signals
 * and writes the results folder.
 */
#ifndef RTM_TOOL_MEASURE_H
#define RTM_TOOL_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "probe_timer.h"
#include "summary.h"

#define MEASURE_MAX_BOUNDS 16

struct measure_opts {
	const char *command;			/* "cyclic" or "run" */
	struct rtm_probe_timer_opts probe;
	bool cpus_given;
	bool no_rt;
	bool quiet;
	bool json;
	const char *outdir;			/* NULL: default name */
	unsigned int hist_rows;			/* histogram.txt rows, 0 = auto */
	uint64_t ts_interval_ns;
	int nbounds;
	struct rtm_bound bounds[MEASURE_MAX_BOUNDS];
	unsigned int load_kinds;		/* run only */
	bool trace;				/* --trace: flight recorder around -b */
	const char *trace_events;		/* NULL: the presets */
	size_t trace_buffer_kb;
};

/* Defaults: all allowed CPUs, 1000 us, FIFO 95, nanosleep, mlockall, dma latency 0. */
void measure_opts_init(struct measure_opts *m, const char *command);

/*
 * Parse one option shared by cyclic and run. Returns 1 if @c was one of them,
 * 0 if not, or RTM_EXIT_USAGE after printing the one-line error.
 */
int measure_parse_opt(struct measure_opts *m, int c, const char *arg);

/* getopt_long tables of the shared options, to be concatenated by the commands. */
#define MEASURE_SHORTOPTS "a:i:d:p:D:l:b:h:o:qm"
#define MEASURE_LONGOPTS							\
	{ "cpus", required_argument, NULL, 'a' },				\
	{ "affinity", required_argument, NULL, 'a' },				\
	{ "interval", required_argument, NULL, 'i' },				\
	{ "distance", required_argument, NULL, 'd' },				\
	{ "priority", required_argument, NULL, 'p' },				\
	{ "policy", required_argument, NULL, 1001 },				\
	{ "mode", required_argument, NULL, 1002 },				\
	{ "duration", required_argument, NULL, 'D' },				\
	{ "loops", required_argument, NULL, 'l' },				\
	{ "breaktrace", required_argument, NULL, 'b' },				\
	{ "fail-above", required_argument, NULL, 1003 },			\
	{ "histogram", required_argument, NULL, 'h' },				\
	{ "output", required_argument, NULL, 'o' },				\
	{ "quiet", no_argument, NULL, 'q' },					\
	{ "json", no_argument, NULL, 1004 },					\
	{ "mlockall", no_argument, NULL, 'm' },					\
	{ "no-mlock", no_argument, NULL, 1005 },				\
	{ "no-dma-latency", no_argument, NULL, 1006 },				\
	{ "no-rt", no_argument, NULL, 1007 },					\
	{ "series-interval", required_argument, NULL, 1008 },			\
	{ "log-above", required_argument, NULL, 1009 },				\
	{ "log-max", required_argument, NULL, 1010 },				\
	{ "trace", no_argument, NULL, 1011 },					\
	{ "trace-events", required_argument, NULL, 1012 },			\
	{ "trace-buffer", required_argument, NULL, 1013 }

#define MEASURE_OPTIONS_HELP							\
"  -a, --cpus LIST         CPUs to measure, one thread each (default: all allowed)\n" \
"  -i, --interval LAT      wake-up period (default 1000us; a plain number is us)\n" \
"  -d, --distance LAT      added to the period of each further thread (default 0)\n" \
"  -p, --priority N        RT priority of the probe threads (default 95)\n"	\
"      --policy P          fifo, rr, other, or deadline:RUNTIME:DEADLINE:PERIOD\n" \
"      --mode M            nanosleep (default), timerfd or signal (POSIX timer)\n" \
"  -D, --duration DUR      measuring time, e.g. 30s, 5m, 2h\n"		\
"  -l, --loops N           stop after N wake-ups per CPU\n"			\
"  -b, --breaktrace LAT    stop at the first wake-up later than LAT\n"	\
"      --fail-above B      exit 1 if B is exceeded: 50us (max), p99.9=50us,\n" \
"                          avg=20us; may be given several times\n"	\
"  -h, --histogram US      rows of histogram.txt (default: up to the max)\n" \
"  -o, --output DIR        results folder (default rtmeasure-HOST-KERNEL-TIME)\n" \
"  -q, --quiet             no live lines, only the summary\n"		\
"      --json              print the summary as JSON on stdout\n"		\
"  -m, --mlockall          lock memory (the default; for cyclictest habits)\n" \
"      --no-mlock          do not lock memory\n"				\
"      --no-dma-latency    do not hold /dev/cpu_dma_latency at 0\n"	\
"      --no-rt             measure at SCHED_OTHER (no privileges needed)\n" \
"      --series-interval D time-series interval (default 1s)\n"		\
"      --log-above LAT     keep time and value of wake-ups later than LAT\n"	\
"      --log-max N         at most N of them per CPU (default 10000)\n"	\
"      --trace             with -b: record sched, irq, timer, ipi and nmi events\n" \
"                          (flight recorder) and save the spike's events in\n" \
"                          spikes/spike-001.txt and .json (root, tracefs)\n"	\
"      --trace-events L    event sets or system:event, comma separated\n"	\
"      --trace-buffer KB   trace buffer per CPU (default 8192)\n"	\
"      --help              this help\n"

/* Run the measurement; returns the exit status. */
int measure_main(struct measure_opts *m);

#endif
