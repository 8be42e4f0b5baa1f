// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the timerlat backend (lib/probe/ktracer_timerlat.c) without root or
 * tracefs: the ftrace:timerlat samples recorded on Debian's 6.1 PREEMPT_RT
 * kernel in the kernel lab (tests/data/trace-rt-6.1-timerlat: raw pages +
 * formats) decoded and put into a result, checked against the kernel's own
 * text listing of the same buffer (listing.txt there, read here); lost
 * samples from seqnum gaps; timerlat's global settings saved, changed and
 * restored on a fake tracefs tree.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/hist.h"
#include "probe/ktracer.h"
#include "result/result.h"
#include "trace/timerirq.h"
#include "tracefs/tracedec.h"
#include "../tap.h"

#define eq(got, want, ...) do {							\
	unsigned long long g_ = (unsigned long long)(got);			\
	unsigned long long w_ = (unsigned long long)(want);			\
	if (!ok(g_ == w_, __VA_ARGS__))						\
		diag("got %llu, want %llu", g_, w_);				\
} while (0)

/* listing.txt's per-CPU, per-context line */
struct ref {
	unsigned long long count, first, last, min, max, sum;
	bool have;
};

/* A decoded sample (the recording holds 300) */
struct smp {
	int cpu, ctx;
	unsigned int seq;
	uint64_t lat;
};

struct seen {
	struct rtm_timerlat_acc *acc;
	struct smp s[1024];
	int n, other;
	struct ref got[2][2];		/* [cpu][ctx] from the decoded events */
};

static int on_event(const struct rtm_event *ev, void *arg)
{
	struct seen *s = arg;
	struct ref *g;

	if (ev->type != RTM_EV_TIMERLAT || ev->cpu < 0 || ev->cpu > 1 ||
	    ev->timerlat.context < 0 || ev->timerlat.context > 1) {
		s->other++;
		return 0;
	}
	if (s->n < 1024)
		s->s[s->n++] = (struct smp){ ev->cpu, ev->timerlat.context, ev->timerlat.seqnum,
					     ev->timerlat.latency_ns };
	g = &s->got[ev->cpu][ev->timerlat.context];
	if (!g->have) {
		g->first = ev->timerlat.seqnum;
		g->min = g->max = ev->timerlat.latency_ns;
	}
	g->have = true;
	g->count++;
	g->last = ev->timerlat.seqnum;
	g->sum += ev->timerlat.latency_ns;
	if (ev->timerlat.latency_ns < g->min)
		g->min = ev->timerlat.latency_ns;
	if (ev->timerlat.latency_ns > g->max)
		g->max = ev->timerlat.latency_ns;
	return rtm_timerlat_acc_event(ev, s->acc);
}

/* listing.txt: the per-CPU lines into @ref, the first sample lines into @first. */
static int read_listing(const char *dir, struct ref ref[2][2], struct smp *first, int max)
{
	char path[PATH_MAX], line[512], ctx[16];
	int n = 0, cpu;
	struct ref r;
	FILE *f;

	snprintf(path, sizeof(path), "%s/listing.txt", dir);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *b = strchr(line, '['), *h = strchr(line, '#');
		unsigned int seq;
		unsigned long long lat;

		if (sscanf(line, "# %d %15s %llu %llu %llu %llu %llu %llu", &cpu, ctx, &r.count,
			   &r.first, &r.last, &r.min, &r.max, &r.sum) == 8 && cpu >= 0 && cpu < 2) {
			r.have = true;
			ref[cpu][strcmp(ctx, "irq") ? 1 : 0] = r;
			continue;
		}
		if (!b || !h || n >= max || !strstr(line, "timer_latency"))
			continue;
		if (sscanf(b + 1, "%d", &cpu) == 1 &&
		    sscanf(h, "#%u context %15s timer_latency %llu", &seq, ctx, &lat) == 3)
			first[n++] = (struct smp){ cpu, strcmp(ctx, "irq") ? 1 : 0, seq, lat };
	}
	fclose(f);
	return n;
}

