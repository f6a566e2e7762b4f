/* getppid_timed [N]: N getppid calls (default 2000000), then the mean time
 * of one loop iteration in ns, measured by the program itself (so a
 * tracer's start-up and teardown are not in it): "ns_per_call 123.4". */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000000;
	struct timespec a, b;

	if (n <= 0)
		n = 1;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	fprintf(stderr, "ns_per_call %.1f\n",
		((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
