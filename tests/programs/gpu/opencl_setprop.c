/*
 * opencl_setprop: a queue made without profiling, then OpenCL 1.0's
 * clSetCommandQueueProperty turning profiling on and off again; prints
 * what each answer told the program (the old properties, the queue's
 * properties after), as JSON.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>

static long props(cl_command_queue q)
{
	cl_command_queue_properties p = 0;
	cl_int e = clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(p), &p, NULL);
	return e ? e : (long)p;
}

int main(void)
{
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	cl_command_queue_properties old_on = 0, old_off = 0, old_again = 0;
	if (clGetPlatformIDs(1, &plat, NULL) || clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL))
		return 1;
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	long made = props(q);
	cl_int on = clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old_on);
	long after_on = props(q);
	cl_int off = clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_FALSE, &old_off);
	long after_off = props(q);
	cl_int again = clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_FALSE, &old_again);
	printf("{\"made\": %ld, \"on\": %d, \"old_on\": %lu, \"after_on\": %ld, \"off\": %d, "
	       "\"old_off\": %lu, \"after_off\": %ld, \"again\": %d, \"old_again\": %lu, "
	       "\"after_again\": %ld}\n",
	       made, on, (unsigned long)old_on, after_on, off, (unsigned long)old_off, after_off,
	       again, (unsigned long)old_again, props(q));
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
