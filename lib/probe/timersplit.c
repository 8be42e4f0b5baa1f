// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timersplit.c - the timer IRQ split programs (timersplit.bpf.c) loaded through
 * their bpftool skeleton, their maps read while the probe runs (the live line,
 * the --prometheus page) and at the end into sections.timer_irq.
 *
 * The maps are mapped into memory (BPF_F_MMAPABLE). A read while the probe runs
 * races the programs' writes: each histogram is made whole from its counters
 * (rtm_wakeup_fill_hist()) and the count is the counters' sum, so a figure may
 * lag by the sleep being counted, never contradict itself. Read after the probe's
 * threads have stopped, the figures are exact. A build without clang, bpftool or
 * libbpf keeps this interface and says what configure did not find.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/hist.h"
#include "probe/timersplit.h"
#include "probe/timersplit_maps.h"
#include "probe/wakeup.h"

void rtm_timersplit_cpu_of(const uint64_t *irq_counts, const struct rtm_ts_cpu *c, int cpu,
			   bool ended, struct rtm_hist *h, struct rtm_timerirq_cpu *out)
{
	rtm_wakeup_fill_hist(irq_counts, &c->irq, h);
	/* a start still armed when the programs are gone: its expiry never came */
	*out = (struct rtm_timerirq_cpu){ .cpu = cpu, .matched = h->count,
		.unmatched_starts = c->unmatched_starts + (ended && c->hrtimer != 0),
		.unmatched_expires = c->unmatched_expires, .early = c->early, .delay = h };
}

json_t *rtm_timersplit_cpu_json(const uint64_t *irq_counts, const uint64_t *wake_counts,
				const struct rtm_ts_cpu *c, int cpu, bool ended, struct rtm_hist *h)
{
	struct rtm_timerirq_cpu f;
	json_t *irq, *wake;

	rtm_timersplit_cpu_of(irq_counts, c, cpu, ended, h, &f);
	irq = rtm_hist_to_json(h);
	rtm_wakeup_fill_hist(wake_counts, &c->wake, h);
	wake = rtm_hist_to_json(h);
	if (!irq || !wake) {
		json_decref(irq);
		json_decref(wake);
		return NULL;
	}
	return json_pack("{s:i, s:I, s:I, s:I, s:I, s:o, s:I, s:I, s:o, s:{s:I, s:I, s:I}}",
			 "cpu", cpu, "count", (json_int_t)f.matched,
			 "unmatched_starts", (json_int_t)f.unmatched_starts,
			 "unmatched_expires", (json_int_t)f.unmatched_expires,
			 "early", (json_int_t)f.early, "delay", irq,
			 "woken", (json_int_t)h->count,
			 "unswitched", (json_int_t)c->unswitched, "wake", wake,
			 "max", "total_ns", (json_int_t)c->max_ns,
			 "irq_ns", (json_int_t)c->max_irq_ns, "wake_ns", (json_int_t)c->max_wake_ns);
}

#ifdef RTM_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lib/probe/timersplit.skel.h"
#include "lib/probe/timersplit_helper.skel.h"
#include "probe/bpfload.h"

/* the helper build's object goes into the direct build's skeleton (bpfload.h) */
_Static_assert(sizeof(struct rtm_timersplit_bpf) == sizeof(struct rtm_timersplit_helper_bpf) &&
	       sizeof(*((struct rtm_timersplit_bpf *)0)->rodata) ==
	       sizeof(*((struct rtm_timersplit_helper_bpf *)0)->rodata),
	       "the two builds of timersplit.bpf.c differ in their maps, programs or data");

struct rtm_timersplit {
	struct rtm_timersplit_bpf *skel;
	enum rtm_bpf_reads reads;		/* the build loaded */
	int ncpus;
	uint64_t *irq_counts, *wake_counts;	/* the mapped histogram maps */
	size_t counts_len;
	struct rtm_ts_cpu *cpu;			/* the mapped per-CPU map */
	size_t cpu_len;
	bool ended;				/* detached: the figures are final */
	/* the measured CPUs the maps cover, sized at the start: their figures as last read */
	int nlive;
	struct rtm_timerirq_cpu *live;
	struct rtm_hist **delay;
};

static int map_one(struct bpf_map *map, size_t len, void **out)
{
	void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, bpf_map__fd(map), 0);

	if (p == MAP_FAILED)
		return -errno;
	*out = p;
	return 0;
}

static int map_memory(struct rtm_timersplit *ts)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int ret;

	ts->counts_len = ((size_t)ts->ncpus * RTM_HIST_NCOUNTS * sizeof(uint64_t) + page - 1) &
			 ~(page - 1);
	ts->cpu_len = ((size_t)ts->ncpus * sizeof(struct rtm_ts_cpu) + page - 1) & ~(page - 1);
	ret = map_one(ts->skel->maps.irq_hist, ts->counts_len, (void **)&ts->irq_counts);
	if (!ret)
		ret = map_one(ts->skel->maps.wake_hist, ts->counts_len, (void **)&ts->wake_counts);
	if (!ret)
		ret = map_one(ts->skel->maps.cpus, ts->cpu_len, (void **)&ts->cpu);
	return ret;
}

