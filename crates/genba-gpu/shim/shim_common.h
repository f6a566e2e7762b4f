/*
 * shim_common.h: what genba's GPU layers share (included by each, with
 * SHIM_API set to its enum genba_gpu_api): the ring of genba_gpu.h, the
 * clock, the thread and process ids kept, and the text of a call's
 * arguments made without printf.
 */
#ifndef SHIM_COMMON_H
#define SHIM_COMMON_H

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "genba_gpu.h"

#define EXPORT __attribute__((visibility("default")))

/* ---- the ring ---------------------------------------------------------- */

static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
static struct genba_gpu_head *ring;
static pid_t ring_pid;
static int ring_off; /* no GENBA_GPU_DIR, or the ring could not be made */

static uint64_t now_ns(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static uint32_t gettid_cached(void)
{
	static __thread uint32_t tid;
	if (!tid)
		tid = (uint32_t)syscall(SYS_gettid);
	return tid;
}

/* This process's pid, kept: getpid is a system call (and genba would
 * trace each one). A fork (the runtime forks helpers) resets it in the
 * child, and the locks with it: a lock another thread held at the fork
 * would never be released in the child. */
static pid_t my_pid;
/* the layer's own table lock, held and reset around a fork too */
static pthread_mutex_t table_lock;

static void fork_prepare(void)
{
	pthread_mutex_lock(&ring_lock);
	pthread_mutex_lock(&table_lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&table_lock);
	pthread_mutex_unlock(&ring_lock);
}

static void fork_child(void)
{
	pthread_mutex_init(&table_lock, NULL);
	pthread_mutex_init(&ring_lock, NULL);
	my_pid = 0;
}

static void register_fork(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static pid_t pid_cached(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, register_fork);
	if (!my_pid)
		my_pid = getpid();
	return my_pid;
}

/* The ring of this process, made on first use (a forked child makes its
 * own: the runtime forks helpers). Called with ring_lock held. */
static struct genba_gpu_head *ring_get(void)
{
	pid_t pid = pid_cached();
	char path[4096];
	const char *dir;
	int fd;
	void *m;
	size_t data = GENBA_GPU_DATA, total;
	const char *kib = getenv("GENBA_GPU_RING_KIB");

	if (ring && ring_pid == pid)
		return ring;
	if (ring_off && ring_pid == pid)
		return NULL;
	ring = NULL;
	ring_pid = pid;
	ring_off = 1;
	dir = getenv("GENBA_GPU_DIR");
	if (!dir || !*dir)
		return NULL;
	if (kib) {
		unsigned long k = strtoul(kib, NULL, 10);
		if (k >= 4 && k <= (1ul << 20) && !(k & (k - 1)))
			data = k << 10;
	}
	total = GENBA_GPU_HEAD + data;
	if (snprintf(path, sizeof(path), "%s/%d.ring.tmp", dir, (int)pid) >= (int)sizeof(path))
		return NULL;
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return NULL;
	if (ftruncate(fd, (off_t)total) != 0) {
		close(fd);
		unlink(path);
		return NULL;
	}
	m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		unlink(path);
		return NULL;
	}
	ring = m;
	ring->version = GENBA_GPU_VERSION;
	ring->pid = (uint32_t)pid;
	ring->size = data;
	ring->write = 0;
	ring->read = 0;
	ring->lost = 0;
	__atomic_store_n(&ring->magic, GENBA_GPU_MAGIC, __ATOMIC_RELEASE);
	/* complete before genba can see it under its final name */
	{
		char final[4096];
		snprintf(final, sizeof(final), "%s/%d.ring", dir, (int)pid);
		rename(path, final);
	}
	ring_off = 0;
	return ring;
}

/* Appends one record of `len` bytes (header included): the header, then
 * `n` pieces of payload. */
static void ring_put(struct genba_gpu_rec *h, const void *const *parts, const size_t *sizes, int n)
{
	struct genba_gpu_head *r;
	uint64_t w, rd, at, len = h->len, room;
	uint8_t *data;

	pthread_mutex_lock(&ring_lock);
	r = ring_get();
	if (!r)
		goto out;
	data = (uint8_t *)r + GENBA_GPU_HEAD;
	w = r->write;
	rd = __atomic_load_n(&r->read, __ATOMIC_ACQUIRE);
	at = w & (r->size - 1);
	room = r->size - at;
	if (room < len) {
		/* the end of the data cannot hold it: pad to the end first */
		if (r->size - (w - rd) < room + len) {
			r->lost++;
			goto out;
		}
		struct genba_gpu_rec pad = { .len = (uint32_t)room, .type = GENBA_GPU_PAD };
		memcpy(data + at, &pad, sizeof(pad) < room ? sizeof(pad) : room);
		w += room;
		at = 0;
	} else if (r->size - (w - rd) < len) {
		r->lost++;
		goto out;
	}
	memcpy(data + at, h, sizeof(*h));
	{
		uint64_t o = at + sizeof(*h);
		for (int i = 0; i < n; i++) {
			memcpy(data + o, parts[i], sizes[i]);
			o += sizes[i];
		}
	}
	__atomic_store_n(&r->write, w + len, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&ring_lock);
}

static int recording(void)
{
	static int on = -1;
	if (on < 0) {
		const char *d = getenv("GENBA_GPU_DIR");
		on = d && *d;
	}
	return on;
}

