// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * probe.c - the runner every measuring command drives its probe with.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "core/clock.h"
#include "probe/probe.h"

struct rtm_probe_run {
	const struct rtm_probe_ops *ops;
	void *p;
};

struct rtm_probe_run *rtm_probe_run_start(const struct rtm_probe_ops *ops, const void *opts,
					  uint64_t ts_interval_ns, struct rtm_error *err)
{
	struct rtm_probe_run *run = calloc(1, sizeof(*run));

	if (!run) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	run->ops = ops;
	run->p = ops->start(opts, ts_interval_ns, err);
	if (!run->p) {
		free(run);
		return NULL;
	}
	return run;
}

void rtm_probe_run_wait(struct rtm_probe_run *run, uint64_t max_sleep_ns)
{
	uint64_t next = run->ops->next_tick_ns(run->p), deadline;
	uint64_t now_ns = rtm_clock_ns(CLOCK_MONOTONIC);
	struct timespec until;

	/* wake at the interval boundary, and often enough to notice the end */
	deadline = now_ns + max_sleep_ns;
	if (next > now_ns && next < deadline)
		deadline = next;
	/* never wake together with the probes */
	if (run->ops->quiet_ns)
		deadline = run->ops->quiet_ns(run->p, deadline);
	until.tv_sec = (time_t)(deadline / 1000000000ULL);
	until.tv_nsec = (long)(deadline % 1000000000ULL);
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);	/* EINTR: a signal */
}

void rtm_probe_run_tick(struct rtm_probe_run *run)
{
	run->ops->snapshot(run->p, true);
}

json_t *rtm_probe_run_live_section(struct rtm_probe_run *run)
{
	return run->ops->live_section ? run->ops->live_section(run->p) : NULL;
}

void rtm_probe_run_refresh(struct rtm_probe_run *run)
{
	run->ops->snapshot(run->p, false);
}

double rtm_probe_run_elapsed_s(const struct rtm_probe_run *run)
{
	return run->ops->elapsed_s(run->p);
}

bool rtm_probe_run_done(const struct rtm_probe_run *run)
{
	return run->ops->done(run->p);
}

void rtm_probe_run_stop(struct rtm_probe_run *run)
{
	run->ops->stop(run->p);
}

int rtm_probe_run_finish(struct rtm_probe_run *run, struct rtm_result *r, struct rtm_error *err)
{
	return run->ops->finish(run->p, r, err);
}

void rtm_probe_run_free(struct rtm_probe_run *run)
{
	if (!run)
		return;
	run->ops->free(run->p);
	free(run);
}

const struct rtm_probe_ops *rtm_probe_run_ops(const struct rtm_probe_run *run)
{
	return run->ops;
}

void *rtm_probe_run_probe(const struct rtm_probe_run *run)
{
	return run->p;
}

double rtm_probe_elapsed_s(uint64_t start_ns, uint64_t duration_ns)
{
	uint64_t now = rtm_clock_ns(CLOCK_MONOTONIC);

	if (now <= start_ns)
		return 0;
	now -= start_ns;
	if (duration_ns && now > duration_ns)
		now = duration_ns;
	return (double)now / 1e9;
}

bool rtm_probe_tick(uint64_t *next_tick_ns, uint64_t tick_ns, bool boundary)
{
	uint64_t now = rtm_clock_ns(CLOCK_MONOTONIC);

	if (boundary && now < *next_tick_ns)
		return false;
	while (boundary && *next_tick_ns <= now)
		*next_tick_ns += tick_ns;
	return true;
}

int rtm_probe_thread_create(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	sigset_t block, old;
	int ret;

	sigfillset(&block);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	ret = pthread_create(tid, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}
