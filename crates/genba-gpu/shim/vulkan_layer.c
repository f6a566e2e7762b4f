/*
 * genba's Vulkan layer (VK_LAYER_GENBA_trace): enabled only by genba's
 * environment (VK_ADD_LAYER_PATH names the directory of its manifest,
 * VK_INSTANCE_LAYERS enables it), it forwards every call down the chain and
 * records the calls of compute work in the ring of genba_gpu.h: queue
 * submissions, dispatches, copies and barriers recorded into command
 * buffers, waits on fences, queues and devices, and the creation of what
 * they use. Without GENBA_GPU_DIR it only forwards.
 */
#define _GNU_SOURCE
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#define SHIM_API GENBA_GPU_VULKAN
#include "shim_common.h"

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

/* The dispatch key of a dispatchable handle: the loader's table pointer,
 * shared by a device's queues and command buffers. */
#define KEY(h) (*(void **)(h))

#define MAX_OBJS 64

static struct instance {
	void *key;
	VkInstance handle;
	PFN_vkGetInstanceProcAddr gipa;
	PFN_vkDestroyInstance destroy;
} instances[MAX_OBJS];

static struct device {
	void *key;
	PFN_vkGetDeviceProcAddr gdpa;
	PFN_vkDestroyDevice destroy;
	PFN_vkQueueSubmit queue_submit;
	PFN_vkQueueSubmit2 queue_submit2;
	PFN_vkQueueWaitIdle queue_wait_idle;
	PFN_vkDeviceWaitIdle device_wait_idle;
	PFN_vkWaitForFences wait_for_fences;
	PFN_vkCmdDispatch cmd_dispatch;
	PFN_vkCmdDispatchBase cmd_dispatch_base;
	PFN_vkCmdDispatchIndirect cmd_dispatch_indirect;
	PFN_vkCmdCopyBuffer cmd_copy_buffer;
	PFN_vkCmdPipelineBarrier cmd_pipeline_barrier;
	PFN_vkBeginCommandBuffer begin_command_buffer;
	PFN_vkEndCommandBuffer end_command_buffer;
	PFN_vkCreateComputePipelines create_compute_pipelines;
	PFN_vkCreateShaderModule create_shader_module;
	PFN_vkCreateBuffer create_buffer;
	PFN_vkAllocateMemory allocate_memory;
	/* device times: timestamps around each dispatch, read when a wait
	 * says its submission completed, mapped with calibrated timestamps */
	VkDevice handle;
	float period;  /* ns a tick */
	uint64_t mask; /* the timestamps' valid bits */
	PFN_vkGetCalibratedTimestampsEXT calibrated;
	PFN_vkCreateQueryPool create_query_pool;
	PFN_vkDestroyQueryPool destroy_query_pool;
	PFN_vkCmdResetQueryPool cmd_reset_query_pool;
	PFN_vkCmdWriteTimestamp cmd_write_timestamp;
	PFN_vkGetQueryPoolResults get_query_pool_results;
	PFN_vkGetFenceStatus get_fence_status;
	PFN_vkAllocateCommandBuffers allocate_command_buffers;
	PFN_vkFreeCommandBuffers free_command_buffers;
	PFN_vkDestroyCommandPool destroy_command_pool;
	PFN_vkGetSemaphoreCounterValue get_semaphore_counter_value;
	PFN_vkWaitSemaphores wait_semaphores;
	PFN_vkCmdBindPipeline cmd_bind_pipeline;
	PFN_vkDestroyPipeline destroy_pipeline;
	PFN_vkCmdFillBuffer cmd_fill_buffer;
	PFN_vkCmdUpdateBuffer cmd_update_buffer;
	PFN_vkCmdPipelineBarrier2 cmd_pipeline_barrier2;
	PFN_vkResetCommandBuffer reset_command_buffer;
	PFN_vkResetCommandPool reset_command_pool;
	/* a clock of its own (not CLOCK_MONOTONIC): every time mapped with the
	 * one offset measured at the device's creation, which genba narrows
	 * with the commands' facts (as the OpenCL layer's) */
	int own_clock;
	int64_t offset;
} devices[MAX_OBJS];

/* ---- commands' device times --------------------------------------------- */

/* Each command the layer times (a dispatch, a copy, a fill) gets two
 * timestamps, written around it into the query pools of its command buffer
 * (POOL_QUERIES a pool, as many pools as the recording needs). A submission
 * keeps a copy of what its command buffers hold and is read when the layer
 * knows it completed: a wait that returned success on its fence, its
 * timeline semaphore's value, its queue or its device; a fence status or a
 * semaphore counter read that says so; or what the specification implies
 * (a command buffer re-recorded, reset or freed, a device destroyed, all
 * with no submission of theirs still pending). */

#define POOL_QUERIES 128
#define NAME_MAX_LEN 48

struct timed {
	uint32_t kind; /* enum genba_gpu_kind */
	uint32_t tid;
	uint64_t t_record; /* its call's start; 0: a flow already ended */
	uint64_t bytes;
	char name[NAME_MAX_LEN];
};

/* A command buffer: its query pools and its timed commands. */
struct cmdbuf {
	VkCommandBuffer cb;
	VkCommandPool cmd_pool; /* the pool it came from */
	struct device *dev;
	VkQueryPool *pools;
	uint32_t npools, nreset; /* made; reset in this recording */
	struct timed *t;
	uint32_t n, cap;
	char pipeline[NAME_MAX_LEN]; /* the compute pipeline bound: its name */
};

/* The timeline semaphores a submission signals, and their values. */
#define MAX_SIGNALS 4

/* A submission of one command buffer not yet known complete. */
struct submit {
	struct submit *next;
	struct cmdbuf *cb; /* NULL: a submission of no command buffer (a fence) */
	struct device *dev;
	uint64_t seq; /* its place in the order of submissions */
	VkQueue queue;
	VkFence fence;
	uint64_t t_submit;
	uint64_t t_submit_returned;
	uint32_t nsig;
	VkSemaphore sem[MAX_SIGNALS];
	uint64_t value[MAX_SIGNALS];
	uint32_t n;
	struct timed *t; /* n, copied at the submission */
};

static struct submit *pending; /* under table_lock */
/* a look without the lock, to skip the work when nothing is pending */
#define ANY_PENDING() (__atomic_load_n(&pending, __ATOMIC_RELAXED) != NULL)

/* Handles to pointers: open addressing, linear probing, deletion by
 * shifting back (no tombstones). Under table_lock. */
#define MAP_CAP 8192
struct map {
	uint64_t key[MAP_CAP];
	void *val[MAP_CAP];
	uint32_t n;
};

static uint32_t map_slot(uint64_t k)
{
	k ^= k >> 29;
	k *= 0xbf58476d1ce4e5b9ull;
	k ^= k >> 32;
	return (uint32_t)k & (MAP_CAP - 1);
}

static void *map_get(struct map *m, uint64_t k)
{
	if (!k)
		return NULL;
	for (uint32_t i = map_slot(k);; i = (i + 1) & (MAP_CAP - 1)) {
		if (m->key[i] == k)
			return m->val[i];
		if (!m->key[i])
			return NULL;
	}
}

/* 0: the map is full (a handle is then not followed) */
static int map_put(struct map *m, uint64_t k, void *v)
{
	uint32_t i = map_slot(k);
	if (!k)
		return 0;
	for (;; i = (i + 1) & (MAP_CAP - 1)) {
		if (m->key[i] == k || !m->key[i])
			break;
	}
	if (!m->key[i]) {
		if (m->n + 1 >= MAP_CAP * 3 / 4)
			return 0;
		m->n++;
	}
	m->key[i] = k;
	m->val[i] = v;
	return 1;
}

