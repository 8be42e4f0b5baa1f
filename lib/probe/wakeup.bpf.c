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
 * A wake-up that found its task still running (woken before it slept) ends
 * no wait: its stamp is dropped at that task's next switch-out.
 *
 * The cost is in sched_switch, which runs for every task: the stamps are in an
 * array indexed by a hash of the task's address, which the tracepoint passes,
 * so the switch neither reads the task (each read is a helper call) nor does a
 * hash-map operation; and while no selected task waits on its CPU (most of the
 * time) it reads that CPU's counter and returns. While one waits, a counting
 * filter of the tasks waiting there, beside that counter, spares most switches
 * (those of other tasks) the look-up of a slot, a line far away in a large
 * array. Counter and filter are the CPU's own lines (cstate): a stamp on
 * another CPU does not make this one's switches miss, and a migration of a
 * waiting task (sched_migrate_task) moves its count to its new CPU. What
 * sched_wakeup needs to pass over a task it does not measure is read-only data.
 * While a selected task waits on a CPU, that CPU keeps the longest run of another task and the
 * interrupt handlers' time (cstate); a wait over the bound gets its cause from
 * them and goes to userspace through a ring buffer, at a bounded rate.
 *
 * Raw tracepoints (tp_btf and fentry need BTF-typed tracing, which not every
 * kernel offers); the task's fields are read through CO-RE (wakeup_core.h).
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "probe/wakeup_core.h"
#include "probe/bpf_read.h"
#include "probe/wakeup_maps.h"
#include "core/hist_layout.h"
#include "probe/wakeup_record.h"

/*
 * Set by the loader before the programs load: the verifier sees them as
 * constants, so a program keeps only the code of the selection made.
 */
const volatile __u32 sel_mode;			/* enum rtm_wk_sel */
const volatile __u32 sel_policies;		/* RTM_WK_SEL_POLICY: the SCHED_* bits */
const volatile __u32 sel_pid;			/* RTM_WK_SEL_PID: the process or thread */
const volatile __u32 wake_mask = 8191;		/* the slots of "wakes", less one */
const volatile char sel_comm[RTM_WK_COMM_LEN];
const volatile __u64 above_ns;
const volatile __u32 nr_cpus = 1;
const volatile __u64 cpu_mask[RTM_WK_MAX_CPUS / 64];
const volatile __u64 cause_cost_ns = 1000000000ULL / RTM_WK_CAUSE_RATE;

/* The interval counter, stepped by the loader at each interval's end. */
volatile __u64 epoch;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8192);		/* wake_mask + 1, set by the loader */
	__type(key, __u32);
	__type(value, struct rtm_wk_wake);
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

/* mapped to pages (never by userspace), so that each CPU's entry begins a cache line */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);			/* nr_cpus */
	__type(key, __u32);
	__type(value, struct rtm_wk_cstate);
} cstate SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);		/* resized by the loader */
} causes SEC(".maps");

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

/*
 * Whether @p is measured: one read of it for a task that is not. The policy,
 * when read, in *@policy (else -1).
 */
static __always_inline int selected(struct task_struct *p, __s32 *policy)
{
	char comm[RTM_WK_COMM_LEN];
	__u32 pol;

	*policy = -1;
	switch (sel_mode) {
	case RTM_WK_SEL_PID:
		return (__u32)RTM_RD(p, tgid) == sel_pid ||
		       (__u32)RTM_RD(p, pid) == sel_pid;
	case RTM_WK_SEL_COMM:
		RTM_RD_STR(&comm, p, comm);
		return comm_matches(comm);
	default:
		pol = RTM_RD(p, policy);
		*policy = (__s32)pol;
		return pol < 32 && (sel_policies & (1u << pol));
	}
}

/* The slot of task @p in "wakes". */
static __always_inline __u32 slot_of(const void *p)
{
	return rtm_wk_slot_of((__u64)p, wake_mask);
}

static __always_inline struct rtm_wk_cstate *cstate_of(__u32 cpu)
{
	return bpf_map_lookup_elem(&cstate, &cpu);
}

static __always_inline void count_lost_wake(void)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct rtm_wk_cpu *c = bpf_map_lookup_elem(&cpus, &cpu);

	if (c)
		__sync_fetch_and_add(&c->lost_wakes, 1);
}

