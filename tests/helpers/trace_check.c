// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace_check - exercise the trace module on the live kernel (root), for the
 * integration tests, and record raw pages for the unit tests.
 *
 *   trace_check run [--hold S]    trace sched,irq,timer for a moment with 20
 *                                 trace_marker writes carrying CLOCK_MONOTONIC;
 *                                 print facts as key=value; --hold sleeps S s
 *                                 with tracing on before the read (for SIGKILL)
 *   trace_check record DIR        write DIR/cpuN.raw (raw pages) after 1 s of
 *                                 sched,irq,timer events plus markers, and copy
 *                                 the event formats to DIR/events/
 *   trace_check stream            streaming mode: 10 bursts of 200 numbered
 *                                 markers, the buffers drained between bursts
 *                                 while tracing stays on and their pages kept;
 *                                 prints what came back, and how many drains
 *                                 left every marker so far in the kept pages
 *                                 with rtm_trace_kept_until() after the burst,
 *                                 and the kept markers from marker 1000's time
 *   trace_check overflow          streaming mode with a 64 KB buffer that is
 *                                 never drained in time: the loss must be counted
 *   trace_check steal             a stream's steal times from its /proc/stat kept
 *                                 open, read three times, beside a fresh read
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "helper.h"
#include "record.h"
#include "trace/stream.h"
#include "tracefs/instance.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

struct facts {
	long per_type[RTM_EV_NTYPES];
	long markers;
	int64_t max_delta, min_delta;
	uint64_t last_ts[256];
	long disorder;
};

static int on_event(const struct rtm_event *ev, void *arg)
{
	struct facts *f = arg;
	unsigned long long v;

	f->per_type[ev->type]++;
	if (ev->cpu >= 0 && ev->cpu < 256) {
		if (ev->ts_ns < f->last_ts[ev->cpu])
			f->disorder++;
		f->last_ts[ev->cpu] = ev->ts_ns;
	}
	if (ev->type == RTM_EV_PRINT && sscanf(ev->print.buf, "rtm-clock %llu", &v) == 1) {
		int64_t d = (int64_t)(ev->ts_ns - v);

		if (!f->markers || d > f->max_delta)
			f->max_delta = d;
		if (!f->markers || d < f->min_delta)
			f->min_delta = d;
		f->markers++;
	}
	return 0;
}

static void activity(struct rtm_trace *t)
{
	struct timespec ms = { 0, 1000000 };
	int i;

	for (i = 0; i < 20; i++) {
		rtm_trace_marker(t, "rtm-clock %" PRIu64, mono_ns());
		nanosleep(&ms, NULL);
	}
}

struct stream_facts {
	long markers, out_of_order;
	long next;			/* the sequence number expected next */
	uint64_t from;			/* markers before this time are not counted */
	long want;			/* the marker whose time goes into want_ts */
	uint64_t want_ts;
};

static int on_stream_event(const struct rtm_event *ev, void *arg)
{
	struct stream_facts *f = arg;
	long seq;

	if (ev->type != RTM_EV_PRINT || sscanf(ev->print.buf, "rtm-seq %ld", &seq) != 1 ||
	    ev->ts_ns < f->from)
		return 0;
	if (seq == f->want)
		f->want_ts = ev->ts_ns;
	f->markers++;
	if (seq != f->next)
		f->out_of_order++;
	f->next = seq + 1;
	return 0;
}

/* The per-CPU trace_pipe_raw files this process holds open now. */
static int open_readers(void)
{
	char link[PATH_MAX], path[64];
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	ssize_t len;

	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len > 0) {
			link[len] = '\0';
			n += strstr(link, "/trace_pipe_raw") != NULL;
		}
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * Streaming: tracing stays on and the buffers are drained as we go. With
 * @drain every marker must come back once, in order, with nothing lost; without
 * it the small buffer overflows and the loss must show in the counts.
 */
