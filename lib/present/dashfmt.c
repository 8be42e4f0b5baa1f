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
	l->sparkline = ncols >= 100;
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

void rtm_dash_layout_noise(struct rtm_dash_layout *l, int nnoise)
{
	int want = nnoise + 1, got;

	l->noise_rows = 0;
	if (l->too_small || nnoise <= 0)
		return;
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
	l->noise_rows = got;
}
