// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prom.c - Prometheus text format 0.0.4 and OpenMetrics 1.0 pages
 *
 * Written by hand because the formats are a few lines of printf and no Debian
 * package offers a C client that exposes a histogram with caller-chosen,
 * exactly counted buckets (prometheus-client-c is not packaged); the output is
 * checked with promtool and a real Prometheus server in the tests.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "core/jsonutil.h"
#include "core/stats.h"
#include "present/prom.h"
#include "present/prom_priv.h"

void rtm_prom_edges(uint64_t *le_ns)
{
	static const unsigned int mant[] = { 10, 15, 20, 30, 50, 70 };	/* tenths */
	uint64_t decade = 1000;	/* 1 us */
	int i = 0, k;

	while (i < RTM_PROM_NEDGES - 1) {
		for (k = 0; k < 6 && i < RTM_PROM_NEDGES - 1; k++) {
			uint64_t v = decade * mant[k] / 10;

			le_ns[i++] = rtm_hist_index_hi(rtm_hist_index(v));
		}
		decade *= 10;
	}
	le_ns[i] = rtm_hist_index_hi(rtm_hist_index(100000000));	/* 100 ms */
}

static const double pct_q[RTM_PROM_NPCT] = { 0.99, 0.999, 0.9999 };
static const char *const pct_label[RTM_PROM_NPCT] = { "99", "99.9", "99.99" };

/*
 * The rank of percentile @q (0..1) of @h when @unplaced more samples lie above
 * all of it, as a percentile of @h alone into *@p; false when the rank falls
 * among those, or when too few samples lie beyond it for it to be a number
 * (rtm_pct_defined(), the tables' "-").
 */
static bool percentile_of(const struct rtm_hist *h, uint64_t unplaced, double q, double *p)
{
	uint64_t total = h->count + unplaced, rank;

	if (!h->count || !rtm_pct_defined(total, q * 100.0))
		return false;
	rank = (uint64_t)ceil(q * (double)total - 1e-9);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		return false;
	*p = 100.0 * (double)rank / (double)h->count;
	return true;
}

void rtm_prom_hist_from(struct rtm_prom_hist *out, const struct rtm_hist *h, uint64_t unplaced,
			uint64_t unplaced_above_ns)
{
	uint64_t le[RTM_PROM_NEDGES], cum = 0, v[RTM_PROM_NPCT];
	unsigned int i = 0, hi = 0, end;
	double ps[RTM_PROM_NPCT];
	int e, k, n = 0;

	memset(out, 0, sizeof(*out));
	rtm_prom_edges(le);
	out->count = h->count + unplaced;
	out->sum_ns = h->sum_ns;
	out->has_sum = !unplaced;
	out->max_ns = h->count ? h->max_ns : 0;
	/* the counters outside min's to max's are empty (hist.h): only those between are summed */
	if (h->count) {
		i = rtm_hist_index(h->min_ns < RTM_HIST_MAX_NS ? h->min_ns : RTM_HIST_MAX_NS);
		hi = rtm_hist_index(h->max_ns < RTM_HIST_MAX_NS ? h->max_ns : RTM_HIST_MAX_NS) + 1;
	}
	for (e = 0; e < RTM_PROM_NEDGES; e++) {
		/* a bound at or above the unplaced samples' floor: count unknown */
		if (unplaced && (!unplaced_above_ns || le[e] >= unplaced_above_ns))
			break;
		/* each bound is a bucket's top: the samples <= it are its bucket's and below */
		end = rtm_hist_index(le[e]) + 1;
		for (end = end < hi ? end : hi; i < end; i++)
			cum += h->counts[i];
		out->le_count[e] = cum;
	}
	out->nle = e;
	/* the percentiles known, ascending, in one pass */
	for (k = 0; k < RTM_PROM_NPCT; k++)
		if ((out->pct_known[k] = percentile_of(h, unplaced, pct_q[k], &ps[n])))
			n++;
	rtm_hist_percentiles(h, ps, n, v);
	for (k = 0, n = 0; k < RTM_PROM_NPCT; k++)
		if (out->pct_known[k])
			out->pct_ns[k] = v[n++];
}

