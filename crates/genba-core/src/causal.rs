//! `genba causal`: virtual-speedup experiments while the program runs.
//!
//! The program runs under genba's profile (every off-CPU interval exact)
//! with genba's runtime preloaded. A warm-up profiles it and chooses the
//! candidates: the source lines where its threads run, and the (class, call
//! site) pairs where they wait. Then, one window at a time, one candidate
//! is sped up virtually: BPF counts the delay every other thread owes
//! (genba-bpf's causal.bpf.inc) and the runtime makes them take it
//! (genba-causal's runtime). Half the windows are baselines. Each
//! progress point's rate, over the window less the inserted delay, against
//! the baselines' gives the predicted speedup (genba_causal::estimate).

use std::collections::HashMap;
use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use genba_bpf::{ProbeAt, ProfileConfig, SyscallPlan, TraceConfig, Tracer};
use genba_causal::estimate::{self, Experiment, Point};
use genba_causal::{Page, Snapshot, Spec};
use genba_events::{Event, ProfSample};
use genba_syscalls::table;

use crate::options::CausalArgs;
use crate::session::{Session, Sink, Target, Until};
use crate::stacks::{relative, StackOptions, Stacks};
use crate::world::World;
use crate::{bpf_error, resolve_command, Exit, BOOKKEEPING};

mod budget;
mod coverage;
use coverage::Stopped;

/// The off-CPU classes a candidate can be, as the profile tags them.
const CLASSES: [(&str, u32); 4] = [("[I]", 2), ("[L]", 3), ("[S]", 4), ("[B]", 5)];
/// A window ends, then the next waits until the delays owed are paid
/// (at most this long), so that one experiment's debt does not slow the next.
const COOL_MAX: Duration = Duration::from_millis(50);
/// An experiment lasts until the first progress point had this many visits.
const MIN_VISITS: u64 = 10;

fn class_tag(c: u32) -> &'static str {
    CLASSES
        .iter()
        .find(|(_, n)| *n == c)
        .map(|(t, _)| *t)
        .unwrap_or("[?]")
}

struct Progress {
    name: String,
    /// Where, as given: `FUNCTION`, `FILE:LINE`, `FUNCTION:latency`.
    at: String,
    target: Where,
    /// The time from the function's entry to its return, not visits.
    latency: bool,
}

enum Where {
    /// A function's entry, or else a mark of genba/progress.h by that name.
    Function(String),
    Line(String, u64),
    /// A statically defined tracing point: PROVIDER:NAME.
    Sdt(String, String),
    /// No progress point: a run is one experiment, its length the measure.
    Run,
}

/// What a progress point measures.
#[derive(Clone, Copy, PartialEq)]
enum Measure {
    /// Visits a second.
    Throughput,
    /// Time from a function's entry to its return.
    Latency,
    /// A whole run's length.
    Run,
}

impl Progress {
    fn measure(&self) -> Measure {
        match (&self.target, self.latency) {
            (Where::Run, _) => Measure::Run,
            (_, true) => Measure::Latency,
            _ => Measure::Throughput,
        }
    }
}

fn parse_progress(s: &str) -> Result<Progress> {
    let (name, at) = match s.split_once('=') {
        Some((n, f)) => (n.trim(), f.trim()),
        None => (s.trim(), s.trim()),
    };
    let bad = || {
        Exit(
            1,
            format!("invalid --progress '{s}' (expected NAME=FUNCTION, NAME=FILE:LINE, NAME=FUNCTION:latency or NAME=PROVIDER:PROBE)"),
        )
    };
    if name.is_empty() || at.is_empty() {
        bail!(bad());
    }
    let (target, latency) = match at.rsplit_once(':') {
        None => (Where::Function(at.into()), false),
        Some((f, "latency")) if !f.is_empty() && !f.contains(':') => {
            (Where::Function(f.into()), true)
        }
        Some((file, line)) if !file.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) => {
            match line.parse::<u64>() {
                Ok(l) if l > 0 => (Where::Line(file.into(), l), false),
                _ => bail!(bad()),
            }
        }
        Some((provider, probe))
            if !provider.is_empty() && !probe.is_empty() && !provider.contains(':') =>
        {
            (Where::Sdt(provider.into(), probe.into()), false)
        }
        Some(_) => bail!(bad()),
    };
    Ok(Progress {
        name: name.into(),
        at: at.into(),
        target,
        latency,
    })
}

/// The uprobes of statically defined tracing point `provider`:`probe` of
/// `exe` (one per place it is in), for progress point `name`.
fn sdt(exe: &str, provider: &str, probe: &str, name: &str) -> Result<Vec<(ProbeAt, Vec<u8>)>> {
    let all = genba_symbolize::usdt_probes(exe)
        .map_err(|e| anyhow!(Exit(1, format!("--progress {name}: {e}"))))?;
    Ok(all
        .into_iter()
        .filter(|u| u.provider == provider && u.name == probe)
        .map(|u| (ProbeAt::Sdt(u.offset, u.semaphore), u.bytes))
        .collect())
}

/// What the warm-up saw of one source line on the CPU.
struct LineSeen {
    samples: u64,
    /// An address in it, in process `tgid`.
    ip: u64,
}

/// What the warm-up saw of one (class, call site) off the CPU.
#[derive(Default)]
struct SiteSeen {
    ns: u64,
    /// The return addresses into the program at that site.
    addrs: Vec<u64>,
}

fn add_site(s: &mut SiteSeen, ns: u64, ret: Option<u64>) {
    s.ns += ns;
    if let Some(r) = ret {
        if !s.addrs.contains(&r) {
            s.addrs.push(r);
        }
    }
}

struct Candidate {
    label: String,
    spec: Spec,
}

#[derive(PartialEq)]
enum Phase {
    Warmup,
    Running,
    Done,
}

struct Causal<'a> {
    page: &'a Page,
    world: World,
    cwd: String,
    /// The program's file, as its mappings name it.
    exe: String,
    pid: u32,
    /// The program's executable mappings: (start, end, file offset).
    text: Vec<(u64, u64, u64)>,
    /// When /proc was last read for it.
    text_tried: Option<Instant>,
    lines: HashMap<String, LineSeen>,
    /// The functions on-CPU samples were in (as lines are counted).
    funcs: HashMap<String, LineSeen>,
    on_cpu: u64,
    sites: HashMap<String, SiteSeen>,
    /// Call sites: all their off-CPU time and their kernel samples.
    calls: HashMap<String, SiteSeen>,
    blocked_ns: u64,
    forced: Vec<String>,
    max_candidates: usize,
    warmup: Duration,
    window: Duration,
    stop_after: Option<Duration>,
    started: Instant,
    /// The first and the latest time of the program's samples genba has
    /// read: the warm-up is the program's time, not genba's (a busy
    /// machine can start the program late, or deliver its samples late).
    seen: Option<(u64, u64)>,
    phase: Phase,
    candidates: Vec<Candidate>,
    left_out: Vec<(String, String)>,
    exps: Vec<Experiment>,
    next: usize,
    current: Option<(usize, u32, Snapshot, Instant)>,
    /// Each thread's signals when the current experiment started.
    signals_at_start: Vec<(u32, u64)>,
    cooling: Option<Instant>,
    points: usize,
    /// Which progress points are latency points.
    latency: Vec<bool>,
    period_ns: u64,
    /// Virtual speedups tried (percent; the baselines are apart).
    speedups: Vec<u32>,
    /// The run's first and last counts, for the delays' share.
    first: Option<Snapshot>,
    /// Why the experiments stopped (for a candidate that got none).
    stopped: Stopped,
    /// End to end: the runs planned within --budget, when it cut any.
    budget: Option<(f64, f64, budget::Plan)>,
    /// End to end: progress points suggested from the warm-up.
    suggested: Vec<String>,
}

