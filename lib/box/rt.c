// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rt.c - real-time thread set-up: policy and priority (sched_setattr for every
 * policy, SCHED_DEADLINE included), affinity, memory locking,
 * /dev/cpu_dma_latency and RT throttling.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#include "core/fileio.h"
#include "core/task.h"
#include "box/rt.h"
#include "core/units.h"

/* glibc < 2.41 has no sched_setattr() wrapper: the kernel's struct, version 0 (48 bytes). */
struct rtm_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

#define RTM_SCHED_ATTR_SIZE_VER0	48
#define RTM_DL_MIN_RUNTIME_NS		1024ULL	/* the kernel's 1 << DL_SCALE */
#define RTM_DL_MAX_NS			(1ULL << 63)
#define RTM_PRIO_MIN			1
#define RTM_PRIO_MAX			99
#define RTM_NICE_MIN			-20
#define RTM_NICE_MAX			19
#define RTM_STACK_PREFAULT_MAX		(1024 * 1024)
#define RTM_DMA_LATENCY_DEV		"/dev/cpu_dma_latency"

/* glibc's defaults, restored by rtm_memory_unlock() */
#define RTM_GLIBC_TRIM_THRESHOLD	(128 * 1024)
#define RTM_GLIBC_MMAP_MAX		65536

/*
 * How to get the privilege. Whether the caller can do without it (the measuring
 * commands' --no-rt; guard cannot) is the caller's to add.
 */
#define RTM_FIX_PRIV "run as root, or setcap cap_sys_nice,cap_ipc_lock+ep on rtmeasure"

/* rtmeasure's policies and the kernel's numbers; their names are core/task.c's */
static const struct {
	enum rtm_policy policy;
	int kpolicy;
} policies[] = {
	{ RTM_POLICY_OTHER, SCHED_OTHER },
	{ RTM_POLICY_FIFO, SCHED_FIFO },
	{ RTM_POLICY_RR, SCHED_RR },
	{ RTM_POLICY_DEADLINE, SCHED_DEADLINE },
	{ RTM_POLICY_BATCH, SCHED_BATCH },
	{ RTM_POLICY_IDLE, SCHED_IDLE },
};

#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

static int policy_index(enum rtm_policy p)
{
	size_t i;

	for (i = 0; i < NPOLICIES; i++)
		if (policies[i].policy == p)
			return (int)i;
	return -1;
}

/**
 * rtm_policy_name - short lower-case name of a policy, as rtm_sched_parse() takes it
 * @p: the policy
 *
 * Returns "fifo", "rr", "other", "batch", "idle", "deadline", or "unknown".
 */
const char *rtm_policy_name(enum rtm_policy p)
{
	int i = policy_index(p);

	return i < 0 ? "unknown" : rtm_kpolicy_str(policies[i].kpolicy, RTM_KPOLICY_LOWER);
}

static const char *policy_kname(enum rtm_policy p)
{
	int i = policy_index(p);

	return i < 0 ? "unknown policy" : rtm_kpolicy_str(policies[i].kpolicy, RTM_KPOLICY_SCHED);
}

/**
 * rtm_policy_of_kpolicy - rtmeasure's policy of a SCHED_* number
 * @kpolicy: the kernel's number (/proc/PID/stat field 41, sched_getattr)
 * @p: set to the policy; RTM_POLICY_OTHER when it returns false
 *
 * Returns false for a number rtmeasure has no policy for (SCHED_EXT and
 * whatever comes next).
 */
bool rtm_policy_of_kpolicy(int kpolicy, enum rtm_policy *p)
{
	size_t i;

	for (i = 0; i < NPOLICIES; i++)
		if (policies[i].kpolicy == kpolicy) {
			*p = policies[i].policy;
			return true;
		}
	*p = RTM_POLICY_OTHER;
	return false;
}

static bool is_rt(enum rtm_policy p)
{
	return p == RTM_POLICY_FIFO || p == RTM_POLICY_RR;
}

static bool is_fair(enum rtm_policy p)
{
	return p == RTM_POLICY_OTHER || p == RTM_POLICY_BATCH;
}

