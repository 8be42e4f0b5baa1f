// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fileio.c - root-prefixed readers for /proc and /sys, atomic writes.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "fileio.h"

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
		if (cap - len < 4097) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf)
				goto fail;
			buf = nbuf;
			cap *= 2;
		}
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
		if (cap - len < 65537) {
			if (cap > (64u << 20))	/* no kernel config is that big */
				goto corrupt;
			nbuf = realloc(buf, cap * 2);
			if (!nbuf)
				goto fail;
			buf = nbuf;
			cap *= 2;
		}
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

int rtm_write_atomic(const char *path, const void *data, size_t len)
{
	char tmp[PATH_MAX];
	const char *p = data;
	size_t done = 0;
	ssize_t n;
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	while (done < len) {
		n = write(fd, p + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		done += (size_t)n;
	}
	if (fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	if (rename(tmp, path) < 0) {
		fd = -1;
		goto fail;
	}
	return 0;
fail:
	ret = -errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return ret;
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