impl Sink for Causal<'_> {
    fn event(&mut self, ev: &Event) {
        match ev {
            Event::Profile(p) => self.sample(p),
            _ => {
                self.world.follow(ev);
            }
        }
    }

    fn tick(&mut self, _tracer: &Tracer) {
        self.step();
    }
}

impl Causal<'_> {
    fn load_text(&mut self) {
        // called at every warm-up sample: /proc is read until the program's
        // text is found, at most every 50 ms (not per sample, when its maps
        // name it otherwise)
        if !self.text.is_empty()
            || self
                .text_tried
                .is_some_and(|t| t.elapsed() < Duration::from_millis(50))
        {
            return;
        }
        self.text_tried = Some(Instant::now());
        let Ok(maps) = std::fs::read_to_string(format!("/proc/{}/maps", self.pid)) else {
            return;
        };
        for l in maps.lines() {
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() < 6 || f[5] != self.exe || !f[1].contains('x') {
                continue;
            }
            let (Some((a, b)), Ok(off)) = (f[0].split_once('-'), u64::from_str_radix(f[2], 16))
            else {
                continue;
            };
            if let (Ok(a), Ok(b)) = (u64::from_str_radix(a, 16), u64::from_str_radix(b, 16)) {
                self.text.push((a, b, off));
            }
        }
    }

    /// The run-time address of file offset `off` of the program.
    fn text_addr(&mut self, off: u64) -> Option<u64> {
        self.load_text();
        self.text
            .iter()
            .find(|(a, b, o)| off >= *o && off < o + (b - a))
            .map(|(a, _, o)| a + (off - o))
    }

    fn sample(&mut self, p: &ProfSample) {
        if p.task.tgid == self.pid {
            let (from, to) = self.seen.get_or_insert((p.ts, p.ts));
            *from = (*from).min(p.ts);
            *to = (*to).max(p.ts);
        }
        if self.phase != Phase::Warmup || p.flush || p.task.tgid != self.pid || p.regs[0] == 0 {
            return;
        }
        // where the program's text is, read while it runs (it is gone from
        // /proc once the program ended, before a run's samples are all in)
        self.load_text();
        let Some(stacks) = self.world.stacks_mut() else {
            return;
        };
        let cs = stacks.resolve_regs(p.task.tgid, p.regs, &p.ustack, Vec::new(), false);
        if !p.off_cpu && p.class == 1 {
            // in the kernel, inside a call: the call's site
            let ns = u64::from(p.w_block) * self.period_ns;
            if let Some(loc) = self.site_loc(&cs) {
                let ret = self.text_addr(loc.1).map(|a| a + 1);
                add_site(self.calls.entry(loc.0).or_default(), ns, ret);
            }
            return;
        }
        if !p.off_cpu {
            if p.class != 0 {
                return;
            }
            self.on_cpu += u64::from(p.w_block);
            // the line it ran, or, in a library (memcpy, malloc), the line
            // of the program's own code that called into it (as COZ
            // attributes it; BPF matches it the same way)
            let Some((depth, f)) =
                cs.user.iter().enumerate().find_map(|(d, fr)| {
                    fr.first().filter(|f| f.module == self.exe).map(|f| (d, f))
                })
            else {
                return;
            };
            let (Some(file), Some(line)) = (&f.file, f.line) else {
                return;
            };
            let key = format!("{}:{line}", relative(file, &self.cwd));
            let off = f.file_offset;
            let ip = if depth == 0 {
                Some(p.regs[0])
            } else {
                self.text_addr(off)
            };
            let Some(ip) = ip else {
                return;
            };
            self.lines
                .entry(key)
                .or_insert(LineSeen { samples: 0, ip })
                .samples += u64::from(p.w_block);
            // its function: the physical one, the outermost frame there
            let func = cs.user[depth].last().and_then(|f| f.function.clone());
            if let Some(func) = func {
                self.funcs
                    .entry(func)
                    .or_insert(LineSeen { samples: 0, ip })
                    .samples += u64::from(p.w_block);
            }
            return;
        }
        let blocked = p.wake_ts.saturating_sub(p.out_ts);
        let runq = p.ts.saturating_sub(p.wake_ts.max(p.out_ts));
        self.blocked_ns += blocked + runq;
        let Some((loc, off)) = self.site_loc(&cs) else {
            return;
        };
        let ret = self.text_addr(off).map(|a| a + 1);
        for (cls, ns) in [(p.class, blocked), (4, runq)] {
            if ns == 0 || !(2..=5).contains(&cls) {
                continue;
            }
            add_site(
                self.sites
                    .entry(format!("{} {loc}", class_tag(cls)))
                    .or_default(),
                ns,
                ret,
            );
            add_site(self.calls.entry(loc.clone()).or_default(), ns, ret);
        }
    }

    /// The call site of a stack, as `FILE:LINE` and the file offset of its
    /// frame, when it is in the program itself with a source line.
    fn site_loc(&self, cs: &crate::stacks::CallStacks) -> Option<(String, u64)> {
        let site = self.world.stacks()?.site(cs)?;
        let (Some(file), Some(line)) = (&site.file, site.line) else {
            return None;
        };
        (site.module == self.exe).then(|| {
            (
                format!("{}:{line}", relative(file, &self.cwd)),
                site.file_offset,
            )
        })
    }

    /// The address ranges of source line `key` in the function around `ip`.
    fn line_ranges(&mut self, ip: u64, key: &str) -> Vec<(u64, u64)> {
        let pid = self.pid;
        let cwd = self.cwd.clone();
        let Some(stacks) = self.world.stacks_mut() else {
            return Vec::new();
        };
        let frames = stacks.symbolize(pid, ip);
        let Some(outer) = frames.last() else {
            return Vec::new();
        };
        let (Some(func), Some(off)) = (outer.function.clone(), outer.function_offset) else {
            return Vec::new();
        };
        let start = ip - off;
        let mut ranges: Vec<(u64, u64)> = Vec::new();
        let mut run: Option<u64> = None;
        let mut a = start;
        while a < start + 65536 {
            let fr = stacks.symbolize(pid, a);
            if fr.last().and_then(|f| f.function.as_ref()) != Some(&func) {
                break;
            }
            let hit = fr.first().is_some_and(|f| match (&f.file, f.line) {
                (Some(file), Some(line)) => format!("{}:{line}", relative(file, &cwd)) == key,
                _ => false,
            });
            if hit {
                run.get_or_insert(a);
            } else if let Some(s) = run.take() {
                ranges.push((s, a));
            }
            a += 1;
        }
        if let Some(s) = run {
            ranges.push((s, a));
        }
        // the largest first when there are more than the page holds
        ranges.sort_by_key(|(a, b)| std::cmp::Reverse(b - a));
        ranges.truncate(16);
        ranges
    }

    /// The address range of the (physical) function around `ip`.
    fn function_range(&mut self, ip: u64) -> Option<(u64, u64)> {
        let pid = self.pid;
        let stacks = self.world.stacks_mut()?;
        let frames = stacks.symbolize(pid, ip);
        let outer = frames.last()?;
        let (func, off) = (outer.function.clone()?, outer.function_offset?);
        let start = ip - off;
        let mut end = ip;
        while end < start + (1 << 20) {
            let fr = stacks.symbolize(pid, end + 1);
            if fr.last().and_then(|f| f.function.as_ref()) != Some(&func) {
                break;
            }
            end += 1;
        }
        Some((start, end + 1))
    }

    fn text_range(&mut self) -> (u64, u64) {
        self.load_text();
        let lo = self.text.iter().map(|t| t.0).min().unwrap_or(0);
        let hi = self.text.iter().map(|t| t.1).max().unwrap_or(0);
        (lo, hi)
    }

    fn candidate(&mut self, label: &str) -> Result<Candidate, String> {
        let label = label.trim();
        if let Some(site) = label.strip_prefix("call ") {
            let site = site.trim();
            let text = self.text_range();
            return match self.calls.get(site) {
                Some(s) if !s.addrs.is_empty() => Ok(Candidate {
                    label: format!("call {site}"),
                    spec: Spec::OffCpu {
                        // every class: all the time the call is off the CPU
                        classes: CLASSES.iter().map(|(_, c)| 1 << c).sum(),
                        sites: s.addrs.iter().copied().take(8).collect(),
                        text,
                        kernel: true,
                    },
                }),
                _ => Err(
                    "no call at that site was seen in the kernel or off the CPU in the warm-up"
                        .into(),
                ),
            };
        }
        if let Some((tag, cls)) = CLASSES.iter().find(|(t, _)| label.starts_with(t)) {
            let site = label[tag.len()..].trim();
            let text = self.text_range();
            if site.is_empty() {
                return Ok(Candidate {
                    label: tag.to_string(),
                    spec: Spec::OffCpu {
                        classes: 1 << cls,
                        sites: Vec::new(),
                        text,
                        kernel: false,
                    },
                });
            }
            let key = format!("{tag} {site}");
            return match self.sites.get(&key) {
                Some(s) if !s.addrs.is_empty() => Ok(Candidate {
                    label: key,
                    spec: Spec::OffCpu {
                        classes: 1 << cls,
                        sites: s.addrs.iter().copied().take(8).collect(),
                        text,
                        kernel: false,
                    },
                }),
                _ => Err("no interval of that class ended at that site in the warm-up".into()),
            };
        }
        if let Some(func) = label.strip_suffix("()") {
            let Some(ip) = self.funcs.get(func).map(|l| l.ip) else {
                return Err("no sample of the program ran in that function in the warm-up".into());
            };
            return match self.function_range(ip) {
                Some(r) => Ok(Candidate {
                    label: label.to_string(),
                    spec: Spec::OnCpu(vec![r]),
                }),
                None => Err("its addresses could not be found".into()),
            };
        }
        let Some(ip) = self.lines.get(label).map(|l| l.ip) else {
            return Err("no sample of the program ran on that line in the warm-up".into());
        };
        let ranges = self.line_ranges(ip, label);
        if ranges.is_empty() {
            return Err("its addresses could not be found".into());
        }
        Ok(Candidate {
            label: label.to_string(),
            spec: Spec::OnCpu(ranges),
        })
    }

    /// The warm-up is over: the candidates, from the user's list or the profile.
    fn choose(&mut self) {
        let labels: Vec<String> = if !self.forced.is_empty() {
            self.forced.clone()
        } else {
            let mut lines: Vec<(&String, u64)> =
                self.lines.iter().map(|(k, v)| (k, v.samples)).collect();
            lines.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            let mut sites: Vec<(&String, u64)> =
                self.sites.iter().map(|(k, v)| (k, v.ns)).collect();
            sites.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            let mut calls: Vec<(&String, u64)> =
                self.calls.iter().map(|(k, v)| (k, v.ns)).collect();
            calls.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            let on = self.on_cpu.max(1);
            let off = self.blocked_ns.max(1);
            let third = self.max_candidates.div_ceil(3);
            // lines with at least 1% of the samples, calls and waits with
            // at least 1% of the time off the CPU
            let mut out: Vec<String> = lines
                .iter()
                .filter(|(_, n)| n * 100 >= on)
                .take(third)
                .map(|(k, _)| (*k).clone())
                .collect();
            let n_calls = third.min(self.max_candidates.saturating_sub(out.len()));
            out.extend(
                calls
                    .iter()
                    .filter(|(_, n)| n * 100 >= off)
                    .take(n_calls)
                    .map(|(k, _)| format!("call {k}")),
            );
            let n_off = self.max_candidates.saturating_sub(out.len());
            out.extend(
                sites
                    .iter()
                    .filter(|(_, n)| n * 100 >= off)
                    .take(n_off)
                    .map(|(k, _)| (*k).clone()),
            );
            out
        };
        for l in labels {
            match self.candidate(&l) {
                Ok(c) => self.candidates.push(c),
                Err(why) => self.left_out.push((l, why)),
            }
        }
    }

    /// The (candidate, speedup) of experiment number `i`: every other one
    /// is a baseline; each candidate goes through the speedups in turn.
    fn planned(&self, i: usize) -> (usize, u32) {
        let n = self.candidates.len().max(1);
        if i.is_multiple_of(2) {
            return ((i / 2) % n, 0);
        }
        let k = i / 2;
        let c = k % n;
        let round = k / n;
        (c, self.speedups[(round + c) % self.speedups.len()])
    }

    fn live(&self, tid: u32) -> bool {
        std::path::Path::new(&format!("/proc/{}/task/{tid}", self.pid)).exists()
    }

    fn step(&mut self) {
        let now = Instant::now();
        match self.phase {
            Phase::Done => {}
            Phase::Warmup => {
                if now - self.started < self.warmup || self.page.runtime_pid() == 0 {
                    return;
                }
                // the program's own warm-up time, as its samples tell it;
                // a program that gives none (it sleeps) is given ten times
                // the warm-up of genba's time
                let ran = self.seen.map_or(0, |(a, b)| b - a);
                if u128::from(ran) < self.warmup.as_nanos()
                    && now - self.started < self.warmup.saturating_mul(10)
                {
                    return;
                }
                if std::env::var_os("GENBA_DEBUG").is_some() {
                    eprintln!(
                        "genba: causal: warm-up of {:.3} s of the program's time ({:.3} s of genba's): {} lines, {} sites",
                        ran as f64 / 1e9,
                        (now - self.started).as_secs_f64(),
                        self.lines.len(),
                        self.sites.len()
                    );
                }
                self.choose();
                if self.candidates.is_empty() {
                    self.phase = Phase::Done;
                    return;
                }
                self.first = Some(self.page.snapshot());
                // a thread is told to pay once it owes a sampling period:
                // its payments lag its debt by about that much
                self.page.set_threshold(self.period_ns);
                let (lo, hi) = self.text_range();
                self.page.set_text(lo, hi);
                self.page.set_quiet();
                self.page.set_active(true);
                self.phase = Phase::Running;
                self.start_next(now);
            }
            Phase::Running => {
                if let Some((c, s, start, t0)) = &self.current {
                    if now - *t0 < self.window {
                        return;
                    }
                    let end = self.page.snapshot();
                    // too few visits say little (one more or less is a big
                    // share): the window grows, as COZ's do, up to 10 times
                    if end.progress[0] - start.progress[0] < MIN_VISITS
                        && now - *t0 < 10 * self.window
                    {
                        return;
                    }
                    self.page.end();
                    self.exps.push(Experiment {
                        candidate: *c,
                        speedup: *s,
                        duration_ns: end.at - start.at,
                        delay_ns: end.delay.saturating_sub(start.delay),
                        visits: (0..self.points)
                            .map(|i| end.progress[i] - start.progress[i])
                            .collect(),
                        latency_ns: self
                            .latency
                            .iter()
                            .enumerate()
                            .map(|(i, l)| l.then(|| end.latency[i] - start.latency[i]))
                            .collect(),
                        hits: end.hits - start.hits,
                        lag_ns: self.page.lag(&self.signals_at_start),
                    });
                    self.current = None;
                    self.cooling = Some(now);
                }
                if self
                    .stop_after
                    .is_some_and(|d| now - self.started >= d + self.warmup)
                {
                    self.stopped = Stopped::Duration;
                    self.phase = Phase::Done;
                    return;
                }
                if let Some(t) = self.cooling {
                    let (owed, _) = self.page.owed(&|tid| self.live(tid));
                    if owed > 1_000_000 && now - t < COOL_MAX {
                        return;
                    }
                    self.cooling = None;
                }
                self.start_next(now);
            }
        }
    }

    fn start_next(&mut self, now: Instant) {
        let (c, s) = self.planned(self.next);
        self.next += 1;
        self.page.begin(&self.candidates[c].spec, s);
        self.signals_at_start = self.page.signals();
        self.current = Some((c, s, self.page.snapshot(), now));
    }
}

