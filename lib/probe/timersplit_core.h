/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timersplit_core.h - the kernel fields the timer IRQ split programs read, as
 * CO-RE definitions relocated against the running kernel's BTF when they load
 * (as wakeup_core.h, whose task_struct they share).
 */
#ifndef RTM_TIMERSPLIT_CORE_H
#define RTM_TIMERSPLIT_CORE_H

#include "probe/wakeup_core.h"

struct timerqueue_node {
	long long expires;
} __attribute__((preserve_access_index));

struct hrtimer {
	struct timerqueue_node node;
	void *function;
} __attribute__((preserve_access_index));

#endif
