// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_irq.c - rtmeasure irq: which interrupts land on which CPUs, how often,
 * and (with --trace) how long their handlers run.
 *
 * Options and wiring only: the rates and handler times come from
 * lib/irq/watch.c (snapshots of /proc/interrupts, /proc/softirqs and /proc/stat,
 * and a streaming trace instance drained every interval), --accounting's
 * figures from lib/irq/charged_run.c; lib/present/irq_print.c prints them.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>
#include <term.h>

#include "box/sysinfo.h"
#include "cli/cli.h"
#include "cli/opts.h"
#include "core/clock.h"
#include "core/units.h"
#include "irq/charged.h"
#include "irq/irq.h"
#include "irq/watch.h"
#include "present/irq_print.h"
#include "rtmeasure.h"

struct irq_opts {
	uint64_t interval_ns;
	uint64_t duration_ns;		/* 0: until interrupted */
	struct rtm_cpulist cpus;	/* n == 0: all */
	bool trace, json, once, affinity;
	bool accounting, interval_set;	/* --accounting, -i given */
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


static void sleep_until(uint64_t t_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(t_ns / 1000000000ULL),
			       .tv_nsec = (long)(t_ns % 1000000000ULL) };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);	/* EINTR: a signal */
}

static void print_json(json_t *doc)
{
	json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(doc);
}

static int show_affinity(const struct irq_opts *o)
{
	struct rtm_error err = { "" };
	struct rtm_irq_threads th = { 0, NULL };
	struct rtm_cpulist iso;
	struct rtm_irq_snap s;

	memset(&s, 0, sizeof(s));
	if (rtm_irq_snap_read(o->root, &s, &err) || rtm_irq_check_cpus(&s, &o->cpus, &err) ||
	    rtm_irq_snap_read_affinity(&s, o->root, &err)) {
		rtm_irq_snap_release(&s);
		return rtm_cli_fail("irq: %s", err.msg);
	}
	rtm_irq_threads_read(o->root, &th, NULL);	/* none on most stock kernels */
	rtm_sysinfo_isolated_cpus(o->root, &iso);
	if (o->json)
		print_json(rtm_irq_affinity_to_json(&s, &th, &iso));
	else
		rtm_irq_affinity_print(stdout, &s, &th, &iso);
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

/* One table on stdout, on a cleared terminal screen. */
static void show_table(const struct irq_opts *o, const struct screen *sc,
		       const struct rtm_irq_snap *d, const struct rtm_irqacct *a,
		       double elapsed_s, uint64_t lost)
{
	if (sc->tty)
		tputs(sc->clear, 1, put_char);
	rtm_irq_table_print(stdout, d, a, o->cpus.n ? &o->cpus : NULL, o->top, elapsed_s, lost);
	fflush(stdout);
}

/* A table every interval until the end (-D, --once) or a stop signal; --json at the end. */
static int measure_rates(const struct irq_opts *o, const volatile sig_atomic_t *stop)
{
	struct rtm_error err = { "" };
	struct rtm_irq_watch w;
	struct rtm_irq_snap d;
	struct screen sc;
	uint64_t next;
	int status = RTM_EXIT_OK;

	if (rtm_irq_watch_open(&w, o->root, o->cpus.n ? &o->cpus : NULL, o->trace, &err))
		return rtm_cli_fail("irq: %s", err.msg);
	rtm_cli_trace_note(w.trace);
	screen_init(&sc, o->json);
	if (rtm_irq_watch_start(&w, &err)) {
		rtm_irq_watch_release(&w);
		return rtm_cli_fail("irq: %s", err.msg);
	}
	for (next = w.start_ns + o->interval_ns; !*stop; next += o->interval_ns) {
		bool last = o->once || (o->duration_ns && next - w.start_ns >= o->duration_ns);

		sleep_until(next);
		if (rtm_irq_watch_step(&w, last, &d, &err)) {
			status = rtm_cli_fail("irq: %s", err.msg);
			break;
		}
		if (!o->json)
			show_table(o, &sc, &d, w.iv,
				   (double)(rtm_clock_ns(CLOCK_MONOTONIC) - w.start_ns) / 1e9,
				   rtm_irq_watch_lost(&w));
		rtm_irq_snap_release(&d);
		if (last)
			break;
	}
	rtm_irq_watch_stop(&w);
	if (o->json && status == RTM_EXIT_OK) {
		json_t *doc = rtm_irq_watch_to_json(&w, &err);

		if (doc)
			print_json(doc);
		else
			status = rtm_cli_fail("irq: %s", err.msg);
	}
	rtm_irq_watch_release(&w);
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
	if (rtm_irq_snap_read(o->root, &s, &err) || rtm_irq_check_cpus(&s, &o->cpus, &err) ||
	    rtm_irq_delta(NULL, &s, &d, &err)) {
		rtm_irq_snap_release(&s);
		return rtm_cli_fail("irq: %s", err.msg);
	}
	if (o->json)
		print_json(json_pack("{s:o}", "interrupts", rtm_irq_delta_to_json(&d, false)));
	else
		show_table(o, &sc, &d, NULL, 0, 0);
	rtm_irq_snap_release(&d);
	rtm_irq_snap_release(&s);
	return RTM_EXIT_OK;
}

/* ---------------------------------------------------------------- accounting */

/* --accounting: one table of the whole run, from this kernel's trace. */
static int show_accounting(const struct irq_opts *o, const volatile sig_atomic_t *stop)
{
	struct rtm_error err = { "" };
	struct rtm_charged_run run;
	int status = RTM_EXIT_OK;

	if (rtm_charged_run_open(&run, &o->cpus, &err))
		return rtm_cli_fail("irq: %s", err.msg);
	rtm_cli_trace_note(run.trace);
	if (rtm_charged_run_measure(&run, o->duration_ns, stop, &err)) {
		status = rtm_cli_fail("irq: %s", err.msg);
	} else {
		if (o->json)
			print_json(rtm_charged_run_to_json(&run));
		else
			rtm_charged_run_print(stdout, &run, o->top);
		fflush(stdout);
	}
	rtm_charged_run_release(&run);
	return status;
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

static int irq_run(const struct irq_opts *o, const volatile sig_atomic_t *stop)
{
	if (o->accounting)
		return show_accounting(o, stop);
	if (o->affinity)
		return show_affinity(o);
	if (strcmp(o->root, "/"))
		return show_counts(o);	/* a recorded tree */
	return measure_rates(o, stop);
}

int cmd_irq(int argc, char **argv, const struct rtm_cli *cli)
{
	struct irq_opts o = { .interval_ns = 1000000000ULL, .top = 10, .root = "/" };
	int ret = irq_parse(argc, argv, &o);

	if (o.help)
		rtm_opts_help(&irq_cmd, stdout, o.help == RTM_OPT_HELP_ALL);
	else if (!ret)
		ret = irq_run(&o, cli->stop);
	rtm_cpulist_release(&o.cpus);
	return ret;
}
