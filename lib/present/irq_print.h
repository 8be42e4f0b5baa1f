/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irq_print.h - what `rtmeasure irq` prints: the rates table, the affinity
 * list (text and JSON) and the interrupt time accounting table.
 */
#ifndef RTM_IRQ_PRINT_H
#define RTM_IRQ_PRINT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/units.h"
#include "irq/charged.h"
#include "irq/handlers.h"
#include "irq/irq.h"

/*
 * One table of the interval @d (a difference; without an interval, counts
 * since boot): the top @top rows on the CPUs of @cpus (NULL: all), a column
 * per CPU when there are at most 8, the softirqs, and with @a (may be NULL)
 * the handler times. @elapsed_s: since the start (0: the average since boot);
 * @lost: trace events lost so far.
 */
void rtm_irq_table_print(FILE *f, const struct rtm_irq_snap *d, const struct rtm_irqacct *a,
			 const struct rtm_cpulist *cpus, int top, double elapsed_s, uint64_t lost);

/*
 * Every numbered IRQ of @s (affinity read) with its affinity, effective
 * affinity, node, IRQ thread (from @th) and actions, flagged when it may land
 * on the isolated CPUs @iso; then a line on the isolated CPUs.
 */
void rtm_irq_affinity_print(FILE *f, const struct rtm_irq_snap *s,
			    const struct rtm_irq_threads *th, const struct rtm_cpulist *iso);
/* The same as {"isolated_cpus", "irqs": [{"irq", "actions", "affinity", ...}]}. */
json_t *rtm_irq_affinity_to_json(const struct rtm_irq_snap *s,
				 const struct rtm_irq_threads *th, const struct rtm_cpulist *iso);

/*
 * irq --accounting: the kernel's accounting, one line per task (the @top
 * busiest, and every IRQ thread), one per CPU, and what it means for the
 * busiest task.
 */
void rtm_charged_run_print(FILE *f, const struct rtm_charged_run *run, int top);

#endif
