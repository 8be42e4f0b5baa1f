// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure_opts.c - parsing the options cyclic, run and monitor share, cyclictest's
 * among them: each is taken with its cyclictest meaning where that fits, or
 * refused with the reason and what to use instead (rtmeasure-cyclic(1),
 * COMPATIBILITY, has the same table for people).
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

/* The commands' one-line error on stderr; returns 2 (tools/rtmeasure.h). */

static const struct option measure_longopts[] = {
	MEASURE_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* cyclictest options that have no meaning here, with the reason and what to use. */
static const struct {
	int c;
	const char *why;
} refused[] = {
	{ 'A', "every probe thread has its own period and phase; use -d for "
	       "different periods" },
	{ 'F', "no statistics are written to a pipe; read result.json, or --json" },
	{ 'M', "the live lines refresh once a second; -q turns them off" },
	{ 'r', "relative sleeps add drift and hide latency; the probe sleeps to absolute "
	       "times, as cyclictest does by default" },
	{ 'R', "clock resolution is not a wake-up latency" },
	{ 's', "sys_nanosleep/setitimer are not offered; use --mode nanosleep (the default), "
	       "timerfd or signal" },
	{ 'v', "printing every sample would mean output from the probe loop; use "
	       "--log-above LAT for the wake-ups above a bound (result.json events) and "
	       "histogram.txt or --histfile for the distribution" },
	{ 1101, "-o is the results folder here; use --log-above for the late wake-ups" },
	{ 1102, "all probe threads run at one priority (-p)" },
	{ 1103, "every probe thread has its own phase; use -d for different periods" },
	{ 1104, "SMI counting is not implemented; sysinfo reports what the box tells "
		"about firmware and virtualisation" },
	{ 1105, "use --trace with -b or --capture-above: the spike's events are saved and "
		"explained in spikes/" },
	{ 1106, "no debugging output; result.json records the options used" },
};

const char *measure_opt_name(int c, char *buf, size_t len)
{
	const struct option *o;
	const char *lname = NULL;

	for (o = measure_longopts; o->name; o++) {
		if (o->val == c) {
			lname = o->name;
			break;
		}
	}
	if (c > 0 && c < 256 && lname)
		snprintf(buf, len, "-%c/--%s", c, lname);
	else if (c > 0 && c < 256)
		snprintf(buf, len, "-%c", c);
	else
		snprintf(buf, len, "--%s", lname ? lname : "?");
	return buf;
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

static int refuse(const struct rtm_session_opts *m, int c)
{
	char name[48];
	size_t i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (refused[i].c == c)
			return rtm_cli_fail("%s: %s (cyclictest) is not taken: %s", m->command,
					    measure_opt_name(c, name, sizeof(name)), refused[i].why);
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
	case 1020:
		if (!*optarg)
			return rtm_cli_fail("%s: --histfile: give a file name", cmd);
		m->out.histfile = optarg;
		return 1;
	case 1021:
		return parse_cpus(m, optarg, &m->box.housekeeping, "--housekeeping");
	case 1023: {
		struct sockaddr_storage ss;
		struct rtm_error err = { "" };

		if (rtm_promhttp_parse(optarg, &ss, &err))
			return rtm_cli_fail("%s: %s", cmd, err.msg);
		m->prometheus = optarg;
		return 1;
	}
	case 1022: {
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
	case 1001:
		/* cyclictest's "normal" is SCHED_OTHER */
		if (rtm_sched_parse(strcasecmp(arg, "normal") ? arg : "other", &m->probe.sched,
				    &err))
			return rtm_cli_fail("%s: --policy: %s", cmd, err.msg);
		return 1;
	case 1002:
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
	case 1003:
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
		m->out.outdir = arg;
		return 1;
	case MEASURE_OPT_FORCE:
		m->out.force = true;
		return 1;
	case MEASURE_OPT_FOLLOW:
		m->out.follow = true;
		return 1;
	case 'q':
		m->out.quiet = true;
		return 1;
	case 1004:
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
	case 1005:
		m->probe.lock_memory = false;
		return 1;
	case 1006:
		m->probe.dma_latency_us = -1;
		m->box.deepest_idle = -2;
		return 1;
	case 1024:
		m->box.exclusive = true;
		return 1;
	case 1007:
		m->box.no_rt = true;
		return 1;
	case 1008:
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
	case 1009:
		if (rtm_parse_latency_ns(arg, &m->probe.log_above_ns, &err) ||
		    !m->probe.log_above_ns)
			return rtm_cli_fail("%s: --log-above: %s", cmd,
					    err.msg[0] ? err.msg : "must be above 0");
		return 1;
	case 1010:
		if (parse_u64(arg, &v) || !v || v > 10000000)
			return rtm_cli_fail("%s: --log-max '%s': give 1 to 10000000", cmd, arg);
		m->probe.log_max = (uint32_t)v;
		return 1;
	case 1011:
		m->trace.on = true;
		return 1;
	case 1012:
		m->trace.on = true;
		m->trace.events = arg;
		return 1;
	case 1013:
		if (parse_u64(arg, &v) || v < 64 || v > 4194304)
			return rtm_cli_fail("%s: --trace-buffer '%s': give KB per CPU, 64 to 4194304",
					    cmd, arg);
		m->trace.buffer_kb = (size_t)v;
		return 1;
	case 1014:
		if (rtm_parse_latency_ns(arg, &m->probe.capture_ns, &err) || !m->probe.capture_ns)
			return rtm_cli_fail("%s: --capture-above: %s", cmd,
					    err.msg[0] ? err.msg : "must be above 0");
		m->trace.on = true;
		return 1;
	case 1015:
		if (parse_u64(arg, &v) || !v || v > 999)
			return rtm_cli_fail("%s: --max-captures '%s': give 1 to 999", cmd, arg);
		m->probe.capture_max = (uint32_t)v;
		return 1;
	case 1016:
		if (rtm_parse_duration_ns(arg, &m->probe.capture_holdoff_ns, &err))
			return rtm_cli_fail("%s: --capture-holdoff: %s", cmd, err.msg);
		return 1;
	case 1017:
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
