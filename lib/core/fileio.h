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
#include <stdio.h>

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

/*
 * Safe writes. Every file rtmeasure writes goes through these: a folder is
 * opened once (O_DIRECTORY, O_NOFOLLOW unless RTM_OUT_FOLLOW), the data goes
 * to an anonymous file (O_TMPFILE) or to an unpredictable name created with
 * O_EXCL | O_NOFOLLOW relative to that folder, is flushed with fsync() and
 * renamed over the final name with renameat(). A planted symlink or FIFO at a
 * guessable temporary name can do nothing; on any error the temporary file is
 * removed, so no partial file is left; temporary names never reach a message.
 */
#define RTM_OUT_FOLLOW	0x1u	/* the named folder or file may be a symbolic link */
#define RTM_OUT_CREATE	0x2u	/* create the folder (and its parents) when missing */

/**
 * rtm_dir_open - open an output folder
 * @flags: RTM_OUT_FOLLOW, RTM_OUT_CREATE
 *
 * Returns a directory descriptor (O_CLOEXEC) or -errno: -ELOOP when @path is
 * a symbolic link and RTM_OUT_FOLLOW is not given, -ENOTDIR when it is not a
 * folder.
 */
int rtm_dir_open(const char *path, unsigned int flags);

/*
 * Open (with RTM_OUT_CREATE: create) the folder @rel ("plots/data") below
 * @dirfd, one component at a time, never following a symbolic link.
 * Returns a directory descriptor or -errno (-ELOOP on a symlink).
 */
int rtm_dir_open_at(int dirfd, const char *rel, unsigned int flags);

/*
 * Create the folder @top (a user-named path, followed as given) and @rel
 * below it ("plots/data"), where no component may be a symbolic link: a link
 * planted at "plots" gives -ELOOP instead of files written where it points.
 */
int rtm_dir_make(const char *top, const char *rel);

/**
 * rtm_write_at - write @len bytes as the file @name (no '/') in folder @dirfd
 *
 * Readers see either the old or the complete new file. A symbolic link at
 * @name is replaced, never followed; a folder, FIFO or device node there is
 * left alone (-EISDIR, -EEXIST). Returns 0 or -errno.
 */
int rtm_write_at(int dirfd, const char *name, const void *data, size_t len);

/* rtm_write_at() in @path's folder (opened following symlinks); 0 or -errno. */
int rtm_write_atomic(const char *path, const void *data, size_t len);

/**
 * rtm_fopen_atomic - a stream whose data reaches @path only when whole
 *
 * What is written is kept in memory; fclose() saves it with
 * rtm_write_atomic() and returns EOF with errno set when that fails, so a
 * full disk leaves no partial file. NULL with errno set.
 */
FILE *rtm_fopen_atomic(const char *path);

/* What a user-named output file is (rtm_target_check()). */
enum rtm_target_kind {
	RTM_TARGET_NEW,		/* absent: created */
	RTM_TARGET_FILE,	/* a regular file: replaced atomically */
	RTM_TARGET_STREAM,	/* a FIFO or character device: written in place */
};

/**
 * rtm_target_check - can @path, a file named by the user, be written?
 * @flags: RTM_OUT_FOLLOW lets @path be a symbolic link
 *
 * Returns an enum rtm_target_kind or -errno: -ELOOP a symbolic link,
 * -EISDIR a folder, -EOPNOTSUPP a block device or socket, -ENOENT/-ENOTDIR
 * its folder is missing, -EACCES/-EROFS the folder cannot be written.
 * Nothing is created: commands check their outputs before measuring.
 */
int rtm_target_check(const char *path, unsigned int flags);

/*
 * Write @len bytes to @path as rtm_target_check() found it: a new or regular
 * file atomically (rtm_write_at()), a FIFO or character device in place
 * (rtm_stream_open(): never created, truncated or renamed over).
 * Returns 0 or -errno (-ENXIO: a FIFO no process reads).
 */
int rtm_write_target(const char *path, const void *data, size_t len, unsigned int flags);

/**
 * rtm_stream_open - open @path, a FIFO or character device, for writing now
 *
 * Opened O_WRONLY | O_NONBLOCK | O_NOFOLLOW, so it never waits: -ENXIO for a
 * FIFO no process reads, -EEXIST when it is no longer a FIFO or device,
 * -EINVAL when it is a file. A command that writes later (after measuring)
 * opens it before and keeps the descriptor: its reader sees one writer from
 * the check to the data, and no end of file in between. Returns the descriptor.
 */
int rtm_stream_open(const char *path, unsigned int flags);

/*
 * Write @len bytes to @fd from rtm_stream_open(); a reader that stops
 * reading gives -ETIMEDOUT after 10 s without progress, a reader that left
 * -EPIPE (SIGPIPE ignored meanwhile). Returns 0 or -errno.
 */
int rtm_stream_write(int fd, const void *data, size_t len);

/*
 * The reason for a write error, for "cannot write X: <reason>": strerror()
 * plus the fix where there is one ("choose another folder with -o" for a
 * full or read-only file system or quota, "--follow" for a symlink).
 */
const char *rtm_write_strerror(int neg_errno);

/* Create @dir and its parents (mode 0755); returns 0 or -errno. */
int rtm_mkdir_p(const char *dir);

/* Strip leading and trailing white space in place; returns @s. */
char *rtm_strstrip(char *s);

#endif
