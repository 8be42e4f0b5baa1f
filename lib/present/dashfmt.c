// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dashfmt.c - the live monitor's formatting helpers.
 */
#include <math.h>
#include <string.h>

#include "present/dashfmt.h"

enum rtm_level rtm_level_of(uint64_t v_ns, uint64_t threshold_ns, bool have)
{
	if (!have)
		return RTM_LEVEL_NONE;
	if (threshold_ns && v_ns > threshold_ns)
		return RTM_LEVEL_ALERT;
	if (threshold_ns && v_ns * 2 >= threshold_ns)
		return RTM_LEVEL_WARN;
	return RTM_LEVEL_OK;
}

int rtm_sparkline(char *buf, size_t len, const uint64_t *v, int n, uint64_t lo, uint64_t hi,
		  bool utf8)
{
	static const char *const blocks[8] = { "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83",
		"\xe2\x96\x84", "\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88" };
	static const char ramp[] = "_.:-=+*#";
	double llo, lhi;
	size_t used = 0;
	int i;

	if (!lo)
		lo = 1;
	if (hi <= lo)
		hi = lo + 1;
	llo = log((double)lo);
	lhi = log((double)hi);
	for (i = 0; i < n; i++) {
		const char *mark;
		char one[2] = { 0, 0 };
		size_t ml;
		int k;

		if (!v[i]) {
			mark = " ";
		} else {
			double x = v[i] <= lo ? 0.0 : v[i] >= hi ? 1.0 :
				   (log((double)v[i]) - llo) / (lhi - llo);

			k = (int)(x * 7.0 + 0.5);
			k = k < 0 ? 0 : k > 7 ? 7 : k;
			if (utf8) {
				mark = blocks[k];
			} else {
				one[0] = ramp[k];
				mark = one;
			}
		}
		ml = strlen(mark);
		if (used + ml + 1 > len)
			return -1;
		memcpy(buf + used, mark, ml);
		used += ml;
	}
	if (used + 1 > len)
		return -1;
	buf[used] = '\0';
	return (int)used;
}

void rtm_dash_columns(int ncols, int max_marks, struct rtm_dash_cols *c)
{
	/* the keep order; widths without the one-space separator before each */
	static const struct { enum rtm_dash_col col; int width; } keep[] = {
		{ RTM_COL_CPU, 5 }, { RTM_COL_CUR, 9 }, { RTM_COL_MAX, 9 }, { RTM_COL_P99, 9 },
		{ RTM_COL_OVERRUNS, 8 }, { RTM_COL_SPARK, 1 + RTM_DASH_SPARK_MIN },
		{ RTM_COL_AVG, 9 }, { RTM_COL_MIN, 9 }, { RTM_COL_P999, 9 },
		{ RTM_COL_SAMPLES, 10 },
	};
	static const char *const heads[] = { "max per refresh", "max/refresh", "maxima" };
	int i, used = 0, x = 0;

	memset(c, 0, sizeof(*c));
	c->spark_head = "";
	if (max_marks < RTM_DASH_SPARK_MIN)	/* no room kept for a trend */
		max_marks = 0;
	for (i = 0; i < (int)(sizeof(keep) / sizeof(keep[0])); i++) {
		int w = keep[i].width + (used ? 1 : 0);

		if (keep[i].col == RTM_COL_SPARK && !max_marks)
			continue;
		if (used + w > ncols)
			break;
		c->shown[keep[i].col] = true;
		c->width[keep[i].col] = keep[i].width;
		used += w;
	}
	if (c->shown[RTM_COL_SPARK]) {	/* the width left over, one space before the marks */
		c->spark_marks = RTM_DASH_SPARK_MIN + ncols - used;
		if (c->spark_marks > max_marks)
			c->spark_marks = max_marks;
		c->width[RTM_COL_SPARK] = 1 + c->spark_marks;
		for (i = 0; i < 3 && c->spark_head[0] == '\0'; i++)
			if ((int)strlen(heads[i]) <= c->spark_marks)
				c->spark_head = heads[i];
	}
	for (i = 0; i < RTM_COL_N; i++) {
		if (!c->shown[i])
			continue;
		x += x ? 1 : 0;
		c->x[i] = x;
		x += c->width[i];
	}
}

/* The length of the UTF-8 text @s cut at most @n bytes in, at a character's start. */
static int utf8_cut(const char *s, int n)
{
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return n;
}

/* The next line of @s (no leading spaces) in @width bytes: its length, broken at a space. */
static int wrap_one(const char *s, int width)
{
	int n = (int)strlen(s), k;

	if (n <= width)
		return n;
	for (k = width; k > 0 && s[k] != ' '; k--)
		;
	if (k > 0) {
		while (k > 0 && s[k - 1] == ' ')
			k--;
		if (k > 0)
			return k;
	}
	k = utf8_cut(s, width);		/* one word wider than the line: cut it */
	return k > 0 ? k : width;
}

