/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export.h - a result in other tools' formats.
 *
 * rt-tests JSON: the layout cyclictest --json writes (file_version 1, the keys
 * "cmdline:" and "rt_test_version:" with rt-tests' stray colon, so scripts
 * written for cyclictest read it unchanged), one thread per CPU with a sparse
 * microsecond histogram; "generator" names the rtmeasure that wrote it. CSV:
 * one line per CPU per non-empty histogram bucket.
 */
#ifndef RTM_EXPORT_H
#define RTM_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/error.h"
#include "result/result.h"

/**
 * rtm_export_cyclictest_json - the result as cyclictest --json would write it
 * @cmdline: the exporting command, may be NULL: the value of "cmdline:" unless
 *	the result is an import whose source named its command line, which is kept
 *	there ("exported_by.command" has the exporting one)
 *
 * Each log-linear bucket is counted in the microsecond row of its midpoint
 * (as histogram.txt does), except the lowest and the highest sample, which go
 * to the rows of the exact min and max, so the max lies in the top row; min
 * and max are truncated to microseconds as cyclictest does; "avg" is the
 * exact mean. An imported result writes its source's own rows back instead
 * (sections.provenance "rows", when they fit microsecond rows) and its stated
 * "avg" (null when the source had none and samples lie beyond its rows);
 * the samples its source could not place (overflows) are counted in "cycles"
 * but not in the histogram, and a maximum recorded from beyond the rows is
 * taken out of them again, so importing the export gives back the same
 * counts, min, avg and max. "cpu" is -1 when the result's entries are
 * threads, not CPUs; "node" is the source's (-1 for none, as cyclictest -S
 * writes), else 0. "rt_test_version:" is written only with cyclictest's own
 * "cmdline:" (an import that named both): rtmeasure's version is not rt-tests'.
 * What disturbed the run (result/disturb.h) is under
 * "rtmeasure_warnings", [{"id", "message"}], a key rt-tests' readers skip.
 * Returns NULL when out of memory.
 */
json_t *rtm_export_cyclictest_json(const struct rtm_result *r, const char *cmdline);

/**
 * rtm_export_csv - "cpu,lo_ns,hi_ns,count" and one line per non-empty bucket
 *
 * Buckets of the raw histograms in ascending order per CPU; lo_ns and hi_ns
 * are the lowest and highest value the bucket holds. What disturbed the run
 * comes first, a comment line each (rtm_export_csv_warnings). Returns 0 or
 * -EIO.
 */
int rtm_export_csv(const struct rtm_result *r, FILE *f);

/*
 * What disturbed the run (result/disturb.h) as CSV comment lines,
 * "# warning KEY: sentence", before the header (readers skip them with
 * pandas' comment="#", R's comment.char or grep -v '^#'); nothing when none.
 */
void rtm_export_csv_warnings(const struct rtm_result *r, FILE *f);

/**
 * rtm_export_noise_csv - a noise result's sections.noise as CSV
 * @gaps: false: "cpu,gap_lo_ns,gap_hi_ns,count", one line per CPU per non-empty
 *        bucket of the gap-length histogram (as rtm_export_csv's buckets);
 *        true: "cpu,start_ns,length_ns", one line per gap of gap_list, start
 *        relative to sections.noise.start_mono_ns (CLOCK_MONOTONIC)
 * @dropped: with @gaps, set to the gaps counted but not in gap_list (beyond
 *           --max-gaps), over all CPUs: what the CSV does not list; else 0 (the
 *           histogram holds every gap)
 *
 * The warnings' comment lines (rtm_export_csv_warnings) come first. Returns 0,
 * -EIO on a write error, or -EINVAL with a message in @err when the section is
 * missing or malformed.
 */
int rtm_export_noise_csv(const struct rtm_result *r, FILE *f, bool gaps, uint64_t *dropped,
			 struct rtm_error *err);

#endif
