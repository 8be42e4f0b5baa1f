// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare_out.c - a comparison written out: the metrics and their cells (which
 * compare_pages.c and the sections' parts share), the text table with its
 * fingerprints, warnings and verdicts (rtm_compare_fprint), and its JSON
 * (rtm_compare_to_json). compare.c digests the runs and decides the verdicts.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/compare_priv.h"
#include "core/jsonutil.h"
#include "core/units.h"

/* ---------------------------------------------------------------- metrics */

const struct rtm_compare_metric rtm_compare_metrics[RTM_CM_N] = {
	[RTM_CM_SAMPLES] = { "samples", "samples", true },
	[RTM_CM_MIN] = { "min", "min_ns", false },
	[RTM_CM_AVG] = { "avg", "avg_ns", false },
	[RTM_CM_P50] = { "p50", "p50_ns", false },
	[RTM_CM_P90] = { "p90", "p90_ns", false },
	[RTM_CM_P99] = { "p99", "p99_ns", false },
	[RTM_CM_P999] = { "p99.9", "p99.9_ns", false },
	[RTM_CM_P9999] = { "p99.99", "p99.99_ns", false },
	[RTM_CM_P99999] = { "p99.999", "p99.999_ns", false },
	[RTM_CM_MAX] = { "max", "max_ns", false },
	[RTM_CM_OVERRUNS] = { "overruns", "overruns", true },
};

const int rtm_compare_table[RTM_CM_NTABLE] = {
	RTM_CM_SAMPLES, RTM_CM_MIN, RTM_CM_AVG, RTM_CM_P50, RTM_CM_P99, RTM_CM_P999, RTM_CM_P9999,
	RTM_CM_MAX, RTM_CM_OVERRUNS,
};

double rtm_compare_metric(const struct rtm_summary_row *r, int m)
{
	switch (m) {
	case RTM_CM_SAMPLES: return (double)r->samples;
	case RTM_CM_MIN: return (double)r->min_ns;
	case RTM_CM_AVG: return r->avg_ns;
	case RTM_CM_MAX: return (double)r->max_ns;
	case RTM_CM_OVERRUNS: return (double)r->overruns;
	default: return (double)r->pct_ns[m - RTM_CM_P50];
	}
}

bool rtm_compare_metric_unknown(const struct rtm_summary_row *r, int m)
{
	switch (m) {
	case RTM_CM_SAMPLES:
	case RTM_CM_OVERRUNS: return false;
	case RTM_CM_MIN: return r->unknown & RTM_SUMMARY_UNKNOWN_MIN;
	case RTM_CM_AVG: return r->unknown & RTM_SUMMARY_UNKNOWN_AVG;
	case RTM_CM_MAX: return r->unknown & RTM_SUMMARY_UNKNOWN_MAX;
	default: return !rtm_summary_pct_shown(r, m - RTM_CM_P50);
	}
}

