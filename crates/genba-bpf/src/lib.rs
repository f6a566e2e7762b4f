//! genba's eBPF collector: loads the BPF programs, tells them what to trace,
//! and turns their ring-buffer records into [`genba_events::Event`]s.
//!
//! The record layout is defined once, in `src/bpf/genba.h`; the Rust side of
//! that layout comes from the skeleton's BTF-generated types (see [`wire`]), so
//! the two cannot drift apart without a compile or test failure.
#![deny(missing_docs)]

mod skel {
    #![allow(missing_docs, clippy::all, non_camel_case_types, non_snake_case)]
    include!(concat!(env!("OUT_DIR"), "/trace.skel.rs"));
}
mod floor_skel {
    #![allow(missing_docs, clippy::all, non_camel_case_types, non_snake_case)]
    include!(concat!(env!("OUT_DIR"), "/floor.skel.rs"));
}
pub mod wire;

use std::cell::RefCell;
use std::mem::MaybeUninit;
use std::os::fd::AsFd;
use std::rc::Rc;
use std::time::Duration;

use genba_events::{CollectorStats, Event, ProfSample};
use libbpf_rs::skel::{OpenSkel, SkelBuilder};
use libbpf_rs::{MapCore, MapFlags};

pub use wire::{ArgCapture, CaptureCond, CaptureKind, CaptureWhen, PtrsLayout, SummaryRow};

/// Errors of the collector.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The kernel refused to load or attach a BPF program.
    #[error("cannot load BPF programs: {0}")]
    Load(String),
    /// A map operation failed.
    #[error("BPF map {map}: {err}")]
    Map {
        /// Which map.
        map: &'static str,
        /// What went wrong.
        err: String,
    },
    /// Polling the ring buffer failed.
    #[error("reading events: {0}")]
    Poll(String),
}

type Result<T> = std::result::Result<T, Error>;

/// How to set the tracer up.
#[derive(Debug, Clone)]
pub struct TraceConfig {
    /// Trace tasks created by traced tasks (`-f`).
    pub follow_forks: bool,
    /// Trace every task on the system (`-a`), but genba's own process.
    pub all_tasks: bool,
    /// Send one record per syscall entry and exit to user space.
    pub records: bool,
    /// Keep per-syscall counts, times and histograms in the kernel (`-c`).
    pub summary: bool,
    /// Summaries count CPU time inside calls (strace's default) rather than
    /// wall-clock time between entry and exit (`-w`).
    pub summary_cpu: bool,
    /// Also keep summaries per task: by process (tgid) or thread (tid).
    pub summary_by: SummaryBy,
    /// Bytes of user stack copied at each syscall entry, with the registers
    /// (0: none). For unwinding in user space (`--source`, `-k`).
    pub ustack_bytes: u32,
    /// Also the kernel stack (`-kk`).
    pub kstack: bool,
    /// Ring buffer size in bytes (a power of two, at least a page).
    pub buffer_bytes: u32,
    /// Profile the traced tasks (`genba profile`): on-CPU samples from perf
    /// events opened with [`Tracer::sample_cpu`], blocked samples from the
    /// scheduler tracepoints.
    pub profile: Option<ProfileConfig>,
    /// `-e inject=`: genba's seccomp listener acts on some calls and says
    /// which through [`Tracer::inject_marks`].
    pub inject: bool,
    /// `-e inject=...:poke_exit=`: memory written as calls return (see
    /// [`Tracer::pokes`]).
    pub poke_exit: bool,
    /// ioctl requests and the bytes of their argument to copy (see
    /// [`CaptureKind::Ioc`]): those that do not encode their size, or
    /// whose decoder wants more than the size encoded. The low 16 bits are
    /// the bytes to copy; the high 16 bits, when larger, the bytes to copy
    /// instead when all of them are readable.
    pub ioctl_sizes: Vec<(u32, u32)>,
    /// Read the clock at each call's entry and exit. Without it (a text
    /// trace that shows no time: no -t, -r, -T, -c), the records carry no
    /// times, and a call costs two clock reads less.
    pub timed: bool,
}

/// How to profile.
#[derive(Debug, Clone, Copy)]
pub struct ProfileConfig {
    /// The sampling period in ns (1e9 / frequency), on and off the CPU.
    pub period_ns: u64,
    /// Bytes of user stack copied per sample (at most 8192).
    pub ustack_bytes: u32,
    /// Per-thread slots (a power of two); threads whose tids are equal
    /// modulo this share one, and their collisions are counted.
    pub slots: u32,
    /// Every task on the system (`-a`), not only the traced ones.
    pub all_tasks: bool,
    /// Send every off-CPU interval with its exact times and waker (a
    /// recording), not only those that carry sampling weight.
    pub exact: bool,
    /// `genba causal`: the shared page's map (causal.h), made by the caller
    /// before the program was forked so that the program inherits it. The
    /// delay bookkeeping runs beside the profile's (needs `exact`).
    pub causal: Option<std::os::fd::RawFd>,
}

/// The kinds of interrupt whose entry and exit tracepoints
/// [`IRQ_TRACEPOINTS`] name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum IrqKind {
    Hard,
    Soft,
    Timer,
}

/// The tracepoints around interrupt handlers (entry, exit), by kind: device
/// handlers, the x86 system vectors that have tracepoints (the local timer,
/// IPIs, irq_work, ...), softirqs, and timer callbacks (which run inside a
/// hardirq or a softirq, and name the wakeups they make more precisely).
const IRQ_TRACEPOINTS: &[(IrqKind, &str, &str)] = &[
    (IrqKind::Hard, "irq_handler_entry", "irq_handler_exit"),
    (IrqKind::Hard, "local_timer_entry", "local_timer_exit"),
    (IrqKind::Hard, "call_function_entry", "call_function_exit"),
    (
        IrqKind::Hard,
        "call_function_single_entry",
        "call_function_single_exit",
    ),
    (IrqKind::Hard, "reschedule_entry", "reschedule_exit"),
    (IrqKind::Hard, "irq_work_entry", "irq_work_exit"),
    (
        IrqKind::Hard,
        "x86_platform_ipi_entry",
        "x86_platform_ipi_exit",
    ),
    (IrqKind::Hard, "spurious_apic_entry", "spurious_apic_exit"),
    (IrqKind::Hard, "error_apic_entry", "error_apic_exit"),
    (IrqKind::Hard, "thermal_apic_entry", "thermal_apic_exit"),
    (IrqKind::Hard, "threshold_apic_entry", "threshold_apic_exit"),
    (
        IrqKind::Hard,
        "deferred_error_apic_entry",
        "deferred_error_apic_exit",
    ),
    (IrqKind::Soft, "softirq_entry", "softirq_exit"),
    (
        IrqKind::Timer,
        "hrtimer_expire_entry",
        "hrtimer_expire_exit",
    ),
    (IrqKind::Timer, "timer_expire_entry", "timer_expire_exit"),
];

