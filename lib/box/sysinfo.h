/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysinfo.h - what about this box decides its real-time latency.
 *
 * Collects the kernel, its preemption model, the boot options that matter,
 * CPU frequency and idle settings, SMT, RT throttling, THP, irqbalance, timer
 * migration, the clocksource, virtualisation and the kernel's tracing
 * features, and turns each into a one-line verdict with the usual RT advice.
 * Every file is read through a root prefix ("/" live, or a recorded tree).
 */
#ifndef RTM_SYSINFO_H
#define RTM_SYSINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/error.h"
#include "core/units.h"

enum rtm_preempt {
	RTM_PREEMPT_UNKNOWN,
	RTM_PREEMPT_NONE,
	RTM_PREEMPT_VOLUNTARY,
	RTM_PREEMPT_FULL,
	RTM_PREEMPT_LAZY,
	RTM_PREEMPT_RT,
};

enum rtm_check_level {
	RTM_CHECK_OK,
	RTM_CHECK_INFO,
	RTM_CHECK_WARN,
};

struct rtm_check {
	char id[32];			/* stable key: "preempt", "governor", ... */
	enum rtm_check_level level;
	char text[320];			/* one line: finding, and the advice */
};

struct rtm_idle_state {
	char name[32];
	int64_t latency_us;		/* exit latency */
	bool disabled;
};

struct rtm_cpu_info {
	int cpu;
	bool online;
	char governor[32];		/* "" without cpufreq */
	int nstates;
	struct rtm_idle_state states[16];
	char siblings[64];		/* thread_siblings_list */
};

/* The boot options that matter for latency; NULL when absent. */
struct rtm_cmdline_opts {
	char *isolcpus, *nohz_full, *rcu_nocbs, *irqaffinity, *idle, *processor_max_cstate,
	     *intel_idle_max_cstate, *mitigations, *preempt, *nosmt, *threadirqs, *skew_tick,
	     *nosoftlockup, *tsc, *nmi_watchdog, *rcu_nocb_poll;
};

struct rtm_sysinfo {
	char root[256];			/* "/" when live */
	bool live;

	char hostname[128];
	char release[128];
	char version[256];
	char cmdline[4096];
	struct rtm_cmdline_opts opts;

	enum rtm_preempt preempt;
	bool preempt_dynamic;
	char preempt_source[96];	/* where the model was read from */
	int config_hz;			/* 0 unknown */
	int config_no_hz_full;		/* -1 unknown, 0, 1 */
	/* CPU time accounting, for irq --accounting (irq/charged.h): -1 unknown, 0, 1 */
	int config_irq_time_accounting, config_tick_cpu_accounting,
	    config_virt_cpu_accounting_gen, config_virt_cpu_accounting_native,
	    config_irq_forced_threading, config_paravirt_time_accounting;
	char config_source[96];		/* "/proc/config.gz", "/boot/config-...", "" */

	char cpu_model[128];
	char arch[32];
	int ncpus;			/* entries in cpus[] (possible CPUs) */
	int cpus_online;
	char online[256], possible[256], isolated[256], nohz_full[256];
	struct rtm_cpu_info *cpus;
	char cpufreq_driver[64];
	char cpuidle_driver[64];
	char cpuidle_governor[64];
	int smt_active;			/* -1 unknown */
	char smt_control[32];

	int64_t rt_runtime_us;		/* -1 means unlimited; INT64_MIN unknown */
	int64_t rt_period_us;
	int timer_migration;		/* -1 unknown */
	int nmi_watchdog;		/* -1 unknown */
	char thp[32];			/* selected THP mode, "" unknown */
	bool irqbalance;

	char clocksource[64];
	char clocksources[256];

	bool vm;
	char hypervisor[64];		/* "KVM", "VMware", ... or "": the kernel's name first */
	char vm_source[96];
	char hypervisor_kernel[64];	/* "Hypervisor detected: X" in the kernel log, or "" */
	char hypervisor_cpuid[64];	/* what CPUID leaf 0x40000000 names, or "" */

