// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stream.c - the streaming trace instance of a measurement (stream.h): one
 * instance with the events of the consumers wanted, drained by the drive loop
 * and dispatched to lib/trace/rtholds.c, timerirq.c, census.c and noiseattr.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "box/rt.h"
#include "box/smi.h"
#include "core/clock.h"
#include "core/fileio.h"
#include "core/grow.h"
#include "core/task.h"
#include "irq/irq.h"
#include "trace/census.h"
#include "trace/noiseattr.h"
#include "trace/rtholds.h"
#include "trace/stream.h"
#include "trace/timerirq.h"
#include "tracefs/instance.h"

struct rtm_stream {
	struct rtm_trace *trace;
	struct rtm_rtholds *holds;	/* --rt-hold, or NULL */
	struct rtm_timerirq *tirq;	/* --timer-irq, or NULL */
	struct rtm_noiseattr *attr;	/* noise --trace, or NULL */
	struct rtm_census *census;	/* the spike census (--trace --capture-above), or NULL */
	uint64_t drained_at;		/* CLOCK_MONOTONIC when the latest drain began */
	int64_t *steal0;		/* /proc/stat steal per CPU at the start (ns), -1: none */
	struct rtm_smi_count *smi0;	/* MSR_SMI_COUNT per CPU at the start */
	int nsteal;
	uint64_t window_ns;		/* the noise probe's duty cycle */
	char cpus[1024];
	int *tids;
	int ntids;
	nlink_t task_links;		/* /proc/self/task's link count at the last listing */
	uint64_t listed_at;		/* CLOCK_MONOTONIC of that listing */
	size_t cap;
	uint64_t lost;
	bool failed;			/* a drain failed: the figures are incomplete */
	uint64_t refused;		/* corrupt trace pages skipped: incomplete too */
	bool paused;
	uint64_t wakeup_fn;		/* hrtimer_wakeup, for --timer-irq */
	char own_name[24];		/* this process in the census's words */
	bool irq_events;		/* the IRQ events carried for a tap (rtm_stream_opts) */
	bool flight;			/* the run's flight recorder too (rtm_stream_opts) */
	rtm_event_cb tap;		/* every event also here (rtm_stream_tap_irq()) */
	void *tap_ctx;
	int stat_fd;			/* /proc/stat for rtm_stream_steal(), -1: not open */
	char *stat_buf;
	size_t stat_cap;
	char cline[512];		/* rtm_stream_census_line(), as of cline_changes */
	uint64_t cline_changes;
	bool cline_made;
};

/* The steal ticks of /proc/stat's text @buf into @steal (ns; -1: CPU not listed). */
static void parse_steal(const char *buf, size_t len, int64_t *steal, int n)
{
	struct rtm_error err = { "" };
	struct rtm_irq_snap snap;
	long hz = sysconf(_SC_CLK_TCK);
	int i;

	for (i = 0; i < n; i++)
		steal[i] = -1;
	memset(&snap, 0, sizeof(snap));
	if (!buf || rtm_irq_parse_stat(&snap, buf, len, "/proc/stat", &err) || hz <= 0) {
		rtm_irq_snap_release(&snap);
		return;
	}
	for (i = 0; i < snap.nstat_cpus; i++)
		if (snap.stat_cpus[i].cpu >= 0 && snap.stat_cpus[i].cpu < n)
			steal[snap.stat_cpus[i].cpu] = (int64_t)(snap.stat_cpus[i].steal *
							 (1000000000ULL / (uint64_t)hz));
	rtm_irq_snap_release(&snap);
}

void rtm_stream_read_steal(int64_t *steal, int n)
{
	size_t len;
	char *buf = rtm_read_all("/", "/proc/stat", &len);

	parse_steal(buf, buf ? len : 0, steal, n);
	free(buf);
}

