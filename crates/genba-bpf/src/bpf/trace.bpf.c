// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace.bpf.c: system-call tracing on the sys_enter/sys_exit raw tracepoints.
 *
 * What each call copies from user memory is not written here: user space fills
 * `specs` (one entry per syscall number, derived from genba-syscalls' decoder
 * table) and this program interprets it. So adding a decoder never touches BPF.
 *
 * Per-thread state lives in arrays indexed by tid (a tagged slot), because a
 * hash update+delete per syscall costs more than the whole rest of the path.
 * Records are assembled in a per-CPU scratch area and copied to the ring buffer
 * with bpf_ringbuf_output; the consumer is woken only when the buffer fills up
 * past a threshold, and otherwise polls, so a syscall never pays for a wakeup.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "genba.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Only the fields we read; CO-RE relocates them against the running kernel. */
struct inode {
	unsigned short i_mode;
	unsigned long i_ino;
} __attribute__((preserve_access_index));

struct qstr {
	const unsigned char *name;
} __attribute__((preserve_access_index));

struct dentry {
	struct qstr d_name;
} __attribute__((preserve_access_index));

struct path {
	struct dentry *dentry;
} __attribute__((preserve_access_index));

struct file {
	struct inode *f_inode;
	struct path f_path;
	void *private_data;
} __attribute__((preserve_access_index));

/* -e kvm=vcpu: a vcpu descriptor's file holds its struct kvm_vcpu, whose
 * run is the struct kvm_run the program maps. Flavors (___genba): a kernel
 * without KVM has no such types, its relocations are left unresolved, and
 * the code reading them is dead (see cap_kvm_exit) */
struct kvm_run___genba {
	__u32 exit_reason;
} __attribute__((preserve_access_index));

struct kvm_vcpu___genba {
	struct kvm_run___genba *run;
} __attribute__((preserve_access_index));

struct sock_common {
	unsigned short skc_family;
} __attribute__((preserve_access_index));

/* sk_protocol: a u16 since Linux 5.6 (a bit field before) */
struct sock {
	struct sock_common __sk_common;
	__u16 sk_protocol;
} __attribute__((preserve_access_index));

struct socket {
	struct sock *sk;
} __attribute__((preserve_access_index));

struct fdtable {
	unsigned int max_fds;
	struct file **fd;
} __attribute__((preserve_access_index));

struct files_struct {
	struct fdtable *fdt;
} __attribute__((preserve_access_index));

struct mm_struct {
	unsigned long saved_auxv[2];
} __attribute__((preserve_access_index));

typedef struct {
	int counter;
} atomic_t;

struct signal_struct {
	atomic_t live; /* threads not yet exiting */
	unsigned int flags;
	int group_exit_code;
} __attribute__((preserve_access_index));

/* The kernel's signal handlers of a process (causal: is the program's
 * handler for genba's signal still the runtime's?). Only the first field
 * of each is read; an element's size is the running kernel's
 * (bpf_core_type_size). */
struct sigaction___k {
	void *sa_handler;
} __attribute__((preserve_access_index));

struct k_sigaction {
	struct sigaction___k sa;
} __attribute__((preserve_access_index));

struct sighand_struct {
	struct k_sigaction action[64];
} __attribute__((preserve_access_index));

typedef struct {
	unsigned long sig[1];
} sigset_t;

struct sigpending {
	sigset_t signal;
} __attribute__((preserve_access_index));

struct task_struct {
	struct sighand_struct *sighand;
	struct sigpending pending;
	int pid;
	int tgid;
	int exit_code;
	struct files_struct *files;
	struct mm_struct *mm;
	struct signal_struct *signal;
	unsigned int in_iowait:1;
	unsigned int flags;
	char comm[16];
} __attribute__((preserve_access_index));

/* The kernel's struct pt_regs (x86_64), as sys_enter and sys_exit (tp_btf)
 * receive it: a pointer the verifier trusts, so its fields are read by plain
 * loads rather than a bpf_probe_read_kernel call. */
struct pt_regs {
	unsigned long di, si, dx, r10, r8, r9, orig_ax, ip, sp, bp;
} __attribute__((preserve_access_index));

/* x86_64 struct pt_regs up to orig_ax: a fixed ABI, read in one copy. */
struct regs_head {
	__u64 r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, orig_ax;
	__u64 ip, cs, flags, sp;
};

#define NR_EXECVE 59
/* inflight.nr of a task just created by fork/clone, before it first runs */
#define FORK_CHILD 0xffffffffU
#define NR_EXECVEAT 322
/* rt_sigreturn: the only call that leaves orig_ax at -1 by its exit */
#define NR_RT_SIGRETURN 15

const volatile __u32 follow_forks = 0;
const volatile __u32 emit_records = 1;
const volatile __u32 keep_summary = 0;
/* summaries count time on the CPU inside calls (strace -c), not wall time (-w) */
const volatile __u32 summary_cpu = 0;
/* also keep summaries per process (1) or per thread (2) */
const volatile __u32 summary_by = 0;
/* --source / -k: bytes of user stack to copy at entry (0: none), and -kk */
const volatile __u32 ustack_bytes = 0;
const volatile __u32 kstack = 0;
const volatile __u32 inflight_mask = 0xffff;
const volatile __u64 wakeup_bytes = 1 << 20;
/* every task on the system (-a), but genba's own process */
const volatile __u32 trace_all = 0;
const volatile __u32 self_tgid = 0;
/* -e inject=: a seccomp listener in genba acts on some calls */
const volatile __u32 inject_on = 0;
/* read the clock at each call's entry and exit; 0 when nothing shows the
 * times (a text trace without -t, -r, -T, -c): two clock reads are most of
 * a call's cost on hosts that mitigate return misprediction */
const volatile __u32 timed = 1;

/* The time of a call's entry or exit: the clock when times are kept, else
 * 1 (nonzero, as the in-flight slot's "entry seen" mark). */
static __always_inline __u64 call_time(void)
{
	return timed ? bpf_ktime_get_ns() : 1;
}

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1 << 22); /* resized to pid_max at load */
	__type(key, __u32);
	__type(value, __u32);
} tasks SEC(".maps");

/* With trace_all, every task's state: traced (never written: a task's
 * exit and a pending exec change only the tasks map's entries). */
__u32 all_traced = GENBA_TASK_TRACED;

/* The tracing state of the current task, `id` being what
 * bpf_get_current_pid_tgid returned (0: not traced). Each program asks for
 * the id once and passes it on: on hosts whose kernels mitigate return
 * misprediction (SRSO, retbleed), every helper call costs tens of ns. */
static __always_inline __u32 *task_state(__u64 id)
{
	__u32 tid = (__u32)id;

	if (trace_all) {
		if ((__u32)(id >> 32) == self_tgid)
			return 0;
		return &all_traced;
	}
	return bpf_map_lookup_elem(&tasks, &tid);
}

/* The tracing state of task `tid`, not the current one (a signal's target). */
static __always_inline __u32 *task_state_of(__u32 tid)
{
	if (trace_all)
		return &all_traced;
	return bpf_map_lookup_elem(&tasks, &tid);
}

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1 << 16); /* resized to inflight_mask + 1 */
	__type(key, __u32);
	__type(value, struct genba_inflight);
} inflight SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, GENBA_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, struct genba_syscall_spec);
} specs SEC(".maps");

/* GENBA_CAP_IOC: the bytes to copy for an ioctl request, where the
 * decoders say (filled by user space before tracing starts): the low 16 bits;
 * the high 16 bits, when larger, as many as to copy if all are readable (a
 * struct followed by data of its own, e.g. HDIO_DRIVE_CMD's sectors) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u32);
} ioc_sizes SEC(".maps");

/* -e inject=: the calls genba's listener acted on, by tid (genba.h) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct genba_injected);
} injected SEC(".maps");

/* The flags the listener left for `tid`'s call `nr`, taken out of the map
 * (0: it did not act on it). */
static __always_inline __u32 take_injected(__u32 tid, __u32 nr, __u64 *ts)
{
	struct genba_injected *j = bpf_map_lookup_elem(&injected, &tid);
	__u32 flags = 0;

	if (!j)
		return 0;
	if (j->nr == nr) {
		flags = j->flags;
		if (ts)
			*ts = j->ts;
	}
	bpf_map_delete_elem(&injected, &tid);
	if (flags >> 8)
		bpf_send_signal_thread((flags >> 8) & 0xff);
	return flags & 0xff;
}

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1 << 16); /* resized to inflight_mask + 1 */
	__type(key, __u32);
	__type(value, struct genba_pending_sig);
} pending_sigs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, GENBA_MAX_SYSCALLS);
	__type(key, __u32);
	__type(value, struct genba_sum);
} sums SEC(".maps");

/* A zeroed genba_sum to insert from: too big for the BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct genba_sum);
} zero_sum SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 1); /* resized when summaries per task are asked for */
	__type(key, struct genba_sum_key);
	__type(value, struct genba_sum);
} task_sums SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, GENBA_CNT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

struct scratch {
	__u8 buf[GENBA_SCRATCH_SIZE];
	/* bytes this CPU put in the ring since it last asked how full the
	 * ring is, and whether the ring was then past half full */
	__u32 unasked;
	__u32 filling;
};

/* A plain array with one slot per CPU: per-CPU values are limited to 32 KiB. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* resized to the number of possible CPUs */
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 23); /* resized from --buffer-size */
} events SEC(".maps");

/* Hide v's known range from clang, then mask it, so the verifier sees the
 * bound on the very register passed to a helper (clang otherwise checks a copy). */
