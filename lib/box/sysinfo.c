// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysinfo.c - collect the facts about a box that decide its RT latency
 * (rtm_sysinfo_read). The verdicts on them are sysinfo_checks.c's.
 *
 * Every read goes through si->root so the same code runs on recorded trees.
 * Things that cannot be recorded as files (CPUID, a temporary tracefs mount)
 * are only consulted when the root is the live system.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/grow.h"
#include "core/task.h"
#include "box/sysinfo.h"
#include "box/sysinfo_priv.h"
#include "core/units.h"

/* The isolated CPUs: read here for the collection and rtm_sysinfo_isolated_cpus(). */
#define PATH_ISOLATED	"/sys/devices/system/cpu/isolated"
#define PATH_NOHZ_FULL	"/sys/devices/system/cpu/nohz_full"

#define strscpy_buf(dst, src) snprintf((dst), sizeof(dst), "%s", (src))

const char *rtm_preempt_name(enum rtm_preempt p)
{
	switch (p) {
	case RTM_PREEMPT_NONE:		return "none";
	case RTM_PREEMPT_VOLUNTARY:	return "voluntary";
	case RTM_PREEMPT_FULL:		return "full";
	case RTM_PREEMPT_LAZY:		return "lazy";
	case RTM_PREEMPT_RT:		return "rt";
	default:			return "unknown";
	}
}

static enum rtm_preempt preempt_from_word(const char *w, size_t len)
{
	static const struct { const char *name; enum rtm_preempt p; } map[] = {
		{ "none", RTM_PREEMPT_NONE }, { "voluntary", RTM_PREEMPT_VOLUNTARY },
		{ "full", RTM_PREEMPT_FULL }, { "lazy", RTM_PREEMPT_LAZY },
		{ "rt", RTM_PREEMPT_RT },
	};
	unsigned int i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strlen(map[i].name) == len && strncmp(w, map[i].name, len) == 0)
			return map[i].p;
	return RTM_PREEMPT_UNKNOWN;
}

/* ------------------------------------------------------------ command line */

/* Kernel parameter names treat '-' and '_' alike. */
static bool param_eq(const char *a, size_t alen, const char *b)
{
	size_t i;

	if (alen != strlen(b))
		return false;
	for (i = 0; i < alen; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return false;
	}
	return true;
}

static void set_opt(char **slot, const char *val, size_t len)
{
	free(*slot);
	*slot = strndup(val, len);
}

static void parse_cmdline(struct rtm_sysinfo *si)
{
	static const struct { const char *name; size_t off; } params[] = {
#define P(n, f) { n, offsetof(struct rtm_cmdline_opts, f) }
		P("isolcpus", isolcpus), P("nohz_full", nohz_full), P("rcu_nocbs", rcu_nocbs),
		P("irqaffinity", irqaffinity), P("idle", idle),
		P("processor.max_cstate", processor_max_cstate),
		P("intel_idle.max_cstate", intel_idle_max_cstate),
		P("mitigations", mitigations), P("preempt", preempt), P("nosmt", nosmt),
		P("threadirqs", threadirqs), P("skew_tick", skew_tick),
		P("nosoftlockup", nosoftlockup), P("tsc", tsc), P("nmi_watchdog", nmi_watchdog),
		P("rcu_nocb_poll", rcu_nocb_poll),
#undef P
	};
	const char *p = si->cmdline;

	while (*p) {
		const char *tok, *eq, *val;
		size_t klen, vlen, tlen;
		bool quoted = false;
		unsigned int i;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		tok = p;
		while (*p && (quoted || (*p != ' ' && *p != '\t' && *p != '\n'))) {
			if (*p == '"')
				quoted = !quoted;
			p++;
		}
		tlen = (size_t)(p - tok);
		if (tlen == 2 && strncmp(tok, "--", 2) == 0)
			break;		/* the rest belongs to init */
		eq = memchr(tok, '=', tlen);
		klen = eq ? (size_t)(eq - tok) : tlen;
		val = eq ? eq + 1 : "";
		vlen = eq ? tlen - klen - 1 : 0;
		if (vlen >= 2 && val[0] == '"' && val[vlen - 1] == '"') {
			val++;
			vlen -= 2;
		}
		for (i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
			if (param_eq(tok, klen, params[i].name)) {
				set_opt((char **)((char *)&si->opts + params[i].off), val, vlen);
				break;
			}
		}
	}
}

