// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irq_accounting.c - rtmeasure irq --accounting: who is charged for interrupt
 * time. Wiring only: the figures come from lib/cpuacct (trace + /proc).
 *
 * Order: tracing on, one switch forced on every CPU (so each CPU's running
 * task is known from then on), /proc/stat and every thread's stat and
 * schedstat read, the run, the same reads again, tracing off. A task's ran
 * and interrupt time count between its own two reads, like its charged time.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "irq/charged.h"
#include "irq/irq.h"
#include "irq_accounting.h"
#include "cli/cli.h"
#include "box/sysinfo.h"
#include "tracefs/instance.h"
#include "core/units.h"

#define DRAIN_NS 100000000ULL	/* drain the buffers every 100 ms */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(t_ns / 1000000000ULL),
			       .tv_nsec = (long)(t_ns % 1000000000ULL) };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);	/* EINTR: a signal */
}

/*
 * Make every CPU switch once: moving this thread onto the CPU runs the
 * migration stopper there, and then this thread. A CPU whose running task
 * never switched would otherwise have no known task for the whole run.
 */
static void force_switches(int ncpus)
{
	cpu_set_t old, one;
	int c;

	if (sched_getaffinity(0, sizeof(old), &old))
		return;
	for (c = 0; c < ncpus && c < CPU_SETSIZE; c++) {	/* also outside our own mask */
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		if (sched_setaffinity(0, sizeof(one), &one) == 0)
			sched_yield();
	}
	sched_setaffinity(0, sizeof(old), &old);
}

static const char *fmt(char *buf, size_t len, uint64_t ns)
{
	return rtm_fmt_ns(buf, len, ns);
}

static void print_row(const struct rtm_cpuacct_row *r, const struct rtm_cpuacct *a)
{
	const struct rtm_task_stat *s = r->last ? r->last : r->first;
	char who[64], cpus[64], ch[16], sc[16], ran[16], in[16], hi[16], so[16], pol[32];
	const struct rtm_cpuacct_share *t = &r->total;
	int k;

	if (r->pid >= 0 && r->pid != r->task->tid)
		snprintf(who, sizeof(who), "%s %d/%d", r->task->comm, r->pid, r->task->tid);
	else
		snprintf(who, sizeof(who), "%s %d", r->task->comm, r->task->tid);
	rtm_cpulist_format(&r->ran_on, cpus, sizeof(cpus));
	pol[0] = '\0';
	if (s && (s->kpolicy == SCHED_FIFO || s->kpolicy == SCHED_RR))
		snprintf(pol, sizeof(pol), " (%s %d)", s->kpolicy == SCHED_FIFO ? "fifo" : "rr",
			 s->rt_priority);
	else if (s && s->kpolicy)
		snprintf(pol, sizeof(pol), " (SCHED_%s)", s->kpolicy == SCHED_BATCH ? "BATCH" :
			 s->kpolicy == SCHED_IDLE ? "IDLE" : s->kpolicy == SCHED_DEADLINE ?
			 "DEADLINE" : "other");
	printf("%s%s CPU%s%s: ", who, pol, r->ran_on.n > 1 ? "s " : "", cpus);
	if (r->has_charged)
		printf("charged %s", fmt(ch, sizeof(ch), r->charged_stat_ns));
	else
		printf("charged unknown (ended in the run)");
	if (r->has_schedstat)
		printf(" (schedstat %s)", fmt(sc, sizeof(sc), r->charged_sched_ns));
	else if (r->has_charged)
		printf(" (schedstat unknown)");
	printf(", ran %s, of which %s interrupt handling (hardirq %s, softirq %s)%s\n",
	       fmt(ran, sizeof(ran), t->ran_ns), fmt(in, sizeof(in), t->hardirq_ns + t->softirq_ns),
	       fmt(hi, sizeof(hi), t->hardirq_ns), fmt(so, sizeof(so), t->softirq_ns),
	       r->last && !r->first ? " [began in the run]" : "");
	if (r->ran_on.n < 2)
		return;
	for (k = 0; k < r->ran_on.n; k++) {
		const struct rtm_cpuacct_share *c = &r->task->cpu[r->ran_on.cpus[k]];

		printf("    CPU%d: ran %s, of which %s interrupt handling "
		       "(hardirq %s, softirq %s)\n", r->ran_on.cpus[k],
		       fmt(ran, sizeof(ran), c->ran_ns),
		       fmt(in, sizeof(in), c->hardirq_ns + c->softirq_ns),
		       fmt(hi, sizeof(hi), c->hardirq_ns), fmt(so, sizeof(so), c->softirq_ns));
	}
	(void)a;
}