/* "SCHED_FIFO priority 95", "SCHED_OTHER nice -5", "SCHED_DEADLINE 100 us/1.00 ms/1.00 ms" */
static char *describe(char *buf, size_t len, const struct rtm_sched *s)
{
	char r[32], d[32], p[32];

	if (is_rt(s->policy))
		snprintf(buf, len, "%s priority %d", policy_kname(s->policy), s->priority);
	else if (is_fair(s->policy))
		snprintf(buf, len, "%s nice %d", policy_kname(s->policy), s->priority);
	else if (s->policy == RTM_POLICY_DEADLINE)
		snprintf(buf, len, "SCHED_DEADLINE runtime %s, deadline %s, period %s",
			 rtm_fmt_ns(r, sizeof(r), s->dl_runtime_ns),
			 rtm_fmt_ns(d, sizeof(d), s->dl_deadline_ns),
			 rtm_fmt_ns(p, sizeof(p), s->dl_period_ns));
	else
		snprintf(buf, len, "%s", policy_kname(s->policy));
	return buf;
}

/* Is @cap in the effective set of the calling thread? */
static bool have_cap(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) != 0)
		return false;
	return (data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap)) != 0;
}

static int check_deadline(const struct rtm_sched *s, const char *str, struct rtm_error *err)
{
	char a[32], b[32], ctx[160] = "";

	if (str)
		snprintf(ctx, sizeof(ctx), " in '%.120s'", str);
	if (s->dl_runtime_ns < RTM_DL_MIN_RUNTIME_NS)
		return rtm_error_set(err, "SCHED_DEADLINE runtime %s%s is too short: use at least "
				     "%llu ns (like deadline:100us:1ms:1ms)",
				     rtm_fmt_ns(a, sizeof(a), s->dl_runtime_ns), ctx,
				     RTM_DL_MIN_RUNTIME_NS);
	if (s->dl_period_ns >= RTM_DL_MAX_NS || s->dl_deadline_ns >= RTM_DL_MAX_NS)
		return rtm_error_set(err, "SCHED_DEADLINE period%s is too long: use a few ms "
				     "(like deadline:100us:1ms:1ms)", ctx);
	if (s->dl_runtime_ns > s->dl_deadline_ns)
		return rtm_error_set(err, "SCHED_DEADLINE runtime %s exceeds the deadline %s%s "
				     "(RUNTIME <= DEADLINE <= PERIOD, like deadline:100us:1ms:1ms)",
				     rtm_fmt_ns(a, sizeof(a), s->dl_runtime_ns),
				     rtm_fmt_ns(b, sizeof(b), s->dl_deadline_ns), ctx);
	if (s->dl_deadline_ns > s->dl_period_ns)
		return rtm_error_set(err, "SCHED_DEADLINE deadline %s exceeds the period %s%s "
				     "(RUNTIME <= DEADLINE <= PERIOD, like deadline:100us:1ms:1ms)",
				     rtm_fmt_ns(a, sizeof(a), s->dl_deadline_ns),
				     rtm_fmt_ns(b, sizeof(b), s->dl_period_ns), ctx);
	return 0;
}

#define SCHED_FORMS "fifo, rr, other, batch, idle or deadline:RUNTIME:DEADLINE:PERIOD " \
		    "(like deadline:100us:1ms:1ms)"

/**
 * rtm_sched_parse - parse a scheduling policy
 * @str: "fifo", "rr", "other", "batch", "idle" or "deadline:RUNTIME:DEADLINE:PERIOD"
 *	 (latencies as rtm_parse_latency_ns() takes them); case does not matter
 * @s: filled in: policy and, for deadline, the three parameters (zero otherwise);
 *     the priority is left alone
 * @err: one-line message on failure, may be NULL
 *
 * Returns 0, or -EINVAL with a message naming the accepted forms.
 */
