// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dashboard.c - rtmeasure monitor's screen (ncurses) and its plain-text form.
 * Draws from the state lib/session/monitor.c collected; never reads a probe.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "box/sysinfo.h"
#include "core/stats.h"
#include "core/units.h"
#include "present/dashboard.h"
#include "present/dashboard_priv.h"
#include "session/monitor.h"

void rtm_dash_init(struct rtm_dash *d)
{
	const char *cs;

	setlocale(LC_CTYPE, "");
	cs = getenv("LC_ALL") ? getenv("LC_ALL") : getenv("LC_CTYPE") ? getenv("LC_CTYPE") :
	     getenv("LANG");
	d->utf8 = cs && (strstr(cs, "UTF-8") || strstr(cs, "utf8") || strstr(cs, "UTF8"));
	initscr();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	d->colours = has_colors() && !getenv("NO_COLOR");
	if (d->colours) {
		start_color();
		use_default_colors();
		init_pair(PAIR_OK, COLOR_GREEN, -1);
		init_pair(PAIR_WARN, COLOR_YELLOW, -1);
		init_pair(PAIR_ALERT, COLOR_RED, -1);
		init_pair(PAIR_HEAD, COLOR_CYAN, -1);
		init_pair(PAIR_STATUS, COLOR_BLACK, COLOR_CYAN);
	}
}

void rtm_dash_end(void)
{
	endwin();
}

int rtm_dash_getkey(int ms)
{
	int k;

	timeout(ms);	/* sleeps in the kernel until a key or the time: no polling */
	k = getch();
	return k == ERR ? -1 : k;
}

attr_t rtm_dash_level_attr(const struct rtm_dash *d, enum rtm_level l)
{
	bool colours = d->colours;

	switch (l) {
	case RTM_LEVEL_OK:
		return colours ? COLOR_PAIR(PAIR_OK) : A_NORMAL;
	case RTM_LEVEL_WARN:
		return colours ? COLOR_PAIR(PAIR_WARN) | A_BOLD : A_BOLD;
	case RTM_LEVEL_ALERT:
		return colours ? COLOR_PAIR(PAIR_ALERT) | A_BOLD : A_REVERSE;
	default:
		return A_NORMAL;
	}
}

static void put_lat(const struct rtm_dash *d, int y, int x, uint64_t ns, bool have,
		    uint64_t threshold)
{
	char b[16];
	attr_t a = rtm_dash_level_attr(d, rtm_level_of(ns, threshold, have));

	if (have)
		rtm_fmt_ns(b, sizeof(b), ns);
	else
		snprintf(b, sizeof(b), "-");
	attron(a);
	mvprintw(y, x, "%9s", b);
	attroff(a);
}

