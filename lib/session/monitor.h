/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * monitor.h - rtmeasure monitor's data: the timer probe on every CPU watched
 * live, per-CPU snapshots (copies of the probes' histograms, never stopping
 * them), interrupt rates, the spike log (a probe that sees a wake-up over the
 * threshold claims it; with tracing on, the flight recorder's window is saved
 * and analysed), the streaming instance's lines, and with --noise-cpus the noise
 * probe beside it. Collecting and drawing are separate, as in htop: this is the
 * collecting side (lib/present/dashboard.h draws), and the probes never wait on
 * the screen.
 */
#ifndef RTM_SESSION_MONITOR_H
#define RTM_SESSION_MONITOR_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/hist.h"
#include "irq/handlers.h"
#include "irq/irq.h"
#include "box/iotarget.h"
#include "probe/cyclic.h"
#include "probe/probe_io.h"
#include "probe/wakeup.h"
#include "session/session.h"
#include "trace/noiseattr.h"

#define RTM_MON_SPARK 60		/* sparkline: the last 60 refreshes' maxima */
#define RTM_MON_SPIKES 64		/* spike log entries kept */
#define RTM_MON_IRQ_ROWS 16

struct rtm_mon_cpu {
	int cpu;
	struct rtm_hist *cur, *prev, *base, *view;	/* view = cur - base (after a reset) */
	struct rtm_probe_cpu_snap snap;
	uint64_t base_samples, base_overruns;
	uint64_t spark[RTM_MON_SPARK];	/* per-refresh maxima, oldest first */
	/* figures shown */
	uint64_t samples, overruns, cur_ns, min_ns, max_ns, p99_ns, p999_ns;
	double avg_ns;
};

struct rtm_mon_spike {
	double t_s;			/* seconds since the start */
	int cpu;
	uint64_t latency_ns;
	char verdict[400];
};

struct rtm_mon_irq {
	char name[24], desc[48];
	double rate;
	uint64_t count, total_ns, max_ns;	/* handler time when tracing */
};

/* --noise-cpus: one noise CPU's panel row (monitor_noise.c) */
struct rtm_mon_noise {
	int cpu;
	uint64_t sampled_ns, noise_ns, max_gap_ns, gaps;	/* since the start */
	uint32_t attributed;		/* gaps given a cause so far (the log's first ones) */
	uint64_t class_ns[RTM_NOISE_NCLASSES];	/* their time by class (enum rtm_noise_class) */
	uint64_t caused_max_ns;		/* the largest of them, and its main cause */
	char max_cause[96];
	bool traced;
};

/* --io: one operation's line of the storage probe (monitor_io.c) */
struct rtm_mon_io {
	uint8_t op;			/* enum rtm_io_op */
	uint64_t requests, misses, errors;	/* since the start, failed requests too */
	uint64_t count;			/* the completed ones, in the latency histogram */
	uint64_t p99_ns, max_ns;	/* latency from the planned issue time */
	bool missed;			/* @last holds its latest kept miss */
	struct rtm_io_miss last;
};

struct rtm_stream;
struct rtm_sysinfo;
struct rtm_trace;
struct rtm_cpulock;

