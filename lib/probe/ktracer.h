/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ktracer.h - the kernel's hwlat tracer as a backend of `rtmeasure noise`.
 *
 * hwlat runs in a private instance (the kernel allows one instance at a time
 * to have it), but its width, window, thread mode and tracing_thresh are
 * global files of the top level: they are saved before rtmeasure writes them
 * and put back on every exit path; a journal in the lock directory lets the
 * next run put them back when SIGKILL left no exit path. The functions here work on a tracefs
 * directory given by path, so the save/apply/restore rules are tested on a
 * copied tree. Its samples (ftrace:hwlat, decoded by tracedec) are gathered
 * per CPU into what sections.noise holds (docs/result-schema.md).
 */
#ifndef RTM_KTRACER_H
#define RTM_KTRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "probe/probe.h"
#include "probe/probe_noise.h"
#include "result/result.h"
#include "box/rt.h"
#include "core/units.h"
#include "tracefs/tracedec.h"

/* True when @tracer is listed in @tracing_dir/available_tracers. */
bool rtm_ktracer_has(const char *tracing_dir, const char *tracer);

/*
 * Whether the top level or an instance runs @tracer in its current_tracer;
 * @where gets that file's path. osnoise lets several instances share the
 * tracer (and its global settings): another user's is found here, not by EBUSY.
 */
bool rtm_ktracer_in_use(const char *dir, const char *tracer, char *where, size_t len);

/* A global file of a tracer's settings and where its saved text goes. */
struct rtm_ktracer_file {
	const char *rel;		/* below the tracefs top level */
	char *buf;
	size_t len;
};

/*
 * Read @n files of @dir into their buffers (a tracer's settings saved before
 * rtmeasure writes them). 0, or -errno with @err naming the file that could
 * not be read.
 */
int rtm_ktracer_save(const char *dir, const struct rtm_ktracer_file *files, size_t n,
		     struct rtm_error *err);

/* Write @val to @dir/@rel; 0 or -errno. */
int rtm_ktracer_write(const char *dir, const char *rel, const char *val);
/*
 * A busy part and its period (hwlat's width/window, osnoise's runtime/period):
 * the kernel keeps width <= window at every write, so the order of the two
 * writes depends on the current window. 0 or -errno.
 */
int rtm_ktracer_write_duty(const char *dir, const char *width_file, const char *width,
			   const char *window_file, const char *window);

/* The global settings hwlat uses, as their files read. */
/*
 * The clock of a kernel tracer probe (hwlat, osnoise, timerlat): when it
 * started and stopped, CLOCK_MONOTONIC, its duration bound and the next 1 s
 * snapshot boundary. The probe seam's elapsed/done/stop/next_tick answers.
 */
struct rtm_ktclock {
	uint64_t start_ns, stop_ns, next_tick_ns;
	uint64_t duration_ns;		/* 0: until stopped */
	bool stopped;
};

/* Measuring starts now, for @duration_ns (0: until stopped); a stop already asked for stays. */
void rtm_ktclock_start(struct rtm_ktclock *c, uint64_t duration_ns);
/*
 * A snapshot's turn: true when the probe should drain its buffer now (always
 * when not @boundary; at a boundary only once a second, moving to the next).
 */
bool rtm_ktclock_due(struct rtm_ktclock *c, bool boundary);
/* The end of what was measured: now, the stop, or start + duration, the earliest. */
uint64_t rtm_ktclock_end_ns(const struct rtm_ktclock *c);
double rtm_ktclock_elapsed_s(const struct rtm_ktclock *c);
bool rtm_ktclock_done(const struct rtm_ktclock *c);
void rtm_ktclock_stop(struct rtm_ktclock *c);

struct rtm_hwlat_saved {
	char thresh[32];		/* tracing_thresh, us (0: the tracer's default) */
	char width[32];			/* hwlat_detector/width, us */
	char window[32];		/* hwlat_detector/window, us */
	char mode[32];			/* hwlat_detector/mode's selected word, "" if no file */
};

/* Read the settings; -errno with @err naming the file that could not be read. */
int rtm_hwlat_save(const char *dir, struct rtm_hwlat_saved *s, struct rtm_error *err);

/**
 * rtm_hwlat_apply - write hwlat's global settings
 * @mode: "per-cpu", "round-robin" or "none"; NULL, or a kernel without the
 *	mode file (before 5.14): left alone
 *
 * The kernel keeps width <= window at every write, so the order of the two
 * writes depends on the current window. -errno with @err set.
 */
int rtm_hwlat_apply(const char *dir, uint64_t thresh_us, uint64_t width_us, uint64_t window_us,
		    const char *mode, struct rtm_error *err);

/* Put back what rtm_hwlat_save() read; 0 or the first -errno (all are tried). */
int rtm_hwlat_restore(const char *dir, const struct rtm_hwlat_saved *s);

/*
 * The per-CPU figures of a noise tracer (hwlat, osnoise): @ncpus entries of
 * @size bytes, indexed by CPU number, each starting with the CPU's gap record
 * (struct rtm_noise_rec) and going on with the tracer's own counts.
 */
