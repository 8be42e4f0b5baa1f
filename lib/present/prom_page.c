// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prom_page.c - the writers every Prometheus family is written with: a
 * family's header, samples with the target labels, counters (_total, and
 * _created in OpenMetrics), exact seconds (prom_priv.h).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "present/prom_priv.h"

/* @ns as exact decimal seconds: "0.000035", "3.5", "0" */
const char *rtm_prom_secs(char *buf, size_t len, uint64_t ns)
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
void rtm_prom_family(struct rtm_prom_page *p, const char *name, const char *type, const char *unit,
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
void rtm_prom_sample(struct rtm_prom_page *p, const char *name, const char *suffix, int cpu,
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

void rtm_prom_sample_u64(struct rtm_prom_page *p, const char *name, const char *suffix, int cpu,
		       const char *const *extra, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	rtm_prom_sample(p, name, suffix, cpu, extra, buf);
}

/* A counter's rtm_prom_sample(s): _total, and _created in OpenMetrics. */
void rtm_prom_counter(struct rtm_prom_page *p, const char *name, int cpu, const char *const *extra,
		    const char *value)
{
	char buf[40];

	rtm_prom_sample(p, name, "_total", cpu, extra, value);
	if (p->fmt == RTM_PROM_OPENMETRICS) {
		snprintf(buf, sizeof(buf), "%.3f", p->t->created_s);
		rtm_prom_sample(p, name, "_created", cpu, extra, buf);
	}
}

void rtm_prom_counter_u64(struct rtm_prom_page *p, const char *name, int cpu,
			const char *const *extra, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	rtm_prom_counter(p, name, cpu, extra, buf);
}
