// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure.c - the drive loop shared by `rtmeasure cyclic` and `rtmeasure run`.
 *
 * Wiring only: the probes, the session, the result, the summary and the
 * histogram file all live in lib/. This file parses options, holds the stop
 * flag, shows live lines and writes the results folder.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>
#include <term.h>

#include "capture.h"
#include "cost.h"
#include "cyclic.h"
#include "fileio.h"
#include "histfile.h"
#include "load.h"
#include "report.h"
#include "resultdir.h"
#include "runlock.h"
#include "measure.h"
#include "rtmeasure.h"
#include "sysinfo.h"
#include "units.h"

/* ------------------------------------------------------------ checks */

/*
 * The online CPUs (sysfs), or the affinity mask where sysfs cannot be read.
 */
static int online_cpus(struct rtm_cpulist *online)
{
	char buf[4096];
	cpu_set_t set;
	int i;

	if (rtm_read_small(NULL, "/sys/devices/system/cpu/online", buf, sizeof(buf)) > 0 &&
	    rtm_cpulist_parse(buf, online, NULL) == 0)
		return 0;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -errno;
	online->n = 0;
	online->cpus = calloc(CPU_SETSIZE, sizeof(int));
	if (!online->cpus)
		return -ENOMEM;
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			online->cpus[online->n++] = i;
	return 0;
}

/*
 * cyclictest's -t N: one thread per CPU here, so the first N measured CPUs; more
 * threads than CPUs cannot be placed one per CPU and are refused.
 */
static int check_threads(struct measure_opts *m)
{
	char list[256];

	if (!m->threads || m->threads == (unsigned int)m->probe.cpus.n)
		return 0;
	if (m->threads > (unsigned int)m->probe.cpus.n) {
		rtm_cpulist_format(&m->probe.cpus, list, sizeof(list));
		return rtm_cli_fail("%s: -t %u: rtmeasure runs one thread per CPU and can measure "
				    "%d CPU%s (%s); give -t %d or fewer, or more CPUs with -a",
				    m->command, m->threads, m->probe.cpus.n,
				    m->probe.cpus.n == 1 ? "" : "s", list, m->probe.cpus.n);
	}
	m->probe.cpus.n = (int)m->threads;
	return 0;
}

/* --housekeeping: online CPUs of this process's cpuset, as -a. */
static int check_housekeeping(struct measure_opts *m, const struct rtm_cpulist *online,
			      const struct rtm_cpulist *usable)
{
	char list[256];
	int i, cpu;

	for (i = 0; i < m->housekeeping.n; i++) {
		cpu = m->housekeeping.cpus[i];
		if (!rtm_cpulist_has(online, cpu)) {
			rtm_cpulist_format(online, list, sizeof(list));
			return rtm_cli_fail("%s: --housekeeping: CPU %d is not online (online CPUs: "
					    "%s)", m->command, cpu, list);
		}
		if (!rtm_cpulist_has(usable, cpu)) {
			rtm_cpulist_format(usable, list, sizeof(list));
			return rtm_cli_fail("%s: --housekeeping: CPU %d is outside this process's "
					    "cpuset (cgroup), which allows CPUs %s", m->command, cpu,
					    list);
		}
	}
	return 0;
}

/*
 * --deepest-idle-state N: the exit latency of idle state N of the first
 * measured CPU becomes the /dev/cpu_dma_latency target, so the kernel keeps
 * every CPU out of deeper states (cyclictest disables the deeper states of the
 * measured CPUs in sysfs; the PM QoS request needs no restoring and ends with
 * the process). -1: no idle state, the target 0.
 */
static int check_idle_state(struct measure_opts *m)
{
	char buf[64];
	int64_t lat;
	int cpu, ret;

	if (m->deepest_idle < -1)
		return 0;
	if (m->deepest_idle == -1) {
		m->probe.dma_latency_us = 0;
		return 0;
	}
	cpu = m->probe.cpus.n ? m->probe.cpus.cpus[0] : 0;
	snprintf(buf, sizeof(buf), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency", cpu,
		 m->deepest_idle);
	ret = rtm_read_s64("/", buf, &lat);
	if (ret == -ENOENT && !rtm_exists("/", "/sys/devices/system/cpu/cpu0/cpuidle"))
		return rtm_cli_fail("%s: --deepest-idle-state %d: this box has no cpuidle states "
				    "(/sys/devices/system/cpu/cpu0/cpuidle); leave it out",
				    m->command, m->deepest_idle);
	if (ret < 0 || lat < 0 || lat > INT32_MAX)
		return rtm_cli_fail("%s: --deepest-idle-state %d: cannot read %s: %s (see the "
				    "states in /sys/devices/system/cpu/cpu%d/cpuidle)", m->command,
				    m->deepest_idle, buf, strerror(ret < 0 ? -ret : EINVAL), cpu);
	m->probe.dma_latency_us = (int32_t)lat;
	return 0;
}