/* The probe's wake-up latency; the box's own tasks' (wakeup) have their own names. */
static const struct rtm_prom_latency probe_latency = {
	"rtmeasure_wakeup_latency_seconds",
	"How late the probe thread ran after its timer expired (wake-up latency).",
	"rtmeasure_wakeup_latency_max_seconds",
	"Largest wake-up latency, exact, over the whole run or the latest interval.",
	"rtmeasure_wakeup_latency_percentile_seconds",
	"Wake-up latency percentile (nearest rank, within half a histogram bucket); "
	"left out with fewer than 10 samples expected beyond it, or when it lies among "
	"samples the source could not place.",
};

static void histogram(struct rtm_prom_page *p, const struct rtm_prom_latency *names,
		      const struct rtm_prom_cpu *cpus, int n)
{
	const char *name = names->hist;
	uint64_t le[RTM_PROM_NEDGES];
	char buf[40], lebuf[40];
	int i, e;

	rtm_prom_edges(le);
	rtm_prom_family(p, name, "histogram", "seconds", names->hist_help);
	for (i = 0; i < n; i++) {
		const struct rtm_prom_hist *h = &cpus[i].run;
		const char *kv[] = { "le", lebuf, NULL };

		for (e = 0; e < h->nle; e++) {
			rtm_prom_secs(lebuf, sizeof(lebuf), le[e]);
			rtm_prom_sample_u64(p, name, "_bucket", cpus[i].cpu, kv, h->le_count[e]);
		}
		snprintf(lebuf, sizeof(lebuf), "+Inf");
		rtm_prom_sample_u64(p, name, "_bucket", cpus[i].cpu, kv, h->count);
		rtm_prom_sample_u64(p, name, "_count", cpus[i].cpu, NULL, h->count);
		if (h->has_sum)
			rtm_prom_sample(p, name, "_sum", cpus[i].cpu, NULL,
					rtm_prom_secs(buf, sizeof(buf), h->sum_ns));
		if (p->fmt == RTM_PROM_OPENMETRICS) {
			snprintf(buf, sizeof(buf), "%.3f", p->t->created_s);
			rtm_prom_sample(p, name, "_created", cpus[i].cpu, NULL, buf);
		}
	}
}

/* The window's figures of CPU @c, or NULL when it has none. */
static const struct rtm_prom_hist *window(const struct rtm_prom_cpu *c, int w)
{
	if (w)
		return c->has_last && c->last.count ? &c->last : NULL;
	return c->run.count ? &c->run : NULL;
}

static void gauges(struct rtm_prom_page *p, const struct rtm_prom_latency *names,
		   const struct rtm_prom_cpu *cpus, int n)
{
	const char *maxname = names->max, *qname = names->pct;
	char buf[40];
	int i, w, k;

	rtm_prom_family(p, maxname, "gauge", "seconds", names->max_help);
	for (w = 0; w < 2; w++)
		for (i = 0; i < n; i++) {
			const struct rtm_prom_hist *h = window(&cpus[i], w);
			const char *kv[] = { "window", w ? "interval" : "run", NULL };

			/* an imported maximum among unplaced samples is still exact */
			if (h)
				rtm_prom_sample(p, maxname, "", cpus[i].cpu, kv,
						rtm_prom_secs(buf, sizeof(buf), h->max_ns));
		}
	rtm_prom_family(p, qname, "gauge", "seconds", names->pct_help);
	for (w = 0; w < 2; w++)
		for (i = 0; i < n; i++)
			for (k = 0; k < RTM_PROM_NPCT; k++) {
				const struct rtm_prom_hist *h = window(&cpus[i], w);
				const char *kv[] = { "percentile", pct_label[k],
						     "window", w ? "interval" : "run", NULL };

				if (h && h->pct_known[k]) {
					rtm_prom_secs(buf, sizeof(buf), h->pct_ns[k]);
					rtm_prom_sample(p, qname, "", cpus[i].cpu, kv, buf);
				}
			}
}

