// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysinfo_checks.c - RT verdicts and JSON form of sysinfo, and
 * rtm_sysinfo_collect() (facts, then verdicts). Built on sysinfo.c's
 * collection, which calls nothing here.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/jsonutil.h"
#include "box/sysinfo.h"
#include "core/units.h"

/* Idle states with an exit latency above this are called "deep". */
#define DEEP_IDLE_US 10

const char *rtm_check_level_name(enum rtm_check_level l)
{
	switch (l) {
	case RTM_CHECK_OK:	return "ok";
	case RTM_CHECK_INFO:	return "info";
	default:		return "warn";
	}
}

static void add_check(struct rtm_sysinfo *si, const char *id, enum rtm_check_level level,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add_check(struct rtm_sysinfo *si, const char *id, enum rtm_check_level level,
		      const char *fmt, ...)
{
	struct rtm_check *c;
	va_list ap;

	if (si->nchecks >= (int)(sizeof(si->checks) / sizeof(si->checks[0])))
		return;
	c = &si->checks[si->nchecks++];
	snprintf(c->id, sizeof(c->id), "%s", id);
	c->level = level;
	va_start(ap, fmt);
	vsnprintf(c->text, sizeof(c->text), fmt, ap);
	va_end(ap);
}

static void check_preempt(struct rtm_sysinfo *si)
{
	const char *dyn = si->preempt_dynamic ? " (PREEMPT_DYNAMIC)" : "";

	switch (si->preempt) {
	case RTM_PREEMPT_RT:
		add_check(si, "preempt", RTM_CHECK_OK, "PREEMPT_RT kernel: fully preemptible, "
			  "threaded interrupts, sleeping spinlocks");
		break;
	case RTM_PREEMPT_FULL:
	case RTM_PREEMPT_LAZY:
		add_check(si, "preempt", RTM_CHECK_INFO, "preemption model %s%s: preemptible, "
			  "but hard IRQs and spinlock sections still delay wake-ups; boot a "
			  "PREEMPT_RT kernel (Debian: linux-image-rt-amd64) for bounded latency",
			  rtm_preempt_name(si->preempt), dyn);
		break;
	case RTM_PREEMPT_NONE:
	case RTM_PREEMPT_VOLUNTARY:
		add_check(si, "preempt", RTM_CHECK_WARN, "preemption model %s%s: kernel code runs "
			  "for milliseconds without a preemption point; use a PREEMPT_RT kernel "
			  "(Debian: linux-image-rt-amd64)%s", rtm_preempt_name(si->preempt), dyn,
			  si->preempt_dynamic ? " or boot with preempt=full" : "");
		break;
	default:
		add_check(si, "preempt", RTM_CHECK_WARN, "preemption model unknown (%s): install "
			  "the kernel config (/boot/config-%s) or enable CONFIG_IKCONFIG_PROC",
			  si->preempt_source, si->release);
	}
}

/* "PVM (kernel log; CPUID says bhyve)" when the two disagree, else the one name. */
void rtm_sysinfo_hypervisor_text(const struct rtm_sysinfo *si, char *buf, size_t len)
{
	if (si->hypervisor_kernel[0] && si->hypervisor_cpuid[0] &&
	    strcmp(si->hypervisor_kernel, si->hypervisor_cpuid))
		snprintf(buf, len, "%s per the kernel log; CPUID says %s", si->hypervisor_kernel,
			 si->hypervisor_cpuid);
	else
		snprintf(buf, len, "%s", si->hypervisor[0] ? si->hypervisor :
			 "hypervisor not named");
}

static void check_virt(struct rtm_sysinfo *si)
{
	char hv[160];

	rtm_sysinfo_hypervisor_text(si, hv, sizeof(hv));
	if (si->vm)
		add_check(si, "virtualization", RTM_CHECK_WARN, "virtual machine (%s, from %s): "
			  "the host can stop a vCPU at any time, so latency here includes the "
			  "hypervisor's and no guest setting removes it", hv, si->vm_source);
	else
		add_check(si, "virtualization", RTM_CHECK_OK, "bare metal (no hypervisor found)");
}

static void check_isolation(struct rtm_sysinfo *si)
{
	if (!si->isolated[0] && !si->nohz_full[0]) {
		add_check(si, "isolation", RTM_CHECK_INFO, "no isolated CPUs: the measured CPUs "
			  "also run housekeeping; for dedicated RT CPUs boot with isolcpus=, "
			  "nohz_full= and rcu_nocbs=");
		return;
	}
	if (si->nohz_full[0] && !si->opts.rcu_nocbs)
		add_check(si, "isolation", RTM_CHECK_INFO, "isolated CPUs %s, nohz_full=%s, but "
			  "no rcu_nocbs=: RCU callbacks still run on the isolated CPUs",
			  si->isolated[0] ? si->isolated : "none", si->nohz_full);
	else
		add_check(si, "isolation", RTM_CHECK_OK, "isolated CPUs %s, nohz_full %s, "
			  "rcu_nocbs %s, irqaffinity %s", si->isolated[0] ? si->isolated : "none",
			  si->nohz_full[0] ? si->nohz_full : "none",
			  si->opts.rcu_nocbs ? si->opts.rcu_nocbs : "none",
			  si->opts.irqaffinity ? si->opts.irqaffinity : "default");
}

static void check_governor(struct rtm_sysinfo *si)
{
	struct rtm_cpulist bad = { 0, NULL };
	char list[256] = "", gov[32] = "";
	size_t cap = 0;
	int i, any = 0;

	for (i = 0; i < si->ncpus; i++) {
		if (!si->cpus[i].governor[0])
			continue;
		any = 1;
		if (strcmp(si->cpus[i].governor, "performance") != 0) {
			int *n = rtm_grow(bad.cpus, &cap, (size_t)bad.n, sizeof(*n), 16);

			if (!n)
				break;
			bad.cpus = n;
			bad.cpus[bad.n++] = i;
			snprintf(gov, sizeof(gov), "%s", si->cpus[i].governor);
		}
	}
	if (!any) {
		add_check(si, "governor", RTM_CHECK_OK, "no cpufreq scaling (fixed frequency%s)",
			  si->vm ? " or frequency owned by the host" : "");
	} else if (bad.n) {
		rtm_cpulist_format(&bad, list, sizeof(list));
		add_check(si, "governor", RTM_CHECK_WARN, "cpufreq governor %s on CPUs %s: "
			  "frequency changes add latency; use performance (cpupower frequency-set "
			  "-g performance)", gov, list);
	} else {
		add_check(si, "governor", RTM_CHECK_OK, "cpufreq governor performance on all CPUs");
	}
	free(bad.cpus);
}

static void check_idle(struct rtm_sysinfo *si)
{
	const struct rtm_idle_state *deep = NULL;
	int i, s;

	for (i = 0; i < si->ncpus; i++) {
		for (s = 0; s < si->cpus[i].nstates; s++) {
			const struct rtm_idle_state *st = &si->cpus[i].states[s];

			if (!st->disabled && st->latency_us > DEEP_IDLE_US &&
			    (!deep || st->latency_us > deep->latency_us))
				deep = st;
		}
	}
	if (deep)
		add_check(si, "cpuidle", RTM_CHECK_INFO, "deep idle state %s enabled (%lld us exit "
			  "latency, driver %s): rtmeasure holds /dev/cpu_dma_latency at 0 while "
			  "measuring; in production hold it too, or boot with processor.max_cstate=1 "
			  "intel_idle.max_cstate=0", deep->name, (long long)deep->latency_us,
			  si->cpuidle_driver[0] ? si->cpuidle_driver : "none");
	else if (si->cpuidle_driver[0])
		add_check(si, "cpuidle", RTM_CHECK_OK, "no deep idle states enabled (driver %s)",
			  si->cpuidle_driver);
	else
		add_check(si, "cpuidle", RTM_CHECK_OK, "no cpuidle driver");
}

static void check_smt(struct rtm_sysinfo *si)
{
	if (si->smt_active == 1)
		add_check(si, "smt", RTM_CHECK_WARN, "SMT active: sibling threads share a core's "
			  "execution units; boot with nosmt or keep the siblings of RT CPUs idle");
	else if (si->smt_active == 0)
		add_check(si, "smt", RTM_CHECK_OK, "SMT off (%s)",
			  si->smt_control[0] ? si->smt_control : "inactive");
}

static void check_throttling(struct rtm_sysinfo *si)
{
	if (si->rt_runtime_us == INT64_MIN)
		return;
	if (si->rt_runtime_us < 0)
		add_check(si, "rt_throttling", RTM_CHECK_OK, "RT throttling off "
			  "(sched_rt_runtime_us=-1): a runaway RT task can starve the CPU");
	else
		add_check(si, "rt_throttling", RTM_CHECK_INFO, "RT throttling on: RT tasks may use "
			  "%lld of every %lld us; a busy RT task is stopped for %lld us each period "
			  "(any busy RT loop sees this); for dedicated tests: echo -1 > "
			  "/proc/sys/kernel/sched_rt_runtime_us", (long long)si->rt_runtime_us,
			  (long long)si->rt_period_us,
			  (long long)(si->rt_period_us - si->rt_runtime_us));
}

static void check_misc(struct rtm_sysinfo *si)
{
	if (!strcmp(si->thp, "always"))
		add_check(si, "thp", RTM_CHECK_WARN, "transparent hugepages 'always': khugepaged and "
			  "compaction stall page faults; use madvise or never");
	else if (si->thp[0])
		add_check(si, "thp", RTM_CHECK_OK, "transparent hugepages '%s'", si->thp);

	if (si->irqbalance)
		add_check(si, "irqbalance", RTM_CHECK_WARN, "irqbalance is running: it may move "
			  "interrupts onto RT CPUs; stop it or ban them (IRQBALANCE_BANNED_CPULIST)");
	else
		add_check(si, "irqbalance", RTM_CHECK_OK, "irqbalance not running");

	if (si->timer_migration == 1)
		add_check(si, "timer_migration", RTM_CHECK_INFO, "timer_migration=1: timers may be "
			  "moved between CPUs; the realtime tuned profile sets 0 (sysctl "
			  "kernel.timer_migration=0)");
	else if (si->timer_migration == 0)
		add_check(si, "timer_migration", RTM_CHECK_OK, "timer_migration=0");

	if (si->nmi_watchdog == 1)
		add_check(si, "nmi_watchdog", RTM_CHECK_INFO, "NMI watchdog on: periodic NMIs "
			  "interrupt every CPU; sysctl kernel.nmi_watchdog=0 for measurements");

	if (si->clocksource[0]) {
		if (!strcmp(si->arch, "x86_64") && strcmp(si->clocksource, "tsc") != 0)
			add_check(si, "clocksource", RTM_CHECK_WARN, "clocksource %s: clock reads "
				  "are slow and add to every timestamp; use tsc when it is stable "
				  "(available: %s)", si->clocksource, si->clocksources);
		else
			add_check(si, "clocksource", RTM_CHECK_OK, "clocksource %s", si->clocksource);
	}
}

const char *rtm_sysinfo_tracefs_problem(int errnum, const char *dir, char *buf, size_t len)
{
	if (errnum == ENOENT)
		snprintf(buf, len, "tracefs is not mounted at %s (mount -t tracefs nodev %s, as "
			 "root)", dir, dir);
	else if (errnum == EACCES || errnum == EPERM)
		snprintf(buf, len, "tracefs at %s is readable by root only: run as root (sudo)",
			 dir);
	else
		snprintf(buf, len, "cannot read tracefs at %s: %s", dir, strerror(errnum));
	return buf;
}

/* The kernel tracers rtmeasure measures with: the option using each, the config adding it. */
static const struct {
	const char *name, *config;
	bool noise;			/* a backend of noise, else of cyclic and run */
} ktracers[] = {
	{ "hwlat", "CONFIG_HWLAT_TRACER", true },
	{ "osnoise", "CONFIG_OSNOISE_TRACER", true },
	{ "timerlat", "CONFIG_TIMERLAT_TRACER", false },
};
#define NKTRACERS ((int)(sizeof(ktracers) / sizeof(ktracers[0])))

/* Some of the tracers in words: "hwlat and osnoise", their configs, the options using them. */
struct tracer_words {
	int n;
	char names[64], configs[128];
	char uses[96];		/* "noise --backend hwlat|osnoise and cyclic/run --backend timerlat" */
};

/* Append @s to @buf as item @i of @n: "a", "a and b", "a, b and c". */
static void put_item(char *buf, size_t len, int i, int n, const char *s)
{
	size_t off = strlen(buf);

	snprintf(buf + off, len - off, "%s%s", !i ? "" : i == n - 1 ? " and " : ", ", s);
}

/* The tracers whose bit in @have (bit i: ktracers[i]) is @want. */
static void tracer_words(unsigned int have, bool want, struct tracer_words *w)
{
	char noise[64] = "", other[64] = "";
	int i, k = 0;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < NKTRACERS; i++)
		w->n += !!(have & 1u << i) == want;
	for (i = 0; i < NKTRACERS; i++) {
		char *u = ktracers[i].noise ? noise : other;

		if (!!(have & 1u << i) != want)
			continue;
		put_item(w->names, sizeof(w->names), k, w->n, ktracers[i].name);
		put_item(w->configs, sizeof(w->configs), k++, w->n, ktracers[i].config);
		snprintf(u + strlen(u), sizeof(noise) - strlen(u), "%s%s", u[0] ? "|" :
			 ktracers[i].noise ? "noise --backend " : "cyclic/run --backend ",
			 ktracers[i].name);
	}
	put_item(w->uses, sizeof(w->uses), 0, 2, noise[0] ? noise : other);
	if (noise[0] && other[0])
		put_item(w->uses, sizeof(w->uses), 1, 2, other);
}

