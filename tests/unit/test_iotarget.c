// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_iotarget.c - the storage probe's target without root: the scheduler
 * line of sysfs, the disk of a device or partition on a recorded tree
 * (tests/data/iotarget-sys), and the safety rules on real files in the build
 * folder (created and removed, free space, existing files not written unless
 * allowed, memory file systems refused).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "box/iotarget.h"
#include "../tap.h"

static void test_sched_line(void)
{
	char cur[32];

	ok(!rtm_io_sched_current("none [mq-deadline] kyber", cur, sizeof(cur)) &&
	   !strcmp(cur, "mq-deadline"), "the bracketed scheduler is the current one");
	ok(!rtm_io_sched_current("[none] mq-deadline kyber\n", cur, sizeof(cur)) &&
	   !strcmp(cur, "none"), "first in the list");
	is_int(rtm_io_sched_current("none", cur, sizeof(cur)), -ENOENT, "none bracketed: unknown");
	ok(rtm_io_sched_offered("[none] mq-deadline kyber", "kyber"), "kyber is offered");
	ok(rtm_io_sched_offered("[none] mq-deadline kyber", "none"), "so is the bracketed one");
	ok(!rtm_io_sched_offered("[none] mq-deadline kyber", "bfq"), "bfq is not");
	ok(!rtm_io_sched_offered("[none] mq-deadline kyber", "mq"), "nor a word's start");
}

/*
 * sysfs's links, made in a copy of the recorded tree: a release tarball keeps
 * no symbolic links (automake's tar follows them), so tests/data holds none.
 */
static const char *const sys_links[][2] = {
	{ "sys/dev/block/7:0", "../../devices/virtual/block/loop0" },
	{ "sys/dev/block/8:0", "../../devices/pci0000:00/block/sda" },
	{ "sys/dev/block/8:1", "../../devices/pci0000:00/block/sda/sda1" },
	{ "sys/block/sda", "../devices/pci0000:00/block/sda" },
	{ "sys/block/loop0", "../devices/virtual/block/loop0" },
};

