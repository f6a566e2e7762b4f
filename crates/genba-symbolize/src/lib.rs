//! From a syscall's registers and a copy of its user stack to the lines of
//! source that made the call.
//!
//! Unwinding uses DWARF call-frame information (`.eh_frame`, `.debug_frame`)
//! through framehop, because Debian's libc and optimised builds keep no frame
//! pointers; symbolization uses blazesym, which reads DWARF line tables and
//! inlined-function records, demangles C++ and Rust, and finds separate debug
//! files by build-id and `.gnu_debuglink`. What a process has mapped comes
//! from `/proc/PID/maps`, read when the process is first seen and again when
//! an address falls outside everything known.
#![deny(missing_docs)]

mod elf;
mod maps;

use std::collections::HashMap;
use std::sync::Arc;

use blazesym::symbolize::{self as bz, Input, Symbolized};
use framehop::x86_64::{CacheX86_64, UnwindRegsX86_64, UnwinderX86_64};
use framehop::{FrameAddress, Unwinder};

pub use maps::{parse_maps, MapEntry};

use elf::{ElfInfo, SectionBytes};
use maps::LoadedModule;

/// One frame as the source shows it. An address inside inlined code yields
/// several: the inlined functions first (innermost first), then the function
/// the code was inlined into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFrame {
    /// Offset of the looked-up address (for a caller frame: its return
    /// address - 1) in its file (what strace -k prints in brackets).
    pub file_offset: u64,
    /// The mapped file (`/usr/lib/x86_64-linux-gnu/libc.so.6`).
    pub module: String,
    /// Demangled function name, if any symbol covers the address.
    pub function: Option<String>,
    /// Offset of `addr` from the start of `function`'s symbol.
    pub function_offset: Option<u64>,
    /// Source file, when debug information has it.
    pub file: Option<String>,
    /// Line in `file`.
    pub line: Option<u32>,
    /// This frame is a function inlined into the next one.
    pub inlined: bool,
}

/// The source frames of one address, shared between every call that
/// passes through it (symbolization results are cached per file offset).
pub type Frames = std::rc::Rc<[SourceFrame]>;

/// A stack: each physical frame's source frames, innermost first.
pub type Stack = Vec<Frames>;

struct Process {
    /// Mappings followed from exec and mmap/munmap; `None` when only
    /// /proc knows them (a process attached to, not started, under genba).
    tracked: Option<Vec<MapEntry>>,
    modules: Vec<LoadedModule>,
    unwinder: UnwinderX86_64<SectionBytes>,
    /// framehop's rule cache: per process, as it is keyed by address.
    cache: CacheX86_64,
    /// The mappings changed since `modules` and `unwinder` were built.
    dirty: bool,
    refreshed_for_miss: bool,
}

impl Process {
    fn empty() -> Process {
        Process {
            tracked: None,
            modules: Vec::new(),
            unwinder: UnwinderX86_64::new(),
            cache: CacheX86_64::new(),
            dirty: true,
            refreshed_for_miss: false,
        }
    }
}

const PAGE: u64 = 4096;

/// `GENBA_DEBUG_UNWIND=1`: say on stderr why each unwind ended early (a
/// framehop error, or a frame outside every module).
fn debug_unwind() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("GENBA_DEBUG_UNWIND").is_some())
}

/// Removes `[start, end)` from a mapping list, splitting what it cuts.
fn unmap(entries: &mut Vec<MapEntry>, start: u64, end: u64) {
    let mut out = Vec::with_capacity(entries.len() + 1);
    for e in entries.drain(..) {
        if e.end <= start || e.start >= end {
            out.push(e);
            continue;
        }
        if e.start < start {
            out.push(MapEntry {
                end: start,
                ..e.clone()
            });
        }
        if e.end > end {
            out.push(MapEntry {
                start: end,
                offset: e.offset + (end - e.start),
                ..e.clone()
            });
        }
    }
    *entries = out;
}

/// Unwinds and symbolizes the stacks of traced processes.
pub struct StackResolver {
    procs: HashMap<u32, Process>,
    elfs: HashMap<String, Option<Arc<ElfInfo>>>,
    symbolizer: bz::Symbolizer,
    symbols: HashMap<(u32, u64), Frames>,
    path_ids: HashMap<String, u32>,
    /// The next module id (ids are never reused: symbols are cached by id).
    next_id: u32,
    canonical: HashMap<String, String>,
    /// Every file read for unwinding, held open: a binary deleted or
    /// replaced (rebuilt) while its process runs is still read as it was.
    pins: HashMap<String, std::fs::File>,
    /// Whether the last unwind ran off the end of the stack copy (the
    /// caller's frame was deeper than the bytes BPF copied).
    last_truncated: bool,
    /// Where to read a file /proc shows as "PATH (deleted)": its
    /// /proc/PID/map_files entry.
    deleted: HashMap<String, String>,
}

