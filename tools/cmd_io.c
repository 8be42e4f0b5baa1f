// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_io.c - rtmeasure io: the storage deadline probe (lib/probe/probe_io.c)
 * on a safely opened target (lib/box/iotarget.c), driven by the shared runner.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "box/iotarget.h"
#include "box/rt.h"
#include "box/sysinfo.h"
#include "cli/cli.h"
#include "cli/io_opts.h"
#include "cli/opts.h"
#include "core/fileio.h"
#include "core/units.h"
#include "present/io_print.h"
#include "present/promhttp.h"
#include "present/promlive.h"
#include "probe/probe.h"
#include "probe/probe_io.h"
#include "result/resultdir.h"
#include "session/session.h"
#include "trace/iotrace.h"
#include "rtmeasure.h"

enum {
	IO_OPT_DEADLINE = RTM_OPT_KEY0,
	IO_OPT_OP,
	IO_OPT_SIZE,
	IO_OPT_FILE_SIZE,
	IO_OPT_TARGET,
	IO_OPT_FORCE_DEVICE,
	IO_OPT_ALLOW_WRITES,
	IO_OPT_SCHEDULER,
	IO_OPT_IOPRIO,
	IO_OPT_JSON,
	IO_OPT_FORCE,
	IO_OPT_MAX_MISSES,
	IO_OPT_NO_RT,
	IO_OPT_CAUSES,
	IO_OPT_NO_CAUSES,
	IO_OPT_PROMETHEUS,
};

enum { G_PROBE, G_TARGET, G_OUTPUT, G_HELP };

static const struct rtm_opt io_opts[] = {
	{ "op", IO_OPT_OP, required_argument, "LIST", G_PROBE,
	  "operations issued in turn, one per interval: read, write, randread, randwrite, "
	  "fsync (default randread)" },
	{ "size", IO_OPT_SIZE, required_argument, "BYTES", G_PROBE,
	  "bytes a request, whole blocks: 4k (default), 64k, 1m" },
	{ "interval", 'i', required_argument, "LAT", G_PROBE,
	  "time between planned requests (default 10ms; a plain number is us)" },
	{ "deadline", IO_OPT_DEADLINE, required_argument, "LAT", G_PROBE,
	  "a request later than this after its planned time is a miss (default: none)" },
	{ "duration", 'D', required_argument, "DUR", G_PROBE,
	  "measuring time, e.g. 30s, 5m (default: until stopped)" },
	{ "priority", 'p', required_argument, "N", G_PROBE,
	  "SCHED_FIFO priority of the probe thread (default 90)" },
	{ "no-rt", IO_OPT_NO_RT, no_argument, NULL, G_PROBE,
	  "run at SCHED_OTHER (no privileges needed): not real-time latency" },
	{ "affinity", 'a', required_argument, "CPU", G_PROBE,
	  "the CPU of the probe thread (default: the last one this process may use)" },
	{ "ioprio", IO_OPT_IOPRIO, required_argument, "CLASS", G_PROBE,
	  "I/O priority of the thread: rt:N, be:N or idle (default: the thread's own)" },
	{ "max-misses", IO_OPT_MAX_MISSES, required_argument, "N", G_PROBE,
	  "misses listed with their times (default 10000; the rest are counted)" },
	{ "causes", IO_OPT_CAUSES, no_argument, NULL, G_PROBE,
	  "a cause for every miss from the block and scheduler events (needs tracefs; the "
	  "default with --deadline when it can be used)" },
	{ "no-causes", IO_OPT_NO_CAUSES, no_argument, NULL, G_PROBE,
	  "no trace: the misses counted and listed, without their causes" },
	{ "target", IO_OPT_TARGET, required_argument, "PATH", G_TARGET,
	  "a folder (a file is created there and removed after), an existing file or, "
	  "with --force-device, a block device (default: a file in the results folder)" },
	{ "file-size", IO_OPT_FILE_SIZE, required_argument, "BYTES", G_TARGET,
	  "size of a created file (default 64m)" },
	{ "force-device", IO_OPT_FORCE_DEVICE, no_argument, NULL, G_TARGET,
	  "measure the block device given as --target (reads only, unless --allow-writes)" },
	{ "allow-writes", IO_OPT_ALLOW_WRITES, no_argument, NULL, G_TARGET,
	  "let write operations overwrite an existing --target file or device" },
	{ "scheduler", IO_OPT_SCHEDULER, required_argument, "NAME", G_TARGET,
	  "set the device's I/O scheduler for the run (none, mq-deadline, kyber, bfq); "
	  "the earlier one is put back at the end" },
	{ "output", 'o', required_argument, "DIR", G_OUTPUT,
	  "results folder (default rtmeasure-io-HOST-KERNEL-TIME)" },
	{ "force", IO_OPT_FORCE, no_argument, NULL, G_OUTPUT,
	  "replace an earlier result in the results folder" },
	{ "json", IO_OPT_JSON, no_argument, NULL, G_OUTPUT,
	  "print the summary as JSON on stdout" },
	{ "quiet", 'q', no_argument, NULL, G_OUTPUT, "no summary table" },
	{ "prometheus", IO_OPT_PROMETHEUS, required_argument, "[ADDR:]PORT", G_OUTPUT,
	  "serve /metrics for Prometheus during the run, new every second (127.0.0.1 "
	  "unless ADDR is given; port 0: any free)" },
	RTM_OPT_HELP_ROWS(G_HELP),
	RTM_OPT_END,
};

