// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * census_out.c - the spike census as result.json's sections.spike_census, its
 * check on load, and the sentence and monitor line from it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/census_priv.h"
#include "core/units.h"

static json_t *tally_json(enum rtm_census_cause cause, const char *culprit, uint64_t count,
			  uint64_t max_ns)
{
	return json_pack("{s:s, s:s, s:I, s:I}", "cause", rtm_census_cause_name(cause),
			 "culprit", culprit, "count", (json_int_t)count,
			 "max_latency_ns", (json_int_t)max_ns);
}

/* Sort culprit entries by count, largest first (stable for equal counts by name). */
static int by_count(const void *a, const void *b)
{
	const json_t *x = *(const json_t *const *)a, *y = *(const json_t *const *)b;
	json_int_t cx = json_integer_value(json_object_get(x, "count"));
	json_int_t cy = json_integer_value(json_object_get(y, "count"));

	if (cx != cy)
		return cx < cy ? 1 : -1;
	return strcmp(json_string_value(json_object_get(x, "culprit")),
		      json_string_value(json_object_get(y, "culprit")));
}

static json_t *sorted(json_t *arr)
{
	size_t n = json_array_size(arr), i;
	json_t **v = calloc(n ? n : 1, sizeof(*v)), *out;

	if (!v)
		return arr;
	for (i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(arr, i));
	qsort(v, n, sizeof(*v), by_count);
	out = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(out, v[i]);
	free(v);
	json_decref(arr);
	return out;
}

static json_t *verdict_json(const struct rtm_census_verdict *v)
{
	json_t *o = json_pack("{s:i, s:I, s:I, s:s, s:s, s:I, s:I}", "cpu", v->cpu,
			      "planned_mono_ns", (json_int_t)v->planned_ns,
			      "latency_ns", (json_int_t)v->latency_ns,
			      "cause", rtm_census_cause_name(v->cause), "culprit", v->culprit,
			      "culprit_ns", (json_int_t)v->culprit_ns,
			      "timer_irq_ns", (json_int_t)v->timer_irq_ns);

	if (o && *v->detail)
		json_object_set_new(o, "detail", json_string(v->detail));
	if (o && v->pid >= 0) {
		json_object_set_new(o, "comm", json_string(v->comm));
		json_object_set_new(o, "pid", json_integer(v->pid));
		json_object_set_new(o, "policy", json_string(v->policy));
		json_object_set_new(o, "priority", json_integer(v->priority));
	}
	return o;
}

json_t *rtm_census_to_json(const struct rtm_census *c)
{
	json_t *sec = json_object(), *cpus = json_array(), *all = json_array(), *list = json_array();
	size_t i, j;
	int k, cpu;

	if (!sec || !cpus || !all || !list) {
		json_decref(sec);
		json_decref(cpus);
		json_decref(all);
		json_decref(list);
		return NULL;
	}
	json_object_set_new(sec, "source", json_string("the probe's wake-ups over the bound, laid "
			    "over the streamed sched_switch, irq, softirq, irq_vectors, nmi and "
			    "timer events of their CPU"));
	json_object_set_new(sec, "bound_ns", json_integer((json_int_t)c->bound_ns));
	json_object_set_new(sec, "wakeups", json_integer((json_int_t)c->count));
	for (cpu = 0; cpu < c->ncpus; cpu++) {
		const struct cpu_state *s = &c->cpu[cpu];
		json_t *o, *bc, *cl;
		uint64_t n = 0;

		if (!s->watched)
			continue;
		bc = json_object();
		cl = json_array();
		for (k = 0; k < RTM_CENSUS_NCAUSES; k++) {
			json_object_set_new(bc, rtm_census_cause_name(k),
					    json_integer((json_int_t)s->by_cause[k]));
			n += s->by_cause[k];
		}
		for (i = 0; i < c->ntally; i++)
			if (c->tally[i].cpu == cpu)
				json_array_append_new(cl, tally_json(c->tally[i].cause,
						      c->tally[i].culprit, c->tally[i].count,
						      c->tally[i].max_latency_ns));
		o = json_pack("{s:i, s:I, s:o, s:o}", "cpu", cpu, "wakeups", (json_int_t)n,
			      "by_cause", bc, "culprits", sorted(cl));
		json_array_append_new(cpus, o);
	}
	/* the same culprit on several CPUs: one entry, counts summed */
	for (i = 0; i < c->ntally; i++) {
		const struct census_tally *t = &c->tally[i];
		uint64_t n = 0, max = 0;

		for (j = 0; j < i; j++)
			if (c->tally[j].cause == t->cause && !strcmp(c->tally[j].culprit, t->culprit))
				break;
		if (j < i)
			continue;
		for (j = i; j < c->ntally; j++)
			if (c->tally[j].cause == t->cause && !strcmp(c->tally[j].culprit, t->culprit)) {
				n += c->tally[j].count;
				if (c->tally[j].max_latency_ns > max)
					max = c->tally[j].max_latency_ns;
			}
		json_array_append_new(all, tally_json(t->cause, t->culprit, n, max));
	}
	json_object_set_new(sec, "causes", sorted(all));
	json_object_set_new(sec, "cpus", cpus);
	for (i = 0; i < c->nverdicts; i++)
		json_array_append_new(list, verdict_json(&c->verdicts[i]));
	json_object_set_new(sec, "list", list);
	json_object_set_new(sec, "list_truncated", json_boolean(c->list_truncated));
	json_object_set_new(sec, "dropped", json_integer((json_int_t)c->dropped));
	json_object_set_new(sec, "trace_lost", json_integer((json_int_t)c->lost));
	json_object_set_new(sec, "complete", json_boolean(!c->failed && !c->lost && !c->dropped &&
							  !c->seg_dropped));
	return sec;
}

