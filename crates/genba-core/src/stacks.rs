//! Where a call came from: the call site (`--source`) and the stack (`-k`),
//! from the registers and stack copy taken at syscall entry.

use std::fmt::Write;

use genba_events::{CaptureItem, SyscallEnter};
use genba_symbolize::{is_runtime, SourceFrame, Stack, StackResolver};

/// What the user asked to see.
pub struct StackOptions {
    /// `--source`: the first frame of the user's own code.
    pub source: bool,
    /// `-k` (1) and `-kk` (2).
    pub stack_trace: u8,
    /// `--stack-bytes`: how much of each stack BPF copies.
    pub stack_bytes: u32,
    /// `--source-skip`: more frames to skip when looking for the call site.
    pub skip: Vec<regex::Regex>,
}

/// Unwinds, symbolizes and renders stacks.
pub struct Stacks {
    pub opts: StackOptions,
    resolver: StackResolver,
    kernel: Option<Kallsyms>,
    cwd: String,
    /// CLOCK_REALTIME - CLOCK_MONOTONIC (event times are monotonic).
    realtime_offset: i64,
    /// Calls whose site was not found because their stack was deeper than
    /// the copy (`--stack-bytes`).
    pub short_stacks: u64,
    /// Stacks shown by -k that the copy cut short (marked `(stack too deep)`).
    pub cut_stacks: u64,
    /// Processes seen first in the middle of their life (the whole system,
    /// -a) have their mappings read from /proc when first met: those tried.
    lazy: Option<std::collections::HashSet<u32>>,
}

/// A call's stacks, resolved when its entry was seen.
#[derive(Debug, Clone, Default)]
pub struct CallStacks {
    pub user: Stack,
    pub kernel: Vec<u64>,
    /// The unwind ran off the end of the stack copy.
    pub truncated: bool,
    /// The innermost frame was looked up at its address minus one (the
    /// return address of a `syscall` instruction), as caller frames are.
    pub ip_returns: bool,
}

impl Stacks {
    pub fn new(opts: StackOptions) -> Self {
        let kernel = (opts.stack_trace >= 2).then(Kallsyms::load);
        let cwd = std::env::current_dir()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        Stacks {
            opts,
            resolver: StackResolver::new(),
            kernel,
            cwd,
            realtime_offset: crate::realtime_offset(),
            short_stacks: 0,
            cut_stacks: 0,
            lazy: None,
        }
    }

    /// Reads a process's mappings from /proc the first time one of its
    /// stacks is met, when neither its exec nor an attach said them (-a).
    pub fn load_unknown_processes(&mut self) {
        self.lazy = Some(Default::default());
    }

    /// A process replaced its program with `exe` (None: unknown) at `ts`.
    pub fn exec(&mut self, tgid: u32, exe: Option<&str>, auxv: &[(u64, u64)], ts: u64) {
        let at = (ts as i64).saturating_add(self.realtime_offset);
        match exe {
            Some(exe) => self.resolver.exec(tgid, exe, auxv, at),
            None => self.resolver.forget(tgid),
        }
    }

    /// A successful mmap (`path` None: anonymous memory).
    pub fn mmap(
        &mut self,
        tgid: u32,
        addr: u64,
        len: u64,
        prot: u64,
        path: Option<&str>,
        offset: u64,
    ) {
        self.resolver.mmap(tgid, addr, len, prot, path, offset);
    }

    /// Reads what a process genba did not see start has mapped (`-p`).
    pub fn load_process(&mut self, pid: u32) {
        self.resolver.load_process(pid);
    }

    /// A successful munmap.
    pub fn munmap(&mut self, tgid: u32, addr: u64, len: u64) {
        self.resolver.munmap(tgid, addr, len);
    }

    /// A new process (not a thread) with its parent's mappings.
    pub fn fork(&mut self, parent: u32, child: u32) {
        self.resolver.fork(parent, child);
    }

    /// Resolves the stacks captured at `e`'s entry.
    pub fn resolve(&mut self, e: &SyscallEnter) -> Option<CallStacks> {
        let regs = e
            .captures
            .iter()
            .find(|c| c.item == CaptureItem::Regs && c.data.len() >= 24)?;
        let word = |k: usize| {
            u64::from_le_bytes(regs.data[k * 8..k * 8 + 8].try_into().unwrap_or_default())
        };
        let (ip, sp, bp) = (word(0), word(1), word(2));
        let stack = e
            .captures
            .iter()
            .find(|c| c.item == CaptureItem::UserStack)
            .map(|c| c.data.as_slice())
            .unwrap_or(&[]);
        let kernel = e
            .captures
            .iter()
            .find(|c| c.item == CaptureItem::KernelStack && !c.fault)
            .map(|c| {
                c.data
                    .chunks_exact(8)
                    .map(|w| u64::from_le_bytes(w.try_into().unwrap_or_default()))
                    .filter(|&a| a != 0)
                    .collect()
            })
            .unwrap_or_default();
        // at syscall entry ip is the instruction after `syscall`
        Some(self.resolve_regs(e.task.tgid, [ip, sp, bp], stack, kernel, true))
    }

