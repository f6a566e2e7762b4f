//! The ring-buffer and map layouts of `genba.h`, seen from Rust.
//!
//! Record structs are the skeleton's BTF-generated mirrors (`skel::types`), so
//! a change in the header changes them too; this module only walks the bytes.

use genba_events::{
    Capture, CaptureItem, Event, ProfSample, SyscallEnter, SyscallExit, Task, WakerKind,
};

use crate::skel::types;
use crate::SyscallPlan;

pub(crate) const TASK_TRACED: u32 = 1;
pub(crate) const TASK_WAIT_EXEC: u32 = 2;

pub(crate) const CNT_RB_LOST: u32 = 0;
pub(crate) const CNT_FAULTS: u32 = 1;
pub(crate) const CNT_UNPAIRED: u32 = 2;
pub(crate) const CNT_SCRATCH_FULL: u32 = 4;
pub(crate) const CNT_CAPTURES: u32 = 5;
pub(crate) const CNT_SUM_FULL: u32 = 6;
pub(crate) const CNT_PROF_COLLIDE: u32 = 7;
pub(crate) const CNT_PROF_UNOPENED: u32 = 8;
pub(crate) const CNT_IRQ_UNWOUND: u32 = 9;
pub(crate) const CNT_MAX: u32 = 12;

const REC_SYS_ENTER: u32 = 1;
const REC_SYS_EXIT: u32 = 2;
const REC_FORK: u32 = 3;
const REC_EXIT: u32 = 4;
const REC_SIGNAL: u32 = 5;
const REC_EXEC: u32 = 6;
const REC_PROF: u32 = 7;
/// `genba_exit.group_dead` bits (GENBA_EXIT_*).
const EXIT_GROUP_DEAD: u32 = 1;
const EXIT_GROUP_EXIT: u32 = 2;

/// Number of log2 latency buckets kept per syscall (bucket i: [2^i, 2^(i+1)) ns).
pub const HIST_BUCKETS: usize = 40;

/// How user memory behind one argument is captured (`enum genba_cap_kind`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum CaptureKind {
    /// Nothing.
    #[default]
    None = 0,
    /// NUL-terminated string of at most `max` bytes.
    Str = 1,
    /// Exactly `max` bytes (a struct).
    Fixed = 2,
    /// As many bytes as argument `len_arg` says, at most `max`.
    ArgLen = 3,
    /// As many bytes as the call returned, at most `max`.
    RetLen = 4,
    /// As many bytes as the int that argument `len_arg` points to.
    PtrLen = 5,
    /// An array of string pointers: the strings.
    StrArray = 6,
    /// An array of string pointers: only how many.
    Count = 7,
    /// An iovec array of `len_arg` elements.
    Iov = 8,
    /// A struct msghdr with its name and iovec data.
    Msghdr = 9,
    /// An iovec array, data limited to the return value.
    IovRet = 10,
    /// A struct msghdr, data limited to the return value.
    MsghdrRet = 11,
    /// `max` bytes at the user stack pointer + 8 * `len_arg` (signal frames).
    SpRel = 12,
    /// Inode numbers of the descriptors a call created.
    FdIno = 13,
    /// A getdents buffer: its bytes in chunks as far as they fit, and the
    /// number of entries when they do not.
    Dirents = 14,
    /// ioctl's argument: the size [`crate::TraceConfig::ioctl_sizes`]
    /// gives for the request, else the size the request encodes.
    Ioc = 15,
    /// A struct mmsghdr vector of `len_arg` entries: each entry with its
    /// name and iov data (the first 33 entries), then the count.
    Mmsg = 16,
    /// The same at exit for the entries received (the return value), each
    /// entry's data limited to its msg_len.
    MmsgRet = 17,
    /// An array of `len` records of [`ArgCapture::ptrs`]' layout: what the
    /// pointer in each of the first 33 records points to, then the count.
    Ptrs = 18,
}

/// The layout of [`CaptureKind::Ptrs`]' records.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PtrsLayout {
    /// Bytes per record.
    pub stride: u8,
    /// Byte offset of the pointer in a record.
    pub ptr_off: u8,
    /// What the pointer points to: [`PtrsLayout::STR`] a string of at most
    /// `max` bytes; [`PtrsLayout::FIXED`] `max` bytes; else as many bytes as
    /// the u32 at this byte offset of the record says (at most `max`).
    pub elen_off: u8,
}

impl PtrsLayout {
    /// `elen_off`: a NUL-terminated string.
    pub const STR: u8 = 0xff;
    /// `elen_off`: `max` bytes.
    pub const FIXED: u8 = 0xfe;
}

