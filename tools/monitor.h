/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * monitor.h - rtmeasure monitor: the state the data side (cmd_monitor.c) keeps
 * and the drawing side (monitor_draw.c) shows. Collecting and drawing are
 * separate, as in htop: the probes never wait on the screen.
 */
#ifndef RTM_TOOL_MONITOR_H
#define RTM_TOOL_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

#include "probe/cyclic.h"
#include "present/dashfmt.h"
#include "core/hist.h"
#include "irq/irq.h"
#include "irq/handlers.h"
#include "cli/measure_opts.h"
#include "session/session.h"
#include "trace/stream.h"
#include "trace/noiseattr.h"
#include "box/sysinfo.h"
#include "tracefs/instance.h"

#define MON_SPARK 60			/* sparkline: the last 60 refreshes' maxima */
#define MON_SPIKES 64			/* spike log entries kept */
#define MON_IRQ_ROWS 16

struct mon_cpu {
	int cpu;
	struct rtm_hist *cur, *prev, *base, *view;	/* view = cur - base (after a reset) */
	struct rtm_probe_cpu_snap snap;
	uint64_t base_samples, base_overruns;
	uint64_t spark[MON_SPARK];	/* per-refresh maxima, oldest first */
	/* figures shown */
	uint64_t samples, overruns, cur_ns, min_ns, max_ns, p99_ns, p999_ns;
	double avg_ns;
};

struct mon_spike {
	double t_s;			/* seconds since the start */
	int cpu;
	uint64_t latency_ns;
	char verdict[400];
};

struct mon_irq {
	char name[24], desc[48];
	double rate;
	uint64_t count, total_ns, max_ns;	/* handler time when tracing */
};

/* --noise-cpus: one noise CPU's panel row (monitor_noise.c) */
struct mon_noise {
	int cpu;
	uint64_t sampled_ns, noise_ns, max_gap_ns, gaps;	/* since the start */
	uint32_t attributed;		/* gaps given a cause so far (the log's first ones) */
	uint64_t class_ns[RTM_NOISE_NCLASSES];	/* their time by class (enum rtm_noise_class) */
	uint64_t caused_max_ns;		/* the largest of them, and its main cause */
	char max_cause[96];
	bool traced;
};

#define MON_NOISE_CELLS 6		/* CPU, noise %, max gap, gaps, its cause, main class */
#define MON_OPT_NOISE_CPUS 3004

struct mon {
	struct rtm_session_opts m;
	uint64_t refresh_ns;
	uint64_t threshold_ns;
	bool once, plain, quiet_keys;
	struct rtm_sysinfo *si;
	struct rtm_probe_run *run;	/* the runner (lib/probe/probe.h) driving the timer probe */
	struct rtm_cyclic *c;		/* its session, for the figures */
	struct rtm_probe_timer *p;
	int n;
	struct mon_cpu *cpus;
	uint64_t start_ns, refreshes;
	/* interrupts */
	struct rtm_irq_snap irq_prev;
	bool irq_ok;
	struct mon_irq irqs[MON_IRQ_ROWS];
	int nirqs;
	/* tracing (key t) */
	struct rtm_trace *trace, *irqtrace;
	struct rtm_irqacct *acct;
	bool tracing;
	char spike_dir[4096];
	bool spike_dir_tmp;
	int nspike_files;
	struct mon_spike spikes[MON_SPIKES];
	int nspikes;			/* total seen; the last MON_SPIKES kept */
	struct rtm_stream *hold;	/* --rt-hold: RT tasks holding a CPU (with tracing) */
	char holdline[256];		/* its line, "" when not tracing them */
	char tirqline[256];		/* --timer-irq: its line, "" when not tracing it */
	char censusline[512];		/* the spike census: its line, "" when not tracing */
	/* display */
	bool colours, utf8;		/* the terminal's, set by mon_draw_init() */
	bool paused, help;
	enum rtm_dash_panel focus;
	int scroll;
	char message[160];
	int nsaved;
	struct rtm_cpulock *locks;	/* the measured CPUs, announced to other runs */
	/* --noise-cpus: the noise probe beside the timer probe, on other CPUs */
	struct rtm_cpulist noise_cpus;
	bool noise_opt_given;
	int nn;
	struct mon_noise *noise;
	struct rtm_probe_run *nrun;
	struct rtm_probe_noise *np;
	struct rtm_stream *nhold;	/* its gap causes (root, tracefs), or NULL */
	struct rtm_noise_gap *gapbuf;
	char noise_note[256];
};

/* monitor_noise.c: --noise-cpus and its panel's figures */
/* --noise-cpus and the --noise-* options: 1 taken, 0 not ours, RTM_EXIT_USAGE. */
int mon_noise_parse(struct mon *mo, int c, int argc, char **argv);
/* After rtm_session_prepare(): the two probes' CPUs apart, the options checked. */
int mon_noise_prepare(struct mon *mo);
/* The noise probe (and its gap causes) started; -1 with @err set. */
int mon_noise_start(struct mon *mo, struct rtm_error *err);
void mon_noise_poll(struct mon *mo);
/* Fresh figures, and causes for the gaps whose events are in. */
void mon_noise_refresh(struct mon *mo);
void mon_noise_cells(const struct mon *mo, int i, char cells[MON_NOISE_CELLS][64]);
/* -o at the end: sections.noise (with causes) into @r. */
int mon_noise_finish(struct mon *mo, struct rtm_result *r, struct rtm_error *err);
void mon_noise_free(struct mon *mo);

/* monitor_draw.c */
void mon_draw_init(struct mon *mo);
void mon_draw_end(void);
void mon_draw(struct mon *mo);
/* Arrow keys, PgUp/PgDn, Home/End: scroll the CPU table. */
void mon_scroll_key(struct mon *mo, int key);
/* Wait up to @ms for a key; -1 when none (curses ERR). */
int mon_getkey(int ms);
/* Plain text, one block per refresh (not a terminal, or --once). */
void mon_print_plain(const struct mon *mo);

#endif
