/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io_summary.h - the figures of sections.io (lib/probe/probe_io.h) that every
 * output shows, and its summary for programs (--json of io and run --io).
 */
#ifndef RTM_IO_SUMMARY_H
#define RTM_IO_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/hist.h"

/* Each operation's three histograms, in sections.io.ops.OP: their keys, in this order. */
#define RTM_IO_NFIGURES 3
extern const char *const rtm_io_figures[RTM_IO_NFIGURES];	/* latency, service, lateness */

/* The percentiles every output of sections.io shows: p50, p99, p99.9. */
#define RTM_IO_NPCT 3
extern const double rtm_io_pcts[RTM_IO_NPCT];

/* The figures of one histogram, as the tables, the report and the JSON show them. */
struct rtm_io_figs {
	uint64_t count, min_ns, max_ns;
	double avg_ns;
	uint64_t pct_ns[RTM_IO_NPCT];
	bool pct_ok[RTM_IO_NPCT];	/* rtm_pct_defined(): else shown "-", null in JSON */
};

/* The figures of the histogram object @hj, read into @h; -EINVAL when it does not read back. */
int rtm_io_figs_of(const json_t *hj, struct rtm_hist *h, struct rtm_io_figs *o);

/*
 * The section for programs (--json): per operation its counts and the
 * latency, service and lateness figures in ns (a percentile with too few
 * samples beyond it null), no histograms and no miss list; the target as
 * recorded. NULL when @io is not an I/O section.
 */
json_t *rtm_io_summary_json(const json_t *io);

#endif