int rtm_sched_parse(const char *str, struct rtm_sched *s, struct rtm_error *err)
{
	static const char *const dl_parts[] = { "runtime", "deadline", "period" };
	char low[128], *p, *field;
	uint64_t val[3];
	struct rtm_sched t;
	size_t i, n;
	int ret, kp;

	if (!str || !*str)
		return rtm_error_set(err, "empty scheduling policy (use " SCHED_FORMS ")");
	n = strlen(str);
	if (n >= sizeof(low))
		return rtm_error_set(err, "scheduling policy '%.40s...' is too long (use "
				     SCHED_FORMS ")", str);
	for (i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)str[i]);

	t = *s;
	t.dl_runtime_ns = t.dl_deadline_ns = t.dl_period_ns = 0;
	kp = rtm_kpolicy_parse(low, RTM_KPOLICY_LOWER);
	if (kp != SCHED_DEADLINE && rtm_policy_of_kpolicy(kp, &t.policy)) {
		*s = t;
		return 0;
	}
	if (strncmp(low, "deadline", 8) != 0 || (low[8] != ':' && low[8] != '\0'))
		return rtm_error_set(err, "unknown scheduling policy '%s' (use " SCHED_FORMS ")",
				     str);
	if (low[8] == '\0')
		return rtm_error_set(err, "deadline needs its parameters: write "
				     "deadline:RUNTIME:DEADLINE:PERIOD, like "
				     "deadline:100us:1ms:1ms");

	p = low + 9;
	for (i = 0; i < 3; i++) {
		field = p;
		p = strchr(p, ':');
		if (i < 2 && !p)
			return rtm_error_set(err, "'%s' has too few fields: write "
					     "deadline:RUNTIME:DEADLINE:PERIOD, like "
					     "deadline:100us:1ms:1ms", str);
		if (i == 2 && p)
			return rtm_error_set(err, "'%s' has too many fields: write "
					     "deadline:RUNTIME:DEADLINE:PERIOD, like "
					     "deadline:100us:1ms:1ms", str);
		if (p)
			*p++ = '\0';
		ret = rtm_parse_latency_ns(field, &val[i], NULL);
		if (ret)
			return rtm_error_set(err, "invalid SCHED_DEADLINE %s '%s' in '%s' (write "
					     "deadline:RUNTIME:DEADLINE:PERIOD, like "
					     "deadline:100us:1ms:1ms)", dl_parts[i], field, str);
	}
	t.policy = RTM_POLICY_DEADLINE;
	t.dl_runtime_ns = val[0];
	t.dl_deadline_ns = val[1];
	t.dl_period_ns = val[2];
	ret = check_deadline(&t, str, err);
	if (ret)
		return ret;
	*s = t;
	return 0;
}

/**
 * rtm_sched_validate - check the ranges of a scheduling setting
 * @s: the setting
 * @err: one-line message on failure, may be NULL
 *
 * FIFO/RR need a priority of 1..99, OTHER/BATCH a nice value of -20..19, DEADLINE
 * at least 1024 ns of runtime and RUNTIME <= DEADLINE <= PERIOD. IDLE takes no
 * parameter. Returns 0 or -EINVAL.
 */
int rtm_sched_validate(const struct rtm_sched *s, struct rtm_error *err)
{
	if (policy_index(s->policy) < 0)
		return rtm_error_set(err, "unknown scheduling policy %d (use " SCHED_FORMS ")",
				     (int)s->policy);
	if (is_rt(s->policy) && (s->priority < RTM_PRIO_MIN || s->priority > RTM_PRIO_MAX))
		return rtm_error_set(err, "%s priority %d is out of range (use %d-%d)",
				     policy_kname(s->policy), s->priority, RTM_PRIO_MIN,
				     RTM_PRIO_MAX);
	if (is_fair(s->policy) && (s->priority < RTM_NICE_MIN || s->priority > RTM_NICE_MAX))
		return rtm_error_set(err, "nice value %d for %s is out of range (use %d..%d)",
				     s->priority, policy_kname(s->policy), RTM_NICE_MIN,
				     RTM_NICE_MAX);
	if (s->policy == RTM_POLICY_DEADLINE)
		return check_deadline(s, NULL, err);
	return 0;
}

static void to_attr(const struct rtm_sched *s, struct rtm_sched_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = RTM_SCHED_ATTR_SIZE_VER0;
	a->sched_policy = (uint32_t)policies[policy_index(s->policy)].kpolicy;
	if (is_rt(s->policy)) {
		a->sched_priority = (uint32_t)s->priority;
	} else if (is_fair(s->policy)) {
		a->sched_nice = s->priority;
	} else if (s->policy == RTM_POLICY_IDLE) {
		/* keep the nice value: lowering it may need privileges */
		errno = 0;
		a->sched_nice = getpriority(PRIO_PROCESS, 0);
		if (errno)
			a->sched_nice = 0;
	} else if (s->policy == RTM_POLICY_DEADLINE) {
		a->sched_runtime = s->dl_runtime_ns;
		a->sched_deadline = s->dl_deadline_ns;
		a->sched_period = s->dl_period_ns;
	}
}