struct rtm_ktnoise {
	int ncpus;
	size_t size;
	void *cpu;
};

/*
 * A tracer's accumulator of @acc_size bytes, zeroed, that starts with its
 * struct rtm_ktnoise: @ncpus entries of @size bytes, each record with
 * @report_above_ns and a log of @max_gaps gaps. NULL when out of memory.
 */
void *rtm_ktnoise_alloc(size_t acc_size, int ncpus, size_t size, uint64_t report_above_ns,
			uint32_t max_gaps);
void rtm_ktnoise_free(void *acc);
/* The entry of CPU @cpu; NULL out of range. */
void *rtm_ktnoise_cpu(const struct rtm_ktnoise *n, int cpu);

/*
 * sections.noise's "cpus": for every CPU of @cpus in range, @entry_json(its
 * entry, the CPU, its gap list: [start - @start_ns, length] pairs, a reference
 * it takes). NULL when out of memory.
 */
json_t *rtm_ktnoise_cpus_json(const struct rtm_ktnoise *n, const struct rtm_cpulist *cpus,
			      uint64_t start_ns,
			      json_t *(*entry_json)(const void *entry, int cpu, json_t *gaps));

/* hwlat's samples gathered per CPU. */
struct rtm_hwlat_acc;

struct rtm_hwlat_acc *rtm_hwlat_acc_alloc(int ncpus, uint64_t report_above_ns,
					  uint32_t max_gaps);
void rtm_hwlat_acc_free(struct rtm_hwlat_acc *a);
/* One decoded event (others are ignored); an rtm_event_cb. */
int rtm_hwlat_acc_event(const struct rtm_event *ev, void *acc);

/**
 * rtm_hwlat_section - sections.noise from the samples
 * @cpus: the CPUs hwlat sampled (each gets an entry, samples or not)
 * @start_ns: CLOCK_MONOTONIC of the start: gap times are relative to it
 *
 * What hwlat does not report (time sampled, the loop's period, the sum of
 * all gaps) is null, never estimated. NULL when out of memory.
 */
json_t *rtm_hwlat_section(const struct rtm_hwlat_acc *a, const struct rtm_probe_noise_opts *o,
			  uint64_t start_ns, uint64_t duration_ns);

/* ---- ktracer_osnoise.c: the osnoise tracer */

/* The global settings osnoise uses, as their files read. */
struct rtm_osnoise_saved {
	char thresh[32];		/* tracing_thresh, us (0: the tracer's 1 us) */
	char runtime[32];		/* osnoise/runtime_us */
	char period[32];		/* osnoise/period_us */
	char stop[32], stop_total[32];	/* osnoise/stop_tracing_us, stop_tracing_total_us */
	char cpus[256];			/* osnoise/cpus: where its threads run */
};

int rtm_osnoise_save(const char *dir, struct rtm_osnoise_saved *s, struct rtm_error *err);
/*
 * Write osnoise's global settings: threshold, busy @runtime_us of every
 * @period_us on @cpus ("0-3"), and no stop_tracing (a run must not stop the
 * tracer under another user's feet, nor ours). -errno with @err set.
 */
int rtm_osnoise_apply(const char *dir, uint64_t thresh_us, uint64_t runtime_us,
		      uint64_t period_us, const char *cpus, struct rtm_error *err);
int rtm_osnoise_restore(const char *dir, const struct rtm_osnoise_saved *s);

/* osnoise's periods and noise samples gathered per CPU. */
struct rtm_osnoise_acc;

struct rtm_osnoise_acc *rtm_osnoise_acc_alloc(int ncpus, uint64_t report_above_ns,
					      uint32_t max_gaps);
void rtm_osnoise_acc_free(struct rtm_osnoise_acc *a);
int rtm_osnoise_acc_event(const struct rtm_event *ev, void *acc);
/*
 * sections.noise from the periods (runtime, noise, largest noise, counts by
 * cause) and the samples above the threshold (the gaps: histogram and list,
 * each at the time its event was written, the gap's end). No loop period:
 * null. NULL when out of memory.
 */
json_t *rtm_osnoise_section(const struct rtm_osnoise_acc *a,
			    const struct rtm_probe_noise_opts *o, uint64_t start_ns,
			    uint64_t duration_ns);

/* ---- ktracer_timerlat.c: the timerlat tracer (`cyclic --backend timerlat`) */

/* The global settings timerlat uses (osnoise/ files shared with osnoise), as read. */
struct rtm_timerlat_saved {
	char period[32];		/* osnoise/timerlat_period_us */
	char stop[32], stop_total[32];	/* osnoise/stop_tracing_us, stop_tracing_total_us */
	char print_stack[32];		/* osnoise/print_stack, "" when the kernel has none */
	char cpus[256];			/* osnoise/cpus: where the timerlat/N threads run */
};

int rtm_timerlat_save(const char *dir, struct rtm_timerlat_saved *s, struct rtm_error *err);
/*
 * Write timerlat's settings: the period, @cpus ("0-3"), no stop_tracing (a
 * run must not stop the tracer under another user's feet, nor ours) and no
 * stack printing. -errno with @err set.
 */
