//! `genba report`: what a recording holds, read as a stream of packets
//! (memory grows with the threads and calls seen, not with the file):
//! the system-call summary in strace -c's layout, each thread's lifetime
//! split into running and its off-CPU classes from the exact intervals, the
//! top blocking calls and the top wakers, and the events lost. A recording
//! cut short is reported up to its last whole packet, and says so.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufReader, Write};
use std::rc::Rc;

use anyhow::{bail, Context, Result};
use genba_analyze::profile::Class;
use genba_analyze::report::{Frame, Profile, SampleIn, SortKey};
use genba_analyze::{SortBy, SyscallTotals};
use genba_export::perfetto::{
    EventKind, Packet, PerfettoReader, ReadEvent, StackFrame, TrackKind, Value,
};
use genba_symbolize::SourceFrame;
use genba_syscalls::table;
use serde_json::json;

use crate::irqwaker::Waker;
use crate::options::ReportArgs;
use crate::summary;
use crate::Exit;

/// The classes of off-CPU time, in the order they are shown.
const CLASSES: [&str; 4] = ["[I]", "[L]", "[S]", "[B]"];
/// Rows of the top tables in the text report.
const TOP: usize = 10;

/// A slice begun and not yet ended on its track.
struct Open {
    ts: u64,
    what: Slice,
    /// The blocked samples an off-CPU interval weighs, with its stack.
    samples: Option<SampleIn>,
    /// What the timeline shows for it (the decoded call), with --html.
    label: Option<String>,
    /// An off-CPU interval inside a GPU library: the program's call site
    /// outside the GPU libraries (its stack's).
    gpu_site: Option<Rc<str>>,
}

/// The timeline of the HTML page: each thread's slices, the wakeups.
#[derive(Default)]
struct Timeline {
    /// Row of each thread track, in the order first seen.
    rows: HashMap<u64, usize>,
    tracks: Vec<u64>,
    /// Per row: (start, duration, kind, label) flattened.
    slices: Vec<Vec<u64>>,
    labels: Vec<String>,
    label_ids: HashMap<String, u64>,
    /// (waker tid, woken row, when).
    wakes: Vec<(u32, usize, u64)>,
    start: Option<u64>,
    end: u64,
    kept: u64,
    dropped: u64,
}

/// Slices the page keeps at most: a browser draws this many smoothly.
const TIMELINE_MAX: u64 = 500_000;

impl Timeline {
    fn row(&mut self, track: u64) -> usize {
        let n = self.tracks.len();
        *self.rows.entry(track).or_insert_with(|| {
            self.tracks.push(track);
            self.slices.push(Vec::new());
            n
        })
    }

    fn add(&mut self, track: u64, ts: u64, dur: u64, kind: u64, label: &str) {
        if self.kept >= TIMELINE_MAX {
            self.dropped += 1;
            return;
        }
        self.kept += 1;
        let row = self.row(track);
        let n = self.labels.len() as u64;
        let id = *self.label_ids.entry(label.to_string()).or_insert(n);
        if id == n {
            self.labels.push(label.to_string());
        }
        self.slices[row].extend([ts, dur, kind, id]);
    }
}

enum Slice {
    /// A system call: its name, its return value if it returned, its call
    /// site if recorded.
    Call {
        name: String,
        ret: Option<i64>,
        site: Option<String>,
    },
    /// A GPU API call (OpenCL): its function, its error code.
    GpuCall {
        name: String,
        error: i64,
    },
    /// A command a GPU ran: its kind, its name, its wait in the queue, the
    /// bytes it moved.
    GpuCommand {
        kind: String,
        name: String,
        queued: u64,
        bytes: u64,
    },
    /// An off-CPU interval: its class, its call, its call site, who woke it
    /// and when (the waker's moment, when before the interval's end).
    OffCpu {
        class: String,
        syscall: Option<String>,
        site: Option<String>,
        waker: Option<u32>,
        waking: Option<u64>,
    },
    Other,
}

/// A recorded stack as the profile takes it.
struct Stack {
    frames: Vec<Frame>,
    syscall: Option<String>,
    site: Option<String>,
    /// Inside a GPU library (its API, its loader, genba's layer, a driver):
    /// the call site outside them.
    gpu_site: Option<Rc<str>>,
}

/// A module of a GPU stack: an API's loader or runtime, genba's layers, a
/// driver (OpenCL ICDs, Vulkan ICDs, Mesa, CUDA, ROCm, Level Zero) and the
/// compilers drivers carry (LLVM, clang: pocl builds kernels with them).
fn is_gpu_module(module: &str) -> bool {
    let base = module.rsplit('/').next().unwrap_or(module);
    const LIBS: [&str; 15] = [
        "libOpenCL",
        "libclang",
        "libvulkan",
        "libgenba_",
        "libpocl",
        "libcuda",
        "libnvidia",
        "libamdhip",
        "libhsa",
        "libze_",
        "libigdrcl",
        "libLLVM",
        "libgallium",
        "libdrm",
        "libMesa",
    ];
    LIBS.iter().any(|l| base.starts_with(l)) || module.contains("/dri/")
}

#[derive(Default)]
struct Thread {
    pid: i32,
    tid: i32,
    name: String,
    first: Option<u64>,
    last: u64,
    /// Off-CPU ns by class tag.
    classes: HashMap<String, u64>,
    /// Slices open on the track (a call, the wait inside it).
    open: Vec<Open>,
    /// Slices begun on the track: 0 for a thread seen only as a waker
    /// (a kernel worker, genba itself), which is not one of the traced.
    slices: u64,
}

#[derive(Default)]
struct Blocking {
    count: u64,
    total_ns: u64,
    max_ns: u64,
}

#[derive(Default)]
struct Wakes {
    count: u64,
    ns: u64,
}

