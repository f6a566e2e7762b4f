/*
 * A thread sleeps in 2 ms nanosleeps while another computes; the process
 * is stopped and continued from outside, which makes the kernel restart
 * the sleeps (an interrupted nanosleep returns ERESTART_RESTARTBLOCK to
 * the kernel's signal code, never EINTR to a program without handlers).
 *   restart SECONDS
 * Prints the sleeps that returned EINTR (0 unless something delivered a
 * signal to a handler at the restart), then the rounds. chunk_done() is
 * the progress point.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;
static volatile int stop;
static unsigned long chunks;

__attribute__((noinline)) void chunk_done(unsigned long *c)
{
	++*(volatile unsigned long *)c;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *computer(void *arg)
{
	(void)arg;
	while (!stop) {
		double x = 1.0;
		for (long i = 0; i < 300000; i++) x = x * 1.0000001 + 1e-9; /* the compute line */
		sink = x;
		chunk_done(&chunks);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	double secs = atof(argv[1]);
	unsigned long eintr = 0;
	pthread_t t;
	pthread_create(&t, NULL, computer, NULL);
	double t0 = now();
	while (now() - t0 < secs) {
		struct timespec d = { 0, 2000000 };
		if (nanosleep(&d, NULL) && errno == EINTR)
			eintr++;
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("%lu %lu\n", eintr, chunks);
	return 0;
}
