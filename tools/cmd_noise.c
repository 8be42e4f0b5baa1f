// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_noise.c - rtmeasure noise (alias hwlat): the userspace noise / hardware
 * latency detector (lib/probe/probe_noise.c), driven by the shared runner.
 */
#include <getopt.h>
#include <strings.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/measure_opts.h"
#include "cli/cli.h"
#include "rtmeasure.h"
#include "core/units.h"
#include "present/promlive.h"
#include "present/runreport.h"
#include "probe/ktracer.h"
#include "session/session.h"
#include "tracefs/instance.h"

#define NOISE_OPT_WINDOW	3001
#define NOISE_OPT_WIDTH		3002
#define NOISE_OPT_THRESHOLD	3003
#define NOISE_OPT_REPORT	3004
#define NOISE_OPT_MAX_GAPS	3005
#define NOISE_OPT_BACKEND	3006
#define NOISE_OPT_TRACE		3007
#define NOISE_OPT_NO_TRACE	3008
#define NOISE_OPT_NO_REPORT	3009

static void noise_usage(FILE *f, const char *name)
{
	fprintf(f, "usage: rtmeasure %s [options]\n\n"
		"Time stolen from a CPU that no scheduler can give back: one thread per CPU,\n"
		"pinned and real-time, reads the cycle counter (TSC) in a busy loop for\n"
		"--width of every --window and records every gap between two reads longer\n"
		"than --threshold (an interrupt, another task, the hypervisor, firmware).\n"
		"Prints per CPU the noise, %% CPU available, the largest gap and the loop's\n"
		"own sample period, like rtla osnoise top; writes result.json (sections.noise:\n"
		"gap histogram, every gap with its time).\n\n"
		"  -a, --cpus LIST         CPUs to measure, one thread each (default: every CPU)\n"
		"  -p, --priority N        RT priority of the threads (default 95)\n"
		"      --policy P          fifo (default), rr or other\n"
		"      --no-rt             run at SCHED_OTHER (no privileges needed)\n"
		"  -D, --duration DUR      measuring time, e.g. 30s, 5m (default: until stopped)\n"
		"      --window DUR        duty cycle period (default 1s)\n"
		"      --width DUR         busy part of each window (default 500ms); equal to\n"
		"                          --window only with --force\n"
		"      --threshold LAT     a gap is longer than this (default 1us)\n"
		"      --report-above LAT  list the gaps longer than this (default 20us)\n"
		"      --max-gaps N        gaps kept per CPU with time and length (default 200000)\n"
		"      --backend B         user (this busy loop, any kernel), hwlat (the kernel's\n"
		"                          hwlat tracer: the largest gap of each window per CPU),\n"
		"                          osnoise (the kernel's osnoise tracer: noise by cause)\n"
		"                          or auto (default): the kernel's tracer (osnoise for\n"
		"                          noise, hwlat for hwlat) when it can run, else user\n"
		"      --trace [0|1]       a cause for every gap from the measured CPUs'\n"
		"                          tracepoints (IRQ, softirq, NMI, another thread, RT\n"
		"                          throttling, or unexplained, with the SMI count),\n"
		"                          live so far too; on by default as root when\n"
		"                          tracefs works; 0/off or --no-trace: off\n"
		"  -o, --output DIR        results folder (default rtmeasure-HOST-KERNEL-TIME)\n"
		"      --no-report         no report.html, report.md and plots at the end\n"
		"      --force             replace an earlier result in -o; allow --width = --window\n"
		"      --follow            -o and --json=FILE may be symbolic links\n"
		"  -q, --quiet             only the table at the end\n"
		"      --json[=FILE]       the summary as JSON on stdout (or into FILE)\n"
		"      --no-mlock          do not lock memory\n"
		"      --latency US        hold /dev/cpu_dma_latency at US (default 0)\n"
		"      --no-dma-latency    do not hold /dev/cpu_dma_latency\n"
		"      --exclusive         refuse CPUs another rtmeasure measures\n"
		"      --housekeeping CPUS the threads that do not measure run there\n"
		"      --prometheus [ADDR:]PORT  serve /metrics for Prometheus during the run\n"
		"                          (127.0.0.1 unless ADDR is given; port 0: any free)\n"
		"      --help              this help\n"
		"\nCtrl-C or SIGTERM saves what was measured. See rtmeasure-noise(1).\n", name);
}

static bool is_onoff(const char *s)
{
	return !strcmp(s, "0") || !strcmp(s, "1") || !strcasecmp(s, "on") ||
	       !strcasecmp(s, "off");
}

/*
 * --trace, --trace=0 or --trace 0 (as cyclic's --timer-irq: a following 0/1/on/off
 * is its value), --no-trace. 1 taken, or RTM_EXIT_USAGE.
 */