/// When to capture (`enum genba_cap_when`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum CaptureWhen {
    /// At entry: inputs.
    #[default]
    Enter = 1,
    /// At exit, whatever the result.
    Exit = 2,
    /// At exit, only if the call succeeded.
    ExitOk = 3,
    /// At entry and again at exit (in/out arguments).
    Both = 4,
}

/// One argument's capture plan.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArgCapture {
    /// What to copy.
    pub kind: CaptureKind,
    /// When.
    pub when: CaptureWhen,
    /// Argument holding the length, for the kinds that need one.
    pub len_arg: u8,
    /// Bytes per element when the length counts elements (0 means 1).
    pub mult: u8,
    /// At most this many bytes (per element for arrays).
    pub max: u32,
    /// Capture only when `(args[arg] & mask)` is one of two values (or,
    /// with `bitmap`, one of a set).
    pub cond: Option<CaptureCond>,
    /// Copy from the memory another argument points to (this slot is then
    /// a second view of that argument); `None`: this slot's own argument.
    pub src_arg: Option<u8>,
    /// Copy from the pointer held in this 64-bit word of the source memory
    /// (`len_arg` then names the word holding the length; 0xff: none).
    pub deref: Option<u8>,
    /// With `deref`: the length is the u32 at byte `4 * len_arg` of the
    /// struct rather than its 64-bit word `len_arg`.
    pub len_u32: bool,
    /// [`CaptureKind::Ptrs`]: the records' layout.
    pub ptrs: PtrsLayout,
}

/// A condition on another argument (see [`ArgCapture::cond`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CaptureCond {
    /// The argument tested; with bit 0x80, the address family of the
    /// socket behind that descriptor is (and the capture's `elem` is its
    /// protocol + 1).
    pub arg: u8,
    /// Bits kept before comparing.
    pub mask: u32,
    /// One accepted value.
    pub val: u32,
    /// The other accepted value.
    pub val2: u32,
    /// `val | val2 << 32` is the set of accepted values below 64 (bit v
    /// accepts v) rather than two values.
    pub bitmap: bool,
}

pub(crate) fn spec_bytes(plan: &SyscallPlan) -> Vec<u8> {
    let mut spec = types::genba_syscall_spec {
        flags: u32::from(plan.traced)
            | (u32::from(plan.exit_only) << 1)
            | (u32::from(plan.no_args) << 2)
            | (u32::from(plan.no_stack) << 4)
            | (u32::from(
                plan.args
                    .iter()
                    .any(|a| a.kind != CaptureKind::None && a.when != CaptureWhen::Enter),
            ) << 3),
        ..Default::default()
    };
    // one spec a slot: the C header's count and the plan's are one (a zip
    // of arrays of different lengths would drop slots without a word)
    let _: &[types::genba_arg_spec; crate::CAPTURE_SLOTS] = &spec.args;
    for (dst, a) in spec.args.iter_mut().zip(plan.args.iter()) {
        dst.kind = a.kind as u8;
        dst.when = a.when as u8;
        dst.len_arg = a.len_arg;
        dst.mult = a.mult;
        dst.max = a.max;
        match a.cond {
            Some(c) => {
                dst.cond_arg = c.arg & 0x7f;
                dst.cond_mask = c.mask;
                dst.cond_val = c.val;
                dst.cond_val2 = c.val2;
                // GENBA_COND_SOCK_FAMILY: the socket's family is tested
                dst.cond_bitmap = if c.arg & 0x80 != 0 {
                    2
                } else {
                    u8::from(c.bitmap)
                };
            }
            None => dst.cond_arg = 0xff,
        }
        dst.src_arg = a.src_arg.map_or(0, |n| n + 1);
        dst.deref = a.deref.map_or(0, |n| n + 1);
        dst.len_u32 = u8::from(a.len_u32);
        dst.stride = a.ptrs.stride;
        dst.ptr_off = a.ptrs.ptr_off;
        dst.elen_off = a.ptrs.elen_off;
    }
    as_bytes(&spec).to_vec()
}

fn as_bytes<T: Copy>(v: &T) -> &[u8] {
    // SAFETY: T is a plain repr(C) struct generated from BTF (no padding-sensitive reads).
    unsafe { std::slice::from_raw_parts((v as *const T).cast::<u8>(), std::mem::size_of::<T>()) }
}

const PROFF_NEW: u32 = 8;
pub(crate) const PROFF_OFFCPU: u32 = 16;
pub(crate) const PROFF_FLUSH: u32 = 32;
/// genba.h's GENBA_PROFF_WAKER_*: a blocked sample's waker kind.
const PROFF_WAKER_SHIFT: u32 = 6;

