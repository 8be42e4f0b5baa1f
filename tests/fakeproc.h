/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fakeproc.h - a /proc/PID/stat under a test's root folder, for the unit tests
 * whose code reads a thread's policy there (rtholds, noiseattr).
 */
#ifndef RTM_TEST_FAKEPROC_H
#define RTM_TEST_FAKEPROC_H

#include <stdio.h>
#include <sys/stat.h>

/*
 * @root/proc/@pid/stat for thread @comm with scheduling @policy (field 41:
 * 1 FIFO, 2 RR, 3 BATCH ...), last run on CPU 1, rt_priority 90 for FIFO/RR.
 */
static inline void fake_proc_stat(const char *root, int pid, const char *comm, int policy)
{
	char path[512];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/proc/%d", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/%d/stat", root, pid);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "%d (%s) R", pid, comm);
	for (i = 4; i <= 39; i++)		/* ppid .. processor */
		fprintf(f, " %d", i == 39 ? 1 : 0);
	fprintf(f, " %d %d 0 0 0\n", policy == 1 || policy == 2 ? 90 : 0, policy);
	fclose(f);
}

#endif
