// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * noise_print.c - sections.noise for people, from a run or a loaded
 * result.json: a table like rtla osnoise top's, the gaps above the report
 * bound, and the gap causes per CPU when the run traced them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/noise_print.h"
#include "trace/noiseattr.h"
#include "core/units.h"

static uint64_t u64(const json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));

	return v > 0 ? (uint64_t)v : 0;
}

static void fmt_count_ns(char *buf, size_t len, const json_t *causes, int k)
{
	char key[32], t[16];

	snprintf(key, sizeof(key), "%s_ns", rtm_noise_class_name(k));
	rtm_fmt_ns(t, sizeof(t), (uint64_t)json_integer_value(json_object_get(causes, key)));
	snprintf(key, sizeof(key), "%s_gaps", rtm_noise_class_name(k));
	snprintf(buf, len, "%6lld %9s", json_integer_value(json_object_get(causes, key)), t);
}

/* The RT throttling of a CPU against the kernel's setting, when there was any. */
static void throttle_line(FILE *f, const json_t *cpu, const json_t *causes)
{
	const json_t *rt = json_object_get(causes, "rt_throttling");
	json_int_t ns = json_integer_value(json_object_get(causes, "rt_throttling_ns"));
	const json_t *lim = json_object_get(rt, "limit_per_period_ns");
	const json_t *max = json_object_get(rt, "max_per_period_ns");
	char t[16], m[16], l[16], p[16], k[16];

	if (ns <= 0)
		return;
	rtm_fmt_ns(t, sizeof(t), (uint64_t)ns);
	fprintf(f, "  CPU %lld: RT throttling took %s", json_integer_value(json_object_get(cpu,
		"cpu")), t);
	if (json_is_integer(lim) && json_is_integer(max)) {
		rtm_fmt_ns(m, sizeof(m), (uint64_t)json_integer_value(max));
		rtm_fmt_ns(l, sizeof(l), (uint64_t)json_integer_value(lim));
		rtm_fmt_ns(p, sizeof(p), (uint64_t)json_integer_value(json_object_get(rt,
			   "period_ns")));
		rtm_fmt_ns(k, sizeof(k), (uint64_t)json_integer_value(json_object_get(rt,
			   "tick_ns")));
		fprintf(f, ", at most %s in one period of %s (kernel.sched_rt_runtime_us leaves "
			"%s a period, charged at the %s tick%s)", m, p, l, k,
			json_is_true(json_object_get(rt, "within_limit")) ? "" : "; more than "
			"that: the fair server's own setting, /sys/kernel/debug/sched/fair_server, "
			"may differ");
	}
	fprintf(f, "\n");
}

