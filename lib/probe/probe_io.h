/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe_io.h - the storage deadline probe: one real-time thread issues a
 * request at each planned time and records how late it completed.
 *
 * The thread sleeps until an absolute CLOCK_MONOTONIC time (clock_nanosleep,
 * like the timer probe), issues one O_DIRECT pread, pwrite or fsync on a
 * descriptor the caller opened, and records per operation three figures into
 * log-linear histograms: latency from the planned issue time to completion
 * (a request issued late counts from its plan: no coordinated omission; the
 * plan is start + k * interval and is never skipped), service time from the
 * actual issue, and issue lateness. A latency above the deadline is a miss,
 * counted and kept (the first ones) with its times for the causes. The loop
 * allocates nothing and prints nothing; beyond the sleep and the clock it makes
 * the one system call it measures. Readers copy the figures under a sequence
 * counter, as for the timer probe.
 */
#ifndef RTM_PROBE_IO_H
#define RTM_PROBE_IO_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "core/hist.h"
#include "box/rt.h"
#include "probe/probe.h"
#include "result/result.h"

enum rtm_io_op {
	RTM_IO_READ,		/* sequential pread */
	RTM_IO_WRITE,		/* sequential pwrite */
	RTM_IO_RANDREAD,
	RTM_IO_RANDWRITE,
	RTM_IO_FSYNC,
	RTM_IO_NOPS
};

/* The longest --op list: the operations are issued in its order, one per interval. */
#define RTM_IO_SEQ_MAX		16
#define RTM_IO_MAX_MISSES	10000	/* misses kept with their times (the rest counted) */

const char *rtm_io_op_name(enum rtm_io_op op);
bool rtm_io_op_writes(enum rtm_io_op op);

/**
 * rtm_io_ops_parse - "read,randwrite,fsync" into the order of operations
 * @seq: room for RTM_IO_SEQ_MAX operations
 *
 * Returns the number of operations, or -EINVAL with @err naming the bad word.
 */
int rtm_io_ops_parse(const char *s, uint8_t *seq, struct rtm_error *err);

/*
 * "4k", "64KiB", "1m", "512": bytes, with k, m, g (and KiB, MiB, GiB) as powers
 * of 1024. 0 or -EINVAL with @err naming @what ("--size").
 */
int rtm_io_bytes_parse(const char *s, const char *what, uint64_t *bytes, struct rtm_error *err);

/*
 * An I/O priority: class RTM_IOPRIO_RT, _BE or _IDLE and level 0..7 (none for
 * idle); RTM_IOPRIO_NONE leaves the thread's as it is.
 */
enum { RTM_IOPRIO_NONE, RTM_IOPRIO_RT, RTM_IOPRIO_BE, RTM_IOPRIO_IDLE };

struct rtm_ioprio {
	int klass;
	int level;
};

/* "rt:4", "be:0", "be", "idle" (a class alone: level 4); -EINVAL with @err. */
int rtm_ioprio_parse(const char *s, struct rtm_ioprio *p, struct rtm_error *err);
/* "rt:4", "idle", "none" into @buf. */
char *rtm_ioprio_format(const struct rtm_ioprio *p, char *buf, size_t len);
/* The value ioprio_set(2) takes: class << 13 | level. */
int rtm_ioprio_value(const struct rtm_ioprio *p);

/* One request over the deadline, its CLOCK_MONOTONIC times. */
struct rtm_io_miss {
	uint64_t planned_ns;
	uint64_t issue_ns;
	uint64_t done_ns;
	uint64_t offset;		/* in the target, bytes */
	uint8_t op;			/* enum rtm_io_op */
};

/* What one operation recorded. */
struct rtm_io_oprec {
	uint64_t count;			/* requests that completed */
	uint64_t misses;		/* of them, latency above the deadline */
	uint64_t errors;		/* requests that failed (not in the histograms) */
	struct rtm_hist *latency;	/* planned issue to completion */
	struct rtm_hist *service;	/* actual issue to completion */
	struct rtm_hist *lateness;	/* planned to actual issue */
};

/* Everything the thread records; it is the only writer. */
struct rtm_io_rec {
	uint64_t deadline_ns;		/* 0: no deadline */
	struct rtm_io_oprec ops[RTM_IO_NOPS];	/* histograms only for the ops in use */
	uint64_t misses;		/* all operations */
	struct rtm_io_miss *miss;	/* the first @max_miss misses */
	uint32_t nmiss;
	uint32_t max_miss;
	uint64_t miss_dropped;		/* misses not kept in @miss (counted above) */
	int first_error;		/* -errno of the first failed request, 0: none */
};

