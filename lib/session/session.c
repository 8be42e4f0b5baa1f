// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session.c - the drive loop shared by `rtmeasure cyclic`, `run` and `noise`.
 *
 * The probes, the result, the summary and the histogram file live below; the
 * checks before a run are in checks.c, the outcome in output.c. This file drives
 * the probe through the runner in phases (set-up, loop, outcome) with what runs
 * beside it: the load, the flight recorder, the streaming instance, interrupt
 * counts, the run locks and the command's --prometheus server; then the phases
 * after the latency phase (run --noise, run --throughput).
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

#include "box/load.h"
#include "box/rt.h"
#include "box/sysinfo.h"
#include "core/clock.h"
#include "core/runlock.h"
#include "core/units.h"
#include "probe/cyclic.h"
#include "probe/ktracer.h"
#include "probe/probe.h"
#include "probe/probe_noise.h"
#include "probe/timersplit.h"
#include "session/session_priv.h"
#include "trace/stream.h"

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

/* The --prometheus server stopped (the command's hook), if there is one. */
static void session_unserve(struct rtm_session *s)
{
	if (s->prom && s->ops->unserve)
		s->ops->unserve(s->prom);
	s->prom = NULL;
}

/* Nothing is left running: no trace instance, no load, no probe, no server. */
static void session_release(struct rtm_session *s)
{
	session_unserve(s);
	rtm_probe_run_free(s->run);
	rtm_session_io_close(s->io, NULL);	/* a created target file removed */
	rtm_cpulock_release(s->locks);
	/* the instances in the reverse order of their making (rtm_trace_destroy()) */
	rtm_stream_free(s->stream);
	rtm_timersplit_destroy(s->split);
	rtm_session_irq_free(s->irq);
	if (!s->trace_in_stream)	/* else it went with the stream */
		rtm_trace_destroy(s->trace);
	if (s->load) {
		rtm_load_stop(s->load);
		rtm_load_free(s->load);
	}
	rtm_result_free(s->r);
	rtm_sysinfo_free(s->si);
	if (s->histfile_fd >= 0)
		close(s->histfile_fd);
	if (s->json_fd >= 0)
		close(s->json_fd);
	memset(s, 0, sizeof(*s));
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
static int setup_checks(struct rtm_session *s)
{
	struct rtm_session_opts *m = s->o;
	struct stat st;
	int ret;

	if ((ret = rtm_session_pick_backend(m)) || (ret = rtm_session_split_check(m)) ||
	    (ret = rtm_session_prepare(m)))
		return ret;
	if ((m->out.histfile && (ret = rtm_session_check_out_file(m, m->out.histfile,
							"--histfile", &s->histfile_fd))) ||
	    (m->out.json_file && (ret = rtm_session_check_out_file(m, m->out.json_file, "--json",
								  &s->json_fd))))
		return ret;
	if (m->out.outdir && snprintf(s->dir, sizeof(s->dir), "%s", m->out.outdir) >=
	    (int)sizeof(s->dir))
		return rtm_session_fail(m, "%s: -o: folder name too long", m->command);
	s->locks = rtm_session_cpus_lock(m, s->note, sizeof(s->note), &ret);
	if (ret)
		return ret;
	if (s->note[0])
		fprintf(m->errf, "rtmeasure: warning: %s\n", s->note);

	s->si = rtm_sysinfo_collect("/", &s->err);
	m->preempt_model = s->si ? rtm_preempt_name(s->si->preempt) : NULL;
	if (!m->out.outdir)
		default_outdir(s->dir, sizeof(s->dir), s->si);
	/* removed again, when empty, if the results cannot be saved there */
	s->dir_made = lstat(s->dir, &st) < 0 && errno == ENOENT;
	/* fail on an unusable folder now, not after the measurement */
	ret = rtm_session_check_outdir(m, s->dir);
	if (!ret)
		ret = rtm_session_check_fallback(m);
	if (!ret)	/* run --io: its target checked and opened as rtmeasure io does */
		s->io = rtm_session_io_open(m, s->dir, &ret);
	if (!ret && s->io && (m->load_kinds & RTM_LOAD_IO) &&
	    !rtm_session_io_load_dir(s->io, s->load_io_dir, sizeof(s->load_io_dir)))
		ret = rtm_session_fail(m, "%s: --load io writes in the storage probe's file "
				       "system, and --io-target is a block device: give a file "
				       "or folder on it, or leave out --load io", m->command);
	return ret;
}

/* Set-up 2: the result's metadata (system facts, options, RT throttling). */
static int setup_result(struct rtm_session *s)
{
	struct rtm_session_opts *m = s->o;
	int64_t rt_run = 0, rt_per = 0;

	s->r = rtm_result_alloc(m->command);
	if (!s->r)
		return rtm_session_fail(m, "out of memory");
	if (s->si)
		s->r->sysinfo = rtm_sysinfo_to_json(s->si);
	json_decref(s->r->options);
	s->r->options = rtm_session_options_json(m);
	if (rtm_rt_throttling("/", &rt_run, &rt_per) == 0)
		json_object_set_new(s->r->sections, "rt_throttling", json_pack("{s:I, s:I}",
			"sched_rt_runtime_us", (json_int_t)rt_run,
			"sched_rt_period_us", (json_int_t)rt_per));
	return 0;
}

/* ", load: CMD; CMD": the load's command lines for the banner, or "". */
static void load_desc(const struct rtm_session *s, char *buf, size_t len)
{
	json_t *lj, *cmds;
	size_t k;

	buf[0] = '\0';
	if (!s->load)
		return;
	lj = rtm_load_to_json(s->load);
	cmds = json_object_get(lj, "commands");
	for (k = 0; k < json_array_size(cmds); k++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", k ? "; " : ", load: ",
			 json_string_value(json_array_get(cmds, k)) ?: "");
	json_decref(lj);
}

/* The line that says what is measured, where the results go. */
static void print_banner(const struct rtm_session *s)
{
	const struct rtm_session_opts *m = s->o;
	char cpus[256], iv[16], wid[16], thr[16], loaddesc[300], how[64], split[200];

	if (m->out.quiet || m->out.json)
		return;
	rtm_cpulist_format(&m->probe.cpus, cpus, sizeof(cpus));
	load_desc(s, loaddesc, sizeof(loaddesc));
	if (!rtm_session_latency_probe(m)) {
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
		fprintf(m->errf, "rtmeasure %s: CPUs %s, %s, busy %s of every %s, gaps above %s%s "
			"-> %s/\n", m->command, cpus, how, wid, iv, thr, loaddesc, s->dir);
		return;
	}
	rtm_fmt_ns(iv, sizeof(iv), m->probe.interval_ns);
	rtm_session_split_desc(m, split, sizeof(split));
	fprintf(m->errf, "rtmeasure %s: CPUs %s, interval %s, %s %d, %s%s%s -> %s/\n",
		m->command, cpus, iv, rtm_policy_name(m->probe.sched.policy),
		m->probe.sched.priority, is_timer(m) ? rtm_timer_mode_name(m->probe.mode) :
		"the kernel's timerlat tracer", split, loaddesc, s->dir);
}

/* Set-up 3: the server, the load, the placement, tracing, IRQ counts, the probe. */
static int setup_start(struct rtm_session *s)
{
	struct rtm_session_opts *m = s->o;
	int ret;

	if (s->ops->serve && s->ops->serve(m, s->r->sysinfo, &s->prom, &s->err))
		return -1;
	if (m->load_kinds) {
		/* run --io: the io load's writer in the storage probe's file system */
		s->load = rtm_load_start_in(m->load_kinds, m->probe.cpus.n,
					    s->load_io_dir[0] ? s->load_io_dir : NULL, &s->err);
		if (!s->load)
			return -1;
		json_object_set_new(s->r->sections, "load", rtm_load_to_json(s->load));
	}
	ret = rtm_session_housekeeping_apply(m);	/* the load keeps its own placement */
	if (ret) {
		snprintf(s->err.msg, sizeof(s->err.msg), "%s: --housekeeping: cannot move "
			 "rtmeasure's threads there: %s", m->command, strerror(-ret));
		return -1;
	}
	s->trace_in_stream = rtm_session_flight_in_stream(m);
	if (m->trace.on && !s->trace_in_stream) {
		s->trace = rtm_session_trace_start(m, s->r, &s->err);
		if (!s->trace)
			return -1;
	}
	/* the stream first: it carries the handler times' events, when both trace */
	if (rtm_session_stream_wanted(m) &&
	    !(s->stream = rtm_session_stream_start_irq(m, &s->err)) &&
	    !rtm_session_stream_optional(m, &s->err))
		return -1;
	if (s->trace_in_stream &&
	    !(s->trace = rtm_session_trace_in_stream(m, s->r, s->stream, &s->err)))
		return -1;
	s->irq = rtm_session_irq_start(m, s->stream, &s->err);
	if (!s->irq)
		return -1;
	/* the census takes every wake-up over --capture-above from the probe */
	if (s->stream && rtm_session_census_wanted(m))
		m->probe.late_ns = m->probe.capture_ns;
	/* before the probe: its first sleep is counted too */
	if (m->trace.split_bpf && !(s->split = rtm_session_split_start(m, &s->err)))
		return -1;
	s->run = rtm_probe_run_start(m->ops, probe_opts(m), m->ts_interval_ns, &s->err);
	if (!s->run)
		return -1;
	if (is_timer(m))
		s->c = rtm_probe_run_probe(s->run);
	if (rtm_session_io_start(s->io, m, &s->err))
		return -1;
	rtm_session_timer_irq_note(m);	/* nothing refused the run: now a note may come */
	print_banner(s);
	rtm_session_io_banner(s->io, m);
	return 0;
}

/* New figures for the --prometheus scrapes (the server picks the interval boundaries). */
static void session_publish(struct rtm_session *s)
{
	struct rtm_session_live live = { .c = s->c, .run = s->run, .irq = s->irq, .r = s->r,
					 .stream = s->stream, .split = s->split };

	if (s->prom && s->ops->publish)
		s->ops->publish(s->prom, &live);
}

/* The loop: snapshots at interval boundaries, captures, live lines, until done or stopped. */
static void session_loop(struct rtm_session *s)
{
	struct rtm_session_opts *m = s->o;
	struct rtm_session_live_lines live;
	struct rtm_session_progress progress;
	double last_shown = -1, el;

	rtm_session_live_init(&live, m);
	rtm_session_progress_init(&progress, m);
	/* the timer's figures, or the noise probe's (with the causes so far) */
	live.on = live.on && (s->c || m->ops == &rtm_probe_noise_ops);
	progress.on = progress.on && (s->c || m->ops == &rtm_probe_noise_ops);
	rtm_session_cpus_note(s->locks, s->r);	/* CPUs an earlier run measures: shared already */
	while (!rtm_probe_run_done(s->run) && !rtm_session_stopping(m)) {
		/* a pending capture is noticed within 100 ms */
		rtm_probe_run_wait(s->run, m->probe.capture_ns ? 100000000ULL : 250000000ULL);
		rtm_probe_run_tick(s->run);
		rtm_stream_poll(s->stream);
		rtm_session_noise_live(s->stream, s->run);	/* noise --trace: causes so far */
		session_publish(s);
		if (s->trace)
			rtm_session_trace_poll(m, s->trace, s->c, s->r, s->dir, true);
		rtm_session_irq_poll(s->irq);
		rtm_session_census_poll(s->stream, s->c);
		rtm_session_io_poll(s->io);
		el = rtm_probe_run_elapsed_s(s->run);
		if (live.on && (int)el != (int)last_shown) {
			rtm_session_live_show(&live, s, el);
			last_shown = el;
		}
		if (progress.on)
			rtm_session_progress_show(&progress, s, el);
		if (rtm_session_cpus_poll(s->locks, el, s->note, sizeof(s->note))) {
			fprintf(m->errf, "rtmeasure: warning: %s\n", s->note);
			rtm_session_cpus_note(s->locks, s->r);	/* the live /metrics page */
		}
	}
}

/* The probe's figures into the result, with the streaming instance's and the IRQs'. */
static int finish_probe(struct rtm_session *s)
{
	struct rtm_session_opts *m = s->o;
	int ret;

	if (rtm_session_stopping(m)) {
		const char *sig = sigabbrev_np(*m->stop);	/* the stop flag holds the signal */

		s->r->interrupted = true;
		if (sig)
			snprintf(s->r->stop_signal, sizeof(s->r->stop_signal), "SIG%s", sig);
		rtm_probe_run_stop(s->run);
	}
	ret = rtm_probe_run_finish(s->run, s->r, &s->err);
	if (!ret)	/* run --io: sections.io, also after a stop signal */
		ret = rtm_session_io_finish(s->io, m, s->r, &s->err);
	session_unserve(s);
	rtm_session_cpus_record(s->locks, s->r);
	if (!ret)
		rtm_session_irq_finish(s->irq, m, s->r);
	rtm_session_census_poll(s->stream, s->c);	/* the probe's last late wake-ups */
	if (!ret)
		rtm_session_stream_finish(m, s->stream, s->r);	/* sections.rt_holds */
	if (!s->trace_in_stream) {	/* else the flight recorder's pages go on to the end */
		rtm_stream_free(s->stream);
		s->stream = NULL;
	}
	rtm_session_irq_untrace(s->irq);
	if (s->trace && !ret)	/* at the end */
		rtm_session_trace_poll(m, s->trace, s->c, s->r, s->dir, false);
	rtm_probe_run_free(s->run);	/* the timer threads are joined */
	s->run = NULL;
	s->c = NULL;
	if (s->split && !ret)	/* every sleep ended: exact figures */
		rtm_session_split_finish(m, s->split, s->r);
	rtm_timersplit_destroy(s->split);
	s->split = NULL;
	return ret;
}

/* The phases after the latency phase can run: it ended well and nothing stopped it. */
static bool phases_go_on(const struct rtm_session *s, int ret)
{
	return !ret && !s->r->interrupted && !rtm_session_stopping(s->o);
}

/* Outcome 1: the probe's figures into the result; tracing and the load stopped. */
static int outcome_finish(struct rtm_session *s)
{
	struct rtm_session_opts *m = s->o;
	uint64_t latency_end_ns;
	int ret = finish_probe(s);

	latency_end_ns = rtm_clock_ns(CLOCK_MONOTONIC);
	if (s->trace) {
		rtm_trace_stop(s->trace);
		if (!ret)
			rtm_session_trace_break(m, s->trace, s->r, s->dir);
		if (s->trace_in_stream)
			rtm_stream_free(s->stream);
		else
			rtm_trace_destroy(s->trace);
		s->trace = NULL;
		s->stream = NULL;
	}
	/* run --noise: the noise phase on the same CPUs, under the same load */
	if (m->noise_phase.on && phases_go_on(s, ret) &&
	    rtm_session_noise_phase(m, s->r, latency_end_ns))
		s->noise_failed = true;
	rtm_cpulock_release(s->locks);	/* the probes are gone */
	s->locks = NULL;
	if (s->load) {
		rtm_load_stop(s->load);
		json_object_set_new(s->r->sections, "load", rtm_load_to_json(s->load));
		rtm_load_free(s->load);
		s->load = NULL;
	}
	/* run --throughput: the cost phase, with the probes and the load gone */
	if (s->ops->throughput && phases_go_on(s, ret) &&
	    s->ops->throughput(s->ops->ctx, m, s->r))
		s->throughput_failed = true;
	return ret ? rtm_session_fail(m, "%s", s->err.msg) : 0;
}

int rtm_session_run(struct rtm_session_opts *o, const struct rtm_session_ops *ops)
{
	struct rtm_session s;
	int ret;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.ops = ops;
	s.histfile_fd = -1;
	s.json_fd = -1;
	if (o->out.line_buffered)	/* before anything is written to it */
		setvbuf(o->outf, NULL, _IOLBF, 0);
	if ((ret = setup_checks(&s)) || (ret = setup_result(&s))) {
		session_release(&s);
		return ret;
	}
	if (setup_start(&s)) {
		ret = rtm_session_fail(o, "%s", s.err.msg);
		session_release(&s);
		return ret;
	}
	session_loop(&s);
	ret = outcome_finish(&s);
	if (!ret)
		ret = rtm_session_outcome_save(&s);
	if (!ret)
		ret = rtm_session_outcome_print(&s);
	session_release(&s);
	return ret;
}
