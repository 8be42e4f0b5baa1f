// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * live.c - what a session shows while it measures: on a terminal, a line per
 * CPU rewritten in place once a second (terminfo's cursor-up and clear-to-end);
 * elsewhere (CI, nohup), one progress line per period on the error stream. Both
 * are written by the drive loop from snapshots; the probes never wait for them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>
#include <term.h>

#include "core/stats.h"
#include "core/units.h"
#include "probe/cyclic.h"
#include "probe/probe.h"
#include "probe/probe_noise.h"
#include "session/session_priv.h"

/*
 * A capability into @buf without its padding ($<5>): tputs() pads only for a
 * terminal that needs it at its baud rate, which no terminal emulator does.
 */
static bool cap_copy(char *buf, size_t len, const char *cap)
{
	size_t n = 0;

	if (!cap || cap == (char *)-1)
		return false;
	while (*cap && n + 1 < len) {
		if (cap[0] == '$' && cap[1] == '<' && strchr(cap, '>')) {
			cap = strchr(cap, '>') + 1;
			continue;
		}
		buf[n++] = *cap++;
	}
	buf[n] = '\0';
	return !*cap;
}

void rtm_session_live_init(struct rtm_session_live_lines *l, const struct rtm_session_opts *o)
{
	int fd = fileno(o->outf), err;

	memset(l, 0, sizeof(*l));
	if (o->out.quiet || o->out.json || fd < 0 || !isatty(fd))
		return;
	if (setupterm(NULL, fd, &err) != OK)
		return;
	if (!cap_copy(l->cap_up, sizeof(l->cap_up), tigetstr("cuu1")) ||
	    !cap_copy(l->cap_el, sizeof(l->cap_el), tigetstr("el")))
		return;
	l->on = true;
}

/* Back to the first line, and the elapsed time there. */
static void live_top(struct rtm_session_live_lines *l, FILE *f, double elapsed, uint64_t dur_ns)
{
	int i;

	for (i = 0; i < l->nlines; i++)
		fputs(l->cap_up, f);
	if (dur_ns)
		fprintf(f, "\r%.0f / %.0f s", elapsed, (double)dur_ns / 1e9);
	else
		fprintf(f, "\r%.0f s", elapsed);
}

/* @tirq: the timer IRQ split's line, "" without one */
static void live_timer(struct rtm_session_live_lines *l, FILE *f, struct rtm_cyclic *c,
		       const char *tirq, double elapsed, uint64_t dur_ns)
{
	struct rtm_cyclic_stats st[64];
	int n, i;

	n = rtm_cyclic_stats(c, st, 64);
	if (n > 64)
		n = 64;
	live_top(l, f, elapsed, dur_ns);
	fputs(l->cap_el, f);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		char cur[16], mn[16], avg[16], p99[16], mx[16];

		rtm_fmt_ns(cur, sizeof(cur), st[i].cur_ns);
		rtm_fmt_ns(mn, sizeof(mn), st[i].samples ? st[i].min_ns : 0);
		rtm_fmt_ns(avg, sizeof(avg), (uint64_t)(st[i].avg_ns + 0.5));
		rtm_fmt_ns(p99, sizeof(p99), st[i].p99_ns);
		if (!rtm_pct_defined(st[i].samples, 99))	/* the tables' "-" */
			snprintf(p99, sizeof(p99), "-");
		rtm_fmt_ns(mx, sizeof(mx), st[i].max_ns);
		fprintf(f, "CPU%-3d cur %9s  min %9s  avg %9s  p99 %9s  max %9s  samples %9llu  "
			"overruns %llu", st[i].cpu, cur, mn, avg, p99, mx,
			(unsigned long long)st[i].samples, (unsigned long long)st[i].overruns);
		fputs(l->cap_el, f);
		fputc('\n', f);
	}
	l->nlines = n + 1;
	if (tirq[0]) {
		fputs(tirq, f);
		fputs(l->cap_el, f);
		fputc('\n', f);
		l->nlines++;
	}
	fflush(f);
}

