// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_sysinfo.c - rtmeasure sysinfo: the RT-readiness checklist.
 */
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli.h"
#include "rtmeasure.h"
#include "box/sysinfo.h"
#include "present/sysinfo_print.h"

static void sysinfo_usage(FILE *f)
{
	fprintf(f, "usage: rtmeasure sysinfo [--json] [--root DIR]\n\n"
		"Reports the kernel, preemption model, boot options, CPU frequency and idle\n"
		"settings, SMT, RT throttling, THP, irqbalance, timer migration, clocksource,\n"
		"virtualisation and tracing features, each with a one-line RT verdict.\n\n"
		"  -j, --json       machine-readable JSON (schema rtmeasure-sysinfo/1)\n"
		"  -r, --root DIR   read a recorded tree instead of the live system\n"
		"      --help       this help\n");
}

int cmd_sysinfo(int argc, char **argv, const struct rtm_cli *cli)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 2000 },
		{ NULL, 0, NULL, 0 },
	};
	const char *root = "/";
	struct rtm_error err = { "" };
	struct rtm_sysinfo *si;
	bool json = false;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "jr:", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'r':
			root = optarg;
			break;
		case 2000:
			sysinfo_usage(stdout);
			return RTM_EXIT_OK;
		default:
			return rtm_cli_bad_option("sysinfo", "jr:", longopts, argv);
		}
	}
	if (optind < argc)
		return rtm_cli_fail("sysinfo: unexpected argument '%s' (rtmeasure sysinfo --help)",
				    argv[optind]);
	if (access(root, R_OK | X_OK) != 0)
		return rtm_cli_fail("sysinfo: cannot read root directory %s (give an existing "
				    "recorded tree or /)", root);

	si = rtm_sysinfo_collect(root, &err);
	if (!si)
		return rtm_cli_fail("%s", err.msg);
	if (json) {
		json_t *j = rtm_sysinfo_to_json(si);
		int ret = json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

		fputc('\n', stdout);
		json_decref(j);
		rtm_sysinfo_free(si);
		return ret ? rtm_cli_fail("sysinfo: cannot write JSON to stdout") : RTM_EXIT_OK;
	}
	rtm_sysinfo_fprint(si, stdout, rtm_cli_colour(STDOUT_FILENO), rtm_cli_width(STDOUT_FILENO));
	rtm_sysinfo_free(si);
	return RTM_EXIT_OK;
}