const struct rtm_summary_row *rtm_compare_row(const struct rtm_compare_run *run, int cpu)
{
	int i;

	if (cpu < 0)
		return &run->rows[run->nrows - 1];
	for (i = 0; i < run->nrows - 1; i++)
		if (run->rows[i].cpu == cpu)
			return &run->rows[i];
	return NULL;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int rtm_compare_cpus(const struct rtm_compare *c, int **out)
{
	int i, j, n = 0, m = 0, *v;

	for (i = 0; i < c->nruns; i++)
		n += c->runs[i].nrows - 1;
	v = malloc((size_t)(n ? n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < c->nruns; i++)
		for (j = 0; j < c->runs[i].nrows - 1; j++)
			v[m++] = c->runs[i].rows[j].cpu;
	qsort(v, (size_t)m, sizeof(*v), cmp_int);
	for (i = 0, n = 0; i < m; i++)
		if (!n || v[n - 1] != v[i])
			v[n++] = v[i];
	*out = v;
	return n;
}

bool rtm_compare_per_cpu(const struct rtm_compare *c)
{
	int i;

	for (i = 0; i < c->nruns; i++)
		if (c->runs[i].nrows > 2)
			return true;
	return false;
}

void rtm_compare_fmt_value(char *buf, size_t len, double v, bool count)
{
	if (count)
		snprintf(buf, len, "%.0f", v);
	else
		rtm_fmt_us(buf, len, v);
}

void rtm_compare_fmt_ratio(char *buf, size_t len, double b, double a)
{
	if (a > 0)
		snprintf(buf, len, "%.2fx", b / a);
	else
		snprintf(buf, len, "-");
}

void rtm_compare_fmt_delta(char *buf, size_t len, double b, double a, bool count)
{
	if (count)
		snprintf(buf, len, "%+.0f", b - a);
	else
		snprintf(buf, len, "%+.1f", (b - a) / 1000.0);
}

void rtm_compare_cell(char *buf, size_t len, const struct rtm_summary_row *r,
		      const struct rtm_summary_row *base, int m, char what)
{
	bool count = rtm_compare_metrics[m].count;
	double v, b;

	if (!r || (what != 'v' && !base)) {
		snprintf(buf, len, "-");
		return;
	}
	if (what == 'v' && rtm_compare_metric_unknown(r, m)) {
		if (m == RTM_CM_MIN || m == RTM_CM_AVG || m == RTM_CM_MAX)
			snprintf(buf, len, "n/a");
		else	/* "-" with too few samples, ">400" beyond an import's rows */
			rtm_summary_fmt_pct(buf, len, r, m - RTM_CM_P50, false);
		return;
	}
	if (what != 'v' && (rtm_compare_metric_unknown(r, m) || rtm_compare_metric_unknown(base, m))) {
		snprintf(buf, len, "-");
		return;
	}
	v = rtm_compare_metric(r, m);
	b = base ? rtm_compare_metric(base, m) : 0;
	if (what == 'v')
		rtm_compare_fmt_value(buf, len, v, count);
	else if (what == 'r')
		rtm_compare_fmt_ratio(buf, len, v, b);
	else
		rtm_compare_fmt_delta(buf, len, v, b, count);
}

/* ---------------------------------------------------------------- text */

/* One line of the table: a run's values, or its ratio or delta to the baseline. */
static void print_line(FILE *f, const char *cpu, const char *name,
		       const struct rtm_summary_row *r, const struct rtm_summary_row *base,
		       char what)
{
	char buf[32];
	int j;

	fprintf(f, "%-5s %-14.14s", cpu, name);
	for (j = 0; j < RTM_CM_NTABLE; j++) {
		rtm_compare_cell(buf, sizeof(buf), r, base, rtm_compare_table[j], what);
		fprintf(f, " %*s", j ? 8 : 10, buf);
	}
	fputc('\n', f);
}

static void print_rows(const struct rtm_compare *c, FILE *f, int cpu)
{
	const struct rtm_summary_row *base = rtm_compare_row(&c->runs[0], cpu);
	char label[16];
	int i;

	if (cpu < 0)
		snprintf(label, sizeof(label), "all");
	else
		snprintf(label, sizeof(label), "%d", cpu);
	for (i = 0; i < c->nruns; i++) {
		const struct rtm_summary_row *r = rtm_compare_row(&c->runs[i], cpu);

		print_line(f, i ? "" : label, c->runs[i].label, r, base, 'v');
		if (!i || !r || !base)
			continue;
		print_line(f, "", "  ratio", r, base, 'r');
		print_line(f, "", "  delta", r, base, 'd');
	}
}

static void print_fingerprints(const struct rtm_compare *c, FILE *f)
{
	int w = 12, i, k;

	for (i = 0; i < c->nruns; i++)
		for (k = -1; k < RTM_FP_NFIELDS; k++) {
			const char *v = k < 0 ? c->runs[i].label : c->runs[i].fp[k];
			int len = v ? (int)strlen(v) : 0;

			w = len > w ? len : w;
		}
	w = w > 30 ? 30 : w;
	fprintf(f, "%-15s", "");
	for (i = 0; i < c->nruns; i++)
		fprintf(f, " %-*.*s", i + 1 < c->nruns ? w : 0, w, c->runs[i].label);
	fputc('\n', f);
	for (k = 0; k < RTM_FP_NFIELDS; k++) {
		fprintf(f, "%-15s", rtm_fp_fields[k].name);
		for (i = 0; i < c->nruns; i++) {
			const char *v = c->runs[i].fp[k];

			if (!v)
				v = "unknown";
			if ((int)strlen(v) > w && i + 1 < c->nruns)
				fprintf(f, " %-*.*s...", w - 3, w - 3, v);
			else if ((int)strlen(v) > w)
				fprintf(f, " %.*s...", w - 3, v);
			else
				fprintf(f, " %-*s", i + 1 < c->nruns ? w : 0, v);
		}
		fputc('\n', f);
	}
}

void rtm_compare_fprint(const struct rtm_compare *c, FILE *f)
{
	int i, n, *cpus = NULL;

	if (c->banner[0])
		fprintf(f, "*** %s ***\n\n", c->banner);
	print_fingerprints(c, f);
	for (i = 0; i < c->nwarnings; i++)
		fprintf(f, "warning: %s\n", c->warnings[i].text);
	for (i = 0; i < c->nruns; i++)
		if (c->runs[i].overflows)
			fprintf(f, "warning: %s: %llu imported samples lay beyond its histogram "
				"with no known value: the figures that depend on them are "
				"unknown (sections.provenance)\n",
				c->runs[i].label, (unsigned long long)c->runs[i].overflows);
	fprintf(f, "\n%-5s %-14s %10s", "CPU", "run", "samples");
	for (i = 1; i < RTM_CM_NTABLE; i++)
		fprintf(f, " %8s", rtm_compare_metrics[rtm_compare_table[i]].name);
	fputc('\n', f);
	print_rows(c, f, -1);
	n = rtm_compare_per_cpu(c) ? rtm_compare_cpus(c, &cpus) : 0;
	for (i = 0; i < n; i++)
		print_rows(c, f, cpus[i]);
	free(cpus);
	fprintf(f, "(latencies in us; ratio = run / %s, delta = run - %s)\n", c->runs[0].label,
		c->runs[0].label);
	for (i = 0; i < c->nruns; i++)
		if (c->runs[i].nrounds > 1)
			fprintf(f, "(%s: %d runs, their histograms merged in the table)\n",
				c->runs[i].label, c->runs[i].nrounds);
	if (c->nverdicts)
		fprintf(f, "\nverdicts (all CPUs, %.0f%% confidence, see rtmeasure-compare(1)):\n",
			RTM_COMPARE_CONF * 100);
	for (i = 0; i < c->nverdicts; i++)
		fprintf(f, "  %s\n", c->verdicts[i].text);
	rtm_compare_tirq_fprint(c, f);	/* the timer IRQ part, figures only */
	rtm_compare_noise_fprint(c, f);	/* run --noise (compare_noise.c) */
	rtm_compare_cost_fprint(c, f);	/* throughput beside latency */
}

/* ---------------------------------------------------------------- JSON */

static json_t *json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *row_json(const struct rtm_summary_row *r)
{
	json_t *o = json_object();
	json_t *unknown = json_object();
	char why[256];
	int m;

	if (r->cpu >= 0)
		json_object_set_new(o, "cpu", json_integer(r->cpu));
	/* a null value's reason under "unknown", key by key, as the summary's JSON */
	for (m = 0; m < RTM_CM_N; m++) {
		bool unk = rtm_compare_metric_unknown(r, m);

		json_object_set_new(o, rtm_compare_metrics[m].key, unk ? json_null() :
				    m == RTM_CM_AVG ? json_real(r->avg_ns) :
				    json_integer((json_int_t)rtm_compare_metric(r, m)));
		if (!unk)
			continue;
		if (m >= RTM_CM_P50 && m <= RTM_CM_P99999)
			rtm_summary_pct_reason(why, sizeof(why), r, m - RTM_CM_P50);
		else
			rtm_summary_unknown_reason(why, sizeof(why), r);
		json_object_set_new(unknown, rtm_compare_metrics[m].key, json_string(why));
	}
	if (json_object_size(unknown))
		json_object_set(o, "unknown", unknown);
	json_decref(unknown);
	json_object_set_new(o, "stddev_ns", json_real(r->stddev_ns));
	return o;
}

static json_t *diff_json(const struct rtm_summary_row *b, const struct rtm_summary_row *a)
{
	json_t *o = json_object();
	int m;

	if (b->cpu >= 0)
		json_object_set_new(o, "cpu", json_integer(b->cpu));
	for (m = 0; m < RTM_CM_N; m++) {
		double vb = rtm_compare_metric(b, m), va = rtm_compare_metric(a, m);
		bool unk = rtm_compare_metric_unknown(a, m) || rtm_compare_metric_unknown(b, m);

		json_object_set_new(o, rtm_compare_metrics[m].key, json_pack("{s:o, s:o}",
				    "ratio", va > 0 && !unk ? json_real(vb / va) : json_null(),
				    "delta", unk ? json_null() : json_real(vb - va)));
	}
	return o;
}

static json_t *ci_json(const struct rtm_quantile_ci *ci)
{
	json_t *o = json_pack("{s:f, s:I, s:b, s:f}", "percentile", ci->pct, "value_ns",
			      (json_int_t)ci->value_ns, "valid", ci->valid, "beyond", ci->beyond);

	json_object_set_new(o, "ci_lo_ns", ci->valid ? json_integer((json_int_t)ci->lo_ns) :
			    json_null());
	json_object_set_new(o, "ci_hi_ns", ci->valid ? json_integer((json_int_t)ci->hi_ns) :
			    json_null());
	return o;
}

static const char *const verdict_names[] = {
	[RTM_VERDICT_LOWER] = "lower",
	[RTM_VERDICT_HIGHER] = "higher",
	[RTM_VERDICT_SAME] = "not distinguishable",
	[RTM_VERDICT_FEW] = "too few samples",
};

static const char *const method_names[] = {
	[RTM_METHOD_NONE] = "none",
	[RTM_METHOD_BATCHES] = "batches",
	[RTM_METHOD_RUNS] = "runs",
	[RTM_METHOD_BOOTSTRAP] = "bootstrap",
};

/* The verdict's interval: what it is about, its own point, how it was made. */
static void verdict_interval_json(json_t *o, const struct rtm_compare_verdict *v)
{
	char stat[80];

	json_object_set_new(o, "statistic", v->method ? json_string(rtm_compare_statistic(v, stat,
			    sizeof(stat))) : json_null());
	json_object_set_new(o, "statistic_ratio", v->method ? json_num(v->ci.ratio) :
			    json_null());
	json_object_set_new(o, "bootstrap", v->method != RTM_METHOD_BOOTSTRAP ? json_null() :
			    json_pack("{s:i, s:i, s:i, s:b}", "resamples", v->boot.resamples,
				      "block_baseline", v->boot.block_a, "block_run",
				      v->boot.block_b, "stretched", v->boot.stretched));
}

static json_t *rounds_json(const struct rtm_compare_run *run)
{
	json_t *a = json_array();
	int j, k;

	for (j = 0; j < run->nrounds; j++) {
		const struct rtm_compare_round *rd = &run->rounds[j];
		json_t *p = json_array();

		for (k = 0; k < RTM_COMPARE_NPCT; k++)
			json_array_append_new(p, json_pack("{s:f, s:o, s:b}", "percentile",
				rtm_compare_pcts[k], "value_ns", rd->pct_ok[k] ?
				json_integer((json_int_t)rd->pct_ns[k]) : json_null(),
				"enough_samples", rd->pct_ok[k]));
		json_array_append_new(a, json_pack("{s:I, s:I, s:I, s:o}", "duration_ns",
			(json_int_t)rd->duration_ns, "samples", (json_int_t)rd->samples,
			"overruns", (json_int_t)rd->overruns, "percentiles", p));
	}
	return a;
}

static json_t *run_json(const struct rtm_compare_run *run, bool baseline)
{
	json_t *o, *fp = json_object(), *cpus = json_array(), *pcts = json_array();
	int k;

	for (k = 0; k < RTM_FP_NFIELDS; k++)
		json_object_set_new(fp, rtm_fp_fields[k].id,
				    run->fp[k] ? json_string(run->fp[k]) : json_null());
	for (k = 0; k < run->nrows - 1; k++)
		json_array_append_new(cpus, row_json(&run->rows[k]));
	for (k = 0; k < RTM_COMPARE_NPCT; k++) {
		const struct rtm_summary_row *all = &run->rows[run->nrows - 1];
		json_t *cj = ci_json(&run->ci[k]);
		int sk;

		/* too few samples, or an import's percentile beyond its rows: unknown */
		for (sk = 0; sk < RTM_SUMMARY_NPCT; sk++)
			if (rtm_summary_pcts[sk] == rtm_compare_pcts[k] &&
			    !rtm_summary_pct_shown(all, sk)) {
				char why[256];

				rtm_summary_pct_reason(why, sizeof(why), all, sk);
				json_object_set_new(cj, "value_ns", json_null());
				json_object_set_new(cj, "valid", json_false());
				json_object_set_new(cj, "ci_lo_ns", json_null());
				json_object_set_new(cj, "ci_hi_ns", json_null());
				json_object_set_new(cj, "unknown", json_string(why));
			}
		json_array_append_new(pcts, cj);
	}
	o = json_pack("{s:s, s:s, s:b, s:I, s:o, s:o, s:o, s:o}", "label", run->label, "path",
		      run->path, "baseline", baseline, "duration_ns", (json_int_t)run->duration_ns,
		      "fingerprint", fp, "all", row_json(&run->rows[run->nrows - 1]), "cpus", cpus,
		      "percentiles", pcts);
	json_object_set_new(o, "rounds", rounds_json(run));
	json_object_set_new(o, "batches", json_pack("{s:i, s:I, s:i, s:i}", "count",
			    run->nbatches, "length_ns", (json_int_t)run->batch_ns, "intervals",
			    run->batch_points, "merged_left_out", run->batch_merged));
	json_object_set_new(o, "vm", json_boolean(run->vm));
	json_object_set_new(o, "emulated", json_boolean(run->emulated));
	json_object_set_new(o, "warnings", rtm_compare_disturb_run_json(run));
	json_object_set_new(o, "throughput", rtm_compare_cost_run_json(run));
	json_object_set_new(o, "timer_irq", rtm_compare_tirq_run_json(run));
	json_object_set_new(o, "noise", rtm_compare_noise_run_json(run));
	return o;
}

static json_t *comparison_json(const struct rtm_compare *c, int i, const int *cpus, int ncpus)
{
	const struct rtm_compare_run *a = &c->runs[0], *b = &c->runs[i];
	json_t *jc = json_array(), *jv = json_array();
	int k;

	for (k = 0; k < ncpus; k++) {
		const struct rtm_summary_row *rb = rtm_compare_row(b, cpus[k]);
		const struct rtm_summary_row *ra = rtm_compare_row(a, cpus[k]);

		if (ra && rb)
			json_array_append_new(jc, diff_json(rb, ra));
	}
	for (k = 0; k < c->nverdicts; k++) {
		const struct rtm_compare_verdict *v = &c->verdicts[k];
		bool few = v->kind == RTM_VERDICT_FEW;
		json_t *jo;

		if (v->run != i)
			continue;
		jo = json_pack("{s:f, s:s, s:o, s:o, s:o, s:s, s:s, s:o, s:o, s:o, s:s}",
			"percentile",
			v->pct, "verdict", verdict_names[v->kind], "ratio", json_num(v->ratio),
			"ratio_ci_lo", few ? json_null() : json_num(v->ratio_lo),
			"ratio_ci_hi", few ? json_null() : json_num(v->ratio_hi),
			"method", method_names[v->method],
			"interval", v->method == RTM_METHOD_NONE ? "none" :
				    v->method == RTM_METHOD_BOOTSTRAP ? "block-bootstrap" :
				    v->ci.welch ? "welch-t" : "pooled-t",
			"n_baseline", v->method ? json_integer(v->ci.na) : json_null(),
			"n_run", v->method ? json_integer(v->ci.nb) : json_null(),
			"df", v->method && v->method != RTM_METHOD_BOOTSTRAP ? json_num(v->ci.df) :
			json_null(), "text", v->text);
		verdict_interval_json(jo, v);
		json_array_append_new(jv, jo);
	}
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o}", "run", b->label, "baseline",
			 a->label, "all", diff_json(&b->rows[b->nrows - 1], &a->rows[a->nrows - 1]),
			 "cpus", jc, "verdicts", jv, "throughput", rtm_compare_cost_json(c, i),
			 "noise", rtm_compare_noise_json(c, i));
}

