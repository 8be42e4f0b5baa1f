// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_monitor.c - rtmeasure monitor: the timer probes on every CPU, watched
 * live. This file keeps the data: per-CPU snapshots (copies of the probes'
 * histograms, never stopping them), interrupt rates, the spike log (a probe
 * that sees a wake-up over the threshold claims it; with tracing on, the
 * flight recorder's window is saved and analysed), and the keys.
 */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trace/capture.h"
#include "core/fileio.h"
#include "monitor.h"
#include "rtmeasure.h"
#include "core/runlock.h"
#include "present/promlive.h"
#include "core/units.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void monitor_usage(FILE *f)
{
	fprintf(f, "usage: rtmeasure monitor [options]\n\n"
		"Live dashboard: the timer probe on every CPU with current, min, avg, p99,\n"
		"p99.9 and max latency, the interrupts of the measured CPUs, and a log of the\n"
		"wake-ups over the alert threshold with the cause when tracing is on.\n"
		"Keys: q quit, space pause, r reset, s save, t tracing, + - threshold,\n"
		"tab panel, arrows/PgUp/PgDn scroll, ? help. Not on a terminal: a plain table\n"
		"per refresh.\n\n"
		"      --refresh DUR       redraw interval (default 1s)\n"
		"      --threshold LAT     alert threshold (default 100us)\n"
		"      --trace             start with tracing on (key t toggles it)\n"
		"      --once              one refresh interval, one plain table, exit\n"
		"      --noise-cpus LIST   the noise detector of rtmeasure noise on these CPUs,\n"
		"                          beside the timer probe on the others (never both\n"
		"                          on one CPU): the noise panel, noise %%, largest gap\n"
		"                          and its cause, the main cause class\n"
		"      --noise-window DUR, --noise-width DUR, --noise-threshold LAT\n"
		"                          its duty cycle (1s, 500ms) and gap threshold (1us)\n"
		"      --noise-trace [0|1] its gap causes (default: on as root with tracefs)\n"
		MEASURE_PROBE_HELP
		"      --force             -o names an earlier result: replace it\n"
		"      --follow            -o may be a symbolic link\n"
		"      --help              this help\n");
}

/* ---------------------------------------------------------------- data */

static void mon_fill(struct mon_cpu *mc)
{
	const struct rtm_hist *h = mc->view;

	mc->samples = h->count;
	mc->min_ns = h->count ? h->min_ns : 0;
	mc->max_ns = h->max_ns;
	mc->avg_ns = rtm_hist_mean(h);
	mc->p99_ns = rtm_hist_percentile(h, 99);
	mc->p999_ns = rtm_hist_percentile(h, 99.9);
	mc->cur_ns = mc->snap.last_ns;
	mc->overruns = mc->snap.overruns - mc->base_overruns;
}

/* Snapshots of every CPU: the figures since the start (or the last reset). */
static void refresh_cpus(struct mon *mo)
{
	int i;

	for (i = 0; i < mo->n; i++) {
		struct mon_cpu *mc = &mo->cpus[i];
		struct rtm_hist *t;
		uint64_t imax = 0;

		t = mc->prev;		/* the previous snapshot becomes "prev" */
		mc->prev = mc->cur;
		mc->cur = t;
		rtm_probe_timer_snapshot(mo->p, i, &mc->snap, mc->cur, NULL);
		/* the interval's maximum, from the difference of two snapshots */
		if (rtm_hist_diff(mc->view, mc->cur, mc->prev) == 0 && mc->view->count)
			imax = mc->view->max_ns;
		memmove(mc->spark, mc->spark + 1, sizeof(mc->spark) - sizeof(mc->spark[0]));
		mc->spark[MON_SPARK - 1] = imax;
		if (mc->base->count || mc->base_samples) {
			if (rtm_hist_diff(mc->view, mc->cur, mc->base))
				rtm_hist_copy(mc->view, mc->cur);
		} else {
			rtm_hist_copy(mc->view, mc->cur);
		}
		mon_fill(mc);
	}
}

static void reset_stats(struct mon *mo)
{
	int i;

	for (i = 0; i < mo->n; i++) {
		struct mon_cpu *mc = &mo->cpus[i];

		rtm_probe_timer_snapshot(mo->p, i, &mc->snap, mc->base, NULL);
		rtm_hist_copy(mc->cur, mc->base);
		rtm_hist_copy(mc->prev, mc->base);
		rtm_hist_reset(mc->view);
		mc->base_samples = mc->base->count ? mc->base->count : 1;
		mc->base_overruns = mc->snap.overruns;
		memset(mc->spark, 0, sizeof(mc->spark));
		mon_fill(mc);
	}
	snprintf(mo->message, sizeof(mo->message), "statistics reset");
}

/* Interrupt rates of the measured CPUs over the last refresh; handler times when tracing. */
static void refresh_irqs(struct mon *mo)
{
	struct rtm_irq_snap cur, d;
	int i, n = 0;

	memset(&cur, 0, sizeof(cur));
	memset(&d, 0, sizeof(d));
	if (!mo->irq_ok || rtm_irq_snap_read("/", &cur, NULL))
		return;
	if (rtm_irq_delta(&mo->irq_prev, &cur, &d, NULL) == 0) {
		int idx[MON_IRQ_ROWS];
		struct rtm_irqacct_cpu t;

		n = rtm_irq_top(&d, &mo->m.probe.cpus, MON_IRQ_ROWS, idx);
		for (i = 0; i < n; i++) {
			const struct rtm_irq_row *r = &d.rows[idx[i]];
			struct mon_irq *q = &mo->irqs[i];

			memset(q, 0, sizeof(*q));
			snprintf(q->name, sizeof(q->name), "%s", r->name);
			snprintf(q->desc, sizeof(q->desc), "%s",
				 r->actions && *r->actions ? r->actions : r->desc ? r->desc : "");
			q->rate = rtm_irq_rate_hz(&d, rtm_irq_count_on(&d, r, &mo->m.probe.cpus));
			rtm_irqacct_row_total(mo->acct, r->name, r->irq, &mo->m.probe.cpus, &t);
			q->count = t.count;
			q->total_ns = t.total_ns;
			q->max_ns = t.max_ns;
		}
		mo->nirqs = n < 0 ? 0 : n;
		rtm_irq_snap_release(&d);
	}
	rtm_irq_snap_release(&mo->irq_prev);
	mo->irq_prev = cur;
	if (mo->acct)
		rtm_irqacct_reset(mo->acct);
}

static void add_spike(struct mon *mo, const struct rtm_probe_hit *pc, const char *verdict)
{
	struct mon_spike *s = &mo->spikes[mo->nspikes % MON_SPIKES];

	s->t_s = (double)(pc->woke_ns - mo->start_ns) / 1e9;
	s->cpu = pc->cpu;
	s->latency_ns = pc->latency_ns;
	snprintf(s->verdict, sizeof(s->verdict), "%s", verdict);
	mo->nspikes++;
}

/* A probe claimed a wake-up over the threshold: log it, with its cause when tracing. */
static void take_spike(struct mon *mo)
{
	struct rtm_error err = { "" };
	struct rtm_probe_hit pc;
	struct rtm_spike_window w;
	json_t *sum;

	if (!rtm_probe_timer_capture_pending(mo->p, &pc))
		return;
	if (!mo->tracing) {
		add_spike(mo, &pc, mo->plain ? "(tracing off: --trace explains them)" :
			  "(tracing off: press t to trace and explain the next ones)");
		rtm_probe_timer_capture_done(mo->p);
		return;
	}
	rtm_spike_window_init(&w, pc.cpu, pc.planned_ns, pc.woke_ns, mo->m.probe.interval_ns,
			      mo->m.preempt_model);
	sum = rtm_capture_window(mo->trace, &w, ++mo->nspike_files, mo->spike_dir, &err);
	add_spike(mo, &pc, sum ? json_string_value(json_object_get(sum, "verdict")) : err.msg);
	json_decref(sum);
	rtm_trace_start(mo->trace);
	rtm_probe_timer_capture_done(mo->p);
}

static int tracing_on(struct mon *mo)
{
	struct rtm_error err = { "" };
	struct rtm_session_opts hm;
	char cpus[1024];
	int64_t delta;

	if (!mo->trace) {
		struct rtm_trace_opts to = { .buffer_kb = mo->m.trace.buffer_kb, .overwrite = true };
		struct rtm_trace_opts io = { .events = "irq,nmi", .buffer_kb = 2048,
					     .overwrite = false, .suffix = "irq" };

		rtm_cpulist_format(&mo->m.probe.cpus, cpus, sizeof(cpus));
		to.cpus = io.cpus = cpus;
		to.events = mo->m.trace.events;
		mo->trace = rtm_trace_create(&to, &err);
		if (mo->trace && (rtm_trace_off_fd(mo->trace) < 0 ||
				  rtm_trace_check_clock(mo->trace, &delta, &err))) {
			rtm_trace_destroy(mo->trace);
			mo->trace = NULL;
		}
		if (!mo->trace) {
			snprintf(mo->message, sizeof(mo->message), "no tracing: %s", err.msg);
			return -1;
		}
		mo->irqtrace = rtm_trace_create(&io, NULL);
		mo->acct = mo->irqtrace ? rtm_irqacct_alloc((int)sysconf(_SC_NPROCESSORS_CONF)) : NULL;
		/*
		 * --rt-hold (issue 18): RT tasks holding a CPU, from sched_switch;
		 * --timer-irq (issue 16): the timer IRQ part of the wake-ups. Both
		 * "whenever tracing", which the monitor is from here on.
		 */
		hm = mo->m;
		hm.trace.on = true;
		if (rtm_session_stream_wanted(&hm) && !(mo->hold = rtm_session_stream_start(&hm, &err)))
			snprintf(mo->holdline, sizeof(mo->holdline),
				 "no RT hold or timer IRQ report: %.200s", err.msg);
	}
	rtm_stream_resume(mo->hold);
	rtm_trace_start(mo->trace);
	if (mo->irqtrace)
		rtm_trace_start(mo->irqtrace);
	/* the fd stays open until exit: a probe may hold it while we switch */
	rtm_probe_timer_set_capture(mo->p, mo->threshold_ns, rtm_trace_off_fd(mo->trace));
	mo->tracing = true;
	if (*rtm_trace_stale_removed(mo->trace))
		snprintf(mo->message, sizeof(mo->message), "tracing on (%s); removed stale "
			 "instances %s", rtm_trace_name(mo->trace),
			 rtm_trace_stale_removed(mo->trace));
	else
		snprintf(mo->message, sizeof(mo->message), "tracing on (%s)",
			 rtm_trace_name(mo->trace));
	return 0;
}

static void tracing_off(struct mon *mo)
{
	rtm_probe_timer_set_capture(mo->p, mo->threshold_ns, -1);
	rtm_stream_pause(mo->hold);
	if (mo->trace)
		rtm_trace_stop(mo->trace);
	if (mo->irqtrace)
		rtm_trace_stop(mo->irqtrace);
	mo->tracing = false;
	snprintf(mo->message, sizeof(mo->message), "tracing off");
}

/* The state so far as a result (cumulative since the start). */
/* An empty result of the session: its options (threshold included) and the box. */
static struct rtm_result *mon_result(const struct mon *mo)
{
	struct rtm_result *r = rtm_result_alloc("monitor");

	if (!r)
		return NULL;
	json_decref(r->options);
	r->options = rtm_session_options_json(&mo->m);
	json_object_set_new(r->options, "threshold_ns", json_integer((json_int_t)mo->threshold_ns));
	if (mo->si)
		r->sysinfo = rtm_sysinfo_to_json(mo->si);
	return r;
}

static struct rtm_result *snapshot_result(struct mon *mo)
{
	struct rtm_result *r = mon_result(mo);
	int i;

	if (!r)
		return NULL;
	r->duration_ns = mono_ns() - mo->start_ns;
	for (i = 0; i < mo->n; i++) {
		struct rtm_result_cpu *rc = rtm_result_add_cpu(r, mo->cpus[i].cpu, true, 0);
		struct rtm_probe_cpu_snap snap;

		if (!rc) {
			rtm_result_free(r);
			return NULL;
		}
		rtm_probe_timer_snapshot(mo->p, i, &snap, rc->raw, rc->corrected);
		rc->overruns = snap.overruns;
	}
	return r;
}

static void save_snapshot(struct mon *mo)
{
	struct rtm_result *r = snapshot_result(mo);
	char dir[PATH_MAX], name[64];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	if (mo->m.out.outdir)
		snprintf(name, sizeof(name), "snapshot-%03d", ++mo->nsaved);
	else
		snprintf(name, sizeof(name), "rtmeasure-monitor-snapshot-%04d%02d%02d-%02d%02d%02d",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
			 tm.tm_sec);
	if (mo->m.out.outdir)
		snprintf(dir, sizeof(dir), "%s/%s", mo->m.out.outdir, name);
	else
		snprintf(dir, sizeof(dir), "%s", name);
	/* a symlink planted at snapshot-NNN is refused, not followed */
	if (!r || rtm_dir_make(mo->m.out.outdir ? mo->m.out.outdir : ".", name) ||
	    rtm_session_save_results(&mo->m, r, dir))
		snprintf(mo->message, sizeof(mo->message), "could not save %s", dir);
	else
		snprintf(mo->message, sizeof(mo->message), "saved %s/", dir);
	rtm_result_free(r);
}

static void set_threshold(struct mon *mo, uint64_t ns)
{
	char t[16];

	mo->threshold_ns = ns < 1000 ? 1000 : ns > 1000000000ULL ? 1000000000ULL : ns;
	rtm_probe_timer_set_capture(mo->p, mo->threshold_ns,
				    mo->tracing ? rtm_trace_off_fd(mo->trace) : -1);
	rtm_fmt_ns(t, sizeof(t), mo->threshold_ns);
	snprintf(mo->message, sizeof(mo->message), "threshold %s", t);
}

/* Returns false to quit. */
static bool handle_key(struct mon *mo, int key)
{
	if (mo->help && key >= 0) {
		mo->help = false;
		return true;
	}
	switch (key) {
	case 'q': case 'Q':
		return false;
	case ' ':
		mo->paused = !mo->paused;
		snprintf(mo->message, sizeof(mo->message), mo->paused ? "display paused (space "
			 "resumes; measuring goes on)" : "display resumed");
		break;
	case 'r':
		reset_stats(mo);
		break;
	case 's':
		save_snapshot(mo);
		break;
	case 't':
		if (mo->tracing)
			tracing_off(mo);
		else
			tracing_on(mo);
		break;
	case '+': case '=':
		set_threshold(mo, mo->threshold_ns * 2);
		break;
	case '-': case '_':
		set_threshold(mo, mo->threshold_ns / 2);
		break;
	case '\t': case 'c':
		mo->focus = (enum rtm_dash_panel)((mo->focus + 1) % RTM_PANEL_N);
		break;
	case '?': case 'h':
		mo->help = true;
		break;
	default:
		mon_scroll_key(mo, key);
		break;
	}
	return true;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f);

static void mon_free(struct mon *mo)
{
	int i;

	for (i = 0; mo->cpus && i < mo->n; i++) {
		rtm_hist_free(mo->cpus[i].cur);
		rtm_hist_free(mo->cpus[i].prev);
		rtm_hist_free(mo->cpus[i].base);
		rtm_hist_free(mo->cpus[i].view);
	}
	free(mo->cpus);
	if (mo->irq_ok)
		rtm_irq_snap_release(&mo->irq_prev);
	rtm_trace_destroy(mo->trace);
	rtm_trace_destroy(mo->irqtrace);
	rtm_stream_free(mo->hold);
	rtm_irqacct_free(mo->acct);
	if (mo->spike_dir_tmp && mo->spike_dir[0])
		nftw(mo->spike_dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
	rtm_sysinfo_free(mo->si);
	rtm_cpulock_release(mo->locks);
	mon_noise_free(mo);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path) < 0 ? -1 : 0;
}

static void drain_irq_trace(struct mon *mo)
{
	if (mo->tracing && mo->irqtrace && mo->acct)
		rtm_trace_read(mo->irqtrace, rtm_irqacct_event, mo->acct, NULL, NULL);
}

static int mon_setup(struct mon *mo, struct rtm_error *err)
{
	int i;

	if (mo->m.out.outdir) {
		snprintf(mo->spike_dir, sizeof(mo->spike_dir), "%s", mo->m.out.outdir);
		if (rtm_mkdir_p(mo->spike_dir))
			return rtm_error_set(err, "cannot create results folder %s", mo->m.out.outdir);
	} else {
		snprintf(mo->spike_dir, sizeof(mo->spike_dir), "%s/rtmeasure-monitor.XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(mo->spike_dir))
			return rtm_error_set(err, "cannot create a folder for spike windows under "
					     "/tmp: %s", strerror(errno));
		mo->spike_dir_tmp = true;
	}
	mo->run = rtm_probe_run_start(&rtm_probe_timer_ops, &mo->m.probe, mo->m.ts_interval_ns,
				      err);
	if (!mo->run)
		return -EINVAL;
	mo->c = rtm_probe_run_probe(mo->run);
	mo->p = rtm_cyclic_probe(mo->c);
	mo->n = rtm_probe_timer_ncpus(mo->p);
	mo->start_ns = rtm_probe_timer_start_ns(mo->p);
	mo->cpus = calloc((size_t)mo->n, sizeof(*mo->cpus));
	if (!mo->cpus)
		return rtm_error_set(err, "out of memory");
	for (i = 0; i < mo->n; i++) {
		struct mon_cpu *mc = &mo->cpus[i];

		mc->cpu = mo->m.probe.cpus.cpus[i];
		mc->cur = rtm_hist_alloc();
		mc->prev = rtm_hist_alloc();
		mc->base = rtm_hist_alloc();
		mc->view = rtm_hist_alloc();
		if (!mc->cur || !mc->prev || !mc->base || !mc->view)
			return rtm_error_set(err, "out of memory");
	}
	mo->irq_ok = rtm_irq_snap_read("/", &mo->irq_prev, NULL) == 0;
	return 0;
}

/* -o: the results folder of the whole session (and the spike windows already there). */
static int mon_save_final(struct mon *mo)
{
	struct rtm_error err = { "" };
	struct rtm_result *r = mon_result(mo);
	int i, ret;

	if (!r)
		return rtm_cli_fail("out of memory");
	ret = rtm_probe_run_finish(mo->run, r, &err);
	if (!ret)	/* --noise-cpus: sections.noise */
		ret = mon_noise_finish(mo, r, &err);
	rtm_session_cpus_record(mo->locks, r);
	rtm_session_stream_finish(&mo->m, mo->hold, r);	/* sections.rt_holds, when traced */
	for (i = 0; !ret && i < mo->nspikes && i < MON_SPIKES; i++) {
		const struct mon_spike *s = &mo->spikes[(mo->nspikes > MON_SPIKES ?
							  mo->nspikes - MON_SPIKES : 0) + i % MON_SPIKES];

		json_array_append_new(r->events, json_pack("{s:s, s:i, s:I, s:f, s:s}",
			"type", "monitor_spike", "cpu", s->cpu,
			"latency_ns", (json_int_t)s->latency_ns, "at_s", s->t_s,
			"verdict", s->verdict));
	}
	if (!ret)
		ret = rtm_session_save_results(&mo->m, r, mo->m.out.outdir);
	else
		ret = rtm_cli_fail("%s", err.msg);
	rtm_result_free(r);
	if (!ret)
		printf("results: %s/\n", mo->m.out.outdir);
	return ret;
}

/* The shared options of a measurement with an end result, which the dashboard has not. */
static int refuse_in_monitor(int c)
{
	const char *why;
	char name[48];

	switch (c) {
	case 'b': case MEASURE_OPT_CAPTURE: case MEASURE_OPT_MAX_CAPT: case MEASURE_OPT_HOLDOFF:
		why = "the spike log takes every wake-up over --threshold (keys + and -), and "
		      "with tracing on saves its window";
		break;
	case MEASURE_OPT_FAIL_ABOVE:
		why = "the dashboard has no end result to check; use cyclic or run";
		break;
	case MEASURE_OPT_JSON: case MEASURE_OPT_HISTFILE: case 'q': case 'N':
		why = "the dashboard is the output (--once: one plain table; -o: a results "
		      "folder); use cyclic or run";
		break;
	default:
		return 0;
	}
	return rtm_cli_fail("monitor: %s is not taken here: %s",
			    measure_opt_name(c, name, sizeof(name)), why);
}

/* Set-up, options: -1 to go on, else the exit status (help, a bad option). */
static int monitor_parse(struct mon *mo, int argc, char **argv, bool *start_tracing)
{
	static const struct option longopts[] = {
		MEASURE_LONGOPTS,
		{ "refresh", required_argument, NULL, 3001 },
		{ "threshold", required_argument, NULL, 3002 },
		{ "once", no_argument, NULL, 3003 },
		{ "noise-cpus", required_argument, NULL, MON_OPT_NOISE_CPUS },
		MEASURE_NOISE_LONGOPTS,
		{ "help", no_argument, NULL, 2000 },
		{ NULL, 0, NULL, 0 },
	};
	struct rtm_error err = { "" };
	int c, ret;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, MEASURE_SHORTOPTS, longopts, NULL)) != -1) {
		switch (c) {
		case 2000:
			monitor_usage(stdout);
			return RTM_EXIT_OK;
		case 3001:
			if (rtm_parse_duration_ns(optarg, &mo->refresh_ns, &err) ||
			    mo->refresh_ns < 100000000ULL)
				return rtm_cli_fail("monitor: --refresh: %s", err.msg[0] ? err.msg :
						    "at least 100ms");
			continue;
		case 3002:
			if (rtm_parse_latency_ns(optarg, &mo->threshold_ns, &err) ||
			    !mo->threshold_ns)
				return rtm_cli_fail("monitor: --threshold: %s", err.msg[0] ? err.msg :
						    "must be above 0");
			continue;
		case 3003:
			mo->once = true;
			continue;
		case 1011:	/* --trace: here it switches tracing on from the start */
			*start_tracing = true;
			continue;
		}
		ret = refuse_in_monitor(c);
		if (!ret)
			ret = mon_noise_parse(mo, c, argc, argv);
		if (!ret)
			ret = measure_parse_opt(&mo->m, c, argc, argv);
		if (ret == 1)
			continue;
		if (ret)
			return ret;
		return rtm_cli_bad_option("monitor", MEASURE_SHORTOPTS, longopts, argv);
	}
	if (optind < argc)
		return rtm_cli_fail("monitor: unexpected argument '%s' (rtmeasure monitor --help)",
				    argv[optind]);
	return -1;
}

