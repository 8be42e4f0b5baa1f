/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtmeasure.h - the command's table of subcommands (rtmeasure.c) and their
 * entry points (cmd_*.c). What they share lives in lib/cli/cli.h.
 */
#ifndef RTM_TOOL_H
#define RTM_TOOL_H

#include <signal.h>
#include <stdbool.h>

struct rtm_cli;

struct rtm_command {
	const char *name;
	int (*run)(int argc, char **argv, const struct rtm_cli *cli);
	const char *summary;
	bool stops;		/* ends cleanly on SIGINT/SIGTERM/SIGHUP (rtm_cli_catch_stop) */
};

/*
 * SIGINT, SIGTERM and SIGHUP set the stop flag (and end a sleep) instead of
 * killing the command, so what was measured is saved; the commands see the
 * flag as rtm_cli.stop. main() installs the handler before anything else for
 * the commands that measure (a signal in their first moments is never lost),
 * once. SIGINT is caught even when the command started with it ignored (a
 * background job of a script): kill -INT stops a run and saves it. SIGHUP
 * started ignored (nohup) stays ignored.
 */
void rtm_cli_catch_stop(void);

int cmd_sysinfo(int argc, char **argv, const struct rtm_cli *cli);
int cmd_cyclic(int argc, char **argv, const struct rtm_cli *cli);
int cmd_run(int argc, char **argv, const struct rtm_cli *cli);
int cmd_noise(int argc, char **argv, const struct rtm_cli *cli);
int cmd_analyze(int argc, char **argv, const struct rtm_cli *cli);
int cmd_irq(int argc, char **argv, const struct rtm_cli *cli);
int cmd_guard(int argc, char **argv, const struct rtm_cli *cli);
int cmd_report(int argc, char **argv, const struct rtm_cli *cli);
int cmd_monitor(int argc, char **argv, const struct rtm_cli *cli);
int cmd_compare(int argc, char **argv, const struct rtm_cli *cli);
int cmd_import(int argc, char **argv, const struct rtm_cli *cli);
int cmd_export(int argc, char **argv, const struct rtm_cli *cli);
int cmd_io(int argc, char **argv, const struct rtm_cli *cli);
int cmd_wakeup(int argc, char **argv, const struct rtm_cli *cli);

#endif
