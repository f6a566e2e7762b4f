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
    /// `--source-skip`: more frames to skip when looking for the call site.
    pub skip: Vec<regex::Regex>,
}

/// Unwinds, symbolizes and renders stacks.
pub struct Stacks {
    pub opts: StackOptions,
    resolver: StackResolver,
    kernel: Option<Kallsyms>,
    cwd: String,
}

/// A call's stacks, resolved when its entry was seen.
#[derive(Debug, Clone, Default)]
pub struct CallStacks {
    pub user: Stack,
    pub kernel: Vec<u64>,
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
        }
    }

    /// A process replaced its program with `exe` (None: unknown).
    pub fn exec(&mut self, tgid: u32, exe: Option<&str>, auxv: &[(u64, u64)]) {
        match exe {
            Some(exe) => self.resolver.exec(tgid, exe, auxv),
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
        let user = self.resolver.stack(e.task.tgid, ip, sp, bp, stack);
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
        Some(CallStacks { user, kernel })
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

    fn path<'a>(&self, p: &'a str) -> &'a str {
        match p
            .strip_prefix(self.cwd.as_str())
            .and_then(|r| r.strip_prefix('/'))
        {
            Some(rel) if !self.cwd.is_empty() => rel,
            _ => p,
        }
    }

    /// `src/loader.c:42 load_table`, or `prog+0x1234` without line information.
    pub fn site_text(&self, f: &SourceFrame) -> String {
        let func = f.function.as_deref().unwrap_or("??");
        match (&f.file, f.line) {
            (Some(file), Some(line)) => {
                let inl = if f.inlined { " (inlined)" } else { "" };
                format!("{}:{line} {func}{inl}", self.path(file))
            }
            _ => {
                let module = f.module.rsplit('/').next().unwrap_or(&f.module);
                match (&f.function, f.function_offset) {
                    (Some(n), Some(o)) => format!("{module}({n}+{o:#x})"),
                    _ => format!("{module}+{:#x}", f.file_offset),
                }
            }
        }
    }

    /// strace -k's lines (` > /lib/libc.so.6(__write+0x10) [0xf8350]`), each
    /// with the source location when there is one.
    pub fn stack_lines(&self, s: &CallStacks, out: &mut String) {
        for f in s.user.iter().flat_map(|f| f.iter()) {
            let _ = write!(out, " > {}(", f.module);
            if let Some(n) = &f.function {
                out.push_str(n);
                if let (Some(o), false) = (f.function_offset, f.inlined) {
                    let _ = write!(out, "+{o:#x}");
                }
            }
            let _ = write!(out, ") [{:#x}]", f.file_offset);
            if let (Some(file), Some(line)) = (&f.file, f.line) {
                let _ = write!(out, " {}:{line}", self.path(file));
            }
            if f.inlined {
                out.push_str(" (inlined)");
            }
            out.push('\n');
        }
        if let Some(k) = &self.kernel {
            for &a in &s.kernel {
                let _ = writeln!(out, " > [kernel]({}) [{a:#x}]", k.name(a));
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

    fn name(&self, addr: u64) -> String {
        match self.syms.partition_point(|(a, _)| *a <= addr) {
            0 => format!("{addr:#x}"),
            i => {
                let (a, n) = &self.syms[i - 1];
                format!("{n}+{:#x}", addr - a)
            }
        }
    }
}
