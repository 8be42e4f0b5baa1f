// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * disturb - load generators for recording spike windows (kernel lab,
 * scripts/kernel-lab/record-spikes). Each names its threads so that they are
 * recognisable in a trace.
 *
 *   disturb timeouts --cpu C --count N --every T
 *       N threads on C (rtm-timeout) each blocking in recv() with SO_RCVTIMEO T on
 *       a socket that gets no data: timer-wheel timers, which the wheel rounds up
 *       to its level's granularity (64 jiffies, 256 ms at HZ=250, for 2-16 s), so
 *       that the TIMER softirq wakes many threads at once (in irq exit or
 *       ksoftirqd on a stock kernel, in ktimers on PREEMPT_RT)
 *   disturb epoll --cpu C --count N
 *       N always-ready eventfds; epoll_wait() returns all of them, in a loop
 *       (rtm-epoll): one long kernel loop without a preemption point
 *   disturb serial --from F --dev TTY [--size B] [--every P]
 *       write B bytes of lines to a serial port (rtm-serial), every P if given
 *       (bursts of transmit interrupts), otherwise back to back
 *   disturb kmsg --cpu C --size B --every P
 *       write B-character KERN_ERR records to /dev/kmsg (rtm-kmsg): the kernel
 *       prints them on the serial console with interrupts off
 *
 * Common: --duration D (default 30s); SIGINT/SIGTERM end it early. Prints
 * "disturb MODE ops N" at the end. Bad options: one line on stderr, exit 2;
 * failures to set up: exit 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "helper.h"
#include "box/rt.h"
#include "core/units.h"

#define MAX_THREADS 1000

static volatile sig_atomic_t stop;
static atomic_long ops;

static struct {
	const char *mode, *dev;
	long cpu, from, threads, count, size;
	uint64_t every_ns, duration_ns;
} o = { .cpu = -1, .from = -1, .count = -1, .size = -1,
	.duration_ns = 30000000000ULL };

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void pin(long cpu, const char *name)
{
	struct rtm_error err;

	if (rtm_affinity_set((int)cpu, &err))
		die(1, "%s", err.msg);
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

/* Run @fn in o.threads threads until the end. */
static void run_threads(void *(*fn)(void *))
{
	static pthread_t th[MAX_THREADS + 1];
	uint64_t end = now_ns() + o.duration_ns;
	struct timespec tick = { 0, 50000000 };
	long i, n = 0;

	for (i = 0; i < o.threads; i++)
		if (pthread_create(&th[n++], NULL, fn, NULL))
			die(1, "cannot start a thread");
	while (!stop && now_ns() < end)
		nanosleep(&tick, NULL);
	stop = 1;
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
}

static void *timeout_thread(void *arg)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { (time_t)(o.every_ns / 1000000000ULL),
			      (suseconds_t)(o.every_ns % 1000000000ULL / 1000) };
	char buf[16];
	int fd;

	(void)arg;
	pin(o.cpu, "rtm-timeout");
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		die(1, "timeout socket: %s", strerror(errno));
	while (!stop) {
		if (recv(fd, buf, sizeof(buf), 0) < 0 && errno == EAGAIN)
			atomic_fetch_add(&ops, 1);
	}
	close(fd);
	return NULL;
}

static void mode_timeouts(void)
{
	struct rlimit rl = { (rlim_t)o.count + 64, (rlim_t)o.count + 64 };

	if (o.cpu < 0 || o.count < 1 || !o.every_ns)
		die(2, "timeouts needs --cpu, --count and --every");
	if (o.count > 1000)
		die(2, "--count for timeouts: at most 1000 threads");
	setrlimit(RLIMIT_NOFILE, &rl);
	o.threads = o.count;
	run_threads(timeout_thread);
}

static void mode_epoll(void)
{
	struct rlimit rl = { (rlim_t)o.count + 64, (rlim_t)o.count + 64 };
	struct epoll_event ev, *out;
	uint64_t end, one = 1;
	int ep, fd;
	long i;

	if (o.cpu < 0 || o.count < 1)
		die(2, "epoll needs --cpu and --count");
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die(1, "cannot raise the open-files limit to %ld: %s", o.count + 64,
		    strerror(errno));
	pin(o.cpu, "rtm-epoll");
	ep = epoll_create1(0);
	out = calloc((size_t)o.count, sizeof(*out));
	if (ep < 0 || !out)
		die(1, "epoll_create1: %s", strerror(errno));
	for (i = 0; i < o.count; i++) {
		fd = eventfd(0, EFD_NONBLOCK);
		if (fd < 0 || write(fd, &one, sizeof(one)) != sizeof(one))
			die(1, "eventfd %ld: %s", i, strerror(errno));
		ev.events = EPOLLIN;	/* level-triggered: ready for ever */
		ev.data.u64 = (uint64_t)i;
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
			die(1, "epoll_ctl: %s", strerror(errno));
	}
	end = now_ns() + o.duration_ns;
	while (!stop && now_ns() < end) {
		if (epoll_wait(ep, out, (int)o.count, 0) > 0)
			ops++;
	}
	free(out);
}

