// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_cyclic.c - rtmeasure cyclic: the timer wake-up latency probe alone.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli/measure_opts.h"
#include "present/promlive.h"
#include "present/runreport.h"
#include "cli/cli.h"
#include "rtmeasure.h"
#include "session/session.h"

static void cyclic_usage(FILE *f)
{
	fprintf(f, "usage: rtmeasure cyclic [options]\n\n"
		"cyclictest-style timer wake-up latency: one real-time thread per CPU sleeps\n"
		"until an absolute time and records how late it woke, into exact histograms.\n"
		"Writes a results folder (result.json, histogram.txt) and prints a summary with\n"
		"p99.9 and p99.99. Options that cyclictest users know keep their meaning.\n\n"
		MEASURE_PROBE_HELP MEASURE_RESULT_HELP
		"\nWithout -D or -l it runs until interrupted (Ctrl-C saves what was measured).\n");
}

int cmd_cyclic(int argc, char **argv, const struct rtm_cli *cli)
{
	static const struct option longopts[] = {
		MEASURE_LONGOPTS,
		{ "help", no_argument, NULL, 2000 },
		{ NULL, 0, NULL, 0 },
	};
	const struct rtm_session_ops ops = { .serve = rtm_promlive_serve,
					     .publish = rtm_promlive_publish,
					     .unserve = rtm_promlive_unserve,
					     .summary = rtm_runreport_summary };
	struct rtm_session_opts m;
	int c, ret;

	rtm_session_opts_init(&m, "cyclic");
	m.outf = stdout;
	m.errf = stderr;
	m.stop = cli->stop;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, MEASURE_SHORTOPTS, longopts, NULL)) != -1) {
		if (c == 2000) {
			cyclic_usage(stdout);
			return RTM_EXIT_OK;
		}
		ret = measure_parse_opt(&m, c, argc, argv);
		if (ret == 1)
			continue;
		if (ret)
			return ret;
		return rtm_cli_bad_option("cyclic", MEASURE_SHORTOPTS, longopts, argv);
	}
	if (optind < argc)
		return rtm_cli_fail("cyclic: unexpected argument '%s' (rtmeasure cyclic --help)",
				    argv[optind]);
	ret = rtm_session_run(&m, &ops);
	rtm_session_opts_release(&m);
	return ret;
}
