/* threads: two pthreads, each writing a few times to /dev/null, joined.
 * The futex calls of pthread_join depend on timing (a thread that has
 * already exited is joined without waiting); everything else is fixed.
 * Work is bracketed by syscall(SYS_getppid) markers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

static int devnull;

static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	char msg[2] = { (char)('a' + id), '\n' };

	for (int i = 0; i < 3; i++)
		write(devnull, msg, sizeof(msg));
	return NULL;
}

int main(void)
{
	pthread_t t[2];

	syscall(SYS_getppid); /* start marker */

	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0)
		return 2;
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i) != 0)
			return 3;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	close(devnull);

	syscall(SYS_getppid); /* end marker */
	return 0;
}
