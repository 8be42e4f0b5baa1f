/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dashboard.h - rtmeasure monitor's screen (ncurses) and its plain-text form,
 * drawn from what lib/session/monitor.h collects. Collecting and drawing are
 * separate, as in htop: the display's own state (colours, the panel in focus,
 * the scroll position, paused or showing the help) lives here, the figures there.
 */
#ifndef RTM_DASHBOARD_H
#define RTM_DASHBOARD_H

#include <stdbool.h>
#include <stdio.h>

#include "present/dashfmt.h"

struct rtm_mon;

#define RTM_DASH_NOISE_CELLS 6		/* CPU, noise %, max gap, gaps, its cause, main class */
#define RTM_DASH_IO_CELLS 6		/* op, requests, p99, max, misses, the latest miss */
#define RTM_DASH_WK_CELLS 7		/* comm, pid, policy, wake-ups, avg, max, over the bound */

struct rtm_dash {
	struct rtm_mon *mo;		/* what is shown */
	FILE *out;			/* the plain-text form's stream */
	bool colours, utf8;		/* the terminal's, set by rtm_dash_init() */
	bool paused, help;
	enum rtm_dash_panel focus;
	int scroll;
	int spikes_printed;		/* the plain form's spike lines so far */
};

/* The screen taken (curses), the terminal's colours and UTF-8 into @d. */
void rtm_dash_init(struct rtm_dash *d);
void rtm_dash_end(void);
void rtm_dash_draw(struct rtm_dash *d);
/* Arrow keys, PgUp/PgDn, Home/End: scroll the CPU table. */
void rtm_dash_scroll_key(struct rtm_dash *d, int key);
/* Wait up to @ms for a key; -1 when none (curses ERR). */
int rtm_dash_getkey(int ms);
/* Plain text, one block per refresh (not a terminal, or --once), on d->out. */
void rtm_dash_print_plain(struct rtm_dash *d);
/* --noise-cpus: noise CPU @i's cells (lib/present/dashboard_noise.c). */
void rtm_dash_noise_cells(const struct rtm_mon *mo, int i, char cells[RTM_DASH_NOISE_CELLS][64]);
/* --io: an operation's cells (lib/present/dashboard_io.c). */
struct rtm_mon_io;
void rtm_dash_io_cells(const struct rtm_mon_io *row, char cells[RTM_DASH_IO_CELLS][64]);
/* --io: a line per operation of the plain-text form. */
void rtm_dash_io_plain(const struct rtm_mon *mo, FILE *f);
/* --wakeup: a task's cells (lib/present/dashboard_wakeup.c). */
struct rtm_wk_task;
void rtm_dash_wakeup_cells(const struct rtm_wk_task *t, char cells[RTM_DASH_WK_CELLS][64]);
/* --wakeup: the tasks' lines of the plain-text form, the worst first. */
void rtm_dash_wakeup_plain(const struct rtm_mon *mo, FILE *f);

#endif
