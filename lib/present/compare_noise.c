// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare_noise.c - the noise sections of a comparison.
 *
 * Runs made with `run --noise` carry sections.noise (the busy-loop detector's
 * gaps on the measured CPUs). Each side's rounds are summed: noise % (noise
 * time over sampled time), the total noise, the largest gap, the gap count,
 * the gap-length percentiles of the merged gap histograms (all CPUs and
 * rounds; shown only when at least 10 gaps lie beyond, "few" otherwise) and
 * the time of the gaps by cause when traced. A verdict on noise % only where
 * repeated runs allow it: the interval over runs the latency verdicts use
 * (rtm_ratio_ci_logs on the logarithms of the per-run noise %); with one run
 * on each side the figures stand alone and the text says so; either says so
 * when a side shared its CPUs with another measuring rtmeasure
 * (compare_disturb.c). Sides measured by different backends, thresholds or
 * duty cycles are warned about: their gaps are not counted alike; so are sides
 * that measured different CPUs (their sums and largest gap are over other
 * CPUs). Results of rtmeasure noise alone: compare_noise_only.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "present/compare_priv.h"
#include "present/html.h"
#include "core/jsonutil.h"
#include "present/report.h"
#include "core/units.h"

static const double gap_pcts[RTM_COMPARE_NOISE_NPCT] = { 50, 99, 99.9 };
static const char *const gap_names[RTM_COMPARE_NOISE_NPCT] = { "p50", "p99", "p99.9" };
static const char *const cause_names[RTM_COMPARE_NOISE_NCLS] = { "irq", "softirq", "nmi",
								 "thread", "rt_throttling",
								 "unexplained" };

/* ---------------------------------------------------------------- digest */

static bool u64_of(const json_t *o, const char *key, uint64_t *v)
{
	const json_t *j = json_object_get(o, key);

	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return false;
	*v = (uint64_t)json_integer_value(j);
	return true;
}

#define NOISE_MAXCPUS	1024	/* CPUs of one section named in the CPU-set warning */
#define NOISE_NWARN	4	/* warning(): backend, threshold, duty cycle, CPUs */

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* The CPUs of sections.noise as a list ("0-1"); "?" for an import that does not name them. */
static void noise_cpus(const json_t *sec, char *buf, size_t len)
{
	const json_t *cpus = json_object_get(sec, "cpus");
	int ids[NOISE_MAXCPUS];
	struct rtm_cpulist cl = { 0, ids };
	json_int_t cpu;
	size_t i;

	for (i = 0; i < json_array_size(cpus) && cl.n < NOISE_MAXCPUS; i++) {
		cpu = json_integer_value(json_object_get(json_array_get(cpus, i), "cpu"));
		if (cpu < 0 || !json_is_integer(json_object_get(json_array_get(cpus, i), "cpu"))) {
			snprintf(buf, len, "?");
			return;
		}
		ids[cl.n++] = (int)cpu;
	}
	qsort(ids, (size_t)cl.n, sizeof(int), cmp_int);
	rtm_cpulist_format(&cl, buf, len);
}

/* The round's settings against the side's first: a difference inside one side. */
static void digest_settings(struct rtm_compare_noise *n, const json_t *sec)
{
	const char *backend = json_string_value(json_object_get(sec, "backend")) ?: "user";
	uint64_t thr = 0, win = 0, wid = 0;
	char cpus[sizeof(n->cpus)];

	u64_of(sec, "threshold_ns", &thr);
	u64_of(sec, "window_ns", &win);
	u64_of(sec, "width_ns", &wid);
	noise_cpus(sec, cpus, sizeof(cpus));
	if (!n->nrounds) {
		snprintf(n->backend, sizeof(n->backend), "%s", backend);
		snprintf(n->cpus, sizeof(n->cpus), "%s", cpus);
		n->threshold_ns = thr;
		n->window_ns = win;
		n->width_ns = wid;
		return;
	}
	n->cpus_mixed |= strcmp(n->cpus, cpus) != 0;
	n->backend_mixed |= strcmp(n->backend, backend) != 0;
	n->threshold_mixed |= n->threshold_ns != thr;
	n->duty_mixed |= n->window_ns != win || n->width_ns != wid;
}

