// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the live monitor's formatting helpers: threshold levels,
 * sparklines (UTF-8 blocks and the ASCII ramp, log scale, clamping, buffer
 * limits) and the screen layout from 80x24 down to too small, with many CPUs.
 */
#include <string.h>

#include "present/dashfmt.h"
#include "../tap.h"

static void levels(void)
{
	is_int(rtm_level_of(0, 100000, false), RTM_LEVEL_NONE, "no sample: no level");
	is_int(rtm_level_of(49999, 100000, true), RTM_LEVEL_OK, "below half the threshold: ok");
	is_int(rtm_level_of(50000, 100000, true), RTM_LEVEL_WARN, "half the threshold: warn");
	is_int(rtm_level_of(100000, 100000, true), RTM_LEVEL_WARN, "at the threshold: warn");
	is_int(rtm_level_of(100001, 100000, true), RTM_LEVEL_ALERT, "above it: alert");
	is_int(rtm_level_of(5000000, 0, true), RTM_LEVEL_OK, "no threshold: ok");
}

static void sparklines(void)
{
	uint64_t v[] = { 0, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 5 };
	char buf[64];

	is_int(rtm_sparkline(buf, sizeof(buf), v, 9, 10, 10000000, false), 9, "9 ASCII marks");
	/* log scale over 10 ns .. 10 ms: 6 decades over 7 steps, rounded */
	is_str(buf, " _.:=+*#_", "zero is blank, decades climb the ramp, below lo clamps to the "
	       "lowest mark");
	is_int(rtm_sparkline(buf, sizeof(buf), v + 7, 1, 10, 10000000, true), 3,
	       "a UTF-8 block is 3 bytes");
	is_str(buf, "\xe2\x96\x88", "the top value is a full block");
	is_int(rtm_sparkline(buf, sizeof(buf), v + 1, 1, 10, 10000000, true), 3, "one block");
	is_str(buf, "\xe2\x96\x81", "the bottom value is the lowest block");
	is_int(rtm_sparkline(buf, 4, v, 9, 10, 10000000, false), -1, "too small a buffer: -1");
	is_int(rtm_sparkline(buf, sizeof(buf), v, 0, 10, 100, true), 0, "no values: empty");
	is_str(buf, "", "empty string");
	is_int(rtm_sparkline(buf, sizeof(buf), v + 2, 1, 100, 100, false), 1,
	       "lo == hi does not divide by zero");
}

static void layouts(void)
{
	struct rtm_dash_layout l;

	rtm_dash_layout(24, 80, 2, RTM_PANEL_CPUS, &l);
	ok(!l.too_small && l.header == 3 && l.cpu_rows == 3, "80x24, 2 CPUs: header 3, table 3");
	is_int(l.header + l.cpu_rows + l.irq_rows + l.spike_rows + 1, 24, "every line used");
	ok(l.irq_rows >= 3 && l.spike_rows >= 3, "both panels shown (irq %d, spikes %d)",
	   l.irq_rows, l.spike_rows);
	ok(!l.sparkline, "no sparkline column at 80 columns");
	rtm_dash_layout(30, 120, 2, RTM_PANEL_CPUS, &l);
	ok(l.sparkline, "sparkline column at 120 columns");

	rtm_dash_layout(24, 80, 256, RTM_PANEL_CPUS, &l);
	is_int(l.header + l.cpu_rows + 1, 24, "256 CPUs, table focused: the table takes the rest");
	is_int(l.irq_rows + l.spike_rows, 0, "and the panels make room");
	rtm_dash_layout(24, 80, 256, RTM_PANEL_IRQ, &l);
	ok(l.cpu_rows == 3 && l.irq_rows == 13 && l.spike_rows == 4,
	   "IRQ panel focused: it gets the room (%d rows, spikes %d)", l.irq_rows, l.spike_rows);
	is_int(l.header + l.cpu_rows + l.irq_rows + l.spike_rows + 1, 24, "every line used");
	rtm_dash_layout(24, 80, 256, RTM_PANEL_SPIKES, &l);
	ok(l.spike_rows > l.irq_rows, "spike log focused: it gets more than the IRQ panel");

	rtm_dash_layout(12, 60, 4, RTM_PANEL_CPUS, &l);
	ok(!l.too_small && l.header == 1 && l.cpu_rows == 5, "60x12: one header line, all CPUs");
	is_int(l.header + l.cpu_rows + l.irq_rows + l.spike_rows + 1, 12, "every line used");
	rtm_dash_layout(7, 80, 2, RTM_PANEL_CPUS, &l);
	ok(l.too_small, "80x7 is too small");
	rtm_dash_layout(24, 39, 2, RTM_PANEL_CPUS, &l);
	ok(l.too_small, "39 columns is too small");
}

/* The noise panel (monitor --noise-cpus): carved from the spike log, then the IRQ panel. */
static void noise_layouts(void)
{
	struct rtm_dash_layout l, b;
	int total;

	rtm_dash_layout(24, 80, 2, RTM_PANEL_CPUS, &b);
	l = b;
	rtm_dash_layout_noise(&l, 2);
	total = l.header + l.cpu_rows + l.irq_rows + l.spike_rows + l.noise_rows + 1;
	ok(l.noise_rows == 3 && l.cpu_rows == b.cpu_rows && total == 24,
	   "80x24: heading and 2 noise rows, the CPU table kept, every line used (%d)",
	   l.noise_rows);
	ok(l.spike_rows == b.spike_rows - 3 && l.irq_rows == b.irq_rows,
	   "taken from the spike log first");
	l = b;
	rtm_dash_layout_noise(&l, 64);
	ok(l.spike_rows == 3 && l.irq_rows == 3 && l.cpu_rows == b.cpu_rows,
	   "64 noise CPUs: both panels keep their heading and 2 rows");
	ok(l.noise_rows == b.spike_rows + b.irq_rows - 6, "and the noise panel takes the rest");
	rtm_dash_layout(12, 60, 4, RTM_PANEL_CPUS, &b);
	l = b;
	rtm_dash_layout_noise(&l, 1);
	total = l.header + l.cpu_rows + l.irq_rows + l.spike_rows + l.noise_rows + 1;
	ok(total == 12 && (l.noise_rows == 2 || l.noise_rows == 0),
	   "60x12: the noise panel whole (2 rows) or not at all, every line used (%d)",
	   l.noise_rows);
	l = b;
	rtm_dash_layout_noise(&l, 0);
	ok(!l.noise_rows && l.spike_rows == b.spike_rows, "no noise CPU: no panel");
	rtm_dash_layout(7, 80, 2, RTM_PANEL_CPUS, &l);
	rtm_dash_layout_noise(&l, 2);
	ok(!l.noise_rows, "too small a screen: no panel");
}

int main(void)
{
	levels();
	sparklines();
	layouts();
	noise_layouts();
	return tap_done();
}