/// What an interrupt-nesting program handles.
#[derive(Clone, Copy, PartialEq, Eq)]
enum IrqRole {
    Entry(IrqKind),
    Exit(IrqKind),
    /// A softirq raised (by whom).
    SoftRaise,
}

/// The interrupt-nesting programs (irq.bpf.inc), listed once: (name, role,
/// program) of skeleton programs `$p`, borrowed as `$r` (`&` or `&mut`).
macro_rules! irq_progs {
    ($p:expr, $($r:tt)+) => {
        [
            ("irq_hard_entry", IrqRole::Entry(IrqKind::Hard), $($r)+ $p.irq_hard_entry),
            ("irq_hard_exit", IrqRole::Exit(IrqKind::Hard), $($r)+ $p.irq_hard_exit),
            ("irq_soft_raise", IrqRole::SoftRaise, $($r)+ $p.irq_soft_raise),
            ("irq_soft_entry", IrqRole::Entry(IrqKind::Soft), $($r)+ $p.irq_soft_entry),
            ("irq_soft_exit", IrqRole::Exit(IrqKind::Soft), $($r)+ $p.irq_soft_exit),
            ("irq_timer_entry", IrqRole::Entry(IrqKind::Timer), $($r)+ $p.irq_timer_entry),
            ("irq_timer_exit", IrqRole::Exit(IrqKind::Timer), $($r)+ $p.irq_timer_exit),
        ]
    };
}

/// Whether the interrupt-nesting programs load (a recording only).
fn irq_autoload(p: &mut skel::OpenTraceProgs<'_>, on: bool) {
    for (_, _, prog) in irq_progs!(p, &mut) {
        prog.set_autoload(on);
    }
}

/// A thread already waiting when profiling starts (`-p`), as /proc shows it.
#[derive(Debug, Clone)]
pub struct WaitingThread {
    /// Thread and process.
    pub tid: u32,
    /// Its process.
    pub tgid: u32,
    /// From when its wait is counted (CLOCK_MONOTONIC ns).
    pub since: u64,
    /// Its class (genba.h's genba_prof_class).
    pub class: u32,
    /// The system call it waits in (-1: none).
    pub sysnr: i32,
    /// User ip, sp, bp.
    pub regs: [u64; 3],
    /// Its user stack from sp up.
    pub ustack: Vec<u8>,
    /// The phase its off-CPU time starts with (ns into a period).
    pub phase_ns: u64,
}

/// A thread's profiling slot, read back (see [`Tracer::prof_slots`]).
#[derive(Debug, Clone)]
pub struct ProfSlot {
    /// The facts and stacks of its last switch-out (thread and process ids,
    /// class, syscall, stacks).
    pub sample: ProfSample,
    /// Off the CPU now: an interval from `out_ts` is open.
    pub open: bool,
    /// When it left the CPU.
    pub out_ts: u64,
    /// When it was woken (0: not yet).
    pub wake_ts: u64,
    /// Off-CPU ns carried towards the next blocked sample.
    pub acc: u64,
    /// When it came on the CPU (0: off).
    pub in_ts: u64,
    /// The time up to which its CPU time is counted in `on_acc`.
    pub on_last: u64,
    /// CPU ns not yet sent.
    pub on_acc: u64,
}

/// The process of thread `tid`, from /proc (None: gone).
fn proc_tgid(tid: u32) -> Option<u32> {
    let status = std::fs::read_to_string(format!("/proc/{tid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Tgid:"))
        .and_then(|v| v.trim().parse().ok())
}

/// The CPUs online now (`/sys/devices/system/cpu/online`: `0-3,6`).
pub fn online_cpus() -> Vec<i32> {
    let text = std::fs::read_to_string("/sys/devices/system/cpu/online").unwrap_or_default();
    let mut cpus = Vec::new();
    for part in text.trim().split(',').filter(|p| !p.is_empty()) {
        let mut ends = part.splitn(2, '-').map(|x| x.trim().parse::<i32>());
        match (ends.next(), ends.next()) {
            (Some(Ok(a)), Some(Ok(b))) => cpus.extend(a..=b),
            (Some(Ok(a)), None) => cpus.push(a),
            _ => {}
        }
    }
    if cpus.is_empty() {
        cpus.push(0);
    }
    cpus
}

impl Default for TraceConfig {
    fn default() -> Self {
        TraceConfig {
            follow_forks: false,
            all_tasks: false,
            records: true,
            summary: false,
            summary_cpu: false,
            summary_by: SummaryBy::Syscall,
            ustack_bytes: 0,
            kstack: false,
            buffer_bytes: 1 << 23,
            profile: None,
            inject: false,
            poke_exit: false,
            ioctl_sizes: Vec::new(),
            timed: true,
        }
    }
}

/// The calls genba's seccomp listener acted on (`-e inject=`), told to the
/// collector before the listener answers each: a call that does not run
/// (an error or a return value injected) has no entry, and its exit then
/// takes the entry's time and copies from here.
pub struct InjectMarks(libbpf_rs::MapHandle);

impl InjectMarks {
    /// Marks `tid`'s call `nr`, stopped at `ts` (CLOCK_MONOTONIC ns), with
    /// `genba_events::INJ_*` flags and a signal (0: none) for the
    /// collector to send the thread as the call enters (or returns, if it
    /// does not run).
    pub fn mark(&self, tid: u32, nr: u32, flags: u32, signal: u8, ts: u64) -> Result<()> {
        let flags = flags & 0xff | (signal as u32) << 8;
        let mut v = [0u8; 16];
        v[0..4].copy_from_slice(&nr.to_ne_bytes());
        v[4..8].copy_from_slice(&flags.to_ne_bytes());
        v[8..16].copy_from_slice(&ts.to_ne_bytes());
        self.0
            .update(&tid.to_ne_bytes(), &v, MapFlags::ANY)
            .map_err(map_err("injected"))
    }
}

/// `-e inject=...:poke_exit=`: the data to write over a thread's memory as
/// its call returns (the BPF program `poke_exit`, before the call's exit is
/// copied).
pub struct Pokes(libbpf_rs::MapHandle);

/// At most this many pieces of memory a call, of at most
/// [`POKE_BYTES`] each, are written at its exit.
pub const POKES: usize = 4;
/// The longest piece `poke_exit=` writes.
pub const POKE_BYTES: usize = 256;

