//! Renderers of syscall events: strace's text and JSON lines. They see only
//! events and decoders, never BPF.

use rustc_hash::FxHashMap as HashMap;
use std::fmt::Write as _;
use std::io::Write;

use genba_events::{CaptureItem, Event, GpuEvent, SyscallEnter, SyscallExit};
use genba_syscalls::decode::{self, Ret};
use genba_syscalls::{consts, table, CallView, Env, Options};

use crate::filter::StatusSet;
use crate::world::World;

/// How lines are prefixed with the task id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PidPrefix {
    /// `[pid  1234] ` once more than one task is traced (strace to a terminal).
    Bracketed,
    /// `1234  ` on every line (strace -f -o FILE).
    Plain,
}

/// The time of day in the leader (`-t`, `--absolute-timestamps`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbsTime {
    /// Seconds since the epoch (`format:unix`) rather than `HH:MM:SS`.
    pub unix: bool,
    /// Digits of the fraction: 0 (s), 3 (ms), 6 (us) or 9 (ns).
    pub width: u32,
}

/// Seconds and `width` digits of fraction (truncated), as strace prints
/// durations: `12.000345` (width 6), `12` (width 0).
fn fraction(ns: u64, width: u32) -> u64 {
    (ns % 1_000_000_000) / 10u64.pow(9 - width)
}

pub struct TextOptions {
    pub decode: Options,
    pub prefix: PidPrefix,
    /// `-t`/`-tt`/`-ttt`/`--absolute-timestamps`.
    pub abs_time: Option<AbsTime>,
    /// `-r`: the fraction digits of the time since the previous line.
    pub relative: Option<u32>,
    /// `-T`: the fraction digits of each call's duration.
    pub times: Option<u32>,
    /// `-n`: `[ NNN] ` after the timestamps.
    pub syscall_number: bool,
    /// `-e signal=`: signals (by number, 0..=255) whose lines are shown.
    pub signals: Vec<bool>,
    /// The column return values are aligned at (`-a`).
    pub acolumn: usize,
    pub status: StatusSet,
    /// `-y`, `--decode-fds=`: what descriptors show.
    pub fd_decode: crate::filter::FdDecode,
    /// `-qq`, `-e quiet=exit`: no `+++ exited with N +++`.
    pub quiet_exit: bool,
    /// `-qqq`, `-e quiet=thread-execve`: no `+++ superseded by execve +++`.
    pub quiet_thread_execve: bool,
    /// CLOCK_REALTIME - CLOCK_MONOTONIC, to print times of day.
    pub realtime_offset_ns: i64,
    /// Which calls to show, when more are traced than shown (stacks need
    /// mmap, open and exec calls to follow what processes map).
    pub display: Option<Vec<bool>>,
    /// `-P`: only the calls that access these paths.
    pub paths: Option<crate::pathtrace::PathSet>,
    /// `-e read=`, `-e write=`: descriptors whose data is dumped in hex.
    pub dump_read: Option<crate::filter::FdSet>,
    pub dump_write: Option<crate::filter::FdSet>,
    /// `-Y`: command names beside process ids.
    pub pid_comm: bool,
    /// `-e verbose=`: the calls (by number) whose structures are decoded;
    /// the others show them as addresses (None: all are).
    pub verbose: Option<Vec<bool>>,
    /// `-ff`, `--output-separately`: each task's lines go to `FILE.TID`
    /// (this FILE), whole, without the task's id in front.
    pub separately: Option<String>,
}

struct Pending {
    enter: SyscallEnter,
    /// Bytes of argument text already printed (0 when nothing was).
    printed: Option<usize>,
    /// Where the call came from (--source, -k), resolved at entry.
    stacks: Option<crate::stacks::CallStacks>,
    /// `-P`: it accesses a traced path (true without -P; None: decided at
    /// exit).
    on_path: Option<bool>,
    /// An execve not printed yet whose thread (this tid) has taken its
    /// leader's place: its line, `<pid changed to ...>` and the
    /// `superseded` line are printed at its return, when its strings are
    /// read.
    superseded: Option<u32>,
}

/// strace's text output.
pub struct TextPrinter<W: Write> {
    out: W,
    o: TextOptions,
    pending: HashMap<u32, Pending>,
    /// The task whose line is open (entry printed, no newline yet).
    open: Option<u32>,
    /// Leaders that ended while other threads of theirs ran: the status
    /// of each, shown when the group ends (as ptrace reports a leader),
    /// or never if an exec of another thread supersedes it.
    deferred: HashMap<u32, i32>,
    col: usize,
    nprocs: usize,
    last_ts: Option<u64>,
    /// The last system call number each task entered (`-n` on every line,
    /// as strace: 0 before the first).
    last_nr: HashMap<u32, u32>,
    /// The call of each task the kernel will resume with restart_syscall.
    prev_shown: HashMap<u32, u32>,
    line: String,
    /// Scratch for each call's return text (no allocation per call).
    ret_buf: String,
    /// Arguments shown as addresses because their memory could not be read.
    pub unreadable: u64,
    /// Tasks, descriptors (`-y`), mappings and stacks (--source, -k).
    world: World,
    /// Print the trace (false: only follow it, for a summary by call site).
    print: bool,
    /// The summary by call site (`-c --source`, `-C --source`).
    pub sites: Option<crate::stacks::SiteTable>,
    /// Summaries count CPU time (not -w).
    cpu_time: bool,
    /// `-Y`: each traced task's command name as the events tell it (read
    /// from /proc when first seen, inherited at fork, changed by exec and
    /// prctl(PR_SET_NAME), said by its exit): genba prints a line after the
    /// call, when the task may have changed its name or ended.
    comms: std::cell::RefCell<HashMap<u32, String>>,
    /// `-Y`: the children traced tasks made without -f, named as their
    /// parent was (used when /proc no longer has them), until reaped.
    children: HashMap<u32, String>,
    /// `-ff`: the task the line being built is of, and each task's file.
    line_tid: u32,
    files: HashMap<u32, std::io::BufWriter<std::fs::File>>,
    unwritable: std::collections::HashSet<u32>,
    /// -ff: the task files made so far.
    created: std::collections::HashSet<u32>,
}

fn name_of(nr: u32) -> std::borrow::Cow<'static, str> {
    match table::by_nr(nr) {
        Some(s) => s.name.into(),
        None => format!("syscall_{nr:#x}").into(),
    }
}

/// A device file's type and numbers, as strace shows them (`char 1:3`).
fn device_numbers(path: &str) -> Option<String> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    if !path.starts_with('/') {
        return None;
    }
    let m = std::fs::metadata(path).ok()?;
    let kind = if m.file_type().is_char_device() {
        "char"
    } else if m.file_type().is_block_device() {
        "block"
    } else {
        return None;
    };
    let rdev = m.rdev();
    Some(format!(
        "{kind} {}:{}",
        libc::major(rdev),
        libc::minor(rdev)
    ))
}

/// The process pidfd `fd` of process `tgid` refers to (its fdinfo's `Pid:`).
/// A task's command name in /proc (None: no such task).
fn proc_comm(pid: i32) -> Option<String> {
    if pid <= 0 {
        return None;
    }
    let mut c = std::fs::read(format!("/proc/{pid}/comm")).ok()?;
    if c.last() == Some(&b'\n') {
        c.pop();
    }
    Some(String::from_utf8_lossy(&c).into_owned())
}

fn pidfd_pid(tgid: u32, fd: i32) -> Option<i64> {
    crate::fdtrack::fdinfo_field(tgid, fd, "Pid:")?.parse().ok()
}

/// Reads `len` bytes of the traced process's memory (see [`Env::read_mem`]).
fn read_mem(tgid: u32, addr: u64, len: usize) -> Option<Vec<u8>> {
    let mut buf = vec![0u8; len];
    let local = libc::iovec {
        iov_base: buf.as_mut_ptr().cast(),
        iov_len: len,
    };
    let remote = libc::iovec {
        iov_base: addr as *mut libc::c_void,
        iov_len: len,
    };
    // SAFETY: local points to len writable bytes; the remote range is only read by the kernel.
    let n = unsafe { libc::process_vm_readv(tgid as i32, &local, 1, &remote, 1, 0) };
    if n <= 0 {
        return None;
    }
    buf.truncate(n as usize);
    Some(buf)
}

