// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe_timerlat.c - the kernel's timerlat tracer on the probe seam:
 * `rtmeasure cyclic --backend timerlat`. The kernel's timerlat/N threads do
 * the measuring (one per measured CPU, woken every period by an hrtimer; the
 * kernel records the IRQ and the thread latency of each period), at the
 * scheduling of -p/--policy (set on their pids, as rtla does). This side runs
 * the tracer in rtmeasure's private instance, drains its samples once a
 * second (lib/probe/ktracer_probe.c), and puts every global setting
 * (osnoise/timerlat_period_us, cpus, stop_tracing*, print_stack) back when it
 * ends, however it ends: on SIGKILL, the next run does, from the journal
 * written before the first change (lib/probe/ktjournal.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/task.h"
#include "probe/ktracer.h"
#include "probe/ktracer_probe.h"
#include "probe/probe.h"

#define WARMUP_MAX_NS 5000000000ULL

struct probe_timerlat {
	struct rtm_ktprobe k;		/* first: the shared ops take it */
	struct rtm_probe_timerlat_opts opts;
	struct rtm_timerlat_saved saved;
	struct rtm_ktjournal journal;	/* the saved settings, for a run after a SIGKILL */
	bool applied;			/* the saved settings must be put back */
	int dma_fd;			/* /dev/cpu_dma_latency held, -1: not */
};

/* Put back what was changed; safe to call twice. */
static void teardown(struct probe_timerlat *p)
{
	int ret = 0;

	rtm_ktprobe_close(&p->k);	/* current_tracer nop first: the kthreads end */
	if (p->applied)
		ret = rtm_timerlat_restore(p->k.dir, &p->saved);
	/* not all put back: the journal stays, and the next run tries again */
	rtm_ktjournal_close(&p->journal, ret == 0);
	p->applied = false;
	if (p->dma_fd >= 0)
		rtm_dma_latency_release(p->dma_fd);
	p->dma_fd = -1;
}

static void tl_free(void *v)
{
	struct probe_timerlat *p = v;

	if (!p)
		return;
	teardown(p);
	rtm_timerlat_acc_free(p->k.acc);
	rtm_ktprobe_release(&p->k);
	free(p);
}

struct kthreads_set {
	const struct probe_timerlat *p;
	struct rtm_error *err;
	int found;
	bool failed;			/* the error is ours, not the listing's */
};

/* Process @pid: --policy/-p when it is the timerlat/N thread of a measured CPU. */
static int set_kthread(int pid, void *arg)
{
	struct kthreads_set *k = arg;
	const struct probe_timerlat *p = k->p;
	char comm[64], want[32];
	int i, cpu, ret;

	if (rtm_task_read_comm("/", pid, comm, sizeof(comm)) < 0 ||
	    sscanf(comm, "timerlat/%d", &cpu) != 1)
		return 0;
	snprintf(want, sizeof(want), "timerlat/%d", cpu);
	for (i = 0; i < p->k.cpus.n && p->k.cpus.cpus[i] != cpu; i++)
		;
	if (strcmp(comm, want) || i == p->k.cpus.n)
		return 0;
	k->found++;
	ret = rtm_sched_apply_tid((pid_t)pid, &p->opts.sched, k->err);
	k->failed = ret != 0;
	return ret;
}

/*
 * The timerlat/N kthreads of the measured CPUs get --policy/-p (the kernel
 * starts them at FIFO 95, rtmeasure's default). 0 or -errno with @err set.
 */
static int set_kthreads(const struct probe_timerlat *p, struct rtm_error *err)
{
	struct kthreads_set k = { .p = p, .err = err };
	int ret = rtm_task_each_process("/", set_kthread, &k);

	if (ret && !k.failed)
		return rtm_error_setn(err, ret, "cannot read /proc: %s", strerror(-ret));
	if (!ret && k.found < p->k.cpus.n)
		ret = rtm_error_setn(err, -ESRCH, "the timerlat tracer started %d of its %d "
				     "timerlat/N threads: cannot give them --policy/-p", k.found,
				     p->k.cpus.n);
	return ret;
}

/*
 * Each timerlat/N thread makes itself FIFO 95 when it first runs: a priority
 * given before that is lost. Wait for every measured CPU's first thread sample
 * (it has run), at most WARMUP_MAX_NS (emulated kernels are slow to start).
 */
static int wait_threads(struct probe_timerlat *p, struct rtm_error *err)
{
	uint64_t t0 = rtm_clock_ns(CLOCK_MONOTONIC);
	struct timespec ts = { 0, 10000000 };
	int i;

	for (;;) {
		rtm_ktprobe_drain(&p->k);
		for (i = 0; i < p->k.cpus.n; i++)
			if (!rtm_timerlat_acc_thread_samples(p->k.acc, p->k.cpus.cpus[i]))
				break;
		if (i == p->k.cpus.n)
			return 0;
		if (rtm_clock_ns(CLOCK_MONOTONIC) - t0 > WARMUP_MAX_NS)
			return rtm_error_setn(err, -ETIMEDOUT, "the timerlat thread of CPU %d gave "
					      "no sample within %llu s of the tracer's start",
					      p->k.cpus.cpus[i],
					      (unsigned long long)(WARMUP_MAX_NS / 1000000000ULL));
		nanosleep(&ts, NULL);
	}
}

static int start_tracer(struct probe_timerlat *p, struct rtm_error *err)
{
	if (rtm_timerlat_save(p->k.dir, &p->saved, err) ||
	    rtm_ktjournal_write(&p->journal, p->k.dir, "timerlat", &p->saved, err))
		return -1;
	p->applied = true;
	if (rtm_timerlat_apply(p->k.dir, p->opts.interval_ns / 1000, p->k.cpulist, err) ||
	    rtm_ktprobe_set_tracer(&p->k, err) || rtm_ktprobe_trace_on(&p->k, err) ||
	    wait_threads(p, err) || set_kthreads(p, err))
		return -1;
	/* the warm-up ran at the kernel's FIFO 95: measuring starts now, at ours */
	rtm_timerlat_acc_free(p->k.acc);
	p->k.acc = rtm_timerlat_acc_alloc(p->k.ncpus, p->opts.interval_ns / 1000 * 1000);
	if (!p->k.acc)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	p->k.lost = 0;
	rtm_ktclock_start(&p->k.clk, p->opts.duration_ns);
	return 0;
}

static void *tl_start(const void *opts, uint64_t ts_interval_ns, struct rtm_error *err)
{
	const struct rtm_probe_timerlat_opts *o = opts;
	/*
	 * Two samples a period a CPU (~64 kB/s at 1 ms), drained once a second:
	 * 1 MB a CPU whatever the kernel's default (the lab boots with a small one).
	 */
	struct rtm_trace_opts to = { .events = "", .overwrite = false, .buffer_kb = 1024 };
	struct probe_timerlat *p = calloc(1, sizeof(*p));
	char where[4200];

	(void)ts_interval_ns;
	if (!p) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	p->opts = *o;
	p->dma_fd = -1;
	if (rtm_ktprobe_open(&p->k, "timerlat", "timer", err))
		goto fail;
	/* timerlat and osnoise share their settings and threads: refuse, not join */
	if (rtm_ktracer_in_use(p->k.dir, "timerlat", where, sizeof(where)) ||
	    rtm_ktracer_in_use(p->k.dir, "osnoise", where, sizeof(where))) {
		rtm_error_set(err, "the timerlat/osnoise tracer is in use (%s): stop that user "
			      "first, or use --backend timer", where);
		goto fail;
	}
	if (rtm_ktprobe_cpus(&p->k, &o->cpus, err))
		goto fail;
	p->opts.cpus = p->k.cpus;
	p->k.event = rtm_timerlat_acc_event;
	p->k.acc = rtm_timerlat_acc_alloc(p->k.ncpus, o->interval_ns / 1000 * 1000);
	if (!p->k.acc) {
		rtm_error_set(err, "out of memory");
		goto fail;
	}
	if (o->dma_latency_us >= 0) {
		p->dma_fd = rtm_dma_latency_hold(o->dma_latency_us, err);
		if (p->dma_fd < 0)
			goto fail;
	}
	if (rtm_ktprobe_trace(&p->k, &to, err) || start_tracer(p, err))
		goto fail;
	return p;
fail:
	tl_free(p);
	return NULL;
}

static int tl_finish(void *v, struct rtm_result *r, struct rtm_error *err)
{
	struct probe_timerlat *p = v;
	json_t *tl;

	rtm_ktprobe_end(&p->k, r);
	teardown(p);
	if (rtm_timerlat_fill(p->k.acc, &p->k.cpus, p->k.lost, r))
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	tl = json_object_get(r->sections, "timerlat");
	if (p->opts.backend_reason)
		json_object_set_new(tl, "backend_reason", json_string(p->opts.backend_reason));
	json_object_set_new(tl, "sched", rtm_sched_to_json(&p->opts.sched));
	return 0;
}

const struct rtm_probe_ops rtm_probe_timerlat_ops = {
	.name = "timerlat",
	.section = "cpus",
	.start = tl_start,
	.snapshot = rtm_ktprobe_snapshot,
	.next_tick_ns = rtm_ktprobe_next_tick_ns,
	.quiet_ns = NULL,
	.elapsed_s = rtm_ktprobe_elapsed_s,
	.done = rtm_ktprobe_done,
	.stop = rtm_ktprobe_stop,
	.finish = tl_finish,
	.free = tl_free,
	.live_section = NULL,
};
