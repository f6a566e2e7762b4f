//! `genba record`: one recording of a program on one clock, as a Perfetto
//! trace. Every system call is a slice on its thread's track (named by the
//! call, with its decoded line and return value); every off-CPU interval is
//! a slice of its class ([I] [L] [S] [B]) with its exact start and end, even
//! those far shorter than a sampling period; a wakeup is a flow from the
//! task that ran when the thread was woken to the thread's wait for a CPU.
//!
//! It is a configuration of the session (the trace's system-call records and
//! the profiler's scheduler programs, sending every interval exactly) with a
//! sink that writes packets as events come. The file is a stream of whole
//! packets: a recording cut short reads up to its last whole one.

use rustc_hash::FxHashMap as HashMap;
use std::fs::File;
use std::io::{self, IsTerminal};
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use genba_bpf::{ProfileConfig, SyscallPlan, TraceConfig, Tracer};
use genba_events::{
    CollectorStats, Event, GpuCommand, GpuEvent, ProfSample, SyscallEnter, SyscallExit, Task,
};
use genba_export::perfetto::{
    ArgId, ArgValue, ClockReadings, NameId, PerfettoWriter, StackFrame, Track,
};
use genba_syscalls::decode::{self, Env, Ret};
use genba_syscalls::{consts, table, CallView, Options, Xlat};

use genba_analyze::profile::Class;
use genba_analyze::report;

use crate::options::RecordArgs;
use crate::session::{Session, Sink, Target, Until};
use crate::stacks::{StackOptions, Stacks};
use crate::world::World;
use crate::{parse_pids, resolve_command, start_error, to_bpf_plan, Exit, BOOKKEEPING};

mod live;
use live::LiveState;
pub(crate) use live::END_MARKER;

pub fn run(a: RecordArgs) -> Result<i32> {
    if a.all && !a.pids.is_empty() {
        bail!(Exit(1, "-a and -p are mutually exclusive".into()));
    }
    if a.command.is_empty() && a.pids.is_empty() && !a.all {
        bail!(Exit(
            1,
            "must have COMMAND to run, -p PID to attach or -a (see genba record --help)".into()
        ));
    }
    if !a.command.is_empty() && !a.pids.is_empty() {
        bail!(Exit(1, "-p and a COMMAND are mutually exclusive".into()));
    }
    if !a.buffer_mib.is_power_of_two() || a.buffer_mib > 1024 {
        bail!("--buffer-size must be a power of two between 1 and 1024 MiB");
    }
    if !(1..=100_000).contains(&a.freq) {
        bail!("-F must be between 1 and 100000 Hz");
    }
    if !(512..=8192).contains(&a.stack_bytes) {
        bail!("--stack-bytes must be between 512 and 8192");
    }
    let pids = parse_pids(&a.pids)?;
    let path = resolve_command(&a.command)?;
    let gpu = crate::gpu_setup(a.gpu, &a.command)?;
    // the intervals are sent exactly; the sampling period sets the on-CPU
    // samples' rate and the blocked samples' weights (as genba profile's)
    let period_ns = 1_000_000_000 / a.freq;
    let decode = Options {
        strsize: a.strsize,
        verbose: false,
        xlat: Xlat::Abbrev,
        hex: Default::default(),
    };
    let mut plans = vec![SyscallPlan::default(); genba_bpf::MAX_SYSCALLS as usize];
    for (nr, plan) in plans.iter_mut().enumerate() {
        let Some(info) = table::by_nr(nr as u32) else {
            continue;
        };
        // the calls that say what a process maps are followed even when the
        // calls are left out: the intervals' stacks are read against them
        plan.traced = !a.no_syscalls || BOOKKEEPING.contains(&info.name);
        plan.no_stack = !a.source || a.no_syscalls;
        plan.no_args = info.nargs == 0;
        let p = genba_syscalls::plan(info.name, &decode);
        plan.exit_only = genba_syscalls::exit_only(info.name, &p);
        for (dst, src) in plan.args.iter_mut().zip(p) {
            *dst = to_bpf_plan(src);
        }
    }
    let mut profile = exact_profile(period_ns, a.stack_bytes);
    if a.all {
        profile.all_tasks = true;
        profile.slots = crate::offcpu::system_slots();
    }
    let cfg = TraceConfig {
        inject: false,
        poke_exit: false,
        ioctl_sizes: genba_syscalls::ioctl_sizes(),
        timed: true,
        all_tasks: a.all,
        follow_forks: true,
        records: true,
        summary: false,
        summary_cpu: false,
        summary_by: genba_bpf::SummaryBy::Syscall,
        ustack_bytes: if a.source && !a.no_syscalls {
            a.stack_bytes
        } else {
            0
        },
        kstack: false,
        buffer_bytes: a.buffer_mib << 20,
        profile: Some(profile),
    };
    let mut sink = RecordSink::create(&Recording {
        output: &a.output,
        decode,
        stack_bytes: a.stack_bytes,
        period_ns,
        freq: a.freq,
        shown: (!a.no_syscalls).then(|| vec![true; genba_bpf::MAX_SYSCALLS as usize]),
        on_cpu: !a.no_profile,
        sites: a.source && !a.no_syscalls,
        all_tasks: a.all,
    })?;
    let stack_bytes = a.stack_bytes;
    let mut session = Session::start(
        &cfg,
        &plans,
        Target::every_thread(path.as_deref().map(|p| (p, a.command.as_slice())), &pids),
        // the whole system: until Ctrl-C (or another signal)
        Until::of(a.all, !a.command.is_empty()),
        |tracer, live| {
            if path.is_none() && !a.all {
                crate::offcpu::seed_waiting(tracer, live, stack_bytes, period_ns)?;
            }
            Ok(())
        },
    )
    .map_err(start_error)?;
    if !a.no_profile {
        // a failure drops the session, which kills a program held before exec
        session
            .sample_all_cpus(period_ns)
            .map_err(crate::bpf_error)?;
    }
    for &pid in &pids {
        eprintln!("genba: Process {pid} attached");
    }
    sink.started(&session, &a.command, &a.pids)?;
    let launched = session.child_pid().is_some();
    if let Some(d) = &gpu {
        session.watch_gpu(d.path());
    }
    session.release()?;
    session.run(&mut sink)?;
    // -p, -a: the threads still waiting, and CPU time not yet sampled, at
    // the end (as genba profile closes them)
    if !launched || a.all {
        crate::offcpu::close_pending(&mut session, a.all, period_ns, &mut sink)?;
    }
    let stats = session.tracer.stats().map_err(|e| anyhow!(e))?;
    session.debug_stats(&stats);
    // the progress line ends before what follows it
    sink.end_progress();
    eprintln!("genba: {} events lost", stats.total_lost());
    session.say_gpu_lost();
    let failed = sink.end(&stats);
    crate::session::debug_own_cpu();
    if failed {
        let code = session.exit_code();
        return Ok(if code != 0 { code } else { 1 });
    }
    Ok(session.exit_code())
}