/// A blocking row's key: the class, the call, the call site.
type BlockKey = (String, Option<String>, Option<String>);

/// How many of a waker's calls, and of its unmatched wakeups, are kept to
/// tell which call a wakeup came from (they arrive in either order, close
/// together: the wakee's interval when it runs, the call when it returns).
const WAKER_WINDOW: usize = 64;

#[derive(Default)]
struct WakerCalls {
    calls: std::collections::VecDeque<(u64, u64, String)>,
    pending: std::collections::VecDeque<(u64, u64)>,
}

/// What a waker was doing when it woke a thread: its call (at its site).
fn call_label(name: &str, site: Option<&str>) -> String {
    match site {
        Some(s) => format!("{name} at {s}"),
        None => name.to_string(),
    }
}

/// Not inside a call of the waker's that was recorded (a kernel thread, an
/// interrupt, a call left out).
const NO_CALL: &str = "(no recorded call)";

/// A waker: its tid, the waiting it released (ns), its wakeups, and the
/// threads it woke, the most released first.
type WakerRow<'a> = (u32, u64, u64, Vec<(u32, &'a Wakes)>);

#[derive(Default)]
struct Report {
    /// By track uuid.
    threads: HashMap<u64, Thread>,
    syscalls: HashMap<String, SyscallTotals>,
    /// Calls by syscall and call site (recorded with --source).
    sites: crate::stacks::SiteTable,
    /// GPU queues' tracks.
    gpu_queues: std::collections::HashSet<u64>,
    /// GPU API calls and commands.
    gpu: crate::gputable::GpuTables,
    /// GPU API calls by thread: (start, end, index in gpu_call_names)
    gpu_calls: HashMap<u32, Vec<(u64, u64, u32)>>,
    gpu_call_names: Vec<String>,
    gpu_call_ids: HashMap<String, u32>,
    /// off-CPU intervals inside GPU libraries: (tid, start, end, class, site)
    gpu_blocked: Vec<(u32, u64, u64, String, Rc<str>)>,
    /// the recording's first and last times
    span: Option<(u64, u64)>,
    /// Off-CPU time by (class, system call, call site).
    blocking: HashMap<BlockKey, Blocking>,
    /// Waiting time released, by (waker tid, woken tid).
    wakes: HashMap<(u32, u32), Wakes>,
    /// Waiting time released, by waker tid and the call it woke from.
    wakes_from: HashMap<u32, HashMap<String, Wakes>>,
    /// By waker tid: its last calls (start, end, the call and its site),
    /// and wakeups not yet matched to one (time, released ns).
    waker_calls: HashMap<u32, WakerCalls>,
    /// Tracks that count lost events.
    lost_tracks: Vec<u64>,
    packets: u64,
    bytes: u64,
    /// Where the file was cut short, if it was.
    truncated: Option<crate::cut::Cut>,
    /// Its format, its end marker, its last time and loss count.
    watch: crate::cut::Watch,
    /// The samples, on and off the CPU, as genba profile reports them.
    profile: Option<Profile>,
    /// The recording's stacks as the profile takes them, by interned id.
    stacks: HashMap<u64, Rc<Stack>>,
    /// Each thread's name as last described.
    names: HashMap<u32, String>,
    /// With --html: the timeline.
    timeline: Option<Timeline>,
    /// The recording's own track, and what it says of itself.
    settings_track: Option<u64>,
    cwd: String,
    command: String,
    freq: u64,
}

fn log2_bucket(v: u64) -> usize {
    let b = if v == 0 {
        0
    } else {
        63 - v.leading_zeros() as usize
    };
    b.min(genba_bpf::wire::HIST_BUCKETS - 1)
}

impl Report {
    fn packet<R: std::io::Read>(&mut self, p: Packet, reader: &PerfettoReader<R>) {
        match p {
            Packet::Track(t) => match t.kind {
                TrackKind::Other { name } if name == "genba record" => {
                    self.settings_track = Some(t.uuid);
                }
                // a process's own track: a GPU queue's (a row of the
                // timeline by its name, not a thread of the thread table)
                TrackKind::Other { name } if t.parent.is_some() => {
                    self.gpu_queues.insert(t.uuid);
                    self.threads.entry(t.uuid).or_default().name = name;
                }
                TrackKind::Thread { pid, tid, name } => {
                    self.names.insert(tid as u32, name.clone());
                    let th = self.threads.entry(t.uuid).or_default();
                    th.pid = pid;
                    th.tid = tid;
                    th.name = name;
                }
                TrackKind::Counter { name, .. } if name == "lost events" => {
                    self.lost_tracks.push(t.uuid);
                }
                _ => {}
            },
            Packet::Event(e) => {
                let stack = e.callstack.and_then(|c| self.stack(c, reader));
                self.event(e, stack)
            }
            Packet::Sample(s) => {
                self.watch.time(s.ts);
                let Some(stack) = self.stack(s.callstack, reader) else {
                    return;
                };
                let class = if s.kernel { Class::Kernel } else { Class::User };
                let sample = self.sample_in(s.pid, s.tid, class, 1, &stack, None);
                self.profile().add(sample);
            }
            Packet::Other => {}
        }
    }

    fn profile(&mut self) -> &mut Profile {
        // a recording without its settings: genba profile's default period
        self.profile.get_or_insert_with(|| Profile::new(1_000_000))
    }

    /// Recorded stack `iid` as the profile takes it, converted once.
    fn stack<R: std::io::Read>(
        &mut self,
        iid: u64,
        reader: &PerfettoReader<R>,
    ) -> Option<Rc<Stack>> {
        if let Some(s) = self.stacks.get(&iid) {
            return Some(s.clone());
        }
        let s = Rc::new(self.convert(&reader.frames(iid)?));
        self.stacks.insert(iid, s.clone());
        Some(s)
    }

