/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * genba.h: the one definition of everything that crosses between the BPF
 * programs and user space. Records in the ring buffer, capture specs in maps,
 * limits. The Rust side reads these through the skeleton's generated types and
 * through genba-events, which mirrors only the on-wire record layout and is
 * checked against this file by a test (see genba-events/src/wire.rs).
 */
#ifndef GENBA_H
#define GENBA_H

#define GENBA_NARGS 6
/* Capture slots per call: one per argument, and four more for memory that
 * pointers inside the arguments' structures point to. */
#define GENBA_NSLOTS 10
/* x86_64 syscall numbers in use end below 512. */
#define GENBA_MAX_SYSCALLS 512
/* Per-CPU scratch where one record is assembled before bpf_ringbuf_output. */
#define GENBA_SCRATCH_SIZE (1 << 16)
/* Offsets into scratch are masked by this so the verifier sees them bounded;
 * a capture never starts past it and is never longer than GENBA_CAP_MAX, so
 * OFF_MASK + GENBA_CAP_MAX + header < GENBA_SCRATCH_SIZE. */
#define GENBA_OFF_MASK ((1 << 15) - 1)
#define GENBA_CAP_MAX (1 << 14)
/* Elements of a string array (argv) or iovec captured at most. */
#define GENBA_MAX_ELEMS 64
/* Pointers counted at most in a string array whose strings are not captured. */
#define GENBA_MAX_COUNT 4096
/* log2 latency buckets in the in-kernel summary. */
#define GENBA_HIST_BUCKETS 40

enum genba_rec_type {
	GENBA_REC_SYS_ENTER = 1,
	GENBA_REC_SYS_EXIT = 2,
	GENBA_REC_FORK = 3,
	GENBA_REC_EXIT = 4,
	GENBA_REC_SIGNAL = 5,
	GENBA_REC_EXEC = 6,
	GENBA_REC_PROF = 7,
};

/* Every record starts with this; len counts the whole record, captures included,
 * and is a multiple of 8. */
struct genba_hdr {
	__u32 type;
	__u32 len;
	__u64 ts; /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 tid;
	__u32 tgid;
	__u32 cpu;
	__u32 pad; /* sys_exit: the call's GENBA_INJ_* flags (-e inject=) */
};

struct genba_sys_enter {
	struct genba_hdr hdr;
	__u32 nr;
	__u32 ncaps;
	__u64 args[GENBA_NARGS];
	/* ncaps x (struct genba_cap + data padded to 8) follow */
};

struct genba_sys_exit {
	struct genba_hdr hdr;
	__u32 nr;
	__u32 ncaps;
	__s64 ret;
	__u64 enter_ts; /* 0 when the entry was not seen */
	__u64 off_cpu_ns; /* time off the CPU inside the call (CPU-time summaries) */
	__u64 args[GENBA_NARGS];
	/* ncaps x captures follow */
};

/*
 * -e inject=: a call genba's seccomp listener acted on. User space writes
 * it, keyed by tid, before it answers the call; the call's entry (if it
 * runs) or its exit reads it back and deletes it. A call answered with an
 * error or a return value never runs: no sys_enter, and its exit makes the
 * entry's copies, the memory still as the program passed it.
 */
#define GENBA_INJ_SKIPPED 1 /* error= or retval=: the call did not run */
#define GENBA_INJ_DELAYED 2 /* delay_enter= */
#define GENBA_INJ_POKED 4 /* poke_enter= or poke_exit=: memory written */

/* poke_exit=: what genba's listener leaves for a thread's call, written
 * over the program's memory as the call returns. */
#define GENBA_POKES 4
#define GENBA_POKE_BYTES 256
struct genba_poke {
	__u32 n;
	__u32 nr; /* the call's number: written only at that call's exit */
	__u64 addr[GENBA_POKES];
	__u32 len[GENBA_POKES];
	__u8 data[GENBA_POKES * GENBA_POKE_BYTES]; /* piece i at i * GENBA_POKE_BYTES */
};
struct genba_injected {
	__u32 nr;
	/* GENBA_INJ_* in bits 0-7; bits 8-15: a signal to send the thread as
	 * the call enters, or returns if it does not run (signal=). Sent from
	 * BPF, it reaches the program as the kernel's (SI_KERNEL), as strace's
	 * injected signals do. */
	__u32 flags;
	__u64 ts; /* when the listener stopped the call */
};

