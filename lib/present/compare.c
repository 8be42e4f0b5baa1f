// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare.c - digesting runs, fingerprints and their warnings, confidence
 * intervals and verdicts (compare_out.c writes the comparison out: its metrics,
 * cells, table and JSON).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/compare_priv.h"
#include "present/wakeup_print.h"
#include "core/jsonutil.h"
#include "core/units.h"

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
		rtm_result_free(c->runs[i].pool);
		rtm_hist_free(c->runs[i].tirq);
		rtm_compare_noise_free(&c->runs[i]);
		rtm_compare_series_free(&c->runs[i]);
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
	char buf[96];
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
	if (json_object_get(r->sections, "wakeup")) {	/* the box's own tasks: which ones */
		rtm_wakeup_selection_text(buf, sizeof(buf), json_object_get(r->sections, "wakeup"));
		free(fp[RTM_FP_MODE]);
		fp[RTM_FP_MODE] = fmt_dup("wakeup: %s", buf);
	}
	/* an import whose source does not tell its length or its CPUs: unknown */
	if (r->interrupted) {	/* "2.4 s of 60 s asked, stopped by SIGINT" (result/disturb.h) */
		rtm_result_duration_text(r, buf, sizeof(buf));
		fp[RTM_FP_DURATION] = strdup(buf);
	} else if (r->duration_ns || !json_object_get(r->sections, "provenance"))
		fp[RTM_FP_DURATION] = strdup(rtm_fmt_duration(buf, sizeof(buf), r->duration_ns));
	if (json_is_false(rtm_json_path(r->sections, "provenance.cpus_known"))) {
		free(fp[RTM_FP_MEASURED]);
		fp[RTM_FP_MEASURED] = NULL;
	}
}

/* A later round's fingerprint: a value that differs is appended ("none | cpu"). */
static void merge_fp(struct rtm_compare_run *run, char **fp)
{
	int k;

	for (k = 0; k < RTM_FP_NFIELDS; k++) {
		char *cur = run->fp[k], *s;
		size_t len;
		bool seen = false;

		if (!fp[k] || k == RTM_FP_DURATION)
			continue;
		if (!cur) {
			run->fp[k] = fp[k];
			fp[k] = NULL;
			continue;
		}
		/* already one of the " | "-separated values? */
		len = strlen(fp[k]);
		for (s = cur; s && !seen; s = strstr(s, " | ")) {
			if (s != cur)
				s += 3;
			seen = !strncmp(s, fp[k], len) && (!s[len] || !strncmp(s + len, " | ", 3));
		}
		if (!seen && (s = fmt_dup("%s | %s", cur, fp[k]))) {
			free(cur);
			run->fp[k] = s;
		}
	}
}

static bool round_beyond_import(uint64_t count, uint64_t overflows, double p)
{
	double total = (double)count + (double)overflows;

	return overflows && (1.0 - p / 100.0) * total < (double)overflows + 1.0;
}

void rtm_compare_round_pcts(struct rtm_compare_round *rd, const struct rtm_hist *h)
{
	int k;

	rd->samples = h->count;
	for (k = 0; k < RTM_COMPARE_NPCT; k++) {
		double p = rtm_compare_pcts[k];

		struct rtm_quantile_ci qc;

		rd->pct_ns[k] = rtm_hist_percentile(h, p);
		rd->pct_ok[k] = rtm_pct_defined(h->count, p) &&
				!round_beyond_import(h->count, rd->overflows, p);
		rtm_hist_quantile_ci(h, p, 0.95, &qc);
		if (qc.valid && qc.lo_ns) {
			double sd = log((double)qc.hi_ns / (double)qc.lo_ns) /
				    (2.0 * rtm_norm_quantile(0.975));

			rd->pct_logvar[k] = sd * sd;
		}
	}
}

