// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe_noise.c - userspace noise / hardware-latency detector (probe_noise.h).
 *
 * The loop is sacred: between the window's first and last counter read there
 * is no system call, no lock, no allocation and no printing. A gap is written
 * under the thread's own sequence counter (a seqlock with one writer), like
 * the timer probe's samples. The clock is read only outside the busy part: at
 * a window's start (the anchor that turns counts into CLOCK_MONOTONIC times)
 * and for the sleep to the next window.
 *
 * The busy part ends by the counter, so a counter that runs slower than its
 * calibration (a VM moved to another host, a TSC that changed its rate) would
 * stretch it, up to the whole CPU at the loop's priority, and the box's own RT
 * threads (rcu, ktimers at fifo 1 on PREEMPT_RT) would starve. A per-thread
 * POSIX timer on CLOCK_MONOTONIC, armed outside the busy part, cuts a busy
 * part still running a tenth of the width (2 ms at least) past its end: its
 * signal sets the thread's cut flag, read with the stop flag. A cut window is
 * counted and said (sections.noise.windows_cut).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "box/gate.h"
#include "probe/probe.h"
#include "probe/probe_noise.h"

#define NSEC_PER_SEC	1000000000ULL
#define START_DELAY_NS	(100 * 1000 * 1000ULL)
#define CALIBRATE_NS	(50 * 1000 * 1000ULL)
#define STACK_PREFAULT	(64 * 1024)
#define HEAP_PREFAULT	(1024 * 1024)
#define STOP_EVERY	255		/* the stop flag is read every 256 loops */
#define GUARD_SIGNAL	(SIGRTMIN + 2)	/* the busy part's wall-clock guard */
#define GUARD_MIN_NS	(2 * 1000 * 1000ULL)
#define TICK_NS		NSEC_PER_SEC	/* the runner's snapshots */
#define unlikely(x)	__builtin_expect(!!(x), 0)

struct noise_thread {
	_Atomic uint32_t seq;		/* odd while the thread writes @rec */
	struct rtm_noise_rec rec;

	struct rtm_probe_noise *probe;
	_Atomic int cut;		/* the guard's signal: the busy part ran too long */
	timer_t guard;
	bool guarded;
	pthread_t tid;
	bool created;
	int cpu;
	int error;
	struct rtm_error err;
	_Atomic bool running;
} __attribute__((aligned(64)));

struct rtm_probe_noise {
	struct rtm_probe_noise_opts opts;
	struct rtm_counter counter;
	int n;
	struct noise_thread *threads;
	struct rtm_noise_cpu_snap *snaps;	/* the runner's latest snapshot */
	struct rtm_gate gate;	/* threads report set-up, then wait for go (or abort) */
	uint64_t start_ns;
	uint64_t next_tick_ns;
	_Atomic int stop;
	_Atomic int nrunning;
	int dma_fd;
	bool locked;
	bool joined;
};

/* ------------------------------------------------------------ recording */

int rtm_noise_rec_init(struct rtm_noise_rec *rec, uint64_t report_above_ns, uint32_t max_gaps)
{
	memset(rec, 0, sizeof(*rec));
	rec->report_above_ns = report_above_ns;
	rec->max_log = max_gaps;
	rec->hist = rtm_hist_alloc();
	rec->log = calloc(max_gaps ? max_gaps : 1, sizeof(*rec->log));
	return rec->hist && rec->log ? 0 : -ENOMEM;
}

void rtm_noise_rec_release(struct rtm_noise_rec *rec)
{
	rtm_hist_free(rec->hist);
	free(rec->log);
	rec->hist = NULL;
	rec->log = NULL;
}

