/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * events.h - the events a tracefs instance records (lib/tracefs/instance.c's
 * set-up): presets, system:event names and filters.
 */
#ifndef RTM_EVENTS_H
#define RTM_EVENTS_H

#include <stdbool.h>

#include "core/error.h"

struct tracefs_instance;

/* The default set: what --trace records when no events are named. */
#define RTM_TRACE_PRESETS "sched,irq,timer,ipi,nmi"

/*
 * Switch on @list (presets and system:event names, comma separated; NULL: the
 * default set, without the optional groups this kernel lacks) in @inst. A
 * preset group comes without its bookkeeping events (sched_stat_runtime,
 * hrtimer_setup, hrtimer_init, timer_init) unless @list names them; "irq"
 * brings irq_vectors along. 0, or -errno with a one-line message in @err.
 */
int rtm_events_enable(struct tracefs_instance *inst, const char *list, struct rtm_error *err);
/* A group the default set goes without where the kernel lacks it (ipi, nmi). */
bool rtm_events_optional(const char *name);
/* "system:event:expression" into the event's filter file; the kernel's complaint in @err. */
int rtm_events_filter(struct tracefs_instance *inst, const char *spec, struct rtm_error *err);

#endif
