// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * summary.c - summary table of a result and --fail-above bounds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"
#include "units.h"

const double rtm_summary_pcts[RTM_SUMMARY_NPCT] = { 50, 90, 99, 99.9, 99.99, 99.999 };

static void fill_row(struct rtm_summary_row *row, int cpu, const struct rtm_hist *h,
		     uint64_t overruns)
{
	row->cpu = cpu;
	row->samples = h->count;
	row->overruns = overruns;
	row->min_ns = h->count ? h->min_ns : 0;
	row->max_ns = h->max_ns;
	row->avg_ns = rtm_hist_mean(h);
	row->stddev_ns = rtm_hist_stddev(h);
	rtm_hist_percentiles(h, rtm_summary_pcts, RTM_SUMMARY_NPCT, row->pct_ns);
}

int rtm_summary_rows(const struct rtm_result *r, bool corrected, struct rtm_summary_row **rowsp)
{
	struct rtm_summary_row *rows = calloc((size_t)r->ncpus + 1, sizeof(*rows));
	struct rtm_hist *all = rtm_hist_alloc();
	uint64_t overruns = 0;
	int i;

	if (!rows || !all) {
		free(rows);
		rtm_hist_free(all);
		return -ENOMEM;
	}
	for (i = 0; i < r->ncpus; i++) {
		const struct rtm_result_cpu *c = &r->cpus[i];
		const struct rtm_hist *h = corrected && c->corrected ? c->corrected : c->raw;

		fill_row(&rows[i], c->cpu, h, c->overruns);
		rtm_hist_merge(all, h);
		overruns += c->overruns;
	}
	fill_row(&rows[r->ncpus], -1, all, overruns);
	rtm_hist_free(all);
	*rowsp = rows;
	return r->ncpus + 1;
}

static void us(char *buf, size_t len, uint64_t ns, bool nsecs)
{
	if (nsecs)
		snprintf(buf, len, "%llu", (unsigned long long)ns);
	else
		snprintf(buf, len, "%.1f", (double)ns / 1000.0);
}

void rtm_summary_fprint(const struct rtm_result *r, FILE *f)
{
	rtm_summary_fprint_unit(r, f, false);
}

void rtm_summary_fprint_unit(const struct rtm_result *r, FILE *f, bool nsecs)
{
	struct rtm_summary_row *rows;
	int n, i, j;

	n = rtm_summary_rows(r, false, &rows);
	if (n < 0)
		return;
	fprintf(f, "%-5s %10s %9s %9s %9s %9s %9s %9s %9s %9s\n", "CPU", "samples", "min", "avg",
		"p50", "p99", "p99.9", "p99.99", "max", "overruns");
	for (i = 0; i < n; i++) {
		const struct rtm_summary_row *row = &rows[i];
		const int idx[] = { 0, 2, 3, 4 };	/* p50 p99 p99.9 p99.99 */
		char label[8], v[6][24];

		if (i == n - 1 && n == 2)
			break;			/* one CPU: "all" repeats it */
		if (row->cpu < 0)
			snprintf(label, sizeof(label), "all");
		else
			snprintf(label, sizeof(label), "%d", row->cpu);
		us(v[0], sizeof(v[0]), row->min_ns, nsecs);
		us(v[1], sizeof(v[1]), (uint64_t)(row->avg_ns + 0.5), nsecs);
		fprintf(f, "%-5s %10llu %9s %9s", label, (unsigned long long)row->samples, v[0],
			v[1]);
		for (j = 0; j < 4; j++) {
			us(v[2], sizeof(v[2]), row->pct_ns[idx[j]], nsecs);
			fprintf(f, " %9s", v[2]);
		}
		us(v[3], sizeof(v[3]), row->max_ns, nsecs);
		fprintf(f, " %9s %9llu\n", v[3], (unsigned long long)row->overruns);
	}
	fprintf(f, "(latencies in %s)\n", nsecs ? "ns" : "us");
	free(rows);
}

static json_t *row_json(const struct rtm_summary_row *row)
{
	json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:f, s:f}",
		"samples", (json_int_t)row->samples, "overruns", (json_int_t)row->overruns,
		"min_ns", (json_int_t)row->min_ns, "max_ns", (json_int_t)row->max_ns,
		"avg_ns", row->avg_ns, "stddev_ns", row->stddev_ns);
	static const char *const keys[RTM_SUMMARY_NPCT] = {
		"p50_ns", "p90_ns", "p99_ns", "p99.9_ns", "p99.99_ns", "p99.999_ns",
	};
	int j;

	if (row->cpu >= 0)
		json_object_set_new(o, "cpu", json_integer(row->cpu));
	for (j = 0; j < RTM_SUMMARY_NPCT; j++)
		json_object_set_new(o, keys[j], json_integer((json_int_t)row->pct_ns[j]));
	return o;
}