#define BOUND(v, mask) ({ asm volatile("" : "+r"(v)); (v) &= (mask); })

static __always_inline void count(__u32 idx, __u64 n)
{
	__u64 *v = bpf_map_lookup_elem(&counters, &idx);
	if (v)
		*v += n;
}

/* The header of a record of the current task, `id` its pid_tgid. */
static __always_inline void fill_hdr_id(struct genba_hdr *h, __u32 type, __u32 len, __u64 ts, __u64 id)
{
	h->type = type;
	h->len = len;
	h->ts = ts;
	h->tid = (__u32)id;
	h->tgid = id >> 32;
	h->cpu = bpf_get_smp_processor_id();
	h->pad = 0;
}

static __always_inline void fill_hdr(struct genba_hdr *h, __u32 type, __u32 len, __u64 ts)
{
	fill_hdr_id(h, type, len, ts, bpf_get_current_pid_tgid());
}

static __always_inline struct scratch *get_scratch(void)
{
	__u32 cpu = bpf_get_smp_processor_id();
	return bpf_map_lookup_elem(&scratch, &cpu);
}

/* Wake the consumer only once the unread data passes the threshold: a
 * wakeup (an IPI, an MSR write in a VM) for every record would cost more
 * than the records themselves. Asking the ring how full it is costs a helper
 * call, so each CPU asks once per 1/16 of the threshold it has added, and
 * for every record while the ring is past half full. */
static __always_inline __u64 wakeup_flags(__u32 len)
{
	struct scratch *s = get_scratch();
	__u32 filling = 0;
	__u64 avail;

	if (s) {
		filling = s->filling;
		if (!filling) {
			s->unasked += len + 8;
			if (s->unasked < (wakeup_bytes >> 4))
				return BPF_RB_NO_WAKEUP;
			s->unasked = 0;
		}
	}
	avail = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);
	if (s)
		s->filling = avail >= 2 * wakeup_bytes;
	/* nearly full: wake for every record. The wakeup's cost slows the
	 * producer, which is the only back-pressure a ring buffer offers short
	 * of losing records. */
	if (avail >= 3 * wakeup_bytes)
		return BPF_RB_FORCE_WAKEUP;
	/* past the threshold: wake once per CPU and 1/16 of it, not for each
	 * record while past half full (the consumer was woken then) */
	return !filling && avail + len + 8 >= wakeup_bytes ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

static __always_inline void submit(void *rec, __u32 len)
{
	len &= GENBA_SCRATCH_SIZE - 1;
	if (len < sizeof(struct genba_hdr))
		return;
	/* decided before the record is in: count its length (+ 8-byte header) */
	if (bpf_ringbuf_output(&events, rec, len, wakeup_flags(len)))
		count(GENBA_CNT_RB_LOST, 1);
}

/* Ignored signals waiting in pending_sigs: lets every syscall skip the
 * lookup in the common case where there are none. */
__u32 sigs_pending = 0;

/* Reports an ignored signal noted by signal_generate (see genba.h). */
static __always_inline void flush_pending_sig(__u32 tid)
{
	__u32 slot = tid & inflight_mask;
	struct genba_pending_sig *p;
	struct genba_signal r = {};

	if (!sigs_pending)
		return;
	p = bpf_map_lookup_elem(&pending_sigs, &slot);
	if (!p || p->tid != tid || !p->sig)
		return;
	r.sig = p->sig;
	__builtin_memcpy(r.siginfo, p->siginfo, sizeof(r.siginfo));
	p->sig = 0;
	__sync_fetch_and_add(&sigs_pending, -1);
	fill_hdr(&r.hdr, GENBA_REC_SIGNAL, sizeof(r), bpf_ktime_get_ns());
	submit(&r, sizeof(r));
}

/*
 * Capture helpers: each writes one genba_cap + data at c->off in this CPU's
 * scratch and advances c->off. They are global functions so the verifier
 * checks each once, not once per call site (static ones blow past its limit).
 * A global function cannot receive the scratch pointer (it would arrive as a
 * plain number), so each looks the scratch up again: a per-CPU array lookup.
 */
struct cap_ctx {
	__u32 off;
	__u32 ncaps;
	/* what the next capture is: argument, item kind, element index */
	__u8 arg;
	__u8 kind;
	__u8 elem;
	__u8 tag; /* or'ed into a capture's elem: a netlink socket's protocol + 1 */
	__u32 faulted; /* bit per argument whose string read failed */
	__u32 retry;   /* at exit: arguments to read again */
	/* the argument being captured, copied from its spec */
	__u64 ptr, len, ret, sp;
	__u32 max;
	__u8 cap_kind, mult;
	__u8 exiting; /* set at exit (ret is then the call's) */
	__u8 pad2;
	/* GENBA_CAP_PTRS: the records' layout */
	__u8 stride, ptr_off, elen_off, pad3;
};

static __always_inline int room(struct cap_ctx *c)
{
	if (c->off > GENBA_OFF_MASK - sizeof(struct genba_cap)) {
		count(GENBA_CNT_SCRATCH_FULL, 1);
		return 0;
	}
	return 1;
}

static __always_inline void cap_finish(struct cap_ctx *c, __u8 *buf, __u32 o, __u8 flags,
				       __u32 len, __u64 aux)
{
	struct genba_cap *cap = (void *)(buf + o);
	cap->arg = c->arg;
	cap->kind = c->kind;
	cap->flags = flags;
	cap->elem = c->elem | c->tag;
	cap->len = len;
	cap->aux = aux;
	c->off = o + sizeof(struct genba_cap) + ((len + 7) & ~7U);
	c->ncaps++;
}

/* Copy len bytes of user memory at ptr (at most max). */
__noinline int cap_bytes(struct cap_ctx *c, __u64 ptr, __u64 len, __u64 max, __u64 aux)
{
	struct scratch *s;
	__u8 flags = 0;
	__u32 o, n;

	if (!c || !room(c))
		return 0;
	s = get_scratch();
	if (!s)
		return 0;
	o = c->off & GENBA_OFF_MASK;
	if (len > max) {
		len = max;
		flags |= GENBA_CAPF_TRUNC;
	}
	if (len > GENBA_CAP_MAX) {
		len = GENBA_CAP_MAX;
		flags |= GENBA_CAPF_TRUNC;
	}
	n = len;
	BOUND(n, 2 * GENBA_CAP_MAX - 1);
	if (!ptr) {
		n = 0;
		flags |= GENBA_CAPF_FAULT;
	} else if (n) {
		count(GENBA_CNT_CAPTURES, 1);
		if (bpf_probe_read_user(s->buf + o + sizeof(struct genba_cap), n, (void *)ptr)) {
			/* what lies before the first page boundary, when that is
			 * readable: an array running into unmapped memory shows
			 * its elements up to there, as strace reads them one by
			 * one (still flagged FAULT: the whole was not read) */
			__u32 head = 4096 - (ptr & 4095);

			if (head < n) {
				BOUND(head, 2 * GENBA_CAP_MAX - 1);
				if (bpf_probe_read_user(s->buf + o + sizeof(struct genba_cap), head,
							(void *)ptr))
					head = 0;
			} else {
				head = 0;
			}
			n = head;
			flags |= GENBA_CAPF_FAULT;
			count(GENBA_CNT_FAULTS, 1);
			if (c->arg < GENBA_NSLOTS)
				c->faulted |= 1U << c->arg;
		}
	}
	cap_finish(c, s->buf, o, flags, n, aux);
	return 1;
}

/* Copy a NUL-terminated string of at most max bytes (the NUL not kept). */
__noinline int cap_str(struct cap_ctx *c, __u64 ptr, __u64 max)
{
	struct scratch *s;
	__u8 flags = 0;
	__u32 o, m;
	long r;

	if (!c || !room(c))
		return 0;
	s = get_scratch();
	if (!s)
		return 0;
	o = c->off & GENBA_OFF_MASK;
	/* read_user_str keeps room for the NUL: ask for max + 2 bytes so that a
	 * string longer than max shows as max + 1 characters */
	if (max > GENBA_CAP_MAX - 2)
		max = GENBA_CAP_MAX - 2;
	m = max + 2;
	BOUND(m, 2 * GENBA_CAP_MAX - 1);
	r = -1;
	if (ptr) {
		count(GENBA_CNT_CAPTURES, 1);
		r = bpf_probe_read_user_str(s->buf + o + sizeof(struct genba_cap), m, (void *)ptr);
		if (r <= 0)
			count(GENBA_CNT_FAULTS, 1);
	}
	if (r <= 0) {
		if (ptr && c->arg < GENBA_NSLOTS)
			c->faulted |= 1U << c->arg;
		cap_finish(c, s->buf, o, GENBA_CAPF_FAULT, 0, ptr);
		return 1;
	}
	r -= 1; /* drop the NUL */
	if (r > max) {
		r = max;
		flags |= GENBA_CAPF_TRUNC;
	}
	cap_finish(c, s->buf, o, flags, (__u32)r & (2 * GENBA_CAP_MAX - 1), ptr);
	return 1;
}

/* The count item closing an array capture. */
static __always_inline int cap_count(struct cap_ctx *c, __u8 flags, __u64 n)
{
	struct scratch *s;

	if (!room(c))
		return 0;
	s = get_scratch();
	if (!s)
		return 0;
	c->kind = GENBA_ITEM_COUNT;
	c->elem = 0;
	cap_finish(c, s->buf, c->off & GENBA_OFF_MASK, flags, 0, n);
	return 1;
}

