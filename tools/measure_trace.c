// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * measure_trace.c - the flight recorder of `cyclic --trace` and `run --trace`.
 *
 * The instance records the measured CPUs' events, overwriting the oldest. A
 * probe thread whose wake-up is later than -b or --capture-above stops it with
 * one write to tracing_on; the command then reads the window around that
 * wake-up (capture.h: spikes/spike-NNN.txt and .json with the analysis) and,
 * for --capture-above, switches tracing back on and re-arms the probes after
 * the hold-off.
 *
 * --rt-hold and --timer-irq (at the end): one second, streaming instance with
 * the events of the features wanted, drained by the drive loop and dispatched
 * to lib/trace/rtholds.c (sched_switch: the real-time tasks that held a measured CPU
 * longer than the bound) and lib/trace/timerirq.c (hrtimer_start and
 * hrtimer_expire_entry: the timer IRQ part of each probe wake-up).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "trace/capture.h"
#include "trace/census.h"
#include "irq/irq.h"
#include "measure.h"
#include "trace/noiseattr.h"
#include "trace/rtholds.h"
#include "cli/cli.h"
#include "box/smi.h"
#include "trace/timerirq.h"
#include "core/units.h"

/* From a period (at least 1 ms) before the planned wake-up to just after it. */
static uint64_t window_before_ns(const struct measure_opts *m)
{
	return rtm_spike_window_before_ns(m->probe.interval_ns);
}

/*
 * --timer-irq is on by default whenever tracing. A kernel that hides
 * hrtimer_wakeup's address (kernel.kptr_restrict) cannot have it: then it is
 * turned off with a note rather than failing a --trace run that did not ask
 * for it; given, the same is an error (measure_hold_start()).
 */
static void timer_irq_default(struct measure_opts *m)
{
	bool monitor = !strcmp(m->command, "monitor");	/* traces at its key t */
	uint64_t fn;
	int ret;

	if (!m->timer_irq || m->timer_irq_given || (!m->trace && !monitor) ||
	    m->ops != &rtm_probe_timer_ops || m->probe.mode != RTM_TIMER_NANOSLEEP)
		return;
	ret = rtm_timerirq_kallsyms("/", "hrtimer_wakeup", &fn);
	if (!ret)
		return;
	if (!monitor)
		fprintf(stderr, "rtmeasure: note: no timer IRQ split%s: %s (give --timer-irq to "
			"make this an error)\n", m->probe.capture_ns ? " and no spike census" : "",
			ret == -EPERM ? "/proc/kallsyms hides kernel addresses "
			"(kernel.kptr_restrict)" : "hrtimer_wakeup is not in /proc/kallsyms");
	m->timer_irq = false;
}

int measure_trace_check(struct measure_opts *m)
{
	char need[16];

	if (m->timer_irq_given && m->probe.mode != RTM_TIMER_NANOSLEEP)
		return rtm_cli_fail("%s: --timer-irq follows the probe's clock_nanosleep hrtimer: "
				    "not with --mode timerfd or signal (drop --mode)", m->command);
	timer_irq_default(m);
	if (!m->trace)
		return 0;
	if (!m->probe.break_ns && !m->probe.capture_ns)
		return rtm_cli_fail("%s: --trace saves the events around spikes: give "
				    "-b/--breaktrace LAT or --capture-above LAT too", m->command);
	if (m->probe.capture_ns && m->probe.capture_holdoff_ns < window_before_ns(m)) {
		rtm_fmt_ns(need, sizeof(need), window_before_ns(m));
		return rtm_cli_fail("%s: --capture-holdoff must be at least the %s before a spike "
				    "that a capture keeps", m->command, need);
	}
	return 0;
}

struct rtm_trace *measure_trace_start(struct measure_opts *m, struct rtm_result *r,
				      struct rtm_error *err)
{
	struct rtm_trace_opts to = { .events = m->trace_events, .buffer_kb = m->trace_buffer_kb,
				     .overwrite = true };
	struct rtm_trace *t;
	int64_t delta = 0;
	char cpus[1024];
	json_t *filters;
	int i;

