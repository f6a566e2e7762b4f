//! `genba export`: a recording converted for other tools. `jsonl` is the
//! scripting interface (one object per event, the schema in
//! docs/RECORDING.md, versioned); `chrome` is the Trace Event Format that
//! chrome://tracing and Perfetto open; `folded`, `flamegraph`, `pprof` and
//! `speedscope` are the profile's samples as genba profile writes them.
//!
//! jsonl and chrome stream: a slice is written when it ends, so memory
//! holds the slices open at one time, not the file.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};

use anyhow::{bail, Context, Result};
use genba_export::perfetto::{
    EventKind, Packet, PerfettoReader, ReadEvent, ReadSample, StackFrame, TrackKind, Value,
};
use serde_json::{json, Map};

use crate::cut::Cut;
use crate::options::ExportArgs;
use crate::Exit;

/// The version of the jsonl schema (docs/RECORDING.md). A field added keeps
/// it; a field renamed, removed or changed in meaning raises it.
pub const JSONL_VERSION: u32 = 1;
/// Additions within the version (fields, line types).
pub const JSONL_MINOR: u32 = 1;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Jsonl,
    Chrome,
    Folded,
    Flamegraph,
    Pprof,
    Speedscope,
}

pub fn run(a: ExportArgs) -> Result<i32> {
    let format = match a.format.as_str() {
        "jsonl" => Format::Jsonl,
        "chrome" => Format::Chrome,
        "folded" => Format::Folded,
        "flamegraph" => Format::Flamegraph,
        "pprof" => Format::Pprof,
        "speedscope" => Format::Speedscope,
        other => bail!(Exit(
            1,
            format!(
                "invalid --format '{other}' (expected jsonl, chrome, folded, flamegraph, pprof or speedscope)"
            )
        )),
    };
    // the recording is opened first: a missing file is said before an
    // output is created
    let input = File::open(&a.file).with_context(|| format!("Can't open '{}'", a.file))?;
    let mut out: Box<dyn Write> = match &a.output {
        Some(p) => Box::new(BufWriter::new(
            File::create(p).with_context(|| format!("Can't create '{p}'"))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let written = (|| -> Result<Option<Cut>> {
        let truncated = export(format, &a.file, input, &mut out)?;
        out.flush()?;
        Ok(truncated)
    })();
    let truncated = match written {
        Ok(t) => t,
        // a closed pipe (| head) ends the export quietly
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            return Ok(0)
        }
        Err(e) => return Err(e),
    };
    crate::cut::say(truncated.as_ref());
    Ok(0)
}

fn export(
    format: Format,
    path: &str,
    input: File,
    out: &mut Box<dyn Write>,
) -> Result<Option<Cut>> {
    Ok(match format {
        Format::Jsonl | Format::Chrome => {
            let mut w = Walker {
                out,
                chrome: format == Format::Chrome,
                tracks: HashMap::new(),
                queues: HashMap::new(),
                open: HashMap::new(),
                settings_track: None,
                gpu_lost_track: None,
                first: true,
                watch: Default::default(),
                unplaced: HashMap::new(),
            };
            w.walk(path, input)?
        }
        _ => {
            drop(input);
            let (p, title, truncated) = crate::report::load_profile(path)?;
            match format {
                Format::Folded => out.write_all(p.folded().as_bytes()),
                Format::Flamegraph => genba_export::flamegraph(&p, &title, out),
                Format::Pprof => genba_export::pprof(&p, out),
                _ => genba_export::speedscope(&p, &title, out),
            }
            .context("writing the export")?;
            truncated
        }
    })
}

/// A slice begun and not yet ended.
struct Open {
    ev: ReadEvent,
    stack: Option<Vec<StackFrame>>,
}

struct Walker<'a> {
    out: &'a mut dyn Write,
    chrome: bool,
    /// (pid, tid) of each thread track; tid 0 for a process's.
    tracks: HashMap<u64, (u32, u32)>,
    /// GPU queues' tracks: their names (chrome: a lane of the process, its
    /// tid made up past any real one).
    queues: HashMap<u64, String>,
    open: HashMap<u64, Vec<Open>>,
    settings_track: Option<u64>,
    /// The counter of GPU records lost (`--gpu`).
    gpu_lost_track: Option<u64>,
    /// No event written yet (chrome: no comma before it).
    first: bool,
    /// Its format, its end marker, its last time and loss count.
    watch: crate::cut::Watch,
    /// jsonl: process and thread lines waiting for their time, the first
    /// event of the thread (of the process) read after them.
    /// By process: one lookup per event, however many wait.
    unplaced: HashMap<u32, Vec<Unplaced>>,
}

/// A process or thread line, its `ts` not yet known.
struct Unplaced {
    /// None: the process's line.
    tid: Option<u32>,
    line: Map<String, serde_json::Value>,
}

fn num(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Int(i) => Some(*i),
        Value::Uint(u) => i64::try_from(*u).ok(),
        _ => None,
    }
}

