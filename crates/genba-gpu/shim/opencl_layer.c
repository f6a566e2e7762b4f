/*
 * genba's OpenCL layer: loaded by the ICD loader (ocl-icd's OPENCL_LAYERS)
 * into the traced program, it forwards every OpenCL call to the next
 * layer or the driver and records the calls genba shows, with the device's
 * own times of each command, in the ring of genba_gpu.h.
 *
 * What the program sees is what it would see without the layer:
 * - profiling is turned on for every queue (the device times need it), and
 *   hidden again from clGetCommandQueueInfo and clGetEventProfilingInfo
 *   for queues whose program did not ask for it;
 * - a command enqueued without an event gets one, released by the layer
 *   once the command completed;
 * - results and errors are the driver's, untouched.
 *
 * Without GENBA_GPU_DIR in the environment the layer only forwards.
 */
#define CL_TARGET_OPENCL_VERSION 300
#define _GNU_SOURCE
#include <CL/cl_layer.h>
#include <dlfcn.h>

#define SHIM_API GENBA_GPU_OPENCL
#include "shim_common.h"

#ifndef GENBA_OPENCL_FALLBACK
static struct _cl_icd_dispatch dispatch;
static const struct _cl_icd_dispatch *next;
#else
/*
 * Built a second time (-DGENBA_OPENCL_FALLBACK) as the fallback for ICD
 * loaders without layers (ocl-icd before 2.3, old Khronos loaders, loaders
 * a program bundles): preloaded by genba's environment, each hooked call
 * exported as genba_hook_<function>, which genba's auditor
 * (shim/gpu_audit.c) binds the program's references to libOpenCL's
 * functions to, whether the program linked libOpenCL, or dlopen()ed it
 * and called through dlsym(handle). `next` is then the real loader's own
 * functions, by name (ocl_dispatch_names.h, an X-macro over the dispatch
 * table's entries made by build.rs from cl_icd.h).
 *
 * It records only when the layer did not initialise in the process (the
 * layer sets genba_opencl_layer_live): nothing is recorded twice.
 */
#include "shim_hooks.h"
#include "ocl_dispatch_names.h"

/* set by the layer (shim/opencl_layer.c built as a layer) in clInitLayer */
EXPORT int genba_opencl_layer_live;

static struct _cl_icd_dispatch real_table;

/* The real loader's functions, and the loader initialised (so that its
 * layers, genba's among them, are: after this, genba_opencl_layer_live
 * says whether the layer records). */
static void fallback_init(void)
{
	void *h = real_library();
	const char *dir = getenv("GENBA_GPU_DIR");
#define FILL(f) real_table.f = h ? (__typeof__(real_table.f))dlsym(h, #f) : NULL;
	OCL_DISPATCH_NAMES(FILL)
#undef FILL
	/* a call of the loader's own that no layer records (genba's layer
	 * does not hook it): ocl-icd initialises on any first call */
	if (dir && *dir && real_table.clGetExtensionFunctionAddress)
		real_table.clGetExtensionFunctionAddress("genba_initialise_the_loader");
}

/* after fallback_init: 1 the fallback records, 2 it only forwards */
static int fallback_state;

static const struct _cl_icd_dispatch *fallback_next(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	if (!__atomic_load_n(&fallback_state, __ATOMIC_ACQUIRE)) {
		pthread_once(&once, fallback_init);
		/* the loader has loaded its layers now: whether genba's did is
		 * known for good */
		__atomic_store_n(&fallback_state,
				 recording() && !__atomic_load_n(&genba_opencl_layer_live,
								 __ATOMIC_ACQUIRE)
					 ? 1
					 : 2,
				 __ATOMIC_RELEASE);
	}
	return &real_table;
}
#define next (fallback_next())

/* recording: genba's environment, and no layer recording in the process
 * (each call asks several times: one load once known) */
static int fallback_recording(void)
{
	int st = __atomic_load_n(&fallback_state, __ATOMIC_ACQUIRE);
	if (!st) {
		(void)fallback_next();
		st = __atomic_load_n(&fallback_state, __ATOMIC_ACQUIRE);
	}
	return st == 1;
}
#define recording() fallback_recording()
#endif

/* ---- names ------------------------------------------------------------- */

static const char *err_name(cl_int e)
{
	switch (e) {
#define E(x) case x: return #x;
	E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE)
	E(CL_COMPILER_NOT_AVAILABLE) E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
	E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY) E(CL_PROFILING_INFO_NOT_AVAILABLE)
	E(CL_MEM_COPY_OVERLAP) E(CL_IMAGE_FORMAT_MISMATCH) E(CL_IMAGE_FORMAT_NOT_SUPPORTED)
	E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE) E(CL_MISALIGNED_SUB_BUFFER_OFFSET)
	E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) E(CL_COMPILE_PROGRAM_FAILURE)
	E(CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE) E(CL_DEVICE_PARTITION_FAILED)
	E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) E(CL_INVALID_VALUE) E(CL_INVALID_DEVICE_TYPE)
	E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT)
	E(CL_INVALID_QUEUE_PROPERTIES) E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR)
	E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(CL_INVALID_IMAGE_SIZE)
	E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS)
	E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME)
	E(CL_INVALID_KERNEL_DEFINITION) E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX)
	E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS)
	E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_WORK_ITEM_SIZE)
	E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_EVENT)
	E(CL_INVALID_OPERATION) E(CL_INVALID_GL_OBJECT) E(CL_INVALID_BUFFER_SIZE)
	E(CL_INVALID_MIP_LEVEL) E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY)
	E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS) E(CL_INVALID_LINKER_OPTIONS)
	E(CL_INVALID_DEVICE_PARTITION_COUNT) E(CL_INVALID_PIPE_SIZE) E(CL_INVALID_DEVICE_QUEUE)
	E(CL_INVALID_SPEC_ID) E(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef E
	}
	return NULL;
}

/* "= CL_SUCCESS", "= CL_INVALID_VALUE", "= -9999" */
static void result_text(struct text *r, cl_int e)
{
	const char *name = err_name(e);
	put_str(r, "= ");
	if (name)
		put_str(r, name);
	else
		add(r, "%d", (int)e);
}

static void add_sizes(struct text *t, cl_uint dim, const size_t *v)
{
	if (!v) {
		add(t, "NULL");
		return;
	}
	add(t, "[");
	for (cl_uint i = 0; i < dim && i < 3; i++)
		add(t, i ? ", %zu" : "%zu", v[i]);
	add(t, "]");
}

static void add_wait(struct text *t, cl_uint n, cl_event *ev)
{
	add(t, ", %u, %s, %s", n, n ? "[...]" : "NULL", ev ? "&event" : "NULL");
}

static void kernel_name(cl_kernel k, char *out, size_t n)
{
	size_t got = 0;
	out[0] = 0;
	if (next->clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, n, out, &got) != CL_SUCCESS)
		snprintf(out, n, "kernel %p", (void *)k);
	out[n - 1] = 0;
}

/* ---- queues: forced profiling, device clocks ---------------------------- */

/* The queues whose profiling the layer turned on: an open-addressed hash
 * of their handles (linear probing, a removed slot marked as such so that
 * probes go on past it), each with how the layer turned it on (what to
 * hide of CL_QUEUE_PROPERTIES_ARRAY). `forced_count` lets the calls that
 * ask skip the lock when no queue was forced. */
enum forced_how {
	FORCED_BIT = 1, /* the bit added to the program's CL_QUEUE_PROPERTIES */
	FORCED_PAIR,	/* CL_QUEUE_PROPERTIES added to the program's list */
	FORCED_NULL,	/* a list made: the program passed none */
};
#define MAX_QUEUES 1024 /* a power of two */
#define REMOVED ((cl_command_queue)(uintptr_t)1)
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static cl_command_queue forced[MAX_QUEUES];
static unsigned char forced_how[MAX_QUEUES];
static int forced_count;

static unsigned forced_slot(cl_command_queue q)
{
	uint64_t h = (uint64_t)(uintptr_t)q;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (unsigned)h & (MAX_QUEUES - 1);
}

static void forced_add(cl_command_queue q, enum forced_how how)
{
	pthread_mutex_lock(&table_lock);
	/* kept at most 3/4 full: a probe always ends at an empty slot */
	if (forced_count < MAX_QUEUES / 4 * 3) {
		for (unsigned i = forced_slot(q), n = 0; n < MAX_QUEUES;
		     i = (i + 1) & (MAX_QUEUES - 1), n++)
			if (!forced[i] || forced[i] == REMOVED || forced[i] == q) {
				if (forced[i] != q)
					__atomic_add_fetch(&forced_count, 1, __ATOMIC_RELEASE);
				forced[i] = q;
				forced_how[i] = (unsigned char)how;
				break;
			}
	}
	pthread_mutex_unlock(&table_lock);
}

