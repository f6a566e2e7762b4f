//! A profile's samples, aggregated, and the reports made from them: the text
//! report (perf report's columns, class-tagged symbols, per-class and
//! per-thread breakdowns, a plain summary on top), JSON, and folded stacks.
//!
//! Everything here is pure: samples come in already unwound and symbolized,
//! so the arithmetic and the wording are tested without privileges.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use crate::profile::Class;

/// One frame of a stack.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Frame {
    /// Function name (`??` when unknown, `module+0x1234` without symbols).
    pub function: String,
    /// Shared object or executable (file name), `[kernel]` for kernel frames.
    pub module: String,
    /// `file:line` when known.
    pub srcline: Option<String>,
    /// A kernel frame.
    pub kernel: bool,
}

/// A sample, unwound and symbolized, as the profiler hands it over.
#[derive(Debug, Clone)]
pub struct SampleIn {
    /// Thread.
    pub tid: u32,
    /// Process.
    pub pid: u32,
    /// The thread's name.
    pub comm: String,
    /// Why the thread was where it was.
    pub class: Class,
    /// How many sampling periods this sample stands for.
    pub weight: u64,
    /// Frames from the outermost (main, thread start) to the innermost:
    /// user frames first, then kernel frames.
    pub frames: Vec<Frame>,
    /// The call site in the user's own code (`file.c:42 func`).
    pub site: Option<String>,
    /// The system call the thread was in.
    pub syscall: Option<String>,
}

/// What the report's rows are grouped by (`--sort`), as perf report's keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    /// The thread's name.
    Comm,
    /// Process id.
    Pid,
    /// Thread id.
    Tid,
    /// Shared object of the innermost frame shown.
    Dso,
    /// The class-tagged symbol: `[I] fsync`, `[.] compute`.
    Sym,
    /// The class alone.
    Class,
    /// The call site in the user's code.
    Site,
    /// The system call a blocked thread was in.
    Syscall,
    /// The innermost kernel frame of a blocked sample (where it slept).
    Kernel,
}

impl SortKey {
    /// Parses `--sort`'s comma-separated list.
    pub fn parse_list(s: &str) -> Result<Vec<SortKey>, String> {
        s.split(',')
            .map(|k| match k.trim() {
                "comm" => Ok(SortKey::Comm),
                "pid" => Ok(SortKey::Pid),
                "tid" => Ok(SortKey::Tid),
                "dso" => Ok(SortKey::Dso),
                "sym" | "symbol" => Ok(SortKey::Sym),
                "class" => Ok(SortKey::Class),
                "site" | "srcline" => Ok(SortKey::Site),
                "syscall" => Ok(SortKey::Syscall),
                "kernel" => Ok(SortKey::Kernel),
                other => Err(format!(
                    "invalid --sort key '{other}' (expected comm, pid, tid, dso, sym, class, site, syscall or kernel)"
                )),
            })
            .collect()
    }

    fn title(self) -> &'static str {
        match self {
            SortKey::Comm => "Command",
            SortKey::Pid => "Pid",
            SortKey::Tid => "Tid",
            SortKey::Dso => "Shared Object",
            SortKey::Sym => "Symbol",
            SortKey::Class => "Class",
            SortKey::Site => "Call site",
            SortKey::Syscall => "Syscall",
            SortKey::Kernel => "Kernel frame",
        }
    }

    fn json_name(self) -> &'static str {
        match self {
            SortKey::Comm => "comm",
            SortKey::Pid => "pid",
            SortKey::Tid => "tid",
            SortKey::Dso => "dso",
            SortKey::Sym => "sym",
            SortKey::Class => "class",
            SortKey::Site => "site",
            SortKey::Syscall => "syscall",
            SortKey::Kernel => "kernel",
        }
    }
}

/// The order call chains are printed in (`-g callee|caller`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainOrder {
    /// Innermost frame first: who called the hot function.
    Callee,
    /// Outermost first: from main down to where the time went.
    Caller,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct EntryKey {
    tid: u32,
    class: Class,
    stack: u32,
    site: Option<String>,
    syscall: Option<String>,
}

#[derive(Debug, Clone)]
struct Thread {
    pid: u32,
    comm: String,
}

