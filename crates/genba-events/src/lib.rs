//! The event model shared by every collector (eBPF today; ptrace and the GPU
//! shim later) and every consumer (decoders, summaries, renderers).
//!
//! Events are plain owned data with no knowledge of where they came from: the
//! BPF collector converts its ring-buffer records into these, and everything
//! after collection can be tested from hand-made events without privileges.
#![deny(missing_docs)]

/// Timestamps are `CLOCK_MONOTONIC` nanoseconds, the one clock of every event.
pub type Nanos = u64;

/// Which task an event belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Task {
    /// Thread id (what strace calls the pid of a tracee).
    pub tid: u32,
    /// Thread-group id: the process.
    pub tgid: u32,
}

/// What a piece of captured user memory is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptureItem {
    /// The bytes an argument points to.
    Data,
    /// One element of an array argument (argv string, iovec buffer);
    /// `aux` is the element's own length where it has one.
    Elem,
    /// The number of elements in an array argument, in `aux`.
    Count,
    /// A `struct msghdr` as the program passed it.
    Msghdr,
    /// The address a `struct msghdr` points to (`msg_name`).
    Name,
    /// A descriptor the call created (`data`: the fd, 4 bytes) and its inode
    /// number (`aux`), so pipes and sockets can be named after the fact.
    FdIno,
    /// User registers at entry: ip, sp, bp (3 little-endian u64).
    Regs,
    /// A copy of the user stack from sp upwards (`aux` = sp).
    UserStack,
    /// Kernel return addresses (little-endian u64 each), innermost first.
    KernelStack,
}

/// User memory copied for one argument at syscall entry or exit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// Argument index, 0-based.
    pub arg: u8,
    /// What the bytes are.
    pub item: CaptureItem,
    /// Element index for [`CaptureItem::Elem`].
    pub elem: u8,
    /// The memory could not be read (bad pointer, page not present).
    pub fault: bool,
    /// More bytes were there than were copied.
    pub truncated: bool,
    /// An array had more elements than were copied.
    pub more: bool,
    /// Length asked for, element length, or element count (see `item`).
    pub aux: u64,
    /// The bytes copied.
    pub data: Vec<u8>,
}

/// A task entered a system call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyscallEnter {
    /// When.
    pub ts: Nanos,
    /// Who.
    pub task: Task,
    /// System-call number (x86_64).
    pub nr: u32,
    /// The six argument registers.
    pub args: [u64; 6],
    /// User memory copied at entry (inputs).
    pub captures: Vec<Capture>,
}

/// A task returned from a system call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyscallExit {
    /// When.
    pub ts: Nanos,
    /// Who.
    pub task: Task,
    /// System-call number (x86_64).
    pub nr: u32,
    /// Raw return value (negative errno on failure).
    pub ret: i64,
    /// When the call was entered, if the entry was seen.
    pub enter_ts: Option<Nanos>,
    /// Time the task spent off the CPU inside the call (only counted for
    /// CPU-time summaries; 0 otherwise).
    pub off_cpu_ns: Nanos,
    /// The argument registers as they are at exit (valid for most calls).
    pub args: [u64; 6],
    /// User memory copied at exit (outputs).
    pub captures: Vec<Capture>,
    /// What `-e inject=` did to the call: [`INJ_SKIPPED`], [`INJ_DELAYED`]
    /// (0: nothing).
    pub inject: u32,
}

/// The call did not run: genba answered it with an error or a return
/// value (`-e inject=...:error=|retval=`). Its captures are the entry's.
pub const INJ_SKIPPED: u32 = 1;
/// genba held the call before it ran (`-e inject=...:delay_enter=`).
pub const INJ_DELAYED: u32 = 2;
/// genba wrote the program's memory at the call's entry or exit
/// (`-e inject=...:poke_enter=|poke_exit=`).
pub const INJ_POKED: u32 = 4;

