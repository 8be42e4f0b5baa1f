// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: decode raw ring-buffer pages recorded on this VM's kernel
 * (tests/data/trace-vm-6.18: cpuN.raw + the kernel's format files) through
 * libtraceevent, without root or tracefs; load the PREEMPT_RT kernel's formats;
 * survive corrupt pages.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracedec.h"
#include "../tap.h"

struct facts {
	long n, per_type[RTM_EV_NTYPES];
	long markers, marker_bad_delta, disorder, bad_comm, timer_vectors, bad_vectors;
	uint64_t last_ts[8];
};

static int printable(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < 32 || *s > 126)
			return 0;
	return 1;
}

static int on_event(const struct rtm_event *ev, void *arg)
{
	struct facts *f = arg;
	unsigned long long v;

	f->n++;
	f->per_type[ev->type]++;
	if (ev->ts_ns < f->last_ts[ev->cpu & 7])
		f->disorder++;
	f->last_ts[ev->cpu & 7] = ev->ts_ns;
	switch (ev->type) {
	case RTM_EV_PRINT:
		if (sscanf(ev->print.buf, "rtm-clock %llu", &v) == 1) {
			f->markers++;
			/* written right after reading CLOCK_MONOTONIC: the event comes after */
			if (ev->ts_ns < v || ev->ts_ns - v > 1000000)
				f->marker_bad_delta++;
		}
		break;
	case RTM_EV_SCHED_SWITCH:
		if (!printable(ev->sw.prev_comm) || !printable(ev->sw.next_comm) ||
		    ev->sw.prev_pid < 0 || ev->sw.next_pid < 0 || ev->sw.next_prio > 139)
			f->bad_comm++;
		break;
	case RTM_EV_VECTOR_ENTRY:
		if (!strcmp(ev->name, "local_timer_entry")) {
			f->timer_vectors++;
			if (ev->vector.vector != 236)	/* LOCAL_TIMER_VECTOR on x86 */
				f->bad_vectors++;
		}
		break;
	default:
		break;
	}
	return 0;
}

static long decode_file(struct rtm_tracedec *d, const char *path, int cpu, struct facts *f,
			uint64_t *lost)
{
	int psize = rtm_tracedec_page_size(d);
	char *page = malloc((size_t)psize);
	FILE *fp = fopen(path, "r");
	long pages = 0;

	while (fp && page && fread(page, 1, (size_t)psize, fp) == (size_t)psize) {
		if (rtm_tracedec_page(d, page, cpu, on_event, f, lost) < 0)
			break;
		pages++;
	}
	if (fp)
		fclose(fp);
	free(page);
	return pages;
}

static int stop_after_one(const struct rtm_event *ev, void *arg)
{
	(void)ev;
	(*(int *)arg)++;
	return 42;
}

int main(void)
{
	const char *data = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct rtm_error err = { "" };
	struct facts f = { 0 };
	struct rtm_tracedec *d;
	uint64_t lost = 0;
	long pages = 0;
	int cpu;

	snprintf(dir, sizeof(dir), "%s/trace-vm-6.18", data);
	d = rtm_tracedec_alloc(dir, &err);
	if (!ok(d != NULL, "formats of kernel 6.18 load (%s)", err.msg))
		return tap_done();
	is_int(rtm_tracedec_page_size(d), 4096, "sub-buffer size from header_page");
	for (cpu = 0; cpu < 2; cpu++) {
		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
		pages += decode_file(d, path, cpu, &f, &lost);
	}
	is_int(pages, 14, "14 recorded pages (9 + 5)");
	ok(f.n > 1000, "%ld events decoded", f.n);
	is_int(lost, 0, "no events reported lost");
	is_int(f.markers, 40, "all 40 trace_marker writes found as ftrace:print");
	is_int(f.marker_bad_delta, 0, "marker times: event after the clock read, within 1 ms (mono)");
	is_int(f.disorder, 0, "timestamps never go back within a CPU");
	ok(f.per_type[RTM_EV_SCHED_SWITCH] > 0 && f.bad_comm == 0,
	   "%ld sched_switch events with sane comm/pid/prio", f.per_type[RTM_EV_SCHED_SWITCH]);
	ok(f.per_type[RTM_EV_SCHED_WAKEUP] > 0 && f.per_type[RTM_EV_SCHED_WAKING] > 0,
	   "sched_wakeup and sched_waking decoded");
	ok(f.per_type[RTM_EV_HRTIMER_ENTRY] > 0 &&
	   f.per_type[RTM_EV_HRTIMER_ENTRY] - f.per_type[RTM_EV_HRTIMER_EXIT] <= 2 &&
	   f.per_type[RTM_EV_HRTIMER_EXIT] - f.per_type[RTM_EV_HRTIMER_ENTRY] <= 2,
	   "hrtimer entries and exits pair up (%ld / %ld)", f.per_type[RTM_EV_HRTIMER_ENTRY],
	   f.per_type[RTM_EV_HRTIMER_EXIT]);
	ok(f.timer_vectors > 0 && f.bad_vectors == 0,
	   "local_timer_entry carries vector 236 (%ld events)", f.timer_vectors);
	ok(f.per_type[RTM_EV_SOFTIRQ_ENTRY] > 0, "softirq entries decoded");

	/* a callback can stop the walk; its value comes back */
	{
		char *page = calloc(1, 4096);
		FILE *fp;
		int seen = 0;

		snprintf(path, sizeof(path), "%s/cpu0.raw", dir);
		fp = fopen(path, "r");
		if (fp && page && fread(page, 1, 4096, fp) == 4096)
			is_int(rtm_tracedec_page(d, page, 0, stop_after_one, &seen, NULL), 42,
			       "a non-zero callback return stops the walk");
		is_int(seen, 1, "after one event");
		if (fp)
			fclose(fp);

		/* corrupt pages: no crash, no wild reads (run under ASan too) */
		memset(page, 0, 4096);
		ok(rtm_tracedec_page(d, page, 0, on_event, &f, NULL) >= 0, "an empty page");
		srand(7);
		for (int k = 0; k < 200; k++) {
			for (int b = 16; b < 4096; b++)
				page[b] = (char)rand();
			((uint64_t *)page)[1] = (uint64_t)(rand() % 4080);	/* commit size */
			rtm_tracedec_page(d, page, 0, NULL, NULL, NULL);
		}
		ok(1, "200 random pages decoded or rejected without a crash");
		free(page);
	}
	rtm_tracedec_free(d);

	/* the PREEMPT_RT kernel's formats (recorded under qemu) load too */
	snprintf(dir, sizeof(dir), "%s/sysroot-rt-6.1/sys/kernel/tracing", data);
	d = rtm_tracedec_alloc(dir, &err);
	ok(d != NULL, "formats of Debian's 6.1 PREEMPT_RT kernel load (%s)", err.msg);
	rtm_tracedec_free(d);

	err.msg[0] = '\0';
	d = rtm_tracedec_alloc("/nonexistent/tracing", &err);
	ok(!d && one_line(err.msg), "no formats: %s", err.msg);
	rtm_tracedec_free(d);
	return tap_done();
}
