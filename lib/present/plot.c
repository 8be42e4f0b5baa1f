// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * plot.c - gnuplot as a child process, fed a template on its standard input.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/grow.h"
#include "core/fileio.h"
#include "present/plot.h"

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

/* One "name = value" line per variable; the index of the first bad one, or -1. */
static int put_vars(FILE *f, const struct rtm_plot_var *vars, int nvars)
{
	int i;

	for (i = 0; i < nvars; i++) {
		if (!is_ident(vars[i].name) || (vars[i].number && !is_number(vars[i].value)))
			return i;
		fprintf(f, "%s = ", vars[i].name);
		if (vars[i].number)
			fputs(vars[i].value, f);
		else if (put_string(f, vars[i].value))
			return i;
		fputc('\n', f);
	}
	return -1;
}

/* The whole script: terminal, output, variables, then the template. */
static char *build_script(const char *tmpl, enum rtm_plot_format fmt, int w, int h,
			  const struct rtm_plot_var *vars, int nvars,
			  size_t *len, struct rtm_error *err)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	int bad;

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
	/* gnuplot writes the image to its stdout, a pipe: it never opens a file by name */
	fputs("set output\n", f);
	bad = put_vars(f, vars, nvars);
	fputs(tmpl, f);
	fputs("\nset output\n", f);
	fclose(f);
	if (bad >= 0) {
		free(text);
		rtm_error_set(err, "plot parameter %d is not valid for gnuplot", bad);
		return NULL;
	}
	return text;
}

/*
 * The colours of the lines. CPU 0-7 as the plots always had them (matplotlib's
 * tab10 without grey and olive), CPU 8-15 the lighter shade of the same hue;
 * the all-CPUs line black. A comparison's runs take ColorBrewer's Dark2, which
 * no CPU has.
 */
const char *rtm_plot_cpu_colour(int cpu)
{
	static const char *const cpus[16] = {
		"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
		"#17becf", "#aec7e8", "#ff9896", "#98df8a", "#c5b0d5", "#ffbb78", "#c49c94",
		"#f7b6d2", "#9edae5",
	};

	if (cpu < 0)
		return "#000000";
	return cpus[cpu % 16];
}

const char *rtm_plot_run_colour(int run)
{
	static const char *const runs[8] = {
		"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d",
		"#666666",
	};

	return runs[(run < 0 ? 0 : run) % 8];
}

int rtm_plot_list_add(char *list, size_t len, const char *word)
{
	size_t used = strlen(list);
	int n = snprintf(list + used, len - used, "%s%s", used ? " " : "", word);

	if (n < 0 || (size_t)n >= len - used) {
		list[used] = '\0';
		return -ENOSPC;
	}
	return 0;
}

int rtm_plot_script_write(const char *tmpl, const char *out, const struct rtm_plot_var *vars,
			  int nvars, struct rtm_error *err)
{
	const char *tdir = rtm_plot_template_dir(err);
	char path[PATH_MAX];
	char *text, *script = NULL;
	size_t len = 0;
	FILE *f;
	int bad, ret;

	if (!tdir)
		return -ENOENT;
	if (snprintf(path, sizeof(path), "%s/%s.gp", tdir, tmpl) >= (int)sizeof(path))
		return rtm_error_setn(err, -ENAMETOOLONG, "template path too long");
	text = rtm_read_all("/", path, NULL);
	if (!text)
		return rtm_error_setn(err, -ENOENT, "cannot read plot template %s: %s", path,
				      strerror(errno));
	f = open_memstream(&script, &len);
	if (!f) {
		free(text);
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	}
	fprintf(f, "# The variables and template %s.gp a plot was drawn with; redraw it with\n"
		"#   gnuplot -e \"set terminal pngcairo size 1000,560\" THIS.gp > PLOT.png\n",
		tmpl);
	bad = put_vars(f, vars, nvars);
	fputs(text, f);
	fclose(f);
	free(text);
	if (bad >= 0) {
		free(script);
		return rtm_error_setn(err, -EINVAL, "plot parameter %d is not valid for gnuplot",
				      bad);
	}
	ret = rtm_write_atomic(out, script, len);
	free(script);
	if (ret)
		return rtm_error_setn(err, ret, "cannot write %s: %s", out, rtm_write_strerror(ret));
	return 0;
}

/* Append what @fd has to *@buf; 0 at EOF, 1 for more, -errno. */
static int drain(int fd, char **buf, size_t *len, size_t *cap, size_t max)
{
	char *nb;
	ssize_t n;

	if (*cap - *len < 65536 && *cap >= max)
		return -EFBIG;
	nb = rtm_grow(*buf, cap, *len + 65535, 1, 131072);	/* 64 KiB free */
	if (!nb)
		return -ENOMEM;
	*buf = nb;
	n = read(fd, *buf + *len, *cap - *len - 1);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -errno;
	*len += (size_t)n;
	(*buf)[*len] = '\0';
	return n > 0;
}

