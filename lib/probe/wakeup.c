// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wakeup.c - the wake-up programs (wakeup.bpf.c) loaded through their libbpf
 * skeleton (made by bpftool at build time), attached, read and unloaded.
 *
 * The histogram and per-CPU maps are mapped into memory (BPF_F_MMAPABLE) and
 * copied with memcpy; the task map is walked key by key, at most its size.
 * A build without clang, bpftool or libbpf keeps this file's interface and
 * says what configure did not find.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "probe/wakeup.h"

#ifdef RTM_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lib/probe/wakeup.skel.h"
#include "lib/probe/wakeup_helper.skel.h"
#include "probe/bpfload.h"

/* the helper build's object goes into the direct build's skeleton (bpfload.h) */
_Static_assert(sizeof(struct rtm_wakeup_bpf) == sizeof(struct rtm_wakeup_helper_bpf) &&
	       sizeof(*((struct rtm_wakeup_bpf *)0)->rodata) ==
	       sizeof(*((struct rtm_wakeup_helper_bpf *)0)->rodata) &&
	       sizeof(*((struct rtm_wakeup_bpf *)0)->bss) ==
	       sizeof(*((struct rtm_wakeup_helper_bpf *)0)->bss),
	       "the two builds of wakeup.bpf.c differ in their maps, programs or data");

struct rtm_wakeup {
	struct rtm_wakeup_bpf *skel;
	enum rtm_bpf_reads reads;	/* the build loaded */
	int ncpus;
	uint32_t task_cap;
	uint64_t *counts;		/* the mapped histogram map */
	size_t counts_len;
	struct rtm_wk_cpu *cpu;		/* the mapped per-CPU map */
	size_t cpu_len;
	struct ring_buffer *causes;	/* the cause records, NULL without --above */
	void (*on_cause)(const struct rtm_wk_cause_rec *r, void *ctx);
	void *cause_ctx;
};

bool rtm_wakeup_built(struct rtm_error *err)
{
	return true;
}

static void set_cpus(struct rtm_wakeup_bpf *skel, const struct rtm_wakeup_opts *o, int ncpus)
{
	volatile __u64 *mask = (volatile __u64 *)skel->rodata->cpu_mask;
	int i, cpu;

	for (i = 0; i < (o->cpus ? o->ncpus : ncpus); i++) {
		cpu = o->cpus ? o->cpus[i] : i;
		if (cpu >= 0 && cpu < RTM_WK_MAX_CPUS)
			mask[cpu / 64] |= 1ULL << (cpu % 64);
	}
}

/*
 * The ring buffer of the cause records: a burst of every CPU twice over (read
 * at least every RTM_WAKEUP_POLL_MS, far below a burst's time), a power of two.
 */
static __u32 ring_size(int ncpus)
{
	size_t rec = sizeof(struct rtm_wk_cause_rec) + 8;	/* the ring's header */
	size_t want = (size_t)ncpus * RTM_WK_CAUSE_BURST * 2 * rec;
	__u32 size = 64 * 1024;

	while (size < want && size < (1u << 30))
		size <<= 1;
	return size;
}

/* The selection and the sizes into the skeleton, before it loads. */
static int configure(struct rtm_wakeup *w, const struct rtm_wakeup_opts *o)
{
	struct rtm_wakeup_bpf *skel = w->skel;
	int ret;

	skel->rodata->sel_mode = (__u32)o->sel;
	skel->rodata->sel_policies = o->policies;
	skel->rodata->sel_pid = (__u32)o->pid;
	skel->rodata->wake_mask = RTM_WAKEUP_WAKE_SLOTS - 1;
	memcpy((char *)skel->rodata->sel_comm, o->comm, RTM_WK_COMM_LEN);
	skel->rodata->above_ns = o->above_ns;
	skel->rodata->nr_cpus = (__u32)w->ncpus;
	set_cpus(skel, o, w->ncpus);
	ret = bpf_map__set_max_entries(skel->maps.hist, (__u32)w->ncpus * RTM_HIST_NCOUNTS);
	if (!ret)
		ret = bpf_map__set_max_entries(skel->maps.cpus, (__u32)w->ncpus);
	if (!ret)
		ret = bpf_map__set_max_entries(skel->maps.tasks, w->task_cap);
	if (!ret)
		ret = bpf_map__set_max_entries(skel->maps.cstate, (__u32)w->ncpus);
	if (!o->above_ns) {
		/* the handlers' time serves the causes of the waits over the bound only */
		bpf_program__set_autoload(skel->progs.rtm_wk_irq_entry, false);
		bpf_program__set_autoload(skel->progs.rtm_wk_irq_exit, false);
		bpf_program__set_autoload(skel->progs.rtm_wk_softirq_entry, false);
		bpf_program__set_autoload(skel->progs.rtm_wk_softirq_exit, false);
	}
	if (!ret)
		ret = bpf_map__set_max_entries(skel->maps.wakes, RTM_WAKEUP_WAKE_SLOTS);
	if (!ret)
		ret = bpf_map__set_max_entries(skel->maps.causes, ring_size(w->ncpus));
	return ret;
}