impl Default for StackResolver {
    fn default() -> Self {
        Self::new()
    }
}

impl StackResolver {
    /// A resolver with empty caches.
    pub fn new() -> Self {
        StackResolver {
            procs: HashMap::new(),
            elfs: HashMap::new(),
            symbolizer: bz::Symbolizer::builder()
                .enable_code_info(true)
                .enable_inlined_fns(true)
                .enable_demangling(true)
                .build(),
            symbols: HashMap::new(),
            canonical: HashMap::new(),
            path_ids: HashMap::new(),
            next_id: 0,
            pins: HashMap::new(),
            deleted: HashMap::new(),
            last_truncated: false,
        }
    }

    fn elf(&mut self, path: &str) -> Option<Arc<ElfInfo>> {
        if let Some(e) = self.elfs.get(path) {
            return e.clone();
        }
        let at = self.deleted.get(path).map(String::as_str).unwrap_or(path);
        // pin first: what is read is then what the pin holds. Pins are
        // descriptors: past MAX_PINS files (a whole build traced with -f)
        // the rest are read without one rather than run genba out of them
        const MAX_PINS: usize = 512;
        let pin = (self.pins.len() < MAX_PINS)
            .then(|| std::fs::File::open(at).ok())
            .flatten();
        let info = ElfInfo::open(at).ok().map(Arc::new);
        if let (Some(f), Some(_)) = (pin, &info) {
            self.pins.insert(path.to_string(), f);
        }
        self.elfs.insert(path.to_string(), info.clone());
        info
    }

    /// The program that ran when `path` was executed at `when`
    /// (CLOCK_REALTIME ns). genba reads events after the fact, so the file
    /// there may have been rebuilt since; a file's ctime (which no one can
    /// set back) says whether it is newer than the exec. Then the copy held
    /// open from an earlier exec is the one that ran, if there is one; if
    /// not, nothing is read (rather than another program's lines).
    fn program_at(&mut self, path: &str, when: i64) -> Option<Arc<ElfInfo>> {
        use std::os::unix::fs::MetadataExt;
        let ctime = |m: &std::fs::Metadata| m.ctime() * 1_000_000_000 + m.ctime_nsec();
        match std::fs::metadata(path) {
            Ok(m) if ctime(&m) <= when => {
                self.refresh(path);
                self.elf(path)
            }
            Ok(m) => {
                let held = self.pins.get(path)?.metadata().ok()?;
                let other = held.ino() != m.ino() || held.dev() != m.dev();
                if other {
                    self.elfs.get(path).cloned().flatten()
                } else {
                    None
                }
            }
            // gone: what is held, if anything
            Err(_) => self.elfs.get(path).cloned().flatten(),
        }
    }

    /// Forgets what was read from `path` if the file there is no longer the
    /// one read (rebuilt, reinstalled): a program or library mapped from now
    /// on is read afresh, under a new module id.
    fn refresh(&mut self, path: &str) {
        use std::os::unix::fs::MetadataExt;
        let Some(pin) = self.pins.get(path) else {
            return;
        };
        let stale = match (pin.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => {
                a.dev() != b.dev()
                    || a.ino() != b.ino()
                    || a.mtime_nsec() != b.mtime_nsec()
                    || a.mtime() != b.mtime()
            }
            _ => false,
        };
        if stale {
            self.pins.remove(path);
            self.elfs.remove(path);
            self.path_ids.remove(path);
        }
    }

    /// The name to give the symbolizer for `path`: the path itself while it
    /// is still the file that was read, else the held-open copy.
    fn readable_path(&self, path: &str) -> String {
        use std::os::unix::fs::MetadataExt;
        use std::os::unix::io::AsRawFd;
        let Some(pin) = self.pins.get(path) else {
            return path.to_string();
        };
        let same = match (pin.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        };
        if same {
            path.to_string()
        } else {
            format!("/proc/self/fd/{}", pin.as_raw_fd())
        }
    }

