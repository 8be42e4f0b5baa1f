/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runreport.h - the report at the end of a measuring session (struct
 * rtm_session_ops's report hook).
 */
#ifndef RTM_RUNREPORT_H
#define RTM_RUNREPORT_H

#include "core/error.h"
#include "result/result.h"

/*
 * report.html, report.md and PNG plots (1000 x 560) of @r into its results folder
 * @dir (a noise result gets its own pages). 0, or -errno with @err set.
 */
int rtm_report_session(const struct rtm_result *r, const char *dir, struct rtm_error *err);

#endif
