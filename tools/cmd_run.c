// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_run.c - rtmeasure run: the main job. sysinfo, the timer probe on every
 * CPU for --duration under an optional stress-ng load, the results folder and
 * the summary.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "box/cost.h"
#include "box/load.h"
#include "cli/cli.h"
#include "cli/io_opts.h"
#include "cli/measure_opts.h"
#include "cli/opts.h"
#include "core/units.h"
#include "present/cost_report.h"
#include "present/promlive.h"
#include "present/runreport.h"
#include "rtmeasure.h"
#include "session/session.h"

#define RUN_DEFAULT_DURATION_NS (60ULL * 1000000000ULL)

/* The keys of run's own options. */
enum {
	RUN_OPT_LOAD = MEASURE_OPT_KEY_END,
	RUN_OPT_NO_REPORT,
	RUN_OPT_THROUGHPUT,
	RUN_OPT_THROUGHPUT_TIME,
	RUN_OPT_THROUGHPUT_REPS,
	RUN_OPT_IO,
	RUN_OPT_IO_TARGET,
	RUN_OPT_IO_FILE_SIZE,
	RUN_OPT_IO_OP,
	RUN_OPT_IO_SIZE,
	RUN_OPT_IO_INTERVAL,
	RUN_OPT_IO_DEADLINE,
	RUN_OPT_IO_IOPRIO,
	RUN_OPT_IO_CPU,
	RUN_OPT_IO_FORCE_DEVICE,
	RUN_OPT_IO_ALLOW_WRITES,
};

/* run's groups after the shared ones: the details of the phases after the latency phase. */
enum { RUN_G_THROUGHPUT = MEASURE_G_END, RUN_G_NOISE, RUN_G_IO };

static const struct rtm_opt run_opts[] = {
	{ "load", RUN_OPT_LOAD, required_argument, "KINDS", MEASURE_G_OWN,
	  "cpu, io, vm, net or all, comma separated; the generators' command lines go into "
	  "result.json" },
	{ "no-report", RUN_OPT_NO_REPORT, no_argument, NULL, MEASURE_G_OWN,
	  "no report.html and plots at the end" },
	{ "throughput", RUN_OPT_THROUGHPUT, optional_argument, "LIST", MEASURE_G_OWN,
	  "after the latency phase, the cost phase: stress-ng stressors (cpu, switch, sock; "
	  "default all) one after another on the measured CPUs, their bogo-ops/s into "
	  "result.json (compare shows them beside latency)" },
	{ "throughput-time", RUN_OPT_THROUGHPUT_TIME, required_argument, "D", RUN_G_THROUGHPUT,
	  "each stressor's time, whole seconds (default 10s)" },
	{ "throughput-reps", RUN_OPT_THROUGHPUT_REPS, required_argument, "N", RUN_G_THROUGHPUT,
	  "run the stressors N times (default 1)" },
	{ "noise", MEASURE_OPT_NOISE, optional_argument, "DUR", MEASURE_G_OWN,
	  "after the latency phase, the noise phase: the busy-loop detector of rtmeasure "
	  "noise on the same CPUs, under the same load, for DUR (default a quarter of "
	  "--duration); never beside the timer probe (sections.noise)" },
	{ "noise-window", MEASURE_OPT_NOISE_WINDOW, required_argument, "DUR", RUN_G_NOISE,
	  "its duty cycle period (default 1s)" },
	{ "noise-width", MEASURE_OPT_NOISE_WIDTH, required_argument, "DUR", RUN_G_NOISE,
	  "its busy part of each window (default 500ms)" },
	{ "noise-threshold", MEASURE_OPT_NOISE_THRESHOLD, required_argument, "LAT", RUN_G_NOISE,
	  "a gap is longer than this (default 1us)" },
	{ "noise-trace", MEASURE_OPT_NOISE_TRACE, optional_argument, "[0|1]", RUN_G_NOISE,
	  "a cause for every gap from tracepoints (default: on as root when tracefs works)" },
	{ "io", RUN_OPT_IO, no_argument, NULL, MEASURE_G_OWN,
	  "beside the timer probe, for the same time, the storage probe of rtmeasure io on a "
	  "CPU the timer probe does not measure (sections.io; with --load io, its writer on "
	  "the same file system)" },
	{ "io-target", RUN_OPT_IO_TARGET, required_argument, "PATH", RUN_G_IO,
	  "a folder (a file is created there and removed after), an existing file or, "
	  "with --io-force-device, a block device (default: a file in the results folder)" },
	{ "io-file-size", RUN_OPT_IO_FILE_SIZE, required_argument, "BYTES", RUN_G_IO,
	  "size of a created file (default 64m)" },
	{ "io-op", RUN_OPT_IO_OP, required_argument, "LIST", RUN_G_IO,
	  "operations issued in turn: read, write, randread, randwrite, fsync (default "
	  "randread)" },
	{ "io-size", RUN_OPT_IO_SIZE, required_argument, "BYTES", RUN_G_IO,
	  "bytes a request (default 4k)" },
	{ "io-interval", RUN_OPT_IO_INTERVAL, required_argument, "LAT", RUN_G_IO,
	  "time between planned requests (default 10ms)" },
	{ "io-deadline", RUN_OPT_IO_DEADLINE, required_argument, "LAT", RUN_G_IO,
	  "a request later than this is a miss (default: none); with --trace, a cause for "
	  "each" },
	{ "io-ioprio", RUN_OPT_IO_IOPRIO, required_argument, "CLASS", RUN_G_IO,
	  "I/O priority of its thread: rt:N, be:N or idle" },
	{ "io-cpu", RUN_OPT_IO_CPU, required_argument, "CPU", RUN_G_IO,
	  "its thread's CPU (default: the last one the timer probe does not measure)" },
	{ "io-force-device", RUN_OPT_IO_FORCE_DEVICE, no_argument, NULL, RUN_G_IO,
	  "measure the block device given as --io-target (reads only, unless "
	  "--io-allow-writes)" },
	{ "io-allow-writes", RUN_OPT_IO_ALLOW_WRITES, no_argument, NULL, RUN_G_IO,
	  "let write operations overwrite an existing --io-target file or device" },
	RTM_OPT_HELP_ROWS(MEASURE_G_HELP),
	RTM_OPT_END,
};

