// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_sysinfo - the /proc and /sys readers of lib/box/sysinfo.c (boot command
 * line, kernel config, cpuinfo, CPU lists, idle states, clocksource, kernel
 * log, tracing features): rtm_sysinfo_collect() on a recorded tree whose files
 * the input replaces, then the verdicts, the JSON form and the text form.
 *
 * LLVMFuzzerInitialize copies tests/data/sysroot-* into a temporary folder
 * once. An input is sections "=== TREE/PATH\n" followed by the file's new
 * content; PATH must be a file of the recorded TREE. The first section's tree
 * is collected; the files are put back after each input.
 * Seeds: one section per file of the recorded trees (scripts/fuzz makes them).
 */
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "core/fileio.h"
#include "box/sysinfo.h"
#include "present/sysinfo_print.h"
#include "fuzz.h"

static char top[PATH_MAX];

static void remove_top(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz_sysinfo: could not remove %s\n", top);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	char cmd[3 * PATH_MAX];

	snprintf(top, sizeof(top), "%s/rtm-fuzz-sysinfo.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(top)) {
		perror("fuzz_sysinfo: mkdtemp");
		exit(2);
	}
	atexit(remove_top);
	snprintf(cmd, sizeof(cmd), "cp -r '%s'/sysroot-* '%s'/", fuzz_testdata(), top);
	if (system(cmd) != 0) {
		fprintf(stderr, "fuzz_sysinfo: cannot copy the recorded trees: %s\n", cmd);
		exit(2);
	}
	return 0;
}

#define MAX_FILES 16

struct saved {
	char path[PATH_MAX];
	char *text;			/* the recorded content */
	size_t len;
};

static int write_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	if (len)
		n = write(fd, text, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* A file of a recorded tree: "sysroot-x/..." without ".." and existing as a regular file. */
static bool tree_file(const char *rel, size_t len, char *path, size_t size, char *tree,
		      size_t tree_size)
{
	const char *slash = memchr(rel, '/', len);
	struct stat st;

	/* @rel is not NUL-terminated: never read past @len (strncmp's hook reads 8 bytes) */
	if (len < 9 || len > 200 || memchr(rel, '\0', len) || memcmp(rel, "sysroot-", 8) || !slash ||
	    memmem(rel, len, "..", 2))
		return false;
	snprintf(path, size, "%s/%.*s", top, (int)len, rel);
	snprintf(tree, tree_size, "%s/%.*s", top, (int)(slash - rel), rel);
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct saved saved[MAX_FILES];
	char root[PATH_MAX] = "", tree[PATH_MAX];
	struct rtm_error err = { "" };
	struct rtm_sysinfo *si;
	int nsaved = 0, i;
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	json_t *j;

	while (p < end && nsaved < MAX_FILES && end - p > 4 && !memcmp(p, "=== ", 4)) {
		const char *name = p + 4, *nl = memchr(name, '\n', (size_t)(end - name));
		const char *body, *next;
		struct saved *s = &saved[nsaved];

		if (!nl)
			break;
		body = nl + 1;
		next = memmem(body, (size_t)(end - body), "\n=== ", 5);
		next = next ? next + 1 : end;
		p = next;
		if (!tree_file(name, (size_t)(nl - name), s->path, sizeof(s->path), tree,
			       sizeof(tree)))
			continue;
		for (i = 0; i < nsaved && strcmp(saved[i].path, s->path); i++)
			;
		if (i < nsaved)
			continue;	/* each file once */
		s->text = rtm_read_all("", s->path, &s->len);
		if (!s->text)
			continue;
		nsaved++;
		if (!root[0])
			snprintf(root, sizeof(root), "%s", tree);
		if (write_file(s->path, body, (size_t)(next - body)) < 0) {
			fprintf(stderr, "fuzz_sysinfo: cannot write %s\n", s->path);
			abort();
		}
	}
	if (root[0]) {
		si = rtm_sysinfo_collect(root, &err);
		if (si) {
			j = rtm_sysinfo_to_json(si);
			fuzz_check(j != NULL, "no JSON for a collected sysinfo");
			json_decref(j);
			out = open_memstream(&text, &len);
			if (out) {
				rtm_sysinfo_fprint(si, out, false, 100);
				rtm_sysinfo_fprint(si, out, true, 40);
				fclose(out);
				free(text);
			}
			rtm_sysinfo_free(si);
		} else {
			fuzz_check_msg(&err);
		}
	}
	for (i = 0; i < nsaved; i++) {
		if (write_file(saved[i].path, saved[i].text, saved[i].len) < 0) {
			fprintf(stderr, "fuzz_sysinfo: cannot put back %s\n", saved[i].path);
			abort();
		}
		free(saved[i].text);
	}
	return 0;
}
