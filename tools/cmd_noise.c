// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_noise.c - rtmeasure noise (alias hwlat): the userspace noise / hardware
 * latency detector (lib/probe/probe_noise.c), driven by the shared runner.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/hwlat_opts.h"
#include "cli/measure_opts.h"
#include "cli/opts.h"
#include "core/units.h"
#include "present/hwlat_print.h"
#include "present/promlive.h"
#include "present/runreport.h"
#include "core/fileio.h"
#include "probe/ktracer.h"
#include "probe/probe_noise.h"
#include "rtmeasure.h"
#include "session/session.h"
#include "tracefs/instance.h"

/* The keys of noise's own options (the others are the shared ones of cli/measure_opts.h). */
enum {
	NOISE_OPT_WINDOW = MEASURE_OPT_KEY_END,
	NOISE_OPT_WIDTH,
	NOISE_OPT_THRESHOLD,
	NOISE_OPT_REPORT,
	NOISE_OPT_MAX_GAPS,
	NOISE_OPT_BACKEND,
	NOISE_OPT_TRACE,
	NOISE_OPT_NO_TRACE,
	NOISE_OPT_NO_REPORT,
};

/*
 * Its own table in the order getopt_long() has always seen it (ambiguity
 * messages list candidates in that order), with help lines of its own: a busy
 * loop takes fewer policies and no period. The groups are the shared ones.
 */
static const struct rtm_opt noise_opts[] = {
	{ "cpus", 'a', required_argument, "LIST", MEASURE_G_CPUS,
	  "CPUs to measure, one thread each (default: every CPU)" },
	{ "priority", 'p', required_argument, "N", MEASURE_G_SCHED,
	  "RT priority of the threads (default 95)" },
	{ "policy", MEASURE_OPT_POLICY, required_argument, "P", MEASURE_G_SCHED,
	  "fifo (default), rr or other" },
	{ "no-rt", MEASURE_OPT_NO_RT, no_argument, NULL, MEASURE_G_SCHED,
	  "run at SCHED_OTHER (no privileges needed)" },
	{ "duration", 'D', required_argument, "DUR", MEASURE_G_DURATION,
	  "measuring time, e.g. 30s, 5m (default: until stopped)" },
	{ "output", 'o', required_argument, "DIR", MEASURE_G_RESULTS,
	  "results folder (default rtmeasure-HOST-KERNEL-TIME)" },
	{ "force", MEASURE_OPT_FORCE, no_argument, NULL, MEASURE_G_RESULTS,
	  "replace an earlier result in -o; allow --width = --window" },
	{ "follow", MEASURE_OPT_FOLLOW, no_argument, NULL, MEASURE_G_RESULTS,
	  "-o and --json=FILE may be symbolic links" },
	{ "fallback-dir", MEASURE_OPT_FALLBACK_DIR, required_argument, "DIR", MEASURE_G_RESULTS,
	  MEASURE_HELP_FALLBACK },
	{ "quiet", 'q', no_argument, NULL, MEASURE_G_RESULTS, "only the table at the end" },
	{ "verbose", 'v', no_argument, NULL, MEASURE_G_RESULTS,
	  "the summary in full: the 10 longest gaps per CPU with their time and cause, the "
	  "top 3 causes (default: the 3 longest on one line, the top cause)" },
	{ "json", MEASURE_OPT_JSON, optional_argument, "FILE", MEASURE_G_RESULTS,
	  "the summary as JSON on stdout (or into FILE)" },
	{ "no-mlock", MEASURE_OPT_NO_MLOCK, no_argument, NULL, MEASURE_G_POWER,
	  "do not lock memory" },
	{ "latency", 'e', required_argument, "US", MEASURE_G_POWER,
	  "hold /dev/cpu_dma_latency at US (default 0)" },
	{ "no-dma-latency", MEASURE_OPT_NO_DMA_LATENCY, no_argument, NULL, MEASURE_G_POWER,
	  "do not hold /dev/cpu_dma_latency" },
	{ "exclusive", MEASURE_OPT_EXCLUSIVE, no_argument, NULL, MEASURE_G_CPUS,
	  "refuse CPUs another rtmeasure measures" },
	{ "housekeeping", MEASURE_OPT_HOUSEKEEPING, required_argument, "CPUS", MEASURE_G_CPUS,
	  "the threads that do not measure run there" },
	{ "prometheus", MEASURE_OPT_PROMETHEUS, required_argument, "[ADDR:]PORT",
	  MEASURE_G_SERIES, "serve /metrics for Prometheus during the run (127.0.0.1 unless "
	  "ADDR is given; port 0: any free)" },
	{ "report-above", NOISE_OPT_REPORT, required_argument, "LAT", MEASURE_G_OWN,
	  "list the gaps longer than this (default 20us)" },
	{ "max-gaps", NOISE_OPT_MAX_GAPS, required_argument, "N", MEASURE_G_OWN,
	  "gaps kept per CPU with time and length (default 200000)" },
	{ "backend", NOISE_OPT_BACKEND, required_argument, "B", MEASURE_G_OWN,
	  "user (this busy loop, any kernel), hwlat (the kernel's hwlat tracer: the largest "
	  "gap of each window per CPU), osnoise (the kernel's osnoise tracer: noise by "
	  "cause) or auto (default): the kernel's tracer (osnoise for noise, hwlat for "
	  "hwlat) when it can run, else user" },
	{ "trace", NOISE_OPT_TRACE, optional_argument, "[0|1]", MEASURE_G_OWN,
	  "a cause for every gap from the measured CPUs' tracepoints (IRQ, softirq, NMI, "
	  "another thread, RT throttling, or unexplained, with the SMI count), live so far "
	  "too; on by default as root when tracefs works; 0/off or --no-trace: off" },
	{ "no-trace", NOISE_OPT_NO_TRACE, no_argument, NULL, MEASURE_G_OWN,
	  "the same as --trace 0" },
	{ "no-report", NOISE_OPT_NO_REPORT, no_argument, NULL, MEASURE_G_RESULTS,
	  "no report.html, report.md and plots at the end" },
	RTM_OPT_HELP_ROWS(MEASURE_G_HELP),
	RTM_OPT_END,
};

