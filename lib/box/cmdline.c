// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmdline.c - the load's and the cost phase's programs: found in $PATH as execvp()
 * would, their command lines written as a shell would take them back (load.h).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include "box/load.h"

#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

bool rtm_find_exe(const char *name, char *buf, size_t len)
{
	const char *list = getenv("PATH"), *p, *end;
	int n;

	if (!list)
		list = DEFAULT_PATH;
	for (p = list; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (end == p)
			continue;
		n = snprintf(buf, len, "%.*s/%s", (int)(end - p), p, name);
		if (n < 0 || (size_t)n >= len)
			continue;
		if (access(buf, X_OK) == 0)
			return true;
	}
	return false;
}

static bool needs_quotes(const char *s)
{
	if (!*s)
		return true;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("%+,-./:=@_", *s))
			return true;
	return false;
}

char *rtm_shell_join(char *const *argv)
{
	size_t len = 1, i;
	const char *c;
	char *s, *p;

	for (i = 0; argv[i]; i++)
		len += strlen(argv[i]) * 4 + 3;
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	for (i = 0; argv[i]; i++) {
		if (i)
			*p++ = ' ';
		if (!needs_quotes(argv[i])) {
			p = stpcpy(p, argv[i]);
			continue;
		}
		*p++ = '\'';
		for (c = argv[i]; *c; c++) {
			if (*c == '\'')
				p = stpcpy(p, "'\\''");
			else
				*p++ = *c;
		}
		*p++ = '\'';
	}
	*p = '\0';
	return s;
}
