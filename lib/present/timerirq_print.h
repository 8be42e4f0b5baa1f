/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timerirq_print.h - the timer IRQ delay of a result (sections.timer_irq, see
 * lib/trace/timerirq.h) next to its wake-up latency, for people.
 */
#ifndef RTM_TIMERIRQ_PRINT_H
#define RTM_TIMERIRQ_PRINT_H

#include <stdio.h>

#include "result/result.h"

/*
 * The run summary's table: per CPU the timer IRQ's p50/p99/p99.9/max next to
 * the wake-up's (from @r's raw histograms) and the matched count; nothing when
 * @r has no sections.timer_irq.
 */
void rtm_timerirq_fprint(const struct rtm_result *r, FILE *f);
/* report.html's table and report.md's, from the same figures. */
void rtm_timerirq_html(const struct rtm_result *r, FILE *f);
void rtm_timerirq_md(const struct rtm_result *r, FILE *f);

#endif
