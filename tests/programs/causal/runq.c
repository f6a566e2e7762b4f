/*
 * More runnable threads than CPUs: THREADS threads compute in chunks of
 * ~2 ms on the first CPUS CPUs the process may use, so that each waits in
 * the run queue ([S]) while the others run.
 *   runq THREADS CPUS SECONDS
 * Adding CPUs is the real speedup of the run-queue wait: with as many CPUs
 * as threads there is none. chunk_done() is the progress point. Prints
 * chunks per second on stdout.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned long chunks[64];
static volatile int stop;
static volatile double sink;

__attribute__((noinline)) void chunk_done(unsigned long *count)
{
	++*(volatile unsigned long *)count;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *worker(void *arg)
{
	unsigned long *count = arg;
	while (!stop) {
		double x = 1.0;
		for (long i = 0; i < 1200000; i++) x = x * 1.0000001 + 1e-9; /* the compute line */
		sink = x;
		chunk_done(count);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	int threads = atoi(argv[1]), cpus = atoi(argv[2]);
	double secs = atof(argv[3]);
	if (threads < 1 || threads > 64 || cpus < 1)
		return 2;
	/* the first CPUS of the CPUs this process may run on */
	cpu_set_t allowed, use;
	CPU_ZERO(&use);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return 1;
	for (int c = 0, n = 0; c < CPU_SETSIZE && n < cpus; c++)
		if (CPU_ISSET(c, &allowed)) {
			CPU_SET(c, &use);
			n++;
		}
	if (sched_setaffinity(0, sizeof(use), &use) != 0)
		return 1;
	pthread_t t[64];
	double t0 = now();
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, &chunks[i]);
	struct timespec d = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	nanosleep(&d, NULL); /* the main wait line */
	stop = 1;
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	unsigned long total = 0;
	for (int i = 0; i < threads; i++)
		total += chunks[i];
	printf("%.3f\n", total / (now() - t0));
	return 0;
}
