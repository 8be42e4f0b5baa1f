// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * io_print.c - sections.io for people and programs (io_print.h).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/hist.h"
#include "core/jsonutil.h"
#include "core/stats.h"
#include "core/units.h"
#include "present/io_print.h"
#include "trace/iocause.h"

#define MISSES_SHOWN	5

void rtm_io_cells(const struct rtm_io_figs *x, char v[RTM_IO_NCELLS][16])
{
	int k;

	rtm_fmt_us(v[0], sizeof(v[0]), x->min_ns);
	rtm_fmt_us(v[1], sizeof(v[1]), (uint64_t)(x->avg_ns + 0.5));
	for (k = 0; k < RTM_IO_NPCT; k++) {
		if (x->pct_ok[k])
			rtm_fmt_us(v[2 + k], sizeof(v[2 + k]), x->pct_ns[k]);
		else	/* too few samples beyond it to be a number (core/stats.h) */
			snprintf(v[2 + k], sizeof(v[2 + k]), "-");
	}
	rtm_fmt_us(v[2 + RTM_IO_NPCT], sizeof(v[0]), x->max_ns);
	if (!x->count)
		for (k = 0; k < RTM_IO_NCELLS; k++)
			snprintf(v[k], sizeof(v[k]), "-");
}

static void print_row(FILE *f, const char *label, const struct rtm_io_figs *x, const char *misses)
{
	char v[RTM_IO_NCELLS][16];

	rtm_io_cells(x, v);
	fprintf(f, "%-14s %9llu %9s %9s %9s %9s %9s %9s %7s\n", label,
		(unsigned long long)x->count, v[0], v[1], v[2], v[3], v[4], v[5], misses);
}

/* Where it measured, how, against which deadline. */
static void print_head(const json_t *io, FILE *f)
{
	const json_t *t = json_object_get(io, "target");
	const char *sched = json_string_value(json_object_get(t, "scheduler_set")) ?:
			    json_string_value(json_object_get(t, "scheduler"));
	uint64_t dl = (uint64_t)json_integer_value(json_object_get(io, "deadline_ns"));
	char dls[32], iv[32];

	rtm_fmt_ns(iv, sizeof(iv), (uint64_t)json_integer_value(json_object_get(io,
								"interval_ns")));
	if (dl)
		rtm_fmt_ns(dls, sizeof(dls), dl);
	fprintf(f, "target %s (%s%s%s, device %s), scheduler %s%s, %lld bytes every %s, ioprio %s, "
		"deadline %s\n",
		json_string_value(json_object_get(t, "path")) ?: "?",
		json_string_value(json_object_get(t, "kind")) ?: "?",
		json_string_value(json_object_get(t, "fstype")) ? " on " : "",
		json_string_value(json_object_get(t, "fstype")) ?: "",
		json_string_value(json_object_get(t, "disk")) ?: "unknown",
		sched ?: "unknown",
		json_string_value(json_object_get(t, "scheduler_set")) ? " (set for the run)" : "",
		(long long)json_integer_value(json_object_get(io, "size")), iv,
		json_string_value(json_object_get(io, "ioprio")) ?: "none", dl ? dls : "none");
}

/* The verdict of the miss planned at @planned in sections.io.causes, or NULL. */
static const json_t *verdict_of(const json_t *io, json_int_t planned)
{
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(io, "causes"), "list"), i, v)
		if (json_integer_value(json_object_get(v, "planned_mono_ns")) == planned)
			return v;
	return NULL;
}

static void print_misses(const json_t *io, FILE *f)
{
	const json_t *list = json_object_get(io, "miss_list"), *m, *v;
	uint64_t n = (uint64_t)json_integer_value(json_object_get(io, "misses"));
	uint64_t start = (uint64_t)json_integer_value(json_object_get(io, "start_mono_ns"));
	char t[32], l[32], s[32], w[32], line[1024];
	size_t i;

	if (!n)
		return;
	fprintf(f, "%llu miss%s of the deadline; the first:\n", (unsigned long long)n,
		n == 1 ? "" : "es");
	json_array_foreach(list, i, m) {
		if (i == MISSES_SHOWN)
			break;
		v = verdict_of(io, json_integer_value(json_object_get(m, "planned_mono_ns")));
		if (v) {
			rtm_iocause_miss_sentence(v, start, line, sizeof(line));
			fprintf(f, "  %s\n", line);
			continue;
		}
		rtm_fmt_ns(t, sizeof(t), (uint64_t)json_integer_value(json_object_get(m,
										"time_ns")));
		rtm_fmt_ns(l, sizeof(l), (uint64_t)json_integer_value(json_object_get(m,
										"latency_ns")));
		rtm_fmt_ns(s, sizeof(s), (uint64_t)json_integer_value(json_object_get(m,
										"service_ns")));
		rtm_fmt_ns(w, sizeof(w), (uint64_t)json_integer_value(json_object_get(m,
										"lateness_ns")));
		fprintf(f, "  at %s: %s %s (service %s, issued %s late)\n", t,
			json_string_value(json_object_get(m, "op")) ?: "?", l, s, w);
	}
}