/* How `q`'s profiling was forced (0: it was not). */
static int forced_has(cl_command_queue q)
{
	int r = 0;
	if (!q || !__atomic_load_n(&forced_count, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&table_lock);
	for (unsigned i = forced_slot(q), n = 0; n < MAX_QUEUES && forced[i];
	     i = (i + 1) & (MAX_QUEUES - 1), n++)
		if (forced[i] == q) {
			r = forced_how[i];
			break;
		}
	pthread_mutex_unlock(&table_lock);
	return r;
}

static void forced_remove(cl_command_queue q)
{
	pthread_mutex_lock(&table_lock);
	for (unsigned i = forced_slot(q), n = 0; n < MAX_QUEUES && forced[i];
	     i = (i + 1) & (MAX_QUEUES - 1), n++)
		if (forced[i] == q) {
			forced[i] = REMOVED;
			__atomic_sub_fetch(&forced_count, 1, __ATOMIC_RELEASE);
			break;
		}
	pthread_mutex_unlock(&table_lock);
}

#define MAX_DEVICES 64
static struct device_clock {
	cl_device_id dev;
	int domain;
	int64_t offset;
	int ready; /* calibrated, and its clock record written */
} clocks[MAX_DEVICES];

static const clockid_t domains[] = { CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_BOOTTIME,
				     CLOCK_REALTIME };

/* A device with a clock of its own, simulated for the tests (never set by
 * genba itself): GENBA_GPU_TEST_DEVICE_CLOCK="<offset ns>,<drift ppm>"
 * moves every device time the layer reads by the offset plus the drift
 * times the time since the first one it moved, so that the device looks
 * as if it stamped with a clock of its own that runs fast or slow. */
static int sim_on = -1;
static int64_t sim_offset;
static double sim_ppm;
static uint64_t sim_base;

static int simulated(void)
{
	if (__atomic_load_n(&sim_on, __ATOMIC_ACQUIRE) < 0) {
		const char *v = getenv("GENBA_GPU_TEST_DEVICE_CLOCK");
		long long off = 0;
		double ppm = 0;
		int on = v && sscanf(v, "%lld,%lf", &off, &ppm) == 2;
		sim_offset = off;
		sim_ppm = ppm;
		__atomic_store_n(&sim_on, on, __ATOMIC_RELEASE);
	}
	return sim_on;
}

static cl_ulong device_time(cl_ulong t)
{
	uint64_t base;
	if (!t || !simulated())
		return t;
	base = __atomic_load_n(&sim_base, __ATOMIC_ACQUIRE);
	if (!base) {
		uint64_t zero = 0;
		__atomic_compare_exchange_n(&sim_base, &zero, t, 0, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
		base = __atomic_load_n(&sim_base, __ATOMIC_ACQUIRE);
	}
	return (cl_ulong)((int64_t)t + sim_offset +
			  (int64_t)(((double)(int64_t)(t - base)) * sim_ppm / 1e6));
}

/* The API's own pairing of the device's clock with the host's
 * (clGetDeviceAndHostTimer, OpenCL 2.1), when the device answers it: the
 * host timer's clock found as the marker's is (between two reads of it),
 * and the offset onto CLOCK_MONOTONIC. 0: not supported (pocl 5 answers
 * CL_INVALID_OPERATION), or a host timer on none of the host clocks. */
static int timer_pair(cl_device_id dev, int64_t *offset, uint64_t *uncertainty)
{
	cl_ulong d = 0, h = 0;
	uint64_t before[4], after[4];
	if (simulated() || !next->clGetDeviceAndHostTimer)
		return 0;
	for (int i = 0; i < 4; i++)
		before[i] = now_ns(domains[i]);
	if (next->clGetDeviceAndHostTimer(dev, &d, &h) != CL_SUCCESS || !d)
		return 0;
	for (int i = 0; i < 4; i++)
		after[i] = now_ns(domains[i]);
	for (int i = 0; i < 4; i++)
		if (h >= before[i] && h <= after[i]) {
			/* h on domains[i]; MONOTONIC - domains[i] read around it */
			int64_t m = (int64_t)(before[0] / 2 + after[0] / 2) -
				    (int64_t)(before[i] / 2 + after[i] / 2);
			*offset = (int64_t)h - (int64_t)d + m;
			*uncertainty = (after[0] - before[0]) / 2;
			return 1;
		}
	return 0;
}

/* Which host clock `q`'s device stamps its commands with: a marker's end
 * must fall between two reads of that clock around it. Once per device. */
static void calibrate(cl_command_queue q)
{
	cl_device_id dev = NULL;
	cl_event ev = NULL;
	cl_ulong end = 0;
	uint64_t before[4], after[4];
	struct genba_gpu_clock c = { 0 };
	char name[256] = "";
	int slot = -1;

	/* a loader older than OpenCL 1.2 (the fallback's table is filled by
	 * name) may lack the marker: no mapping then, never a NULL call */
	if (!next->clGetCommandQueueInfo || !next->clEnqueueMarkerWithWaitList ||
	    !next->clFinish || !next->clGetEventProfilingInfo || !next->clReleaseEvent ||
	    !next->clGetDeviceInfo)
		return;
	if (next->clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof(dev), &dev, NULL) != CL_SUCCESS)
		return;
	pthread_mutex_lock(&table_lock);
	for (int i = 0; i < MAX_DEVICES; i++) {
		if (clocks[i].dev == dev) {
			pthread_mutex_unlock(&table_lock);
			/* another thread is calibrating it: its queue's commands
			 * wait for the mapping and follow the device's clock
			 * record (up to 2 s) */
			for (int n = 0; n < 40000 && !__atomic_load_n(&clocks[i].ready,
									__ATOMIC_ACQUIRE);
			     n++) {
				struct timespec ts = { 0, 50000 };
				nanosleep(&ts, NULL);
			}
			return;
		}
		if (!clocks[i].dev && slot < 0)
			slot = i;
	}
	if (slot >= 0) {
		clocks[slot].dev = dev;
		clocks[slot].domain = CLOCK_MONOTONIC;
		clocks[slot].offset = 0;
	}
	pthread_mutex_unlock(&table_lock);
	if (slot < 0)
		return;
	for (int i = 0; i < 4; i++)
		before[i] = now_ns(domains[i]);
	if (next->clEnqueueMarkerWithWaitList(q, 0, NULL, &ev) != CL_SUCCESS) {
		__atomic_store_n(&clocks[slot].ready, 1, __ATOMIC_RELEASE);
		return;
	}
	next->clFinish(q);
	for (int i = 0; i < 4; i++)
		after[i] = now_ns(domains[i]);
	next->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(end), &end, NULL);
	next->clReleaseEvent(ev);
	end = device_time(end);
	c.device = (uint64_t)(uintptr_t)dev;
	c.domain = -1;
	for (int i = 0; i < 4; i++)
		if (end >= before[i] && end <= after[i]) {
			c.domain = (int32_t)domains[i];
			break;
		}
	/* a clock of its own: the API's pairing where the device has one, else
	 * the marker ended about when clFinish saw it (genba narrows it with
	 * every command's facts) */
	if (c.domain < 0 && !timer_pair(dev, &c.offset, &c.uncertainty)) {
		uint64_t mid = before[0] + (after[0] - before[0]) / 2;
		c.offset = (int64_t)mid - (int64_t)end;
		c.uncertainty = (after[0] - before[0]) / 2;
	}
	pthread_mutex_lock(&table_lock);
	clocks[slot].domain = c.domain;
	clocks[slot].offset = c.offset;
	pthread_mutex_unlock(&table_lock);
	next->clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name) - 1, name, NULL);
	put_struct(GENBA_GPU_CLOCK, gettid_cached(), 0, now_ns(CLOCK_MONOTONIC), &c, sizeof(c),
		   name);
	__atomic_store_n(&clocks[slot].ready, 1, __ATOMIC_RELEASE);
}

/* What to add to a device time of `dev` to put it on CLOCK_MONOTONIC, now
 * (one offset for all of a command's times: their differences stay the
 * device's own to the nanosecond). */
static int64_t monotonic_offset(cl_device_id dev)
{
	int domain = CLOCK_MONOTONIC;
	int64_t offset = 0;
	pthread_mutex_lock(&table_lock);
	for (int i = 0; i < MAX_DEVICES; i++)
		if (clocks[i].dev == dev) {
			domain = clocks[i].domain;
			offset = clocks[i].offset;
			break;
		}
	pthread_mutex_unlock(&table_lock);
	if (domain < 0)
		return offset;
	if (domain == CLOCK_MONOTONIC)
		return 0;
	/* the two clocks read together now: their offset drifts slowly */
	{
		uint64_t m = now_ns(CLOCK_MONOTONIC), d = now_ns((clockid_t)domain);
		return (int64_t)m - (int64_t)d;
	}
}

/* A device time on CLOCK_MONOTONIC (0 stays 0: not known). */
static uint64_t mapped(cl_ulong t, int64_t offset)
{
	return t ? (uint64_t)((int64_t)t + offset) : 0;
}

/* ---- commands: their device times, once complete ----------------------- */

struct pending {
	struct pending *prev, *next_p; /* the list of pending commands */
	cl_event ev;
	cl_command_queue queue;
	cl_device_id device;
	uint64_t t_enqueue;
	uint64_t t_exit; /* the enqueue call's return */
	uint64_t waited; /* the first wait that covered it returned (0: none) */
	uint64_t bytes;
	uint32_t kind;
	uint32_t tid;
	int owned; /* the layer made the event: it releases it */
	char name[128];
};

/* The commands watched and not yet complete, so that a wait that returns
 * can say it covered them. */
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending *pending_head;

static void pending_add(struct pending *p)
{
	pthread_mutex_lock(&pending_lock);
	p->prev = NULL;
	p->next_p = pending_head;
	if (pending_head)
		pending_head->prev = p;
	pending_head = p;
	pthread_mutex_unlock(&pending_lock);
}

