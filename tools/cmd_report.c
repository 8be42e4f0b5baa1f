// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_report.c - rtmeasure report: plots, report.html and report.md of a
 * results folder.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "core/fileio.h"
#include "present/report.h"
#include "cli/cli.h"
#include "rtmeasure.h"

enum {
	REPORT_OPT_SIZE = RTM_OPT_KEY0,
	REPORT_OPT_LOG_X,
	REPORT_OPT_FOLLOW,
};

static const struct rtm_opt report_opts[] = {
	{ "output", 'o', required_argument, "OUT", 0,
	  "where to write (default: the results folder)" },
	{ "format", 'f', required_argument, "LIST", 0,
	  "plot formats, comma separated (default png)" },
	{ "size", REPORT_OPT_SIZE, required_argument, "WxH", 0,
	  "image size in pixels (default 1000x560)" },
	{ "log-x", REPORT_OPT_LOG_X, no_argument, NULL, 0,
	  "logarithmic latency axis in the histogram (default linear, OSADL's, with the "
	  "tail in its own panel when far)" },
	{ "follow", REPORT_OPT_FOLLOW, no_argument, NULL, 0, "let OUT be a symbolic link" },
	RTM_OPT_HELP_ROWS(0),
	RTM_OPT_END,
};

static const struct rtm_opt_group report_groups[] = { { NULL, true } };

static const struct rtm_cmd_opts report_cmd = {
	.command = "report",
	.usage = "usage: rtmeasure report DIR|result.json [-o OUT] [--format png,svg,pdf] "
		"[--log-x]\n\n"
		"Draws the latency histogram (OSADL style), the percentile distribution, the\n"
		"time series of per-interval maxima and the interrupt rates with gnuplot, and\n"
		"writes OUT/report.html (self-contained: images embedded) and OUT/report.md.\n"
		"Of a noise result (rtmeasure noise): the per-CPU noise table, the gap causes\n"
		"when traced, the long gaps and a gap-length histogram.\n",
	.groups = report_groups,
	.ngroups = 1,
	.tables = { report_opts },
};

struct report_cmd_opts {
	struct rtm_report_opts report;	/* plots: formats, size, log x */
	const char *out;		/* -o; NULL: the results folder */
	const char *result;		/* the operand */
	bool follow;
	int help;		/* RTM_OPT_HELP or RTM_OPT_HELP_ALL: print it and stop */
};

/* argv into @o; 0 or RTM_EXIT_USAGE after the one-line message. */
static int report_parse(int argc, char **argv, struct report_cmd_opts *o)
{
	struct rtm_report_opts *r = &o->report;
	struct rtm_error err = { "" };
	struct rtm_getopt g;
	int c;

	if (rtm_opts_getopt(&report_cmd, &g))
		return rtm_cli_fail("report: bad option table");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->out = optarg;
			break;
		case 'f':
			if (rtm_plot_formats_parse(optarg, &r->formats, &err))
				return rtm_cli_fail("report: --format: %s", err.msg);
			break;
		case REPORT_OPT_SIZE:
			if (sscanf(optarg, "%dx%d", &r->width, &r->height) != 2 || r->width < 200 ||
			    r->height < 150 || r->width > 10000 || r->height > 10000)
				return rtm_cli_fail("report: --size '%s': write WIDTHxHEIGHT in pixels, "
						    "200x150 to 10000x10000", optarg);
			break;
		case REPORT_OPT_LOG_X:
			r->log_x = true;
			break;
		case REPORT_OPT_FOLLOW:
			o->follow = true;
			break;
		case RTM_OPT_HELP:
		case RTM_OPT_HELP_ALL:
			o->help = c;
			return 0;
		default:
			return rtm_cli_bad_option("report", g.shortopts, g.longopts, argv);
		}
	}
	if (optind != argc - 1)
		return rtm_cli_fail("report: give one results folder or result.json (rtmeasure "
				    "report --help)");
	o->result = argv[optind];
	return 0;
}

int cmd_report(int argc, char **argv, const struct rtm_cli *cli)
{
	struct report_cmd_opts o = {
		.report = { .formats = 1u << RTM_PLOT_PNG, .width = 1000, .height = 560 },
	};
	struct rtm_error err = { "" };
	char dir[PATH_MAX], file[PATH_MAX];
	struct rtm_result *r;
	int ret;

	ret = report_parse(argc, argv, &o);
	if (o.help)
		rtm_opts_help(&report_cmd, stdout, o.help == RTM_OPT_HELP_ALL);
	if (ret || o.help)
		return ret;
	if (o.out && (ret = rtm_cli_check_outdir("report", o.out, o.follow)))
		return ret;
	rtm_cli_result_path(o.result, dir, sizeof(dir), file, sizeof(file));
	r = rtm_result_load(file, &err);
	if (!r)
		return rtm_cli_fail("report: %s", err.msg);
	o.report.results_dir = dir;
	o.report.out_dir = o.out ? o.out : dir;
	rtm_cli_clean_stages("report", o.report.out_dir);
	ret = rtm_report_write(r, &o.report, &err);
	rtm_result_free(r);
	if (ret)
		return rtm_cli_fail("report: %s", err.msg);
	printf("report: %s/report.html, %s/report.md, plots in %s/plots/\n", o.report.out_dir,
	       o.report.out_dir, o.report.out_dir);
	return RTM_EXIT_OK;
}