struct rtm_mon {
	struct rtm_session_opts m;
	uint64_t refresh_ns;
	uint64_t threshold_ns;
	bool once, plain;		/* plain: one text block per refresh, no keys */
	bool start_tracing;		/* tracing from the start (--trace, --rt-hold, ...) */
	struct rtm_sysinfo *si;
	struct rtm_probe_run *run;	/* the runner (lib/probe/probe.h) driving the timer probe */
	struct rtm_cyclic *c;		/* its session, for the figures */
	struct rtm_probe_timer *p;
	int n;
	struct rtm_mon_cpu *cpus;
	uint64_t start_ns, refreshes;
	/* interrupts */
	struct rtm_irq_snap irq_prev;
	bool irq_ok;
	struct rtm_mon_irq irqs[RTM_MON_IRQ_ROWS];
	int nirqs;
	/* tracing (key t) */
	struct rtm_trace *trace, *irqtrace;
	bool trace_in_stream;		/* @trace is @hold's instance (the flight recorder) */
	struct rtm_irqacct *acct;
	bool acct_shared;		/* acct is the census's (rtm_stream_irqacct()) */
	uint64_t locks_polled_ns;	/* CLOCK_MONOTONIC of the last look at the CPUs' locks */
	bool tracing;
	char spike_dir[PATH_MAX];	/* -o: where spike windows go (none saved without) */
	bool outdir_made;		/* -o did not exist: removed again if it stays empty */
	int nspike_files;
	struct rtm_mon_spike spikes[RTM_MON_SPIKES];
	int nspikes;			/* total seen; the last RTM_MON_SPIKES kept */
	struct rtm_stream *hold;	/* --rt-hold: RT tasks holding a CPU (with tracing) */
	char holdline[256];		/* its line, "" when not tracing them */
	char tirqline[256];		/* --timer-irq: its line, "" when not tracing it */
	char censusline[512];		/* the spike census: its line, "" when not tracing */
	char message[160];		/* what the last action did (the status line) */
	/* what disturbs the figures (result/disturb.h), "" when nothing does */
	char sharedline[256];		/* another rtmeasure measures these CPUs too */
	char stopline[256];		/* --once: a signal stopped it before the refresh */
	/*
	 * --prometheus: a result of the box and the shared CPUs so far, for the live
	 * page's rtmeasure_run_disturbed as cyclic's (NULL without the option)
	 */
	struct rtm_result *live;
	int nsaved;
	struct rtm_cpulock *locks;	/* the measured CPUs, announced to other runs */
	/* --noise-cpus: the noise probe beside the timer probe, on other CPUs */
	struct rtm_cpulist noise_cpus;
	bool noise_opt_given;
	int nn;
	struct rtm_mon_noise *noise;
	struct rtm_probe_run *nrun;
	struct rtm_probe_noise *np;
	struct rtm_stream *nhold;	/* its gap causes (root, tracefs), or NULL */
	struct rtm_noise_gap *gapbuf;
	char noise_note[256];
	/* --io: the storage deadline probe beside the timer probe, on a CPU of its own */
	bool io_on, io_opt_given, io_cpu_given;
	struct rtm_probe_io_opts io_probe;	/* parsed and checked by the command */
	struct rtm_io_target_req io_req;
	struct rtm_io_target io_target;
	bool io_open;			/* io_target open: closed (a file removed) at the end */
	struct rtm_probe_run *iorun;
	struct rtm_probe_io *iop;
	struct rtm_io_rec io_rec;	/* the refresh's copy of the probe's figures */
	uint32_t io_taken;		/* kept misses read so far */
	int nio;
	struct rtm_mon_io io[RTM_IO_NOPS];
	/* --wakeup: the wake-up programs of rtmeasure wakeup, the box's own tasks */
	bool wk_on, wk_opt_given;
	struct rtm_wakeup_opts wk_sel;	/* parsed by the command; above_ns 0: the threshold */
	struct rtm_wakeup *wk;
	struct rtm_wakeup_snap *wk_snap;	/* the refresh's tasks, worst first */
	struct rtm_wakeup_census *wk_census;	/* the waits over the bound, for -o */
	int nwk;			/* wk_snap's tasks: this process's threads left out */
};

/* Defaults: the session's options for "monitor", 1 s refresh, 100 us threshold. */
void rtm_mon_init(struct rtm_mon *mo);
/*
 * Set-up 1, before the --prometheus server: options checked, the measured CPUs
 * locked, the probes' capture settings. 0, or the exit status after the message
 * with everything released.
 */
int rtm_mon_prepare(struct rtm_mon *mo);
/* Set-up 2: the results folder, the probes started; -1 with @err set. */
int rtm_mon_start(struct rtm_mon *mo, struct rtm_error *err);
/* At each turn of the loop: other runs, the trace instances drained, a spike claimed. */
void rtm_mon_poll(struct rtm_mon *mo);
/* Fresh figures for a refresh of the screen. */
void rtm_mon_refresh(struct rtm_mon *mo);
/*
 * One CPU's figures and sparkline from its fresh snapshot in @mc->cur (the one
 * before in @mc->prev): what a refresh does for each CPU after the snapshot.
 */
