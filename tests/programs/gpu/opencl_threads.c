/*
 * opencl_threads [THREADS] [ROUNDS] [N]: THREADS threads (default 2), each
 * with its own in-order queue (profiling on) in one shared context, its own
 * buffers and kernel, enqueue ROUNDS kernels (default 4) of N floats
 * (default 65536) at the same time, each waited for with its event. Each
 * thread measures its own truth: its queue's handle, and for each kernel
 * CLOCK_MONOTONIC before its enqueue and after its wait, and its device
 * times (QUEUED, SUBMIT, START, END). Prints {"threads": [{"tid", "queue",
 * "kernels": [{"before", "after", "queued", "submit", "start", "end"}]}],
 * "ok"}; every sum is checked.
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static const char *src = "__kernel void twice(__global const float *a, __global float *b) {\n"
			 "    size_t i = get_global_id(0);\n"
			 "    b[i] = 2.0f * a[i];\n"
			 "}\n";

#define MAX_ROUNDS 64
static cl_context ctx;
static cl_device_id dev;
static cl_program prog;
static size_t n = 65536;
static int rounds = 4;

struct side {
	pthread_t t;
	pid_t tid;
	cl_command_queue q;
	int ok;
	unsigned long long k[MAX_ROUNDS][6];
};

static unsigned long long mono(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000000ull + t.tv_nsec;
}

static void *work(void *arg)
{
	struct side *s = arg;
	cl_int err;
	cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
	float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
	s->tid = gettid();
	for (size_t i = 0; i < n; i++)
		a[i] = (float)(i % 1000);
	s->q = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
	cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), a, &err);
	cl_mem bb = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(float), NULL, &err);
	cl_kernel k = clCreateKernel(prog, "twice", &err);
	clEnqueueWriteBuffer(s->q, ba, CL_TRUE, 0, n * sizeof(float), a, 0, NULL, NULL);
	clSetKernelArg(k, 0, sizeof(cl_mem), &ba);
	clSetKernelArg(k, 1, sizeof(cl_mem), &bb);
	s->ok = err == CL_SUCCESS;
	for (int r = 0; r < rounds; r++) {
		cl_event ev;
		cl_profiling_info w[4] = { CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
					   CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END };
		s->k[r][0] = mono();
		s->ok &= clEnqueueNDRangeKernel(s->q, k, 1, NULL, &n, NULL, 0, NULL, &ev) == CL_SUCCESS;
		s->ok &= clWaitForEvents(1, &ev) == CL_SUCCESS;
		s->k[r][1] = mono();
		for (int i = 0; i < 4; i++) {
			cl_ulong t = 0;
			clGetEventProfilingInfo(ev, w[i], sizeof(t), &t, NULL);
			s->k[r][2 + i] = t;
		}
		clReleaseEvent(ev);
	}
	s->ok &= clEnqueueReadBuffer(s->q, bb, CL_TRUE, 0, n * sizeof(float), b, 0, NULL, NULL) ==
		 CL_SUCCESS;
	for (size_t i = 0; i < n; i++)
		s->ok &= b[i] == 2.0f * a[i];
	clReleaseKernel(k);
	clReleaseMemObject(ba);
	clReleaseMemObject(bb);
	free(a);
	free(b);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 2;
	cl_platform_id plat;
	cl_int err;
	struct side *sides;
	if (argc > 2)
		rounds = atoi(argv[2]);
	if (argc > 3)
		n = strtoul(argv[3], NULL, 10);
	if (threads < 1 || rounds < 1 || rounds > MAX_ROUNDS)
		return 2;
	if (clGetPlatformIDs(1, &plat, NULL) || clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL))
		return 1;
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	if (err || clBuildProgram(prog, 1, &dev, "", NULL, NULL))
		return 1;
	sides = calloc(threads, sizeof(*sides));
	for (int i = 0; i < threads; i++)
		pthread_create(&sides[i].t, NULL, work, &sides[i]);
	int ok = 1;
	printf("{\"threads\": [");
	for (int i = 0; i < threads; i++) {
		pthread_join(sides[i].t, NULL);
		ok &= sides[i].ok;
		printf("%s{\"tid\": %d, \"queue\": \"%p\", \"kernels\": [", i ? ", " : "", sides[i].tid,
		       (void *)sides[i].q);
		for (int r = 0; r < rounds; r++) {
			unsigned long long *k = sides[i].k[r];
			printf("%s{\"before\": %llu, \"after\": %llu, \"queued\": %llu, \"submit\": %llu, "
			       "\"start\": %llu, \"end\": %llu}",
			       r ? ", " : "", k[0], k[1], k[2], k[3], k[4], k[5]);
		}
		printf("]}");
	}
	/* the queues are released when every thread is done: a queue released
	 * while a late thread had not made its own yet gave that thread's the
	 * same address (seen in CI), one handle for two queues */
	for (int i = 0; i < threads; i++)
		clReleaseCommandQueue(sides[i].q);
	printf("], \"ok\": %s}\n", ok ? "true" : "false");
	return ok ? 0 : 1;
}
