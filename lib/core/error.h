/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * error.h - error messages handed from the library to the command.
 *
 * Library functions return 0 / -errno (or NULL with errno set) and, when the
 * caller passes a struct rtm_error, fill in a one-line message naming the
 * problem and its fix. The library never prints.
 */
#ifndef RTM_ERROR_H
#define RTM_ERROR_H

#include <stddef.h>

struct rtm_error {
	char msg[512];
};

/**
 * rtm_error_set - record a one-line message; @err may be NULL
 * @err: where to store the message
 * @fmt: printf format
 *
 * Returns -EINVAL so callers can write "return rtm_error_set(err, ...);".
 */
int rtm_error_set(struct rtm_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Like rtm_error_set() but returns the given negative errno. */
int rtm_error_setn(struct rtm_error *err, int neg_errno, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
