// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay.c - a fuzz target under the normal build, as a unit test: the inputs
 * the fuzzer found crashing (tests/data/fuzz-regress/<target>/, one file
 * each) go through the target's LLVMFuzzerTestOneInput once more. A crash, a
 * sanitizer report or a broken fuzz_check aborts the test. FUZZ_TARGET names
 * the target (set by Makefile.am).
 */
#include <dirent.h>
#include <limits.h>

#include "core/fileio.h"
#include "fuzz.h"
#include "../tap.h"

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
	struct dirent **names;
	char dir[PATH_MAX], path[PATH_MAX + 256];
	int n, i, replayed = 0;

	snprintf(dir, sizeof(dir), "%s/fuzz-regress/%s", fuzz_testdata(), FUZZ_TARGET);
	LLVMFuzzerInitialize(&argc, &argv);
	n = scandir(dir, &names, NULL, by_name);
	for (i = 0; i < n; i++) {
		size_t len = 0;
		char *data;

		if (names[i]->d_name[0] == '.') {
			free(names[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		data = rtm_read_all("", path, &len);
		if (ok(data != NULL, "%s: read", names[i]->d_name)) {
			LLVMFuzzerTestOneInput((const uint8_t *)data, len);
			ok(1, "%s: %s takes it (no crash, no broken promise)", names[i]->d_name,
			   FUZZ_TARGET);
			replayed++;
		}
		free(data);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	ok(replayed > 0, "%d inputs of %s replayed", replayed, dir);
	return tap_done();
}