enum rtm_check_level rtm_sysinfo_tracers_verdict(bool hwlat, bool osnoise, bool timerlat,
						 char *buf, size_t len)
{
	unsigned int have = (hwlat ? 1u : 0) | (osnoise ? 2u : 0) | (timerlat ? 4u : 0);
	struct tracer_words w;
	size_t off;
	int n = 0;

	buf[0] = '\0';
	tracer_words(have, true, &w);
	if (w.n)
		n = snprintf(buf, len, "kernel tracer%s %s present: rtmeasure measures with %s "
			     "through %s (or --backend auto)", w.n > 1 ? "s" : "", w.names,
			     w.n > 1 ? "them" : "it", w.uses);
	off = n < 0 || (size_t)n >= len ? len : (size_t)n;
	tracer_words(have, false, &w);
	if (!w.n)
		return RTM_CHECK_OK;
	if (!off)
		snprintf(buf, len, "kernel lacks the %s tracer%s: rtmeasure measures with its "
			 "userspace probes and the irq/sched/timer tracepoints; %s would add %s",
			 w.names, w.n > 1 ? "s" : "", w.configs, w.uses);
	else if (off < len)	/* shorter: a check's text holds both halves */
		snprintf(buf + off, len - off, "; without %s it measures with its userspace "
			 "probes; %s would add %s", w.names, w.configs, w.uses);
	return RTM_CHECK_INFO;
}

