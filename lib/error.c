// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "error.h"

static void verr(struct rtm_error *err, const char *fmt, va_list ap)
{
	if (!err)
		return;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
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
