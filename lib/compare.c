// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare.c - digesting runs, fingerprints and their warnings, confidence
 * intervals and verdicts, the table and the JSON of a comparison.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_priv.h"
#include "jsonutil.h"
#include "units.h"

const double rtm_compare_pcts[RTM_COMPARE_NPCT] = { 99, 99.9, 99.99, 99.999 };

const struct rtm_fp_info rtm_fp_fields[RTM_FP_NFIELDS] = {
	[RTM_FP_HOST] = { "host", "host", NULL },
	[RTM_FP_KERNEL] = { "kernel", "kernel", NULL },
	[RTM_FP_PREEMPT] = { "preempt", "preemption", NULL },
	[RTM_FP_CMDLINE] = { "cmdline", "command line", NULL },
	[RTM_FP_CPU_MODEL] = { "cpu_model", "CPU", "different hardware" },
	[RTM_FP_NCPUS] = { "online_cpus", "online CPUs",
			   "a different CPU count changes what shares the measured CPUs" },
	[RTM_FP_VM] = { "virtualization", "virtualisation",
			"a hypervisor adds latency no kernel can remove" },
	[RTM_FP_ISOLCPUS] = { "isolcpus", "isolcpus",
			      "isolation changes what else runs on the measured CPUs" },
	[RTM_FP_NOHZ_FULL] = { "nohz_full", "nohz_full",
			       "a tickless CPU sees fewer interruptions" },
	[RTM_FP_LOAD] = { "load", "load", "latency depends on the background load" },
	[RTM_FP_MEASURED] = { "measured_cpus", "measured CPUs",
			      "different CPUs see different interrupts and housekeeping" },
	[RTM_FP_INTERVAL] = { "interval", "interval",
			      "the wake-up period changes idle depth and cache state" },
	[RTM_FP_SCHED] = { "sched", "scheduling",
			   "policy and priority decide what may preempt the probe" },
	[RTM_FP_MODE] = { "mode", "probe mode", "the probe mode changes the wake-up path" },
	[RTM_FP_DURATION] = { "duration", "duration",
			      "a longer run sees rarer events: high percentiles and the maximum "
			      "grow with the run's length" },
};

/* ---------------------------------------------------------------- digest */

struct rtm_compare *rtm_compare_alloc(void)
{
	return calloc(1, sizeof(struct rtm_compare));
}

void rtm_compare_free(struct rtm_compare *c)
{
	int i, k;

	if (!c)
		return;
	for (i = 0; i < c->nruns; i++) {
		for (k = 0; k < RTM_FP_NFIELDS; k++)
			free(c->runs[i].fp[k]);
		free(c->runs[i].rows);
		rtm_hist_free(c->runs[i].all);
	}
	free(c);
}

static char *jstrdup(const json_t *o, const char *path)
{
	const char *s = json_string_value(rtm_json_path(o, path));

	return s ? strdup(s) : NULL;
}

