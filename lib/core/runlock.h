/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runlock.h - what a running rtmeasure holds, as flock(2) locks on files in
 * one directory (/run/lock/rtmeasure, or $RTMEASURE_LOCK_DIR).
 *
 * A lock lives exactly as long as its process (the kernel drops it on any
 * exit, SIGKILL included), so "is the owner still there?" is "can the lock be
 * taken?", which neither PID reuse nor another PID namespace can fool.
 *
 *   instance-<name>.lock  held for the life of tracefs instance <name>; a
 *                         rtmeasure-* instance whose lock file exists and can
 *                         be taken is stale. Without a lock file its owner is
 *                         unknown (an older rtmeasure, another lock
 *                         directory) and the instance is left alone.
 *   cpu<N>.lock           held by the run whose probe measures CPU N (the
 *                         holder; it writes "PID [exclusive]" into the file)
 *   cpu<N>.guests         shared-locked by later runs that measure CPU N too;
 *                         the holder notices them by trying to take it.
 *   <kind>-<PID>-<random>.journal
 *                         what a run must put back if it is killed (a kernel
 *                         tracer's global settings), held while it runs; one
 *                         whose lock can be taken is a killed run's.
 */
#ifndef RTM_RUNLOCK_H
#define RTM_RUNLOCK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/units.h"

#define RTM_LOCK_DIR "/run/lock/rtmeasure"

/* The lock directory: $RTMEASURE_LOCK_DIR, or RTM_LOCK_DIR. */
const char *rtm_runlock_dir(void);

/* --------------------------------------------------------- trace instances */

/**
 * rtm_runlock_instance_take - lock tracefs instance @name for this process
 * @existed: set when the lock file was there already (a killed owner's)
 *
 * Returns the locked descriptor, -EBUSY when another live process holds the
 * name, or -errno (with a message) when the lock directory is unusable.
 */
int rtm_runlock_instance_take(const char *name, bool *existed, struct rtm_error *err);

/* Remove the lock file of @name, then drop the lock (@fd < 0: nothing). */
void rtm_runlock_instance_release(const char *name, int fd);

/**
 * rtm_runlock_instance_stale - is instance @name's owner gone?
 *
 * Returns a locked descriptor when the lock file exists and nobody holds it:
 * the caller removes the instance, then rtm_runlock_instance_release().
 * -ENOENT: no lock file (owner unknown: leave the instance alone);
 * -EBUSY: its owner runs.
 */
int rtm_runlock_instance_stale(const char *name);

/* --------------------------------------------------------- journals */

/**
 * rtm_runlock_journal_create - leave @text where the next run finds it if we are killed
 * @kind: the journal's kind ("ktracer"): its file is <kind>-<PID>-<random>.journal
 * @name: set to that file name (for rtm_runlock_journal_remove())
 *
 * The file is created with O_EXCL | O_NOFOLLOW relative to the opened lock
 * directory, mode 0600, and locked before it gets its final name, so no other
 * run ever sees it unlocked while we live. Returns the locked descriptor, to
 * keep open for the run's life, or -errno with a message.
 */
int rtm_runlock_journal_create(const char *kind, const char *text, char *name, size_t len,
			       struct rtm_error *err);

/* Remove journal @name (we hold it as @fd), then drop its lock (@fd < 0: nothing). */
void rtm_runlock_journal_remove(const char *name, int fd);

/* What a rtm_runlock_journal_each() callback decides about a killed run's journal. */
enum rtm_journal_verdict {
	RTM_JOURNAL_KEEP,		/* left for a later run */
	RTM_JOURNAL_REMOVE,		/* done with (applied, or useless) */
};

/**
 * rtm_runlock_journal_each - the journals of @kind that killed runs left
 * @fn: called with each one's name and a locked read-only descriptor
 *
 * Only regular files of this user whose lock can be taken are handed on: a
 * live run's journal (locked), a symbolic link, a FIFO or another user's file
 * at a journal's name is passed over. Returns how many were handed to @fn.
 */
int rtm_runlock_journal_each(const char *kind,
			     enum rtm_journal_verdict (*fn)(const char *name, int fd, void *arg),
			     void *arg);

/* --------------------------------------------------------- measured CPUs */

struct rtm_cpulock;

/**
 * rtm_cpulock_take - announce that this process measures @cpus
 * @exclusive: refuse (-EBUSY, message naming the CPUs and the other
 *             process) when another rtmeasure measures one of them; an
 *             exclusive holder makes later runs refuse too
 *
 * Without @exclusive, CPUs another run measures are shared: listed by
 * rtm_cpulock_shared() and the run goes on. -errno with a message when the
 * lock directory is unusable.
 */
struct rtm_cpulock *rtm_cpulock_take(const struct rtm_cpulist *cpus, bool exclusive,
				     struct rtm_error *err);

/*
 * CPUs that another rtmeasure measured at the same time as this one: the ones
 * it held when we started, and (after rtm_cpulock_poll()) the ones whose
 * lock we hold that a later run joined. @pid: the other process as its lock
 * file names it (in its PID namespace), 0 when unknown. Returns how many.
 */
int rtm_cpulock_shared(const struct rtm_cpulock *l, struct rtm_cpulist *out, long *pid);

/* Look for later runs on the CPUs we hold (one flock() per CPU); true when new ones. */
bool rtm_cpulock_poll(struct rtm_cpulock *l);

/* Drop every lock. Safe on NULL. */
void rtm_cpulock_release(struct rtm_cpulock *l);

#endif