/*
 * The measured CPUs: -a, or every online CPU a probe may be pinned to. That
 * is the process's cpuset, not its affinity mask, so CPUs isolated with
 * isolcpus= (left out of every process's inherited mask) are measured, and
 * taskset only places rtmeasure's own threads that do not measure.
 */
static int check_cpus(struct measure_opts *m)
{
	struct rtm_cpulist online = { 0, NULL }, usable = { 0, NULL };
	struct rtm_error err = { "" };
	char list[256];
	int i, cpu, ret = 0;

	ret = online_cpus(&online);
	if (ret < 0)
		return rtm_cli_fail("%s: cannot read the online CPUs: %s", m->command,
				    strerror(-ret));
	if (rtm_cpus_pinnable(&online, &usable, &err) < 0) {
		rtm_cpulist_release(&online);
		return rtm_cli_fail("%s: %s", m->command, err.msg);
	}
	ret = check_housekeeping(m, &online, &usable);
	if (!m->cpus_given && !ret) {
		m->probe.cpus = usable;	/* default: every CPU a probe may run on */
		usable.cpus = NULL;
	}
	for (i = 0; m->cpus_given && i < m->probe.cpus.n && !ret; i++) {
		cpu = m->probe.cpus.cpus[i];
		if (!rtm_cpulist_has(&online, cpu)) {
			rtm_cpulist_format(&online, list, sizeof(list));
			ret = rtm_cli_fail("%s: CPU %d is not online (online CPUs: %s); pick "
					   "others with -a", m->command, cpu, list);
		} else if (!rtm_cpulist_has(&usable, cpu)) {
			rtm_cpulist_format(&usable, list, sizeof(list));
			ret = rtm_cli_fail("%s: CPU %d is outside this process's cpuset (cgroup), "
					   "which allows CPUs %s; pick others with -a or run "
					   "rtmeasure in a cpuset that has it", m->command, cpu,
					   list);
		}
	}
	if (!m->probe.cpus.n && !ret)
		ret = rtm_cli_fail("%s: no CPU to measure: this process may not run on any "
				   "online CPU", m->command);
	if (!ret)
		ret = check_threads(m);
	rtm_cpulist_release(&online);
	rtm_cpulist_release(&usable);
	return ret;
}

static int check_privileges(struct measure_opts *m)
{
	struct rtm_error err = { "" };

	if (m->no_rt) {
		m->probe.sched.policy = RTM_POLICY_OTHER;
		m->probe.sched.priority = 0;
		if (geteuid() != 0)
			m->probe.dma_latency_us = -1;	/* root-only device */
		if (geteuid() != 0 && m->probe.lock_memory) {
			struct rtm_sched other = { .policy = RTM_POLICY_OTHER };

			if (rtm_rt_privileges(&other, true, NULL))
				m->probe.lock_memory = false;
		}
		return 0;
	}
	if (m->probe.sched.policy == RTM_POLICY_OTHER)
		m->probe.sched.priority = 0;
	if (rtm_sched_validate(&m->probe.sched, &err))
		return rtm_cli_fail("%s: %s", m->command, err.msg);
	if (rtm_rt_privileges(&m->probe.sched, m->probe.lock_memory, &err))
		return rtm_cli_fail("%s", err.msg);
	if (m->probe.dma_latency_us >= 0 && access("/dev/cpu_dma_latency", W_OK) != 0 &&
	    errno != ENOENT)
		return rtm_cli_fail("cannot write /dev/cpu_dma_latency: %s (run as root, or "
				    "--no-dma-latency)", strerror(errno));
	if (m->probe.dma_latency_us >= 0 && access("/dev/cpu_dma_latency", F_OK) != 0)
		m->probe.dma_latency_us = -1;	/* no PM QoS device: nothing to hold */
	return 0;
}

