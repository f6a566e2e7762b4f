/* What a delay paid by a signal handler costs (docs/dev/causal-plan.md):
 * a thread signals itself (tgkill) and its handler nanosleeps the amount
 * asked, N times for each amount; prints the mean time each took and its
 * overshoot. `signal_delay 1` sets the timer slack to 1 ns first.
 *   gcc -O2 -o signal_delay bench/programs/signal_delay.c && ./signal_delay 1 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long want;

static unsigned long long now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

static void pay(int sig)
{
	struct timespec ts = { 0, want };
	(void)sig;
	if (want)
		nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	int slack = argc > 1 && atoi(argv[1]);
	struct sigaction sa = { 0 };
	long amounts[] = { 0, 10000, 100000, 1000000 };
	if (slack)
		prctl(PR_SET_TIMERSLACK, 1);
	sa.sa_handler = pay;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGURG, &sa, NULL);
	for (int k = 0; k < 4; k++) {
		int n = amounts[k] >= 1000000 ? 200 : 2000;
		unsigned long long t0;
		double each;
		want = amounts[k];
		t0 = now();
		for (int i = 0; i < n; i++)
			syscall(SYS_tgkill, getpid(), gettid(), SIGURG);
		each = (now() - t0) / (double)n;
		printf("timer slack %s, asked %7ld ns: %9.0f ns each, overshoot %6.0f ns\n",
		       slack ? "1 ns" : "default", want, each, each - want);
	}
	return 0;
}