/* One CPU of the round: its sums, its gaps into the side's histogram. */
static int digest_cpu(struct rtm_compare_noise *n, const json_t *c, struct rtm_hist *h,
		      uint64_t *sampled, uint64_t *noise, bool *known, struct rtm_error *err)
{
	const json_t *causes = json_object_get(c, "causes");
	uint64_t v;
	int k;

	if (json_object_get(c, "hist")) {
		rtm_hist_reset(h);
		if (rtm_hist_from_json(h, json_object_get(c, "hist"), err))
			return -EINVAL;
		rtm_hist_merge(n->gaps, h);
	}
	if (u64_of(c, "sampled_ns", &v))
		*sampled += v;
	else
		*known = false;
	if (u64_of(c, "noise_ns", &v))
		*noise += v;
	else
		*known = false;
	if (u64_of(c, "max_gap_ns", &v) && v > n->max_gap_ns)
		n->max_gap_ns = v;
	if (u64_of(c, "gaps", &v))
		n->gaps_n += v;
	for (k = 0; causes && k < RTM_COMPARE_NOISE_NCLS; k++) {
		char key[32];

		snprintf(key, sizeof(key), "%s_ns", cause_names[k]);
		if (u64_of(causes, key, &v))
			n->cause_ns[k] += v;
	}
	return 0;
}

int rtm_compare_noise_digest(struct rtm_compare_run *run, const struct rtm_result *r,
			     struct rtm_error *err)
{
	const json_t *sec = json_object_get(r->sections, "noise"), *c;
	struct rtm_compare_noise *n = run->noise;
	uint64_t sampled = 0, noise = 0;
	bool known = true, causes = true;
	struct rtm_hist *h;
	size_t i;
	int ret = 0;