/* The round's own figures, and its histograms merged into the run's pool. */
static int digest_round(struct rtm_compare_run *run, const struct rtm_result *r)
{
	struct rtm_compare_round *rd = &run->rounds[run->nrounds];
	struct rtm_hist *h = rtm_hist_alloc();
	bool corrected = true;
	int i, j, k, n;

	if (!h)
		return -ENOMEM;
	memset(rd, 0, sizeof(*rd));
	rd->duration_ns = r->duration_ns;
	rd->overflows = rtm_result_unplaced_overflows(r);
	rtm_result_total(r, h, NULL);
	rtm_compare_round_pcts(rd, h);
	rtm_hist_free(h);
	for (i = 0; i < r->ncpus; i++) {
		const struct rtm_result_cpu *rc = &r->cpus[i];
		struct rtm_result_cpu *pc = NULL;

		rd->overruns += rc->overruns;
		corrected &= rc->corrected != NULL;
		for (j = 0; j < run->pool->ncpus && !pc; j++)
			if (run->pool->cpus[j].cpu == rc->cpu)
				pc = &run->pool->cpus[j];
		if (!pc && !(pc = rtm_result_add_cpu(run->pool, rc->cpu, false, 0)))
			return -ENOMEM;
		rtm_hist_merge(pc->raw, rc->raw);
		pc->overruns += rc->overruns;
	}
	run->corrected_kept = run->nrounds ? run->corrected_kept && corrected : corrected;
	free(run->rows);
	run->rows = NULL;
	/* one run: its own rows, which know an import's unknown figures (provenance) */
	n = rtm_summary_rows(run->nrounds ? run->pool : r, false, &run->rows);
	if (n < 0)
		return n;
	run->nrows = n;
	rtm_hist_reset(run->all);
	rtm_result_total(run->pool, run->all, NULL);
	for (k = 0; k < RTM_COMPARE_NPCT; k++)
		rtm_hist_quantile_ci(run->all, rtm_compare_pcts[k], RTM_COMPARE_CONF, &run->ci[k]);
	run->overflows += rd->overflows;
	rtm_compare_disturb_digest(run, r);	/* run->vm, emulated (compare_disturb.c) */
	if (!run->nrounds) {
		run->duration_ns = r->duration_ns;
		fill_fp(run, r);
		n = rtm_compare_series_digest(run, r);	/* compare_series.c */
		if (n)
			return n;
	} else {
		struct rtm_compare_run tmp;

		memset(&tmp, 0, sizeof(tmp));
		fill_fp(&tmp, r);
		merge_fp(run, tmp.fp);
		for (k = 0; k < RTM_FP_NFIELDS; k++)
			free(tmp.fp[k]);
	}
	run->nrounds++;
	return 0;
}

/*
 * The throughput scores and timer IRQ delays of the round just digested; a bad
 * section names the run.
 */
static int add_cost(struct rtm_compare_run *run, const struct rtm_result *r, const char *what,
		    struct rtm_error *err)
{
	struct rtm_error e = { "" };

	if (!rtm_compare_cost_digest(run, r, &e) &&
	    !rtm_compare_tirq_digest(run, r, &e) &&	/* the timer IRQ part (compare_tirq.c) */
	    !rtm_compare_noise_digest(run, r, &e))	/* run --noise (compare_noise.c) */
		return 0;
	return rtm_error_set(err, "%s: %s", what, e.msg);
}

int rtm_compare_add(struct rtm_compare *c, const struct rtm_result *r, const char *label,
		    const char *path, struct rtm_error *err)
{
	struct rtm_compare_run *run;
	int ret;

	if (c->nruns >= RTM_COMPARE_MAX_RUNS)
		return rtm_error_setn(err, -E2BIG, "at most %d runs can be compared at once",
				      RTM_COMPARE_MAX_RUNS);
	if (r->ncpus < 1 && json_object_get(r->sections, "io"))	/* rtmeasure io */
		return rtm_error_setn(err, -EINVAL, "%s is a storage run (sections.io): compare "
				      "it with storage runs (compare_io.h), not latency",
				      path ? path : label);
	if (r->ncpus < 1)
		return rtm_error_setn(err, -EINVAL, "%s holds no CPU: nothing to compare",
				      path ? path : label);
	run = &c->runs[c->nruns];
	memset(run, 0, sizeof(*run));
	snprintf(run->label, sizeof(run->label), "%s", label);
	snprintf(run->path, sizeof(run->path), "%s", path ? path : "");
	run->all = rtm_hist_alloc();
	run->pool = rtm_result_alloc("compare");
	c->nruns++;		/* freed with the comparison from here on */
	if (!run->all || !run->pool)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	ret = digest_round(run, r);
	if (ret)
		return rtm_error_setn(err, ret, "out of memory");
	return add_cost(run, r, path ? path : label, err);	/* throughput (compare_cost.c) */
}

int rtm_compare_add_round(struct rtm_compare *c, const struct rtm_result *r, const char *path,
			  struct rtm_error *err)
{
	struct rtm_compare_run *run = c->nruns ? &c->runs[c->nruns - 1] : NULL;
	size_t len;
	int ret;