void rtm_stream_steal(struct rtm_stream *st, int64_t *steal, int n)
{
	ssize_t got = -1;
	char *b;

	/*
	 * The census asks at every drain (10 a second in the monitor): the file
	 * stays open and is read again from its start, in one read (the kernel
	 * makes the whole text at once), into a buffer kept for the next time.
	 */
	if (st->stat_fd < 0)
		st->stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	while (st->stat_fd >= 0) {
		if (st->stat_cap < 4096 || (got >= 0 && (size_t)got + 1 >= st->stat_cap)) {
			size_t cap = st->stat_cap < 4096 ? 4096 : st->stat_cap * 2;

			b = realloc(st->stat_buf, cap);
			if (!b) {
				got = -1;
				break;
			}
			st->stat_buf = b;
			st->stat_cap = cap;
		}
		got = pread(st->stat_fd, st->stat_buf, st->stat_cap - 1, 0);
		if (got < 0 || (size_t)got + 1 < st->stat_cap)
			break;
	}
	parse_steal(got > 0 ? st->stat_buf : NULL, got > 0 ? (size_t)got : 0, steal, n);
}

/* modprobe msr (an Intel CPU without /dev/cpu/N/msr, as root); quietly, best effort. */
static void load_msr(void)
{
	char *argv[] = { "modprobe", "-q", "msr", NULL };
	extern char **environ;
	int status;
	pid_t pid;

	if (geteuid() != 0 || !rtm_smi_needs_module("/"))
		return;
	if (!posix_spawnp(&pid, "modprobe", NULL, NULL, argv, environ))
		waitpid(pid, &status, 0);
}

/* MSR_SMI_COUNT of CPUs 0..@n-1 (modprobe msr first where it helps). */
static void smi_read(struct rtm_smi_count *c, int n)
{
	int i;

	load_msr();
	for (i = 0; i < n; i++)
		rtm_smi_read("/", i, &c[i]);
}

/* A virtual machine: the CPU says it runs under a hypervisor (cpuinfo's flag). */
static bool on_vm(void)
{
	char line[4096];
	bool vm = false;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return false;
	while (!vm && fgets(line, sizeof(line), f))
		vm = !strncmp(line, "flags", 5) && strstr(line, " hypervisor");
	fclose(f);
	return vm;
}

/*
 * The events the gap causes need, after @first (the switches, or the softirq
 * raises of the handler times), into @buf: irq_vectors (x86) and nmi where this
 * kernel has them (without tracefs the instance's creation names the problem).
 */
static void noise_events(char *buf, size_t len, const char *first)
{
	struct rtm_error err = { "" };
	const char *dir = rtm_trace_find_tracefs(&err);
	char path[512];

	snprintf(buf, len, "%s,irq:irq_handler_entry,irq:irq_handler_exit,"
		 "irq:softirq_entry,irq:softirq_exit", first);
	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/events/irq_vectors", dir);
	if (!access(path, F_OK))
		snprintf(buf + strlen(buf), len - strlen(buf), ",irq_vectors");
	snprintf(path, sizeof(path), "%s/events/nmi/nmi_handler", dir);
	if (!access(path, F_OK))
		snprintf(buf + strlen(buf), len - strlen(buf), ",nmi:nmi_handler");
}

/* Append to @buf the events of the comma-separated @list it does not hold yet. */
static void add_events(char *buf, size_t len, const char *list)
{
	char copy[512], *tok, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", list);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (!strstr(buf, tok))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", *buf ? "," : "",
				 tok);
}

/* The census: the measured CPUs watched, the probe's expiries from the split. */
static int census_alloc(struct rtm_stream *st, const struct rtm_stream_opts *o)
{
	int i, ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);

	st->census = rtm_census_alloc(ncpus, o->census_ns, "/");
	if (!st->census)
		return -ENOMEM;
	for (i = 0; i < o->cpus->n; i++)
		if (rtm_census_watch(st->census, o->cpus->cpus[i]))
			return -EINVAL;
	rtm_census_set_vm(st->census, on_vm());
	rtm_timerirq_set_expiry_cb(st->tirq, rtm_census_expiry, st->census);
	return 0;
}