/* Loops over user arrays run through bpf_loop: the verifier checks the step
 * once instead of walking every iteration (thousands, for an environment). */
struct strarr_loop {
	struct cap_ctx *c;
	__u64 ptr;
	__u64 max;
	__u32 n;
	__u32 strings;
	__u32 end; /* 1: NULL found, 2: fault, 3: record full */
};

static long strarr_step(__u64 i, void *data)
{
	struct strarr_loop *l = data;
	__u64 p;

	if (bpf_probe_read_user(&p, sizeof(p), (void *)(l->ptr + i * 8))) {
		l->end = 2;
		return 1;
	}
	if (!p) {
		l->end = 1;
		return 1;
	}
	if (l->strings) {
		l->c->kind = GENBA_ITEM_ELEM;
		l->c->elem = i;
		if (!cap_str(l->c, p, l->max)) {
			l->end = 3;
			return 1;
		}
	}
	l->n++;
	return 0;
}

/* char *argv[]: the strings (strings != 0), then how many there were. */
__noinline int cap_strarr(struct cap_ctx *c, __u64 ptr, __u64 max, int strings)
{
	struct strarr_loop l = { .c = c, .ptr = ptr, .max = max, .strings = strings };

	if (!c)
		return 0;
	if (!ptr)
		return cap_count(c, GENBA_CAPF_FAULT, 0);
	bpf_loop(strings ? GENBA_MAX_ELEMS : GENBA_MAX_COUNT, strarr_step, &l, 0);
	switch (l.end) {
	case 1:
		return cap_count(c, 0, l.n);
	case 2:
		return cap_count(c, GENBA_CAPF_FAULT, l.n);
	case 3:
		return 0;
	}
	return cap_count(c, GENBA_CAPF_MORE, l.n);
}

struct iovec_user {
	__u64 base;
	__u64 len;
};

struct iov_loop {
	struct cap_ctx *c;
	__u64 ptr;
	__u64 cnt;
	__u64 max;
	__u64 total;
	__u32 end; /* 1: all done, 2: fault, 3: record full */
	__u32 i;
};

static long iov_step(__u64 i, void *data)
{
	struct iov_loop *l = data;
	struct iovec_user iov;
	__u64 take;

	l->i = i;
	if (i >= l->cnt) {
		l->end = 1;
		return 1;
	}
	if (bpf_probe_read_user(&iov, sizeof(iov), (void *)(l->ptr + i * sizeof(iov)))) {
		l->end = 2;
		return 1;
	}
	take = iov.len;
	if (take > l->total)
		take = l->total;
	l->total -= take;
	l->c->kind = GENBA_ITEM_ELEM;
	l->c->elem = i;
	if (!cap_bytes(l->c, iov.base, take, l->max, iov.len)) {
		l->end = 3;
		return 1;
	}
	return 0;
}

/* struct iovec[cnt]: each element's data, at most max bytes of each and at
 * most total bytes in all (the syscall's return for reads), then the count. */
__noinline int cap_iov(struct cap_ctx *c, __u64 ptr, __u64 cnt, __u64 max, __u64 total)
{
	struct iov_loop l = { .c = c, .ptr = ptr, .cnt = cnt, .max = max, .total = total };

	if (!c)
		return 0;
	bpf_loop(GENBA_MAX_ELEMS + 1, iov_step, &l, 0);
	switch (l.end) {
	case 1:
		return cap_count(c, 0, cnt);
	case 2:
		return cap_count(c, GENBA_CAPF_FAULT, l.i);
	case 3:
		return 0;
	}
	return cap_count(c, GENBA_CAPF_MORE, cnt);
}

struct ptrs_loop {
	struct cap_ctx *c;
	__u64 ptr;
	__u64 cnt;
	__u32 end; /* 1: all done, 2: fault, 3: record full */
	__u32 i;
};

static long ptrs_step(__u64 i, void *data)
{
	struct ptrs_loop *l = data;
	struct cap_ctx *c = l->c;
	__u64 rec = l->ptr + i * c->stride, p = 0;
	__u32 n = c->max;
	int ok;

	l->i = i;
	if (i >= l->cnt) {
		l->end = 1;
		return 1;
	}
	c->kind = GENBA_ITEM_ELEM;
	c->elem = i;
	/* a record that cannot be read ends the array */
	if (bpf_probe_read_user(&p, sizeof(p), (void *)(rec + c->ptr_off))) {
		l->end = 2;
		return 1;
	}
	if (c->elen_off == GENBA_ELEN_STR) {
		ok = p ? cap_str(c, p, c->max) : cap_bytes(c, 0, 0, 0, 0);
	} else {
		if (c->elen_off != GENBA_ELEN_FIXED) {
			if (bpf_probe_read_user(&n, sizeof(n), (void *)(rec + c->elen_off)))
				n = 0;
			/* a count of elements of mult bytes */
			else if (c->mult)
				n = n > GENBA_CAP_MAX ? GENBA_CAP_MAX : n * c->mult;
		}
		ok = cap_bytes(c, p, n, c->max, p);
	}
	if (!ok) {
		l->end = 3;
		return 1;
	}
	return 0;
}

/* GENBA_CAP_PTRS: what the pointers in an array of records point to. */
__noinline int cap_ptrs(struct cap_ctx *c, __u64 ptr, __u64 cnt)
{
	struct ptrs_loop l = { .c = c, .ptr = ptr, .cnt = cnt };

	if (!c)
		return 0;
	if (!ptr)
		return cap_count(c, GENBA_CAPF_FAULT, 0);
	bpf_loop(GENBA_PTRS_MAX, ptrs_step, &l, 0);
	switch (l.end) {
	case 1:
		return cap_count(c, 0, cnt);
	case 2:
		return cap_count(c, GENBA_CAPF_FAULT, l.i);
	case 3:
		return 0;
	}
	return cap_count(c, GENBA_CAPF_MORE, cnt);
}

struct msghdr_user {
	__u64 name;
	__u32 namelen;
	__u32 pad;
	__u64 iov;
	__u64 iovlen;
	__u64 control;
	__u64 controllen;
	__s32 flags;
	__u32 pad2;
};

__noinline int cap_msghdr(struct cap_ctx *c, __u64 ptr, __u64 max, __u64 total)
{
	struct msghdr_user m;

	if (!c)
		return 0;
	c->kind = GENBA_ITEM_MSGHDR;
	c->elem = 0;
	if (!ptr || bpf_probe_read_user(&m, sizeof(m), (void *)ptr))
		return cap_bytes(c, 0, 0, 0, ptr);
	if (!cap_bytes(c, ptr, sizeof(m), sizeof(m), ptr))
		return 0;
	c->kind = GENBA_ITEM_NAME;
	if (m.name && m.namelen)
		if (!cap_bytes(c, m.name, m.namelen, 128, m.namelen))
			return 0;
	return cap_iov(c, m.iov, m.iovlen, max, total);
}

struct mmsghdr_user {
	struct msghdr_user hdr;
	__u32 len;
	__u32 pad;
};

/* Entry i of a struct mmsghdr vector: the entry (tagged i), its name, its
 * iov data (at most the entry's msg_len when `received`). */
__noinline int cap_mmsg_one(struct cap_ctx *c, __u64 ptr, __u32 i, __u64 max, __u32 received)
{
	struct mmsghdr_user m;

	if (!c)
		return 0;
	c->kind = GENBA_ITEM_MSGHDR;
	c->elem = i;
	if (bpf_probe_read_user(&m, sizeof(m), (void *)ptr))
		return 0;
	if (!cap_bytes(c, ptr, sizeof(m), sizeof(m), ptr))
		return 0;
	c->kind = GENBA_ITEM_NAME;
	c->elem = i;
	if (m.hdr.name && m.hdr.namelen)
		if (!cap_bytes(c, m.hdr.name, m.hdr.namelen, 128, m.hdr.namelen))
			return 0;
	return cap_iov(c, m.hdr.iov, m.hdr.iovlen, max, received ? m.len : ~0ULL);
}

/* The first GENBA_MMSG_MAX entries of a struct mmsghdr vector of cnt, then
 * the count (tagged GENBA_MMSG_MAX): FAULT when entry i could not be read. */
__noinline int cap_mmsg(struct cap_ctx *c, __u64 ptr, __u64 cnt, __u64 max, __u32 received)
{
	__u32 i;

	if (!c)
		return 0;
	for (i = 0; i < GENBA_MMSG_MAX; i++) {
		if (i >= cnt)
			break;
		if (!cap_mmsg_one(c, ptr + i * sizeof(struct mmsghdr_user), i, max, received))
			break;
	}
	if (!room(c))
		return 0;
	{
		struct scratch *s = get_scratch();
		__u8 flags = i < cnt ? (i < GENBA_MMSG_MAX ? GENBA_CAPF_FAULT : GENBA_CAPF_MORE) : 0;

		if (!s)
			return 0;
		c->kind = GENBA_ITEM_COUNT;
		c->elem = GENBA_MMSG_MAX;
		cap_finish(c, s->buf, c->off & GENBA_OFF_MASK, flags, 0, cnt);
	}
	return 1;
}

/* The inode number behind descriptor fd of the current task (0 if none). */
/* The current task's file behind descriptor `fd`, or NULL. */
static __always_inline struct file *fd_file(__s64 fd)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	struct fdtable *fdt = BPF_CORE_READ(t, files, fdt);
	struct file **fds, *f = NULL;

	if (fd < 0 || !fdt || (__u64)fd >= BPF_CORE_READ(fdt, max_fds))
		return NULL;
	fds = BPF_CORE_READ(fdt, fd);
	if (bpf_probe_read_kernel(&f, sizeof(f), fds + fd))
		return NULL;
	return f;
}

