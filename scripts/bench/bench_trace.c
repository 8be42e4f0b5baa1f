// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_trace - decoding throughput of rtmeasure's trace decoder.
 *
 *   bench_trace record DIR SECONDS BUFFER_KB   trace sched,irq,timer into a
 *       private instance (no overwrite) for SECONDS, then write DIR/cpuN.raw and
 *       the format files (root; run a workload meanwhile)
 *   bench_trace decode DIR                    decode every page on one core;
 *       prints "events=N seconds=S events_per_s=R lost=L"
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
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

static int record(const char *dir, unsigned int secs, size_t kb)
{
	struct rtm_trace_opts o = { .events = "sched,irq,timer", .buffer_kb = kb };
	struct rtm_error err = { "" };
	FILE *files[256] = { NULL };
	char path[PATH_MAX + 64];
	struct rtm_trace *t;
	int cpu, ncpu = (int)sysconf(_SC_NPROCESSORS_CONF), ret;

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
	rtm_trace_start(t);
	sleep(secs);
	rtm_trace_stop(t);
	ret = rtm_trace_read_pages(t, write_page, files, &err);
	printf("recorded; the kernel dropped or overwrote %" PRIu64 " events (buffer full)\n",
	       rtm_trace_dropped(t));
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

static int decode(const char *dir)
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
	t0 = now_s();
	for (i = 0; i < npages; i++) {
		int n = rtm_tracedec_page(d, buf + i * psize, page_cpu[i], count_event, &sink,
					  &lost);

		if (n > 0)
			events += (uint64_t)n;
	}
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
	if (argc == 5 && !strcmp(argv[1], "record"))
		return record(argv[2], (unsigned int)atoi(argv[3]), (size_t)atol(argv[4]));
	if (argc == 3 && !strcmp(argv[1], "decode"))
		return decode(argv[2]);
	fprintf(stderr, "usage: bench_trace record DIR SECONDS BUFFER_KB | decode DIR\n");
	return 2;
}
