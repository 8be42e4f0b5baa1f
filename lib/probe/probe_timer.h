/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe_timer.h - cyclictest-style timer wake-up latency probe, one thread per CPU.
 *
 * Each thread sleeps until an absolute CLOCK_MONOTONIC time (clock_nanosleep,
 * a timerfd or a POSIX timer signal), reads the clock on wake-up and records
 * latency = wake-up time - planned time, in nanoseconds, into its own raw and
 * coordinated-omission corrected histograms. Missed periods are counted as
 * overruns. The loop allocates nothing, shares no lock with other CPUs and makes
 * no system call beyond the sleep; a reader takes per-CPU snapshots through a
 * sequence counter without stopping the probes.
 */
#ifndef RTM_PROBE_TIMER_H
#define RTM_PROBE_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "core/hist.h"
#include "box/rt.h"
#include "core/units.h"

enum rtm_timer_mode {
	RTM_TIMER_NANOSLEEP,	/* clock_nanosleep(TIMER_ABSTIME) */
	RTM_TIMER_TIMERFD,	/* timerfd, absolute first expiry, periodic */
	RTM_TIMER_SIGNAL,	/* POSIX timer delivering a signal to the thread */
};

const char *rtm_timer_mode_name(enum rtm_timer_mode m);
int rtm_timer_mode_parse(const char *s, enum rtm_timer_mode *m, struct rtm_error *err);

struct rtm_probe_timer_opts {
	struct rtm_cpulist cpus;	/* CPUs to measure (one thread each) */
	uint64_t interval_ns;		/* period of the first thread */
	uint64_t distance_ns;		/* added to the period of each further thread */
	struct rtm_sched sched;		/* policy and priority of the probe threads */
	enum rtm_timer_mode mode;
	uint64_t duration_ns;		/* 0: until stopped or @loops */
	uint64_t loops;			/* 0: unlimited */
	uint64_t break_ns;		/* stop at the first sample above, 0: never */
	bool lock_memory;		/* mlockall + prefault (default true) */
	int32_t dma_latency_us;		/* held on /dev/cpu_dma_latency while running, -1: no */
	int trace_off_fd;		/* tracing_on of a trace instance, written "0" by the
					 * thread that hits -b (the only call besides the
					 * sleep, made once as the loop ends); -1: none */
	uint64_t log_above_ns;		/* log samples above this with their time, 0: no */
	uint32_t log_max;		/* entries kept per CPU (the first ones) */
	uint64_t capture_ns;		/* --capture-above: stop the flight recorder (one
					 * write to @trace_off_fd) at a sample above this and
					 * keep measuring, 0: no */
	uint32_t capture_max;		/* at most this many captures per CPU */
	uint64_t capture_holdoff_ns;	/* no capture on a CPU sooner than this after its
					 * last one was saved (lets the recorder fill up
					 * again); other CPUs stay armed */
	uint64_t late_ns;		/* the census: each wake-up above this is handed to
					 * the reader (rtm_probe_timer_late_take()), 0: no */
};

/* Late wake-ups a CPU's ring holds for the reader (a power of two). */
#define RTM_PROBE_LATE_RING	4096

/* One logged wake-up (--log-above). */
struct rtm_probe_spike {
	uint64_t planned_ns;		/* CLOCK_MONOTONIC of the planned wake-up */
	uint64_t latency_ns;
};

/* Snapshot of one probe thread, taken without stopping it. */
struct rtm_probe_cpu_snap {
	int cpu;
	uint64_t samples;
	uint64_t overruns;
	uint64_t last_ns;		/* latest latency */
	uint64_t implied;		/* coordinated-omission samples added so far */
	bool running;
	int error;			/* -errno if the thread failed to start */
};

