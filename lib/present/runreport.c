// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runreport.c - the report a measuring session writes into its results folder at
 * the end (run, noise): report.html, report.md and PNG plots, as
 * struct rtm_session_ops's report hook.
 */
#include "present/plot.h"
#include "present/report.h"
#include "present/runreport.h"

int rtm_report_session(const struct rtm_result *r, const char *dir, struct rtm_error *err)
{
	struct rtm_report_opts ro = { .results_dir = dir, .out_dir = dir,
				      .formats = 1u << RTM_PLOT_PNG, .width = 1000,
				      .height = 560 };

	return rtm_report_write(r, &ro, err);
}
