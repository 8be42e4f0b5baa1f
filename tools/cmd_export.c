// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_export.c - rtmeasure export: a result as cyclictest-compatible JSON, CSV or
 * Prometheus metrics (a node_exporter textfile, or a push to a Pushgateway).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/opts.h"
#include "result/export.h"
#include "core/fileio.h"
#include "core/jsonutil.h"
#include "present/prom.h"
#include "cli/cli.h"
#include "rtmeasure.h"

enum {
	EXPORT_OPT_CYCLICTEST_JSON = RTM_OPT_KEY0,
	EXPORT_OPT_CSV,
	EXPORT_OPT_CSV_GAPS,
	EXPORT_OPT_FOLLOW,
	EXPORT_OPT_PROMETHEUS,
	EXPORT_OPT_OPENMETRICS,
	EXPORT_OPT_TEXTFILE,
	EXPORT_OPT_PUSH,
	EXPORT_OPT_JOB,
	EXPORT_OPT_INSTANCE,
};

/* Groups of export --help: the formats, then where they go. */
enum { EG_FORMAT, EG_OUTPUT, EG_PUSH };

static const struct rtm_opt export_opts[] = {
	{ "cyclictest-json", EXPORT_OPT_CYCLICTEST_JSON, no_argument, NULL, EG_FORMAT,
	  "the JSON cyclictest --json writes (rt-tests keys, with their stray colon: "
	  "\"cmdline:\"; \"rt_test_version:\" only from an import of cyclictest's), one "
	  "thread per CPU, microsecond histogram rows" },
	{ "csv", EXPORT_OPT_CSV, no_argument, NULL, EG_FORMAT,
	  "cpu,lo_ns,hi_ns,count: one line per CPU per non-empty histogram bucket (a noise "
	  "result: its gap-length histogram, cpu,gap_lo_ns,gap_hi_ns,count)" },
	{ "csv-gaps", EXPORT_OPT_CSV_GAPS, no_argument, NULL, EG_FORMAT,
	  "a noise result's gaps (noise, or run --noise's phase), cpu,start_ns,length_ns: one "
	  "line per gap in result.json's gap list" },
	{ "output", 'o', required_argument, "FILE", EG_OUTPUT,
	  "write FILE instead of stdout (- is stdout): a regular file is replaced "
	  "atomically, a FIFO or character device is written in place; a symbolic link is "
	  "refused" },
	{ "follow", EXPORT_OPT_FOLLOW, no_argument, NULL, EG_OUTPUT,
	  "let -o FILE be a symbolic link (its target is written)" },
	{ "prometheus", EXPORT_OPT_PROMETHEUS, no_argument, NULL, EG_FORMAT,
	  "Prometheus text format 0.0.4 (the metrics of docs/prometheus.md: wake-up latency "
	  "histogram per CPU, max and percentiles, overruns, IRQs; a noise result's noise "
	  "series)" },
	{ "openmetrics", EXPORT_OPT_OPENMETRICS, no_argument, NULL, EG_FORMAT,
	  "the same in OpenMetrics 1.0" },
	{ "prometheus-textfile", EXPORT_OPT_TEXTFILE, required_argument, "FILE.prom", EG_FORMAT,
	  "--prometheus written atomically to FILE.prom, for node_exporter's textfile "
	  "collector" },
	{ "push", EXPORT_OPT_PUSH, required_argument, "URL", EG_FORMAT,
	  "--prometheus sent to the Pushgateway at URL (http://host:9091), grouped by job "
	  "and instance" },
	{ "job", EXPORT_OPT_JOB, required_argument, "NAME", EG_PUSH,
	  "the push's job label (default rtmeasure)" },
	{ "instance", EXPORT_OPT_INSTANCE, required_argument, "NAME", EG_PUSH,
	  "the push's instance label (default: the result's host)" },
	RTM_OPT_HELP_ROWS(EG_OUTPUT),
	RTM_OPT_END,
};

static const struct rtm_opt_group export_groups[] = {
	[EG_FORMAT] = { NULL, true },
	[EG_OUTPUT] = { NULL, true },
	[EG_PUSH] = { "Pushgateway labels (--push)", false },
};

