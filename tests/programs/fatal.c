/* fatal: dies of a signal with its default action, as the argument says:
 * "pipe" writes to a pipe with no reader (SIGPIPE from the kernel), "term"
 * sends itself SIGTERM with kill, "abort" calls abort() (SIGABRT, which
 * dumps core by default). Nothing handles or blocks the signal, so the
 * kernel kills the process at once rather than delivering the signal.
 * Two syscall(SYS_getppid) markers and a getpid come before the fatal
 * action. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "pipe";
	int p[2];

	syscall(SYS_getppid); /* start marker */
	syscall(SYS_getppid);
	syscall(SYS_getpid); /* tells the trace harness the pid si_pid shows */
	if (!strcmp(how, "pipe")) {
		if (pipe(p))
			return 2;
		close(p[0]);
		write(p[1], "x", 1);
	} else if (!strcmp(how, "term")) {
		kill(getpid(), SIGTERM);
	} else if (!strcmp(how, "abort")) {
		abort();
	}
	return 1;
}
