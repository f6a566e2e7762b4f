/* burst: exactly 1000000 getppid system calls as fast as possible, for the
 * no-event-loss test (the trace must contain all of them). */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <unistd.h>

#define CALLS 1000000

int main(void)
{
	for (long i = 0; i < CALLS; i++)
		syscall(SYS_getppid);
	return 0;
}