static void counters(struct rtm_prom_page *p, const struct rtm_prom_cpu *cpus, int n)
{
	int i;

	rtm_prom_family(p, "rtmeasure_overruns", "counter", NULL,
	       "Timer periods the probe missed entirely (it woke more than one period late).");
	for (i = 0; i < n; i++)
		rtm_prom_counter_u64(p, "rtmeasure_overruns", cpus[i].cpu, NULL, cpus[i].overruns);
	rtm_prom_family(p, "rtmeasure_implied_samples", "counter", NULL,
	       "Coordinated-omission samples implied by missed periods (not in the histogram).");
	for (i = 0; i < n; i++)
		rtm_prom_counter_u64(p, "rtmeasure_implied_samples", cpus[i].cpu, NULL,
				     cpus[i].implied);
}

/* One counter per handler source (kind, name): @key "total_ns" in seconds, or "count". */
static void handler_series(struct rtm_prom_page *p, const json_t *srcs, const char *name,
			   const char *key)
{
	char buf[40];
	size_t i;

	for (i = 0; i < json_array_size(srcs); i++) {
		const json_t *s = json_array_get(srcs, i);
		uint64_t v = (uint64_t)json_integer_value(json_object_get(s, key));
		const char *kv[] = {
			"kind", json_string_value(json_object_get(s, "kind")) ?: "",
			"source", json_string_value(json_object_get(s, "name")) ?: "", NULL };

		if (!strcmp(key, "total_ns"))
			rtm_prom_counter(p, name, -1, kv, rtm_prom_secs(buf, sizeof(buf), v));
		else
			rtm_prom_counter_u64(p, name, -1, kv, v);
	}
}

/* sections.irq: per-IRQ counts per CPU, and handler times when traced */
static void irq_metrics(struct rtm_prom_page *p, const json_t *irq)
{
	const json_t *irqs = rtm_json_path(irq, "interrupts.irqs");
	const json_t *srcs = rtm_json_path(irq, "handlers.sources");
	char buf[40];
	size_t i, k;

	if (json_array_size(irqs)) {
		rtm_prom_family(p, "rtmeasure_irq_interrupts", "counter", NULL,
				"Interrupts per source and CPU during the run (/proc/interrupts).");
		for (i = 0; i < json_array_size(irqs); i++) {
			const json_t *q = json_array_get(irqs, i);
			const json_t *counts = json_object_get(q, "counts");
			const char *name = json_string_value(json_object_get(q, "name"));
			const char *act = json_string_value(json_object_get(q, "actions"));
			const json_t *cpus = rtm_json_path(irq, "interrupts.cpus");

			if (!name)
				continue;
			for (k = 0; k < json_array_size(counts); k++) {
				const char *kv[] = { "irq", name, "action", act ? act : "", NULL };
				json_int_t cpu = json_array_size(cpus) > k ?
					json_integer_value(json_array_get(cpus, k)) : (json_int_t)k;

				snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT,
					 json_integer_value(json_array_get(counts, k)));
				rtm_prom_counter(p, "rtmeasure_irq_interrupts", (int)cpu, kv, buf);
			}
		}
	}
	if (!json_array_size(srcs))
		return;
	rtm_prom_family(p, "rtmeasure_irq_handler_seconds", "counter", "seconds",
	       "Time spent in interrupt and softirq handlers during the run (irq/softirq tracepoints).");
	handler_series(p, srcs, "rtmeasure_irq_handler_seconds", "total_ns");
	rtm_prom_family(p, "rtmeasure_irq_handler_invocations", "counter", NULL,
	       "Interrupt and softirq handler runs during the run (irq/softirq tracepoints).");
	handler_series(p, srcs, "rtmeasure_irq_handler_invocations", "count");
}

/* @key of @o as a count or ns; false when missing or not one (left out, not guessed) */
static bool json_u64(const json_t *o, const char *key, uint64_t *v)
{
	const json_t *j = json_object_get(o, key);

	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return false;
	*v = (uint64_t)json_integer_value(j);
	return true;
}