static void free_cmdline_opts(struct rtm_cmdline_opts *o)
{
	char **slot = (char **)o;
	size_t i;

	for (i = 0; i < sizeof(*o) / sizeof(char *); i++)
		free(slot[i]);
	memset(o, 0, sizeof(*o));
}

/* ------------------------------------------------------------ kernel config */

/* Returns the value of CONFIG_@name in @cfg ("y", "250", ...) or NULL. */
static const char *config_value(const char *cfg, const char *name, char *buf, size_t len)
{
	size_t nlen = strlen(name);
	const char *p = cfg;

	while ((p = strstr(p, name)) != NULL) {
		bool at_line_start = (p == cfg || p[-1] == '\n');

		if (at_line_start && p[nlen] == '=') {
			const char *v = p + nlen + 1, *e = strchrnul(v, '\n');

			snprintf(buf, len, "%.*s", (int)(e - v), v);
			return buf;
		}
		p += nlen;
	}
	return NULL;
}

static char *read_config(struct rtm_sysinfo *si)
{
	char path[PATH_MAX];
	char *cfg;

	cfg = rtm_read_gz(si->root, "/proc/config.gz", NULL);
	if (cfg) {
		strscpy_buf(si->config_source, "/proc/config.gz");
		return cfg;
	}
	snprintf(path, sizeof(path), "/boot/config-%s", si->release);
	cfg = rtm_read_all(si->root, path, NULL);
	if (cfg)
		snprintf(si->config_source, sizeof(si->config_source), "%.95s", path);
	return cfg;
}

/*
 * Whether kernel lockdown closes debugfs's writable files (such as
 * sched/preempt): each refused open writes a line to the kernel log, so they
 * are not tried then. The mode is in securityfs's lockdown file, "[none]"
 * when open; where securityfs is not mounted on a live box it is read through
 * a temporary mount, as tracefs is. Unknown counts as open (a recorded tree,
 * a kernel without the lockdown module).
 */