int measure_prepare(struct measure_opts *m)
{
	int ret;

	if ((ret = measure_trace_check(m)) || (ret = check_cpus(m)) ||
	    (ret = check_idle_state(m)) || (ret = check_privileges(m)))
		return ret;
	return 0;
}

int measure_housekeeping_apply(const struct measure_opts *m)
{
	cpu_set_t set;
	int i;

	if (!m->housekeeping.n)
		return 0;
	CPU_ZERO(&set);
	for (i = 0; i < m->housekeeping.n; i++)
		if (m->housekeeping.cpus[i] < CPU_SETSIZE)
			CPU_SET(m->housekeeping.cpus[i], &set);
	/* this thread's mask; the threads started later inherit it, probes pin themselves */
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? -errno : 0;
}

/* ------------------------------------------------------------ other runs */

struct rtm_cpulock *measure_cpus_lock(const struct measure_opts *m, char *note, size_t len,
				      int *status)
{
	struct rtm_error err = { "" };
	struct rtm_cpulist shared;
	struct rtm_cpulock *l;
	char list[256];
	long pid = 0;

	note[0] = '\0';
	*status = 0;
	l = rtm_cpulock_take(&m->probe.cpus, m->exclusive, &err);
	if (!l && (errno == EBUSY || m->exclusive)) {
		*status = rtm_cli_fail("%s: %s", m->command, err.msg);
		return NULL;
	}
	if (!l) {
		snprintf(note, len, "cannot tell whether another rtmeasure measures these CPUs: %s",
			 err.msg);
		return NULL;
	}
	if (rtm_cpulock_shared(l, &shared, &pid)) {
		char who[48] = "";

		if (pid > 0)
			snprintf(who, sizeof(who), " (pid %ld)", pid);
		rtm_cpulist_format(&shared, list, sizeof(list));
		snprintf(note, len, "CPU%s %s %s measured by another rtmeasure%s too: each run's "
			 "probes disturb the other's numbers (--exclusive refuses instead)",
			 shared.n > 1 ? "s" : "", list, shared.n > 1 ? "are" : "is", who);
	}
	rtm_cpulist_release(&shared);
	return l;
}

bool measure_cpus_poll(struct rtm_cpulock *l, const struct measure_opts *m, double elapsed_s,
		       char *note, size_t len)
{
	struct rtm_cpulist shared;
	char list[256];

	(void)m;
	if (!l || !rtm_cpulock_poll(l))
		return false;
	rtm_cpulock_shared(l, &shared, NULL);
	rtm_cpulist_format(&shared, list, sizeof(list));
	snprintf(note, len, "another rtmeasure started measuring CPU%s %s at %.1f s: each run's "
		 "probes disturb the other's numbers", shared.n > 1 ? "s" : "", list, elapsed_s);
	rtm_cpulist_release(&shared);
	return true;
}

void measure_cpus_record(struct rtm_cpulock *l, struct rtm_result *r)
{
	struct rtm_cpulist shared;
	char list[256];
	long pid = 0;

	if (!l)
		return;
	rtm_cpulock_poll(l);
	if (rtm_cpulock_shared(l, &shared, &pid)) {
		rtm_cpulist_format(&shared, list, sizeof(list));
		json_object_set_new(r->sections, "shared_cpus", json_pack("{s:s, s:o}", "cpus", list,
			"other_pid", pid > 0 ? json_integer(pid) : json_null()));
	}
	rtm_cpulist_release(&shared);
}

/* ------------------------------------------------------------ live lines */

struct live {
	bool on;
	int nlines;
	const char *cap_up;	/* terminfo cuu1 */
	const char *cap_el;	/* terminfo el */
};

static int put_char(int c)
{
	return putchar(c);
}

static void live_init(struct live *l, const struct measure_opts *m)
{
	int err;

	memset(l, 0, sizeof(*l));
	if (m->quiet || m->json || !isatty(STDOUT_FILENO))
		return;
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK)
		return;
	l->cap_up = tigetstr("cuu1");
	l->cap_el = tigetstr("el");
	if (!l->cap_up || l->cap_up == (char *)-1 || !l->cap_el || l->cap_el == (char *)-1)
		return;
	l->on = true;
}

