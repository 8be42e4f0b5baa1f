// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iocause_out.c - the miss causes as result.json's sections.io.causes, and the
 * sentences people read of them (iocause.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonutil.h"
#include "core/units.h"
#include "trace/iocause_priv.h"

static int tally_by_count(const void *a, const void *b)
{
	const struct ioc_tally *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->culprit, y->culprit);
}

static int atally_by_misses(const void *a, const void *b)
{
	const struct ioc_atally *x = a, *y = b;

	if (x->misses != y->misses)
		return x->misses < y->misses ? 1 : -1;
	if (x->queued + x->in_flight != y->queued + y->in_flight)
		return x->queued + x->in_flight < y->queued + y->in_flight ? 1 : -1;
	return x->pid - y->pid;
}

static json_t *ahead_json(const struct rtm_iocause_ahead *a)
{
	char prio[16];

	return json_pack("{s:s, s:i, s:s, s:s, s:i, s:i}", "comm", a->comm, "pid", a->pid,
			 "ioprio", rtm_iocause_ioprio_str(a->ioprio, prio, sizeof(prio)),
			 "rwbs", a->rwbs, "queued", (int)a->queued, "in_flight", (int)a->in_flight);
}

static json_t *verdict_json(const struct rtm_iocause_verdict *v)
{
	json_t *o, *ahead = json_array();
	char prio[16];
	int k;

	o = json_pack("{s:s, s:o, s:o, s:s, s:s}", "op", v->op,
		      "planned_mono_ns", rtm_json_u64(v->planned_ns),
		      "latency_ns", rtm_json_u64(v->latency_ns),
		      "cause", rtm_iocause_cause_name(v->cause), "culprit", v->culprit);
	if (!o || !ahead) {
		json_decref(o);
		json_decref(ahead);
		return NULL;
	}
	for (k = 0; k < RTM_IOPART_N; k++)
		json_object_set_new(o, rtm_iocause_part_key(k), rtm_json_u64(v->part_ns[k]));
	json_object_set_new(o, "issue_by", v->issue_by[0] ? json_string(v->issue_by) : json_null());
	json_object_set_new(o, "wakeup_by", v->wakeup_by[0] ? json_string(v->wakeup_by) :
			    json_null());
	json_object_set_new(o, "woken_ns", v->woken_ns == UINT64_MAX ? json_null() :
			    rtm_json_u64(v->woken_ns));
	json_object_set_new(o, "request", !v->request ? json_null() :
			    json_pack("{s:o, s:i, s:s, s:s}", "sector", rtm_json_u64(v->sector),
				      "nr_sector", (int)v->nr_sector, "rwbs", v->rwbs, "ioprio",
				      rtm_iocause_ioprio_str(v->ioprio, prio, sizeof(prio))));
	for (k = 0; k < v->nahead; k++)
		json_array_append_new(ahead, ahead_json(&v->ahead[k]));
	json_object_set_new(o, "ahead", ahead);
	json_object_set_new(o, "queued", json_integer(v->queued));
	json_object_set_new(o, "in_flight", json_integer(v->in_flight));
	return o;
}

static json_t *causes_json(const struct rtm_iocause *c)
{
	struct ioc_tally *t = malloc((c->ntally ? c->ntally : 1) * sizeof(*t));
	json_t *arr = json_array();
	size_t i;

	if (!t || !arr) {
		free(t);
		json_decref(arr);
		return NULL;
	}
	if (c->ntally) {	/* none: the array may be NULL */
		memcpy(t, c->tally, c->ntally * sizeof(*t));
		qsort(t, c->ntally, sizeof(*t), tally_by_count);
	}
	for (i = 0; i < c->ntally; i++)
		json_array_append_new(arr, json_pack("{s:s, s:s, s:o, s:o}", "cause",
				      rtm_iocause_cause_name(t[i].cause), "culprit", t[i].culprit,
				      "count", rtm_json_u64(t[i].count),
				      "max_latency_ns", rtm_json_u64(t[i].max_ns)));
	free(t);
	return arr;
}

