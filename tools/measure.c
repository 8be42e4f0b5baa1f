// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure.c - the drive loop shared by `rtmeasure cyclic`, `run` and `noise`.
 *
 * Wiring only: the probes, the session, the result, the summary and the
 * histogram file all live in lib/; the checks before a run are in
 * measure_checks.c, the options in measure_opts.c. This file drives the probe
 * through the runner in phases (set-up, loop, outcome), shows live lines and
 * writes the results folder.
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

#include "trace/capture.h"
#include "box/cost.h"
#include "probe/cyclic.h"
#include "core/fileio.h"
#include "result/histfile.h"
#include "box/load.h"
#include "probe/probe.h"
#include "probe/ktracer.h"
#include "probe/probe_noise.h"
#include "present/report.h"
#include "result/resultdir.h"
#include "core/runlock.h"
#include "measure.h"
#include "rtmeasure.h"
#include "box/sysinfo.h"
#include "core/units.h"

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

static void live_init(struct live *l, const struct rtm_session_opts *m)
{
	int err;

	memset(l, 0, sizeof(*l));
	if (m->out.quiet || m->out.json || !isatty(STDOUT_FILENO))
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

/* The noise probe's lines (measure_noise.c): figures, and the causes so far with --trace. */
static void live_show_noise(struct live *l, struct rtm_stream *hold, struct rtm_probe_run *run,
			    double elapsed, uint64_t dur_ns)
{
	char text[64][MEASURE_NOISE_LINE];
	int n = measure_noise_lines(hold, run, text, 64), i;

	for (i = 0; i < l->nlines; i++)
		tputs(l->cap_up, 1, put_char);
	if (dur_ns)
		printf("\r%.0f / %.0f s", elapsed, (double)dur_ns / 1e9);
	else
		printf("\r%.0f s", elapsed);
	for (i = -1; i < n; i++) {
		if (i >= 0)
			fputs(text[i], stdout);
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

static void progress_init(struct progress *p, const struct rtm_session_opts *m)
{
	const char *env = getenv("RTMEASURE_PROGRESS_PERIOD_S");	/* tests only */

	memset(p, 0, sizeof(*p));
	p->period_s = env && atof(env) > 0 ? atof(env) : 60;
	p->next_s = p->period_s;
	p->on = !m->out.quiet && !m->out.json && !isatty(STDOUT_FILENO);
}

static void progress_show(struct progress *p, const struct rtm_session_opts *m,
			  struct rtm_cyclic *c, double elapsed, struct rtm_stream *hold,
			  struct rtm_probe_run *run)
{
	struct rtm_cyclic_stats st[64];
	char worst[16], when[48], text[64][MEASURE_NOISE_LINE];
	uint64_t max_ns = 0;
	int n, i, cpu = -1;

	if (!p->on || elapsed < p->next_s)
		return;
	while (p->next_s <= elapsed)
		p->next_s += p->period_s;
	if (m->probe.duration_ns)
		snprintf(when, sizeof(when), "%.0f / %.0f s", elapsed,
			 (double)m->probe.duration_ns / 1e9);
	else
		snprintf(when, sizeof(when), "%.0f s", elapsed);
	if (!c) {	/* noise: a line per CPU */
		n = measure_noise_lines(hold, run, text, 64);
		for (i = 0; i < n; i++)
			fprintf(stderr, "rtmeasure %s: %s, %s\n", m->command, when, text[i]);
		return;
	}
	rtm_cyclic_refresh(c);
	n = rtm_cyclic_stats(c, st, 64);
	for (i = 0; i < n && i < 64; i++) {
		if (cpu < 0 || st[i].max_ns > max_ns) {
			max_ns = st[i].max_ns;
			cpu = st[i].cpu;
		}
	}
	rtm_fmt_ns(worst, sizeof(worst), max_ns);
	fprintf(stderr, "rtmeasure %s: %s, worst %s (CPU %d)\n", m->command, when, worst, cpu);
}

/* ------------------------------------------------------------ results folder */

/* A wake-up latency probe (the timer probe or the timerlat tracer): r->cpus, the summary. */
static bool latency_probe(const struct rtm_session_opts *m)
{
	return !strcmp(m->ops->section, "cpus");
}

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

int measure_save_results(const struct rtm_session_opts *m, const struct rtm_result *r,
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
	if (!latency_probe(m))
		return 0;	/* histogram.txt is wake-up latency in cyclictest's layout */
	f = open_memstream(&text, &len);
	if (!f)
		return rtm_cli_fail("out of memory writing histogram.txt");
	ret = m->out.histofall ? rtm_histfile_write_all(r, f, m->out.hist_rows) :
			     rtm_histfile_write(r, f, m->out.hist_rows);
	fclose(f);
	snprintf(path, sizeof(path), "%s/histogram.txt", dir);
	if (!ret)
		ret = rtm_write_atomic(path, text, len);
	free(text);
	if (ret)
		return rtm_cli_fail("cannot write %s: %s", path, rtm_write_strerror(ret));
	return 0;
}

/* The noise probe's options as result.json records them. */
static json_t *noise_options_json(const struct rtm_session_opts *m, const char *cpus)
{
	return json_pack("{s:s, s:s, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:i, s:b, s:b}",
		"probe", m->ops->name,
		"cpus", cpus,
		"sched", rtm_sched_to_json(&m->probe.sched),
		"duration_ns", (json_int_t)m->probe.duration_ns,
		"window_ns", (json_int_t)m->noise.window_ns,
		"width_ns", (json_int_t)m->noise.width_ns,
		"threshold_ns", (json_int_t)m->noise.threshold_ns,
		"report_above_ns", (json_int_t)m->noise.report_above_ns,
		"max_gaps", (json_int_t)m->noise.max_gaps,
		"mlockall", m->probe.lock_memory,
		"dma_latency_us", m->probe.dma_latency_us,
		"rt", !m->box.no_rt,
		"trace", measure_noise_trace_wanted(m));
}

json_t *measure_options_json(const struct rtm_session_opts *m)
{
	char cpus[1024];
	json_t *o;

	rtm_cpulist_format(&m->probe.cpus, cpus, sizeof(cpus));
	if (!latency_probe(m))
		return noise_options_json(m, cpus);
	o = json_pack("{s:s, s:I, s:I, s:o, s:s, s:I, s:I, s:I, s:b, s:i, s:b, s:I, s:I}",
		"cpus", cpus,
		"interval_ns", (json_int_t)m->probe.interval_ns,
		"distance_ns", (json_int_t)m->probe.distance_ns,
		"sched", rtm_sched_to_json(&m->probe.sched),
		"mode", m->ops == &rtm_probe_timerlat_ops ? "timerlat" :
			rtm_timer_mode_name(m->probe.mode),
		"duration_ns", (json_int_t)m->probe.duration_ns,
		"loops", (json_int_t)m->probe.loops,
		"break_ns", (json_int_t)m->probe.break_ns,
		"mlockall", m->probe.lock_memory,
		"dma_latency_us", m->probe.dma_latency_us,
		"rt", !m->box.no_rt,
		"series_interval_ns", (json_int_t)m->ts_interval_ns,
		"log_above_ns", (json_int_t)m->probe.log_above_ns);
	if (o && m->box.housekeeping.n) {
		rtm_cpulist_format(&m->box.housekeeping, cpus, sizeof(cpus));
		json_object_set_new(o, "housekeeping", json_string(cpus));
	}
	if (o) {	/* the probe that measured: timer (rtmeasure's) or timerlat (the kernel's) */
		json_object_set_new(o, "backend", json_string(m->ops->name));
		if (m->timerlat.backend_reason)
			json_object_set_new(o, "backend_reason",
					    json_string(m->timerlat.backend_reason));
	}
	if (o && m->box.deepest_idle >= -1)
		json_object_set_new(o, "deepest_idle_state", json_integer(m->box.deepest_idle));
	return o;
}


/* ------------------------------------------------------------ the run */

/* The summary as --json prints it and --json=FILE writes it. */
static json_t *summary_json(const struct rtm_session_opts *m, const struct rtm_result *r,
			    const char *dir)
{
	json_t *j;

	if (latency_probe(m)) {
		j = rtm_summary_to_json(r);
		if (json_object_get(r->sections, "noise"))	/* run --noise */
			json_object_set_new(j, "noise", rtm_noise_summary_json(
						json_object_get(r->sections, "noise")));
	} else {
		j = json_object();
		json_object_set_new(j, "noise", rtm_noise_summary_json(
					json_object_get(r->sections, "noise")));
	}
	if (json_object_get(r->sections, "throughput"))	/* run --throughput */
		json_object_set(j, "throughput", json_object_get(r->sections, "throughput"));
	json_object_set_new(j, "result_dir", json_string(dir));
	json_object_set_new(j, "interrupted", json_boolean(r->interrupted));
	json_object_set_new(j, "duration_ns", json_integer((json_int_t)r->duration_ns));
	json_object_set(j, "events", r->events);
	return j;
}

/* A file named on the command line: can it be written (no symlink unless --follow)? */
static int check_out_file(const struct rtm_session_opts *m, const char *path, const char *opt)
{
	int ret = rtm_target_check(path, m->out.follow ? RTM_OUT_FOLLOW : 0);

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
int measure_check_outdir(const struct rtm_session_opts *m, const char *dir)
{
	char what[32];
	int fd, ret;

	fd = rtm_dir_open(dir, RTM_OUT_CREATE | (m->out.follow ? RTM_OUT_FOLLOW : 0));
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
	else if (rtm_resultdir_find(fd, what, sizeof(what)) && !m->out.force)
		ret = rtm_cli_fail("%s: -o %s already holds a result (%s): give another folder, "
				   "or --force to replace it", m->command, dir, what);
	else if (m->out.force && (ret = rtm_resultdir_clear(fd)))
		ret = rtm_cli_fail("%s: --force: cannot clear the earlier result in %s: %s",
				   m->command, dir, rtm_write_strerror(ret));
	close(fd);
	return ret;
}

/* --histfile and --json=FILE, besides the results folder; 2 after the message. */
static int save_extra_files(const struct rtm_session_opts *m, const struct rtm_result *r,
			    const char *dir)
{
	char *text = NULL;
	size_t len = 0;
	int ret = 0, bad = 0;
	FILE *f;

	if (m->out.histfile) {
		f = open_memstream(&text, &len);
		ret = f ? 0 : -ENOMEM;
		if (f) {
			ret = m->out.histofall ? rtm_histfile_write_all(r, f, m->out.hist_rows) :
					     rtm_histfile_write(r, f, m->out.hist_rows);
			fclose(f);
		}
		if (!ret)
			ret = rtm_write_target(m->out.histfile, text, len,
					       m->out.follow ? RTM_OUT_FOLLOW : 0);
		free(text);
		if (ret)
			bad = rtm_cli_fail("cannot write --histfile %s: %s", m->out.histfile,
					   rtm_write_strerror(ret));
	}
	if (m->out.json_file) {
		json_t *j = summary_json(m, r, dir);

		text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(j);
		ret = text ? rtm_write_target(m->out.json_file, text, strlen(text),
					      m->out.follow ? RTM_OUT_FOLLOW : 0) : -ENOMEM;
		free(text);
		if (ret)
			bad = rtm_cli_fail("cannot write --json %s: %s", m->out.json_file,
					   rtm_write_strerror(ret));
	}
	return bad;
}

static void print_notes(const struct rtm_sysinfo *si, const struct rtm_session_opts *m, FILE *f)
{
	int i;

	if (m->box.no_rt)
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

/* Everything one measurement holds, from its set-up to its outcome. */
struct measure_run {
	struct rtm_sysinfo *si;
	struct rtm_load *load;
	struct rtm_trace *trace;
	struct measure_irq *irq;
	struct rtm_stream *hold;	/* --rt-hold (measure_trace.c) */
	struct measure_prom *prom;
	struct rtm_cpulock *locks;
	struct rtm_probe_run *run;
	struct rtm_cyclic *c;		/* the timer session; NULL for another probe */
	struct rtm_result *r;
	struct rtm_error err;
	char dir[PATH_MAX];
	char note[512];
	bool reported;
	bool throughput_failed;		/* run --throughput's phase failed: exit 2, latency kept */
	bool noise_failed;		/* run --noise's phase could not run: the same */
};

/* Nothing is left running: no trace instance, no load, no probe, no server. */
static void measure_release(struct measure_run *mr)
{
	measure_prom_stop(mr->prom);
	rtm_probe_run_free(mr->run);
	rtm_cpulock_release(mr->locks);
	measure_irq_free(mr->irq);
	rtm_stream_free(mr->hold);
	rtm_trace_destroy(mr->trace);
	if (mr->load) {
		rtm_load_stop(mr->load);
		rtm_load_free(mr->load);
	}
	rtm_result_free(mr->r);
	rtm_sysinfo_free(mr->si);
	memset(mr, 0, sizeof(*mr));
}

static bool is_timer(const struct rtm_session_opts *m)
{
	return m->ops == &rtm_probe_timer_ops;
}

/* The options struct of the probe: the noise probe takes the shared ones from m->probe. */
static const void *probe_opts(struct rtm_session_opts *m)
{
	if (is_timer(m))
		return &m->probe;
	if (m->ops == &rtm_probe_timerlat_ops) {
		m->timerlat.cpus = m->probe.cpus;	/* borrowed, as the noise probe's */
		m->timerlat.interval_ns = m->probe.interval_ns;
		m->timerlat.sched = m->probe.sched;
		m->timerlat.duration_ns = m->probe.duration_ns;
		m->timerlat.dma_latency_us = m->probe.dma_latency_us;
		return &m->timerlat;
	}
	m->noise.cpus = m->probe.cpus;		/* borrowed: released with m->probe */
	m->noise.sched = m->probe.sched;
	m->noise.duration_ns = m->probe.duration_ns;
	m->noise.lock_memory = m->probe.lock_memory;
	m->noise.dma_latency_us = m->probe.dma_latency_us;
	return &m->noise;
}

/* Set-up 1: everything that can refuse the run, before anything starts. */
static int setup_checks(struct rtm_session_opts *m, struct measure_run *mr)
{
	int ret;

	if ((ret = measure_pick_backend(m)) || (ret = measure_prepare(m)))
		return ret;
	if ((m->out.histfile && (ret = check_out_file(m, m->out.histfile, "--histfile"))) ||
	    (m->out.json_file && (ret = check_out_file(m, m->out.json_file, "--json"))))
		return ret;
	if (m->out.outdir && snprintf(mr->dir, sizeof(mr->dir), "%s", m->out.outdir) >=
	    (int)sizeof(mr->dir))
		return rtm_cli_fail("%s: -o: folder name too long", m->command);
	mr->locks = measure_cpus_lock(m, mr->note, sizeof(mr->note), &ret);
	if (ret)
		return ret;
	if (mr->note[0])
		fprintf(stderr, "rtmeasure: warning: %s\n", mr->note);

	mr->si = rtm_sysinfo_collect("/", &mr->err);
	m->preempt_model = mr->si ? rtm_preempt_name(mr->si->preempt) : NULL;
	if (!m->out.outdir)
		default_outdir(mr->dir, sizeof(mr->dir), mr->si);
	/* fail on an unusable folder now, not after the measurement */
	return measure_check_outdir(m, mr->dir);
}

/* Set-up 2: the result's metadata (system facts, options, RT throttling). */
static int setup_result(struct rtm_session_opts *m, struct measure_run *mr)
{
	int64_t rt_run = 0, rt_per = 0;

	mr->r = rtm_result_alloc(m->command);
	if (!mr->r)
		return rtm_cli_fail("out of memory");
	if (mr->si)
		mr->r->sysinfo = rtm_sysinfo_to_json(mr->si);
	json_decref(mr->r->options);
	mr->r->options = measure_options_json(m);
	if (rtm_rt_throttling("/", &rt_run, &rt_per) == 0)
		json_object_set_new(mr->r->sections, "rt_throttling", json_pack("{s:I, s:I}",
			"sched_rt_runtime_us", (json_int_t)rt_run,
			"sched_rt_period_us", (json_int_t)rt_per));
	return 0;
}

/* The line that says what is measured, where the results go. */
static void print_banner(const struct rtm_session_opts *m, const struct measure_run *mr)
{
	char cpus[256], iv[16], wid[16], thr[16], loaddesc[300] = "", how[64];
	size_t k;

	if (m->out.quiet || m->out.json)
		return;
	rtm_cpulist_format(&m->probe.cpus, cpus, sizeof(cpus));
	if (mr->load) {
		json_t *lj = rtm_load_to_json(mr->load), *cmds = json_object_get(lj, "commands");

		for (k = 0; k < json_array_size(cmds); k++)
			snprintf(loaddesc + strlen(loaddesc), sizeof(loaddesc) - strlen(loaddesc),
				 "%s%s", k ? "; " : ", load: ",
				 json_string_value(json_array_get(cmds, k)) ?: "");
		json_decref(lj);
	}
	if (!latency_probe(m)) {
		rtm_fmt_ns(iv, sizeof(iv), m->noise.window_ns);
		rtm_fmt_ns(wid, sizeof(wid), m->noise.width_ns);
		rtm_fmt_ns(thr, sizeof(thr), m->noise.threshold_ns);
		if (m->ops == &rtm_probe_hwlat_ops)	/* the kernel's kthreads, not ours */
			snprintf(how, sizeof(how), "the kernel's hwlat tracer");
		else if (m->ops == &rtm_probe_osnoise_ops)
			snprintf(how, sizeof(how), "the kernel's osnoise tracer");
		else
			snprintf(how, sizeof(how), "%s %d", rtm_policy_name(m->probe.sched.policy),
				 m->probe.sched.priority);
		fprintf(stderr, "rtmeasure %s: CPUs %s, %s, busy %s of every %s, gaps above %s%s "
			"-> %s/\n", m->command, cpus, how, wid, iv, thr, loaddesc, mr->dir);
		return;
	}
	rtm_fmt_ns(iv, sizeof(iv), m->probe.interval_ns);
	fprintf(stderr, "rtmeasure %s: CPUs %s, interval %s, %s %d, %s%s -> %s/\n",
		m->command, cpus, iv, rtm_policy_name(m->probe.sched.policy),
		m->probe.sched.priority, is_timer(m) ? rtm_timer_mode_name(m->probe.mode) :
		"the kernel's timerlat tracer", loaddesc, mr->dir);
}

/* Set-up 3: the server, the load, the placement, tracing, IRQ counts, the probe. */
static int setup_start(struct rtm_session_opts *m, struct measure_run *mr)
{
	int ret;

	if (measure_prom_start(m, mr->r->sysinfo, &mr->prom, &mr->err))
		return -1;
	if (m->load_kinds) {
		mr->load = rtm_load_start(m->load_kinds, m->probe.cpus.n, &mr->err);
		if (!mr->load)
			return -1;
		json_object_set_new(mr->r->sections, "load", rtm_load_to_json(mr->load));
	}
	ret = measure_housekeeping_apply(m);	/* the load keeps its own placement */
	if (ret) {
		snprintf(mr->err.msg, sizeof(mr->err.msg), "%s: --housekeeping: cannot move "
			 "rtmeasure's threads there: %s", m->command, strerror(-ret));
		return -1;
	}
	if (m->trace.on) {
		mr->trace = measure_trace_start(m, mr->r, &mr->err);
		if (!mr->trace)
			return -1;
	}
	mr->irq = measure_irq_start(m, &mr->err);
	if (!mr->irq)
		return -1;
	if (measure_hold_wanted(m) && !(mr->hold = measure_hold_start(m, &mr->err)) &&
	    !measure_hold_optional(m, &mr->err))
		return -1;
	/* the census takes every wake-up over --capture-above from the probe */
	if (mr->hold && measure_census_wanted(m))
		m->probe.late_ns = m->probe.capture_ns;
	mr->run = rtm_probe_run_start(m->ops, probe_opts(m), m->ts_interval_ns, &mr->err);
	if (!mr->run)
		return -1;
	if (is_timer(m))
		mr->c = rtm_probe_run_probe(mr->run);
	print_banner(m, mr);
	return 0;
}

/* The loop: snapshots at interval boundaries, captures, live lines, until done or stopped. */
static void measure_loop(struct rtm_session_opts *m, struct measure_run *mr)
{
	struct live live;
	struct progress progress;
	double last_shown = -1, el;

	live_init(&live, m);
	progress_init(&progress, m);
	/* the timer's figures, or the noise probe's (with the causes so far) */
	live.on = live.on && (mr->c || m->ops == &rtm_probe_noise_ops);
	progress.on = progress.on && (mr->c || m->ops == &rtm_probe_noise_ops);
	while (!rtm_probe_run_done(mr->run) && !rtm_cli_stopping()) {
		/* a pending capture is noticed within 100 ms */
		rtm_probe_run_wait(mr->run, m->probe.capture_ns ? 100000000ULL : 250000000ULL);
		rtm_probe_run_tick(mr->run);
		rtm_stream_poll(mr->hold);
		measure_noise_live(mr->hold, mr->run);	/* noise --trace: causes so far */
		if (mr->c)
			measure_prom_publish(mr->prom, mr->c, mr->irq, mr->r, mr->hold);
		else	/* noise: its section through the probe seam */
			measure_prom_publish_probe(mr->prom, mr->run, mr->irq, mr->hold);
		if (mr->trace)
			measure_trace_poll(m, mr->trace, mr->c, mr->r, mr->dir, true);
		measure_irq_poll(mr->irq);
		measure_census_poll(mr->hold, mr->c);
		el = rtm_probe_run_elapsed_s(mr->run);
		if (live.on && (int)el != (int)last_shown) {
			rtm_probe_run_refresh(mr->run);
			if (mr->c)
				live_show(&live, mr->c, el, m->probe.duration_ns);
			else
				live_show_noise(&live, mr->hold, mr->run, el,
						m->probe.duration_ns);
			last_shown = el;
		}
		if (progress.on)
			progress_show(&progress, m, mr->c, el, mr->hold, mr->run);
		if (measure_cpus_poll(mr->locks, m, el, mr->note, sizeof(mr->note)))
			fprintf(stderr, "rtmeasure: warning: %s\n", mr->note);
	}
}

/* Outcome 1: the probe's figures into the result; tracing and the load stopped. */
static int outcome_finish(struct rtm_session_opts *m, struct measure_run *mr)
{
	uint64_t latency_end_ns;
	int ret;

	if (rtm_cli_stopping()) {
		mr->r->interrupted = true;
		rtm_probe_run_stop(mr->run);
	}
	ret = rtm_probe_run_finish(mr->run, mr->r, &mr->err);
	measure_prom_stop(mr->prom);
	mr->prom = NULL;
	measure_cpus_record(mr->locks, mr->r);
	if (!ret)
		measure_irq_finish(mr->irq, m, mr->r);
	measure_census_poll(mr->hold, mr->c);	/* the probe's last late wake-ups */
	if (!ret)
		measure_hold_finish(mr->hold, mr->r);	/* sections.rt_holds */
	rtm_stream_free(mr->hold);
	mr->hold = NULL;
	if (mr->trace && !ret)
		measure_trace_poll(m, mr->trace, mr->c, mr->r, mr->dir, false);	/* at the end */
	rtm_probe_run_free(mr->run);	/* the timer threads are joined */
	mr->run = NULL;
	mr->c = NULL;
	latency_end_ns = measure_noise_now_ns();
	if (mr->trace) {
		rtm_trace_stop(mr->trace);
		if (!ret)
			measure_trace_break(m, mr->trace, mr->r, mr->dir);
		rtm_trace_destroy(mr->trace);
		mr->trace = NULL;
	}
	/* run --noise: the noise phase on the same CPUs, under the same load */
	if (m->noise_phase.on && !ret && !mr->r->interrupted && !rtm_cli_stopping() &&
	    measure_noise_phase(m, mr->r, latency_end_ns))
		mr->noise_failed = true;
	rtm_cpulock_release(mr->locks);	/* the probes are gone */
	mr->locks = NULL;
	if (mr->load) {
		rtm_load_stop(mr->load);
		json_object_set_new(mr->r->sections, "load", rtm_load_to_json(mr->load));
		rtm_load_free(mr->load);
		mr->load = NULL;
	}
	/* run --throughput: the cost phase, with the probes and the load gone */
	if (m->throughput && !ret && !mr->r->interrupted && !rtm_cli_stopping() &&
	    measure_throughput(m, mr->r))
		mr->throughput_failed = true;
	return ret ? rtm_cli_fail("%s", mr->err.msg) : 0;
}

/* The summary table (or the noise table) on stdout. */
static void print_summary(const struct rtm_session_opts *m, const struct rtm_result *r, FILE *f)
{
	if (latency_probe(m)) {
		rtm_summary_fprint_unit(r, f, m->out.nsecs);
		if (json_object_get(r->sections, "noise")) {	/* run --noise */
			fprintf(f, "\nnoise phase (after the latency phase, same CPUs):\n");
			rtm_noise_fprint(json_object_get(r->sections, "noise"), f, 5);
		}
	} else
		rtm_noise_fprint(json_object_get(r->sections, "noise"), f, 10);
}

/* Outcome 2: the results folder and its report; the table goes out even if they fail. */
static int outcome_save(struct rtm_session_opts *m, struct measure_run *mr)
{
	int ret = measure_save_results(m, mr->r, mr->dir);

	if (ret) {
		/* the numbers of the run are not lost with its folder */
		if (!m->out.json) {
			printf("\n");
			print_summary(m, mr->r, stdout);
		}
		return ret;
	}
	if (m->out.report) {	/* a noise result gets its own pages (report_noise.c) */
		struct rtm_report_opts ro = { .results_dir = mr->dir, .out_dir = mr->dir,
					      .formats = 1u << RTM_PLOT_PNG, .width = 1000,
					      .height = 560 };

		/* the measurement is saved whatever happens to its report */
		mr->reported = rtm_report_write(mr->r, &ro, &mr->err) == 0;
		if (!mr->reported)
			fprintf(stderr, "rtmeasure: no report: %s; the results are saved (rtmeasure "
				"report %s, once fixed)\n", mr->err.msg, mr->dir);
	}
	return 0;
}

/* -b: the wake-up that stopped the run. */
static void print_break(const struct rtm_session_opts *m, const struct rtm_result *r)
{
	char lat[16], thr[16];
	size_t i;

	for (i = 0; i < json_array_size(r->events); i++) {
		json_t *e = json_array_get(r->events, i);

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
}

/* --fail-above: RTM_EXIT_BOUND when one is exceeded. */
static int check_bounds(const struct rtm_session_opts *m, const struct rtm_result *r)
{
	int status = RTM_EXIT_OK, i;
	char what[160];

	for (i = 0; i < m->out.nbounds; i++) {
		if (rtm_bound_describe(r, &m->out.bounds[i], what, sizeof(what))) {
			fprintf(stderr, "rtmeasure: --fail-above %s exceeded: %s\n",
				m->out.bounds[i].text, what);
			status = RTM_EXIT_BOUND;
		}
	}
	return status;
}

/* Outcome 3: what the user reads (or --json), the extra files, the bounds. */
static int outcome_print(struct rtm_session_opts *m, struct measure_run *mr)
{
	const struct rtm_result *r = mr->r;
	int status = RTM_EXIT_OK, ret;

	if (r->interrupted)
		fprintf(stderr, "rtmeasure: interrupted after %.1f s; results saved in %s/\n",
			(double)r->duration_ns / 1e9, mr->dir);
	print_break(m, r);
	measure_trace_print(r, mr->dir, stderr);
	if (save_extra_files(m, r, mr->dir) || mr->throughput_failed || mr->noise_failed)
		status = RTM_EXIT_USAGE;
	if (m->out.json) {
		json_t *j = summary_json(m, r, mr->dir);

		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(j);
	} else {
		printf("\n");
		print_summary(m, r, stdout);
		measure_irq_print(mr->irq, stdout);
		rtm_cost_fprint(json_object_get(r->sections, "throughput"), stdout);
		print_notes(mr->si, m, stdout);
		print_shared(r, stdout);
		printf("results: %s/%s\n", mr->dir, mr->reported ? " (report.html)" : "");
	}
	ret = check_bounds(m, r);	/* the bounds are named even after a USAGE error */
	return status == RTM_EXIT_OK ? ret : status;
}

int measure_main(struct rtm_session_opts *m)
{
	struct measure_run mr;
	int ret;

	memset(&mr, 0, sizeof(mr));
	if ((ret = setup_checks(m, &mr)) || (ret = setup_result(m, &mr))) {
		measure_release(&mr);
		return ret;
	}
	if (setup_start(m, &mr)) {
		ret = rtm_cli_fail("%s", mr.err.msg);
		measure_release(&mr);
		return ret;
	}
	measure_loop(m, &mr);
	ret = outcome_finish(m, &mr);
	if (!ret)
		ret = outcome_save(m, &mr);
	if (!ret)
		ret = outcome_print(m, &mr);
	measure_release(&mr);
	return ret;
}
