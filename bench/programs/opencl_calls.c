/*
 * opencl_calls N: times N calls of clSetKernelArg (a call the driver
 * answers at once) and N enqueues of an empty kernel (each waited for),
 * each loop bracketed by CLOCK_MONOTONIC; prints the ns per call of each.
 * bench/gpu.sh runs it with and without genba's OpenCL layer.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double mono(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	const char *src = "__kernel void nop(int x) { }\n";
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	if (clGetPlatformIDs(1, &plat, NULL) || clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL))
		return 1;
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
	cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	if (clBuildProgram(p, 1, &dev, "", NULL, NULL))
		return 1;
	cl_kernel k = clCreateKernel(p, "nop", &err);
	int x = 0;
	double t0 = mono();
	for (long i = 0; i < n; i++)
		clSetKernelArg(k, 0, sizeof(x), &x);
	double t1 = mono();
	size_t one = 1;
	long m = n / 100 + 1;
	for (long i = 0; i < m; i++) {
		clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL);
		clFinish(q);
	}
	double t2 = mono();
	printf("%.1f %.1f\n", (t1 - t0) / n, (t2 - t1) / m);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