void rtm_mon_cpu_update(struct rtm_mon_cpu *mc);
/* The keys' actions; each says what it did in mo->message. */
void rtm_mon_reset(struct rtm_mon *mo);
void rtm_mon_save_snapshot(struct rtm_mon *mo);
int rtm_mon_tracing_on(struct rtm_mon *mo);
void rtm_mon_tracing_off(struct rtm_mon *mo);
void rtm_mon_set_threshold(struct rtm_mon *mo, uint64_t ns);
/* Seconds since the start. */
double rtm_mon_elapsed_s(const struct rtm_mon *mo);
/*
 * -o: the results folder of the whole session (and the spike windows already
 * there), its path on the output stream; the exit status. Call after the probe
 * was stopped.
 */
int rtm_mon_finish(struct rtm_mon *mo);
/* Everything released, the options too. */
void rtm_mon_free(struct rtm_mon *mo);

/* ---- monitor_noise.c: --noise-cpus, the noise panel's figures */

/* After rtm_session_prepare(): the two probes' CPUs apart, the options checked. */
int rtm_mon_noise_prepare(struct rtm_mon *mo);
/* The noise probe (and its gap causes) started; -1 with @err set. */
int rtm_mon_noise_start(struct rtm_mon *mo, struct rtm_error *err);
void rtm_mon_noise_poll(struct rtm_mon *mo);
/* Fresh figures, and causes for the gaps whose events are in. */
void rtm_mon_noise_refresh(struct rtm_mon *mo);
/* -o at the end: sections.noise (with causes) into @r. */
int rtm_mon_noise_finish(struct rtm_mon *mo, struct rtm_result *r, struct rtm_error *err);
void rtm_mon_noise_free(struct rtm_mon *mo);

/* ---- monitor_io.c: --io, the storage probe's lines */

/*
 * After rtm_session_prepare(): the probe's CPU apart from the timer probe's (and
 * the noise probe's), the target's folder known. 0 or the exit status.
 */
int rtm_mon_io_prepare(struct rtm_mon *mo);
/* The target opened and the probe started; -1 with @err set. */
int rtm_mon_io_start(struct rtm_mon *mo, struct rtm_error *err);
void rtm_mon_io_poll(struct rtm_mon *mo);
/* Fresh figures of every operation. */
void rtm_mon_io_refresh(struct rtm_mon *mo);
/* An operation's line from what the probe recorded for it (@rec: its rtm_io_oprec). */
void rtm_mon_io_fill(struct rtm_mon_io *row, const struct rtm_io_oprec *rec);
/* -o at the end: sections.io (with its target) into @r. */
int rtm_mon_io_finish(struct rtm_mon *mo, struct rtm_result *r, struct rtm_error *err);
void rtm_mon_io_free(struct rtm_mon *mo);

/* ---- monitor_wakeup.c: --wakeup, the box's tasks worst first */

/* After rtm_session_prepare(): the options checked, the programs built. 0 or the exit status. */
int rtm_mon_wakeup_prepare(struct rtm_mon *mo);
/* The programs loaded and attached; -1 with @err set (wakeup's words). */
int rtm_mon_wakeup_start(struct rtm_mon *mo, struct rtm_error *err);
void rtm_mon_wakeup_poll(struct rtm_mon *mo);
/*
 * Fresh tasks: the programs' table copied into mo->wk_snap, the worst first;
 * with --prometheus (mo->live) sections.wakeup of the live page from them.
 */
void rtm_mon_wakeup_refresh(struct rtm_mon *mo);
/* @s's tasks less those of process @tgid (the monitor's own threads), sorted by max. */
void rtm_mon_wakeup_others(struct rtm_wakeup_snap *s, int tgid);
/*
 * A snapshot (the s key): sections.wakeup (with its census) into @r as -o saves
 * it, from a fresh copy while the programs run (else mo->wk_snap as it is); 0
 * without --wakeup, -errno with @err set.
 */
int rtm_mon_wakeup_snapshot(struct rtm_mon *mo, struct rtm_result *r, struct rtm_error *err);
/* -o at the end: sections.wakeup (with its census) into @r. */
int rtm_mon_wakeup_finish(struct rtm_mon *mo, struct rtm_result *r, struct rtm_error *err);
void rtm_mon_wakeup_free(struct rtm_mon *mo);

#endif