static int parse_trace_opt(struct rtm_session_opts *m, int c, int argc, char **argv)
{
	const char *arg = optarg;

	if (c == NOISE_OPT_NO_TRACE) {
		m->trace.noise_trace = 0;
		return 1;
	}
	if (!arg && optind < argc && is_onoff(argv[optind]))
		arg = argv[optind++];
	if (arg && !is_onoff(arg))
		return rtm_cli_fail("%s: --trace=%s: give 1/on or 0/off (alone: on)", m->command,
				    arg);
	m->trace.noise_trace = !arg || !strcmp(arg, "1") || !strcasecmp(arg, "on");
	return 1;
}

/* --window, --width, --threshold, --report-above, --max-gaps; 1 taken, 0 not ours. */
static int parse_noise_opt(struct rtm_session_opts *m, int c, int argc, char **argv)
{
	struct rtm_error err = { "" };
	const char *cmd = m->command;
	char *end;
	unsigned long long v;

	switch (c) {
	case NOISE_OPT_TRACE:
	case NOISE_OPT_NO_TRACE:
		return parse_trace_opt(m, c, argc, argv);
	case NOISE_OPT_WINDOW:
		if (rtm_parse_duration_ns(optarg, &m->noise.window_ns, &err))
			return rtm_cli_fail("%s: --window: %s", cmd, err.msg);
		return 1;
	case NOISE_OPT_WIDTH:
		if (rtm_parse_duration_ns(optarg, &m->noise.width_ns, &err))
			return rtm_cli_fail("%s: --width: %s", cmd, err.msg);
		return 1;
	case NOISE_OPT_THRESHOLD:
		if (rtm_parse_latency_ns(optarg, &m->noise.threshold_ns, &err))
			return rtm_cli_fail("%s: --threshold: %s", cmd, err.msg);
		return 1;
	case NOISE_OPT_REPORT:
		if (rtm_parse_latency_ns(optarg, &m->noise.report_above_ns, &err))
			return rtm_cli_fail("%s: --report-above: %s", cmd, err.msg);
		return 1;
	case NOISE_OPT_MAX_GAPS:
		v = strtoull(optarg, &end, 10);
		if (!*optarg || *end || *optarg == '-' || !v || v > 10000000)
			return rtm_cli_fail("%s: --max-gaps '%s': give 1 to 10000000", cmd, optarg);
		m->noise.max_gaps = (uint32_t)v;
		return 1;
	}
	return 0;
}

/* The duty cycle and the bounds, against each other; 0 or RTM_EXIT_USAGE. */
static int check_noise_opts(struct rtm_session_opts *m)
{
	const struct rtm_probe_noise_opts *o = &m->noise;
	char a[16], b[16];
	int64_t rt_run = -1, rt_per = -1;

	rtm_fmt_ns(a, sizeof(a), o->width_ns);
	rtm_fmt_ns(b, sizeof(b), o->window_ns);
	if (o->window_ns < 10000000ULL || o->window_ns > 3600000000000ULL)
		return rtm_cli_fail("%s: --window %s: give 10ms to 1h", m->command, b);
	if (o->width_ns < 1000000ULL)
		return rtm_cli_fail("%s: --width %s: give 1ms or more", m->command, a);
	if (o->width_ns > o->window_ns)
		return rtm_cli_fail("%s: --width %s is longer than --window %s: give a width up "
				    "to the window", m->command, a, b);
	if (o->threshold_ns < 100 || o->threshold_ns > 1000000000ULL)
		return rtm_cli_fail("%s: --threshold: give 100ns to 1s (the loop reads the "
				    "counter every few tens of ns)", m->command);
	if (o->report_above_ns < o->threshold_ns)
		return rtm_cli_fail("%s: --report-above is below --threshold: gaps shorter than "
				    "the threshold are not recorded; give at least the threshold",
				    m->command);
	if (m->probe.sched.policy != RTM_POLICY_FIFO && m->probe.sched.policy != RTM_POLICY_RR &&
	    m->probe.sched.policy != RTM_POLICY_OTHER)
		return rtm_cli_fail("%s: --policy %s: a busy loop runs at fifo, rr or other",
				    m->command, rtm_policy_name(m->probe.sched.policy));
	if (o->width_ns < o->window_ns)
		return 0;
	rtm_rt_throttling("/", &rt_run, &rt_per);
	if (!m->out.force)
		return rtm_cli_fail("%s: --width %s equals --window: the measured CPUs would have "
				    "no time for anything else, and RT throttling "
				    "(kernel.sched_rt_runtime_us %lld of sched_rt_period_us %lld) "
				    "would take its share from the loop; give a shorter --width, "
				    "or --force", m->command, a, (long long)rt_run,
				    (long long)rt_per);
	fprintf(stderr, "rtmeasure: warning: --width = --window: the measured CPUs run nothing "
		"else at this priority, and RT throttling (kernel.sched_rt_runtime_us %lld of "
		"sched_rt_period_us %lld) shows up as gaps of the period minus the runtime\n",
		(long long)rt_run, (long long)rt_per);
	return 0;
}