impl Pokes {
    /// Leaves `pieces` (address, bytes) for `tid`'s call `nr` in progress.
    pub fn set(&self, tid: u32, nr: u32, pieces: &[(u64, &[u8])]) -> Result<()> {
        // struct genba_poke: n, nr, addr[], len[], data[][]
        let mut v = vec![0u8; 8 + POKES * 8 + POKES * 4 + POKES * POKE_BYTES];
        let n = pieces.len().min(POKES);
        v[0..4].copy_from_slice(&(n as u32).to_ne_bytes());
        v[4..8].copy_from_slice(&nr.to_ne_bytes());
        for (i, (addr, data)) in pieces.iter().take(POKES).enumerate() {
            let len = data.len().min(POKE_BYTES);
            let a = 8 + i * 8;
            v[a..a + 8].copy_from_slice(&addr.to_ne_bytes());
            let l = 8 + POKES * 8 + i * 4;
            v[l..l + 4].copy_from_slice(&(len as u32).to_ne_bytes());
            let d = 8 + POKES * 12 + i * POKE_BYTES;
            v[d..d + len].copy_from_slice(&data[..len]);
        }
        self.0
            .update(&tid.to_ne_bytes(), &v, MapFlags::ANY)
            .map_err(map_err("pokes"))
    }
}

/// How far summaries are broken down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SummaryBy {
    /// One row per syscall (strace -c).
    #[default]
    Syscall,
    /// Also one table per process.
    Process,
    /// Also one table per thread.
    Thread,
}

/// Entries of the per-task summary map (tasks x syscalls used).
pub const TASK_SUMMARY_ENTRIES: u32 = 1 << 14;

/// What to capture for one syscall and whether it is traced at all.
#[derive(Debug, Clone, Copy, Default)]
pub struct SyscallPlan {
    /// Selected by the trace filter; untraced calls cost only the filter lookup.
    pub traced: bool,
    /// Send only the exit record (nothing to copy at entry, never blocks).
    pub exit_only: bool,
    /// The call takes no arguments.
    pub no_args: bool,
    /// Traced only for genba's own bookkeeping (what a process maps): no
    /// user stack is copied for it, whatever `ustack_bytes` says.
    pub no_stack: bool,
    /// What to copy for each argument, and four more slots for memory that
    /// pointers inside the arguments' structures point to.
    pub args: [ArgCapture; CAPTURE_SLOTS],
}

/// Capture slots per call (genba.h's GENBA_NSLOTS).
pub const CAPTURE_SLOTS: usize = 10;

/// Records taken from the ring buffer per poll.
const POLL_BATCH: usize = 8192;

/// Highest syscall number + 1 the tracer has plan slots for.
pub const MAX_SYSCALLS: u32 = 512;

/// Where a progress point's uprobe goes in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeAt {
    /// A function's entry, by its symbol.
    Function(String),
    /// A file offset (a source line's first instruction).
    Offset(u64),
    /// A statically defined tracing point's file offset, and its
    /// semaphore's (raised by the kernel while the uprobe is there).
    Sdt(u64, Option<u64>),
}

/// A latency progress point's calls in progress at once, at most (all
/// threads; beyond, the oldest are forgotten).
const CAUSAL_CALLS: u32 = 16384;

/// The loaded, attached syscall tracer.
pub struct Tracer {
    skel: &'static skel::TraceSkel<'static>,
    ring: Option<libbpf_rs::RingBuffer<'static>>,
    queue: Rc<RefCell<Vec<Event>>>,
    decode_errors: Rc<RefCell<u64>>,
    received: Rc<RefCell<u64>>,
    cpu_time: bool,
    profile: bool,
    /// A recording: exact intervals and wakers (sched_waking attached).
    exact: bool,
    /// `poke_exit` is loaded (`-e inject=...:poke_exit=`).
    poke_exit: bool,
    _links: Vec<libbpf_rs::Link>,
    prof_links: Vec<libbpf_rs::Link>,
}

fn read_u32_file(path: &str) -> Option<u32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

fn map_err(map: &'static str) -> impl Fn(libbpf_rs::Error) -> Error {
    move |e| Error::Map {
        map,
        err: e.to_string(),
    }
}

