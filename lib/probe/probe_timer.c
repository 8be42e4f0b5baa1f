// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe_timer.c - cyclictest-style wake-up latency probe, one thread per CPU.
 *
 * The measuring loop is sacred: no allocation, no lock shared across CPUs, no
 * system call beyond the sleep (the clock is read through the vDSO), no
 * printing. Each thread owns its histograms; readers copy them under a
 * per-thread sequence counter (a seqlock with a single writer).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "probe/probe_timer.h"

#define NSEC_PER_SEC	1000000000ULL
/* the first planned wake-up comes this long after all threads are ready */
#define START_DELAY_NS	(100 * 1000 * 1000ULL)
#define STACK_PREFAULT	(64 * 1024)
#define HEAP_PREFAULT	(1024 * 1024)	/* for allocations after the start */
#define TIMER_SIGNAL	(SIGRTMIN + 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

struct probe_thread {
	/* written by the probe thread only */
	_Atomic uint32_t seq;
	uint64_t samples;
	uint64_t overruns;
	uint64_t last_ns;
	struct rtm_hist *raw;
	struct rtm_hist *implied;	/* coordinated-omission samples only */
	struct rtm_probe_spike *log;	/* --log-above entries, read after join */
	uint32_t nlog;
	uint64_t log_dropped;
	/* the census's late wake-ups: a ring the probe fills and the reader empties */
	struct rtm_probe_spike *late;
	_Atomic uint32_t late_head;	/* written by the probe */
	_Atomic uint32_t late_tail;	/* written by the reader */
	_Atomic uint64_t late_dropped;	/* the ring was full */
	/* --capture-above, per CPU: written by the reader, read by the probe */
	_Atomic uint64_t capture_armed_at;	/* CLOCK_MONOTONIC; this CPU's hold-off end */
	_Atomic uint32_t ncaptures;

	/* set up before the start, read-only afterwards */
	struct rtm_probe_timer *probe;
	pthread_t tid;
	bool created;
	int index;
	int cpu;
	uint64_t interval_ns;
	int error;
	struct rtm_error err;
	_Atomic bool running;
} __attribute__((aligned(64)));

struct rtm_probe_timer {
	struct rtm_probe_timer_opts opts;
	int n;
	struct probe_thread *threads;
	/* start gate: threads report set-up, then wait for go (or abort) */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_cond;
	int nready;
	bool gate_open;
	uint64_t start_ns;
	bool abort;
	_Atomic int stop;
	_Atomic int nrunning;
	_Atomic int break_claimed;
	struct rtm_probe_hit brk;
	/* --capture-above: ARMED -> CLAIMING -> PENDING (a probe), then ARMED or
	 * OVER again (the reader, once the capture is saved) */
	_Atomic int capture_state;
	struct rtm_probe_hit cap;	/* written by the claiming probe only */
	int cap_index;			/* the claiming thread, likewise */
	_Atomic uint64_t capture_ns;	/* opts.capture_ns, changeable while running */
	_Atomic int capture_fd;		/* opts.trace_off_fd for captures, likewise */
	uint32_t ncaptures;
	int dma_fd;
	bool locked;
	bool allocated;		/* probe_alloc() got every buffer */
	bool joined;
};

const char *rtm_timer_mode_name(enum rtm_timer_mode m)
{
	switch (m) {
	case RTM_TIMER_NANOSLEEP:	return "nanosleep";
	case RTM_TIMER_TIMERFD:		return "timerfd";
	case RTM_TIMER_SIGNAL:		return "signal";
	}
	return "unknown";
}

int rtm_timer_mode_parse(const char *s, enum rtm_timer_mode *m, struct rtm_error *err)
{
	if (!strcasecmp(s, "nanosleep") || !strcasecmp(s, "clock_nanosleep"))
		*m = RTM_TIMER_NANOSLEEP;
	else if (!strcasecmp(s, "timerfd"))
		*m = RTM_TIMER_TIMERFD;
	else if (!strcasecmp(s, "signal") || !strcasecmp(s, "posix"))
		*m = RTM_TIMER_SIGNAL;
	else
		return rtm_error_set(err, "unknown timer mode '%s' (use nanosleep, timerfd or "
				     "signal)", s);
	return 0;
}

