/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * promlive.h - --prometheus of cyclic, run, monitor and noise: /metrics while a
 * session measures (lib/present/promhttp.h serves, this file feeds it).
 *
 * The server starts before anything is measured (a port in use fails the
 * command at once), runs on the CPUs no probe measures when there are any, and
 * is given new figures at each interval boundary by the main thread.
 */
#ifndef RTM_PROMLIVE_H
#define RTM_PROMLIVE_H

#include <jansson.h>

#include "core/error.h"
#include "session/session.h"

struct rtm_promlive;
struct rtm_cyclic;
struct rtm_stream;
struct rtm_session_irq;

/*
 * The server of @o->prometheus, its port announced on @o's error stream; *@out
 * stays NULL without the option. 0, or -errno with @err set.
 */
int rtm_promlive_start(const struct rtm_session_opts *o, const json_t *sysinfo,
		       struct rtm_promlive **out, struct rtm_error *err);
/*
 * New figures for the scrapes at each interval boundary: the timer session's,
 * and with @irq the run's interrupt counts (one /proc/interrupts read a
 * boundary) and handler times, with @r its captured spikes, with @st the timer
 * IRQ split; each may be NULL.
 */
void rtm_promlive_timer(struct rtm_promlive *mp, struct rtm_cyclic *c,
			struct rtm_session_irq *irq, const struct rtm_result *r,
			struct rtm_stream *st);
/*
 * The same for a probe that is not the timer session (noise): its section from
 * fresh snapshots (rtm_probe_ops.live_section) once per interval boundary.
 */
void rtm_promlive_probe(struct rtm_promlive *mp, struct rtm_probe_run *pr,
			struct rtm_session_irq *irq, struct rtm_stream *st);
void rtm_promlive_stop(struct rtm_promlive *mp);

/* The same as the hooks of struct rtm_session_ops (serve, publish, unserve). */
int rtm_promlive_serve(const struct rtm_session_opts *o, const json_t *sysinfo, void **state,
		       struct rtm_error *err);
void rtm_promlive_publish(void *state, const struct rtm_session_live *live);
void rtm_promlive_unserve(void *state);

#endif