fn text(v: Option<&Value>) -> Option<&str> {
    match v? {
        Value::Str(s) => Some(s),
        _ => None,
    }
}

/// Where a blocked thread slept in the kernel: the innermost kernel frame
/// that is not the scheduler's own (as genba profile's "Kernel frame").
fn kernel_frame(stack: &[StackFrame]) -> Option<&str> {
    stack
        .iter()
        .rev()
        .filter(|f| f.module == "[kernel]")
        .filter_map(|f| f.function.as_deref())
        .find(|n| !genba_analyze::report::scheduler_plumbing(n))
}

fn frames_json(stack: &[StackFrame]) -> serde_json::Value {
    // innermost first, as strace -k and perf script list them
    let v: Vec<_> = stack
        .iter()
        .rev()
        .filter(|f| f.module != "[syscall]")
        .map(|f| {
            let mut m = Map::new();
            m.insert("module".into(), json!(f.module));
            m.insert("offset".into(), json!(f.rel_pc));
            if let Some(n) = &f.function {
                m.insert("function".into(), json!(n));
            }
            if let (Some(file), Some(line)) = (&f.file, f.line) {
                m.insert("file".into(), json!(file));
                m.insert("line".into(), json!(line));
            }
            serde_json::Value::Object(m)
        })
        .collect();
    serde_json::Value::Array(v)
}

