//! The session skeleton every command shares: start the program (held
//! before its exec) or find the processes to attach to, load and attach the
//! collector, let the program go, then poll events into a sink until the
//! traced tasks are gone or genba is told to stop, and drain what is left.
//!
//! `trace` and `profile` are configurations of it: they choose the BPF
//! plans and the sink; the start, liveness, stop and the guarantee that a
//! launched program is never left held (it is killed before its exec if
//! tracing cannot start) live here once.

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::{anyhow, Result};
use genba_bpf::{SyscallPlan, TraceConfig, Tracer};
use genba_events::Event;

use crate::launch::{self, Child};

/// Consumes a session's events, in the order the collector gives them.
pub trait Sink {
    /// One event.
    fn event(&mut self, ev: &Event);
    /// After each poll: a chance to write out what is buffered.
    fn flush(&mut self) {}
    /// After each poll, with the collector (its loss counters so far).
    fn tick(&mut self, _tracer: &Tracer) {}
    /// A child of genba that is not the program ended (a CLONE_PARENT
    /// sibling of the program), reaped so that it does not stay a zombie.
    fn unknown_exit(&mut self, _pid: i32) {}
}

/// Several sinks fed the same events in turn (a trace or a profile that
/// is also recorded).
pub struct Tee<'a>(pub Vec<&'a mut dyn Sink>);

impl Sink for Tee<'_> {
    fn event(&mut self, ev: &Event) {
        for s in self.0.iter_mut() {
            s.event(ev);
        }
    }
    fn flush(&mut self) {
        for s in self.0.iter_mut() {
            s.flush();
        }
    }
    fn tick(&mut self, tracer: &Tracer) {
        for s in self.0.iter_mut() {
            s.tick(tracer);
        }
    }
    fn unknown_exit(&mut self, pid: i32) {
        for s in self.0.iter_mut() {
            s.unknown_exit(pid);
        }
    }
}

/// When the session ends on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// When the traced tasks are gone (or on a signal, when attached).
    TasksGone,
    /// Only on a signal to genba (the whole system, without a command).
    Signal,
}

impl Until {
    /// The whole system without a command (`-a`) runs until a signal;
    /// every other session until its tasks are gone.
    pub fn of(all: bool, command: bool) -> Until {
        if all && !command {
            Until::Signal
        } else {
            Until::TasksGone
        }
    }
}

/// What to watch.
pub struct Target<'a> {
    /// The program to launch: its resolved path and argv.
    pub command: Option<(&'a Path, &'a [String])>,
    /// Processes to attach to.
    pub pids: &'a [i32],
    /// Attach to every thread of each process (else the pid alone).
    pub all_threads: bool,
    /// `-e inject=`: the launched program's calls to act on (a launched
    /// program only).
    pub inject: Option<&'a crate::inject::Injections>,
    /// With `inject`: act on the children's calls too (`-f`).
    pub inject_children: bool,
}

