// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure_opts.c - the options cyclic, run and monitor share, cyclictest's among
 * them, as tables with their help lines, and their parsing: each is taken with
 * its cyclictest meaning where that fits, or refused with the reason and what
 * to use instead (rtmeasure-cyclic(1), COMPATIBILITY, has the same table for
 * people).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "cli/measure_opts.h"
#include "core/units.h"
#include "present/promhttp.h"

/* Help lines of the rows the monitor's versions of the tables list too. */
#define HELP_HISTOGRAM	"rows of histogram.txt (default: up to the max)"
#define HELP_HISTOFALL	"the same, with a column for all CPUs"
#define HELP_OUTPUT	"results folder (default rtmeasure-HOST-KERNEL-TIME)"
#define HELP_EVENTS	"event sets or system:event, comma separated"
#define HELP_BUFFER	"trace buffer per CPU (default 8192)"
#define HELP_FILTER	"system:event:expression, the kernel's event filter " \
			"(e.g. irq:irq_handler_entry:irq!=0); repeatable"
#define HELP_RT_HOLD	"name the real-time tasks that held a measured CPU longer than BOUND " \
			"without a switch (sched_switch; default 100ms whenever tracing, 0: " \
			"off; given alone it traces sched_switch only)"
#define HELP_TIMER_IRQ	"split each wake-up's timer IRQ delay (expiry to the interrupt) from " \
			"hrtimer_start/hrtimer_expire_entry; on whenever tracing, 0/off: off; " \
			"given alone it traces those two events only"

const struct rtm_opt measure_opts_probe[] = {
	{ "cpus", 'a', required_argument, "LIST", MEASURE_G_CPUS,
	  "CPUs to measure, one thread each (default: every CPU this process may use); "
	  "cyclictest's -a/--affinity" },
	{ "affinity", 'a', optional_argument, "[LIST]", MEASURE_G_COMPAT,
	  "cyclictest's name of --cpus; alone: every CPU" },
	{ "threads", 't', optional_argument, "[N]", MEASURE_G_CPUS,
	  "the first N of those CPUs (no N: all; -S: all)" },
	{ "smp", 'S', no_argument, NULL, MEASURE_G_COMPAT,
	  "every CPU, clock_nanosleep (cyclictest's -t -a -n)" },
	{ "interval", 'i', required_argument, "LAT", MEASURE_G_TIMING,
	  "wake-up period (default 1000us; a plain number is us)" },
	{ "distance", 'd', required_argument, "LAT", MEASURE_G_TIMING,
	  "added to the period of each further thread (default 0)" },
	{ "priority", 'p', required_argument, "N", MEASURE_G_SCHED,
	  "RT priority of the probe threads, all alike (default 95)" },
	{ "prio", 'p', required_argument, "N", MEASURE_G_COMPAT, NULL },
	{ "policy", MEASURE_OPT_POLICY, required_argument, "P", MEASURE_G_SCHED,
	  "fifo, rr, other, batch, idle, or deadline:RUNTIME:DEADLINE:PERIOD" },
	{ "mode", MEASURE_OPT_MODE, required_argument, "M", MEASURE_G_TIMING,
	  "nanosleep (default, -n), timerfd or signal (-x)" },
	{ "nanosleep", 'n', no_argument, NULL, MEASURE_G_COMPAT,
	  "the same as --mode nanosleep (the default)" },
	{ "posix_timers", 'x', no_argument, NULL, MEASURE_G_COMPAT,
	  "the same as --mode signal" },
	{ "clock", 'c', required_argument, "N", MEASURE_G_COMPAT,
	  "0 (CLOCK_MONOTONIC) only: the probe measures on no other clock" },
	{ "duration", 'D', required_argument, "DUR", MEASURE_G_DURATION,
	  "measuring time, e.g. 30s, 5m, 2h, 1d" },
	{ "loops", 'l', required_argument, "N", MEASURE_G_DURATION,
	  "stop after N wake-ups per CPU" },
	RTM_OPT_END,
};

