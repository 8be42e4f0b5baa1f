// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_monitor - what the monitor's screen costs with many CPUs, without the
 * probes: the per-refresh data work for N CPUs (the monitor's own
 * rtm_mon_cpu_update() after a copy standing in for each probe's snapshot, the
 * source histogram a second of 1 kHz samples further each refresh) and one full
 * curses draw of N CPUs into a 200x60 xterm-256color screen written to /dev/null.
 *
 *   bench_monitor NCPUS ROUNDS [data]
 * prints "cpus=N data_us_per_refresh=X draw_us_per_refresh=Y"; with "data" the
 * draw is left out, for an instruction count of refresh_data() alone:
 *   valgrind --tool=callgrind --collect-atstart=no --toggle-collect=refresh_data \
 *	bench_monitor 256 20 data
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "core/hist.h"
#include "present/dashboard.h"
#include "session/monitor.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Latencies of a realistic distribution: 10-60 us body, a tail to 5 ms. */
static void add_samples(struct rtm_hist *h, int from, int n)
{
	int k;

	for (k = from; k < from + n; k++)
		rtm_hist_record(h, 10000 + (uint64_t)(k % 50000) + (k % 9973 == 0 ? 5000000 : 0));
}

/* One refresh's data side for every CPU (noipa: callgrind counts it by name). */
static void __attribute__((noipa)) refresh_data(struct rtm_mon *mo, const struct rtm_hist *src)
{
	int i;

	for (i = 0; i < mo->n; i++) {
		struct rtm_mon_cpu *mc = &mo->cpus[i];
		struct rtm_hist *t = mc->prev;

		mc->prev = mc->cur;
		mc->cur = t;
		rtm_hist_copy(mc->cur, src);	/* stands in for the probe's snapshot */
		rtm_mon_cpu_update(mc);
	}
}

/* @rounds refreshes of the data side; the seconds spent in the refreshes alone. */
static double data_rounds(struct rtm_mon *mo, struct rtm_hist *src, int rounds)
{
	double t0, spent = 0;
	int k;

	for (k = 0; k < rounds; k++) {
		add_samples(src, 1000000 + k * 1000, 1000);	/* the probes' next second */
		t0 = now_s();
		refresh_data(mo, src);
		spent += now_s() - t0;
	}
	return spent;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 256, rounds = argc > 2 ? atoi(argv[2]) : 200, i, k;
	bool data_only = argc > 3 && !strcmp(argv[3], "data");
	struct rtm_hist *src = rtm_hist_alloc();
	static struct rtm_mon mo;
	struct rtm_dash d = { .mo = &mo, .out = stdout };
	double t0, data, draw;
	FILE *devnull;
	SCREEN *scr;

	if (n < 1 || rounds < 1 || !src)
		return 2;
	add_samples(src, 0, 1000000);
	mo.n = n;
	mo.cpus = calloc((size_t)n, sizeof(*mo.cpus));
	mo.threshold_ns = 100000;
	mo.refresh_ns = 1000000000ULL;
	mo.m.probe.interval_ns = 1000000;
	rtm_cpulist_parse("0-255", &mo.m.probe.cpus, NULL);
	for (i = 0; i < n; i++) {
		mo.cpus[i].cpu = i;
		mo.cpus[i].cur = rtm_hist_alloc();
		mo.cpus[i].prev = rtm_hist_alloc();
		mo.cpus[i].base = rtm_hist_alloc();
		mo.cpus[i].view = rtm_hist_alloc();
		rtm_hist_copy(mo.cpus[i].cur, src);	/* the first snapshot */
	}
	data = data_rounds(&mo, src, rounds) / rounds;
	if (data_only) {
		printf("cpus=%d data_us_per_refresh=%.1f\n", n, data * 1e6);
		return 0;
	}

	devnull = fopen("/dev/null", "w");
	setenv("TERM", "xterm-256color", 1);
	setenv("LINES", "60", 1);
	setenv("COLUMNS", "200", 1);
	scr = newterm("xterm-256color", devnull, stdin);
	if (!scr) {
		fprintf(stderr, "bench_monitor: no xterm-256color terminfo\n");
		return 2;
	}
	set_term(scr);
	start_color();
	t0 = now_s();
	for (k = 0; k < rounds; k++) {
		mo.cpus[k % n].cur_ns = (uint64_t)k * 1000;	/* something changes each time */
		rtm_dash_draw(&d);
	}
	draw = (now_s() - t0) / rounds;
	endwin();
	delscreen(scr);
	printf("cpus=%d data_us_per_refresh=%.1f draw_us_per_refresh=%.1f\n", n, data * 1e6,
	       draw * 1e6);
	return 0;
}
