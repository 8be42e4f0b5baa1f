// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: sysinfo on trees recorded from real kernels (tests/data/sysroot-*),
 * and its verdicts on copies of a real tree with single files changed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "box/sysinfo.h"
#include "present/sysinfo_print.h"
#include "../tap.h"

static const char *datadir;

/* Expected facts of one recorded tree; NULL / -1 means "not checked". */
struct tree_case {
	const char *tree;
	const char *release;
	enum rtm_preempt preempt;
	int dynamic;
	const char *preempt_source;	/* substring */
	int vm;
	int hwlat, osnoise, timerlat, hist;
	int online;			/* minimum */
	const char *isolated;
	const char *nohz_full;
	int64_t rt_runtime_us;
	const char *clocksource;
	const char *thp;
	const char *warn_ids;		/* checks that must be "warn", space separated */
	const char *ok_ids;		/* checks that must be "ok" */
};

static const struct tree_case trees[] = {
	{ "sysroot-vm-6.18", "6.18.44-fc-v1098", RTM_PREEMPT_NONE, 1, "config", 1,
	  0, 0, 0, 0, 2, "", "", 950000, "tsc", "madvise",
	  "preempt virtualization", "clocksource thp irqbalance" },
	{ "sysroot-stock-6.1", "6.1.0-57-amd64", RTM_PREEMPT_VOLUNTARY, 1,
	  "/sys/kernel/debug/sched/preempt", 1, 0, 0, 0, 1, 2, "", "", 950000, "hpet",
	  "always", "preempt virtualization clocksource thp", "irqbalance" },
	{ "sysroot-rt-6.1", NULL, RTM_PREEMPT_RT, -1, "/sys/kernel/realtime", 1,
	  1, 1, 1, 1, 2, "", "", 950000, NULL, NULL, "virtualization", "preempt tracers" },
	{ "sysroot-rt-isolated", NULL, RTM_PREEMPT_RT, -1, "/sys/kernel/realtime", 1,
	  1, 1, 1, 1, 4, "2-3", "2-3", 950000, NULL, NULL, "virtualization",
	  "preempt tracers isolation" },
	{ "sysroot-many-cpus", NULL, RTM_PREEMPT_VOLUNTARY, 1, NULL, 1,
	  0, 0, 0, 1, 32, "2-31", "2-31", 950000, NULL, NULL, "preempt", "isolation" },
};

static const struct rtm_check *find_check(const struct rtm_sysinfo *si, const char *id)
{
	int i;

	for (i = 0; i < si->nchecks; i++)
		if (!strcmp(si->checks[i].id, id))
			return &si->checks[i];
	return NULL;
}

static void check_levels(const struct rtm_sysinfo *si, const char *name, const char *ids,
			 enum rtm_check_level level)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", ids ? ids : "");
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		const struct rtm_check *c = find_check(si, tok);

		ok(c && c->level == level, "%s: check %s is %s (%s)", name, tok,
		   rtm_check_level_name(level), c ? c->text : "missing");
	}
}

