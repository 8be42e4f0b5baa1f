// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_monitor.c - rtmeasure monitor: the timer probes on every CPU, watched
 * live. The options, the keys and the loop; lib/session/monitor.c keeps the
 * data, lib/present/dashboard.c draws it.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "box/sysinfo.h"
#include "cli/cli.h"
#include "cli/io_opts.h"
#include "cli/measure_opts.h"
#include "cli/opts.h"
#include "cli/wakeup_opts.h"
#include "core/clock.h"
#include "core/units.h"
#include "present/dashboard.h"
#include "present/promlive.h"
#include "result/disturb.h"
#include "rtmeasure.h"
#include "session/monitor.h"

/* The keys of the monitor's own options. */
enum {
	MON_OPT_REFRESH = MEASURE_OPT_KEY_END,
	MON_OPT_THRESHOLD,
	MON_OPT_ONCE,
	MON_OPT_NOISE_CPUS,
	MON_OPT_IO,
	MON_OPT_IO_OP,		/* the storage probe's values, in enum rtm_io_opt's order */
	MON_OPT_IO_SIZE,
	MON_OPT_IO_FILE_SIZE,
	MON_OPT_IO_INTERVAL,
	MON_OPT_IO_DEADLINE,
	MON_OPT_IO_DURATION_UNUSED,	/* the monitor's -D stops it */
	MON_OPT_IO_IOPRIO,
	MON_OPT_IO_PRIORITY,
	MON_OPT_IO_CPU,
	MON_OPT_IO_MAX_MISSES_UNUSED,
	MON_OPT_IO_TARGET,
	MON_OPT_IO_FORCE_DEVICE,
	MON_OPT_IO_ALLOW_WRITES,
	MON_OPT_WAKEUP,
	MON_OPT_WK_PID,		/* the wake-up programs' selection, in enum rtm_wakeup_opt's order */
	MON_OPT_WK_COMM,
	MON_OPT_WK_POLICY,
	MON_OPT_WK_ABOVE,
};

/* The monitor's groups after the shared ones: the noise detector's and the storage probe's. */
enum { MON_G_NOISE = MEASURE_G_END, MON_G_IO, MON_G_WAKEUP };

