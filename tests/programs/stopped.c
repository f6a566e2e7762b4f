/* stopped: a child stops itself with SIGSTOP, then with SIGTSTP (no
 * handler: both stop it); its parent waits for each stop and continues it. */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	int st;
	pid_t p = fork();

	if (p < 0)
		return 1;
	if (p == 0) {
		raise(SIGSTOP);
		raise(SIGTSTP);
		_exit(0);
	}
	for (int i = 0; i < 2; i++) {
		if (waitpid(p, &st, WUNTRACED) != p || !WIFSTOPPED(st))
			return 1;
		kill(p, SIGCONT);
	}
	return waitpid(p, &st, 0) == p && WIFEXITED(st) ? 0 : 1;
}
