// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jsonutil.c - unsigned 64-bit integers in JSON.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "jsonutil.h"

json_t *rtm_json_u64(uint64_t v)
{
	char buf[24];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return json_string(buf);
}

int rtm_json_get_u64(const json_t *j, uint64_t *out)
{
	const char *s;
	uint64_t v = 0;

	if (json_is_integer(j)) {
		if (json_integer_value(j) < 0)
			return -1;
		*out = (uint64_t)json_integer_value(j);
		return 0;
	}
	if (!json_is_string(j))
		return -1;
	s = json_string_value(j);
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int rtm_json_get_field(const json_t *obj, const char *key, uint64_t *out, const char *what,
		       struct rtm_error *err)
{
	const json_t *j = json_object_get(obj, key);

	if (!j)
		return rtm_error_set(err, "%s: \"%s\" is missing", what, key);
	if (rtm_json_get_u64(j, out))
		return rtm_error_set(err, "%s: \"%s\" is not a non-negative 64-bit integer", what,
				     key);
	return 0;
}

const json_t *rtm_json_path(const json_t *obj, const char *path)
{
	char key[64];
	const char *dot;

	while (obj && (dot = strchr(path, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		obj = json_object_get(obj, key);
		path = dot + 1;
	}
	return obj ? json_object_get(obj, path) : NULL;
}

const char *rtm_json_path_str(const json_t *obj, const char *path)
{
	return json_string_value(rtm_json_path(obj, path));
}
