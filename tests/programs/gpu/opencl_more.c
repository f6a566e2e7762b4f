/*
 * opencl_more: the OpenCL calls beyond the common path, each answer the
 * program sees printed as JSON (no handles, no times), so that a run under
 * genba can be compared with a run without it:
 * - platforms and devices counted, then taken;
 * - three queues made with profiling asked in three ways (no list, an
 *   empty list, CL_QUEUE_PROPERTIES 0), each one's CL_QUEUE_PROPERTIES and
 *   CL_QUEUE_PROPERTIES_ARRAY as the program sees them (pocl leaves
 *   OpenCL 1.0's clSetCommandQueueProperty out of its dispatch table: a
 *   call crashes in the ICD loader, so it is not called here);
 * - a program compiled and linked, its kernels made at once, one cloned;
 *   the same program again from its binary; an IL that is not one;
 * - a buffer with properties, a sub-buffer, images (1.2, 3.0 and 1.0
 *   calls), an SVM migration;
 * - the cloned kernel run on the sub-buffer, its result checked.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src = "__kernel void twice(__global float *a) {\n"
			 "  size_t i = get_global_id(0); a[i] = 2.0f * a[i];\n"
			 "}\n"
			 "__kernel void plus1(__global float *a) { a[get_global_id(0)] += 1.0f; }\n";

static int first = 1;

static void key(const char *k)
{
	printf("%s\"%s\": ", first ? "" : ", ", k);
	first = 0;
}

static void num(const char *k, long v)
{
	key(k);
	printf("%ld", v);
}

/* a queue's properties and properties array, as the program sees them */
static void queue_view(const char *name, cl_command_queue q)
{
	cl_command_queue_properties p = 0;
	cl_queue_properties arr[32];
	size_t got = 0;
	char k[64];
	cl_int e = clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(p), &p, NULL);
	snprintf(k, sizeof(k), "%s_properties", name);
	num(k, e ? e : (long)p);
	e = clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &got);
	snprintf(k, sizeof(k), "%s_array_size", name);
	num(k, e ? e : (long)got);
	memset(arr, 0, sizeof(arr));
	if (!e && got && got <= sizeof(arr)) {
		e = clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, got, arr, NULL);
		snprintf(k, sizeof(k), "%s_array", name);
		key(k);
		printf("[");
		for (size_t i = 0; i < got / sizeof(arr[0]); i++)
			printf("%s%lu", i ? ", " : "", (unsigned long)arr[i]);
		printf("]");
	}
	/* a marker's profiling, as the program's queue allows */
	{
		cl_event ev;
		cl_ulong t = 0;
		if (!clEnqueueMarkerWithWaitList(q, 0, NULL, &ev)) {
			clFinish(q);
			snprintf(k, sizeof(k), "%s_event_profiling", name);
			num(k, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t), &t,
						       NULL));
			clReleaseEvent(ev);
		}
	}
}