/// The profiler's settings a recording needs: every off-CPU interval sent
/// exactly (with its waker), its stack copied.
pub(crate) fn exact_profile(period_ns: u64, stack_bytes: u32) -> ProfileConfig {
    ProfileConfig {
        period_ns,
        ustack_bytes: stack_bytes,
        slots: 4096,
        all_tasks: false,
        exact: true,
        causal: None,
    }
}

/// What a recording is asked to hold.
pub(crate) struct Recording<'a> {
    /// The file.
    pub output: &'a str,
    /// How calls are decoded into their lines.
    pub decode: Options,
    /// Bytes of user stack copied (for unwinding intervals and samples).
    pub stack_bytes: u32,
    pub period_ns: u64,
    pub freq: u64,
    /// By syscall number: the calls written (None: none, --no-syscalls).
    pub shown: Option<Vec<bool>>,
    /// On-CPU samples are written.
    pub on_cpu: bool,
    /// Each call's site is written (--source).
    pub sites: bool,
    /// Every task of the system (-a): processes met in the middle of
    /// their life have their mappings read when first met.
    pub all_tasks: bool,
}

fn clock_readings() -> ClockReadings {
    let read = |id| {
        let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
        // SAFETY: a valid timespec pointer.
        unsafe { libc::clock_gettime(id, &mut ts) };
        ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
    };
    let monotonic = read(libc::CLOCK_MONOTONIC);
    let boottime = read(libc::CLOCK_BOOTTIME);
    let realtime = read(libc::CLOCK_REALTIME);
    ClockReadings {
        monotonic,
        realtime,
        boottime,
    }
}

/// Writes the session's events as Perfetto packets.
pub(crate) struct RecordSink {
    w: PerfettoWriter<File>,
    /// Tasks, their names, what each process maps (to read the stacks of
    /// off-CPU intervals).
    world: World,
    /// By syscall number: the calls the world needs (what they map and
    /// open); the others are not handed to it, so no call is kept twice.
    follows: Vec<bool>,
    file: String,
    decode: Options,
    /// By syscall number: the calls written (the others are followed for
    /// what they map, not written: --no-syscalls, or not shown by trace).
    shown: Vec<bool>,
    /// Each call's site is written (--source).
    sites: bool,
    /// On-CPU samples are written (not --no-profile).
    on_cpu_samples: bool,
    period_ns: u64,
    freq: u64,
    /// Each thread's last on-CPU stack: the CPU time it ran between samples
    /// goes there (as genba profile counts it).
    last_on_cpu: HashMap<u32, (u64, bool)>,
    /// The stack of CPU time that ran between samples of a thread never sampled.
    between: Option<u64>,
    /// Calls entered and not yet returned, by thread.
    pending: HashMap<u32, SyscallEnter>,
    /// Threads whose track is described: their process and the name given.
    described: HashMap<u32, (u32, String)>,
    /// Processes whose track is described.
    processes: HashMap<u32, String>,
    next_flow: u64,
    /// The recording's own track (its settings, the GPU clocks).
    settings_track: Option<Track>,
    /// GPU queues' tracks by (pid, queue): each lane and its last end.
    gpu_queues: HashMap<(u32, u64), Vec<(Track, u64)>>,
    /// Each queue's commands waiting (QUEUED to START): tracks beside the
    /// queue's, lanes as waits overlap (each lane's last end).
    gpu_waits: HashMap<(u32, u64), Vec<(Track, u64)>>,
    /// GPU devices' names by (pid, device handle).
    gpu_devices: HashMap<(u32, u64), String>,
    /// GPU records each process's shim dropped (its ring was full).
    gpu_lost: HashMap<u32, u64>,
    /// GPU commands the device gave no times for.
    gpu_untimed: u64,
    /// The flows GPU API calls began and no command has ended yet: a
    /// command whose call was lost (a shim's ring was full) ends none.
    gpu_flows: std::collections::HashSet<u64>,
    events: u64,
    /// The first write error; after it nothing more is written.
    error: Option<io::Error>,
    unwritten: u64,
    started: Instant,
    /// On a terminal: when the progress line was last drawn.
    progress: Option<Instant>,
    /// A progress line is on the terminal, not yet ended by a newline.
    progress_shown: bool,
    /// What is written out as the recording goes (see [`RecordSink::tick`]).
    live: LiveState,
    /// Scratch text of each call recorded: its arguments, its line.
    args_buf: String,
    line_buf: String,
    /// The interned names of the calls' slices (by number, once used) and
    /// of their arguments (call, ret, site, args).
    call_names: Vec<Option<NameId>>,
    call_args: [ArgId; 4],
}