/// Samples aggregated by (thread, class, stack, call site, syscall).
#[derive(Debug, Default)]
pub struct Profile {
    /// Sampling period in ns (one sample stands for this much time).
    pub period_ns: u64,
    frames: Vec<Frame>,
    frame_ids: HashMap<Frame, u32>,
    stacks: Vec<Vec<u32>>,
    stack_ids: HashMap<Vec<u32>, u32>,
    entries: HashMap<EntryKey, u64>,
    threads: BTreeMap<u32, Thread>,
    /// each thread's last on-CPU sample, where its unsampled time goes
    last_on_cpu: HashMap<u32, EntryKey>,
}

/// One row of the report.
#[derive(Debug, Clone)]
pub struct Row {
    /// The key values, in the order of the keys asked for.
    pub keys: Vec<String>,
    /// Samples.
    pub samples: u64,
    /// The row's chains: (stack index, samples).
    chains: Vec<(u32, u64)>,
}

/// A thread's samples by class.
#[derive(Debug, Clone)]
pub struct ThreadRow {
    /// Thread id.
    pub tid: u32,
    /// Process id.
    pub pid: u32,
    /// Name.
    pub comm: String,
    /// Samples in all.
    pub samples: u64,
    /// Samples per class, in [`CLASSES`] order.
    pub by_class: [u64; 6],
}

/// Every class, in report order.
pub const CLASSES: [Class; 6] = Class::ALL;

fn class_index(c: Class) -> usize {
    CLASSES.iter().position(|&k| k == c).unwrap_or(0)
}

/// Kernel functions that only say "the thread slept", not why.
pub fn scheduler_plumbing(name: &str) -> bool {
    let n = name.split('+').next().unwrap_or(name);
    n.starts_with("schedule")
        || n.starts_with("__schedule")
        || n.starts_with("io_schedule")
        || n.starts_with("preempt_schedule")
        || n.starts_with("bpf_")
        || n.starts_with("__bpf")
        || n.starts_with("__traceiter")
        || n.starts_with("__probestub")
        || n.starts_with("trace_")
        || n == "__cond_resched"
        || n.starts_with("do_nanosleep")
        || n.starts_with("hrtimer_nanosleep")
}

impl Profile {
    /// An empty profile sampled every `period_ns`.
    pub fn new(period_ns: u64) -> Profile {
        Profile {
            period_ns,
            ..Default::default()
        }
    }

    fn intern_stack(&mut self, frames: Vec<Frame>) -> u32 {
        let mut ids = Vec::with_capacity(frames.len());
        for f in frames {
            let id = match self.frame_ids.get(&f) {
                Some(&id) => id,
                None => {
                    let id = self.frames.len() as u32;
                    self.frame_ids.insert(f.clone(), id);
                    self.frames.push(f);
                    id
                }
            };
            ids.push(id);
        }
        let next = self.stacks.len() as u32;
        if let Some(&id) = self.stack_ids.get(&ids) {
            return id;
        }
        self.stacks.push(ids.clone());
        self.stack_ids.insert(ids, next);
        next
    }

    /// Adds a sample.
    pub fn add(&mut self, s: SampleIn) {
        if s.weight == 0 {
            return;
        }
        // the thread's latest name (a program renames its threads, exec
        // renames the process)
        let t = self.threads.entry(s.tid).or_insert_with(|| Thread {
            pid: s.pid,
            comm: s.comm.clone(),
        });
        if t.comm != s.comm {
            t.comm.clone_from(&s.comm);
            t.pid = s.pid;
        }
        let stack = self.intern_stack(s.frames);
        let key = EntryKey {
            tid: s.tid,
            class: s.class,
            stack,
            site: s.site,
            syscall: s.syscall,
        };
        if !s.class.off_cpu() {
            self.last_on_cpu.insert(s.tid, key.clone());
        }
        *self.entries.entry(key).or_default() += s.weight;
    }

    /// Adds `weight` where thread `tid` was last sampled on the CPU; false
    /// when it never was.
    pub fn add_to_last_on_cpu(&mut self, tid: u32, weight: u64) -> bool {
        match self.last_on_cpu.get(&tid) {
            Some(k) => {
                *self.entries.entry(k.clone()).or_default() += weight;
                true
            }
            None => false,
        }
    }

    /// The thread runs a new program: its last place is not where its
    /// next time goes.
    pub fn forget_last_on_cpu(&mut self, tid: u32) {
        self.last_on_cpu.remove(&tid);
    }