impl Walker<'_> {
    fn walk(&mut self, path: &str, input: File) -> Result<Option<Cut>> {
        let mut reader = PerfettoReader::new(BufReader::with_capacity(1 << 16, input));
        if self.chrome {
            self.out
                .write_all(b"{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n")?;
        } else {
            self.line(json!({"type": "header", "schema": "genba-jsonl",
                "version": JSONL_VERSION, "minor": JSONL_MINOR, "clock": "CLOCK_MONOTONIC", "units": "ns"}))?;
        }
        let inside =
            crate::cut::read_packets(path, &mut reader, |p, reader| self.packet(p, reader))?;
        let truncated = self.watch.decide(inside, reader.position());
        // processes and threads no event of which followed: at the last
        // time the file has
        let last = self.watch.last_ts();
        let mut left: Vec<(u32, Vec<Unplaced>)> =
            std::mem::take(&mut self.unplaced).into_iter().collect();
        left.sort_by_key(|(pid, _)| *pid);
        for u in left.into_iter().flat_map(|(_, v)| v) {
            self.place(u, last)?;
        }
        // slices still open where the file ends (a recording cut short)
        let mut left: Vec<(u64, Open)> = self
            .open
            .drain()
            .flat_map(|(t, v)| v.into_iter().map(move |o| (t, o)))
            .collect();
        left.sort_by_key(|(_, o)| o.ev.ts);
        for (track, o) in left {
            self.slice(track, o, None)?;
        }
        if self.chrome {
            self.out.write_all(b"\n]}\n")?;
        } else if let Some(c) = &truncated {
            let mut v = c.json();
            v["type"] = json!("truncated");
            self.line(v)?;
        }
        Ok(truncated)
    }

    fn line(&mut self, v: serde_json::Value) -> std::io::Result<()> {
        if self.chrome {
            if !self.first {
                self.out.write_all(b",\n")?;
            }
            self.first = false;
            serde_json::to_writer(&mut *self.out, &v)?;
            Ok(())
        } else {
            serde_json::to_writer(&mut *self.out, &v)?;
            self.out.write_all(b"\n")
        }
    }

    /// ns as the Trace Event Format's microseconds.
    fn us(ns: u64) -> serde_json::Value {
        json!(ns as f64 / 1000.0)
    }

    fn packet<R: std::io::Read>(&mut self, p: Packet, reader: &PerfettoReader<R>) -> Result<()> {
        match p {
            Packet::Track(t) => match t.kind {
                TrackKind::Thread { pid, tid, name } => {
                    self.tracks.insert(t.uuid, (pid as u32, tid as u32));
                    if self.chrome {
                        self.line(
                            json!({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
                            "args": {"name": name}}),
                        )?;
                    } else {
                        self.unplaced(
                            pid as u32,
                            Some(tid as u32),
                            json!({"type": "thread",
                            "ts": null, "pid": pid, "tid": tid, "name": name}),
                        );
                    }
                }
                TrackKind::Process { pid, name } => {
                    self.tracks.insert(t.uuid, (pid as u32, 0));
                    if self.chrome {
                        self.line(json!({"ph": "M", "name": "process_name", "pid": pid,
                            "args": {"name": name}}))?;
                    } else {
                        self.unplaced(
                            pid as u32,
                            None,
                            json!({"type": "process", "ts": null,
                            "pid": pid, "name": name}),
                        );
                    }
                }
                TrackKind::Other { name } if name == "genba record" => {
                    self.settings_track = Some(t.uuid);
                }
                TrackKind::Counter { name, .. } if name == "lost GPU records" => {
                    self.gpu_lost_track = Some(t.uuid);
                }
                // a track of a process's own (a GPU queue)
                TrackKind::Other { name } => {
                    let pid = t
                        .parent
                        .and_then(|p| self.tracks.get(&p))
                        .map_or(0, |&(pid, _)| pid);
                    let lane = (1 << 30) + self.queues.len() as u32;
                    self.tracks.insert(t.uuid, (pid, lane));
                    if self.chrome {
                        self.line(
                            json!({"ph": "M", "name": "thread_name", "pid": pid, "tid": lane,
                            "args": {"name": name}}),
                        )?;
                    }
                    self.queues.insert(t.uuid, name);
                }
                _ => {}
            },
            Packet::Sample(s) => {
                self.watch.time(s.ts);
                self.placed(s.pid, Some(s.tid), s.ts)?;
                let stack = reader.frames(s.callstack).unwrap_or_default();
                self.sample(&s, &stack)?;
            }
            Packet::Event(e) => {
                self.watch.time(e.ts);
                if let Some(&(pid, tid)) = self.tracks.get(&e.track) {
                    self.placed(pid, Some(tid), e.ts)?;
                }
                self.event(e, reader)?;
            }
            Packet::Other => {}
        }
        Ok(())
    }

    fn event<R: std::io::Read>(&mut self, e: ReadEvent, reader: &PerfettoReader<R>) -> Result<()> {
        match e.kind {
            EventKind::SliceBegin => {
                let stack = e.callstack.and_then(|c| reader.frames(c));
                self.open
                    .entry(e.track)
                    .or_default()
                    .push(Open { ev: e, stack });
            }
            EventKind::SliceEnd => {
                if let Some(o) = self.open.get_mut(&e.track).and_then(|v| v.pop()) {
                    self.slice(e.track, o, Some(e.ts))?;
                }
            }
            EventKind::Instant => self.instant(&e)?,
            EventKind::Counter => {
                // the events genba lost, or (--gpu) the records a GPU
                // shim dropped
                let gpu = self.gpu_lost_track == Some(e.track);
                if self.chrome {
                    let (name, what) = if gpu {
                        ("lost GPU records", "records")
                    } else {
                        ("lost events", "events")
                    };
                    self.line(json!({"ph": "C", "name": name, "pid": 0,
                            "ts": Self::us(e.ts), "args": {what: e.counter}}))?;
                } else if gpu {
                    self.line(json!({"type": "gpu_lost", "ts": e.ts, "records": e.counter}))?;
                } else {
                    // the total so far, and what it grew by since the
                    // last count
                    let new = e.counter.map(|n| n - self.watch.lost.unwrap_or(0));
                    self.line(json!({"type": "lost", "ts": e.ts, "events": e.counter,
                            "new": new}))?;
                }
                if !gpu {
                    self.watch.lost_count(e.counter);
                }
            }
            EventKind::Other(_) => {}
        }
        Ok(())
    }

    /// jsonl: a process or thread line, written when its time is known.
    fn unplaced(&mut self, pid: u32, tid: Option<u32>, line: serde_json::Value) {
        if let serde_json::Value::Object(line) = line {
            self.unplaced
                .entry(pid)
                .or_default()
                .push(Unplaced { tid, line });
        }
    }

    /// The lines of thread `tid` (and of its process `pid`) waiting for
    /// their time: an event of theirs at `ts`.
    fn placed(&mut self, pid: u32, tid: Option<u32>, ts: u64) -> Result<()> {
        let Some(list) = self.unplaced.get_mut(&pid) else {
            return Ok(());
        };
        let (now, wait): (Vec<Unplaced>, Vec<Unplaced>) = std::mem::take(list)
            .into_iter()
            .partition(|u| u.tid.is_none() || u.tid == tid);
        if wait.is_empty() {
            self.unplaced.remove(&pid);
        } else {
            self.unplaced.insert(pid, wait);
        }
        for u in now {
            self.place(u, Some(ts))?;
        }
        Ok(())
    }

    fn place(&mut self, mut u: Unplaced, ts: Option<u64>) -> Result<()> {
        u.line.insert("ts".into(), json!(ts));
        self.line(serde_json::Value::Object(u.line))?;
        Ok(())
    }

    fn sample(&mut self, s: &ReadSample, stack: &[StackFrame]) -> Result<()> {
        if self.chrome {
            // the Trace Event Format's samples are not read by the viewers
            // that open it: the samples stay in the Perfetto file
            return Ok(());
        }
        let syscall = stack
            .iter()
            .find(|f| f.module == "[syscall]")
            .and_then(|f| f.function.clone());
        self.line(
            json!({"type": "sample", "ts": s.ts, "pid": s.pid, "tid": s.tid,
            "mode": if s.kernel { "kernel" } else { "user" }, "syscall": syscall,
            "stack": frames_json(stack)}),
        )?;
        Ok(())
    }

    fn instant(&mut self, e: &ReadEvent) -> Result<()> {
        let name = e.name.as_deref().unwrap_or("");
        if Some(e.track) == self.settings_track {
            self.watch.own_event(e);
            if !self.chrome {
                let mut m = Map::new();
                let what = if name == "gpu clock" {
                    "gpu_clock"
                } else if name == crate::record::END_MARKER {
                    "end"
                } else {
                    "recording"
                };
                m.insert("type".into(), json!(what));
                m.insert("ts".into(), json!(e.ts));
                for (k, v) in &e.args {
                    let v = match v {
                        Value::Str(s) => json!(s),
                        Value::Int(i) => json!(i),
                        Value::Uint(u) => json!(u),
                        Value::Uints(u) => json!(u),
                        Value::Unknown => serde_json::Value::Null,
                    };
                    m.insert(k.clone(), v);
                }
                self.line(serde_json::Value::Object(m))?;
            }
            return Ok(());
        }
        let (pid, tid) = self.tracks.get(&e.track).copied().unwrap_or((0, 0));
        if self.chrome {
            let mut args = Map::new();
            for (k, v) in &e.args {
                args.insert(k.clone(), value_json(v));
            }
            self.line(
                json!({"ph": "i", "s": "t", "name": name, "cat": "lifecycle",
                "ts": Self::us(e.ts), "pid": pid, "tid": tid, "args": args}),
            )?;
            for f in &e.flows_out {
                self.line(
                    json!({"ph": "s", "id": f, "name": "wakeup", "cat": "wakeup",
                    "ts": Self::us(e.ts), "pid": pid, "tid": tid}),
                )?;
            }
            return Ok(());
        }
        let v = match name {
            "wakeup" => json!({"type": "wakeup", "ts": e.ts, "pid": pid, "tid": tid,
                "waker_tid": tid, "waker": "thread", "wakee_tid": num(e.arg("wakee_tid"))}),
            "fork" | "thread" => json!({"type": "fork", "ts": e.ts, "pid": pid, "tid": tid,
                "child_tid": num(e.arg("child_tid")), "thread": name == "thread"}),
            "exec" => json!({"type": "exec", "ts": e.ts, "pid": pid, "tid": tid,
                "path": text(e.arg("path"))}),
            "exit" => json!({"type": "exit", "ts": e.ts, "pid": pid, "tid": tid,
                "status": num(e.arg("status"))}),
            n if n.starts_with("--- ") => json!({"type": "signal", "ts": e.ts, "pid": pid,
                "tid": tid, "signal": n.trim_matches(|c| c == '-' || c == ' ')}),
            n => json!({"type": "instant", "ts": e.ts, "pid": pid, "tid": tid, "name": n}),
        };
        self.line(v)?;
        Ok(())
    }

    /// A slice whose end is known (`end` None: the file ends first).
    fn slice(&mut self, track: u64, o: Open, end: Option<u64>) -> Result<()> {
        let e = &o.ev;
        let (pid, tid) = self.tracks.get(&track).copied().unwrap_or((0, 0));
        let name = e.name.as_deref().unwrap_or("");
        let dur = end.map(|t| t.saturating_sub(e.ts));
        let class = text(e.arg("class"));
        // an off-CPU interval: named by its class, its call an argument
        // (as a recording of format 3 has them; an older one named it by
        // the call)
        let syscall = class.and_then(|c| {
            crate::slicename::blocking_call(self.watch.format, name, c, e.arg("syscall"))
        });
        let name = class.map_or(name, crate::slicename::slice_name);
        if self.chrome {
            let mut args = Map::new();
            for (k, v) in &e.args {
                args.insert(k.clone(), value_json(v));
            }
            if let Some(s) = &syscall {
                args.insert("syscall".into(), json!(s));
            }
            if let Some(k) = o.stack.as_deref().and_then(kernel_frame) {
                args.insert("kernel_frame".into(), json!(k));
            }
            let cat = if class.is_some() {
                "offcpu"
            } else if e.arg("api").is_some() || self.queues.contains_key(&track) {
                "gpu"
            } else {
                "syscall"
            };
            self.line(
                json!({"ph": "X", "name": name, "cat": cat, "ts": Self::us(e.ts),
                "dur": Self::us(dur.unwrap_or(0)), "pid": pid, "tid": tid, "args": args}),
            )?;
            // a wakeup's flow ends here; a GPU call's begins here (to its
            // command) or ends here (from its call)
            for f in &e.flows_out {
                self.line(json!({"ph": "s", "id": f, "name": flow_name(*f),
                    "cat": flow_name(*f), "ts": Self::us(e.ts), "pid": pid, "tid": tid}))?;
            }
            for f in &e.flows_in {
                self.line(json!({"ph": "f", "bp": "e", "id": f, "name": flow_name(*f),
                    "cat": flow_name(*f), "ts": Self::us(e.ts), "pid": pid, "tid": tid}))?;
            }
            return Ok(());
        }
        let v = if let Some(class) = class {
            json!({"type": "offcpu", "ts": e.ts, "dur": dur, "pid": pid, "tid": tid,
                "class": class, "syscall": syscall, "site": text(e.arg("site")),
                "kernel_frame": o.stack.as_deref().and_then(kernel_frame),
                "waker_tid": num(e.arg("waker_tid")), "waker": waker_kind(e),
                "samples": num(e.arg("samples")),
                "stack": o.stack.as_deref().map(frames_json)})
        } else if let Some(api) = text(e.arg("api")) {
            json!({"type": "gpu_api", "ts": e.ts, "dur": dur, "pid": pid, "tid": tid,
                "api": api, "name": name, "call": text(e.arg("call")),
                "error": num(e.arg("error")).unwrap_or(0)})
        } else if self.queues.contains_key(&track) && e.arg("state").is_some() {
            // a command's wait in its queue: its gpu_exec line has it
            return Ok(());
        } else if let Some(queue) = self.queues.get(&track) {
            json!({"type": "gpu_exec", "ts": e.ts, "dur": dur, "pid": pid,
                "queue": queue, "name": name, "kind": text(e.arg("kind")),
                "queued_ns": num(e.arg("queued_ns")), "submitted_ns": num(e.arg("submitted_ns")),
                "bytes": num(e.arg("bytes")), "enqueued_by": num(e.arg("enqueued_by")),
                "error": num(e.arg("error")).unwrap_or(0)})
        } else if let Some(call) = text(e.arg("call")) {
            let ret = num(e.arg("ret"));
            let errno = ret
                .filter(|r| (-4095..0).contains(r))
                .and_then(|r| genba_syscalls::consts::errno_name((-r) as i32))
                .map(|(n, _)| n);
            json!({"type": "syscall", "ts": e.ts, "dur": dur, "pid": pid, "tid": tid,
                "name": name, "args": e.arg("args").map(value_json), "call": call,
                "ret": ret, "errno": errno,
                "site": text(e.arg("site")), "unfinished": ret.is_none()})
        } else {
            json!({"type": "slice", "ts": e.ts, "dur": dur, "pid": pid, "tid": tid, "name": name})
        };
        self.line(v)?;
        Ok(())
    }
}

/// A flow's kind by its id: GPU flows (enqueue to command) have the top bit.
fn flow_name(id: u64) -> &'static str {
    if id >> 63 == 1 {
        "gpu"
    } else {
        "wakeup"
    }
}

fn value_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Str(s) => json!(s),
        Value::Int(i) => json!(i),
        Value::Uint(u) => json!(u),
        Value::Uints(u) => json!(u),
        Value::Unknown => serde_json::Value::Null,
    }
}

/// An off-CPU interval's waker kind: `thread` (with `waker_tid`), an
/// interrupt's kind (`hardirq`, `softirq`, `timer`: no `waker_tid`), or
/// null when no waker was recorded.
fn waker_kind(e: &ReadEvent) -> Option<&str> {
    text(e.arg("waker")).or_else(|| e.arg("waker_tid").map(|_| "thread"))
}
