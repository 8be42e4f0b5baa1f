// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_cyclic.c - rtmeasure cyclic: the timer wake-up latency probe alone.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/measure_opts.h"
#include "cli/opts.h"
#include "present/promlive.h"
#include "present/runreport.h"
#include "rtmeasure.h"
#include "session/session.h"

static const struct rtm_opt cyclic_opts[] = {
	RTM_OPT_HELP_ROWS(MEASURE_G_HELP),
	RTM_OPT_END,
};

static const struct rtm_opt_group cyclic_groups[] = {
	[MEASURE_G_OWN] = { NULL, true },
	MEASURE_GROUPS,
};

static const struct rtm_cmd_opts cyclic_cmd = {
	.command = "cyclic",
	.usage = "usage: rtmeasure cyclic [options]\n\n"
		"cyclictest-style timer wake-up latency: one real-time thread per CPU sleeps\n"
		"until an absolute time and records how late it woke, into exact histograms.\n"
		"Writes a results folder (result.json, histogram.txt) and prints a summary with\n"
		"p99.9 and p99.99. Options that cyclictest users know keep their meaning.\n",
	.groups = cyclic_groups,
	.ngroups = sizeof(cyclic_groups) / sizeof(cyclic_groups[0]),
	.tables = { measure_opts_probe, measure_opts_results, measure_opts_system,
		    measure_opts_trace, measure_opts_refused, cyclic_opts },
	.epilog = MEASURE_EPILOG
		"\nWithout -D or -l it runs until interrupted (Ctrl-C saves what was measured).\n",
};

/* The options into @m: -1 to go on, else the exit status (help, a bad option). */
static int cyclic_parse(struct rtm_session_opts *m, int argc, char **argv)
{
	struct rtm_getopt g;
	int c, ret;

	if (rtm_opts_getopt(&cyclic_cmd, &g))
		return rtm_cli_fail("cyclic: bad option table");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c == RTM_OPT_HELP || c == RTM_OPT_HELP_ALL) {
			rtm_opts_help(&cyclic_cmd, stdout, c == RTM_OPT_HELP_ALL);
			return RTM_EXIT_OK;
		}
		ret = measure_parse_opt(m, c, argc, argv);
		if (ret == 1)
			continue;
		if (ret)
			return ret;
		return rtm_cli_bad_option("cyclic", g.shortopts, g.longopts, argv);
	}
	if (optind < argc)
		return rtm_cli_fail("cyclic: unexpected argument '%s' (rtmeasure cyclic --help)",
				    argv[optind]);
	return -1;
}

/* "rtmeasure cyclic ARGS" as typed, joined as cyclictest joins its own for "cmdline:". */
static char *cyclic_cmdline(int argc, char **argv)
{
	size_t len = sizeof("rtmeasure");
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "rtmeasure");
	for (i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int cmd_cyclic(int argc, char **argv, const struct rtm_cli *cli)
{
	const struct rtm_session_ops ops = { .serve = rtm_promlive_serve,
					     .publish = rtm_promlive_publish,
					     .unserve = rtm_promlive_unserve,
					     .summary = rtm_runreport_summary };
	char *cmdline = cyclic_cmdline(argc, argv);
	struct rtm_session_opts m;
	int ret;

	if (!cmdline)
		return rtm_cli_fail("cyclic: out of memory");
	rtm_session_opts_init(&m, "cyclic");
	m.outf = stdout;
	m.errf = stderr;
	m.stop = cli->stop;
	/* --json=FILE as cyclictest writes it; --json alone prints rtmeasure's summary */
	m.out.json_file_rttests = true;
	m.out.cmdline = cmdline;
	ret = cyclic_parse(&m, argc, argv);
	if (ret < 0)
		ret = rtm_session_run(&m, &ops);
	rtm_session_opts_release(&m);
	free(cmdline);
	return ret;
}
