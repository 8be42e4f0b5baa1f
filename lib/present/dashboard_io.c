// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dashboard_io.c - rtmeasure monitor --io: the storage probe's panel, a line
 * per operation (requests, p99 and max of the latency from the planned issue
 * time, misses of the deadline, the latest miss and what its own times say of
 * it), on the screen and in the plain-text form.
 */
#include <stdio.h>

#include <curses.h>

#include "core/stats.h"
#include "core/units.h"
#include "present/dashboard.h"
#include "present/dashboard_priv.h"
#include "session/monitor.h"

/*
 * An operation's cells from its figures (lib/session/monitor_io.c collects
 * them). The latest miss is told by the probe's own clock: issued late (the
 * thread ran late) when the lateness was the larger part, else served late
 * (the request was slow once issued); its block-level cause is io --causes'.
 */
void rtm_dash_io_cells(const struct rtm_mon_io *row, char cells[RTM_DASH_IO_CELLS][64])
{
	const struct rtm_io_miss *m = &row->last;
	char a[16], b[16];

	snprintf(cells[0], sizeof(cells[0]), "%s", rtm_io_op_name((enum rtm_io_op)row->op));
	snprintf(cells[1], sizeof(cells[1]), "%llu", (unsigned long long)row->requests);
	if (rtm_pct_defined(row->count, 99))	/* "-" until samples enough lie beyond it */
		rtm_fmt_ns(cells[2], sizeof(cells[2]), row->p99_ns);
	else
		snprintf(cells[2], sizeof(cells[2]), "-");
	if (row->count)
		rtm_fmt_ns(cells[3], sizeof(cells[3]), row->max_ns);
	else
		snprintf(cells[3], sizeof(cells[3]), "-");
	snprintf(cells[4], sizeof(cells[4]), "%llu", (unsigned long long)row->misses);
	if (!row->missed) {
		snprintf(cells[5], sizeof(cells[5]), "-");
		return;
	}
	rtm_fmt_ns(a, sizeof(a), m->done_ns - m->planned_ns);
	if (m->issue_ns - m->planned_ns > m->done_ns - m->issue_ns) {
		rtm_fmt_ns(b, sizeof(b), m->issue_ns - m->planned_ns);
		snprintf(cells[5], sizeof(cells[5]), "%s: issued %s late", a, b);
	} else {
		rtm_fmt_ns(b, sizeof(b), m->done_ns - m->issue_ns);
		snprintf(cells[5], sizeof(cells[5]), "%s: service %s", a, b);
	}
}

/* --io: the storage panel, a line per operation. */
void rtm_dash_draw_io(const struct rtm_dash *d, int y, int rows)
{
	const struct rtm_mon *mo = d->mo;
	char cells[RTM_DASH_IO_CELLS][64], dl[16] = "-", head[64], who[16];
	int i;

	if (mo->io_probe.deadline_ns)
		rtm_fmt_ns(dl, sizeof(dl), mo->io_probe.deadline_ns);
	snprintf(head, sizeof(head), "misses >%s", dl);
	snprintf(who, sizeof(who), "io CPU%d", mo->io_probe.cpu);
	attron(A_BOLD | (d->colours ? COLOR_PAIR(PAIR_HEAD) : 0));
	mvprintw(y, 0, "%-10s %9s %9s %9s %12s  %s", who, "requests", "p99", "max", head,
		 "latest miss: latency from plan, its larger part");
	attroff(A_BOLD | (d->colours ? COLOR_PAIR(PAIR_HEAD) : 0));
	for (i = 0; i < rows - 1 && i < mo->nio; i++) {
		rtm_dash_io_cells(&mo->io[i], cells);
		mvprintw(y + 1 + i, 0, "%-10.10s %9s %9s %9s %12s  %.*s", cells[0], cells[1],
			 cells[2], cells[3], cells[4], COLS > 56 ? COLS - 56 : 0, cells[5]);
	}
}

/* --io: a line per operation in the plain-text form. */
void rtm_dash_io_plain(const struct rtm_mon *mo, FILE *f)
{
	char cells[RTM_DASH_IO_CELLS][64], dl[16] = "";
	int i;

	if (mo->io_probe.deadline_ns)
		rtm_fmt_ns(dl, sizeof(dl), mo->io_probe.deadline_ns);
	for (i = 0; i < mo->nio; i++) {
		rtm_dash_io_cells(&mo->io[i], cells);
		fprintf(f, "io %s CPU%d: %s requests, p99 %s, max %s, %s misses%s%s, latest miss "
			"%s\n", cells[0], mo->io_probe.cpu, cells[1], cells[2], cells[3], cells[4],
			dl[0] ? " over " : " (no deadline)", dl, cells[5]);
	}
}
