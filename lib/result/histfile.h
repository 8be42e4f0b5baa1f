/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * histfile.h - cyclictest's -h / --histfile text layout, so OSADL-style scripts
 * keep working on rtmeasure results.
 *
 *   # Histogram
 *   000000 000000	000000          one row per microsecond: "%06d" then "%06lu" per CPU
 *   ...
 *   # Total: 000060000 000060000   samples inside the rows, per CPU
 *   # Min Latencies: 00014 00013
 *   # Avg Latencies: 00038 00041
 *   # Max Latencies: 01314 00211
 *   # Histogram Overflows: 00000 00000
 *   # Histogram Overflow at cycle number:
 *   # Thread 0:
 *
 * Rows come from the log-linear histogram: each bucket is counted in the row of
 * the microsecond its midpoint falls in, so where a bucket straddles a
 * microsecond boundary (above 4 us, buckets are wider than 16 ns) a sample may
 * land one row off; the totals, min, avg and max are exact. Cycle numbers of
 * overflows are not recorded, so those lines stay empty.
 */
#ifndef RTM_HISTFILE_H
#define RTM_HISTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "result/result.h"

/* Rows used when none are asked for: enough for the largest max, 1000 .. 100000. */
unsigned int rtm_histfile_auto_rows(const struct rtm_result *r);

/**
 * rtm_histfile_write - write the histograms of @r in cyclictest's layout
 * @rows: microsecond rows (cyclictest's -h value); 0 picks rtm_histfile_auto_rows()
 *
 * Returns 0 or -errno.
 */
int rtm_histfile_write(const struct rtm_result *r, FILE *f, unsigned int rows);

/*
 * cyclictest's -H/--histofall: the same with a last column for all CPUs in the
 * rows, Total, Max Latencies and Histogram Overflows (none with one CPU).
 */
int rtm_histfile_write_all(const struct rtm_result *r, FILE *f, unsigned int rows);

#endif