impl<W: Write> TextPrinter<W> {
    pub fn new(out: W, o: TextOptions, initial_tasks: usize) -> Self {
        let o_fd_paths = o.fd_decode.any();
        TextPrinter {
            out,
            o,
            pending: HashMap::default(),
            open: None,
            deferred: HashMap::default(),
            col: 0,
            nprocs: initial_tasks,
            last_ts: None,
            last_nr: HashMap::default(),
            prev_shown: HashMap::default(),
            line: String::new(),
            ret_buf: String::new(),
            unreadable: 0,
            world: World::new(Default::default(), o_fd_paths, None),
            print: true,
            sites: None,
            cpu_time: false,
            comms: Default::default(),
            children: HashMap::default(),
            line_tid: 0,
            files: HashMap::default(),
            unwritable: Default::default(),
            created: Default::default(),
        }
    }

    /// `-Y`: a traced task's command name as its events tell it, else from
    /// /proc (then kept).
    fn task_comm(&self, tid: u32) -> Option<String> {
        if let Some(c) = self.comms.borrow().get(&tid) {
            return Some(c.clone());
        }
        let c = proc_comm(tid as i32)?;
        self.comms.borrow_mut().insert(tid, c.clone());
        Some(c)
    }

    /// `-Y`: the command name of a pid an argument or result names: a
    /// traced task's as its events tell it, another's from /proc.
    fn pid_comm(&self, pid: i32) -> Option<String> {
        let p = u32::try_from(pid).ok()?;
        if let Some(c) = self.comms.borrow().get(&p) {
            return Some(c.clone());
        }
        proc_comm(pid).or_else(|| self.children.get(&p).cloned())
    }

    /// `-Y`: follows the names of processes a call makes or reaps.
    fn follow_comm(&mut self, tid: u32, name: &str, call: CallView<'_>) {
        let Some((ret, _)) = call.exit else { return };
        match name {
            "clone" | "clone3" | "fork" | "vfork" if ret > 0 => {
                // a thread is named as its process is: nothing to keep
                // (and nothing would reap it)
                const CLONE_THREAD: u64 = 0x10000;
                let flags = match name {
                    "clone" => call.args[0],
                    "clone3" => call
                        .data(0)
                        .filter(|d| d.len() >= 8)
                        .map_or(0, |d| u64::from_le_bytes(d[..8].try_into().unwrap())),
                    _ => 0,
                };
                if flags & CLONE_THREAD != 0 {
                    return;
                }
                if let Some(c) = self.task_comm(tid) {
                    self.children.insert(ret as u32, c);
                }
            }
            "wait4" if ret > 0 => {
                self.children.remove(&(ret as u32));
            }
            "waitid" if ret == 0 && call.args[3] & 0x0100_0000 == 0 => {
                // a child that exited (not WNOWAIT): si_code CLD_EXITED,
                // CLD_KILLED or CLD_DUMPED
                if let Some(d) = call.data(2).filter(|d| d.len() >= 20) {
                    let code = i32::from_le_bytes([d[8], d[9], d[10], d[11]]);
                    let pid = u32::from_le_bytes([d[16], d[17], d[18], d[19]]);
                    if (1..=3).contains(&code) {
                        self.children.remove(&pid);
                    }
                }
            }
            _ => {}
        }
    }

    /// Also counts calls by call site; `print` false: follow the trace
    /// without printing it (`-c --source`).
    pub fn with_sites(self, print: bool, cpu_time: bool) -> Self {
        TextPrinter {
            print,
            sites: Some(Default::default()),
            cpu_time,
            ..self
        }
    }

    /// Calls whose site was not found for a too short stack copy.
    pub fn short_stacks(&self) -> u64 {
        self.world.stacks().map_or(0, |s| s.short_stacks)
    }

    /// Stacks (-k) the copy cut short.
    pub fn cut_stacks(&self) -> u64 {
        self.world.stacks().map_or(0, |s| s.cut_stacks)
    }

    /// The world the printer follows: descriptors (what the traced
    /// processes already have open, for `-y`) and stacks (--source, -k).
    pub fn with_world(self, world: World) -> Self {
        TextPrinter { world, ..self }
    }

    fn emit(&mut self, s: &str) {
        self.line.push_str(s);
        match s.rfind('\n') {
            Some(i) => self.col = s.len() - i - 1,
            None => self.col += s.len(),
        }
    }

    fn flush_line(&mut self) {
        match &self.o.separately {
            Some(base) => {
                let tid = self.line_tid;
                let f = match self.files.entry(tid) {
                    std::collections::hash_map::Entry::Occupied(e) => Some(e.into_mut()),
                    std::collections::hash_map::Entry::Vacant(e) => {
                        let name = format!("{base}.{tid}");
                        // a task id used again (a new task, or a thread's
                        // exec taking its leader's id) goes on in the file
                        // the first one began: strace opens it for append
                        let open = if self.created.insert(tid) {
                            std::fs::File::create(&name)
                        } else {
                            std::fs::OpenOptions::new().append(true).open(&name)
                        };
                        match open {
                            Ok(f) => Some(e.insert(std::io::BufWriter::new(f))),
                            Err(err) => {
                                // said once: the task's lines are lost
                                if self.unwritable.insert(tid) {
                                    eprintln!("genba: Can't fopen '{name}': {err}");
                                }
                                None
                            }
                        }
                    }
                };
                if let Some(f) = f {
                    let _ = f.write_all(self.line.as_bytes());
                }
            }
            None => {
                let _ = self.out.write_all(self.line.as_bytes());
            }
        }
        self.line.clear();
    }

    fn leader(&mut self, tid: u32, ts: u64) {
        // written straight into the line: it holds nothing of this line yet
        let start = self.line.len();
        self.line_tid = tid;
        let separately = self.o.separately.is_some();
        let with_pid = !separately && (self.o.prefix == PidPrefix::Plain || self.nprocs > 1);
        let comm = match (self.o.pid_comm && with_pid).then(|| self.task_comm(tid)) {
            Some(Some(c)) => decode::comm_text(&c),
            _ => String::new(),
        };
        let s = &mut self.line;
        match self.o.prefix {
            // -ff: the file says whose lines they are
            _ if separately => {}
            // strace pads the pid only when no name follows it
            PidPrefix::Plain if comm.is_empty() => {
                let _ = write!(s, "{tid:<5} ");
            }
            PidPrefix::Plain => {
                let _ = write!(s, "{tid}{comm} ");
            }
            PidPrefix::Bracketed if self.nprocs > 1 => {
                let _ = write!(s, "[pid {tid:>5}{comm}] ");
            }
            PidPrefix::Bracketed => {}
        }
        if let Some(t) = self.o.abs_time {
            let real = ts as i64 + self.o.realtime_offset_ns;
            let secs = real.div_euclid(1_000_000_000);
            let ns = real.rem_euclid(1_000_000_000) as u64;
            if t.unix {
                let _ = write!(s, "{secs}");
            } else {
                s.push_str(&local_time_of_day(secs));
            }
            if t.width > 0 {
                let _ = write!(s, ".{:0w$}", fraction(ns, t.width), w = t.width as usize);
            }
            s.push(' ');
        }
        if let Some(w) = self.o.relative {
            let d = self.last_ts.map(|l| ts.saturating_sub(l)).unwrap_or(0);
            if self.o.abs_time.is_some() {
                s.push_str("(+");
            }
            let _ = write!(s, "{:>6}", d / 1_000_000_000);
            if w > 0 {
                let _ = write!(s, ".{:0w$}", fraction(d, w), w = w as usize);
            }
            s.push_str(if self.o.abs_time.is_some() { ") " } else { " " });
        }
        if self.o.syscall_number {
            let nr = self.last_nr.get(&tid).copied().unwrap_or(0);
            let _ = write!(s, "[{nr:>4}] ");
        }
        self.last_ts = Some(ts);
        self.col = self.line.len() - start;
    }

