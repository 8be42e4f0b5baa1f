// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * noiseattr_check.c - the gap causes of sections.noise checked on load
 * (lib/trace/noiseattr.h): what a finished result holds, whoever made it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "trace/noiseattr.h"

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