static void check_recorded(const char *data)
{
	static struct seen s;
	struct ref ref[2][2] = { { { 0 } } };
	struct smp first[32];
	struct rtm_error err = { "" };
	struct rtm_tracedec *d;
	struct rtm_result *r = NULL;
	struct rtm_cpulist cl = { 0 };
	static char page[4096];
	char dir[PATH_MAX], path[PATH_MAX + 16];
	int cpus[] = { 0, 1 }, cpu, ctx, nfirst, i, k, found;
	uint64_t overruns[2] = { 0, 0 };
	json_t *tirq, *tl, *c;

	snprintf(dir, sizeof(dir), "%s/trace-rt-6.1-timerlat", data);
	nfirst = read_listing(dir, ref, first, 32);
	ok(nfirst == 20 && ref[0][0].have && ref[0][1].have && ref[1][0].have && ref[1][1].have,
	   "listing.txt: 20 sample lines and 4 per-CPU lines (%d)", nfirst);
	d = rtm_tracedec_alloc(dir, &err);
	ok(d != NULL, "timerlat's formats load (%s)", err.msg);
	s.acc = rtm_timerlat_acc_alloc(2, 2000000);
	if (!ok(s.acc != NULL, "timerlat accumulator") || !d)
		goto out;
	for (cpu = 0; cpu < 2; cpu++) {
		uint64_t lost = 0;
		FILE *fp;
		int bad = 0;

		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
		fp = fopen(path, "r");
		while (fp && fread(page, 1, sizeof(page), fp) == sizeof(page))
			bad += rtm_tracedec_page(d, page, cpu, on_event, &s, &lost) < 0;
		if (fp)
			fclose(fp);
		/* the top level's small buffer kept the last two pages: the first says so */
		ok(fp && !bad && lost > 0, "CPU %d: every page decodes; the %llu events "
		   "overwritten before them are reported", cpu, (unsigned long long)lost);
	}
	eq(s.n, 300, "300 samples decoded, as the kernel listed");
	eq(s.other, 0, "nothing else in the buffer");
	for (cpu = 0; cpu < 2; cpu++) {
		for (ctx = 0; ctx < 2; ctx++) {
			const struct ref *w = &ref[cpu][ctx], *g = &s.got[cpu][ctx];
			const char *cn = ctx ? "thread" : "irq";

			eq(g->count, w->count, "CPU %d %s: count as listed", cpu, cn);
			ok(g->first == w->first && g->last == w->last,
			   "CPU %d %s: seqnums %llu..%llu as listed", cpu, cn, g->first, g->last);
			ok(g->min == w->min && g->max == w->max && g->sum == w->sum,
			   "CPU %d %s: min %llu, max %llu, sum %llu ns as listed", cpu, cn,
			   g->min, g->max, g->sum);
		}
	}
	for (i = 0, found = 0; i < nfirst; i++)
		for (k = 0; k < s.n; k++)
			if (s.s[k].cpu == first[i].cpu && s.s[k].ctx == first[i].ctx &&
			    s.s[k].seq == first[i].seq && s.s[k].lat == first[i].lat) {
				found++;
				break;
			}
	eq(found, nfirst, "each of the listing's first sample lines decoded field by field");
	for (k = 0; k < s.n; k++)
		if (s.s[k].ctx == 1 && s.s[k].lat)
			overruns[s.s[k].cpu] += (s.s[k].lat - 1) / 2000000;

	r = rtm_result_alloc("cyclic");
	cl.n = 2;
	cl.cpus = cpus;
	if (!ok(r && rtm_timerlat_fill(s.acc, &cl, 0, r) == 0, "result filled"))
		goto out;
	eq(r->ncpus, 2, "two CPUs in the result");
	for (cpu = 0; cpu < 2 && r->ncpus == 2; cpu++) {
		const struct rtm_hist *h = r->cpus[cpu].raw;

		eq(r->cpus[cpu].cpu, cpu, "CPU %d: its entry", cpu);
		ok(h->count == ref[cpu][1].count && h->min_ns == ref[cpu][1].min &&
		   h->max_ns == ref[cpu][1].max && h->sum_ns == ref[cpu][1].sum,
		   "CPU %d: the wake-up histogram is the thread latency (count, min, max, sum)",
		   cpu);
		ok(r->cpus[cpu].corrected == NULL, "CPU %d: no corrected histogram made up", cpu);
		eq(r->cpus[cpu].overruns, overruns[cpu], "CPU %d: periods passed while late", cpu);
	}
	tirq = json_object_get(r->sections, "timer_irq");
	ok(rtm_timerirq_check(tirq, "test", &err) == 0, "sections.timer_irq loads (%s)",
	   err.msg);
	for (cpu = 0; cpu < 2; cpu++) {
		struct rtm_hist *h = rtm_hist_alloc();

		c = json_array_get(json_object_get(tirq, "cpus"), (size_t)cpu);
		eq(json_integer_value(json_object_get(c, "count")), ref[cpu][0].count,
		   "CPU %d: IRQ samples", cpu);
		ok(h && !rtm_hist_from_json(h, json_object_get(c, "delay"), &err) &&
		   h->min_ns == ref[cpu][0].min && h->max_ns == ref[cpu][0].max &&
		   h->sum_ns == ref[cpu][0].sum, "CPU %d: IRQ latency histogram as listed", cpu);
		eq(json_integer_value(json_object_get(c, "samples_lost")), 0,
		   "CPU %d: consecutive seqnums, nothing lost", cpu);
		rtm_hist_free(h);
	}
	ok(json_is_true(json_object_get(tirq, "complete")), "complete");
	tl = json_object_get(r->sections, "timerlat");
	c = json_array_get(json_object_get(tl, "cpus"), 1);
	ok(json_integer_value(json_object_get(c, "thread_samples")) ==
	   (json_int_t)ref[1][1].count && json_integer_value(json_object_get(c, "irq_lost")) == 0,
	   "sections.timerlat: counts per context");
	eq(json_integer_value(json_object_get(tl, "period_ns")), 2000000, "period recorded");
	/* the whole result survives a save/load round trip (the schema's checks) */
	{
		json_t *j = rtm_result_to_json(r);
		struct rtm_result *back = j ? rtm_result_from_json(j, "test", &err) : NULL;

		ok(back && back->ncpus == 2 && back->cpus[1].raw->count == ref[1][1].count,
		   "result.json round trip (%s)", err.msg);
		rtm_result_free(back);
		json_decref(j);
	}
out:
	rtm_result_free(r);
	rtm_timerlat_acc_free(s.acc);
	rtm_tracedec_free(d);
}

