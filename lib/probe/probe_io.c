// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe_io.c - the storage deadline probe (probe_io.h): its thread, its
 * snapshots and its place on the probe seam.
 *
 * The loop is sacred as the timer probe's: it sleeps to the planned time,
 * reads the clock, makes the one request it measures, reads the clock again
 * and records under its sequence counter. The buffer, the histograms and the
 * miss list are allocated and touched before the gate opens.
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
#include "core/clock.h"
#include "core/jsonutil.h"
#include "probe/probe_io.h"

#define NSEC_PER_SEC	1000000000ULL
#define START_DELAY_NS	(100 * 1000 * 1000ULL)
#define STACK_PREFAULT	(64 * 1024)
#define HEAP_PREFAULT	(1024 * 1024)
#define TICK_NS		NSEC_PER_SEC	/* the runner's snapshots */
#define IOPRIO_WHO_PROCESS	1	/* with who 0: the calling thread */

struct rtm_probe_io {
	struct rtm_probe_io_opts opts;
	/* written by the probe thread only, read under @seq */
	_Atomic uint32_t seq;
	struct rtm_io_rec rec;
	uint64_t requests;
	uint64_t last_latency_ns;

	void *buf;			/* the request's data, aligned */
	struct rtm_gate gate;
	pthread_t tid;
	bool created;
	_Atomic int ktid;		/* the thread's id, for trace filters */
	int error;
	struct rtm_error err;
	uint64_t start_ns;
	uint64_t next_tick_ns;
	uint64_t end_ns;		/* when the loop left (duration) */
	_Atomic int stop;
	_Atomic bool running;
	bool locked;
	bool joined;
	/* the live section's copy (rtm_probe_io_live), made by the reader, not the loop */
	struct rtm_io_rec live;
	bool live_ready;
};

/* ------------------------------------------------------------ the loop */

static inline struct timespec ns_to_ts(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};

	return ts;
}

/* xorshift64*: random block numbers without a call */
static inline uint64_t next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* Where the request of @op goes: the next block of its sequence, or a random one. */
static inline uint64_t next_offset(const struct rtm_probe_io_opts *o, enum rtm_io_op op,
				   uint64_t *cursor, uint64_t *state)
{
	const uint64_t nblocks = o->region_bytes / o->size;
	uint64_t block;

	switch (op) {
	case RTM_IO_RANDREAD:
	case RTM_IO_RANDWRITE:
		block = next_random(state) % nblocks;
		break;
	case RTM_IO_FSYNC:
		return 0;
	default:
		block = cursor[op == RTM_IO_WRITE]++ % nblocks;
		break;
	}
	return block * o->size;
}

/* The request itself: 0, or -errno (a short transfer is -EIO). */
static inline int issue(const struct rtm_probe_io *p, enum rtm_io_op op, uint64_t offset)
{
	const struct rtm_probe_io_opts *o = &p->opts;
	ssize_t n;

	switch (op) {
	case RTM_IO_READ:
	case RTM_IO_RANDREAD:
		n = pread(o->fd, p->buf, o->size, (off_t)offset);
		break;
	case RTM_IO_WRITE:
	case RTM_IO_RANDWRITE:
		n = pwrite(o->fd, p->buf, o->size, (off_t)offset);
		break;
	default:
		return fsync(o->fd) ? -errno : 0;
	}
	if (n < 0)
		return -errno;
	return n == (ssize_t)o->size ? 0 : -EIO;
}

static void io_loop(struct rtm_probe_io *p)
{
	const struct rtm_probe_io_opts *o = &p->opts;
	const uint64_t end = o->duration_ns ? p->start_ns + o->duration_ns : UINT64_MAX;
	uint64_t cursor[2] = { 0, 0 }, state = p->start_ns | 1, k;

	for (k = 0; !o->loops || k < o->loops; k++) {
		/* every planned request is issued, late ones at once: none is skipped */
		const uint64_t planned = p->start_ns + k * o->interval_ns;
		const enum rtm_io_op op = o->seq[k % (uint64_t)o->nseq];
		uint64_t offset, issued, done;
		struct timespec ts = ns_to_ts(planned);
		uint32_t s;
		int ret;

		if (planned >= end || atomic_load_explicit(&p->stop, memory_order_relaxed))
			break;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		offset = next_offset(o, op, cursor, &state);
		issued = rtm_clock_ns(CLOCK_MONOTONIC);
		ret = issue(p, op, offset);
		done = rtm_clock_ns(CLOCK_MONOTONIC);

		s = atomic_load_explicit(&p->seq, memory_order_relaxed);
		atomic_store_explicit(&p->seq, s + 1, memory_order_relaxed);
		atomic_thread_fence(memory_order_release);
		rtm_io_rec_add(&p->rec, op, offset, planned, issued, done, ret);
		p->requests++;
		if (!ret)
			p->last_latency_ns = done - planned;
		atomic_store_explicit(&p->seq, s + 2, memory_order_release);
	}
}