static const struct rtm_opt monitor_opts[] = {
	{ "refresh", MON_OPT_REFRESH, required_argument, "DUR", MEASURE_G_OWN,
	  "redraw interval (default 1s)" },
	{ "threshold", MON_OPT_THRESHOLD, required_argument, "LAT", MEASURE_G_OWN,
	  "alert threshold (default 100us)" },
	{ "once", MON_OPT_ONCE, no_argument, NULL, MEASURE_G_OWN,
	  "one refresh interval, one plain table, exit" },
	{ "noise-cpus", MON_OPT_NOISE_CPUS, required_argument, "LIST", MEASURE_G_OWN,
	  "the noise detector of rtmeasure noise on these CPUs, beside the timer probe on "
	  "the others (never both on one CPU): the noise panel, noise %, largest gap and its "
	  "cause, the main cause class" },
	/* run's noise phase: refused with what to give instead */
	{ "noise", MEASURE_OPT_NOISE, optional_argument, NULL, RTM_OPT_HIDDEN, NULL },
	{ "noise-window", MEASURE_OPT_NOISE_WINDOW, required_argument, "DUR", MON_G_NOISE,
	  "its duty cycle period (default 1s)" },
	{ "noise-width", MEASURE_OPT_NOISE_WIDTH, required_argument, "DUR", MON_G_NOISE,
	  "its busy part of each window (default 500ms)" },
	{ "noise-threshold", MEASURE_OPT_NOISE_THRESHOLD, required_argument, "LAT", MON_G_NOISE,
	  "its gap threshold (default 1us)" },
	{ "noise-trace", MEASURE_OPT_NOISE_TRACE, optional_argument, "[0|1]", MON_G_NOISE,
	  "its gap causes (default: on as root with tracefs)" },
	{ "io", MON_OPT_IO, no_argument, NULL, MEASURE_G_OWN,
	  "the storage deadline probe of rtmeasure io beside the timer probe, on a CPU of its "
	  "own: a line per operation with requests, p99 and max latency from the planned "
	  "time, misses over --io-deadline and the latest miss" },
	{ "io-target", MON_OPT_IO_TARGET, required_argument, "PATH", MON_G_IO,
	  "a folder (a file is created there and removed after), an existing file or, with "
	  "--io-force-device, a block device (default: a file in -o's folder)" },
	{ "io-op", MON_OPT_IO_OP, required_argument, "LIST", MON_G_IO,
	  "operations in turn: read, write, randread, randwrite, fsync (default randread)" },
	{ "io-size", MON_OPT_IO_SIZE, required_argument, "BYTES", MON_G_IO,
	  "bytes a request, whole blocks (default 4k)" },
	{ "io-file-size", MON_OPT_IO_FILE_SIZE, required_argument, "BYTES", MON_G_IO,
	  "size of a created file (default 64m)" },
	{ "io-interval", MON_OPT_IO_INTERVAL, required_argument, "LAT", MON_G_IO,
	  "time between planned requests (default 10ms)" },
	{ "io-deadline", MON_OPT_IO_DEADLINE, required_argument, "LAT", MON_G_IO,
	  "a request later than this after its planned time is a miss (default: none)" },
	{ "io-ioprio", MON_OPT_IO_IOPRIO, required_argument, "CLASS", MON_G_IO,
	  "I/O priority of its thread: rt:N, be:N or idle (default: the thread's own)" },
	{ "io-priority", MON_OPT_IO_PRIORITY, required_argument, "N", MON_G_IO,
	  "SCHED_FIFO priority of its thread (default 90)" },
	{ "io-cpu", MON_OPT_IO_CPU, required_argument, "CPU", MON_G_IO,
	  "its thread's CPU (default: the last one; the timer probe leaves it out)" },
	{ "io-force-device", MON_OPT_IO_FORCE_DEVICE, no_argument, NULL, MON_G_IO,
	  "measure the block device given as --io-target (reads only, unless "
	  "--io-allow-writes)" },
	{ "io-allow-writes", MON_OPT_IO_ALLOW_WRITES, no_argument, NULL, MON_G_IO,
	  "let write operations overwrite an existing --io-target file or device" },
	{ "wakeup", MON_OPT_WAKEUP, no_argument, NULL, MEASURE_G_OWN,
	  "the wake-up programs of rtmeasure wakeup beside the timer probe: the box's own "
	  "tasks, worst first, with wake-ups, avg and max wait, and the waits over "
	  "--wakeup-above (root, BPF)" },
	{ "wakeup-pid", MON_OPT_WK_PID, required_argument, "PID", MON_G_WAKEUP,
	  "the threads of process PID (or thread PID alone), whatever their policy" },
	{ "wakeup-comm", MON_OPT_WK_COMM, required_argument, "NAME", MON_G_WAKEUP,
	  "the threads named NAME (/proc/TID/comm, at most 15 characters)" },
	{ "wakeup-policy", MON_OPT_WK_POLICY, required_argument, "LIST", MON_G_WAKEUP,
	  "the tasks of these policies: fifo, rr, deadline, other, batch, idle "
	  "(default: fifo,rr,deadline, every real-time task)" },
	{ "wakeup-above", MON_OPT_WK_ABOVE, required_argument, "LAT", MON_G_WAKEUP,
	  "count each task's waits longer than LAT (default: --threshold as it starts)" },
	RTM_OPT_HELP_ROWS(MEASURE_G_HELP),
	RTM_OPT_END,
};

static const struct rtm_opt_group monitor_groups[] = {
	[MEASURE_G_OWN] = { NULL, true },
	MEASURE_GROUPS,
	[MON_G_NOISE] = { "Noise detector (--noise-cpus)", false },
	[MON_G_IO] = { "Storage probe (--io)", false },
	[MON_G_WAKEUP] = { "The box's tasks (--wakeup)", false },
};

_Static_assert(MON_OPT_IO_CPU - MON_OPT_IO_OP == RTM_IO_OPT_CPU,
	       "the monitor's --io-* keys follow enum rtm_io_opt");