/// Runs `genba causal`.
pub fn run(a: CausalArgs) -> Result<i32> {
    let json = match a.format.as_str() {
        "text" => false,
        "json" => true,
        other => bail!("invalid --format '{other}' (expected text or json)"),
    };
    let end_to_end = a.progress.is_empty();
    if !end_to_end && a.runs.is_some() {
        bail!(Exit(
            1,
            "--runs is for runs without a progress point (each run one experiment); with --progress, experiments are windows of one run".into()
        ));
    }
    if a.runs == Some(0) {
        bail!("--runs must be at least 1");
    }
    if !(a.budget > 0.0 && a.budget <= 1e7) {
        bail!("--budget must be a positive number of seconds, at most 10000000");
    }
    let progress: Vec<Progress> = if end_to_end {
        vec![Progress {
            name: "run".into(),
            at: "the whole run".into(),
            target: Where::Run,
            latency: false,
        }]
    } else {
        a.progress
            .iter()
            .map(|p| parse_progress(p))
            .collect::<Result<_>>()?
    };
    if progress.len() > genba_causal::PROGRESS_POINTS {
        bail!("at most {} progress points", genba_causal::PROGRESS_POINTS);
    }
    if !(1..=100_000).contains(&a.freq) {
        bail!("-F must be between 1 and 100000 Hz");
    }
    if a.experiment_ms < 10 {
        bail!("--experiment-ms must be at least 10");
    }
    if !(34..=64).contains(&a.signal) {
        bail!("--signal must be a real-time signal (34 to 64)");
    }
    if a.duration.is_some_and(|d| !(d > 0.0 && d <= 1e7)) {
        bail!("--duration must be a positive number of seconds, at most 10000000");
    }
    if a.experiment_ms > 3_600_000 || a.warmup_ms > 86_400_000 {
        bail!("--experiment-ms must be at most an hour, --warmup-ms at most a day");
    }
    let mut speedups = Vec::new();
    for x in a.speedups.split(',') {
        match x.trim().trim_end_matches('%').parse::<u32>() {
            Ok(v) if (1..=100).contains(&v) => speedups.push(v),
            _ => bail!(
                "invalid --speedups '{}' (expected percentages from 1 to 100)",
                a.speedups
            ),
        }
    }
    speedups.dedup();
    let mut out_file = match &a.output {
        Some(f) => Some(std::fs::File::create(f).with_context(|| format!("Can't create '{f}'"))?),
        None => None,
    };
    let mut html_file = match &a.html {
        Some(f) => Some(std::fs::File::create(f).with_context(|| format!("Can't create '{f}'"))?),
        None => None,
    };
    let path = resolve_command(&a.command)?.ok_or_else(|| anyhow!("no command"))?;
    let exe = std::fs::canonicalize(&path)
        .unwrap_or_else(|_| path.clone())
        .to_string_lossy()
        .into_owned();
    // where each progress point's uprobes go
    let mut probes: Vec<Vec<ProbeAt>> = Vec::new();
    for p in &progress {
        let entries: Vec<(ProbeAt, Vec<u8>)> = match &p.target {
            Where::Run => Vec::new(),
            Where::Function(f) => {
                match genba_symbolize::function_entry(&exe, f) {
                    Ok(Some((_, bytes))) => vec![(ProbeAt::Function(f.clone()), bytes)],
                    Ok(None) => {
                        // a mark of genba/progress.h, GENBA_PROGRESS(f)
                        let marks = sdt(&exe, "genba", f, &p.name)?;
                        if marks.is_empty() {
                            bail!(Exit(
                            1,
                            format!(
                                "--progress {}: no function {f} in {exe}, nor a mark GENBA_PROGRESS({f})",
                                p.name
                            )
                        ));
                        }
                        if p.latency {
                            bail!(Exit(
                            1,
                            format!("--progress {}: {f} is a mark, not a function: it has no latency", p.name)
                        ));
                        }
                        marks
                    }
                    Err(e) => bail!(Exit(1, format!("--progress {}: {e}", p.name))),
                }
            }
            Where::Sdt(provider, probe) => {
                let found = sdt(&exe, provider, probe, &p.name)?;
                if found.is_empty() {
                    bail!(Exit(
                        1,
                        format!(
                            "--progress {}: no function {}, nor a statically defined tracing point {provider}:{probe}, in {exe}",
                            p.name, p.at
                        )
                    ));
                }
                found
            }
            Where::Line(file, line) => {
                let found = genba_symbolize::line_entries(&exe, file, *line)
                    .map_err(|e| anyhow!(Exit(1, format!("--progress {}: {e}", p.name))))?;
                if found.is_empty() {
                    bail!(Exit(
                        1,
                        format!(
                            "--progress {}: {file}:{line} holds no code in {exe} (a comment, a declaration, or optimized away); give a line that runs",
                            p.name
                        )
                    ));
                }
                found
                    .into_iter()
                    .map(|(off, bytes)| (ProbeAt::Offset(off), bytes))
                    .collect()
            }
        };
        // the kernel silently never places a uprobe on a lock-prefixed
        // instruction: a progress point there would count nothing
        if entries
            .iter()
            .any(|(_, bytes)| genba_symbolize::lock_prefixed(bytes))
        {
            bail!(Exit(
                1,
                format!(
                    "--progress {}: {} starts with a lock-prefixed instruction, where the kernel cannot place a uprobe; give {}",
                    p.name,
                    p.at,
                    match p.target {
                        Where::Line(..) => "a line next to it",
                        _ => "a function that calls it",
                    }
                )
            ));
        }
        if std::env::var_os("GENBA_DEBUG").is_some() {
            for (at, _) in &entries {
                eprintln!(
                    "genba: causal: progress point {}: a uprobe at {at:?}",
                    p.name
                );
            }
        }
        probes.push(entries.into_iter().map(|(at, _)| at).collect());
    }
    let period_ns = 1_000_000_000 / a.freq;

    // the page exists before the program is forked: it inherits its map
    let page = Page::create(a.signal).map_err(|e| anyhow!("genba causal: {e}"))?;
    let rt = genba_causal::RuntimeDir::create()
        .map_err(|e| anyhow!("genba causal: writing its runtime: {e}"))?;
    let so = rt.so();
    let preload = match std::env::var("LD_PRELOAD") {
        Ok(p) if !p.is_empty() => format!("{}:{p}", so.display()),
        _ => so.display().to_string(),
    };
    // genba is one thread here; the program inherits these
    std::env::set_var("LD_PRELOAD", preload);
    std::env::set_var("GENBA_CAUSAL_FD", page.inherited_fd().to_string());
    std::env::set_var("GENBA_CAUSAL_SIG", a.signal.to_string());
    if end_to_end {
        // each run's length holds the delays the exiting thread owed
        std::env::set_var("GENBA_CAUSAL_PAY_AT_EXIT", "1");
        // every run at the same addresses as the warm-up's, where the
        // candidates were found (the personality is inherited)
        // SAFETY: reads, then sets, genba's own execution domain.
        let set = unsafe {
            let now = libc::personality(0xffff_ffff);
            now != -1
                && libc::personality(
                    (now as libc::c_ulong) | libc::ADDR_NO_RANDOMIZE as libc::c_ulong,
                ) != -1
        };
        if !set {
            bail!(
                "genba causal: cannot run the program without address-space randomization ({}), which runs without a progress point need; give --progress",
                std::io::Error::last_os_error()
            );
        }
    }

    let mut plans = vec![SyscallPlan::default(); genba_bpf::MAX_SYSCALLS as usize];
    for (nr, plan) in plans.iter_mut().enumerate() {
        let needed = table::by_nr(nr as u32).is_some_and(|i| BOOKKEEPING.contains(&i.name));
        plan.traced = needed;
        plan.no_stack = true;
        plan.exit_only = !needed;
        if let Some(info) = table::by_nr(nr as u32).filter(|_| needed) {
            let decode = genba_syscalls::Options {
                strsize: 32,
                verbose: false,
                xlat: genba_syscalls::Xlat::Abbrev,
                hex: Default::default(),
            };
            for (dst, src) in plan
                .args
                .iter_mut()
                .zip(genba_syscalls::plan(info.name, &decode))
            {
                *dst = crate::to_bpf_plan(src);
            }
        }
    }
    let cfg = TraceConfig {
        inject: false,
        poke_exit: false,
        ioctl_sizes: Vec::new(),
        timed: true,
        all_tasks: false,
        follow_forks: true,
        records: true,
        summary: false,
        summary_cpu: false,
        summary_by: genba_bpf::SummaryBy::Syscall,
        ustack_bytes: 0,
        kstack: false,
        buffer_bytes: 64 << 20,
        profile: Some(ProfileConfig {
            period_ns,
            ustack_bytes: 4096,
            slots: 4096,
            all_tasks: false,
            exact: true,
            causal: Some(page.map_fd()),
        }),
    };
    let launch = || -> Result<Session> {
        let mut session = Session::start(
            &cfg,
            &plans,
            Target::every_thread(Some((path.as_path(), a.command.as_slice())), &[]),
            Until::TasksGone,
            |_, _| Ok(()),
        )
        .map_err(crate::start_error)?;
        session.sample_all_cpus(period_ns).map_err(bpf_error)?;
        Ok(session)
    };
    let mut session = launch()?;
    let pid = session.child_pid().unwrap_or(0);
    for (i, (p, at)) in progress.iter().zip(&probes).enumerate() {
        for at in at {
            session
                .tracer
                .attach_progress(i as u32, &path, at, p.latency)
                .map_err(|e| {
                    anyhow!(Exit(
                        1,
                        format!("--progress {}: {e} (is {} in {}?)", p.name, p.at, exe)
                    ))
                })?;
        }
    }
    let mut stacks = Stacks::new(StackOptions {
        source: true,
        stack_trace: 0,
        stack_bytes: 4096,
        skip: Vec::new(),
    });
    stacks.load_kernel_symbols();
    let mut col = Causal {
        page: &page,
        world: World::new(Default::default(), false, Some(stacks)),
        cwd: std::env::current_dir()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default(),
        exe,
        pid: pid as u32,
        text: Vec::new(),
        text_tried: None,
        lines: HashMap::new(),
        funcs: HashMap::new(),
        on_cpu: 0,
        sites: HashMap::new(),
        calls: HashMap::new(),
        blocked_ns: 0,
        forced: a.candidate.clone(),
        max_candidates: a.candidates.max(1),
        // end to end, the whole first run is the warm-up
        warmup: if end_to_end {
            Duration::MAX
        } else {
            Duration::from_millis(a.warmup_ms)
        },
        window: Duration::from_millis(a.experiment_ms),
        stop_after: a.duration.map(Duration::from_secs_f64),
        started: Instant::now(),
        seen: None,
        phase: Phase::Warmup,
        candidates: Vec::new(),
        left_out: Vec::new(),
        exps: Vec::new(),
        next: 0,
        current: None,
        signals_at_start: Vec::new(),
        cooling: None,
        points: progress.len(),
        latency: progress.iter().map(|p| p.latency).collect(),
        period_ns,
        speedups,
        first: None,
        stopped: Stopped::Ended,
        budget: None,
        suggested: Vec::new(),
    };
    session.release()?;
    session.run(&mut col)?;
    let mut lost = 0;
    let mut past_signals = 0;
    let mut run_notes = Vec::new();
    if end_to_end {
        session = runs(
            &mut col,
            &a,
            &launch,
            session,
            &mut lost,
            &mut past_signals,
            &mut run_notes,
        )?;
    }
    let elapsed = col.started.elapsed();
    let last = page.snapshot();
    if std::env::var_os("GENBA_DEBUG").is_some() {
        let (told, inherits, inherited) = page.debug_counts();
        eprintln!("genba: causal: {told} told to pay, {inherits} wakeups passed {inherited} ns on");
        for (tid, credit, paid, signals, pending) in page.threads() {
            eprintln!(
                "genba: causal thread {tid}: credit {credit} paid {paid} signals {signals} pending {pending}; G {}",
                last.delay
            );
        }
    }
    let signals = past_signals + page.owed(&|_| false).1;
    let stats = session.tracer.stats().map_err(|e| anyhow!(e))?;

    let title = if end_to_end {
        format!(
            "genba causal of {}: {:.3} s, a warm-up run and {} runs of one experiment each, {} Hz",
            a.command.join(" "),
            elapsed.as_secs_f64(),
            col.exps.len(),
            a.freq
        )
    } else {
        format!(
            "genba causal of {}: {:.3} s, {} experiments of {} ms, {} Hz",
            a.command.join(" "),
            elapsed.as_secs_f64(),
            col.exps.len(),
            a.experiment_ms,
            a.freq
        )
    };
    let delays = col.first.map(|f| {
        (
            last.delays - f.delays,
            last.slept - f.slept,
            last.asked - f.asked,
        )
    });
    let mut notes = Vec::new();
    if page.runtime_pid() == 0 && col.first.is_none() {
        notes.push(
            "the runtime never loaded in the program (a static binary, or it ended first): no experiment ran".to_string(),
        );
    } else if col.first.is_none() && end_to_end {
        if run_notes.is_empty() {
            notes.push(
                "no experiment ran: the warm-up run found no candidate (a line with 1% of its samples, a wait with 1% of its time off the CPU); --candidate names one".to_string(),
            );
        }
    } else if col.first.is_none() && col.phase == Phase::Done {
        notes.push(
            "no experiment ran: the warm-up found no candidate (a line with 1% of its samples, a wait with 1% of its time off the CPU); --candidate names one".to_string(),
        );
    } else if col.first.is_none() {
        notes.push(format!(
            "no experiment ran: the program ended within the warm-up ({} ms); --warmup-ms is shorter",
            a.warmup_ms
        ));
    } else if !end_to_end && col.exps.iter().all(|e| e.visits[0] == 0) {
        notes.push(format!(
            "no window saw a visit of {}: a window lasts until it has {MIN_VISITS} visits (at most 10 times --experiment-ms), and it had {} in all",
            progress[0].name,
            last.progress[0] - col.first.map_or(0, |f| f.progress[0])
        ));
    }
    notes.extend(run_notes);
    if stats.total_lost() + lost > 0 {
        notes.push(format!("{} events lost", stats.total_lost() + lost));
    }
    let (collisions, send_failed, not_ours) = page.faults();
    if not_ours > 0 {
        notes.push(format!(
            "{not_ours} times a thread owed a delay but was not told to pay: the program had changed its handler for signal {} (--signal chooses another); the predictions from then on lack those delays",
            a.signal
        ));
    }
    if collisions > 0 {
        notes.push(format!(
            "{collisions} times a thread took the delay slot of another (their tids equal modulo 4096): their counts restarted"
        ));
    }
    if send_failed > 0 {
        notes.push(format!(
            "{send_failed} signals telling a thread to pay could not be sent (told again later)"
        ));
    }
    let r = Report {
        col: &col,
        progress: &progress,
        title: &title,
        delays,
        signals,
        elapsed,
        notes: &notes,
    };
    let value = render_json(&r);
    let report = if json {
        value.to_string() + "\n"
    } else {
        render_text(&r)
    };
    match out_file.as_mut() {
        Some(f) => f
            .write_all(report.as_bytes())
            .context("writing the report")?,
        None => eprint!("{report}"),
    }
    if let Some(f) = html_file.as_mut() {
        genba_export::causal::causal_html(&value, f).context("writing the HTML report")?;
    }
    Ok(session.exit_code())
}

