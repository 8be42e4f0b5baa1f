// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: interrupt handler time from events. A hand-made event sequence
 * with known answers (nesting, raise-to-run, IRQ threads, unpaired exits), then
 * the raw pages recorded on this VM (tests/data/trace-vm-6.18) decoded through
 * libtraceevent: the accounting must agree with the events themselves.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irq/handlers.h"
#include "../tap.h"

static struct rtm_event ev(uint64_t ts, int cpu, enum rtm_ev_type type, const char *name)
{
	struct rtm_event e;

	memset(&e, 0, sizeof(e));
	e.ts_ns = ts;
	e.cpu = cpu;
	e.type = type;
	e.name = name;
	e.system = "";
	return e;
}

static const struct rtm_irqsrc *find(const struct rtm_irqacct *a, enum rtm_irqsrc_kind k,
				     const char *name)
{
	const struct rtm_irqsrc *s;
	int n, i;

	s = rtm_irqacct_sources(a, &n);
	for (i = 0; i < n; i++)
		if (s[i].kind == k && !strcmp(s[i].name, name))
			return &s[i];
	return NULL;
}

static void synthetic(void)
{
	struct rtm_irqacct *a = rtm_irqacct_alloc(2);
	struct rtm_event e[16];
	const struct rtm_irqsrc *s;
	struct rtm_irqacct_cpu t;
	json_t *j;
	int n = 0, i;

	e[n] = ev(1000, 0, RTM_EV_IRQ_ENTRY, "irq_handler_entry");
	e[n].irq.irq = 24;
	strcpy(e[n++].irq.name, "virtio0");
	e[n] = ev(3000, 0, RTM_EV_IRQ_EXIT, "irq_handler_exit");
	e[n++].irq.irq = 24;
	e[n] = ev(3100, 0, RTM_EV_SOFTIRQ_RAISE, "softirq_raise");
	e[n++].softirq.vec = 3;
	e[n] = ev(3500, 0, RTM_EV_SOFTIRQ_ENTRY, "softirq_entry");
	e[n++].softirq.vec = 3;
	e[n] = ev(4000, 0, RTM_EV_IRQ_ENTRY, "irq_handler_entry");	/* nested in NET_RX */
	e[n].irq.irq = 24;
	strcpy(e[n++].irq.name, "virtio0");
	e[n] = ev(4500, 0, RTM_EV_IRQ_EXIT, "irq_handler_exit");
	e[n++].irq.irq = 24;
	e[n] = ev(6000, 0, RTM_EV_SOFTIRQ_EXIT, "softirq_exit");
	e[n++].softirq.vec = 3;
	e[n++] = ev(7000, 0, RTM_EV_VECTOR_ENTRY, "local_timer_entry");
	e[n++] = ev(7300, 0, RTM_EV_VECTOR_EXIT, "local_timer_exit");
	e[n] = ev(7400, 1, RTM_EV_NMI, "nmi_handler");
	e[n++].nmi.delta_ns = 1234;
	e[n] = ev(8000, 1, RTM_EV_SCHED_SWITCH, "sched_switch");
	e[n].sw.prev_pid = 1;
	e[n].sw.next_pid = 88;
	strcpy(e[n++].sw.next_comm, "irq/24-virtio0");
	e[n] = ev(9500, 1, RTM_EV_SCHED_SWITCH, "sched_switch");
	e[n].sw.prev_pid = 88;
	e[n].sw.next_pid = 0;
	strcpy(e[n++].sw.next_comm, "swapper/1");
	e[n] = ev(10000, 1, RTM_EV_IRQ_EXIT, "irq_handler_exit");	/* entry before the trace */
	e[n++].irq.irq = 25;
	e[n] = ev(11000, 5, RTM_EV_IRQ_EXIT, "irq_handler_exit");	/* CPU out of range */
	e[n++].irq.irq = 25;

	for (i = 0; i < n; i++)
		rtm_irqacct_event(&e[i], a);

	s = find(a, RTM_IRQSRC_IRQ, "virtio0");
	ok(s && s->id == 24, "IRQ 24 (virtio0) is a source");
	if (s) {
		is_u64(s->cpu[0].count, 2, "IRQ 24: 2 handlers on CPU 0");
		is_u64(s->cpu[0].total_ns, 2500, "IRQ 24: 2000 + 500 ns");
		is_u64(s->cpu[0].max_ns, 2000, "IRQ 24: longest 2000 ns");
		is_u64(s->dur->count, 2, "IRQ 24: 2 durations in its histogram");
	}
	s = find(a, RTM_IRQSRC_SOFTIRQ, "NET_RX");
	ok(s && s->id == 3, "softirq NET_RX is a source");
	if (s) {
		is_u64(s->cpu[0].total_ns, 2000, "NET_RX: 2500 ns less the 500 ns IRQ nested in it");
		is_u64(s->cpu[0].raised, 1, "NET_RX: one raise followed by a run");
		is_u64(s->cpu[0].raise_delay_max_ns, 400, "NET_RX: raise -> run 400 ns");
	}
	s = find(a, RTM_IRQSRC_VECTOR, "local_timer");
	ok(s && s->cpu[0].total_ns == 300, "vector local_timer: 300 ns");
	s = find(a, RTM_IRQSRC_NMI, "NMI");
	ok(s && s->cpu[1].total_ns == 1234, "NMI: its own delta_ns on CPU 1");
	s = find(a, RTM_IRQSRC_THREAD, "irq/24-virtio0");
	ok(s && s->id == 88 && s->cpu[1].total_ns == 1500 && s->cpu[1].count == 1,
	   "IRQ thread irq/24-virtio0 (pid 88) ran 1500 ns on CPU 1");
	ok(!find(a, RTM_IRQSRC_THREAD, "swapper/1"), "the idle task is not an IRQ thread");
	is_u64(rtm_irqacct_unpaired(a), 1, "an exit without its entry is counted, not timed");
	ok(!find(a, RTM_IRQSRC_IRQ, "") , "no source made from an unpaired exit");

	s = find(a, RTM_IRQSRC_IRQ, "virtio0");
	if (s) {
		struct rtm_cpulist one = { 1, (int[]){ 1 } };

		rtm_irqsrc_total(s, 2, &one, &t);
		is_u64(t.count, 0, "total over CPU 1 only: no IRQ 24 there");
		rtm_irqsrc_total(s, 2, NULL, &t);
		is_u64(t.count, 2, "total over all CPUs");
	}

	j = rtm_irqacct_to_json(a);
	ok(j && json_array_size(json_object_get(j, "sources")) == 5,
	   "JSON lists the 5 sources");
	ok(json_integer_value(json_object_get(j, "unpaired")) == 1, "JSON: unpaired 1");
	{
		json_t *src0 = json_array_get(json_object_get(j, "sources"), 0);

		is_str(json_string_value(json_object_get(src0, "kind")), "irq", "JSON kind");
		ok(json_integer_value(json_object_get(src0, "total_ns")) == 2500 &&
		   json_array_size(json_object_get(src0, "per_cpu")) == 1 &&
		   json_integer_value(json_object_get(json_object_get(src0, "durations"),
						      "count")) == 2,
		   "JSON: totals, only CPUs with events, the durations histogram");
	}
	json_decref(j);

	rtm_irqacct_reset(a);
	s = find(a, RTM_IRQSRC_IRQ, "virtio0");
	ok(s && s->cpu[0].count == 0 && s->dur->count == 0, "reset clears the counts");
	rtm_irqacct_free(a);
}