/* Takes `p` off the list; its wait's return (0: none). */
static uint64_t pending_remove(struct pending *p)
{
	uint64_t w;
	pthread_mutex_lock(&pending_lock);
	if (p->prev)
		p->prev->next_p = p->next_p;
	else if (pending_head == p)
		pending_head = p->next_p;
	if (p->next_p)
		p->next_p->prev = p->prev;
	p->prev = p->next_p = NULL;
	w = p->waited;
	pthread_mutex_unlock(&pending_lock);
	return w;
}

/* A wait returned at `t1`: the commands it covered ended before then. A
 * clFinish of `q` (begun at `t0`) covers the commands enqueued on it
 * before it began; clWaitForEvents, its events. */
static void waits_returned(cl_command_queue q, uint64_t t0, cl_uint n, const cl_event *evs,
			   uint64_t t1)
{
	pthread_mutex_lock(&pending_lock);
	for (struct pending *p = pending_head; p; p = p->next_p) {
		int covered = 0;
		if (p->waited)
			continue;
		if (q)
			covered = p->queue == q && p->t_exit <= t0;
		for (cl_uint i = 0; evs && i < n && !covered; i++)
			covered = evs[i] == p->ev;
		if (covered)
			p->waited = t1;
	}
	pthread_mutex_unlock(&pending_lock);
}

static void CL_CALLBACK completed(cl_event ev, cl_int status, void *data)
{
	struct pending *p = data;
	cl_ulong t[4] = { 0 };
	struct genba_gpu_cmd c = { 0 };
	static const cl_profiling_info what[4] = { CL_PROFILING_COMMAND_QUEUED,
						   CL_PROFILING_COMMAND_SUBMIT,
						   CL_PROFILING_COMMAND_START,
						   CL_PROFILING_COMMAND_END };
	uint64_t waited = pending_remove(p);
	for (int i = 0; i < 4; i++) {
		next->clGetEventProfilingInfo(ev, what[i], sizeof(t[i]), &t[i], NULL);
		t[i] = device_time(t[i]);
	}
	c.enqueue_returned = p->t_exit;
	c.waited = waited;
	c.queue = (uint64_t)(uintptr_t)p->queue;
	c.device = (uint64_t)(uintptr_t)p->device;
	{
		int64_t off = monotonic_offset(p->device);
		c.queued = mapped(t[0], off);
		c.submit = mapped(t[1], off);
		c.start = mapped(t[2], off);
		c.end = mapped(t[3], off);
	}
	c.bytes = p->bytes;
	c.kind = p->kind;
	put_struct(GENBA_GPU_CMD, p->tid, status < 0 ? status : 0, p->t_enqueue, &c, sizeof(c),
		   p->name);
	/* the layer's own event, or its retain of the program's */
	next->clReleaseEvent(ev);
	free(p);
}

/* Before an enqueue: the event to ask for (the program's, or the layer's
 * own when the program passed none). */
static cl_event *event_for(cl_event *user, cl_event *own)
{
	return user ? user : own;
}

/* After an enqueue that succeeded: watch its event until it completes. */
static void watch(cl_command_queue q, cl_event *user, cl_event ev, uint32_t kind, uint64_t bytes,
		  const char *name, uint64_t t0, uint64_t t1, cl_bool blocking)
{
	struct pending *p;
	if (!ev)
		return;
	p = calloc(1, sizeof(*p));
	if (!p) {
		if (!user)
			next->clReleaseEvent(ev);
		return;
	}
	p->queue = q;
	next->clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof(p->device), &p->device, NULL);
	p->t_enqueue = t0;
	p->t_exit = t1;
	/* a blocking enqueue returned after its command completed */
	p->waited = blocking ? t1 : 0;
	p->ev = ev;
	p->bytes = bytes;
	p->kind = kind;
	p->tid = gettid_cached();
	p->owned = user == NULL;
	snprintf(p->name, sizeof(p->name), "%s", name);
	if (user)
		next->clRetainEvent(ev);
	pending_add(p);
	if (next->clSetEventCallback(ev, CL_COMPLETE, completed, p) != CL_SUCCESS) {
		pending_remove(p);
		next->clReleaseEvent(ev);
		free(p);
	}
}

/* ---- the hooked calls --------------------------------------------------- */

#define BEGIN uint64_t t0 = recording() ? now_ns(CLOCK_MONOTONIC) : 0
#define END_CALL(name, err, ...)                                                 \
	do {                                                                     \
		if (recording()) {                                               \
			uint64_t t1 = now_ns(CLOCK_MONOTONIC);                   \
			TEXT(a);                                                 \
			TEXT(r);                                                 \
			add(&a, __VA_ARGS__);                                    \
			result_text(&r, (err));                                  \
			put_call(name, t0, t1, (err), a.b, r.b);                 \
		}                                                                \
	} while (0)

static cl_context CL_API_CALL l_clCreateContext(const cl_context_properties *props, cl_uint n,
						const cl_device_id *devs,
						void(CL_CALLBACK *cb)(const char *, const void *,
								      size_t, void *),
						void *ud, cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_context c = next->clCreateContext(props, n, devs, cb, ud, &err);
	if (errp)
		*errp = err;
	END_CALL("clCreateContext", err, "%s, %u, [...], %s, %p, %s", props ? "[...]" : "NULL", n,
		 cb ? "callback" : "NULL", ud, errp ? "&err" : "NULL");
	return c;
}

static cl_context CL_API_CALL l_clCreateContextFromType(
	const cl_context_properties *props, cl_device_type type,
	void(CL_CALLBACK *cb)(const char *, const void *, size_t, void *), void *ud, cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_context c = next->clCreateContextFromType(props, type, cb, ud, &err);
	if (errp)
		*errp = err;
	END_CALL("clCreateContextFromType", err, "%s, %#lx, %s, %p, %s", props ? "[...]" : "NULL",
		 (unsigned long)type, cb ? "callback" : "NULL", ud, errp ? "&err" : "NULL");
	return c;
}

static cl_command_queue CL_API_CALL l_clCreateCommandQueue(cl_context ctx, cl_device_id dev,
							   cl_command_queue_properties props,
							   cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	int force = recording() && !(props & CL_QUEUE_PROFILING_ENABLE);
	BEGIN;
	cl_command_queue q = next->clCreateCommandQueue(
		ctx, dev, props | (recording() ? CL_QUEUE_PROFILING_ENABLE : 0), &err);
	enum forced_how how = FORCED_BIT;
	if (errp)
		*errp = err;
	END_CALL("clCreateCommandQueue", err, "%p, %p, %#lx, %s", (void *)ctx, (void *)dev,
		 (unsigned long)props, errp ? "&err" : "NULL");
	if (q && err == CL_SUCCESS && recording()) {
		if (force)
			forced_add(q, how);
		calibrate(q);
	}
	return q;
}

static cl_command_queue CL_API_CALL
l_clCreateCommandQueueWithProperties(cl_context ctx, cl_device_id dev,
				     const cl_queue_properties *props, cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	cl_queue_properties mine[64];
	const cl_queue_properties *use = props;
	int force = 0;
	enum forced_how how = FORCED_BIT;
	BEGIN;
	if (recording()) {
		/* a copy of the list with profiling in CL_QUEUE_PROPERTIES */
		int n = 0, found = 0;
		for (; props && props[n] && n < 60; n += 2) {
			mine[n] = props[n];
			mine[n + 1] = props[n + 1];
			if (props[n] == CL_QUEUE_PROPERTIES) {
				found = 1;
				force = !(props[n + 1] & CL_QUEUE_PROFILING_ENABLE);
				mine[n + 1] |= CL_QUEUE_PROFILING_ENABLE;
			}
		}
		if (!props || !props[n]) {
			if (!found) {
				mine[n++] = CL_QUEUE_PROPERTIES;
				mine[n++] = CL_QUEUE_PROFILING_ENABLE;
				force = 1;
				how = props ? FORCED_PAIR : FORCED_NULL;
			}
			mine[n] = 0;
			use = mine;
		}
	}
	cl_command_queue q = next->clCreateCommandQueueWithProperties(ctx, dev, use, &err);
	if (errp)
		*errp = err;
	END_CALL("clCreateCommandQueueWithProperties", err, "%p, %p, %s, %s", (void *)ctx,
		 (void *)dev, props ? "[...]" : "NULL", errp ? "&err" : "NULL");
	if (q && err == CL_SUCCESS && recording()) {
		if (force)
			forced_add(q, how);
		calibrate(q);
	}
	return q;
}

/* CL_QUEUE_PROPERTIES_ARRAY as the program made the queue: the layer's
 * profiling taken out of it (the bit, the pair it added, or all of it when
 * the program passed no list). */
