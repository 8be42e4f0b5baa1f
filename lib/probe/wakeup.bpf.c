// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wakeup.bpf.c - rtmeasure wakeup's BPF programs: the time from a task's
 * wake-up to its switch-in, for the selected tasks, into per-CPU histograms of
 * core/hist.h's layout, per-CPU figures and per-task figures.
 *
 * sched_wakeup and sched_wakeup_new stamp a selected task; sched_switch takes
 * the stamp of the task switched in and counts the wait on that CPU. A task
 * preempted while runnable is not woken when it runs again: that wait is CPU
 * contention, not wake-up latency, and is not counted (runqlat counts it).
 * The stamp of the task switched out is dropped: a wake-up that found its
 * task still running (woken before it slept) ends no wait.
 *
 * Raw tracepoints (tp_btf and fentry need BTF-typed tracing, which not every
 * kernel offers); the task's fields are read through CO-RE (wakeup_core.h).
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "probe/wakeup_core.h"
#include "probe/wakeup_maps.h"
#include "core/hist_layout.h"
#include "probe/wakeup_record.h"

/* Set by the loader before the programs load. */
const volatile __u32 sel_mode = RTM_WK_SEL_POLICY;
const volatile __u32 sel_policies = (1u << 1) | (1u << 2) | (1u << 6);	/* FIFO, RR, DEADLINE */
const volatile __u32 sel_pid;
const volatile char sel_comm[RTM_WK_COMM_LEN];
const volatile __u64 above_ns;
const volatile __u32 nr_cpus = 1;
const volatile __u64 cpu_mask[RTM_WK_MAX_CPUS / 64];

/* The interval counter, stepped by the loader at each interval's end. */
volatile __u64 epoch;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);		/* resized by the loader */
	__type(key, __u32);
	__type(value, __u64);
} wakes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);		/* resized by the loader */
	__type(key, __u32);
	__type(value, struct rtm_wk_task);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, RTM_HIST_NCOUNTS);	/* nr_cpus * RTM_HIST_NCOUNTS */
	__type(key, __u32);
	__type(value, __u64);
} hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);			/* nr_cpus */
	__type(key, __u32);
	__type(value, struct rtm_wk_cpu);
} cpus SEC(".maps");

static __always_inline int comm_matches(const char *comm)
{
	int i;

#pragma unroll
	for (i = 0; i < RTM_WK_COMM_LEN; i++) {
		if (comm[i] != sel_comm[i])
			return 0;
		if (!comm[i])
			return 1;
	}
	return 1;
}

static __always_inline int selected(struct task_struct *p)
{
	char comm[RTM_WK_COMM_LEN];
	__u32 policy;

	switch (sel_mode) {
	case RTM_WK_SEL_PID:
		return (__u32)BPF_CORE_READ(p, tgid) == sel_pid ||
		       (__u32)BPF_CORE_READ(p, pid) == sel_pid;
	case RTM_WK_SEL_COMM:
		BPF_CORE_READ_STR_INTO(&comm, p, comm);
		return comm_matches(comm);
	default:
		policy = BPF_CORE_READ(p, policy);
		return policy < 32 && (sel_policies & (1u << policy));
	}
}

static __always_inline int stamp(struct task_struct *p)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 pid = BPF_CORE_READ(p, pid);

	if (!pid || !selected(p))
		return 0;
	if (bpf_map_update_elem(&wakes, &pid, &now, BPF_ANY)) {
		__u32 cpu = bpf_get_smp_processor_id();
		struct rtm_wk_cpu *c = bpf_map_lookup_elem(&cpus, &cpu);

		if (c)
			c->lost_wakes++;
	}
	return 0;
}

SEC("raw_tracepoint/sched_wakeup")
int rtm_wk_wakeup(struct bpf_raw_tracepoint_args *ctx)
{
	return stamp((struct task_struct *)ctx->args[0]);
}

SEC("raw_tracepoint/sched_wakeup_new")
int rtm_wk_wakeup_new(struct bpf_raw_tracepoint_args *ctx)
{
	return stamp((struct task_struct *)ctx->args[0]);
}

static __always_inline void record_task(struct rtm_wk_cpu *c, struct task_struct *p, __u32 pid,
					__u32 cpu, __u64 lat_ns)
{
	struct rtm_wk_task *t = bpf_map_lookup_elem(&tasks, &pid);

	if (!t) {
		struct rtm_wk_task n = {};

		n.pid = pid;
		n.tgid = BPF_CORE_READ(p, tgid);
		n.policy = BPF_CORE_READ(p, policy);
		n.prio = BPF_CORE_READ(p, prio);
		BPF_CORE_READ_STR_INTO(&n.comm, p, comm);
		if (bpf_map_update_elem(&tasks, &pid, &n, BPF_NOEXIST) == -7 /* E2BIG */) {
			c->lost_tasks++;
			return;
		}
		t = bpf_map_lookup_elem(&tasks, &pid);
		if (!t)
			return;
	}
	/* a thread often sets its policy after its first wake-up: keep the latest */
	t->policy = BPF_CORE_READ(p, policy);
	t->prio = BPF_CORE_READ(p, prio);
	t->count++;
	t->sum_ns += lat_ns;
	if (lat_ns > t->max_ns) {
		t->max_ns = lat_ns;
		t->max_cpu = cpu;
	}
	if (above_ns && lat_ns > above_ns)
		t->above++;
}

SEC("raw_tracepoint/sched_switch")
int rtm_wk_switch(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *prev = (struct task_struct *)ctx->args[1];
	struct task_struct *next = (struct task_struct *)ctx->args[2];
	__u32 pid = BPF_CORE_READ(prev, pid), cpu, idx;
	struct rtm_wk_cpu *c;
	__u64 *woke, lat_ns, *n;

	if (pid)
		bpf_map_delete_elem(&wakes, &pid);
	pid = BPF_CORE_READ(next, pid);
	if (!pid)
		return 0;
	woke = bpf_map_lookup_elem(&wakes, &pid);
	if (!woke)
		return 0;
	lat_ns = bpf_ktime_get_ns() - *woke;
	bpf_map_delete_elem(&wakes, &pid);
	cpu = bpf_get_smp_processor_id();
	if (cpu >= nr_cpus || cpu >= RTM_WK_MAX_CPUS || !(cpu_mask[cpu / 64] & (1ULL << (cpu % 64))))
		return 0;
	c = bpf_map_lookup_elem(&cpus, &cpu);
	if (!c)
		return 0;
	idx = cpu * RTM_HIST_NCOUNTS + rtm_hist_layout_index(lat_ns);
	n = bpf_map_lookup_elem(&hist, &idx);
	if (n)
		(*n)++;
	rtm_wk_record_cpu(c, lat_ns, above_ns, epoch);
	record_task(c, next, pid, cpu, lat_ns);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
