/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtmeasure.h - shared declarations of the command's subcommands.
 */
#ifndef RTM_TOOL_H
#define RTM_TOOL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* Exit statuses, as documented in rtmeasure(1). */
#define RTM_EXIT_OK		0
#define RTM_EXIT_BOUND		1	/* a --fail-above bound was exceeded */
#define RTM_EXIT_USAGE		2	/* usage or environment error */

struct rtm_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	bool stops;		/* ends cleanly on SIGINT/SIGTERM/SIGHUP (rtm_cli_catch_stop) */
};

/* Print "rtmeasure: <message>" on stderr; returns RTM_EXIT_USAGE. */
int rtm_cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * SIGINT, SIGTERM and SIGHUP set a stop flag (and end a sleep) instead of
 * killing the command, so what was measured is saved. main() installs the
 * handler before anything else for the commands that measure (a signal in
 * their first moments is never lost), once. SIGINT is caught even when the
 * command started with it ignored (a background job of a script): kill -INT
 * stops a run and saves it. SIGHUP started ignored (nohup) stays ignored.
 */
void rtm_cli_catch_stop(void);
bool rtm_cli_stopping(void);
/* The stop flag itself, for a session to poll (struct rtm_session_opts.stop). */
const volatile sig_atomic_t *rtm_cli_stop_flag(void);

/* Exit status of a run that a signal stopped, as shells give: 128 + signal. */
#define RTM_EXIT_SIGNAL(sig)	(128 + (sig))

struct rtm_trace;

/* One line on stderr naming the stale trace instances @t's creation removed. */
void rtm_cli_trace_note(const struct rtm_trace *t);

struct option;

/*
 * The one-line error for what getopt_long() refused ('?' or ':' with opterr 0):
 * names the option itself (-x, --name), whether it is unknown, ambiguous,
 * needs a value or takes none, even inside a group like -mSx. Returns
 * RTM_EXIT_USAGE.
 */
int rtm_cli_bad_option(const char *cmd, const char *shortopts, const struct option *longopts,
		       char **argv);

/* Colour only on a terminal, and never when NO_COLOR is set. */
bool rtm_cli_colour(int fd);

/* Terminal width of @fd; 100 when it is not a terminal (files, pipes). */
int rtm_cli_width(int fd);

int cmd_sysinfo(int argc, char **argv);
int cmd_cyclic(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_noise(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_irq(int argc, char **argv);
int cmd_guard(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);

/* A results folder or a result.json path: the folder and the file to load. */
int rtm_cli_result_path(const char *arg, char *dir, size_t dlen, char *file, size_t flen);

/*
 * -o OUT of report and compare, before any work: absent (made later) or a
 * folder; a symbolic link only with --follow (@follow). 0, or RTM_EXIT_USAGE
 * after the one-line message.
 */
int rtm_cli_check_outdir(const char *cmd, const char *out, bool follow);

#endif
