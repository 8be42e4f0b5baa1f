/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_print.h - sections.io (lib/probe/probe_io.h) for people and programs.
 */
#ifndef RTM_IO_PRINT_H
#define RTM_IO_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/hist.h"
#include "result/io_summary.h"

/* A row's cells as shown: min, avg, p50, p99, p99.9, max in us (rtm_fmt_us()) or "-". */
#define RTM_IO_NCELLS (3 + RTM_IO_NPCT)
void rtm_io_cells(const struct rtm_io_figs *x, char cells[RTM_IO_NCELLS][16]);

/*
 * The summary table: per operation in use, a row of its latency from the
 * planned time (samples, min, avg, p50, p99, p99.9, max, misses; a percentile
 * with too few samples beyond it "-"), a row of its
 * service time and one of its issue lateness; then the target and scheduler,
 * the deadline and the first misses. -EINVAL when @io is not an I/O section
 * (a histogram that does not read back), -ENOMEM.
 */
int rtm_io_fprint(const json_t *io, FILE *f);

#endif