impl RecordSink {
    /// Creates the file and starts the recording, before the program
    /// starts (a bad path fails then); kernel symbols are read now, not
    /// while the program waits.
    pub(crate) fn create(r: &Recording<'_>) -> Result<RecordSink> {
        let file =
            File::create(r.output).with_context(|| format!("Can't create '{}'", r.output))?;
        let mut w = PerfettoWriter::new(file, clock_readings())
            .with_context(|| format!("writing '{}'", r.output))?;
        let call_args = ["call", "ret", "site", "args"].map(|n| w.arg_id(n));
        let mut stacks = Stacks::new(StackOptions {
            source: true,
            stack_trace: 0,
            stack_bytes: r.stack_bytes,
            skip: Vec::new(),
        });
        stacks.load_kernel_symbols();
        if r.all_tasks {
            stacks.load_unknown_processes();
        }
        let n = genba_bpf::MAX_SYSCALLS as usize;
        Ok(RecordSink {
            w,
            world: World::new(Default::default(), false, Some(stacks)),
            // every call's entry is followed for its call site; else only
            // what the intervals' stacks are read against
            follows: (0..n as u32)
                .map(|nr| {
                    r.sites || table::by_nr(nr).is_some_and(|i| BOOKKEEPING.contains(&i.name))
                })
                .collect(),
            file: r.output.to_string(),
            decode: r.decode.clone(),
            shown: r.shown.clone().unwrap_or_else(|| vec![false; n]),
            sites: r.sites,
            on_cpu_samples: r.on_cpu,
            period_ns: r.period_ns,
            freq: r.freq,
            last_on_cpu: HashMap::default(),
            between: None,
            pending: HashMap::default(),
            described: HashMap::default(),
            processes: HashMap::default(),
            next_flow: 1,
            settings_track: None,
            gpu_queues: HashMap::default(),
            gpu_waits: HashMap::default(),
            gpu_devices: HashMap::default(),
            gpu_lost: HashMap::default(),
            gpu_untimed: 0,
            gpu_flows: Default::default(),
            events: 0,
            error: None,
            unwritten: 0,
            started: Instant::now(),
            progress: std::io::stderr().is_terminal().then(Instant::now),
            progress_shown: false,
            live: LiveState::new(),
            args_buf: String::new(),
            line_buf: String::new(),
            call_names: Vec::new(),
            call_args,
        })
    }

    /// Once the session has started: the recording's settings, and what is
    /// there before the first event (the program as launched, the attached
    /// processes' mappings and threads' names as /proc says).
    pub(crate) fn started(
        &mut self,
        session: &Session,
        command: &[String],
        pids: &[String],
    ) -> Result<()> {
        let what = if command.is_empty() {
            format!("pid {}", pids.join(","))
        } else {
            command.join(" ")
        };
        // most events are the program's main thread's: its track is the
        // default one (the file's first packet says so, before anything
        // is written out)
        let main = session
            .child_pid()
            .map(|p| p as u32)
            .or_else(|| pids.first().and_then(|p| p.parse().ok()));
        if let Some(tid) = main {
            self.w
                .default_thread(tid)
                .with_context(|| format!("writing '{}'", self.file))?;
        }
        self.settings(&what)
            .and_then(|_| self.start_live())
            .with_context(|| format!("writing '{}'", self.file))?;
        let mut loaded = std::collections::HashSet::new();
        for &tid in &session.attached {
            let pid = self.world.tgid_of(tid);
            if let (true, Some(s)) = (loaded.insert(pid), self.world.stacks_mut()) {
                s.load_process(pid);
            }
            self.world.name_or_proc(tid);
        }
        if let (Some(pid), Some(prog)) = (session.child_pid(), command.first()) {
            let name = prog.rsplit('/').next().unwrap_or("");
            self.world.set_name(pid as u32, name);
        }
        Ok(())
    }

    /// The closing packets and the summary line; true when something
    /// could not be written (said on stderr).
    pub(crate) fn end(&mut self, stats: &CollectorStats) -> bool {
        let _ = self.finish(stats);
        match self.problem() {
            Some(p) => {
                eprintln!("genba: {p}");
                true
            }
            None => false,
        }
    }

    /// What the recording is: a track of its own with its settings (the
    /// report reads the sampling period and the directory source paths are
    /// shown relative to).
    fn settings(&mut self, what: &str) -> io::Result<()> {
        let (period_ns, freq, samples) = (self.period_ns, self.freq, self.on_cpu_samples);
        let t = self.w.named_track("genba record")?;
        self.settings_track = Some(t);
        let cwd = std::env::current_dir()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.w.instant(
            t,
            clock_readings().monotonic,
            "settings",
            &[
                ("command", ArgValue::Str(what)),
                ("period_ns", ArgValue::Uint(period_ns)),
                ("freq_hz", ArgValue::Uint(freq)),
                ("on_cpu_samples", ArgValue::Uint(samples.into())),
                ("cwd", ArgValue::Str(&cwd)),
                ("genba", ArgValue::Str(env!("CARGO_PKG_VERSION"))),
                ("format", ArgValue::Uint(crate::cut::FORMAT)),
            ],
            &[],
        )
    }

