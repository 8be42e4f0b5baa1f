// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_guard.c - rtmeasure guard: a watchdog for runaway real-time tasks
 *
 * A SCHED_OTHER canary thread per watched CPU beats every half poll period.
 * The guard (this thread) runs at SCHED_FIFO 99 on the CPUs it does not
 * watch, and when a canary has not beaten for --starve it names the
 * real-time threads that held that CPU (their run time over the starved
 * stretch, from /proc) and acts on them: report, demote to SCHED_OTHER (what
 * stalld's boosting undoes from the other side), SIGSTOP, or a signal.
 * Kernel threads, PID 1, the guard and --protect tasks are never acted on.
 * RT throttling is read, never changed.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/task.h"
#include "box/guard.h"
#include "box/rt.h"
#include "box/sysinfo.h"
#include "cli/cli.h"
#include "cli/opts.h"
#include "rtmeasure.h"
#include "core/units.h"

enum action { ACT_REPORT, ACT_DEMOTE, ACT_STOP, ACT_SIGNAL };

struct canary {
	int cpu;
	pthread_t thread;
	_Atomic uint64_t beat_ns;	/* last time it ran */
	struct guard *g;
	/* the guard's view */
	bool suspect;			/* a baseline scan is kept for it */
	bool acted;			/* reported this starvation already */
	uint64_t acted_ns;
	uint64_t base_ns;		/* when the baseline was taken */
	struct rtm_guard_scan base;
};

/* What the command line asks for. */
struct guard_opts {
	struct rtm_cpulist cpus;
	bool cpus_given;		/* -a; else every online CPU but 0 */
	uint64_t starve_ns, poll_ns, duration_ns;
	enum action action;
	int signo;
	struct rtm_guard_protect protect;
	bool json;
	int help;		/* RTM_OPT_HELP or RTM_OPT_HELP_ALL: print it and stop */
};

struct guard {
	struct guard_opts o;
	_Atomic bool stop;
	struct canary *can;
	unsigned long actions;
};


static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };

	nanosleep(&ts, NULL);
}

static void *canary_main(void *arg)
{
	struct canary *c = arg;
	char name[16];

	snprintf(name, sizeof(name), "rtm-canary/%d", c->cpu);
	pthread_setname_np(pthread_self(), name);
	if (rtm_affinity_set(c->cpu, NULL))
		return NULL;
	while (!atomic_load(&c->g->stop)) {
		atomic_store(&c->beat_ns, rtm_clock_ns(CLOCK_MONOTONIC));
		sleep_ns(c->g->o.poll_ns / 2);
	}
	return NULL;
}

static const char *policy_name(int p)
{
	const char *name = rtm_kpolicy_str(p, RTM_KPOLICY_SCHED);

	return name ? name : "SCHED_OTHER";
}

/* Act on one holder; returns what was done, for the log. */
static const char *act(struct guard *g, const struct rtm_guard_task *t, char *buf, size_t len)
{
	const char *no = rtm_guard_refusal(t, &g->o.protect, getpid());
	struct sched_param sp = { 0 };

	if (no) {
		snprintf(buf, len, "left alone: %s", no);
		return buf;
	}
	switch (g->o.action) {
	case ACT_REPORT:
		return "reported";
	case ACT_DEMOTE:
		if (sched_setscheduler(t->tid, SCHED_OTHER, &sp))
			snprintf(buf, len, "demote failed: %s", strerror(errno));
		else
			snprintf(buf, len, "demoted to SCHED_OTHER");
		break;
	case ACT_STOP:
		if (kill(t->pid, SIGSTOP))
			snprintf(buf, len, "SIGSTOP failed: %s", strerror(errno));
		else
			snprintf(buf, len, "stopped (SIGSTOP to pid %d; SIGCONT resumes it)", t->pid);
		break;
	case ACT_SIGNAL:
		if (kill(t->pid, g->o.signo))
			snprintf(buf, len, "signal %s failed: %s", sigabbrev_np(g->o.signo) ?: "?",
				 strerror(errno));
		else
			snprintf(buf, len, "sent SIG%s to pid %d", sigabbrev_np(g->o.signo) ?: "?",
				 t->pid);
		break;
	}
	g->actions++;
	return buf;
}

