// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inject - a disturbance of known size for the integration tests.
 *
 *   inject --cpu 0 --spin 1500us --every 100ms --count 20 [--priority 99] [--delay 500ms]
 *
 * Pins itself to the CPU, runs at SCHED_FIFO (priority 99 unless told), names
 * itself "rtm-inject", waits --delay, then --count times, every --every period
 * (absolute sleeps on CLOCK_MONOTONIC), busy-spins --spin reading CLOCK_MONOTONIC.
 * Prints "inject N START_NS END_NS" per injection (N from 1, CLOCK_MONOTONIC ns)
 * and "injections N" at the end. Bad options: one line on stderr, exit 2;
 * failures to set up: exit 1. SIGINT/SIGTERM end it early (still printing the
 * final line).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "helper.h"
#include "box/rt.h"
#include "core/units.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static void sleep_until(uint64_t t_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(t_ns / 1000000000ULL),
			       .tv_nsec = (long)(t_ns % 1000000000ULL) };

	while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

#define USAGE "usage: inject --cpu N --spin TIME --every TIME --count N [--priority P] " \
	      "[--delay TIME]"

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "spin", required_argument, NULL, 's' },
		{ "every", required_argument, NULL, 'e' },
		{ "count", required_argument, NULL, 'n' },
		{ "priority", required_argument, NULL, 'p' },
		{ "delay", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rtm_sched sched = { .policy = RTM_POLICY_FIFO, .priority = 99 };
	struct rtm_sched other = { .policy = RTM_POLICY_OTHER };
	uint64_t spin_ns = 0, every_ns = 0, delay_ns = 0, next, start, end, t, *times;
	long cpu = -1, count = -1, i, done = 0;
	char a[32], b[32];
	struct rtm_error err;
	struct sigaction sa;
	int c;

	helper_name = "inject";
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cpu = parse_int("--cpu", optarg, 0, RTM_MAX_CPUS - 1);
			break;
		case 's':
			spin_ns = parse_time("--spin", optarg);
			break;
		case 'e':
			every_ns = parse_time("--every", optarg);
			break;
		case 'n':
			count = parse_int("--count", optarg, 1, 1000000);
			break;
		case 'p':
			sched.priority = (int)parse_int("--priority", optarg, 1, 99);
			break;
		case 'd':
			delay_ns = parse_time("--delay", optarg);
			break;
		case 'h':
			printf("%s\n", USAGE);
			return 0;
		case ':':
			die(2, "option %s needs a value (" USAGE ")", argv[optind - 1]);
		default:
			die(2, "unknown option %s (" USAGE ")", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die(2, "unexpected argument '%s' (" USAGE ")", argv[optind]);
	if (cpu < 0 || !spin_ns || !every_ns || count < 0)
		die(2, "--cpu, --spin, --every and --count are required and --spin/--every must "
		    "be > 0 (" USAGE ")");
	if (spin_ns >= every_ns / 2)
		die(2, "--spin %s is half of --every %s or more, which could starve the CPU: keep "
		    "--spin below every/2", rtm_fmt_ns(a, sizeof(a), spin_ns),
		    rtm_fmt_ns(b, sizeof(b), every_ns));

	if (rtm_affinity_set((int)cpu, &err))
		die(1, "%s", err.msg);
	if (rtm_sched_apply(&sched, &err))
		die(1, "%s", err.msg);
	prctl(PR_SET_NAME, "rtm-inject", 0, 0, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/*
	 * Keep the times in memory and print them only after dropping to
	 * SCHED_OTHER: any output or exit work at FIFO 99 would be a disturbance
	 * of its own, right after the measured one.
	 */
	times = calloc((size_t)count * 2, sizeof(*times));
	if (!times)
		die(1, "out of memory for %ld injections", count);
	next = now_ns() + delay_ns;
	for (i = 1; i <= count && !stop; i++) {
		sleep_until(next);
		if (stop)
			break;
		start = now_ns();
		end = start + spin_ns;
		do {
			t = now_ns();
		} while (t < end);
		times[2 * done] = start;
		times[2 * done + 1] = t;
		done++;
		next += every_ns;
	}
	rtm_sched_apply(&other, NULL);
	for (i = 0; i < done; i++)
		printf("inject %ld %" PRIu64 " %" PRIu64 "\n", i + 1, times[2 * i],
		       times[2 * i + 1]);
	printf("injections %ld\n", done);
	free(times);
	return fflush(stdout) == 0 ? 0 : 1;
}
