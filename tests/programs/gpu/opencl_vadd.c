/*
 * opencl_vadd [profiled|plain] [N] [ROUNDS]: adds two vectors of N floats on
 * the first OpenCL device, ROUNDS times, and prints what it measured of
 * itself as JSON:
 * - profiled: its queue has profiling on; each kernel's own device times
 *   (QUEUED, SUBMIT, START, END, on the device's clock) and, on
 *   CLOCK_MONOTONIC, the moment before its enqueue and after its wait;
 * - plain: no profiling, no events asked for: the program checks that it
 *   sees no profiling (the queue's properties, an event's profiling info).
 * Either way it checks every sum (a layer must not change a result).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *src =
	"__kernel void vadd(__global const float *a, __global const float *b,\n"
	"                   __global float *c) {\n"
	"    size_t i = get_global_id(0);\n"
	"    c[i] = a[i] + b[i];\n"
	"}\n";

static unsigned long long mono(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000000ull + t.tv_nsec;
}

#define CHECK(e)                                                                 \
	do {                                                                     \
		cl_int _e = (e);                                                 \
		if (_e != CL_SUCCESS) {                                          \
			fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #e, _e); \
			return 1;                                                \
		}                                                                \
	} while (0)

int main(int argc, char **argv)
{
	unsigned long long began = mono();
	int profiled = argc < 2 || strcmp(argv[1], "plain") != 0;
	size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 1 << 20;
	int rounds = argc > 3 ? atoi(argv[3]) : 5;
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &plat, NULL));
	CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(err);
	cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
	cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, profiled ? props : NULL, &err);
	CHECK(err);
	float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float)), *c = malloc(n * sizeof(float));
	for (size_t i = 0; i < n; i++) {
		a[i] = (float)i;
		b[i] = (float)(2 * i);
	}
	cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY, n * sizeof(float), NULL, &err);
	CHECK(err);
	cl_mem bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY, n * sizeof(float), NULL, &err);
	CHECK(err);
	cl_mem bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(float), NULL, &err);
	CHECK(err);
	CHECK(clEnqueueWriteBuffer(q, ba, CL_TRUE, 0, n * sizeof(float), a, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(q, bb, CL_TRUE, 0, n * sizeof(float), b, 0, NULL, NULL));
	cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
	cl_kernel k = clCreateKernel(p, "vadd", &err);
	CHECK(err);
	/* an error, on purpose: a kernel that does not exist */
	cl_kernel bad = clCreateKernel(p, "no_such_kernel", &err);
	if (bad || err != CL_INVALID_KERNEL_NAME) {
		fprintf(stderr, "clCreateKernel(no_such_kernel) = %d\n", err);
		return 1;
	}
	CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &ba));
	CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &bb));
	CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &bc));
	printf("{\"device\": \"");
	{
		char name[256] = "";
		clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name) - 1, name, NULL);
		printf("%s", name);
	}
	printf("\", \"n\": %zu, \"kernels\": [", n);
	for (int r = 0; r < rounds; r++) {
		cl_event ev = NULL;
		unsigned long long before = mono();
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, profiled ? &ev : NULL));
		if (profiled)
			CHECK(clWaitForEvents(1, &ev));
		else
			CHECK(clFinish(q));
		unsigned long long after = mono();
		printf("%s{\"before\": %llu, \"after\": %llu", r ? ", " : "", before, after);
		if (profiled) {
			cl_ulong t[4];
			cl_profiling_info w[4] = { CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
						   CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END };
			for (int i = 0; i < 4; i++)
				CHECK(clGetEventProfilingInfo(ev, w[i], sizeof(t[i]), &t[i], NULL));
			printf(", \"queued\": %llu, \"submit\": %llu, \"start\": %llu, \"end\": %llu",
			       (unsigned long long)t[0], (unsigned long long)t[1],
			       (unsigned long long)t[2], (unsigned long long)t[3]);
			clReleaseEvent(ev);
		}
		printf("}");
	}
	printf("]");
	CHECK(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, n * sizeof(float), c, 0, NULL, NULL));
	int ok = 1;
	for (size_t i = 0; i < n; i++)
		if (c[i] != (float)(3 * i))
			ok = 0;
	printf(", \"sums_ok\": %s", ok ? "true" : "false");
	if (profiled) {
		/* the other kinds of command, each checked */
		float pat = 1.5f;
		size_t origin[3] = { 0, 0, 0 }, region[3] = { 64 * sizeof(float), 4, 1 };
		CHECK(clEnqueueCopyBuffer(q, bc, ba, 0, 0, n * sizeof(float), 0, NULL, NULL));
		CHECK(clEnqueueFillBuffer(q, bb, &pat, sizeof(pat), 0, n * sizeof(float), 0, NULL, NULL));
		float *m = clEnqueueMapBuffer(q, ba, CL_TRUE, CL_MAP_READ, 0, n * sizeof(float), 0, NULL,
					      NULL, &err);
		CHECK(err);
		int copy_ok = m[7] == 21.0f;
		CHECK(clEnqueueUnmapMemObject(q, ba, m, 0, NULL, NULL));
		CHECK(clEnqueueReadBufferRect(q, bb, CL_TRUE, origin, origin, region, 0, 0, 0, 0, c, 0,
					      NULL, NULL));
		int fill_ok = c[0] == 1.5f && c[255] == 1.5f;
		cl_event mk;
		CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &mk));
		CHECK(clWaitForEvents(1, &mk));
		clReleaseEvent(mk);
		printf(", \"others_ok\": %s", copy_ok && fill_ok ? "true" : "false");
	}
	if (!profiled) {
		/* what the program sees of profiling it did not ask for */
		cl_command_queue_properties qp = 0;
		CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(qp), &qp, NULL));
		cl_event m;
		CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &m));
		CHECK(clWaitForEvents(1, &m));
		cl_ulong t;
		cl_int pe = clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_END, sizeof(t), &t, NULL);
		printf(", \"queue_profiling\": %s, \"event_profiling_error\": %d",
		       (qp & CL_QUEUE_PROFILING_ENABLE) ? "true" : "false", pe);
		clReleaseEvent(m);
	}
	/* its own run, for bench/gpu.sh */
	printf(", \"wall_ns\": %llu}\n", mono() - began);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseMemObject(ba);
	clReleaseMemObject(bb);
	clReleaseMemObject(bc);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return ok ? 0 : 1;
}