    /// All samples.
    pub fn total(&self) -> u64 {
        self.entries.values().sum()
    }

    /// Samples per class, in [`CLASSES`] order.
    pub fn by_class(&self) -> [u64; 6] {
        let mut v = [0u64; 6];
        for (k, w) in &self.entries {
            v[class_index(k.class)] += w;
        }
        v
    }

    /// Samples per thread and class, threads by id.
    pub fn threads(&self) -> Vec<ThreadRow> {
        let mut rows: BTreeMap<u32, ThreadRow> = BTreeMap::new();
        for (k, w) in &self.entries {
            let t = &self.threads[&k.tid];
            let r = rows.entry(k.tid).or_insert_with(|| ThreadRow {
                tid: k.tid,
                pid: t.pid,
                comm: t.comm.clone(),
                samples: 0,
                by_class: [0; 6],
            });
            r.samples += w;
            r.by_class[class_index(k.class)] += w;
        }
        rows.into_values().collect()
    }

    /// The innermost frame a row shows: the kernel's for a kernel sample,
    /// else the innermost user frame.
    fn leaf(&self, stack: u32, class: Class) -> Option<&Frame> {
        let ids = &self.stacks[stack as usize];
        let mut it = ids.iter().rev().map(|&i| &self.frames[i as usize]);
        if class == Class::Kernel {
            return it.next();
        }
        if let Some(f) = it.find(|f| !f.kernel) {
            return Some(f);
        }
        // a kernel thread: where it slept in the kernel
        ids.iter()
            .rev()
            .map(|&i| &self.frames[i as usize])
            .find(|f| !scheduler_plumbing(&f.function))
            .or_else(|| ids.last().map(|&i| &self.frames[i as usize]))
    }

    /// Where a blocked thread slept in the kernel: the innermost kernel
    /// frame that is not the scheduler itself.
    fn kernel_frame(&self, stack: u32) -> Option<&str> {
        self.stacks[stack as usize]
            .iter()
            .rev()
            .map(|&i| &self.frames[i as usize])
            .filter(|f| f.kernel)
            .map(|f| f.function.as_str())
            .find(|n| !scheduler_plumbing(n))
    }

    fn key_value(&self, k: &EntryKey, key: SortKey) -> String {
        match key {
            SortKey::Comm => self.threads[&k.tid].comm.clone(),
            SortKey::Pid => self.threads[&k.tid].pid.to_string(),
            SortKey::Tid => k.tid.to_string(),
            SortKey::Dso => self
                .leaf(k.stack, k.class)
                .map(|f| f.module.clone())
                .unwrap_or_else(|| "[unknown]".into()),
            SortKey::Sym => {
                let name = self
                    .leaf(k.stack, k.class)
                    .map(|f| f.function.as_str())
                    .unwrap_or("[unknown]");
                format!("{} {name}", k.class.tag())
            }
            SortKey::Class => k.class.tag().to_string(),
            SortKey::Site => k.site.clone().unwrap_or_else(|| "-".into()),
            SortKey::Syscall => k.syscall.clone().unwrap_or_else(|| "-".into()),
            SortKey::Kernel => {
                if k.class.off_cpu() {
                    self.kernel_frame(k.stack).unwrap_or("-").to_string()
                } else {
                    "-".into()
                }
            }
        }
    }

    /// Rows grouped by `keys`, most samples first.
    pub fn rows(&self, keys: &[SortKey]) -> Vec<Row> {
        let mut rows: HashMap<Vec<String>, Row> = HashMap::new();
        for (k, &w) in &self.entries {
            let vals: Vec<String> = keys.iter().map(|&key| self.key_value(k, key)).collect();
            let r = rows.entry(vals.clone()).or_insert_with(|| Row {
                keys: vals,
                samples: 0,
                chains: Vec::new(),
            });
            r.samples += w;
            r.chains.push((k.stack, w));
        }
        let mut v: Vec<Row> = rows.into_values().collect();
        v.sort_by(|a, b| b.samples.cmp(&a.samples).then(a.keys.cmp(&b.keys)));
        v
    }

