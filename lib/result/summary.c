// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * summary.c - the summary table's rows of a result, as JSON too, and the
 * --fail-above bounds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonutil.h"
#include "core/stats.h"
#include "result/summary.h"
#include "core/units.h"

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

/* What an import's source says about one of its entries (sections.provenance). */
struct src_col {
	uint64_t in_rows, overflows, placed;
	bool has_avg, has_min, has_max;
	double avg_ns;
};

static const json_t *prov_cpu(const struct rtm_result *r, int cpu)
{
	const json_t *cpus = rtm_json_path(r->sections, "provenance.cpus"), *e;
	size_t i;

	json_array_foreach(cpus, i, e)
		if (json_integer_value(json_object_get(e, "cpu")) == cpu)
			return e;
	return NULL;
}

static bool src_col(const struct rtm_result *r, int cpu, struct src_col *s)
{
	const json_t *pc = prov_cpu(r, cpu), *avg;
	const char *unit = json_string_value(rtm_json_path(r->sections, "provenance.unit"));

	memset(s, 0, sizeof(*s));
	if (!pc)
		return false;
	s->in_rows = (uint64_t)json_integer_value(json_object_get(pc, "samples_in_rows"));
	s->overflows = (uint64_t)json_integer_value(json_object_get(pc, "overflows"));
	s->placed = (uint64_t)json_integer_value(json_object_get(pc, "overflows_placed"));
	avg = json_object_get(pc, "avg");
	s->has_avg = json_is_number(avg);
	s->avg_ns = json_number_value(avg) * (unit && !strcmp(unit, "ns") ? 1.0 : 1000.0);
	s->has_min = json_is_number(json_object_get(pc, "min"));
	s->has_max = json_is_number(json_object_get(pc, "max"));
	return true;
}

/* Nearest rank ceil(p/100 * n) in [1, n], p taken to 12 digits (as hist.c). */
static uint64_t rank_of(uint64_t n, double p)
{
	long double x = (long double)p * n / 100;
	uint64_t r;

	x -= x * 1e-12L;
	if (x <= 1)
		return 1;
	if (x >= n)
		return n;
	r = (uint64_t)x;
	return r < x ? r + 1 : r;
}

/* The value of the @rank-th sample of @h, as rtm_hist_percentile() reports one. */
static uint64_t rank_value(const struct rtm_hist *h, uint64_t rank)
{
	struct rtm_hist_bucket b;
	unsigned int pos = 0;
	uint64_t seen = 0;

	while (rtm_hist_next(h, &pos, &b)) {
		seen += b.count;
		if (seen >= rank)
			return rtm_hist_bucket_value(h, &b);
	}
	return h->max_ns;
}

/*
 * An import's row: its source's count, the percentiles whose rank lies in the
 * rows (all samples beyond the rows lie above every row: one -h limit for all
 * threads), the top rank (the stated max), the source's avg. @h holds the rows
 * and the placed extremes; @s sums the entries.
 */
static void fill_import_row(struct rtm_summary_row *row, const struct rtm_hist *h,
			    const struct src_col *s, uint64_t beyond_ns)
{
	uint64_t n = s->in_rows + s->overflows;
	int k;

	row->samples = n;
	row->beyond_ns = beyond_ns;
	row->beyond = s->overflows;
	if (s->has_avg)
		row->avg_ns = s->avg_ns;
	if (s->overflows <= s->placed)
		return;		/* the few beyond the rows are the stated extremes */
	if (!s->has_avg)
		row->unknown |= RTM_SUMMARY_UNKNOWN_AVG;
	row->unknown |= RTM_SUMMARY_UNKNOWN_STDDEV;
	row->stddev_ns = 0;
	if (!s->has_max)
		row->unknown |= RTM_SUMMARY_UNKNOWN_MAX;
	if (!s->in_rows && !s->has_min)
		row->unknown |= RTM_SUMMARY_UNKNOWN_MIN;
	for (k = 0; k < RTM_SUMMARY_NPCT; k++) {
		uint64_t rank = rank_of(n, rtm_summary_pcts[k]);

		if (rank <= s->in_rows)
			row->pct_ns[k] = rank_value(h, rank);
		else if (rank == n && s->has_max)
			row->pct_ns[k] = h->max_ns;
		else
			row->unknown |= 1u << k;
		if (row->unknown & (1u << k))
			row->pct_ns[k] = 0;
	}
	if (row->unknown & RTM_SUMMARY_UNKNOWN_AVG)
		row->avg_ns = 0;
	if (row->unknown & RTM_SUMMARY_UNKNOWN_MAX)
		row->max_ns = 0;
	if (row->unknown & RTM_SUMMARY_UNKNOWN_MIN)
		row->min_ns = 0;
}