static const struct rtm_opt_group io_groups[] = {
	[G_PROBE] = { "Probe:", true },
	[G_TARGET] = { "Target:", true },
	[G_OUTPUT] = { "Output:", true },
	[G_HELP] = { NULL, true },
};

static const struct rtm_cmd_opts io_cmd = {
	.command = "io",
	.usage = "usage: rtmeasure io [options]\n\n"
		"Storage deadline probe: one real-time thread issues an O_DIRECT request at each\n"
		"planned time and records its latency from that time (a late issue counts),\n"
		"its service time from the actual issue and how late it was issued, per\n"
		"operation, into exact histograms; requests over --deadline are misses, listed\n"
		"with their times. Writes a results folder (result.json, sections.io).\n",
	.groups = io_groups,
	.ngroups = sizeof(io_groups) / sizeof(io_groups[0]),
	.tables = { io_opts },
	.epilog = "\nWithout --target it measures a file created in the results folder's file\n"
		"system and removed after. Without -D it runs until interrupted (Ctrl-C saves\n"
		"what was measured). Exit status 2 on a bad option, a refused target or a\n"
		"missing privilege.\n",
};

struct io_cmd_opts {
	struct rtm_io_cli io;		/* the probe's and the target's (cli/io_opts.h) */
	const char *outdir;
	const char *scheduler;
	const char *prometheus;		/* --prometheus [ADDR:]PORT, or NULL */
	struct rtm_promlive *prom;	/* its server while the probe runs */
	bool force, json, quiet;
	int causes;			/* -1: with --deadline when tracefs can be used */
};

/* The probe's options under io's names, for rtm_io_cli_set() and its messages. */
static const char *const io_names[RTM_IO_OPT_N] = {
	[RTM_IO_OPT_OP] = "--op", [RTM_IO_OPT_SIZE] = "--size",
	[RTM_IO_OPT_FILE_SIZE] = "--file-size", [RTM_IO_OPT_INTERVAL] = "-i",
	[RTM_IO_OPT_DEADLINE] = "--deadline", [RTM_IO_OPT_DURATION] = "-D",
	[RTM_IO_OPT_IOPRIO] = "--ioprio", [RTM_IO_OPT_PRIORITY] = "-p",
	[RTM_IO_OPT_CPU] = "-a", [RTM_IO_OPT_MAX_MISSES] = "--max-misses",
	[RTM_IO_OPT_TARGET] = "--target", [RTM_IO_OPT_FORCE_DEVICE] = "--force-device",
	[RTM_IO_OPT_NO_RT] = "--no-rt",
};

/* io's option keys of the probe's values. */
static int io_value_of(int c)
{
	switch (c) {
	case IO_OPT_OP:		return RTM_IO_OPT_OP;
	case IO_OPT_SIZE:	return RTM_IO_OPT_SIZE;
	case IO_OPT_FILE_SIZE:	return RTM_IO_OPT_FILE_SIZE;
	case 'i':		return RTM_IO_OPT_INTERVAL;
	case IO_OPT_DEADLINE:	return RTM_IO_OPT_DEADLINE;
	case 'D':		return RTM_IO_OPT_DURATION;
	case IO_OPT_IOPRIO:	return RTM_IO_OPT_IOPRIO;
	case 'p':		return RTM_IO_OPT_PRIORITY;
	case 'a':		return RTM_IO_OPT_CPU;
	default:		return RTM_IO_OPT_MAX_MISSES;
	}
}

