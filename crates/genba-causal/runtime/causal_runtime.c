/*
 * genba causal's runtime, preloaded into the program (LD_PRELOAD).
 *
 * It maps the page genba shares with its BPF programs (causal.h; the map's
 * descriptor is inherited, its number in GENBA_CAUSAL_FD) and installs a
 * handler for genba's signal (GENBA_CAUSAL_SIG). genba's BPF programs send
 * that signal to a thread that owes delay, only when it is on its way back
 * to user mode (a system call's exit, a sample in user code), so no call of
 * the program is interrupted. The handler sleeps what the thread owes and
 * adds what it actually slept to the thread's `paid`.
 *
 * Without genba's environment it does nothing. Only the first process to
 * load it (and that process again after an exec) takes part; its children
 * do not.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "causal.h"

static struct genba_causal *page;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)

/* G at `now` (causal.h), as the BPF programs read it. */
static uint64_t delay_count(uint64_t now)
{
	for (int i = 0; i < 8; i++) {
		uint64_t gen = LOAD(page->gen), g, n, sum, sp;
		if (LOAD(page->busy))
			continue;
		g = LOAD(page->global);
		n = LOAD(page->open_n);
		sum = LOAD(page->open_sum);
		if (LOAD(page->busy) || LOAD(page->gen) != gen)
			continue;
		sp = LOAD(page->speedup);
		if (n * now > sum)
			g += (n * now - sum) * sp / 100;
		return g;
	}
	return 0;
}

/* Sleeps what thread `t` owes, at most `most` ns, and accounts for it. */
static void pay(struct genba_causal_thread *t, int64_t most)
{
	uint64_t start = now_ns();
	int64_t owed = (int64_t)(delay_count(start) - LOAD(t->credit) - LOAD(t->paid));

	if (owed > most)
		owed = most;
	if (owed > 0) {
		int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
		struct timespec d = { (time_t)(owed / 1000000000), (long)(owed % 1000000000) };
		uint64_t slept;

		/* the sleep ends when asked, not up to 50 us later */
		prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
		while (nanosleep(&d, &d) && errno == EINTR)
			;
		slept = now_ns() - start;
		if (slack > 0)
			prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
		/* what it slept is paid, an oversleep too: the thread was
		 * that much later (a wakeup never passes a lead on) */
		__atomic_fetch_add(&t->paid, slept, __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&page->delays, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&page->slept, slept, __ATOMIC_RELAXED);
		__atomic_fetch_add(&page->asked, (uint64_t)owed, __ATOMIC_RELAXED);
	}
}

/* The process's pid (reset in a forked child) and each thread's tid, kept:
 * a wrapped pthread_mutex_unlock must not make system calls, which genba's
 * programs would trace too. */
static uint32_t own_pid;
static __thread pid_t own_tid;

static void forked_child(void)
{
	own_pid = (uint32_t)getpid();
	own_tid = 0;
}

static struct genba_causal_thread *own_slot(void)
{
	pid_t tid = own_tid;

	if (!tid)
		own_tid = tid = (pid_t)syscall(SYS_gettid);
	struct genba_causal_thread *t = &page->t[(uint32_t)tid & (GENBA_CAUSAL_THREADS - 1)];

	return LOAD(t->tid) == (uint32_t)tid ? t : NULL;
}

static void on_signal(int sig)
{
	int saved = errno;
	struct genba_causal_thread *t = own_slot();
	(void)sig;

	if (t) {
		/* at most a second a signal: a larger debt is paid over several */
		pay(t, 1000000000ll);
		__atomic_store_n(&t->pending, 0, __ATOMIC_RELEASE);
	}
	errno = saved;
}

/* Pays, before the thread wakes another, what it owes from the threshold
 * on: the woken thread must not start before the delays the waker owed
 * (COZ's rule). A payment on a signal comes at the next system call's exit
 * or sample, after the wakeup: too late for what the wakee does next. */