static int configure(struct rtm_timersplit *ts, uint64_t wakeup_fn)
{
	struct rtm_timersplit_bpf *skel = ts->skel;
	int ret;

	skel->rodata->own_tgid = (__u32)getpid();
	skel->rodata->wakeup_fn = wakeup_fn;
	ret = bpf_map__set_max_entries(skel->maps.irq_hist, (__u32)ts->ncpus * RTM_HIST_NCOUNTS);
	if (!ret)
		ret = bpf_map__set_max_entries(skel->maps.wake_hist,
					       (__u32)ts->ncpus * RTM_HIST_NCOUNTS);
	if (!ret)
		ret = bpf_map__set_max_entries(skel->maps.cpus, (__u32)ts->ncpus);
	return ret;
}

/* The programs of build @r, opened, configured and loaded: 0 or a negative errno. */
static int load_build(struct rtm_timersplit *ts, uint64_t wakeup_fn, enum rtm_bpf_reads r)
{
	int ret;

	ts->reads = r;
	ts->skel = calloc(1, sizeof(*ts->skel));
	if (!ts->skel)
		return -ENOMEM;
	ret = rtm_timersplit_bpf__create_skeleton(ts->skel);
	if (!ret)
		ret = rtm_bpf_open_skeleton(ts->skel->skeleton, r,
					    rtm_timersplit_helper_bpf__elf_bytes);
	if (!ret)
		ret = configure(ts, wakeup_fn);
	return ret ? ret : rtm_timersplit_bpf__load(ts->skel);
}

/* The live figures of the measured CPUs the maps cover, allocated once. */
static int live_alloc(struct rtm_timersplit *ts, const struct rtm_cpulist *cpus)
{
	int i;

	ts->live = calloc((size_t)(cpus->n ? cpus->n : 1), sizeof(*ts->live));
	ts->delay = calloc((size_t)(cpus->n ? cpus->n : 1), sizeof(*ts->delay));
	if (!ts->live || !ts->delay)
		return -ENOMEM;
	for (i = 0; i < cpus->n; i++) {
		if (cpus->cpus[i] < 0 || cpus->cpus[i] >= ts->ncpus)
			continue;
		ts->delay[ts->nlive] = rtm_hist_alloc();
		if (!ts->delay[ts->nlive])
			return -ENOMEM;
		ts->live[ts->nlive++].cpu = cpus->cpus[i];
	}
	return 0;
}

struct rtm_timersplit *rtm_timersplit_create(uint64_t wakeup_fn, const struct rtm_cpulist *cpus,
					     struct rtm_error *err)
{
	struct rtm_timersplit *ts = calloc(1, sizeof(*ts));
	int ret;

	if (!ts) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	rtm_bpf_quiet();
	ts->ncpus = libbpf_num_possible_cpus();
	if (ts->ncpus <= 0 || ts->ncpus > RTM_TS_MAX_CPUS) {
		ret = ts->ncpus <= 0 ? ts->ncpus : -E2BIG;
		rtm_error_set(err, "--bpf: cannot count the possible CPUs (/sys/devices/system/"
			      "cpu/possible): %s", strerror(-ret));
		goto fail;
	}
	ret = live_alloc(ts, cpus);
	if (ret) {
		rtm_error_set(err, "out of memory");
		goto fail;
	}
	ret = load_build(ts, wakeup_fn, rtm_bpf_reads_first());
	if (ret && ts->reads == RTM_BPF_READS_DIRECT) {
		/* a kernel before 6.2, or without a BPF JIT: the helper build */
		rtm_timersplit_bpf__destroy(ts->skel);
		ret = load_build(ts, wakeup_fn, RTM_BPF_READS_HELPER);
	}
	if (ret) {
		rtm_error_set(err, "--bpf: the kernel refused the timer IRQ split's BPF programs "
			      "(%s): drop --bpf, or give --trace for the tracefs split",
			      strerror(-ret));
		goto fail;
	}
	ret = map_memory(ts);
	if (!ret)
		ret = rtm_timersplit_bpf__attach(ts->skel);
	if (ret) {
		rtm_error_set(err, "--bpf: cannot attach to hrtimer_start, hrtimer_expire_entry "
			      "and sched_switch: %s (drop --bpf, or give --trace)", strerror(-ret));
		goto fail;
	}
	return ts;
fail:
	rtm_timersplit_destroy(ts);
	errno = -ret;
	return NULL;
}

void rtm_timersplit_detach(struct rtm_timersplit *ts)
{
	if (ts && ts->skel) {
		rtm_timersplit_bpf__detach(ts->skel);
		ts->ended = true;
	}
}

