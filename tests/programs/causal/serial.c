/*
 * A serial program for genba causal: each round computes, then waits.
 *   serial COMPUTE_PCT WAIT_PCT SECONDS [fsync|sleep]
 * (SECONDS ending in 'r', as "40r": that many rounds, a fixed amount of
 * work, however long it takes)
 * COMPUTE_PCT and WAIT_PCT scale the two parts (100: full; 50: the part
 * really twice as fast), so a real speedup of either can be measured
 * against genba's prediction. The wait is an fsync of a small write (an
 * [I] wait) or a nanosleep (a [B] wait). Each round ends in round_done(),
 * the progress point (or the line calling it, or one_round()'s latency, or
 * the mark GENBA_PROGRESS(rounds)).
 * Prints rounds per second on stdout.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <genba/progress.h>

static volatile double sink;
static volatile unsigned long rounds;

__attribute__((noinline)) void round_done(void)
{
	rounds++;
}

__attribute__((noinline)) static void compute(long n)
{
	double x = 1.0;
	for (long i = 0; i < n; i++) x = x * 1.0000001 + 1e-9; /* the compute line */
	sink = x;
}

/* One round: its time, entry to return, is a latency progress point. */
__attribute__((noinline)) static int one_round(long n, int fd, long wpct, long wait_ns,
					       const char *buf)
{
	compute(n); /* the compute call */
	if (fd >= 0) {
		for (long k = 0; k < wpct / 25; k++) {
			if (pwrite(fd, buf, 4096, 0) < 0 || fsync(fd)) /* the fsync line */
				return 1;
		}
	} else if (wait_ns) {
		struct timespec d = { 0, wait_ns };
		nanosleep(&d, NULL); /* the wait line */
	}
	return 0;
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
	long cpct = atol(argv[1]), wpct = atol(argv[2]);
	double secs = atof(argv[3]);
	long fixed = argv[3][strlen(argv[3]) - 1] == 'r' ? atol(argv[3]) : -1;
	int use_fsync = argc > 4 && !strcmp(argv[4], "fsync");
	/* ~6 ms of compute and ~4 ms of waiting a round at 100% */
	long n = 6000000L * cpct / 100;
	long wait_ns = 4000000L * wpct / 100;
	int fd = -1;
	char buf[4096];
	memset(buf, 'x', sizeof buf);
	if (use_fsync) {
		fd = open("serial.data", O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0)
			return 1;
	}
	double t0 = now();
	while (fixed >= 0 ? (long)rounds < fixed : now() - t0 < secs) {
		if (one_round(n, fd, wpct, wait_ns, buf))
			return 1;
		round_done(); /* the round line */
		GENBA_PROGRESS(rounds);
	}
	printf("%.3f\n", rounds / (now() - t0));
	if (fd >= 0)
		unlink("serial.data");
	return 0;
}