/* The storage probe's options under the monitor's names, for their messages. */
static const char *const mon_io_names[RTM_IO_OPT_N] = {
	[RTM_IO_OPT_OP] = "--io-op", [RTM_IO_OPT_SIZE] = "--io-size",
	[RTM_IO_OPT_FILE_SIZE] = "--io-file-size", [RTM_IO_OPT_INTERVAL] = "--io-interval",
	[RTM_IO_OPT_DEADLINE] = "--io-deadline", [RTM_IO_OPT_DURATION] = "-D",
	[RTM_IO_OPT_IOPRIO] = "--io-ioprio", [RTM_IO_OPT_PRIORITY] = "--io-priority",
	[RTM_IO_OPT_CPU] = "--io-cpu", [RTM_IO_OPT_MAX_MISSES] = "--io-max-misses",
	[RTM_IO_OPT_TARGET] = "--io-target", [RTM_IO_OPT_FORCE_DEVICE] = "--io-force-device",
	[RTM_IO_OPT_NO_RT] = "--no-rt",
};

_Static_assert(MON_OPT_WK_ABOVE - MON_OPT_WK_PID == RTM_WAKEUP_OPT_ABOVE,
	       "the monitor's --wakeup-* keys follow enum rtm_wakeup_opt");

/* The wake-up programs' selection under the monitor's names, for their messages. */
static const char *const mon_wk_names[RTM_WAKEUP_OPT_N] = {
	[RTM_WAKEUP_OPT_PID] = "--wakeup-pid", [RTM_WAKEUP_OPT_COMM] = "--wakeup-comm",
	[RTM_WAKEUP_OPT_POLICY] = "--wakeup-policy", [RTM_WAKEUP_OPT_ABOVE] = "--wakeup-above",
};

/* The shared tables, the results and tracing ones in the monitor's versions. */
static const struct rtm_cmd_opts monitor_cmd = {
	.command = "monitor",
	.usage = "usage: rtmeasure monitor [options]\n\n"
		"Live dashboard: the timer probe on every CPU with current, min, avg, p99,\n"
		"p99.9 and max latency, the interrupts of the measured CPUs, and a log of the\n"
		"wake-ups over the alert threshold with the cause when tracing is on.\n"
		"Keys: q quit, space pause, r reset, s save, t tracing, + - threshold,\n"
		"tab panel, arrows/PgUp/PgDn scroll, ? help. Not on a terminal: a plain table\n"
		"per refresh.\n",
	.groups = monitor_groups,
	.ngroups = sizeof(monitor_groups) / sizeof(monitor_groups[0]),
	.tables = { measure_opts_probe, measure_opts_results_monitor, measure_opts_system,
		    measure_opts_trace_monitor, measure_opts_refused, monitor_opts },
};

/* --noise-cpus and the --noise-* options: 1 taken, 0 not ours, RTM_EXIT_USAGE. */
static int mon_noise_parse(struct rtm_mon *mo, int c, int argc, char **argv)
{
	struct rtm_error err = { "" };

	if (c == MON_OPT_NOISE_CPUS) {
		rtm_cpulist_release(&mo->noise_cpus);
		if (rtm_cpulist_parse(optarg, &mo->noise_cpus, &err) || !mo->noise_cpus.n)
			return rtm_cli_fail("monitor: --noise-cpus: %s", err.msg[0] ? err.msg :
					    "give at least one CPU");
		return 1;
	}
	if (c == MEASURE_OPT_NOISE)	/* run's --noise[=DUR] is not the monitor's */
		return rtm_cli_fail("monitor: --noise is run's noise phase; here give --noise-cpus "
				    "LIST (the noise probe on CPUs the timer probe does not "
				    "measure)");
	if (c >= MEASURE_OPT_NOISE_WINDOW && c <= MEASURE_OPT_NOISE_TRACE) {
		mo->noise_opt_given = true;
		return measure_noise_parse(&mo->m, c, argc, argv);
	}
	return 0;
}