static inline struct timespec ns_to_ts(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};

	return ts;
}

/*
 * Record one wake-up. @planned is when we should have woken, @now when we did;
 * @missed is the number of later periods already past (overruns).
 */
static inline void record(struct probe_thread *t, uint64_t lat, uint64_t missed)
{
	uint32_t s = atomic_load_explicit(&t->seq, memory_order_relaxed);

	atomic_store_explicit(&t->seq, s + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	rtm_hist_record(t->raw, lat);
	/*
	 * The corrected histogram is raw + the samples a stall swallowed
	 * (lat - i, lat - 2i, ... while >= i); only those are recorded here,
	 * so the common case costs one comparison. Readers merge the two.
	 */
	if (unlikely(lat >= 2 * t->interval_ns))
		rtm_hist_record_corrected(t->implied, lat - t->interval_ns, t->interval_ns);
	t->last_ns = lat;
	t->samples++;
	t->overruns += missed;
	atomic_store_explicit(&t->seq, s + 2, memory_order_release);
}

/* Keep the time of a wake-up above --log-above; no allocation, no call. */
static inline void log_spike(struct probe_thread *t, uint64_t planned, uint64_t lat)
{
	const struct rtm_probe_timer_opts *o = &t->probe->opts;

	if (!o->log_above_ns || lat <= o->log_above_ns)
		return;
	if (t->nlog < o->log_max) {
		t->log[t->nlog].planned_ns = planned;
		t->log[t->nlog].latency_ns = lat;
		t->nlog++;
	} else {
		t->log_dropped++;
	}
}

/*
 * A wake-up over the census bound, for the reader (rtm_probe_timer_late_take()):
 * two stores and a release, no call; a full ring counts the wake-up as dropped.
 */
static inline void late_push(struct probe_thread *t, uint64_t planned, uint64_t lat)
{
	uint32_t head = atomic_load_explicit(&t->late_head, memory_order_relaxed);

	if (head - atomic_load_explicit(&t->late_tail, memory_order_acquire) >=
	    RTM_PROBE_LATE_RING) {
		atomic_fetch_add_explicit(&t->late_dropped, 1, memory_order_relaxed);
		return;
	}
	t->late[head % RTM_PROBE_LATE_RING] = (struct rtm_probe_spike){ planned, lat };
	atomic_store_explicit(&t->late_head, head + 1, memory_order_release);
}

enum { CAPTURE_ARMED, CAPTURE_CLAIMING, CAPTURE_PENDING, CAPTURE_OVER };

/* Freeze the flight recorder with the spike in it (one write) and note the wake-up. */
static void note_hit(struct probe_thread *t, int trace_off_fd, uint64_t planned, uint64_t now,
		     struct rtm_probe_hit *h)
{
	h->trace_off_failed = trace_off_fd >= 0 && write(trace_off_fd, "0", 1) < 0;
	h->hit = true;
	h->cpu = t->cpu;
	h->latency_ns = now - planned;
	h->planned_ns = planned;
	h->woke_ns = now;
	h->sample = t->samples;
}

/*
 * A sample over --capture-above: the first thread to claim it freezes the
 * flight recorder (one write, like -b) and notes the spike for the reader,
 * then goes on measuring. Nothing is claimed while a capture is being saved
 * or during the hold-off after it.
 */
static void claim_capture(struct probe_thread *t, uint64_t planned, uint64_t now)
{
	struct rtm_probe_timer *p = t->probe;
	int expected = CAPTURE_ARMED;

	/* this CPU's hold-off and budget: another CPU's spike does not blind it */
	if (atomic_load_explicit(&p->capture_state, memory_order_relaxed) != CAPTURE_ARMED ||
	    now < atomic_load_explicit(&t->capture_armed_at, memory_order_relaxed) ||
	    (p->opts.capture_max &&
	     atomic_load_explicit(&t->ncaptures, memory_order_relaxed) >= p->opts.capture_max))
		return;
	if (!atomic_compare_exchange_strong(&p->capture_state, &expected, CAPTURE_CLAIMING))
		return;
	p->cap_index = t->index;
	note_hit(t, atomic_load_explicit(&p->capture_fd, memory_order_relaxed), planned, now,
		 &p->cap);
	/* publish: the reader acquires the state, then reads p->cap */
	atomic_store_explicit(&p->capture_state, CAPTURE_PENDING, memory_order_release);
}

/* The first sample over the break threshold stops every thread. */
static void claim_break(struct probe_thread *t, uint64_t planned, uint64_t now)
{
	struct rtm_probe_timer *p = t->probe;
	int expected = 0;

	if (atomic_compare_exchange_strong(&p->break_claimed, &expected, 1))
		note_hit(t, p->opts.trace_off_fd, planned, now, &p->brk);
	atomic_store_explicit(&p->stop, 1, memory_order_relaxed);
}

static inline bool should_stop(struct probe_thread *t, uint64_t next, uint64_t end)
{
	const struct rtm_probe_timer *p = t->probe;

	return atomic_load_explicit(&p->stop, memory_order_relaxed) || next >= end ||
	       (p->opts.loops && t->samples >= p->opts.loops);
}

/*
 * Everything after a wake-up; returns true when the thread should stop. Always
 * inlined: called from three loops, the compiler would otherwise make it a
 * function, and the call with its register saves cost ~35 instructions a loop.
 */
static inline __attribute__((always_inline)) bool
after_wake(struct probe_thread *t, uint64_t planned, uint64_t now, uint64_t missed, uint64_t next,
	   uint64_t end)
{
	const uint64_t lat = now - planned, brk = t->probe->opts.break_ns;
	uint64_t cap;

	record(t, lat, missed);
	log_spike(t, planned, lat);
	if (unlikely(t->late && lat > t->probe->opts.late_ns))
		late_push(t, planned, lat);
	cap = atomic_load_explicit(&t->probe->capture_ns, memory_order_relaxed);
	if (unlikely(cap && lat > cap))
		claim_capture(t, planned, now);
	if (brk && lat > brk)
		claim_break(t, planned, now);
	return should_stop(t, next, end);
}

static void loop_nanosleep(struct probe_thread *t, uint64_t start, uint64_t end)
{
	const uint64_t interval = t->interval_ns;
	uint64_t next = start;

	for (;;) {
		struct timespec ts = ns_to_ts(next);
		uint64_t now, missed = 0, planned = next;

		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			continue;
		now = rtm_clock_ns(CLOCK_MONOTONIC);
		next += interval;
		if (now >= next) {
			missed = (now - next) / interval + 1;
			next += missed * interval;
		}
		if (after_wake(t, planned, now, missed, next, end))
			break;
	}
}

static int loop_timerfd(struct probe_thread *t, uint64_t start, uint64_t end)
{
	const uint64_t interval = t->interval_ns;
	struct itimerspec its = { .it_value = ns_to_ts(start), .it_interval = ns_to_ts(interval) };
	uint64_t next = start;
	int fd;

	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) < 0) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	for (;;) {
		uint64_t expirations, now, planned = next;

		if (read(fd, &expirations, sizeof(expirations)) != sizeof(expirations)) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -errno;
		}
		now = rtm_clock_ns(CLOCK_MONOTONIC);
		next += expirations * interval;
		if (after_wake(t, planned, now, expirations - 1, next, end))
			break;
	}
	close(fd);
	return 0;
}

