// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure.c - the drive loop shared by `rtmeasure cyclic` and `rtmeasure run`.
 *
 * Wiring only: the probes, the session, the result, the summary and the
 * histogram file all live in lib/. This file parses options, holds the stop
 * flag, shows live lines and writes the results folder.
 */
#include <errno.h>
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
#include "cyclic.h"
#include "fileio.h"
#include "histfile.h"
#include "load.h"
#include "report.h"
#include "measure.h"
#include "rtmeasure.h"
#include "sysinfo.h"
#include "units.h"

void measure_opts_init(struct measure_opts *m, const char *command)
{
	memset(m, 0, sizeof(*m));
	m->command = command;
	m->probe.interval_ns = 1000 * 1000;
	m->probe.sched.policy = RTM_POLICY_FIFO;
	m->probe.sched.priority = 95;
	m->probe.mode = RTM_TIMER_NANOSLEEP;
	m->probe.lock_memory = true;
	m->probe.dma_latency_us = 0;
	m->ts_interval_ns = RTM_TS_DEFAULT_INTERVAL_NS;
	m->probe.log_max = 10000;
	m->probe.trace_off_fd = -1;
	m->trace_buffer_kb = 8192;
	m->probe.capture_max = 10;
	m->probe.capture_holdoff_ns = 1000000000ULL;
}

