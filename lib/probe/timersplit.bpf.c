// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timersplit.bpf.c - the timer IRQ split of rtmeasure's own timer probe, kept in
 * the kernel: for each sleep of a probe thread, the timer IRQ part (the planned
 * expiry to hrtimer_expire_entry's "now") and the wake-up part (that "now" to
 * the probe thread switched in), each into per-CPU histograms of core/hist.h's
 * layout, with the figures of trace/timerirq.c. The tracefs path pairs the
 * same two timer events in userspace after streaming every one of them; here
 * nothing leaves the kernel but the counters, whatever the run's length.
 *
 * The probe's threads are this process's (own_tgid) threads named rtm-probe/N,
 * which they are before their first sleep; their sleeps are the hrtimers with
 * the handler hrtimer_wakeup (wakeup_fn) that they start in their own context.
 * A probe thread is pinned and an hrtimer expires on the CPU that started it,
 * so a sleep's start, expiry and switch-in all come on one CPU, each with
 * interrupts off: one entry per CPU, written by that CPU alone.
 *
 * An expiry the programs do not see (the kernel did not run them for it: on a
 * busy VM up to about 1 % of them, none counted as a recursion miss, while the
 * tracefs path had them) leaves its start unmatched, as a lost event does
 * there; nothing is guessed for it.
 *
 * Raw tracepoints (tp_btf and fentry need BTF-typed tracing, which not every
 * kernel offers); the hrtimer's and the tasks' fields through CO-RE.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "probe/timersplit_core.h"
#include "probe/bpf_read.h"
#include "probe/timersplit_maps.h"
#include "core/hist_layout.h"
#include "probe/wakeup_record.h"

/* Set by the loader before the programs load. */
const volatile __u32 own_tgid;
const volatile __u64 wakeup_fn;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, RTM_HIST_NCOUNTS);	/* nr_cpus * RTM_HIST_NCOUNTS */
	__type(key, __u32);
	__type(value, __u64);
} irq_hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, RTM_HIST_NCOUNTS);	/* nr_cpus * RTM_HIST_NCOUNTS */
	__type(key, __u32);
	__type(value, __u64);
} wake_hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);			/* nr_cpus */
	__type(key, __u32);
	__type(value, struct rtm_ts_cpu);
} cpus SEC(".maps");

/*
 * The sleepers' addresses the probe threads used: an expiry of one of them
 * without its start is counted (the sleeper lives on the thread's kernel stack,
 * whose offset the kernel randomises per system call: a few dozen addresses).
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, __u8);
} known SEC(".maps");

static __always_inline struct rtm_ts_cpu *this_cpu(__u32 *cpu)
{
	*cpu = bpf_get_smp_processor_id();
	return bpf_map_lookup_elem(&cpus, cpu);
}

static __always_inline void count(void *hist, __u32 cpu, __u64 v_ns)
{
	__u32 idx = cpu * RTM_HIST_NCOUNTS + rtm_hist_layout_index(v_ns);
	__u64 *n = bpf_map_lookup_elem(hist, &idx);

	if (n)
		(*n)++;
}

static __always_inline int is_probe_comm(const char *comm)
{
	const char want[] = RTM_TS_COMM_PREFIX;
	int i;

#pragma unroll
	for (i = 0; i < RTM_TS_COMM_PREFIX_LEN; i++)
		if (comm[i] != want[i])
			return 0;
	return 1;
}

SEC("raw_tracepoint/hrtimer_start")
int rtm_ts_start(struct bpf_raw_tracepoint_args *ctx)
{
	struct hrtimer *t = (struct hrtimer *)ctx->args[0];
	__u64 id = bpf_get_current_pid_tgid(), addr = (__u64)t;
	struct rtm_ts_cpu *c;
	char comm[16];
	__u8 one = 1;
	__u32 cpu;

	if ((__u32)(id >> 32) != own_tgid || (__u64)RTM_RD(t, function) != wakeup_fn)
		return 0;
	bpf_get_current_comm(comm, sizeof(comm));
	if (!is_probe_comm(comm))
		return 0;
	c = this_cpu(&cpu);
	if (!c)
		return 0;
	if (!bpf_map_lookup_elem(&known, &addr))
		bpf_map_update_elem(&known, &addr, &one, BPF_ANY);
	if (c->hrtimer)		/* re-armed or cancelled before it expired */
		c->unmatched_starts++;
	c->hrtimer = addr;
	c->expires_ns = RTM_RD(t, node.expires);
	c->tid = (__u32)id;
	return 0;
}

/* An expiry that is not the armed one's: counted when it is a probe's sleeper. */
static __always_inline void other_expiry(struct rtm_ts_cpu *c, struct hrtimer *t, __u64 addr)
{
	if ((__u64)RTM_RD(t, function) == wakeup_fn && bpf_map_lookup_elem(&known, &addr))
		c->unmatched_expires++;
}

SEC("raw_tracepoint/hrtimer_expire_entry")
int rtm_ts_expire(struct bpf_raw_tracepoint_args *ctx)
{
	struct hrtimer *t = (struct hrtimer *)ctx->args[0];
	__u64 addr = (__u64)t, irq;
	struct rtm_ts_cpu *c;
	__s64 now = 0;
	__u32 cpu;

	c = this_cpu(&cpu);
	if (!c || !c->tid)		/* no probe thread ever slept on this CPU */
		return 0;
	if (addr != c->hrtimer) {
		other_expiry(c, t, addr);
		return 0;
	}
	c->hrtimer = 0;
	bpf_probe_read_kernel(&now, sizeof(now), (const void *)ctx->args[1]);
	if (now < c->expires_ns) {
		c->early++;
		return 0;
	}
	if (c->expired_ns)		/* the last expiry's thread never switched in */
		c->unswitched++;
	irq = (__u64)(now - c->expires_ns);
	count(&irq_hist, cpu, irq);
	rtm_wk_record_cpu(&c->irq, irq, 0, 0);
	c->expired_ns = (__u64)now;
	c->irq_ns = irq;
	return 0;
}

SEC("raw_tracepoint/sched_switch")
int rtm_ts_switch(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *prev = (struct task_struct *)ctx->args[1];
	struct task_struct *next = (struct task_struct *)ctx->args[2];
	struct rtm_ts_cpu *c;
	__u64 now, wake;
	__u32 cpu;

	c = this_cpu(&cpu);
	if (!c || !c->expired_ns)	/* most switches: no probe woken here */
		return 0;
	if ((__u32)RTM_RD(next, pid) != c->tid) {
		/* woken while it still ran: it goes to sleep again without a switch-in */
		if ((__u32)RTM_RD(prev, pid) == c->tid) {
			c->unswitched++;
			c->expired_ns = 0;
		}
		return 0;
	}
	now = bpf_ktime_get_ns();
	wake = now > c->expired_ns ? now - c->expired_ns : 0;
	count(&wake_hist, cpu, wake);
	rtm_wk_record_cpu(&c->wake, wake, 0, 0);
	if (c->irq_ns + wake > c->max_ns) {
		c->max_ns = c->irq_ns + wake;
		c->max_irq_ns = c->irq_ns;
		c->max_wake_ns = wake;
	}
	c->expired_ns = 0;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