static int loop_signal(struct probe_thread *t, uint64_t start, uint64_t end)
{
	const uint64_t interval = t->interval_ns;
	struct itimerspec its = { .it_value = ns_to_ts(start), .it_interval = ns_to_ts(interval) };
	struct sigevent sev = { 0 };
	uint64_t next = start;
	timer_t timer;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, TIMER_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = TIMER_SIGNAL;
	sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer) < 0)
		return -errno;
	if (timer_settime(timer, TIMER_ABSTIME, &its, NULL) < 0) {
		int ret = -errno;

		timer_delete(timer);
		return ret;
	}
	for (;;) {
		uint64_t now, planned = next, missed;
		siginfo_t si;

		if (sigwaitinfo(&set, &si) < 0)
			continue;
		now = rtm_clock_ns(CLOCK_MONOTONIC);
		missed = si.si_overrun > 0 ? (uint64_t)si.si_overrun : 0;
		next += (missed + 1) * interval;
		if (after_wake(t, planned, now, missed, next, end))
			break;
	}
	timer_delete(timer);
	return 0;
}

static void *probe_main(void *arg)
{
	struct probe_thread *t = arg;
	struct rtm_probe_timer *p = t->probe;
	uint64_t start, end;
	char name[16];
	int ret;

	/* name the thread so traces and ps show which CPU it measures */
	snprintf(name, sizeof(name), "rtm-probe/%d", t->cpu);
	pthread_setname_np(pthread_self(), name);
	ret = rtm_affinity_set(t->cpu, &t->err);
	if (!ret)
		ret = rtm_sched_apply(&p->opts.sched, &t->err);
	if (!ret)
		rtm_stack_prefault(STACK_PREFAULT);
	t->error = ret;

	pthread_mutex_lock(&p->gate_lock);
	p->nready++;
	pthread_cond_broadcast(&p->gate_cond);
	while (!p->gate_open)
		pthread_cond_wait(&p->gate_cond, &p->gate_lock);
	pthread_mutex_unlock(&p->gate_lock);
	if (p->abort || t->error) {
		atomic_store(&t->running, false);
		atomic_fetch_sub(&p->nrunning, 1);
		return NULL;
	}

	start = p->start_ns;
	end = p->opts.duration_ns ? start + p->opts.duration_ns : UINT64_MAX;
	switch (p->opts.mode) {
	case RTM_TIMER_NANOSLEEP:
		loop_nanosleep(t, start, end);
		break;
	case RTM_TIMER_TIMERFD:
		t->error = loop_timerfd(t, start, end);
		break;
	case RTM_TIMER_SIGNAL:
		t->error = loop_signal(t, start, end);
		break;
	}
	atomic_store(&t->running, false);
	atomic_fetch_sub(&p->nrunning, 1);
	return NULL;
}