static __always_inline __u64 fd_inode(int fd)
{
	struct file *f = fd_file(fd);

	return f ? BPF_CORE_READ(f, f_inode, i_ino) : 0;
}

#define GENBA_S_IFMT 0170000
#define GENBA_S_IFSOCK 0140000

/* The socket behind descriptor `fd` of the current process: its family,
 * and its protocol << 16; ~0 when it is no socket. */
static __always_inline __u32 fd_sock_family(__u64 fd)
{
	struct file *f = fd_file((__s64)fd);
	struct socket *sock;
	struct sock *sk;

	if (!f)
		return ~0U;
	if ((BPF_CORE_READ(f, f_inode, i_mode) & GENBA_S_IFMT) != GENBA_S_IFSOCK)
		return ~0U;
	sock = (struct socket *)BPF_CORE_READ(f, private_data);
	sk = BPF_CORE_READ(sock, sk);
	if (!sk)
		return ~0U;
	return BPF_CORE_READ(sk, __sk_common.skc_family) |
	       ((__u32)BPF_CORE_READ(sk, sk_protocol) << 16);
}

__noinline int cap_fd_ino(struct cap_ctx *c, __u64 fd, __u8 elem)
{
	struct scratch *s;
	__u32 o;

	if (!c || !room(c))
		return 0;
	s = get_scratch();
	if (!s)
		return 0;
	o = c->off & GENBA_OFF_MASK;
	c->kind = GENBA_ITEM_FD_INO;
	c->elem = elem;
	*(__u32 *)(s->buf + o + sizeof(struct genba_cap)) = (__u32)fd;
	cap_finish(c, s->buf, o, 0, 4, fd_inode((int)fd));
	return 1;
}

/* getdents: see GENBA_CAP_DIRENTS. */
struct dirents_loop {
	struct cap_ctx *c;
	__u64 ptr;
	__u64 len;  /* bytes the call returned */
	__u64 off;  /* copy: bytes copied; walk: the next entry */
	__u64 n;    /* walk: entries counted */
	__u32 end;  /* walk: 1 done, 2 stopped short (fault, bad d_reclen) */
};

/* Chunks of at most GENBA_CAP_MAX a record holds (about 48 KiB in all). */
#define DIRENTS_CHUNKS 4

/* Header of struct linux_dirent64 up to d_name; d_reclen is at 16. */
#define DIRENT64_HEAD 19

/* One chunk of the copy. Called from a plain loop of DIRENTS_CHUNKS, not
 * from bpf_loop: the verifier re-walks a bpf_loop callback until its state
 * converges, which with cap_bytes inside took ~130 ms for each of the two
 * syscall programs at every start. */
static __always_inline long dirents_copy_step(__u64 i, struct dirents_loop *l)
{
	struct cap_ctx *c = l->c;
	__u64 left = l->len - l->off, take = left, lim;

	if (!left)
		return 1;
	/* the chunk must start where room() allows; stop quietly when it
	 * cannot (the entries are counted instead) */
	if (c->off > GENBA_OFF_MASK - sizeof(struct genba_cap))
		return 1;
	if (take > GENBA_CAP_MAX)
		take = GENBA_CAP_MAX;
	/* when more will follow, end this chunk where the next can still start */
	lim = (GENBA_OFF_MASK - 2 * sizeof(struct genba_cap) - c->off) & ~7ULL;
	if (take < left && take > lim && lim >= 4096)
		take = lim;
	c->kind = GENBA_ITEM_ELEM;
	c->elem = i;
	if (!cap_bytes(c, l->ptr + l->off, take, take, l->off))
		return 1;
	if (c->faulted & (1U << (c->arg & 31)))
		return 1;
	l->off += take;
	return 0;
}

static long dirents_walk_step(__u64 i, void *data)
{
	struct dirents_loop *l = data;
	__u16 reclen;

	if (l->off + DIRENT64_HEAD > l->len) {
		l->end = l->off == l->len ? 1 : 2;
		return 1;
	}
	if (bpf_probe_read_user(&reclen, sizeof(reclen), (void *)(l->ptr + l->off + 16)) ||
	    reclen < DIRENT64_HEAD) {
		l->end = 2;
		return 1;
	}
	l->n++;
	l->off += reclen;
	return 0;
}

__noinline int cap_dirents(struct cap_ctx *c, __u64 ptr, __u64 len)
{
	struct dirents_loop l = { .c = c, .ptr = ptr, .len = len };
	struct scratch *s;
	struct genba_cap *cnt;
	__u32 o;

	if (!c || !room(c))
		return 0;
	s = get_scratch();
	if (!s)
		return 0;
	/* the count first, so that it always has room; filled in below */
	o = c->off & GENBA_OFF_MASK;
	c->kind = GENBA_ITEM_COUNT;
	c->elem = 0;
	cap_finish(c, s->buf, o, 0, 0, 0);
	for (int i = 0; i < DIRENTS_CHUNKS; i++)
		if (dirents_copy_step(i, &l))
			break;
	if (l.off >= len)
		return 1;
	l.off = 0;
	bpf_loop(len / 24 + 2, dirents_walk_step, &l, 0);
	s = get_scratch();
	if (!s)
		return 1;
	cnt = (void *)(s->buf + (o & GENBA_OFF_MASK));
	cnt->aux = l.n;
	cnt->flags = l.end == 1 ? 0 : GENBA_CAPF_MORE;
	return 1;
}

/* The user registers an unwinder starts from. */
struct uregs {
	__u64 ip, sp, bp;
};

struct stack_loop {
	struct cap_ctx *c;
	__u64 sp;
	__u32 o;    /* where the data of the stack item starts */
	__u32 got;  /* bytes copied so far */
	__u32 want;
};

static long stack_step(__u64 i, void *data)
{
	struct stack_loop *l = data;
	struct scratch *s = get_scratch();
	__u32 at;

	if (!s || l->got >= l->want)
		return 1;
	at = (l->o + l->got) & GENBA_OFF_MASK;
	if (bpf_probe_read_user(s->buf + at, GENBA_STACK_CHUNK, (void *)(l->sp + l->got)))
		return 1;
	l->got += GENBA_STACK_CHUNK;
	return 0;
}

/* The user registers, a copy of the user stack from sp up, and with -kk the
 * kernel stack: what user space needs to unwind and find the call site. */
__noinline int cap_stacks(struct cap_ctx *c, struct uregs *u, void *ctx __arg_ctx)
{
	struct scratch *s;
	struct stack_loop l = {};
	__u32 o;
	long n;

	if (!c || !u)
		return 0;
	c->arg = 0xff;
	c->elem = 0;
	if (!room(c))
		return 0;
	s = get_scratch();
	if (!s)
		return 0;
	o = c->off & GENBA_OFF_MASK;
	c->kind = GENBA_ITEM_REGS;
	__builtin_memcpy(s->buf + o + sizeof(struct genba_cap), u, sizeof(*u));
	cap_finish(c, s->buf, o, 0, sizeof(*u), u->sp);

	if (!room(c))
		return 0;
	o = c->off & GENBA_OFF_MASK;
	l.c = c;
	l.sp = u->sp;
	l.o = o + sizeof(struct genba_cap);
	l.want = ustack_bytes;
	if (l.want > GENBA_CAP_MAX)
		l.want = GENBA_CAP_MAX;
	/* the record must not run past the scratch area */
	if (l.o + l.want > GENBA_OFF_MASK)
		l.want = l.o < GENBA_OFF_MASK ? (GENBA_OFF_MASK - l.o) & ~(GENBA_STACK_CHUNK - 1) : 0;
	bpf_loop(GENBA_CAP_MAX / GENBA_STACK_CHUNK, stack_step, &l, 0);
	c->kind = GENBA_ITEM_USTACK;
	cap_finish(c, s->buf, o, l.got < l.want ? GENBA_CAPF_TRUNC : 0, l.got & (2 * GENBA_CAP_MAX - 1), u->sp);

	if (!kstack || !room(c))
		return 1;
	o = c->off & GENBA_OFF_MASK;
	n = bpf_get_stack(ctx, s->buf + o + sizeof(struct genba_cap), 127 * 8, 0);
	c->kind = GENBA_ITEM_KSTACK;
	cap_finish(c, s->buf, o, n < 0 ? GENBA_CAPF_FAULT : 0, n > 0 ? (__u32)n & 1023 : 0, 0);
	return 1;
}

/* -e kvm=vcpu: KVM_RUN returned 0; the reason its vcpu left the guest
 * (its struct kvm_run's exit_reason), read now as the program finds it on
 * return, not when genba prints the call (the vcpu may have run again, or
 * the program ended). 4 bytes; nothing when the descriptor is no vcpu
 * (its name is not kvm-vcpu:N) or the kernel has no KVM types. */
