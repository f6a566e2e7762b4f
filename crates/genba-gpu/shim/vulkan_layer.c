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
} devices[MAX_OBJS];

/* ---- dispatches' device times ------------------------------------------ */

#define MAX_QUERIES 256 /* two a dispatch */
#define MAX_CBS 256
#define MAX_SUBMITS 256

struct dispatch {
	uint32_t x, y, z;
	uint32_t tid;
	uint64_t t_record; /* when vkCmdDispatch was called */
};

/* A command buffer's query pool and the dispatches of its recording. */
static struct cmdbuf {
	VkCommandBuffer cb;
	VkCommandPool cmd_pool; /* the pool it came from */
	struct device *dev;
	VkQueryPool pool;
	int reset; /* the pool was reset in this recording */
	uint32_t n;
	struct dispatch d[MAX_QUERIES / 2];
} cmdbufs[MAX_CBS];

/* A submission not yet known complete. */
static struct submit {
	struct cmdbuf *cb;
	VkQueue queue;
	VkFence fence;
	uint64_t t_submit;
	uint32_t n;
	struct dispatch d[MAX_QUERIES / 2];
} submits[MAX_SUBMITS];

static struct cmdbuf *cmdbuf_of(VkCommandBuffer cb, struct device *dev, int make)
{
	struct cmdbuf *r = NULL, *free_slot = NULL;
	pthread_mutex_lock(&table_lock);
	for (int i = 0; i < MAX_CBS && !r; i++) {
		if (cmdbufs[i].cb == cb)
			r = &cmdbufs[i];
		else if (!cmdbufs[i].cb && !free_slot)
			free_slot = &cmdbufs[i];
	}
	if (!r && make && free_slot) {
		r = free_slot;
		memset(r, 0, sizeof(*r));
		r->cb = cb;
		r->dev = dev;
	}
	pthread_mutex_unlock(&table_lock);
	return r;
}

/* Command buffers freed (`pool` set: every one of that pool): their query
 * pools destroyed, their slots and their pending submissions forgotten. */
static void cmdbufs_free(struct device *d, VkCommandPool pool, uint32_t n,
			 const VkCommandBuffer *cbs)
{
	VkQueryPool gone[MAX_CBS];
	int ng = 0;
	pthread_mutex_lock(&table_lock);
	for (int i = 0; i < MAX_CBS; i++) {
		struct cmdbuf *c = &cmdbufs[i];
		int hit = 0;
		if (!c->cb || c->dev != d)
			continue;
		if (cbs) {
			for (uint32_t k = 0; k < n && !hit; k++)
				hit = cbs[k] == c->cb;
		} else {
			hit = c->cmd_pool == pool;
		}
		if (!hit)
			continue;
		for (int k = 0; k < MAX_SUBMITS; k++)
			if (submits[k].cb == c)
				submits[k].cb = NULL;
		if (c->pool)
			gone[ng++] = c->pool;
		memset(c, 0, sizeof(*c));
	}
	pthread_mutex_unlock(&table_lock);
	for (int i = 0; i < ng; i++)
		d->destroy_query_pool(d->handle, gone[i], NULL);
}

/* The offset that puts device ticks (times period) on CLOCK_MONOTONIC. */
static int monotonic_offset(struct device *d, int64_t *off)
{
	VkCalibratedTimestampInfoEXT info[2] = {
		{ .sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
		  .timeDomain = VK_TIME_DOMAIN_DEVICE_EXT },
		{ .sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
		  .timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT },
	};
	uint64_t ts[2], dev_ns, dev_max;
	if (!d->calibrated || d->calibrated(d->handle, 2, info, ts, &dev_max) != VK_SUCCESS)
		return 0;
	dev_ns = (uint64_t)((double)(ts[0] & d->mask) * d->period);
	*off = (int64_t)ts[1] - (int64_t)dev_ns;
	return 1;
}