static void print_cpu(int cpu, const struct rtm_cpuacct_cpu *x, const struct rtm_irq_snap *stat,
		      int user_hz)
{
	char a[16], b[16], c[16], d[16], e[16], f[16];
	uint64_t tick = 1000000000ULL / (uint64_t)user_hz;
	int i;

	if (!x->known) {
		printf("CPU%d: no sched_switch seen: its tasks are unknown\n", cpu);
		return;
	}
	printf("CPU%d: tasks ran %s with %s interrupt handling inside (hardirq %s, softirq %s); "
	       "idle %s with %s", cpu, fmt(a, sizeof(a), x->tasks.ran_ns),
	       fmt(b, sizeof(b), x->tasks.hardirq_ns + x->tasks.softirq_ns),
	       fmt(c, sizeof(c), x->tasks.hardirq_ns), fmt(d, sizeof(d), x->tasks.softirq_ns),
	       fmt(e, sizeof(e), x->idle.ran_ns),
	       fmt(f, sizeof(f), x->idle.hardirq_ns + x->idle.softirq_ns));
	for (i = 0; stat && stat->has_stat && i < stat->nstat_cpus; i++)
		if (stat->stat_cpus[i].cpu == cpu)
			printf("; /proc/stat irq %s, softirq %s, steal %s",
			       fmt(a, sizeof(a), stat->stat_cpus[i].irq * tick),
			       fmt(b, sizeof(b), stat->stat_cpus[i].softirq * tick),
			       fmt(c, sizeof(c), stat->stat_cpus[i].steal * tick));
	putchar('\n');
	if (x->unattributed_ns)
		printf("  %s of handler time before the CPU's first switch: not attributed\n",
		       fmt(a, sizeof(a), x->unattributed_ns));
}

static void print_text(const struct rtm_acct_mode *m, const struct rtm_cpuacct *a,
		       const struct rtm_cpuacct_row *rows, int n, const struct irq_acct_opts *o,
		       const struct rtm_irq_snap *stat, uint64_t window_ns, long events,
		       uint64_t lost)
{
	char lines[RTM_ACCT_LINES][400], cpus[256] = "all", w[16], in[16];
	int nl = rtm_acct_mode_lines(m, lines), i, shown = 0, c;

	if (o->cpus->n)
		rtm_cpulist_format(o->cpus, cpus, sizeof(cpus));
	printf("-- interrupt time accounting: %s, CPUs %s, %ld trace events, %llu lost%s\n",
	       fmt(w, sizeof(w), window_ns), cpus, events, (unsigned long long)lost,
	       lost ? " (events lost: the figures are not exact)" : "");
	for (i = 0; i < nl; i++)
		printf("%s\n", lines[i]);
	printf("charged = utime+stime of /proc/PID/task/TID/stat (1/%d s ticks); schedstat = "
	       "its sum_exec_runtime (ns); ran = on-CPU time from sched_switch; interrupt = "
	       "hard-IRQ + softirq handler time inside it\n\n", m->user_hz);
	for (i = 0; i < n; i++) {
		if (shown >= o->top && !rows[i].irq_thread)
			continue;
		print_row(&rows[i], a);
		shown++;
	}
	if (!n)
		printf("no task ran on these CPUs\n");
	putchar('\n');
	for (c = 0; c < rtm_cpuacct_ncpus(a); c++)
		if (!o->cpus->n || rtm_cpulist_has(o->cpus, c))
			print_cpu(c, rtm_cpuacct_cpu(a, c), stat, m->user_hz);
	if (n && rows[0].total.hardirq_ns + rows[0].total.softirq_ns && rows[0].has_schedstat) {
		const struct rtm_cpuacct_row *r = &rows[0];

		fmt(in, sizeof(in), r->total.hardirq_ns + r->total.softirq_ns);
		if (m->irq_time_config < 0)
			printf("\n%s: whether its %s of interrupt handling is in its charged time "
			       "depends on the kernel's accounting (not known here)\n",
			       r->task->comm, in);
		else
			printf("\n%s: %s of interrupt handling inside its on-CPU time %s\n",
			       r->task->comm, in, m->irq_time ? "is not charged to it (IRQ time "
			       "accounting)" : "is charged to it as its own CPU time");
	}
}

