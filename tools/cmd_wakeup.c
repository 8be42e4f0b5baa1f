// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_wakeup.c - rtmeasure wakeup: how late the box's own real-time tasks get
 * the CPU after they are woken, measured in the kernel by BPF programs
 * (lib/probe/wakeup*.c), saved as a results folder like cyclic's.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opts.h"
#include "cli/wakeup_opts.h"
#include "core/fileio.h"
#include "core/units.h"
#include "present/promhttp.h"
#include "present/promlive.h"
#include "present/summary_print.h"
#include "present/wakeup_print.h"
#include "probe/wakeup.h"
#include "result/resultdir.h"
#include "result/summary.h"
#include "rtmeasure.h"

#define WK_DEFAULT_INTERVAL_NS	(60ULL * 1000000000ULL)
#define WK_MIN_INTERVAL_NS	(100ULL * 1000000ULL)

struct wk_opts {
	struct rtm_wakeup_run run;
	struct rtm_wakeup_cli sel;	/* --pid, --comm, --policy, --above: into run.sel */
	struct rtm_cpulist cpus;
	const char *outdir;
	const char *prometheus;	/* --prometheus [ADDR:]PORT, or NULL */
	char dir[1024];
	bool json, force;
	json_t *given;		/* the options as given, recorded in result.json */
};

enum {
	WK_OPT_PID = RTM_OPT_KEY0,
	WK_OPT_COMM,
	WK_OPT_POLICY,
	WK_OPT_ABOVE,
	WK_OPT_INTERVAL,
	WK_OPT_TASKS,
	WK_OPT_JSON,
	WK_OPT_FORCE,
	WK_OPT_PROMETHEUS,
};

enum { WKG_WHAT, WKG_OUT };

static const struct rtm_opt wk_opt_table[] = {
	{ "cpus", 'a', required_argument, "LIST", WKG_WHAT,
	  "count the waits that end on these CPUs (default: all online)" },
	{ "pid", WK_OPT_PID, required_argument, "PID", WKG_WHAT,
	  "the threads of process PID (or thread PID alone), whatever their policy" },
	{ "comm", WK_OPT_COMM, required_argument, "NAME", WKG_WHAT,
	  "the threads named NAME (/proc/TID/comm, at most 15 characters)" },
	{ "policy", WK_OPT_POLICY, required_argument, "LIST", WKG_WHAT,
	  "the tasks of these policies: fifo, rr, deadline, other, batch, idle "
	  "(default: fifo,rr,deadline, every real-time task)" },
	{ "duration", 'D', required_argument, "DUR", WKG_WHAT,
	  "stop after DUR (default 0: until interrupted; Ctrl-C saves what was measured)" },
	{ "above", WK_OPT_ABOVE, required_argument, "LAT", WKG_WHAT,
	  "count the waits longer than LAT, per CPU and per task, and give each its cause" },
	{ "interval", WK_OPT_INTERVAL, required_argument, "DUR", WKG_WHAT,
	  "time-series points and saves of result.json (default 1m, at least 100ms)" },
	{ "tasks", WK_OPT_TASKS, required_argument, "N", WKG_WHAT,
	  "tasks measured apart (default 1024; the others count in the histograms only)" },
	{ "output", 'o', required_argument, "DIR", WKG_OUT,
	  "results folder (default rtmeasure-wakeup-DATE-TIME)" },
	{ "force", WK_OPT_FORCE, no_argument, NULL, WKG_OUT,
	  "replace an earlier result in the results folder" },
	{ "json", WK_OPT_JSON, no_argument, NULL, WKG_OUT,
	  "print the summary and the tasks as JSON instead of tables" },
	{ "prometheus", WK_OPT_PROMETHEUS, required_argument, "[ADDR:]PORT", WKG_OUT,
	  "serve /metrics for Prometheus during the run, new at each --interval's end "
	  "(127.0.0.1 unless ADDR is given; port 0: any free)" },
	RTM_OPT_HELP_ROWS(WKG_OUT),
	RTM_OPT_END,
};