/* A submission completed: its dispatches' times read and written. */
static void completed(struct submit *s)
{
	struct device *d = s->cb->dev;
	uint64_t t[MAX_QUERIES];
	int64_t off;
	if (!s->n || !monotonic_offset(d, &off))
		return;
	if (d->get_query_pool_results(d->handle, s->cb->pool, 0, s->n * 2, sizeof(t), t,
				      sizeof(uint64_t), VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
		return;
	for (uint32_t i = 0; i < s->n; i++) {
		struct dispatch *p = &s->d[i];
		struct genba_gpu_cmd c = { 0 };
		TEXT(nm);
		add(&nm, "dispatch %u,%u,%u", p->x, p->y, p->z);
		const char *name = nm.b;
		c.queue = (uint64_t)(uintptr_t)s->queue;
		c.device = (uint64_t)(uintptr_t)d->handle;
		c.queued = s->t_submit;
		c.start = (uint64_t)((int64_t)((double)(t[2 * i] & d->mask) * d->period) + off);
		c.end = (uint64_t)((int64_t)((double)(t[2 * i + 1] & d->mask) * d->period) + off);
		c.kind = GENBA_GPU_KERNEL;
		put_struct(GENBA_GPU_CMD, p->tid, 0, p->t_record, &c, sizeof(c), name);
	}
}

/* After a wait that succeeded: the submissions it completed (`fence` one
 * of `fences`, or on `queue`, or on `dev`) read and forgotten. */
static void wait_done(struct device *dev, VkQueue queue, uint32_t nf, const VkFence *fences)
{
	struct submit done[16];
	int n = 0;
	pthread_mutex_lock(&table_lock);
	for (int i = 0; i < MAX_SUBMITS && n < 16; i++) {
		struct submit *s = &submits[i];
		int hit = 0;
		if (!s->cb || s->cb->dev != dev)
			continue;
		if (queue)
			hit = s->queue == queue;
		else if (fences) {
			for (uint32_t k = 0; k < nf && !hit; k++)
				hit = s->fence && s->fence == fences[k] &&
				      dev->get_fence_status(dev->handle, s->fence) == VK_SUCCESS;
		} else
			hit = 1;
		if (hit) {
			done[n++] = *s;
			s->cb = NULL;
		}
	}
	pthread_mutex_unlock(&table_lock);
	for (int i = 0; i < n; i++)
		completed(&done[i]);
}

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

/* A command buffer submitted: its dispatches wait for a wait to complete. */
static void note_submit(struct device *d, VkQueue q, VkCommandBuffer cb, VkFence f, uint64_t t)
{
	struct cmdbuf *c = cmdbuf_of(cb, d, 0);
	if (!c || !c->n || !recording())
		return;
	pthread_mutex_lock(&table_lock);
	for (int i = 0; i < MAX_SUBMITS; i++)
		if (!submits[i].cb) {
			submits[i].cb = c;
			submits[i].queue = q;
			submits[i].fence = f;
			submits[i].t_submit = t;
			submits[i].n = c->n;
			memcpy(submits[i].d, c->d, c->n * sizeof(c->d[0]));
			/* a recording submitted again: its commands come from the
			 * same calls, whose flows the first ones ended */
			for (uint32_t k = 0; k < c->n; k++)
				c->d[k].t_record = 0;
			break;
		}
	pthread_mutex_unlock(&table_lock);
}

/* ---- device-level calls ------------------------------------------------ */

static VKAPI_ATTR VkResult VKAPI_CALL l_vkQueueSubmit(VkQueue q, uint32_t n,
						      const VkSubmitInfo *s, VkFence f)
{
	struct device *d = device_of(KEY(q));
	uint32_t cbs = 0;
	BEGIN;
	VkResult r = d->queue_submit(q, n, s, f);
	for (uint32_t i = 0; s && i < n; i++) {
		cbs += s[i].commandBufferCount;
		for (uint32_t k = 0; r == VK_SUCCESS && k < s[i].commandBufferCount; k++)
			note_submit(d, q, s[i].pCommandBuffers[k], f, t0);
	}
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
	for (uint32_t i = 0; s && i < n; i++) {
		cbs += s[i].commandBufferInfoCount;
		for (uint32_t k = 0; r == VK_SUCCESS && k < s[i].commandBufferInfoCount; k++)
			note_submit(d, q, s[i].pCommandBufferInfos[k].commandBuffer, f, t0);
	}
	RECORD("vkQueueSubmit2", 1, r, "%p, %u, [%u command buffers], %p", (void *)q, n, cbs,
	       (void *)f);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkQueueWaitIdle(VkQueue q)
{
	struct device *d = device_of(KEY(q));
	BEGIN;
	VkResult r = d->queue_wait_idle(q);
	if (r == VK_SUCCESS)
		wait_done(d, q, 0, NULL);
	RECORD("vkQueueWaitIdle", 1, r, "%p", (void *)q);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkDeviceWaitIdle(VkDevice dev)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	VkResult r = d->device_wait_idle(dev);
	if (r == VK_SUCCESS)
		wait_done(d, VK_NULL_HANDLE, 0, NULL);
	RECORD("vkDeviceWaitIdle", 1, r, "%p", (void *)dev);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkWaitForFences(VkDevice dev, uint32_t n,
							const VkFence *f, VkBool32 all,
							uint64_t timeout)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	VkResult r = d->wait_for_fences(dev, n, f, all, timeout);
	if (r == VK_SUCCESS)
		wait_done(d, VK_NULL_HANDLE, n, f);
	RECORD("vkWaitForFences", 1, r, "%p, %u, [...], %s, %#lx", (void *)dev, n,
	       all ? "VK_TRUE" : "VK_FALSE", (unsigned long)timeout);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y,
						  uint32_t z)
{
	struct device *d = device_of(KEY(cb));
	struct cmdbuf *c = NULL;
	BEGIN;
	/* a timestamp before and after it, when the device can time it */
	if (recording() && d->calibrated && d->cmd_write_timestamp)
		c = cmdbuf_of(cb, d, 1);
	if (c && !c->pool) {
		VkQueryPoolCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
					     .queryType = VK_QUERY_TYPE_TIMESTAMP,
					     .queryCount = MAX_QUERIES };
		if (d->create_query_pool(d->handle, &qi, NULL, &c->pool) != VK_SUCCESS)
			c->pool = VK_NULL_HANDLE;
	}
	if (c && c->pool && c->n < MAX_QUERIES / 2) {
		if (!c->reset) {
			d->cmd_reset_query_pool(cb, c->pool, 0, MAX_QUERIES);
			c->reset = 1;
		}
		d->cmd_write_timestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c->pool, 2 * c->n);
		d->cmd_dispatch(cb, x, y, z);
		d->cmd_write_timestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->pool,
				       2 * c->n + 1);
		c->d[c->n] = (struct dispatch){ x, y, z, gettid_cached(), t0 };
		c->n++;
	} else {
		d->cmd_dispatch(cb, x, y, z);
		c = NULL;
	}
	if (recording()) {
		/* timed: its first execution's command ends a flow from here */
		TEXT(a);
		add(&a, "%p, %u, %u, %u", (void *)cb, x, y, z);
		put_call_typed(c ? GENBA_GPU_CALL_TIMED : GENBA_GPU_CALL, "vkCmdDispatch", t0,
			       now_ns(CLOCK_MONOTONIC), 0, a.b, "");
	}
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdDispatchBase(VkCommandBuffer cb, uint32_t bx,
						      uint32_t by, uint32_t bz, uint32_t x,
						      uint32_t y, uint32_t z)
{
	struct device *d = device_of(KEY(cb));
	BEGIN;
	d->cmd_dispatch_base(cb, bx, by, bz, x, y, z);
	RECORD("vkCmdDispatchBase", 0, VK_SUCCESS, "%p, %u, %u, %u, %u, %u, %u", (void *)cb, bx,
	       by, bz, x, y, z);
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdDispatchIndirect(VkCommandBuffer cb, VkBuffer b,
							  VkDeviceSize off)
{
	struct device *d = device_of(KEY(cb));
	BEGIN;
	d->cmd_dispatch_indirect(cb, b, off);
	RECORD("vkCmdDispatchIndirect", 0, VK_SUCCESS, "%p, %p, %zu", (void *)cb, (void *)b,
	       (size_t)off);
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdCopyBuffer(VkCommandBuffer cb, VkBuffer src,
						    VkBuffer dst, uint32_t n,
						    const VkBufferCopy *regions)
{
	struct device *d = device_of(KEY(cb));
	size_t bytes = 0;
	BEGIN;
	d->cmd_copy_buffer(cb, src, dst, n, regions);
	for (uint32_t i = 0; regions && i < n; i++)
		bytes += regions[i].size;
	RECORD("vkCmdCopyBuffer", 0, VK_SUCCESS, "%p, %p, %p, %u, [%zu bytes]", (void *)cb,
	       (void *)src, (void *)dst, n, bytes);
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

static VKAPI_ATTR VkResult VKAPI_CALL l_vkBeginCommandBuffer(VkCommandBuffer cb,
							     const VkCommandBufferBeginInfo *bi)
{
	struct device *d = device_of(KEY(cb));
	struct cmdbuf *c = cmdbuf_of(cb, d, 0);
	BEGIN;
	if (c) {
		c->n = 0;
		c->reset = 0;
	}
	VkResult r = d->begin_command_buffer(cb, bi);
	RECORD("vkBeginCommandBuffer", 1, r, "%p, {flags=%#lx}", (void *)cb,
	       (unsigned long)(bi ? bi->flags : 0));
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
	RECORD("vkCreateComputePipelines", 1, r, "%p, %p, %u, [{entry=\"%s\"}]", (void *)dev,
	       (void *)cache, n, ci && n && ci[0].stage.pName ? ci[0].stage.pName : "");
	return r;
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
	pthread_mutex_lock(&table_lock);
	d->key = NULL;
	pthread_mutex_unlock(&table_lock);
	destroy(dev, a);
}

/* The layer's own device-level functions by name (NULL: not hooked). */
static PFN_vkVoidFunction device_hook(const char *name)
{
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
			/* the device, by name, and how its times are mapped */
			struct genba_gpu_clock ck = { .device = (uint64_t)(uintptr_t)*out,
						      .domain = d->calibrated ? CLOCK_MONOTONIC : -1 };
			if (recording())
				put_struct(GENBA_GPU_CLOCK, gettid_cached(), 0,
					   now_ns(CLOCK_MONOTONIC), &ck, sizeof(ck), pp.deviceName);
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
