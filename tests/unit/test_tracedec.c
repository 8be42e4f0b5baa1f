// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: decode raw ring-buffer pages recorded on this VM's kernel
 * (tests/data/trace-vm-6.18) and on Debian's 6.1 PREEMPT_RT kernel in the
 * kernel lab (tests/data/trace-rt-6.1, whose events carry the extra common
 * field common_preempt_lazy_count): cpuN.raw + the kernel's format files,
 * through libtraceevent, without root or tracefs; survive corrupt pages.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/fileio.h"
#include "tracefs/tracedec.h"
#include "../tap.h"

struct facts {
	long n, per_type[RTM_EV_NTYPES];
	long markers, marker_bad_delta, disorder, bad_comm, timer_vectors, bad_vectors;
	long irq_threads;		/* switches to irq/N-name at FIFO 50 (kernel prio 49) */
	long other;			/* events of types we do not interpret */
	uint64_t marker_max_ns;		/* how long after the clock read a marker may come */
	uint64_t last_ts[8];
	/* libtraceevent's own text of every event */
	struct rtm_tracedec *d;
	long printed, print_failed, hrtimer_start, hrtimer_start_ok, switch_ok, stat_runtime;
	long stat_runtime_ok;
	long switch_pid_ok;		/* sched_switch recorded in prev's context: pid == prev_pid */
	long start_ok;			/* hrtimer_start: softexpires <= expires, a timer, a handler */
	long start_text_ok;		/* ... and libtraceevent prints the same expires */
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
	if (f->d) {
		char text[512], want[64];

		if (rtm_tracedec_print(f->d, ev, text, sizeof(text)) > 0 && printable(text))
			f->printed++;
		else
			f->print_failed++;
		if (!strcmp(ev->name, "hrtimer_start")) {
			f->hrtimer_start++;
			f->hrtimer_start_ok += strstr(text, "hrtimer=") && strstr(text, "expires=");
			snprintf(want, sizeof(want), " expires=%lld softexpires=%lld",
				 (long long)ev->hrstart.expires, (long long)ev->hrstart.softexpires);
			f->start_text_ok += ev->type == RTM_EV_HRTIMER_START &&
					    strstr(text, want) != NULL;
		}
		if (!strcmp(ev->name, "sched_stat_runtime")) {
			f->stat_runtime++;
			f->stat_runtime_ok += strstr(text, "runtime=") != NULL;
		}
		if (ev->type == RTM_EV_SCHED_SWITCH) {
			snprintf(want, sizeof(want), "==> next_comm=%s next_pid=%d", ev->sw.next_comm,
				 ev->sw.next_pid);
			f->switch_ok += strstr(text, want) != NULL;
		}
	}
	if (ev->ts_ns < f->last_ts[ev->cpu & 7])
		f->disorder++;
	f->last_ts[ev->cpu & 7] = ev->ts_ns;
	switch (ev->type) {
	case RTM_EV_PRINT:
		if (sscanf(ev->print.buf, "rtm-clock %llu", &v) == 1) {
			f->markers++;
			/* written right after reading CLOCK_MONOTONIC: the event comes after */
			if (ev->ts_ns < v || ev->ts_ns - v > f->marker_max_ns)
				f->marker_bad_delta++;
		}
		break;
	case RTM_EV_SCHED_SWITCH:
		if (!printable(ev->sw.prev_comm) || !printable(ev->sw.next_comm) ||
		    ev->sw.prev_pid < 0 || ev->sw.next_pid < 0 || ev->sw.next_prio > 139)
			f->bad_comm++;
		f->switch_pid_ok += ev->pid == ev->sw.prev_pid;
		if (!strncmp(ev->sw.next_comm, "irq/", 4) && ev->sw.next_prio == 49)
			f->irq_threads++;
		break;
	case RTM_EV_OTHER:
		f->other++;
		break;
	case RTM_EV_HRTIMER_START:
		f->start_ok += ev->hrstart.hrtimer && ev->hrstart.function &&
			       ev->hrstart.softexpires <= ev->hrstart.expires;
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

/* The first page of cpu0.raw into @page (4096 bytes). */
static bool fp_read_page(const char *dir, char *page)
{
	char path[PATH_MAX + 16];
	FILE *fp;
	bool ok;

	snprintf(path, sizeof(path), "%s/cpu0.raw", dir);
	fp = fopen(path, "r");
	ok = fp && fread(page, 1, 4096, fp) == 4096;
	if (fp)
		fclose(fp);
	return ok;
}

/* Hand-made pages: u64 time stamp, u64 commit, then 4-byte-aligned records. */
static void check_commit_edges(struct rtm_tracedec *d, char *page)
{
	uint64_t lost = 0;
	uint32_t hdr;

	/* a full page of padding: commit 4080 is the most a page holds */
	memset(page, 0, 4096);
	((uint64_t *)page)[1] = 4080;
	hdr = 29;				/* type_len 29: padding */
	memcpy(page + 16, &hdr, 4);
	hdr = 4080 - 4;				/* its length, after its header word */
	memcpy(page + 20, &hdr, 4);
	is_int(rtm_tracedec_page(d, page, 0, NULL, NULL, NULL), 0,
	       "commit 4080 (a full page, padding only): accepted, no events");

	/* events missed before the page, their count stored after the records */
	((uint64_t *)page)[1] = (1ull << 31) | (1ull << 30) | 8;
	((uint64_t *)(page + 16 + 8))[0] = 1234;
	hdr = 8 - 4;
	memcpy(page + 20, &hdr, 4);
	is_int(rtm_tracedec_page(d, page, 0, NULL, NULL, &lost), 0, "missed-events page");
	is_int((long)lost, 1234, "the stored count of missed events is counted");
	((uint64_t *)page)[1] = (1ull << 31) | (1ull << 30) | 4080;
	is_int(rtm_tracedec_page(d, page, 0, NULL, NULL, &lost), -EINVAL,
	       "a missed-events count claimed beyond the page: rejected");

	/* a record whose length runs past the commit */
	memset(page, 0, 4096);
	((uint64_t *)page)[1] = 64;
	hdr = 0;				/* type_len 0: length in the next word */
	memcpy(page + 16, &hdr, 4);
	hdr = 0x10000;
	memcpy(page + 20, &hdr, 4);
	is_int(rtm_tracedec_page(d, page, 0, NULL, NULL, NULL), -EINVAL,
	       "a record longer than the commit: rejected");

	/* a data record of 4 bytes cannot hold the common fields */
	((uint64_t *)page)[1] = 8;
	hdr = 1;				/* type_len 1: 4 bytes of data */
	memcpy(page + 16, &hdr, 4);
	is_int(rtm_tracedec_page(d, page, 0, NULL, NULL, NULL), -EINVAL,
	       "a record shorter than the common fields: rejected");

	/* the writer's page (under half its room of 4080 bytes) against a page it left */
	((uint64_t *)page)[1] = 2039;
	ok(!rtm_tracedec_page_half(d, page), "commit 2039 of 4080: the writer's page");
	((uint64_t *)page)[1] = 2040;
	ok(rtm_tracedec_page_half(d, page), "commit 2040 of 4080: a page the writer left");
	((uint64_t *)page)[1] = (1ull << 31) | 4000;
	ok(rtm_tracedec_page_half(d, page), "the missed-events flag is no part of the fill");
	((uint64_t *)page)[1] = (1ull << 31) | 100;
	ok(!rtm_tracedec_page_half(d, page), "a flagged page of 100 bytes: the writer's");
	((uint64_t *)page)[1] = 5000;
	ok(rtm_tracedec_page_half(d, page), "a corrupt commit: not the writer's (the reads go on)");
}

/* What a walk over a hand-made page saw: times, and records outside the page given. */
struct walk {
	const char *page;
	int n, outside;
	uint64_t ts[4];
};

static int on_walk(const struct rtm_event *ev, void *arg)
{
	struct walk *w = arg;
	const char *raw = ev->raw;

	if (raw < w->page || raw + ev->raw_size > w->page + 4096)
		w->outside++;
	if (w->n < 4)
		w->ts[w->n] = ev->ts_ns;
	w->n++;
	return 0;
}

/* An entry header: type_len in the low 5 bits, a time delta in the other 27. */
static void put_entry(char *page, int at, uint32_t type_len, uint32_t delta, uint32_t word)
{
	uint32_t hdr = type_len | delta << 5;

	memcpy(page + 16 + at, &hdr, 4);
	memcpy(page + 16 + at + 4, &word, 4);
}

/*
 * Time extends and absolute time stamps move the records' times as the kernel
 * wrote them; the records are handed out where they lie in the page given
 * (no copy of it is decoded); a padding whose length points back at itself
 * is a corrupt page, refused, not walked forever (in a child, under an alarm).
 */
static void check_entries(struct rtm_tracedec *d, char *page)
{
	struct walk w = { .page = page };
	int status = 0, rc;
	pid_t pid;

	memset(page, 0, 4096);
	((uint64_t *)page)[0] = 1000;
	((uint64_t *)page)[1] = 56;
	put_entry(page, 0, 30, 5, 2);		/* time extend: (2 << 27) + 5 */
	put_entry(page, 8, 4, 7, 0xffff);	/* 16 bytes of an unknown event, delta 7 */
	put_entry(page, 28, 31, 3, 1);		/* time stamp: (1 << 27) + 3 */
	put_entry(page, 36, 4, 0, 0xffff);
	rc = rtm_tracedec_page(d, page, 0, on_walk, &w, NULL);
	is_int(rc, 2, "time extend, record, time stamp, record: two records");
	ok(w.ts[0] == 1000 + (2ull << 27) + 5 + 7, "a time extend moves the next record's time "
	   "(%llu)", (unsigned long long)w.ts[0]);
	ok(w.ts[1] == (1ull << 27) + 3, "an absolute time stamp sets it (%llu)",
	   (unsigned long long)w.ts[1]);
	is_int(w.outside, 0, "records are handed out in the page given");

	memset(page, 0, 4096);
	((uint64_t *)page)[1] = 64;
	put_entry(page, 0, 29, 0, 0xfffffffc);	/* padding of length -4: back to itself */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(5);
		_exit(rtm_tracedec_page(d, page, 0, NULL, NULL, NULL) == -EINVAL ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	ok(status == 0, "a padding that points back at itself: refused, not walked forever (%s)",
	   WIFSIGNALED(status) ? "still walking after 5 s" : status ? "not refused" : "refused");
}

struct tree {
	const char *dir;		/* under tests/data */
	const char *kernel;
	bool rt;			/* PREEMPT_RT: IRQ threads, extra common fields */
	uint64_t marker_max_ns;		/* clock read -> marker event, at most */
};

/* under qemu TCG the vCPU can stall for milliseconds between the two */
static const struct tree trees[] = {
	{ "trace-vm-6.18", "6.18 (this VM)", false, 1000000 },
	{ "trace-rt-6.1", "Debian 6.1 PREEMPT_RT (qemu TCG)", true, 20000000 },
};

static long file_pages(const char *path)
{
	FILE *fp = fopen(path, "r");
	long size = -1;

	if (fp && !fseek(fp, 0, SEEK_END))
		size = ftell(fp);
	if (fp)
		fclose(fp);
	return size < 0 ? -1 : size / 4096;
}

/* The format file of sched_switch has the field (RT: common_preempt_lazy_count). */
static bool has_field(const char *dir, const char *field)
{
	char path[PATH_MAX + 64], line[512];
	bool found = false;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/format", dir);
	fp = fopen(path, "r");
	while (fp && !found && fgets(line, sizeof(line), fp))
		found = strstr(line, field) != NULL;
	if (fp)
		fclose(fp);
	return found;
}

static void check_tree(const char *data, const struct tree *t)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct rtm_error err = { "" };
	struct facts f = { .marker_max_ns = t->marker_max_ns };
	struct rtm_tracedec *d;
	struct rtm_event plain = { .name = "x" };
	char text[64];
	uint64_t lost = 0;
	long pages = 0, recorded = 0;
	int cpu;

	snprintf(dir, sizeof(dir), "%s/%s", data, t->dir);
	d = rtm_tracedec_alloc(dir, &err);
	if (!ok(d != NULL, "%s: formats of %s load (%s)", t->dir, t->kernel, err.msg))
		return;
	is_int(rtm_tracedec_page_size(d), 4096, "sub-buffer size from header_page");
	f.d = d;
	ok(has_field(dir, "common_preempt_lazy_count") == t->rt,
	   "common_preempt_lazy_count in the formats %s", t->rt ? "(RT)" : "only on RT: not here");
	for (cpu = 0; cpu < 2; cpu++) {
		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
		pages += decode_file(d, path, cpu, &f, &lost);
		recorded += file_pages(path);
	}
	ok(recorded > 2 && pages == recorded, "all %ld recorded pages decode", recorded);
	ok(f.n > 1000, "%ld events decoded", f.n);
	ok(f.other * 2 < f.n,
	   "most of them of a type we interpret (%ld others: sched_stat_runtime, ...)",
	   f.other);
	is_int(lost, 0, "no events reported lost");
	ok(f.printed == f.n && f.print_failed == 0,
	   "libtraceevent prints every event from its format (%ld of %ld, %ld failed)",
	   f.printed, f.n, f.print_failed);
	ok(f.hrtimer_start > 0 && f.hrtimer_start_ok == f.hrtimer_start,
	   "hrtimer_start prints hrtimer= and expires= (%ld of %ld)",
	   f.hrtimer_start_ok, f.hrtimer_start);
	ok(f.per_type[RTM_EV_HRTIMER_START] == f.hrtimer_start &&
	   f.start_ok == f.hrtimer_start && f.start_text_ok == f.hrtimer_start,
	   "hrtimer_start decoded: a timer, a function, softexpires <= expires, the expiry "
	   "libtraceevent prints (%ld, %ld, %ld of %ld)", f.per_type[RTM_EV_HRTIMER_START],
	   f.start_ok, f.start_text_ok, f.hrtimer_start);
	ok(f.switch_pid_ok == f.per_type[RTM_EV_SCHED_SWITCH],
	   "common_pid of sched_switch is its prev_pid (%ld of %ld)", f.switch_pid_ok,
	   f.per_type[RTM_EV_SCHED_SWITCH]);
	ok(f.stat_runtime_ok == f.stat_runtime, "sched_stat_runtime prints runtime= (%ld of %ld)",
	   f.stat_runtime_ok, f.stat_runtime);
	ok(f.switch_ok == f.per_type[RTM_EV_SCHED_SWITCH],
	   "sched_switch text names the next task as decoded (%ld of %ld)", f.switch_ok,
	   f.per_type[RTM_EV_SCHED_SWITCH]);
	ok(rtm_tracedec_print(d, &plain, text, sizeof(text)) == -EINVAL,
	   "an event without its raw record cannot be printed");
	is_int(f.markers, 40, "all 40 trace_marker writes found as ftrace:print");
	ok(f.marker_bad_delta == 0, "marker times: event after the clock read, within %llu ms (mono)",
	   (unsigned long long)(t->marker_max_ns / 1000000));
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
	ok(f.per_type[RTM_EV_SOFTIRQ_ENTRY] > 0 &&
	   labs(f.per_type[RTM_EV_SOFTIRQ_ENTRY] - f.per_type[RTM_EV_SOFTIRQ_EXIT]) <= 2,
	   "softirq entries and exits pair up (%ld / %ld)", f.per_type[RTM_EV_SOFTIRQ_ENTRY],
	   f.per_type[RTM_EV_SOFTIRQ_EXIT]);
	if (t->rt)
		ok(f.irq_threads > 0, "PREEMPT_RT: %ld switches to irq/N-name threads at FIFO 50",
		   f.irq_threads);

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
		{
			int decoded = 0, rejected = 0, wrong = 0;

			for (int k = 0; k < 200; k++) {
				uint64_t commit = (uint64_t)(rand() % 4080);
				int rc;

				for (int b = 16; b < 4096; b++)
					page[b] = (char)rand();
				((uint64_t *)page)[1] = commit;	/* commit size */
				rc = rtm_tracedec_page(d, page, 0, NULL, NULL, NULL);
				/* a record takes at least its 4-byte header */
				if (rc >= 0 && (uint64_t)rc <= commit / 4)
					decoded++;
				else if (rc == -EINVAL)
					rejected++;
				else
					wrong++;
			}
			ok(wrong == 0 && decoded + rejected == 200,
			   "200 random pages: %d decoded (at most commit/4 records each), "
			   "%d rejected with -EINVAL, %d anything else", decoded, rejected, wrong);
			ok(rejected > 0, "random bytes are caught as corrupt (%d of 200)",
			   rejected);
		}

		/* the page header's commit is checked against the page before a record is read */
		if (fp_read_page(dir, page))
			ok(rtm_tracedec_page(d, page, 0, NULL, NULL, NULL) > 0, "a recorded page");
		((uint64_t *)page)[1] = 0x0fe40028;
		is_int(rtm_tracedec_page(d, page, 0, on_event, &f, NULL), -EINVAL,
		       "a page claiming commit 0x0fe40028 is rejected");
		((uint64_t *)page)[1] = 4080 + 1;
		is_int(rtm_tracedec_page(d, page, 0, NULL, NULL, NULL), -EINVAL,
		       "commit one byte beyond the page: rejected");
		check_commit_edges(d, page);
		check_entries(d, page);
		free(page);
	}
	rtm_tracedec_free(d);
}

/* A consumer that fails on the first event with -EINVAL. */
static int fail_einval(const struct rtm_event *ev, void *arg)
{
	(void)ev;
	(void)arg;
	return -EINVAL;
}

/* Counts the events of a page, and gives up (1) past any real page's count. */
static int bounded(const struct rtm_event *ev, void *arg)
{
	long *n = arg;

	(void)ev;
	return ++*n > 4096 ? 1 : 0;
}

/*
 * A page whose padding record's length sends kbuffer's next index back to an
 * earlier record (found by fuzz_tracedec): every record of the cycle lies
 * inside the commit, so only a record that does not move forward ends it. The
 * page is refused, as any corrupt page is, instead of decoding forever.
 */
static void check_backward_record(const char *data)
{
	char dir[PATH_MAX], path[PATH_MAX];
	struct rtm_error err = { "" };
	struct rtm_tracedec *d;
	char *page, *in;
	size_t len = 0;
	uint64_t lost = 0;
	long n = 0;
	int ret;

	snprintf(dir, sizeof(dir), "%s/trace-vm-6.18", data);
	snprintf(path, sizeof(path), "%s/fuzz-regress/fuzz_tracedec/backward-record", data);
	d = rtm_tracedec_alloc(dir, &err);
	in = rtm_read_all("", path, &len);
	page = calloc(1, 4096);
	if (!ok(d && in && page && len <= 4096, "the looping page and the 6.18 formats load (%s)",
		err.msg)) {
		free(in);
		free(page);
		rtm_tracedec_free(d);
		return;
	}
	memcpy(page, in, len);
	ret = rtm_tracedec_page(d, page, 0, bounded, &n, &lost);
	ok(ret == -EINVAL && n <= 4096, "a record that goes back: page refused (%d) after %ld "
	   "events, not decoded round and round", ret, n);
	is_int((long)rtm_tracedec_refused(d), 1, "the refused page is counted");
	/* a reader skips the counted page and decodes the next; a callback's error is no refusal */
	snprintf(dir, sizeof(dir), "%s/trace-vm-6.18", data);
	if (fp_read_page(dir, page)) {
		ok(rtm_tracedec_page(d, page, 0, NULL, NULL, NULL) > 0,
		   "the page after a refused one decodes");
		is_int(rtm_tracedec_page(d, page, 0, fail_einval, NULL, NULL), -EINVAL,
		       "a callback's -EINVAL comes back");
		is_int((long)rtm_tracedec_refused(d), 1,
		       "a callback's -EINVAL is not counted as a corrupt page");
	}
	free(in);
	free(page);
	rtm_tracedec_free(d);
}

/* What a reader of one CPU's events from a time on saw. */
struct from_seen {
	uint64_t from_ns;
	long all;		/* events the callback got */
	long wanted;		/* of them at or after from_ns */
	uint64_t sum;		/* of the wanted ones' times and types */
	uint64_t first_ns;	/* the oldest event the callback got */
};

static int from_event(const struct rtm_event *ev, void *arg)
{
	struct from_seen *s = arg;

	if (!s->all++)
		s->first_ns = ev->ts_ns;
	if (ev->ts_ns >= s->from_ns) {
		s->wanted++;
		s->sum += ev->ts_ns * 31 + (uint64_t)ev->type;
	}
	return 0;
}

/*
 * A spike's window read from a recorded buffer: the pages that end before it are
 * walked, not decoded, and the window's events are all there, as a full decode has
 * them; the first page (how far back the buffer reaches) is decoded all the same.
 */
static void check_from(const char *data)
{
	struct rtm_tracedec_from f = { 0 };
	struct from_seen full = { 0 }, part = { 0 };
	struct rtm_error err = { "" };
	char dir[PATH_MAX], path[PATH_MAX + 16];
	uint64_t lost_full = 0, lost_part = 0;
	struct rtm_tracedec *d;
	char *page = NULL;
	long pages = 0, k;
	FILE *fp;

	snprintf(dir, sizeof(dir), "%s/census-vm-6.18", data);
	snprintf(path, sizeof(path), "%s/cpu1.raw", dir);
	d = rtm_tracedec_alloc(dir, &err);
	fp = fopen(path, "r");
	if (d)
		page = malloc((size_t)rtm_tracedec_page_size(d));
	if (!ok(d && fp && page, "census-vm-6.18 loads (%s)", err.msg))
		goto out;
	/* the full decode, and the time three quarters in as the window's start */
	while (fread(page, 1, 4096, fp) == 4096) {
		rtm_tracedec_page(d, page, 1, from_event, &full, &lost_full);
		pages++;
	}
	rewind(fp);
	for (k = 0; k < pages * 3 / 4 && fread(page, 1, 4096, fp) == 4096; k++)
		;
	part.from_ns = full.from_ns = *(uint64_t *)page + 1;
	full.all = full.wanted = 0;
	full.sum = 0;
	rewind(fp);
	while (fread(page, 1, 4096, fp) == 4096)
		rtm_tracedec_page(d, page, 1, from_event, &full, NULL);
	rewind(fp);
	f.from_ns = part.from_ns;
	while (fread(page, 1, 4096, fp) == 4096)
		rtm_tracedec_from_page(d, &f, page, 1, from_event, &part, &lost_part);
	rtm_tracedec_from_end(d, &f, from_event, &part, &lost_part);
	ok(part.wanted == full.wanted && part.sum == full.sum && full.wanted > 1000,
	   "window from 3/4 of the recording: the same %ld events as a full decode (%ld)",
	   part.wanted, full.wanted);
	ok(part.all < full.all / 2, "events decoded: %ld of %ld", part.all, full.all);
	ok(f.decoded + f.walked == (uint64_t)pages && f.walked >= (uint64_t)pages / 2 &&
	   f.decoded >= 2, "%ld pages: %llu decoded, %llu walked", pages,
	   (unsigned long long)f.decoded, (unsigned long long)f.walked);
	ok(part.first_ns == full.first_ns, "the oldest event still seen (%llu)",
	   (unsigned long long)part.first_ns);
	ok(lost_part == lost_full, "lost events counted on walked pages too (%llu)",
	   (unsigned long long)lost_part);
	/* another CPU's page ends the held one's CPU: its last page is decoded */
	memset(&part, 0, sizeof(part));
	rtm_tracedec_from_free(&f);
	memset(&f, 0, sizeof(f));
	f.from_ns = part.from_ns = UINT64_MAX;
	rewind(fp);
	for (k = 0; k < 3 && fread(page, 1, 4096, fp) == 4096; k++)
		rtm_tracedec_from_page(d, &f, page, 1, from_event, &part, NULL);
	rtm_tracedec_from_page(d, &f, page, 0, from_event, &part, NULL);
	ok(f.decoded == 2 && f.walked == 1, "a CPU's first and last page decoded, the one "
	   "between walked (%llu, %llu)", (unsigned long long)f.decoded,
	   (unsigned long long)f.walked);
	rtm_tracedec_from_free(&f);
out:
	free(page);
	if (fp)
		fclose(fp);
	rtm_tracedec_free(d);
}

int main(void)
{
	const char *data = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
	char dir[PATH_MAX];
	struct rtm_error err = { "" };
	struct rtm_tracedec *d;
	size_t i;

	for (i = 0; i < sizeof(trees) / sizeof(trees[0]); i++)
		check_tree(data, &trees[i]);
	check_backward_record(data);
	check_from(data);

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
