/* stopped: a child stops itself with SIGSTOP, then with SIGTSTP (no
 * handler: both stop it); its parent waits for each stop and continues it.
 * Then the child sleeps and its parent stops and continues it in the
 * sleep: the kernel resumes the sleep with restart_syscall. The child has
 * a process group of its own, which is not orphaned (its parent is in
 * another group of the session): the kernel would discard SIGTSTP in an
 * orphaned group, as a test run from a session leader's shell has. */
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	int st, fds[2];
	pid_t p;

	if (pipe(fds))
		return 1;
	p = fork();
	if (p < 0)
		return 1;
	if (p == 0) {
		struct timespec ts = { 2, 0 };

		setpgid(0, 0);
		raise(SIGSTOP);
		raise(SIGTSTP);
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, NULL);
		_exit(0);
	}
	for (int i = 0; i < 2; i++) {
		if (waitpid(p, &st, WUNTRACED) != p || !WIFSTOPPED(st))
			return 1;
		kill(p, SIGCONT);
	}
	{
		char c;
		struct timespec ts = { 0, 300 * 1000 * 1000 };

		/* the child is in its sleep (it wrote just before) */
		if (read(fds[0], &c, 1) != 1)
			return 1;
		nanosleep(&ts, NULL);
		kill(p, SIGSTOP);
		if (waitpid(p, &st, WUNTRACED) != p || !WIFSTOPPED(st))
			return 1;
		kill(p, SIGCONT);
	}
	return waitpid(p, &st, 0) == p && WIFEXITED(st) ? 0 : 1;
}
