/*
 * vulkan_compute SHADER.spv [N] [ROUNDS] [split]: doubles a buffer of N uints
 * on the first Vulkan device ROUNDS times, one submission and one fence wait
 * per round, and checks the result. With "split", each round doubles it
 * twice, in two submissions of their own command buffers, only the second
 * with the fence (whose signal covers the first too). It times each dispatch itself: its own
 * timestamp queries around the dispatch (device ticks, and the period of a
 * tick) and CLOCK_MONOTONIC before the submission and after the wait.
 * Prints {"ok": true, "rounds": R, "period": P, "dispatches": [...],
 * "dispatch_in": "<the object vkCmdDispatch's pointer is in>"}.
 * (The shader: vulkan_compute.comp, compiled by glslangValidator.)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <time.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define CHECK(x)                                                                 \
	do {                                                                     \
		VkResult _r = (x);                                               \
		if (_r != VK_SUCCESS) {                                          \
			fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, _r); \
			return 1;                                                \
		}                                                                \
	} while (0)

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	uint32_t n = argc > 2 ? (uint32_t)atoi(argv[2]) : 1 << 16;
	int rounds = argc > 3 ? atoi(argv[3]) : 3;
	int per = argc > 4 && !strcmp(argv[4], "split") ? 2 : 1;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 2;
	static uint32_t code[16384];
	size_t code_len = fread(code, 1, sizeof(code), f);
	fclose(f);

	VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
				  .apiVersion = VK_API_VERSION_1_1 };
	VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				     .pApplicationInfo = &app };
	VkInstance inst;
	CHECK(vkCreateInstance(&ici, NULL, &inst));
	uint32_t ndev = 1;
	VkPhysicalDevice pd;
	VkResult er = vkEnumeratePhysicalDevices(inst, &ndev, &pd);
	if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || ndev == 0)
		return 1;
	uint32_t nq = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
	VkQueueFamilyProperties qf[16];
	if (nq > 16)
		nq = 16;
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
	uint32_t fam = 0;
	while (fam < nq && !(qf[fam].queueFlags & VK_QUEUE_COMPUTE_BIT))
		fam++;
	float prio = 1;
	VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
					.queueFamilyIndex = fam, .queueCount = 1,
					.pQueuePriorities = &prio };
	VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
				   .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci };
	VkDevice dev;
	CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
	VkQueue q;
	vkGetDeviceQueue(dev, fam, 0, &q);

	VkBufferCreateInfo bci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
				   .size = n * 4ull, .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT };
	VkBuffer buf;
	CHECK(vkCreateBuffer(dev, &bci, NULL, &buf));
	VkMemoryRequirements mr;
	vkGetBufferMemoryRequirements(dev, buf, &mr);
	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(pd, &mp);
	uint32_t mt = 0;
	VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
	while (mt < mp.memoryTypeCount &&
	       !((mr.memoryTypeBits & (1u << mt)) && (mp.memoryTypes[mt].propertyFlags & want) == want))
		mt++;
	VkMemoryAllocateInfo mai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
				     .allocationSize = mr.size, .memoryTypeIndex = mt };
	VkDeviceMemory mem;
	CHECK(vkAllocateMemory(dev, &mai, NULL, &mem));
	CHECK(vkBindBufferMemory(dev, buf, mem, 0));
	uint32_t *data;
	CHECK(vkMapMemory(dev, mem, 0, n * 4ull, 0, (void **)&data));
	for (uint32_t i = 0; i < n; i++)
		data[i] = i;

	VkShaderModuleCreateInfo smci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
					  .codeSize = code_len, .pCode = code };
	VkShaderModule sm;
	CHECK(vkCreateShaderModule(dev, &smci, NULL, &sm));
	VkDescriptorSetLayoutBinding b = { .binding = 0,
					   .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
					   .descriptorCount = 1,
					   .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT };
	VkDescriptorSetLayoutCreateInfo dslci = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 1,
		.pBindings = &b };
	VkDescriptorSetLayout dsl;
	CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));
	VkPipelineLayoutCreateInfo plci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
					    .setLayoutCount = 1, .pSetLayouts = &dsl };
	VkPipelineLayout pl;
	CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &pl));
	VkComputePipelineCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			   .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = sm, .pName = "main" },
		.layout = pl };
	VkPipeline pipe;
	CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));
	VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
	VkDescriptorPoolCreateInfo dpci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
					    .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &ps };
	VkDescriptorPool dp;
	CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dp));
	VkDescriptorSetAllocateInfo dsai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
					     .descriptorPool = dp, .descriptorSetCount = 1,
					     .pSetLayouts = &dsl };
	VkDescriptorSet ds;
	CHECK(vkAllocateDescriptorSets(dev, &dsai, &ds));
	VkDescriptorBufferInfo dbi = { buf, 0, VK_WHOLE_SIZE };
	VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = ds,
				   .descriptorCount = 1,
				   .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
				   .pBufferInfo = &dbi };
	vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);

	VkCommandPoolCreateInfo cpoi = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
					 .queueFamilyIndex = fam };
	VkCommandPool cp;
	CHECK(vkCreateCommandPool(dev, &cpoi, NULL, &cp));
	VkCommandBufferAllocateInfo cbai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
					     .commandPool = cp,
					     .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
					     .commandBufferCount = 2 };
	VkCommandBuffer cbs[2];
	CHECK(vkAllocateCommandBuffers(dev, &cbai, cbs));
	VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
	VkFence fence;
	CHECK(vkCreateFence(dev, &fci, NULL, &fence));
	VkPhysicalDeviceProperties pp;
	vkGetPhysicalDeviceProperties(pd, &pp);
	VkQueryPoolCreateInfo qpi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
				      .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 4 };
	VkQueryPool qp;
	CHECK(vkCreateQueryPool(dev, &qpi, NULL, &qp));
	printf("{\"period\": %f, \"dispatches\": [", pp.limits.timestampPeriod);
	for (int r = 0; r < rounds; r++) {
		struct timespec t0, t1;
		VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
						.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
		for (int j = 0; j < per; j++) {
			VkCommandBuffer cb = cbs[j];
			CHECK(vkBeginCommandBuffer(cb, &bi));
			vkCmdResetQueryPool(cb, qp, 2 * j, 2);
			if (j) {
				/* after the first submission's writes */
				VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
						       .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
						       .dstAccessMask = VK_ACCESS_SHADER_READ_BIT |
									VK_ACCESS_SHADER_WRITE_BIT };
				vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
						     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
						     NULL, 0, NULL);
			}
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 0,
						NULL);
			vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 2 * j);
			vkCmdDispatch(cb, (n + 63) / 64, 1, 1);
			vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, 2 * j + 1);
			CHECK(vkEndCommandBuffer(cb));
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (int j = 0; j < per; j++) {
			VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
					    .commandBufferCount = 1, .pCommandBuffers = &cbs[j] };
			CHECK(vkQueueSubmit(q, 1, &si, j == per - 1 ? fence : VK_NULL_HANDLE));
		}
		CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
		clock_gettime(CLOCK_MONOTONIC, &t1);
		CHECK(vkResetFences(dev, 1, &fence));
		uint64_t ts[4];
		CHECK(vkGetQueryPoolResults(dev, qp, 0, 2 * per, sizeof(ts), ts, 8,
					    VK_QUERY_RESULT_64_BIT));
		for (int j = 0; j < per; j++)
			printf("%s{\"before\": %llu, \"after\": %llu, \"start\": %llu, \"end\": %llu}",
			       r || j ? ", " : "",
			       (unsigned long long)t0.tv_sec * 1000000000ull + t0.tv_nsec,
			       (unsigned long long)t1.tv_sec * 1000000000ull + t1.tv_nsec,
			       (unsigned long long)ts[2 * j], (unsigned long long)ts[2 * j + 1]);
	}
	printf("], ");
	vkDestroyQueryPool(dev, qp, NULL);
	int ok = 1;
	/* doubled `rounds` times (twice each, split), modulo 2^32 */
	int doubled = rounds * per;
	for (uint32_t i = 0; i < n; i++)
		if (data[i] != (doubled < 32 ? i << doubled : 0))
			ok = 0;
	/* where the device's vkCmdDispatch is: the first layer's, or the driver's */
	Dl_info where = { 0 };
	PFN_vkVoidFunction disp = vkGetDeviceProcAddr(dev, "vkCmdDispatch");
	if (!disp || !dladdr((void *)disp, &where) || !where.dli_fname)
		where.dli_fname = "";
	printf("\"ok\": %s, \"rounds\": %d, \"dispatch_in\": \"%s\"}\n", ok ? "true" : "false",
	       rounds, where.dli_fname);
	vkDeviceWaitIdle(dev);
	vkDestroyFence(dev, fence, NULL);
	vkDestroyCommandPool(dev, cp, NULL);
	vkDestroyDescriptorPool(dev, dp, NULL);
	vkDestroyPipeline(dev, pipe, NULL);
	vkDestroyPipelineLayout(dev, pl, NULL);
	vkDestroyDescriptorSetLayout(dev, dsl, NULL);
	vkDestroyShaderModule(dev, sm, NULL);
	vkUnmapMemory(dev, mem);
	vkFreeMemory(dev, mem, NULL);
	vkDestroyBuffer(dev, buf, NULL);
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return ok ? 0 : 1;
}
