/*
 * opencl_dlopen: loads libOpenCL at run time (as Python's pyopencl, or any
 * plugin, does), makes a context on the first device and releases it;
 * prints {"ok": true} when every call succeeded.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	cl_int (*get_platforms)(cl_uint, cl_platform_id *, cl_uint *) = dlsym(lib, "clGetPlatformIDs");
	cl_int (*get_devices)(cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *) =
		dlsym(lib, "clGetDeviceIDs");
	cl_context (*create)(const cl_context_properties *, cl_uint, const cl_device_id *,
			     void (*)(const char *, const void *, size_t, void *), void *, cl_int *) =
		dlsym(lib, "clCreateContext");
	cl_int (*release)(cl_context) = dlsym(lib, "clReleaseContext");
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err = -1;
	int ok = get_platforms && get_devices && create && release && !get_platforms(1, &plat, NULL) &&
		 !get_devices(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
	cl_context ctx = ok ? create(NULL, 1, &dev, NULL, NULL, &err) : NULL;
	ok = ok && ctx && err == CL_SUCCESS && release(ctx) == CL_SUCCESS;
	printf("{\"ok\": %s}\n", ok ? "true" : "false");
	return ok ? 0 : 1;
}
