/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rt.h - real-time thread set-up: policy and priority, affinity, memory locking,
 * /dev/cpu_dma_latency, RT throttling.
 *
 * Everything acts on the calling thread unless said otherwise. Errors the user
 * can cause (missing CAP_SYS_NICE or CAP_IPC_LOCK, a priority out of range, a CPU
 * that is offline) come back as -errno with a one-line message naming the fix.
 */
#ifndef RTM_RT_H
#define RTM_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "core/error.h"

enum rtm_policy {
	RTM_POLICY_OTHER,
	RTM_POLICY_FIFO,
	RTM_POLICY_RR,
	RTM_POLICY_DEADLINE,
	RTM_POLICY_BATCH,
	RTM_POLICY_IDLE,
};

struct rtm_sched {
	enum rtm_policy policy;
	int priority;			/* 1..99 for FIFO/RR; nice value for OTHER/BATCH */
	uint64_t dl_runtime_ns;		/* DEADLINE only */
	uint64_t dl_deadline_ns;
	uint64_t dl_period_ns;
};

const char *rtm_policy_name(enum rtm_policy p);

/* The policy of SCHED_* number @kpolicy; false (and OTHER) when rtmeasure has none for it. */
bool rtm_policy_of_kpolicy(int kpolicy, enum rtm_policy *p);

/**
 * rtm_sched_parse - parse a policy name: "fifo", "rr", "other", "batch", "idle",
 * or "deadline:RUNTIME:DEADLINE:PERIOD" with durations like 100us:1ms:1ms
 *
 * Sets @s->policy (and the deadline parameters); leaves @s->priority alone.
 */
int rtm_sched_parse(const char *str, struct rtm_sched *s, struct rtm_error *err);

/* Check ranges (priority 1..99 for FIFO/RR, runtime <= deadline <= period, ...). */
int rtm_sched_validate(const struct rtm_sched *s, struct rtm_error *err);

/*
 * Apply to the calling thread (sched_setattr). EPERM names CAP_SYS_NICE and how
 * to get it; a caller that can do without RT adds that way itself.
 */
int rtm_sched_apply(const struct rtm_sched *s, struct rtm_error *err);
/* The same for thread @tid (0: the calling thread), e.g. the timerlat/N kthreads. */
int rtm_sched_apply_tid(pid_t tid, const struct rtm_sched *s, struct rtm_error *err);

/*
 * Read the scheduling of thread @tid (0: the calling thread) with sched_getattr;
 * priority holds the nice value for OTHER/BATCH/IDLE.
 */
int rtm_sched_get(pid_t tid, struct rtm_sched *s, struct rtm_error *err);

/* Pin the calling thread to @cpu. */
int rtm_affinity_set(int cpu, struct rtm_error *err);

struct rtm_cpulist;

/**
 * rtm_cpus_pinnable - the CPUs of @online a thread of this process may be
 * pinned to, asked of the kernel (sched_setaffinity) from a short-lived
 * thread, so the caller's own affinity is untouched. This is the process's
 * cpuset, not its inherited affinity mask: CPUs taken out of the default
 * mask by isolcpus= are included, which is where real-time work is measured.
 * @out is allocated; free it with rtm_cpulist_release().
 *
 * Returns 0 or -errno with a message in @err.
 */
int rtm_cpus_pinnable(const struct rtm_cpulist *online, struct rtm_cpulist *out,
		      struct rtm_error *err);

/**
 * rtm_memory_lock - mlockall(MCL_CURRENT | MCL_FUTURE), then prefault
 * @heap_bytes of heap so later allocations do not fault. EPERM/ENOMEM name
 * CAP_IPC_LOCK and RLIMIT_MEMLOCK.
 */
int rtm_memory_lock(size_t heap_bytes, struct rtm_error *err);
void rtm_memory_unlock(void);

/* Touch @bytes of the calling thread's stack so it is resident (call early). */
void rtm_stack_prefault(size_t bytes);

/**
 * rtm_dma_latency_hold - open /dev/cpu_dma_latency and write @us
 *
 * Returns the file descriptor to keep open while measuring (the request lasts
 * as long as it is open) or -errno with a message.
 */
int rtm_dma_latency_hold(int32_t us, struct rtm_error *err);
void rtm_dma_latency_release(int fd);

/*
 * The limit the kernel enforces now: a read of /dev/cpu_dma_latency returns the
 * aggregate of all requests as a binary int32 (2000000000 when there is none).
 */
int rtm_dma_latency_current(int32_t *us, struct rtm_error *err);

/**
 * rtm_rt_privileges - pre-flight check before starting RT threads
 * @s: the scheduling the threads will use
 * @lock_memory: whether mlockall will be called
 *
 * Tries the operations on a short-lived thread and reports the first missing
 * privilege, -EPERM: "SCHED_FIFO priority 95 needs CAP_SYS_NICE: run as root,
 * or setcap cap_sys_nice,cap_ipc_lock+ep on rtmeasure".
 */
int rtm_rt_privileges(const struct rtm_sched *s, bool lock_memory, struct rtm_error *err);

/* RT throttling as the kernel has it now; -1 runtime means off. */
int rtm_rt_throttling(const char *root, int64_t *runtime_us, int64_t *period_us);

/* JSON of the scheduling settings, as recorded in a result's options. */
json_t *rtm_sched_to_json(const struct rtm_sched *s);

#endif
