// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the spike census (lib/trace/census.c). Hand-made event sequences on one
 * CPU, one per cause class, whose answer is known by construction (a timer
 * interrupt late on an idle CPU, on a VM, with the steal time growing, while a
 * task ran; an IRQ, a vector, a softirq, an NMI, a task holding the CPU; the
 * switch to the probe late; a wake-up the trace does not reach); then raw pages
 * recorded on this VM (a FIFO 95 sleeper on 500 us boundaries and an injector
 * spinning 1.5 ms six times at FIFO 99, tests/data/census-vm-6.18/RECORDED):
 * each of the six late wake-ups is the injector's. Then the JSON section, its
 * check on load (corrupted copies refused), the sentence and the printers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace/census.h"
#include "present/census_print.h"
#include "trace/timerirq.h"
#include "tracefs/tracedec.h"
#include "../fakeproc.h"
#include "../tap.h"

#define WAKEUP	0xffffffff8142de30ULL	/* hrtimer_wakeup */
#define SLEEPER	0xffffc90006083cc8ULL
#define PROBE	100
#define HOG	500
#define BOUND	900000ULL
#define MS	1000000ULL
#define US	1000ULL
#define T0	(1000 * MS)		/* the first event of each sequence */

struct feed {
	struct rtm_timerirq *t;
	struct rtm_census *c;
	struct rtm_irqacct *tap;	/* handler times of their own, beside the census's */
};

/* where fresh() censuses read tasks' policies (NULL: none, "unknown") */
static const char *proc_root;

static const char *data_dir(void)
{
	return getenv("RTM_TESTDATA") ? getenv("RTM_TESTDATA") : "tests/data";
}

static int dispatch(const struct rtm_event *ev, void *ctx)
{
	struct feed *f = ctx;
	int ret = 0;

	if (ev->type == RTM_EV_HRTIMER_START || ev->type == RTM_EV_HRTIMER_ENTRY)
		ret = rtm_timerirq_event(ev, f->t);
	return ret ? ret : rtm_census_event(ev, f->c);
}

static struct feed fresh(int cpu, int probe, uint64_t fn, bool vm)
{
	struct feed f = { rtm_timerirq_alloc(4, fn), rtm_census_alloc(4, BOUND, proc_root), NULL };

	if (!f.t || !f.c || rtm_timerirq_watch(f.t, cpu) || rtm_timerirq_follow(f.t, probe) ||
	    rtm_census_watch(f.c, cpu) || rtm_census_follow(f.c, probe)) {
		printf("Bail out! cannot set up\n");
		exit(1);
	}
	rtm_census_set_vm(f.c, vm);
	rtm_timerirq_set_expiry_cb(f.t, rtm_census_expiry, f.c);
	return f;
}

static void done(struct feed *f)
{
	rtm_timerirq_free(f->t);
	rtm_census_free(f->c);
}

static struct rtm_event ev0(enum rtm_ev_type type, uint64_t ts, int pid)
{
	struct rtm_event e;

	memset(&e, 0, sizeof(e));
	e.type = type;
	e.ts_ns = ts;
	e.pid = pid;
	e.cpu = 0;
	return e;
}

static void sw(struct feed *f, uint64_t ts, int prev, const char *pcomm, int pprio, int next,
	       const char *ncomm, int nprio)
{
	struct rtm_event e = ev0(RTM_EV_SCHED_SWITCH, ts, prev);

	e.sw.prev_pid = prev;
	e.sw.prev_prio = pprio;
	e.sw.next_pid = next;
	e.sw.next_prio = nprio;
	snprintf(e.sw.prev_comm, sizeof(e.sw.prev_comm), "%s", pcomm);
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "%s", ncomm);
	dispatch(&e, f);
}

