// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_units - the duration, latency and CPU-list parsers of lib/core/units.c, each
 * fed the whole input as a string. A CPU list that parses is sorted, without
 * duplicates, within RTM_MAX_CPUS, and reads back the same from its canonical
 * form; every number prints in human form. Seeds: the boot command lines and
 * CPU lists of tests/data/sysroot-*, and option values of the man pages.
 */
#include "core/units.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

static void cpulist(const char *s)
{
	struct rtm_error err = { "" };
	struct rtm_cpulist cl = { 0 }, back = { 0 };
	static char buf[RTM_MAX_CPUS * 6];
	int i;

	if (rtm_cpulist_parse(s, &cl, &err)) {
		fuzz_check_msg(&err);
		return;
	}
	for (i = 0; i < cl.n; i++) {
		fuzz_check(cl.cpus[i] >= 0 && cl.cpus[i] < RTM_MAX_CPUS, "CPU %d", cl.cpus[i]);
		fuzz_check(i == 0 || cl.cpus[i] > cl.cpus[i - 1], "not sorted or duplicate");
		fuzz_check(rtm_cpulist_has(&cl, cl.cpus[i]), "CPU %d not found", cl.cpus[i]);
	}
	fuzz_check(rtm_cpulist_format(&cl, buf, sizeof(buf)) == 0, "%d CPUs do not format", cl.n);
	fuzz_check(rtm_cpulist_parse(buf, &back, &err) == 0, "'%s' does not parse: %s", buf,
		   err.msg);
	fuzz_check(back.n == cl.n && (!cl.n || !memcmp(back.cpus, cl.cpus,
						       (size_t)cl.n * sizeof(int))),
		   "'%s' reads back differently", buf);
	rtm_cpulist_release(&back);
	rtm_cpulist_release(&cl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtm_error err = { "" };
	char *s = fuzz_str(data, size), buf[64];
	uint64_t ns;

	if (!s)
		return 0;
	if (rtm_parse_duration_ns(s, &ns, &err) == 0) {
		rtm_fmt_duration(buf, sizeof(buf), ns);
		rtm_fmt_ns(buf, sizeof(buf), ns);
	} else {
		fuzz_check_msg(&err);
	}
	err.msg[0] = '\0';
	if (rtm_parse_latency_ns(s, &ns, &err) == 0)
		rtm_fmt_ns(buf, sizeof(buf), ns);
	else
		fuzz_check_msg(&err);
	cpulist(s);
	free(s);
	return 0;
}
