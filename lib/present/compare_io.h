/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_io.h - storage runs (rtmeasure io, sections.io) compared: two
 * kernels, I/O schedulers or I/O priority classes, per operation.
 *
 * Each side is one run or several rounds of one set-up, the first side the
 * baseline, as in compare.h. Per operation the latency from the planned issue
 * time of each side's rounds is merged; the table shows its requests, p50,
 * p99, p99.9 (rtm_pct_defined(): "-" with too few), max and misses, and a row
 * of ratios to the baseline. Verdicts on rtm_compare_pcts use the latency
 * comparison's own statistics (rtm_compare_verdict(): a t interval over the
 * rounds' percentiles). sections.io keeps no per-interval histograms, so with
 * one run on each side there is no interval to resample and no verdict: the
 * ratio, and a line saying so.
 */
#ifndef RTM_COMPARE_IO_H
#define RTM_COMPARE_IO_H

#include <stdio.h>

#include <jansson.h>

#include "present/compare.h"

#define RTM_COMPARE_IO_MAX_OPS	8

/* What makes two storage runs comparable, in display order. */
enum rtm_cio_fp {
	RTM_CIO_HOST,
	RTM_CIO_KERNEL,
	RTM_CIO_DISK,
	RTM_CIO_TARGET,
	RTM_CIO_SCHEDULER,
	RTM_CIO_IOPRIO,
	RTM_CIO_THREAD,
	RTM_CIO_OPS,
	RTM_CIO_SIZE,
	RTM_CIO_INTERVAL,
	RTM_CIO_DEADLINE,
	RTM_CIO_DURATION,
	RTM_CIO_NFP,
};

/* One operation of a side: its rounds' latency from the plan, merged. */
struct rtm_compare_io_op {
	char name[16];
	struct rtm_hist *lat;
	uint64_t misses, errors;
	int nrounds;
	struct rtm_compare_round rounds[RTM_COMPARE_MAX_ROUNDS];
};

struct rtm_compare_io_side {
	char label[64];
	char path[1024];		/* the rounds' paths, comma separated */
	char *fp[RTM_CIO_NFP];		/* malloc()ed; rounds that differ joined by " | " */
	uint64_t duration_min_ns, duration_max_ns;
	uint64_t requests;
	int nrounds;
	bool vm;			/* a round ran under a hypervisor */
	int nops;
	struct rtm_compare_io_op ops[RTM_COMPARE_IO_MAX_OPS];
};

/* Side @side's operation @op against the baseline's, at rtm_compare_pcts[k]. */
struct rtm_compare_io_verdict {
	int side;
	char op[16];
	bool verdict;			/* an interval exists: v.kind is a verdict */
	struct rtm_compare_verdict v;	/* v.text: the verdict, or why there is none */
};

#define RTM_COMPARE_IO_MAX_VERDICTS \
	((RTM_COMPARE_MAX_RUNS - 1) * RTM_COMPARE_IO_MAX_OPS * RTM_COMPARE_NPCT)

struct rtm_compare_io {
	int nsides;
	struct rtm_compare_io_side sides[RTM_COMPARE_MAX_RUNS];
	int nwarnings;
	char warnings[RTM_CIO_NFP + 1][640];
	const char *warning_id[RTM_CIO_NFP + 1];
	int nverdicts;
	struct rtm_compare_io_verdict verdicts[RTM_COMPARE_IO_MAX_VERDICTS];
};

struct rtm_compare_io *rtm_compare_io_alloc(void);
void rtm_compare_io_free(struct rtm_compare_io *c);

/*
 * A storage run as a new side (@round false; @label names it) or another round
 * of the last side (@round). 0, or -EINVAL (no sections.io, an operation whose
 * histogram does not read back), -E2BIG, -ENOMEM, with a one-line message.
 */
int rtm_compare_io_add(struct rtm_compare_io *c, const struct rtm_result *r, const char *label,
		       const char *path, bool round, struct rtm_error *err);

/* Warnings on the set-ups and the verdicts, once every run is added. */
void rtm_compare_io_finish(struct rtm_compare_io *c);

/* The sides, the warnings, a table per operation with its ratios, the verdicts. */
void rtm_compare_io_fprint(const struct rtm_compare_io *c, FILE *f);

/* The same as JSON: schema rtmeasure-compare/1, "kind": "io". */
json_t *rtm_compare_io_json(const struct rtm_compare_io *c);

/* The table's cells of an operation: requests, p50, p99, p99.9, max (us), misses. */
#define RTM_CIO_NCELLS	6

/*
 * Side @side's cells of operation @name, as the text table has them (p50 to max
 * in us, "-" where rtm_pct_defined() says too few), or with @ratio its row of
 * ratios to the baseline; false when either side did not measure @name.
 */
bool rtm_compare_io_cells(const struct rtm_compare_io *c, int side, const char *name,
			  bool ratio, char cells[RTM_CIO_NCELLS][48]);
/* The runs side @side merged for operation @name (0: not measured there). */
int rtm_compare_io_op_runs(const struct rtm_compare_io *c, int side, const char *name);
/* A set-up field's name for people ("I/O scheduler"). */
const char *rtm_compare_io_fp_name(enum rtm_cio_fp k);

/**
 * rtm_compare_io_write - compare.html (self-contained) and compare.md of
 * storage runs into @o->out_dir: the verdicts, the set-ups side by side with
 * the warnings, per operation the table of the text output with its ratio row
 * and a plot of the sides' percentile curves (plots/compare-io-OP.*)
 *
 * All or nothing (staged). Returns 0 or -errno with a one-line message.
 */
int rtm_compare_io_write(const struct rtm_compare_io *c, const struct rtm_compare_opts *o,
			 struct rtm_error *err);

#endif
