/* process family: fork + wait4, kill(pid, 0), getpid/getppid, prlimit64,
 * getrandom. SIGCHLD is blocked so its delivery cannot race with wait4.
 * Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	sigset_t set;
	struct rlimit rl;
	char rnd[8];
	int status;
	pid_t child;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);

	syscall(SYS_getppid); /* start marker */

	syscall(SYS_getpid);
	prlimit(0, RLIMIT_NOFILE, NULL, &rl);
	prlimit(0, RLIMIT_CORE, NULL, &rl);
	prlimit(0, RLIMIT_CORE, &rl, NULL);
	prlimit(999999999, RLIMIT_NOFILE, NULL, &rl); /* ESRCH */
	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != sizeof(rnd))
		return 2;

	child = fork();
	if (child == 0) {
		syscall(SYS_getpid);
		syscall(SYS_getppid);
		_exit(3);
	}
	if (child < 0)
		return 3;
	kill(child, 0);
	if (wait4(child, &status, 0, NULL) != child)
		return 4;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 3)
		return 5;
	kill(child, 0);                          /* ESRCH: reaped */
	wait4(-1, &status, WNOHANG, NULL);       /* ECHILD */

	syscall(SYS_getppid); /* end marker */
	return 0;
}