impl<'a> Target<'a> {
    /// What a profile, a recording or a causal run watches: the program
    /// launched or the processes attached, every thread of each, nothing
    /// injected.
    pub fn every_thread(command: Option<(&'a Path, &'a [String])>, pids: &'a [i32]) -> Target<'a> {
        Target {
            command,
            pids,
            all_threads: true,
            inject: None,
            inject_children: false,
        }
    }
}

/// A running session: the collector and what it watches.
pub struct Session {
    pub tracer: Tracer,
    child: Option<Child>,
    released: bool,
    /// Tasks still alive, as the events tell.
    live: HashSet<u32>,
    /// The tids attached to with `-p`, in order.
    pub attached: Vec<u32>,
    child_status: Option<i32>,
    until: Until,
    /// Every task of the system is traced (-a): only the launched
    /// program's descendants are its tasks (the ones the session waits for).
    all_tasks: bool,
    /// The GPU shims' rings (`--gpu`), read with every poll.
    gpu: Option<genba_gpu::Rings>,
    /// The records each process's shim dropped so far.
    gpu_lost: std::collections::HashMap<u32, u64>,
    /// GPU commands whose mapped times broke the host's facts: how many,
    /// and the most one was moved (ns).
    gpu_moved: (u64, u64),
    /// Devices with clocks of their own, their offsets refined.
    gpu_clocks: crate::gpuclock::DeviceClocks,
    /// With GENBA_DEBUG: the BPF programs' run statistics, counted while held.
    run_stats: Option<genba_bpf::RunStats>,
    /// genba's own CPU time when the programs were attached (ns).
    cpu_at_attach: u64,
    /// `-e inject=`: the rules, until the listener takes them at release;
    /// whether children's calls count too.
    inject: Option<(crate::inject::Injections, bool)>,
    /// The listener's thread, once released.
    injector: Option<std::thread::JoinHandle<crate::inject::Counts>>,
    /// A copy of the listener, for [`Session::hand_off_listener`].
    listener: Option<std::os::fd::OwnedFd>,
}

impl Session {
    /// Forks the program (held before exec), loads the collector, adds the
    /// tasks, runs `before_attach` (state to seed while nothing runs yet),
    /// and attaches. On any failure a held program is killed before it ran.
    pub fn start(
        cfg: &TraceConfig,
        plans: &[SyscallPlan],
        target: Target<'_>,
        until: Until,
        before_attach: impl FnOnce(&mut Tracer, &HashSet<u32>) -> Result<(), genba_bpf::Error>,
    ) -> Result<Session, StartError> {
        if target.inject.is_some() && target.command.is_none() {
            return Err(StartError::Other(anyhow!(
                "-e inject= needs a COMMAND for genba to start: its seccomp filter is installed \
                 before the program's exec, and cannot be added to a running process (-p)"
            )));
        }
        let filter = target.inject.map(|i| i.filter());
        let child = match target.command {
            Some((path, argv)) => {
                Some(Child::spawn(path, argv, filter.as_deref()).map_err(StartError::Other)?)
            }
            None => None,
        };
        // from here on, a failure drops the child held before its exec:
        // Session's Drop kills it
        let mut guard = Held(child);
        let mut tracer = Tracer::load(cfg, plans).map_err(StartError::Bpf)?;
        let mut live = HashSet::new();
        let mut attached = Vec::new();
        if let Some(c) = &guard.0 {
            tracer
                .add_task(c.pid as u32, true)
                .map_err(StartError::Bpf)?;
            live.insert(c.pid as u32);
        }
        for &pid in target.pids {
            let tids: Vec<u32> = if target.all_threads {
                std::fs::read_dir(format!("/proc/{pid}/task"))
                    .map(|d| {
                        d.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                            .collect()
                    })
                    .unwrap_or_else(|_| vec![pid as u32])
            } else {
                vec![pid as u32]
            };
            for tid in tids {
                tracer.add_task(tid, false).map_err(StartError::Bpf)?;
                live.insert(tid);
                attached.push(tid);
            }
        }
        before_attach(&mut tracer, &live).map_err(StartError::Bpf)?;
        tracer.attach().map_err(StartError::Bpf)?;
        Ok(Session {
            tracer,
            child: guard.0.take(),
            released: false,
            live,
            attached,
            child_status: None,
            until,
            all_tasks: cfg.all_tasks,
            gpu: None,
            gpu_lost: Default::default(),
            gpu_moved: (0, 0),
            gpu_clocks: Default::default(),
            // GENBA_DEBUG: the kernel times each BPF program's runs
            run_stats: std::env::var_os("GENBA_DEBUG")
                .is_some()
                .then(genba_bpf::RunStats::enable)
                .flatten(),
            cpu_at_attach: own_cpu_ns(),
            inject: target.inject.map(|i| (i.clone(), target.inject_children)),
            injector: None,
            listener: None,
        })
    }

    /// Starts the profile's sampling on every online CPU.
    pub fn sample_all_cpus(&mut self, period_ns: u64) -> Result<(), genba_bpf::Error> {
        for cpu in genba_bpf::online_cpus() {
            self.tracer.sample_cpu(cpu, period_ns)?;
        }
        Ok(())
    }

    /// The launched program's pid.
    pub fn child_pid(&self) -> Option<i32> {
        self.child.as_ref().map(|c| c.pid)
    }

    /// Tasks alive as far as the events told so far.
    pub fn live(&self) -> &HashSet<u32> {
        &self.live
    }

    /// Also reads the GPU shims' rings in `dir` (`--gpu`).
    pub fn watch_gpu(&mut self, dir: &Path) {
        self.gpu = Some(genba_gpu::Rings::new(dir));
    }

