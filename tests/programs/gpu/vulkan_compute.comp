#version 450
// doubles every element of the buffer (tests/programs/gpu/vulkan_compute.c)
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint v[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < v.length()) v[i] = v[i] * 2u;
}