/* The I/O priority of the calling thread; 0 or -errno with @err naming the fix. */
static int set_ioprio(const struct rtm_ioprio *io, struct rtm_error *err)
{
	char name[16];

	if (io->klass == RTM_IOPRIO_NONE)
		return 0;
	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, rtm_ioprio_value(io)) == 0)
		return 0;
	rtm_ioprio_format(io, name, sizeof(name));
	if (errno == EPERM)
		return rtm_error_setn(err, -EPERM, "--ioprio %s needs CAP_SYS_ADMIN (or "
				      "CAP_SYS_NICE): run as root, or give --ioprio be:N", name);
	return rtm_error_setn(err, -errno, "--ioprio %s: ioprio_set: %s", name, strerror(errno));
}

static void *io_main(void *arg)
{
	struct rtm_probe_io *p = arg;
	struct rtm_error ignored = { "" };
	int ret;

	atomic_store(&p->ktid, (int)syscall(SYS_gettid));
	/* before the gate: a refused priority is the gate's set-up error, seen by the starter */
	ret = set_ioprio(&p->opts.ioprio, &p->err);
	if (ret) {
		pthread_mutex_lock(&p->gate.lock);
		p->gate.error = ret;
		pthread_mutex_unlock(&p->gate.lock);
	}
	if (!rtm_gate_enter(&p->gate, "rtm-io", p->opts.cpu, &p->opts.sched, STACK_PREFAULT,
			    ret ? &ignored : &p->err) && !ret && !p->gate.abort)
		io_loop(p);
	p->end_ns = rtm_clock_ns(CLOCK_MONOTONIC);
	atomic_store(&p->running, false);
	return NULL;
}

/* ------------------------------------------------------------ life cycle */

static int check_opts(const struct rtm_probe_io_opts *o, struct rtm_error *err)
{
	if (o->fd < 0 || !o->nseq || o->nseq > RTM_IO_SEQ_MAX)
		return rtm_error_set(err, "no target or no operation to measure");
	if (!o->interval_ns)
		return rtm_error_set(err, "the interval must be above 0");
	if (!o->size || !o->align || o->size % o->align)
		return rtm_error_set(err, "--size %u is not a multiple of the target's block "
				     "size %u (O_DIRECT needs whole blocks)", o->size, o->align);
	if (o->region_bytes < o->size)
		return rtm_error_set(err, "the target is smaller than one request (--size %u)",
				     o->size);
	return 0;
}

static void release(struct rtm_probe_io *p)
{
	rtm_io_rec_release(&p->rec);
	rtm_io_rec_release(&p->live);
	free(p->buf);
	free(p);
}

/* Create the thread; wait until it is pinned and scheduled, then open the gate. */
static int start_thread(struct rtm_probe_io *p, struct rtm_error *err)
{
	int ret;

	rtm_gate_init(&p->gate);
	atomic_store(&p->running, true);
	ret = rtm_probe_thread_create(&p->tid, io_main, p);
	if (ret) {
		rtm_gate_destroy(&p->gate);
		atomic_store(&p->running, false);
		return rtm_error_setn(err, -ret, "cannot create the I/O probe thread: %s",
				      strerror(ret));
	}
	p->created = true;
	rtm_gate_wait_ready(&p->gate, 1);
	p->start_ns = rtm_clock_ns(CLOCK_MONOTONIC) + START_DELAY_NS;
	p->next_tick_ns = p->start_ns + TICK_NS;
	p->error = p->gate.error;	/* the thread's set-up, complete when it reported */
	rtm_gate_open(&p->gate, p->error != 0);
	if (!p->error)
		return 0;
	if (err)
		*err = p->err;
	pthread_join(p->tid, NULL);
	rtm_gate_destroy(&p->gate);
	p->created = false;
	return -EINVAL;
}

struct rtm_probe_io *rtm_probe_io_start(const struct rtm_probe_io_opts *o, struct rtm_error *err)
{
	struct rtm_probe_io *p;

	if (check_opts(o, err))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	p->opts = *o;
	p->buf = aligned_alloc(o->align, o->size);
	if (!p->buf || rtm_io_rec_init(&p->rec, o->seq, o->nseq, o->deadline_ns, o->max_misses)) {
		rtm_error_set(err, "out of memory");
		goto fail;
	}
	/* a pattern, not zeros: a device that compresses or skips zeros would flatter us */
	for (uint32_t i = 0; i < o->size; i++)
		((unsigned char *)p->buf)[i] = (unsigned char)(i * 131 + 7);
	if (o->lock_memory) {
		if (rtm_memory_lock(HEAP_PREFAULT, err))
			goto fail;
		p->locked = true;
	}
	if (start_thread(p, err))
		goto fail;
	return p;
fail:
	if (p->locked)
		rtm_memory_unlock();
	release(p);
	return NULL;
}

