/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stage.h - a set of files saved all or nothing (a report: its pages, plots and
 * data files). They are written into a hidden staging folder inside their own
 * folder, on the same file system, and renamed into place only when every one
 * was written: a full disk fails while writing the stage, and renames need no
 * space. On any error the stage is removed with what it holds, so the folder
 * keeps what it had and gains no part of the set. The stage is locked (flock
 * on the folder) while it is written: one a killed process left (SIGKILL
 * allows no clean-up) is unlocked, and the next writer there removes it.
 */
#ifndef RTM_STAGE_H
#define RTM_STAGE_H

#include <stddef.h>

#include "core/error.h"

/* Writes its files into @dir (a staging folder); 0 or -errno with @err set. */
typedef int (*rtm_stage_fn)(const char *dir, void *arg, struct rtm_error *err);

/**
 * rtm_stage_write - run @fn on a staging folder in @dir, then move its files in
 * @dir: created when missing, and removed again when @fn fails (followed when
 *	it is a symbolic link, as a user-named folder is)
 *
 * Subfolders of the stage (plots/, plots/data/) are made in @dir without
 * following a symbolic link, and a file's name in @dir must be free, a
 * regular file or a symbolic link (replaced, never followed); a folder, FIFO
 * or device node there fails the whole set. All that is checked, and the
 * folders made, before the first file is moved. The staging folder's name
 * never reaches @err: it reads as @dir. Returns 0 or -errno with @err set.
 */
int rtm_stage_write(const char *dir, rtm_stage_fn fn, void *arg, struct rtm_error *err);

/**
 * rtm_stage_remove_stale - remove the stages killed processes left in @dir
 * @removed, @len: their names, comma separated ("" when none; may be NULL)
 *
 * Only ".rtm-stage-XXXXXX" folders of this user's, not links, whose lock no
 * live writer holds. Returns how many were removed (0 when @dir is missing).
 */
int rtm_stage_remove_stale(const char *dir, char *removed, size_t len);

#endif