static int map_memory(struct rtm_wakeup *w)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	w->counts_len = ((size_t)w->ncpus * RTM_HIST_NCOUNTS * sizeof(__u64) + page - 1) &
			~(size_t)(page - 1);
	p = mmap(NULL, w->counts_len, PROT_READ, MAP_SHARED, bpf_map__fd(w->skel->maps.hist), 0);
	if (p == MAP_FAILED)
		return -errno;
	w->counts = p;
	w->cpu_len = ((size_t)w->ncpus * sizeof(struct rtm_wk_cpu) + page - 1) &
		     ~(size_t)(page - 1);
	p = mmap(NULL, w->cpu_len, PROT_READ, MAP_SHARED, bpf_map__fd(w->skel->maps.cpus), 0);
	if (p == MAP_FAILED)
		return -errno;
	w->cpu = p;
	return 0;
}

/* Why the kernel refused to load: the cause and its fix in one line. */
static void load_error(int ret, struct rtm_error *err)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		rtm_error_set(err, "this kernel has no BTF (/sys/kernel/btf/vmlinux), which the "
			      "wake-up programs need (a kernel built with CONFIG_DEBUG_INFO_BTF=y)");
	else if ((ret == -EPERM || ret == -EACCES) && geteuid())
		rtm_error_set(err, "loading BPF programs needs root (CAP_BPF and CAP_PERFMON): "
			      "run it as root");
	else if (ret == -EPERM || ret == -EACCES)
		rtm_error_set(err, "the kernel refused the BPF programs (%s): kernel lockdown "
			      "(/sys/kernel/security/lockdown) or "
			      "kernel.unprivileged_bpf_disabled may forbid them", strerror(-ret));
	else
		rtm_error_set(err, "the kernel refused the wake-up BPF programs: %s",
			      strerror(-ret));
}

/* The programs of build @r, opened, given @o's selection and loaded. */
static int load_build(struct rtm_wakeup *w, const struct rtm_wakeup_opts *o,
		      enum rtm_bpf_reads r, struct rtm_error *err)
{
	int ret;

	w->reads = r;
	w->skel = calloc(1, sizeof(*w->skel));
	if (!w->skel)
		return rtm_error_setn(err, -ENOMEM, "out of memory");
	ret = rtm_wakeup_bpf__create_skeleton(w->skel);
	if (!ret)
		ret = rtm_bpf_open_skeleton(w->skel->skeleton, r, rtm_wakeup_helper_bpf__elf_bytes);
	if (ret)
		return rtm_error_setn(err, ret, "cannot open the wake-up BPF programs: %s",
				      strerror(-ret));
	ret = configure(w, o);
	if (!ret)
		ret = rtm_wakeup_bpf__load(w->skel);
	if (ret)
		load_error(ret, err);
	return ret;
}

/*
 * The direct build where the kernel takes it, else the helper build (a kernel
 * before 6.2, or without a BPF JIT): the error, when neither loads, is the
 * helper build's.
 */
static int load(struct rtm_wakeup *w, const struct rtm_wakeup_opts *o, struct rtm_error *err)
{
	enum rtm_bpf_reads r = rtm_bpf_reads_first();
	int ret = load_build(w, o, r, err);

	if (ret && r == RTM_BPF_READS_DIRECT) {
		rtm_wakeup_bpf__destroy(w->skel);
		ret = load_build(w, o, RTM_BPF_READS_HELPER, err);
	}
	return ret;
}

static int take_cause(void *ctx, void *data, size_t len)
{
	struct rtm_wakeup *w = ctx;

	if (len >= sizeof(struct rtm_wk_cause_rec))
		w->on_cause(data, w->cause_ctx);
	return 0;
}

struct rtm_wakeup *rtm_wakeup_create(const struct rtm_wakeup_opts *o, struct rtm_error *err)
{
	struct rtm_wakeup *w = calloc(1, sizeof(*w));
	int ret;

	if (!w) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	rtm_bpf_quiet();
	w->ncpus = libbpf_num_possible_cpus();
	w->task_cap = o->task_cap ? o->task_cap : RTM_WAKEUP_TASK_CAP;
	if (w->ncpus <= 0 || w->ncpus > RTM_WK_MAX_CPUS) {
		ret = w->ncpus <= 0 ? w->ncpus : -E2BIG;
		rtm_error_set(err, "cannot count the possible CPUs (/sys/devices/system/cpu/"
			      "possible): %s", strerror(-ret));
		goto fail;
	}
	ret = load(w, o, err);
	if (ret)
		goto fail;
	ret = map_memory(w);
	if (ret) {
		rtm_error_set(err, "cannot map the wake-up histograms: %s", strerror(-ret));
		goto fail;
	}
	if (o->on_cause) {
		w->on_cause = o->on_cause;
		w->cause_ctx = o->cause_ctx;
		w->causes = ring_buffer__new(bpf_map__fd(w->skel->maps.causes), take_cause, w,
					     NULL);
		if (!w->causes) {
			ret = -errno;
			rtm_error_set(err, "cannot read the wake-up cause ring buffer: %s",
				      strerror(errno));
			goto fail;
		}
	}
	ret = rtm_wakeup_bpf__attach(w->skel);
	if (ret) {
		rtm_error_set(err, "cannot attach to the scheduler tracepoints (sched_wakeup, "
			      "sched_switch): %s", strerror(-ret));
		goto fail;
	}
	return w;
fail:
	rtm_wakeup_destroy(w);
	errno = -ret;
	return NULL;
}