/* Seqnum gaps are lost samples, per context; a lower seqnum is a restart. */
static void check_gaps(void)
{
	static const struct { int ctx; unsigned int seq; } evs[] = {
		{ 0, 10 }, { 1, 10 }, { 0, 11 }, { 1, 11 }, { 0, 14 }, { 1, 12 }, { 1, 14 },
		{ 0, 3 }, { 1, 3 }, { 0, 4 }, { 2, 4 },
	};
	struct rtm_timerlat_acc *a = rtm_timerlat_acc_alloc(1, 1000000);
	struct rtm_result *r = rtm_result_alloc("cyclic");
	struct rtm_cpulist cl = { 0 };
	int cpus[] = { 0 };
	json_t *c, *ic;
	size_t i;

	if (!ok(a && r, "accumulator"))
		goto out;
	for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		struct rtm_event ev = { .type = RTM_EV_TIMERLAT, .cpu = 0 };

		ev.timerlat.context = evs[i].ctx;
		ev.timerlat.seqnum = evs[i].seq;
		ev.timerlat.latency_ns = evs[i].ctx == 1 ? 2500000 : 1000;
		rtm_timerlat_acc_event(&ev, a);
	}
	cl.n = 1;
	cl.cpus = cpus;
	if (!ok(rtm_timerlat_fill(a, &cl, 7, r) == 0, "filled"))
		goto out;
	c = json_array_get(json_object_get(json_object_get(r->sections, "timerlat"), "cpus"), 0);
	eq(json_integer_value(json_object_get(c, "irq_lost")), 2, "IRQ 12, 13 lost");
	eq(json_integer_value(json_object_get(c, "thread_lost")), 1, "thread 13 lost");
	eq(json_integer_value(json_object_get(c, "other_samples")), 1, "a user context sample apart");
	eq(json_integer_value(json_object_get(c, "overruns")), 5 * 2, "2.5 ms late: 2 periods passed");
	ic = json_object_get(r->sections, "timer_irq");
	eq(json_integer_value(json_object_get(ic, "trace_lost")), 7, "ring buffer losses kept");
	ok(json_is_false(json_object_get(ic, "complete")), "not complete");
	eq(r->cpus[0].raw->count, 5, "5 thread samples");