    /// Reads what process `pid` has mapped now, from /proc (for processes
    /// genba did not see exec). Returns false when /proc no longer has it.
    pub fn load_process(&mut self, pid: u32) -> bool {
        let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/maps")) else {
            return false;
        };
        let entries = parse_maps(&text);
        for e in &entries {
            if e.path.starts_with('/') && e.path.ends_with(" (deleted)") {
                self.deleted
                    .entry(e.path.clone())
                    .or_insert_with(|| format!("/proc/{pid}/map_files/{:x}-{:x}", e.start, e.end));
            }
        }
        let p = self.procs.entry(pid).or_insert_with(Process::empty);
        p.tracked = None;
        self.build(pid, &entries);
        true
    }

    fn build(&mut self, pid: u32, entries: &[MapEntry]) {
        let mut ids = std::mem::take(&mut self.path_ids);
        let mut next = self.next_id;
        let modules = maps::modules(
            entries,
            |p| self.elf(p),
            |p: &str| {
                *ids.entry(p.to_string()).or_insert_with(|| {
                    next += 1;
                    next - 1
                })
            },
        );
        self.path_ids = ids;
        self.next_id = next;
        let mut unwinder = UnwinderX86_64::new();
        for m in &modules {
            if let Some(info) = self.elf(&m.path) {
                unwinder.add_module(elf::framehop_module(m, &info));
            }
        }
        let p = self.procs.entry(pid).or_insert_with(Process::empty);
        p.modules = modules;
        p.unwinder = unwinder;
        p.cache = CacheX86_64::new();
        p.dirty = false;
    }

    /// The mappings of a file as the kernel makes them for a program or
    /// its interpreter loaded with bias `bias`.
    fn image(&mut self, path: &str, bias: u64) -> Vec<MapEntry> {
        let Some(info) = self.elf(path) else {
            return Vec::new();
        };
        info.segments
            .iter()
            .map(|l| {
                let start = (bias + l.vaddr) & !(PAGE - 1);
                let end = (bias + l.vaddr + l.memsz).next_multiple_of(PAGE);
                let perms = format!(
                    "{}{}{}p",
                    if l.flags & 4 != 0 { 'r' } else { '-' },
                    if l.flags & 2 != 0 { 'w' } else { '-' },
                    if l.flags & 1 != 0 { 'x' } else { '-' }
                );
                MapEntry {
                    start,
                    end,
                    perms,
                    offset: l.offset & !(PAGE - 1),
                    path: path.to_string(),
                }
            })
            .collect()
    }

    /// A process executed `exe`: its mappings are now the program and its
    /// interpreter, placed where the auxiliary vector says (AT_PHDR,
    /// AT_BASE). This needs no /proc, so it works for processes that are
    /// gone by the time their stacks are resolved.
    ///
    /// `when` (CLOCK_REALTIME ns) is when the exec happened: a file at `exe`
    /// changed since (a rebuild while genba caught up with its events) is
    /// not the program that ran, and is not read for it.
    pub fn exec(&mut self, pid: u32, exe: &str, auxv: &[(u64, u64)], when: i64) {
        const AT_PHDR: u64 = 3;
        const AT_BASE: u64 = 7;
        let at = |t: u64| auxv.iter().find(|(k, _)| *k == t).map(|(_, v)| *v);
        let ran = self.program_at(exe, when);
        let mut entries = Vec::new();
        if let (Some(info), Some(phdr)) = (ran, at(AT_PHDR)) {
            // AT_PHDR is where the program headers (file offset e_phoff) landed
            let svma = info.file_offset_to_svma(info.phoff).unwrap_or(info.phoff);
            let bias = phdr.wrapping_sub(svma);
            entries.extend(self.image(exe, bias));
            if let (Some(interp), Some(base)) =
                (info.interp.clone(), at(AT_BASE).filter(|&b| b != 0))
            {
                let interp = std::fs::canonicalize(&interp)
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or(interp);
                entries.extend(self.image(&interp, base));
            }
        }
        let p = self.procs.entry(pid).or_insert_with(Process::empty);
        // the program could not be read (deleted already?): /proc may
        // still hold it
        p.tracked = (!entries.is_empty()).then_some(entries);
        p.dirty = true;
        p.refreshed_for_miss = false;
    }

    /// A successful mmap of `len` bytes at `addr`: of `path` at `offset`, or
    /// anonymous memory (`path` None).
    pub fn mmap(
        &mut self,
        pid: u32,
        addr: u64,
        len: u64,
        prot: u64,
        path: Option<&str>,
        offset: u64,
    ) {
        if !self.procs.contains_key(&pid) {
            return;
        }
        let path = path.filter(|p| p.starts_with('/')).map(|path| {
            // as /proc shows it (symlinks resolved), once per distinct path
            let path = self
                .canonical
                .entry(path.to_string())
                .or_insert_with(|| {
                    std::fs::canonicalize(path)
                        .map(|c| c.to_string_lossy().into_owned())
                        .unwrap_or(path.to_string())
                })
                .clone();
            self.refresh(&path);
            path
        });
        let Some(p) = self.procs.get_mut(&pid) else {
            return;
        };
        p.dirty = true;
        let Some(entries) = p.tracked.as_mut() else {
            return;
        };
        let end = (addr + len).next_multiple_of(PAGE);
        unmap(entries, addr, end);
        if let Some(path) = path {
            let perms = format!(
                "{}{}{}p",
                if prot & 1 != 0 { 'r' } else { '-' },
                if prot & 2 != 0 { 'w' } else { '-' },
                if prot & 4 != 0 { 'x' } else { '-' }
            );
            entries.push(MapEntry {
                start: addr,
                end,
                perms,
                offset,
                path: path.to_string(),
            });
            entries.sort_by_key(|e| e.start);
        }
    }

    /// A successful munmap.
    pub fn munmap(&mut self, pid: u32, addr: u64, len: u64) {
        let Some(p) = self.procs.get_mut(&pid) else {
            return;
        };
        p.dirty = true;
        if let Some(entries) = p.tracked.as_mut() {
            unmap(entries, addr, (addr + len).next_multiple_of(PAGE));
        }
    }

    /// A new process starts with its parent's mappings.
    pub fn fork(&mut self, parent: u32, child: u32) {
        let tracked = self.procs.get(&parent).and_then(|p| p.tracked.clone());
        if tracked.is_some() {
            let mut p = Process::empty();
            p.tracked = tracked;
            self.procs.insert(child, p);
        }
    }

    /// Forgets a process.
    pub fn forget(&mut self, pid: u32) {
        self.procs.remove(&pid);
    }

    /// Whether anything is known about `pid`'s mappings.
    pub fn knows(&self, pid: u32) -> bool {
        self.procs.contains_key(&pid)
    }

    /// Brings `pid`'s modules up to date before an unwind.
    fn prepare(&mut self, pid: u32, ip: u64) {
        match self.procs.get(&pid) {
            None => {
                self.load_process(pid);
            }
            Some(p) if p.dirty => match p.tracked.clone() {
                Some(entries) => self.build(pid, &entries),
                None => {
                    if !self.load_process(pid) {
                        // gone: keep what was known
                        if let Some(p) = self.procs.get_mut(&pid) {
                            p.dirty = false;
                        }
                    }
                }
            },
            Some(p) => {
                // an ip outside every known module: something mapped it
                // behind our back; /proc may know (once per process)
                let known = p.modules.iter().any(|m| m.avma.contains(&ip));
                if !known && !p.refreshed_for_miss && p.tracked.is_none() {
                    self.load_process(pid);
                    if let Some(p) = self.procs.get_mut(&pid) {
                        p.refreshed_for_miss = true;
                    }
                }
            }
        }
    }

    /// Unwinds from the registers and the stack copy (`stack[0]` is at `sp`),
    /// returning lookup addresses, innermost first (caller frames are their
    /// return address minus one, so they point into the call instruction).
    /// `ip_returns`: `ip` is itself a return address, the instruction after a
    /// `syscall` (a task at syscall entry), and is looked up minus one too,
    /// so that a `syscall` inlined into a function gets that function's line
    /// rather than the line of the instruction after it.
    pub fn unwind(
        &mut self,
        pid: u32,
        ip: u64,
        sp: u64,
        bp: u64,
        stack: &[u8],
        ip_returns: bool,
    ) -> Vec<u64> {
        self.prepare(pid, ip);
        self.last_truncated = false;
        let copy_end = sp.saturating_add(stack.len() as u64);
        let mut truncated = false;
        let Some(proc_) = self.procs.get_mut(&pid) else {
            return vec![if ip_returns { ip.saturating_sub(1) } else { ip }];
        };
        let mut read_stack = |addr: u64| -> Result<u64, ()> {
            let off = addr.checked_sub(sp).ok_or(())? as usize;
            let b = stack.get(off..off.checked_add(8).ok_or(())?).ok_or(())?;
            Ok(u64::from_le_bytes(b.try_into().map_err(|_| ())?))
        };
        let modules = &proc_.modules;
        let mut out = Vec::new();
        let mut it = proc_.unwinder.iter_frames(
            ip,
            UnwindRegsX86_64::new(ip, sp, bp),
            &mut proc_.cache,
            &mut read_stack,
        );
        loop {
            let f = match it.next() {
                Ok(Some(f)) => f,
                Ok(None) => break,
                Err(e) => {
                    if let framehop::Error::CouldNotReadStack(a) = e {
                        truncated = a.saturating_add(8) > copy_end;
                    }
                    if debug_unwind() {
                        eprintln!(
                            "genba: unwind of pid {pid} stopped after {} frames: {e}",
                            out.len()
                        );
                    }
                    break;
                }
            };
            let a = match f {
                FrameAddress::InstructionPointer(a) if ip_returns => a.saturating_sub(1),
                FrameAddress::InstructionPointer(a) => a,
                FrameAddress::ReturnAddress(a) => a.get().saturating_sub(1),
            };
            // a caller outside every mapped file is not code: the unwind
            // went wrong (a rule framehop cannot follow); stop rather than
            // report a made-up frame
            if !out.is_empty() && !modules.iter().any(|m| m.avma.contains(&a)) {
                if debug_unwind() {
                    eprintln!(
                        "genba: unwind of pid {pid}: frame {:#x} outside every module",
                        a
                    );
                }
                break;
            }
            out.push(a);
            if out.len() >= 256 {
                break;
            }
        }
        self.last_truncated = truncated;
        if out.is_empty() {
            out.push(if ip_returns { ip.saturating_sub(1) } else { ip });
        }
        out
    }

    /// The source frames of one lookup address of process `pid`.
    pub fn symbolize(&mut self, pid: u32, addr: u64) -> Frames {
        let Some(m) = self
            .procs
            .get(&pid)
            .and_then(|p| p.modules.iter().find(|m| m.avma.contains(&addr)))
        else {
            return std::rc::Rc::new([SourceFrame {
                file_offset: addr,
                module: "?".into(),
                function: None,
                function_offset: None,
                file: None,
                line: None,
                inlined: false,
            }]);
        };
        let off = m.file_offset(addr).unwrap_or(addr - m.avma.start);
        let key = (m.id, off);
        if let Some(hit) = self.symbols.get(&key) {
            return hit.clone();
        }
        let path = m.path.clone();
        let frames: Frames = self.lookup(&path, off).into();
        self.symbols.insert(key, frames.clone());
        frames
    }

    /// The GNU build-id of a file the stacks went through, if it has one.
    pub fn build_id(&self, path: &str) -> Option<&[u8]> {
        self.elfs.get(path)?.as_ref()?.build_id.as_deref()
    }

    /// `/usr/lib/debug/.build-id/ab/cdef....debug` for `path`, if installed.
    fn build_id_debug_file(&self, path: &str) -> Option<String> {
        let raw = self.elfs.get(path)?.as_ref()?.build_id.as_deref()?;
        if raw.len() < 2 {
            return None;
        }
        let id: String = raw.iter().map(|x| format!("{x:02x}")).collect();
        let f = format!("/usr/lib/debug/.build-id/{}/{}.debug", &id[..2], &id[2..]);
        std::path::Path::new(&f).exists().then_some(f)
    }

    fn svma_of(&self, path: &str, off: u64) -> Option<u64> {
        self.elfs.get(path)?.as_ref()?.file_offset_to_svma(off)
    }

    fn lookup(&self, path: &str, off: u64) -> Vec<SourceFrame> {
        let base = SourceFrame {
            file_offset: off,
            module: path.to_string(),
            function: None,
            function_offset: None,
            file: None,
            line: None,
            inlined: false,
        };
        let src = bz::source::Source::Elf(bz::source::Elf::new(self.readable_path(path)));
        let mut found = match self.symbolizer.symbolize(&src, Input::FileOffset(&[off])) {
            Ok(r) => r.into_iter().next(),
            Err(_) => None,
        };
        // no lines here: a separate debug file found by build-id alone (no
        // .gnu_debuglink, which blazesym follows itself) may have them. A
        // debug file has no loaded bytes, so it is asked by address.
        let has_lines = matches!(&found, Some(Symbolized::Sym(s)) if s.code_info.is_some());
        if !has_lines {
            if let (Some(debug), Some(svma)) =
                (self.build_id_debug_file(path), self.svma_of(path, off))
            {
                let dsrc = bz::source::Source::Elf(bz::source::Elf::new(&debug));
                if let Ok(r) = self.symbolizer.symbolize(&dsrc, Input::VirtOffset(&[svma])) {
                    if let Some(sym @ Symbolized::Sym(_)) = r.into_iter().next() {
                        found = Some(sym);
                    }
                }
            }
        }
        let Some(Symbolized::Sym(sym)) = found else {
            return vec![base];
        };
        let loc = |ci: Option<&bz::CodeInfo<'_>>| match ci {
            Some(c) => {
                let file = match &c.dir {
                    Some(d) if !c.file.to_string_lossy().starts_with('/') => {
                        d.join(&c.file).to_string_lossy().into_owned()
                    }
                    _ => c.file.to_string_lossy().into_owned(),
                };
                (Some(file), c.line)
            }
            None => (None, None),
        };
        let mut out = Vec::new();
        // blazesym: `inlined` lists functions inlined into `sym`, outermost
        // first, each with the location inside it; the last one holds the
        // instruction itself. `sym.code_info` is then the call site in `sym`.
        for f in sym.inlined.iter().rev() {
            let (file, line) = loc(f.code_info.as_ref());
            out.push(SourceFrame {
                function: Some(f.name.to_string()),
                file,
                line,
                inlined: true,
                ..base.clone()
            });
        }
        let (file, line) = loc(sym.code_info.as_deref());
        out.push(SourceFrame {
            function: Some(sym.name.to_string()),
            function_offset: Some(sym.offset as u64),
            file,
            line,
            inlined: false,
            ..base
        });
        out
    }

    /// Whether the last unwind stopped because the stack copy ended.
    pub fn last_unwind_truncated(&self) -> bool {
        self.last_truncated
    }

    /// The whole symbolized stack of a call (`ip_returns`: see [`Self::unwind`]).
    pub fn stack(
        &mut self,
        pid: u32,
        ip: u64,
        sp: u64,
        bp: u64,
        stack: &[u8],
        ip_returns: bool,
    ) -> Stack {
        let addrs = self.unwind(pid, ip, sp, bp, stack, ip_returns);
        addrs.into_iter().map(|a| self.symbolize(pid, a)).collect()
    }
}

