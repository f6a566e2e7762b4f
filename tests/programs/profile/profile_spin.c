/* profile_spin: ground truth for `genba profile` [S] (runnable, waiting for a CPU)
 * and on-CPU [.] in a known function.
 *
 * N CPU-bound threads (default 2 x online CPUs) spin in `spin_work` for
 * DURATION_MS of wall time each.  With more threads than CPUs each thread
 * waits on a run queue for about (N - CPUs) / N of its wall time.
 * Usage: profile_spin [NTHREADS [DURATION_MS]]   (defaults: 2*nproc and 2000)
 *
 * Prints {"pid":..,"cpus":..,"threads":[{"tid","wall_ns","cpu_ns","runq_ns"},..]}:
 * cpu_ns from CLOCK_THREAD_CPUTIME_ID, runq_ns = run_delay from
 * /proc/thread-self/schedstat (exactly [S]); wall ~= cpu + runq.
 * Thread i is pinned to the (i mod CPUs)-th CPU the process may use, so the
 * load is even (the scheduler alone was seen leaving a 3:1 split on 2 CPUs
 * for a whole second); "cpus" in the output is that CPU count.
 * The loop is burned by iteration count; the clock is read only between chunks
 * of ~50 us, so almost no samples fall in clock_gettime.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "truth.h"

#define CHUNK (1u << 16) /* xorshift iterations between clock reads */

struct worker {
	pthread_t th;
	int tid, pin;
	uint64_t wall, cpu, runq;
};

static long duration_ms;
static pthread_barrier_t start;

__attribute__((noinline, noclone)) uint64_t spin_work(uint64_t x, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17; /* SITE:spin */
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct snap t0, t1;
	uint64_t x = 0x9e3779b97f4a7c15u + (uint64_t)(uintptr_t)w;

	w->tid = (int)gettid();
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(w->pin, &set);
	errno = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	if (errno)
		die("pthread_setaffinity_np");
	snap_open();
	pthread_barrier_wait(&start);
	snap_take(&t0);
	uint64_t deadline = t0.wall + (uint64_t)duration_ms * 1000000u;
	do
		x = spin_work(x, CHUNK);
	while (clock_ns(CLOCK_MONOTONIC) < deadline);
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
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
		die("sched_getaffinity");
	long cpus = CPU_COUNT(&allowed);
	int cpu_ids[CPU_SETSIZE], k = 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			cpu_ids[k++] = c;
	if (argc > 3) {
		fprintf(stderr, "usage: profile_spin [NTHREADS [DURATION_MS]]\n");
		return 2;
	}
	long n = argc > 1 ? parse_pos(argv[1], "NTHREADS") : 2 * cpus;
	duration_ms = argc > 2 ? parse_pos(argv[2], "DURATION_MS") : 2000;
	if (n > 4096) {
		fprintf(stderr, "profile_spin: at most 4096 threads\n");
		return 2;
	}

	struct worker *ws = calloc((size_t)n, sizeof *ws);
	if (!ws)
		die("calloc");
	pthread_barrier_init(&start, NULL, (unsigned)n);
	for (long i = 0; i < n; i++) {
		ws[i].pin = cpu_ids[i % cpus];
		errno = pthread_create(&ws[i].th, NULL, worker_main, &ws[i]);
		if (errno)
			die("pthread_create");
	}
	for (long i = 0; i < n; i++)
		pthread_join(ws[i].th, NULL);

	printf("{\"pid\":%d,\"cpus\":%ld,\"threads\":[", (int)getpid(), cpus);
	for (long i = 0; i < n; i++)
		printf("%s{\"tid\":%d,\"wall_ns\":%" PRIu64 ",\"cpu_ns\":%" PRIu64 ",\"runq_ns\":%" PRIu64 "}",
		       i ? "," : "", ws[i].tid, ws[i].wall, ws[i].cpu, ws[i].runq);
	printf("]}\n");
	free(ws);
	return 0;
}