void rtm_probe_io_snapshot(const struct rtm_probe_io *p, struct rtm_io_snap *snap,
			   struct rtm_io_rec *rec)
{
	struct rtm_probe_io *q = (struct rtm_probe_io *)p;
	uint32_t s1, s2, kept = 0;
	int k;

	for (;;) {
		s1 = atomic_load_explicit(&q->seq, memory_order_acquire);
		if (s1 & 1) {
			sched_yield();
			continue;
		}
		snap->requests = p->requests;
		snap->misses = p->rec.misses;
		snap->errors = 0;
		for (k = 0; k < RTM_IO_NOPS; k++) {
			const struct rtm_io_oprec *o = &p->rec.ops[k];

			snap->errors += o->errors;
			if (!rec || !o->latency || !rec->ops[k].latency)
				continue;
			rec->ops[k].count = o->count;
			rec->ops[k].misses = o->misses;
			rec->ops[k].errors = o->errors;
			rtm_hist_copy(rec->ops[k].latency, o->latency);
			rtm_hist_copy(rec->ops[k].service, o->service);
			rtm_hist_copy(rec->ops[k].lateness, o->lateness);
		}
		snap->last_latency_ns = p->last_latency_ns;
		if (rec) {
			kept = p->rec.nmiss;
			rec->miss_dropped = p->rec.miss_dropped;
			rec->first_error = p->rec.first_error;
		}
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&q->seq, memory_order_relaxed);
		if (s1 == s2)
			break;
	}
	if (rec) {
		rec->misses = snap->misses;
		/* the kept misses below the count are final: the new ones, as room allows */
		if (kept > rec->max_miss)
			kept = rec->max_miss;
		if (kept > rec->nmiss) {
			memcpy(rec->miss + rec->nmiss, p->rec.miss + rec->nmiss,
			       (kept - rec->nmiss) * sizeof(*rec->miss));
			rec->nmiss = kept;
		}
	}
	snap->running = atomic_load(&q->running);
}

uint32_t rtm_probe_io_misses(const struct rtm_probe_io *p, uint32_t from, struct rtm_io_miss *out,
			     uint32_t max)
{
	struct rtm_probe_io *q = (struct rtm_probe_io *)p;
	uint32_t s1, s2, n;

	do {	/* the count under the sequence counter; the entries below it are final */
		s1 = atomic_load_explicit(&q->seq, memory_order_acquire);
		if (s1 & 1) {
			sched_yield();
			continue;
		}
		n = p->rec.nmiss;
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&q->seq, memory_order_relaxed);
	} while ((s1 & 1) || s1 != s2);
	if (from >= n)
		return 0;
	n -= from;
	if (n > max)
		n = max;
	memcpy(out, p->rec.miss + from, n * sizeof(*out));
	return n;
}

uint64_t rtm_probe_io_start_ns(const struct rtm_probe_io *p)
{
	return p->start_ns;
}

int rtm_probe_io_tid(const struct rtm_probe_io *p)
{
	return atomic_load(&((struct rtm_probe_io *)p)->ktid);
}

void rtm_probe_io_stop(struct rtm_probe_io *p)
{
	atomic_store(&p->stop, 1);
}

bool rtm_probe_io_done(const struct rtm_probe_io *p)
{
	return !atomic_load(&((struct rtm_probe_io *)p)->running);
}

static void join(struct rtm_probe_io *p)
{
	if (p->joined)
		return;
	atomic_store(&p->stop, 1);
	if (p->created) {
		pthread_join(p->tid, NULL);
		rtm_gate_destroy(&p->gate);
	}
	if (p->locked)
		rtm_memory_unlock();
	p->locked = false;
	p->joined = true;
}

/*
 * sections.io as the probe fills it (docs/result-schema.md) from @rec and
 * @requests (the thread's, or a copy); the command adds the target.
 */