static const struct rtm_cmd_opts export_cmd = {
	.command = "export",
	.usage = "usage: rtmeasure export (--cyclictest-json | --csv | --csv-gaps | "
		"--prometheus | --openmetrics) [-o FILE] DIR|result.json\n"
		"       rtmeasure export --prometheus-textfile FILE.prom DIR|result.json\n"
		"       rtmeasure export --push URL [--job NAME] [--instance NAME] "
		"DIR|result.json\n\n"
		"Writes a results folder in another tool's format, to stdout or FILE:\n",
	.groups = export_groups,
	.ngroups = sizeof(export_groups) / sizeof(export_groups[0]),
	.tables = { export_opts },
};

struct export_opts {
	int fmt;		/* the format's key: EXPORT_OPT_CSV, ... */
	const char *out;	/* -o or --prometheus-textfile; NULL: stdout */
	const char *push, *job, *instance;
	unsigned int oflags;	/* RTM_OUT_FOLLOW */
	const char *result;	/* the operand */
	int help;		/* RTM_OPT_HELP or RTM_OPT_HELP_ALL: print it and stop */
};

/* Prometheus options that cannot work, found before the result is read. */
static int export_prom_check(int fmt, const char *out, const char *push, const char *job,
			     const char *instance)
{
	size_t n = out ? strlen(out) : 0;

	if (fmt == EXPORT_OPT_TEXTFILE && (n < 6 || strcmp(out + n - 5, ".prom")))
		return rtm_cli_fail("export: --prometheus-textfile %s: node_exporter reads only "
				    "files named *.prom (give FILE.prom)", out);
	if (fmt == EXPORT_OPT_PUSH && out)
		return rtm_cli_fail("export: --push sends the metrics, -o writes them: give one");
	if (fmt == EXPORT_OPT_PUSH && strncmp(push, "http://", 7) && strncmp(push, "https://", 8))
		return rtm_cli_fail("export: --push %s: give the Pushgateway's URL "
				    "(http://host:9091)", push);
	if (!*job || (instance && !*instance))
		return rtm_cli_fail("export: --job and --instance need a name");
	if (fmt != EXPORT_OPT_PUSH && (strcmp(job, "rtmeasure") || instance))
		return rtm_cli_fail("export: --job and --instance go with --push");
	return 0;
}

/* One option of the loop into @o; 0, RTM_EXIT_USAGE after the message, or -1: not ours. */
static int export_opt(struct export_opts *o, int c, const char *arg)
{
	switch (c) {
	case EXPORT_OPT_CYCLICTEST_JSON:
	case EXPORT_OPT_CSV:
	case EXPORT_OPT_CSV_GAPS:
	case EXPORT_OPT_PROMETHEUS:
	case EXPORT_OPT_OPENMETRICS:
	case EXPORT_OPT_TEXTFILE:
	case EXPORT_OPT_PUSH:
		if (o->fmt && o->fmt != c)
			return rtm_cli_fail("export: give one of --cyclictest-json, --csv, "
					    "--csv-gaps, --prometheus, --openmetrics, "
					    "--prometheus-textfile and --push");
		o->fmt = c;
		if (c == EXPORT_OPT_TEXTFILE)
			o->out = arg;
		if (c == EXPORT_OPT_PUSH)
			o->push = arg;
		return 0;
	case EXPORT_OPT_JOB:
		o->job = arg;
		return 0;
	case EXPORT_OPT_INSTANCE:
		o->instance = arg;
		return 0;
	case 'o':
		o->out = arg;
		return 0;
	case EXPORT_OPT_FOLLOW:
		o->oflags |= RTM_OUT_FOLLOW;
		return 0;
	case RTM_OPT_HELP:
	case RTM_OPT_HELP_ALL:
		o->help = c;
		return 0;
	}
	return -1;
}

