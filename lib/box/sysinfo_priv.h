/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysinfo_priv.h - what the files of the box's facts share among themselves.
 */
#ifndef RTM_SYSINFO_PRIV_H
#define RTM_SYSINFO_PRIV_H

#include "box/sysinfo.h"

/* si->vm, its source and the hypervisor's names (sysinfo_virt.c). */
void rtm_sysinfo_collect_virt(struct rtm_sysinfo *si);

#endif