static json_t *section_json(const struct rtm_probe_io *p, const struct rtm_io_rec *rec,
			    uint64_t requests, uint64_t duration_ns)
{
	const struct rtm_probe_io_opts *o = &p->opts;
	json_t *seq = json_array(), *sec;
	char prio[16];
	int i;

	for (i = 0; seq && i < o->nseq; i++)
		json_array_append_new(seq, json_string(rtm_io_op_name(o->seq[i])));
	sec = json_pack("{s:s, s:o, s:I, s:I, s:I, s:i, s:o, s:s, s:I, s:I, s:I, s:o, s:o, s:o, "
			"s:I, s:o}",
		"probe", "io",
		"op_sequence", seq,
		"size", (json_int_t)o->size,
		"interval_ns", (json_int_t)o->interval_ns,
		"deadline_ns", (json_int_t)o->deadline_ns,
		"cpu", o->cpu,
		"sched", rtm_sched_to_json(&o->sched),
		"ioprio", rtm_ioprio_format(&o->ioprio, prio, sizeof(prio)),
		"start_mono_ns", (json_int_t)p->start_ns,
		"duration_ns", (json_int_t)duration_ns,
		"requests", (json_int_t)requests,
		"ops", rtm_io_rec_ops_json(rec),
		"misses", rtm_json_u64(rec->misses),
		"miss_list", rtm_io_rec_misses_json(rec, p->start_ns),
		"misses_dropped", (json_int_t)rec->miss_dropped,
		"first_error", rec->first_error ? json_string(strerror(-rec->first_error)) :
						  json_null());
	return sec;
}

int rtm_probe_io_finish(struct rtm_probe_io *p, struct rtm_result *r, struct rtm_error *err)
{
	uint64_t end;
	json_t *sec;

	join(p);
	end = p->end_ns;
	if (p->opts.duration_ns && end > p->start_ns + p->opts.duration_ns)
		end = p->start_ns + p->opts.duration_ns;
	r->duration_ns = end > p->start_ns ? end - p->start_ns : 0;
	sec = section_json(p, &p->rec, p->requests, r->duration_ns);
	if (!sec)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	json_object_set_new(r->sections, "io", sec);
	return 0;
}

json_t *rtm_probe_io_live(struct rtm_probe_io *p)
{
	const struct rtm_probe_io_opts *o = &p->opts;
	uint64_t now = rtm_clock_ns(CLOCK_MONOTONIC), duration = 0;
	struct rtm_io_snap snap;

	if (!p->live_ready) {
		if (rtm_io_rec_init(&p->live, o->seq, o->nseq, o->deadline_ns, o->max_misses)) {
			rtm_io_rec_release(&p->live);
			return NULL;
		}
		p->live_ready = true;
	}
	rtm_probe_io_snapshot(p, &snap, &p->live);
	if (now > p->start_ns)
		duration = now - p->start_ns;
	if (o->duration_ns && duration > o->duration_ns)
		duration = o->duration_ns;
	return section_json(p, &p->live, snap.requests, duration);
}

void rtm_probe_io_free(struct rtm_probe_io *p)
{
	if (!p)
		return;
	join(p);
	release(p);
}

/* ------------------------------------------------------------ the probe seam */

static void *io_start(const void *opts, uint64_t ts_interval_ns, struct rtm_error *err)
{
	(void)ts_interval_ns;
	return rtm_probe_io_start(opts, err);
}

static void io_snapshot(void *v, bool boundary)
{
	rtm_probe_tick(&((struct rtm_probe_io *)v)->next_tick_ns, TICK_NS, boundary);
}

static uint64_t io_next_tick_ns(const void *v)
{
	return ((const struct rtm_probe_io *)v)->next_tick_ns;
}

/* The first instant at or after @t_ns clear of the probe's next planned request. */
static uint64_t io_quiet_ns(const void *v, uint64_t t_ns)
{
	const struct rtm_probe_io *p = v;
	const uint64_t iv = p->opts.interval_ns, guard = 200000;	/* 200 us */
	uint64_t k, next;

	if (t_ns < p->start_ns || iv <= 2 * guard)
		return t_ns;
	k = (t_ns - p->start_ns) / iv;
	next = p->start_ns + (k + 1) * iv;
	return next - t_ns < guard ? next + guard : t_ns;
}

static double io_elapsed_s(const void *v)
{
	const struct rtm_probe_io *p = v;

	return rtm_probe_elapsed_s(p->start_ns, p->opts.duration_ns);
}

static bool io_done(const void *v)
{
	return rtm_probe_io_done(v);
}

static void io_stop(void *v)
{
	rtm_probe_io_stop(v);
}

static int io_finish(void *v, struct rtm_result *r, struct rtm_error *err)
{
	return rtm_probe_io_finish(v, r, err);
}

static void io_free(void *v)
{
	rtm_probe_io_free(v);
}

static json_t *io_live_section(void *v)
{
	return rtm_probe_io_live(v);
}

const struct rtm_probe_ops rtm_probe_io_ops = {
	.name = "io",
	.section = "io",
	.start = io_start,
	.snapshot = io_snapshot,
	.next_tick_ns = io_next_tick_ns,
	.quiet_ns = io_quiet_ns,
	.elapsed_s = io_elapsed_s,
	.done = io_done,
	.stop = io_stop,
	.finish = io_finish,
	.free = io_free,
	.live_section = io_live_section,
};
