/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_print.h - sections.io (lib/probe/probe_io.h) for people and programs.
 */
#ifndef RTM_IO_PRINT_H
#define RTM_IO_PRINT_H

#include <stdio.h>

#include <jansson.h>

/*
 * The summary table: per operation in use, a row of its latency from the
 * planned time (samples, min, avg, p50, p99, p99.9, max, misses), a row of its
 * service time and one of its issue lateness; then the target and scheduler,
 * the deadline and the first misses. -EINVAL when @io is not an I/O section
 * (a histogram that does not read back), -ENOMEM.
 */
int rtm_io_fprint(const json_t *io, FILE *f);

/*
 * The section for programs (--json): per operation its counts and the
 * latency, service and lateness figures in ns, no histograms and no miss
 * list; the target as recorded. NULL when @io is not an I/O section.
 */
json_t *rtm_io_summary_json(const json_t *io);

#endif