/* noise's duty cycle and threshold; hwlat has hwlatdetect's (cli/hwlat_opts.h) instead */
static const struct rtm_opt noise_duty_opts[] = {
	{ "window", NOISE_OPT_WINDOW, required_argument, "DUR", MEASURE_G_OWN,
	  "duty cycle period (default 1s)" },
	{ "width", NOISE_OPT_WIDTH, required_argument, "DUR", MEASURE_G_OWN,
	  "busy part of each window (default 500ms); equal to --window only with --force" },
	{ "threshold", NOISE_OPT_THRESHOLD, required_argument, "LAT", MEASURE_G_OWN,
	  "a gap is longer than this (default 1us)" },
	RTM_OPT_END,
};

static const struct rtm_opt_group noise_groups[] = {
	[MEASURE_G_OWN] = { NULL, true },
	[MEASURE_G_CPUS] = { "CPUs and threads", true },
	[MEASURE_G_SCHED] = { "Scheduling", true },
	[MEASURE_G_DURATION] = { "Duration", true },
	[MEASURE_G_RESULTS] = { "Results", true },
	[MEASURE_G_HELP] = { NULL, true },
	[MEASURE_G_POWER] = { "Memory and power management", false },
	[MEASURE_G_SERIES] = { "Prometheus", false },
};

#define NOISE_USAGE(name)							\
	"usage: rtmeasure " name " [options]\n\n"				\
	"Time stolen from a CPU that no scheduler can give back: one thread per CPU,\n" \
	"pinned and real-time, reads the cycle counter (TSC) in a busy loop for\n"	\
	"--width of every --window and records every gap between two reads longer\n"	\
	"than --threshold (an interrupt, another task, the hypervisor, firmware).\n"	\
	"Prints per CPU the noise, % CPU available, the largest gap and the loop's\n"	\
	"own sample period, like rtla osnoise top; writes result.json (sections.noise:\n" \
	"gap histogram, every gap with its time).\n"

/* hwlat measured by the busy loop: what its gaps hold that hwlat's would not */
#define HWLAT_USER_LINE								\
	"the userspace busy loop measures, not the kernel's hwlat tracer: it runs with "	\
	"interrupts enabled, so its gaps include interrupt (IRQ) time, which hwlat's "	\
	"kernel thread (interrupts off) does not see"

#define NOISE_EPILOG "\nCtrl-C or SIGTERM saves what was measured. See rtmeasure-noise(1).\n"

/* The same options under both names, but hwlat takes hwlatdetect's own with its units. */
static const struct rtm_cmd_opts noise_cmd = {
	.command = "noise",
	.usage = NOISE_USAGE("noise"),
	.groups = noise_groups,
	.ngroups = sizeof(noise_groups) / sizeof(noise_groups[0]),
	.tables = { noise_opts, noise_duty_opts },
	.epilog = NOISE_EPILOG,
};

