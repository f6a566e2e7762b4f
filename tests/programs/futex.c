/* futex family: raw futex(2) on a private int: WAKE with no waiters, WAIT
 * with a value mismatch (EAGAIN), WAIT with a 1 ms timeout (ETIMEDOUT).
 * Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint32_t word = 1;

int main(void)
{
	struct timespec one_ms = { 0, 1000000 };

	syscall(SYS_getppid); /* start marker */

	syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0); /* EAGAIN */
	syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, &one_ms, NULL, 0); /* ETIMEDOUT */
	syscall(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0);
	syscall(SYS_futex, &word, 99, 0, NULL, NULL, 0); /* ENOSYS */

	syscall(SYS_getppid); /* end marker */
	return 0;
}