void rtm_noise_rec_add(struct rtm_noise_rec *rec, uint64_t start_ns, uint64_t len_ns)
{
	rtm_hist_record(rec->hist, len_ns);
	rec->gaps++;
	rec->noise_ns += len_ns;
	if (len_ns > rec->max_gap_ns)
		rec->max_gap_ns = len_ns;
	if (len_ns > rec->report_above_ns)
		rec->above_report++;
	if (rec->nlog < rec->max_log) {
		rec->log[rec->nlog].start_ns = start_ns;
		rec->log[rec->nlog].len_ns = len_ns;
		rec->nlog++;
	} else {
		rec->dropped++;
	}
}

/*
 * One read of the loop: a gap when it lies more than the threshold after the
 * previous one. The gap starts at the previous read (@last), anchored at the
 * window's first read @c0 taken at CLOCK_MONOTONIC @mono0.
 */
static inline __attribute__((always_inline)) void
step(struct rtm_noise_rec *rec, const struct rtm_counter *c, uint64_t c0, uint64_t mono0,
     uint64_t last, uint64_t now, _Atomic uint32_t *seq)
{
	uint32_t s;

	if (__builtin_expect(now - last <= rec->threshold_cycles, 1))
		return;
	s = seq ? atomic_load_explicit(seq, memory_order_relaxed) : 0;
	if (seq) {
		atomic_store_explicit(seq, s + 1, memory_order_relaxed);
		atomic_thread_fence(memory_order_release);
	}
	rtm_noise_rec_add(rec, mono0 + rtm_counter_ns(c, last - c0), rtm_counter_ns(c, now - last));
	if (seq)
		atomic_store_explicit(seq, s + 2, memory_order_release);
}

void rtm_noise_rec_scan(struct rtm_noise_rec *rec, const struct rtm_counter *c,
			uint64_t mono0_ns, const uint64_t *reads, uint64_t n)
{
	uint64_t i;

	if (!n)
		return;
	for (i = 1; i < n; i++)
		step(rec, c, reads[0], mono0_ns, reads[i - 1], reads[i], NULL);
	rec->loops += n - 1;
	rec->sampled_ns += rtm_counter_ns(c, reads[n - 1] - reads[0]);
	rec->windows++;
}

/* ------------------------------------------------------------ the loop */

/*
 * The busy part of one window: read the counter until @end_c. Returns the last
 * read; *@loops the number of reads. @kind is a constant in each caller, so
 * the read is one instruction.
 */
static inline __attribute__((always_inline)) uint64_t
busy(struct noise_thread *t, enum rtm_counter_kind kind, uint64_t c0, uint64_t mono0,
     uint64_t end_c, uint64_t *loops)
{
	const struct rtm_counter *c = &t->probe->counter;
	_Atomic int *stop = &t->probe->stop, *cut = &t->cut;
	uint64_t last = c0, now, n = 0;

	for (;;) {
		now = rtm_counter_read(kind);
		n++;
		step(&t->rec, c, c0, mono0, last, now, &t->seq);
		last = now;
		if (unlikely(now >= end_c))
			break;
		if (unlikely(!(n & STOP_EVERY)) &&
		    (atomic_load_explicit(stop, memory_order_relaxed) ||
		     atomic_load_explicit(cut, memory_order_relaxed)))
			break;
	}
	*loops = n;
	return last;
}

static uint64_t busy_rdtscp(struct noise_thread *t, uint64_t c0, uint64_t mono0, uint64_t end_c,
			    uint64_t *loops)
{
	return busy(t, RTM_COUNTER_RDTSCP, c0, mono0, end_c, loops);
}

static uint64_t busy_rdtsc(struct noise_thread *t, uint64_t c0, uint64_t mono0, uint64_t end_c,
			   uint64_t *loops)
{
	return busy(t, RTM_COUNTER_RDTSC, c0, mono0, end_c, loops);
}

static uint64_t busy_clock(struct noise_thread *t, uint64_t c0, uint64_t mono0, uint64_t end_c,
			   uint64_t *loops)
{
	return busy(t, RTM_COUNTER_CLOCK, c0, mono0, end_c, loops);
}

