// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* floor.bpf.c: the benchmark's programs on sys_enter/sys_exit. Empty, they
 * measure what the tracepoint approach costs before doing any work; with
 * `pieces` set, each adds one piece of what the trace programs do per call,
 * so bench/trace-pieces.sh can price each piece on the host it runs on. */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "genba.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

const volatile __u32 pieces = 0;

/* the results go here, so that no piece is optimized away */
__u64 sink;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} floor_ring SEC(".maps");

/* x86_64 struct pt_regs up to sp, as a raw_tp program copies it */
struct regs_copy {
	__u64 r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, orig_ax;
	__u64 ip, cs, flags, sp;
};

/* the kernel's struct pt_regs, as a tp_btf program reads it */
struct pt_regs {
	unsigned long di, si, dx, r10, r8, r9, orig_ax, ip, sp, bp;
} __attribute__((preserve_access_index));

static __always_inline void helpers(void)
{
	if (pieces & GENBA_PIECE_ID)
		sink += bpf_get_current_pid_tgid();
	if (pieces & GENBA_PIECE_CLOCK)
		sink += bpf_ktime_get_ns();
	if (pieces & GENBA_PIECE_QUERY)
		sink += bpf_ringbuf_query(&floor_ring, BPF_RB_AVAIL_DATA);
}

static __always_inline int raw(struct bpf_raw_tracepoint_args *ctx)
{
	helpers();
	if (pieces & GENBA_PIECE_COPY) {
		struct regs_copy r;

		if (!bpf_probe_read_kernel(&r, sizeof(r), (void *)ctx->args[0]))
			sink += r.di + r.si + r.dx + r.r10 + r.r8 + r.r9 + r.orig_ax + r.ip + r.sp + r.bp;
	}
	return 0;
}

static __always_inline int btf(__u64 *ctx)
{
	struct pt_regs *r = (void *)ctx[0];

	helpers();
	if (pieces & GENBA_PIECE_LOADS)
		sink += r->di + r->si + r->dx + r->r10 + r->r8 + r->r9 + r->orig_ax + r->ip + r->sp + r->bp;
	return 0;
}

SEC("raw_tp/sys_enter")
int floor_enter(struct bpf_raw_tracepoint_args *ctx)
{
	return raw(ctx);
}

SEC("raw_tp/sys_exit")
int floor_exit(struct bpf_raw_tracepoint_args *ctx)
{
	return raw(ctx);
}

SEC("tp_btf/sys_enter")
int floor_btf_enter(__u64 *ctx)
{
	return btf(ctx);
}

SEC("tp_btf/sys_exit")
int floor_btf_exit(__u64 *ctx)
{
	return btf(ctx);
}
