// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * noiseattr_record - record what `noise --trace` reads, for tests/unit/test_noiseattr.
 *
 *   noiseattr_record record DIR --cpu C --inject PATH
 *       run rtmeasure's noise probe (lib/probe/probe_noise.c: FIFO 95, busy 150 ms of
 *       every 200 ms, gaps above 1 us) on CPU C for 2 s while the streaming events
 *       noise --trace enables are traced on C (raw pages in DIR/cpuC.raw, formats in
 *       DIR/events), and PATH (tests/helpers/inject) spins 2 ms every 70 ms at FIFO
 *       97 on C; DIR/noise.json gets sections.noise, DIR/probe the noise thread's
 *       tid, DIR/inject.txt the injector's own lines
 *   noiseattr_record list DIR --cpu C
 *       print the recorded events of CPU C one per line with their common_pid
 *
 * Bad options: one line on stderr, exit 2; failures: exit 1.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helper.h"
#include "record.h"
#include "probe/probe_noise.h"
#include "tracefs/instance.h"

#define EVENTS "sched:sched_switch,irq:irq_handler_entry,irq:irq_handler_exit," \
	       "irq:softirq_entry,irq:softirq_exit,irq_vectors,nmi:nmi_handler"

/* The tid of this process's thread named @comm, 0 when none. */
static int find_thread(const char *comm)
{
	DIR *d = opendir("/proc/self/task");
	char path[64], name[32];
	struct dirent *de;
	int tid = 0;
	FILE *f;

	while (d && !tid && (de = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && !strncmp(name, comm, strlen(comm)))
			tid = atoi(de->d_name);
		fclose(f);
	}
	if (d)
		closedir(d);
	return tid;
}

int main(int argc, char **argv)
{
	struct rtm_error err = { "" };
	struct rtm_trace_opts o = { .events = EVENTS, .buffer_kb = 4096, .overwrite = false };
	struct rtm_probe_noise_opts no = { .window_ns = 200000000ULL, .width_ns = 150000000ULL,
		.threshold_ns = 1000, .report_above_ns = 20000, .max_gaps = 200000,
		.duration_ns = 2000000000ULL, .lock_memory = true, .dma_latency_us = 0,
		.sched = { .policy = RTM_POLICY_FIFO, .priority = 95 } };
	const char *inject = NULL;
	struct rtm_probe_noise *p;
	struct rtm_result *r;
	struct rtm_trace *t;
	char cpus[16], path[PATH_MAX];
	int i, cpu = -1, tid = 0, status;
	pid_t inj;
	FILE *f;

	helper_name = "noiseattr_record";
	if (argc < 3 || (strcmp(argv[1], "record") && strcmp(argv[1], "list")))
		die(2, "usage: noiseattr_record record DIR --cpu C --inject PATH | "
		    "list DIR --cpu C");
	for (i = 3; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--cpu"))
			cpu = (int)parse_int("--cpu", argv[i + 1], 0, 4095);
		else if (!strcmp(argv[i], "--inject"))
			inject = argv[i + 1];
		else
			die(2, "unknown option %s", argv[i]);
	}
	if (i != argc || cpu < 0)
		die(2, "--cpu C is needed (and every option takes a value)");
	if (!strcmp(argv[1], "list"))
		return helper_list_pages(argv[2], cpu);
	if (!inject)
		die(2, "record needs --inject PATH (tests/helpers/inject)");
	snprintf(cpus, sizeof(cpus), "%d", cpu);
	o.cpus = cpus;
	if (rtm_cpulist_parse(cpus, &no.cpus, NULL))
		die(1, "cannot take CPU %d", cpu);
	if (mkdir(argv[2], 0755) && errno != EEXIST)
		die(1, "cannot make %s", argv[2]);
	t = rtm_trace_create(&o, &err);
	if (!t)
		die(1, "%s", err.msg);
	rtm_trace_start(t);
	p = rtm_probe_noise_start(&no, &err);
	if (!p) {
		rtm_trace_destroy(t);
		die(1, "noise probe: %s", err.msg);
	}
	snprintf(path, sizeof(path), "%s/inject.txt", argv[2]);
	inj = helper_start_inject(inject, cpu, path, "2ms", "70ms", "24", "97", "200ms");
	while (!rtm_probe_noise_done(p)) {
		if (!tid)
			tid = find_thread("rtm-noise/");
		usleep(20000);
	}
	r = rtm_result_alloc("noise");
	if (!r || rtm_probe_noise_finish(p, r, &err))
		die(1, "noise probe: %s", err.msg);
	rtm_probe_noise_free(p);
	rtm_trace_stop(t);
	waitpid(inj, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		die(1, "inject failed (status %d)", status);
	if (rtm_trace_save_formats(argv[2], &err) ||
	    rtm_trace_read_pages(t, helper_write_page, argv[2], &err)) {
		rtm_trace_destroy(t);
		die(1, "recording failed: %s", err.msg);
	}
	rtm_trace_destroy(t);
	snprintf(path, sizeof(path), "%s/noise.json", argv[2]);
	if (json_dump_file(json_object_get(r->sections, "noise"), path, JSON_COMPACT))
		die(1, "cannot write %s", path);
	rtm_result_free(r);
	snprintf(path, sizeof(path), "%s/probe", argv[2]);
	f = fopen(path, "w");
	if (!f)
		die(1, "cannot write %s", path);
	fprintf(f, "tid %d\n", tid);
	return fclose(f) ? 1 : 0;
}
