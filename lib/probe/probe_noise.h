/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe_noise.h - userspace noise / hardware-latency detector, one thread per CPU.
 *
 * Each thread, pinned and real-time, reads a cycle counter (clock.h) in a busy
 * loop for --width of every --window (a duty cycle like the kernel's hwlat, so
 * the CPU is never starved and RT throttling is not relied on). Two reads
 * further apart than --threshold are a gap: time the CPU was taken from the
 * thread (an interrupt, another task, the hypervisor, firmware). Every gap is
 * recorded with its CLOCK_MONOTONIC start and length into a preallocated log
 * and the gap histogram; the loop makes no system call, takes no lock and
 * allocates nothing. Readers copy the figures through a per-thread sequence
 * counter, as for the timer probe.
 */
#ifndef RTM_PROBE_NOISE_H
#define RTM_PROBE_NOISE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/hist.h"
#include "result/result.h"
#include "box/rt.h"
#include "core/units.h"

#define RTM_NOISE_WINDOW_NS	1000000000ULL	/* --window default */
#define RTM_NOISE_WIDTH_NS	500000000ULL	/* --width default */
#define RTM_NOISE_THRESHOLD_NS	1000ULL		/* --threshold default */
#define RTM_NOISE_REPORT_NS	20000ULL	/* --report-above default */
#define RTM_NOISE_MAX_GAPS	200000		/* gaps kept per CPU with their time */

struct rtm_probe_noise_opts {
	struct rtm_cpulist cpus;	/* one thread each */
	struct rtm_sched sched;		/* of the threads (default FIFO 95) */
	uint64_t duration_ns;		/* 0: until stopped */
	uint64_t window_ns;		/* duty cycle: busy @width_ns of every @window_ns */
	uint64_t width_ns;
	uint64_t threshold_ns;		/* a gap is two reads further apart than this */
	uint64_t report_above_ns;	/* gaps listed in the summary */
	uint32_t max_gaps;		/* gaps kept per CPU with time and length */
	bool lock_memory;
	int32_t dma_latency_us;		/* held on /dev/cpu_dma_latency, -1: no */
	const char *backend_reason;	/* why this backend runs (--backend), NULL: unsaid */
};

/* The bounds of the options a busy loop is run with (rtm_noise_opts_faults()). */
#define RTM_NOISE_WINDOW_MIN_NS		10000000ULL	/* 10 ms */
#define RTM_NOISE_WINDOW_MAX_NS		3600000000000ULL	/* 1 h */
#define RTM_NOISE_WIDTH_MIN_NS		1000000ULL	/* 1 ms */
#define RTM_NOISE_THRESHOLD_MIN_NS	100ULL		/* the loop reads every few tens of ns */
#define RTM_NOISE_THRESHOLD_MAX_NS	1000000000ULL	/* 1 s */

/* What rtm_noise_opts_faults() finds, one bit each; the caller words them. */
enum rtm_noise_fault {
	RTM_NOISE_BAD_WINDOW	= 1 << 0,	/* window outside 10 ms .. 1 h */
	RTM_NOISE_BAD_WIDTH	= 1 << 1,	/* width under 1 ms */
	RTM_NOISE_WIDTH_OVER	= 1 << 2,	/* width above the window */
	RTM_NOISE_WIDTH_FULL	= 1 << 3,	/* width equal to the window: no pause, so */
						/* RT throttling takes its share from the loop */
	RTM_NOISE_BAD_THRESHOLD	= 1 << 4,	/* threshold outside 100 ns .. 1 s */
	RTM_NOISE_BAD_REPORT	= 1 << 5,	/* report_above below the threshold */
	RTM_NOISE_BAD_POLICY	= 1 << 6,	/* not a policy a busy loop runs at */
};

/*
 * The duty cycle, threshold and policy of @o against the bounds above and
 * rtm_noise_sched_ok(): an OR of enum rtm_noise_fault, 0 when all hold. A full
 * width (RTM_NOISE_WIDTH_FULL) is for the caller to allow or not.
 */
unsigned int rtm_noise_opts_faults(const struct rtm_probe_noise_opts *o);

/*
 * The policies a busy loop runs at: fifo, rr or other. Under DEADLINE the
 * kernel would stop the loop at its runtime (it would measure its own
 * throttling); BATCH and IDLE are not what a thread that minds noise runs at.
 */
bool rtm_noise_sched_ok(enum rtm_policy policy);

/*
 * The scheduling of a busy loop that follows a latency probe's @s (run
 * --noise, monitor --noise-cpus): fifo, rr and other as they are, DEADLINE
 * becomes FIFO 95, BATCH and IDLE become OTHER at nice 0.
 */
void rtm_noise_sched_of(const struct rtm_sched *s, struct rtm_sched *out);

/* One gap: the loop lost the CPU from @start_ns (CLOCK_MONOTONIC) for @len_ns. */
struct rtm_noise_gap {
	uint64_t start_ns;
	uint64_t len_ns;
};

