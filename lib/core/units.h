/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * units.h - parsers and printers for durations, latencies and CPU lists.
 *
 * Durations: "30s", "5m", "2h", "1d", "500ms", "1.5s"; a plain number is seconds.
 * Latencies: "20us", "1.5ms", "800ns", "1s"; a plain number is microseconds
 * (cyclictest's unit for -b and -i). CPU lists: the kernel's syntax, "0-3,6",
 * with an optional stride "0-15:2".
 */
#ifndef RTM_UNITS_H
#define RTM_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

#define RTM_MAX_CPUS 8192

int rtm_parse_duration_ns(const char *s, uint64_t *ns, struct rtm_error *err);
int rtm_parse_latency_ns(const char *s, uint64_t *ns, struct rtm_error *err);

/* A set of CPU numbers, kept as a sorted array without duplicates. */
struct rtm_cpulist {
	int n;
	int *cpus;
};

/**
 * rtm_cpulist_parse - parse "0-3,6" (or "" / "(null)" for the empty set)
 *
 * Returns 0 or -EINVAL with a message in @err. Free with rtm_cpulist_release().
 */
int rtm_cpulist_parse(const char *s, struct rtm_cpulist *cl, struct rtm_error *err);
void rtm_cpulist_release(struct rtm_cpulist *cl);
bool rtm_cpulist_has(const struct rtm_cpulist *cl, int cpu);
/* Canonical form "0-3,6" into @buf (empty string for the empty set). */
int rtm_cpulist_format(const struct rtm_cpulist *cl, char *buf, size_t len);

/* Human form of a nanosecond value with 3 significant digits: "812 ns", "12.3 us",
 * "4.56 ms", "1.20 s". */
char *rtm_fmt_ns(char *buf, size_t len, uint64_t ns);
/*
 * Append to @buf at *@off as snprintf() writes, never past @len; *@off is
 * @len once the buffer is full, and nothing more is written.
 */
void rtm_fmt_put(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * A latency in microseconds with 1 decimal ("12.3"), for tables: the latency
 * tables (summary, report, compare) print through it, so one value reads the
 * same in each. @ns is a double so that an average is rounded once, here.
 */
void rtm_fmt_us(char *buf, size_t len, double ns);
/* Human form of a duration: "45s", "5m00s", "2h03m". */
char *rtm_fmt_duration(char *buf, size_t len, uint64_t ns);

/*
 * A ratio as compare prints it: 2 decimals below 2 ("1.08"), 1 below 10 ("4.1"),
 * none above ("12"), "inf" when not finite. rtm_factor_decimals() gives the
 * decimals, so an interval can be printed with its point's.
 */
int rtm_factor_decimals(double x);
void rtm_fmt_factor_d(char *buf, size_t len, double x, int decimals);
void rtm_fmt_factor(char *buf, size_t len, double x);

/*
 * Copy @src into @dst of @len bytes, cut to fit and always terminated: what
 * snprintf(dst, len, "%s", src) does, without the format parsing that made it
 * the largest cost of decoding a trace event by event.
 */
static inline void rtm_strcopy(char *dst, size_t len, const char *src)
{
	size_t n;

	if (!len)
		return;
	for (n = 0; n + 1 < len && src[n]; n++)
		dst[n] = src[n];
	dst[n] = '\0';
}

#endif
