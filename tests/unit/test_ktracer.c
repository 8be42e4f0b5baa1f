// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the hwlat backend (lib/probe/ktracer.c) without root or tracefs:
 * the hwlat samples recorded on Debian's 6.1 PREEMPT_RT kernel in the kernel
 * lab (tests/data/trace-rt-6.1-hwlat: raw pages + formats) decoded and turned
 * into sections.noise, checked against the figures of the kernel's own text
 * listing of the same samples (trace.txt there, copied below by hand); and
 * hwlat's global settings saved, changed and restored on a fake tracefs tree.
 * The same for osnoise (tests/data/trace-rt-6.1-osnoise: its per-period
 * summaries and samples above the threshold, against listing.txt there).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "probe/ktracer.h"
#include "present/noise_print.h"
#include "tracefs/tracedec.h"
#include "../tap.h"

/*
 * trace.txt, per sample: CPU, seqnum, inner us, outer us, count, and the event
 * time in us (the listing's time column).
 */
static const struct sample {
	int cpu;
	unsigned int seq;
	uint64_t inner_us, outer_us;
	unsigned int count;
	uint64_t ts_us;
} listing[] = {
	{ 1, 1, 4994, 319, 96, 3924826 },
	{ 0, 2, 30, 2186, 58, 4136608 },
	{ 1, 3, 263, 4987, 91, 4344583 },
	{ 0, 4, 164, 2217, 69, 4560526 },
	{ 1, 5, 5002, 275, 132, 4772275 },
	{ 0, 6, 128, 103, 83, 4988260 },
	{ 1, 7, 4996, 4997, 68, 5201352 },
	{ 0, 8, 169, 90, 82, 5408503 },
	{ 1, 9, 4985, 5016, 85, 5621529 },
	{ 0, 10, 1217, 513, 229, 5833307 },
	{ 1, 11, 199, 378, 149, 6040665 },
	{ 0, 12, 4991, 4984, 50, 6248493 },
	{ 1, 13, 4993, 5000, 76, 6461220 },
	{ 0, 14, 724, 220, 63, 6673501 },
};
#define NSAMPLES (sizeof(listing) / sizeof(listing[0]))

/* is_u64 with a formatted name */
#define eq(got, want, ...) do {							\
	unsigned long long g_ = (unsigned long long)(got);			\
	unsigned long long w_ = (unsigned long long)(want);			\
	if (!ok(g_ == w_, __VA_ARGS__))						\
		diag("got %llu, want %llu", g_, w_);				\
} while (0)

struct seen {
	struct rtm_tracedec *d;
	struct rtm_hwlat_acc *acc;
	int n, match, printed_ok, other;
};

static int on_event(const struct rtm_event *ev, void *arg)
{
	struct seen *s = arg;
	const struct sample *w;
	char text[256], want[64];

	if (ev->type != RTM_EV_HWLAT) {
		s->other++;
		return 0;
	}
	s->n++;
	if (ev->hwlat.seqnum >= 1 && ev->hwlat.seqnum <= NSAMPLES) {
		w = &listing[ev->hwlat.seqnum - 1];
		/* the listing prints the time rounded to the nearest us */
		s->match += ev->cpu == w->cpu && ev->hwlat.inner_us == w->inner_us &&
			    ev->hwlat.outer_us == w->outer_us && ev->hwlat.count == w->count &&
			    (ev->ts_ns + 500) / 1000 == w->ts_us && ev->hwlat.nmi_count == 0 &&
			    ev->hwlat.tv_sec > 0 && ev->hwlat.tv_nsec >= 0 &&
			    ev->hwlat.tv_nsec < 1000000000;
		/* libtraceevent's text of the record says the same */
		snprintf(want, sizeof(want), "inner:%llu\touter:%llu",
			 (unsigned long long)w->inner_us, (unsigned long long)w->outer_us);
		s->printed_ok += rtm_tracedec_print(s->d, ev, text, sizeof(text)) > 0 &&
				 strstr(text, want) != NULL;
	}
	return rtm_hwlat_acc_event(ev, s->acc);
}