/// The waker kind in a profile record's flags (genba.h's genba_waker_kind).
fn waker_kind(flags: u32) -> WakerKind {
    match (flags >> PROFF_WAKER_SHIFT) & 3 {
        1 => WakerKind::HardIrq,
        2 => WakerKind::SoftIrq,
        3 => WakerKind::Timer,
        _ => WakerKind::Thread,
    }
}

/// A record sent without its unused tail (the stack copy is cut to its
/// length): the struct with the missing bytes zero.
fn read_prefix<T: Copy + Default>(data: &[u8]) -> Option<T> {
    let mut v = T::default();
    let n = data.len().min(std::mem::size_of::<T>());
    if n < std::mem::size_of::<types::genba_hdr>() {
        return None;
    }
    // SAFETY: T is plain old data generated from BTF; n bytes fit in both.
    unsafe {
        std::ptr::copy_nonoverlapping(data.as_ptr(), (&mut v as *mut T).cast::<u8>(), n);
    }
    Some(v)
}

fn read<T: Copy>(data: &[u8], off: usize) -> Option<T> {
    let end = off.checked_add(std::mem::size_of::<T>())?;
    if end > data.len() {
        return None;
    }
    // SAFETY: bounds checked above; T is plain old data generated from BTF.
    Some(unsafe { std::ptr::read_unaligned(data[off..].as_ptr().cast::<T>()) })
}

pub(crate) fn u64_at(data: &[u8], off: usize) -> u64 {
    read::<u64>(data, off).unwrap_or(0)
}

/// Per-syscall figures from the in-kernel summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryRow {
    /// Syscall number.
    pub nr: u32,
    /// Completed calls.
    pub calls: u64,
    /// Calls that returned an error.
    pub errors: u64,
    /// Time inside the calls, summed.
    pub total_ns: u64,
    /// Shortest call (0 when none was timed).
    pub min_ns: u64,
    /// Longest call.
    pub max_ns: u64,
    /// log2 latency histogram.
    pub hist: [u64; HIST_BUCKETS],
}

impl Default for SummaryRow {
    fn default() -> Self {
        SummaryRow {
            nr: 0,
            calls: 0,
            errors: 0,
            total_ns: 0,
            min_ns: 0,
            max_ns: 0,
            hist: [0; HIST_BUCKETS],
        }
    }
}

impl SummaryRow {
    /// Adds another CPU's figures.
    pub fn merge(&mut self, o: &SummaryRow) {
        self.calls += o.calls;
        self.errors += o.errors;
        self.total_ns += o.total_ns;
        if o.min_ns != 0 && (self.min_ns == 0 || o.min_ns < self.min_ns) {
            self.min_ns = o.min_ns;
        }
        self.max_ns = self.max_ns.max(o.max_ns);
        for (a, b) in self.hist.iter_mut().zip(o.hist.iter()) {
            *a += b;
        }
    }
}

pub(crate) fn parse_sum(data: &[u8]) -> SummaryRow {
    let Some(s) = read::<types::genba_sum>(data, 0) else {
        return SummaryRow::default();
    };
    let mut hist = [0u64; HIST_BUCKETS];
    hist.copy_from_slice(&s.hist[..HIST_BUCKETS]);
    SummaryRow {
        nr: 0,
        calls: s.calls,
        errors: s.errors,
        total_ns: s.total_ns,
        min_ns: s.min_ns,
        max_ns: s.max_ns,
        hist,
    }
}

fn parse_caps(data: &[u8], mut off: usize, n: u32) -> Option<Vec<Capture>> {
    let mut caps = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let c: types::genba_cap = read(data, off)?;
        off += std::mem::size_of::<types::genba_cap>();
        let len = c.len as usize;
        let bytes = data.get(off..off + len)?.to_vec();
        off += (len + 7) & !7;
        let item = match c.kind {
            1 => CaptureItem::Data,
            2 => CaptureItem::Elem,
            3 => CaptureItem::Count,
            4 => CaptureItem::Msghdr,
            5 => CaptureItem::Name,
            6 => CaptureItem::FdIno,
            7 => CaptureItem::Regs,
            8 => CaptureItem::UserStack,
            9 => CaptureItem::KernelStack,
            _ => return None,
        };
        caps.push(Capture {
            arg: c.arg,
            item,
            elem: c.elem,
            fault: c.flags & 1 != 0,
            truncated: c.flags & 2 != 0,
            more: c.flags & 4 != 0,
            aux: c.aux,
            data: bytes,
        });
    }
    Some(caps)
}