/* gnuplot as a child: our ends of its stdin, stdout and stderr, and what they hold */
struct gp_child {
	pid_t pid;
	int in, out, err;
	bool in_open, out_open, err_open;
	size_t off;			/* how much of the script gnuplot has read */
	char *obuf, *ebuf;		/* what it wrote to stdout and stderr */
	size_t olen, ocap, elen, ecap;
};

/* Start gnuplot with its stdin, stdout and stderr on pipes to @c. */
static int spawn_gnuplot(struct gp_child *c, struct rtm_error *err)
{
	char *argv[] = { "gnuplot", NULL };
	posix_spawn_file_actions_t fa;
	int in[2], out[2], errp[2], ret;

	if (pipe2(in, O_CLOEXEC) < 0)
		return rtm_error_setn(err, -errno, "cannot make a pipe: %s", strerror(errno));
	if (pipe2(out, O_CLOEXEC) < 0) {
		ret = -errno;
		close(in[0]);
		close(in[1]);
		return rtm_error_setn(err, ret, "cannot make a pipe: %s", strerror(-ret));
	}
	if (pipe2(errp, O_CLOEXEC) < 0) {
		ret = -errno;
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return rtm_error_setn(err, ret, "cannot make a pipe: %s", strerror(-ret));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, errp[1], STDERR_FILENO);
	ret = posix_spawnp(&c->pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(out[1]);
	close(errp[1]);
	if (ret) {
		close(in[1]);
		close(out[0]);
		close(errp[0]);
		if (ret == ENOENT)
			return rtm_error_setn(err, -ENOENT, "gnuplot is not installed (apt-get install "
					      "gnuplot-nox)");
		return rtm_error_setn(err, -ret, "cannot run gnuplot: %s", strerror(ret));
	}
	c->in = in[1];
	c->out = out[0];
	c->err = errp[0];
	c->in_open = c->out_open = c->err_open = true;
	return 0;
}

/* Read what one of gnuplot's outputs has; closes it at EOF. 0 or -errno. */
static int serve_output(int fd, bool *open, char **buf, size_t *len, size_t *cap, size_t max)
{
	int ret = drain(fd, buf, len, cap, max);

	if (ret < 0)
		return ret;
	if (!ret) {
		close(fd);
		*open = false;
	}
	return 0;
}

/*
 * Write @script to gnuplot's stdin while reading its stdout and stderr, until
 * all three are closed. 0 or -errno.
 */
static int serve_gnuplot(struct gp_child *c, const char *script, size_t len)
{
	int rc = 0, ret;
	ssize_t n;

	while ((c->in_open || c->out_open || c->err_open) && !rc) {
		struct pollfd pf[3] = { { c->in_open ? c->in : -1, POLLOUT, 0 },
					{ c->out_open ? c->out : -1, POLLIN, 0 },
					{ c->err_open ? c->err : -1, POLLIN, 0 } };

		if (poll(pf, 3, -1) < 0) {
			if (errno != EINTR)
				rc = -errno;
			continue;
		}
		if (c->in_open && pf[0].revents) {
			n = write(c->in, script + c->off, len - c->off);
			if (n > 0)
				c->off += (size_t)n;
			if ((n < 0 && errno != EINTR && errno != EAGAIN) || c->off == len) {
				close(c->in);
				c->in_open = false;
			}
		}
		if (c->out_open && pf[1].revents) {
			ret = serve_output(c->out, &c->out_open, &c->obuf, &c->olen, &c->ocap,
					   (size_t)1 << 30);
			if (ret)
				rc = ret;
		}
		if (c->err_open && pf[2].revents) {
			ret = serve_output(c->err, &c->err_open, &c->ebuf, &c->elen, &c->ecap,
					   (size_t)1 << 24);
			if (ret)
				rc = ret;
		}
	}
	return rc;
}

/* gnuplot's error is the last non-empty line it printed on stderr (@ebuf, cut here). */
static int gnuplot_failed(char *ebuf, const char *name, struct rtm_error *err)
{
	char *line = NULL, *p, *last = NULL;

	for (p = ebuf ? strtok_r(ebuf, "\n", &line) : NULL; p; p = strtok_r(NULL, "\n", &line))
		if (*rtm_strstrip(p))
			last = rtm_strstrip(p);
	return rtm_error_setn(err, -EIO, "gnuplot failed drawing %s: %s", name,
			      last ? last : "no message");
}

/*
 * Feed @script to gnuplot; its last line on stderr becomes the message. The
 * image gnuplot writes to its stdout is returned in @img (NULL: discarded).
 * stdin, stdout and stderr are served together, so a large image or script
 * never blocks either side.
 */
static int run_gnuplot(const char *script, size_t len, const char *name, char **img,
		       size_t *img_len, struct rtm_error *err)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	struct gp_child c = { 0 };
	int status, ret, rc;

	ret = spawn_gnuplot(&c, err);
	if (ret)
		return ret;
	fcntl(c.in, F_SETFL, O_NONBLOCK);
	if (!len) {
		close(c.in);
		c.in_open = false;
	}
	/* a gnuplot that dies early must not kill us with SIGPIPE */
	sigaction(SIGPIPE, &ign, &old);
	rc = serve_gnuplot(&c, script, len);
	sigaction(SIGPIPE, &old, NULL);
	if (c.in_open)
		close(c.in);
	if (c.out_open)
		close(c.out);
	if (c.err_open)
		close(c.err);
	while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc) {
		free(c.obuf);
		free(c.ebuf);
		return rtm_error_setn(err, rc, "cannot read gnuplot's output drawing %s: %s", name,
				      strerror(-rc));
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && c.off == len) {
		free(c.ebuf);
		if (img) {
			*img = c.obuf;
			*img_len = c.olen;
		} else {
			free(c.obuf);
		}
		return 0;
	}
	free(c.obuf);
	ret = gnuplot_failed(c.ebuf, name, err);
	free(c.ebuf);
	return ret;
}

