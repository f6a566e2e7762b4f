/*
 * fake_icd: an OpenCL ICD (a driver the ICD loader loads, named by an .icd
 * file in $OCL_ICD_VENDORS) with one platform, one device, contexts and
 * queues, and nothing else. It implements what pocl leaves out, OpenCL
 * 1.0's clSetCommandQueueProperty, so that genba's handling of it can be
 * checked. Each queue's real properties are printed to stderr when it is
 * released ("fake_icd: queue released with properties 0x2").
 *
 * Like some drivers, it links libOpenCL and calls it for itself (once, when
 * a context is made): a call genba must not take for the program's.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl_icd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

static struct _cl_icd_dispatch table;

struct _cl_platform_id {
	struct _cl_icd_dispatch *d;
};
struct _cl_device_id {
	struct _cl_icd_dispatch *d;
};
struct _cl_context {
	struct _cl_icd_dispatch *d;
};
struct _cl_command_queue {
	struct _cl_icd_dispatch *d;
	cl_command_queue_properties props;
	cl_uint refs;
};

static struct _cl_platform_id platform = { &table };
static struct _cl_device_id device = { &table };

static cl_int answer(const void *v, size_t n, size_t size, void *value, size_t *ret)
{
	if (ret)
		*ret = n;
	if (value) {
		if (size < n)
			return CL_INVALID_VALUE;
		memcpy(value, v, n);
	}
	return CL_SUCCESS;
}

static cl_int CL_API_CALL get_platform_ids(cl_uint n, cl_platform_id *p, cl_uint *nret)
{
	if (p && n)
		p[0] = &platform;
	if (nret)
		*nret = 1;
	return CL_SUCCESS;
}

static cl_int CL_API_CALL platform_info(cl_platform_id p, cl_platform_info what, size_t size,
					void *value, size_t *ret)
{
	const char *s;
	(void)p;
	switch (what) {
	case CL_PLATFORM_ICD_SUFFIX_KHR:
		s = "FAKE";
		break;
	case CL_PLATFORM_EXTENSIONS:
		/* what the ICD loader looks for */
		s = "cl_khr_icd";
		break;
	case CL_PLATFORM_VERSION:
		s = "OpenCL 1.0 fake";
		break;
	default:
		s = "fake";
	}
	return answer(s, strlen(s) + 1, size, value, ret);
}

static cl_int CL_API_CALL device_ids(cl_platform_id p, cl_device_type t, cl_uint n,
				     cl_device_id *d, cl_uint *nret)
{
	(void)p;
	(void)t;
	if (d && n)
		d[0] = &device;
	if (nret)
		*nret = 1;
	return CL_SUCCESS;
}

static cl_int CL_API_CALL device_info(cl_device_id d, cl_device_info what, size_t size,
				      void *value, size_t *ret)
{
	(void)d;
	if (what == CL_DEVICE_NAME)
		return answer("fake", 5, size, value, ret);
	return CL_INVALID_VALUE;
}

static cl_context CL_API_CALL create_context(const cl_context_properties *props, cl_uint n,
					     const cl_device_id *devs,
					     void(CL_CALLBACK *cb)(const char *, const void *,
								   size_t, void *),
					     void *ud, cl_int *err)
{
	struct _cl_context *c = calloc(1, sizeof(*c));
	cl_uint np = 0;
	/* the driver's own call of the loader */
	clGetPlatformIDs(0, NULL, &np);
	(void)props;
	(void)n;
	(void)devs;
	(void)cb;
	(void)ud;
	c->d = &table;
	if (err)
		*err = CL_SUCCESS;
	return c;
}

static cl_int CL_API_CALL release_context(cl_context c)
{
	free(c);
	return CL_SUCCESS;
}

static cl_command_queue CL_API_CALL create_queue(cl_context c, cl_device_id d,
						 cl_command_queue_properties props, cl_int *err)
{
	struct _cl_command_queue *q = calloc(1, sizeof(*q));
	(void)c;
	(void)d;
	q->d = &table;
	q->props = props;
	q->refs = 1;
	if (err)
		*err = CL_SUCCESS;
	return q;
}

static cl_int CL_API_CALL queue_info(cl_command_queue q, cl_command_queue_info what, size_t size,
				     void *value, size_t *ret)
{
	cl_device_id d = &device;
	switch (what) {
	case CL_QUEUE_PROPERTIES:
		return answer(&q->props, sizeof(q->props), size, value, ret);
	case CL_QUEUE_DEVICE:
		return answer(&d, sizeof(d), size, value, ret);
	case CL_QUEUE_REFERENCE_COUNT:
		return answer(&q->refs, sizeof(q->refs), size, value, ret);
	}
	return CL_INVALID_VALUE;
}

static cl_int CL_API_CALL set_queue_property(cl_command_queue q, cl_command_queue_properties p,
					     cl_bool enable, cl_command_queue_properties *old)
{
	if (old)
		*old = q->props;
	if (enable)
		q->props |= p;
	else
		q->props &= ~p;
	return CL_SUCCESS;
}

static cl_int CL_API_CALL release_queue(cl_command_queue q)
{
	fprintf(stderr, "fake_icd: queue released with properties %#lx\n", (unsigned long)q->props);
	free(q);
	return CL_SUCCESS;
}

static cl_int CL_API_CALL no(void)
{
	return CL_INVALID_OPERATION;
}

EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
	/* the ICD loader asks for these two by name */
	if (!strcmp(name, "clIcdGetPlatformIDsKHR"))
		return (void *)get_platform_ids;
	if (!strcmp(name, "clGetPlatformInfo"))
		return (void *)platform_info;
	return NULL;
}

EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n, cl_platform_id *p, cl_uint *nret)
{
	return get_platform_ids(n, p, nret);
}

__attribute__((constructor)) static void fill(void)
{
	/* everything the ICD does not do fails (a marker, an event) */
	void **all = (void **)&table;
	for (size_t i = 0; i < sizeof(table) / sizeof(void *); i++)
		all[i] = (void *)no;
	table.clGetPlatformIDs = get_platform_ids;
	table.clGetPlatformInfo = platform_info;
	table.clGetDeviceIDs = device_ids;
	table.clGetDeviceInfo = device_info;
	table.clCreateContext = create_context;
	table.clReleaseContext = release_context;
	table.clCreateCommandQueue = create_queue;
	table.clGetCommandQueueInfo = queue_info;
	table.clSetCommandQueueProperty = set_queue_property;
	table.clReleaseCommandQueue = release_queue;
	table.clGetExtensionFunctionAddress = clGetExtensionFunctionAddress;
}
