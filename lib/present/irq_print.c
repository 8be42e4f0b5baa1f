// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irq_print.c - what `rtmeasure irq` prints: the rates table of an interval,
 * the IRQ affinity list (text and JSON) and the interrupt time accounting of
 * irq --accounting. The figures come from lib/irq; nothing here reads /proc
 * or a trace.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "box/rt.h"
#include "core/task.h"
#include "core/units.h"
#include "present/irq_print.h"

/* ---------------------------------------------------------------- rates */

/* The columns: at most 8 CPUs, none when more than 8 and all are shown. */
static int table_cols(const struct rtm_irq_snap *d, const struct rtm_cpulist *sel, int cols[8])
{
	int k, ncols = 0;

	for (k = 0; k < d->ncpus && ncols < 8; k++)
		if (!sel || rtm_cpulist_has(sel, d->cpus[k]))
			cols[ncols++] = k;
	if (d->ncpus > 8 && !sel)
		ncols = 0;	/* too many CPUs for columns: totals only */
	return ncols;
}

static void table_head(FILE *f, const struct rtm_irq_snap *d, const struct rtm_cpulist *sel,
		       double elapsed_s, uint64_t lost, double secs)
{
	bool rates = d->interval_ns > 0;
	char cpus[256] = "all";
	uint64_t total = 0;
	int i;

	if (sel)
		rtm_cpulist_format(sel, cpus, sizeof(cpus));
	for (i = 0; i < d->nrows; i++)
		total += rtm_irq_count_on(d, &d->rows[i], sel);
	if (rates && elapsed_s <= 0)
		fprintf(f, "-- average since boot (%.0f s)   CPUs %s   %.0f interrupts/s\n", secs,
			cpus, (double)total / secs);
	else if (rates)
		fprintf(f, "-- %.1f s   CPUs %s   %.0f interrupts/s%s\n", elapsed_s, cpus,
			(double)total / secs,
			lost ? "   (trace events lost: raise the buffer)" : "");
	else
		fprintf(f, "-- counts since boot   CPUs %s   %llu interrupts\n", cpus,
			(unsigned long long)total);
}

/* The handler time columns of one row: average, maximum, share of the CPUs' time. */
static void table_times(FILE *f, const struct rtm_irq_snap *d, const struct rtm_irqacct *a,
			const struct rtm_irq_row *r, const struct rtm_cpulist *sel)
{
	struct rtm_irqacct_cpu h;
	char lat[16], mx[16];

	rtm_irqacct_row_total(a, r->name, r->irq, sel, &h);
	if (h.count) {
		rtm_fmt_ns(lat, sizeof(lat), h.total_ns / h.count);
		rtm_fmt_ns(mx, sizeof(mx), h.max_ns);
		fprintf(f, " %9s %9s %5.2f%%", lat, mx, 100.0 * (double)h.total_ns /
			((double)d->interval_ns * (sel ? sel->n : d->ncpus)));
	} else {
		fprintf(f, " %9s %9s %6s", "-", "-", "-");
	}
}

static void table_rows(FILE *f, const struct rtm_irq_snap *d, const struct rtm_irqacct *a,
		       const struct rtm_cpulist *sel, int top, double secs)
{
	bool rates = d->interval_ns > 0;
	int idx[256], cols[8], ncols = table_cols(d, sel, cols), n, i, k;

	fprintf(f, "%-6s %10s", "IRQ", rates ? "per s" : "count");
	for (k = 0; k < ncols; k++)
		fprintf(f, " %6s%-3d", "CPU", d->cpus[cols[k]]);
	if (a)
		fprintf(f, " %9s %9s %6s", "avg", "max", "cpu%");
	fprintf(f, "  %s\n", "description");
	n = rtm_irq_top(d, sel, top < 256 ? top : 256, idx);
	for (i = 0; i < n; i++) {
		const struct rtm_irq_row *r = &d->rows[idx[i]];
		uint64_t c = rtm_irq_count_on(d, r, sel);

		if (!c)
			break;
		fprintf(f, "%-6s %10.*f", r->name, rates ? 1 : 0, (double)c / secs);
		for (k = 0; k < ncols; k++)
			fprintf(f, " %9.*f", rates ? 1 : 0,
				r->percpu ? (double)r->counts[cols[k]] / secs : 0.0);
		if (a)
			table_times(f, d, a, r, sel);
		fprintf(f, "  %s\n",
			r->actions && *r->actions ? r->actions : (r->desc ? r->desc : ""));
	}
}