/// Everything a collector reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// See [`SyscallEnter`].
    SyscallEnter(SyscallEnter),
    /// See [`SyscallExit`].
    SyscallExit(SyscallExit),
    /// A traced task created a task that is traced from now on.
    Fork {
        /// When.
        ts: Nanos,
        /// The parent.
        task: Task,
        /// The new task.
        child: Task,
    },
    /// A traced task ended; `status` is encoded as by wait(2).
    Exit {
        /// When.
        ts: Nanos,
        /// Who.
        task: Task,
        /// wait(2) status: `code << 8` for an exit, the signal for a kill.
        status: i32,
        /// Its name at its end.
        comm: String,
        /// Its thread group ended with it (it was the last thread).
        last: bool,
        /// The group is exiting as a whole (exit_group, a fatal signal):
        /// `status` is the group's.
        group_exit: bool,
    },
    /// A traced task executed a new program.
    Exec {
        /// When.
        ts: Nanos,
        /// Who (after exec).
        task: Task,
        /// Its thread id before exec (differs when a non-leader thread execs).
        old_tid: u32,
        /// The new program's auxiliary vector as (type, value) pairs: where
        /// the kernel mapped the program (AT_PHDR) and its interpreter (AT_BASE).
        auxv: Vec<(u64, u64)>,
    },
    /// A signal was delivered to a traced task.
    Signal {
        /// When.
        ts: Nanos,
        /// Who.
        task: Task,
        /// Signal number.
        sig: i32,
        /// The first bytes of the kernel's siginfo (signo, errno, code, union).
        siginfo: [u8; 48],
        /// A stop signal with no handler: the task stops (a group stop).
        stops: bool,
    },
    /// A profiling sample (`genba profile`).
    Profile(Box<ProfSample>),
    /// A GPU API call, a command a GPU ran, or a device's clock (`--gpu`).
    Gpu(Box<GpuEvent>),
}

/// What a GPU shim (the OpenCL layer) reported from inside the program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GpuEvent {
    /// An API call on the calling thread.
    Call(GpuCall),
    /// A command the device ran.
    Command(GpuCommand),
    /// How a device's timestamps were mapped onto CLOCK_MONOTONIC.
    Clock(GpuClock),
    /// Records the shim dropped because its ring was full.
    Lost {
        /// The process.
        pid: u32,
        /// How many so far.
        records: u64,
    },
}

/// The API a GPU event belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuApi {
    /// OpenCL.
    OpenCl,
    /// Vulkan.
    Vulkan,
    /// The CUDA runtime API.
    Cuda,
}

impl GpuApi {
    /// Its name as genba shows it.
    pub fn name(self) -> &'static str {
        match self {
            GpuApi::OpenCl => "OpenCL",
            GpuApi::Vulkan => "Vulkan",
            GpuApi::Cuda => "CUDA",
        }
    }
}

/// A GPU API call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuCall {
    /// Its start and end on CLOCK_MONOTONIC.
    pub ts: Nanos,
    /// Its end.
    pub end: Nanos,
    /// Who called.
    pub task: Task,
    /// Which API.
    pub api: GpuApi,
    /// The function (`clEnqueueNDRangeKernel`).
    pub name: String,
    /// Its arguments, decoded (`0x55d0, "vadd", 1, NULL, [1048576], ...`).
    pub args: String,
    /// Its result (`= CL_SUCCESS`).
    pub result: String,
    /// The API's error code (0: success).
    pub error: i32,
    /// It enqueued a command the shim times: a [`GpuCommand`] with this
    /// call's thread and start follows when it completes.
    pub timed: bool,
}

/// What kind of work a GPU command is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuKind {
    /// A kernel (compute dispatch).
    Kernel,
    /// Device to host.
    Read,
    /// Host to device.
    Write,
    /// Device to device.
    Copy,
    /// A fill.
    Fill,
    /// A map of device memory.
    Map,
    /// An unmap.
    Unmap,
    /// A marker or barrier.
    Marker,
    /// Anything else.
    Other,
}