/* The timer IRQ split: hrtimer_wakeup's address and the measured CPUs watched. */
static int timer_irq_alloc(struct rtm_stream *st, const struct rtm_stream_opts *o,
			   struct rtm_error *err)
{
	uint64_t fn = o->wakeup_fn;
	int i, ret = 0, ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);

	if (!fn)
		ret = rtm_timerirq_kallsyms("/", "hrtimer_wakeup", &fn);
	if (ret == -EPERM)
		return rtm_error_set(err, "--timer-irq: /proc/kallsyms hides kernel addresses, "
				     "so the probe's hrtimer cannot be told from others "
				     "(sysctl kernel.kptr_restrict=1 shows them to root, or "
				     "give --timer-irq 0)");
	if (ret)
		return rtm_error_set(err, "--timer-irq: hrtimer_wakeup is not in /proc/kallsyms "
				     "(%s): this kernel cannot tell the probe's hrtimer (drop "
				     "--timer-irq or give --timer-irq 0)", strerror(-ret));
	st->wakeup_fn = fn;
	st->tirq = rtm_timerirq_alloc(ncpus, fn);
	if (!st->tirq)
		return rtm_error_set(err, "out of memory");
	for (i = 0; i < o->cpus->n; i++)
		if (rtm_timerirq_watch(st->tirq, o->cpus->cpus[i]))
			return rtm_error_set(err, "out of memory");
	return 0;
}

/* The gap causes, and the steal time and SMI count at the start beside them. */
static int noise_alloc(struct rtm_stream *st, const struct rtm_stream_opts *o,
		       struct rtm_error *err)
{
	st->nsteal = (int)sysconf(_SC_NPROCESSORS_CONF);
	st->attr = rtm_noiseattr_alloc(st->nsteal, "/");
	st->steal0 = calloc((size_t)st->nsteal, sizeof(*st->steal0));
	st->smi0 = calloc((size_t)st->nsteal, sizeof(*st->smi0));
	if (!st->attr || !st->steal0 || !st->smi0)
		return rtm_error_set(err, "out of memory");
	rtm_stream_read_steal(st->steal0, st->nsteal);
	smi_read(st->smi0, st->nsteal);
	st->window_ns = o->noise_window_ns;
	return 0;
}

/* Each wanted consumer allocated, its events into @events. */
static int consumers_alloc(struct rtm_stream *st, const struct rtm_stream_opts *o,
			   char *events, size_t len, struct rtm_error *err)
{
	char more[512];

	if (o->rt_hold_ns) {
		st->holds = rtm_rtholds_alloc((int)sysconf(_SC_NPROCESSORS_CONF), o->rt_hold_ns,
					      "/");
		if (!st->holds)
			return rtm_error_set(err, "out of memory");
		add_events(events, len, "sched:sched_switch");
	}
	if (o->timer_irq) {
		if (timer_irq_alloc(st, o, err))
			return -EINVAL;
		add_events(events, len, "timer:hrtimer_start,timer:hrtimer_expire_entry");
	}
	if (o->census_ns) {
		if (!st->tirq)	/* the census pairs the split's expiries */
			return rtm_error_set(err, "the spike census needs the timer IRQ split");
		if (census_alloc(st, o))
			return rtm_error_set(err, "out of memory");
		noise_events(more, sizeof(more), "sched:sched_switch");
		add_events(events, len, more);
	}
	if (o->noise_causes) {
		if (noise_alloc(st, o, err))
			return -ENOMEM;
		noise_events(more, sizeof(more), "sched:sched_switch");
		add_events(events, len, more);
	}
	if (o->irq_events) {
		/* the tap's handler times: the softirq raises time each softirq's wait */
		st->irq_events = true;
		noise_events(more, sizeof(more), "irq:softirq_raise");
		add_events(events, len, more);
	}
	return 0;
}

/* The instance with @to's events; the timer events filtered to the sleepers' hrtimers. */
static int stream_create(struct rtm_stream *st, struct rtm_trace_opts *to, struct rtm_error *err)
{
	char fstart[96], fexpire[96];

	if (st->tirq && !st->flight) {
		/*
		 * Only sleepers' hrtimers reach the buffer (the consumer checks the
		 * handler too): the tick's and every other handler's stay out. A
		 * flight recorder records them all.
		 */
		snprintf(fstart, sizeof(fstart), "timer:hrtimer_start:function == %#llx",
			 (unsigned long long)st->wakeup_fn);
		snprintf(fexpire, sizeof(fexpire), "timer:hrtimer_expire_entry:function == %#llx",
			 (unsigned long long)st->wakeup_fn);
		to->filters[to->nfilters++] = fstart;
		to->filters[to->nfilters++] = fexpire;
	}
	st->trace = rtm_trace_create(to, err);
	if (!st->trace && to->nfilters && strstr(err->msg, "trace filter")) {
		/* a kernel that refuses the filter: the consumer's check is enough */
		to->nfilters = 0;
		st->trace = rtm_trace_create(to, err);
	}
	if (!st->trace) {
		/* name the option that needs the event, and the way to go without it */
		if (st->tirq && strstr(err->msg, "no trace event timer:")) {
			char why[sizeof(err->msg)];

			snprintf(why, sizeof(why), "%s", err->msg);
			rtm_error_set(err, "--timer-irq: %.400s; give --timer-irq 0 to measure "
				      "without it", why);
		}
		return -EINVAL;
	}
	return 0;
}

