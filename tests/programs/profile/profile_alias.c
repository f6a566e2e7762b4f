/* profile_alias: ground truth for the weighting of blocked samples.
 *
 * Threads block for very different lengths: "ping" and "pong" pass one byte
 * back and forth through two pipes SHORT_CALLS times, so each blocks in
 * read() for microseconds at a time, far less than a sampling period;
 * "long" sleeps once for LONG_MS. A profiler that rounds each interval to
 * whole periods gives ping and pong no blocked time at all; one without a
 * per-thread phase may alias. Each thread's truth is its whole run:
 * blocked = wall - cpu - runq.
 * Usage: profile_alias [SHORT_CALLS [LONG_MS]]   (default 200000, 2000)
 *
 * Prints {"threads":[{name, tid, wall_ns, cpu_ns, runq_ns, blocked_ns, calls}]}.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "truth.h"

struct result {
	const char *name;
	int tid;
	long calls;
	struct snap t0, t1;
};

static long short_calls = 200000, long_ms = 2000;
static int to_pong[2], to_ping[2];

static void pass(struct result *r, int in, int out, int first)
{
	char b = 'x';

	snap_open();
	r->tid = gettid();
	snap_take(&r->t0);
	for (long i = 0; i < short_calls; i++) {
		if (first && write(out, &b, 1) != 1)
			die("write");
		if (read(in, &b, 1) != 1) /* SITE:short */
			die("read");
		if (!first && write(out, &b, 1) != 1)
			die("write");
	}
	snap_take(&r->t1);
	r->calls = short_calls;
}

static void *ping_main(void *arg)
{
	pass(arg, to_ping[0], to_pong[1], 1);
	return NULL;
}

static void *pong_main(void *arg)
{
	pass(arg, to_pong[0], to_ping[1], 0);
	return NULL;
}

static void *long_main(void *arg)
{
	struct result *r = arg;
	const struct timespec t = { long_ms / 1000, (long_ms % 1000) * 1000000L };

	snap_open();
	r->tid = gettid();
	snap_take(&r->t0);
	nanosleep(&t, NULL); /* SITE:long */
	snap_take(&r->t1);
	r->calls = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 3) {
		fprintf(stderr, "usage: profile_alias [SHORT_CALLS [LONG_MS]]\n");
		return 2;
	}
	if (argc > 1)
		short_calls = parse_pos(argv[1], "SHORT_CALLS");
	if (argc > 2)
		long_ms = parse_pos(argv[2], "LONG_MS");
	struct result res[3] = { { .name = "ping" }, { .name = "pong" }, { .name = "long" } };
	void *(*mains[3])(void *) = { ping_main, pong_main, long_main };
	pthread_t th[3];
	if (pipe(to_ping) || pipe(to_pong))
		die("pipe");
	for (int i = 0; i < 3; i++)
		if (pthread_create(&th[i], NULL, mains[i], &res[i])) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	printf("{\"pid\":%d,\"threads\":[", (int)getpid());
	for (int i = 0; i < 3; i++) {
		struct span s = { 0 };
		span_add(&s, &res[i].t0, &res[i].t1);
		printf("%s{\"name\":\"%s\",\"tid\":%d,\"wall_ns\":%" PRId64 ",\"cpu_ns\":%" PRId64
		       ",\"runq_ns\":%" PRId64 ",\"blocked_ns\":%" PRId64 ",\"calls\":%ld}",
		       i ? "," : "", res[i].name, res[i].tid, s.wall, s.cpu, s.runq, s.blocked,
		       res[i].calls);
	}
	printf("]}\n");
	return 0;
}