/// A command a device ran, its times mapped onto CLOCK_MONOTONIC (0: the
/// device did not say).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuCommand {
    /// The thread that enqueued it (its process is the command's).
    pub task: Task,
    /// When the enqueue call started (it names the call the command came from).
    pub enqueued: Nanos,
    /// The API.
    pub api: GpuApi,
    /// The queue's and the device's handles.
    pub queue: u64,
    /// The device's handle.
    pub device: u64,
    /// What it was.
    pub kind: GpuKind,
    /// The kernel's name, or the transfer's (`read buffer`).
    pub name: String,
    /// Put in the queue.
    pub queued: Nanos,
    /// Sent to the device.
    pub submit: Nanos,
    /// Started on the device.
    pub start: Nanos,
    /// Ended on the device.
    pub end: Nanos,
    /// Bytes a transfer moved (0 for a kernel).
    pub bytes: u64,
    /// The command's error status (0: completed).
    pub error: i32,
    /// When the shim saw it complete, on CLOCK_MONOTONIC (0: unknown): it
    /// ended before then.
    pub observed: Nanos,
    /// When the enqueue call returned (0: unknown): an OpenCL command was
    /// put in its queue before then.
    pub enqueue_returned: Nanos,
    /// When the first wait that covered it returned (clFinish of its queue,
    /// clWaitForEvents of its event, its blocking enqueue; 0: none seen):
    /// it ended before then.
    pub waited: Nanos,
    /// For a device with a clock of its own, once genba corrected the
    /// mapping from the commands' facts: how far (ns) its mapped times may
    /// be from where every line the facts allow puts them (None: stamped
    /// on a host clock, or not corrected).
    pub clock_uncertainty: Option<u64>,
}

impl GpuCommand {
    /// Holds the command's mapped device times to what the host knows: it
    /// was not put in its queue before its enqueue call began (`enqueued`;
    /// for Vulkan, whose `queued` is the host's submission time, it did
    /// not start before that) nor after the call returned
    /// (`enqueue_returned`, OpenCL), and it did not end after the first of
    /// the wait that covered it returning (`waited`) and the shim seeing it
    /// complete (`observed`). Times that break one are moved together (the
    /// device's own durations kept) to the nearest the facts allow, the
    /// start's bound first when they cannot all hold. Returns how far (ns;
    /// 0: the mapping agreed with the host).
    pub fn hold_to_facts(&mut self) -> u64 {
        if self.start == 0 || self.end < self.start {
            return 0;
        }
        let device_queued = self.api == GpuApi::OpenCl;
        // the earliest device time, and the host time it cannot precede
        let (first, lo) = if device_queued {
            let first = [self.queued, self.submit, self.start]
                .into_iter()
                .find(|&t| t != 0)
                .unwrap_or(self.start);
            (first, self.enqueued)
        } else {
            (self.start, self.enqueued.max(self.queued))
        };
        // the shifts the facts allow: [least, most]
        let least: i128 = if lo != 0 {
            lo as i128 - first as i128
        } else {
            i128::MIN
        };
        let mut most = i128::MAX;
        for bound in [self.observed, self.waited] {
            if bound != 0 {
                most = most.min(bound as i128 - self.end as i128);
            }
        }
        if device_queued && self.queued != 0 && self.enqueue_returned != 0 {
            most = most.min(self.enqueue_returned as i128 - self.queued as i128);
        }
        let shift = if least > most {
            least
        } else {
            0.clamp(least, most)
        };
        if shift == 0 {
            return 0;
        }
        let moved = |t: &mut Nanos| {
            if *t != 0 {
                *t = (*t as i128 + shift).max(0) as Nanos;
            }
        };
        if device_queued {
            moved(&mut self.queued);
            moved(&mut self.submit);
        }
        moved(&mut self.start);
        moved(&mut self.end);
        shift.unsigned_abs() as u64
    }
}

