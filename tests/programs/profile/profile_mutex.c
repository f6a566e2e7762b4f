/* profile_mutex: ground truth for `genba profile` [L] (lock wait, futex).
 *
 * N threads (default 4) contend one pthread mutex for DURATION_MS of wall time
 * each: lock, burn ~50 us of CPU in `hold_work` (by a calibrated iteration
 * count), unlock, repeat.
 * Usage: profile_mutex [NTHREADS [DURATION_MS]]   (defaults: 4 and 2000)
 *
 * Prints {"pid":..,"threads":[{..},..]}, per thread: tid, wall_ns, cpu_ns
 * (CLOCK_THREAD_CPUTIME_ID), runq_ns (run_delay from /proc/thread-self/schedstat,
 * exactly [S]), lock_wait_ns (CLOCK_MONOTONIC around each pthread_mutex_lock),
 * lock_blocked_ns (inside the lock calls: wall - cpu - runq, the expected [L]),
 * rounds.  wall = cpu + runq + blocked, and blocked is almost all lock_blocked_ns.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "truth.h"

#define HOLD_NS 50000 /* CPU time burned while holding the mutex */

struct worker {
	pthread_t th;
	int tid;
	uint64_t wall, cpu, runq, rounds;
	struct span lock;
};

static long duration_ms;
static uint64_t hold_iters;
static pthread_barrier_t start;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline, noclone)) uint64_t hold_work(uint64_t x, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17; /* SITE:hold */
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

/* iterations of hold_work per HOLD_NS of CPU, measured over ~5 ms */
static uint64_t calibrate(void)
{
	uint64_t iters = 0, x = 1, c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID), c;
	do {
		x = hold_work(x, 10000);
		iters += 10000;
	} while ((c = clock_ns(CLOCK_THREAD_CPUTIME_ID)) - c0 < 5000000u);
	uint64_t n = iters * HOLD_NS / (c - c0) + (x == 42);
	return n ? n : 1;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct snap t0, t1, a, b;
	uint64_t x = 0x9e3779b97f4a7c15u + (uint64_t)(uintptr_t)w;

	w->tid = (int)gettid();
	snap_open();
	pthread_barrier_wait(&start);
	snap_take(&t0);
	uint64_t deadline = t0.wall + (uint64_t)duration_ms * 1000000u;
	do {
		snap_take(&a);
		pthread_mutex_lock(&mu); /* SITE:lock */
		snap_take(&b);
		span_add(&w->lock, &a, &b);
		x = hold_work(x, hold_iters);
		pthread_mutex_unlock(&mu);
		w->rounds++;
	} while (clock_ns(CLOCK_MONOTONIC) < deadline);
	snap_take(&t1);
	if (x == 42) /* keep x alive */
		fputc(' ', stderr);
	w->wall = t1.wall - t0.wall;
	w->cpu = t1.cpu - t0.cpu;
	w->runq = t1.runq - t0.runq;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 3) {
		fprintf(stderr, "usage: profile_mutex [NTHREADS [DURATION_MS]]\n");
		return 2;
	}
	long n = argc > 1 ? parse_pos(argv[1], "NTHREADS") : 4;
	duration_ms = argc > 2 ? parse_pos(argv[2], "DURATION_MS") : 2000;
	if (n > 4096) {
		fprintf(stderr, "profile_mutex: at most 4096 threads\n");
		return 2;
	}

	hold_iters = calibrate();
	struct worker *ws = calloc((size_t)n, sizeof *ws);
	if (!ws)
		die("calloc");
	pthread_barrier_init(&start, NULL, (unsigned)n);
	for (long i = 0; i < n; i++) {
		errno = pthread_create(&ws[i].th, NULL, worker_main, &ws[i]);
		if (errno)
			die("pthread_create");
	}
	for (long i = 0; i < n; i++)
		pthread_join(ws[i].th, NULL);

	printf("{\"pid\":%d,\"threads\":[", (int)getpid());
	for (long i = 0; i < n; i++)
		printf("%s{\"tid\":%d,\"wall_ns\":%" PRIu64 ",\"cpu_ns\":%" PRIu64 ",\"runq_ns\":%" PRIu64
		       ",\"lock_wait_ns\":%" PRId64 ",\"lock_blocked_ns\":%" PRId64 ",\"rounds\":%" PRIu64 "}",
		       i ? "," : "", ws[i].tid, ws[i].wall, ws[i].cpu, ws[i].runq,
		       ws[i].lock.wall, ws[i].lock.blocked, ws[i].rounds);
	printf("]}\n");
	free(ws);
	return 0;
}