    /// Takes what the GPU shims wrote into `sink`.
    fn poll_gpu(&mut self, sink: &mut dyn Sink, force: bool) {
        let Some(rings) = &mut self.gpu else { return };
        let mut out = Vec::new();
        rings.poll(&mut out, force);
        for mut e in out {
            let mut refined = None;
            match &mut e {
                genba_events::GpuEvent::Lost { pid, records } => {
                    self.gpu_lost.insert(*pid, *records);
                }
                // no command before its enqueue or after its completion
                // was seen, whatever the clock mapping said
                genba_events::GpuEvent::Clock(c) => self.gpu_clocks.clock(c),
                genba_events::GpuEvent::Command(c) => {
                    // a device's own clock: its offset as all the facts
                    // so far narrow it
                    refined = self.gpu_clocks.command(c);
                    let moved = c.hold_to_facts();
                    if moved > 0 {
                        self.gpu_moved.0 += 1;
                        self.gpu_moved.1 = self.gpu_moved.1.max(moved);
                    }
                }
                _ => {}
            }
            sink.event(&Event::Gpu(Box::new(e)));
            if let Some(r) = refined {
                sink.event(&Event::Gpu(Box::new(r)));
            }
        }
    }

    /// With GENBA_DEBUG: the collector's counters, and each BPF program's
    /// runs and mean time (the cost breakdown in docs/PERFORMANCE.md).
    pub fn debug_stats(&self, stats: &genba_events::CollectorStats) {
        if std::env::var_os("GENBA_DEBUG").is_none() {
            return;
        }
        eprintln!("genba: collector stats: {stats:?}");
        // the consumer's cost per event: genba's CPU time since attaching
        // (reading, decoding, formatting and writing) over the events
        let cpu = own_cpu_ns().saturating_sub(self.cpu_at_attach);
        eprintln!(
            "genba: own CPU since attach: {:.1} ms, {:.0} ns per event",
            cpu as f64 / 1e6,
            cpu as f64 / stats.events.max(1) as f64
        );
        if self.run_stats.is_some() {
            for l in self.tracer.run_lines() {
                eprintln!("genba: {l}");
            }
        }
    }

    /// GPU records the shims dropped, their rings full (`--gpu`).
    pub fn gpu_lost(&self) -> u64 {
        self.gpu_lost.values().sum()
    }

    /// With `--gpu`: says the GPU records lost, if any, on stderr, and the
    /// commands whose device times had to be moved.
    pub fn say_gpu_lost(&self) {
        let lost = self.gpu_lost();
        if lost > 0 {
            eprintln!("genba: {lost} GPU records lost (a shim's ring was full)");
        }
        let (n, most) = self.gpu_moved;
        if n > 0 {
            eprintln!(
                "genba: {n} GPU commands' mapped device times broke the host's order (queued \
                 outside their enqueue call, or ended after the wait for them returned or their \
                 completion was seen): moved, by up to {:.1} us",
                most as f64 / 1e3
            );
        }
    }

    /// Lets the launched program exec: tracing is ready. With `-e inject=`
    /// genba takes the program's seccomp listener first and answers it from
    /// a thread of its own; if it cannot, the program (not yet exec'd: it
    /// waits for genba's answer to its execve) is killed.
    pub fn release(&mut self) -> Result<()> {
        let Some(c) = &mut self.child else {
            self.released = true;
            return Ok(());
        };
        if let Some((inj, children)) = self.inject.take() {
            // the listener is taken, and answered, before the program may
            // exec: no call it names ever waits for no one
            let pid = c.pid;
            let started = crate::inject::take_listener(pid).and_then(|fd| {
                let keep = fd.try_clone()?;
                let marks = self.tracer.inject_marks().map_err(|e| anyhow!(e))?;
                let pokes = if inj.pokes_at_exit() {
                    Some(self.tracer.pokes().map_err(|e| anyhow!(e))?)
                } else {
                    None
                };
                let only = (!children).then_some(pid as u32);
                Ok((
                    crate::inject::serve(fd, inj, marks, pokes, only, pid as u32)?,
                    keep,
                ))
            });
            match started {
                Ok((h, keep)) => {
                    self.injector = Some(h);
                    self.listener = Some(keep);
                }
                // dropped unreleased, the held child is killed before its exec
                Err(e) => return Err(e),
            }
        }
        self.released = true;
        if let Some(c) = &mut self.child {
            c.release();
        }
        Ok(())
    }

    /// `-e inject=`: when genba is done while processes that carry the
    /// filter live on (children of the program, not waited for), a small
    /// process of genba's own keeps answering their calls, letting each
    /// run, until the last of them is gone: without an answerer the kernel
    /// would fail those calls with ENOSYS.
    pub fn hand_off_listener(&mut self) {
        if self.injector.as_ref().is_none_or(|h| h.is_finished()) {
            return;
        }
        if let Some(fd) = self.listener.take() {
            crate::inject::keep_answering(fd);
        }
    }

