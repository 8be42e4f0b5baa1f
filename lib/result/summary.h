/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * summary.h - the summary table of a result (per CPU and all CPUs) and the
 * --fail-above bounds checked against it.
 */
#ifndef RTM_SUMMARY_H
#define RTM_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/error.h"
#include "result/result.h"

#define RTM_SUMMARY_NPCT 6
/* percentiles of the table: p50, p90, p99, p99.9, p99.99, p99.999 */
extern const double rtm_summary_pcts[RTM_SUMMARY_NPCT];

/* Bits of rtm_summary_row.unknown beyond the percentiles' (bit k: pct_ns[k]). */
#define RTM_SUMMARY_UNKNOWN_AVG		(1u << 8)
#define RTM_SUMMARY_UNKNOWN_STDDEV	(1u << 9)
#define RTM_SUMMARY_UNKNOWN_MIN		(1u << 10)
#define RTM_SUMMARY_UNKNOWN_MAX		(1u << 11)

struct rtm_summary_row {
	int cpu;			/* -1 for all CPUs */
	uint64_t samples;
	uint64_t overruns;
	uint64_t min_ns, max_ns;
	double avg_ns, stddev_ns;
	uint64_t pct_ns[RTM_SUMMARY_NPCT];
	/*
	 * An import whose source had samples beyond its histogram's rows (no
	 * known value): the figures those decide are unknown, their fields 0.
	 * samples is then the source's count, rows and overflows; avg the
	 * source's own figure when it states one.
	 */
	unsigned int unknown;		/* bit k: pct_ns[k]; RTM_SUMMARY_UNKNOWN_* */
	/*
	 * Bit k: percentile k has too few samples beyond it to be a number
	 * (rtm_pct_defined() of samples); pct_ns[k] keeps the nearest rank.
	 */
	unsigned int few;
	uint64_t beyond_ns;		/* unknown percentiles are at least this; 0: not known */
	uint64_t beyond;		/* samples beyond the source's rows (overflows) */
};

/* Whether percentile @k of the table (pct_ns[k]) is known (not beyond an import's rows). */
static inline bool rtm_summary_pct_known(const struct rtm_summary_row *r, int k)
{
	return !(r->unknown & (1u << k));
}

/* Whether percentile @k is a number to show: known, and with samples enough beyond it. */
static inline bool rtm_summary_pct_shown(const struct rtm_summary_row *r, int k)
{
	return rtm_summary_pct_known(r, k) && !(r->few & (1u << k));
}

/*
 * Percentile @k as every table prints it: its value in us (rtm_fmt_us(); in ns
 * with @nsecs), "-" with too few samples, or rtm_summary_fmt_unknown()'s text.
 */
void rtm_summary_fmt_pct(char *buf, size_t len, const struct rtm_summary_row *r, int k,
			 bool nsecs);
/* Why percentile @k is not a number: too few samples, or rtm_summary_unknown_reason(). */
void rtm_summary_pct_reason(char *buf, size_t len, const struct rtm_summary_row *r, int k);
/*
 * The note under a table with "-" cells (@shown: the bits of the percentiles
 * it shows), "" when it has none: "-: too few samples for that percentile,
 * p99.9 needs 10000, p99.99 needs 100000 for 10 beyond it".
 */
void rtm_summary_few_note(char *buf, size_t len, const struct rtm_summary_row *rows, int n,
			  unsigned int shown);

/*
 * What to print for an unknown figure: ">400" (the source's histogram ends at
 * 400 us; in ns with @nsecs) or "n/a" when where it ends is not known.
 */
void rtm_summary_fmt_unknown(char *buf, size_t len, const struct rtm_summary_row *r,
			     bool nsecs);
/* Why a figure of @r is unknown, one sentence. */
void rtm_summary_unknown_reason(char *buf, size_t len, const struct rtm_summary_row *r);

/**
 * rtm_summary_rows - one row per CPU plus a last row for all CPUs
 * @corrected: use the coordinated-omission corrected histograms
 *
 * Returns the number of rows (ncpus + 1) in a malloc()ed array, or -ENOMEM.
 */
int rtm_summary_rows(const struct rtm_result *r, bool corrected, struct rtm_summary_row **rows);

/*
 * The table as JSON: an unknown figure, or a percentile with too few samples,
 * is null, and the row's "unknown" object maps its key to the reason ("too few
 * samples: 9966, 100000 needed").
 */
json_t *rtm_summary_to_json(const struct rtm_result *r);

/* A --fail-above bound: "50us" (max), "max=50us", "p99.9=50us", "avg=20us". */
struct rtm_bound {
	double pct;			/* 100 for max, -1 for avg */
	uint64_t limit_ns;
	char text[48];			/* as given */
};

int rtm_bound_parse(const char *s, struct rtm_bound *b, struct rtm_error *err);
/* The all-CPU value the bound is checked against; true when it is exceeded. */
bool rtm_bound_exceeded(const struct rtm_result *r, const struct rtm_bound *b, uint64_t *value);

/**
 * rtm_bound_describe - what a bound was checked against, in words
 *
 * "p99.9 on all CPUs: 988 us > 1.00 us (CPU 1: 1.20 ms)": the metric, the
 * all-CPU value the bound is checked against, the bound, and with several CPUs
 * the CPU with the highest value of that metric ("on CPU 1" with one CPU).
 * Returns rtm_bound_exceeded().
 */
bool rtm_bound_describe(const struct rtm_result *r, const struct rtm_bound *b, char *buf,
			size_t len);

/*
 * Whether the result can be checked against the bound: a percentile bound
 * needs the samples that make the percentile a number (rtm_pct_defined(), the
 * rule behind every table's "-"); when it cannot, @why says so ("p99.99 needs
 * 100000 samples, the run has 1512") and no verdict is given.
 */
bool rtm_bound_checkable(const struct rtm_result *r, const struct rtm_bound *b, char *why,
			 size_t len);

#endif