/// How a device's clock maps onto CLOCK_MONOTONIC.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuClock {
    /// When it was measured.
    pub ts: Nanos,
    /// The process.
    pub pid: u32,
    /// The API.
    pub api: GpuApi,
    /// The device's handle.
    pub device: u64,
    /// The device's name.
    pub name: String,
    /// The host clock its timestamps are on (a clockid), or None: its own
    /// clock, mapped by `offset` measured to within `uncertainty` ns.
    pub domain: Option<i32>,
    /// With no domain: CLOCK_MONOTONIC = device time + offset.
    pub offset: i64,
    /// Half the bracket the offset was measured in, or, once refined, half
    /// the band of offsets every command's facts allow.
    pub uncertainty: u64,
    /// With no domain: how fast the offset changes (parts per billion of
    /// host time; 0: no drift seen).
    pub drift_ppb: i64,
    /// With no domain: how many commands' facts the offset rests on (0:
    /// the shim's own measurement).
    pub commands: u64,
}

/// One profiling sample: taken on the CPU (weight 1), or a blocked sample
/// sent when a thread ran again, weighted by the periods it spent off the CPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfSample {
    /// When (the switch-in, for a blocked sample).
    pub ts: Nanos,
    /// Who.
    pub task: Task,
    /// 0 user, 1 kernel (on the CPU); 2 I/O, 3 lock, 4 run queue, 5 other
    /// block (off the CPU): the class the kernel's facts say.
    pub class: u32,
    /// A blocked sample.
    pub off_cpu: bool,
    /// A new thread's wait for its first run.
    pub new_thread: bool,
    /// Periods of the blocked part; for an on-CPU sample, of the thread's
    /// CPU time since its previous sample.
    pub w_block: u32,
    /// Periods waiting on a run queue after the wakeup.
    pub w_runq: u32,
    /// The system call it was in (-1: none).
    pub sysnr: i32,
    /// User ip, sp, bp.
    pub regs: [u64; 3],
    /// Kernel return addresses, innermost first.
    pub kstack: Vec<u64>,
    /// A copy of the user stack from sp up.
    pub ustack: Vec<u8>,
    /// The thread's name at the sample (empty: unknown).
    pub comm: String,
    /// CPU time a thread ran since its last sample, sent when it ended
    /// (weight in `w_block`, no stack: it belongs where the thread was
    /// last seen running).
    pub flush: bool,
    /// A blocked sample's exact interval (recordings; 0 otherwise): when
    /// the thread was switched out, and when it was woken (`out_ts` for a
    /// preemption); it ran again at `ts`.
    pub out_ts: Nanos,
    /// See `out_ts`: on a run queue again.
    pub wake_ts: Nanos,
    /// When the waker woke it, in the waker's context (recordings; the same
    /// as `wake_ts` without): at or before `wake_ts`.
    pub waking_ts: Nanos,
    /// The task that woke it (recordings: 0 on an idle CPU, not known, or
    /// woken from an interrupt).
    pub waker_tid: u32,
    /// What woke it: a thread (`waker_tid`), or an interrupt, whatever task
    /// it landed on (recordings).
    pub waker_kind: WakerKind,
}

/// What made a wakeup: a thread, or an interrupt (which runs on whatever
/// task it lands on, and is not that task's doing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum WakerKind {
    /// A thread, in a call of its own (or not known).
    #[default]
    Thread,
    /// A device's interrupt handler, an IPI, irq_work.
    HardIrq,
    /// A softirq (network and block completions, RCU, tasklets).
    SoftIrq,
    /// A timer's callback (an hrtimer expiring: nanosleep, a timeout).
    Timer,
}

