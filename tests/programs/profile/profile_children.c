/* profile_children: ground truth for short-lived processes: N children,
 * each computing about MICROS us in `crunch` and exiting, one after the
 * other. Their CPU time comes from the kernel's account of them
 * (getrusage RUSAGE_CHILDREN), so a profiler that loses a thread's last
 * unsampled stretch shows here (each child runs for about one period).
 * Usage: profile_children [N [MICROS]]   (default 200, 1500)
 * Prints one JSON object: pid, children, cpu_ns (all children, user+sys).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "truth.h"

__attribute__((noinline)) static uint64_t crunch(uint64_t x, long n)
{
	for (long i = 0; i < n; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17; /* SITE:child */
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(int argc, char **argv)
{
	if (argc > 3) {
		fprintf(stderr, "usage: profile_children [N [MICROS]]\n");
		return 2;
	}
	long n = argc > 1 ? parse_pos(argv[1], "N") : 200;
	long us = argc > 2 ? parse_pos(argv[2], "MICROS") : 1500;
	/* calibrate: iterations per microsecond of CPU */
	uint64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	uint64_t x = crunch(88172645463325252ULL, 2000000);
	uint64_t c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	long per_us = (long)(2000000.0 * 1000.0 / (double)(c1 - c0 + 1));
	for (long i = 0; i < n; i++) {
		pid_t p = fork();
		if (p < 0)
			die("fork");
		if (p == 0)
			_exit((int)(crunch(x + (uint64_t)i, per_us * us) & 1));
		if (waitpid(p, NULL, 0) != p)
			die("waitpid");
	}
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	uint64_t cpu = ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
		       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
	printf("{\"pid\":%d,\"children\":%ld,\"cpu_ns\":%" PRIu64 "}\n", (int)getpid(), n, cpu);
	return 0;
}
