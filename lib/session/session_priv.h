/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session_priv.h - what the files of lib/session/ share: one measurement from its
 * set-up to its outcome, and the parts of the drive loop each file keeps.
 */
#ifndef RTM_SESSION_PRIV_H
#define RTM_SESSION_PRIV_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "session/session.h"

struct rtm_sysinfo;
struct rtm_load;
struct rtm_trace;
struct rtm_stream;
struct rtm_session_irq;
struct rtm_cpulock;
struct rtm_probe_run;
struct rtm_cyclic;
struct rtm_timersplit;
struct rtm_session_io;

/* Everything one measurement holds, from its set-up to its outcome. */
struct rtm_session {
	struct rtm_session_opts *o;
	const struct rtm_session_ops *ops;
	struct rtm_sysinfo *si;
	struct rtm_load *load;
	struct rtm_trace *trace;	/* the flight recorder (--trace) */
	bool trace_in_stream;		/* @trace is @stream's instance (not destroyed alone) */
	struct rtm_session_irq *irq;
	struct rtm_stream *stream;	/* --rt-hold, --timer-irq, census, gap causes */
	struct rtm_timersplit *split;	/* --bpf: the timer IRQ split in the kernel */
	void *prom;			/* the --prometheus server (ops->serve) */
	struct rtm_cpulock *locks;
	struct rtm_probe_run *run;
	struct rtm_cyclic *c;		/* the timer session; NULL for another probe */
	struct rtm_session_io *io;	/* run --io: the storage probe beside */
	struct rtm_result *r;
	struct rtm_error err;
	char dir[PATH_MAX];
	char note[512];
	char load_io_dir[PATH_MAX];	/* run --io --load io: the writer's folder, "": none */
	int histfile_fd;		/* --histfile, --json=FILE: a FIFO or device opened */
	int json_fd;			/* at the check (-1: a file, written at the end) */
	bool dir_made;			/* the results folder did not exist before the run */
	bool reported;
	bool report_failed;		/* the report promised (run, noise) was not made: exit 2 */
	bool throughput_failed;		/* run --throughput's phase failed: exit 2, latency kept */
	bool noise_failed;		/* run --noise's phase could not run: the same */
};

/* The command's stop flag is set. */
static inline bool rtm_session_stopping(const struct rtm_session_opts *o)
{
	return o->stop && *o->stop;
}