static void log_holder(struct guard *g, int cpu, uint64_t starved_ns, uint64_t window_ns,
		       const struct rtm_guard_task *t, uint64_t ran_ns, const char *done)
{
	char when[32];
	time_t now = time(NULL);

	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", localtime(&now));
	if (g->o.json) {
		json_t *j = json_pack("{s:s, s:i, s:f, s:f, s:s, s:i, s:i, s:s, s:i, s:f, s:b, s:s}",
				      "time", when, "cpu", cpu, "starved_s", (double)starved_ns / 1e9,
				      "window_s", (double)window_ns / 1e9,
				      "comm", t->comm, "pid", (int)t->pid, "tid", (int)t->tid,
				      "policy", policy_name(t->policy), "priority", t->priority,
				      "ran_s", (double)ran_ns / 1e9, "kernel_thread", t->kthread,
				      "action", done);

		json_dumpf(j, stdout, JSON_COMPACT);
		putchar('\n');
		json_decref(j);
	} else {
		printf("%s CPU %d starved %.2f s: %s (pid %d, tid %d, %s %d) ran %.2f s of the "
		       "last %.2f s; %s\n", when, cpu, (double)starved_ns / 1e9, t->comm, (int)t->pid,
		       (int)t->tid, policy_name(t->policy), t->priority, (double)ran_ns / 1e9,
		       (double)window_ns / 1e9, done);
	}
	fflush(stdout);
}