static void table_softirqs(FILE *f, const struct rtm_irq_snap *d, const struct rtm_cpulist *sel,
			   double secs)
{
	int i, k;

	fprintf(f, "softirqs per %s:", d->interval_ns > 0 ? "s" : "boot");
	for (i = 0; i < d->nsoft; i++) {
		uint64_t c = 0;

		for (k = 0; k < d->nsoft_cpus; k++)
			if (!sel || rtm_cpulist_has(sel, d->soft_cpus[k]))
				c += d->soft[i].counts[k];
		if (c)
			fprintf(f, " %s %.0f", d->soft[i].name, (double)c / secs);
	}
	fputc('\n', f);
}

/* Softirqs and IRQ threads: their handler time in the interval. */
static void table_handlers(FILE *f, const struct rtm_irqacct *a, const struct rtm_cpulist *sel)
{
	const struct rtm_irqsrc *src;
	char lat[16], mx[16];
	int i, ns;

	src = rtm_irqacct_sources(a, &ns);
	fprintf(f, "handler time:");
	for (i = 0; i < ns; i++) {
		struct rtm_irqacct_cpu t;

		if (src[i].kind != RTM_IRQSRC_SOFTIRQ && src[i].kind != RTM_IRQSRC_THREAD)
			continue;
		rtm_irqsrc_total(&src[i], rtm_irqacct_ncpus(a), sel, &t);
		if (!t.count)
			continue;
		rtm_fmt_ns(lat, sizeof(lat), t.total_ns);
		rtm_fmt_ns(mx, sizeof(mx), t.max_ns);
		fprintf(f, " %s%s %s (max %s)", src[i].kind == RTM_IRQSRC_SOFTIRQ ? "softirq " : "",
			src[i].name, lat, mx);
	}
	fputc('\n', f);
}

void rtm_irq_table_print(FILE *f, const struct rtm_irq_snap *d, const struct rtm_irqacct *a,
			 const struct rtm_cpulist *cpus, int top, double elapsed_s, uint64_t lost)
{
	double secs = d->interval_ns > 0 ? (double)d->interval_ns / 1e9 : 1;

	table_head(f, d, cpus, elapsed_s, lost, secs);
	table_rows(f, d, a, cpus, top, secs);
	if (d->has_softirqs)
		table_softirqs(f, d, cpus, secs);
	if (a)
		table_handlers(f, a, cpus);
}

/* ---------------------------------------------------------------- affinity */

/* One IRQ of the affinity list, as both forms show it. */
struct aff_row {
	char smp[256], eff[256];	/* "" when unknown */
	char thr[64];			/* "pid N POLICY PRIO", "-" without a thread */
	const char *flag;		/* "" when it does not reach the isolated CPUs */
};

static void aff_row(const struct rtm_irq_row *r, const struct rtm_irq_threads *th,
		    const struct rtm_cpulist *iso, struct aff_row *out)
{
	const struct rtm_irq_affinity *a = r->aff;
	int k;

	out->smp[0] = out->eff[0] = '\0';
	if (a && a->has_smp)
		rtm_cpulist_format(&a->smp, out->smp, sizeof(out->smp));
	if (a && a->has_effective)
		rtm_cpulist_format(&a->effective, out->eff, sizeof(out->eff));
	switch (rtm_irq_isolation_of(a, iso)) {
	case RTM_IRQ_ISO_LANDS:
		out->flag = "LANDS ON ISOLATED CPUS";
		break;
	case RTM_IRQ_ISO_MAY:
		out->flag = "may land on isolated CPUs";
		break;
	default:
		out->flag = "";
		break;
	}
	snprintf(out->thr, sizeof(out->thr), "-");
	for (k = 0; k < th->n; k++)
		if (th->t[k].irq == r->irq && !th->t[k].secondary) {
			snprintf(out->thr, sizeof(out->thr), "pid %d %s %d", th->t[k].pid,
				 th->t[k].policy_known ? rtm_policy_name(th->t[k].policy) : "?",
				 th->t[k].rt_priority);
			break;
		}
}

void rtm_irq_affinity_print(FILE *f, const struct rtm_irq_snap *s,
			    const struct rtm_irq_threads *th, const struct rtm_cpulist *iso)
{
	struct aff_row v;
	char isol[256], node[16];
	int i, flagged = 0;

	rtm_cpulist_format(iso, isol, sizeof(isol));
	fprintf(f, "%-5s %-14s %-14s %-4s %-26s %s\n", "IRQ", "affinity", "effective", "node",
		"IRQ thread", "actions");
	for (i = 0; i < s->nrows; i++) {
		const struct rtm_irq_row *r = &s->rows[i];
		const struct rtm_irq_affinity *a = r->aff;

		if (r->irq < 0)
			continue;
		aff_row(r, th, iso, &v);
		flagged += *v.flag != '\0';
		snprintf(node, sizeof(node), "%d", a ? a->node : -1);
		fprintf(f, "%-5d %-14s %-14s %-4s %-26s %s%s%s\n", r->irq, v.smp[0] ? v.smp : "?",
			v.eff[0] ? v.eff : "?", a && a->node >= 0 ? node : "-", v.thr,
			r->actions && *r->actions ? r->actions : (r->desc ? r->desc : ""),
			*v.flag ? "  <- " : "", v.flag);
	}
	if (iso->n)
		fprintf(f, "\nisolated CPUs %s: %d IRQ%s may land on them%s\n", isol, flagged,
			flagged == 1 ? "" : "s", flagged ? " (set /proc/irq/N/smp_affinity_list, "
			"or boot with irqaffinity=)" : "");
	else
		fprintf(f, "\nno isolated CPUs (isolcpus=, nohz_full=) on this box\n");
}