bool rtm_sysinfo_debugfs_closed(const char *root)
{
	char buf[128] = "", tmp[] = "/tmp/rtmeasure-securityfs.XXXXXX", file[64];

	if (rtm_read_small(root, "/sys/kernel/security/lockdown", buf, sizeof(buf)) <= 0 &&
	    !strcmp(root, "/") && geteuid() == 0 && mkdtemp(tmp)) {
		if (mount("securityfs", tmp, "securityfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  NULL) == 0) {
			snprintf(file, sizeof(file), "%s/lockdown", tmp);
			rtm_read_small("/", file, buf, sizeof(buf));
			umount2(tmp, MNT_DETACH);
		}
		rmdir(tmp);
	}
	return buf[0] && !strstr(buf, "[none]");
}

static void collect_preempt(struct rtm_sysinfo *si, const char *cfg)
{
	char buf[256], v[32];
	int64_t rt;

	si->preempt = RTM_PREEMPT_UNKNOWN;
	si->preempt_dynamic = strstr(si->version, "PREEMPT_DYNAMIC") != NULL;
	if (cfg && config_value(cfg, "CONFIG_PREEMPT_DYNAMIC", v, sizeof(v)) && !strcmp(v, "y"))
		si->preempt_dynamic = true;

	if (rtm_read_s64(si->root, "/sys/kernel/realtime", &rt) == 0 && rt == 1) {
		si->preempt = RTM_PREEMPT_RT;
		strscpy_buf(si->preempt_source, "/sys/kernel/realtime");
		return;
	}
	if (strstr(si->version, "PREEMPT_RT")) {
		si->preempt = RTM_PREEMPT_RT;
		strscpy_buf(si->preempt_source, "kernel version string");
		return;
	}
	if (cfg && config_value(cfg, "CONFIG_PREEMPT_RT", v, sizeof(v)) && !strcmp(v, "y")) {
		si->preempt = RTM_PREEMPT_RT;
		snprintf(si->preempt_source, sizeof(si->preempt_source), "kernel config (%s)",
			 si->config_source);
		return;
	}
	if (si->preempt_dynamic) {
		/* "none voluntary (full) lazy": the current mode is in parentheses */
		if (!rtm_sysinfo_debugfs_closed(si->root) &&
		    rtm_read_small(si->root, "/sys/kernel/debug/sched/preempt", buf,
				   sizeof(buf)) > 0) {
			char *o = strchr(buf, '('), *c = o ? strchr(o, ')') : NULL;

			if (o && c) {
				si->preempt = preempt_from_word(o + 1, (size_t)(c - o - 1));
				strscpy_buf(si->preempt_source, "/sys/kernel/debug/sched/preempt");
				if (si->preempt != RTM_PREEMPT_UNKNOWN)
					return;
			}
		}
		if (si->opts.preempt) {
			si->preempt = preempt_from_word(si->opts.preempt, strlen(si->opts.preempt));
			strscpy_buf(si->preempt_source, "boot option preempt=");
			if (si->preempt != RTM_PREEMPT_UNKNOWN)
				return;
		}
	}
	if (cfg) {
		static const struct { const char *opt; enum rtm_preempt p; } m[] = {
			{ "CONFIG_PREEMPT_NONE", RTM_PREEMPT_NONE },
			{ "CONFIG_PREEMPT_VOLUNTARY", RTM_PREEMPT_VOLUNTARY },
			{ "CONFIG_PREEMPT", RTM_PREEMPT_FULL },
			{ "CONFIG_PREEMPT_LAZY", RTM_PREEMPT_LAZY },
		};
		unsigned int i;

		for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
			if (config_value(cfg, m[i].opt, v, sizeof(v)) && !strcmp(v, "y")) {
				si->preempt = m[i].p;
				snprintf(si->preempt_source, sizeof(si->preempt_source),
					 "kernel config default (%s)", si->config_source);
				return;
			}
		}
	}
	if (!si->preempt_dynamic && strstr(si->version, " PREEMPT ")) {
		si->preempt = RTM_PREEMPT_FULL;
		strscpy_buf(si->preempt_source, "kernel version string");
	} else if (!si->preempt_dynamic && strstr(si->version, " PREEMPT_LAZY ")) {
		si->preempt = RTM_PREEMPT_LAZY;
		strscpy_buf(si->preempt_source, "kernel version string");
	} else {
		strscpy_buf(si->preempt_source, "not determinable (no config, no debugfs)");
	}
}

