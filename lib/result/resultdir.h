/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * resultdir.h - a results folder as cyclic and run write it: is a result
 * already there, and clearing the files rtmeasure wrote (--force).
 */
#ifndef RTM_RESULTDIR_H
#define RTM_RESULTDIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * rtm_resultdir_find - the first file of an earlier result in folder @dirfd
 * (result.json, histogram.txt, report.html, report.md, plots/, spikes/);
 * true with its name in @what, false when there is none.
 */
bool rtm_resultdir_find(int dirfd, char *what, size_t len);

/**
 * rtm_resultdir_clear - remove what cyclic, run and report wrote in @dirfd
 *
 * result.json, histogram.txt, report.html, report.md, the .png, .svg and
 * .pdf files in plots/, the .dat files in plots/data/, spikes/spike-NNN.txt
 * and .json, then plots/data, plots and
 * spikes when that left them empty. Nothing else is touched, no symbolic
 * link is followed. Returns 0 or the first -errno.
 */
int rtm_resultdir_clear(int dirfd);

#endif
