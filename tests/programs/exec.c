/* exec: execve of string literals from forked children, the way programs
 * start other programs. After fork the child's page tables lack the
 * program's read-only data until it touches it, so the path and argv are
 * not readable from BPF at the execve's entry, and after a successful exec
 * the old memory is gone. Also posix_spawn of literals and an execve of a
 * literal path that fails. Work is bracketed by syscall(SYS_getppid)
 * markers. Argument: how many fork + execve rounds (default 20). */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	int status;
	pid_t pid;

	syscall(SYS_getppid); /* start marker */

	for (int i = 0; i < rounds; i++) {
		pid = fork();
		if (pid == 0) {
			char *args[] = { "/bin/true", "literal-arg", NULL };
			execve("/bin/true", args, environ);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0)
			return 2;
	}

	char *spawn_args[] = { "/bin/true", "spawned", NULL };
	if (posix_spawn(&pid, "/bin/true", NULL, NULL, spawn_args, environ) != 0)
		return 3;
	if (waitpid(pid, &status, 0) != pid || status != 0)
		return 4;

	pid = fork();
	if (pid == 0) {
		char *args[] = { "/nonexistent/genba-exec", "x", NULL };
		execve("/nonexistent/genba-exec", args, environ);
		_exit(7);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 7)
		return 5;

	syscall(SYS_getppid); /* end marker */
	return 0;
}
