/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * noise_print.h - sections.noise (lib/probe/probe_noise.h) and its gap causes
 * (lib/trace/noiseattr.h) for people.
 */
#ifndef RTM_NOISE_PRINT_H
#define RTM_NOISE_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/*
 * The table rtla osnoise top users know (runtime, noise, % CPU available, max
 * single gap, gaps, the loop's sample period), the time sampled against the
 * wall time, and the gaps above report_above, the longest first: compact, the
 * 3 longest per CPU on one line and the top contributor of the gap causes
 * (rtm_noiseattr_fprint()); @verbose, the 10 longest one a line with their
 * time and cause, and the top 3 contributors. -EINVAL when @noise is not a
 * noise section, -ENOMEM.
 */
int rtm_noise_fprint(const json_t *noise, FILE *f, bool verbose);

/*
 * What the run's time figures measure, into @buf: "sampled 2.500 s per CPU in
 * 4.510 s of wall time (duty cycle 50%: busy 500 ms of every 1.00 s)"; unknown
 * parts said so. Returns @buf.
 */
char *rtm_noise_time_text(const json_t *noise, char *buf, size_t len);

/* The causes per CPU like rtla osnoise top's columns, and the top @top contributors. */
void rtm_noiseattr_fprint(const json_t *noise, FILE *f, int top);

#endif
