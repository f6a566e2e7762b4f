/* record_tcp_pingpong: two threads pass a byte back and forth 300 times
 * over a TCP connection on the loopback interface. Each send delivers the
 * byte, and wakes the other thread, in a softirq on the sender's way out
 * of its call: the sender is the waker. Prints both tids as JSON. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define ROUNDS 300

static int lfd;
static int server_tid;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void *server(void *arg)
{
	int c, i, one = 1;
	char b;

	(void)arg;
	server_tid = gettid();
	c = accept(lfd, NULL, NULL);
	if (c < 0)
		die("accept");
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (i = 0; i < ROUNDS; i++) {
		if (recv(c, &b, 1, MSG_WAITALL) != 1)
			die("server recv");
		if (send(c, &b, 1, 0) != 1)
			die("server send");
	}
	close(c);
	return NULL;
}

int main(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	pthread_t t;
	int c, i, one = 1;
	char b = 'x';

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (void *)&a, sizeof(a)) || listen(lfd, 1) ||
	    getsockname(lfd, (void *)&a, &len))
		die("listen");
	if (pthread_create(&t, NULL, server, NULL))
		die("pthread_create");
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (void *)&a, sizeof(a)))
		die("connect");
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (i = 0; i < ROUNDS; i++) {
		if (send(c, &b, 1, 0) != 1)
			die("client send");
		if (recv(c, &b, 1, MSG_WAITALL) != 1)
			die("client recv");
	}
	pthread_join(t, NULL);
	printf("{\"client\": %d, \"server\": %d}\n", (int)gettid(), server_tid);
	return 0;
}