    /// Unwinds and symbolizes a user stack copied at `regs` (ip, sp, bp);
    /// `ip_returns`: ip is the return address of a `syscall` instruction
    /// (else the instruction a sample interrupted).
    pub fn resolve_regs(
        &mut self,
        tgid: u32,
        regs: [u64; 3],
        stack: &[u8],
        kernel: Vec<u64>,
        ip_returns: bool,
    ) -> CallStacks {
        let [ip, sp, bp] = regs;
        if let Some(tried) = &mut self.lazy {
            if !self.resolver.knows(tgid) && tried.insert(tgid) {
                self.resolver.load_process(tgid);
            }
        }
        let user = self.resolver.stack(tgid, ip, sp, bp, stack, ip_returns);
        // cut off: the unwind ran past the copy, the copy was as long as
        // asked for (a shorter one ended at the top of the stack), and the
        // stack is not the dynamic loader's own start-up (its frames alone,
        // however deep, are the runtime's)
        let truncated = self.resolver.last_unwind_truncated()
            && stack.len() + 512 > self.opts.stack_bytes as usize
            && !user.iter().flat_map(|f| f.iter()).all(|f| {
                let m = f.module.rsplit('/').next().unwrap_or(&f.module);
                m.starts_with("ld-linux") || m.starts_with("ld64.so")
            });
        let cs = CallStacks {
            user,
            kernel,
            truncated,
            ip_returns,
        };
        if truncated && self.site(&cs).is_none() {
            self.short_stacks += 1;
        }
        if truncated && self.opts.stack_trace > 0 {
            self.cut_stacks += 1;
        }
        cs
    }

    /// The source frames of one address of process `tgid`.
    pub fn symbolize(&mut self, tgid: u32, addr: u64) -> genba_symbolize::Frames {
        self.resolver.symbolize(tgid, addr)
    }

    /// The GNU build-id of a file the stacks went through.
    pub fn build_id(&self, path: &str) -> Option<&[u8]> {
        self.resolver.build_id(path)
    }

    /// The kernel function an address is in, as a name (`Err`: the address
    /// itself, where no symbol covers it or no symbols were loaded).
    pub fn kernel_function(&self, addr: u64) -> Result<&str, String> {
        self.kernel
            .as_ref()
            .and_then(|k| k.symbol(addr))
            .ok_or_else(|| format!("{addr:#x}"))
    }

    /// Loads the kernel's symbols (for kernel frames of profile samples).
    pub fn load_kernel_symbols(&mut self) {
        if self.kernel.is_none() {
            self.kernel = Some(Kallsyms::load());
        }
    }

    fn skipped(&self, f: &SourceFrame) -> bool {
        is_runtime(f)
            || self.opts.skip.iter().any(|re| {
                re.is_match(&f.module)
                    || f.function.as_deref().is_some_and(|n| re.is_match(n))
                    || f.file.as_deref().is_some_and(|n| re.is_match(n))
            })
    }

