// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure_census.c - the spike census's wiring (lib/trace/census.h): the timer probe's
 * late wake-ups and the CPUs' steal time handed to the census between drains of
 * the streaming instance, and its section at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "trace/census.h"
#include "probe/cyclic.h"
#include "measure.h"
#include "probe/probe_timer.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void measure_census_poll(struct rtm_stream *mh, struct rtm_cyclic *c)
{
	struct rtm_probe_spike late[256];
	struct rtm_probe_cpu_snap snap;
	struct rtm_probe_timer *p;
	uint64_t drained_at = 0, dropped, all_dropped = 0, t;
	struct rtm_census *cs = rtm_stream_census(mh, &drained_at);
	int i, n, ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	int64_t *steal;
	uint32_t k, got;

	if (!c)
		return;
	p = rtm_cyclic_probe(c);
	if (!cs) {	/* not tracing (the monitor before its key t): not the census's */
		for (i = 0; i < rtm_probe_timer_ncpus(p); i++)
			while (rtm_probe_timer_late_take(p, i, late, 256, NULL) == 256)
				;
		return;
	}
	for (i = 0; i < rtm_probe_timer_ncpus(p); i++) {
		rtm_probe_timer_snapshot(p, i, &snap, NULL, NULL);
		do {
			got = rtm_probe_timer_late_take(p, i, late, 256, &dropped);
			for (k = 0; k < got; k++)
				if (rtm_census_add(cs, snap.cpu, late[k].planned_ns,
						   late[k].latency_ns))
					dropped++;
		} while (got == 256);
		all_dropped += dropped;
	}
	rtm_census_dropped(cs, all_dropped);
	steal = calloc((size_t)ncpus, sizeof(*steal));
	if (steal) {
		t = now_ns();
		rtm_stream_read_steal(steal, ncpus);
		for (n = 0; n < ncpus; n++)
			rtm_census_steal(cs, n, t, steal[n]);
		free(steal);
	}
	rtm_census_advance(cs, drained_at);
}
