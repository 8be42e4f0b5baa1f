// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jsonutil.c - unsigned 64-bit integers and foreign text in JSON.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonutil.h"

json_t *rtm_json_u64(uint64_t v)
{
	char buf[24];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return json_string(buf);
}

/* Length of the valid UTF-8 sequence at @p (at most @n bytes), 0 when invalid. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	uint32_t cp, min;
	size_t len, i;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0)
		len = 2, cp = p[0] & 0x1f, min = 0x80;
	else if ((p[0] & 0xf0) == 0xe0)
		len = 3, cp = p[0] & 0x0f, min = 0x800;
	else if ((p[0] & 0xf8) == 0xf0)
		len = 4, cp = p[0] & 0x07, min = 0x10000;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates and beyond U+10FFFF: jansson refuses them */
	if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

json_t *rtm_json_textn(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	json_t *j;
	size_t i, k;
	char *copy;

	if (!s)
		return json_null();
	for (i = 0; i < len && p[i] && (k = utf8_len(p + i, len - i)); i += k)
		;
	if (i == len)
		return json_stringn(s, len);
	copy = malloc(len);
	if (!copy)
		return NULL;
	for (i = 0; i < len; i += k) {
		k = p[i] ? utf8_len(p + i, len - i) : 0;
		if (k) {
			memcpy(copy + i, s + i, k);
		} else {
			copy[i] = '?';	/* a stray byte, or a NUL inside the text */
			k = 1;
		}
	}
	j = json_stringn(copy, len);
	free(copy);
	return j;
}

json_t *rtm_json_text(const char *s)
{
	return s ? rtm_json_textn(s, strlen(s)) : json_null();
}

void rtm_dec_format(unsigned __int128 v, char *buf, size_t len)
{
	char tmp[40];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v && n < sizeof(tmp));
	if (n >= len)
		n = len - 1;
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
}

int rtm_dec_parse(const char *s, unsigned __int128 max, unsigned __int128 *out)
{
	unsigned __int128 v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (d > 9 || v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int rtm_json_get_u64(const json_t *j, uint64_t *out)
{
	unsigned __int128 v;

	if (json_is_integer(j)) {
		if (json_integer_value(j) < 0)
			return -1;
		*out = (uint64_t)json_integer_value(j);
		return 0;
	}
	if (!json_is_string(j) || rtm_dec_parse(json_string_value(j), UINT64_MAX, &v))
		return -1;
	*out = (uint64_t)v;
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
