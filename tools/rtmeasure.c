// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtmeasure.c - the command: dispatch to one subcommand per file.
 *
 * Argument parsing and wiring only; every measurement lives in lib/.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cli/cli.h"
#include "rtmeasure.h"

static const struct rtm_command commands[] = {
	{ "run", cmd_run, "the main job: check the box, measure latency on every CPU, save", true },
	{ "cyclic", cmd_cyclic, "cyclictest-style timer wake-up latency probe", true },
	/* the userspace noise detector; hwlat is its other name */
	{ "noise", cmd_noise, "OS and hardware noise: time stolen from busy CPUs, per CPU", true },
	{ "hwlat", cmd_noise, "noise with hwlatdetect's options, units and summary", true },
	{ "io", cmd_io, "storage deadline probe: O_DIRECT requests at planned times, misses", true },
	{ "analyze", cmd_analyze, "explain saved latency spikes from their trace events", false },
	{ "monitor", cmd_monitor,
	  "live dashboard: latency per CPU, interrupts, spikes and their causes", true },
	{ "report", cmd_report,
	  "plots and an HTML/Markdown report of a results folder (gnuplot)", false },
	{ "compare", cmd_compare,
	  "runs side by side: ratios, confidence intervals, verdicts, plots", false },
	{ "import", cmd_import, "cyclictest, oslat and rtla output as results folders", false },
	{ "export", cmd_export,
	  "a results folder as cyclictest --json JSON, CSV or Prometheus metrics", false },
	{ "wakeup", cmd_wakeup,
	  "wake-up latency of the box's own real-time tasks, in the kernel (BPF)", true },
	{ "irq", cmd_irq, "interrupt and softirq rates per CPU, handler times, affinity", true },
	{ "guard", cmd_guard,
	  "watchdog for runaway real-time tasks: name them, demote or stop them", true },
	{ "sysinfo", cmd_sysinfo,
	  "RT-readiness checklist of this box (or a recorded tree)", false },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* The command's only global: the first of SIGINT, SIGTERM and SIGHUP received. */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
}

void rtm_cli_catch_stop(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;	/* no SA_RESTART: sleeps end at once */
	sigemptyset(&sa.sa_mask);
	/* even when started ignored: a script's kill -INT must stop and save a run */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* nohup's promise is kept: a run started with SIGHUP ignored survives a hang-up */
	if (sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return;
	sigaction(SIGHUP, &sa, NULL);
}

/* --help or --help-all among the command's options: it prints and changes nothing */
static bool asks_help(int argc, char **argv)
{
	int i;

	for (i = 2; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "--help-all"))
			return true;
	return false;
}

static void usage(FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: rtmeasure <command> [options]\n"
		"       rtmeasure <command> --help\n\n"
		"Real-time latency measurement and tracing toolkit.\n\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nDurations: 30s, 5m, 2h (plain number: seconds). Latencies: 20us, 1.5ms, "
		"800ns\n(plain number: microseconds). CPU lists: 0-3,6.\n"
		"Exit status: 0 ok, 1 a --fail-above bound exceeded, 2 usage or environment "
		"error,\n130/143/129 a measuring command stopped by SIGINT/SIGTERM/SIGHUP (what it "
		"measured\nis saved).\nSee rtmeasure(1) and rtmeasure-<command>(1).\n");
}

int main(int argc, char **argv)
{
	const struct rtm_cli cli = { .stop = &stop_signal };
	const char *name;
	unsigned int i;

	if (argc < 2) {
		usage(stderr);
		return RTM_EXIT_USAGE;
	}
	name = argv[1];
	if (!strcmp(name, "-h"))	/* -h is cyclictest's histogram option everywhere */
		return rtm_cli_fail("-h is the histogram option of cyclic, run and monitor; help is "
				    "rtmeasure --help");
	if (!strcmp(name, "--help")) {
		usage(stdout);
		return RTM_EXIT_OK;
	}
	if (!strcmp(name, "-V") || !strcmp(name, "--version")) {
		printf("rtmeasure %s\n", PACKAGE_VERSION);
		return RTM_EXIT_OK;
	}
	if (!strcmp(name, "help")) {
		if (argc < 3) {
			usage(stdout);
			return RTM_EXIT_OK;
		}
		name = argv[2];
		for (i = 0; i < NCOMMANDS; i++) {
			if (!strcmp(name, commands[i].name)) {
				char *args[] = { argv[2], "--help", NULL };

				return commands[i].run(2, args, &cli);
			}
		}
		return rtm_cli_fail("unknown command '%s' (rtmeasure --help lists them)", name);
	}
	for (i = 0; i < NCOMMANDS; i++) {
		int status;

		if (strcmp(name, commands[i].name))
			continue;
		if (commands[i].stops)
			rtm_cli_catch_stop();	/* first: nothing slow has happened yet */
		if (commands[i].stops && !asks_help(argc, argv)) {
			rtm_cli_clean_leftovers();	/* before the journal: instances first */
			rtm_cli_restore_ktracer();
		}
		status = commands[i].run(argc - 1, argv + 1, &cli);
		/* stopped by a signal and saved: 130 (SIGINT), 143 (SIGTERM), 129 (SIGHUP) */
		if (stop_signal && status != RTM_EXIT_USAGE)
			status = RTM_EXIT_SIGNAL(stop_signal);
		return status;
	}
	return rtm_cli_fail("unknown command '%s' (rtmeasure --help lists them)", name);
}
