// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* floor.bpf.c: empty programs on sys_enter/sys_exit. The benchmark attaches
 * them to measure what the raw-tracepoint approach costs before doing any work. */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("raw_tp/sys_enter")
int floor_enter(void *ctx)
{
	return 0;
}

SEC("raw_tp/sys_exit")
int floor_exit(void *ctx)
{
	return 0;
}
