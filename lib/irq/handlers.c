// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * handlers.c - interrupt handler time from trace events.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "irq/handlers.h"
#include "core/jsonutil.h"
#include "core/units.h"

#define NR_SOFTIRQS 10

/* What is open on one CPU. Source indexes, -1 when nothing is open. */
struct cpu_state {
	int irq, vec, soft, thread;
	uint64_t irq_ts, vec_ts, soft_ts, thread_ts;
	int thread_pid;
	uint64_t soft_nested_ns;	/* hard IRQs and vectors inside the open softirq */
	uint64_t raise_ts[NR_SOFTIRQS];	/* first raise not yet run, 0: none */
};

struct rtm_irqacct {
	int ncpus;
	struct cpu_state *st;
	struct rtm_irqsrc *src;
	int nsrc;
	size_t cap;
	uint64_t unpaired;
	rtm_irqspan_cb span_cb;		/* cpuacct: each handler run as it closes */
	void *span_ctx;
};

const char *rtm_irqsrc_kind_name(enum rtm_irqsrc_kind k)
{
	switch (k) {
	case RTM_IRQSRC_IRQ:		return "irq";
	case RTM_IRQSRC_VECTOR:		return "vector";
	case RTM_IRQSRC_SOFTIRQ:	return "softirq";
	case RTM_IRQSRC_NMI:		return "nmi";
	case RTM_IRQSRC_THREAD:		return "thread";
	}
	return "?";
}

