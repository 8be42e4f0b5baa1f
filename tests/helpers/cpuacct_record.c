// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpuacct_record - record what irq --accounting reads, for tests/unit/test_cpuacct.
 *
 *   cpuacct_record record DIR --cpu C --pid PID --tid TID [--duration D]
 *       trace sched_switch and the irq events of CPU C (raw pages in
 *       DIR/cpuC.raw, formats in DIR/events), force one switch on C, copy
 *       /proc/PID/task/TID/{stat,schedstat} to DIR/first/proc/... then, after
 *       D (default 30ms), to DIR/last/proc/..., and write the clock readings
 *       (trace_on_ns, first_read_ns, last_read_ns, trace_off_ns) to DIR/times
 *   cpuacct_record list DIR --cpu C
 *       print the recorded events of CPU C one per line (for computing the
 *       expected figures by hand)
 *
 * Bad options: one line on stderr, exit 2; failures: exit 1.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helper.h"
#include "record.h"
#include "tracefs/instance.h"

/* Copy /proc/PID/task/TID/{stat,schedstat} below DIR/WHICH; returns the clock before. */
static uint64_t copy_task(const char *dir, const char *which, int pid, int tid)
{
	static const char *const files[] = { "stat", "schedstat" };
	char path[PATH_MAX], buf[4096];
	uint64_t t;
	size_t i, n;
	FILE *in, *out;

	snprintf(path, sizeof(path), "%s/%s/proc/%d/task/%d", dir, which, pid, tid);
	for (char *p = path + strlen(dir) + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	mkdir(path, 0755);
	t = now_ns();
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", pid, tid, files[i]);
		in = fopen(path, "r");
		n = in ? fread(buf, 1, sizeof(buf), in) : 0;
		if (in)
			fclose(in);
		if (!n)
			die(1, "cannot read %s", path);
		snprintf(path, sizeof(path), "%s/%s/proc/%d/task/%d/%s", dir, which, pid, tid,
			 files[i]);
		out = fopen(path, "w");
		if (!out || fwrite(buf, 1, n, out) != n || fclose(out))
			die(1, "cannot write %s", path);
	}
	return t;
}

int main(int argc, char **argv)
{
	struct rtm_error err = { "" };
	struct rtm_trace_opts o = { .events = "irq,sched:sched_switch", .buffer_kb = 4096,
				    .overwrite = false };
	uint64_t duration_ns = 30000000ULL, on, first, last, off;
	int cpu = -1, pid = -1, tid = -1, i;
	cpu_set_t old, one;
	struct rtm_trace *t;
	char cpus[16], path[PATH_MAX];
	FILE *f;

	helper_name = "cpuacct_record";
	if (argc < 3 || (strcmp(argv[1], "record") && strcmp(argv[1], "list")))
		die(2, "usage: cpuacct_record record DIR --cpu C --pid PID --tid TID "
		    "[--duration D] | list DIR --cpu C");
	for (i = 3; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--cpu"))
			cpu = (int)parse_int("--cpu", argv[i + 1], 0, 4095);
		else if (!strcmp(argv[i], "--pid"))
			pid = (int)parse_int("--pid", argv[i + 1], 1, INT_MAX);
		else if (!strcmp(argv[i], "--tid"))
			tid = (int)parse_int("--tid", argv[i + 1], 1, INT_MAX);
		else if (!strcmp(argv[i], "--duration"))
			duration_ns = parse_time("--duration", argv[i + 1]);
		else
			die(2, "unknown option %s", argv[i]);
	}
	if (i != argc || cpu < 0)
		die(2, "--cpu C is needed (and every option takes a value)");
	if (!strcmp(argv[1], "list"))
		return helper_list_pages(argv[2], cpu);
	if (pid < 0 || tid < 0)
		die(2, "record needs --pid and --tid");
	snprintf(cpus, sizeof(cpus), "%d", cpu);
	o.cpus = cpus;
	if (mkdir(argv[2], 0755) && errno != EEXIST)
		die(1, "cannot make %s", argv[2]);
	t = rtm_trace_create(&o, &err);
	if (!t)
		die(1, "%s", err.msg);
	rtm_trace_start(t);
	on = now_ns();
	/* one switch on the CPU, as irq --accounting forces */
	sched_getaffinity(0, sizeof(old), &old);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
	sched_yield();
	sched_setaffinity(0, sizeof(old), &old);
	first = copy_task(argv[2], "first", pid, tid);
	{
		struct timespec ts = { (time_t)(duration_ns / 1000000000ULL),
				       (long)(duration_ns % 1000000000ULL) };

		nanosleep(&ts, NULL);
	}
	last = copy_task(argv[2], "last", pid, tid);
	off = now_ns();
	rtm_trace_stop(t);
	if (rtm_trace_save_formats(argv[2], &err) ||
	    rtm_trace_read_pages(t, helper_write_page, argv[2], &err)) {
		rtm_trace_destroy(t);
		die(1, "recording failed: %s", err.msg);
	}
	rtm_trace_destroy(t);
	snprintf(path, sizeof(path), "%s/times", argv[2]);
	f = fopen(path, "w");
	if (!f)
		die(1, "cannot write %s", path);
	fprintf(f, "trace_on_ns %llu\nfirst_read_ns %llu\nlast_read_ns %llu\ntrace_off_ns %llu\n",
		(unsigned long long)on, (unsigned long long)first, (unsigned long long)last,
		(unsigned long long)off);
	return fclose(f) ? 1 : 0;
}