static const struct rtm_opt_group wk_groups[] = {
	[WKG_WHAT] = { NULL, true },
	[WKG_OUT] = { "Output", true },
};

static const struct rtm_cmd_opts wk_cmd = {
	.command = "wakeup",
	.usage = "usage: rtmeasure wakeup [options]\n\n"
		"The wake-up latency of the box's own tasks: for each wake-up of a selected\n"
		"task (every real-time task by default), the time until it runs, measured\n"
		"in the kernel by BPF programs on sched_wakeup and sched_switch, into exact\n"
		"histograms per CPU and figures per task. Root; a results folder as cyclic's.\n",
	.groups = wk_groups,
	.ngroups = sizeof(wk_groups) / sizeof(wk_groups[0]),
	.tables = { wk_opt_table },
	.epilog = "\nA wait runs from the wake-up to the switch-in: a timer's own delay before\n"
		"it wakes the task is not in it. See rtmeasure-wakeup(1).\n",
};

/* wakeup's selection options in enum rtm_wakeup_opt's order, for their messages. */
static const char *const wk_sel_names[RTM_WAKEUP_OPT_N] = {
	[RTM_WAKEUP_OPT_PID] = "--pid", [RTM_WAKEUP_OPT_COMM] = "--comm",
	[RTM_WAKEUP_OPT_POLICY] = "--policy", [RTM_WAKEUP_OPT_ABOVE] = "--above",
};

_Static_assert(WK_OPT_ABOVE - WK_OPT_PID == RTM_WAKEUP_OPT_ABOVE,
	       "wakeup's selection keys follow enum rtm_wakeup_opt");

static int parse_count(const char *opt, const char *arg, long lo, long hi, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(arg, &end, 10);
	if (errno || end == arg || *end || *out < lo || *out > hi)
		return rtm_cli_fail("wakeup: %s '%s': give a whole number from %ld to %ld", opt, arg,
				    lo, hi);
	return 0;
}

/* One option into @o: 0, or the exit status after its message. */
static int parse_one(struct wk_opts *o, int c, const char *arg)
{
	struct rtm_error err = { "" };
	long n;

	switch (c) {
	case 'a':
		rtm_cpulist_release(&o->cpus);
		if (rtm_cpulist_parse(arg, &o->cpus, &err) || !o->cpus.n)
			return rtm_cli_fail("wakeup: -a: %s", err.msg[0] ? err.msg :
					    "give at least one CPU");
		return 0;
	case 'D':
		return rtm_parse_duration_ns(arg, &o->run.duration_ns, &err) ?
		       rtm_cli_fail("wakeup: -D: %s", err.msg) : 0;
	case WK_OPT_INTERVAL:
		if (rtm_parse_duration_ns(arg, &o->run.interval_ns, &err))
			return rtm_cli_fail("wakeup: --interval: %s", err.msg);
		if (o->run.interval_ns < WK_MIN_INTERVAL_NS)
			return rtm_cli_fail("wakeup: --interval %s: give at least 100ms", arg);
		return 0;
	case WK_OPT_TASKS:
		if (parse_count("--tasks", arg, 1, 1 << 20, &n))
			return RTM_EXIT_USAGE;
		o->run.sel.task_cap = (uint32_t)n;
		return 0;
	case 'o':
		o->outdir = arg;
		return 0;
	case WK_OPT_FORCE:
		o->force = true;
		return 0;
	case WK_OPT_JSON:
		o->json = true;
		return 0;
	case WK_OPT_PROMETHEUS: {
		struct sockaddr_storage ss;

		if (rtm_promhttp_parse(arg, &ss, &err))
			return rtm_cli_fail("wakeup: %s", err.msg);
		o->prometheus = arg;
		return 0;
	}
	default:	/* --pid, --comm, --policy, --above */
		if (rtm_wakeup_cli_set(&o->sel, (enum rtm_wakeup_opt)(c - WK_OPT_PID), arg, &err))
			return rtm_cli_fail("wakeup: %s", err.msg);
		return 0;
	}
}

