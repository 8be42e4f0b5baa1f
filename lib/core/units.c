// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * units.c - parsers and printers for durations, latencies and CPU lists.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/units.h"

struct unit {
	const char *suffix;
	double ns;
};

static const struct unit duration_units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	{ "m", 60e9 }, { "h", 3600e9 }, { "d", 86400e9 }, { NULL, 0 }
};

static const struct unit latency_units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { NULL, 0 }
};

/* Parse "<number><unit>" with a default unit for a bare number. */
static int parse_scaled(const char *s, const struct unit *units, double bare_ns, uint64_t *out,
			const char *what, const char *example, struct rtm_error *err)
{
	const struct unit *u;
	double v, scale = 0;
	size_t ndigits, ndots = 0, i;
	char *end;

	if (!s || !*s)
		return rtm_error_set(err, "empty %s (write it like %s)", what, example);
	/* plain decimal only: no sign, exponent, hex, inf or nan */
	ndigits = strspn(s, "0123456789.");
	for (i = 0; i < ndigits; i++)
		ndots += s[i] == '.';
	if (ndigits == 0 || ndots > 1 || (ndigits == 1 && ndots == 1))
		return rtm_error_set(err, "invalid %s '%s' (write it like %s)", what, s, example);
	errno = 0;
	v = strtod(s, &end);
	if (errno || end != s + ndigits || !isfinite(v))
		return rtm_error_set(err, "invalid %s '%s' (write it like %s)", what, s, example);
	if (!*end) {
		scale = bare_ns;
	} else {
		for (u = units; u->suffix; u++) {
			if (strcmp(end, u->suffix) == 0) {
				scale = u->ns;
				break;
			}
		}
		if (!u->suffix)
			return rtm_error_set(err, "invalid %s '%s': unknown unit '%s' (write it like %s)",
					     what, s, end, example);
	}
	v *= scale;
	if (v > 1.8e19)
		return rtm_error_set(err, "%s '%s' is too large", what, s);
	*out = (uint64_t)llround(v);
	return 0;
}

int rtm_parse_duration_ns(const char *s, uint64_t *ns, struct rtm_error *err)
{
	int ret = parse_scaled(s, duration_units, 1e9, ns, "duration", "30s, 5m or 2h", err);

	if (ret == 0 && *ns == 0)
		return rtm_error_set(err, "duration '%s' must be greater than zero", s);
	return ret;
}

int rtm_parse_latency_ns(const char *s, uint64_t *ns, struct rtm_error *err)
{
	return parse_scaled(s, latency_units, 1e3, ns, "latency", "20us, 1.5ms or 800ns", err);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int parse_cpu_num(const char **p, int *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || v < 0 || v >= RTM_MAX_CPUS)
		return -ERANGE;
	*p = end;
	*out = (int)v;
	return 0;
}

int rtm_cpulist_parse(const char *s, struct rtm_cpulist *cl, struct rtm_error *err)
{
	const char *p = s;
	int *cpus = NULL, *ncpus;
	size_t cap = 0;
	int n = 0, i, j;

	cl->n = 0;
	cl->cpus = NULL;
	if (!s)
		return rtm_error_set(err, "missing CPU list");
	while (isspace((unsigned char)*p))
		p++;
	if (!*p || strncmp(p, "(null)", 6) == 0)
		return 0;
	for (;;) {
		int lo, hi, step = 1, ret;

		ret = parse_cpu_num(&p, &lo);
		if (ret)
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			ret = parse_cpu_num(&p, &hi);
			if (ret || hi < lo)
				goto bad;
			if (*p == ':') {
				p++;
				ret = parse_cpu_num(&p, &step);
				if (ret || step == 0)
					goto bad;
			}
		}
		for (i = lo; i <= hi; i += step) {
			ncpus = rtm_grow(cpus, &cap, (size_t)n, sizeof(*cpus), 16);
			if (!ncpus) {
				free(cpus);
				return rtm_error_setn(err, -ENOMEM, "out of memory");
			}
			cpus = ncpus;
			cpus[n++] = i;
		}
		while (*p == ' ' || *p == '\n')
			p++;
		if (!*p)
			break;
		if (*p != ',')
			goto bad;
		p++;
	}
	qsort(cpus, (size_t)n, sizeof(*cpus), cmp_int);
	for (i = 0, j = 0; i < n; i++)
		if (j == 0 || cpus[j - 1] != cpus[i])
			cpus[j++] = cpus[i];
	cl->n = j;
	cl->cpus = cpus;
	return 0;
bad:
	free(cpus);
	return rtm_error_set(err, "invalid CPU list '%s' (write it like 0-3,6; CPUs 0-%d)", s,
			     RTM_MAX_CPUS - 1);
}

void rtm_cpulist_release(struct rtm_cpulist *cl)
{
	free(cl->cpus);
	cl->cpus = NULL;
	cl->n = 0;
}

bool rtm_cpulist_has(const struct rtm_cpulist *cl, int cpu)
{
	int lo = 0, hi = cl->n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (cl->cpus[mid] == cpu)
			return true;
		if (cl->cpus[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return false;
}

int rtm_cpulist_format(const struct rtm_cpulist *cl, char *buf, size_t len)
{
	size_t off = 0;
	int i = 0, n;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	while (i < cl->n) {
		int j = i;

		while (j + 1 < cl->n && cl->cpus[j + 1] == cl->cpus[j] + 1)
			j++;
		if (j == i)
			n = snprintf(buf + off, len - off, "%s%d", off ? "," : "", cl->cpus[i]);
		else
			n = snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", cl->cpus[i],
				     cl->cpus[j]);
		if (n < 0 || (size_t)n >= len - off)
			return -ENOSPC;
		off += (size_t)n;
		i = j + 1;
	}
	return 0;
}

char *rtm_fmt_ns(char *buf, size_t len, uint64_t ns)
{
	static const struct { double div; const char *unit; } scale[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(scale) / sizeof(scale[0]); i++) {
		double v = (double)ns / scale[i].div;

		if (v >= 1.0) {
			if (v >= 100.0)
				snprintf(buf, len, "%.0f %s", v, scale[i].unit);
			else if (v >= 10.0)
				snprintf(buf, len, "%.1f %s", v, scale[i].unit);
			else
				snprintf(buf, len, "%.2f %s", v, scale[i].unit);
			return buf;
		}
	}
	snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	return buf;
}

void rtm_fmt_us(char *buf, size_t len, double ns)
{
	snprintf(buf, len, "%.1f", ns / 1000.0);
}

char *rtm_fmt_duration(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ULL;

	if (s < 60)
		snprintf(buf, len, "%llus", (unsigned long long)s);
	else if (s < 3600)
		snprintf(buf, len, "%llum%02llus", (unsigned long long)(s / 60),
			 (unsigned long long)(s % 60));
	else
		snprintf(buf, len, "%lluh%02llum", (unsigned long long)(s / 3600),
			 (unsigned long long)(s / 60 % 60));
	return buf;
}

int rtm_factor_decimals(double x)
{
	return !isfinite(x) ? 0 : x < 1.995 ? 2 : x < 9.95 ? 1 : 0;
}

void rtm_fmt_factor_d(char *buf, size_t len, double x, int decimals)
{
	if (!isfinite(x))
		snprintf(buf, len, "inf");
	else
		snprintf(buf, len, "%.*f", decimals, x);
}

void rtm_fmt_factor(char *buf, size_t len, double x)
{
	rtm_fmt_factor_d(buf, len, x, rtm_factor_decimals(x));
}

void rtm_fmt_put(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	*off = w > 0 && *off + (size_t)w < len ? *off + (size_t)w : len;
}