/// A run that is one experiment: when its program began (its exec) and
/// ended (its last thread's exit), on the events' clock.
struct RunSink {
    pid: u32,
    began: Option<u64>,
    ended: u64,
}

impl Sink for RunSink {
    fn event(&mut self, ev: &Event) {
        match ev {
            Event::Exec { ts, task, .. } if task.tgid == self.pid && self.began.is_none() => {
                self.began = Some(*ts);
            }
            Event::Exit { ts, task, .. } if task.tgid == self.pid => {
                self.ended = self.ended.max(*ts);
            }
            _ => {}
        }
    }
}

/// End to end (no progress point): the warm-up was the first run; it
/// chooses the candidates. Then the program runs again and again, each
/// run one experiment (a candidate at a speedup, every other run a
/// baseline) for its whole length, at the warm-up's addresses (genba runs
/// it without address-space randomization). Returns the last run's
/// session.
fn runs(
    col: &mut Causal,
    a: &CausalArgs,
    launch: &dyn Fn() -> Result<Session>,
    warmup: Session,
    lost: &mut u64,
    signals: &mut u64,
    notes: &mut Vec<String>,
) -> Result<Session> {
    let page = col.page;
    *lost += warmup.tracer.stats().map(|s| s.total_lost()).unwrap_or(0);
    if page.runtime_pid() == 0 {
        notes.push(
            "the runtime never loaded in the program (a static binary?): no experiment ran"
                .to_string(),
        );
        return Ok(warmup);
    }
    if warmup.exit_code() != 0 {
        notes.push(format!(
            "the warm-up run exited with status {}: no experiment ran",
            warmup.exit_code()
        ));
        return Ok(warmup);
    }
    col.choose();
    if col.candidates.is_empty() {
        return Ok(warmup);
    }
    let warm = col.started.elapsed().as_secs_f64();
    col.suggest();
    if !col.suggested.is_empty() {
        let said = format!(
            "no --progress: each run is one experiment; a progress point makes many a run, e.g. at the entry of the warm-up's hottest functions: {}",
            col.suggested.join(" ")
        );
        eprintln!("genba causal: {said}");
        notes.push(said);
    }
    let n = match a.runs {
        Some(n) => n,
        None => col.fit_budget(a.budget, warm),
    };
    eprintln!(
        "genba causal: the warm-up run took {warm:.3} s; {n} runs follow, one experiment each"
    );
    if let Some((_, _, p)) = &col.budget {
        let said = col.budget_said(p);
        eprintln!("genba causal: {said}");
        notes.push(said);
    }
    let (lo, hi) = col.text_range();
    col.first = Some(page.snapshot());
    col.phase = Phase::Running;
    let mut last = Some(warmup);
    for i in 0..n {
        if col.stop_after.is_some_and(|d| col.started.elapsed() >= d) {
            notes.push(format!("--duration reached: {i} of {n} runs done"));
            col.stopped = Stopped::Duration;
            break;
        }
        // one session at a time: two would count every delay twice
        drop(last.take());
        let (c, s) = col.planned(col.next);
        col.next += 1;
        // the signals of the run before, before its threads' slots go
        *signals += page.owed(&|_| false).1;
        page.reset_run();
        page.set_threshold(col.period_ns);
        page.set_text(lo, hi);
        page.set_quiet();
        page.set_active(true);
        page.begin(&col.candidates[c].spec, s);
        let start = page.snapshot();
        let t0 = Instant::now();
        let mut session = launch()?;
        let pid = session.child_pid().unwrap_or(0) as u32;
        let mut sink = RunSink {
            pid,
            began: None,
            ended: 0,
        };
        session.release()?;
        session.run(&mut sink)?;
        let wall = t0.elapsed().as_nanos() as u64;
        if page.runtime_pid() != pid {
            notes.push(format!(
                "run {}: the runtime did not load in the program: no further runs",
                i + 1
            ));
            page.end();
            page.set_active(false);
            last = Some(session);
            break;
        }
        let end = page.snapshot();
        page.end();
        page.set_active(false);
        let duration = match sink.began {
            Some(b) if sink.ended > b => sink.ended - b,
            _ => wall,
        };
        col.exps.push(Experiment {
            candidate: c,
            speedup: s,
            duration_ns: duration,
            delay_ns: end.delay.saturating_sub(start.delay),
            visits: vec![1],
            latency_ns: vec![None],
            hits: end.hits - start.hits,
            // the thread that ends the program pays what it owes first
            lag_ns: 0,
        });
        *lost += session.tracer.stats().map(|s| s.total_lost()).unwrap_or(0);
        let code = session.exit_code();
        last = Some(session);
        if code != 0 {
            notes.push(format!(
                "run {} exited with status {code}: no further runs",
                i + 1
            ));
            break;
        }
    }
    Ok(last.expect("a session"))
}

