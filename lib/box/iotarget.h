/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iotarget.h - what the storage probe measures, opened safely: a file it
 * creates and removes, a file or a block device the user named, the block
 * device under it and that device's I/O scheduler.
 *
 * Safe by default: without a target, a new file in the results folder's file
 * system (free space checked first, created O_EXCL | O_NOFOLLOW in the opened
 * folder, filled with written data so reads reach the device, removed at the
 * end). A block device only when confirmed (force_device), and written only
 * with allow_writes, as an existing file is. O_DIRECT is required: a file
 * system that refuses it (tmpfs, some overlays) is named in the error. The
 * scheduler is read and recorded; it is changed only on request and then put
 * back by rtm_io_target_close().
 */
#ifndef RTM_IOTARGET_H
#define RTM_IOTARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"

#define RTM_IO_FILE_BYTES	(64ULL << 20)	/* a created file's size by default */
#define RTM_IO_FREE_RESERVE	(16ULL << 20)	/* left free beside a created file */

/* What the user asked for. */
struct rtm_io_target_req {
	const char *target;	/* a file, a folder or a block device; NULL: @dir */
	const char *dir;	/* the results folder (the default target's folder) */
	uint64_t file_bytes;	/* a created file's size */
	uint32_t size;		/* bytes a request: the target must hold one */
	bool writes;		/* the operations write (write, randwrite, fsync) */
	bool force_device;	/* a block device is measured */
	bool allow_writes;	/* an existing file or device may be written */
};

struct rtm_io_target {
	char path[PATH_MAX];	/* what is measured */
	char kind[16];		/* "created file", "file", "device" */
	char fstype[32];	/* the file's file system, "" for a device */
	int fd;			/* O_DIRECT; -1 when closed */
	int dirfd;		/* the created file's folder, -1: none */
	char name[64];		/* the created file's name in @dirfd, "": none */
	uint64_t bytes;		/* the region the requests fall in */
	uint32_t align;		/* O_DIRECT's alignment of offsets, sizes and buffers */
	unsigned int major, minor;	/* the block device the I/O goes to (0:0 unknown) */
	char disk[64];		/* its queue's device in /sys/block ("loop0"), "": none */
	char scheduler[32];	/* the scheduler at the start, "": unknown */
	char schedulers[128];	/* the ones the queue offers, as sysfs lists them */
	char scheduler_set[32];	/* the one set on request, "": none (nothing to restore) */
};

/*
 * Open (or create) the target of @req into @t. 0, or -errno with a one-line
 * message naming the problem and the fix (the command exits 2). On error
 * nothing is left open or created.
 */
int rtm_io_target_open(struct rtm_io_target *t, const struct rtm_io_target_req *req,
		       struct rtm_error *err);

/*
 * Set the device's I/O scheduler to @name (sysfs queue/scheduler) under
 * @root; the earlier one is put back by rtm_io_target_close(). 0 or -errno
 * with a message (no queue, a scheduler the queue does not offer).
 */
int rtm_io_target_set_scheduler(struct rtm_io_target *t, const char *root, const char *name,
				struct rtm_error *err);

/*
 * Put the scheduler back (when set), close the target and remove a created
 * file. Safe to call twice. 0, or the first -errno (the message in @err).
 */
int rtm_io_target_close(struct rtm_io_target *t, const char *root, struct rtm_error *err);

/* sections.io.target: path, kind, file system, device, scheduler, alignment. */
json_t *rtm_io_target_to_json(const struct rtm_io_target *t);

/* ---- helpers on sysfs text, read through a root prefix (unit-tested on recorded trees) */

/*
 * "none [mq-deadline] kyber" -> "mq-deadline" in @cur (the bracketed one);
 * -ENOENT when none is bracketed.
 */
int rtm_io_sched_current(const char *line, char *cur, size_t len);

/* Whether @name is one of the words of @line (brackets ignored). */
bool rtm_io_sched_offered(const char *line, const char *name);

/*
 * The device of /sys/dev/block/MAJ:MIN under @root whose queue holds the
 * scheduler: itself, or the disk of a partition. Its name ("sda", "loop0")
 * into @disk; -ENOENT when there is none (a virtual file system's device).
 */
int rtm_io_disk_of(const char *root, unsigned int major, unsigned int minor, char *disk,
		   size_t len);

/* The name of a statfs(2) f_type: "ext4", "tmpfs"; "0x..." when unknown. */
const char *rtm_io_fs_name(long f_type, char *buf, size_t len);

#endif
