// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the safe writers of fileio.c with planted symlinks and FIFOs in
 * a folder the test creates, and stage.c's sets, with a writer killed by
 * SIGKILL (no root; the device-node, full and read-only file system cases are
 * in tests/integration/safe_output.sh).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/stage.h"
#include "present/plot.h"
#include "../tap.h"

static char top[PATH_MAX];

/*
 * The library is linked in statically, so these stand in for libc's openat()
 * and write() in it: they fail O_TMPFILE as a file system without it does,
 * record the temporary name and flags used instead, and fail writes with
 * ENOSPC as a full disk does, so both paths are tested without root.
 */
static bool no_tmpfile, disk_full, no_proc;
static int named_flags;
static char named_tmp[NAME_MAX + 1];

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (no_tmpfile && (flags & O_TMPFILE) == O_TMPFILE) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (no_tmpfile && (flags & O_CREAT)) {
		snprintf(named_tmp, sizeof(named_tmp), "%s", path);
		named_flags = flags;
	}
	return (int)syscall(SYS_openat, dirfd, path, flags, mode);
}

/* no /proc and no CAP_DAC_READ_SEARCH: an O_TMPFILE cannot be given a name */
int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
	if (no_proc) {
		errno = ENOENT;
		return -1;
	}
	return (int)syscall(SYS_linkat, olddirfd, oldpath, newdirfd, newpath, flags);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	if (disk_full && len) {
		errno = ENOSPC;
		return -1;
	}
	return syscall(SYS_write, fd, buf, len);
}

static const char *at(const char *rel)
{
	static char buf[4][PATH_MAX + 64];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", top, rel);
	return buf[k];
}

static void put(const char *rel, const char *text)
{
	int fd = open(at(rel), O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		perror(rel);
		exit(1);
	}
	close(fd);
}

static char *get(const char *rel)
{
	return rtm_read_all("/", at(rel), NULL);
}

static bool same(const char *rel, const char *want)
{
	char *got = get(rel);
	bool ok = got && !strcmp(got, want);

	free(got);
	return ok;
}

static mode_t kind(const char *rel)
{
	struct stat st;

	return lstat(at(rel), &st) < 0 ? 0 : (st.st_mode & S_IFMT);
}

/* Entries of folder @rel whose name starts with '.' (temporary files left behind). */
static int hidden(const char *rel)
{
	struct dirent *de;
	DIR *d = opendir(at(rel));
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] == '.' && strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static int rm_one(const char *p, const struct stat *st, int f, struct FTW *w)
{
	(void)st;
	(void)f;
	(void)w;
	remove(p);
	return 0;
}

static void test_temp_name_attacks(void)
{
	char planted[PATH_MAX + 64];

	mkdir(at("out"), 0755);
	put("victim", "victim\n");
	/* the old writer's temporary name, PATH.tmp.<pid>, as a symlink to a victim */
	snprintf(planted, sizeof(planted), "%s.tmp.%d", at("out/result.json"), (int)getpid());
	if (symlink(at("victim"), planted))
		perror("symlink");
	is_int(rtm_write_atomic(at("out/result.json"), "{}\n", 3), 0,
	       "write_atomic with a symlink planted at PATH.tmp.<pid>");
	ok(same("victim", "victim\n"), "the symlink's victim is untouched");
	ok(same("out/result.json", "{}\n"), "the file is written");
	unlink(planted);

	/* a FIFO at the old temporary name made the writer hang in open() */
	snprintf(planted, sizeof(planted), "%s.tmp.%d", at("out/export.csv"), (int)getpid());
	if (mkfifo(planted, 0644))
		perror("mkfifo");
	alarm(20);	/* a hang fails the test instead of blocking the suite */
	is_int(rtm_write_atomic(at("out/export.csv"), "a,b\n", 4), 0,
	       "write_atomic with a FIFO planted at PATH.tmp.<pid>");
	alarm(0);
	ok(same("out/export.csv", "a,b\n"), "written beside the planted FIFO");
	unlink(planted);
	is_int(hidden("out"), 0, "no temporary file left in the folder");
}