/// Each candidate's predictions for progress point `point`, most helpful
/// first, the candidates not tested last.
fn ranked(col: &Causal, point: usize) -> Vec<(usize, Vec<Point>, f64)> {
    let untested = col.untested();
    let is_untested = |c: usize| untested.iter().any(|(u, _)| *u == c);
    let mut rows: Vec<(usize, Vec<Point>, f64)> = (0..col.candidates.len())
        .map(|c| {
            let p = estimate::predict(&col.exps, c, point);
            let s = estimate::slope(&p);
            (c, p, s)
        })
        .collect();
    rows.sort_by(|a, b| {
        is_untested(a.0)
            .cmp(&is_untested(b.0))
            .then(b.2.total_cmp(&a.2))
    });
    rows
}

impl Causal<'_> {
    /// The candidates the experiments could not test, with the reason.
    fn untested(&self) -> Vec<(usize, String)> {
        (0..self.candidates.len())
            .filter_map(|c| coverage::why_untested(&self.exps, c, self.stopped).map(|w| (c, w)))
            .collect()
    }

    /// Candidate `c`'s experiments (above 0%) and the hits they saw.
    fn tried(&self, c: usize) -> (usize, u64) {
        self.exps
            .iter()
            .filter(|e| e.candidate == c && e.speedup > 0)
            .fold((0, 0), |(n, h), e| (n + 1, h + e.hits))
    }
}

