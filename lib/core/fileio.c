// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fileio.c - root-prefixed readers for /proc and /sys; safe, atomic writes.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "core/fileio.h"
#include "core/grow.h"

int rtm_path(char *buf, size_t len, const char *root, const char *path)
{
	int n;

	if (!root || !*root || strcmp(root, "/") == 0)
		n = snprintf(buf, len, "%s", path);
	else
		n = snprintf(buf, len, "%s%s%s", root,
			     (path[0] == '/' || root[strlen(root) - 1] == '/') ? "" : "/", path);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int rtm_read_small(const char *root, const char *path, char *buf, size_t len)
{
	char full[PATH_MAX];
	ssize_t n;
	size_t got = 0;
	int fd, ret;

	if (len == 0)
		return -EINVAL;
	buf[0] = '\0';
	ret = rtm_path(full, sizeof(full), root, path);
	if (ret)
		return ret;
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got < len - 1) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			close(fd);
			buf[0] = '\0';
			return ret;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == '\r'))
		buf[--got] = '\0';
	return (int)got;
}

int rtm_read_smallf(const char *root, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		if (len)
			buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return rtm_read_small(root, path, buf, len);
}

char *rtm_read_all(const char *root, const char *path, size_t *lenp)
{
	char full[PATH_MAX];
	size_t cap = 16384, len = 0;
	char *buf, *nbuf;
	ssize_t n;
	int fd, saved;

	if (rtm_path(full, sizeof(full), root, path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		goto fail;
	for (;;) {
		nbuf = rtm_grow(buf, &cap, len + 4096, 1, cap);	/* 4 KiB free and a NUL */
		if (!nbuf)
			goto fail;
		buf = nbuf;
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
fail:
	saved = errno;
	free(buf);
	close(fd);
	errno = saved;
	return NULL;
}

char *rtm_read_gz(const char *root, const char *path, size_t *lenp)
{
	char full[PATH_MAX];
	size_t cap = 65536, len = 0;
	char *buf = NULL, *nbuf;
	gzFile gz;
	int n;

	if (rtm_path(full, sizeof(full), root, path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	gz = gzopen(full, "rb");
	if (!gz)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		goto fail;
	for (;;) {
		/* no kernel config is that big */
		if (cap - len < 65537 && cap > (64u << 20))
			goto corrupt;
		nbuf = rtm_grow(buf, &cap, len + 65536, 1, cap);	/* 64 KiB free and a NUL */
		if (!nbuf)
			goto fail;
		buf = nbuf;
		n = gzread(gz, buf + len, (unsigned int)(cap - len - 1));
		if (n < 0)
			goto corrupt;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	gzclose(gz);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
corrupt:
	errno = EILSEQ;
fail:
	n = errno;
	free(buf);
	gzclose(gz);
	errno = n;
	return NULL;
}

int rtm_read_s64(const char *root, const char *path, int64_t *val)
{
	char buf[64], *s, *end;
	long long v;
	int ret;

	ret = rtm_read_small(root, path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	s = rtm_strstrip(buf);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return -EINVAL;
	*val = v;
	return 0;
}

bool rtm_exists(const char *root, const char *path)
{
	char full[PATH_MAX];

	if (rtm_path(full, sizeof(full), root, path))
		return false;
	return access(full, F_OK) == 0;
}

/* ------------------------------------------------------------ safe writes */

/* ".rtm-" and 16 hex digits from getrandom(): not guessable by another user */
static int tmp_name(char *buf, size_t len)
{
	uint64_t r;

	if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return -errno;
	snprintf(buf, len, ".rtm-%016llx.tmp", (unsigned long long)r);
	return 0;
}

static bool plain_name(const char *name)
{
	return name && *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

static int write_full(int fd, const void *data, size_t len)
{
	const char *p = data;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = write(fd, p + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

/* An open directory that is a symlink gives ENOTDIR with O_NOFOLLOW: say ELOOP. */
static int dir_error(int dirfd, const char *name, int e)
{
	struct stat st;

	if (e == ENOTDIR && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		return -ELOOP;
	return -e;
}

int rtm_dir_open(const char *path, unsigned int flags)
{
	char buf[PATH_MAX];
	size_t n;
	int fd, ret;

	if (!path || !*path)
		return -ENOENT;
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	/* "link/" would follow the link whatever O_NOFOLLOW says */
	n = strlen(buf);
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	if (flags & RTM_OUT_CREATE) {
		ret = rtm_mkdir_p(buf);
		if (ret && ret != -EEXIST && ret != -ENOTDIR)
			return ret;
	}
	fd = open(buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
		  ((flags & RTM_OUT_FOLLOW) ? 0 : O_NOFOLLOW));
	if (fd < 0)	/* with RTM_OUT_FOLLOW a link to a file is just not a folder */
		return (flags & RTM_OUT_FOLLOW) ? -errno : dir_error(AT_FDCWD, buf, errno);
	return fd;
}

int rtm_dir_open_at(int dirfd, const char *rel, unsigned int flags)
{
	char buf[PATH_MAX], *comp, *save = NULL;
	int fd = dirfd, nfd;

	if (snprintf(buf, sizeof(buf), "%s", rel) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (comp = strtok_r(buf, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		if (!strcmp(comp, ".."))
			nfd = -EINVAL;
		else if ((flags & RTM_OUT_CREATE) && mkdirat(fd, comp, 0755) < 0 &&
			 errno != EEXIST)
			nfd = -errno;
		else {
			nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (nfd < 0)
				nfd = dir_error(fd, comp, errno);
		}
		if (fd != dirfd)
			close(fd);
		if (nfd < 0)
			return nfd;
		fd = nfd;
	}
	return fd == dirfd ? fcntl(dirfd, F_DUPFD_CLOEXEC, 0) : fd;
}

int rtm_dir_make(const char *top, const char *rel)
{
	int fd = rtm_dir_open(top, RTM_OUT_CREATE | RTM_OUT_FOLLOW), sub;

	if (fd < 0)
		return fd;
	sub = rtm_dir_open_at(fd, rel, RTM_OUT_CREATE);
	close(fd);
	if (sub < 0)
		return sub;
	close(sub);
	return 0;
}

/* A temporary file in @dirfd: anonymous (O_TMPFILE; @name empty) or named. */
static int tmp_open(int dirfd, char *name, size_t len, bool named)
{
	int fd = -1, i, ret;

	name[0] = '\0';
	if (!named)
		fd = openat(dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
	if (fd >= 0)
		return fd;
	if (!named && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL &&
	    errno != ENOENT)
		return -errno;
	for (i = 0; i < 64; i++) {	/* file systems without O_TMPFILE */
		ret = tmp_name(name, len);
		if (ret)
			return ret;
		fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0644);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		name[0] = '\0';
		return -errno;
	}
	return fd;
}

/* Give an anonymous file an unpredictable name in @dirfd (linkat fails on EEXIST). */
static int tmp_link(int fd, int dirfd, char *name, size_t len)
{
	char proc[64];
	int i, ret;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	for (i = 0; i < 64; i++) {
		ret = tmp_name(name, len);
		if (ret)
			break;
		if (linkat(AT_FDCWD, proc, dirfd, name, AT_SYMLINK_FOLLOW) == 0)
			return 0;
		ret = -errno;
		if (ret == -ENOENT && linkat(fd, "", dirfd, name, AT_EMPTY_PATH) == 0)
			return 0;	/* no /proc: needs CAP_DAC_READ_SEARCH */
		if (ret != -EEXIST)
			break;
	}
	name[0] = '\0';
	return ret;
}

int rtm_write_at(int dirfd, const char *name, const void *data, size_t len)
{
	bool named = false;
	char tmp[64];
	struct stat st;
	int fd, ret;

	if (!plain_name(name))
		return -EINVAL;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
			return -EEXIST;	/* never rename over a FIFO or device node */
	} else if (errno != ENOENT) {
		return -errno;
	}
again:
	fd = tmp_open(dirfd, tmp, sizeof(tmp), named);
	if (fd < 0)
		return fd;
	ret = write_full(fd, data, len);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (!ret && !tmp[0]) {
		ret = tmp_link(fd, dirfd, tmp, sizeof(tmp));
		if (ret == -ENOENT || ret == -EPERM || ret == -EACCES) {
			/* no /proc and no CAP_DAC_READ_SEARCH: write it again, named */
			close(fd);
			named = true;
			goto again;
		}
	}
	if (close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret && renameat(dirfd, tmp, dirfd, name) < 0)
		ret = -errno;
	if (ret) {
		if (tmp[0])
			unlinkat(dirfd, tmp, 0);
		return ret;
	}
	if (fsync(dirfd) < 0 && errno != EINVAL && errno != EROFS)
		return -errno;
	return 0;
}

/* Split @path into its folder (opened, following symlinks) and last name. */
static int open_parent(const char *path, char *base, size_t len)
{
	char dir[PATH_MAX], *slash;
	int fd;

	if (!path || !*path)
		return -ENOENT;
	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	if (dir[strlen(dir) - 1] == '/')
		return -EISDIR;
	slash = strrchr(dir, '/');
	if (!slash) {
		snprintf(base, len, "%s", dir);
		snprintf(dir, sizeof(dir), ".");
	} else {
		if (snprintf(base, len, "%s", slash + 1) >= (int)len)
			return -ENAMETOOLONG;
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	if (!strcmp(base, ".") || !strcmp(base, ".."))
		return -EISDIR;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int rtm_write_atomic(const char *path, const void *data, size_t len)
{
	char base[NAME_MAX + 1];
	int dirfd, ret;

	dirfd = open_parent(path, base, sizeof(base));
	if (dirfd < 0)
		return dirfd;
	ret = rtm_write_at(dirfd, base, data, len);
	close(dirfd);
	return ret;
}

struct atomic_stream {
	char *path;
	char *buf;
	size_t len, cap;
	bool failed;		/* a write was lost: nothing is saved */
};

static ssize_t atomic_write(void *cookie, const char *data, size_t n)
{
	struct atomic_stream *a = cookie;
	char *nb;

	while (a->len + n > a->cap) {
		nb = rtm_grow(a->buf, &a->cap, a->cap, 1, 65536);
		if (!nb) {
			a->failed = true;
			return -1;	/* errno ENOMEM: the stream's error flag */
		}
		a->buf = nb;
	}
	memcpy(a->buf + a->len, data, n);
	a->len += n;
	return (ssize_t)n;
}

static int atomic_close(void *cookie)
{
	struct atomic_stream *a = cookie;
	int ret = a->failed ? -ENOMEM : rtm_write_atomic(a->path, a->buf ? a->buf : "", a->len);

	free(a->buf);
	free(a->path);
	free(a);
	if (ret) {
		errno = -ret;
		return -1;
	}
	return 0;
}

FILE *rtm_fopen_atomic(const char *path)
{
	cookie_io_functions_t io = { .write = atomic_write, .close = atomic_close };
	struct atomic_stream *a = calloc(1, sizeof(*a));
	FILE *f;

	if (!a || !(a->path = strdup(path))) {
		free(a);
		errno = ENOMEM;
		return NULL;
	}
	f = fopencookie(a, "w", io);
	if (!f) {
		free(a->path);
		free(a);
	}
	return f;
}

/* The kind of @base in @dirfd; with RTM_OUT_FOLLOW, @resolved names a link's target. */
static int target_kind(int dirfd, const char *base, const char *path, unsigned int flags,
		       char *resolved)
{
	struct stat st;

	resolved[0] = '\0';
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			return -errno;
		return faccessat(dirfd, ".", W_OK, AT_EACCESS) < 0 ? -errno : RTM_TARGET_NEW;
	}
	if (S_ISLNK(st.st_mode)) {
		if (!(flags & RTM_OUT_FOLLOW))
			return -ELOOP;
		if (!realpath(path, resolved)) {
			resolved[0] = '\0';
			return -errno;	/* a dangling link: ENOENT */
		}
		return -EAGAIN;		/* check again at the resolved path */
	}
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))
		return RTM_TARGET_STREAM;
	if (!S_ISREG(st.st_mode))
		return -EOPNOTSUPP;
	return faccessat(dirfd, ".", W_OK, AT_EACCESS) < 0 ? -errno : RTM_TARGET_FILE;
}

/* Open @path's folder and classify it; @dirfd and @base for the writer. */
static int target_open(const char *path, unsigned int flags, int *dirfd, char *base,
		       size_t len)
{
	char resolved[PATH_MAX];
	int fd, kind;

	fd = open_parent(path, base, len);
	if (fd < 0)
		return fd;
	kind = target_kind(fd, base, path, flags, resolved);
	if (kind == -EAGAIN) {
		close(fd);
		fd = open_parent(resolved, base, len);
		if (fd < 0)
			return fd;
		kind = target_kind(fd, base, resolved, 0, resolved);
	}
	if (kind < 0) {
		close(fd);
		return kind;
	}
	*dirfd = fd;
	return kind;
}

int rtm_target_check(const char *path, unsigned int flags)
{
	char base[NAME_MAX + 1];
	int dirfd, kind;

	kind = target_open(path, flags, &dirfd, base, sizeof(base));
	if (kind >= 0)
		close(dirfd);
	return kind;
}

/*
 * Write to a stream opened O_NONBLOCK: a reader that stops reading holds the
 * writer at most RTM_STREAM_WAIT_MS at a time; a dead reader is EPIPE, not SIGPIPE.
 */
#define RTM_STREAM_WAIT_MS	10000
int rtm_stream_write(int fd, const void *data, size_t len)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	const char *p = data;
	size_t done = 0;
	ssize_t n;
	int ret = 0;

	sigaction(SIGPIPE, &ign, &old);
	while (done < len && !ret) {
		n = write(fd, p + done, len - done);
		if (n > 0)
			done += (size_t)n;
		else if (n == 0)
			ret = -EIO;
		else if (errno == EAGAIN) {
			n = poll(&pfd, 1, RTM_STREAM_WAIT_MS);
			if (n == 0)
				ret = -ETIMEDOUT;
			else if (n < 0 && errno != EINTR)
				ret = -errno;
		} else if (errno != EINTR) {
			ret = -errno;
		}
	}
	sigaction(SIGPIPE, &old, NULL);
	return ret;
}

/* A FIFO or character device where it is, opened without waiting for a reader. */
static int open_stream(int dirfd, const char *base)
{
	struct stat st;
	int fd;

	/* a FIFO no process reads: ENXIO now, instead of an open() that waits for ever */
	fd = openat(dirfd, base, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
		close(fd);	/* swapped since the check: write nothing */
		return -EEXIST;
	}
	return fd;
}

int rtm_stream_open(const char *path, unsigned int flags)
{
	char base[NAME_MAX + 1];
	int dirfd, kind, fd;

	kind = target_open(path, flags, &dirfd, base, sizeof(base));
	if (kind < 0)
		return kind;
	fd = kind == RTM_TARGET_STREAM ? open_stream(dirfd, base) : -EINVAL;
	close(dirfd);
	return fd;
}

static int write_stream(int dirfd, const char *base, const void *data, size_t len)
{
	int fd = open_stream(dirfd, base), ret;

	if (fd < 0)
		return fd;
	ret = rtm_stream_write(fd, data, len);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

int rtm_write_target(const char *path, const void *data, size_t len, unsigned int flags)
{
	char base[NAME_MAX + 1];
	int dirfd, kind, ret;

	kind = target_open(path, flags, &dirfd, base, sizeof(base));
	if (kind < 0)
		return kind;
	if (kind == RTM_TARGET_STREAM)
		ret = write_stream(dirfd, base, data, len);
	else
		ret = rtm_write_at(dirfd, base, data, len);
	close(dirfd);
	return ret;
}

const char *rtm_write_strerror(int neg_errno)
{
	switch (-neg_errno) {
	case ENOSPC:
		return "no space left on the file system (choose another folder with -o)";
	case EDQUOT:
		return "disk quota exceeded (choose another folder with -o)";
	case EROFS:
		return "the file system is read-only (choose another folder with -o)";
	case ELOOP:
		return "it is a symbolic link, not followed (remove it, or give --follow to "
		       "write through it)";
	case EISDIR:
		return "it is a folder (give a file name)";
	case EEXIST:
		return "a FIFO or device node is in the way (remove it or choose another name)";
	case ENXIO:
		return "it is a FIFO that no process reads (start its reader first, or give a "
		       "file name)";
	case ETIMEDOUT:
		return "the reader of the FIFO stopped reading";
	case EOPNOTSUPP:
		return "it is a block device or socket (give a regular file, a FIFO or a "
		       "character device)";
	}
	return strerror(-neg_errno);
}

int rtm_mkdir_p(const char *dir)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", dir) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

char *rtm_strstrip(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}