static void *map_del(struct map *m, uint64_t k)
{
	uint32_t i = map_slot(k), j;
	void *v;
	if (!k) /* a null handle (0 marks an empty slot) */
		return NULL;
	while (m->key[i] != k) {
		if (!m->key[i])
			return NULL;
		i = (i + 1) & (MAP_CAP - 1);
	}
	v = m->val[i];
	m->n--;
	/* shift back the entries of the run after it that belong before */
	for (j = (i + 1) & (MAP_CAP - 1); m->key[j]; j = (j + 1) & (MAP_CAP - 1)) {
		uint32_t h = map_slot(m->key[j]);
		if (((j - h) & (MAP_CAP - 1)) >= ((j - i) & (MAP_CAP - 1))) {
			m->key[i] = m->key[j];
			m->val[i] = m->val[j];
			i = j;
		}
	}
	m->key[i] = 0;
	m->val[i] = NULL;
	return v;
}

static struct map cmdbufs;   /* VkCommandBuffer -> struct cmdbuf */
static struct map pipelines; /* VkPipeline -> its name (malloc'd) */

#define H64(h) ((uint64_t)(uintptr_t)(h))

static struct cmdbuf *cmdbuf_of(VkCommandBuffer cb, struct device *dev, int make)
{
	struct cmdbuf *r;
	pthread_mutex_lock(&table_lock);
	r = map_get(&cmdbufs, H64(cb));
	if (!r && make) {
		r = calloc(1, sizeof(*r));
		if (r) {
			r->cb = cb;
			r->dev = dev;
			if (!map_put(&cmdbufs, H64(cb), r)) {
				free(r);
				r = NULL;
			}
		}
	}
	pthread_mutex_unlock(&table_lock);
	return r;
}

/* A device with a clock of its own, simulated for the tests (never set by
 * genba itself), as in the OpenCL layer: GENBA_GPU_TEST_DEVICE_CLOCK=
 * "<offset ns>,<drift ppm>" moves every device time the layer reads (its
 * timestamp queries and the device side of its calibrations) by the offset
 * plus the drift times the time since the first one it moved. */
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

/* A device timestamp (ticks) in ns of the device's clock. */
static uint64_t device_ns(struct device *d, uint64_t ticks)
{
	uint64_t t = (uint64_t)((double)(ticks & d->mask) * d->period), base;
	if (!t || !simulated())
		return t;
	base = __atomic_load_n(&sim_base, __ATOMIC_ACQUIRE);
	if (!base) {
		uint64_t zero = 0;
		__atomic_compare_exchange_n(&sim_base, &zero, t, 0, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
		base = __atomic_load_n(&sim_base, __ATOMIC_ACQUIRE);
	}
	return (uint64_t)((int64_t)t + sim_offset +
			  (int64_t)(((double)(int64_t)(t - base)) * sim_ppm / 1e6));
}

/* The offset that puts device times on CLOCK_MONOTONIC as one calibration
 * (VK_EXT_calibrated_timestamps) measures it, the calibration's maximum
 * deviation (ns), and when (CLOCK_MONOTONIC). */
static int calibrate(struct device *d, int64_t *off, uint64_t *deviation, uint64_t *at)
{
	VkCalibratedTimestampInfoEXT info[2] = {
		{ .sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
		  .timeDomain = VK_TIME_DOMAIN_DEVICE_EXT },
		{ .sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
		  .timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT },
	};
	uint64_t ts[2], dev_max;
	if (!d->calibrated || d->calibrated(d->handle, 2, info, ts, &dev_max) != VK_SUCCESS)
		return 0;
	*off = (int64_t)ts[1] - (int64_t)device_ns(d, ts[0]);
	*deviation = dev_max;
	*at = ts[1];
	return 1;
}

/* A submission completed: its commands' times read and written (`waited`:
 * when the wait or the query that said so returned; 0: the specification
 * implied it), and it is freed. */
static void completed(struct submit *s, uint64_t waited)
{
	struct cmdbuf *cb = s->cb;
	struct device *d = s->dev;
	if (cb && d && s->n && recording()) {
		/* a device on CLOCK_MONOTONIC needs no offset; one of its own
		 * keeps its first (genba follows its drift) */
		int64_t off = d->own_clock ? d->offset : 0;
		for (uint32_t p = 0; p * (POOL_QUERIES / 2) < s->n; p++) {
			uint64_t t[POOL_QUERIES];
			uint32_t first = p * (POOL_QUERIES / 2);
			uint32_t k = s->n - first < POOL_QUERIES / 2 ? s->n - first : POOL_QUERIES / 2;
			if (p >= cb->npools ||
			    d->get_query_pool_results(d->handle, cb->pools[p], 0, 2 * k,
						      sizeof(t), t, sizeof(uint64_t),
						      VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
				continue;
			for (uint32_t i = 0; i < k; i++) {
				struct timed *x = &s->t[first + i];
				struct genba_gpu_cmd c = { 0 };
				c.queue = H64(s->queue);
				c.device = H64(d->handle);
				c.queued = s->t_submit;
				c.start = (uint64_t)((int64_t)device_ns(d, t[2 * i]) + off);
				c.end = (uint64_t)((int64_t)device_ns(d, t[2 * i + 1]) + off);
				c.bytes = x->bytes;
				c.kind = x->kind;
				c.enqueue_returned = s->t_submit_returned;
				c.waited = waited;
				put_struct(GENBA_GPU_CMD, x->tid, 0, x->t_record, &c, sizeof(c),
					   x->name);
			}
		}
	}
	free(s->t);
	free(s);
}

/* Which pending submissions a fact completes. */
enum done_by { BY_DEVICE, BY_QUEUE, BY_FENCE, BY_SEMAPHORE, BY_CMDBUF };

/* Every pending submission of device `dev` that the fact completes (on
 * `queue`; fence `fence`, and with it every submission before its own on
 * its queue: a fence's signal waits for all the commands earlier in
 * submission order; semaphore `sem` at `value` or above; command buffer
 * `cbh` (re-recorded, reset, freed), or any of command pool `pool`) is read
 * and forgotten. `waited`: when the wait or query that said so returned (0:
 * the specification implies it, nothing returned). */
static void complete_by(struct device *dev, enum done_by by, uint64_t h, uint64_t value,
			uint64_t waited)
{
	struct submit *done = NULL, **pp;
	VkQueue fq = VK_NULL_HANDLE;
	uint64_t upto = 0;
	pthread_mutex_lock(&table_lock);
	if (by == BY_FENCE) {
		/* the fence's submission: it and the ones before it on its queue.
		 * The oldest pending one with the fence: the fence may already
		 * have been reset and submitted again by another thread since it
		 * signalled, and that newer submission has not completed */
		for (struct submit *s = pending; s; s = s->next)
			if (s->dev == dev && s->fence && H64(s->fence) == h &&
			    (!fq || s->seq < upto)) {
				upto = s->seq;
				fq = s->queue;
			}
		if (!fq) {
			pthread_mutex_unlock(&table_lock);
			return;
		}
	}
	for (pp = &pending; *pp;) {
		struct submit *s = *pp;
		int hit = 0;
		if (s->dev == dev) {
			switch (by) {
			case BY_DEVICE:
				hit = 1;
				break;
			case BY_QUEUE:
				hit = H64(s->queue) == h;
				break;
			case BY_FENCE:
				hit = s->queue == fq && s->seq <= upto;
				break;
			case BY_SEMAPHORE:
				for (uint32_t i = 0; i < s->nsig && !hit; i++)
					hit = H64(s->sem[i]) == h && s->value[i] <= value;
				break;
			case BY_CMDBUF:
				hit = s->cb && (H64(s->cb->cb) == h ||
						(value && H64(s->cb->cmd_pool) == value));
				break;
			}
		}
		if (hit) {
			*pp = s->next;
			s->next = done;
			done = s;
		} else {
			pp = &s->next;
		}
	}
	pthread_mutex_unlock(&table_lock);
	/* pending holds the newest first, so done the oldest first: written in
	 * submission order */
	while (done) {
		struct submit *n = done->next;
		completed(done, waited);
		done = n;
	}
}

/* The command buffer `c` gone: its query pools destroyed, its memory
 * freed (its entry already out of the map). */
static void cmdbuf_drop(struct device *d, struct cmdbuf *c)
{
	for (uint32_t p = 0; p < c->npools; p++)
		d->destroy_query_pool(d->handle, c->pools[p], NULL);
	free(c->pools);
	free(c->t);
	free(c);
}

/* Command buffers freed: `cbs` (n of them), or with cbs NULL every one of
 * command pool `pool`, or with pool VK_NULL_HANDLE too every one of the
 * device. Their submissions (complete, as the specification requires) are
 * read first. */
static void cmdbufs_free(struct device *d, VkCommandPool pool, uint32_t n,
			 const VkCommandBuffer *cbs)
{
	if (cbs) {
		for (uint32_t k = 0; k < n; k++) {
			struct cmdbuf *c;
			complete_by(d, BY_CMDBUF, H64(cbs[k]), 0, 0);
			pthread_mutex_lock(&table_lock);
			c = map_del(&cmdbufs, H64(cbs[k]));
			pthread_mutex_unlock(&table_lock);
			if (c)
				cmdbuf_drop(d, c);
		}
		return;
	}
	complete_by(d, pool ? BY_CMDBUF : BY_DEVICE, 0, H64(pool), 0);
	for (;;) {
		struct cmdbuf *c = NULL;
		/* one at a time: deleting shifts the map's entries back */
		pthread_mutex_lock(&table_lock);
		for (uint32_t i = 0; i < MAP_CAP && !c; i++) {
			struct cmdbuf *x = cmdbufs.val[i];
			if (x && x->dev == d && (!pool || x->cmd_pool == pool))
				c = x;
		}
		if (c)
			map_del(&cmdbufs, H64(c->cb));
		pthread_mutex_unlock(&table_lock);
		if (!c)
			return;
		cmdbuf_drop(d, c);
	}
}

/* A command about to be recorded into `cb`: its command buffer, whose
 * slot c->t[c->n] it takes when timed (queries 2 * (n % (POOL_QUERIES / 2))
 * and the next of pool n / (POOL_QUERIES / 2), made and reset as needed);
 * NULL when it cannot be timed (it is then recorded untimed). */
static struct cmdbuf *timed_begin(struct device *d, VkCommandBuffer cb, VkQueryPool *pool,
				  uint32_t *query)
{
	struct cmdbuf *c;
	uint32_t p;
	if (!recording() || !d->calibrated || !d->cmd_write_timestamp)
		return NULL;
	c = cmdbuf_of(cb, d, 1);
	if (!c)
		return NULL;
	if (c->n == c->cap) {
		uint32_t cap = c->cap ? 2 * c->cap : 16;
		struct timed *t = realloc(c->t, cap * sizeof(*t));
		if (!t)
			return NULL;
		c->t = t;
		c->cap = cap;
	}
	p = c->n / (POOL_QUERIES / 2);
	if (p == c->npools) {
		VkQueryPoolCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
					     .queryType = VK_QUERY_TYPE_TIMESTAMP,
					     .queryCount = POOL_QUERIES };
		VkQueryPool *pools = realloc(c->pools, (p + 1) * sizeof(*pools));
		if (!pools)
			return NULL;
		c->pools = pools;
		if (d->create_query_pool(d->handle, &qi, NULL, &pools[p]) != VK_SUCCESS)
			return NULL;
		c->npools++;
	}
	if (p == c->nreset) {
		d->cmd_reset_query_pool(cb, c->pools[p], 0, POOL_QUERIES);
		c->nreset++;
	}
	*pool = c->pools[p];
	*query = 2 * (c->n % (POOL_QUERIES / 2));
	return c;
}

/* The timed command is recorded: it takes its slot. */
static void timed_end(struct cmdbuf *c, uint32_t kind, uint64_t bytes, uint64_t t0,
		      const char *name)
{
	struct timed *x = &c->t[c->n++];
	x->kind = kind;
	x->tid = gettid_cached();
	x->t_record = t0;
	x->bytes = bytes;
	/* a dispatch (no name given): its bound pipeline's */
	if (!name)
		name = c->pipeline[0] ? c->pipeline : "dispatch";
	snprintf(x->name, sizeof(x->name), "%s", name);
}

/* `cmd` recorded into `cb` with timestamps around it when it can be timed
 * (`timed` set, in the caller with `t0`, its call's start); `name` NULL:
 * a dispatch, named by its pipeline. */
#define TIMED(d, cb, kind, bytes, name, cmd)                                   \
	do {                                                                   \
		VkQueryPool qp_;                                               \
		uint32_t q_;                                                   \
		struct cmdbuf *c_ = timed_begin(d, cb, &qp_, &q_);             \
		if (c_) {                                                      \
			d->cmd_write_timestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, \
					       qp_, q_);                        \
			cmd;                                                   \
			d->cmd_write_timestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, \
					       qp_, q_ + 1);                    \
			timed_end(c_, kind, bytes, t0, name);                  \
			timed = 1;                                             \
		} else {                                                       \
			cmd;                                                   \
		}                                                              \
	} while (0)