/* The options into @o: -1 to go on, else the exit status (help, a bad option). */
static int io_parse(struct io_cmd_opts *o, int argc, char **argv)
{
	struct rtm_error err = { "" };
	struct rtm_getopt g;
	char name[48];
	int c;

	if (rtm_opts_getopt(&io_cmd, &g))
		return rtm_cli_fail("io: bad option table");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case RTM_OPT_HELP:
		case RTM_OPT_HELP_ALL:
			rtm_opts_help(&io_cmd, stdout, c == RTM_OPT_HELP_ALL);
			return RTM_EXIT_OK;
		case IO_OPT_TARGET:		o->io.req.target = optarg; continue;
		case IO_OPT_FORCE_DEVICE:	o->io.req.force_device = true; continue;
		case IO_OPT_ALLOW_WRITES:	o->io.req.allow_writes = true; continue;
		case IO_OPT_SCHEDULER:		o->scheduler = optarg; continue;
		case 'o':			o->outdir = optarg; continue;
		case IO_OPT_FORCE:		o->force = true; continue;
		case IO_OPT_JSON:		o->json = true; continue;
		case 'q':			o->quiet = true; continue;
		case IO_OPT_NO_RT:		o->io.no_rt = true; continue;
		case IO_OPT_CAUSES:		o->causes = 1; continue;
		case IO_OPT_NO_CAUSES:		o->causes = 0; continue;
		case IO_OPT_PROMETHEUS: {
			struct sockaddr_storage ss;

			o->prometheus = optarg;
			if (rtm_promhttp_parse(optarg, &ss, &err))
				return rtm_cli_fail("io: %s", err.msg);	/* it names the option */
			continue;
		}
		case '?':
		case ':':
			return rtm_cli_bad_option("io", g.shortopts, g.longopts, argv);
		}
		if (rtm_io_cli_set(&o->io, io_value_of(c), optarg, &err) &&
		    !strncmp(err.msg, "--", 2))
			return rtm_cli_fail("io: %s", err.msg);	/* it names the option */
		if (err.msg[0])
			return rtm_cli_fail("io: %s %s: %s", rtm_opts_name(&io_cmd, c, name,
					    sizeof(name)), optarg, err.msg);
	}
	if (optind < argc)
		return rtm_cli_fail("io: unexpected argument '%s' (rtmeasure io --help)",
				    argv[optind]);
	return -1;
}

/* Checks between the options, and the defaults that depend on them. */
static int io_check(struct io_cmd_opts *o)
{
	struct rtm_error err = { "" };

	if (o->causes == 1 && !o->io.probe.deadline_ns)
		return rtm_cli_fail("io: --causes needs --deadline (the misses are what it explains)");
	if (o->causes < 0)
		o->causes = o->io.probe.deadline_ns != 0;
	if (rtm_io_cli_check(&o->io, &err))
		return rtm_cli_fail("io: %s", err.msg);
	return 0;
}

static void default_outdir(char *buf, size_t len, const struct rtm_sysinfo *si)
{
	char stamp[32];
	struct tm tm;
	time_t now = time(NULL);

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "rtmeasure-io-%s-%s-%s", si && si->hostname[0] ? si->hostname : "host",
		 si ? si->release : "unknown", stamp);
}

/* The results folder before anything is measured: made, writable, no earlier result. */
static int io_outdir(const struct io_cmd_opts *o, const char *dir)
{
	char what[32];
	int fd, ret = 0;

	fd = rtm_dir_open(dir, RTM_OUT_CREATE);
	if (fd == -ELOOP)
		return rtm_cli_fail("io: -o %s is a symbolic link (give the folder it points to)",
				    dir);
	if (fd < 0)
		return rtm_cli_fail("io: cannot create results folder %s: %s", dir,
				    rtm_write_strerror(fd));
	if (rtm_resultdir_find(fd, what, sizeof(what)) && !o->force)
		ret = rtm_cli_fail("io: -o %s already holds a result (%s): give another folder, "
				   "or --force to replace it", dir, what);
	else if (o->force && (ret = rtm_resultdir_clear(fd)))
		ret = rtm_cli_fail("io: --force: cannot clear the earlier result in %s: %s", dir,
				   rtm_write_strerror(ret));
	close(fd);
	return ret;
}

