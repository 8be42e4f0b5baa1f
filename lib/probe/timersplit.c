// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timersplit.c - the timer IRQ split programs (timersplit.bpf.c) loaded through
 * their bpftool skeleton, read once at the end into sections.timer_irq.
 *
 * The maps are mapped into memory (BPF_F_MMAPABLE) and read after the probe's
 * threads have stopped: the figures are exact. A build without clang, bpftool
 * or libbpf keeps this interface and says what configure did not find.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/hist.h"
#include "probe/timersplit.h"
#include "probe/wakeup.h"

#ifdef RTM_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "probe/timersplit_maps.h"
#include "lib/probe/timersplit.skel.h"

struct rtm_timersplit {
	struct rtm_timersplit_bpf *skel;
	int ncpus;
	uint64_t *irq_counts, *wake_counts;	/* the mapped histogram maps */
	size_t counts_len;
	struct rtm_ts_cpu *cpu;			/* the mapped per-CPU map */
	size_t cpu_len;
};

/* libbpf's own messages would go to stderr: the caller gets one line instead */
static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

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

struct rtm_timersplit *rtm_timersplit_create(uint64_t wakeup_fn, struct rtm_error *err)
{
	struct rtm_timersplit *ts = calloc(1, sizeof(*ts));
	int ret;

	if (!ts) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	libbpf_set_print(quiet_libbpf);
	ts->ncpus = libbpf_num_possible_cpus();
	if (ts->ncpus <= 0 || ts->ncpus > RTM_TS_MAX_CPUS) {
		ret = ts->ncpus <= 0 ? ts->ncpus : -E2BIG;
		rtm_error_set(err, "--bpf: cannot count the possible CPUs (/sys/devices/system/"
			      "cpu/possible): %s", strerror(-ret));
		goto fail;
	}
	ts->skel = rtm_timersplit_bpf__open();
	ret = ts->skel ? configure(ts, wakeup_fn) : -errno;
	if (!ret)
		ret = rtm_timersplit_bpf__load(ts->skel);
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
	if (ts && ts->skel)
		rtm_timersplit_bpf__detach(ts->skel);
}

void rtm_timersplit_destroy(struct rtm_timersplit *ts)
{
	if (!ts)
		return;
	if (ts->irq_counts)
		munmap(ts->irq_counts, ts->counts_len);
	if (ts->wake_counts)
		munmap(ts->wake_counts, ts->counts_len);
	if (ts->cpu)
		munmap(ts->cpu, ts->cpu_len);
	rtm_timersplit_bpf__destroy(ts->skel);
	free(ts);
}

/* One CPU's entry of sections.timer_irq.cpus; NULL when out of memory. */
static json_t *cpu_json(const struct rtm_timersplit *ts, int cpu, struct rtm_hist *h)
{
	const struct rtm_ts_cpu *c = &ts->cpu[cpu];
	json_t *o, *irq, *wake;

	rtm_wakeup_fill_hist(ts->irq_counts + (size_t)cpu * RTM_HIST_NCOUNTS, &c->irq, h);
	irq = rtm_hist_to_json(h);
	rtm_wakeup_fill_hist(ts->wake_counts + (size_t)cpu * RTM_HIST_NCOUNTS, &c->wake, h);
	wake = rtm_hist_to_json(h);
	if (!irq || !wake) {
		json_decref(irq);
		json_decref(wake);
		return NULL;
	}
	o = json_pack("{s:i, s:I, s:I, s:I, s:I, s:o, s:I, s:I, s:o, s:{s:I, s:I, s:I}}",
		      "cpu", cpu, "count", (json_int_t)c->irq.count,
		      /* a start still armed: its expiry never came (as rtm_timerirq_end()) */
		      "unmatched_starts", (json_int_t)(c->unmatched_starts + (c->hrtimer != 0)),
		      "unmatched_expires", (json_int_t)c->unmatched_expires,
		      "early", (json_int_t)c->early, "delay", irq,
		      "woken", (json_int_t)c->wake.count,
		      "unswitched", (json_int_t)c->unswitched, "wake", wake,
		      "max", "total_ns", (json_int_t)c->max_ns, "irq_ns", (json_int_t)c->max_irq_ns,
		      "wake_ns", (json_int_t)c->max_wake_ns);
	return o;
}

json_t *rtm_timersplit_to_json(const struct rtm_timersplit *ts, const struct rtm_cpulist *cpus)
{
	json_t *sec = json_object(), *arr = json_array(), *o;
	struct rtm_hist *h = rtm_hist_alloc();
	int i;

	if (!sec || !arr || !h)
		goto fail;
	json_object_set_new(sec, "source", json_string("BPF on hrtimer_start -> "
			    "hrtimer_expire_entry (now - expires) -> sched_switch (the probe "
			    "switched in) of the probes' own hrtimers, counted in the kernel"));
	json_object_set_new(sec, "backend", json_string("bpf"));
	json_object_set(sec, "cpus", arr);
	for (i = 0; i < cpus->n; i++) {
		if (cpus->cpus[i] < 0 || cpus->cpus[i] >= ts->ncpus)
			continue;
		o = cpu_json(ts, cpus->cpus[i], h);
		if (!o || json_array_append_new(arr, o))
			goto fail;
	}
	json_object_set_new(sec, "trace_lost", json_integer(0));
	json_object_set_new(sec, "complete", json_true());
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

struct rtm_timersplit *rtm_timersplit_create(uint64_t wakeup_fn, struct rtm_error *err)
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

json_t *rtm_timersplit_to_json(const struct rtm_timersplit *ts, const struct rtm_cpulist *cpus)
{
	return NULL;
}

#endif