static const struct rtm_opt_group run_groups[] = {
	[MEASURE_G_OWN] = { NULL, true },
	MEASURE_GROUPS,
	[RUN_G_THROUGHPUT] = { "Throughput phase (--throughput)", false },
	[RUN_G_NOISE] = { "Noise phase (--noise)", false },
	[RUN_G_IO] = { "Storage probe beside the timer probe (--io)", false },
};

static const struct rtm_cmd_opts run_cmd = {
	.command = "run",
	.usage = "usage: rtmeasure run [--duration 60s] [--load cpu|io|vm|net|all] [options]\n\n"
		"The main job: checks the box (rtmeasure sysinfo), measures timer wake-up\n"
		"latency on every CPU for the duration (default 60s), optionally under a\n"
		"background load generated by stress-ng (and hackbench) as rteval does, writes\n"
		"the results folder with its report (report.html, plots by gnuplot) and prints\n"
		"the summary.\n",
	.groups = run_groups,
	.ngroups = sizeof(run_groups) / sizeof(run_groups[0]),
	.tables = { measure_opts_probe, measure_opts_results, measure_opts_system,
		    measure_opts_trace, measure_opts_refused, run_opts },
	.epilog = MEASURE_EPILOG,
};

/* ---- --throughput: the cost phase (lib/box/cost.c), after the latency phase */

struct run_cost {
	struct rtm_cost_opts o;
	char cpus[1024];
};

/* The session's throughput hook: the cost phase's section into @r; -1 after a warning. */
static int run_throughput(void *ctx, const struct rtm_session_opts *m, struct rtm_result *r)
{
	struct run_cost *rc = ctx;
	struct rtm_error err = { "" };
	char names[64] = "";
	json_t *sec;
	int s;

	rtm_cpulist_format(&m->probe.cpus, rc->cpus, sizeof(rc->cpus));
	rc->o.cpus = rc->cpus;
	rc->o.workers = m->probe.cpus.n;
	for (s = 0; s < RTM_COST_NSTRESSORS; s++)
		if (rc->o.stressors & (1u << s))
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", rtm_cost_stressor_names[s]);
	if (!m->out.quiet && !m->out.json)
		fprintf(stderr, "rtmeasure run: throughput phase: stress-ng %s, %llu s each%s, "
			"%d workers on CPUs %s\n", names,
			(unsigned long long)(rc->o.time_ns / 1000000000ULL),
			rc->o.reps > 1 ? " per repetition" : "", rc->o.workers, rc->cpus);
	sec = rtm_cost_run(&rc->o, m->stop, &err);
	if (!sec) {
		fprintf(stderr, "rtmeasure: warning: throughput phase failed: %s; the latency "
			"results are saved without it\n", err.msg);
		return -1;
	}
	json_object_set_new(r->sections, "throughput", sec);
	return 0;
}