    /// The call site: the first frame of the user's own code. Frames with a
    /// source line win over those without (in a static binary the C library
    /// is inside the program, but has no line information).
    pub fn site<'a>(&self, s: &'a CallStacks) -> Option<&'a SourceFrame> {
        let frames = || s.user.iter().flat_map(|f| f.iter());
        frames()
            .find(|f| !self.skipped(f) && f.line.is_some())
            .or_else(|| frames().find(|f| !self.skipped(f)))
    }

    /// The call site's text; for a call with no frame of the program's own
    /// (the dynamic loader at start-up, a language runtime), the outermost
    /// function, marked `(runtime)`.
    pub fn site_label(&self, s: &CallStacks) -> String {
        match self.site(s) {
            Some(f) => self.site_text(f),
            None if s.truncated => {
                // the program's frames were past the copied bytes: unknown,
                // not the runtime's
                let inner = s
                    .user
                    .iter()
                    .flat_map(|f| f.iter())
                    .rev()
                    .find(|f| f.function.is_some());
                match inner {
                    Some(f) => format!("(stack too deep) {}", self.site_text(f)),
                    None => "(stack too deep)".to_string(),
                }
            }
            None => match s
                .user
                .iter()
                .flat_map(|f| f.iter())
                .rev()
                .find(|f| f.function.is_some())
            {
                // no frame of the program's own: the loader or a language runtime
                Some(f) => format!("(runtime) {}", self.site_text(f)),
                None => "(runtime)".to_string(),
            },
        }
    }

    /// `src/loader.c:42 load_table`, or `prog+0x1234` without line information.
    pub fn site_text(&self, f: &SourceFrame) -> String {
        site_text(f, &self.cwd)
    }

    /// strace -k's lines (` > /lib/libc.so.6(__write+0x10) [0xf8350]`), each
    /// with the source location when there is one.
    pub fn stack_lines(&self, s: &CallStacks, out: &mut String) {
        // caller frames (and the innermost one at a syscall entry) were
        // looked up at their return address - 1 (inside the call);
        // strace -k prints the return address itself
        let first = u64::from(s.ip_returns);
        let frames = s
            .user
            .iter()
            .enumerate()
            .flat_map(|(i, f)| f.iter().map(move |f| (if i > 0 { 1 } else { first }, f)));
        for (ra_adjust, f) in frames {
            let _ = write!(out, " > {}(", f.module);
            if let Some(n) = &f.function {
                out.push_str(n);
                if let (Some(o), false) = (f.function_offset, f.inlined) {
                    let _ = write!(out, "+{:#x}", o + ra_adjust);
                }
            }
            let _ = write!(out, ") [{:#x}]", f.file_offset + ra_adjust);
            if let (Some(file), Some(line)) = (&f.file, f.line) {
                let _ = write!(out, " {}:{line}", relative(file, &self.cwd));
            }
            if f.inlined {
                out.push_str(" (inlined)");
            }
            out.push('\n');
        }
        if s.truncated {
            // the outer frames were past the copied bytes: say so rather
            // than pass a cut stack for a whole one
            out.push_str(" > (stack too deep)\n");
        }
        if let Some(k) = &self.kernel {
            for &a in &s.kernel {
                let name = k.name(a);
                // genba's own BPF program and the tracepoint plumbing
                let ours = [
                    "bpf_prog_",
                    "bpf_trace_run",
                    "__bpf_trace",
                    "__traceiter",
                    "syscall_trace_enter",
                ];
                if ours.iter().any(|p| name.starts_with(p)) {
                    continue;
                }
                let _ = writeln!(out, " > [kernel]({name}) [{a:#x}]");
            }
        }
    }
}

/// Kernel symbols from /proc/kallsyms, for -kk.
struct Kallsyms {
    syms: Vec<(u64, String)>,
}

impl Kallsyms {
    fn load() -> Kallsyms {
        let mut syms: Vec<(u64, String)> = std::fs::read_to_string("/proc/kallsyms")
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                let mut it = l.split_whitespace();
                let a = u64::from_str_radix(it.next()?, 16).ok()?;
                let _ty = it.next()?;
                Some((a, it.next()?.to_string()))
            })
            .filter(|(a, _)| *a != 0)
            .collect();
        syms.sort();
        Kallsyms { syms }
    }

    /// The symbol `addr` is in; None before the first or far past the
    /// nearest (code kallsyms does not list, as a BPF trampoline).
    fn symbol(&self, addr: u64) -> Option<&str> {
        match self.syms.partition_point(|(a, _)| *a <= addr) {
            0 => None,
            i if addr - self.syms[i - 1].0 > 1 << 20 => None,
            i => Some(&self.syms[i - 1].1),
        }
    }

    fn name(&self, addr: u64) -> String {
        match self.syms.partition_point(|(a, _)| *a <= addr) {
            0 => format!("{addr:#x}"),
            // far past the nearest symbol: code kallsyms does not list (a
            // BPF trampoline), not the end of the last function
            i if addr - self.syms[i - 1].0 > 1 << 20 => format!("{addr:#x}"),
            i => {
                let (a, n) = &self.syms[i - 1];
                format!("{n}+{:#x}", addr - a)
            }
        }
    }
}

/// The summary by (syscall, call site): `-c --source`.
#[derive(Debug, Default)]
pub struct SiteTable {
    rows: std::collections::HashMap<(u32, String), SiteRow>,
}

#[derive(Debug, Default, Clone, Copy)]
struct SiteRow {
    calls: u64,
    errors: u64,
    ns: u64,
}

impl SiteTable {
    /// Counts one completed call of syscall `nr` from `site`.
    pub fn add(&mut self, nr: u32, site: &str, ns: u64, failed: bool) {
        let r = self.rows.entry((nr, site.to_string())).or_default();
        r.calls += 1;
        r.errors += u64::from(failed);
        r.ns += ns;
    }

