// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * charged_proc.c - what the kernel charged each thread (/proc/PID/task/TID
 * stat and schedstat), and which CPU time accounting the kernel does.
 *
 * What each kernel option means was read in kernel/sched/cputime.c,
 * kernel/sched/core.c (update_rq_clock_task) and arch/x86/kernel/tsc.c of
 * Linux 6.12:
 *   - sum_exec_runtime grows by rq_clock_task, which leaves out hard-IRQ and
 *     softirq time only with CONFIG_IRQ_TIME_ACCOUNTING in effect (x86 turns
 *     it on in tsc_init() unless tsc=noirqtime, and off when the TSC is marked
 *     unstable later), and steal time with CONFIG_PARAVIRT_TIME_ACCOUNTING when
 *     the hypervisor reports it. ksoftirqd's softirqs stay its own.
 *   - utime+stime of /proc/PID/stat is cputime_adjust(): the tick (or, with
 *     VIRT_CPU_ACCOUNTING_GEN, context-tracking) split scaled to
 *     sum_exec_runtime; only VIRT_CPU_ACCOUNTING_NATIVE reports its own sums.
 *   - without IRQ time accounting, a tick that strikes inside a softirq goes
 *     to /proc/stat's softirq column and to the task's stime at once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/grow.h"
#include "core/jsonutil.h"
#include "core/task.h"
#include "irq/charged.h"

/* ------------------------------------------------------------ /proc tasks */

struct snap_read {
	struct rtm_task_snap *s;
	const char *root;
	int err;			/* -ENOMEM */
};

static int add_task(int pid, int tid, void *arg)
{
	struct snap_read *r = arg;
	struct rtm_task_snap *s = r->s;
	struct rtm_task_stat t, *n;
	size_t cap = (size_t)s->cap;
	int try;

	for (try = 0; try < 3; try++) {
		memset(&t, 0, sizeof(t));
		t.read_ns = rtm_clock_ns(CLOCK_MONOTONIC);
		if (rtm_task_read_stat(r->root, pid, tid, &t) || t.tid != tid)
			return 0;	/* gone meanwhile, or not a task file */
		t.pid = pid;
		rtm_task_read_schedstat(r->root, pid, tid, &t);
		t.read_end_ns = rtm_clock_ns(CLOCK_MONOTONIC);
		if (t.read_end_ns - t.read_ns <= 100000)
			break;		/* else preempted between the clock and the files */
	}
	n = rtm_grow(s->t, &cap, (size_t)s->n, sizeof(*n), 256);
	if (!n)
		return r->err = -ENOMEM;
	s->t = n;
	s->cap = (int)cap;	/* s->n is an int: never beyond INT_MAX */
	s->t[s->n++] = t;
	return 0;
}