/* sched_process_fork of a traced parent: the child is traced from now on. */
struct genba_fork {
	struct genba_hdr hdr; /* tid/tgid: the parent */
	__u32 child_tid;
	__u32 child_tgid;
};

/* A traced task ended. exit_code is encoded as wait(2) status. */
/* genba_exit.group_dead: the thread group ended with this thread; the
 * group is exiting as a whole (exit_group, a fatal signal, an exec) */
#define GENBA_EXIT_GROUP_DEAD 1
#define GENBA_EXIT_GROUP_EXIT 2

struct genba_exit {
	struct genba_hdr hdr;
	__s32 exit_code;
	__u32 group_dead; /* GENBA_EXIT_* */
	char comm[16]; /* its name at its end (a task met only then has no other) */
};

#define GENBA_AUXV_WORDS 48

struct genba_exec {
	struct genba_hdr hdr;
	__u32 old_tid;
	__u32 pad;
	/* the new program's auxiliary vector (AT_PHDR, AT_BASE, ...): where the
	 * kernel mapped the program and its interpreter, which no syscall says */
	__u64 auxv[GENBA_AUXV_WORDS];
};

/* A signal is delivered to a traced task (signal_deliver). */
struct genba_signal {
	struct genba_hdr hdr;
	__s32 sig;
	__s32 stops; /* its default action stops the task, and it has no handler */
	/* the first 48 bytes of the kernel_siginfo: signo, errno, code, union */
	__u8 siginfo[48];
};

/* What to copy from user memory for one argument. */
enum genba_cap_kind {
	GENBA_CAP_NONE = 0,
	GENBA_CAP_STR = 1,    /* NUL-terminated string, at most max bytes */
	GENBA_CAP_FIXED = 2,  /* exactly max bytes */
	GENBA_CAP_ARGLEN = 3, /* args[len_arg] bytes, at most max */
	GENBA_CAP_RETLEN = 4, /* ret bytes (exit only, ret > 0), at most max */
	GENBA_CAP_PTRLEN = 5, /* *(int *)args[len_arg] bytes, at most max */
	GENBA_CAP_STRARR = 6, /* char *[]: up to GENBA_MAX_ELEMS strings of max bytes */
	GENBA_CAP_COUNT = 7,  /* char *[]: only the number of pointers before NULL */
	GENBA_CAP_IOV = 8,    /* struct iovec[args[len_arg]]: each base, max bytes in all */
	GENBA_CAP_MSGHDR = 9, /* struct msghdr, then its name and iov data */
	GENBA_CAP_IOV_RET = 10, /* like IOV at exit, data limited to ret bytes */
	GENBA_CAP_MSGHDR_RET = 11, /* like MSGHDR at exit, data limited to ret */
	GENBA_CAP_SPREL = 12, /* max bytes at the user stack pointer + 8 * len_arg */
	/* inode numbers of descriptors the call created (pipe:[N], socket:[N]):
	 * len_arg GENBA_FD_RET: the returned fd; otherwise two ints at
	 * args[len_arg] (pipe2, socketpair) */
	GENBA_CAP_FD_INO = 13,
	/* a getdents buffer (exit, ret > 0): a COUNT item, then the ret bytes
	 * in ELEM chunks (aux: offset of the chunk) as far as the record holds
	 * them. When they do not all fit, the COUNT item's aux is the number
	 * of entries, counted by walking the d_reclen chain in user memory
	 * (flag MORE: a partial entry or a fault ended the walk); when they
	 * do, user space counts them and aux is 0. */
	GENBA_CAP_DIRENTS = 14,
	/* ioctl's argument: as many bytes as the map ioc_sizes gives for the
	 * request args[len_arg] (the requests that do not encode their size,
	 * and any whose decoder wants another), else as many as the request
	 * encodes (_IOC_SIZE, when it has a direction); at most max; nothing
	 * when neither says (an integer argument). With mult set, the map is
	 * looked up with (mult << 24) | the low 24 bits of args[len_arg], a
	 * key space of another call's (ptrace's requests), and only the map
	 * gives sizes */
	GENBA_CAP_IOC = 15,
	/* (ioc_sizes values with GENBA_IOC_SPECIAL: see below) */
	/* struct mmsghdr[args[len_arg]] (sendmmsg): for each of the first
	 * GENBA_MMSG_MAX, the entry (its msghdr and msg_len), its name and its
	 * iov data (max bytes of each buffer), then the count */
	GENBA_CAP_MMSG = 16,
	/* the same at exit for the ret entries received (recvmmsg), each
	 * entry's data limited to its msg_len */
	GENBA_CAP_MMSG_RET = 17,
	/* an array of len records of stride bytes each (at the slot's memory,
	 * after deref): for each of the first GENBA_PTRS_MAX records, an ELEM
	 * item (elem: its index, aux: the pointer) holding what the pointer at
	 * byte ptr_off of the record points to: elen_off GENBA_ELEN_STR, a
	 * string of at most max bytes; GENBA_ELEN_FIXED, max bytes; else as
	 * many bytes as the u32 at byte elen_off of the record says (times
	 * mult when set: a count of elements), at most max. Then the COUNT
	 * item (MORE: records were left; FAULT: a record could not be read,
	 * aux the records read). Second-level memory: V4L2's control strings,
	 * bpf's symbols and map ids. */
	GENBA_CAP_PTRS = 18,
};