impl Tracer {
    /// Loads the programs (not yet attached: add tasks and plans first).
    ///
    /// The skeleton lives for the rest of the process: genba runs one tracer
    /// per invocation, and the ring buffer's callbacks borrow it.
    pub fn load(cfg: &TraceConfig, plans: &[SyscallPlan]) -> Result<Tracer> {
        let storage: &'static mut MaybeUninit<libbpf_rs::OpenObject> =
            Box::leak(Box::new(MaybeUninit::uninit()));
        let builder = skel::TraceSkelBuilder::default();
        let mut open = builder
            .open(storage)
            .map_err(|e| Error::Load(e.to_string()))?;

        let pid_max = read_u32_file("/proc/sys/kernel/pid_max")
            .unwrap_or(1 << 22)
            .max(1024);
        let slots = pid_max.next_power_of_two().min(1 << 16);
        let ncpus = libbpf_rs::num_possible_cpus().map_err(|e| Error::Load(e.to_string()))? as u32;
        let ro = open
            .maps
            .rodata_data
            .as_deref_mut()
            .ok_or_else(|| Error::Load("no rodata".into()))?;
        ro.follow_forks = cfg.follow_forks as u32;
        ro.trace_all = cfg.all_tasks as u32;
        ro.self_tgid = std::process::id();
        ro.emit_records = cfg.records as u32;
        ro.keep_summary = cfg.summary as u32;
        ro.summary_cpu = (cfg.summary && cfg.summary_cpu) as u32;
        ro.ustack_bytes = cfg.ustack_bytes.next_multiple_of(512).min(16384);
        ro.kstack = cfg.kstack as u32;
        ro.summary_by = match (cfg.summary, cfg.summary_by) {
            (true, SummaryBy::Process) => 1,
            (true, SummaryBy::Thread) => 2,
            _ => 0,
        };
        if ro.summary_by != 0 {
            open.maps
                .task_sums
                .set_max_entries(TASK_SUMMARY_ENTRIES)
                .map_err(map_err("task_sums"))?;
        }
        ro.inflight_mask = slots - 1;
        ro.inject_on = cfg.inject as u32;
        open.progs.poke_exit.set_autoload(cfg.poke_exit);
        if !cfg.poke_exit {
            // no memory for what no program reads
            open.maps
                .pokes
                .set_max_entries(1)
                .map_err(map_err("pokes"))?;
        }
        match &cfg.profile {
            Some(p) => {
                ro.prof_period = p.period_ns.max(10_000);
                ro.prof_ustack = p.ustack_bytes.next_multiple_of(512).clamp(512, 8192);
                let n = p.slots.next_power_of_two().clamp(16, 1 << 16);
                ro.prof_slot_mask = n - 1;
                ro.prof_all = p.all_tasks as u32;
                ro.prof_exact = p.exact as u32;
                if let Some(fd) = p.causal {
                    ro.causal_on = 1;
                    // SAFETY: the caller keeps the map's descriptor open for
                    // the whole run; libbpf dups it
                    let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
                    open.maps.causal.reuse_fd(fd).map_err(map_err("causal"))?;
                    open.maps
                        .causal_entries
                        .set_max_entries(CAUSAL_CALLS)
                        .map_err(map_err("causal_entries"))?;
                } else {
                    open.progs.causal_progress.set_autoload(false);
                    open.progs.causal_enter.set_autoload(false);
                    open.progs.causal_return.set_autoload(false);
                }
                if !p.exact {
                    // the waker is only recorded: no program on every
                    // wakeup, nor on every interrupt
                    open.progs.prof_waking.set_autoload(false);
                    irq_autoload(&mut open.progs, false);
                }
                open.maps
                    .prof_slots
                    .set_max_entries(n)
                    .map_err(map_err("prof_slots"))?;
            }
            None => {
                let p = &mut open.progs;
                for prog in [
                    &mut p.prof_sample,
                    &mut p.prof_switch,
                    &mut p.prof_wakeup,
                    &mut p.prof_waking,
                    &mut p.prof_wakeup_new,
                    &mut p.prof_lock_begin,
                    &mut p.prof_lock_end,
                    &mut p.prof_exit,
                    &mut p.causal_progress,
                    &mut p.causal_enter,
                    &mut p.causal_return,
                ] {
                    prog.set_autoload(false);
                }
                irq_autoload(p, false);
            }
        }
        ro.wakeup_bytes = u64::from(cfg.buffer_bytes / 4);
        // the summaries, the profile and -e inject='s delays need times
        ro.timed = u32::from(cfg.timed || cfg.summary || cfg.profile.is_some() || cfg.inject);
        open.maps
            .tasks
            .set_max_entries(pid_max + 1)
            .map_err(map_err("tasks"))?;
        open.maps
            .pending_sigs
            .set_max_entries(slots)
            .map_err(map_err("pending_sigs"))?;
        open.maps
            .inflight
            .set_max_entries(slots)
            .map_err(map_err("inflight"))?;
        open.maps
            .scratch
            .set_max_entries(ncpus)
            .map_err(map_err("scratch"))?;
        open.maps
            .events
            .set_max_entries(cfg.buffer_bytes)
            .map_err(map_err("events"))?;
        if !cfg.records {
            // No records: the scratch area and ring buffer stay minimal.
            open.maps
                .scratch
                .set_max_entries(1)
                .map_err(map_err("scratch"))?;
            open.maps
                .events
                .set_max_entries(4096)
                .map_err(map_err("events"))?;
        }
        let skel = open.load().map_err(|e| {
            if cfg.poke_exit && WRITE_USER_REFUSED.load(std::sync::atomic::Ordering::Relaxed) {
                // the one program that writes user memory: a kernel in
                // lockdown (integrity) refuses bpf_probe_write_user
                Error::Load(format!(
                    "-e inject=...:poke_exit= needs a BPF program that writes the program's \
                     memory (bpf_probe_write_user), which this kernel refused ({e}; a kernel \
                     in lockdown refuses it); poke_enter= works without it"
                ))
            } else {
                Error::Load(e.to_string())
            }
        })?;
        let skel: &'static skel::TraceSkel<'static> = Box::leak(Box::new(skel));

        for nr in 0..MAX_SYSCALLS {
            let plan = plans.get(nr as usize).copied().unwrap_or(SyscallPlan {
                traced: true,
                ..Default::default()
            });
            let spec = wire::spec_bytes(&plan);
            skel.maps
                .specs
                .update(&nr.to_ne_bytes(), &spec, MapFlags::ANY)
                .map_err(map_err("specs"))?;
        }
        for &(req, size) in cfg.ioctl_sizes.iter().take(1024) {
            skel.maps
                .ioc_sizes
                .update(&req.to_ne_bytes(), &size.to_ne_bytes(), MapFlags::ANY)
                .map_err(map_err("ioc_sizes"))?;
        }

        Ok(Tracer {
            skel,
            ring: None,
            queue: Rc::new(RefCell::new(Vec::new())),
            decode_errors: Rc::new(RefCell::new(0)),
            received: Rc::new(RefCell::new(0)),
            cpu_time: cfg.summary && cfg.summary_cpu,
            profile: cfg.profile.is_some(),
            exact: cfg.profile.as_ref().is_some_and(|p| p.exact),
            poke_exit: cfg.poke_exit,
            _links: Vec::new(),
            prof_links: Vec::new(),
        })
    }

    /// Starts tracing `tid`. With `wait_exec` its calls are ignored until it
    /// calls execve (used for the program genba launches itself).
    pub fn add_task(&self, tid: u32, wait_exec: bool) -> Result<()> {
        let v: u32 = if wait_exec {
            wire::TASK_WAIT_EXEC
        } else {
            wire::TASK_TRACED
        };
        self.skel
            .maps
            .tasks
            .update(&tid.to_ne_bytes(), &v.to_ne_bytes(), MapFlags::ANY)
            .map_err(map_err("tasks"))
    }

    /// Where genba's seccomp listener leaves `poke_exit=`'s data; usable
    /// from the listener's thread.
    pub fn pokes(&self) -> Result<Pokes> {
        libbpf_rs::MapHandle::try_from(&self.skel.maps.pokes)
            .map(Pokes)
            .map_err(map_err("pokes"))
    }

    /// The map of calls genba's seccomp listener acted on
    /// (`-e inject=`); usable from the listener's thread.
    pub fn inject_marks(&self) -> Result<InjectMarks> {
        libbpf_rs::MapHandle::try_from(&self.skel.maps.injected)
            .map(InjectMarks)
            .map_err(map_err("injected"))
    }

    /// Stops tracing `tid`.
    pub fn remove_task(&self, tid: u32) -> Result<()> {
        self.skel
            .maps
            .tasks
            .update(&tid.to_ne_bytes(), &0u32.to_ne_bytes(), MapFlags::ANY)
            .map_err(map_err("tasks"))
    }

