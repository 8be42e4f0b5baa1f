/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * clock.h - a cheap cycle counter for busy loops, calibrated to nanoseconds.
 *
 * On x86-64 the counter is the TSC (rdtscp where CPUID offers it, else rdtsc),
 * calibrated against CLOCK_MONOTONIC_RAW (not slewed by NTP); elsewhere it is
 * CLOCK_MONOTONIC_RAW itself in ns (one vDSO call, no calibration needed).
 * Conversions are a 64x64->128-bit multiply and a shift: no division on the
 * measuring path.
 */
#ifndef RTM_CLOCK_H
#define RTM_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "core/error.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define RTM_CLOCK_HAVE_TSC 1
#else
#define RTM_CLOCK_HAVE_TSC 0
#endif

#define RTM_CLOCK_SHIFT	40

enum rtm_counter_kind {
	RTM_COUNTER_RDTSCP,	/* TSC through rdtscp (waits for earlier instructions) */
	RTM_COUNTER_RDTSC,	/* TSC through rdtsc (CPUID has no rdtscp) */
	RTM_COUNTER_CLOCK,	/* CLOCK_MONOTONIC_RAW, in ns */
};

/* A calibrated counter: ns = (cycles * mult) >> RTM_CLOCK_SHIFT. */
struct rtm_counter {
	enum rtm_counter_kind kind;
	uint64_t mult;
	double hz;		/* counts per second */
};

/* One reading of the counter and the clock at the same moment. */
struct rtm_clock_pair {
	uint64_t cycles;	/* midpoint of the counter reads around the clock read */
	uint64_t ns;		/* CLOCK_MONOTONIC_RAW */
	uint64_t spread;	/* counts between those two reads (the pair's uncertainty) */
};

const char *rtm_counter_name(enum rtm_counter_kind k);

/*
 * Clock @id (CLOCK_MONOTONIC, ...) in ns: lib/'s one reading of a clock. Always
 * inlined: the probe loops read it between their samples.
 */
static inline __attribute__((always_inline)) uint64_t rtm_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The same in whole ms (rounded down), for the waits counted in ms. */
static inline uint64_t rtm_clock_ms(clockid_t id)
{
	return rtm_clock_ns(id) / 1000000ULL;
}

static inline __attribute__((always_inline)) uint64_t rtm_counter_read(enum rtm_counter_kind k)
{
#if RTM_CLOCK_HAVE_TSC
	unsigned int aux;

	if (k == RTM_COUNTER_RDTSCP)
		return __rdtscp(&aux);
	if (k == RTM_COUNTER_RDTSC)
		return __rdtsc();
#endif
	(void)k;
	return rtm_clock_ns(CLOCK_MONOTONIC_RAW);
}

/* Counts to ns, exact to the calibration (128-bit product, no overflow). */
static inline uint64_t rtm_counter_ns(const struct rtm_counter *c, uint64_t cycles)
{
	return (uint64_t)(((unsigned __int128)cycles * c->mult) >> RTM_CLOCK_SHIFT);
}

/* ns to counts (rounded down); for the loop's bounds. */
uint64_t rtm_counter_cycles(const struct rtm_counter *c, uint64_t ns);

/*
 * The pair with the smallest spread of @n (the one least disturbed); NULL when
 * @n is 0.
 */
const struct rtm_clock_pair *rtm_clock_best_pair(const struct rtm_clock_pair *pairs, int n);

/**
 * rtm_counter_from_pairs - the calibration between two pairs
 *
 * Sets @c->mult and @c->hz from the counts and nanoseconds between @a and @b.
 * -EINVAL with @err set when time or counts did not advance, or the rate is
 * outside 1 MHz .. 100 GHz (a counter that stopped or jumped).
 */
int rtm_counter_from_pairs(struct rtm_counter *c, const struct rtm_clock_pair *a,
			   const struct rtm_clock_pair *b, struct rtm_error *err);

/*
 * Pick the counter of this CPU and calibrate it over @span_ns (sleeps that
 * long; 50 ms gives a rate within ~1 ppm here). -errno with @err set.
 */
int rtm_counter_calibrate(struct rtm_counter *c, uint64_t span_ns, struct rtm_error *err);

#endif
