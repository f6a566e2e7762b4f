/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * causal.h: the page `genba causal` shares between genba, its BPF programs
 * and the runtime preloaded into the program (genba-causal's runtime.c).
 * One BPF array element, mmapped by genba and by the runtime.
 *
 * Who writes what:
 * - genba: the experiment (candidate, speedup), `active`, `threshold`; at
 *   an experiment's start and end it moves every open interval's `acc_ts`
 *   to then (with compare-and-swap), so none counts from before;
 * - BPF: the delay count (`global`, the open candidate intervals), each
 *   thread's `credit`, `pending` and `signals`, the progress counts;
 * - the runtime: `runtime_pid`, each thread's `paid`, its delay totals, and
 *   `pending` back to 0 once a delay is paid.
 *
 * A thread owes  G(now) - credit - paid  (modulo 2^64, read signed: an
 * experiment's start forgives a lead by lowering credit below 0), where
 *   G(now) = global + speedup% * (open_n * now - open_sum)
 * (open_sum: the sum of the open intervals' acc_ts). Writers change these
 * with atomic adds, `busy` raised around them; `gen` counts finished
 * writes, so a reader retries when a write overlapped its reads.
 * is the delay every thread of the program must have taken so far: each
 * time a thread runs the candidate for t ns (an on-CPU sample in its
 * addresses, or an off-CPU interval of its class and site, counted as it
 * goes), G grows by speedup% * t and that thread's credit by as much.
 */
#ifndef GENBA_CAUSAL_H
#define GENBA_CAUSAL_H

#include <linux/types.h>

#define GENBA_CAUSAL_THREADS 4096 /* a power of two: slot = tid & (n - 1) */
#define GENBA_CAUSAL_RANGES 16
#define GENBA_CAUSAL_SITES 8
#define GENBA_CAUSAL_PROGRESS 16
/* words of user stack scanned for an off-CPU interval's call site */
#define GENBA_CAUSAL_SCAN 128

enum genba_causal_kind {
	GENBA_CAUSAL_NONE = 0,
	GENBA_CAUSAL_ONCPU = 1,  /* samples whose user ip is in `lo`..`hi` */
	GENBA_CAUSAL_OFFCPU = 2, /* intervals of a class in `cls_mask` (and a site) */
};

struct genba_causal_thread {
	__u32 tid;
	__u32 pending;	/* told to pay, not paid yet */
	__u64 credit;	/* delay it need not take (ns) */
	__u64 paid;	/* delay it took (ns, as measured by the runtime) */
	__u64 signals;	/* times it was told to pay */
	__u64 acc_ts;	/* its open candidate interval counted up to then (0: none) */
	__u32 off_cls;	/* off the CPU: 1 + its class; 0 running or paying */
	__u32 pad;
	__u64 g_block;	/* G when it last blocked (0: not blocked) */
	__u64 t_block;	/* and when */
	__u64 owed_block; /* and what it owed then */
	__u64 off_word;	/* the site it left the CPU at (the first word of the
			 * program's text at its ip or on its stack) */
};

struct genba_causal {
	/* genba */
	__u32 active;	  /* tell threads to pay */
	__u32 speedup;	  /* percent */
	__u64 threshold;  /* owed ns at which a thread is told */
	__u32 kind;	  /* genba_causal_kind */
	__u32 cls_mask;	  /* off-CPU: 1 << genba_prof_class */
	__u32 nranges;
	__u32 nsites;	  /* off-CPU: 0 means any site */
	__u32 with_kernel; /* off-CPU: also on-CPU samples in the kernel at the site */
	__u32 quiet;	  /* the profile's records are not wanted any more */
	__u64 lo[GENBA_CAUSAL_RANGES];
	__u64 hi[GENBA_CAUSAL_RANGES];
	__u64 sites[GENBA_CAUSAL_SITES]; /* return addresses */
	__u64 text_lo, text_hi;		 /* where sites are looked for */
	/* BPF (and genba, moving acc_ts) */
	__u64 busy;
	__u64 gen;
	__u64 global;
	__u64 open_n;
	__u64 open_sum;
	__u64 hits;	/* candidate samples and intervals */
	__u64 hit_ns;	/* their time (ns, before the speedup) */
	/* the runtime */
	__u32 runtime_pid;
	__u32 runtime_sig;
	__u64 runtime_handler;	/* its handler's address in the program */
	__u64 delays;	/* delays taken */
	__u64 slept;	/* ns slept in them */
	__u64 asked;	/* ns they were asked to sleep (owed) */
	/* BPF, for GENBA_DEBUG: threads told to pay, wakeups that passed
	 * delays on, and the delay they passed (ns) */
	__u64 told;
	__u64 inherits;
	__u64 inherited_ns;
	__u64 collisions;	/* a thread took a slot another thread had */
	__u64 send_failed;	/* signals the kernel would not send */
	__u64 not_ours;	/* signals not sent: the program's handler for
			 * the signal was not the runtime's */
	/* BPF: visits of each progress point (a latency point: the calls
	 * that returned), and a latency point's time in them (ns) */
	__u64 progress[GENBA_CAUSAL_PROGRESS];
	__u64 latency[GENBA_CAUSAL_PROGRESS];
	struct genba_causal_thread t[GENBA_CAUSAL_THREADS];
};

#endif
