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

/*
 * The tasks @wk's selection took: "real-time tasks (fifo, rr, deadline)", "tasks of
 * policy other", "the threads of process 1234", "the threads named cyclictest".
 */
void rtm_wakeup_selection_text(char *buf, size_t len, const json_t *wk);

/*
 * One sentence saying what a wakeup result measured (the box's own tasks, from
 * wake-up to switch-in, the selection) and that it is not the timer probe's
 * wake-up latency, so no reader takes one for the other; of monitor --wakeup's
 * (beside_probe true), that the tasks were measured beside the timer probe.
 */
void rtm_wakeup_what_text(char *buf, size_t len, const json_t *wk);

/* report.html's and report.md's section: what was measured, the tasks table. */
void rtm_wakeup_html(FILE *f, const json_t *wk);
void rtm_wakeup_md(FILE *f, const json_t *wk);

#endif