/* An API call: its name, its decoded arguments, its result. */
static void put_call_typed(uint16_t type, const char *name, uint64_t t0, uint64_t t1, int32_t err,
			   const char *args, const char *result)
{
	size_t a = strlen(name) + 1, b = strlen(args) + 1, c = strlen(result) + 1;
	size_t len = (sizeof(struct genba_gpu_rec) + a + b + c + 7) & ~(size_t)7;
	struct genba_gpu_rec h = { .len = (uint32_t)len, .type = type,
				   .api = SHIM_API, .tid = gettid_cached(), .err = err,
				   .t0 = t0, .t1 = t1 };
	static const char zeros[8];
	const void *parts[] = { name, args, result, zeros };
	size_t sizes[] = { a, b, c, len - sizeof(h) - a - b - c };
	ring_put(&h, parts, sizes, 4);
}

static void put_call(const char *name, uint64_t t0, uint64_t t1, int32_t err, const char *args,
		     const char *result)
{
	put_call_typed(GENBA_GPU_CALL, name, t0, t1, err, args, result);
}

/* A record of `type` whose payload is a struct of `size` bytes, then a
 * NUL-terminated name (a CMD, a CLOCK). */
__attribute__((unused)) static void put_struct(uint16_t type, uint32_t tid, int32_t err, uint64_t t0, const void *s,
		       size_t size, const char *name)
{
	size_t a = strlen(name) + 1;
	size_t len = (sizeof(struct genba_gpu_rec) + size + a + 7) & ~(size_t)7;
	/* t1: when it was written (a command's: after the shim saw it
	 * complete, which genba holds its mapped end to) */
	struct genba_gpu_rec h = { .len = (uint32_t)len, .type = type, .api = SHIM_API,
				   .tid = tid, .err = err, .t0 = t0,
				   .t1 = now_ns(CLOCK_MONOTONIC) };
	static const char zeros[8];
	const void *parts[] = { s, name, zeros };
	size_t sizes[] = { size, a, len - sizeof(h) - size - a };
	ring_put(&h, parts, sizes, 3);
}

/* Text in a fixed buffer, cut at its end. */
struct text {
	char b[1024];
	size_t n;
};

/* An empty text `t` (not zeroed: add() keeps it terminated). */
#define TEXT(t)                                                                \
	struct text t;                                                         \
	t.n = 0;                                                               \
	t.b[0] = 0

static void put_char(struct text *t, char c)
{
	if (t->n < sizeof(t->b) - 1)
		t->b[t->n++] = c;
	t->b[t->n] = 0;
}

static void put_str(struct text *t, const char *s)
{
	while (*s && t->n < sizeof(t->b) - 1)
		t->b[t->n++] = *s++;
	t->b[t->n] = 0;
}

/* Digits in base 10 or 16 (constant divisors: no division instruction). */
static void put_num(struct text *t, unsigned long long v, int base)
{
	char d[24];
	int n = 0;
	if (base == 16) {
		do {
			d[n++] = "0123456789abcdef"[v & 15];
			v >>= 4;
		} while (v);
	} else {
		do {
			d[n++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
	}
	while (n)
		put_char(t, d[--n]);
}

/* Appends text as printf would, for the few conversions the calls' texts
 * use (%s %d %u %zu %lu %p %#x %#lx; an unknown one is written as it is,
 * its argument not taken), without printf: this runs for every call the
 * program makes, and vfprintf was most of the layer's cost. NULL pointers
 * print as NULL, as strace prints them; %#x of 0 is 0. The compiler checks
 * each format's arguments as printf's. */
__attribute__((format(printf, 2, 3))) static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	for (const char *f = fmt; *f; f++) {
		if (*f != '%') {
			put_char(t, *f);
			continue;
		}
		f++;
		if (*f == 's') {
			const char *v = va_arg(ap, const char *);
			put_str(t, v ? v : "NULL");
		} else if (*f == 'd') {
			int v = va_arg(ap, int);
			if (v < 0) {
				put_char(t, '-');
				put_num(t, -(long long)v, 10);
			} else {
				put_num(t, (unsigned long long)v, 10);
			}
		} else if (*f == 'u') {
			put_num(t, va_arg(ap, unsigned int), 10);
		} else if (f[0] == 'z' && f[1] == 'u') {
			f++;
			put_num(t, va_arg(ap, size_t), 10);
		} else if (f[0] == 'l' && f[1] == 'u') {
			f++;
			put_num(t, va_arg(ap, unsigned long), 10);
		} else if (f[0] == '#' && f[1] == 'x') {
			unsigned int v = va_arg(ap, unsigned int);
			f++;
			if (v)
				put_str(t, "0x");
			put_num(t, v, 16);
		} else if (*f == 'p') {
			void *v = va_arg(ap, void *);
			if (!v) {
				put_str(t, "NULL");
			} else {
				put_str(t, "0x");
				put_num(t, (uintptr_t)v, 16);
			}
		} else if (f[0] == '#' && f[1] == 'l' && f[2] == 'x') {
			unsigned long v = va_arg(ap, unsigned long);
			f += 2;
			if (v)
				put_str(t, "0x");
			put_num(t, v, 16);
		} else {
			/* a conversion this does not know: the format as is */
			put_char(t, '%');
			if (*f)
				put_char(t, *f);
			else
				break;
		}
	}
	va_end(ap);
}

#endif