    /// Frames outermost first as genba profile names them, the system call
    /// (the `[syscall]` frame) apart, the call site from the user frames.
    fn convert(&self, stack: &[StackFrame]) -> Stack {
        let mut frames = Vec::with_capacity(stack.len());
        let mut syscall = None;
        let mut user: Vec<SourceFrame> = Vec::new();
        for (i, f) in stack.iter().enumerate() {
            match f.module.as_str() {
                "[syscall]" => {
                    syscall = f.function.clone();
                    continue;
                }
                "[kernel]" => frames.push(Frame {
                    function: f
                        .function
                        .clone()
                        .unwrap_or_else(|| format!("{:#x}", f.rel_pc)),
                    module: "[kernel]".into(),
                    srcline: None,
                    kernel: true,
                }),
                m => {
                    let module = m.rsplit('/').next().unwrap_or(m).to_string();
                    let function = match &f.function {
                        Some(n) => n.strip_prefix("__GI_").unwrap_or(n).to_string(),
                        None => format!("{module}+{:#x}", f.rel_pc),
                    };
                    let srcline = match (&f.file, f.line) {
                        (Some(file), Some(line)) => Some(format!(
                            "{}:{line}",
                            crate::stacks::relative(file, &self.cwd)
                        )),
                        _ => None,
                    };
                    frames.push(Frame {
                        function,
                        module,
                        srcline,
                        kernel: false,
                    });
                    // inlined: the frame outside it is the same address
                    let inlined = i > 0
                        && stack
                            .get(i - 1)
                            .is_some_and(|o| o.module == f.module && o.rel_pc == f.rel_pc);
                    user.push(SourceFrame {
                        file_offset: f.rel_pc,
                        module: f.module.clone(),
                        function: f.function.clone(),
                        function_offset: None,
                        file: f.file.clone(),
                        line: f.line,
                        inlined,
                    });
                }
            }
        }
        user.reverse();
        let site = (!user.is_empty()).then(|| crate::stacks::site_of(&user, &self.cwd));
        // innermost first: the frames outside the outermost GPU frame
        let gpu_site = user
            .iter()
            .rposition(|f| is_gpu_module(&f.module))
            .map(|i| match &user[i + 1..] {
                [] => Rc::from("[unknown]"),
                rest => Rc::from(crate::stacks::site_of(rest, &self.cwd)),
            });
        Stack {
            frames,
            syscall,
            site,
            gpu_site,
        }
    }

    /// A sample as genba profile takes it (`site`: the one the recording
    /// gives, else the stack's).
    fn sample_in(
        &self,
        pid: u32,
        tid: u32,
        class: Class,
        weight: u64,
        stack: &Stack,
        site: Option<String>,
    ) -> SampleIn {
        SampleIn {
            tid,
            pid,
            comm: self.comm_of(tid),
            class,
            weight,
            frames: stack.frames.clone(),
            site: site.or_else(|| stack.site.clone()),
            syscall: stack.syscall.clone(),
        }
    }

    fn comm_of(&self, tid: u32) -> String {
        let n = self.name_of(tid);
        if n.is_empty() {
            "?".into()
        } else {
            n
        }
    }

