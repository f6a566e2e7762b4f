/* strings: calls whose strings hold bytes of every kind (printable, C
 * escapes, control, high), for -x, -xx and --strings-in-hex=: chdir to
 * paths that do not exist, and writes to /dev/null.
 * Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	static const char *paths[] = {
		"plain",
		"tab\tnewline\n",
		"ctl\001\002\0037",
		"high\200\377",
		"quote\"back\\",
	};
	int fd = open("/dev/null", O_WRONLY);

	syscall(SYS_getppid); /* start marker */
	for (unsigned i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		syscall(SYS_chdir, paths[i]);
	write(fd, "text only\n", 10);
	write(fd, "bin\0\001\377", 6);
	syscall(SYS_getppid); /* end marker */
	return 0;
}
