// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_irq.c - rtmeasure irq: which interrupts land on which CPUs, how often,
 * and (with --trace) how long their handlers run.
 *
 * Rates come from /proc/interrupts, /proc/softirqs and /proc/stat snapshots
 * (irq.h); handler times from the irq, irq_vectors, softirq, nmi and sched
 * events of a streaming trace instance drained every interval (irqacct.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>
#include <term.h>

#include "cli/opts.h"
#include "core/fileio.h"
#include "irq/irq.h"
#include "irq_accounting.h"
#include "irq/handlers.h"
#include "rtmeasure.h"
#include "box/sysinfo.h"
#include "tracefs/instance.h"
#include "core/units.h"

struct irq_opts {
	uint64_t interval_ns;
	uint64_t duration_ns;		/* 0: until interrupted */
	struct rtm_cpulist cpus;	/* n == 0: all */
	bool trace, json, once, affinity;
	bool accounting, interval_set;	/* --accounting (irq_accounting.c), -i given */
	int top;
	const char *root;
	int help;		/* RTM_OPT_HELP or RTM_OPT_HELP_ALL: print it and stop */
};

enum {
	IRQ_OPT_TRACE = RTM_OPT_KEY0,
	IRQ_OPT_ONCE,
	IRQ_OPT_JSON,
	IRQ_OPT_AFFINITY,
	IRQ_OPT_ROOT,
	IRQ_OPT_ACCOUNTING,
};

/* Groups of irq --help: the rates table, the other views, recorded trees. */
enum { IRQG_RATES, IRQG_VIEWS, IRQG_ROOT };

static const struct rtm_opt irq_opt_table[] = {
	{ "interval", 'i', required_argument, "DUR", IRQG_RATES,
	  "table interval (default 1s)" },
	{ "duration", 'D', required_argument, "DUR", IRQG_RATES,
	  "stop after DUR (default: until interrupted)" },
	{ "cpus", 'a', required_argument, "LIST", IRQG_RATES,
	  "only these CPUs (e.g. the measured or isolated ones)" },
	{ "top", 'n', required_argument, "N", IRQG_RATES, "rows in the table (default 10)" },
	{ "trace", IRQ_OPT_TRACE, no_argument, NULL, IRQG_RATES,
	  "handler time per IRQ, vector and softirq, raise-to-run delay, NMI and IRQ-thread "
	  "time (root, tracefs)" },
	{ "once", IRQ_OPT_ONCE, no_argument, NULL, IRQG_RATES,
	  "one interval, one table, then exit" },
	{ "json", IRQ_OPT_JSON, no_argument, NULL, IRQG_RATES,
	  "print the totals of the whole run as JSON at the end" },
	{ "affinity", IRQ_OPT_AFFINITY, no_argument, NULL, IRQG_VIEWS,
	  "list every IRQ's affinity and effective affinity and flag those that can land on "
	  "isolated CPUs" },
	{ "root", IRQ_OPT_ROOT, required_argument, "DIR", IRQG_ROOT,
	  "read /proc and /sys under DIR (a recorded tree; --affinity and --once only)" },
	{ "accounting", IRQ_OPT_ACCOUNTING, no_argument, NULL, IRQG_VIEWS,
	  "who is charged for interrupt time: per task and CPU, the CPU time the kernel "
	  "charged, the time it ran and the interrupt handling inside it (root, tracefs; one "
	  "table at the end; -n sets the task rows)" },
	RTM_OPT_HELP_ROWS(IRQG_RATES),
	RTM_OPT_END,
};

static const struct rtm_opt_group irq_groups[] = {
	[IRQG_RATES] = { NULL, true },
	[IRQG_VIEWS] = { "Other views", true },
	[IRQG_ROOT] = { "Recorded trees", false },
};

static const struct rtm_cmd_opts irq_cmd = {
	.command = "irq",
	.usage = "usage: rtmeasure irq [options]\n\n"
		"Interrupt and softirq rates per CPU from /proc, refreshed each interval, with\n"
		"the handler times from trace events (--trace); or the IRQ affinity list.\n",
	.groups = irq_groups,
	.ngroups = sizeof(irq_groups) / sizeof(irq_groups[0]),
	.tables = { irq_opt_table },
};

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

/* ---------------------------------------------------------------- affinity */

/* -a: every CPU must have a column in /proc/interrupts (be online), as cyclic checks it. */
static int check_cpus(const struct irq_opts *o, const struct rtm_irq_snap *s,
		      struct rtm_error *err)
{
	struct rtm_cpulist have = { s->ncpus, s->cpus };
	char list[256];
	int i;

	for (i = 0; i < o->cpus.n; i++) {
		if (!rtm_cpulist_has(&have, o->cpus.cpus[i])) {
			rtm_cpulist_format(&have, list, sizeof(list));
			return rtm_error_set(err, "CPU %d is not online (CPUs in /proc/interrupts: "
					     "%s); pick others with -a", o->cpus.cpus[i], list);
		}
	}
	return 0;
}

static int show_affinity(const struct irq_opts *o)
{
	struct rtm_error err = { "" };
	struct rtm_irq_threads th = { 0, NULL };
	struct rtm_cpulist iso;
	struct rtm_irq_snap s;
	char isol[256], smp[256], eff[256], node[16];
	json_t *arr = NULL;
	int i, k, flagged = 0;

	memset(&s, 0, sizeof(s));
	if (rtm_irq_snap_read(o->root, &s, &err) || check_cpus(o, &s, &err) ||
	    rtm_irq_snap_read_affinity(&s, o->root, &err)) {
		rtm_irq_snap_release(&s);
		return rtm_cli_fail("irq: %s", err.msg);
	}
	rtm_irq_threads_read(o->root, &th, NULL);	/* none on most stock kernels */
	rtm_sysinfo_isolated_cpus(o->root, &iso);
	rtm_cpulist_format(&iso, isol, sizeof(isol));
	if (o->json)
		arr = json_array();
	else
		printf("%-5s %-14s %-14s %-4s %-26s %s\n", "IRQ", "affinity", "effective", "node",
		       "IRQ thread", "actions");
	for (i = 0; i < s.nrows; i++) {
		const struct rtm_irq_row *r = &s.rows[i];
		const struct rtm_irq_affinity *a = r->aff;
		const char *flag = "";
		char thr[64] = "-";

		if (r->irq < 0)
			continue;
		smp[0] = eff[0] = '\0';
		if (a && a->has_smp)
			rtm_cpulist_format(&a->smp, smp, sizeof(smp));
		if (a && a->has_effective)
			rtm_cpulist_format(&a->effective, eff, sizeof(eff));
		switch (rtm_irq_isolation_of(a, &iso)) {
		case RTM_IRQ_ISO_LANDS:
			flag = "LANDS ON ISOLATED CPUS";
			break;
		case RTM_IRQ_ISO_MAY:
			flag = "may land on isolated CPUs";
			break;
		default:
			break;
		}
		flagged += *flag != '\0';
		for (k = 0; k < th.n; k++)
			if (th.t[k].irq == r->irq && !th.t[k].secondary) {
				snprintf(thr, sizeof(thr), "pid %d %s %d", th.t[k].pid,
					 th.t[k].policy_known ? rtm_policy_name(th.t[k].policy) : "?",
					 th.t[k].rt_priority);
				break;
			}
		if (arr) {
			json_array_append_new(arr, json_pack("{s:i, s:s, s:s, s:s, s:i, s:s, s:s}",
				"irq", r->irq, "actions", r->actions ? r->actions : "",
				"affinity", smp, "effective_affinity", eff,
				"node", a ? a->node : -1, "thread", thr, "isolated", flag));
			continue;
		}
		snprintf(node, sizeof(node), "%d", a ? a->node : -1);
		printf("%-5d %-14s %-14s %-4s %-26s %s%s%s\n", r->irq, smp[0] ? smp : "?",
		       eff[0] ? eff : "?", a && a->node >= 0 ? node : "-", thr,
		       r->actions && *r->actions ? r->actions : (r->desc ? r->desc : ""),
		       *flag ? "  <- " : "", flag);
	}
	if (arr) {
		json_t *doc = json_pack("{s:s, s:o}", "isolated_cpus", isol, "irqs", arr);

		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
	} else if (iso.n) {
		printf("\nisolated CPUs %s: %d IRQ%s may land on them%s\n", isol, flagged,
		       flagged == 1 ? "" : "s", flagged ? " (set /proc/irq/N/smp_affinity_list, "
		       "or boot with irqaffinity=)" : "");
	} else {
		printf("\nno isolated CPUs (isolcpus=, nohz_full=) on this box\n");
	}
	rtm_cpulist_release(&iso);
	rtm_irq_threads_release(&th);
	rtm_irq_snap_release(&s);
	return RTM_EXIT_OK;
}

/* ---------------------------------------------------------------- rates */

struct screen {
	bool tty;
	const char *clear;
};

static void screen_init(struct screen *sc, bool json)
{
	int err;

	memset(sc, 0, sizeof(*sc));
	if (json || !isatty(STDOUT_FILENO) || setupterm(NULL, STDOUT_FILENO, &err) != OK)
		return;
	sc->clear = tigetstr("clear");
	sc->tty = sc->clear && sc->clear != (char *)-1;
}

static int put_char(int c)
{
	return putchar(c);
}

/* One table: the top rows of the interval @d, handler times from @a (may be NULL). */
static void print_table(const struct irq_opts *o, const struct screen *sc,
			const struct rtm_irq_snap *d, const struct rtm_irqacct *a,
			double elapsed_s, uint64_t lost)
{
	const struct rtm_cpulist *sel = o->cpus.n ? &o->cpus : NULL;
	bool rates = d->interval_ns > 0;
	int idx[256], n, i, k, ncols = 0, cols[8];
	double secs = rates ? (double)d->interval_ns / 1e9 : 1;
	char cpus[256] = "all", lat[16], mx[16];
	uint64_t total = 0;

	if (sel)
		rtm_cpulist_format(sel, cpus, sizeof(cpus));
	for (k = 0; k < d->ncpus && ncols < 8; k++)
		if (!sel || rtm_cpulist_has(sel, d->cpus[k]))
			cols[ncols++] = k;
	if (d->ncpus > 8 && !sel)
		ncols = 0;	/* too many CPUs for columns: totals only */
	for (i = 0; i < d->nrows; i++)
		total += rtm_irq_count_on(d, &d->rows[i], sel);
	if (sc->tty)
		tputs(sc->clear, 1, put_char);
	if (rates && elapsed_s <= 0)
		printf("-- average since boot (%.0f s)   CPUs %s   %.0f interrupts/s\n", secs, cpus,
		       (double)total / secs);
	else if (rates)
		printf("-- %.1f s   CPUs %s   %.0f interrupts/s%s\n", elapsed_s, cpus,
		       (double)total / secs, lost ? "   (trace events lost: raise the buffer)" : "");
	else
		printf("-- counts since boot   CPUs %s   %llu interrupts\n", cpus,
		       (unsigned long long)total);
	printf("%-6s %10s", "IRQ", rates ? "per s" : "count");
	for (k = 0; k < ncols; k++)
		printf(" %6s%-3d", "CPU", d->cpus[cols[k]]);
	if (a)
		printf(" %9s %9s %6s", "avg", "max", "cpu%");
	printf("  %s\n", "description");
	n = rtm_irq_top(d, sel, o->top < 256 ? o->top : 256, idx);
	for (i = 0; i < n; i++) {
		const struct rtm_irq_row *r = &d->rows[idx[i]];
		uint64_t c = rtm_irq_count_on(d, r, sel);

		if (!c)
			break;
		printf("%-6s %10.*f", r->name, rates ? 1 : 0, (double)c / secs);
		for (k = 0; k < ncols; k++)
			printf(" %9.*f", rates ? 1 : 0,
			       r->percpu ? (double)r->counts[cols[k]] / secs : 0.0);
		if (a) {
			struct rtm_irqacct_cpu h;

			rtm_irqacct_row_total(a, r->name, r->irq, sel, &h);
			if (h.count) {
				rtm_fmt_ns(lat, sizeof(lat), h.total_ns / h.count);
				rtm_fmt_ns(mx, sizeof(mx), h.max_ns);
				printf(" %9s %9s %5.2f%%", lat, mx, 100.0 * (double)h.total_ns /
				       ((double)d->interval_ns * (sel ? sel->n : d->ncpus)));
			} else {
				printf(" %9s %9s %6s", "-", "-", "-");
			}
		}
		printf("  %s\n", r->actions && *r->actions ? r->actions : (r->desc ? r->desc : ""));
	}
	if (d->has_softirqs) {
		printf("softirqs per %s:", rates ? "s" : "boot");
		for (i = 0; i < d->nsoft; i++) {
			uint64_t c = 0;

			for (k = 0; k < d->nsoft_cpus; k++)
				if (!sel || rtm_cpulist_has(sel, d->soft_cpus[k]))
					c += d->soft[i].counts[k];
			if (c)
				printf(" %s %.0f", d->soft[i].name, (double)c / secs);
		}
		putchar('\n');
	}
	if (a) {
		const struct rtm_irqsrc *src;
		int ns;

		src = rtm_irqacct_sources(a, &ns);
		printf("handler time:");
		for (i = 0; i < ns; i++) {
			struct rtm_irqacct_cpu t;

			if (src[i].kind != RTM_IRQSRC_SOFTIRQ && src[i].kind != RTM_IRQSRC_THREAD)
				continue;
			rtm_irqsrc_total(&src[i], rtm_irqacct_ncpus(a), sel, &t);
			if (!t.count)
				continue;
			rtm_fmt_ns(lat, sizeof(lat), t.total_ns);
			rtm_fmt_ns(mx, sizeof(mx), t.max_ns);
			printf(" %s%s %s (max %s)", src[i].kind == RTM_IRQSRC_SOFTIRQ ? "softirq " : "",
			       src[i].name, lat, mx);
		}
		putchar('\n');
	}
	fflush(stdout);
}

struct feed {
	struct rtm_irqacct *iv, *all;	/* this interval, the whole run */
};

static int feed_both(const struct rtm_event *ev, void *ctx)
{
	struct feed *f = ctx;
	int ret = rtm_irqacct_event(ev, f->iv);

	return ret ? ret : rtm_irqacct_event(ev, f->all);
}

static int measure_rates(const struct irq_opts *o)
{
	struct rtm_error err = { "" };
	struct rtm_irq_snap first, prev, cur, d;	/* prev: the last one read, once there is */
	bool have_prev = false;
	struct rtm_trace *t = NULL;
	struct feed feed = { NULL, NULL };
	uint64_t start, next, lost = 0, l;
	struct screen sc;
	int ncpus = (int)sysconf(_SC_NPROCESSORS_CONF), status = RTM_EXIT_OK;
	char cpus[1024];

	memset(&first, 0, sizeof(first));
	memset(&prev, 0, sizeof(prev));
	if (o->trace) {
		struct rtm_trace_opts to = { .events = "irq,nmi,sched:sched_switch",
					     .buffer_kb = 4096, .overwrite = false };

		if (o->cpus.n) {
			rtm_cpulist_format(&o->cpus, cpus, sizeof(cpus));
			to.cpus = cpus;
		}
		feed.iv = rtm_irqacct_alloc(ncpus);
		feed.all = rtm_irqacct_alloc(ncpus);
		t = feed.iv && feed.all ? rtm_trace_create(&to, &err) : NULL;
		if (!t) {
			rtm_irqacct_free(feed.iv);
			rtm_irqacct_free(feed.all);
			return rtm_cli_fail("irq: %s", err.msg[0] ? err.msg : "out of memory");
		}
		rtm_cli_trace_note(t);
		rtm_trace_start(t);
	}
	screen_init(&sc, o->json);
	/* the counts start with the trace */
	start = mono_ns();
	if (rtm_irq_snap_read(o->root, &first, &err) || check_cpus(o, &first, &err)) {
		rtm_trace_destroy(t);
		rtm_irqacct_free(feed.iv);
		rtm_irqacct_free(feed.all);
		rtm_irq_snap_release(&first);
		return rtm_cli_fail("irq: %s", err.msg);
	}
	for (next = start + o->interval_ns; !rtm_cli_stopping(); next += o->interval_ns) {
		bool last = o->once || (o->duration_ns && next - start >= o->duration_ns);

		sleep_until(next);
		memset(&cur, 0, sizeof(cur));
		memset(&d, 0, sizeof(d));
		if (rtm_irq_snap_read(o->root, &cur, &err) ||
		    rtm_irq_delta(have_prev ? &prev : &first, &cur, &d, &err)) {
			rtm_irq_snap_release(&cur);
			status = rtm_cli_fail("irq: %s", err.msg);
			break;
		}
		if (t && last)
			rtm_trace_stop(t);	/* the trace ends with the counts */
		if (t) {
			rtm_irqacct_reset(feed.iv);
			l = 0;
			if (rtm_trace_read(t, feed_both, &feed, &l, &err) < 0) {
				rtm_irq_snap_release(&cur);
				rtm_irq_snap_release(&d);
				status = rtm_cli_fail("irq: %s", err.msg);
				break;
			}
			lost += l;
		}
		if (!o->json)
			print_table(o, &sc, &d, feed.iv, (double)(mono_ns() - start) / 1e9,
				    t ? lost + rtm_trace_dropped(t) : 0);
		rtm_irq_snap_release(&d);
		if (have_prev)
			rtm_irq_snap_release(&prev);
		prev = cur;
		have_prev = true;
		if (last)
			break;
	}
	if (t) {
		rtm_trace_stop(t);
		lost += rtm_trace_dropped(t);
		rtm_trace_destroy(t);
	}
	if (o->json && status == RTM_EXIT_OK) {
		memset(&d, 0, sizeof(d));
		if (rtm_irq_delta(&first, have_prev ? &prev : &first, &d, &err) == 0) {
			json_t *doc = json_pack("{s:o}", "interrupts", rtm_irq_delta_to_json(&d, false));

			if (feed.all) {
				json_object_set_new(doc, "handlers", rtm_irqacct_to_json(feed.all));
				json_object_set_new(doc, "trace_lost", json_integer((json_int_t)lost));
			}
			json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			putchar('\n');
			json_decref(doc);
			rtm_irq_snap_release(&d);
		} else {
			status = rtm_cli_fail("irq: %s", err.msg);
		}
	}
	rtm_irqacct_free(feed.iv);
	rtm_irqacct_free(feed.all);
	if (have_prev)
		rtm_irq_snap_release(&prev);
	rtm_irq_snap_release(&first);
	return status;
}

/* A recorded tree has no interval: one table of the counts since boot. */
static int show_counts(const struct irq_opts *o)
{
	struct rtm_error err = { "" };
	struct rtm_irq_snap s, d;
	struct screen sc = { false, NULL };

	memset(&s, 0, sizeof(s));
	memset(&d, 0, sizeof(d));
	if (rtm_irq_snap_read(o->root, &s, &err) || check_cpus(o, &s, &err) ||
	    rtm_irq_delta(NULL, &s, &d, &err)) {
		rtm_irq_snap_release(&s);
		return rtm_cli_fail("irq: %s", err.msg);
	}
	if (o->json) {
		json_t *doc = json_pack("{s:o}", "interrupts", rtm_irq_delta_to_json(&d, false));

		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
	} else {
		print_table(o, &sc, &d, NULL, 0, 0);
	}
	rtm_irq_snap_release(&d);
	rtm_irq_snap_release(&s);
	return RTM_EXIT_OK;
}

/* The options with a value into @o; 0 or RTM_EXIT_USAGE after the message. */
static int irq_value(struct irq_opts *o, int c, const char *arg)
{
	struct rtm_error err = { "" };
	char *end;

	switch (c) {
	case 'i':
		if (rtm_parse_duration_ns(arg, &o->interval_ns, &err) ||
		    o->interval_ns < 10000000ULL)
			return rtm_cli_fail("irq: -i/--interval: %s", err.msg[0] ? err.msg :
					    "at least 10ms");
		o->interval_set = true;
		return 0;
	case 'D':
		if (rtm_parse_duration_ns(arg, &o->duration_ns, &err))
			return rtm_cli_fail("irq: -D/--duration: %s", err.msg);
		return 0;
	case 'a':
		rtm_cpulist_release(&o->cpus);
		if (rtm_cpulist_parse(arg, &o->cpus, &err) || !o->cpus.n)
			return rtm_cli_fail("irq: -a/--cpus: %s", err.msg[0] ? err.msg :
					    "empty CPU list");
		return 0;
	case 'n':
		errno = 0;
		o->top = (int)strtol(arg, &end, 10);
		if (errno || *end || o->top < 1 || o->top > 256)
			return rtm_cli_fail("irq: -n/--top '%s': give 1 to 256", arg);
		return 0;
	case IRQ_OPT_ROOT:
		o->root = arg;
		return 0;
	}
	return 0;
}

/* Options that do not go together; 0 or RTM_EXIT_USAGE after the message. */
static int irq_check(const struct irq_opts *o)
{
	const char *other;

	if (strcmp(o->root, "/") && o->trace)
		return rtm_cli_fail("irq: --trace reads this kernel's events; it does not go with "
				    "--root");
	if (!o->accounting)
		return 0;
	other = o->affinity ? "--affinity" : o->trace ? "--trace" : o->once ? "--once" :
		o->interval_set ? "-i/--interval" : strcmp(o->root, "/") ? "--root" : NULL;
	if (other)
		return rtm_cli_fail("irq: --accounting does not go with %s (it traces this "
				    "kernel and prints one table at the end; use -D and -a)",
				    other);
	return 0;
}

/* argv into @o; 0 or RTM_EXIT_USAGE after the one-line message. */
static int irq_parse(int argc, char **argv, struct irq_opts *o)
{
	struct rtm_getopt g;
	int c, ret = 0;

	if (rtm_opts_getopt(&irq_cmd, &g))
		return rtm_cli_fail("irq: bad option table");
	optind = 1;
	opterr = 0;
	while (!ret && !o->help && (c = getopt_long(argc, argv, g.shortopts, g.longopts,
						      NULL)) != -1) {
		if (c == IRQ_OPT_TRACE)
			o->trace = true;
		else if (c == IRQ_OPT_ONCE)
			o->once = true;
		else if (c == IRQ_OPT_JSON)
			o->json = true;
		else if (c == IRQ_OPT_AFFINITY)
			o->affinity = true;
		else if (c == IRQ_OPT_ACCOUNTING)
			o->accounting = true;
		else if (c == RTM_OPT_HELP || c == RTM_OPT_HELP_ALL)
			o->help = c;
		else if (c == 'i' || c == 'D' || c == 'a' || c == 'n' || c == IRQ_OPT_ROOT)
			ret = irq_value(o, c, optarg);
		else
			ret = rtm_cli_bad_option("irq", g.shortopts, g.longopts, argv);
	}
	if (ret || o->help)
		return ret;
	if (optind < argc)
		return rtm_cli_fail("irq: unexpected argument '%s' (rtmeasure irq --help)",
				    argv[optind]);
	return irq_check(o);
}

int cmd_irq(int argc, char **argv)
{
	struct irq_opts o = { .interval_ns = 1000000000ULL, .top = 10, .root = "/" };
	int ret;

	ret = irq_parse(argc, argv, &o);
	if (o.help)
		rtm_opts_help(&irq_cmd, stdout, o.help == RTM_OPT_HELP_ALL);
	if (ret || o.help) {
		rtm_cpulist_release(&o.cpus);
		return ret;
	}
	if (o.accounting) {
		/* one table of the whole run, from this kernel's trace */
		struct irq_acct_opts ao = { o.duration_ns, &o.cpus, o.top, o.json };

		ret = irq_accounting(&ao);
	} else if (o.affinity) {
		ret = show_affinity(&o);
	} else if (strcmp(o.root, "/")) {
		ret = show_counts(&o);
	} else {
		ret = measure_rates(&o);
	}
	rtm_cpulist_release(&o.cpus);
	return ret;
}
