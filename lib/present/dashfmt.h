/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dashfmt.h - the live monitor's formatting helpers, kept apart from curses so
 * they are unit-tested: threshold levels, sparklines, the screen layout.
 */
#ifndef RTM_DASHFMT_H
#define RTM_DASHFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rtm_level {
	RTM_LEVEL_NONE,			/* no value (no sample yet) */
	RTM_LEVEL_OK,			/* below half the threshold */
	RTM_LEVEL_WARN,			/* half the threshold or more */
	RTM_LEVEL_ALERT,		/* above the threshold */
};

enum rtm_level rtm_level_of(uint64_t v_ns, uint64_t threshold_ns, bool have);

/**
 * rtm_sparkline - one character per value, 8 heights on a log scale
 * @lo, @hi: the values of the lowest and highest mark (clamped)
 * @utf8: U+2581..U+2588 blocks, else the ASCII ramp "_.:-=+*#"
 *
 * Zero values (no sample) are a space. Writes a NUL-terminated string into
 * @buf and returns its length in bytes, or -1 when @len is too small.
 */
int rtm_sparkline(char *buf, size_t len, const uint64_t *v, int n, uint64_t lo, uint64_t hi,
		  bool utf8);

/* Which panels fit on the screen, and how many lines each gets. */
enum rtm_dash_panel { RTM_PANEL_CPUS, RTM_PANEL_IRQ, RTM_PANEL_SPIKES, RTM_PANEL_N };

/* The CPU table's columns, in the order they are drawn left to right. */
enum rtm_dash_col {
	RTM_COL_CPU, RTM_COL_CUR, RTM_COL_MIN, RTM_COL_AVG, RTM_COL_P99, RTM_COL_P999,
	RTM_COL_MAX, RTM_COL_SAMPLES, RTM_COL_OVERRUNS, RTM_COL_SPARK, RTM_COL_N
};

#define RTM_DASH_SPARK_MIN 8		/* marks: a shorter sparkline shows no trend */
#define RTM_DASH_SPARK_MAX 60		/* marks: the refreshes the monitor keeps */

struct rtm_dash_cols {
	bool shown[RTM_COL_N];
	int x[RTM_COL_N];		/* the column's first screen column, when shown */
	int width[RTM_COL_N];		/* its width, the separator before it left out */
	int spark_marks;		/* the sparkline's marks, 0: not shown */
	const char *spark_head;		/* its heading as wide as fits ("": not shown) */
};

/*
 * The CPU table's columns in @ncols screen columns, the sparkline at most
 * @max_marks wide. Columns are kept in this order, the first that does not fit
 * and those after it left out: CPU, cur, max, p99, overruns, the sparkline (at
 * least RTM_DASH_SPARK_MIN marks), avg, min, p99.9, samples. The sparkline then
 * takes the width left over. 80 columns keep all but p99.9 and samples.
 */
void rtm_dash_columns(int ncols, int max_marks, struct rtm_dash_cols *c);

/*
 * rtm_dash_wrap - break @text into lines of at most @width bytes at spaces (a
 * word longer than @width is cut, at a UTF-8 character's start). At most @max
 * lines: when the text needs more, the last one is shortened to end at a word
 * and leave room for " ..." (*@cut set). Each line's offset into @text and its
 * length in @start and @len (spaces at the breaks left out); returns the number.
 */
int rtm_dash_wrap(const char *text, int width, int max, int *start, int *len, bool *cut);

struct rtm_dash_layout {
	bool too_small;			/* below 40x8: only a one-line notice */
	int header;			/* header lines at the top */
	int cpu_rows;			/* CPU table rows shown (a scrolled window) */
	int irq_rows, spike_rows;	/* 0: the panel is not shown */
	int noise_rows;			/* the noise panel (monitor --noise-cpus), 0: none */
	int io_rows;			/* the storage panel (monitor --io), 0: none */
	int wk_rows;			/* the tasks panel (monitor --wakeup), 0: none */
	struct rtm_dash_cols cols;	/* the CPU table's columns (rtm_dash_columns()) */
};

/*
 * Lay out @lines x @cols for @ncpus CPUs (the table's columns with a sparkline of
 * at most RTM_DASH_SPARK_MAX marks), giving room first to the @focus panel:
 * header, CPU table (at least 2 rows), IRQ panel, spike log, status line.
 */
void rtm_dash_layout(int nlines, int ncols, int ncpus, enum rtm_dash_panel focus,
		     struct rtm_dash_layout *l);

/*
 * The noise panel (monitor --noise-cpus): its heading and a row per noise CPU
 * (@nnoise), taken from the spike log and then the IRQ panel, each keeping 3
 * rows (heading and 2) while it can, and the CPU table never shrunk. At least
 * the heading and one row, or nothing when even that does not fit.
 */
void rtm_dash_layout_noise(struct rtm_dash_layout *l, int nnoise);

/* The storage panel (monitor --io): a heading and a row per operation (@nops), as noise. */
void rtm_dash_layout_io(struct rtm_dash_layout *l, int nops);

/* The tasks panel (monitor --wakeup): a heading and a row per task (@ntasks), as noise. */
void rtm_dash_layout_wakeup(struct rtm_dash_layout *l, int ntasks);

/*
 * The tasks a panel of @rows lines (its heading included) shows of @ntasks, the
 * worst first; the ones left out in *@more (the heading says "+N more").
 */
int rtm_dash_wakeup_shown(int rows, int ntasks, int *more);

#endif
