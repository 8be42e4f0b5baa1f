/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_priv.h - what report.c (plots), report_pages.c (HTML, Markdown) and
 * report_data.c (their data) share; not for other modules. report.c calls
 * report_pages.c, both call report_data.c, which calls neither.
 */
#ifndef RTM_REPORT_PRIV_H
#define RTM_REPORT_PRIV_H

#include <limits.h>
#include <stdbool.h>

#include "present/report.h"

#define RTM_REPORT_MAX_LINES 16	/* CPUs drawn one by one; above that, the worst ones */
/* A plot's "colours" (or "dashes"): "#rrggbb " for each of at most two curves a CPU, and two */
#define RTM_REPORT_COLOURS_LEN ((2 * RTM_REPORT_MAX_LINES + 2) * 8 + 1)

struct rtm_report_plot {
	const char *name;	/* template and file name */
	const char *caption;
};

struct rtm_report_ctx {
	const struct rtm_result *r;
	const struct rtm_report_opts *o;
	char plots[PATH_MAX];
	int sel[RTM_REPORT_MAX_LINES];		/* result CPU indexes drawn as lines */
	int nsel;
	bool lines_all;			/* an "all CPUs" line too */
	struct rtm_hist *all_raw, *all_corr;
	struct rtm_report_plot pf[5];
	int npf;
	bool noise_drawn;		/* run --noise: plots/noise_hist.* drawn */
};

struct rtm_report_irq {
	const char *name, *desc;	/* point into the result's JSON */
	int irq;			/* -1 for named rows */
	double rate;			/* per second on the measured CPUs */
};

/* The busiest IRQ sources of the measured CPUs (sections.irq), at most @max
 * (report_data.c). */
int rtm_report_irq_rows(const struct rtm_result *r, struct rtm_report_irq *rows, int max);
/*
 * What disturbed the run (result/disturb.h), one warning a line: the banner
 * above the tables of report.html (@html) and report.md, a noise result's too
 * (report_data.c).
 */
void rtm_report_banner(const struct rtm_result *r, FILE *f, bool html);
/*
 * A page of report_io.c or report_noise.c being written, HTML (@html) or
 * Markdown: its headings, paragraphs and tables (report_data.c).
 */
struct rtm_report_page {
	FILE *f;
	bool html;
	const char *align;	/* the table's columns: 'l' text, 'r' figures */
	bool sub;		/* a section of a latency report (run --noise): headings one down */
};

/* A heading of @level (1 the title), one deeper when @p->sub. */
void rtm_report_heading(struct rtm_report_page *p, int level, const char *s);
/* A paragraph, of the HTML class @cls when not NULL. */
void rtm_report_para(struct rtm_report_page *p, const char *cls, const char *s);
/* A row, each cell aligned as @p->align says; @head: the table's heads. */
void rtm_report_row(struct rtm_report_page *p, const char *const *cells, int n, bool head);
/* A table of @n columns aligned as @align says ('l' text, 'r' figures), headed @heads. */
void rtm_report_table_begin(struct rtm_report_page *p, const char *align,
			    const char *const *heads, int n);
void rtm_report_table_end(struct rtm_report_page *p);
/*
 * Save a page written to open_memstream()'s @buf (@len bytes; NULL when it
 * failed) as @dir/@name, and free @buf.
 */
int rtm_report_page_save(const char *dir, const char *name, char *buf, size_t len,
			 struct rtm_error *err);
/* Make @dir/plots/data, and put @dir/plots in @plots (PATH_MAX bytes). */
int rtm_report_plots_dir(const char *dir, char *plots, struct rtm_error *err);

/* report.html and report.md from the drawn plots. */
int rtm_report_pages(struct rtm_report_ctx *c, struct rtm_error *err);

#endif