    /// Attaches every program; events flow from now on.
    pub fn attach(&mut self) -> Result<()> {
        let p = &self.skel.progs;
        // the tasks' lives first, their calls last: a task whose calls
        // are recorded has its exit recorded too (with -a, a task ending
        // while genba attaches is then named by its exit)
        let progs = [
            (&p.sched_fork, "sched_process_fork"),
            (&p.sched_exit, "sched_process_exit"),
            (&p.sched_exec, "sched_process_exec"),
            (&p.signal_deliver, "signal_deliver"),
            (&p.signal_generate, "signal_generate"),
        ];
        for (prog, tp) in progs {
            let link = prog
                .attach_raw_tracepoint(tp)
                .map_err(|e| Error::Load(format!("attaching {tp}: {e}")))?;
            self._links.push(link);
        }
        // poke_exit before sys_exit (programs on a tracepoint run in the
        // order they were attached), so that sys_exit copies what it wrote
        if self.poke_exit {
            let link = p
                .poke_exit
                .attach_raw_tracepoint("sys_exit")
                .map_err(|e| Error::Load(format!("attaching poke_exit: {e}")))?;
            self._links.push(link);
        }
        // tp_btf programs: their tracepoint was named at load
        for (prog, tp) in [(&p.sys_enter, "sys_enter"), (&p.sys_exit, "sys_exit")] {
            let link = prog
                .attach_trace()
                .map_err(|e| Error::Load(format!("attaching {tp}: {e}")))?;
            self._links.push(link);
        }
        if self.cpu_time {
            let link = p
                .sched_switch
                .attach_raw_tracepoint("sched_switch")
                .map_err(|e| Error::Load(format!("attaching sched_switch: {e}")))?;
            self._links.push(link);
        }
        if self.profile {
            for (prog, tp) in [
                (&p.prof_switch, "sched_switch"),
                (&p.prof_wakeup, "sched_wakeup"),
                (&p.prof_wakeup_new, "sched_wakeup_new"),
                (&p.prof_exit, "sched_process_exit"),
            ] {
                let link = prog
                    .attach_raw_tracepoint(tp)
                    .map_err(|e| Error::Load(format!("attaching {tp}: {e}")))?;
                self.prof_links.push(link);
            }
            if self.exact {
                let link = p
                    .prof_waking
                    .attach_raw_tracepoint("sched_waking")
                    .map_err(|e| Error::Load(format!("attaching sched_waking: {e}")))?;
                self.prof_links.push(link);
                self.attach_irq_nesting();
            }
            // kernel-lock contention sharpens [L]; kernels without the
            // lock tracepoints still get futex waits as [L]
            for (prog, tp) in [
                (&p.prof_lock_begin, "contention_begin"),
                (&p.prof_lock_end, "contention_end"),
            ] {
                if let Ok(link) = prog.attach_raw_tracepoint(tp) {
                    self.prof_links.push(link);
                }
            }
        }
        let queue = self.queue.clone();
        let errors = self.decode_errors.clone();
        let received = self.received.clone();
        let mut b = libbpf_rs::RingBufferBuilder::new();
        b.add(&self.skel.maps.events, move |data: &[u8]| {
            match wire::parse_record(data) {
                Some(ev) => {
                    *received.borrow_mut() += 1;
                    queue.borrow_mut().push(ev)
                }
                None => *errors.borrow_mut() += 1,
            }
            0
        })
        .map_err(|e| Error::Load(e.to_string()))?;
        self.ring = Some(b.build().map_err(|e| Error::Load(e.to_string()))?);
        Ok(())
    }

    /// A recording: the programs that keep each CPU's interrupt nesting
    /// (irq.bpf.inc), so that a wakeup made from an interrupt is not
    /// credited to the task it landed on. Each exit is attached before its
    /// entry (an entry without its exit would leave the CPU "in an
    /// interrupt"); a tracepoint this kernel does not have is left out, and
    /// its interrupts' wakeups are credited to the task as before. Returns
    /// how many pairs are attached.
    fn attach_irq_nesting(&mut self) -> usize {
        let p = &self.skel.progs;
        let progs = irq_progs!(p, &);
        let prog = |role| {
            progs
                .iter()
                .find(|(_, r, _)| *r == role)
                .map(|(_, _, prog)| *prog)
        };
        let mut pairs = 0;
        for &(kind, entry, exit) in IRQ_TRACEPOINTS {
            let (Some(enter_prog), Some(exit_prog)) =
                (prog(IrqRole::Entry(kind)), prog(IrqRole::Exit(kind)))
            else {
                continue;
            };
            let Ok(out) = exit_prog.attach_raw_tracepoint(exit) else {
                continue;
            };
            let Ok(inn) = enter_prog.attach_raw_tracepoint(entry) else {
                continue;
            };
            self.prof_links.push(out);
            self.prof_links.push(inn);
            pairs += 1;
        }
        // who raised each softirq: without it, every softirq is taken as
        // an interrupt's (a send over loopback too)
        if let Some(Ok(link)) =
            prog(IrqRole::SoftRaise).map(|r| r.attach_raw_tracepoint("softirq_raise"))
        {
            self.prof_links.push(link);
        }
        pairs
    }

    /// Samples every task on `cpu` (cpu-clock); the BPF side keeps the
    /// traced ones.
    pub fn sample_cpu(&mut self, cpu: i32, period_ns: u64) -> Result<()> {
        use libbpf_rs::libbpf_sys::perf_event_attr;
        let (pid, config, period) = (-1i32, 0u64 /* PERF_COUNT_SW_CPU_CLOCK */, period_ns);
        // SAFETY: perf_event_attr is plain data; all-zero is its valid default.
        let mut attr: perf_event_attr = unsafe { std::mem::zeroed() };
        attr.type_ = 1; // PERF_TYPE_SOFTWARE
        attr.size = std::mem::size_of::<perf_event_attr>() as u32;
        attr.config = config;
        attr.__bindgen_anon_1.sample_period = period.max(10_000);
        // SAFETY: a valid attr; the returned fd is owned by the link below.
        let fd = unsafe {
            libc::syscall(
                libc::SYS_perf_event_open,
                &attr as *const perf_event_attr,
                pid,
                cpu,
                -1i32,
                8u64, // PERF_FLAG_FD_CLOEXEC
            )
        } as i32;
        if fd < 0 {
            return Err(Error::Load(format!(
                "perf_event_open (cpu-clock on CPU {cpu}): {}",
                std::io::Error::last_os_error()
            )));
        }
        let link = self
            .skel
            .progs
            .prof_sample
            .attach_perf_event(fd)
            .map_err(|e| {
                // SAFETY: our own fd, not handed to anyone.
                unsafe { libc::close(fd) };
                Error::Load(format!("attaching the sampling program: {e}"))
            })?;
        self.prof_links.push(link);
        Ok(())
    }