static void test_tree(const struct tree_case *t)
{
	char root[PATH_MAX];
	struct rtm_error err = { "" };
	struct rtm_sysinfo *si;
	json_t *j;
	char *text;

	snprintf(root, sizeof(root), "%s/%s", datadir, t->tree);
	si = rtm_sysinfo_collect(root, &err);
	if (!ok(si != NULL, "%s: collected (%s)", t->tree, err.msg))
		return;
	if (t->release)
		is_str(si->release, t->release, "release");
	is_str(rtm_preempt_name(si->preempt), rtm_preempt_name(t->preempt), "preemption model");
	if (t->dynamic >= 0)
		is_int(si->preempt_dynamic, t->dynamic, "PREEMPT_DYNAMIC");
	if (t->preempt_source)
		ok(strstr(si->preempt_source, t->preempt_source) != NULL,
		   "%s: model read from %s (%s)", t->tree, t->preempt_source, si->preempt_source);
	is_int(si->vm, t->vm, "virtual machine detected");
	is_int(si->has_hwlat, t->hwlat, "hwlat tracer");
	is_int(si->has_osnoise, t->osnoise, "osnoise tracer");
	is_int(si->has_timerlat, t->timerlat, "timerlat tracer");
	is_int(si->hist_triggers, t->hist, "hist triggers");
	ok(si->cpus_online >= t->online, "%s: at least %d CPUs online (%d)", t->tree, t->online,
	   si->cpus_online);
	ok(si->ncpus >= si->cpus_online, "%s: possible >= online", t->tree);
	is_str(si->isolated, t->isolated, "isolated CPUs");
	is_str(si->nohz_full, t->nohz_full, "nohz_full CPUs");
	is_int(si->rt_runtime_us, t->rt_runtime_us, "sched_rt_runtime_us");
	if (t->clocksource)
		is_str(si->clocksource, t->clocksource, "clocksource");
	if (t->thp)
		is_str(si->thp, t->thp, "THP mode");
	ok(si->has_events_irq && si->has_events_sched && si->has_events_timer,
	   "%s: irq, sched and timer event groups found", t->tree);
	check_levels(si, t->tree, t->warn_ids, RTM_CHECK_WARN);
	check_levels(si, t->tree, t->ok_ids, RTM_CHECK_OK);

	j = rtm_sysinfo_to_json(si);
	text = j ? json_dumps(j, 0) : NULL;
	ok(j && text && json_is_array(json_object_get(j, "checks")), "%s: JSON form", t->tree);
	if (j) {
		json_t *pre = json_object_get(json_object_get(j, "kernel"), "preempt");

		is_str(json_string_value(json_object_get(pre, "model")),
		       rtm_preempt_name(t->preempt), "JSON preempt model");
	}
	free(text);
	json_decref(j);

	/* human form: wrapped at 80 columns, every check listed, no escapes */
	{
		char *buf = NULL, *line, *save = NULL;
		size_t len = 0;
		int longest = 0, found = 0, i;
		FILE *f = open_memstream(&buf, &len);

		rtm_sysinfo_fprint(si, f, false, 80);
		fclose(f);
		for (i = 0; i < si->nchecks; i++) {
			char key[48];

			snprintf(key, sizeof(key), " %-16s ", si->checks[i].id);
			found += strstr(buf, key) != NULL;
		}
		is_int(found, si->nchecks, "human form lists every check");
		ok(!strchr(buf, '\033'), "%s: no escape codes without colour", t->tree);
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if ((int)strlen(line) > longest && strchr(line + 14, ' '))
				longest = (int)strlen(line);
		ok(longest <= 80, "%s: lines wrapped at 80 columns (longest %d)", t->tree, longest);
		free(buf);
	}

	/* human form names hist triggers on the tracing line, present or not */
	{
		char *buf = NULL, *flat, *p, *q;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		rtm_sysinfo_fprint(si, f, false, 80);
		fclose(f);
		/* join the wrapped lines: whitespace runs become one space */
		flat = malloc(len + 1);
		for (p = buf, q = flat; flat && *p; p++)
			if (*p != ' ' && *p != '\n')
				*q++ = *p;
			else if (q > flat && q[-1] != ' ')
				*q++ = ' ';
		if (flat) {
			*q = '\0';
			p = strstr(flat, "tracing /");
			q = p ? strstr(p, " cmdline ") : NULL;
			if (q)
				*q = '\0';
		}
		ok(p != NULL, "%s: tracing line printed", t->tree);
		if (p && t->hist)
			ok(strstr(p, "; hist triggers") && !strstr(p, "no hist triggers"),
			   "%s: text names hist triggers (%s)", t->tree, p);
		else if (p)
			ok(strstr(p, "; no hist triggers") != NULL,
			   "%s: text says there are no hist triggers (%s)", t->tree, p);
		free(flat);
		free(buf);
	}
	rtm_sysinfo_free(si);
}

/* ------------------------------------------------------------ mutated copies */

static char work[PATH_MAX];

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[2 * PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0) {
		diag("command failed: %s", cmd);
		exit(99);
	}
}