/* One per-CPU series of sections.noise: a counter or gauge of @key (ns -> s when @ns). */
static void noise_series(struct rtm_prom_page *p, const json_t *cpus, const char *name,
			 const char *type, const char *key, bool ns, const char *help)
{
	const json_t *c;
	char buf[40];
	size_t i;

	rtm_prom_family(p, name, type, ns ? "seconds" : NULL, help);
	json_array_foreach(cpus, i, c) {
		uint64_t v, gaps;
		int cpu = (int)json_integer_value(json_object_get(c, "cpu"));

		if (!json_u64(c, key, &v))
			continue;
		/* no gap: the largest lies below the threshold, not at 0 */
		if (!strcmp(type, "gauge") && (!json_u64(c, "gaps", &gaps) || !gaps))
			continue;
		if (ns)
			rtm_prom_secs(buf, sizeof(buf), v);
		else
			snprintf(buf, sizeof(buf), "%" PRIu64, v);
		if (!strcmp(type, "counter"))
			rtm_prom_counter(p, name, cpu, NULL, buf);
		else
			rtm_prom_sample(p, name, "", cpu, NULL, buf);
	}
}

/*
 * A histogram per CPU from a section's "cpus" entries, each holding one in @key
 * (result.json's histogram form), bounds at rtm_prom_edges() as for the wake-ups.
 */
/*
 * One series of histogram @name from @h, for @cpu (-1: none) and the label
 * @key="@value" (@key NULL: none).
 */
static void hist_series(struct rtm_prom_page *p, const char *name, int cpu, const char *key,
			const char *value, const struct rtm_hist *h)
{
	const char *kv[] = { key ?: "le", value, key ? "le" : NULL, NULL, NULL };
	const char *own[] = { key, value, NULL };
	uint64_t le[RTM_PROM_NEDGES];
	char buf[40], lebuf[40];
	struct rtm_prom_hist ph;
	int e;

	kv[key ? 3 : 1] = lebuf;
	rtm_prom_edges(le);
	rtm_prom_hist_from(&ph, h, 0, 0);
	for (e = 0; e < ph.nle; e++) {
		rtm_prom_secs(lebuf, sizeof(lebuf), le[e]);
		rtm_prom_sample_u64(p, name, "_bucket", cpu, kv, ph.le_count[e]);
	}
	snprintf(lebuf, sizeof(lebuf), "+Inf");
	rtm_prom_sample_u64(p, name, "_bucket", cpu, kv, ph.count);
	rtm_prom_sample_u64(p, name, "_count", cpu, key ? own : NULL, ph.count);
	rtm_prom_sample(p, name, "_sum", cpu, key ? own : NULL,
			rtm_prom_secs(buf, sizeof(buf), ph.sum_ns));
	if (p->fmt == RTM_PROM_OPENMETRICS) {
		snprintf(buf, sizeof(buf), "%.3f", p->t->created_s);
		rtm_prom_sample(p, name, "_created", cpu, key ? own : NULL, buf);
	}
}

static void json_histograms(struct rtm_prom_page *p, const json_t *cpus, const char *name,
			    const char *key, const char *help)
{
	struct rtm_hist *h = rtm_hist_alloc();
	struct rtm_error err = { "" };
	const json_t *c;
	size_t i;

	if (!h)
		return;
	rtm_prom_family(p, name, "histogram", "seconds", help);
	json_array_foreach(cpus, i, c) {
		/* a histogram that does not check out is left out, not shown wrong */
		if (rtm_hist_from_json(h, json_object_get(c, key), &err))
			continue;
		hist_series(p, name, (int)json_integer_value(json_object_get(c, "cpu")), NULL,
			    NULL, h);
	}
	rtm_hist_free(h);
}

/*
 * sections.io (rtmeasure io), probe="io": per operation (op="randread", ...)
 * a histogram of the latency from the planned issue time, of the service time
 * and of the lateness; the misses and failed requests; the deadline.
 */
