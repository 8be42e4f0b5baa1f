/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - side-by-side comparison of runs: the same metrics with ratio and
 * delta per CPU and overall, the runs' fingerprints with a warning for each
 * difference that makes the comparison unfair, a confidence interval and a
 * plain verdict for each high percentile, overlay plots and compare.html.
 *
 * Run 0 is the baseline: ratios are run / baseline. A run is digested when it
 * is added (summary rows, the all-CPU histogram, fingerprint), so the caller
 * may free each result right away and only one full result is ever in memory.
 */
#ifndef RTM_COMPARE_H
#define RTM_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "error.h"
#include "plot.h"
#include "result.h"
#include "stats.h"
#include "summary.h"

#define RTM_COMPARE_MAX_RUNS	8	/* one colour each in the plots */
#define RTM_COMPARE_NPCT	4	/* verdicts for p99, p99.9, p99.99, p99.999 */
#define RTM_COMPARE_CONF	0.95

extern const double rtm_compare_pcts[RTM_COMPARE_NPCT];

/* The facts that make two runs comparable, in display order. */
enum rtm_fp_field {
	RTM_FP_HOST,
	RTM_FP_KERNEL,
	RTM_FP_PREEMPT,
	RTM_FP_CMDLINE,
	RTM_FP_CPU_MODEL,
	RTM_FP_NCPUS,
	RTM_FP_VM,
	RTM_FP_ISOLCPUS,
	RTM_FP_NOHZ_FULL,
	RTM_FP_LOAD,
	RTM_FP_MEASURED,
	RTM_FP_INTERVAL,
	RTM_FP_SCHED,
	RTM_FP_MODE,
	RTM_FP_DURATION,
	RTM_FP_NFIELDS,
};

struct rtm_fp_info {
	const char *id;		/* JSON key and warning id: "kernel", "sched", ... */
	const char *name;	/* for people: "kernel", "scheduling", ... */
	const char *unfair;	/* why a difference makes it unfair; NULL: shown only */
};

extern const struct rtm_fp_info rtm_fp_fields[RTM_FP_NFIELDS];

struct rtm_compare_run {
	char label[64];
	char path[256];
	char *fp[RTM_FP_NFIELDS];	/* malloc()ed strings; NULL when unknown */
	uint64_t duration_ns;
	int nrows;			/* CPUs + 1: the last row is all CPUs */
	struct rtm_summary_row *rows;
	struct rtm_hist *all;		/* raw histogram of all CPUs */
	struct rtm_quantile_ci ci[RTM_COMPARE_NPCT];	/* at RTM_COMPARE_CONF */
	/* at (1 + RTM_COMPARE_CONF) / 2, so a ratio of two covers with RTM_COMPARE_CONF */
	struct rtm_quantile_ci ci_pair[RTM_COMPARE_NPCT];
	uint64_t overflows;		/* imported samples beyond the histogram, not in it */
};

struct rtm_compare_warning {
	enum rtm_fp_field field;
	char text[640];			/* one line */
};

enum rtm_verdict {
	RTM_VERDICT_LOWER,		/* the run's percentile is lower than the baseline's */
	RTM_VERDICT_HIGHER,
	RTM_VERDICT_SAME,		/* the intervals overlap: not distinguishable */
	RTM_VERDICT_FEW,		/* too few samples for this percentile */
};

struct rtm_compare_verdict {
	int run;			/* compared with run 0 */
	double pct;
	enum rtm_verdict kind;
	double ratio;			/* run / baseline */
	double ratio_lo, ratio_hi;	/* its RTM_COMPARE_CONF interval (not for FEW) */
	char text[256];
};

struct rtm_compare {
	int nruns;
	struct rtm_compare_run runs[RTM_COMPARE_MAX_RUNS];
	int nwarnings;
	struct rtm_compare_warning warnings[RTM_FP_NFIELDS];
	int nverdicts;
	struct rtm_compare_verdict verdicts[(RTM_COMPARE_MAX_RUNS - 1) * RTM_COMPARE_NPCT];
};

/* alloc/free act on memory only. */
struct rtm_compare *rtm_compare_alloc(void);
void rtm_compare_free(struct rtm_compare *c);

/**
 * rtm_compare_add - digest one run (the first added is the baseline)
 * @label: its name in tables, plots and verdicts
 * @path: where it came from (shown, may be NULL)
 *
 * Returns 0, or -E2BIG (more than RTM_COMPARE_MAX_RUNS), -EINVAL (no CPU),
 * -ENOMEM, with a one-line message in @err.
 */
int rtm_compare_add(struct rtm_compare *c, const struct rtm_result *r, const char *label,
		    const char *path, struct rtm_error *err);

/* Fingerprint warnings and verdicts, once every run is added. */
void rtm_compare_finish(struct rtm_compare *c);

/* The verdict on one percentile of run @b against the baseline @a (used by finish). */
void rtm_compare_verdict(const struct rtm_compare_run *a, const struct rtm_compare_run *b,
			 int k, struct rtm_compare_verdict *v);

/* Human output: fingerprints, warnings, the table, the verdicts. */
void rtm_compare_fprint(const struct rtm_compare *c, FILE *f);
/* The same as JSON (schema "rtmeasure-compare/1"). */
json_t *rtm_compare_to_json(const struct rtm_compare *c);

/* A ratio or factor for people: "1.05", "4.1", "12". */
void rtm_compare_fmt_factor(char *buf, size_t len, double x);

struct rtm_compare_opts {
	const char *out_dir;		/* compare.html, compare.md and plots/ go here */
	unsigned int formats;		/* 1 << enum rtm_plot_format */
	int width, height;		/* image size in pixels */
	bool log_x;			/* logarithmic latency axis (default linear) */
};

/**
 * rtm_compare_write - overlay plots (histograms, percentile curves; one colour
 * per run), compare.html (self-contained) and compare.md
 *
 * Returns 0 or -errno with a one-line message (gnuplot missing or failing included).
 */
int rtm_compare_write(const struct rtm_compare *c, const struct rtm_compare_opts *o,
		      struct rtm_error *err);

#endif
