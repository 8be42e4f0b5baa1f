// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: duration, latency and CPU-list parsers and printers. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "../tap.h"

struct parse_case {
	const char *in;
	int ok;
	uint64_t ns;
};

static const struct parse_case durations[] = {
	{ "30s", 1, 30000000000ULL }, { "5m", 1, 300000000000ULL },
	{ "2h", 1, 7200000000000ULL }, { "1d", 1, 86400000000000ULL },
	{ "45", 1, 45000000000ULL }, { "1.5s", 1, 1500000000ULL },
	{ "500ms", 1, 500000000ULL }, { "250us", 1, 250000ULL }, { "0.5m", 1, 30000000000ULL },
	{ "", 0, 0 }, { "s", 0, 0 }, { "-5s", 0, 0 }, { "5x", 0, 0 }, { "5 s", 0, 0 },
	{ "0", 0, 0 }, { "0s", 0, 0 }, { "1e3", 0, 0 }, { "0x10", 0, 0 }, { "inf", 0, 0 },
	{ "nan", 0, 0 }, { "1..2s", 0, 0 }, { ".", 0, 0 }, { "5mm", 0, 0 },
	{ "99999999999999999999h", 0, 0 },
};

static const struct parse_case latencies[] = {
	{ "20us", 1, 20000 }, { "1.5ms", 1, 1500000 }, { "800ns", 1, 800 }, { "1s", 1, 1000000000 },
	{ "50", 1, 50000 }, { "0", 1, 0 }, { "0.5us", 1, 500 }, { ".5ms", 1, 500000 },
	{ "", 0, 0 }, { "20 us", 0, 0 }, { "20usec", 0, 0 }, { "-1us", 0, 0 }, { "1m", 0, 0 },
	{ "abc", 0, 0 }, { "1e3us", 0, 0 },
};

struct cpulist_case {
	const char *in;
	int ok;
	const char *canon;
	int n;
};

static const struct cpulist_case cpulists[] = {
	{ "0-3,6", 1, "0-3,6", 5 }, { "6,0-3", 1, "0-3,6", 5 }, { "0", 1, "0", 1 },
	{ "1,1,1", 1, "1", 1 }, { "0-7:2", 1, "0,2,4,6", 4 }, { "", 1, "", 0 },
	{ "(null)", 1, "", 0 }, { "2-31 ", 1, "2-31", 30 }, { "0-1,3-4", 1, "0-1,3-4", 4 },
	{ "3-1", 0, NULL, 0 }, { "a", 0, NULL, 0 }, { "1,", 0, NULL, 0 }, { "-1", 0, NULL, 0 },
	{ "0-", 0, NULL, 0 }, { "1;2", 0, NULL, 0 }, { "99999", 0, NULL, 0 },
	{ "0-3:0", 0, NULL, 0 },
};

/* rtm_strcopy() against what snprintf(dst, len, "%s", src) leaves, byte for byte */
static void strcopy_cases(void)
{
	static const char *const srcs[] = { "", "a", "sched", "rtm-probe/12", "0123456789abcdef" };
	static const size_t lens[] = { 1, 2, 5, 6, 13, 16, 17 };
	char got[24], want[24];
	size_t i, k;

	for (i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++)
		for (k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
			memset(got, 'x', sizeof(got));
			memset(want, 'x', sizeof(want));
			rtm_strcopy(got, lens[k], srcs[i]);
			snprintf(want, lens[k], "%s", srcs[i]);
			ok(!memcmp(got, want, sizeof(got)), "strcopy '%s' into %zu bytes: '%s'",
			   srcs[i], lens[k], got);
		}
	memset(got, 'x', sizeof(got));
	rtm_strcopy(got, 0, "abc");
	ok(got[0] == 'x', "strcopy into 0 bytes writes nothing");
}

int main(void)
{
	struct rtm_error err;
	unsigned int i;
	char buf[64];

	strcopy_cases();
	for (i = 0; i < sizeof(durations) / sizeof(durations[0]); i++) {
		const struct parse_case *c = &durations[i];
		uint64_t ns = 0;
		int ret;

		err.msg[0] = '\0';
		ret = rtm_parse_duration_ns(c->in, &ns, &err);
		if (c->ok) {
			ok(ret == 0 && ns == c->ns, "duration '%s' = %llu ns (got %llu)", c->in,
			   (unsigned long long)c->ns, (unsigned long long)ns);
		} else {
			ok(ret < 0 && err.msg[0], "duration '%s' rejected: %s", c->in, err.msg);
		}
	}
	for (i = 0; i < sizeof(latencies) / sizeof(latencies[0]); i++) {
		const struct parse_case *c = &latencies[i];
		uint64_t ns = 0;
		int ret;

		err.msg[0] = '\0';
		ret = rtm_parse_latency_ns(c->in, &ns, &err);
		if (c->ok)
			ok(ret == 0 && ns == c->ns, "latency '%s' = %llu ns (got %llu)", c->in,
			   (unsigned long long)c->ns, (unsigned long long)ns);
		else
			ok(ret < 0 && err.msg[0], "latency '%s' rejected: %s", c->in, err.msg);
	}
	for (i = 0; i < sizeof(cpulists) / sizeof(cpulists[0]); i++) {
		const struct cpulist_case *c = &cpulists[i];
		struct rtm_cpulist cl;
		int ret;

		err.msg[0] = '\0';
		ret = rtm_cpulist_parse(c->in, &cl, &err);
		if (c->ok) {
			ok(ret == 0, "cpulist '%s' parses", c->in);
			is_int(cl.n, c->n, "cpulist count");
			rtm_cpulist_format(&cl, buf, sizeof(buf));
			is_str(buf, c->canon, "cpulist canonical form");
		} else {
			ok(ret < 0 && err.msg[0], "cpulist '%s' rejected: %s", c->in, err.msg);
		}
		rtm_cpulist_release(&cl);
	}
	{
		struct rtm_cpulist cl;

		rtm_cpulist_parse("0-3,6,100", &cl, NULL);
		ok(rtm_cpulist_has(&cl, 6) && rtm_cpulist_has(&cl, 100) &&
		   !rtm_cpulist_has(&cl, 5) && !rtm_cpulist_has(&cl, 4) && rtm_cpulist_has(&cl, 0),
		   "cpulist membership");
		ok(rtm_cpulist_format(&cl, buf, 4) < 0, "cpulist format reports a short buffer");
		rtm_cpulist_release(&cl);
	}

	is_str(rtm_fmt_ns(buf, sizeof(buf), 812), "812 ns", "fmt 812 ns");
	is_str(rtm_fmt_ns(buf, sizeof(buf), 12345), "12.3 us", "fmt 12.3 us");
	is_str(rtm_fmt_ns(buf, sizeof(buf), 4560000), "4.56 ms", "fmt 4.56 ms");
	is_str(rtm_fmt_ns(buf, sizeof(buf), 123456789), "123 ms", "fmt 123 ms");
	is_str(rtm_fmt_ns(buf, sizeof(buf), 1200000000), "1.20 s", "fmt 1.20 s");
	is_str(rtm_fmt_duration(buf, sizeof(buf), 45000000000ULL), "45s", "fmt 45s");
	is_str(rtm_fmt_duration(buf, sizeof(buf), 300000000000ULL), "5m00s", "fmt 5m00s");
	is_str(rtm_fmt_duration(buf, sizeof(buf), 7380000000000ULL), "2h03m", "fmt 2h03m");
	return tap_done();
}
