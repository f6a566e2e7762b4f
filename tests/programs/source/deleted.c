/* Deletes its own executable, waits a second (time for a tracer to
 * attach with -p), then makes calls whose sites must still be found: the
 * binary is read through what the process has mapped. It stays alive a
 * moment after, as a long-running program rebuilt under its feet would. */
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

static int open_it(const char *path)
{
	return open(path, O_RDONLY); /* SITE: open */
}

int main(int argc, char **argv)
{
	char b[16];
	int fd;

	if (argc < 2 || unlink(argv[0]) != 0)
		return 2;
	nanosleep(&(struct timespec){ .tv_sec = 1 }, NULL);
	fd = open_it(argv[1]);
	if (fd < 0 || read(fd, b, sizeof b) < 0) /* SITE: read */
		return 1;
	nanosleep(&(struct timespec){ .tv_nsec = 300000000 }, NULL);
	return 0;
}
