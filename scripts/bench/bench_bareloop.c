// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_bareloop - the smallest cyclictest-style loop, a control for
 * scripts/bench/cyclic-vs-cyclictest: one FIFO 95 thread per CPU (0..N-1),
 * absolute clock_nanosleep every 1 ms, latency in whole microseconds as
 * cyclictest counts it, nothing else; memory locked, cpu_dma_latency held at 0.
 *
 *   bench_bareloop NCPUS LOOPS [--waker]
 * --waker: the main thread sleeps 10 ms in a loop meanwhile, as cyclictest's
 * does; without it, it waits in pthread_join as rtmeasure's main thread waits.
 * Prints "min_us p1_us" over all threads.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS 64
#define ROWS 1000

static long loops;
static long hist[MAX_CPUS][ROWS];
static long mins[MAX_CPUS];
static atomic_int running;

static void add_ms(struct timespec *t)
{
	t->tv_nsec += 1000000;
	if (t->tv_nsec >= 1000000000) {
		t->tv_nsec -= 1000000000;
		t->tv_sec++;
	}
}

static void *probe(void *arg)
{
	long cpu = (long)arg, diff, min = 1L << 40, i;
	struct sched_param sp = { .sched_priority = 95 };
	struct timespec now, next;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	sched_setscheduler(0, SCHED_FIFO, &sp);
	clock_gettime(CLOCK_MONOTONIC, &next);
	add_ms(&next);
	for (i = 0; i < loops; i++) {
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		clock_gettime(CLOCK_MONOTONIC, &now);
		diff = (now.tv_sec - next.tv_sec) * 1000000 + (now.tv_nsec - next.tv_nsec) / 1000;
		min = diff < min ? diff : min;
		if (diff >= 0 && diff < ROWS)
			hist[cpu][diff]++;
		do
			add_ms(&next);
		while (now.tv_sec > next.tv_sec ||
		       (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec));
	}
	mins[cpu] = min;
	atomic_fetch_sub(&running, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[1]) : 0, i, k, total = 0, acc = 0, p1 = -1, min = 1L << 40;
	int waker = argc > 3 && !strcmp(argv[3], "--waker"), zero = 0, fd;
	pthread_t t[MAX_CPUS];

	loops = argc > 2 ? atol(argv[2]) : 0;
	if (n < 1 || n > MAX_CPUS || loops < 1) {
		fprintf(stderr, "usage: bench_bareloop NCPUS LOOPS [--waker]\n");
		return 2;
	}
	mlockall(MCL_CURRENT | MCL_FUTURE);
	fd = open("/dev/cpu_dma_latency", O_RDWR);
	if (fd >= 0 && write(fd, &zero, sizeof(zero)) != sizeof(zero))
		fprintf(stderr, "bench_bareloop: cpu_dma_latency not held\n");
	atomic_store(&running, (int)n);
	for (i = 0; i < n; i++)
		pthread_create(&t[i], NULL, probe, (void *)i);
	while (waker && atomic_load(&running) > 0)
		usleep(10000);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	for (k = 0; k < ROWS; k++)
		for (i = 0; i < n; i++)
			total += hist[i][k];
	for (k = 0; k < ROWS && p1 < 0; k++) {
		for (i = 0; i < n; i++)
			acc += hist[i][k];
		if (acc * 100 >= total)
			p1 = k;
	}
	for (i = 0; i < n; i++)
		min = mins[i] < min ? mins[i] : min;
	printf("%ld %ld\n", min, p1);
	if (fd >= 0)
		close(fd);
	return 0;
}
