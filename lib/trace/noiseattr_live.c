// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * noiseattr_live.c - the gap causes while the run goes on: each gap laid once its
 * CPU's events are in, into the time per class so far (lib/trace/noiseattr.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/noiseattr.h"
#include "trace/noiseattr_priv.h"

uint32_t rtm_noiseattr_live_taken(const struct rtm_noiseattr *a, int cpu)
{
	return cpu >= 0 && cpu < a->ncpus ? a->cpu[cpu].live_taken : 0;
}

uint32_t rtm_noiseattr_live_add(struct rtm_noiseattr *a, int cpu, uint64_t start_ns,
				uint64_t window_ns, const struct rtm_noiseattr_gap *g, uint32_t n)
{
	struct share sh[GAP_SHARES];
	struct cpu_state *cs;
	uint64_t rel, tol, explained;
	uint32_t i;
	int k, m;

	if (cpu < 0 || cpu >= a->ncpus)
		return 0;
	cs = &a->cpu[cpu];
	for (i = 0; i < n; i++) {
		rel = g[i].start_ns > start_ns ? g[i].start_ns - start_ns : 0;
		tol = rtm_noiseattr_tolerance(rel, window_ns);
		if (g[i].start_ns + g[i].len_ns + tol >= cs->last_ts)
			break;	/* its events may still come */
		m = rtm_noiseattr_gap_shares(cs, g[i].start_ns, g[i].len_ns, tol, &cs->live_claimed, sh,
			       &explained);
		rtm_noiseattr_tick_rest(a, sh, m, g[i].len_ns, &explained);
		for (k = 0; k < m; k++)
			cs->live_ns[rtm_noiseattr_kind_class[a->causes[sh[k].cause].kind]] += sh[k].ns;
		cs->live_ns[RTM_NOISE_UNEXPLAINED] += g[i].len_ns - explained;
	}
	cs->live_taken += i;
	return i;
}

void rtm_noiseattr_live_get(const struct rtm_noiseattr *a, int cpu,
			    uint64_t class_ns[RTM_NOISE_NCLASSES])
{
	int k;

	for (k = 0; k < RTM_NOISE_NCLASSES; k++)
		class_ns[k] = cpu >= 0 && cpu < a->ncpus ? a->cpu[cpu].live_ns[k] : 0;
}

json_t *rtm_noiseattr_live_json(const struct rtm_noiseattr *a, int cpu)
{
	uint64_t ns[RTM_NOISE_NCLASSES];
	json_t *o = json_object();
	char key[32];
	int k;

	rtm_noiseattr_live_get(a, cpu, ns);
	for (k = 0; o && k < RTM_NOISE_NCLASSES; k++) {
		snprintf(key, sizeof(key), "%s_ns", rtm_noise_class_name(k));
		json_object_set_new(o, key, json_integer((json_int_t)ns[k]));
	}
	return o;
}
