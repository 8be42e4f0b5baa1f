// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hwlat_print.c - a noise result in hwlatdetect's layout (hwlat_print.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "present/hwlat_print.h"
#include "probe/probe.h"
#include "probe/probe_noise.h"

#define WATCH_BATCH	256	/* gaps fetched from a measuring thread at a time */

static uint64_t u64(const json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));

	return v > 0 ? (uint64_t)v : 0;
}

uint64_t rtm_hwlat_summary_fprint(const json_t *noise, FILE *f)
{
	const json_t *c, *smis;
	const char *backend = json_string_value(json_object_get(noise, "backend")) ?: "user";
	uint64_t max = 0, n = 0, smi = 0;
	bool smi_known = true, any = false;
	size_t i;

	json_array_foreach(json_object_get(noise, "cpus"), i, c) {
		/* the kernel tracer: one sample per window; the busy loop: every gap */
		n += u64(c, strcmp(backend, "hwlat") ? "gaps" : "samples");
		if (u64(c, "max_gap_ns") > max)
			max = u64(c, "max_gap_ns");
		smis = json_object_get(json_object_get(c, "causes"), "smis");
		any = true;
		if (json_is_integer(smis))
			smi += u64(json_object_get(c, "causes"), "smis");
		else
			smi_known = false;
	}
	if (!n)
		fprintf(f, "Max Latency: Below threshold\n");
	else
		fprintf(f, "Max Latency: %" PRIu64 "us\n", (max + 500) / 1000);
	fprintf(f, "Samples recorded: %" PRIu64 "\n", n);
	fprintf(f, "Samples exceeding threshold: %" PRIu64 "\n", n);
	if (any && smi_known)
		fprintf(f, "SMIs during run: %" PRIu64 "\n", smi);
	return n ? max : 0;
}

struct sample {
	uint64_t ts_ns, len_ns;
	int cpu;
};

static int by_time(const void *x, const void *y)
{
	const struct sample *a = x, *b = y;

	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	return (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

static void sample_line(FILE *f, uint64_t ts_ns, uint64_t len_ns, int cpu)
{
	fprintf(f, "ts: %" PRIu64 ".%09" PRIu64 ", inner:%" PRIu64 ", outer:0, cpu:%d\n",
		(uint64_t)(ts_ns / 1000000000ULL), (uint64_t)(ts_ns % 1000000000ULL),
		(uint64_t)((len_ns + 500) / 1000), cpu);
}

int rtm_hwlat_report_fprint(const json_t *noise, FILE *f, uint64_t *n, struct rtm_error *err)
{
	uint64_t start = u64(noise, "start_mono_ns");
	const json_t *c, *list, *g;
	struct sample *s;
	size_t i, j, total = 0, k = 0;

	json_array_foreach(json_object_get(noise, "cpus"), i, c)
		total += json_array_size(json_object_get(c, "gap_list"));
	s = calloc(total + 1, sizeof(*s));
	if (!s)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	json_array_foreach(json_object_get(noise, "cpus"), i, c) {
		list = json_object_get(c, "gap_list");
		json_array_foreach(list, j, g) {
			if (!json_is_integer(json_array_get(g, 0)) ||
			    !json_is_integer(json_array_get(g, 1))) {
				free(s);
				return rtm_error_setn(err, -EINVAL, "sections.noise: CPU %lld: "
						      "gap_list entry %zu is not [start_ns, "
						      "length_ns]", json_integer_value(
						      json_object_get(c, "cpu")), j);
			}
			s[k++] = (struct sample){ start + (uint64_t)json_integer_value(
				json_array_get(g, 0)), (uint64_t)json_integer_value(
				json_array_get(g, 1)), (int)json_integer_value(
				json_object_get(c, "cpu")) };
		}
	}
	qsort(s, k, sizeof(*s), by_time);
	for (i = 0; i < k; i++)
		sample_line(f, s[i].ts_ns, s[i].len_ns, s[i].cpu);
	free(s);
	*n = k;
	return ferror(f) ? rtm_error_setn(err, -EIO, "write error") : 0;
}

struct rtm_hwlat_watch {
	uint32_t *taken;	/* per measuring thread */
	int n;
};

struct rtm_hwlat_watch *rtm_hwlat_watch_alloc(void)
{
	return calloc(1, sizeof(struct rtm_hwlat_watch));
}

void rtm_hwlat_watch_free(struct rtm_hwlat_watch *w)
{
	if (w)
		free(w->taken);
	free(w);
}

void rtm_hwlat_watch_fprint(struct rtm_hwlat_watch *w, const struct rtm_session_live *live,
			    FILE *f)
{
	struct rtm_noise_gap buf[WATCH_BATCH];
	struct rtm_probe_noise *p;
	uint32_t n, k;
	int i;

	if (!w || !live->run || rtm_probe_run_ops(live->run) != &rtm_probe_noise_ops)
		return;
	p = rtm_probe_run_probe(live->run);
	if (!w->taken) {
		w->taken = calloc((size_t)rtm_probe_noise_ncpus(p) + 1, sizeof(*w->taken));
		if (!w->taken)
			return;
		w->n = rtm_probe_noise_ncpus(p);
	}
	for (i = 0; i < w->n; i++) {
		do {
			n = rtm_probe_noise_gaps(p, i, w->taken[i], buf, WATCH_BATCH);
			for (k = 0; k < n; k++)
				sample_line(f, buf[k].start_ns, buf[k].len_ns,
					    rtm_probe_noise_cpu(p, i));
			w->taken[i] += n;
		} while (n == WATCH_BATCH);
	}
	fflush(f);
}

void rtm_hwlat_watch_rest(struct rtm_hwlat_watch *w, const json_t *noise, FILE *f)
{
	uint64_t start = u64(noise, "start_mono_ns");
	const json_t *c, *g;
	size_t i, j;

	if (!w)
		return;
	json_array_foreach(json_object_get(noise, "cpus"), i, c) {
		json_array_foreach(json_object_get(c, "gap_list"), j, g) {
			/* the threads' order is the section's (lib/probe/probe_noise.c) */
			if (w->taken && i < (size_t)w->n && j < w->taken[i])
				continue;
			sample_line(f, start + (uint64_t)json_integer_value(json_array_get(g, 0)),
				    (uint64_t)json_integer_value(json_array_get(g, 1)),
				    (int)json_integer_value(json_object_get(c, "cpu")));
		}
	}
	fflush(f);
}
