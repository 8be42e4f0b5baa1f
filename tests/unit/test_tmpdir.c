// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: private temporary folders (core/tmpdir.c). A folder in use is
 * locked; what a killed run left is removed by the next, and nothing else:
 * not a folder in use, not a link planted under one of the names, not a
 * name of another kind.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/tmpdir.h"
#include "../tap.h"

static char top[PATH_MAX];

static bool there(const char *name)
{
	char path[PATH_MAX + 64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", top, name);
	return lstat(path, &st) == 0;
}

static void make(const char *name)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", top, name);
	if (mkdir(path, 0700) || (snprintf(path, sizeof(path), "%s/%s/f", top, name),
				  close(open(path, O_CREAT | O_WRONLY, 0600))))
		exit(99);
}

int main(void)
{
	char dir[PATH_MAX], removed[512], path[PATH_MAX + 64];
	struct rtm_error err = { "" };
	int fd, busy, n;

	snprintf(top, sizeof(top), "%s/rtm-tmpdir-test.XXXXXX", getenv("TMPDIR") ?: "/tmp");
	if (!mkdtemp(top))
		return 99;
	setenv("TMPDIR", top, 1);

	ok(rtm_tmpdir_make("load", dir, sizeof(dir), &fd, &err) == 0 && fd >= 0,
	   "a new folder (%s)", err.msg);
	ok(!strncmp(dir, top, strlen(top)) && strstr(dir, "/rtmeasure-load."), "named %s", dir);
	/* the folder of a live run: locked, so another open of it cannot lock it */
	busy = open(dir, O_RDONLY | O_DIRECTORY);
	ok(busy >= 0 && flock(busy, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK,
	   "a folder in use is locked");
	if (busy >= 0)
		close(busy);

	make("rtmeasure-cost.AbC123");		/* left by a killed run: unlocked */
	make("rtmeasure-monitor.zz9Zz9");
	make("rtmeasure-other.abcdef");		/* not a kind of ours */
	make("rtmeasure-load.toolongname");	/* not mkdtemp's six characters */
	make("elsewhere");
	snprintf(path, sizeof(path), "%s/rtmeasure-load.LiNk00", top);
	if (symlink("elsewhere", path))
		return 99;

	n = rtm_tmpdir_remove_stale(removed, sizeof(removed));
	ok(n == 2, "two folders of killed runs removed (%d: %s)", n, removed);
	ok(strstr(removed, "rtmeasure-cost.AbC123") && strstr(removed, "rtmeasure-monitor.zz9Zz9"),
	   "and named: %s", removed);
	ok(!there("rtmeasure-cost.AbC123") && !there("rtmeasure-monitor.zz9Zz9"), "they are gone");
	ok(there(strrchr(dir, '/') + 1), "the folder in use stays");
	ok(there("rtmeasure-load.LiNk00") && there("elsewhere/f"),
	   "a link planted under a name is neither removed nor followed");
	ok(there("rtmeasure-other.abcdef") && there("rtmeasure-load.toolongname"),
	   "names that are not ours stay");
	ok(rtm_tmpdir_remove_stale(removed, sizeof(removed)) == 0 && !removed[0],
	   "nothing more to remove");

	rtm_tmpdir_remove(dir, fd);
	ok(!there(strrchr(dir, '/') + 1), "a run removes its own folder");

	setenv("TMPDIR", "/nonexistent-tmp-for-test", 1);
	ok(rtm_tmpdir_make("cost", dir, sizeof(dir), &fd, &err) < 0 && fd == -1 &&
	   strstr(err.msg, "TMPDIR"), "no writable TMPDIR: the fix named (%s)", err.msg);

	snprintf(path, sizeof(path), "rm -rf '%s'", top);
	if (system(path))
		return 99;
	return tap_done();
}