int rtm_timerlat_apply(const char *dir, uint64_t period_us, const char *cpus,
		       struct rtm_error *err);
/* Put back what rtm_timerlat_save() read; 0 or the first -errno (all are tried). */
int rtm_timerlat_restore(const char *dir, const struct rtm_timerlat_saved *s);

/* timerlat's samples gathered per CPU. */
struct rtm_timerlat_acc;

/* CPUs 0 .. @ncpus-1; @period_ns: the timerlat period (the overrun count needs it). */
struct rtm_timerlat_acc *rtm_timerlat_acc_alloc(int ncpus, uint64_t period_ns);
void rtm_timerlat_acc_free(struct rtm_timerlat_acc *a);
/* One decoded event (others are ignored), each CPU's in order; an rtm_event_cb. */
int rtm_timerlat_acc_event(const struct rtm_event *ev, void *acc);
/* Thread samples of CPU @cpu so far (0 for a CPU out of range). */
uint64_t rtm_timerlat_acc_thread_samples(const struct rtm_timerlat_acc *a, int cpu);

/**
 * rtm_timerlat_fill - the samples into a result
 * @cpus: the measured CPUs (each gets an entry, samples or not)
 * @events_lost: what the ring buffer lost (the kernel's count)
 *
 * The thread latency (timer expiry to the timerlat thread running: what the
 * userspace probe's wake-up latency is) goes into r->cpus[] raw histograms,
 * the IRQ latency into sections.timer_irq, the counts (samples, seqnum gaps
 * per context) into sections.timerlat. 0 or -ENOMEM.
 */
int rtm_timerlat_fill(const struct rtm_timerlat_acc *a, const struct rtm_cpulist *cpus,
		      uint64_t events_lost, struct rtm_result *r);

/* ---- ktjournal.c: the settings a killed run leaves for the next one */

/*
 * A run's journal of a tracer's saved settings: a file in the lock directory
 * (core/runlock.h) that the run holds locked while it lives, so a run killed
 * before it could put the settings back leaves what the next run needs.
 */
struct rtm_ktjournal {
	int fd;
	char name[128];			/* its file name; "": none */
};

/**
 * rtm_ktjournal_write - journal the settings a tracer's save function read
 * @dir: the tracefs top level they were read from
 * @tracer: "hwlat", "osnoise" or "timerlat"
 * @saved: its struct rtm_hwlat_saved, rtm_osnoise_saved or rtm_timerlat_saved
 *
 * Called before the first setting is changed. 0, or -errno with @err set
 * (@j then holds none).
 */
int rtm_ktjournal_write(struct rtm_ktjournal *j, const char *dir, const char *tracer,
			const void *saved, struct rtm_error *err);
/*
 * The end of the run's hold: the journal is removed when the run put the
 * settings back (@restored), else left unlocked for the next run. Nothing
 * when @j holds none; safe to call twice.
 */
void rtm_ktjournal_close(struct rtm_ktjournal *j, bool restored);

/* A line for the user: what was restored, or why a journal was not (@warning). */
typedef void (*rtm_ktjournal_note_fn)(bool warning, const char *msg, void *arg);

/* Is there a journal a killed run of this user left (one whose lock can be taken)? */
bool rtm_ktjournal_pending(void);

/**
 * rtm_ktjournal_recover - put back the settings that killed runs changed
 * @dir: the tracefs top level. The rtmeasure-* instances killed runs left
 *	must be gone first (rtm_trace_remove_stale()): a tracer still running
 *	there leaves its journal for a later run, and hwlat itself writes
 *	tracing_thresh back when its instance goes.
 * @fn: told one line per journal found (may be NULL)
 *
 * A journal is applied through the tracer's restore function and removed;
 * one that cannot be read, names no known tracer or setting, or whose
 * tracer this kernel lacks is removed with a warning; one for another
 * tracefs, or whose tracer is in use, is left with a warning. A live run's
 * journal is not touched. Returns how many were applied.
 */
int rtm_ktjournal_recover(const char *dir, rtm_ktjournal_note_fn fn, void *arg);

/* The options of the timerlat backend (rtm_probe_timerlat_ops). */
struct rtm_probe_timerlat_opts {
	struct rtm_cpulist cpus;	/* the measured CPUs; none: every online one */
	uint64_t interval_ns;		/* timerlat_period_us, whole us */
	struct rtm_sched sched;		/* given to the timerlat/N kthreads */
	uint64_t duration_ns;		/* 0: until stopped */
	int32_t dma_latency_us;		/* held on /dev/cpu_dma_latency, -1: no */
	const char *backend_reason;	/* why this backend: into sections.timerlat */
};

extern const struct rtm_probe_ops rtm_probe_timerlat_ops;

/* The kernel tracer backends on the probe seam (opts: struct rtm_probe_noise_opts). */
extern const struct rtm_probe_ops rtm_probe_hwlat_ops;
extern const struct rtm_probe_ops rtm_probe_osnoise_ops;

#endif