/* Write @content to @rel below the work tree, creating directories. */
static void put(const char *rel, const char *content)
{
	char path[PATH_MAX + 64];
	FILE *f;

	sh("mkdir -p \"$(dirname '%s%s')\"", work, rel);
	snprintf(path, sizeof(path), "%s%s", work, rel);
	f = fopen(path, "w");
	if (!f) {
		diag("cannot write %s: %s", path, strerror(errno));
		exit(99);
	}
	fputs(content, f);
	fclose(f);
}

static void fresh_copy(void)
{
	sh("rm -rf '%s' && cp -r '%s/sysroot-vm-6.18' '%s' && chmod -R u+w '%s'", work, datadir,
	   work, work);
}

static struct rtm_sysinfo *collect_work(void)
{
	struct rtm_error err = { "" };
	struct rtm_sysinfo *si = rtm_sysinfo_collect(work, &err);

	if (!si) {
		diag("collect failed: %s", err.msg);
		exit(99);
	}
	return si;
}

static void expect(const char *what, const char *id, enum rtm_check_level level,
		   const char *needle)
{
	struct rtm_sysinfo *si = collect_work();
	const struct rtm_check *c = find_check(si, id);

	ok(c && c->level == level && (!needle || strstr(c->text, needle)),
	   "%s -> %s %s%s%s (%s)", what, id, rtm_check_level_name(level),
	   needle ? " naming " : "", needle ? needle : "", c ? c->text : "no such check");
	rtm_sysinfo_free(si);
}

/*
 * Why tracefs cannot be read decides the advice: mounting is the fix only when it
 * is not mounted. A tracefs closed to this user (EACCES, what a non-root user
 * meets at a mode 0700 /sys/kernel/tracing) cannot be made here as root, who
 * reads through any mode: its errno is set on the facts instead.
 */
static void test_tracefs_closed(void)
{
	static const struct {
		int errnum;
		const char *has, *hasnt;
	} cases[] = {
		{ ENOENT, "tracefs is not mounted at /sys/kernel/tracing (mount -t tracefs", NULL },
		{ EACCES, "tracefs at /sys/kernel/tracing is readable by root only: run as root",
		  "mount" },
		{ EPERM, "readable by root only: run as root (sudo)", "mount" },
		{ EIO, "cannot read tracefs at /sys/kernel/tracing: Input/output error", "mount" },
	};
	const struct rtm_check *c;
	struct rtm_sysinfo *si;
	char buf[200];
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rtm_sysinfo_tracefs_problem(cases[i].errnum, "/sys/kernel/tracing", buf,
					    sizeof(buf));
		ok(strstr(buf, cases[i].has) && (!cases[i].hasnt || !strstr(buf, cases[i].hasnt)),
		   "tracefs %s: %s", strerror(cases[i].errnum), buf);
	}

	/* the tree has none: the usual place's errno is kept, ENOENT */
	si = collect_work();
	is_int(si->tracefs_errno, ENOENT, "no tracefs in the tree: ENOENT kept");
	si->tracefs_errno = EACCES;	/* what a non-root user reads there */
	rtm_sysinfo_check(si);
	c = find_check(si, "tracefs");
	ok(c && c->level == RTM_CHECK_WARN && strstr(c->text, "readable by root only") &&
	   !strstr(c->text, "mount"), "tracefs closed to this user: run as root, not mount (%s)",
	   c ? c->text : "no such check");
	rtm_sysinfo_free(si);

	/* something else in its place: the kernel's words, no mount advice */
	put("/sys/kernel/tracing", "not a directory\n");
	si = collect_work();
	is_int(si->tracefs_errno, ENOTDIR, "a file at /sys/kernel/tracing: ENOTDIR");
	c = find_check(si, "tracefs");
	ok(c && strstr(c->text, "Not a directory") && !strstr(c->text, "mount"),
	   "and the check says so (%s)", c ? c->text : "no such check");
	rtm_sysinfo_free(si);
	sh("rm -f '%s/sys/kernel/tracing'", work);
}