#define GENBA_PTRS_MAX 33
#define GENBA_ELEN_STR 0xff
#define GENBA_ELEN_FIXED 0xfe

/* mmsghdr entries captured at most: as many as strace shows by default
 * (-s 32), and one more to know there are more */
#define GENBA_MMSG_MAX 33

enum genba_cap_when {
	GENBA_AT_ENTER = 1,
	GENBA_AT_EXIT = 2,
	/* at exit, only when the call succeeded (ret >= 0) */
	GENBA_AT_EXIT_OK = 3,
	/* at entry (input) and again at exit (what the kernel wrote back) */
	GENBA_AT_BOTH = 4,
};

struct genba_arg_spec {
	__u8 kind;
	__u8 when;
	__u8 len_arg;
	__u8 mult; /* ARGLEN/RETLEN: bytes per counted element (0 means 1) */
	__u32 max;
	/* capture only when (args[cond_arg] & cond_mask) is cond_val or
	 * cond_val2 (cond_arg >= GENBA_NARGS: always): for calls whose
	 * argument types depend on another argument (prctl, ioctl). With
	 * cond_bitmap set, cond_val | cond_val2 << 32 is instead the set of
	 * accepted values below 64 (bit v accepts v): fcntl's lock commands */
	__u8 cond_arg;
	__u8 cond_bitmap; /* 1: a bit set; GENBA_COND_SOCK_FAMILY: see there */
	/* 0: the memory is at args[own index]; n: at args[n - 1], so that a
	 * free slot can copy a second view of another argument (prctl) */
	__u8 src_arg;
	/* n: copy from the pointer in word n - 1 of that memory instead (a
	 * pointer inside a struct); len_arg then names the struct's word that
	 * holds the length (GENBA_NARGS or more: none) */
	__u8 deref;
	__u32 cond_mask;
	__u32 cond_val;
	__u32 cond_val2;
	/* with deref: 1, the length is the u32 at byte 4 * len_arg of the
	 * struct rather than its 64-bit word len_arg */
	__u8 len_u32;
	/* GENBA_CAP_PTRS: record size, pointer and length offsets */
	__u8 stride;
	__u8 ptr_off;
	__u8 elen_off;
};

/* cond_bitmap: the value tested is the address family of the socket behind
 * descriptor args[cond_arg] (none: no capture), and the capture's elem is its
 * protocol + 1 (a netlink socket's messages are decoded by protocol). */