    fn event(&mut self, e: ReadEvent, stack: Option<Rc<Stack>>) {
        self.watch.time(e.ts);
        let own = Some(e.track) == self.settings_track;
        if own {
            self.watch.own_event(&e);
        }
        if own && e.name.as_deref() == Some(crate::record::END_MARKER) {
            return;
        }
        if own && e.name.as_deref() == Some("settings") {
            let text = |k| match e.arg(k) {
                Some(Value::Str(s)) => s.clone(),
                _ => String::new(),
            };
            let num = |k| match e.arg(k) {
                Some(Value::Uint(u)) => *u,
                _ => 0,
            };
            self.cwd = text("cwd");
            self.command = text("command");
            self.freq = num("freq_hz");
            let period = num("period_ns");
            if period > 0 && self.profile.is_none() {
                self.profile = Some(Profile::new(period));
            }
            return;
        }
        if e.kind == EventKind::Counter {
            if self.lost_tracks.contains(&e.track) {
                self.watch.lost_count(e.counter);
            }
            return;
        }
        if let Some(t) = self.timeline.as_mut() {
            t.start = Some(t.start.map_or(e.ts, |s| s.min(e.ts)));
            t.end = t.end.max(e.ts);
        }
        self.span = Some(match self.span {
            Some((a, b)) => (a.min(e.ts), b.max(e.ts)),
            None => (e.ts, e.ts),
        });
        let th = self.threads.entry(e.track).or_default();
        th.first = Some(th.first.map_or(e.ts, |f| f.min(e.ts)));
        th.last = th.last.max(e.ts);
        let (pid, tid) = (th.pid as u32, th.tid as u32);
        match e.kind {
            EventKind::SliceBegin => {
                let what = classify(&e, self.gpu_queues.contains(&e.track), self.watch.format);
                let gpu_site = match &what {
                    Slice::OffCpu { .. } => stack.as_ref().and_then(|s| s.gpu_site.clone()),
                    _ => None,
                };
                let samples = match (&what, stack, e.arg("samples")) {
                    (Slice::OffCpu { class, syscall, .. }, Some(stack), Some(Value::Uint(w)))
                        if *w > 0 =>
                    {
                        let class = match class.as_str() {
                            "[I]" => Class::Io,
                            "[L]" => Class::Lock,
                            "[S]" => Class::Sched,
                            _ => Class::Blocked,
                        };
                        let site = match e.arg("site") {
                            Some(Value::Str(s)) => Some(s.clone()),
                            _ => None,
                        };
                        let mut s = self.sample_in(pid, tid, class, *w, &stack, site);
                        s.syscall = s.syscall.or(syscall.clone());
                        Some(s)
                    }
                    _ => None,
                };
                let label = self
                    .timeline
                    .as_ref()
                    .map(|_| match (&what, e.arg("call")) {
                        (Slice::OffCpu { class, syscall, .. }, _) => {
                            crate::slicename::label(class, syscall.as_deref())
                        }
                        (_, Some(Value::Str(c))) => c.clone(),
                        _ => e.name.clone().unwrap_or_default(),
                    });
                let th = self.threads.entry(e.track).or_default();
                th.slices += 1;
                th.open.push(Open {
                    ts: e.ts,
                    what,
                    samples,
                    label,
                    gpu_site,
                });
            }
            EventKind::SliceEnd => {
                let th = self.threads.entry(e.track).or_default();
                let Some(open) = th.open.pop() else { return };
                if let Some(s) = open.samples {
                    // counted when the interval is whole, as the live
                    // profile counts it when the thread runs again
                    self.profile().add(s);
                }
                let dur = e.ts.saturating_sub(open.ts);
                if let (Some(t), Some(label)) = (self.timeline.as_mut(), &open.label) {
                    let kind = match &open.what {
                        Slice::Call { .. } | Slice::GpuCall { .. } => 0,
                        Slice::OffCpu { class, .. } => match class.as_str() {
                            "[I]" => 1,
                            "[L]" => 2,
                            "[S]" => 3,
                            "[B]" => 4,
                            _ => 5,
                        },
                        Slice::Other | Slice::GpuCommand { .. } => 5,
                    };
                    t.add(e.track, open.ts, dur, kind, label);
                    if let Slice::OffCpu {
                        class,
                        waker: Some(w),
                        ..
                    } = &open.what
                    {
                        // the wakeup: where the wait for a CPU begins
                        // (from a thread's row: an interrupt has none)
                        if class == "[S]" && crate::irqwaker::kind(*w).is_none() {
                            let row = t.row(e.track);
                            t.wakes.push((*w, row, open.ts));
                        }
                    }
                }
                let tid = self.threads.entry(e.track).or_default().tid as u32;
                if let Slice::Call { name, site, ret } = &open.what {
                    if let (Some(site), Some(ret), Some(info)) = (site, ret, table::by_name(name)) {
                        self.sites
                            .add(info.nr, site, dur, (-4095..=-1).contains(ret));
                    }
                    // a call that never returned (exit, or one cut by the
                    // thread's end) holds whatever its thread did after it
                    // began: the wakeups of a thread's exit come after its
                    // exit event (the futex that pthread_join waits on)
                    let end = if ret.is_some() { e.ts } else { u64::MAX };
                    self.waker_call(tid, open.ts, end, call_label(name, site.as_deref()));
                }
                match open.what {
                    Slice::Call {
                        name,
                        ret: Some(ret),
                        ..
                    } => {
                        let t =
                            self.syscalls
                                .entry(name.clone())
                                .or_insert_with(|| SyscallTotals {
                                    name,
                                    hist: vec![0; genba_bpf::wire::HIST_BUCKETS],
                                    ..Default::default()
                                });
                        t.calls += 1;
                        if (-4095..=-1).contains(&ret) {
                            t.errors += 1;
                        }
                        t.total_ns += dur;
                        if t.min_ns == 0 || dur < t.min_ns {
                            t.min_ns = dur;
                        }
                        t.max_ns = t.max_ns.max(dur);
                        t.hist[log2_bucket(dur)] += 1;
                    }
                    Slice::OffCpu {
                        class,
                        syscall,
                        site,
                        waker,
                        waking,
                    } => {
                        let th = self.threads.entry(e.track).or_default();
                        *th.classes.entry(class.clone()).or_default() += dur;
                        // the waiting a waker released: the blocked interval
                        // itself, not the wait for a CPU that followed
                        if let Some(w) = waker.filter(|_| class != "[S]") {
                            let x = self.wakes.entry((w, tid)).or_default();
                            x.count += 1;
                            x.ns += dur;
                            // matched to the waker's calls at its own moment
                            // (an interrupt makes no calls)
                            if crate::irqwaker::kind(w).is_none() {
                                self.woken_at(w, waking.unwrap_or(e.ts), dur);
                            }
                        }
                        if let Some(g) = open.gpu_site {
                            self.gpu_blocked
                                .push((tid, open.ts, e.ts, class.clone(), g));
                        }
                        let b = self.blocking.entry((class, syscall, site)).or_default();
                        b.count += 1;
                        b.total_ns += dur;
                        b.max_ns = b.max_ns.max(dur);
                    }
                    Slice::GpuCall { name, error } => {
                        self.gpu.call(&name, error != 0, dur);
                        let k = match self.gpu_call_ids.get(&name) {
                            Some(&k) => k,
                            None => {
                                let k = self.gpu_call_names.len() as u32;
                                self.gpu_call_names.push(name.clone());
                                self.gpu_call_ids.insert(name, k);
                                k
                            }
                        };
                        self.gpu_calls
                            .entry(tid)
                            .or_default()
                            .push((open.ts, e.ts, k));
                    }
                    Slice::GpuCommand {
                        kind,
                        name,
                        queued,
                        bytes,
                    } => {
                        // the queue's row, whichever lane of it
                        let track = &self.threads.entry(e.track).or_default().name;
                        let queue = match track.rsplit_once(" #") {
                            Some((q, lane)) if lane.bytes().all(|b| b.is_ascii_digit()) => q,
                            _ => track.as_str(),
                        }
                        .to_string();
                        let device = crate::gputable::device_of(&queue);
                        self.gpu
                            .command(&queue, &device, &kind, &name, open.ts, dur, queued, bytes)
                    }
                    // a call still running when its thread ended: not in
                    // the -c table, as it is not in strace's or the kernel's
                    Slice::Call { ret: None, .. } | Slice::Other => {}
                }
            }
            _ => {}
        }
    }

