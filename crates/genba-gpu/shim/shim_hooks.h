/*
 * shim_hooks.h: what the hooks objects reached through genba's auditor
 * (shim/gpu_audit.c) share: the real library, found from the address the
 * auditor writes into genba_hook_real before it binds the first hook.
 */
#ifndef SHIM_HOOKS_H
#define SHIM_HOOKS_H

#include <dlfcn.h>

/* An address inside the real library, written by the auditor into the
 * exported genba_hook_real of each hooks object: read here as this
 * object's own (the exported name is the same in each, and a read through
 * it would find the first one loaded). */
static void *hook_real;
extern void *genba_hook_real __attribute__((alias("hook_real"), visibility("default")));

/* The real library's handle (NULL: not known yet, or not loaded). */
static void *real_library(void)
{
	static void *handle;
	void *at = __atomic_load_n(&hook_real, __ATOMIC_ACQUIRE);
	Dl_info info;
	if (handle || !at)
		return handle;
	if (dladdr(at, &info) && info.dli_fname)
		/* already loaded: this takes a reference, nothing more */
		handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	return handle;
}

/* `name` in the real library. */
__attribute__((unused)) static void *real_function(const char *name)
{
	void *h = real_library();
	return h ? dlsym(h, name) : NULL;
}

#endif