/* --throughput, --throughput-time, --throughput-reps: 1 taken, 0 not ours, 2 bad */
static int parse_cost_opt(struct run_cost *rc, bool *on, int c)
{
	struct rtm_error err = { "" };
	uint64_t ns;
	char *end;
	long n;

	switch (c) {
	case RUN_OPT_THROUGHPUT:
		*on = true;
		if (optarg && rtm_cost_parse_stressors(optarg, &rc->o.stressors, &err))
			return rtm_cli_fail("run: --throughput: %s", err.msg);
		return 1;
	case RUN_OPT_THROUGHPUT_TIME:
		if (rtm_parse_duration_ns(optarg, &ns, &err))
			return rtm_cli_fail("run: --throughput-time: %s", err.msg);
		if (ns < 1000000000ULL || ns % 1000000000ULL || ns > 3600000000000ULL)
			return rtm_cli_fail("run: --throughput-time '%s': give whole seconds, 1s to "
					    "1h (stress-ng's --timeout)", optarg);
		rc->o.time_ns = ns;
		return 1;
	case RUN_OPT_THROUGHPUT_REPS:
		errno = 0;
		n = strtol(optarg, &end, 10);
		if (errno || *end || end == optarg || n < 1 || n > RTM_COST_MAX_REPS)
			return rtm_cli_fail("run: --throughput-reps '%s': give 1 to %d", optarg,
					    RTM_COST_MAX_REPS);
		rc->o.reps = (int)n;
		return 1;
	}
	return 0;
}

/* run's names of the storage probe's options, for io_opts.c's messages */
static const char *const run_io_names[RTM_IO_OPT_N] = {
	[RTM_IO_OPT_OP] = "--io-op", [RTM_IO_OPT_SIZE] = "--io-size",
	[RTM_IO_OPT_FILE_SIZE] = "--io-file-size", [RTM_IO_OPT_INTERVAL] = "--io-interval",
	[RTM_IO_OPT_DEADLINE] = "--io-deadline", [RTM_IO_OPT_DURATION] = "-D",
	[RTM_IO_OPT_IOPRIO] = "--io-ioprio", [RTM_IO_OPT_PRIORITY] = "-p",
	[RTM_IO_OPT_CPU] = "--io-cpu", [RTM_IO_OPT_MAX_MISSES] = "--io-max-misses",
	[RTM_IO_OPT_TARGET] = "--io-target", [RTM_IO_OPT_FORCE_DEVICE] = "--io-force-device",
	[RTM_IO_OPT_NO_RT] = "--no-rt",
};

/* --io and its options (io_opts.c parses the values as `io` does): 1 taken, 0 not ours, 2 bad */
static int parse_io_opt(struct rtm_session_io_opts *io, bool *given, int c)
{
	static const struct { int key; enum rtm_io_opt w; } vals[] = {
		{ RUN_OPT_IO_FILE_SIZE, RTM_IO_OPT_FILE_SIZE },
		{ RUN_OPT_IO_OP, RTM_IO_OPT_OP },
		{ RUN_OPT_IO_SIZE, RTM_IO_OPT_SIZE },
		{ RUN_OPT_IO_INTERVAL, RTM_IO_OPT_INTERVAL },
		{ RUN_OPT_IO_DEADLINE, RTM_IO_OPT_DEADLINE },
		{ RUN_OPT_IO_IOPRIO, RTM_IO_OPT_IOPRIO },
	};
	struct rtm_error err = { "" };
	char *end;
	size_t i;
	long n;

	if (c < RUN_OPT_IO || c > RUN_OPT_IO_ALLOW_WRITES)
		return 0;
	*given |= c != RUN_OPT_IO;
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		if (vals[i].key != c)
			continue;
		struct rtm_io_cli v = { .probe = io->probe, .req = io->req,
					.names = run_io_names };

		if (!rtm_io_cli_set(&v, vals[i].w, optarg, &err)) {
			io->probe = v.probe;
			io->req = v.req;
			return 1;
		}
		if (!strncmp(err.msg, "--", 2))		/* it names the option */
			return rtm_cli_fail("run: %s", err.msg);
		return rtm_cli_fail("run: %s %s: %s", run_io_names[vals[i].w], optarg, err.msg);
	}
	switch (c) {
	case RUN_OPT_IO:		io->on = true; return 1;
	case RUN_OPT_IO_TARGET:		io->req.target = optarg; return 1;
	case RUN_OPT_IO_FORCE_DEVICE:	io->req.force_device = true; return 1;
	case RUN_OPT_IO_ALLOW_WRITES:	io->req.allow_writes = true; return 1;
	}
	errno = 0;
	n = strtol(optarg, &end, 10);
	if (errno || end == optarg || *end || n < 0 || n >= RTM_MAX_CPUS)
		return rtm_cli_fail("run: --io-cpu %s: give a CPU number", optarg);
	io->probe.cpu = (int)n;
	io->cpu_given = true;
	return 1;
}