    /// A call of thread `tid` from `start` to `end`: the wakeups it made
    /// that were waiting for it are its.
    fn waker_call(&mut self, tid: u32, start: u64, end: u64, label: String) {
        let Some(w) = self.waker_calls.get_mut(&tid) else {
            // a thread that woke no one yet: keep its calls all the same
            let mut w = WakerCalls::default();
            w.calls.push_back((start, end, label));
            self.waker_calls.insert(tid, w);
            return;
        };
        let mut matched = Vec::new();
        w.pending.retain(|&(at, ns)| {
            let inside = (start..=end).contains(&at);
            if inside {
                matched.push(ns);
            }
            !inside
        });
        if w.calls.len() == WAKER_WINDOW {
            w.calls.pop_front();
        }
        w.calls.push_back((start, end, label.clone()));
        for ns in matched {
            self.released_from(tid, &label, ns);
        }
    }

    /// Waker `waker` woke a thread at `at`, releasing `ns` of waiting.
    fn woken_at(&mut self, waker: u32, at: u64, ns: u64) {
        let w = self.waker_calls.entry(waker).or_default();
        let found = w
            .calls
            .iter()
            .rev()
            .find(|(s, e, _)| (*s..=*e).contains(&at))
            .map(|(_, _, l)| l.clone());
        match found {
            Some(label) => self.released_from(waker, &label, ns),
            None => {
                if w.pending.len() == WAKER_WINDOW {
                    let (_, old) = w.pending.pop_front().unwrap_or_default();
                    self.released_from(waker, NO_CALL, old);
                }
                let w = self.waker_calls.entry(waker).or_default();
                w.pending.push_back((at, ns));
            }
        }
    }

    fn released_from(&mut self, waker: u32, label: &str, ns: u64) {
        let by = self.wakes_from.entry(waker).or_default();
        let x = match by.get_mut(label) {
            Some(x) => x,
            None => by.entry(label.to_string()).or_default(),
        };
        x.count += 1;
        x.ns += ns;
    }

    /// At the end: the off-CPU intervals inside GPU libraries that lie in a
    /// recorded GPU call of their thread (a wait for the device, mostly),
    /// by call and call site. The driver's own threads (in its libraries
    /// but in no call of the program's) are not the program waiting.
    fn settle_gpu_blocked(&mut self) {
        for calls in self.gpu_calls.values_mut() {
            calls.sort_unstable();
        }
        for (tid, start, end, class, site) in std::mem::take(&mut self.gpu_blocked) {
            let Some(calls) = self.gpu_calls.get(&tid) else {
                continue;
            };
            // the last call that began before the interval
            let i = calls.partition_point(|c| c.0 <= start);
            let Some(&(_, call_end, k)) = i.checked_sub(1).map(|i| &calls[i]) else {
                continue;
            };
            if end <= call_end {
                let name = &self.gpu_call_names[k as usize];
                self.gpu.blocked_in(name, &class, &site, end - start);
            }
        }
    }

    /// The recording's wall time, first event to last.
    fn wall_ns(&self) -> Option<u64> {
        self.span.map(|(a, b)| b - a)
    }

    /// At the end: wakeups no recorded call of their waker covered.
    fn settle_wakeups(&mut self) {
        let pending: Vec<(u32, u64)> = self
            .waker_calls
            .iter_mut()
            .flat_map(|(w, c)| {
                c.pending
                    .drain(..)
                    .map(|(_, ns)| (*w, ns))
                    .collect::<Vec<_>>()
            })
            .collect();
        for (w, ns) in pending {
            self.released_from(w, NO_CALL, ns);
        }
    }

    /// Where waker `tid` released the most waiting from: its calls, the
    /// most first.
    fn waker_calls_rows(&self, tid: u32) -> Vec<(&str, &Wakes)> {
        let mut rows: Vec<(&str, &Wakes)> = self
            .wakes_from
            .get(&tid)
            .map(|m| m.iter().map(|(k, v)| (k.as_str(), v)).collect())
            .unwrap_or_default();
        rows.sort_by(|a, b| b.1.ns.cmp(&a.1.ns).then(a.0.cmp(b.0)));
        rows
    }

    /// Each thread with its running time and off-CPU time by class.
    fn thread_rows(&self) -> Vec<(&Thread, u64, u64)> {
        let mut rows: Vec<(&Thread, u64, u64)> = self
            .threads
            .values()
            .filter(|t| t.tid != 0 && t.first.is_some() && t.slices > 0)
            .map(|t| {
                let life = t.last - t.first.unwrap_or(t.last);
                let off: u64 = t.classes.values().sum();
                (t, life, life.saturating_sub(off))
            })
            .collect();
        rows.sort_by_key(|(t, _, _)| (t.pid, t.tid));
        rows
    }

    fn name_of(&self, tid: u32) -> String {
        if let w @ Waker::Irq(_) = Waker::of(tid) {
            return w.short();
        }
        self.names.get(&tid).cloned().unwrap_or_default()
    }

    /// The thread that released the most of `tid`'s waiting.
    fn top_waker(&self, tid: u32) -> Option<(u32, &Wakes)> {
        self.wakes
            .iter()
            .filter(|((_, wakee), _)| *wakee == tid)
            .max_by_key(|((waker, _), w)| (w.ns, std::cmp::Reverse(*waker)))
            .map(|((waker, _), w)| (*waker, w))
    }

    /// Off-CPU rows, the most time first.
    fn blocking_rows(&self) -> Vec<(&BlockKey, &Blocking)> {
        let mut rows: Vec<_> = self.blocking.iter().collect();
        rows.sort_by(|a, b| b.1.total_ns.cmp(&a.1.total_ns).then(a.0.cmp(b.0)));
        rows
    }