static bool make_sys_tree(char *root, size_t len)
{
	const char *data = getenv("RTM_TESTDATA");
	char cmd[1200], path[700];
	size_t i;

	snprintf(root, len, "%s/rtm-iotarget-sys.XXXXXX", getenv("TMPDIR") ?: "/tmp");
	if (!mkdtemp(root))
		return false;
	snprintf(cmd, sizeof(cmd), "cp -R '%s/iotarget-sys/sys' '%s/' && mkdir -p '%s/sys/dev/block' "
		 "'%s/sys/block' && chmod -R u+w '%s'", data ? data : "tests/data", root, root,
		 root, root);
	if (system(cmd))
		return false;
	for (i = 0; i < sizeof(sys_links) / sizeof(sys_links[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, sys_links[i][0]);
		if (symlink(sys_links[i][1], path))
			return false;
	}
	return true;
}

static void test_disk_of(void)
{
	char root[512], disk[64], cmd[600];

	if (!ok(make_sys_tree(root, sizeof(root)), "a copy of the recorded sysfs tree with its links"))
		return;
	ok(!rtm_io_disk_of(root, 7, 0, disk, sizeof(disk)) && !strcmp(disk, "loop0"),
	   "7:0 is loop0, its own queue");
	ok(!rtm_io_disk_of(root, 8, 1, disk, sizeof(disk)) && !strcmp(disk, "sda"),
	   "partition 8:1 takes its disk's queue: sda");
	ok(!rtm_io_disk_of(root, 8, 0, disk, sizeof(disk)) && !strcmp(disk, "sda"), "8:0 is sda");
	is_int(rtm_io_disk_of(root, 0, 45, disk, sizeof(disk)), -ENOENT,
	       "an anonymous device (overlay, tmpfs) has no queue");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		diag("could not remove %s", root);
}

static void test_fs_name(void)
{
	char buf[32];

	is_str(rtm_io_fs_name(0xEF53, buf, sizeof(buf)), "ext4", "ext4's magic");
	is_str(rtm_io_fs_name(0x01021994, buf, sizeof(buf)), "tmpfs", "tmpfs's magic");
	is_str(rtm_io_fs_name(0x794C7630, buf, sizeof(buf)), "overlay", "overlay's magic");
	is_str(rtm_io_fs_name(0x1234, buf, sizeof(buf)), "0x1234", "an unknown one in hex");
}

/* Whether O_DIRECT works in the current folder (the build folder's file system). */
static bool direct_here(void)
{
	char name[] = "test_iotarget.probe.XXXXXX";
	int fd = mkstemp(name), dfd;

	if (fd < 0)
		return false;
	close(fd);
	dfd = open(name, O_RDONLY | O_DIRECT);
	unlink(name);
	if (dfd < 0)
		return false;
	close(dfd);
	return true;
}

static void test_created_file(void)
{
	struct rtm_io_target_req req = { .dir = ".", .file_bytes = 2 << 20, .size = 4096 };
	struct rtm_error err = { "" };
	struct rtm_io_target t;
	struct stat st;
	char path[PATH_MAX];
	json_t *j;

	ok(!rtm_io_target_open(&t, &req, &err), "a file created in the folder%s%s",
	   err.msg[0] ? ": " : "", err.msg);
	snprintf(path, sizeof(path), "%s", t.path);
	ok(!stat(path, &st) && S_ISREG(st.st_mode) && st.st_size == 2 << 20,
	   "of the size asked: %s", path);
	ok(st.st_blocks * 512 >= 2 << 20, "its blocks written, not holes");
	is_str(t.kind, "created file", "its kind");
	ok(t.align >= 512 && !(t.align & (t.align - 1)), "an alignment, a power of two: %u",
	   t.align);
	is_u64(t.bytes, 2 << 20, "the requests' region: the whole file");
	j = rtm_io_target_to_json(&t);
	ok(j && json_string_value(json_object_get(j, "fstype")) &&
	   json_object_get(j, "scheduler"), "its JSON names the file system and the scheduler");
	json_decref(j);
	ok(!rtm_io_target_close(&t, "/", &err), "closed");
	ok(stat(path, &st) && errno == ENOENT, "and removed");
	ok(!rtm_io_target_close(&t, "/", &err), "closing twice is harmless");

	req.file_bytes = 1ULL << 60;
	ok(rtm_io_target_open(&t, &req, &err) == -ENOSPC && strstr(err.msg, "free") &&
	   strstr(err.msg, "--file-size") && one_line(err.msg),
	   "no room: refused before writing: %s", err.msg);
}

static void test_named_file(void)
{
	char name[] = "test_iotarget.named.XXXXXX", buf[8192];
	struct rtm_io_target_req req = { .target = name, .size = 4096, .writes = true };
	struct rtm_error err = { "" };
	struct rtm_io_target t;
	struct stat st;
	int fd = mkstemp(name);

	memset(buf, 'a', sizeof(buf));
	ok(fd >= 0 && write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf), "an existing file");
	close(fd);
	ok(rtm_io_target_open(&t, &req, &err) == -EPERM && strstr(err.msg, "--allow-writes"),
	   "writes to it are refused without --allow-writes: %s", err.msg);
	req.writes = false;
	ok(!rtm_io_target_open(&t, &req, &err), "reads of it are not");
	is_str(t.kind, "file", "a named file");
	is_u64(t.bytes, 8192, "its size is the region");
	rtm_io_target_close(&t, "/", &err);
	ok(!stat(name, &st), "a named file is never removed");
	req.size = 16384;
	ok(rtm_io_target_open(&t, &req, &err) && strstr(err.msg, "less than one request"),
	   "a file smaller than a request is refused: %s", err.msg);
	unlink(name);
	req.target = "no-such-target";
	ok(rtm_io_target_open(&t, &req, &err) == -ENOENT && strstr(err.msg, "no-such-target"),
	   "a missing target is named: %s", err.msg);
}

static void test_memory_fs(void)
{
	struct rtm_io_target_req req = { .target = "/dev/shm", .file_bytes = 1 << 20,
					 .size = 4096 };
	struct rtm_error err = { "" };
	struct rtm_io_target t;
	struct statfs sfs;

	if (statfs("/dev/shm", &sfs) || sfs.f_type != 0x01021994 || access("/dev/shm", W_OK)) {
		ok(1, "# SKIP no writable tmpfs at /dev/shm");
		return;
	}
	ok(rtm_io_target_open(&t, &req, &err) && strstr(err.msg, "tmpfs") &&
	   strstr(err.msg, "--target") && one_line(err.msg),
	   "a folder on tmpfs is refused, naming it and the fix: %s", err.msg);
}

int main(void)
{
	test_sched_line();
	test_disk_of();
	test_fs_name();
	if (direct_here()) {
		test_created_file();
		test_named_file();
	} else {
		ok(1, "# SKIP the build folder's file system takes no O_DIRECT");
	}
	test_memory_fs();
	return tap_done();
}