static int apply_error(const struct rtm_sched *s, int e, struct rtm_error *err)
{
	char what[128], r[32], p[32];

	describe(what, sizeof(what), s);
	if (e == EPERM && !have_cap(CAP_SYS_NICE)) {
		if (is_fair(s->policy))
			return rtm_error_setn(err, -e, "%s needs CAP_SYS_NICE to raise the "
					      "priority: run as root, or setcap cap_sys_nice+ep on "
					      "rtmeasure, or use a nice value >= 0", what);
		return rtm_error_setn(err, -e, "%s needs CAP_SYS_NICE: " RTM_FIX_PRIV, what);
	}
	if (e == EPERM && s->policy == RTM_POLICY_DEADLINE)
		return rtm_error_setn(err, -e, "%s refused (EPERM): a SCHED_DEADLINE thread's CPU "
				      "affinity must span its whole root domain, so do not pin it "
				      "(or partition the CPUs with an exclusive cpuset)", what);
	if (e == EPERM && is_rt(s->policy))
		return rtm_error_setn(err, -e, "%s refused although CAP_SYS_NICE is held: the "
				      "cgroup has no RT time (CONFIG_RT_GROUP_SCHED); give it "
				      "cpu.rt_runtime_us or run from the root cgroup", what);
	if (e == EBUSY && s->policy == RTM_POLICY_DEADLINE)
		return rtm_error_setn(err, -e, "%s does not fit the free SCHED_DEADLINE bandwidth "
				      "(%s per %s): lower the runtime, run fewer threads, or raise "
				      "kernel.sched_rt_runtime_us", what,
				      rtm_fmt_ns(r, sizeof(r), s->dl_runtime_ns),
				      rtm_fmt_ns(p, sizeof(p), s->dl_period_ns));
	if (e == EINVAL && s->policy == RTM_POLICY_DEADLINE)
		return rtm_error_setn(err, -e, "%s refused by the kernel (EINVAL): the period must "
				      "lie within kernel.sched_deadline_period_min_us.."
				      "sched_deadline_period_max_us (100-4194304 us by default)",
				      what);
	if (e == ENOSYS)
		return rtm_error_setn(err, -e, "%s: the kernel has no sched_setattr() (needs "
				      "Linux 3.14 or later)", what);
	return rtm_error_setn(err, -e, "cannot set %s: %s", what, strerror(e));
}

/**
 * rtm_sched_apply - apply a scheduling setting to the calling thread
 * @s: the setting (validated here)
 * @err: one-line message on failure, may be NULL
 *
 * Uses sched_setattr() for every policy. Returns 0 or -errno; EPERM names
 * CAP_SYS_NICE and the ways to get it.
 */
int rtm_sched_apply(const struct rtm_sched *s, struct rtm_error *err)
{
	return rtm_sched_apply_tid(0, s, err);
}

/**
 * rtm_sched_apply_tid - apply a scheduling setting to thread @tid
 * @tid: a thread id (a kernel thread's pid too, as rtla sets timerlat's), 0: the caller
 *
 * Returns 0 or -errno with the same messages as rtm_sched_apply().
 */
int rtm_sched_apply_tid(pid_t tid, const struct rtm_sched *s, struct rtm_error *err)
{
	struct rtm_sched_attr a;
	int ret;

	ret = rtm_sched_validate(s, err);
	if (ret)
		return ret;
	to_attr(s, &a);
	if (syscall(SYS_sched_setattr, tid, &a, 0) != 0)
		return apply_error(s, errno, err);
	return 0;
}

/**
 * rtm_sched_get - read the scheduling setting of a thread
 * @tid: thread id, 0 for the calling thread
 * @s: filled in (priority holds the nice value for OTHER/BATCH/IDLE)
 * @err: one-line message on failure, may be NULL
 *
 * Returns 0 or -errno.
 */
int rtm_sched_get(pid_t tid, struct rtm_sched *s, struct rtm_error *err)
{
	struct rtm_sched_attr a;
	int e;

	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, tid, &a, (unsigned int)sizeof(a), 0) != 0) {
		e = errno;
		return rtm_error_setn(err, -e, "cannot read the scheduling of thread %d: %s",
				      (int)tid, strerror(e));
	}
	memset(s, 0, sizeof(*s));
	if (a.sched_policy > INT_MAX || !rtm_policy_of_kpolicy((int)a.sched_policy, &s->policy))
		return rtm_error_setn(err, -EPROTO, "thread %d has scheduling policy %u, unknown "
				      "to rtmeasure", (int)tid, a.sched_policy);
	if (is_rt(s->policy)) {
		s->priority = (int)a.sched_priority;
	} else if (s->policy == RTM_POLICY_DEADLINE) {
		s->dl_runtime_ns = a.sched_runtime;
		s->dl_deadline_ns = a.sched_deadline;
		s->dl_period_ns = a.sched_period;
	} else {
		/* fair tasks report their slice in sched_runtime: not ours to show */
		s->priority = a.sched_nice;
	}
	return 0;
}