/* The probe arms its sleep for @planned (at @ts) and goes to sleep; the CPU idles. */
static void sleep_until(struct feed *f, uint64_t ts, uint64_t planned)
{
	struct rtm_event e = ev0(RTM_EV_HRTIMER_START, ts, PROBE);

	e.hrstart.hrtimer = SLEEPER;
	e.hrstart.function = WAKEUP;
	e.hrstart.expires = (int64_t)planned;
	e.hrstart.softexpires = (int64_t)planned;
	dispatch(&e, f);
	sw(f, ts + 1 * US, PROBE, "rtm-probe/0", 4, 0, "swapper/0", 120);
}

static void expire(struct feed *f, uint64_t now)
{
	struct rtm_event e = ev0(RTM_EV_HRTIMER_ENTRY, now + 300, 0);

	e.hrtimer.hrtimer = SLEEPER;
	e.hrtimer.function = WAKEUP;
	e.hrtimer.now = now;
	dispatch(&e, f);
}

static void handler(struct feed *f, enum rtm_ev_type in, enum rtm_ev_type out, uint64_t a,
		    uint64_t b, int id, const char *name)
{
	struct rtm_event e = ev0(in, a, 0);

	e.irq.irq = id;
	snprintf(e.irq.name, sizeof(e.irq.name), "%s", name);
	if (in == RTM_EV_SOFTIRQ_ENTRY)
		e.softirq.vec = (unsigned int)id;
	if (in == RTM_EV_VECTOR_ENTRY)
		e.name = name;
	dispatch(&e, f);
	e = ev0(out, b, 0);
	e.irq.irq = id;
	if (out == RTM_EV_SOFTIRQ_EXIT)
		e.softirq.vec = (unsigned int)id;
	dispatch(&e, f);
}

/* The one verdict of a sequence whose late wake-up was planned at @planned. */
static struct rtm_census_verdict judge(struct feed *f, uint64_t planned, uint64_t lat)
{
	struct rtm_census_verdict none = { .cause = RTM_CENSUS_NCAUSES };
	const struct rtm_census_verdict *v;
	size_t n;

	rtm_census_add(f->c, 0, planned, lat);
	rtm_census_advance(f->c, UINT64_MAX);
	v = rtm_census_verdicts(f->c, &n);
	return n == 1 ? v[0] : none;
}

static void timer_late(void)
{
	struct rtm_census_verdict v;
	struct feed f;
	uint64_t e = T0 + 2 * MS;

	/* idle CPU, the interrupt 1.2 ms late, no VM: unexplained */
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	expire(&f, e + 1200 * US);
	sw(&f, e + 1210 * US, 0, "swapper/0", 120, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1220 * US);
	is_str(rtm_census_cause_name(v.cause), "timer_late", "idle CPU, late interrupt: timer_late");
	is_str(v.detail, "unexplained", "... unexplained on bare metal");
	is_int(v.timer_irq_ns, 1200 * US, "... the interrupt's delay");
	is_str(v.culprit, "timer interrupt late (unexplained)", "... worded");
	done(&f);

	/* the same on a VM */
	f = fresh(0, PROBE, WAKEUP, true);
	sleep_until(&f, T0, e);
	expire(&f, e + 1200 * US);
	sw(&f, e + 1210 * US, 0, "swapper/0", 120, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1220 * US);
	is_str(v.culprit, "timer interrupt late (unexplained: VM)", "on a VM: unexplained: VM");
	done(&f);

	/* the steal time grew around it: the hypervisor */
	f = fresh(0, PROBE, WAKEUP, true);
	rtm_census_steal(f.c, 0, T0, 5 * MS);
	sleep_until(&f, T0, e);
	expire(&f, e + 1200 * US);
	sw(&f, e + 1210 * US, 0, "swapper/0", 120, PROBE, "rtm-probe/0", 4);
	rtm_census_steal(f.c, 0, e + 100 * MS, 6 * MS);
	v = judge(&f, e, 1220 * US);
	is_str(v.detail, "hypervisor", "steal grew: hypervisor");
	is_str(v.culprit, "timer interrupt late (hypervisor)", "... worded");
	done(&f);

	/* a task ran when the interrupt was due: it held interrupts off */
	f = fresh(0, PROBE, WAKEUP, true);
	sleep_until(&f, T0, e);
	sw(&f, T0 + 10 * US, 0, "swapper/0", 120, HOG, "hog", 120);
	expire(&f, e + 1200 * US);
	sw(&f, e + 1210 * US, HOG, "hog", 120, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1220 * US);
	is_str(rtm_census_cause_name(v.cause), "timer_late", "a task at the expiry: timer_late");
	is_str(v.detail, "irqs_off", "... interrupts off");
	is_str(v.culprit, "timer interrupt late (interrupts off in hog pid 500, nice 0)",
	       "... in the task, named");
	is_int(v.pid, HOG, "... its pid");
	done(&f);

	/* the same task a thread of the monitor itself: still the cause, said to be the tool */
	f = fresh(0, PROBE, WAKEUP, true);
	is_int(rtm_census_own(f.c, HOG, "this monitor"), 0, "a thread of this process");
	sleep_until(&f, T0, e);
	sw(&f, T0 + 10 * US, 0, "swapper/0", 120, HOG, "hog", 120);
	expire(&f, e + 1200 * US);
	sw(&f, e + 1210 * US, HOG, "hog", 120, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1220 * US);
	is_str(v.culprit, "timer interrupt late (interrupts off in this monitor: hog pid 500, "
	       "nice 0)", "... named as the monitor");
	is_int(v.pid, HOG, "... its pid kept");
	done(&f);
}