    /// Ends an open line of another task with ` <unfinished ...>`.
    fn interrupt(&mut self, tid: Option<u32>) {
        if let Some(open) = self.open {
            if Some(open) != tid {
                self.emit(" <unfinished ...>\n");
                self.flush_line();
                self.open = None;
            }
        }
    }

    pub fn event(&mut self, ev: &Event) {
        match ev {
            Event::SyscallEnter(e) => self.enter(e),
            Event::SyscallExit(x) => self.exit(x),
            // samples are the profiler's; this printer only follows mappings
            Event::Profile(_) => {}
            Event::Gpu(g) => self.gpu(g),
            Event::Fork { ts, task, child } => {
                // a leader's id reused: its group has ended, unseen
                if let Some(st) = self.deferred.remove(&child.tid) {
                    self.exit_line(child.tid, *ts, st);
                }
                self.nprocs += 1;
                self.world.fork(*task, *child);
                if self.o.pid_comm {
                    // a new task has its parent's name
                    if let Some(c) = self.task_comm(task.tid) {
                        self.comms.borrow_mut().insert(child.tid, c);
                    }
                }
            }
            Event::Exec {
                ts,
                task,
                old_tid,
                auxv,
            } => {
                self.world.exec(*ts, *task, *old_tid, auxv);
                if self.o.pid_comm {
                    // named after the file it runs
                    let mut comms = self.comms.borrow_mut();
                    comms.remove(old_tid);
                    match self.world.name(task.tid) {
                        Some(n) => comms.insert(task.tid, n.to_string()),
                        None => comms.remove(&task.tid),
                    };
                }
                if *old_tid != task.tid {
                    self.superseded(*ts, task.tid, *old_tid);
                }
            }
            Event::Exit {
                ts,
                task,
                status,
                comm,
                last,
                group_exit,
            } => {
                let tid = task.tid;
                if self.o.pid_comm && !comm.is_empty() {
                    // its name as it ended, for its last lines
                    self.comms.borrow_mut().insert(tid, comm.clone());
                }
                if let Some(p) = self.pending.remove(&tid) {
                    if self.print
                        && (self.o.status.unfinished || self.o.status.is_all())
                        && self.shown(p.enter.nr)
                        && p.on_path
                            .unwrap_or_else(|| self.on_path(task.tgid, view(&p.enter, None)))
                    {
                        // strace: a decoder that had more to print at
                        // the call's return says so
                        let entry = decode::write_args(
                            view(&p.enter, None),
                            &self.o.decode,
                            &Env::default(),
                        )
                        .s;
                        let more = if entry.ends_with(", ") {
                            " <unfinished ...>)"
                        } else {
                            ")"
                        };
                        if self.open == Some(tid) {
                            self.emit(more);
                            self.pad();
                            self.emit("= ?\n");
                            self.flush_line();
                            self.open = None;
                        } else {
                            self.interrupt(None);
                            self.leader(tid, *ts);
                            let name = name_of(p.enter.nr);
                            if p.printed.is_some() {
                                self.emit(&format!("<... {name} resumed>{more}"));
                            } else {
                                let text = decode::write_args(
                                    view(&p.enter, None),
                                    &self.o.decode,
                                    &Env::default(),
                                )
                                .s;
                                self.emit(&format!("{name}({text})"));
                            }
                            self.pad();
                            self.emit("= ?\n");
                            self.flush_line();
                        }
                    }
                }
                if task.tid == task.tgid && !*last {
                    // ptrace tells of a leader's end only once its other
                    // threads have ended (or an exec took its place)
                    self.deferred.insert(tid, *status);
                } else {
                    self.exit_line(tid, *ts, *status);
                    if *last {
                        if let Some(lst) = self.deferred.remove(&task.tgid) {
                            // the group's status when it exited as a whole
                            let st = if *group_exit { *status } else { lst };
                            self.exit_line(task.tgid, *ts, st);
                        }
                    }
                }
                self.nprocs = self.nprocs.saturating_sub(1);
                self.last_nr.remove(&tid);
                self.prev_shown.remove(&tid);
                if let Some(mut f) = self.files.remove(&tid) {
                    let _ = f.flush();
                }
                // a process is named until reaped (its zombie still is)
                let c = self.comms.borrow_mut().remove(&tid);
                match c {
                    Some(c) if self.o.pid_comm && task.tid == task.tgid => {
                        self.children.insert(tid, c);
                    }
                    _ => {
                        self.children.remove(&tid);
                    }
                }
                self.world.exit(*task);
            }
            Event::Signal {
                ts,
                task,
                sig,
                siginfo,
                stops,
            } => {
                // no -q level hides signals in strace; -e signal= does
                if !self.print || !self.signal_shown(*sig as u32) {
                    return;
                }
                self.interrupt(None);
                if self.open == Some(task.tid) {
                    self.emit(" <unfinished ...>\n");
                    self.flush_line();
                    self.open = None;
                }
                self.leader(task.tid, *ts);
                let comm = |pid: i32| self.pid_comm(pid);
                let text = format!(
                    "--- {} {} ---\n",
                    consts::signal_name(*sig),
                    crate::siginfo::format_with(
                        *sig,
                        siginfo,
                        self.o
                            .pid_comm
                            .then_some(&comm as &dyn Fn(i32) -> Option<String>)
                    )
                );
                self.emit(&text);
                self.flush_line();
                if *stops {
                    // the group stop ptrace reports next
                    self.leader(task.tid, *ts);
                    let name = consts::signal_name(*sig);
                    self.emit(&format!("--- stopped by {name} ---\n"));
                    self.flush_line();
                }
            }
        }
    }

    /// `--gpu`: an API call as a line of its thread, a command the device
    /// ran as a `--- GPU ... ---` line of the thread that enqueued it.
    fn gpu(&mut self, g: &GpuEvent) {
        if !self.print {
            return;
        }
        let (tid, ts, text) = match g {
            GpuEvent::Call(c) => {
                let mut t = c.line();
                if let Some(w) = self.o.times {
                    let d = c.end.saturating_sub(c.ts);
                    let _ = write!(
                        t,
                        " <{}.{:0w$}>",
                        d / 1_000_000_000,
                        fraction(d, w),
                        w = w as usize
                    );
                }
                (c.task.tid, c.ts, t + "\n")
            }
            GpuEvent::Command(c) if c.start != 0 && c.end >= c.start => {
                let secs = |ns: u64| format!("{:.6}", ns as f64 / 1e9);
                // a kernel by its name; a transfer's name says what it is
                let what = match c.kind {
                    genba_events::GpuKind::Kernel => format!("kernel {}", c.name),
                    _ => c.name.clone(),
                };
                let mut t = format!(
                    "--- GPU {what} on queue {:#x}: {} s on the device",
                    c.queue,
                    secs(c.end - c.start)
                );
                if c.queued != 0 {
                    let _ = write!(t, ", {} s queued", secs(c.start.saturating_sub(c.queued)));
                }
                if c.bytes > 0 {
                    let _ = write!(t, ", {} bytes", c.bytes);
                }
                (c.task.tid, c.start, t + " ---\n")
            }
            _ => return,
        };
        self.interrupt(None);
        if self.open == Some(tid) {
            self.emit(" <unfinished ...>\n");
            self.flush_line();
            self.open = None;
        }
        self.leader(tid, ts);
        self.emit(&text);
        self.flush_line();
    }

    fn pad(&mut self) {
        // strace: ") " then spaces up to the -a column (none when the line
        // is already that long), then "= ..."
        self.emit(" ");
        if self.col < self.o.acolumn {
            let n = self.o.acolumn - self.col;
            // whole slices of spaces, not a char at a time (the column is
            // padded on nearly every line)
            const SPACES: &str = "                                                                ";
            let mut left = n;
            while left > 0 {
                let k = left.min(SPACES.len());
                self.line.push_str(&SPACES[..k]);
                left -= k;
            }
            self.col += n;
        }
    }

