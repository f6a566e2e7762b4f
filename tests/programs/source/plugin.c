/* Loaded with dlopen by sites_dl.c: its call must be attributed here, in a
 * library mapped after the program started. */
#include <fcntl.h>
#include <unistd.h>

int plugin_probe(const char *path)
{
	int fd = open(path, O_RDONLY); /* SITE:plugin_open */
	if (fd >= 0)
		close(fd);
	return fd;
}