int rtm_dash_wrap(const char *text, int width, int max, int *start, int *len, bool *cut)
{
	const char *p = text;
	int n = 0;

	*cut = false;
	if (width < 1 || max < 1)
		return 0;
	while (*p == ' ')
		p++;
	while (*p && n < max) {
		int k = wrap_one(p, width);

		if (n == max - 1 && p[k + (int)strspn(p + k, " ")]) {	/* more to come */
			if (width > 4)	/* room for " ..." */
				k = wrap_one(p, width - 4);
			*cut = true;
		}
		start[n] = (int)(p - text);
		len[n++] = k;
		p += k;
		while (*p == ' ')
			p++;
	}
	return n;
}

void rtm_dash_layout(int nlines, int ncols, int ncpus, enum rtm_dash_panel focus,
		     struct rtm_dash_layout *l)
{
	int avail, want_cpu, irq_want = 6, spike_want = 6, other;

	memset(l, 0, sizeof(*l));
	if (nlines < 8 || ncols < 40) {
		l->too_small = true;
		return;
	}
	l->header = nlines >= 16 ? 3 : 1;
	rtm_dash_columns(ncols, RTM_DASH_SPARK_MAX, &l->cols);
	avail = nlines - l->header - 1;		/* the status line */
	want_cpu = ncpus + 1;			/* the table's heading + a row per CPU */
	/* the CPU table first (at least its heading and 2 rows), then the focused panel */
	if (focus == RTM_PANEL_CPUS) {
		l->cpu_rows = want_cpu < avail ? want_cpu : avail;
		avail -= l->cpu_rows;
		if (avail >= 3) {
			l->irq_rows = avail >= irq_want + spike_want ? irq_want :
				      avail >= irq_want + 3 ? avail - 3 : avail;
			avail -= l->irq_rows;
		}
		if (avail >= 3)
			l->spike_rows = avail;
		return;
	}
	/* another panel focused: the table keeps its heading and 2 rows (scroll for more) */
	l->cpu_rows = want_cpu < 3 ? want_cpu : 3;
	avail -= l->cpu_rows;
	other = avail >= 10 ? 4 : 0;
	if (focus == RTM_PANEL_IRQ) {
		l->irq_rows = avail - other;
		l->spike_rows = other;
	} else {
		l->spike_rows = avail - other;
		l->irq_rows = other;
	}
}

/* Take up to @want rows from *@rows, leaving it @keep (or 0 when it had no more). */
static int take_rows(int *rows, int want, int keep)
{
	int n = *rows > keep ? *rows - keep : 0;

	if (n > want)
		n = want;
	*rows -= n;
	return n;
}

/*
 * A panel of @want rows (a heading and its rows) taken from the spike log and
 * then the IRQ panel, each keeping 3 rows while it can; the rows it got, 0 when
 * not even a heading and a row fit.
 */
static int take_panel(struct rtm_dash_layout *l, int want)
{
	int got;

	got = take_rows(&l->spike_rows, want, 3);
	got += take_rows(&l->irq_rows, want - got, 3);
	/* still short of the heading and a row: the smaller panels give way */
	if (got < 2)
		got += take_rows(&l->spike_rows, want - got, 0);
	if (got < 2)
		got += take_rows(&l->irq_rows, want - got, 0);
	if (got < 2) {		/* not even that: give the rows back */
		l->spike_rows += got;
		got = 0;
	}
	return got;
}

void rtm_dash_layout_noise(struct rtm_dash_layout *l, int nnoise)
{
	l->noise_rows = 0;
	if (l->too_small || nnoise <= 0)
		return;
	l->noise_rows = take_panel(l, nnoise + 1);
}

void rtm_dash_layout_io(struct rtm_dash_layout *l, int nops)
{
	l->io_rows = 0;
	if (l->too_small || nops <= 0)
		return;
	l->io_rows = take_panel(l, nops + 1);
}

void rtm_dash_layout_wakeup(struct rtm_dash_layout *l, int ntasks)
{
	l->wk_rows = 0;
	if (l->too_small || ntasks < 0)
		return;
	/* no task yet: the heading and a line saying so */
	l->wk_rows = take_panel(l, (ntasks ? ntasks : 1) + 1);
}

int rtm_dash_wakeup_shown(int rows, int ntasks, int *more)
{
	int shown = rows - 1 < ntasks ? rows - 1 : ntasks;

	if (shown < 0)
		shown = 0;
	*more = ntasks - shown;
	return shown;
}
