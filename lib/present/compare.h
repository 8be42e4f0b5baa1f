/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - side-by-side comparison of runs: the same metrics with ratio and
 * delta per CPU and overall, the runs' fingerprints with a warning for each
 * difference that makes the comparison unfair, a confidence interval and a
 * plain verdict for each high percentile, overlay plots and compare.html.
 *
 * Each compared "run" (a side) is one measurement or several rounds of the
 * same set-up. Run 0 is the baseline: ratios are run / baseline. A result is
 * digested when it is added (its histograms merged into the side's, its
 * fingerprint, percentiles and time-series batches kept), so the caller may
 * free each result right away and only one full result is ever in memory.
 *
 * Verdicts account for how much whole runs of one box vary, not only for the
 * sampling noise inside one run: with several rounds on a side, a t interval
 * over the rounds' percentiles (the ratio of their geometric means, named so);
 * with one run on each side, an interval of the ratio of the percentiles the
 * table shows, by a block bootstrap over each run's time series intervals
 * (core/pctboot.h, compare_series.c). A run whose series keeps no per-interval
 * histograms (an older rtmeasure's, or an import) gets the interval over
 * batches of its per-interval p99, named as that statistic.
 */
#ifndef RTM_COMPARE_H
#define RTM_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/error.h"
#include "present/plot.h"
#include "result/disturb.h"
#include "result/result.h"
#include "core/stats.h"
#include "core/pctboot.h"
#include "result/summary.h"
#include "box/cost.h"

#define RTM_COMPARE_MAX_RUNS	8	/* one colour each in the plots */
#define RTM_COMPARE_NPCT	4	/* verdicts for p99, p99.9, p99.99, p99.999 */
#define RTM_COMPARE_CONF	0.95
#define RTM_COMPARE_MAX_ROUNDS	32	/* runs on one side */
#define RTM_COMPARE_BATCHES	10	/* batches a run's time series is cut into */
#define RTM_COMPARE_MIN_BATCHES	5	/* fewer on a side: no verdict */
#define RTM_COMPARE_TS_MIN_COUNT 100	/* samples an interval needs to count in a batch */
/*
 * One run per side: resampling a run's intervals (or batches of them) shows how
 * a run varies within itself, not how much whole runs of one box differ.
 * Identical 40 s runs on the development VM differed by up to 1.33x in
 * per-interval p99 with batch intervals that excluded 1
 * (tests/data/compare/identical-*), so a one-run verdict names a difference
 * only when the whole interval lies beyond this factor.
 */
#define RTM_COMPARE_BATCH_MARGIN 1.5
/* More intervals than this in a run: neighbours are added up before resampling. */
#define RTM_COMPARE_BOOT_MAX_INTERVALS 1024

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

/* What one round (one result) of a side gave. */
struct rtm_compare_round {
	uint64_t duration_ns;
	uint64_t samples, overruns;
	uint64_t overflows;		/* imported samples beyond the histogram */
	uint64_t pct_ns[RTM_COMPARE_NPCT];	/* of the all-CPU raw histogram */
	/* RTM_STATS_MIN_BEYOND samples beyond it, none unplaced */
	bool pct_ok[RTM_COMPARE_NPCT];
	/* the sampling variance of log(pct_ns) within the run, from its 95% order-statistic CI */
	double pct_logvar[RTM_COMPARE_NPCT];
};

/*
 * ---- the cost of RT (compare_cost.c): throughput beside latency.
 * A side's throughput scores (sections.throughput of `run --throughput`), one
 * row per round that has them; verdicts from an interval over runs (Welch t on
 * the logarithms of the per-run scores), and with one run per side no interval:
 * the repetitions inside one run do not show how whole runs vary.
 */
struct rtm_compare_cost {
	int nrounds;			/* rounds with a throughput section */
	int missing;			/* rounds without one */
	bool incomplete;		/* a round's phase was interrupted */
	bool workload_differs;		/* the rounds' workloads differ */
	char workload[256];		/* the first round's: stress-ng version, stressors, ... */
	int n;				/* stressors seen, in the first round's order */
	char names[RTM_COST_MAX_STRESSORS][32];
	/* bogo-ops/s of stressor names[k] in round j; NAN when that round lacks it */
	double score[RTM_COMPARE_MAX_ROUNDS][RTM_COST_MAX_STRESSORS];
};

enum rtm_cost_kind {
	RTM_COST_LOWER,			/* the run's throughput is lower than the baseline's */
	RTM_COST_HIGHER,
	RTM_COST_SAME,			/* the interval holds 1 */
	RTM_COST_NO_CI,			/* one run per side: the ratio, no interval */
	RTM_COST_UNKNOWN,		/* a side has no throughput (for this stressor) */
};

struct rtm_compare_cost_row {
	int run;			/* compared with run 0 */
	char stressor[32];		/* "" : all stressors (geometric mean of the scores) */
	enum rtm_cost_kind kind;
	double ratio;			/* run / baseline, of the geometric means over runs */
	double lo, hi;			/* RTM_COMPARE_CONF interval, NAN when none */
	struct rtm_ratio_ci ci;		/* na, nb: runs; welch; df */
	char text[512];
};

#define RTM_COMPARE_MAX_COST_ROWS ((RTM_COMPARE_MAX_RUNS - 1) * (RTM_COST_MAX_STRESSORS + 1))

/*
 * ---- noise (compare_noise.c): the sections.noise of a side's rounds, summed.
 */
#define RTM_COMPARE_NOISE_NPCT	3	/* gap-length p50, p99, p99.9 */
#define RTM_COMPARE_NOISE_NCLS	6	/* irq, softirq, nmi, thread, rt_throttling, unexplained */
#define RTM_COMPARE_NOISE_NCELLS (4 + RTM_COMPARE_NOISE_NPCT)
struct rtm_compare_noise {
	int nrounds;			/* rounds with sections.noise */
	struct rtm_hist *gaps;		/* gap lengths, all CPUs and rounds */
	uint64_t sampled_ns, noise_ns;	/* sums over the rounds (unless sums_unknown) */
	bool sums_unknown;		/* a backend that leaves them null (hwlat) */
	uint64_t max_gap_ns, gaps_n;
	double pct[RTM_COMPARE_MAX_ROUNDS];	/* per-round noise %, NAN when unknown */
	int ncauses;			/* rounds with gap causes (--trace) */
	uint64_t cause_ns[RTM_COMPARE_NOISE_NCLS];
	bool causes_incomplete;		/* a round lost trace events */
	char backend[16];		/* of the first round */
	uint64_t threshold_ns, window_ns, width_ns;
	char cpus[64];			/* the CPUs it measured, as a list ("0-1") */
	bool backend_mixed, threshold_mixed, duty_mixed, cpus_mixed;	/* the rounds differ */
	bool interrupted;		/* a round's noise phase was interrupted */
};

/* What disturbed a side's runs (result/disturb.h), one entry per key. */
struct rtm_compare_disturb {
	const char *key;		/* "shared_cpus", "interrupted", ... */
	char text[512];			/* the sentence of the first run it disturbed */
	int rounds;			/* runs of the side it disturbed; -1: the side as a whole */
};

struct rtm_compare_run {
	char label[64];
	char path[1024];		/* the rounds' paths, comma separated */
	char *fp[RTM_FP_NFIELDS];	/* malloc()ed strings; NULL when unknown */
	uint64_t duration_ns;		/* of the first round */
	int nrows;			/* CPUs + 1: the last row is all CPUs */
	struct rtm_summary_row *rows;	/* of the rounds' merged histograms */
	struct rtm_hist *all;		/* raw histogram of all CPUs and rounds */
	struct rtm_result *pool;	/* per-CPU raw histograms of all rounds */
	/* order-statistic intervals of the merged histogram (sampling noise only) */
	struct rtm_quantile_ci ci[RTM_COMPARE_NPCT];
	uint64_t overflows;		/* imported samples beyond the histogram, not in it */
	int nrounds;
	struct rtm_compare_round rounds[RTM_COMPARE_MAX_ROUNDS];
	/* the first round's time series: mean log per-interval p99 of each batch */
	int nbatches;
	double batch_log_p99[RTM_COMPARE_BATCHES];
	uint64_t batch_ns;		/* the batches' length */
	int batch_points;		/* intervals in them (all CPUs) */
	int batch_merged;		/* intervals left out: merged (p99 an upper bound) */
	/*
	 * the first round's intervals for the bootstrap, all CPUs added: interval j's
	 * buckets at j * RTM_TS_HIST_N; NULL when a CPU's series keeps no histograms
	 */
	uint64_t *boot_counts;
	int boot_n;			/* intervals */
	uint64_t boot_ns;		/* their length (the series' stride) */
	bool vm, emulated;		/* a round ran under a hypervisor / emulated (TCG) */
	int ndisturb;
	struct rtm_compare_disturb disturb[RTM_DISTURB_NKEYS];
	bool corrected_kept;		/* every round kept a corrected histogram */
	struct rtm_compare_cost cost;	/* throughput (compare_cost.c) */
	/* the timer IRQ delays of its rounds, all CPUs (compare_tirq.c); NULL: none traced */
	struct rtm_hist *tirq;
	int tirq_rounds;		/* rounds that had sections.timer_irq */
	uint64_t tirq_unmatched;	/* their starts and expiries left unpaired */
	bool tirq_incomplete;		/* a round lost trace events */
	struct rtm_compare_noise *noise;	/* NULL: no round measured noise */
};

struct rtm_compare_warning {
	enum rtm_fp_field field;	/* RTM_FP_NFIELDS: not about a fingerprint field */
	const char *id;			/* "kernel", "missed_periods", "emulated", ... */
	char text[640];			/* one line */
};

/*
 * + the emulation or VM warning, what disturbed each side (shared CPUs,
 * interrupted, missed periods) and the throughput workloads differing
 * (compare_cost.c)
 */
#define RTM_COMPARE_MAX_WARNINGS	(RTM_FP_NFIELDS + 1 + RTM_COMPARE_MAX_RUNS * 3 + 1)

enum rtm_verdict {
	RTM_VERDICT_LOWER,		/* the run's percentile is lower than the baseline's */
	RTM_VERDICT_HIGHER,
	RTM_VERDICT_SAME,		/* the interval holds 1, or too few runs/batches to say */
	RTM_VERDICT_FEW,		/* too few samples for this percentile */
};

enum rtm_compare_method {
	RTM_METHOD_NONE,		/* no interval */
	RTM_METHOD_BATCHES,		/* one run per side: batches of the time series */
	RTM_METHOD_RUNS,		/* several runs: their per-run percentiles */
	RTM_METHOD_BOOTSTRAP,		/* one run per side: block bootstrap of the table's ratio */
};

struct rtm_compare_verdict {
	int run;			/* compared with run 0 */
	double pct;
	enum rtm_verdict kind;
	double ratio;			/* run / baseline, of the percentiles in the table */
	/*
	 * the RTM_COMPARE_CONF interval (NAN when none) of ci.ratio: the table's ratio
	 * (bootstrap), or the ratio of geometric means the method is about (runs, batches)
	 */
	double ratio_lo, ratio_hi;
	enum rtm_compare_method method;
	struct rtm_ratio_ci ci;		/* na, nb: runs, batches or intervals; welch; df */
	struct rtm_pctboot boot;	/* the bootstrap's blocks and resamples */
	char text[768];			/* with what disturbed a side, when it did */
};

struct rtm_compare {
	int nruns;
	struct rtm_compare_run runs[RTM_COMPARE_MAX_RUNS];
	int nwarnings;
	struct rtm_compare_warning warnings[RTM_COMPARE_MAX_WARNINGS];
	char banner[256];		/* "" or the emulation / VM banner */
	int nverdicts;
	struct rtm_compare_verdict verdicts[(RTM_COMPARE_MAX_RUNS - 1) * RTM_COMPARE_NPCT];
	/* throughput (compare_cost.c): rows per run and stressor, one headline per run */
	bool has_cost;			/* some run has throughput scores */
	int ncost;
	struct rtm_compare_cost_row cost[RTM_COMPARE_MAX_COST_ROWS];
	char headline[RTM_COMPARE_MAX_RUNS][320];	/* "rt vs stock: p99.9 6.1x lower, ..." */
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

/**
 * rtm_compare_add_round - another round of the run added last (same set-up)
 *
 * Its histograms are merged into the run's, its percentiles kept for the
 * interval over rounds. Returns 0, or -E2BIG (more than RTM_COMPARE_MAX_ROUNDS),
 * -EINVAL (no run yet, or no CPU), -ENOMEM, with a one-line message in @err.
 */
int rtm_compare_add_round(struct rtm_compare *c, const struct rtm_result *r, const char *path,
			  struct rtm_error *err);

/*
 * A round's figures of rtm_compare_pcts from its all-CPU histogram @h (@rd->overflows
 * set first): samples, each percentile, whether it is a number, its sampling variance.
 */
void rtm_compare_round_pcts(struct rtm_compare_round *rd, const struct rtm_hist *h);

/* Fingerprint warnings and verdicts, once every run is added. */
void rtm_compare_finish(struct rtm_compare *c);

/* The verdict on one percentile of run @b against the baseline @a (used by finish). */
void rtm_compare_verdict(const struct rtm_compare_run *a, const struct rtm_compare_run *b,
			 int k, struct rtm_compare_verdict *v);

/* ---- verdicts from one run's time series (compare_series.c) */

/* The first round's intervals: bootstrap counts and batches; 0 or -ENOMEM. */
int rtm_compare_series_digest(struct rtm_compare_run *run, const struct rtm_result *r);
void rtm_compare_series_free(struct rtm_compare_run *run);
/*
 * One run per side: the interval by bootstrap when both series keep histograms,
 * else over batches (p99 only). True with v->ci set; false with v->text saying why not.
 */
bool rtm_compare_verdict_series(const struct rtm_compare_run *a, const struct rtm_compare_run *b,
				int k, struct rtm_compare_verdict *v);
/* What the interval is about ("p99", "per-run p99 (geometric mean)", ...). */
const char *rtm_compare_statistic(const struct rtm_compare_verdict *v, char *buf, size_t len);

/* Human output: fingerprints, warnings, the table, the verdicts. */
void rtm_compare_fprint(const struct rtm_compare *c, FILE *f);
/* The same as JSON (schema "rtmeasure-compare/1"). */
json_t *rtm_compare_to_json(const struct rtm_compare *c);

/* ---- the cost of RT (compare_cost.c) */

/*
 * Digest the throughput section of @r, the round just added to @run (after
 * rtm_compare_add or _add_round). 0, or -EINVAL with a message naming the key.
 */
int rtm_compare_cost_digest(struct rtm_compare_run *run, const struct rtm_result *r,
			    struct rtm_error *err);
/* Throughput rows, headlines and the workload warning (called by rtm_compare_finish). */
void rtm_compare_cost_finish(struct rtm_compare *c);
/* Human output: headlines, the throughput table and its verdicts (nothing without). */
void rtm_compare_cost_fprint(const struct rtm_compare *c, FILE *f);
/* JSON: a run's "throughput", and a comparison's (run @i against the baseline). */
json_t *rtm_compare_cost_run_json(const struct rtm_compare_run *run);
json_t *rtm_compare_cost_json(const struct rtm_compare *c, int i);
/* compare.html and compare.md: the "Latency and throughput" part. */
void rtm_compare_cost_html(const struct rtm_compare *c, FILE *f);

/* The timer IRQ delays (compare_tirq.c): p50, p99, p99.9 of each side, merged. */
#define RTM_COMPARE_TIRQ_NPCT 3
int rtm_compare_tirq_digest(struct rtm_compare_run *run, const struct rtm_result *r,
			    struct rtm_error *err);
bool rtm_compare_tirq_any(const struct rtm_compare *c);
void rtm_compare_tirq_cells(const struct rtm_compare_run *run,
			    char cells[RTM_COMPARE_TIRQ_NPCT + 2][32]);
void rtm_compare_tirq_fprint(const struct rtm_compare *c, FILE *f);
json_t *rtm_compare_tirq_run_json(const struct rtm_compare_run *run);
void rtm_compare_tirq_html(const struct rtm_compare *c, FILE *f);
void rtm_compare_tirq_md(const struct rtm_compare *c, FILE *f);
void rtm_compare_cost_md(const struct rtm_compare *c, FILE *f);

/* Noise (compare_noise.c): figures per side, a verdict on noise % over runs. */
struct rtm_compare_noise_verdict {
	bool verdict;			/* an interval over runs exists: kind is meaningful */
	enum rtm_verdict kind;		/* LOWER, HIGHER or SAME */
	double ratio, lo, hi;		/* noise % run / baseline; lo, hi: NAN without verdict */
	struct rtm_ratio_ci ci;
	char text[512];
};
/* A round's sections.noise into @run (nothing without one); -errno with @err set. */
int rtm_compare_noise_digest(struct rtm_compare_run *run, const struct rtm_result *r,
			     struct rtm_error *err);
void rtm_compare_noise_free(struct rtm_compare_run *run);
bool rtm_compare_noise_any(const struct rtm_compare *c);
/* The row of a side: noise %, noise, max gap, gaps, gap p50, p99, p99.9 (us), or why not. */
void rtm_compare_noise_cells(const struct rtm_compare_run *run,
			     char cells[RTM_COMPARE_NOISE_NCELLS][32]);
/* Run @i against the baseline; -ENOENT when a side has no noise. */
int rtm_compare_noise_verdict(const struct rtm_compare *c, int i,
			      struct rtm_compare_noise_verdict *v);
void rtm_compare_noise_fprint(const struct rtm_compare *c, FILE *f);
json_t *rtm_compare_noise_run_json(const struct rtm_compare_run *run);
/* comparisons[i - 1].noise: the verdict of run @i (null without noise on both sides). */
json_t *rtm_compare_noise_json(const struct rtm_compare *c, int i);
/* The backend, threshold and duty-cycle differences, as "warnings" entries. */
json_t *rtm_compare_noise_warnings_json(const struct rtm_compare *c);
/* The Noise section of compare.html (@html) or compare.md. */
void rtm_compare_noise_page(const struct rtm_compare *c, FILE *f, bool html);

/*
 * Noise results alone (rtmeasure noise: sections.noise, no CPU with latency):
 * a side per call (@round false), or another run of the last side (@round).
 * Such a comparison has only noise: print, JSON and pages through the
 * functions below, not rtm_compare_finish/fprint/to_json/write. 0 or -errno
 * with @err set (no sections.noise, too many runs).
 */
int rtm_compare_noise_add(struct rtm_compare *c, const struct rtm_result *r, const char *label,
			  const char *path, bool round, struct rtm_error *err);
void rtm_compare_noise_only_fprint(const struct rtm_compare *c, FILE *f);
/* schema rtmeasure-compare/1 with "kind": "noise": runs (noise), comparisons, warnings. */
json_t *rtm_compare_noise_only_json(const struct rtm_compare *c);
/* @out_dir/compare.html and compare.md (the folder checked by the caller). */
int rtm_compare_noise_only_write(const struct rtm_compare *c, const char *out_dir,
				 struct rtm_error *err);

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
