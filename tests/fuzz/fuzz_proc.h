/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_proc.h - the /proc parsers of lib/irq/proc.c. An input is one file, or
 * two snapshots of it separated by a line holding a form feed ("\f"); every
 * snapshot that parses is compared with itself (no events in between: every
 * count 0) and with the other one, then ranked and written as JSON, as
 * `rtmeasure irq` does.
 */
#ifndef RTM_FUZZ_PROC_H
#define RTM_FUZZ_PROC_H

#include <jansson.h>

#include "irq/irq.h"
#include "fuzz.h"

typedef int (*proc_parser)(struct rtm_irq_snap *snap, const char *buf, size_t len,
			   const char *file, struct rtm_error *err);

static void use_delta(const struct rtm_irq_snap *a, const struct rtm_irq_snap *b, bool same)
{
	struct rtm_error err = { "" };
	struct rtm_irq_snap d;
	struct rtm_cpulist cpus = { 0 };
	int top[8], n, i;
	json_t *j;

	if (rtm_irq_delta(a, b, &d, &err)) {
		fuzz_check_msg(&err);
		return;
	}
	if (same) {
		fuzz_check(d.total == 0, "a snapshot minus itself: total %llu",
			   (unsigned long long)d.total);
		fuzz_check(d.stat_intr == 0 && d.stat_softirq == 0, "/proc/stat minus itself");
		for (i = 0; i < d.nsoft; i++)
			fuzz_check(d.soft[i].total == 0, "softirq %s minus itself", d.soft[i].name);
	}
	n = rtm_irq_top(&d, NULL, 8, top);
	fuzz_check(n >= 0 && n <= 8 && n <= d.nrows, "top %d of %d rows", n, d.nrows);
	for (i = 0; i < n; i++)
		fuzz_check(top[i] >= 0 && top[i] < d.nrows, "top index %d", top[i]);
	if (!rtm_cpulist_parse("0,2-3", &cpus, &err)) {
		for (i = 0; i < d.nrows; i++)
			fuzz_check(rtm_irq_count_on(&d, &d.rows[i], &cpus) <= d.rows[i].total ||
				   !d.rows[i].percpu, "row %s: more on some CPUs than in all",
				   d.rows[i].name);
		rtm_cpulist_release(&cpus);
	}
	j = rtm_irq_delta_to_json(&d, true);
	fuzz_check(j != NULL, "no JSON for a difference");
	json_decref(j);
	rtm_irq_snap_release(&d);
}

static int proc_target(const uint8_t *data, size_t size, proc_parser parse, const char *file)
{
	const char *text = (const char *)data, *sep;
	struct rtm_irq_snap a, b;
	struct rtm_error err = { "" };
	size_t la = size;
	bool has_a, has_b = false;

	sep = memmem(text, size, "\n\f\n", 3);
	if (sep)
		la = (size_t)(sep - text) + 1;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	has_a = parse(&a, text, la, file, &err) == 0;
	if (!has_a)
		fuzz_check_msg(&err);
	if (sep) {
		err.msg[0] = '\0';
		has_b = parse(&b, sep + 3, size - la - 2, file, &err) == 0;
		if (!has_b)
			fuzz_check_msg(&err);
		b.ts_ns = 1000000000;
	}
	if (has_a)
		use_delta(&a, &a, true);
	if (has_a && has_b)
		use_delta(&a, &b, false);
	rtm_irq_snap_release(&a);
	rtm_irq_snap_release(&b);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	return 0;
}

#endif
