// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe_timerlat.c - the kernel's timerlat tracer on the probe seam:
 * `rtmeasure cyclic --backend timerlat`. The kernel's timerlat/N threads do
 * the measuring (one per measured CPU, woken every period by an hrtimer; the
 * kernel records the IRQ and the thread latency of each period), at the
 * scheduling of -p/--policy (set on their pids, as rtla does). This side runs
 * the tracer in rtmeasure's private instance, drains its samples once a
 * second, and puts every global setting (osnoise/timerlat_period_us, cpus,
 * stop_tracing*, print_stack) back when it ends, however it ends.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/task.h"
#include "probe/ktracer.h"
#include "probe/probe.h"
#include "tracefs/instance.h"

#define WARMUP_MAX_NS 5000000000ULL

struct probe_timerlat {
	struct rtm_probe_timerlat_opts opts;
	struct rtm_cpulist cpus;	/* the measured CPUs */
	const char *dir;		/* tracefs top level: the osnoise/ files */
	struct rtm_timerlat_saved saved;
	bool applied;			/* the saved settings must be put back */
	int dma_fd;			/* /dev/cpu_dma_latency held, -1: not */
	struct rtm_trace *trace;
	struct rtm_timerlat_acc *acc;
	int ncpus;			/* the accumulator's: the highest measured CPU + 1 */
	struct rtm_ktclock clk;
	uint64_t lost;			/* events the ring buffer lost */
};

/* Put back what was changed; safe to call twice. */
static void teardown(struct probe_timerlat *p)
{
	rtm_trace_destroy(p->trace);	/* current_tracer nop first: the kthreads end */
	p->trace = NULL;
	if (p->applied)
		rtm_timerlat_restore(p->dir, &p->saved);
	p->applied = false;
	if (p->dma_fd >= 0)
		rtm_dma_latency_release(p->dma_fd);
	p->dma_fd = -1;
}

static void drain(struct probe_timerlat *p)
{
	struct rtm_error err = { "" };
	uint64_t lost = 0;

	if (p->trace && rtm_trace_read(p->trace, rtm_timerlat_acc_event, p->acc, &lost,
				       &err) >= 0)
		p->lost += lost;
}

static void tl_free(void *v)
{
	struct probe_timerlat *p = v;

	if (!p)
		return;
	teardown(p);
	rtm_timerlat_acc_free(p->acc);
	rtm_cpulist_release(&p->cpus);
	free(p);
}

/* The measured CPUs: @given, or every online one when none is given. */
static int measured_cpus(const struct rtm_cpulist *given, struct rtm_cpulist *cl,
			 struct rtm_error *err)
{
	char buf[4096];
	int ret;

	if (given->n) {
		rtm_cpulist_format(given, buf, sizeof(buf));
		return rtm_cpulist_parse(buf, cl, err);
	}
	ret = rtm_read_small("/sys/devices/system/cpu", "online", buf, sizeof(buf));
	if (ret < 0)
		return rtm_error_setn(err, ret, "cannot read the online CPUs: %s", strerror(-ret));
	return rtm_cpulist_parse(buf, cl, err);
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
	for (i = 0; i < p->cpus.n && p->cpus.cpus[i] != cpu; i++)
		;
	if (strcmp(comm, want) || i == p->cpus.n)
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
	if (!ret && k.found < p->cpus.n)
		ret = rtm_error_setn(err, -ESRCH, "the timerlat tracer started %d of its %d "
				     "timerlat/N threads: cannot give them --policy/-p", k.found,
				     p->cpus.n);
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
		drain(p);
		for (i = 0; i < p->cpus.n; i++)
			if (!rtm_timerlat_acc_thread_samples(p->acc, p->cpus.cpus[i]))
				break;
		if (i == p->cpus.n)
			return 0;
		if (rtm_clock_ns(CLOCK_MONOTONIC) - t0 > WARMUP_MAX_NS)
			return rtm_error_setn(err, -ETIMEDOUT, "the timerlat thread of CPU %d gave "
					      "no sample within %llu s of the tracer's start",
					      p->cpus.cpus[i],
					      (unsigned long long)(WARMUP_MAX_NS / 1000000000ULL));
		nanosleep(&ts, NULL);
	}
}