/*
 * Is @buf a whole image of format @fmt? gnuplot exits 0 even when its output
 * was cut short, so the end is checked: PNG's IEND chunk, SVG's </svg>, PDF's
 * %%EOF.
 */
bool rtm_plot_image_whole(enum rtm_plot_format fmt, const char *buf, size_t len)
{
	static const unsigned char png_sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	static const unsigned char png_end[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D',
						   0xae, 0x42, 0x60, 0x82 };
	size_t n = len, from;

	switch (fmt) {
	case RTM_PLOT_PNG:
		return len >= 20 && !memcmp(buf, png_sig, 8) &&
		       !memcmp(buf + len - 12, png_end, 12);
	case RTM_PLOT_SVG:
		while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' ||
			     buf[n - 1] == '\t'))
			n--;
		return n >= 6 && !memcmp(buf + n - 6, "</svg>", 6) && memmem(buf, n, "<svg", 4);
	case RTM_PLOT_PDF:
		from = len > 1024 ? len - 1024 : 0;
		return len > 5 && !memcmp(buf, "%PDF-", 5) &&
		       memmem(buf + from, len - from, "%%EOF", 5) != NULL;
	}
	return false;
}

int rtm_plot_check(struct rtm_error *err)
{
	/* an empty script: gnuplot starts, reads nothing and exits 0 */
	if (!rtm_plot_template_dir(err))
		return -ENOENT;
	return run_gnuplot("", 0, "nothing", NULL, NULL, err);
}

int rtm_plot_draw(const char *template_dir, const char *name, enum rtm_plot_format fmt,
		  int width, int height, const char *out, const struct rtm_plot_var *vars,
		  int nvars, struct rtm_error *err)
{
	char path[PATH_MAX];
	char *tmpl, *script, *img = NULL;
	size_t len, img_len = 0;
	int ret;

	if (snprintf(path, sizeof(path), "%s/%s.gp", template_dir, name) >= (int)sizeof(path))
		return rtm_error_setn(err, -ENAMETOOLONG, "template path too long");
	tmpl = rtm_read_all("/", path, NULL);
	if (!tmpl)
		return rtm_error_setn(err, -ENOENT, "cannot read plot template %s: %s", path,
				      strerror(errno));
	script = build_script(tmpl, fmt, width, height, vars, nvars, &len, err);
	free(tmpl);
	if (!script)
		return -EINVAL;
	ret = run_gnuplot(script, len, name, &img, &img_len, err);
	free(script);
	if (ret)
		return ret;
	/* nothing partial is ever written: the image is whole or not saved */
	if (!rtm_plot_image_whole(fmt, img, img_len))
		ret = rtm_error_setn(err, -EIO, "gnuplot's %s image of %s is incomplete (%zu "
				     "bytes): not saved", rtm_plot_format_ext(fmt), name, img_len);
	else if ((ret = rtm_write_atomic(out, img, img_len)))
		rtm_error_setn(err, ret, "cannot write %s: %s", out, rtm_write_strerror(ret));
	free(img);
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

int rtm_plot_draw_kept(const char *tmpl, unsigned int formats, int width, int height,
		       const char *dir, const char *name, const struct rtm_plot_var *vars,
		       int nvars, struct rtm_error *err)
{
	char script[PATH_MAX];
	int ret;

	if (snprintf(script, sizeof(script), "%s/data/%s.gp", dir, name) >= (int)sizeof(script))
		return rtm_error_setn(err, -ENAMETOOLONG, "plot path too long");
	ret = rtm_plot_script_write(tmpl, script, vars, nvars, err);
	if (ret)
		return ret;
	return rtm_plot_draw_formats(tmpl, formats, width, height, dir, name, vars, nvars, err);
}