struct rtm_stream *rtm_stream_start(const struct rtm_stream_opts *o, struct rtm_error *err)
{
	/*
	 * 4 MB a CPU: a drain every 250 ms keeps up with ~60 k switches/s per CPU;
	 * the probe adds two timer events per wake-up (8 k/s at 4 kHz).
	 */
	struct rtm_trace_opts to = { .buffer_kb = o->buffer_kb ? o->buffer_kb : 4096,
				     .overwrite = false, .suffix = "stream" };
	struct rtm_stream *st = calloc(1, sizeof(*st));
	char events[512] = "";

	if (!st) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	st->stat_fd = -1;
	rtm_cpulist_format(o->cpus, st->cpus, sizeof(st->cpus));
	snprintf(st->own_name, sizeof(st->own_name), "%s", o->own_name ? o->own_name :
		 "this rtmeasure");
	to.cpus = st->cpus;
	if (o->flight_events) {
		st->flight = true;
		snprintf(events, sizeof(events), "%s", o->flight_events);
	}
	if (consumers_alloc(st, o, events, sizeof(events), err)) {
		rtm_stream_free(st);
		return NULL;
	}
	to.events = events;
	if (stream_create(st, &to, err)) {
		rtm_stream_free(st);
		return NULL;
	}
	if (o->flight_events && rtm_trace_keep(st->trace, o->keep_kb)) {
		rtm_error_set(err, "out of memory");
		rtm_stream_free(st);
		return NULL;
	}
	if (!o->start_off)
		rtm_stream_begin(st);
	return st;
}

void rtm_stream_begin(struct rtm_stream *st)
{
	if (st->holds)
		rtm_rtholds_begin(st->holds, rtm_clock_ns(CLOCK_MONOTONIC));
	rtm_trace_start(st->trace);
}

bool rtm_stream_tap_irq(struct rtm_stream *st, rtm_event_cb cb, void *ctx)
{
	/* the census and the gap causes bring the IRQ events, or they were asked for */
	if (!st || (!st->census && !st->attr && !st->irq_events))
		return false;
	st->tap = cb;
	st->tap_ctx = ctx;
	return true;
}

struct rtm_irqacct *rtm_stream_irqacct(struct rtm_stream *st)
{
	return st && st->census ? rtm_census_irqacct(st->census) : NULL;
}

struct rtm_trace *rtm_stream_trace(const struct rtm_stream *st)
{
	return st ? st->trace : NULL;
}

/* A thread of this process named @prefix... (rtm-probe/CPU, rtm-noise/CPU). */
static bool is_named(int tid, const char *prefix)
{
	char comm[32];

	return rtm_task_read_thread_comm("/", 0, tid, comm, sizeof(comm)) >= 0 &&
	       !strncmp(comm, prefix, strlen(prefix));
}

/*
 * A new thread of this process handed to the consumers that follow it; -1: failed.
 * The census sees through the probes; the other threads (the command's drawing and
 * draining) can delay a probe as any task can, and are named as this process.
 */
static int follow_thread(struct rtm_stream *st, int tid)
{
	bool probe = is_named(tid, "rtm-probe/");

	if (st->attr && is_named(tid, "rtm-noise/") && rtm_noiseattr_self(st->attr, tid))
		return -1;
	if (st->tirq && probe && rtm_timerirq_follow(st->tirq, tid))
		return -1;
	if (st->census && (probe ? rtm_census_follow(st->census, tid) :
			   rtm_census_own(st->census, tid, st->own_name)))
		return -1;
	return 0;
}

