// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dashboard_noise.c - rtmeasure monitor --noise-cpus: the noise panel, a row
 * per noise CPU (noise %, largest gap and its cause, the main cause class), on
 * the screen and in the plain-text form.
 */
#include <stdio.h>

#include <curses.h>

#include "core/units.h"
#include "present/dashboard.h"
#include "present/dashboard_priv.h"
#include "session/monitor.h"
#include "trace/noiseattr.h"

/* A noise CPU's cells from its figures (lib/session/monitor_noise.c collects them). */
void rtm_dash_noise_cells(const struct rtm_mon *mo, int i, char cells[RTM_DASH_NOISE_CELLS][64])
{
	const struct rtm_mon_noise *mn = &mo->noise[i];
	int k, top = -1;

	snprintf(cells[0], sizeof(cells[0]), "%d", mn->cpu);
	if (mn->sampled_ns)
		snprintf(cells[1], sizeof(cells[1]), "%.3f%%",
			 100.0 * (double)mn->noise_ns / (double)mn->sampled_ns);
	else
		snprintf(cells[1], sizeof(cells[1]), "-");
	rtm_fmt_ns(cells[2], sizeof(cells[2]), mn->max_gap_ns);
	snprintf(cells[3], sizeof(cells[3]), "%llu", (unsigned long long)mn->gaps);
	for (k = 0; k < RTM_NOISE_NCLASSES; k++)
		if (mn->class_ns[k] && (top < 0 || mn->class_ns[k] > mn->class_ns[top]))
			top = k;
	if (!mo->nhold) {
		snprintf(cells[4], sizeof(cells[4]), "(not traced)");
		snprintf(cells[5], sizeof(cells[5]), "-");
		return;
	}
	if (mn->caused_max_ns) {
		char l[16];

		rtm_fmt_ns(l, sizeof(l), mn->caused_max_ns);
		snprintf(cells[4], sizeof(cells[4]), "%.44s (%s)", mn->max_cause, l);
	} else {
		snprintf(cells[4], sizeof(cells[4]), "-");
	}
	if (top >= 0)
		snprintf(cells[5], sizeof(cells[5]), "%s %.0f%%",
			 rtm_noise_class_name((enum rtm_noise_class)top),
			 100.0 * (double)mn->class_ns[top] / (double)(mn->noise_ns ? mn->noise_ns :
			 1));
	else
		snprintf(cells[5], sizeof(cells[5]), "-");
}

/* --noise-cpus: the noise panel, a row per noise CPU. */
void rtm_dash_draw_noise(const struct rtm_dash *d, int y, int rows)
{
	const struct rtm_mon *mo = d->mo;
	char cells[RTM_DASH_NOISE_CELLS][64];
	int i;

	attron(A_BOLD | (d->colours ? COLOR_PAIR(PAIR_HEAD) : 0));
	mvprintw(y, 0, "%-5s %9s %9s %9s  %-40s %s", "noise", "noise %", "max gap", "gaps",
		 "largest gap's cause", mo->noise_note[0] ? mo->noise_note : "main cause");
	attroff(A_BOLD | (d->colours ? COLOR_PAIR(PAIR_HEAD) : 0));
	for (i = 0; i < rows - 1 && i < mo->nn; i++) {
		rtm_dash_noise_cells(mo, i, cells);
		mvprintw(y + 1 + i, 0, "%-5s %9s %9s %9s  %-40.40s %.*s", cells[0], cells[1],
			 cells[2], cells[3], cells[4], COLS > 78 ? COLS - 78 : 0, cells[5]);
	}
}