json_t *rtm_irq_affinity_to_json(const struct rtm_irq_snap *s,
				 const struct rtm_irq_threads *th, const struct rtm_cpulist *iso)
{
	json_t *arr = json_array();
	struct aff_row v;
	char isol[256];
	int i;

	rtm_cpulist_format(iso, isol, sizeof(isol));
	for (i = 0; i < s->nrows; i++) {
		const struct rtm_irq_row *r = &s->rows[i];

		if (r->irq < 0)
			continue;
		aff_row(r, th, iso, &v);
		json_array_append_new(arr, json_pack("{s:i, s:s, s:s, s:s, s:i, s:s, s:s}",
			"irq", r->irq, "actions", r->actions ? r->actions : "",
			"affinity", v.smp, "effective_affinity", v.eff,
			"node", r->aff ? r->aff->node : -1, "thread", v.thr, "isolated", v.flag));
	}
	return json_pack("{s:s, s:o}", "isolated_cpus", isol, "irqs", arr);
}

/* ---------------------------------------------------------------- accounting */

static const char *fmt(char *buf, size_t len, uint64_t ns)
{
	return rtm_fmt_ns(buf, len, ns);
}

/* The task's name and ids, and its policy when not SCHED_OTHER. */
static void task_who(const struct rtm_cpuacct_row *r, char *who, size_t wlen, char *pol,
		     size_t plen)
{
	const struct rtm_task_stat *s = r->last ? r->last : r->first;

	if (r->pid >= 0 && r->pid != r->task->tid)
		snprintf(who, wlen, "%s %d/%d", r->task->comm, r->pid, r->task->tid);
	else
		snprintf(who, wlen, "%s %d", r->task->comm, r->task->tid);
	pol[0] = '\0';
	if (s && (s->kpolicy == SCHED_FIFO || s->kpolicy == SCHED_RR)) {
		snprintf(pol, plen, " (%s %d)", rtm_kpolicy_str(s->kpolicy, RTM_KPOLICY_LOWER),
			 s->rt_priority);
	} else if (s && s->kpolicy) {
		const char *name = rtm_kpolicy_str(s->kpolicy, RTM_KPOLICY_SCHED);

		/* one the table does not name keeps the form it always had */
		snprintf(pol, plen, " (%s)", name && s->kpolicy != SCHED_EXT ? name : "SCHED_other");
	}
}

static void print_task(FILE *f, const struct rtm_cpuacct_row *r)
{
	char who[64], cpus[64], ch[16], sc[16], ran[16], in[16], hi[16], so[16], pol[32];
	const struct rtm_cpuacct_share *t = &r->total;
	int k;

	task_who(r, who, sizeof(who), pol, sizeof(pol));
	rtm_cpulist_format(&r->ran_on, cpus, sizeof(cpus));
	fprintf(f, "%s%s CPU%s%s: ", who, pol, r->ran_on.n > 1 ? "s " : "", cpus);
	if (r->has_charged)
		fprintf(f, "charged %s", fmt(ch, sizeof(ch), r->charged_stat_ns));
	else
		fprintf(f, "charged unknown (ended in the run)");
	if (r->has_schedstat)
		fprintf(f, " (schedstat %s)", fmt(sc, sizeof(sc), r->charged_sched_ns));
	else if (r->has_charged)
		fprintf(f, " (schedstat unknown)");
	fprintf(f, ", ran %s, of which %s interrupt handling (hardirq %s, softirq %s)%s\n",
		fmt(ran, sizeof(ran), t->ran_ns),
		fmt(in, sizeof(in), t->hardirq_ns + t->softirq_ns),
		fmt(hi, sizeof(hi), t->hardirq_ns), fmt(so, sizeof(so), t->softirq_ns),
		r->last && !r->first ? " [began in the run]" : "");
	if (r->ran_on.n < 2)
		return;
	for (k = 0; k < r->ran_on.n; k++) {
		const struct rtm_cpuacct_share *c = &r->task->cpu[r->ran_on.cpus[k]];

		fprintf(f, "    CPU%d: ran %s, of which %s interrupt handling "
			"(hardirq %s, softirq %s)\n", r->ran_on.cpus[k],
			fmt(ran, sizeof(ran), c->ran_ns),
			fmt(in, sizeof(in), c->hardirq_ns + c->softirq_ns),
			fmt(hi, sizeof(hi), c->hardirq_ns), fmt(so, sizeof(so), c->softirq_ns));
	}
}

