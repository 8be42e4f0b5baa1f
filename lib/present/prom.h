/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prom - rtmeasure's figures in Prometheus' exposition formats
 *
 * Text format 0.0.4 and OpenMetrics 1.0, for a live /metrics page, a
 * node_exporter textfile or a Pushgateway push. The wake-up latency of each
 * CPU is a Prometheus histogram whose bucket bounds are edges of rtmeasure's
 * own log-linear histogram, so every cumulative count is exact (see
 * rtm_prom_edges()); max and high percentiles are gauges, samples, overruns
 * and coordinated-omission samples counters. Every series carries the target
 * labels host, kernel and preempt_model, so stock and PREEMPT_RT boxes can be
 * told apart in one query.
 */
#ifndef RTM_PROM_H
#define RTM_PROM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/error.h"
#include "core/hist.h"
#include "result/disturb.h"
#include "result/result.h"

enum rtm_prom_format {
	RTM_PROM_TEXT,		/* text/plain; version=0.0.4 */
	RTM_PROM_OPENMETRICS,	/* application/openmetrics-text; version=1.0.0 */
};

#define RTM_PROM_CT_TEXT	"text/plain; version=0.0.4; charset=utf-8"
#define RTM_PROM_CT_OPENMETRICS	"application/openmetrics-text; version=1.0.0; charset=utf-8"

/* Labels on every series, and when the counters started. */
struct rtm_prom_target {
	char host[128];
	char kernel[128];
	char preempt[32];	/* "none", "voluntary", "full", "rt", ... or "unknown" */
	char probe[16];		/* "timer"; "noise", "timerlat", "wakeup" for those runs */
	double created_s;	/* Unix time the run started (OpenMetrics _created) */
};

#define RTM_PROM_NEDGES	31
/* tasks with per-task series (comm, pid labels), the longest waits: cardinality bound */
#define RTM_PROM_WAKEUP_TASKS	20
#define RTM_PROM_NPCT	3	/* p99, p99.9, p99.99 */

/* One histogram reduced to what the page shows: cheap to copy, exact. */
struct rtm_prom_hist {
	uint64_t count;			/* samples, unplaced ones included */
	uint64_t sum_ns;		/* exact; valid when has_sum */
	bool has_sum;			/* false when some values are unknown */
	uint64_t max_ns;
	int nle;			/* bounds whose count is known (<= RTM_PROM_NEDGES) */
	uint64_t le_count[RTM_PROM_NEDGES];	/* samples <= each rtm_prom_edges() bound */
	bool pct_known[RTM_PROM_NPCT];
	uint64_t pct_ns[RTM_PROM_NPCT];
};

/* One measured CPU. */
struct rtm_prom_cpu {
	int cpu;
	struct rtm_prom_hist run;	/* the whole run so far (raw latency) */
	struct rtm_prom_hist last;	/* the latest closed interval; count 0 when none */
	bool has_last;
	uint64_t overruns;		/* periods missed entirely */
	uint64_t implied;		/* coordinated-omission samples added for them */
};

/**
 * rtm_prom_hist_from - reduce a histogram
 * @unplaced: samples beyond @h whose values are unknown (imports), 0 otherwise
 * @unplaced_above_ns: those lie at or above this value (0: unknown)
 *
 * Bounds at or above @unplaced_above_ns, the sum and percentiles whose rank
 * falls among the unplaced samples are marked unknown.
 */
void rtm_prom_hist_from(struct rtm_prom_hist *out, const struct rtm_hist *h, uint64_t unplaced,
			uint64_t unplaced_above_ns);

/* Figures of the whole run that are not per CPU; a negative value is left out. */
struct rtm_prom_run {
	int64_t trace_lost;		/* trace events lost */
	int64_t spikes_captured;	/* spike windows saved */
	const json_t *irq;		/* sections.irq of a result, or NULL */
	const json_t *noise;		/* sections.noise (or a live copy of it), or NULL */
	const json_t *timer_irq;	/* sections.timer_irq (or a live copy of it), or NULL */
	const json_t *io;		/* sections.io (rtmeasure io), or NULL */
	/*
	 * sections.wakeup (or a live copy), or NULL: the CPUs are then the box's own
	 * tasks' waits (rtmeasure_task_wakeup_*), not a probe's, with its tasks
	 */
	const json_t *wakeup;
	bool probe_cpus;		/* with @wakeup, the CPUs are a probe's (monitor --wakeup) */
	/*
	 * What disturbed the run (result/disturb.h), or NULL; rtmeasure_run_disturbed
	 * gives the keys whose bit (1 << index in rtm_disturb_keys) is in @disturb_known
	 */
	const struct rtm_disturbances *disturbed;
	unsigned int disturb_known;
};

