/*
 * A program that sets a real-time signal back to its default action (which
 * ends the process) part way through, as a program that uses that signal
 * for itself would: genba causal must then stop sending it.
 *   sigreset SIGNO SECONDS
 * Two threads meet at a barrier each round: the main thread computes, the
 * other sleeps. round_done() is the progress point. After a third of
 * SECONDS the main thread resets SIGNO. Prints the rounds on stdout.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;
static volatile unsigned long rounds;
static pthread_barrier_t bar;
static volatile int stop;

__attribute__((noinline)) void round_done(void)
{
	rounds++;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;) {
		struct timespec d = { 0, 4000000 };
		nanosleep(&d, NULL); /* the wait line */
		pthread_barrier_wait(&bar);
		pthread_barrier_wait(&bar);
		if (stop)
			return NULL;
	}
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int sig = atoi(argv[1]);
	double secs = atof(argv[2]);
	int reset = 0;
	pthread_t t;
	pthread_barrier_init(&bar, NULL, 2);
	pthread_create(&t, NULL, sleeper, NULL);
	double t0 = now();
	for (;;) {
		double x = 1.0;
		for (long i = 0; i < 3000000; i++) x = x * 1.0000001 + 1e-9; /* the compute line */
		sink = x;
		pthread_barrier_wait(&bar);
		round_done();
		if (!reset && now() - t0 >= secs / 3) {
			signal(sig, SIG_DFL);
			reset = 1;
		}
		stop = now() - t0 >= secs;
		pthread_barrier_wait(&bar);
		if (stop)
			break;
	}
	pthread_join(t, NULL);
	printf("%lu\n", rounds);
	return 0;
}