static void collect_config(struct rtm_sysinfo *si, const char *cfg)
{
	char v[32];

	/* CPU time accounting (irq --accounting): y or not, -1 without a config */
	static const struct { const char *opt; size_t off; } acct[] = {
#define ACCT(o, f) { o, offsetof(struct rtm_sysinfo, f) }
		ACCT("CONFIG_IRQ_TIME_ACCOUNTING", config_irq_time_accounting),
		ACCT("CONFIG_TICK_CPU_ACCOUNTING", config_tick_cpu_accounting),
		ACCT("CONFIG_VIRT_CPU_ACCOUNTING_GEN", config_virt_cpu_accounting_gen),
		ACCT("CONFIG_VIRT_CPU_ACCOUNTING_NATIVE", config_virt_cpu_accounting_native),
		ACCT("CONFIG_IRQ_FORCED_THREADING", config_irq_forced_threading),
		ACCT("CONFIG_PARAVIRT_TIME_ACCOUNTING", config_paravirt_time_accounting),
#undef ACCT
	};
	size_t i;

	for (i = 0; i < sizeof(acct) / sizeof(acct[0]); i++)
		*(int *)((char *)si + acct[i].off) = !cfg ? -1 :
			config_value(cfg, acct[i].opt, v, sizeof(v)) && !strcmp(v, "y");
	si->config_hz = 0;
	si->config_no_hz_full = -1;
	if (!cfg)
		return;
	if (config_value(cfg, "CONFIG_HZ", v, sizeof(v)))
		si->config_hz = atoi(v);
	si->config_no_hz_full = config_value(cfg, "CONFIG_NO_HZ_FULL", v, sizeof(v)) &&
				!strcmp(v, "y");
}

/* ------------------------------------------------------------ CPUs */

static int max_cpu_of(const char *list)
{
	struct rtm_cpulist cl;
	int max = -1;

	if (rtm_cpulist_parse(list, &cl, NULL) == 0) {
		if (cl.n)
			max = cl.cpus[cl.n - 1];
		rtm_cpulist_release(&cl);
	}
	return max;
}

static void collect_cpu_model(struct rtm_sysinfo *si)
{
	static const char *const keys[] = { "model name", "Model", "Hardware", "cpu model",
					     "uarch", NULL };
	char *info = rtm_read_all(si->root, "/proc/cpuinfo", NULL);
	const char *const *k;
	struct utsname u;

	if (info) {
		for (k = keys; *k && !si->cpu_model[0]; k++) {
			char *p = info;

			while ((p = strstr(p, *k)) != NULL) {
				if (p == info || p[-1] == '\n') {
					char *colon = strchr(p, ':'), *nl;

					if (colon && (nl = strchrnul(colon, '\n')) > colon) {
						char tmp[128];

						snprintf(tmp, sizeof(tmp), "%.*s",
							 (int)(nl - colon - 1), colon + 1);
						strscpy_buf(si->cpu_model, rtm_strstrip(tmp));
						break;
					}
				}
				p += strlen(*k);
			}
		}
		if (!si->cpu_model[0] && strstr(info, "CPU implementer")) {
			char *p = strstr(info, "CPU part");
			char tmp[64] = "";

			if (p)
				sscanf(p, "CPU part : %63s", tmp);
			snprintf(si->cpu_model, sizeof(si->cpu_model), "ARM CPU part %s", tmp);
		}
		/* On a recorded tree, tell the architecture from cpuinfo. */
		if (strstr(info, "vendor_id"))
			strscpy_buf(si->arch, "x86_64");
		else if (strstr(info, "CPU implementer"))
			strscpy_buf(si->arch, "aarch64");
		if (strstr(info, " hypervisor")) {
			si->vm = true;
			strscpy_buf(si->vm_source, "/proc/cpuinfo hypervisor flag");
		}
		free(info);
	}
	if (si->live && uname(&u) == 0)
		strscpy_buf(si->arch, u.machine);
}

void rtm_sysinfo_isolated_cpus(const char *root, struct rtm_cpulist *iso)
{
	static const char *const files[] = { PATH_ISOLATED, PATH_NOHZ_FULL };
	struct rtm_cpulist one;
	char buf[512];
	size_t f, cap = 0;
	int i;

	iso->n = 0;
	iso->cpus = NULL;
	for (f = 0; f < 2; f++) {
		if (rtm_read_small(root, files[f], buf, sizeof(buf)) <= 0 ||
		    !strcmp(rtm_strstrip(buf), "(null)"))
			continue;
		if (rtm_cpulist_parse(rtm_strstrip(buf), &one, NULL))
			continue;
		for (i = 0; i < one.n; i++) {
			int *n;

			if (rtm_cpulist_has(iso, one.cpus[i]))
				continue;
			n = rtm_grow(iso->cpus, &cap, (size_t)iso->n, sizeof(*n), 16);
			if (!n)
				break;
			iso->cpus = n;
			iso->cpus[iso->n++] = one.cpus[i];
		}
		rtm_cpulist_release(&one);
	}
}

