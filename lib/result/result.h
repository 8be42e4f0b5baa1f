/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * result.h - one run's result: metadata, per-CPU histograms, time series, events.
 *
 * The hand-off between measuring and presenting. Saved as result.json with the
 * schema "rtmeasure-result/1" (docs/result-schema.md), written atomically, read
 * back with full validation. Sections owned by later modules (IRQ accounting,
 * spike analyses, noise) travel as JSON objects under "sections".
 */
#ifndef RTM_RESULT_H
#define RTM_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/error.h"
#include "core/hist.h"
#include "core/timeseries.h"

#define RTM_RESULT_SCHEMA	"rtmeasure-result/1"
#define RTM_RESULT_FILE		"result.json"

struct rtm_result_cpu {
	int cpu;
	uint64_t overruns;		/* periods missed entirely */
	struct rtm_hist *raw;		/* latency as measured */
	struct rtm_hist *corrected;	/* coordinated-omission corrected, or NULL */
	struct rtm_ts *ts;		/* per-interval summaries, or NULL */
};

struct rtm_result {
	char tool[64];			/* producing tool and version: "rtmeasure 0.1.0" */
	char command[32];		/* "cyclic", "run", "import", ... */
	char created[32];		/* ISO 8601 UTC of the run's start */
	uint64_t duration_ns;		/* measured time */
	bool interrupted;		/* stopped early by a signal */
	char stop_signal[16];		/* which ("SIGINT"), "" when not stopped or not known */
	json_t *sysinfo;		/* rtm_sysinfo_to_json() of the box, or NULL */
	json_t *options;		/* the options the run used (object) */
	json_t *events;			/* array of notable events (break, spikes) */
	json_t *sections;		/* object: "irq", "spikes", "noise", "provenance", ... */
	int ncpus;
	struct rtm_result_cpu *cpus;
	size_t cpus_cap;		/* room in @cpus: rtm_result_add_cpu() grows it */
};

/* alloc/free act on memory only. */
struct rtm_result *rtm_result_alloc(const char *command);
void rtm_result_free(struct rtm_result *r);

/**
 * rtm_result_add_cpu - add a CPU with a raw histogram and optionally the rest
 * @with_corrected: also allocate the coordinated-omission corrected histogram
 * @ts_interval_ns: time-series interval, 0 for none
 *
 * Returns the new entry or NULL (ENOMEM). Pointers to earlier entries stay valid
 * only until the next call.
 */
struct rtm_result_cpu *rtm_result_add_cpu(struct rtm_result *r, int cpu, bool with_corrected,
					  uint64_t ts_interval_ns);

/* Merge all CPUs' raw (and corrected, when @corrected is non-NULL) histograms. */
void rtm_result_total(const struct rtm_result *r, struct rtm_hist *raw,
		      struct rtm_hist *corrected);

/*
 * Imported samples that lay beyond the source's histogram and are not in ours
 * (sections.provenance: overflows - overflows_placed, summed); 0 otherwise.
 * Percentiles of such a result are lower bounds.
 */
uint64_t rtm_result_unplaced_overflows(const struct rtm_result *r);
/* The same for CPU @cpu only (-1: all CPUs). */
uint64_t rtm_result_unplaced_cpu(const struct rtm_result *r, int cpu);

json_t *rtm_result_to_json(const struct rtm_result *r);
struct rtm_result *rtm_result_from_json(const json_t *root, const char *what,
					struct rtm_error *err);

/**
 * rtm_result_save - write @dir/result.json atomically, creating @dir if needed
 *
 * Returns 0 or -errno with a one-line message in @err.
 */
int rtm_result_save(const struct rtm_result *r, const char *dir, struct rtm_error *err);

/**
 * rtm_result_load - read a result from a results folder or a result.json path
 *
 * Returns NULL with a one-line message naming the file and the problem in @err
 * when the file is missing, not JSON, truncated, of another schema or
 * inconsistent.
 */
struct rtm_result *rtm_result_load(const char *path, struct rtm_error *err);

#endif