static const struct rtm_cmd_opts hwlat_cmd = {
	.command = "hwlat",
	.usage = NOISE_USAGE("hwlat")
		 "hwlatdetect's options are taken with its units and defaults (threshold\n"
		 "10 us, 120 s) and its summary is printed first; see rtmeasure-noise(1),\n"
		 "COMPATIBILITY.\n",
	.groups = noise_groups,
	.ngroups = sizeof(noise_groups) / sizeof(noise_groups[0]),
	.tables = { noise_opts, hwlat_opts },
	.epilog = NOISE_EPILOG,
};

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

/* The duty cycle, the bounds and the policy, against each other; 0 or RTM_EXIT_USAGE. */
static int check_noise_opts(struct rtm_session_opts *m)
{
	struct rtm_probe_noise_opts o = m->noise;	/* the policy the session gives it */
	unsigned int f;
	char a[16], b[16];
	int64_t rt_run = -1, rt_per = -1;

	o.sched = m->probe.sched;
	f = rtm_noise_opts_faults(&o);
	rtm_fmt_ns(a, sizeof(a), o.width_ns);
	rtm_fmt_ns(b, sizeof(b), o.window_ns);
	if (f & RTM_NOISE_BAD_WINDOW)
		return rtm_cli_fail("%s: --window %s: give 10ms to 1h", m->command, b);
	if (f & RTM_NOISE_BAD_WIDTH)
		return rtm_cli_fail("%s: --width %s: give 1ms or more", m->command, a);
	if (f & RTM_NOISE_WIDTH_OVER)
		return rtm_cli_fail("%s: --width %s is longer than --window %s: give a width up "
				    "to the window", m->command, a, b);
	if (f & RTM_NOISE_BAD_THRESHOLD)
		return rtm_cli_fail("%s: --threshold: give 100ns to 1s (the loop reads the "
				    "counter every few tens of ns)", m->command);
	if (f & RTM_NOISE_BAD_REPORT)
		return rtm_cli_fail("%s: --report-above is below --threshold: gaps shorter than "
				    "the threshold are not recorded; give at least the threshold",
				    m->command);
	if (f & RTM_NOISE_BAD_POLICY)
		return rtm_cli_fail("%s: --policy %s: a busy loop runs at fifo, rr or other",
				    m->command, rtm_policy_name(o.sched.policy));
	if (!(f & RTM_NOISE_WIDTH_FULL))
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

/* What the options say besides the session's: the name, the backend, what was given. */
struct noise_args {
	const char *name;		/* "noise" or "hwlat" */
	const char *backend;
	bool report_given, rt_given;
	struct rtm_hwlat_opts hw;	/* hwlat: hwlatdetect's options */
};

/* The options into @m and @a: -1 to go on, else the exit status (help, a bad option). */
static int noise_parse(struct rtm_session_opts *m, struct noise_args *a, int argc, char **argv)
{
	const struct rtm_cmd_opts *cmd = strcmp(a->name, "hwlat") ? &noise_cmd : &hwlat_cmd;
	struct rtm_getopt g;
	int c, ret;

	if (rtm_opts_getopt(cmd, &g))
		return rtm_cli_fail("%s: bad option table", a->name);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c == RTM_OPT_HELP || c == RTM_OPT_HELP_ALL) {
			rtm_opts_help(cmd, stdout, c == RTM_OPT_HELP_ALL);
			return RTM_EXIT_OK;
		}
		a->report_given |= c == NOISE_OPT_REPORT;
		a->rt_given |= c == 'p' || c == MEASURE_OPT_POLICY || c == MEASURE_OPT_NO_RT;
		if (c == NOISE_OPT_BACKEND) {
			a->backend = optarg;
			continue;
		}
		if (c == 'v') {
			m->out.verbose = true;
			continue;
		}
		if (c == NOISE_OPT_NO_REPORT) {
			m->out.report = false;
			continue;
		}
		ret = cmd == &hwlat_cmd ? hwlat_parse_opt(m, &a->hw, c, optarg) : 0;
		if (!ret)
			ret = parse_noise_opt(m, c, argc, argv);
		if (!ret && c != '?' && c != ':')
			ret = measure_parse_opt(m, c, argc, argv);
		if (ret == 1)
			continue;
		if (ret)
			return ret;
		return rtm_cli_bad_option(a->name, g.shortopts, g.longopts, argv);
	}
	if (optind < argc)
		return rtm_cli_fail("%s: unexpected argument '%s' (rtmeasure %s --help)", a->name,
				    argv[optind], a->name);
	return -1;
}