const char *rtm_softirq_name(unsigned int vec)
{
	static const char *const names[NR_SOFTIRQS] = { "HI", "TIMER", "NET_TX", "NET_RX",
		"BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };

	return vec < NR_SOFTIRQS ? names[vec] : "?";
}

struct rtm_irqacct *rtm_irqacct_alloc(int ncpus)
{
	struct rtm_irqacct *a;
	int c;

	if (ncpus <= 0)
		return NULL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->ncpus = ncpus;
	a->st = calloc((size_t)ncpus, sizeof(*a->st));
	if (!a->st) {
		free(a);
		return NULL;
	}
	for (c = 0; c < ncpus; c++) {
		a->st[c].irq = a->st[c].vec = a->st[c].soft = a->st[c].thread = -1;
		a->st[c].thread_pid = -1;
	}
	return a;
}

void rtm_irqacct_free(struct rtm_irqacct *a)
{
	int i;

	if (!a)
		return;
	for (i = 0; i < a->nsrc; i++) {
		free(a->src[i].cpu);
		rtm_hist_free(a->src[i].dur);
	}
	free(a->src);
	free(a->st);
	free(a);
}

/* The source of (kind, id) or, for vectors (id -1), of that name; made when new. */
static int source(struct rtm_irqacct *a, enum rtm_irqsrc_kind kind, int id, const char *name,
		  size_t name_len)
{
	struct rtm_irqsrc *s;
	int i;

	for (i = a->nsrc - 1; i >= 0; i--) {
		s = &a->src[i];
		if (s->kind != kind || s->id != id)
			continue;
		if (id >= 0 || (strlen(s->name) == name_len && !strncmp(s->name, name, name_len)))
			return i;
	}
	{
		struct rtm_irqsrc *n = rtm_grow(a->src, &a->cap, (size_t)a->nsrc, sizeof(*n), 32);

		if (!n)
			return -ENOMEM;
		a->src = n;
	}
	s = &a->src[a->nsrc];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->id = id;
	snprintf(s->name, sizeof(s->name), "%.*s", (int)name_len, name);
	s->cpu = calloc((size_t)a->ncpus, sizeof(*s->cpu));
	s->dur = rtm_hist_alloc();
	if (!s->cpu || !s->dur) {
		free(s->cpu);
		rtm_hist_free(s->dur);
		return -ENOMEM;
	}
	return a->nsrc++;
}

static void add(struct rtm_irqacct *a, int src, int cpu, uint64_t ns)
{
	struct rtm_irqacct_cpu *c = &a->src[src].cpu[cpu];

	c->count++;
	c->total_ns += ns;
	if (ns > c->max_ns)
		c->max_ns = ns;
	rtm_hist_record(a->src[src].dur, ns);
}

/* add() for a handler run from @start_ns to @end_ns, told to the span callback */
static void add_span(struct rtm_irqacct *a, int src, int cpu, uint64_t start_ns,
		     uint64_t end_ns, uint64_t ns)
{
	struct rtm_irqspan sp = { cpu, a->src[src].kind, start_ns, end_ns, ns, a->src[src].id,
				  a->src[src].name };

	add(a, src, cpu, ns);
	if (a->span_cb)
		a->span_cb(&sp, a->span_ctx);
}

void rtm_irqacct_set_span_cb(struct rtm_irqacct *a, rtm_irqspan_cb cb, void *ctx)
{
	a->span_cb = cb;
	a->span_ctx = ctx;
}

/* Close a handler opened at *@open_ts: account it; nested time goes to the softirq. */
static void close_handler(struct rtm_irqacct *a, struct cpu_state *st, int *open,
			  uint64_t open_ts, uint64_t ts, int cpu, bool nests_in_softirq)
{
	uint64_t d;

	if (*open < 0) {
		a->unpaired++;
		return;
	}
	d = ts > open_ts ? ts - open_ts : 0;
	add_span(a, *open, cpu, open_ts, ts, d);
	if (nests_in_softirq && st->soft >= 0 && open_ts >= st->soft_ts)
		st->soft_nested_ns += d;
	*open = -1;
}

static bool is_irq_thread(const char *comm)
{
	return !strncmp(comm, "irq/", 4) || !strncmp(comm, "ksoftirqd/", 10) ||
	       !strncmp(comm, "ktimers/", 8);
}

static int on_switch(struct rtm_irqacct *a, struct cpu_state *st, const struct rtm_event *ev)
{
	int s;

	if (st->thread >= 0 && ev->sw.prev_pid == st->thread_pid) {
		add(a, st->thread, ev->cpu, ev->ts_ns - st->thread_ts);
		st->thread = -1;
	}
	if (!is_irq_thread(ev->sw.next_comm))
		return 0;
	s = source(a, RTM_IRQSRC_THREAD, ev->sw.next_pid, ev->sw.next_comm,
		   strnlen(ev->sw.next_comm, RTM_COMM_LEN));
	if (s < 0)
		return s;
	st->thread = s;
	st->thread_pid = ev->sw.next_pid;
	st->thread_ts = ev->ts_ns;
	return 0;
}

/* The handlers' entries and exits: inline, rtm_irqacct_event() runs for every event. */
static inline int on_vector_entry(struct rtm_irqacct *a, struct cpu_state *st,
				  const struct rtm_event *ev)
{
	size_t len = strlen(ev->name);
	int s;

	/* "local_timer_entry" -> "local_timer" */
	len = len > 6 ? len - 6 : len;
	s = source(a, RTM_IRQSRC_VECTOR, -1, ev->name, len);
	if (s < 0)
		return s;
	st->vec = s;
	st->vec_ts = ev->ts_ns;
	return 0;
}

static inline int on_softirq_entry(struct rtm_irqacct *a, struct cpu_state *st,
				   const struct rtm_event *ev)
{
	unsigned int vec = ev->softirq.vec;
	int s;

	s = source(a, RTM_IRQSRC_SOFTIRQ, (int)vec, rtm_softirq_name(vec),
		   strlen(rtm_softirq_name(vec)));
	if (s < 0)
		return s;
	st->soft = s;
	st->soft_ts = ev->ts_ns;
	st->soft_nested_ns = 0;
	if (vec < NR_SOFTIRQS && st->raise_ts[vec]) {
		struct rtm_irqacct_cpu *c = &a->src[s].cpu[ev->cpu];
		uint64_t d = ev->ts_ns > st->raise_ts[vec] ? ev->ts_ns - st->raise_ts[vec] : 0;

		c->raised++;
		c->raise_delay_total_ns += d;
		if (d > c->raise_delay_max_ns)
			c->raise_delay_max_ns = d;
		st->raise_ts[vec] = 0;
	}
	return 0;
}

static inline void on_softirq_exit(struct rtm_irqacct *a, struct cpu_state *st,
				   const struct rtm_event *ev)
{
	if (st->soft < 0) {
		a->unpaired++;
		return;
	}
	/* the softirq's own time: without the interrupts nested in it */
	add_span(a, st->soft, ev->cpu, st->soft_ts, ev->ts_ns,
		 ev->ts_ns - st->soft_ts > st->soft_nested_ns ?
		 ev->ts_ns - st->soft_ts - st->soft_nested_ns : 0);
	st->soft = -1;
}

int rtm_irqacct_event(const struct rtm_event *ev, void *ctx)
{
	struct rtm_irqacct *a = ctx;
	struct cpu_state *st;
	unsigned int vec;
	int s;

	if (ev->cpu < 0 || ev->cpu >= a->ncpus)
		return 0;
	st = &a->st[ev->cpu];
	switch (ev->type) {
	case RTM_EV_IRQ_ENTRY:
		s = source(a, RTM_IRQSRC_IRQ, ev->irq.irq, ev->irq.name,
			   strnlen(ev->irq.name, sizeof(ev->irq.name)));
		if (s < 0)
			return s;
		st->irq = s;
		st->irq_ts = ev->ts_ns;
		break;
	case RTM_EV_IRQ_EXIT:
		close_handler(a, st, &st->irq, st->irq_ts, ev->ts_ns, ev->cpu, true);
		break;
	case RTM_EV_VECTOR_ENTRY:
		return on_vector_entry(a, st, ev);
	case RTM_EV_VECTOR_EXIT:
		close_handler(a, st, &st->vec, st->vec_ts, ev->ts_ns, ev->cpu, true);
		break;
	case RTM_EV_SOFTIRQ_RAISE:
		vec = ev->softirq.vec;
		if (vec < NR_SOFTIRQS && !st->raise_ts[vec])
			st->raise_ts[vec] = ev->ts_ns;
		break;
	case RTM_EV_SOFTIRQ_ENTRY:
		return on_softirq_entry(a, st, ev);
	case RTM_EV_SOFTIRQ_EXIT:
		on_softirq_exit(a, st, ev);
		break;
	case RTM_EV_NMI:
		s = source(a, RTM_IRQSRC_NMI, -1, "NMI", 3);
		if (s < 0)
			return s;
		add_span(a, s, ev->cpu, ev->ts_ns > ev->nmi.delta_ns ?
			 ev->ts_ns - ev->nmi.delta_ns : 0, ev->ts_ns, ev->nmi.delta_ns);
		break;
	case RTM_EV_SCHED_SWITCH:
		return on_switch(a, st, ev);
	default:
		break;
	}
	return 0;
}

void rtm_irqacct_reset(struct rtm_irqacct *a)
{
	int i;

	for (i = 0; i < a->nsrc; i++) {
		memset(a->src[i].cpu, 0, (size_t)a->ncpus * sizeof(*a->src[i].cpu));
		rtm_hist_reset(a->src[i].dur);
	}
	a->unpaired = 0;
}

int rtm_irqacct_ncpus(const struct rtm_irqacct *a)
{
	return a->ncpus;
}

const struct rtm_irqsrc *rtm_irqacct_sources(const struct rtm_irqacct *a, int *n)
{
	*n = a->nsrc;
	return a->src;
}

void rtm_irqsrc_total(const struct rtm_irqsrc *s, int ncpus, const struct rtm_cpulist *cpus,
		      struct rtm_irqacct_cpu *out)
{
	int c;

	memset(out, 0, sizeof(*out));
	for (c = 0; c < ncpus; c++) {
		const struct rtm_irqacct_cpu *x = &s->cpu[c];

		if (cpus && !rtm_cpulist_has(cpus, c))
			continue;
		out->count += x->count;
		out->total_ns += x->total_ns;
		if (x->max_ns > out->max_ns)
			out->max_ns = x->max_ns;
		out->raised += x->raised;
		out->raise_delay_total_ns += x->raise_delay_total_ns;
		if (x->raise_delay_max_ns > out->raise_delay_max_ns)
			out->raise_delay_max_ns = x->raise_delay_max_ns;
	}
}

/* /proc/interrupts' named x86 rows and the irq_vectors events of the same vectors */
static const struct {
	const char *row, *vectors[2];
} named_vectors[] = {
	{ "LOC", { "local_timer", NULL } },
	{ "RES", { "reschedule", NULL } },
	{ "CAL", { "call_function", "call_function_single" } },
	{ "IWI", { "irq_work", NULL } },
	{ "TRM", { "thermal_apic", NULL } },
	{ "THR", { "threshold_apic", NULL } },
	{ "DFR", { "deferred_error_apic", NULL } },
	{ "SPU", { "spurious_apic", NULL } },
	{ "ERR", { "error_apic", NULL } },
	{ "PLT", { "x86_platform_ipi", NULL } },
};

bool rtm_irqsrc_matches(const char *row_name, int row_irq, const char *kind, int id,
			const char *name)
{
	size_t i;

	if (row_irq >= 0)
		return !strcmp(kind, "irq") && id == row_irq;
	if (!strcmp(row_name, "NMI"))
		return !strcmp(kind, "nmi");
	if (strcmp(kind, "vector"))
		return false;
	for (i = 0; i < sizeof(named_vectors) / sizeof(named_vectors[0]); i++)
		if (!strcmp(row_name, named_vectors[i].row))
			return !strcmp(name, named_vectors[i].vectors[0]) ||
			       (named_vectors[i].vectors[1] &&
				!strcmp(name, named_vectors[i].vectors[1]));
	return false;
}

void rtm_irqacct_row_total(const struct rtm_irqacct *a, const char *row_name, int row_irq,
			   const struct rtm_cpulist *cpus, struct rtm_irqacct_cpu *out)
{
	struct rtm_irqacct_cpu t;
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; a && i < a->nsrc; i++) {
		const struct rtm_irqsrc *s = &a->src[i];

		if (!rtm_irqsrc_matches(row_name, row_irq, rtm_irqsrc_kind_name(s->kind), s->id,
					s->name))
			continue;
		rtm_irqsrc_total(s, a->ncpus, cpus, &t);
		out->count += t.count;
		out->total_ns += t.total_ns;
		if (t.max_ns > out->max_ns)
			out->max_ns = t.max_ns;
	}
}

