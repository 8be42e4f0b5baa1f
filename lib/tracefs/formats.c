// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * formats.c - event formats into a libtraceevent handle, without kallsyms.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "tracefs/formats.h"

/* The file @dir/@rel read whole, NULL when it is not there. */
static char *read_rel(const char *dir, const char *rel, size_t *len)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path))
		return NULL;
	return rtm_read_all("/", path, len);
}

/* Every events/@system/EVENT/format; a group without an "enable" file is not one. */
static void load_system(struct tep_handle *tep, const char *dir, const char *system)
{
	char path[PATH_MAX], rel[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;

	snprintf(path, sizeof(path), "%s/events/%s/enable", dir, system);
	if (strcmp(system, "ftrace") && stat(path, &st))
		return;
	snprintf(path, sizeof(path), "%s/events/%s", dir, system);
	d = opendir(path);
	while (d && (de = readdir(d)) != NULL) {
		size_t len;
		char *text;

		if (de->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "events/%s/%s/format", system, de->d_name);
		text = read_rel(dir, rel, &len);
		if (text && len)
			tep_parse_event(tep, text, len, system);
		free(text);
	}
	if (d)
		closedir(d);
}

struct tep_handle *rtm_formats_load(const char *tracing_dir, const char *const *systems)
{
	struct tep_handle *tep;
	size_t len, i;
	char *text;

	text = read_rel(tracing_dir, "events/header_page", &len);
	tep = text && len ? tep_alloc() : NULL;
	if (!tep) {
		free(text);
		return NULL;
	}
	tep_parse_header_page(tep, text, (unsigned long)len, sizeof(long));
	free(text);
	for (i = 0; systems[i]; i++)
		load_system(tep, tracing_dir, systems[i]);
	/* the rest, as libtracefs loads it: best effort */
	text = read_rel(tracing_dir, "saved_cmdlines", &len);
	if (text)
		tep_parse_saved_cmdlines(tep, text);
	free(text);
	text = read_rel(tracing_dir, "printk_formats", &len);
	if (text)
		tep_parse_printk_formats(tep, text);
	free(text);
	tep_set_cpus(tep, (int)sysconf(_SC_NPROCESSORS_CONF));
	tep_set_long_size(tep, tep_get_header_page_size(tep));
	return tep;
}

void rtm_formats_load_kallsyms(struct tep_handle *tep)
{
	char *text = rtm_read_all("/", "/proc/kallsyms", NULL);

	if (text)
		tep_parse_kallsyms(tep, text);
	free(text);
}