/* One option of run's own: 1 taken, 0 not ours, 2 after the message. */
static int parse_run_opt(struct rtm_session_opts *m, struct run_cost *rc, bool *cost,
			 bool *noise_given, bool *io_given, int c, int argc, char **argv)
{
	struct rtm_error err = { "" };
	int ret;

	if (c == RUN_OPT_LOAD) {
		if (rtm_load_parse(optarg, &m->load_kinds, &err))
			return rtm_cli_fail("run: --load: %s", err.msg);
		return 1;
	}
	if (c == RUN_OPT_NO_REPORT) {
		m->out.report = false;
		return 1;
	}
	ret = parse_cost_opt(rc, cost, c);
	if (!ret)
		ret = parse_io_opt(&m->io, io_given, c);
	if (ret)
		return ret;
	ret = measure_noise_parse(m, c, argc, argv);
	*noise_given |= ret == 1 && c != MEASURE_OPT_NOISE;
	return ret;
}

/* The options into @m and @rc: -1 to go on, else the exit status (help, a bad option). */
static int run_parse(struct rtm_session_opts *m, struct run_cost *rc, bool *cost,
		     bool *noise_given, bool *io_given, int argc, char **argv)
{
	struct rtm_getopt g;
	int c, ret;

	if (rtm_opts_getopt(&run_cmd, &g))
		return rtm_cli_fail("run: bad option table");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c == RTM_OPT_HELP || c == RTM_OPT_HELP_ALL) {
			rtm_opts_help(&run_cmd, stdout, c == RTM_OPT_HELP_ALL);
			return RTM_EXIT_OK;
		}
		ret = parse_run_opt(m, rc, cost, noise_given, io_given, c, argc, argv);
		if (!ret)
			ret = measure_parse_opt(m, c, argc, argv);
		if (ret == 1)
			continue;
		if (ret)
			return ret;
		return rtm_cli_bad_option("run", g.shortopts, g.longopts, argv);
	}
	if (optind < argc)
		return rtm_cli_fail("run: unexpected argument '%s' (rtmeasure run --help)",
				    argv[optind]);
	if (!*cost && (rc->o.time_ns != RTM_COST_DEFAULT_TIME_NS || rc->o.reps != 1))
		return rtm_cli_fail("run: --throughput-time and --throughput-reps go with "
				    "--throughput");
	return -1;
}

/* --io's defaults, those of rtmeasure io (io_opts.c). */
static void run_io_init(struct rtm_session_io_opts *io)
{
	struct rtm_io_cli v;

	rtm_io_cli_init(&v, run_io_names);
	io->probe = v.probe;
	io->req = v.req;
}

int cmd_run(int argc, char **argv, const struct rtm_cli *cli)
{
	struct rtm_session_ops ops = { .serve = rtm_promlive_serve,
				       .publish = rtm_promlive_publish,
				       .unserve = rtm_promlive_unserve,
				       .report = rtm_runreport_write,
				       .summary = rtm_runreport_summary,
				       .throughput_table = rtm_cost_fprint };
	struct rtm_error err = { "" };
	struct rtm_session_opts m;
	struct run_cost rc = { .o = { .stressors = (1u << RTM_COST_NSTRESSORS) - 1,
				      .time_ns = RTM_COST_DEFAULT_TIME_NS, .reps = 1 } };
	bool cost = false, noise_given = false, io_given = false;
	int ret;

	rtm_session_opts_init(&m, "run");
	m.outf = stdout;
	m.errf = stderr;
	m.stop = cli->stop;
	m.probe.duration_ns = RUN_DEFAULT_DURATION_NS;
	m.out.report = true;
	rtm_session_noise_init(&m);
	run_io_init(&m.io);
	ret = run_parse(&m, &rc, &cost, &noise_given, &io_given, argc, argv);
	if (ret >= 0)
		return ret;
	ret = rtm_session_noise_check(&m, noise_given);
	if (!ret)
		ret = rtm_session_io_check_opts(&m, io_given);
	if (ret)
		return ret;
	if (cost) {
		/* stress-ng is there, before anything is measured */
		rc.o.workers = 1;
		if (rtm_cost_check(&rc.o, &err))
			return rtm_cli_fail("run: --throughput: %s", err.msg);
		ops.throughput = run_throughput;
		ops.ctx = &rc;
	}
	ret = rtm_session_run(&m, &ops);
	rtm_session_opts_release(&m);
	return ret;
}
