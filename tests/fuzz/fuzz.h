/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h - what the libFuzzer targets share.
 *
 * A target returns 0 for any input; a crash, a sanitizer report or a broken
 * promise of the code under test (fuzz_check) is the finding.
 */
#ifndef RTM_FUZZ_H
#define RTM_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A promise the code under test broke: report it and abort (libFuzzer saves the input). */
#define fuzz_check(cond, ...)							\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "fuzz_check failed: %s: ", #cond);	\
			fprintf(stderr, __VA_ARGS__);				\
			fputc('\n', stderr);					\
			abort();						\
		}								\
	} while (0)

/* Errors are one line, never empty. */
static inline void fuzz_check_msg(const struct rtm_error *err)
{
	fuzz_check(err->msg[0] && !strchr(err->msg, '\n'), "error message \"%s\"", err->msg);
}

/* The input as a NUL-terminated string (malloc()ed). */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

/* The test data folder: $RTM_TESTDATA, else the source tree's tests/data. */
static inline const char *fuzz_testdata(void)
{
	const char *d = getenv("RTM_TESTDATA");

	return d && *d ? d : RTM_SRCDIR "/tests/data";
}

#endif