/*
 * Why the kernel tracer @name cannot run here, or NULL when it can: no
 * tracefs, no privileges, a kernel built without it. Written into @buf.
 */
static const char *tracer_missing(const char *name, char *buf, size_t len)
{
	struct rtm_error err = { "" };
	const char *dir = rtm_trace_find_tracefs(&err);

	if (!dir)
		snprintf(buf, len, "%s", err.msg);
	else if (geteuid() != 0 && access(dir, W_OK) != 0)
		snprintf(buf, len, "the %s tracer needs root (or write access to %s)", name, dir);
	else if (!rtm_ktracer_has(dir, name))
		snprintf(buf, len, "this kernel has no %s tracer (CONFIG_%s_TRACER)", name,
			 strcmp(name, "osnoise") ? "HWLAT" : "OSNOISE");
	else
		return NULL;
	return buf;
}

/*
 * --backend: the probe to run and the reason the summary gives for it. auto
 * takes the kernel's counterpart of the command when it can run (osnoise for
 * noise, hwlat for hwlat), else the busy loop. 0 or RTM_EXIT_USAGE.
 */
static int pick_backend(struct rtm_session_opts *m, const char *cmd, const char *backend,
			bool rt_given)
{
	char *reason = m->backend_why;	/* read by the probe until the run ends */
	const size_t len = sizeof(m->backend_why);
	const char *tracer = backend;
	char why[200];

	if (!strcmp(backend, "user")) {
		m->noise.backend_reason = "asked for with --backend user";
		return 0;
	}
	if (!strcmp(backend, "auto"))
		tracer = strcmp(cmd, "hwlat") ? "osnoise" : "hwlat";
	else if (strcmp(backend, "hwlat") && strcmp(backend, "osnoise"))
		return rtm_cli_fail("%s: --backend '%s': give auto, user, hwlat or osnoise", cmd,
				    backend);
	/*
	 * The tracer's threads sample: nothing of ours runs at a priority, nothing
	 * live, and no gap of ours to give a cause (--trace; osnoise counts causes).
	 */
	if (strcmp(backend, "auto") && m->trace.noise_trace == 1)
		return rtm_cli_fail("%s: --backend %s: --trace gives the busy loop's gaps their "
				    "causes (the %s tracer samples in kernel threads); use "
				    "--backend user, or drop --trace", cmd, backend, backend);
	if (strcmp(backend, "auto") && (rt_given || m->prometheus))
		return rtm_cli_fail("%s: --backend %s: %s apply to the busy loop only (the %s "
				    "tracer samples in kernel threads); use --backend user", cmd,
				    backend, m->prometheus ? "--prometheus and the priority "
				    "options" : "--priority, --policy and --no-rt", backend);
	if (tracer_missing(tracer, why, sizeof(why))) {
		if (strcmp(backend, "auto"))
			return rtm_cli_fail("%s: --backend %s: %s; use --backend user", cmd,
					    backend, why);
		snprintf(reason, len, "chosen by --backend auto: %s", why);
		m->noise.backend_reason = reason;
		return 0;
	}
	if (rt_given || m->prometheus || m->trace.noise_trace == 1) {
		snprintf(reason, len, "chosen by --backend auto: %s asked for, which "
			 "the %s tracer does not have", m->prometheus ? "--prometheus" :
			 m->trace.noise_trace == 1 ? "--trace (a cause for each gap)" :
			 "a priority or policy", tracer);
		m->noise.backend_reason = reason;
		return 0;
	}
	m->ops = strcmp(tracer, "hwlat") ? &rtm_probe_osnoise_ops : &rtm_probe_hwlat_ops;
	if (strcmp(backend, "auto"))
		snprintf(reason, len, "asked for with --backend %s", tracer);
	else
		snprintf(reason, len, "chosen by --backend auto: the kernel has the %s "
			 "tracer", tracer);
	m->noise.backend_reason = reason;
	return 0;
}

