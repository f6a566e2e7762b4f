/* thread_end: how threads end when another thread ends the process.
 *   exec:   a second thread execs /bin/true while the leader sleeps in
 *           nanosleep: the leader is superseded, the execve returns as it;
 *   kill:   the leader calls exit_group while a thread sleeps in
 *           clock_nanosleep: the thread's call never returns;
 *   leader: the leader exits alone (SYS_exit) and a thread then exits the
 *           process with code 5: the leader's end is reported last.
 * Each step waits on a pipe, and then long enough (300 ms) for the other
 * thread to be inside its call, even on a busy machine. */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int fds[2];
static const char *mode;

static void *thread(void *arg)
{
	char c;
	struct timespec ts = { 0, 300 * 1000 * 1000 };

	(void)arg;
	if (read(fds[0], &c, 1) != 1)
		_exit(2);
	/* the leader is now inside its call (or gone) */
	syscall(SYS_nanosleep, &ts, NULL);
	if (!strcmp(mode, "exec")) {
		char *argv[] = { "/bin/true", NULL };
		syscall(SYS_execve, "/bin/true", argv, NULL);
		_exit(3);
	}
	if (!strcmp(mode, "kill")) {
		struct timespec long_ts = { 100, 0 };
		syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &long_ts, NULL);
		_exit(4);
	}
	syscall(SYS_exit_group, 5);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	struct timespec ts = { 100, 0 };

	mode = argc > 1 ? argv[1] : "exec";
	if (pipe(fds) || pthread_create(&t, NULL, thread, NULL))
		return 1;
	if (write(fds[1], "x", 1) != 1)
		return 1;
	if (!strcmp(mode, "exec")) {
		syscall(SYS_nanosleep, &ts, NULL);
	} else if (!strcmp(mode, "kill")) {
		struct timespec short_ts = { 0, 600 * 1000 * 1000 };
		syscall(SYS_nanosleep, &short_ts, NULL);
		syscall(SYS_exit_group, 3);
	} else {
		syscall(SYS_exit, 0);
	}
	return 1;
}