impl WakerKind {
    /// The name recordings and exports use: `thread`, `hardirq`,
    /// `softirq`, `timer`.
    pub fn name(self) -> &'static str {
        match self {
            WakerKind::Thread => "thread",
            WakerKind::HardIrq => "hardirq",
            WakerKind::SoftIrq => "softirq",
            WakerKind::Timer => "timer",
        }
    }

    /// The kind named `name` (see [`WakerKind::name`]).
    pub fn from_name(name: &str) -> Option<WakerKind> {
        [
            WakerKind::Thread,
            WakerKind::HardIrq,
            WakerKind::SoftIrq,
            WakerKind::Timer,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

impl GpuCall {
    /// The call as a line: `clFinish(0x55d0) = CL_SUCCESS`, `vkCmdDispatch(0x55d0, 64, 1, 1)`
    /// (a call that returns nothing has no result).
    pub fn line(&self) -> String {
        if self.result.is_empty() {
            format!("{}({})", self.name, self.args)
        } else {
            format!("{}({}) {}", self.name, self.args, self.result)
        }
    }
}

impl Event {
    /// The event's timestamp.
    pub fn ts(&self) -> Nanos {
        match self {
            Event::SyscallEnter(e) => e.ts,
            Event::SyscallExit(e) => e.ts,
            Event::Fork { ts, .. }
            | Event::Exit { ts, .. }
            | Event::Exec { ts, .. }
            | Event::Signal { ts, .. } => *ts,
            Event::Profile(p) => p.ts,
            Event::Gpu(g) => match &**g {
                GpuEvent::Call(c) => c.ts,
                GpuEvent::Command(c) => c.start,
                GpuEvent::Clock(c) => c.ts,
                GpuEvent::Lost { .. } => 0,
            },
        }
    }

    /// The task the event belongs to.
    pub fn task(&self) -> Task {
        match self {
            Event::SyscallEnter(e) => e.task,
            Event::SyscallExit(e) => e.task,
            Event::Fork { task, .. }
            | Event::Exit { task, .. }
            | Event::Exec { task, .. }
            | Event::Signal { task, .. } => *task,
            Event::Profile(p) => p.task,
            Event::Gpu(g) => match &**g {
                GpuEvent::Call(c) => c.task,
                GpuEvent::Command(c) => c.task,
                GpuEvent::Clock(c) => Task {
                    tid: c.pid,
                    tgid: c.pid,
                },
                GpuEvent::Lost { pid, .. } => Task {
                    tid: *pid,
                    tgid: *pid,
                },
            },
        }
    }
}

/// Counters a collector keeps about itself; every output reports them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CollectorStats {
    /// Records dropped because the ring buffer was full.
    pub lost: u64,
    /// Records dropped because a BPF program could not run (re-entry on a CPU).
    pub missed: u64,
    /// User-memory reads that failed (pointer not NULL, page not present).
    pub faults: u64,
    /// User-memory reads attempted.
    pub captures: u64,
    /// Exits whose entry was not seen (attached mid-call, slot collision).
    pub unpaired: u64,
    /// Records delivered.
    pub events: u64,
    /// Captures cut short because a record was full.
    pub truncated_records: u64,
    /// Per-task summary entries that did not fit in their map.
    pub summary_overflow: u64,
    /// Profile: off-CPU intervals lost because another thread took the
    /// thread's slot.
    pub prof_collisions: u64,
    /// Profile: switch-ins with no switch-out seen (attached mid-way).
    pub prof_unopened: u64,
    /// Recording: context switches that found their CPU's interrupt
    /// nesting open (an interrupt's exit not seen) and closed it; wakeups
    /// on that CPU until then were taken as the interrupt's.
    pub irq_unwound: u64,
}

impl CollectorStats {
    /// All events that never reached user space.
    pub fn total_lost(&self) -> u64 {
        self.lost + self.missed
    }
}

/// A new directory only genba's user can enter (mode 0700), made in
/// `$TMPDIR` (or /tmp) with a fresh name, never one that existed: what genba
/// hands the traced program (the shared objects it preloads, the GPU
/// shims' rings) lives there. Made as mkdtemp makes it: the directory is
/// created, not reused, so nobody can have placed a file or link in it.
pub fn private_dir(prefix: &str) -> std::io::Result<std::path::PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let base = std::env::var_os("TMPDIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from("/tmp"));
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
        ^ u64::from(std::process::id()).rotate_left(32);
    for _ in 0..100 {
        // xorshift: another name after a collision
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let path = base.join(format!("{prefix}-{:012x}", seed & 0xffff_ffff_ffff));
        match std::fs::DirBuilder::new().mode(0o700).create(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other(
        "no fresh directory name after 100 tries",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(api: GpuApi, enqueued: u64, times: [u64; 4], observed: u64) -> GpuCommand {
        GpuCommand {
            task: Task { tid: 1, tgid: 1 },
            enqueued,
            api,
            queue: 1,
            device: 1,
            kind: GpuKind::Kernel,
            name: "k".into(),
            queued: times[0],
            submit: times[1],
            start: times[2],
            end: times[3],
            bytes: 0,
            error: 0,
            observed,
            enqueue_returned: 0,
            waited: 0,
            clock_uncertainty: None,
        }
    }

    #[test]
    fn facts_that_hold_move_nothing() {
        let mut c = command(GpuApi::OpenCl, 100, [110, 120, 130, 200], 250);
        assert_eq!(c.hold_to_facts(), 0);
        assert_eq!((c.queued, c.start, c.end), (110, 130, 200));
    }

    #[test]
    fn queued_before_its_enqueue_moves_later() {
        // an OpenCL command mapped 50 ns too early: all four move together
        let mut c = command(GpuApi::OpenCl, 100, [50, 60, 70, 140], 400);
        assert_eq!(c.hold_to_facts(), 50);
        assert_eq!((c.queued, c.submit, c.start, c.end), (100, 110, 120, 190));
    }

    #[test]
    fn ended_after_it_was_seen_moves_earlier() {
        let mut c = command(GpuApi::OpenCl, 50, [110, 120, 130, 300], 250);
        assert_eq!(c.hold_to_facts(), 50);
        assert_eq!((c.queued, c.start, c.end), (60, 80, 250));
        // ... but never before its enqueue: the start's bound wins, the
        // end as near its bound as that allows
        let mut c = command(GpuApi::OpenCl, 100, [110, 120, 130, 300], 150);
        assert_eq!(c.hold_to_facts(), 10);
        assert_eq!((c.queued, c.end), (100, 290));
    }

    #[test]
    fn queued_after_its_enqueue_returned_moves_earlier() {
        // (a): QUEUED after the call that enqueued it returned
        let mut c = command(GpuApi::OpenCl, 100, [180, 190, 200, 260], 900);
        c.enqueue_returned = 150;
        assert_eq!(c.hold_to_facts(), 30);
        assert_eq!((c.queued, c.submit, c.start, c.end), (150, 160, 170, 230));
        // inside the call: nothing moves
        let mut c = command(GpuApi::OpenCl, 100, [120, 190, 200, 260], 900);
        c.enqueue_returned = 150;
        assert_eq!(c.hold_to_facts(), 0);
    }

    #[test]
    fn the_wait_that_returned_bounds_the_end() {
        // (b): the wait returned at 240, the callback wrote at 400: the
        // wait is the tighter fact
        let mut c = command(GpuApi::OpenCl, 40, [110, 120, 130, 300], 400);
        c.waited = 240;
        assert_eq!(c.hold_to_facts(), 60);
        assert_eq!((c.queued, c.start, c.end), (50, 70, 240));
        // ... and still never before its enqueue
        let mut c = command(GpuApi::OpenCl, 100, [110, 120, 130, 300], 400);
        c.waited = 200;
        assert_eq!(c.hold_to_facts(), 10);
        assert_eq!((c.queued, c.end), (100, 290));
        // a wait before the observation, a wait after it: the earlier wins
        let mut c = command(GpuApi::OpenCl, 50, [110, 120, 130, 300], 280);
        c.waited = 500;
        assert_eq!(c.hold_to_facts(), 20);
        assert_eq!(c.end, 280);
    }

    #[test]
    fn vulkan_starts_after_its_submission() {
        // queued is the host's submission time: it stays, the start moves
        let mut c = command(GpuApi::Vulkan, 100, [150, 0, 140, 180], 500);
        assert_eq!(c.hold_to_facts(), 10);
        assert_eq!((c.queued, c.start, c.end), (150, 150, 190));
    }

    #[test]
    fn private_dirs_are_fresh_and_private() {
        use std::os::unix::fs::PermissionsExt;
        let a = super::private_dir("genba-unit").unwrap();
        let b = super::private_dir("genba-unit").unwrap();
        assert_ne!(a, b);
        let mode = std::fs::metadata(&a).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        std::fs::remove_dir(a).unwrap();
        std::fs::remove_dir(b).unwrap();
    }
}