void rtm_wakeup_detach(struct rtm_wakeup *w)
{
	if (w && w->skel)
		rtm_wakeup_bpf__detach(w->skel);
}

void rtm_wakeup_destroy(struct rtm_wakeup *w)
{
	if (!w)
		return;
	if (w->counts)
		munmap(w->counts, w->counts_len);
	if (w->cpu)
		munmap(w->cpu, w->cpu_len);
	ring_buffer__free(w->causes);
	rtm_wakeup_bpf__destroy(w->skel);
	free(w);
}

int rtm_wakeup_ncpus(const struct rtm_wakeup *w)
{
	return w->ncpus;
}

uint32_t rtm_wakeup_task_cap(const struct rtm_wakeup *w)
{
	return w->task_cap;
}

void rtm_wakeup_next_interval(struct rtm_wakeup *w)
{
	__atomic_add_fetch(&w->skel->bss->epoch, 1, __ATOMIC_SEQ_CST);
}

uint64_t rtm_wakeup_epoch(const struct rtm_wakeup *w)
{
	return __atomic_load_n(&w->skel->bss->epoch, __ATOMIC_SEQ_CST);
}

int rtm_wakeup_poll(struct rtm_wakeup *w, int timeout_ms)
{
	struct timespec ts = { .tv_sec = timeout_ms / 1000,
			       .tv_nsec = (long)(timeout_ms % 1000) * 1000000L };

	if (!w->causes)
		return nanosleep(&ts, NULL) ? -errno : 0;
	return ring_buffer__poll(w->causes, timeout_ms);
}

/* The task map, key by key, at most its size (a key deleted meanwhile ends nothing). */
static void read_tasks(struct rtm_wakeup *w, struct rtm_wakeup_snap *s)
{
	int fd = bpf_map__fd(w->skel->maps.tasks);
	__u32 key, next;
	void *prev = NULL;

	s->ntasks = 0;
	while (s->ntasks < s->task_cap && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (!bpf_map_lookup_elem(fd, &key, &s->tasks[s->ntasks]))
			s->ntasks++;
	}
}

int rtm_wakeup_read(struct rtm_wakeup *w, struct rtm_wakeup_snap *s)
{
	if (s->ncpus != w->ncpus || s->task_cap < w->task_cap)
		return -EINVAL;
	memcpy(s->counts, w->counts, (size_t)w->ncpus * RTM_HIST_NCOUNTS * sizeof(__u64));
	memcpy(s->cpu, w->cpu, (size_t)w->ncpus * sizeof(struct rtm_wk_cpu));
	read_tasks(w, s);
	s->reads = rtm_bpf_reads_name(w->reads);
	return 0;
}

#else /* !RTM_HAVE_BPF */

struct rtm_wakeup {
	int unused;
};

bool rtm_wakeup_built(struct rtm_error *err)
{
	if (!strcmp(RTM_BPF_MISSING, "--disable-bpf"))
		rtm_error_set(err, "this rtmeasure was configured with --disable-bpf: rebuild "
			      "without it to measure wake-ups");
	else
		rtm_error_set(err, "this rtmeasure was built without BPF: configure did not find "
			      "%s (apt-get install clang libbpf-dev bpftool, then scripts/setup)",
			      RTM_BPF_MISSING);
	return false;
}

struct rtm_wakeup *rtm_wakeup_create(const struct rtm_wakeup_opts *o, struct rtm_error *err)
{
	rtm_wakeup_built(err);
	errno = ENOTSUP;
	return NULL;
}

void rtm_wakeup_destroy(struct rtm_wakeup *w)
{
}

void rtm_wakeup_detach(struct rtm_wakeup *w)
{
}

int rtm_wakeup_ncpus(const struct rtm_wakeup *w)
{
	return 0;
}

uint32_t rtm_wakeup_task_cap(const struct rtm_wakeup *w)
{
	return 0;
}

void rtm_wakeup_next_interval(struct rtm_wakeup *w)
{
}

uint64_t rtm_wakeup_epoch(const struct rtm_wakeup *w)
{
	return 0;
}

int rtm_wakeup_read(struct rtm_wakeup *w, struct rtm_wakeup_snap *s)
{
	return -ENOTSUP;
}

int rtm_wakeup_poll(struct rtm_wakeup *w, int timeout_ms)
{
	return -ENOTSUP;
}

#endif