static void io_metrics(struct rtm_prom_page *p, const json_t *io)
{
	static const struct { const char *key, *name, *help; } figs[] = {
		{ "latency", "rtmeasure_io_latency_seconds", "Storage request latency from its "
		  "planned issue time to its completion (a late issue counts)." },
		{ "service", "rtmeasure_io_service_seconds", "Storage request service time, from "
		  "its actual issue to its completion." },
		{ "lateness", "rtmeasure_io_lateness_seconds", "How late the probe issued a "
		  "storage request after its planned time." },
	};
	const json_t *ops = json_object_get(io, "ops"), *op;
	struct rtm_prom_target t = *p->t;
	struct rtm_prom_page ip = { p->f, p->fmt, &t };
	struct rtm_hist *h = rtm_hist_alloc();
	struct rtm_error err = { "" };
	const char *name;
	char buf[40];
	uint64_t v;
	size_t k;

	if (!h || !json_object_size(ops)) {
		rtm_hist_free(h);
		return;
	}
	snprintf(t.probe, sizeof(t.probe), "io");
	for (k = 0; k < sizeof(figs) / sizeof(figs[0]); k++) {
		rtm_prom_family(&ip, figs[k].name, "histogram", "seconds", figs[k].help);
		json_object_foreach((json_t *)ops, name, op)
			if (!rtm_hist_from_json(h, json_object_get(op, figs[k].key), &err))
				hist_series(&ip, figs[k].name, -1, "op", name, h);
	}
	rtm_hist_free(h);
	rtm_prom_family(&ip, "rtmeasure_io_misses", "counter", NULL,
	       "Storage requests completed later than the deadline after their planned time.");
	json_object_foreach((json_t *)ops, name, op) {
		const char *kv[] = { "op", name, NULL };

		if (json_u64(op, "misses", &v))
			rtm_prom_counter_u64(&ip, "rtmeasure_io_misses", -1, kv, v);
	}
	rtm_prom_family(&ip, "rtmeasure_io_errors", "counter", NULL,
	       "Storage requests that failed (in no histogram).");
	json_object_foreach((json_t *)ops, name, op) {
		const char *kv[] = { "op", name, NULL };

		if (json_u64(op, "errors", &v))
			rtm_prom_counter_u64(&ip, "rtmeasure_io_errors", -1, kv, v);
	}
	if (json_u64(io, "deadline_ns", &v) && v) {
		rtm_prom_family(&ip, "rtmeasure_io_deadline_seconds", "gauge", "seconds",
		       "The deadline a storage request's latency is a miss above.");
		rtm_prom_sample(&ip, "rtmeasure_io_deadline_seconds", "", -1, NULL,
				rtm_prom_secs(buf, sizeof(buf), v));
	}
}

/*
 * noise --trace: the gaps' time per CPU by cause class (irq, softirq, nmi, thread,
 * rt_throttling, unexplained; lib/trace/noiseattr.c). A finished result has the causes
 * laid over every gap; a live page those laid so far (each gap once its CPU's
 * events are drained, within a second), so the counters only grow.
 */
static void noise_causes(struct rtm_prom_page *p, const json_t *cpus)
{
	static const char name[] = "rtmeasure_noise_cause_seconds";
	static const char *const classes[] = {
		"irq", "softirq", "nmi", "thread", "rt_throttling", "unexplained",
	};
	const json_t *c, *causes;
	char buf[40], key[32];
	bool any = false;
	uint64_t v;
	size_t i, k;

	json_array_foreach(cpus, i, c)
		any |= json_is_object(json_object_get(c, "causes"));
	if (!any)
		return;
	rtm_prom_family(p, name, "counter", "seconds",
	       "Time of the gaps by cause (noise --trace): the innermost interrupt, softirq, "
	       "NMI or other thread in each gap, RT throttling, and what no event explains.");
	json_array_foreach(cpus, i, c) {
		int cpu = (int)json_integer_value(json_object_get(c, "cpu"));

		causes = json_object_get(c, "causes");
		for (k = 0; causes && k < sizeof(classes) / sizeof(classes[0]); k++) {
			const char *kv[] = { "cause", classes[k], NULL };

			snprintf(key, sizeof(key), "%s_ns", classes[k]);
			if (json_u64(causes, key, &v))
				rtm_prom_counter(p, name, cpu, kv,
						 rtm_prom_secs(buf, sizeof(buf), v));
		}
	}
}