    /// Whether `-e signal=` selects signal `sig`.
    fn signal_shown(&self, sig: u32) -> bool {
        self.o.signals.get(sig as usize).copied().unwrap_or(false)
    }

    /// Whether calls of number `nr` are shown (some are traced only for stacks).
    fn shown(&self, nr: u32) -> bool {
        self.o
            .display
            .as_ref()
            .is_none_or(|d| d.get(nr as usize).copied().unwrap_or(true))
    }

    /// A call's argument text, asking the live system what the events do not
    /// say (descriptor paths for -y, memory BPF could not read); also how
    /// many arguments stayed unreadable.
    fn decode_args(&self, tgid: u32, call: CallView<'_>) -> (String, u64) {
        let (text, unreadable, _) = self.decode_args_split(tgid, call);
        (text, unreadable)
    }

    /// [`Self::decode_args`], with where the exit part of the text starts.
    fn decode_args_split(&self, tgid: u32, call: CallView<'_>) -> (String, u64, Option<usize>) {
        // -e verbose=: a call not in the set shows only its strings and
        // buffers; what else was copied is shown as an address
        let quiet = |caps: &[genba_events::Capture]| -> Vec<genba_events::Capture> {
            caps.iter()
                .filter(|c| c.item == CaptureItem::Data && decode::nonverbose_keeps(call.nr, c.arg))
                .cloned()
                .collect()
        };
        let verbose = self
            .o
            .verbose
            .as_ref()
            .is_none_or(|v| v.get(call.nr as usize).copied().unwrap_or(true));
        let (enter, exit);
        let call = if verbose {
            call
        } else {
            enter = quiet(call.enter);
            exit = call.exit.map(|(r, c)| (r, quiet(c)));
            CallView {
                nr: call.nr,
                args: call.args,
                enter: &enter,
                exit: exit.as_ref().map(|(r, c)| (*r, c.as_slice())),
            }
        };
        let namer = |fd: i32| self.fd_text(tgid, fd);
        // a descriptor of the process a pidfd of this one refers to
        let namer_in = |pidfd: i32, fd: i32| {
            let pid = self
                .world
                .pidfd_pid(tgid, pidfd)
                .or_else(|| pidfd_pid(tgid, pidfd).and_then(|p| u32::try_from(p).ok()))?;
            self.fd_text(pid, fd)
        };
        let mem = |addr: u64, len: usize| read_mem(tgid, addr, len);
        let comm = |pid: i32| self.pid_comm(pid);
        // after a successful exec the process holds another program: its
        // memory at the old addresses is not what the call was given
        let execd = call.exit.is_some_and(|(ret, _)| ret == 0)
            && matches!(
                table::by_nr(call.nr).map(|s| s.name),
                Some("execve" | "execveat")
            );
        let env = Env {
            fd_path: if self.o.fd_decode.any() {
                Some(&namer)
            } else {
                None
            },
            fd_path_in: if self.o.fd_decode.any() {
                Some(&namer_in)
            } else {
                None
            },
            // (nor is memory read for what a call not verbose leaves out)
            read_mem: if execd || !verbose { None } else { Some(&mem) },
            pid_comm: if self.o.pid_comm { Some(&comm) } else { None },
            ..Default::default()
        };
        let w = decode::write_args(call, &self.o.decode, &env);
        (w.s, env.unreadable.get(), w.boundary)
    }

    fn enter(&mut self, e: &SyscallEnter) {
        let tid = e.task.tid;
        if self.o.syscall_number {
            self.last_nr.insert(tid, e.nr);
        }
        let mut printed = None;
        let stacks = self.world.enter(e);
        // A string the kernel could not read at entry is read again at exit:
        // print the whole line then, so it shows the string.
        let retry = e
            .captures
            .iter()
            .any(|c| c.fault && e.args.get(c.arg as usize).is_some_and(|&a| a != 0));
        // -P: decided at entry, as strace decides it (the descriptors as
        // they are before the call); at exit for a call whose strings are
        // read again there (the process may be gone before genba reads it)
        let on_path = (!retry).then(|| self.on_path(e.task.tgid, view(e, None)));
        if self.print
            && self.o.status.is_all()
            && self.o.separately.is_none()
            && !retry
            && self.shown(e.nr)
            && on_path != Some(false)
        {
            self.interrupt(Some(tid));
            let name = name_of(e.nr);
            let (text, _) = self.decode_args(e.task.tgid, view(e, None));
            let text = self.restart_text(tid, e.nr).unwrap_or(text);
            self.leader(tid, e.ts);
            self.emit(&name);
            self.emit("(");
            self.emit(&text);
            printed = Some(text.len());
            self.open = Some(tid);
        }
        self.pending.insert(
            tid,
            Pending {
                enter: SyscallEnter {
                    // the stack copy is resolved already: keep the kilobytes out
                    captures: e
                        .captures
                        .iter()
                        .filter(|c| {
                            !matches!(c.item, CaptureItem::UserStack | CaptureItem::KernelStack)
                        })
                        .cloned()
                        .collect(),
                    ..*e
                },
                printed,
                stacks,
                on_path,
                superseded: None,
            },
        );
    }

    /// What descriptor `fd` of process `tgid` shows between `<>` (None:
    /// nothing), by `--decode-fds`: its path (`AT_FDCWD`'s too, only for
    /// `path`); a device's path with its type and numbers (`dev`); a
    /// pidfd's process (`pidfd`).
    fn fd_text(&self, tgid: u32, fd: i32) -> Option<String> {
        let d = self.o.fd_decode;
        if fd == crate::fdtrack::AT_FDCWD {
            return if d.path {
                self.world.fd_path(tgid, fd)
            } else {
                None
            };
        }
        let p = self.world.fd_path(tgid, fd)?;
        if d.socket {
            if let Some(ino) = p
                .strip_prefix("socket:[")
                .and_then(|r| r.strip_suffix(']'))
                .and_then(|n| n.parse::<u32>().ok())
            {
                let nl = self.world.netlink_sock(tgid, fd, ino);
                return crate::sockdesc::describe_netlink(nl, ino)
                    .or_else(|| Some(crate::sockdesc::describe(tgid, fd, ino)));
            }
        }
        if d.dev {
            if let Some(dev) = device_numbers(&p) {
                return Some(format!("{p}<{dev}>"));
            }
        }
        if d.pidfd && p == "anon_inode:[pidfd]" {
            let pid = self
                .world
                .pidfd_pid(tgid, fd)
                .map(i64::from)
                .or_else(|| pidfd_pid(tgid, fd));
            if let Some(pid) = pid {
                let mut s = String::from("pid:");
                let comm = |pid: i32| self.pid_comm(pid);
                let namer = self
                    .o
                    .pid_comm
                    .then_some(&comm as &dyn Fn(i32) -> Option<String>);
                decode::pid(&mut s, pid as i32, namer);
                return Some(s);
            }
        }
        d.path.then_some(p)
    }

    /// `-P`: whether `call` of process `tgid` accesses a traced path
    /// (always true without -P).
    fn on_path(&self, tgid: u32, call: CallView<'_>) -> bool {
        let Some(paths) = self.o.paths.as_ref() else {
            return true;
        };
        let namer = |fd: i32| self.world.fd_path(tgid, fd);
        let mem = |addr: u64, len: usize| read_mem(tgid, addr, len);
        paths.matches(call, &namer, &mem)
    }

