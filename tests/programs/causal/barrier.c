/*
 * Two threads meet at a barrier each round: the main thread computes (~6 ms
 * at 100%), the other waits (a ~15 ms nanosleep at 100%), so the waiting
 * side is the one each round waits for.
 *   barrier COMPUTE_PCT WAIT_PCT SECONDS
 * (SECONDS ending in 'r', as "40r": that many rounds, a fixed amount of
 * work, however long it takes)
 * Speeding up the compute does nothing to the rounds; speeding up the wait
 * does, until it is shorter than the compute. round_done() is the progress
 * point. Prints rounds per second on stdout. Each part is one source line,
 * so that a line candidate is the whole part.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile double sink;
static volatile unsigned long rounds;
static pthread_barrier_t bar;
static volatile int stop;
static long n_compute, wait_ns;

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

static void *waiter(void *arg)
{
	(void)arg;
	for (;;) {
		struct timespec d = { 0, wait_ns };
		if (wait_ns)
			nanosleep(&d, NULL); /* the wait line */
		pthread_barrier_wait(&bar);
		pthread_barrier_wait(&bar);
		if (stop)
			return NULL;
	}
}

int main(int argc, char **argv)
{
	pthread_t t;
	if (argc < 4)
		return 2;
	n_compute = 3600000L * atol(argv[1]) / 100;
	wait_ns = 15000000L * atol(argv[2]) / 100;
	double secs = atof(argv[3]);
	long fixed = argv[3][strlen(argv[3]) - 1] == 'r' ? atol(argv[3]) : -1;
	pthread_barrier_init(&bar, NULL, 2);
	pthread_create(&t, NULL, waiter, NULL);
	double t0 = now();
	for (;;) {
		double x = 1.0;
		for (long i = 0; i < n_compute; i++) x = x * 1.0000001 + 1e-9; /* the compute line */
		sink = x;
		pthread_barrier_wait(&bar);
		round_done();
		stop = fixed >= 0 ? (long)rounds >= fixed : now() - t0 >= secs;
		pthread_barrier_wait(&bar);
		if (stop)
			break;
	}
	pthread_join(t, NULL);
	printf("%.3f\n", rounds / (now() - t0));
	return 0;
}