/* The policy /proc gives, in the words: "(FIFO 99)", "(OTHER nice 0)". */
static void policies(void)
{
	char root[] = "/tmp/test_census.XXXXXX", path[600];
	struct rtm_census_verdict v;
	uint64_t e = T0 + 2 * MS;
	struct feed f;

	if (!ok(mkdtemp(root) != NULL, "a temporary /proc"))
		return;
	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir(path, 0755);
	fake_proc_stat(root, HOG, "rtm-inject", 1);
	fake_proc_stat(root, HOG + 1, "cc1", 0);
	proc_root = root;
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	sw(&f, e - 100 * US, 0, "swapper/0", 120, HOG, "rtm-inject", 0);
	expire(&f, e + 5 * US);
	sw(&f, e + 1400 * US, HOG, "rtm-inject", 0, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1410 * US);
	is_str(v.culprit, "rtm-inject pid 500 (FIFO 99)", "a FIFO task: its policy and priority");
	done(&f);
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	sw(&f, e - 100 * US, 0, "swapper/0", 120, HOG + 1, "cc1", 120);
	expire(&f, e + 5 * US);
	sw(&f, e + 1400 * US, HOG + 1, "cc1", 120, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1410 * US);
	is_str(v.culprit, "cc1 pid 501 (OTHER nice 0)", "an OTHER task: its policy and nice");
	done(&f);
	/*
	 * Asked when a verdict names the task, not at its switches: a task whose /proc
	 * entry is readable only by then is still named with its policy (reading /proc
	 * for every new task on a busy box cost the monitor most of its drain).
	 */
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	sw(&f, e - 100 * US, 0, "swapper/0", 120, HOG + 2, "sh", 120);
	expire(&f, e + 5 * US);
	sw(&f, e + 1400 * US, HOG + 2, "sh", 120, PROBE, "rtm-probe/0", 4);
	fake_proc_stat(root, HOG + 2, "sh", 0);
	v = judge(&f, e, 1410 * US);
	is_str(v.culprit, "sh pid 502 (OTHER nice 0)", "the policy read when the verdict names it");
	done(&f);
	proc_root = NULL;
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	if (system(path))
		diag("could not remove %s", root);
}

