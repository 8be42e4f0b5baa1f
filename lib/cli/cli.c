// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli.c - what the subcommands share: the one-line errors (and the one for an
 * option getopt_long() refused), the terminal's colour and width, result
 * paths, the -o folder check, and the kernel tracer settings a killed run
 * left to put back.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/fileio.h"
#include "core/stage.h"
#include "core/tmpdir.h"
#include "core/runlock.h"
#include "probe/ktracer.h"
#include "tracefs/instance.h"

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

void rtm_cli_clean_leftovers(void)
{
	char inst[256], dirs[512];

	if (rtm_trace_remove_stale(inst, sizeof(inst)))
		fprintf(stderr, "rtmeasure: removed stale trace instances of a killed rtmeasure: "
			"%s\n", inst);
	if (rtm_tmpdir_remove_stale(dirs, sizeof(dirs)))
		fprintf(stderr, "rtmeasure: removed temporary folders of a killed rtmeasure: %s\n",
			dirs);
}

void rtm_cli_trace_note(const struct rtm_trace *t)
{
	rtm_trace_stale_note(t, stderr);
}

static void ktjournal_note(bool warning, const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "rtmeasure: %s%s\n", warning ? "warning: " : "", msg);
}

void rtm_cli_restore_ktracer(void)
{
	struct rtm_error err = { "" };
	char removed[256];
	const char *dir;

	/* the usual case, nothing waits: tracefs is not even looked for */
	if (!rtm_ktjournal_pending())
		return;
	dir = rtm_trace_find_tracefs(&err);
	if (!dir) {
		fprintf(stderr, "rtmeasure: warning: cannot restore the kernel tracer settings a "
			"killed rtmeasure changed (its journal is in %s): %s\n", rtm_runlock_dir(),
			err.msg);
		return;
	}
	/* a tracer still running in a killed run's instance would undo the restore */
	if (rtm_trace_remove_stale(removed, sizeof(removed)) > 0)
		fprintf(stderr, "rtmeasure: removed stale trace instances of a killed rtmeasure: "
			"%s\n", removed);
	rtm_ktjournal_recover(dir, ktjournal_note, NULL);
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

int rtm_cli_outdir_named(const char *cmd, const char *out)
{
	if (strcmp(out, "-"))
		return 0;
	return rtm_cli_fail("%s: -o -: a folder of results cannot go to standard output (give "
			    "a folder name, or ./- for a folder named '-')", cmd);
}

int rtm_cli_check_outdir(const char *cmd, const char *out, bool follow)
{
	int fd;

	if (rtm_cli_outdir_named(cmd, out))
		return RTM_EXIT_USAGE;
	fd = rtm_dir_open(out, follow ? RTM_OUT_FOLLOW : 0);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (fd == -ENOENT)
		return 0;	/* created when the report is written */
	if (fd == -ELOOP)
		return rtm_cli_fail("%s: -o %s is a symbolic link (give --follow to write where "
				    "it points)", cmd, out);
	if (fd == -ENOTDIR)
		return rtm_cli_fail("%s: -o %s exists and is not a folder (give a folder name)",
				    cmd, out);
	return rtm_cli_fail("%s: -o %s: %s", cmd, out, rtm_write_strerror(fd));
}

void rtm_cli_clean_stages(const char *cmd, const char *out)
{
	char names[256];
	int n = rtm_stage_remove_stale(out, names, sizeof(names));

	if (n > 0)
		fprintf(stderr, "rtmeasure %s: removed %s of a killed report or compare in %s: "
			"%s\n", cmd, n > 1 ? "the staging folders" : "the staging folder", out,
			names);
}

/* A results folder or its result.json: the folder and the file. */
int rtm_cli_result_path(const char *arg, char *dir, size_t dlen, char *file, size_t flen)
{
	struct stat st;
	const char *slash;

	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(dir, dlen, "%s", arg);
		snprintf(file, flen, "%s/result.json", arg);
		return 0;
	}
	snprintf(file, flen, "%s", arg);
	slash = strrchr(arg, '/');
	if (slash)
		snprintf(dir, dlen, "%.*s", (int)(slash - arg), arg);
	else
		snprintf(dir, dlen, ".");
	return 0;
}