	rtm_cpulist_format(&m->probe.cpus, cpus, sizeof(cpus));
	to.cpus = cpus;
	for (i = 0; i < m->ntrace_filters; i++)
		to.filters[to.nfilters++] = m->trace_filters[i];
	t = rtm_trace_create(&to, err);
	if (!t)
		return NULL;
	rtm_cli_trace_note(t);
	if (rtm_trace_off_fd(t) < 0) {
		rtm_error_set(err, "cannot open tracing_on of %s", rtm_trace_name(t));
		rtm_trace_destroy(t);
		return NULL;
	}
	m->probe.trace_off_fd = rtm_trace_off_fd(t);
	if (rtm_trace_check_clock(t, &delta, err)) {
		rtm_trace_destroy(t);
		return NULL;
	}
	filters = json_array();
	for (i = 0; i < m->ntrace_filters; i++)
		json_array_append_new(filters, json_string(m->trace_filters[i]));
	json_object_set_new(r->options, "trace_clock_delta_ns", json_integer(delta));
	json_object_set_new(r->options, "trace_events",
			    json_string(m->trace_events ? m->trace_events : RTM_TRACE_PRESETS));
	json_object_set_new(r->options, "trace_filters", filters);
	json_object_set_new(r->options, "trace_buffer_kb",
			    json_integer((json_int_t)m->trace_buffer_kb));
	json_object_set_new(r->options, "capture_above_ns",
			    json_integer((json_int_t)m->probe.capture_ns));
	json_object_set_new(r->options, "max_captures", json_integer(m->probe.capture_max));
	json_object_set_new(r->options, "capture_holdoff_ns",
			    json_integer((json_int_t)m->probe.capture_holdoff_ns));
	rtm_trace_start(t);
	return t;
}

static int count_captures(const struct rtm_result *r)
{
	const char *type;
	json_t *e;
	size_t i;
	int n = 0;

	json_array_foreach(r->events, i, e) {
		type = json_string_value(json_object_get(e, "type"));
		n += type && !strcmp(type, "spike_capture");
	}
	return n;
}

/* Save one spike's window as the next spikes/spike-NNN; the event goes into @r. */
static void save_window(const struct measure_opts *m, struct rtm_trace *t, struct rtm_result *r,
			const char *dir, int cpu, uint64_t planned_ns, uint64_t woke_ns,
			const char *trigger)
{
	struct rtm_error err = { "" };
	struct rtm_spike_window w;
	json_t *sum;

	rtm_spike_window_init(&w, cpu, planned_ns, woke_ns, m->probe.interval_ns,
			      m->preempt_model);
	sum = rtm_capture_window(t, &w, count_captures(r) + 1, dir, &err);
	if (!sum) {
		fprintf(stderr, "rtmeasure: spike capture failed: %s\n", err.msg);
		return;
	}
	json_object_set_new(sum, "trigger", json_string(trigger));
	json_object_set_new(sum, "planned_mono_ns", json_integer((json_int_t)planned_ns));
	json_array_append_new(r->events, sum);
}

void measure_trace_poll(const struct measure_opts *m, struct rtm_trace *t,
			struct rtm_cyclic *c, struct rtm_result *r, const char *dir, bool resume)
{
	struct rtm_probe_timer *p = rtm_cyclic_probe(c);
	struct rtm_probe_hit pc;
	struct rtm_probe_hit brk;

	if (!rtm_probe_timer_capture_pending(p, &pc))
		return;
	if (pc.trace_off_failed)
		fprintf(stderr, "rtmeasure: could not stop tracing at a spike; its window may "
			"hold later events\n");
	save_window(m, t, r, dir, pc.cpu, pc.planned_ns, pc.woke_ns, "capture-above");
	rtm_probe_timer_break_info(p, &brk);
	/*
	 * Tracing stays off once -b has hit (its window is being kept) or when
	 * nothing will be captured any more (every CPU took --max-captures).
	 */
	if (resume && !brk.hit && (m->probe.break_ns ||
				   count_captures(r) < (int)m->probe.capture_max * m->probe.cpus.n))
		rtm_trace_start(t);
	rtm_probe_timer_capture_done(p);
}

