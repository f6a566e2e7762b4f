/* desc family: pipes, dup*, fcntl, vectored I/O, ioctl on a non-tty.
 * Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <termios.h>
#include <unistd.h>

int main(void)
{
	int p[2], a, b, c, d, fl;
	char x[4], y[8];
	struct iovec wv[2] = { { "abc", 3 }, { "defgh", 5 } };
	struct iovec rv[2] = { { x, sizeof(x) }, { y, sizeof(y) } };
	struct termios t;

	syscall(SYS_getppid); /* start marker */

	if (pipe2(p, O_CLOEXEC) != 0)
		return 2;
	a = dup(p[1]);
	b = dup2(p[0], 10);
	c = dup3(p[1], 11, O_CLOEXEC);
	dup3(p[1], p[1], 0); /* EINVAL */
	dup(-1);             /* EBADF */
	fl = fcntl(p[0], F_GETFL);
	fcntl(p[0], F_SETFL, fl | O_NONBLOCK);
	fcntl(p[0], F_GETFL);
	fcntl(a, F_GETFD);
	fcntl(a, F_SETFD, FD_CLOEXEC);
	fcntl(a, F_GETFD);
	d = fcntl(a, F_DUPFD_CLOEXEC, 20);
	if (writev(c, wv, 2) != 8)
		return 3;
	if (readv(b, rv, 2) != 8)
		return 4;
	read(p[0], x, sizeof(x)); /* EAGAIN: empty non-blocking pipe */
	write(a, "z", 1);
	read(p[0], x, sizeof(x));
	ioctl(p[0], TCGETS, &t); /* ENOTTY */
	ioctl(p[0], TCFLSH, TCIFLUSH); /* ENOTTY, the argument named */
	ioctl(p[0], TCXONC, TCOOFF);   /* ENOTTY */
	wv[0].iov_base = NULL;         /* iov_base=NULL */
	wv[0].iov_len = 0;
	writev(c, wv, 2);
	read(p[0], y, sizeof(y));
	close(d);
	close(c);
	close(b);
	close(a);
	close(p[0]);
	close(p[1]);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
