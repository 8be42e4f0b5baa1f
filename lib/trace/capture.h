/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * capture.h - save the trace events around a latency spike.
 *
 * After -b stopped the run (and the flight recorder with it), the events of the
 * spike's CPU from before the planned wake-up to after the actual wake-up are
 * written as DIR/spikes/spike-NNN.txt (one event a line, readable like
 * trace-cmd report, each printed by libtraceevent from the event's own format)
 * and spike-NNN.json (the same events as JSON objects, with that text as "info").
 */
#ifndef RTM_CAPTURE_H
#define RTM_CAPTURE_H

#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "tracefs/instance.h"

struct rtm_spike_window {
	int cpu;
	uint64_t planned_ns;		/* CLOCK_MONOTONIC of the planned wake-up */
	uint64_t woke_ns;		/* CLOCK_MONOTONIC of the actual wake-up */
	uint64_t before_ns;		/* how far before the planned wake-up to start */
	uint64_t after_ns;		/* how far after the wake-up to end */
	char probe_comm[32];		/* the probe thread's name, for the analysis */
	const char *preempt_model;	/* the kernel's ("none", ...; NULL: unknown) */
	const char *own_name;		/* NULL, or how the analysis names this process's
					 * other threads ("this monitor": rtm_analysis_own()) */
};

/* How far before the planned wake-up a window starts: max(@interval_ns, 1 ms). */
uint64_t rtm_spike_window_before_ns(uint64_t interval_ns);

/**
 * rtm_spike_window_init - the window rtmeasure saves around a timer probe's spike
 * @interval_ns: the probe's period
 *
 * From max(@interval_ns, 1 ms) before the planned wake-up (the timer's arming
 * and what ran before it) to 200 us after the actual one (the probe's return),
 * on @cpu, whose probe thread is "rtm-probe/<cpu>".
 */
void rtm_spike_window_init(struct rtm_spike_window *w, int cpu, uint64_t planned_ns,
			   uint64_t woke_ns, uint64_t interval_ns, const char *preempt_model);

/* The JSON form of one decoded event. */
json_t *rtm_event_to_json(const struct rtm_event *ev);

/**
 * rtm_events_from_json - events back from a spike file's "events" array
 *
 * Names point into @arr, which must outlive the events. Returns 0 with a
 * malloc()ed array in @out, or -EINVAL with a message naming the bad entry.
 */
int rtm_events_from_json(const json_t *arr, struct rtm_event **out, size_t *n,
			 struct rtm_error *err);

/**
 * rtm_capture_window - read the stopped trace and save the spike's window
 * @index: the spike's number (files spike-<index>.txt/.json, 3 digits)
 *
 * The window is analysed (analysis.h); the analysis goes into the .json file and
 * its verdict into the summary. With @w->own_name, the threads of this process
 * are named so (their ids saved as "own_tids", the name as "own_name"). Returns a
 * summary object for result.json ({"type": "spike_capture", "cpu", "file", "events",
 * "lost", "verdict", ...}) or NULL with a one-line message in @err. With @dir NULL
 * nothing is saved (nor are the events printed as text): the summary, without "file",
 * for a reader that keeps no files (the monitor without -o).
 */
json_t *rtm_capture_window(struct rtm_trace *t, const struct rtm_spike_window *w, int index,
			   const char *dir, struct rtm_error *err);

#endif
