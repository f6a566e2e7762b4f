/* truth.h: how every profile_*.c measures its own truth, per thread:
 * wall clock, CLOCK_THREAD_CPUTIME_ID, and the run-queue wait the kernel
 * keeps in /proc/thread-self/schedstat (exactly what genba calls [S]).
 * Include after <errno.h> <fcntl.h> <stdint.h> <stdio.h> <stdlib.h>
 * <string.h> <time.h> <unistd.h>. */
#ifndef PROFILE_TRUTH_H
#define PROFILE_TRUTH_H

struct snap { uint64_t wall, cpu, runq; };
struct span { int64_t wall, cpu, runq, blocked; };

static __thread int schedstat_fd = -1;

static inline void die(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, strerror(errno));
	exit(1);
}

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void snap_open(void) /* per thread */
{
	schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (schedstat_fd < 0)
		die("open /proc/thread-self/schedstat");
}

static inline uint64_t run_delay(void)
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
static inline void snap_take(struct snap *s)
{
	s->cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	s->wall = clock_ns(CLOCK_MONOTONIC);
	s->runq = run_delay();
}

static inline void span_add(struct span *acc, const struct snap *a, const struct snap *b)
{
	int64_t w = (int64_t)(b->wall - a->wall), c = (int64_t)(b->cpu - a->cpu);
	int64_t r = (int64_t)(b->runq - a->runq);
	acc->wall += w;
	acc->cpu += c;
	acc->runq += r;
	acc->blocked += w - c - r;
}

static inline long parse_pos(const char *s, const char *what)
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

#endif