/* A line (or JSON object) about @cpu that names no task. */
static void say(struct guard *g, int cpu, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(struct guard *g, int cpu, const char *fmt, ...)
{
	char when[32], msg[256];
	time_t now = time(NULL);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", localtime(&now));
	if (g->o.json) {
		json_t *j = json_pack("{s:s, s:i, s:s}", "time", when, "cpu", cpu, "event", msg);

		json_dumpf(j, stdout, JSON_COMPACT);
		putchar('\n');
		json_decref(j);
	} else {
		printf("%s CPU %d %s\n", when, cpu, msg);
	}
	fflush(stdout);
}

/* One poll: every canary's age; baselines for suspects, holders for the starved. */
static void poll_once(struct guard *g)
{
	struct rtm_error err = { "" };
	uint64_t now = rtm_clock_ns(CLOCK_MONOTONIC);
	int i;

	for (i = 0; i < g->o.cpus.n; i++) {
		struct canary *c = &g->can[i];
		uint64_t age = now - atomic_load(&c->beat_ns);
		struct rtm_guard_scan cur = { 0 };
		int idx[8], k, n;
		uint64_t ran[8];
		char buf[160];

		if (age < g->o.starve_ns / 2) {	/* healthy (again) */
			if (c->acted)
				say(g, c->cpu, "non-RT tasks run again %.2f s after the guard "
				    "acted", (double)(now - c->acted_ns) / 1e9);
			if (c->suspect)
				rtm_guard_scan_release(&c->base);
			c->suspect = c->acted = false;
			continue;
		}
		if (!c->suspect) {
			/* half the bound: remember who had run how long */
			if (rtm_guard_scan_rt("/", &c->base, &err) == 0) {
				c->suspect = true;
				c->base_ns = now;
			}
			continue;
		}
		if (age < g->o.starve_ns || c->acted)
			continue;
		if (rtm_guard_scan_rt("/", &cur, &err))
			continue;
		/* a holder had at least a quarter of the stretch since the baseline */
		n = rtm_guard_holders(&c->base, &cur, c->cpu, (now - c->base_ns) / 4, idx, ran, 8);
		if (!n)
			say(g, c->cpu, "starved %.2f s: no real-time thread ran there meanwhile "
			    "(interrupts, a non-RT kernel path or the hypervisor)", (double)age / 1e9);
		for (k = 0; k < n; k++)
			log_holder(g, c->cpu, age, now - c->base_ns, &cur.tasks[idx[k]], ran[k],
				   act(g, &cur.tasks[idx[k]], buf, sizeof(buf)));
		c->acted = true;
		c->acted_ns = now;
		rtm_guard_scan_release(&cur);
	}
}

enum {
	GUARD_OPT_STARVE = RTM_OPT_KEY0,
	GUARD_OPT_ACTION,
	GUARD_OPT_PROTECT,
	GUARD_OPT_POLL,
	GUARD_OPT_JSON,
};

static const struct rtm_opt guard_opts[] = {
	{ "cpus", 'a', required_argument, "CPUS", 0,
	  "CPUs to watch (default: all online but CPU 0 when there are several, so the guard "
	  "has a CPU of its own)" },
	{ "starve", GUARD_OPT_STARVE, required_argument, "DUR", 0,
	  "a CPU is starved after DUR without its canary (default 500ms: below what RT "
	  "throttling and the fair server of kernels 6.12+ leave a runaway)" },
	{ "action", GUARD_OPT_ACTION, required_argument, "ACT", 0,
	  "report (default), demote (to SCHED_OTHER), stop (SIGSTOP), signal=SIG (TERM, "
	  "KILL, INT, HUP, ...)" },
	{ "protect", GUARD_OPT_PROTECT, required_argument, "LIST", 0,
	  "pids and command names never acted on (comma separated); kernel threads, PID 1 "
	  "and the guard never are" },
	{ "poll", GUARD_OPT_POLL, required_argument, "DUR", 0,
	  "how often canaries are checked (default 100ms)" },
	{ "duration", 'D', required_argument, "DUR", 0, "stop after DUR (default: until Ctrl-C)" },
	{ "json", GUARD_OPT_JSON, no_argument, NULL, 0,
	  "one JSON object per holder instead of a line" },
	RTM_OPT_HELP_ROWS(0),
	RTM_OPT_END,
};

static const struct rtm_opt_group guard_groups[] = { { NULL, true } };

static const struct rtm_cmd_opts guard_cmd = {
	.command = "guard",
	.usage = "usage: rtmeasure guard [options]\n\n"
		"Watches CPUs for real-time tasks that keep everything else off them: a\n"
		"SCHED_OTHER canary per CPU; when one has not run for --starve, the RT\n"
		"threads that held the CPU are named and acted on. The guard runs at\n"
		"SCHED_FIFO 99 on the CPUs it does not watch. RT throttling is not changed.\n",
	.groups = guard_groups,
	.ngroups = 1,
	.tables = { guard_opts },
};

static int parse_action(struct guard_opts *o, const char *s)
{
	if (!strcmp(s, "report"))
		o->action = ACT_REPORT;
	else if (!strcmp(s, "demote"))
		o->action = ACT_DEMOTE;
	else if (!strcmp(s, "stop"))
		o->action = ACT_STOP;
	else if (!strncmp(s, "signal=", 7)) {
		const char *n = s + 7;
		int i;

		if (!strncmp(n, "SIG", 3))
			n += 3;
		o->action = ACT_SIGNAL;
		o->signo = 0;
		for (i = 1; i < NSIG; i++)
			if (sigabbrev_np(i) && !strcasecmp(sigabbrev_np(i), n))
				o->signo = i;
		if (!o->signo)
			return rtm_cli_fail("guard: --action %s: unknown signal (write signal=TERM, "
					    "signal=KILL, ...)", s);
		if (o->signo == SIGSTOP || o->signo == SIGCONT)
			return rtm_cli_fail("guard: --action %s: use --action stop", s);
	} else {
		return rtm_cli_fail("guard: --action '%s': give report, demote, stop or "
				    "signal=SIG", s);
	}
	return 0;
}

/* CPUs to watch: -a, or every online CPU but 0 when there are several. */
static int default_cpus(struct guard_opts *o, struct rtm_error *err)
{
	char online[256];
	struct rtm_cpulist all = { 0, NULL };
	int i, ret;

	if (rtm_read_small("/", "/sys/devices/system/cpu/online", online, sizeof(online)) < 0)
		snprintf(online, sizeof(online), "0-%ld", sysconf(_SC_NPROCESSORS_ONLN) - 1);
	ret = rtm_cpulist_parse(online, &all, err);
	if (ret)
		return ret;
	if (all.n < 2) {
		o->cpus = all;
		return 0;
	}
	o->cpus.cpus = calloc((size_t)all.n, sizeof(int));
	if (!o->cpus.cpus) {
		rtm_cpulist_release(&all);
		return rtm_error_set(err, "out of memory");
	}
	for (i = 0; i < all.n; i++)
		if (all.cpus[i] != 0)
			o->cpus.cpus[o->cpus.n++] = all.cpus[i];
	rtm_cpulist_release(&all);
	return 0;
}

/*
 * Kernels 6.12+ run non-RT tasks from a deadline "fair server" (50 ms of
 * every second per CPU by default) whatever RT throttling says: a runaway
 * then starves a CPU about 0.95 s at most.
 */
static void fair_server_note(uint64_t starve_ns)
{
	char rt[64] = "";
	long long runtime = -1, period = -1;
	int major = 0, minor = 0;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2 ||
	    major * 100 + minor < 612)
		return;
	if (!rtm_sysinfo_debugfs_closed("/")) {
		if (rtm_read_small("/", "/sys/kernel/debug/sched/fair_server/cpu0/runtime", rt,
				   sizeof(rt)) > 0)
			runtime = atoll(rt);
		if (rtm_read_small("/", "/sys/kernel/debug/sched/fair_server/cpu0/period", rt,
				   sizeof(rt)) > 0)
			period = atoll(rt);
	}
	if (runtime == 0)
		return;	/* switched off: RT throttling alone decides */
	if (runtime < 0 || period <= 0) {
		runtime = 50000000;	/* the kernel's default, when debugfs cannot tell */
		period = 1000000000;
	}
	if (starve_ns + (uint64_t)runtime >= (uint64_t)period)
		fprintf(stderr, "rtmeasure: guard: this kernel's fair server gives non-RT tasks "
			"%lld ms of every %lld ms on each CPU, so a runaway starves a CPU %.2f s at "
			"most: --starve %.2f s may never fire\n", runtime / 1000000, period / 1000000,
			(double)(period - runtime) / 1e9, (double)starve_ns / 1e9);
}

