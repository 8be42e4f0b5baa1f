// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runlock.c - flock(2) locks on files in the lock directory: tracefs
 * instances, journals and measured CPUs. See runlock.h for the files and their meaning.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/runlock.h"

const char *rtm_runlock_dir(void)
{
	const char *env = getenv("RTMEASURE_LOCK_DIR");

	return env && *env ? env : RTM_LOCK_DIR;
}

/*
 * The directory, made if missing: world-writable and sticky like /run/lock
 * itself, so a run without root (cyclic --no-rt) can announce its CPUs too.
 */
static int lock_dir(char *path, size_t len, const char *file, struct rtm_error *err)
{
	const char *dir = rtm_runlock_dir();
	struct stat st;

	if (snprintf(path, len, "%s/%s", dir, file) >= (int)len)
		return rtm_error_setn(err, -ENAMETOOLONG, "lock file name too long: %s/%s", dir,
				      file);
	if (stat(dir, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 :
		       rtm_error_setn(err, -ENOTDIR, "lock directory %s is not a directory (remove "
				      "it, or set RTMEASURE_LOCK_DIR)", dir);
	if (mkdir(dir, 01777) == 0)
		chmod(dir, 01777);	/* mkdir obeys the umask */
	else if (errno != EEXIST)
		return rtm_error_setn(err, -errno, "cannot create lock directory %s: %s (run as "
				      "root once, or set RTMEASURE_LOCK_DIR to a directory every "
				      "rtmeasure on this box uses)", dir, strerror(errno));
	return 0;
}

/* Open (creating) @path; @existed: it was there before. Write access when we may. */
static int open_lock(const char *path, bool *existed)
{
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0) {
		fchmod(fd, 0644);	/* the umask may have taken read access from others */
		if (existed)
			*existed = false;
		return fd;
	}
	if (errno != EEXIST)
		return -errno;
	if (existed)
		*existed = true;
	fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == EACCES)	/* another user's file: a lock needs no write access */
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Is @fd still the file at @path (not unlinked or replaced since we opened it)? */
static bool same_file(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/*
 * flock @op on @path (opened or created). A file removed by its releasing owner
 * between our open and our lock is opened again. Returns the descriptor,
 * -EWOULDBLOCK when held, or -errno.
 */
static int lock_file(const char *path, int op, bool *existed)
{
	int fd, tries;

	for (tries = 0; tries < 8; tries++) {
		fd = open_lock(path, existed);
		if (fd < 0)
			return fd;
		if (flock(fd, op) < 0) {
			int e = errno;

			close(fd);
			return -e;
		}
		if (same_file(fd, path))
			return fd;
		close(fd);
	}
	return -EAGAIN;
}

/* --------------------------------------------------------- trace instances */

int rtm_runlock_instance_take(const char *name, bool *existed, struct rtm_error *err)
{
	char path[PATH_MAX], file[128];
	int fd, ret;

	snprintf(file, sizeof(file), "instance-%s.lock", name);
	ret = lock_dir(path, sizeof(path), file, err);
	if (ret)
		return ret;
	fd = lock_file(path, LOCK_EX | LOCK_NB, existed);
	if (fd == -EWOULDBLOCK)
		return -EBUSY;
	if (fd < 0)
		return rtm_error_setn(err, fd, "cannot lock %s: %s (set RTMEASURE_LOCK_DIR to a "
				      "writable directory every rtmeasure on this box uses)", path,
				      strerror(-fd));
	return fd;
}

void rtm_runlock_instance_release(const char *name, int fd)
{
	char path[PATH_MAX];

	if (fd < 0)
		return;
	/* unlink first: nobody may see the file unlocked while the instance exists */
	if (snprintf(path, sizeof(path), "%s/instance-%s.lock", rtm_runlock_dir(), name) <
	    (int)sizeof(path))
		unlink(path);
	close(fd);
}

int rtm_runlock_instance_stale(const char *name)
{
	char path[PATH_MAX];
	int fd;

	if (snprintf(path, sizeof(path), "%s/instance-%s.lock", rtm_runlock_dir(), name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	if (access(path, F_OK) != 0)
		return -ENOENT;
	fd = lock_file(path, LOCK_EX | LOCK_NB, NULL);
	if (fd == -EWOULDBLOCK)
		return -EBUSY;
	return fd;
}

/* --------------------------------------------------------- journals */

#define JOURNAL_SUFFIX ".journal"

/* The lock directory, made if missing, opened; -errno with a message. */
static int open_lock_dir(struct rtm_error *err)
{
	char path[PATH_MAX];
	int fd, ret;

	ret = lock_dir(path, sizeof(path), "", err);
	if (ret)
		return ret;
	fd = open(rtm_runlock_dir(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return rtm_error_setn(err, -errno, "cannot open lock directory %s: %s",
				      rtm_runlock_dir(), strerror(errno));
	return fd;
}

/* 64 unguessable bits (the clock when the kernel has no getrandom: O_EXCL still holds). */
static uint64_t random_bits(void)
{
	struct timespec ts;
	uint64_t r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
		return r;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)ts.tv_sec;
}

static int write_all(int fd, const char *text)
{
	size_t len = strlen(text), done = 0;
	ssize_t w;

	while (done < len) {
		w = write(fd, text + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		done += (size_t)w;
	}
	return fsync(fd) ? -errno : 0;
}

/*
 * @text into a new file of @dfd, locked, under the name @name. It is written
 * under a temporary name (never a journal's) and linked to @name only once
 * locked and whole; link() refuses a name that exists. 0 or -errno.
 */
static int journal_place(int dfd, int fd, const char *tmp, const char *text, const char *name)
{
	int ret;

	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		return -errno;
	ret = write_all(fd, text);
	if (!ret && linkat(dfd, tmp, dfd, name, 0) < 0)
		ret = -errno;
	return ret;
}

int rtm_runlock_journal_create(const char *kind, const char *text, char *name, size_t len,
			       struct rtm_error *err)
{
	char tmp[PATH_MAX];
	int dfd, fd = -1, ret = -EEXIST, tries;
	uint64_t r;

	dfd = open_lock_dir(err);
	if (dfd < 0)
		return dfd;
	/* another file at either name (a collision, or planted): another name */
	for (tries = 0; tries < 8 && ret == -EEXIST; tries++) {
		r = random_bits();
		snprintf(tmp, sizeof(tmp), ".%s-%ld-%016llx.tmp", kind, (long)getpid(),
			 (unsigned long long)r);
		if (snprintf(name, len, "%s-%ld-%016llx%s", kind, (long)getpid(),
			     (unsigned long long)r, JOURNAL_SUFFIX) >= (int)len) {
			ret = -ENAMETOOLONG;
			break;
		}
		fd = openat(dfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0) {
			ret = -errno;
			continue;
		}
		ret = journal_place(dfd, fd, tmp, text, name);
		unlinkat(dfd, tmp, 0);
		if (ret) {
			close(fd);
			fd = -1;
		}
	}
	close(dfd);
	if (ret)
		return rtm_error_setn(err, ret, "cannot write a journal in %s: %s (set "
				      "RTMEASURE_LOCK_DIR to a writable directory every rtmeasure "
				      "on this box uses)", rtm_runlock_dir(), strerror(-ret));
	return fd;
}

void rtm_runlock_journal_remove(const char *name, int fd)
{
	char path[PATH_MAX];

	if (fd < 0)
		return;
	/* unlink first: nobody may see the file unlocked while we live */
	if (snprintf(path, sizeof(path), "%s/%s", rtm_runlock_dir(), name) < (int)sizeof(path))
		unlink(path);
	close(fd);
}

/* Is @name a journal of @kind: <kind>-...journal? */
static bool journal_of(const char *name, const char *kind)
{
	size_t n = strlen(name), k = strlen(kind), s = strlen(JOURNAL_SUFFIX);

	return n > k + 1 + s && !strncmp(name, kind, k) && name[k] == '-' &&
	       !strcmp(name + n - s, JOURNAL_SUFFIX);
}

/* Journal @name of @dfd opened and locked when a killed run of this user left it; else -1. */
static int journal_take(int dfd, const char *name)
{
	struct stat st, now;
	int fd;

	/* a FIFO planted at the name must not block us: O_NONBLOCK, then regular files only */
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    flock(fd, LOCK_EX | LOCK_NB) < 0 ||
	    /* removed (or replaced) by another run between our open and our lock */
	    fstatat(dfd, name, &now, AT_SYMLINK_NOFOLLOW) || now.st_ino != st.st_ino ||
	    now.st_dev != st.st_dev) {
		close(fd);
		return -1;
	}
	return fd;
}

int rtm_runlock_journal_each(const char *kind,
			     enum rtm_journal_verdict (*fn)(const char *name, int fd, void *arg),
			     void *arg)
{
	struct dirent *de;
	int n = 0, fd;
	DIR *d;

	d = opendir(rtm_runlock_dir());
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (!journal_of(de->d_name, kind))
			continue;
		fd = journal_take(dirfd(d), de->d_name);
		if (fd < 0)
			continue;
		n++;
		if (fn(de->d_name, fd, arg) == RTM_JOURNAL_REMOVE)
			unlinkat(dirfd(d), de->d_name, 0);
		close(fd);
	}
	closedir(d);
	return n;
}

/* --------------------------------------------------------- measured CPUs */

struct cpu_slot {
	int cpu;
	int fd;			/* cpuN.lock (holder) or cpuN.guests (guest) */
	bool holder;
	bool shared;		/* another run measured this CPU while we did */
	long other_pid;
};

struct rtm_cpulock {
	int n;
	struct cpu_slot *slots;
};

static void slot_path(char *buf, size_t len, int cpu, const char *what)
{
	snprintf(buf, len, "%s/cpu%d.%s", rtm_runlock_dir(), cpu, what);
}

/* "PID [exclusive]" as the holder wrote it; 0 / false when unreadable. */
static void read_holder(int cpu, long *pid, bool *exclusive)
{
	char path[PATH_MAX], buf[64];
	ssize_t n;
	int fd;

	*pid = 0;
	*exclusive = false;
	slot_path(path, sizeof(path), cpu, "lock");
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	*pid = strtol(buf, NULL, 10);
	*exclusive = strstr(buf, "exclusive") != NULL;
}

static void write_holder(int fd, bool exclusive)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%ld%s\n", (long)getpid(),
			 exclusive ? " exclusive" : "");

	/* a file of another user is open read-only: the lock still counts */
	if (ftruncate(fd, 0) == 0 && pwrite(fd, buf, (size_t)n, 0) != n)
		return;
}

static int take_cpu(struct cpu_slot *s, bool exclusive, struct rtm_error *err)
{
	char path[PATH_MAX], file[64];
	bool excl_holder;
	int fd, ret;

	snprintf(file, sizeof(file), "cpu%d.lock", s->cpu);
	ret = lock_dir(path, sizeof(path), file, err);
	if (ret)
		return ret;
	fd = lock_file(path, LOCK_EX | LOCK_NB, NULL);
	if (fd >= 0) {
		s->fd = fd;
		s->holder = true;
		write_holder(fd, exclusive);
		if (exclusive) {
			/* guests are told by the file; any that came before us stays a guest */
			slot_path(path, sizeof(path), s->cpu, "guests");
			fd = lock_file(path, LOCK_EX | LOCK_NB, NULL);
			if (fd == -EWOULDBLOCK)
				return rtm_error_setn(err, -EBUSY, "CPU %d is measured by another "
						      "rtmeasure: --exclusive refuses to share it "
						      "(wait for it, or pick other CPUs with -a)",
						      s->cpu);
			if (fd >= 0)
				close(fd);
		}
		return 0;
	}
	if (fd != -EWOULDBLOCK)
		return rtm_error_setn(err, fd, "cannot lock %s: %s (set RTMEASURE_LOCK_DIR to a "
				      "writable directory every rtmeasure on this box uses)", path,
				      strerror(-fd));
	read_holder(s->cpu, &s->other_pid, &excl_holder);
	if (exclusive || excl_holder) {
		char who[48] = "";

		if (s->other_pid > 0)
			snprintf(who, sizeof(who), " (pid %ld)", s->other_pid);
		return rtm_error_setn(err, -EBUSY, "CPU %d is measured by another rtmeasure%s%s: "
				      "wait for it, or pick other CPUs with -a", s->cpu, who,
				      excl_holder ? " started with --exclusive" :
				      ", and --exclusive refuses to share it");
	}
	/* a guest: the holder sees our shared lock (its check holds it for an instant) */
	slot_path(path, sizeof(path), s->cpu, "guests");
	fd = lock_file(path, LOCK_SH, NULL);
	if (fd < 0)
		return rtm_error_setn(err, fd, "cannot lock %s: %s", path, strerror(-fd));
	s->fd = fd;
	s->shared = true;
	return 0;
}

struct rtm_cpulock *rtm_cpulock_take(const struct rtm_cpulist *cpus, bool exclusive,
				     struct rtm_error *err)
{
	struct rtm_cpulock *l = calloc(1, sizeof(*l));
	int i, ret;

	if (!l || !(l->slots = calloc((size_t)cpus->n + 1, sizeof(*l->slots)))) {
		free(l);
		rtm_error_set(err, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	for (i = 0; i < cpus->n; i++) {
		struct cpu_slot *s = &l->slots[l->n];

		s->cpu = cpus->cpus[i];
		s->fd = -1;
		ret = take_cpu(s, exclusive, err);
		if (ret) {
			if (s->fd >= 0)
				close(s->fd);
			rtm_cpulock_release(l);
			errno = -ret;
			return NULL;
		}
		l->n++;
	}
	return l;
}

bool rtm_cpulock_poll(struct rtm_cpulock *l)
{
	char path[PATH_MAX];
	bool found = false;
	int i, fd;

	for (i = 0; l && i < l->n; i++) {
		struct cpu_slot *s = &l->slots[i];

		if (!s->holder || s->shared)
			continue;
		slot_path(path, sizeof(path), s->cpu, "guests");
		if (access(path, F_OK) != 0)
			continue;	/* nobody ever joined */
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
			s->shared = true;
			found = true;
		}
		close(fd);	/* drops our instant lock, if we got it */
	}
	return found;
}

int rtm_cpulock_shared(const struct rtm_cpulock *l, struct rtm_cpulist *out, long *pid)
{
	int i;

	out->n = 0;
	out->cpus = NULL;
	if (pid)
		*pid = 0;
	if (!l)
		return 0;
	out->cpus = calloc((size_t)l->n + 1, sizeof(int));
	if (!out->cpus)
		return 0;
	for (i = 0; i < l->n; i++) {
		if (!l->slots[i].shared)
			continue;
		out->cpus[out->n++] = l->slots[i].cpu;
		if (pid && !*pid)
			*pid = l->slots[i].other_pid;
	}
	return out->n;
}

void rtm_cpulock_release(struct rtm_cpulock *l)
{
	int i;

	if (!l)
		return;
	/* the files stay: removing one another run may be about to lock is a race */
	for (i = 0; i < l->n; i++)
		if (l->slots[i].fd >= 0)
			close(l->slots[i].fd);
	free(l->slots);
	free(l);
}