	if (!run)
		return rtm_error_setn(err, -EINVAL, "a round needs a run to belong to");
	if (run->nrounds >= RTM_COMPARE_MAX_ROUNDS)
		return rtm_error_setn(err, -E2BIG, "at most %d runs on one side (%s)",
				      RTM_COMPARE_MAX_ROUNDS, run->label);
	if (r->ncpus < 1)
		return rtm_error_setn(err, -EINVAL, "%s holds no CPU: nothing to compare",
				      path ? path : run->label);
	ret = digest_round(run, r);
	if (ret)
		return rtm_error_setn(err, ret, "out of memory");
	ret = add_cost(run, r, path ? path : run->label, err);	/* throughput */
	if (ret)
		return ret;
	len = strlen(run->path);
	if (path && len + 1 < sizeof(run->path))
		snprintf(run->path + len, sizeof(run->path) - len, ",%s", path);
	return 0;
}

/* ---------------------------------------------------------------- warnings, verdicts */

static bool fp_differs(const struct rtm_compare *c, int field)
{
	const char *a = c->runs[0].fp[field];
	int i, j;

	if (field == RTM_FP_DURATION) {
		uint64_t lo = UINT64_MAX, hi = 0;

		for (i = 0; i < c->nruns; i++) {
			for (j = 0; j < c->runs[i].nrounds; j++) {
				uint64_t d = c->runs[i].rounds[j].duration_ns;

				lo = d < lo ? d : lo;
				hi = d > hi ? d : hi;
			}
		}
		return lo > 0 && hi > 2 * lo;
	}
	for (i = 0; i < c->nruns; i++) {
		const char *b = c->runs[i].fp[field];

		/* the rounds of one run differ among themselves */
		if (b && strstr(b, " | "))
			return true;
		if (i && a && b && strcmp(a, b))
			return true;
		/* an import without its command line next to a run that states it */
		if (field == RTM_FP_INTERVAL && !a != !b)
			return true;
	}
	return false;
}

static struct rtm_compare_warning *new_warning(struct rtm_compare *c, int field, const char *id)
{
	struct rtm_compare_warning *w = &c->warnings[c->nwarnings++];

	w->field = (enum rtm_fp_field)field;
	w->id = id;
	w->text[0] = '\0';
	return w;
}

static void add_warning(struct rtm_compare *c, int field)
{
	struct rtm_compare_warning *w = new_warning(c, field, rtm_fp_fields[field].id);
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
	/* two wakeup results: their selections took different tasks */
	if (len < cap)
		snprintf(text + len, cap - len, "): %s", field == RTM_FP_MODE &&
			 c->runs[0].fp[field] && !strncmp(c->runs[0].fp[field], "wakeup: ", 8) ?
			 "they measured different tasks" : rtm_fp_fields[field].unfair);
	memcpy(w->text, text, sizeof(text));
}

/* The emulation / VM banner and its warning, when any run had a hypervisor under it. */
static void add_vm_warning(struct rtm_compare *c)
{
	struct rtm_compare_warning *w;
	char names[256] = "";
	size_t len = 0;
	bool emulated = false;
	int i;

	for (i = 0; i < c->nruns; i++) {
		const struct rtm_compare_run *r = &c->runs[i];

		if (!r->vm)
			continue;
		emulated |= r->emulated;
		if (len < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s: %.60s",
						len ? "; " : "", r->label,
						r->emulated ? "emulated (QEMU TCG)" :
						r->fp[RTM_FP_VM] ? r->fp[RTM_FP_VM] : "VM");
	}
	if (!len)
		return;
	if (emulated)
		snprintf(c->banner, sizeof(c->banner), "emulated: the kernels' relative behaviour "
			 "only, not this hardware's latency");
	else
		snprintf(c->banner, sizeof(c->banner), "virtual machine: the latencies include "
			 "the hypervisor's; they compare the kernels in this VM, not on bare "
			 "metal");
	w = new_warning(c, RTM_FP_NFIELDS, emulated ? "emulated" : "hypervisor");
	snprintf(w->text, sizeof(w->text), "%s (%s): %s", emulated ?
		 "ran under emulation or a hypervisor" : "ran under a hypervisor", names,
		 emulated ? "an emulated CPU's timing says nothing about real hardware; compare "
		 "kernels only relative to each other" :
		 "the hypervisor's exits and vCPU scheduling add latency that no guest kernel "
		 "can remove");
}

/* Decimals for a factor: 2 below 2, 1 below 10, none above. */
/* A factor and its interval with the point's decimals: "4.1", "3.7", "4.6". */
static void fmt_factors(char f[3][24], double x, double lo, double hi)
{
	int d = rtm_factor_decimals(x);

	rtm_fmt_factor_d(f[0], sizeof(f[0]), x, d);
	rtm_fmt_factor_d(f[1], sizeof(f[1]), lo, d);
	rtm_fmt_factor_d(f[2], sizeof(f[2]), hi, d);
}