/**
 * rtm_prom_edges - the latency histogram's bucket bounds, in ns
 *
 * 1, 1.5, 2, 3, 5 and 7 times each power of ten from 1 us to 70 ms, then
 * 100 ms; each moved up to the inclusive upper edge of the log-linear bucket
 * that holds it (at most 1/256 above the round value), so "samples <= le" is
 * a sum of whole buckets. Fills RTM_PROM_NEDGES values, ascending.
 */
void rtm_prom_edges(uint64_t *le_ns);

void rtm_prom_target_from_sysinfo(struct rtm_prom_target *t, const json_t *sysinfo,
				  const char *probe, double created_s);

/**
 * rtm_prom_write - the metrics page
 *
 * Writes the series of @n CPUs and @run to @f in @fmt (OpenMetrics ends with
 * "# EOF"). With @n 0 the wake-up latency families are left out (a noise
 * run); @run->noise adds the noise series (probe="noise"); with @run->wakeup
 * the CPUs' figures are the box's own tasks' waits, named
 * rtmeasure_task_wakeup_latency_* and without the probe's overruns, and the
 * tasks' series follow. A percentile that lies among unplaced samples is left
 * out rather than guessed, and so is the histogram's _sum when those samples exist.
 * Returns 0 or -errno of the stream.
 */
int rtm_prom_write(FILE *f, enum rtm_prom_format fmt, const struct rtm_prom_target *t,
		   const struct rtm_prom_cpu *cpus, int n, const struct rtm_prom_run *run);

/**
 * rtm_prom_write_result - the metrics of a finished result
 *
 * The same page from a results folder's result.json: counters from the run's
 * start, gauges over the whole run (no "interval" window), IRQ counts and
 * handler times from sections.irq, imported overflows as unplaced samples,
 * the noise series from sections.noise, the storage series (probe="io", a
 * histogram per operation) from sections.io.
 */
int rtm_prom_write_result(FILE *f, enum rtm_prom_format fmt, const struct rtm_result *r,
			  struct rtm_error *err);

/*
 * @run's wakeup and probe_cpus from @r's sections.wakeup (NULL without one), the
 * one rule for both: export's page of a result and the live page of monitor
 * --wakeup, whose result carries the tasks beside the timer probe's CPUs.
 */
void rtm_prom_run_wakeup(struct rtm_prom_run *run, const struct rtm_result *r);

/* A result reduced to what rtm_prom_write() takes (rtm_prom_of_result()). */
struct rtm_prom_result {
	struct rtm_prom_target t;	/* the result's host, kernel, probe, start */
	struct rtm_prom_cpu *cpus;	/* @n of them */
	int n;
	struct rtm_prom_run run;	/* its JSON points into the result */
	struct rtm_disturbances d;	/* what run.disturbed points to */
};

/**
 * rtm_prom_of_result - what rtm_prom_write_result() writes of @r, not yet written
 *
 * The one reduction of a result to a page: export writes it, and a command that
 * saves its result as it goes (wakeup, io) serves it live, so both show the same
 * series with the same labels. @pr points into @r: keep @r until it is written.
 * 0 or -ENOMEM; release with rtm_prom_result_release().
 */
int rtm_prom_of_result(struct rtm_prom_result *pr, const struct rtm_result *r);
void rtm_prom_result_release(struct rtm_prom_result *pr);

/**
 * rtm_prom_push - replace a Pushgateway group with a text-format page
 * @url: the gateway, "http://host:9091" (a trailing slash is allowed)
 * @job, @instance: the grouping labels (escaped here)
 *
 * An HTTP PUT of @body to @url/metrics/job/JOB/instance/INSTANCE through
 * libcurl, 10 s at most. Returns 0, or -EIO with the gateway's status and
 * first line of its answer (or curl's reason) in @err.
 */
int rtm_prom_push(const char *url, const char *job, const char *instance, const char *body,
		  size_t len, struct rtm_error *err);

#endif
