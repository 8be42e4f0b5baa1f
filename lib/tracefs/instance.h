/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * instance.h - a private tracefs instance through libtracefs.
 *
 * The instance is named rtmeasure-<pid> (or rtmeasure-<pid>-<suffix>), never
 * the top level one, and locked for its life (runlock.h); rtmeasure-<pid>.<k>
 * when that name is another live process's (another PID namespace). Stale
 * rtmeasure-* instances, whose lock is free, are removed when a new one is made.
 * Its trace clock is "mono", so event timestamps are CLOCK_MONOTONIC
 * nanoseconds and compare directly with the probes'. rtm_trace_destroy()
 * disables everything and removes the instance.
 */
#ifndef RTM_TRACE_H
#define RTM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "tracefs/events.h"
#include "tracefs/tracedec.h"


#define RTM_TRACE_MAX_FILTERS 8

/*
 * Two ways to run the instance:
 *   flight recorder  @overwrite: the buffers always hold the latest events;
 *                    stop tracing (rtm_trace_stop() or one write to
 *                    rtm_trace_off_fd()) and rtm_trace_read() the snapshot.
 *   streaming        !@overwrite: tracing stays on and the caller drains the
 *                    buffers with rtm_trace_read() often enough; what did not
 *                    fit is counted (rtm_trace_read()'s @lost,
 *                    rtm_trace_dropped()), never silently overwritten.
 */
struct rtm_trace_opts {
	const char *events;		/* presets and system:event, comma separated */
	size_t buffer_kb;		/* per CPU, 0: leave the kernel's default */
	bool overwrite;			/* flight recorder (true) or streaming */
	const char *cpus;		/* trace only these CPUs ("0-3,6"), NULL: all */
	const char *suffix;		/* a second instance of the process: rtmeasure-PID-SUFFIX
					 * (lower-case letters), NULL: rtmeasure-PID */
	/* event filters, "system:event:expression" (the kernel's filter syntax) */
	const char *filters[RTM_TRACE_MAX_FILTERS];
	int nfilters;
};

struct rtm_trace;

/*
 * RTM_TRACE_PRESETS without the optional groups this kernel lacks (ipi, nmi),
 * into @buf: what a default rtm_trace_opts.events records, as an explicit list.
 */
void rtm_trace_default_events(char *buf, size_t len);

/**
 * rtm_trace_find_tracefs - where tracefs is; mounts it at /sys/kernel/tracing
 * when it is not mounted and we may. NULL with errno set and a message naming
 * the cause and the fix (rtm_sysinfo_tracefs_problem()): not mounted, or
 * mounted but closed to this user.
 */
const char *rtm_trace_find_tracefs(struct rtm_error *err);

/**
 * rtm_trace_remove_stale - remove rtmeasure-* instances whose owner is gone
 * @removed: their names, comma separated (may be NULL)
 *
 * Staleness is decided by the instance's lock (runlock.h), not by its PID:
 * an instance whose lock file exists and can be taken is removed; one without
 * a lock file is left alone. Returns how many were removed.
 */
int rtm_trace_remove_stale(char *removed, size_t len);

/**
 * rtm_trace_create - make and configure the instance (tracing stays off)
 *
 * Unknown presets or events, a kernel without an event group, or missing
 * privileges give -errno with a one-line message; nothing is left behind.
 * The event formats are parsed at the first read (rtm_trace_read(),
 * rtm_trace_read_pages(), rtm_trace_check_clock()), which fails with -ENOENT
 * and that message when they cannot be: a run starts without waiting for them.
 */
struct rtm_trace *rtm_trace_create(const struct rtm_trace_opts *o, struct rtm_error *err);
const char *rtm_trace_name(const struct rtm_trace *t);
/*
 * Stale instances rtm_trace_create() removed on its way (killed rtmeasure
 * runs'), comma separated, "" when none: the caller says so in one line.
 */
const char *rtm_trace_stale_removed(const struct rtm_trace *t);
/*
 * That line, on @f: "rtmeasure: removed stale trace instances of a killed
 * rtmeasure: NAMES"; nothing when @t is NULL or removed none.
 */
void rtm_trace_stale_note(const struct rtm_trace *t, FILE *f);
/*
 * An open descriptor of the instance's tracing_on (owned by @t): writing "0"
 * stops the flight recorder at once, from any thread, with one write().
 */
int rtm_trace_off_fd(struct rtm_trace *t);
int rtm_trace_start(struct rtm_trace *t);
int rtm_trace_stop(struct rtm_trace *t);
/**
 * rtm_trace_check_clock - prove event times are CLOCK_MONOTONIC
 * @delta_ns: the smallest (event time - clock read before the marker write)
 *
 * Writes trace_marker events carrying CLOCK_MONOTONIC and reads them back
 * (consuming the buffer; tracing is left off). An event earlier than its
 * clock read, or over 1 ms later, is an error: the trace could not be matched
 * to the probes' wake-up times.
 */
int rtm_trace_check_clock(struct rtm_trace *t, int64_t *delta_ns, struct rtm_error *err);