void rtm_noiseattr_fprint(const json_t *noise, FILE *f, int top)
{
	const json_t *cpus = json_object_get(noise, "cpus"), *cpu, *causes, *c;
	const json_t *at = json_object_get(noise, "attribution");
	char col[RTM_NOISE_NCLASSES][40], t[16];
	json_int_t unexplained;
	size_t i, j;
	int k;

	if (!json_is_object(at))
		return;
	fprintf(f, "\nGap causes (tracepoints; per class: gaps it was the main cause of, its "
		"time in all gaps)\n");
	fprintf(f, "CPU  %16s %16s %16s %16s %16s %16s\n", "IRQ", "SoftIRQ", "NMI", "Thread",
		"RT throttling", "Unexplained");
	json_array_foreach(cpus, i, cpu) {
		causes = json_object_get(cpu, "causes");
		if (!causes)
			continue;
		for (k = 0; k < RTM_NOISE_NCLASSES; k++)
			fmt_count_ns(col[k], sizeof(col[k]), causes, k);
		fprintf(f, "%3lld  %s %s %s %s %s %s\n",
			json_integer_value(json_object_get(cpu, "cpu")), col[0], col[1], col[2],
			col[3], col[4], col[5]);
	}
	json_array_foreach(cpus, i, cpu) {
		causes = json_object_get(cpu, "causes");
		if (!causes)
			continue;
		json_array_foreach(json_object_get(causes, "contributors"), j, c) {
			if ((int)j >= top)
				break;
			rtm_fmt_ns(t, sizeof(t),
				   (uint64_t)json_integer_value(json_object_get(c, "ns")));
			fprintf(f, "  CPU %lld: %s: %s in %lld gaps (main cause of %lld)\n",
				json_integer_value(json_object_get(cpu, "cpu")),
				json_string_value(json_object_get(c, "label")), t,
				json_integer_value(json_object_get(c, "gaps")),
				json_integer_value(json_object_get(c, "main_of")));
		}
		throttle_line(f, cpu, causes);
		unexplained = json_integer_value(json_object_get(causes, "unexplained_ns"));
		if (unexplained > 0) {
			rtm_fmt_ns(t, sizeof(t), (uint64_t)unexplained);
			fprintf(f, "  CPU %lld: unexplained %s (%s)\n",
				json_integer_value(json_object_get(cpu, "cpu")), t,
				json_string_value(json_object_get(causes, "unexplained")) ?: "");
		}
	}
	if (!json_is_true(json_object_get(at, "complete")))
		fprintf(f, "  incomplete: %lld events lost, %lld intervals dropped (raise the "
			"trace buffer or shorten the run)\n",
			json_integer_value(json_object_get(at, "events_lost")),
			json_integer_value(json_object_get(at, "intervals_dropped")));
}

/* @key of @o is a number (null or absent: the backend or source does not give it) */
static bool known(const json_t *o, const char *key)
{
	return json_is_number(json_object_get(o, key));
}

static bool interference(const json_t *cpus)
{
	const json_t *c;
	size_t i;

	json_array_foreach(cpus, i, c)
		if (json_is_object(json_object_get(c, "interference")))
			return true;
	return false;
}

static void print_ns_us(FILE *f, int width, uint64_t ns)
{
	fprintf(f, " %*" PRIu64, width, (ns + 500) / 1000);
}

struct listed {
	uint64_t at_ns, len_ns;
	size_t idx;		/* in gap_list (and gap_causes) */
};

/* Longest first; equal lengths in time order. */
static int by_len(const void *x, const void *y)
{
	const struct listed *a = x, *b = y;

	if (a->len_ns != b->len_ns)
		return a->len_ns < b->len_ns ? 1 : -1;
	return (a->at_ns > b->at_ns) - (a->at_ns < b->at_ns);
}

/* The main cause of gap @idx of @c, or NULL when the run did not trace the causes. */
static const char *gap_cause(const json_t *c, size_t idx)
{
	const json_t *causes = json_object_get(c, "gap_causes");
	const json_t *contrib = json_object_get(json_object_get(c, "causes"), "contributors");
	json_int_t k;
	const char *why;

	if (!causes)
		return NULL;
	k = json_integer_value(json_array_get(json_array_get(causes, idx), 0));
	why = k >= 0 ? json_string_value(json_object_get(json_array_get(contrib, (size_t)k),
							 "label")) : NULL;
	return why ?: "unexplained";
}

/*
 * The gaps of one CPU above the bound, the longest first (a stall early in the run
 * must not hide behind the first few): at most @max. Verbose, one a line with its
 * time; compact, their lengths on one line. -ENOMEM, else 0.
 */