int irq_accounting(const struct irq_acct_opts *o)
{
	struct rtm_error err = { "" };
	/* softirq_raise is not needed here: a filter no raise passes keeps it out */
	struct rtm_trace_opts to = { .events = "irq,nmi,sched:sched_switch",
				     .buffer_kb = 32768, .overwrite = false,
				     .filters = { "irq:softirq_raise:vec > 99" }, .nfilters = 1 };
	struct rtm_task_snap first, last;
	struct rtm_irq_snap stat0, stat1, d;
	struct rtm_cpuacct_row *rows = NULL;
	struct rtm_acct_mode mode;
	struct rtm_sysinfo *si;
	struct rtm_cpuacct *a = NULL;
	struct rtm_trace *t = NULL;
	uint64_t start, next, lost = 0, l, off, begin;
	int ncpus = (int)sysconf(_SC_NPROCESSORS_CONF), n = -1, i, status = RTM_EXIT_OK;
	long events = 0, r;
	char list[256];

	memset(&first, 0, sizeof(first));
	memset(&last, 0, sizeof(last));
	memset(&stat0, 0, sizeof(stat0));
	memset(&stat1, 0, sizeof(stat1));
	memset(&d, 0, sizeof(d));
	si = rtm_sysinfo_collect("/", &err);
	if (!si)
		return rtm_cli_fail("irq: %s", err.msg);
	rtm_acct_mode_from_sysinfo(si, &mode);
	rtm_sysinfo_free(si);
	if (rtm_irq_snap_read("/", &stat0, &err))
		return rtm_cli_fail("irq: %s", err.msg);
	for (i = 0; i < o->cpus->n; i++) {
		struct rtm_cpulist have = { stat0.ncpus, stat0.cpus };

		if (!rtm_cpulist_has(&have, o->cpus->cpus[i])) {
			rtm_cpulist_format(&have, list, sizeof(list));
			rtm_irq_snap_release(&stat0);
			return rtm_cli_fail("irq: CPU %d is not online (CPUs in /proc/interrupts: "
					    "%s); pick others with -a", o->cpus->cpus[i], list);
		}
	}
	rtm_irq_snap_release(&stat0);
	a = rtm_cpuacct_alloc(ncpus);
	t = a ? rtm_trace_create(&to, &err) : NULL;
	if (!t) {
		rtm_cpuacct_free(a);
		return rtm_cli_fail("irq: %s", err.msg[0] ? err.msg : "out of memory");
	}
	rtm_cli_trace_note(t);
	if (rtm_trace_start(t)) {
		status = rtm_cli_fail("irq: cannot switch tracing on in %s", rtm_trace_name(t));
		goto out;
	}
	rtm_cpuacct_trace_on(a, mono_ns());
	force_switches(ncpus);
	if (rtm_irq_snap_read("/", &stat0, &err) || rtm_task_snap_read("/", &first, &err)) {
		status = rtm_cli_fail("irq: %s", err.msg);
		goto out;
	}
	begin = first.begin_ns;
	rtm_cpuacct_window(a, begin, UINT64_MAX, &first, NULL);
	start = mono_ns();
	for (next = start + DRAIN_NS; !*o->stop; next += DRAIN_NS) {
		if (o->duration_ns && next - start >= o->duration_ns)
			break;
		sleep_until(next);
		l = 0;
		r = rtm_trace_read(t, rtm_cpuacct_event, a, &l, &err);
		if (r < 0) {
			status = rtm_cli_fail("irq: %s", err.msg);
			goto out;
		}
		events += r;
		lost += l;
	}
	if (o->duration_ns && !*o->stop)
		sleep_until(start + o->duration_ns);
	if (rtm_task_snap_read("/", &last, &err) || rtm_irq_snap_read("/", &stat1, &err) ||
	    rtm_irq_delta(&stat0, &stat1, &d, &err)) {
		status = rtm_cli_fail("irq: %s", err.msg);
		goto out;
	}
	rtm_cpuacct_window(a, begin, last.end_ns, &first, &last);
	off = mono_ns();
	rtm_trace_stop(t);
	l = 0;
	r = rtm_trace_read(t, rtm_cpuacct_event, a, &l, &err);
	if (r < 0) {
		status = rtm_cli_fail("irq: %s", err.msg);
		goto out;
	}
	events += r;
	lost += l + rtm_trace_dropped(t);
	rtm_cpuacct_finish(a, off);
	n = rtm_cpuacct_rows(a, o->cpus->n ? o->cpus : NULL, mode.user_hz, &rows);
	if (n < 0) {
		status = rtm_cli_fail("irq: out of memory");
		goto out;
	}
	if (o->json) {
		json_t *doc = json_pack("{s:o, s:o, s:I, s:I}", "accounting",
					rtm_acct_mode_to_json(&mode), "result",
					rtm_cpuacct_to_json(a, rows, n, o->cpus->n ? o->cpus : NULL,
							    &d, mode.user_hz),
					"trace_events", (json_int_t)events,
					"trace_lost", (json_int_t)lost);

		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
	} else {
		print_text(&mode, a, rows, n, o, &d, last.end_ns - begin, events, lost);
	}
	fflush(stdout);
out:
	rtm_trace_stop(t);
	rtm_trace_destroy(t);
	rtm_cpuacct_rows_free(rows, n > 0 ? n : 0);
	rtm_cpuacct_free(a);
	rtm_task_snap_release(&first);
	rtm_task_snap_release(&last);
	rtm_irq_snap_release(&stat0);
	rtm_irq_snap_release(&stat1);
	rtm_irq_snap_release(&d);
	return status;
}
