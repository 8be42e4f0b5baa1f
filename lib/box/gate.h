/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gate.h - the start of a probe's per-CPU threads, one rule for every probe.
 *
 * Each thread names itself "PREFIX/CPU" (traces and ps show what it
 * measures), pins itself, takes its policy, prefaults its stack, reports
 * ready and waits. The starter waits until every created thread reported,
 * looks at their set-up errors, then opens the gate: the threads measure,
 * or, aborted, return at once.
 *
 * The noise probe uses it. The timer probe keeps its own inline copy of the
 * same steps (lib/probe/probe_timer.c, probe_main): with the call to
 * rtm_gate_enter() there, gcc 12 -O2 compiled its wake-up loop differently,
 * +2.8 instructions a wake-up (callgrind, 300 loops of cyclic --no-rt:
 * 27.4k to 28.3k Ir in probe_main), and that loop's figures must not move.
 */
#ifndef RTM_GATE_H
#define RTM_GATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "box/rt.h"

struct rtm_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int nready;
	bool open;
	bool abort;		/* written before the gate opens, read after */
	int error;		/* a thread's set-up error, 0: none (after wait_ready) */
};

void rtm_gate_init(struct rtm_gate *g);
void rtm_gate_destroy(struct rtm_gate *g);

/*
 * In the thread: the set-up above, then wait for the gate. 0, or the set-up's
 * error (in @err). The thread goes on only when it returned 0 and
 * !g->abort.
 */
int rtm_gate_enter(struct rtm_gate *g, const char *prefix, int cpu,
		   const struct rtm_sched *sched, size_t stack_prefault, struct rtm_error *err);

/* The starter: until @created threads have reported (their errors are then readable). */
void rtm_gate_wait_ready(struct rtm_gate *g, int created);

/* The starter: open the gate, aborting it when @abort; the threads go. */
void rtm_gate_open(struct rtm_gate *g, bool abort);

#endif
