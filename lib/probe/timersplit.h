/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timersplit.h - the timer IRQ split of the timer probe's wake-ups counted in
 * the kernel (timersplit.bpf.c): `cyclic --bpf`, `run --bpf`.
 *
 * The same split as the tracefs path (trace/timerirq.c: hrtimer_start ->
 * hrtimer_expire_entry, the probe's own sleepers), into the same place
 * (result.json sections.timer_irq), without a trace instance: BPF programs on
 * the hrtimer_start, hrtimer_expire_entry and sched_switch raw tracepoints
 * count each sleep's IRQ part and wake-up part into per-CPU histograms of
 * hist.c's layout, so nothing streams, whatever the run's length.
 */
#ifndef RTM_TIMERSPLIT_H
#define RTM_TIMERSPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "core/hist.h"
#include "core/units.h"
#include "trace/timerirq.h"

struct rtm_timersplit;
struct rtm_ts_cpu;

/*
 * Whether the programs can load here, checked without loading them: built
 * (configure found clang, bpftool and libbpf), root, the kernel's BTF. false
 * with the reason and its fix in @err.
 */
bool rtm_timersplit_usable(struct rtm_error *err);

/*
 * Load and attach the programs for this process's probe threads (named
 * rtm-probe/N) sleeping on hrtimers with handler @wakeup_fn (hrtimer_wakeup's
 * address), the CPUs @cpus measured (the live line's, its memory taken now).
 * Before the probe starts, so its first sleep is counted. NULL with @err set
 * (and errno) when they cannot load or attach.
 */
struct rtm_timersplit *rtm_timersplit_create(uint64_t wakeup_fn, const struct rtm_cpulist *cpus,
					     struct rtm_error *err);

/* Detach the programs (the figures stay readable) and free everything. */
void rtm_timersplit_detach(struct rtm_timersplit *ts);
void rtm_timersplit_destroy(struct rtm_timersplit *ts);

/*
 * sections.timer_irq (docs/result-schema.md) for the CPUs @cpus: the keys of the
 * tracefs path (per CPU count, unmatched_starts, unmatched_expires, early and
 * the delay histogram; trace_lost 0, complete), "backend": "bpf", and per CPU
 * the wake-up part ("wake", a histogram, "unswitched") and the split of the
 * longest sample ("max": total_ns, irq_ns, wake_ns). @cpus NULL: those given to
 * rtm_timersplit_create(). While the programs run (the --prometheus page), the
 * figures so far and "complete": false. NULL when out of memory.
 */
json_t *rtm_timersplit_to_json(const struct rtm_timersplit *ts, const struct rtm_cpulist *cpus);

/*
 * The maps read now into the live line of the tracefs path (rtm_timerirq_line_of():
 * "timer IRQ p99: CPU 0 2.1 us, CPU 1 - (1500 matched)"), while the probe runs or
 * after; "" in a build without BPF.
 */
void rtm_timersplit_line(struct rtm_timersplit *ts, char *buf, size_t len);

/*
 * One CPU's figures from its entry @c and IRQ part counters @irq_counts as they
 * read (pure: the unit tests feed recorded entries): the histogram into @h, the
 * rest into @out as rtm_timerirq_cpus() gives the tracefs path's, @out->delay
 * being @h and @out->matched its count. @ended: the programs are detached, a
 * start still armed is one whose expiry never came (unmatched), as the tracefs
 * path counts the starts pending when its trace ends.
 */
void rtm_timersplit_cpu_of(const uint64_t *irq_counts, const struct rtm_ts_cpu *c, int cpu,
			   bool ended, struct rtm_hist *h, struct rtm_timerirq_cpu *out);

/*
 * The same CPU's entry of sections.timer_irq.cpus, its IRQ figures those of
 * rtm_timersplit_cpu_of() (the live line and the result agree by construction),
 * with @wake_counts the wake-up part's; @h is scratch. NULL when out of memory.
 */
json_t *rtm_timersplit_cpu_json(const uint64_t *irq_counts, const uint64_t *wake_counts,
				const struct rtm_ts_cpu *c, int cpu, bool ended, struct rtm_hist *h);

#endif