json_t *rtm_summary_to_json(const struct rtm_result *r)
{
	struct rtm_summary_row *rows;
	json_t *cpus, *o;
	int n, i;

	n = rtm_summary_rows(r, false, &rows);
	if (n < 0)
		return NULL;
	cpus = json_array();
	for (i = 0; i < n - 1; i++)
		json_array_append_new(cpus, row_json(&rows[i]));
	o = json_pack("{s:o, s:o}", "cpus", cpus, "all", row_json(&rows[n - 1]));
	free(rows);
	n = rtm_summary_rows(r, true, &rows);
	if (n > 0) {
		json_object_set_new(o, "all_corrected", row_json(&rows[n - 1]));
		free(rows);
	}
	return o;
}

int rtm_bound_parse(const char *s, struct rtm_bound *b, struct rtm_error *err)
{
	const char *eq = strchr(s, '=');
	const char *lat = s;

	memset(b, 0, sizeof(*b));
	snprintf(b->text, sizeof(b->text), "%s", s);
	b->pct = 100;
	if (eq) {
		size_t klen = (size_t)(eq - s);
		char key[32], *end;

		if (klen == 0 || klen >= sizeof(key))
			goto bad;
		memcpy(key, s, klen);
		key[klen] = '\0';
		lat = eq + 1;
		if (!strcmp(key, "max")) {
			b->pct = 100;
		} else if (!strcmp(key, "avg")) {
			b->pct = -1;
		} else if (key[0] == 'p' && key[1]) {
			b->pct = strtod(key + 1, &end);
			if (*end || !(b->pct > 0 && b->pct <= 100))
				goto bad;
		} else {
			goto bad;
		}
	}
	if (rtm_parse_latency_ns(lat, &b->limit_ns, NULL))
		return rtm_error_set(err, "invalid --fail-above '%s': the bound must be a latency "
				     "like 50us, 1.5ms or 800ns", s);
	return 0;
bad:
	return rtm_error_set(err, "invalid --fail-above '%s' (write 50us, max=50us, p99.9=50us or "
			     "avg=20us)", s);
}

bool rtm_bound_exceeded(const struct rtm_result *r, const struct rtm_bound *b, uint64_t *value)
{
	struct rtm_hist *all = rtm_hist_alloc();
	uint64_t v;

	if (!all) {
		*value = 0;
		return true;	/* cannot check: do not claim success */
	}
	rtm_result_total(r, all, NULL);
	if (b->pct < 0)
		v = (uint64_t)(rtm_hist_mean(all) + 0.5);
	else
		v = rtm_hist_percentile(all, b->pct);
	rtm_hist_free(all);
	*value = v;
	return v > b->limit_ns;
}

static uint64_t bound_value(const struct rtm_hist *h, const struct rtm_bound *b)
{
	if (b->pct < 0)
		return (uint64_t)(rtm_hist_mean(h) + 0.5);
	return rtm_hist_percentile(h, b->pct);
}

bool rtm_bound_describe(const struct rtm_result *r, const struct rtm_bound *b, char *buf,
			size_t len)
{
	char metric[16], vs[16], ls[16], ws[16], where[32] = "all CPUs", worst[48] = "";
	uint64_t v, w = 0;
	bool over = rtm_bound_exceeded(r, b, &v);
	int i, wcpu = -1;

	if (b->pct < 0)
		snprintf(metric, sizeof(metric), "avg");
	else if (b->pct >= 100)
		snprintf(metric, sizeof(metric), "max");
	else
		snprintf(metric, sizeof(metric), "p%g", b->pct);
	for (i = 0; i < r->ncpus; i++) {
		uint64_t c = bound_value(r->cpus[i].raw, b);

		if (wcpu < 0 || c > w) {
			w = c;
			wcpu = r->cpus[i].cpu;
		}
	}
	if (r->ncpus == 1) {
		snprintf(where, sizeof(where), "CPU %d", wcpu);
	} else if (wcpu >= 0) {
		rtm_fmt_ns(ws, sizeof(ws), w);
		snprintf(worst, sizeof(worst), " (CPU %d: %s)", wcpu, ws);
	}
	rtm_fmt_ns(vs, sizeof(vs), v);
	rtm_fmt_ns(ls, sizeof(ls), b->limit_ns);
	snprintf(buf, len, "%s on %s: %s %s %s%s", metric, where, vs, over ? ">" : "<=", ls,
		 worst);
	return over;
}