/* --io and the --io-* options into @io: 1 taken, 0 not ours, RTM_EXIT_USAGE. */
static int mon_io_parse(struct rtm_mon *mo, struct rtm_io_cli *io, int c)
{
	struct rtm_error err = { "" };

	if (c < MON_OPT_IO || c > MON_OPT_IO_ALLOW_WRITES)
		return 0;
	if (c == MON_OPT_IO) {
		mo->io_on = true;
		return 1;
	}
	mo->io_opt_given = true;
	if (c == MON_OPT_IO_TARGET)
		io->req.target = optarg;
	else if (c == MON_OPT_IO_FORCE_DEVICE)
		io->req.force_device = true;
	else if (c == MON_OPT_IO_ALLOW_WRITES)
		io->req.allow_writes = true;
	else if (rtm_io_cli_set(io, (enum rtm_io_opt)(c - MON_OPT_IO_OP), optarg, &err) &&
		 !strncmp(err.msg, "--", 2))
		return rtm_cli_fail("monitor: %s", err.msg);	/* it names the option */
	else if (err.msg[0])
		return rtm_cli_fail("monitor: %s %s: %s", mon_io_names[c - MON_OPT_IO_OP], optarg,
				    err.msg);
	return 1;
}

/* --wakeup and the --wakeup-* options into @wk: 1 taken, 0 not ours, RTM_EXIT_USAGE. */
static int mon_wakeup_parse(struct rtm_mon *mo, struct rtm_wakeup_cli *wk, int c)
{
	struct rtm_error err = { "" };

	if (c < MON_OPT_WAKEUP || c > MON_OPT_WK_ABOVE)
		return 0;
	if (c == MON_OPT_WAKEUP) {
		mo->wk_on = true;
		return 1;
	}
	mo->wk_opt_given = true;
	if (rtm_wakeup_cli_set(wk, (enum rtm_wakeup_opt)(c - MON_OPT_WK_PID), optarg, &err))
		return rtm_cli_fail("monitor: %s", err.msg);	/* it names the option */
	mo->wk_sel = wk->sel;
	return 1;
}

/* The storage probe's checks (those of rtmeasure io) and its settings into @mo. */
static int mon_io_check(struct rtm_mon *mo, struct rtm_io_cli *io)
{
	struct rtm_error err = { "" };

	if (!mo->io_on)
		return -1;
	io->no_rt = mo->m.box.no_rt;	/* --no-rt: both probes at SCHED_OTHER */
	if (rtm_io_cli_check(io, &err))
		return rtm_cli_fail("monitor: %s", err.msg);
	mo->io_probe = io->probe;
	mo->io_req = io->req;
	mo->io_cpu_given = io->cpu_given;
	return -1;
}

/* The shared options of a measurement with an end result, which the dashboard has not. */
static int refuse_in_monitor(int c)
{
	const char *why;
	char name[48];

	switch (c) {
	case 'b': case MEASURE_OPT_CAPTURE: case MEASURE_OPT_MAX_CAPT: case MEASURE_OPT_HOLDOFF:
		why = "the spike log takes every wake-up over --threshold (keys + and -), and "
		      "with tracing on saves its window";
		break;
	case MEASURE_OPT_FAIL_ABOVE:
		why = "the dashboard has no end result to check; use cyclic or run";
		break;
	case MEASURE_OPT_JSON: case MEASURE_OPT_HISTFILE: case 'q': case 'N':
		why = "the dashboard is the output (--once: one plain table; -o: a results "
		      "folder); use cyclic or run";
		break;
	default:
		return 0;
	}
	return rtm_cli_fail("monitor: %s is not taken here: %s",
			    measure_opt_name(c, name, sizeof(name)), why);
}

/* The monitor's own options: 1 taken, 0 not ours, RTM_EXIT_USAGE after the message. */
static int monitor_own_opt(struct rtm_mon *mo, int c)
{
	struct rtm_error err = { "" };

	switch (c) {
	case MON_OPT_REFRESH:
		if (rtm_parse_duration_ns(optarg, &mo->refresh_ns, &err) ||
		    mo->refresh_ns < 100000000ULL)
			return rtm_cli_fail("monitor: --refresh: %s", err.msg[0] ? err.msg :
					    "at least 100ms");
		return 1;
	case MON_OPT_THRESHOLD:
		if (rtm_parse_latency_ns(optarg, &mo->threshold_ns, &err) || !mo->threshold_ns)
			return rtm_cli_fail("monitor: --threshold: %s", err.msg[0] ? err.msg :
					    "must be above 0");
		return 1;
	case MON_OPT_ONCE:
		mo->once = true;
		return 1;
	case MEASURE_OPT_TRACE:	/* --trace: here it switches tracing on from the start */
		mo->start_tracing = true;
		return 1;
	}
	return 0;
}