/// A profile record (sent, or read from a thread's slot) as a sample.
pub(crate) fn prof_sample(r: &types::genba_prof, task: Task, ustack: &[u8]) -> ProfSample {
    let klen = (r.kstack_len as usize / 8).min(r.kstack.len());
    ProfSample {
        ts: r.hdr.ts,
        task,
        class: r.cls,
        off_cpu: r.flags & PROFF_OFFCPU != 0,
        new_thread: r.flags & PROFF_NEW != 0,
        w_block: r.w_block,
        w_runq: r.w_runq,
        sysnr: r.sysnr,
        regs: [r.ip, r.sp, r.bp],
        kstack: r.kstack[..klen]
            .iter()
            .copied()
            .filter(|&a| a != 0)
            .collect(),
        ustack: ustack.to_vec(),
        flush: r.flags & PROFF_FLUSH != 0,
        out_ts: r.out_ts,
        wake_ts: r.wake_ts,
        waking_ts: r.waking_ts,
        waker_tid: r.waker_tid,
        waker_kind: waker_kind(r.flags),
        comm: {
            let b: Vec<u8> = r
                .comm
                .iter()
                .map(|&c| c as u8)
                .take_while(|&c| c != 0)
                .collect();
            String::from_utf8_lossy(&b).into_owned()
        },
    }
}

/// A thread's profiling slot, read back from the map.
pub(crate) fn parse_slot(data: &[u8]) -> Option<types::genba_prof_slot> {
    read_prefix(data)
}

/// The bytes of a slot, to write into the map.
pub(crate) fn slot_bytes(s: &types::genba_prof_slot) -> Vec<u8> {
    as_bytes(s).to_vec()
}

/// Turns one ring-buffer record into an event; `None` for a malformed record.
pub(crate) fn parse_record(data: &[u8]) -> Option<Event> {
    let h: types::genba_hdr = read(data, 0)?;
    let task = Task {
        tid: h.tid,
        tgid: h.tgid,
    };
    Some(match h.r#type {
        REC_SYS_ENTER => {
            let r: types::genba_sys_enter = read(data, 0)?;
            let captures = parse_caps(data, std::mem::size_of_val(&r), r.ncaps)?;
            Event::SyscallEnter(SyscallEnter {
                ts: h.ts,
                task,
                nr: r.nr,
                args: r.args,
                captures,
            })
        }
        REC_SYS_EXIT => {
            let r: types::genba_sys_exit = read(data, 0)?;
            let captures = parse_caps(data, std::mem::size_of_val(&r), r.ncaps)?;
            Event::SyscallExit(SyscallExit {
                ts: h.ts,
                task,
                nr: r.nr,
                ret: r.ret,
                enter_ts: (r.enter_ts != 0).then_some(r.enter_ts),
                off_cpu_ns: r.off_cpu_ns,
                args: r.args,
                captures,
                inject: h.pad,
            })
        }
        REC_FORK => {
            let r: types::genba_fork = read(data, 0)?;
            Event::Fork {
                ts: h.ts,
                task,
                child: Task {
                    tid: r.child_tid,
                    tgid: r.child_tgid,
                },
            }
        }
        REC_EXIT => {
            let r: types::genba_exit = read(data, 0)?;
            let comm: Vec<u8> = r
                .comm
                .iter()
                .map(|&c| c as u8)
                .take_while(|&c| c != 0)
                .collect();
            Event::Exit {
                ts: h.ts,
                task,
                status: r.exit_code,
                comm: String::from_utf8_lossy(&comm).into_owned(),
                last: r.group_dead & EXIT_GROUP_DEAD != 0,
                group_exit: r.group_dead & EXIT_GROUP_EXIT != 0,
            }
        }
        REC_EXEC => {
            let r: types::genba_exec = read(data, 0)?;
            let auxv = r
                .auxv
                .chunks_exact(2)
                .map(|p| (p[0], p[1]))
                .take_while(|p| p.0 != 0)
                .collect();
            Event::Exec {
                ts: h.ts,
                task,
                old_tid: r.old_tid,
                auxv,
            }
        }
        REC_SIGNAL => {
            let r: types::genba_signal = read(data, 0)?;
            Event::Signal {
                ts: h.ts,
                task,
                sig: r.sig,
                siginfo: r.siginfo,
                stops: r.stops != 0,
            }
        }
        REC_PROF => {
            let r: types::genba_prof = read_prefix(data)?;
            let ustack_off = std::mem::offset_of!(types::genba_prof, ustack);
            let ulen = (r.ustack_len as usize).min(r.ustack.len());
            let ustack = data.get(ustack_off..ustack_off + ulen)?;
            Event::Profile(Box::new(prof_sample(&r, task, ustack)))
        }
        _ => return None,
    })
}
