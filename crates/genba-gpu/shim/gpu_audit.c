/*
 * genba's GPU auditor (LD_AUDIT, by genba's environment only): it routes
 * the program's calls of the OpenCL ICD loader and of the CUDA runtime
 * through genba's hooks, and only those, only when the program really
 * loaded that library.
 *
 * Why an auditor, not LD_PRELOAD of the entry points: a preloaded
 * cudaGetDeviceCount is found by every process, whether it loaded the CUDA
 * runtime or not (dlsym(RTLD_DEFAULT, ...), a weak reference), and a
 * program probing for the runtime that way would behave differently under
 * genba. The hooks are preloaded under names of their own
 * (genba_hook_<function>), which no program asks for; the auditor binds a
 * reference to <function> to genba_hook_<function> only when the
 * definition the dynamic loader found is in libOpenCL or libcudart. That
 * covers the program's own references (lazy or bound at load), a dlopen
 * of the library and dlsym through its handle, and dlsym(RTLD_DEFAULT).
 *
 * The hooks learn where the real library is from `genba_hook_real`, an
 * address inside it the auditor writes before the first hooked call.
 *
 * The auditor runs in a namespace of its own (its own libc; dlsym from it
 * into the program's namespace crashes inside a binding): it finds the
 * hooks by reading their dynamic symbol table itself, and keeps to string
 * functions.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/* An object's cookie: what it is, or (any other object, not looked at
 * yet) its link map. */
enum { OTHER, HOOKS, OPENCL, CUDA, N_KINDS, DRIVER, PROGRAM };

/* each API's hooks object: its dynamic symbols */
static struct hooks {
	uintptr_t base;
	const ElfW(Sym) * sym;
	const char *str;
	uint32_t n;
} hooks[N_KINDS];

/* A pointer of the dynamic section: the dynamic loader has moved it by
 * the load address already on most targets, not on all. */
static uintptr_t dyn_ptr(uintptr_t base, ElfW(Addr) p)
{
	return p < base ? base + p : p;
}

/* How many dynamic symbols: DT_HASH's chain count, or past the last
 * chain of DT_GNU_HASH. */
static uint32_t symbol_count(uintptr_t base, const uint32_t *hash, const uint32_t *gnu)
{
	if (hash)
		return hash[1];
	if (gnu) {
		uint32_t nbuckets = gnu[0], symoffset = gnu[1], bloom = gnu[2];
		const uint32_t *buckets = gnu + 4 + bloom * (sizeof(ElfW(Addr)) / 4);
		const uint32_t *chain = buckets + nbuckets;
		uint32_t last = 0;
		for (uint32_t i = 0; i < nbuckets; i++)
			if (buckets[i] > last)
				last = buckets[i];
		if (last < symoffset)
			return symoffset;
		while (!(chain[last - symoffset] & 1))
			last++;
		return last + 1;
	}
	(void)base;
	return 0;
}

static void read_hooks(struct hooks *h, struct link_map *map)
{
	const uint32_t *hash = NULL, *gnu = NULL;
	h->base = map->l_addr;
	for (const ElfW(Dyn) *d = map->l_ld; d && d->d_tag != DT_NULL; d++) {
		uintptr_t p = dyn_ptr(map->l_addr, d->d_un.d_ptr);
		switch (d->d_tag) {
		case DT_SYMTAB:
			h->sym = (const ElfW(Sym) *)p;
			break;
		case DT_STRTAB:
			h->str = (const char *)p;
			break;
		case DT_HASH:
			hash = (const uint32_t *)p;
			break;
		case DT_GNU_HASH:
			gnu = (const uint32_t *)p;
			break;
		}
	}
	h->n = h->sym && h->str ? symbol_count(map->l_addr, hash, gnu) : 0;
}

static uintptr_t find(const struct hooks *h, const char *name);