static void check_tracing(struct rtm_sysinfo *si)
{
	char text[sizeof(si->checks[0].text)], why[200];
	int e = si->tracefs_errno ? si->tracefs_errno : ENOENT;
	enum rtm_check_level level;

	if (!si->tracefs[0]) {
		add_check(si, "tracefs", RTM_CHECK_WARN, "spike causes cannot be traced: %s",
			  rtm_sysinfo_tracefs_problem(e, "/sys/kernel/tracing", why, sizeof(why)));
		return;
	}
	level = rtm_sysinfo_tracers_verdict(si->has_hwlat, si->has_osnoise, si->has_timerlat, text,
					    sizeof(text));
	add_check(si, "tracers", level, "%s", text);
	if (!si->hist_triggers)
		add_check(si, "hist_triggers", RTM_CHECK_INFO, "no hist triggers "
			  "(CONFIG_HIST_TRIGGERS off): in-kernel histograms of events cannot be "
			  "made on this kernel (rtmeasure streams events to userspace either way)");
	if (!si->has_events_irq || !si->has_events_sched || !si->has_events_timer)
		add_check(si, "events", RTM_CHECK_WARN, "tracepoint groups missing (%s%s%s): "
			  "spike analysis is incomplete", si->has_events_irq ? "" : "irq ",
			  si->has_events_sched ? "" : "sched ", si->has_events_timer ? "" : "timer");
}

