/*
 * A round copies a buffer many times with the C library's memcpy (its
 * time is in libc, called from one line of this file) and then computes.
 * The buffer stays in the cache: a copy of main memory would be bound by
 * the machine's memory bandwidth, which the compute part changes (the
 * parts' real effects would not add up), and which neighbours share.
 *   libcall COPY_PCT COMPUTE_PCT SECONDS
 * COPY_PCT scales the copies made, COMPUTE_PCT the compute loop (100:
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
	/* 2000 copies of 64 KiB and 2M compute steps a round at 100% */
	size_t full = 64u << 10;
	long copies = 2000L * atol(argv[1]) / 100;
	long n = 2000000L * atol(argv[2]) / 100;
	double secs = atof(argv[3]);
	char *src = malloc(full), *dst = malloc(full + 1);
	if (!src || !dst)
		return 1;
	memset(src, 1, full);
	memset(dst, 2, full);
	double t0 = now();
	while (now() - t0 < secs) {
		for (long k = 0; k < copies; k++) memcpy(dst + (k & 1), src, full - 1); /* the copy line */
		src[rounds % full] = (char)rounds;
		double x = 1.0;
		for (long i = 0; i < n; i++) x = x * 1.0000001 + 1e-9; /* the compute line */
		sink = x + dst[rounds % full];
		round_done();
	}
	printf("%.3f\n", rounds / (now() - t0));
	return 0;
}
