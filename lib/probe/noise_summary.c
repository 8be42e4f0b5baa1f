// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * noise_summary.c - sections.noise for programs (--json), from a run or a
 * loaded result.json.
 */
#include "probe/probe_noise.h"

static uint64_t u64(const json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));

	return v > 0 ? (uint64_t)v : 0;
}

json_t *rtm_noise_summary_json(const json_t *noise)
{
	json_t *s, *cpus, *c;
	size_t i;

	if (!json_is_object(noise))
		return NULL;
	s = json_deep_copy(noise);
	cpus = json_object_get(s, "cpus");
	json_array_foreach(cpus, i, c) {
		uint64_t sampled = u64(c, "sampled_ns"), noise_ns = u64(c, "noise_ns");

		json_object_del(c, "hist");
		json_object_del(c, "gap_list");
		json_object_del(c, "gap_causes");
		/* % of sampled time, unknown when nothing was sampled */
		json_object_set_new(c, "noise_pct", sampled ?
				    json_real(100.0 * (double)noise_ns / (double)sampled) :
				    json_null());
	}
	return s;
}