/// Files and functions that are not the user's own code: the C library, the
/// dynamic loader, language runtimes. The call site is the first frame past them.
pub fn is_runtime(f: &SourceFrame) -> bool {
    let module = f.module.rsplit('/').next().unwrap_or(&f.module);
    let lib = [
        "libc.so",
        "libc-",
        "ld-linux",
        "ld64.so",
        "libstdc++",
        "libpthread",
        "libgcc_s",
        "libm.so",
        "libdl.so",
        "librt.so",
    ];
    if lib.iter().any(|l| module.starts_with(l)) {
        return true;
    }
    // the standard libraries of Rust (/rustc/<hash>/library/...) and Go
    // (GOROOT/src/...), as their debug information names them
    if let Some(file) = &f.file {
        if file.starts_with("/rustc/")
            || file.contains("/go/src/")
            || file.starts_with("/usr/lib/go")
        {
            return true;
        }
    }
    match &f.function {
        Some(func) => {
            let rust_rt = [
                "std::", "core::", "alloc::", "<std::", "<core::", "<alloc::", "__rust", "_start",
                "__libc_", "__GI_", "_IO_",
            ];
            rust_rt.iter().any(|p| func.starts_with(p))
        }
        None => false,
    }
}

/// The file offset of function `name` in the ELF file `path` (from its
/// symbol table, or its dynamic one) and its first bytes: where a uprobe on
/// the function's entry goes, and what it would sit on.
pub fn function_entry(path: &str, name: &str) -> Result<Option<(u64, Vec<u8>)>, String> {
    use object::{Object, ObjectSegment, ObjectSymbol};
    let data = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let file = object::File::parse(&*data).map_err(|e| format!("{path}: {e}"))?;
    let Some(sym) = file
        .symbols()
        .chain(file.dynamic_symbols())
        .find(|s| s.name() == Ok(name) && s.kind() == object::SymbolKind::Text && s.address() != 0)
    else {
        return Ok(None);
    };
    let addr = sym.address();
    for seg in file.segments() {
        let (off, size) = seg.file_range();
        if addr >= seg.address() && addr < seg.address() + size {
            let at = off + (addr - seg.address());
            let end = (at as usize + 16).min(data.len());
            return Ok(Some((at, data[at as usize..end].to_vec())));
        }
    }
    Ok(None)
}

