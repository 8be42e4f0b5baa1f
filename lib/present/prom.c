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

struct page {
	FILE *f;
	enum rtm_prom_format fmt;
	const struct rtm_prom_target *t;
};

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

/* @ns as exact decimal seconds: "0.000035", "3.5", "0" */
static const char *secs(char *buf, size_t len, uint64_t ns)
{
	int n = snprintf(buf, len, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);

	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	return buf;
}

static void label_value(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* The family's header; @name is the family name (OpenMetrics counters: no _total). */
static void family(struct page *p, const char *name, const char *type, const char *unit,
		   const char *help)
{
	bool counter = !strcmp(type, "counter");

	if (p->fmt == RTM_PROM_OPENMETRICS) {
		fprintf(p->f, "# TYPE %s %s\n", name, type);
		if (unit)
			fprintf(p->f, "# UNIT %s %s\n", name, unit);
		fprintf(p->f, "# HELP %s %s\n", name, help);
	} else {
		/* 0.0.4 names the counter's sample, and knows no info type */
		const char *suffix = counter ? "_total" : !strcmp(type, "info") ? "_info" : "";

		fprintf(p->f, "# HELP %s%s %s\n", name, suffix, help);
		fprintf(p->f, "# TYPE %s%s %s\n", name, suffix,
			!strcmp(type, "info") ? "gauge" : type);
	}
}

/*
 * One sample: name+suffix{target labels, @cpu when >= 0, extra "k","v" pairs}.
 * @extra is a NULL-terminated list of key, value strings.
 */
static void sample(struct page *p, const char *name, const char *suffix, int cpu,
		   const char *const *extra, const char *value)
{
	const struct rtm_prom_target *t = p->t;

	fprintf(p->f, "%s%s{", name, suffix);
	if (cpu >= 0)
		fprintf(p->f, "cpu=\"%d\",", cpu);
	fputs("probe=\"", p->f);
	label_value(p->f, t->probe);
	fputs("\",host=\"", p->f);
	label_value(p->f, t->host);
	fputs("\",kernel=\"", p->f);
	label_value(p->f, t->kernel);
	fputs("\",preempt_model=\"", p->f);
	label_value(p->f, t->preempt);
	fputc('"', p->f);
	for (; extra && extra[0]; extra += 2) {
		fprintf(p->f, ",%s=\"", extra[0]);
		label_value(p->f, extra[1]);
		fputc('"', p->f);
	}
	fprintf(p->f, "} %s\n", value);
}

static void sample_u64(struct page *p, const char *name, const char *suffix, int cpu,
		       const char *const *extra, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	sample(p, name, suffix, cpu, extra, buf);
}

/* A counter's sample(s): _total, and _created in OpenMetrics. */
static void counter(struct page *p, const char *name, int cpu, const char *const *extra,
		    const char *value)
{
	char buf[40];

	sample(p, name, "_total", cpu, extra, value);
	if (p->fmt == RTM_PROM_OPENMETRICS) {
		snprintf(buf, sizeof(buf), "%.3f", p->t->created_s);
		sample(p, name, "_created", cpu, extra, buf);
	}
}

static void counter_u64(struct page *p, const char *name, int cpu, const char *const *extra,
			uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	counter(p, name, cpu, extra, buf);
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

static void histogram(struct page *p, const struct rtm_prom_cpu *cpus, int n)
{
	static const char name[] = "rtmeasure_wakeup_latency_seconds";
	uint64_t le[RTM_PROM_NEDGES];
	char buf[40], lebuf[40];
	int i, e;

	rtm_prom_edges(le);
	family(p, name, "histogram", "seconds",
	       "How late the probe thread ran after its timer expired (wake-up latency).");
	for (i = 0; i < n; i++) {
		const struct rtm_prom_hist *h = &cpus[i].run;
		const char *kv[] = { "le", lebuf, NULL };

		for (e = 0; e < h->nle; e++) {
			secs(lebuf, sizeof(lebuf), le[e]);
			sample_u64(p, name, "_bucket", cpus[i].cpu, kv, h->le_count[e]);
		}
		snprintf(lebuf, sizeof(lebuf), "+Inf");
		sample_u64(p, name, "_bucket", cpus[i].cpu, kv, h->count);
		sample_u64(p, name, "_count", cpus[i].cpu, NULL, h->count);
		if (h->has_sum)
			sample(p, name, "_sum", cpus[i].cpu, NULL, secs(buf, sizeof(buf), h->sum_ns));
		if (p->fmt == RTM_PROM_OPENMETRICS) {
			snprintf(buf, sizeof(buf), "%.3f", p->t->created_s);
			sample(p, name, "_created", cpus[i].cpu, NULL, buf);
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

static void gauges(struct page *p, const struct rtm_prom_cpu *cpus, int n)
{
	static const char maxname[] = "rtmeasure_wakeup_latency_max_seconds";
	static const char qname[] = "rtmeasure_wakeup_latency_percentile_seconds";
	char buf[40];
	int i, w, k;

	family(p, maxname, "gauge", "seconds",
	       "Largest wake-up latency, exact, over the whole run or the latest interval.");
	for (w = 0; w < 2; w++)
		for (i = 0; i < n; i++) {
			const struct rtm_prom_hist *h = window(&cpus[i], w);
			const char *kv[] = { "window", w ? "interval" : "run", NULL };

			/* an imported maximum among unplaced samples is still exact */
			if (h)
				sample(p, maxname, "", cpus[i].cpu, kv, secs(buf, sizeof(buf), h->max_ns));
		}
	family(p, qname, "gauge", "seconds",
	       "Wake-up latency percentile (nearest rank, within half a histogram bucket); "
	       "left out with fewer than 10 samples expected beyond it, or when it lies among "
	       "samples the source could not place.");
	for (w = 0; w < 2; w++)
		for (i = 0; i < n; i++)
			for (k = 0; k < RTM_PROM_NPCT; k++) {
				const struct rtm_prom_hist *h = window(&cpus[i], w);
				const char *kv[] = { "percentile", pct_label[k],
						     "window", w ? "interval" : "run", NULL };

				if (h && h->pct_known[k])
					sample(p, qname, "", cpus[i].cpu, kv,
					       secs(buf, sizeof(buf), h->pct_ns[k]));
			}
}

static void counters(struct page *p, const struct rtm_prom_cpu *cpus, int n)
{
	int i;

	family(p, "rtmeasure_overruns", "counter", NULL,
	       "Timer periods the probe missed entirely (it woke more than one period late).");
	for (i = 0; i < n; i++)
		counter_u64(p, "rtmeasure_overruns", cpus[i].cpu, NULL, cpus[i].overruns);
	family(p, "rtmeasure_implied_samples", "counter", NULL,
	       "Coordinated-omission samples implied by missed periods (not in the histogram).");
	for (i = 0; i < n; i++)
		counter_u64(p, "rtmeasure_implied_samples", cpus[i].cpu, NULL, cpus[i].implied);
}

/* One counter per handler source (kind, name): @key "total_ns" in seconds, or "count". */
static void handler_series(struct page *p, const json_t *srcs, const char *name, const char *key)
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
			counter(p, name, -1, kv, secs(buf, sizeof(buf), v));
		else
			counter_u64(p, name, -1, kv, v);
	}
}

/* sections.irq: per-IRQ counts per CPU, and handler times when traced */
static void irq_metrics(struct page *p, const json_t *irq)
{
	const json_t *irqs = rtm_json_path(irq, "interrupts.irqs");
	const json_t *srcs = rtm_json_path(irq, "handlers.sources");
	char buf[40];
	size_t i, k;

	if (json_array_size(irqs)) {
		family(p, "rtmeasure_irq_interrupts", "counter", NULL,
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
				counter(p, "rtmeasure_irq_interrupts", (int)cpu, kv, buf);
			}
		}
	}
	if (!json_array_size(srcs))
		return;
	family(p, "rtmeasure_irq_handler_seconds", "counter", "seconds",
	       "Time spent in interrupt and softirq handlers during the run (irq/softirq tracepoints).");
	handler_series(p, srcs, "rtmeasure_irq_handler_seconds", "total_ns");
	family(p, "rtmeasure_irq_handler_invocations", "counter", NULL,
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
static void noise_series(struct page *p, const json_t *cpus, const char *name, const char *type,
			 const char *key, bool ns, const char *help)
{
	const json_t *c;
	char buf[40];
	size_t i;

	family(p, name, type, ns ? "seconds" : NULL, help);
	json_array_foreach(cpus, i, c) {
		uint64_t v, gaps;
		int cpu = (int)json_integer_value(json_object_get(c, "cpu"));

		if (!json_u64(c, key, &v))
			continue;
		/* no gap: the largest lies below the threshold, not at 0 */
		if (!strcmp(type, "gauge") && (!json_u64(c, "gaps", &gaps) || !gaps))
			continue;
		if (ns)
			secs(buf, sizeof(buf), v);
		else
			snprintf(buf, sizeof(buf), "%" PRIu64, v);
		if (!strcmp(type, "counter"))
			counter(p, name, cpu, NULL, buf);
		else
			sample(p, name, "", cpu, NULL, buf);
	}
}

/*
 * A histogram per CPU from a section's "cpus" entries, each holding one in @key
 * (result.json's histogram form), bounds at rtm_prom_edges() as for the wake-ups.
 */
static void json_histograms(struct page *p, const json_t *cpus, const char *name,
			    const char *key, const char *help)
{
	struct rtm_hist *h = rtm_hist_alloc();
	struct rtm_error err = { "" };
	uint64_t le[RTM_PROM_NEDGES];
	char buf[40], lebuf[40];
	const json_t *c;
	size_t i;
	int e;

	if (!h)
		return;
	rtm_prom_edges(le);
	family(p, name, "histogram", "seconds", help);
	json_array_foreach(cpus, i, c) {
		const char *kv[] = { "le", lebuf, NULL };
		int cpu = (int)json_integer_value(json_object_get(c, "cpu"));
		struct rtm_prom_hist ph;

		/* a histogram that does not check out is left out, not shown wrong */
		if (rtm_hist_from_json(h, json_object_get(c, key), &err))
			continue;
		rtm_prom_hist_from(&ph, h, 0, 0);
		for (e = 0; e < ph.nle; e++) {
			secs(lebuf, sizeof(lebuf), le[e]);
			sample_u64(p, name, "_bucket", cpu, kv, ph.le_count[e]);
		}
		snprintf(lebuf, sizeof(lebuf), "+Inf");
		sample_u64(p, name, "_bucket", cpu, kv, ph.count);
		sample_u64(p, name, "_count", cpu, NULL, ph.count);
		sample(p, name, "_sum", cpu, NULL, secs(buf, sizeof(buf), ph.sum_ns));
		if (p->fmt == RTM_PROM_OPENMETRICS) {
			snprintf(buf, sizeof(buf), "%.3f", p->t->created_s);
			sample(p, name, "_created", cpu, NULL, buf);
		}
	}
	rtm_hist_free(h);
}

/*
 * noise --trace: the gaps' time per CPU by cause class (irq, softirq, nmi, thread,
 * rt_throttling, unexplained; lib/trace/noiseattr.c). A finished result has the causes
 * laid over every gap; a live page those laid so far (each gap once its CPU's
 * events are drained, within a second), so the counters only grow.
 */
static void noise_causes(struct page *p, const json_t *cpus)
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
	family(p, name, "counter", "seconds",
	       "Time of the gaps by cause (noise --trace): the innermost interrupt, softirq, "
	       "NMI or other thread in each gap, RT throttling, and what no event explains.");
	json_array_foreach(cpus, i, c) {
		int cpu = (int)json_integer_value(json_object_get(c, "cpu"));

		causes = json_object_get(c, "causes");
		for (k = 0; causes && k < sizeof(classes) / sizeof(classes[0]); k++) {
			const char *kv[] = { "cause", classes[k], NULL };

			snprintf(key, sizeof(key), "%s_ns", classes[k]);
			if (json_u64(causes, key, &v))
				counter(p, name, cpu, kv, secs(buf, sizeof(buf), v));
		}
	}
}

/*
 * sections.noise: noise, sampled time, gaps, largest gap and the gap histogram
 * per CPU, labelled probe="noise"; with noise --trace the time by cause.
 */
static void noise_metrics(struct page *p, const json_t *noise)
{
	const json_t *cpus = json_object_get(noise, "cpus");
	struct rtm_prom_target t = *p->t;
	struct page np = { p->f, p->fmt, &t };

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
static void timer_irq_metrics(struct page *p, const json_t *sec)
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
	family(p, um, "counter", NULL, "Probe timer starts without their expiry in the trace "
	       "(event=\"start\") and expiries without their start (event=\"expire\").");
	json_array_foreach(cpus, i, c) {
		int cpu = (int)json_integer_value(json_object_get(c, "cpu"));

		kv[1] = "start";
		if (json_u64(c, "unmatched_starts", &v))
			counter_u64(p, um, cpu, kv, v);
		kv[1] = "expire";
		if (json_u64(c, "unmatched_expires", &v))
			counter_u64(p, um, cpu, kv, v);
	}
}

/* 1 for each way the run was disturbed, 0 for the others known; reason="shared_cpus", ... */
static void disturbed(struct page *p, const struct rtm_disturbances *d, unsigned int known)
{
	int k;

	family(p, "rtmeasure_run_disturbed", "gauge", NULL,
	       "1 when the run was disturbed this way (shared_cpus: another rtmeasure measured "
	       "its CPUs; interrupted: a signal stopped it before its duration; missed_periods: "
	       "over 1% of its periods missed; hypervisor, emulated: a VM or an emulator).");
	for (k = 0; k < RTM_DISTURB_NKEYS; k++) {
		const char *kv[] = { "reason", rtm_disturb_keys[k], NULL };

		if (known & (1u << k))
			sample(p, "rtmeasure_run_disturbed", "", -1, kv,
			       rtm_disturbances_find(d, rtm_disturb_keys[k]) ? "1" : "0");
	}
}

int rtm_prom_write(FILE *f, enum rtm_prom_format fmt, const struct rtm_prom_target *t,
		   const struct rtm_prom_cpu *cpus, int n, const struct rtm_prom_run *run)
{
	struct page p = { f, fmt, t };

	if (n > 0) {	/* a noise run measures no wake-ups */
		histogram(&p, cpus, n);
		gauges(&p, cpus, n);
		counters(&p, cpus, n);
	}
	if (run && run->noise)
		noise_metrics(&p, run->noise);
	if (run && run->timer_irq)
		timer_irq_metrics(&p, run->timer_irq);
	if (run && run->trace_lost >= 0) {
		family(&p, "rtmeasure_trace_events_lost", "counter", NULL,
		       "Trace events the kernel dropped (buffer full) while tracing.");
		counter_u64(&p, "rtmeasure_trace_events_lost", -1, NULL, (uint64_t)run->trace_lost);
	}
	if (run && run->spikes_captured >= 0) {
		family(&p, "rtmeasure_spikes_captured", "counter", NULL,
		       "Spike windows (trace around a late wake-up) saved.");
		counter_u64(&p, "rtmeasure_spikes_captured", -1, NULL,
			    (uint64_t)run->spikes_captured);
	}
	if (run && run->irq)
		irq_metrics(&p, run->irq);
	if (run && run->disturbed && run->disturb_known)
		disturbed(&p, run->disturbed, run->disturb_known);
	family(&p, "rtmeasure_build", "info", NULL, "rtmeasure's version.");
	{
		const char *kv[] = { "version", PACKAGE_VERSION, NULL };

		sample(&p, "rtmeasure_build", "_info", -1, kv, "1");
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

int rtm_prom_write_result(FILE *f, enum rtm_prom_format fmt, const struct rtm_result *r,
			  struct rtm_error *err)
{
	struct rtm_prom_cpu *cpus = calloc((size_t)r->ncpus + 1, sizeof(*cpus));
	struct rtm_prom_run run = { .trace_lost = -1, .spikes_captured = -1 };
	struct rtm_prom_target t;
	const json_t *irq = json_object_get(r->sections, "irq");
	struct rtm_disturbances d;
	size_t i;
	int ret;

	if (!cpus)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	/*
	 * a noise run's page (rtmeasure_build_info too) says probe="noise", a run of
	 * the kernel's timerlat tracer (cyclic --backend timerlat) probe="timerlat"
	 */
	rtm_prom_target_from_sysinfo(&t, r->sysinfo, !r->ncpus && json_object_get(r->sections,
				     "noise") ? "noise" : !strcmp(json_string_value(
				     json_object_get(r->options, "backend")) ?: "", "timerlat") ?
				     "timerlat" : "timer", unix_time(r->created));
	for (i = 0; i < (size_t)r->ncpus; i++) {
		const struct rtm_result_cpu *c = &r->cpus[i];

		uint64_t above_ns, n = unplaced(r, c->cpu, &above_ns);

		cpus[i].cpu = c->cpu;
		rtm_prom_hist_from(&cpus[i].run, c->raw, n, above_ns);
		cpus[i].overruns = c->overruns;
		cpus[i].implied = c->corrected && c->corrected->count > c->raw->count ?
				  c->corrected->count - c->raw->count : 0;
	}
	run.noise = json_object_get(r->sections, "noise");
	run.timer_irq = json_object_get(r->sections, "timer_irq");
	if (irq) {
		run.irq = irq;
		if (json_is_integer(json_object_get(irq, "trace_lost")))
			run.trace_lost = json_integer_value(json_object_get(irq, "trace_lost"));
	}
	for (i = 0; i < json_array_size(r->events); i++) {
		const char *type = json_string_value(json_object_get(json_array_get(r->events, i),
								     "type"));

		if (type && !strcmp(type, "spike_capture"))
			run.spikes_captured = (run.spikes_captured < 0 ? 0 : run.spikes_captured) + 1;
	}
	rtm_result_disturbances(r, &d);
	run.disturbed = &d;
	run.disturb_known = (1u << RTM_DISTURB_NKEYS) - 1;	/* a finished run: every kind */
	ret = rtm_prom_write(f, fmt, &t, cpus, r->ncpus, &run);
	free(cpus);
	if (ret)
		rtm_error_set(err, "cannot write the metrics: %s", strerror(-ret));
	return ret;
}
