/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * import_priv.h - what the importers share: the histogram columns a parser
 * fills from its source, and the code that turns them into a result.
 *
 * A parser reads its format into a struct imp_set (one struct imp_col per CPU,
 * thread or rtla column), in nanoseconds: a row "lo_ns" stands for the values
 * [lo_ns, lo_ns + row_width_ns), a min/max value for [v_ns, v_ns + val_width_ns).
 * imp_build() then records every row at its midpoint, keeps what lies beyond
 * the rows out of the histogram (except the maximum, a known sample) and
 * writes sections.provenance.
 */
#ifndef RTM_IMPORT_PRIV_H
#define RTM_IMPORT_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "result/import.h"
#include "result/result.h"

/* Guards against corrupt numbers: no row above ~2.4 h, at most this many rows. */
#define IMP_MAX_VALUE_NS	RTM_HIST_MAX_NS
#define IMP_MAX_ROWS		10000000u
/* the longest duration a result holds: its ns in a JSON integer (2^63 - 1), about 292 years */
#define IMP_MAX_DURATION_S	(INT64_MAX / 1000000000)
#define IMP_MAX_COLS		8192

struct imp_row {
	uint64_t lo_ns;
	uint64_t count;
};

struct imp_col {
	int cpu;			/* CPU number, or thread index when CPUs are unknown */
	int thread;			/* the source's thread index, -1 when not a thread */
	const char *kind;		/* rtla: "irq", "thread", "user"; NULL otherwise */
	struct imp_row *rows;
	size_t nrows, cap;
	uint64_t in_rows;		/* sum of the rows' counts */
	uint64_t overflows;		/* samples beyond the rows: values unknown */
	bool has_count, has_min, has_max, has_avg, has_node;
	int node;			/* rt-tests JSON: the thread's NUMA node (-1: none) */
	uint64_t count;			/* total the source states (rows + overflows) */
	uint64_t min_ns, max_ns;	/* lower bounds of the source's min and max */
	double avg_ns;
	double src_min, src_avg, src_max;	/* as written, in the source's unit */
};

struct imp_set {
	const char *name;		/* the file, for messages */
	const char *format;		/* "cyclictest-hist", "rt-tests-json", ... */
	char tool[32];			/* "cyclictest", "oslat", "rtla timerlat", ... */
	char version[32];		/* "" when the source does not tell */
	char *command_line;		/* malloc()ed, NULL when unknown */
	const char *unit;		/* "us" or "ns": the source's unit */
	uint64_t row_width_ns;		/* what one row stands for */
	uint64_t val_width_ns;		/* what one min/max value stands for */
	uint64_t overflow_above_ns;	/* lowest overflowed value when known, else 0 */
	bool cpus_known;		/* col->cpu are CPU numbers */
	char created[32];		/* ISO 8601 start, "" when unknown */
	uint64_t duration_ns;
	bool has_duration;
	struct imp_col *cols;		/* the per-CPU histograms */
	int ncols;
	size_t cols_cap;
	struct imp_col *extra;		/* rtla timerlat: the other contexts */
	int nextra;
	size_t extra_cap;
	json_t *sysinfo;		/* partial rtmeasure-sysinfo/1, or NULL */
	json_t *events;			/* array */
	json_t *notes;			/* array of strings */
};

/*
 * Line iterator over a private, writable copy of the input: each line is cut
 * in place (its "\n" and a trailing "\r" become NUL).
 */
struct imp_lines {
	char *p, *end;
	int lineno;
};

void imp_lines_init(struct imp_lines *it, char *text, size_t len);
/* The next line, or NULL at the end. */
char *imp_next_line(struct imp_lines *it);

/* Parse an unsigned decimal after optional blanks; advances *@p. 0 or -1. */
int imp_parse_u64(const char **p, uint64_t *v);
/* Parse a decimal number (digits, optional fraction) after blanks; 0 or -1. */
int imp_parse_double(const char **p, double *v);
const char *imp_skip_blanks(const char *p);
bool imp_blank(const char *p);

struct imp_col *imp_add_col(struct imp_set *s, int cpu, int thread);
struct imp_col *imp_add_extra(struct imp_set *s, int cpu, const char *kind);
int imp_col_add_row(struct imp_col *c, uint64_t lo_ns, uint64_t count);
void imp_note(struct imp_set *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void imp_set_release(struct imp_set *s);

/* Build a histogram of a column: rows at their midpoints, plus the known extremes
 * among the overflows; returns how many overflowed samples were placed. */
uint64_t imp_col_hist(const struct imp_set *s, const struct imp_col *c, struct rtm_hist *h);
json_t *imp_col_json(const struct imp_set *s, const struct imp_col *c, uint64_t placed);

/*
 * The run's options (interval_ns, sched, cpus, duration_ns) from s->command_line
 * of cyclictest or oslat into @opt; may set s->overflow_above_ns (-h) and the
 * duration when the source has none. A note lists what was taken.
 */
void imp_cmd_options(struct imp_set *s, json_t *opt);

/*
 * Format parsers: fill @s from @text (the text ones get a writable, NUL-terminated
 * copy), or return -EINVAL with a one-line message naming s->name.
 */
int imp_parse_cyclictest(struct imp_set *s, char *text, size_t len,
			 const struct rtm_import_opts *o, struct rtm_error *err);
int imp_parse_rttests_json(struct imp_set *s, const char *text, size_t len,
			   struct rtm_error *err);
int imp_parse_rtla(struct imp_set *s, char *text, size_t len,
		   const struct rtm_import_opts *o, struct rtm_error *err);

/*
 * Noise formats (lib/result/import_noise.c): a result with sections.noise and
 * sections.provenance, or NULL with a one-line message naming s->name.
 * imp_osnoise_hist_section() turns rtla osnoise hist's parsed columns into
 * sections.noise (NULL: out of memory).
 */
struct rtm_result *imp_osnoise_top(struct imp_set *s, char *text, size_t len,
				   struct rtm_error *err);
struct rtm_result *imp_hwlatdetect(struct imp_set *s, char *text, size_t len,
				   struct rtm_error *err);
json_t *imp_osnoise_hist_section(const struct imp_set *s);

#endif