static int decode_file(struct seen *s, const char *dir, int cpu)
{
	char path[PATH_MAX], page[4096];
	uint64_t lost = 0;
	int n, total = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	while (fread(page, 1, sizeof(page), fp) == sizeof(page)) {
		n = rtm_tracedec_page(s->d, page, cpu, on_event, s, &lost);
		if (n < 0) {
			total = n;
			break;
		}
		total += n;
	}
	fclose(fp);
	return total;
}

static uint64_t jget(const json_t *o, const char *k)
{
	return (uint64_t)json_integer_value(json_object_get(o, k));
}

/* What the section must say of @cpu, worked out from the listing. */
static void check_cpu(const json_t *c, int cpu, uint64_t start_ns, uint64_t above_ns)
{
	uint64_t n = 0, inner = 0, outer = 0, maxgap = 0, above = 0, count = 0;
	const json_t *list = json_object_get(c, "gap_list");
	size_t i, k = 0;
	int times_ok = 0;

	for (i = 0; i < NSAMPLES; i++) {
		const struct sample *w = &listing[i];
		uint64_t gap = (w->inner_us > w->outer_us ? w->inner_us : w->outer_us) * 1000;
		const json_t *g;

		if (w->cpu != cpu)
			continue;
		n++;
		count += w->count;
		inner = w->inner_us > inner ? w->inner_us : inner;
		outer = w->outer_us > outer ? w->outer_us : outer;
		maxgap = gap > maxgap ? gap : maxgap;
		above += gap > above_ns;
		g = json_array_get(list, k++);
		times_ok += (uint64_t)json_integer_value(json_array_get(g, 1)) == gap &&
			    ((uint64_t)json_integer_value(json_array_get(g, 0)) + start_ns + 500) / 1000 ==
			    w->ts_us;
	}
	eq((int)json_integer_value(json_object_get(c, "cpu")), cpu, "CPU %d: its entry", cpu);
	eq(jget(c, "samples"), n, "CPU %d: samples", cpu);
	eq(jget(c, "gaps"), n, "CPU %d: one gap per sample", cpu);
	eq(jget(c, "max_gap_ns"), maxgap, "CPU %d: max gap, the larger of inner/outer", cpu);
	eq(jget(c, "inner_max_ns"), inner * 1000, "CPU %d: largest inner", cpu);
	eq(jget(c, "outer_max_ns"), outer * 1000, "CPU %d: largest outer", cpu);
	eq(jget(c, "above_report"), above, "CPU %d: gaps above the report bound", cpu);
	eq(jget(c, "gaps_above_threshold"), count, "CPU %d: hwlat's counts summed", cpu);
	eq(jget(c, "nmi_count"), 0, "CPU %d: no NMI in the samples", cpu);
	eq((int)json_array_size(list), (int)n, "CPU %d: every gap listed", cpu);
	eq(times_ok, (int)n, "CPU %d: gap list lengths and times from the listing", cpu);
	ok(json_is_null(json_object_get(c, "sampled_ns")) &&
	   json_is_null(json_object_get(c, "noise_ns")) &&
	   json_is_null(json_object_get(c, "sample_period_ns")),
	   "CPU %d: sampled time, total noise and period are unknown, not made up", cpu);
	ok(json_is_object(json_object_get(c, "hist")), "CPU %d: a gap histogram", cpu);
}

