// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * resultdir.c - an earlier result in a results folder, found and cleared.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "result/resultdir.h"

static const char *const top_files[] = { "result.json", "histogram.txt", "report.html",
					 "report.md", "plots", "spikes" };

bool rtm_resultdir_find(int dirfd, char *what, size_t len)
{
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(top_files) / sizeof(top_files[0]); i++) {
		if (fstatat(dirfd, top_files[i], &st, AT_SYMLINK_NOFOLLOW) == 0) {
			snprintf(what, len, "%s", top_files[i]);
			return true;
		}
	}
	return false;
}

static bool has_suffix(const char *name, const char *const *suffixes)
{
	size_t n = strlen(name), k;

	for (; *suffixes; suffixes++) {
		k = strlen(*suffixes);
		if (n > k && !strcmp(name + n - k, *suffixes))
			return true;
	}
	return false;
}

/* Remove the regular files of @rel named @prefix*<suffix>, then @rel if empty. */
static int clear_sub(int dirfd, const char *rel, const char *prefix,
		     const char *const *suffixes)
{
	struct dirent *de;
	struct stat st;
	int fd, ret = 0;
	DIR *d;

	fd = rtm_dir_open_at(dirfd, rel, 0);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) ||
		    !has_suffix(de->d_name, suffixes) ||
		    fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (unlinkat(fd, de->d_name, 0) < 0 && errno != ENOENT && !ret)
			ret = -errno;
	}
	closedir(d);
	/* a folder with the user's own files in it stays */
	if (unlinkat(dirfd, rel, AT_REMOVEDIR) < 0 && errno != ENOTEMPTY && errno != EEXIST &&
	    errno != ENOENT && !ret)
		ret = -errno;
	return ret;
}

int rtm_resultdir_clear(int dirfd)
{
	static const char *const images[] = { ".png", ".svg", ".pdf", NULL };
	static const char *const data[] = { ".dat", NULL };
	static const char *const spikes[] = { ".txt", ".json", NULL };
	struct stat st;
	size_t i;
	int ret = 0, r;

	for (i = 0; i < 4; i++) {	/* the files of top_files[] */
		if (fstatat(dirfd, top_files[i], &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    S_ISDIR(st.st_mode))
			continue;
		if (unlinkat(dirfd, top_files[i], 0) < 0 && errno != ENOENT && !ret)
			ret = -errno;
	}
	r = clear_sub(dirfd, "plots/data", "", data);
	ret = ret ? ret : r;
	r = clear_sub(dirfd, "plots", "", images);
	ret = ret ? ret : r;
	r = clear_sub(dirfd, "spikes", "spike-", spikes);
	return ret ? ret : r;
}