    /// `genba causal`: counts visits of progress point `index` (cookie)
    /// where the program (the process whose causal runtime is in place)
    /// reaches `at` in `binary`; with `latency`, also the time until the
    /// function entered there returns (a uretprobe). The uprobe is attached
    /// for every process: one bound to a pid would see that pid's thread
    /// only, not the threads it starts.
    pub fn attach_progress(
        &mut self,
        index: u32,
        binary: &std::path::Path,
        at: &ProbeAt,
        latency: bool,
    ) -> Result<()> {
        let (func_name, offset, ref_ctr) = match at {
            // resolved by libbpf in the file's symbol table
            ProbeAt::Function(f) => (Some(f.clone()), 0, 0),
            ProbeAt::Offset(o) => (None, *o as usize, 0),
            ProbeAt::Sdt(o, sema) => (None, *o as usize, sema.unwrap_or(0) as usize),
        };
        let p = &self.skel.progs;
        let probes = if latency {
            vec![(&p.causal_enter, false), (&p.causal_return, true)]
        } else {
            vec![(&p.causal_progress, false)]
        };
        for (prog, retprobe) in probes {
            let opts = libbpf_rs::UprobeOpts {
                cookie: u64::from(index),
                func_name: func_name.clone(),
                retprobe,
                ref_ctr_offset: ref_ctr,
                ..Default::default()
            };
            let link = prog
                .attach_uprobe_with_opts(-1, binary, offset, opts)
                .map_err(|e| {
                    Error::Load(format!("attaching a uprobe to {}: {e}", binary.display()))
                })?;
            self.prof_links.push(link);
        }
        Ok(())
    }

    /// Stops the profiling programs (the scheduler, exit and sampling
    /// ones); what they sent stays in the ring buffer. After this the
    /// threads' slots no longer change, so [`Tracer::prof_slots`] can be
    /// read against one end time.
    pub fn stop_profile(&mut self) {
        self.prof_links.clear();
    }

    /// Every thread's profiling state still pending: an off-CPU interval
    /// open (`sample` holds the facts and stacks of its switch-out), or CPU
    /// time not yet sent. For closing them when profiling stops.
    pub fn prof_slots(&self) -> Result<Vec<ProfSlot>> {
        let map = &self.skel.maps.prof_slots;
        let n = map.max_entries();
        let mut out = Vec::new();
        for i in 0..n {
            let Some(v) = map
                .lookup(&i.to_ne_bytes(), MapFlags::ANY)
                .map_err(map_err("prof_slots"))?
            else {
                continue;
            };
            let Some(s) = wire::parse_slot(&v) else {
                continue;
            };
            if s.tid == 0 || s.ended != 0 || (s.open == 0 && s.in_ts == 0 && s.on_acc == 0) {
                continue;
            }
            // the slot's record is its owner's last switch-out; a thread
            // that took the slot and has not left the CPU since has none
            // yet: its identity from /proc, no stack
            let own = s.rec.hdr.tid == s.tid;
            let task = genba_events::Task {
                tid: s.tid,
                tgid: if own {
                    s.rec.hdr.tgid
                } else {
                    proc_tgid(s.tid).unwrap_or(s.tid)
                },
            };
            let ulen = if own {
                (s.rec.ustack_len as usize).min(s.rec.ustack.len())
            } else {
                0
            };
            let mut sample = wire::prof_sample(&s.rec, task, &s.rec.ustack[..ulen]);
            sample.off_cpu = true;
            if !own {
                sample.comm = std::fs::read_to_string(format!("/proc/{}/comm", s.tid))
                    .map(|c| c.trim_end().to_string())
                    .unwrap_or_default();
                sample.kstack.clear();
                sample.regs = [0; 3];
            }
            out.push(ProfSlot {
                sample,
                open: s.open != 0,
                out_ts: s.out_ts,
                wake_ts: s.wake_ts,
                acc: s.acc,
                in_ts: s.in_ts,
                on_last: s.on_last,
                on_acc: s.on_acc,
            });
        }
        Ok(out)
    }

    /// Opens an off-CPU interval for a thread that was already waiting
    /// when profiling started (`-p`), from what /proc shows of it. Its
    /// switch-in then sends it like any other.
    pub fn prof_open_waiting(&self, w: &WaitingThread) -> Result<()> {
        let map = &self.skel.maps.prof_slots;
        let i = w.tid & (map.max_entries() - 1);
        let mut s = skel::types::genba_prof_slot {
            tid: w.tid,
            open: 1,
            out_ts: w.since,
            acc: w.phase_ns,
            ..Default::default()
        };
        s.rec.hdr.tid = w.tid;
        s.rec.hdr.tgid = w.tgid;
        s.rec.cls = w.class;
        s.rec.sysnr = w.sysnr;
        s.rec.ip = w.regs[0];
        s.rec.sp = w.regs[1];
        s.rec.bp = w.regs[2];
        let n = w.ustack.len().min(s.rec.ustack.len()) & !511;
        s.rec.ustack[..n].copy_from_slice(&w.ustack[..n]);
        s.rec.ustack_len = n as u32;
        map.update(&i.to_ne_bytes(), &wire::slot_bytes(&s), MapFlags::ANY)
            .map_err(map_err("prof_slots"))
    }

    /// Waits up to `timeout` for records, then moves every record available
    /// into `out` (in ring-buffer order, which is time order).
    pub fn poll(&self, timeout: Duration, out: &mut Vec<Event>) -> Result<()> {
        if let Some(ring) = &self.ring {
            // Records are written without wakeups (a wakeup per record costs
            // the traced program ~2 us), so epoll only fires when the buffer
            // fills past the threshold. Records are taken in batches, which
            // keeps the consumer's memory (and page faults) small even with
            // large records such as stack copies.
            if ring.consume_raw_n(POLL_BATCH) <= 0 {
                let mut ev = libc::epoll_event { events: 0, u64: 0 };
                let ms = timeout.as_millis().min(i32::MAX as u128) as i32;
                // SAFETY: one valid epoll_event, the ring buffer's epoll fd.
                let r = unsafe { libc::epoll_wait(ring.epoll_fd(), &mut ev, 1, ms) };
                if r < 0 {
                    let e = std::io::Error::last_os_error();
                    if e.raw_os_error() != Some(libc::EINTR) {
                        return Err(Error::Poll(e.to_string()));
                    }
                }
                ring.consume_raw_n(POLL_BATCH);
            }
        }
        take_queue(&self.queue, out);
        Ok(())
    }

