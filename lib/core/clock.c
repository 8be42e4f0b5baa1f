// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clock.c - the busy loops' counter and its calibration (see clock.h).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "core/clock.h"

#define PAIR_TRIES	16

const char *rtm_counter_name(enum rtm_counter_kind k)
{
	switch (k) {
	case RTM_COUNTER_RDTSCP:	return "tsc (rdtscp)";
	case RTM_COUNTER_RDTSC:		return "tsc (rdtsc)";
	case RTM_COUNTER_CLOCK:		return "CLOCK_MONOTONIC_RAW";
	}
	return "unknown";
}

uint64_t rtm_counter_cycles(const struct rtm_counter *c, uint64_t ns)
{
	if (!c->mult)
		return 0;
	return (uint64_t)(((unsigned __int128)ns << RTM_CLOCK_SHIFT) / c->mult);
}

const struct rtm_clock_pair *rtm_clock_best_pair(const struct rtm_clock_pair *pairs, int n)
{
	const struct rtm_clock_pair *best = NULL;
	int i;

	for (i = 0; i < n; i++)
		if (!best || pairs[i].spread < best->spread)
			best = &pairs[i];
	return best;
}

int rtm_counter_from_pairs(struct rtm_counter *c, const struct rtm_clock_pair *a,
			   const struct rtm_clock_pair *b, struct rtm_error *err)
{
	uint64_t dc, dns;
	double hz;

	if (b->ns <= a->ns || b->cycles <= a->cycles)
		return rtm_error_set(err, "the %s did not advance during calibration (%llu counts "
				     "in %llu ns)", rtm_counter_name(c->kind),
				     (unsigned long long)(b->cycles - a->cycles),
				     (unsigned long long)(b->ns - a->ns));
	dc = b->cycles - a->cycles;
	dns = b->ns - a->ns;
	hz = (double)dc * 1e9 / (double)dns;
	if (hz < 1e6 || hz > 1e11)
		return rtm_error_set(err, "the %s runs at %.0f Hz against CLOCK_MONOTONIC_RAW, "
				     "outside 1 MHz .. 100 GHz: it cannot time a loop",
				     rtm_counter_name(c->kind), hz);
	/* mult = dns / dc in fixed point (RTM_CLOCK_SHIFT fraction bits), rounded */
	c->mult = (uint64_t)((((unsigned __int128)dns << RTM_CLOCK_SHIFT) + dc / 2) / dc);
	c->hz = hz;
	return 0;
}

/* The counter and the clock read as close together as this CPU allows. */
static void read_pair(enum rtm_counter_kind k, struct rtm_clock_pair *out)
{
	struct rtm_clock_pair tries[PAIR_TRIES];
	int i;

	for (i = 0; i < PAIR_TRIES; i++) {
		uint64_t before = rtm_counter_read(k), ns, after;

		ns = rtm_clock_ns(CLOCK_MONOTONIC_RAW);
		after = rtm_counter_read(k);
		tries[i].cycles = before + (after - before) / 2;
		tries[i].ns = ns;
		tries[i].spread = after - before;
	}
	*out = *rtm_clock_best_pair(tries, PAIR_TRIES);
}

static enum rtm_counter_kind pick_counter(void)
{
#if RTM_CLOCK_HAVE_TSC
	unsigned int a, b, c, d;

	/* CPUID 0x80000001 EDX bit 27: RDTSCP */
	if (__get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27)))
		return RTM_COUNTER_RDTSCP;
	return RTM_COUNTER_RDTSC;
#else
	return RTM_COUNTER_CLOCK;
#endif
}

int rtm_counter_calibrate(struct rtm_counter *c, uint64_t span_ns, struct rtm_error *err)
{
	struct rtm_clock_pair a, b;
	struct timespec ts = { (time_t)(span_ns / 1000000000ULL),
			       (long)(span_ns % 1000000000ULL) };

	memset(c, 0, sizeof(*c));
	c->kind = pick_counter();
	if (c->kind == RTM_COUNTER_CLOCK) {
		c->mult = 1ULL << RTM_CLOCK_SHIFT;
		c->hz = 1e9;
		return 0;
	}
	read_pair(c->kind, &a);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
	read_pair(c->kind, &b);
	return rtm_counter_from_pairs(c, &a, &b, err);
}
