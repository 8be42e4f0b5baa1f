/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * promlive.h - --prometheus of cyclic, run, monitor, noise, wakeup and io: /metrics
 * while a command measures (lib/present/promhttp.h serves, this file feeds it).
 *
 * The server starts before anything is measured (a port in use fails the
 * command at once), runs on the CPUs no probe measures when there are any, and
 * is given new figures at each interval boundary by the main thread.
 */
#ifndef RTM_PROMLIVE_H
#define RTM_PROMLIVE_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "core/error.h"
#include "core/units.h"
#include "session/session.h"

struct rtm_promlive;
struct rtm_cyclic;
struct rtm_stream;
struct rtm_session_irq;
struct rtm_timersplit;

/*
 * The server of @o->prometheus, its port announced on @o's error stream; *@out
 * stays NULL without the option. 0, or -errno with @err set.
 */
int rtm_promlive_start(const struct rtm_session_opts *o, const json_t *sysinfo,
		       struct rtm_promlive **out, struct rtm_error *err);
/*
 * New figures for the scrapes at each interval boundary: the timer session's,
 * and with @irq the run's interrupt counts (one /proc/interrupts read a
 * boundary) and handler times, with @r its captured spikes (and the box's
 * tasks of its sections.wakeup, monitor --wakeup), with @st (the stream, as
 * drained) or @split (--bpf, its maps read at the boundary) the timer IRQ
 * split; each may be NULL.
 */
void rtm_promlive_timer(struct rtm_promlive *mp, struct rtm_cyclic *c,
			struct rtm_session_irq *irq, const struct rtm_result *r,
			struct rtm_stream *st, struct rtm_timersplit *split);
/*
 * The same for a probe that is not the timer session (noise): its section from
 * fresh snapshots (rtm_probe_ops.live_section) once per interval boundary.
 */
void rtm_promlive_probe(struct rtm_promlive *mp, struct rtm_probe_run *pr,
			struct rtm_session_irq *irq, struct rtm_stream *st);
void rtm_promlive_stop(struct rtm_promlive *mp);

/* The server of a command that measures outside a session (wakeup, io). */
struct rtm_promlive_opts {
	const char *spec;			/* --prometheus [ADDR:]PORT */
	const char *command;			/* "wakeup": its announcement names it */
	const char *probe;			/* the probe label until the first page */
	const json_t *sysinfo;			/* the target labels until then, or NULL */
	const struct rtm_cpulist *measured;	/* the server keeps off them when it can */
	bool quiet;				/* no announcement unless the port is news */
	FILE *errf;				/* where it is announced */
};

/* The server of @o->spec, its port announced on @o->errf. 0, or -errno with @err set. */
int rtm_promlive_open(const struct rtm_promlive_opts *o, struct rtm_promlive **out,
		      struct rtm_error *err);
/*
 * The page export --prometheus gives of @r as it stands, for the next scrapes:
 * the same reduction (rtm_prom_of_result()), so the same series and labels.
 */
void rtm_promlive_result(struct rtm_promlive *mp, const struct rtm_result *r);

/* The same as the hooks of struct rtm_session_ops (serve, publish, unserve). */
int rtm_promlive_serve(const struct rtm_session_opts *o, const json_t *sysinfo, void **state,
		       struct rtm_error *err);
void rtm_promlive_publish(void *state, const struct rtm_session_live *live);
void rtm_promlive_unserve(void *state);

#endif