    /// Reads everything still in the ring buffer without waiting.
    pub fn drain(&self, out: &mut Vec<Event>) -> Result<()> {
        if let Some(ring) = &self.ring {
            ring.consume_raw();
        }
        take_queue(&self.queue, out);
        Ok(())
    }

    /// With [`RunStats`] held: each program's runs and mean time.
    pub fn run_lines(&self) -> Vec<String> {
        let p = &self.skel.progs;
        let mut progs = vec![
            ("sys_enter", p.sys_enter.as_fd()),
            ("sys_exit", p.sys_exit.as_fd()),
            ("sched_switch", p.sched_switch.as_fd()),
            ("sched_fork", p.sched_fork.as_fd()),
            ("sched_exit", p.sched_exit.as_fd()),
            ("sched_exec", p.sched_exec.as_fd()),
            ("signal_deliver", p.signal_deliver.as_fd()),
            ("signal_generate", p.signal_generate.as_fd()),
            ("prof_sample", p.prof_sample.as_fd()),
            ("prof_switch", p.prof_switch.as_fd()),
            ("prof_wakeup", p.prof_wakeup.as_fd()),
            ("prof_waking", p.prof_waking.as_fd()),
            ("prof_wakeup_new", p.prof_wakeup_new.as_fd()),
        ];
        progs.extend(irq_progs!(p, &).map(|(name, _, prog)| (name, prog.as_fd())));
        run_lines(&progs)
    }

    /// The collector's own counters, summed over CPUs.
    pub fn stats(&self) -> Result<CollectorStats> {
        let mut c = [0u64; wire::CNT_MAX as usize];
        for (i, slot) in c.iter_mut().enumerate() {
            let key = (i as u32).to_ne_bytes();
            if let Some(percpu) = self
                .skel
                .maps
                .counters
                .lookup_percpu(&key, MapFlags::ANY)
                .map_err(map_err("counters"))?
            {
                *slot = percpu.iter().map(|v| wire::u64_at(v, 0)).sum();
            }
        }
        let mut missed = 0;
        let p = &self.skel.progs;
        for prog in [
            &p.sys_enter,
            &p.sys_exit,
            &p.sched_fork,
            &p.sched_exit,
            &p.sched_exec,
            &p.signal_deliver,
            &p.signal_generate,
            &p.sched_switch,
            &p.prof_sample,
            &p.prof_switch,
            &p.prof_wakeup,
            &p.prof_waking,
            &p.prof_wakeup_new,
        ] {
            missed += recursion_misses(prog.as_fd());
        }
        Ok(CollectorStats {
            lost: c[wire::CNT_RB_LOST as usize],
            missed,
            faults: c[wire::CNT_FAULTS as usize],
            captures: c[wire::CNT_CAPTURES as usize],
            unpaired: c[wire::CNT_UNPAIRED as usize],
            events: *self.received.borrow(),
            truncated_records: c[wire::CNT_SCRATCH_FULL as usize] + *self.decode_errors.borrow(),
            summary_overflow: c[wire::CNT_SUM_FULL as usize],
            prof_collisions: c[wire::CNT_PROF_COLLIDE as usize],
            prof_unopened: c[wire::CNT_PROF_UNOPENED as usize],
            irq_unwound: c[wire::CNT_IRQ_UNWOUND as usize],
        })
    }

    /// The per-task summaries: (task, rows), tasks in ascending order.
    pub fn task_summary(&self) -> Result<Vec<(u32, Vec<SummaryRow>)>> {
        let mut by_task: std::collections::BTreeMap<u32, Vec<SummaryRow>> = Default::default();
        for key in self.skel.maps.task_sums.keys() {
            let (Some(task), Some(nr)) = (key.get(0..4), key.get(4..8)) else {
                continue;
            };
            let task = u32::from_ne_bytes(task.try_into().unwrap_or_default());
            let nr = u32::from_ne_bytes(nr.try_into().unwrap_or_default());
            if let Some(row) = summed_row(&self.skel.maps.task_sums, "task_sums", &key, nr)? {
                by_task.entry(task).or_default().push(row);
            }
        }
        Ok(by_task.into_iter().collect())
    }

    /// The in-kernel summary: one row per syscall number that was called.
    pub fn summary(&self) -> Result<Vec<SummaryRow>> {
        let mut rows = Vec::new();
        for nr in 0..MAX_SYSCALLS {
            if let Some(row) = summed_row(&self.skel.maps.sums, "sums", &nr.to_ne_bytes(), nr)? {
                rows.push(row);
            }
        }
        Ok(rows)
    }
}

/// libbpf prints warnings and verifier logs to stderr by itself; genba turns
/// failures into one line, so libbpf stays quiet unless `verbose` (the user
/// set GENBA_DEBUG), when everything down to debug messages is shown.
pub fn libbpf_logging(verbose: bool) {
    fn to_stderr(_: libbpf_rs::PrintLevel, msg: String) {
        note_helper_refused(&msg);
        if VERBOSE.load(std::sync::atomic::Ordering::Relaxed) {
            eprint!("{msg}");
        }
    }
    VERBOSE.store(verbose, std::sync::atomic::Ordering::Relaxed);
    // the verifier's log is read (not shown unless verbose) to tell why a
    // program was refused
    libbpf_rs::set_print(Some((libbpf_rs::PrintLevel::Debug, to_stderr)));
}

static VERBOSE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
/// The verifier refused bpf_probe_write_user (poke_exit's helper): a kernel
/// in lockdown, or one that forbids it to this program type.
static WRITE_USER_REFUSED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

