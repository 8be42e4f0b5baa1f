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

struct rtm_dash_layout {
	bool too_small;			/* below 40x8: only a one-line notice */
	int header;			/* header lines at the top */
	int cpu_rows;			/* CPU table rows shown (a scrolled window) */
	int irq_rows, spike_rows;	/* 0: the panel is not shown */
	int noise_rows;			/* the noise panel (monitor --noise-cpus), 0: none */
	bool sparkline;			/* the CPU table has room for the sparkline column */
};

/*
 * Lay out @lines x @cols for @ncpus CPUs, giving room first to the @focus panel:
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

#endif