/// Where source line `file`:`line` begins in the ELF file `path`: for each
/// function holding code of that line (a line of an inline function is in
/// every function it was inlined into), the lowest address its DWARF line
/// table gives the line as a statement, as a file offset with the first
/// bytes there. `file` matches a source path by its last components
/// (`serial.c`, `src/serial.c`). Empty when the line holds no code.
/// An error when no source file of the line table matches (or two
/// different ones do), or the file has no line table.
pub fn line_entries(path: &str, file: &str, line: u64) -> Result<Vec<(u64, Vec<u8>)>, String> {
    use object::{Object, ObjectSection, ObjectSegment, ObjectSymbol};
    use std::borrow::Cow;
    let data = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let obj = object::File::parse(&*data).map_err(|e| format!("{path}: {e}"))?;
    if obj.section_by_name(".debug_line").is_none() {
        return Err(format!(
            "{path} has no line table (built without -g, or stripped)"
        ));
    }
    let sections = gimli::DwarfSections::load(|id| -> Result<Cow<[u8]>, gimli::Error> {
        Ok(obj
            .section_by_name(id.name())
            .and_then(|s| s.uncompressed_data().ok())
            .unwrap_or(Cow::Borrowed(&[])))
    })
    .map_err(|e| format!("{path}: {e}"))?;
    let endian = if obj.is_little_endian() {
        gimli::RunTimeEndian::Little
    } else {
        gimli::RunTimeEndian::Big
    };
    let dwarf = sections.borrow(|s| gimli::EndianSlice::new(s, endian));
    let want: Vec<&str> = file
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    let mut sources: Vec<String> = Vec::new();
    let mut known = false;
    let mut addrs: Vec<u64> = Vec::new();
    let bad = |e: gimli::Error| format!("{path}: reading its line table: {e}");
    let mut units = dwarf.units();
    while let Some(header) = units.next().map_err(bad)? {
        let unit = dwarf.unit(header).map_err(bad)?;
        let Some(program) = unit.line_program.clone() else {
            continue;
        };
        let comp_dir = unit
            .comp_dir
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_default();
        // a source file's full path (a relative directory is the
        // compilation directory's), when it is the one asked for
        let matching = |h: &gimli::LineProgramHeader<_>, fe: &gimli::FileEntry<_>| {
            let mut full = String::new();
            if let Some(Ok(d)) = fe.directory(h).map(|d| dwarf.attr_string(&unit, d)) {
                let d = d.to_string_lossy();
                if !d.starts_with('/') && !comp_dir.is_empty() {
                    full.push_str(&comp_dir);
                    full.push('/');
                }
                full.push_str(&d);
            }
            let name = dwarf.attr_string(&unit, fe.path_name()).ok()?;
            let name = name.to_string_lossy();
            if name.starts_with('/') {
                full = name.into_owned();
            } else {
                full = format!("{full}/{name}");
            }
            let have: Vec<&str> = full
                .split('/')
                .filter(|c| !c.is_empty() && *c != ".")
                .collect();
            (have.len() >= want.len() && have[have.len() - want.len()..] == want[..])
                .then_some(full)
        };
        let h = program.header();
        known |= h.file_names().iter().any(|fe| matching(h, fe).is_some());
        let mut rows = program.rows();
        while let Some((h, row)) = rows.next_row().map_err(bad)? {
            if row.end_sequence() || !row.is_stmt() || row.line().map(|l| l.get()) != Some(line) {
                continue;
            }
            let Some(full) = row.file(h).and_then(|fe| matching(h, fe)) else {
                continue;
            };
            if !sources.contains(&full) {
                sources.push(full);
            }
            addrs.push(row.address());
        }
    }
    if !known {
        return Err(format!("no source file {file} in the line table of {path}"));
    }
    if sources.len() > 1 {
        return Err(format!(
            "{file} names more than one source file of {path}: {}",
            sources.join(", ")
        ));
    }
    // the lowest address in each function
    let funcs: Vec<(u64, u64)> = obj
        .symbols()
        .filter(|s| s.kind() == object::SymbolKind::Text && s.size() > 0)
        .map(|s| (s.address(), s.address() + s.size()))
        .collect();
    let mut lowest: Vec<(Option<u64>, u64)> = Vec::new();
    for a in addrs {
        let f = funcs
            .iter()
            .find(|(lo, hi)| a >= *lo && a < *hi)
            .map(|f| f.0);
        match lowest.iter_mut().find(|(g, _)| *g == f) {
            Some(e) => e.1 = e.1.min(a),
            None => lowest.push((f, a)),
        }
    }
    let mut out = Vec::new();
    for (_, a) in lowest {
        for seg in obj.segments() {
            let (off, size) = seg.file_range();
            if a >= seg.address() && a < seg.address() + size {
                let at = off + (a - seg.address());
                let end = (at as usize + 16).min(data.len());
                out.push((at, data[at as usize..end].to_vec()));
                break;
            }
        }
    }
    out.sort();
    Ok(out)
}

