/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwlat_print.h - a noise result as hwlatdetect (rt-tests) prints and writes
 * its samples, for `rtmeasure hwlat`: a sample is a gap above the threshold,
 * its time the gap's CLOCK_MONOTONIC start.
 */
#ifndef RTM_HWLAT_PRINT_H
#define RTM_HWLAT_PRINT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/error.h"
#include "session/session.h"

/*
 * hwlatdetect's result lines ("Max Latency: 3864us" or "Max Latency: Below
 * threshold", "Samples recorded: N", "Samples exceeding threshold: N", "SMIs
 * during run: N" when the gap causes counted them). Returns the largest sample
 * in ns (0: none).
 */
uint64_t rtm_hwlat_summary_fprint(const json_t *noise, FILE *f);

/*
 * Every sample of @noise into @f, the earliest first, one a line as
 * hwlatdetect's --report: "ts: 1234.567890123, inner:42, outer:0, cpu:1" (the
 * busy loop's gap lies between two reads of one loop: inner). The count into
 * *@n; 0, or -EINVAL with @err set for a malformed gap list, -ENOMEM.
 */
int rtm_hwlat_report_fprint(const json_t *noise, FILE *f, uint64_t *n, struct rtm_error *err);

/* --watch: the samples printed so far per measuring thread. */
struct rtm_hwlat_watch;

struct rtm_hwlat_watch *rtm_hwlat_watch_alloc(void);
void rtm_hwlat_watch_free(struct rtm_hwlat_watch *w);
/* The busy loop's samples since the last call, in the report's layout, onto @f. */
void rtm_hwlat_watch_fprint(struct rtm_hwlat_watch *w, const struct rtm_session_live *live,
			    FILE *f);
/* At the end: the samples of @noise's gap lists not printed yet (logged after the last call). */
void rtm_hwlat_watch_rest(struct rtm_hwlat_watch *w, const json_t *noise, FILE *f);

#endif
