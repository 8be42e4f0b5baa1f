/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * census_print.h - the spike census for people, from a loaded or freshly built
 * sections.spike_census (lib/trace/census.h); nothing when the section is NULL.
 */
#ifndef RTM_CENSUS_PRINT_H
#define RTM_CENSUS_PRINT_H

#include <stdio.h>

#include <jansson.h>

/* The summary's lines, report.html's table and report.md's, from sections.spike_census. */
void rtm_census_fprint(const json_t *sec, FILE *f);
void rtm_census_html(const json_t *sec, FILE *f);
void rtm_census_md(const json_t *sec, FILE *f);

#endif