static void handlers(void)
{
	struct rtm_census_verdict v;
	struct feed f;
	uint64_t e = T0 + 2 * MS;

	/* the interrupt on time, then IRQ 24 for 1 ms before the probe ran */
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	expire(&f, e + 5 * US);
	handler(&f, RTM_EV_IRQ_ENTRY, RTM_EV_IRQ_EXIT, e + 10 * US, e + 1010 * US, 24, "virtio0");
	sw(&f, e + 1020 * US, 0, "swapper/0", 120, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1030 * US);
	is_str(rtm_census_cause_name(v.cause), "irq", "an IRQ handler: irq");
	is_str(v.culprit, "irq 24 virtio0", "... named by number and name");
	is_int(v.culprit_ns, 1000 * US, "... its 1 ms");
	is_int(v.timer_irq_ns, 5 * US, "... the interrupt was on time");
	done(&f);

	/* a vector */
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	expire(&f, e + 5 * US);
	handler(&f, RTM_EV_VECTOR_ENTRY, RTM_EV_VECTOR_EXIT, e + 10 * US, e + 1010 * US, 0,
		"call_function_entry");
	sw(&f, e + 1020 * US, 0, "swapper/0", 120, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1030 * US);
	is_str(v.culprit, "vector call_function", "a vector: irq, named");
	done(&f);

	/* a softirq with an IRQ nested: each its own time, the softirq the larger */
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	expire(&f, e + 5 * US);
	{
		struct rtm_event a = ev0(RTM_EV_SOFTIRQ_ENTRY, e + 10 * US, 0);

		a.softirq.vec = 3;	/* NET_RX */
		dispatch(&a, &f);
		handler(&f, RTM_EV_IRQ_ENTRY, RTM_EV_IRQ_EXIT, e + 100 * US, e + 300 * US, 24,
			"virtio0");
		a = ev0(RTM_EV_SOFTIRQ_EXIT, e + 1010 * US, 0);
		a.softirq.vec = 3;
		dispatch(&a, &f);
	}
	sw(&f, e + 1020 * US, 0, "swapper/0", 120, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1030 * US);
	is_str(rtm_census_cause_name(v.cause), "softirq", "a softirq: softirq");
	is_str(v.culprit, "softirq NET_RX", "... named");
	is_int(v.culprit_ns, 800 * US, "... its own 800 us (the nested IRQ's 200 us apart)");
	done(&f);

	/* an NMI of 1 ms */
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	expire(&f, e + 5 * US);
	{
		struct rtm_event a = ev0(RTM_EV_NMI, e + 1010 * US, 0);

		a.nmi.delta_ns = 1000 * US;
		dispatch(&a, &f);
	}
	sw(&f, e + 1020 * US, 0, "swapper/0", 120, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1030 * US);
	is_str(rtm_census_cause_name(v.cause), "nmi", "an NMI: nmi");
	done(&f);
}

static void tasks(void)
{
	struct rtm_census_verdict v;
	struct feed f;
	uint64_t e = T0 + 2 * MS;

	/* a FIFO 99 task (kernel prio 0) spins over the expiry; a tick inside it */
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	sw(&f, e - 100 * US, 0, "swapper/0", 120, HOG, "rtm-inject", 0);
	expire(&f, e + 5 * US);
	handler(&f, RTM_EV_VECTOR_ENTRY, RTM_EV_VECTOR_EXIT, e + 5 * US, e + 25 * US, 0,
		"local_timer_entry");
	/* it drops to OTHER as it leaves: the priority it spun at is the one named */
	sw(&f, e + 1400 * US, HOG, "rtm-inject", 120, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1410 * US);
	is_str(rtm_census_cause_name(v.cause), "thread", "a task held the CPU: thread");
	is_str(v.culprit, "rtm-inject pid 500 (rt 99)", "... named with its priority");
	is_str(v.comm, "rtm-inject", "... its comm");
	is_int(v.pid, HOG, "... its pid");
	is_int(v.priority, 99, "... FIFO/RR priority 99");
	is_str(v.policy, "unknown", "... its policy unknown without /proc");
	is_int(v.culprit_ns, 1395 * US - 20 * US, "... its time less the tick inside it");
	done(&f);

	/* still running when judged (the switch to the probe not yet drained) */
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	sw(&f, e - 100 * US, 0, "swapper/0", 120, HOG, "hog", 0);
	expire(&f, e + 5 * US);
	v = judge(&f, e, 1000 * US);
	is_str(v.culprit, "hog pid 500 (rt 99)", "a task still on the CPU is laid over too");
	done(&f);
	/* kernel prio 100 is nice -20 */
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	sw(&f, e - 100 * US, 0, "swapper/0", 120, HOG, "hog", 100);
	expire(&f, e + 5 * US);
	sw(&f, e + 1400 * US, HOG, "hog", 100, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1410 * US);
	is_int(v.priority, -20, "a normal task: its nice");
	is_str(v.culprit, "hog pid 500 (nice -20)", "... in its words");
	done(&f);
	policies();
}

