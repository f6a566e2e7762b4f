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

#include "truth.h"

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
	snap_take(&t0);
	uint64_t deadline = t0.wall + (uint64_t)ms * 1000000u;
	do {
		snap_take(&a);
		if (calls % 2 == 0)
			nanosleep(&one_ms, NULL); /* SITE:nanosleep */
		else
			poll(NULL, 0, 1); /* SITE:poll */
		snap_take(&b);
		span_add(&sl, &a, &b);
		calls++;
	} while (clock_ns(CLOCK_MONOTONIC) < deadline);
	snap_take(&t1);

	printf("{\"pid\":%d,\"tid\":%d,\"wall_ns\":%" PRIu64 ",\"cpu_ns\":%" PRIu64
	       ",\"runq_ns\":%" PRIu64 ",\"sleep_ns\":%" PRId64 ",\"sleep_blocked_ns\":%" PRId64
	       ",\"calls\":%" PRIu64 "}\n",
	       (int)getpid(), (int)gettid(), t1.wall - t0.wall, t1.cpu - t0.cpu, t1.runq - t0.runq,
	       sl.wall, sl.blocked, calls);
	return 0;
}
