/* unix family: AF_UNIX addresses as getsockname, getpeername and accept
 * return them: unnamed (unbound, a connecting client, a socketpair), bound
 * to a path, abstract; two datagrams sent and received in one sendmmsg and
 * one recvmmsg (as a resolver sends its A and AAAA queries). Work is
 * bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un sun, peer;
	socklen_t len;
	int l, c, a, sv[2], ab;
	static const char abstract[] = "\0genba-unix-test";

	if (argc < 2)
		return 2;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/sock", argv[1]);

	syscall(SYS_getppid); /* start marker */

	l = socket(AF_UNIX, SOCK_STREAM, 0);
	len = sizeof(peer);
	getsockname(l, (struct sockaddr *)&peer, &len); /* unbound: unnamed */
	if (bind(l, (struct sockaddr *)&sun, sizeof(sun)) != 0 || listen(l, 1) != 0)
		return 3;
	len = sizeof(peer);
	getsockname(l, (struct sockaddr *)&peer, &len);
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	if (connect(c, (struct sockaddr *)&sun, sizeof(sun)) != 0)
		return 4;
	len = sizeof(peer);
	a = accept(l, (struct sockaddr *)&peer, &len); /* the client is unnamed */
	len = sizeof(peer);
	getpeername(a, (struct sockaddr *)&peer, &len);
	len = sizeof(peer);
	getpeername(c, (struct sockaddr *)&peer, &len);
	len = 4;
	getpeername(c, (struct sockaddr *)&peer, &len); /* cut to 4 bytes */
	unlink(sun.sun_path);

	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	len = sizeof(peer);
	getsockname(sv[0], (struct sockaddr *)&peer, &len);

	{
		char a0[] = "query", a1[] = "-A", b0[] = "query-AAAA";
		char r0[8], r1[16];
		struct iovec w0[] = { { a0, 5 }, { a1, 2 } }, w1[] = { { b0, 10 } };
		struct iovec rv0[] = { { r0, sizeof(r0) } }, rv1[] = { { r1, sizeof(r1) } };
		struct mmsghdr w[2], r[2];

		memset(w, 0, sizeof(w));
		memset(r, 0, sizeof(r));
		w[0].msg_hdr.msg_iov = w0;
		w[0].msg_hdr.msg_iovlen = 2;
		w[1].msg_hdr.msg_iov = w1;
		w[1].msg_hdr.msg_iovlen = 1;
		r[0].msg_hdr.msg_iov = rv0;
		r[0].msg_hdr.msg_iovlen = 1;
		r[1].msg_hdr.msg_iov = rv1;
		r[1].msg_hdr.msg_iovlen = 1;
		sendmmsg(sv[0], w, 2, 0);
		recvmmsg(sv[1], r, 2, MSG_DONTWAIT, NULL);
	}

	ab = socket(AF_UNIX, SOCK_DGRAM, 0);
	memset(&peer, 0, sizeof(peer));
	peer.sun_family = AF_UNIX;
	memcpy(peer.sun_path, abstract, sizeof(abstract) - 1);
	bind(ab, (struct sockaddr *)&peer, offsetof(struct sockaddr_un, sun_path) + sizeof(abstract) - 1);
	len = sizeof(peer);
	getsockname(ab, (struct sockaddr *)&peer, &len);

	close(ab);
	close(sv[0]);
	close(sv[1]);
	close(a);
	close(c);
	close(l);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