/* Sleep to @t_ns in steps of at most 100 ms, so a stop is seen soon in long windows. */
static void sleep_until(const struct rtm_probe_noise *p, uint64_t t_ns)
{
	struct timespec ts;
	uint64_t now, until;

	while ((now = rtm_clock_ns(CLOCK_MONOTONIC)) < t_ns) {
		if (atomic_load_explicit(&((struct rtm_probe_noise *)p)->stop,
					 memory_order_relaxed))
			return;
		until = t_ns - now > 100000000ULL ? now + 100000000ULL : t_ns;
		ts.tv_sec = (time_t)(until / NSEC_PER_SEC);
		ts.tv_nsec = (long)(until % NSEC_PER_SEC);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

/* The guard's signal: the thread's cut flag (the timer's value points at it). */
static void guard_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si && si->si_code == SI_TIMER && si->si_value.sival_ptr)
		atomic_store_explicit((_Atomic int *)si->si_value.sival_ptr, 1,
				      memory_order_relaxed);
}

/* The calling thread's guard timer, its signal unblocked. 0 or -errno. */
static int guard_create(struct noise_thread *t)
{
	struct sigevent sev = { 0 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, GUARD_SIGNAL);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = GUARD_SIGNAL;
	sev.sigev_value.sival_ptr = &t->cut;
	sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_MONOTONIC, &sev, &t->guard) < 0)
		return -errno;
	t->guarded = true;
	return 0;
}

/* Arm the guard at @t_ns (CLOCK_MONOTONIC), or disarm it with 0. */
static void guard_set(struct noise_thread *t, uint64_t t_ns)
{
	struct itimerspec its = { .it_value = { (time_t)(t_ns / NSEC_PER_SEC),
						(long)(t_ns % NSEC_PER_SEC) } };

	timer_settime(t->guard, TIMER_ABSTIME, &its, NULL);
}

static void run_windows(struct noise_thread *t)
{
	struct rtm_probe_noise *p = t->probe;
	const struct rtm_probe_noise_opts *o = &p->opts;
	const enum rtm_counter_kind kind = p->counter.kind;
	uint64_t end = o->duration_ns ? p->start_ns + o->duration_ns : UINT64_MAX;
	uint64_t slack = o->width_ns / 10 > GUARD_MIN_NS ? o->width_ns / 10 : GUARD_MIN_NS;
	uint64_t win, k;

	for (k = 0;; k++) {
		uint64_t busy_end, c0, mono0, end_c, last, loops;
		uint32_t s;

		win = p->start_ns + k * o->window_ns;
		if (win >= end || atomic_load_explicit(&p->stop, memory_order_relaxed))
			break;
		sleep_until(p, win);
		if (atomic_load_explicit(&p->stop, memory_order_relaxed))
			break;
		busy_end = win + o->width_ns < end ? win + o->width_ns : end;
		/* a signal of the last window's guard came during the sleep at the latest */
		atomic_store_explicit(&t->cut, 0, memory_order_relaxed);
		guard_set(t, busy_end + slack);
		mono0 = rtm_clock_ns(CLOCK_MONOTONIC);
		c0 = rtm_counter_read(kind);
		if (busy_end <= mono0) {
			guard_set(t, 0);
			continue;	/* woke after the window's busy part (a long stall) */
		}
		end_c = c0 + rtm_counter_cycles(&p->counter, busy_end - mono0);
		if (kind == RTM_COUNTER_RDTSCP)
			last = busy_rdtscp(t, c0, mono0, end_c, &loops);
		else if (kind == RTM_COUNTER_RDTSC)
			last = busy_rdtsc(t, c0, mono0, end_c, &loops);
		else
			last = busy_clock(t, c0, mono0, end_c, &loops);
		guard_set(t, 0);
		s = atomic_load_explicit(&t->seq, memory_order_relaxed);
		atomic_store_explicit(&t->seq, s + 1, memory_order_relaxed);
		atomic_thread_fence(memory_order_release);
		t->rec.sampled_ns += rtm_counter_ns(&p->counter, last - c0);
		t->rec.loops += loops;
		t->rec.windows++;
		if (last < end_c && atomic_load_explicit(&t->cut, memory_order_relaxed))
			t->rec.windows_cut++;
		atomic_store_explicit(&t->seq, s + 2, memory_order_release);
	}
}

