/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary_print.h - the summary table of a result (lib/result/summary.h) for people.
 */
#ifndef RTM_SUMMARY_PRINT_H
#define RTM_SUMMARY_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "result/summary.h"

/*
 * Human table: samples, min, avg, p50, p99, p99.9, p99.99, max, overruns in us;
 * unknown figures as rtm_summary_fmt_unknown() writes them. Then, when the run
 * traced them, the RT holds, the timer IRQ table and the spike census.
 */
void rtm_summary_fprint(const struct rtm_result *r, FILE *f);
/* The same with the latencies in ns when @nsecs (cyclictest's -N). */
void rtm_summary_fprint_unit(const struct rtm_result *r, FILE *f, bool nsecs);

#endif
