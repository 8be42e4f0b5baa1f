// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/error.h"

/*
 * Messages echo what the user gave (a file's line, an option's value): control
 * characters in it are written as \n, \t, \xNN, so a message stays one line.
 */
static void verr(struct rtm_error *err, const char *fmt, va_list ap)
{
	char raw[sizeof(err->msg)];
	size_t i, o = 0;

	if (!err)
		return;
	vsnprintf(raw, sizeof(raw), fmt, ap);
	for (i = 0; raw[i] && o + 5 < sizeof(err->msg); i++) {
		unsigned char c = (unsigned char)raw[i];

		if (c >= 0x20 && c != 0x7f)
			err->msg[o++] = (char)c;
		else if (c == '\n' || c == '\t' || c == '\r')
			o += (size_t)snprintf(err->msg + o, 3, "\\%c",
					      c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		else
			o += (size_t)snprintf(err->msg + o, 5, "\\x%02x", c);
	}
	err->msg[o] = '\0';
}

int rtm_error_set(struct rtm_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(err, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int rtm_error_setn(struct rtm_error *err, int neg_errno, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(err, fmt, ap);
	va_end(ap);
	return neg_errno;
}