static int tid_cmp(const void *a, const void *b)
{
	const struct rtm_task_stat *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

int rtm_task_snap_read(const char *root, struct rtm_task_snap *s, struct rtm_error *err)
{
	struct snap_read r = { .s = s, .root = root };
	int ret;

	memset(s, 0, sizeof(*s));
	s->begin_ns = rtm_clock_ns(CLOCK_MONOTONIC);
	ret = rtm_task_each_thread(root, add_task, &r);
	if (ret && !r.err)
		return rtm_error_setn(err, -ENOENT, "cannot list %s/proc (is /proc mounted?)",
				      strcmp(root, "/") ? root : "");
	s->end_ns = rtm_clock_ns(CLOCK_MONOTONIC);
	if (r.err) {
		rtm_task_snap_release(s);
		rtm_error_set(err, "out of memory reading the tasks of /proc");
		return r.err;
	}
	if (!s->n) {
		rtm_task_snap_release(s);
		rtm_error_set(err, "no task found below %s/proc (is /proc mounted?)",
			      strcmp(root, "/") ? root : "");
		return -ENOENT;
	}
	qsort(s->t, (size_t)s->n, sizeof(*s->t), tid_cmp);
	return 0;
}

void rtm_task_snap_release(struct rtm_task_snap *s)
{
	if (!s)
		return;
	free(s->t);
	memset(s, 0, sizeof(*s));
}

const struct rtm_task_stat *rtm_task_snap_find(const struct rtm_task_snap *s, int tid)
{
	struct rtm_task_stat key;

	if (!s || !s->n)
		return NULL;
	key.tid = tid;
	return bsearch(&key, s->t, (size_t)s->n, sizeof(*s->t), tid_cmp);
}

/* ------------------------------------------------------------ accounting mode */

/* Whether @word ("tsc=noirqtime") is one of the blank-separated words of @cmdline. */
static bool has_word(const char *cmdline, const char *word)
{
	size_t n = strlen(word);
	const char *p = cmdline;

	while ((p = strstr(p, word)) != NULL) {
		if ((p == cmdline || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0' ||
						      p[n] == '\n'))
			return true;
		p += n;
	}
	return false;
}

void rtm_acct_mode_from_sysinfo(const struct rtm_sysinfo *si, struct rtm_acct_mode *m)
{
	long user_hz = sysconf(_SC_CLK_TCK);

	memset(m, 0, sizeof(*m));
	m->irq_time_config = si->config_irq_time_accounting;
	m->irq_time_noirqtime = has_word(si->cmdline, "tsc=noirqtime");
	m->irq_time = m->irq_time_config == 1 && !m->irq_time_noirqtime;
	if (si->config_virt_cpu_accounting_native == 1)
		m->cputime = RTM_CPUTIME_VIRT_NATIVE;
	else if (si->config_virt_cpu_accounting_gen == 1)
		m->cputime = RTM_CPUTIME_VIRT_GEN;
	else if (si->config_tick_cpu_accounting == 1)
		m->cputime = RTM_CPUTIME_TICK;
	snprintf(m->nohz_full, sizeof(m->nohz_full), "%s", si->nohz_full);
	m->forced_threading = si->config_irq_forced_threading;
	m->threadirqs = si->opts.threadirqs != NULL;
	m->preempt_rt = si->preempt == RTM_PREEMPT_RT;
	/* PREEMPT_RT selects IRQ_FORCED_THREADING and forces it on */
	m->threaded = m->preempt_rt || (m->threadirqs && m->forced_threading != 0);
	m->paravirt_steal = si->config_paravirt_time_accounting;
	m->vm = si->vm;
	m->hz = si->config_hz;
	m->user_hz = user_hz > 0 ? (int)user_hz : 100;
	snprintf(m->config_source, sizeof(m->config_source), "%s", si->config_source);
}

/* Whether interrupt time is taken out of the tasks' times. */
static void irq_time_line(const struct rtm_acct_mode *m, char line[400])
{
	if (m->irq_time)
		snprintf(line, 400, "IRQ time accounting on (CONFIG_IRQ_TIME_ACCOUNTING=y): "
			 "the kernel clocks every hard-IRQ and softirq entry and exit and "
			 "leaves that time out of the interrupted task's sum_exec_runtime and "
			 "utime+stime; /proc/stat's irq and softirq columns get it (ksoftirqd "
			 "keeps its own). Expect schedstat = ran - interrupt.");
	else if (m->irq_time_config == 1)
		snprintf(line, 400, "IRQ time accounting built in but off "
			 "(tsc=noirqtime): interrupt handler time is charged to the task it "
			 "interrupted, inside its sum_exec_runtime and utime+stime. "
			 "Expect schedstat = ran.");
	else if (m->irq_time_config == 0)
		snprintf(line, 400, "IRQ time accounting off (CONFIG_IRQ_TIME_ACCOUNTING is "
			 "not set): interrupt handler time is charged to the task it "
			 "interrupted, inside its sum_exec_runtime and utime+stime; /proc/stat's "
			 "irq and softirq columns only count ticks that struck inside a handler "
			 "(the task gets those too). Expect schedstat = ran.");
	else
		snprintf(line, 400, "IRQ time accounting not known (no kernel config in "
			 "/proc/config.gz or /boot): schedstat = ran means it is off, "
			 "schedstat = ran - interrupt that it is on.");
}

/* How utime and stime are split; 1 when a line was written, 0 for no known mode. */
static int cputime_line(const struct rtm_acct_mode *m, char line[400])
{
	switch (m->cputime) {
	case RTM_CPUTIME_TICK:
		snprintf(line, 400, "CPU time split: tick-based (CONFIG_TICK_CPU_ACCOUNTING, "
			 "HZ=%d): utime/stime is the user/system split of the ticks, scaled to "
			 "sum_exec_runtime, in 1/%d s units: charged = schedstat within 2 of them.",
			 m->hz, m->user_hz);
		return 1;
	case RTM_CPUTIME_VIRT_GEN:
		if (m->nohz_full[0])
			snprintf(line, 400, "CPU time split: context tracking on the "
				 "nohz_full CPUs %s (CONFIG_VIRT_CPU_ACCOUNTING_GEN), ticks "
				 "elsewhere; utime+stime is scaled to sum_exec_runtime in 1/%d s "
				 "units.",
				 m->nohz_full, m->user_hz);
		else
			snprintf(line, 400, "CPU time split: tick-based at run time "
				 "(CONFIG_VIRT_CPU_ACCOUNTING_GEN, but no nohz_full CPUs); "
				 "utime+stime is scaled to sum_exec_runtime in 1/%d s units.",
				 m->user_hz);
		return 1;
	case RTM_CPUTIME_VIRT_NATIVE:
		snprintf(line, 400, "CPU time split: native (CONFIG_VIRT_CPU_ACCOUNTING_"
			 "NATIVE): hard-IRQ and softirq time go to /proc/stat, not to the task's "
			 "utime+stime, while its sum_exec_runtime keeps them.");
		return 1;
	case RTM_CPUTIME_UNKNOWN:
		snprintf(line, 400, "CPU time split: not known (no kernel config).");
		return 1;
	}
	return 0;
}

/* Where device interrupt handlers run, and so whose time they take. */
static void threading_line(const struct rtm_acct_mode *m, char line[400])
{
	if (m->preempt_rt)
		snprintf(line, 400, "PREEMPT_RT: device interrupt handlers run in "
			 "irq/N-name threads, charged to them; a task is interrupted only by "
			 "the short hard-IRQ part and the per-CPU vectors (local timer, IPIs); "
			 "softirqs run in ksoftirqd/N, ktimers/N or the thread that raised "
			 "them.");
	else if (m->threaded)
		snprintf(line, 400, "threadirqs: device interrupt handlers run in "
			 "irq/N-name threads, charged to them; per-CPU vectors (local timer, IPIs) "
			 "and the softirqs run at hard-IRQ exit still take the interrupted task's "
			 "time.");
	else if (m->threadirqs)
		snprintf(line, 400, "threadirqs is given but this kernel cannot force "
			 "IRQ threads (CONFIG_IRQ_FORCED_THREADING not set): handlers run in "
			 "hard-IRQ context on the interrupted task.");
	else
		snprintf(line, 400, "No forced IRQ threads (no threadirqs, not PREEMPT_RT): "
			 "device handlers, and the softirqs run at their exit, take the "
			 "interrupted task's time; ksoftirqd/N takes over softirqs that keep "
			 "coming back.");
}

int rtm_acct_mode_lines(const struct rtm_acct_mode *m, char lines[RTM_ACCT_LINES][400])
{
	int n = 0;

	irq_time_line(m, lines[n++]);
	n += cputime_line(m, lines[n]);
	threading_line(m, lines[n++]);
	if (m->paravirt_steal == 1)
		snprintf(lines[n++], 400, "Steal time (CONFIG_PARAVIRT_TIME_ACCOUNTING%s): time "
			 "the hypervisor gave to others is left out of sum_exec_runtime when it "
			 "reports it, while the trace counts it as on-CPU: see /proc/stat steal.",
			 m->vm ? ", in a VM" : "");
	return n;
}

json_t *rtm_acct_mode_to_json(const struct rtm_acct_mode *m)
{
	static const char *const cputime[] = { "unknown", "tick", "virt_gen", "virt_native" };
	char lines[RTM_ACCT_LINES][400];
	json_t *arr = json_array(), *cfg;
	int n = rtm_acct_mode_lines(m, lines), i;

	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_string(lines[i]));
#define TRI(v) ((v) < 0 ? json_null() : json_boolean(v))
	cfg = json_pack("{s:o, s:o, s:s}", "CONFIG_IRQ_TIME_ACCOUNTING", TRI(m->irq_time_config),
			"CONFIG_IRQ_FORCED_THREADING", TRI(m->forced_threading),
			"source", m->config_source);
	json_object_set_new(cfg, "CONFIG_PARAVIRT_TIME_ACCOUNTING", TRI(m->paravirt_steal));
#undef TRI
	return json_pack("{s:s, s:s, s:s, s:b, s:b, s:b, s:i, s:i, s:o, s:o, s:o}",
			 "irq_time_accounting", m->irq_time ? "on" :
			 m->irq_time_config < 0 ? "unknown" : "off",
			 "cputime", cputime[m->cputime], "nohz_full", m->nohz_full,
			 "threaded_irqs", m->threaded, "threadirqs", m->threadirqs,
			 "preempt_rt", m->preempt_rt, "hz", m->hz, "user_hz", m->user_hz,
			 "expect", m->irq_time ? json_string("schedstat = ran - interrupt") :
			 m->irq_time_config < 0 ? json_null() : json_string("schedstat = ran"),
			 "config", cfg, "statements", arr);
}