static void check_recorded(const char *data)
{
	struct rtm_probe_noise_opts o = {
		.window_ns = 200000000, .width_ns = 100000000, .threshold_ns = 1000,
		.report_above_ns = 1000000, .max_gaps = 100,
	};
	int cpus[] = { 0, 1 }, n0, n1;
	struct rtm_error err = { "" };
	struct seen s = { 0 };
	char dir[PATH_MAX];
	uint64_t start_ns = 3900000000ULL;
	json_t *sec, *cs;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/trace-rt-6.1-hwlat", data);
	s.d = rtm_tracedec_alloc(dir, &err);
	ok(s.d != NULL, "hwlat's format loads (%s)", err.msg);
	s.acc = rtm_hwlat_acc_alloc(2, o.report_above_ns, o.max_gaps);
	ok(s.acc != NULL, "accumulator for 2 CPUs");
	if (!s.d || !s.acc)
		goto out;
	n0 = decode_file(&s, dir, 0);
	n1 = decode_file(&s, dir, 1);
	eq(n0 + n1, NSAMPLES, "both CPUs' pages decode to the listing's %zu records (%d + %d)",
	   NSAMPLES, n0, n1);
	is_int(s.n, (int)NSAMPLES, "every record is an ftrace:hwlat sample");
	is_int(s.match, (int)NSAMPLES, "CPU, inner, outer, count, time and NMIs as listed");
	is_int(s.printed_ok, (int)NSAMPLES, "libtraceevent prints the same inner/outer");

	o.cpus.n = 2;
	o.cpus.cpus = cpus;
	sec = rtm_hwlat_section(s.acc, &o, start_ns, 3000000000ULL);
	ok(sec != NULL, "section built");
	if (!sec)
		goto out;
	is_str(json_string_value(json_object_get(sec, "backend")), "hwlat", "backend named");
	is_u64(jget(sec, "samples_lost"), 0, "sequence 1..14 without holes: nothing lost");
	ok(json_is_null(json_object_get(sec, "counter")), "no counter of ours");
	cs = json_object_get(sec, "cpus");
	is_int((int)json_array_size(cs), 2, "both CPUs");
	check_cpu(json_array_get(cs, 0), 0, start_ns, o.report_above_ns);
	check_cpu(json_array_get(cs, 1), 1, start_ns, o.report_above_ns);

	/* the table reads it: unknown where hwlat says nothing */
	f = tmpfile();
	if (f) {
		char buf[4096] = "";
		size_t len;

		ok(rtm_noise_fprint(sec, f, true) == 0, "the table prints");
		rewind(f);
		len = fread(buf, 1, sizeof(buf) - 1, f);
		buf[len] = '\0';
		ok(strstr(buf, "hwlat tracer") && strstr(buf, "unknown") &&
		   strstr(buf, "   5016") && strstr(buf, "NMIs during the samples: none"),
		   "table: hwlat named, unknowns, CPU 1's 5016 us gap, no NMI");
		fclose(f);
	}
	json_decref(sec);
out:
	rtm_hwlat_acc_free(s.acc);
	rtm_tracedec_free(s.d);
}

/* A lost sample shows as a hole in the sequence numbers. */
static void check_holes(void)
{
	struct rtm_probe_noise_opts o = { .report_above_ns = 1000, .max_gaps = 1 };
	struct rtm_hwlat_acc *a = rtm_hwlat_acc_alloc(1, 1000, 1);
	struct rtm_event ev = { .type = RTM_EV_HWLAT, .cpu = 0 };
	unsigned int seqs[] = { 5, 6, 9, 10 };
	int cpus[] = { 0 };
	json_t *sec;
	size_t i;

	if (!ok(a != NULL, "accumulator"))
		return;
	for (i = 0; i < 4; i++) {
		ev.hwlat.seqnum = seqs[i];
		ev.hwlat.inner_us = 10 + i;
		ev.ts_ns = 1000000 * (i + 1);
		rtm_hwlat_acc_event(&ev, a);
	}
	ev.cpu = 7;	/* a CPU we do not measure: ignored */
	rtm_hwlat_acc_event(&ev, a);
	o.cpus.n = 1;
	o.cpus.cpus = cpus;
	sec = rtm_hwlat_section(a, &o, 0, 1);
	is_u64(jget(sec, "samples_lost"), 2, "5, 6, 9, 10: two samples lost (7 and 8)");
	is_u64(jget(json_array_get(json_object_get(sec, "cpus"), 0), "gaps_dropped"), 3,
	       "--max-gaps 1: three gaps counted but not kept");
	json_decref(sec);
	rtm_hwlat_acc_free(a);
}