fn pct(x: f64) -> String {
    format!("{:+.1}%", x * 100.0)
}

/// What a report says, beside the experiments.
struct Report<'a> {
    col: &'a Causal<'a>,
    progress: &'a [Progress],
    title: &'a str,
    /// Delays taken, ns slept, ns asked (from the first experiment on).
    delays: Option<(u64, u64, u64)>,
    signals: u64,
    elapsed: Duration,
    notes: &'a [String],
}

fn render_text(r: &Report) -> String {
    use std::fmt::Write as _;
    let Report {
        col,
        progress,
        title,
        delays,
        signals,
        elapsed,
        notes,
    } = *r;
    let mut s = String::new();
    let _ = writeln!(s, "{title}");
    if let Some((n, ns, asked)) = delays {
        let _ = writeln!(
            s,
            "delays: {n} taken ({signals} signals), {:.3} s in all, {:.1}% of the run; a delay slept {:.1} us more than it was asked",
            ns as f64 / 1e9,
            ns as f64 / elapsed.as_nanos().max(1) as f64 * 100.0,
            ns.saturating_sub(asked) as f64 / n.max(1) as f64 / 1e3
        );
    }
    for (i, p) in progress.iter().enumerate() {
        let base = estimate::baseline(&col.exps, i);
        let _ = writeln!(
            s,
            "\nprogress point {} ({}): {}",
            p.name,
            p.at,
            match (base, p.measure()) {
                (Some(b), Measure::Run) => format!("a run took {:.3} s in the baselines", b / 1e9),
                (None, Measure::Run) => "no baseline run".into(),
                (Some(b), Measure::Throughput) => {
                    format!("{:.1} visits/s in the baselines", 1e9 / b)
                }
                (Some(b), Measure::Latency) => {
                    format!("{:.3} ms a call in the baselines", b / 1e6)
                }
                (None, Measure::Throughput) => {
                    "no baseline (no visits in the baseline windows)".into()
                }
                (None, Measure::Latency) => {
                    "no baseline (no call returned in the baseline windows)".into()
                }
            }
        );
        let _ = writeln!(
            s,
            "  {:<40} {:>7}  {} at candidate speedup (95% CI)",
            "candidate",
            "impact",
            if p.measure() == Measure::Latency {
                "latency shorter by"
            } else {
                "program speedup"
            }
        );
        let untested = col.untested();
        for (c, points, slope) in ranked(col, i) {
            if untested.iter().any(|(u, _)| *u == c) {
                let _ = writeln!(
                    s,
                    "  {:<40} {:>7}  not tested (below)",
                    col.candidates[c].label, "-"
                );
                continue;
            }
            let cells: Vec<String> = points
                .iter()
                .filter(|p| p.speedup > 0)
                .map(|p| {
                    format!(
                        "{}%: {} ±{:.1} (n={})",
                        p.speedup,
                        pct(p.program_speedup),
                        p.ci95 * 100.0,
                        p.experiments
                    )
                })
                .collect();
            let _ = writeln!(
                s,
                "  {:<40} {:>7}  {}",
                col.candidates[c].label,
                format!("{slope:.2}"),
                if cells.is_empty() {
                    "(no experiment yet)".to_string()
                } else {
                    cells.join("  ")
                }
            );
        }
    }
    let _ = writeln!(
        s,
        "\nimpact: program speedup per unit of candidate speedup (1.00: making it 10% faster makes the program 10% faster)"
    );
    let unusable = col.exps.iter().filter(|e| !estimate::usable(e)).count();
    if unusable > 0 {
        let _ = writeln!(
            s,
            "set aside: {unusable} experiments whose virtual time was under {} times the delay still owed at their end (a candidate a thread spends nearly all its time in, at a high speedup)",
            estimate::LAG_FACTOR
        );
    }
    for (l, why) in &col.left_out {
        let _ = writeln!(s, "not tested: {l}: {why}");
    }
    for (c, why) in col.untested() {
        let _ = writeln!(s, "not tested: {}: {why}", col.candidates[c].label);
    }
    for n in notes {
        let _ = writeln!(s, "genba: {n}");
    }
    s
}