    /// Each stack as folded text (`comm;outer;...;inner;[class] weight`):
    /// root first, kernel frames suffixed `_[k]`, the class as the leaf.
    pub fn folded(&self) -> String {
        let mut lines: BTreeMap<String, u64> = BTreeMap::new();
        for (k, &w) in &self.entries {
            let mut s = self.threads[&k.tid].comm.replace(';', ":");
            for &f in &self.stacks[k.stack as usize] {
                let f = &self.frames[f as usize];
                s.push(';');
                s.push_str(&f.function.replace(';', ":"));
                if f.kernel {
                    s.push_str("_[k]");
                }
            }
            s.push(';');
            s.push_str(k.class.tag());
            *lines.entry(s).or_default() += w;
        }
        let mut out = String::new();
        for (s, w) in lines {
            let _ = writeln!(out, "{s} {w}");
        }
        out
    }

    /// Every (thread, class, frames, samples) for exporters.
    pub fn stacks(&self) -> Vec<(u32, &str, Class, Vec<&Frame>, u64)> {
        let mut v: Vec<_> = self
            .entries
            .iter()
            .map(|(k, &w)| {
                let frames = self.stacks[k.stack as usize]
                    .iter()
                    .map(|&i| &self.frames[i as usize])
                    .collect();
                (
                    k.tid,
                    self.threads[&k.tid].comm.as_str(),
                    k.class,
                    frames,
                    w,
                )
            })
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0).then(b.4.cmp(&a.4)));
        v
    }

    /// The one-paragraph summary: where the threads' time went, the biggest
    /// class first, each with the place it mostly went to.
    pub fn summary(&self) -> String {
        let total = self.total();
        if total == 0 {
            return "No samples: the program ended before a sampling period passed.".into();
        }
        let by_class = self.by_class();
        let mut classes: Vec<(Class, u64)> = CLASSES
            .iter()
            .zip(by_class)
            .map(|(&c, w)| (c, w))
            .filter(|&(_, w)| w > 0)
            .collect();
        classes.sort_by_key(|c| std::cmp::Reverse(c.1));
        let pct = |w: u64| 100.0 * w as f64 / total as f64;
        let mut parts = Vec::new();
        for (i, &(c, w)) in classes.iter().enumerate() {
            if i > 0 && pct(w) < 5.0 {
                break;
            }
            // the class's biggest place: syscall/leaf and call site
            let mut places: HashMap<(String, Option<String>), u64> = HashMap::new();
            for (k, &ew) in self.entries.iter().filter(|(k, _)| k.class == c) {
                let what = match (&k.syscall, c.off_cpu()) {
                    (Some(s), true) => s.clone(),
                    _ => self
                        .leaf(k.stack, c)
                        .map(|f| f.function.clone())
                        .unwrap_or_else(|| "[unknown]".into()),
                };
                *places.entry((what, k.site.clone())).or_default() += ew;
            }
            let mut places: Vec<_> = places.into_iter().collect();
            places.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let mut text = format!("{:.0}% is {} {}", pct(w), c.tag(), describe(c));
            if let Some(((what, site), pw)) = places.first() {
                let share = 100.0 * *pw as f64 / w as f64;
                let _ = write!(text, ", {share:.0}% of it in {what}");
                if let Some(site) = site {
                    let _ = write!(text, " called from {site}");
                }
            }
            parts.push(text);
        }
        let threads = self.threads.len();
        let whose = if threads == 1 {
            "the thread's wall time".to_string()
        } else {
            format!("the wall time of its {threads} threads")
        };
        format!("Of {whose}, {}.", parts.join("; "))
    }
}

fn describe(c: Class) -> &'static str {
    match c {
        Class::User => "running user code",
        Class::Kernel => "running in the kernel",
        Class::Io => "waiting for I/O",
        Class::Lock => "waiting for a lock",
        Class::Sched => "runnable, waiting for a CPU",
        Class::Blocked => "blocked (sleep, poll, pipe, socket)",
    }
}

/// What the text report shows.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// Row keys (`--sort`).
    pub keys: Vec<SortKey>,
    /// Call chains under each row (`-g`).
    pub chains: Option<ChainOrder>,
    /// Rows shown at most (0: all).
    pub max_rows: usize,
    /// First line: what was profiled.
    pub title: String,
}

fn pct(w: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * w as f64 / total as f64
    }
}

