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

#include "core/fileio.h"
#include "box/guard.h"
#include "box/rt.h"
#include "cli/cli.h"
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

struct guard {
	struct rtm_cpulist cpus;
	uint64_t starve_ns, poll_ns, duration_ns;
	enum action action;
	int signo;
	struct rtm_guard_protect protect;
	bool json;
	_Atomic bool stop;
	struct canary *can;
	unsigned long actions;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

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
		atomic_store(&c->beat_ns, mono_ns());
		sleep_ns(c->g->poll_ns / 2);
	}
	return NULL;
}

static const char *policy_name(int p)
{
	switch (p) {
	case SCHED_FIFO: return "SCHED_FIFO";
	case SCHED_RR: return "SCHED_RR";
	case 6: return "SCHED_DEADLINE";
	default: return "SCHED_OTHER";
	}
}

/* Act on one holder; returns what was done, for the log. */
static const char *act(struct guard *g, const struct rtm_guard_task *t, char *buf, size_t len)
{
	const char *no = rtm_guard_refusal(t, &g->protect, getpid());
	struct sched_param sp = { 0 };

	if (no) {
		snprintf(buf, len, "left alone: %s", no);
		return buf;
	}
	switch (g->action) {
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
		if (kill(t->pid, g->signo))
			snprintf(buf, len, "signal %s failed: %s", sigabbrev_np(g->signo) ?: "?",
				 strerror(errno));
		else
			snprintf(buf, len, "sent SIG%s to pid %d", sigabbrev_np(g->signo) ?: "?",
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
	if (g->json) {
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
	if (g->json) {
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
	uint64_t now = mono_ns();
	int i;

	for (i = 0; i < g->cpus.n; i++) {
		struct canary *c = &g->can[i];
		uint64_t age = now - atomic_load(&c->beat_ns);
		struct rtm_guard_scan cur = { 0 };
		int idx[8], k, n;
		uint64_t ran[8];
		char buf[160];

		if (age < g->starve_ns / 2) {	/* healthy (again) */
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
		if (age < g->starve_ns || c->acted)
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

static void guard_usage(FILE *f)
{
	fprintf(f, "usage: rtmeasure guard [options]\n\n"
		"Watches CPUs for real-time tasks that keep everything else off them: a\n"
		"SCHED_OTHER canary per CPU; when one has not run for --starve, the RT\n"
		"threads that held the CPU are named and acted on. The guard runs at\n"
		"SCHED_FIFO 99 on the CPUs it does not watch. RT throttling is not changed.\n\n"
		"  -a, --cpus CPUS         CPUs to watch (default: all online but CPU 0 when\n"
		"                          there are several, so the guard has a CPU of its own)\n"
		"      --starve DUR        a CPU is starved after DUR without its canary\n"
		"                          (default 500ms: below what RT throttling and the\n"
		"                          fair server of kernels 6.12+ leave a runaway)\n"
		"      --action ACT        report (default), demote (to SCHED_OTHER), stop\n"
		"                          (SIGSTOP), signal=SIG (TERM, KILL, INT, HUP, ...)\n"
		"      --protect LIST      pids and command names never acted on (comma\n"
		"                          separated); kernel threads, PID 1 and the guard\n"
		"                          never are\n"
		"      --poll DUR          how often canaries are checked (default 100ms)\n"
		"  -D, --duration DUR      stop after DUR (default: until Ctrl-C)\n"
		"      --json              one JSON object per holder instead of a line\n"
		"      --help              this help\n");
}

static int parse_action(struct guard *g, const char *s)
{
	if (!strcmp(s, "report"))
		g->action = ACT_REPORT;
	else if (!strcmp(s, "demote"))
		g->action = ACT_DEMOTE;
	else if (!strcmp(s, "stop"))
		g->action = ACT_STOP;
	else if (!strncmp(s, "signal=", 7)) {
		const char *n = s + 7;
		int i;

		if (!strncmp(n, "SIG", 3))
			n += 3;
		g->action = ACT_SIGNAL;
		g->signo = 0;
		for (i = 1; i < NSIG; i++)
			if (sigabbrev_np(i) && !strcasecmp(sigabbrev_np(i), n))
				g->signo = i;
		if (!g->signo)
			return rtm_cli_fail("guard: --action %s: unknown signal (write signal=TERM, "
					    "signal=KILL, ...)", s);
		if (g->signo == SIGSTOP || g->signo == SIGCONT)
			return rtm_cli_fail("guard: --action %s: use --action stop", s);
	} else {
		return rtm_cli_fail("guard: --action '%s': give report, demote, stop or "
				    "signal=SIG", s);
	}
	return 0;
}

/* CPUs to watch: -a, or every online CPU but 0 when there are several. */
static int default_cpus(struct guard *g, struct rtm_error *err)
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
		g->cpus = all;
		return 0;
	}
	g->cpus.cpus = calloc((size_t)all.n, sizeof(int));
	if (!g->cpus.cpus) {
		rtm_cpulist_release(&all);
		return rtm_error_set(err, "out of memory");
	}
	for (i = 0; i < all.n; i++)
		if (all.cpus[i] != 0)
			g->cpus.cpus[g->cpus.n++] = all.cpus[i];
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
	if (rtm_read_small("/", "/sys/kernel/debug/sched/fair_server/cpu0/runtime", rt,
			   sizeof(rt)) > 0)
		runtime = atoll(rt);
	if (rtm_read_small("/", "/sys/kernel/debug/sched/fair_server/cpu0/period", rt,
			   sizeof(rt)) > 0)
		period = atoll(rt);
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
static int guard_place(struct guard *g, struct rtm_error *err)
{
	struct rtm_sched s = { .policy = SCHED_FIFO, .priority = 99 };
	cpu_set_t set;
	long n = sysconf(_SC_NPROCESSORS_ONLN), i;
	int k;

	CPU_ZERO(&set);
	for (i = 0; i < n && i < CPU_SETSIZE; i++)
		CPU_SET((int)i, &set);
	for (k = 0; k < g->cpus.n; k++)
		if (g->cpus.cpus[k] < CPU_SETSIZE)
			CPU_CLR(g->cpus.cpus[k], &set);
	if (CPU_COUNT(&set))
		sched_setaffinity(0, sizeof(set), &set);
	else
		fprintf(stderr, "rtmeasure: guard: every CPU is watched: the guard shares them at "
			"SCHED_FIFO 99, and a runaway at FIFO 99 could starve it too; leave a CPU "
			"out of -a\n");
	return rtm_sched_apply(&s, err);
}

int cmd_guard(int argc, char **argv, const struct rtm_cli *cli)
{
	static const struct option longopts[] = {
		{ "cpus", required_argument, NULL, 'a' },
		{ "starve", required_argument, NULL, 1001 },
		{ "action", required_argument, NULL, 1002 },
		{ "protect", required_argument, NULL, 1003 },
		{ "poll", required_argument, NULL, 1004 },
		{ "duration", required_argument, NULL, 'D' },
		{ "json", no_argument, NULL, 1005 },
		{ "help", no_argument, NULL, 2000 },
		{ NULL, 0, NULL, 0 },
	};
	struct rtm_error err = { "" };
	struct guard g;
	int64_t rt_run = 0, rt_per = 0;
	uint64_t start;
	bool cpus_given = false;
	int c, i, ret = RTM_EXIT_OK;

	memset(&g, 0, sizeof(g));
	g.starve_ns = 500000000ULL;	/* below the fair server's 950 ms (6.12+) */
	g.poll_ns = 100000000ULL;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "a:D:", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			rtm_cpulist_release(&g.cpus);
			if (rtm_cpulist_parse(optarg, &g.cpus, &err))
				return rtm_cli_fail("guard: -a/--cpus: %s", err.msg);
			cpus_given = true;
			break;
		case 1001:
			if (rtm_parse_duration_ns(optarg, &g.starve_ns, &err))
				return rtm_cli_fail("guard: --starve: %s", err.msg);
			break;
		case 1002:
			if ((ret = parse_action(&g, optarg)))
				return ret;
			break;
		case 1003:
			if (rtm_guard_protect_parse(optarg, &g.protect, &err))
				return rtm_cli_fail("guard: %s", err.msg);
			break;
		case 1004:
			if (rtm_parse_duration_ns(optarg, &g.poll_ns, &err))
				return rtm_cli_fail("guard: --poll: %s", err.msg);
			break;
		case 'D':
			if (rtm_parse_duration_ns(optarg, &g.duration_ns, &err))
				return rtm_cli_fail("guard: -D/--duration: %s", err.msg);
			break;
		case 1005:
			g.json = true;
			break;
		case 2000:
			guard_usage(stdout);
			return RTM_EXIT_OK;
		default:
			return rtm_cli_bad_option("guard", "a:D:", longopts, argv);
		}
	}
	if (optind < argc)
		return rtm_cli_fail("guard: unexpected argument '%s' (rtmeasure guard --help)",
				    argv[optind]);
	if (g.poll_ns < 10000000ULL || g.poll_ns > 1000000000ULL)
		return rtm_cli_fail("guard: --poll: give 10ms to 1s");
	if (g.starve_ns < 2 * g.poll_ns)
		return rtm_cli_fail("guard: --starve must be at least two --poll periods");
	if (!cpus_given && default_cpus(&g, &err))
		return rtm_cli_fail("guard: %s", err.msg);
	for (i = 0; i < g.cpus.n; i++)
		if (g.cpus.cpus[i] >= sysconf(_SC_NPROCESSORS_CONF) || g.cpus.cpus[i] >= CPU_SETSIZE)
			return rtm_cli_fail("guard: CPU %d does not exist", g.cpus.cpus[i]);
	if (!g.cpus.n)
		return rtm_cli_fail("guard: no CPU to watch (-a)");

	if (guard_place(&g, &err))
		return rtm_cli_fail("guard: %s", err.msg);
	mlockall(MCL_CURRENT | MCL_FUTURE);
	fair_server_note(g.starve_ns);
	if (rtm_rt_throttling("/", &rt_run, &rt_per) == 0 && rt_run >= 0 && rt_per > 0 &&
	    g.starve_ns >= (uint64_t)rt_run * 1000)
		fprintf(stderr, "rtmeasure: guard: RT throttling leaves %.0f ms of every %.0f ms to "
			"non-RT tasks, so a runaway starves a CPU %.2f s at most: --starve above "
			"that never fires (the guard does not change it)\n",
			(double)(rt_per - rt_run) / 1000, (double)rt_per / 1000,
			(double)rt_run / 1e6);

	g.can = calloc((size_t)g.cpus.n, sizeof(*g.can));
	if (!g.can)
		return rtm_cli_fail("guard: out of memory");
	start = mono_ns();
	for (i = 0; i < g.cpus.n; i++) {
		pthread_attr_t attr;
		struct sched_param sp = { 0 };

		g.can[i].cpu = g.cpus.cpus[i];
		g.can[i].g = &g;
		atomic_store(&g.can[i].beat_ns, start);
		/* SCHED_OTHER whatever the guard's policy: that is the point */
		pthread_attr_init(&attr);
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
		pthread_attr_setschedparam(&attr, &sp);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&g.can[i].thread, &attr, canary_main, &g.can[i])) {
			pthread_attr_destroy(&attr);
			atomic_store(&g.stop, true);
			return rtm_cli_fail("guard: cannot start a canary thread");
		}
		pthread_attr_destroy(&attr);
	}
	{
		char list[256];

		rtm_cpulist_format(&g.cpus, list, sizeof(list));
		fprintf(stderr, "rtmeasure guard: watching CPUs %s, starved after %.2f s, action %s\n",
			list, (double)g.starve_ns / 1e9,
			g.action == ACT_REPORT ? "report" : g.action == ACT_DEMOTE ? "demote" :
			g.action == ACT_STOP ? "stop" : "signal");
	}
	while (!*cli->stop && (!g.duration_ns || mono_ns() - start < g.duration_ns)) {
		sleep_ns(g.poll_ns);
		poll_once(&g);
	}
	/*
	 * The canaries are not joined: one on a starved CPU cannot run to notice
	 * the stop. They are detached and end with the process; their memory
	 * stays until then.
	 */
	atomic_store(&g.stop, true);
	for (i = 0; i < g.cpus.n; i++)
		if (g.can[i].suspect)
			rtm_guard_scan_release(&g.can[i].base);
	fprintf(stderr, "rtmeasure guard: %lu action%s taken\n", g.actions,
		g.actions == 1 ? "" : "s");
	rtm_cpulist_release(&g.cpus);
	return RTM_EXIT_OK;
}
