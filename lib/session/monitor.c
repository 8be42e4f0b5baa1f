// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * monitor.c - rtmeasure monitor's data (monitor.h): per-CPU snapshots, interrupt
 * rates, the spike log, tracing on and off, snapshots and the results folder.
 * Draws nothing; lib/present/dashboard.c shows what this keeps.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "box/sysinfo.h"
#include "core/clock.h"
#include "core/fileio.h"
#include "core/runlock.h"
#include "core/units.h"
#include "session/monitor.h"
#include "session/session_priv.h"
#include "trace/capture.h"
#include "trace/stream.h"

void rtm_mon_init(struct rtm_mon *mo)
{
	memset(mo, 0, sizeof(*mo));
	rtm_session_opts_init(&mo->m, "monitor");
	mo->refresh_ns = 1000000000ULL;
	mo->threshold_ns = 100000;
	rtm_session_noise_init(&mo->m);	/* --noise-cpus: the noise probe's defaults */
}

double rtm_mon_elapsed_s(const struct rtm_mon *mo)
{
	uint64_t now = rtm_clock_ns(CLOCK_MONOTONIC);

	return now > mo->start_ns ? (double)(now - mo->start_ns) / 1e9 : 0;
}

static void mon_fill(struct rtm_mon_cpu *mc, const struct rtm_hist *h)
{
	static const double ps[] = { 99, 99.9 };
	uint64_t pv[2];

	rtm_hist_percentiles(h, ps, 2, pv);	/* one pass for both */
	mc->samples = h->count;
	mc->min_ns = h->count ? h->min_ns : 0;
	mc->max_ns = h->max_ns;
	mc->avg_ns = rtm_hist_mean(h);
	mc->p99_ns = pv[0];
	mc->p999_ns = pv[1];
	mc->cur_ns = mc->snap.last_ns;
	mc->overruns = mc->snap.overruns - mc->base_overruns;
}

void rtm_mon_cpu_update(struct rtm_mon_cpu *mc)
{
	const struct rtm_hist *h = mc->cur;

	/* the interval's maximum, as the difference of the two snapshots has it */
	memmove(mc->spark, mc->spark + 1, sizeof(mc->spark) - sizeof(mc->spark[0]));
	mc->spark[RTM_MON_SPARK - 1] = rtm_hist_diff_max(mc->cur, mc->prev);
	/* after a reset, the figures since; else those of the snapshot itself, uncopied */
	if ((mc->base->count || mc->base_samples) && !rtm_hist_diff(mc->view, mc->cur, mc->base))
		h = mc->view;
	mon_fill(mc, h);
}

/* Snapshots of every CPU: the figures since the start (or the last reset). */
static void refresh_cpus(struct rtm_mon *mo)
{
	int i;

	for (i = 0; i < mo->n; i++) {
		struct rtm_mon_cpu *mc = &mo->cpus[i];
		struct rtm_hist *t;

		t = mc->prev;		/* the previous snapshot becomes "prev" */
		mc->prev = mc->cur;
		mc->cur = t;
		rtm_probe_timer_snapshot(mo->p, i, &mc->snap, mc->cur, NULL);
		rtm_mon_cpu_update(mc);
	}
}

void rtm_mon_reset(struct rtm_mon *mo)
{
	int i;

	for (i = 0; i < mo->n; i++) {
		struct rtm_mon_cpu *mc = &mo->cpus[i];

		rtm_probe_timer_snapshot(mo->p, i, &mc->snap, mc->base, NULL);
		rtm_hist_copy(mc->cur, mc->base);
		rtm_hist_copy(mc->prev, mc->base);
		rtm_hist_reset(mc->view);
		mc->base_samples = mc->base->count ? mc->base->count : 1;
		mc->base_overruns = mc->snap.overruns;
		memset(mc->spark, 0, sizeof(mc->spark));
		mon_fill(mc, mc->view);
	}
	snprintf(mo->message, sizeof(mo->message), "statistics reset");
}

