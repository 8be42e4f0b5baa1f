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

#include "present/report.h"
#include "cli/cli.h"
#include "rtmeasure.h"

static void report_usage(FILE *f)
{
	fprintf(f, "usage: rtmeasure report DIR|result.json [-o OUT] [--format png,svg,pdf] "
		"[--log-x]\n\n"
		"Draws the latency histogram (OSADL style), the percentile distribution, the\n"
		"time series of per-interval maxima and the interrupt rates with gnuplot, and\n"
		"writes OUT/report.html (self-contained: images embedded) and OUT/report.md.\n"
		"Of a noise result (rtmeasure noise): the per-CPU noise table, the gap causes\n"
		"when traced, the long gaps and a gap-length histogram.\n\n"
		"  -o, --output OUT     where to write (default: the results folder)\n"
		"      --follow         let OUT be a symbolic link\n"
		"  -f, --format LIST    plot formats, comma separated (default png)\n"
		"      --size WxH       image size in pixels (default 1000x560)\n"
		"      --log-x          logarithmic latency axis in the histogram (default\n"
		"                       linear, OSADL's, with the tail in its own panel when far)\n"
		"      --help           this help\n");
}

int cmd_report(int argc, char **argv, const struct rtm_cli *cli)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 1001 },
		{ "log-x", no_argument, NULL, 1002 },
		{ "follow", no_argument, NULL, 2010 },
		{ "help", no_argument, NULL, 2000 },
		{ NULL, 0, NULL, 0 },
	};
	struct rtm_report_opts o = { .formats = 1u << RTM_PLOT_PNG, .width = 1000, .height = 560 };
	struct rtm_error err = { "" };
	char dir[PATH_MAX], file[PATH_MAX];
	const char *out = NULL;
	struct rtm_result *r;
	bool follow = false;
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:f:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'f':
			if (rtm_plot_formats_parse(optarg, &o.formats, &err))
				return rtm_cli_fail("report: --format: %s", err.msg);
			break;
		case 1001:
			if (sscanf(optarg, "%dx%d", &o.width, &o.height) != 2 || o.width < 200 ||
			    o.height < 150 || o.width > 10000 || o.height > 10000)
				return rtm_cli_fail("report: --size '%s': write WIDTHxHEIGHT in pixels, "
						    "200x150 to 10000x10000", optarg);
			break;
		case 1002:
			o.log_x = true;
			break;
		case 2010:
			follow = true;
			break;
		case 2000:
			report_usage(stdout);
			return RTM_EXIT_OK;
		default:
			return rtm_cli_bad_option("report", "o:f:", longopts, argv);
		}
	}
	if (optind != argc - 1)
		return rtm_cli_fail("report: give one results folder or result.json (rtmeasure "
				    "report --help)");
	if (out && (ret = rtm_cli_check_outdir("report", out, follow)))
		return ret;
	rtm_cli_result_path(argv[optind], dir, sizeof(dir), file, sizeof(file));
	r = rtm_result_load(file, &err);
	if (!r)
		return rtm_cli_fail("report: %s", err.msg);
	o.results_dir = dir;
	o.out_dir = out ? out : dir;
	ret = rtm_report_write(r, &o, &err);
	rtm_result_free(r);
	if (ret)
		return rtm_cli_fail("report: %s", err.msg);
	printf("report: %s/report.html, %s/report.md, plots in %s/plots/\n", o.out_dir, o.out_dir,
	       o.out_dir);
	return RTM_EXIT_OK;
}