static void live_show(struct live *l, struct rtm_cyclic *c, double elapsed, uint64_t dur_ns)
{
	struct rtm_cyclic_stats st[64];
	int n, i;

	if (!l->on)
		return;
	n = rtm_cyclic_stats(c, st, 64);
	if (n > 64)
		n = 64;
	for (i = 0; i < l->nlines; i++)
		tputs(l->cap_up, 1, put_char);
	if (dur_ns)
		printf("\r%.0f / %.0f s", elapsed, (double)dur_ns / 1e9);
	else
		printf("\r%.0f s", elapsed);
	tputs(l->cap_el, 1, put_char);
	putchar('\n');
	for (i = 0; i < n; i++) {
		char cur[16], mn[16], avg[16], p99[16], mx[16];

		rtm_fmt_ns(cur, sizeof(cur), st[i].cur_ns);
		rtm_fmt_ns(mn, sizeof(mn), st[i].samples ? st[i].min_ns : 0);
		rtm_fmt_ns(avg, sizeof(avg), (uint64_t)st[i].avg_ns);
		rtm_fmt_ns(p99, sizeof(p99), st[i].p99_ns);
		rtm_fmt_ns(mx, sizeof(mx), st[i].max_ns);
		printf("CPU%-3d cur %9s  min %9s  avg %9s  p99 %9s  max %9s  samples %9llu  "
		       "overruns %llu", st[i].cpu, cur, mn, avg, p99, mx,
		       (unsigned long long)st[i].samples, (unsigned long long)st[i].overruns);
		tputs(l->cap_el, 1, put_char);
		putchar('\n');
	}
	l->nlines = n + 1;
	fflush(stdout);
}

/*
 * Progress when stdout is not a terminal (CI, nohup): one line on stderr per
 * period (a minute) with the elapsed time and the worst wake-up so far. The
 * drive loop writes it from snapshots; the probes never wait for it.
 */
struct progress {
	bool on;
	double period_s;
	double next_s;
};

static void progress_init(struct progress *p, const struct measure_opts *m)
{
	const char *env = getenv("RTMEASURE_PROGRESS_PERIOD_S");	/* tests only */

	memset(p, 0, sizeof(*p));
	p->period_s = env && atof(env) > 0 ? atof(env) : 60;
	p->next_s = p->period_s;
	p->on = !m->quiet && !m->json && !isatty(STDOUT_FILENO);
}

static void progress_show(struct progress *p, const struct measure_opts *m,
			  struct rtm_cyclic *c, double elapsed)
{
	struct rtm_cyclic_stats st[64];
	char worst[16], when[48];
	uint64_t max_ns = 0;
	int n, i, cpu = -1;

	if (!p->on || elapsed < p->next_s)
		return;
	while (p->next_s <= elapsed)
		p->next_s += p->period_s;
	rtm_cyclic_refresh(c);
	n = rtm_cyclic_stats(c, st, 64);
	for (i = 0; i < n && i < 64; i++) {
		if (cpu < 0 || st[i].max_ns > max_ns) {
			max_ns = st[i].max_ns;
			cpu = st[i].cpu;
		}
	}
	rtm_fmt_ns(worst, sizeof(worst), max_ns);
	if (m->probe.duration_ns)
		snprintf(when, sizeof(when), "%.0f / %.0f s", elapsed,
			 (double)m->probe.duration_ns / 1e9);
	else
		snprintf(when, sizeof(when), "%.0f s", elapsed);
	fprintf(stderr, "rtmeasure %s: %s, worst %s (CPU %d)\n", m->command, when, worst, cpu);
}

/* ------------------------------------------------------------ results folder */

static void default_outdir(char *buf, size_t len, const struct rtm_sysinfo *si)
{
	char stamp[32];
	struct tm tm;
	time_t now = time(NULL);

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "rtmeasure-%s-%s-%s", si && si->hostname[0] ? si->hostname : "host",
		 si ? si->release : "unknown", stamp);
}

int measure_save_results(const struct measure_opts *m, const struct rtm_result *r,
			 const char *dir)
{
	struct rtm_error err = { "" };
	char path[PATH_MAX];
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (rtm_result_save(r, dir, &err))
		return rtm_cli_fail("%s", err.msg);
	f = open_memstream(&text, &len);
	if (!f)
		return rtm_cli_fail("out of memory writing histogram.txt");
	ret = m->histofall ? rtm_histfile_write_all(r, f, m->hist_rows) :
			     rtm_histfile_write(r, f, m->hist_rows);
	fclose(f);
	snprintf(path, sizeof(path), "%s/histogram.txt", dir);
	if (!ret)
		ret = rtm_write_atomic(path, text, len);
	free(text);
	if (ret)
		return rtm_cli_fail("cannot write %s: %s", path, rtm_write_strerror(ret));
	return 0;
}

