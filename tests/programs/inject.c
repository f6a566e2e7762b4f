/* inject: calls the tests answer with -e inject= and -e fault= (the test
 * gives the options to genba and to strace alike): chdir four times (an
 * error injected into the 2nd and 4th), getpid (a return value), uname (a
 * return value: the call does not run, its buffer stays as given), getuid
 * (a signal sent as it enters), sched_yield (delayed), umask (-e fault=),
 * getgid (--fault= with an error).
 * Exits non-zero if an injected result did not reach the program.
 * Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void handler(int sig)
{
	got = sig;
}

int main(void)
{
	struct utsname u;
	int fails = 0;

	signal(SIGUSR1, handler);
	syscall(SYS_getppid); /* start marker */

	for (int i = 1; i <= 4; i++) {
		long r = syscall(SYS_chdir, ".");
		if ((i % 2 == 0) != (r == -1 && errno == ENOENT))
			fails |= 1;
	}
	if (syscall(SYS_getpid) != 42)
		fails |= 2;
	memset(&u, 0, sizeof(u));
	strcpy(u.sysname, "untouched");
	if (syscall(SYS_uname, &u) != 0 || strcmp(u.sysname, "untouched"))
		fails |= 4;
	syscall(SYS_getuid);
	if (got != SIGUSR1)
		fails |= 8;
	syscall(SYS_sched_yield);
	if (syscall(SYS_umask, 022) != -1 || errno != ENOSYS)
		fails |= 16;
	if (syscall(SYS_getgid) != -1 || errno != EPERM)
		fails |= 32;

	syscall(SYS_getppid); /* end marker */
	return fails;
}