const struct rtm_opt measure_opts_results[] = {
	{ "breaktrace", 'b', required_argument, "LAT", MEASURE_G_DURATION,
	  "stop at the first wake-up later than LAT" },
	{ "fail-above", MEASURE_OPT_FAIL_ABOVE, required_argument, "B", MEASURE_G_RESULTS,
	  "exit 1 if B is exceeded: 50us (max), p99.9=50us, avg=20us; may be given several "
	  "times" },
	{ "histogram", 'h', required_argument, "US", MEASURE_G_RESULTS, HELP_HISTOGRAM },
	{ "histofall", 'H', required_argument, "US", MEASURE_G_RESULTS, HELP_HISTOFALL },
	{ "histfile", MEASURE_OPT_HISTFILE, required_argument, "FILE", MEASURE_G_RESULTS,
	  "the histogram (cyclictest layout) into FILE too" },
	{ "output", 'o', required_argument, "DIR", MEASURE_G_RESULTS, HELP_OUTPUT },
	{ "force", MEASURE_OPT_FORCE, no_argument, NULL, MEASURE_G_RESULTS,
	  "-o names an earlier result: replace it (its result.json, histogram.txt, report, "
	  "plots, spikes)" },
	{ "follow", MEASURE_OPT_FOLLOW, no_argument, NULL, MEASURE_G_RESULTS,
	  "-o, --histfile and --json=FILE may be symbolic links" },
	{ "fallback-dir", MEASURE_OPT_FALLBACK_DIR, required_argument, "DIR", MEASURE_G_RESULTS,
	  MEASURE_HELP_FALLBACK },
	{ "quiet", 'q', no_argument, NULL, MEASURE_G_RESULTS,
	  "no live lines or progress, only the summary" },
	{ "json", MEASURE_OPT_JSON, optional_argument, "FILE", MEASURE_G_RESULTS,
	  "the summary as JSON on stdout; with FILE the table stays on stdout and FILE gets "
	  "cyclic: cyclictest's JSON (rt-tests layout), run: the summary JSON" },
	{ "nsecs", 'N', no_argument, NULL, MEASURE_G_RESULTS, "the summary table in ns" },
	RTM_OPT_END,
};

const struct rtm_opt measure_opts_system[] = {
	{ "unbuffered", 'u', no_argument, NULL, MEASURE_G_COMPAT,
	  "standard output line-buffered (lines are written whole anyway)" },
	{ "mlockall", 'm', no_argument, NULL, MEASURE_G_POWER, "lock memory (the default)" },
	{ "no-mlock", MEASURE_OPT_NO_MLOCK, no_argument, NULL, MEASURE_G_POWER,
	  "do not lock memory" },
	{ "no-dma-latency", MEASURE_OPT_NO_DMA_LATENCY, no_argument, NULL, MEASURE_G_POWER,
	  "do not hold /dev/cpu_dma_latency (--laptop)" },
	{ "laptop", MEASURE_OPT_NO_DMA_LATENCY, no_argument, NULL, MEASURE_G_COMPAT, NULL },
	{ "default-system", MEASURE_OPT_NO_DMA_LATENCY, no_argument, NULL, MEASURE_G_COMPAT,
	  NULL },
	{ "latency", 'e', required_argument, "US", MEASURE_G_POWER,
	  "hold /dev/cpu_dma_latency at US (default 0)" },
	{ "deepest-idle-state", MEASURE_OPT_DEEPEST_IDLE, required_argument, "STATE",
	  MEASURE_G_POWER, "allow idle states up to STATE (their exit latency into "
	  "/dev/cpu_dma_latency); -1: none (the default)" },
	{ "prometheus", MEASURE_OPT_PROMETHEUS, required_argument, "[ADDR:]PORT",
	  MEASURE_G_SERIES, "serve /metrics for Prometheus during the run (127.0.0.1 unless "
	  "ADDR is given)" },
	{ "no-rt", MEASURE_OPT_NO_RT, no_argument, NULL, MEASURE_G_SCHED,
	  "measure at SCHED_OTHER (no privileges needed)" },
	{ "housekeeping", MEASURE_OPT_HOUSEKEEPING, required_argument, "CPUS", MEASURE_G_CPUS,
	  "the threads that do not measure run there (cyclictest's --mainaffinity)" },
	{ "exclusive", MEASURE_OPT_EXCLUSIVE, no_argument, NULL, MEASURE_G_CPUS,
	  "refuse to measure a CPU another rtmeasure measures (default: warn), and make "
	  "later runs refuse it" },
	{ "mainaffinity", MEASURE_OPT_HOUSEKEEPING, required_argument, "CPUS",
	  MEASURE_G_COMPAT, NULL },
	{ "series-interval", MEASURE_OPT_SERIES_INTERVAL, required_argument, "D",
	  MEASURE_G_SERIES, "time-series interval (default 1s)" },
	{ "log-above", MEASURE_OPT_LOG_ABOVE, required_argument, "LAT", MEASURE_G_TRACE,
	  "keep time and value of wake-ups later than LAT (cyclictest's --spike)" },
	{ "spike", MEASURE_OPT_LOG_ABOVE, required_argument, "LAT", MEASURE_G_COMPAT, NULL },
	{ "log-max", MEASURE_OPT_LOG_MAX, required_argument, "N", MEASURE_G_TRACE,
	  "at most N of them per CPU (default 10000)" },
	{ "spike-nodes", MEASURE_OPT_LOG_MAX, required_argument, "N", MEASURE_G_COMPAT, NULL },
	RTM_OPT_END,
};