    /// A stack as the recording keeps it, outermost frame first: the user
    /// frames (each inlined function a frame of its own), the system call
    /// in progress as a frame of the `[syscall]` module, the kernel frames.
    fn stack_frames(
        &self,
        cs: Option<&crate::stacks::CallStacks>,
        kstack: &[u64],
        syscall: Option<&str>,
    ) -> Vec<StackFrame> {
        let Some(stacks) = self.world.stacks() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for phys in cs.iter().flat_map(|c| c.user.iter().rev()) {
            for f in phys.iter().rev() {
                out.push(StackFrame {
                    module: f.module.clone(),
                    build_id: stacks
                        .build_id(&f.module)
                        .map(<[u8]>::to_vec)
                        .unwrap_or_default(),
                    rel_pc: f.file_offset,
                    function: f.function.clone(),
                    file: f.file.clone(),
                    line: f.line,
                });
            }
        }
        if let Some(s) = syscall {
            out.push(StackFrame {
                module: "[syscall]".into(),
                build_id: Vec::new(),
                rel_pc: 0,
                function: Some(s.to_string()),
                file: None,
                line: None,
            });
        }
        for &a in kstack.iter().rev() {
            let name = match stacks.kernel_function(a) {
                Ok(n) => std::borrow::Cow::Borrowed(n),
                Err(hex) => std::borrow::Cow::Owned(hex),
            };
            if crate::offcpu::own_kernel_frame(&name) {
                continue;
            }
            out.push(StackFrame {
                module: "[kernel]".into(),
                build_id: Vec::new(),
                rel_pc: a,
                function: Some(name.into_owned()),
                file: None,
                line: None,
            });
        }
        out
    }

    /// An on-CPU sample; or (`p.flush`) the CPU time a thread ran since
    /// its last sample, sent when it ended, on the stack it was last seen
    /// running. Either stands for `w_block` periods: as many samples.
    fn on_cpu(&mut self, p: &ProfSample) -> io::Result<()> {
        if !self.on_cpu_samples {
            // --no-profile: no sampling timer, so a thread's CPU time is
            // all "between samples"; it is not a profile
            return Ok(());
        }
        // (the stack, and whether it was in the kernel)
        let (cs, kernel) = if p.flush {
            match self.last_on_cpu.get(&p.task.tid) {
                Some(&last) => last,
                None => (self.between(), false),
            }
        } else {
            let cs = if p.regs[0] != 0 {
                self.world
                    .stacks_mut()
                    .map(|s| s.resolve_regs(p.task.tgid, p.regs, &p.ustack, Vec::new(), false))
            } else {
                None
            };
            let syscall = (p.sysnr >= 0 && p.class == 1)
                .then(|| table::by_nr(p.sysnr as u32).map(|i| i.name))
                .flatten();
            let frames = self.stack_frames(cs.as_ref(), &p.kstack, syscall);
            let last = (self.w.callstack(&frames), p.class == 1);
            self.last_on_cpu.insert(p.task.tid, last);
            last
        };
        self.track(p.task)?;
        for _ in 0..p.w_block {
            self.w
                .sample(p.ts, None, p.task.tgid, p.task.tid, kernel, cs)?;
        }
        Ok(())
    }

    /// The stack of CPU time a thread ran between samples when it was
    /// never sampled (as genba profile names it).
    fn between(&mut self) -> u64 {
        if let Some(c) = self.between {
            return c;
        }
        let c = self.w.callstack(&[StackFrame {
            module: "[unknown]".into(),
            build_id: Vec::new(),
            rel_pc: 0,
            function: Some("(ran between samples: too short to be sampled)".into()),
            file: None,
            line: None,
        }]);
        self.between = Some(c);
        c
    }

    /// The thread's track, described (again) when new or renamed.
    fn track(&mut self, task: Task) -> io::Result<Track> {
        let known = self
            .world
            .name(task.tid)
            .or_else(|| self.world.name(task.tgid));
        // the common case, every event: described, under its current name
        if let (Some(n), Some((_, d))) = (known, self.described.get(&task.tid)) {
            let process_named = match self.processes.get(&task.tgid) {
                Some(p) => task.tid != task.tgid || p == n,
                None => false,
            };
            if *n == *d && process_named {
                return Ok(genba_export::perfetto::thread_track(task.tid));
            }
        }
        let name = match known {
            Some(n) => n.to_string(),
            // a task seen first as a waker, or before its fork record: its
            // name now, while it is there to ask
            None => self.world.name_or_proc(task.tid),
        };
        // a process is named after its main thread
        let renamed = task.tid == task.tgid && self.processes.get(&task.tgid) != Some(&name);
        if renamed || !self.processes.contains_key(&task.tgid) {
            self.w.process(task.tgid, &name)?;
            self.processes.insert(task.tgid, name.clone());
        }
        let t = self.w.thread(task.tgid, task.tid, &name)?;
        self.described.insert(task.tid, (task.tgid, name));
        Ok(t)
    }

    /// Whether calls of number `nr` are written.
    fn shows(&self, nr: u32) -> bool {
        self.shown.get(nr as usize).copied().unwrap_or(false)
    }

