/* record_timer_sleeps: a thread that nanosleeps 2 ms, 50 times: each time
 * a timer (an hrtimer, in an interrupt) wakes it, not a thread. Prints its
 * tid and the sleeps it made as JSON. */
#define _GNU_SOURCE
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct timespec ts = { 0, 2 * 1000 * 1000 };
	int i, done = 0;

	for (i = 0; i < 50; i++)
		if (nanosleep(&ts, NULL) == 0)
			done++;
	printf("{\"tid\": %d, \"sleeps\": %d}\n", (int)gettid(), done);
	return 0;
}