/**
 * rtm_affinity_set - pin the calling thread to one CPU
 * @cpu: the CPU number
 * @err: one-line message on failure, may be NULL
 *
 * Returns 0 or -errno (-EINVAL for an offline or forbidden CPU).
 */
int rtm_affinity_set(int cpu, struct rtm_error *err)
{
	cpu_set_t *set;
	size_t size;
	int e = 0;

	if (cpu < 0 || cpu >= RTM_MAX_CPUS)
		return rtm_error_set(err, "CPU %d is out of range (use 0-%d)", cpu,
				     RTM_MAX_CPUS - 1);
	set = CPU_ALLOC((size_t)cpu + 1);
	if (!set)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	size = CPU_ALLOC_SIZE((size_t)cpu + 1);
	CPU_ZERO_S(size, set);
	CPU_SET_S((size_t)cpu, size, set);
	if (sched_setaffinity(0, size, set) != 0)
		e = errno;
	CPU_FREE(set);
	if (!e)
		return 0;
	if (e == EINVAL)
		return rtm_error_setn(err, -e, "CPU %d is offline or outside this process's cpuset "
				      "(see /sys/devices/system/cpu/online and taskset -p %d): "
				      "choose another CPU", cpu, (int)getpid());
	if (e == EBUSY || e == EPERM)
		return rtm_error_setn(err, -e, "cannot pin this thread to CPU %d (%s): a "
				      "SCHED_DEADLINE thread's affinity must span its root domain, "
				      "so do not pin it (or use an exclusive cpuset)", cpu,
				      strerror(e));
	return rtm_error_setn(err, -e, "cannot pin this thread to CPU %d: %s", cpu, strerror(e));
}

struct pinnable_job {
	const struct rtm_cpulist *online;
	struct rtm_cpulist *out;
};

static void *pinnable_thread(void *arg)
{
	struct pinnable_job *job = arg;
	int i;

	for (i = 0; i < job->online->n; i++)
		if (rtm_affinity_set(job->online->cpus[i], NULL) == 0)
			job->out->cpus[job->out->n++] = job->online->cpus[i];
	return NULL;
}

int rtm_cpus_pinnable(const struct rtm_cpulist *online, struct rtm_cpulist *out,
		      struct rtm_error *err)
{
	struct pinnable_job job = { online, out };
	pthread_t t;
	int ret;

	out->n = 0;
	out->cpus = calloc((size_t)online->n + 1, sizeof(int));
	if (!out->cpus)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	ret = pthread_create(&t, NULL, pinnable_thread, &job);
	if (ret) {
		rtm_cpulist_release(out);
		return rtm_error_setn(err, -ret, "cannot start a thread to check CPUs: %s",
				      strerror(ret));
	}
	pthread_join(t, NULL);
	return 0;
}

/**
 * rtm_memory_lock - lock all memory and prefault heap
 * @heap_bytes: heap to prefault (0: none)
 * @err: one-line message on failure, may be NULL
 *
 * Calls mlockall(MCL_CURRENT | MCL_FUTURE) and turns off heap trimming and
 * mmap()ed allocations (mallopt M_TRIM_THRESHOLD, M_MMAP_MAX), as rt-tests do,
 * so that heap freed after the prefault stays resident and locked. These are
 * process-wide settings; rtm_memory_unlock() restores glibc's defaults. On
 * failure nothing is left changed. Returns 0 or -errno.
 */