/* argv into @o; 0 or RTM_EXIT_USAGE after the one-line message. */
static int export_parse(int argc, char **argv, struct export_opts *o)
{
	struct rtm_getopt g;
	int c, ret;

	if (rtm_opts_getopt(&export_cmd, &g))
		return rtm_cli_fail("export: bad option table");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		ret = export_opt(o, c, optarg);
		if (ret < 0)
			return rtm_cli_bad_option("export", g.shortopts, g.longopts, argv);
		if (ret || o->help)
			return ret;
	}
	if (!o->fmt)
		return rtm_cli_fail("export: give --cyclictest-json, --csv, --csv-gaps, --prometheus, "
				    "--openmetrics, --prometheus-textfile or --push (rtmeasure "
				    "export --help)");
	if ((ret = export_prom_check(o->fmt, o->out, o->push, o->job, o->instance)))
		return ret;
	if (optind != argc - 1)
		return rtm_cli_fail("export: give one results folder or result.json");
	o->result = argv[optind];
	if (o->out && !strcmp(o->out, "-"))
		o->out = NULL;	/* stdout, as the usual convention */
	return 0;
}

/*
 * A format @r cannot give (a noise or storage result has no wake-up latency); 0 or the exit
 * status. @noise: a noise run alone; @has_noise: sections.noise, of noise or of
 * run --noise's phase (the same section, so its gaps export alike).
 */
static int export_fits(const struct export_opts *o, const struct rtm_result *r, bool noise,
		       bool has_noise)
{
	/* a storage run has per-operation histograms, no CPU: its page only */
	if (!r->ncpus && json_object_get(r->sections, "io") && (o->fmt == EXPORT_OPT_CSV ||
	    o->fmt == EXPORT_OPT_CSV_GAPS || o->fmt == EXPORT_OPT_CYCLICTEST_JSON))
		return rtm_cli_fail("export: %s holds a storage run (rtmeasure io): its "
				    "operations' histograms export as a Prometheus page (--prometheus, "
				    "--openmetrics, --prometheus-textfile, --push); the rest is in its "
				    "result.json", o->result);
	/* a noise run has no wake-up latency: refused, not an empty file */
	if (o->fmt == EXPORT_OPT_CYCLICTEST_JSON && noise)
		return rtm_cli_fail("export: %s holds a noise result (rtmeasure noise): "
				    "--cyclictest-json exports wake-up latency; use --csv or "
				    "--csv-gaps for its gaps, or --prometheus for its noise series",
				    o->result);
	if (o->fmt == EXPORT_OPT_CSV_GAPS && !has_noise)
		return rtm_cli_fail("export: %s holds no noise result: --csv-gaps lists the gaps "
				    "of rtmeasure noise or run --noise; --csv exports wake-up "
				    "latency", o->result);
	return 0;
}

/* cyclictest --json's document of @r, ended by a newline; NULL when out of memory. */
static char *export_cyclictest(const struct rtm_result *r, const char *path)
{
	char cmdline[4096], *text, *t;
	json_t *j;

	snprintf(cmdline, sizeof(cmdline), "rtmeasure export --cyclictest-json %s", path);
	j = rtm_export_cyclictest_json(r, cmdline);
	text = j ? json_dumps(j, JSON_INDENT(2)) : NULL;
	json_decref(j);
	if (text) {
		t = realloc(text, strlen(text) + 2);
		if (t) {
			text = t;
			strcat(text, "\n");
		}
	}
	return text;
}

/*
 * @r in format @fmt, malloc()ed, *@len bytes; NULL with @err set (a malformed
 * section) or empty (out of memory). *@dropped: gaps beyond the gap list.
 */
static char *export_render(int fmt, const struct rtm_result *r, const char *path, bool noise,
			   size_t *len, uint64_t *dropped, struct rtm_error *err)
{
	char *text = NULL;
	FILE *f;
	int ret;

	if (fmt == EXPORT_OPT_CYCLICTEST_JSON) {
		text = export_cyclictest(r, path);
		*len = text ? strlen(text) : 0;
		return text;
	}
	f = open_memstream(&text, len);
	if (!f)
		return NULL;
	if (fmt == EXPORT_OPT_CSV_GAPS || (fmt == EXPORT_OPT_CSV && noise))
		ret = rtm_export_noise_csv(r, f, fmt == EXPORT_OPT_CSV_GAPS, dropped, err);
	else if (fmt == EXPORT_OPT_CSV)
		ret = rtm_export_csv(r, f);
	else
		ret = rtm_prom_write_result(f, fmt == EXPORT_OPT_OPENMETRICS ?
					    RTM_PROM_OPENMETRICS : RTM_PROM_TEXT, r, err);
	if (fclose(f) || ret) {
		free(text);
		text = NULL;
	}
	return text;
}

