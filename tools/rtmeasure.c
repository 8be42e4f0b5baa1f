// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtmeasure.c - the command: dispatch to one subcommand per file.
 *
 * Argument parsing and wiring only; every measurement lives in lib/.
 */
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "config.h"
#include "rtmeasure.h"
#include "tracefs/instance.h"

static const struct rtm_command commands[] = {
	{ "run", cmd_run, "the main job: check the box, measure latency on every CPU, save", true },
	{ "cyclic", cmd_cyclic, "cyclictest-style timer wake-up latency probe", true },
	/* issue 16: the userspace noise detector; hwlat is its other name */
	{ "noise", cmd_noise, "OS and hardware noise: time stolen from busy CPUs, per CPU", true },
	{ "hwlat", cmd_noise, "the same as noise (hwlatdetect users' name)", true },
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
	{ "irq", cmd_irq, "interrupt and softirq rates per CPU, handler times, affinity", true },
	{ "guard", cmd_guard,
	  "watchdog for runaway real-time tasks: name them, demote or stop them", true },
	{ "sysinfo", cmd_sysinfo,
	  "RT-readiness checklist of this box (or a recorded tree)", false },
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

static bool short_has(const char *shortopts, int c)
{
	return c > 0 && c < 256 && c != ':' && strchr(shortopts, c);
}

int rtm_cli_bad_option(const char *cmd, const char *shortopts, const struct option *longopts,
		       char **argv)
{
	const char *el = optind > 0 ? argv[optind - 1] : "", *eq;
	const struct option *o, *hit = NULL;
	char name[64], cands[160] = "";
	size_t nlen;
	int nhits = 0;

	/* a short option: unknown (optopt is no option's value), or its value is missing */
	if (optopt > 0 && optopt < 256 && strncmp(el, "--", 2) != 0) {
		if (short_has(shortopts, optopt))
			return rtm_cli_fail("%s: option -%c needs a value (rtmeasure %s --help)", cmd,
					    optopt, cmd);
		return rtm_cli_fail("%s: unknown option -%c (rtmeasure %s --help)", cmd, optopt,
				    cmd);
	}
	if (optopt > 0 && optopt < 256 && !short_has(shortopts, optopt)) {
		/* el is "--name...": is it the long option of that value, or not ours at all? */
		bool ours = false;

		for (o = longopts; o->name; o++)
			ours |= o->val == optopt;
		if (!ours)
			return rtm_cli_fail("%s: unknown option -%c (rtmeasure %s --help)", cmd,
					    optopt, cmd);
	}
	/* a long option: the whole argument was taken, so it is argv[optind - 1] */
	if (strncmp(el, "--", 2) != 0)
		return rtm_cli_fail("%s: unknown option '%s' (rtmeasure %s --help)", cmd, el, cmd);
	el += 2;
	eq = strchr(el, '=');
	nlen = eq ? (size_t)(eq - el) : strlen(el);
	snprintf(name, sizeof(name), "%.*s", (int)(nlen < 60 ? nlen : 60), el);
	for (o = longopts; o->name; o++) {
		if (strncmp(o->name, el, nlen))
			continue;
		if (strlen(o->name) == nlen) {	/* exact */
			hit = o;
			nhits = 1;
			break;
		}
		if (!hit || hit->val != o->val || hit->has_arg != o->has_arg) {
			if (nhits < 4)
				snprintf(cands + strlen(cands), sizeof(cands) - strlen(cands),
					 "%s--%s", nhits ? ", " : "", o->name);
			nhits++;
		}
		hit = o;
	}
	if (!nhits)
		return rtm_cli_fail("%s: unknown option --%s (rtmeasure %s --help)", cmd, name, cmd);
	if (nhits > 1)
		return rtm_cli_fail("%s: option --%s is ambiguous (%s%s)", cmd, name, cands,
				    nhits > 4 ? ", ..." : "");
	if (eq && hit->has_arg == no_argument)
		return rtm_cli_fail("%s: option --%s takes no value (rtmeasure %s --help)", cmd,
				    hit->name, cmd);
	return rtm_cli_fail("%s: option --%s needs a value (rtmeasure %s --help)", cmd, hit->name,
			    cmd);
}

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

bool rtm_cli_stopping(void)
{
	return stop_signal != 0;
}

const volatile sig_atomic_t *rtm_cli_stop_flag(void)
{
	return &stop_signal;
}

void rtm_cli_trace_note(const struct rtm_trace *t)
{
	const char *names = t ? rtm_trace_stale_removed(t) : "";

	if (*names)
		fprintf(stderr, "rtmeasure: removed stale trace instances of a killed rtmeasure: "
			"%s\n", names);
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
		"error,\n130/143/129 a measuring command stopped by SIGINT/SIGTERM/SIGHUP (what it "
		"measured\nis saved).\nSee rtmeasure(1) and rtmeasure-<command>(1).\n");
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

				return commands[i].run(2, args);
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
		status = commands[i].run(argc - 1, argv + 1);
		/* stopped by a signal and saved: 130 (SIGINT), 143 (SIGTERM), 129 (SIGHUP) */
		if (stop_signal && status != RTM_EXIT_USAGE)
			status = RTM_EXIT_SIGNAL(stop_signal);
		return status;
	}
	return rtm_cli_fail("unknown command '%s' (rtmeasure --help lists them)", name);
}
