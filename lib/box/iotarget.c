// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iotarget.c - the storage probe's target, opened safely (iotarget.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "box/iotarget.h"
#include "core/fileio.h"

#define FILL_CHUNK	(1U << 20)	/* a created file is written this much at a time */

/* ------------------------------------------------------------ sysfs text */

int rtm_io_sched_current(const char *line, char *cur, size_t len)
{
	const char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;

	if (!a || !b || b == a + 1 || (size_t)(b - a - 1) >= len)
		return -ENOENT;
	snprintf(cur, len, "%.*s", (int)(b - a - 1), a + 1);
	return 0;
}

bool rtm_io_sched_offered(const char *line, const char *name)
{
	size_t n = strlen(name);
	const char *p = line;

	while (*p) {
		size_t w;

		p += strspn(p, " [\t\n");
		w = strcspn(p, " ]\t\n");
		if (w == n && n && !strncmp(p, name, n))
			return true;
		p += w;
		p += strspn(p, "]");
	}
	return false;
}

int rtm_io_disk_of(const char *root, unsigned int major, unsigned int minor, char *disk,
		   size_t len)
{
	char path[PATH_MAX], rel[64], real[PATH_MAX];

	snprintf(rel, sizeof(rel), "/sys/dev/block/%u:%u", major, minor);
	if (rtm_path(path, sizeof(path), root, rel) || !realpath(path, real))
		return -ENOENT;
	/* a partition's queue is its disk's, the folder above it */
	snprintf(path, sizeof(path), "%s/partition", real);
	if (!access(path, F_OK))
		dirname(real);
	snprintf(path, sizeof(path), "%s/queue", real);
	if (access(path, F_OK))
		return -ENOENT;
	snprintf(disk, len, "%s", basename(real));
	return 0;
}

const char *rtm_io_fs_name(long f_type, char *buf, size_t len)
{
	static const struct { unsigned long magic; const char *name; } fs[] = {
		{ 0xEF53, "ext4" }, { 0x58465342, "xfs" }, { 0x9123683E, "btrfs" },
		{ 0xF2F52010, "f2fs" }, { 0x01021994, "tmpfs" }, { 0x858458F6, "ramfs" },
		{ 0x794C7630, "overlay" }, { 0x6969, "nfs" }, { 0x4D44, "vfat" },
		{ 0x2011BAB0, "exfat" }, { 0x5346544E, "ntfs" }, { 0x2FC12FC1, "zfs" },
		{ 0x65735546, "fuse" }, { 0x73717368, "squashfs" }, { 0x9FA0, "proc" },
		{ 0x62656572, "sysfs" }, { 0xFF534D42, "cifs" }, { 0x01161970, "gfs2" },
	};
	size_t i;

	for (i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
		if ((unsigned long)f_type == fs[i].magic)
			return snprintf(buf, len, "%s", fs[i].name), buf;
	snprintf(buf, len, "0x%lx", (unsigned long)f_type);
	return buf;
}

/* ------------------------------------------------------------ opening */

/* The queue's device and scheduler of the block device @rdev; unknown stays "". */
static void read_queue(struct rtm_io_target *t, dev_t dev)
{
	char line[sizeof(t->schedulers)];

	t->major = major(dev);
	t->minor = minor(dev);
	if (rtm_io_disk_of("/", t->major, t->minor, t->disk, sizeof(t->disk)))
		return;
	if (rtm_read_smallf("/", line, sizeof(line), "/sys/block/%s/queue/scheduler",
			    t->disk) < 0)
		return;
	snprintf(t->schedulers, sizeof(t->schedulers), "%s", line);
	rtm_io_sched_current(line, t->scheduler, sizeof(t->scheduler));
}

/* O_DIRECT's alignment for the open file: statx's when the kernel tells, else the block size. */
static uint32_t dio_align(int fd, const struct stat *st)
{
#ifdef STATX_DIOALIGN
	struct statx sx;

	if (!statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) && (sx.stx_mask & STATX_DIOALIGN) &&
	    sx.stx_dio_offset_align)
		return sx.stx_dio_offset_align > sx.stx_dio_mem_align ?
		       sx.stx_dio_offset_align : sx.stx_dio_mem_align;
#endif
	if (S_ISBLK(st->st_mode)) {
		int ssz = 0;

		if (!ioctl(fd, BLKSSZGET, &ssz) && ssz > 0)
			return (uint32_t)ssz;
	}
	return st->st_blksize > 0 ? (uint32_t)st->st_blksize : 4096;
}