uint64_t rtm_irqacct_unpaired(const struct rtm_irqacct *a)
{
	return a->unpaired;
}

static json_t *cpu_json(int cpu, const struct rtm_irqacct_cpu *c, bool softirq)
{
	json_t *o = json_pack("{s:i, s:o, s:o, s:o}", "cpu", cpu,
			      "count", rtm_json_u64(c->count), "total_ns", rtm_json_u64(c->total_ns),
			      "max_ns", rtm_json_u64(c->max_ns));

	if (o && softirq)
		json_object_update_new(o, json_pack("{s:o, s:o, s:o}",
			"raised", rtm_json_u64(c->raised),
			"raise_delay_total_ns", rtm_json_u64(c->raise_delay_total_ns),
			"raise_delay_max_ns", rtm_json_u64(c->raise_delay_max_ns)));
	return o;
}

json_t *rtm_irqacct_to_json(const struct rtm_irqacct *a)
{
	json_t *arr = json_array();
	int i, c;

	for (i = 0; i < a->nsrc; i++) {
		const struct rtm_irqsrc *s = &a->src[i];
		bool soft = s->kind == RTM_IRQSRC_SOFTIRQ;
		struct rtm_irqacct_cpu tot;
		json_t *per = json_array(), *o;

		for (c = 0; c < a->ncpus; c++)
			if (s->cpu[c].count)
				json_array_append_new(per, cpu_json(c, &s->cpu[c], soft));
		rtm_irqsrc_total(s, a->ncpus, NULL, &tot);
		o = cpu_json(-1, &tot, soft);
		json_object_del(o, "cpu");
		json_object_update_new(o, json_pack("{s:s, s:i, s:s, s:o, s:o}",
			"kind", rtm_irqsrc_kind_name(s->kind), "id", s->id, "name", s->name,
			"durations", rtm_hist_to_json(s->dur), "per_cpu", per));
		json_array_append_new(arr, o);
	}
	return json_pack("{s:o, s:o}", "sources", arr, "unpaired", rtm_json_u64(a->unpaired));
}