/* The guard's own place: SCHED_FIFO 99 on the online CPUs it does not watch. */
static int guard_place(const struct guard_opts *o, struct rtm_error *err)
{
	struct rtm_sched s = { .policy = RTM_POLICY_FIFO, .priority = 99 };
	cpu_set_t set;
	long n = sysconf(_SC_NPROCESSORS_ONLN), i;
	int k;

	CPU_ZERO(&set);
	for (i = 0; i < n && i < CPU_SETSIZE; i++)
		CPU_SET((int)i, &set);
	for (k = 0; k < o->cpus.n; k++)
		if (o->cpus.cpus[k] < CPU_SETSIZE)
			CPU_CLR(o->cpus.cpus[k], &set);
	if (CPU_COUNT(&set))
		sched_setaffinity(0, sizeof(set), &set);
	else
		fprintf(stderr, "rtmeasure: guard: every CPU is watched: the guard shares them at "
			"SCHED_FIFO 99, and a runaway at FIFO 99 could starve it too; leave a CPU "
			"out of -a\n");
	return rtm_sched_apply(&s, err);
}

/* One option of the loop into @o; 0, RTM_EXIT_USAGE after the message, or -1: not ours. */
static int guard_opt(struct guard_opts *o, int c, const char *arg)
{
	struct rtm_error err = { "" };

	switch (c) {
	case 'a':
		rtm_cpulist_release(&o->cpus);
		if (rtm_cpulist_parse(arg, &o->cpus, &err))
			return rtm_cli_fail("guard: -a/--cpus: %s", err.msg);
		o->cpus_given = true;
		return 0;
	case GUARD_OPT_STARVE:
		if (rtm_parse_duration_ns(arg, &o->starve_ns, &err))
			return rtm_cli_fail("guard: --starve: %s", err.msg);
		return 0;
	case GUARD_OPT_ACTION:
		return parse_action(o, arg);
	case GUARD_OPT_PROTECT:
		if (rtm_guard_protect_parse(arg, &o->protect, &err))
			return rtm_cli_fail("guard: %s", err.msg);
		return 0;
	case GUARD_OPT_POLL:
		if (rtm_parse_duration_ns(arg, &o->poll_ns, &err))
			return rtm_cli_fail("guard: --poll: %s", err.msg);
		return 0;
	case 'D':
		if (rtm_parse_duration_ns(arg, &o->duration_ns, &err))
			return rtm_cli_fail("guard: -D/--duration: %s", err.msg);
		return 0;
	case GUARD_OPT_JSON:
		o->json = true;
		return 0;
	case RTM_OPT_HELP:
	case RTM_OPT_HELP_ALL:
		o->help = c;
		return 0;
	}
	return -1;
}