    fn write(&mut self, ev: &Event, site: Option<String>) -> io::Result<()> {
        match ev {
            // a call not written is not kept either
            Event::SyscallEnter(e) if !self.shows(e.nr) => {}
            Event::SyscallExit(x) if !self.shows(x.nr) => {}
            Event::SyscallEnter(e) => {
                // the stack copy was read by the world: keep the kilobytes out
                let mut e = e.clone();
                e.captures.retain(|c| {
                    !matches!(
                        c.item,
                        genba_events::CaptureItem::UserStack
                            | genba_events::CaptureItem::KernelStack
                    )
                });
                self.pending.insert(e.task.tid, e);
            }
            Event::SyscallExit(x) => {
                let e = self.pending.remove(&x.task.tid).filter(|e| e.nr == x.nr);
                self.call(e.as_ref(), Some(x), site)?;
            }
            Event::Fork { ts, task, child } => {
                let t = self.track(*task)?;
                let what = if child.tgid == task.tgid {
                    "thread"
                } else {
                    "fork"
                };
                self.w.instant(
                    t,
                    *ts,
                    what,
                    &[("child_tid", ArgValue::Uint(child.tid.into()))],
                    &[],
                )?;
                self.track(*child)?;
            }
            Event::Exec {
                ts, task, old_tid, ..
            } => {
                // its CPU time from now is the new program's (as genba
                // profile counts it)
                self.last_on_cpu.remove(&task.tid);
                if *old_tid != task.tid {
                    // another thread exec'd: its execve returns with the
                    // leader's tid (its slice stays on its own track)
                    if let Some(e) = self.pending.remove(old_tid) {
                        self.pending.insert(task.tid, e);
                    }
                }
                let t = self.track(*task)?;
                // the program: as its execve named it, else as /proc says
                // now (a call not seen: attached in the middle of it)
                let path = match self.world.program(task.tgid) {
                    Some(p) => p.to_string(),
                    None => std::fs::read_link(format!("/proc/{}/exe", task.tgid))
                        .map(|p| p.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                };
                let args = [("path", ArgValue::Str(&path))];
                let n = usize::from(!path.is_empty());
                self.w.instant(t, *ts, "exec", &args[..n], &[])?;
            }
            Event::Exit {
                ts, task, status, ..
            } => {
                if let Some(e) = self.pending.remove(&task.tid) {
                    self.unfinished(&e, *ts)?;
                }
                let t = self.track(*task)?;
                self.w.instant(
                    t,
                    *ts,
                    "exit",
                    &[("status", ArgValue::Int((*status).into()))],
                    &[],
                )?;
            }
            Event::Signal { ts, task, sig, .. } => {
                let t = self.track(*task)?;
                let name = format!("--- {} ---", consts::signal_name(*sig));
                self.w.instant(t, *ts, &name, &[], &[])?;
            }
            Event::Profile(p) => self.sample(p)?,
            Event::Gpu(g) => self.gpu(g)?,
        }
        Ok(())
    }

    /// A GPU API call on its thread, a command on its queue's track (its
    /// device times, a flow from the call that enqueued it), a device's
    /// clock as the shim mapped it, the shim's losses.
    fn gpu(&mut self, g: &GpuEvent) -> io::Result<()> {
        match g {
            GpuEvent::Call(c) => {
                let t = self.track(c.task)?;
                let line = c.line();
                let api = c.api.name();
                let mut args = vec![("api", ArgValue::Str(api)), ("call", ArgValue::Str(&line))];
                if c.error != 0 {
                    args.push(("error", ArgValue::Int(c.error.into())));
                }
                let flow = [gpu_flow(c.task.tid, c.ts)];
                let out: &[u64] = if c.timed { &flow } else { &[] };
                if c.timed {
                    self.gpu_flows.insert(flow[0]);
                }
                self.w.slice(
                    t,
                    c.ts,
                    c.end.saturating_sub(c.ts),
                    &c.name,
                    &args,
                    out,
                    &[],
                )?;
            }
            GpuEvent::Command(c) => {
                if c.start == 0 || c.end < c.start {
                    self.gpu_untimed += 1;
                    return Ok(());
                }
                self.track(c.task)?;
                let t = self.gpu_lane(c)?;
                let kind = crate::gputable::kind_name(c.kind);
                let mut args = vec![("kind", ArgValue::Str(kind))];
                if c.queued != 0 {
                    args.push((
                        "queued_ns",
                        ArgValue::Uint(c.start.saturating_sub(c.queued)),
                    ));
                }
                if c.submit != 0 {
                    args.push((
                        "submitted_ns",
                        ArgValue::Uint(c.start.saturating_sub(c.submit)),
                    ));
                }
                let bw;
                if c.bytes > 0 {
                    args.push(("bytes", ArgValue::Uint(c.bytes)));
                    let dur = (c.end - c.start).max(1);
                    bw = format!("{:.2} GB/s", c.bytes as f64 / dur as f64);
                    args.push(("bandwidth", ArgValue::Str(&bw)));
                }
                if c.error != 0 {
                    args.push(("error", ArgValue::Int(c.error.into())));
                }
                args.push(("enqueued_by", ArgValue::Uint(c.task.tid.into())));
                if let Some(u) = c.clock_uncertainty {
                    // a device clock of its own: how far its times may be
                    // off, every line the facts allow considered
                    args.push(("clock_uncertainty_ns", ArgValue::Uint(u)));
                }
                // the flow from the call that made it (a Vulkan command
                // buffer submitted again has none: its calls' flows ended)
                let flow = [gpu_flow(c.task.tid, c.enqueued)];
                let flow_in: &[u64] = if c.enqueued != 0 && self.gpu_flows.remove(&flow[0]) {
                    &flow
                } else {
                    &[]
                };
                self.w
                    .slice(t, c.start, c.end - c.start, &c.name, &args, &[], flow_in)?;
                // its wait in the queue, apart from its execution
                if c.queued != 0 && c.queued < c.start {
                    let wt = self.gpu_wait_lane(c)?;
                    self.w.slice(
                        wt,
                        c.queued,
                        c.start - c.queued,
                        &c.name,
                        &[
                            ("state", ArgValue::Str("queued")),
                            ("enqueued_by", ArgValue::Uint(c.task.tid.into())),
                        ],
                        &[],
                        &[],
                    )?;
                }
            }
            GpuEvent::Clock(c) => {
                self.gpu_devices.insert((c.pid, c.device), c.name.clone());
                let t = match self.settings_track {
                    Some(t) => t,
                    None => return Ok(()),
                };
                let domain = match c.domain {
                    Some(0) => "CLOCK_REALTIME".to_string(),
                    Some(1) => "CLOCK_MONOTONIC".to_string(),
                    Some(4) => "CLOCK_MONOTONIC_RAW".to_string(),
                    Some(7) => "CLOCK_BOOTTIME".to_string(),
                    Some(d) => format!("clock {d}"),
                    None if c.commands > 0 => {
                        "its own (an offset narrowed by its commands' facts)".to_string()
                    }
                    None if c.api == genba_events::GpuApi::Vulkan => {
                        "its own (an offset from VK_EXT_calibrated_timestamps)".to_string()
                    }
                    None => "its own (an offset measured around a marker)".to_string(),
                };
                self.w.instant(
                    t,
                    c.ts,
                    "gpu clock",
                    &[
                        ("pid", ArgValue::Uint(c.pid.into())),
                        ("device", ArgValue::Str(&c.name)),
                        ("device_clock", ArgValue::Str(&domain)),
                        ("offset_ns", ArgValue::Int(c.offset)),
                        ("uncertainty_ns", ArgValue::Uint(c.uncertainty)),
                        ("drift_ppb", ArgValue::Int(c.drift_ppb)),
                        ("from_commands", ArgValue::Uint(c.commands)),
                    ],
                    &[],
                )?;
            }
            GpuEvent::Lost { pid, records } => {
                self.gpu_lost.insert(*pid, *records);
            }
        }
        Ok(())
    }

    /// The track a command waits on from QUEUED to START: its queue's
    /// waiting track (named after the queue), or another lane of it while
    /// the earlier waits have not ended (commands queued behind others).
    fn gpu_wait_lane(&mut self, c: &GpuCommand) -> io::Result<Track> {
        self.lane(c, true, c.queued, c.start)
    }

    /// The track a command runs on: its queue's, or a lane beside it when
    /// it overlaps the queue's last command (an out-of-order queue).
    fn gpu_lane(&mut self, c: &GpuCommand) -> io::Result<Track> {
        self.lane(c, false, c.start, c.end)
    }

    /// A lane of command `c`'s queue (`waiting`: of its waits) free from
    /// `from` on, taken until `to`; a new one (`#2`...) when none is.
    fn lane(&mut self, c: &GpuCommand, waiting: bool, from: u64, to: u64) -> io::Result<Track> {
        let key = (c.task.tgid, c.queue);
        let map = if waiting {
            &mut self.gpu_waits
        } else {
            &mut self.gpu_queues
        };
        let lanes = map.entry(key).or_default();
        if let Some(l) = lanes.iter_mut().find(|l| l.1 <= from) {
            l.1 = to;
            return Ok(l.0);
        }
        let n = lanes.len();
        let device = self
            .gpu_devices
            .get(&(c.task.tgid, c.device))
            .cloned()
            .unwrap_or_else(|| format!("device {:#x}", c.device));
        let api = c.api.name();
        let mut name = format!("{api} queue {:#x} ({device})", c.queue);
        if waiting {
            name = format!("waiting in {name}");
        }
        if n > 0 {
            name.push_str(&format!(" #{}", n + 1));
        }
        let t = self.w.process_track(&name, c.task.tgid)?;
        let map = if waiting {
            &mut self.gpu_waits
        } else {
            &mut self.gpu_queues
        };
        map.entry(key).or_default().push((t, to));
        Ok(t)
    }

    /// A completed call (or one whose entry was not needed: exit-only).
    fn call(
        &mut self,
        e: Option<&SyscallEnter>,
        x: Option<&SyscallExit>,
        site: Option<String>,
    ) -> io::Result<()> {
        let Some(x) = x else { return Ok(()) };
        let Some(start) = e.map(|e| e.ts).or(x.enter_ts) else {
            return Ok(());
        };
        let unknown;
        let info = table::by_nr(x.nr);
        let name = match info {
            Some(s) => s.name,
            None => {
                unknown = format!("syscall_{:#x}", x.nr);
                &unknown
            }
        };
        let call = CallView {
            nr: x.nr,
            args: e.map(|e| e.args).unwrap_or(x.args),
            // a call -e inject= answered without running it: its exit
            // made the entry's copies
            enter: match e {
                Some(e) => e.captures.as_slice(),
                None if x.inject & genba_events::INJ_SKIPPED != 0 => x.captures.as_slice(),
                None => &[],
            },
            exit: Some((x.ret, x.captures.as_slice())),
        };
        // the line as `genba trace` prints it, in buffers kept from call to
        // call (this runs for every call recorded)
        let env = Env::default();
        let args =
            decode::write_args_in(std::mem::take(&mut self.args_buf), call, &self.decode, &env).s;
        let mut line = std::mem::take(&mut self.line_buf);
        line.clear();
        line.push_str(name);
        line.push('(');
        line.push_str(&args);
        line.push_str(") ");
        self.args_buf = args;
        let kind = decode::decoder_for(x.nr).map(|d| d.ret).unwrap_or(Ret::Dec);
        decode::push_return_text_with(&mut line, name, call, kind, &self.decode);
        line.push_str(crate::render::injected_note(x.inject));
        let t = self.track(x.task)?;
        let nr = x.nr as usize;
        if nr >= self.call_names.len() {
            self.call_names.resize(nr + 1, None);
        }
        let name = *self.call_names[nr].get_or_insert_with(|| self.w.name_id(name));
        let [a_call, a_ret, a_site, a_args] = self.call_args;
        // the raw argument registers, as many as the call takes
        let nargs = info.map_or(6, |i| i.nargs as usize).min(6);
        let mut args = [(a_call, ArgValue::Str(&line)); 4];
        args[1] = (a_ret, ArgValue::Int(x.ret));
        let mut n = 2;
        if nargs > 0 {
            args[n] = (a_args, ArgValue::Uints(&call.args[..nargs]));
            n += 1;
        }
        if let Some(s) = &site {
            args[n] = (a_site, ArgValue::Str(s));
            n += 1;
        }
        let dur = x.ts.saturating_sub(start);
        let written = self.w.slice_by_ids(t, start, dur, name, &args[..n]);
        self.line_buf = line;
        written
    }

    /// A call still in progress when its thread ended or the recording
    /// stopped.
    fn unfinished(&mut self, e: &SyscallEnter, end: u64) -> io::Result<()> {
        let name = table::by_nr(e.nr)
            .map(|s| s.name.to_string())
            .unwrap_or_else(|| format!("syscall_{:#x}", e.nr));
        let t = self.track(e.task)?;
        self.w.slice(
            t,
            e.ts,
            end.saturating_sub(e.ts),
            &name,
            &[("call", ArgValue::Str(&format!("{name}(...) <unfinished>")))],
            &[],
            &[],
        )
    }

    /// An off-CPU interval: its class from the switch-out to the wakeup,
    /// then the wait for a CPU ([S]) to the switch-in, which a flow from the
    /// waker reaches.
    fn sample(&mut self, p: &ProfSample) -> io::Result<()> {
        if !p.off_cpu || p.flush {
            return self.on_cpu(p);
        }
        if p.out_ts == 0 {
            return Ok(());
        }
        let t = self.track(p.task)?;
        let syscall = (p.sysnr >= 0)
            .then(|| table::by_nr(p.sysnr as u32).map(|s| s.name))
            .flatten();
        let wake = p.wake_ts.clamp(p.out_ts, p.ts);
        // the waker's moment: at or before the wait's end
        let waking = p.waking_ts.clamp(p.out_ts, wake);
        let cs = if p.regs[0] != 0 {
            self.world
                .stacks_mut()
                .map(|s| s.resolve_regs(p.task.tgid, p.regs, &p.ustack, Vec::new(), false))
        } else {
            None
        };
        let frames = self.stack_frames(cs.as_ref(), &p.kstack, syscall);
        let class = refine(crate::offcpu::class_of(p.class), &frames);
        let site = cs
            .as_ref()
            .and_then(|c| Some(self.world.stacks()?.site_label(c)));
        let stack = Some(self.w.callstack(&frames));
        if wake > p.out_ts {
            // named by its class (one colour a class in the UI), the call
            // an argument
            let tag = class.tag();
            let name = crate::slicename::slice_name(tag);
            let mut args = vec![("class", ArgValue::Str(tag))];
            if let Some(s) = syscall {
                args.push(("syscall", ArgValue::Str(s)));
            }
            if let Some(site) = &site {
                args.push(("site", ArgValue::Str(site)));
            }
            // where it slept in the kernel, for a reader of the slice (the
            // stack has it too)
            let kernel_frame = frames
                .iter()
                .rev()
                .filter(|f| f.module == "[kernel]")
                .filter_map(|f| f.function.as_deref())
                .find(|n| !genba_analyze::report::scheduler_plumbing(n));
            if let Some(k) = kernel_frame {
                args.push(("kernel_frame", ArgValue::Str(k)));
            }
            // who woke it: a thread, or an interrupt (no thread's doing:
            // the task it landed on is not named)
            let irq = p.waker_kind != genba_events::WakerKind::Thread;
            if irq {
                args.push(("waker", ArgValue::Str(p.waker_kind.name())));
            } else if p.waker_tid != 0 {
                args.push(("waker_tid", ArgValue::Uint(p.waker_tid.into())));
            }
            // when the waker woke it, if before the run queue had it
            if (irq || p.waker_tid != 0) && waking < wake {
                args.push(("waking_ns", ArgValue::Uint(waking)));
            }
            // the blocked samples the interval weighs, as genba profile
            // counts them
            args.push(("samples", ArgValue::Uint(p.w_block.into())));
            self.w
                .slice_with_stack(t, p.out_ts, wake - p.out_ts, name, &args, &[], &[], stack)?;
        }
        // the wakeup: from the thread that woke it, to this wait for a CPU
        // (a wakeup from an interrupt has no thread's slice to start from)
        let mut flow_in = Vec::new();
        if p.waker_kind == genba_events::WakerKind::Thread
            && p.waker_tid != 0
            && p.waker_tid != p.task.tid
            && wake > p.out_ts
        {
            let flow = self.next_flow;
            self.next_flow += 1;
            let waker = Task {
                tgid: self.tgid_of(p.waker_tid),
                tid: p.waker_tid,
            };
            let wt = self.track(waker)?;
            self.w.instant(
                wt,
                waking,
                "wakeup",
                &[("wakee_tid", ArgValue::Uint(p.task.tid.into()))],
                &[flow],
            )?;
            flow_in.push(flow);
        }
        if p.ts > wake || !flow_in.is_empty() {
            let mut args = vec![("class", ArgValue::Str("[S]"))];
            if !flow_in.is_empty() {
                args.push(("waker_tid", ArgValue::Uint(p.waker_tid.into())));
            }
            // a thread preempted (runnable from its switch-out) has no
            // blocked slice: its weight is the runnable one's
            let w = if wake > p.out_ts {
                p.w_runq
            } else {
                p.w_runq + p.w_block
            };
            args.push(("samples", ArgValue::Uint(w.into())));
            self.w.slice_with_stack(
                t,
                wake,
                p.ts - wake,
                crate::slicename::slice_name("[S]"),
                &args,
                &[],
                &flow_in,
                stack,
            )?;
        }
        Ok(())
    }

    /// The process of a thread seen only as a waker.
    fn tgid_of(&mut self, tid: u32) -> u32 {
        if let Some(&(pid, _)) = self.described.get(&tid) {
            return pid;
        }
        self.world.tgid_of(tid)
    }

    /// The closing packets: what was lost, then the recording's end (a
    /// recording without it was cut short).
    fn finish(&mut self, stats: &CollectorStats) -> Result<()> {
        if self.error.is_none() {
            let now = clock_readings().monotonic;
            // calls still in progress as the recording stops (-p, -a: a
            // thread blocked in a call all along), to the end, unfinished
            let mut open: Vec<SyscallEnter> = self.pending.drain().map(|(_, e)| e).collect();
            open.sort_by_key(|e| (e.ts, e.task.tid));
            for e in &open {
                if let Err(err) = self.unfinished(e, now.max(e.ts)) {
                    self.error = Some(err);
                    break;
                }
            }
        }
        if self.error.is_none() {
            let now = clock_readings().monotonic;
            let gpu_lost: u64 = self.gpu_lost.values().sum();
            let gpu = !self.gpu_devices.is_empty() || gpu_lost > 0;
            let r = self
                .close_lost(now, stats.total_lost())
                .and_then(|_| {
                    // the GPU shims' own losses, when there was a GPU
                    if gpu {
                        let t = self.w.counter_track("lost GPU records", "records", None)?;
                        self.w.counter(t, now, gpu_lost as i64)?;
                    }
                    Ok(())
                })
                .and_then(|_| self.end_marker(now, stats))
                .and_then(|_| self.w.flush());
            if let Err(e) = r {
                self.error = Some(e);
            }
        }
        self.end_progress();
        if self.gpu_untimed > 0 {
            eprintln!(
                "genba: {} GPU commands without device times (not in the recording)",
                self.gpu_untimed
            );
        }
        let (packets, bytes) = self.w.written();
        eprintln!(
            "genba: recorded {} events in {:.1} s: {packets} packets, {:.1} MB, to {}",
            self.events,
            self.started.elapsed().as_secs_f64(),
            bytes as f64 / 1e6,
            self.file
        );
        Ok(())
    }

    /// A write that failed, said as a sentence.
    fn problem(&self) -> Option<String> {
        self.error.as_ref().map(|e| {
            if self.unwritten > 0 {
                format!(
                    "{} events not written to {}: {e}",
                    self.unwritten, self.file
                )
            } else {
                format!("the end of the recording not written to {}: {e}", self.file)
            }
        })
    }
}

impl Sink for RecordSink {
    fn event(&mut self, ev: &Event) {
        self.events += 1;
        let nr = match ev {
            Event::SyscallEnter(e) => Some(e.nr),
            Event::SyscallExit(x) => Some(x.nr),
            _ => None,
        };
        let mut site = None;
        if nr.is_none_or(|nr| self.follows.get(nr as usize).copied().unwrap_or(false)) {
            let st = self.world.follow(ev);
            if let (true, Some(cs), Some(stacks)) = (self.sites, &st, self.world.stacks()) {
                site = Some(stacks.site_label(cs));
            }
        }
        if self.error.is_some() {
            self.unwritten += 1;
            return;
        }
        if let Err(e) = self.write(ev, site) {
            eprintln!(
                "genba: {}: {e} (the rest of the recording is counted, not written)",
                self.file
            );
            self.error = Some(e);
            self.unwritten += 1;
        }
    }