__noinline int cap_kvm_exit(struct cap_ctx *c)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct kvm_vcpu___genba *vcpu;
	struct kvm_run___genba *run;
	struct pt_regs *regs;
	struct scratch *s;
	struct file *f;
	const unsigned char *dn;
	char name[16] __attribute__((aligned(8))) = {};
	__u32 reason = 0, o;

	if (!c || !room(c))
		return 0;
	/* resolved by libbpf at load: 0 without KVM, and all below is dead */
	if (!bpf_core_field_exists(struct kvm_vcpu___genba, run) ||
	    !bpf_core_field_exists(struct kvm_run___genba, exit_reason))
		return 0;
	regs = (struct pt_regs *)bpf_task_pt_regs(t);
	if (!regs)
		return 0;
	f = fd_file((int)BPF_CORE_READ(regs, di));
	if (!f)
		return 0;
	dn = BPF_CORE_READ(f, f_path.dentry, d_name.name);
	if (!dn || bpf_probe_read_kernel_str(name, sizeof(name), dn) < 10)
		return 0;
	/* "kvm-vcpu:" */
	if (*(__u64 *)name != 0x757063762d6d766bULL || name[8] != ':')
		return 0;
	vcpu = BPF_CORE_READ(f, private_data);
	run = BPF_CORE_READ(vcpu, run);
	if (!run || bpf_probe_read_kernel(&reason, sizeof(reason), &run->exit_reason))
		return 0;
	s = get_scratch();
	if (!s)
		return 0;
	o = c->off & GENBA_OFF_MASK;
	c->kind = GENBA_ITEM_DATA;
	c->elem = 0;
	*(__u32 *)(s->buf + o + sizeof(struct genba_cap)) = reason;
	cap_finish(c, s->buf, o, 0, 4, 0);
	return 1;
}

/* The ioc_sizes values with GENBA_IOC_SPECIAL set. */
__noinline int cap_ioc_special(struct cap_ctx *c, __u32 v)
{
	if (!c)
		return 0;
	switch (v & GENBA_IOC_KIND_MASK) {
	case GENBA_IOC_COUNTED: {
		__u32 cnt = 0;
		__u64 n = v & 0xffff;

		if (!c->ptr)
			return 0;
		if (bpf_probe_read_user(&cnt, sizeof(cnt), (void *)c->ptr))
			cnt = 0;
		n += (__u64)cnt * ((v >> 16) & 0xff);
		return cap_bytes(c, c->ptr, n, c->max, n);
	}
	case GENBA_IOC_KVM_EXIT:
		if (c->exiting && c->ret == 0)
			return cap_kvm_exit(c);
		return 0;
	}
	return 0;
}

/* Captures one argument as c->cap_kind says. A global function, so the
 * verifier checks it once rather than once per argument and kind. */
__noinline int capture_arg(struct cap_ctx *c)
{
	__u64 mult;

	if (!c)
		return 0;
	mult = c->mult ? c->mult : 1;
	c->kind = GENBA_ITEM_DATA;
	c->elem = 0;
	switch (c->cap_kind) {
	case GENBA_CAP_STR:
		return cap_str(c, c->ptr, c->max);
	case GENBA_CAP_FIXED:
		return cap_bytes(c, c->ptr, c->max, c->max, c->ptr);
	case GENBA_CAP_ARGLEN:
		return cap_bytes(c, c->ptr, c->len * mult, c->max, c->len);
	case GENBA_CAP_RETLEN:
		if ((__s64)c->ret > 0)
			return cap_bytes(c, c->ptr, c->ret * mult, c->max, c->ret);
		return 0;
	case GENBA_CAP_PTRLEN: {
		__s32 l = 0;
		if (c->len && !bpf_probe_read_user(&l, sizeof(l), (void *)c->len) && l > 0)
			return cap_bytes(c, c->ptr, l, c->max, l);
		return cap_bytes(c, c->ptr, 0, 0, 0);
	}
	case GENBA_CAP_STRARR:
		return cap_strarr(c, c->ptr, c->max, 1);
	case GENBA_CAP_COUNT:
		return cap_strarr(c, c->ptr, 0, 0);
	case GENBA_CAP_IOV:
		return cap_iov(c, c->ptr, c->len, c->max, ~0ULL);
	case GENBA_CAP_IOV_RET:
		if ((__s64)c->ret >= 0)
			return cap_iov(c, c->ptr, c->len, c->max, c->ret);
		return 0;
	case GENBA_CAP_MSGHDR:
		return cap_msghdr(c, c->ptr, c->max, ~0ULL);
	case GENBA_CAP_MSGHDR_RET:
		if ((__s64)c->ret >= 0)
			return cap_msghdr(c, c->ptr, c->max, c->ret);
		return 0;
	case GENBA_CAP_MMSG:
		return cap_mmsg(c, c->ptr, c->len, c->max, 0);
	case GENBA_CAP_MMSG_RET:
		if ((__s64)c->ret >= 0)
			return cap_mmsg(c, c->ptr, c->ret < c->len ? c->ret : c->len, c->max, 1);
		return 0;
	case GENBA_CAP_SPREL:
		return cap_bytes(c, c->sp + 8 * c->len, c->max, c->max, c->sp);
	case GENBA_CAP_PTRS:
		return cap_ptrs(c, c->ptr, c->len);
	case GENBA_CAP_DIRENTS:
		if ((__s64)c->ret > 0)
			return cap_dirents(c, c->ptr, c->ret);
		return 0;
	case GENBA_CAP_IOC: {
		__u32 req = (__u32)c->len;
		__u32 *sz;
		__u64 n;
		/* mult set: a key space of its own, (mult << 24) | the value's
		 * low 24 bits, and no size but the map's (ptrace's requests) */
		if (c->mult)
			req = ((__u32)c->mult << 24) | (req & 0xffffff);
		sz = bpf_map_lookup_elem(&ioc_sizes, &req);
		if (sz && (*sz & GENBA_IOC_SPECIAL))
			return cap_ioc_special(c, *sz);
		n = sz ? (*sz & 0xffff) : ((!c->mult && (req >> 30)) ? (req >> 16) & 0x3fff : 0);
		__u64 most = sz ? (*sz >> 16) : 0;
		__u8 last;
		if (!c->ptr)
			return 0;
		/* sizes stay far below a page: the first and last bytes readable
		 * mean all are */
		if (most > n && !bpf_probe_read_user(&last, 1, (void *)(c->ptr + most - 1)))
			n = most;
		if (!n)
			return 0;
		return cap_bytes(c, c->ptr, n, c->max, n);
	}
	case GENBA_CAP_FD_INO: {
		__s32 pair[2];
		if ((__s64)c->ret < 0)
			return 0;
		if (c->max == GENBA_FD_RET)
			return cap_fd_ino(c, c->ret, 0);
		if (bpf_probe_read_user(pair, sizeof(pair), (void *)c->len))
			return 0;
		cap_fd_ino(c, pair[0], 0);
		return cap_fd_ino(c, pair[1], 1);
	}
	}
	return 0;
}

/* The six argument registers, as one object a global function can be given. */
struct call_args {
	__u64 a[GENBA_NARGS];
};

/* Copies what `spec` asks of each argument at entry or exit (c->ret and c->sp
 * set). A global function: the verifier checks it once, not once per call
 * site (inlined in sys_enter and sys_exit, it made most of their ~40 ms of
 * verification at each start). */
__noinline int capture(struct cap_ctx *c, struct genba_syscall_spec *spec,
		       struct call_args *ca, int at_exit)
{
	__u64 *args;
	__s64 ret;
	int i;

	if (!c || !spec || !ca)
		return 0;
	args = ca->a;
	ret = (__s64)c->ret;
#pragma unroll
	for (i = 0; i < GENBA_NSLOTS; i++) {
		struct genba_arg_spec *a = &spec->args[i];
		__u8 when = a->when;
		__u32 la = a->len_arg;

		if (a->kind == GENBA_CAP_NONE)
			continue;
		if (at_exit) {
			/* entry captures that faulted (page not present yet) are
			 * read again now: the call itself has faulted them in */
			if (when == GENBA_AT_ENTER && !(c->retry & (1U << i)))
				continue;
			if (when == GENBA_AT_EXIT_OK && ret < 0)
				continue;
		} else if (when != GENBA_AT_ENTER && when != GENBA_AT_BOTH) {
			continue;
		}
		/* the condition after the time check: the socket's lookup walks
		 * the file table, for the captures of this side of the call only */
		c->tag = 0;
		if (a->cond_arg < GENBA_NARGS && a->cond_bitmap == GENBA_COND_SOCK_FAMILY) {
			/* the family of the socket behind the descriptor; the
			 * capture says its protocol (netlink's decoders need it) */
			__u32 fp = fd_sock_family(args[a->cond_arg]);
			__u32 v = fp & 0xffff & a->cond_mask;

			if (fp == ~0U || (v != a->cond_val && v != a->cond_val2))
				continue;
			c->tag = ((fp >> 16) & 0x7f) + 1;
		} else if (a->cond_arg < GENBA_NARGS) {
			__u64 v = args[a->cond_arg] & a->cond_mask;
			if (a->cond_bitmap) {
				__u64 set = a->cond_val | ((__u64)a->cond_val2 << 32);
				if (v >= 64 || !((set >> v) & 1))
					continue;
			} else if (v != a->cond_val && v != a->cond_val2) {
				continue;
			}
		}
		c->arg = i;
		if (a->src_arg) {
			__u32 src = a->src_arg - 1;

			if (src >= GENBA_NARGS)
				continue;
			c->ptr = args[src];
		} else if (i < GENBA_NARGS) {
			c->ptr = args[i];
		} else {
			/* the extra slots copy what an argument points to */
			continue;
		}
		c->cap_kind = a->kind;
		c->mult = a->mult;
		c->stride = a->stride;
		c->ptr_off = a->ptr_off;
		c->elen_off = a->elen_off;
		c->max = a->max;
		/* SPREL: len_arg is an offset in words, not an argument;
		 * GENBA_LEN_CONST + n: the constant n (an IOV of one iovec) */
		c->len = a->kind == GENBA_CAP_SPREL ? la
			 : la < GENBA_NARGS		? args[la]
			 : la >= GENBA_LEN_CONST && la < GENBA_FD_RET ? la - GENBA_LEN_CONST
								      : 0;
		if (a->deref) {
			/* (a constant length stays: GENBA_LEN_CONST + n) */
			__u64 base = c->ptr, p = 0, n = la >= GENBA_LEN_CONST ? c->len : 0;

			if (bpf_probe_read_user(&p, sizeof(p),
						(void *)(base + 8 * ((a->deref - 1) & 15))))
				continue;
			if (a->len_u32) {
				__u32 n32 = 0;

				if (la < 32) {
					if (bpf_probe_read_user(&n32, sizeof(n32),
								(void *)(base + 4 * la)))
						continue;
					n = n32;
				}
			} else if (la < 16 &&
				   bpf_probe_read_user(&n, sizeof(n), (void *)(base + 8 * la))) {
				continue;
			}
			c->ptr = p;
			c->len = n;
		}
		capture_arg(c);
	}
	/* the stacks' and exec's captures that follow carry no tag */
	c->tag = 0;
	return 1;
}