static const struct option noise_longopts[] = {
	{ "cpus", required_argument, NULL, 'a' },
	{ "priority", required_argument, NULL, 'p' },
	{ "policy", required_argument, NULL, 1001 },
	{ "no-rt", no_argument, NULL, 1007 },
	{ "duration", required_argument, NULL, 'D' },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, MEASURE_OPT_FORCE },
	{ "follow", no_argument, NULL, MEASURE_OPT_FOLLOW },
	{ "quiet", no_argument, NULL, 'q' },
	{ "json", optional_argument, NULL, MEASURE_OPT_JSON },
	{ "no-mlock", no_argument, NULL, 1005 },
	{ "latency", required_argument, NULL, 'e' },
	{ "no-dma-latency", no_argument, NULL, 1006 },
	{ "exclusive", no_argument, NULL, 1024 },
	{ "housekeeping", required_argument, NULL, 1021 },
	{ "prometheus", required_argument, NULL, 1023 },
	{ "window", required_argument, NULL, NOISE_OPT_WINDOW },
	{ "width", required_argument, NULL, NOISE_OPT_WIDTH },
	{ "threshold", required_argument, NULL, NOISE_OPT_THRESHOLD },
	{ "report-above", required_argument, NULL, NOISE_OPT_REPORT },
	{ "max-gaps", required_argument, NULL, NOISE_OPT_MAX_GAPS },
	{ "backend", required_argument, NULL, NOISE_OPT_BACKEND },
	{ "trace", optional_argument, NULL, NOISE_OPT_TRACE },
	{ "no-trace", no_argument, NULL, NOISE_OPT_NO_TRACE },
	{ "no-report", no_argument, NULL, NOISE_OPT_NO_REPORT },
	{ "help", no_argument, NULL, 2000 },
	{ NULL, 0, NULL, 0 },
};

/* What the options say besides the session's: the name, the backend, what was given. */
struct noise_args {
	const char *name;		/* "noise" or "hwlat" */
	const char *backend;
	bool report_given, rt_given;
};

/* The options into @m and @a: -1 to go on, else the exit status (help, a bad option). */
static int noise_parse(struct rtm_session_opts *m, struct noise_args *a, int argc, char **argv)
{
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "a:p:D:o:qe:", noise_longopts, NULL)) != -1) {
		if (c == 2000) {
			noise_usage(stdout, a->name);
			return RTM_EXIT_OK;
		}
		a->report_given |= c == NOISE_OPT_REPORT;
		a->rt_given |= c == 'p' || c == 1001 || c == 1007;
		if (c == NOISE_OPT_BACKEND) {
			a->backend = optarg;
			continue;
		}
		if (c == NOISE_OPT_NO_REPORT) {
			m->out.report = false;
			continue;
		}
		ret = parse_noise_opt(m, c, argc, argv);
		if (!ret && c != '?' && c != ':')
			ret = measure_parse_opt(m, c, argc, argv);
		if (ret == 1)
			continue;
		if (ret)
			return ret;
		return rtm_cli_bad_option(a->name, "a:p:D:o:qe:", noise_longopts, argv);
	}
	if (optind < argc)
		return rtm_cli_fail("%s: unexpected argument '%s' (rtmeasure %s --help)", a->name,
				    argv[optind], a->name);
	return -1;
}

int cmd_noise(int argc, char **argv, const struct rtm_cli *cli)
{
	const struct rtm_session_ops ops = { .serve = rtm_promlive_serve,
					     .publish = rtm_promlive_publish,
					     .unserve = rtm_promlive_unserve,
					     .report = rtm_runreport_write,
					     .summary = rtm_runreport_summary };
	struct noise_args a = { .name = argv[0], .backend = "auto" };
	struct rtm_session_opts m;
	int ret;

	rtm_session_opts_init(&m, "noise");	/* result.json says noise for hwlat too */
	m.outf = stdout;
	m.errf = stderr;
	m.stop = cli->stop;
	m.ops = &rtm_probe_noise_ops;
	rtm_session_noise_init(&m);	/* the noise probe's defaults; --trace on as root */
	m.out.report = true;	/* report.html of the gaps at the end, as run */
	ret = noise_parse(&m, &a, argc, argv);
	if (ret >= 0) {
		rtm_session_opts_release(&m);
		return ret;
	}
	if (!a.report_given && m.noise.report_above_ns < m.noise.threshold_ns)
		m.noise.report_above_ns = m.noise.threshold_ns;
	/* the gap causes by default only where they can work: root (tracefs) */
	if (m.trace.noise_trace < 0 && geteuid() != 0)
		m.trace.noise_trace = 0;
	ret = check_noise_opts(&m);
	if (!ret)
		ret = pick_backend(&m, a.name, a.backend, a.rt_given);
	if (!ret)
		ret = rtm_session_run(&m, &ops);
	rtm_session_opts_release(&m);
	return ret;
}