/* A wake-up over a bound: the one that hit -b/--breaktrace, or a capture's. */
struct rtm_probe_hit {
	bool hit;
	int cpu;
	uint64_t latency_ns;
	uint64_t planned_ns;		/* CLOCK_MONOTONIC of the planned wake-up */
	uint64_t woke_ns;		/* CLOCK_MONOTONIC of the actual wake-up */
	uint64_t sample;		/* index of the sample on its CPU */
	bool trace_off_failed;		/* writing tracing_on failed */
};

struct rtm_probe_timer;

/**
 * rtm_probe_timer_start - create and start one RT thread per CPU
 *
 * All threads start aligned on a common start time shortly after the call.
 * Returns NULL with a one-line message (a missing privilege, an offline CPU)
 * when any thread cannot be set up; nothing is left running then.
 */
struct rtm_probe_timer *rtm_probe_timer_start(const struct rtm_probe_timer_opts *o,
					      struct rtm_error *err);

/* CLOCK_MONOTONIC ns of the aligned start (the first planned wake-up). */
uint64_t rtm_probe_timer_start_ns(const struct rtm_probe_timer *p);
int rtm_probe_timer_ncpus(const struct rtm_probe_timer *p);

/* Ask every thread to stop after its current sleep; does not wait. */
void rtm_probe_timer_stop(struct rtm_probe_timer *p);

/* True once every thread has left its loop (duration, loops or break reached). */
bool rtm_probe_timer_done(const struct rtm_probe_timer *p);

/**
 * rtm_probe_timer_snapshot - consistent copy of thread @i's state
 * @raw, @corrected: where to copy the histograms (either may be NULL)
 */
void rtm_probe_timer_snapshot(const struct rtm_probe_timer *p, int i,
			      struct rtm_probe_cpu_snap *snap, struct rtm_hist *raw,
			      struct rtm_hist *corrected);

void rtm_probe_timer_break_info(const struct rtm_probe_timer *p, struct rtm_probe_hit *b);

/**
 * rtm_probe_timer_capture_pending - a probe stopped the flight recorder
 *
 * True when a sample above @capture_ns claimed a capture: tracing is off and
 * no other capture is taken until rtm_probe_timer_capture_done(). The probes
 * keep measuring meanwhile.
 */
bool rtm_probe_timer_capture_pending(const struct rtm_probe_timer *p,
				     struct rtm_probe_hit *c);

/**
 * rtm_probe_timer_capture_done - the pending capture is saved
 *
 * Call after tracing is on again. Re-arms the captures, the capturing CPU's
 * after its hold-off, unless every CPU took @capture_max captures. Returns the number taken so far.
 */
uint32_t rtm_probe_timer_capture_done(struct rtm_probe_timer *p);

/*
 * Change the capture bound (0: none) and the tracing_on descriptor a capture
 * writes "0" to (-1: no trace, the capture only notes the wake-up) while the
 * probes run; the live monitor's alert threshold and tracing switch.
 */
void rtm_probe_timer_set_capture(struct rtm_probe_timer *p, uint64_t capture_ns,
				 int trace_off_fd);

/**
 * rtm_probe_timer_late_take - the wake-ups of thread @i above @late_ns since the last take
 * @out: room for @max entries, oldest first
 * @dropped: set to the wake-ups the thread could not keep so far (its ring was full)
 *
 * One reader at a time; the probes go on meanwhile. Returns the number taken.
 */
uint32_t rtm_probe_timer_late_take(struct rtm_probe_timer *p, int i, struct rtm_probe_spike *out,
				   uint32_t max, uint64_t *dropped);

/**
 * rtm_probe_timer_spikes - the logged wake-ups of thread @i (after join only)
 * @dropped: set to the number of samples above the threshold not kept
 *
 * Returns the number of entries at *@log.
 */
uint32_t rtm_probe_timer_spikes(const struct rtm_probe_timer *p, int i,
				const struct rtm_probe_spike **log, uint64_t *dropped);

/* Stop, join all threads and release everything (the snapshots stay valid). */
void rtm_probe_timer_join(struct rtm_probe_timer *p);
void rtm_probe_timer_free(struct rtm_probe_timer *p);

#endif