void rtm_timersplit_destroy(struct rtm_timersplit *ts)
{
	int i;

	if (!ts)
		return;
	for (i = 0; i < ts->nlive; i++)
		rtm_hist_free(ts->delay[i]);
	free(ts->delay);
	free(ts->live);
	if (ts->irq_counts)
		munmap(ts->irq_counts, ts->counts_len);
	if (ts->wake_counts)
		munmap(ts->wake_counts, ts->counts_len);
	if (ts->cpu)
		munmap(ts->cpu, ts->cpu_len);
	rtm_timersplit_bpf__destroy(ts->skel);
	free(ts);
}

void rtm_timersplit_line(struct rtm_timersplit *ts, char *buf, size_t len)
{
	int i, cpu;

	for (i = 0; i < ts->nlive; i++) {
		cpu = ts->live[i].cpu;
		rtm_timersplit_cpu_of(ts->irq_counts + (size_t)cpu * RTM_HIST_NCOUNTS,
				      &ts->cpu[cpu], cpu, ts->ended, ts->delay[i], &ts->live[i]);
	}
	rtm_timerirq_line_of(ts->live, ts->nlive, buf, len);	/* the tracefs path's line */
}

json_t *rtm_timersplit_to_json(const struct rtm_timersplit *ts, const struct rtm_cpulist *cpus)
{
	json_t *sec = json_object(), *arr = json_array(), *o;
	struct rtm_hist *h = rtm_hist_alloc();
	int i, n = cpus ? cpus->n : ts->nlive, cpu;

	if (!sec || !arr || !h)
		goto fail;
	json_object_set_new(sec, "source", json_string("BPF on hrtimer_start -> "
			    "hrtimer_expire_entry (now - expires) -> sched_switch (the probe "
			    "switched in) of the probes' own hrtimers, counted in the kernel"));
	json_object_set_new(sec, "backend", json_string("bpf"));
	json_object_set_new(sec, "task_reads", json_string(rtm_bpf_reads_name(ts->reads)));
	json_object_set(sec, "cpus", arr);
	for (i = 0; i < n; i++) {
		cpu = cpus ? cpus->cpus[i] : ts->live[i].cpu;
		if (cpu < 0 || cpu >= ts->ncpus)
			continue;
		o = rtm_timersplit_cpu_json(ts->irq_counts + (size_t)cpu * RTM_HIST_NCOUNTS,
					    ts->wake_counts + (size_t)cpu * RTM_HIST_NCOUNTS,
					    &ts->cpu[cpu], cpu, ts->ended, h);
		if (!o || json_array_append_new(arr, o))
			goto fail;
	}
	json_object_set_new(sec, "trace_lost", json_integer(0));
	/* while the programs run, a sleep may be half counted */
	json_object_set_new(sec, "complete", json_boolean(ts->ended));
	json_decref(arr);
	rtm_hist_free(h);
	return sec;
fail:
	json_decref(sec);
	json_decref(arr);
	rtm_hist_free(h);
	return NULL;
}

bool rtm_timersplit_usable(struct rtm_error *err)
{
	if (geteuid() != 0) {
		rtm_error_set(err, "--bpf: loading BPF programs needs root (CAP_BPF and "
			      "CAP_PERFMON): run as root, or drop --bpf");
		return false;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		rtm_error_set(err, "--bpf: this kernel has no BTF (/sys/kernel/btf/vmlinux), "
			      "which the BPF programs need (a kernel built with "
			      "CONFIG_DEBUG_INFO_BTF=y); drop --bpf, or give --trace for the "
			      "tracefs split");
		return false;
	}
	return true;
}

#else /* !RTM_HAVE_BPF */

struct rtm_timersplit {
	int unused;
};

bool rtm_timersplit_usable(struct rtm_error *err)
{
	if (!strcmp(RTM_BPF_MISSING, "--disable-bpf"))
		rtm_error_set(err, "--bpf: this rtmeasure was configured with --disable-bpf: "
			      "rebuild without it, or give --trace for the tracefs split");
	else
		rtm_error_set(err, "--bpf: this rtmeasure was built without BPF: configure did "
			      "not find %s (apt-get install clang libbpf-dev bpftool, then "
			      "scripts/setup), or give --trace for the tracefs split",
			      RTM_BPF_MISSING);
	return false;
}

struct rtm_timersplit *rtm_timersplit_create(uint64_t wakeup_fn, const struct rtm_cpulist *cpus,
					     struct rtm_error *err)
{
	rtm_timersplit_usable(err);
	errno = ENOTSUP;
	return NULL;
}

void rtm_timersplit_detach(struct rtm_timersplit *ts)
{
}

void rtm_timersplit_destroy(struct rtm_timersplit *ts)
{
}

void rtm_timersplit_line(struct rtm_timersplit *ts, char *buf, size_t len)
{
	buf[0] = '\0';
}

json_t *rtm_timersplit_to_json(const struct rtm_timersplit *ts, const struct rtm_cpulist *cpus)
{
	return NULL;
}

#endif
