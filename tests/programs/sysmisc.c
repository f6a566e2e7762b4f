/* system-information family: uname, sysinfo, getrusage, getgroups, statfs,
 * fstatfs, utimensat, the xattr calls on a file in argv[1], and wait4 with an rusage.
 * Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char path[4096], v[64], list[128];
	struct utsname u;
	struct sysinfo si;
	struct rusage ru;
	struct statfs sf;
	gid_t g[8];
	int fd, st;
	pid_t p;

	if (argc < 2)
		return 2;
	snprintf(path, sizeof(path), "%s/x.txt", argv[1]);

	syscall(SYS_getppid); /* start marker */

	uname(&u);
	sysinfo(&si);
	getrusage(RUSAGE_SELF, &ru);
	getgroups(0, NULL);
	getgroups(8, g);
	statfs(argv[1], &sf);
	statfs("/no/such/dir", &sf); /* ENOENT */
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	fstatfs(fd, &sf);
	{
		struct timespec t[2] = { { 1700000000, 0 }, { 0, UTIME_NOW } };
		utimensat(AT_FDCWD, path, t, 0);
		syscall(SYS_utimensat, fd, NULL, NULL, 0); /* futimens(fd, NULL) */
	}
	fsetxattr(fd, "user.genba", "hello", 5, 0);
	getxattr(path, "user.genba", v, sizeof(v));
	getxattr(path, "user.genba", NULL, 0);
	lgetxattr(path, "user.none", v, sizeof(v)); /* ENODATA */
	listxattr(path, list, sizeof(list));
	removexattr(path, "user.genba");
	close(fd);
	unlink(path);
	p = fork();
	if (p == 0) {
		/* exit only once the parent is surely blocked in wait4, so its
		 * SIGCHLD comes after wait4 under strace and genba alike (exiting
		 * at once raced the parent's wait4 entry); no syscalls in here */
		for (volatile long i = 0; i < 30000000; i++)
			;
		_exit(3);
	}
	wait4(p, &st, 0, &ru);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
