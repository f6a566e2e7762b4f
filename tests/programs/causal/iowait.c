/*
 * Waits of two kinds in one round: fsyncs of a small write (the round's
 * larger part) and reads of a file already in the page cache (a small one).
 *   iowait FSYNC_PCT READ_PCT SECONDS [DIR]
 * FSYNC_PCT scales the number of fsyncs a round (16 at 100%), READ_PCT the
 * bytes read (1 MiB at 100%), so that each part can really be made faster.
 * round_done() is the progress point. Prints rounds per second on stdout.
 * Works in DIR, or the current directory (iowait.data, iowait.cache, left
 * there for the next run).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long rounds;
static char buf[1 << 20];

__attribute__((noinline)) void round_done(void)
{
	rounds++;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	long fsyncs = 16 * atol(argv[1]) / 100;
	long bytes = (1L << 20) * atol(argv[2]) / 100;
	double secs = atof(argv[3]);
	if (argc > 4 && chdir(argv[4]))
		return 1;
	/* kept from run to run: freeing their blocks would have the disk
	 * discard them, and the next runs' fsyncs wait behind that */
	int fd = open("iowait.data", O_CREAT | O_WRONLY, 0644);
	int rd = open("iowait.cache", O_CREAT | O_RDWR, 0644);
	if (fd < 0 || rd < 0)
		return 1;
	memset(buf, 'x', sizeof buf);
	for (int i = 0; i < 4; i++)
		if (pwrite(rd, buf, sizeof buf, (off_t)i * sizeof buf) != sizeof buf)
			return 1;
	double t0 = now();
	while (now() - t0 < secs) {
		for (long k = 0; k < fsyncs; k++) {
			if (pwrite(fd, buf, 4096, k * 4096) != 4096)
				return 1;
			fsync(fd); /* the fsync line */
		}
		for (long off = 0; off < bytes; off += sizeof buf) {
			long n = bytes - off < (long)sizeof buf ? bytes - off : (long)sizeof buf;
			if (pread(rd, buf, n, off % (4L << 20)) < 0) /* the read line */
				return 1;
		}
		round_done();
	}
	printf("%.3f\n", rounds / (now() - t0));
	return 0;
}