json_t *measure_options_json(const struct measure_opts *m)
{
	char cpus[1024];
	json_t *o;

	rtm_cpulist_format(&m->probe.cpus, cpus, sizeof(cpus));
	o = json_pack("{s:s, s:I, s:I, s:o, s:s, s:I, s:I, s:I, s:b, s:i, s:b, s:I, s:I}",
		"cpus", cpus,
		"interval_ns", (json_int_t)m->probe.interval_ns,
		"distance_ns", (json_int_t)m->probe.distance_ns,
		"sched", rtm_sched_to_json(&m->probe.sched),
		"mode", rtm_timer_mode_name(m->probe.mode),
		"duration_ns", (json_int_t)m->probe.duration_ns,
		"loops", (json_int_t)m->probe.loops,
		"break_ns", (json_int_t)m->probe.break_ns,
		"mlockall", m->probe.lock_memory,
		"dma_latency_us", m->probe.dma_latency_us,
		"rt", !m->no_rt,
		"series_interval_ns", (json_int_t)m->ts_interval_ns,
		"log_above_ns", (json_int_t)m->probe.log_above_ns);
	if (o && m->housekeeping.n) {
		rtm_cpulist_format(&m->housekeeping, cpus, sizeof(cpus));
		json_object_set_new(o, "housekeeping", json_string(cpus));
	}
	if (o && m->deepest_idle >= -1)
		json_object_set_new(o, "deepest_idle_state", json_integer(m->deepest_idle));
	return o;
}


/* ------------------------------------------------------------ the run */

/* The summary as --json prints it and --json=FILE writes it. */
static json_t *summary_json(const struct rtm_result *r, const char *dir)
{
	json_t *j = rtm_summary_to_json(r);

	json_object_set_new(j, "result_dir", json_string(dir));
	json_object_set_new(j, "interrupted", json_boolean(r->interrupted));
	json_object_set_new(j, "duration_ns", json_integer((json_int_t)r->duration_ns));
	json_object_set(j, "events", r->events);
	return j;
}

/* A file named on the command line: can it be written (no symlink unless --follow)? */
static int check_out_file(const struct measure_opts *m, const char *path, const char *opt)
{
	int ret = rtm_target_check(path, m->follow ? RTM_OUT_FOLLOW : 0);

	if (ret < 0)
		return rtm_cli_fail("%s: %s %s: cannot write it: %s", m->command, opt, path,
				    rtm_write_strerror(ret));
	return 0;
}

/*
 * The results folder, before anything is measured: created if missing; a
 * symlink only with --follow; not a file; an earlier result in it only with
 * --force, which clears the files rtmeasure wrote there.
 */
int measure_check_outdir(const struct measure_opts *m, const char *dir)
{
	char what[32];
	int fd, ret;

	fd = rtm_dir_open(dir, RTM_OUT_CREATE | (m->follow ? RTM_OUT_FOLLOW : 0));
	if (fd == -ELOOP)
		return rtm_cli_fail("%s: -o %s is a symbolic link (give --follow to write the "
				    "results where it points)", m->command, dir);
	if (fd == -ENOTDIR)
		return rtm_cli_fail("%s: -o %s exists and is not a folder (give a folder name)",
				    m->command, dir);
	if (fd < 0)
		return rtm_cli_fail("%s: cannot create results folder %s: %s", m->command, dir,
				    rtm_write_strerror(fd));
	ret = 0;
	if (faccessat(fd, ".", W_OK, AT_EACCESS) < 0)
		ret = rtm_cli_fail("%s: cannot write in results folder %s: %s", m->command, dir,
				   rtm_write_strerror(-errno));
	else if (rtm_resultdir_find(fd, what, sizeof(what)) && !m->force)
		ret = rtm_cli_fail("%s: -o %s already holds a result (%s): give another folder, "
				   "or --force to replace it", m->command, dir, what);
	else if (m->force && (ret = rtm_resultdir_clear(fd)))
		ret = rtm_cli_fail("%s: --force: cannot clear the earlier result in %s: %s",
				   m->command, dir, rtm_write_strerror(ret));
	close(fd);
	return ret;
}