static int parse_u64(const char *arg, uint64_t *v)
{
	char *end;

	if (!arg || !*arg || *arg == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(arg, &end, 10);
	return (errno || *end) ? -EINVAL : 0;
}

int measure_parse_opt(struct measure_opts *m, int c, const char *arg)
{
	struct rtm_error err = { "" };
	const char *cmd = m->command;
	uint64_t v;

	switch (c) {
	case 'a':
		rtm_cpulist_release(&m->probe.cpus);
		if (rtm_cpulist_parse(arg, &m->probe.cpus, &err) || !m->probe.cpus.n)
			return rtm_cli_fail("%s: -a/--cpus: %s", cmd,
					    err.msg[0] ? err.msg : "empty CPU list");
		m->cpus_given = true;
		return 1;
	case 'i':
		if (rtm_parse_latency_ns(arg, &m->probe.interval_ns, &err))
			return rtm_cli_fail("%s: -i/--interval: %s", cmd, err.msg);
		if (m->probe.interval_ns < 10000 || m->probe.interval_ns > 10000000000ULL)
			return rtm_cli_fail("%s: interval %s out of range (10us to 10s)", cmd, arg);
		return 1;
	case 'd':
		if (rtm_parse_latency_ns(arg, &m->probe.distance_ns, &err))
			return rtm_cli_fail("%s: -d/--distance: %s", cmd, err.msg);
		return 1;
	case 'p':
		if (parse_u64(arg, &v) || v > 99)
			return rtm_cli_fail("%s: -p/--priority '%s': give 1-99 (0 with --policy "
					    "other)", cmd, arg);
		m->probe.sched.priority = (int)v;
		return 1;
	case 1001:
		if (rtm_sched_parse(arg, &m->probe.sched, &err))
			return rtm_cli_fail("%s: --policy: %s", cmd, err.msg);
		return 1;
	case 1002:
		if (rtm_timer_mode_parse(arg, &m->probe.mode, &err))
			return rtm_cli_fail("%s: --mode: %s", cmd, err.msg);
		return 1;
	case 'D':
		if (rtm_parse_duration_ns(arg, &m->probe.duration_ns, &err))
			return rtm_cli_fail("%s: -D/--duration: %s", cmd, err.msg);
		return 1;
	case 'l':
		if (parse_u64(arg, &m->probe.loops) || !m->probe.loops)
			return rtm_cli_fail("%s: -l/--loops '%s': give a positive count", cmd, arg);
		return 1;
	case 'b':
		if (rtm_parse_latency_ns(arg, &m->probe.break_ns, &err) || !m->probe.break_ns)
			return rtm_cli_fail("%s: -b/--breaktrace: %s", cmd,
					    err.msg[0] ? err.msg : "must be above 0");
		return 1;
	case 1003:
		if (m->nbounds == MEASURE_MAX_BOUNDS)
			return rtm_cli_fail("%s: at most %d --fail-above bounds", cmd,
					    MEASURE_MAX_BOUNDS);
		if (rtm_bound_parse(arg, &m->bounds[m->nbounds], &err))
			return rtm_cli_fail("%s: %s", cmd, err.msg);
		m->nbounds++;
		return 1;
	case 'h':
		if (parse_u64(arg, &v) || !v || v > 1000000)
			return rtm_cli_fail("%s: -h/--histogram '%s': give the number of "
					    "microsecond rows, 1 to 1000000", cmd, arg);
		m->hist_rows = (unsigned int)v;
		return 1;
	case 'o':
		m->outdir = arg;
		return 1;
	case 'q':
		m->quiet = true;
		return 1;
	case 1004:
		m->json = true;
		return 1;
	case 'm':
		m->probe.lock_memory = true;
		return 1;
	case 1005:
		m->probe.lock_memory = false;
		return 1;
	case 1006:
		m->probe.dma_latency_us = -1;
		return 1;
	case 1007:
		m->no_rt = true;
		return 1;
	case 1008:
		if (rtm_parse_duration_ns(arg, &m->ts_interval_ns, &err))
			return rtm_cli_fail("%s: --series-interval: %s", cmd, err.msg);
		return 1;
	case 1009:
		if (rtm_parse_latency_ns(arg, &m->probe.log_above_ns, &err) ||
		    !m->probe.log_above_ns)
			return rtm_cli_fail("%s: --log-above: %s", cmd,
					    err.msg[0] ? err.msg : "must be above 0");
		return 1;
	case 1010:
		if (parse_u64(arg, &v) || !v || v > 10000000)
			return rtm_cli_fail("%s: --log-max '%s': give 1 to 10000000", cmd, arg);
		m->probe.log_max = (uint32_t)v;
		return 1;
	case 1011:
		m->trace = true;
		return 1;
	case 1012:
		m->trace = true;
		m->trace_events = arg;
		return 1;
	case 1013:
		if (parse_u64(arg, &v) || v < 64 || v > 4194304)
			return rtm_cli_fail("%s: --trace-buffer '%s': give KB per CPU, 64 to 4194304",
					    cmd, arg);
		m->trace_buffer_kb = (size_t)v;
		return 1;
	case 1014:
		if (rtm_parse_latency_ns(arg, &m->probe.capture_ns, &err) || !m->probe.capture_ns)
			return rtm_cli_fail("%s: --capture-above: %s", cmd,
					    err.msg[0] ? err.msg : "must be above 0");
		m->trace = true;
		return 1;
	case 1015:
		if (parse_u64(arg, &v) || !v || v > 999)
			return rtm_cli_fail("%s: --max-captures '%s': give 1 to 999", cmd, arg);
		m->probe.capture_max = (uint32_t)v;
		return 1;
	case 1016:
		if (rtm_parse_duration_ns(arg, &m->probe.capture_holdoff_ns, &err))
			return rtm_cli_fail("%s: --capture-holdoff: %s", cmd, err.msg);
		return 1;
	case 1017:
		if (m->ntrace_filters == RTM_TRACE_MAX_FILTERS)
			return rtm_cli_fail("%s: at most %d --trace-filter options", cmd,
					    RTM_TRACE_MAX_FILTERS);
		if (!strchr(arg, ':') || !strchr(strchr(arg, ':') + 1, ':'))
			return rtm_cli_fail("%s: --trace-filter '%s': write system:event:expression, "
					    "e.g. irq:irq_handler_entry:irq==24", cmd, arg);
		m->trace_filters[m->ntrace_filters++] = arg;
		m->trace = true;
		return 1;
	}
	return 0;
}

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
	if (!m->cpus_given) {
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

	if ((ret = measure_trace_check(m)) || (ret = check_cpus(m)) || (ret = check_privileges(m)))
		return ret;
	return 0;
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
	ret = rtm_histfile_write(r, f, m->hist_rows);
	fclose(f);
	snprintf(path, sizeof(path), "%s/histogram.txt", dir);
	if (!ret)
		ret = rtm_write_atomic(path, text, len);
	free(text);
	if (ret)
		return rtm_cli_fail("cannot write %s: %s", path, strerror(-ret));
	return 0;
}

json_t *measure_options_json(const struct measure_opts *m)
{
	char cpus[1024];

	rtm_cpulist_format(&m->probe.cpus, cpus, sizeof(cpus));
	return json_pack("{s:s, s:I, s:I, s:o, s:s, s:I, s:I, s:I, s:b, s:i, s:b, s:I, s:I}",
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
}

/* ------------------------------------------------------------ the run */

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
	struct rtm_cyclic *c;
	struct rtm_result *r;
	char dir[PATH_MAX];
	struct live live;
	int status = RTM_EXIT_OK, i, ret;
	bool reported = false;
	double last_shown = -1;

	if ((ret = measure_prepare(m)))
		return ret;
	if (m->outdir && snprintf(dir, sizeof(dir), "%s", m->outdir) >= (int)sizeof(dir))
		return rtm_cli_fail("%s: -o: folder name too long", m->command);

	si = rtm_sysinfo_collect("/", &err);
	m->preempt_model = si ? rtm_preempt_name(si->preempt) : NULL;
	if (!m->outdir)
		default_outdir(dir, sizeof(dir), si);
	/* fail on an unwritable folder now, not after the measurement */
	ret = rtm_mkdir_p(dir);
	if (ret) {
		rtm_sysinfo_free(si);
		return rtm_cli_fail("cannot create results folder %s: %s", dir, strerror(-ret));
	}
	r = rtm_result_alloc(m->command);
	if (!r) {
		rtm_sysinfo_free(si);
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

	rtm_cli_catch_stop();

	if (m->load_kinds) {
		load = rtm_load_start(m->load_kinds, m->probe.cpus.n, &err);
		if (!load)
			goto fail;
		json_object_set_new(r->sections, "load", rtm_load_to_json(load));
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

	while (!rtm_cyclic_done(c) && !rtm_cli_stopping()) {
		double el;

		/* a pending capture is noticed within 100 ms */
		wait_tick(c, m->probe.capture_ns ? 100000000ULL : 250000000ULL);
		rtm_cyclic_tick(c);
		if (trace)
			measure_trace_poll(m, trace, c, r, dir, true);
		measure_irq_poll(irq);
		el = rtm_cyclic_elapsed_s(c);
		if (live.on && (int)el != (int)last_shown) {
			rtm_cyclic_refresh(c);
			live_show(&live, c, el, m->probe.duration_ns);
			last_shown = el;
		}
	}
	if (rtm_cli_stopping()) {
		r->interrupted = true;
		rtm_cyclic_stop(c);
	}
	ret = rtm_cyclic_finish(c, r, &err);
	if (!ret)
		measure_irq_finish(irq, m, r);
	if (trace && !ret)
		measure_trace_poll(m, trace, c, r, dir, false);	/* claimed at the end */
	rtm_cyclic_free(c);
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
	if (ret) {
		measure_irq_free(irq);
		rtm_result_free(r);
		rtm_sysinfo_free(si);
		return rtm_cli_fail("%s", err.msg);
	}

	ret = measure_save_results(m, r, dir);
	if (ret) {
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

	if (m->json) {
		json_t *j = rtm_summary_to_json(r);

		json_object_set_new(j, "result_dir", json_string(dir));
		json_object_set_new(j, "interrupted", json_boolean(r->interrupted));
		json_object_set_new(j, "duration_ns", json_integer((json_int_t)r->duration_ns));
		json_object_set(j, "events", r->events);
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(j);
	} else {
		printf("\n");
		rtm_summary_fprint(r, stdout);
		measure_irq_print(irq, stdout);
		print_notes(si, m, stdout);
		printf("results: %s/%s\n", dir, reported ? " (report.html)" : "");
	}

	for (i = 0; i < m->nbounds; i++) {
		uint64_t v;

		if (rtm_bound_exceeded(r, &m->bounds[i], &v)) {
			char vs[16], ls[16];

			rtm_fmt_ns(vs, sizeof(vs), v);
			rtm_fmt_ns(ls, sizeof(ls), m->bounds[i].limit_ns);
			fprintf(stderr, "rtmeasure: --fail-above %s exceeded: %s > %s\n",
				m->bounds[i].text, vs, ls);
			status = RTM_EXIT_BOUND;
		}
	}
	measure_irq_free(irq);
	rtm_result_free(r);
	rtm_sysinfo_free(si);
	return status;

fail:
	/* nothing is left running: no trace instance, no load, no probe */
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