json_t *rtm_compare_to_json(const struct rtm_compare *c)
{
	json_t *runs = json_array(), *warns = json_array(), *cmps = json_array(), *nw;
	int i, n, *cpus = NULL;

	n = rtm_compare_cpus(c, &cpus);
	if (n < 0)
		n = 0;
	for (i = 0; i < c->nruns; i++)
		json_array_append_new(runs, run_json(&c->runs[i], i == 0));
	for (i = 0; i < c->nwarnings; i++)
		json_array_append_new(warns, json_pack("{s:s, s:s}", "id",
				      c->warnings[i].id, "message",
				      c->warnings[i].text));
	nw = rtm_compare_noise_warnings_json(c);	/* run --noise (compare_noise.c) */
	json_array_extend(warns, nw);
	json_decref(nw);
	for (i = 1; i < c->nruns; i++) {
		json_t *cj = comparison_json(c, i, cpus, n);

		json_object_set_new(cj, "shared_cpus", rtm_compare_disturb_shared_json(c, i));
		json_array_append_new(cmps, cj);
	}
	free(cpus);
	return json_pack("{s:s, s:f, s:f, s:s, s:o, s:o, s:o, s:o}", "schema",
			 "rtmeasure-compare/1", "confidence", RTM_COMPARE_CONF, "batch_margin",
			 RTM_COMPARE_BATCH_MARGIN, "method",
			 "several runs on a side: t interval (Welch, or pooled when a side has "
			 "one run) on the logarithms of the per-run percentiles, about the ratio "
			 "of their geometric means (statistic_ratio); one run on each side: "
			 "circular block bootstrap of the ratio of the runs' percentiles (ratio, "
			 "the table's) over their time series' intervals, 2000 resamples, blocks "
			 "of sqrt(intervals), fixed seed, or, for series without per-interval "
			 "histograms, Welch t interval on batch means of the logarithm of each "
			 "run's per-interval p99; one run each: a difference only beyond "
			 "batch_margin; runs[].percentiles are order-statistic "
			 "intervals of the merged histogram, sampling noise within a run only",
			 "banner", c->banner[0] ? json_string(c->banner) : json_null(),
			 "runs", runs, "warnings", warns, "comparisons", cmps);
}
