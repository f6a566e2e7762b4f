/* profile_compute: ground truth for on-CPU samples: a fixed amount of pure
 * computation in one named function, no system calls inside the loop.
 *
 * Usage: profile_compute [MILLION_ITERATIONS]   (default 300)
 * Prints one JSON object: pid, tid, wall_ns, cpu_ns, runq_ns, result.
 * Fixed work (not fixed time), so benchmarks can compare run times.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "truth.h"

__attribute__((noinline)) static uint64_t crunch(uint64_t x, long n)
{
	for (long i = 0; i < n; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17; /* SITE:crunch */
	}
	return x;
}

int main(int argc, char **argv)
{
	if (argc > 2) {
		fprintf(stderr, "usage: profile_compute [MILLION_ITERATIONS]\n");
		return 2;
	}
	long m = argc > 1 ? parse_pos(argv[1], "MILLION_ITERATIONS") : 300;
	struct snap t0, t1;
	uint64_t x = 88172645463325252ULL;

	snap_open();
	snap_take(&t0);
	for (long i = 0; i < m; i++)
		x = crunch(x, 1000000);
	snap_take(&t1);
	printf("{\"pid\":%d,\"tid\":%d,\"wall_ns\":%" PRIu64 ",\"cpu_ns\":%" PRIu64
	       ",\"runq_ns\":%" PRIu64 ",\"result\":%" PRIu64 "}\n",
	       (int)getpid(), (int)gettid(), t1.wall - t0.wall, t1.cpu - t0.cpu, t1.runq - t0.runq,
	       x);
	return 0;
}
