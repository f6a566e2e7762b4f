/* profile_fsync: ground truth for `genba profile` [I] (blocked on I/O).
 *
 * Loop: write 4 KiB + fsync on a real file in DIR, for DURATION_MS of wall time.
 * Usage: profile_fsync [DIR [DURATION_MS]]   (defaults: . and 2000)
 *
 * Prints one JSON object on stdout, all numbers integer nanoseconds or counts:
 *   wall_ns, cpu_ns (CLOCK_THREAD_CPUTIME_ID), runq_ns (run_delay, second field
 *   of /proc/thread-self/schedstat: exactly [S]), fsync_ns (CLOCK_MONOTONIC
 *   around each fsync), fsync_blocked_ns (inside fsync: wall - cpu - runq, the
 *   expected [I]), write_ns and write_blocked_ns (the same for the 4 KiB
 *   writes, which sometimes block too: also [I]), calls.
 *   wall = cpu + runq + fsync_blocked + write_blocked (within ~1%).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
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

static void die(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void snap_open(void) /* per thread */
{
	schedstat_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (schedstat_fd < 0)
		die("open /proc/thread-self/schedstat");
}

static uint64_t run_delay(void)
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
static void snap_take(struct snap *s)
{
	s->cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	s->wall = clock_ns(CLOCK_MONOTONIC);
	s->runq = run_delay();
}

static void snap_begin(struct snap *s)
{
	snap_take(s);
}

static void snap_end(struct snap *s)
{
	snap_take(s);
}

static void span_add(struct span *acc, const struct snap *a, const struct snap *b)
{
	int64_t w = (int64_t)(b->wall - a->wall), c = (int64_t)(b->cpu - a->cpu);
	int64_t r = (int64_t)(b->runq - a->runq);
	acc->wall += w;
	acc->cpu += c;
	acc->runq += r;
	acc->blocked += w - c - r;
}

static long parse_pos(const char *s, const char *what)
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
	if (argc > 3) {
		fprintf(stderr, "usage: profile_fsync [DIR [DURATION_MS]]\n");
		return 2;
	}
	const char *dir = argc > 1 ? argv[1] : ".";
	long ms = argc > 2 ? parse_pos(argv[2], "DURATION_MS") : 2000;
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "profile_fsync: '%s' is not a directory\n", dir);
		return 2;
	}

	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/profile_fsync.XXXXXX", dir);
	int fd = mkstemp(path);
	if (fd < 0)
		die("mkstemp");
	static char buf[4096];
	memset(buf, 'g', sizeof buf);

	snap_open();
	struct snap t0, t1, a, b;
	struct span fs = { 0 }, wr = { 0 };
	uint64_t calls = 0;

	snap_begin(&t0);
	uint64_t deadline = t0.wall + (uint64_t)ms * 1000000u;
	do {
		if (calls % 4096 == 0 && lseek(fd, 0, SEEK_SET) != 0) /* keep the file <= 16 MiB */
			die("lseek");
		snap_begin(&a);
		if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) /* SITE:write */
			die("write");
		snap_end(&b);
		span_add(&wr, &a, &b);
		snap_begin(&a);
		if (fsync(fd) != 0) /* SITE:fsync */
			die("fsync");
		snap_end(&b);
		span_add(&fs, &a, &b);
		calls++;
	} while (clock_ns(CLOCK_MONOTONIC) < deadline);
	snap_end(&t1);

	close(fd);
	unlink(path);

	printf("{\"pid\":%d,\"tid\":%d,\"wall_ns\":%" PRIu64 ",\"cpu_ns\":%" PRIu64
	       ",\"runq_ns\":%" PRIu64 ",\"fsync_ns\":%" PRId64 ",\"fsync_blocked_ns\":%" PRId64
	       ",\"write_ns\":%" PRId64 ",\"write_blocked_ns\":%" PRId64 ",\"calls\":%" PRIu64 "}\n",
	       (int)getpid(), (int)gettid(), t1.wall - t0.wall, t1.cpu - t0.cpu, t1.runq - t0.runq,
	       fs.wall, fs.blocked, wr.wall, wr.blocked, calls);
	return 0;
}
