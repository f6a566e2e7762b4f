/* netlink family: messages on netlink sockets, whose buffers strace decodes
 * by the socket's protocol. NETLINK_ROUTE: a NLMSG_NOOP asking for an
 * acknowledgement and the kernel's answer (NLMSG_ERROR with error 0 and the
 * request echoed), two messages in one buffer, a buffer shorter than a
 * header; sendmsg and recvmsg with a netlink msg_name (each iovec
 * element's data decoded as messages, the answer split across two
 * elements) and sendmsg without a name (a string); NETLINK_NETFILTER: a batch's begin with its struct nfgenmsg;
 * NETLINK_SELINUX: setenforce (refused). Work is bracketed by
 * syscall(SYS_getppid) markers. Each socket is bound first: strace learns
 * a socket's protocol from the kernel's sock_diag, which lists only bound
 * netlink sockets. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <linux/selinux_netlink.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static int nl_socket(int proto)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);

	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void hdr(struct nlmsghdr *h, unsigned len, unsigned short type, unsigned short flags,
		unsigned seq)
{
	memset(h, 0, sizeof(*h));
	h->nlmsg_len = len;
	h->nlmsg_type = type;
	h->nlmsg_flags = flags;
	h->nlmsg_seq = seq;
}

int main(void)
{
	char buf[4096];
	struct {
		struct nlmsghdr a;
		struct nlmsghdr b;
		unsigned char payload[4];
	} two;
	struct {
		struct nlmsghdr h;
		struct nfgenmsg m;
	} nf;
	struct {
		struct nlmsghdr h;
		struct selnl_msg_setenforce m;
	} se;

	syscall(SYS_getppid); /* start marker */
	int r = nl_socket(NETLINK_ROUTE);
	if (r < 0)
		return 2;
	hdr(&two.a, sizeof(two.a), NLMSG_NOOP, NLM_F_REQUEST | NLM_F_ACK, 1);
	sendto(r, &two.a, sizeof(two.a), 0, NULL, 0);
	recvfrom(r, buf, sizeof(buf), MSG_DONTWAIT, NULL, NULL);
	hdr(&two.a, sizeof(two.a), NLMSG_NOOP, NLM_F_REQUEST, 2);
	hdr(&two.b, sizeof(two.b) + sizeof(two.payload), NLMSG_NOOP, NLM_F_REQUEST, 3);
	memcpy(two.payload, "\x01\x02\xfe\xff", 4);
	sendto(r, &two, sizeof(two), MSG_DONTWAIT, NULL, 0);
	sendto(r, "abcd", 4, MSG_DONTWAIT, NULL, 0);
	struct sockaddr_nl k = { .nl_family = AF_NETLINK };
	struct iovec iov[2] = { { &two.a, sizeof(two.a) }, { buf, 0 } };
	struct msghdr m = { .msg_name = &k, .msg_namelen = sizeof(k), .msg_iov = iov, .msg_iovlen = 2 };
	hdr(&two.a, sizeof(two.a), NLMSG_NOOP, NLM_F_REQUEST | NLM_F_ACK, 6);
	sendmsg(r, &m, 0);
	char small[20];
	struct iovec riov[2] = { { small, sizeof(small) }, { buf, sizeof(buf) } };
	m.msg_iov = riov;
	recvmsg(r, &m, MSG_DONTWAIT);
	hdr(&two.a, sizeof(two.a), NLMSG_NOOP, NLM_F_REQUEST, 7);
	m.msg_name = NULL;
	m.msg_namelen = 0;
	m.msg_iov = iov;
	sendmsg(r, &m, MSG_DONTWAIT);
	close(r);

	int n = nl_socket(NETLINK_NETFILTER);
	if (n >= 0) {
		hdr(&nf.h, sizeof(nf), NFNL_MSG_BATCH_BEGIN, NLM_F_REQUEST, 4);
		nf.m.nfgen_family = AF_UNSPEC;
		nf.m.version = NFNETLINK_V0;
		nf.m.res_id = htons(NFNL_SUBSYS_NFTABLES);
		sendto(n, &nf, sizeof(nf), MSG_DONTWAIT, NULL, 0);
		close(n);
	}

	int s = nl_socket(NETLINK_SELINUX);
	if (s >= 0) {
		hdr(&se.h, sizeof(se), SELNL_MSG_SETENFORCE, NLM_F_REQUEST, 5);
		se.m.val = 1;
		sendto(s, &se, sizeof(se), MSG_DONTWAIT, NULL, 0);
		close(s);
	}
	syscall(SYS_getppid); /* end marker */
	return 0;
}