/// A statically defined tracing point (SystemTap SDT / USDT) of an ELF
/// file: where a uprobe on it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Usdt {
    /// Its provider (`genba` for genba/progress.h's marks).
    pub provider: String,
    /// Its name.
    pub name: String,
    /// File offset of the probe's instruction.
    pub offset: u64,
    /// File offset of its semaphore (is-enabled probes run only while it
    /// is raised), if it has one.
    pub semaphore: Option<u64>,
    /// The instruction's first bytes.
    pub bytes: Vec<u8>,
}

/// The SDT probes of ELF file `path` (its `.note.stapsdt` notes), their
/// addresses adjusted as the `.stapsdt.base` section says (a prelinked
/// file) and made file offsets.
pub fn usdt_probes(path: &str) -> Result<Vec<Usdt>, String> {
    use object::{Object, ObjectSection, ObjectSegment};
    let data = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let obj = object::File::parse(&*data).map_err(|e| format!("{path}: {e}"))?;
    let Some(notes) = obj.section_by_name(".note.stapsdt") else {
        return Ok(Vec::new());
    };
    let notes = notes.data().map_err(|e| format!("{path}: {e}"))?;
    let base_now = obj.section_by_name(".stapsdt.base").map(|s| s.address());
    let le = obj.is_little_endian();
    let u32_at = |b: &[u8], i: usize| -> Option<u32> {
        let w: [u8; 4] = b.get(i..i + 4)?.try_into().ok()?;
        Some(if le {
            u32::from_le_bytes(w)
        } else {
            u32::from_be_bytes(w)
        })
    };
    let u64_at = |b: &[u8], i: usize| -> Option<u64> {
        let w: [u8; 8] = b.get(i..i + 8)?.try_into().ok()?;
        Some(if le {
            u64::from_le_bytes(w)
        } else {
            u64::from_be_bytes(w)
        })
    };
    let to_offset = |addr: u64| -> Option<u64> {
        obj.segments().find_map(|seg| {
            let (off, size) = seg.file_range();
            (addr >= seg.address() && addr < seg.address() + size)
                .then(|| off + (addr - seg.address()))
        })
    };
    let mut out = Vec::new();
    let mut i = 0usize;
    while i + 12 <= notes.len() {
        let (Some(namesz), Some(descsz), Some(kind)) =
            (u32_at(notes, i), u32_at(notes, i + 4), u32_at(notes, i + 8))
        else {
            break;
        };
        let name_at = i + 12;
        let desc_at = name_at + (namesz as usize).next_multiple_of(4);
        let next = desc_at + (descsz as usize).next_multiple_of(4);
        let owner = notes.get(name_at..name_at + namesz as usize);
        let desc = notes.get(desc_at..desc_at + descsz as usize);
        i = next;
        let (Some(owner), Some(desc)) = (owner, desc) else {
            break;
        };
        if kind != 3 || owner != b"stapsdt\0" {
            continue;
        }
        let (Some(mut pc), Some(base), Some(mut sema)) =
            (u64_at(desc, 0), u64_at(desc, 8), u64_at(desc, 16))
        else {
            continue;
        };
        if let Some(now) = base_now.filter(|_| base != 0) {
            pc = pc.wrapping_add(now).wrapping_sub(base);
            if sema != 0 {
                sema = sema.wrapping_add(now).wrapping_sub(base);
            }
        }
        let mut strings = desc[24..].split(|&b| b == 0);
        let provider = String::from_utf8_lossy(strings.next().unwrap_or_default()).into_owned();
        let name = String::from_utf8_lossy(strings.next().unwrap_or_default()).into_owned();
        let Some(offset) = to_offset(pc) else {
            continue;
        };
        let end = (offset as usize + 16).min(data.len());
        out.push(Usdt {
            provider,
            name,
            offset,
            semaphore: if sema != 0 { to_offset(sema) } else { None },
            bytes: data.get(offset as usize..end).unwrap_or_default().to_vec(),
        });
    }
    Ok(out)
}

/// Whether an x86-64 instruction starting with `bytes` has a LOCK prefix:
/// the kernel's uprobes refuse to sit on one (the probe is then silently
/// never placed).
pub fn lock_prefixed(bytes: &[u8]) -> bool {
    for &b in bytes {
        match b {
            0xf0 => return true,
            // other legacy prefixes, and REX
            0xf2 | 0xf3 | 0x2e | 0x36 | 0x3e | 0x26 | 0x64 | 0x65 | 0x66 | 0x67 | 0x40..=0x4f => {}
            _ => return false,
        }
    }
    false
}