static void rest(void)
{
	struct rtm_census_verdict v;
	struct feed f;
	uint64_t e = T0 + 2 * MS;
	size_t n;

	/* the interrupt on time, nothing else ran, the switch came 1 ms later */
	f = fresh(0, PROBE, WAKEUP, true);
	sleep_until(&f, T0, e);
	expire(&f, e + 5 * US);
	sw(&f, e + 1005 * US, 0, "swapper/0", 120, PROBE, "rtm-probe/0", 4);
	v = judge(&f, e, 1010 * US);
	is_str(rtm_census_cause_name(v.cause), "wake_path", "nothing in between: wake_path");
	is_str(v.culprit, "switch to the probe late (unexplained: VM)", "... worded");
	done(&f);

	/* a late wake-up before the trace's first event: untraced, never guessed */
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	expire(&f, e + 5 * US);
	sw(&f, e + 10 * US, 0, "swapper/0", 120, PROBE, "rtm-probe/0", 4);
	v = judge(&f, T0 - 50 * MS, 1000 * US);
	is_str(rtm_census_cause_name(v.cause), "untraced", "before the trace: untraced");
	done(&f);

	/* not judged before the stream caught up with it */
	f = fresh(0, PROBE, WAKEUP, false);
	sleep_until(&f, T0, e);
	rtm_census_add(f.c, 0, e, 1000 * US);
	rtm_census_advance(f.c, e + 10 * MS);
	rtm_census_verdicts(f.c, &n);
	is_int(n, 0, "a wake-up the stream has not passed yet waits");
	rtm_census_advance(f.c, e + 100 * MS);
	rtm_census_verdicts(f.c, &n);
	is_int(n, 1, "... and is judged once it has");
	/* a CPU not watched is not the census's */
	is_int(rtm_census_add(f.c, 3, e, 1000 * US), 0, "an unwatched CPU's wake-up is ignored");
	rtm_census_advance(f.c, UINT64_MAX);
	is_int(rtm_census_count(f.c), 1, "... not counted");
	done(&f);
}

/* The census's events, and a handler accounting of its own beside it (as a tap had). */
static int dispatch_tap(const struct rtm_event *ev, void *ctx)
{
	struct feed *f = ctx;
	int ret = dispatch(ev, f);

	return ret ? ret : rtm_irqacct_event(ev, f->tap);
}

/* Handlers counted on CPU @cpu since the last reset, and their time. */
static uint64_t handled(const struct rtm_irqacct *a, int cpu, uint64_t *ns)
{
	const struct rtm_irqsrc *src;
	uint64_t n = 0;
	int i, k;

	src = rtm_irqacct_sources(a, &k);
	for (i = 0; i < k; i++) {
		n += src[i].cpu[cpu].count;
		*ns += src[i].cpu[cpu].total_ns;
	}
	return n;
}

/*
 * The recorded window of tests/data/census-vm-6.18; @own: a tid to take for a
 * thread of the measuring process (0: none). The census's own handler times are
 * read and reset every 10 pages, as the monitor's interrupt table does at each
 * refresh: they add up to those of a separate accounting of the same events, and
 * the verdicts stay as they are.
 */
