/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * disturb.h - what disturbed a run, said once for every output.
 *
 * A result's numbers can be right and still mislead: another rtmeasure
 * measured the same CPUs (sections.shared_cpus), a signal stopped the run
 * before the duration it was asked for, the probe missed more than 1% of its
 * periods, or the box was a virtual machine or an emulator. This module
 * decides which of these a result carries and says each in one sentence with
 * a stable key; the report's banner, compare's warnings and verdicts, export,
 * the Prometheus page, the summary and the monitor print these and no other.
 */
#ifndef RTM_DISTURB_H
#define RTM_DISTURB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "result/result.h"

/* Missed periods (overruns) beyond this fraction of all periods are a disturbance. */
#define RTM_DISTURB_MISSED_FRAC	0.01

/* The kinds, in the order a result's list gives them; their keys in rtm_disturb_keys. */
enum rtm_disturb_kind {
	RTM_DISTURB_SHARED_CPUS,	/* "shared_cpus" */
	RTM_DISTURB_INTERRUPTED,	/* "interrupted" */
	RTM_DISTURB_MISSED,		/* "missed_periods" */
	RTM_DISTURB_HYPERVISOR,		/* "hypervisor" */
	RTM_DISTURB_EMULATED,		/* "emulated" */
	RTM_DISTURB_NKEYS
};
extern const char *const rtm_disturb_keys[RTM_DISTURB_NKEYS];

struct rtm_disturbance {
	const char *key;	/* one of rtm_disturb_keys */
	enum rtm_disturb_kind kind;
	char text[512];		/* one line, no final period */
};

struct rtm_disturbances {
	int n;
	struct rtm_disturbance d[RTM_DISTURB_NKEYS];
};

/* What disturbed @r, in key order; out->n 0 when nothing did. */
void rtm_result_disturbances(const struct rtm_result *r, struct rtm_disturbances *out);

/* The entry of @key in @d, or NULL. */
const struct rtm_disturbance *rtm_disturbances_find(const struct rtm_disturbances *d,
						    const char *key);

/* [{"id": key, "message": text}, ...] in @d's order (an empty array when none). */
json_t *rtm_disturbances_to_json(const struct rtm_disturbances *d);

/*
 * The sentence of sections.shared_cpus: @cpus a CPU list ("0-1"), @pid the
 * other run's (0: unknown); @live: said while measuring ("measures ... too")
 * instead of after the run ("measured ... during this run").
 */
void rtm_disturb_shared_text(char *buf, size_t len, const char *cpus, long pid, bool live);

/*
 * The length of a run as measured, exact to 0.1 s, with what was asked when a
 * signal stopped it early: "40.0 s", "2.4 s of 60 s asked, stopped by SIGINT",
 * "2.4 s, stopped by SIGINT" (no length asked).
 */
void rtm_result_duration_text(const struct rtm_result *r, char *buf, size_t len);

/*
 * The same from its parts (the monitor has no result): @asked_ns 0 when none
 * was asked, @signame "" or NULL when not known.
 */
void rtm_disturb_duration_text(char *buf, size_t len, uint64_t measured_ns, uint64_t asked_ns,
			       const char *signame);

/*
 * The missed-periods sentence for @overruns missed of @samples + @overruns
 * periods, @kept: the corrected histogram is in result.json; false, @buf
 * untouched, when they are not more than RTM_DISTURB_MISSED_FRAC.
 */
bool rtm_disturb_missed_text(char *buf, size_t len, uint64_t samples, uint64_t overruns,
			     bool kept);

/*
 * "interrupted after 2.4 s of 60 s asked, stopped by SIGINT: the figures cover
 * only the time measured": the interrupted run's sentence from its parts.
 */
void rtm_disturb_interrupted_text(char *buf, size_t len, uint64_t measured_ns,
				  uint64_t asked_ns, const char *signame);

#endif