/*
 * Set-up, the run: options checked, the measured CPUs locked, --prometheus bound,
 * the probes started. 0, or the exit status with everything released.
 */
static int monitor_start(struct mon *mo, bool *start_tracing, struct rtm_promlive **prom)
{
	struct rtm_error err = { "" };
	char note[512];
	int ret;

	ret = rtm_session_prepare(&mo->m);
	if (!ret)	/* --noise-cpus: the two probes' CPUs apart */
		ret = mon_noise_prepare(mo);
	if (!ret && mo->m.out.outdir)	/* -o checked before the dashboard starts */
		ret = rtm_session_check_outdir(&mo->m, mo->m.out.outdir);
	if (!ret && (ret = rtm_session_housekeeping_apply(&mo->m)))
		ret = rtm_cli_fail("monitor: --housekeeping: cannot move rtmeasure's threads "
				   "there: %s", strerror(-ret));
	if (ret) {
		mon_noise_free(mo);
		rtm_session_opts_release(&mo->m);
		return ret;
	}
	/* --rt-hold BOUND or --timer-irq: trace from the start */
	if (mo->m.trace.rt_hold_given || mo->m.trace.timer_irq_given)
		*start_tracing = true;
	if (mo->m.trace.on) {	/* --trace-events / --trace-filter: trace from the start */
		*start_tracing = true;
		mo->m.trace.on = false;
	}
	mo->plain = mo->once || !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO);
	/* every wake-up over the threshold is claimed (unlimited, 200 ms apart) for the log */
	mo->m.probe.capture_ns = mo->threshold_ns;
	/* the census (once tracing): every wake-up over the starting threshold */
	mo->m.probe.late_ns = mo->threshold_ns;
	mo->m.probe.capture_max = 0;
	mo->m.probe.capture_holdoff_ns = mo->m.probe.interval_ns > 200000000ULL ?
					 mo->m.probe.interval_ns : 200000000ULL;
	mo->m.probe.trace_off_fd = -1;
	mo->si = rtm_sysinfo_collect("/", NULL);
	mo->m.preempt_model = mo->si ? rtm_preempt_name(mo->si->preempt) : NULL;
	mo->locks = rtm_session_cpus_lock(&mo->m, note, sizeof(note), &ret);
	if (ret) {
		mon_free(mo);
		rtm_session_opts_release(&mo->m);
		return ret;
	}
	if (note[0]) {
		fprintf(stderr, "rtmeasure: warning: %s\n", note);
		snprintf(mo->message, sizeof(mo->message), "%.150s", note);
	}
	{	/* --prometheus: bound before anything is measured */
		json_t *sj = mo->si ? rtm_sysinfo_to_json(mo->si) : NULL;

		ret = rtm_promlive_start(&mo->m, sj, prom, &err);
		json_decref(sj);
	}
	if (ret || mon_setup(mo, &err) || mon_noise_start(mo, &err)) {
		rtm_promlive_stop(*prom);
		mon_free(mo);
		rtm_probe_run_free(mo->run);
		rtm_session_opts_release(&mo->m);
		return rtm_cli_fail("monitor: %s", err.msg);
	}
	return 0;
}