static void destroy_threads(struct rtm_probe_timer *p)
{
	int i;

	for (i = 0; p->threads && i < p->n; i++) {	/* NULL: its allocation failed */
		rtm_hist_free(p->threads[i].raw);
		rtm_hist_free(p->threads[i].implied);
		free(p->threads[i].log);
		free(p->threads[i].late);
	}
	free(p->threads);
	p->threads = NULL;
}

/* Set-up: the probe and its threads' memory, all allocated before anything runs. */
static struct rtm_probe_timer *probe_alloc(const struct rtm_probe_timer_opts *o)
{
	struct rtm_probe_timer *p = calloc(1, sizeof(*p));
	int i;

	if (!p)
		return NULL;
	p->opts = *o;
	p->n = o->cpus.n;
	atomic_store(&p->capture_ns, o->capture_ns);
	atomic_store(&p->capture_fd, o->trace_off_fd);
	p->dma_fd = -1;
	p->threads = aligned_alloc(64, sizeof(*p->threads) * (size_t)p->n);
	if (!p->threads)
		return p;	/* the caller sees p->threads NULL */
	memset(p->threads, 0, sizeof(*p->threads) * (size_t)p->n);
	for (i = 0; i < p->n; i++) {
		struct probe_thread *t = &p->threads[i];

		t->probe = p;
		t->index = i;
		t->cpu = o->cpus.cpus[i];
		t->interval_ns = o->interval_ns + (uint64_t)i * o->distance_ns;
		t->raw = rtm_hist_alloc();
		t->implied = rtm_hist_alloc();
		if (!t->raw || !t->implied)
			return p;
		if (o->log_above_ns && o->log_max) {
			/* calloc, then touched, so the loop never faults on it */
			t->log = calloc(o->log_max, sizeof(*t->log));
			if (!t->log)
				return p;
		}
		if (o->late_ns) {
			t->late = calloc(RTM_PROBE_LATE_RING, sizeof(*t->late));
			if (!t->late)
				return p;
		}
	}
	p->allocated = true;
	return p;
}

