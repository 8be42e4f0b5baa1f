// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * flight.c - the flight recorder of `cyclic --trace` and `run --trace`.
 *
 * The instance records the measured CPUs' events, overwriting the oldest. A
 * probe thread whose wake-up is later than -b or --capture-above stops it with
 * one write to tracing_on; the command then reads the window around that
 * wake-up (capture.h: spikes/spike-NNN.txt and .json with the analysis) and,
 * for --capture-above, switches tracing back on and re-arms the probes after
 * the hold-off.
 *
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/units.h"
#include "probe/cyclic.h"
#include "session/session_priv.h"
#include "trace/capture.h"
#include "trace/stream.h"
#include "trace/timerirq.h"

/* From a period (at least 1 ms) before the planned wake-up to just after it. */
static uint64_t window_before_ns(const struct rtm_session_opts *m)
{
	return rtm_spike_window_before_ns(m->probe.interval_ns);
}

/*
 * --timer-irq is on by default whenever tracing. A kernel that hides
 * hrtimer_wakeup's address (kernel.kptr_restrict) cannot have it: then it is
 * turned off with a note rather than failing a --trace run that did not ask
 * for it; given, the same is an error (rtm_session_stream_start()). The note
 * waits for the run to start (rtm_session_timer_irq_note()): an error that
 * refuses the run comes first and alone.
 */
static void timer_irq_default(struct rtm_session_opts *m)
{
	bool monitor = !strcmp(m->command, "monitor");	/* traces at its key t */
	uint64_t fn;
	int ret;

	if (!m->trace.timer_irq || m->trace.timer_irq_given || (!m->trace.on && !monitor) ||
	    m->ops != &rtm_probe_timer_ops || m->probe.mode != RTM_TIMER_NANOSLEEP)
		return;
	ret = rtm_timerirq_kallsyms("/", "hrtimer_wakeup", &fn);
	if (!ret) {
		m->trace.wakeup_fn = fn;
		return;
	}
	if (!monitor)
		m->trace.timer_irq_off = ret == -EPERM ? "/proc/kallsyms hides kernel addresses "
			"(kernel.kptr_restrict)" : "hrtimer_wakeup is not in /proc/kallsyms";
	m->trace.timer_irq = false;
}

void rtm_session_timer_irq_note(const struct rtm_session_opts *m)
{
	if (m->trace.timer_irq_off)
		fprintf(m->errf, "rtmeasure: note: no timer IRQ split%s: %s (give --timer-irq to "
			"make this an error)\n", m->probe.capture_ns ? " and no spike census" : "",
			m->trace.timer_irq_off);
}

int rtm_session_trace_check(struct rtm_session_opts *m)
{
	char need[16];

	if (m->trace.timer_irq_given && m->probe.mode != RTM_TIMER_NANOSLEEP)
		return rtm_session_fail(m, "%s: --timer-irq follows the probe's clock_nanosleep "
					"hrtimer: not with --mode timerfd or signal (drop --mode)",
					m->command);
	timer_irq_default(m);
	if (!m->trace.on)
		return 0;
	/* the monitor's captures are its spike log's, over --threshold */
	if (!m->probe.break_ns && !m->probe.capture_ns && strcmp(m->command, "monitor"))
		return rtm_session_fail(m, "%s: --trace saves the events around spikes: give "
					"-b/--breaktrace LAT or --capture-above LAT too",
					m->command);
	if (m->probe.capture_ns && m->probe.capture_holdoff_ns < window_before_ns(m)) {
		rtm_fmt_ns(need, sizeof(need), window_before_ns(m));
		return rtm_session_fail(m, "%s: --capture-holdoff must be at least the %s before a "
					"spike that a capture keeps", m->command, need);
	}
	return 0;
}

/* The flight recorder's clock checked and its options noted in @r; 0 or -1 with @err set. */
static int flight_setup(struct rtm_session_opts *m, struct rtm_result *r, struct rtm_trace *t,
			struct rtm_error *err)
{
	int64_t delta = 0;
	json_t *filters;
	int i;

