/* Two threads pass a token back and forth over two pipes. Each brackets
 * every blocking read with CLOCK_MONOTONIC, so a recording's off-CPU
 * intervals can be checked against the program's own clock: each must lie
 * inside one of its thread's brackets, and be woken by the other thread.
 * Prints {"pid", "threads": [{"tid", "reads": [[t0, t1], ...], "writes"}]}. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 200

static int ab[2], ba[2];

struct side {
    int in, out, first;
    pid_t tid;
    uint64_t reads[ROUNDS][2];
    int writes;
};

static uint64_t now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void *play(void *arg)
{
    struct side *s = arg;
    char c = 'x';
    s->tid = gettid();
    for (int i = 0; i < ROUNDS; i++) {
        if (s->first && write(s->out, &c, 1) == 1)
            s->writes++;
        s->reads[i][0] = now();
        if (read(s->in, &c, 1) != 1)
            exit(1);
        s->reads[i][1] = now();
        if (!s->first && write(s->out, &c, 1) == 1)
            s->writes++;
    }
    return NULL;
}

int main(void)
{
    static struct side a, b;
    pthread_t ta, tb;
    if (pipe(ab) || pipe(ba))
        return 1;
    a = (struct side){ .in = ba[0], .out = ab[1], .first = 1 };
    b = (struct side){ .in = ab[0], .out = ba[1], .first = 0 };
    pthread_create(&tb, NULL, play, &b);
    pthread_create(&ta, NULL, play, &a);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    printf("{\"pid\":%d,\"threads\":[", (int)getpid());
    struct side *sides[2] = { &a, &b };
    for (int k = 0; k < 2; k++) {
        printf("%s{\"tid\":%d,\"writes\":%d,\"reads\":[", k ? "," : "", (int)sides[k]->tid,
               sides[k]->writes);
        for (int i = 0; i < ROUNDS; i++)
            printf("%s[%llu,%llu]", i ? "," : "", (unsigned long long)sides[k]->reads[i][0],
                   (unsigned long long)sides[k]->reads[i][1]);
        printf("]}");
    }
    printf("]}\n");
    return 0;
}