const struct rtm_opt measure_opts_trace[] = {
	{ "trace", MEASURE_OPT_TRACE, no_argument, NULL, MEASURE_G_TRACE,
	  "with -b or --capture-above: record sched, irq, timer, ipi and nmi events (flight "
	  "recorder) and save each spike's events and their analysis in "
	  "spikes/spike-NNN.txt and .json (root, tracefs)" },
	{ "trace-events", MEASURE_OPT_TRACE_EVENTS, required_argument, "L", MEASURE_G_EVENTS,
	  HELP_EVENTS },
	{ "trace-buffer", MEASURE_OPT_TRACE_BUFFER, required_argument, "KB", MEASURE_G_EVENTS,
	  HELP_BUFFER },
	{ "capture-above", MEASURE_OPT_CAPTURE, required_argument, "LAT", MEASURE_G_TRACE,
	  "save the events of wake-ups later than LAT and keep measuring (implies --trace); "
	  "every one of them gets a cause in the spike census" },
	{ "max-captures", MEASURE_OPT_MAX_CAPT, required_argument, "N", MEASURE_G_EVENTS,
	  "at most N --capture-above captures per CPU (default 10)" },
	{ "capture-holdoff", MEASURE_OPT_HOLDOFF, required_argument, "D", MEASURE_G_EVENTS,
	  "no capture on a CPU sooner than D after its last (default 1s)" },
	{ "trace-filter", MEASURE_OPT_TRACE_FILTER, required_argument, "F", MEASURE_G_EVENTS,
	  HELP_FILTER },
	{ "rt-hold", MEASURE_OPT_RT_HOLD, required_argument, "BOUND", MEASURE_G_TRACE,
	  HELP_RT_HOLD },
	{ "timer-irq", MEASURE_OPT_TIMER_IRQ, optional_argument, "[0|off]", MEASURE_G_TRACE,
	  HELP_TIMER_IRQ },
	{ "backend", MEASURE_OPT_BACKEND, required_argument, "B", MEASURE_G_TIMING,
	  "timer (rtmeasure's own probe, the default), timerlat (the kernel's timerlat "
	  "tracer: thread latency as the wake-up, its IRQ latency split off; root) or auto "
	  "(timerlat where the kernel has it, else timer)" },
	{ "bpf", MEASURE_OPT_BPF, optional_argument, "[0|off]", MEASURE_G_TRACE,
	  "the timer IRQ split counted in the kernel by BPF programs, nothing streamed "
	  "(root, BTF; automatic for -D over 10m without --trace; 0/off: never)" },
	RTM_OPT_END,
};

/*
 * cyclictest's options that have no meaning here: never listed, and the help
 * line of each is the reason it is refused, with what to use instead.
 */
const struct rtm_opt measure_opts_refused[] = {
	{ "aligned", 'A', required_argument, NULL, RTM_OPT_HIDDEN,
	  "the probe threads already start aligned on one time base, as with -A 0; a "
	  "per-thread offset is not offered (use -d for different periods)" },
	{ "fifo", 'F', required_argument, NULL, RTM_OPT_HIDDEN,
	  "no statistics are written to a pipe; read result.json, or --json" },
	{ "refresh_on_max", 'M', no_argument, NULL, RTM_OPT_HIDDEN,
	  "the live lines refresh once a second; -q turns them off" },
	{ "relative", 'r', no_argument, NULL, RTM_OPT_HIDDEN,
	  "relative sleeps add drift and hide latency; the probe sleeps to absolute times, "
	  "as cyclictest does by default" },
	{ "resolution", 'R', no_argument, NULL, RTM_OPT_HIDDEN,
	  "clock resolution is not a wake-up latency" },
	{ "system", 's', no_argument, NULL, RTM_OPT_HIDDEN,
	  "sys_nanosleep/setitimer are not offered; use --mode nanosleep (the default), "
	  "timerfd or signal" },
	{ "verbose", 'v', no_argument, NULL, RTM_OPT_HIDDEN,
	  "printing every sample would mean output from the probe loop; use --log-above LAT "
	  "for the wake-ups above a bound (result.json events) and histogram.txt or "
	  "--histfile for the distribution" },
	{ "oscope", MEASURE_OPT_OSCOPE, required_argument, NULL, RTM_OPT_HIDDEN,
	  "-o is the results folder here; use --log-above for the late wake-ups" },
	{ "priospread", MEASURE_OPT_PRIOSPREAD, no_argument, NULL, RTM_OPT_HIDDEN,
	  "all probe threads run at one priority (-p)" },
	{ "secaligned", MEASURE_OPT_SECALIGNED, optional_argument, NULL, RTM_OPT_HIDDEN,
	  "the probe threads start together 100 ms after set-up, not on a whole second" },
	{ "smi", MEASURE_OPT_SMI, no_argument, NULL, RTM_OPT_HIDDEN,
	  "SMI counting is not implemented; sysinfo reports what the box tells about "
	  "firmware and virtualisation" },
	{ "tracemark", MEASURE_OPT_TRACEMARK, no_argument, NULL, RTM_OPT_HIDDEN,
	  "use --trace with -b or --capture-above: the spike's events are saved and "
	  "explained in spikes/" },
	{ "dbg_cyclictest", MEASURE_OPT_DBG_CYCLICTEST, no_argument, NULL, RTM_OPT_HIDDEN,
	  "no debugging output; result.json records the options used" },
	RTM_OPT_END,
};