/* ---------------------------------------------------------------- loading */

static int cause_index(const char *name)
{
	int k;

	for (k = 0; name && k < RTM_CENSUS_NCAUSES; k++)
		if (!strcmp(name, rtm_census_cause_name(k)))
			return k;
	return -1;
}

static bool is_u(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) >= 0;
}

/* A culprit entry ({cause, culprit, count, max_latency_ns}); NULL or what is wrong. */
static const char *bad_tally(const json_t *e)
{
	if (!json_is_object(e))
		return "must be an object";
	if (cause_index(json_string_value(json_object_get(e, "cause"))) < 0)
		return "\"cause\" is not one of the census's causes";
	if (!json_is_string(json_object_get(e, "culprit")))
		return "\"culprit\" must be a string";
	if (!is_u(e, "count") || !is_u(e, "max_latency_ns"))
		return "\"count\" and \"max_latency_ns\" must be integers >= 0";
	return NULL;
}

static const char *bad_cpu(const json_t *e)
{
	const json_t *bc = json_object_get(e, "by_cause"), *cl = json_object_get(e, "culprits"), *t;
	json_int_t sum = 0, tsum = 0;
	const char *why;
	size_t i;
	int k;

	if (!json_is_object(e) || !is_u(e, "cpu") || !is_u(e, "wakeups"))
		return "must be an object with \"cpu\" and \"wakeups\" (integers >= 0)";
	if (!json_is_object(bc) || !json_is_array(cl))
		return "needs \"by_cause\" (an object) and \"culprits\" (an array)";
	for (k = 0; k < RTM_CENSUS_NCAUSES; k++) {
		if (!is_u(bc, rtm_census_cause_name(k)))
			return "\"by_cause\" lacks a cause or has a negative count";
		sum += json_integer_value(json_object_get(bc, rtm_census_cause_name(k)));
	}
	if (sum != json_integer_value(json_object_get(e, "wakeups")))
		return "\"by_cause\" does not add up to \"wakeups\"";
	json_array_foreach(cl, i, t) {
		why = bad_tally(t);
		if (why)
			return why;
		tsum += json_integer_value(json_object_get(t, "count"));
	}
	return tsum == sum ? NULL : "\"culprits\" do not add up to \"wakeups\"";
}

static const char *bad_verdict(const json_t *e)
{
	const json_t *tirq = json_object_get(e, "timer_irq_ns");

	if (!json_is_object(e) || !is_u(e, "cpu") || !is_u(e, "planned_mono_ns") ||
	    !is_u(e, "latency_ns") || !is_u(e, "culprit_ns"))
		return "needs \"cpu\", \"planned_mono_ns\", \"latency_ns\", \"culprit_ns\" "
		       "(integers >= 0)";
	if (cause_index(json_string_value(json_object_get(e, "cause"))) < 0)
		return "\"cause\" is not one of the census's causes";
	if (!json_is_string(json_object_get(e, "culprit")))
		return "\"culprit\" must be a string";
	if (!json_is_integer(tirq) || json_integer_value(tirq) < -1)
		return "\"timer_irq_ns\" must be an integer >= -1";
	if (json_object_get(e, "pid") && (!json_is_integer(json_object_get(e, "pid")) ||
					  !json_is_string(json_object_get(e, "comm")) ||
					  !json_is_string(json_object_get(e, "policy")) ||
					  !json_is_integer(json_object_get(e, "priority"))))
		return "a task's \"pid\" and \"priority\" must be integers, \"comm\" and "
		       "\"policy\" strings";
	return NULL;
}

