// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plot.c - gnuplot as a child process, fed a template on its standard input.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "plot.h"

#ifndef RTM_PKGDATADIR
#define RTM_PKGDATADIR "/usr/local/share/rtmeasure"
#endif
#ifndef RTM_SRCDIR
#define RTM_SRCDIR "."
#endif

extern char **environ;

const char *rtm_plot_format_ext(enum rtm_plot_format f)
{
	switch (f) {
	case RTM_PLOT_PNG:	return "png";
	case RTM_PLOT_SVG:	return "svg";
	case RTM_PLOT_PDF:	return "pdf";
	}
	return "?";
}

int rtm_plot_formats_parse(const char *list, unsigned int *mask, struct rtm_error *err)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int ret = 0;

	if (!copy)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	*mask = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "png"))
			*mask |= 1u << RTM_PLOT_PNG;
		else if (!strcmp(tok, "svg"))
			*mask |= 1u << RTM_PLOT_SVG;
		else if (!strcmp(tok, "pdf"))
			*mask |= 1u << RTM_PLOT_PDF;
		else {
			ret = rtm_error_set(err, "unknown plot format '%s' (use png, svg or pdf, "
					    "comma separated)", tok);
			break;
		}
	}
	free(copy);
	if (!ret && !*mask)
		ret = rtm_error_set(err, "no plot format given (use png, svg or pdf)");
	return ret;
}

const char *rtm_plot_template_dir(struct rtm_error *err)
{
	static const char *const dirs[] = { RTM_PKGDATADIR "/plots", RTM_SRCDIR "/plots" };
	const char *env = getenv("RTMEASURE_PLOTS");
	char probe[PATH_MAX];
	size_t i;

	if (env && *env)
		return env;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(probe, sizeof(probe), "%s/histogram.gp", dirs[i]);
		if (access(probe, R_OK) == 0)
			return dirs[i];
	}
	rtm_error_set(err, "the plot templates are not installed (%s/plots); set RTMEASURE_PLOTS "
		      "to the source tree's plots/ folder", RTM_PKGDATADIR);
	return NULL;
}

/*
 * A gnuplot string literal: single quotes, '' for a quote; text of several
 * lines (a title) in double quotes, where \\, \" and \n are the only escapes
 * written. A carriage return is refused.
 */
static int put_string(FILE *f, const char *s)
{
	if (strchr(s, '\r'))
		return -EINVAL;
	if (strchr(s, '\n')) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '\n') {
				fputs("\\n", f);
				continue;
			}
			if (*s == '"' || *s == '\\')
				fputc('\\', f);
			fputc(*s, f);
		}
		fputc('"', f);
		return 0;
	}
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r')
			return -EINVAL;
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
	return 0;
}

static bool is_number(const char *s)
{
	char *end;

	if (!*s)
		return false;
	strtod(s, &end);
	return !*end;
}

static bool is_ident(const char *s)
{
	if (!*s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
	       strlen(s);
}

/* The whole script: terminal, output, variables, then the template. */
static char *build_script(const char *tmpl, enum rtm_plot_format fmt, int w, int h,
			  const char *out, const struct rtm_plot_var *vars, int nvars,
			  size_t *len, struct rtm_error *err)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	int i, bad = 0;

	if (!f) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	switch (fmt) {
	case RTM_PLOT_PNG:
		fprintf(f, "set terminal pngcairo size %d,%d font 'DejaVu Sans,10' noenhanced\n",
			w, h);
		break;
	case RTM_PLOT_SVG:
		fprintf(f, "set terminal svg size %d,%d font 'DejaVu Sans,10' noenhanced "
			"background rgb 'white'\n", w, h);
		break;
	case RTM_PLOT_PDF:
		fprintf(f, "set terminal pdfcairo size %.2fin,%.2fin font 'DejaVu Sans,8' "
			"noenhanced\n", w / 100.0, h / 100.0);
		break;
	}
	fputs("set output ", f);
	bad |= put_string(f, out);
	fputc('\n', f);
	for (i = 0; i < nvars && !bad; i++) {
		if (!is_ident(vars[i].name) || (vars[i].number && !is_number(vars[i].value))) {
			bad = 1;
			break;
		}
		fprintf(f, "%s = ", vars[i].name);
		if (vars[i].number)
			fputs(vars[i].value, f);
		else
			bad |= put_string(f, vars[i].value);
		fputc('\n', f);
	}
	fputs(tmpl, f);
	fputs("\nset output\n", f);
	fclose(f);
	if (bad) {
		free(text);
		rtm_error_set(err, "plot parameter %d is not valid for gnuplot", i);
		return NULL;
	}
	return text;
}