/*
 * The monitor's versions of the results and tracing tables: the same rows in
 * the same order, those of a measurement with an end result hidden (the
 * monitor refuses them, tools/cmd_monitor.c), --trace its own.
 */
const struct rtm_opt measure_opts_results_monitor[] = {
	{ "breaktrace", 'b', required_argument, NULL, RTM_OPT_HIDDEN, NULL },
	{ "fail-above", MEASURE_OPT_FAIL_ABOVE, required_argument, NULL, RTM_OPT_HIDDEN, NULL },
	{ "histogram", 'h', required_argument, "US", MEASURE_G_RESULTS, HELP_HISTOGRAM },
	{ "histofall", 'H', required_argument, "US", MEASURE_G_RESULTS, HELP_HISTOFALL },
	{ "histfile", MEASURE_OPT_HISTFILE, required_argument, NULL, RTM_OPT_HIDDEN, NULL },
	{ "output", 'o', required_argument, "DIR", MEASURE_G_RESULTS, HELP_OUTPUT },
	{ "force", MEASURE_OPT_FORCE, no_argument, NULL, MEASURE_G_RESULTS,
	  "-o names an earlier result: replace it" },
	{ "follow", MEASURE_OPT_FOLLOW, no_argument, NULL, MEASURE_G_RESULTS,
	  "-o may be a symbolic link" },
	{ "fallback-dir", MEASURE_OPT_FALLBACK_DIR, required_argument, "DIR", MEASURE_G_RESULTS,
	  MEASURE_HELP_FALLBACK },
	{ "quiet", 'q', no_argument, NULL, RTM_OPT_HIDDEN, NULL },
	{ "json", MEASURE_OPT_JSON, optional_argument, NULL, RTM_OPT_HIDDEN, NULL },
	{ "nsecs", 'N', no_argument, NULL, RTM_OPT_HIDDEN, NULL },
	RTM_OPT_END,
};

const struct rtm_opt measure_opts_trace_monitor[] = {
	{ "trace", MEASURE_OPT_TRACE, no_argument, NULL, MEASURE_G_TRACE,
	  "start with tracing on (key t toggles it)" },
	{ "trace-events", MEASURE_OPT_TRACE_EVENTS, required_argument, "L", MEASURE_G_EVENTS,
	  HELP_EVENTS },
	{ "trace-buffer", MEASURE_OPT_TRACE_BUFFER, required_argument, "KB", MEASURE_G_EVENTS,
	  HELP_BUFFER },
	{ "capture-above", MEASURE_OPT_CAPTURE, required_argument, NULL, RTM_OPT_HIDDEN, NULL },
	{ "max-captures", MEASURE_OPT_MAX_CAPT, required_argument, NULL, RTM_OPT_HIDDEN, NULL },
	{ "capture-holdoff", MEASURE_OPT_HOLDOFF, required_argument, NULL, RTM_OPT_HIDDEN,
	  NULL },
	{ "trace-filter", MEASURE_OPT_TRACE_FILTER, required_argument, "F", MEASURE_G_EVENTS,
	  HELP_FILTER },
	{ "rt-hold", MEASURE_OPT_RT_HOLD, required_argument, "BOUND", MEASURE_G_TRACE,
	  HELP_RT_HOLD },
	{ "timer-irq", MEASURE_OPT_TIMER_IRQ, optional_argument, "[0|off]", MEASURE_G_TRACE,
	  HELP_TIMER_IRQ },
	{ "backend", MEASURE_OPT_BACKEND, required_argument, NULL, RTM_OPT_HIDDEN, NULL },
	{ "bpf", MEASURE_OPT_BPF, optional_argument, NULL, RTM_OPT_HIDDEN, NULL },
	RTM_OPT_END,
};

/* The shared tables as one command's: the names the messages give the options. */
static const struct rtm_cmd_opts measure_shared = {
	.tables = { measure_opts_probe, measure_opts_results, measure_opts_system,
		    measure_opts_trace, measure_opts_refused },
};

const char *measure_opt_name(int c, char *buf, size_t len)
{
	return rtm_opts_name(&measure_shared, c, buf, len);
}

