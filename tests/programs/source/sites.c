/* Source attribution target: each system call the test looks for is made on
 * a line marked with a SITE:name comment; the test reads the expected
 * file:line from these markers, never from genba's output. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline void say(int fd, const char *s)
{
	write(fd, s, strlen(s)); /* SITE:inline_write */
}

__attribute__((noinline)) static int load_table(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY); /* SITE:open */
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf)); /* SITE:read */
	close(fd); /* SITE:close */
	return (int)n;
}

__attribute__((noinline)) static void via_stdio(const char *path)
{
	FILE *f = fopen(path, "r"); /* SITE:fopen */
	if (!f)
		return;
	char line[128];
	if (fgets(line, sizeof(line), f)) /* SITE:fgets */
		say(1, "");
	fclose(f); /* SITE:fclose */
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/etc/hostname";
	setvbuf(stdout, NULL, _IONBF, 0); /* printf writes at once */
	syscall(SYS_getppid); /* SITE:marker */
	load_table(path);
	via_stdio(path);
	say(1, "done\n");
	printf("%s %d\n", path, argc); /* SITE:printf */
	return 0;
}
