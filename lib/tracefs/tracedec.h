/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracedec.h - decode raw ftrace ring-buffer pages into rtmeasure events.
 *
 * The event formats are parsed once by libtraceevent (from a live tracefs or
 * from a recorded copy of its events/ tree); where each field lies is copied
 * once per event type, so decoding a record is a few direct loads and never
 * formats text. Pages are walked in place, every entry checked against the
 * page's commit (libtraceevent's kbuffer trusts it, and needs a copy to be safe).
 */
#ifndef RTM_TRACEDEC_H
#define RTM_TRACEDEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

enum rtm_ev_type {
	RTM_EV_OTHER,			/* an event we do not interpret */
	RTM_EV_SCHED_SWITCH,
	RTM_EV_SCHED_WAKEUP,		/* sched_wakeup and sched_wakeup_new */
	RTM_EV_SCHED_WAKING,
	RTM_EV_IRQ_ENTRY,		/* irq:irq_handler_entry */
	RTM_EV_IRQ_EXIT,
	RTM_EV_SOFTIRQ_ENTRY,
	RTM_EV_SOFTIRQ_EXIT,
	RTM_EV_SOFTIRQ_RAISE,
	RTM_EV_HRTIMER_ENTRY,		/* timer:hrtimer_expire_entry */
	RTM_EV_HRTIMER_EXIT,
	RTM_EV_VECTOR_ENTRY,		/* irq_vectors:*_entry (local_timer, reschedule, ...) */
	RTM_EV_VECTOR_EXIT,
	RTM_EV_IPI_SEND,		/* ipi:ipi_send_cpu / ipi_send_cpumask / ipi_raise */
	RTM_EV_NMI,			/* nmi:nmi_handler */
	RTM_EV_PRINT,			/* ftrace:print (trace_marker) */
	RTM_EV_HRTIMER_START,		/* timer:hrtimer_start (appended: older tables stay in order) */
	RTM_EV_HWLAT,			/* ftrace:hwlat, one sample of the hwlat tracer */
	RTM_EV_OSNOISE,			/* ftrace:osnoise, one period of the osnoise tracer */
	RTM_EV_OSNOISE_SAMPLE,		/* osnoise:sample_threshold, one noise above the threshold */
	RTM_EV_TIMERLAT,		/* ftrace:timerlat, one sample of the timerlat tracer */
	RTM_EV_BLOCK_INSERT,		/* block:block_rq_insert, a request into the I/O scheduler */
	RTM_EV_BLOCK_ISSUE,		/* block:block_rq_issue, a request to the device driver */
	RTM_EV_BLOCK_COMPLETE,		/* block:block_rq_complete */
	RTM_EV_NTYPES,
};

#define RTM_COMM_LEN 16