/* @text to -o's file (@fd: its FIFO or device, opened at the check) or stdout; the exit status. */
static int export_write(const struct export_opts *o, int fd, const char *text, size_t len)
{
	int ret;

	if (o->out) {
		ret = fd >= 0 ? rtm_stream_write(fd, text, len) :
		      rtm_write_target(o->out, text, len, o->oflags);
		if (ret)
			return rtm_cli_fail("export: cannot write %s: %s", o->out,
					    rtm_write_strerror(ret));
	} else if (fwrite(text, 1, len, stdout) != len || fflush(stdout)) {
		return rtm_cli_fail("export: cannot write to stdout");
	}
	return RTM_EXIT_OK;
}

/* @text sent to the Pushgateway, labelled with the job and instance (or @r's host). */
static int export_push(const struct export_opts *o, const struct rtm_result *r,
		       const char *text, size_t len)
{
	const char *instance = o->instance;
	struct rtm_error err = { "" };

	if (!instance && !(instance = rtm_json_path_str(r->sysinfo, "hostname")))
		return rtm_cli_fail("export: %s does not name its host: give --instance NAME",
				    o->result);
	if (rtm_prom_push(o->push, o->job, instance, text, len, &err))
		return rtm_cli_fail("export: %s", err.msg);
	return RTM_EXIT_OK;
}

/* Read, render and write (@fd: -o's FIFO or device, opened at the check); the exit status. */
static int export_result(const struct export_opts *o, int fd)
{
	struct rtm_error err = { "" };
	struct rtm_result *r;
	uint64_t dropped = 0;
	char *text;
	size_t len = 0;
	bool noise;
	int ret;

	r = rtm_result_load(o->result, &err);
	if (!r)
		return rtm_cli_fail("export: %s", err.msg);
	noise = !r->ncpus && json_object_get(r->sections, "noise");
	if ((ret = export_fits(o, r, noise, json_object_get(r->sections, "noise") != NULL))) {
		rtm_result_free(r);
		return ret;
	}
	text = export_render(o->fmt, r, o->result, noise, &len, &dropped, &err);
	if (text && o->push) {
		ret = export_push(o, r, text, len);
		free(text);
		rtm_result_free(r);
		return ret;
	}
	rtm_result_free(r);
	if (!text && err.msg[0])	/* a malformed section, named */
		return rtm_cli_fail("export: %s: %s", o->result, err.msg);
	if (!text)
		return rtm_cli_fail("export: out of memory");
	ret = export_write(o, fd, text, len);
	free(text);
	if (!ret && dropped)
		fprintf(stderr, "export: warning: %llu gaps were counted beyond result.json's gap "
			"list (rtmeasure noise --max-gaps) and are not listed\n",
			(unsigned long long)dropped);
	return ret;
}

int cmd_export(int argc, char **argv, const struct rtm_cli *cli)
{
	struct export_opts o = { .job = "rtmeasure" };
	int ret, fd = -1;

	ret = export_parse(argc, argv, &o);
	if (o.help)
		rtm_opts_help(&export_cmd, stdout, o.help == RTM_OPT_HELP_ALL);
	if (ret || o.help)
		return ret;
	/*
	 * a symlink, folder or missing folder at -o is refused before any work; a
	 * FIFO is opened now, without waiting: one no process reads is refused too
	 */
	if (o.out && (ret = rtm_target_check(o.out, o.oflags)) == RTM_TARGET_STREAM)
		ret = fd = rtm_stream_open(o.out, o.oflags);
	if (o.out && ret < 0)
		return rtm_cli_fail("export: cannot write %s: %s", o.out, rtm_write_strerror(ret));
	ret = export_result(&o, fd);
	if (fd >= 0)
		close(fd);
	return ret;
}
