/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwlat_opts.h - `rtmeasure hwlat`, the noise command for hwlatdetect's users:
 * hwlatdetect's options with its units (--window and --width in microseconds,
 * --duration in seconds with s/m/h/d/w, --threshold and --hardlimit in
 * microseconds), its defaults (10 us, 120 s), and a one-line refusal for those
 * that make no sense here. The rest of the noise command's options stay.
 */
#ifndef RTM_CLI_HWLAT_OPTS_H
#define RTM_CLI_HWLAT_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/measure_opts.h"
#include "cli/opts.h"
#include "session/session.h"

/* The keys of hwlatdetect's options (after any a measuring command has of its own). */
enum hwlat_opt_key {
	HWLAT_OPT_WINDOW = MEASURE_OPT_KEY_END + 64,
	HWLAT_OPT_WIDTH,
	HWLAT_OPT_THRESHOLD,
	HWLAT_OPT_HARDLIMIT,
	HWLAT_OPT_REPORT,
	HWLAT_OPT_CPU_LIST,
	HWLAT_OPT_WATCH,
	HWLAT_OPT_DEBUG,
};

/* What hwlatdetect's options ask for beyond the session's options. */
struct rtm_hwlat_opts {
	const char *report;		/* --report FILE: the samples in hwlatdetect's layout */
	uint64_t hardlimit_ns;		/* --hardlimit; 0: the threshold, as hwlatdetect */
	bool watch;			/* --watch: each sample as it comes */
	bool window_given, width_given;
};

/* hwlatdetect's rows, in group MEASURE_G_OWN (a command's table; RTM_OPT_END ended). */
extern const struct rtm_opt hwlat_opts[];

/* hwlatdetect's defaults into @m: threshold 10 us, duration 120 s. */
void hwlat_defaults(struct rtm_session_opts *m);

/*
 * Option @c of hwlat_opts (-D too: hwlatdetect's w suffix) with its value @arg:
 * 1 taken, 0 not one of them, RTM_EXIT_USAGE after the one-line error.
 */
int hwlat_parse_opt(struct rtm_session_opts *m, struct rtm_hwlat_opts *h, int c,
		    const char *arg);

/*
 * After the options, as hwlatdetect: a --window below the width halves the
 * width into it, a --width above the window doubles the window around it (a
 * note on @errf says so). The hardlimit defaults to the threshold.
 */
void hwlat_settle(struct rtm_session_opts *m, struct rtm_hwlat_opts *h, FILE *errf);

#endif
