/* profile_sleep: ground truth for `genba profile` [B] (other blocking).
 *
 * Alternates nanosleep(1 ms) and poll(NULL, 0, 1) for DURATION_MS of wall time.
 * Usage: profile_sleep [DURATION_MS]   (default 2000)
 *
 * Prints one JSON object: pid, tid, wall_ns, cpu_ns (CLOCK_THREAD_CPUTIME_ID),
 * runq_ns (run_delay from /proc/thread-self/schedstat, exactly [S]), sleep_ns
 * (CLOCK_MONOTONIC around each of the two calls), sleep_blocked_ns (inside the
 * calls: wall - cpu - runq, the expected [B]), calls.
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

/* ---- truth measurement (same in every profile_*.c) ---- */
struct snap { uint64_t wall, cpu, runq; };
struct span { int64_t wall, cpu, runq, blocked; };

static __thread int schedstat_fd = -1;

static __attribute__((unused)) void die(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, strerror(errno));
	exit(1);
}

static __attribute__((unused)) uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static __attribute__((unused)) void snap_open(void) /* per thread */
{
	schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (schedstat_fd < 0)
		die("open /proc/thread-self/schedstat");
}

static __attribute__((unused)) uint64_t run_delay(void)
{
	char buf[128];
	unsigned long long on_cpu, delay;
	ssize_t n = pread(schedstat_fd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		die("read /proc/thread-self/schedstat");
	buf[n] = 0;
	if (sscanf(buf, "%llu %llu", &on_cpu, &delay) != 2) {
		fprintf(stderr, "cannot parse schedstat '%s'\n", buf);
		exit(1);
	}
	return delay;
}

/* One read order at both ends (cpu, wall, run_delay), so the three windows are
 * the same interval, shifted alike.  The wall clock (vDSO, no syscall) is read
 * right before run_delay with no syscall between: a preemption at the return
 * of any syscall here is on the same side of both reads, so each run-queue
 * wait falls in the same window for wall and runq.  (Reading runq, cpu, wall
 * at the start and wall, cpu, runq at the end misplaced ~9% of wall in the
 * mutex test and ~1.3 us of CPU per call in the fsync test.) */
static __attribute__((unused)) void snap_take(struct snap *s)
{
	s->cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	s->wall = clock_ns(CLOCK_MONOTONIC);
	s->runq = run_delay();
}

static __attribute__((unused)) void snap_begin(struct snap *s)
{
	snap_take(s);
}

static __attribute__((unused)) void snap_end(struct snap *s)
{
	snap_take(s);
}

static __attribute__((unused)) void span_add(struct span *acc, const struct snap *a, const struct snap *b)
{
	int64_t w = (int64_t)(b->wall - a->wall), c = (int64_t)(b->cpu - a->cpu);
	int64_t r = (int64_t)(b->runq - a->runq);
	acc->wall += w;
	acc->cpu += c;
	acc->runq += r;
	acc->blocked += w - c - r;
}

static __attribute__((unused)) long parse_pos(const char *s, const char *what)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0) {
		fprintf(stderr, "bad %s '%s' (want a positive integer)\n", what, s);
		exit(2);
	}
	return v;
}
/* ---- end of truth measurement ---- */

int main(int argc, char **argv)
{
	if (argc > 2) {
		fprintf(stderr, "usage: profile_sleep [DURATION_MS]\n");
		return 2;
	}
	long ms = argc > 1 ? parse_pos(argv[1], "DURATION_MS") : 2000;
	const struct timespec one_ms = { 0, 1000000 };
	struct snap t0, t1, a, b;
	struct span sl = { 0 };
	uint64_t calls = 0;

	snap_open();
	snap_begin(&t0);
	uint64_t deadline = t0.wall + (uint64_t)ms * 1000000u;
	do {
		snap_begin(&a);
		if (calls % 2 == 0)
			nanosleep(&one_ms, NULL); /* SITE:nanosleep */
		else
			poll(NULL, 0, 1); /* SITE:poll */
		snap_end(&b);
		span_add(&sl, &a, &b);
		calls++;
	} while (clock_ns(CLOCK_MONOTONIC) < deadline);
	snap_end(&t1);

	printf("{\"pid\":%d,\"tid\":%d,\"wall_ns\":%" PRIu64 ",\"cpu_ns\":%" PRIu64
	       ",\"runq_ns\":%" PRIu64 ",\"sleep_ns\":%" PRId64 ",\"sleep_blocked_ns\":%" PRId64
	       ",\"calls\":%" PRIu64 "}\n",
	       (int)getpid(), (int)gettid(), t1.wall - t0.wall, t1.cpu - t0.cpu, t1.runq - t0.runq,
	       sl.wall, sl.blocked, calls);
	return 0;
}