static void collect_cpus(struct rtm_sysinfo *si)
{
	struct rtm_cpulist online;
	char buf[256];
	int max, i;

	rtm_read_small(si->root, "/sys/devices/system/cpu/possible", si->possible,
		       sizeof(si->possible));
	rtm_read_small(si->root, "/sys/devices/system/cpu/online", si->online,
		       sizeof(si->online));
	rtm_read_small(si->root, PATH_ISOLATED, si->isolated, sizeof(si->isolated));
	rtm_read_small(si->root, PATH_NOHZ_FULL, si->nohz_full, sizeof(si->nohz_full));
	if (strcmp(si->nohz_full, "(null)") == 0)
		si->nohz_full[0] = '\0';

	max = max_cpu_of(si->possible);
	if (max < 0)
		max = max_cpu_of(si->online);
	if (max < 0)
		max = 0;
	if (max >= RTM_MAX_CPUS)
		max = RTM_MAX_CPUS - 1;
	si->ncpus = max + 1;
	si->cpus = calloc((size_t)si->ncpus, sizeof(*si->cpus));
	if (!si->cpus) {
		si->ncpus = 0;
		return;
	}
	if (rtm_cpulist_parse(si->online, &online, NULL))
		online.n = 0, online.cpus = NULL;
	si->cpus_online = online.n;

	for (i = 0; i < si->ncpus; i++) {
		struct rtm_cpu_info *c = &si->cpus[i];
		int s;

		c->cpu = i;
		c->online = rtm_cpulist_has(&online, i);
		rtm_read_smallf(si->root, c->governor, sizeof(c->governor),
				"/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", i);
		rtm_read_smallf(si->root, c->siblings, sizeof(c->siblings),
				"/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", i);
		for (s = 0; s < (int)(sizeof(c->states) / sizeof(c->states[0])); s++) {
			struct rtm_idle_state *st = &c->states[c->nstates];
			char p[PATH_MAX];
			int64_t v;

			if (rtm_read_smallf(si->root, st->name, sizeof(st->name),
					    "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
					    i, s) < 0)
				break;
			snprintf(p, sizeof(p),
				 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/latency", i, s);
			st->latency_us = rtm_read_s64(si->root, p, &v) == 0 ? v : -1;
			snprintf(p, sizeof(p),
				 "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/disable", i, s);
			st->disabled = rtm_read_s64(si->root, p, &v) == 0 && v != 0;
			c->nstates++;
		}
	}
	rtm_cpulist_release(&online);

	rtm_read_small(si->root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver",
		       si->cpufreq_driver, sizeof(si->cpufreq_driver));
	rtm_read_small(si->root, "/sys/devices/system/cpu/cpuidle/current_driver",
		       si->cpuidle_driver, sizeof(si->cpuidle_driver));
	if (rtm_read_small(si->root, "/sys/devices/system/cpu/cpuidle/current_governor",
			   si->cpuidle_governor, sizeof(si->cpuidle_governor)) < 0)
		rtm_read_small(si->root, "/sys/devices/system/cpu/cpuidle/current_governor_ro",
			       si->cpuidle_governor, sizeof(si->cpuidle_governor));

	si->smt_active = -1;
	if (rtm_read_small(si->root, "/sys/devices/system/cpu/smt/active", buf, sizeof(buf)) > 0)
		si->smt_active = atoi(buf) ? 1 : 0;
	rtm_read_small(si->root, "/sys/devices/system/cpu/smt/control", si->smt_control,
		       sizeof(si->smt_control));
}

/* ------------------------------------------------------------ scheduler, memory */

static void collect_sched(struct rtm_sysinfo *si)
{
	char buf[128];
	int64_t v;

	si->rt_runtime_us = INT64_MIN;
	si->rt_period_us = INT64_MIN;
	if (rtm_read_s64(si->root, "/proc/sys/kernel/sched_rt_runtime_us", &v) == 0)
		si->rt_runtime_us = v;
	if (rtm_read_s64(si->root, "/proc/sys/kernel/sched_rt_period_us", &v) == 0)
		si->rt_period_us = v;
	si->timer_migration = -1;
	if (rtm_read_s64(si->root, "/proc/sys/kernel/timer_migration", &v) == 0)
		si->timer_migration = (int)v;
	si->nmi_watchdog = -1;
	if (rtm_read_s64(si->root, "/proc/sys/kernel/nmi_watchdog", &v) == 0)
		si->nmi_watchdog = (int)v;

	/* "always [madvise] never": the selected mode is in brackets */
	if (rtm_read_small(si->root, "/sys/kernel/mm/transparent_hugepage/enabled", buf,
			   sizeof(buf)) > 0) {
		char *o = strchr(buf, '['), *c = o ? strchr(o, ']') : NULL;

		if (o && c)
			snprintf(si->thp, sizeof(si->thp), "%.*s", (int)(c - o - 1), o + 1);
	}
}

/* 1 (stop listing) when process @pid is irqbalance. */
static int is_irqbalance(int pid, void *arg)
{
	struct rtm_sysinfo *si = arg;
	char comm[64];

	return rtm_task_read_comm(si->root, pid, comm, sizeof(comm)) > 0 &&
	       strcmp(comm, "irqbalance") == 0;
}

static void collect_irqbalance(struct rtm_sysinfo *si)
{
	if (rtm_task_each_process(si->root, is_irqbalance, si) == 1)
		si->irqbalance = true;
}

static void collect_clock(struct rtm_sysinfo *si)
{
	rtm_read_small(si->root,
		       "/sys/devices/system/clocksource/clocksource0/current_clocksource",
		       si->clocksource, sizeof(si->clocksource));
	rtm_read_small(si->root,
		       "/sys/devices/system/clocksource/clocksource0/available_clocksource",
		       si->clocksources, sizeof(si->clocksources));
	rtm_strstrip(si->clocksources);
}

/* ------------------------------------------------------------ tracing */

static void add_group(struct rtm_sysinfo *si, const char *g, size_t len)
{
	size_t used = strlen(si->event_groups);
	const char *p = si->event_groups;

	while (*p) {
		size_t n = strcspn(p, " ");

		if (n == len && strncmp(p, g, len) == 0)
			return;		/* already listed */
		p += n;
		while (*p == ' ')
			p++;
	}
	if (used + len + 2 > sizeof(si->event_groups))
		return;
	if (used)
		si->event_groups[used++] = ' ';
	memcpy(si->event_groups + used, g, len);
	si->event_groups[used + len] = '\0';
}

static bool has_word(const char *list, const char *w)
{
	size_t len = strlen(w);
	const char *p = list;

	while ((p = strstr(p, w)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0' ||
						    p[len] == '\n'))
			return true;
		p += len;
	}
	return false;
}