static void test_write_at(void)
{
	int dfd;

	mkdir(at("w"), 0755);
	dfd = rtm_dir_open(at("w"), 0);
	ok(dfd >= 0, "dir_open of a folder");
	if (dfd < 0)
		return;
	/* a symlink at the final name is replaced, never written through */
	if (symlink(at("victim"), at("w/histogram.txt")))
		perror("symlink");
	is_int(rtm_write_at(dfd, "histogram.txt", "h\n", 2), 0, "write_at over a symlink");
	is_int(kind("w/histogram.txt"), S_IFREG, "the symlink became a regular file");
	ok(same("victim", "victim\n"), "its target is untouched");
	/* replace an existing file */
	is_int(rtm_write_at(dfd, "histogram.txt", "new\n", 4), 0, "write_at over a file");
	ok(same("w/histogram.txt", "new\n"), "the file holds the new data");
	/* a FIFO or folder at the final name stays */
	if (mkfifo(at("w/fifo"), 0644))
		perror("mkfifo");
	is_int(rtm_write_at(dfd, "fifo", "x", 1), -EEXIST, "write_at refuses to replace a FIFO");
	is_int(kind("w/fifo"), S_IFIFO, "the FIFO is still a FIFO");
	mkdir(at("w/sub"), 0755);
	is_int(rtm_write_at(dfd, "sub", "x", 1), -EISDIR, "write_at refuses a folder");
	is_int(rtm_write_at(dfd, "../escape", "x", 1), -EINVAL, "a name with '/' is refused");
	is_int(rtm_write_at(dfd, "empty", "", 0), 0, "an empty file");
	ok(same("w/empty", ""), "the empty file is there");
	is_int(hidden("w"), 0, "no temporary file left after the refusals");
	close(dfd);
}

static void test_dir_open(void)
{
	int fd;

	mkdir(at("real"), 0755);
	if (symlink(at("real"), at("link")))
		perror("symlink");
	put("plainfile", "x");
	is_int(rtm_dir_open(at("link"), 0), -ELOOP, "dir_open of a symlinked folder: ELOOP");
	is_int(rtm_dir_open(at("link/"), 0), -ELOOP, "... also with a trailing slash");
	fd = rtm_dir_open(at("link"), RTM_OUT_FOLLOW);
	ok(fd >= 0, "dir_open of a symlinked folder with RTM_OUT_FOLLOW");
	if (fd >= 0)
		close(fd);
	is_int(rtm_dir_open(at("plainfile"), RTM_OUT_CREATE), -ENOTDIR,
	       "dir_open of a regular file: ENOTDIR");
	is_int(rtm_dir_open(at("missing"), 0), -ENOENT, "dir_open of a missing folder: ENOENT");
	fd = rtm_dir_open(at("made/deep"), RTM_OUT_CREATE);
	ok(fd >= 0 && kind("made/deep") == S_IFDIR, "dir_open RTM_OUT_CREATE makes parents");
	if (fd >= 0) {
		int sub = rtm_dir_open_at(fd, "plots/data", RTM_OUT_CREATE);

		ok(sub >= 0 && kind("made/deep/plots/data") == S_IFDIR,
		   "dir_open_at creates plots/data");
		if (sub >= 0)
			close(sub);
		if (symlink(at("real"), at("made/deep/spikes")))
			perror("symlink");
		is_int(rtm_dir_open_at(fd, "spikes", RTM_OUT_CREATE), -ELOOP,
		       "dir_open_at refuses a planted symlink");
		if (symlink(at("real"), at("made/deep/plots/img")))
			perror("symlink");
		is_int(rtm_dir_open_at(fd, "plots/img/x", RTM_OUT_CREATE), -ELOOP,
		       "... in any component");
		is_int(kind("real/x"), 0, "nothing was created through the link");
		close(fd);
	}
}