    fn exit(&mut self, x: &SyscallExit) {
        let tid = x.task.tid;
        let pending = self.pending.remove(&tid).filter(|p| p.enter.nr == x.nr);
        if self.o.syscall_number {
            self.last_nr.insert(tid, x.nr);
        }
        let ok = x.ret >= 0 || x.ret < -4095;
        let name = name_of(x.nr);
        let (args, enter_caps): ([u64; 6], &[genba_events::Capture]) = match &pending {
            Some(p) => (p.enter.args, &p.enter.captures),
            // a call -e inject= answered without running it: its exit made
            // the entry's copies
            None if x.inject & genba_events::INJ_SKIPPED != 0 => (x.args, &x.captures),
            None => (x.args, &[]),
        };
        let call = CallView {
            nr: x.nr,
            args,
            enter: enter_caps,
            exit: Some((x.ret, &x.captures)),
        };
        let tgid = x.task.tgid;
        // descriptors and mappings are followed whether or not the call is
        // shown; a call -e inject= answered without running it changed none
        let ran = x.inject & genba_events::INJ_SKIPPED == 0;
        if ran {
            self.world.exit_before(tgid, &name, call);
        }
        if self.o.pid_comm && ran {
            self.follow_comm(tid, &name, call);
        }
        if self.o.pid_comm && ok && name == "prctl" && args[0] == 15 {
            // PR_SET_NAME: the name it takes (15 bytes at most)
            if let Some(d) = call.data(1) {
                let n = d.iter().position(|&b| b == 0).unwrap_or(d.len()).min(15);
                let c = String::from_utf8_lossy(&d[..n]).into_owned();
                self.comms.borrow_mut().insert(tid, c);
            }
        }
        let shown = self.shown(x.nr);
        if let (Some(sites), Some(st), Some(cs)) = (
            self.sites.as_mut(),
            self.world.stacks(),
            pending.as_ref().and_then(|p| p.stacks.as_ref()),
        ) {
            if let Some(start) = x.enter_ts.or(pending.as_ref().map(|p| p.enter.ts)) {
                let wall = x.ts.saturating_sub(start);
                let ns = if self.cpu_time {
                    wall.saturating_sub(x.off_cpu_ns)
                } else {
                    wall
                };
                let site = st.site_label(cs);
                if shown {
                    sites.add(x.nr, &site, ns, !ok);
                }
            }
        }
        let on_path = match pending.as_ref().and_then(|p| p.on_path) {
            Some(m) => m,
            None => self.on_path(tgid, call),
        };
        let superseded = pending.as_ref().and_then(|p| p.superseded);
        if !self.print || !self.o.status.shows(ok) || !self.shown(x.nr) || !on_path {
            if let Some(old) = superseded {
                self.superseded_line(x.ts, tid, old);
            }
            if ran {
                self.world.exit_after(tgid, &name, call);
            }
            return;
        }
        let (text, unreadable, boundary) = self.decode_args_split(tgid, call);
        let text = self.restart_text(tid, x.nr).unwrap_or(text);
        // what a restart_syscall resumes: a call the kernel ended with
        // ERESTART_RESTARTBLOCK (strace names the task's last call shown,
        // which is that one: a handler run in between makes it EINTR)
        if x.ret == -516 {
            self.prev_shown.insert(tid, x.nr);
        }
        let mut forced = None;
        if let (Some(old), Some(p)) = (superseded, pending.as_ref()) {
            // the line the thread would have printed at its entry, cut by
            // the exec, then the leader's line
            self.interrupt(None);
            self.leader(old, p.enter.ts);
            self.emit(&name);
            self.emit("(");
            self.emit(&text);
            self.emit(&format!(" <pid changed to {tid} ...>\n"));
            self.flush_line();
            self.superseded_line(x.ts, tid, old);
            forced = Some(text.len());
        }
        self.unreadable += unreadable;
        // -Y: a name shown at entry may be gone at exit (a child reaped),
        // so the exit part is where this text's starts, not at the entry
        // text's length
        let printed = forced
            .or(pending.as_ref().and_then(|p| p.printed))
            .map(|n| {
                if self.o.pid_comm {
                    boundary.unwrap_or(n)
                } else {
                    n
                }
            });
        match printed {
            Some(n) if self.open == Some(tid) => {
                self.emit(text.get(n..).unwrap_or(""));
                self.emit(")");
            }
            Some(n) => {
                self.interrupt(None);
                self.leader(tid, x.ts);
                self.emit("<... ");
                self.emit(&name);
                self.emit(" resumed>");
                self.emit(text.get(n..).unwrap_or(""));
                self.emit(")");
            }
            None => {
                self.interrupt(None);
                self.leader(
                    tid,
                    pending
                        .as_ref()
                        .map(|p| p.enter.ts)
                        .or(x.enter_ts)
                        .unwrap_or(x.ts),
                );
                self.emit(&name);
                self.emit("(");
                self.emit(&text);
                self.emit(")");
            }
        }
        self.open = None;
        self.pad();
        let kind = genba_syscalls::decode::decoder_for(x.nr)
            .map(|d| d.ret)
            .unwrap_or(Ret::Dec);
        // -e verbose=: recvmmsg's time left is verbose-only
        let quiet_ret = name == "recvmmsg"
            && call.exit.is_some_and(|(r, _)| r > 0)
            && self
                .o
                .verbose
                .as_ref()
                .is_some_and(|v| !v.get(x.nr as usize).copied().unwrap_or(true));
        // the return's text, in a buffer kept from call to call
        let mut r = std::mem::take(&mut self.ret_buf);
        r.clear();
        if quiet_ret {
            decode::format_return(&mut r, x.ret, kind, self.o.decode.xlat);
        } else {
            decode::push_return_text_with(&mut r, &name, call, kind, &self.o.decode);
        }
        if ran {
            self.world.exit_after(tgid, &name, call);
        }
        if self.o.fd_decode.any() && x.ret >= 0 && decode::returns_fd(&name, &call.args) {
            if let Some(p) = self.fd_text(tgid, x.ret as i32) {
                r.push_str(&decode::fd_path_text(&p));
            }
        }
        if self.o.pid_comm && x.ret > 0 && decode::returns_pid(&name) {
            if let Some(c) = self.pid_comm(x.ret as i32) {
                r.push_str(&decode::comm_text(&c));
            }
        }
        r.push_str(injected_note(x.inject));
        if let Some(w) = self.o.times {
            let start = x.enter_ts.or(pending.as_ref().map(|p| p.enter.ts));
            match start {
                Some(s) => {
                    let d = x.ts.saturating_sub(s);
                    let _ = write!(r, " <{}", d / 1_000_000_000);
                    if w > 0 {
                        let _ = write!(r, ".{:0w$}", fraction(d, w), w = w as usize);
                    }
                    r.push('>');
                }
                None => r.push_str(" <unavailable>"),
            }
        }
        if let (Some(st), Some(cs)) = (
            self.world.stacks(),
            pending.as_ref().and_then(|p| p.stacks.as_ref()),
        ) {
            if st.opts.source {
                let _ = write!(r, "  <- {}", st.site_label(cs));
            }
            r.push('\n');
            if st.opts.stack_trace > 0 {
                st.stack_lines(cs, &mut r);
            }
        } else {
            r.push('\n');
        }
        dump_io(&mut r, &name, call, &self.o);
        self.emit(&r);
        self.ret_buf = r;
        self.flush_line();
    }

    /// `+++ exited with N +++` or `+++ killed by SIG +++`, as shown.
    fn exit_line(&mut self, tid: u32, ts: u64, st: i32) {
        let sig = st & 0x7f;
        // strace -qq (and -qqq) hide `+++ exited with N +++`, never
        // `+++ killed by SIG... +++`
        let shown = if sig == 0 {
            !self.o.quiet_exit
        } else {
            self.signal_shown(sig as u32)
        };
        if self.print && shown {
            self.interrupt(None);
            self.leader(tid, ts);
            let msg = if sig == 0 {
                format!("+++ exited with {} +++\n", (st >> 8) & 0xff)
            } else {
                let core = if st & 0x80 != 0 { " (core dumped)" } else { "" };
                format!("+++ killed by {}{core} +++\n", consts::signal_name(sig))
            };
            self.emit(&msg);
            self.flush_line();
        }
    }