/* Thread @tid of this process, if new: followed and excluded; non-zero stops the scan. */
static int exclude_thread(int tid, void *arg)
{
	struct rtm_stream *st = arg;
	int i, *n;

	for (i = 0; i < st->ntids && st->tids[i] != tid; i++)
		;
	if (i < st->ntids)
		return 0;
	if (follow_thread(st, tid)) {
		st->failed = true;
		return -1;
	}
	n = rtm_grow(st->tids, &st->cap, (size_t)st->ntids, sizeof(*n), 32);
	if (!n)
		return -ENOMEM;
	st->tids = n;
	if (st->holds && rtm_rtholds_exclude(st->holds, tid))
		return -1;
	st->tids[st->ntids++] = tid;
	return 0;
}

/*
 * Every thread of this process (the probes above all) is transparent to
 * --rt-hold, never reported; the probes' hrtimers are the ones --timer-irq
 * follows. Called before each drain: the events waiting in the buffer are
 * older than the scan, so a probe alive now is known for all of them (only a
 * probe that began and ended between two drains, 250 ms apart, is missed).
 * The folder is listed when the thread count (the link count of
 * /proc/self/task: 2 and one a thread) changed, and at least once a second: a
 * stat() a drain rather than a listing (a thread that ended while another began
 * is found within that second).
 */
static void exclude_self(struct rtm_stream *st)
{
	uint64_t now = rtm_clock_ns(CLOCK_MONOTONIC);
	struct stat sb;

	if (stat("/proc/self/task", &sb))
		sb.st_nlink = 0;
	if (sb.st_nlink && sb.st_nlink == st->task_links && now - st->listed_at < 1000000000ULL)
		return;
	st->task_links = sb.st_nlink;
	st->listed_at = now;
	rtm_task_each_thread_of("/", 0, exclude_thread, st);
}

/* The stream's dispatcher: each event to the consumers that read it. */
static int stream_event(const struct rtm_event *ev, void *ctx)
{
	struct rtm_stream *st = ctx;
	int ret = 0;

	/* no consumer of the stream reads the raises: they are there for the tap */
	if (ev->type == RTM_EV_SOFTIRQ_RAISE)
		return st->tap ? st->tap(ev, st->tap_ctx) : 0;
	if (st->holds && ev->type == RTM_EV_SCHED_SWITCH)
		ret = rtm_rtholds_event(ev, st->holds);
	if (!ret && st->tirq && (ev->type == RTM_EV_HRTIMER_START ||
				 ev->type == RTM_EV_HRTIMER_ENTRY))
		ret = rtm_timerirq_event(ev, st->tirq);
	if (!ret && st->attr)
		ret = rtm_noiseattr_event(ev, st->attr);
	if (!ret && st->census)
		ret = rtm_census_event(ev, st->census);
	if (!ret && st->tap)
		ret = st->tap(ev, st->tap_ctx);
	return ret;
}

static void stream_drain(struct rtm_stream *st)
{
	uint64_t lost = 0;

	exclude_self(st);
	st->drained_at = rtm_clock_ns(CLOCK_MONOTONIC);
	if (rtm_trace_read(st->trace, stream_event, st, &lost, NULL) < 0)
		st->failed = true;
	st->lost += lost;
	if (st->census)
		rtm_census_lost(st->census, st->lost);
}

void rtm_stream_poll(struct rtm_stream *st)
{
	if (!st || st->paused || st->failed)
		return;
	stream_drain(st);
	if (st->holds)
		rtm_rtholds_tick(st->holds, rtm_clock_ns(CLOCK_MONOTONIC));
}

uint64_t rtm_stream_lost(struct rtm_stream *st)
{
	return st ? st->lost + rtm_trace_dropped(st->trace) : 0;
}

bool rtm_stream_failed(const struct rtm_stream *st)
{
	return st && st->failed;
}

void rtm_stream_pause(struct rtm_stream *st)
{
	uint64_t now = rtm_clock_ns(CLOCK_MONOTONIC);

	if (!st || st->paused)
		return;
	rtm_trace_stop(st->trace);
	if (!st->failed)
		stream_drain(st);
	if (st->holds && rtm_rtholds_end(st->holds, now))
		st->failed = true;
	if (st->tirq)
		rtm_timerirq_end(st->tirq);
	st->paused = true;
}