/* Recorded pages: every paired handler is accounted once. */
struct tally {
	struct rtm_irqacct *a;
	long irq_entries, irq_exits, soft_entries, soft_exits;
};

static int count_and_feed(const struct rtm_event *e, void *arg)
{
	struct tally *t = arg;

	t->irq_entries += e->type == RTM_EV_IRQ_ENTRY;
	t->irq_exits += e->type == RTM_EV_IRQ_EXIT;
	t->soft_entries += e->type == RTM_EV_SOFTIRQ_ENTRY;
	t->soft_exits += e->type == RTM_EV_SOFTIRQ_EXIT;
	return rtm_irqacct_event(e, t->a);
}

static void recorded(void)
{
	const char *data = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct rtm_error err = { "" };
	struct tally t = { 0 };
	struct rtm_irqacct_cpu tot;
	const struct rtm_irqsrc *s;
	struct rtm_tracedec *d;
	uint64_t lost = 0, soft = 0, irqs = 0;
	int cpu, n, i;
	char *page;

	snprintf(dir, sizeof(dir), "%s/trace-vm-6.18", data);
	d = rtm_tracedec_alloc(dir, &err);
	if (!ok(d != NULL, "formats of kernel 6.18 load (%s)", err.msg))
		return;
	t.a = rtm_irqacct_alloc(2);
	page = malloc(4096);
	for (cpu = 0; cpu < 2; cpu++) {
		FILE *fp;

		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
		fp = fopen(path, "r");
		while (fp && fread(page, 1, 4096, fp) == 4096)
			rtm_tracedec_page(d, page, cpu, count_and_feed, &t, &lost);
		if (fp)
			fclose(fp);
	}
	s = rtm_irqacct_sources(t.a, &n);
	for (i = 0; i < n; i++) {
		rtm_irqsrc_total(&s[i], 2, NULL, &tot);
		if (s[i].kind == RTM_IRQSRC_SOFTIRQ)
			soft += tot.count;
		if (s[i].kind == RTM_IRQSRC_IRQ)
			irqs += tot.count;
		ok(tot.count == s[i].dur->count && tot.max_ns == s[i].dur->max_ns,
		   "%s %s: per-CPU figures match its histogram (%llu handlers, max %llu ns)",
		   rtm_irqsrc_kind_name(s[i].kind), s[i].name, (unsigned long long)tot.count,
		   (unsigned long long)tot.max_ns);
	}
	ok(t.soft_entries > 0, "%ld softirq entries in the recording", t.soft_entries);
	ok(soft <= (uint64_t)t.soft_exits && soft + 2 >= (uint64_t)t.soft_exits,
	   "softirq runs accounted (%llu) = exits seen (%ld), but for ones open at the start",
	   (unsigned long long)soft, t.soft_exits);
	ok(irqs <= (uint64_t)t.irq_exits, "hard IRQs accounted (%llu) <= exits (%ld)",
	   (unsigned long long)irqs, t.irq_exits);
	ok(find(t.a, RTM_IRQSRC_VECTOR, "local_timer") != NULL,
	   "the local timer vector is accounted");
	free(page);
	rtm_irqacct_free(t.a);
	rtm_tracedec_free(d);
}

int main(void)
{
	synthetic();
	recorded();
	return tap_done();
}
