// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * noiseattr_print.c - the gap causes of sections.noise checked on load and printed
 * (lib/trace/noiseattr.h): what a finished result holds, whoever made it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "trace/noiseattr.h"
#include "core/units.h"


int rtm_noiseattr_check(const json_t *cpu, char *why, size_t len)
{
	const json_t *causes = json_object_get(cpu, "causes");
	const json_t *gc = json_object_get(cpu, "gap_causes"), *list, *e, *c;
	size_t i, ncontrib;
	char key[32];
	int k;

	if (!causes && !gc)
		return 0;
	if (!json_is_object(causes) || !json_is_array(gc)) {
		snprintf(why, len, "causes and gap_causes go together (an object and an array)");
		return -EINVAL;
	}
	for (k = 0; k < RTM_NOISE_NCLASSES; k++) {
		snprintf(key, sizeof(key), "%s_ns", rtm_noise_class_name(k));
		e = json_object_get(causes, key);
		if (!e && k == RTM_NOISE_RT_THROTTLING)
			continue;	/* results before RT throttling had a class */
		if (!json_is_integer(e) || json_integer_value(e) < 0) {
			snprintf(why, len, "causes.%s is not a count of ns", key);
			return -EINVAL;
		}
	}
	list = json_object_get(causes, "contributors");
	if (!json_is_array(list)) {
		snprintf(why, len, "causes.contributors is not an array");
		return -EINVAL;
	}
	json_array_foreach(list, i, c)
		if (!json_is_string(json_object_get(c, "label")) ||
		    !json_is_integer(json_object_get(c, "ns"))) {
			snprintf(why, len, "causes.contributors[%zu] has no label or ns", i);
			return -EINVAL;
		}
	ncontrib = json_array_size(list);
	if (json_array_size(gc) != json_array_size(json_object_get(cpu, "gap_list"))) {
		snprintf(why, len, "gap_causes has %zu entries for %zu in gap_list",
			 json_array_size(gc), json_array_size(json_object_get(cpu, "gap_list")));
		return -EINVAL;
	}
	json_array_foreach(gc, i, e) {
		json_int_t idx = json_integer_value(json_array_get(e, 0));

		if (json_array_size(e) != 3 || !json_is_integer(json_array_get(e, 0)) ||
		    idx < -1 || idx >= (json_int_t)ncontrib ||
		    !json_is_integer(json_array_get(e, 1)) ||
		    !json_is_integer(json_array_get(e, 2))) {
			snprintf(why, len, "gap_causes[%zu] is not [contributor or -1, main_ns, "
				 "unexplained_ns]", i);
			return -EINVAL;
		}
	}
	return 0;
}

static void fmt_count_ns(char *buf, size_t len, const json_t *causes, int k)
{
	char key[32], t[16];

	snprintf(key, sizeof(key), "%s_ns", rtm_noise_class_name(k));
	rtm_fmt_ns(t, sizeof(t), (uint64_t)json_integer_value(json_object_get(causes, key)));
	snprintf(key, sizeof(key), "%s_gaps", rtm_noise_class_name(k));
	snprintf(buf, len, "%6lld %9s", json_integer_value(json_object_get(causes, key)), t);
}

/* The RT throttling of a CPU against the kernel's setting, when there was any. */
static void throttle_line(FILE *f, const json_t *cpu, const json_t *causes)
{
	const json_t *rt = json_object_get(causes, "rt_throttling");
	json_int_t ns = json_integer_value(json_object_get(causes, "rt_throttling_ns"));
	const json_t *lim = json_object_get(rt, "limit_per_period_ns");
	const json_t *max = json_object_get(rt, "max_per_period_ns");
	char t[16], m[16], l[16], p[16], k[16];

	if (ns <= 0)
		return;
	rtm_fmt_ns(t, sizeof(t), (uint64_t)ns);
	fprintf(f, "  CPU %lld: RT throttling took %s", json_integer_value(json_object_get(cpu,
		"cpu")), t);
	if (json_is_integer(lim) && json_is_integer(max)) {
		rtm_fmt_ns(m, sizeof(m), (uint64_t)json_integer_value(max));
		rtm_fmt_ns(l, sizeof(l), (uint64_t)json_integer_value(lim));
		rtm_fmt_ns(p, sizeof(p), (uint64_t)json_integer_value(json_object_get(rt,
			   "period_ns")));
		rtm_fmt_ns(k, sizeof(k), (uint64_t)json_integer_value(json_object_get(rt,
			   "tick_ns")));
		fprintf(f, ", at most %s in one period of %s (kernel.sched_rt_runtime_us leaves "
			"%s a period, charged at the %s tick%s)", m, p, l, k,
			json_is_true(json_object_get(rt, "within_limit")) ? "" : "; more than "
			"that: the fair server's own setting, /sys/kernel/debug/sched/fair_server, "
			"may differ");
	}
	fprintf(f, "\n");
}

void rtm_noiseattr_fprint(const json_t *noise, FILE *f, int top)
{
	const json_t *cpus = json_object_get(noise, "cpus"), *cpu, *causes, *c;
	const json_t *at = json_object_get(noise, "attribution");
	char col[RTM_NOISE_NCLASSES][40], t[16];
	json_int_t unexplained;
	size_t i, j;
	int k;

	if (!json_is_object(at))
		return;
	fprintf(f, "\nGap causes (tracepoints; per class: gaps it was the main cause of, its "
		"time in all gaps)\n");
	fprintf(f, "CPU  %16s %16s %16s %16s %16s %16s\n", "IRQ", "SoftIRQ", "NMI", "Thread",
		"RT throttling", "Unexplained");
	json_array_foreach(cpus, i, cpu) {
		causes = json_object_get(cpu, "causes");
		if (!causes)
			continue;
		for (k = 0; k < RTM_NOISE_NCLASSES; k++)
			fmt_count_ns(col[k], sizeof(col[k]), causes, k);
		fprintf(f, "%3lld  %s %s %s %s %s %s\n",
			json_integer_value(json_object_get(cpu, "cpu")), col[0], col[1], col[2],
			col[3], col[4], col[5]);
	}
	json_array_foreach(cpus, i, cpu) {
		causes = json_object_get(cpu, "causes");
		if (!causes)
			continue;
		json_array_foreach(json_object_get(causes, "contributors"), j, c) {
			if ((int)j >= top)
				break;
			rtm_fmt_ns(t, sizeof(t),
				   (uint64_t)json_integer_value(json_object_get(c, "ns")));
			fprintf(f, "  CPU %lld: %s: %s in %lld gaps (main cause of %lld)\n",
				json_integer_value(json_object_get(cpu, "cpu")),
				json_string_value(json_object_get(c, "label")), t,
				json_integer_value(json_object_get(c, "gaps")),
				json_integer_value(json_object_get(c, "main_of")));
		}
		throttle_line(f, cpu, causes);
		unexplained = json_integer_value(json_object_get(causes, "unexplained_ns"));
		if (unexplained > 0) {
			rtm_fmt_ns(t, sizeof(t), (uint64_t)unexplained);
			fprintf(f, "  CPU %lld: unexplained %s (%s)\n",
				json_integer_value(json_object_get(cpu, "cpu")), t,
				json_string_value(json_object_get(causes, "unexplained")) ?: "");
		}
	}
	if (!json_is_true(json_object_get(at, "complete")))
		fprintf(f, "  incomplete: %lld events lost, %lld intervals dropped (raise the "
			"trace buffer or shorten the run)\n",
			json_integer_value(json_object_get(at, "events_lost")),
			json_integer_value(json_object_get(at, "intervals_dropped")));
}