/* What one CPU's loop recorded; the thread is its only writer. */
struct rtm_noise_rec {
	uint64_t threshold_cycles;
	uint64_t report_above_ns;
	uint64_t sampled_ns;		/* time spent in the loop (gaps included) */
	uint64_t loops;			/* counter reads */
	uint64_t windows;
	uint64_t windows_cut;		/* busy parts the wall-clock guard ended */
	uint64_t gaps;
	uint64_t noise_ns;		/* sum of the gaps' lengths */
	uint64_t max_gap_ns;
	uint64_t above_report;		/* gaps longer than report_above_ns */
	struct rtm_hist *hist;		/* gap lengths */
	struct rtm_noise_gap *log;	/* the first @max_log gaps */
	uint32_t nlog;
	uint32_t max_log;
	uint64_t dropped;		/* gaps not kept in @log (counted in the rest) */
};

/*
 * @rec zeroed with its histogram and a log of @max_gaps gaps allocated (every
 * backend's recorder: the loop's threads, hwlat's and osnoise's CPUs).
 * 0 or -ENOMEM (what was allocated is freed by rtm_noise_rec_release()).
 */
int rtm_noise_rec_init(struct rtm_noise_rec *rec, uint64_t report_above_ns, uint32_t max_gaps);
void rtm_noise_rec_release(struct rtm_noise_rec *rec);

/* One gap into @rec: histogram, sums, log. No allocation. */
void rtm_noise_rec_add(struct rtm_noise_rec *rec, uint64_t start_ns, uint64_t len_ns);

/**
 * rtm_noise_rec_scan - run the loop's gap rule over recorded counter reads
 * @reads: @n counter values, as the loop reads them (@reads[0] is the
 *	window's first read, taken at CLOCK_MONOTONIC @mono0_ns)
 *
 * What the busy loop does per read, on data: the unit tests check the gap
 * rule, the conversion and the sums without a real loop. Adds @n - 1 loops and
 * the window's span to the sampled time.
 */
void rtm_noise_rec_scan(struct rtm_noise_rec *rec, const struct rtm_counter *c,
			uint64_t mono0_ns, const uint64_t *reads, uint64_t n);

/* Figures of one CPU as a snapshot holds them. */
struct rtm_noise_cpu_snap {
	int cpu;
	uint64_t sampled_ns;
	uint64_t loops;
	uint64_t windows;
	uint64_t windows_cut;		/* busy parts the wall-clock guard ended */
	uint64_t gaps;
	uint64_t noise_ns;
	uint64_t max_gap_ns;
	uint64_t above_report;
	bool running;
};

struct rtm_probe_noise;

/* Calibrate the counter, start the threads (aligned ~100 ms later). */
struct rtm_probe_noise *rtm_probe_noise_start(const struct rtm_probe_noise_opts *o,
					      struct rtm_error *err);
/*
 * The same with the counter's calibration given (@counter; NULL: calibrate):
 * a caller that calibrated already, or a test that gives a wrong one (the
 * busy part's wall-clock guard).
 */
struct rtm_probe_noise *rtm_probe_noise_start_with(const struct rtm_probe_noise_opts *o,
						   const struct rtm_counter *counter,
						   struct rtm_error *err);
void rtm_probe_noise_snapshot(const struct rtm_probe_noise *p, int i,
			      struct rtm_noise_cpu_snap *snap, struct rtm_hist *hist);
/*
 * The gaps CPU index @i logged from the @from-th on (at most @max, into @out),
 * while the thread runs: the log only grows, so entries below the count read
 * under the sequence counter stay as they are. Returns how many were copied.
 */
uint32_t rtm_probe_noise_gaps(const struct rtm_probe_noise *p, int i, uint32_t from,
			      struct rtm_noise_gap *out, uint32_t max);
/* CLOCK_MONOTONIC of the first window (the gaps' times are relative to it in the result). */
uint64_t rtm_probe_noise_start_ns(const struct rtm_probe_noise *p);
/* The CPU index @i measures. */
int rtm_probe_noise_cpu(const struct rtm_probe_noise *p, int i);
/* CPUs measured (thread indexes 0..n-1). */
int rtm_probe_noise_ncpus(const struct rtm_probe_noise *p);
void rtm_probe_noise_stop(struct rtm_probe_noise *p);
bool rtm_probe_noise_done(const struct rtm_probe_noise *p);
/* Join and fill r->sections.noise (schema: docs/result-schema.md). */
int rtm_probe_noise_finish(struct rtm_probe_noise *p, struct rtm_result *r,
			   struct rtm_error *err);
void rtm_probe_noise_free(struct rtm_probe_noise *p);

/* ---- noise_summary.c: sections.noise for programs (from a run or a loaded result) */

/* The section without histograms and gap lists: --json's "noise". */
json_t *rtm_noise_summary_json(const json_t *noise);

#endif