/*
 * A task @task waits on CPU @cpu (@t) from @now: its count there up. The
 * first to wait starts the CPU's account of who runs (account_prev()): the
 * running task's time counts from now, less the handlers' from now; which
 * task that is, is known when this runs on that CPU (the task it interrupted
 * or that woke it).
 */
static __always_inline void wait_on(struct rtm_wk_cstate *t, __u32 cpu, __u64 task, __u64 now)
{
	rtm_wk_filter_add(t->filter, task, 1);
	if (t->nwait <= 0) {
		t->since_ns = now;
		t->curr_start_ns = now;
		t->curr_h0_ns = t->irq_ns + t->softirq_ns;
		t->curr_task = bpf_get_smp_processor_id() == cpu ? bpf_get_current_task() : 0;
	}
	__sync_fetch_and_add(&t->nwait, 1);
}

/* The stamp of @task no longer waits on CPU @cpu: its count there down. */
static __always_inline void unwait(__u32 cpu, __u64 task)
{
	struct rtm_wk_cstate *t = cstate_of(cpu);

	if (!t)
		return;
	__sync_fetch_and_add(&t->nwait, -1);
	rtm_wk_filter_add(t->filter, task, -1);
}

/* The end of a pending wake-up's stamp: its slot emptied, the counts down. */
static __always_inline void unstamp(struct rtm_wk_wake *w)
{
	w->wake_ns = 0;
	unwait(w->target_cpu, w->task);
}

/* The stamp of a selected task @p (its policy, when read, in @policy). */
static __noinline int stamp_selected(struct task_struct *p, __s32 policy)
{
	__u32 pid, target, idx;
	struct rtm_wk_cstate *t;
	struct rtm_wk_wake *w;
	__u64 now;

	if (!p)
		return 0;
	pid = RTM_RD(p, pid);
	if (!pid)
		return 0;
	idx = slot_of(p);
	w = bpf_map_lookup_elem(&wakes, &idx);
	target = RTM_RD(p, thread_info.cpu);
	t = cstate_of(target);
	if (!w || !t)
		return 0;
	if (w->wake_ns) {
		/* still pending: this task woken twice, or another task's slot */
		unwait(w->target_cpu, w->task);
		if (w->task != (__u64)p)
			count_lost_wake();
	}
	now = bpf_ktime_get_ns();
	w->task = (__u64)p;
	w->pid = pid;
	/* a thread often sets its policy after its first wake-up: the latest */
	w->policy = policy >= 0 ? policy : (__s32)RTM_RD(p, policy);
	w->prio = RTM_RD(p, prio);
	w->target_cpu = target;
	w->woken_cpu = target;
	w->waker_cpu = bpf_get_smp_processor_id();
	w->irq0_ns = t->irq_ns;
	w->softirq0_ns = t->softirq_ns;
	w->moved.end_ns = 0;
	/* the filter counts it before its stamp is whole: see rtm_wk_filter_add() */
	wait_on(t, target, (__u64)p, now);
	w->wake_ns = now;
	return 0;
}

/*
 * A task not selected costs the check only: the rest is a subprogram, so that
 * the check's code and its return are a few lines apart, not a whole program.
 */