int rtm_summary_rows(const struct rtm_result *r, bool corrected, struct rtm_summary_row **rowsp)
{
	struct rtm_summary_row *rows = calloc((size_t)r->ncpus + 1, sizeof(*rows));
	struct rtm_hist *all = rtm_hist_alloc();
	const json_t *above = rtm_json_path(r->sections, "provenance.overflow_above_ns");
	uint64_t beyond_ns = json_is_integer(above) ? (uint64_t)json_integer_value(above) : 0;
	struct src_col sum = { 0, 0, 0, true, true, true, 0 }, s;
	bool import = json_is_object(json_object_get(r->sections, "provenance"));
	uint64_t overruns = 0;
	double avg_sum = 0;
	int i, k;

	if (!rows || !all) {
		free(rows);
		rtm_hist_free(all);
		return -ENOMEM;
	}
	for (i = 0; i < r->ncpus; i++) {
		const struct rtm_result_cpu *c = &r->cpus[i];
		const struct rtm_hist *h = corrected && c->corrected ? c->corrected : c->raw;

		fill_row(&rows[i], c->cpu, h, c->overruns);
		if (import && src_col(r, c->cpu, &s)) {
			fill_import_row(&rows[i], h, &s, beyond_ns);
		} else {
			/* not in the provenance: every sample is in the histogram */
			s.in_rows = h->count;
			s.overflows = s.placed = 0;
			s.has_avg = s.has_min = s.has_max = true;
			s.avg_ns = rtm_hist_mean(h);
		}
		sum.in_rows += s.in_rows;
		sum.overflows += s.overflows;
		sum.placed += s.placed;
		sum.has_avg &= s.has_avg;
		sum.has_min &= s.has_min || s.in_rows;
		sum.has_max &= s.has_max;
		avg_sum += s.avg_ns * (double)(s.in_rows + s.overflows);
		rtm_hist_merge(all, h);
		overruns += c->overruns;
	}
	fill_row(&rows[r->ncpus], -1, all, overruns);
	if (import) {
		sum.avg_ns = sum.in_rows + sum.overflows ?
			     avg_sum / (double)(sum.in_rows + sum.overflows) : 0;
		fill_import_row(&rows[r->ncpus], all, &sum, beyond_ns);
	}
	rtm_hist_free(all);
	for (i = 0; i <= r->ncpus; i++)
		for (k = 0; k < RTM_SUMMARY_NPCT; k++)
			if (!rtm_pct_defined(rows[i].samples, rtm_summary_pcts[k]))
				rows[i].few |= 1u << k;
	*rowsp = rows;
	return r->ncpus + 1;
}

static const char *const pct_names[RTM_SUMMARY_NPCT] = {
	"p50", "p90", "p99", "p99.9", "p99.99", "p99.999",
};

void rtm_summary_fmt_pct(char *buf, size_t len, const struct rtm_summary_row *r, int k,
			 bool nsecs)
{
	if (r->few & (1u << k))
		snprintf(buf, len, "-");
	else if (!rtm_summary_pct_known(r, k))
		rtm_summary_fmt_unknown(buf, len, r, nsecs);
	else if (nsecs)
		snprintf(buf, len, "%llu", (unsigned long long)r->pct_ns[k]);
	else
		rtm_fmt_us(buf, len, (double)r->pct_ns[k]);
}

void rtm_summary_pct_reason(char *buf, size_t len, const struct rtm_summary_row *r, int k)
{
	if (r->few & (1u << k))
		rtm_pct_few_reason(buf, len, r->samples, rtm_summary_pcts[k]);
	else
		rtm_summary_unknown_reason(buf, len, r);
}

