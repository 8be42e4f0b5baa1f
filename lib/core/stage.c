// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stage.c - a set of files saved all or nothing, through a staging folder
 * locked while it is written, so a stage a killed process left is told from
 * one in use by its lock alone.
 */
#include <dirent.h>
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

#include "core/fileio.h"
#include "core/stage.h"

/* Remove the folder @name in @dirfd and everything in it, following no link. */
static void remove_tree(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct dirent *e;
	DIR *d;

	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0)
		close(fd);
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(fd, e->d_name, 0) < 0 && errno == EISDIR)
			remove_tree(fd, e->d_name);
	}
	if (d)
		closedir(d);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* A file of the stage may take @name in @to: free, a regular file or a symbolic link. */
static int name_free(int to, const char *name)
{
	struct stat st;

	if (fstatat(to, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return -EEXIST;		/* never rename over a FIFO or device node */
	return 0;
}

/*
 * The files of folder @from moved to @to, subfolders alike. Pass 1 (@move
 * false) makes the folders and checks each name; pass 2 renames. @rel is the
 * path below the stage so far ("" or "plots/"), extended with the name that
 * failed.
 */
static int move_tree(int from, int to, bool move, char *rel, size_t len)
{
	size_t at = strlen(rel);
	int fd = fcntl(from, F_DUPFD_CLOEXEC, 0), sfrom, sto, ret = 0;
	struct dirent *e;
	struct stat st;
	DIR *d;

	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return ret;
	}
	rewinddir(d);	/* the duplicate shares @from's offset, at the end after pass 1 */
	while (!ret && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(rel + at, len - at, "%s", e->d_name);
		if (fstatat(from, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			ret = -errno;
		} else if (S_ISDIR(st.st_mode)) {
			sto = rtm_dir_open_at(to, e->d_name, move ? 0 : RTM_OUT_CREATE);
			sfrom = openat(from, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				       O_CLOEXEC);
			ret = sto < 0 ? sto : sfrom < 0 ? -errno : 0;
			if (!ret) {
				snprintf(rel + at, len - at, "%s/", e->d_name);
				ret = move_tree(sfrom, sto, move, rel, len);
			}
			if (sto >= 0)
				close(sto);
			if (sfrom >= 0)
				close(sfrom);
		} else if (!move) {
			ret = name_free(to, e->d_name);
		} else if (renameat(from, e->d_name, to, e->d_name) < 0) {
			ret = -errno;
		}
	}
	closedir(d);
	if (!ret)
		rel[at] = '\0';
	return ret;
}

/* Each mention of @stage in @msg made @dir: the staging folder's name is never shown. */
static void unname(char *msg, size_t len, const char *stage, const char *dir)
{
	char out[sizeof(((struct rtm_error *)0)->msg)], *p = msg, *hit;
	size_t n = 0, sl = strlen(stage);

	out[0] = '\0';
	while ((hit = strstr(p, stage)) && n < sizeof(out)) {
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%.*s%s", (int)(hit - p), p, dir);
		p = hit + sl;
	}
	if (n < sizeof(out))
		snprintf(out + n, sizeof(out) - n, "%s", p);
	snprintf(msg, len, "%s", out);
}

/* Both passes from the stage @name in @dirfd to @dirfd; the failing path in @err. */
static int commit(int dirfd, const char *name, const char *dir, struct rtm_error *err)
{
	char rel[PATH_MAX] = "";
	int from, ret;

	from = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (from < 0) {
		ret = -errno;
		return rtm_error_setn(err, ret, "cannot write in %s: %s", dir,
				      rtm_write_strerror(ret));
	}
	ret = move_tree(from, dirfd, false, rel, sizeof(rel));
	if (!ret)
		ret = move_tree(from, dirfd, true, rel, sizeof(rel));
	close(from);
	if (ret)
		return rtm_error_setn(err, ret, "cannot write %s/%s: %s", dir, rel,
				      rtm_write_strerror(ret));
	return 0;
}

#define STAGE_PREFIX	".rtm-stage-"
#define STAGE_TRIES	3	/* new stages: another command may sweep one half made */

/*
 * A new stage in @dirfd (@dir's), locked: its path in @stage, its name in
 * *@name, its lock held by the returned descriptor; -errno with @err set. A
 * stage another command's sweep (rtm_stage_remove_stale) takes between mkdtemp
 * and flock is given up for a new one.
 */
static int stage_make(int dirfd, const char *dir, char *stage, size_t len, const char **name,
		      struct rtm_error *err)
{
	struct stat st;
	int fd = -1, ret = -EAGAIN, i;

	for (i = 0; i < STAGE_TRIES && fd < 0; i++) {
		if (snprintf(stage, len, "%s/" STAGE_PREFIX "XXXXXX", dir) >= (int)len)
			return rtm_error_setn(err, -ENAMETOOLONG, "%s: folder name too long", dir);
		if (!mkdtemp(stage)) {
			ret = -errno;
			return rtm_error_setn(err, ret, "cannot write in %s: %s", dir,
					      rtm_write_strerror(ret));
		}
		*name = strrchr(stage, '/') + 1;
		fd = openat(dirfd, *name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0 && (flock(fd, LOCK_EX | LOCK_NB) < 0 || fstat(fd, &st) < 0 ||
				st.st_nlink == 0)) {	/* swept: removed, or being removed */
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0)
		return rtm_error_setn(err, ret, "cannot write in %s: %s", dir,
				      rtm_write_strerror(ret));
	return fd;
}

int rtm_stage_write(const char *dir, rtm_stage_fn fn, void *arg, struct rtm_error *err)
{
	char stage[PATH_MAX];
	const char *name = NULL;
	bool made = false;
	int dirfd, lockfd, ret;

	dirfd = rtm_dir_open(dir, RTM_OUT_FOLLOW);
	if (dirfd == -ENOENT) {
		made = true;	/* removed again if nothing comes of it */
		dirfd = rtm_dir_open(dir, RTM_OUT_CREATE | RTM_OUT_FOLLOW);
	}
	if (dirfd < 0)
		return rtm_error_setn(err, dirfd, "cannot create %s: %s", dir,
				      rtm_write_strerror(dirfd));
	lockfd = stage_make(dirfd, dir, stage, sizeof(stage), &name, err);
	if (lockfd < 0) {
		close(dirfd);
		if (made)
			rmdir(dir);
		return lockfd;
	}
	ret = fn(stage, arg, err);
	if (ret && err)
		unname(err->msg, sizeof(err->msg), stage, dir);
	if (!ret)
		ret = commit(dirfd, name, dir, err);
	remove_tree(dirfd, name);
	close(lockfd);		/* the stage is gone: nothing to sweep */
	close(dirfd);
	if (ret && made)
		rmdir(dir);	/* only when empty */
	return ret;
}

/* ".rtm-stage-XXXXXX" */
static bool stage_name(const char *name)
{
	return !strncmp(name, STAGE_PREFIX, strlen(STAGE_PREFIX)) &&
	       strlen(name) == strlen(STAGE_PREFIX) + 6;
}

int rtm_stage_remove_stale(const char *dir, char *removed, size_t len)
{
	int dirfd = rtm_dir_open(dir, RTM_OUT_FOLLOW), fd, n = 0;
	struct dirent *e;
	struct stat st;
	size_t used;
	DIR *d;

	if (removed && len)
		removed[0] = '\0';
	d = dirfd >= 0 ? fdopendir(dirfd) : NULL;
	if (!d) {
		if (dirfd >= 0)
			close(dirfd);
		return 0;
	}
	while ((e = readdir(d))) {
		if (!stage_name(e->d_name))
			continue;
		/* this user's folder, not a link planted there, not locked by its writer */
		fd = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) || st.st_uid != geteuid() || flock(fd, LOCK_EX | LOCK_NB)) {
			close(fd);
			continue;
		}
		remove_tree(dirfd, e->d_name);	/* under its lock: no writer takes it meanwhile */
		close(fd);
		n++;
		used = removed ? strlen(removed) : len;
		if (used + strlen(e->d_name) + 3 < len)
			snprintf(removed + used, len - used, "%s%s", used ? ", " : "", e->d_name);
	}
	closedir(d);
	return n;
}
