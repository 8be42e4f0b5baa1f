// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_trace - decoding throughput of rtmeasure's trace decoder.
 *
 *   bench_trace record DIR SECONDS BUFFER_KB [PID]   trace sched,irq,timer
 *       into a private instance (no overwrite) for SECONDS, or until a CPU's
 *       buffer is three quarters full (so the kernel drops nothing), then write
 *       DIR/cpuN.raw and the format files (root; run a workload meanwhile).
 *       PID gets a SIGINT when tracing stops: a reference recorder started
 *       before covers the same time.
 *   bench_trace decode DIR [PAGES]            decode every page (or the first
 *       PAGES) on one core; prints "events=N seconds=S events_per_s=R lost=L".
 *       Under callgrind --toggle-collect=decode_all, the instructions counted are
 *       the decoding's alone (not the loading of formats and pages).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tracefs/instance.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int write_page(void *page, int size, int cpu, void *arg)
{
	FILE **files = arg;

	if (cpu >= 256 || !files[cpu])
		return -EINVAL;
	return fwrite(page, 1, (size_t)size, files[cpu]) == (size_t)size ? 0 : -EIO;
}

/* The bytes of events a CPU's buffer holds, from per_cpu/cpuN/stats ("bytes: N"). */
static uint64_t held_bytes(struct rtm_trace *t, const char *top, int cpu)
{
	char path[PATH_MAX], line[128];
	uint64_t bytes = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/instances/%s/per_cpu/cpu%d/stats", top,
		 rtm_trace_name(t), cpu);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "bytes: %" SCNu64, &bytes) == 1)
			break;
	if (f)
		fclose(f);
	return bytes;
}

/*
 * Trace for @secs, or less: until a CPU's buffer is 3/4 full. The seconds traced;
 * *longest: the longest of the 50 ms polls (switching on and off included), which shows a
 * box that stalled the recorder past its plan.
 */
static double trace_until_full(struct rtm_trace *t, int ncpu, unsigned int secs, size_t kb,
			       double *longest)
{
	const char *top = rtm_trace_find_tracefs(NULL);
	double t0 = now_s(), t1, prev = t0;
	int cpu;

	*longest = 0;
	rtm_trace_start(t);
	for (t1 = now_s(); t1 - t0 < secs; t1 = now_s()) {
		if (t1 - prev > *longest)
			*longest = t1 - prev;
		prev = t1;
		usleep(50000);
		for (cpu = 0; top && cpu < ncpu; cpu++)
			if (held_bytes(t, top, cpu) > kb * 1024 / 4 * 3)
				break;
		if (top && cpu < ncpu)
			break;
	}
	rtm_trace_stop(t);
	t1 = now_s();
	if (t1 - prev > *longest)
		*longest = t1 - prev;
	return t1 - t0;
}

static int record(const char *dir, unsigned int secs, size_t kb, pid_t reference)
{
	struct rtm_trace_opts o = { .events = "sched,irq,timer", .buffer_kb = kb };
	struct rtm_error err = { "" };
	FILE *files[256] = { NULL };
	char path[PATH_MAX + 64];
	struct rtm_trace *t;
	int cpu, ncpu = (int)sysconf(_SC_NPROCESSORS_CONF), ret;
	double traced, longest;

	t = rtm_trace_create(&o, &err);
	if (!t) {
		fprintf(stderr, "bench_trace: %s\n", err.msg);
		return 2;
	}
	mkdir(dir, 0755);
	for (cpu = 0; cpu < ncpu && cpu < 256; cpu++) {
		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
		files[cpu] = fopen(path, "w");
	}
	traced = trace_until_full(t, ncpu, secs, kb, &longest);
	if (reference > 0)
		kill(reference, SIGINT);
	ret = rtm_trace_read_pages(t, write_page, files, &err);
	printf("recorded %.1f s%s; the kernel dropped %" PRIu64 " events (buffer full)\n", traced,
	       traced < secs ? " (a CPU's buffer 3/4 full)" : "", rtm_trace_dropped(t));
	if (longest > 1.0)
		printf("note: the recorder was held up: one poll of 50 ms took %.1f s (the box "
		       "stalled or was overloaded)\n", longest);
	for (cpu = 0; cpu < 256; cpu++)
		if (files[cpu])
			fclose(files[cpu]);
	rtm_trace_destroy(t);
	if (!ret)
		ret = rtm_trace_save_formats(dir, &err);
	if (ret) {
		fprintf(stderr, "bench_trace: recording failed: %s\n", err.msg);
		return 1;
	}
	return 0;
}

