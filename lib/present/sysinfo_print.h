/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysinfo_print.h - the box's facts and verdicts (lib/box/sysinfo.h) for people.
 */
#ifndef RTM_SYSINFO_PRINT_H
#define RTM_SYSINFO_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "box/sysinfo.h"

/*
 * Human-readable checklist; colour only when @colour (the caller checks isatty),
 * lines wrapped at @width columns (0: no wrapping).
 */
void rtm_sysinfo_fprint(const struct rtm_sysinfo *si, FILE *f, bool colour, int width);

#endif