static struct instance *instance_of(void *key)
{
	struct instance *r = NULL;
	pthread_mutex_lock(&table_lock);
	for (int i = 0; i < MAX_OBJS && !r; i++)
		if (instances[i].key == key)
			r = &instances[i];
	pthread_mutex_unlock(&table_lock);
	return r;
}

static struct device *device_of(void *key)
{
	struct device *r = NULL;
	pthread_mutex_lock(&table_lock);
	for (int i = 0; i < MAX_OBJS && !r; i++)
		if (devices[i].key == key)
			r = &devices[i];
	pthread_mutex_unlock(&table_lock);
	return r;
}

static const char *vk_result_name(VkResult r)
{
	switch (r) {
#define R(x) case x: return #x;
	R(VK_SUCCESS) R(VK_NOT_READY) R(VK_TIMEOUT) R(VK_EVENT_SET) R(VK_EVENT_RESET)
	R(VK_INCOMPLETE) R(VK_ERROR_OUT_OF_HOST_MEMORY) R(VK_ERROR_OUT_OF_DEVICE_MEMORY)
	R(VK_ERROR_INITIALIZATION_FAILED) R(VK_ERROR_DEVICE_LOST) R(VK_ERROR_MEMORY_MAP_FAILED)
	R(VK_ERROR_LAYER_NOT_PRESENT) R(VK_ERROR_EXTENSION_NOT_PRESENT)
	R(VK_ERROR_FEATURE_NOT_PRESENT) R(VK_ERROR_INCOMPATIBLE_DRIVER) R(VK_ERROR_TOO_MANY_OBJECTS)
	R(VK_ERROR_FORMAT_NOT_SUPPORTED) R(VK_ERROR_FRAGMENTED_POOL) R(VK_ERROR_UNKNOWN)
	R(VK_ERROR_OUT_OF_POOL_MEMORY) R(VK_ERROR_INVALID_EXTERNAL_HANDLE)
#undef R
	default:
		return NULL;
	}
}

/* A call's record: its arguments' text, its result (`= VK_SUCCESS`, or
 * nothing for a call that returns none). */