static cl_int properties_array(cl_command_queue q, int how, size_t size, void *value, size_t *ret)
{
	cl_queue_properties all[128], view[128];
	size_t got = 0, n = 0;
	cl_int err = next->clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof(all), all, &got);
	if (err != CL_SUCCESS)
		return next->clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, size, value, ret);
	got /= sizeof(all[0]);
	if (how != FORCED_NULL) {
		for (size_t i = 0; i < got; i++) {
			if (!all[i]) {
				view[n++] = 0;
				break;
			}
			if (i + 1 >= got)
				break;
			if (all[i] == CL_QUEUE_PROPERTIES) {
				if (how == FORCED_PAIR) {
					i++;
					continue;
				}
				view[n++] = all[i];
				view[n++] = all[++i] & ~(cl_queue_properties)CL_QUEUE_PROFILING_ENABLE;
				continue;
			}
			view[n++] = all[i];
			view[n++] = all[++i];
		}
	}
	if (ret)
		*ret = n * sizeof(view[0]);
	if (value) {
		if (size < n * sizeof(view[0]))
			return CL_INVALID_VALUE;
		memcpy(value, view, n * sizeof(view[0]));
	}
	return CL_SUCCESS;
}

static cl_int CL_API_CALL l_clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info what,
						  size_t size, void *value, size_t *ret)
{
	int how;
	if (what != CL_QUEUE_PROPERTIES && what != CL_QUEUE_PROPERTIES_ARRAY)
		return next->clGetCommandQueueInfo(q, what, size, value, ret);
	how = recording() ? forced_has(q) : 0;
	/* the program's own view: profiling as it asked */
	if (how && what == CL_QUEUE_PROPERTIES_ARRAY)
		return properties_array(q, how, size, value, ret);
	cl_int err = next->clGetCommandQueueInfo(q, what, size, value, ret);
	if (err == CL_SUCCESS && how && value && size >= sizeof(cl_command_queue_properties))
		*(cl_command_queue_properties *)value &= ~(cl_command_queue_properties)CL_QUEUE_PROFILING_ENABLE;
	return err;
}

/* OpenCL 1.0's switch of a queue's properties: the program may turn
 * profiling on (the queue is then its own) or off (the layer keeps it on,
 * and hides it); the old properties it is told are its own. */
static cl_int CL_API_CALL l_clSetCommandQueueProperty(cl_command_queue q,
						      cl_command_queue_properties props,
						      cl_bool enable,
						      cl_command_queue_properties *old)
{
	cl_command_queue_properties pass = props;
	int how = recording() ? forced_has(q) : 0;
	BEGIN;
	if (recording() && !enable)
		pass &= ~(cl_command_queue_properties)CL_QUEUE_PROFILING_ENABLE;
	cl_int err = next->clSetCommandQueueProperty(q, pass, enable, old);
	if (err == CL_SUCCESS && recording()) {
		if (old && how)
			*old &= ~(cl_command_queue_properties)CL_QUEUE_PROFILING_ENABLE;
		if (props & CL_QUEUE_PROFILING_ENABLE) {
			if (enable)
				forced_remove(q);
			else if (!how)
				forced_add(q, FORCED_BIT);
		}
	}
	END_CALL("clSetCommandQueueProperty", err, "%p, %#lx, %s, %s", (void *)q,
		 (unsigned long)props, enable ? "CL_TRUE" : "CL_FALSE", old ? "&old" : "NULL");
	return err;
}

static cl_int CL_API_CALL l_clGetEventProfilingInfo(cl_event ev, cl_profiling_info what,
						    size_t size, void *value, size_t *ret)
{
	cl_command_queue q = NULL;
	/* not recording, or no queue forced: nothing to hide */
	if (!recording() || !__atomic_load_n(&forced_count, __ATOMIC_ACQUIRE))
		return next->clGetEventProfilingInfo(ev, what, size, value, ret);
	if (next->clGetEventInfo(ev, CL_EVENT_COMMAND_QUEUE, sizeof(q), &q, NULL) == CL_SUCCESS &&
	    q && forced_has(q))
		return CL_PROFILING_INFO_NOT_AVAILABLE;
	return next->clGetEventProfilingInfo(ev, what, size, value, ret);
}

static cl_int CL_API_CALL l_clReleaseCommandQueue(cl_command_queue q)
{
	BEGIN;
	cl_uint refs = 0;
	next->clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof(refs), &refs, NULL);
	cl_int err = next->clReleaseCommandQueue(q);
	if (err == CL_SUCCESS && refs == 1)
		forced_remove(q);
	END_CALL("clReleaseCommandQueue", err, "%p", (void *)q);
	return err;
}

static cl_mem CL_API_CALL l_clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size,
					   void *host, cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_mem m = next->clCreateBuffer(ctx, flags, size, host, &err);
	if (errp)
		*errp = err;
	END_CALL("clCreateBuffer", err, "%p, %#lx, %zu, %p, %s", (void *)ctx, (unsigned long)flags,
		 size, host, errp ? "&err" : "NULL");
	return m;
}

static cl_program CL_API_CALL l_clCreateProgramWithSource(cl_context ctx, cl_uint n,
							  const char **src, const size_t *lens,
							  cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_program p = next->clCreateProgramWithSource(ctx, n, src, lens, &err);
	if (errp)
		*errp = err;
	END_CALL("clCreateProgramWithSource", err, "%p, %u, [...], %s, %s", (void *)ctx, n,
		 lens ? "[...]" : "NULL", errp ? "&err" : "NULL");
	return p;
}

static cl_int CL_API_CALL l_clBuildProgram(cl_program p, cl_uint n, const cl_device_id *devs,
					   const char *opts,
					   void(CL_CALLBACK *cb)(cl_program, void *), void *ud)
{
	BEGIN;
	cl_int err = next->clBuildProgram(p, n, devs, opts, cb, ud);
	END_CALL("clBuildProgram", err, "%p, %u, %s, \"%s\", %s, %p", (void *)p, n,
		 devs ? "[...]" : "NULL", opts ? opts : "", cb ? "callback" : "NULL", ud);
	return err;
}

static cl_kernel CL_API_CALL l_clCreateKernel(cl_program p, const char *name, cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_kernel k = next->clCreateKernel(p, name, &err);
	if (errp)
		*errp = err;
	END_CALL("clCreateKernel", err, "%p, \"%s\", %s", (void *)p, name ? name : "",
		 errp ? "&err" : "NULL");
	return k;
}

static cl_int CL_API_CALL l_clSetKernelArg(cl_kernel k, cl_uint i, size_t size, const void *v)
{
	BEGIN;
	cl_int err = next->clSetKernelArg(k, i, size, v);
	END_CALL("clSetKernelArg", err, "%p, %u, %zu, %p", (void *)k, i, size, v);
	return err;
}

/* After an enqueue: the call's record (timed when its command will be),
 * then its command watched until it completes. */
static void enqueued(const char *fn, uint64_t t0, cl_int err, cl_command_queue q, cl_event *user,
		     cl_event *use, uint32_t kind, uint64_t bytes, const char *cmd, struct text *a,
		     cl_bool blocking)
{
	uint64_t t1 = now_ns(CLOCK_MONOTONIC);
	TEXT(r);
	int timed = err == CL_SUCCESS && use && *use;
	result_text(&r, err);
	put_call_typed(timed ? GENBA_GPU_CALL_TIMED : GENBA_GPU_CALL, fn, t0, t1, err, a->b, r.b);
	if (timed)
		watch(q, user, *use, kind, bytes, cmd, t0, t1, blocking);
}

/* Every enqueue wrapper names its queue q, its wait list nw, its event evp. */
#define ENQ_BEGIN                                                              \
	cl_event own = NULL;                                                   \
	cl_bool blk = CL_FALSE;                                                \
	uint64_t t0 = recording() ? now_ns(CLOCK_MONOTONIC) : 0;               \
	cl_event *use = recording() ? event_for(evp, &own) : evp
#define ENQ_END(fn, kind, bytes, cmd, ...)                                     \
	do {                                                                   \
		if (recording()) {                                             \
			TEXT(a);                                               \
			add(&a, __VA_ARGS__);                                  \
			add_wait(&a, nw, evp);                                 \
			enqueued(fn, t0, err, q, evp, use, kind, bytes, cmd, &a, blk); \
		}                                                              \
	} while (0)

static const char *tf(cl_bool b)
{
	return b ? "CL_TRUE" : "CL_FALSE";
}

/* "[x, y, z]" of a rectangle's origin or region */
static void add3(struct text *t, const size_t *v)
{
	if (v)
		add(t, "[%zu, %zu, %zu]", v[0], v[1], v[2]);
	else
		add(t, "NULL");
}

/* Two or three of them, comma-separated (`c` NULL: two). */
static void add3s(struct text *t, const size_t *a, const size_t *b, const size_t *c)
{
	add3(t, a);
	add(t, ", ");
	add3(t, b);
	if (c) {
		add(t, ", ");
		add3(t, c);
	}
}

static uint64_t volume(const size_t *r)
{
	return r ? (uint64_t)r[0] * r[1] * r[2] : 0;
}

static cl_int CL_API_CALL l_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
						   const size_t *off, const size_t *global,
						   const size_t *local, cl_uint nw,
						   const cl_event *wait, cl_event *evp)
{
	char name[128] = "";
	ENQ_BEGIN;
	cl_int err = next->clEnqueueNDRangeKernel(q, k, dim, off, global, local, nw, wait, use);
	if (recording()) {
		TEXT(a);
		kernel_name(k, name, sizeof(name));
		add(&a, "%p, \"%s\", %u, ", (void *)q, name, dim);
		add_sizes(&a, dim, off);
		add(&a, ", ");
		add_sizes(&a, dim, global);
		add(&a, ", ");
		add_sizes(&a, dim, local);
		add_wait(&a, nw, evp);
		enqueued("clEnqueueNDRangeKernel", t0, err, q, evp, use, GENBA_GPU_KERNEL, 0, name, &a, blk);
	}
	return err;
}

