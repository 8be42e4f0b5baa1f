/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cost.h - the cost of real time in throughput: a fixed stress-ng workload
 * (stressors one after another, each for a fixed time on the measured CPUs)
 * whose bogo-ops per second of real time are the score, run by
 * `rtmeasure run --throughput` after its latency phase, and the "throughput"
 * section of result.json that holds the scores (docs/result-schema.md).
 *
 * stress-ng writes its metrics as YAML (--yaml FILE); the parser reads the
 * few keys it needs from that file and refuses a file that stops early.
 */
#ifndef RTM_COST_H
#define RTM_COST_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/error.h"

#define RTM_COST_MAX_STRESSORS	4
#define RTM_COST_MAX_REPS	20
#define RTM_COST_DEFAULT_TIME_NS (10ULL * 1000000000ULL)
#define RTM_COST_CPU_METHOD	"int64"		/* fixed: the default "all" varies */

/* The stressors, in the order they run. */
enum rtm_cost_stressor {
	RTM_COST_CPU,		/* --cpu N --cpu-method int64: user-space arithmetic */
	RTM_COST_SWITCH,	/* --switch N: context switches through pipes */
	RTM_COST_SOCK,		/* --sock N: TCP over loopback (softirqs, locks) */
	RTM_COST_NSTRESSORS,
};

extern const char *const rtm_cost_stressor_names[RTM_COST_NSTRESSORS];

struct rtm_cost_opts {
	unsigned int stressors;		/* 1 << enum rtm_cost_stressor */
	int workers;			/* instances of each stressor, > 0 */
	const char *cpus;		/* stress-ng --taskset (a CPU list), NULL: any */
	uint64_t time_ns;		/* each stressor, each repetition: whole seconds */
	int reps;			/* repetitions of the whole sequence, >= 1 */
};

/* Parse "cpu,switch,sock" (or "all"); 0 or -EINVAL with a message naming the words. */
int rtm_cost_parse_stressors(const char *list, unsigned int *bits, struct rtm_error *err);

/*
 * Before measuring: stress-ng is there (-ENOENT: "stress-ng not found: install
 * it (apt-get install stress-ng)") and the options make sense (-EINVAL).
 */
int rtm_cost_check(const struct rtm_cost_opts *o, struct rtm_error *err);

/* One stressor's metrics as stress-ng's YAML states them. */
struct rtm_cost_metrics {
	char stressor[32];
	uint64_t bogo_ops;
	double wall_clock_s;		/* wall-clock-time */
	double rate_real;		/* bogo-ops-per-second-real-time */
	double rate_usr_sys;		/* bogo-ops-per-second-usr-sys-time, NAN if absent */
};

/**
 * rtm_cost_parse_yaml - the metrics of stress-ng --yaml output
 * @text, @len: the file's contents
 * @m, @max: the stressors found, at most @max
 * @version: stress-ng-version (may be NULL), "" when absent
 *
 * Returns the number of stressors (>= 1), or -EINVAL with a one-line message
 * when the text is not such a file, stops before its end ("..."), or a
 * stressor lacks bogo-ops, bogo-ops-per-second-real-time or wall-clock-time
 * or holds something that is not a number there.
 */
int rtm_cost_parse_yaml(const char *text, size_t len, struct rtm_cost_metrics *m, int max,
			char *version, size_t vlen, struct rtm_error *err);

/**
 * rtm_cost_run - run the workload and return its "throughput" section
 * @stop: a stop flag (may be NULL), polled every 50 ms; once it is set the
 *	running stressor is stopped and the section holds what finished
 *	("complete": false)
 *
 * Each stressor runs as its own stress-ng (posix_spawn, no shell, its own
 * process group, SCHED_OTHER, output in a private temporary folder that is
 * removed afterwards). Returns the section, or NULL with a one-line message
 * (stress-ng failing quotes the end of its output).
 */
json_t *rtm_cost_run(const struct rtm_cost_opts *o, const volatile sig_atomic_t *stop,
		     struct rtm_error *err);

/* A "throughput" section as compare and report read it. */
struct rtm_cost_summary {
	char version[32];		/* stress-ng's, "" unknown */
	int workers;
	uint64_t time_ns;
	int reps;
	bool complete;
	char workload[256];		/* stressors, workers, time, repetitions: for fairness */
	int n;
	struct {
		char name[32];
		double score;		/* bogo-ops/s of real time, mean over the repetitions */
		int reps;		/* repetitions that finished */
	} s[RTM_COST_MAX_STRESSORS];
};

/*
 * Check and digest a "throughput" section; -EINVAL with a message naming the
 * key ("stressors[1].bogo_ops_per_s: not a positive number").
 */
int rtm_cost_summary_read(const json_t *section, struct rtm_cost_summary *s,
			  struct rtm_error *err);

/* A bogo-ops/s figure for people: "1234567", "12.3". */
void rtm_cost_fmt_rate(char *buf, size_t len, double rate);

#endif