int rtm_memory_lock(size_t heap_bytes, struct rtm_error *err)
{
	struct rlimit rl;
	size_t page, i;
	volatile char *p;
	int e;

	if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0) {
		e = errno;
		if (e == EPERM)
			return rtm_error_setn(err, -e, "locking memory (mlockall) needs "
					      "CAP_IPC_LOCK: " RTM_FIX_PRIV);
		if ((e == ENOMEM || e == EAGAIN) && getrlimit(RLIMIT_MEMLOCK, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY)
			return rtm_error_setn(err, -e, "locking memory (mlockall) failed: the "
					      "memlock limit is %llu kB; raise it (ulimit -l "
					      "unlimited) or run as root",
					      (unsigned long long)rl.rlim_cur / 1024);
		return rtm_error_setn(err, -e, "locking memory (mlockall) failed: %s",
				      strerror(e));
	}
	mallopt(M_TRIM_THRESHOLD, -1);
	mallopt(M_MMAP_MAX, 0);
	if (!heap_bytes)
		return 0;

	p = malloc(heap_bytes);
	if (!p) {
		rtm_memory_unlock();
		return rtm_error_setn(err, -ENOMEM, "cannot prefault %zu bytes of heap: out of "
				      "memory", heap_bytes);
	}
	page = (size_t)sysconf(_SC_PAGESIZE);
	for (i = 0; i < heap_bytes; i += page)
		p[i] = 0;
	p[heap_bytes - 1] = 0;
	free((void *)p);
	return 0;
}

/**
 * rtm_memory_unlock - undo rtm_memory_lock(): munlockall() and glibc's malloc defaults
 */
void rtm_memory_unlock(void)
{
	munlockall();
	mallopt(M_TRIM_THRESHOLD, RTM_GLIBC_TRIM_THRESHOLD);
	mallopt(M_MMAP_MAX, RTM_GLIBC_MMAP_MAX);
}

/**
 * rtm_stack_prefault - make @bytes of the calling thread's stack resident
 * @bytes: how much; clamped to 1 MiB, keep it well below the stack size
 */
void rtm_stack_prefault(size_t bytes)
{
	unsigned char *buf;

	if (bytes > RTM_STACK_PREFAULT_MAX)
		bytes = RTM_STACK_PREFAULT_MAX;
	if (!bytes)
		return;
	buf = __builtin_alloca(bytes);
	memset(buf, 0, bytes);
	/* keep the compiler from dropping the writes */
	__asm__ __volatile__("" : : "r"(buf) : "memory");
}

static int dma_open_error(int e, struct rtm_error *err)
{
	if (e == ENOENT || e == ENODEV)
		return rtm_error_setn(err, -e, RTM_DMA_LATENCY_DEV " does not exist: the kernel "
				      "lacks CPU latency QoS (CONFIG_CPU_IDLE); measure without "
				      "holding the DMA latency");
	if (e == EACCES || e == EPERM)
		return rtm_error_setn(err, -e, "cannot open " RTM_DMA_LATENCY_DEV " (%s): run as "
				      "root, or measure without holding the DMA latency",
				      strerror(e));
	return rtm_error_setn(err, -e, "cannot open " RTM_DMA_LATENCY_DEV ": %s", strerror(e));
}

/**
 * rtm_dma_latency_hold - ask for a CPU wake-up latency of at most @us microseconds
 * @us: the latency limit, >= 0 (0 keeps CPUs out of deep idle states)
 * @err: one-line message on failure, may be NULL
 *
 * Returns the open file descriptor (close-on-exec, so load generators do not
 * inherit it) to keep while measuring, or -errno.
 */
