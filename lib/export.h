/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export.h - a result in other tools' formats.
 *
 * rt-tests JSON: the layout cyclictest --json writes (file_version 1, the keys
 * "cmdline:" and "rt_test_version:" with rt-tests' stray colon, so scripts
 * written for cyclictest read it unchanged), one thread per CPU with a sparse
 * microsecond histogram. CSV: one line per CPU per non-empty histogram bucket.
 */
#ifndef RTM_EXPORT_H
#define RTM_EXPORT_H

#include <stdio.h>

#include <jansson.h>

#include "result.h"

/**
 * rtm_export_cyclictest_json - the result as cyclictest --json would write it
 * @cmdline: the value of "cmdline:" (the exporting command), may be NULL
 *
 * Each log-linear bucket is counted in the microsecond row of its midpoint
 * (as histogram.txt does); min and max are truncated to microseconds as
 * cyclictest does; "avg" is the exact mean. For an imported result, the
 * samples its source could not place (overflows) are counted in "cycles" but
 * not in the histogram, and a maximum recorded from beyond the rows is taken
 * out of them again, so importing the export gives back the same result.
 * "cpu" is -1 when the result's entries are threads, not CPUs.
 * Returns NULL when out of memory.
 */
json_t *rtm_export_cyclictest_json(const struct rtm_result *r, const char *cmdline);

/**
 * rtm_export_csv - "cpu,lo_ns,hi_ns,count" and one line per non-empty bucket
 *
 * Buckets of the raw histograms in ascending order per CPU; lo_ns and hi_ns
 * are the lowest and highest value the bucket holds. Returns 0 or -EIO.
 */
int rtm_export_csv(const struct rtm_result *r, FILE *f);

#endif
