/* signal family: rt_sigaction, rt_sigprocmask, sigaltstack, a SIGUSR1 sent
 * to self and handled (on the alternate stack), rt_sigreturn.
 * Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t got;
static char altstack[65536];

static void handler(int sig)
{
	got = sig;
	write(-1, "x", 1); /* EBADF, from inside the handler */
}

int main(void)
{
	struct sigaction sa, old;
	sigset_t set, oldset;
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack), .ss_flags = 0 };

	syscall(SYS_getppid); /* start marker */

	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaction(SIGUSR1, &sa, &old);
	sigaction(SIGUSR2, NULL, &old);
	sigaction(SIGKILL, &sa, NULL); /* EINVAL */

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &oldset);
	kill(getpid(), SIGUSR1); /* stays pending while blocked */
	sigprocmask(SIG_UNBLOCK, &set, NULL); /* delivered here */
	if (got != SIGUSR1)
		return 2;
	got = 0;
	kill(getpid(), SIGUSR1); /* delivered right away */
	if (got != SIGUSR1)
		return 3;
	kill(getpid(), 0);

	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	sigaction(SIGUSR1, &sa, NULL);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