    /// Thread `old` of process `leader` exec'd: it goes on as `leader`,
    /// whose end is not reported, and its execve returns there (strace's
    /// `<pid changed to ...>` and `+++ superseded by execve ... +++`).
    fn superseded(&mut self, ts: u64, leader: u32, old: u32) {
        self.deferred.remove(&leader);
        if self.open == Some(old) {
            self.emit(&format!(" <pid changed to {leader} ...>\n"));
            self.flush_line();
            self.open = None;
        }
        let mut p = self.pending.remove(&old);
        match p.as_mut() {
            // not printed yet (its strings are read at its return): all
            // of it then
            Some(p) if p.printed.is_none() => p.superseded = Some(old),
            _ => self.superseded_line(ts, leader, old),
        }
        if let Some(mut p) = p {
            // its exit is the leader's now, printed as a resumption
            p.enter.task.tid = leader;
            self.pending.insert(leader, p);
        }
    }

    /// restart_syscall's argument as strace shows it: the call it resumes.
    fn restart_text(&self, tid: u32, nr: u32) -> Option<String> {
        const NR_RESTART_SYSCALL: u32 = 219; // x86_64
        if nr != NR_RESTART_SYSCALL {
            return None;
        }
        let prev = self.prev_shown.get(&tid).map(|&n| name_of(n));
        Some(format!(
            "<... resuming interrupted {} ...>",
            prev.as_deref().unwrap_or("system call")
        ))
    }

    /// `+++ superseded by execve in pid OLD +++` (unless -qqq).
    fn superseded_line(&mut self, ts: u64, leader: u32, old: u32) {
        if self.print && !self.o.quiet_thread_execve {
            self.interrupt(None);
            self.leader(leader, ts);
            self.emit(&format!("+++ superseded by execve in pid {old} +++\n"));
            self.flush_line();
        }
    }

    /// Closes an open line at the end of the run.
    pub fn finish(&mut self) {
        if self.open.take().is_some() {
            self.emit(" <unfinished ...>\n");
            self.flush_line();
        }
        // leaders whose group's end was not seen (threads not followed):
        // those gone; not those still running (genba detached)
        let mut left: Vec<(u32, i32)> = self
            .deferred
            .drain()
            .filter(|(tid, _)| !std::path::Path::new(&format!("/proc/{tid}")).exists())
            .collect();
        left.sort();
        for (tid, st) in left {
            let ts = self.last_ts.unwrap_or(0);
            self.exit_line(tid, ts, st);
        }
        let _ = self.out.flush();
        for f in self.files.values_mut() {
            let _ = f.flush();
        }
    }

    /// `-ff`: the tasks whose file could not be made (their lines lost).
    pub fn unwritable_files(&self) -> usize {
        self.unwritable.len()
    }

    pub fn flush(&mut self) {
        let _ = self.out.flush();
        for f in self.files.values_mut() {
            let _ = f.flush();
        }
    }
}

/// The bytes copied past what is shown: `-e read=` and `-e write=` dump a
/// call's whole data (up to this much).
pub const DUMP_MAX: u32 = 16384;
/// The same for each buffer of an iovec (a record holds 32 KiB of copies
/// in all: the buffers past that are not copied, and the dump says so).
pub const DUMP_IOV_MAX: u32 = 4096;

/// The calls whose data `-e write=` (`write`) or `-e read=` (not) dumps,
/// and the argument that holds it (a buffer, or an iovec array: `iov`).
pub const DUMPED: &[(&str, bool, bool)] = &[
    // (name, write, iov)
    ("write", true, false),
    ("pwrite64", true, false),
    ("sendto", true, false),
    ("writev", true, true),
    ("pwritev", true, true),
    ("pwritev2", true, true),
    ("vmsplice", true, true),
    ("mq_timedsend", true, false),
    ("sendmsg", true, true),
    ("sendmmsg", true, true),
    ("read", false, false),
    ("pread64", false, false),
    ("recvfrom", false, false),
    ("readv", false, true),
    ("preadv", false, true),
    ("preadv2", false, true),
    ("mq_timedreceive", false, false),
    ("recvmsg", false, true),
    ("recvmmsg", false, true),
];

/// `-e read=`/`-e write=`: strace's hex dump of the data `call` wrote or
/// read on a descriptor of the sets, after its line. What was written is
/// dumped whatever the result; what was read, only when the call
/// succeeded, as many bytes as it returned.
fn dump_io(out: &mut String, name: &str, call: CallView<'_>, o: &TextOptions) {
    // (runs for every call shown: nothing to look up without a set)
    if o.dump_read.is_none() && o.dump_write.is_none() {
        return;
    }
    let Some(&(_, write, iov)) = DUMPED.iter().find(|(n, _, _)| *n == name) else {
        return;
    };
    let set = if write { &o.dump_write } else { &o.dump_read };
    if !set
        .as_ref()
        .is_some_and(|s| s.contains(call.args[0] as i32 as i64))
    {
        return;
    }
    let Some((ret, exit_caps)) = call.exit else {
        return;
    };
    if !write && ret < 0 {
        return;
    }
    // what was written is copied at entry, or again at exit when the
    // entry's copy faulted (a page not yet present); what was read, at exit
    let caps: Vec<&genba_events::Capture> = if write {
        call.enter.iter().chain(exit_caps.iter()).collect()
    } else {
        exit_caps.iter().collect()
    };
    let copy = |item: CaptureItem, elem: u8| {
        caps.iter()
            .copied()
            .find(|c| c.arg == 1 && c.item == item && c.elem == elem && !c.fault)
    };
    if matches!(name, "sendmmsg" | "recvmmsg") {
        // the entries sent or received: each one's buffers up to its msg_len
        return dump_mmsg(out, &exit_caps.iter().collect::<Vec<_>>(), ret);
    }
    if iov {
        // the array could not be read whole: strace dumps nothing
        let count = caps
            .iter()
            .rev()
            .find(|c| c.arg == 1 && c.item == CaptureItem::Count);
        if count.is_some_and(|c| c.fault) {
            return;
        }
        // each buffer as far as the data goes: " * N bytes in buffer K"
        let mut left = if write { u64::MAX } else { ret as u64 };
        // (the collector copies at most GENBA_MAX_ELEMS = 64 buffers, and
        // leaves the count out when its record is full)
        // (sendmsg, recvmsg: the count is the msghdr's msg_iovlen)
        let vlen = if matches!(name, "sendmsg" | "recvmsg") {
            match caps
                .iter()
                .find(|c| c.arg == 1 && c.item == CaptureItem::Msghdr && c.data.len() >= 32)
            {
                Some(m) => u64::from_le_bytes(m.data[24..32].try_into().unwrap_or([0; 8])),
                None => return,
            }
        } else {
            call.args[2]
        };
        let vlen = vlen.min(64) as u8;
        for k in 0..vlen {
            // a good copy, else a faulted one (the length is known)
            let elem = copy(CaptureItem::Elem, k).or_else(|| {
                caps.iter()
                    .copied()
                    .find(|c| c.arg == 1 && c.item == CaptureItem::Elem && c.elem == k)
            });
            let Some(c) = elem else {
                // not copied at all: the record was full
                if count.is_none() && left > 0 {
                    let _ = writeln!(out, " | <buffers from {k} on not copied>");
                }
                break;
            };
            let n = c.aux.min(left);
            if n == 0 {
                break;
            }
            left -= n;
            let _ = writeln!(out, " * {n} bytes in buffer {k}");
            // a buffer that could not be read: its line alone, as strace
            if !c.fault {
                dump_copied(out, &c.data, n);
            }
        }
    } else {
        let len = if write { call.args[2] } else { ret as u64 };
        if let Some(c) = copy(CaptureItem::Data, 0) {
            dump_copied(out, &c.data, len);
        }
    }
}