static cl_int CL_API_CALL l_clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint nw,
					  const cl_event *wait, cl_event *evp)
{
	char name[128] = "";
	ENQ_BEGIN;
	cl_int err = next->clEnqueueTask(q, k, nw, wait, use);
	if (recording()) {
		TEXT(a);
		kernel_name(k, name, sizeof(name));
		add(&a, "%p, \"%s\"", (void *)q, name);
		add_wait(&a, nw, evp);
		enqueued("clEnqueueTask", t0, err, q, evp, use, GENBA_GPU_KERNEL, 0, name, &a, blk);
	}
	return err;
}

static cl_int CL_API_CALL l_clEnqueueNativeKernel(cl_command_queue q, void(CL_CALLBACK *fn)(void *),
						  void *args, size_t cb, cl_uint nmem,
						  const cl_mem *mems, const void **locs, cl_uint nw,
						  const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueNativeKernel(q, fn, args, cb, nmem, mems, locs, nw, wait, use);
	ENQ_END("clEnqueueNativeKernel", GENBA_GPU_KERNEL, 0, "native kernel",
		"%p, %p, %p, %zu, %u, %s, %s", (void *)q, (void *)fn, args, cb, nmem,
		mems ? "[...]" : "NULL", locs ? "[...]" : "NULL");
	return err;
}

static cl_int CL_API_CALL l_clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
						size_t off, size_t size, void *ptr, cl_uint nw,
						const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	blk = blocking;
	cl_int err = next->clEnqueueReadBuffer(q, m, blocking, off, size, ptr, nw, wait, use);
	ENQ_END("clEnqueueReadBuffer", GENBA_GPU_READ, size, "read buffer",
		"%p, %p, %s, %zu, %zu, %p", (void *)q, (void *)m, tf(blocking), off, size, ptr);
	return err;
}

static cl_int CL_API_CALL l_clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
						 size_t off, size_t size, const void *ptr,
						 cl_uint nw, const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	blk = blocking;
	cl_int err = next->clEnqueueWriteBuffer(q, m, blocking, off, size, ptr, nw, wait, use);
	ENQ_END("clEnqueueWriteBuffer", GENBA_GPU_WRITE, size, "write buffer",
		"%p, %p, %s, %zu, %zu, %p", (void *)q, (void *)m, tf(blocking), off, size, ptr);
	return err;
}

static cl_int CL_API_CALL l_clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
						    const size_t *bo, const size_t *ho,
						    const size_t *region, size_t brp, size_t bsp,
						    size_t hrp, size_t hsp, void *ptr, cl_uint nw,
						    const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	blk = blocking;
	cl_int err = next->clEnqueueReadBufferRect(q, m, blocking, bo, ho, region, brp, bsp, hrp,
						   hsp, ptr, nw, wait, use);
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %s, ", (void *)q, (void *)m, tf(blocking));
		add3s(&a, bo, ho, region);
		add(&a, ", %zu, %zu, %zu, %zu, %p", brp, bsp, hrp, hsp, ptr);
		add_wait(&a, nw, evp);
		enqueued("clEnqueueReadBufferRect", t0, err, q, evp, use, GENBA_GPU_READ,
			 volume(region), "read buffer rect", &a, blk);
	}
	return err;
}

static cl_int CL_API_CALL l_clEnqueueWriteBufferRect(cl_command_queue q, cl_mem m,
						     cl_bool blocking, const size_t *bo,
						     const size_t *ho, const size_t *region,
						     size_t brp, size_t bsp, size_t hrp, size_t hsp,
						     const void *ptr, cl_uint nw,
						     const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	blk = blocking;
	cl_int err = next->clEnqueueWriteBufferRect(q, m, blocking, bo, ho, region, brp, bsp, hrp,
						    hsp, ptr, nw, wait, use);
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %s, ", (void *)q, (void *)m, tf(blocking));
		add3s(&a, bo, ho, region);
		add(&a, ", %zu, %zu, %zu, %zu, %p", brp, bsp, hrp, hsp, ptr);
		add_wait(&a, nw, evp);
		enqueued("clEnqueueWriteBufferRect", t0, err, q, evp, use, GENBA_GPU_WRITE,
			 volume(region), "write buffer rect", &a, blk);
	}
	return err;
}

static cl_int CL_API_CALL l_clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
						size_t so, size_t dof, size_t size, cl_uint nw,
						const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueCopyBuffer(q, src, dst, so, dof, size, nw, wait, use);
	ENQ_END("clEnqueueCopyBuffer", GENBA_GPU_COPY, size, "copy buffer",
		"%p, %p, %p, %zu, %zu, %zu", (void *)q, (void *)src, (void *)dst, so, dof, size);
	return err;
}

static cl_int CL_API_CALL l_clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst,
						    const size_t *so, const size_t *dof,
						    const size_t *region, size_t srp, size_t ssp,
						    size_t drp, size_t dsp, cl_uint nw,
						    const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueCopyBufferRect(q, src, dst, so, dof, region, srp, ssp, drp, dsp,
						   nw, wait, use);
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %p, ", (void *)q, (void *)src, (void *)dst);
		add3s(&a, so, dof, region);
		add(&a, ", %zu, %zu, %zu, %zu", srp, ssp, drp, dsp);
		add_wait(&a, nw, evp);
		enqueued("clEnqueueCopyBufferRect", t0, err, q, evp, use, GENBA_GPU_COPY,
			 volume(region), "copy buffer rect", &a, blk);
	}
	return err;
}

static cl_int CL_API_CALL l_clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pat,
						size_t psize, size_t off, size_t size, cl_uint nw,
						const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueFillBuffer(q, m, pat, psize, off, size, nw, wait, use);
	ENQ_END("clEnqueueFillBuffer", GENBA_GPU_FILL, size, "fill buffer",
		"%p, %p, %p, %zu, %zu, %zu", (void *)q, (void *)m, pat, psize, off, size);
	return err;
}

/* An image's bytes in a region: its element size times the region. */
static uint64_t image_bytes(cl_mem img, const size_t *region)
{
	size_t elem = 0;
	if (!region || next->clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof(elem), &elem, NULL) !=
			       CL_SUCCESS)
		return 0;
	return elem * volume(region);
}

static cl_int CL_API_CALL l_clEnqueueReadImage(cl_command_queue q, cl_mem img, cl_bool blocking,
					       const size_t *origin, const size_t *region,
					       size_t rp, size_t sp, void *ptr, cl_uint nw,
					       const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	blk = blocking;
	cl_int err = next->clEnqueueReadImage(q, img, blocking, origin, region, rp, sp, ptr, nw,
					      wait, use);
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %s, ", (void *)q, (void *)img, tf(blocking));
		add3s(&a, origin, region, NULL);
		add(&a, ", %zu, %zu, %p", rp, sp, ptr);
		add_wait(&a, nw, evp);
		enqueued("clEnqueueReadImage", t0, err, q, evp, use, GENBA_GPU_READ,
			 image_bytes(img, region), "read image", &a, blk);
	}
	return err;
}

static cl_int CL_API_CALL l_clEnqueueWriteImage(cl_command_queue q, cl_mem img, cl_bool blocking,
						const size_t *origin, const size_t *region,
						size_t rp, size_t sp, const void *ptr, cl_uint nw,
						const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	blk = blocking;
	cl_int err = next->clEnqueueWriteImage(q, img, blocking, origin, region, rp, sp, ptr, nw,
					       wait, use);
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %s, ", (void *)q, (void *)img, tf(blocking));
		add3s(&a, origin, region, NULL);
		add(&a, ", %zu, %zu, %p", rp, sp, ptr);
		add_wait(&a, nw, evp);
		enqueued("clEnqueueWriteImage", t0, err, q, evp, use, GENBA_GPU_WRITE,
			 image_bytes(img, region), "write image", &a, blk);
	}
	return err;
}

static cl_int CL_API_CALL l_clEnqueueFillImage(cl_command_queue q, cl_mem img, const void *color,
					       const size_t *origin, const size_t *region,
					       cl_uint nw, const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueFillImage(q, img, color, origin, region, nw, wait, use);
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %p, ", (void *)q, (void *)img, color);
		add3s(&a, origin, region, NULL);
		add_wait(&a, nw, evp);
		enqueued("clEnqueueFillImage", t0, err, q, evp, use, GENBA_GPU_FILL,
			 image_bytes(img, region), "fill image", &a, blk);
	}
	return err;
}

static cl_int CL_API_CALL l_clEnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst,
					       const size_t *so, const size_t *dof,
					       const size_t *region, cl_uint nw,
					       const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueCopyImage(q, src, dst, so, dof, region, nw, wait, use);
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %p, ", (void *)q, (void *)src, (void *)dst);
		add3s(&a, so, dof, region);
		add_wait(&a, nw, evp);
		enqueued("clEnqueueCopyImage", t0, err, q, evp, use, GENBA_GPU_COPY,
			 image_bytes(src, region), "copy image", &a, blk);
	}
	return err;
}