fn render_json(r: &Report) -> serde_json::Value {
    let Report {
        col,
        progress,
        title,
        delays,
        signals,
        elapsed,
        notes,
    } = *r;
    let untested = col.untested();
    let points: Vec<serde_json::Value> = progress
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let rows: Vec<serde_json::Value> = ranked(col, i)
                .into_iter()
                .map(|(c, pts, slope)| {
                    let (n, hits) = col.tried(c);
                    serde_json::json!({
                        "candidate": col.candidates[c].label,
                        "tested": !untested.iter().any(|(u, _)| *u == c),
                        "experiments": n,
                        "hits": hits,
                        "kind": match col.candidates[c].spec {
                            Spec::OnCpu(_) => "on-cpu",
                            Spec::OffCpu { .. } => "off-cpu",
                        },
                        "impact": slope,
                        "points": pts,
                    })
                })
                .collect();
            let base = estimate::baseline(&col.exps, i);
            let m = p.measure();
            serde_json::json!({
                "name": p.name,
                "at": p.at,
                "kind": match m {
                    Measure::Run => "run",
                    Measure::Latency => "latency",
                    Measure::Throughput => "throughput",
                },
                "baseline_visits_per_s": base.filter(|_| m == Measure::Throughput).map(|b| 1e9 / b),
                "baseline_latency_ns": base.filter(|_| m == Measure::Latency),
                "baseline_run_ns": base.filter(|_| m == Measure::Run),
                "candidates": rows,
            })
        })
        .collect();
    let v = serde_json::json!({
        "title": title,
        "elapsed_ns": elapsed.as_nanos() as u64,
        "experiments": col.exps,
        "candidates": col.candidates.iter().map(|c| c.label.clone()).collect::<Vec<_>>(),
        "progress": points,
        "delays": delays.map(|(n, ns, asked)| serde_json::json!({"taken": n, "ns": ns, "asked_ns": asked, "signals": signals})),
        "not_tested": col
            .left_out
            .iter()
            .map(|(l, w)| serde_json::json!({"candidate": l, "why": w}))
            .chain(untested.iter().map(|(c, w)| {
                let (n, hits) = col.tried(*c);
                serde_json::json!({
                    "candidate": col.candidates[*c].label,
                    "why": w,
                    "experiments": n,
                    "hits": hits,
                })
            }))
            .collect::<Vec<_>>(),
        "notes": notes,
        "suggested_progress": col.suggested,
        "budget": col.budget.as_ref().map(|(b, w, p)| serde_json::json!({
            "seconds": b,
            "run_s": w,
            "allowed_runs": p.allowed,
            "runs": p.runs,
            "planned_runs": p.full,
            "speedups": p.speedups,
            "dropped_speedups": p.dropped_speedups,
            "second_runs_dropped": p.reps < 2,
        })),
    });
    v
}

