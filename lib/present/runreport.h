/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runreport.h - what a measuring session shows at its end, as hooks of struct
 * rtm_session_ops: the summary table and the report in its results folder.
 */
#ifndef RTM_RUNREPORT_H
#define RTM_RUNREPORT_H

#include <stdio.h>

#include "core/error.h"
#include "result/result.h"
#include "session/session.h"

/*
 * The summary of @r: a latency probe's table (-N: in ns), with run --noise's
 * noise table after it; the noise probe's table.
 */
void rtm_runreport_summary(const struct rtm_session_opts *o, const struct rtm_result *r,
			   FILE *f);
/*
 * report.html, report.md and PNG plots (1000 x 560) of @r into its results folder
 * @dir (a noise result gets its own pages). 0, 1 with @err set when gnuplot or
 * the plot templates are not installed (nothing drawn, nothing to fix in @dir),
 * or -errno with @err set.
 */
int rtm_runreport_write(const struct rtm_result *r, const char *dir, struct rtm_error *err);

#endif
