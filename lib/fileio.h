/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fileio.h - reading /proc and /sys through a root prefix, and atomic writes.
 *
 * Every reader takes a root directory ("/" on the live system, a recorded tree
 * such as tests/data/sysroot-rt-6.1 in tests) so parsers run on recorded files
 * without root or a special kernel.
 */
#ifndef RTM_FILEIO_H
#define RTM_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Join @root and @path into @buf; returns 0 or -ENAMETOOLONG. */
int rtm_path(char *buf, size_t len, const char *root, const char *path);

/**
 * rtm_read_small - read a small file, trailing newlines stripped
 *
 * Returns the length read (>= 0) or -errno. @buf is always NUL-terminated.
 */
int rtm_read_small(const char *root, const char *path, char *buf, size_t len);

/* printf-style path variant of rtm_read_small(). */
int rtm_read_smallf(const char *root, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * rtm_read_all - read a whole file of any size (procfs files included)
 * @len: set to the length, may be NULL
 *
 * Returns a NUL-terminated malloc()ed buffer or NULL with errno set.
 */
char *rtm_read_all(const char *root, const char *path, size_t *len);

/* Read a gzip-compressed file (/proc/config.gz) whole; NULL with errno set. */
char *rtm_read_gz(const char *root, const char *path, size_t *len);

/* Read one integer; returns 0 or -errno (-EINVAL when not a number). */
int rtm_read_s64(const char *root, const char *path, int64_t *val);

bool rtm_exists(const char *root, const char *path);

/**
 * rtm_write_atomic - write @len bytes to @path through a temporary file
 *
 * The data goes to "@path.tmp.<pid>", is flushed with fsync() and renamed over
 * @path, so readers see either the old or the complete new file.
 * Returns 0 or -errno.
 */
int rtm_write_atomic(const char *path, const void *data, size_t len);

/* Create @dir and its parents (mode 0755); returns 0 or -errno. */
int rtm_mkdir_p(const char *dir);

/* Strip leading and trailing white space in place; returns @s. */
char *rtm_strstrip(char *s);

#endif
