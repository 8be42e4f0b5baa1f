/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * import.h - other tools' latency output as rtmeasure results.
 *
 * Formats, recognised by their content (never by the file name):
 *   - cyclictest -h / -H / --histfile text (rt-tests 2.4 dense rows with
 *     "# Total:", rt-tests >= 2.5 sparse rows; the -H all-threads column; the
 *     -b trailer "# Break thread:" / "# Break value:")
 *   - rt-tests --json of cyclictest and oslat ("cmdline:" and
 *     "rt_test_version:" keys with their stray colon)
 *   - rtla timerlat hist and rtla osnoise hist text (us or --nano ns; IRQ,
 *     Thr and Usr columns); osnoise hist gives a noise result (sections.noise)
 *   - rtla osnoise top text and rt-tests' hwlatdetect output (stdout or its
 *     --report file): noise results (sections.noise, backend "osnoise-imported"
 *     or "hwlat-imported")
 *
 * What a source cannot tell is stated in sections.provenance, not guessed:
 * samples beyond a histogram's last row have no known value and stay out of
 * the histogram (counted as "overflows"), except the maximum, which is a
 * known sample. See docs/result-schema.md, "sections.provenance".
 */
#ifndef RTM_IMPORT_H
#define RTM_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "result/result.h"

enum rtm_import_format {
	RTM_IMPORT_UNKNOWN = 0,
	RTM_IMPORT_CYCLICTEST_HIST,	/* cyclictest -h / --histfile text */
	RTM_IMPORT_RTTESTS_JSON,	/* cyclictest / oslat --json */
	RTM_IMPORT_RTLA_HIST,		/* rtla timerlat hist / osnoise hist text */
	RTM_IMPORT_RTLA_OSNOISE_TOP,	/* rtla osnoise top text (-q or the screen) */
	RTM_IMPORT_HWLATDETECT,		/* rt-tests hwlatdetect stdout or --report file */
};

struct rtm_import_opts {
	/* cyclictest text: the CPU list of the run's -a (thread i ran on the i-th
	 * CPU of the list, as cyclictest assigns them); NULL: CPUs unknown */
	const char *affinity;
	bool nsecs;		/* cyclictest text recorded with -N/--nsecs (rows in ns) */
	uint64_t rtla_bucket;	/* rtla -b value in the file's unit; 0: from the rows */
	/* the run's command line for a source that does not name it (cyclictest
	 * text): its options are taken as from rt-tests JSON's "cmdline:" */
	const char *command_line;
	/* the format the caller names (-F); RTM_IMPORT_UNKNOWN: by the content. The
	 * content must still be of that format: a mismatch is refused, not forced */
	enum rtm_import_format format;
};

/* The name of a format ("cyclictest-hist", "rt-tests-json", "rtla-hist",
 * "rtla-osnoise-top", "hwlatdetect"), and back (RTM_IMPORT_UNKNOWN: no such). */
const char *rtm_import_format_name(enum rtm_import_format f);
enum rtm_import_format rtm_import_format_parse(const char *name);

/* The format of @text by its content; RTM_IMPORT_UNKNOWN when none fits. */
enum rtm_import_format rtm_import_detect(const char *text, size_t len);

/**
 * rtm_import_buffer - turn one tool output into a result
 * @name: the file name, used in messages and provenance
 * @o: options, may be NULL
 *
 * Returns a result (command "import", tool the imported tool and version,
 * sections.provenance filled) or NULL with errno EINVAL (ENOMEM) and a
 * one-line message naming @name in @err when the input is empty, truncated,
 * corrupt, inconsistent or of an unknown format. Nothing is written.
 */
struct rtm_result *rtm_import_buffer(const char *text, size_t len, const char *name,
				     const struct rtm_import_opts *o, struct rtm_error *err);

/* rtm_import_buffer() on a file's content; "created" falls back to its mtime. */
struct rtm_result *rtm_import_file(const char *path, const struct rtm_import_opts *o,
				   struct rtm_error *err);

#endif