/* The noise probe's lines (noiselive.c): figures, and the causes so far with --trace. */
static void live_noise(struct rtm_session_live_lines *l, FILE *f, struct rtm_stream *st,
		       struct rtm_probe_run *run, double elapsed, uint64_t dur_ns)
{
	char text[64][RTM_SESSION_NOISE_LINE];
	int n = rtm_session_noise_lines(st, run, text, 64), i;

	live_top(l, f, elapsed, dur_ns);
	for (i = -1; i < n; i++) {
		if (i >= 0)
			fputs(text[i], f);
		fputs(l->cap_el, f);
		fputc('\n', f);
	}
	l->nlines = n + 1;
	fflush(f);
}

void rtm_session_live_show(struct rtm_session_live_lines *l, struct rtm_session *s, double el)
{
	uint64_t dur_ns = s->o->probe.duration_ns;
	char tirq[RTM_SESSION_NOISE_LINE];

	if (!l->on)
		return;
	rtm_probe_run_refresh(s->run);
	rtm_session_split_line(s, tirq, sizeof(tirq));
	if (s->c)
		live_timer(l, s->o->outf, s->c, tirq, el, dur_ns);
	else
		live_noise(l, s->o->outf, s->stream, s->run, el, dur_ns);
}

void rtm_session_progress_init(struct rtm_session_progress *p, const struct rtm_session_opts *o)
{
	const char *env = getenv("RTMEASURE_PROGRESS_PERIOD_S");	/* tests only */
	int fd = fileno(o->outf);

	memset(p, 0, sizeof(*p));
	p->period_s = env && atof(env) > 0 ? atof(env) : 60;
	p->next_s = p->period_s;
	p->on = !o->out.quiet && !o->out.json && !(fd >= 0 && isatty(fd));
}

/*
 * Progress when the output is not a terminal: one line on the error stream per
 * period (a minute) with the elapsed time and the worst wake-up so far, and with
 * a timer IRQ split a second with its p99 per CPU so far (either path's).
 */
void rtm_session_progress_show(struct rtm_session_progress *p, struct rtm_session *s,
			       double elapsed)
{
	const struct rtm_session_opts *o = s->o;
	struct rtm_cyclic_stats st[64];
	char worst[16], when[48], text[64][RTM_SESSION_NOISE_LINE];
	uint64_t max_ns = 0;
	int n, i, cpu = -1;

	if (!p->on || elapsed < p->next_s)
		return;
	while (p->next_s <= elapsed)
		p->next_s += p->period_s;
	if (o->probe.duration_ns)
		snprintf(when, sizeof(when), "%.0f / %.0f s", elapsed,
			 (double)o->probe.duration_ns / 1e9);
	else
		snprintf(when, sizeof(when), "%.0f s", elapsed);
	if (!s->c) {	/* noise: a line per CPU */
		n = rtm_session_noise_lines(s->stream, s->run, text, 64);
		for (i = 0; i < n; i++)
			fprintf(o->errf, "rtmeasure %s: %s, %s\n", o->command, when, text[i]);
		return;
	}
	rtm_cyclic_refresh(s->c);
	n = rtm_cyclic_stats(s->c, st, 64);
	for (i = 0; i < n && i < 64; i++) {
		if (cpu < 0 || st[i].max_ns > max_ns) {
			max_ns = st[i].max_ns;
			cpu = st[i].cpu;
		}
	}
	rtm_fmt_ns(worst, sizeof(worst), max_ns);
	fprintf(o->errf, "rtmeasure %s: %s, worst %s (CPU %d)\n", o->command, when, worst, cpu);
	rtm_session_split_line(s, text[0], sizeof(text[0]));
	if (text[0][0])
		fprintf(o->errf, "rtmeasure %s: %s, %s\n", o->command, when, text[0]);
}
