// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the BPF timer IRQ split's maps read into figures (lib/probe/timersplit.c),
 * without BPF: per-CPU entries and counters filled as timersplit.bpf.c fills them
 * (the same recording code, wakeup_record.h), with answers known by construction.
 * The live line comes from the tracefs path's formatter (rtm_timerirq_line_of()) and
 * agrees with sections.timer_irq made from the same reading; a read while the
 * programs run (the entry's count ahead of its counters, a sleep armed) is whole.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "core/units.h"
#include "probe/timersplit.h"
#include "probe/timersplit_maps.h"
#include "probe/wakeup_record.h"
#include "../tap.h"

/* One IRQ part and its wake-up part, as the programs count them. */
static void sleep_counted(struct rtm_ts_cpu *c, uint64_t *irq_counts, uint64_t *wake_counts,
			  uint64_t irq_ns, uint64_t wake_ns)
{
	irq_counts[rtm_hist_layout_index(irq_ns)]++;
	rtm_wk_record_cpu(&c->irq, irq_ns, 0, 0);
	wake_counts[rtm_hist_layout_index(wake_ns)]++;
	rtm_wk_record_cpu(&c->wake, wake_ns, 0, 0);
}

struct cpu_maps {
	struct rtm_ts_cpu c;
	uint64_t irq[RTM_HIST_NCOUNTS], wake[RTM_HIST_NCOUNTS];
};

/* CPU 2: 1970 IRQ parts of 2 us and 30 of 50 us (p99 in the 50 us bucket); CPU 3: 5. */
static void fill(struct cpu_maps *m)
{
	int i;

	memset(m, 0, 2 * sizeof(*m));
	for (i = 0; i < 2000; i++)
		sleep_counted(&m[0].c, m[0].irq, m[0].wake, i < 1970 ? 2000 : 50000, 3000);
	for (i = 0; i < 5; i++)
		sleep_counted(&m[1].c, m[1].irq, m[1].wake, 4000, 6000);
	m[0].c.unmatched_starts = 3;
	m[0].c.unmatched_expires = 2;
	m[0].c.early = 1;
}

static void line_and_section(void)
{
	struct cpu_maps *m = calloc(2, sizeof(*m));
	struct rtm_hist *h[2] = { rtm_hist_alloc(), rtm_hist_alloc() }, *back = rtm_hist_alloc();
	struct rtm_timerirq_cpu f[2];
	struct rtm_error err = { "" };
	char line[256], want[256], v[16];
	json_t *o;

	if (!m || !h[0] || !h[1] || !back)
		exit(99);
	fill(m);
	rtm_timersplit_cpu_of(m[0].irq, &m[0].c, 2, true, h[0], &f[0]);
	rtm_timersplit_cpu_of(m[1].irq, &m[1].c, 3, true, h[1], &f[1]);
	ok(f[0].cpu == 2 && f[0].matched == 2000 && f[0].delay == h[0] && h[0]->count == 2000 &&
	   h[0]->min_ns == 2000 && h[0]->max_ns == 50000, "CPU 2: 2000 IRQ parts, 2 to 50 us");
	ok(f[0].unmatched_starts == 3 && f[0].unmatched_expires == 2 && f[0].early == 1,
	   "CPU 2: the starts and expiries apart as the entry has them");
	rtm_timerirq_line_of(f, 2, line, sizeof(line));
	rtm_fmt_ns(v, sizeof(v), rtm_hist_percentile(h[0], 99));
	snprintf(want, sizeof(want), "timer IRQ p99: CPU 2 %s, CPU 3 - (2005 matched)", v);
	ok(!strcmp(line, want) && rtm_hist_percentile(h[0], 99) >= 49900 &&
	   rtm_hist_percentile(h[0], 99) <= 50100,
	   "the line: CPU 2's p99 in the 50 us bucket, CPU 3's five define none: %s", line);

	/* the section from the same reading carries the line's figures */
	o = rtm_timersplit_cpu_json(m[0].irq, m[0].wake, &m[0].c, 2, true, h[1]);
	ok(o && json_integer_value(json_object_get(o, "count")) == 2000 &&
	   json_integer_value(json_object_get(o, "unmatched_starts")) == 3 &&
	   json_integer_value(json_object_get(o, "woken")) == 2000 &&
	   !rtm_hist_from_json(back, json_object_get(o, "delay"), &err) &&
	   back->count == 2000 && rtm_hist_percentile(back, 99) == rtm_hist_percentile(h[0], 99),
	   "sections.timer_irq's CPU 2: the count and p99 the line shows %s", err.msg);
	json_decref(o);

	/*
	 * Read while the programs run: a sleep armed (its expiry still to come, not
	 * unmatched), the entry's count one ahead of its counters (a torn read): the
	 * figures are the counters', whole
	 */
	m[1].c.hrtimer = 0xffffc90006083cc8ULL;
	m[1].c.irq.count++;
	rtm_timersplit_cpu_of(m[1].irq, &m[1].c, 3, false, h[1], &f[1]);
	ok(f[1].matched == 5 && h[1]->count == 5 && !f[1].unmatched_starts,
	   "live: the counters' 5, the armed sleep not unmatched");
	o = rtm_timersplit_cpu_json(m[1].irq, m[1].wake, &m[1].c, 3, false, back);
	ok(o && json_integer_value(json_object_get(o, "count")) == 5 &&
	   json_integer_value(json_object_get(o, "unmatched_starts")) == 0,
	   "live: the section's count the same 5");
	json_decref(o);
	/* the programs detached: the armed start never expires */
	rtm_timersplit_cpu_of(m[1].irq, &m[1].c, 3, true, h[1], &f[1]);
	ok(f[1].unmatched_starts == 1, "ended: the start still armed is unmatched");

	/* no sleep yet: "unknown", as the tracefs path's line */
	memset(&m[1], 0, sizeof(m[1]));
	rtm_timersplit_cpu_of(m[1].irq, &m[1].c, 3, false, h[1], &f[1]);
	rtm_timerirq_line_of(&f[1], 1, line, sizeof(line));
	ok(!strcmp(line, "timer IRQ p99: CPU 3 unknown (0 matched)"), "no sleep yet: %s", line);
	rtm_timerirq_line_of(&f[1], 1, line, 20);
	ok(!strcmp(line, "timer IRQ p99: CPU "), "a short buffer: cut, ended: %s", line);
	rtm_hist_free(h[0]);
	rtm_hist_free(h[1]);
	rtm_hist_free(back);
	free(m);
}

int main(void)
{
	line_and_section();
	return tap_done();
}