	if (!sec)
		return 0;
	if (!n) {
		n = run->noise = calloc(1, sizeof(*n));
		if (!n || !(n->gaps = rtm_hist_alloc()))
			return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	h = rtm_hist_alloc();
	if (!h)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	digest_settings(n, sec);
	json_array_foreach(json_object_get(sec, "cpus"), i, c) {
		causes &= json_is_object(json_object_get(c, "causes"));
		ret = digest_cpu(n, c, h, &sampled, &noise, &known, err);
		if (ret)
			break;
	}
	rtm_hist_free(h);
	if (ret)
		return ret;
	if (!json_array_size(json_object_get(sec, "cpus")))
		known = causes = false;
	if (known) {
		n->sampled_ns += sampled;
		n->noise_ns += noise;
	}
	n->sums_unknown |= !known;
	if (n->nrounds < RTM_COMPARE_MAX_ROUNDS)
		n->pct[n->nrounds] = known && sampled ? 100.0 * (double)noise / (double)sampled :
				     NAN;
	n->ncauses += causes;
	if (causes && json_is_false(rtm_json_path(sec, "attribution.complete")))
		n->causes_incomplete = true;
	n->interrupted |= json_is_true(rtm_json_path(sec, "phase.interrupted")) ||
			  (r->interrupted && !r->ncpus);
	n->nrounds++;
	return 0;
}

void rtm_compare_noise_free(struct rtm_compare_run *run)
{
	if (!run->noise)
		return;
	rtm_hist_free(run->noise->gaps);
	free(run->noise);
	run->noise = NULL;
}

bool rtm_compare_noise_any(const struct rtm_compare *c)
{
	int i;

	for (i = 0; i < c->nruns; i++)
		if (c->runs[i].noise)
			return true;
	return false;
}

/* ---------------------------------------------------------------- figures */

/* Noise % of a side over its rounds (sums), or NAN when a backend does not give it. */
static double side_pct(const struct rtm_compare_noise *n)
{
	if (!n || n->sums_unknown || !n->sampled_ns)
		return NAN;
	return 100.0 * (double)n->noise_ns / (double)n->sampled_ns;
}

/* Gap percentile @k: false ("few") when fewer than 10 gaps lie beyond it. */
static bool gap_value(const struct rtm_compare_noise *n, int k, uint64_t *ns)
{
	if ((double)n->gaps->count * (100.0 - gap_pcts[k]) / 100.0 < 10)
		return false;
	*ns = rtm_hist_percentile(n->gaps, gap_pcts[k]);
	return true;
}

void rtm_compare_noise_cells(const struct rtm_compare_run *run,
			     char cells[RTM_COMPARE_NOISE_NCELLS][32])
{
	const struct rtm_compare_noise *n = run->noise;
	double pct = side_pct(n);
	uint64_t ns;
	int k;

	for (k = 0; k < RTM_COMPARE_NOISE_NCELLS; k++)
		snprintf(cells[k], sizeof(cells[k]), "-");
	if (!n) {
		snprintf(cells[0], sizeof(cells[0]), "no noise");
		return;
	}
	if (isfinite(pct))
		snprintf(cells[0], sizeof(cells[0]), "%.3f%%", pct);
	else
		snprintf(cells[0], sizeof(cells[0]), "unknown");
	if (n->sums_unknown)
		snprintf(cells[1], sizeof(cells[1]), "unknown");
	else
		rtm_fmt_ns(cells[1], sizeof(cells[1]), n->noise_ns);
	rtm_fmt_us(cells[2], sizeof(cells[2]), n->max_gap_ns);
	snprintf(cells[3], sizeof(cells[3]), "%llu", (unsigned long long)n->gaps_n);
	for (k = 0; k < RTM_COMPARE_NOISE_NPCT; k++) {
		if (gap_value(n, k, &ns))
			rtm_fmt_us(cells[4 + k], sizeof(cells[0]), ns);
		else
			snprintf(cells[4 + k], sizeof(cells[0]), "few");
	}
}

/* "2.10x higher", "1.50x lower", "the same" for a ratio run / baseline. */
static void fmt_factor(char *buf, size_t len, double ratio)
{
	if (!isfinite(ratio) || ratio <= 0)
		snprintf(buf, len, "unknown");
	else if (fabs(ratio - 1.0) < 0.005)
		snprintf(buf, len, "the same");
	else if (ratio > 1.0)
		snprintf(buf, len, "%.2fx higher", ratio);
	else
		snprintf(buf, len, "%.2fx lower", 1.0 / ratio);
}

/* The logs of a side's per-run noise %, those known and above 0. */
static int round_logs(const struct rtm_compare_noise *n, double *out)
{
	int j, m = 0;

	for (j = 0; j < n->nrounds && j < RTM_COMPARE_MAX_ROUNDS; j++)
		if (isfinite(n->pct[j]) && n->pct[j] > 0)
			out[m++] = log(n->pct[j]);
	return m;
}

static int noise_verdict(const struct rtm_compare *c, int i, struct rtm_compare_noise_verdict *v)
{
	const struct rtm_compare_run *a = &c->runs[0], *b = &c->runs[i];
	double la[RTM_COMPARE_MAX_ROUNDS], lb[RTM_COMPARE_MAX_ROUNDS];
	char chg[48], lo[48], hi[48];
	int na, nb;

	memset(v, 0, sizeof(*v));
	v->ratio = v->lo = v->hi = NAN;
	if (!a->noise || !b->noise)
		return -ENOENT;
	na = round_logs(a->noise, la);
	nb = round_logs(b->noise, lb);
	v->ratio = side_pct(a->noise) > 0 ? side_pct(b->noise) / side_pct(a->noise) : NAN;
	fmt_factor(chg, sizeof(chg), v->ratio);
	if (!na || !nb) {
		snprintf(v->text, sizeof(v->text), "%s vs %s: noise %% unknown on a side (its "
			 "backend does not sum the noise, or no noise was sampled): no verdict",
			 b->label, a->label);
		return 0;
	}
	rtm_ratio_ci_logs(la, na, lb, nb, RTM_COMPARE_CONF, 0, 0, &v->ci);
	if (!v->ci.valid || (na < 2 && nb < 2)) {
		snprintf(v->text, sizeof(v->text), "%s vs %s: noise %s (figures only, no verdict: "
			 "%s; give several runs per side, compare A1,A2 B1,B2)", b->label, a->label,
			 chg, na < 2 && nb < 2 ? "one run per side" : "too few runs for an interval");
		return 0;
	}
	v->verdict = true;
	v->ratio = v->ci.ratio;
	v->lo = v->ci.lo;
	v->hi = v->ci.hi;
	fmt_factor(chg, sizeof(chg), v->ratio);
	fmt_factor(lo, sizeof(lo), v->lo);
	fmt_factor(hi, sizeof(hi), v->hi);
	if (v->hi < 1.0 || v->lo > 1.0) {
		v->kind = v->hi < 1.0 ? RTM_VERDICT_LOWER : RTM_VERDICT_HIGHER;
		snprintf(v->text, sizeof(v->text), "%s vs %s: noise %s (%.0f%% CI %s to %s; "
			 "per-run noise %% over %d and %d runs, %s t)", b->label, a->label, chg,
			 RTM_COMPARE_CONF * 100, lo, hi, na, nb, v->ci.welch ? "Welch" : "pooled");
	} else {
		v->kind = RTM_VERDICT_SAME;
		snprintf(v->text, sizeof(v->text), "%s vs %s: noise not distinguishable (%s, "
			 "%.0f%% CI %s to %s; per-run noise %% over %d and %d runs, %s t)", b->label,
			 a->label, chg, RTM_COMPARE_CONF * 100, lo, hi, na, nb,
			 v->ci.welch ? "Welch" : "pooled");
	}
	return 0;
}

int rtm_compare_noise_verdict(const struct rtm_compare *c, int i,
			      struct rtm_compare_noise_verdict *v)
{
	int ret = noise_verdict(c, i, v);

