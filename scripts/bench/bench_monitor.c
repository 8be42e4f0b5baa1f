// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_monitor - what the monitor's screen costs with many CPUs, without the
 * probes: the per-refresh data work for N CPUs (a snapshot copy and two
 * differences of a histogram per CPU, the percentiles) and one full curses
 * draw of N CPUs into a 200x60 xterm-256color screen written to /dev/null.
 *
 *   bench_monitor NCPUS ROUNDS
 * prints "cpus=N data_us_per_refresh=X draw_us_per_refresh=Y"
 */
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

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 256, rounds = argc > 2 ? atoi(argv[2]) : 200, i, k;
	struct rtm_hist *src = rtm_hist_alloc();
	static struct rtm_mon mo;
	struct rtm_dash d = { .mo = &mo, .out = stdout };
	double t0, data, draw;
	FILE *devnull;
	SCREEN *scr;

	if (n < 1 || rounds < 1 || !src)
		return 2;
	/* a realistic latency distribution: 10-60 us body, a tail to 5 ms */
	for (k = 0; k < 1000000; k++)
		rtm_hist_record(src, 10000 + (uint64_t)(k % 50000) + (k % 9973 == 0 ? 5000000 : 0));
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
	}
	/* the data side of one refresh, as refresh_cpus() does it (the copy stands
	 * in for the probe snapshot) */
	t0 = now_s();
	for (k = 0; k < rounds; k++) {
		for (i = 0; i < n; i++) {
			struct rtm_mon_cpu *mc = &mo.cpus[i];

			rtm_hist_copy(mc->prev, mc->cur);
			rtm_hist_copy(mc->cur, src);
			rtm_hist_diff(mc->view, mc->cur, mc->prev);
			mc->spark[k % RTM_MON_SPARK] = mc->view->max_ns;
			rtm_hist_copy(mc->view, mc->cur);
			mc->samples = mc->view->count;
			mc->min_ns = mc->view->min_ns;
			mc->max_ns = mc->view->max_ns;
			mc->avg_ns = rtm_hist_mean(mc->view);
			mc->p99_ns = rtm_hist_percentile(mc->view, 99);
			mc->p999_ns = rtm_hist_percentile(mc->view, 99.9);
		}
	}
	data = (now_s() - t0) / rounds;

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