static double ratio_of(uint64_t b, uint64_t a)
{
	return a ? (double)b / (double)a : (b ? INFINITY : 1.0);
}

static bool beyond_import(const struct rtm_compare_run *r, double p)
{
	return round_beyond_import(r->all->count, r->overflows, p);
}

/* How the interval was made, for the verdict's parentheses. */
static void method_text(char *buf, size_t len, const struct rtm_compare_run *a,
			const struct rtm_compare_run *b, const struct rtm_compare_verdict *v)
{
	char w[32];

	if (v->method == RTM_METHOD_BOOTSTRAP)
		snprintf(buf, len, "block bootstrap of each run's p%g over its %d and %d intervals "
			 "of %s, blocks of %d and %d, %d resamples%s", v->pct, v->ci.na, v->ci.nb,
			 rtm_fmt_duration(w, sizeof(w), a->boot_ns > b->boot_ns ? a->boot_ns :
					  b->boot_ns), v->boot.block_a, v->boot.block_b,
			 v->boot.resamples, v->boot.stretched ?
			 ", stretched to hold the table's ratio" : "");
	else if (v->method == RTM_METHOD_BATCHES)
		snprintf(buf, len, "over %d and %d batches of about %s of the runs' time series, "
			 "Welch t; table's p99 ratio %.3g, no interval: the series keep no "
			 "per-interval histograms", v->ci.na, v->ci.nb,
			 rtm_fmt_duration(w, sizeof(w), a->batch_ns > b->batch_ns ? a->batch_ns :
					  b->batch_ns), v->ratio);
	else
		snprintf(buf, len, "over %d and %d runs, %s t; table's p%g ratio of the merged "
			 "runs %.3g", v->ci.na, v->ci.nb, v->ci.welch ? "Welch" : "pooled", v->pct,
			 v->ratio);
}

/* A run (a round of it) with fewer than RTM_STATS_MIN_BEYOND samples beyond the percentile. */
static bool too_few(const struct rtm_compare_run *a, const struct rtm_compare_run *b, int k,
		    struct rtm_compare_verdict *v)
{
	const struct rtm_compare_run *sides[2] = { a, b };
	double p = rtm_compare_pcts[k];
	char which[32];
	int s, j;

	for (s = 0; s < 2; s++)
		for (j = 0; j < sides[s]->nrounds; j++) {
			const struct rtm_compare_round *rd = &sides[s]->rounds[j];

			if (rd->pct_ok[k])
				continue;
			which[0] = '\0';
			if (sides[s]->nrounds > 1)
				snprintf(which, sizeof(which), "run %d of ", j + 1);
			v->kind = RTM_VERDICT_FEW;
			snprintf(v->text, sizeof(v->text), "too few samples for p%g in %s%s (%llu; "
				 "%llu needed for %d beyond it)", p, which, sides[s]->label,
				 (unsigned long long)rd->samples,
				 (unsigned long long)rtm_pct_min_samples(p), RTM_STATS_MIN_BEYOND);
			return true;
		}
	return false;
}

/* The interval over runs: each round's percentile of its own histogram. */
static bool verdict_runs(const struct rtm_compare_run *a, const struct rtm_compare_run *b,
			 int k, struct rtm_compare_verdict *v)
{
	double la[RTM_COMPARE_MAX_ROUNDS], lb[RTM_COMPARE_MAX_ROUNDS];
	const struct rtm_compare_run *sides[2] = { a, b };
	int s, j;

	double floor[2] = { 0, 0 };

	/* a side's variance is at least the mean sampling variance of its runs' percentiles */
	for (s = 0; s < 2; s++) {
		for (j = 0; j < sides[s]->nrounds; j++) {
			const struct rtm_compare_round *rd = &sides[s]->rounds[j];

			(s ? lb : la)[j] = log((double)(rd->pct_ns[k] ? rd->pct_ns[k] : 1));
			floor[s] += rd->pct_logvar[k] / sides[s]->nrounds;
		}
	}
	v->method = RTM_METHOD_RUNS;
	rtm_ratio_ci_logs(la, a->nrounds, lb, b->nrounds, RTM_COMPARE_CONF, floor[0], floor[1],
			  &v->ci);
	return true;
}