static void pay_now(int64_t from, int64_t most)
{
	struct genba_causal_thread *t;
	uint32_t idle = 0;
	int saved = errno;

	if (!page || !LOAD(page->active) || LOAD(page->runtime_pid) != own_pid)
		return;
	t = own_slot();
	if (!t)
		return;
	if ((int64_t)(delay_count(now_ns()) - LOAD(t->credit) - LOAD(t->paid)) < from)
		return;
	/* marked as paying, as a told thread is: BPF sends it no signal
	 * meanwhile, and does not take its sleep for the program's own wait;
	 * a thread already told pays in its handler */
	if (!__atomic_compare_exchange_n(&t->pending, &idle, 1, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		return;
	pay(t, most);
	__atomic_store_n(&t->pending, 0, __ATOMIC_RELEASE);
	errno = saved;
}

static void pay_before_waking(void)
{
	if (page)
		pay_now((int64_t)LOAD(page->threshold), 1000000000ll);
}

/* The calls that wake other threads of the program, taken in front of the
 * C library's: the real ones are found with dlsym(RTLD_NEXT) by the
 * constructor (or at a first call before it ran). `fail` is what the call
 * returns when the real one cannot be found. */
#define WAKER(name, params, args, fail)                                         \
	static int (*real_##name) params;                                       \
	int name params                                                         \
	{                                                                       \
		if (!real_##name)                                               \
			real_##name = (int(*) params)dlsym(RTLD_NEXT, #name);   \
		if (!real_##name) {                                             \
			fail;                                                   \
		}                                                               \
		pay_before_waking();                                            \
		return real_##name args;                                        \
	}

WAKER(pthread_mutex_unlock, (pthread_mutex_t * m), (m), return EINVAL)
WAKER(pthread_cond_signal, (pthread_cond_t * c), (c), return EINVAL)
WAKER(pthread_cond_broadcast, (pthread_cond_t * c), (c), return EINVAL)
WAKER(pthread_rwlock_unlock, (pthread_rwlock_t * l), (l), return EINVAL)
WAKER(pthread_barrier_wait, (pthread_barrier_t * b), (b), return EINVAL)
WAKER(sem_post, (sem_t * s), (s), errno = EINVAL; return -1)

static void find_wakers(void)
{
	real_pthread_mutex_unlock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_unlock");
	real_pthread_cond_signal = (int (*)(pthread_cond_t *))dlsym(RTLD_NEXT, "pthread_cond_signal");
	real_pthread_cond_broadcast =
		(int (*)(pthread_cond_t *))dlsym(RTLD_NEXT, "pthread_cond_broadcast");
	real_pthread_rwlock_unlock =
		(int (*)(pthread_rwlock_t *))dlsym(RTLD_NEXT, "pthread_rwlock_unlock");
	real_pthread_barrier_wait =
		(int (*)(pthread_barrier_t *))dlsym(RTLD_NEXT, "pthread_barrier_wait");
	real_sem_post = (int (*)(sem_t *))dlsym(RTLD_NEXT, "sem_post");
}

/* A run that is one experiment (genba causal without progress points)
 * ends when the program exits: the thread that exits pays what it still
 * owes first, so that the run's length holds every delay it was due. */
__attribute__((destructor)) static void genba_causal_fini(void)
{
	const char *at_exit = getenv("GENBA_CAUSAL_PAY_AT_EXIT");

	if (at_exit && !strcmp(at_exit, "1"))
		pay_now(1, INT64_MAX);
}

__attribute__((constructor)) static void genba_causal_init(void)
{
	const char *fd_s = getenv("GENBA_CAUSAL_FD"), *sig_s = getenv("GENBA_CAUSAL_SIG");
	size_t len = (sizeof(struct genba_causal) + 4095) & ~(size_t)4095;
	struct sigaction sa = { 0 }, old;
	char link[64], target[64];
	ssize_t n;
	uint32_t none = 0, pid = (uint32_t)getpid();
	void *p;
	int sig;

	find_wakers();
	if (!fd_s || !sig_s)
		return;
	sig = atoi(sig_s);
	if (sig <= 0 || sig >= 65)
		return;
	/* the descriptor must still be genba's map: in a child that closed it
	 * the number may be any file of its own */
	snprintf(link, sizeof link, "/proc/self/fd/%d", atoi(fd_s));
	n = readlink(link, target, sizeof target - 1);
	if (n <= 0)
		return;
	target[n] = 0;
	if (strcmp(target, "anon_inode:bpf-map"))
		return;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, atoi(fd_s), 0);
	if (p == MAP_FAILED)
		return;
	page = p;
	sa.sa_handler = on_signal;
	/* on the alternate stack where the thread has one: a delay may come
	 * on a thread with a small stack */
	sa.sa_flags = SA_RESTART | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, &old))
		goto out;
	/* the first process only (or itself again, after an exec); from here
	 * on genba's programs may signal it: the handler is in place (and
	 * while it stays: BPF sends the signal only while the thread's
	 * handler for it is this one) */
	/* (a child the program starts loads this too: it must not change the
	 * handler's address the program's threads are checked against) */
	none = LOAD(page->runtime_pid);
	if (none != 0 && none != pid)
		goto undo;
	__atomic_store_n(&page->runtime_handler, (uint64_t)(uintptr_t)on_signal, __ATOMIC_SEQ_CST);
	none = 0;
	if (__atomic_compare_exchange_n(&page->runtime_pid, &none, pid, 0, __ATOMIC_SEQ_CST,
					__ATOMIC_SEQ_CST) ||
	    none == pid) {
		own_pid = pid;
		pthread_atfork(NULL, NULL, forked_child);
		return;
	}
undo:
	sigaction(sig, &old, NULL);
out:
	munmap(p, len);
	page = NULL;
}