static struct rtm_census *recorded(int own)
{
	char dir[4096], path[4096], page[4096];
	unsigned long long fn = 0, planned, lat;
	const struct rtm_census_verdict *v;
	struct rtm_tracedec *d;
	struct rtm_error err = { "" };
	uint64_t lost = 0, late = 0;
	int tid = 0, k, ret = 0, named = 0, irq_ok = 0;
	struct feed f;
	size_t n, i;
	FILE *fp;

	snprintf(dir, sizeof(dir), "%s/census-vm-6.18", data_dir());
	snprintf(path, sizeof(path), "%s/probe", dir);
	fp = fopen(path, "r");
	k = fp ? fscanf(fp, "tid %d function %llx", &tid, &fn) : 0;
	if (!ok(k == 2, "probe file: tid %d, hrtimer_wakeup %#llx", tid, fn)) {
		if (fp)
			fclose(fp);
		return NULL;
	}
	f = fresh(1, tid, fn, true);
	if (own && rtm_census_own(f.c, own, "this monitor")) {
		printf("Bail out! cannot set up\n");
		exit(1);
	}
	d = rtm_tracedec_alloc(dir, &err);
	snprintf(path, sizeof(path), "%s/cpu1.raw", dir);
	{
		FILE *raw = fopen(path, "r");

		uint64_t ns = 0, ns_tap = 0, n_shared = 0, pages = 0;

		f.tap = rtm_irqacct_alloc(4);
		while (d && raw && !ret && fread(page, 1, sizeof(page), raw) == sizeof(page)) {
			ret = rtm_tracedec_page(d, page, 1, dispatch_tap, &f, &lost) < 0;
			if (++pages % 10)
				continue;
			n_shared += handled(rtm_census_irqacct(f.c), 1, &ns);
			rtm_irqacct_reset(rtm_census_irqacct(f.c));
		}
		n_shared += handled(rtm_census_irqacct(f.c), 1, &ns);
		if (raw)
			fclose(raw);
		ok(d && raw && !ret && lost == 0, "recorded pages decode, nothing lost");
		ok(f.tap && n_shared > 1000 && n_shared == handled(f.tap, 1, &ns_tap) &&
		   ns == ns_tap, "the census's handler times, reset every 10 pages, add up to "
		   "those of an accounting of their own (%llu handlers)",
		   (unsigned long long)n_shared);
		rtm_irqacct_free(f.tap);
	}
	rtm_tracedec_free(d);
	while (fscanf(fp, "%llu %llu", &planned, &lat) == 2)
		if (lat > BOUND) {
			rtm_census_add(f.c, 1, planned, lat);
			late++;
		}
	fclose(fp);
	rtm_census_advance(f.c, UINT64_MAX);
	is_int(late, 6, "RECORDED: six wake-ups over 900 us");
	v = rtm_census_verdicts(f.c, &n);
	is_int(n, 6, "each has a verdict");
	for (i = 0; i < n; i++) {
		named += v[i].cause == RTM_CENSUS_THREAD && !strcmp(v[i].comm, "rtm-inject") &&
			 v[i].pid == 6950 && v[i].priority == 99 && v[i].culprit_ns > 1000 * US;
		irq_ok += v[i].timer_irq_ns >= 0 && v[i].timer_irq_ns < 100 * (int64_t)US;
	}
	is_int(named, 6, "each names the injector: rtm-inject pid 6950, priority 99, > 1 ms");
	is_int(irq_ok, 6, "each with its timer interrupt on time (< 100 us)");
	rtm_timerirq_free(f.t);
	return f.c;
}

/* the recorded injector's six wake-ups, in words */
#define W "6 by rtm-inject pid 6950 (rt 99)"