/* --histfile and --json=FILE, besides the results folder; 2 after the message. */
static int save_extra_files(const struct measure_opts *m, const struct rtm_result *r,
			    const char *dir)
{
	char *text = NULL;
	size_t len = 0;
	int ret = 0, bad = 0;
	FILE *f;

	if (m->histfile) {
		f = open_memstream(&text, &len);
		ret = f ? 0 : -ENOMEM;
		if (f) {
			ret = m->histofall ? rtm_histfile_write_all(r, f, m->hist_rows) :
					     rtm_histfile_write(r, f, m->hist_rows);
			fclose(f);
		}
		if (!ret)
			ret = rtm_write_target(m->histfile, text, len,
					       m->follow ? RTM_OUT_FOLLOW : 0);
		free(text);
		if (ret)
			bad = rtm_cli_fail("cannot write --histfile %s: %s", m->histfile,
					   rtm_write_strerror(ret));
	}
	if (m->json_file) {
		json_t *j = summary_json(r, dir);

		text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(j);
		ret = text ? rtm_write_target(m->json_file, text, strlen(text),
					      m->follow ? RTM_OUT_FOLLOW : 0) : -ENOMEM;
		free(text);
		if (ret)
			bad = rtm_cli_fail("cannot write --json %s: %s", m->json_file,
					   rtm_write_strerror(ret));
	}
	return bad;
}

static void print_notes(const struct rtm_sysinfo *si, const struct measure_opts *m, FILE *f)
{
	int i;

	if (m->no_rt)
		fprintf(f, "note: measured at SCHED_OTHER (--no-rt): not real-time latency\n");
	if (!si)
		return;
	for (i = 0; i < si->nchecks; i++)
		if (si->checks[i].level == RTM_CHECK_WARN)
			fprintf(f, "note: %s\n", si->checks[i].text);
}

/* The CPUs another rtmeasure measured during this run (sections.shared_cpus). */
static void print_shared(const struct rtm_result *r, FILE *f)
{
	const char *cpus = json_string_value(json_object_get(json_object_get(r->sections,
								"shared_cpus"), "cpus"));

	if (cpus)
		fprintf(f, "note: another rtmeasure measured CPU%s %s during this run: these numbers "
			"include its disturbance\n", strpbrk(cpus, ",-") ? "s" : "", cpus);
}

static void wait_tick(struct rtm_cyclic *c, uint64_t max_sleep_ns)
{
	struct timespec now, until;
	uint64_t next = rtm_cyclic_next_tick_ns(c), now_ns, deadline;

	clock_gettime(CLOCK_MONOTONIC, &now);
	now_ns = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
	/* wake at the interval boundary, and often enough to notice the end */
	deadline = now_ns + max_sleep_ns;
	if (next > now_ns && next < deadline)
		deadline = next;
	/* never wake together with the probes: half a period after their wake-up */
	deadline = rtm_cyclic_quiet_ns(c, deadline);
	until.tv_sec = (time_t)(deadline / 1000000000ULL);
	until.tv_nsec = (long)(deadline % 1000000000ULL);
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);	/* EINTR: a signal */
}

