/* -yy: a connected UNIX socket pair written to, kept open until genba has
 * printed the write (the trace file, argv[1], holds it), so that the socket
 * is still there to be described when genba prints the line. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int sv[2];
	char buf[65536];

	if (argc < 2 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 2;
	if (write(sv[0], "x", 1) != 1)
		return 3;
	for (int i = 0; i < 1000; i++) {
		int fd = open(argv[1], O_RDONLY);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

		if (fd >= 0)
			close(fd);
		if (n > 0) {
			buf[n] = 0;
			if (strstr(buf, "write("))
				return 0;
		}
		usleep(20000);
	}
	return 4;
}
