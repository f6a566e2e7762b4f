/* futex family: raw futex(2) on a private int: WAKE with no waiters, WAIT
 * with a value mismatch (EAGAIN), WAIT with a 1 ms timeout (ETIMEDOUT), and
 * every other operation in a form that returns at once (value mismatches,
 * no waiters, an uncontended PI lock), with and without FUTEX_PRIVATE_FLAG
 * and FUTEX_CLOCK_REALTIME. Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint32_t word = 1, word2 = 0, pi = 0;

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif

int main(void)
{
	struct timespec one_ms = { 0, 1000000 };

	syscall(SYS_getppid); /* start marker */

	syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0); /* EAGAIN */
	syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, &one_ms, NULL, 0); /* ETIMEDOUT */
	syscall(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0);
	syscall(SYS_futex, &word, 99, 0, NULL, NULL, 0); /* ENOSYS */

	/* the bitset operations: mismatch, no waiters */
	syscall(SYS_futex, &word, FUTEX_WAIT_BITSET_PRIVATE, 0, NULL, NULL, FUTEX_BITSET_MATCH_ANY);
	syscall(SYS_futex, &word, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 0, &one_ms, NULL, 0x5);
	syscall(SYS_futex, &word, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 0, &one_ms, NULL, FUTEX_BITSET_MATCH_ANY);
	syscall(SYS_futex, &word, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 0, &one_ms, NULL, 0);
	syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE | FUTEX_CLOCK_REALTIME, 0, NULL, NULL, 0);
	syscall(SYS_futex, &word, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL, FUTEX_BITSET_MATCH_ANY);
	syscall(SYS_futex, &word, FUTEX_WAKE_BITSET, 2, NULL, NULL, 0x3);
	syscall(SYS_futex, &word, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL, 0); /* EINVAL */
	/* requeue: no waiters; CMP_REQUEUE with a mismatch */
	syscall(SYS_futex, &word, FUTEX_REQUEUE_PRIVATE, 1, (void *)2, &word2, 0);
	syscall(SYS_futex, &word, FUTEX_REQUEUE, 1, (void *)2, &word2, 0);
	syscall(SYS_futex, &word, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)2, &word2, 1);
	syscall(SYS_futex, &word, FUTEX_CMP_REQUEUE, 1, (void *)2, &word2, 7); /* EAGAIN */
	syscall(SYS_futex, &word, FUTEX_CMP_REQUEUE_PI_PRIVATE, 1, (void *)2, &pi, 7); /* EAGAIN */
	/* wake-op: set word2, wake on both */
	syscall(SYS_futex, &word, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &word2,
		FUTEX_OP(FUTEX_OP_SET, 5, FUTEX_OP_CMP_GT, 1));
	syscall(SYS_futex, &word, FUTEX_WAKE_OP, 1, (void *)0, &word2,
		FUTEX_OP((FUTEX_OP_ADD | FUTEX_OP_OPARG_SHIFT), 3, FUTEX_OP_CMP_EQ, 0x7ff));
	syscall(SYS_futex, &word, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &word2, 0x7a00b00c); /* unknown op, cmp */
	/* priority inheritance on an uncontended lock */
	syscall(SYS_futex, &pi, FUTEX_LOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	syscall(SYS_futex, &pi, FUTEX_TRYLOCK_PI_PRIVATE, 0, NULL, NULL, 0); /* EDEADLK */
	syscall(SYS_futex, &pi, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	syscall(SYS_futex, &pi, FUTEX_LOCK_PI2_PRIVATE, 0, &one_ms, NULL, 0);
	syscall(SYS_futex, &pi, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0); /* EPERM: private lock */
	syscall(SYS_futex, &pi, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
	syscall(SYS_futex, &word, FUTEX_WAIT_REQUEUE_PI_PRIVATE, 0, &one_ms, &pi, 0); /* EAGAIN */
	syscall(SYS_futex, &word, FUTEX_WAIT_REQUEUE_PI, 0, NULL, &pi, 0); /* EAGAIN */
	syscall(SYS_futex, &word, FUTEX_FD, 3, NULL, NULL, 0); /* ENOSYS */
	syscall(SYS_futex, &word, FUTEX_WAKE, (int)0x80000000u, NULL, NULL, 0);
	syscall(SYS_futex, &word, 99 | FUTEX_PRIVATE_FLAG, 3, (void *)4, &word2, 5); /* ENOSYS */

	syscall(SYS_getppid); /* end marker */
	return 0;
}