    fn tick(&mut self, tracer: &Tracer) {
        self.tick_live(tracer);
        let Some(last) = self.progress else { return };
        if last.elapsed().as_millis() < 500 {
            return;
        }
        self.progress = Some(Instant::now());
        self.progress_shown = true;
        let secs = self.started.elapsed().as_secs_f64();
        let lost = self.live.lost();
        let (_, bytes) = self.w.written();
        eprint!(
            "\rgenba: recording {secs:.1} s, {:.0} events/s, {:.1} MB written, {lost} lost ",
            self.events as f64 / secs.max(1e-3),
            bytes as f64 / 1e6
        );
    }
}

/// The class of a blocked interval as the profile reads it from its stack
/// (kernel frames sharpen I/O and locks; a futex wait in a join, a
/// condition variable or a semaphore waits for an event: [B]).
fn refine(class: Class, frames: &[StackFrame]) -> Class {
    let names = |kernel: bool| -> Vec<&str> {
        frames
            .iter()
            .filter(|f| (f.module == "[kernel]") == kernel && f.module != "[syscall]")
            .filter_map(|f| f.function.as_deref())
            .collect()
    };
    let class = report::refine_class(class, &names(true));
    report::refine_futex_wait(class, &names(false))
}

/// The flow from a GPU enqueue call (by its thread and start) to the
/// command it made: its own id space (the top bit), apart from wakeups'.
fn gpu_flow(tid: u32, ts: u64) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    let h = BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one((tid, ts));
    h | 1 << 63
}