static void mode_serial(void)
{
	struct termios tio;
	char buf[4096];
	uint64_t end;
	long i;
	int fd;

	if (o.from < 0 || !o.dev)
		die(2, "serial needs --from and --dev");
	if (o.size < 0)
		o.size = 4096;
	if (o.size < 2 || o.size > (long)sizeof(buf))
		die(2, "--size for serial: 2 to %zu bytes", sizeof(buf));
	pin(o.from, "rtm-serial");
	fd = open(o.dev, O_WRONLY | O_NOCTTY);
	if (fd < 0)
		die(1, "cannot open %s: %s", o.dev, strerror(errno));
	if (!tcgetattr(fd, &tio)) {
		cfmakeraw(&tio);
		tcsetattr(fd, TCSANOW, &tio);
	}
	/* whole lines, so that what follows on the port starts on a line of its own */
	for (i = 0; i < o.size; i++)
		buf[i] = (i + 1) % 64 == 0 || i == o.size - 1 ? '\n' : 's';
	end = now_ns() + o.duration_ns;
	while (!stop && now_ns() < end) {
		if (write(fd, buf, (size_t)o.size) > 0)
			ops++;
		if (o.every_ns) {
			struct timespec ts = { (time_t)(o.every_ns / 1000000000ULL),
					       (long)(o.every_ns % 1000000000ULL) };

			nanosleep(&ts, NULL);
		}
	}
	tcdrain(fd);
	close(fd);
}

static void mode_kmsg(void)
{
	struct timespec every;
	char buf[1024];
	uint64_t end;
	int fd;

	if (o.cpu < 0 || o.size < 1 || !o.every_ns)
		die(2, "kmsg needs --cpu, --size and --every");
	if (o.size > 900)
		die(2, "--size for kmsg: at most 900 characters (one printk record)");
	pin(o.cpu, "rtm-kmsg");
	fd = open("/dev/kmsg", O_WRONLY);
	if (fd < 0)
		die(1, "cannot open /dev/kmsg: %s", strerror(errno));
	snprintf(buf, sizeof(buf), "<3>rtm-kmsg ");
	memset(buf + 12, 'k', (size_t)o.size);
	every.tv_sec = (time_t)(o.every_ns / 1000000000ULL);
	every.tv_nsec = (long)(o.every_ns % 1000000000ULL);
	end = now_ns() + o.duration_ns;
	while (!stop && now_ns() < end) {
		if (write(fd, buf, (size_t)o.size + 12) > 0)
			ops++;
		nanosleep(&every, NULL);
	}
	close(fd);
}

#define USAGE "usage: disturb timeouts|epoll|serial|kmsg [--cpu C] [--from F] " \
	      "[--count N] [--every T] [--size B] [--dev TTY] [--duration D]"

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "from", required_argument, NULL, 'f' },
		{ "count", required_argument, NULL, 'n' },
		{ "every", required_argument, NULL, 'e' },
		{ "size", required_argument, NULL, 'b' },
		{ "dev", required_argument, NULL, 'd' },
		{ "duration", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rtm_error err;
	struct sigaction sa;
	int c;

	helper_name = "disturb";
	if (argc < 2 || argv[1][0] == '-') {
		if (argc == 2 && !strcmp(argv[1], "--help")) {
			printf("%s\n", USAGE);
			return 0;
		}
		die(2, "%s", USAGE);
	}
	o.mode = argv[1];
	optind = 2;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o.cpu = parse_int("--cpu", optarg, 0, RTM_MAX_CPUS - 1);
			break;
		case 'f':
			o.from = parse_int("--from", optarg, 0, RTM_MAX_CPUS - 1);
			break;
		case 'n':
			o.count = parse_int("--count", optarg, 1, 1000000);
			break;
		case 'b':
			o.size = parse_int("--size", optarg, 1, 1000000);
			break;
		case 'd':
			o.dev = optarg;
			break;
		case 'e':
			o.every_ns = parse_time("--every", optarg);
			break;
		case 'D':
			if (rtm_parse_duration_ns(optarg, &o.duration_ns, &err))
				die(2, "--duration: %s", err.msg);
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

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (!strcmp(o.mode, "timeouts"))
		mode_timeouts();
	else if (!strcmp(o.mode, "epoll"))
		mode_epoll();
	else if (!strcmp(o.mode, "serial"))
		mode_serial();
	else if (!strcmp(o.mode, "kmsg"))
		mode_kmsg();
	else
		die(2, "unknown mode '%s' (" USAGE ")", o.mode);
	printf("disturb %s ops %ld\n", o.mode, (long)atomic_load(&ops));
	return fflush(stdout) == 0 ? 0 : 1;
}