/* "rtmeasure: <message>" on @o's error stream; returns RTM_SESSION_EXIT_USAGE. */
int rtm_session_fail(const struct rtm_session_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- the checks before a run (lib/session/checks.c) */

/*
 * Check the options against the box: the CPUs (default: every allowed one),
 * privileges, /dev/cpu_dma_latency, the trace options. RTM_SESSION_EXIT_USAGE
 * after the one-line message.
 */
int rtm_session_prepare(struct rtm_session_opts *o);
/*
 * --housekeeping: move the calling thread (and so every thread it starts
 * later) to those CPUs; call after the load has started (its processes keep
 * their own placement) and before the probes (they pin themselves).
 * Returns 0 or -errno.
 */
int rtm_session_housekeeping_apply(const struct rtm_session_opts *o);
/*
 * The results folder @dir, before measuring: created if missing; refused with
 * one line (RTM_SESSION_EXIT_USAGE) when it is a file, a symbolic link without
 * --follow, not writable, or holds an earlier result without --force (which
 * clears the files rtmeasure wrote there). 0 when it can be used.
 */
int rtm_session_check_outdir(const struct rtm_session_opts *o, const char *dir);

struct rtm_cpulock;
/*
 * Announce the measured CPUs to other rtmeasure runs (runlock.h). Another run
 * on one of them: with --exclusive (ours or its) the one-line error and
 * RTM_SESSION_EXIT_USAGE in *@status, else @note says which CPUs are shared,
 * with whom. A lock directory that cannot be used is noted too (refused with
 * --exclusive).
 */
struct rtm_cpulock *rtm_session_cpus_lock(const struct rtm_session_opts *o, char *note,
					  size_t len, int *status);
/* A later run joined our CPUs since the last call: @note says so (once). */
bool rtm_session_cpus_poll(struct rtm_cpulock *l, double elapsed_s, char *note, size_t len);
/* result.json sections.shared_cpus: the CPUs another rtmeasure measured too. */
void rtm_session_cpus_record(struct rtm_cpulock *l, struct rtm_result *r);
/* The same from what the locks know now, without looking for later runs (no poll). */
void rtm_session_cpus_note(const struct rtm_cpulock *l, struct rtm_result *r);
/*
 * The monitor's line while measuring: "another rtmeasure measures CPU 0 too
 * (pid N): ..." (result/disturb.h); false, @buf untouched, when no CPU is shared.
 */
bool rtm_session_cpus_line(const struct rtm_cpulock *l, char *buf, size_t len);

/* ---- the results folder (lib/session/output.c) */

/* The options as result.json records them. */
json_t *rtm_session_options_json(const struct rtm_session_opts *o);
/* result.json and histogram.txt into @dir; RTM_SESSION_EXIT_USAGE after the message. */
int rtm_session_save_results(const struct rtm_session_opts *o, const struct rtm_result *r,
			     const char *dir);
/* The same without the message: 0 or -errno with @err set. */
int rtm_session_write_results(const struct rtm_session_opts *o, const struct rtm_result *r,
			      const char *dir, struct rtm_error *err);

/* ---- rescue.c: a result that -o could not take is not lost */

/* histogram.txt's text (*@text NULL for a noise result, which has none); 0 or -ENOMEM. */
int rtm_session_histogram_text(const struct rtm_session_opts *o, const struct rtm_result *r,
			       char **text, size_t *len);

/*
 * --fallback-dir, before measuring: an existing folder that can be written and
 * holds no result (unless --force), or a name whose folder can be written.
 * RTM_SESSION_EXIT_USAGE after the one-line message; 0 when usable or not given.
 */
int rtm_session_check_fallback(const struct rtm_session_opts *o);
/*
 * The results folder @dir could not be written (the message is out): one line
 * saying how much space the results need, and the results saved in
 * --fallback-dir, else (or when that fails too) in a new folder in $TMPDIR or
 * /tmp. 0 with the folder in @where, or -1 when nowhere could take them (the
 * line says so).
 */
int rtm_session_rescue(const struct rtm_session_opts *o, const struct rtm_result *r,
		       const char *dir, char *where, size_t len);

/* ---- the streaming instance's consumers (lib/session/streaming.c, lib/trace/stream.h) */

/* --rt-hold, --timer-irq, the spike census or the gap causes: a stream is wanted. */
bool rtm_session_stream_wanted(const struct rtm_session_opts *o);
/* noise --trace: each gap's cause, given or on by default as root. */
bool rtm_session_noise_trace_wanted(const struct rtm_session_opts *o);
/*
 * The streaming instance (rtmeasure-PID-stream) on the measured CPUs, started now,
 * with the consumers @o wants. NULL with @err set.
 */
struct rtm_stream *rtm_session_stream_start(const struct rtm_session_opts *o,
					    struct rtm_error *err);
/*
 * rtm_session_stream_start() with the handler times' events too when @o traces
 * (--trace): rtm_session_irq_start() taps them, one instance fewer to make, drain
 * and remove.
 */
struct rtm_stream *rtm_session_stream_start_irq(const struct rtm_session_opts *o,
						struct rtm_error *err);
/*
 * rtm_session_stream_start() failed: true (after a note naming why) when the run
 * goes on without it, which only noise's default gap causes do.
 */
bool rtm_session_stream_optional(struct rtm_session_opts *o, const struct rtm_error *err);
/*
 * Stop, drain, close what is open, and write r->sections.rt_holds, .timer_irq and
 * .spike_census, and the gap causes into r->sections.noise (after the probe's
 * finish); the warnings on @o's error stream.
 */
void rtm_session_stream_finish(const struct rtm_session_opts *o, struct rtm_stream *st,
			       struct rtm_result *r);
/*
 * The timer probe's late wake-ups so far into the stream's census, the steal time
 * beside them, and the verdicts on those the stream has caught up with (after
 * rtm_stream_poll(); once more after the probe stopped, before the finish).
 */
void rtm_session_census_poll(struct rtm_stream *st, struct rtm_cyclic *c);

/* ---- ioside.c: run --io, the storage probe beside the timer probe */

/*
 * Its CPU picked (off the measured ones unless --io-cpu), its target opened as
 * `rtmeasure io` opens it (in @dir by default). NULL without --io, or with
 * RTM_SESSION_EXIT_USAGE in *@status after the one-line refusal.
 */
struct rtm_session_io *rtm_session_io_open(struct rtm_session_opts *o, const char *dir,
					   int *status);
/* options.io in result.json: what the storage probe was asked to do, and where. */
json_t *rtm_session_io_options_json(const struct rtm_session_opts *o);
/* The folder of the target's file (--load io writes there); NULL for a device. */
const char *rtm_session_io_load_dir(const struct rtm_session_io *s, char *buf, size_t len);
/* The causes' trace (--trace with --io-deadline) and the probe's thread; -1 with @err. */
int rtm_session_io_start(struct rtm_session_io *s, const struct rtm_session_opts *o,
			 struct rtm_error *err);
/* The line that says what the storage probe measures, on which CPU. */
void rtm_session_io_banner(const struct rtm_session_io *s, const struct rtm_session_opts *o);
/* At each turn of the drive loop: the new misses to the causes, the trace drained. */
void rtm_session_io_poll(struct rtm_session_io *s);
/* After the timer probe: the storage probe ended, sections.io (and .causes) into @r. */
int rtm_session_io_finish(struct rtm_session_io *s, const struct rtm_session_opts *o,
			  struct rtm_result *r, struct rtm_error *err);
/* Everything closed, a created target file removed; 0 or -errno with @err. */
int rtm_session_io_close(struct rtm_session_io *s, struct rtm_error *err);

/* ---- opts.c */

/* A wake-up latency probe (the timer probe or the timerlat tracer): r->cpus, the summary. */
bool rtm_session_latency_probe(const struct rtm_session_opts *o);

/* ---- streaming.c: the census takes the late wake-ups (--trace --capture-above, the split) */
bool rtm_session_census_wanted(const struct rtm_session_opts *o);

/* ---- backend.c: --backend auto|timer|timerlat, checked; RTM_SESSION_EXIT_USAGE */
int rtm_session_pick_backend(struct rtm_session_opts *o);

/* ---- flight.c: the flight recorder and the spike captures */

/*
 * Check the trace options against the others; RTM_SESSION_EXIT_USAGE after the
 * message. The default --timer-irq is turned off on a kernel that hides
 * hrtimer_wakeup's address (o->trace.timer_irq_off says why when tracing).
 */
int rtm_session_trace_check(struct rtm_session_opts *o);
/* Once the run has started: the note that the default --timer-irq is off, if it is. */
void rtm_session_timer_irq_note(const struct rtm_session_opts *o);
/*
 * Create the instance (only the measured CPUs), check its clock, note the trace
 * options in @r and start recording. NULL with @err set.
 */
struct rtm_trace *rtm_session_trace_start(struct rtm_session_opts *o, struct rtm_result *r,
					  struct rtm_error *err);
/*
 * The flight recorder is the streaming instance, when the run streams and
 * records the preset events unfiltered (no --trace-events, no --trace-filter):
 * each event is written once, not into two instances.
 */
bool rtm_session_flight_in_stream(const struct rtm_session_opts *o);
/*
 * The flight recorder in @st's instance (started with flight_events, keep_kb and
 * start_off): its clock checked, the options noted in @r, tracing started. The
 * instance stays @st's (rtm_stream_free() removes it). NULL with @err set.
 */
struct rtm_trace *rtm_session_trace_in_stream(struct rtm_session_opts *o, struct rtm_result *r,
					      struct rtm_stream *st, struct rtm_error *err);
/*
 * Whether @t holds the whole window of the capture @pc: an instance that keeps
 * its drained pages (the stream as flight recorder) holds it once a drain began
 * after the window's end; until then the capture waits for the next drain (2 s
 * at most: a stream that stopped draining gives what it kept).
 */
bool rtm_session_window_kept(const struct rtm_session_opts *o, const struct rtm_trace *t,
			     const struct rtm_probe_hit *pc);
/*
 * Save the capture a probe asked for, if any (spikes/spike-NNN.*, an event in
 * @r), then switch tracing back on when @resume and more captures may follow.
 * While @resume, a capture whose window the kept pages do not hold yet waits.
 */
void rtm_session_trace_poll(const struct rtm_session_opts *o, struct rtm_trace *t,
			    struct rtm_cyclic *c, struct rtm_result *r, const char *dir,
			    bool resume);
/* After the run: save the window of the -b spike, if there was one. */
void rtm_session_trace_break(const struct rtm_session_opts *o, struct rtm_trace *t,
			     struct rtm_result *r, const char *dir);
/* One line per saved capture: CPU, latency, verdict, file. */
void rtm_session_trace_print(const struct rtm_result *r, const char *dir, FILE *f);

/* ---- feed.c: noise --trace while it runs */

/* After a drain: the gaps logged since the last call laid over the events. */
void rtm_session_noise_live(struct rtm_stream *st, struct rtm_probe_run *run);
#define RTM_SESSION_NOISE_LINE	320
/*
 * One line per measured CPU into @out (at most @max): noise, largest gap, gaps,
 * and with --trace the time per cause so far. How many; 0 when @run is not noise.
 */
int rtm_session_noise_lines(struct rtm_stream *st, struct rtm_probe_run *run,
			    char (*out)[RTM_SESSION_NOISE_LINE], int max);

/* ---- irqs.c: interrupt counts (and handler times with --trace) */

/*
 * Snapshot /proc/interrupts; with --trace the handler times from the stream @st
 * when it carries the IRQ events (rtm_session_stream_start_irq()), else from a
 * streaming irq instance of their own started now. @st (may be NULL) must live
 * until rtm_session_irq_finish().
 */
struct rtm_session_irq *rtm_session_irq_start(const struct rtm_session_opts *o,
					      struct rtm_stream *st, struct rtm_error *err);
/* Drain the irq instance (the drive loop, at every wake-up); the stream drains itself. */
void rtm_session_irq_poll(struct rtm_session_irq *mi);
/* Counts over the run (and handler times) into r->sections.irq. */
void rtm_session_irq_finish(struct rtm_session_irq *mi, const struct rtm_session_opts *o,
			    struct rtm_result *r);
/* The busiest interrupts of the measured CPUs, one line. */
void rtm_session_irq_print(const struct rtm_session_irq *mi, FILE *f);
/*
 * The IRQ instance removed (its events all read by rtm_session_irq_finish()),
 * before the flight recorder made before it (rtm_trace_destroy() says why the
 * order matters); the stream is forgotten (freed by its owner).
 */
void rtm_session_irq_untrace(struct rtm_session_irq *mi);
void rtm_session_irq_free(struct rtm_session_irq *mi);

/* ---- noisephase.c: run --noise */

/*
 * The noise probe's options from a latency session's @m (its scheduling, memory
 * locking and PM QoS target), on @cpus for @duration_ns (0: until stopped), its
 * backend's @reason: into @n, the CPU lists borrowed from @m.
 */
void rtm_session_noise_opts(const struct rtm_session_opts *m, struct rtm_session_opts *n,
			    const struct rtm_cpulist *cpus, uint64_t duration_ns,
			    const char *reason);

/*
 * The noise phase on the latency phase's CPUs, after its threads are joined
 * (@latency_end_ns, CLOCK_MONOTONIC, recorded in sections.noise.phase):
 * sections.noise into @r. A stop ends it with what was measured. -1 after a
 * warning when it could not run (the latency results are kept).
 */
int rtm_session_noise_phase(struct rtm_session_opts *o, struct rtm_result *r,
			    uint64_t latency_end_ns);

/* ---- live.c: the live lines on a terminal, the progress lines elsewhere */

struct rtm_session_live_lines {
	bool on;
	int nlines;
	char cap_up[32];	/* terminfo cuu1, its padding left out */
	char cap_el[32];	/* terminfo el */
};

struct rtm_session_progress {
	bool on;
	double period_s;
	double next_s;
};

void rtm_session_live_init(struct rtm_session_live_lines *l, const struct rtm_session_opts *o);
/* The timer's figures, or the noise probe's (with the causes so far), once a second. */
void rtm_session_live_show(struct rtm_session_live_lines *l, struct rtm_session *s, double el);
void rtm_session_progress_init(struct rtm_session_progress *p,
			       const struct rtm_session_opts *o);
void rtm_session_progress_show(struct rtm_session_progress *p, struct rtm_session *s,
			       double elapsed);

/* ---- output.c: the outcome */

/* Outcome 2: the results folder and its report; the table goes out even if they fail. */
int rtm_session_outcome_save(struct rtm_session *s);
/* Outcome 3: what the user reads (or --json), the extra files, the bounds. */
int rtm_session_outcome_print(struct rtm_session *s);
/*
 * A file named on the command line: can it be written (no symlink unless
 * --follow)? A FIFO or character device is opened now into *@fd (a FIFO no
 * process reads is refused), else *@fd is -1. RTM_SESSION_EXIT_USAGE after
 * the one-line message.
 */
int rtm_session_check_out_file(const struct rtm_session_opts *o, const char *path,
			       const char *opt, int *fd);

/* ---- the timer IRQ split counted in the kernel (lib/session/bpfsplit.c) */

/*
 * --bpf against the other options and the box, or the automatic choice of a long
 * run; before the run's other checks. RTM_SESSION_EXIT_USAGE after the message.
 */
int rtm_session_split_check(struct rtm_session_opts *m);
/* ", timer IRQ split: bpf (why)" or "tracefs", for the start line; "" without one. */
void rtm_session_split_desc(const struct rtm_session_opts *m, char *buf, size_t len);
/* The BPF programs loaded before the probe starts; NULL with @err set. */
struct rtm_timersplit *rtm_session_split_start(const struct rtm_session_opts *m,
					       struct rtm_error *err);
/* After the probe's threads have ended: sections.timer_irq from the programs' maps. */
void rtm_session_split_finish(const struct rtm_session_opts *m, struct rtm_timersplit *ts,
			      struct rtm_result *r);
/*
 * The split's figures so far as one line ("timer IRQ p99: ..."), from whichever path
 * splits (the BPF maps read now, or the stream as drained); "" without a split.
 */
void rtm_session_split_line(struct rtm_session *s, char *buf, size_t len);
/* The stream splits the timer IRQ off (--trace, --timer-irq): streaming.c. */
bool rtm_session_timer_irq_wanted(const struct rtm_session_opts *m);

#endif