/*
 * sections.noise: noise, sampled time, gaps, largest gap and the gap histogram
 * per CPU, labelled probe="noise"; with noise --trace the time by cause.
 */
static void noise_metrics(struct rtm_prom_page *p, const json_t *noise)
{
	const json_t *cpus = json_object_get(noise, "cpus");
	struct rtm_prom_target t = *p->t;
	struct rtm_prom_page np = { p->f, p->fmt, &t };

	if (!json_array_size(cpus))
		return;
	snprintf(t.probe, sizeof(t.probe), "noise");
	noise_series(&np, cpus, "rtmeasure_noise_seconds", "counter", "noise_ns", true,
		     "Time taken from the noise loop: the gaps' lengths summed.");
	noise_series(&np, cpus, "rtmeasure_noise_sampled_seconds", "counter", "sampled_ns", true,
		     "Time the noise loop sampled (busy windows, gaps included; "
		     "added when a window ends).");
	noise_series(&np, cpus, "rtmeasure_noise_gaps", "counter", "gaps", false,
		     "Gaps longer than the threshold the noise loop saw.");
	noise_series(&np, cpus, "rtmeasure_noise_max_gap_seconds", "gauge", "max_gap_ns", true,
		     "Largest gap over the run (left out while there is none).");
	json_histograms(&np, cpus, "rtmeasure_noise_gap_seconds", "hist",
			"Length of the gaps the noise loop saw (time taken from it above the "
			"threshold).");
	noise_causes(&np, cpus);
}

/*
 * sections.timer_irq (--timer-irq): per CPU the delay from the probe's hrtimer
 * expiry to the interrupt running it, the IRQ part of each wake-up (rtla's IRQ
 * column), and the starts and expiries the trace could not pair.
 */
static void timer_irq_metrics(struct rtm_prom_page *p, const json_t *sec)
{
	static const char um[] = "rtmeasure_timer_irq_unmatched";
	const json_t *cpus = json_object_get(sec, "cpus"), *c;
	const char *kv[] = { "event", NULL, NULL };
	uint64_t v;
	size_t i;

	if (!json_array_size(cpus))
		return;
	json_histograms(p, cpus, "rtmeasure_timer_irq_delay_seconds", "delay",
			"Delay from the probe's timer expiry to the interrupt that runs it "
			"(the IRQ part of the wake-up latency).");
	rtm_prom_family(p, um, "counter", NULL, "Probe timer starts without their expiry in the "
			"trace (event=\"start\") and expiries without their start "
			"(event=\"expire\").");
	json_array_foreach(cpus, i, c) {
		int cpu = (int)json_integer_value(json_object_get(c, "cpu"));

		kv[1] = "start";
		if (json_u64(c, "unmatched_starts", &v))
			rtm_prom_counter_u64(p, um, cpu, kv, v);
		kv[1] = "expire";
		if (json_u64(c, "unmatched_expires", &v))
			rtm_prom_counter_u64(p, um, cpu, kv, v);
	}
}

/* 1 for each way the run was disturbed, 0 for the others known; reason="shared_cpus", ... */
static void disturbed(struct rtm_prom_page *p, const struct rtm_disturbances *d, unsigned int known)
{
	int k;

	rtm_prom_family(p, "rtmeasure_run_disturbed", "gauge", NULL,
	       "1 when the run was disturbed this way (shared_cpus: another rtmeasure measured "
	       "its CPUs; interrupted: a signal stopped it before its duration; missed_periods: "
	       "over 1% of its periods missed; hypervisor, emulated: a VM or an emulator).");
	for (k = 0; k < RTM_DISTURB_NKEYS; k++) {
		const char *kv[] = { "reason", rtm_disturb_keys[k], NULL };

		if (known & (1u << k))
			rtm_prom_sample(p, "rtmeasure_run_disturbed", "", -1, kv,
					rtm_disturbances_find(d, rtm_disturb_keys[k]) ? "1" : "0");
	}
}

