/* poll family: poll/ppoll on a pipe and on /dev/null next to an ignored
 * (negative) descriptor, epoll, eventfd2, timerfd.
 * Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	int p[2], ep, efd, tfd, nul;
	struct pollfd pfd[2], many[40];
	struct timespec zero = { 0, 0 }, one_ms = { 0, 1000000 };
	struct epoll_event ev = { .events = EPOLLIN }, out[4];
	struct itimerspec its = { .it_value = { .tv_sec = 1, .tv_nsec = 0 } };
	uint64_t v = 1;

	syscall(SYS_getppid); /* start marker */

	if (pipe2(p, O_CLOEXEC) != 0)
		return 2;
	pfd[0].fd = p[0];
	pfd[0].events = POLLIN;
	pfd[1].fd = p[1];
	pfd[1].events = POLLOUT;
	poll(pfd, 1, 1);          /* times out */
	poll(pfd, 2, 0);          /* write end ready */
	write(p[1], "x", 1);
	poll(pfd, 2, 0);          /* both ready */
	ppoll(pfd, 1, &zero, NULL);
	read(p[0], &v, 1);
	ppoll(pfd, 1, &one_ms, NULL); /* times out */
	nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
	pfd[0].fd = -1;
	pfd[0].events = POLLIN;
	pfd[1].fd = nul;
	pfd[1].events = POLLIN;
	poll(pfd, 2, 0);
	close(nul);
	/* 40 closed descriptors (POLLNVAL): the answer cut at -s (32) */
	for (int i = 0; i < 40; i++) {
		many[i].fd = 200 + i;
		many[i].events = POLLIN;
	}
	poll(many, 40, 0);

	ep = epoll_create1(EPOLL_CLOEXEC);
	ev.data.fd = p[0];
	epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
	epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev); /* EEXIST */
	epoll_wait(ep, out, 4, 0);
	write(p[1], "y", 1);
	epoll_wait(ep, out, 4, 0);
	epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL);

	efd = eventfd(3, EFD_CLOEXEC | EFD_NONBLOCK);
	v = 2;
	write(efd, &v, sizeof(v));
	read(efd, &v, sizeof(v));
	read(efd, &v, sizeof(v)); /* EAGAIN */

	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	timerfd_settime(tfd, 0, &its, NULL);
	its.it_value.tv_sec = 0;
	timerfd_settime(tfd, 0, &its, NULL); /* disarm */
	read(tfd, &v, sizeof(v)); /* EAGAIN */

	close(tfd);
	close(efd);
	close(ep);
	close(p[0]);
	close(p[1]);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