static cl_int CL_API_CALL l_clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
						       const size_t *so, const size_t *region,
						       size_t dof, cl_uint nw,
						       const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueCopyImageToBuffer(q, src, dst, so, region, dof, nw, wait, use);
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %p, ", (void *)q, (void *)src, (void *)dst);
		add3(&a, so);
		add(&a, ", ");
		add3(&a, region);
		add(&a, ", %zu", dof);
		add_wait(&a, nw, evp);
		enqueued("clEnqueueCopyImageToBuffer", t0, err, q, evp, use, GENBA_GPU_COPY,
			 image_bytes(src, region), "copy image to buffer", &a, blk);
	}
	return err;
}

static cl_int CL_API_CALL l_clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem src, cl_mem dst,
						       size_t so, const size_t *dof,
						       const size_t *region, cl_uint nw,
						       const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueCopyBufferToImage(q, src, dst, so, dof, region, nw, wait, use);
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %p, %zu, ", (void *)q, (void *)src, (void *)dst, so);
		add3(&a, dof);
		add(&a, ", ");
		add3(&a, region);
		add_wait(&a, nw, evp);
		enqueued("clEnqueueCopyBufferToImage", t0, err, q, evp, use, GENBA_GPU_COPY,
			 image_bytes(dst, region), "copy buffer to image", &a, blk);
	}
	return err;
}

static void *CL_API_CALL l_clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool blocking,
					      cl_map_flags flags, size_t off, size_t size,
					      cl_uint nw, const cl_event *wait, cl_event *evp,
					      cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	ENQ_BEGIN;
	blk = blocking;
	void *p = next->clEnqueueMapBuffer(q, m, blocking, flags, off, size, nw, wait, use, &err);
	if (errp)
		*errp = err;
	ENQ_END("clEnqueueMapBuffer", GENBA_GPU_MAP, size, "map buffer",
		"%p, %p, %s, %#lx, %zu, %zu", (void *)q, (void *)m, tf(blocking),
		(unsigned long)flags, off, size);
	return p;
}

static void *CL_API_CALL l_clEnqueueMapImage(cl_command_queue q, cl_mem img, cl_bool blocking,
					     cl_map_flags flags, const size_t *origin,
					     const size_t *region, size_t *rp, size_t *sp,
					     cl_uint nw, const cl_event *wait, cl_event *evp,
					     cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	ENQ_BEGIN;
	blk = blocking;
	void *p = next->clEnqueueMapImage(q, img, blocking, flags, origin, region, rp, sp, nw, wait,
					  use, &err);
	if (errp)
		*errp = err;
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %s, %#lx, ", (void *)q, (void *)img, tf(blocking),
		    (unsigned long)flags);
		add3s(&a, origin, region, NULL);
		add_wait(&a, nw, evp);
		enqueued("clEnqueueMapImage", t0, err, q, evp, use, GENBA_GPU_MAP,
			 image_bytes(img, region), "map image", &a, blk);
	}
	return p;
}

static cl_int CL_API_CALL l_clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *ptr,
						    cl_uint nw, const cl_event *wait,
						    cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueUnmapMemObject(q, m, ptr, nw, wait, use);
	ENQ_END("clEnqueueUnmapMemObject", GENBA_GPU_UNMAP, 0, "unmap", "%p, %p, %p", (void *)q,
		(void *)m, ptr);
	return err;
}

static cl_int CL_API_CALL l_clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint n,
						       const cl_mem *mems, cl_mem_migration_flags f,
						       cl_uint nw, const cl_event *wait,
						       cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueMigrateMemObjects(q, n, mems, f, nw, wait, use);
	ENQ_END("clEnqueueMigrateMemObjects", GENBA_GPU_OTHER, 0, "migrate", "%p, %u, %s, %#lx",
		(void *)q, n, mems ? "[...]" : "NULL", (unsigned long)f);
	return err;
}

static cl_int CL_API_CALL l_clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint nw,
							const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueMarkerWithWaitList(q, nw, wait, use);
	ENQ_END("clEnqueueMarkerWithWaitList", GENBA_GPU_MARKER, 0, "marker", "%p", (void *)q);
	return err;
}

static cl_int CL_API_CALL l_clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint nw,
							 const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueBarrierWithWaitList(q, nw, wait, use);
	ENQ_END("clEnqueueBarrierWithWaitList", GENBA_GPU_MARKER, 0, "barrier", "%p", (void *)q);
	return err;
}

/* OpenCL 1.1's marker, barrier and wait: no wait list of their own. */
static cl_int CL_API_CALL l_clEnqueueMarker(cl_command_queue q, cl_event *evp)
{
	/* its event is not optional: the program's own, as it passed it */
	const cl_uint nw = 0;
	const cl_bool blk = CL_FALSE;
	uint64_t t0 = recording() ? now_ns(CLOCK_MONOTONIC) : 0;
	cl_event *use = evp;
	cl_int err = next->clEnqueueMarker(q, use);
	ENQ_END("clEnqueueMarker", GENBA_GPU_MARKER, 0, "marker", "%p", (void *)q);
	return err;
}

static cl_int CL_API_CALL l_clEnqueueBarrier(cl_command_queue q)
{
	BEGIN;
	cl_int err = next->clEnqueueBarrier(q);
	END_CALL("clEnqueueBarrier", err, "%p", (void *)q);
	return err;
}

static cl_int CL_API_CALL l_clEnqueueWaitForEvents(cl_command_queue q, cl_uint n,
						   const cl_event *evs)
{
	BEGIN;
	cl_int err = next->clEnqueueWaitForEvents(q, n, evs);
	END_CALL("clEnqueueWaitForEvents", err, "%p, %u, %s", (void *)q, n, evs ? "[...]" : "NULL");
	return err;
}

static cl_int CL_API_CALL l_clEnqueueSVMFree(cl_command_queue q, cl_uint n, void *ptrs[],
					     void(CL_CALLBACK *fn)(cl_command_queue, cl_uint,
								   void *[], void *),
					     void *ud, cl_uint nw, const cl_event *wait,
					     cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueSVMFree(q, n, ptrs, fn, ud, nw, wait, use);
	ENQ_END("clEnqueueSVMFree", GENBA_GPU_OTHER, 0, "svm free", "%p, %u, [...], %s, %p",
		(void *)q, n, fn ? "callback" : "NULL", ud);
	return err;
}

static cl_int CL_API_CALL l_clEnqueueSVMMemcpy(cl_command_queue q, cl_bool blocking, void *dst,
					       const void *src, size_t size, cl_uint nw,
					       const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	blk = blocking;
	cl_int err = next->clEnqueueSVMMemcpy(q, blocking, dst, src, size, nw, wait, use);
	ENQ_END("clEnqueueSVMMemcpy", GENBA_GPU_COPY, size, "svm memcpy", "%p, %s, %p, %p, %zu",
		(void *)q, tf(blocking), dst, src, size);
	return err;
}

static cl_int CL_API_CALL l_clEnqueueSVMMemFill(cl_command_queue q, void *ptr, const void *pat,
						size_t psize, size_t size, cl_uint nw,
						const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueSVMMemFill(q, ptr, pat, psize, size, nw, wait, use);
	ENQ_END("clEnqueueSVMMemFill", GENBA_GPU_FILL, size, "svm fill", "%p, %p, %p, %zu, %zu",
		(void *)q, ptr, pat, psize, size);
	return err;
}

static cl_int CL_API_CALL l_clEnqueueSVMMap(cl_command_queue q, cl_bool blocking,
					    cl_map_flags flags, void *ptr, size_t size, cl_uint nw,
					    const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	blk = blocking;
	cl_int err = next->clEnqueueSVMMap(q, blocking, flags, ptr, size, nw, wait, use);
	ENQ_END("clEnqueueSVMMap", GENBA_GPU_MAP, size, "svm map", "%p, %s, %#lx, %p, %zu",
		(void *)q, tf(blocking), (unsigned long)flags, ptr, size);
	return err;
}

static cl_int CL_API_CALL l_clEnqueueSVMUnmap(cl_command_queue q, void *ptr, cl_uint nw,
					      const cl_event *wait, cl_event *evp)
{
	ENQ_BEGIN;
	cl_int err = next->clEnqueueSVMUnmap(q, ptr, nw, wait, use);
	ENQ_END("clEnqueueSVMUnmap", GENBA_GPU_UNMAP, 0, "svm unmap", "%p, %p", (void *)q, ptr);
	return err;
}

static cl_int CL_API_CALL l_clFinish(cl_command_queue q)
{
	BEGIN;
	cl_int err = next->clFinish(q);
	if (recording() && err == CL_SUCCESS)
		waits_returned(q, t0, 0, NULL, now_ns(CLOCK_MONOTONIC));
	END_CALL("clFinish", err, "%p", (void *)q);
	return err;
}

static cl_int CL_API_CALL l_clFlush(cl_command_queue q)
{
	BEGIN;
	cl_int err = next->clFlush(q);
	END_CALL("clFlush", err, "%p", (void *)q);
	return err;
}

static cl_int CL_API_CALL l_clWaitForEvents(cl_uint n, const cl_event *evs)
{
	BEGIN;
	cl_int err = next->clWaitForEvents(n, evs);
	if (recording() && err == CL_SUCCESS)
		waits_returned(NULL, t0, n, evs, now_ns(CLOCK_MONOTONIC));
	END_CALL("clWaitForEvents", err, "%u, %s", n, evs ? "[...]" : "NULL");
	return err;
}

