/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * noise_print.h - sections.noise (lib/probe/probe_noise.h) and its gap causes
 * (lib/trace/noiseattr.h) for people.
 */
#ifndef RTM_NOISE_PRINT_H
#define RTM_NOISE_PRINT_H

#include <stdio.h>

#include <jansson.h>

/*
 * The table rtla osnoise top users know (runtime, noise, % CPU available, max
 * single gap, gaps, the loop's sample period) and the gaps above report_above,
 * at most @max_listed per CPU, then the gap causes (rtm_noiseattr_fprint(), top
 * 3). -EINVAL when @noise is not a noise section.
 */
int rtm_noise_fprint(const json_t *noise, FILE *f, int max_listed);

/* The causes per CPU like rtla osnoise top's columns, and the top @top contributors. */
void rtm_noiseattr_fprint(const json_t *noise, FILE *f, int top);

#endif