static void *noise_main(void *arg)
{
	struct noise_thread *t = arg;
	struct rtm_probe_noise *p = t->probe;
	struct rtm_error ignored;
	int ret;

	/* before the gate: no guard is the gate's set-up error, seen by the starter */
	ret = guard_create(t);
	if (ret) {
		rtm_error_set(&t->err, "cannot create the busy loop's wall-clock guard for "
			      "CPU %d (timer_create: %s)", t->cpu, strerror(-ret));
		pthread_mutex_lock(&p->gate.lock);
		p->gate.error = ret;
		pthread_mutex_unlock(&p->gate.lock);
	}
	t->error = rtm_gate_enter(&p->gate, "rtm-noise", t->cpu, &p->opts.sched, STACK_PREFAULT,
				  ret ? &ignored : &t->err);
	if (!t->error)
		t->error = ret;
	if (!p->gate.abort && !t->error)
		run_windows(t);
	if (t->guarded)
		timer_delete(t->guard);
	t->guarded = false;
	atomic_store(&t->running, false);
	atomic_fetch_sub(&p->nrunning, 1);
	return NULL;
}

/* ------------------------------------------------------------ the options */

unsigned int rtm_noise_opts_faults(const struct rtm_probe_noise_opts *o)
{
	unsigned int f = 0;

	if (o->window_ns < RTM_NOISE_WINDOW_MIN_NS || o->window_ns > RTM_NOISE_WINDOW_MAX_NS)
		f |= RTM_NOISE_BAD_WINDOW;
	if (o->width_ns < RTM_NOISE_WIDTH_MIN_NS)
		f |= RTM_NOISE_BAD_WIDTH;
	if (o->width_ns > o->window_ns)
		f |= RTM_NOISE_WIDTH_OVER;
	else if (o->width_ns == o->window_ns)
		f |= RTM_NOISE_WIDTH_FULL;
	if (o->threshold_ns < RTM_NOISE_THRESHOLD_MIN_NS ||
	    o->threshold_ns > RTM_NOISE_THRESHOLD_MAX_NS)
		f |= RTM_NOISE_BAD_THRESHOLD;
	if (o->report_above_ns < o->threshold_ns)
		f |= RTM_NOISE_BAD_REPORT;
	if (!rtm_noise_sched_ok(o->sched.policy))
		f |= RTM_NOISE_BAD_POLICY;
	return f;
}

bool rtm_noise_sched_ok(enum rtm_policy policy)
{
	return policy == RTM_POLICY_FIFO || policy == RTM_POLICY_RR ||
	       policy == RTM_POLICY_OTHER;
}

void rtm_noise_sched_of(const struct rtm_sched *s, struct rtm_sched *out)
{
	bool rt = s->policy == RTM_POLICY_DEADLINE;

	if (rtm_noise_sched_ok(s->policy)) {
		*out = *s;
		return;
	}
	memset(out, 0, sizeof(*out));
	out->policy = rt ? RTM_POLICY_FIFO : RTM_POLICY_OTHER;
	out->priority = rt ? 95 : 0;
}

/* ------------------------------------------------------------ life cycle */

static void destroy_threads(struct rtm_probe_noise *p)
{
	int i;

	for (i = 0; p->threads && i < p->n; i++) {
		rtm_noise_rec_release(&p->threads[i].rec);
	}
	free(p->threads);
	free(p->snaps);
	p->threads = NULL;
	p->snaps = NULL;
}

