/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_priv.h - what compare.c (digest, verdicts, text, JSON) and
 * compare_pages.c (plots, HTML, Markdown) share; not for other modules.
 */
#ifndef RTM_COMPARE_PRIV_H
#define RTM_COMPARE_PRIV_H

#include "present/compare.h"

/* The metrics of a summary row, in table order. */
enum {
	RTM_CM_SAMPLES, RTM_CM_MIN, RTM_CM_AVG, RTM_CM_P50, RTM_CM_P90, RTM_CM_P99,
	RTM_CM_P999, RTM_CM_P9999, RTM_CM_P99999, RTM_CM_MAX, RTM_CM_OVERRUNS, RTM_CM_N
};

struct rtm_compare_metric {
	const char *name;	/* table column */
	const char *key;	/* JSON key */
	bool count;		/* a count, not a latency */
};

extern const struct rtm_compare_metric rtm_compare_metrics[RTM_CM_N];
/* the columns of the tables people read */
#define RTM_CM_NTABLE 9
extern const int rtm_compare_table[RTM_CM_NTABLE];

double rtm_compare_metric(const struct rtm_summary_row *r, int m);
/* An imported run's figure that depends on samples with no known value. */
bool rtm_compare_metric_unknown(const struct rtm_summary_row *r, int m);
/* The row of CPU @cpu (-1: all CPUs) of a run, or NULL when it was not measured. */
const struct rtm_summary_row *rtm_compare_row(const struct rtm_compare_run *run, int cpu);
/* The CPU numbers of every run, ascending, once each: count (malloc()ed) or -ENOMEM. */
int rtm_compare_cpus(const struct rtm_compare *c, int **out);
/* Whether any run has more than one CPU (per-CPU rows are worth showing). */
bool rtm_compare_per_cpu(const struct rtm_compare *c);

/* Table cells: a value (us with 1 decimal, or a count), "1.23x", "+4.5". */
void rtm_compare_fmt_value(char *buf, size_t len, double v, bool count);
void rtm_compare_fmt_ratio(char *buf, size_t len, double b, double a);
void rtm_compare_fmt_delta(char *buf, size_t len, double b, double a, bool count);
/*
 * The cell of metric @m for row @r: @what 'v' its value, 'r' its ratio to
 * @base, 'd' its delta to @base; "-" when @r is NULL.
 */
void rtm_compare_cell(char *buf, size_t len, const struct rtm_summary_row *r,
		      const struct rtm_summary_row *base, int m, char what);

/* ---- what disturbed each side (compare_disturb.c, result/disturb.h) */

/* The round being digested: its disturbances merged into @run's, run->vm and emulated. */
void rtm_compare_disturb_digest(struct rtm_compare_run *run, const struct rtm_result *r);
/* A round of @run was disturbed by @key ("shared_cpus", ...). */
bool rtm_compare_disturbed(const struct rtm_compare_run *run, const char *key);
/* A warning per side and kind; the verdicts on a side with shared CPUs qualified. */
void rtm_compare_disturb_finish(struct rtm_compare *c);
/*
 * The warnings of each side and kind into @w (at most @max), named after the
 * side; not the hypervisor's or emulation's, which are the comparison's. Count.
 */
int rtm_compare_disturb_warnings(const struct rtm_compare *c, struct rtm_compare_warning *w,
				 int max);
/*
 * A verdict's @text about run @i against the baseline, of @size bytes: when a
 * side shared its CPUs with another measuring rtmeasure, it says so at its end.
 */
void rtm_compare_disturb_qualify(const struct rtm_compare *c, int i, char *text, size_t size);
/* runs[].warnings: [{id, runs, message}] */
json_t *rtm_compare_disturb_run_json(const struct rtm_compare_run *run);
/* comparisons[].shared_cpus: the labels of its sides whose CPUs were shared */
json_t *rtm_compare_disturb_shared_json(const struct rtm_compare *c, int i);

#endif