static void output(struct rtm_census *c)
{
	json_t *sec = rtm_census_to_json(c), *bad;
	struct rtm_error err = { "" };
	char line[512], *text = NULL;
	size_t len = 0;
	FILE *m;

	ok(sec && !rtm_census_check(sec, "t", &err), "the section checks (%s)", err.msg);
	is_int(json_integer_value(json_object_get(sec, "wakeups")), 6, "section: 6 wake-ups");
	rtm_census_sentence(sec, line, sizeof(line), 3);
	is_str(line, "6 wake-ups over 900 us: 6 by rtm-inject pid 6950 (rt 99)", "the sentence");
	{
		char live[512];

		rtm_census_line(c, live, sizeof(live));
		is_str(live, line, "the monitor's line is the same sentence");
	}
	bad = json_deep_copy(sec);
	json_object_set_new(bad, "wakeups", json_integer(7));
	ok(rtm_census_check(bad, "t", &err) && one_line(err.msg), "wake-ups not adding up: "
	   "refused (%s)", err.msg);
	json_decref(bad);
	bad = json_deep_copy(sec);
	json_object_set_new(json_array_get(json_object_get(bad, "list"), 0), "cause",
			    json_string("gremlins"));
	ok(rtm_census_check(bad, "t", &err) && strstr(err.msg, "list[0]"), "an unknown cause: "
	   "refused (%s)", err.msg);
	json_decref(bad);
	bad = json_deep_copy(sec);
	json_object_set_new(json_object_get(json_array_get(json_object_get(bad, "cpus"), 0),
					    "by_cause"), "thread", json_integer(5));
	ok(rtm_census_check(bad, "t", &err) && strstr(err.msg, "cpus[0]"), "by_cause not adding "
	   "up: refused (%s)", err.msg);
	json_decref(bad);
	bad = json_integer(1);
	ok(rtm_census_check(bad, "t", &err) != 0, "not an object: refused");
	json_decref(bad);
	m = open_memstream(&text, &len);
	rtm_census_fprint(sec, m);
	rtm_census_html(sec, m);
	rtm_census_md(sec, m);
	fclose(m);
	if (!ok(text && strstr(text, "\n  6 wake-ups over 900 us: " W "\n  CPU 1: 6 late wake-ups: "
			       W "\n") &&
		strstr(text, "<p>6 wake-ups over 900 us: " W "</p>") &&
		strstr(text, "<td>rtm-inject pid 6950 (rt 99)</td>") &&
		strstr(text, "**Spike census:** 6 wake-ups over 900 us: " W "\n") &&
		strstr(text, "| 1 | thread | rtm-inject pid 6950 (rt 99) | 6 |"),
		"summary, HTML and Markdown: the same sentence, the culprit in words"))
		diag("%s", text ? text : "");
	free(text);
	json_decref(sec);
}

/*
 * The words around each culprit: a handler or task took the wake-ups "by", the timer and
 * the switch were late themselves "with the", the untraced ones are "not in the trace";
 * the section's sentence and each CPU's line say it alike.
 */