#define AT_EXECFN 31
#define AT_FDCWD -100

/* The new program's AT_EXECFN: where on its stack the exec copied the file
 * name it was given. */
__noinline __u64 exec_fn_addr(void)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	struct mm_struct *mm = BPF_CORE_READ(t, mm);
	__u64 pair[2];
	int i;

	if (!mm)
		return 0;
	for (i = 0; i < GENBA_AUXV_WORDS / 2; i++) {
		if (bpf_probe_read_kernel(pair, sizeof(pair),
					  __builtin_preserve_access_index(&mm->saved_auxv[2 * i])))
			return 0;
		if (pair[0] == AT_EXECFN)
			return pair[1];
		if (pair[0] == 0)
			return 0;
	}
	return 0;
}

/*
 * After a successful execve/execveat, the arguments that could not be read
 * at entry (a forked child's pages of the program's constants are not
 * mapped until touched) are read from the new program: the kernel has laid
 * out on its stack, at the user sp the call returns with, argc, the argv
 * pointers, NULL, the envp pointers, NULL, the auxiliary vector, and the
 * strings; AT_EXECFN points to the file name as it was passed.
 */
__noinline int cap_exec_args(struct cap_ctx *c, struct genba_syscall_spec *spec, __u32 nr,
			     __u64 dirfd, __u64 sp)
{
	__u32 k = nr == NR_EXECVEAT ? 1 : 0; /* the path argument */
	__u64 argc = 0, fn;
	int i;

	if (!c || !spec || !sp)
		return 0;
	if (bpf_probe_read_user(&argc, sizeof(argc), (void *)sp) || argc > (1 << 20))
		return 0;
	for (i = 0; i < 3; i++) {
		__u32 a = k + i;
		__u64 ptr;

		if (a >= GENBA_NARGS || !(c->retry & (1U << a)))
			continue;
		c->arg = a;
		c->kind = GENBA_ITEM_DATA;
		c->elem = 0;
		if (i == 0) {
			/* execveat relative to a directory fd: the exec names the
			 * file /dev/fd/N/path, not what was passed */
			if (k && (int)dirfd != AT_FDCWD)
				continue;
			fn = exec_fn_addr();
			if (fn)
				cap_str(c, fn, spec->args[a].max);
			continue;
		}
		ptr = i == 1 ? sp + 8 : sp + 8 * (argc + 2);
		if (spec->args[a].kind == GENBA_CAP_STRARR)
			cap_strarr(c, ptr, spec->args[a].max, 1);
		else if (spec->args[a].kind == GENBA_CAP_COUNT)
			cap_strarr(c, ptr, 0, 0);
	}
	return 1;
}

static __always_inline void read_args(struct pt_regs *r, __u64 *args, __u64 *orig_ax, struct uregs *u)
{
	u->ip = r->ip;
	u->sp = r->sp;
	u->bp = r->bp;
	args[0] = r->di;
	args[1] = r->si;
	args[2] = r->dx;
	args[3] = r->r10;
	args[4] = r->r8;
	args[5] = r->r9;
	*orig_ax = r->orig_ax;
}

static __always_inline __u32 log2_bucket(__u64 v)
{
	__u32 b = 0;
	/* branch-free enough: 40 buckets cover ~18 minutes in ns */
	if (v >= (1ULL << 32)) { v >>= 32; b += 32; }
	if (v >= (1ULL << 16)) { v >>= 16; b += 16; }
	if (v >= (1ULL << 8)) { v >>= 8; b += 8; }
	if (v >= (1ULL << 4)) { v >>= 4; b += 4; }
	if (v >= (1ULL << 2)) { v >>= 2; b += 2; }
	if (v >= (1ULL << 1)) { b += 1; }
	if (b >= GENBA_HIST_BUCKETS)
		b = GENBA_HIST_BUCKETS - 1;
	return b;
}

static __always_inline void add_sum(struct genba_sum *sum, __s64 ret, __u64 d, int timed)
{
	__u32 b;

	if (!sum)
		return;
	sum->calls++;
	if (ret < 0 && ret >= -4095)
		sum->errors++;
	if (!timed)
		return;
	sum->total_ns += d;
	if (!sum->min_ns || d < sum->min_ns)
		sum->min_ns = d;
	if (d > sum->max_ns)
		sum->max_ns = d;
	b = log2_bucket(d);
	if (b < GENBA_HIST_BUCKETS)
		sum->hist[b]++;
}

#include "causal.bpf.inc"

/* sys_enter and sys_exit are tp_btf programs: the same tracepoints and
 * dispatch as raw_tp, but with typed arguments (see struct pt_regs). */
SEC("tp_btf/sys_enter")
int sys_enter(__u64 *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	__u32 *st = task_state(id);
	__u32 nr = (__u32)ctx[1];
	struct genba_syscall_spec *spec;
	struct genba_inflight *inf;
	__u32 slot;
	__u64 ts;

	if (!st || !*st)
		return 0;
	if (*st & GENBA_TASK_WAIT_EXEC) {
		if (nr != NR_EXECVE && nr != NR_EXECVEAT)
			return 0;
		*st = GENBA_TASK_TRACED;
	}
	/* a call the listener delayed (and let run): its flag goes with it,
	 * and leaves the map whether or not the call is shown */
	__u32 inj = inject_on ? take_injected(tid, nr, 0) : 0;
	spec = bpf_map_lookup_elem(&specs, &nr);
	if (spec && !(spec->flags & GENBA_SPEC_TRACED)) {
		/* a signal noted for this task is due at its next syscall,
		 * shown or not (strace -e trace=none still shows signals) */
		if (emit_records)
			flush_pending_sig(tid);
		return 0;
	}

	ts = call_time();
	slot = tid & inflight_mask;
	inf = bpf_map_lookup_elem(&inflight, &slot);
	if (inf) {
		inf->tid = tid;
		inf->nr = nr;
		inf->ts = ts;
		inf->retry = 0;
		inf->inject = inj;
		inf->off_since = 0;
		inf->off_total = 0;
	}
	if (!emit_records)
		return 0;
	flush_pending_sig(tid);
	if (spec && (spec->flags & GENBA_SPEC_EXIT_ONLY))
		return 0;

	struct scratch *s = get_scratch();
	if (!s)
		return 0;
	struct genba_sys_enter *e = (void *)s->buf;
	__u64 orig_ax;
	struct uregs u;
	read_args((void *)ctx[0], e->args, &orig_ax, &u);
	e->nr = nr;
	struct cap_ctx c = { .off = sizeof(*e) };
	if (spec) {
		c.sp = u.sp;
		capture(&c, spec, (struct call_args *)e->args, 0);
	}
	if (ustack_bytes && !(spec && (spec->flags & GENBA_SPEC_NO_STACK)))
		cap_stacks(&c, &u, ctx);
	e->ncaps = c.ncaps;
	if (inf && c.faulted)
		inf->retry = c.faulted;
	fill_hdr_id(&e->hdr, GENBA_REC_SYS_ENTER, c.off, ts, id);
	submit(e, c.off);
	return 0;
}