int rtm_prom_write(FILE *f, enum rtm_prom_format fmt, const struct rtm_prom_target *t,
		   const struct rtm_prom_cpu *cpus, int n, const struct rtm_prom_run *run)
{
	struct rtm_prom_page p = { f, fmt, t };

	/* the box's own tasks: no probe, no periods */
	if (n > 0 && run && run->wakeup && !run->probe_cpus) {
		histogram(&p, &rtm_prom_task_latency, cpus, n);
		gauges(&p, &rtm_prom_task_latency, cpus, n);
	} else if (n > 0) {	/* a noise run measures no wake-ups */
		histogram(&p, &probe_latency, cpus, n);
		gauges(&p, &probe_latency, cpus, n);
		counters(&p, cpus, n);
	}
	if (run && run->wakeup)
		rtm_prom_wakeup_tasks(&p, run->wakeup);
	if (run && run->noise)
		noise_metrics(&p, run->noise);
	if (run && run->timer_irq)
		timer_irq_metrics(&p, run->timer_irq);
	if (run && run->io)
		io_metrics(&p, run->io);
	if (run && run->trace_lost >= 0) {
		rtm_prom_family(&p, "rtmeasure_trace_events_lost", "counter", NULL,
				"Trace events the kernel dropped (buffer full) while tracing.");
		rtm_prom_counter_u64(&p, "rtmeasure_trace_events_lost", -1, NULL,
				     (uint64_t)run->trace_lost);
	}
	if (run && run->spikes_captured >= 0) {
		rtm_prom_family(&p, "rtmeasure_spikes_captured", "counter", NULL,
				"Spike windows (trace around a late wake-up) saved.");
		rtm_prom_counter_u64(&p, "rtmeasure_spikes_captured", -1, NULL,
				     (uint64_t)run->spikes_captured);
	}
	if (run && run->irq)
		irq_metrics(&p, run->irq);
	if (run && run->disturbed && run->disturb_known)
		disturbed(&p, run->disturbed, run->disturb_known);
	rtm_prom_family(&p, "rtmeasure_build", "info", NULL, "rtmeasure's version.");
	{
		const char *kv[] = { "version", PACKAGE_VERSION, NULL };

		rtm_prom_sample(&p, "rtmeasure_build", "_info", -1, kv, "1");
	}
	if (fmt == RTM_PROM_OPENMETRICS)
		fputs("# EOF\n", f);
	return ferror(f) ? -EIO : 0;
}

void rtm_prom_target_from_sysinfo(struct rtm_prom_target *t, const json_t *sysinfo,
				  const char *probe, double created_s)
{
	const char *s;

	memset(t, 0, sizeof(*t));
	s = rtm_json_path_str(sysinfo, "hostname");
	snprintf(t->host, sizeof(t->host), "%s", s ? s : "unknown");
	s = rtm_json_path_str(sysinfo, "kernel.release");
	snprintf(t->kernel, sizeof(t->kernel), "%s", s ? s : "unknown");
	s = rtm_json_path_str(sysinfo, "kernel.preempt.model");
	snprintf(t->preempt, sizeof(t->preempt), "%s", s ? s : "unknown");
	snprintf(t->probe, sizeof(t->probe), "%s", probe);
	t->created_s = created_s;
}

/* ISO 8601 UTC "2026-12-04T14:40:20Z" (fraction allowed) to Unix seconds; 0 if not one. */
static double unix_time(const char *iso)
{
	struct tm tm;
	const char *rest;

	memset(&tm, 0, sizeof(tm));
	if (!iso || !(rest = strptime(iso, "%Y-%m-%dT%H:%M:%S", &tm)))
		return 0;
	return (double)timegm(&tm) + (*rest == '.' ? strtod(rest, NULL) : 0.0);
}

/* Unplaced (overflowed) imported samples of @cpu, and the value they lie at or above. */
static uint64_t unplaced(const struct rtm_result *r, int cpu, uint64_t *above_ns)
{
	*above_ns = (uint64_t)json_integer_value(rtm_json_path(r->sections,
							       "provenance.overflow_above_ns"));
	return rtm_result_unplaced_cpu(r, cpu);
}