static __always_inline int stamp(struct task_struct *p)
{
	__s32 policy;

	if (!selected(p, &policy))
		return 0;
	return stamp_selected(p, policy);
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

/*
 * The handlers' time is counted only while a selected task waits on the CPU;
 * without a bound these programs are not loaded.
 */
SEC("raw_tracepoint/irq_handler_entry")
int rtm_wk_irq_entry(struct bpf_raw_tracepoint_args *ctx)
{
	struct rtm_wk_cstate *s = cstate_of(bpf_get_smp_processor_id());

	if (s && s->nwait > 0)
		s->irq_t0 = bpf_ktime_get_ns();
	return 0;
}

SEC("raw_tracepoint/irq_handler_exit")
int rtm_wk_irq_exit(struct bpf_raw_tracepoint_args *ctx)
{
	struct rtm_wk_cstate *s = cstate_of(bpf_get_smp_processor_id());
	__u64 now;

	if (!s || !s->irq_t0)
		return 0;
	now = bpf_ktime_get_ns();
	if (now > s->irq_t0)
		s->irq_ns += now - s->irq_t0;
	s->irq_t0 = 0;
	return 0;
}

SEC("raw_tracepoint/softirq_entry")
int rtm_wk_softirq_entry(struct bpf_raw_tracepoint_args *ctx)
{
	struct rtm_wk_cstate *s = cstate_of(bpf_get_smp_processor_id());

	if (s && s->nwait > 0) {
		s->softirq_t0 = bpf_ktime_get_ns();
		s->softirq_irq0 = s->irq_ns;
	}
	return 0;
}

SEC("raw_tracepoint/softirq_exit")
int rtm_wk_softirq_exit(struct bpf_raw_tracepoint_args *ctx)
{
	struct rtm_wk_cstate *s = cstate_of(bpf_get_smp_processor_id());
	__u64 now, run, nested;

	if (!s || !s->softirq_t0)
		return 0;
	now = bpf_ktime_get_ns();
	run = now > s->softirq_t0 ? now - s->softirq_t0 : 0;
	nested = s->irq_ns - s->softirq_irq0;	/* hard interrupts inside it: theirs */
	if (run > nested)
		s->softirq_ns += run - nested;
	s->softirq_t0 = 0;
	return 0;
}

static __always_inline void record_task(struct rtm_wk_cpu *c, struct task_struct *p,
					const struct rtm_wk_wake *w, __u32 cpu, __u64 lat_ns)
{
	__u32 pid = w->pid;
	struct rtm_wk_task *t = bpf_map_lookup_elem(&tasks, &pid);

	if (!t) {
		struct rtm_wk_task n = {};

		n.pid = pid;
		n.tgid = RTM_RD(p, tgid);
		RTM_RD_STR(&n.comm, p, comm);
		if (bpf_map_update_elem(&tasks, &pid, &n, BPF_NOEXIST) == -7 /* E2BIG */) {
			c->lost_tasks++;
			return;
		}
		t = bpf_map_lookup_elem(&tasks, &pid);
		if (!t)
			return;
	}
	t->policy = w->policy;
	t->prio = w->prio;
	t->count++;
	t->sum_ns += lat_ns;
	if (lat_ns > t->max_ns) {
		t->max_ns = lat_ns;
		t->max_cpu = cpu;
	}
	if (above_ns && lat_ns > above_ns)
		t->above++;
}

/* When the running task's time in the present waits began: its switch-in, or since_ns. */
static __always_inline __u64 run_from(const struct rtm_wk_cstate *s)
{
	return s->curr_start_ns > s->since_ns ? s->curr_start_ns : s->since_ns;
}

/* The running task's own time from @from to @now: less the handlers' since curr_h0_ns. */
static __always_inline __u64 run_own_ns(const struct rtm_wk_cstate *s, __u64 from, __u64 now)
{
	__u64 h = s->irq_ns + s->softirq_ns, own = now > from ? now - from : 0;
	__u64 hd = h > s->curr_h0_ns ? h - s->curr_h0_ns : 0;

	return own > hd ? own - hd : 0;
}

/* Run [@from, @now] of task @p (@pid), @own of it its own, into @t. */
static __always_inline void top_set(struct rtm_wk_top *t, struct task_struct *p, __u32 pid,
				    __u64 from, __u64 now, __u64 own)
{
	t->pid = pid;
	t->policy = RTM_RD(p, policy);
	t->prio = RTM_RD(p, prio);
	RTM_RD_STR(&t->comm, p, comm);
	t->start_ns = from;
	t->end_ns = now;
	t->own_ns = own;
}

/*
 * The task switched out ran from curr_start_ns (or since_ns, when later) to
 * @now: its own time, less the handlers', becomes the CPU's longest run when
 * it is longer than the one kept, or that one is of an earlier wait.
 */
static __always_inline void account_prev(struct rtm_wk_cstate *s, struct task_struct *prev,
					 struct task_struct *next, __u64 now)
{
	__u64 from = run_from(s), own = run_own_ns(s, from, now);
	__u32 pid;

	s->curr_start_ns = now;
	s->curr_h0_ns = s->irq_ns + s->softirq_ns;
	s->curr_task = (__u64)next;
	if ((s->top.end_ns >= s->since_ns && own <= s->top.own_ns) ||
	    s->idle_task == (__u64)prev)
		return;
	pid = RTM_RD(prev, pid);
	if (!pid) {
		s->idle_task = (__u64)prev;	/* the idle task holds nobody up */
		return;
	}
	top_set(&s->top, prev, pid, from, now, own);
}

/*
 * The part of run @t inside the wait from @wake_ns (0: none), when it is of
 * the CPU's present waits (from @since_ns on).
 */
static __always_inline __u64 top_within(const struct rtm_wk_top *t, __u64 since_ns,
					__u64 wake_ns)
{
	__u64 in;

	if (t->end_ns <= wake_ns || t->end_ns < since_ns)
		return 0;
	in = t->end_ns - (t->start_ns > wake_ns ? t->start_ns : wake_ns);
	return in < t->own_ns ? in : t->own_ns;
}

/* A wait over the bound: its cause to userspace, within the CPU's rate. */
static __always_inline void send_cause(struct rtm_wk_cpu *c, struct rtm_wk_cstate *s,
				       struct rtm_wk_wake *w, struct task_struct *p,
				       __u32 cpu, __u64 now, __u64 lat_ns)
{
	struct rtm_wk_cstate *t = s;
	struct rtm_wk_cause_rec *r;
	struct rtm_wk_top *top;
	__u64 task_ns, moved_ns;

	if (w->woken_cpu != cpu)
		t = cstate_of(w->woken_cpu);
	if (!rtm_wk_take_token(&s->tb_credit_ns, &s->tb_last_ns, now, cause_cost_ns,
			       cause_cost_ns * RTM_WK_CAUSE_BURST)) {
		c->causes_limited++;
		return;
	}
	r = bpf_ringbuf_reserve(&causes, sizeof(*r), 0);
	if (!r) {
		c->causes_full++;
		return;
	}
	__builtin_memset(r, 0, sizeof(*r));
	/* the longest here, or on a CPU it left while it waited */
	task_ns = top_within(&s->top, s->since_ns, w->wake_ns);
	moved_ns = top_within(&w->moved, 0, w->wake_ns);
	top = moved_ns > task_ns ? &w->moved : &s->top;
	if (moved_ns > task_ns)
		task_ns = moved_ns;
	if (task_ns) {
		r->top_pid = top->pid;
		r->top_policy = top->policy;
		r->top_prio = top->prio;
		__builtin_memcpy(r->top_comm, top->comm, sizeof(r->top_comm));
	}
	r->wake_ns = w->wake_ns;
	r->lat_ns = lat_ns;
	r->task_ns = task_ns;
	if (t) {
		r->irq_ns = t->irq_ns - w->irq0_ns;
		r->softirq_ns = t->softirq_ns - w->softirq0_ns;
	}
	r->pid = w->pid;
	r->tgid = RTM_RD(p, tgid);
	r->policy = w->policy;
	r->prio = w->prio;
	RTM_RD_STR(&r->comm, p, comm);
	r->cpu = cpu;
	r->target_cpu = w->woken_cpu;
	r->waker_cpu = w->waker_cpu;
	r->flags = (w->waker_cpu != w->woken_cpu ? RTM_WK_REMOTE : 0) |
		   (w->woken_cpu != cpu ? RTM_WK_MIGRATED : 0);
	r->cause = rtm_wk_cause_of(lat_ns, task_ns, r->irq_ns, r->softirq_ns);
	bpf_ringbuf_submit(r, 0);
	c->causes_sent++;
}

/* The wait of @next ends on this CPU: into its histogram and figures. */
static __always_inline void end_wait(struct rtm_wk_cstate *s, struct rtm_wk_wake *w,
				     struct task_struct *next, __u32 cpu, __u64 now)
{
	__u64 lat_ns = now - w->wake_ns, *n;
	struct rtm_wk_cpu *c;
	__u32 idx;

	if (cpu >= nr_cpus || cpu >= RTM_WK_MAX_CPUS || !(cpu_mask[cpu / 64] & (1ULL << (cpu % 64))))
		return;
	c = bpf_map_lookup_elem(&cpus, &cpu);
	if (!c)
		return;
	idx = cpu * RTM_HIST_NCOUNTS + rtm_hist_layout_index(lat_ns);
	n = bpf_map_lookup_elem(&hist, &idx);
	if (n)
		(*n)++;
	rtm_wk_record_cpu(c, lat_ns, above_ns, epoch);
	record_task(c, next, w, cpu, lat_ns);
	if (above_ns && lat_ns > above_ns)
		send_cause(c, s, w, next, cpu, now, lat_ns);
}

/* The switch while a selected task waits on this CPU (a subprogram: see stamp()). */
static __noinline int switch_waiting(struct rtm_wk_cstate *s, __u32 cpu,
				     struct task_struct *prev, struct task_struct *next)
{
	struct rtm_wk_wake *w;
	__u64 now = 0;
	__u32 idx;

	if (!s)
		return 0;
	/*
	 * The task switched out was in its slot only if woken while it still ran
	 * (a switch-in ends a stamp): that wake-up ended no wait.
	 */
	if (rtm_wk_filter_may(s->filter, (__u64)prev)) {
		idx = slot_of(prev);
		w = bpf_map_lookup_elem(&wakes, &idx);
		if (w && w->task == (__u64)prev && w->wake_ns)
			unstamp(w);
	}
	if (above_ns && s->nwait > 0) {		/* the causes: only with a bound */
		now = bpf_ktime_get_ns();
		account_prev(s, prev, next, now);
	}
	if (!rtm_wk_filter_may(s->filter, (__u64)next))
		return 0;
	idx = slot_of(next);
	w = bpf_map_lookup_elem(&wakes, &idx);
	if (!w || w->task != (__u64)next || !w->wake_ns)
		return 0;
	if (!now)
		now = bpf_ktime_get_ns();
	if (now > w->wake_ns)
		end_wait(s, w, next, cpu, now);
	unstamp(w);
	return 0;
}

SEC("raw_tracepoint/sched_switch")
int rtm_wk_switch(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct rtm_wk_cstate *s = cstate_of(cpu);

	if (!s || s->nwait <= 0)
		return 0;
	return switch_waiting(s, cpu, (struct task_struct *)ctx->args[1],
			      (struct task_struct *)ctx->args[2]);
}

/*
 * The run of the task the CPU of @s runs (when known), inside the wait of @w
 * so far, into w->moved when longer than the run kept there.
 */
static __always_inline void running_top(struct rtm_wk_cstate *s, __u64 now,
					struct rtm_wk_wake *w)
{
	struct task_struct *cur = (struct task_struct *)s->curr_task;
	__u64 from = run_from(s), own;
	__u32 pid;

	if (!cur || cur == (struct task_struct *)w->task)
		return;
	if (from < w->wake_ns)
		from = w->wake_ns;
	own = run_own_ns(s, from, now);
	if (own <= top_within(&w->moved, 0, w->wake_ns))
		return;
	pid = RTM_RD(cur, pid);
	if (!pid)
		return;
	top_set(&w->moved, cur, pid, from, now, own);
}

/* A waiting task moved (a subprogram: see stamp()): its stamp goes with it. */
static __noinline int migrate_waiting(struct rtm_wk_cstate *s, struct task_struct *p,
				      __u32 from, __u32 to)
{
	struct rtm_wk_cstate *d = cstate_of(to);
	struct rtm_wk_wake *w;
	__u32 idx = slot_of(p);
	__u64 now;

	w = bpf_map_lookup_elem(&wakes, &idx);
	if (!s || !d || !w || w->task != (__u64)p || !w->wake_ns || w->target_cpu != from)
		return 0;
	now = bpf_ktime_get_ns();
	/*
	 * What held it up where it leaves, when the longest of its wait so far:
	 * a run that ended there, or the one still going (the mover holds that
	 * CPU's queue: neither changes meanwhile).
	 */
	if (top_within(&s->top, s->since_ns, w->wake_ns) > top_within(&w->moved, 0, w->wake_ns))
		__builtin_memcpy(&w->moved, &s->top, sizeof(w->moved));
	running_top(s, now, w);
	wait_on(d, to, (__u64)p, now);
	w->target_cpu = to;
	unwait(from, (__u64)p);
	return 0;
}

/*
 * A task's move to another CPU: a waiting task's count moves to the CPU it
 * will run on, whose switches then look for it. Most moves are of tasks that
 * do not wait measured: one read of the task and of its CPU's counter.
 */
SEC("raw_tracepoint/sched_migrate_task")
int rtm_wk_migrate(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *p = (struct task_struct *)ctx->args[0];
	__u32 to = (__u32)ctx->args[1], from = RTM_RD(p, thread_info.cpu);
	struct rtm_wk_cstate *s = cstate_of(from);

	if (!s || s->nwait <= 0 || from == to || !rtm_wk_filter_may(s->filter, (__u64)p))
		return 0;
	return migrate_waiting(s, p, from, to);
}

char LICENSE[] SEC("license") = "GPL";