/* The loop: ticks, keys, captures and a refresh every mo->refresh_ns until stopped. */
static void monitor_loop(struct mon *mo, struct rtm_promlive *prom)
{
	bool quit = false;
	char note[512];
	uint64_t next = mono_ns() + mo->refresh_ns;

	while (!quit && !rtm_cli_stopping() && !rtm_probe_run_done(mo->run)) {
		uint64_t now = mono_ns(), wait = next > now ? next - now : 0;
		int key = -1;

		if (wait > 100000000ULL)
			wait = 100000000ULL;	/* captures are noticed within 100 ms */
		if (mo->plain) {
			struct timespec ts = { 0, (long)wait };

			nanosleep(&ts, NULL);
		} else {
			key = mon_getkey((int)(wait / 1000000ULL));
			if (key >= 0 && !handle_key(mo, key))
				quit = true;
		}
		rtm_probe_run_tick(mo->run);
		rtm_promlive_timer(prom, mo->c, NULL, NULL, mo->hold);
		if (rtm_session_cpus_poll(mo->locks, (double)(mono_ns() - mo->start_ns) / 1e9,
				      note, sizeof(note))) {
			if (mo->plain)
				fprintf(stderr, "rtmeasure: warning: %s\n", note);
			snprintf(mo->message, sizeof(mo->message), "%.150s", note);
		}
		drain_irq_trace(mo);
		rtm_stream_poll(mo->hold);
		rtm_session_census_poll(mo->hold, mo->c);
		mon_noise_poll(mo);
		take_spike(mo);
		now = mono_ns();
		if (now >= next) {
			mo->refreshes++;
			refresh_cpus(mo);
			refresh_irqs(mo);
			mon_noise_refresh(mo);
			if (mo->hold) {
				rtm_stream_holds_line(mo->hold, mo->holdline, sizeof(mo->holdline));
				rtm_stream_timer_irq_line(mo->hold, mo->tirqline,
						       sizeof(mo->tirqline));
				rtm_stream_census_line(mo->hold, mo->censusline,
						    sizeof(mo->censusline));
			}
			if (mo->plain)
				mon_print_plain(mo);
			else if (!mo->paused || mo->help)
				mon_draw(mo);
			while (next <= now)
				next += mo->refresh_ns;
			if (mo->once)
				break;
		} else if (key >= 0 && !quit) {
			mon_draw(mo);	/* answer a key at once */
		}
	}
}