/* The capture of the same wake-up, when --capture-above already saved it. */
static json_t *find_capture(const struct rtm_result *r, json_int_t cpu, json_int_t planned)
{
	const char *type;
	json_t *e;
	size_t i;

	json_array_foreach(r->events, i, e) {
		type = json_string_value(json_object_get(e, "type"));
		if (type && !strcmp(type, "spike_capture") &&
		    json_integer_value(json_object_get(e, "cpu")) == cpu &&
		    json_integer_value(json_object_get(e, "planned_mono_ns")) == planned)
			return e;
	}
	return NULL;
}

void measure_trace_break(const struct measure_opts *m, struct rtm_trace *t,
			 struct rtm_result *r, const char *dir)
{
	json_int_t cpu, planned;
	const char *type;
	json_t *e, *same;
	size_t i;

	json_array_foreach(r->events, i, e) {
		type = json_string_value(json_object_get(e, "type"));
		if (!type || strcmp(type, "break"))
			continue;
		cpu = json_integer_value(json_object_get(e, "cpu"));
		planned = json_integer_value(json_object_get(e, "planned_mono_ns"));
		same = find_capture(r, cpu, planned);
		if (same) {	/* one wake-up over both thresholds: saved once */
			json_object_set_new(same, "trigger", json_string("capture-above,breaktrace"));
			return;
		}
		save_window(m, t, r, dir, (int)cpu, (uint64_t)planned,
			    (uint64_t)(planned + json_integer_value(json_object_get(e, "latency_ns"))),
			    "breaktrace");
		return;
	}
}

void measure_trace_print(const struct rtm_result *r, const char *dir, FILE *f)
{
	const char *type;
	char lat[16];
	json_t *e;
	size_t i;

	json_array_foreach(r->events, i, e) {
		type = json_string_value(json_object_get(e, "type"));
		if (!type || strcmp(type, "spike_capture"))
			continue;
		rtm_fmt_ns(lat, sizeof(lat),
			   (uint64_t)json_integer_value(json_object_get(e, "latency_ns")));
		fprintf(f, "rtmeasure: spike on CPU %lld, %s late (%lld events in %s/%s)%s\n",
			json_integer_value(json_object_get(e, "cpu")), lat,
			json_integer_value(json_object_get(e, "events")), dir,
			json_string_value(json_object_get(e, "file")) ?: "?",
			json_is_true(json_object_get(e, "truncated")) ?
			"; the trace buffer no longer reached back to its start: raise "
			"--trace-buffer" : "");
		fprintf(f, "rtmeasure: %s\n",
			json_string_value(json_object_get(e, "verdict")) ?: "");
	}
}

/* ------------------------------------------------ --rt-hold, --timer-irq */

struct measure_hold {
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
	int ntids, cap;
	uint64_t lost;
	bool failed;			/* a drain failed: the figures are incomplete */
	bool paused;
	uint64_t wakeup_fn;		/* hrtimer_wakeup, for --timer-irq */
};

static uint64_t hold_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static bool rt_hold_wanted(const struct measure_opts *m)
{
	return m->rt_hold_ns && (m->rt_hold_given || m->trace);
}

bool measure_timer_irq_wanted(const struct measure_opts *m)
{
	return m->timer_irq && (m->timer_irq_given || m->trace) &&
	       m->ops == &rtm_probe_timer_ops && m->probe.mode == RTM_TIMER_NANOSLEEP;
}

bool measure_noise_trace_wanted(const struct measure_opts *m)
{
	return m->ops == &rtm_probe_noise_ops && m->noise_trace != 0;
}

/* The census matches the late wake-ups with the probe's timer expiries (--timer-irq). */
bool measure_census_wanted(const struct measure_opts *m)
{
	return m->trace && m->probe.capture_ns && measure_timer_irq_wanted(m);
}

bool measure_hold_wanted(const struct measure_opts *m)
{
	return rt_hold_wanted(m) || measure_timer_irq_wanted(m) || measure_noise_trace_wanted(m) ||
	       measure_census_wanted(m);
}

