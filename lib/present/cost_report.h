/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cost_report.h - a run's "throughput" section (lib/box/cost.h) for people.
 */
#ifndef RTM_COST_REPORT_H
#define RTM_COST_REPORT_H

#include <stdio.h>

#include <jansson.h>

/* One line for people: "throughput (stress-ng 0.15.06, 2 workers, 10 s each): cpu 1234 ..." */
void rtm_cost_fprint(const json_t *section, FILE *f);

/* report.html / report.md of a run: a "Throughput" part (nothing without a section). */
void rtm_cost_html(const json_t *section, FILE *f);
void rtm_cost_md(const json_t *section, FILE *f);

#endif