/*
 * What the loop itself needs (the command checks the bounds the user is
 * held to, rtm_noise_opts_faults(), before).
 */
static int check_opts(const struct rtm_probe_noise_opts *o, struct rtm_error *err)
{
	if (!o->cpus.n)
		return rtm_error_set(err, "no CPU to measure");
	if (!o->window_ns || !o->width_ns || o->width_ns > o->window_ns)
		return rtm_error_set(err, "the busy width must be above 0 and at most the window");
	if (!o->threshold_ns)
		return rtm_error_set(err, "the gap threshold must be above 0");
	if (!rtm_noise_sched_ok(o->sched.policy))
		return rtm_error_set(err, "a busy loop runs at fifo, rr or other, not %s",
				     rtm_policy_name(o->sched.policy));
	return 0;
}

/* Allocate the threads' records (touched now: the loop never faults on them). */
static int alloc_threads(struct rtm_probe_noise *p, struct rtm_error *err)
{
	const struct rtm_probe_noise_opts *o = &p->opts;
	int i;

	p->threads = aligned_alloc(64, sizeof(*p->threads) * (size_t)p->n);
	p->snaps = calloc((size_t)p->n, sizeof(*p->snaps));
	if (!p->threads || !p->snaps)
		return rtm_error_set(err, "out of memory");
	memset(p->threads, 0, sizeof(*p->threads) * (size_t)p->n);
	for (i = 0; i < p->n; i++) {
		struct noise_thread *t = &p->threads[i];

		t->probe = p;
		t->cpu = o->cpus.cpus[i];
		p->snaps[i].cpu = t->cpu;
		if (rtm_noise_rec_init(&t->rec, o->report_above_ns, o->max_gaps))
			return rtm_error_set(err, "out of memory for %u gaps per CPU (--max-gaps)",
					     o->max_gaps);
		t->rec.threshold_cycles = rtm_counter_cycles(&p->counter, o->threshold_ns);
	}
	return 0;
}

/* Create the threads; wait until each is pinned and scheduled, then open the gate. */
static int start_threads(struct rtm_probe_noise *p, struct rtm_error *err)
{
	struct sigaction sa = { .sa_sigaction = guard_handler, .sa_flags = SA_SIGINFO | SA_RESTART };
	int i, ret, created = 0;
	bool abort;

	/* the guard's signal goes to its thread only (SIGEV_THREAD_ID) */
	sigemptyset(&sa.sa_mask);
	if (sigaction(GUARD_SIGNAL, &sa, NULL) < 0)
		return rtm_error_setn(err, -errno, "cannot install the busy loop's guard "
				      "signal handler: %s", strerror(errno));
	rtm_gate_init(&p->gate);
	atomic_store(&p->nrunning, p->n);
	for (i = 0; i < p->n; i++) {
		struct noise_thread *t = &p->threads[i];

		atomic_store(&t->running, true);
		ret = rtm_probe_thread_create(&t->tid, noise_main, t);
		if (ret) {
			rtm_error_set(err, "cannot create the noise thread for CPU %d: %s", t->cpu,
				      strerror(ret));
			p->gate.abort = true;
			break;
		}
		t->created = true;
		created++;
	}
	for (i = created; i < p->n; i++) {
		atomic_store(&p->threads[i].running, false);
		atomic_fetch_sub(&p->nrunning, 1);
	}
	abort = p->gate.abort;
	rtm_gate_wait_ready(&p->gate, created);
	/*
	 * A thread's set-up error is the gate's, its message in the thread's err
	 * (both written before it reported; t->error only once the gate opens).
	 */
	for (i = 0; i < created && !abort && p->gate.error; i++) {
		if (p->threads[i].err.msg[0]) {
			if (err)
				*err = p->threads[i].err;
			abort = true;
		}
	}
	if (p->gate.error && !abort) {
		rtm_error_set(err, "a noise thread could not be pinned or scheduled: %s",
			      strerror(-p->gate.error));
		abort = true;
	}
	p->start_ns = rtm_clock_ns(CLOCK_MONOTONIC) + START_DELAY_NS;
	p->next_tick_ns = p->start_ns + TICK_NS;
	rtm_gate_open(&p->gate, abort);
	if (!abort)
		return 0;
	for (i = 0; i < created; i++)
		pthread_join(p->threads[i].tid, NULL);
	rtm_gate_destroy(&p->gate);
	return -EINVAL;
}