/* -1 to go on, else the exit status (help, a bad option). */
static int wk_parse(struct wk_opts *o, int argc, char **argv)
{
	struct rtm_getopt g;
	int c, ret;

	if (rtm_opts_getopt(&wk_cmd, &g))
		return rtm_cli_fail("wakeup: bad option table");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c == RTM_OPT_HELP || c == RTM_OPT_HELP_ALL) {
			rtm_opts_help(&wk_cmd, stdout, c == RTM_OPT_HELP_ALL);
			return RTM_EXIT_OK;
		}
		if (c == '?' || c == ':' || !rtm_opts_find(&wk_cmd, c))
			return rtm_cli_bad_option("wakeup", g.shortopts, g.longopts, argv);
		ret = parse_one(o, c, optarg);
		if (ret)
			return ret;
		json_object_set_new(o->given, rtm_opts_find(&wk_cmd, c)->name,
				    optarg ? json_string(optarg) : json_true());
	}
	if (optind < argc)
		return rtm_cli_fail("wakeup: unexpected argument '%s' (rtmeasure wakeup --help)",
				    argv[optind]);
	return -1;
}

/*
 * The results folder, before the programs load: made when the first result is
 * saved; when it exists, a folder to write in, with no earlier result unless
 * --force (which clears the files rtmeasure wrote there).
 */
static int check_outdir(struct wk_opts *o)
{
	char what[32], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int fd, ret = 0;

	if (!o->outdir) {
		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		snprintf(o->dir, sizeof(o->dir), "rtmeasure-wakeup-%s", stamp);
	} else if (snprintf(o->dir, sizeof(o->dir), "%s", o->outdir) >= (int)sizeof(o->dir)) {
		return rtm_cli_fail("wakeup: -o: folder name too long");
	}
	fd = rtm_dir_open(o->dir, 0);
	if (fd == -ENOENT)
		return 0;
	if (fd == -ELOOP || fd == -ENOTDIR)
		return rtm_cli_fail("wakeup: -o %s is %s (give a folder name)", o->dir,
				    fd == -ELOOP ? "a symbolic link" : "not a folder");
	if (fd < 0)
		return rtm_cli_fail("wakeup: -o %s: %s", o->dir, rtm_write_strerror(fd));
	if (faccessat(fd, ".", W_OK, AT_EACCESS) < 0)
		ret = rtm_cli_fail("wakeup: cannot write in results folder %s: %s", o->dir,
				   rtm_write_strerror(-errno));
	else if (rtm_resultdir_find(fd, what, sizeof(what)) && !o->force)
		ret = rtm_cli_fail("wakeup: -o %s already holds a result (%s): give another "
				   "folder, or --force to replace it", o->dir, what);
	else if (o->force && (ret = rtm_resultdir_clear(fd)))
		ret = rtm_cli_fail("wakeup: --force: cannot clear the earlier result in %s: %s",
				   o->dir, rtm_write_strerror(ret));
	close(fd);
	return ret;
}

static void print_banner(const struct wk_opts *o)
{
	const struct rtm_wakeup_opts *sel = &o->run.sel;
	char what[64], cpus[256], dur[32];

	if (sel->sel == RTM_WK_SEL_PID)
		snprintf(what, sizeof(what), "the threads of process %d", sel->pid);
	else if (sel->sel == RTM_WK_SEL_COMM)
		snprintf(what, sizeof(what), "the threads named %s", sel->comm);
	else
		snprintf(what, sizeof(what), "%s tasks",
			 sel->policies == RTM_WAKEUP_RT_POLICIES ? "real-time" : "the selected");
	if (o->cpus.n)
		rtm_cpulist_format(&o->cpus, cpus, sizeof(cpus));
	if (o->run.duration_ns)
		rtm_fmt_duration(dur, sizeof(dur), o->run.duration_ns);
	printf("wakeup: wake-up to switch-in of %s on %s%s, %s%s; results in %s/\n", what,
	       o->cpus.n ? "CPUs " : "every CPU", o->cpus.n ? cpus : "",
	       o->run.duration_ns ? "for " : "until interrupted",
	       o->run.duration_ns ? dur : "", o->dir);
	fflush(stdout);
}