static void print_cpu(FILE *f, int cpu, const struct rtm_cpuacct_cpu *x,
		      const struct rtm_irq_snap *stat, int user_hz)
{
	char a[16], b[16], c[16], d[16], e[16], g[16];
	uint64_t tick = 1000000000ULL / (uint64_t)user_hz;
	int i;

	if (!x->known) {
		fprintf(f, "CPU%d: no sched_switch seen: its tasks are unknown\n", cpu);
		return;
	}
	fprintf(f, "CPU%d: tasks ran %s with %s interrupt handling inside (hardirq %s, softirq "
		"%s); idle %s with %s", cpu, fmt(a, sizeof(a), x->tasks.ran_ns),
		fmt(b, sizeof(b), x->tasks.hardirq_ns + x->tasks.softirq_ns),
		fmt(c, sizeof(c), x->tasks.hardirq_ns), fmt(d, sizeof(d), x->tasks.softirq_ns),
		fmt(e, sizeof(e), x->idle.ran_ns),
		fmt(g, sizeof(g), x->idle.hardirq_ns + x->idle.softirq_ns));
	for (i = 0; stat && stat->has_stat && i < stat->nstat_cpus; i++)
		if (stat->stat_cpus[i].cpu == cpu)
			fprintf(f, "; /proc/stat irq %s, softirq %s, steal %s",
				fmt(a, sizeof(a), stat->stat_cpus[i].irq * tick),
				fmt(b, sizeof(b), stat->stat_cpus[i].softirq * tick),
				fmt(c, sizeof(c), stat->stat_cpus[i].steal * tick));
	fputc('\n', f);
	if (x->unattributed_ns)
		fprintf(f, "  %s of handler time before the CPU's first switch: not attributed\n",
			fmt(a, sizeof(a), x->unattributed_ns));
}

/* Whether the busiest task's interrupt handling is in its charged time. */
static void print_verdict(FILE *f, const struct rtm_charged_run *run)
{
	const struct rtm_cpuacct_row *r = &run->rows[0];
	const struct rtm_acct_mode *m = &run->mode;
	char in[16];

	fmt(in, sizeof(in), r->total.hardirq_ns + r->total.softirq_ns);
	if (m->irq_time_config < 0)
		fprintf(f, "\n%s: whether its %s of interrupt handling is in its charged time "
			"depends on the kernel's accounting (not known here)\n", r->task->comm, in);
	else
		fprintf(f, "\n%s: %s of interrupt handling inside its on-CPU time %s\n",
			r->task->comm, in, m->irq_time ? "is not charged to it (IRQ time "
			"accounting)" : "is charged to it as its own CPU time");
}

void rtm_charged_run_print(FILE *f, const struct rtm_charged_run *run, int top)
{
	const struct rtm_cpulist *sel = run->cpus && run->cpus->n ? run->cpus : NULL;
	const struct rtm_cpuacct_row *rows = run->rows;
	char lines[RTM_ACCT_LINES][400], cpus[256] = "all", w[16];
	int nl = rtm_acct_mode_lines(&run->mode, lines), n = run->nrows, i, shown = 0, c;

	if (sel)
		rtm_cpulist_format(sel, cpus, sizeof(cpus));
	fprintf(f, "-- interrupt time accounting: %s, CPUs %s, %ld trace events, %llu lost%s\n",
		fmt(w, sizeof(w), run->window_ns), cpus, run->events,
		(unsigned long long)run->lost,
		run->lost ? " (events lost: the figures are not exact)" : "");
	for (i = 0; i < nl; i++)
		fprintf(f, "%s\n", lines[i]);
	fprintf(f, "charged = utime+stime of /proc/PID/task/TID/stat (1/%d s ticks); schedstat = "
		"its sum_exec_runtime (ns); ran = on-CPU time from sched_switch; interrupt = "
		"hard-IRQ + softirq handler time inside it\n\n", run->mode.user_hz);
	for (i = 0; i < n; i++) {
		if (shown >= top && !rows[i].irq_thread)
			continue;
		print_task(f, &rows[i]);
		shown++;
	}
	if (!n)
		fprintf(f, "no task ran on these CPUs\n");
	fputc('\n', f);
	for (c = 0; c < rtm_cpuacct_ncpus(run->a); c++)
		if (!sel || rtm_cpulist_has(sel, c))
			print_cpu(f, c, rtm_cpuacct_cpu(run->a, c), &run->stat, run->mode.user_hz);
	if (n && rows[0].total.hardirq_ns + rows[0].total.softirq_ns && rows[0].has_schedstat)
		print_verdict(f, run);
}
