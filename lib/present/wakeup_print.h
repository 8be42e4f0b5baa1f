/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wakeup_print.h - rtmeasure wakeup's sections.wakeup for people: what was
 * measured, the tasks with the longest waits, the causes of the long ones.
 */
#ifndef RTM_WAKEUP_PRINT_H
#define RTM_WAKEUP_PRINT_H

#include <stdio.h>

#include <jansson.h>

/* The tasks table of @wk (sections.wakeup), with the lost counts when there are any. */
void rtm_wakeup_fprint_tasks(FILE *f, const json_t *wk);

/* Waits said one by one by rtm_wakeup_fprint_census(), the longest first. */
#define RTM_WAKEUP_PRINT_LONGEST	10

/*
 * The census of @wk (sections.wakeup) when it has one: its sentence, one per CPU,
 * the table of culprits, the longest waits each in a sentence, what was not sent.
 */
void rtm_wakeup_fprint_census(FILE *f, const json_t *wk);

#endif
