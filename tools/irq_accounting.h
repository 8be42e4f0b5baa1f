/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irq_accounting.h - rtmeasure irq --accounting (tools/irq_accounting.c).
 */
#ifndef RTM_IRQ_ACCOUNTING_H
#define RTM_IRQ_ACCOUNTING_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/units.h"

struct irq_acct_opts {
	uint64_t duration_ns;		/* 0: until interrupted */
	const struct rtm_cpulist *cpus;	/* n == 0: all */
	int top;			/* task rows (IRQ threads always shown) */
	bool json;
	const volatile sig_atomic_t *stop;	/* set: end the run, print what was counted */
};

/* Measure, print the table (or JSON); returns the exit status. */
int irq_accounting(const struct irq_acct_opts *o);

#endif
