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
} devices[MAX_OBJS];

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
	struct text res;
	res.n = 0;
	res.b[0] = 0;
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
			struct text a;                                         \
			a.n = 0;                                               \
			a.b[0] = 0;                                            \
			add(&a, __VA_ARGS__);                                  \
			call_done(fn, t0, has_result, r, &a);                  \
		}                                                              \
	} while (0)

/* ---- device-level calls ------------------------------------------------ */

static VKAPI_ATTR VkResult VKAPI_CALL l_vkQueueSubmit(VkQueue q, uint32_t n,
						      const VkSubmitInfo *s, VkFence f)
{
	struct device *d = device_of(KEY(q));
	uint32_t cbs = 0;
	BEGIN;
	VkResult r = d->queue_submit(q, n, s, f);
	for (uint32_t i = 0; s && i < n; i++)
		cbs += s[i].commandBufferCount;
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
	for (uint32_t i = 0; s && i < n; i++)
		cbs += s[i].commandBufferInfoCount;
	RECORD("vkQueueSubmit2", 1, r, "%p, %u, [%u command buffers], %p", (void *)q, n, cbs,
	       (void *)f);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkQueueWaitIdle(VkQueue q)
{
	struct device *d = device_of(KEY(q));
	BEGIN;
	VkResult r = d->queue_wait_idle(q);
	RECORD("vkQueueWaitIdle", 1, r, "%p", (void *)q);
	return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL l_vkDeviceWaitIdle(VkDevice dev)
{
	struct device *d = device_of(KEY(dev));
	BEGIN;
	VkResult r = d->device_wait_idle(dev);
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
	RECORD("vkWaitForFences", 1, r, "%p, %u, [...], %s, %#lx", (void *)dev, n,
	       all ? "VK_TRUE" : "VK_FALSE", (unsigned long)timeout);
	return r;
}

static VKAPI_ATTR void VKAPI_CALL l_vkCmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y,
						  uint32_t z)
{
	struct device *d = device_of(KEY(cb));
	BEGIN;
	d->cmd_dispatch(cb, x, y, z);
	RECORD("vkCmdDispatch", 0, VK_SUCCESS, "%p, %u, %u, %u", (void *)cb, x, y, z);
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
	BEGIN;
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
	BEGIN;
	VkResult r = create(pd, ci, alloc, out);
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
#undef F
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