/* Read tracing features from a tracefs directory given relative to @root; 0 or -errno. */
static int read_tracefs(struct rtm_sysinfo *si, const char *root, const char *dir)
{
	char path[PATH_MAX];
	char *events, *line;
	int ret;

	snprintf(path, sizeof(path), "%s/available_tracers", dir);
	ret = rtm_read_small(root, path, si->tracers, sizeof(si->tracers));
	if (ret < 0)
		return ret;
	rtm_strstrip(si->tracers);
	si->has_hwlat = has_word(si->tracers, "hwlat");
	si->has_osnoise = has_word(si->tracers, "osnoise");
	si->has_timerlat = has_word(si->tracers, "timerlat");

	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/hist", dir);
	si->hist_triggers = rtm_exists(root, path);

	snprintf(path, sizeof(path), "%s/available_events", dir);
	events = rtm_read_all(root, path, NULL);
	if (events) {
		for (line = events; *line; ) {
			char *nl = strchrnul(line, '\n'), *colon = memchr(line, ':',
									  (size_t)(nl - line));

			if (colon)
				add_group(si, line, (size_t)(colon - line));
			line = *nl ? nl + 1 : nl;
		}
		free(events);
	}
	si->has_events_irq = has_word(si->event_groups, "irq");
	si->has_events_sched = has_word(si->event_groups, "sched");
	si->has_events_timer = has_word(si->event_groups, "timer");
	si->has_events_irq_vectors = has_word(si->event_groups, "irq_vectors");
	si->has_events_ipi = has_word(si->event_groups, "ipi");
	si->has_events_nmi = has_word(si->event_groups, "nmi");
	return 0;
}