/// sendmmsg's or recvmmsg's dump (strace's dumpiov_in_mmsghdr): for
/// each of the `ret` entries the call sent or received, as far as the copy
/// holds them, ` = N buffers in vector I` and its buffers up to the entry's
/// msg_len.
fn dump_mmsg(out: &mut String, caps: &[&genba_events::Capture], ret: i64) {
    let mut entry: Option<u64> = None;
    let mut left = 0u64;
    let mut shown = 0i64;
    for c in caps.iter().filter(|c| c.arg == 1) {
        match c.item {
            CaptureItem::Msghdr if c.data.len() >= 64 => {
                if shown >= ret {
                    return;
                }
                shown += 1;
                let iovlen = u64::from_le_bytes(c.data[24..32].try_into().unwrap_or([0; 8]));
                left = u32::from_le_bytes(c.data[56..60].try_into().unwrap_or([0; 4])) as u64;
                entry = Some(c.elem as u64);
                let _ = writeln!(out, " = {iovlen} buffers in vector {}", c.elem);
            }
            CaptureItem::Elem if entry.is_some() => {
                let n = c.aux.min(left);
                if n == 0 {
                    continue;
                }
                left -= n;
                let _ = writeln!(out, " * {n} bytes in buffer {}", c.elem);
                if !c.fault {
                    dump_copied(out, &c.data, n);
                }
            }
            _ => {}
        }
    }
}

/// The first `len` bytes of the data, as far as they were copied; a line
/// says how many were not (the collector copies at most DUMP_MAX bytes of
/// a call's data).
fn dump_copied(out: &mut String, d: &[u8], len: u64) {
    let n = (len as usize).min(d.len());
    hexdump(out, &d[..n]);
    if len > n as u64 {
        let _ = writeln!(
            out,
            " | <{} bytes not copied: genba copies at most {DUMP_MAX}>",
            len - n as u64
        );
    }
}

/// strace's dump: 16 bytes a line in two groups of 8, then the bytes as
/// text (`.` for what does not print), at a hex offset at least 5 wide.
fn hexdump(out: &mut String, d: &[u8]) {
    let width = if d.len() > 1 << 20 {
        1 + (63 - (d.len() as u64 - 1).leading_zeros() as usize) / 4
    } else {
        5
    };
    for (k, row) in d.chunks(16).enumerate() {
        let _ = write!(out, " | {:0width$x} ", k * 16);
        for i in 0..16 {
            if i % 8 == 0 {
                out.push(' ');
            }
            match row.get(i) {
                Some(b) => {
                    let _ = write!(out, "{b:02x} ");
                }
                None => out.push_str("   "),
            }
        }
        out.push(' ');
        for i in 0..16 {
            out.push(match row.get(i) {
                Some(&b) if (0x20..0x7f).contains(&b) => b as char,
                Some(_) => '.',
                None => ' ',
            });
        }
        out.push_str(" |\n");
    }
}

/// What strace says after the return value of a call `-e inject=` acted
/// on.
pub fn injected_note(flags: u32) -> &'static str {
    let skipped = flags & genba_events::INJ_SKIPPED != 0;
    let poked = flags & genba_events::INJ_POKED != 0;
    match (skipped, poked, flags & genba_events::INJ_DELAYED != 0) {
        (true, true, true) => " (INJECTED: args, retval) (DELAYED)",
        (true, true, false) => " (INJECTED: args, retval)",
        (false, true, true) => " (INJECTED: args) (DELAYED)",
        (false, true, false) => " (INJECTED: args)",
        (true, false, true) => " (INJECTED) (DELAYED)",
        (true, false, false) => " (INJECTED)",
        (false, false, true) => " (DELAYED)",
        (false, false, false) => "",
    }
}

