/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dashboard_priv.h - what the dashboard's files share: the colour pairs and the
 * attribute of a level.
 */
#ifndef RTM_DASHBOARD_PRIV_H
#define RTM_DASHBOARD_PRIV_H

#include <curses.h>

#include "present/dashboard.h"
#include "present/dashfmt.h"

enum { PAIR_OK = 1, PAIR_WARN, PAIR_ALERT, PAIR_HEAD, PAIR_STATUS };

/* Colour (or, on a monochrome terminal, bold / reverse) by threshold. */
attr_t rtm_dash_level_attr(const struct rtm_dash *d, enum rtm_level l);
/* --noise-cpus: the noise panel at row @y, @rows high. */
void rtm_dash_draw_noise(const struct rtm_dash *d, int y, int rows);
/* --io: the storage panel at row @y, @rows high. */
void rtm_dash_draw_io(const struct rtm_dash *d, int y, int rows);
/* --wakeup: the tasks panel at row @y, @rows high. */
void rtm_dash_draw_wakeup(const struct rtm_dash *d, int y, int rows);

#endif
