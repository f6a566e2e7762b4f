/* -P (--trace-path) against strace: calls that reach /dev/full by name or
 * by a descriptor (opened here, or inherited as fd 9 when the test opens
 * it), in the argument strace looks at for each kind of call, and calls on
 * other paths and descriptors that must not show. `pathtrace DIR`: DIR, a
 * scratch directory, holds a symlink to /dev/full (a path that resolves
 * into the traced one). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char link[4096];
	struct stat st;
	int full, null;
	if (argc < 2)
		return 2;
	snprintf(link, sizeof(link), "%s/full-link", argv[1]);
	symlink("/dev/full", link);
	full = open("/dev/full", O_WRONLY);
	null = openat(AT_FDCWD, "/dev/null", O_RDONLY);
	fstat(full, &st);
	fstat(null, &st);
	write(full, "x", 1);
	write(null, "y", 1);
	access("/dev/full", F_OK);
	access("/dev/null", F_OK);
	faccessat(AT_FDCWD, "/dev/full", W_OK, 0);
	dup2(full, 20);
	dup3(null, 21, O_CLOEXEC);
	dup3(20, 22, 0);
	/* by a descriptor in a set */
	struct pollfd p[2] = { { .fd = null, .events = POLLIN }, { .fd = full, .events = POLLOUT } };
	poll(p, 2, 0);
	struct pollfd q[1] = { { .fd = null, .events = POLLIN } };
	poll(q, 1, 0);
	fd_set w;
	FD_ZERO(&w);
	FD_SET(full, &w);
	struct timeval tv = { 0, 0 };
	select(full + 1, NULL, &w, NULL, &tv);
	/* by the descriptor of mmap */
	void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, full, 0);
	if (m != MAP_FAILED)
		munmap(m, 4096);
	/* the symlink: its own name is not the traced path, what it opens is */
	int viafd = open(link, O_WRONLY);
	readlink(link, link, sizeof(link) - 1);
	write(viafd, "z", 1);
	close(viafd);
	/* an inherited descriptor */
	write(9, "w", 1);
	close(22);
	close(21);
	close(20);
	close(null);
	close(full);
	/* a pidfd (--decode-fds=pidfd names its process) */
	int pfd = syscall(SYS_pidfd_open, getpid(), 0);
	close(pfd);
	return 0;
}
