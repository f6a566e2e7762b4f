/*
 * A round copies a buffer with the C library's memcpy (its time is in
 * libc, called from one line of this file) and then computes.
 *   libcall COPY_PCT COMPUTE_PCT SECONDS
 * COPY_PCT scales the bytes copied, COMPUTE_PCT the compute loop (100:
 * full; 50: the part really twice as fast). round_done() is the progress
 * point. Prints rounds per second on stdout.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile double sink;
static volatile unsigned long rounds;

__attribute__((noinline)) void round_done(void)
{
	rounds++;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	/* ~32 MB copied and ~3 ms of compute a round at 100% */
	size_t full = 32u << 20;
	size_t bytes = full * (size_t)atol(argv[1]) / 100;
	long n = 2000000L * atol(argv[2]) / 100;
	double secs = atof(argv[3]);
	char *src = malloc(full), *dst = malloc(full);
	if (!src || !dst)
		return 1;
	memset(src, 1, full);
	memset(dst, 2, full);
	double t0 = now();
	while (now() - t0 < secs) {
		memcpy(dst, src, bytes); /* the copy line */
		src[rounds % full] = (char)rounds;
		double x = 1.0;
		for (long i = 0; i < n; i++) x = x * 1.0000001 + 1e-9; /* the compute line */
		sink = x + dst[rounds % full];
		round_done();
	}
	printf("%.3f\n", rounds / (now() - t0));
	return 0;
}
