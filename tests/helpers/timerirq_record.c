// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timerirq_record - record what --timer-irq reads, for tests/unit/test_timerirq.
 *
 *   timerirq_record record DIR --cpu C [--loops N]
 *       trace timer:hrtimer_start and timer:hrtimer_expire_entry on CPU C (raw
 *       pages in DIR/cpuC.raw, formats in DIR/events) while a SCHED_FIFO 95
 *       thread pinned to C sleeps N times (default 20) to absolute 1 ms
 *       boundaries with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME), as
 *       rtmeasure's probe does; DIR/probe gets its tid and, per wake-up, the
 *       planned time and the latency it measured (its clock read - planned),
 *       and the address of hrtimer_wakeup from /proc/kallsyms
 *   timerirq_record list DIR --cpu C
 *       print the recorded events of CPU C one per line with their common_pid
 *       (for computing the expected figures by hand)
 *
 * Bad options: one line on stderr, exit 2; failures: exit 1.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "helper.h"
#include "record.h"
#include "trace/timerirq.h"
#include "tracefs/instance.h"


int main(int argc, char **argv)
{
	struct rtm_error err = { "" };
	struct rtm_trace_opts o = { .events = "timer:hrtimer_start,timer:hrtimer_expire_entry",
				    .buffer_kb = 4096, .overwrite = false };
	static struct helper_sleeper s = { .cpu = -1, .loops = 20, .period_ns = 1000000,
					     .skip_late = false };
	struct rtm_trace *t;
	char cpus[16], path[PATH_MAX];
	uint64_t wakeup_fn = 0;
	pthread_t th;
	FILE *f;
	int i;

	helper_name = "timerirq_record";
	if (argc < 3 || (strcmp(argv[1], "record") && strcmp(argv[1], "list")))
		die(2, "usage: timerirq_record record DIR --cpu C [--loops N] | list DIR --cpu C");
	for (i = 3; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--cpu"))
			s.cpu = (int)parse_int("--cpu", argv[i + 1], 0, 4095);
		else if (!strcmp(argv[i], "--loops"))
			s.loops = (int)parse_int("--loops", argv[i + 1], 1, HELPER_SLEEPER_MAX);
		else
			die(2, "unknown option %s", argv[i]);
	}
	if (i != argc || s.cpu < 0)
		die(2, "--cpu C is needed (and every option takes a value)");
	if (!strcmp(argv[1], "list"))
		return helper_list_pages(argv[2], s.cpu);
	if (rtm_timerirq_kallsyms("/", "hrtimer_wakeup", &wakeup_fn))
		die(1, "hrtimer_wakeup is not in /proc/kallsyms (root, kernel.kptr_restrict <= 1)");
	snprintf(cpus, sizeof(cpus), "%d", s.cpu);
	o.cpus = cpus;
	if (mkdir(argv[2], 0755) && errno != EEXIST)
		die(1, "cannot make %s", argv[2]);
	t = rtm_trace_create(&o, &err);
	if (!t)
		die(1, "%s", err.msg);
	rtm_trace_start(t);
	if (pthread_create(&th, NULL, helper_sleeper_main, &s)) {
		rtm_trace_destroy(t);
		die(1, "cannot start the sleeper");
	}
	pthread_join(th, NULL);
	rtm_trace_stop(t);
	if (s.err) {
		rtm_trace_destroy(t);
		die(1, "sleeper: %s (root is needed for SCHED_FIFO)", strerror(s.err));
	}
	if (rtm_trace_save_formats(argv[2], &err) ||
	    rtm_trace_read_pages(t, helper_write_page, argv[2], &err)) {
		rtm_trace_destroy(t);
		die(1, "recording failed: %s", err.msg);
	}
	rtm_trace_destroy(t);
	snprintf(path, sizeof(path), "%s/probe", argv[2]);
	f = fopen(path, "w");
	if (!f)
		die(1, "cannot write %s", path);
	fprintf(f, "tid %d\nfunction %#llx\n", s.tid, (unsigned long long)wakeup_fn);
	for (i = 0; i < s.loops; i++)
		fprintf(f, "%llu %llu\n", (unsigned long long)s.planned[i],
			(unsigned long long)s.lat[i]);
	return fclose(f) ? 1 : 0;
}