    /// `-e inject=`: what the listener did, once every process using its
    /// filter is gone (None while one lives, or without injection).
    pub fn inject_counts(&mut self) -> Option<crate::inject::Counts> {
        if !self.injector.as_ref()?.is_finished() {
            return None;
        }
        self.injector.take()?.join().ok()
    }

    /// Polls events into `sink` until the session is over, then drains the
    /// collector.
    pub fn run(&mut self, sink: &mut dyn Sink) -> Result<()> {
        let mut events = Vec::with_capacity(4096);
        loop {
            self.tracer
                .poll(Duration::from_millis(20), &mut events)
                .map_err(|e| anyhow!(e))?;
            self.deliver(&mut events, sink);
            self.poll_gpu(sink, false);
            sink.flush();
            sink.tick(&self.tracer);
            if let Some(c) = &mut self.child {
                // every round, also after the program ended: children it gave
                // genba must not stay zombies while something waits for them
                if let Some(st) = c.try_wait() {
                    self.child_status = Some(st);
                }
                for pid in c.unknown_exits.drain(..) {
                    sink.unknown_exit(pid);
                }
            }
            if self.over() {
                break;
            }
        }
        self.drain(sink)
    }

    /// Takes what the collector still holds into `sink`.
    pub fn drain(&mut self, sink: &mut dyn Sink) -> Result<()> {
        let mut events = Vec::new();
        self.tracer.drain(&mut events).map_err(|e| anyhow!(e))?;
        self.deliver(&mut events, sink);
        self.poll_gpu(sink, true);
        Ok(())
    }

    fn deliver(&mut self, events: &mut Vec<Event>, sink: &mut dyn Sink) {
        for ev in events.drain(..) {
            match &ev {
                Event::Fork { task, child, .. }
                    if !self.all_tasks || self.live.contains(&task.tid) =>
                {
                    self.live.insert(child.tid);
                }
                Event::Exit { task, .. } => {
                    // what its GPU shim wrote comes before its end
                    if task.tid == task.tgid {
                        self.poll_gpu(sink, true);
                    }
                    self.live.remove(&task.tid);
                }
                _ => {}
            }
            sink.event(&ev);
        }
    }

    /// Whether the session is over: the program and every task it left
    /// are gone (a task's records are all in the ring buffer before it can
    /// be reaped, so draining after is enough; with -f, children that
    /// outlive the program are waited for, as strace does), or, attached,
    /// genba was signalled or every task is gone.
    fn over(&self) -> bool {
        let gone = || {
            self.live
                .iter()
                .all(|t| !Path::new(&format!("/proc/{t}")).exists())
        };
        let signalled = launch::SIGNALLED.load(Ordering::SeqCst) != 0;
        if self.child.is_some() {
            self.child_status.is_some() && gone()
        } else {
            match self.until {
                Until::Signal => signalled,
                Until::TasksGone => signalled || self.live.is_empty() || gone(),
            }
        }
    }

    /// genba's exit code: the program's status (0 when attached).
    pub fn exit_code(&self) -> i32 {
        self.child_status.map(launch::exit_code).unwrap_or(0)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if !self.released {
            if let Some(c) = self.child.take() {
                c.abort();
            }
        }
    }
}

/// A program held before its exec, killed if dropped (start failed).
struct Held(Option<Child>);

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(c) = self.0.take() {
            c.abort();
        }
    }
}

/// Why a session could not start.
pub enum StartError {
    /// The collector could not be loaded or attached.
    Bpf(genba_bpf::Error),
    Other(anyhow::Error),
}

/// With GENBA_DEBUG: genba's own CPU time so far (user, system), not its
/// children's, for the cost measurements in docs/PERFORMANCE.md.
pub fn debug_own_cpu() {
    if std::env::var_os("GENBA_DEBUG").is_none() {
        return;
    }
    if let Some((user, system)) = own_cpu() {
        eprintln!(
            "genba: own CPU {:.2} s user, {:.2} s system",
            user as f64 / 1e9,
            system as f64 / 1e9
        );
    }
}

/// This process's CPU time so far, all threads: user and system (ns).
fn own_cpu() -> Option<(u64, u64)> {
    // SAFETY: getrusage fills the struct it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } != 0 {
        return None;
    }
    let ns = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1000;
    Some((ns(u.ru_utime), ns(u.ru_stime)))
}

/// This process's CPU time so far, user and system together (ns).
fn own_cpu_ns() -> u64 {
    own_cpu().map_or(0, |(u, s)| u + s)
}