/// The text report.
pub fn render_text(p: &Profile, o: &ReportOptions) -> String {
    let mut out = String::new();
    let total = p.total();
    let secs = |w: u64| w as f64 * p.period_ns as f64 / 1e9;
    let _ = writeln!(out, "# {}", o.title);
    let by_class = p.by_class();
    let on: u64 = by_class[..2].iter().sum();
    let _ = writeln!(
        out,
        "# {total} samples ({on} on the CPU, {} off it), one per {} us of each thread's time",
        total - on,
        p.period_ns / 1000
    );
    let _ = writeln!(out, "#");
    for line in wrap(&p.summary(), 78) {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(out, "\nTime by class:");
    for (c, w) in CLASSES.iter().zip(by_class) {
        let _ = writeln!(
            out,
            "  {} {:<38} {:6.2}%  {:9.3} s  {:>8} samples",
            c.tag(),
            describe(*c),
            pct(w, total),
            secs(w),
            w
        );
    }
    let mut threads = p.threads();
    // the busiest threads first; as many as rows are shown
    threads.sort_by(|a, b| b.samples.cmp(&a.samples).then(a.tid.cmp(&b.tid)));
    let more_threads = if o.max_rows > 0 && threads.len() > o.max_rows {
        threads.split_off(o.max_rows)
    } else {
        Vec::new()
    };
    if !threads.is_empty() {
        let _ = writeln!(out, "\nBy thread (share of each thread's time):");
        let _ = writeln!(
            out,
            "  {:>8} {:<16} {:>9}    [.]    [k]    [I]    [L]    [S]    [B]",
            "tid", "command", "seconds"
        );
        for t in &threads {
            let _ = write!(
                out,
                "  {:>8} {:<16} {:9.3}",
                t.tid,
                truncate(&t.comm, 16),
                secs(t.samples)
            );
            for w in t.by_class {
                let _ = write!(out, " {:5.1}%", pct(w, t.samples));
            }
            out.push('\n');
        }
        if !more_threads.is_empty() {
            let rest: u64 = more_threads.iter().map(|t| t.samples).sum();
            let _ = writeln!(
                out,
                "  {:>8} {:<16} {:9.3}  ({} more threads)",
                "",
                "",
                secs(rest),
                more_threads.len()
            );
        }
    }
    let calls = p.rows(&[SortKey::Syscall, SortKey::Class]);
    let calls: Vec<&Row> = calls
        .iter()
        .filter(|r| r.keys[0] != "-" && r.keys[1] != "[.]" && r.keys[1] != "[k]")
        .take(10)
        .collect();
    if !calls.is_empty() {
        let _ = writeln!(
            out,
            "\nOff-CPU time by system call (the call each thread waited in):"
        );
        for r in calls {
            let _ = writeln!(
                out,
                "  {:6.2}%  {:9.3} s  {} {}",
                pct(r.samples, total),
                secs(r.samples),
                r.keys[1],
                r.keys[0]
            );
        }
    }
    let rows = p.rows(&o.keys);
    let mut widths: Vec<usize> = o.keys.iter().map(|k| k.title().len()).collect();
    let shown = if o.max_rows == 0 {
        rows.len()
    } else {
        rows.len().min(o.max_rows)
    };
    for r in &rows[..shown] {
        for (w, v) in widths.iter_mut().zip(&r.keys) {
            *w = (*w).max(v.chars().count()).min(60);
        }
    }
    let _ = writeln!(out, "\nSamples:");
    let mut head = format!("  {:>8} {:>8}", "Overhead", "Samples");
    for (k, w) in o.keys.iter().zip(&widths) {
        let _ = write!(head, "  {:<w$}", k.title(), w = *w);
    }
    let _ = writeln!(out, "{}", head.trim_end());
    for r in &rows[..shown] {
        let mut line = format!("  {:7.2}% {:>8}", pct(r.samples, total), r.samples);
        for ((v, w), k) in r.keys.iter().zip(&widths).zip(&o.keys) {
            // a call site's end (file:line function) says the most
            let v = if *k == SortKey::Site {
                truncate_left(v, 60)
            } else {
                truncate(v, 60)
            };
            let _ = write!(line, "  {v:<w$}", w = *w);
        }
        let _ = writeln!(out, "{}", line.trim_end());
        if let Some(order) = o.chains {
            chains(p, r, order, &mut out);
        }
    }
    if shown < rows.len() {
        let rest: u64 = rows[shown..].iter().map(|r| r.samples).sum();
        let _ = writeln!(
            out,
            "  {:7.2}% {:>8}  ({} more rows)",
            pct(rest, total),
            rest,
            rows.len() - shown
        );
    }
    out
}

/// A row's call chains, biggest first, as perf report -g prints them.
fn chains(p: &Profile, r: &Row, order: ChainOrder, out: &mut String) {
    let mut by_stack: HashMap<u32, u64> = HashMap::new();
    for &(s, w) in &r.chains {
        *by_stack.entry(s).or_default() += w;
    }
    let mut v: Vec<(u32, u64)> = by_stack.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (i, (s, w)) in v.iter().enumerate() {
        if i == 5 {
            let rest: u64 = v[5..].iter().map(|x| x.1).sum();
            let _ = writeln!(
                out,
                "            |-- {:.2}% in {} more chains",
                pct(rest, r.samples),
                v.len() - 5
            );
            break;
        }
        let _ = writeln!(out, "            |");
        let _ = writeln!(out, "            |--{:.2}%--", pct(*w, r.samples));
        let mut frames: Vec<&Frame> = p.stacks[*s as usize]
            .iter()
            .map(|&f| &p.frames[f as usize])
            .collect();
        if order == ChainOrder::Callee {
            frames.reverse();
        }
        for f in frames {
            let _ = write!(out, "            |     {}", f.function);
            if f.kernel {
                out.push_str(" [kernel]");
            } else {
                let _ = write!(out, " ({})", f.module);
            }
            if let Some(l) = &f.srcline {
                let _ = write!(out, "  {l}");
            }
            out.push('\n');
        }
    }
    out.push('\n');
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('~');
        t
    }
}