static char *fmt_dup(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *fmt_dup(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static char *fp_measured(const struct rtm_result *r)
{
	struct rtm_cpulist cl = { 0, NULL };
	char buf[1024];
	int i, n = 0;

	cl.cpus = malloc((size_t)r->ncpus * sizeof(int));
	if (!cl.cpus)
		return NULL;
	for (i = 0; i < r->ncpus; i++)
		cl.cpus[n++] = r->cpus[i].cpu;
	qsort(cl.cpus, (size_t)n, sizeof(int), cmp_int);
	cl.n = n;
	rtm_cpulist_format(&cl, buf, sizeof(buf));
	free(cl.cpus);
	return strdup(buf);
}

static char *fp_load(const struct rtm_result *r)
{
	const json_t *kinds = rtm_json_path(r->sections, "load.kinds"), *k;
	char buf[256] = "";
	size_t i, len = 0;

	if (!json_is_array(kinds))
		return !strcmp(r->command, "cyclic") || !strcmp(r->command, "run") ?
		       strdup("none") : NULL;
	json_array_foreach(kinds, i, k) {
		if (json_is_string(k))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
						len ? "," : "", json_string_value(k));
		if (len >= sizeof(buf))
			break;
	}
	return strdup(buf[0] ? buf : "none");
}

static char *fp_sched(const json_t *opt)
{
	const json_t *pol = rtm_json_path(opt, "sched.policy"), *prio = rtm_json_path(opt, "sched.priority");

	if (json_is_false(json_object_get(opt, "rt")))
		return strdup("other (no RT)");
	if (!pol)
		pol = json_object_get(opt, "policy");
	if (!prio)
		prio = json_object_get(opt, "priority");
	if (json_is_string(pol) && json_is_integer(prio))
		return fmt_dup("%s %lld", json_string_value(pol),
			       (long long)json_integer_value(prio));
	if (json_is_string(pol))
		return strdup(json_string_value(pol));
	if (json_is_integer(prio))
		return fmt_dup("priority %lld", (long long)json_integer_value(prio));
	return NULL;
}

static void fill_fp(struct rtm_compare_run *run, const struct rtm_result *r)
{
	const json_t *si = r->sysinfo, *opt = r->options, *v;
	char buf[64];
	char **fp = run->fp;

	fp[RTM_FP_HOST] = jstrdup(si, "hostname");
	fp[RTM_FP_KERNEL] = jstrdup(si, "kernel.release");
	v = rtm_json_path(si, "kernel.preempt.model");
	if (json_is_string(v))
		fp[RTM_FP_PREEMPT] = fmt_dup("%s%s", json_string_value(v),
					     json_is_true(rtm_json_path(si, "kernel.preempt.dynamic")) ?
					     " (dynamic)" : "");
	fp[RTM_FP_CMDLINE] = jstrdup(si, "kernel.cmdline");
	fp[RTM_FP_CPU_MODEL] = jstrdup(si, "cpu.model");
	v = rtm_json_path(si, "cpu.online_count");
	if (json_is_integer(v))
		fp[RTM_FP_NCPUS] = fmt_dup("%lld", (long long)json_integer_value(v));
	v = rtm_json_path(si, "virtualization.vm");
	if (json_is_boolean(v)) {
		const char *hv = json_string_value(rtm_json_path(si, "virtualization.hypervisor"));

		fp[RTM_FP_VM] = json_is_false(v) ? strdup("bare metal") :
				hv && *hv ? fmt_dup("VM (%s)", hv) : strdup("VM");
	}
	/* boot options: absent from a known command line means none */
	if (fp[RTM_FP_CMDLINE]) {
		const char *iso = json_string_value(rtm_json_path(si, "kernel.cmdline_options.isolcpus"));
		const char *nohz = json_string_value(rtm_json_path(si, "kernel.cmdline_options.nohz_full"));

		fp[RTM_FP_ISOLCPUS] = strdup(iso ? iso : "none");
		fp[RTM_FP_NOHZ_FULL] = strdup(nohz ? nohz : "none");
	}
	fp[RTM_FP_LOAD] = fp_load(r);
	fp[RTM_FP_MEASURED] = fp_measured(r);
	v = json_object_get(opt, "interval_ns");
	if (json_is_integer(v))
		fp[RTM_FP_INTERVAL] = strdup(rtm_fmt_ns(buf, sizeof(buf),
							(uint64_t)json_integer_value(v)));
	else if (json_is_integer(v = json_object_get(opt, "interval_us")))
		fp[RTM_FP_INTERVAL] = strdup(rtm_fmt_ns(buf, sizeof(buf),
							(uint64_t)json_integer_value(v) * 1000));
	fp[RTM_FP_SCHED] = fp_sched(opt);
	fp[RTM_FP_MODE] = jstrdup(opt, "mode");
	/* an import whose source does not tell its length or its CPUs: unknown */
	if (r->duration_ns || !json_object_get(r->sections, "provenance"))
		fp[RTM_FP_DURATION] = strdup(rtm_fmt_duration(buf, sizeof(buf), r->duration_ns));
	if (json_is_false(rtm_json_path(r->sections, "provenance.cpus_known"))) {
		free(fp[RTM_FP_MEASURED]);
		fp[RTM_FP_MEASURED] = NULL;
	}
}

int rtm_compare_add(struct rtm_compare *c, const struct rtm_result *r, const char *label,
		    const char *path, struct rtm_error *err)
{
	struct rtm_compare_run *run;
	int k, n;

	if (c->nruns >= RTM_COMPARE_MAX_RUNS)
		return rtm_error_setn(err, -E2BIG, "at most %d runs can be compared at once",
				      RTM_COMPARE_MAX_RUNS);
	if (r->ncpus < 1)
		return rtm_error_setn(err, -EINVAL, "%s holds no CPU: nothing to compare",
				      path ? path : label);
	run = &c->runs[c->nruns];
	memset(run, 0, sizeof(*run));
	snprintf(run->label, sizeof(run->label), "%s", label);
	snprintf(run->path, sizeof(run->path), "%s", path ? path : "");
	run->duration_ns = r->duration_ns;
	n = rtm_summary_rows(r, false, &run->rows);
	run->all = rtm_hist_alloc();
	if (n < 0 || !run->all) {
		if (n >= 0)
			free(run->rows);
		rtm_hist_free(run->all);
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	run->nrows = n;
	rtm_result_total(r, run->all, NULL);
	for (k = 0; k < RTM_COMPARE_NPCT; k++) {
		rtm_hist_quantile_ci(run->all, rtm_compare_pcts[k], RTM_COMPARE_CONF, &run->ci[k]);
		rtm_hist_quantile_ci(run->all, rtm_compare_pcts[k], (1.0 + RTM_COMPARE_CONF) / 2.0,
				     &run->ci_pair[k]);
	}
	fill_fp(run, r);
	run->overflows = rtm_result_unplaced_overflows(r);
	c->nruns++;
	return 0;
}

/* ---------------------------------------------------------------- warnings, verdicts */

static bool fp_differs(const struct rtm_compare *c, int field)
{
	const char *a = c->runs[0].fp[field];
	int i;

	if (field == RTM_FP_DURATION) {
		uint64_t lo = UINT64_MAX, hi = 0;

		for (i = 0; i < c->nruns; i++) {
			uint64_t d = c->runs[i].duration_ns;

			lo = d < lo ? d : lo;
			hi = d > hi ? d : hi;
		}
		return lo > 0 && hi > 2 * lo;
	}
	for (i = 1; i < c->nruns; i++) {
		const char *b = c->runs[i].fp[field];

		if (a && b && strcmp(a, b))
			return true;
		/* an import without its command line next to a run that states it */
		if (field == RTM_FP_INTERVAL && !a != !b)
			return true;
	}
	return false;
}

static void add_warning(struct rtm_compare *c, int field)
{
	struct rtm_compare_warning *w = &c->warnings[c->nwarnings++];
	char text[sizeof(w->text)];
	size_t len, cap = sizeof(text);
	int i;

	/* built aside: the labels live in *c too, and snprintf must not overlap */
	len = (size_t)snprintf(text, cap, "different %s%s (", rtm_fp_fields[field].name,
			       field == RTM_FP_DURATION ? ", more than 2x" : "");
	for (i = 0; i < c->nruns && len < cap; i++) {
		const char *v = c->runs[i].fp[field];

		len += (size_t)snprintf(text + len, cap - len, "%s%s: %.80s", i ? "; " : "",
					c->runs[i].label, v ? v : "unknown");
	}
	if (len < cap)
		snprintf(text + len, cap - len, "): %s", rtm_fp_fields[field].unfair);
	w->field = (enum rtm_fp_field)field;
	memcpy(w->text, text, sizeof(text));
}

/* Decimals for a factor: 2 below 2, 1 below 10, none above. */
static int factor_decimals(double x)
{
	return !isfinite(x) ? 0 : x < 1.995 ? 2 : x < 9.95 ? 1 : 0;
}

static void fmt_factor_d(char *buf, size_t len, double x, int decimals)
{
	if (!isfinite(x))
		snprintf(buf, len, "inf");
	else
		snprintf(buf, len, "%.*f", decimals, x);
}

void rtm_compare_fmt_factor(char *buf, size_t len, double x)
{
	fmt_factor_d(buf, len, x, factor_decimals(x));
}

/* A factor and its interval with the point's decimals: "4.1", "3.7", "4.6". */
static void fmt_factors(char f[3][24], double x, double lo, double hi)
{
	int d = factor_decimals(x);

	fmt_factor_d(f[0], sizeof(f[0]), x, d);
	fmt_factor_d(f[1], sizeof(f[1]), lo, d);
	fmt_factor_d(f[2], sizeof(f[2]), hi, d);
}

static double ratio_of(uint64_t b, uint64_t a)
{
	return a ? (double)b / (double)a : (b ? INFINITY : 1.0);
}

static bool beyond_import(const struct rtm_compare_run *r, double p)
{
	double total = (double)r->all->count + (double)r->overflows;

	return r->overflows && (1.0 - p / 100.0) * total < (double)r->overflows + 1.0;
}

void rtm_compare_verdict(const struct rtm_compare_run *a, const struct rtm_compare_run *b,
			 int k, struct rtm_compare_verdict *v)
{
	const struct rtm_quantile_ci *ca = &a->ci_pair[k], *cb = &b->ci_pair[k];
	double p = rtm_compare_pcts[k];
	char f[3][24];

	v->pct = p;
	v->ratio = ratio_of(cb->value_ns, ca->value_ns);
	v->ratio_lo = v->ratio_hi = v->ratio;
	/* an imported run whose percentile lies among the samples beyond its histogram */
	if (beyond_import(a, p) || beyond_import(b, p)) {
		const struct rtm_compare_run *x = beyond_import(a, p) ? a : b;

		v->kind = RTM_VERDICT_FEW;
		snprintf(v->text, sizeof(v->text), "p%g of %s is unknown: it lies among the %llu "
			 "samples beyond its imported histogram", p, x->label,
			 (unsigned long long)x->overflows);
		return;
	}
	if (!ca->valid || !cb->valid) {
		v->kind = RTM_VERDICT_FEW;
		snprintf(v->text, sizeof(v->text), "too few samples for p%g (%s has %llu, %s %llu; "
			 "%.0f needed for %d beyond it)", p, a->label, (unsigned long long)ca->n,
			 b->label, (unsigned long long)cb->n,
			 ceil(RTM_STATS_MIN_BEYOND / (1.0 - p / 100.0) - 1e-6),
			 RTM_STATS_MIN_BEYOND);
		return;
	}
	/* both intervals cover with (1 + conf) / 2 each, so this one with conf */
	v->ratio_lo = ratio_of(cb->lo_ns, ca->hi_ns);
	v->ratio_hi = ratio_of(cb->hi_ns, ca->lo_ns);
	if (cb->lo_ns > ca->hi_ns) {
		v->kind = RTM_VERDICT_HIGHER;
		fmt_factors(f, v->ratio, v->ratio_lo, v->ratio_hi);
		snprintf(v->text, sizeof(v->text), "%s's p%g is %sx higher than %s's (%.0f%% CI "
			 "%s-%sx)", b->label, p, f[0], a->label, RTM_COMPARE_CONF * 100, f[1],
			 f[2]);
	} else if (cb->hi_ns < ca->lo_ns) {
		v->kind = RTM_VERDICT_LOWER;
		fmt_factors(f, 1.0 / v->ratio, 1.0 / v->ratio_hi, 1.0 / v->ratio_lo);
		snprintf(v->text, sizeof(v->text), "%s's p%g is %sx lower than %s's (%.0f%% CI "
			 "%s-%sx)", b->label, p, f[0], a->label, RTM_COMPARE_CONF * 100, f[1],
			 f[2]);
	} else {
		v->kind = RTM_VERDICT_SAME;
		fmt_factors(f, v->ratio, v->ratio_lo, v->ratio_hi);
		snprintf(v->text, sizeof(v->text), "%s's p%g is not distinguishable from %s's "
			 "(ratio %s, %.0f%% CI %s-%s)", b->label, p, a->label, f[0],
			 RTM_COMPARE_CONF * 100, f[1], f[2]);
	}
}

void rtm_compare_finish(struct rtm_compare *c)
{
	int i, k;

	c->nwarnings = 0;
	c->nverdicts = 0;
	for (k = 0; k < RTM_FP_NFIELDS; k++)
		if (rtm_fp_fields[k].unfair && fp_differs(c, k))
			add_warning(c, k);
	for (i = 1; i < c->nruns; i++) {
		for (k = 0; k < RTM_COMPARE_NPCT; k++) {
			struct rtm_compare_verdict *v = &c->verdicts[c->nverdicts++];

			v->run = i;
			rtm_compare_verdict(&c->runs[0], &c->runs[i], k, v);
		}
	}
}

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

/* An imported run's figure that depends on samples with no known value. */
static bool metric_unknown(const struct rtm_summary_row *r, int m)
{
	switch (m) {
	case RTM_CM_SAMPLES:
	case RTM_CM_OVERRUNS: return false;
	case RTM_CM_MIN: return r->unknown & RTM_SUMMARY_UNKNOWN_MIN;
	case RTM_CM_AVG: return r->unknown & RTM_SUMMARY_UNKNOWN_AVG;
	case RTM_CM_MAX: return r->unknown & RTM_SUMMARY_UNKNOWN_MAX;
	default: return !rtm_summary_pct_known(r, m - RTM_CM_P50);
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
		snprintf(buf, len, "%.1f", v / 1000.0);
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
	if (what == 'v' && metric_unknown(r, m)) {
		rtm_summary_fmt_unknown(buf, len, r, false);
		if (m == RTM_CM_MIN || m == RTM_CM_AVG || m == RTM_CM_MAX)
			snprintf(buf, len, "n/a");
		return;
	}
	if (what != 'v' && (metric_unknown(r, m) || metric_unknown(base, m))) {
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
	if (c->nverdicts)
		fprintf(f, "\nverdicts (all CPUs, %.0f%% confidence, see rtmeasure-compare(1)):\n",
			RTM_COMPARE_CONF * 100);
	for (i = 0; i < c->nverdicts; i++)
		fprintf(f, "  %s\n", c->verdicts[i].text);
}

/* ---------------------------------------------------------------- JSON */

static json_t *json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *row_json(const struct rtm_summary_row *r)
{
	json_t *o = json_object();
	int m;

	if (r->cpu >= 0)
		json_object_set_new(o, "cpu", json_integer(r->cpu));
	for (m = 0; m < RTM_CM_N; m++)
		json_object_set_new(o, rtm_compare_metrics[m].key,
				    metric_unknown(r, m) ? json_null() :
				    m == RTM_CM_AVG ? json_real(r->avg_ns) :
				    json_integer((json_int_t)rtm_compare_metric(r, m)));
	if (r->unknown) {
		char why[256];

		rtm_summary_unknown_reason(why, sizeof(why), r);
		json_object_set_new(o, "unknown", json_string(why));
	}
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
		bool unk = metric_unknown(a, m) || metric_unknown(b, m);

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

		/* an import's percentile among the samples beyond its rows: unknown */
		for (sk = 0; sk < RTM_SUMMARY_NPCT; sk++)
			if (rtm_summary_pcts[sk] == rtm_compare_pcts[k] &&
			    !rtm_summary_pct_known(all, sk)) {
				char why[256];

				rtm_summary_unknown_reason(why, sizeof(why), all);
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

		if (v->run != i)
			continue;
		json_array_append_new(jv, json_pack("{s:f, s:s, s:o, s:o, s:o, s:s}", "percentile",
			v->pct, "verdict", verdict_names[v->kind], "ratio", json_num(v->ratio),
			"ratio_ci_lo", few ? json_null() : json_num(v->ratio_lo),
			"ratio_ci_hi", few ? json_null() : json_num(v->ratio_hi), "text", v->text));
	}
	return json_pack("{s:s, s:s, s:o, s:o, s:o}", "run", b->label, "baseline", a->label,
			 "all", diff_json(&b->rows[b->nrows - 1], &a->rows[a->nrows - 1]),
			 "cpus", jc, "verdicts", jv);
}

json_t *rtm_compare_to_json(const struct rtm_compare *c)
{
	json_t *runs = json_array(), *warns = json_array(), *cmps = json_array();
	int i, n, *cpus = NULL;

	n = rtm_compare_cpus(c, &cpus);
	if (n < 0)
		n = 0;
	for (i = 0; i < c->nruns; i++)
		json_array_append_new(runs, run_json(&c->runs[i], i == 0));
	for (i = 0; i < c->nwarnings; i++)
		json_array_append_new(warns, json_pack("{s:s, s:s}", "id",
				      rtm_fp_fields[c->warnings[i].field].id, "message",
				      c->warnings[i].text));
	for (i = 1; i < c->nruns; i++)
		json_array_append_new(cmps, comparison_json(c, i, cpus, n));
	free(cpus);
	return json_pack("{s:s, s:f, s:s, s:o, s:o, s:o}", "schema", "rtmeasure-compare/1",
			 "confidence", RTM_COMPARE_CONF, "method",
			 "order statistics of the all-CPU histogram (binomial ranks, bucket "
			 "edges); "
			 "assumes independent samples, so the intervals are optimistic",
			 "runs", runs, "warnings", warns, "comparisons", cmps);
}
