/* profile_mixed: ground truth for `genba profile` with all classes on one thread.
 *
 * The main thread repeats a 100 ms cycle, each part in its own noinline function:
 *   compute    40 ms of CPU (iteration count, re-calibrated every cycle)  [.]
 *   flush_log  30 ms of write 4 KiB + fsync on a file in DIR               [I]
 *   take_lock  ~20 ms waiting on a mutex a helper thread holds for 20 ms   [L]
 *   nap        nanosleep 10 ms                                             [B]
 * Whole cycles run until DURATION_MS of wall time has passed.
 * Usage: profile_mixed [DURATION_MS [DIR]]   (defaults: 3000 and .)
 *
 * Prints one JSON object for the main thread: pid, tid, wall_ns, cpu_ns
 * (CLOCK_THREAD_CPUTIME_ID), runq_ns (run_delay from /proc/thread-self/schedstat,
 * exactly [S]); time inside the calls (CLOCK_MONOTONIC around each): compute_ns,
 * fsync_ns, lock_wait_ns (pthread_mutex_lock), sleep_ns (nanosleep); and the
 * blocked part of each (wall - cpu - runq inside the calls): fsync_blocked_ns,
 * lock_blocked_ns, sleep_blocked_ns; cycles.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "truth.h"

#define MS 1000000u

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static sem_t held, go, done;
static volatile int stop;

static struct span compute_sp, fsync_sp, lock_sp, sleep_sp;

/* helper: holds the mutex whenever the main thread is not in take_lock; on
 * `go` it keeps it 20 ms more, releases it, and re-takes it after `done`. */
static void *helper_main(void *arg)
{
	const struct timespec slice = { 0, 20 * MS };
	(void)arg;
	pthread_mutex_lock(&mu);
	sem_post(&held);
	for (;;) {
		while (sem_wait(&go) != 0)
			;
		if (stop)
			break;
		nanosleep(&slice, NULL);
		pthread_mutex_unlock(&mu);
		while (sem_wait(&done) != 0)
			;
		pthread_mutex_lock(&mu);
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

__attribute__((noinline, noclone)) uint64_t compute(uint64_t x, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17; /* SITE:compute */
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline, noclone)) void flush_log(int fd, uint64_t *writes)
{
	static char buf[4096] = { 'g' };
	struct snap a, b;
	uint64_t end = clock_ns(CLOCK_MONOTONIC) + 30 * MS;
	do {
		if (*writes % 4096 == 0 && lseek(fd, 0, SEEK_SET) != 0) /* file <= 16 MiB */
			die("lseek");
		if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
			die("write");
		(*writes)++;
		snap_take(&a);
		if (fsync(fd) != 0) /* SITE:fsync */
			die("fsync");
		snap_take(&b);
		span_add(&fsync_sp, &a, &b);
	} while (clock_ns(CLOCK_MONOTONIC) < end);
}

__attribute__((noinline, noclone)) void take_lock(void)
{
	struct snap a, b;
	sem_post(&go);
	snap_take(&a);
	pthread_mutex_lock(&mu); /* SITE:lock */
	snap_take(&b);
	span_add(&lock_sp, &a, &b);
	pthread_mutex_unlock(&mu);
	sem_post(&done);
}

__attribute__((noinline, noclone)) void nap(void)
{
	const struct timespec ten_ms = { 0, 10 * MS };
	struct snap a, b;
	snap_take(&a);
	nanosleep(&ten_ms, NULL); /* SITE:sleep */
	snap_take(&b);
	span_add(&sleep_sp, &a, &b);
}

int main(int argc, char **argv)
{
	if (argc > 3) {
		fprintf(stderr, "usage: profile_mixed [DURATION_MS [DIR]]\n");
		return 2;
	}
	long ms = argc > 1 ? parse_pos(argv[1], "DURATION_MS") : 3000;
	const char *dir = argc > 2 ? argv[2] : ".";
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "profile_mixed: '%s' is not a directory\n", dir);
		return 2;
	}
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/profile_mixed.XXXXXX", dir);
	int fd = mkstemp(path);
	if (fd < 0)
		die("mkstemp");

	pthread_t helper;
	sem_init(&held, 0, 0);
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	errno = pthread_create(&helper, NULL, helper_main, NULL);
	if (errno)
		die("pthread_create");
	while (sem_wait(&held) != 0)
		;

	snap_open();
	struct snap t0, t1, a, b;
	uint64_t x = 0x9e3779b97f4a7c15u, iters = 1000000, cycles = 0, writes = 0;
	{ /* first guess at the rate: ~1 ms of compute before the measured run */
		uint64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		x = compute(x, iters);
		uint64_t c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		if (c1 > c0)
			iters = (uint64_t)((double)iters * (40.0 * MS) / (double)(c1 - c0)) + 1;
	}
	snap_take(&t0);
	uint64_t deadline = t0.wall + (uint64_t)ms * MS;
	do {
		snap_take(&a);
		x = compute(x, iters);
		snap_take(&b);
		span_add(&compute_sp, &a, &b);
		/* next cycle: 40 ms of CPU at the rate just measured */
		if (b.cpu > a.cpu)
			iters = (uint64_t)((double)iters * (40.0 * MS) / (double)(b.cpu - a.cpu)) + 1;
		flush_log(fd, &writes);
		take_lock();
		nap();
		cycles++;
	} while (clock_ns(CLOCK_MONOTONIC) < deadline);
	snap_take(&t1);

	stop = 1;
	sem_post(&go);
	pthread_join(helper, NULL);
	close(fd);
	unlink(path);
	if (x == 42) /* keep x alive */
		fputc(' ', stderr);

	printf("{\"pid\":%d,\"tid\":%d,\"wall_ns\":%" PRIu64 ",\"cpu_ns\":%" PRIu64 ",\"runq_ns\":%" PRIu64
	       ",\"compute_ns\":%" PRId64 ",\"fsync_ns\":%" PRId64 ",\"lock_wait_ns\":%" PRId64
	       ",\"sleep_ns\":%" PRId64 ",\"fsync_blocked_ns\":%" PRId64 ",\"lock_blocked_ns\":%" PRId64
	       ",\"sleep_blocked_ns\":%" PRId64 ",\"cycles\":%" PRIu64 "}\n",
	       (int)getpid(), (int)gettid(), t1.wall - t0.wall, t1.cpu - t0.cpu, t1.runq - t0.runq,
	       compute_sp.wall, fsync_sp.wall, lock_sp.wall, sleep_sp.wall,
	       fsync_sp.blocked, lock_sp.blocked, sleep_sp.blocked, cycles);
	return 0;
}