fn truncate_left(s: &str, n: usize) -> String {
    let len = s.chars().count();
    if len <= n {
        s.to_string()
    } else {
        let mut t = String::from("~");
        t.extend(s.chars().skip(len - n + 1));
        t
    }
}

fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in s.split(' ') {
        if !cur.is_empty() && cur.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// The report as one JSON object (`--format json`).
pub fn render_json(p: &Profile, keys: &[SortKey], title: &str) -> serde_json::Value {
    use serde_json::{json, Map, Value};
    let total = p.total();
    let tags = |v: [u64; 6]| {
        let mut m = Map::new();
        for (c, w) in CLASSES.iter().zip(v) {
            m.insert(c.tag().to_string(), json!(w));
        }
        Value::Object(m)
    };
    let threads: Vec<Value> = p
        .threads()
        .iter()
        .map(|t| {
            json!({"tid": t.tid, "pid": t.pid, "comm": t.comm, "samples": t.samples,
                   "classes": tags(t.by_class)})
        })
        .collect();
    let rows: Vec<Value> = p
        .rows(keys)
        .iter()
        .map(|r| {
            let mut m = Map::new();
            for (k, v) in keys.iter().zip(&r.keys) {
                m.insert(k.json_name().to_string(), json!(v));
            }
            m.insert("samples".into(), json!(r.samples));
            m.insert("percent".into(), json!(pct(r.samples, total)));
            Value::Object(m)
        })
        .collect();
    json!({
        "title": title,
        "period_ns": p.period_ns,
        "samples": total,
        "summary": p.summary(),
        "classes": tags(p.by_class()),
        "threads": threads,
        "rows": rows,
    })
}

/// Refines the class the kernel's facts gave a blocked sample with the
/// kernel frames it slept in: a D-state wait in the page cache or block
/// layer is I/O, one in a futex, rwsem or mutex slow path is a lock.
pub fn refine_class(class: Class, kernel_frames: &[&str]) -> Class {
    if class != Class::Blocked {
        return class;
    }
    let name = |n: &&str| n.split('+').next().unwrap_or(n).to_string();
    let names: Vec<String> = kernel_frames.iter().map(name).collect();
    const IO: &[&str] = &[
        "folio_wait_bit",
        "filemap_fdatawait",
        "vfs_fsync_range",
        "jbd2_log_wait_commit",
        "blk_mq_",
        "submit_bio_wait",
        "wait_on_page_bit",
        "__wait_on_buffer",
    ];
    const LOCK: &[&str] = &[
        "futex_",
        "rwsem_down_",
        "__mutex_lock",
        "mutex_lock",
        "rt_mutex",
        "__vma_start_write",
        "percpu_rwsem_wait",
    ];
    if names.iter().any(|n| LOCK.iter().any(|p| n.starts_with(p))) {
        return Class::Lock;
    }
    if names.iter().any(|n| IO.iter().any(|p| n.starts_with(p))) {
        return Class::Io;
    }
    class
}

/// A futex wait is a lock wait only when the program waits for a lock: a
/// condition variable, a join, a semaphore or a barrier waits for an event
/// (an idle worker, a finished thread), and reads as other blocking. By
/// the user frames the thread blocked in (outermost first).
pub fn refine_futex_wait(class: Class, user_frames: &[&str]) -> Class {
    if class != Class::Lock {
        return class;
    }
    const EVENT_WAITS: &[&str] = &[
        "pthread_cond_wait",
        "pthread_cond_timedwait",
        "pthread_cond_clockwait",
        "pthread_join",
        "pthread_timedjoin_np",
        "pthread_clockjoin_np",
        "pthread_clockjoin_ex",
        "sem_wait",
        "sem_timedwait",
        "sem_clockwait",
        "new_sem_wait",
        "new_sem_timedwait",
        "new_sem_clockwait",
        "new_sem_wait_slow",
        "pthread_barrier_wait",
    ];
    const LOCKS: &[&str] = &["lll_lock_wait", "pthread_mutex", "pthread_rwlock", "mtx_"];
    // the innermost pthread-level frame decides; names as debug info and
    // symbol tables spell them: ___pthread_cond_timedwait64,
    // __new_sem_wait_slow64.constprop.0
    for f in user_frames.iter().rev() {
        let f = f.trim_start_matches('_');
        let f = f.split('.').next().unwrap_or(f);
        let f = f.strip_suffix("64").unwrap_or(f);
        if LOCKS.iter().any(|l| f.starts_with(l)) {
            return Class::Lock;
        }
        if EVENT_WAITS.contains(&f) {
            return Class::Blocked;
        }
    }
    class
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(name: &str, module: &str, line: Option<&str>) -> Frame {
        Frame {
            function: name.into(),
            module: module.into(),
            srcline: line.map(String::from),
            kernel: module == "[kernel]",
        }
    }

    fn sample(tid: u32, class: Class, weight: u64, frames: Vec<Frame>, site: &str) -> SampleIn {
        SampleIn {
            tid,
            pid: 10,
            comm: "wal".into(),
            class,
            weight,
            frames,
            site: Some(site.into()),
            syscall: class.off_cpu().then(|| "fsync".to_string()),
        }
    }

    fn wal() -> Profile {
        let mut p = Profile::new(1_000_000);
        let io = vec![
            f("main", "wal", Some("wal.c:120")),
            f("flush_log", "wal", Some("wal.c:88")),
            f("fsync", "libc.so.6", None),
            f("do_fsync", "[kernel]", None),
            f("jbd2_log_wait_commit", "[kernel]", None),
            f("schedule", "[kernel]", None),
        ];
        p.add(sample(11, Class::Io, 62, io, "wal.c:88 flush_log"));
        let cpu = vec![
            f("main", "wal", Some("wal.c:120")),
            f("checksum", "wal", Some("wal.c:40")),
        ];
        p.add(sample(11, Class::User, 30, cpu, "wal.c:40 checksum"));
        let s = vec![f("main", "wal", Some("wal.c:120"))];
        p.add(sample(11, Class::Sched, 8, s, "wal.c:120 main"));
        p
    }

    #[test]
    fn summary_names_the_biggest_class_and_where() {
        let s = wal().summary();
        assert!(
            s.starts_with("Of the thread's wall time, 62% is [I] waiting for I/O, 100% of it in fsync called from wal.c:88 flush_log; 30% is [.] running user code"),
            "{s}"
        );
        assert!(s.contains("8% is [S]"), "{s}");
    }

    #[test]
    fn rows_are_class_tagged_and_sorted() {
        let p = wal();
        let rows = p.rows(&[SortKey::Dso, SortKey::Sym, SortKey::Kernel]);
        assert_eq!(
            rows[0].keys,
            ["libc.so.6", "[I] fsync", "jbd2_log_wait_commit"]
        );
        assert_eq!(rows[0].samples, 62);
        assert_eq!(rows[1].keys, ["wal", "[.] checksum", "-"]);
        assert_eq!(p.by_class(), [30, 0, 62, 0, 8, 0]);
        let t = p.threads();
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].samples, 100);
    }

    #[test]
    fn folded_is_root_first_with_class_leaf() {
        let folded = wal().folded();
        assert!(
            folded.contains("wal;main;flush_log;fsync;do_fsync_[k];jbd2_log_wait_commit_[k];schedule_[k];[I] 62\n"),
            "{folded}"
        );
        assert!(folded.contains("wal;main;checksum;[.] 30\n"), "{folded}");
    }

    #[test]
    fn text_report_has_the_columns_and_chains() {
        let t = render_text(
            &wal(),
            &ReportOptions {
                keys: vec![SortKey::Comm, SortKey::Dso, SortKey::Sym],
                chains: Some(ChainOrder::Callee),
                max_rows: 0,
                title: "test".into(),
            },
        );
        assert!(
            t.contains("Overhead  Samples  Command  Shared Object  Symbol"),
            "{t}"
        );
        assert!(
            t.contains("62.00%       62  wal      libc.so.6      [I] fsync"),
            "{t}"
        );
        // callee order: the innermost frame first
        let chain = t.find("|     schedule [kernel]").unwrap();
        assert!(
            chain < t.find("|     main (wal)  wal.c:120").unwrap(),
            "{t}"
        );
    }

    #[test]
    fn unsampled_time_goes_where_the_thread_last_ran() {
        let mut p = wal();
        // thread 11's last on-CPU sample was checksum
        assert!(p.add_to_last_on_cpu(11, 5));
        let rows = p.rows(&[SortKey::Sym]);
        let checksum = rows.iter().find(|r| r.keys[0] == "[.] checksum").unwrap();
        assert_eq!(checksum.samples, 35);
        assert!(!p.add_to_last_on_cpu(99, 5), "a thread never sampled");
        p.forget_last_on_cpu(11);
        assert!(!p.add_to_last_on_cpu(11, 5), "forgotten at exec");
        assert_eq!(p.total(), 105);
    }

    #[test]
    fn refine_by_kernel_frames() {
        assert_eq!(
            refine_class(
                Class::Blocked,
                &["rwsem_down_read_slowpath+0x1", "schedule+0x2"]
            ),
            Class::Lock
        );
        assert_eq!(
            refine_class(Class::Blocked, &["folio_wait_bit_common+0x10"]),
            Class::Io
        );
        assert_eq!(
            refine_class(Class::Blocked, &["pipe_read+0x10"]),
            Class::Blocked
        );
        // the kernel's facts win over frames for the other classes
        assert_eq!(
            refine_class(Class::Sched, &["futex_wait+0x1"]),
            Class::Sched
        );
    }

    #[test]
    fn futex_waits_for_events_are_not_locks() {
        let f = |frames: &[&str]| refine_futex_wait(Class::Lock, frames);
        // user frames outermost first, as SampleIn has them
        assert_eq!(
            f(&[
                "main",
                "pthread_mutex_lock",
                "__lll_lock_wait",
                "futex_wait"
            ]),
            Class::Lock
        );
        assert_eq!(
            f(&[
                "worker",
                "___pthread_cond_wait",
                "__futex_abstimed_wait_common64"
            ]),
            Class::Blocked
        );
        assert_eq!(
            f(&["main", "___pthread_join", "__futex_abstimed_wait_common64"]),
            Class::Blocked
        );
        assert_eq!(
            f(&[
                "helper_main",
                "__new_sem_wait_slow64",
                "__futex_abstimed_wait_common64"
            ]),
            Class::Blocked
        );
        for timed in [
            "___pthread_cond_timedwait64",
            "___pthread_cond_clockwait64",
            "___sem_timedwait64",
            "__new_sem_wait_slow64.constprop.0",
        ] {
            assert_eq!(
                f(&["main", timed, "__futex_abstimed_wait_common"]),
                Class::Blocked,
                "{timed}"
            );
        }
        assert_eq!(f(&["go_runtime_futexsleep"]), Class::Lock);
        // other classes are left alone
        assert_eq!(refine_futex_wait(Class::Io, &["pthread_join"]), Class::Io);
    }

    #[test]
    fn sort_keys_parse_and_reject() {
        assert_eq!(
            SortKey::parse_list("comm,dso,sym").unwrap(),
            [SortKey::Comm, SortKey::Dso, SortKey::Sym]
        );
        assert!(SortKey::parse_list("comm,bogus")
            .unwrap_err()
            .contains("bogus"));
    }
}
