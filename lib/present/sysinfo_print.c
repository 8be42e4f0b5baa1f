// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysinfo_print.c - the box's facts and RT-readiness checklist
 * (lib/box/sysinfo.h) for people: `rtmeasure sysinfo`.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "present/sysinfo_print.h"

/*
 * Print @text starting at column @col, wrapped at @width with a hanging indent
 * of @indent columns; @width 0 prints it on one line.
 */
static void fprint_wrapped(FILE *f, const char *text, int col, int indent, int width)
{
	const char *p = text;

	while (*p) {
		int room = width - col, n;

		if (width <= 0 || (int)strlen(p) <= room) {
			fprintf(f, "%s", p);
			break;
		}
		for (n = room; n > 0 && p[n] != ' '; n--)
			;
		if (n <= 0)		/* one long word: break it where it must */
			n = room > 0 ? room : (int)strlen(p);
		fprintf(f, "%.*s\n%*s", n, p, indent, "");
		p += n;
		while (*p == ' ')
			p++;
		col = indent;
	}
	fputc('\n', f);
}

/* One "name  value" line of the header, wrapped like the checklist. */
static void fprint_field(FILE *f, int width, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void fprint_field(FILE *f, int width, const char *name, const char *fmt, ...)
{
	char line[4400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(f, "%-14s", name);
	fprint_wrapped(f, line, 14, 14, width);
}

void rtm_sysinfo_fprint(const struct rtm_sysinfo *si, FILE *f, bool colour, int width)
{
	static const char *const tag[] = { "[ok]  ", "[info]", "[warn]" };
	static const char *const col[] = { "\033[32m", "\033[36m", "\033[33m" };
	char hv[160];
	int i;

	if (width > 0 && width < 60)
		width = 60;
	fprint_field(f, width, "host", "%s%s", si->hostname, si->live ? "" : "  (recorded tree)");
	fprint_field(f, width, "kernel", "%s  %s", si->release, si->version);
	fprint_field(f, width, "preemption", "%s%s  (from %s)", rtm_preempt_name(si->preempt),
		     si->preempt_dynamic ? ", PREEMPT_DYNAMIC" : "", si->preempt_source);
	if (si->config_hz)
		fprint_field(f, width, "config", "HZ=%d%s  (%s)", si->config_hz,
			     si->config_no_hz_full == 1 ? ", NO_HZ_FULL" : "", si->config_source);
	fprint_field(f, width, "cpu", "%s, %s, %d online (%s)",
		     si->cpu_model[0] ? si->cpu_model : "model unknown",
		     si->arch[0] ? si->arch : "arch unknown", si->cpus_online, si->online);
	fprint_field(f, width, "isolation", "isolated %s, nohz_full %s",
		     si->isolated[0] ? si->isolated : "none",
		     si->nohz_full[0] ? si->nohz_full : "none");
	rtm_sysinfo_hypervisor_text(si, hv, sizeof(hv));
	fprint_field(f, width, "virtual", "%s", si->vm ? hv : "no");
	fprint_field(f, width, "clocksource", "%s",
		     si->clocksource[0] ? si->clocksource : "unknown");
	if (si->tracefs[0])
		fprint_field(f, width, "tracing", "%s; tracers: %s; %s", si->tracefs,
			     si->tracers[0] ? si->tracers : "none",
			     si->hist_triggers ? "hist triggers" : "no hist triggers");
	else if (si->tracefs_errno && si->tracefs_errno != ENOENT)	/* there, not for us */
		fprint_field(f, width, "tracing", "/sys/kernel/tracing: %s",
			     strerror(si->tracefs_errno));
	else
		fprint_field(f, width, "tracing", "no tracefs");
	fprint_field(f, width, "cmdline", "%s", si->cmdline);
	fprintf(f, "\nRT-readiness checklist\n");
	for (i = 0; i < si->nchecks; i++) {
		const struct rtm_check *c = &si->checks[i];

		if (colour)
			fprintf(f, "  %s%s\033[0m %-16s ", col[c->level], tag[c->level], c->id);
		else
			fprintf(f, "  %s %-16s ", tag[c->level], c->id);
		fprint_wrapped(f, c->text, 26, 26, width);
	}
}