	char tracefs[256];		/* where tracefs was read, "" when not found */
	int tracefs_errno;		/* not found: /sys/kernel/tracing's errno (ENOENT...) */
	char tracers[512];		/* available_tracers, space separated */
	bool has_hwlat, has_osnoise, has_timerlat;
	bool hist_triggers;
	char event_groups[2048];	/* groups that matter for rtmeasure, space separated */
	bool has_events_irq, has_events_sched, has_events_timer, has_events_irq_vectors,
	     has_events_ipi, has_events_nmi;

	int nchecks;
	struct rtm_check checks[32];
};

/**
 * rtm_sysinfo_read - read every fact from @root, no verdicts (sysinfo.c)
 * @root: "/" for the live system, or a recorded tree
 *
 * On the live system, when tracefs is not mounted and the caller is root, it is
 * mounted on a private temporary directory for the reading and unmounted again.
 * Returns a filled structure or NULL with a message in @err (only when @root does
 * not look like a Linux root at all: missing /proc/sys/kernel/osrelease).
 */
struct rtm_sysinfo *rtm_sysinfo_read(const char *root, struct rtm_error *err);

/**
 * rtm_sysinfo_collect - rtm_sysinfo_read(), then rtm_sysinfo_check() (sysinfo_checks.c)
 *
 * What the commands call: the facts with their verdicts. Collection (sysinfo.c)
 * knows nothing of the verdicts; the checks build on it.
 */
struct rtm_sysinfo *rtm_sysinfo_collect(const char *root, struct rtm_error *err);
void rtm_sysinfo_free(struct rtm_sysinfo *si);

/*
 * The isolated CPUs below @root: isolcpus (/sys/devices/system/cpu/isolated)
 * and nohz_full together, in that order, each CPU once; empty when neither is
 * set. For commands that need only these two files, not a whole collection.
 * Free with rtm_cpulist_release().
 */
void rtm_sysinfo_isolated_cpus(const char *root, struct rtm_cpulist *iso);

const char *rtm_preempt_name(enum rtm_preempt p);
const char *rtm_check_level_name(enum rtm_check_level l);
/*
 * The hypervisor in words: its name, "hypervisor not named", or both names when
 * the kernel log and CPUID disagree.
 */
void rtm_sysinfo_hypervisor_text(const struct rtm_sysinfo *si, char *buf, size_t len);

/**
 * rtm_sysinfo_tracefs_problem - why tracefs at @dir cannot be used, and the fix
 * @errnum: the failed access's errno: ENOENT, not mounted; EACCES or EPERM, mounted
 *	but closed to this user; anything else in the kernel's words
 * @dir: where it was looked for (/sys/kernel/tracing)
 * @buf: the phrase, e.g. "tracefs at /sys/kernel/tracing is readable by root only:
 *	run as root (sudo)"
 *
 * The one wording of the sysinfo check and of the tracing commands' error: a
 * user who may not read tracefs is told to be root, not to mount it. Returns @buf.
 */
const char *rtm_sysinfo_tracefs_problem(int errnum, const char *dir, char *buf, size_t len);

/* The one-line verdicts on facts read by rtm_sysinfo_read(); rtm_sysinfo_collect() does both. */
void rtm_sysinfo_check(struct rtm_sysinfo *si);

/**
 * rtm_sysinfo_tracers_verdict - the "tracers" check: what rtmeasure does with the kernel's
 * hwlat, osnoise and timerlat tracers (@hwlat, @osnoise, @timerlat: present), or without them
 * @buf: the one-line message (a check's text fits)
 *
 * The options that measure with the tracers present, and for the missing ones the kernel
 * config that would add them. The report words a loaded result's check with it too, so an
 * older result's checklist says what this rtmeasure does. Returns the check's level: ok
 * with all three, info otherwise.
 */
enum rtm_check_level rtm_sysinfo_tracers_verdict(bool hwlat, bool osnoise, bool timerlat,
						 char *buf, size_t len);

/* JSON form (schema "rtmeasure-sysinfo/1"), as stored in result.json. */
json_t *rtm_sysinfo_to_json(const struct rtm_sysinfo *si);

/*
 * Whether kernel lockdown closes debugfs's writable files under ROOT ("/" for
 * this box): each refused open logs a kernel line, so callers skip them then.
 */
bool rtm_sysinfo_debugfs_closed(const char *root);

#endif
