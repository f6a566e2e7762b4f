/* sleeper: prints its pid (and flushes), then sleeps 100 ms at a time
 * forever; for attach (-p) tests. Exits 0 on SIGTERM. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(void)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	signal(SIGTERM, on_term);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	while (!stop)
		nanosleep(&ts, NULL);
	return 0;
}