struct rtm_probe_noise *rtm_probe_noise_start(const struct rtm_probe_noise_opts *o,
					      struct rtm_error *err)
{
	return rtm_probe_noise_start_with(o, NULL, err);
}

struct rtm_probe_noise *rtm_probe_noise_start_with(const struct rtm_probe_noise_opts *o,
						   const struct rtm_counter *counter,
						   struct rtm_error *err)
{
	struct rtm_probe_noise *p;

	if (check_opts(o, err))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	p->opts = *o;
	p->n = o->cpus.n;
	p->dma_fd = -1;
	if (counter)
		p->counter = *counter;
	if ((!counter && rtm_counter_calibrate(&p->counter, CALIBRATE_NS, err)) ||
	    alloc_threads(p, err))
		goto fail;
	if (o->lock_memory) {
		if (rtm_memory_lock(HEAP_PREFAULT, err))
			goto fail;
		p->locked = true;
	}
	if (o->dma_latency_us >= 0) {
		p->dma_fd = rtm_dma_latency_hold(o->dma_latency_us, err);
		if (p->dma_fd < 0)
			goto fail;
	}
	if (start_threads(p, err))
		goto fail;
	return p;
fail:
	if (p->dma_fd >= 0)
		rtm_dma_latency_release(p->dma_fd);
	if (p->locked)
		rtm_memory_unlock();
	destroy_threads(p);
	free(p);
	return NULL;
}

void rtm_probe_noise_snapshot(const struct rtm_probe_noise *p, int i,
			      struct rtm_noise_cpu_snap *snap, struct rtm_hist *hist)
{
	struct noise_thread *t = &p->threads[i];
	uint32_t s1, s2;

	for (;;) {
		s1 = atomic_load_explicit(&t->seq, memory_order_acquire);
		if (s1 & 1) {
			sched_yield();
			continue;
		}
		snap->sampled_ns = t->rec.sampled_ns;
		snap->loops = t->rec.loops;
		snap->windows = t->rec.windows;
		snap->gaps = t->rec.gaps;
		snap->noise_ns = t->rec.noise_ns;
		snap->max_gap_ns = t->rec.max_gap_ns;
		snap->above_report = t->rec.above_report;
		if (hist)
			rtm_hist_copy(hist, t->rec.hist);
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&t->seq, memory_order_relaxed);
		if (s1 == s2)
			break;
	}
	snap->cpu = t->cpu;
	snap->running = atomic_load(&t->running);
}

uint32_t rtm_probe_noise_gaps(const struct rtm_probe_noise *p, int i, uint32_t from,
			      struct rtm_noise_gap *out, uint32_t max)
{
	struct noise_thread *t = &p->threads[i];
	uint32_t s1, s2, n;

	for (;;) {
		s1 = atomic_load_explicit(&t->seq, memory_order_acquire);
		if (s1 & 1) {
			sched_yield();
			continue;
		}
		n = t->rec.nlog;
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&t->seq, memory_order_relaxed);
		if (s1 == s2)
			break;
	}
	if (from >= n)
		return 0;
	if (n - from > max)
		n = from + max;
	memcpy(out, &t->rec.log[from], (size_t)(n - from) * sizeof(*out));
	return n - from;
}

uint64_t rtm_probe_noise_start_ns(const struct rtm_probe_noise *p)
{
	return p->start_ns;
}

int rtm_probe_noise_cpu(const struct rtm_probe_noise *p, int i)
{
	return p->threads[i].cpu;
}