    /// Wakers: total released, and by woken thread; the most first.
    fn waker_rows(&self) -> Vec<WakerRow<'_>> {
        let mut by: HashMap<u32, Vec<(u32, &Wakes)>> = HashMap::new();
        for ((waker, wakee), w) in &self.wakes {
            by.entry(*waker).or_default().push((*wakee, w));
        }
        let mut rows: Vec<_> = by
            .into_iter()
            .map(|(waker, mut wakees)| {
                wakees.sort_by(|a, b| b.1.ns.cmp(&a.1.ns).then(a.0.cmp(&b.0)));
                let ns: u64 = wakees.iter().map(|(_, w)| w.ns).sum();
                let n: u64 = wakees.iter().map(|(_, w)| w.count).sum();
                (waker, ns, n, wakees)
            })
            .collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        rows
    }

    /// The timeline for the page: threads in rows, times from the first
    /// event, each wakeup from its waker's row (a row of its own for a
    /// waker that has no slice).
    fn timeline_json(&self) -> serde_json::Value {
        let Some(t) = &self.timeline else {
            return serde_json::Value::Null;
        };
        let start = t.start.unwrap_or(0);
        let mut tracks = t.tracks.clone();
        let mut slices: Vec<Vec<u64>> = t
            .slices
            .iter()
            .map(|s| {
                s.chunks_exact(4)
                    .flat_map(|c| [c[0].saturating_sub(start), c[1], c[2], c[3]])
                    .collect()
            })
            .collect();
        let mut row_of: HashMap<u32, usize> = tracks
            .iter()
            .enumerate()
            .filter_map(|(i, tr)| Some((self.threads.get(tr)?.tid as u32, i)))
            .collect();
        let mut wakes = Vec::with_capacity(t.wakes.len());
        for &(waker, to, ts) in &t.wakes {
            let from = match row_of.get(&waker) {
                Some(&r) => r,
                None => {
                    let uuid = self
                        .threads
                        .iter()
                        .find(|(_, th)| th.tid as u32 == waker)
                        .map(|(u, _)| *u)
                        .unwrap_or(u64::MAX - u64::from(waker));
                    tracks.push(uuid);
                    slices.push(Vec::new());
                    row_of.insert(waker, tracks.len() - 1);
                    tracks.len() - 1
                }
            };
            wakes.push(json!([from, to, ts.saturating_sub(start)]));
        }
        let threads: Vec<_> = tracks
            .iter()
            .map(|tr| match self.threads.get(tr) {
                Some(th) => json!({"pid": th.pid, "tid": th.tid, "name": th.name}),
                None => {
                    let tid = u64::MAX - tr;
                    json!({"pid": 0, "tid": tid, "name": self.name_of(tid as u32)})
                }
            })
            .collect();
        json!({
            "start": 0,
            "end": t.end.saturating_sub(start),
            "threads": threads,
            "slices": slices,
            "labels": t.labels,
            "wakes": wakes,
            "kept": t.kept,
            "dropped": t.dropped,
        })
    }

    fn totals(&self) -> Vec<SyscallTotals> {
        self.syscalls.values().cloned().collect()
    }
}

/// What a slice is, from its name and arguments.
/// A slice begun, by its arguments (`format`: the recording's).
fn classify(e: &ReadEvent, gpu_queue: bool, format: Option<u64>) -> Slice {
    let name = e.name.as_deref().unwrap_or("");
    let uint = |k| match e.arg(k) {
        Some(Value::Uint(u)) => *u,
        Some(Value::Int(i)) => *i as u64,
        _ => 0,
    };
    if e.arg("api").is_some() {
        let error = match e.arg("error") {
            Some(Value::Int(i)) => *i,
            _ => 0,
        };
        return Slice::GpuCall {
            name: name.to_string(),
            error,
        };
    }
    if gpu_queue && e.arg("state").is_some() {
        // a command's wait in its queue (its command's slice has it)
        return Slice::Other;
    }
    if gpu_queue {
        let kind = match e.arg("kind") {
            Some(Value::Str(k)) => k.clone(),
            _ => "other".into(),
        };
        return Slice::GpuCommand {
            kind,
            name: name.to_string(),
            queued: uint("queued_ns"),
            bytes: uint("bytes"),
        };
    }
    if let Some(Value::Str(class)) = e.arg("class") {
        let syscall = crate::slicename::blocking_call(format, name, class, e.arg("syscall"));
        let waker = crate::irqwaker::from_args(e.arg("waker"), e.arg("waker_tid"));
        let waking = match e.arg("waking_ns") {
            Some(Value::Uint(u)) => Some(*u),
            _ => None,
        };
        return Slice::OffCpu {
            class: class.clone(),
            syscall,
            site: site_arg(e),
            waker,
            waking,
        };
    }
    if e.arg("call").is_some() {
        let ret = match e.arg("ret") {
            Some(Value::Int(i)) => Some(*i),
            Some(Value::Uint(u)) => Some(*u as i64),
            _ => None,
        };
        return Slice::Call {
            name: name.to_string(),
            ret,
            site: site_arg(e),
        };
    }
    Slice::Other
}