static void test_mutations(void)
{
	static const char gov[] = "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor";
	struct rtm_sysinfo *si;
	char rel[128];

	fresh_copy();
	snprintf(rel, sizeof(rel), gov, 0);
	put(rel, "performance\n");
	snprintf(rel, sizeof(rel), gov, 1);
	put(rel, "performance\n");
	expect("governor performance", "governor", RTM_CHECK_OK, "performance");
	put(rel, "powersave\n");
	expect("governor powersave on cpu1", "governor", RTM_CHECK_WARN, "powersave on CPUs 1");

	put("/sys/devices/system/cpu/smt/active", "1\n");
	expect("SMT active", "smt", RTM_CHECK_WARN, "nosmt");

	put("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	expect("THP always", "thp", RTM_CHECK_WARN, "always");

	put("/proc/99999/comm", "irqbalance\n");
	expect("irqbalance process", "irqbalance", RTM_CHECK_WARN, "IRQBALANCE_BANNED_CPULIST");

	put("/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	expect("RT throttling off", "rt_throttling", RTM_CHECK_OK, "-1");

	put("/proc/sys/kernel/timer_migration", "0\n");
	expect("timer_migration 0", "timer_migration", RTM_CHECK_OK, NULL);

	put("/proc/sys/kernel/nmi_watchdog", "1\n");
	expect("NMI watchdog on", "nmi_watchdog", RTM_CHECK_INFO, "nmi_watchdog=0");

	put("/sys/devices/system/cpu/cpu1/cpuidle/state2/name", "C6\n");
	put("/sys/devices/system/cpu/cpu1/cpuidle/state2/latency", "133\n");
	put("/sys/devices/system/cpu/cpu1/cpuidle/state2/disable", "0\n");
	expect("C6 enabled", "cpuidle", RTM_CHECK_INFO, "C6 enabled (133 us");
	put("/sys/devices/system/cpu/cpu1/cpuidle/state2/disable", "1\n");
	expect("C6 disabled", "cpuidle", RTM_CHECK_OK, NULL);

	put("/sys/devices/system/clocksource/clocksource0/current_clocksource", "hpet\n");
	expect("clocksource hpet", "clocksource", RTM_CHECK_WARN, "hpet");

	put("/sys/devices/system/cpu/isolated", "1\n");
	put("/sys/devices/system/cpu/nohz_full", "1\n");
	put("/proc/cmdline", "quiet isolcpus=1 nohz_full=1\n");
	expect("nohz_full without rcu_nocbs", "isolation", RTM_CHECK_INFO, "no rcu_nocbs");
	put("/proc/cmdline", "quiet isolcpus=1 nohz_full=1 rcu-nocbs=1 irqaffinity=0\n");
	expect("isolation complete (rcu-nocbs spelled with a dash)", "isolation", RTM_CHECK_OK,
	       "rcu_nocbs 1");
	si = collect_work();
	is_str(si->opts.irqaffinity, "0", "irqaffinity parsed from the command line");
	rtm_sysinfo_free(si);

	/* the part after "--" belongs to init and is ignored */
	put("/proc/cmdline", "quiet -- isolcpus=1\n");
	si = collect_work();
	ok(si->opts.isolcpus == NULL, "options after -- are not the kernel's");
	rtm_sysinfo_free(si);

	/* preemption model sources, in order of precedence */
	put("/proc/cmdline", "quiet preempt=full\n");
	expect("preempt=full on a dynamic kernel", "preempt", RTM_CHECK_INFO, "full");
	si = collect_work();
	is_str(si->preempt_source, "boot option preempt=", "source: boot option");
	rtm_sysinfo_free(si);
	put("/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n");
	put("/proc/cmdline", "quiet preempt=none\n");
	si = collect_work();
	ok(si->preempt == RTM_PREEMPT_FULL &&
	   !strcmp(si->preempt_source, "/sys/kernel/debug/sched/preempt"),
	   "debugfs sched/preempt wins over the boot option (%s from %s)",
	   rtm_preempt_name(si->preempt), si->preempt_source);
	rtm_sysinfo_free(si);
	/* under lockdown debugfs's writable files are not opened (each refusal is logged) */
	put("/sys/kernel/security/lockdown", "none [integrity] confidentiality\n");
	si = collect_work();
	ok(si->preempt == RTM_PREEMPT_NONE && !strcmp(si->preempt_source, "boot option preempt="),
	   "lockdown: sched/preempt left alone, the boot option used (%s from %s)",
	   rtm_preempt_name(si->preempt), si->preempt_source);
	rtm_sysinfo_free(si);
	ok(rtm_sysinfo_debugfs_closed(work), "lockdown integrity closes debugfs");
	put("/sys/kernel/security/lockdown", "[none] integrity confidentiality\n");
	ok(!rtm_sysinfo_debugfs_closed(work), "lockdown none leaves debugfs open");
	si = collect_work();
	ok(si->preempt == RTM_PREEMPT_FULL, "lockdown none: sched/preempt read (%s)",
	   rtm_preempt_name(si->preempt));
	rtm_sysinfo_free(si);
	put("/sys/kernel/realtime", "1\n");
	expect("/sys/kernel/realtime", "preempt", RTM_CHECK_OK, "PREEMPT_RT");
	sh("rm -f '%s/sys/kernel/realtime' '%s/sys/kernel/debug/sched/preempt' "
	   "'%s/proc/config.gz'", work, work, work);
	put("/proc/sys/kernel/version", "#1 SMP PREEMPT_RT Debian 6.1.0\n");
	si = collect_work();
	ok(si->preempt == RTM_PREEMPT_RT && !strcmp(si->preempt_source, "kernel version string"),
	   "PREEMPT_RT from the version string (%s)", si->preempt_source);
	rtm_sysinfo_free(si);
	put("/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC\n");
	put("/proc/cmdline", "quiet\n");
	expect("dynamic kernel without config or debugfs", "preempt", RTM_CHECK_WARN, "unknown");

	/* the hypervisor the kernel named at boot, from the recorded kernel-log lines */
	si = collect_work();
	is_str(si->hypervisor_kernel, "", "no kernel-log file: the kernel's name unknown");
	rtm_sysinfo_free(si);
	put("/kernel-log", "[    0.000000] Hypervisor detected: KVM\n"
	    "[    0.000000] Hypervisor detected: PVM\n[    0.1] Booting paravirtualized kernel\n");
	si = collect_work();
	is_str(si->hypervisor_kernel, "PVM", "the kernel's last word: PVM");
	is_str(si->hypervisor, "PVM", "and the hypervisor is named after it");
	ok(si->vm, "a VM");
	rtm_sysinfo_free(si);
	expect("kernel-log hypervisor", "virtualization", RTM_CHECK_WARN, "virtual machine (PVM");
	sh("rm -f '%s/kernel-log'", work);

	/*
	 * /dev/kmsg records of a long-lived box: the boot line first, then 300 KB
	 * of later records (more than klogctl's 128 KiB READ_ALL text holds).
	 */
	sh("mkdir -p '%s/dev' && { printf '6,1,0,-;Hypervisor detected: KVM\\n'; "
	   "i=2; while [ $i -le 3000 ]; do printf '6,%%d,%%d,-;a later kernel message of some "
	   "length, line %%d, to fill the log past what klogctl returns\\n' $i $i $i; "
	   "i=$((i+1)); done; } > '%s/dev/kmsg'", work, work);
	si = collect_work();
	is_str(si->hypervisor_kernel, "KVM", "the boot line read from /dev/kmsg records (300 KB)");
	rtm_sysinfo_free(si);
	sh("rm -rf '%s/dev'", work);

	/* no tracefs in the tree */
	sh("rm -rf '%s/sys/kernel/tracing'", work);
	expect("no tracefs", "tracefs", RTM_CHECK_WARN, "mount -t tracefs");
	test_tracefs_closed();

	/* not a Linux root */
	{
		struct rtm_error err = { "" };

		sh("rm -f '%s/proc/sys/kernel/osrelease'", work);
		si = rtm_sysinfo_collect(work, &err);
		ok(si == NULL && strstr(err.msg, "does not look like a Linux root"),
		   "tree without osrelease rejected: %s", err.msg);
		rtm_sysinfo_free(si);
	}
	sh("rm -rf '%s'", work);
}

/*
 * The tracers check says what rtmeasure does with the kernel's tracers: on the recorded RT
 * kernel (all three) the options that measure with them, on the recorded VM (none) the
 * configs that would add them; in every mix each tracer is named with its option or config,
 * whole (no message cut short).
 */
static void test_tracers(void)
{
	static const char *const tracer[] = { "hwlat", "osnoise", "timerlat" };
	static const char *const config[] = { "CONFIG_HWLAT_TRACER", "CONFIG_OSNOISE_TRACER",
					       "CONFIG_TIMERLAT_TRACER" };
	static const char *const option[] = { "noise --backend hwlat", "noise --backend osnoise",
					       "cyclic/run --backend timerlat" };
	char root[PATH_MAX], text[sizeof(((struct rtm_check *)0)->text)];
	struct rtm_error err = { "" };
	const struct rtm_check *c;
	struct rtm_sysinfo *si;
	unsigned int mask;
	int i;

	snprintf(root, sizeof(root), "%s/sysroot-rt-6.1", datadir);
	si = rtm_sysinfo_collect(root, &err);
	c = si ? find_check(si, "tracers") : NULL;
	is_str(c ? c->text : err.msg, "kernel tracers hwlat, osnoise and timerlat present: "
	       "rtmeasure measures with them through noise --backend hwlat|osnoise and "
	       "cyclic/run --backend timerlat (or --backend auto)",
	       "sysroot-rt-6.1: the tracers and the options that measure with them");
	rtm_sysinfo_free(si);
	snprintf(root, sizeof(root), "%s/sysroot-vm-6.18", datadir);
	si = rtm_sysinfo_collect(root, &err);
	c = si ? find_check(si, "tracers") : NULL;
	is_str(c ? c->text : err.msg, "kernel lacks the hwlat, osnoise and timerlat tracers: "
	       "rtmeasure measures with its userspace probes and the irq/sched/timer tracepoints; "
	       "CONFIG_HWLAT_TRACER, CONFIG_OSNOISE_TRACER and CONFIG_TIMERLAT_TRACER would add "
	       "noise --backend hwlat|osnoise and cyclic/run --backend timerlat",
	       "sysroot-vm-6.18: no tracers, the configs that add them");
	rtm_sysinfo_free(si);

	for (mask = 0; mask < 8; mask++) {
		enum rtm_check_level lv = rtm_sysinfo_tracers_verdict(mask & 1, mask & 2, mask & 4,
								      text, sizeof(text));
		const char *lacks = strstr(text, "lacks the ") ?: strstr(text, "without ");
		bool named = true;

		for (i = 0; i < 3; i++) {
			const char *opt = strstr(option[i], "--backend ") + 10;
			const char *at = strstr(text, tracer[i]);

			/* present: named before "lacks" with its option; missing: with its config */
			if (mask & 1u << i)
				named &= at && (!lacks || at < lacks) && strstr(text, opt) &&
					 !strstr(text, config[i]);
			else
				named &= lacks && strstr(lacks, tracer[i]) && strstr(lacks, config[i]) &&
					 strstr(lacks, opt);
		}
		ok(named && lv == (mask == 7 ? RTM_CHECK_OK : RTM_CHECK_INFO) &&
		   strlen(text) < sizeof(text) - 1 && !strstr(text, "yet") && !strstr(text, "rtla") &&
		   (mask == 7 || (strstr(text, "userspace probes") > lacks)),
		   "tracers%s%s%s: %s: %s", mask & 1 ? " hwlat" : "", mask & 2 ? " osnoise" : "",
		   mask & 4 ? " timerlat" : "", rtm_check_level_name(lv), text);
	}
}

int main(void)
{
	unsigned int i;

	datadir = getenv("RTM_TESTDATA");
	if (!datadir)
		datadir = "tests/data";
	snprintf(work, sizeof(work), "%s/rtm-test-sysinfo.%d",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());

	for (i = 0; i < sizeof(trees) / sizeof(trees[0]); i++)
		test_tree(&trees[i]);
	test_mutations();
	test_tracers();
	return tap_done();
}