struct rtm_sysinfo *rtm_sysinfo_collect(const char *root, struct rtm_error *err)
{
	struct rtm_sysinfo *si = rtm_sysinfo_read(root, err);

	if (si)
		rtm_sysinfo_check(si);
	return si;
}

void rtm_sysinfo_check(struct rtm_sysinfo *si)
{
	si->nchecks = 0;
	check_preempt(si);
	check_virt(si);
	check_isolation(si);
	check_governor(si);
	check_idle(si);
	check_smt(si);
	check_throttling(si);
	check_misc(si);
	check_tracing(si);
}

/* ------------------------------------------------------------ JSON */

static json_t *jstr_or_null(const char *s)
{
	return s && *s ? rtm_json_text(s) : json_null();
}

static json_t *words_array(const char *list)
{
	json_t *a = json_array();
	const char *p = list;

	while (*p) {
		size_t n;

		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if (n)
			json_array_append_new(a, rtm_json_textn(p, n));
		p += n;
	}
	return a;
}

/* cpu.per_cpu: each CPU's governor, SMT siblings and idle states */
static json_t *per_cpu_json(const struct rtm_sysinfo *si)
{
	json_t *cpus = json_array();
	int i, s;

	for (i = 0; i < si->ncpus; i++) {
		const struct rtm_cpu_info *c = &si->cpus[i];
		json_t *states = json_array();

		for (s = 0; s < c->nstates; s++)
			json_array_append_new(states, json_pack("{s:o, s:I, s:b}",
				"name", rtm_json_text(c->states[s].name), "latency_us",
				(json_int_t)c->states[s].latency_us, "disabled", c->states[s].disabled));
		json_array_append_new(cpus, json_pack("{s:i, s:b, s:o, s:o, s:o}",
			"cpu", c->cpu, "online", c->online, "governor", jstr_or_null(c->governor),
			"thread_siblings", jstr_or_null(c->siblings), "idle_states", states));
	}
	return cpus;
}