static void collect_tracing(struct rtm_sysinfo *si)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		ret = read_tracefs(si, si->root, dirs[i]);
		if (!ret) {
			strscpy_buf(si->tracefs, dirs[i]);
			si->tracefs_errno = 0;
			return;
		}
		/* the usual place tells: EACCES there is a tracefs closed to this user */
		if (i == 0)
			si->tracefs_errno = -ret;
	}
	/*
	 * Live and not mounted: mount it on a private directory for the reading
	 * only, so the system is left as it was found.
	 */
	if (si->live && geteuid() == 0) {
		char tmp[] = "/tmp/rtmeasure-tracefs.XXXXXX";

		if (!mkdtemp(tmp))
			return;
		if (mount("nodev", tmp, "tracefs", 0, NULL) == 0) {
			if (read_tracefs(si, "/", tmp) == 0)
				strscpy_buf(si->tracefs, "(not mounted; read through a temporary mount)");
			umount2(tmp, MNT_DETACH);
		}
		rmdir(tmp);
	}
}

/* ------------------------------------------------------------ entry point */

struct rtm_sysinfo *rtm_sysinfo_read(const char *root, struct rtm_error *err)
{
	struct rtm_sysinfo *si;
	char *cfg;

	if (!root || !*root)
		root = "/";
	si = calloc(1, sizeof(*si));
	if (!si) {
		rtm_error_set(err, "out of memory");
		return NULL;
	}
	snprintf(si->root, sizeof(si->root), "%s", root);
	si->live = strcmp(root, "/") == 0;

	if (rtm_read_small(root, "/proc/sys/kernel/osrelease", si->release,
			   sizeof(si->release)) <= 0) {
		rtm_error_set(err, "%s does not look like a Linux root: cannot read "
			      "%s/proc/sys/kernel/osrelease (is /proc mounted?)", root,
			      si->live ? "" : root);
		free(si);
		errno = ENOENT;
		return NULL;
	}
	rtm_read_small(root, "/proc/sys/kernel/version", si->version, sizeof(si->version));
	rtm_read_small(root, "/proc/sys/kernel/hostname", si->hostname, sizeof(si->hostname));
	rtm_read_small(root, "/proc/cmdline", si->cmdline, sizeof(si->cmdline));
	parse_cmdline(si);

	cfg = read_config(si);
	collect_preempt(si, cfg);
	collect_config(si, cfg);
	free(cfg);

	collect_cpu_model(si);
	collect_cpus(si);
	collect_sched(si);
	collect_irqbalance(si);
	collect_clock(si);
	rtm_sysinfo_collect_virt(si);
	collect_tracing(si);
	return si;
}

void rtm_sysinfo_free(struct rtm_sysinfo *si)
{
	if (!si)
		return;
	free_cmdline_opts(&si->opts);
	free(si->cpus);
	free(si);
}