void rtm_summary_few_note(char *buf, size_t len, const struct rtm_summary_row *rows, int n,
			  unsigned int shown)
{
	unsigned int few = 0;
	const char *sep = "";
	size_t off;
	int i, k;

	for (i = 0; i < n; i++)
		few |= rows[i].few & shown;
	buf[0] = '\0';
	if (!few)
		return;
	off = (size_t)snprintf(buf, len, "-: too few samples for that percentile, ");
	for (k = 0; k < RTM_SUMMARY_NPCT && off < len; k++)
		if (few & (1u << k)) {
			off += (size_t)snprintf(buf + off, len - off, "%s%s needs %llu", sep,
						pct_names[k], (unsigned long long)
						rtm_pct_min_samples(rtm_summary_pcts[k]));
			sep = ", ";
		}
	if (off < len)
		snprintf(buf + off, len - off, " for %d beyond it", RTM_STATS_MIN_BEYOND);
}

void rtm_summary_fmt_unknown(char *buf, size_t len, const struct rtm_summary_row *r,
			     bool nsecs)
{
	if (!r->beyond_ns)
		snprintf(buf, len, "n/a");
	else if (nsecs)
		snprintf(buf, len, ">%llu", (unsigned long long)r->beyond_ns);
	else
		snprintf(buf, len, ">%g", (double)r->beyond_ns / 1000.0);
}

void rtm_summary_unknown_reason(char *buf, size_t len, const struct rtm_summary_row *r)
{
	char at[48] = "";

	if (r->beyond_ns)
		snprintf(at, sizeof(at), " (at or above %g us)", (double)r->beyond_ns / 1000.0);
	snprintf(buf, len, "unknown: it depends on the %llu of %llu samples that lay beyond the "
		 "imported histogram's last row%s, whose values the source does not give%s",
		 (unsigned long long)r->beyond, (unsigned long long)r->samples, at,
		 r->unknown & RTM_SUMMARY_UNKNOWN_MAX ? "" : " (but for the maximum)");
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

	json_t *unknown = NULL;
	char why[256];

	if (row->cpu >= 0)
		json_object_set_new(o, "cpu", json_integer(row->cpu));
	for (j = 0; j < RTM_SUMMARY_NPCT; j++)
		json_object_set_new(o, keys[j], rtm_summary_pct_shown(row, j) ?
				    json_integer((json_int_t)row->pct_ns[j]) : json_null());
	if (!row->unknown && !row->few)
		return o;
	unknown = json_object();
	for (j = 0; j < RTM_SUMMARY_NPCT; j++)
		if (!rtm_summary_pct_shown(row, j)) {
			rtm_summary_pct_reason(why, sizeof(why), row, j);
			json_object_set_new(unknown, keys[j], json_string(why));
		}
	rtm_summary_unknown_reason(why, sizeof(why), row);
	{
		static const struct { unsigned int bit; const char *key; } other[] = {
			{ RTM_SUMMARY_UNKNOWN_AVG, "avg_ns" },
			{ RTM_SUMMARY_UNKNOWN_STDDEV, "stddev_ns" },
			{ RTM_SUMMARY_UNKNOWN_MIN, "min_ns" },
			{ RTM_SUMMARY_UNKNOWN_MAX, "max_ns" },
		};

		for (j = 0; j < (int)(sizeof(other) / sizeof(other[0])); j++)
			if (row->unknown & other[j].bit) {
				json_object_set_new(o, other[j].key, json_null());
				json_object_set_new(unknown, other[j].key, json_string(why));
			}
	}
	json_object_set_new(o, "unknown", unknown);
	if (row->beyond_ns)
		json_object_set_new(o, "unknown_above_ns",
				    json_integer((json_int_t)row->beyond_ns));
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
	if (json_object_get(r->sections, "rt_holds"))	/* --rt-hold (lib/trace/rtholds.c) */
		json_object_set(o, "rt_holds", json_object_get(r->sections, "rt_holds"));
	if (json_object_get(r->sections, "timer_irq"))	/* --timer-irq (lib/trace/timerirq.c) */
		json_object_set(o, "timer_irq", json_object_get(r->sections, "timer_irq"));
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

bool rtm_bound_checkable(const struct rtm_result *r, const struct rtm_bound *b, char *why,
			 size_t len)
{
	uint64_t n = 0;
	int i;

	if (b->pct <= 0 || b->pct >= 100)
		return true;	/* avg and max: any sample */
	for (i = 0; i < r->ncpus; i++)
		n += r->cpus[i].raw->count;
	if (rtm_pct_defined(n, b->pct))
		return true;
	snprintf(why, len, "p%g needs %llu samples, the run has %llu", b->pct,
		 (unsigned long long)rtm_pct_min_samples(b->pct), (unsigned long long)n);
	return false;
}