static void test_targets(void)
{
	char buf[64] = "";
	int pfd[2], ready[2], status;
	ssize_t n;
	pid_t pid;

	mkdir(at("t"), 0755);
	put("t/old.csv", "old\n");
	if (symlink(at("victim"), at("t/link.csv")))
		perror("symlink");
	if (symlink(at("t/nowhere"), at("t/dangling.csv")))
		perror("symlink");
	if (mkfifo(at("t/fifo"), 0644))
		perror("mkfifo");
	is_int(rtm_target_check(at("t/new.csv"), 0), RTM_TARGET_NEW, "target: absent file");
	is_int(rtm_target_check(at("t/old.csv"), 0), RTM_TARGET_FILE, "target: regular file");
	is_int(rtm_target_check(at("t/link.csv"), 0), -ELOOP, "target: symlink refused");
	is_int(rtm_target_check(at("t/link.csv"), RTM_OUT_FOLLOW), RTM_TARGET_FILE,
	       "target: symlink to a file with RTM_OUT_FOLLOW");
	is_int(rtm_target_check(at("t/dangling.csv"), RTM_OUT_FOLLOW), -ENOENT,
	       "target: dangling symlink with RTM_OUT_FOLLOW");
	is_int(rtm_target_check(at("t/fifo"), 0), RTM_TARGET_STREAM, "target: FIFO, in place");
	is_int(rtm_target_check(at("t"), 0), -EISDIR, "target: a folder");
	is_int(rtm_target_check(at("t/"), 0), -EISDIR, "target: a folder with a slash");
	is_int(rtm_target_check(at("nofolder/x.csv"), 0), -ENOENT, "target: missing folder");
	is_int(rtm_target_check(at("plainfile/x.csv"), 0), -ENOTDIR,
	       "target: folder is a file");

	is_int(rtm_write_target(at("t/link.csv"), "x\n", 2, 0), -ELOOP,
	       "write_target refuses a symlink");
	ok(same("victim", "victim\n") && kind("t/link.csv") == S_IFLNK,
	   "... and leaves link and target alone");
	is_int(rtm_write_target(at("t/old.csv"), "new\n", 4, 0), 0, "write_target: a file");
	ok(same("t/old.csv", "new\n"), "... replaced");

	/* a FIFO is written in place, to its reader (open before the writer comes) */
	if (pipe(pfd) || pipe(ready))
		perror("pipe");
	pid = fork();
	if (pid == 0) {
		int fd = open(at("t/fifo"), O_RDONLY | O_NONBLOCK);
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char b[64];
		ssize_t k, got = 0;

		if (fd < 0 || write(ready[1], "r", 1) != 1)
			_exit(1);
		/* no POLLHUP before a writer came and went: wait for the data, then EOF */
		while (poll(&p, 1, -1) >= 0) {
			k = read(fd, b + got, sizeof(b) - 1 - (size_t)got);
			if (k > 0)
				got += k;
			else if (k == 0 || errno != EAGAIN)
				break;
		}
		if (write(pfd[1], b, (size_t)got) != got)
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	close(ready[1]);
	alarm(20);
	if (read(ready[0], buf, 1) != 1)
		perror("the reader did not start");
	close(ready[0]);
	is_int(rtm_write_target(at("t/fifo"), "to the reader\n", 14, 0), 0,
	       "write_target: a FIFO with a reader");
	n = read(pfd[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	waitpid(pid, &status, 0);
	alarm(0);
	close(pfd[0]);
	is_str(buf, "to the reader\n", "the reader got the data");
	is_int(kind("t/fifo"), S_IFIFO, "the FIFO is still a FIFO");

	/* --follow: the link's target is replaced, the link stays */
	is_int(rtm_write_target(at("t/link.csv"), "through\n", 8, RTM_OUT_FOLLOW), 0,
	       "write_target through a symlink with RTM_OUT_FOLLOW");
	ok(same("victim", "through\n") && kind("t/link.csv") == S_IFLNK,
	   "... wrote the target, kept the link");
	is_int(hidden("t"), 0, "no temporary file left");
	put("victim", "victim\n");
}

static void test_messages(void)
{
	static const int codes[] = { -ENOSPC, -EROFS, -EDQUOT, -ELOOP, -EISDIR, -EEXIST,
				     -EOPNOTSUPP, -EACCES };
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		ok(one_line(rtm_write_strerror(codes[i])), "message for errno %d is one line",
		   -codes[i]);
	ok(strstr(rtm_write_strerror(-ENOSPC), "choose another folder with -o") != NULL,
	   "ENOSPC names the fix");
	ok(strstr(rtm_write_strerror(-EROFS), "choose another folder with -o") != NULL,
	   "EROFS names the fix");
	ok(strstr(rtm_write_strerror(-EDQUOT), "choose another folder with -o") != NULL,
	   "EDQUOT names the fix");
	ok(strstr(rtm_write_strerror(-ELOOP), "--follow") != NULL, "ELOOP names --follow");
}

/* Without O_TMPFILE: an unpredictable name, O_EXCL | O_NOFOLLOW; removed on error. */
static void test_named_temporary(void)
{
	size_t i;
	bool hex = true;

	mkdir(at("n"), 0755);
	no_tmpfile = true;
	is_int(rtm_write_atomic(at("n/result.json"), "{}\n", 3), 0,
	       "without O_TMPFILE: written through a named temporary file");
	no_tmpfile = false;
	ok(same("n/result.json", "{}\n"), "... with the data");
	ok(!strncmp(named_tmp, ".rtm-", 5) && strlen(named_tmp) == 25, "the name is .rtm-<16 hex>"
	   ".tmp (%s)", named_tmp);
	for (i = 5; i < 21 && named_tmp[0]; i++)
		hex &= !!strchr("0123456789abcdef", named_tmp[i]);
	ok(hex, "... 64 random bits");
	ok((named_flags & (O_EXCL | O_NOFOLLOW | O_CREAT)) == (O_EXCL | O_NOFOLLOW | O_CREAT),
	   "created with O_CREAT | O_EXCL | O_NOFOLLOW");
	is_int(hidden("n"), 0, "the temporary name is gone after the rename");

	/* a full disk: the error comes back, no temporary and no partial file */
	no_tmpfile = true;
	disk_full = true;
	is_int(rtm_write_atomic(at("n/report.md"), "text\n", 5), -ENOSPC,
	       "a full disk (named temporary): -ENOSPC");
	no_tmpfile = false;
	is_int(rtm_write_atomic(at("n/report.html"), "text\n", 5), -ENOSPC,
	       "a full disk (O_TMPFILE): -ENOSPC");
	is_int(rtm_write_atomic(at("n/result.json"), "[]\n", 3), -ENOSPC,
	       "a full disk over an old file: -ENOSPC");
	disk_full = false;
	is_int(hidden("n"), 0, "no temporary file left");
	ok(kind("n/report.md") == 0 && kind("n/report.html") == 0, "no partial file left");
	ok(same("n/result.json", "{}\n"), "the old file is intact");

	/* a stream saved whole at fclose(), or not at all */
	{
		FILE *f = rtm_fopen_atomic(at("n/plot.dat"));
		int r;

		fputs("1 2\n", f);
		ok(kind("n/plot.dat") == 0, "rtm_fopen_atomic: nothing on disk before fclose");
		is_int(fclose(f), 0, "rtm_fopen_atomic: fclose saves");
		ok(same("n/plot.dat", "1 2\n"), "... the whole data");
		f = rtm_fopen_atomic(at("n/full.dat"));
		fputs("3 4\n", f);
		disk_full = true;
		errno = 0;
		r = fclose(f);
		is_int(errno, ENOSPC, "rtm_fopen_atomic on a full disk: fclose fails with ENOSPC");
		disk_full = false;
		is_int(r, EOF, "... returning EOF");
		ok(kind("n/full.dat") == 0 && hidden("n") == 0, "... and leaves no file");
	}

	no_proc = true;
	is_int(rtm_write_atomic(at("n/result.json"), "[1]\n", 4), 0,
	       "an O_TMPFILE that cannot be linked: written again, named");
	no_proc = false;
	ok(same("n/result.json", "[1]\n"), "... with the data");
	is_int(hidden("n"), 0, "... and no temporary file left");
}

/* gnuplot exits 0 on a full disk: a cut image must be told from a whole one */
static void test_images_whole(void)
{
	static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR....."
				  "\0\0\0\0IEND\xae\x42\x60\x82";
	static const char svg[] = "<?xml version=\"1.0\"?>\n<svg width=\"10\">\n<g/>\n</svg>\n\n";
	static const char pdf[] = "%PDF-1.5\n1 0 obj\nendobj\nstartxref\n0\n%%EOF\n";
	size_t n;

	ok(rtm_plot_image_whole(RTM_PLOT_PNG, png, sizeof(png) - 1), "a whole PNG");
	for (n = 0; n < sizeof(png) - 1; n += 5)
		if (rtm_plot_image_whole(RTM_PLOT_PNG, png, n))
			break;
	ok(n >= sizeof(png) - 1, "no cut PNG passes (every 5th length)");
	ok(!rtm_plot_image_whole(RTM_PLOT_PNG, png, sizeof(png) - 2), "a PNG one byte short");
	ok(rtm_plot_image_whole(RTM_PLOT_SVG, svg, sizeof(svg) - 1), "a whole SVG");
	ok(!rtm_plot_image_whole(RTM_PLOT_SVG, svg, sizeof(svg) - 5), "an SVG cut in </svg>");
	ok(!rtm_plot_image_whole(RTM_PLOT_SVG, svg, 0), "an empty SVG");
	ok(rtm_plot_image_whole(RTM_PLOT_PDF, pdf, sizeof(pdf) - 1), "a whole PDF");
	ok(!rtm_plot_image_whole(RTM_PLOT_PDF, pdf, sizeof(pdf) - 4), "a PDF cut in %%%%EOF");
	ok(!rtm_plot_image_whole(RTM_PLOT_PNG, svg, sizeof(svg) - 1), "an SVG is not a PNG");
}

/* A FIFO no process reads: refused at once, never waited for in open(). */
static void test_fifo_without_reader(void)
{
	if (mkdir(at("nr"), 0755) || mkfifo(at("nr/fifo"), 0644))
		perror("nr/fifo");
	put("nr/file", "x");
	alarm(20);	/* the old open() waited here for ever */
	is_int(rtm_write_target(at("nr/fifo"), "x", 1, 0), -ENXIO,
	       "write_target: a FIFO without a reader is ENXIO, no wait");
	is_int(rtm_stream_open(at("nr/fifo"), 0), -ENXIO, "stream_open: the same");
	alarm(0);
	is_int(rtm_stream_open(at("nr/file"), 0), -EINVAL, "stream_open: a file is not a stream");
	ok(strstr(rtm_write_strerror(-ENXIO), "no process reads") != NULL,
	   "the message says no process reads it");
}

/* A report's files in @dir: a page and a data file in plots/; fails when @arg says so. */
static int stage_files(const char *dir, void *arg, struct rtm_error *err)
{
	char path[PATH_MAX];
	int ret = rtm_dir_make(dir, "plots/data");

	snprintf(path, sizeof(path), "%s/report.html", dir);
	if (!ret)
		ret = rtm_write_atomic(path, "page\n", 5);
	snprintf(path, sizeof(path), "%s/plots/data/b.dat", dir);
	if (!ret)
		ret = rtm_write_atomic(path, "1 2\n", 4);
	if (!ret && arg)	/* the image that did not fit */
		return rtm_error_setn(err, -ENOSPC, "cannot write %s/plots/c.png: %s", dir,
				      rtm_write_strerror(-ENOSPC));
	return ret ? rtm_error_setn(err, ret, "cannot write %s", path) : 0;
}

/* All or nothing: a set of files moved into place only when every one was written. */
static void test_stage(void)
{
	struct rtm_error err = { "" };
	char want[PATH_MAX + 64];

	is_int(rtm_stage_write(at("st"), stage_files, NULL, &err), 0, "stage: a whole set");
	ok(same("st/report.html", "page\n") && same("st/plots/data/b.dat", "1 2\n"),
	   "... every file in place");
	is_int(hidden("st"), 0, "... no staging folder left");

	is_int(rtm_stage_write(at("st2"), stage_files, "fail", &err), -ENOSPC,
	       "stage: a set cut short by a full disk");
	is_int(kind("st2"), 0, "... nothing of it left, not even the folder it made");
	snprintf(want, sizeof(want), "cannot write %s/plots/c.png: no space", at("st2"));
	ok(!strncmp(err.msg, want, strlen(want)) && !strstr(err.msg, ".rtm-"),
	   "... the message names the final path, not the stage");

	if (mkdir(at("st3"), 0755) || mkdir(at("st3/plots"), 0755) ||
	    mkdir(at("st3/plots/data"), 0755) || mkfifo(at("st3/plots/data/b.dat"), 0644))
		perror("st3");
	is_int(rtm_stage_write(at("st3"), stage_files, NULL, &err), -EEXIST,
	       "stage: a FIFO planted at a final name fails the set");
	ok(kind("st3/report.html") == 0 && kind("st3/plots/data/b.dat") == S_IFIFO,
	   "... no file moved, the FIFO untouched");
	is_int(hidden("st3"), 0, "... no staging folder left");
	snprintf(want, sizeof(want), "cannot write %s/plots/data/b.dat: a FIFO", at("st3"));
	ok(!strncmp(err.msg, want, strlen(want)), "... the message names it");
}

/* A report cut short by SIGKILL while it writes its stage (@arg: a pipe to say so first). */
static int stage_killed(const char *dir, void *arg, struct rtm_error *err)
{
	stage_files(dir, NULL, err);
	if (arg) {	/* a live writer: says it is writing, then waits for the word */
		int *fds = arg;
		char c = 'w';

		if (write(fds[1], &c, 1) != 1 || read(fds[2], &c, 1) != 1)
			return rtm_error_setn(err, -EIO, "pipe");
		return 0;
	}
	raise(SIGKILL);
	return 0;
}

/* @arg as stage_killed's, in a child; its pid. */
static pid_t stage_child(const char *rel, int *fds)
{
	struct rtm_error err = { "" };
	pid_t pid = fork();

	if (pid == 0)
		_exit(rtm_stage_write(at(rel), stage_killed, fds, &err) ? 1 : 0);
	return pid;
}

/* A stage a killed writer left is removed by the next; a live writer's is not. */
static void test_stage_stale(void)
{
	int st, p1[2], p2[2], fds[3];
	char names[256], c = 'g';
	pid_t pid;

	pid = stage_child("sk", NULL);
	waitpid(pid, &st, 0);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL && hidden("sk") == 1,
	   "stage: SIGKILL while writing leaves its stage");
	if (mkdir(at("sk/.rtm-stage-x"), 0700) || mkdir(at("elsewhere"), 0700) ||
	    symlink(at("elsewhere"), at("sk/.rtm-stage-linkxx")))
		perror("sk");
	put("elsewhere/keep", "k");
	is_int(rtm_stage_remove_stale(at("sk"), names, sizeof(names)), 1,
	       "stage_remove_stale: the killed writer's stage removed");
	ok(!strncmp(names, ".rtm-stage-", 11) && strlen(names) == 17 && !strchr(names, ','),
	   "... and named (%s)", names);
	ok(hidden("sk") == 2 && kind("sk/.rtm-stage-x") == S_IFDIR &&
	   kind("sk/.rtm-stage-linkxx") == S_IFLNK && same("elsewhere/keep", "k"),
	   "... another name and a planted link left alone, the link not followed");
	is_int(rtm_stage_remove_stale(at("nosuch"), names, sizeof(names)), 0,
	       "stage_remove_stale: a missing folder holds none");

	if (pipe(p1) || pipe(p2))
		perror("pipe");
	fds[0] = p1[0];
	fds[1] = p1[1];
	fds[2] = p2[0];
	pid = stage_child("live", fds);
	ok(read(p1[0], &c, 1) == 1 && hidden("live") == 1, "stage: a live writer's stage");
	is_int(rtm_stage_remove_stale(at("live"), NULL, 0), 0,
	       "stage_remove_stale: a stage locked by its live writer is left alone");
	ok(write(p2[1], &c, 1) == 1 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	   WEXITSTATUS(st) == 0 && hidden("live") == 0 && same("live/report.html", "page\n"),
	   "... and that writer finishes its set");
	close(p1[0]);
	close(p1[1]);
	close(p2[0]);
	close(p2[1]);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(top, sizeof(top), "%s/test_fileio.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(top)) {
		perror("mkdtemp");
		return 1;
	}
	test_temp_name_attacks();
	test_write_at();
	test_dir_open();
	test_targets();
	test_messages();
	test_images_whole();
	test_named_temporary();
	test_fifo_without_reader();
	test_stage();
	test_stage_stale();
	nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
