// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_prom - what /metrics costs rtmeasure, without the probes: the main
 * thread's reduction of N CPUs' histograms at each interval boundary, and one
 * scrape (formatting the page) through the real server over loopback, in CPU
 * time of this process (both threads).
 *
 *   bench_prom NCPUS ROUNDS
 * prints "cpus=N publish_us=X scrape_cpu_us=Y page_bytes=Z"
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "present/promhttp.h"

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* one GET /metrics over loopback; returns the bytes of the answer */
static size_t scrape(unsigned int port)
{
	static char buf[1 << 16];
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	size_t total = 0;
	ssize_t n;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    write(fd, req, sizeof(req) - 1) != (ssize_t)(sizeof(req) - 1)) {
		perror("scrape");
		exit(1);
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += (size_t)n;
	close(fd);
	return total;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 256, rounds = argc > 2 ? atoi(argv[2]) : 50, i, k;
	struct rtm_prom_target t = { "bench", "6.18.0", "none", "timer", 0 };
	struct rtm_prom_run run = { .trace_lost = -1, .spikes_captured = -1 };
	struct rtm_prom_cpu *cpus = calloc((size_t)n, sizeof(*cpus));
	struct rtm_hist *h = rtm_hist_alloc(), *last = rtm_hist_alloc();
	struct rtm_error err = { "" };
	struct rtm_promhttp *srv;
	double t0, t1;
	size_t bytes = 0;

	srand(1);
	/* a day-long-looking distribution: 20-100 us body, a tail to 5 ms */
	for (k = 0; k < 200000; k++)
		rtm_hist_record(h, 20000 + (uint64_t)(rand() % 80000) +
				(k % 1000 == 0 ? (uint64_t)(rand() % 5000000) : 0));
	for (k = 0; k < 1000; k++)
		rtm_hist_record(last, 20000 + (uint64_t)(rand() % 80000));
	srv = rtm_promhttp_start("0", NULL, &t, &err);
	if (!cpus || !srv) {
		fprintf(stderr, "bench_prom: %s\n", err.msg);
		return 1;
	}
	t0 = cpu_s();
	for (i = 0; i < rounds; i++) {
		for (k = 0; k < n; k++) {
			cpus[k].cpu = k;
			rtm_prom_hist_from(&cpus[k].run, h, 0, 0);
			rtm_prom_hist_from(&cpus[k].last, last, 0, 0);
			cpus[k].has_last = true;
		}
		rtm_promhttp_publish(srv, cpus, n, &run);
	}
	t1 = cpu_s();
	printf("cpus=%d publish_us=%.1f", n, (t1 - t0) / rounds * 1e6);
	/* the client's share is small next to formatting; it is counted too */
	t0 = cpu_s();
	for (i = 0; i < rounds; i++)
		bytes = scrape(rtm_promhttp_port(srv));
	t1 = cpu_s();
	printf(" scrape_cpu_us=%.1f page_bytes=%zu\n", (t1 - t0) / rounds * 1e6, bytes);
	rtm_promhttp_stop(srv);
	rtm_hist_free(h);
	rtm_hist_free(last);
	free(cpus);
	return 0;
}
