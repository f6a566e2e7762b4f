/* Calls of the CUDA runtime API (libcudart, from PyPI's
 * nvidia-cuda-runtime-cu12), from two threads: kernel launches, memory
 * allocation, copies and sets, streams, events and synchronisation. On a
 * machine without a device (or a driver) each call fails, which is what
 * genba's CUDA shim is tested on: each call recorded on its thread, with
 * its arguments and the name of the error the runtime returned.
 * Prints {"calls": [{"tid", "name", "code", "error", "value"}, ...]} in
 * call order per thread (the runtime's own cudaGetErrorName; value: what a
 * version call answered). Build with -rdynamic:
 * a kernel is named by its host stub's exported symbol.
 * The runtime's C interface is declared here (no CUDA headers needed). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

typedef int cudaError_t;
typedef void *cudaStream_t;
typedef void *cudaEvent_t;
typedef struct {
	unsigned x, y, z;
} dim3;
cudaError_t cudaRuntimeGetVersion(int *);
cudaError_t cudaDriverGetVersion(int *);
cudaError_t cudaGetDeviceCount(int *);
cudaError_t cudaSetDevice(int);
cudaError_t cudaMalloc(void **, size_t);
cudaError_t cudaFree(void *);
cudaError_t cudaMemcpy(void *, const void *, size_t, int);
cudaError_t cudaMemcpyAsync(void *, const void *, size_t, int, cudaStream_t);
cudaError_t cudaMemset(void *, int, size_t);
cudaError_t cudaStreamCreate(cudaStream_t *);
cudaError_t cudaStreamSynchronize(cudaStream_t);
cudaError_t cudaStreamDestroy(cudaStream_t);
cudaError_t cudaEventCreate(cudaEvent_t *);
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t);
cudaError_t cudaEventSynchronize(cudaEvent_t);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t);
const char *cudaGetErrorName(cudaError_t);

/* the host stub a kernel launch names */
void vadd(float *a, float *b, float *c, int n)
{
	(void)a, (void)b, (void)c, (void)n;
}

#define MAX 64
static struct {
	int tid;
	const char *name;
	cudaError_t code;
	int value; /* what a version call answered */
} calls[MAX];
static int ncalls;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void note(const char *name, cudaError_t e, int value)
{
	pthread_mutex_lock(&lock);
	if (ncalls < MAX)
		calls[ncalls++] = (typeof(calls[0])){ gettid(), name, e, value };
	pthread_mutex_unlock(&lock);
}

#define CALL(f, ...) note(#f, f(__VA_ARGS__), 0)

static float host[256];

static void *work(void *arg)
{
	int n = 0;
	void *d = NULL;
	cudaStream_t s = NULL;
	cudaEvent_t ev = NULL;
	float *a = NULL, *b = NULL, *c = NULL;
	int len = 256;
	void *args[] = { &a, &b, &c, &len };
	dim3 grid = { 4, 1, 1 }, block = { 64, 1, 1 };
	int v = 0;
	(void)arg;
	/* these answer without a device */
	cudaError_t e = cudaRuntimeGetVersion(&v);
	note("cudaRuntimeGetVersion", e, v);
	e = cudaDriverGetVersion(&v);
	note("cudaDriverGetVersion", e, v);
	CALL(cudaGetDeviceCount, &n);
	CALL(cudaSetDevice, 0);
	CALL(cudaMalloc, &d, sizeof(host));
	CALL(cudaMemcpy, d, host, sizeof(host), 1);
	CALL(cudaMemset, d, 0, sizeof(host));
	CALL(cudaStreamCreate, &s);
	CALL(cudaLaunchKernel, (const void *)vadd, grid, block, args, 0, s);
	CALL(cudaMemcpyAsync, host, d, sizeof(host), 2, s);
	CALL(cudaEventCreate, &ev);
	CALL(cudaEventRecord, ev, s);
	CALL(cudaEventSynchronize, ev);
	CALL(cudaStreamSynchronize, s);
	CALL(cudaStreamDestroy, s);
	CALL(cudaFree, d);
	CALL(cudaDeviceSynchronize);
	return NULL;
}

int main(void)
{
	pthread_t t;
	work(NULL);
	pthread_create(&t, NULL, work, NULL);
	pthread_join(t, NULL);
	printf("{\"calls\": [");
	for (int i = 0; i < ncalls; i++) {
		const char *e = cudaGetErrorName(calls[i].code);
		printf("%s{\"tid\": %d, \"name\": \"%s\", \"code\": %d, \"error\": \"%s\", "
		       "\"value\": %d}",
		       i ? ", " : "", calls[i].tid, calls[i].name, calls[i].code, e ? e : "",
		       calls[i].value);
	}
	printf("]}\n");
	return 0;
}
