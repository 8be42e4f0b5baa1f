/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot.h - draw plots with the real gnuplot binary from templates in plots/.
 *
 * A template (plots/NAME.gp) is a gnuplot script that reads its data files and
 * parameters from variables. rtm_plot_draw() sets the terminal, the output and
 * the variables, appends the template and feeds the whole script to a gnuplot
 * child process on its standard input: no shell, nothing of the user's built
 * into a command line. A missing gnuplot, or one that fails, is an error with a
 * one-line message naming the package or gnuplot's own complaint.
 */
#ifndef RTM_PLOT_H
#define RTM_PLOT_H

#include <stdbool.h>

#include "core/error.h"

/* Output formats: each is one gnuplot terminal. */
enum rtm_plot_format { RTM_PLOT_PNG, RTM_PLOT_SVG, RTM_PLOT_PDF };

const char *rtm_plot_format_ext(enum rtm_plot_format f);	/* "png", "svg", "pdf" */
/* "png,svg" -> a bit mask of (1 << format); -EINVAL with a message on other names. */
int rtm_plot_formats_parse(const char *list, unsigned int *mask, struct rtm_error *err);

struct rtm_plot_var {
	const char *name;		/* a gnuplot identifier */
	const char *value;
	bool number;			/* put as it is (checked to be a number), else quoted */
};

/**
 * rtm_plot_template_dir - the folder of the NAME.gp templates
 *
 * $RTMEASURE_PLOTS if set, else the installed copy (PKGDATADIR/plots), else
 * the source tree's (for running from the build tree). NULL with a message.
 */
const char *rtm_plot_template_dir(struct rtm_error *err);

/*
 * rtm_plot_check - gnuplot can be run and the templates are there; checked
 * before anything is written, so a report either happens or leaves nothing.
 */
int rtm_plot_check(struct rtm_error *err);

/**
 * rtm_plot_draw - run one template
 * @name: the template ("histogram" for plots/histogram.gp)
 * @width, @height: pixels (png, svg); pdf gets the same aspect at 100 px/inch
 * @out: the image file to write
 *
 * gnuplot writes the image to a pipe; it is saved (rtm_write_atomic()) only
 * when whole (rtm_plot_image_whole()), so no partial image is ever left.
 * Returns 0, or -ENOENT (no gnuplot, no template) / -EIO (gnuplot failed or
 * its image is cut short) / a write error, nothing written, with a one-line
 * message in @err.
 */
int rtm_plot_draw(const char *template_dir, const char *name, enum rtm_plot_format fmt,
		  int width, int height, const char *out, const struct rtm_plot_var *vars,
		  int nvars, struct rtm_error *err);

/*
 * Line colours. A colour stands for one CPU in every plot: CPU N has the same
 * colour in the histogram, the percentile and timer-IRQ plots, the time series
 * and the noise histogram; the all-CPUs line has its own (black). The lines of
 * a comparison are runs, not CPUs: they take colours of their own, none of them
 * a CPU's, so a colour never means CPU 0 in one plot and a run in another.
 * Each is "#rrggbb". CPUs 16 apart share a colour (CPU 8-15 are lighter shades
 * of CPU 0-7's); a plot names every line in its key.
 */
#define RTM_PLOT_ALL_CPUS (-1)
const char *rtm_plot_cpu_colour(int cpu);	/* RTM_PLOT_ALL_CPUS: the all-CPUs line */
const char *rtm_plot_run_colour(int run);	/* a comparison's run 0, 1, ... */
/*
 * Append @word to @list, a space-separated list the templates read with
 * gnuplot's word(list, i) ("colours", "dashes"); -ENOSPC when it does not fit.
 */
int rtm_plot_list_add(char *list, size_t len, const char *word);

/* A whole image: PNG ending in its IEND chunk, SVG in </svg>, PDF with %%EOF. */
bool rtm_plot_image_whole(enum rtm_plot_format fmt, const char *buf, size_t len);

/**
 * rtm_plot_draw_formats - run template @tmpl once per format in @formats
 *
 * Writes @dir/@name.png, .svg, .pdf for the bits (1 << format) set in @formats,
 * with the templates found by rtm_plot_template_dir(). 0 or as rtm_plot_draw().
 */
int rtm_plot_draw_formats(const char *tmpl, unsigned int formats, int width, int height,
			  const char *dir, const char *name, const struct rtm_plot_var *vars,
			  int nvars, struct rtm_error *err);

/**
 * rtm_plot_script_write - save the script a plot was drawn with
 * @tmpl: the template ("percentiles")
 * @out: the file to write (plots/data/NAME.gp)
 *
 * The variables and the template, without terminal and output, so a plot can
 * be redrawn by hand: gnuplot -e "set terminal pngcairo" NAME.gp > NAME.png.
 * 0 or -errno with a one-line message.
 */
int rtm_plot_script_write(const char *tmpl, const char *out, const struct rtm_plot_var *vars,
			  int nvars, struct rtm_error *err);

/*
 * rtm_plot_draw_kept - rtm_plot_draw_formats(), its script first saved as
 * @dir/data/@name.gp (rtm_plot_script_write(); @dir/data must exist).
 */
int rtm_plot_draw_kept(const char *tmpl, unsigned int formats, int width, int height,
		       const char *dir, const char *name, const struct rtm_plot_var *vars,
		       int nvars, struct rtm_error *err);

#endif