/*
 * hwlat: the session's options with what hwlatdetect's options ask for, so the
 * session's hooks (which get the options back) find them.
 */
struct hwlat_run {
	struct rtm_session_opts m;	/* first: the hooks' options are &m */
	const struct rtm_hwlat_opts *hw;
	uint64_t *max_ns;		/* the largest sample, for --hardlimit */
	bool *report_failed;
	struct rtm_hwlat_watch *watch;	/* --watch: the samples printed (the command's) */
};

/* The server of --prometheus and --watch's printer, one state while the probe runs. */
struct hwlat_live {
	void *prom;
	struct rtm_hwlat_watch *watch;	/* not owned: the summary prints the rest */
	FILE *f;
};

static const struct hwlat_run *hwlat_of(const struct rtm_session_opts *o)
{
	return (const struct hwlat_run *)((const char *)o - offsetof(struct hwlat_run, m));
}

static int hwlat_serve(const struct rtm_session_opts *o, const json_t *sysinfo, void **state,
		       struct rtm_error *err)
{
	struct hwlat_live *l = calloc(1, sizeof(*l));

	*state = NULL;
	if (!l)
		return rtm_error_set(err, "out of memory");
	l->f = o->outf;
	l->watch = hwlat_of(o)->watch;
	if (rtm_promlive_serve(o, sysinfo, &l->prom, err)) {
		free(l);
		return -1;
	}
	*state = l;
	return 0;
}

static void hwlat_publish(void *state, const struct rtm_session_live *live)
{
	struct hwlat_live *l = state;

	if (l->prom)
		rtm_promlive_publish(l->prom, live);
	rtm_hwlat_watch_fprint(l->watch, live, l->f);
}

static void hwlat_unserve(void *state)
{
	struct hwlat_live *l = state;

	if (l->prom)
		rtm_promlive_unserve(l->prom);
	free(l);
}

/*
 * --report FILE: the samples as hwlatdetect writes them, and its line about it.
 * Written whole through core/fileio (never through a link planted at FILE).
 */
static void hwlat_report(const struct hwlat_run *h, const json_t *noise, FILE *f)
{
	struct rtm_error err = { "" };
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	uint64_t n = 0;
	int ret = mem ? rtm_hwlat_report_fprint(noise, mem, &n, &err) : -ENOMEM;

	if (mem && fclose(mem) && !ret)
		ret = -ENOMEM;
	if (!ret)
		ret = rtm_write_target(h->hw->report, buf, len,
				       h->m.out.follow ? RTM_OUT_FOLLOW : 0);
	free(buf);
	if (ret) {
		fprintf(h->m.errf, "rtmeasure: hwlat: --report %s: %s\n", h->hw->report,
			err.msg[0] ? err.msg : rtm_write_strerror(ret));
		*h->report_failed = true;
		return;
	}
	fprintf(f, "report saved to %s (%" PRIu64 " samples)\n", h->hw->report, n);
}

/* hwlatdetect's summary first, then rtmeasure's own. */
static void hwlat_summary(const struct rtm_session_opts *o, const struct rtm_result *r, FILE *f)
{
	const struct hwlat_run *h = hwlat_of(o);
	const json_t *noise = json_object_get(r->sections, "noise");

	if (noise) {
		const char *backend = json_string_value(json_object_get(noise, "backend"));

		rtm_hwlat_watch_rest(h->watch, noise, f);	/* --watch: after its last look */
		if (backend && !strcmp(backend, "user"))
			fprintf(f, "hwlat: %s\n", HWLAT_USER_LINE);
		*h->max_ns = rtm_hwlat_summary_fprint(noise, f);
		if (h->hw->report)
			hwlat_report(h, noise, f);
		fputc('\n', f);
	}
	rtm_runreport_summary(o, r, f);
}

/*
 * hwlat after its options: hwlatdetect's window/width rules, what the kernel
 * tracer cannot give, the first line when the busy loop measures instead.
 */
