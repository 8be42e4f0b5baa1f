// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_task_stat - the /proc/PID/task/TID/stat and schedstat parsers of
 * irq --accounting (lib/irq/charged_proc.c). Seeds: the stat and schedstat files
 * recorded under tests/data (cpuacct-vm-6.18, the sysroots).
 */
#include "irq/charged.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtm_task_stat t;
	char *s = fuzz_str(data, size);

	if (!s)
		return 0;
	memset(&t, 0, sizeof(t));
	if (!rtm_task_parse_stat(s, &t)) {
		/* a parsed line names a thread and a comm that fits, NUL-terminated */
		fuzz_check(t.tid >= 0, "tid %d", t.tid);
		fuzz_check(memchr(t.comm, '\0', sizeof(t.comm)) != NULL, "comm not terminated");
	}
	memset(&t, 0, sizeof(t));
	if (!rtm_task_parse_schedstat(s, &t))
		fuzz_check(t.has_schedstat, "schedstat parsed but not marked");
	free(s);
	return 0;
}
