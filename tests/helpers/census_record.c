// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * census_record - record what the spike census reads, for tests/unit/test_census.
 *
 *   census_record record DIR --cpu C --inject PATH [--loops N]
 *       stream the events the census enables (sched_switch, irq and softirq
 *       entry/exit, irq_vectors, nmi_handler, hrtimer_start and
 *       hrtimer_expire_entry of hrtimer_wakeup) of CPU C (raw pages in
 *       DIR/cpuC.raw, formats in DIR/events) while a SCHED_FIFO 95 thread
 *       pinned to C sleeps N times (default 1600) to absolute 500 us boundaries
 *       with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME), as rtmeasure's
 *       probe does, and PATH (tests/helpers/inject) spins 1.5 ms every 100 ms,
 *       6 times, at FIFO 99 on C; DIR/probe gets the sleeper's tid, the address
 *       of hrtimer_wakeup and per wake-up the planned time and the latency it
 *       measured; DIR/inject.txt the injector's own lines
 *   census_record list DIR --cpu C
 *       print the recorded events of CPU C one per line with their common_pid
 *
 * Bad options: one line on stderr, exit 2; failures: exit 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"
#include "record.h"
#include "trace/timerirq.h"
#include "tracefs/instance.h"

#define EVENTS		"sched:sched_switch,irq:irq_handler_entry,irq:irq_handler_exit," \
			"irq:softirq_entry,irq:softirq_exit,irq_vectors,nmi:nmi_handler," \
			"timer:hrtimer_start,timer:hrtimer_expire_entry"

int main(int argc, char **argv)
{
	struct rtm_error err = { "" };
	struct rtm_trace_opts o = { .events = EVENTS, .buffer_kb = 4096, .overwrite = false };
	static struct helper_sleeper s = { .cpu = -1, .loops = 1600, .period_ns = 500000,
					     .skip_late = true };
	char cpus[16], path[PATH_MAX], f1[96], f2[96];
	const char *inject = NULL;
	struct rtm_trace *t;
	uint64_t wakeup_fn = 0;
	int i, status;
	pthread_t th;
	pid_t inj;
	FILE *f;

	helper_name = "census_record";
	if (argc < 3 || (strcmp(argv[1], "record") && strcmp(argv[1], "list")))
		die(2, "usage: census_record record DIR --cpu C --inject PATH [--loops N] | "
		    "list DIR --cpu C");
	for (i = 3; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--cpu"))
			s.cpu = (int)parse_int("--cpu", argv[i + 1], 0, 4095);
		else if (!strcmp(argv[i], "--loops"))
			s.loops = (int)parse_int("--loops", argv[i + 1], 1, HELPER_SLEEPER_MAX);
		else if (!strcmp(argv[i], "--inject"))
			inject = argv[i + 1];
		else
			die(2, "unknown option %s", argv[i]);
	}
	if (i != argc || s.cpu < 0)
		die(2, "--cpu C is needed (and every option takes a value)");
	if (!strcmp(argv[1], "list"))
		return helper_list_pages(argv[2], s.cpu);
	if (!inject)
		die(2, "record needs --inject PATH (tests/helpers/inject)");
	if (rtm_timerirq_kallsyms("/", "hrtimer_wakeup", &wakeup_fn))
		die(1, "hrtimer_wakeup is not in /proc/kallsyms (root, kernel.kptr_restrict <= 1)");
	snprintf(cpus, sizeof(cpus), "%d", s.cpu);
	o.cpus = cpus;
	snprintf(f1, sizeof(f1), "timer:hrtimer_start:function == %#llx",
		 (unsigned long long)wakeup_fn);
	snprintf(f2, sizeof(f2), "timer:hrtimer_expire_entry:function == %#llx",
		 (unsigned long long)wakeup_fn);
	o.filters[o.nfilters++] = f1;
	o.filters[o.nfilters++] = f2;
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
	snprintf(path, sizeof(path), "%s/inject.txt", argv[2]);
	inj = helper_start_inject(inject, s.cpu, path, "1500us", "100ms", "6", "99", "100ms");
	pthread_join(th, NULL);
	rtm_trace_stop(t);
	if (inj < 0 || waitpid(inj, &status, 0) != inj || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		rtm_trace_destroy(t);
		die(1, "inject failed");
	}
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
		if (s.planned[i])
			fprintf(f, "%llu %llu\n", (unsigned long long)s.planned[i],
				(unsigned long long)s.lat[i]);
	return fclose(f) ? 1 : 0;
}