static json_t *aheads_json(const struct rtm_iocause *c)
{
	struct ioc_atally *t = malloc((c->nat ? c->nat : 1) * sizeof(*t));
	json_t *arr = json_array();
	char prio[16];
	size_t i;

	if (!t || !arr) {
		free(t);
		json_decref(arr);
		return NULL;
	}
	if (c->nat) {
		memcpy(t, c->at, c->nat * sizeof(*t));
		qsort(t, c->nat, sizeof(*t), atally_by_misses);
	}
	for (i = 0; i < c->nat; i++)
		json_array_append_new(arr, json_pack("{s:s, s:i, s:s, s:s, s:o, s:o, s:o, s:o}",
				      "comm", t[i].comm, "pid", t[i].pid, "ioprio",
				      rtm_iocause_ioprio_str(t[i].ioprio, prio, sizeof(prio)),
				      "rwbs", t[i].rwbs, "misses", rtm_json_u64(t[i].misses),
				      "queued", rtm_json_u64(t[i].queued),
				      "in_flight", rtm_json_u64(t[i].in_flight),
				      "max_latency_ns", rtm_json_u64(t[i].max_ns)));
	free(t);
	return arr;
}

json_t *rtm_iocause_to_json(const struct rtm_iocause *c)
{
	json_t *sec, *bc = json_object(), *parts = json_object(), *list = json_array();
	char dev[24];
	size_t i;
	int k;

	snprintf(dev, sizeof(dev), "%u:%u", c->dev >> 20, c->dev & ((1U << 20) - 1));
	for (k = 0; bc && k < RTM_IOCAUSE_NCAUSES; k++)
		json_object_set_new(bc, rtm_iocause_cause_name(k), rtm_json_u64(c->by_cause[k]));
	for (k = 0; parts && k < RTM_IOPART_N; k++)
		json_object_set_new(parts, rtm_iocause_part_key(k), rtm_json_u64(c->parts[k]));
	for (i = 0; list && i < c->nv; i++)
		json_array_append_new(list, verdict_json(&c->v[i]));
	sec = json_pack("{s:s, s:s, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:b}",
		"source", "the probe's misses laid over the block_rq_insert, block_rq_issue and "
			  "block_rq_complete events of its device and the sched_switch and "
			  "sched_wakeup events of its CPU",
		"dev", dev, "cpu", c->cpu,
		"deadline_ns", rtm_json_u64(c->deadline_ns),
		"misses", rtm_json_u64(c->count),
		"by_cause", bc ? bc : json_null(),
		"causes", causes_json(c),
		"ahead", aheads_json(c),
		"parts_ns", parts ? parts : json_null(),
		"list", list ? list : json_null(),
		"list_truncated", c->list_truncated,
		"not_listed", rtm_json_u64(c->not_listed),
		"trace_lost", rtm_json_u64(c->lost),
		"complete", !c->failed && !c->lost && !c->not_listed);
	return sec;
}

/* ---------------------------------------------------------------- sentences */

/* A cause with its culprit in words: "queued behind fio pid 8 (WS, be:4)". */
static int phrase(const char *cause, const char *culprit, char *buf, size_t len)
{
	bool none = !culprit || !strcmp(culprit, "none");

	if (!cause)
		return snprintf(buf, len, "?");
	if (!strcmp(cause, "issue_late") || !strcmp(cause, "wakeup"))
		return snprintf(buf, len, "%s%s%s", *cause == 'i' ? "issued late" : "woken late",
				none ? ", nothing else on the CPU" : " by ", none ? "" : culprit);
	if (!strcmp(cause, "queued") || !strcmp(cause, "device"))
		return snprintf(buf, len, "%s%s%s", *cause == 'q' ? "queued" : "on the device",
				none ? " with no request ahead" : " behind ", none ? "" : culprit);
	if (!strcmp(cause, "syscall"))
		return snprintf(buf, len, "in the system call%s%s%s", none ? "" : " (",
				none ? "" : culprit, none ? "" : ")");
	return snprintf(buf, len, "untraced (%s)", culprit ? culprit : "?");
}