    /// (syscall, site, calls, errors, ns) for every row.
    pub fn rows(&self) -> Vec<(u32, String, u64, u64, u64)> {
        let mut v: Vec<_> = self
            .rows
            .iter()
            .map(|((nr, site), r)| (*nr, site.clone(), r.calls, r.errors, r.ns))
            .collect();
        v.sort_by(|a, b| b.4.cmp(&a.4).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
        v
    }

    /// Renders the table: each syscall (by time, as strace's table), and
    /// under it where its calls came from with their share of its time.
    pub fn render(&self, name: impl Fn(u32) -> String) -> String {
        let mut by_sys: std::collections::HashMap<u32, Vec<(&String, SiteRow)>> =
            Default::default();
        for ((nr, site), r) in &self.rows {
            by_sys.entry(*nr).or_default().push((site, *r));
        }
        let total_ns: u64 = self.rows.values().map(|r| r.ns).sum();
        // (syscall, its totals, its sites)
        type Group<'a> = (u32, SiteRow, Vec<(&'a String, SiteRow)>);
        let mut syscalls: Vec<Group<'_>> = by_sys
            .into_iter()
            .map(|(nr, mut sites)| {
                sites.sort_by(|a, b| {
                    b.1.ns
                        .cmp(&a.1.ns)
                        .then(b.1.calls.cmp(&a.1.calls))
                        .then(a.0.cmp(b.0))
                });
                let sum = sites
                    .iter()
                    .fold(SiteRow::default(), |acc, (_, r)| SiteRow {
                        calls: acc.calls + r.calls,
                        errors: acc.errors + r.errors,
                        ns: acc.ns + r.ns,
                    });
                (nr, sum, sites)
            })
            .collect();
        syscalls.sort_by(|a, b| b.1.ns.cmp(&a.1.ns).then(name(a.0).cmp(&name(b.0))));
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\ncalls by site (where in the program each syscall's time comes from):"
        );
        let _ = writeln!(
            out,
            "% time     seconds  usecs/call     calls    errors syscall / share  call site"
        );
        let _ = writeln!(
            out,
            "------ ----------- ----------- --------- --------- --------------------------------"
        );
        let cols = |out: &mut String, r: &SiteRow| {
            let errors = if r.errors == 0 {
                String::new()
            } else {
                r.errors.to_string()
            };
            let _ = write!(
                out,
                "{:11.6} {:11} {:9} {:>9} ",
                r.ns as f64 / 1e9,
                r.ns.checked_div(r.calls).unwrap_or(0) / 1000,
                r.calls,
                errors
            );
        };
        for (nr, sum, sites) in &syscalls {
            let pct = if total_ns == 0 {
                0.0
            } else {
                100.0 * sum.ns as f64 / total_ns as f64
            };
            let _ = write!(out, "{pct:6.2} ");
            cols(&mut out, sum);
            let _ = writeln!(out, "{}", name(*nr));
            for (site, r) in sites {
                let share = if sum.ns == 0 {
                    100.0 * r.calls as f64 / sum.calls.max(1) as f64
                } else {
                    100.0 * r.ns as f64 / sum.ns as f64
                };
                out.push_str("       ");
                cols(&mut out, r);
                let _ = writeln!(out, "  {share:5.1}%  {site}");
            }
        }
        out
    }
}

/// `path` relative to `cwd` when it is under it.
pub fn relative<'a>(p: &'a str, cwd: &str) -> &'a str {
    match p.strip_prefix(cwd).and_then(|r| r.strip_prefix('/')) {
        Some(rel) if !cwd.is_empty() => rel,
        _ => p,
    }
}

/// `src/loader.c:42 load_table` (the file relative to `cwd`), or
/// `prog+0x1234` without line information.
pub fn site_text(f: &SourceFrame, cwd: &str) -> String {
    let func = f.function.as_deref().unwrap_or("??");
    match (&f.file, f.line) {
        (Some(file), Some(line)) => {
            let inl = if f.inlined { " (inlined)" } else { "" };
            format!("{}:{line} {func}{inl}", relative(file, cwd))
        }
        _ => {
            let module = f.module.rsplit('/').next().unwrap_or(&f.module);
            match (&f.function, f.function_offset) {
                (Some(n), Some(o)) => format!("{module}({n}+{o:#x})"),
                // read back from a recording: the function, not its offset
                (Some(n), None) => format!("{module}({n})"),
                _ => format!("{module}+{:#x}", f.file_offset),
            }
        }
    }
}

/// The call site of a stack read back from a recording (user frames,
/// innermost first), by the rule [`Stacks::site_label`] follows live: the
/// first frame of the program's own code, one with a line first.
pub fn site_of(user: &[SourceFrame], cwd: &str) -> String {
    let own = || user.iter().filter(|f| !is_runtime(f));
    if let Some(f) = own().find(|f| f.line.is_some()).or_else(|| own().next()) {
        return site_text(f, cwd);
    }
    match user.iter().rev().find(|f| f.function.is_some()) {
        Some(f) => format!("(runtime) {}", site_text(f, cwd)),
        None => "(runtime)".to_string(),
    }
}