int main(void)
{
	cl_uint np = 0, nd = 0, nk = 0;
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	printf("{");
	num("platforms_counted", clGetPlatformIDs(0, NULL, &np));
	num("platforms", np);
	if (clGetPlatformIDs(1, &plat, NULL) ||
	    clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 0, NULL, &nd) ||
	    clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL))
		return 1;
	num("devices", nd);
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);

	/* queues */
	cl_queue_properties empty[] = { 0 };
	cl_queue_properties zero[] = { CL_QUEUE_PROPERTIES, 0, 0 };
	cl_command_queue qn = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
	cl_command_queue qe = clCreateCommandQueueWithProperties(ctx, dev, empty, &err);
	cl_command_queue qz = clCreateCommandQueueWithProperties(ctx, dev, zero, &err);
	cl_command_queue q1 = clCreateCommandQueue(ctx, dev, 0, &err);
	queue_view("null", qn);
	queue_view("empty", qe);
	queue_view("zero", qz);
	queue_view("old", q1);
	/* programs and kernels */
	cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	num("compile", clCompileProgram(p, 1, &dev, "", 0, NULL, NULL, NULL, NULL));
	cl_program linked = clLinkProgram(ctx, 1, &dev, "", 1, &p, NULL, NULL, &err);
	num("link", err);
	num("kernels_counted", clCreateKernelsInProgram(linked, 0, NULL, &nk));
	num("kernels", nk);
	cl_kernel ks[8];
	if (nk > 8 || clCreateKernelsInProgram(linked, nk, ks, NULL))
		return 1;
	cl_kernel twice = NULL;
	for (cl_uint i = 0; i < nk; i++) {
		char name[64] = "";
		clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL);
		if (!strcmp(name, "twice"))
			twice = ks[i];
	}
	cl_kernel clone = clCloneKernel(twice, &err);
	num("clone", err);
	size_t bsize = 0;
	clGetProgramInfo(linked, CL_PROGRAM_BINARY_SIZES, sizeof(bsize), &bsize, NULL);
	unsigned char *bin = malloc(bsize ? bsize : 1);
	clGetProgramInfo(linked, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL);
	cl_int status = -1;
	cl_program frombin = clCreateProgramWithBinary(ctx, 1, &dev, &bsize,
						       (const unsigned char **)&bin, &status, &err);
	num("binary", err);
	num("binary_status", status);
	num("binary_build", clBuildProgram(frombin, 1, &dev, "", NULL, NULL));
	{
		static const unsigned char not_il[16] = "not an IL at all";
		cl_program il = clCreateProgramWithIL(ctx, not_il, sizeof(not_il), &err);
		num("il", err);
		if (il)
			clReleaseProgram(il);
	}

	/* memory */
	float host[256];
	for (int i = 0; i < 256; i++)
		host[i] = (float)i;
	cl_mem buf = clCreateBufferWithProperties(ctx, NULL, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
						  sizeof(host), host, &err);
	num("buffer_with_properties", err);
	cl_buffer_region region = { 0, 128 * sizeof(float) };
	cl_mem sub = clCreateSubBuffer(buf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region,
				       &err);
	num("sub_buffer", err);
	{
		cl_image_format fmt = { CL_RGBA, CL_FLOAT };
		cl_image_desc desc = { 0 };
		desc.image_type = CL_MEM_OBJECT_IMAGE2D;
		desc.image_width = 16;
		desc.image_height = 16;
		cl_mem img = clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
		num("image", err);
		if (img)
			clReleaseMemObject(img);
		img = clCreateImageWithProperties(ctx, NULL, CL_MEM_READ_WRITE, &fmt, &desc, NULL,
						  &err);
		num("image_with_properties", err);
		if (img)
			clReleaseMemObject(img);
		img = clCreateImage2D(ctx, CL_MEM_READ_WRITE, &fmt, 16, 16, 0, NULL, &err);
		num("image2d", err);
		if (img)
			clReleaseMemObject(img);
		img = clCreateImage3D(ctx, CL_MEM_READ_WRITE, &fmt, 8, 8, 8, 0, 0, NULL, &err);
		num("image3d", err);
		if (img)
			clReleaseMemObject(img);
	}
	{
		void *svm = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 4096, 0);
		size_t size = 4096;
		const void *ptrs[] = { svm };
		num("svm_alloc", svm != NULL);
		if (svm) {
			num("svm_migrate",
			    clEnqueueSVMMigrateMem(qn, 1, ptrs, &size, 0, 0, NULL, NULL));
			clFinish(qn);
			clSVMFree(ctx, svm);
		}
	}

	/* the cloned kernel on the sub-buffer */
	size_t n = 128;
	clSetKernelArg(clone, 0, sizeof(sub), &sub);
	num("run", clEnqueueNDRangeKernel(qz, clone, 1, NULL, &n, NULL, 0, NULL, NULL));
	clEnqueueReadBuffer(qz, buf, CL_TRUE, 0, sizeof(host), host, 0, NULL, NULL);
	int ok = 1;
	for (int i = 0; i < 256; i++)
		ok &= host[i] == (float)(i < 128 ? 2 * i : i);
	num("result_ok", ok);
	printf("}\n");

	clReleaseMemObject(sub);
	clReleaseMemObject(buf);
	clReleaseKernel(clone);
	for (cl_uint i = 0; i < nk; i++)
		clReleaseKernel(ks[i]);
	clReleaseProgram(frombin);
	clReleaseProgram(linked);
	clReleaseProgram(p);
	free(bin);
	clReleaseCommandQueue(qn);
	clReleaseCommandQueue(qe);
	clReleaseCommandQueue(qz);
	clReleaseCommandQueue(q1);
	clReleaseContext(ctx);
	return ok ? 0 : 1;
}