	if (rtm_trace_check_clock(t, &delta, err))
		return -1;
	filters = json_array();
	for (i = 0; i < m->trace.nfilters; i++)
		json_array_append_new(filters, json_string(m->trace.filters[i]));
	json_object_set_new(r->options, "trace_clock_delta_ns", json_integer(delta));
	json_object_set_new(r->options, "trace_events",
			    json_string(m->trace.events ? m->trace.events : RTM_TRACE_PRESETS));
	json_object_set_new(r->options, "trace_filters", filters);
	json_object_set_new(r->options, "trace_buffer_kb",
			    json_integer((json_int_t)m->trace.buffer_kb));
	json_object_set_new(r->options, "capture_above_ns",
			    json_integer((json_int_t)m->probe.capture_ns));
	json_object_set_new(r->options, "max_captures", json_integer(m->probe.capture_max));
	json_object_set_new(r->options, "capture_holdoff_ns",
			    json_integer((json_int_t)m->probe.capture_holdoff_ns));
	return 0;
}

struct rtm_trace *rtm_session_trace_start(struct rtm_session_opts *m, struct rtm_result *r,
				      struct rtm_error *err)
{
	struct rtm_trace_opts to = { .events = m->trace.events, .buffer_kb = m->trace.buffer_kb,
				     .overwrite = true };
	struct rtm_trace *t;
	char cpus[1024];
	int i;

	rtm_cpulist_format(&m->probe.cpus, cpus, sizeof(cpus));
	to.cpus = cpus;
	for (i = 0; i < m->trace.nfilters; i++)
		to.filters[to.nfilters++] = m->trace.filters[i];
	t = rtm_trace_create(&to, err);
	if (!t)
		return NULL;
	rtm_trace_stale_note(t, m->errf);
	if (rtm_trace_off_fd(t) < 0) {
		rtm_error_set(err, "cannot open tracing_on of %s", rtm_trace_name(t));
		rtm_trace_destroy(t);
		return NULL;
	}
	m->probe.trace_off_fd = rtm_trace_off_fd(t);
	if (flight_setup(m, r, t, err)) {
		rtm_trace_destroy(t);
		return NULL;
	}
	rtm_trace_start(t);
	return t;
}

struct rtm_trace *rtm_session_trace_in_stream(struct rtm_session_opts *m, struct rtm_result *r,
					      struct rtm_stream *st, struct rtm_error *err)
{
	struct rtm_trace *t = rtm_stream_trace(st);

	/*
	 * Nothing to freeze: a spike's window is decoded from the pages the drains
	 * kept, so neither -b nor --capture-above stops tracing (the stream's
	 * consumers go on through every capture).
	 */
	m->probe.trace_off_fd = -1;
	if (flight_setup(m, r, t, err))
		return NULL;
	rtm_stream_begin(st);
	return t;
}

static int count_captures(const struct rtm_result *r)
{
	const char *type;
	json_t *e;
	size_t i;
	int n = 0;

	json_array_foreach(r->events, i, e) {
		type = json_string_value(json_object_get(e, "type"));
		n += type && !strcmp(type, "spike_capture");
	}
	return n;
}

/* Save one spike's window as the next spikes/spike-NNN; the event goes into @r. */
static void save_window(const struct rtm_session_opts *m, struct rtm_trace *t, struct rtm_result *r,
			const char *dir, int cpu, uint64_t planned_ns, uint64_t woke_ns,
			const char *trigger)
{
	struct rtm_error err = { "" };
	struct rtm_spike_window w;
	json_t *sum;

	rtm_spike_window_init(&w, cpu, planned_ns, woke_ns, m->probe.interval_ns,
			      m->preempt_model);
	w.own_name = "this rtmeasure";	/* its own threads named as such, as in the census */
	sum = rtm_capture_window(t, &w, count_captures(r) + 1, dir, &err);
	if (!sum) {
		fprintf(m->errf, "rtmeasure: spike capture failed: %s\n", err.msg);
		return;
	}
	json_object_set_new(sum, "trigger", json_string(trigger));
	json_object_set_new(sum, "planned_mono_ns", json_integer((json_int_t)planned_ns));
	json_array_append_new(r->events, sum);
}