void rtm_prom_run_wakeup(struct rtm_prom_run *run, const struct rtm_result *r)
{
	run->wakeup = json_object_get(r->sections, "wakeup");
	/* monitor --wakeup: the tasks beside the timer probe, the CPUs the probe's */
	run->probe_cpus = json_is_true(json_object_get(run->wakeup, "beside_probe"));
}

int rtm_prom_of_result(struct rtm_prom_result *pr, const struct rtm_result *r)
{
	const json_t *irq = json_object_get(r->sections, "irq");
	struct rtm_prom_run *run = &pr->run;
	size_t i;

	memset(pr, 0, sizeof(*pr));
	pr->cpus = calloc((size_t)r->ncpus + 1, sizeof(*pr->cpus));
	if (!pr->cpus)
		return -ENOMEM;
	run->trace_lost = run->spikes_captured = -1;
	/*
	 * a noise run's page (rtmeasure_build_info too) says probe="noise", a storage
	 * run's probe="io", a run of the kernel's timerlat tracer (cyclic --backend
	 * timerlat) probe="timerlat", rtmeasure wakeup's (the box's own tasks, no
	 * probe of rtmeasure) probe="wakeup"
	 */
	rtm_prom_run_wakeup(run, r);
	rtm_prom_target_from_sysinfo(&pr->t, r->sysinfo,
				     run->wakeup && !run->probe_cpus ? "wakeup" :
				     !r->ncpus && json_object_get(r->sections,
				     "noise") ? "noise" : !r->ncpus && json_object_get(r->sections,
				     "io") ? "io" : !strcmp(json_string_value(
				     json_object_get(r->options, "backend")) ?: "", "timerlat") ?
				     "timerlat" : "timer", unix_time(r->created));
	for (i = 0; i < (size_t)r->ncpus; i++) {
		const struct rtm_result_cpu *c = &r->cpus[i];

		uint64_t above_ns, n = unplaced(r, c->cpu, &above_ns);

		pr->cpus[i].cpu = c->cpu;
		rtm_prom_hist_from(&pr->cpus[i].run, c->raw, n, above_ns);
		pr->cpus[i].overruns = c->overruns;
		pr->cpus[i].implied = c->corrected && c->corrected->count > c->raw->count ?
				      c->corrected->count - c->raw->count : 0;
	}
	pr->n = r->ncpus;
	run->noise = json_object_get(r->sections, "noise");
	run->timer_irq = json_object_get(r->sections, "timer_irq");
	run->io = json_object_get(r->sections, "io");
	if (irq) {
		run->irq = irq;
		if (json_is_integer(json_object_get(irq, "trace_lost")))
			run->trace_lost = json_integer_value(json_object_get(irq, "trace_lost"));
	}
	for (i = 0; i < json_array_size(r->events); i++) {
		const char *type = json_string_value(json_object_get(json_array_get(r->events, i),
								     "type"));

		if (type && !strcmp(type, "spike_capture"))
			run->spikes_captured = (run->spikes_captured < 0 ? 0 :
						run->spikes_captured) + 1;
	}
	rtm_result_disturbances(r, &pr->d);
	run->disturbed = &pr->d;
	run->disturb_known = (1u << RTM_DISTURB_NKEYS) - 1;	/* a finished run: every kind */
	return 0;
}

void rtm_prom_result_release(struct rtm_prom_result *pr)
{
	free(pr->cpus);
	pr->cpus = NULL;
	pr->n = 0;
}

int rtm_prom_write_result(FILE *f, enum rtm_prom_format fmt, const struct rtm_result *r,
			  struct rtm_error *err)
{
	struct rtm_prom_result pr;
	int ret;

	if (rtm_prom_of_result(&pr, r))
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	ret = rtm_prom_write(f, fmt, &pr.t, pr.cpus, pr.n, &pr.run);
	rtm_prom_result_release(&pr);
	if (ret)
		rtm_error_set(err, "cannot write the metrics: %s", strerror(-ret));
	return ret;
}
