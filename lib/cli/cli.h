/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - what every subcommand of the command shares: exit statuses, the
 * one-line errors, the terminal's colour and width, result paths, and what
 * main() hands each command (struct rtm_cli).
 *
 * The top layer of lib/: it may print (on stderr) because it speaks for the
 * command, but it keeps no state; the stop flag stays main()'s.
 */
#ifndef RTM_CLI_H
#define RTM_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* Exit statuses, as documented in rtmeasure(1). */
#define RTM_EXIT_OK		0
#define RTM_EXIT_BOUND		1	/* a --fail-above bound was exceeded */
#define RTM_EXIT_USAGE		2	/* usage or environment error */

/* Exit status of a run that a signal stopped, as shells give: 128 + signal. */
#define RTM_EXIT_SIGNAL(sig)	(128 + (sig))

/*
 * What main() hands every command. @stop is the command's stop flag: set
 * (non-zero) by SIGINT, SIGTERM or SIGHUP for the commands that measure, so
 * they end their loop and save what they measured; never set for the others.
 */
struct rtm_cli {
	const volatile sig_atomic_t *stop;
};

/* Print "rtmeasure: <message>" on stderr; returns RTM_EXIT_USAGE. */
int rtm_cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct option;

/*
 * The one-line error for what getopt_long() refused ('?' or ':' with opterr 0):
 * names the option itself (-x, --name), whether it is unknown, ambiguous,
 * needs a value or takes none, even inside a group like -mSx. Returns
 * RTM_EXIT_USAGE.
 */
int rtm_cli_bad_option(const char *cmd, const char *shortopts, const struct option *longopts,
		       char **argv);

struct rtm_trace;

/* One line on stderr naming the stale trace instances @t's creation removed. */
void rtm_cli_trace_note(const struct rtm_trace *t);

/*
 * What a killed rtmeasure left and could not remove itself (its trace
 * instances, its temporary folders in $TMPDIR), removed before a measuring
 * command starts, with one line on stderr for each kind found. What belongs
 * to a live run is told by its lock and left alone.
 */
void rtm_cli_clean_leftovers(void);

/*
 * Before a measuring command: the kernel tracers' global settings that a
 * killed rtmeasure changed (its journal in the lock directory) are put back,
 * the killed run's trace instances removed first, each said in one line on
 * stderr; a journal that cannot be applied gets a one-line warning.
 */
void rtm_cli_restore_ktracer(void);

/* Colour only on a terminal, and never when NO_COLOR is set. */
bool rtm_cli_colour(int fd);

/* Terminal width of @fd; 100 when it is not a terminal (files, pipes). */
int rtm_cli_width(int fd);

/* A results folder or a result.json path: the folder and the file to load. */
int rtm_cli_result_path(const char *arg, char *dir, size_t dlen, char *file, size_t flen);

/*
 * -o OUT of report and compare, before any work: absent (made later) or a
 * folder; a symbolic link only with --follow (@follow). 0, or RTM_EXIT_USAGE
 * after the one-line message.
 */
int rtm_cli_check_outdir(const char *cmd, const char *out, bool follow);

/*
 * Before report or compare write into @out: the staging folders a killed
 * report or compare left there (core/stage.h) removed, said in one line on
 * stderr; a stage a live one writes is locked and left alone.
 */
void rtm_cli_clean_stages(const char *cmd, const char *out);

/*
 * -o DIR of a command that writes a folder: "-" is refused (a folder of several
 * files cannot go to standard output; ./- names a folder called "-"). 0, or
 * RTM_EXIT_USAGE after the one-line message.
 */
int rtm_cli_outdir_named(const char *cmd, const char *out);

#endif
