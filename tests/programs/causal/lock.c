/*
 * Two workers share a lock, and the critical section is the bottleneck:
 * each item takes the lock, computes inside it (~2 ms at 100%), leaves it
 * and computes outside (~0.5 ms at 100%), then counts the item.
 *   lock CRITICAL_PCT OUTSIDE_PCT SECONDS
 * Speeding up the critical section speeds the program up; speeding up the
 * outside part does not (the lock is busy all the time); the workers wait
 * for the lock ([L]) most of the time. item_done() is the progress point.
 * Prints items per second on stdout.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;
static volatile unsigned long items;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long n_crit, n_out;
static double t0, secs;

__attribute__((noinline)) void item_done(void)
{
	/* a plain load first: a uprobe cannot sit on a lock-prefixed
	 * instruction, and genba refuses such a progress point */
	if (items == (unsigned long)-1)
		return;
	__atomic_fetch_add(&items, 1, __ATOMIC_RELAXED);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *worker(void *arg)
{
	(void)arg;
	while (now() - t0 < secs) {
		double x = 1.0, y = 1.0;
		pthread_mutex_lock(&lock); /* the lock line */
		for (long i = 0; i < n_crit; i++) x = x * 1.0000001 + 1e-9; /* the critical line */
		sink = x;
		pthread_mutex_unlock(&lock);
		for (long i = 0; i < n_out; i++) y = y * 1.0000001 + 1e-9; /* the outside line */
		sink = y;
		item_done();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	if (argc < 4)
		return 2;
	n_crit = 1200000L * atol(argv[1]) / 100;
	n_out = 300000L * atol(argv[2]) / 100;
	secs = atof(argv[3]);
	t0 = now();
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%.3f\n", items / (now() - t0));
	return 0;
}