static json_t *checks_json(const struct rtm_sysinfo *si)
{
	json_t *checks = json_array();
	int i;

	for (i = 0; i < si->nchecks; i++)
		json_array_append_new(checks, json_pack("{s:s, s:s, s:o}", "id", si->checks[i].id,
			"level", rtm_check_level_name(si->checks[i].level),
			"message", rtm_json_text(si->checks[i].text)));
	return checks;
}

/* kernel.cmdline_options: the boot options that matter to latency */
static json_t *cmdline_opts_json(const struct rtm_cmdline_opts *o)
{
	json_t *opts;

	opts = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"isolcpus", jstr_or_null(o->isolcpus), "nohz_full", jstr_or_null(o->nohz_full),
		"rcu_nocbs", jstr_or_null(o->rcu_nocbs), "irqaffinity", jstr_or_null(o->irqaffinity),
		"idle", jstr_or_null(o->idle),
		"processor.max_cstate", jstr_or_null(o->processor_max_cstate),
		"intel_idle.max_cstate", jstr_or_null(o->intel_idle_max_cstate),
		"mitigations", jstr_or_null(o->mitigations), "preempt", jstr_or_null(o->preempt),
		"skew_tick", jstr_or_null(o->skew_tick), "tsc", jstr_or_null(o->tsc),
		"nmi_watchdog", jstr_or_null(o->nmi_watchdog),
		"rcu_nocb_poll", o->rcu_nocb_poll ? json_true() : json_false(),
		"nosoftlockup", o->nosoftlockup ? json_true() : json_false());
	json_object_set_new(opts, "threadirqs", o->threadirqs ? json_true() : json_false());
	json_object_set_new(opts, "nosmt", o->nosmt ? json_true() : json_false());
	return opts;
}