static int stream(bool drain)
{
	struct rtm_trace_opts o = { .events = "sched,irq,timer", .buffer_kb = drain ? 1024 : 64,
				    .overwrite = false };
	struct stream_facts f = { .want = 1000 }, kf;
	struct rtm_error err = { "" };
	struct timespec pause = { 0, 100000000 };
	const int bursts = 10, per_burst = drain ? 200 : 2000;
	struct rtm_trace *t;
	uint64_t lost = 0, l, written_by, until;
	long n, drains = 0, kept_whole = 0, kept_markers = -1, kept_from = -1;
	cpu_set_t one;
	int b, i, readers, cpu;
	bool wrapped = false;

	/* stay on one CPU: each CPU's buffer is read in turn, so order holds per CPU */
	cpu = sched_getcpu();
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
	helper_name = "trace_check";
	t = rtm_trace_create(&o, &err);
	if (!t)
		die(2, "%s", err.msg);
	/* drained, the pages are kept too (the stream as flight recorder): 4 MB */
	if (drain && rtm_trace_keep(t, 4096))
		die(2, "rtm_trace_keep failed");
	printf("instance=%s\n", rtm_trace_name(t));
	rtm_trace_start(t);
	for (b = 0; b < bursts; b++) {
		for (i = 0; i < per_burst; i++)
			rtm_trace_marker(t, "rtm-seq %d", b * per_burst + i);
		written_by = mono_ns();
		nanosleep(&pause, NULL);
		if (!drain)
			continue;
		l = 0;
		n = rtm_trace_read(t, on_stream_event, &f, &l, &err);	/* tracing stays on */
		if (n < 0)
			break;
		lost += l;
		drains++;
		/* the read began after the burst: every marker so far is kept */
		until = rtm_trace_kept_until(t);
		memset(&kf, 0, sizeof(kf));
		if (until > written_by && until <= mono_ns() &&
		    rtm_trace_read_kept(t, cpu, 0, on_stream_event, &kf, NULL, &wrapped, &err) >= 0 &&
		    !wrapped && kf.markers == (long)(b + 1) * per_burst && !kf.out_of_order)
			kept_whole++;
	}
	rtm_trace_stop(t);
	l = 0;
	n = rtm_trace_read(t, on_stream_event, &f, &l, &err);
	lost += l;
	l = rtm_trace_dropped(t);
	if (drain) {
		memset(&kf, 0, sizeof(kf));
		if (rtm_trace_read_kept(t, cpu, 0, on_stream_event, &kf, NULL, &wrapped, &err) >= 0)
			kept_markers = kf.markers;
		/* a window from marker 1000's time: the pages before are skipped, none of it */
		memset(&kf, 0, sizeof(kf));
		kf.from = f.want_ts;
		kf.next = 1000;
		if (f.want_ts &&
		    rtm_trace_read_kept(t, cpu, f.want_ts, on_stream_event, &kf, NULL, &wrapped,
					&err) >= 0 && !kf.out_of_order)
			kept_from = kf.markers;
	}
	readers = open_readers();
	rtm_trace_destroy(t);
	if (n < 0) {
		fprintf(stderr, "trace_check: %s\n", err.msg);
		return 1;
	}
	printf("written=%d markers=%ld out_of_order=%ld drains=%ld lost=%llu dropped=%llu "
	       "readers=%d kept_whole=%ld kept_markers=%ld kept_from_1000=%ld\n",
	       bursts * per_burst, f.markers, f.out_of_order, drains, (unsigned long long)lost,
	       (unsigned long long)l, readers, kept_whole, kept_markers, kept_from);
	return 0;
}

/*
 * rtm_stream_steal() reads /proc/stat through the descriptor and buffer the
 * stream keeps: three reads agree with rtm_stream_read_steal()'s fresh one
 * (within a tick of 10 ms, the file's unit) and list the same CPUs.
 */