static int count_event(const struct rtm_event *ev, void *arg)
{
	(*(uint64_t *)arg) += (uint64_t)ev->type + 1;	/* touch the decoded event */
	return 0;
}

/* The timed part: every page through the decoder, in the order they were recorded. */
static uint64_t __attribute__((noinline)) decode_all(struct rtm_tracedec *d, char *buf,
						    const int *page_cpu, size_t npages,
						    uint64_t *sink, uint64_t *lost)
{
	size_t psize = (size_t)rtm_tracedec_page_size(d), i;
	uint64_t events = 0;

	for (i = 0; i < npages; i++) {
		int n = rtm_tracedec_page(d, buf + i * psize, page_cpu[i], count_event, sink,
					  lost);

		if (n > 0)
			events += (uint64_t)n;
	}
	return events;
}

static int decode(const char *dir, size_t max_pages)
{
	struct rtm_error err = { "" };
	struct rtm_tracedec *d = rtm_tracedec_alloc(dir, &err);
	uint64_t events = 0, lost = 0, sink = 0;
	char path[PATH_MAX + 64];
	size_t psize, npages = 0, i;
	char *buf = NULL;
	int cpu, *page_cpu = NULL;
	double t0, t1;

	if (!d) {
		fprintf(stderr, "bench_trace: %s\n", err.msg);
		return 2;
	}
	psize = (size_t)rtm_tracedec_page_size(d);
	/* load everything first: the timing is decoding only, not disk reads */
	for (cpu = 0; cpu < 256; cpu++) {
		FILE *f;
		long sz;

		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
		f = fopen(path, "r");
		if (!f)
			continue;
		fseek(f, 0, SEEK_END);
		sz = ftell(f);
		rewind(f);
		buf = realloc(buf, (npages + (size_t)sz / psize) * psize);
		page_cpu = realloc(page_cpu, (npages + (size_t)sz / psize) * sizeof(int));
		if (!buf || !page_cpu)
			return 1;
		for (i = 0; i < (size_t)sz / psize; i++) {
			if (fread(buf + (npages + i) * psize, 1, psize, f) != psize)
				break;
			page_cpu[npages + i] = cpu;
		}
		npages += i;
		fclose(f);
	}
	if (max_pages && npages > max_pages)
		npages = max_pages;
	t0 = now_s();
	events = decode_all(d, buf, page_cpu, npages, &sink, &lost);
	t1 = now_s();
	printf("events=%" PRIu64 " pages=%zu seconds=%.3f events_per_s=%.0f lost=%" PRIu64
	       " (checksum %" PRIu64 ")\n", events, npages, t1 - t0,
	       (double)events / (t1 - t0), lost, sink);
	free(buf);
	free(page_cpu);
	rtm_tracedec_free(d);
	return 0;
}

int main(int argc, char **argv)
{
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "record"))
		return record(argv[2], (unsigned int)atoi(argv[3]), (size_t)atol(argv[4]),
			      argc == 6 ? (pid_t)atoi(argv[5]) : 0);
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "decode"))
		return decode(argv[2], argc == 4 ? (size_t)atol(argv[3]) : 0);
	fprintf(stderr, "usage: bench_trace record DIR SECONDS BUFFER_KB [PID] | "
		"decode DIR [PAGES]\n");
	return 2;
}
