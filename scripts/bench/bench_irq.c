// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_irq - cost of the irq module's /proc snapshots and of the handler-time
 * accounting per trace event, in process (no fork/exec).
 *
 *   bench_irq snap ROOT N        N snapshots (read + parse /proc/interrupts,
 *                                softirqs, stat) under ROOT; prints
 *                                "snapshots=N us_per_snapshot=X cpus=C rows=R"
 *   bench_irq parse FILE N       N parses of one /proc/interrupts text held in
 *                                memory (no read); prints "us_per_parse=X"
 *   bench_irq account DIR        decode DIR/cpuN.raw (bench_trace record) once
 *                                alone and once feeding irqacct; prints the
 *                                extra ns per event that the accounting costs
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/fileio.h"
#include "irq/irq.h"
#include "irq/handlers.h"
#include "tracefs/tracedec.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int snap(const char *root, long n)
{
	struct rtm_error err = { "" };
	struct rtm_irq_snap s;
	int cpus = 0, rows = 0;
	double t0 = now_s();
	long i;

	for (i = 0; i < n; i++) {
		memset(&s, 0, sizeof(s));
		if (rtm_irq_snap_read(root, &s, &err)) {
			fprintf(stderr, "bench_irq: %s\n", err.msg);
			return 1;
		}
		cpus = s.ncpus;
		rows = s.nrows;
		rtm_irq_snap_release(&s);
	}
	printf("snapshots=%ld us_per_snapshot=%.2f cpus=%d rows=%d\n", n,
	       (now_s() - t0) * 1e6 / (double)n, cpus, rows);
	return 0;
}

static int parse(const char *file, long n)
{
	struct rtm_error err = { "" };
	struct rtm_irq_snap s;
	size_t len;
	char *text = rtm_read_all("/", file, &len);
	double t0;
	long i;

	if (!text) {
		fprintf(stderr, "bench_irq: cannot read %s\n", file);
		return 1;
	}
	t0 = now_s();
	for (i = 0; i < n; i++) {
		memset(&s, 0, sizeof(s));
		if (rtm_irq_parse_interrupts(&s, text, len, file, &err)) {
			fprintf(stderr, "bench_irq: %s\n", err.msg);
			free(text);
			return 1;
		}
		rtm_irq_snap_release(&s);
	}
	printf("us_per_parse=%.2f bytes=%zu\n", (now_s() - t0) * 1e6 / (double)n, len);
	free(text);
	return 0;
}

struct feed {
	struct rtm_irqacct *a;
	long n;
};

static int count_only(const struct rtm_event *ev, void *ctx)
{
	(void)ev;
	((struct feed *)ctx)->n++;
	return 0;
}

static int count_and_account(const struct rtm_event *ev, void *ctx)
{
	struct feed *f = ctx;

	f->n++;
	return rtm_irqacct_event(ev, f->a);
}

static double decode_all(struct rtm_tracedec *d, const char *dir, rtm_event_cb cb,
			 struct feed *f)
{
	int psize = rtm_tracedec_page_size(d), cpu;
	char path[PATH_MAX + 16], *page = malloc((size_t)psize);
	uint64_t lost = 0;
	double t0 = now_s();

	for (cpu = 0; cpu < 256 && page; cpu++) {
		FILE *fp;

		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
		fp = fopen(path, "r");
		if (!fp)
			break;
		while (fread(page, 1, (size_t)psize, fp) == (size_t)psize)
			rtm_tracedec_page(d, page, cpu, cb, f, &lost);
		fclose(fp);
	}
	free(page);
	return now_s() - t0;
}

static int account(const char *dir)
{
	struct rtm_error err = { "" };
	struct rtm_tracedec *d = rtm_tracedec_alloc(dir, &err);
	struct feed plain = { NULL, 0 }, acct = { NULL, 0 };
	double best_plain = 1e9, best_acct = 1e9, t;
	int r, nsrc = 0;

	if (!d) {
		fprintf(stderr, "bench_irq: %s\n", err.msg);
		return 1;
	}
	for (r = 0; r < 5; r++) {	/* best of 5, alternating */
		plain.n = 0;
		t = decode_all(d, dir, count_only, &plain);
		best_plain = t < best_plain ? t : best_plain;
		acct.n = 0;
		acct.a = rtm_irqacct_alloc(256);
		t = decode_all(d, dir, count_and_account, &acct);
		best_acct = t < best_acct ? t : best_acct;
		rtm_irqacct_sources(acct.a, &nsrc);
		rtm_irqacct_free(acct.a);
	}
	printf("events=%ld sources=%d ns_per_event_decode=%.1f ns_per_event_decode_account=%.1f "
	       "ns_per_event_account=%.1f\n", plain.n, nsrc, best_plain * 1e9 / (double)plain.n,
	       best_acct * 1e9 / (double)acct.n, (best_acct - best_plain) * 1e9 / (double)acct.n);
	rtm_tracedec_free(d);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "snap"))
		return snap(argv[2], atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "parse"))
		return parse(argv[2], atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "account"))
		return account(argv[2]);
	fprintf(stderr, "usage: bench_irq snap ROOT N | parse FILE N | account DIR\n");
	return 2;
}
