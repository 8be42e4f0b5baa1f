/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tap.h - a minimal Test Anything Protocol emitter for the unit tests.
 *
 * Each check prints "ok N - name" or "not ok N - name" plus a diagnostic;
 * tap_done() prints the plan and returns the exit status (non-zero when any
 * check failed), so a failing assertion always fails the run.
 */
#ifndef RTM_TAP_H
#define RTM_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count;
static int tap_failed;

static inline int tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __VA_ARGS__)

#define is_int(got, want, name) do {						\
	long long _g = (long long)(got), _w = (long long)(want);		\
	if (!tap_ok(_g == _w, "%s", name))					\
		printf("#   got %lld, want %lld (%s:%d)\n", _g, _w, __FILE__, __LINE__); \
} while (0)

#define is_u64(got, want, name) do {						\
	uint64_t _g = (uint64_t)(got), _w = (uint64_t)(want);			\
	if (!tap_ok(_g == _w, "%s", name))					\
		printf("#   got %" PRIu64 ", want %" PRIu64 " (%s:%d)\n", _g, _w,	\
		       __FILE__, __LINE__);					\
} while (0)

#define is_str(got, want, name) do {						\
	const char *_g = (got), *_w = (want);					\
	if (!tap_ok(_g && _w && strcmp(_g, _w) == 0, "%s", name))		\
		printf("#   got \"%s\", want \"%s\" (%s:%d)\n", _g ? _g : "(null)",	\
		       _w ? _w : "(null)", __FILE__, __LINE__);			\
} while (0)

/* A non-empty message of one line, as every user-facing error must be. */
static inline int one_line(const char *s)
{
	return s && s[0] != '\0' && strchr(s, '\n') == NULL;
}

/*
 * Corrupted copies of a valid JSON document for parser tests: @key NULL
 * replaces the whole document with @value; @value NULL deletes @key.
 */
struct json_corrupt {
	const char *name;
	const char *key;
	const char *value;
};

#ifdef JANSSON_H
static inline json_t *json_corrupted(const json_t *base, const struct json_corrupt *k)
{
	json_t *doc;

	if (!k->key)
		return json_loads(k->value, JSON_DECODE_ANY, NULL);
	doc = json_deep_copy(base);
	if (k->value)
		json_object_set_new(doc, k->key, json_loads(k->value, JSON_DECODE_ANY, NULL));
	else
		json_object_del(doc, k->key);
	return doc;
}
#endif

#define diag(...) do { printf("# "); printf(__VA_ARGS__); printf("\n"); } while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	if (tap_failed)
		printf("# %d of %d checks failed\n", tap_failed, tap_count);
	return tap_failed ? 1 : 0;
}

/* Whole program skipped: TAP "1..0 # SKIP", reported as SKIP by the driver. */
static inline int tap_skip_all(const char *reason)
{
	printf("1..0 # SKIP %s\n", reason);
	return 0;
}

#endif
