// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gate.c - the start of a probe's per-CPU threads (gate.h).
 */
#include <stdio.h>

#include "box/gate.h"

void rtm_gate_init(struct rtm_gate *g)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	g->nready = 0;
	g->open = false;
	g->abort = false;
	g->error = 0;
}

void rtm_gate_destroy(struct rtm_gate *g)
{
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->cond);
}

int rtm_gate_enter(struct rtm_gate *g, const char *prefix, int cpu,
		   const struct rtm_sched *sched, size_t stack_prefault, struct rtm_error *err)
{
	char name[16];
	int ret;

	snprintf(name, sizeof(name), "%s/%d", prefix, cpu);
	pthread_setname_np(pthread_self(), name);
	ret = rtm_affinity_set(cpu, err);
	if (!ret)
		ret = rtm_sched_apply(sched, err);
	if (!ret)
		rtm_stack_prefault(stack_prefault);

	pthread_mutex_lock(&g->lock);
	if (ret && !g->error)
		g->error = ret;
	g->nready++;
	pthread_cond_broadcast(&g->cond);
	while (!g->open)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
	return ret;
}

void rtm_gate_wait_ready(struct rtm_gate *g, int created)
{
	pthread_mutex_lock(&g->lock);
	while (g->nready < created)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

void rtm_gate_open(struct rtm_gate *g, bool abort)
{
	pthread_mutex_lock(&g->lock);
	g->abort = g->abort || abort;
	g->open = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}