static cl_int CL_API_CALL l_clReleaseMemObject(cl_mem m)
{
	BEGIN;
	cl_int err = next->clReleaseMemObject(m);
	END_CALL("clReleaseMemObject", err, "%p", (void *)m);
	return err;
}

static cl_int CL_API_CALL l_clReleaseKernel(cl_kernel k)
{
	BEGIN;
	cl_int err = next->clReleaseKernel(k);
	END_CALL("clReleaseKernel", err, "%p", (void *)k);
	return err;
}

static cl_int CL_API_CALL l_clReleaseProgram(cl_program p)
{
	BEGIN;
	cl_int err = next->clReleaseProgram(p);
	END_CALL("clReleaseProgram", err, "%p", (void *)p);
	return err;
}

static cl_int CL_API_CALL l_clReleaseContext(cl_context c)
{
	BEGIN;
	cl_int err = next->clReleaseContext(c);
	END_CALL("clReleaseContext", err, "%p", (void *)c);
	return err;
}

/* ---- platforms, devices, programs, kernels, buffers, images ------------ */

/* "[n]" of a count written back on success, else the pointer's place */
static void add_count(struct text *t, cl_int err, const cl_uint *n)
{
	if (n && err == CL_SUCCESS)
		add(t, "[%u]", *n);
	else
		add(t, "%s", n ? "&n" : "NULL");
}

static const char *device_type(cl_device_type t)
{
	switch (t) {
	case CL_DEVICE_TYPE_DEFAULT: return "CL_DEVICE_TYPE_DEFAULT";
	case CL_DEVICE_TYPE_CPU: return "CL_DEVICE_TYPE_CPU";
	case CL_DEVICE_TYPE_GPU: return "CL_DEVICE_TYPE_GPU";
	case CL_DEVICE_TYPE_ACCELERATOR: return "CL_DEVICE_TYPE_ACCELERATOR";
	case CL_DEVICE_TYPE_CUSTOM: return "CL_DEVICE_TYPE_CUSTOM";
	case CL_DEVICE_TYPE_ALL: return "CL_DEVICE_TYPE_ALL";
	}
	return NULL;
}

static cl_int CL_API_CALL l_clGetPlatformIDs(cl_uint n, cl_platform_id *plats, cl_uint *nret)
{
	BEGIN;
	cl_int err = next->clGetPlatformIDs(n, plats, nret);
	if (recording()) {
		TEXT(x);
		add(&x, "%u, %s, ", n, plats ? "[...]" : "NULL");
		add_count(&x, err, nret);
		END_CALL("clGetPlatformIDs", err, "%s", x.b);
	}
	return err;
}

static cl_int CL_API_CALL l_clGetDeviceIDs(cl_platform_id plat, cl_device_type type, cl_uint n,
					   cl_device_id *devs, cl_uint *nret)
{
	BEGIN;
	cl_int err = next->clGetDeviceIDs(plat, type, n, devs, nret);
	if (recording()) {
		TEXT(x);
		const char *tn = device_type(type);
		add(&x, "%p, ", (void *)plat);
		if (tn)
			add(&x, "%s", tn);
		else
			add(&x, "%#lx", (unsigned long)type);
		add(&x, ", %u, %s, ", n, devs ? "[...]" : "NULL");
		add_count(&x, err, nret);
		END_CALL("clGetDeviceIDs", err, "%s", x.b);
	}
	return err;
}

static cl_program CL_API_CALL l_clCreateProgramWithBinary(cl_context ctx, cl_uint n,
							  const cl_device_id *devs,
							  const size_t *lens,
							  const unsigned char **bins,
							  cl_int *status, cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_program p = next->clCreateProgramWithBinary(ctx, n, devs, lens, bins, status, &err);
	if (errp)
		*errp = err;
	if (recording()) {
		TEXT(x);
		add(&x, "%p, %u, %s, ", (void *)ctx, n, devs ? "[...]" : "NULL");
		if (lens && n)
			add(&x, "[%zu%s]", lens[0], n > 1 ? ", ..." : "");
		else
			add(&x, "NULL");
		add(&x, ", %s, %s, %s", bins ? "[...]" : "NULL", status ? "[...]" : "NULL",
		    errp ? "&err" : "NULL");
		END_CALL("clCreateProgramWithBinary", err, "%s", x.b);
	}
	return p;
}

static cl_program CL_API_CALL l_clCreateProgramWithIL(cl_context ctx, const void *il, size_t len,
						      cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_program p = next->clCreateProgramWithIL(ctx, il, len, &err);
	if (errp)
		*errp = err;
	END_CALL("clCreateProgramWithIL", err, "%p, %p, %zu, %s", (void *)ctx, il, len,
		 errp ? "&err" : "NULL");
	return p;
}

static cl_int CL_API_CALL l_clCompileProgram(cl_program p, cl_uint n, const cl_device_id *devs,
					     const char *opts, cl_uint nh, const cl_program *hdrs,
					     const char **names,
					     void(CL_CALLBACK *cb)(cl_program, void *), void *ud)
{
	BEGIN;
	cl_int err = next->clCompileProgram(p, n, devs, opts, nh, hdrs, names, cb, ud);
	END_CALL("clCompileProgram", err, "%p, %u, %s, \"%s\", %u, %s, %s, %s, %p", (void *)p, n,
		 devs ? "[...]" : "NULL", opts ? opts : "", nh, hdrs ? "[...]" : "NULL",
		 names ? "[...]" : "NULL", cb ? "callback" : "NULL", ud);
	return err;
}

static cl_program CL_API_CALL l_clLinkProgram(cl_context ctx, cl_uint n, const cl_device_id *devs,
					      const char *opts, cl_uint np, const cl_program *progs,
					      void(CL_CALLBACK *cb)(cl_program, void *), void *ud,
					      cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_program p = next->clLinkProgram(ctx, n, devs, opts, np, progs, cb, ud, &err);
	if (errp)
		*errp = err;
	END_CALL("clLinkProgram", err, "%p, %u, %s, \"%s\", %u, %s, %s, %p, %s", (void *)ctx, n,
		 devs ? "[...]" : "NULL", opts ? opts : "", np, progs ? "[...]" : "NULL",
		 cb ? "callback" : "NULL", ud, errp ? "&err" : "NULL");
	return p;
}

static cl_int CL_API_CALL l_clCreateKernelsInProgram(cl_program p, cl_uint n, cl_kernel *ks,
						     cl_uint *nret)
{
	BEGIN;
	cl_int err = next->clCreateKernelsInProgram(p, n, ks, nret);
	if (recording()) {
		TEXT(x);
		add(&x, "%p, %u, %s, ", (void *)p, n, ks ? "[...]" : "NULL");
		add_count(&x, err, nret);
		END_CALL("clCreateKernelsInProgram", err, "%s", x.b);
	}
	return err;
}

static cl_kernel CL_API_CALL l_clCloneKernel(cl_kernel k, cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	char name[128] = "";
	BEGIN;
	cl_kernel c = next->clCloneKernel(k, &err);
	if (errp)
		*errp = err;
	if (recording()) {
		kernel_name(k, name, sizeof(name));
		/* the kernel by its name, as the enqueues show it */
		END_CALL("clCloneKernel", err, "\"%s\", %s", name, errp ? "&err" : "NULL");
	}
	return c;
}

static cl_mem CL_API_CALL l_clCreateBufferWithProperties(cl_context ctx,
							 const cl_mem_properties *props,
							 cl_mem_flags flags, size_t size, void *host,
							 cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_mem m = next->clCreateBufferWithProperties(ctx, props, flags, size, host, &err);
	if (errp)
		*errp = err;
	END_CALL("clCreateBufferWithProperties", err, "%p, %s, %#lx, %zu, %p, %s", (void *)ctx,
		 props ? "[...]" : "NULL", (unsigned long)flags, size, host,
		 errp ? "&err" : "NULL");
	return m;
}

static cl_mem CL_API_CALL l_clCreateSubBuffer(cl_mem buf, cl_mem_flags flags,
					      cl_buffer_create_type type, const void *info,
					      cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_mem m = next->clCreateSubBuffer(buf, flags, type, info, &err);
	if (errp)
		*errp = err;
	if (recording()) {
		TEXT(x);
		add(&x, "%p, %#lx, ", (void *)buf, (unsigned long)flags);
		if (type == CL_BUFFER_CREATE_TYPE_REGION && info) {
			const cl_buffer_region *r = info;
			add(&x, "CL_BUFFER_CREATE_TYPE_REGION, {origin=%zu, size=%zu}", r->origin,
			    r->size);
		} else {
			add(&x, "%#x, %p", (unsigned)type, info);
		}
		add(&x, ", %s", errp ? "&err" : "NULL");
		END_CALL("clCreateSubBuffer", err, "%s", x.b);
	}
	return m;
}

/* "{CL_RGBA, CL_FLOAT}"-like, as numbers */
static void add_format(struct text *t, const cl_image_format *f)
{
	if (f)
		add(t, "{%#x, %#x}", (unsigned)f->image_channel_order,
		    (unsigned)f->image_channel_data_type);
	else
		add(t, "NULL");
}