/* Set-up: the threads, created with every signal blocked; returns how many were. */
static int probe_create_threads(struct rtm_probe_timer *p, struct rtm_error *err)
{
	sigset_t block, old;
	int i, ret, created = 0;

	/* probe threads never take the command's signals */
	sigfillset(&block);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < p->n; i++) {
		struct probe_thread *t = &p->threads[i];

		atomic_store(&t->running, true);
		ret = pthread_create(&t->tid, NULL, probe_main, t);
		if (ret) {
			rtm_error_set(err, "cannot create the probe thread for CPU %d: %s", t->cpu,
				      strerror(ret));
			p->abort = true;
			break;
		}
		t->created = true;
		created++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (i = created; i < p->n; i++) {
		atomic_store(&p->threads[i].running, false);
		atomic_fetch_sub(&p->nrunning, 1);
	}
	return created;
}

/* The start: wait until every thread is pinned and scheduled (or failed), then open the gate. */
static void probe_open_gate(struct rtm_probe_timer *p, int created, struct rtm_error *err)
{
	int i;

	pthread_mutex_lock(&p->gate_lock);
	while (p->nready < created)
		pthread_cond_wait(&p->gate_cond, &p->gate_lock);
	for (i = 0; i < created && !p->abort; i++) {
		if (p->threads[i].error) {
			if (err)
				*err = p->threads[i].err;
			p->abort = true;
		}
	}
	p->start_ns = rtm_clock_ns(CLOCK_MONOTONIC) + START_DELAY_NS;
	p->gate_open = true;
	pthread_cond_broadcast(&p->gate_cond);
	pthread_mutex_unlock(&p->gate_lock);
}

struct rtm_probe_timer *rtm_probe_timer_start(const struct rtm_probe_timer_opts *o,
					      struct rtm_error *err)
{
	struct rtm_probe_timer *p;
	int i, ret, created;

	if (!o->cpus.n || !o->interval_ns) {
		rtm_error_set(err, "no CPU or no interval to measure");
		return NULL;
	}
	p = probe_alloc(o);
	if (!p) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	if (!p->allocated)
		goto nomem;

	if (o->lock_memory) {
		ret = rtm_memory_lock(HEAP_PREFAULT, err);
		if (ret)
			goto fail;
		p->locked = true;
	}
	if (o->dma_latency_us >= 0) {
		p->dma_fd = rtm_dma_latency_hold(o->dma_latency_us, err);
		if (p->dma_fd < 0)
			goto fail;
	}

	pthread_mutex_init(&p->gate_lock, NULL);
	pthread_cond_init(&p->gate_cond, NULL);
	atomic_store(&p->nrunning, p->n);
	created = probe_create_threads(p, err);
	probe_open_gate(p, created, err);

	/* outcome: running, or every created thread joined again */
	if (p->abort) {
		for (i = 0; i < created; i++)
			pthread_join(p->threads[i].tid, NULL);
		pthread_mutex_destroy(&p->gate_lock);
		pthread_cond_destroy(&p->gate_cond);
		goto fail;
	}
	return p;

nomem:
	rtm_error_set(err, "out of memory");
fail:
	if (p->dma_fd >= 0)
		rtm_dma_latency_release(p->dma_fd);
	if (p->locked)
		rtm_memory_unlock();
	destroy_threads(p);
	free(p);
	return NULL;
}

uint64_t rtm_probe_timer_start_ns(const struct rtm_probe_timer *p)
{
	return p->start_ns;
}

int rtm_probe_timer_ncpus(const struct rtm_probe_timer *p)
{
	return p->n;
}

void rtm_probe_timer_stop(struct rtm_probe_timer *p)
{
	atomic_store(&p->stop, 1);
}

bool rtm_probe_timer_done(const struct rtm_probe_timer *p)
{
	return atomic_load(&((struct rtm_probe_timer *)p)->nrunning) == 0;
}

void rtm_probe_timer_snapshot(const struct rtm_probe_timer *p, int i,
			      struct rtm_probe_cpu_snap *snap, struct rtm_hist *raw,
			      struct rtm_hist *corrected)
{
	struct probe_thread *t = &p->threads[i];
	uint32_t s1, s2;

