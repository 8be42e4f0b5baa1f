// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * udpload - an interrupt load over loopback, for irq --accounting.
 *
 *   udpload --from C [--spin S] [--size B] [--duration D]
 *
 * One thread (rtm-udpsend) on CPU C sends B-byte UDP datagrams (default 64) to
 * 127.0.0.1 as fast as it can; a second one (rtm-udprecv) on the same CPU
 * reads them. Loopback hands each packet to netif_rx(): the receive work (IP,
 * UDP, the socket) runs in the NET_RX softirq of the CPU that Receive Packet
 * Steering picks: the sending CPU unless /sys/class/net/lo/queues/rx-0/rps_cpus
 * names others, in which case that CPU is sent an IPI (a call-function vector)
 * and runs NET_RX at its exit, on whatever task it interrupted. Setting
 * rps_cpus (and putting it back) is the caller's job. --spin S adds the
 * interrupted party: a thread (rtm-spin) that only counts, pinned on CPU S.
 *
 * Prints "udpload sent N received M" at the end. Bad options: one line on
 * stderr, exit 2; failures to set up: exit 1. SIGINT/SIGTERM end it early.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "helper.h"
#include "box/rt.h"

static volatile sig_atomic_t stop;
static atomic_long sent, received;
static long from_cpu = -1, spin_cpu = -1, size = 64;
static int rx_fd, tx_fd;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void pin(const char *name, long cpu)
{
	struct rtm_error err;

	if (rtm_affinity_set((int)cpu, &err))
		die(1, "%s", err.msg);
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

static void *sender(void *arg)
{
	char buf[65507];

	(void)arg;
	pin("rtm-udpsend", from_cpu);
	memset(buf, 'x', (size_t)size);
	while (!stop)
		if (send(tx_fd, buf, (size_t)size, 0) == (ssize_t)size)
			atomic_fetch_add(&sent, 1);
	return NULL;
}

static void *receiver(void *arg)
{
	char buf[65536];

	(void)arg;
	pin("rtm-udprecv", from_cpu);
	while (!stop)
		if (recv(rx_fd, buf, sizeof(buf), 0) > 0)
			atomic_fetch_add(&received, 1);
	return NULL;
}

static void *spinner(void *arg)
{
	volatile unsigned long n = 0;

	(void)arg;
	pin("rtm-spin", spin_cpu);
	while (!stop)
		n++;
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 's' },
		{ "spin", required_argument, NULL, 'S' },
		{ "duration", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { 0, 100000 };	/* recv wakes up to see stop */
	struct sigaction sa = { .sa_handler = on_signal };
	socklen_t len = sizeof(a);
	uint64_t duration_ns = 10000000000ULL, end;
	struct timespec tick = { 0, 20000000 };
	pthread_t tx, rx, sp;
	struct rtm_error err;
	int c;

	helper_name = "udpload";
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			from_cpu = parse_int("--from", optarg, 0, 4095);
			break;
		case 's':
			size = parse_int("--size", optarg, 1, 65507);
			break;
		case 'S':
			spin_cpu = parse_int("--spin", optarg, 0, 4095);
			break;
		case 'D':
			if (rtm_parse_duration_ns(optarg, &duration_ns, &err))
				die(2, "--duration: %s", err.msg);
			break;
		default:
			die(2, "unknown or incomplete option %s (udpload --from C [--spin S] "
			    "[--size B] [--duration D])", argv[optind - 1]);
		}
	}
	if (from_cpu < 0 || optind < argc)
		die(2, "usage: udpload --from C [--spin S] [--size B] [--duration D]");
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rx_fd = socket(AF_INET, SOCK_DGRAM, 0);
	tx_fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx_fd < 0 || tx_fd < 0 || bind(rx_fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(rx_fd, (struct sockaddr *)&a, &len) ||
	    connect(tx_fd, (struct sockaddr *)&a, sizeof(a)) ||
	    setsockopt(rx_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		die(1, "sockets: %s", strerror(errno));
	if (pthread_create(&rx, NULL, receiver, NULL) || pthread_create(&tx, NULL, sender, NULL) ||
	    (spin_cpu >= 0 && pthread_create(&sp, NULL, spinner, NULL)))
		die(1, "cannot start the threads");
	end = now_ns() + duration_ns;
	while (!stop && now_ns() < end)
		nanosleep(&tick, NULL);
	stop = 1;
	pthread_join(tx, NULL);
	pthread_join(rx, NULL);
	if (spin_cpu >= 0)
		pthread_join(sp, NULL);
	printf("udpload sent %ld received %ld\n", atomic_load(&sent), atomic_load(&received));
	return 0;
}