/// `s` as a JSON string literal.
fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn view<'a>(e: &'a SyscallEnter, exit: Option<(i64, &'a [genba_events::Capture])>) -> CallView<'a> {
    CallView {
        nr: e.nr,
        args: e.args,
        enter: &e.captures,
        exit,
    }
}

fn local_time_of_day(secs: i64) -> String {
    let t = secs as libc::time_t;
    // SAFETY: localtime_r writes into tm, a valid struct.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    unsafe { libc::localtime_r(&t, &mut tm) };
    format!("{:02}:{:02}:{:02}", tm.tm_hour, tm.tm_min, tm.tm_sec)
}

/// JSON lines: one object per completed (or unfinished) call.
pub struct JsonPrinter<W: Write> {
    out: W,
    decode: Options,
    status: StatusSet,
    pending: HashMap<u32, SyscallEnter>,
    /// With --source/-k: the world that follows mappings and resolves each
    /// call's stacks.
    world: Option<World>,
    /// The stacks of the call that completed last.
    last_stacks: Option<crate::stacks::CallStacks>,
    /// The summary by call site (`-C --source`), and whether it counts CPU
    /// time (not -w).
    sites: Option<(crate::stacks::SiteTable, bool)>,
    /// Which calls to show (some are traced only to follow mappings).
    display: Option<Vec<bool>>,
    /// `-e signal=`: the signals whose deliveries are written.
    signals: Vec<bool>,
}

impl<W: Write> JsonPrinter<W> {
    pub fn new(out: W, decode: Options, status: StatusSet) -> Self {
        JsonPrinter {
            out,
            decode,
            status,
            pending: HashMap::default(),
            world: None,
            last_stacks: None,
            sites: None,
            display: None,
            signals: vec![true; crate::filter::NSIG_SET],
        }
    }

    /// Writes only the deliveries of these signals (`-e signal=`).
    pub fn with_signals(self, signals: Vec<bool>) -> Self {
        JsonPrinter { signals, ..self }
    }

    /// Shows only the calls `display` selects.
    pub fn with_display(self, display: Option<Vec<bool>>) -> Self {
        JsonPrinter { display, ..self }
    }

    /// Adds `"site"` and `"stack"` to every call, resolved in `world`.
    pub fn with_world(self, world: World) -> Self {
        JsonPrinter {
            world: Some(world),
            ..self
        }
    }

    /// Also counts calls by call site (`-C --source`); `cpu_time`: the
    /// time on the CPU (not -w).
    pub fn with_sites(self, cpu_time: bool) -> Self {
        JsonPrinter {
            sites: Some((Default::default(), cpu_time)),
            ..self
        }
    }

    /// Calls whose site was not found for a too short stack copy.
    pub fn short_stacks(&self) -> u64 {
        self.world
            .as_ref()
            .and_then(|w| w.stacks())
            .map_or(0, |s| s.short_stacks)
    }

    /// Stacks (-k) the copy cut short.
    pub fn cut_stacks(&self) -> u64 {
        self.world
            .as_ref()
            .and_then(|w| w.stacks())
            .map_or(0, |s| s.cut_stacks)
    }

    /// The calls counted by call site (`-C --source`), as
    /// [`crate::stacks::SiteTable::rows`] gives them.
    pub fn site_rows(&self) -> Vec<(u32, String, u64, u64, u64)> {
        self.sites
            .as_ref()
            .map(|(t, _)| t.rows())
            .unwrap_or_default()
    }

    pub fn event(&mut self, ev: &Event) {
        self.last_stacks = self.world.as_mut().and_then(|w| w.follow(ev));
        match ev {
            Event::Profile(_) => {}
            Event::Gpu(g) => self.gpu(g),
            Event::SyscallEnter(e) => {
                self.pending.insert(e.task.tid, e.clone());
            }
            Event::SyscallExit(x) => {
                let p = self.pending.remove(&x.task.tid).filter(|p| p.nr == x.nr);
                let ok = x.ret >= 0 || x.ret < -4095;
                let shown = self
                    .display
                    .as_ref()
                    .is_none_or(|d| d.get(x.nr as usize).copied().unwrap_or(true));
                if let (Some((sites, cpu)), Some(st), Some(cs)) = (
                    self.sites.as_mut(),
                    self.world.as_ref().and_then(|w| w.stacks()),
                    self.last_stacks.as_ref(),
                ) {
                    if let (Some(start), true) = (x.enter_ts.or(p.as_ref().map(|p| p.ts)), shown) {
                        let wall = x.ts.saturating_sub(start);
                        let ns = if *cpu {
                            wall.saturating_sub(x.off_cpu_ns)
                        } else {
                            wall
                        };
                        sites.add(x.nr, &st.site_label(cs), ns, !ok);
                    }
                }
                if !self.status.shows(ok) || !shown {
                    return;
                }
                self.call(p.as_ref(), Some(x));
            }
            Event::Exit {
                task, status, ts, ..
            } => {
                if let Some(p) = self.pending.remove(&task.tid) {
                    self.call(Some(&p), None);
                }
                let v = serde_json::json!({"type": "exit", "ts_ns": ts, "pid": task.tgid, "tid": task.tid, "status": status});
                let _ = writeln!(self.out, "{v}");
            }
            Event::Signal {
                ts,
                task,
                sig,
                siginfo,
                stops,
            } => {
                if !self.signals.get(*sig as usize).copied().unwrap_or(false) {
                    return;
                }
                let v = serde_json::json!({"type": "signal", "ts_ns": ts, "pid": task.tgid, "tid": task.tid,
                    "signal": consts::signal_name(*sig), "siginfo": crate::siginfo::format(*sig, siginfo),
                    "stops": stops});
                let _ = writeln!(self.out, "{v}");
            }
            Event::Fork { ts, task, child } => {
                let v = serde_json::json!({"type": "fork", "ts_ns": ts, "pid": task.tgid, "tid": task.tid, "child_tid": child.tid, "child_pid": child.tgid});
                let _ = writeln!(self.out, "{v}");
            }
            Event::Exec { task, old_tid, .. } => {
                // a thread other than the leader exec'd: its execve
                // returns as the leader
                if let Some(mut p) = self.pending.remove(old_tid) {
                    p.task.tid = task.tid;
                    self.pending.insert(task.tid, p);
                }
            }
        }
    }

    fn call(&mut self, e: Option<&SyscallEnter>, x: Option<&SyscallExit>) {
        let (nr, task) = match (e, x) {
            (Some(e), _) => (e.nr, e.task),
            (None, Some(x)) => (x.nr, x.task),
            _ => return,
        };
        let name = name_of(nr);
        let args = e.map(|e| e.args).or(x.map(|x| x.args)).unwrap_or_default();
        let call = CallView {
            nr,
            args,
            // a call -e inject= answered without running it: its exit
            // made the entry's copies
            enter: match (e, x) {
                (Some(e), _) => e.captures.as_slice(),
                (None, Some(x)) if x.inject & genba_events::INJ_SKIPPED != 0 => {
                    x.captures.as_slice()
                }
                _ => &[],
            },
            exit: x.map(|x| (x.ret, x.captures.as_slice())),
        };
        // written by hand: this runs per call, and building a serde_json
        // value tree for each cost several times the decoding itself
        let (texts, whole) = decode::split_args(call, &self.decode);
        // the arguments strace shows; an unfinished call lists them all, the
        // outputs it has no values for with empty texts
        let nargs = if whole {
            texts.len()
        } else {
            table::by_nr(nr).map_or(6, |s| s.nargs as usize)
        };
        let mut line = String::with_capacity(256);
        let _ = write!(
            line,
            "{{\"type\":\"syscall\",\"pid\":{},\"tid\":{},\"name\":",
            task.tgid, task.tid
        );
        json_str(&mut line, &name);
        let _ = write!(line, ",\"nr\":{nr},\"args\":[");
        for (i, raw) in args.iter().enumerate().take(nargs) {
            if i > 0 {
                line.push(',');
            }
            let _ = write!(line, "{{\"raw\":{raw},\"text\":");
            json_str(&mut line, texts.get(i).map(String::as_str).unwrap_or(""));
            line.push('}');
        }
        line.push(']');
        if let Some(ts) = e.map(|e| e.ts).or(x.and_then(|x| x.enter_ts)) {
            let _ = write!(line, ",\"ts_ns\":{ts}");
        }
        match x {
            Some(x) => {
                let _ = write!(line, ",\"ret\":{},\"errno\":", x.ret);
                if (-4095..0).contains(&x.ret) {
                    match consts::errno_name((-x.ret) as i32) {
                        Some((n, _)) => json_str(&mut line, n),
                        None => {
                            let _ = write!(line, "\"{}\"", -x.ret);
                        }
                    }
                } else {
                    line.push_str("null");
                }
                let _ = write!(line, ",\"exit_ts_ns\":{},\"duration_ns\":", x.ts);
                match x.enter_ts.or(e.map(|e| e.ts)) {
                    Some(s) => {
                        let _ = write!(line, "{}", x.ts.saturating_sub(s));
                    }
                    None => line.push_str("null"),
                }
                if x.inject & genba_events::INJ_SKIPPED != 0 {
                    line.push_str(",\"injected\":true");
                }
                if x.inject & genba_events::INJ_DELAYED != 0 {
                    line.push_str(",\"delayed\":true");
                }
                if x.inject & genba_events::INJ_POKED != 0 {
                    line.push_str(",\"poked\":true");
                }
            }
            None => line.push_str(",\"ret\":null,\"unfinished\":true"),
        }
        if let Some(w) = self.world.as_ref() {
            if let (Some(st), Some(cs)) = (w.stacks(), self.last_stacks.as_ref()) {
                line.push_str(",\"site\":");
                json_str(&mut line, &st.site_label(cs));
                line.push_str(",\"stack\":[");
                for (k, fr) in cs.user.iter().flat_map(|f| f.iter()).enumerate() {
                    if k > 0 {
                        line.push(',');
                    }
                    line.push_str("{\"module\":");
                    json_str(&mut line, &fr.module);
                    let _ = write!(line, ",\"offset\":{}", fr.file_offset);
                    if let Some(n) = &fr.function {
                        line.push_str(",\"function\":");
                        json_str(&mut line, n);
                    }
                    if let (Some(file), Some(l)) = (&fr.file, fr.line) {
                        line.push_str(",\"file\":");
                        json_str(&mut line, file);
                        let _ = write!(line, ",\"line\":{l}");
                    }
                    let _ = write!(line, ",\"inlined\":{}}}", fr.inlined);
                }
                line.push(']');
            }
        }
        line.push_str("}\n");
        let _ = self.out.write_all(line.as_bytes());
    }

    /// The last line: what the collector lost or could not read, so a JSON
    /// consumer learns it without parsing stderr.
    /// `--gpu`: a line per API call and per command, as `genba export
    /// --format jsonl` writes them.
    fn gpu(&mut self, g: &GpuEvent) {
        let v = match g {
            GpuEvent::Call(c) => serde_json::json!({"type": "gpu_api", "ts": c.ts,
                "dur": c.end.saturating_sub(c.ts), "pid": c.task.tgid, "tid": c.task.tid,
                "name": c.name, "call": c.line(),
                "error": c.error}),
            GpuEvent::Command(c) if c.start != 0 && c.end >= c.start => serde_json::json!({
                "type": "gpu_exec", "ts": c.start, "dur": c.end - c.start,
                "pid": c.task.tgid, "queue": format!("{:#x}", c.queue), "name": c.name,
                "kind": crate::gputable::kind_name(c.kind),
                "queued_ns": (c.queued != 0).then(|| c.start.saturating_sub(c.queued)),
                "bytes": c.bytes, "enqueued_by": c.task.tid, "error": c.error}),
            _ => return,
        };
        let _ = writeln!(self.out, "{v}");
    }

    pub fn end_record(&mut self, stats: &genba_events::CollectorStats) {
        let v = serde_json::json!({
            "type": "end",
            "events_lost": stats.total_lost(),
            "ring_buffer_full": stats.lost,
            "bpf_runs_missed": stats.missed,
            "user_memory_faults": stats.faults,
            "records": stats.events,
        });
        let _ = writeln!(self.out, "{v}");
    }

    pub fn finish(&mut self) {
        let _ = self.out.flush();
    }
}
