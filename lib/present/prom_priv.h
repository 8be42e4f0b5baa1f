/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prom_priv.h - what the files of the Prometheus page share: prom_page.c's
 * writers, which prom.c (the page) and prom_wakeup.c (the families of
 * rtmeasure wakeup's result) write with.
 */
#ifndef RTM_PROM_PRIV_H
#define RTM_PROM_PRIV_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "present/prom.h"

struct rtm_prom_page {
	FILE *f;
	enum rtm_prom_format fmt;
	const struct rtm_prom_target *t;
};

/* The names and help of the per-CPU latency families (histogram, max, percentiles). */
struct rtm_prom_latency {
	const char *hist, *hist_help;
	const char *max, *max_help;
	const char *pct, *pct_help;
};

/* The box's own tasks' waits, wake-up to switch-in (rtmeasure wakeup). */
extern const struct rtm_prom_latency rtm_prom_task_latency;

/* The family's header (@type "counter", "gauge", "histogram" or "info"; @unit NULL or
 * "seconds"); @name is the family name (OpenMetrics counters: no _total). */
void rtm_prom_family(struct rtm_prom_page *p, const char *name, const char *type,
		     const char *unit, const char *help);
/*
 * One sample: name+suffix{target labels, cpu="@cpu" when >= 0, @extra's pairs};
 * @extra is a NULL-terminated list of key, value strings.
 */
void rtm_prom_sample(struct rtm_prom_page *p, const char *name, const char *suffix, int cpu,
		     const char *const *extra, const char *value);
void rtm_prom_sample_u64(struct rtm_prom_page *p, const char *name, const char *suffix,
			 int cpu, const char *const *extra, uint64_t v);
/* A counter's sample(s): _total, and _created in OpenMetrics; @name without _total. */
void rtm_prom_counter(struct rtm_prom_page *p, const char *name, int cpu,
		      const char *const *extra, const char *value);
void rtm_prom_counter_u64(struct rtm_prom_page *p, const char *name, int cpu,
			  const char *const *extra, uint64_t v);
/* @ns as exact decimal seconds: "0.000035", "3.5", "0". */
const char *rtm_prom_secs(char *buf, size_t len, uint64_t ns);

/*
 * sections.wakeup (or a live copy of it): the waits over the bound, the
 * wake-ups lost, and the tasks with the longest waits, at most
 * RTM_PROM_WAKEUP_TASKS of them, each labelled comm, pid and tgid.
 */
void rtm_prom_wakeup_tasks(struct rtm_prom_page *p, const json_t *wk);

#endif