int rtm_census_check(const json_t *sec, const char *what, struct rtm_error *err)
{
	static const char *const keys[] = { "bound_ns", "wakeups", "dropped", "trace_lost" };
	const json_t *arr, *e;
	json_int_t total = 0;
	const char *why;
	size_t i, k;

	if (!json_is_object(sec))
		return rtm_error_set(err, "%s: sections.spike_census must be an object", what);
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (!is_u(sec, keys[k]))
			return rtm_error_set(err, "%s: sections.spike_census: \"%s\" must be an "
					     "integer >= 0", what, keys[k]);
	if (!json_is_boolean(json_object_get(sec, "complete")) ||
	    !json_is_boolean(json_object_get(sec, "list_truncated")))
		return rtm_error_set(err, "%s: sections.spike_census: \"complete\" and "
				     "\"list_truncated\" must be true or false", what);
	arr = json_object_get(sec, "causes");
	if (!json_is_array(arr))
		return rtm_error_set(err, "%s: sections.spike_census: \"causes\" must be an array",
				     what);
	json_array_foreach(arr, i, e)
		if ((why = bad_tally(e)))
			return rtm_error_set(err, "%s: sections.spike_census.causes[%zu] %s", what,
					     i, why);
	arr = json_object_get(sec, "cpus");
	if (!json_is_array(arr))
		return rtm_error_set(err, "%s: sections.spike_census: \"cpus\" must be an array",
				     what);
	json_array_foreach(arr, i, e) {
		if ((why = bad_cpu(e)))
			return rtm_error_set(err, "%s: sections.spike_census.cpus[%zu] %s", what, i,
					     why);
		total += json_integer_value(json_object_get(e, "wakeups"));
	}
	if (total != json_integer_value(json_object_get(sec, "wakeups")))
		return rtm_error_set(err, "%s: sections.spike_census: the CPUs' wake-ups do not add "
				     "up to \"wakeups\"", what);
	arr = json_object_get(sec, "list");
	if (!json_is_array(arr) || (json_int_t)json_array_size(arr) > total)
		return rtm_error_set(err, "%s: sections.spike_census: \"list\" must be an array of "
				     "at most \"wakeups\" entries", what);
	json_array_foreach(arr, i, e)
		if ((why = bad_verdict(e)))
			return rtm_error_set(err, "%s: sections.spike_census.list[%zu] %s", what, i,
					     why);
	return 0;
}

/* ---------------------------------------------------------------- output */

/*
 * How a culprit took its wake-ups, before its words: a handler or a task held the CPU
 * ("by irq 24 virtio0", "by cc1 pid 7 (OTHER nice 0)"); the timer and the switch were late
 * themselves ("with the timer interrupt late (hypervisor)"); untraced: "not in the trace".
 */
static const char *culprit_lead(const char *cause)
{
	if (!cause || !strcmp(cause, "untraced"))
		return "";
	if (!strcmp(cause, "timer_late") || !strcmp(cause, "wake_path"))
		return "with the ";
	return "by ";
}

/* ": 6 by rtm-inject pid 6950 (FIFO 99), 1 with the timer ..., 2 other" after @off. */
static void put_culprits(const json_t *arr, int top, char *buf, size_t len, size_t off)
{
	json_int_t rest = 0;
	const json_t *e;
	size_t i;
	int w;

	json_array_foreach(arr, i, e) {
		json_int_t k = json_integer_value(json_object_get(e, "count"));

		if ((int)i >= top) {
			rest += k;
			continue;
		}
		if (off >= len)
			return;
		w = snprintf(buf + off, len - off, "%s %lld %s%s", i ? "," : ":", (long long)k,
			     culprit_lead(json_string_value(json_object_get(e, "cause"))),
			     json_string_value(json_object_get(e, "culprit")));
		off = w > 0 && off + (size_t)w < len ? off + (size_t)w : len;
	}
	if (rest && off < len)
		snprintf(buf + off, len - off, ", %lld other", (long long)rest);
}

void rtm_census_sentence(const json_t *sec, char *buf, size_t len, int top)
{
	json_int_t n = json_integer_value(json_object_get(sec, "wakeups"));
	char bound[16];
	int w;

	rtm_fmt_ns(bound, sizeof(bound), (uint64_t)json_integer_value(json_object_get(sec,
		   "bound_ns")));
	if (!n) {
		snprintf(buf, len, "no wake-up over %s", bound);
		return;
	}
	w = snprintf(buf, len, "%lld wake-up%s over %s", (long long)n, n == 1 ? "" : "s", bound);
	if (w > 0 && (size_t)w < len)
		put_culprits(json_object_get(sec, "causes"), top, buf, len, (size_t)w);
}

void rtm_census_cpu_sentence(const json_t *cpu, char *buf, size_t len, int top)
{
	json_int_t n = json_integer_value(json_object_get(cpu, "wakeups"));
	long long id = json_integer_value(json_object_get(cpu, "cpu"));
	int w;

	if (!n) {
		snprintf(buf, len, "CPU %lld: no late wake-up", id);
		return;
	}
	w = snprintf(buf, len, "CPU %lld: %lld late wake-up%s", id, (long long)n, n == 1 ? "" : "s");
	if (w > 0 && (size_t)w < len)
		put_culprits(json_object_get(cpu, "culprits"), top, buf, len, (size_t)w);
}

void rtm_census_line(const struct rtm_census *c, char *buf, size_t len)
{
	json_t *sec = rtm_census_to_json(c);

	if (!sec) {
		snprintf(buf, len, "census: unknown (out of memory)");
		return;
	}
	rtm_census_sentence(sec, buf, len, 3);
	json_decref(sec);
}