/* O_DIRECT refused: the file system and the fix in one line. */
static int refuse_direct(const char *path, int fd_or_dir, int e, struct rtm_error *err)
{
	char fsname[32] = "this file system";
	struct statfs sfs;

	if (!fstatfs(fd_or_dir, &sfs))
		rtm_io_fs_name((long)sfs.f_type, fsname, sizeof(fsname));
	return rtm_error_setn(err, -EINVAL, "io: %s: %s does not take O_DIRECT (%s): give "
			      "--target on a disk file system (ext4, xfs, btrfs) or -o a folder "
			      "on one", path, fsname, strerror(e));
}

/* Fill a created file with written data, so that reads reach the device. */
static int fill_file(int fd, uint64_t bytes, uint32_t align)
{
	void *buf = aligned_alloc(align, FILL_CHUNK);
	uint64_t off;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	memset(buf, 0x5a, FILL_CHUNK);
	if (fallocate(fd, 0, 0, (off_t)bytes) && errno != EOPNOTSUPP)
		ret = -errno;
	for (off = 0; !ret && off < bytes; off += FILL_CHUNK) {
		size_t n = bytes - off < FILL_CHUNK ? (size_t)(bytes - off) : FILL_CHUNK;

		if (pwrite(fd, buf, n, (off_t)off) != (ssize_t)n)
			ret = errno ? -errno : -EIO;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	free(buf);
	return ret;
}

/* The created file: free space, O_EXCL | O_NOFOLLOW in the opened folder, filled. */
static int create_file(struct rtm_io_target *t, const char *dir,
		       const struct rtm_io_target_req *req, struct rtm_error *err)
{
	char avail[32], need[32], fsname[32];
	struct statfs sfs;
	struct statvfs vfs;
	struct stat st;
	int e;

	t->dirfd = rtm_dir_open(dir, RTM_OUT_FOLLOW);
	if (t->dirfd < 0)
		return rtm_error_setn(err, t->dirfd, "io: cannot open the folder %s: %s", dir,
				      strerror(-t->dirfd));
	/* memory is no device: refused before anything is written there */
	if (!fstatfs(t->dirfd, &sfs)) {
		rtm_io_fs_name((long)sfs.f_type, fsname, sizeof(fsname));
		if (!strcmp(fsname, "tmpfs") || !strcmp(fsname, "ramfs"))
			return rtm_error_setn(err, -EINVAL, "io: %s is on %s, in memory: no device "
					      "to measure (give --target on a disk file system, "
					      "or -o a folder on one)", dir, fsname);
	}
	if (fstatvfs(t->dirfd, &vfs))
		return rtm_error_setn(err, -errno, "io: %s: statvfs: %s", dir, strerror(errno));
	if ((uint64_t)vfs.f_bavail * vfs.f_frsize < req->file_bytes + RTM_IO_FREE_RESERVE) {
		snprintf(avail, sizeof(avail), "%llu MiB",
			 (unsigned long long)((uint64_t)vfs.f_bavail * vfs.f_frsize >> 20));
		snprintf(need, sizeof(need), "%llu MiB",
			 (unsigned long long)((req->file_bytes + RTM_IO_FREE_RESERVE) >> 20));
		return rtm_error_setn(err, -ENOSPC, "io: %s has %s free, the target file needs %s "
				      "(give a smaller --file-size, or --target on another file "
				      "system)", dir, avail, need);
	}
	snprintf(t->name, sizeof(t->name), "rtmeasure-io-%d.dat", (int)getpid());
	t->fd = openat(t->dirfd, t->name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_DIRECT |
		       O_CLOEXEC, 0600);
	if (t->fd < 0) {
		e = errno;
		t->name[0] = '\0';
		if (e == EINVAL)
			return refuse_direct(dir, t->dirfd, e, err);
		return rtm_error_setn(err, -e, "io: cannot create %s/rtmeasure-io-%d.dat: %s", dir,
				      (int)getpid(), strerror(e));
	}
	snprintf(t->path, sizeof(t->path), "%s/%s", dir, t->name);
	snprintf(t->kind, sizeof(t->kind), "created file");
	if (fstat(t->fd, &st))
		return rtm_error_setn(err, -errno, "io: %s: %s", t->path, strerror(errno));
	t->align = dio_align(t->fd, &st);
	t->bytes = req->file_bytes - req->file_bytes % (req->size ? req->size : 1);
	e = fill_file(t->fd, req->file_bytes, t->align < 4096 ? 4096 : t->align);
	if (e)
		return rtm_error_setn(err, e, "io: cannot write the target file %s: %s", t->path,
				      strerror(-e));
	read_queue(t, st.st_dev);
	return 0;
}

/* A file or block device the user named. */
static int open_named(struct rtm_io_target *t, const struct rtm_io_target_req *req,
		      const struct stat *st, struct rtm_error *err)
{
	const bool dev = S_ISBLK(st->st_mode);
	uint64_t bytes = (uint64_t)st->st_size;
	struct stat fst;
	int e;

	if (dev && !req->force_device)
		return rtm_error_setn(err, -EPERM, "io: %s is a block device: give --force-device "
				      "to measure it (reads only, unless --allow-writes)",
				      req->target);
	if (req->writes && !req->allow_writes)
		return rtm_error_setn(err, -EPERM, "io: --op writes would overwrite %s %s: give "
				      "--allow-writes, or a folder (--target DIR) for a file of "
				      "its own", dev ? "the device" : "the file", req->target);
	t->fd = open(req->target, (req->writes ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
	if (t->fd < 0) {
		e = errno;
		if (e == EINVAL) {
			int fd = open(req->target, O_RDONLY | O_CLOEXEC);

			e = refuse_direct(req->target, fd, e, err);
			if (fd >= 0)
				close(fd);
			return e;
		}
		return rtm_error_setn(err, -e, "io: cannot open %s: %s", req->target, strerror(e));
	}
	snprintf(t->path, sizeof(t->path), "%s", req->target);
	snprintf(t->kind, sizeof(t->kind), dev ? "device" : "file");
	if (dev && ioctl(t->fd, BLKGETSIZE64, &bytes))
		return rtm_error_setn(err, -errno, "io: %s: BLKGETSIZE64: %s", req->target,
				      strerror(errno));
	t->align = dio_align(t->fd, st);
	t->bytes = bytes - bytes % (req->size ? req->size : 1);
	if (t->bytes < req->size)
		return rtm_error_setn(err, -EINVAL, "io: %s holds %llu bytes, less than one request "
				      "(--size %u)", req->target, (unsigned long long)bytes,
				      req->size);
	if (!fstat(t->fd, &fst))
		read_queue(t, dev ? fst.st_rdev : fst.st_dev);
	return 0;
}

/* The file system of an open file, and a refusal for those that keep data in memory. */
static int check_fs(struct rtm_io_target *t, struct rtm_error *err)
{
	struct statfs sfs;

	if (!strcmp(t->kind, "device") || fstatfs(t->fd, &sfs))
		return 0;
	rtm_io_fs_name((long)sfs.f_type, t->fstype, sizeof(t->fstype));
	if (!strcmp(t->fstype, "tmpfs") || !strcmp(t->fstype, "ramfs"))
		return rtm_error_setn(err, -EINVAL, "io: %s is on %s, in memory: no device to "
				      "measure (give --target on a disk file system, or -o a "
				      "folder on one)", t->path, t->fstype);
	return 0;
}

int rtm_io_target_open(struct rtm_io_target *t, const struct rtm_io_target_req *req,
		       struct rtm_error *err)
{
	struct stat st;
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->dirfd = -1;
	if (!req->target || (!stat(req->target, &st) && S_ISDIR(st.st_mode)))
		ret = create_file(t, req->target ? req->target : req->dir, req, err);
	else if (stat(req->target, &st))
		ret = rtm_error_setn(err, -errno, "io: --target %s: %s (give a file, a folder or "
				     "a block device)", req->target, strerror(errno));
	else if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		ret = rtm_error_setn(err, -EINVAL, "io: --target %s is neither a file, a folder "
				     "nor a block device", req->target);
	else
		ret = open_named(t, req, &st, err);
	if (!ret)
		ret = check_fs(t, err);
	if (ret)
		rtm_io_target_close(t, "/", NULL);
	return ret;
}

/* ------------------------------------------------------------ the scheduler */

static int write_scheduler(const struct rtm_io_target *t, const char *root, const char *name)
{
	char path[PATH_MAX], rel[128];
	ssize_t n;
	int fd, ret = 0;

	snprintf(rel, sizeof(rel), "/sys/block/%s/queue/scheduler", t->disk);
	if (rtm_path(path, sizeof(path), root, rel))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, name, strlen(name));
	if (n != (ssize_t)strlen(name))
		ret = n < 0 ? -errno : -EIO;
	close(fd);
	return ret;
}

int rtm_io_target_set_scheduler(struct rtm_io_target *t, const char *root, const char *name,
				struct rtm_error *err)
{
	char line[sizeof(t->schedulers)], cur[32];
	int ret;

	if (!t->disk[0] || !t->schedulers[0])
		return rtm_error_setn(err, -ENOENT, "io: --scheduler: %s has no block device queue "
				      "to set it on", t->path);
	if (!rtm_io_sched_offered(t->schedulers, name))
		return rtm_error_setn(err, -EINVAL, "io: --scheduler %s: %s offers only %s", name,
				      t->disk, t->schedulers);
	if (!strcmp(name, t->scheduler))
		return 0;	/* already in use: nothing to restore */
	ret = write_scheduler(t, root, name);
	if (ret)
		return rtm_error_setn(err, ret, "io: cannot set the scheduler of %s to %s: %s%s",
				      t->disk, name, strerror(-ret),
				      ret == -EACCES || ret == -EPERM ? " (run as root)" : "");
	snprintf(t->scheduler_set, sizeof(t->scheduler_set), "%s", name);
	if (rtm_read_smallf(root, line, sizeof(line), "/sys/block/%s/queue/scheduler",
			    t->disk) >= 0 && !rtm_io_sched_current(line, cur, sizeof(cur)) &&
	    strcmp(cur, name))
		return rtm_error_setn(err, -EIO, "io: the scheduler of %s is %s after setting %s",
				      t->disk, cur, name);
	return 0;
}

int rtm_io_target_close(struct rtm_io_target *t, const char *root, struct rtm_error *err)
{
	int ret = 0, r;

	if (t->scheduler_set[0] && t->scheduler[0]) {
		r = write_scheduler(t, root, t->scheduler);
		if (r && !ret)
			ret = rtm_error_setn(err, r, "io: cannot put back the scheduler %s of %s: "
					     "%s", t->scheduler, t->disk, strerror(-r));
	}
	t->scheduler_set[0] = '\0';
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->name[0] && t->dirfd >= 0 && unlinkat(t->dirfd, t->name, 0) && !ret)
		ret = rtm_error_setn(err, -errno, "io: cannot remove the target file %s: %s",
				     t->path, strerror(errno));
	t->name[0] = '\0';
	if (t->dirfd >= 0)
		close(t->dirfd);
	t->dirfd = -1;
	return ret;
}

json_t *rtm_io_target_to_json(const struct rtm_io_target *t)
{
	char dev[32];
	json_t *j;

	snprintf(dev, sizeof(dev), "%u:%u", t->major, t->minor);
	j = json_pack("{s:s, s:s, s:I, s:I, s:s}",
		"path", t->path,
		"kind", t->kind,
		"bytes", (json_int_t)t->bytes,
		"align", (json_int_t)t->align,
		"dev", dev);
	if (!j)
		return NULL;
	json_object_set_new(j, "fstype", t->fstype[0] ? json_string(t->fstype) : json_null());
	json_object_set_new(j, "disk", t->disk[0] ? json_string(t->disk) : json_null());
	json_object_set_new(j, "scheduler", t->scheduler[0] ? json_string(t->scheduler) :
				json_null());
	json_object_set_new(j, "schedulers", t->schedulers[0] ? json_string(t->schedulers) :
				json_null());
	json_object_set_new(j, "scheduler_set", t->scheduler_set[0] ?
				json_string(t->scheduler_set) : json_null());
	return j;
}