out:
	rtm_result_free(r);
	rtm_timerlat_acc_free(a);
}

static void put(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* @rel under @dir holds @text (trailing newlines aside). */
static int same(const char *dir, const char *rel, const char *text)
{
	char buf[256];

	return rtm_read_small(dir, rel, buf, sizeof(buf)) >= 0 && !strcmp(buf, text);
}

static void check_settings(void)
{
	char tmpl[] = "/tmp/rtm-timerlat-XXXXXX", sub[PATH_MAX], cmd[PATH_MAX + 16];
	struct rtm_timerlat_saved s;
	struct rtm_error err = { "" };
	const char *dir = mkdtemp(tmpl);

	if (!ok(dir != NULL, "a fake tracefs tree"))
		return;
	snprintf(sub, sizeof(sub), "%s/osnoise", dir);
	mkdir(sub, 0755);
	put(dir, "current_tracer", "nop\n");
	put(dir, "osnoise/timerlat_period_us", "1000\n");
	put(dir, "osnoise/stop_tracing_us", "30\n");
	put(dir, "osnoise/stop_tracing_total_us", "0\n");
	put(dir, "osnoise/print_stack", "20\n");
	put(dir, "osnoise/cpus", "0-3\n");
	is_int(rtm_timerlat_save(dir, &s, &err), 0, "settings saved");
	is_int(rtm_timerlat_apply(dir, 250, "1", &err), 0, "settings applied");
	ok(same(dir, "osnoise/timerlat_period_us", "250") && same(dir, "osnoise/cpus", "1") &&
	   same(dir, "osnoise/stop_tracing_us", "0") && same(dir, "osnoise/print_stack", "0"),
	   "period, cpus written; stop_tracing and print_stack off");
	is_int(rtm_timerlat_restore(dir, &s), 0, "settings restored");
	ok(same(dir, "osnoise/timerlat_period_us", "1000") && same(dir, "osnoise/cpus", "0-3") &&
	   same(dir, "osnoise/stop_tracing_us", "30") &&
	   same(dir, "osnoise/stop_tracing_total_us", "0") &&
	   same(dir, "osnoise/print_stack", "20"), "every setting back as found");

	/* a kernel without print_stack: the rest works, nothing made up */
	snprintf(sub, sizeof(sub), "%s/osnoise/print_stack", dir);
	unlink(sub);
	is_int(rtm_timerlat_save(dir, &s, &err), 0, "saved without print_stack");
	is_int(rtm_timerlat_apply(dir, 500, "0", &err), 0, "applied without it");
	ok(access(sub, F_OK) != 0, "no print_stack file made up");
	is_int(rtm_timerlat_restore(dir, &s), 0, "restored without it");

	/* another user of timerlat (or osnoise, which shares its threads) is seen */
	snprintf(sub, sizeof(sub), "%s/instances", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/instances/rtla", dir);
	mkdir(sub, 0755);
	put(dir, "instances/rtla/current_tracer", "timerlat\n");
	ok(rtm_ktracer_in_use(dir, "timerlat", sub, sizeof(sub)) &&
	   strstr(sub, "instances/rtla/current_tracer"), "an instance runs timerlat: %s", sub);

	snprintf(sub, sizeof(sub), "%s/osnoise/timerlat_period_us", dir);
	unlink(sub);
	err.msg[0] = '\0';
	ok(rtm_timerlat_save(dir, &s, &err) < 0 && strstr(err.msg, "timerlat_period_us") &&
	   one_line(err.msg), "no timerlat_period_us: %s", err.msg);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
}

int main(void)
{
	const char *data = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";

	check_recorded(data);
	check_gaps();
	check_settings();
	return tap_done();
}