static void print_end(const struct wk_opts *o, const struct rtm_result *r)
{
	json_t *doc;

	if (o->json) {
		doc = json_pack("{s:o, s:O}", "summary", rtm_summary_to_json(r), "wakeup",
				json_object_get(r->sections, "wakeup"));
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
		return;
	}
	rtm_summary_fprint(r, stdout);
	putchar('\n');
	rtm_wakeup_fprint_tasks(stdout, json_object_get(r->sections, "wakeup"));
	rtm_wakeup_fprint_census(stdout, json_object_get(r->sections, "wakeup"));
	printf("results: %s/\n", o->dir);
}

/* Each interval's saved result on the live page: what export --prometheus of it gives. */
static void wk_publish(const struct rtm_result *r, void *ctx)
{
	rtm_promlive_result(ctx, r);
}

/*
 * --prometheus: bound before the programs load (a port in use fails the
 * command at once), off the CPUs whose waits are counted when any is free.
 */
static int wk_serve(struct wk_opts *o, struct rtm_promlive **mp)
{
	struct rtm_cpulist online = { 0 };
	struct rtm_error err = { "" };
	struct rtm_promlive_opts po = {
		.spec = o->prometheus, .command = "wakeup", .probe = "wakeup",
		.measured = &o->cpus, .quiet = o->json, .errf = stderr,
	};
	char buf[4096];
	int ret;

	*mp = NULL;
	if (!o->prometheus)
		return 0;
	/* without -a every CPU's waits count */
	if (!o->cpus.n && rtm_read_smallf("/", buf, sizeof(buf),
					  "/sys/devices/system/cpu/online") > 0 &&
	    !rtm_cpulist_parse(buf, &online, NULL))
		po.measured = &online;
	ret = rtm_promlive_open(&po, mp, &err);
	rtm_cpulist_release(&online);
	if (ret)
		return rtm_cli_fail("wakeup: %s", err.msg);
	o->run.on_interval = wk_publish;
	o->run.interval_ctx = *mp;
	return 0;
}

static int wk_measure(struct wk_opts *o, const struct rtm_cli *cli)
{
	struct rtm_error err = { "" };
	struct rtm_promlive *mp;
	struct rtm_result *r;
	int ret;

	if (!rtm_wakeup_built(&err))
		return rtm_cli_fail("wakeup: %s", err.msg);
	ret = check_outdir(o);
	if (!ret)
		ret = wk_serve(o, &mp);
	if (ret)
		return ret;
	o->run.sel.cpus = o->cpus.n ? o->cpus.cpus : NULL;
	o->run.sel.ncpus = o->cpus.n;
	o->run.dir = o->dir;
	o->run.options = o->given;
	if (!o->json)
		print_banner(o);
	ret = rtm_wakeup_run(&o->run, cli->stop, &r, &err);
	rtm_promlive_stop(mp);
	if (ret)
		return rtm_cli_fail("wakeup: %s", err.msg);
	if (r->interrupted)
		fprintf(stderr, "rtmeasure: interrupted after %.1f s; results saved in %s/\n",
			(double)r->duration_ns / 1e9, o->dir);
	print_end(o, r);
	rtm_result_free(r);
	return RTM_EXIT_OK;
}

int cmd_wakeup(int argc, char **argv, const struct rtm_cli *cli)
{
	struct wk_opts o;
	int ret;

	memset(&o, 0, sizeof(o));
	rtm_wakeup_cli_init(&o.sel, wk_sel_names);
	o.run.interval_ns = WK_DEFAULT_INTERVAL_NS;
	o.run.top = RTM_WAKEUP_TOP;
	o.given = json_object();
	if (!o.given)
		return rtm_cli_fail("wakeup: out of memory");
	ret = wk_parse(&o, argc, argv);
	if (ret < 0) {
		o.sel.sel.task_cap = o.run.sel.task_cap;	/* --tasks */
		o.run.sel = o.sel.sel;
		ret = wk_measure(&o, cli);
	}
	rtm_cpulist_release(&o.cpus);
	json_decref(o.given);
	return ret;
}