void rtm_stream_resume(struct rtm_stream *st)
{
	if (!st || !st->paused)
		return;
	if (st->holds)
		rtm_rtholds_begin(st->holds, rtm_clock_ns(CLOCK_MONOTONIC));
	rtm_trace_start(st->trace);
	st->paused = false;
}

void rtm_stream_holds_line(struct rtm_stream *st, char *buf, size_t len)
{
	if (!st || !st->holds) {
		buf[0] = '\0';
		return;
	}
	rtm_rtholds_line(st->holds, rtm_clock_ns(CLOCK_MONOTONIC), buf, len);
}

void rtm_stream_timer_irq_line(struct rtm_stream *st, char *buf, size_t len)
{
	if (!st || !st->tirq) {
		buf[0] = '\0';
		return;
	}
	rtm_timerirq_line(st->tirq, buf, len);
}

struct rtm_census *rtm_stream_census(struct rtm_stream *st, uint64_t *drained_at)
{
	if (!st || st->paused || st->failed)
		return NULL;
	*drained_at = st->drained_at;
	return st->census;
}

void rtm_stream_census_line(struct rtm_stream *st, char *buf, size_t len)
{
	uint64_t drained_at;
	struct rtm_census *cs = rtm_stream_census(st, &drained_at);

	buf[0] = '\0';
	if (!cs)
		return;
	/* made again only when the census changed: it builds the census's whole JSON */
	if (!st->cline_made || rtm_census_changes(cs) != st->cline_changes) {
		rtm_census_line(cs, st->cline, sizeof(st->cline));
		st->cline_changes = rtm_census_changes(cs);
		st->cline_made = true;
	}
	snprintf(buf, len, "%s", st->cline);
}

json_t *rtm_stream_timer_irq_live(struct rtm_stream *st)
{
	return st && st->tirq ? rtm_timerirq_to_json(st->tirq) : NULL;
}

struct rtm_noiseattr *rtm_stream_noiseattr(struct rtm_stream *st)
{
	return st ? st->attr : NULL;
}

uint64_t rtm_stream_window_ns(const struct rtm_stream *st)
{
	return st ? st->window_ns : 0;
}

void rtm_stream_noise_live_causes(struct rtm_stream *st, json_t *sec)
{
	struct rtm_noiseattr *a = rtm_stream_noiseattr(st);
	json_t *cpu;
	size_t i;

	if (!a)
		return;
	json_array_foreach(json_object_get(sec, "cpus"), i, cpu)
		json_object_set_new(cpu, "causes", rtm_noiseattr_live_json(a,
				    (int)json_integer_value(json_object_get(cpu, "cpu"))));
}

int rtm_stream_noise_apply(struct rtm_stream *st, json_t *noise)
{
	if (!st || !st->attr)
		return -ENOENT;
	stream_drain(st);
	return rtm_noiseattr_apply(st->attr, noise, NULL, 0);
}

/* The RT throttling setting and the tick into the gap causes, at the end. */
static void noise_rt_limit(struct rtm_noiseattr *a, uint64_t tick_ns)
{
	int64_t run = -1, per = -1;

	if (rtm_rt_throttling("/", &run, &per))
		per = -1;
	rtm_noiseattr_rt_limit(a, run, per, tick_ns);
}

