/* time family: clock_gettime / clock_getres (raw syscalls: the vDSO would
 * otherwise hide them), clock_nanosleep and nanosleep of 1 ms.
 * Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct timespec ts, one_ms = { .tv_sec = 0, .tv_nsec = 1000000 };
	struct timespec bad = { .tv_sec = 0, .tv_nsec = 1000000000 };

	syscall(SYS_getppid); /* start marker */

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	syscall(SYS_clock_gettime, CLOCK_REALTIME, &ts);
	syscall(SYS_clock_getres, CLOCK_MONOTONIC, &ts);
	syscall(SYS_clock_gettime, 12345, &ts); /* EINVAL */
	syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &one_ms, NULL);
	syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &bad, NULL); /* EINVAL */
	syscall(SYS_nanosleep, &one_ms, &ts);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