int measure_main(struct measure_opts *m)
{
	struct rtm_error err = { "" };
	struct rtm_sysinfo *si;
	struct rtm_load *load = NULL;
	struct rtm_trace *trace = NULL;
	struct measure_irq *irq = NULL;
	struct measure_prom *prom = NULL;
	struct rtm_cyclic *c;
	struct rtm_result *r;
	char dir[PATH_MAX];
	struct live live;
	struct progress progress;
	struct rtm_cpulock *locks;
	char note[512];
	int status = RTM_EXIT_OK, i, ret;
	bool reported = false;
	double last_shown = -1;

	if ((ret = measure_prepare(m)))
		return ret;
	if ((m->histfile && (ret = check_out_file(m, m->histfile, "--histfile"))) ||
	    (m->json_file && (ret = check_out_file(m, m->json_file, "--json"))))
		return ret;
	if (m->outdir && snprintf(dir, sizeof(dir), "%s", m->outdir) >= (int)sizeof(dir))
		return rtm_cli_fail("%s: -o: folder name too long", m->command);
	locks = measure_cpus_lock(m, note, sizeof(note), &ret);
	if (ret)
		return ret;
	if (note[0])
		fprintf(stderr, "rtmeasure: warning: %s\n", note);

	si = rtm_sysinfo_collect("/", &err);
	m->preempt_model = si ? rtm_preempt_name(si->preempt) : NULL;
	if (!m->outdir)
		default_outdir(dir, sizeof(dir), si);
	/* fail on an unusable folder now, not after the measurement */
	ret = measure_check_outdir(m, dir);
	if (ret) {
		rtm_sysinfo_free(si);
		rtm_cpulock_release(locks);
		return ret;
	}
	r = rtm_result_alloc(m->command);
	if (!r) {
		rtm_sysinfo_free(si);
		rtm_cpulock_release(locks);
		return rtm_cli_fail("out of memory");
	}
	if (si)
		r->sysinfo = rtm_sysinfo_to_json(si);
	json_decref(r->options);
	r->options = measure_options_json(m);
	{
		int64_t rt_run = 0, rt_per = 0;

		if (rtm_rt_throttling("/", &rt_run, &rt_per) == 0)
			json_object_set_new(r->sections, "rt_throttling", json_pack("{s:I, s:I}",
				"sched_rt_runtime_us", (json_int_t)rt_run,
				"sched_rt_period_us", (json_int_t)rt_per));
	}


	if (measure_prom_start(m, r->sysinfo, &prom, &err))
		goto fail;
	if (m->load_kinds) {
		load = rtm_load_start(m->load_kinds, m->probe.cpus.n, &err);
		if (!load)
			goto fail;
		json_object_set_new(r->sections, "load", rtm_load_to_json(load));
	}

	ret = measure_housekeeping_apply(m);	/* the load keeps its own placement */
	if (ret) {
		snprintf(err.msg, sizeof(err.msg), "%s: --housekeeping: cannot move rtmeasure's "
			 "threads there: %s", m->command, strerror(-ret));
		goto fail;
	}

	if (m->trace) {
		trace = measure_trace_start(m, r, &err);
		if (!trace)
			goto fail;
	}
	irq = measure_irq_start(m, &err);
	if (!irq)
		goto fail;
	c = rtm_cyclic_start(&m->probe, m->ts_interval_ns, &err);
	if (!c)
		goto fail;
	if (!m->quiet && !m->json) {
		char cpus[256], iv[16], loaddesc[300] = "";

		rtm_cpulist_format(&m->probe.cpus, cpus, sizeof(cpus));
		rtm_fmt_ns(iv, sizeof(iv), m->probe.interval_ns);
		if (load) {
			json_t *lj = rtm_load_to_json(load), *cmds = json_object_get(lj, "commands");
			size_t k;

			for (k = 0; k < json_array_size(cmds); k++)
				snprintf(loaddesc + strlen(loaddesc), sizeof(loaddesc) - strlen(loaddesc),
					 "%s%s", k ? "; " : ", load: ",
					 json_string_value(json_array_get(cmds, k)) ?: "");
			json_decref(lj);
		}
		fprintf(stderr, "rtmeasure %s: CPUs %s, interval %s, %s %d, %s%s -> %s/\n",
			m->command, cpus, iv, rtm_policy_name(m->probe.sched.policy),
			m->probe.sched.priority, rtm_timer_mode_name(m->probe.mode), loaddesc, dir);
	}
	live_init(&live, m);
	progress_init(&progress, m);

	while (!rtm_cyclic_done(c) && !rtm_cli_stopping()) {
		double el;

		/* a pending capture is noticed within 100 ms */
		wait_tick(c, m->probe.capture_ns ? 100000000ULL : 250000000ULL);
		rtm_cyclic_tick(c);
		measure_prom_publish(prom, c, irq, r);
		if (trace)
			measure_trace_poll(m, trace, c, r, dir, true);
		measure_irq_poll(irq);
		el = rtm_cyclic_elapsed_s(c);
		if (live.on && (int)el != (int)last_shown) {
			rtm_cyclic_refresh(c);
			live_show(&live, c, el, m->probe.duration_ns);
			last_shown = el;
		}
		progress_show(&progress, m, c, el);
		if (measure_cpus_poll(locks, m, el, note, sizeof(note)))
			fprintf(stderr, "rtmeasure: warning: %s\n", note);
	}
	if (rtm_cli_stopping()) {
		r->interrupted = true;
		rtm_cyclic_stop(c);
	}
	ret = rtm_cyclic_finish(c, r, &err);
	measure_prom_stop(prom);
	measure_cpus_record(locks, r);
	if (!ret)
		measure_irq_finish(irq, m, r);
	if (trace && !ret)
		measure_trace_poll(m, trace, c, r, dir, false);	/* claimed at the end */
	rtm_cyclic_free(c);
	rtm_cpulock_release(locks);	/* the probes are gone */
	locks = NULL;
	if (trace) {
		rtm_trace_stop(trace);
		if (!ret)
			measure_trace_break(m, trace, r, dir);
		rtm_trace_destroy(trace);
	}
	if (load) {
		rtm_load_stop(load);
		json_object_set_new(r->sections, "load", rtm_load_to_json(load));
		rtm_load_free(load);
	}
	/* run --throughput: the cost phase, with the probes and the load gone */
	if (m->throughput && !ret && !r->interrupted && !rtm_cli_stopping() &&
	    measure_throughput(m, r))
		status = RTM_EXIT_USAGE;
	if (ret) {
		measure_irq_free(irq);
		rtm_result_free(r);
		rtm_sysinfo_free(si);
		return rtm_cli_fail("%s", err.msg);
	}

	ret = measure_save_results(m, r, dir);
	if (ret) {
		/* the numbers of the run are not lost with its folder: the table still goes out */
		if (!m->json) {
			printf("\n");
			rtm_summary_fprint_unit(r, stdout, m->nsecs);
		}
		measure_irq_free(irq);
		rtm_result_free(r);
		rtm_sysinfo_free(si);
		return ret;
	}

	if (m->report) {
		struct rtm_report_opts ro = { .results_dir = dir, .out_dir = dir,
					      .formats = 1u << RTM_PLOT_PNG, .width = 1000,
					      .height = 560 };

		/* the measurement is saved whatever happens to its report */
		reported = rtm_report_write(r, &ro, &err) == 0;
		if (!reported)
			fprintf(stderr, "rtmeasure: no report: %s; the results are saved (rtmeasure "
				"report %s, once fixed)\n", err.msg, dir);
	}
	if (r->interrupted)
		fprintf(stderr, "rtmeasure: interrupted after %.1f s; results saved in %s/\n",
			(double)r->duration_ns / 1e9, dir);
	for (i = 0; i < (int)json_array_size(r->events); i++) {
		json_t *e = json_array_get(r->events, i);
		char lat[16], thr[16];

		if (strcmp(json_string_value(json_object_get(e, "type")) ?: "", "break"))
			continue;
		rtm_fmt_ns(lat, sizeof(lat), (uint64_t)json_integer_value(
				json_object_get(e, "latency_ns")));
		rtm_fmt_ns(thr, sizeof(thr), m->probe.break_ns);
		fprintf(stderr, "rtmeasure: break: CPU %lld woke %s late (> %s) at %.3f s, "
			"sample %lld\n", json_integer_value(json_object_get(e, "cpu")), lat, thr,
			(double)json_integer_value(json_object_get(e, "planned_ns")) / 1e9,
			json_integer_value(json_object_get(e, "sample")));
	}

	measure_trace_print(r, dir, stderr);

	if (save_extra_files(m, r, dir))
		status = RTM_EXIT_USAGE;
	if (m->json) {
		json_t *j = summary_json(r, dir);

		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(j);
	} else {
		printf("\n");
		rtm_summary_fprint_unit(r, stdout, m->nsecs);
		measure_irq_print(irq, stdout);
		rtm_cost_fprint(json_object_get(r->sections, "throughput"), stdout);
		print_notes(si, m, stdout);
		print_shared(r, stdout);
		printf("results: %s/%s\n", dir, reported ? " (report.html)" : "");
	}

	for (i = 0; i < m->nbounds; i++) {
		char what[160];

		if (rtm_bound_describe(r, &m->bounds[i], what, sizeof(what))) {
			fprintf(stderr, "rtmeasure: --fail-above %s exceeded: %s\n",
				m->bounds[i].text, what);
			if (status == RTM_EXIT_OK)
				status = RTM_EXIT_BOUND;
		}
	}
	measure_irq_free(irq);
	rtm_result_free(r);
	rtm_sysinfo_free(si);
	return status;

fail:
	/* nothing is left running: no trace instance, no load, no probe, no server */
	measure_prom_stop(prom);
	rtm_cpulock_release(locks);
	measure_irq_free(irq);
	rtm_trace_destroy(trace);
	if (load) {
		rtm_load_stop(load);
		rtm_load_free(load);
	}
	rtm_result_free(r);
	rtm_sysinfo_free(si);
	return rtm_cli_fail("%s", err.msg);
}