static int put(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* @rel under @dir holds @text (trailing newlines aside). */
static int same(const char *dir, const char *rel, const char *text)
{
	char buf[256];

	return rtm_read_small(dir, rel, buf, sizeof(buf)) >= 0 && !strcmp(buf, text);
}

/* Save, apply and restore on a fake tracefs tree. */
static void check_settings(void)
{
	char tmpl[] = "/tmp/rtm-ktracer-XXXXXX", sub[PATH_MAX], cmd[PATH_MAX + 16];
	struct rtm_hwlat_saved s;
	struct rtm_error err = { "" };
	const char *dir = mkdtemp(tmpl);

	if (!ok(dir != NULL, "a fake tracefs tree"))
		return;
	snprintf(sub, sizeof(sub), "%s/hwlat_detector", dir);
	mkdir(sub, 0755);
	put(dir, "available_tracers", "timerlat osnoise hwlat blk nop\n");
	put(dir, "tracing_thresh", "0\n");
	put(dir, "hwlat_detector/width", "500000\n");
	put(dir, "hwlat_detector/window", "1000000\n");
	put(dir, "hwlat_detector/mode", "none [round-robin] per-cpu\n");
	ok(rtm_ktracer_has(dir, "hwlat"), "available_tracers lists hwlat");
	ok(!rtm_ktracer_has(dir, "hwla") && !rtm_ktracer_has(dir, "mmiotrace"),
	   "whole names only");
	ok(!rtm_ktracer_has("/nonexistent", "hwlat"), "no tracefs: no tracer");

	is_int(rtm_hwlat_save(dir, &s, &err), 0, "settings saved");
	is_str(s.mode, "round-robin", "mode: the selected word");
	is_str(s.width, "500000", "width saved");
	is_int(rtm_hwlat_apply(dir, 10, 100000, 200000, "per-cpu", &err), 0, "settings applied");
	ok(same(dir, "tracing_thresh", "10") && same(dir, "hwlat_detector/width", "100000") &&
	   same(dir, "hwlat_detector/window", "200000") &&
	   same(dir, "hwlat_detector/mode", "per-cpu"), "thresh, width, window, mode written");
	is_int(rtm_hwlat_restore(dir, &s), 0, "settings restored");
	ok(same(dir, "tracing_thresh", "0") && same(dir, "hwlat_detector/width", "500000") &&
	   same(dir, "hwlat_detector/window", "1000000") &&
	   same(dir, "hwlat_detector/mode", "round-robin"), "every setting back as found");

	/* a kernel without the mode file (before 5.14): the rest still works */
	snprintf(sub, sizeof(sub), "%s/hwlat_detector/mode", dir);
	unlink(sub);
	is_int(rtm_hwlat_save(dir, &s, &err), 0, "saved without a mode file");
	is_str(s.mode, "", "no mode saved");
	is_int(rtm_hwlat_apply(dir, 1, 1000, 2000, "per-cpu", &err), 0, "applied without it");
	ok(access(sub, F_OK) != 0, "no mode file made up");
	is_int(rtm_hwlat_restore(dir, &s), 0, "restored without it");

	/* a missing setting is an error naming the file, nothing half-saved is used */
	snprintf(sub, sizeof(sub), "%s/tracing_thresh", dir);
	unlink(sub);
	err.msg[0] = '\0';
	ok(rtm_hwlat_save(dir, &s, &err) < 0 && strstr(err.msg, "tracing_thresh") &&
	   one_line(err.msg), "no tracing_thresh: %s", err.msg);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
}

/*
 * listing.txt of trace-rt-6.1-osnoise: the kernel's text of the three periods of
 * each CPU (runtime, noise, max single in us; HW, NMI, IRQ, SIRQ, THREAD) and,
 * from its osnoise:sample_threshold lines, per CPU: count, longest, above 20 us.
 */
static const struct operiod {
	int cpu;
	uint64_t runtime_us, noise_us, max_us;
	unsigned int hw, nmi, irq, sirq, thread;
} operiods[] = {
	{ 0, 50000, 35617, 14650, 1822, 0, 10, 0, 17 },
	{ 1, 50000, 33600, 5905, 2661, 0, 9, 0, 14 },
	{ 1, 50000, 32825, 5728, 2203, 0, 6, 0, 3 },
	{ 0, 50000, 31266, 8092, 1494, 0, 7, 0, 1 },
	{ 0, 50000, 29051, 12103, 117, 0, 5, 0, 3 },
	{ 1, 50000, 24609, 4852, 67, 0, 7, 0, 1 },
};

static const struct osamples {
	uint64_t n, max_ns, above_20us;
} osamples[2] = { { 3487, 14650470, 45 }, { 5294, 5905053, 54 } };

static int on_any(const struct rtm_event *ev, void *acc)
{
	return rtm_osnoise_acc_event(ev, acc);
}

static void check_osnoise(const char *data)
{
	struct rtm_probe_noise_opts o = {
		.window_ns = 1000000000, .width_ns = 50000000, .threshold_ns = 1000,
		.report_above_ns = 20000, .max_gaps = 200000,
	};
	struct rtm_error err = { "" };
	struct rtm_osnoise_acc *a = NULL;
	struct rtm_tracedec *d;
	char dir[PATH_MAX], path[PATH_MAX + 16];
	static char page[4096];
	int cpus[] = { 0, 1 }, cpu;
	json_t *sec, *cs;
	size_t i;

	snprintf(dir, sizeof(dir), "%s/trace-rt-6.1-osnoise", data);
	d = rtm_tracedec_alloc(dir, &err);
	ok(d != NULL, "osnoise's formats load (%s)", err.msg);
	a = rtm_osnoise_acc_alloc(2, o.report_above_ns, o.max_gaps);
	if (!ok(a != NULL, "osnoise accumulator") || !d)
		goto out;
	for (cpu = 0; cpu < 2; cpu++) {
		uint64_t lost = 0;
		FILE *fp;
		int bad = 0;

		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, cpu);
		fp = fopen(path, "r");
		while (fp && fread(page, 1, sizeof(page), fp) == sizeof(page))
			bad += rtm_tracedec_page(d, page, cpu, on_any, a, &lost) < 0;
		if (fp)
			fclose(fp);
		ok(fp && !bad && !lost, "CPU %d: every page decodes, nothing lost", cpu);
	}
	o.cpus.n = 2;
	o.cpus.cpus = cpus;
	sec = rtm_osnoise_section(a, &o, 0, 3000000000ULL);
	if (!ok(sec != NULL, "osnoise section built"))
		goto out;
	is_str(json_string_value(json_object_get(sec, "backend")), "osnoise", "backend named");
	cs = json_object_get(sec, "cpus");
	for (cpu = 0; cpu < 2; cpu++) {
		const json_t *c = json_array_get(cs, (size_t)cpu), *in;
		uint64_t n = 0, rt = 0, noise = 0, mx = 0, hw = 0, nmi = 0, irq = 0, sirq = 0;
		uint64_t thr = 0;

		for (i = 0; i < sizeof(operiods) / sizeof(operiods[0]); i++) {
			const struct operiod *w = &operiods[i];

			if (w->cpu != cpu)
				continue;
			n++;
			rt += w->runtime_us * 1000;
			noise += w->noise_us * 1000;
			mx = w->max_us * 1000 > mx ? w->max_us * 1000 : mx;
			hw += w->hw;
			nmi += w->nmi;
			irq += w->irq;
			sirq += w->sirq;
			thr += w->thread;
		}
		in = json_object_get(c, "interference");
		eq(jget(c, "windows"), n, "CPU %d: periods", cpu);
		eq(jget(c, "sampled_ns"), rt, "CPU %d: runtime summed", cpu);
		eq(jget(c, "noise_ns"), noise, "CPU %d: noise summed", cpu);
		eq(jget(c, "max_gap_ns"), mx, "CPU %d: max single noise", cpu);
		ok(jget(in, "hw") == hw && jget(in, "nmi") == nmi && jget(in, "irq") == irq &&
		   jget(in, "softirq") == sirq && jget(in, "thread") == thr,
		   "CPU %d: interference by cause summed (hw %llu irq %llu thread %llu)", cpu,
		   (unsigned long long)hw, (unsigned long long)irq, (unsigned long long)thr);
		eq(jget(c, "gaps"), osamples[cpu].n, "CPU %d: samples above the threshold", cpu);
		eq(jget(c, "max_sample_gap_ns"), osamples[cpu].max_ns, "CPU %d: longest sample",
		   cpu);
		eq(jget(c, "above_report"), osamples[cpu].above_20us, "CPU %d: samples above 20 us",
		   cpu);
		eq(json_array_size(json_object_get(c, "gap_list")), osamples[cpu].n,
		   "CPU %d: every sample listed", cpu);
		ok(json_is_null(json_object_get(c, "sample_period_ns")) &&
		   json_is_null(json_object_get(c, "loops")), "CPU %d: no loop period: null", cpu);
	}
	{
		char buf[8192] = "";
		FILE *f = tmpfile();
		size_t len = 0;

		if (f) {
			rtm_noise_fprint(sec, f, false);
			rewind(f);
			len = fread(buf, 1, sizeof(buf) - 1, f);
			fclose(f);
		}
		buf[len] = '\0';
		/* CPU 0: 150000 us runtime, 95934 us noise: 36.04400 % available */
		ok(strstr(buf, "osnoise tracer") && strstr(buf, "36.04400") &&
		   strstr(buf, "  0       3433          0         22          0         21"),
		   "table: osnoise named, %% available, CPU 0's counts by cause");
	}
	json_decref(sec);
out:
	rtm_osnoise_acc_free(a);
	rtm_tracedec_free(d);
}