struct rtm_event {
	uint64_t ts_ns;			/* trace clock (mono: CLOCK_MONOTONIC) */
	int cpu;
	/*
	 * common_pid: the task the event was recorded in (0: the idle task, or an
	 * interrupt that came while it ran; 0 too for events read back from JSON)
	 */
	int pid;
	enum rtm_ev_type type;
	const char *system;		/* e.g. "sched" (owned by the decoder) */
	const char *name;		/* e.g. "sched_switch" */
	/*
	 * The record as the kernel wrote it: valid only inside the decoder's
	 * callback (NULL for events read back from JSON), for rtm_tracedec_print().
	 */
	const void *raw;
	int raw_size;
	/*
	 * The event's own text from libtraceevent (its format's print fmt), kept by
	 * whoever formatted it (capture, a spike file); NULL when not formatted.
	 */
	const char *info;
	union {
		struct {
			int prev_pid, prev_prio, next_pid, next_prio;
			int64_t prev_state;
			char prev_comm[RTM_COMM_LEN], next_comm[RTM_COMM_LEN];
		} sw;
		struct {
			int pid, prio, target_cpu;
			char comm[RTM_COMM_LEN];
		} wakeup;
		struct {
			int irq, ret;
			char name[32];
		} irq;
		struct {
			unsigned int vec;
		} softirq;
		struct {
			uint64_t hrtimer, function, now;
		} hrtimer;
		struct {
			/* expires: the hard expiry; softexpires: the earliest (timer slack) */
			uint64_t hrtimer, function;
			int64_t expires, softexpires;
			unsigned int mode;
		} hrstart;
		struct {
			int vector;
		} vector;
		struct {
			uint64_t handler, delta_ns;
		} nmi;
		struct {
			uint64_t ip;
			char buf[128];
		} print;
		struct {
			/* the sample's largest gaps inside / between counter reads, us */
			uint64_t inner_us, outer_us;
			uint64_t nmi_total_us;	/* time in NMIs during the sample, us */
			unsigned int nmi_count, seqnum;
			unsigned int count;	/* gaps above tracing_thresh in the sample */
			int64_t tv_sec, tv_nsec; /* CLOCK_REALTIME when it was taken */
		} hwlat;
		struct {
			/* one period's figures, us, and the interference counts by cause */
			uint64_t noise_us, runtime_us, max_sample_us;
			unsigned int hw, nmi, irq, softirq, thread;
		} osnoise;
		struct {
			/* the osnoise tracer's clock (not mono), length, interferences */
			uint64_t start_ns, duration_ns, interference;
		} osample;
		struct {
			/* expiry to the IRQ (context 0) or to the thread running (1), ns */
			uint64_t latency_ns;
			unsigned int seqnum;	/* the CPU's period number (IRQ and thread alike) */
			int context;		/* 0 irq, 1 thread, 2 user (later kernels) */
		} timerlat;
		struct {
			uint64_t sector;
			uint32_t dev;		/* the kernel's dev_t: major << 20 | minor */
			uint32_t nr_sector;
			int ioprio;		/* class << 13 | level; -1: the format has none */
			int error;		/* complete: -errno, 0 */
			char rwbs[12];		/* "WS", "R", "FF", ... */
			char comm[RTM_COMM_LEN];	/* insert, issue: the task in whose
							 * context it happened; "" on complete */
		} blk;
	};
};

struct rtm_tracedec;

/**
 * rtm_tracedec_alloc - load event formats
 * @tracing_dir: a tracefs mount or a recorded copy with events/header_page and
 *               events/<system>/<event>/format
 *
 * Loads the systems rtmeasure interprets (sched, irq, irq_vectors, timer, ipi,
 * nmi, ftrace) that exist there. NULL with a message in @err when nothing loads.
 */
struct rtm_tracedec *rtm_tracedec_alloc(const char *tracing_dir, struct rtm_error *err);

/**
 * rtm_tracedec_alloc_systems - load event formats, with more systems
 * @extra: NULL-terminated list of further event systems to load (e.g. the ones
 *         the user enabled with --trace-events), or NULL
 *
 * Events of those systems are decoded as RTM_EV_OTHER and can be printed with
 * rtm_tracedec_print().
 */
struct rtm_tracedec *rtm_tracedec_alloc_systems(const char *tracing_dir,
						const char *const *extra,
						struct rtm_error *err);
void rtm_tracedec_free(struct rtm_tracedec *d);

/* Sub-buffer (page) size the formats describe; raw reads come in this unit. */
int rtm_tracedec_page_size(const struct rtm_tracedec *d);

/*
 * rtm_tracedec_page_half - whether @page (as a read gave it) holds records for
 * at least half its room. A page the writer left holds nearly all of it (it
 * moved on when the next record did not fit), unless a record over half a page
 * followed it (none of the events rtmeasure enables comes near); a read under
 * half a page is of the writer's own page, or the rest of a page an earlier
 * read took part of (rtm_trace_read_pages() tells the two apart).
 */
bool rtm_tracedec_page_half(const struct rtm_tracedec *d, const void *page);

/* The time stamp in @page's header: its first record's time (a later page's is later). */
uint64_t rtm_tracedec_page_ts(const struct rtm_tracedec *d, const void *page);

