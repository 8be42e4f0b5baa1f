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

/*
 * The section for programs (--json): per operation its counts and the
 * latency, service and lateness figures in ns (a percentile with too few
 * samples beyond it null), no histograms and no miss list; the target as recorded. NULL when @io is not an I/O section.
 */
json_t *rtm_io_summary_json(const json_t *io);

#endif