impl Causal<'_> {
    /// End to end, within `budget_s` seconds in all: the runs that fit,
    /// after a warm-up run of `warm_s`. Drops what does not fit (the
    /// candidates dropped go to `left_out`) and keeps the plan to say it.
    fn fit_budget(&mut self, budget_s: f64, warm_s: f64) -> usize {
        let allowed = budget::allowed(budget_s, warm_s);
        let plan = budget::fit(allowed, self.candidates.len(), &self.speedups);
        if plan.runs == plan.full {
            return plan.runs;
        }
        let why = format!(
            "dropped to keep within --budget {budget_s} s (a run takes about {warm_s:.1} s)"
        );
        for c in self.candidates.drain(plan.candidates..) {
            self.left_out.push((c.label, why.clone()));
        }
        self.speedups = plan.speedups.clone();
        let n = plan.runs;
        self.budget = Some((budget_s, warm_s, plan));
        n
    }

    /// What the budget cut, in a sentence.
    fn budget_said(&self, p: &budget::Plan) -> String {
        let Some((budget_s, warm_s, _)) = self.budget else {
            return String::new();
        };
        let mut dropped = Vec::new();
        if p.reps < 2 {
            dropped.push("the second run of each candidate and speedup".to_string());
        }
        if !p.dropped_speedups.is_empty() {
            let s: Vec<String> = p.dropped_speedups.iter().map(|s| format!("{s}%")).collect();
            dropped.push(format!("speedups {}", s.join(", ")));
        }
        let gone: Vec<&str> = self
            .left_out
            .iter()
            .filter(|(_, w)| w.starts_with("dropped to keep within --budget"))
            .map(|(l, _)| l.as_str())
            .collect();
        if !gone.is_empty() {
            dropped.push(format!("candidates {}", gone.join(", ")));
        }
        format!(
            "--budget {budget_s} s: a run takes about {warm_s:.1} s, so {} runs fit after the warm-up: {} runs of the {} planned; dropped: {}",
            p.allowed,
            p.runs,
            p.full,
            dropped.join("; ")
        )
    }

    /// Progress points to suggest when none was given: the entries of the
    /// warm-up's hottest functions (main aside: it is entered once), each
    /// one a uprobe can hold.
    fn suggest(&mut self) {
        let mut funcs: Vec<(&String, u64)> =
            self.funcs.iter().map(|(k, v)| (k, v.samples)).collect();
        funcs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let mut out = Vec::new();
        for (f, _) in funcs {
            if out.len() == 3 {
                break;
            }
            if f == "main"
                || f.is_empty()
                || !f
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '.')
            {
                continue;
            }
            match genba_symbolize::function_entry(&self.exe, f) {
                Ok(Some((_, bytes))) if !genba_symbolize::lock_prefixed(&bytes) => {
                    out.push(format!("--progress {f}={f}"));
                }
                _ => {}
            }
        }
        self.suggested = out;
    }
}