int rtm_probe_noise_ncpus(const struct rtm_probe_noise *p)
{
	return p->n;
}

void rtm_probe_noise_stop(struct rtm_probe_noise *p)
{
	atomic_store(&p->stop, 1);
}

bool rtm_probe_noise_done(const struct rtm_probe_noise *p)
{
	return atomic_load(&((struct rtm_probe_noise *)p)->nrunning) == 0;
}

static void join(struct rtm_probe_noise *p)
{
	int i;

	if (p->joined)
		return;
	atomic_store(&p->stop, 1);
	for (i = 0; i < p->n; i++)
		if (p->threads[i].created)
			pthread_join(p->threads[i].tid, NULL);
	rtm_gate_destroy(&p->gate);
	if (p->dma_fd >= 0)
		rtm_dma_latency_release(p->dma_fd);
	p->dma_fd = -1;
	if (p->locked)
		rtm_memory_unlock();
	p->locked = false;
	p->joined = true;
}

/* One CPU of sections.noise (docs/result-schema.md). */
static json_t *cpu_json(const struct rtm_probe_noise *p, const struct noise_thread *t)
{
	const struct rtm_noise_rec *rec = &t->rec;
	json_t *gaps = json_array(), *o;
	uint32_t k;

	for (k = 0; k < rec->nlog; k++)
		json_array_append_new(gaps, json_pack("[I, I]",
			(json_int_t)(rec->log[k].start_ns - p->start_ns),
			(json_int_t)rec->log[k].len_ns));
	o = json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:I, s:o}",
		"cpu", t->cpu,
		"sampled_ns", (json_int_t)rec->sampled_ns,
		"loops", (json_int_t)rec->loops,
		"windows", (json_int_t)rec->windows,
		"gaps", (json_int_t)rec->gaps,
		"noise_ns", (json_int_t)rec->noise_ns,
		"max_gap_ns", (json_int_t)rec->max_gap_ns,
		"above_report", (json_int_t)rec->above_report,
		"hist", rtm_hist_to_json(rec->hist),
		"gaps_dropped", (json_int_t)rec->dropped,
		"gap_list", gaps);
	/* the loop's own sample period: its resolution; unknown without a read */
	json_object_set_new(o, "sample_period_ns", rec->loops ?
			    json_real((double)rec->sampled_ns / (double)rec->loops) : json_null());
	json_object_set_new(o, "windows_cut", json_integer((json_int_t)rec->windows_cut));
	return o;
}

int rtm_probe_noise_finish(struct rtm_probe_noise *p, struct rtm_result *r,
			   struct rtm_error *err)
{
	const struct rtm_probe_noise_opts *o = &p->opts;
	uint64_t end;
	json_t *sec, *cpus;
	int i;

	join(p);
	end = rtm_clock_ns(CLOCK_MONOTONIC);
	if (o->duration_ns && end > p->start_ns + o->duration_ns)
		end = p->start_ns + o->duration_ns;
	r->duration_ns = end > p->start_ns ? end - p->start_ns : 0;
	cpus = json_array();
	for (i = 0; i < p->n; i++)
		json_array_append_new(cpus, cpu_json(p, &p->threads[i]));
	sec = json_pack("{s:s, s:s, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:o}",
		"probe", "user",
		"counter", rtm_counter_name(p->counter.kind),
		"counter_hz", p->counter.hz,
		"window_ns", (json_int_t)o->window_ns,
		"width_ns", (json_int_t)o->width_ns,
		"threshold_ns", (json_int_t)o->threshold_ns,
		"report_above_ns", (json_int_t)o->report_above_ns,
		"start_mono_ns", (json_int_t)p->start_ns,
		"duration_ns", (json_int_t)r->duration_ns,
		"cpus", cpus);
	if (!sec)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	json_object_set_new(sec, "backend", json_string("user"));
	if (o->backend_reason)
		json_object_set_new(sec, "backend_reason", json_string(o->backend_reason));
	json_object_set_new(r->sections, "noise", sec);
	return 0;
}