static int steal(void)
{
	int zero = 0;
	struct rtm_cpulist cpus = { .n = 1, .cpus = &zero };
	struct rtm_stream_opts so = { .cpus = &cpus, .rt_hold_ns = 100000000ULL };
	struct rtm_error err = { "" };
	int64_t a[256], b[256];
	int i, k, n = (int)sysconf(_SC_NPROCESSORS_CONF), same = 0, listed = 0;
	struct rtm_stream *st;

	if (n > 256)
		n = 256;
	helper_name = "trace_check";
	st = rtm_stream_start(&so, &err);
	if (!st)
		die(2, "%s", err.msg);
	printf("instance=%s\n", rtm_trace_name(rtm_stream_trace(st)));
	for (k = 0; k < 3; k++) {
		rtm_stream_steal(st, a, n);
		rtm_stream_read_steal(b, n);
		for (i = 0; i < n; i++) {
			listed += a[i] >= 0;
			same += (a[i] < 0) == (b[i] < 0) && llabs(a[i] - b[i]) <= 10000000LL;
		}
	}
	rtm_stream_free(st);
	printf("reads=3 cpus=%d listed=%d agree=%d\n", n, listed, same);
	return 0;
}

int main(int argc, char **argv)
{
	struct rtm_trace_opts o = { .events = "sched,irq,timer", .buffer_kb = 4096,
				    .overwrite = true };
	struct rtm_error err = { "" };
	struct facts f = { { 0 }, 0, 0, 0, { 0 }, 0 };
	struct rtm_trace *t;
	uint64_t lost = 0;
	long n;
	int i;

	if (argc == 2 && (!strcmp(argv[1], "stream") || !strcmp(argv[1], "overflow")))
		return stream(!strcmp(argv[1], "stream"));
	if (argc == 2 && !strcmp(argv[1], "steal"))
		return steal();
	if (argc < 2 || (strcmp(argv[1], "run") && strcmp(argv[1], "record")) ||
	    (!strcmp(argv[1], "record") && argc != 3)) {
		fprintf(stderr, "usage: trace_check run [--hold S] | record DIR | stream | overflow | steal\n");
		return 2;
	}
	t = rtm_trace_create(&o, &err);
	if (!t) {
		fprintf(stderr, "trace_check: %s\n", err.msg);
		return 2;
	}
	printf("instance=%s\nstale=%s\n", rtm_trace_name(t), rtm_trace_stale_removed(t));
	fflush(stdout);
	rtm_trace_start(t);
	activity(t);
	if (argc == 4 && !strcmp(argv[2], "--hold"))
		sleep((unsigned int)atoi(argv[3]));
	if (!strcmp(argv[1], "record")) {
		sleep(1);
		activity(t);
		rtm_trace_stop(t);
		if (rtm_trace_save_formats(argv[2], &err) ||
		    rtm_trace_read_pages(t, helper_write_page, argv[2], &err)) {
			fprintf(stderr, "trace_check: recording failed: %s\n", err.msg);
			rtm_trace_destroy(t);
			return 1;
		}
		rtm_trace_destroy(t);
		return 0;
	}
	rtm_trace_stop(t);
	n = rtm_trace_read(t, on_event, &f, &lost, &err);
	lost += rtm_trace_dropped(t);
	rtm_trace_destroy(t);
	if (n < 0) {
		fprintf(stderr, "trace_check: %s\n", err.msg);
		return 1;
	}
	printf("events=%ld lost=%llu markers=%ld disorder=%ld min_delta_ns=%lld max_delta_ns=%lld\n",
	       n, (unsigned long long)lost, f.markers, f.disorder, (long long)f.min_delta,
	       (long long)f.max_delta);
	for (i = 0; i < RTM_EV_NTYPES; i++)
		printf("%s=%ld%s", rtm_ev_type_name((enum rtm_ev_type)i), f.per_type[i],
		       i == RTM_EV_NTYPES - 1 ? "\n" : " ");
	return 0;
}