/* The gap causes into sections.noise, the steal time of the run beside them. */
static void noise_causes(struct rtm_stream *st, json_t *sections, uint64_t tick_ns, FILE *err)
{
	json_t *noise = json_object_get(sections, "noise");
	struct rtm_noiseattr_env *env = calloc((size_t)st->nsteal, sizeof(*env));
	int64_t *steal1 = calloc((size_t)st->nsteal, sizeof(*steal1));
	struct rtm_smi_count *smi1 = calloc((size_t)st->nsteal, sizeof(*smi1));
	bool vm = on_vm();
	int i;

	if (!noise || !env || !steal1 || !smi1) {
		free(env);
		free(steal1);
		free(smi1);
		return;
	}
	rtm_stream_read_steal(steal1, st->nsteal);
	smi_read(smi1, st->nsteal);
	for (i = 0; i < st->nsteal; i++) {
		env[i].vm = vm;
		env[i].steal_ns = st->steal0[i] >= 0 && steal1[i] >= st->steal0[i] ?
				  steal1[i] - st->steal0[i] : -1;
		env[i].smi_read = !rtm_smi_delta(&st->smi0[i], &smi1[i], &env[i].smis,
						 &env[i].smi_why);
	}
	noise_rt_limit(st->attr, tick_ns);
	rtm_noiseattr_lost(st->attr, st->lost);
	if ((rtm_noiseattr_apply(st->attr, noise, env, st->nsteal) || st->failed) && err)
		fprintf(err, "rtmeasure: warning: the gap causes are %s\n", st->failed ?
			"incomplete (a drain of the trace failed)" : "missing (out of memory)");
	if (st->failed || st->refused)
		json_object_set_new(json_object_get(noise, "attribution"), "complete",
				    json_false());
	free(env);
	free(steal1);
	free(smi1);	/* after the causes are written: env's smi_why points into it */
}

/* All verdicts, and sections.spike_census. */
static void census_section(struct rtm_stream *st, json_t *sections, FILE *err)
{
	json_t *sec;

	rtm_census_lost(st->census, st->lost);
	rtm_census_advance(st->census, UINT64_MAX);
	sec = rtm_census_to_json(st->census);
	if (!sec) {
		if (err)
			fprintf(err, "rtmeasure: warning: no spike census (out of memory)\n");
		return;
	}
	if (st->failed || st->refused)
		json_object_set_new(sec, "complete", json_false());
	json_object_set_new(sections, "spike_census", sec);
}

/* sections.rt_holds and sections.timer_irq. */
static void holds_sections(struct rtm_stream *st, json_t *sections)
{
	json_t *sec = st->holds ? rtm_rtholds_to_json(st->holds) : NULL;

	if (sec) {
		json_object_set_new(sec, "cpus", json_string(st->cpus));
		json_object_set_new(sec, "excluded_threads", json_integer(st->ntids));
		json_object_set_new(sec, "trace_lost", json_integer((json_int_t)st->lost));
		json_object_set_new(sec, "complete", json_boolean(!st->failed && !st->lost &&
					!st->refused && !rtm_rtholds_uncertain(st->holds)));
		json_object_set_new(sections, "rt_holds", sec);
	}
	sec = st->tirq ? rtm_timerirq_to_json(st->tirq) : NULL;
	if (sec) {
		/* events lost anywhere in the stream may be this feature's */
		json_object_set_new(sec, "backend", json_string("tracefs"));
		json_object_set_new(sec, "trace_lost", json_integer((json_int_t)st->lost));
		json_object_set_new(sec, "complete", json_boolean(!st->failed && !st->lost &&
								  !st->refused));
		json_object_set_new(sections, "timer_irq", sec);
	}
}

void rtm_stream_finish(struct rtm_stream *st, json_t *sections, uint64_t tick_ns, FILE *err)
{
	if (!st)
		return;
	rtm_stream_pause(st);
	st->lost += rtm_trace_dropped(st->trace);
	st->refused = rtm_trace_refused(st->trace);
	if (st->refused && err)
		fprintf(err, "rtmeasure: warning: %llu corrupt trace page%s skipped: the trace "
			"figures are incomplete\n", (unsigned long long)st->refused,
			st->refused == 1 ? " was" : "s were");
	if (st->refused)
		json_object_set_new(sections, "trace_refused_pages",
				    json_integer((json_int_t)st->refused));
	holds_sections(st, sections);
	if (st->attr)
		noise_causes(st, sections, tick_ns, err);
	if (st->census)
		census_section(st, sections, err);
}

void rtm_stream_free(struct rtm_stream *st)
{
	if (!st)
		return;
	rtm_trace_destroy(st->trace);
	rtm_rtholds_free(st->holds);
	rtm_timerirq_free(st->tirq);
	rtm_noiseattr_free(st->attr);
	rtm_census_free(st->census);
	free(st->steal0);
	free(st->smi0);
	free(st->tids);
	if (st->stat_fd >= 0)
		close(st->stat_fd);
	free(st->stat_buf);
	free(st);
}