	for (;;) {
		s1 = atomic_load_explicit(&t->seq, memory_order_acquire);
		if (s1 & 1) {
			sched_yield();
			continue;
		}
		snap->samples = t->samples;
		snap->overruns = t->overruns;
		snap->last_ns = t->last_ns;
		snap->implied = t->implied ? t->implied->count : 0;
		if (raw)
			rtm_hist_copy(raw, t->raw);
		if (corrected) {
			rtm_hist_copy(corrected, t->raw);
			rtm_hist_merge(corrected, t->implied);
		}
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&t->seq, memory_order_relaxed);
		if (s1 == s2)
			break;
	}
	snap->cpu = t->cpu;
	snap->running = atomic_load(&t->running);
	snap->error = t->error;
}

void rtm_probe_timer_break_info(const struct rtm_probe_timer *p, struct rtm_probe_hit *b)
{
	if (atomic_load(&((struct rtm_probe_timer *)p)->break_claimed))
		*b = p->brk;
	else
		memset(b, 0, sizeof(*b));
}

bool rtm_probe_timer_capture_pending(const struct rtm_probe_timer *p,
				     struct rtm_probe_hit *c)
{
	struct rtm_probe_timer *q = (struct rtm_probe_timer *)p;

	if (atomic_load_explicit(&q->capture_state, memory_order_acquire) != CAPTURE_PENDING)
		return false;
	*c = p->cap;
	return true;
}

uint32_t rtm_probe_timer_capture_done(struct rtm_probe_timer *p)
{
	struct probe_thread *t;
	bool over;
	int i;

	if (atomic_load(&p->capture_state) != CAPTURE_PENDING)
		return p->ncaptures;
	t = &p->threads[p->cap_index];
	over = p->opts.capture_max != 0;
	p->ncaptures++;
	atomic_fetch_add(&t->ncaptures, 1);
	atomic_store(&t->capture_armed_at,
		     rtm_clock_ns(CLOCK_MONOTONIC) + p->opts.capture_holdoff_ns);
	for (i = 0; i < p->n && over; i++)
		over = atomic_load(&p->threads[i].ncaptures) >= p->opts.capture_max;
	atomic_store(&p->capture_state, over ? CAPTURE_OVER : CAPTURE_ARMED);
	return p->ncaptures;
}

void rtm_probe_timer_set_capture(struct rtm_probe_timer *p, uint64_t capture_ns, int trace_off_fd)
{
	atomic_store(&p->capture_fd, trace_off_fd);
	atomic_store(&p->capture_ns, capture_ns);
}

uint32_t rtm_probe_timer_late_take(struct rtm_probe_timer *p, int i, struct rtm_probe_spike *out,
				   uint32_t max, uint64_t *dropped)
{
	struct probe_thread *t = &p->threads[i];
	uint32_t tail = atomic_load_explicit(&t->late_tail, memory_order_relaxed);
	uint32_t head = atomic_load_explicit(&t->late_head, memory_order_acquire), n = 0;

	if (dropped)
		*dropped = atomic_load_explicit(&t->late_dropped, memory_order_relaxed);
	if (!t->late)
		return 0;
	while (tail != head && n < max)
		out[n++] = t->late[tail++ % RTM_PROBE_LATE_RING];
	atomic_store_explicit(&t->late_tail, tail, memory_order_release);
	return n;
}

uint32_t rtm_probe_timer_spikes(const struct rtm_probe_timer *p, int i,
				const struct rtm_probe_spike **log, uint64_t *dropped)
{
	const struct probe_thread *t = &p->threads[i];

	*log = t->log;
	*dropped = t->log_dropped;
	return p->joined ? t->nlog : 0;
}

void rtm_probe_timer_join(struct rtm_probe_timer *p)
{
	int i;

	if (p->joined)
		return;
	atomic_store(&p->stop, 1);
	for (i = 0; i < p->n; i++)
		if (p->threads[i].created)
			pthread_join(p->threads[i].tid, NULL);
	pthread_mutex_destroy(&p->gate_lock);
	pthread_cond_destroy(&p->gate_cond);
	if (p->dma_fd >= 0)
		rtm_dma_latency_release(p->dma_fd);
	p->dma_fd = -1;
	if (p->locked)
		rtm_memory_unlock();
	p->locked = false;
	p->joined = true;
}

void rtm_probe_timer_free(struct rtm_probe_timer *p)
{
	if (!p)
		return;
	rtm_probe_timer_join(p);
	destroy_threads(p);
	free(p);
}