/* The census of the causes: its sentence, the culprits, the requesters ahead, the parts. */
static void print_causes(const json_t *io, FILE *f)
{
	const json_t *c = json_object_get(io, "causes"), *e, *parts;
	static const char *const part_words[RTM_IOPART_N] = {
		"issued late", "submit", "queued", "on the device", "switched in", "return" };
	char line[1024], x[16];
	size_t i;
	int k;

	if (!json_is_object(c))
		return;
	rtm_iocause_sentence(c, line, sizeof(line), 4);
	fprintf(f, "Miss causes (result.json: sections.io.causes):\n  %s\n", line);
	if (!json_integer_value(json_object_get(c, "misses")))
		return;
	fprintf(f, "  %-10s %-44s %7s %9s\n", "cause", "culprit", "misses", "largest");
	json_array_foreach(json_object_get(c, "causes"), i, e)
		fprintf(f, "  %-10s %-44s %7lld %9s\n",
			json_string_value(json_object_get(e, "cause")),
			json_string_value(json_object_get(e, "culprit")),
			json_integer_value(json_object_get(e, "count")),
			rtm_fmt_ns(x, sizeof(x), (uint64_t)json_integer_value(
				   json_object_get(e, "max_latency_ns"))));
	if (json_array_size(json_object_get(c, "ahead")))
		fprintf(f, "  requests ahead of the probe's:\n  %-28s %-6s %-5s %7s %7s %9s\n",
			"task", "class", "rwbs", "misses", "queued", "in flight");
	json_array_foreach(json_object_get(c, "ahead"), i, e) {
		snprintf(line, sizeof(line), "%s pid %lld",
			 json_string_value(json_object_get(e, "comm")),
			 json_integer_value(json_object_get(e, "pid")));
		fprintf(f, "  %-28s %-6s %-5s %7lld %7lld %9lld\n", line,
			json_string_value(json_object_get(e, "ioprio")),
			json_string_value(json_object_get(e, "rwbs")),
			json_integer_value(json_object_get(e, "misses")),
			json_integer_value(json_object_get(e, "queued")),
			json_integer_value(json_object_get(e, "in_flight")));
	}
	parts = json_object_get(c, "parts_ns");
	fprintf(f, "  the misses' time:");
	for (k = 0; k < RTM_IOPART_N; k++)
		fprintf(f, "%s %s %s", k ? "," : "", part_words[k], rtm_fmt_ns(x, sizeof(x),
			(uint64_t)json_integer_value(json_object_get(parts,
							rtm_iocause_part_key(k)))));
	fputc('\n', f);
	if (!json_is_true(json_object_get(c, "complete")))
		fprintf(f, "  (incomplete: %lld events lost, %lld misses not listed; the counts "
			"are lower bounds)\n", json_integer_value(json_object_get(c, "trace_lost")),
			json_integer_value(json_object_get(c, "not_listed")));
}

int rtm_io_fprint(const json_t *io, FILE *f)
{
	const json_t *ops = json_object_get(io, "ops"), *op;
	struct rtm_hist *h = rtm_hist_alloc();
	const char *name;
	int ret = 0;

	if (!h)
		return -ENOMEM;
	if (!json_is_object(ops)) {
		rtm_hist_free(h);
		return -EINVAL;
	}
	print_head(io, f);
	fprintf(f, "%-14s %9s %9s %9s %9s %9s %9s %9s %7s\n", "op", "samples", "min", "avg",
		"p50", "p99", "p99.9", "max", "misses");
	json_object_foreach((json_t *)ops, name, op) {
		struct rtm_io_figs x[RTM_IO_NFIGURES];
		char misses[24], label[32];
		int k;

		for (k = 0; k < RTM_IO_NFIGURES && !ret; k++)
			ret = rtm_io_figs_of(json_object_get(op, rtm_io_figures[k]), h, &x[k]);
		if (ret)
			break;
		snprintf(misses, sizeof(misses), "%lld",
			 (long long)json_integer_value(json_object_get(op, "misses")));
		print_row(f, name, &x[0], misses);
		print_row(f, "  service", &x[1], "");
		print_row(f, "  issue late", &x[2], "");
		if (json_integer_value(json_object_get(op, "errors"))) {
			snprintf(label, sizeof(label), "%s", name);
			fprintf(f, "  %s: %lld requests failed\n", label,
				(long long)json_integer_value(json_object_get(op, "errors")));
		}
	}
	fprintf(f, "(latency from the planned issue time, service from the actual issue; in us; "
		"-: too few samples for the percentile)\n");
	print_misses(io, f);
	print_causes(io, f);
	rtm_hist_free(h);
	return ret;
}
