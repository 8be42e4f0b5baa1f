/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtholds_print.h - the real-time tasks that held a CPU over the bound, for
 * people, from a loaded or freshly built sections.rt_holds (lib/trace/rtholds.h);
 * nothing when the section is NULL.
 */
#ifndef RTM_RTHOLDS_PRINT_H
#define RTM_RTHOLDS_PRINT_H

#include <stdio.h>

#include <jansson.h>

/* The run summary's block from sections.rt_holds. */
void rtm_rtholds_fprint(const json_t *sec, FILE *f);
/* report.html's section from sections.rt_holds. */
void rtm_rtholds_html(const json_t *sec, FILE *f);
/* report.md's paragraph and list from sections.rt_holds. */
void rtm_rtholds_md(const json_t *sec, FILE *f);

#endif