SEC("tp_btf/sys_exit")
int sys_exit(__u64 *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	__u32 *st = task_state(id);
	__s64 ret = (__s64)ctx[1];
	struct genba_syscall_spec *spec;
	struct genba_inflight *inf;
	__u64 args[GENBA_NARGS];
	__u64 orig_ax, ts, enter_ts = 0;
	struct uregs u = {};
	__u32 slot, nr, retry = 0, inj = 0, paired = 0;

	if (!st || *st != GENBA_TASK_TRACED)
		return 0;
	/* genba causal: a thread that owes pays on its way back to user mode;
	 * not when the call returns a restart code (-ERESTARTSYS ..
	 * -ERESTART_RESTARTBLOCK: another signal interrupted it): a handler
	 * run now would turn ERESTARTNOHAND and ERESTART_RESTARTBLOCK into
	 * EINTR for the program (nanosleep, poll, pause), SA_RESTART or not */
	if (ret > -512 || ret < -516)
		causal_tell(tid, id >> 32);
	ts = call_time();
	slot = tid & inflight_mask;
	inf = bpf_map_lookup_elem(&inflight, &slot);
	if (inf && inf->tid == tid && inf->ts) {
		/* the entry's number: rt_sigreturn leaves orig_ax at -1 */
		nr = inf->nr;
		enter_ts = inf->ts;
		retry = inf->retry;
		inj = inf->inject;
		paired = 1;
		inf->ts = 0;
	} else if (inf && inf->tid == tid && inf->nr == FORK_CHILD) {
		/* a new task's return from fork/clone: strace shows nothing */
		inf->nr = 0;
		return 0;
	}
	/* the registers are needed for records, or for the number when the
	 * entry was not seen; a summary-only run usually skips this copy */
	/* the registers are needed for the number when the entry was not seen,
	 * and for records of calls that have arguments */
	if (!enter_ts) {
		read_args((void *)ctx[0], args, &orig_ax, &u);
		nr = (__u32)orig_ax;
		/* an rt_sigreturn whose entry was filtered out: its exit must be
		 * filtered as rt_sigreturn, not shown as a call numbered -1 */
		if (nr == (__u32)-1)
			nr = NR_RT_SIGRETURN;
		/* a call the listener answered without running it: its entry
		 * is when it was stopped, and the entry's copies are made now
		 * (the call changed nothing) */
		if (inject_on) {
			inj = take_injected(tid, nr, &enter_ts);
			if (inj & GENBA_INJ_SKIPPED)
				retry = (1U << GENBA_NSLOTS) - 1;
		}
		spec = bpf_map_lookup_elem(&specs, &nr);
	} else {
		spec = bpf_map_lookup_elem(&specs, &nr);
		if (emit_records) {
			if (spec && (spec->flags & GENBA_SPEC_NO_ARGS))
				__builtin_memset(args, 0, sizeof(args));
			else
				read_args((void *)ctx[0], args, &orig_ax, &u);
		}
	}
	if (spec && !(spec->flags & GENBA_SPEC_TRACED)) {
		if (emit_records)
			flush_pending_sig(tid);
		return 0;
	}
	if (!enter_ts)
		count(GENBA_CNT_UNPAIRED, 1);

	/* the time off the CPU is this call's only when its entry was seen
	 * (a call -e inject= answered has an entry time, not a slot) */
	__u64 off_cpu = summary_cpu && inf && paired ? inf->off_total : 0;
	if (keep_summary && nr < GENBA_MAX_SYSCALLS) {
		__u64 d = 0;
		if (enter_ts) {
			d = ts - enter_ts;
			if (summary_cpu && inf && paired) {
				__u64 off = inf->off_total;
				d = off < d ? d - off : 0;
			}
		}
		add_sum(bpf_map_lookup_elem(&sums, &nr), ret, d, enter_ts != 0);
		if (summary_by) {
			struct genba_sum_key k = { .nr = nr };
			struct genba_sum *ts_sum;
			k.task = summary_by == 2 ? (__u32)id : id >> 32;
			ts_sum = bpf_map_lookup_elem(&task_sums, &k);
			if (!ts_sum) {
				__u32 z = 0;
				struct genba_sum *zero = bpf_map_lookup_elem(&zero_sum, &z);
				if (zero && bpf_map_update_elem(&task_sums, &k, zero, BPF_NOEXIST) &&
				    !bpf_map_lookup_elem(&task_sums, &k))
					count(GENBA_CNT_SUM_FULL, 1);
				ts_sum = bpf_map_lookup_elem(&task_sums, &k);
			}
			add_sum(ts_sum, ret, d, enter_ts != 0);
		}
	}
	if (!emit_records)
		return 0;
	/* a task with SIGKILL pending (exit_group or an exec in another
	 * thread, a kill -9) dies on its way out: ptrace never shows the
	 * call's return, and strace prints `= ?` at the task's end. Not the
	 * target of a fatal signal (SIGPIPE, SIGTERM: the kernel turns it
	 * into SIGKILL at once for a task that is not ptraced): under ptrace
	 * that signal is delivered after the call returns, so strace shows
	 * the return, then the signal (signal_generate noted it for this task
	 * in pending_sigs). Only a call the signal cut short is looked at
	 * (EINTR, ERESTART*): what runs to its end as SIGKILL comes is shown,
	 * and every other call skips the lookup of the task */
	if (ret == -4 || (ret >= -516 && ret <= -512)) {
		struct task_struct *t = bpf_get_current_task_btf();

		if (t->pending.signal.sig[0] & (1UL << (9 - 1))) {
			__u32 slot = tid & inflight_mask;
			struct genba_pending_sig *p = bpf_map_lookup_elem(&pending_sigs, &slot);

			/* the fatal signal itself, not another one waiting */
			if (!p || p->tid != tid || !p->sig ||
			    p->sig != BPF_CORE_READ(t, signal, group_exit_code))
				return 0;
		}
	}

	/* nothing to copy: reserve the fixed-size record in place */
	if (!retry && !(spec && (spec->flags & GENBA_SPEC_EXIT_CAPS))) {
		struct genba_sys_exit *r = bpf_ringbuf_reserve(&events, sizeof(*r), 0);
		if (!r) {
			count(GENBA_CNT_RB_LOST, 1);
		} else {
			__builtin_memcpy(r->args, args, sizeof(args));
			r->nr = nr;
			r->ncaps = 0;
			r->ret = ret;
			r->enter_ts = enter_ts;
			r->off_cpu_ns = off_cpu;
			fill_hdr_id(&r->hdr, GENBA_REC_SYS_EXIT, sizeof(*r), ts, id);
			r->hdr.pad = inj;
			bpf_ringbuf_submit(r, wakeup_flags(sizeof(*r)));
		}
		flush_pending_sig(tid);
		return 0;
	}

	struct scratch *s = get_scratch();
	if (!s)
		return 0;
	struct genba_sys_exit *e = (void *)s->buf;
	__builtin_memcpy(e->args, args, sizeof(args));
	e->nr = nr;
	e->ret = ret;
	e->enter_ts = enter_ts;
	e->off_cpu_ns = off_cpu;
	struct cap_ctx c = { .off = sizeof(*e), .retry = retry, .exiting = 1 };
	if (spec && ret == 0 && retry && !(inj & GENBA_INJ_SKIPPED) &&
	    (nr == NR_EXECVE || nr == NR_EXECVEAT)) {
		/* the old program's memory is gone: what could not be read at
		 * entry is read from what the exec made of it */
		cap_exec_args(&c, spec, nr, e->args[0], u.sp);
	} else if (spec) {
		c.ret = ret;
		c.sp = u.sp;
		capture(&c, spec, (struct call_args *)e->args, 1);
	}
	e->ncaps = c.ncaps;
	fill_hdr_id(&e->hdr, GENBA_REC_SYS_EXIT, c.off, ts, id);
	e->hdr.pad = inj;
	submit(e, c.off);
	flush_pending_sig(tid);
	return 0;
}

/* For CPU-time summaries: the time a task spends off the CPU while inside a
 * traced call is not the call's CPU time. Attached only for -c without -w. */
SEC("raw_tp/sched_switch")
int sched_switch(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *next = (void *)ctx->args[2];
	__u32 prev_tid = (__u32)bpf_get_current_pid_tgid();
	__u32 next_tid, slot;
	struct genba_inflight *inf;
	__u64 now = bpf_ktime_get_ns();

	slot = prev_tid & inflight_mask;
	inf = bpf_map_lookup_elem(&inflight, &slot);
	if (inf && inf->tid == prev_tid && inf->ts)
		inf->off_since = now;
	next_tid = BPF_CORE_READ(next, pid);
	slot = next_tid & inflight_mask;
	inf = bpf_map_lookup_elem(&inflight, &slot);
	if (inf && inf->tid == next_tid && inf->ts && inf->off_since) {
		inf->off_total += now - inf->off_since;
		inf->off_since = 0;
	}
	return 0;
}

SEC("raw_tp/sched_process_fork")
int sched_fork(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	__u32 *st = task_state(id);
	struct task_struct *child = (void *)ctx->args[1];
	struct genba_fork f = {};
	__u32 ctid, val = GENBA_TASK_TRACED;

	if (!follow_forks || !st || *st != GENBA_TASK_TRACED)
		return 0;
	ctid = BPF_CORE_READ(child, pid);
	if (!trace_all)
		bpf_map_update_elem(&tasks, &ctid, &val, BPF_ANY);
	{
		__u32 slot = ctid & inflight_mask;
		struct genba_inflight *inf = bpf_map_lookup_elem(&inflight, &slot);
		if (inf) {
			inf->tid = ctid;
			inf->nr = FORK_CHILD;
			inf->ts = 0;
			inf->retry = 0;
		}
	}
	f.child_tid = ctid;
	f.child_tgid = BPF_CORE_READ(child, tgid);
	causal_fork(ctid, f.child_tgid);
	fill_hdr(&f.hdr, GENBA_REC_FORK, sizeof(f), bpf_ktime_get_ns());
	submit(&f, sizeof(f));
	return 0;
}

SEC("raw_tp/sched_process_exit")
int sched_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	__u32 *st = task_state(id);
	struct task_struct *p = (void *)ctx->args[0];
	struct genba_exit x = {};

	if (!st || !*st)
		return 0;
	if (!trace_all)
		*st = 0;
	x.exit_code = BPF_CORE_READ(p, exit_code);
	/* do_exit counts the thread out of signal->live before this
	 * tracepoint: 0 when it was the group's last */
	if (BPF_CORE_READ(p, signal, live.counter) == 0)
		x.group_dead |= GENBA_EXIT_GROUP_DEAD;
	if (BPF_CORE_READ(p, signal, flags) & 0x4 /* SIGNAL_GROUP_EXIT */)
		x.group_dead |= GENBA_EXIT_GROUP_EXIT;
	bpf_get_current_comm(x.comm, sizeof(x.comm));
	fill_hdr(&x.hdr, GENBA_REC_EXIT, sizeof(x), bpf_ktime_get_ns());
	submit(&x, sizeof(x));
	return 0;
}

