// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tmpdir.c - private temporary folders that a killed run does not leave for good
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/tmpdir.h"

static const char *tmp_top(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

int rtm_tmpdir_make_in(const char *top, const char *kind, char *dir, size_t len, int *lock_fd,
		       struct rtm_error *err)
{
	const char *tmp = top ? top : tmp_top();
	const char *fix = top ? "" : " (set TMPDIR to a writable folder)";
	int n, fd, e;

	*lock_fd = -1;
	n = snprintf(dir, len, "%s/rtmeasure-%s.XXXXXX", tmp, kind);
	if (n < 0 || (size_t)n + 64 >= len)
		return rtm_error_setn(err, -ENAMETOOLONG, "temporary folder '%s' is too long (set "
				      "TMPDIR to a short path)", tmp);
	if (!mkdtemp(dir)) {
		e = errno;
		return rtm_error_setn(err, -e, "cannot create a temporary folder in %s: %s%s",
				      tmp, strerror(e), fix);
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0) {
		e = errno;
		if (fd >= 0)
			close(fd);
		rmdir(dir);
		return rtm_error_setn(err, -e, "cannot lock the temporary folder %s: %s", dir,
				      strerror(e));
	}
	*lock_fd = fd;
	return 0;
}

int rtm_tmpdir_make(const char *kind, char *dir, size_t len, int *lock_fd,
		    struct rtm_error *err)
{
	return rtm_tmpdir_make_in(NULL, kind, dir, len, lock_fd, err);
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void rtm_tmpdir_remove(const char *dir, int lock_fd)
{
	if (dir && *dir)
		nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	if (lock_fd >= 0)
		close(lock_fd);
}

/* "rtmeasure-KIND.XXXXXX" of a known kind */
static bool ours(const char *name)
{
	static const char *const kinds[] = RTM_TMPDIR_KINDS;
	size_t i, k;

	if (strncmp(name, "rtmeasure-", 10))
		return false;
	name += 10;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		k = strlen(kinds[i]);
		if (!strncmp(name, kinds[i], k) && name[k] == '.' && strlen(name + k + 1) == 6)
			return true;
	}
	return false;
}

static void list_add(char *buf, size_t len, const char *name)
{
	size_t used = strlen(buf);

	if (used + strlen(name) + 3 < len)
		snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
}

int rtm_tmpdir_remove_stale(char *removed, size_t len)
{
	const char *tmp = tmp_top();
	char path[4096];
	struct dirent *de;
	struct stat st;
	int n = 0, fd, top;
	DIR *d;

	if (removed && len)
		removed[0] = '\0';
	top = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = top >= 0 ? fdopendir(top) : NULL;
	if (!d) {
		if (top >= 0)
			close(top);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		if (!ours(de->d_name))
			continue;
		/* a folder of this user's, opened without following a link planted there */
		fd = openat(top, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) || st.st_uid != geteuid() || flock(fd, LOCK_EX | LOCK_NB)) {
			close(fd);	/* another user's, or in use */
			continue;
		}
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", tmp, de->d_name) < sizeof(path)) {
			rtm_tmpdir_remove(path, fd);
			n++;
			if (removed)
				list_add(removed, len, de->d_name);
		} else {
			close(fd);
		}
	}
	closedir(d);
	return n;
}
