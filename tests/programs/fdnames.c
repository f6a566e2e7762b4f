/* fdnames family: descriptors as -y names them when the calls that made
 * them are not shown (-e trace= leaves them out): a file whose name holds
 * '<', '>', a quote, a newline and a control byte, then the same file
 * unlinked; anonymous inodes (inotify, eventfd, epoll) and a memfd. Work
 * is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char path[4096];
	int fd, in, ev, ep, mf;

	if (argc < 2)
		return 2;
	snprintf(path, sizeof(path), "%s/a<b>\"c\n\001d", argv[1]);

	syscall(SYS_getppid); /* start marker */

	fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	fsync(fd);
	in = inotify_init1(IN_CLOEXEC);
	ev = eventfd(0, EFD_CLOEXEC);
	ep = epoll_create1(EPOLL_CLOEXEC);
	mf = memfd_create("genba-memfd", MFD_CLOEXEC);
	fsync(mf);
	close(ep);
	close(ev);
	close(in);
	close(mf);
	unlink(path);
	fsync(fd); /* <path>(deleted) */
	close(fd);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