bool rtm_session_window_kept(const struct rtm_session_opts *m, const struct rtm_trace *t,
			     const struct rtm_probe_hit *pc)
{
	struct rtm_spike_window w;

	if (!rtm_trace_keeps(t))
		return true;
	rtm_spike_window_init(&w, pc->cpu, pc->planned_ns, pc->woke_ns, m->probe.interval_ns,
			      m->preempt_model);
	/* drains come every 100-250 ms; none for 2 s (the stream failed): what is kept */
	return rtm_trace_kept_until(t) > w.woke_ns + w.after_ns ||
	       rtm_clock_ns(CLOCK_MONOTONIC) > w.woke_ns + w.after_ns + 2000000000ULL;
}

void rtm_session_trace_poll(const struct rtm_session_opts *m, struct rtm_trace *t,
			struct rtm_cyclic *c, struct rtm_result *r, const char *dir, bool resume)
{
	struct rtm_probe_timer *p = rtm_cyclic_probe(c);
	struct rtm_probe_hit pc;
	struct rtm_probe_hit brk;

	if (!rtm_probe_timer_capture_pending(p, &pc) ||
	    (resume && !rtm_session_window_kept(m, t, &pc)))
		return;
	if (pc.trace_off_failed)
		fprintf(m->errf, "rtmeasure: could not stop tracing at a spike; its window may "
			"hold later events\n");
	save_window(m, t, r, dir, pc.cpu, pc.planned_ns, pc.woke_ns, "capture-above");
	rtm_probe_timer_break_info(p, &brk);
	/*
	 * Tracing stays off once -b has hit (its window is being kept) or when
	 * nothing will be captured any more (every CPU took --max-captures).
	 */
	if (resume && !brk.hit && (m->probe.break_ns ||
				   count_captures(r) < (int)m->probe.capture_max * m->probe.cpus.n))
		rtm_trace_start(t);
	rtm_probe_timer_capture_done(p);
}

/* The capture of the same wake-up, when --capture-above already saved it. */
static json_t *find_capture(const struct rtm_result *r, json_int_t cpu, json_int_t planned)
{
	const char *type;
	json_t *e;
	size_t i;

	json_array_foreach(r->events, i, e) {
		type = json_string_value(json_object_get(e, "type"));
		if (type && !strcmp(type, "spike_capture") &&
		    json_integer_value(json_object_get(e, "cpu")) == cpu &&
		    json_integer_value(json_object_get(e, "planned_mono_ns")) == planned)
			return e;
	}
	return NULL;
}

void rtm_session_trace_break(const struct rtm_session_opts *m, struct rtm_trace *t,
			     struct rtm_result *r, const char *dir)
{
	json_int_t cpu, planned, lat;
	const char *type;
	json_t *e, *same;
	size_t i;

	json_array_foreach(r->events, i, e) {
		type = json_string_value(json_object_get(e, "type"));
		if (!type || strcmp(type, "break"))
			continue;
		cpu = json_integer_value(json_object_get(e, "cpu"));
		planned = json_integer_value(json_object_get(e, "planned_mono_ns"));
		same = find_capture(r, cpu, planned);
		if (same) {	/* one wake-up over both thresholds: saved once */
			json_object_set_new(same, "trigger",
					    json_string("capture-above,breaktrace"));
			return;
		}
		lat = json_integer_value(json_object_get(e, "latency_ns"));
		save_window(m, t, r, dir, (int)cpu, (uint64_t)planned, (uint64_t)(planned + lat),
			    "breaktrace");
		return;
	}
}

void rtm_session_trace_print(const struct rtm_result *r, const char *dir, FILE *f)
{
	const char *type;
	char lat[16];
	json_t *e;
	size_t i;

	json_array_foreach(r->events, i, e) {
		type = json_string_value(json_object_get(e, "type"));
		if (!type || strcmp(type, "spike_capture"))
			continue;
		rtm_fmt_ns(lat, sizeof(lat),
			   (uint64_t)json_integer_value(json_object_get(e, "latency_ns")));
		fprintf(f, "rtmeasure: spike on CPU %lld, %s late (%lld events in %s/%s)%s\n",
			json_integer_value(json_object_get(e, "cpu")), lat,
			json_integer_value(json_object_get(e, "events")), dir,
			json_string_value(json_object_get(e, "file")) ?: "?",
			json_is_true(json_object_get(e, "truncated")) ?
			"; the trace buffer no longer reached back to its start: raise "
			"--trace-buffer" : "");
		fprintf(f, "rtmeasure: %s\n",
			json_string_value(json_object_get(e, "verdict")) ?: "");
	}
}