static void add_desc(struct text *t, const cl_image_desc *d)
{
	if (d)
		add(t, "{type=%#x, %zux%zux%zu, array=%zu}", (unsigned)d->image_type,
		    d->image_width, d->image_height, d->image_depth, d->image_array_size);
	else
		add(t, "NULL");
}

static cl_mem CL_API_CALL l_clCreateImage(cl_context ctx, cl_mem_flags flags,
					  const cl_image_format *fmt, const cl_image_desc *desc,
					  void *host, cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_mem m = next->clCreateImage(ctx, flags, fmt, desc, host, &err);
	if (errp)
		*errp = err;
	if (recording()) {
		TEXT(x);
		add(&x, "%p, %#lx, ", (void *)ctx, (unsigned long)flags);
		add_format(&x, fmt);
		add(&x, ", ");
		add_desc(&x, desc);
		add(&x, ", %p, %s", host, errp ? "&err" : "NULL");
		END_CALL("clCreateImage", err, "%s", x.b);
	}
	return m;
}

static cl_mem CL_API_CALL l_clCreateImageWithProperties(cl_context ctx,
							const cl_mem_properties *props,
							cl_mem_flags flags,
							const cl_image_format *fmt,
							const cl_image_desc *desc, void *host,
							cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_mem m = next->clCreateImageWithProperties(ctx, props, flags, fmt, desc, host, &err);
	if (errp)
		*errp = err;
	if (recording()) {
		TEXT(x);
		add(&x, "%p, %s, %#lx, ", (void *)ctx, props ? "[...]" : "NULL",
		    (unsigned long)flags);
		add_format(&x, fmt);
		add(&x, ", ");
		add_desc(&x, desc);
		add(&x, ", %p, %s", host, errp ? "&err" : "NULL");
		END_CALL("clCreateImageWithProperties", err, "%s", x.b);
	}
	return m;
}

static cl_mem CL_API_CALL l_clCreateImage2D(cl_context ctx, cl_mem_flags flags,
					    const cl_image_format *fmt, size_t w, size_t h,
					    size_t rp, void *host, cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_mem m = next->clCreateImage2D(ctx, flags, fmt, w, h, rp, host, &err);
	if (errp)
		*errp = err;
	if (recording()) {
		TEXT(x);
		add(&x, "%p, %#lx, ", (void *)ctx, (unsigned long)flags);
		add_format(&x, fmt);
		add(&x, ", %zu, %zu, %zu, %p, %s", w, h, rp, host, errp ? "&err" : "NULL");
		END_CALL("clCreateImage2D", err, "%s", x.b);
	}
	return m;
}

static cl_mem CL_API_CALL l_clCreateImage3D(cl_context ctx, cl_mem_flags flags,
					    const cl_image_format *fmt, size_t w, size_t h,
					    size_t d, size_t rp, size_t sp, void *host,
					    cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	BEGIN;
	cl_mem m = next->clCreateImage3D(ctx, flags, fmt, w, h, d, rp, sp, host, &err);
	if (errp)
		*errp = err;
	if (recording()) {
		TEXT(x);
		add(&x, "%p, %#lx, ", (void *)ctx, (unsigned long)flags);
		add_format(&x, fmt);
		add(&x, ", %zu, %zu, %zu, %zu, %zu, %p, %s", w, h, d, rp, sp, host,
		    errp ? "&err" : "NULL");
		END_CALL("clCreateImage3D", err, "%s", x.b);
	}
	return m;
}

static cl_int CL_API_CALL l_clEnqueueSVMMigrateMem(cl_command_queue q, cl_uint n,
						   const void **ptrs, const size_t *sizes,
						   cl_mem_migration_flags f, cl_uint nw,
						   const cl_event *wait, cl_event *evp)
{
	uint64_t bytes = 0;
	ENQ_BEGIN;
	cl_int err = next->clEnqueueSVMMigrateMem(q, n, ptrs, sizes, f, nw, wait, use);
	for (cl_uint i = 0; sizes && i < n; i++)
		bytes += sizes[i];
	ENQ_END("clEnqueueSVMMigrateMem", GENBA_GPU_OTHER, bytes, "svm migrate",
		"%p, %u, %s, %s, %#lx", (void *)q, n, ptrs ? "[...]" : "NULL",
		sizes ? "[...]" : "NULL", (unsigned long)f);
	return err;
}

/* ---- the calls hooked --------------------------------------------------- */

#define OCL_HOOKED(X) \
	X(clCreateContext) \
	X(clCreateContextFromType) \
	X(clCreateCommandQueue) \
	X(clCreateCommandQueueWithProperties) \
	X(clGetCommandQueueInfo) \
	X(clGetEventProfilingInfo) \
	X(clReleaseCommandQueue) \
	X(clCreateBuffer) \
	X(clCreateProgramWithSource) \
	X(clBuildProgram) \
	X(clCreateKernel) \
	X(clSetKernelArg) \
	X(clEnqueueNDRangeKernel) \
	X(clEnqueueTask) \
	X(clEnqueueNativeKernel) \
	X(clEnqueueReadBuffer) \
	X(clEnqueueWriteBuffer) \
	X(clEnqueueReadBufferRect) \
	X(clEnqueueWriteBufferRect) \
	X(clEnqueueCopyBuffer) \
	X(clEnqueueCopyBufferRect) \
	X(clEnqueueFillBuffer) \
	X(clEnqueueReadImage) \
	X(clEnqueueWriteImage) \
	X(clEnqueueFillImage) \
	X(clEnqueueCopyImage) \
	X(clEnqueueCopyImageToBuffer) \
	X(clEnqueueCopyBufferToImage) \
	X(clEnqueueMapBuffer) \
	X(clEnqueueMapImage) \
	X(clEnqueueUnmapMemObject) \
	X(clEnqueueMigrateMemObjects) \
	X(clEnqueueMarkerWithWaitList) \
	X(clEnqueueBarrierWithWaitList) \
	X(clEnqueueMarker) \
	X(clEnqueueBarrier) \
	X(clEnqueueWaitForEvents) \
	X(clEnqueueSVMFree) \
	X(clEnqueueSVMMemcpy) \
	X(clEnqueueSVMMemFill) \
	X(clEnqueueSVMMap) \
	X(clEnqueueSVMUnmap) \
	X(clFinish) \
	X(clFlush) \
	X(clWaitForEvents) \
	X(clReleaseMemObject) \
	X(clReleaseKernel) \
	X(clReleaseProgram) \
	X(clReleaseContext) \
	X(clSetCommandQueueProperty) \
	X(clGetPlatformIDs) \
	X(clGetDeviceIDs) \
	X(clCreateProgramWithBinary) \
	X(clCreateProgramWithIL) \
	X(clCompileProgram) \
	X(clLinkProgram) \
	X(clCreateKernelsInProgram) \
	X(clCloneKernel) \
	X(clCreateBufferWithProperties) \
	X(clCreateSubBuffer) \
	X(clCreateImage) \
	X(clCreateImageWithProperties) \
	X(clCreateImage2D) \
	X(clCreateImage3D) \
	X(clEnqueueSVMMigrateMem)

#ifdef GENBA_OPENCL_FALLBACK
/* each hooked call exported under its hook's name (see the top) */
#define EXPORT_HOOK(f)                                                         \
	extern __typeof__(l_##f) genba_hook_##f                                \
		__attribute__((alias("l_" #f), visibility("default")));
OCL_HOOKED(EXPORT_HOOK)
#undef EXPORT_HOOK
#else

/* ---- the layer's entry points ------------------------------------------ */

EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetLayerInfo(cl_layer_info what, size_t size,
						      void *value, size_t *ret)
{
	switch (what) {
	case CL_LAYER_API_VERSION:
		if (value) {
			if (size < sizeof(cl_layer_api_version))
				return CL_INVALID_VALUE;
			*(cl_layer_api_version *)value = CL_LAYER_API_VERSION_100;
		}
		if (ret)
			*ret = sizeof(cl_layer_api_version);
		return CL_SUCCESS;
	default:
		return CL_INVALID_VALUE;
	}
}

EXPORT CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint n, const struct _cl_icd_dispatch *target,
						   cl_uint *n_ret,
						   const struct _cl_icd_dispatch **layer_ret)
{
	const cl_uint mine = sizeof(dispatch) / sizeof(void *);
	int *live;
	if (!target || !n_ret || !layer_ret)
		return CL_INVALID_VALUE;
	next = target;
	/* the fallback (this file built with GENBA_OPENCL_FALLBACK, preloaded)
	 * records nothing from now on: the layer does */
	live = dlsym(RTLD_DEFAULT, "genba_opencl_layer_live");
	if (live)
		__atomic_store_n(live, 1, __ATOMIC_RELEASE);
	/* not recording (no GENBA_GPU_DIR, fixed for the process): the next
	 * table is the layer's own, and the program's calls go straight to
	 * it, at no cost (forwarding each cost ~3 ns) */
	if (!recording()) {
		*layer_ret = target;
		*n_ret = n;
		return CL_SUCCESS;
	}
	/* what the layer does not hook goes straight to the next one */
	memset(&dispatch, 0, sizeof(dispatch));
	memcpy(&dispatch, target, (n < mine ? n : mine) * sizeof(void *));
#define HOOK(f) dispatch.f = l_##f;
	OCL_HOOKED(HOOK)
#undef HOOK
	*layer_ret = &dispatch;
	*n_ret = mine;
	return CL_SUCCESS;
}
#endif