SEC("raw_tp/sched_process_exec")
int sched_exec(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	__u32 *st = task_state(id);
	struct genba_exec x = {};

	x.old_tid = (__u32)ctx->args[1];
	if (x.old_tid != tid && !trace_all) {
		/* a thread other than the leader exec'd: it now has the
		 * leader's tid (the leader's exit cleared that state), and
		 * its state and call in flight move there with it */
		__u32 old = x.old_tid;
		__u32 *ost = bpf_map_lookup_elem(&tasks, &old);

		if (ost && *ost == GENBA_TASK_TRACED) {
			__u32 v = GENBA_TASK_TRACED;

			bpf_map_update_elem(&tasks, &tid, &v, BPF_ANY);
			/* an array: the old tid's entry is cleared, not deleted
			 * (its pid may be reused by an unrelated task) */
			*ost = 0;
			st = bpf_map_lookup_elem(&tasks, &tid);
		}
	}
	if (!st || *st != GENBA_TASK_TRACED)
		return 0;
	if (x.old_tid != tid) {
		__u32 os = x.old_tid & inflight_mask, ns = tid & inflight_mask;
		struct genba_inflight *from = bpf_map_lookup_elem(&inflight, &os);
		struct genba_inflight *to = bpf_map_lookup_elem(&inflight, &ns);

		if (from && to && from->tid == x.old_tid && os != ns) {
			*to = *from;
			to->tid = tid;
			from->ts = 0;
		} else if (to && os == ns && to->tid == x.old_tid) {
			/* both tids in one slot: the entry is the call's */
			to->tid = tid;
		}
	}
	causal_exec(id >> 32);
	{
		struct task_struct *t = (void *)ctx->args[0];
		struct mm_struct *mm = BPF_CORE_READ(t, mm);
		if (mm)
			bpf_probe_read_kernel(x.auxv, sizeof(x.auxv), __builtin_preserve_access_index(&mm->saved_auxv));
	}
	fill_hdr(&x.hdr, GENBA_REC_EXEC, sizeof(x), bpf_ktime_get_ns());
	/* with stacks, user space reads the new program's file as soon as it
	 * can, before a build replaces it: wake it now (execs are rare) */
	if (ustack_bytes) {
		if (bpf_ringbuf_output(&events, &x, sizeof(x), BPF_RB_FORCE_WAKEUP))
			count(GENBA_CNT_RB_LOST, 1);
	} else {
		submit(&x, sizeof(x));
	}
	return 0;
}

/* Fills a siginfo for SEND_SIG_NOINFO (sent by current with kill) and
 * SEND_SIG_PRIV (sent by the kernel), which come without one. */
static __always_inline void synth_siginfo(__u8 *si, int sig, __u64 info)
{
	__s32 *w = (__s32 *)si;

	w[0] = sig;
	w[1] = 0;
	if (info == 0) {
		w[2] = 0; /* SI_USER */
		w[4] = bpf_get_current_pid_tgid() >> 32;
		w[5] = (__u32)bpf_get_current_uid_gid();
	} else {
		w[2] = 0x80; /* SI_KERNEL */
	}
}

SEC("raw_tp/signal_deliver")
int signal_deliver(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	__u32 *st = task_state(id);
	struct genba_signal s = {};

	if (!st || *st != GENBA_TASK_TRACED)
		return 0;
	s.sig = (__s32)ctx->args[0];
	/* the SIGKILL exit_group sends the other threads comes without siginfo;
	 * ptrace does not report it, and neither does strace. It is also how
	 * a task dies of a fatal signal it did not handle (see signal_generate):
	 * that signal, noted at generation, is shown now if no syscall exit
	 * showed it already. */
	if (s.sig == 9 && ctx->args[1] == 0) {
		if (emit_records)
			flush_pending_sig(tid);
		return 0;
	}
	if (ctx->args[1] > 1) /* SEND_SIG_NOINFO is 0, SEND_SIG_PRIV 1 */
		bpf_probe_read_kernel(s.siginfo, sizeof(s.siginfo), (void *)ctx->args[1]);
	else
		synth_siginfo(s.siginfo, s.sig, ctx->args[1]);
	/* SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU with the default action: the
	 * task enters a group stop after this (strace: `stopped by`) */
	if (s.sig >= 19 && s.sig <= 22) {
		struct k_sigaction *ka = (void *)ctx->args[2];
		void *h = 0;

		if (ka)
			h = BPF_CORE_READ(ka, sa.sa_handler);
		s.stops = h == 0;
	}
	fill_hdr(&s.hdr, GENBA_REC_SIGNAL, sizeof(s), bpf_ktime_get_ns());
	submit(&s, sizeof(s));
	return 0;
}

#define TRACE_SIGNAL_DELIVERED 0
#define TRACE_SIGNAL_IGNORED 1
#define SIGNAL_GROUP_EXIT 0x4

/*
 * Two kinds of signal a ptrace-based tracer sees delivered but the kernel
 * never delivers to an untraced task: ignored ones (discarded at once), and
 * fatal ones: a signal whose default action kills without a core dump
 * (SIGPIPE, SIGTERM, ...), neither handled nor blocked, makes the kernel
 * start the group exit right at generation (complete_signal) and kill every
 * thread with a SIGKILL that carries no siginfo. Both are noted here and
 * shown at the task's next syscall exit or entry, or, for a fatal one, when
 * that SIGKILL reaches the task (signal_deliver).
 */
SEC("raw_tp/signal_generate")
int signal_generate(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *t = (void *)ctx->args[2];
	int sig = (int)ctx->args[0];
	__u64 info = ctx->args[1];
	int result = (int)ctx->args[4];
	struct genba_pending_sig *p;
	__u32 tid, slot, *st, gflags;

	if (!emit_records || (result != TRACE_SIGNAL_IGNORED && result != TRACE_SIGNAL_DELIVERED))
		return 0;
	gflags = BPF_CORE_READ(t, signal, flags);
	if (result == TRACE_SIGNAL_DELIVERED) {
		/* fatal: this very signal started the group exit (SIGKILL
		 * itself is never reported, as ptrace does not) */
		if (sig == 9 || !(gflags & SIGNAL_GROUP_EXIT) ||
		    BPF_CORE_READ(t, signal, group_exit_code) != sig)
			return 0;
	} else if (gflags & SIGNAL_GROUP_EXIT) {
		/* dropped because the process is dying: nothing to show */
		return 0;
	}
	tid = BPF_CORE_READ(t, pid);
	st = task_state_of(tid);
	if (!st || *st != GENBA_TASK_TRACED)
		return 0;
	slot = tid & inflight_mask;
	p = bpf_map_lookup_elem(&pending_sigs, &slot);
	if (!p)
		return 0;
	if (!p->sig) {
		__sync_fetch_and_add(&sigs_pending, 1);
	} else if (p->tid == tid) {
		/* a second one before the task's next syscall exit or entry
		 * (a child stopped, then continued, while its parent waits):
		 * ptrace would have shown the first already */
		struct genba_signal r = {};
		__u64 who = ((__u64)BPF_CORE_READ(t, tgid) << 32) | tid;

		r.sig = p->sig;
		__builtin_memcpy(r.siginfo, p->siginfo, sizeof(r.siginfo));
		fill_hdr_id(&r.hdr, GENBA_REC_SIGNAL, sizeof(r), bpf_ktime_get_ns(), who);
		submit(&r, sizeof(r));
	}
	p->tid = tid;
	p->sig = sig;
	if (info > 1)
		bpf_probe_read_kernel(p->siginfo, sizeof(p->siginfo), (void *)info);
	else
		synth_siginfo(p->siginfo, sig, info);
	return 0;
}

/* -e inject=...:poke_exit=: the listener left data for this thread's call;
 * it is written over the program's memory as the call returns. Attached
 * before sys_exit, which then copies what the program will see. Loaded
 * only for poke_exit= (the kernel logs each program that may write user
 * memory). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct genba_poke);
} pokes SEC(".maps");

SEC("raw_tp/sys_exit") /* tp_btf programs may not write user memory */
int poke_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct genba_poke *p = bpf_map_lookup_elem(&pokes, &tid);
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
	__u32 i;

	if (!p)
		return 0;
	/* another call's exit (the one poked never returned: a tid reused) */
	if ((__u32)BPF_CORE_READ(regs, orig_ax) != p->nr) {
		bpf_map_delete_elem(&pokes, &tid);
		return 0;
	}
	for (i = 0; i < GENBA_POKES; i++) {
		__u32 len = p->len[i];

		if (i >= p->n)
			break;
		if (len < 1 || len > GENBA_POKE_BYTES)
			continue;
		bpf_probe_write_user((void *)p->addr[i], p->data + i * GENBA_POKE_BYTES, len);
	}
	bpf_map_delete_elem(&pokes, &tid);
	return 0;
}

/* Never used by the programs: these put the record types into the object's BTF
 * so the generated skeleton has Rust mirrors of them (see wire.rs). */
#include "profile.bpf.inc"

struct genba_sys_enter _rec_sys_enter = {};
struct genba_sys_exit _rec_sys_exit = {};
struct genba_fork _rec_fork = {};
struct genba_exit _rec_exit = {};
struct genba_exec _rec_exec = {};
struct genba_signal _rec_signal = {};
struct genba_cap _rec_cap = {};
struct genba_prof _rec_prof = {};
struct genba_prof_slot _rec_prof_slot = {};