static void call_done(const char *fn, uint64_t t0, int has_result, VkResult r, struct text *a)
{
	TEXT(res);
	if (has_result) {
		const char *n = vk_result_name(r);
		put_str(&res, "= ");
		if (n)
			put_str(&res, n);
		else
			add(&res, "%d", (int)r);
	}
	put_call(fn, t0, now_ns(CLOCK_MONOTONIC), has_result && r < 0 ? (int32_t)r : 0, a->b,
		 res.b);
}

#define BEGIN uint64_t t0 = recording() ? now_ns(CLOCK_MONOTONIC) : 0
#define RECORD(fn, has_result, r, ...)                                         \
	do {                                                                   \
		if (recording()) {                                             \
			TEXT(a);                                               \
			add(&a, __VA_ARGS__);                                  \
			call_done(fn, t0, has_result, r, &a);                  \
		}                                                              \
	} while (0)

static uint64_t submissions; /* under table_lock */

/* A command buffer submitted at `t` (its call returned at `t1`), with the
 * timeline semaphores its batch signals: a copy of its timed commands waits
 * for a fact that completes it. `cb` VK_NULL_HANDLE: a submission of no
 * command buffer with fence `f`, which signals when all before it on the
 * queue completed. */
static void note_submit(struct device *d, VkQueue q, VkCommandBuffer cb, VkFence f, uint64_t t,
			uint64_t t1, uint32_t nsig, const VkSemaphore *sem, const uint64_t *value)
{
	struct cmdbuf *c = cb ? cmdbuf_of(cb, d, 0) : NULL;
	struct submit *s;
	if (!recording() || (cb ? !c || !c->n : !f))
		return;
	s = calloc(1, sizeof(*s));
	if (!s)
		return;
	s->t = malloc((c ? c->n : 1) * sizeof(*s->t));
	if (!s->t) {
		free(s);
		return;
	}
	s->cb = c;
	s->dev = d;
	s->queue = q;
	s->fence = f;
	s->t_submit = t;
	s->t_submit_returned = t1;
	for (uint32_t i = 0; i < nsig && s->nsig < MAX_SIGNALS; i++)
		if (value && value[i]) {
			s->sem[s->nsig] = sem[i];
			s->value[s->nsig++] = value[i];
		}
	pthread_mutex_lock(&table_lock);
	s->seq = ++submissions;
	s->n = c ? c->n : 0;
	if (c)
		memcpy(s->t, c->t, c->n * sizeof(*s->t));
	/* a recording submitted again: its commands come from the same
	 * calls, whose flows the first ones ended */
	for (uint32_t k = 0; c && k < c->n; k++)
		c->t[k].t_record = 0;
	s->next = pending;
	pending = s;
	pthread_mutex_unlock(&table_lock);
}

/* ---- device-level calls ------------------------------------------------ */