static void words(void)
{
	static const char causes[] =
		"[{\"cause\": \"timer_late\", \"culprit\": \"timer interrupt late (unexplained: VM)\","
		"  \"count\": 4, \"max_latency_ns\": 1},"
		" {\"cause\": \"thread\", \"culprit\": \"cc1 pid 812 (OTHER nice 0)\", \"count\": 2,"
		"  \"max_latency_ns\": 1},"
		" {\"cause\": \"wake_path\", \"culprit\": \"switch to the probe late (unexplained)\","
		"  \"count\": 1, \"max_latency_ns\": 1},"
		" {\"cause\": \"untraced\", \"culprit\": \"not in the trace\", \"count\": 1,"
		"  \"max_latency_ns\": 1}]";
	json_t *list = json_loads(causes, 0, NULL);
	json_t *sec = json_pack("{s:I, s:I, s:O, s:[{s:i, s:I, s:[]}, {s:i, s:I, s:O}]}",
				"bound_ns", (json_int_t)100000, "wakeups", (json_int_t)8,
				"causes", list, "cpus", "cpu", 0, "wakeups", (json_int_t)0,
				"culprits", "cpu", 1, "wakeups", (json_int_t)8, "culprits", list);
	char line[512];

	if (!ok(list && sec, "a section of four causes"))
		return;
	rtm_census_sentence(sec, line, sizeof(line), 2);
	is_str(line, "8 wake-ups over 100 us: 4 with the timer interrupt late (unexplained: VM), "
	       "2 by cc1 pid 812 (OTHER nice 0), 2 other", "the sentence: two named, the rest summed");
	rtm_census_cpu_sentence(json_array_get(json_object_get(sec, "cpus"), 1), line,
				sizeof(line), 4);
	is_str(line, "CPU 1: 8 late wake-ups: 4 with the timer interrupt late (unexplained: VM), "
	       "2 by cc1 pid 812 (OTHER nice 0), 1 with the switch to the probe late (unexplained), "
	       "1 not in the trace", "a CPU's line: each culprit in words");
	rtm_census_cpu_sentence(json_array_get(json_object_get(sec, "cpus"), 0), line,
				sizeof(line), 4);
	is_str(line, "CPU 0: no late wake-up", "a CPU without any");
	json_object_set_new(sec, "wakeups", json_integer(0));
	json_object_set_new(sec, "causes", json_array());
	rtm_census_sentence(sec, line, sizeof(line), 3);
	is_str(line, "no wake-up over 100 us", "none at all");
	json_decref(sec);
	json_decref(list);
}

/*
 * The injector of the recording taken for a thread of the monitor itself (its
 * drawing, its draining of the trace): still the cause of each wake-up, named so
 * that nobody takes the tool for the system's load.
 */
static void own_output(struct rtm_census *c)
{
	const struct rtm_census_verdict *v = NULL;
	char live[512];
	size_t n = 0, i;
	int named = 0;

	v = rtm_census_verdicts(c, &n);
	for (i = 0; i < n; i++)
		named += v[i].cause == RTM_CENSUS_THREAD && v[i].pid == 6950 &&
			 !strcmp(v[i].culprit, "this monitor (rtm-inject pid 6950, rt 99)");
	is_int(named, 6, "each of the six names the monitor's own thread as such");
	rtm_census_line(c, live, sizeof(live));
	is_str(live, "6 wake-ups over 900 us: 6 by this monitor (rtm-inject pid 6950, rt 99)",
	       "the monitor's line says it is the monitor");
	ok(!strstr(live, "6 by rtm-inject"), "never the bare process name");
}

/* rtm_census_changes(): grows with each change the JSON shows, only then */
static void changes(struct rtm_census *c)
{
	uint64_t n = rtm_census_changes(c);

	ok(n >= rtm_census_count(c) && rtm_census_count(c) == 6,
	   "changes count the 6 verdicts at least (%llu)", (unsigned long long)n);
	rtm_census_lost(c, 0);
	rtm_census_dropped(c, 0);
	is_int((long long)rtm_census_changes(c), (long long)n, "nothing new: the same number");
	rtm_census_lost(c, 3);
	ok(rtm_census_changes(c) > n, "events lost: a new number");
	n = rtm_census_changes(c);
	rtm_census_dropped(c, 2);
	ok(rtm_census_changes(c) > n, "wake-ups dropped: a new number");
	n = rtm_census_changes(c);
	rtm_census_lost(c, 2);
	is_int((long long)rtm_census_changes(c), (long long)n, "a smaller lost count: no change");
}

int main(void)
{
	struct rtm_census *c;

	is_str(rtm_census_cause_name(RTM_CENSUS_WAKE_PATH), "wake_path", "cause names");
	ok(rtm_census_cause_name(RTM_CENSUS_NCAUSES) == NULL, "... none past the end");
	ok(rtm_census_alloc(0, BOUND, NULL) == NULL, "no CPUs: refused");
	timer_late();
	handlers();
	tasks();
	rest();
	words();
	c = recorded(0);
	if (c)
		output(c);
	if (c)
		changes(c);
	rtm_census_free(c);
	c = recorded(6950);
	if (c)
		own_output(c);
	rtm_census_free(c);
	return tap_done();
}
