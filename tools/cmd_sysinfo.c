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
#include "cli/opts.h"

static const struct rtm_opt sysinfo_opts[] = {
	{ "json", 'j', no_argument, NULL, 0,
	  "machine-readable JSON (schema rtmeasure-sysinfo/1)" },
	{ "root", 'r', required_argument, "DIR", 0,
	  "read a recorded tree instead of the live system" },
	RTM_OPT_HELP_ROWS(0),
	RTM_OPT_END,
};

static const struct rtm_opt_group sysinfo_groups[] = { { NULL, true } };

static const struct rtm_cmd_opts sysinfo_cmd = {
	.command = "sysinfo",
	.usage = "usage: rtmeasure sysinfo [--json] [--root DIR]\n\n"
		"Reports the kernel, preemption model, boot options, CPU frequency and idle\n"
		"settings, SMT, RT throttling, THP, irqbalance, timer migration, clocksource,\n"
		"virtualisation and tracing features, each with a one-line RT verdict.\n",
	.groups = sysinfo_groups,
	.ngroups = 1,
	.tables = { sysinfo_opts },
};

struct sysinfo_opts {
	const char *root;
	bool json;
	int help;		/* RTM_OPT_HELP or RTM_OPT_HELP_ALL: print it and stop */
};

/* argv into @o; 0 or RTM_EXIT_USAGE after the one-line message. */
static int sysinfo_parse(int argc, char **argv, struct sysinfo_opts *o)
{
	struct rtm_getopt g;
	int c;

	if (rtm_opts_getopt(&sysinfo_cmd, &g))
		return rtm_cli_fail("sysinfo: bad option table");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			o->json = true;
			break;
		case 'r':
			o->root = optarg;
			break;
		case RTM_OPT_HELP:
		case RTM_OPT_HELP_ALL:
			o->help = c;
			return 0;
		default:
			return rtm_cli_bad_option("sysinfo", g.shortopts, g.longopts, argv);
		}
	}
	if (optind < argc)
		return rtm_cli_fail("sysinfo: unexpected argument '%s' (rtmeasure sysinfo --help)",
				    argv[optind]);
	return 0;
}

int cmd_sysinfo(int argc, char **argv, const struct rtm_cli *cli)
{
	struct sysinfo_opts o = { .root = "/" };
	struct rtm_error err = { "" };
	struct rtm_sysinfo *si;
	int ret;

	ret = sysinfo_parse(argc, argv, &o);
	if (o.help)
		rtm_opts_help(&sysinfo_cmd, stdout, o.help == RTM_OPT_HELP_ALL);
	if (ret || o.help)
		return ret;
	if (access(o.root, R_OK | X_OK) != 0)
		return rtm_cli_fail("sysinfo: cannot read root directory %s (give an existing "
				    "recorded tree or /)", o.root);

	si = rtm_sysinfo_collect(o.root, &err);
	if (!si)
		return rtm_cli_fail("%s", err.msg);
	if (o.json) {
		json_t *j = rtm_sysinfo_to_json(si);

		ret = json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(j);
		rtm_sysinfo_free(si);
		return ret ? rtm_cli_fail("sysinfo: cannot write JSON to stdout") : RTM_EXIT_OK;
	}
	rtm_sysinfo_fprint(si, stdout, rtm_cli_colour(STDOUT_FILENO), rtm_cli_width(STDOUT_FILENO));
	rtm_sysinfo_free(si);
	return RTM_EXIT_OK;
}