static int print_listed(const json_t *c, uint64_t above, int max, bool verbose, FILE *f)
{
	const json_t *list = json_object_get(c, "gap_list"), *g;
	struct listed *l = calloc(json_array_size(list) + 1, sizeof(*l));
	size_t i, n = 0;
	const char *why;
	char len[16];

	if (!l)
		return -ENOMEM;
	json_array_foreach(list, i, g) {
		uint64_t at = (uint64_t)json_integer_value(json_array_get(g, 0));
		uint64_t ns = (uint64_t)json_integer_value(json_array_get(g, 1));

		if (ns > above)
			l[n++] = (struct listed){ at, ns, i };
	}
	qsort(l, n, sizeof(*l), by_len);
	for (i = 0; i < n && i < (size_t)max; i++) {
		rtm_fmt_ns(len, sizeof(len), l[i].len_ns);
		why = gap_cause(c, l[i].idx);
		if (!i)
			fprintf(f, "  CPU %lld:", json_integer_value(json_object_get(c, "cpu")));
		if (verbose)
			fprintf(f, "%s %9s at %.6f s%s%s", i ? "\n        " : "", len,
				(double)l[i].at_ns / 1e9, why ? "  " : "", why ?: "");
		else
			fprintf(f, "%s %s%s%s%s", i ? "," : "", len, why ? " (" : "", why ?: "",
				why ? ")" : "");
	}
	if (n > (size_t)max)
		fprintf(f, "%s ... and %zu more", verbose ? "\n        " : ",", n - (size_t)max);
	if (n)
		fputc('\n', f);
	free(l);
	return 0;
}

/* What measured the noise and how, one line (two when the backend was chosen for a reason). */
static void print_backend(const json_t *noise, const char *backend, FILE *f)
{
	const char *reason = json_string_value(json_object_get(noise, "backend_reason"));
	char win[16], wid[16], thr[16];

	rtm_fmt_ns(win, sizeof(win), u64(noise, "window_ns"));
	rtm_fmt_ns(wid, sizeof(wid), u64(noise, "width_ns"));
	rtm_fmt_ns(thr, sizeof(thr), u64(noise, "threshold_ns"));
	if (reason)
		fprintf(f, "noise: backend %s, %s\n", backend, reason);
	if (!strcmp(backend, "osnoise-imported") || !strcmp(backend, "hwlat-imported"))
		fprintf(f, "noise: imported; busy %s of every %s, threshold %s as the source "
			"states them; unknown: the source does not give it; time is in us\n",
			known(noise, "width_ns") ? wid : "unknown",
			known(noise, "window_ns") ? win : "unknown",
			known(noise, "threshold_ns") ? thr : "unknown");
	else if (!strcmp(backend, "hwlat"))
		fprintf(f, "noise: the kernel's hwlat tracer, busy %s of every %s with interrupts "
			"off, gaps above %s; one gap per window (its largest); runtime, total "
			"noise and period are not reported by hwlat; time is in us\n",
			wid, win, thr);
	else if (!strcmp(backend, "osnoise"))
		fprintf(f, "noise: the kernel's osnoise tracer, busy %s of every %s, noise above "
			"%s; Max Single is osnoise's largest noise, Gaps its samples above the "
			"threshold; no loop period; time is in us\n", wid, win, thr);
	else
		fprintf(f, "noise: busy %s of every %s, gaps above %s; counter %s at %.2f MHz; "
			"time is in us\n", wid, win, thr,
			json_string_value(json_object_get(noise, "counter")) ?: "?",
			json_real_value(json_object_get(noise, "counter_hz")) / 1e6);
}