	if (!ret && isfinite(v->ratio))	/* figures a measuring neighbour may have made */
		rtm_compare_disturb_qualify(c, i, v->text, sizeof(v->text));
	return ret;
}

/* Warning @k (0 backend, 1 threshold, 2 duty cycle, 3 CPUs) when the sides differ; false if not. */
static bool warning(const struct rtm_compare *c, int k, char *buf, size_t len)
{
	const struct rtm_compare_noise *base = NULL;
	bool differs = false, first = true;
	size_t off;
	int i;

	for (i = 0; i < c->nruns; i++) {
		const struct rtm_compare_noise *n = c->runs[i].noise;

		if (!n)
			continue;
		if (k == 0 && n->backend_mixed)
			differs = true;
		if ((k == 1 && n->threshold_mixed) || (k == 2 && n->duty_mixed) ||
		    (k == 3 && n->cpus_mixed))
			differs = true;
		if (k == 3 && !strcmp(n->cpus, "?"))
			continue;	/* an import that does not name its CPUs */
		if (!base) {
			base = n;
			continue;
		}
		if ((k == 0 && strcmp(base->backend, n->backend)) ||
		    (k == 1 && base->threshold_ns != n->threshold_ns) ||
		    (k == 2 && (base->window_ns != n->window_ns || base->width_ns != n->width_ns)) ||
		    (k == 3 && strcmp(base->cpus, n->cpus)))
			differs = true;
	}
	if (!differs)
		return false;
	off = (size_t)snprintf(buf, len, "different noise %s (", k == 0 ? "backends" :
			       k == 1 ? "thresholds" : k == 2 ? "duty cycles" : "CPU sets");
	for (i = 0; i < c->nruns && off < len; i++) {
		const struct rtm_compare_noise *n = c->runs[i].noise;
		char a[16], b[16];

		if (!n)
			continue;
		rtm_fmt_ns(a, sizeof(a), k == 1 ? n->threshold_ns : n->width_ns);
		rtm_fmt_ns(b, sizeof(b), n->window_ns);
		if (k == 0)
			off += (size_t)snprintf(buf + off, len - off, "%s%s: %s%s", first ? "" : "; ",
						c->runs[i].label, n->backend,
						n->backend_mixed ? " and others" : "");
		else if (k == 1)
			off += (size_t)snprintf(buf + off, len - off, "%s%s: %s%s", first ? "" : "; ",
						c->runs[i].label, a,
						n->threshold_mixed ? " (its runs differ)" : "");
		else if (k == 2)
			off += (size_t)snprintf(buf + off, len - off, "%s%s: busy %s of %s%s",
						first ? "" : "; ", c->runs[i].label, a, b,
						n->duty_mixed ? " (its runs differ)" : "");
		else
			off += (size_t)snprintf(buf + off, len - off, "%s%s: CPUs %s%s",
						first ? "" : "; ", c->runs[i].label,
						strcmp(n->cpus, "?") ? n->cpus : "not named",
						n->cpus_mixed ? " (its runs differ)" : "");
		first = false;
	}
	if (off < len)
		snprintf(buf + off, len - off, "): %s", k == 0 ?
			 "the kernel's tracers and the busy loop do not see the same gaps" : k == 1 ?
			 "gaps between the thresholds count on one side only" : k == 2 ?
			 "the sides sampled different shares of the time" :
			 "each CPU has its own interrupts and housekeeping, and the sums and "
			 "largest gap are over different CPUs");
	return true;
}

/* ---------------------------------------------------------------- output */

static const char *const heads[RTM_COMPARE_NOISE_NCELLS] = {
	"noise %", "noise", "max gap", "gaps", "p50 gap", "p99 gap", "p99.9 gap" };

static void causes_line(const struct rtm_compare_run *run, char *buf, size_t len)
{
	const struct rtm_compare_noise *n = run->noise;
	size_t off;
	int k;

	buf[0] = '\0';
	if (!n || !n->ncauses)
		return;
	off = (size_t)snprintf(buf, len, "%s: gap time by cause:", run->label);
	for (k = 0; k < RTM_COMPARE_NOISE_NCLS && off < len; k++) {
		char t[16];

		/* results from before RT throttling was a class have none: not listed */
		if (!strcmp(cause_names[k], "rt_throttling") && !n->cause_ns[k])
			continue;
		rtm_fmt_ns(t, sizeof(t), n->cause_ns[k]);
		off += (size_t)snprintf(buf + off, len - off, "%s %s %s", k ? "," : "",
					cause_names[k], t);
	}
	if (off < len && (n->ncauses < n->nrounds || n->causes_incomplete))
		snprintf(buf + off, len - off, " (%d of %d runs traced%s)", n->ncauses, n->nrounds,
			 n->causes_incomplete ? "; events lost: lower bounds" : "");
}

void rtm_compare_noise_fprint(const struct rtm_compare *c, FILE *f)
{
	char cells[RTM_COMPARE_NOISE_NCELLS][32], line[640];
	struct rtm_compare_noise_verdict v;
	int i, k;

	if (!rtm_compare_noise_any(c))
		return;
	fprintf(f, "\nnoise (sections.noise of run --noise or rtmeasure noise; all CPUs and runs "
		"of a side summed, gap lengths in us):\n%-16s", "run");
	for (k = 0; k < RTM_COMPARE_NOISE_NCELLS; k++)
		fprintf(f, " %10s", heads[k]);
	fputc('\n', f);
	for (i = 0; i < c->nruns; i++) {
		rtm_compare_noise_cells(&c->runs[i], cells);
		fprintf(f, "%-16s", c->runs[i].label);
		for (k = 0; k < RTM_COMPARE_NOISE_NCELLS; k++)
			fprintf(f, " %10s", cells[k]);
		fputc('\n', f);
	}
	for (i = 0; i < c->nruns; i++) {
		const struct rtm_compare_noise *n = c->runs[i].noise;

		causes_line(&c->runs[i], line, sizeof(line));
		if (line[0])
			fprintf(f, "  %s\n", line);
		if (n && n->nrounds < c->runs[i].nrounds)
			fprintf(f, "  (%s: %d of its %d runs measured noise)\n", c->runs[i].label,
				n->nrounds, c->runs[i].nrounds);
		if (n && n->interrupted)
			fprintf(f, "  (%s: a noise phase was interrupted: what it measured)\n",
				c->runs[i].label);
	}
	for (k = 0; k < NOISE_NWARN; k++)
		if (warning(c, k, line, sizeof(line)))
			fprintf(f, "warning: %s\n", line);
	for (i = 1; i < c->nruns; i++)
		if (!rtm_compare_noise_verdict(c, i, &v))
			fprintf(f, "  %s\n", v.text);
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *rtm_compare_noise_run_json(const struct rtm_compare_run *run)
{
	const struct rtm_compare_noise *n = run->noise;
	json_t *o, *causes = json_null();
	uint64_t ns;
	int k;

	if (!n)
		return json_null();
	if (n->ncauses) {
		causes = json_object();
		for (k = 0; k < RTM_COMPARE_NOISE_NCLS; k++) {
			char key[32];

			snprintf(key, sizeof(key), "%s_ns", cause_names[k]);
			json_object_set_new(causes, key, json_integer((json_int_t)n->cause_ns[k]));
		}
		json_object_set_new(causes, "rounds_traced", json_integer(n->ncauses));
		json_object_set_new(causes, "complete", json_boolean(!n->causes_incomplete));
	}
	o = json_pack("{s:i, s:s, s:b, s:I, s:b, s:I, s:I, s:b, s:o, s:o, s:o, s:I, s:I, s:o, "
		"s:b}",
		"rounds", n->nrounds, "backend", n->backend, "backend_mixed", n->backend_mixed,
		"threshold_ns", (json_int_t)n->threshold_ns, "threshold_mixed", n->threshold_mixed,
		"window_ns", (json_int_t)n->window_ns, "width_ns", (json_int_t)n->width_ns,
		"duty_cycle_mixed", n->duty_mixed,
		"noise_pct", num_or_null(side_pct(n)),
		"noise_ns", n->sums_unknown ? json_null() : json_integer((json_int_t)n->noise_ns),
		"sampled_ns", n->sums_unknown ? json_null() :
			      json_integer((json_int_t)n->sampled_ns),
		"max_gap_ns", (json_int_t)n->max_gap_ns, "gaps", (json_int_t)n->gaps_n,
		"causes", causes, "interrupted", n->interrupted);
	for (k = 0; o && k < RTM_COMPARE_NOISE_NPCT; k++) {
		char key[24];

		snprintf(key, sizeof(key), "gap_%s_ns", gap_names[k]);
		json_object_set_new(o, key, gap_value(n, k, &ns) ? json_integer((json_int_t)ns) :
				    json_null());
	}
	if (o) {
		json_t *pcts = json_array();

		for (k = 0; k < n->nrounds && k < RTM_COMPARE_MAX_ROUNDS; k++)
			json_array_append_new(pcts, num_or_null(n->pct[k]));
		json_object_set_new(o, "noise_pct_per_run", pcts);
	}
	return o;
}

json_t *rtm_compare_noise_json(const struct rtm_compare *c, int i)
{
	static const char *const kinds[] = { "lower", "higher", "same", "few" };
	struct rtm_compare_noise_verdict v;

	if (rtm_compare_noise_verdict(c, i, &v))
		return json_null();
	return json_pack("{s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:s}",
		"ratio", num_or_null(v.ratio),
		"verdict", v.verdict ? kinds[v.kind] : "none",
		"ratio_ci_lo", num_or_null(v.verdict ? v.lo : NAN),
		"ratio_ci_hi", num_or_null(v.verdict ? v.hi : NAN),
		"n_baseline", v.verdict ? json_integer(v.ci.na) : json_null(),
		"n_run", v.verdict ? json_integer(v.ci.nb) : json_null(),
		"interval", v.verdict ? json_string(v.ci.welch ? "welch-t" : "pooled-t") :
			    json_string("none"),
		"text", v.text);
}

json_t *rtm_compare_noise_warnings_json(const struct rtm_compare *c)
{
	static const char *const ids[NOISE_NWARN] = { "noise_backend", "noise_threshold",
						     "noise_duty_cycle", "noise_cpus" };
	json_t *a = json_array();
	char line[640];
	int k;

	for (k = 0; k < NOISE_NWARN; k++)
		if (warning(c, k, line, sizeof(line)))
			json_array_append_new(a, json_pack("{s:s, s:s}", "id", ids[k], "message",
							   line));
	return a;
}

void rtm_compare_noise_page(const struct rtm_compare *c, FILE *f, bool html)
{
	char cells[RTM_COMPARE_NOISE_NCELLS][32], line[640];
	struct rtm_compare_noise_verdict v;
	int i, k;

	if (!rtm_compare_noise_any(c))
		return;
	fputs(html ? "<h2>Noise</h2>\n<p class=\"sub\">" : "## Noise\n\n", f);
	fputs("Time stolen from the measured CPUs by the busy-loop detector of run --noise, all "
	      "CPUs and runs of a side summed; gap lengths in us, a percentile only when at "
	      "least 10 gaps lie beyond it (\"few\" otherwise). A verdict on noise % only with "
	      "several runs per side.", f);
	fputs(html ? "</p>\n<table>\n<tr><th class=\"l\">run</th>" : "\n\n| run |", f);
	for (k = 0; k < RTM_COMPARE_NOISE_NCELLS; k++)
		fprintf(f, html ? "<th>%s</th>" : " %s |", heads[k]);
	fputs(html ? "</tr>\n" : "\n|---|", f);
	for (k = 0; !html && k < RTM_COMPARE_NOISE_NCELLS; k++)
		fputs("---:|", f);
	if (!html)
		fputc('\n', f);
	for (i = 0; i < c->nruns; i++) {
		rtm_compare_noise_cells(&c->runs[i], cells);
		fputs(html ? "<tr><td class=\"l\">" : "| ", f);
		if (html)
			rtm_html_text(f, c->runs[i].label);
		else
			rtm_md_text(f, c->runs[i].label);
		fputs(html ? "</td>" : " |", f);
		for (k = 0; k < RTM_COMPARE_NOISE_NCELLS; k++)
			fprintf(f, html ? "<td>%s</td>" : " %s |", cells[k]);
		fputs(html ? "</tr>\n" : "\n", f);
	}
	fputs(html ? "</table>\n" : "\n", f);
	for (i = 0; i < c->nruns; i++) {
		causes_line(&c->runs[i], line, sizeof(line));
		if (!line[0])
			continue;
		fputs(html ? "<p>" : "- ", f);
		if (html)
			rtm_html_text(f, line);
		else
			rtm_md_text(f, line);
		fputs(html ? "</p>\n" : "\n", f);
	}
	for (k = 0; k < NOISE_NWARN; k++) {
		if (!warning(c, k, line, sizeof(line)))
			continue;
		fputs(html ? "<p class=\"warn\">Warning: " : "- **Warning:** ", f);
		if (html)
			rtm_html_text(f, line);
		else
			rtm_md_text(f, line);
		fputs(html ? "</p>\n" : "\n", f);
	}
	for (i = 1; i < c->nruns; i++) {
		if (rtm_compare_noise_verdict(c, i, &v))
			continue;
		fputs(html ? "<p>" : "- ", f);
		if (html)
			rtm_html_text(f, v.text);
		else
			rtm_md_text(f, v.text);
		fputs(html ? "</p>\n" : "\n", f);
	}
	if (!html)
		fputc('\n', f);
}