static int start_tracer(struct probe_timerlat *p, const char *cpus, struct rtm_error *err)
{
	int ret;

	if (rtm_timerlat_save(p->dir, &p->saved, err))
		return -1;
	p->applied = true;
	if (rtm_timerlat_apply(p->dir, p->opts.interval_ns / 1000, cpus, err))
		return -1;
	ret = rtm_trace_set_tracer(p->trace, "timerlat");
	if (ret == -EBUSY)
		return rtm_error_set(err, "the timerlat tracer is in use in another tracing "
				     "instance or the top level (%s/current_tracer): stop that user "
				     "first, or use --backend timer", p->dir);
	if (ret == -ENODEV)	/* listed but refused in an instance: before allow_instances */
		return rtm_error_set(err, "this kernel runs the timerlat tracer only in the top "
				     "level of tracefs, which rtmeasure does not take over: use "
				     "--backend timer");
	if (ret)
		return rtm_error_set(err, "cannot start the timerlat tracer: %s", strerror(-ret));
	if (rtm_trace_start(p->trace))
		return rtm_error_set(err, "cannot turn tracing on in %s", rtm_trace_name(p->trace));
	if (wait_threads(p, err) || set_kthreads(p, err))
		return -1;
	/* the warm-up ran at the kernel's FIFO 95: measuring starts now, at ours */
	rtm_timerlat_acc_free(p->acc);
	p->acc = rtm_timerlat_acc_alloc(p->ncpus, p->opts.interval_ns / 1000 * 1000);
	if (!p->acc)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	p->lost = 0;
	rtm_ktclock_start(&p->clk, p->opts.duration_ns);
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
	char cpus[4096], where[4200];
	int i, max = 0;

	(void)ts_interval_ns;
	if (!p) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	p->opts = *o;
	p->dma_fd = -1;
	p->dir = rtm_trace_find_tracefs(err);
	if (!p->dir)
		goto fail;
	if (!rtm_ktracer_has(p->dir, "timerlat")) {
		rtm_error_set(err, "this kernel has no timerlat tracer (CONFIG_TIMERLAT_TRACER): "
			      "use --backend timer");
		goto fail;
	}
	/* timerlat and osnoise share their settings and threads: refuse, not join */
	if (rtm_ktracer_in_use(p->dir, "timerlat", where, sizeof(where)) ||
	    rtm_ktracer_in_use(p->dir, "osnoise", where, sizeof(where))) {
		rtm_error_set(err, "the timerlat/osnoise tracer is in use (%s): stop that user "
			      "first, or use --backend timer", where);
		goto fail;
	}
	if (measured_cpus(&o->cpus, &p->cpus, err))
		goto fail;
	p->opts.cpus = p->cpus;
	for (i = 0; i < p->cpus.n; i++)
		if (p->cpus.cpus[i] > max)
			max = p->cpus.cpus[i];
	p->ncpus = max + 1;
	p->acc = rtm_timerlat_acc_alloc(p->ncpus, o->interval_ns / 1000 * 1000);
	if (!p->acc) {
		rtm_error_set(err, "out of memory");
		goto fail;
	}
	if (o->dma_latency_us >= 0) {
		p->dma_fd = rtm_dma_latency_hold(o->dma_latency_us, err);
		if (p->dma_fd < 0)
			goto fail;
	}
	rtm_cpulist_format(&p->cpus, cpus, sizeof(cpus));
	to.cpus = cpus;		/* tracing_cpumask: the measured CPUs' events only */
	p->trace = rtm_trace_create(&to, err);
	if (!p->trace || start_tracer(p, cpus, err))
		goto fail;
	return p;
fail:
	tl_free(p);
	return NULL;
}

static void tl_snapshot(void *v, bool boundary)
{
	struct probe_timerlat *p = v;

	if (rtm_ktclock_due(&p->clk, boundary))
		drain(p);
}

static uint64_t tl_next_tick_ns(const void *v)
{
	return ((const struct probe_timerlat *)v)->clk.next_tick_ns;
}

static double tl_elapsed_s(const void *v)
{
	return rtm_ktclock_elapsed_s(&((const struct probe_timerlat *)v)->clk);
}

static bool tl_done(const void *v)
{
	return rtm_ktclock_done(&((const struct probe_timerlat *)v)->clk);
}

static void tl_stop(void *v)
{
	rtm_ktclock_stop(&((struct probe_timerlat *)v)->clk);
}

static int tl_finish(void *v, struct rtm_result *r, struct rtm_error *err)
{
	struct probe_timerlat *p = v;
	json_t *tl;

	rtm_ktclock_stop(&p->clk);
	rtm_trace_stop(p->trace);
	drain(p);
	/* streaming: what did not fit was refused by the kernel and counted there */
	p->lost += rtm_trace_dropped(p->trace);
	r->duration_ns = rtm_ktclock_end_ns(&p->clk) - p->clk.start_ns;
	teardown(p);
	if (rtm_timerlat_fill(p->acc, &p->cpus, p->lost, r))
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
	.snapshot = tl_snapshot,
	.next_tick_ns = tl_next_tick_ns,
	.quiet_ns = NULL,
	.elapsed_s = tl_elapsed_s,
	.done = tl_done,
	.stop = tl_stop,
	.finish = tl_finish,
	.free = tl_free,
	.live_section = NULL,
};