/* The options into @mo: -1 to go on, else the exit status (help, a bad option). */
static int monitor_parse(struct rtm_mon *mo, int argc, char **argv)
{
	struct rtm_getopt g;
	struct rtm_wakeup_cli wk;
	struct rtm_io_cli io;
	int c, ret;

	rtm_io_cli_init(&io, mon_io_names);
	rtm_wakeup_cli_init(&wk, mon_wk_names);
	mo->wk_sel = wk.sel;
	if (rtm_opts_getopt(&monitor_cmd, &g))
		return rtm_cli_fail("monitor: bad option table");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c == RTM_OPT_HELP || c == RTM_OPT_HELP_ALL) {
			rtm_opts_help(&monitor_cmd, stdout, c == RTM_OPT_HELP_ALL);
			return RTM_EXIT_OK;
		}
		ret = monitor_own_opt(mo, c);
		if (!ret)
			ret = refuse_in_monitor(c);
		if (!ret)
			ret = mon_noise_parse(mo, c, argc, argv);
		if (!ret)
			ret = mon_io_parse(mo, &io, c);
		if (!ret)
			ret = mon_wakeup_parse(mo, &wk, c);
		if (!ret)
			ret = measure_parse_opt(&mo->m, c, argc, argv);
		if (ret == 1)
			continue;
		if (ret)
			return ret;
		return rtm_cli_bad_option("monitor", g.shortopts, g.longopts, argv);
	}
	if (optind < argc)
		return rtm_cli_fail("monitor: unexpected argument '%s' (rtmeasure monitor --help)",
				    argv[optind]);
	return mon_io_check(mo, &io);
}

/* Returns false to quit. */
static bool handle_key(struct rtm_dash *d, int key)
{
	struct rtm_mon *mo = d->mo;

	if (d->help && key >= 0) {
		d->help = false;
		return true;
	}
	switch (key) {
	case 'q': case 'Q':
		return false;
	case ' ':
		d->paused = !d->paused;
		snprintf(mo->message, sizeof(mo->message), d->paused ? "display paused (space "
			 "resumes; measuring goes on)" : "display resumed");
		break;
	case 'r':
		rtm_mon_reset(mo);
		break;
	case 's':
		rtm_mon_save_snapshot(mo);
		break;
	case 't':
		if (mo->tracing)
			rtm_mon_tracing_off(mo);
		else
			rtm_mon_tracing_on(mo);
		break;
	case '+': case '=':
		rtm_mon_set_threshold(mo, mo->threshold_ns * 2);
		break;
	case '-': case '_':
		rtm_mon_set_threshold(mo, mo->threshold_ns / 2);
		break;
	case '\t': case 'c':
		d->focus = (enum rtm_dash_panel)((d->focus + 1) % RTM_PANEL_N);
		break;
	case '?': case 'h':
		d->help = true;
		break;
	default:
		rtm_dash_scroll_key(d, key);
		break;
	}
	return true;
}

/*
 * Set-up, the run: options checked, the measured CPUs locked, --prometheus bound,
 * the probes started. 0, or the exit status with everything released.
 */
static int monitor_start(struct rtm_mon *mo, struct rtm_promlive **prom)
{
	struct rtm_error err = { "" };
	json_t *sj;
	int ret;

	mo->plain = mo->once || !isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO);
	ret = rtm_mon_prepare(mo);
	if (ret)
		return ret;
	/* --prometheus: bound before anything is measured */
	sj = mo->si ? rtm_sysinfo_to_json(mo->si) : NULL;
	ret = rtm_promlive_start(&mo->m, sj, prom, &err);
	json_decref(sj);
	if (ret || rtm_mon_start(mo, &err)) {
		rtm_promlive_stop(*prom);
		rtm_mon_free(mo);
		return rtm_cli_fail("monitor: %s", err.msg);
	}
	return 0;
}

