/* A process made with CLONE_PARENT is a sibling of this program: its parent
 * is whoever started the program (genba). The program then waits for the
 * sibling to vanish, which only happens once that parent reaps it. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static char stack[1 << 16];

static int sibling(void *arg)
{
    (void)arg;
    return 42;
}

int main(void)
{
    pid_t pid = clone(sibling, stack + sizeof stack, CLONE_PARENT | SIGCHLD, NULL);
    if (pid < 0) {
        perror("clone");
        return 1;
    }
    int status;
    if (wait(&status) >= 0) {
        fprintf(stderr, "the sibling is not our child\n");
        return 1;
    }
    while (kill(pid, 0) == 0)
        usleep(100);
    if (errno != ESRCH)
        return 1;
    printf("sibling %d reaped\n", pid);
    return 0;
}
