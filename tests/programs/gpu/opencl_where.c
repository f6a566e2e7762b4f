/*
 * opencl_where: which object the program's clGetPlatformIDs is in, as the
 * dynamic loader answers dlsym(RTLD_DEFAULT) (genba's auditor binds such
 * lookups, as the program's own references, to its hooks when it records),
 * and the number of platforms found through it:
 *   {"object": "/usr/lib/x86_64-linux-gnu/libOpenCL.so.1", "platforms": 1}
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>

typedef cl_int (*get_platforms)(cl_uint, cl_platform_id *, cl_uint *);

int main(void)
{
	cl_uint n = 0;
	Dl_info info;
	/* the program's own reference too, so that libOpenCL is loaded */
	if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS)
		return 1;
	get_platforms f = (get_platforms)dlsym(RTLD_DEFAULT, "clGetPlatformIDs");
	if (!f || !dladdr((void *)f, &info) || !info.dli_fname)
		return 1;
	n = 0;
	if (f(0, NULL, &n) != CL_SUCCESS)
		return 1;
	printf("{\"object\": \"%s\", \"platforms\": %u}\n", info.dli_fname, n);
	return 0;
}