static const void *find_in_chain(const void *p, VkStructureType type)
{
	for (const VkBaseInStructure *b = p; b; b = b->pNext)
		if (b->sType == type)
			return b;
	return NULL;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkQueueSubmit(VkQueue q, uint32_t n,
						      const VkSubmitInfo *s, VkFence f)
{
	struct device *d = device_of(KEY(q));
	uint32_t cbs = 0;
	BEGIN;
	VkResult r = d->queue_submit(q, n, s, f);
	uint64_t t1 = recording() ? now_ns(CLOCK_MONOTONIC) : 0;
	for (uint32_t i = 0; s && i < n; i++) {
		const VkTimelineSemaphoreSubmitInfo *tl = find_in_chain(
			s[i].pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
		uint32_t nsig = tl && tl->pSignalSemaphoreValues
					? (tl->signalSemaphoreValueCount < s[i].signalSemaphoreCount
						   ? tl->signalSemaphoreValueCount
						   : s[i].signalSemaphoreCount)
					: 0;
		cbs += s[i].commandBufferCount;
		for (uint32_t k = 0; r == VK_SUCCESS && k < s[i].commandBufferCount; k++)
			note_submit(d, q, s[i].pCommandBuffers[k], f, t0, t1, nsig,
				    s[i].pSignalSemaphores, nsig ? tl->pSignalSemaphoreValues : NULL);
	}
	if (r == VK_SUCCESS && f && !cbs)
		note_submit(d, q, VK_NULL_HANDLE, f, t0, t1, 0, NULL, NULL);
	RECORD("vkQueueSubmit", 1, r, "%p, %u, [%u command buffers], %p", (void *)q, n, cbs,
	       (void *)f);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkQueueSubmit2(VkQueue q, uint32_t n,
						       const VkSubmitInfo2 *s, VkFence f)
{
	struct device *d = device_of(KEY(q));
	uint32_t cbs = 0;
	BEGIN;
	VkResult r = d->queue_submit2(q, n, s, f);
	uint64_t t1 = recording() ? now_ns(CLOCK_MONOTONIC) : 0;
	for (uint32_t i = 0; s && i < n; i++) {
		VkSemaphore sem[MAX_SIGNALS];
		uint64_t value[MAX_SIGNALS];
		uint32_t nsig = 0;
		for (uint32_t k = 0; k < s[i].signalSemaphoreInfoCount && nsig < MAX_SIGNALS; k++) {
			sem[nsig] = s[i].pSignalSemaphoreInfos[k].semaphore;
			value[nsig++] = s[i].pSignalSemaphoreInfos[k].value;
		}
		cbs += s[i].commandBufferInfoCount;
		for (uint32_t k = 0; r == VK_SUCCESS && k < s[i].commandBufferInfoCount; k++)
			note_submit(d, q, s[i].pCommandBufferInfos[k].commandBuffer, f, t0, t1, nsig,
				    sem, value);
	}
	if (r == VK_SUCCESS && f && !cbs)
		note_submit(d, q, VK_NULL_HANDLE, f, t0, t1, 0, NULL, NULL);
	RECORD("vkQueueSubmit2", 1, r, "%p, %u, [%u command buffers], %p", (void *)q, n, cbs,
	       (void *)f);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkQueueWaitIdle(VkQueue q)
{
	struct device *d = device_of(KEY(q));
	BEGIN;
	VkResult r = d->queue_wait_idle(q);
	if (r == VK_SUCCESS && ANY_PENDING())
		complete_by(d, BY_QUEUE, H64(q), 0, now_ns(CLOCK_MONOTONIC));
	RECORD("vkQueueWaitIdle", 1, r, "%p", (void *)q);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkDeviceWaitIdle(VkDevice dev)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	VkResult r = d->device_wait_idle(dev);
	if (r == VK_SUCCESS && ANY_PENDING())
		complete_by(d, BY_DEVICE, 0, 0, now_ns(CLOCK_MONOTONIC));
	RECORD("vkDeviceWaitIdle", 1, r, "%p", (void *)dev);
	return r;
}

/* The fences of `f` that are signalled: their submissions completed, by
 * `all` (a wait for all of them returned then) or, 0, by the return of the
 * status read that said so. */
static void fences_done(struct device *d, uint32_t n, const VkFence *f, uint64_t all)
{
	for (uint32_t k = 0; k < n; k++)
		if (d->get_fence_status(d->handle, f[k]) == VK_SUCCESS)
			complete_by(d, BY_FENCE, H64(f[k]), 0,
				    all ? all : now_ns(CLOCK_MONOTONIC));
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkWaitForFences(VkDevice dev, uint32_t n,
							const VkFence *f, VkBool32 all,
							uint64_t timeout)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	VkResult r = d->wait_for_fences(dev, n, f, all, timeout);
	if (r == VK_SUCCESS && ANY_PENDING())
		fences_done(d, n, f, all ? now_ns(CLOCK_MONOTONIC) : 0);
	RECORD("vkWaitForFences", 1, r, "%p, %u, [...], %s, %#lx", (void *)dev, n,
	       all ? "VK_TRUE" : "VK_FALSE", (unsigned long)timeout);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkGetFenceStatus(VkDevice dev, VkFence f)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	VkResult r = d->get_fence_status(dev, f);
	if (r == VK_SUCCESS && ANY_PENDING())
		complete_by(d, BY_FENCE, H64(f), 0, now_ns(CLOCK_MONOTONIC));
	RECORD("vkGetFenceStatus", 1, r, "%p, %p", (void *)dev, (void *)f);
	return r;
}

/* Timeline semaphores' values read: the submissions that signal them at or
 * below those values completed, by the time each read returned. */
static void semaphores_done(struct device *d, uint32_t n, const VkSemaphore *sem)
{
	for (uint32_t k = 0; k < n && ANY_PENDING(); k++) {
		uint64_t v;
		if (d->get_semaphore_counter_value &&
		    d->get_semaphore_counter_value(d->handle, sem[k], &v) == VK_SUCCESS)
			complete_by(d, BY_SEMAPHORE, H64(sem[k]), v, now_ns(CLOCK_MONOTONIC));
	}
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkWaitSemaphores(VkDevice dev,
							 const VkSemaphoreWaitInfo *wi,
							 uint64_t timeout)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	VkResult r = d->wait_semaphores(dev, wi, timeout);
	if (r == VK_SUCCESS && ANY_PENDING())
		semaphores_done(d, wi->semaphoreCount, wi->pSemaphores);
	RECORD("vkWaitSemaphores", 1, r, "%p, {flags=%s, semaphoreCount=%u, values=[%lu%s]}, %#lx",
	       (void *)dev, wi->flags & VK_SEMAPHORE_WAIT_ANY_BIT ? "VK_SEMAPHORE_WAIT_ANY_BIT" : "0",
	       wi->semaphoreCount,
	       (unsigned long)(wi->semaphoreCount && wi->pValues ? wi->pValues[0] : 0),
	       wi->semaphoreCount > 1 ? ", ..." : "", (unsigned long)timeout);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkGetSemaphoreCounterValue(VkDevice dev, VkSemaphore sem,
								   uint64_t *v)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	VkResult r = d->get_semaphore_counter_value(dev, sem, v);
	if (r == VK_SUCCESS && ANY_PENDING())
		complete_by(d, BY_SEMAPHORE, H64(sem), *v, now_ns(CLOCK_MONOTONIC));
	RECORD("vkGetSemaphoreCounterValue", 1, r, "%p, %p, [%lu]", (void *)dev, (void *)sem,
	       (unsigned long)(r == VK_SUCCESS ? *v : 0));
	return r;
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y,
						  uint32_t z)
{
	struct device *d = device_of(KEY(cb));
	int timed = 0;
	BEGIN;
	TIMED(d, cb, GENBA_GPU_KERNEL, 0, NULL, d->cmd_dispatch(cb, x, y, z));
	/* timed: its first execution's command ends a flow from here */
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %u, %u, %u", (void *)cb, x, y, z);
		put_call_typed(timed ? GENBA_GPU_CALL_TIMED : GENBA_GPU_CALL, "vkCmdDispatch", t0,
			       now_ns(CLOCK_MONOTONIC), 0, a.b, "");
	}
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdDispatchBase(VkCommandBuffer cb, uint32_t bx,
						      uint32_t by, uint32_t bz, uint32_t x,
						      uint32_t y, uint32_t z)
{
	struct device *d = device_of(KEY(cb));
	int timed = 0;
	BEGIN;
	TIMED(d, cb, GENBA_GPU_KERNEL, 0, NULL,
	      d->cmd_dispatch_base(cb, bx, by, bz, x, y, z));
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %u, %u, %u, %u, %u, %u", (void *)cb, bx, by, bz, x, y, z);
		put_call_typed(timed ? GENBA_GPU_CALL_TIMED : GENBA_GPU_CALL, "vkCmdDispatchBase",
			       t0, now_ns(CLOCK_MONOTONIC), 0, a.b, "");
	}
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdDispatchIndirect(VkCommandBuffer cb, VkBuffer b,
							  VkDeviceSize off)
{
	struct device *d = device_of(KEY(cb));
	int timed = 0;
	BEGIN;
	TIMED(d, cb, GENBA_GPU_KERNEL, 0, NULL,
	      d->cmd_dispatch_indirect(cb, b, off));
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %zu", (void *)cb, (void *)b, (size_t)off);
		put_call_typed(timed ? GENBA_GPU_CALL_TIMED : GENBA_GPU_CALL,
			       "vkCmdDispatchIndirect", t0, now_ns(CLOCK_MONOTONIC), 0, a.b, "");
	}
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdCopyBuffer(VkCommandBuffer cb, VkBuffer src,
						    VkBuffer dst, uint32_t n,
						    const VkBufferCopy *regions)
{
	struct device *d = device_of(KEY(cb));
	uint64_t bytes = 0;
	int timed = 0;
	BEGIN;
	for (uint32_t i = 0; regions && i < n; i++)
		bytes += regions[i].size;
	TIMED(d, cb, GENBA_GPU_COPY, bytes, "copy buffer",
	      d->cmd_copy_buffer(cb, src, dst, n, regions));
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %p, %u, [%lu bytes]", (void *)cb, (void *)src, (void *)dst, n,
		    (unsigned long)bytes);
		put_call_typed(timed ? GENBA_GPU_CALL_TIMED : GENBA_GPU_CALL, "vkCmdCopyBuffer",
			       t0, now_ns(CLOCK_MONOTONIC), 0, a.b, "");
	}
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdFillBuffer(VkCommandBuffer cb, VkBuffer dst,
						    VkDeviceSize off, VkDeviceSize size,
						    uint32_t value)
{
	struct device *d = device_of(KEY(cb));
	int timed = 0;
	BEGIN;
	/* VK_WHOLE_SIZE: the rest of the buffer, whose size the layer does
	 * not follow */
	TIMED(d, cb, GENBA_GPU_FILL, size == VK_WHOLE_SIZE ? 0 : size, "fill buffer",
	      d->cmd_fill_buffer(cb, dst, off, size, value));
	if (recording()) {
		TEXT(a);
		if (size == VK_WHOLE_SIZE)
			add(&a, "%p, %p, %lu, VK_WHOLE_SIZE, %#x", (void *)cb, (void *)dst,
			    (unsigned long)off, value);
		else
			add(&a, "%p, %p, %lu, %lu, %#x", (void *)cb, (void *)dst,
			    (unsigned long)off, (unsigned long)size, value);
		put_call_typed(timed ? GENBA_GPU_CALL_TIMED : GENBA_GPU_CALL, "vkCmdFillBuffer",
			       t0, now_ns(CLOCK_MONOTONIC), 0, a.b, "");
	}
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdUpdateBuffer(VkCommandBuffer cb, VkBuffer dst,
						      VkDeviceSize off, VkDeviceSize size,
						      const void *data)
{
	struct device *d = device_of(KEY(cb));
	int timed = 0;
	BEGIN;
	TIMED(d, cb, GENBA_GPU_WRITE, size, "update buffer",
	      d->cmd_update_buffer(cb, dst, off, size, data));
	if (recording()) {
		TEXT(a);
		add(&a, "%p, %p, %lu, %lu, %p", (void *)cb, (void *)dst, (unsigned long)off,
		    (unsigned long)size, data);
		put_call_typed(timed ? GENBA_GPU_CALL_TIMED : GENBA_GPU_CALL, "vkCmdUpdateBuffer",
			       t0, now_ns(CLOCK_MONOTONIC), 0, a.b, "");
	}
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdPipelineBarrier(
	VkCommandBuffer cb, VkPipelineStageFlags src, VkPipelineStageFlags dst,
	VkDependencyFlags dep, uint32_t nm, const VkMemoryBarrier *m, uint32_t nb,
	const VkBufferMemoryBarrier *b, uint32_t ni, const VkImageMemoryBarrier *im)
{
	struct device *d = device_of(KEY(cb));
	BEGIN;
	d->cmd_pipeline_barrier(cb, src, dst, dep, nm, m, nb, b, ni, im);
	RECORD("vkCmdPipelineBarrier", 0, VK_SUCCESS, "%p, %#lx, %#lx, %#lx, %u, %u, %u",
	       (void *)cb, (unsigned long)src, (unsigned long)dst, (unsigned long)dep, nm, nb, ni);
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdPipelineBarrier2(VkCommandBuffer cb,
							  const VkDependencyInfo *di)
{
	struct device *d = device_of(KEY(cb));
	BEGIN;
	d->cmd_pipeline_barrier2(cb, di);
	RECORD("vkCmdPipelineBarrier2", 0, VK_SUCCESS,
	       "%p, {dependencyFlags=%#lx, memoryBarrierCount=%u, bufferMemoryBarrierCount=%u, "
	       "imageMemoryBarrierCount=%u}",
	       (void *)cb, (unsigned long)(di ? di->dependencyFlags : 0),
	       di ? di->memoryBarrierCount : 0, di ? di->bufferMemoryBarrierCount : 0,
	       di ? di->imageMemoryBarrierCount : 0);
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdBindPipeline(VkCommandBuffer cb, VkPipelineBindPoint bp,
						      VkPipeline p)
{
	struct device *d = device_of(KEY(cb));
	d->cmd_bind_pipeline(cb, bp, p);
	/* not a call the timeline shows: only the name of what dispatches run */
	if (bp == VK_PIPELINE_BIND_POINT_COMPUTE && recording()) {
		struct cmdbuf *c = cmdbuf_of(cb, d, 1);
		if (c) {
			pthread_mutex_lock(&table_lock);
			const char *name = map_get(&pipelines, H64(p));
			snprintf(c->pipeline, sizeof(c->pipeline), "%s", name ? name : "");
			pthread_mutex_unlock(&table_lock);
		}
	}
}

/* A command buffer about to be recorded again or reset: the specification
 * says no submission of it is pending, so the ones the layer still holds
 * completed. */
static void cmdbuf_restart(struct device *d, VkCommandBuffer cb)
{
	struct cmdbuf *c = cmdbuf_of(cb, d, 0);
	if (!c)
		return;
	if (ANY_PENDING())
		complete_by(d, BY_CMDBUF, H64(cb), 0, 0);
	c->n = 0;
	c->nreset = 0;
	c->pipeline[0] = 0;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkBeginCommandBuffer(VkCommandBuffer cb,
							     const VkCommandBufferBeginInfo *bi)
{
	struct device *d = device_of(KEY(cb));
	BEGIN;
	cmdbuf_restart(d, cb);
	VkResult r = d->begin_command_buffer(cb, bi);
	RECORD("vkBeginCommandBuffer", 1, r, "%p, {flags=%#lx}", (void *)cb,
	       (unsigned long)(bi ? bi->flags : 0));
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkResetCommandBuffer(VkCommandBuffer cb,
							     VkCommandBufferResetFlags f)
{
	struct device *d = device_of(KEY(cb));
	BEGIN;
	cmdbuf_restart(d, cb);
	VkResult r = d->reset_command_buffer(cb, f);
	RECORD("vkResetCommandBuffer", 1, r, "%p, %#lx", (void *)cb, (unsigned long)f);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkResetCommandPool(VkDevice dev, VkCommandPool pool,
							   VkCommandPoolResetFlags f)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	if (ANY_PENDING())
		complete_by(d, BY_CMDBUF, 0, H64(pool), 0);
	pthread_mutex_lock(&table_lock);
	for (uint32_t i = 0; i < MAP_CAP; i++) {
		struct cmdbuf *c = cmdbufs.val[i];
		if (c && c->dev == d && c->cmd_pool == pool) {
			c->n = 0;
			c->nreset = 0;
			c->pipeline[0] = 0;
		}
	}
	pthread_mutex_unlock(&table_lock);
	VkResult r = d->reset_command_pool(dev, pool, f);
	RECORD("vkResetCommandPool", 1, r, "%p, %p, %#lx", (void *)dev, (void *)pool,
	       (unsigned long)f);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkEndCommandBuffer(VkCommandBuffer cb)
{
	struct device *d = device_of(KEY(cb));
	BEGIN;
	VkResult r = d->end_command_buffer(cb);
	RECORD("vkEndCommandBuffer", 1, r, "%p", (void *)cb);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkCreateComputePipelines(
	VkDevice dev, VkPipelineCache cache, uint32_t n, const VkComputePipelineCreateInfo *ci,
	const VkAllocationCallbacks *alloc, VkPipeline *out)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	VkResult r = d->create_compute_pipelines(dev, cache, n, ci, alloc, out);
	/* each pipeline's name: its shader's entry point */
	for (uint32_t i = 0; r == VK_SUCCESS && ci && i < n; i++) {
		const char *e = ci[i].stage.pName ? ci[i].stage.pName : "";
		char *name = strdup(e);
		pthread_mutex_lock(&table_lock);
		free(map_del(&pipelines, H64(out[i])));
		if (name && !map_put(&pipelines, H64(out[i]), name))
			free(name);
		pthread_mutex_unlock(&table_lock);
	}
	RECORD("vkCreateComputePipelines", 1, r, "%p, %p, %u, [{entry=\"%s\"}]", (void *)dev,
	       (void *)cache, n, ci && n && ci[0].stage.pName ? ci[0].stage.pName : "");
	return r;
}

static VKAPI_ATTR void VKAPI_CALL l_vkDestroyPipeline(VkDevice dev, VkPipeline p,
						      const VkAllocationCallbacks *a)
{
	struct device *d = device_of(KEY(dev));
	pthread_mutex_lock(&table_lock);
	free(map_del(&pipelines, H64(p)));
	pthread_mutex_unlock(&table_lock);
	d->destroy_pipeline(dev, p, a);
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkCreateShaderModule(VkDevice dev,
							     const VkShaderModuleCreateInfo *ci,
							     const VkAllocationCallbacks *alloc,
							     VkShaderModule *out)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	VkResult r = d->create_shader_module(dev, ci, alloc, out);
	RECORD("vkCreateShaderModule", 1, r, "%p, {codeSize=%zu}", (void *)dev,
	       ci ? ci->codeSize : 0);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkCreateBuffer(VkDevice dev, const VkBufferCreateInfo *ci,
						       const VkAllocationCallbacks *alloc,
						       VkBuffer *out)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	VkResult r = d->create_buffer(dev, ci, alloc, out);
	RECORD("vkCreateBuffer", 1, r, "%p, {size=%zu, usage=%#lx}", (void *)dev,
	       (size_t)(ci ? ci->size : 0), (unsigned long)(ci ? ci->usage : 0));
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkAllocateMemory(VkDevice dev,
							 const VkMemoryAllocateInfo *ai,
							 const VkAllocationCallbacks *alloc,
							 VkDeviceMemory *out)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	VkResult r = d->allocate_memory(dev, ai, alloc, out);
	RECORD("vkAllocateMemory", 1, r, "%p, {allocationSize=%zu, memoryTypeIndex=%u}",
	       (void *)dev, (size_t)(ai ? ai->allocationSize : 0), ai ? ai->memoryTypeIndex : 0);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkAllocateCommandBuffers(
	VkDevice dev, const VkCommandBufferAllocateInfo *ai, VkCommandBuffer *out)
{
	struct device *d = device_of(KEY(dev));
	VkResult r = d->allocate_command_buffers(dev, ai, out);
	/* each one's pool, to forget them with it */
	for (uint32_t i = 0; r == VK_SUCCESS && recording() && i < ai->commandBufferCount; i++) {
		struct cmdbuf *c = cmdbuf_of(out[i], d, 1);
		if (c)
			c->cmd_pool = ai->commandPool;
	}
	return r;
}

static VKAPI_ATTR void VKAPI_CALL l_vkFreeCommandBuffers(VkDevice dev, VkCommandPool pool,
							 uint32_t n, const VkCommandBuffer *cbs)
{
	struct device *d = device_of(KEY(dev));
	cmdbufs_free(d, pool, n, cbs);
	d->free_command_buffers(dev, pool, n, cbs);
}

static VKAPI_ATTR void VKAPI_CALL l_vkDestroyCommandPool(VkDevice dev, VkCommandPool pool,
							 const VkAllocationCallbacks *a)
{
	struct device *d = device_of(KEY(dev));
	cmdbufs_free(d, pool, 0, NULL);
	d->destroy_command_pool(dev, pool, a);
}

static VKAPI_ATTR void VKAPI_CALL l_vkDestroyDevice(VkDevice dev, const VkAllocationCallbacks *a)
{
	void *key = KEY(dev);
	struct device *d = device_of(key);
	PFN_vkDestroyDevice destroy = d->destroy;
	/* all its work completed (the specification says so): read what is
	 * pending, and free its command buffers' pools */
	cmdbufs_free(d, VK_NULL_HANDLE, 0, NULL);
	pthread_mutex_lock(&table_lock);
	d->key = NULL;
	pthread_mutex_unlock(&table_lock);
	destroy(dev, a);
}

/* The layer's own device-level functions by name (NULL: not hooked). */
static PFN_vkVoidFunction device_hook(const char *name)
{
	/* not recording (no GENBA_GPU_DIR, fixed for the process): only what
	 * keeps the layer's table (a device destroyed frees its slot); every
	 * other call goes straight down the chain, at no cost */
	if (!recording())
		return strcmp(name, "vkDestroyDevice") ? NULL : (PFN_vkVoidFunction)l_vkDestroyDevice;
#define H(f)                                                                   \
	if (!strcmp(name, #f))                                                 \
		return (PFN_vkVoidFunction)l_##f;
	H(vkQueueSubmit)
	H(vkQueueSubmit2)
	H(vkQueueWaitIdle)
	H(vkDeviceWaitIdle)
	H(vkWaitForFences)
	H(vkCmdDispatch)
	H(vkCmdDispatchBase)
	H(vkCmdDispatchIndirect)
	H(vkCmdCopyBuffer)
	H(vkCmdPipelineBarrier)
	H(vkBeginCommandBuffer)
	H(vkEndCommandBuffer)
	H(vkCreateComputePipelines)
	H(vkCreateShaderModule)
	H(vkCreateBuffer)
	H(vkAllocateMemory)
	H(vkAllocateCommandBuffers)
	H(vkFreeCommandBuffers)
	H(vkDestroyCommandPool)
	H(vkDestroyDevice)
	H(vkGetFenceStatus)
	H(vkWaitSemaphores)
	H(vkGetSemaphoreCounterValue)
	H(vkCmdBindPipeline)
	H(vkDestroyPipeline)
	H(vkCmdFillBuffer)
	H(vkCmdUpdateBuffer)
	H(vkCmdPipelineBarrier2)
	H(vkResetCommandBuffer)
	H(vkResetCommandPool)
	if (!strcmp(name, "vkWaitSemaphoresKHR"))
		return (PFN_vkVoidFunction)l_vkWaitSemaphores;
	if (!strcmp(name, "vkGetSemaphoreCounterValueKHR"))
		return (PFN_vkVoidFunction)l_vkGetSemaphoreCounterValue;
	if (!strcmp(name, "vkCmdPipelineBarrier2KHR"))
		return (PFN_vkVoidFunction)l_vkCmdPipelineBarrier2;
#undef H
	return NULL;
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL genba_vkGetDeviceProcAddr(VkDevice dev,
									  const char *name)
{
	PFN_vkVoidFunction h = device_hook(name);
	struct device *d;
	if (!strcmp(name, "vkGetDeviceProcAddr"))
		return (PFN_vkVoidFunction)genba_vkGetDeviceProcAddr;
	d = dev ? device_of(KEY(dev)) : NULL;
	if (!d)
		return NULL;
	/* a function the device does not have stays absent */
	if (h && d->gdpa(dev, name))
		return h;
	return d->gdpa(dev, name);
}

/* ---- instance-level calls ---------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL l_vkCreateDevice(VkPhysicalDevice pd,
						       const VkDeviceCreateInfo *ci,
						       const VkAllocationCallbacks *alloc,
						       VkDevice *out)
{
	VkLayerDeviceCreateInfo *link = (VkLayerDeviceCreateInfo *)ci->pNext;
	struct instance *in = instance_of(KEY(pd));
	while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO &&
			 link->function == VK_LAYER_LINK_INFO))
		link = (VkLayerDeviceCreateInfo *)link->pNext;
	if (!link || !in)
		return VK_ERROR_INITIALIZATION_FAILED;
	PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
	PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
	link->u.pLayerInfo = link->u.pLayerInfo->pNext;
	PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(in->handle, "vkCreateDevice");
	/* the device's times need VK_EXT_calibrated_timestamps: enabled when
	 * the device has it and the program did not (the program's view of its
	 * extensions is otherwise the same) */
	VkDeviceCreateInfo mine = *ci;
	const char *exts[128];
	int calibrated = 0;
	{
		PFN_vkEnumerateDeviceExtensionProperties enumerate =
			(PFN_vkEnumerateDeviceExtensionProperties)gipa(
				in->handle, "vkEnumerateDeviceExtensionProperties");
		VkExtensionProperties props[256];
		uint32_t np = 256;
		if (recording() && enumerate &&
		    enumerate(pd, NULL, &np, props) >= VK_SUCCESS) {
			for (uint32_t i = 0; i < np; i++)
				if (!strcmp(props[i].extensionName,
					    VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME))
					calibrated = 1;
		}
		if (calibrated && ci->enabledExtensionCount < 127) {
			int there = 0;
			for (uint32_t i = 0; i < ci->enabledExtensionCount; i++) {
				exts[i] = ci->ppEnabledExtensionNames[i];
				there |= !strcmp(exts[i], VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);
			}
			if (!there) {
				exts[ci->enabledExtensionCount] =
					VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME;
				mine.enabledExtensionCount = ci->enabledExtensionCount + 1;
				mine.ppEnabledExtensionNames = exts;
			}
		} else {
			calibrated = 0;
		}
	}
	BEGIN;
	VkResult r = create(pd, calibrated ? &mine : ci, alloc, out);
	RECORD("vkCreateDevice", 1, r, "%p, {queueCreateInfoCount=%u, enabledExtensionCount=%u}",
	       (void *)pd, ci->queueCreateInfoCount, ci->enabledExtensionCount);
	if (r != VK_SUCCESS)
		return r;
	pthread_mutex_lock(&table_lock);
	for (int i = 0; i < MAX_OBJS; i++) {
		struct device *d = &devices[i];
		if (d->key)
			continue;
		d->key = KEY(*out);
		d->gdpa = gdpa;
#define F(field, fn) d->field = (PFN_##fn)gdpa(*out, #fn)
		F(destroy, vkDestroyDevice);
		F(queue_submit, vkQueueSubmit);
		F(queue_submit2, vkQueueSubmit2);
		F(queue_wait_idle, vkQueueWaitIdle);
		F(device_wait_idle, vkDeviceWaitIdle);
		F(wait_for_fences, vkWaitForFences);
		F(cmd_dispatch, vkCmdDispatch);
		F(cmd_dispatch_base, vkCmdDispatchBase);
		F(cmd_dispatch_indirect, vkCmdDispatchIndirect);
		F(cmd_copy_buffer, vkCmdCopyBuffer);
		F(cmd_pipeline_barrier, vkCmdPipelineBarrier);
		F(begin_command_buffer, vkBeginCommandBuffer);
		F(end_command_buffer, vkEndCommandBuffer);
		F(create_compute_pipelines, vkCreateComputePipelines);
		F(create_shader_module, vkCreateShaderModule);
		F(create_buffer, vkCreateBuffer);
		F(allocate_memory, vkAllocateMemory);
		F(create_query_pool, vkCreateQueryPool);
		F(destroy_query_pool, vkDestroyQueryPool);
		F(cmd_reset_query_pool, vkCmdResetQueryPool);
		F(cmd_write_timestamp, vkCmdWriteTimestamp);
		F(get_query_pool_results, vkGetQueryPoolResults);
		F(get_fence_status, vkGetFenceStatus);
		F(allocate_command_buffers, vkAllocateCommandBuffers);
		F(free_command_buffers, vkFreeCommandBuffers);
		F(destroy_command_pool, vkDestroyCommandPool);
		F(get_semaphore_counter_value, vkGetSemaphoreCounterValue);
		F(wait_semaphores, vkWaitSemaphores);
		F(cmd_bind_pipeline, vkCmdBindPipeline);
		F(destroy_pipeline, vkDestroyPipeline);
		F(cmd_fill_buffer, vkCmdFillBuffer);
		F(cmd_update_buffer, vkCmdUpdateBuffer);
		F(cmd_pipeline_barrier2, vkCmdPipelineBarrier2);
		F(reset_command_buffer, vkResetCommandBuffer);
		F(reset_command_pool, vkResetCommandPool);
		/* a Vulkan 1.1 device: the extensions' names */
		if (!d->get_semaphore_counter_value)
			F(get_semaphore_counter_value, vkGetSemaphoreCounterValueKHR);
		if (!d->wait_semaphores)
			F(wait_semaphores, vkWaitSemaphoresKHR);
		if (!d->cmd_pipeline_barrier2)
			F(cmd_pipeline_barrier2, vkCmdPipelineBarrier2KHR);
#undef F
		d->handle = *out;
		d->calibrated = calibrated ? (PFN_vkGetCalibratedTimestampsEXT)gdpa(
						     *out, "vkGetCalibratedTimestampsEXT")
					   : NULL;
		{
			PFN_vkGetPhysicalDeviceProperties getp =
				(PFN_vkGetPhysicalDeviceProperties)gipa(
					in->handle, "vkGetPhysicalDeviceProperties");
			PFN_vkGetPhysicalDeviceQueueFamilyProperties getq =
				(PFN_vkGetPhysicalDeviceQueueFamilyProperties)gipa(
					in->handle, "vkGetPhysicalDeviceQueueFamilyProperties");
			VkPhysicalDeviceProperties pp;
			VkQueueFamilyProperties qf[16];
			uint32_t nq = 16, bits = 64;
			getp(pd, &pp);
			d->period = pp.limits.timestampPeriod;
			getq(pd, &nq, qf);
			if (ci->queueCreateInfoCount &&
			    ci->pQueueCreateInfos[0].queueFamilyIndex < nq)
				bits = qf[ci->pQueueCreateInfos[0].queueFamilyIndex].timestampValidBits;
			if (!bits || d->period <= 0)
				d->calibrated = NULL;
			d->mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
			/* the device, by name, and how its times are mapped: one
			 * calibration (VK_EXT_calibrated_timestamps) says whether
			 * its clock is CLOCK_MONOTONIC itself (lavapipe's is: the
			 * two agree within the calibration's maximum deviation, the
			 * driver's bound on the gap between its two reads) or one
			 * of its own, then mapped with this one offset, known to
			 * within that deviation; genba narrows it with the
			 * commands' facts and follows its drift */
			struct genba_gpu_clock ck = { .device = (uint64_t)(uintptr_t)*out,
						      .domain = -1 };
			int64_t off;
			uint64_t deviation = 0, at = now_ns(CLOCK_MONOTONIC);
			d->own_clock = 0;
			d->offset = 0;
			if (d->calibrated && calibrate(d, &off, &deviation, &at)) {
				int64_t near = (int64_t)deviation + 1000;
				if (off >= -near && off <= near) {
					ck.domain = CLOCK_MONOTONIC;
				} else {
					d->own_clock = 1;
					d->offset = off;
					ck.offset = off;
					ck.uncertainty = deviation;
				}
			} else {
				/* no mapping: its commands are not timed */
				d->calibrated = NULL;
			}
			if (recording())
				/* at the calibration's own host time: genba takes
				 * it as a fact of that moment */
				put_struct(GENBA_GPU_CLOCK, gettid_cached(), 0, at, &ck, sizeof(ck),
					   pp.deviceName);
		}
		break;
	}
	pthread_mutex_unlock(&table_lock);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkCreateInstance(const VkInstanceCreateInfo *ci,
							 const VkAllocationCallbacks *alloc,
							 VkInstance *out)
{
	VkLayerInstanceCreateInfo *link = (VkLayerInstanceCreateInfo *)ci->pNext;
	while (link && !(link->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO &&
			 link->function == VK_LAYER_LINK_INFO))
		link = (VkLayerInstanceCreateInfo *)link->pNext;
	if (!link)
		return VK_ERROR_INITIALIZATION_FAILED;
	PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
	link->u.pLayerInfo = link->u.pLayerInfo->pNext;
	PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
	BEGIN;
	VkResult r = create(ci, alloc, out);
	RECORD("vkCreateInstance", 1, r, "{enabledLayerCount=%u, enabledExtensionCount=%u}",
	       ci->enabledLayerCount, ci->enabledExtensionCount);
	if (r != VK_SUCCESS)
		return r;
	pthread_mutex_lock(&table_lock);
	for (int i = 0; i < MAX_OBJS; i++)
		if (!instances[i].key) {
			instances[i].key = KEY(*out);
			instances[i].handle = *out;
			instances[i].gipa = gipa;
			instances[i].destroy =
				(PFN_vkDestroyInstance)gipa(*out, "vkDestroyInstance");
			break;
		}
	pthread_mutex_unlock(&table_lock);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL l_vkDestroyInstance(VkInstance inst,
						      const VkAllocationCallbacks *a)
{
	struct instance *in = instance_of(KEY(inst));
	PFN_vkDestroyInstance destroy = in->destroy;
	pthread_mutex_lock(&table_lock);
	in->key = NULL;
	pthread_mutex_unlock(&table_lock);
	destroy(inst, a);
}

EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL genba_vkGetInstanceProcAddr(VkInstance inst,
									    const char *name)
{
	struct instance *in;
	if (!strcmp(name, "vkGetInstanceProcAddr"))
		return (PFN_vkVoidFunction)genba_vkGetInstanceProcAddr;
	if (!strcmp(name, "vkCreateInstance"))
		return (PFN_vkVoidFunction)l_vkCreateInstance;
	if (!strcmp(name, "vkDestroyInstance"))
		return (PFN_vkVoidFunction)l_vkDestroyInstance;
	if (!strcmp(name, "vkCreateDevice"))
		return (PFN_vkVoidFunction)l_vkCreateDevice;
	if (!strcmp(name, "vkGetDeviceProcAddr"))
		return (PFN_vkVoidFunction)genba_vkGetDeviceProcAddr;
	{
		PFN_vkVoidFunction h = device_hook(name);
		if (h)
			return h;
	}
	in = inst ? instance_of(KEY(inst)) : NULL;
	return in ? in->gipa(inst, name) : NULL;
}