void rtm_compare_verdict(const struct rtm_compare_run *a, const struct rtm_compare_run *b,
			 int k, struct rtm_compare_verdict *v)
{
	double p = rtm_compare_pcts[k];
	char f[3][24], how[240], stat[80];
	double margin, point;
	bool ok;

	memset(&v->ci, 0, sizeof(v->ci));
	memset(&v->boot, 0, sizeof(v->boot));
	v->pct = p;
	v->method = RTM_METHOD_NONE;
	v->ratio = ratio_of(rtm_hist_percentile(b->all, p), rtm_hist_percentile(a->all, p));
	v->ratio_lo = v->ratio_hi = NAN;
	/* an imported run whose percentile lies among the samples beyond its histogram */
	if (beyond_import(a, p) || beyond_import(b, p)) {
		const struct rtm_compare_run *x = beyond_import(a, p) ? a : b;

		v->kind = RTM_VERDICT_FEW;
		snprintf(v->text, sizeof(v->text), "p%g of %s is unknown: it lies among the %llu "
			 "samples beyond its imported histogram", p, x->label,
			 (unsigned long long)x->overflows);
		return;
	}
	if (too_few(a, b, k, v))
		return;
	if (a->nrounds == 1 && b->nrounds == 1)
		ok = rtm_compare_verdict_series(a, b, k, v);	/* compare_series.c */
	else
		ok = verdict_runs(a, b, k, v);
	if (!ok)
		return;
	/* the interval's own point: the table's ratio for the bootstrap, else its statistic's */
	point = v->ci.ratio;
	v->ratio_lo = v->ci.lo;
	v->ratio_hi = v->ci.hi;
	method_text(how, sizeof(how), a, b, v);
	rtm_compare_statistic(v, stat, sizeof(stat));
	margin = v->method != RTM_METHOD_RUNS ? RTM_COMPARE_BATCH_MARGIN : 1.0;
	if (v->method != RTM_METHOD_RUNS && v->ci.lo <= margin && v->ci.hi >= 1.0 / margin &&
	    (v->ci.lo > 1.0 || v->ci.hi < 1.0)) {
		v->kind = RTM_VERDICT_SAME;
		fmt_factors(f, point, v->ratio_lo, v->ratio_hi);
		snprintf(v->text, sizeof(v->text), "%s's %s is not distinguishable from %s's "
			 "(ratio %s, %.0f%% CI %s-%s; %s): the interval is not beyond %.1fx, and "
			 "identical runs of one box differ that much; give several runs per side",
			 b->label, stat, a->label, f[0], RTM_COMPARE_CONF * 100, f[1], f[2], how,
			 margin);
	} else if (v->ci.lo > margin) {
		v->kind = RTM_VERDICT_HIGHER;
		fmt_factors(f, point, v->ratio_lo, v->ratio_hi);
		snprintf(v->text, sizeof(v->text), "%s's %s is %sx higher than %s's (%.0f%% CI "
			 "%s-%sx; %s)", b->label, stat, f[0], a->label, RTM_COMPARE_CONF * 100,
			 f[1], f[2], how);
	} else if (v->ci.hi < 1.0 / margin) {
		v->kind = RTM_VERDICT_LOWER;
		fmt_factors(f, 1.0 / point, 1.0 / v->ratio_hi, 1.0 / v->ratio_lo);
		snprintf(v->text, sizeof(v->text), "%s's %s is %sx lower than %s's (%.0f%% CI "
			 "%s-%sx; %s)", b->label, stat, f[0], a->label, RTM_COMPARE_CONF * 100,
			 f[1], f[2], how);
	} else {
		v->kind = RTM_VERDICT_SAME;
		fmt_factors(f, point, v->ratio_lo, v->ratio_hi);
		snprintf(v->text, sizeof(v->text), "%s's %s is not distinguishable from %s's "
			 "(ratio %s, %.0f%% CI %s-%s; %s)", b->label, stat, a->label, f[0],
			 RTM_COMPARE_CONF * 100, f[1], f[2], how);
	}
}

void rtm_compare_finish(struct rtm_compare *c)
{
	int i, k;

	c->nwarnings = 0;
	c->nverdicts = 0;
	c->banner[0] = '\0';
	for (k = 0; k < RTM_FP_NFIELDS; k++)
		if (rtm_fp_fields[k].unfair && fp_differs(c, k))
			add_warning(c, k);
	add_vm_warning(c);
	for (i = 1; i < c->nruns; i++) {
		for (k = 0; k < RTM_COMPARE_NPCT; k++) {
			struct rtm_compare_verdict *v = &c->verdicts[c->nverdicts++];

			v->run = i;
			rtm_compare_verdict(&c->runs[0], &c->runs[i], k, v);
		}
	}
	rtm_compare_disturb_finish(c);	/* each side's disturbances; verdicts qualified */
	rtm_compare_cost_finish(c);	/* throughput beside latency */
}