int cmd_monitor(int argc, char **argv)
{
	struct mon mo;
	struct rtm_promlive *prom = NULL;
	bool start_tracing = false;
	int ret, status = RTM_EXIT_OK;

	memset(&mo, 0, sizeof(mo));
	rtm_session_opts_init(&mo.m, "monitor");
	mo.m.outf = stdout;
	mo.m.errf = stderr;
	mo.m.stop = rtm_cli_stop_flag();
	mo.refresh_ns = 1000000000ULL;
	mo.threshold_ns = 100000;
	rtm_session_noise_init(&mo.m);	/* --noise-cpus: the noise probe's defaults */
	ret = monitor_parse(&mo, argc, argv, &start_tracing);
	if (ret >= 0) {
		rtm_cpulist_release(&mo.noise_cpus);
		rtm_session_opts_release(&mo.m);
		return ret;
	}
	ret = monitor_start(&mo, &start_tracing, &prom);
	if (ret)
		return ret;
	if (start_tracing && tracing_on(&mo) && mo.plain)
		fprintf(stderr, "rtmeasure: %s\n", mo.message);
	if (!mo.plain)
		mon_draw_init(&mo);
	monitor_loop(&mo, prom);

	/* outcome */
	if (!mo.plain)
		mon_draw_end();
	rtm_probe_run_stop(mo.run);
	rtm_promlive_stop(prom);
	if (mo.m.out.outdir)
		status = mon_save_final(&mo);
	rtm_probe_run_free(mo.run);
	mon_free(&mo);
	rtm_session_opts_release(&mo.m);
	return status;
}
