/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wakeup_print.h - rtmeasure wakeup's sections.wakeup for people: what was
 * measured and the tasks with the longest waits.
 */
#ifndef RTM_WAKEUP_PRINT_H
#define RTM_WAKEUP_PRINT_H

#include <stdio.h>

#include <jansson.h>

/* The tasks table of @wk (sections.wakeup), with the lost counts when there are any. */
void rtm_wakeup_fprint_tasks(FILE *f, const json_t *wk);

#endif
