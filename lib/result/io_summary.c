// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * io_summary.c - the figures of sections.io's histograms (lib/probe/probe_io.h)
 * and its summary for programs: what every output of the storage probe shows.
 */
#include <errno.h>
#include <stdint.h>

#include "core/hist.h"
#include "core/jsonutil.h"
#include "core/stats.h"
#include "result/io_summary.h"

const char *const rtm_io_figures[RTM_IO_NFIGURES] = { "latency", "service", "lateness" };
const double rtm_io_pcts[RTM_IO_NPCT] = { 50, 99, 99.9 };

int rtm_io_figs_of(const json_t *hj, struct rtm_hist *h, struct rtm_io_figs *o)
{
	uint64_t v[RTM_IO_NPCT];
	int k;

	if (rtm_hist_from_json(h, hj, NULL))
		return -EINVAL;
	rtm_hist_percentiles(h, rtm_io_pcts, RTM_IO_NPCT, v);
	o->count = h->count;
	o->min_ns = h->count ? h->min_ns : 0;
	o->avg_ns = rtm_hist_mean(h);
	for (k = 0; k < RTM_IO_NPCT; k++) {
		o->pct_ns[k] = v[k];
		o->pct_ok[k] = rtm_pct_defined(h->count, rtm_io_pcts[k]);
	}
	o->max_ns = h->max_ns;
	return 0;
}

/* A percentile too few samples support is null, as in the run summary's JSON. */
static json_t *pct_json(const struct rtm_io_figs *x, int k)
{
	return x->pct_ok[k] ? rtm_json_u64(x->pct_ns[k]) : json_null();
}

static json_t *figs_json(const struct rtm_io_figs *x)
{
	return json_pack("{s:o, s:o, s:f, s:o, s:o, s:o, s:o}",
		"count", rtm_json_u64(x->count),
		"min_ns", rtm_json_u64(x->min_ns),
		"avg_ns", x->avg_ns,
		"p50_ns", pct_json(x, 0),
		"p99_ns", pct_json(x, 1),
		"p99.9_ns", pct_json(x, 2),
		"max_ns", rtm_json_u64(x->max_ns));
}

json_t *rtm_io_summary_json(const json_t *io)
{
	const json_t *ops = json_object_get(io, "ops"), *op;
	struct rtm_hist *h = rtm_hist_alloc();
	json_t *out = NULL, *jops = json_object();
	const char *name;

	if (!h || !jops || !json_is_object(ops))
		goto fail;
	json_object_foreach((json_t *)ops, name, op) {
		json_t *j = json_pack("{s:O, s:O, s:O}", "count", json_object_get(op, "count"),
				      "misses", json_object_get(op, "misses"),
				      "errors", json_object_get(op, "errors"));
		int k;

		for (k = 0; j && k < RTM_IO_NFIGURES; k++) {
			struct rtm_io_figs x;

			if (rtm_io_figs_of(json_object_get(op, rtm_io_figures[k]), h, &x)) {
				json_decref(j);
				goto fail;
			}
			json_object_set_new(j, rtm_io_figures[k], figs_json(&x));
		}
		if (!j || json_object_set_new(jops, name, j))
			goto fail;
	}
	out = json_deep_copy(io);
	if (out) {
		json_object_del(out, "miss_list");
		json_object_del(json_object_get(out, "causes"), "list");
		json_object_set(out, "ops", jops);
	}
fail:
	json_decref(jops);
	rtm_hist_free(h);
	return out;
}