/* argv into @o; 0 or RTM_EXIT_USAGE after the one-line message. */
static int guard_parse(int argc, char **argv, struct guard_opts *o)
{
	struct rtm_getopt g;
	int c, ret;

	o->starve_ns = 500000000ULL;	/* below the fair server's 950 ms (6.12+) */
	o->poll_ns = 100000000ULL;
	if (rtm_opts_getopt(&guard_cmd, &g))
		return rtm_cli_fail("guard: bad option table");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		ret = guard_opt(o, c, optarg);
		if (ret < 0)
			return rtm_cli_bad_option("guard", g.shortopts, g.longopts, argv);
		if (ret || o->help)
			return ret;
	}
	if (optind < argc)
		return rtm_cli_fail("guard: unexpected argument '%s' (rtmeasure guard --help)",
				    argv[optind]);
	if (o->poll_ns < 10000000ULL || o->poll_ns > 1000000000ULL)
		return rtm_cli_fail("guard: --poll: give 10ms to 1s");
	if (o->starve_ns < 2 * o->poll_ns)
		return rtm_cli_fail("guard: --starve must be at least two --poll periods");
	return 0;
}

/* The CPUs to watch: -a's or the default, each one that exists; the exit status. */
static int guard_cpus(struct guard_opts *o)
{
	struct rtm_error err = { "" };
	int i;

	if (!o->cpus_given && default_cpus(o, &err))
		return rtm_cli_fail("guard: %s", err.msg);
	for (i = 0; i < o->cpus.n; i++)
		if (o->cpus.cpus[i] >= sysconf(_SC_NPROCESSORS_CONF) ||
		    o->cpus.cpus[i] >= CPU_SETSIZE)
			return rtm_cli_fail("guard: CPU %d does not exist", o->cpus.cpus[i]);
	if (!o->cpus.n)
		return rtm_cli_fail("guard: no CPU to watch (-a)");
	return 0;
}

/* What RT throttling leaves a runaway, when --starve is longer. */
static void throttling_note(uint64_t starve_ns)
{
	int64_t rt_run = 0, rt_per = 0;

	if (rtm_rt_throttling("/", &rt_run, &rt_per) == 0 && rt_run >= 0 && rt_per > 0 &&
	    starve_ns >= (uint64_t)rt_run * 1000)
		fprintf(stderr, "rtmeasure: guard: RT throttling leaves %.0f ms of every %.0f ms to "
			"non-RT tasks, so a runaway starves a CPU %.2f s at most: --starve above "
			"that never fires (the guard does not change it)\n",
			(double)(rt_per - rt_run) / 1000, (double)rt_per / 1000,
			(double)rt_run / 1e6);
}