/* Write to the instance's trace_marker (an ftrace:print event). */
int rtm_trace_marker(struct rtm_trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * rtm_trace_read - consume what the buffers hold, all CPUs, decoded
 * @lost: set to the events the kernel reports lost (overruns); never hidden
 *
 * Events come per CPU in time order (CPU after CPU). A corrupt page is
 * skipped and counted (rtm_trace_refused()); the pages after it are decoded.
 * Returns the number of events or -errno.
 */
long rtm_trace_read(struct rtm_trace *t, rtm_event_cb cb, void *ctx, uint64_t *lost,
		    struct rtm_error *err);
/*
 * rtm_trace_read() with @cb called for CPU @cpu's events alone (-1: all): every
 * CPU's buffer is still consumed, its pages checked and its lost events counted
 * in @lost, but the other CPUs' records are not decoded. The count returned is
 * of all CPUs' records.
 */
long rtm_trace_read_cpu(struct rtm_trace *t, int cpu, rtm_event_cb cb, void *ctx, uint64_t *lost,
			struct rtm_error *err);
/*
 * rtm_trace_read_cpu() for the events of CPU @cpu from @from_ns on (a spike's
 * window): that CPU's pages that end before @from_ns are walked as the other
 * CPUs' are, not decoded (rtm_tracedec_from); its first and last page always are.
 * @cb may still see some events before @from_ns (a page that straddles it).
 */
long rtm_trace_read_cpu_from(struct rtm_trace *t, int cpu, uint64_t from_ns, rtm_event_cb cb,
			     void *ctx, uint64_t *lost, struct rtm_error *err);

/**
 * rtm_trace_keep - keep a copy of the newest @kb KB of pages read of each CPU
 *
 * For a streaming instance that is also a flight recorder: every page a read
 * consumes (rtm_trace_read() and the others) is copied into a ring per CPU,
 * each slot allocated when first filled, so the events of a window can be
 * decoded again after the drain handed them to its consumers
 * (rtm_trace_read_kept()). Call before the first read. 0 or -errno.
 */
int rtm_trace_keep(struct rtm_trace *t, size_t kb);
bool rtm_trace_keeps(const struct rtm_trace *t);

/*
 * rtm_trace_kept_until - CLOCK_MONOTONIC when the latest whole read began: the
 * kept pages hold every event written before it (0 before the first read, or
 * when the instance keeps nothing). A window that ends later waits for the next
 * drain.
 */
uint64_t rtm_trace_kept_until(const struct rtm_trace *t);
/*
 * The kept pages of CPU @cpu decoded, oldest first, from @from_ns on as
 * rtm_trace_read_cpu_from() decodes (@cb may see a few earlier events); the
 * kernel's buffers are not read. @lost: the events the kernel lost between
 * those pages; @wrapped: older pages of the CPU were read and are no longer
 * kept. Returns the number of events decoded or -errno.
 */
long rtm_trace_read_kept(struct rtm_trace *t, int cpu, uint64_t from_ns, rtm_event_cb cb,
			 void *ctx, uint64_t *lost, bool *wrapped, struct rtm_error *err);

/*
 * Events the kernel could not keep, from per_cpu/cpuN/stats: overwritten
 * (overrun, commit overrun) or refused when full (dropped events). Read it
 * before rtm_trace_destroy(); report it, never hide it.
 */
uint64_t rtm_trace_dropped(struct rtm_trace *t);

/* Pages rtm_trace_read() skipped as corrupt since the instance was made; report them too. */
uint64_t rtm_trace_refused(const struct rtm_trace *t);

/*
 * The text libtraceevent prints for @ev (inside an rtm_trace_read() callback):
 * rtm_tracedec_print() with the instance's formats.
 */
int rtm_trace_print_event(struct rtm_trace *t, const struct rtm_event *ev, char *buf,
			  size_t len);

typedef int (*rtm_page_cb)(void *page, int size, int cpu, void *ctx);

/* Consume the raw pages of every CPU without decoding (recording, benchmarks). */
int rtm_trace_read_pages(struct rtm_trace *t, rtm_page_cb cb, void *ctx, struct rtm_error *err);

/*
 * Copy this kernel's event formats (header_page, header_event and the formats
 * of the groups the decoder reads, each group with an empty "enable" file) to
 * @dest/events, so rtm_tracedec_alloc(@dest) decodes raw pages recorded here.
 */
int rtm_trace_save_formats(const char *dest, struct rtm_error *err);

/*
 * Run the kernel tracer @name ("hwlat") in the instance's current_tracer;
 * -EBUSY when the kernel lets one instance at a time have it and another has
 * it, -ENODEV when the kernel has no such tracer. rtm_trace_destroy() puts
 * "nop" back before the instance goes.
 */
int rtm_trace_set_tracer(struct rtm_trace *t, const char *name);

/*
 * Disable the events, remove the instance, free. Safe on NULL.
 *
 * Destroy a process's instances in the reverse order of their making: an event
 * enabled in two instances has two probes on its tracepoint, and when the
 * first one registered goes while the other stays, the kernel waits an RCU
 * grace period for that event (tracepoint_remove_func(), 2 -> 1 probes): about
 * 10 ms per event here, a second for the ~90 of sched, irq and timer. The last
 * one registered goes without a wait.
 */
void rtm_trace_destroy(struct rtm_trace *t);

#endif
