// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * events.c - the events a tracefs instance records: preset groups (without
 * their bookkeeping events) and system:event names, each switched on with one
 * write, and the kernel's event filters.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "core/fileio.h"
#include "tracefs/events.h"

#define DEFAULT_TRACEFS "/sys/kernel/tracing"

static const char *const presets[] = { "sched", "irq", "timer", "ipi", "nmi", "irq_vectors" };

/*
 * Enable "sched", "irq:irq_handler_entry" or "irq_vectors"; ENOENT if absent. One write to
 * the system's or the event's enable file, which tracefs_event_enable() writes too, but only
 * after a stat() of every system's and event's enable file of the kernel (about 1900 for a
 * traced run's three instances).
 */
static int enable_one(struct tracefs_instance *inst, const char *spec, struct rtm_error *err)
{
	static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz"
					 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	char sys[64], file[160], *colon;
	const char *event = NULL;

	snprintf(sys, sizeof(sys), "%s", spec);
	colon = strchr(sys, ':');
	if (colon) {
		*colon = '\0';
		event = colon + 1;
	}
	if (event)
		snprintf(file, sizeof(file), "events/%s/%s/enable", sys, event);
	else
		snprintf(file, sizeof(file), "events/%s/enable", sys);
	/* names only: a path in a name must not reach another tracefs file */
	if (!*sys || sys[strspn(sys, name_chars)] || (event && (!*event ||
							     event[strspn(event, name_chars)])) ||
	    tracefs_instance_file_write(inst, file, "1") < 0)
		return rtm_error_setn(err, -ENOENT, "this kernel has no trace event %s (see "
				      "%s/available_events)", spec, DEFAULT_TRACEFS);
	return 0;
}

/* Groups the default set asks for that older kernels lack (ipi: 6.4 and later). */
bool rtm_events_optional(const char *name)
{
	return !strcmp(name, "ipi") || !strcmp(name, "nmi");
}

/*
 * Bookkeeping events of the preset groups that explain no latency and fire on
 * the paths that are measured: sched_stat_runtime at every runtime update of a
 * fair task (the switch to a woken RT task included), the timer set-ups at
 * every sleep. A preset group comes without them; named (system:event), they
 * are recorded.
 */
static const char *const bookkeeping[] = { "sched:sched_stat_runtime", "timer:hrtimer_setup",
					   "timer:hrtimer_init", "timer:timer_init" };

static void drop_bookkeeping(struct tracefs_instance *inst, const char *group, const char *list)
{
	char file[96];
	size_t i, n = strlen(group);

	for (i = 0; i < sizeof(bookkeeping) / sizeof(bookkeeping[0]); i++) {
		const char *ev = bookkeeping[i] + n + 1;
		const char *at = list ? strstr(list, bookkeeping[i]) : NULL;
		size_t len = strlen(bookkeeping[i]);

		if (strncmp(bookkeeping[i], group, n) || bookkeeping[i][n] != ':')
			continue;
		/* named in the list: wanted */
		for (; at; at = strstr(at + 1, bookkeeping[i]))
			if ((at == list || at[-1] == ',' || at[-1] == ' ') &&
			    (!at[len] || at[len] == ',' || at[len] == ' '))
				break;
		if (at)
			continue;
		snprintf(file, sizeof(file), "events/%s/%s/enable", group, ev);
		if (tracefs_file_exists(inst, file))
			tracefs_instance_file_write(inst, file, "0");
	}
}

int rtm_events_enable(struct tracefs_instance *inst, const char *list, struct rtm_error *err)
{
	char *copy = strdup(list ? list : RTM_TRACE_PRESETS), *tok, *save = NULL;
	int ret = 0;

	if (!copy)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	for (tok = strtok_r(copy, ", ", &save); tok && !ret; tok = strtok_r(NULL, ", ", &save)) {
		bool preset = false;
		size_t i;

		for (i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
			preset |= !strcmp(tok, presets[i]);
		if (!preset && !strchr(tok, ':')) {
			ret = rtm_error_set(err, "unknown event set '%s' (use sched, irq, timer, ipi, "
					    "nmi, irq_vectors or system:event)", tok);
			break;
		}
		/* the default set goes without the groups a kernel lacks; named ones must exist */
		if (!list && rtm_events_optional(tok)) {
			char dir[64];

			snprintf(dir, sizeof(dir), "events/%s", tok);
			if (!tracefs_dir_exists(inst, dir))
				continue;
		}
		/* on x86 most interrupts show up as irq_vectors: irq brings them along */
		ret = enable_one(inst, tok, err);
		if (!ret && preset)
			drop_bookkeeping(inst, tok, list);
		if (!ret && !strcmp(tok, "irq") &&
		    tracefs_instance_file_write(inst, "events/irq_vectors/enable", "1") < 0)
			ret = 0;	/* not every architecture has them */
	}
	free(copy);
	return ret;
}

/* "sched:sched_switch:prev_prio < 100" -> the event's filter file */
int rtm_events_filter(struct tracefs_instance *inst, const char *spec, struct rtm_error *err)
{
	char sys[64], event[128];
	const char *expr;
	char *text;
	int n;

	if (sscanf(spec, "%63[^:]:%127[^:]:%n", sys, event, &n) != 2 || !spec[n])
		return rtm_error_set(err, "trace filter '%s': write it as system:event:expression, "
				     "e.g. irq:irq_handler_entry:irq==24", spec);
	expr = spec + n;
	if (!tracefs_event_file_exists(inst, sys, event, "filter"))
		return rtm_error_set(err, "trace filter '%s': this kernel has no event %s:%s",
				     spec, sys, event);
	if (tracefs_event_file_write(inst, sys, event, "filter", expr) >= 0)
		return 0;
	/* the kernel explains a rejected filter in the file itself */
	text = tracefs_event_file_read(inst, sys, event, "filter", NULL);
	if (text) {
		char *p = strstr(text, "parse_error:"), *nl;

		p = rtm_strstrip(p ? p : text);
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		n = rtm_error_set(err, "trace filter '%s' rejected by the kernel: %s", spec, p);
		free(text);
		return n;
	}
	return rtm_error_set(err, "trace filter '%s' rejected by the kernel (see "
			     "Documentation/trace/events.rst for the syntax)", spec);
}