void rtm_probe_noise_free(struct rtm_probe_noise *p)
{
	if (!p)
		return;
	join(p);
	destroy_threads(p);
	free(p);
}

/* ------------------------------------------------------------ the probe seam */

static void *noise_start(const void *opts, uint64_t ts_interval_ns, struct rtm_error *err)
{
	(void)ts_interval_ns;
	return rtm_probe_noise_start(opts, err);
}

static void noise_snapshot(void *v, bool boundary)
{
	struct rtm_probe_noise *p = v;
	int i;

	if (!rtm_probe_tick(&p->next_tick_ns, TICK_NS, boundary))
		return;
	for (i = 0; i < p->n; i++)
		rtm_probe_noise_snapshot(p, i, &p->snaps[i], NULL);
}

static uint64_t noise_next_tick_ns(const void *v)
{
	return ((const struct rtm_probe_noise *)v)->next_tick_ns;
}

static double noise_elapsed_s(const void *v)
{
	const struct rtm_probe_noise *p = v;

	return rtm_probe_elapsed_s(p->start_ns, p->opts.duration_ns);
}

static bool noise_done(const void *v)
{
	return rtm_probe_noise_done(v);
}

static void noise_stop(void *v)
{
	rtm_probe_noise_stop(v);
}

static int noise_finish(void *v, struct rtm_result *r, struct rtm_error *err)
{
	return rtm_probe_noise_finish(v, r, err);
}

static void noise_free(void *v)
{
	rtm_probe_noise_free(v);
}

/*
 * sections.noise from fresh snapshots while the threads run, for --prometheus:
 * the per-CPU counts and gap histograms, no gap list. Each CPU's figures are
 * one consistent copy (the thread's sequence counter); sampled_ns grows when a
 * window ends, the gaps as they happen.
 */
static json_t *noise_live_section(void *v)
{
	struct rtm_probe_noise *p = v;
	const struct rtm_probe_noise_opts *o = &p->opts;
	struct rtm_hist *h = rtm_hist_alloc();
	struct rtm_noise_cpu_snap snap;
	json_t *cpus = json_array(), *sec = NULL;
	int i;

	if (!h || !cpus)
		goto out;
	for (i = 0; i < p->n; i++) {
		rtm_probe_noise_snapshot(p, i, &snap, h);
		if (json_array_append_new(cpus, json_pack(
			"{s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o}",
			"cpu", snap.cpu,
			"sampled_ns", (json_int_t)snap.sampled_ns,
			"loops", (json_int_t)snap.loops,
			"windows", (json_int_t)snap.windows,
			"gaps", (json_int_t)snap.gaps,
			"noise_ns", (json_int_t)snap.noise_ns,
			"max_gap_ns", (json_int_t)snap.max_gap_ns,
			"above_report", (json_int_t)snap.above_report,
			"hist", rtm_hist_to_json(h))))
			goto out;
	}
	sec = json_pack("{s:s, s:I, s:I, s:I, s:O}",
		"probe", "user",
		"window_ns", (json_int_t)o->window_ns,
		"width_ns", (json_int_t)o->width_ns,
		"threshold_ns", (json_int_t)o->threshold_ns,
		"cpus", cpus);
out:
	json_decref(cpus);
	rtm_hist_free(h);
	return sec;
}

const struct rtm_probe_ops rtm_probe_noise_ops = {
	.name = "noise",
	.section = "noise",
	.start = noise_start,
	.snapshot = noise_snapshot,
	.next_tick_ns = noise_next_tick_ns,
	.quiet_ns = NULL,
	.elapsed_s = noise_elapsed_s,
	.done = noise_done,
	.stop = noise_stop,
	.finish = noise_finish,
	.free = noise_free,
	.live_section = noise_live_section,
};