static void fmt_elapsed(char *b, size_t len, uint64_t s)
{
	snprintf(b, len, "%02llu:%02llu:%02llu", (unsigned long long)(s / 3600),
		 (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
}

static void draw_header(const struct rtm_dash *d, int rows, int cols)
{
	const struct rtm_mon *mo = d->mo;
	const struct rtm_sysinfo *si = mo->si;
	char up[16], thr[16], cpus[128], iv[16], load[64] = "";
	FILE *f = fopen("/proc/loadavg", "r");
	int i;

	if (f) {
		if (fgets(load, sizeof(load), f))
			load[strcspn(load, " \n") ? strcspn(load, "\n") : 0] = '\0';
		fclose(f);
	}
	load[14] = '\0';	/* the three averages */
	fmt_elapsed(up, sizeof(up), (uint64_t)rtm_mon_elapsed_s(mo));
	attron(A_BOLD);
	mvprintw(0, 0, "rtmeasure monitor");
	attroff(A_BOLD);
	printw("  %s  %s  %s%s%s  up %s  load %s", si ? si->hostname : "?", si ? si->release : "?",
	       si ? rtm_preempt_name(si->preempt) : "?", si && si->preempt_dynamic ? "(dyn)" : "",
	       si && si->vm ? "  VM" : "", up, load);
	if (rows < 2)
		return;
	rtm_cpulist_format(&mo->m.probe.cpus, cpus, sizeof(cpus));
	rtm_fmt_ns(iv, sizeof(iv), mo->m.probe.interval_ns);
	rtm_fmt_ns(thr, sizeof(thr), mo->threshold_ns);
	mvprintw(1, 0, "CPUs %s  every %s  %s %d  threshold %s  probe: userspace timer  "
		 "kernel tracers: %s  tracing %s%s", cpus, iv,
		 rtm_policy_name(mo->m.probe.sched.policy), mo->m.probe.sched.priority, thr,
		 si && strstr(si->tracers, "timerlat") ? "timerlat" : "none",
		 mo->tracing ? "ON" : "off", d->paused ? "  [PAUSED]" : "");
	if (rows < 3 || !si)
		return;
	move(2, 0);
	for (i = 0; i < si->nchecks; i++) {
		if (si->checks[i].level != RTM_CHECK_WARN)
			continue;
		attron(rtm_dash_level_attr(d, RTM_LEVEL_WARN));
		printw("! %.*s", cols > 4 ? cols - 4 : 0, si->checks[i].text);
		attroff(rtm_dash_level_attr(d, RTM_LEVEL_WARN));
		break;
	}
}

/* The table's heading, each shown column right-aligned in its width. */
static void draw_cpu_heading(const struct rtm_dash *d, int y, const struct rtm_dash_cols *c)
{
	static const char *const names[RTM_COL_N] = { "CPU", "cur", "min", "avg", "p99", "p99.9",
						       "max", "samples", "overruns", "" };
	int i;

	attron(A_BOLD | (d->colours ? COLOR_PAIR(PAIR_HEAD) : 0));
	mvprintw(y, 0, "%-*s", c->width[RTM_COL_CPU], names[RTM_COL_CPU]);
	for (i = RTM_COL_CPU + 1; i < RTM_COL_SPARK; i++)
		if (c->shown[i])
			mvprintw(y, c->x[i], "%*s", c->width[i], names[i]);
	if (c->shown[RTM_COL_SPARK])
		mvprintw(y, c->x[RTM_COL_SPARK] + 1, "%s", c->spark_head);
	attroff(A_BOLD | (d->colours ? COLOR_PAIR(PAIR_HEAD) : 0));
}

static void draw_cpu_row(const struct rtm_dash *d, int y, const struct rtm_mon_cpu *mc,
			 const struct rtm_dash_cols *c)
{
	const struct rtm_mon *mo = d->mo;
	const uint64_t lat[RTM_COL_N] = { [RTM_COL_CUR] = mc->cur_ns, [RTM_COL_MIN] = mc->min_ns,
		[RTM_COL_AVG] = (uint64_t)(mc->avg_ns + 0.5), [RTM_COL_P99] = mc->p99_ns,
		[RTM_COL_P999] = mc->p999_ns, [RTM_COL_MAX] = mc->max_ns };
	char spark[RTM_MON_SPARK * 3 + 1];
	int i, marks = c->spark_marks < RTM_MON_SPARK ? c->spark_marks : RTM_MON_SPARK;

	mvprintw(y, 0, "%-5d", mc->cpu);
	for (i = RTM_COL_CUR; i <= RTM_COL_MAX; i++) {
		bool have = mc->samples > 0;

		/* "-" until samples enough lie beyond the percentile (core/stats.h) */
		if (i == RTM_COL_P99)
			have = rtm_pct_defined(mc->samples, 99);
		else if (i == RTM_COL_P999)
			have = rtm_pct_defined(mc->samples, 99.9);
		if (c->shown[i])
			put_lat(d, y, c->x[i], lat[i], have, mo->threshold_ns);
	}
	if (c->shown[RTM_COL_SAMPLES])
		mvprintw(y, c->x[RTM_COL_SAMPLES], "%10llu", (unsigned long long)mc->samples);
	if (c->shown[RTM_COL_OVERRUNS])
		mvprintw(y, c->x[RTM_COL_OVERRUNS], "%8llu", (unsigned long long)mc->overruns);
	/* the newest maxima that fit in the width, newest on the right */
	if (marks > 0 && rtm_sparkline(spark, sizeof(spark), mc->spark + RTM_MON_SPARK - marks,
				       marks, mo->m.probe.interval_ns / 100, mo->threshold_ns * 4,
				       d->utf8) >= 0)
		mvprintw(y, c->x[RTM_COL_SPARK] + 1, "%s", spark);
}

static void draw_cpus(struct rtm_dash *d, int y, int rows, const struct rtm_dash_layout *l)
{
	const struct rtm_mon *mo = d->mo;
	int i, shown = rows - 1;

	if (d->scroll > mo->n - shown)
		d->scroll = mo->n - shown > 0 ? mo->n - shown : 0;
	draw_cpu_heading(d, y, &l->cols);
	for (i = 0; i < shown && d->scroll + i < mo->n; i++)
		draw_cpu_row(d, y + 1 + i, &mo->cpus[d->scroll + i], &l->cols);
	if (mo->n > shown)
		mvprintw(y, COLS - 12 > 0 ? COLS - 12 : 0, "[%d-%d/%d]", d->scroll,
			 d->scroll + shown - 1, mo->n);
}

static void draw_irqs(const struct rtm_dash *d, int y, int rows)
{
	const struct rtm_mon *mo = d->mo;
	int i;

	attron(A_BOLD | (d->colours ? COLOR_PAIR(PAIR_HEAD) : 0));
	mvprintw(y, 0, "%-8s %10s %11s %11s  %s", "IRQ", "per s", "handler avg", "max",
		 mo->tracing ? "device (measured CPUs)" : "device (measured CPUs; t: handler "
		 "times)");
	attroff(A_BOLD | (d->colours ? COLOR_PAIR(PAIR_HEAD) : 0));
	for (i = 0; i < rows - 1 && i < mo->nirqs; i++) {
		const struct rtm_mon_irq *q = &mo->irqs[i];
		char avg[16] = "-", mx[16] = "-";

		if (q->count) {
			rtm_fmt_ns(avg, sizeof(avg), q->total_ns / q->count);
			rtm_fmt_ns(mx, sizeof(mx), q->max_ns);
		}
		mvprintw(y + 1 + i, 0, "%-8s %10.1f %11s %11s  %.*s", q->name, q->rate, avg, mx,
			 COLS > 46 ? COLS - 46 : 0, q->desc);
	}
}

/*
 * @text from (@y, @x) in the screen's width, broken at words into at most @max lines
 * (" ..." ending the last when more was left); the lines used.
 */
static int draw_wrapped(int y, int x, const char *text, int max)
{
	int start[8], len[8], i, n;
	bool cut;

	if (max > 8)
		max = 8;
	n = rtm_dash_wrap(text, COLS - x, max, start, len, &cut);
	for (i = 0; i < n; i++)
		mvprintw(y + i, x, "%.*s%s", len[i], text + start[i],
			 cut && i == n - 1 ? " ..." : "");
	return n;
}

/* The lines @text takes from column @x, at most @max. */
static int wrapped_lines(int x, const char *text, int max)
{
	int start[8], len[8];
	bool cut;

	return rtm_dash_wrap(text, COLS - x, max > 8 ? 8 : max, start, len, &cut);
}

/*
 * Newest first, each spike's cause broken at words under its time, CPU and
 * latency; a spike is shown whole or, when the newest does not fit, as far as the
 * rows go. Tab gives the log more rows.
 */
static void draw_spikes(const struct rtm_dash *d, int y, int rows)
{
	const struct rtm_mon *mo = d->mo;
	int i, used = 1, n = mo->nspikes < RTM_MON_SPIKES ? mo->nspikes : RTM_MON_SPIKES;
	char thr[16];

	rtm_fmt_ns(thr, sizeof(thr), mo->threshold_ns);
	attron(A_BOLD | (d->colours ? COLOR_PAIR(PAIR_HEAD) : 0));
	mvprintw(y, 0, "spikes over %s: %d%s", thr, mo->nspikes,
		 mo->nspikes ? "   (newest first; time, CPU, latency, cause)" : "");
	attroff(A_BOLD | (d->colours ? COLOR_PAIR(PAIR_HEAD) : 0));
	for (i = 0; used < rows && i < n; i++) {
		const struct rtm_mon_spike *s = &mo->spikes[(mo->nspikes - 1 - i) % RTM_MON_SPIKES];
		int need = wrapped_lines(28, s->verdict, 8);
		char lat[16];

		if (i && used + need > rows)
			break;
		rtm_fmt_ns(lat, sizeof(lat), s->latency_ns);
		mvprintw(y + used, 0, "%8.1fs CPU%-3d ", s->t_s, s->cpu);
		attron(rtm_dash_level_attr(d, RTM_LEVEL_ALERT));
		printw("%9s", lat);
		attroff(rtm_dash_level_attr(d, RTM_LEVEL_ALERT));
		used += draw_wrapped(y + used, 28, s->verdict, rows - used);
	}
}

static void draw_help(void)
{
	static const char *const lines[] = {
		"rtmeasure monitor keys",
		"",
		"q         quit (saves the results folder with -o)",
		"space     pause the display (measuring goes on)",
		"r         reset the statistics",
		"s         save a results snapshot now",
		"t         tracing on/off: explain each spike",
		"+ / -     double / halve the alert threshold",
		"tab, c    give the room to the next panel",
		"arrows    scroll the CPU table (PgUp, PgDn, Home, End)",
		"?         this help (any key closes it)",
	};
	int n = (int)(sizeof(lines) / sizeof(lines[0])), w = 56, i;
	int y0 = (LINES - n - 2) / 2, x0 = (COLS - w) / 2;

	if (y0 < 0 || x0 < 0)
		return;
	attron(A_REVERSE);
	for (i = 0; i < n + 2; i++)
		mvprintw(y0 + i, x0, "%*s", w, "");
	for (i = 0; i < n; i++)
		mvprintw(y0 + 1 + i, x0 + 2, "%s", lines[i]);
	attroff(A_REVERSE);
}

void rtm_dash_scroll_key(struct rtm_dash *d, int key)
{
	const struct rtm_mon *mo = d->mo;
	int page = LINES > 10 ? LINES / 2 : 1;

	switch (key) {
	case KEY_UP:	d->scroll--; break;
	case KEY_DOWN:	d->scroll++; break;
	case KEY_PPAGE:	d->scroll -= page; break;
	case KEY_NPAGE:	d->scroll += page; break;
	case KEY_HOME:	d->scroll = 0; break;
	case KEY_END:	d->scroll = mo->n; break;
	case KEY_RESIZE: break;		/* the next draw lays out again */
	default: return;
	}
	if (d->scroll < 0)
		d->scroll = 0;
	if (d->scroll >= mo->n)
		d->scroll = mo->n - 1;
}

void rtm_dash_draw(struct rtm_dash *d)
{
	const struct rtm_mon *mo = d->mo;
	struct rtm_dash_layout l;
	int y, n;

	erase();	/* redrawn in a buffer; refresh() sends only the changes: no flicker */
	rtm_dash_layout(LINES, COLS, mo->n, d->focus, &l);
	rtm_dash_layout_noise(&l, mo->nn);	/* --noise-cpus */
	rtm_dash_layout_io(&l, mo->nio);	/* --io */
	rtm_dash_layout_wakeup(&l, mo->wk_on ? mo->nwk : -1);	/* --wakeup */
	if (l.too_small) {
		mvprintw(0, 0, "window too small (%dx%d): 40x8 at least", COLS, LINES);
		refresh();
		return;
	}
	draw_header(d, l.header, COLS);
	y = l.header;
	draw_cpus(d, y, l.cpu_rows, &l);
	y += l.cpu_rows;
	if (l.noise_rows) {
		rtm_dash_draw_noise(d, y, l.noise_rows);
		y += l.noise_rows;
	}
	if (l.io_rows) {
		rtm_dash_draw_io(d, y, l.io_rows);
		y += l.io_rows;
	}
	if (l.wk_rows) {
		rtm_dash_draw_wakeup(d, y, l.wk_rows);
		y += l.wk_rows;
	}
	if (l.irq_rows) {
		draw_irqs(d, y, l.irq_rows);
		y += l.irq_rows;
	}
	if (l.spike_rows > 1 && mo->sharedline[0]) {	/* another rtmeasure on these CPUs */
		attron(rtm_dash_level_attr(d, RTM_LEVEL_ALERT));
		y += draw_wrapped(y, 0, mo->sharedline, 1);	/* cut at a word */
		attroff(rtm_dash_level_attr(d, RTM_LEVEL_ALERT));
		l.spike_rows--;
	}
	/* --rt-hold, --timer-irq and the spike census: a line each, two for the census */
	if (l.spike_rows > 1 && mo->holdline[0]) {
		y += draw_wrapped(y, 0, mo->holdline, 1);	/* cut at a word */
		l.spike_rows--;
	}
	if (l.spike_rows > 1 && mo->tirqline[0]) {
		y += draw_wrapped(y, 0, mo->tirqline, 1);	/* cut at a word */
		l.spike_rows--;
	}
	if (l.spike_rows > 1 && mo->censusline[0]) {
		n = draw_wrapped(y, 0, mo->censusline, l.spike_rows > 4 ? 2 : 1);
		y += n;
		l.spike_rows -= n;
	}
	if (l.spike_rows)
		draw_spikes(d, y, l.spike_rows);
	attron(d->colours ? COLOR_PAIR(PAIR_STATUS) : A_REVERSE);
	mvprintw(LINES - 1, 0, "%-*.*s", COLS, COLS, "");
	mvprintw(LINES - 1, 0, " q quit  spc pause  r reset  s save  t trace %s  +/- threshold  "
		 "tab panel  ? help  %s", mo->tracing ? "ON" : "off", mo->message);
	attroff(d->colours ? COLOR_PAIR(PAIR_STATUS) : A_REVERSE);
	if (d->help)
		draw_help();
	refresh();
}

/*
 * The busiest interrupts of the measured CPUs, counted on them all together:
 * "irq/s, CPUs 0-1 together: LOC 3344/s, irq 42 (virtio0) 1/s". Each figure
 * carries its unit, and a numbered IRQ its word, so no figure reads as a CPU.
 */
static void print_plain_irqs(const struct rtm_mon *mo, FILE *f)
{
	char cpus[128];
	int i;

	rtm_cpulist_format(&mo->m.probe.cpus, cpus, sizeof(cpus));
	fprintf(f, "irq/s, CPU%s %s%s:", mo->m.probe.cpus.n > 1 ? "s" : "", cpus,
		mo->m.probe.cpus.n > 1 ? " together" : "");
	for (i = 0; i < mo->nirqs && i < 5; i++) {
		const struct rtm_mon_irq *q = &mo->irqs[i];
		bool numbered = q->name[0] && strspn(q->name, "0123456789") == strlen(q->name);

		if (numbered)
			fprintf(f, "%s irq %s%s%s%s %.0f/s", i ? "," : "", q->name,
				q->desc[0] ? " (" : "", q->desc, q->desc[0] ? ")" : "", q->rate);
		else
			fprintf(f, "%s %s %.0f/s", i ? "," : "", q->name, q->rate);
	}
	fputc('\n', f);
}

void rtm_dash_print_plain(struct rtm_dash *d)
{
	const struct rtm_mon *mo = d->mo;
	FILE *f = d->out;
	char thr[16], a[6][16];
	int i;

	rtm_fmt_ns(thr, sizeof(thr), mo->threshold_ns);
	fprintf(f, "-- %.1f s  threshold %s  tracing %s\n", rtm_mon_elapsed_s(mo), thr,
		mo->tracing ? "on" : "off");
	fprintf(f, "%-5s %9s %9s %9s %9s %9s %9s %10s %8s\n", "CPU", "cur", "min", "avg", "p99",
		"p99.9", "max", "samples", "overruns");
	for (i = 0; i < mo->n; i++) {
		const struct rtm_mon_cpu *mc = &mo->cpus[i];

		rtm_fmt_ns(a[0], sizeof(a[0]), mc->cur_ns);
		rtm_fmt_ns(a[1], sizeof(a[1]), mc->min_ns);
		rtm_fmt_ns(a[2], sizeof(a[2]), (uint64_t)(mc->avg_ns + 0.5));
		rtm_fmt_ns(a[3], sizeof(a[3]), mc->p99_ns);
		rtm_fmt_ns(a[4], sizeof(a[4]), mc->p999_ns);
		if (!rtm_pct_defined(mc->samples, 99))
			snprintf(a[3], sizeof(a[3]), "-");
		if (!rtm_pct_defined(mc->samples, 99.9))
			snprintf(a[4], sizeof(a[4]), "-");
		rtm_fmt_ns(a[5], sizeof(a[5]), mc->max_ns);
		fprintf(f, "%-5d %9s %9s %9s %9s %9s %9s %10llu %8llu\n", mc->cpu, a[0], a[1], a[2],
			a[3], a[4], a[5], (unsigned long long)mc->samples,
			(unsigned long long)mc->overruns);
	}
	if (mo->nirqs)
		print_plain_irqs(mo, f);
	for (i = 0; i < mo->nn; i++) {	/* --noise-cpus */
		char cells[RTM_DASH_NOISE_CELLS][64];

		rtm_dash_noise_cells(mo, i, cells);
		fprintf(f, "noise CPU%s: %s noise, max gap %s, %s gaps, largest gap's cause %s, "
			"main cause %s\n", cells[0], cells[1], cells[2], cells[3], cells[4],
			cells[5]);
	}
	if (mo->noise_note[0] && mo->nn)
		fprintf(f, "noise: %s\n", mo->noise_note);
	rtm_dash_io_plain(mo, f);	/* --io */
	rtm_dash_wakeup_plain(mo, f);	/* --wakeup */
	if (mo->sharedline[0])
		fprintf(f, "warning: %s\n", mo->sharedline);
	if (mo->stopline[0])
		fprintf(f, "warning: %s\n", mo->stopline);
	if (mo->holdline[0])
		fprintf(f, "%s\n", mo->holdline);
	if (mo->tirqline[0])
		fprintf(f, "%s\n", mo->tirqline);
	if (mo->censusline[0])
		fprintf(f, "%s\n", mo->censusline);
	for (; d->spikes_printed < mo->nspikes; d->spikes_printed++) {
		const struct rtm_mon_spike *s = &mo->spikes[d->spikes_printed % RTM_MON_SPIKES];

		if (mo->nspikes - d->spikes_printed > RTM_MON_SPIKES)
			continue;
		rtm_fmt_ns(a[0], sizeof(a[0]), s->latency_ns);
		fprintf(f, "spike %.1f s CPU%d %s: %s\n", s->t_s, s->cpu, a[0], s->verdict);
	}
	fflush(f);
}