static void check_osnoise_settings(void)
{
	char tmpl[] = "/tmp/rtm-osnoise-XXXXXX", sub[PATH_MAX], cmd[PATH_MAX + 16];
	struct rtm_osnoise_saved s;
	struct rtm_error err = { "" };
	const char *dir = mkdtemp(tmpl);

	if (!ok(dir != NULL, "a fake tracefs tree for osnoise"))
		return;
	snprintf(sub, sizeof(sub), "%s/osnoise", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/instances", dir);
	mkdir(sub, 0755);
	put(dir, "current_tracer", "nop\n");
	put(dir, "tracing_thresh", "0\n");
	put(dir, "osnoise/runtime_us", "1000000\n");
	put(dir, "osnoise/period_us", "1000000\n");
	put(dir, "osnoise/stop_tracing_us", "0\n");
	put(dir, "osnoise/stop_tracing_total_us", "500\n");
	put(dir, "osnoise/cpus", "0-3\n");
	is_int(rtm_osnoise_save(dir, &s, &err), 0, "osnoise settings saved");
	is_int(rtm_osnoise_apply(dir, 5, 50000, 100000, "1", &err), 0, "osnoise settings applied");
	ok(same(dir, "tracing_thresh", "5") && same(dir, "osnoise/runtime_us", "50000") &&
	   same(dir, "osnoise/period_us", "100000") && same(dir, "osnoise/cpus", "1") &&
	   same(dir, "osnoise/stop_tracing_total_us", "0"),
	   "thresh, runtime, period, cpus written; stop_tracing off");
	is_int(rtm_osnoise_restore(dir, &s), 0, "osnoise settings restored");
	ok(same(dir, "tracing_thresh", "0") && same(dir, "osnoise/runtime_us", "1000000") &&
	   same(dir, "osnoise/period_us", "1000000") && same(dir, "osnoise/cpus", "0-3") &&
	   same(dir, "osnoise/stop_tracing_total_us", "500"), "every osnoise setting back");

	/* another user: the top level, or another instance (osnoise is shared) */
	ok(!rtm_ktracer_in_use(dir, "osnoise", sub, sizeof(sub)), "nop everywhere: not in use");
	snprintf(sub, sizeof(sub), "%s/instances/other", dir);
	mkdir(sub, 0755);
	put(dir, "instances/other/current_tracer", "osnoise\n");
	ok(rtm_ktracer_in_use(dir, "osnoise", sub, sizeof(sub)) &&
	   strstr(sub, "instances/other/current_tracer"), "an instance runs osnoise: %s", sub);
	put(dir, "current_tracer", "hwlat\n");
	ok(rtm_ktracer_in_use(dir, "hwlat", sub, sizeof(sub)) && strstr(sub, "/current_tracer"),
	   "the top level runs hwlat: %s", sub);
	ok(!rtm_ktracer_in_use(dir, "timerlat", sub, sizeof(sub)), "nobody runs timerlat");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
}

int main(void)
{
	const char *data = getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";

	check_recorded(data);
	check_holes();
	check_settings();
	check_osnoise(data);
	check_osnoise_settings();
	return tap_done();
}