bool measure_hold_optional(struct measure_opts *m, const struct rtm_error *err)
{
	if (m->ops != &rtm_probe_noise_ops || m->noise_trace >= 0)
		return false;
	fprintf(stderr, "rtmeasure: note: no gap causes: %s (give --trace to make this an error, "
		"--trace 0 to go without)\n", err->msg);
	m->noise_trace = 0;
	return true;
}

void measure_read_steal(int64_t *steal, int n)
{
	struct rtm_error err = { "" };
	struct rtm_irq_snap snap;
	long hz = sysconf(_SC_CLK_TCK);
	int i;

	for (i = 0; i < n; i++)
		steal[i] = -1;
	memset(&snap, 0, sizeof(snap));
	if (rtm_irq_snap_read("/", &snap, &err) || hz <= 0) {
		rtm_irq_snap_release(&snap);
		return;
	}
	for (i = 0; i < snap.nstat_cpus; i++)
		if (snap.stat_cpus[i].cpu >= 0 && snap.stat_cpus[i].cpu < n)
			steal[snap.stat_cpus[i].cpu] = (int64_t)(snap.stat_cpus[i].steal *
							 (1000000000ULL / (uint64_t)hz));
	rtm_irq_snap_release(&snap);
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
 * The events the gap causes need, into @buf: irq_vectors (x86) and nmi where this
 * kernel has them (without tracefs the instance's creation names the problem).
 */
static void noise_events(char *buf, size_t len)
{
	struct rtm_error err = { "" };
	const char *dir = rtm_trace_find_tracefs(&err);
	char path[512];

	snprintf(buf, len, "sched:sched_switch,irq:irq_handler_entry,irq:irq_handler_exit,"
		 "irq:softirq_entry,irq:softirq_exit");
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
static int census_alloc(struct measure_hold *mh, const struct measure_opts *m)
{
	int i, ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);

	mh->census = rtm_census_alloc(ncpus, m->probe.capture_ns, "/");
	if (!mh->census)
		return -ENOMEM;
	for (i = 0; i < m->probe.cpus.n; i++)
		if (rtm_census_watch(mh->census, m->probe.cpus.cpus[i]))
			return -EINVAL;
	rtm_census_set_vm(mh->census, on_vm());
	rtm_timerirq_set_expiry_cb(mh->tirq, rtm_census_expiry, mh->census);
	return 0;
}

/* The timer IRQ split: hrtimer_wakeup's address and the measured CPUs watched. */
static int timer_irq_alloc(struct measure_hold *mh, const struct measure_opts *m,
			   struct rtm_error *err)
{
	uint64_t fn = 0;
	int i, ret, ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);

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
	mh->wakeup_fn = fn;
	mh->tirq = rtm_timerirq_alloc(ncpus, fn);
	if (!mh->tirq)
		return rtm_error_set(err, "out of memory");
	for (i = 0; i < m->probe.cpus.n; i++)
		if (rtm_timerirq_watch(mh->tirq, m->probe.cpus.cpus[i]))
			return rtm_error_set(err, "out of memory");
	return 0;
}

struct measure_hold *measure_hold_start(const struct measure_opts *m, struct rtm_error *err)
{
	/*
	 * 4 MB a CPU: a drain every 250 ms keeps up with ~60 k switches/s per CPU;
	 * the probe adds two timer events per wake-up (8 k/s at 4 kHz).
	 */
	struct rtm_trace_opts to = { .buffer_kb = 4096, .overwrite = false, .suffix = "stream" };
	struct measure_hold *mh = calloc(1, sizeof(*mh));
	char events[512] = "", fstart[96], fexpire[96];

	if (!mh) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	rtm_cpulist_format(&m->probe.cpus, mh->cpus, sizeof(mh->cpus));
	to.cpus = mh->cpus;
	if (rt_hold_wanted(m)) {
		mh->holds = rtm_rtholds_alloc((int)sysconf(_SC_NPROCESSORS_CONF), m->rt_hold_ns,
					      "/");
		if (!mh->holds) {
			rtm_error_set(err, "out of memory");
			measure_hold_free(mh);
			return NULL;
		}
		add_events(events, sizeof(events), "sched:sched_switch");
	}
	if (measure_timer_irq_wanted(m)) {
		if (timer_irq_alloc(mh, m, err)) {
			measure_hold_free(mh);
			return NULL;
		}
		add_events(events, sizeof(events), "timer:hrtimer_start,timer:hrtimer_expire_entry");
	}
	if (measure_census_wanted(m)) {
		char more[sizeof(events)];

		if (census_alloc(mh, m)) {
			rtm_error_set(err, "out of memory");
			measure_hold_free(mh);
			return NULL;
		}
		noise_events(more, sizeof(more));
		add_events(events, sizeof(events), more);
	}
	if (measure_noise_trace_wanted(m)) {
		mh->nsteal = (int)sysconf(_SC_NPROCESSORS_CONF);
		mh->attr = rtm_noiseattr_alloc(mh->nsteal, "/");
		mh->steal0 = calloc((size_t)mh->nsteal, sizeof(*mh->steal0));
		mh->smi0 = calloc((size_t)mh->nsteal, sizeof(*mh->smi0));
		if (!mh->attr || !mh->steal0 || !mh->smi0) {
			rtm_error_set(err, "out of memory");
			measure_hold_free(mh);
			return NULL;
		}
		measure_read_steal(mh->steal0, mh->nsteal);
		measure_smi_read(mh->smi0, mh->nsteal);
		mh->window_ns = m->noise.window_ns;
		{
			char more[sizeof(events)];

			noise_events(more, sizeof(more));
			add_events(events, sizeof(events), more);
		}
	}
	to.events = events;
	if (mh->tirq) {
		/*
		 * Only sleepers' hrtimers reach the buffer (the consumer checks the
		 * handler too): the tick's and every other handler's stay out.
		 */
		snprintf(fstart, sizeof(fstart), "timer:hrtimer_start:function == %#llx",
			 (unsigned long long)mh->wakeup_fn);
		snprintf(fexpire, sizeof(fexpire), "timer:hrtimer_expire_entry:function == %#llx",
			 (unsigned long long)mh->wakeup_fn);
		to.filters[to.nfilters++] = fstart;
		to.filters[to.nfilters++] = fexpire;
	}
	mh->trace = rtm_trace_create(&to, err);
	if (!mh->trace && to.nfilters && strstr(err->msg, "trace filter")) {
		/* a kernel that refuses the filter: the consumer's check is enough */
		to.nfilters = 0;
		mh->trace = rtm_trace_create(&to, err);
	}
	if (!mh->trace) {
		/* name the option that needs the event, and the way to go without it */
		if (mh->tirq && strstr(err->msg, "no trace event timer:")) {
			char why[sizeof(err->msg)];

			snprintf(why, sizeof(why), "%s", err->msg);
			rtm_error_set(err, "--timer-irq: %.400s; give --timer-irq 0 to measure "
				      "without it", why);
		}
		measure_hold_free(mh);
		return NULL;
	}
	rtm_cli_trace_note(mh->trace);
	if (mh->holds)
		rtm_rtholds_begin(mh->holds, hold_now_ns());
	rtm_trace_start(mh->trace);
	return mh;
}

/* A thread of this process named @prefix... (rtm-probe/CPU, rtm-noise/CPU). */
static bool is_named(int tid, const char *prefix)
{
	char path[64], comm[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strncmp(comm, prefix, strlen(prefix));
}

/*
 * Every thread of this process (the probes above all) is transparent to
 * --rt-hold, never reported; the probes' hrtimers are the ones --timer-irq
 * follows. Called before each drain: the events waiting in the buffer are
 * older than the scan, so a probe alive now is known for all of them (only a
 * probe that began and ended between two drains, 250 ms apart, is missed).
 */
static void exclude_self(struct measure_hold *mh)
{
	struct dirent *de;
	DIR *d = opendir("/proc/self/task");
	int tid, i, *n;

	if (!d)
		return;
	while ((de = readdir(d))) {
		tid = atoi(de->d_name);
		if (tid <= 0)
			continue;
		for (i = 0; i < mh->ntids && mh->tids[i] != tid; i++)
			;
		if (i < mh->ntids)
			continue;
		if (mh->attr && is_named(tid, "rtm-noise/") && rtm_noiseattr_self(mh->attr, tid)) {
			mh->failed = true;
			break;
		}
		if (mh->tirq && is_named(tid, "rtm-probe/") && rtm_timerirq_follow(mh->tirq, tid)) {
			mh->failed = true;
			break;
		}
		if (mh->census && is_named(tid, "rtm-probe/") && rtm_census_follow(mh->census, tid)) {
			mh->failed = true;
			break;
		}
		if (mh->ntids == mh->cap) {
			n = realloc(mh->tids, (size_t)(mh->cap ? 2 * mh->cap : 32) * sizeof(*n));
			if (!n)
				break;
			mh->tids = n;
			mh->cap = mh->cap ? 2 * mh->cap : 32;
		}
		if (mh->holds && rtm_rtholds_exclude(mh->holds, tid))
			break;
		mh->tids[mh->ntids++] = tid;
	}
	closedir(d);
}

/* The stream's dispatcher: each event to the features that read it. */
static int stream_event(const struct rtm_event *ev, void *ctx)
{
	struct measure_hold *mh = ctx;
	int ret = 0;

	if (mh->holds && ev->type == RTM_EV_SCHED_SWITCH)
		ret = rtm_rtholds_event(ev, mh->holds);
	if (!ret && mh->tirq && (ev->type == RTM_EV_HRTIMER_START ||
				 ev->type == RTM_EV_HRTIMER_ENTRY))
		ret = rtm_timerirq_event(ev, mh->tirq);
	if (!ret && mh->attr)
		ret = rtm_noiseattr_event(ev, mh->attr);
	if (!ret && mh->census)
		ret = rtm_census_event(ev, mh->census);
	return ret;
}

static void hold_drain(struct measure_hold *mh)
{
	uint64_t lost = 0;

	exclude_self(mh);
	mh->drained_at = hold_now_ns();
	if (rtm_trace_read(mh->trace, stream_event, mh, &lost, NULL) < 0)
		mh->failed = true;
	mh->lost += lost;
	if (mh->census)
		rtm_census_lost(mh->census, mh->lost);
}

void measure_hold_poll(struct measure_hold *mh)
{
	if (!mh || mh->paused || mh->failed)
		return;
	hold_drain(mh);
	if (mh->holds)
		rtm_rtholds_tick(mh->holds, hold_now_ns());
}

void measure_hold_pause(struct measure_hold *mh)
{
	uint64_t now = hold_now_ns();

	if (!mh || mh->paused)
		return;
	rtm_trace_stop(mh->trace);
	if (!mh->failed)
		hold_drain(mh);
	if (mh->holds && rtm_rtholds_end(mh->holds, now))
		mh->failed = true;
	if (mh->tirq)
		rtm_timerirq_end(mh->tirq);
	mh->paused = true;
}

void measure_hold_resume(struct measure_hold *mh)
{
	if (!mh || !mh->paused)
		return;
	if (mh->holds)
		rtm_rtholds_begin(mh->holds, hold_now_ns());
	rtm_trace_start(mh->trace);
	mh->paused = false;
}

void measure_hold_line(struct measure_hold *mh, char *buf, size_t len)
{
	if (!mh || !mh->holds) {
		buf[0] = '\0';
		return;
	}
	rtm_rtholds_line(mh->holds, hold_now_ns(), buf, len);
}

void measure_timer_irq_line(struct measure_hold *mh, char *buf, size_t len)
{
	if (!mh || !mh->tirq) {
		buf[0] = '\0';
		return;
	}
	rtm_timerirq_line(mh->tirq, buf, len);
}

struct rtm_census *measure_hold_census(struct measure_hold *mh, uint64_t *drained_at)
{
	if (!mh || mh->paused || mh->failed)
		return NULL;
	*drained_at = mh->drained_at;
	return mh->census;
}

json_t *measure_timer_irq_live(struct measure_hold *mh)
{
	return mh && mh->tirq ? rtm_timerirq_to_json(mh->tirq) : NULL;
}

/* The gap causes into sections.noise, the steal time of the run beside them. */
static void noise_causes(struct measure_hold *mh, struct rtm_result *r)
{
	json_t *noise = json_object_get(r->sections, "noise");
	struct rtm_noiseattr_env *env = calloc((size_t)mh->nsteal, sizeof(*env));
	int64_t *steal1 = calloc((size_t)mh->nsteal, sizeof(*steal1));
	struct rtm_smi_count *smi1 = calloc((size_t)mh->nsteal, sizeof(*smi1));
	bool vm = on_vm();
	int i;

	if (!noise || !env || !steal1 || !smi1) {
		free(env);
		free(steal1);
		free(smi1);
		return;
	}
	measure_read_steal(steal1, mh->nsteal);
	measure_smi_read(smi1, mh->nsteal);
	for (i = 0; i < mh->nsteal; i++) {
		env[i].vm = vm;
		env[i].steal_ns = mh->steal0[i] >= 0 && steal1[i] >= mh->steal0[i] ?
				  steal1[i] - mh->steal0[i] : -1;
		env[i].smi_read = !rtm_smi_delta(&mh->smi0[i], &smi1[i], &env[i].smis,
						 &env[i].smi_why);
	}
	measure_noise_rt_limit(mh->attr, r);
	rtm_noiseattr_lost(mh->attr, mh->lost);
	if (rtm_noiseattr_apply(mh->attr, noise, env, mh->nsteal) || mh->failed)
		fprintf(stderr, "rtmeasure: warning: the gap causes are %s\n", mh->failed ?
			"incomplete (a drain of the trace failed)" : "missing (out of memory)");
	if (mh->failed)
		json_object_set_new(json_object_get(noise, "attribution"), "complete",
				    json_false());
	free(env);
	free(steal1);
	free(smi1);	/* after the causes are written: env's smi_why points into it */
}

void measure_hold_finish(struct measure_hold *mh, struct rtm_result *r)
{
	json_t *sec;

	if (!mh)
		return;
	measure_hold_pause(mh);
	mh->lost += rtm_trace_dropped(mh->trace);
	sec = mh->holds ? rtm_rtholds_to_json(mh->holds) : NULL;
	if (sec) {
		json_object_set_new(sec, "cpus", json_string(mh->cpus));
		json_object_set_new(sec, "excluded_threads", json_integer(mh->ntids));
		json_object_set_new(sec, "trace_lost", json_integer((json_int_t)mh->lost));
		json_object_set_new(sec, "complete", json_boolean(!mh->failed && !mh->lost &&
					!rtm_rtholds_uncertain(mh->holds)));
		json_object_set_new(r->sections, "rt_holds", sec);
	}
	sec = mh->tirq ? rtm_timerirq_to_json(mh->tirq) : NULL;
	if (sec) {
		/* events lost anywhere in the stream may be this feature's */
		json_object_set_new(sec, "trace_lost", json_integer((json_int_t)mh->lost));
		json_object_set_new(sec, "complete", json_boolean(!mh->failed && !mh->lost));
		json_object_set_new(r->sections, "timer_irq", sec);
	}
	if (mh->attr)
		noise_causes(mh, r);
	if (mh->census)
		measure_census_section(mh->census, r, mh->failed, mh->lost);
}

struct rtm_noiseattr *measure_hold_noiseattr(struct measure_hold *mh)
{
	return mh ? mh->attr : NULL;
}

uint64_t measure_hold_window_ns(const struct measure_hold *mh)
{
	return mh ? mh->window_ns : 0;
}

int measure_hold_noise_apply(struct measure_hold *mh, json_t *noise)
{
	if (!mh || !mh->attr)
		return -ENOENT;
	hold_drain(mh);
	return rtm_noiseattr_apply(mh->attr, noise, NULL, 0);
}

void measure_hold_free(struct measure_hold *mh)
{
	if (!mh)
		return;
	rtm_trace_destroy(mh->trace);
	rtm_rtholds_free(mh->holds);
	rtm_timerirq_free(mh->tirq);
	rtm_noiseattr_free(mh->attr);
	rtm_census_free(mh->census);
	free(mh->steal0);
	free(mh->smi0);
	free(mh->tids);
	free(mh);
}