#define GENBA_COND_SOCK_FAMILY 2

/* Per syscall number, filled by user space before tracing starts. */
struct genba_syscall_spec {
	__u32 flags; /* GENBA_SPEC_* */
	__u32 pad;
	struct genba_arg_spec args[GENBA_NSLOTS];
};

#define GENBA_SPEC_TRACED 1 /* selected by -e trace= */
/* Send only the exit record: the call copies nothing at entry and does not
 * block, so its exit record (registers still hold the arguments) says all. */
#define GENBA_SPEC_EXIT_ONLY 2
/* The call takes no arguments: its registers need not be copied. */
#define GENBA_SPEC_NO_ARGS 4

/* floor.bpf.c's pieces (genba_bpf::FloorPieces): what each added program
 * run does, one piece of the trace programs' work per bit */
#define GENBA_PIECE_ID 1     /* bpf_get_current_pid_tgid */
#define GENBA_PIECE_CLOCK 2  /* bpf_ktime_get_ns */
#define GENBA_PIECE_QUERY 4  /* bpf_ringbuf_query */
#define GENBA_PIECE_COPY 8   /* the registers copied by bpf_probe_read_kernel (raw_tp) */
#define GENBA_PIECE_LOADS 16 /* the registers read by loads (tp_btf) */
/* Something is copied at exit: the record is built in scratch space rather
 * than reserved in the ring buffer directly. */
#define GENBA_SPEC_EXIT_CAPS 8
/* Traced for genba's bookkeeping only (not shown): copy no user stack. */
#define GENBA_SPEC_NO_STACK 16

/* One capture. data[len] follows, padded to 8. */
struct genba_cap {
	__u8 arg;   /* argument index */
	__u8 kind;  /* genba_cap_kind of the item (see GENBA_ITEM_*) */
	__u8 flags; /* GENBA_CAPF_* */
	__u8 elem;  /* element index for arrays */
	__u32 len;  /* bytes of data that follow */
	__u64 aux;  /* length asked for / element length / pointer value */
};

#define GENBA_ITEM_DATA 1   /* plain bytes */
#define GENBA_ITEM_ELEM 2   /* one element of an array; aux = element length */
#define GENBA_ITEM_COUNT 3  /* aux = number of elements */
#define GENBA_ITEM_MSGHDR 4 /* the struct msghdr itself */
#define GENBA_ITEM_NAME 5   /* msg_name bytes */
#define GENBA_ITEM_FD_INO 6 /* elem: which fd; aux: its inode number; data: the fd (4 bytes) */
#define GENBA_ITEM_REGS 7   /* user ip, sp, bp at entry (3 x u64): where the call came from */
#define GENBA_ITEM_USTACK 8 /* user stack bytes from sp up; aux = sp */
#define GENBA_ITEM_KSTACK 9 /* kernel return addresses (u64 each) */

/* Stack copies are made in chunks: a read that runs past the top of the
 * stack mapping fails whole, so the copy stops at the first failing chunk. */
#define GENBA_STACK_CHUNK 512

#define GENBA_FD_RET 0xfe

/* An ioc_sizes value with this bit is not a size but a copy of another
 * kind (bits 24-30, GENBA_IOC_KIND_MASK with it). */
#define GENBA_IOC_SPECIAL 0x80000000U
#define GENBA_IOC_KIND_MASK 0xff000000U
/* A struct that starts with a u32 count of the elements after its header:
 * the header (the low 16 bits, in bytes) and count elements of bits 16-23
 * bytes each, at most max (KVM_SET_CPUID2's struct kvm_cpuid2). */
#define GENBA_IOC_COUNTED 0x81000000U
/* KVM_RUN under -e kvm=vcpu: at exit, when it returned 0, the exit reason
 * of the descriptor's vcpu (4 bytes). */
#define GENBA_IOC_KVM_EXIT 0x82000000U
/* len_arg GENBA_LEN_CONST + n (below GENBA_FD_RET): the length is the
 * constant n rather than an argument (ptrace's regset: one iovec) */
