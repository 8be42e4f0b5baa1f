/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * helper.h - what the test helper programs (inject, disturb) share: the
 * one-line fatal error, the monotonic clock, whole-number and time options.
 * Each program sets helper_name.
 */
#ifndef RTM_TEST_HELPER_H
#define RTM_TEST_HELPER_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/units.h"

static const char *helper_name = "helper";

static void __attribute__((noreturn, format(printf, 2, 3))) die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", helper_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(code);
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* A whole number in [lo, hi] for option @opt, or die naming it. */
static inline long parse_int(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		die(2, "invalid %s '%s' (use a number in %ld..%ld)", opt, s, lo, hi);
	return v;
}

/* A time ("500us", "5ms", a plain number is microseconds) for option @opt, in ns. */
static inline uint64_t parse_time(const char *opt, const char *s)
{
	struct rtm_error err;
	uint64_t ns;

	if (rtm_parse_latency_ns(s, &ns, &err))
		die(2, "%s: %s", opt, err.msg);
	return ns;
}

#endif