static json_t *io_options_json(const struct io_cmd_opts *o, const char *dir)
{
	const struct rtm_probe_io_opts *p = &o->io.probe;
	char prio[16];

	return json_pack("{s:s, s:s?, s:I, s:I, s:I, s:I, s:I, s:i, s:o, s:s, s:s?, s:b, s:b, "
			 "s:b, s:s}",
		"probe", "io",
		"target", o->io.req.target,
		"size", (json_int_t)p->size,
		"file_bytes", (json_int_t)o->io.req.file_bytes,
		"interval_ns", (json_int_t)p->interval_ns,
		"deadline_ns", (json_int_t)p->deadline_ns,
		"duration_ns", (json_int_t)p->duration_ns,
		"cpu", p->cpu,
		"sched", rtm_sched_to_json(&p->sched),
		"ioprio", rtm_ioprio_format(&p->ioprio, prio, sizeof(prio)),
		"scheduler", o->scheduler,
		"force_device", o->io.req.force_device,
		"allow_writes", o->io.req.allow_writes,
		"causes", o->causes > 0,
		"output", dir);
}

/*
 * The trace of the misses' causes on the target's disk and the probe's CPU, or
 * NULL: -1 when it cannot be had and was asked for (said, exit 2), else a warning.
 */
static struct rtm_iotrace *io_causes_start(const struct io_cmd_opts *o,
					   const struct rtm_io_target *t, int *ret)
{
	struct rtm_error err = { "" };
	struct rtm_iotrace *tr;

	*ret = 0;
	if (!o->causes)
		return NULL;
	tr = rtm_session_io_causes_start(t, o->io.probe.cpu, o->io.probe.deadline_ns, &err);
	if (tr) {
		rtm_iotrace_stale_note(tr, stderr);
		return tr;
	}
	if (o->causes == 1)
		*ret = rtm_cli_fail("io: --causes: %s (or leave out --causes)", err.msg);
	else
		fprintf(stderr, "rtmeasure: io: warning: no causes for the misses: %s (give "
			"--no-causes to measure without them)\n", err.msg);
	return NULL;
}

/*
 * --prometheus: at each boundary of the probe's snapshots, the page export
 * --prometheus would give of the result as it stands (sections.io live).
 */
static void io_publish(struct rtm_promlive *mp, struct rtm_probe_run *run, struct rtm_result *r,
		       uint64_t *shown)
{
	uint64_t next = rtm_probe_run_ops(run)->next_tick_ns(rtm_probe_run_probe(run));
	json_t *sec;

	if (!mp || next == *shown)
		return;
	sec = rtm_probe_run_live_section(run);
	if (!sec)
		return;	/* the scrapes keep the previous figures */
	*shown = next;
	/* the page shows no miss one by one: not copied to the server each second */
	json_object_del(sec, "miss_list");
	r->duration_ns = (uint64_t)json_integer_value(json_object_get(sec, "duration_ns"));
	json_object_set_new(r->sections, "io", sec);	/* the finished one replaces it */
	rtm_promlive_result(mp, r);
}

/* Drive the probe until its duration, a stop signal or its end; the causes beside it. */
static int io_measure(struct io_cmd_opts *o, const struct rtm_io_target *t,
		      const struct rtm_cli *cli, struct rtm_result *r)
{
	struct rtm_error err = { "" };
	struct rtm_probe_run *run;
	struct rtm_iotrace *tr;
	struct rtm_probe_io *p;
	uint32_t taken = 0;
	uint64_t shown = 0;
	int ret;

	tr = io_causes_start(o, t, &ret);
	if (ret)
		return ret;
	run = rtm_probe_run_start(&rtm_probe_io_ops, &o->io.probe, 0, &err);
	if (!run) {
		rtm_iotrace_free(tr);
		return rtm_cli_fail("io: %s", err.msg);
	}
	p = rtm_probe_run_probe(run);
	if (tr)
		rtm_iotrace_follow(tr, rtm_probe_io_tid(p));
	while (!rtm_probe_run_done(run) && !*cli->stop) {
		rtm_probe_run_wait(run, 200000000ULL);
		rtm_probe_run_tick(run);
		if (tr) {
			rtm_session_io_causes_feed(tr, p, &taken);
			rtm_iotrace_poll(tr);
		}
		io_publish(o->prom, run, r, &shown);
	}
	r->interrupted = *cli->stop != 0;
	rtm_probe_run_stop(run);
	ret = rtm_probe_run_finish(run, r, &err);
	if (!ret && tr)
		rtm_session_io_causes_finish(tr, p, &taken, r, stderr);
	rtm_probe_run_free(run);
	rtm_iotrace_free(tr);
	return ret ? rtm_cli_fail("io: %s", err.msg) : 0;
}

