// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * monitor_wakeup.c - rtmeasure monitor --wakeup: the box's own tasks, worst first.
 *
 * The wake-up programs of `rtmeasure wakeup` (lib/probe/wakeup.c) are loaded
 * beside the timer probe with the selection the command parsed (every
 * real-time task unless --wakeup-pid, --wakeup-comm or --wakeup-policy says
 * otherwise) and the bound of --wakeup-above, or else the monitor's threshold
 * as it was at the start (the programs take their bound when they load: the +
 * and - keys do not move it). At each refresh their task table is copied into
 * a snapshot sized at the start, this process's own threads (the probes'
 * rtm-probe/N, which the timer probe already shows) are left out, and the rest
 * sorted by their longest wait: the panel lib/present/dashboard_wakeup.c draws.
 * With -o the result gets sections.wakeup as wakeup writes it, the census of
 * the waits over the bound with it (again without this process's threads; the
 * counts over all CPUs, lost and above, are the programs' own and keep them);
 * so does a snapshot (the s key), from a fresh copy, and with --prometheus the
 * live result at each refresh, whose page then has the tasks' series as export
 * gives them.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "session/monitor.h"
#include "session/session_priv.h"

int rtm_mon_wakeup_prepare(struct rtm_mon *mo)
{
	struct rtm_error err = { "" };

	if (!mo->wk_on) {
		if (mo->wk_opt_given)
			return rtm_session_fail(&mo->m, "monitor: the --wakeup-* options go with "
						"--wakeup");
		return 0;
	}
	if (!rtm_wakeup_built(&err))	/* wakeup's own words */
		return rtm_session_fail(&mo->m, "monitor: %s", err.msg);
	if (!mo->wk_sel.above_ns)
		mo->wk_sel.above_ns = mo->threshold_ns;
	return 0;
}

static void take_cause(const struct rtm_wk_cause_rec *r, void *ctx)
{
	struct rtm_mon *mo = ctx;

	if ((int)r->tgid != getpid())	/* the monitor's own waits are not the box's */
		rtm_wakeup_census_add(mo->wk_census, r);
}

int rtm_mon_wakeup_start(struct rtm_mon *mo, struct rtm_error *err)
{
	if (!mo->wk_on)
		return 0;
	/* the census is allocated below, before the first poll hands it a record */
	mo->wk_sel.on_cause = take_cause;
	mo->wk_sel.cause_ctx = mo;
	mo->wk = rtm_wakeup_create(&mo->wk_sel, err);
	if (!mo->wk)
		return -1;
	mo->wk_census = rtm_wakeup_census_alloc(rtm_wakeup_ncpus(mo->wk), mo->wk_sel.above_ns);
	mo->wk_snap = rtm_wakeup_snap_alloc(rtm_wakeup_ncpus(mo->wk), rtm_wakeup_task_cap(mo->wk));
	if (!mo->wk_census || !mo->wk_snap)
		return rtm_error_set(err, "out of memory");
	return 0;
}

/* The cause records sent since the last turn, into the census. */
void rtm_mon_wakeup_poll(struct rtm_mon *mo)
{
	if (mo->wk)
		rtm_wakeup_poll(mo->wk, 0);
}

void rtm_mon_wakeup_others(struct rtm_wakeup_snap *s, int tgid)
{
	uint32_t i, n = 0;

	for (i = 0; i < s->ntasks; i++)
		if ((int)s->tasks[i].tgid != tgid)
			s->tasks[n++] = s->tasks[i];
	s->ntasks = n;
	rtm_wakeup_sort_tasks(s);
}

/* The task table copied, this process's threads left out, the worst first. */
static int read_tasks(struct rtm_mon *mo)
{
	int ret = rtm_wakeup_read(mo->wk, mo->wk_snap);

	if (ret)
		mo->wk_snap->ntasks = 0;
	else
		rtm_mon_wakeup_others(mo->wk_snap, (int)getpid());
	mo->nwk = (int)mo->wk_snap->ntasks;
	return ret;
}

/* sections.wakeup of mo->wk_snap's tasks into @r, as wakeup writes it; 0 or -ENOMEM. */
static int put_section(const struct rtm_mon *mo, struct rtm_result *r)
{
	json_t *sec = rtm_wakeup_section(&mo->wk_sel, mo->wk_snap, RTM_WAKEUP_TOP, mo->wk_census);

	if (!sec)
		return -ENOMEM;
	/* the result's CPUs are the timer probe's: report and export say so */
	json_object_set_new(sec, "beside_probe", json_true());
	json_object_set_new(r->sections, "wakeup", sec);
	return 0;
}

void rtm_mon_wakeup_refresh(struct rtm_mon *mo)
{
	if (mo->wk)
		read_tasks(mo);
	if (mo->live && mo->wk_snap)	/* --prometheus: the tasks' series of the next pages */
		put_section(mo, mo->live);
}

int rtm_mon_wakeup_snapshot(struct rtm_mon *mo, struct rtm_result *r, struct rtm_error *err)
{
	int ret;

	if (!mo->wk_snap)
		return 0;
	if (mo->wk) {	/* the programs go on: a fresh copy, as a refresh takes it */
		rtm_wakeup_poll(mo->wk, 0);
		ret = read_tasks(mo);
		if (ret)
			return rtm_error_setn(err, ret, "cannot read the wake-up maps: %s",
					      strerror(-ret));
	}
	if (put_section(mo, r))
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	return 0;
}

int rtm_mon_wakeup_finish(struct rtm_mon *mo, struct rtm_result *r, struct rtm_error *err)
{
	int ret;

	if (!mo->wk)
		return 0;
	rtm_wakeup_detach(mo->wk);	/* the last copy is exact */
	rtm_wakeup_poll(mo->wk, 0);
	ret = read_tasks(mo);
	if (ret)
		return rtm_error_setn(err, ret, "cannot read the wake-up maps: %s", strerror(-ret));
	if (put_section(mo, r))
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	return 0;
}

void rtm_mon_wakeup_free(struct rtm_mon *mo)
{
	rtm_wakeup_destroy(mo->wk);	/* the programs detached and unloaded */
	mo->wk = NULL;
	rtm_wakeup_snap_free(mo->wk_snap);
	mo->wk_snap = NULL;
	rtm_wakeup_census_free(mo->wk_census);
	mo->wk_census = NULL;
	mo->nwk = 0;
}