void rtm_iocause_sentence(const json_t *sec, char *buf, size_t len, int top)
{
	json_int_t n = json_integer_value(json_object_get(sec, "misses")), rest = 0;
	const json_t *e;
	char dl[16], words[160];
	size_t i, off;
	int w;

	rtm_fmt_ns(dl, sizeof(dl), (uint64_t)json_integer_value(json_object_get(sec,
		   "deadline_ns")));
	if (!n) {
		snprintf(buf, len, "no miss over %s", dl);
		return;
	}
	w = snprintf(buf, len, "%lld miss%s over %s", (long long)n, n == 1 ? "" : "es", dl);
	off = w > 0 && (size_t)w < len ? (size_t)w : len;
	json_array_foreach(json_object_get(sec, "causes"), i, e) {
		json_int_t k = json_integer_value(json_object_get(e, "count"));

		if ((int)i >= top) {
			rest += k;
			continue;
		}
		phrase(json_string_value(json_object_get(e, "cause")),
		       json_string_value(json_object_get(e, "culprit")), words, sizeof(words));
		if (off >= len)
			return;
		w = snprintf(buf + off, len - off, "%s %lld %s", i ? "," : ":", (long long)k, words);
		off = w > 0 && off + (size_t)w < len ? off + (size_t)w : len;
	}
	if (rest && off < len)
		snprintf(buf + off, len - off, ", %lld other", (long long)rest);
}

static uint64_t u(const json_t *o, const char *key)
{
	return (uint64_t)json_integer_value(json_object_get(o, key));
}

/* "; ahead: 14 requests (2 queued, 12 in flight), 12 of fio pid 8 (WS, be:4), ..." */
static void put_ahead(const json_t *m, char *buf, size_t len, size_t *off)
{
	uint64_t q = u(m, "queued"), f = u(m, "in_flight");
	const json_t *a;
	size_t i;

	if (!q && !f)
		return;
	rtm_fmt_put(buf, len, off, "; ahead of it %llu request%s (%llu queued, %llu in flight)",
	    (unsigned long long)(q + f), q + f == 1 ? "" : "s", (unsigned long long)q,
	    (unsigned long long)f);
	json_array_foreach(json_object_get(m, "ahead"), i, a)
		rtm_fmt_put(buf, len, off, "%s %llu of %s pid %lld (%s, %s)", i ? "," : ":",
		    (unsigned long long)(u(a, "queued") + u(a, "in_flight")),
		    json_string_value(json_object_get(a, "comm")),
		    json_integer_value(json_object_get(a, "pid")),
		    json_string_value(json_object_get(a, "rwbs")),
		    json_string_value(json_object_get(a, "ioprio")));
}

void rtm_iocause_miss_sentence(const json_t *m, uint64_t start_ns, char *buf, size_t len)
{
	const char *cause = json_string_value(json_object_get(m, "cause"));
	const char *by;
	uint64_t planned = u(m, "planned_mono_ns"), sys;
	char t[16], lat[16], x[16], words[160];
	size_t off = 0;

	rtm_fmt_ns(t, sizeof(t), planned > start_ns ? planned - start_ns : 0);
	rtm_fmt_ns(lat, sizeof(lat), u(m, "latency_ns"));
	phrase(cause, json_string_value(json_object_get(m, "culprit")), words, sizeof(words));
	rtm_fmt_put(buf, len, &off, "%s at %s, %s: %s", json_string_value(json_object_get(m, "op")),
		    t, lat, words);
	if (u(m, "issue_late_ns")) {
		by = json_string_value(json_object_get(m, "issue_by"));
		rtm_fmt_put(buf, len, &off, "; issued %s late%s%s%s", rtm_fmt_ns(x, sizeof(x),
		    u(m, "issue_late_ns")), by ? " (" : "", by ? by : "", by ? " ran)" : "");
	}
	if (cause && !strcmp(cause, "untraced"))
		return;
	if (u(m, "queued_ns"))
		rtm_fmt_put(buf, len, &off, "; queued %s",
			    rtm_fmt_ns(x, sizeof(x), u(m, "queued_ns")));
	if (json_is_object(json_object_get(m, "request")))
		rtm_fmt_put(buf, len, &off, "; on the device %s", rtm_fmt_ns(x, sizeof(x),
		    u(m, "device_ns")));
	if (u(m, "wakeup_ns")) {
		by = json_string_value(json_object_get(m, "wakeup_by"));
		rtm_fmt_put(buf, len, &off, "; switched in %s after completion%s%s%s",
		    rtm_fmt_ns(x, sizeof(x), u(m, "wakeup_ns")), by ? " (" : "", by ? by : "",
		    by ? " ran)" : "");
	}
	sys = u(m, "submit_ns") + u(m, "return_ns");
	if (sys)
		rtm_fmt_put(buf, len, &off, "; %s in the system call",
			    rtm_fmt_ns(x, sizeof(x), sys));
	put_ahead(m, buf, len, &off);
}
