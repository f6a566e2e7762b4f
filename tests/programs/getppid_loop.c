/* getppid_loop [N]: N (default 1000000) getppid system calls, nothing else.
 * The benchmark workload: the cheapest syscall there is, so a tracer's
 * per-call cost dominates. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