typedef int (*rtm_event_cb)(const struct rtm_event *ev, void *ctx);

/**
 * rtm_tracedec_page - decode one raw ring-buffer page of CPU @cpu
 * @lost: incremented by the events the kernel reports as lost before this page
 *
 * Calls @cb for every record, in order; a non-zero return stops the walk and is
 * returned. Returns the number of records decoded or -errno: -EINVAL for a
 * corrupt page, whose header claims more record bytes than the page holds
 * (nothing decoded), or with a record beyond those bytes or shorter than its
 * event's fields (the records before it were decoded). Each -EINVAL page is
 * counted (rtm_tracedec_refused()), so a reader can tell a corrupt page, which
 * it skips, from a callback's own -EINVAL, which stops it.
 */
int rtm_tracedec_page(struct rtm_tracedec *d, void *page, int cpu, rtm_event_cb cb, void *ctx,
		      uint64_t *lost);

/*
 * A reader that wants one CPU's events from @from_ns on (a spike's window): a page
 * whose records all lie before @from_ns is walked, checked and its lost events
 * counted as rtm_tracedec_page() with no callback does, but not decoded. A page
 * ends no later than the next one begins, so each is held until the next shows
 * where it ends; a CPU's first page is always decoded (its oldest event says how
 * far back the buffer reaches), and its last when the reader ends. Zero it, set
 * @from_ns, feed pages in order with rtm_tracedec_from_page(), then call
 * rtm_tracedec_from_end() once; rtm_tracedec_from_free() after.
 */
struct rtm_tracedec_from {
	uint64_t from_ns;
	char *held;			/* the page waiting for its successor */
	int held_cpu;			/* its CPU */
	bool held_first;		/* it is its CPU's first page */
	bool holding;
	uint64_t decoded, walked;	/* pages, for the reader's figures and the tests */
};

/*
 * Feed @page of CPU @cpu: the page held before is decoded or walked. Returns what
 * rtm_tracedec_page() returned for it (0 when none was held), -ENOMEM without
 * room to hold the page.
 */
int rtm_tracedec_from_page(struct rtm_tracedec *d, struct rtm_tracedec_from *f, const void *page,
			   int cpu, rtm_event_cb cb, void *ctx, uint64_t *lost);
/* The held page decoded (the last of its CPU); as rtm_tracedec_from_page(). */
int rtm_tracedec_from_end(struct rtm_tracedec *d, struct rtm_tracedec_from *f, rtm_event_cb cb,
			  void *ctx, uint64_t *lost);
void rtm_tracedec_from_free(struct rtm_tracedec_from *f);

/* Pages rtm_tracedec_page() refused as corrupt since the decoder was made. */
uint64_t rtm_tracedec_refused(const struct rtm_tracedec *d);

/**
 * rtm_tracedec_print - the event's text as libtraceevent prints it
 * @ev: an event inside the decoder's callback (its raw record is needed)
 *
 * Writes the event's fields through its own print format (what the kernel's
 * "trace" file shows after the event name), for every event the formats
 * describe, including those rtmeasure does not interpret. Returns the length,
 * or -EINVAL when the event carries no raw record or its format is unknown.
 * For output only: it formats text, never on a hot path.
 */
int rtm_tracedec_print(struct rtm_tracedec *d, const struct rtm_event *ev, char *buf,
		       size_t len);

const char *rtm_ev_type_name(enum rtm_ev_type t);

/* Our type of a system:event name (RTM_EV_OTHER for the rest). */
enum rtm_ev_type rtm_ev_type_of(const char *system, const char *name);

/*
 * One line in the manner of trace-cmd report: "  cpu 1  1234.567890123  sched_switch:
 * prev_comm=... ==> next_comm=...": the event's libtraceevent text (@ev->info) when it
 * has one, else the fields rtmeasure decoded. For output only, never on a hot path.
 */
int rtm_event_format(const struct rtm_event *ev, char *buf, size_t len);

#endif
