/*
 * opencl_calls N: times N calls of clSetKernelArg (a call the driver
 * answers at once), N/100 enqueues of an empty kernel (each waited for)
 * and N calls of clGetEventProfilingInfo on a completed event of a queue
 * made with profiling, each loop bracketed by CLOCK_MONOTONIC; prints the
 * ns per call of each.
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
	cl_queue_properties prof[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
	cl_command_queue pq = clCreateCommandQueueWithProperties(ctx, dev, prof, &err);
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
	cl_event ev;
	cl_ulong end = 0;
	if (clEnqueueMarkerWithWaitList(pq, 0, NULL, &ev) || clFinish(pq))
		return 1;
	double t3 = mono();
	for (long i = 0; i < n; i++)
		clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(end), &end, NULL);
	double t4 = mono();
	printf("%.1f %.1f %.1f\n", (t1 - t0) / n, (t2 - t1) / m, (t4 - t3) / n);
	clReleaseEvent(ev);
	clReleaseCommandQueue(pq);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