/* One CPU's row of the table; "unknown" where the backend or source does not give it. */
static void print_row(const json_t *c, FILE *f)
{
	uint64_t sampled = u64(c, "sampled_ns"), noise_ns = u64(c, "noise_ns");
	uint64_t loops = u64(c, "loops");

	if (json_integer_value(json_object_get(c, "cpu")) < 0)
		fprintf(f, "%3s", "?");	/* hwlatdetect: the CPU is not named */
	else
		fprintf(f, "%3lld", json_integer_value(json_object_get(c, "cpu")));
	/* null: the backend does not measure it (hwlat: runtime and total noise) */
	if (json_is_null(json_object_get(c, "sampled_ns")))
		fprintf(f, " %13s", "unknown");
	else
		print_ns_us(f, 13, sampled);
	if (json_is_null(json_object_get(c, "noise_ns")))
		fprintf(f, " %12s", "unknown");
	else
		print_ns_us(f, 12, noise_ns);
	if (known(c, "cpu_available_pct"))	/* imported: as the source printed it */
		fprintf(f, " %11.5f", json_number_value(json_object_get(c, "cpu_available_pct")));
	else if (sampled)
		fprintf(f, " %11.5f", 100.0 - 100.0 * (double)noise_ns / (double)sampled);
	else
		fprintf(f, " %11s", "unknown");
	if (known(c, "max_gap_ns"))
		print_ns_us(f, 12, u64(c, "max_gap_ns"));
	else
		fprintf(f, " %12s", "unknown");
	if (known(c, "gaps"))
		fprintf(f, " %10" PRIu64, u64(c, "gaps"));
	else
		fprintf(f, " %10s", "unknown");
	if (loops)
		fprintf(f, " %11.1f", (double)sampled / (double)loops);
	else
		fprintf(f, " %11s", "unknown");
	if (known(c, "above_report"))
		fprintf(f, " %6" PRIu64 "\n", u64(c, "above_report"));
	else
		fprintf(f, " %6s\n", "unknown");
}

/* What only the kernel tracers give: osnoise's interference counts, hwlat's NMIs and losses. */
static void print_tracer_extras(const json_t *noise, const char *backend, uint64_t nmis, FILE *f)
{
	const json_t *cpus = json_object_get(noise, "cpus"), *c;
	size_t i;

	if (!strcmp(backend, "osnoise") || (!strcmp(backend, "osnoise-imported") &&
					    interference(cpus))) {
		fprintf(f, "interference (osnoise's counts by cause):\n"
			"CPU         HW        NMI        IRQ    SoftIRQ     Thread\n");
		json_array_foreach(cpus, i, c) {
			const json_t *in = json_object_get(c, "interference");

			fprintf(f, "%3lld %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
				" %10" PRIu64 "\n", json_integer_value(json_object_get(c, "cpu")),
				u64(in, "hw"), u64(in, "nmi"), u64(in, "irq"), u64(in, "softirq"),
				u64(in, "thread"));
		}
		if (u64(noise, "events_lost"))
			fprintf(f, "osnoise: %" PRIu64 " events lost by the trace buffer: gaps and "
				"periods are undercounted\n", u64(noise, "events_lost"));
	}
	if (!strcmp(backend, "hwlat-imported")) {
		json_array_foreach(cpus, i, c) {
			char in[16], out[16];

			rtm_fmt_ns(in, sizeof(in), u64(c, "inner_max_ns"));
			rtm_fmt_ns(out, sizeof(out), u64(c, "outer_max_ns"));
			fprintf(f, "hwlat: %" PRIu64 " samples, inner max %s, outer max %s; "
				"NMIs unknown (not in hwlatdetect's output)\n", u64(c, "samples"),
				in, out);
		}
	}
	if (!strcmp(backend, "hwlat")) {
		fprintf(f, "hwlat: NMIs during the samples:%s", nmis ? "" : " none");
		json_array_foreach(cpus, i, c)
			if (nmis)
				fprintf(f, " CPU %lld %" PRIu64 " (%" PRIu64 " us)",
					json_integer_value(json_object_get(c, "cpu")),
					u64(c, "nmi_count"), (u64(c, "nmi_total_ns") + 500) / 1000);
		fputc('\n', f);
		if (u64(noise, "samples_lost") || u64(noise, "events_lost"))
			fprintf(f, "hwlat: %" PRIu64 " samples lost (sequence numbers), %" PRIu64
				" events lost by the trace buffer\n", u64(noise, "samples_lost"),
				u64(noise, "events_lost"));
	}
}