#define GENBA_LEN_CONST 0x80

#define GENBA_CAPF_FAULT 1     /* the user memory could not be read */
#define GENBA_CAPF_TRUNC 2     /* more was there than was copied */
#define GENBA_CAPF_MORE 4      /* an array had more elements than captured */

/* Per-task slot in the tid-indexed array (tagged by tid). */
struct genba_inflight {
	__u32 tid;
	__u32 nr;
	__u64 ts;
	/* arguments whose string could not be read at entry (page not yet
	 * present): read again at exit, which nearly always succeeds */
	__u32 retry;
	__u32 inject; /* GENBA_INJ_* flags of a call genba's listener delayed */
	/* CPU-time summaries: when the task last left the CPU inside this
	 * call, and how long it has been off the CPU in all */
	__u64 off_since;
	__u64 off_total;
};

/* A signal the kernel discarded at once because the task ignores it. A
 * ptrace-based tracer sees it anyway (ptrace keeps it from being discarded)
 * when the task next returns to user space; genba reports it at the same
 * point: the task's next syscall entry or exit. Tagged by tid. */
struct genba_pending_sig {
	__u32 tid;
	__s32 sig;
	__u8 siginfo[48];
};

/* In-kernel summary per syscall number, per CPU. */
struct genba_sum {
	__u64 calls;
	__u64 errors;
	__u64 total_ns;
	__u64 min_ns;
	__u64 max_ns;
	__u64 hist[GENBA_HIST_BUCKETS];
};

/* Key of the per-process (or per-thread) summary. */
struct genba_sum_key {
	__u32 task; /* tgid or tid */
	__u32 nr;
};

/* Counters per CPU, index in genba_counter. */
enum genba_counter {
	GENBA_CNT_RB_LOST = 0,     /* ring buffer full: record dropped */
	GENBA_CNT_FAULTS = 1,      /* user memory reads that failed (non-NULL pointer) */
	GENBA_CNT_UNPAIRED = 2,    /* exit without a matching entry slot */
	GENBA_CNT_UNUSED3 = 3,     /* (records are counted by the consumer) */
	GENBA_CNT_SCRATCH_FULL = 4,/* captures cut because the record was full */
	GENBA_CNT_CAPTURES = 5,    /* reads of user memory attempted (non-NULL) */
	GENBA_CNT_SUM_FULL = 6,    /* per-task summary entries that did not fit */
	/* profile: off-CPU intervals lost because another thread took the
	 * thread's slot (more live threads than slots, tids equal modulo) */
	GENBA_CNT_PROF_COLLIDE = 7,
	/* profile: intervals whose switch-in had no switch-out (attached mid-way) */
	GENBA_CNT_PROF_UNOPENED = 8,
	/* a recording: a context switch found the CPU's interrupt nesting
	 * open (an interrupt's exit not seen) and closed it (irq.bpf.inc) */
	GENBA_CNT_IRQ_UNWOUND = 9,
	GENBA_CNT_MAX = 12,
};

/* Values in the per-tid filter array. */
#define GENBA_TASK_TRACED 1
#define GENBA_TASK_WAIT_EXEC 2 /* ignore syscalls until execve/execveat */

/*
 * Profiling (genba profile). Every sample is one of these: an on-CPU sample
 * from the task-clock/cpu-clock perf event (weight 1, class user/kernel), or
 * a blocked sample emitted when a thread runs again after being off the CPU,
 * weighted by the sampling periods its interval covered (see
 * genba-analyze/src/profile.rs: Phase, which this arithmetic mirrors).
 */
#define GENBA_PROF_KFRAMES 48
#define GENBA_PROF_USTACK 8192

enum genba_prof_class {
	GENBA_CLS_USER = 0,   /* [.] on the CPU in user mode */
	GENBA_CLS_KERNEL = 1, /* [k] on the CPU in the kernel */
	GENBA_CLS_IO = 2,     /* [I] blocked with in_iowait */
	GENBA_CLS_LOCK = 3,   /* [L] futex wait or kernel lock contention */
	GENBA_CLS_SCHED = 4,  /* [S] runnable, waiting for a CPU */
	GENBA_CLS_BLOCK = 5,  /* [B] any other block */
};

