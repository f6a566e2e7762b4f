/* file family: fixed sequence of path and fd syscalls inside the directory
 * argv[1] (must exist and be empty-ish; the program removes what it creates).
 * Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef AT_EACCESS
#define AT_EACCESS 0x200
#endif

int main(int argc, char **argv)
{
	char buf[256], link[64], cwd[4096];
	struct stat st;
	struct statx stx;
	int dfd, fd, fd2;
	ssize_t n;

	if (argc < 2 || chdir(argv[1]) != 0)
		return 2;

	syscall(SYS_getppid); /* start marker */

	fd = openat(AT_FDCWD, "data.txt", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (write(fd, "hello, world\n", 13) != 13)
		return 3;
	lseek(fd, 0, SEEK_SET);
	n = pread(fd, buf, 5, 7);
	if (pwrite(fd, "HELLO", 5, 0) != 5 || n != 5)
		return 4;
	lseek(fd, -3, SEEK_END);
	fstat(fd, &st);
	syscall(SYS_fstat, fd, &st);
	fd2 = creat("created.txt", 0600);
	close(fd2);
	fstatat(AT_FDCWD, "data.txt", &st, 0);
	fstatat(AT_FDCWD, "missing.txt", &st, AT_SYMLINK_NOFOLLOW);
	statx(AT_FDCWD, "data.txt", 0, STATX_BASIC_STATS, &stx);
	access("data.txt", R_OK | W_OK);
	access("missing.txt", F_OK);
	syscall(SYS_faccessat2, AT_FDCWD, "data.txt", R_OK, AT_EACCESS);
	syscall(SYS_faccessat2, AT_FDCWD, "missing.txt", F_OK, 0);
	symlink("data.txt", "link.txt");
	n = readlink("link.txt", link, sizeof(link));
	readlink("data.txt", link, sizeof(link));
	readlinkat(AT_FDCWD, "link.txt", link, sizeof(link));
	rename("created.txt", "renamed.txt");
	rename("created.txt", "renamed.txt");
	mkdir("subdir", 0755);
	mkdir("subdir", 0755);
	truncate("data.txt", 4);
	ftruncate(fd, 2);
	chmod("data.txt", 0600);
	if (!getcwd(cwd, sizeof(cwd)))
		return 5;
	close(syscall(SYS_open, "data.txt", O_RDONLY));
	close(syscall(SYS_open, "created2.txt", O_WRONLY | O_CREAT | O_EXCL, 0600));
	unlink("created2.txt");
	dfd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0)
		;
	close(dfd);
	rmdir("subdir");
	unlink("link.txt");
	unlink("renamed.txt");
	unlink("data.txt");
	unlink("data.txt");
	close(fd);
	close(fd);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
