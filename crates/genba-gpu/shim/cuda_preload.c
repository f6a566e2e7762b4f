/*
 * genba's CUDA runtime shim: preloaded into the traced program
 * (LD_PRELOAD, by genba's environment only), it defines hooks of the CUDA
 * runtime API's entry points that matter for time (kernel launches, memory
 * allocation, copies and sets, streams, events, synchronisation) under
 * names of their own (genba_hook_cudaLaunchKernel ...), which genba's
 * auditor (shim/gpu_audit.c) binds the program's references to when they
 * were bound to a libcudart the program loaded: a process without the
 * runtime sees nothing of the shim. Each hook forwards to the program's
 * libcudart and records the call in the ring of genba_gpu.h with its
 * decoded arguments and its result's name. Without GENBA_GPU_DIR it only
 * forwards.
 *
 * It needs no CUDA header: the runtime's C interface is declared here with
 * the types it has on x86-64 (an enum is an int, handles are pointers).
 * Programs that link libcudart statically do not come through here; a
 * dlopen of the runtime and dlsym through its handle do.
 *
 * What a device would add (the kernels' and copies' device times, from
 * events recorded around them on their stream) is not here: this machine
 * has no CUDA device to check it against.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

#define SHIM_API GENBA_GPU_CUDA
#include "shim_common.h"
#include "shim_hooks.h"

typedef int cudaError_t;
typedef void *cudaStream_t;
typedef void *cudaEvent_t;
typedef struct {
	unsigned x, y, z;
} dim3;

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

/* `name` in the program's libcudart (the one whose function the auditor
 * bound to the hook). */
static void *next(const char *name)
{
	return real_function(name);
}

/* Each hook is exported as genba_hook_<its function>: only the auditor's
 * binding of a reference to the runtime's function reaches it. */
#define HOOK(f) genba_hook_##f

/* cudaErrorUnknown: what a call answers when there is no runtime to forward
 * to (it cannot happen for a program linked with libcudart) */
#define NO_RUNTIME 999

static const char *error_name(cudaError_t e)
{
	static const char *(*get)(cudaError_t);
	static int looked;
	if (!looked) {
		get = (const char *(*)(cudaError_t))next("cudaGetErrorName");
		looked = 1;
	}
	if (e == 0)
		return "cudaSuccess";
	return get ? get(e) : NULL;
}

static const char *copy_kind(int k)
{
	static const char *names[] = { "cudaMemcpyHostToHost", "cudaMemcpyHostToDevice",
				       "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice",
				       "cudaMemcpyDefault" };
	return k >= 0 && k <= 4 ? names[k] : NULL;
}

/* The call's record: `= cudaSuccess`, or the error's name (its number when
 * the runtime does not name it). */
static void done(const char *fn, uint64_t t0, cudaError_t r, struct text *a)
{
	TEXT(res);
	const char *n = error_name(r);
	put_str(&res, "= ");
	if (n)
		put_str(&res, n);
	else
		add(&res, "%d", r);
	put_call(fn, t0, now_ns(CLOCK_MONOTONIC), r, a->b, res.b);
}

