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

#include "truth.h"

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

	snap_take(&t0);
	uint64_t deadline = t0.wall + (uint64_t)ms * 1000000u;
	do {
		if (calls % 4096 == 0 && lseek(fd, 0, SEEK_SET) != 0) /* keep the file <= 16 MiB */
			die("lseek");
		snap_take(&a);
		if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) /* SITE:write */
			die("write");
		snap_take(&b);
		span_add(&wr, &a, &b);
		snap_take(&a);
		if (fsync(fd) != 0) /* SITE:fsync */
			die("fsync");
		snap_take(&b);
		span_add(&fs, &a, &b);
		calls++;
	} while (clock_ns(CLOCK_MONOTONIC) < deadline);
	snap_take(&t1);

	close(fd);
	unlink(path);

	printf("{\"pid\":%d,\"tid\":%d,\"wall_ns\":%" PRIu64 ",\"cpu_ns\":%" PRIu64
	       ",\"runq_ns\":%" PRIu64 ",\"fsync_ns\":%" PRId64 ",\"fsync_blocked_ns\":%" PRId64
	       ",\"write_ns\":%" PRId64 ",\"write_blocked_ns\":%" PRId64 ",\"calls\":%" PRIu64 "}\n",
	       (int)getpid(), (int)gettid(), t1.wall - t0.wall, t1.cpu - t0.cpu, t1.runq - t0.runq,
	       fs.wall, fs.blocked, wr.wall, wr.blocked, calls);
	return 0;
}