char *rtm_noise_time_text(const json_t *noise, char *buf, size_t len)
{
	const json_t *c;
	uint64_t lo = UINT64_MAX, hi = 0, wall = u64(noise, "duration_ns");
	uint64_t win = u64(noise, "window_ns"), wid = u64(noise, "width_ns");
	bool unknown = false;
	char sampled[48], duty[96] = "", a[16], b[16];
	size_t i;

	json_array_foreach(json_object_get(noise, "cpus"), i, c) {
		if (!known(c, "sampled_ns")) {
			unknown = true;
			continue;
		}
		lo = u64(c, "sampled_ns") < lo ? u64(c, "sampled_ns") : lo;
		hi = u64(c, "sampled_ns") > hi ? u64(c, "sampled_ns") : hi;
	}
	if (unknown || lo > hi)
		snprintf(sampled, sizeof(sampled), "sampled time unknown (not reported)");
	else if ((lo + 500000) / 1000000 == (hi + 500000) / 1000000)
		snprintf(sampled, sizeof(sampled), "sampled %.3f s per CPU", (double)hi / 1e9);
	else
		snprintf(sampled, sizeof(sampled), "sampled %.3f to %.3f s per CPU",
			 (double)lo / 1e9, (double)hi / 1e9);
	if (win && wid) {
		rtm_fmt_ns(a, sizeof(a), wid);
		rtm_fmt_ns(b, sizeof(b), win);
		snprintf(duty, sizeof(duty), " (duty cycle %.0f%%: busy %s of every %s)",
			 100.0 * (double)wid / (double)win, a, b);
	}
	if (known(noise, "duration_ns"))
		snprintf(buf, len, "%s in %.3f s of wall time%s", sampled, (double)wall / 1e9,
			 duty);
	else
		snprintf(buf, len, "%s, wall time unknown (the source does not give it)%s",
			 sampled, duty);
	return buf;
}

int rtm_noise_fprint(const json_t *noise, FILE *f, bool verbose)
{
	const json_t *cpus = json_object_get(noise, "cpus"), *c;
	uint64_t above = u64(noise, "report_above_ns"), listed = 0, dropped = 0, nmis = 0, cut = 0;
	const int max_listed = verbose ? 10 : 3;
	const char *backend;
	char rep[16], when[256];
	size_t i;

	if (!json_is_array(cpus))
		return -EINVAL;
	if (known(noise, "report_above_ns"))
		rtm_fmt_ns(rep, sizeof(rep), above);
	else
		snprintf(rep, sizeof(rep), "unknown");
	backend = json_string_value(json_object_get(noise, "backend")) ?: "user";
	print_backend(noise, backend, f);
	fprintf(f, "noise: %s\n", rtm_noise_time_text(noise, when, sizeof(when)));
	fprintf(f, "CPU       Runtime        Noise  %% CPU Aval   Max Single       Gaps  "
		"Period(ns)  >%s\n", rep);
	json_array_foreach(cpus, i, c) {
		print_row(c, f);
		listed += u64(c, "above_report");
		dropped += u64(c, "gaps_dropped");
		nmis += u64(c, "nmi_count");
		cut += u64(c, "windows_cut");
	}
	print_tracer_extras(noise, backend, nmis, f);
	if (listed) {
		fprintf(f, "gaps above %s, the longest first (%s; all: export --csv-gaps):\n",
			rep, verbose ? "length, seconds after the start, main cause" :
			"-v: their times");
		json_array_foreach(cpus, i, c)
			if (print_listed(c, above, max_listed, verbose, f))
				return -ENOMEM;
	}
	rtm_noiseattr_fprint(noise, f, verbose ? 3 : 1);
	if (dropped)
		fprintf(f, "note: %" PRIu64 " gaps were counted but not kept with their time "
			"(--max-gaps); the list above may miss some\n", dropped);
	if (cut)
		fprintf(f, "note: %" PRIu64 " busy parts ran past their width by CLOCK_MONOTONIC and "
			"were cut (windows_cut): the counter ran slower than its calibration (a "
			"moved VM, a TSC that changed rate), so the gap lengths are not exact\n", cut);
	return 0;
}