/* An OpenCL driver (an ICD: it exports clIcdGetPlatformIDsKHR) calls the
 * loader for itself when it calls libOpenCL: those are not the program's
 * calls. Looked at once, when the object first binds to a library. */
static int is_driver(uintptr_t *cookie)
{
	struct hooks h = { 0 };
	if (*cookie < 4096)
		return *cookie == DRIVER;
	read_hooks(&h, (struct link_map *)*cookie);
	*cookie = find(&h, "clIcdGetPlatformIDsKHR") ? DRIVER : PROGRAM;
	return *cookie == DRIVER;
}

/* The address of the hooks' symbol `name` (0: none). */
static uintptr_t find(const struct hooks *h, const char *name)
{
	for (uint32_t i = 0; i < h->n; i++) {
		const ElfW(Sym) *s = &h->sym[i];
		if (s->st_shndx != SHN_UNDEF && s->st_value && !strcmp(h->str + s->st_name, name))
			return h->base + s->st_value;
	}
	return 0;
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* Whether genba records (its GPU directory named in the environment; the
 * auditor's own libc has the process's environment). */
static int recording(void)
{
	static int on = -1;
	if (on < 0) {
		const char *d = getenv("GENBA_GPU_DIR");
		on = d && *d;
	}
	return on;
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

EXPORT unsigned la_version(unsigned v)
{
	/* the version ld.so speaks, if older than the one built against */
	if (v < 1)
		return 0;
	return v < LAV_CURRENT ? v : LAV_CURRENT;
}

/* Each object: what it is (kept in its cookie), and which of its bindings
 * are seen: those to the two libraries, from every other object of the
 * program's namespace except the hooks themselves (they reach the real
 * functions). */
EXPORT unsigned la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	const char *b = base(map->l_name ? map->l_name : "");
	*cookie = (uintptr_t)map;
	/* genba not recording (no GENBA_GPU_DIR: the hooks would only forward,
	 * ~7 ns a call): nothing is bound to them */
	if (lmid != LM_ID_BASE || !recording())
		return 0;
	if (!strcmp(b, "libgenba_opencl_hooks.so")) {
		read_hooks(&hooks[OPENCL], map);
		*cookie = HOOKS;
		return 0;
	}
	if (!strcmp(b, "libgenba_cuda.so")) {
		read_hooks(&hooks[CUDA], map);
		*cookie = HOOKS;
		return 0;
	}
	if (starts(b, "libOpenCL.so")) {
		*cookie = OPENCL;
		return LA_FLG_BINDTO;
	}
	if (starts(b, "libcudart.so")) {
		*cookie = CUDA;
		return LA_FLG_BINDTO;
	}
	return LA_FLG_BINDFROM;
}

/* A binding to one of the libraries: to genba's hook of that function,
 * when there is one. */
EXPORT uintptr_t la_symbind64(ElfW(Sym) * sym, unsigned ndx, uintptr_t *refcook,
			      uintptr_t *defcook, unsigned *flags, const char *name)
{
	char hook[256];
	const struct hooks *h;
	uintptr_t f;
	void **real;
	size_t n;

	(void)ndx;
	(void)flags;
	if ((*defcook != OPENCL && *defcook != CUDA) || *refcook == HOOKS ||
	    *refcook == *defcook || is_driver(refcook))
		return sym->st_value;
	h = &hooks[*defcook];
	n = strlen(name);
	if (!h->n || n + sizeof("genba_hook_") > sizeof(hook))
		return sym->st_value;
	memcpy(hook, "genba_hook_", sizeof("genba_hook_") - 1);
	memcpy(hook + sizeof("genba_hook_") - 1, name, n + 1);
	f = find(h, hook);
	real = (void **)find(h, "genba_hook_real");
	if (!f || !real)
		return sym->st_value;
	if (!__atomic_load_n(real, __ATOMIC_ACQUIRE))
		__atomic_store_n(real, (void *)sym->st_value, __ATOMIC_RELEASE);
	return f;
}
