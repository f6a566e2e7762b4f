/* network family: AF_UNIX socketpair with sendmsg/recvmsg, TCP over
 * 127.0.0.1 and ::1 on kernel-chosen ports (bind, getsockname, listen,
 * connect, accept4, sendto/recvfrom), SO_REUSEADDR, shutdown.
 * Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static int tcp(int family)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int l, c, a, one = 1, val = 0;
	char buf[16];

	memset(&ss, 0, sizeof(ss));
	if (family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;
		in->sin_family = AF_INET;
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*in);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
		in6->sin6_family = AF_INET6;
		in6->sin6_addr = in6addr_loopback;
		len = sizeof(*in6);
	}
	l = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0)
		return -1;
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	len = sizeof(val);
	getsockopt(l, SOL_SOCKET, SO_REUSEADDR, &val, &len);
	len = family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
	if (bind(l, (struct sockaddr *)&ss, len) != 0)
		return -1;
	getsockname(l, (struct sockaddr *)&ss, &len);
	listen(l, 4);
	c = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (connect(c, (struct sockaddr *)&ss, len) != 0)
		return -1;
	len = sizeof(ss);
	a = accept4(l, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
	if (a < 0)
		return -1;
	sendto(c, "ping", 4, 0, NULL, 0);
	recvfrom(a, buf, sizeof(buf), 0, NULL, NULL);
	shutdown(c, SHUT_WR);
	recvfrom(a, buf, sizeof(buf), 0, NULL, NULL); /* 0: EOF */
	close(a);
	close(c);
	close(l);
	return 0;
}

int main(void)
{
	int sv[2];
	char buf[16], name[] = "sock";
	struct iovec iov[2] = { { name, 4 }, { "et", 2 } };
	struct iovec riov = { buf, sizeof(buf) };
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 2 };
	struct msghdr rmsg = { .msg_iov = &riov, .msg_iovlen = 1 };

	syscall(SYS_getppid); /* start marker */

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return 2;
	sendmsg(sv[0], &msg, 0);
	recvmsg(sv[1], &rmsg, 0);
	sendto(sv[1], "pong", 4, MSG_DONTWAIT, NULL, 0);
	recvfrom(sv[0], buf, sizeof(buf), MSG_DONTWAIT, NULL, NULL);
	recvfrom(sv[0], buf, sizeof(buf), MSG_DONTWAIT, NULL, NULL); /* EAGAIN */
	shutdown(sv[0], SHUT_RDWR);
	close(sv[0]);
	close(sv[1]);
	socket(AF_INET, SOCK_STREAM, 12345); /* EINVAL: unknown protocol */

	if (tcp(AF_INET) != 0)
		return 3;
	if (tcp(AF_INET6) != 0)
		return 4;

	syscall(SYS_getppid); /* end marker */
	return 0;
}