/*
 * @rec zeroed, histograms for the operations of @seq, room for @max_miss misses.
 * 0 or -ENOMEM (what was allocated is freed by rtm_io_rec_release()).
 */
int rtm_io_rec_init(struct rtm_io_rec *rec, const uint8_t *seq, int nseq, uint64_t deadline_ns,
		    uint32_t max_miss);
void rtm_io_rec_release(struct rtm_io_rec *rec);

/*
 * One request into @rec: planned, issued and completed at these CLOCK_MONOTONIC
 * times, or failed with @error (-errno). An issue before its plan counts as on
 * time. No allocation.
 */
void rtm_io_rec_add(struct rtm_io_rec *rec, enum rtm_io_op op, uint64_t offset,
		    uint64_t planned_ns, uint64_t issue_ns, uint64_t done_ns, int error);

/*
 * sections.io's "ops" and "misses" from @rec (docs/result-schema.md): per
 * operation its counts and the three histograms; the kept misses with times
 * relative to @start_ns. NULL when out of memory.
 */
json_t *rtm_io_rec_ops_json(const struct rtm_io_rec *rec);
json_t *rtm_io_rec_misses_json(const struct rtm_io_rec *rec, uint64_t start_ns);

struct rtm_probe_io_opts {
	int fd;				/* the target, opened O_DIRECT by the caller */
	uint64_t region_bytes;		/* requests fall in [0, region_bytes) */
	uint32_t size;			/* bytes a request (a multiple of the block size) */
	uint32_t align;			/* the buffer's and offsets' alignment */
	uint8_t seq[RTM_IO_SEQ_MAX];	/* the operations, in turn */
	int nseq;
	uint64_t interval_ns;		/* between planned issues */
	uint64_t deadline_ns;		/* 0: none */
	uint64_t duration_ns;		/* 0: until stopped */
	uint64_t loops;			/* 0: unlimited */
	int cpu;			/* the thread's CPU */
	struct rtm_sched sched;
	struct rtm_ioprio ioprio;
	uint32_t max_misses;
	bool lock_memory;
};

/* A consistent copy of the thread's figures (the histograms when asked). */
struct rtm_io_snap {
	uint64_t requests;		/* issued so far, failed ones included */
	uint64_t misses;
	uint64_t errors;
	uint64_t last_latency_ns;
	bool running;
};

struct rtm_probe_io;

/*
 * Check @o, allocate, start the thread (pinned, its policy and I/O priority
 * set before the gate opens); the first request is planned ~100 ms later.
 * NULL with @err set, nothing left running.
 */
struct rtm_probe_io *rtm_probe_io_start(const struct rtm_probe_io_opts *o, struct rtm_error *err);
/*
 * @rec: copies of the histograms into an rtm_io_rec of the same operations, or
 * NULL; with room in its miss list the kept misses not yet in it are added.
 */
void rtm_probe_io_snapshot(const struct rtm_probe_io *p, struct rtm_io_snap *snap,
			   struct rtm_io_rec *rec);
/*
 * The kept misses from the @from-th on, up to @max of them into @out, while the
 * thread runs (a miss, once kept, never changes); how many were copied.
 */
uint32_t rtm_probe_io_misses(const struct rtm_probe_io *p, uint32_t from, struct rtm_io_miss *out,
			     uint32_t max);
uint64_t rtm_probe_io_start_ns(const struct rtm_probe_io *p);
/* The probe thread's id (trace filters), 0 before it started. */
int rtm_probe_io_tid(const struct rtm_probe_io *p);
void rtm_probe_io_stop(struct rtm_probe_io *p);
bool rtm_probe_io_done(const struct rtm_probe_io *p);
/* Join; fill r->sections.io (ops, misses, deadline, interval, ...) and r->duration_ns. */
int rtm_probe_io_finish(struct rtm_probe_io *p, struct rtm_result *r, struct rtm_error *err);
/*
 * sections.io as rtm_probe_io_finish() would fill it, from a snapshot of the
 * running thread (the probe seam's live_section): for a live reader. Call
 * from one thread only; NULL when out of memory.
 */
json_t *rtm_probe_io_live(struct rtm_probe_io *p);
void rtm_probe_io_free(struct rtm_probe_io *p);

/* The probe on the seam (probe.h); opts: struct rtm_probe_io_opts. */
extern const struct rtm_probe_ops rtm_probe_io_ops;

#endif