/* Feed @script to gnuplot; its first line on stderr becomes the message. */
static int run_gnuplot(const char *script, size_t len, const char *name, struct rtm_error *err)
{
	char *argv[] = { "gnuplot", NULL };
	posix_spawn_file_actions_t fa;
	int in[2], errp[2], status, ret;
	char msg[512] = "";
	size_t got = 0, off = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(in, O_CLOEXEC) < 0)
		return rtm_error_setn(err, -errno, "cannot make a pipe: %s", strerror(errno));
	if (pipe2(errp, O_CLOEXEC) < 0) {
		close(in[0]);
		close(in[1]);
		return rtm_error_setn(err, -errno, "cannot make a pipe: %s", strerror(errno));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, errp[1], STDERR_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	ret = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(errp[1]);
	if (ret) {
		close(in[1]);
		close(errp[0]);
		if (ret == ENOENT)
			return rtm_error_setn(err, -ENOENT, "gnuplot is not installed (apt-get install "
					      "gnuplot-nox)");
		return rtm_error_setn(err, -ret, "cannot run gnuplot: %s", strerror(ret));
	}
	/* a gnuplot that dies early must not kill us with SIGPIPE */
	{
		struct sigaction ign = { .sa_handler = SIG_IGN }, old;

		sigaction(SIGPIPE, &ign, &old);
		while (off < len) {
			n = write(in[1], script + off, len - off);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			off += (size_t)n;
		}
		close(in[1]);
		sigaction(SIGPIPE, &old, NULL);
	}
	while ((n = read(errp[0], msg + got, sizeof(msg) - 1 - got)) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			got += (size_t)n;
	msg[got] = '\0';
	close(errp[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && off == len)
		return 0;
	{
		/* gnuplot's error is the last non-empty line it printed */
		char *line = msg, *p, *last = NULL;

		for (p = strtok_r(msg, "\n", &line); p; p = strtok_r(NULL, "\n", &line))
			if (*rtm_strstrip(p))
				last = rtm_strstrip(p);
		return rtm_error_setn(err, -EIO, "gnuplot failed drawing %s: %s", name,
				      last ? last : "no message");
	}
}

int rtm_plot_check(struct rtm_error *err)
{
	/* an empty script: gnuplot starts, reads nothing and exits 0 */
	if (!rtm_plot_template_dir(err))
		return -ENOENT;
	return run_gnuplot("", 0, "nothing", err);
}

int rtm_plot_draw(const char *template_dir, const char *name, enum rtm_plot_format fmt,
		  int width, int height, const char *out, const struct rtm_plot_var *vars,
		  int nvars, struct rtm_error *err)
{
	char path[PATH_MAX];
	char *tmpl, *script;
	size_t len;
	int ret;

	if (snprintf(path, sizeof(path), "%s/%s.gp", template_dir, name) >= (int)sizeof(path))
		return rtm_error_setn(err, -ENAMETOOLONG, "template path too long");
	tmpl = rtm_read_all("/", path, NULL);
	if (!tmpl)
		return rtm_error_setn(err, -ENOENT, "cannot read plot template %s: %s", path,
				      strerror(errno));
	script = build_script(tmpl, fmt, width, height, out, vars, nvars, &len, err);
	free(tmpl);
	if (!script)
		return -EINVAL;
	ret = run_gnuplot(script, len, name, err);
	free(script);
	if (ret)
		unlink(out);	/* no half-written image */
	return ret;
}

int rtm_plot_draw_formats(const char *tmpl, unsigned int formats, int width, int height,
			  const char *dir, const char *name, const struct rtm_plot_var *vars,
			  int nvars, struct rtm_error *err)
{
	const char *tdir = rtm_plot_template_dir(err);
	char out[PATH_MAX];
	int f, ret;

	if (!tdir)
		return -ENOENT;
	for (f = RTM_PLOT_PNG; f <= RTM_PLOT_PDF; f++) {
		if (!(formats & (1u << f)))
			continue;
		if (snprintf(out, sizeof(out), "%s/%s.%s", dir, name,
			     rtm_plot_format_ext((enum rtm_plot_format)f)) >= (int)sizeof(out))
			return rtm_error_setn(err, -ENAMETOOLONG, "plot path too long");
		ret = rtm_plot_draw(tdir, tmpl, (enum rtm_plot_format)f, width, height, out, vars,
				    nvars, err);
		if (ret)
			return ret;
	}
	return 0;
}