int rtm_dma_latency_hold(int32_t us, struct rtm_error *err)
{
	ssize_t n;
	int fd, e;

	if (us < 0)
		return rtm_error_set(err, "DMA latency %d us is negative (use 0 or more)", (int)us);
	fd = open(RTM_DMA_LATENCY_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return dma_open_error(errno, err);
	n = write(fd, &us, sizeof(us));
	if (n != (ssize_t)sizeof(us)) {
		e = n < 0 ? errno : EIO;
		close(fd);
		return rtm_error_setn(err, -e, "cannot write %d us to " RTM_DMA_LATENCY_DEV ": %s",
				      (int)us, strerror(e));
	}
	return fd;
}

/**
 * rtm_dma_latency_release - drop the request made by rtm_dma_latency_hold()
 * @fd: its return value; negative values are ignored
 */
void rtm_dma_latency_release(int fd)
{
	if (fd >= 0)
		close(fd);
}

/**
 * rtm_dma_latency_current - the CPU latency limit the kernel enforces now
 * @us: set to the limit in microseconds (2000000000 when nobody asks for one)
 * @err: one-line message on failure, may be NULL
 *
 * Reading /dev/cpu_dma_latency returns the aggregate of all requests as a
 * binary int32. Returns 0 or -errno.
 */
int rtm_dma_latency_current(int32_t *us, struct rtm_error *err)
{
	int32_t v;
	ssize_t n;
	int fd, e;

	fd = open(RTM_DMA_LATENCY_DEV, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return dma_open_error(errno, err);
	n = read(fd, &v, sizeof(v));
	e = n < 0 ? errno : EIO;
	close(fd);
	if (n != (ssize_t)sizeof(v))
		return rtm_error_setn(err, -e, "cannot read " RTM_DMA_LATENCY_DEV ": %s",
				      strerror(e));
	*us = v;
	return 0;
}

struct probe_arg {
	const struct rtm_sched *s;
	struct rtm_error err;
	int ret;
};

static void *probe_sched(void *arg)
{
	struct probe_arg *pa = arg;

	pa->ret = rtm_sched_apply(pa->s, &pa->err);
	return NULL;
}

/**
 * rtm_rt_privileges - pre-flight check before starting RT threads
 * @s: the scheduling the threads will use
 * @lock_memory: whether mlockall will be called
 * @err: one-line message naming the missing privilege and the fix, may be NULL
 *
 * Applies @s on a short-lived thread (the calling thread is not changed) and,
 * with @lock_memory, checks that mlockall() can succeed (CAP_IPC_LOCK or an
 * unlimited RLIMIT_MEMLOCK) without locking anything. Returns 0 or -errno.
 */
int rtm_rt_privileges(const struct rtm_sched *s, bool lock_memory, struct rtm_error *err)
{
	struct probe_arg pa = { .s = s, .ret = 0 };
	struct rlimit rl;
	pthread_t tid;
	int ret;

	ret = rtm_sched_validate(s, err);
	if (ret)
		return ret;
	pa.err.msg[0] = '\0';
	ret = pthread_create(&tid, NULL, probe_sched, &pa);
	if (ret)
		return rtm_error_setn(err, -ret, "cannot start a thread to check the RT "
				      "privileges: %s", strerror(ret));
	pthread_join(tid, NULL);
	if (pa.ret) {
		if (err)
			*err = pa.err;
		return pa.ret;
	}
	if (lock_memory && !have_cap(CAP_IPC_LOCK)) {
		if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0 || rl.rlim_cur != RLIM_INFINITY)
			return rtm_error_setn(err, -EPERM, "locking memory (mlockall) needs "
					      "CAP_IPC_LOCK or ulimit -l unlimited: " RTM_FIX_PRIV);
	}
	return 0;
}

/**
 * rtm_rt_throttling - the kernel's RT throttling settings
 * @root: "/" or a recorded tree
 * @runtime_us: sched_rt_runtime_us (-1: throttling off)
 * @period_us: sched_rt_period_us
 *
 * Returns 0 or -errno.
 */
int rtm_rt_throttling(const char *root, int64_t *runtime_us, int64_t *period_us)
{
	int ret;

	ret = rtm_read_s64(root, "/proc/sys/kernel/sched_rt_runtime_us", runtime_us);
	if (ret)
		return ret;
	return rtm_read_s64(root, "/proc/sys/kernel/sched_rt_period_us", period_us);
}

static int set_u64(json_t *o, const char *key, uint64_t v)
{
	return json_object_set_new(o, key, json_integer((json_int_t)v));
}

/**
 * rtm_sched_to_json - the scheduling setting as JSON
 * @s: the setting
 *
 * {"policy": "fifo", "priority": 95}, {"policy": "other", "nice": 0},
 * {"policy": "idle"} or {"policy": "deadline", "runtime_ns": ..., "deadline_ns": ...,
 * "period_ns": ...}. Returns a new reference or NULL when out of memory.
 */
json_t *rtm_sched_to_json(const struct rtm_sched *s)
{
	json_t *o = json_object();
	int ret;

	if (!o)
		return NULL;
	ret = json_object_set_new(o, "policy", json_string(rtm_policy_name(s->policy)));
	if (is_rt(s->policy)) {
		ret |= json_object_set_new(o, "priority", json_integer(s->priority));
	} else if (is_fair(s->policy)) {
		ret |= json_object_set_new(o, "nice", json_integer(s->priority));
	} else if (s->policy == RTM_POLICY_DEADLINE) {
		ret |= set_u64(o, "runtime_ns", s->dl_runtime_ns);
		ret |= set_u64(o, "deadline_ns", s->dl_deadline_ns);
		ret |= set_u64(o, "period_ns", s->dl_period_ns);
	}
	if (ret) {
		json_decref(o);
		return NULL;
	}
	return o;
}
