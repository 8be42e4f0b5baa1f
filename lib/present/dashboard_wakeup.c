// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dashboard_wakeup.c - rtmeasure monitor --wakeup: the box's own tasks, worst
 * first (lib/session/monitor_wakeup.c collects them): per task its name, pid,
 * policy and priority, wake-ups, average and longest wait from the wake-up to
 * the switch-in, and the waits over the bound; as many as fit, "+N more" when
 * not all do. No percentiles: the programs keep none per task.
 */
#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "core/units.h"
#include "present/dashboard.h"
#include "present/dashboard_priv.h"
#include "probe/wakeup_cause.h"
#include "session/monitor.h"

#define PLAIN_TASKS RTM_WAKEUP_TOP	/* the plain form's tasks a refresh */

void rtm_dash_wakeup_cells(const struct rtm_wk_task *t, char cells[RTM_DASH_WK_CELLS][64])
{
	snprintf(cells[0], sizeof(cells[0]), "%.*s", (int)strnlen(t->comm, sizeof(t->comm)),
		 t->comm);
	snprintf(cells[1], sizeof(cells[1]), "%u", t->pid);
	rtm_wakeup_sched_words(t->policy, t->prio, cells[2], sizeof(cells[2]));
	snprintf(cells[3], sizeof(cells[3]), "%llu", (unsigned long long)t->count);
	if (t->count) {
		rtm_fmt_ns(cells[4], sizeof(cells[4]), t->sum_ns / t->count);
		rtm_fmt_ns(cells[5], sizeof(cells[5]), t->max_ns);
	} else {
		snprintf(cells[4], sizeof(cells[4]), "-");
		snprintf(cells[5], sizeof(cells[5]), "-");
	}
	snprintf(cells[6], sizeof(cells[6]), "%llu", (unsigned long long)t->above);
}

/* --wakeup: the tasks panel, a heading and a task a line. */
void rtm_dash_draw_wakeup(const struct rtm_dash *d, int y, int rows)
{
	const struct rtm_mon *mo = d->mo;
	attr_t hot = d->colours ? COLOR_PAIR(PAIR_ALERT) | A_BOLD : A_BOLD;
	char cells[RTM_DASH_WK_CELLS][64], bound[16], over[24], more[32] = "";
	int i, n, left;

	rtm_fmt_ns(bound, sizeof(bound), mo->wk_sel.above_ns);
	snprintf(over, sizeof(over), ">%s", bound);
	n = rtm_dash_wakeup_shown(rows, mo->nwk, &left);
	if (left)
		snprintf(more, sizeof(more), "  +%d more", left);
	attron(A_BOLD | (d->colours ? COLOR_PAIR(PAIR_HEAD) : 0));
	mvprintw(y, 0, "%-18s %7s %-10s %9s %9s %9s %9s%s", "tasks, worst first", "pid", "policy",
		 "wake-ups", "avg", "max", over, more);
	attroff(A_BOLD | (d->colours ? COLOR_PAIR(PAIR_HEAD) : 0));
	if (!mo->nwk && rows > 1)
		mvprintw(y + 1, 0, "no wake-up of a selected task yet");
	for (i = 0; i < n; i++) {
		const struct rtm_wk_task *t = &mo->wk_snap->tasks[i];

		rtm_dash_wakeup_cells(t, cells);
		if (t->above)	/* waits over the bound: the alert's colour (bold without) */
			attron(hot);
		mvprintw(y + 1 + i, 0, "%-18s %7s %-10s %9s %9s %9s %9s", cells[0], cells[1],
			 cells[2], cells[3], cells[4], cells[5], cells[6]);
		if (t->above)
			attroff(hot);
	}
}

/* --wakeup: the plain-text form's lines, the worst tasks first. */
void rtm_dash_wakeup_plain(const struct rtm_mon *mo, FILE *f)
{
	char cells[RTM_DASH_WK_CELLS][64], bound[16];
	int i, n, left;

	if (!mo->wk_on)
		return;
	rtm_fmt_ns(bound, sizeof(bound), mo->wk_sel.above_ns);
	if (!mo->nwk) {
		fprintf(f, "wakeup: no wake-up of a selected task yet\n");
		return;
	}
	n = rtm_dash_wakeup_shown(PLAIN_TASKS + 1, mo->nwk, &left);
	for (i = 0; i < n; i++) {
		rtm_dash_wakeup_cells(&mo->wk_snap->tasks[i], cells);
		fprintf(f, "wakeup %s pid %s %s: %s wake-ups, avg %s, max %s, %s over %s\n",
			cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6], bound);
	}
	if (left)
		fprintf(f, "wakeup: +%d more tasks\n", left);
}
