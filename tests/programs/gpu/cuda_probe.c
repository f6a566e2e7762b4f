/*
 * cuda_probe [LIBCUDART]: looks for the CUDA runtime as programs that can
 * run without it do: a weak reference to cudaGetDeviceCount and
 * dlsym(RTLD_DEFAULT, "cudaGetDeviceCount"); with a path, dlopen()s the
 * runtime and looks again (through its handle too), calling what it found.
 * Prints what it saw and what the calls answered, as JSON: the same under
 * genba as without.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

extern int cudaGetDeviceCount(int *n) __attribute__((weak));

typedef int (*count_fn)(int *);

static void probe(const char *what, count_fn f, int last)
{
	int n = -1, r = f ? f(&n) : -1;
	printf("\"%s\": {\"found\": %s, \"result\": %d, \"count\": %d}%s", what,
	       f ? "true" : "false", r, n, last ? "" : ", ");
}

int main(int argc, char **argv)
{
	void *lib = NULL;
	printf("{");
	probe("weak", cudaGetDeviceCount, 0);
	probe("default", (count_fn)dlsym(RTLD_DEFAULT, "cudaGetDeviceCount"), argc < 2);
	if (argc > 1) {
		lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
		printf("\"loaded\": %s, ", lib ? "true" : "false");
		probe("handle", lib ? (count_fn)dlsym(lib, "cudaGetDeviceCount") : NULL, 0);
		probe("default_after", (count_fn)dlsym(RTLD_DEFAULT, "cudaGetDeviceCount"), 1);
	}
	printf("}\n");
	return 0;
}
