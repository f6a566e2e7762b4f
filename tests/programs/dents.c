/* dents family: getdents64 on the directory named by argv[1] (the test
 * fills it with a few thousand long names): glibc's 32 KiB buffer until the
 * end, then, unless argv[2] is "small", the whole directory again in one
 * call with a 512 KiB buffer (more than a trace record holds). Work is
 * bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char small[32768];
	char *big;
	int fd;

	if (argc < 2)
		return 2;
	fd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	big = malloc(512 * 1024);
	if (fd < 0 || !big)
		return 3;

	syscall(SYS_getppid); /* start marker */

	while (syscall(SYS_getdents64, fd, small, sizeof(small)) > 0)
		;
	if (argc < 3 || strcmp(argv[2], "small") != 0) {
		lseek(fd, 0, SEEK_SET);
		syscall(SYS_getdents64, fd, big, 512 * 1024);
	}
	syscall(SYS_getdents64, -1, small, sizeof(small)); /* EBADF */
	close(fd);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