/* Interrupt rates of the measured CPUs over the last refresh; handler times when tracing. */
static void refresh_irqs(struct rtm_mon *mo)
{
	struct rtm_irq_snap cur, d;
	int i, n = 0;

	memset(&cur, 0, sizeof(cur));
	memset(&d, 0, sizeof(d));
	if (!mo->irq_ok || rtm_irq_snap_read("/", &cur, NULL))
		return;
	if (rtm_irq_delta(&mo->irq_prev, &cur, &d, NULL) == 0) {
		int idx[RTM_MON_IRQ_ROWS];
		struct rtm_irqacct_cpu t;

		n = rtm_irq_top(&d, &mo->m.probe.cpus, RTM_MON_IRQ_ROWS, idx);
		for (i = 0; i < n; i++) {
			const struct rtm_irq_row *r = &d.rows[idx[i]];
			struct rtm_mon_irq *q = &mo->irqs[i];

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

static void add_spike(struct rtm_mon *mo, const struct rtm_probe_hit *pc, const char *verdict)
{
	struct rtm_mon_spike *s = &mo->spikes[mo->nspikes % RTM_MON_SPIKES];

	s->t_s = (double)(pc->woke_ns - mo->start_ns) / 1e9;
	s->cpu = pc->cpu;
	s->latency_ns = pc->latency_ns;
	snprintf(s->verdict, sizeof(s->verdict), "%s", verdict);
	mo->nspikes++;
}

/* The tracing_on a probe writes 0 to at a spike: none when the stream records (never stopped). */
static int capture_fd(const struct rtm_mon *mo)
{
	return mo->trace_in_stream ? -1 : rtm_trace_off_fd(mo->trace);
}

/* A probe claimed a wake-up over the threshold: log it, with its cause when tracing. */
static void take_spike(struct rtm_mon *mo)
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
	if (!rtm_session_window_kept(&mo->m, mo->trace, &pc))
		return;		/* the stream's next drain brings the rest of the window */
	rtm_spike_window_init(&w, pc.cpu, pc.planned_ns, pc.woke_ns, mo->m.probe.interval_ns,
			      mo->m.preempt_model);
	w.own_name = "this monitor";	/* its drawing and draining can be the cause too */
	/* the spike windows are saved with -o; without, only their verdicts are shown */
	sum = rtm_capture_window(mo->trace, &w, ++mo->nspike_files,
				 mo->m.out.outdir ? mo->spike_dir : NULL, &err);
	add_spike(mo, &pc, sum ? json_string_value(json_object_get(sum, "verdict")) : err.msg);
	json_decref(sum);
	if (!mo->trace_in_stream)	/* the probe stopped it at the spike */
		rtm_trace_start(mo->trace);
	rtm_probe_timer_capture_done(mo->p);
}

/*
 * The interrupt table's handler times: the census's own (it follows every handler
 * already, and reads none of their totals); else from the stream's events when it
 * carries the IRQ events (the gap causes want them); else from an instance of their own.
 */
static void handler_times(struct rtm_mon *mo, const struct rtm_trace_opts *io)
{
	mo->acct = rtm_stream_irqacct(mo->hold);
	mo->acct_shared = mo->acct != NULL;
	if (mo->acct)
		return;
	mo->acct = rtm_irqacct_alloc((int)sysconf(_SC_NPROCESSORS_CONF));
	if (mo->acct && !rtm_stream_tap_irq(mo->hold, rtm_irqacct_event, mo->acct) &&
	    !(mo->irqtrace = rtm_trace_create(io, NULL))) {
		if (!mo->acct_shared)	/* else the census's, gone with the stream */
		rtm_irqacct_free(mo->acct);
		mo->acct = NULL;
	}
}

/*
 * The flight recorder of its own, which a spike stops (rtm_trace_off_fd()): with
 * --trace-events or --trace-filter, or when no stream is wanted. 0, or -1 with
 * the message set.
 */
static int own_recorder(struct rtm_mon *mo, const char *cpus)
{
	struct rtm_trace_opts to = { .events = mo->m.trace.events, .cpus = cpus,
				     .buffer_kb = mo->m.trace.buffer_kb, .overwrite = true };
	struct rtm_error err = { "" };
	int64_t delta;

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
	return 0;
}

/*
 * The stream as the flight recorder too, as in cyclic and run: one instance, the
 * spike windows decoded from the pages its drains keep, tracing never stopped
 * for a capture, seven records a traced wake-up instead of eleven. 0, or -1
 * when the stream cannot be that.
 */
static int recorder_in_stream(struct rtm_mon *mo, const struct rtm_session_opts *hm)
{
	struct rtm_error err = { "" };
	int64_t delta;

	mo->hold = rtm_session_stream_start_irq(hm, &err);
	if (mo->hold && rtm_trace_check_clock(rtm_stream_trace(mo->hold), &delta, &err)) {
		rtm_stream_free(mo->hold);
		mo->hold = NULL;
	}
	if (!mo->hold)
		return -1;
	mo->trace = rtm_stream_trace(mo->hold);
	mo->trace_in_stream = true;
	rtm_stream_begin(mo->hold);
	return 0;
}

int rtm_mon_tracing_on(struct rtm_mon *mo)
{
	struct rtm_error err = { "" };
	struct rtm_session_opts hm;
	char cpus[1024];

	if (!mo->trace) {
		struct rtm_trace_opts io = { .events = "irq,nmi", .buffer_kb = 2048,
					     .overwrite = false, .suffix = "irq" };

		rtm_cpulist_format(&mo->m.probe.cpus, cpus, sizeof(cpus));
		io.cpus = cpus;
		/*
		 * --rt-hold: RT tasks holding a CPU, from sched_switch; --timer-irq:
		 * the timer IRQ part of the wake-ups. Both "whenever tracing", which
		 * the monitor is from here on.
		 */
		hm = mo->m;
		hm.trace.on = true;
		/* a stream that cannot record it all: a recorder of its own, as before */
		if (!rtm_session_flight_in_stream(&hm) || recorder_in_stream(mo, &hm)) {
			if (own_recorder(mo, cpus))
				return -1;
			if (rtm_session_stream_wanted(&hm) &&
			    !(mo->hold = rtm_session_stream_start(&hm, &err)))
				snprintf(mo->holdline, sizeof(mo->holdline),
					 "no RT hold or timer IRQ report: %.200s", err.msg);
		}
		handler_times(mo, &io);
	}
	rtm_stream_resume(mo->hold);
	rtm_trace_start(mo->trace);
	if (mo->irqtrace)
		rtm_trace_start(mo->irqtrace);
	/* the fd stays open until exit: a probe may hold it while we switch */
	rtm_probe_timer_set_capture(mo->p, mo->threshold_ns, capture_fd(mo));
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

void rtm_mon_tracing_off(struct rtm_mon *mo)
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

/* An empty result of the session: its options (threshold included) and the box. */
static struct rtm_result *mon_result(const struct rtm_mon *mo)
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

/* The figures so far as a result; NULL with @err set. */
static struct rtm_result *snapshot_result(struct rtm_mon *mo, struct rtm_error *err)
{
	struct rtm_result *r = mon_result(mo);
	int i;

	if (!r) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	r->duration_ns = rtm_clock_ns(CLOCK_MONOTONIC) - mo->start_ns;
	for (i = 0; i < mo->n; i++) {
		struct rtm_result_cpu *rc = rtm_result_add_cpu(r, mo->cpus[i].cpu, true, 0);
		struct rtm_probe_cpu_snap snap;

		if (!rc) {
			rtm_error_set(err, "out of memory");
			rtm_result_free(r);
			return NULL;
		}
		rtm_probe_timer_snapshot(mo->p, i, &snap, rc->raw, rc->corrected);
		rc->overruns = snap.overruns;
	}
	if (rtm_mon_wakeup_snapshot(mo, r, err)) {	/* --wakeup: the tasks, as -o has them */
		rtm_result_free(r);
		return NULL;
	}
	return r;
}

void rtm_mon_save_snapshot(struct rtm_mon *mo)
{
	struct rtm_error err = { "" };
	struct rtm_result *r = snapshot_result(mo, &err);
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
	if (!r)
		snprintf(mo->message, sizeof(mo->message), "could not save %s: %s", dir, err.msg);
	else if (rtm_dir_make(mo->m.out.outdir ? mo->m.out.outdir : ".", name) ||
		 rtm_session_save_results(&mo->m, r, dir))
		snprintf(mo->message, sizeof(mo->message), "could not save %s", dir);
	else
		snprintf(mo->message, sizeof(mo->message), "saved %s/", dir);
	rtm_result_free(r);
}

void rtm_mon_set_threshold(struct rtm_mon *mo, uint64_t ns)
{
	char t[16];

	mo->threshold_ns = ns < 1000 ? 1000 : ns > 1000000000ULL ? 1000000000ULL : ns;
	rtm_probe_timer_set_capture(mo->p, mo->threshold_ns,
				    mo->tracing ? capture_fd(mo) : -1);
	rtm_fmt_ns(t, sizeof(t), mo->threshold_ns);
	snprintf(mo->message, sizeof(mo->message), "threshold %s", t);
}

static void mon_release(struct rtm_mon *mo)
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
	/* the reverse order of their making (rtm_trace_destroy()) */
	rtm_stream_free(mo->hold);	/* with it the flight recorder, when it is one */
	rtm_trace_destroy(mo->irqtrace);
	if (!mo->trace_in_stream)
		rtm_trace_destroy(mo->trace);
	mo->trace = NULL;
	if (!mo->acct_shared)	/* else the census's, gone with the stream */
		rtm_irqacct_free(mo->acct);
	rtm_sysinfo_free(mo->si);
	rtm_result_free(mo->live);
	rtm_cpulock_release(mo->locks);
	rtm_mon_noise_free(mo);
	rtm_mon_io_free(mo);
	rtm_mon_wakeup_free(mo);
}

static void drain_irq_trace(struct rtm_mon *mo)
{
	if (mo->tracing && mo->irqtrace && mo->acct)
		rtm_trace_read(mo->irqtrace, rtm_irqacct_event, mo->acct, NULL, NULL);
}

static int mon_setup(struct rtm_mon *mo, struct rtm_error *err)
{
	int i;

	if (mo->m.out.outdir) {
		snprintf(mo->spike_dir, sizeof(mo->spike_dir), "%s", mo->m.out.outdir);
		if (rtm_mkdir_p(mo->spike_dir))
			return rtm_error_set(err, "cannot create results folder %s",
					     mo->m.out.outdir);
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
		struct rtm_mon_cpu *mc = &mo->cpus[i];

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
int rtm_mon_finish(struct rtm_mon *mo)
{
	struct rtm_error err = { "" };
	struct rtm_result *r = mon_result(mo);
	int i, ret;

	if (!r)
		return rtm_session_fail(&mo->m, "out of memory");
	if (rtm_session_stopping(&mo->m)) {	/* as a session's result says it */
		const char *sig = sigabbrev_np(*mo->m.stop);	/* the stop flag holds the signal */

		r->interrupted = true;
		if (sig)
			snprintf(r->stop_signal, sizeof(r->stop_signal), "SIG%s", sig);
	}
	ret = rtm_probe_run_finish(mo->run, r, &err);
	if (!ret)	/* --noise-cpus: sections.noise */
		ret = rtm_mon_noise_finish(mo, r, &err);
	if (!ret)	/* --io: sections.io */
		ret = rtm_mon_io_finish(mo, r, &err);
	if (!ret)	/* --wakeup: sections.wakeup */
		ret = rtm_mon_wakeup_finish(mo, r, &err);
	rtm_session_cpus_record(mo->locks, r);
	rtm_session_stream_finish(&mo->m, mo->hold, r);	/* sections.rt_holds, when traced */
	for (i = 0; !ret && i < mo->nspikes && i < RTM_MON_SPIKES; i++) {
		int first = mo->nspikes > RTM_MON_SPIKES ? mo->nspikes - RTM_MON_SPIKES : 0;
		const struct rtm_mon_spike *s = &mo->spikes[first + i % RTM_MON_SPIKES];

		json_array_append_new(r->events, json_pack("{s:s, s:i, s:I, s:f, s:s}",
			"type", "monitor_spike", "cpu", s->cpu,
			"latency_ns", (json_int_t)s->latency_ns, "at_s", s->t_s,
			"verdict", s->verdict));
	}
	if (ret)
		ret = rtm_session_fail(&mo->m, "%s", err.msg);
	else if ((ret = rtm_session_save_results(&mo->m, r, mo->m.out.outdir))) {
		if (mo->outdir_made)
			rmdir(mo->m.out.outdir);	/* only when empty: no spike window */
		rtm_session_rescue(&mo->m, r, mo->m.out.outdir, NULL, 0);	/* not lost */
	}
	rtm_result_free(r);
	if (!ret)
		fprintf(mo->m.outf, "results: %s/\n", mo->m.out.outdir);
	return ret;
}

/* The checks of the options and the box; the results folder checked. */
static int prepare_checks(struct rtm_mon *mo)
{
	struct stat st;
	int ret;

	ret = rtm_session_prepare(&mo->m);
	if (!ret)	/* --noise-cpus: the two probes' CPUs apart */
		ret = rtm_mon_noise_prepare(mo);
	if (!ret)	/* --io: its probe's CPU apart too */
		ret = rtm_mon_io_prepare(mo);
	if (!ret)	/* --wakeup: the programs built */
		ret = rtm_mon_wakeup_prepare(mo);
	if (!ret && mo->m.out.outdir) {	/* -o checked (and made) before the dashboard starts */
		mo->outdir_made = lstat(mo->m.out.outdir, &st) < 0 && errno == ENOENT;
		ret = rtm_session_check_outdir(&mo->m, mo->m.out.outdir);
	}
	if (!ret)
		ret = rtm_session_check_fallback(&mo->m);
	if (!ret && (ret = rtm_session_housekeeping_apply(&mo->m)))
		ret = rtm_session_fail(&mo->m, "monitor: --housekeeping: cannot move rtmeasure's "
				       "threads there: %s", strerror(-ret));
	return ret;
}

/* The timer probe's settings for the spike log and the census. */
static void probe_settings(struct rtm_mon *mo)
{
	/* --rt-hold BOUND or --timer-irq: trace from the start */
	if (mo->m.trace.rt_hold_given || mo->m.trace.timer_irq_given)
		mo->start_tracing = true;
	if (mo->m.trace.on) {	/* --trace-events / --trace-filter: trace from the start */
		mo->start_tracing = true;
		mo->m.trace.on = false;
	}
	/* every wake-up over the threshold is claimed (unlimited, 200 ms apart) for the log */
	mo->m.probe.capture_ns = mo->threshold_ns;
	/* the census (once tracing): every wake-up over the starting threshold */
	mo->m.probe.late_ns = mo->threshold_ns;
	mo->m.probe.capture_max = 0;
	mo->m.probe.capture_holdoff_ns = mo->m.probe.interval_ns > 200000000ULL ?
					 mo->m.probe.interval_ns : 200000000ULL;
	mo->m.probe.trace_off_fd = -1;
}

int rtm_mon_prepare(struct rtm_mon *mo)
{
	char note[512];
	int ret;

	if (mo->m.out.line_buffered)	/* before anything is written to it */
		setvbuf(mo->m.outf, NULL, _IOLBF, 0);
	ret = prepare_checks(mo);
	if (ret) {
		rtm_mon_noise_free(mo);
		rtm_mon_io_free(mo);
		rtm_mon_wakeup_free(mo);
		rtm_session_opts_release(&mo->m);
		return ret;
	}
	probe_settings(mo);
	mo->si = rtm_sysinfo_collect("/", NULL);
	mo->m.preempt_model = mo->si ? rtm_preempt_name(mo->si->preempt) : NULL;
	mo->locks = rtm_session_cpus_lock(&mo->m, note, sizeof(note), &ret);
	if (ret) {
		rtm_mon_free(mo);
		return ret;
	}
	if (note[0]) {
		fprintf(mo->m.errf, "rtmeasure: warning: %s\n", note);
		snprintf(mo->message, sizeof(mo->message), "%.150s", note);
	}
	rtm_session_cpus_line(mo->locks, mo->sharedline, sizeof(mo->sharedline));
	if (mo->m.prometheus && (mo->live = mon_result(mo)))
		rtm_session_cpus_note(mo->locks, mo->live);
	return 0;
}

int rtm_mon_start(struct rtm_mon *mo, struct rtm_error *err)
{
	/*
	 * --io first: a created file is written whole before the timer probe measures;
	 * --wakeup's programs loaded before it too, a refusal stopping nothing
	 */
	if (rtm_mon_io_start(mo, err) || rtm_mon_wakeup_start(mo, err) || mon_setup(mo, err) ||
	    rtm_mon_noise_start(mo, err))
		return -1;
	return 0;
}

/* Another run's lock on a measured CPU: four system calls a CPU, so looked for each second. */
static void poll_locks(struct rtm_mon *mo)
{
	uint64_t now = rtm_clock_ns(CLOCK_MONOTONIC);
	char note[512];

	if (now - mo->locks_polled_ns < 1000000000ULL)
		return;
	mo->locks_polled_ns = now;
	if (!rtm_session_cpus_poll(mo->locks, rtm_mon_elapsed_s(mo), note, sizeof(note)))
		return;
	if (mo->plain)
		fprintf(mo->m.errf, "rtmeasure: warning: %s\n", note);
	snprintf(mo->message, sizeof(mo->message), "%.150s", note);
	rtm_session_cpus_line(mo->locks, mo->sharedline, sizeof(mo->sharedline));
	if (mo->live)	/* the live /metrics page */
		rtm_session_cpus_note(mo->locks, mo->live);
}

void rtm_mon_poll(struct rtm_mon *mo)
{
	poll_locks(mo);
	drain_irq_trace(mo);
	rtm_stream_poll(mo->hold);
	rtm_session_census_poll(mo->hold, mo->c);
	rtm_mon_noise_poll(mo);
	rtm_mon_io_poll(mo);
	rtm_mon_wakeup_poll(mo);
	take_spike(mo);
}

void rtm_mon_refresh(struct rtm_mon *mo)
{
	mo->refreshes++;
	refresh_cpus(mo);
	refresh_irqs(mo);
	rtm_mon_noise_refresh(mo);
	rtm_mon_io_refresh(mo);
	rtm_mon_wakeup_refresh(mo);
	if (mo->hold) {
		rtm_stream_holds_line(mo->hold, mo->holdline, sizeof(mo->holdline));
		rtm_stream_timer_irq_line(mo->hold, mo->tirqline, sizeof(mo->tirqline));
		rtm_stream_census_line(mo->hold, mo->censusline, sizeof(mo->censusline));
	}
}

void rtm_mon_free(struct rtm_mon *mo)
{
	rtm_probe_run_free(mo->run);
	mo->run = NULL;
	mon_release(mo);
	rtm_session_opts_release(&mo->m);
}