/* A SCHED_OTHER canary thread per watched CPU; the exit status. */
static int start_canaries(struct guard *g, uint64_t start)
{
	int i;

	g->can = calloc((size_t)g->o.cpus.n, sizeof(*g->can));
	if (!g->can)
		return rtm_cli_fail("guard: out of memory");
	for (i = 0; i < g->o.cpus.n; i++) {
		pthread_attr_t attr;
		struct sched_param sp = { 0 };

		g->can[i].cpu = g->o.cpus.cpus[i];
		g->can[i].g = g;
		atomic_store(&g->can[i].beat_ns, start);
		/* SCHED_OTHER whatever the guard's policy: that is the point */
		pthread_attr_init(&attr);
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
		pthread_attr_setschedparam(&attr, &sp);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&g->can[i].thread, &attr, canary_main, &g->can[i])) {
			pthread_attr_destroy(&attr);
			atomic_store(&g->stop, true);
			return rtm_cli_fail("guard: cannot start a canary thread");
		}
		pthread_attr_destroy(&attr);
	}
	return 0;
}

/* Poll until a stop signal (*@stop) or -D; then the count of actions. */
static void guard_watch(struct guard *g, uint64_t start, const volatile sig_atomic_t *stop)
{
	char list[256];
	int i;

	rtm_cpulist_format(&g->o.cpus, list, sizeof(list));
	fprintf(stderr, "rtmeasure guard: watching CPUs %s, starved after %.2f s, action %s\n",
		list, (double)g->o.starve_ns / 1e9,
		g->o.action == ACT_REPORT ? "report" : g->o.action == ACT_DEMOTE ? "demote" :
		g->o.action == ACT_STOP ? "stop" : "signal");
	while (!*stop &&
	       (!g->o.duration_ns || rtm_clock_ns(CLOCK_MONOTONIC) - start < g->o.duration_ns)) {
		sleep_ns(g->o.poll_ns);
		poll_once(g);
	}
	/*
	 * The canaries are not joined: one on a starved CPU cannot run to notice
	 * the stop. They are detached and end with the process; their memory
	 * stays until then.
	 */
	atomic_store(&g->stop, true);
	for (i = 0; i < g->o.cpus.n; i++)
		if (g->can[i].suspect)
			rtm_guard_scan_release(&g->can[i].base);
	fprintf(stderr, "rtmeasure guard: %lu action%s taken\n", g->actions,
		g->actions == 1 ? "" : "s");
}

int cmd_guard(int argc, char **argv, const struct rtm_cli *cli)
{
	struct rtm_error err = { "" };
	struct guard g;
	uint64_t start;
	int ret;

	memset(&g, 0, sizeof(g));
	ret = guard_parse(argc, argv, &g.o);
	if (g.o.help)
		rtm_opts_help(&guard_cmd, stdout, g.o.help == RTM_OPT_HELP_ALL);
	if (ret || g.o.help)
		return ret;
	if ((ret = guard_cpus(&g.o)))
		return ret;
	if (guard_place(&g.o, &err))
		return rtm_cli_fail("guard: %s", err.msg);
	mlockall(MCL_CURRENT | MCL_FUTURE);
	fair_server_note(g.o.starve_ns);
	throttling_note(g.o.starve_ns);
	start = rtm_clock_ns(CLOCK_MONOTONIC);
	if ((ret = start_canaries(&g, start)))
		return ret;
	guard_watch(&g, start, cli->stop);
	rtm_cpulist_release(&g.o.cpus);
	return RTM_EXIT_OK;
}
