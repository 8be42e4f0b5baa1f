// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtmeasure.c - the command: dispatch to one subcommand per file.
 *
 * Argument parsing and wiring only; every measurement lives in lib/.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "config.h"
#include "rtmeasure.h"

static const struct rtm_command commands[] = {
	{ "run", cmd_run, "the main job: check the box, measure latency on every CPU, save" },
	{ "cyclic", cmd_cyclic, "cyclictest-style timer wake-up latency probe" },
	{ "analyze", cmd_analyze, "explain saved latency spikes from their trace events" },
	{ "monitor", cmd_monitor, "live dashboard: latency per CPU, interrupts, spikes and their causes" },
	{ "report", cmd_report, "plots and an HTML/Markdown report of a results folder (gnuplot)" },
	{ "compare", cmd_compare, "runs side by side: ratios, confidence intervals, verdicts, plots" },
	{ "import", cmd_import, "cyclictest, oslat and rtla output as results folders" },
	{ "export", cmd_export, "a results folder as cyclictest --json JSON or CSV" },
	{ "irq", cmd_irq, "interrupt and softirq rates per CPU, handler times, affinity" },
	{ "sysinfo", cmd_sysinfo, "RT-readiness checklist of this box (or a recorded tree)" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

int rtm_cli_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("rtmeasure: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return RTM_EXIT_USAGE;
}

/* The command's only global: set by SIGINT, SIGTERM and SIGHUP. */
static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

void rtm_cli_catch_stop(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;	/* no SA_RESTART: sleeps end at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

bool rtm_cli_stopping(void)
{
	return stop_requested;
}

bool rtm_cli_colour(int fd)
{
	const char *term = getenv("TERM");

	return isatty(fd) && !getenv("NO_COLOR") && term && strcmp(term, "dumb") != 0;
}

int rtm_cli_width(int fd)
{
	struct winsize ws;

	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 100;
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
		"error.\nSee rtmeasure(1) and rtmeasure-<command>(1).\n");
}

int main(int argc, char **argv)
{
	const char *name;
	unsigned int i;

	if (argc < 2) {
		usage(stderr);
		return RTM_EXIT_USAGE;
	}
	name = argv[1];
	if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
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

				return commands[i].run(2, args);
			}
		}
		return rtm_cli_fail("unknown command '%s' (rtmeasure --help lists them)", name);
	}
	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	return rtm_cli_fail("unknown command '%s' (rtmeasure --help lists them)", name);
}