/* What the user reads: the table (or --json), then where the result is. */
static int io_output(const struct io_cmd_opts *o, const struct rtm_result *r, const char *dir)
{
	const json_t *io = json_object_get(r->sections, "io");
	const char *ferr = json_string_value(json_object_get(io, "first_error"));

	if (o->json) {
		json_t *j = json_pack("{s:o, s:s, s:b, s:I}", "io", rtm_io_summary_json(io),
				      "result_dir", dir, "interrupted", r->interrupted,
				      "duration_ns", (json_int_t)r->duration_ns);

		if (!j || json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER))
			return rtm_cli_fail("io: cannot write the JSON summary");
		fputc('\n', stdout);
		json_decref(j);
	} else if (!o->quiet) {
		rtm_io_fprint(io, stdout);
		printf("results: %s/\n", dir);
	}
	if (ferr)
		fprintf(stderr, "rtmeasure: io: warning: requests failed (the first: %s); see "
			"sections.io.ops.*.errors\n", ferr);
	return 0;
}

/* Open the target, measure, record; the target is closed (and restored) on every path. */
static int io_run(struct io_cmd_opts *o, const struct rtm_cli *cli, struct rtm_result *r,
		  const char *dir)
{
	struct rtm_error err = { "" };
	struct rtm_io_target t;
	int ret;

	o->io.req.dir = dir;
	o->io.req.size = o->io.probe.size;
	if (rtm_io_target_open(&t, &o->io.req, &err))
		return rtm_cli_fail("%s", err.msg);
	ret = o->scheduler ? rtm_io_target_set_scheduler(&t, "/", o->scheduler, &err) : 0;
	if (ret) {
		rtm_io_target_close(&t, "/", NULL);
		return rtm_cli_fail("%s", err.msg);
	}
	o->io.probe.fd = t.fd;
	o->io.probe.region_bytes = t.bytes;
	o->io.probe.align = t.align;
	if (!o->quiet && !o->json)
		fprintf(stderr, "rtmeasure io: %s, %u bytes every %llu us on CPU %d -> %s/\n",
			t.path, o->io.probe.size,
			(unsigned long long)(o->io.probe.interval_ns / 1000), o->io.probe.cpu, dir);
	ret = io_measure(o, &t, cli, r);
	if (!ret)
		json_object_set_new(json_object_get(r->sections, "io"), "target",
				    rtm_io_target_to_json(&t));
	if (rtm_io_target_close(&t, "/", &err) && !ret)
		ret = rtm_cli_fail("%s", err.msg);
	return ret;
}

/*
 * --prometheus: bound before the results folder is made and anything measured
 * (a port in use fails the command at once), off the probe's CPU when it can.
 */
static int io_serve(struct io_cmd_opts *o, const struct rtm_result *r)
{
	struct rtm_cpulist measured = { 1, &o->io.probe.cpu };
	struct rtm_promlive_opts po = {
		.spec = o->prometheus, .command = "io", .probe = "io", .sysinfo = r->sysinfo,
		.measured = &measured, .quiet = o->quiet || o->json, .errf = stderr,
	};
	struct rtm_error err = { "" };

	if (o->prometheus && rtm_promlive_open(&po, &o->prom, &err))
		return rtm_cli_fail("io: %s", err.msg);
	return 0;
}

int cmd_io(int argc, char **argv, const struct rtm_cli *cli)
{
	struct io_cmd_opts o = { .causes = -1 };
	struct rtm_error err = { "" };
	struct rtm_sysinfo *si;
	struct rtm_result *r;
	char dir[PATH_MAX];
	int ret;

	rtm_io_cli_init(&o.io, io_names);
	ret = io_parse(&o, argc, argv);
	if (ret >= 0)
		return ret;
	if ((ret = io_check(&o)))
		return ret;
	si = rtm_sysinfo_collect("/", &err);
	if (o.outdir)
		snprintf(dir, sizeof(dir), "%s", o.outdir);
	else
		default_outdir(dir, sizeof(dir), si);
	r = rtm_result_alloc("io");
	if (!r) {
		rtm_sysinfo_free(si);
		return rtm_cli_fail("io: out of memory");
	}
	if (si)
		r->sysinfo = rtm_sysinfo_to_json(si);
	rtm_sysinfo_free(si);
	json_decref(r->options);
	r->options = io_options_json(&o, dir);
	ret = io_serve(&o, r);
	if (!ret)
		ret = io_outdir(&o, dir);
	if (!ret)
		ret = io_run(&o, cli, r, dir);
	rtm_promlive_stop(o.prom);
	if (!ret && rtm_result_save(r, dir, &err))
		ret = rtm_cli_fail("%s", err.msg);
	if (!ret)
		ret = io_output(&o, r, dir);
	rtm_result_free(r);
	return ret;
}