/* Wait for the next turn: a key on the screen, a sleep in the plain form; false to quit. */
static bool monitor_wait(struct rtm_dash *d, uint64_t next, int *key)
{
	uint64_t now = rtm_clock_ns(CLOCK_MONOTONIC), wait = next > now ? next - now : 0;

	*key = -1;
	if (wait > 100000000ULL)
		wait = 100000000ULL;	/* captures are noticed within 100 ms */
	if (d->mo->plain) {
		struct timespec ts = { 0, (long)wait };

		nanosleep(&ts, NULL);
		return true;
	}
	*key = rtm_dash_getkey((int)(wait / 1000000ULL));
	return *key < 0 || handle_key(d, *key);
}

/* The loop: ticks, keys, captures and a refresh every mo->refresh_ns until stopped. */
static void monitor_loop(struct rtm_dash *d, struct rtm_promlive *prom)
{
	struct rtm_mon *mo = d->mo;
	bool quit = false;
	uint64_t next = rtm_clock_ns(CLOCK_MONOTONIC) + mo->refresh_ns, now;
	int key;

	while (!quit && !*mo->m.stop && !rtm_probe_run_done(mo->run)) {
		quit = !monitor_wait(d, next, &key);
		rtm_probe_run_tick(mo->run);
		rtm_promlive_timer(prom, mo->c, NULL, mo->live, mo->hold, NULL);
		rtm_mon_poll(mo);
		now = rtm_clock_ns(CLOCK_MONOTONIC);
		if (now >= next) {
			rtm_mon_refresh(mo);
			if (mo->plain)
				rtm_dash_print_plain(d);
			else if (!d->paused || d->help)
				rtm_dash_draw(d);
			while (next <= now)
				next += mo->refresh_ns;
			if (mo->once)
				break;
		} else if (key >= 0 && !quit) {
			rtm_dash_draw(d);	/* answer a key at once */
		}
	}
}

/* --once stopped by a signal before its refresh: the figures so far, and why they are few. */
static void once_stopped(struct rtm_dash *d)
{
	struct rtm_mon *mo = d->mo;
	const char *sig = sigabbrev_np(*mo->m.stop);
	char name[16] = "";

	if (sig)
		snprintf(name, sizeof(name), "SIG%s", sig);
	rtm_disturb_interrupted_text(mo->stopline, sizeof(mo->stopline),
				     (uint64_t)(rtm_mon_elapsed_s(mo) * 1e9), mo->refresh_ns, name);
	rtm_mon_refresh(mo);
	rtm_dash_print_plain(d);
}

int cmd_monitor(int argc, char **argv, const struct rtm_cli *cli)
{
	struct rtm_mon mo;
	struct rtm_dash d = { .mo = &mo, .out = stdout };
	struct rtm_promlive *prom = NULL;
	int ret, status = RTM_EXIT_OK;

	rtm_mon_init(&mo);
	mo.m.outf = stdout;
	mo.m.errf = stderr;
	mo.m.stop = cli->stop;
	ret = monitor_parse(&mo, argc, argv);
	if (ret >= 0) {
		rtm_cpulist_release(&mo.noise_cpus);
		rtm_session_opts_release(&mo.m);
		return ret;
	}
	ret = monitor_start(&mo, &prom);
	if (ret)
		return ret;
	if (mo.start_tracing && rtm_mon_tracing_on(&mo) && mo.plain)
		fprintf(stderr, "rtmeasure: %s\n", mo.message);
	if (!mo.plain)
		rtm_dash_init(&d);
	monitor_loop(&d, prom);
	if (mo.once && *mo.m.stop && !mo.refreshes)
		once_stopped(&d);

	/* outcome */
	if (!mo.plain)
		rtm_dash_end();
	rtm_probe_run_stop(mo.run);
	rtm_promlive_stop(prom);
	if (mo.m.out.outdir)
		status = rtm_mon_finish(&mo);
	rtm_mon_free(&mo);
	return status;
}