#define GENBA_PROFF_NEW 8      /* a new thread's wait for its first run */
#define GENBA_PROFF_OFFCPU 16  /* a blocked sample (else on-CPU) */
/* the CPU time a thread had not yet been sampled for when it ended: no
 * stack (user space gives it the thread's last sampled place) */
#define GENBA_PROFF_FLUSH 32
/* a blocked sample's waker, when not a thread (then waker_tid is 0): the
 * genba_waker_kind of the interrupt that woke it, in these two bits */
#define GENBA_PROFF_WAKER_SHIFT 6
#define GENBA_PROFF_WAKER_MASK (3 << GENBA_PROFF_WAKER_SHIFT)

/* What woke a thread: a task, or an interrupt (whatever task it landed on
 * did not wake anyone). */
enum genba_waker_kind {
	GENBA_WAKER_THREAD = 0,  /* the task running (0: an idle CPU, unknown) */
	GENBA_WAKER_HARDIRQ = 1, /* a device's handler, an IPI, irq_work */
	GENBA_WAKER_SOFTIRQ = 2, /* a softirq (network, block completions, RCU) */
	GENBA_WAKER_TIMER = 3,   /* a timer's callback (hrtimer, timer wheel) */
};

struct genba_prof {
	struct genba_hdr hdr;
	__u32 cls;      /* genba_prof_class: of the blocked part for a blocked sample */
	__u32 flags;    /* GENBA_PROFF_* */
	__u32 w_block;  /* periods of the blocked part; on-CPU: of the CPU time since the last sample */
	__u32 w_runq;   /* periods waiting on a run queue after the wakeup ([S]) */
	__s32 sysnr;    /* the system call it was in (-1: none) */
	__u32 kstack_len; /* bytes of kstack */
	__u64 ip, sp, bp; /* user registers */
	__u32 ustack_len; /* bytes of ustack */
	/* a blocked sample's exact interval (prof_exact): who woke the thread
	 * (the task running when it was woken: 0 on an idle CPU or unknown) */
	__u32 waker_tid;
	__u64 out_ts;   /* switched out */
	__u64 wake_ts;  /* runnable again, on a run queue (== out_ts for a preemption) */
	/* woken, in the waker's context (sched_waking, a recording): the
	 * waker's time, before the wakeup reaches a run queue (an IPI to an
	 * idle CPU can take tens of microseconds); == wake_ts otherwise */
	__u64 waking_ts;
	char comm[16];  /* the thread's name when it was sampled / switched out */
	__u64 kstack[GENBA_PROF_KFRAMES];
	__u8 ustack[GENBA_PROF_USTACK];
};

/* Per-thread profiling state, tagged by tid. rec is filled at switch-out
 * (a thread's stack does not change while it is off the CPU) and sent as is
 * at switch-in when the interval carries weight. */
struct genba_prof_slot {
	__u32 tid;
	__u32 open;     /* switched out, not yet back */
	__u64 out_ts;
	__u64 wake_ts;  /* 0: not on a run queue yet */
	__u64 waking_ts; /* 0: no sched_waking yet (a recording) */
	__u32 waker;    /* the task running when it was woken (0: idle CPU) */
	__u32 early_waker; /* a waking seen before the switch-out completed */
	__u32 waker_kind; /* genba_waker_kind of waker (an interrupt: waker is 0) */
	__u32 early_waker_kind; /* of early_waker */
	__u64 acc;      /* the phase: off-CPU ns not yet turned into samples */
	__u64 lock_addr;
	__u32 lock_flags;
	__u32 ended;    /* the thread exited: its time is sent, nothing more is counted */
	/* on the CPU: when it last came on (0: off or unknown), the time up to
	 * which its CPU time is counted, and the CPU ns not yet sent */
	__u64 in_ts;
	__u64 on_last;
	__u64 on_acc;
	struct genba_prof rec;
};

#endif
