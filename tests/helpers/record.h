/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record.h - what the helpers that record trace windows for the unit tests
 * share (trace_check, cpuacct_record, timerirq_record, noiseattr_record,
 * census_record): raw pages written as tests/data keeps them, and read back as
 * one event per line for working out a test's expected figures by hand; the
 * injector started; a cyclictest-like sleeper. Include after helper.h.
 */
#ifndef RTM_TEST_RECORD_H
#define RTM_TEST_RECORD_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tracefs/tracedec.h"

/*
 * An rtm_trace_read_pages() callback: the raw page appended to @arg (a folder)
 * /cpuN.raw, as the recorded windows under tests/data keep them.
 */
static inline int helper_write_page(void *page, int size, int cpu, void *arg)
{
	const char *dir = arg;
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
	f = fopen(path, "a");
	if (!f || fwrite(page, 1, (size_t)size, f) != (size_t)size) {
		if (f)
			fclose(f);
		return -EIO;
	}
	return fclose(f) ? -EIO : 0;
}

/* One event as the listing shows it: the decoder's line and the writer's pid. */
static inline int helper_print_event(const struct rtm_event *ev, void *arg)
{
	char line[512];

	(void)arg;
	rtm_event_format(ev, line, sizeof(line));
	printf("%s  [pid %d]\n", line, ev->pid);
	return 0;
}

/*
 * Print the events of @dir/cpu@cpu.raw (with @dir's formats) one per line
 * (helper_print_event), then "lost N". Dies on an unreadable window.
 */
static inline int helper_list_pages(const char *dir, int cpu)
{
	struct rtm_error err = { "" };
	struct rtm_tracedec *d = rtm_tracedec_alloc(dir, &err);
	char path[4096], page[4096];
	uint64_t lost = 0;
	FILE *f;

	if (!d)
		die(1, "%s", err.msg);
	snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
	f = fopen(path, "r");
	if (!f)
		die(1, "cannot open %s", path);
	while (fread(page, 1, sizeof(page), f) == sizeof(page))
		rtm_tracedec_page(d, page, cpu, helper_print_event, NULL, &lost);
	fclose(f);
	rtm_tracedec_free(d);
	printf("lost %llu\n", (unsigned long long)lost);
	return 0;
}

/*
 * tests/helpers/inject at @path (PATH) on @cpu with the given --spin, --every,
 * --count, --priority and --delay, its stdout (one line per injection) into
 * the file @out; returns its pid (the caller waits for it).
 */
static inline pid_t helper_start_inject(const char *path, int cpu, const char *out,
					const char *spin, const char *every, const char *count,
					const char *prio, const char *delay)
{
	char c[16];
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	snprintf(c, sizeof(c), "%d", cpu);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || dup2(fd, 1) < 0)
		_exit(1);
	execl(path, path, "--cpu", c, "--spin", spin, "--every", every, "--count", count,
	      "--priority", prio, "--delay", delay, (char *)NULL);
	_exit(127);
}

#define HELPER_SLEEPER_MAX	4000	/* wake-ups a sleeper records */

/*
 * A cyclictest-like sleeper thread (start with pthread_create on
 * helper_sleeper_main): pinned to @cpu at FIFO 95, @loops absolute sleeps of
 * @period_ns on CLOCK_MONOTONIC, each wake-up's planned time and latency kept.
 * With @skip_late a wake-up past the next boundary skips it, as the probe does
 * (the skipped ones keep planned 0). @tid and @err (errno) are filled in.
 */
struct helper_sleeper {
	int cpu, loops, tid, err;
	uint64_t period_ns;
	bool skip_late;
	uint64_t planned[HELPER_SLEEPER_MAX], lat[HELPER_SLEEPER_MAX];
};

static inline void *helper_sleeper_main(void *arg)
{
	struct helper_sleeper *s = arg;
	struct sched_param sp = { .sched_priority = 95 };
	uint64_t next, per = s->period_ns;
	struct timespec ts;
	cpu_set_t one;
	int i;

	s->tid = (int)syscall(SYS_gettid);
	CPU_ZERO(&one);
	CPU_SET(s->cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) || sched_setscheduler(0, SCHED_FIFO, &sp)) {
		s->err = errno;
		return NULL;
	}
	next = (now_ns() / per + 2) * per;
	for (i = 0; i < s->loops; i++, next += per) {
		ts.tv_sec = (time_t)(next / 1000000000ULL);
		ts.tv_nsec = (long)(next % 1000000000ULL);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		s->lat[i] = now_ns() - next;
		s->planned[i] = next;
		while (s->skip_late && next + per < now_ns() && i + 1 < s->loops) {
			next += per;
			s->planned[++i] = 0;
		}
	}
	return NULL;
}

#endif