static int parse_u64(const char *arg, uint64_t *v)
{
	char *end;

	if (!arg || !*arg || *arg == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(arg, &end, 10);
	return (errno || *end) ? -EINVAL : 0;
}

/*
 * cyclictest's optional values may be the next argument ("-t 4", "-a 1"): take
 * it when @looks_like says it is one. cyclic, run and monitor have no operands,
 * so nothing else could be meant.
 */
static const char *optional_value(int argc, char **argv, int (*looks_like)(const char *))
{
	if (optarg)
		return optarg;
	if (optind < argc && argv[optind] && looks_like(argv[optind]))
		return argv[optind++];
	return NULL;
}

static int is_count(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static int is_cpulist(const char *s)
{
	return isdigit((unsigned char)*s);
}

static int is_onoff(const char *s)
{
	return !strcmp(s, "0") || !strcmp(s, "1") || !strcasecmp(s, "off") ||
	       !strcasecmp(s, "on");
}

static int is_file(const char *s)
{
	return *s && *s != '-';
}

/* A refused cyclictest option: the message gives its row's help line as the reason. */
static int refuse(const struct rtm_session_opts *m, int c)
{
	const struct rtm_opt *o;
	char name[48];

	for (o = measure_opts_refused; o->name; o++)
		if (o->key == c)
			return rtm_cli_fail("%s: %s (cyclictest) is not taken: %s", m->command,
					    measure_opt_name(c, name, sizeof(name)), o->help);
	return 0;
}

static int parse_cpus(struct rtm_session_opts *m, const char *arg, struct rtm_cpulist *cl,
		      const char *what)
{
	struct rtm_error err = { "" };

	rtm_cpulist_release(cl);
	if (rtm_cpulist_parse(arg, cl, &err) || !cl->n)
		return rtm_cli_fail("%s: %s: %s", m->command, what,
				    err.msg[0] ? err.msg : "empty CPU list");
	return 1;
}

/* cyclictest's options without an rtmeasure counterpart of the same name. */
static int parse_cyclictest_opt(struct rtm_session_opts *m, int c, int argc, char **argv)
{
	const char *cmd = m->command, *arg;
	uint64_t v;

	switch (c) {
	case 't':
		arg = optional_value(argc, argv, is_count);
		if (!arg) {
			m->box.threads = 0;		/* one per CPU: every measured CPU */
			return 1;
		}
		if (parse_u64(arg, &v) || !v || v > 65536)
			return rtm_cli_fail("%s: -t/--threads '%s': give a thread count of 1 or more "
					    "(one thread per CPU; -a picks the CPUs)", cmd, arg);
		m->box.threads = (unsigned int)v;
		return 1;
	case 'S':	/* -t -a -n: one thread on every CPU, clock_nanosleep */
		m->box.threads = 0;
		m->probe.mode = RTM_TIMER_NANOSLEEP;
		return 1;
	case 'n':
		m->probe.mode = RTM_TIMER_NANOSLEEP;
		return 1;
	case 'x':
		m->probe.mode = RTM_TIMER_SIGNAL;
		return 1;
	case 'c':
		if (strcmp(optarg, "0") && strcasecmp(optarg, "monotonic"))
			return rtm_cli_fail("%s: -c/--clock '%s': the probe measures on "
					    "CLOCK_MONOTONIC (-c 0) only", cmd, optarg);
		return 1;
	case 'N':
		m->out.nsecs = true;
		return 1;
	case 'u':	/* lines are written whole anyway; make the output follow them */
		m->out.line_buffered = true;
		return 1;
	case 'e':
		if (parse_u64(optarg, &v) || v > 2000000000)
			return rtm_cli_fail("%s: --latency '%s': give the PM QoS target in "
					    "microseconds, 0 or more", cmd, optarg);
		m->probe.dma_latency_us = (int32_t)v;
		m->box.deepest_idle = -2;
		return 1;
	case MEASURE_OPT_HISTFILE:
		if (!*optarg)
			return rtm_cli_fail("%s: --histfile: give a file name", cmd);
		m->out.histfile = optarg;
		return 1;
	case MEASURE_OPT_HOUSEKEEPING:
		return parse_cpus(m, optarg, &m->box.housekeeping, "--housekeeping");
	case MEASURE_OPT_PROMETHEUS: {
		struct sockaddr_storage ss;
		struct rtm_error err = { "" };

		if (rtm_promhttp_parse(optarg, &ss, &err))
			return rtm_cli_fail("%s: %s", cmd, err.msg);
		m->prometheus = optarg;
		return 1;
	}
	case MEASURE_OPT_DEEPEST_IDLE: {
		char *end;
		long n;

		errno = 0;
		n = strtol(optarg, &end, 10);
		if (errno || *end || end == optarg || n < -1 || n > 64)
			return rtm_cli_fail("%s: --deepest-idle-state '%s': give an idle state "
					    "number, or -1 for none", cmd, optarg);
		m->box.deepest_idle = (int)n;
		return 1;
	}
	}
	return refuse(m, c);
}

/* What and how the probe measures: CPUs, period, scheduling, how long. */
static int parse_probe_opt(struct rtm_session_opts *m, int c, int argc, char **argv)
{
	struct rtm_error err = { "" };
	const char *cmd = m->command, *arg = optarg;
	uint64_t v;
	int ret;

	switch (c) {
	case 'a':
		arg = optional_value(argc, argv, is_cpulist);
		if (!arg) {	/* cyclictest's bare -a: every CPU */
			rtm_cpulist_release(&m->probe.cpus);
			m->box.cpus_given = false;
			return 1;
		}
		ret = parse_cpus(m, arg, &m->probe.cpus, "-a/--cpus");
		if (ret == 1)
			m->box.cpus_given = true;
		return ret;
	case 'i':
		if (rtm_parse_latency_ns(arg, &m->probe.interval_ns, &err))
			return rtm_cli_fail("%s: -i/--interval: %s", cmd, err.msg);
		if (m->probe.interval_ns < 10000 || m->probe.interval_ns > 10000000000ULL)
			return rtm_cli_fail("%s: interval %s out of range (10us to 10s)", cmd, arg);
		return 1;
	case 'd':
		if (rtm_parse_latency_ns(arg, &m->probe.distance_ns, &err))
			return rtm_cli_fail("%s: -d/--distance: %s", cmd, err.msg);
		return 1;
	case 'p':
		if (parse_u64(arg, &v) || v > 99)
			return rtm_cli_fail("%s: -p/--priority '%s': give 1-99 (0 with --policy "
					    "other)", cmd, arg);
		m->probe.sched.priority = (int)v;
		return 1;
	case MEASURE_OPT_POLICY:
		/* cyclictest's "normal" is SCHED_OTHER */
		if (rtm_sched_parse(strcasecmp(arg, "normal") ? arg : "other", &m->probe.sched,
				    &err))
			return rtm_cli_fail("%s: --policy: %s", cmd, err.msg);
		return 1;
	case MEASURE_OPT_MODE:
		if (rtm_timer_mode_parse(arg, &m->probe.mode, &err))
			return rtm_cli_fail("%s: --mode: %s", cmd, err.msg);
		return 1;
	case 'D':
		if (rtm_parse_duration_ns(arg, &m->probe.duration_ns, &err))
			return rtm_cli_fail("%s: -D/--duration: %s", cmd, err.msg);
		return 1;
	case 'l':
		if (parse_u64(arg, &m->probe.loops) || !m->probe.loops)
			return rtm_cli_fail("%s: -l/--loops '%s': give a positive count", cmd, arg);
		return 1;
	}
	return 0;
}

/* The results: bounds, histogram rows, the folder, what is printed. */
static int parse_result_opt(struct rtm_session_opts *m, int c, int argc, char **argv)
{
	struct rtm_error err = { "" };
	const char *cmd = m->command, *arg = optarg;
	uint64_t v;

	switch (c) {
	case 'b':
		if (rtm_parse_latency_ns(arg, &m->probe.break_ns, &err) || !m->probe.break_ns)
			return rtm_cli_fail("%s: -b/--breaktrace: %s", cmd,
					    err.msg[0] ? err.msg : "must be above 0");
		return 1;
	case MEASURE_OPT_FAIL_ABOVE:
		if (m->out.nbounds == RTM_SESSION_MAX_BOUNDS)
			return rtm_cli_fail("%s: at most %d --fail-above bounds", cmd,
					    RTM_SESSION_MAX_BOUNDS);
		if (rtm_bound_parse(arg, &m->out.bounds[m->out.nbounds], &err))
			return rtm_cli_fail("%s: %s", cmd, err.msg);
		m->out.nbounds++;
		return 1;
	case 'h':
	case 'H':
		if (parse_u64(arg, &v) || !v || v > 1000000)
			return rtm_cli_fail("%s: %s '%s': give the number of microsecond rows, "
					    "1 to 1000000", cmd, c == 'h' ? "-h/--histogram" :
					    "-H/--histofall", arg);
		m->out.hist_rows = (unsigned int)v;
		m->out.histofall = c == 'H';
		return 1;
	case 'o':
		if (rtm_cli_outdir_named(cmd, arg))
			return RTM_EXIT_USAGE;
		m->out.outdir = arg;
		return 1;
	case MEASURE_OPT_FORCE:
		m->out.force = true;
		return 1;
	case MEASURE_OPT_FOLLOW:
		m->out.follow = true;
		return 1;
	case MEASURE_OPT_FALLBACK_DIR:
		if (!*arg || rtm_cli_outdir_named(cmd, arg))
			return *arg ? RTM_EXIT_USAGE :
			       rtm_cli_fail("%s: --fallback-dir: give a folder name", cmd);
		m->out.fallback_dir = arg;
		return 1;
	case 'q':
		m->out.quiet = true;
		return 1;
	case MEASURE_OPT_JSON:
		arg = optional_value(argc, argv, is_file);
		if (arg && !*arg)
			return rtm_cli_fail("%s: --json=FILE: give a file name", cmd);
		if (arg)
			m->out.json_file = arg;	/* cyclictest's --json=FILE */
		else
			m->out.json = true;
		return 1;
	}
	return 0;
}

/* The system around the probes: memory, PM QoS, other runs, RT or not, the series. */
static int parse_system_opt(struct rtm_session_opts *m, int c)
{
	struct rtm_error err = { "" };
	const char *cmd = m->command, *arg = optarg;

	switch (c) {
	case 'm':
		m->probe.lock_memory = true;
		return 1;
	case MEASURE_OPT_NO_MLOCK:
		m->probe.lock_memory = false;
		return 1;
	case MEASURE_OPT_NO_DMA_LATENCY:
		m->probe.dma_latency_us = -1;
		m->box.deepest_idle = -2;
		return 1;
	case MEASURE_OPT_EXCLUSIVE:
		m->box.exclusive = true;
		return 1;
	case MEASURE_OPT_NO_RT:
		m->box.no_rt = true;
		return 1;
	case MEASURE_OPT_SERIES_INTERVAL:
		if (rtm_parse_duration_ns(arg, &m->ts_interval_ns, &err))
			return rtm_cli_fail("%s: --series-interval: %s", cmd, err.msg);
		return 1;
	}
	return 0;
}

/* Late wake-ups kept, traced and captured. */
static int parse_log_opt(struct rtm_session_opts *m, int c)
{
	struct rtm_error err = { "" };
	const char *cmd = m->command, *arg = optarg;
	uint64_t v;

	switch (c) {
	case MEASURE_OPT_LOG_ABOVE:
		if (rtm_parse_latency_ns(arg, &m->probe.log_above_ns, &err) ||
		    !m->probe.log_above_ns)
			return rtm_cli_fail("%s: --log-above: %s", cmd,
					    err.msg[0] ? err.msg : "must be above 0");
		return 1;
	case MEASURE_OPT_LOG_MAX:
		if (parse_u64(arg, &v) || !v || v > 10000000)
			return rtm_cli_fail("%s: --log-max '%s': give 1 to 10000000", cmd, arg);
		m->probe.log_max = (uint32_t)v;
		return 1;
	case MEASURE_OPT_TRACE:
		m->trace.on = true;
		return 1;
	case MEASURE_OPT_TRACE_EVENTS:
		m->trace.on = true;
		m->trace.events = arg;
		return 1;
	case MEASURE_OPT_TRACE_BUFFER:
		if (parse_u64(arg, &v) || v < 64 || v > 4194304)
			return rtm_cli_fail("%s: --trace-buffer '%s': give KB per CPU, 64 to 4194304",
					    cmd, arg);
		m->trace.buffer_kb = (size_t)v;
		return 1;
	case MEASURE_OPT_CAPTURE:
		if (rtm_parse_latency_ns(arg, &m->probe.capture_ns, &err) || !m->probe.capture_ns)
			return rtm_cli_fail("%s: --capture-above: %s", cmd,
					    err.msg[0] ? err.msg : "must be above 0");
		m->trace.on = true;
		return 1;
	case MEASURE_OPT_MAX_CAPT:
		if (parse_u64(arg, &v) || !v || v > 999)
			return rtm_cli_fail("%s: --max-captures '%s': give 1 to 999", cmd, arg);
		m->probe.capture_max = (uint32_t)v;
		return 1;
	case MEASURE_OPT_HOLDOFF:
		if (rtm_parse_duration_ns(arg, &m->probe.capture_holdoff_ns, &err))
			return rtm_cli_fail("%s: --capture-holdoff: %s", cmd, err.msg);
		return 1;
	case MEASURE_OPT_TRACE_FILTER:
		if (m->trace.nfilters == RTM_TRACE_MAX_FILTERS)
			return rtm_cli_fail("%s: at most %d --trace-filter options", cmd,
					    RTM_TRACE_MAX_FILTERS);
		if (!strchr(arg, ':') || !strchr(strchr(arg, ':') + 1, ':'))
			return rtm_cli_fail("%s: --trace-filter '%s': write system:event:expression, "
					    "e.g. irq:irq_handler_entry:irq==24", cmd, arg);
		m->trace.filters[m->trace.nfilters++] = arg;
		m->trace.on = true;
		return 1;
	}
	return 0;
}

/* The streaming instance's options and the latency probe's backend. */
static int parse_stream_opt(struct rtm_session_opts *m, int c, int argc, char **argv)
{
	struct rtm_error err = { "" };
	const char *cmd = m->command, *arg = optarg;

	switch (c) {
	case MEASURE_OPT_RT_HOLD:	/* RT tasks holding a CPU */
		if (!strcmp(arg, "0"))
			m->trace.rt_hold_ns = 0;
		else if (rtm_parse_duration_ns(arg, &m->trace.rt_hold_ns, &err))
			return rtm_cli_fail("%s: --rt-hold: %s (e.g. 100ms; 0 turns the report off)",
					    cmd, err.msg);
		if (m->trace.rt_hold_ns && m->trace.rt_hold_ns < 1000000ULL)
			return rtm_cli_fail("%s: --rt-hold %s: give 1ms or more (0 turns the report "
					    "off): shorter holds are every RT task's normal run", cmd,
					    arg);
		m->trace.rt_hold_given = m->trace.rt_hold_ns != 0;
		return 1;
	case MEASURE_OPT_BACKEND:	/* the latency probe (lib/session/backend.c) */
		if (!strcmp(cmd, "monitor"))
			return rtm_cli_fail("monitor: --backend: the monitor runs rtmeasure's own "
					    "probe only (rtmeasure cyclic --backend timerlat)");
		if (strcmp(arg, "auto") && strcmp(arg, "timer") && strcmp(arg, "timerlat"))
			return rtm_cli_fail("%s: --backend '%s': give timer, timerlat or auto", cmd,
					    arg);
		m->backend = arg;
		return 1;
	case MEASURE_OPT_TIMER_IRQ:	/* the timer IRQ part of each wake-up */
		arg = optional_value(argc, argv, is_onoff);
		if (arg && !is_onoff(arg))
			return rtm_cli_fail("%s: --timer-irq=%s: give 1/on or 0/off (alone: on)",
					    cmd, arg);
		m->trace.timer_irq = !arg || !strcmp(arg, "1") || !strcasecmp(arg, "on");
		m->trace.timer_irq_given = m->trace.timer_irq;
		return 1;
	case MEASURE_OPT_BPF:		/* the timer IRQ split in BPF (lib/session/bpfsplit.c) */
		if (!strcmp(cmd, "monitor"))
			return rtm_cli_fail("monitor: --bpf: the monitor's timer IRQ split comes "
					    "from its trace (key t); use cyclic or run --bpf");
		arg = optional_value(argc, argv, is_onoff);
		if (arg && !is_onoff(arg))
			return rtm_cli_fail("%s: --bpf=%s: give 1/on or 0/off (alone: on)", cmd,
					    arg);
		m->trace.bpf = !arg || !strcmp(arg, "1") || !strcasecmp(arg, "on");
		return 1;
	}
	return 0;
}

int measure_parse_opt(struct rtm_session_opts *m, int c, int argc, char **argv)
{
	int ret;

	if ((ret = parse_probe_opt(m, c, argc, argv)) || (ret = parse_result_opt(m, c, argc, argv)) ||
	    (ret = parse_system_opt(m, c)) || (ret = parse_log_opt(m, c)) ||
	    (ret = parse_stream_opt(m, c, argc, argv)))
		return ret;
	return parse_cyclictest_opt(m, c, argc, argv);
}

/* ---- run --noise and its options (the noise phase, lib/session/noisephase.c) */

static bool onoff(const char *s, int *v)
{
	if (!strcmp(s, "1") || !strcasecmp(s, "on"))
		*v = 1;
	else if (!strcmp(s, "0") || !strcasecmp(s, "off"))
		*v = 0;
	else
		return false;
	return true;
}

int measure_noise_parse(struct rtm_session_opts *m, int c, int argc, char **argv)
{
	struct rtm_error err = { "" };
	const char *cmd = m->command;
	int v;

	switch (c) {
	case MEASURE_OPT_NOISE:
		m->noise_phase.on = true;
		if (optarg && rtm_parse_duration_ns(optarg, &m->noise_phase.duration_ns, &err))
			return rtm_cli_fail("%s: --noise: %s", cmd, err.msg);
		return 1;
	case MEASURE_OPT_NOISE_WINDOW:
		if (rtm_parse_duration_ns(optarg, &m->noise.window_ns, &err))
			return rtm_cli_fail("%s: --noise-window: %s", cmd, err.msg);
		return 1;
	case MEASURE_OPT_NOISE_WIDTH:
		if (rtm_parse_duration_ns(optarg, &m->noise.width_ns, &err))
			return rtm_cli_fail("%s: --noise-width: %s", cmd, err.msg);
		return 1;
	case MEASURE_OPT_NOISE_THRESHOLD:
		if (rtm_parse_latency_ns(optarg, &m->noise.threshold_ns, &err))
			return rtm_cli_fail("%s: --noise-threshold: %s", cmd, err.msg);
		return 1;
	case MEASURE_OPT_NOISE_TRACE:
		/* --noise-trace, --noise-trace=0, --noise-trace 0 */
		if (!optarg && optind < argc && onoff(argv[optind], &v)) {
			optind++;
			m->trace.noise_trace = v;
			return 1;
		}
		if (optarg && !onoff(optarg, &v))
			return rtm_cli_fail("%s: --noise-trace=%s: give 1/on or 0/off (alone: on)",
					    cmd, optarg);
		m->trace.noise_trace = optarg ? v : 1;
		return 1;
	}
	return 0;
}