fn note_helper_refused(msg: &str) {
    if msg.contains("cannot use helper bpf_probe_write_user")
        || msg.contains("unknown func bpf_probe_write_user")
    {
        WRITE_USER_REFUSED.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Moves the queued events to `out` without copying them when `out` is empty
/// (the usual case: the caller drains it after every poll).
fn take_queue(queue: &RefCell<Vec<Event>>, out: &mut Vec<Event>) {
    let mut q = queue.borrow_mut();
    if out.is_empty() {
        std::mem::swap(out, &mut q);
    } else {
        out.append(&mut q);
    }
}

/// One per-CPU summary entry, summed over CPUs; `None` when it counts no call.
fn summed_row(
    map: &dyn MapCore,
    name: &'static str,
    key: &[u8],
    nr: u32,
) -> Result<Option<SummaryRow>> {
    let Some(percpu) = map
        .lookup_percpu(key, MapFlags::ANY)
        .map_err(map_err(name))?
    else {
        return Ok(None);
    };
    let mut row = SummaryRow {
        nr,
        ..Default::default()
    };
    for v in &percpu {
        row.merge(&wire::parse_sum(v));
    }
    Ok((row.calls > 0).then_some(row))
}

/// The kernel's run statistics of a BPF program: (runs, total ns of its
/// body), counted while [`RunStats`] is held (zero otherwise).
fn run_stats(fd: std::os::fd::BorrowedFd<'_>) -> (u64, u64) {
    use std::os::fd::AsRawFd;
    let mut info = libbpf_rs::libbpf_sys::bpf_prog_info::default();
    let mut len = std::mem::size_of_val(&info) as u32;
    // SAFETY: info is a valid bpf_prog_info of `len` bytes; all pointer fields are zero.
    let r = unsafe {
        libbpf_rs::libbpf_sys::bpf_prog_get_info_by_fd(fd.as_raw_fd(), &mut info, &mut len)
    };
    if r == 0 {
        (info.run_cnt, info.run_time_ns)
    } else {
        (0, 0)
    }
}

/// The kernel counting each BPF program's runs and their time, while held
/// (BPF_ENABLE_STATS; it costs two clock reads a run, so only for
/// GENBA_DEBUG and the benchmarks' breakdowns).
pub struct RunStats(#[allow(dead_code)] std::os::fd::OwnedFd);

impl RunStats {
    /// None: the kernel refused (an older kernel, no privilege).
    pub fn enable() -> Option<RunStats> {
        use std::os::fd::FromRawFd;
        // SAFETY: a plain syscall wrapper; a non-negative result is an fd we own
        let fd = unsafe {
            libbpf_rs::libbpf_sys::bpf_enable_stats(libbpf_rs::libbpf_sys::BPF_STATS_RUN_TIME)
        };
        // SAFETY: fd is a new descriptor, owned from here on
        (fd >= 0).then(|| RunStats(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) }))
    }
}

/// One program's runs and the mean time of its body (ns), for the lines of
/// GENBA_DEBUG.
pub fn run_lines(progs: &[(&str, std::os::fd::BorrowedFd<'_>)]) -> Vec<String> {
    progs
        .iter()
        .filter_map(|(name, fd)| {
            let (n, ns) = run_stats(*fd);
            // runs the kernel skipped: the program was already running on
            // that CPU (an interrupt inside it)
            let missed = match recursion_misses(*fd) {
                0 => String::new(),
                m => format!(", {m} skipped"),
            };
            (n > 0).then(|| {
                format!(
                    "BPF {name}: {n} runs, {:.1} ns each{missed}",
                    ns as f64 / n as f64
                )
            })
        })
        .collect()
}

fn recursion_misses(fd: std::os::fd::BorrowedFd<'_>) -> u64 {
    use std::os::fd::AsRawFd;
    let mut info = libbpf_rs::libbpf_sys::bpf_prog_info::default();
    let mut len = std::mem::size_of_val(&info) as u32;
    // SAFETY: info is a valid bpf_prog_info of `len` bytes; all pointer fields are zero.
    let r = unsafe {
        libbpf_rs::libbpf_sys::bpf_prog_get_info_by_fd(fd.as_raw_fd(), &mut info, &mut len)
    };
    if r == 0 {
        info.recursion_misses
    } else {
        0
    }
}

/// The pieces [`Floor`] can add to its programs (genba.h's GENBA_PIECE_*).
pub mod floor_piece {
    /// bpf_get_current_pid_tgid
    pub const ID: u32 = 1;
    /// bpf_ktime_get_ns
    pub const CLOCK: u32 = 2;
    /// bpf_ringbuf_query
    pub const QUERY: u32 = 4;
    /// the registers copied by bpf_probe_read_kernel (raw_tp programs)
    pub const COPY: u32 = 8;
    /// the registers read by loads (tp_btf programs)
    pub const LOADS: u32 = 16;
    /// Names for the command line, with their bits.
    pub const NAMES: &[(&str, u32)] = &[
        ("id", ID),
        ("clock", CLOCK),
        ("query", QUERY),
        ("copy", COPY),
        ("loads", LOADS),
    ];
}

/// Programs on sys_enter/sys_exit that do nothing (the cost floor of this
/// approach) or only the given pieces of the trace programs' work, attached
/// by `genba bench-floor` for the benchmarks.
pub struct Floor {
    _links: Vec<libbpf_rs::Link>,
    skel: &'static floor_skel::FloorSkel<'static>,
    btf: bool,
}

impl Floor {
    /// Loads and attaches the programs with `pieces` (bits of
    /// [`floor_piece`]): tp_btf programs when the registers are read by
    /// loads, raw_tp ones otherwise.
    pub fn attach(pieces: u32) -> Result<Floor> {
        let storage: &'static mut MaybeUninit<libbpf_rs::OpenObject> =
            Box::leak(Box::new(MaybeUninit::uninit()));
        let mut open = floor_skel::FloorSkelBuilder::default()
            .open(storage)
            .map_err(|e| Error::Load(e.to_string()))?;
        let btf = pieces & floor_piece::LOADS != 0;
        open.maps
            .rodata_data
            .as_deref_mut()
            .ok_or_else(|| Error::Load("no rodata".into()))?
            .pieces = pieces;
        open.progs.floor_enter.set_autoload(!btf);
        open.progs.floor_exit.set_autoload(!btf);
        open.progs.floor_btf_enter.set_autoload(btf);
        open.progs.floor_btf_exit.set_autoload(btf);
        let skel = open.load().map_err(|e| Error::Load(e.to_string()))?;
        let p = &skel.progs;
        let links = if btf {
            [
                p.floor_btf_enter.attach_trace(),
                p.floor_btf_exit.attach_trace(),
            ]
        } else {
            [
                p.floor_enter.attach_raw_tracepoint("sys_enter"),
                p.floor_exit.attach_raw_tracepoint("sys_exit"),
            ]
        };
        let links = links
            .into_iter()
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| Error::Load(e.to_string()))?;
        let skel: &'static floor_skel::FloorSkel<'static> = Box::leak(Box::new(skel));
        Ok(Floor {
            _links: links,
            skel,
            btf,
        })
    }

    /// With [`RunStats`] held: the empty programs' runs and mean time.
    pub fn run_lines(&self) -> Vec<String> {
        let p = &self.skel.progs;
        if self.btf {
            run_lines(&[
                ("floor_enter", p.floor_btf_enter.as_fd()),
                ("floor_exit", p.floor_btf_exit.as_fd()),
            ])
        } else {
            run_lines(&[
                ("floor_enter", p.floor_enter.as_fd()),
                ("floor_exit", p.floor_exit.as_fd()),
            ])
        }
    }
}