fn site_arg(e: &ReadEvent) -> Option<String> {
    match e.arg("site") {
        Some(Value::Str(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

fn secs(ns: u64) -> String {
    format!("{:.6}", ns as f64 / 1e9)
}

pub fn run(a: ReportArgs) -> Result<i32> {
    let json = match a.format.as_str() {
        "text" => false,
        "json" => true,
        other => bail!(Exit(
            1,
            format!("invalid --format '{other}' (expected text or json)")
        )),
    };
    let sort = summary::parse_sort(a.sort_by.as_deref())?;
    let keys = SortKey::parse_list(&a.sort).map_err(|e| anyhow::anyhow!(Exit(1, e)))?;
    let columns = summary::parse_columns_or(a.columns.as_deref(), true)?;
    let r = load(&a.file, a.html.is_some())?;
    if let Some(page) = &a.html {
        let mut f = std::io::BufWriter::new(
            File::create(page).with_context(|| format!("Can't create '{page}'"))?,
        );
        let data = json!({
            "summary": render_json(&r, &a.file, &keys),
            "folded": r.profile.as_ref().map(|p| p.folded()).unwrap_or_default(),
            "timeline": r.timeline_json(),
        });
        genba_export::html(&a.file, data, &mut f)
            .and_then(|_| f.flush())
            .with_context(|| format!("writing '{page}'"))?;
        eprintln!("genba: the report is in {page}");
        crate::cut::say(r.truncated.as_ref());
        return Ok(0);
    }
    let text = if json {
        let mut s = render_json(&r, &a.file, &keys).to_string();
        s.push('\n');
        s
    } else {
        render_text(&r, sort, &columns, &keys, a.rows)
    };
    match &a.output {
        Some(out) => std::fs::write(out, text).with_context(|| format!("Can't write '{out}'"))?,
        None => {
            let mut o = std::io::stdout().lock();
            // a closed pipe (| head) ends the report quietly
            let _ = o.write_all(text.as_bytes()).and_then(|_| o.flush());
        }
    }
    crate::cut::say(r.truncated.as_ref());
    Ok(0)
}

/// Reads a recording whole, as a stream of packets.
fn load(path: &str, timeline: bool) -> Result<Report> {
    let file = File::open(path).with_context(|| format!("Can't open '{path}'"))?;
    let mut reader = PerfettoReader::new(BufReader::with_capacity(1 << 16, file));
    let mut r = Report {
        timeline: timeline.then(Timeline::default),
        ..Default::default()
    };
    let inside = crate::cut::read_packets(path, &mut reader, |p, reader| {
        r.packet(p, reader);
        Ok(())
    })?;
    (r.bytes, r.packets) = reader.position();
    r.truncated = r.watch.decide(inside, (r.bytes, r.packets));
    r.settle_wakeups();
    r.settle_gpu_blocked();
    Ok(r)
}

/// The profile a recording holds (its samples and blocked intervals), its
/// title, and where the file was cut short.
pub(crate) fn load_profile(path: &str) -> Result<(Profile, String, Option<crate::cut::Cut>)> {
    let mut r = load(path, false)?;
    let title = profile_title(&r);
    let p = r.profile.take().unwrap_or_else(|| Profile::new(1_000_000));
    Ok((p, title, r.truncated))
}

fn render_text(
    r: &Report,
    sort: SortBy,
    columns: &[summary::Column],
    keys: &[SortKey],
    max_rows: usize,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "system calls (wall-clock time in the call):");
    s.push_str(&summary::render_totals(r.totals(), sort, columns));
    if !r.sites.rows().is_empty() {
        s.push_str(&r.sites.render(|nr| {
            table::by_nr(nr)
                .map(|i| i.name.to_string())
                .unwrap_or_else(|| format!("syscall_{nr:#x}"))
        }));
    }

    let rows = r.thread_rows();
    let _ = writeln!(
        s,
        "\nthreads (share of each lifetime, from the exact intervals):"
    );
    let _ = writeln!(
        s,
        "{:>8} {:>8} {:<16} {:>11} {:>7} {:>7} {:>7} {:>7} {:>7} {:>8}",
        "pid", "tid", "name", "lifetime s", "running", "[I]", "[L]", "[S]", "[B]", "waker"
    );
    for (t, life, running) in &rows {
        let class = |c: &str| pct(t.classes.get(c).copied().unwrap_or(0), *life);
        let waker = r
            .top_waker(t.tid as u32)
            .map(|(w, _)| Waker::of(w).short())
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            s,
            "{:>8} {:>8} {:<16} {:>11} {:>6.1}% {:>6.1}% {:>6.1}% {:>6.1}% {:>6.1}% {:>8}",
            t.pid,
            t.tid,
            t.name,
            secs(*life),
            pct(*running, *life),
            class("[I]"),
            class("[L]"),
            class("[S]"),
            class("[B]"),
            waker
        );
    }

    let _ = writeln!(
        s,
        "\ntop blocking calls (off-CPU time by class, call and call site):"
    );
    let _ = writeln!(
        s,
        "{:<5} {:<20} {:>9} {:>11} {:>11}  site",
        "class", "syscall", "count", "seconds", "longest"
    );
    for ((class, syscall, site), b) in r.blocking_rows().into_iter().take(TOP) {
        let _ = writeln!(
            s,
            "{:<5} {:<20} {:>9} {:>11} {:>11}  {}",
            class,
            syscall.as_deref().unwrap_or("-"),
            b.count,
            secs(b.total_ns),
            secs(b.max_ns),
            site.as_deref().unwrap_or("-")
        );
    }

    let _ = writeln!(s, "\ntop wakers (waiting time they released):");
    let _ = writeln!(
        s,
        "{:>8} {:<16} {:>9} {:>11}  most released for",
        "tid", "name", "wakeups", "seconds"
    );
    for (waker, ns, n, wakees) in r.waker_rows().into_iter().take(TOP) {
        let most: Vec<String> = wakees
            .iter()
            .take(3)
            .map(|(t, w)| format!("{t} ({} s)", secs(w.ns)))
            .collect();
        let _ = writeln!(
            s,
            "{:>8} {:<16} {:>9} {:>11}  {}",
            Waker::of(waker).tid_cell(),
            r.name_of(waker),
            n,
            secs(ns),
            most.join(", ")
        );
        // what it was doing when it woke them
        let from: Vec<String> = r
            .waker_calls_rows(waker)
            .into_iter()
            .take(3)
            .map(|(call, w)| format!("{call} ({} s)", secs(w.ns)))
            .collect();
        if !from.is_empty() {
            let _ = writeln!(s, "{:>8} from {}", "", from.join(", "));
        }
    }
    s.push_str(&r.gpu.render_text(r.wall_ns()));
    if let Some(p) = r.profile.as_ref().filter(|p| p.total() > 0) {
        s.push('\n');
        s.push_str(&genba_analyze::report::render_text(
            p,
            &genba_analyze::report::ReportOptions {
                keys: keys.to_vec(),
                chains: None,
                max_rows,
                title: profile_title(r),
            },
        ));
    }
    s.push('\n');
    match (r.watch.lost, r.truncated.is_some()) {
        (Some(n), false) => {
            let _ = writeln!(s, "{n} events lost");
        }
        (Some(n), true) => {
            let _ = writeln!(
                s,
                "events lost: {n} up to where the recording ends (it was cut short: the whole run's count is not in it)"
            );
        }
        (None, _) => {
            let _ = writeln!(
                s,
                "events lost: unknown (the recording has no count of them)"
            );
        }
    }
    s
}

fn profile_title(r: &Report) -> String {
    format!(
        "samples of {} ({} Hz), on and off the CPU",
        if r.command.is_empty() {
            "the recording"
        } else {
            &r.command
        },
        r.freq
    )
}

fn render_json(r: &Report, file: &str, keys: &[SortKey]) -> serde_json::Value {
    let mut totals = r.totals();
    genba_analyze::sort_rows(&mut totals, SortBy::Time);
    let syscalls: Vec<_> = totals
        .iter()
        .map(|t| {
            json!({"syscall": t.name, "calls": t.calls, "errors": t.errors,
                "total_ns": t.total_ns, "avg_ns": t.avg_ns(), "min_ns": t.min_ns,
                "max_ns": t.max_ns, "p50_ns": t.percentile(0.5), "p99_ns": t.percentile(0.99)})
        })
        .collect();
    let threads: Vec<_> = r
        .thread_rows()
        .into_iter()
        .map(|(t, life, running)| {
            let mut off = serde_json::Map::new();
            let mut shares = serde_json::Map::new();
            shares.insert("running".into(), json!(pct(running, life)));
            let mut tags: Vec<&String> = t.classes.keys().collect();
            tags.sort();
            for c in CLASSES.iter().copied().chain(
                tags.into_iter()
                    .map(String::as_str)
                    .filter(|c| !CLASSES.contains(c)),
            ) {
                let ns = t.classes.get(c).copied().unwrap_or(0);
                off.insert(c.to_string(), json!(ns));
                shares.insert(c.to_string(), json!(pct(ns, life)));
            }
            let waker = r.top_waker(t.tid as u32);
            json!({"pid": t.pid, "tid": t.tid, "name": t.name,
                "start_ns": t.first, "lifetime_ns": life, "running_ns": running,
                "off_cpu_ns": off, "shares_percent": shares,
                "top_waker": waker.and_then(|(w, _)| Waker::of(w).json().0),
                "top_waker_kind": waker.map(|(w, _)| Waker::of(w).json().1),
                "top_waker_name": waker.map(|(w, _)| Waker::of(w).short()),
                "top_waker_ns": waker.map(|(_, x)| x.ns)})
        })
        .collect();
    let blocking: Vec<_> = r
        .blocking_rows()
        .into_iter()
        .map(|((class, syscall, site), b)| {
            json!({"class": class, "syscall": syscall, "site": site, "count": b.count,
                "total_ns": b.total_ns, "max_ns": b.max_ns})
        })
        .collect();
    let wakers: Vec<_> = r
        .waker_rows()
        .into_iter()
        .map(|(waker, ns, n, wakees)| {
            let wakees: Vec<_> = wakees
                .iter()
                .map(|(t, w)| json!({"tid": t, "wakeups": w.count, "released_ns": w.ns}))
                .collect();
            // the calls it woke them from (NO_CALL: none recorded)
            let from: Vec<_> = r
                .waker_calls_rows(waker)
                .into_iter()
                .map(|(call, w)| json!({"call": call, "wakeups": w.count, "released_ns": w.ns}))
                .collect();
            let (tid, kind) = Waker::of(waker).json();
            json!({"tid": tid, "waker": kind, "name": r.name_of(waker), "wakeups": n,
                "released_ns": ns, "wakees": wakees, "from": from})
        })
        .collect();
    let sites: Vec<_> = r
        .sites
        .rows()
        .into_iter()
        .map(|(nr, site, calls, errors, ns)| {
            json!({"syscall": table::by_nr(nr).map(|i| i.name), "site": site,
                "calls": calls, "errors": errors, "total_ns": ns})
        })
        .collect();
    json!({
        "file": file,
        "packets": r.packets,
        "sites": sites,
        "bytes": r.bytes,
        "truncated": r.truncated.as_ref().map(crate::cut::Cut::json),
        "syscalls": syscalls,
        "threads": threads,
        "blocking": blocking,
        "wakers": wakers,
        "profile": r.profile.as_ref().filter(|p| p.total() > 0)
            .map(|p| genba_analyze::report::render_json(p, keys, &profile_title(r))),
        "gpu": r.gpu.render_json(r.wall_ns()),
        "lost_events": r.watch.lost.filter(|_| r.truncated.is_none()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_match_the_kernels() {
        assert_eq!(log2_bucket(0), 0);
        assert_eq!(log2_bucket(1), 0);
        assert_eq!(log2_bucket(2), 1);
        assert_eq!(log2_bucket(1023), 9);
        assert_eq!(log2_bucket(1024), 10);
        assert_eq!(log2_bucket(u64::MAX), 39);
    }
}