json_t *rtm_sysinfo_to_json(const struct rtm_sysinfo *si)
{
	json_t *cpus = per_cpu_json(si), *checks = checks_json(si);
	json_t *opts = cmdline_opts_json(&si->opts);

	return json_pack("{s:s, s:o, s:b, s:o,"
			 " s:{s:o, s:o, s:{s:s, s:b, s:o}, s:o, s:o, s:o, s:o},"
			 " s:{s:o, s:o, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o},"
			 " s:{s:o, s:o, s:o, s:o}, s:{s:o}, s:b,"
			 " s:{s:o, s:o}, s:{s:b, s:o, s:o, s:o, s:o},"
			 " s:{s:o, s:o, s:b, s:b, s:b, s:b, s:o}, s:o}",
		"schema", "rtmeasure-sysinfo/1",
		"root", rtm_json_text(si->root), "live", si->live,
		"hostname", rtm_json_text(si->hostname),
		"kernel",
			"release", rtm_json_text(si->release), "version", rtm_json_text(si->version),
			"preempt", "model", rtm_preempt_name(si->preempt),
				"dynamic", si->preempt_dynamic,
				"source", rtm_json_text(si->preempt_source),
			"hz", si->config_hz ? json_integer(si->config_hz) : json_null(),
			"no_hz_full", si->config_no_hz_full < 0 ? json_null() :
				json_boolean(si->config_no_hz_full),
			"cmdline", rtm_json_text(si->cmdline), "cmdline_options", opts,
		"cpu",
			"model", jstr_or_null(si->cpu_model), "arch", jstr_or_null(si->arch),
			"online_count", si->cpus_online,
			"online", jstr_or_null(si->online), "possible", jstr_or_null(si->possible),
			"isolated", jstr_or_null(si->isolated),
			"nohz_full", jstr_or_null(si->nohz_full),
			"smt_active", si->smt_active < 0 ? json_null() : json_boolean(si->smt_active),
			"cpufreq_driver", jstr_or_null(si->cpufreq_driver),
			"cpuidle_driver", jstr_or_null(si->cpuidle_driver),
			"cpuidle_governor", jstr_or_null(si->cpuidle_governor),
			"per_cpu", cpus,
		"sched",
			"rt_runtime_us", si->rt_runtime_us == INT64_MIN ? json_null() :
				json_integer(si->rt_runtime_us),
			"rt_period_us", si->rt_period_us == INT64_MIN ? json_null() :
				json_integer(si->rt_period_us),
			"timer_migration", si->timer_migration < 0 ? json_null() :
				json_integer(si->timer_migration),
			"nmi_watchdog", si->nmi_watchdog < 0 ? json_null() :
				json_integer(si->nmi_watchdog),
		"memory", "thp", jstr_or_null(si->thp),
		"irqbalance", si->irqbalance,
		"clocksource", "current", jstr_or_null(si->clocksource),
			"available", words_array(si->clocksources),
		"virtualization", "vm", si->vm, "hypervisor", jstr_or_null(si->hypervisor),
			"source", jstr_or_null(si->vm_source),
			"kernel", jstr_or_null(si->hypervisor_kernel),
			"cpuid", jstr_or_null(si->hypervisor_cpuid),
		"tracing", "tracefs", jstr_or_null(si->tracefs), "tracers", words_array(si->tracers),
			"hwlat", si->has_hwlat, "osnoise", si->has_osnoise,
			"timerlat", si->has_timerlat, "hist_triggers", si->hist_triggers,
			"event_groups", words_array(si->event_groups),
		"checks", checks);
}
