/*
 * genba_gpu.h: the ring a GPU shim (the OpenCL layer, the Vulkan layer)
 * writes inside a traced process, and genba reads (crates/genba-gpu/src/ring.rs
 * mirrors this layout; the tests drive both ends).
 *
 * One file per process in $GENBA_GPU_DIR, named "<pid>.ring", mapped shared:
 * a 4096-byte head, then `size` bytes of records (a power of two). The shim
 * appends records under a lock (several threads and the runtime's callback
 * threads write); genba reads from `read` to `write` and advances `read`.
 * A record never wraps: the space left at the end of the data is filled with
 * a PAD record and the next record starts at 0. A record that does not fit
 * in the free space is dropped and counted in `lost`.
 */
#ifndef GENBA_GPU_H
#define GENBA_GPU_H

#include <stdint.h>

#define GENBA_GPU_MAGIC 0x3175706761626e67ULL /* "gnbagpu1" */
#define GENBA_GPU_VERSION 1
#define GENBA_GPU_HEAD 4096
/* bytes of records a ring holds; GENBA_GPU_RING_KIB (a power of two, at
 * least 4) sets another size, as the tests of loss accounting do */
#define GENBA_GPU_DATA (8u << 20)

struct genba_gpu_head {
	uint64_t magic;
	uint32_t version;
	uint32_t pid;
	uint64_t size;  /* bytes of data after the head */
	uint64_t write; /* bytes ever written (the producer's position) */
	uint64_t read;  /* bytes ever read (the consumer's position) */
	uint64_t lost;  /* records dropped because the ring was full */
};

enum genba_gpu_type {
	GENBA_GPU_PAD = 0,
	/* an API call on the calling thread: t0..t1 on CLOCK_MONOTONIC;
	 * payload: the function's name, then the call's decoded arguments,
	 * then its result, each NUL-terminated */
	GENBA_GPU_CALL = 1,
	/* a command the device ran: t0 = the enqueue call's start, t1 = when
	 * the record was written, after the shim saw the command complete;
	 * payload: struct genba_gpu_cmd, then the command's name,
	 * NUL-terminated */
	GENBA_GPU_CMD = 2,
	/* a device's clock, as the shim mapped it: payload: struct
	 * genba_gpu_clock, then the device's name, NUL-terminated */
	GENBA_GPU_CLOCK = 3,
	/* a CALL that enqueued a command the shim times (a CMD record with
	 * this call's thread and t0 follows when the command completes) */
	GENBA_GPU_CALL_TIMED = 4,
};

enum genba_gpu_api { GENBA_GPU_OPENCL = 1, GENBA_GPU_VULKAN = 2, GENBA_GPU_CUDA = 3 };

/* Every record starts with this; len counts it and is a multiple of 8. */
struct genba_gpu_rec {
	uint32_t len;
	uint16_t type;
	uint16_t api;
	uint32_t tid;
	int32_t err; /* the call's error code (0: success) */
	uint64_t t0;
	uint64_t t1;
};

enum genba_gpu_kind {
	GENBA_GPU_KERNEL = 1,
	GENBA_GPU_READ = 2,  /* device to host */
	GENBA_GPU_WRITE = 3, /* host to device */
	GENBA_GPU_COPY = 4,  /* device to device */
	GENBA_GPU_FILL = 5,
	GENBA_GPU_MAP = 6,
	GENBA_GPU_UNMAP = 7,
	GENBA_GPU_MARKER = 8,
	GENBA_GPU_OTHER = 9,
};

struct genba_gpu_cmd {
	uint64_t queue;  /* the queue's handle */
	uint64_t device; /* the device's handle */
	/* the four profiling times, mapped onto CLOCK_MONOTONIC (0: unknown) */
	uint64_t queued, submit, start, end;
	uint64_t bytes; /* moved by a transfer */
	uint32_t kind;  /* enum genba_gpu_kind */
	uint32_t pad;
	/* CLOCK_MONOTONIC: the enqueue call's return (QUEUED was before it),
	 * and the return of the first wait that covered the command (clFinish,
	 * clWaitForEvents, a blocking enqueue; Vulkan: the wait or status
	 * read on its fence, its timeline semaphore, its queue or its device:
	 * END was before it) (0: unknown) */
	uint64_t enqueue_returned;
	uint64_t waited;
};

struct genba_gpu_clock {
	uint64_t device;
	/* the host clock the device's timestamps are on (a clockid_t: 1
	 * MONOTONIC, 4 MONOTONIC_RAW, 7 BOOTTIME, 0 REALTIME), or -1: none of
	 * them, mapped by an offset measured around a marker */
	int32_t domain;
	uint32_t pad;
	int64_t offset;       /* with domain -1: CLOCK_MONOTONIC = device + offset */
	uint64_t uncertainty; /* ns: half the bracket the offset was measured in */
};

#endif