static int hwlat_prepare(struct rtm_session_opts *m, struct noise_args *a)
{
	if (m->ops != &rtm_probe_noise_ops && (a->hw.report || a->hw.watch))
		return rtm_cli_fail("hwlat: %s with the kernel's hwlat tracer: rtmeasure keeps "
				    "only the larger of each sample's inner and outer, read at "
				    "the end; use --backend user (or result.json's gap list)",
				    a->hw.report ? "--report" : "--watch");
	if (m->ops == &rtm_probe_noise_ops)
		fprintf(m->errf, "rtmeasure hwlat: %s\n", HWLAT_USER_LINE);
	return 0;
}

int cmd_noise(int argc, char **argv, const struct rtm_cli *cli)
{
	struct rtm_session_ops ops = { .serve = rtm_promlive_serve,
				       .publish = rtm_promlive_publish,
				       .unserve = rtm_promlive_unserve,
				       .report = rtm_runreport_write,
				       .summary = rtm_runreport_summary };
	struct noise_args a = { .name = argv[0], .backend = "auto" };
	bool hwlat = !strcmp(argv[0], "hwlat"), report_failed = false;
	uint64_t max_ns = 0;
	struct hwlat_run h = { .hw = &a.hw, .max_ns = &max_ns, .report_failed = &report_failed };
	struct rtm_session_opts *m = &h.m;
	int ret;

	rtm_session_opts_init(m, "noise");	/* result.json says noise for hwlat too */
	m->outf = stdout;
	m->errf = stderr;
	m->stop = cli->stop;
	m->ops = &rtm_probe_noise_ops;
	rtm_session_noise_init(m);	/* the noise probe's defaults; --trace on as root */
	if (hwlat)
		hwlat_defaults(m);	/* hwlatdetect's: 10 us, 120 s */
	m->out.report = true;	/* report.html of the gaps at the end, as run */
	ret = noise_parse(m, &a, argc, argv);
	if (ret >= 0) {
		rtm_session_opts_release(m);
		return ret;
	}
	/* --report FILE checked before measuring: a typo never costs the run */
	if (hwlat && a.hw.report && (ret = rtm_target_check(a.hw.report, m->out.follow ?
							      RTM_OUT_FOLLOW : 0)) < 0) {
		rtm_session_opts_release(m);
		return rtm_cli_fail("hwlat: --report %s: cannot write it: %s", a.hw.report,
				    rtm_write_strerror(ret));
	}
	/* hwlatdetect's summary, report and exit status are not in --json's */
	if (hwlat && m->out.json && (a.hw.report || a.hw.watch || a.hw.hardlimit_ns)) {
		rtm_session_opts_release(m);
		return rtm_cli_fail("hwlat: --json prints rtmeasure's summary as JSON; %s goes "
				    "with hwlatdetect's summary: drop one of them", a.hw.report ?
				    "--report" : a.hw.watch ? "--watch" : "--hardlimit");
	}
	if (hwlat)
		hwlat_settle(m, &a.hw, m->errf);
	if (!a.report_given && m->noise.report_above_ns < m->noise.threshold_ns)
		m->noise.report_above_ns = m->noise.threshold_ns;
	/* the gap causes by default only where they can work: root (tracefs) */
	if (m->trace.noise_trace < 0 && geteuid() != 0)
		m->trace.noise_trace = 0;
	ret = check_noise_opts(m);
	if (!ret)
		ret = pick_backend(m, a.name, a.backend, a.rt_given);
	if (!ret && hwlat) {
		ret = hwlat_prepare(m, &a);
		if (!ret && a.hw.watch && !(h.watch = rtm_hwlat_watch_alloc()))
			ret = rtm_cli_fail("hwlat: out of memory");
		ops = (struct rtm_session_ops){ .serve = hwlat_serve, .publish = hwlat_publish,
						.unserve = hwlat_unserve,
						.report = rtm_runreport_write,
						.summary = hwlat_summary };
	}
	if (!ret)
		ret = rtm_session_run(m, &ops);
	rtm_session_opts_release(m);
	rtm_hwlat_watch_free(h.watch);
	if (!ret && report_failed)
		return RTM_EXIT_USAGE;
	/* hwlatdetect's exit status: 1 when the largest sample is above the hardlimit */
	if (!ret && hwlat && max_ns > a.hw.hardlimit_ns) {
		fprintf(stderr, "rtmeasure hwlat: Max Latency %" PRIu64 "us is above --hardlimit "
			"%" PRIu64 "us: exit status 1, as hwlatdetect\n", (max_ns + 500) / 1000,
			(a.hw.hardlimit_ns + 500) / 1000);
		return RTM_EXIT_BOUND;
	}
	return ret;
}