#define BEGIN uint64_t t0 = recording() ? now_ns(CLOCK_MONOTONIC) : 0
/* forwards a call of `fn` typed `type`, its arguments `args` */
#define FORWARD(type, fn, args)                                                \
	static type real;                                                      \
	if (!real)                                                             \
		real = (type)next(#fn);                                        \
	cudaError_t r = real ? real args : NO_RUNTIME
#define RECORD(fn, ...)                                                        \
	do {                                                                   \
		if (recording()) {                                             \
			TEXT(a);                                               \
			add(&a, __VA_ARGS__);                                  \
			done(fn, t0, r, &a);                                   \
		}                                                              \
	} while (0)

/* A kernel by its host stub's name (a symbol the program exports), else
 * its address. */
static void kernel_name(struct text *a, const void *func)
{
	Dl_info info;
	if (func && dladdr(func, &info) && info.dli_sname && info.dli_saddr == func)
		put_str(a, info.dli_sname);
	else
		add(a, "%p", func);
}

EXPORT cudaError_t HOOK(cudaLaunchKernel)(const void *func, dim3 grid, dim3 block, void **args,
				    size_t shared, cudaStream_t stream)
{
	typedef cudaError_t (*F)(const void *, dim3, dim3, void **, size_t, cudaStream_t);
	BEGIN;
	FORWARD(F, cudaLaunchKernel, (func, grid, block, args, shared, stream));
	if (recording()) {
		TEXT(a);
		kernel_name(&a, func);
		add(&a, ", {%u, %u, %u}, {%u, %u, %u}, %p, %zu, %p", grid.x, grid.y, grid.z,
		    block.x, block.y, block.z, (void *)args, shared, stream);
		done("cudaLaunchKernel", t0, r, &a);
	}
	return r;
}

EXPORT cudaError_t HOOK(cudaMalloc)(void **p, size_t size)
{
	typedef cudaError_t (*F)(void **, size_t);
	BEGIN;
	FORWARD(F, cudaMalloc, (p, size));
	if (r == 0 && p)
		RECORD("cudaMalloc", "[%p], %zu", *p, size);
	else
		RECORD("cudaMalloc", "%p, %zu", (void *)p, size);
	return r;
}

EXPORT cudaError_t HOOK(cudaMallocHost)(void **p, size_t size)
{
	typedef cudaError_t (*F)(void **, size_t);
	BEGIN;
	FORWARD(F, cudaMallocHost, (p, size));
	if (r == 0 && p)
		RECORD("cudaMallocHost", "[%p], %zu", *p, size);
	else
		RECORD("cudaMallocHost", "%p, %zu", (void *)p, size);
	return r;
}

EXPORT cudaError_t HOOK(cudaMallocManaged)(void **p, size_t size, unsigned flags)
{
	typedef cudaError_t (*F)(void **, size_t, unsigned);
	BEGIN;
	FORWARD(F, cudaMallocManaged, (p, size, flags));
	if (r == 0 && p)
		RECORD("cudaMallocManaged", "[%p], %zu, %#x", *p, size, flags);
	else
		RECORD("cudaMallocManaged", "%p, %zu, %#x", (void *)p, size, flags);
	return r;
}

EXPORT cudaError_t HOOK(cudaFree)(void *p)
{
	typedef cudaError_t (*F)(void *);
	BEGIN;
	FORWARD(F, cudaFree, (p));
	RECORD("cudaFree", "%p", p);
	return r;
}

EXPORT cudaError_t HOOK(cudaFreeHost)(void *p)
{
	typedef cudaError_t (*F)(void *);
	BEGIN;
	FORWARD(F, cudaFreeHost, (p));
	RECORD("cudaFreeHost", "%p", p);
	return r;
}

/* cudaMemcpy's direction by name, or its number */
#define KIND(k) (copy_kind(k) ? copy_kind(k) : "?")

EXPORT cudaError_t HOOK(cudaMemcpy)(void *dst, const void *src, size_t n, int kind)
{
	typedef cudaError_t (*F)(void *, const void *, size_t, int);
	BEGIN;
	FORWARD(F, cudaMemcpy, (dst, src, n, kind));
	RECORD("cudaMemcpy", "%p, %p, %zu, %s", dst, src, n, KIND(kind));
	return r;
}

EXPORT cudaError_t HOOK(cudaMemcpyAsync)(void *dst, const void *src, size_t n, int kind,
				   cudaStream_t s)
{
	typedef cudaError_t (*F)(void *, const void *, size_t, int, cudaStream_t);
	BEGIN;
	FORWARD(F, cudaMemcpyAsync, (dst, src, n, kind, s));
	RECORD("cudaMemcpyAsync", "%p, %p, %zu, %s, %p", dst, src, n, KIND(kind), s);
	return r;
}

EXPORT cudaError_t HOOK(cudaMemset)(void *p, int v, size_t n)
{
	typedef cudaError_t (*F)(void *, int, size_t);
	BEGIN;
	FORWARD(F, cudaMemset, (p, v, n));
	RECORD("cudaMemset", "%p, %d, %zu", p, v, n);
	return r;
}

EXPORT cudaError_t HOOK(cudaMemsetAsync)(void *p, int v, size_t n, cudaStream_t s)
{
	typedef cudaError_t (*F)(void *, int, size_t, cudaStream_t);
	BEGIN;
	FORWARD(F, cudaMemsetAsync, (p, v, n, s));
	RECORD("cudaMemsetAsync", "%p, %d, %zu, %p", p, v, n, s);
	return r;
}

EXPORT cudaError_t HOOK(cudaDeviceSynchronize)(void)
{
	typedef cudaError_t (*F)(void);
	BEGIN;
	FORWARD(F, cudaDeviceSynchronize, ());
	RECORD("cudaDeviceSynchronize", "%s", "");
	return r;
}

EXPORT cudaError_t HOOK(cudaStreamCreate)(cudaStream_t *s)
{
	typedef cudaError_t (*F)(cudaStream_t *);
	BEGIN;
	FORWARD(F, cudaStreamCreate, (s));
	if (r == 0 && s)
		RECORD("cudaStreamCreate", "[%p]", *s);
	else
		RECORD("cudaStreamCreate", "%p", (void *)s);
	return r;
}

EXPORT cudaError_t HOOK(cudaStreamCreateWithFlags)(cudaStream_t *s, unsigned flags)
{
	typedef cudaError_t (*F)(cudaStream_t *, unsigned);
	BEGIN;
	FORWARD(F, cudaStreamCreateWithFlags, (s, flags));
	if (r == 0 && s)
		RECORD("cudaStreamCreateWithFlags", "[%p], %#x", *s, flags);
	else
		RECORD("cudaStreamCreateWithFlags", "%p, %#x", (void *)s, flags);
	return r;
}

EXPORT cudaError_t HOOK(cudaStreamDestroy)(cudaStream_t s)
{
	typedef cudaError_t (*F)(cudaStream_t);
	BEGIN;
	FORWARD(F, cudaStreamDestroy, (s));
	RECORD("cudaStreamDestroy", "%p", s);
	return r;
}

EXPORT cudaError_t HOOK(cudaStreamSynchronize)(cudaStream_t s)
{
	typedef cudaError_t (*F)(cudaStream_t);
	BEGIN;
	FORWARD(F, cudaStreamSynchronize, (s));
	RECORD("cudaStreamSynchronize", "%p", s);
	return r;
}

EXPORT cudaError_t HOOK(cudaStreamWaitEvent)(cudaStream_t s, cudaEvent_t e, unsigned flags)
{
	typedef cudaError_t (*F)(cudaStream_t, cudaEvent_t, unsigned);
	BEGIN;
	FORWARD(F, cudaStreamWaitEvent, (s, e, flags));
	RECORD("cudaStreamWaitEvent", "%p, %p, %#x", s, e, flags);
	return r;
}

EXPORT cudaError_t HOOK(cudaEventCreate)(cudaEvent_t *e)
{
	typedef cudaError_t (*F)(cudaEvent_t *);
	BEGIN;
	FORWARD(F, cudaEventCreate, (e));
	if (r == 0 && e)
		RECORD("cudaEventCreate", "[%p]", *e);
	else
		RECORD("cudaEventCreate", "%p", (void *)e);
	return r;
}

EXPORT cudaError_t HOOK(cudaEventRecord)(cudaEvent_t e, cudaStream_t s)
{
	typedef cudaError_t (*F)(cudaEvent_t, cudaStream_t);
	BEGIN;
	FORWARD(F, cudaEventRecord, (e, s));
	RECORD("cudaEventRecord", "%p, %p", e, s);
	return r;
}

EXPORT cudaError_t HOOK(cudaEventSynchronize)(cudaEvent_t e)
{
	typedef cudaError_t (*F)(cudaEvent_t);
	BEGIN;
	FORWARD(F, cudaEventSynchronize, (e));
	RECORD("cudaEventSynchronize", "%p", e);
	return r;
}

EXPORT cudaError_t HOOK(cudaEventDestroy)(cudaEvent_t e)
{
	typedef cudaError_t (*F)(cudaEvent_t);
	BEGIN;
	FORWARD(F, cudaEventDestroy, (e));
	RECORD("cudaEventDestroy", "%p", e);
	return r;
}

EXPORT cudaError_t HOOK(cudaGetDeviceCount)(int *n)
{
	typedef cudaError_t (*F)(int *);
	BEGIN;
	FORWARD(F, cudaGetDeviceCount, (n));
	if (r == 0 && n)
		RECORD("cudaGetDeviceCount", "[%d]", *n);
	else
		RECORD("cudaGetDeviceCount", "%p", (void *)n);
	return r;
}

EXPORT cudaError_t HOOK(cudaSetDevice)(int d)
{
	typedef cudaError_t (*F)(int);
	BEGIN;
	FORWARD(F, cudaSetDevice, (d));
	RECORD("cudaSetDevice", "%d", d);
	return r;
}

EXPORT cudaError_t HOOK(cudaRuntimeGetVersion)(int *v)
{
	typedef cudaError_t (*F)(int *);
	BEGIN;
	FORWARD(F, cudaRuntimeGetVersion, (v));
	if (r == 0 && v)
		RECORD("cudaRuntimeGetVersion", "[%d]", *v);
	else
		RECORD("cudaRuntimeGetVersion", "%p", (void *)v);
	return r;
}

EXPORT cudaError_t HOOK(cudaDriverGetVersion)(int *v)
{
	typedef cudaError_t (*F)(int *);
	BEGIN;
	FORWARD(F, cudaDriverGetVersion, (v));
	if (r == 0 && v)
		RECORD("cudaDriverGetVersion", "[%d]", *v);
	else
		RECORD("cudaDriverGetVersion", "%p", (void *)v);
	return r;
}
