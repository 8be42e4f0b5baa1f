/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tmpdir.h - rtmeasure's private temporary folders ($TMPDIR/rtmeasure-KIND.XXXXXX)
 *
 * A folder is locked (flock on the folder itself) for as long as the process
 * that made it lives, so a folder left by a killed run is told from one in
 * use by its lock alone: the next run removes the unlocked ones and says so.
 */
#ifndef RTM_TMPDIR_H
#define RTM_TMPDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

/* The kinds of folder; names outside this list are never removed. */
#define RTM_TMPDIR_KINDS	{ "load", "cost", "monitor" }

/**
 * rtm_tmpdir_make - a new private folder $TMPDIR/rtmeasure-@kind.XXXXXX (mode 0700)
 * @dir, @len: its path
 * @lock_fd: the folder, open and locked; give it to rtm_tmpdir_remove()
 *
 * Returns 0 or -errno with the message (naming TMPDIR as the fix).
 */
int rtm_tmpdir_make(const char *kind, char *dir, size_t len, int *lock_fd,
		    struct rtm_error *err);

/*
 * The same in @top (NULL: $TMPDIR), for files that must be on @top's file system;
 * a killed run's folder there is not swept by rtm_tmpdir_remove_stale().
 */
int rtm_tmpdir_make_in(const char *top, const char *kind, char *dir, size_t len, int *lock_fd,
		       struct rtm_error *err);

/* Remove @dir and all it holds (links are removed, never followed), then unlock it. */
void rtm_tmpdir_remove(const char *dir, int lock_fd);

/**
 * rtm_tmpdir_remove_stale - remove the folders killed runs left in $TMPDIR
 * @removed, @len: their names, comma separated ("" when none)
 *
 * Only folders of a known kind, owned by this user, not links, and not locked
 * by a live process. Returns how many were removed.
 */
int rtm_tmpdir_remove_stale(char *removed, size_t len);

#endif
