/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsonutil.h - unsigned 64-bit integers in JSON, and dotted member paths.
 *
 * jansson integers are signed 64-bit; values above INT64_MAX are written as
 * decimal strings and both forms are read back.
 */
#ifndef RTM_JSONUTIL_H
#define RTM_JSONUTIL_H

#include <stdint.h>

#include <jansson.h>

#include "core/error.h"

/* A JSON integer, or a decimal string above INT64_MAX; NULL when out of memory. */
json_t *rtm_json_u64(uint64_t v);

/*
 * A JSON string of text rtmeasure did not write (a /proc or /sys file, a task's
 * name, another tool's output): bytes that are not UTF-8 become '?', which
 * json_string() would refuse (NULL, and with it the whole document). NULL
 * only when out of memory; json null for a NULL @s.
 */
json_t *rtm_json_text(const char *s);
json_t *rtm_json_textn(const char *s, size_t len);

/*
 * Decimal strings of unsigned integers up to 128 bits, the one digit loop of
 * lib/: rtm_dec_format() writes @v into @buf (cut to @len - 1 digits);
 * rtm_dec_parse() reads digits only (no sign, no blanks, not empty) of a
 * value no greater than @max: 0 or -1.
 */
void rtm_dec_format(unsigned __int128 v, char *buf, size_t len);
int rtm_dec_parse(const char *s, unsigned __int128 max, unsigned __int128 *out);

/* A non-negative integer or its decimal string form; 0 or -1. */
int rtm_json_get_u64(const json_t *j, uint64_t *out);

/* Member @key of @obj as rtm_json_get_u64(); errors read "@what: "key" is ...". */
int rtm_json_get_field(const json_t *obj, const char *key, uint64_t *out, const char *what,
		       struct rtm_error *err);

/* The member at a dotted path ("kernel.preempt.model") of @obj, or NULL. */
const json_t *rtm_json_path(const json_t *obj, const char *path);
/* Its string value, or NULL when absent or not a string. */
const char *rtm_json_path_str(const json_t *obj, const char *path);

#endif
