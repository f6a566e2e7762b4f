//! Argument decoders: what each system call's arguments mean, what user memory
//! must be copied to print them (the capture plan the BPF side follows), and
//! how strace prints them.
//!
//! Most calls are described by a signature, a list of [`Ty`]s; the few whose
//! printing depends on another argument (fcntl, ioctl, futex, openat's mode...)
//! have small functions. A decoder runs twice per call: at entry, with no exit
//! data, it stops at the first output argument (the "boundary", where strace
//! prints `<unfinished ...>`); at exit it runs whole and the printer takes what
//! lies past the boundary when the entry part was already printed.

use std::fmt::Write;

use genba_events::{Capture, CaptureItem};

use crate::consts as c;
use crate::fmt::{self, Xlat};
use crate::table;

/// Decoding options (strace's -s, -v, -X, -x).
#[derive(Debug, Clone)]
pub struct Options {
    /// `-s`: longest string printed.
    pub strsize: usize,
    /// `-v`: unabbreviated structures and environment.
    pub verbose: bool,
    /// `-X`: how constants are printed.
    pub xlat: Xlat,
    /// `-x`, `-xx`, `--strings-in-hex=`: which strings are in hex.
    pub hex: fmt::HexStr,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            strsize: 32,
            verbose: false,
            xlat: Xlat::Abbrev,
            hex: fmt::HexStr::None,
        }
    }
}

/// What to copy for one argument (mirrors the BPF side's plan, without
/// depending on it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CapPlan {
    /// What.
    pub kind: CapKind,
    /// When.
    pub when: CapWhen,
    /// The argument giving the length, where the kind needs one.
    pub len_arg: u8,
    /// Bytes per counted element, for lengths that count elements (0 means 1).
    pub mult: u8,
    /// Bytes at most (per element for arrays).
    pub max: u32,
    /// Capture only when another argument has one of two values.
    pub cond: Option<CapCond>,
    /// Copy the memory this other argument points to: a free slot then
    /// holds a second view of that argument (the capture keeps the slot's
    /// index). `None`: the slot's own argument.
    pub src_arg: Option<u8>,
    /// Copy instead the memory a pointer in the source struct points to:
    /// the pointer is the struct's 64-bit word of this index, and `len_arg`
    /// then names the word holding the length (0xff: none). For pointers
    /// inside structures (clone3's set_tid, pidfd, parent_tid).
    pub deref: Option<u8>,
    /// With `deref`: the length is the u32 at byte `4 * len_arg` of the
    /// struct rather than its 64-bit word `len_arg`.
    pub len_u32: bool,
    /// [`CapKind::Ptrs`]: the records' layout.
    pub ptrs: PtrsLayout,
}

/// The records of a [`CapKind::Ptrs`] array: each holds a pointer, and the
/// memory it points to is copied (an ELEM item per record, its `aux` the
/// pointer).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PtrsLayout {
    /// Bytes per record.
    pub stride: u8,
    /// Byte offset of the pointer in a record.
    pub ptr_off: u8,
    /// [`PtrsLayout::STR`]: a string of at most `max` bytes;
    /// [`PtrsLayout::FIXED`]: `max` bytes; else the byte offset in the
    /// record of the u32 giving the length (at most `max`).
    pub elen_off: u8,
}

impl PtrsLayout {
    /// `elen_off`: a NUL-terminated string.
    pub const STR: u8 = 0xff;
    /// `elen_off`: `max` bytes.
    pub const FIXED: u8 = 0xfe;
}

/// Capture slots per call: one per argument and four for second-level
/// memory (what pointers inside the arguments' structures point to).
pub const SLOTS: usize = 10;

/// Records of a [`CapKind::Ptrs`] array copied at most.
pub const PTRS_MAX: usize = 33;

/// `(args[arg] & mask)` must be `val` or `val2` for the capture to happen
/// (with `bitmap`: one of the values whose bit is set in `val | val2 << 32`,
/// see [`CapCond::one_of`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CapCond {
    /// The argument tested.
    pub arg: u8,
    /// Bits kept before comparing.
    pub mask: u32,
    /// One accepted value.
    pub val: u32,
    /// The other accepted value.
    pub val2: u32,
    /// `val` and `val2` are a bit set of accepted values below 64.
    pub bitmap: bool,
}

/// [`CapCond::arg`] with this bit: the value tested is the address family
/// of the socket behind descriptor `args[arg & 0x7f]` (no socket: no
/// capture), and the capture's `elem` says the socket's protocol + 1.
pub const COND_SOCK_FAMILY: u8 = 0x80;

impl CapCond {
    /// The descriptor in argument `arg` must be a socket of `family`.
    pub const fn sock_family(arg: u8, family: u32) -> CapCond {
        CapCond {
            arg: arg | COND_SOCK_FAMILY,
            mask: 0xffff,
            val: family,
            val2: family,
            bitmap: false,
        }
    }

    /// `(args[arg] & mask)` must be one of `vals` (each below 64).
    pub const fn one_of(arg: u8, mask: u32, vals: &[u8]) -> CapCond {
        let mut set = 0u64;
        let mut i = 0;
        while i < vals.len() {
            set |= 1 << vals[i];
            i += 1;
        }
        CapCond {
            arg,
            mask,
            val: set as u32,
            val2: (set >> 32) as u32,
            bitmap: true,
        }
    }

    /// Whether the capture happens for these arguments (what the BPF side
    /// decides).
    pub fn accepts(&self, args: &[u64; 6]) -> bool {
        if self.arg & COND_SOCK_FAMILY != 0 {
            // only the kernel knows: the capture's presence says
            return true;
        }
        let v = args.get(self.arg as usize).copied().unwrap_or(0) & self.mask as u64;
        if self.bitmap {
            let set = self.val as u64 | (self.val2 as u64) << 32;
            v < 64 && (set >> v) & 1 == 1
        } else {
            v == self.val as u64 || v == self.val2 as u64
        }
    }
}

/// Capture kinds; the same meaning as `enum genba_cap_kind`.
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CapKind {
    #[default]
    None,
    Str,
    Fixed,
    ArgLen,
    RetLen,
    PtrLen,
    StrArray,
    Count,
    Iov,
    Msghdr,
    IovRet,
    MsghdrRet,
    SpRel,
    FdIno,
    Dirents,
    /// ioctl's argument: the bytes [`ioctl_sizes`] gives for the request
    /// (`len_arg`), else those the request encodes.
    Ioc,
    /// A struct mmsghdr vector of `len_arg` entries (the first 33), each
    /// entry with its name and iov data, then the count.
    Mmsg,
    /// The same at exit for the entries received (the return value).
    MmsgRet,
    /// An array of `len` records laid out as [`CapPlan::ptrs`] says: what
    /// the pointer of each of the first [`PTRS_MAX`] points to.
    Ptrs,
}

/// When to capture.
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CapWhen {
    #[default]
    Enter,
    Exit,
    ExitOk,
    Both,
}

/// A call as the decoder sees it.
#[derive(Debug, Clone, Copy)]
pub struct CallView<'a> {
    /// Syscall number.
    pub nr: u32,
    /// Argument registers (from the entry when it was seen).
    pub args: [u64; 6],
    /// Memory copied at entry.
    pub enter: &'a [Capture],
    /// Return value and memory copied at exit, once the call returned.
    pub exit: Option<(i64, &'a [Capture])>,
}

impl CallView<'_> {
    fn cap(&self, arg: usize) -> Option<&Capture> {
        let find = |caps: &[Capture]| -> Option<usize> {
            caps.iter().position(|c| {
                c.arg as usize == arg && matches!(c.item, CaptureItem::Data | CaptureItem::Msghdr)
            })
        };
        // an exit capture is either the output or a retry of an input that
        // faulted at entry; a faulted one loses to the entry's
        if let Some((_, caps)) = self.exit {
            if let Some(i) = find(caps) {
                if !caps[i].fault || find(self.enter).is_none() {
                    return Some(&caps[i]);
                }
            }
        }
        find(self.enter).map(|i| &self.enter[i])
    }

    /// The bytes copied for argument `arg` (a retry at exit if the entry's
    /// copy failed), if any could be read.
    pub fn data(&self, arg: usize) -> Option<&[u8]> {
        self.cap(arg)
            .filter(|c| !c.fault)
            .map(|c| c.data.as_slice())
    }

    fn enter_cap(&self, arg: usize) -> Option<&Capture> {
        self.enter
            .iter()
            .find(|c| c.arg as usize == arg && c.item == CaptureItem::Data && !c.fault)
    }

    fn exit_cap(&self, arg: usize) -> Option<&Capture> {
        self.exit.and_then(|(_, caps)| {
            caps.iter()
                .find(|c| c.arg as usize == arg && c.item == CaptureItem::Data && !c.fault)
        })
    }

    /// The first `need` bytes copied for argument `arg`, also from a copy
    /// that ran into unreadable memory past them.
    pub fn data_prefix(&self, arg: usize, need: usize) -> Option<&[u8]> {
        self.cap(arg)
            .filter(|c| c.data.len() >= need)
            .map(|c| &c.data[..need])
    }

    /// The entry's copy of argument `arg` if it holds at least `need`
    /// bytes, even one that ran into unreadable memory after them (an
    /// array at the end of a page, copied up to the page's end).
    fn enter_prefix(&self, arg: usize, need: usize) -> Option<&Capture> {
        self.enter
            .iter()
            .find(|c| c.arg as usize == arg && c.item == CaptureItem::Data && c.data.len() >= need)
    }

    /// [`Self::enter_prefix`] for the exit's copy.
    fn exit_prefix(&self, arg: usize, need: usize) -> Option<&Capture> {
        self.exit.and_then(|(_, caps)| {
            caps.iter().find(|c| {
                c.arg as usize == arg && c.item == CaptureItem::Data && c.data.len() >= need
            })
        })
    }

    fn items(&self, arg: usize) -> Vec<&Capture> {
        let mut v: Vec<&Capture> = self
            .enter
            .iter()
            .filter(|c| c.arg as usize == arg)
            .collect();
        if let Some((_, caps)) = self.exit {
            let e: Vec<&Capture> = caps.iter().filter(|c| c.arg as usize == arg).collect();
            if !e.is_empty() && (v.is_empty() || !e.iter().any(|c| c.fault)) {
                v = e;
            }
        }
        v
    }

    fn ret(&self) -> Option<i64> {
        self.exit.map(|(r, _)| r)
    }
}

/// What decoding may ask of the live system, beyond the events themselves.
#[derive(Default)]
pub struct Env<'a> {
    /// The path behind a descriptor of the traced process (`-y`).
    pub fd_path: Option<&'a dyn Fn(i32) -> Option<String>>,
    /// The path behind descriptor `fd` (second) of the process the traced
    /// process's pidfd (first) refers to (pidfd_getfd's target).
    pub fd_path_in: Option<&'a dyn Fn(i32, i32) -> Option<String>>,
    /// Reads the traced process's memory when BPF could not (a page that
    /// neither entry nor exit had faulted in, e.g. a literal passed to a call
    /// that failed before touching it). Best effort: the process may have
    /// changed the memory or gone since.
    pub read_mem: Option<&'a dyn Fn(u64, usize) -> Option<Vec<u8>>>,
    /// Counts arguments printed as addresses because their memory could not
    /// be read at all (strace would have shown the contents).
    pub unreadable: std::cell::Cell<u64>,
    /// `-Y`: the command name of a process or thread (its `comm`, as it is
    /// when the line is printed); None: nothing printed.
    pub pid_comm: Option<&'a dyn Fn(i32) -> Option<String>>,
}

/// The text of a call's arguments being built, with the entry/exit boundary.
pub struct ArgWriter<'a> {
    /// The text.
    pub s: String,
    /// Byte offset where the exit part starts, once known.
    pub boundary: Option<usize>,
    call: CallView<'a>,
    opts: &'a Options,
    first: bool,
    env: &'a Env<'a>,
    /// Where each top-level argument's text starts.
    pub starts: Vec<usize>,
}

impl ArgWriter<'_> {
    fn sep(&mut self) {
        if !self.first {
            self.s.push_str(", ");
        }
        self.first = false;
        self.starts.push(self.s.len());
    }

    /// Like [`Self::exiting`], for a decoder that goes on inside an argument
    /// (`clone3({...} => {...}`): no separator before the boundary.
    fn exiting_inside(&mut self) -> bool {
        if self.boundary.is_none() {
            self.boundary = Some(self.s.len());
        }
        self.call.exit.is_some()
    }

    /// Marks the boundary; true when exit data is there to go on with.
    /// Like strace, the entry part ends with the separator (`read(3, `).
    fn exiting(&mut self) -> bool {
        if self.boundary.is_none() {
            if !self.first {
                self.s.push_str(", ");
                self.first = true;
            }
            self.boundary = Some(self.s.len());
        }
        self.call.exit.is_some()
    }
}

/// Types of arguments.
#[derive(Debug, Clone, Copy)]
pub enum Ty {
    /// `int`, decimal.
    Int,
    /// A process or thread id: with `-Y`, its command name after it
    /// (`1234<comm>`).
    Pid,
    /// A process id, or a process group's negated (kill, wait4): `-Y` names
    /// only a process (a positive id).
    PidPgid,
    /// `unsigned int`, decimal.
    Uint,
    /// `long`, decimal.
    Long,
    /// `unsigned long` / `size_t`, decimal.
    Ulong,
    /// Hex (`0` or `0x..`).
    Hex,
    /// An `unsigned int` in hex.
    Hex32,
    /// A keyring's serial number (`KEY_SPEC_*` for the special ones).
    KeySerial,
    /// utimes' two struct timevals.
    UtimeVals,
    /// Bytes read at entry (for custom decoders: the count to copy).
    FixedIn(u16),
    /// Bytes the call writes (for custom decoders: the count to copy).
    FixedOut(u16),
    /// Pointer (`NULL` or `0x..`).
    Ptr,
    /// File descriptor.
    Fd,
    /// Directory descriptor (`AT_FDCWD`).
    DirFd,
    /// Path name, printed whole.
    Path,
    /// String, printed up to `-s`.
    Str,
    /// Input buffer whose length is the given argument.
    BufIn(u8),
    /// Output buffer filled up to the return value.
    BufOut,
    /// Output buffer of random bytes: strace always prints it in hex.
    RandomOut,
    /// Output buffer filled with a NUL-terminated string (getcwd, readlink: ret bytes).
    StrOut,
    /// `open` flags.
    OFlags,
    /// Permission bits.
    Mode,
    /// access(2) mode.
    AccessMode,
    /// Flags from a table (of an int argument).
    Flags(&'static [(u64, &'static str)]),
    /// Flags of a 64-bit (unsigned long) argument.
    Flags64(&'static [(u64, &'static str)]),
    /// One value of a table.
    Enum(&'static [(u64, &'static str)], &'static str),
    /// Signal number.
    Signal,
    /// `struct timespec *` input.
    TimespecIn,
    /// `struct timespec *` output.
    TimespecOut,
    /// `struct stat *` output.
    StatOut,
    /// `struct statx *` output.
    StatxOut,
    /// `char *const argv[]`.
    Argv,
    /// `char *const envp[]`.
    Envp,
    /// `const struct iovec *` with count in the given argument.
    IovIn(u8),
    /// `struct iovec *` filled up to the return value.
    IovOut(u8),
    /// `const struct sockaddr *` of the given length argument.
    SockaddrIn(u8),
    /// `struct sockaddr *` filled, its length behind the given argument.
    SockaddrOut(u8),
    /// `socklen_t *` in/out: `[in => out]` or `[out]`.
    SocklenPtr,
    /// `sigset_t *` input.
    SigsetIn,
    /// `sigset_t *` output.
    SigsetOut,
    /// `sigset_t *` input, its size in the given argument (the address
    /// unless that is the kernel's 8 bytes).
    SigsetLenIn(u8),
    /// `sigset_t *` output, its size in the given argument.
    SigsetLenOut(u8),
    /// rt_sigpending's set: 1 to 8 bytes, as argument 1 says.
    SigpendingOut,
    /// `siginfo_t *` input.
    SiginfoIn,
    /// A pointer the call stores through `void **`: `[0x...]`.
    PtrPtrOut,
    /// An `unsigned long` the call stores: `[N]`.
    UlongPtrOut,
    /// An array of `struct iovec` shown as addresses and lengths (the
    /// memory they point to is not the call's to read), its count in the
    /// given argument.
    IovAddrs(u8),
    /// `siginfo_t *` the call fills.
    SiginfoOut,
    /// `struct sigaction *` input.
    SigactionIn,
    /// `struct sigaction *` output.
    SigactionOut,
    /// `struct rlimit *` input.
    RlimitIn,
    /// `struct rlimit *` output.
    RlimitOut,
    /// `int[2]` output (pipe).
    FdPairOut,
    /// `int *` output (wait status).
    WaitStatusOut,
    /// `int *` input, printed `[N]`.
    IntPtrIn,
    /// `int *` the call fills, printed `[N]`.
    IntPtrOut,
    /// A CPU mask read at entry, its length in bytes in the given argument.
    CpuSetIn(u8),
    /// A CPU mask the call fills, as many bytes as it returned.
    CpuSetOut,
    /// `struct msghdr *` input.
    MsghdrIn,
    /// `struct msghdr *` output.
    MsghdrOut,
    /// `struct pollfd *` in (count in the given argument); revents at exit.
    Pollfds(u8),
    /// `struct epoll_event *` input.
    EpollEventIn,
    /// `struct epoll_event *` output, count = return value.
    EpollEventsOut,
    /// `struct timeval *` input.
    TimevalIn,
    /// `struct itimerspec *` input.
    ItimerspecIn,
    /// `struct itimerspec *` output.
    ItimerspecOut,
    /// Pointer to a struct that is only printed as an address.
    OutPtr,
    /// Wait options.
    WaitOptions,
    /// `struct pollfd *` array: events at entry, revents (in the return) at exit.
    PollfdsBoth(u8),
    /// `struct timespec *` timeout that the kernel updates (ppoll).
    TimespecBoth,
    /// `socklen_t *` value-result: `[in => out]`.
    SocklenBoth,
    /// getdents buffer: `0x... /* N entries */`.
    Dirents,
    /// `stack_t *` input.
    StackIn,
    /// `stack_t *` output.
    StackOut,
    /// Protection bits (`PROT_NONE` for 0).
    Prot,
    /// getsockopt value, its length behind the given argument.
    SockoptOut(u8),
    /// setsockopt value, its length the given argument.
    SockoptIn(u8),
    /// `struct clone_args *` (clone3).
    CloneArgs,
    /// statx flags: the sync type, then AT_ flags.
    StatxFlags,
    /// The signal mask of the frame rt_sigreturn restores.
    SigreturnMask,
    /// `struct utsname *` output.
    UtsnameOut,
    /// `struct statfs *` output.
    StatfsOut,
    /// `struct sysinfo *` output.
    SysinfoOut,
    /// `struct rusage *` output.
    RusageOut,
    /// `gid_t *` output, as many as the call returned.
    GidsOut,
    /// `gid_t *` input, as many as argument 0 says.
    GidsIn,
    /// `loff_t *` read at entry, printed `[in]` (copy_file_range, splice:
    /// strace 6.1 shows only the value the call started from).
    OffIn,
    /// `loff_t *` the call reads and advances (sendfile): `[in]` at entry,
    /// ` => [out]` added at exit when the call moved data.
    OffBoth,
    /// `fd_set *` of select: the set asked for (what came back is in the return).
    FdSetBoth,
    /// `struct timeval *` select timeout, updated by the kernel.
    TimevalBoth,
    /// pselect6's sixth argument: `{sigmask=..., sigsetsize=...}`.
    PselectSigmask,
    /// `struct open_how *` (openat2).
    OpenHow,
    /// `struct io_uring_params *`, filled by the kernel.
    IoUringParams,
    /// `const struct timespec times[2]` (utimensat).
    UtimeSpecs,
    /// `struct timespec *` of the time left, which the kernel writes when a
    /// sleep is interrupted (shown then only, else the address).
    TimespecRemain,
    /// A user or group id: `-1` for all ones, unsigned otherwise.
    Uid,
    /// `uid_t *` the call fills, printed `[N]` as [`Ty::Uid`].
    UidPtrOut,
    /// `unsigned int *` the call fills, printed `[N]`.
    UintPtrOut,
    /// Flags of an int argument, with the hint to show when no bit has a name.
    FlagsH(&'static [(u64, &'static str)], &'static str),
    /// Flags of a 64-bit argument, with the hint to show when no bit has a name.
    Flags64H(&'static [(u64, &'static str)], &'static str),
    /// Return-only pseudo type used by custom decoders.
    Skip,
}

impl Ty {
    fn is_output(self) -> bool {
        matches!(
            self,
            Ty::BufOut
                | Ty::FixedOut(_)
                | Ty::RandomOut
                | Ty::StrOut
                | Ty::TimespecOut
                | Ty::StatOut
                | Ty::StatxOut
                | Ty::IovOut(_)
                | Ty::SockaddrOut(_)
                | Ty::SocklenPtr
                | Ty::SigsetOut
                | Ty::SigactionOut
                | Ty::RlimitOut
                | Ty::FdPairOut
                | Ty::WaitStatusOut
                | Ty::MsghdrOut
                | Ty::EpollEventsOut
                | Ty::ItimerspecOut
                | Ty::OutPtr
                | Ty::SocklenBoth
                | Ty::Dirents
                | Ty::StackOut
                | Ty::SockoptOut(_)
                | Ty::UtsnameOut
                | Ty::StatfsOut
                | Ty::SysinfoOut
                | Ty::RusageOut
                | Ty::GidsOut
                | Ty::IoUringParams
                | Ty::IntPtrOut
                | Ty::UidPtrOut
                | Ty::UintPtrOut
                | Ty::TimespecRemain
                | Ty::CpuSetOut
                | Ty::SigsetLenOut(_)
                | Ty::SigpendingOut
                | Ty::SiginfoOut
                | Ty::PtrPtrOut
                | Ty::UlongPtrOut
        )
    }

    fn plan(self, idx: usize, o: &Options) -> CapPlan {
        let s = o.strsize.min(u32::MAX as usize) as u32;
        let p = |kind, when, len_arg: u8, max| CapPlan {
            kind,
            when,
            len_arg,
            mult: 0,
            max,
            cond: None,
            src_arg: None,
            deref: None,
            ..Default::default()
        };
        use CapKind as K;
        use CapWhen as W;
        match self {
            Ty::Path => p(K::Str, W::Enter, 0, 4096),
            Ty::Str => p(K::Str, W::Enter, 0, s),
            // a byte past -s: strace reads it (all or nothing) when the
            // buffer is longer
            Ty::BufIn(l) => p(K::ArgLen, W::Enter, l, s.saturating_add(1)),
            Ty::BufOut | Ty::RandomOut | Ty::StrOut => p(
                K::RetLen,
                W::ExitOk,
                0,
                s.max(if matches!(self, Ty::StrOut) { 4096 } else { 0 }),
            ),
            Ty::TimespecIn => p(K::Fixed, W::Enter, 0, 16),
            Ty::UtimeVals => p(K::Fixed, W::Enter, 0, 32),
            Ty::FixedIn(n) => p(K::Fixed, W::Enter, 0, n as u32),
            Ty::FixedOut(n) => p(K::Fixed, W::ExitOk, 0, n as u32),
            Ty::TimespecOut => p(K::Fixed, W::ExitOk, 0, 16),
            Ty::TimevalIn => p(K::Fixed, W::Enter, 0, 16),
            Ty::ItimerspecIn => p(K::Fixed, W::Enter, 0, 32),
            Ty::ItimerspecOut => p(K::Fixed, W::ExitOk, 0, 32),
            Ty::StatOut => p(K::Fixed, W::ExitOk, 0, 144),
            Ty::StatxOut => p(K::Fixed, W::ExitOk, 0, 256),
            Ty::Argv => p(K::StrArray, W::Enter, 0, s),
            Ty::Envp if o.verbose => p(K::StrArray, W::Enter, 0, s),
            Ty::Envp => p(K::Count, W::Enter, 0, 0),
            // a byte past -s: strace reads it (all or nothing) when the
            // buffer is longer
            Ty::IovIn(l) => p(K::Iov, W::Enter, l, s.saturating_add(1)),
            Ty::IovOut(l) => p(K::IovRet, W::ExitOk, l, s.saturating_add(1)),
            Ty::SockaddrIn(l) => p(K::ArgLen, W::Enter, l, 128),
            Ty::SockaddrOut(l) => p(K::PtrLen, W::ExitOk, l, 128),
            Ty::SocklenPtr => p(K::Fixed, W::Exit, 0, 4),
            Ty::SigsetIn => p(K::Fixed, W::Enter, 0, 8),
            Ty::SigsetOut => p(K::Fixed, W::ExitOk, 0, 8),
            Ty::SigsetLenIn(_) => p(K::Fixed, W::Enter, 0, 8),
            Ty::SigsetLenOut(_) => p(K::Fixed, W::ExitOk, 0, 8),
            // as many bytes as the size says (1 to 8): 8 could run off a page
            Ty::SigpendingOut => p(K::ArgLen, W::ExitOk, 1, 8),
            // strace reads the whole siginfo_t: a shorter one is an address
            Ty::SiginfoIn => p(K::Fixed, W::Enter, 0, 128),
            Ty::SiginfoOut => p(K::Fixed, W::ExitOk, 0, 48),
            Ty::PtrPtrOut | Ty::UlongPtrOut => p(K::Fixed, W::ExitOk, 0, 8),
            Ty::IovAddrs(l) => CapPlan {
                kind: K::ArgLen,
                when: W::Enter,
                len_arg: l,
                mult: 16,
                max: array_max(o, 16),
                ..Default::default()
            },
            Ty::SigactionIn => p(K::Fixed, W::Enter, 0, 32),
            Ty::SigactionOut => p(K::Fixed, W::ExitOk, 0, 32),
            Ty::RlimitIn => p(K::Fixed, W::Enter, 0, 16),
            Ty::RlimitOut => p(K::Fixed, W::ExitOk, 0, 16),
            Ty::FdPairOut => p(K::Fixed, W::ExitOk, 0, 8),
            Ty::WaitStatusOut => p(K::Fixed, W::ExitOk, 0, 4),
            Ty::IntPtrIn => p(K::Fixed, W::Enter, 0, 4),
            Ty::TimespecRemain => p(K::Fixed, W::Exit, 0, 16),
            Ty::IntPtrOut | Ty::UidPtrOut | Ty::UintPtrOut => p(K::Fixed, W::ExitOk, 0, 4),
            Ty::CpuSetIn(l) => p(K::ArgLen, W::Enter, l, sched::CPUSET_MAX as u32),
            Ty::CpuSetOut => p(K::RetLen, W::ExitOk, 0, sched::CPUSET_MAX as u32),
            Ty::MsghdrIn => p(K::Msghdr, W::Enter, 0, s),
            Ty::MsghdrOut => p(K::MsghdrRet, W::ExitOk, 0, s),
            Ty::Pollfds(n) | Ty::PollfdsBoth(n) => CapPlan {
                kind: K::ArgLen,
                when: W::Both,
                len_arg: n,
                mult: 8,
                max: 8 * 64,
                cond: None,
                src_arg: None,
                deref: None,
                ..Default::default()
            },
            Ty::TimespecBoth => p(K::Fixed, W::Both, 0, 16),
            Ty::SocklenBoth => p(K::Fixed, W::Both, 0, 4),
            // the whole buffer, in chunks, as far as a record holds it
            // (~48 KiB); beyond that BPF counts the entries
            Ty::Dirents => p(K::Dirents, W::ExitOk, 0, 0),
            Ty::StackIn => p(K::Fixed, W::Enter, 0, 24),
            Ty::StackOut => p(K::Fixed, W::ExitOk, 0, 24),
            // the largest structure decoded (group_req) whatever -s says
            Ty::SockoptOut(l) => p(K::PtrLen, W::ExitOk, l, s.max(64)),
            Ty::SockoptIn(l) => p(K::ArgLen, W::Enter, l, s.max(136)),
            // the struct and what follows it up to the size given (at most
            // a page); the known part again in a free slot (see plan)
            Ty::CloneArgs => p(K::ArgLen, W::Both, 1, 4096),
            // uc_sigmask in the rt_sigframe at the stack pointer (296 = 37 * 8)
            Ty::SigreturnMask => p(K::SpRel, W::Enter, 37, 8),
            Ty::OffIn => p(K::Fixed, W::Enter, 0, 8),
            Ty::OffBoth => p(K::Fixed, W::Both, 0, 8),
            // nfds bits need nfds / 8 bytes: nfds bytes is always enough
            Ty::FdSetBoth => p(K::ArgLen, W::Both, 0, 1024),
            Ty::TimevalBoth => p(K::Fixed, W::Both, 0, 16),
            Ty::PselectSigmask => p(K::Fixed, W::Enter, 0, 16),
            // the struct and what follows it, up to the size given (at most
            // a page, strace's limit); the struct alone again in a free slot
            // (see plan), for when the whole cannot be read
            Ty::OpenHow => p(K::ArgLen, W::Enter, 3, 4096),
            Ty::IoUringParams => p(K::Fixed, W::ExitOk, 0, 120),
            Ty::UtimeSpecs => p(K::Fixed, W::Enter, 0, 32),
            Ty::UtsnameOut => p(K::Fixed, W::ExitOk, 0, 390),
            Ty::StatfsOut => p(K::Fixed, W::ExitOk, 0, 120),
            Ty::SysinfoOut => p(K::Fixed, W::ExitOk, 0, 112),
            Ty::RusageOut => p(K::Fixed, W::ExitOk, 0, 144),
            Ty::GidsOut => CapPlan {
                kind: K::RetLen,
                when: W::ExitOk,
                len_arg: 0,
                mult: 4,
                max: 4 * 64,
                cond: None,
                src_arg: None,
                deref: None,
                ..Default::default()
            },
            Ty::GidsIn => CapPlan {
                kind: K::ArgLen,
                when: W::Enter,
                len_arg: 0,
                mult: 4,
                max: 4 * 64,
                cond: None,
                src_arg: None,
                deref: None,
                ..Default::default()
            },
            Ty::EpollEventIn => p(K::Fixed, W::Enter, 0, 12),
            Ty::EpollEventsOut => CapPlan {
                kind: K::RetLen,
                when: W::ExitOk,
                len_arg: 0,
                mult: 12,
                max: 12 * 64,
                cond: None,
                src_arg: None,
                deref: None,
                ..Default::default()
            },
            _ => {
                let _ = idx;
                CapPlan::default()
            }
        }
    }
}

/// How a call's return value is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ret {
    /// Decimal.
    Dec,
    /// Hex (addresses: mmap, brk).
    Hex,
    /// A new file descriptor (`-y` shows its path).
    Fd,
    /// Never returns on success (exit, exit_group): `= ?`.
    NoReturn,
    /// Octal (umask).
    Oct,
}

/// A syscall's decoding recipe.
pub struct Decoder {
    /// Argument types, in order; empty with `custom` set.
    pub args: &'static [Ty],
    /// A function doing the whole argument list instead.
    pub custom: Option<fn(&mut ArgWriter<'_>)>,
    /// How the return value is printed.
    pub ret: Ret,
}

macro_rules! sig {
    ($ret:ident; $($t:expr),* $(,)?) => {
        Decoder { args: const { &[$($t),*] }, custom: None, ret: Ret::$ret }
    };
}

fn custom(f: fn(&mut ArgWriter<'_>), ret: Ret) -> Decoder {
    Decoder {
        args: &[],
        custom: Some(f),
        ret,
    }
}

use Ty::*;

/// The decoder of syscall number `nr`, looked up in a table built once:
/// the per-event path, where matching names would cost more than decoding.
pub fn decoder_for(nr: u32) -> Option<&'static Decoder> {
    static TABLE: std::sync::OnceLock<Vec<Option<Decoder>>> = std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| {
            let max = table::SYSCALLS.iter().map(|s| s.nr).max().unwrap_or(0) as usize;
            let mut v: Vec<Option<Decoder>> = (0..=max).map(|_| None).collect();
            for s in table::SYSCALLS {
                v[s.nr as usize] = decoder(s.name);
            }
            v
        })
        .get(nr as usize)?
        .as_ref()
}

/// The decoder for a syscall name, if genba knows its arguments.
pub fn decoder(name: &str) -> Option<Decoder> {
    Some(match name {
        // files
        "read" => sig!(Dec; Fd, BufOut, Ulong),
        "write" => sig!(Dec; Fd, BufIn(2), Ulong),
        "pread64" => sig!(Dec; Fd, BufOut, Ulong, Long),
        "pwrite64" => sig!(Dec; Fd, BufIn(2), Ulong, Long),
        "readv" => sig!(Dec; Fd, IovOut(2), Ulong),
        "writev" => sig!(Dec; Fd, IovIn(2), Ulong),
        "preadv" => sig!(Dec; Fd, IovOut(2), Ulong, Long),
        "pwritev" => sig!(Dec; Fd, IovIn(2), Ulong, Long),
        "open" => custom(dec_open, Ret::Fd),
        "openat" => custom(dec_openat, Ret::Fd),
        "creat" => sig!(Fd; Path, Mode),
        "close" => sig!(Dec; Fd),
        "stat" | "lstat" => sig!(Dec; Path, StatOut),
        "fstat" => sig!(Dec; Fd, StatOut),
        "newfstatat" => sig!(Dec; DirFd, Path, StatOut, Flags(c::AT_FLAGS)),
        "statx" => sig!(Dec; DirFd, Path, StatxFlags, Flags(c::STATX_MASK), StatxOut),
        "access" => sig!(Dec; Path, AccessMode),
        "faccessat" => sig!(Dec; DirFd, Path, AccessMode),
        "faccessat2" => sig!(Dec; DirFd, Path, AccessMode, Flags(c::FACCESSAT_FLAGS)),
        "readlink" => sig!(Dec; Path, BufOut, Ulong),
        "readlinkat" => sig!(Dec; DirFd, Path, BufOut, Ulong),
        "unlink" | "rmdir" | "chdir" | "chroot" | "acct" => sig!(Dec; Path),
        "unlinkat" => sig!(Dec; DirFd, Path, Flags(c::AT_FLAGS)),
        "rename" | "link" | "symlink" => sig!(Dec; Path, Path),
        "renameat" => sig!(Dec; DirFd, Path, DirFd, Path),
        "linkat" => sig!(Dec; DirFd, Path, DirFd, Path, Flags(c::AT_FLAGS)),
        "renameat2" => sig!(Dec; DirFd, Path, DirFd, Path, Flags(c::RENAME_FLAGS)),
        "symlinkat" => sig!(Dec; Path, DirFd, Path),
        "mkdir" => sig!(Dec; Path, Mode),
        "mkdirat" => sig!(Dec; DirFd, Path, Mode),
        "fchdir" | "fsync" | "fdatasync" | "syncfs" => sig!(Dec; Fd),
        "getdents64" | "getdents" => sig!(Dec; Fd, Dirents, Uint),
        "getcwd" => sig!(Dec; StrOut, Ulong),
        "chmod" => sig!(Dec; Path, Mode),
        "fchmod" => sig!(Dec; Fd, Mode),
        "fchmodat" => sig!(Dec; DirFd, Path, Mode),
        "fchmodat2" => sig!(Dec; DirFd, Path, Mode, Flags(c::AT_FLAGS)),
        "chown" | "lchown" => sig!(Dec; Path, Uid, Uid),
        "fchown" => sig!(Dec; Fd, Uid, Uid),
        "fchownat" => sig!(Dec; DirFd, Path, Uid, Uid, Flags(c::AT_FLAGS)),
        "truncate" => sig!(Dec; Path, Long),
        "ftruncate" => sig!(Dec; Fd, Long),
        "umask" => sig!(Oct; Mode),
        "lseek" => sig!(Dec; Fd, Long, Enum(c::SEEK_WHENCE, "SEEK_???")),
        "dup" => sig!(Fd; Fd),
        "dup2" => sig!(Fd; Fd, Fd),
        "dup3" => sig!(Fd; Fd, Fd, Flags(c::PIPE_FLAGS)),
        "pipe" => sig!(Dec; FdPairOut),
        "pipe2" => sig!(Dec; FdPairOut, Flags(c::PIPE_FLAGS)),
        "fcntl" => custom(dec_fcntl, Ret::Dec),
        "ioctl" => custom(dec_ioctl, Ret::Dec),
        "flock" => sig!(Dec; Fd, Flags(c::FLOCK_OPS)),
        "sendfile" => custom(dec_sendfile, Ret::Dec),
        "copy_file_range" => sig!(Dec; Fd, OffIn, Fd, OffIn, Ulong, Uint),
        "splice" => sig!(Dec; Fd, OffIn, Fd, OffIn, Ulong, Flags(c::SPLICE_FLAGS)),
        "tee" => sig!(Dec; Fd, Fd, Ulong, Flags(c::SPLICE_FLAGS)),
        "close_range" => sig!(Dec; Uint, Uint, Flags(c::CLOSE_RANGE_FLAGS)),
        "fadvise64" => sig!(Dec; Fd, Long, Long, Enum(c::ADVISE, "POSIX_FADV_???")),
        "memfd_create" => custom(dec_memfd_create, Ret::Fd),
        "times" => custom(dec_times, Ret::Dec),
        "pidfd_open" => sig!(Fd; Pid, Flags(c::PIDFD_OPEN_FLAGS)),
        "pidfd_getfd" => custom(dec_pidfd_getfd, Ret::Fd),
        "memfd_secret" => custom(dec_memfd_secret, Ret::Fd),
        "inotify_init1" => sig!(Fd; Flags(c::IN_INIT_FLAGS)),
        // the mount API
        "mount" => custom(dec_mount, Ret::Dec),
        "fsopen" => sig!(Fd; Str, Flags(c::FSOPEN_FLAGS)),
        "fsmount" => sig!(Fd; Fd, Flags(c::FSMOUNT_FLAGS), Flags(c::FSMOUNT_ATTR_FLAGS)),
        "fspick" => sig!(Fd; DirFd, Path, Flags(c::FSPICK_FLAGS)),
        "move_mount" => sig!(Dec; DirFd, Path, DirFd, Path, Flags(c::MOVE_MOUNT_FLAGS)),
        "open_tree" => sig!(Fd; DirFd, Path, Flags(c::OPEN_TREE_FLAGS)),
        "fanotify_init" => custom(dec_fanotify_init, Ret::Fd),
        "fanotify_mark" => custom(dec_fanotify_mark, Ret::Dec),
        "landlock_restrict_self" => sig!(Dec; Fd, Hex32),
        "kcmp" => custom(dec_kcmp, Ret::Dec),
        "add_key" => custom(dec_add_key, Ret::Dec),
        "request_key" => sig!(Dec; Str, Str, Str, KeySerial),
        "landlock_create_ruleset" => custom(dec_landlock_create_ruleset, Ret::Fd),
        "landlock_add_rule" => custom(dec_landlock_add_rule, Ret::Dec),
        "mq_open" => custom(dec_mq_open, Ret::Fd),
        "epoll_pwait2" => custom(dec_epoll_pwait2, Ret::Dec),
        "mq_getsetattr" => custom(dec_mq_getsetattr, Ret::Dec),
        "mq_unlink" => sig!(Dec; Path),
        "mount_setattr" => custom(dec_mount_setattr, Ret::Fd),
        "fsconfig" => custom(dec_fsconfig, Ret::Dec),
        "futimesat" => sig!(Dec; DirFd, Path, UtimeVals),
        "get_mempolicy" => custom(dec_get_mempolicy, Ret::Dec),
        "ioprio_get" => custom(dec_ioprio, Ret::Dec),
        "ioprio_set" => custom(dec_ioprio, Ret::Dec),
        // the scheduler
        "sched_getscheduler" => sig!(Dec; Pid),
        "sched_setscheduler" => sig!(Dec; Pid, Enum(c::SCHED_POLICIES, "SCHED_???"), IntPtrIn),
        "sched_getparam" => sig!(Dec; Pid, IntPtrOut),
        "sched_setparam" => sig!(Dec; Pid, IntPtrIn),
        "sched_get_priority_min" | "sched_get_priority_max" => {
            sig!(Dec; Enum(c::SCHED_POLICIES, "SCHED_???"))
        }
        "sched_rr_get_interval" => sig!(Dec; Pid, TimespecOut),
        "sched_setaffinity" => sig!(Dec; Pid, Uint, CpuSetIn(1)),
        "sched_getaffinity" => sig!(Dec; Pid, Uint, CpuSetOut),
        "sched_setattr" => custom(sched::dec_sched_setattr, Ret::Dec),
        "get_robust_list" => sig!(Dec; Pid, PtrPtrOut, UlongPtrOut),
        "process_madvise" => {
            sig!(Dec; Fd, IovAddrs(2), Ulong, Enum(c::MADV, "MADV_???"), Hex32)
        }
        "process_mrelease" => sig!(Dec; Fd, Hex32),
        "waitid" => custom(dec_waitid, Ret::Dec),
        "sched_getattr" => custom(sched::dec_sched_getattr, Ret::Dec),
        // memory
        "mmap" => custom(dec_mmap, Ret::Hex),
        "munmap" => sig!(Dec; Ptr, Ulong),
        "mprotect" => sig!(Dec; Ptr, Ulong, Prot),
        "brk" => sig!(Hex; Ptr),
        "mremap" => custom(dec_mremap, Ret::Hex),
        "madvise" => sig!(Dec; Ptr, Ulong, Enum(c::MADV, "MADV_???")),
        "msync" => sig!(Dec; Ptr, Ulong, Flags(c::MSYNC_FLAGS)),
        "mlock" | "munlock" => sig!(Dec; Ptr, Ulong),
        "mlockall" => sig!(Dec; Flags(MCL_FLAGS)),
        "remap_file_pages" => custom(dec_remap_file_pages, Ret::Dec),
        "mbind" => custom(dec_mbind, Ret::Dec),
        "set_mempolicy" => custom(dec_set_mempolicy, Ret::Dec),
        "migrate_pages" => custom(dec_migrate_pages, Ret::Dec),
        "move_pages" => custom(dec_move_pages, Ret::Dec),
        // processes
        "execve" => sig!(Dec; Path, Argv, Envp),
        "execveat" => sig!(Dec; DirFd, Path, Argv, Envp, Flags(c::AT_FLAGS)),
        "exit" | "exit_group" => sig!(NoReturn; Int),
        "wait4" => custom(dec_wait4, Ret::Dec),
        "kill" => sig!(Dec; PidPgid, Signal),
        "tkill" => sig!(Dec; Pid, Signal),
        "tgkill" => sig!(Dec; Pid, Pid, Signal),
        "clone" => custom(dec_clone, Ret::Dec),
        "clone3" => custom(dec_clone3, Ret::Dec),
        "set_tid_address" => sig!(Dec; Ptr),
        "set_robust_list" => sig!(Dec; Ptr, Ulong),
        "rseq" => sig!(Dec; Ptr, Hex, Flags(c::RSEQ_FLAGS), Hex),
        "arch_prctl" => custom(dec_arch_prctl, Ret::Dec),
        "prctl" => custom(dec_prctl, Ret::Dec),
        "prlimit64" => custom(dec_prlimit, Ret::Dec),
        "preadv2" | "pwritev2" => custom(dec_preadv2, Ret::Dec),
        "uname" => sig!(Dec; UtsnameOut),
        "statfs" => sig!(Dec; Path, StatfsOut),
        "fstatfs" => sig!(Dec; Fd, StatfsOut),
        "sysinfo" => sig!(Dec; SysinfoOut),
        "getrusage" => sig!(Dec; Enum(RUSAGE_WHO, "RUSAGE_???"), RusageOut),
        "getgroups" => sig!(Dec; Int, GidsOut),
        "setgroups" => sig!(Dec; Int, GidsIn),
        "removexattr" | "lremovexattr" => sig!(Dec; Path, Str),
        "fremovexattr" => sig!(Dec; Fd, Str),
        "getrlimit" => sig!(Dec; Enum(c::RLIMIT_RESOURCES, "RLIMIT_???"), RlimitOut),
        "setrlimit" => sig!(Dec; Enum(c::RLIMIT_RESOURCES, "RLIMIT_???"), RlimitIn),
        "getrandom" => sig!(Dec; RandomOut, Ulong, Flags(c::GRND_FLAGS)),
        "getpid" | "getppid" | "gettid" | "getuid" | "geteuid" | "getgid" | "getegid"
        | "getpgrp" | "setsid" | "sched_yield" | "fork" | "vfork" | "sync" | "pause"
        | "munlockall" | "vhangup" => sig!(Dec;),
        "setuid" | "setgid" => sig!(Dec; Uid),
        "getpgid" | "getsid" => sig!(Dec; Pid),
        "setpgid" => sig!(Dec; Pid, Int),
        // signals
        "rt_sigaction" => sig!(Dec; Signal, SigactionIn, SigactionOut, Ulong),
        "rt_sigprocmask" => {
            sig!(Dec; Enum(c::SIGPROCMASK_HOW, "SIG_???"), SigsetLenIn(3), SigsetLenOut(3), Ulong)
        }
        "rt_sigpending" => sig!(Dec; SigpendingOut, Ulong),
        "rt_sigtimedwait" => sig!(Dec; SigsetLenIn(3), SiginfoOut, TimespecIn, Ulong),
        "rt_sigqueueinfo" => sig!(Dec; Pid, Signal, SiginfoIn),
        "rt_tgsigqueueinfo" => sig!(Dec; Pid, Pid, Signal, SiginfoIn),
        "pidfd_send_signal" => sig!(Dec; Fd, Signal, SiginfoIn, Hex32),
        "rt_sigreturn" => sig!(Dec; SigreturnMask),
        "sigaltstack" => sig!(Dec; StackIn, StackOut),
        "rt_sigsuspend" => sig!(Dec; SigsetLenIn(1), Ulong),
        // time
        "clock_gettime" | "clock_getres" => sig!(Dec; Enum(c::CLOCK_IDS, "CLOCK_???"), TimespecOut),
        "nanosleep" => sig!(Dec; TimespecIn, TimespecRemain),
        // futex
        "futex" => custom(dec_futex, Ret::Dec),
        // polling
        "poll" => sig!(Dec; PollfdsBoth(1), Uint, Int),
        "ppoll" => sig!(Dec; PollfdsBoth(1), Uint, TimespecBoth, SigsetIn, Ulong),
        "select" => sig!(Dec; Int, FdSetBoth, FdSetBoth, FdSetBoth, TimevalBoth),
        "pselect6" => sig!(Dec; Int, FdSetBoth, FdSetBoth, FdSetBoth, TimespecBoth, PselectSigmask),
        "openat2" => sig!(Fd; DirFd, Path, OpenHow, Ulong),
        "utimensat" => sig!(Dec; DirFd, Path, UtimeSpecs, Flags(c::AT_FLAGS)),
        "epoll_create" => sig!(Fd; Int),
        "epoll_create1" => sig!(Fd; Flags(c::EPOLL_CREATE_FLAGS)),
        "epoll_wait" => sig!(Dec; Fd, EpollEventsOut, Int, Int),
        "epoll_pwait" => sig!(Dec; Fd, EpollEventsOut, Int, Int, SigsetLenIn(5), Ulong),
        "eventfd2" => sig!(Fd; Uint, Flags(c::EFD_FLAGS)),
        "eventfd" => sig!(Fd; Uint),
        "timerfd_create" => sig!(Fd; Enum(c::CLOCK_IDS, "CLOCK_???"), Flags(c::TFD_FLAGS)),
        "timerfd_settime" => sig!(Dec; Fd, Flags(c::TFD_TIMER_FLAGS), ItimerspecIn, ItimerspecOut),
        "timerfd_gettime" => sig!(Dec; Fd, ItimerspecOut),
        "io_uring_enter" => {
            sig!(Dec; Fd, Uint, Uint, Flags(c::IO_URING_ENTER_FLAGS), SigsetLenIn(5), Ulong)
        }
        // sockets
        "socket" => custom(dec_socket, Ret::Fd),
        "connect" | "bind" => sig!(Dec; Fd, SockaddrIn(2), Uint),
        "listen" => sig!(Dec; Fd, Int),
        "accept" => sig!(Fd; Fd, SockaddrOut(2), SocklenBoth),
        "accept4" => sig!(Fd; Fd, SockaddrOut(2), SocklenBoth, Flags(c::SOCKET_TYPE_FLAGS)),
        "getsockname" | "getpeername" => sig!(Dec; Fd, SockaddrOut(2), SocklenBoth),
        "sendmsg" => sig!(Dec; Fd, MsghdrIn, Flags(c::MSG_FLAGS)),
        "recvmsg" => sig!(Dec; Fd, MsghdrOut, Flags(c::MSG_FLAGS)),
        // sendmmsg, recvmmsg: mmsg.rs
        "shutdown" => sig!(Dec; Fd, Enum(c::SHUTDOWN_HOW, "SHUT_???")),
        "setsockopt" => custom(dec_setsockopt, Ret::Dec),
        "getsockopt" => custom(dec_getsockopt, Ret::Dec),
        "socketpair" => custom(dec_socketpair, Ret::Dec),
        _ => return family_decoder(name),
    })
}

/// Calls that return without waiting on anything (no I/O, locks or sleeps),
/// so a trace loses nothing by learning of them only at their exit.
pub fn never_blocks(name: &str) -> bool {
    matches!(
        name,
        "getpid"
            | "getppid"
            | "gettid"
            | "getuid"
            | "geteuid"
            | "getgid"
            | "getegid"
            | "getpgrp"
            | "getpgid"
            | "getsid"
            | "getresuid"
            | "getresgid"
            | "getgroups"
            | "brk"
            | "mmap"
            | "munmap"
            | "mprotect"
            | "madvise"
            | "mremap"
            | "mlock"
            | "munlock"
            | "lseek"
            | "dup"
            | "dup2"
            | "dup3"
            | "umask"
            | "arch_prctl"
            | "set_tid_address"
            | "set_robust_list"
            | "rseq"
            | "sched_yield"
            | "getcwd"
            | "uname"
            | "sysinfo"
            | "times"
            | "getrusage"
            | "clock_gettime"
            | "clock_getres"
            | "gettimeofday"
            | "time"
            | "getpriority"
            | "getrlimit"
            | "getrandom"
            | "pipe"
            | "pipe2"
            | "eventfd"
            | "eventfd2"
            | "epoll_create"
            | "epoll_create1"
            | "timerfd_create"
            | "socket"
            | "socketpair"
    )
}

/// Whether the entry record of a call can be skipped: nothing is copied at
/// entry and the call never blocks (see [`never_blocks`]).
pub fn exit_only(name: &str, plan: &[CapPlan; SLOTS]) -> bool {
    never_blocks(name)
        && plan
            .iter()
            .all(|p| p.kind == CapKind::None || matches!(p.when, CapWhen::Exit | CapWhen::ExitOk))
}

/// The capture plan for a call: which user memory the BPF side copies.
pub fn plan(name: &str, o: &Options) -> [CapPlan; SLOTS] {
    let mut out = [CapPlan::default(); SLOTS];
    let (args, extra) = out.split_at_mut(6);
    let args: &mut [CapPlan; 6] = args.try_into().expect("six argument slots");
    plan_args(name, o, args);
    second_level::plan(name, o, extra);
    out
}

/// The plan of the six argument slots.
fn plan_args(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    let Some(d) = decoder(name) else { return };
    let args: &[Ty] = if d.custom.is_some() {
        custom_types(name)
    } else {
        d.args
    };
    for (i, t) in args.iter().enumerate().take(6) {
        out[i] = t.plan(i, o);
    }
    // the inodes of new pipes and sockets, for -y (slot 5 is free in all of these)
    let fd_ino = |len_arg: u8, max: u32| CapPlan {
        kind: CapKind::FdIno,
        when: CapWhen::ExitOk,
        len_arg,
        max,
        ..Default::default()
    };
    match name {
        "pipe" | "pipe2" => out[5] = fd_ino(0, 0),
        "socketpair" => out[5] = fd_ino(3, 0),
        "socket" | "accept" | "accept4" => out[5] = fd_ino(0xff, 0xfe),
        _ => {}
    }
    match name {
        // pages, nodes (entry) and status (exit): elements up to -s and one
        "move_pages" => {
            for (slot, elem, when) in [
                (2, 8u8, CapWhen::Enter),
                (3, 4, CapWhen::Enter),
                (4, 4, CapWhen::ExitOk),
            ] {
                out[slot] = CapPlan {
                    kind: CapKind::ArgLen,
                    when,
                    len_arg: 1,
                    mult: elem,
                    max: array_max(o, elem as usize),
                    ..Default::default()
                };
            }
        }
        "clone3" => {
            out[5] = CapPlan {
                kind: CapKind::ArgLen,
                when: CapWhen::Both,
                len_arg: 1,
                max: CLONE_ARGS_MAX as u32,
                src_arg: Some(0),
                ..Default::default()
            };
            // set_tid[set_tid_size] (words 8 and 9), at most 32 of them
            out[1] = CapPlan {
                kind: CapKind::ArgLen,
                when: CapWhen::Enter,
                len_arg: 9,
                mult: 4,
                max: 4 * 32,
                src_arg: Some(0),
                deref: Some(8),
                ..Default::default()
            };
            // what the kernel wrote at pidfd and parent_tid (words 1 and 3)
            for (slot, word) in [(2, 1), (3, 3)] {
                out[slot] = CapPlan {
                    kind: CapKind::Fixed,
                    when: CapWhen::ExitOk,
                    len_arg: 0xff,
                    max: 4,
                    src_arg: Some(0),
                    deref: Some(word),
                    ..Default::default()
                };
            }
        }
        "openat2" => {
            out[5] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::Enter,
                max: 24,
                src_arg: Some(2),
                ..Default::default()
            };
        }
        // the size the kernel wrote back (E2BIG)
        "sched_setattr" => {
            out[5] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::Exit,
                max: 4,
                src_arg: Some(1),
                ..Default::default()
            };
        }
        // as much of the struct as the caller gave room for
        "sched_getattr" => {
            out[1] = CapPlan {
                kind: CapKind::ArgLen,
                when: CapWhen::ExitOk,
                len_arg: 2,
                max: sched::SCHED_ATTR_V1 as u32,
                ..Default::default()
            };
        }
        // struct mount_attr, with what follows it up to the size given (at
        // most a page); its first 32 bytes again in the free slot, for
        // when the whole cannot be read
        "mount_setattr" => {
            out[3] = CapPlan {
                kind: CapKind::ArgLen,
                when: CapWhen::Enter,
                len_arg: 4,
                max: 4096,
                ..Default::default()
            };
            out[5] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::Enter,
                max: 32,
                src_arg: Some(3),
                ..Default::default()
            };
        }
        // the name: no more than strace reads (a name ending its page
        // must not make the copy fail)
        // and the same bytes with a fixed-size copy in a free slot: a
        // string copy reads one past them
        "memfd_create" => {
            out[0].max = out[0].max.min(250);
            out[2] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::Enter,
                max: out[0].max,
                src_arg: Some(0),
                ..Default::default()
            };
        }
        // FSCONFIG_SET_BINARY's value: aux bytes, in the free slot
        "fsconfig" => {
            out[5] = CapPlan {
                kind: CapKind::ArgLen,
                when: CapWhen::Enter,
                len_arg: 4,
                max: (o.strsize + 1).min(4096) as u32,
                src_arg: Some(3),
                cond: Some(CapCond::one_of(1, u32::MAX, &[2])),
                ..Default::default()
            };
        }
        // node masks: maxnode bytes are more than the words it needs
        "mbind" => out[3] = nodemask_plan(4, o, CapWhen::Enter),
        "set_mempolicy" => {
            out[1] = nodemask_plan(2, o, CapWhen::Enter);
            for (k, slot) in out.iter_mut().enumerate().skip(3) {
                *slot = CapPlan {
                    kind: CapKind::Fixed,
                    when: CapWhen::Enter,
                    max: 8 * (k as u32 - 2),
                    src_arg: Some(1),
                    ..Default::default()
                };
            }
        }
        "get_mempolicy" => out[1] = nodemask_plan(2, o, CapWhen::ExitOk),
        "migrate_pages" => {
            out[2] = nodemask_plan(1, o, CapWhen::Enter);
            out[3] = nodemask_plan(1, o, CapWhen::Enter);
        }
        // the timeout of WAIT, LOCK_PI, WAIT_BITSET, WAIT_REQUEUE_PI, LOCK_PI2
        // (for the other commands the fourth argument is a number)
        "futex" => out[3].cond = Some(CapCond::one_of(1, 0x7f, &[0, 6, 9, 11, 13])),
        // struct flock (32 bytes) and struct f_owner_ex (8): the set commands
        // read it, the get commands write it back
        "fcntl" => {
            out[2] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::Both,
                max: 32,
                cond: Some(CapCond::one_of(1, u32::MAX, FCNTL_STRUCT_CMDS)),
                ..Default::default()
            };
        }
        // ARCH_GET_FS, ARCH_GET_GS, ARCH_GET_XCOMP_*: the value the kernel
        // writes (the XCOMP ones in free slots, copying argument 1)
        "arch_prctl" => {
            let get = |src_arg, val, val2| CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::ExitOk,
                max: 8,
                src_arg,
                cond: Some(CapCond {
                    arg: 0,
                    mask: u32::MAX,
                    val,
                    val2,
                    bitmap: false,
                }),
                ..Default::default()
            };
            out[1] = get(None, ARCH_GET_FS_GS[0], ARCH_GET_FS_GS[1]);
            out[2] = get(Some(1), ARCH_GET_XCOMP[0], ARCH_GET_XCOMP[1]);
            out[3] = get(Some(1), ARCH_GET_XCOMP[2], ARCH_GET_XCOMP[2]);
        }
        "prctl" => {
            let only = |val: u32| {
                Some(CapCond {
                    arg: 0,
                    mask: u32::MAX,
                    val,
                    val2: val,
                    bitmap: false,
                })
            };
            // a name only for PR_SET_NAME (read at entry) and PR_GET_NAME (at exit)
            out[1] = CapPlan {
                kind: CapKind::Str,
                when: CapWhen::Both,
                max: 16,
                cond: Some(CapCond {
                    arg: 0,
                    mask: u32::MAX,
                    val: 15,
                    val2: 16,
                    bitmap: false,
                }),
                ..Default::default()
            };
            // the int the PR_GET_* options with an int pointer fill, in the
            // option's slot
            out[PRCTL_SLOT_INT] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::ExitOk,
                max: 8,
                cond: Some(CapCond::one_of(0, u32::MAX, PRCTL_INT_OR_KPTR_OUT)),
                src_arg: Some(1),
                ..Default::default()
            };
            // PR_SET_NAME's name as 15 bytes: strace prints them with `...`
            // when they hold no NUL, even with unreadable memory after them
            out[PRCTL_SLOT_NAME15] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::Enter,
                max: 15,
                cond: only(15),
                src_arg: Some(1),
                ..Default::default()
            };
            // PR_SET_SECCOMP's filter program
            out[PRCTL_SLOT_FPROG] = prctl_seccomp::plan(o);
            // PR_SET_VMA's name
            out[4] = CapPlan {
                cond: only(0x5356_4d41),
                ..Str.plan(4, o)
            };
            // PR_SCHED_CORE_GET's cookie (any PR_SCHED_CORE: the
            // sub-command cannot be tested as well)
            out[PRCTL_SLOT_COOKIE] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::ExitOk,
                max: 8,
                cond: only(62),
                src_arg: Some(4),
                ..Default::default()
            };
        }
        // the struct or int the request points to: its size as the request
        // encodes it, or as ioctl_sizes() says for the old requests
        "ioctl" => {
            out[2] = CapPlan {
                kind: CapKind::Ioc,
                when: CapWhen::Both,
                len_arg: 1,
                max: IOC_MAX,
                ..Default::default()
            };
            // evdev's variable-length reads (bit sets, names): up to the
            // longest (KEY_MAX bits), whatever the request's size says; as
            // far as memory goes when it ends before. In slot 1 (the
            // request, an integer): the families' slots 3-5 are the KD's.
            out[1] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::ExitOk,
                max: 128,
                src_arg: Some(2),
                cond: Some(CapCond {
                    arg: 1,
                    mask: 0xc000_ff00,
                    val: 0x8000_4500,
                    val2: 0x8000_4500,
                    bitmap: false,
                }),
                ..Default::default()
            };
            ioctl::plan(o, out);
        }
        _ => {}
    }
    family_plan(name, o, out);
    strpath::plan(args, out);
}

/// The most bytes copied for an ioctl's argument: the largest structure a
/// decoder reads whole (UBI_IOCRNVOL's struct ubi_rnvol_req, 4368 bytes).
const IOC_MAX: u32 = 4368;

/// An [`ioctl_sizes`] value with this bit is not a size but a copy of
/// another kind (genba.h's GENBA_IOC_SPECIAL; the kind in bits 24-30).
pub const IOC_SPECIAL: u32 = 0x8000_0000;
/// [`ioctl_sizes`] value: a struct whose first u32 counts the elements
/// after its header; with the header's bytes in the low 16 bits and an
/// element's in bits 16-23 (at most [`IOC_MAX`] bytes in all).
pub const IOC_COUNTED: u32 = 0x8100_0000;
/// [`ioctl_sizes`] value for KVM_RUN under `-e kvm=vcpu`: when it returns
/// 0, the exit reason of its vcpu (4 bytes, read at the call's exit).
pub const IOC_KVM_EXIT: u32 = 0x8200_0000;
/// KVM_RUN's request number.
pub const KVM_RUN: u32 = ioctl::KVM_RUN;

/// The descriptor a successful KVM ioctl made and its name, when the call
/// says it (`anon_inode:kvm-vcpu:0`); `fd_name` is the name of the
/// descriptor it was made on.
pub fn kvm_created_fd(call: &CallView<'_>, fd_name: Option<&str>) -> Option<(i32, String)> {
    ioctl::kvm_created_fd(call, fd_name)
}

/// Whether ioctl request `req` is a KVM request that makes a descriptor.
pub fn kvm_creates_fd(req: u32) -> bool {
    ioctl::kvm_creates_fd(req)
}

/// The descriptor a KVM request of [`kvm_creates_fd`] made, named or not.
pub fn kvm_made_fd(call: &CallView<'_>) -> Option<i32> {
    ioctl::kvm_made_fd(call)
}

/// The ioctl requests whose argument the decoders read but whose number
/// does not encode its size (the terminal's 'T' requests), with the bytes
/// to copy. The others are copied as their number says.
pub fn ioctl_sizes() -> Vec<(u32, u32)> {
    // struct termios: 4 flag words, c_line, 19 control characters
    const TERMIOS: u32 = 36;
    const WINSIZE: u32 = 8;
    const INT: u32 = 4;
    let mut v = vec![
        (0x5401, TERMIOS), // TCGETS
        (0x5402, TERMIOS), // TCSETS
        (0x5403, TERMIOS), // TCSETSW
        (0x5404, TERMIOS), // TCSETSF
        (0x5413, WINSIZE), // TIOCGWINSZ
        (0x5414, WINSIZE), // TIOCSWINSZ
    ];
    // TIOCGPGRP, FIONREAD, TIOCSPGRP, FIONBIO, FIOASYNC
    for r in [0x540F, 0x541B, 0x5410, 0x5421, 0x5452] {
        v.push((r, INT));
    }
    v.extend_from_slice(ioctl::SIZES);
    v.extend(ioctl::family_sizes());
    // ptrace's structures by request, in a key space of their own
    v.extend(ptrace::ioc_sizes());
    v
}

/// For custom decoders: the argument types whose memory they read.
fn custom_types(name: &str) -> &'static [Ty] {
    match name {
        "open" => &[Path],
        "openat" => &[DirFd, Path],
        "prlimit64" => &[Pid, Skip, RlimitIn, RlimitOut],
        "arch_prctl" => &[Skip, Skip],
        "preadv2" => &[Fd, IovOut(2)],
        "pwritev2" => &[Fd, IovIn(2)],
        "futex" => &[Ptr, Skip, Skip, TimespecIn],
        "sendfile" => &[Fd, Fd, OffBoth],
        "clone3" => &[CloneArgs],
        "getsockopt" => &[Fd, Skip, Skip, SockoptOut(4), SocklenBoth],
        "setsockopt" => &[Fd, Skip, Skip, SockoptIn(4)],
        "socketpair" => &[Skip, Skip, Skip, FdPairOut],
        "prctl" => &[Skip, Str, Skip, Skip, Str],
        "mount" => &[Path, Path, Str, Skip, Str],
        "fanotify_mark" => &[Skip, Skip, Skip, Skip, Path],
        "memfd_create" => &[Str],
        "times" => &[FixedOut(32)],
        "add_key" => &[Str, Str, BufIn(3)],
        "landlock_create_ruleset" => &[FixedIn(8)],
        "landlock_add_rule" => &[Skip, Skip, FixedIn(12)],
        "mq_open" => &[Path, Skip, Skip, FixedIn(64)],
        "get_mempolicy" => &[FixedOut(4)],
        "mount_setattr" => &[DirFd, Path],
        "fsconfig" => &[Skip, Skip, Str, Path],
        "epoll_pwait2" => &[Fd, EpollEventsOut, Skip, TimespecIn, SigsetIn],
        "mq_getsetattr" => &[Skip, FixedIn(64), FixedOut(64)],
        "kcmp" => &[Skip, Skip, Skip, Skip, FixedIn(12)],
        "waitid" => &[Skip, Skip, SiginfoOut, Skip, RusageOut],
        "wait4" => &[Skip, WaitStatusOut, Skip, RusageOut],
        "sched_setattr" => &[Skip, FixedIn(sched::SCHED_ATTR_V1 as u16)],
        "ioctl" => &[Skip, Skip, Skip],
        _ => family_custom_types(name),
    }
}

/// `-e verbose=`: whether the copy of argument slot `slot` of call `nr`
/// is still shown when the call is not verbose. As strace, a call that is
/// not verbose shows its strings and data buffers, and every structure,
/// array or number it would read from memory as its address.
pub fn nonverbose_keeps(nr: u32, slot: u8) -> bool {
    let Some(d) = decoder_for(nr) else {
        return false;
    };
    let types: &[Ty] = if d.custom.is_some() {
        table::by_nr(nr).map_or(&[], |i| custom_types(i.name))
    } else {
        d.args
    };
    matches!(
        types.get(slot as usize),
        Some(Path | Str | BufIn(_) | BufOut | StrOut | RandomOut)
    )
}

/// Prints a call's arguments (without the parentheses).
///
/// `env` answers what the events alone cannot (descriptor paths for `-y`).
pub fn write_args<'a>(call: CallView<'a>, opts: &'a Options, env: &'a Env<'a>) -> ArgWriter<'a> {
    write_args_in(String::with_capacity(64), call, opts, env)
}

/// [`write_args`] into `buf` (cleared first): a caller that decodes many
/// calls keeps one buffer (`ArgWriter::s` hands it back).
pub fn write_args_in<'a>(
    mut buf: String,
    call: CallView<'a>,
    opts: &'a Options,
    env: &'a Env<'a>,
) -> ArgWriter<'a> {
    buf.clear();
    let mut w = ArgWriter {
        s: buf,
        boundary: None,
        call,
        opts,
        first: true,
        env,
        starts: Vec::new(),
    };
    match decoder_for(call.nr) {
        Some(d) => {
            if let Some(f) = d.custom {
                f(&mut w);
            } else {
                for (i, t) in d.args.iter().enumerate() {
                    if t.is_output() && !w.exiting() {
                        return w;
                    }
                    arg(&mut w, i, *t);
                }
            }
        }
        None => {
            let n = table::by_nr(call.nr).map(|s| s.nargs as usize).unwrap_or(6);
            for i in 0..n {
                w.sep();
                fmt::hex(&mut w.s, call.args[i]);
            }
        }
    }
    w
}

/// Each top-level argument's text on its own (for JSON output): the
/// arguments strace shows, no more (`openat` without `O_CREAT` has no mode,
/// `fcntl(3, F_GETFD)` two arguments). The flag says whether that is all of
/// them: false when the call has not returned and its output arguments are
/// still to come.
pub fn split_args(call: CallView<'_>, opts: &Options) -> (Vec<String>, bool) {
    let env = Env::default();
    let w = write_args(call, opts, &env);
    let mut out = Vec::with_capacity(w.starts.len());
    for (k, &st) in w.starts.iter().enumerate() {
        let end = w.starts.get(k + 1).copied().unwrap_or(w.s.len());
        let t = w.s[st..end].trim_end_matches(' ').trim_end_matches(',');
        out.push(t.to_string());
    }
    let whole = call.exit.is_some() || w.boundary.is_none();
    (out, whole)
}

/// C's `%#x`: `0` for zero, `0x..` otherwise.
fn hex_str(v: u64) -> String {
    let mut t = String::new();
    fmt::hex(&mut t, v);
    t
}

/// The kernel's limit on supplementary groups.
const NGROUPS_MAX: u64 = 65536;

/// A user or group id as strace prints it: `-1` for all ones.
fn uid(s: &mut String, v: u32) {
    if v == u32::MAX {
        s.push_str("-1");
    } else {
        let _ = write!(s, "{v}");
    }
}

fn int(v: u64) -> i64 {
    v as u32 as i32 as i64
}

/// Prints argument `i` as type `t`.
fn arg(w: &mut ArgWriter<'_>, i: usize, t: Ty) {
    w.sep();
    let v = w.call.args[i];
    let x = w.opts.xlat;
    let call = w.call;
    let opts = w.opts;
    let namer = w.env.fd_path;
    let mem = w.env.read_mem;
    let env = w.env;
    let unreadable = &w.env.unreadable;
    let s = &mut w.s;
    match t {
        Int => {
            let _ = write!(s, "{}", int(v));
        }
        Pid | PidPgid => pid(s, v as i32, w.env.pid_comm),
        Uint => {
            let _ = write!(s, "{}", v as u32);
        }
        Long => {
            let _ = write!(s, "{}", v as i64);
        }
        Ulong => {
            let _ = write!(s, "{v}");
        }
        Hex => fmt::hex(s, v),
        Hex32 => fmt::hex(s, v as u32 as u64),
        FixedIn(_) | FixedOut(_) => fmt::ptr(s, v),
        KeySerial => fmt::enumv(s, int(v) as u64, c::KEY_SPEC, "", x, false),
        UtimeVals => match data(call.cap(i)).filter(|d| d.len() >= 32) {
            Some(d) => {
                s.push('[');
                for k in 0..2 {
                    if k > 0 {
                        s.push_str(", ");
                    }
                    let (sec, usec) = (le_i64(d, 16 * k), le_i64(d, 16 * k + 8));
                    let _ = write!(s, "{{tv_sec={sec}, tv_usec={}}}", usec as u64);
                    if let Some(t) = date_comment(sec, usec as u64, 999_999, 6) {
                        let _ = write!(s, " /* {t} */");
                    }
                }
                s.push(']');
            }
            None => fmt::ptr(s, v),
        },
        Ptr | OutPtr | CloneArgs | SockoptIn(_) => fmt::ptr(s, v),
        Fd => fd(s, int(v) as i32, namer),
        DirFd => {
            if int(v) == -100 {
                s.push_str(match x {
                    Xlat::Raw => "-100",
                    Xlat::Verbose => "-100 /* AT_FDCWD */",
                    Xlat::Abbrev => "AT_FDCWD",
                });
                // strace reads the link into PATH_MAX bytes: a longer
                // (or as long) directory is not named
                if let Some(cwd) = namer
                    .and_then(|n| n(-100))
                    .filter(|p| path_to_bytes(p).len() < 4096)
                {
                    s.push('<');
                    fmt::escape_with(s, &path_to_bytes(&cwd), fmt::HexStr::None, b"<>");
                    s.push('>');
                }
            } else {
                fd(s, int(v) as i32, namer);
            }
        }
        Path => strpath::print(s, call, i, v, opts, env),
        Str => match (call.cap(i), mem) {
            (Some(c), Some(read)) if c.fault && v != 0 => {
                match read_whole_str(read, v, opts.strsize + 1) {
                    Some(d) => {
                        let n = d.iter().position(|&b| b == 0).unwrap_or(d.len());
                        let limit = opts.strsize;
                        fmt::quoted(s, &d[..n.min(limit)], n > limit, opts.hex);
                    }
                    None => {
                        unreadable.set(unreadable.get() + 1);
                        fmt::ptr(s, v)
                    }
                }
            }
            (c, _) => string(s, c, v, opts, false),
        },
        // a copy longer than shown (for -e write=) that stopped at unmapped
        // memory after the bytes strace reads
        BufIn(l)
            if call.cap(i).is_some_and(|c| {
                c.fault && c.data.len() >= (call.args[l as usize] as usize).min(opts.strsize + 1)
            }) && v != 0 =>
        {
            let len = call.args[l as usize] as usize;
            let d = &call.cap(i).map_or(&[][..], |c| c.data.as_slice())[..len.min(opts.strsize)];
            fmt::quoted(s, d, len > opts.strsize, opts.hex);
        }
        BufIn(l) => match (call.cap(i), mem) {
            (Some(c), Some(read)) if c.fault && v != 0 => {
                let len = call.args[l as usize] as usize;
                // all of it or nothing, as strace reads it (a byte past -s)
                let want = len.min(opts.strsize.saturating_add(1));
                match read(v, want).filter(|d| d.len() == want) {
                    Some(d) => fmt::quoted(
                        s,
                        &d[..want.min(opts.strsize)],
                        len > opts.strsize,
                        opts.hex,
                    ),
                    None => {
                        unreadable.set(unreadable.get() + 1);
                        fmt::ptr(s, v)
                    }
                }
            }
            (c, _) => buffer(s, c, v, opts),
        },
        BufOut | RandomOut if call.ret() == Some(0) && v != 0 => s.push_str("\"\""),
        BufOut => buffer(s, call.cap(i), v, opts),
        RandomOut => {
            let hex = Options {
                hex: fmt::HexStr::All,
                ..opts.clone()
            };
            buffer(s, call.cap(i), v, &hex)
        }
        StrOut => match call.cap(i) {
            Some(c) if !c.fault => {
                let n = c.data.iter().position(|&b| b == 0).unwrap_or(c.data.len());
                fmt::quoted(s, &c.data[..n], c.truncated, opts.hex);
            }
            _ => fmt::ptr(s, v),
        },
        OFlags => open_flags(s, v, x),
        // a umode_t: all 16 bits, the file type's too
        Mode => s.push_str(&fmt::octal(v & 0xffff)),
        AccessMode => {
            // an int
            let v = v as u32 as u64;
            if v == 0 {
                s.push_str("F_OK");
            } else {
                let modes: &[(u64, &str)] = &[(4, "R_OK"), (2, "W_OK"), (1, "X_OK")];
                fmt::flags(s, v, modes, None, x);
                if x != Xlat::Raw && v & 7 == 0 {
                    s.push_str(" /* ?_OK */");
                }
            }
        }
        // the kernel takes these flags as an int: the upper half is
        // ignored, and so not shown
        Flags(tab) => fmt::flags_hinted(s, v as u32 as u64, tab, x),
        Flags64(tab) => fmt::flags_hinted(s, v, tab, x),
        Enum(tab, hint) => fmt::enumv(s, v as u32 as u64, tab, hint, x, true),
        Signal => signal(s, int(v) as i32, x),
        TimespecIn | TimespecOut => timespec(s, call.cap(i), v),
        TimevalIn => timeval(s, call.cap(i), v),
        ItimerspecIn | ItimerspecOut => match data(call.cap(i)) {
            Some(d) if d.len() >= 32 => {
                let _ = write!(
                    s,
                    "{{it_interval={{tv_sec={}, tv_nsec={}}}, it_value={{tv_sec={}, tv_nsec={}}}}}",
                    le_i64(d, 0),
                    le_u64(d, 8),
                    le_i64(d, 16),
                    le_u64(d, 24)
                );
            }
            _ => fmt::ptr(s, v),
        },
        StatOut => stat(s, call.cap(i), v, opts),
        StatxOut => statx(s, call.cap(i), v, opts),
        Argv => argv(s, &call.items(i), v, opts),
        Envp => envp(s, &call.items(i), v, opts),
        // a failed read: the buffers' addresses, from the array's copy
        IovOut(l) if call.ret().is_some_and(|r| r < 0) && misc::iov_raw(call.nr) => iov_addrs(
            s,
            call.cap(misc::IOV_RAW_SLOT),
            v,
            call.args[l as usize],
            opts,
        ),
        IovIn(l) | IovOut(l) if call.args[l as usize] == 0 && v != 0 => s.push_str("[]"),
        IovIn(_) | IovOut(_) => {
            let raw = if misc::iov_raw(call.nr) {
                call.data(misc::IOV_RAW_SLOT)
            } else {
                None
            };
            iovec_raw(s, &call.items(i), v, opts, raw)
        }
        SockaddrIn(l) => sockaddr::decode(
            s,
            call.cap(i).map(|c| c.data.as_slice()),
            v,
            call.args[l as usize] as i32 as i64,
            sockaddr::Style::new(opts, namer),
        ),
        SockaddrOut(l) => {
            sockaddr::decode_out(s, call, i, l as usize, sockaddr::Style::new(opts, namer))
        }
        SocklenPtr => match data(call.cap(i)) {
            Some(d) if d.len() >= 4 => {
                let _ = write!(s, "[{}]", le_u32(d, 0));
            }
            _ => fmt::ptr(s, v),
        },
        SigsetIn | SigsetOut => match data(call.cap(i)) {
            Some(d) if d.len() >= 8 => sigset_n(s, le_u64(d, 0), 8, x),
            _ => fmt::ptr(s, v),
        },
        SigsetLenIn(l) => sigset_len(s, data(call.cap(i)), v, call.args[l as usize], 8, x),
        SigsetLenOut(l) => sigset_len(s, data(call.cap(i)), v, call.args[l as usize], 8, x),
        SigpendingOut => sigset_len(s, data(call.cap(i)), v, call.args[1], 1, x),
        SiginfoIn | SiginfoOut => match data(call.cap(i)).filter(|d| d.len() >= 48) {
            // no signal: strace shows the struct empty
            Some(d) if le_u32(d, 0) == 0 => s.push_str("{}"),
            Some(d) => {
                let mut b = [0u8; 48];
                b.copy_from_slice(&d[..48]);
                let sig = le_u32(d, 0) as i32;
                s.push_str(&crate::siginfo::format_with(sig, &b, w.env.pid_comm));
            }
            _ => fmt::ptr(s, v),
        },
        SigactionIn | SigactionOut => match data(call.cap(i)) {
            Some(d) if d.len() >= 32 => sigaction(s, d, x),
            _ => fmt::ptr(s, v),
        },
        RlimitIn | RlimitOut => match data(call.cap(i)) {
            Some(d) if d.len() >= 16 => {
                s.push_str("{rlim_cur=");
                rlim(s, le_u64(d, 0), x);
                s.push_str(", rlim_max=");
                rlim(s, le_u64(d, 8), x);
                s.push('}');
            }
            _ => fmt::ptr(s, v),
        },
        FdPairOut => match data(call.cap(i)) {
            Some(d) if d.len() >= 8 => {
                s.push('[');
                fd(s, le_u32(d, 0) as i32, namer);
                s.push_str(", ");
                fd(s, le_u32(d, 4) as i32, namer);
                s.push(']');
            }
            _ => fmt::ptr(s, v),
        },
        WaitStatusOut => match data(call.cap(i)) {
            Some(d) if d.len() >= 4 && call.ret().is_some_and(|r| r > 0) => {
                s.push('[');
                wait_status(s, le_u32(d, 0) as i32);
                s.push(']');
            }
            _ => fmt::ptr(s, v),
        },
        CpuSetIn(l) => sched::affinity(
            s,
            data(call.cap(i)),
            v,
            call.args[l as usize] as u32 as usize,
        ),
        CpuSetOut => match call.ret() {
            Some(r) if r >= 0 => sched::affinity(s, data(call.cap(i)), v, r as usize),
            _ => fmt::ptr(s, v),
        },
        PtrPtrOut => match data(call.cap(i)).filter(|d| d.len() >= 8) {
            Some(d) => {
                s.push('[');
                fmt::ptr(s, le_u64(d, 0));
                s.push(']');
            }
            None => fmt::ptr(s, v),
        },
        UlongPtrOut => match data(call.cap(i)).filter(|d| d.len() >= 8) {
            Some(d) => {
                let _ = write!(s, "[{}]", le_u64(d, 0));
            }
            None => fmt::ptr(s, v),
        },
        IovAddrs(l) => iov_addrs(s, call.cap(i), v, call.args[l as usize], opts),
        TimespecRemain => match call.ret() {
            Some(r) if c::RESTART_ERRNOS.contains(&(-r as i32)) => timespec(s, call.cap(i), v),
            _ => fmt::ptr(s, v),
        },
        Uid => uid(s, v as u32),
        UidPtrOut | UintPtrOut => match data(call.cap(i)).filter(|d| d.len() >= 4) {
            Some(d) => {
                s.push('[');
                if matches!(t, UidPtrOut) {
                    uid(s, le_u32(d, 0));
                } else {
                    let _ = write!(s, "{}", le_u32(d, 0));
                }
                s.push(']');
            }
            None => fmt::ptr(s, v),
        },
        FlagsH(tab, hint) => flags_hint(s, v as u32 as u64, tab, hint, x),
        Flags64H(tab, hint) => flags_hint(s, v, tab, hint, x),
        IntPtrIn | IntPtrOut => match data(call.cap(i)) {
            Some(d) if d.len() >= 4 => {
                let _ = write!(s, "[{}]", le_u32(d, 0) as i32);
            }
            _ => fmt::ptr(s, v),
        },
        MsghdrIn | MsghdrOut => msghdr::msghdr(s, call, i, opts, namer, mem),
        Pollfds(n) => pollfds(s, call, i, call.args[n as usize], opts, namer),
        EpollEventIn => match data(call.cap(i)) {
            Some(d) if d.len() >= 12 => epoll_event(s, d, x),
            _ => fmt::ptr(s, v),
        },
        EpollEventsOut if call.ret() == Some(0) => s.push_str("[]"),
        EpollEventsOut => match (data(call.cap(i)), call.ret()) {
            (Some(d), Some(r)) if r >= 0 => {
                s.push('[');
                for (k, ev) in d.chunks_exact(12).take(r as usize).enumerate() {
                    if k > 0 {
                        s.push_str(", ");
                    }
                    epoll_event(s, ev, x);
                }
                s.push(']');
            }
            _ => fmt::ptr(s, v),
        },
        WaitOptions => fmt::flags(s, v as u32 as u64, c::WAIT_OPTIONS, None, x),
        PollfdsBoth(n) => pollfds(s, call, i, call.args[n as usize], opts, namer),
        TimespecBoth => timespec(s, call.enter_cap(i), v),
        // a socklen_t in and out, as strace prints it: an int
        SocklenBoth => match (call.enter_cap(i), call.exit_cap(i)) {
            (Some(a), Some(b)) if a.data.len() >= 4 && b.data.len() >= 4 => {
                let (inv, outv) = (le_u32(&a.data, 0) as i32, le_u32(&b.data, 0) as i32);
                if inv == outv || call.ret().is_some_and(|r| r < 0) {
                    let _ = write!(s, "[{inv}]");
                } else {
                    let _ = write!(s, "[{inv} => {outv}]");
                }
            }
            // one copy: the entry's, or the exit's alone (a call that did
            // not run, -e inject=)
            (Some(a), None) | (None, Some(a)) if a.data.len() >= 4 => {
                let _ = write!(s, "[{}]", le_u32(&a.data, 0) as i32);
            }
            _ => fmt::ptr(s, v),
        },
        Dirents if call.ret() == Some(0) => {
            if opts.verbose {
                s.push_str("[]");
            } else {
                fmt::ptr(s, v);
                s.push_str(" /* 0 entries */");
            }
        }
        Dirents => match Dents::of(call, i) {
            Some(d)
                if opts.verbose && table::by_nr(call.nr).is_some_and(|t| t.name == "getdents") =>
            {
                old_dirents(s, &d.data, !d.whole, opts.hex)
            }
            Some(d) if opts.verbose => dirents(s, &d.data, !d.whole, opts.hex),
            Some(d) => {
                fmt::ptr(s, v);
                let _ = write!(
                    s,
                    " /* {}{} entries */",
                    d.count,
                    if d.partial { "+" } else { "" }
                );
            }
            None => fmt::ptr(s, v),
        },
        StackIn | StackOut => match data(call.cap(i)) {
            Some(d) if d.len() >= 24 => {
                s.push_str("{ss_sp=");
                fmt::ptr(s, le_u64(d, 0));
                s.push_str(", ss_flags=");
                fmt::flags(s, le_u32(d, 8) as u64, c::SS_FLAGS, None, x);
                let _ = write!(s, ", ss_size={}}}", le_u64(d, 16));
            }
            _ => fmt::ptr(s, v),
        },
        Prot => fmt::flags(s, v, c::PROT, Some("PROT_NONE"), x),
        SockoptOut(_) => match call.cap(i).filter(|c| !c.fault) {
            Some(c) if c.data.len() == 4 => {
                let _ = write!(s, "[{}]", le_u32(&c.data, 0) as i32);
            }
            Some(c) => fmt::quoted(s, &c.data, c.truncated, fmt::HexStr::None),
            None => fmt::ptr(s, v),
        },
        StatxFlags => {
            // the sync type's two bits as flags (both set prints both, as
            // strace prints them), then the AT_ flags; an int
            let v = v as u32 as u64;
            let mut t = String::new();
            fmt::flags(
                &mut t,
                v & 0x6000,
                c::AT_STATX_SYNC_TYPES,
                Some("AT_STATX_SYNC_AS_STAT"),
                x,
            );
            if v & !0x6000 != 0 {
                t.push('|');
                fmt::flags(&mut t, v & !0x6000, c::AT_FLAGS, None, x);
            }
            s.push_str(&t);
        }
        SigreturnMask => {
            if let Some(d) = data(call.cap(i)).filter(|d| d.len() >= 8) {
                s.push_str("{mask=");
                sigset(s, le_u64(d, 0));
                s.push('}');
            }
        }
        // no descriptors (nfds 0 or less): strace shows the address
        FdSetBoth => {
            let nfds = select_nfds(call.args[0]);
            let c = call
                .enter_prefix(i, fdset_bytes(nfds))
                .or_else(|| call.enter_cap(i));
            match c.filter(|_| nfds > 0) {
                Some(c) => fd_set(s, &c.data, nfds),
                None => fmt::ptr(s, v),
            }
        }
        TimevalBoth => timeval(s, call.enter_cap(i), v),
        PselectSigmask => match data(call.cap(i)).filter(|d| d.len() >= 16) {
            Some(d) => {
                // the set itself is copied in slot 0 (see misc::plan)
                s.push_str("{sigmask=");
                let len = le_u64(d, 8);
                sigset_len(s, call.data(0), le_u64(d, 0), len, 8, x);
                let _ = write!(s, ", sigsetsize={len}}}");
            }
            None => fmt::ptr(s, v),
        },
        OpenHow => open_how(s, call, i, v, opts),
        UtimeSpecs => match data(call.cap(i)).filter(|d| d.len() >= 32) {
            Some(d) => {
                s.push('[');
                for k in 0..2 {
                    if k > 0 {
                        s.push_str(", ");
                    }
                    let (sec, nsec) = (le_i64(d, 16 * k), le_i64(d, 16 * k + 8));
                    match nsec {
                        0x3fff_ffff | 0x3fff_fffe => {
                            let name = if nsec == 0x3fff_ffff {
                                "UTIME_NOW"
                            } else {
                                "UTIME_OMIT"
                            };
                            match x {
                                Xlat::Abbrev => s.push_str(name),
                                Xlat::Raw => {
                                    let _ = write!(s, "{{tv_sec={sec}, tv_nsec={nsec}}}");
                                }
                                Xlat::Verbose => {
                                    let _ =
                                        write!(s, "{{tv_sec={sec}, tv_nsec={nsec}}} /* {name} */");
                                }
                            }
                        }
                        _ => {
                            let _ = write!(s, "{{tv_sec={sec}, tv_nsec={}}}", nsec as u64);
                            // strace's date: not for zero, an invalid
                            // nsec, or a year a struct tm cannot hold
                            let year = sec.div_euclid(31_556_952) + 1970;
                            if (sec != 0 || nsec != 0)
                                && (0..1_000_000_000).contains(&nsec)
                                && (i32::MIN as i64 + 1900..=i32::MAX as i64).contains(&year)
                            {
                                let _ = write!(s, " /* {} */", utc_date(sec, nsec));
                            }
                        }
                    }
                }
                s.push(']');
            }
            None => fmt::ptr(s, v),
        },
        IoUringParams => match data(call.cap(i)).filter(|d| d.len() >= 120) {
            Some(d) => io_uring_params(s, d, x),
            None => fmt::ptr(s, v),
        },
        // sendfile's offset is unsigned (strace's sendfile64), the others signed
        OffIn | OffBoth => match call.enter_cap(i).filter(|c| c.data.len() >= 8) {
            Some(c) if matches!(t, OffBoth) => {
                let _ = write!(s, "[{}]", le_u64(&c.data, 0));
            }
            Some(c) => {
                let _ = write!(s, "[{}]", le_i64(&c.data, 0));
            }
            None => fmt::ptr(s, v),
        },
        UtsnameOut => match data(call.cap(i)).filter(|d| d.len() >= 390) {
            Some(d) => {
                let field = |k: usize| {
                    let f = &d[k * 65..(k + 1) * 65];
                    let n = f.iter().position(|&b| b == 0).unwrap_or(f.len());
                    let mut q = String::new();
                    fmt::quoted(&mut q, &f[..n], false, fmt::HexStr::None);
                    q
                };
                let _ = write!(s, "{{sysname={}, nodename={}", field(0), field(1));
                if opts.verbose {
                    let _ = write!(
                        s,
                        ", release={}, version={}, machine={}, domainname={}}}",
                        field(2),
                        field(3),
                        field(4),
                        field(5)
                    );
                } else {
                    s.push_str(", ...}");
                }
            }
            None => fmt::ptr(s, v),
        },
        StatfsOut => match data(call.cap(i)).filter(|d| d.len() >= 120) {
            Some(d) => {
                s.push_str("{f_type=");
                fmt::enumv(s, le_u64(d, 0), c::FS_MAGIC, "", x, true);
                let _ = write!(
                    s,
                    ", f_bsize={}, f_blocks={}, f_bfree={}, f_bavail={}, f_files={}, f_ffree={}, f_fsid={{val=[{}, {}]}}, f_namelen={}, f_frsize={}, f_flags=",
                    le_u64(d, 8),
                    le_u64(d, 16),
                    le_u64(d, 24),
                    le_u64(d, 32),
                    le_u64(d, 40),
                    le_u64(d, 48),
                    hex_str(le_u32(d, 56) as u64),
                    hex_str(le_u32(d, 60) as u64),
                    le_u64(d, 64),
                    le_u64(d, 72)
                );
                fmt::flags(s, le_u64(d, 80), c::STATFS_FLAGS, None, x);
                s.push('}');
            }
            None => fmt::ptr(s, v),
        },
        SysinfoOut => match data(call.cap(i)).filter(|d| d.len() >= 108) {
            Some(d) => {
                let _ = write!(
                    s,
                    "{{uptime={}, loads=[{}, {}, {}], totalram={}, freeram={}, sharedram={}, bufferram={}, totalswap={}, freeswap={}, procs={}, totalhigh={}, freehigh={}, mem_unit={}}}",
                    le_i64(d, 0),
                    le_u64(d, 8),
                    le_u64(d, 16),
                    le_u64(d, 24),
                    le_u64(d, 32),
                    le_u64(d, 40),
                    le_u64(d, 48),
                    le_u64(d, 56),
                    le_u64(d, 64),
                    le_u64(d, 72),
                    u16::from_le_bytes([d[80], d[81]]),
                    le_u64(d, 88),
                    le_u64(d, 96),
                    le_u32(d, 104)
                );
            }
            None => fmt::ptr(s, v),
        },
        RusageOut => match data(call.cap(i)).filter(|d| d.len() >= 144) {
            Some(d) => {
                let _ = write!(
                    s,
                    "{{ru_utime={{tv_sec={}, tv_usec={}}}, ru_stime={{tv_sec={}, tv_usec={}}}, ",
                    le_i64(d, 0),
                    le_u64(d, 8),
                    le_i64(d, 16),
                    le_u64(d, 24)
                );
                if opts.verbose {
                    let names = [
                        "ru_maxrss",
                        "ru_ixrss",
                        "ru_idrss",
                        "ru_isrss",
                        "ru_minflt",
                        "ru_majflt",
                        "ru_nswap",
                        "ru_inblock",
                        "ru_oublock",
                        "ru_msgsnd",
                        "ru_msgrcv",
                        "ru_nsignals",
                        "ru_nvcsw",
                        "ru_nivcsw",
                    ];
                    let parts: Vec<String> = names
                        .iter()
                        .enumerate()
                        .map(|(k, n)| format!("{n}={}", le_u64(d, 32 + 8 * k)))
                        .collect();
                    let _ = write!(s, "{}}}", parts.join(", "));
                } else {
                    s.push_str("...}");
                }
            }
            None => fmt::ptr(s, v),
        },
        GidsOut | GidsIn => {
            // strace's print_groups: an unsigned count, more than
            // NGROUPS_MAX (a failed getgroups' -1 too) as the address
            let n = if matches!(t, GidsOut) {
                call.ret().unwrap_or(-1)
            } else {
                int(call.args[0])
            } as u32 as u64;
            if n > NGROUPS_MAX {
                fmt::ptr(s, v);
            } else {
                print_array(s, call.cap(i), v, n, 4, opts, |s, g| uid(s, le_u32(g, 0)));
            }
        }
        Skip => {}
    }
}

/// Capability numbers (`linux/capability.h`).
static CAPABILITIES: &[(u64, &str)] = &[
    (0, "CAP_CHOWN"),
    (1, "CAP_DAC_OVERRIDE"),
    (2, "CAP_DAC_READ_SEARCH"),
    (3, "CAP_FOWNER"),
    (4, "CAP_FSETID"),
    (5, "CAP_KILL"),
    (6, "CAP_SETGID"),
    (7, "CAP_SETUID"),
    (8, "CAP_SETPCAP"),
    (9, "CAP_LINUX_IMMUTABLE"),
    (10, "CAP_NET_BIND_SERVICE"),
    (11, "CAP_NET_BROADCAST"),
    (12, "CAP_NET_ADMIN"),
    (13, "CAP_NET_RAW"),
    (14, "CAP_IPC_LOCK"),
    (15, "CAP_IPC_OWNER"),
    (16, "CAP_SYS_MODULE"),
    (17, "CAP_SYS_RAWIO"),
    (18, "CAP_SYS_CHROOT"),
    (19, "CAP_SYS_PTRACE"),
    (20, "CAP_SYS_PACCT"),
    (21, "CAP_SYS_ADMIN"),
    (22, "CAP_SYS_BOOT"),
    (23, "CAP_SYS_NICE"),
    (24, "CAP_SYS_RESOURCE"),
    (25, "CAP_SYS_TIME"),
    (26, "CAP_SYS_TTY_CONFIG"),
    (27, "CAP_MKNOD"),
    (28, "CAP_LEASE"),
    (29, "CAP_AUDIT_WRITE"),
    (30, "CAP_AUDIT_CONTROL"),
    (31, "CAP_SETFCAP"),
    (32, "CAP_MAC_OVERRIDE"),
    (33, "CAP_MAC_ADMIN"),
    (34, "CAP_SYSLOG"),
    (35, "CAP_WAKE_ALARM"),
    (36, "CAP_BLOCK_SUSPEND"),
    (37, "CAP_AUDIT_READ"),
    (38, "CAP_PERFMON"),
    (39, "CAP_BPF"),
    (40, "CAP_CHECKPOINT_RESTORE"),
];

/// `getrusage`'s `who`.
static RUSAGE_WHO: &[(u64, &str)] = &[
    (0, "RUSAGE_SELF"),
    (0xffff_ffff, "RUSAGE_CHILDREN"),
    (1, "RUSAGE_THREAD"),
];

/// A descriptor, with its path in `<>` when `-y` asked for it.
pub fn fd(s: &mut String, fd: i32, namer: Option<&dyn Fn(i32) -> Option<String>>) {
    let _ = write!(s, "{fd}");
    if fd < 0 {
        return;
    }
    if let Some(path) = namer.and_then(|n| n(fd)) {
        s.push_str(&fd_path_text(&path));
    }
}

/// A process id, with `-Y` the process's command name between `<>`
/// (escaped as a path is); nothing when no such process is seen.
pub fn pid(s: &mut String, pid: i32, comm: Option<&dyn Fn(i32) -> Option<String>>) {
    let _ = write!(s, "{pid}");
    if pid <= 0 {
        return;
    }
    if let Some(c) = comm.and_then(|f| f(pid)) {
        s.push_str(&comm_text(&c));
    }
}

/// `<comm>` as `-Y` shows a command name: escaped as a string is, and `<`,
/// `>` too (empty: nothing).
pub fn comm_text(comm: &str) -> String {
    let mut s = String::with_capacity(comm.len() + 2);
    if comm.is_empty() {
        return s;
    }
    s.push('<');
    crate::fmt::escape_with(&mut s, comm.as_bytes(), crate::fmt::HexStr::None, b"<>");
    s.push('>');
    s
}

/// Whether the call returns a process or thread id that `-Y` names
/// (getpid, fork, a reaped child's...; not a group's or session's).
pub fn returns_pid(name: &str) -> bool {
    matches!(
        name,
        "getpid" | "getppid" | "gettid" | "fork" | "vfork" | "clone" | "clone3" | "wait4"
    )
}

/// First of the 256 private-use characters standing for the bytes of a path
/// that are not UTF-8 (see [`path_from_bytes`]).
const PATH_BYTE_BASE: u32 = 0x10_ff00;

/// A path's bytes as a `String` that keeps them all: what is not UTF-8
/// becomes, byte by byte, private-use characters that [`path_to_bytes`]
/// turns back (strace shows a path's bytes as they are: `\200\377`).
pub fn path_from_bytes(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        s.push_str(chunk.valid());
        for &x in chunk.invalid() {
            s.extend(char::from_u32(PATH_BYTE_BASE + x as u32));
        }
    }
    s
}

/// A path whose name really ends in ` (deleted)` (the file is not
/// deleted): its space kept as a character [`fd_path_text`] does not take
/// for the kernel's mark, and shows as a space.
pub fn path_not_deleted(p: String) -> String {
    match p.strip_suffix(" (deleted)") {
        Some(base) => {
            let mut s = String::with_capacity(p.len() + 3);
            s.push_str(base);
            s.extend(char::from_u32(PATH_BYTE_BASE + b' ' as u32));
            s.push_str("(deleted)");
            s
        }
        None => p,
    }
}

/// The bytes of a path made by [`path_from_bytes`].
pub fn path_to_bytes(s: &str) -> std::borrow::Cow<'_, [u8]> {
    if !s
        .chars()
        .any(|c| (PATH_BYTE_BASE..PATH_BYTE_BASE + 256).contains(&(c as u32)))
    {
        return std::borrow::Cow::Borrowed(s.as_bytes());
    }
    let mut v = Vec::with_capacity(s.len());
    for c in s.chars() {
        let u = c as u32;
        if (PATH_BYTE_BASE..PATH_BYTE_BASE + 256).contains(&u) {
            v.push((u - PATH_BYTE_BASE) as u8);
        } else {
            let mut buf = [0u8; 4];
            v.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    std::borrow::Cow::Owned(v)
}

/// `<path>` as strace appends it to a descriptor, the path escaped as a
/// string is (and `<`, `>` too); a deleted file's `path (deleted)` (as
/// /proc shows it) becomes `<path>(deleted)`.
pub fn fd_path_text(path: &str) -> String {
    let (p, deleted) = match path.strip_suffix(" (deleted)") {
        Some(p) => (p, true),
        None => (path, false),
    };
    // --decode-fds=dev appends `<char 1:3>` to a device's path: not escaped
    let (p, dev) = match p.rfind('<') {
        Some(i)
            if p.ends_with('>')
                && (p[i..].starts_with("<char ") || p[i..].starts_with("<block ")) =>
        {
            p.split_at(i)
        }
        _ => (p, ""),
    };
    let mut s = String::with_capacity(p.len() + dev.len() + 12);
    s.push('<');
    // a path is escaped as strace escapes it; what is not a path (a
    // socket's description, `pipe:[N]`, `pid:N`) is already as shown
    if p.starts_with('/') {
        crate::fmt::escape_with(&mut s, &path_to_bytes(p), crate::fmt::HexStr::None, b"<>");
    } else {
        s.push_str(p);
    }
    s.push_str(dev);
    s.push('>');
    if deleted {
        s.push_str("(deleted)");
    }
    s
}

/// Whether the call returns a new descriptor (shown with its path by `-y`).
pub fn returns_fd(name: &str, args: &[u64; 6]) -> bool {
    match name {
        "fcntl" => matches!(args[1] as u32, 0 | 1030),
        // LANDLOCK_CREATE_RULESET_VERSION: it returns the ABI version
        "landlock_create_ruleset" => args[2] & 1 == 0,
        "bpf" => bpf::returns_fd(args),
        "ioctl" => ioctl::returns_fd(args[1] as u32),
        _ => table::by_name(name)
            .and_then(|i| decoder_for(i.nr))
            .is_some_and(|d| d.ret == Ret::Fd),
    }
}

fn data(c: Option<&Capture>) -> Option<&[u8]> {
    c.filter(|c| !c.fault).map(|c| c.data.as_slice())
}

fn le_u16(d: &[u8], off: usize) -> u16 {
    u16::from_le_bytes([d[off], d[off + 1]])
}
fn le_u32(d: &[u8], off: usize) -> u32 {
    u32::from_le_bytes(d[off..off + 4].try_into().unwrap_or([0; 4]))
}
fn le_u64(d: &[u8], off: usize) -> u64 {
    u64::from_le_bytes(d[off..off + 8].try_into().unwrap_or([0; 8]))
}
fn le_i64(d: &[u8], off: usize) -> i64 {
    le_u64(d, off) as i64
}

fn string(s: &mut String, cap: Option<&Capture>, v: u64, o: &Options, path: bool) {
    match cap {
        Some(c) if !c.fault => {
            let _ = path;
            fmt::quoted(s, &c.data, c.truncated, o.hex);
        }
        _ => fmt::ptr(s, v),
    }
}

fn buffer(s: &mut String, cap: Option<&Capture>, v: u64, o: &Options) {
    match cap {
        Some(c) if !c.fault => {
            let mut d: &[u8] = &c.data;
            let mut trunc = c.truncated;
            if d.len() > o.strsize {
                d = &d[..o.strsize];
                trunc = true;
            }
            fmt::quoted(s, d, trunc, o.hex);
        }
        Some(c) if c.aux == 0 && v != 0 => s.push_str("\"\""),
        _ => fmt::ptr(s, v),
    }
}

/// Open flags: access mode first, then the rest (`O_RDONLY|O_CLOEXEC`).
pub fn open_flags(s: &mut String, v: u64, x: Xlat) {
    if x == Xlat::Raw {
        fmt::hex(s, v);
        return;
    }
    let acc = match v & 3 {
        0 => "O_RDONLY",
        1 => "O_WRONLY",
        2 => "O_RDWR",
        _ => "O_ACCMODE",
    };
    let mut rest = v & !3;
    let mut out = String::from(acc);
    // O_TMPFILE includes O_DIRECTORY; strace prints it as one name
    if rest & 0o20200000 == 0o20200000 {
        out.push_str("|O_TMPFILE");
        rest &= !0o20200000;
    }
    if rest != 0 {
        out.push('|');
        fmt::flags(&mut out, rest, c::OPEN_FLAGS, None, Xlat::Abbrev);
    }
    if x == Xlat::Verbose {
        let _ = write!(s, "{v:#x} /* {out} */");
    } else {
        s.push_str(&out);
    }
}

fn signal(s: &mut String, sig: i32, x: Xlat) {
    let name = c::signal_name(sig);
    match x {
        Xlat::Raw => {
            let _ = write!(s, "{sig}");
        }
        // `10 /* SIGUSR1 */`; a number without a name stays bare (`0`)
        Xlat::Verbose if name != sig.to_string() => {
            let _ = write!(s, "{sig} /* {name} */");
        }
        _ => s.push_str(&name),
    }
}

/// openat2's `struct open_how *` of `size` (argument 3) bytes: the pointer
/// when smaller than the first version; past the struct, the bytes that are
/// not zero (`???` when they cannot be read), as strace shows them.
fn open_how(s: &mut String, call: CallView<'_>, i: usize, v: u64, opts: &Options) {
    const HOW: usize = 24;
    let x = opts.xlat;
    let size = call.args[3];
    let whole = call
        .data(i)
        .filter(|d| d.len() as u64 >= size.min(4096) && d.len() >= HOW);
    let Some(d) = whole.or_else(|| call.data(5)).filter(|d| d.len() >= HOW) else {
        fmt::ptr(s, v);
        return;
    };
    if size < HOW as u64 {
        fmt::ptr(s, v);
        return;
    }
    let (flags, mode, resolve) = (le_u64(d, 0), le_u64(d, 8), le_u64(d, 16));
    s.push_str("{flags=");
    open_flags(s, flags, x);
    if flags & (0o100 | 0o20000000) != 0 || mode != 0 {
        s.push_str(", mode=");
        s.push_str(&fmt::octal(mode));
    }
    s.push_str(", resolve=");
    fmt::flags_hinted(s, resolve, c::RESOLVE_FLAGS, x);
    if size > HOW as u64 {
        nonzero_tail(s, whole, HOW, size.min(4096) as usize, opts, ", ");
    }
    s.push('}');
}

fn timespec(s: &mut String, cap: Option<&Capture>, v: u64) {
    match data(cap) {
        Some(d) if d.len() >= 16 => {
            let _ = write!(s, "{{tv_sec={}, tv_nsec={}}}", le_i64(d, 0), le_u64(d, 8));
        }
        _ => fmt::ptr(s, v),
    }
}

fn timeval(s: &mut String, cap: Option<&Capture>, v: u64) {
    match data(cap) {
        Some(d) if d.len() >= 16 => {
            let _ = write!(s, "{{tv_sec={}, tv_usec={}}}", le_i64(d, 0), le_u64(d, 8));
        }
        _ => fmt::ptr(s, v),
    }
}

fn makedev(s: &mut String, dev: u64) {
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
    let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
    s.push_str("makedev(");
    fmt::hex(s, major);
    s.push_str(", ");
    fmt::hex(s, minor);
    s.push(')');
}

/// A device number as `-X` asks: `makedev(0xfe, 0)`, `0xfe00`, or both.
fn xdev(s: &mut String, dev: u64, x: Xlat) {
    if x != Xlat::Abbrev {
        fmt::hex(s, dev);
    }
    match x {
        Xlat::Raw => {}
        Xlat::Verbose => {
            s.push_str(" /* ");
            makedev(s, dev);
            s.push_str(" */");
        }
        Xlat::Abbrev => makedev(s, dev),
    }
}

/// A file mode with its type as `-X` asks: `S_IFREG|0640`, `0100640`, or
/// both.
fn xmode(s: &mut String, mode: u64, x: Xlat) {
    if x != Xlat::Abbrev {
        let t = if mode == 0 {
            "0".to_string()
        } else {
            format!("0{mode:o}")
        };
        let _ = write!(s, "{t:0>3}");
    }
    match x {
        Xlat::Raw => {}
        Xlat::Verbose => {
            s.push_str(" /* ");
            fmt::mode(s, mode, true);
            s.push_str(" */");
        }
        Xlat::Abbrev => fmt::mode(s, mode, true),
    }
}

fn stat(s: &mut String, cap: Option<&Capture>, v: u64, o: &Options) {
    let Some(d) = data(cap).filter(|d| d.len() >= 144) else {
        return fmt::ptr(s, v);
    };
    let mode = le_u32(d, 24) as u64;
    let rdev = le_u64(d, 40);
    let size = le_i64(d, 48);
    let x = o.xlat;
    if o.verbose {
        s.push_str("{st_dev=");
        xdev(s, le_u64(d, 0), x);
        let _ = write!(s, ", st_ino={}, st_mode=", le_u64(d, 8));
        xmode(s, mode, x);
        let _ = write!(
            s,
            ", st_nlink={}, st_uid={}, st_gid={}, st_blksize={}, st_blocks={}, ",
            le_u64(d, 16),
            le_u32(d, 28),
            le_u32(d, 32),
            le_i64(d, 56),
            le_i64(d, 64)
        );
        if matches!(mode & 0o170000, 0o020000 | 0o060000) {
            s.push_str("st_rdev=");
            xdev(s, rdev, x);
        } else {
            let _ = write!(s, "st_size={size}");
        }
        for (name, off) in [("st_atime", 72), ("st_mtime", 88), ("st_ctime", 104)] {
            let (sec, nsec) = (le_i64(d, off), le_i64(d, off + 8));
            let _ = write!(
                s,
                ", {name}={sec} /* {} */, {name}_nsec={nsec}",
                utc_date(sec, nsec)
            );
        }
        s.push('}');
        return;
    }
    s.push_str("{st_mode=");
    xmode(s, mode, x);
    if matches!(mode & 0o170000, 0o020000 | 0o060000) {
        s.push_str(", st_rdev=");
        xdev(s, rdev, x);
    } else {
        let _ = write!(s, ", st_size={size}");
    }
    s.push_str(", ...}");
}

fn statx(s: &mut String, cap: Option<&Capture>, v: u64, o: &Options) {
    let Some(d) = data(cap).filter(|d| d.len() >= 256) else {
        return fmt::ptr(s, v);
    };
    let mask = le_u32(d, 0) as u64;
    let mode = u16::from_le_bytes([d[28], d[29]]) as u64;
    s.push_str("{stx_mask=");
    fmt::flags(s, mask, c::STATX_MASK, None, o.xlat);
    if !o.verbose {
        s.push_str(", stx_attributes=");
        fmt::flags(s, le_u64(d, 8), c::STATX_ATTRS, None, o.xlat);
        s.push_str(", stx_mode=");
        fmt::mode(s, mode, true);
        let _ = write!(s, ", stx_size={}, ...}}", le_u64(d, 40));
        return;
    }
    let _ = write!(s, ", stx_blksize={}, stx_attributes=", le_u32(d, 4));
    fmt::flags(s, le_u64(d, 8), c::STATX_ATTRS, None, o.xlat);
    let _ = write!(
        s,
        ", stx_nlink={}, stx_uid={}, stx_gid={}, stx_mode=",
        le_u32(d, 16),
        le_u32(d, 20),
        le_u32(d, 24)
    );
    fmt::mode(s, mode, true);
    let _ = write!(
        s,
        ", stx_ino={}, stx_size={}, stx_blocks={}, stx_attributes_mask=",
        le_u64(d, 32),
        le_u64(d, 40),
        le_u64(d, 48)
    );
    fmt::flags(s, le_u64(d, 56), c::STATX_ATTRS, None, o.xlat);
    let ts = |s: &mut String, name: &str, off: usize| {
        let (sec, nsec) = (le_i64(d, off), le_u32(d, off + 8) as i64);
        let _ = write!(
            s,
            ", {name}={{tv_sec={sec}, tv_nsec={nsec}}} /* {} */",
            utc_date(sec, nsec)
        );
    };
    // each time as the mask says it was filled
    for (bit, name, off) in [
        (0x20, "stx_atime", 64),
        (0x800, "stx_btime", 80),
        (0x80, "stx_ctime", 96),
        (0x40, "stx_mtime", 112),
    ] {
        if mask & bit != 0 {
            ts(s, name, off);
        }
    }
    let _ = write!(
        s,
        ", stx_rdev_major={}, stx_rdev_minor={}, stx_dev_major={}, stx_dev_minor={}",
        le_u32(d, 128),
        le_u32(d, 132),
        le_u32(d, 136),
        le_u32(d, 140)
    );
    if mask & 0x1000 != 0 {
        let _ = write!(s, ", stx_mnt_id={:#x}", le_u64(d, 144));
    }
    s.push('}');
}

fn argv(s: &mut String, items: &[&Capture], v: u64, o: &Options) {
    if v == 0 {
        s.push_str("NULL");
        return;
    }
    let count = items.iter().find(|c| c.item == CaptureItem::Count);
    if count.is_some_and(|c| c.fault && c.aux == 0) || items.is_empty() {
        return fmt::ptr(s, v);
    }
    s.push('[');
    let mut cut = false;
    for (n, c) in items
        .iter()
        .filter(|c| c.item == CaptureItem::Elem)
        .enumerate()
    {
        if n > 0 {
            s.push_str(", ");
        }
        // -v shows them all (as many as were copied)
        if !o.verbose && n >= o.strsize {
            s.push_str("...");
            cut = true;
            break;
        }
        if c.fault {
            fmt::ptr(s, c.aux);
        } else {
            fmt::quoted(s, &c.data, c.truncated, o.hex);
        }
    }
    match count {
        Some(c) if c.more => s.push_str(", ..."),
        // the array runs into memory that cannot be read: where, as strace
        Some(c) if c.fault && !cut => {
            let _ = write!(s, ", ... /* {:#x} */", v.wrapping_add(8 * c.aux));
        }
        _ => {}
    }
    s.push(']');
}

fn envp(s: &mut String, items: &[&Capture], v: u64, o: &Options) {
    if o.verbose {
        return argv(s, items, v, o);
    }
    fmt::ptr(s, v);
    if v == 0 {
        return;
    }
    if let Some(c) = items.iter().find(|c| c.item == CaptureItem::Count) {
        let n = c.aux;
        // a first pointer that cannot be read: the address alone, as strace
        if c.fault && n == 0 {
            return;
        }
        let _ = write!(
            s,
            " /* {n} var{}{} */",
            if n == 1 { "" } else { "s" },
            if c.more {
                " or more"
            } else if c.fault {
                ", unterminated"
            } else {
                ""
            }
        );
    }
}

/// An iovec array from its Elem and Count items, with the array's own copy
/// when there is one (`raw`): the address of a buffer that could not be
/// read, `NULL` for one at NULL.
fn iovec_raw(s: &mut String, items: &[&Capture], v: u64, o: &Options, raw: Option<&[u8]>) {
    let elems: Vec<&&Capture> = items
        .iter()
        .filter(|c| c.item == CaptureItem::Elem)
        .collect();
    let count = items.iter().find(|c| c.item == CaptureItem::Count);
    // the array itself could not be read: its address, as strace
    if elems.is_empty() && count.is_none_or(|c| c.fault) {
        return fmt::ptr(s, v);
    }
    s.push('[');
    for (k, c) in elems.iter().enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        // strace shows at most -s elements of an array
        if k >= o.strsize {
            s.push_str("...");
            s.push(']');
            return;
        }
        s.push_str("{iov_base=");
        let base = raw
            .and_then(|r| r.get(16 * k..16 * k + 8))
            .map(|b| le_u64(b, 0));
        // strace reads up to a byte past -s of the buffer, all or nothing:
        // a copy that stopped short of that (at unreadable memory) is
        // the address (a length past i64::MAX: nothing copied, as
        // unreadable)
        let need = (c.aux as usize).min(o.strsize.saturating_add(1));
        if base == Some(0) {
            // a NULL buffer, whatever its length
            s.push_str("NULL");
        } else if c.aux != 0
            && ((c.fault && c.data.len() < need) || (c.data.is_empty() && c.aux > i64::MAX as u64))
        {
            match base {
                Some(b) => fmt::ptr(s, b),
                None => s.push_str("0x?"),
            }
        } else {
            // each buffer shown up to -s bytes, as strace does (more is
            // copied when -e read=/write= dumps it)
            let mut d: &[u8] = &c.data;
            let mut trunc = c.truncated;
            if d.len() > o.strsize {
                d = &d[..o.strsize];
                trunc = true;
            }
            fmt::quoted(s, d, trunc, o.hex);
        }
        let _ = write!(s, ", iov_len={}}}", c.aux);
    }
    match count {
        Some(c) if c.more => s.push_str(", ..."),
        // no count: the record was full before the array's end
        None if !elems.is_empty() => s.push_str(", ..."),
        // an element past these could not be read: its address
        Some(c) if c.fault => {
            let _ = write!(s, ", ... /* {:#x} */", v.wrapping_add(16 * c.aux));
        }
        _ => {}
    }
    s.push(']');
}

/// A signal set: `[INT TERM]`, `~[RTMIN RT_1]` when most bits are set.
pub fn sigset(s: &mut String, mask: u64) {
    sigset_n(s, mask, 8, Xlat::Abbrev)
}

/// A signal set of `bytes` bytes (at most 8) as strace prints it: the
/// signals in it, or `~[...]` those not in it when two thirds or more of its
/// 32-bit words' bits are set; `-X` decides names or numbers.
pub fn sigset_n(s: &mut String, mask: u64, bytes: usize, x: Xlat) {
    let bits = bytes.clamp(1, 8).div_ceil(4) * 32;
    let mask = if bits < 64 {
        mask & ((1u64 << bits) - 1)
    } else {
        mask
    };
    let inverted = mask.count_ones() as usize >= bits * 2 / 3;
    let shown = if inverted {
        !mask
            & if bits < 64 {
                (1u64 << bits) - 1
            } else {
                u64::MAX
            }
    } else {
        mask
    };
    if inverted {
        s.push('~');
    }
    s.push('[');
    let mut first = true;
    for i in 1..=bits as i32 {
        if shown & (1u64 << (i - 1)) == 0 {
            continue;
        }
        if !first {
            s.push(' ');
        }
        first = false;
        let name = c::signal_name(i);
        let short = name.strip_prefix("SIG").unwrap_or(&name);
        match x {
            Xlat::Abbrev => s.push_str(short),
            Xlat::Raw => {
                let _ = write!(s, "{i}");
            }
            Xlat::Verbose => {
                let _ = write!(s, "{i} /* {short} */");
            }
        }
    }
    s.push(']');
}

/// A `sigset_t *` of `len` bytes (an argument of the call): the set when
/// `len` is between `min` and 8 (the kernel's sigset), else the address.
fn sigset_len(s: &mut String, d: Option<&[u8]>, v: u64, len: u64, min: u64, x: Xlat) {
    match d {
        Some(d) if (min..=8).contains(&len) && d.len() as u64 >= len => {
            let mut b = [0u8; 8];
            b[..len as usize].copy_from_slice(&d[..len as usize]);
            sigset_n(s, u64::from_le_bytes(b), len as usize, x)
        }
        _ => fmt::ptr(s, v),
    }
}

fn sigaction(s: &mut String, d: &[u8], x: Xlat) {
    let handler = le_u64(d, 0);
    let flags = le_u64(d, 8);
    let restorer = le_u64(d, 16);
    let mask = le_u64(d, 24);
    s.push_str("{sa_handler=");
    match handler {
        0 => s.push_str("SIG_DFL"),
        1 => s.push_str("SIG_IGN"),
        h => {
            let _ = write!(s, "{h:#x}");
        }
    }
    s.push_str(", sa_mask=");
    sigset(s, mask);
    s.push_str(", sa_flags=");
    fmt::flags(s, flags, c::SA_FLAGS, None, x);
    if flags & 0x04000000 != 0 {
        let _ = write!(s, ", sa_restorer={restorer:#x}");
    }
    s.push('}');
}

fn rlim(s: &mut String, v: u64, x: Xlat) {
    let name = if v == u64::MAX {
        Some("RLIM64_INFINITY".to_string())
    } else if v > 1024 && v.is_multiple_of(1024) {
        Some(format!("{}*1024", v / 1024))
    } else {
        None
    };
    match (name, x) {
        (Some(n), Xlat::Abbrev) => s.push_str(&n),
        (Some(n), Xlat::Verbose) => {
            let _ = write!(s, "{v} /* {n} */");
        }
        _ => {
            let _ = write!(s, "{v}");
        }
    }
}

/// A wait status: `{WIFEXITED(s) && WEXITSTATUS(s) == 0}`.
pub fn wait_status(s: &mut String, st: i32) {
    let sig = st & 0x7f;
    if st & 0xffff == 0xffff {
        // WIFCONTINUED: the low 16 bits all set
        s.push_str("{WIFCONTINUED(s)}");
    } else if sig == 0 {
        let _ = write!(
            s,
            "{{WIFEXITED(s) && WEXITSTATUS(s) == {}}}",
            (st >> 8) & 0xff
        );
    } else if st & 0xff == 0x7f {
        let _ = write!(
            s,
            "{{WIFSTOPPED(s) && WSTOPSIG(s) == {}}}",
            c::signal_name((st >> 8) & 0xff)
        );
    } else {
        let core = if st & 0x80 != 0 {
            " && WCOREDUMP(s)"
        } else {
            ""
        };
        let _ = write!(
            s,
            "{{WIFSIGNALED(s) && WTERMSIG(s) == {}{core}}}",
            c::signal_name(sig)
        );
    }
}

/// poll's array as strace prints it at entry: `-y` paths on the
/// descriptors, no events for a negative (ignored) descriptor, at most `-s`
/// elements without `-v`, then `...` (also where the copy stopped short).
fn pollfds(
    s: &mut String,
    call: CallView<'_>,
    i: usize,
    n: u64,
    o: &Options,
    namer: Option<&dyn Fn(i32) -> Option<String>>,
) {
    let v = call.args[i];
    // a copy that ran into unreadable memory still serves when it holds
    // the whole array (one at the end of a page, with a count whose high
    // bits the kernel ignores made the copy ask for more)
    // (or, as strace reads them one by one, the elements before the
    // unreadable one, then `... /* its address */`)
    let Some((d, fault)) = call
        .enter
        .iter()
        .find(|c| c.arg as usize == i)
        .filter(|c| !c.fault || (c.item == CaptureItem::Data && c.data.len() >= 8))
        .map(|c| (&c.data, c.fault))
    else {
        return fmt::ptr(s, v);
    };
    let limit = if o.verbose { usize::MAX } else { o.strsize };
    let have = d.len() / 8;
    let n = n as u32 as usize;
    s.push('[');
    for (k, p) in d.chunks_exact(8).take(n).enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        if k >= limit {
            s.push_str("...");
            break;
        }
        s.push_str("{fd=");
        let pfd = le_u32(p, 0) as i32;
        fd(s, pfd, namer);
        if pfd >= 0 {
            s.push_str(", events=");
            fmt::flags(
                s,
                u16::from_le_bytes([p[4], p[5]]) as u64,
                c::POLL_EVENTS,
                None,
                o.xlat,
            );
        }
        s.push('}');
    }
    if fault && have < n && have < limit {
        let _ = write!(s, ", ... /* {:#x} */", v.wrapping_add(8 * have as u64));
    } else if have < n && have < limit {
        if have > 0 {
            s.push_str(", ");
        }
        s.push_str("...");
    }
    s.push(']');
}

fn epoll_event(s: &mut String, d: &[u8], x: Xlat) {
    s.push_str("{events=");
    fmt::flags(s, le_u32(d, 0) as u64, c::EPOLL_EVENTS, None, x);
    let data = le_u64(d, 4);
    let _ = write!(s, ", data={{u32={}, u64={}}}}}", data as u32, data);
}

// --- custom decoders ---

fn dec_open(w: &mut ArgWriter<'_>) {
    arg(w, 0, Path);
    w.sep();
    let flags = w.call.args[1];
    open_flags(&mut w.s, flags, w.opts.xlat);
    // strace: O_CREAT or the __O_TMPFILE bit (O_TMPFILE without O_DIRECTORY too)
    if flags & (0o100 | 0o20000000) != 0 {
        arg(w, 2, Mode);
    }
}

fn dec_openat(w: &mut ArgWriter<'_>) {
    arg(w, 0, DirFd);
    arg(w, 1, Path);
    w.sep();
    let flags = w.call.args[2];
    open_flags(&mut w.s, flags, w.opts.xlat);
    // strace: O_CREAT or the __O_TMPFILE bit (O_TMPFILE without O_DIRECTORY too)
    if flags & (0o100 | 0o20000000) != 0 {
        arg(w, 3, Mode);
    }
}

/// A value printed as several symbolic parts (`MAP_PRIVATE|MAP_ANONYMOUS`):
/// `-X raw` prints the whole value in hex, `-X verbose` the hex with the
/// names in a comment, as strace does for the value as a whole.
fn composite(s: &mut String, v: u64, x: Xlat, names: impl FnOnce(&mut String)) {
    match x {
        Xlat::Abbrev => names(s),
        Xlat::Raw => fmt::hex(s, v),
        Xlat::Verbose => {
            let mut t = String::new();
            names(&mut t);
            fmt::hex(s, v);
            let _ = write!(s, " /* {t} */");
        }
    }
}

/// mmap's flags: the mapping type, then the other flags.
fn map_flags(s: &mut String, f: u64, x: Xlat) {
    composite(s, f, x, |t| {
        fmt::enumv(t, f & 3, c::MAP_TYPE, "", Xlat::Abbrev, true);
        if f & !3 != 0 {
            t.push('|');
            fmt::flags(t, f & !3, c::MAP_FLAGS, None, Xlat::Abbrev);
        }
    });
}

fn dec_remap_file_pages(w: &mut ArgWriter<'_>) {
    arg(w, 0, Ptr);
    arg(w, 1, Ulong);
    w.sep();
    let prot = w.call.args[2];
    if prot == 0 {
        fmt::flags(&mut w.s, 0, c::PROT, Some("PROT_NONE"), w.opts.xlat);
    } else {
        fmt::flags_hinted(&mut w.s, prot, c::PROT, w.opts.xlat);
    }
    arg(w, 3, Ulong);
    w.sep();
    let f = w.call.args[4];
    composite(&mut w.s, f, w.opts.xlat, |t| {
        match c::MAP_TYPE.iter().find(|(k, _)| *k == f & 0xf) {
            Some((_, n)) => t.push_str(n),
            None => {
                let _ = write!(t, "{:#x} /* MAP_??? */", f & 0xf);
            }
        }
        // strace clears the hugetlb field with a 32-bit mask, and the
        // upper half with it
        let huge = f & 0xfc00_0000;
        let rest = f & !0xf & 0x03ff_ffff;
        if rest != 0 {
            t.push('|');
            fmt::flags(t, rest, c::MAP_FLAGS, None, Xlat::Abbrev);
        }
        if huge != 0 {
            let _ = write!(t, "|{}<<MAP_HUGE_SHIFT", huge >> 26);
        }
    });
}

fn dec_memfd_create(w: &mut ArgWriter<'_>) {
    // the name: at most 249 bytes and its NUL
    let v = w.call.args[0];
    let lim = w.opts.strsize.min(250);
    let strsize = w.opts.strsize;
    w.sep();
    let got: Option<(Vec<u8>, bool)> = match (w.call.cap(0), w.env.read_mem) {
        (Some(c), _) if !c.fault => Some((c.data.clone(), c.truncated)),
        _ if w.call.data(2).is_some() => w.call.data(2).map(|d| {
            let n = d.iter().position(|&b| b == 0);
            (d[..n.unwrap_or(d.len())].to_vec(), n.is_none())
        }),
        (_, Some(read)) if v != 0 => {
            let page_left = 4096 - (v & 4095) as usize;
            read(v, (lim + 1).min(page_left))
                .or_else(|| read(v, lim.min(page_left)))
                .map(|d| {
                    let n = d.iter().position(|&b| b == 0);
                    (d[..n.unwrap_or(d.len())].to_vec(), n.is_none())
                })
        }
        _ => None,
    };
    match got {
        Some((d, trunc)) => {
            let (d, trunc) = bounded(&d, trunc, 250, strsize);
            fmt::quoted(&mut w.s, d, trunc, w.opts.hex);
        }
        None => fmt::ptr(&mut w.s, v),
    }
    w.sep();
    let f = w.call.args[1] as u32 as u64;
    let x = w.opts.xlat;
    if f == 0 {
        w.s.push('0');
        return;
    }
    composite(&mut w.s, f, x, |t| {
        let huge = f & (0x3f << c::MFD_HUGE_SHIFT);
        let rest = f & !(0x3f << c::MFD_HUGE_SHIFT);
        if rest != 0 || huge == 0 {
            let named = c::MEMFD_FLAGS.iter().any(|&(b, _)| rest & b == b);
            fmt::flags(t, rest, c::MEMFD_FLAGS, None, Xlat::Abbrev);
            if !named {
                t.push_str(" /* MFD_??? */");
            }
        }
        if huge != 0 {
            if rest != 0 {
                t.push('|');
            }
            let _ = write!(t, "{}<<MFD_HUGE_SHIFT", huge >> c::MFD_HUGE_SHIFT);
        }
    });
}

fn dec_add_key(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, Str);
    arg(w, 1, Str);
    if a[2] == 0 {
        arg(w, 2, Ptr);
    } else if a[3] == 0 {
        w.sep();
        w.s.push_str("\"\"");
    } else {
        arg(w, 2, BufIn(3));
    }
    arg(w, 3, Ulong);
    arg(w, 4, KeySerial);
}

fn dec_landlock_create_ruleset(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    w.sep();
    match w.call.data(0) {
        _ if a[1] < 8 || a[0] == 0 => fmt::ptr(&mut w.s, a[0]),
        Some(d) if d.len() >= 8 => {
            w.s.push_str("{handled_access_fs=");
            fmt::flags_hinted(&mut w.s, le_u64(d, 0), c::LANDLOCK_ACCESS_FS, x);
            if a[1] > 8 {
                w.s.push_str(", ...");
            }
            w.s.push('}');
        }
        _ => fmt::ptr(&mut w.s, a[0]),
    }
    arg(w, 1, Ulong);
    arg(w, 2, Flags(c::LANDLOCK_CREATE_RULESET_FLAGS));
}

fn dec_landlock_add_rule(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    arg(w, 0, Fd);
    arg(w, 1, Enum(c::LANDLOCK_RULE_TYPES, "LANDLOCK_RULE_???"));
    w.sep();
    match w.call.data(2).filter(|d| d.len() >= 12) {
        Some(d) if a[1] as u32 == 1 => {
            w.s.push_str("{allowed_access=");
            fmt::flags_hinted(&mut w.s, le_u64(d, 0), c::LANDLOCK_ACCESS_FS, x);
            w.s.push_str(", parent_fd=");
            fd(&mut w.s, le_u32(d, 8) as i32, w.env.fd_path);
            w.s.push('}');
        }
        _ => fmt::ptr(&mut w.s, a[2]),
    }
    arg(w, 3, Hex32);
}

fn dec_mq_open(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, Path);
    w.sep();
    open_flags(&mut w.s, a[1] as u32 as u64, w.opts.xlat);
    if a[1] & 0o100 != 0 {
        // a umode_t: 16 bits
        w.sep();
        w.s.push_str(&fmt::octal(a[2] & 0xffff));
        w.sep();
        mq_attr(w, 3, false);
    }
}

/// A struct mq_attr (64 bytes with its reserved words, all read), its
/// flags named or in hex.
fn mq_attr(w: &mut ArgWriter<'_>, i: usize, named: bool) {
    let v = w.call.args[i];
    let x = w.opts.xlat;
    match w.call.data(i).filter(|d| d.len() >= 64) {
        Some(d) if v != 0 => {
            w.s.push_str("{mq_flags=");
            if named {
                fmt::flags_hinted(&mut w.s, le_u64(d, 0), &[(0o4000, "O_NONBLOCK")], x);
            } else {
                fmt::hex(&mut w.s, le_u64(d, 0));
            }
            let _ = write!(
                w.s,
                ", mq_maxmsg={}, mq_msgsize={}, mq_curmsgs={}}}",
                le_i64(d, 8),
                le_i64(d, 16),
                le_i64(d, 24)
            );
        }
        _ => fmt::ptr(&mut w.s, v),
    }
}

fn dec_mq_getsetattr(w: &mut ArgWriter<'_>) {
    arg(w, 0, Fd);
    w.sep();
    mq_attr(w, 1, true);
    if !w.exiting() {
        return;
    }
    w.sep();
    mq_attr(w, 2, true);
}

fn dec_mount_setattr(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    arg(w, 0, DirFd);
    arg(w, 1, Path);
    arg(w, 2, Flags(c::MOUNT_SETATTR_FLAGS));
    w.sep();
    let (addr, size) = (a[3], a[4]);
    let whole = w.call.data(3).filter(|d| d.len() as u64 >= size.min(4096));
    let head = whole.or_else(|| w.call.data(5)).filter(|d| d.len() >= 32);
    match head {
        Some(d) if size >= 32 => {
            let (set, clr) = (le_u64(d, 0), le_u64(d, 8));
            let mut t = String::from("{attr_set=");
            fmt::flags_hinted(&mut t, set, c::MOUNT_ATTR_ATTR, x);
            t.push_str(", attr_clr=");
            fmt::flags_hinted(&mut t, clr, c::MOUNT_ATTR_ATTR, x);
            t.push_str(", propagation=");
            fmt::enumv(
                &mut t,
                le_u64(d, 16),
                c::MOUNT_ATTR_PROPAGATION,
                "MS_???",
                x,
                true,
            );
            let userns = le_u64(d, 24);
            t.push_str(", userns_fd=");
            if userns > i32::MAX as u64 || (set | clr) & 0x10_0000 == 0 {
                let _ = write!(t, "{userns}");
            } else {
                fd(&mut t, userns as i32, w.env.fd_path);
            }
            if size > 32 {
                nonzero_tail(&mut t, whole, 32, size.min(4096) as usize, w.opts, ", ");
            }
            t.push('}');
            w.s.push_str(&t);
        }
        _ => fmt::ptr(&mut w.s, addr),
    }
    arg(w, 4, Ulong);
}

/// The bytes of a struct past the part a decoder knows, from `from` to
/// `end` (the size the caller gave, at most a page), as strace shows them:
/// nothing when all are zero, `/* bytes A..B */ "\x.."` (up to `-s` of them)
/// when some are not, `???` when they could not be read. `prefix` goes
/// before whatever is printed. Returns whether anything was.
fn nonzero_tail(
    s: &mut String,
    whole: Option<&[u8]>,
    from: usize,
    end: usize,
    opts: &Options,
    prefix: &str,
) -> bool {
    match whole {
        Some(d) if d.len() >= end && d[from..end].iter().all(|&b| b == 0) => false,
        Some(d) if d.len() >= end => {
            let _ = write!(s, "{prefix}/* bytes {from}..{} */ ", end - 1);
            let n = (end - from).min(opts.strsize);
            fmt::quoted(s, &d[from..from + n], false, fmt::HexStr::All);
            if n < end - from {
                s.push_str("...");
            }
            true
        }
        _ => {
            s.push_str(prefix);
            s.push_str("???");
            true
        }
    }
}

/// An array of `n` elements of `elem` bytes at `addr` as strace's
/// print_array shows it, from the copy `cap` (whole, or up to where memory
/// became unreadable): `NULL`, `[]`, the elements through `each`, `...`
/// past `-s` of them (unless `-v`), `... /* ADDR */` at the first one that
/// could not be read, the address when not even the first could be.
pub(crate) fn print_array(
    s: &mut String,
    cap: Option<&Capture>,
    addr: u64,
    n: u64,
    elem: usize,
    o: &Options,
    each: impl FnMut(&mut String, &[u8]),
) {
    let data = cap.map(|c| (c.data.as_slice(), c.fault));
    print_array_data(s, data, addr, n, elem, o, each)
}

/// [`print_array`] from bytes and whether their copy stopped at memory that
/// could not be read.
pub(crate) fn print_array_data(
    s: &mut String,
    cap: Option<(&[u8], bool)>,
    addr: u64,
    n: u64,
    elem: usize,
    o: &Options,
    mut each: impl FnMut(&mut String, &[u8]),
) {
    if addr == 0 {
        s.push_str("NULL");
        return;
    }
    if n == 0 {
        s.push_str("[]");
        return;
    }
    let Some(c) = cap.filter(|_| n.checked_mul(elem as u64).is_some()) else {
        fmt::ptr(s, addr);
        return;
    };
    let (data, fault) = c;
    let have = (data.len() / elem) as u64;
    if have == 0 {
        fmt::ptr(s, addr);
        return;
    }
    let limit = if o.verbose {
        u64::MAX
    } else {
        o.strsize as u64
    };
    s.push('[');
    for k in 0..n {
        if k > 0 {
            s.push_str(", ");
        }
        if k >= have {
            if fault {
                let _ = write!(s, "... /* {:#x} */", addr.wrapping_add(k * elem as u64));
            } else {
                s.push_str("...");
            }
            break;
        }
        if k >= limit {
            s.push_str("...");
            break;
        }
        let at = k as usize * elem;
        each(s, &data[at..at + elem]);
    }
    s.push(']');
}

/// The bytes an array argument of `elem`-byte elements needs copied: one
/// past `-s` of them (to know whether the next can be read), all with `-v`.
pub(super) fn array_max(o: &Options, elem: usize) -> u32 {
    if o.verbose {
        4096
    } else {
        (elem * (o.strsize + 1)).min(4096) as u32
    }
}

/// move_pages(pid, count, pages, nodes, status, flags).
fn dec_move_pages(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let (o, x) = (w.opts, w.opts.xlat);
    arg(w, 0, Int);
    arg(w, 1, Ulong);
    w.sep();
    print_array(&mut w.s, w.call.cap(2), a[2], a[1], 8, o, |s, e| {
        fmt::ptr(s, le_u64(e, 0))
    });
    w.sep();
    print_array(&mut w.s, w.call.cap(3), a[3], a[1], 4, o, |s, e| {
        let _ = write!(s, "{}", le_u32(e, 0) as i32);
    });
    if !w.exiting() {
        return;
    }
    w.sep();
    let status = w
        .call
        .exit_cap(4)
        .filter(|_| w.call.ret().is_some_and(|r| r >= 0));
    print_array(&mut w.s, status, a[4], a[1], 4, o, |s, e| {
        let v = le_u32(e, 0) as i32;
        match c::errno_name(-v).filter(|_| v < 0) {
            Some((name, _)) => match x {
                Xlat::Abbrev => {
                    let _ = write!(s, "-{name}");
                }
                Xlat::Raw => {
                    let _ = write!(s, "{v}");
                }
                Xlat::Verbose => {
                    let _ = write!(s, "{v} /* -{name} */");
                }
            },
            None => {
                let _ = write!(s, "{v}");
            }
        }
    });
    arg(w, 5, Flags(c::MOVE_PAGES_FLAGS));
}

/// An array of `n` iovecs as addresses and lengths.
fn iov_addrs(s: &mut String, cap: Option<&Capture>, addr: u64, n: u64, o: &Options) {
    print_array(s, cap, addr, n, 16, o, |s, e| {
        s.push_str("{iov_base=");
        fmt::ptr(s, le_u64(e, 0));
        let _ = write!(s, ", iov_len={}}}", le_u64(e, 8));
    })
}

/// waitid(idtype, id, infop, options, rusage): the id as a descriptor for
/// P_PIDFD.
fn dec_waitid(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, Enum(WAITID_TYPES, "P_???"));
    if a[0] as u32 == 3 {
        arg(w, 1, Fd);
    } else if a[0] as u32 == 1 {
        // P_PID
        arg(w, 1, Pid);
    } else {
        arg(w, 1, Int);
    }
    if !w.exiting() {
        return;
    }
    arg(w, 2, SiginfoOut);
    arg(w, 3, WaitOptions);
    arg(w, 4, RusageOut);
}

/// wait4(pid, status, options, rusage): the status and usage only when a
/// child was reaped (a positive return), as strace.
fn dec_wait4(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, PidPgid);
    if !w.exiting() {
        return;
    }
    let reaped = w.call.ret().is_some_and(|r| r > 0);
    if reaped {
        arg(w, 1, WaitStatusOut);
    } else {
        arg(w, 1, Ptr);
    }
    arg(w, 2, WaitOptions);
    if reaped {
        arg(w, 3, RusageOut);
    } else {
        arg(w, 3, Ptr);
    }
    let _ = a;
}

/// pidfd_getfd(pidfd, targetfd, flags): the target descriptor named as the
/// process the pidfd refers to names it.
fn dec_pidfd_getfd(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, Fd);
    w.sep();
    let (pidfd, target) = (int(a[0]) as i32, int(a[1]) as i32);
    let namer_in = w.env.fd_path_in;
    let named = |n: i32| namer_in.and_then(|f| f(pidfd, n));
    fd(&mut w.s, target, Some(&named));
    arg(w, 2, Hex32);
}

/// waitid's id types.
static WAITID_TYPES: &[(u64, &str)] = &[(0, "P_ALL"), (1, "P_PID"), (2, "P_PGID"), (3, "P_PIDFD")];

/// A NUL-terminated string of at most `lim` bytes (strace's
/// `printstr_ex(.., lim, QUOTE_0_TERMINATED)`), from the copy in slot `i`.
fn bounded_str(w: &mut ArgWriter<'_>, i: usize, v: u64, lim: usize) {
    match w.call.cap(i).filter(|c| !c.fault && v != 0) {
        Some(c) => {
            let (d, trunc) = bounded(&c.data, c.truncated, lim, w.opts.strsize);
            fmt::quoted(&mut w.s, d, trunc, w.opts.hex);
        }
        None => fmt::ptr(&mut w.s, v),
    }
}

/// `want` bytes of a string from the process, `None` when it runs into
/// unreadable memory before its NUL (strace cannot read it then either).
fn read_whole_str(
    read: &dyn Fn(u64, usize) -> Option<Vec<u8>>,
    v: u64,
    want: usize,
) -> Option<Vec<u8>> {
    read(v, want).filter(|d| d.len() == want || d.contains(&0))
}

/// What strace shows of a string read as at most `lim` bytes: without a
/// NUL in them it is cut (`...`); `-s` may cut it shorter.
fn bounded(d: &[u8], truncated: bool, lim: usize, strsize: usize) -> (&[u8], bool) {
    if lim <= strsize {
        if d.len() >= lim {
            (&d[..lim], true)
        } else {
            (d, truncated)
        }
    } else if d.len() > strsize {
        (&d[..strsize], true)
    } else {
        (d, truncated)
    }
}

fn dec_fsconfig(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    let cmd = a[1] as u32;
    let aux = int(a[4]) as i32;
    arg(w, 0, Fd);
    arg(w, 1, Enum(c::FSCONFIG_CMDS, "FSCONFIG_???"));
    w.sep();
    if cmd <= 5 {
        bounded_str(w, 2, a[2], 256);
    } else {
        fmt::ptr(&mut w.s, a[2]);
    }
    match cmd {
        1 => {
            w.sep();
            bounded_str(w, 3, a[3], 256);
        }
        3 | 4 => arg(w, 3, Path),
        2 if (0..=1024 * 1024).contains(&aux) => {
            w.sep();
            let n = aux as usize;
            // strace reads one byte more than -s when there are more, all
            // or nothing; the copy (of a length the register's upper half
            // may make longer) may stop at unreadable memory past them
            let need = n.min(w.opts.strsize + 1);
            let got = w.call.cap(5).map(|c| c.data.as_slice());
            match got {
                _ if a[3] == 0 => w.s.push_str("NULL"),
                _ if n == 0 => w.s.push_str("\"\""),
                Some(d) if d.len() >= need => {
                    let shown = n.min(w.opts.strsize);
                    fmt::quoted(&mut w.s, &d[..shown], n > shown, fmt::HexStr::All);
                }
                _ => fmt::ptr(&mut w.s, a[3]),
            }
        }
        _ => arg(w, 3, Ptr),
    }
    match cmd {
        3 | 4 => arg(w, 4, DirFd),
        5 => arg(w, 4, Fd),
        _ => {
            w.sep();
            let _ = write!(w.s, "{aux}");
        }
    }
    let _ = x;
}

fn dec_epoll_pwait2(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, Fd);
    if !w.exiting() {
        return;
    }
    arg(w, 1, EpollEventsOut);
    arg(w, 2, Int);
    // read at exit by strace: addresses when the call failed
    if w.call.ret().is_some_and(|r| (-4095..0).contains(&r)) {
        arg(w, 3, Ptr);
        arg(w, 4, Ptr);
    } else {
        arg(w, 3, TimespecIn);
        // a mask of any other size than the kernel's is an address
        arg(w, 4, if a[5] == 8 { SigsetIn } else { Ptr });
    }
    arg(w, 5, Ulong);
}

fn dec_get_mempolicy(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    if !w.exiting() {
        return;
    }
    w.sep();
    match w.call.data(0).filter(|d| d.len() >= 4) {
        Some(d) if a[0] != 0 => {
            w.s.push('[');
            fmt::enumv(
                &mut w.s,
                le_u32(d, 0) as u64,
                c::MPOL_MODES,
                "MPOL_???",
                x,
                true,
            );
            w.s.push(']');
        }
        _ => fmt::ptr(&mut w.s, a[0]),
    }
    w.sep();
    nodemask(w, 1, a[2]);
    arg(w, 2, Ulong);
    arg(w, 3, Ptr);
    arg(w, 4, Flags64(c::GET_MEMPOLICY_FLAGS));
}

fn dec_times(w: &mut ArgWriter<'_>) {
    if !w.exiting() {
        return;
    }
    w.sep();
    let v = w.call.args[0];
    let x = w.opts.xlat;
    match w.call.data(0).filter(|d| d.len() >= 32) {
        Some(d) => {
            w.s.push('{');
            for (k, name) in ["tms_utime", "tms_stime", "tms_cutime", "tms_cstime"]
                .iter()
                .enumerate()
            {
                if k > 0 {
                    w.s.push_str(", ");
                }
                let t = le_u64(d, 8 * k);
                let _ = write!(w.s, "{name}={t}");
                // clock ticks, at 100 a second
                if x != Xlat::Raw && t > 0 {
                    let _ = write!(w.s, " /* {}.{:02} s */", t / 100, t % 100);
                }
            }
            w.s.push('}');
        }
        _ => fmt::ptr(&mut w.s, v),
    }
}

fn dec_memfd_secret(w: &mut ArgWriter<'_>) {
    w.sep();
    let v = w.call.args[0] as u32 as u64;
    fmt::flags(&mut w.s, v, c::MEMFD_SECRET_FLAGS, None, w.opts.xlat);
}

/// mount: the type and data are addresses when the flags make the kernel
/// ignore them; the old magic number in the flags' upper half prints first.
fn dec_mount(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    let mut flags = a[3];
    let magic = flags & c::MS_MGC_MSK == c::MS_MGC_VAL;
    if magic {
        flags &= !c::MS_MGC_MSK;
    }
    let (ignore_type, ignore_data) = if flags & 0x20 != 0 {
        (true, false)
    } else if flags & (0x1000 | 0x2000 | 0x10_0000 | 0x4_0000 | 0x8_0000 | 0x2_0000) != 0 {
        (true, true)
    } else {
        (false, false)
    };
    arg(w, 0, Path);
    arg(w, 1, Path);
    if ignore_type {
        arg(w, 2, Ptr);
    } else {
        arg(w, 2, Str);
    }
    w.sep();
    if magic {
        fmt::enumv(
            &mut w.s,
            c::MS_MGC_VAL,
            &[(c::MS_MGC_VAL, "MS_MGC_VAL")],
            "",
            x,
            true,
        );
        if flags != 0 {
            w.s.push('|');
        }
    }
    if flags != 0 || !magic {
        fmt::flags_hinted(&mut w.s, flags, c::MOUNT_FLAGS, x);
    }
    if ignore_data {
        arg(w, 4, Ptr);
    } else {
        arg(w, 4, Str);
    }
}

fn dec_fanotify_init(w: &mut ArgWriter<'_>) {
    let x = w.opts.xlat;
    let f = w.call.args[0] as u32 as u64;
    w.sep();
    fmt::enumv(&mut w.s, f & 0xc, c::FAN_CLASSES, "FAN_CLASS_???", x, true);
    if f & !0xc != 0 {
        w.s.push('|');
        fmt::flags_hinted(&mut w.s, f & !0xc, c::FAN_INIT_FLAGS, x);
    }
    w.sep();
    open_flags(&mut w.s, w.call.args[1] as u32 as u64, x);
}

fn dec_fanotify_mark(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    arg(w, 0, Fd);
    arg(w, 1, Flags(c::FAN_MARK_FLAGS));
    arg(w, 2, Flags64(c::FAN_EVENT_FLAGS));
    if int(a[3]) == -1 {
        w.sep();
        w.s.push_str(match x {
            Xlat::Raw => "-1",
            Xlat::Verbose => "-1 /* FAN_NOFD */",
            Xlat::Abbrev => "FAN_NOFD",
        });
    } else {
        arg(w, 3, DirFd);
    }
    arg(w, 4, Path);
}

fn dec_kcmp(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, Int);
    arg(w, 1, Int);
    arg(w, 2, Enum(c::KCMP_TYPES, "KCMP_???"));
    match a[2] as u32 {
        // KCMP_FILE: two descriptors (of the two processes)
        0 => {
            arg(w, 3, Fd);
            arg(w, 4, Fd);
        }
        // KCMP_EPOLL_TFD: a descriptor and a struct kcmp_epoll_slot
        7 => {
            arg(w, 3, Fd);
            w.sep();
            match w.call.data(4).filter(|d| d.len() >= 12) {
                Some(d) => {
                    let _ = write!(
                        w.s,
                        "{{efd={}, tfd={}, toff={}}}",
                        le_u32(d, 0) as i32,
                        le_u32(d, 4) as i32,
                        le_u32(d, 8)
                    );
                }
                None => fmt::ptr(&mut w.s, a[4]),
            }
        }
        1..=6 => {}
        _ => {
            arg(w, 3, Hex);
            arg(w, 4, Hex);
        }
    }
}

/// An I/O priority: `IOPRIO_PRIO_VALUE(class, data)`.
fn ioprio_text(v: u32, x: Xlat) -> String {
    let mut t = String::from("IOPRIO_PRIO_VALUE(");
    fmt::enumv(
        &mut t,
        (v >> 13) as u64,
        c::IOPRIO_CLASS,
        "IOPRIO_CLASS_???",
        x,
        true,
    );
    let _ = write!(t, ", {})", v & 0x1fff);
    t
}

fn dec_ioprio(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    arg(w, 0, Enum(c::IOPRIO_WHO, "IOPRIO_WHO_???"));
    arg(w, 1, Int);
    if table::by_nr(w.call.nr).is_some_and(|s| s.name == "ioprio_set") {
        w.sep();
        let v = a[2] as u32;
        match x {
            Xlat::Raw => {
                let _ = write!(w.s, "{}", v as i32);
            }
            Xlat::Verbose => {
                let _ = write!(w.s, "{} /* {} */", v as i32, ioprio_text(v, x));
            }
            Xlat::Abbrev => w.s.push_str(&ioprio_text(v, x)),
        }
    }
}

/// A NUMA policy mode with its flags.
fn mpol_mode(s: &mut String, v: u64, x: Xlat) {
    const FLAGS: u64 = (1 << 15) | (1 << 14) | (1 << 13);
    let mode = v & !FLAGS;
    if v & FLAGS == 0 {
        fmt::enumv(s, mode, c::MPOL_MODES, "MPOL_???", x, true);
        return;
    }
    let Some((_, name)) = c::MPOL_MODES.iter().find(|(k, _)| *k == mode) else {
        fmt::flags_hinted(s, v, c::MPOL_MODE_FLAGS, x);
        return;
    };
    composite(s, v, x, |t| {
        t.push_str(name);
        t.push('|');
        fmt::flags(t, v & FLAGS, c::MPOL_MODE_FLAGS, None, Xlat::Abbrev);
    });
}

/// A node mask of `maxnode` bits: its words, as many as `-s` allows, from
/// the copy of them in `data`.
fn nodemask(w: &mut ArgWriter<'_>, i: usize, maxnode: u64) {
    let addr = w.call.args[i];
    let strsize = w.opts.strsize;
    let s = &mut w.s;
    let nmemb = maxnode.wrapping_add(62) / 64;
    if addr == 0 || nmemb < maxnode / 64 || (maxnode != 0 && nmemb == 0) {
        fmt::ptr(s, addr);
        return;
    }
    if nmemb == 0 {
        s.push_str("[]");
        return;
    }
    let shown = (nmemb as usize).min(strsize);
    // strace reads one word past those it shows before it prints `...`
    let want = if nmemb as usize > shown {
        shown + 1
    } else {
        shown
    };
    // what BPF copied, else what can still be read (the words up to an
    // unreadable one)
    // (a copy that stopped at unmapped memory still holds the words before it)
    let mut copied = w
        .call
        .cap(i)
        .map(|c| c.data.as_slice())
        .filter(|d| d.len() >= want * 8);
    // set_mempolicy: the first 1, 2 and 3 words copied in slots 3 to 5
    // (an array ending its page is copied whole by one of them)
    let mut partial: Option<&[u8]> = None;
    if copied.is_none()
        && i == 1
        && w.call.args[2] == maxnode
        && table_name(w.call.nr) == Some("set_mempolicy")
    {
        for slot in 3..6 {
            if let Some(d) = w.call.data(slot) {
                partial = Some(d);
            }
        }
        if let Some(d) = partial.filter(|d| d.len() >= want * 8) {
            copied = Some(d);
        }
    }
    let read;
    let d: &[u8] = match (copied, w.env.read_mem) {
        (Some(d), _) => d,
        (None, Some(mem)) => {
            read = mem(addr, want * 8)
                .filter(|r| r.len() >= partial.map_or(0, |p| p.len()))
                .unwrap_or_else(|| partial.unwrap_or_default().to_vec());
            &read
        }
        (None, None) => partial.unwrap_or_default(),
    };
    let have = (d.len() / 8).min(want);
    if have == 0 {
        fmt::ptr(s, addr);
        return;
    }
    s.push('[');
    for k in 0..have.min(shown) {
        if k > 0 {
            s.push_str(", ");
        }
        // strace's `%#0*lx` of width 16: `0x` and 14 digits, a zero word
        // 16 zeros (`#` adds no `0x` to 0)
        let v = le_u64(d, 8 * k);
        if v == 0 {
            s.push_str("0000000000000000");
        } else {
            let _ = write!(s, "{v:#016x}");
        }
    }
    if have < want {
        let _ = write!(s, ", ... /* {:#x} */", addr + 8 * have as u64);
    } else if want > shown {
        s.push_str(", ...");
    }
    s.push(']');
}

fn table_name(nr: u32) -> Option<&'static str> {
    table::by_nr(nr).map(|s| s.name)
}

/// The capture of a node mask (argument `arg`, `maxnode` in argument
/// `len_arg`): no more words than `-s` shows.
fn nodemask_plan(len_arg: u8, o: &Options, when: CapWhen) -> CapPlan {
    CapPlan {
        kind: CapKind::ArgLen,
        when,
        len_arg,
        mult: 0,
        max: ((o.strsize.min(64) + 1) * 8) as u32,
        ..Default::default()
    }
}

fn dec_mbind(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    arg(w, 0, Ptr);
    arg(w, 1, Ulong);
    w.sep();
    mpol_mode(&mut w.s, a[2], x);
    w.sep();
    nodemask(w, 3, a[4]);
    arg(w, 4, Ulong);
    arg(w, 5, Flags(c::MBIND_FLAGS));
}

fn dec_set_mempolicy(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    w.sep();
    mpol_mode(&mut w.s, a[0] as u32 as u64, w.opts.xlat);
    w.sep();
    nodemask(w, 1, a[2]);
    arg(w, 2, Ulong);
}

fn dec_migrate_pages(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    arg(w, 0, Int);
    arg(w, 1, Ulong);
    w.sep();
    nodemask(w, 2, a[1]);
    w.sep();
    nodemask(w, 3, a[1]);
}

fn dec_mmap(w: &mut ArgWriter<'_>) {
    arg(w, 0, Ptr);
    arg(w, 1, Ulong);
    arg(w, 2, Prot);
    w.sep();
    let f = w.call.args[3];
    map_flags(&mut w.s, f, w.opts.xlat);
    arg(w, 4, Fd);
    w.sep();
    fmt::hex(&mut w.s, w.call.args[5]);
}

fn dec_fcntl(w: &mut ArgWriter<'_>) {
    arg(w, 0, Fd);
    let cmd = w.call.args[1] as u32 as u64;
    arg(w, 1, Enum(c::FCNTL_CMDS, "F_???"));
    let v = w.call.args[2];
    match cmd {
        // F_DUPFD, F_DUPFD_CLOEXEC
        0 | 1030 => arg(w, 2, Int),
        // F_SETFD
        2 => arg(w, 2, Flags(c::FD_FLAGS)),
        // F_SETFL
        4 => {
            w.sep();
            open_flags(&mut w.s, v, w.opts.xlat);
        }
        // F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW: the lock asked for
        6 | 7 | 37 | 38 => {
            w.sep();
            fcntl_struct(w, false);
        }
        // F_SETOWN_EX
        15 => {
            w.sep();
            fcntl_struct(w, false);
        }
        // F_GETLK, F_OFD_GETLK, F_GETOWN_EX: what the kernel wrote back,
        // printed at exit only (`fcntl(3, F_GETLK <unfinished ...>`)
        5 | 36 | 16 => {
            if !w.exiting_inside() {
                return;
            }
            w.sep();
            if w.call.ret().is_some_and(|r| r < 0) {
                fmt::ptr(&mut w.s, v);
            } else {
                fcntl_struct(w, true);
            }
        }
        // F_SETSIG: a signal; F_SETLEASE: a lock type; F_NOTIFY, F_ADD_SEALS: flags
        10 => arg(w, 2, Signal),
        1024 => arg(w, 2, Enum(LOCK_TYPES, "F_???")),
        1026 => arg(w, 2, Flags(DN_FLAGS)),
        1033 => arg(w, 2, Flags(SEAL_FLAGS)),
        // F_SETOWN, F_SETPIPE_SZ
        8 | 1031 => arg(w, 2, Int),
        // F_GETFD, F_GETFL, F_GETOWN, F_GETSIG, F_GETLEASE, F_GETPIPE_SZ, F_GET_SEALS
        1 | 3 | 9 | 11 | 1025 | 1032 | 1034 => {}
        _ => arg(w, 2, Ptr),
    }
}

/// The fcntl commands whose third argument points to a struct: the lock
/// commands (`struct flock`) and F_SETOWN_EX/F_GETOWN_EX (`struct
/// f_owner_ex`).
const FCNTL_STRUCT_CMDS: &[u8] = &[5, 6, 7, 15, 16, 36, 37, 38];

/// fcntl's `struct flock` (`{l_type=F_WRLCK, l_whence=SEEK_SET, l_start=0,
/// l_len=0}`, with `l_pid` for the GETLK commands) or `struct f_owner_ex`
/// (`{type=F_OWNER_PID, pid=42}`); the address if it cannot be read.
fn fcntl_struct(w: &mut ArgWriter<'_>, out: bool) {
    let v = w.call.args[2];
    let cmd = w.call.args[1] as u32;
    let x = w.opts.xlat;
    let need = if matches!(cmd, 15 | 16) { 8 } else { 32 };
    // (a copy that faulted past the struct's end serves)
    let cap = if out {
        w.call.exit_prefix(2, need)
    } else {
        w.call.enter_prefix(2, need)
    };
    let d: Option<Vec<u8>> = match cap.filter(|c| c.data.len() >= need) {
        Some(c) => Some(c.data.clone()),
        // a struct at the very end of a page: the 32-byte copy faulted
        None if v != 0 => w.env.read_mem.and_then(|read| read(v, need)),
        None => None,
    };
    let Some(d) = d.filter(|d| d.len() >= need) else {
        if v != 0 {
            w.env.unreadable.set(w.env.unreadable.get() + 1);
        }
        return fmt::ptr(&mut w.s, v);
    };
    let s = &mut w.s;
    if need == 8 {
        s.push_str("{type=");
        fmt::enumv(
            s,
            le_u32(&d, 0) as u64,
            F_OWNER_TYPES,
            "F_OWNER_???",
            x,
            true,
        );
        let _ = write!(s, ", pid={}}}", le_u32(&d, 4) as i32);
        return;
    }
    let short = |k: usize| u16::from_le_bytes([d[k], d[k + 1]]) as u64;
    s.push_str("{l_type=");
    fmt::enumv(s, short(0), LOCK_TYPES, "F_???", x, true);
    s.push_str(", l_whence=");
    fmt::enumv(s, short(2), c::SEEK_WHENCE, "SEEK_???", x, true);
    let _ = write!(s, ", l_start={}, l_len={}", le_i64(&d, 8), le_i64(&d, 16));
    if out && matches!(cmd, 5 | 36) {
        let _ = write!(s, ", l_pid={}", le_u32(&d, 24) as i32);
    }
    s.push('}');
}

/// `struct flock`'s `l_type` (strace's `lockfcmds`).
static LOCK_TYPES: &[(u64, &str)] = &[
    (0, "F_RDLCK"),
    (1, "F_WRLCK"),
    (2, "F_UNLCK"),
    (4, "F_EXLCK"),
    (8, "F_SHLCK"),
];

/// F_NOTIFY's events.
static DN_FLAGS: &[(u64, &str)] = &[
    (0x1, "DN_ACCESS"),
    (0x2, "DN_MODIFY"),
    (0x4, "DN_CREATE"),
    (0x8, "DN_DELETE"),
    (0x10, "DN_RENAME"),
    (0x20, "DN_ATTRIB"),
    (0x8000_0000, "DN_MULTISHOT"),
];

/// F_ADD_SEALS / F_GET_SEALS seals (as strace 6.1 knows them).
static SEAL_FLAGS: &[(u64, &str)] = &[
    (0x1, "F_SEAL_SEAL"),
    (0x2, "F_SEAL_SHRINK"),
    (0x4, "F_SEAL_GROW"),
    (0x8, "F_SEAL_WRITE"),
    (0x10, "F_SEAL_FUTURE_WRITE"),
];

/// `struct f_owner_ex`'s `type`.
static F_OWNER_TYPES: &[(u64, &str)] =
    &[(0, "F_OWNER_TID"), (1, "F_OWNER_PID"), (2, "F_OWNER_PGRP")];

/// An ioctl request as strace prints it: its name (the common ones, then
/// the DRM ioctls, several names joined with ` or `), else its fields,
/// `_IOC(_IOC_READ|_IOC_WRITE, 0x64, 0xbf, 0xc)`; -X raw: the number;
/// -X verbose: the number with the name in a comment.
pub fn ioctl_request(out: &mut String, req: u64, x: Xlat) {
    if x == Xlat::Raw {
        fmt::hex(out, req);
        return;
    }
    // the mixer's number is named first, then what else has the code
    let mixer = ioctl::mixer_name(req);
    let special = if mixer.is_some() {
        None
    } else {
        ioctl::special_name(req, x)
    };
    let mut name = special.or_else(|| {
        c::IOCTL_CMDS
            .iter()
            .find(|(k, _)| *k == req)
            .map(|(_, n)| n.to_string())
    });
    if name.is_none() {
        // the kernel's and libdrm's headers: every name of the code, in
        // order, as strace joins them
        let mut names: Vec<&str> = crate::linux_ioctls::LINUX_IOCTLS
            .iter()
            .chain(crate::drm_ioctls::DRM_IOCTLS)
            .chain(ioctl::OLD_STYLE)
            .chain(ioctl::INDIRECT)
            .chain(crate::ioctl_extra_names::EXTRA_IOCTLS)
            .filter(|(k, _)| *k == req)
            .map(|(_, n)| *n)
            .collect();
        names.sort_unstable();
        names.dedup();
        if let Some(m) = &mixer {
            names.insert(0, m);
        }
        if !names.is_empty() {
            name = Some(names.join(" or "));
        }
    }
    let name = name.unwrap_or_else(|| {
        let dir = match req >> 30 {
            0 => "_IOC_NONE",
            1 => "_IOC_WRITE",
            2 => "_IOC_READ",
            _ => "_IOC_READ|_IOC_WRITE",
        };
        let hexz = |v: u64| {
            if v == 0 {
                "0".to_string()
            } else {
                format!("{v:#x}")
            }
        };
        format!(
            "_IOC({dir}, {}, {}, {})",
            hexz((req >> 8) & 0xff),
            hexz(req & 0xff),
            hexz((req >> 16) & 0x3fff)
        )
    });
    if x == Xlat::Verbose {
        fmt::hex(out, req);
        let _ = write!(out, " /* {name} */");
    } else {
        out.push_str(&name);
    }
}

#[path = "ioctl.rs"]
mod ioctl;

#[path = "sched.rs"]
mod sched;

#[path = "sockaddr.rs"]
mod sockaddr;

#[path = "msghdr.rs"]
mod msghdr;

#[path = "ipc.rs"]
mod ipc;

#[path = "misc.rs"]
mod misc;

#[path = "ptrace.rs"]
mod ptrace;

#[path = "quota.rs"]
mod quota;

#[path = "bpf.rs"]
mod bpf;

#[path = "sockopt.rs"]
mod sockopt;

#[path = "sock_xlat.rs"]
mod sock_xlat;

#[path = "netlink.rs"]
mod netlink;
#[path = "personality.rs"]
mod personality;

#[path = "io_uring.rs"]
mod io_uring;

#[path = "keyctl.rs"]
mod keyctl;

#[path = "perf.rs"]
mod perf;

#[path = "ldt.rs"]
mod ldt;

#[path = "mmsg.rs"]
mod mmsg;

#[path = "prctl_seccomp.rs"]
mod prctl_seccomp;

#[path = "aio.rs"]
mod aio;

#[path = "second_level.rs"]
mod second_level;

#[path = "ioctl_ptr_args.rs"]
mod ioctl_ptr_args;
#[path = "strpath.rs"]
mod strpath;

/// Calls decoded in their own modules: each family answers for its own.
fn family_decoder(name: &str) -> Option<Decoder> {
    misc::decoder(name)
        .or_else(|| ipc::decoder(name))
        .or_else(|| ptrace::decoder(name))
        .or_else(|| quota::decoder(name))
        .or_else(|| bpf::decoder(name))
        .or_else(|| netlink::decoder(name))
        .or_else(|| personality::decoder(name))
        .or_else(|| io_uring::decoder(name))
        .or_else(|| keyctl::decoder(name))
        .or_else(|| perf::decoder(name))
        .or_else(|| ldt::decoder(name))
        .or_else(|| mmsg::decoder(name))
        .or_else(|| aio::decoder(name))
}

fn family_custom_types(name: &str) -> &'static [Ty] {
    misc::custom_types(name)
        .or_else(|| ipc::custom_types(name))
        .or_else(|| ptrace::custom_types(name))
        .or_else(|| quota::custom_types(name))
        .or_else(|| bpf::custom_types(name))
        .or_else(|| netlink::custom_types(name))
        .or_else(|| personality::custom_types(name))
        .or_else(|| io_uring::custom_types(name))
        .or_else(|| keyctl::custom_types(name))
        .or_else(|| perf::custom_types(name))
        .or_else(|| ldt::custom_types(name))
        .or_else(|| mmsg::custom_types(name))
        .or_else(|| aio::custom_types(name))
        .unwrap_or(&[])
}

fn family_plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    misc::plan(name, o, out);
    ipc::plan(name, o, out);
    msghdr::plan(name, o, out);
    ptrace::plan(name, o, out);
    quota::plan(name, o, out);
    bpf::plan(name, o, out);
    netlink::plan(name, o, out);
    personality::plan(name, o, out);
    io_uring::plan(name, o, out);
    keyctl::plan(name, o, out);
    perf::plan(name, o, out);
    ldt::plan(name, o, out);
    mmsg::plan(name, o, out);
}

fn family_return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    misc::return_text(s, name, call, x)
        || ipc::return_text(s, name, call, x)
        || ptrace::return_text(s, name, call, x)
        || quota::return_text(s, name, call, x)
        || bpf::return_text(s, name, call, x)
        || personality::return_text(s, name, call, x)
        || io_uring::return_text(s, name, call, x)
        || keyctl::return_text(s, name, call, x)
        || perf::return_text(s, name, call, x)
        || ldt::return_text(s, name, call, x)
        || mmsg::return_text(s, name, call, x)
        || (name == "ioctl" && ioctl::return_text(s, call))
}

fn dec_ioctl(w: &mut ArgWriter<'_>) {
    arg(w, 0, Fd);
    w.sep();
    let req = w.call.args[1] as u32 as u64;
    let x = w.opts.xlat;
    ioctl_request(&mut w.s, req, x);
    if ioctl::decode(w, req as u32) {
        return;
    }
    let v = w.call.args[2];
    let failed = w.call.ret().is_some_and(|r| r < 0);
    // what the kernel reads (set) or writes (get), and how it looks
    enum Io {
        In,
        Out,
    }
    let (io, shape): (Io, Shape) = match req {
        0x5413 => (Io::Out, winsize), // TIOCGWINSZ
        0x5414 => (Io::In, winsize),  // TIOCSWINSZ
        0x540F | 0x541B | 0x80045430 => (Io::Out, int_in_brackets), // TIOCGPGRP, FIONREAD, TIOCGPTN
        0x5410 | 0x5421 | 0x5452 | 0x40045431 => (Io::In, int_in_brackets), // TIOCSPGRP, FIONBIO, FIOASYNC, TIOCSPTLCK
        // TCXONC's and TCFLSH's named values (strace's tcxonc_options and
        // tcflsh_options)
        0x540A | 0x540B => {
            let table: &[(u64, &str)] = if req == 0x540A {
                &[(0, "TCOOFF"), (1, "TCOON"), (2, "TCIOFF"), (3, "TCION")]
            } else {
                &[(0, "TCIFLUSH"), (1, "TCOFLUSH"), (2, "TCIOFLUSH")]
            };
            w.sep();
            fmt::enumv(&mut w.s, v, table, "TC???", w.opts.xlat, true);
            return;
        }
        // int arguments, not pointers
        0x5409 | 0x540E | 0x5425 | 0x5427 | 0x40049409 => {
            arg(w, 2, Int);
            return;
        }
        // no argument
        0x5450 | 0x5451 | 0x5422 => return, // FIONCLEX, FIOCLEX, TIOCNOTTY
        // a request strace decodes (its common ones): a pointer, NULL for 0
        _ if c::IOCTL_CMDS.iter().any(|(k, _)| *k == req)
            || ioctl_ptr_args::takes_pointer(req as u32) =>
        {
            arg(w, 2, Ptr);
            return;
        }
        // a request it only names (DRM), or does not know: a number, 0 for 0
        _ => {
            w.sep();
            fmt::hex(&mut w.s, v);
            return;
        }
    };
    match io {
        Io::In => {
            w.sep();
            match w.call.enter_cap(2) {
                Some(c) => shape(&mut w.s, &c.data, x),
                None => fmt::ptr(&mut w.s, v),
            }
        }
        Io::Out => {
            if !w.exiting() {
                return;
            }
            w.sep();
            match w.call.exit_cap(2) {
                Some(c) if !failed => shape(&mut w.s, &c.data, x),
                _ => fmt::ptr(&mut w.s, v),
            }
        }
    }
}

/// Prints a struct the kernel copied in or out.
type Shape = fn(&mut String, &[u8], Xlat);

fn int_in_brackets(s: &mut String, d: &[u8], _: Xlat) {
    if d.len() >= 4 {
        let _ = write!(s, "[{}]", le_u32(d, 0) as i32);
    }
}

fn winsize(s: &mut String, d: &[u8], _: Xlat) {
    if d.len() >= 8 {
        let h = |k: usize| u16::from_le_bytes([d[k], d[k + 1]]);
        let _ = write!(
            s,
            "{{ws_row={}, ws_col={}, ws_xpixel={}, ws_ypixel={}}}",
            h(0),
            h(2),
            h(4),
            h(6)
        );
    }
}

fn dec_clone(w: &mut ArgWriter<'_>) {
    // x86_64: clone(flags, stack, parent_tid, child_tid, tls)
    let a = w.call.args;
    let x = w.opts.xlat;
    w.sep();
    let _ = write!(w.s, "child_stack=");
    fmt::ptr(&mut w.s, a[1]);
    w.s.push_str(", flags=");
    let flags = a[0];
    let sig = (flags & 0xff) as i32;
    let rest = flags & !0xff;
    let mut t = String::new();
    if rest != 0 {
        fmt::flags(&mut t, rest, c::CLONE_FLAGS, None, x);
    }
    if sig != 0 {
        if !t.is_empty() {
            t.push('|');
        }
        t.push_str(&c::signal_name(sig));
    }
    if t.is_empty() {
        t.push('0');
    }
    w.s.push_str(&t);
    if flags & 0x00100000 != 0 || flags & 0x00200000 != 0 || flags & 0x01000000 != 0 {
        // CLONE_PARENT_SETTID / CLONE_CHILD_CLEARTID / CLONE_CHILD_SETTID
        let _ = write!(w.s, ", child_tidptr=");
        fmt::ptr(&mut w.s, a[3]);
    }
    if flags & 0x00080000 != 0 {
        let _ = write!(w.s, ", tls=");
        fmt::ptr(&mut w.s, a[4]);
    }
}

/// A time as strace comments it: `2023-11-14T22:13:20.000000123+0000`.
/// (strace uses the local zone; genba prints UTC, which is the zone here.)
/// strace's date comment for a time: none for zero, a fraction above
/// `max`, or a year a struct tm cannot hold.
fn date_comment(sec: i64, part: u64, max: u64, width: usize) -> Option<String> {
    let year = sec.div_euclid(31_556_952) + 1970;
    if (sec == 0 && part == 0)
        || part > max
        || !(i32::MIN as i64 + 1900..=i32::MAX as i64).contains(&year)
    {
        return None;
    }
    let mut d = utc_date(sec, 0);
    if part > 0 {
        let _ = d.split_off(d.len() - "+0000".len());
        let _ = write!(d, ".{part:0width$}+0000");
    }
    Some(d)
}

fn utc_date(sec: i64, nsec: i64) -> String {
    let rem = sec.rem_euclid(86400);
    let (y, m, d) = fmt::civil(sec.div_euclid(86400));
    let frac = if nsec != 0 {
        format!(".{nsec:09}")
    } else {
        String::new()
    };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}{frac}+0000",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// An fd_set's members below `nfds`: `[3 4]`.
/// select's descriptor count as strace takes it: an int, none when
/// negative, at most 1024 * 1024.
fn select_nfds(a: u64) -> i64 {
    (a as u32 as i32).clamp(0, 1024 * 1024) as i64
}

/// The bytes of an fd_set of `nfds` descriptors strace reads: whole longs.
fn fdset_bytes(nfds: i64) -> usize {
    (((nfds as usize).div_ceil(8)) + 7) & !7
}

fn fd_set(s: &mut String, d: &[u8], nfds: i64) {
    s.push('[');
    let mut first = true;
    for fd in 0..nfds.clamp(0, (d.len() * 8) as i64) as usize {
        if d[fd / 8] & (1 << (fd % 8)) != 0 {
            if !first {
                s.push(' ');
            }
            first = false;
            let _ = write!(s, "{fd}");
        }
    }
    s.push(']');
}

/// io_uring features strace 6.1 names (later bits print in hex, as there).
pub(super) static IORING_FEATURES: &[(u64, &str)] = &[
    (1, "IORING_FEAT_SINGLE_MMAP"),
    (2, "IORING_FEAT_NODROP"),
    (4, "IORING_FEAT_SUBMIT_STABLE"),
    (8, "IORING_FEAT_RW_CUR_POS"),
    (16, "IORING_FEAT_CUR_PERSONALITY"),
    (32, "IORING_FEAT_FAST_POLL"),
    (64, "IORING_FEAT_POLL_32BITS"),
    (128, "IORING_FEAT_SQPOLL_NONFIXED"),
    (256, "IORING_FEAT_EXT_ARG"),
    (512, "IORING_FEAT_NATIVE_WORKERS"),
    (1024, "IORING_FEAT_RSRC_TAGS"),
    (2048, "IORING_FEAT_CQE_SKIP"),
    (4096, "IORING_FEAT_LINKED_FILE"),
];

fn io_uring_params(s: &mut String, d: &[u8], x: Xlat) {
    let u = |k: usize| le_u32(d, k);
    s.push_str("{flags=");
    fmt::flags(s, u(8) as u64, c::IO_URING_SETUP_FLAGS, None, x);
    let _ = write!(
        s,
        ", sq_thread_cpu={}, sq_thread_idle={}, sq_entries={}, cq_entries={}, features=",
        u(12),
        u(16),
        u(0),
        u(4)
    );
    fmt::flags(s, u(20) as u64, IORING_FEATURES, None, x);
    let _ = write!(
        s,
        ", sq_off={{head={}, tail={}, ring_mask={}, ring_entries={}, flags={}, dropped={}, array={}}}",
        u(40),
        u(44),
        u(48),
        u(52),
        u(56),
        u(60),
        u(64)
    );
    let _ = write!(
        s,
        ", cq_off={{head={}, tail={}, ring_mask={}, ring_entries={}, overflow={}, cqes={}, flags={}}}}}",
        u(80),
        u(84),
        u(88),
        u(92),
        u(96),
        u(100),
        u(104)
    );
}

/// `struct linux_dirent64` records, in full (`-v`).
/// The entries of a getdents buffer (`-v`); `cut`: the buffer was not all
/// captured, so `...` follows the last whole entry.
fn dirents(s: &mut String, d: &[u8], cut: bool, hex: fmt::HexStr) {
    const DT: [&str; 15] = [
        "DT_UNKNOWN",
        "DT_FIFO",
        "DT_CHR",
        "",
        "DT_DIR",
        "",
        "DT_BLK",
        "",
        "DT_REG",
        "",
        "DT_LNK",
        "",
        "DT_SOCK",
        "",
        "DT_WHT",
    ];
    s.push('[');
    let mut off = 0usize;
    let mut first = true;
    while off + 19 <= d.len() {
        let reclen = u16::from_le_bytes([d[off + 16], d[off + 17]]) as usize;
        if reclen == 0 || off + reclen > d.len() {
            break;
        }
        if !first {
            s.push_str(", ");
        }
        first = false;
        let ty = d[off + 18] as usize;
        let name = &d[off + 19..off + reclen];
        let n = name.iter().position(|&b| b == 0).unwrap_or(name.len());
        let _ = write!(
            s,
            "{{d_ino={}, d_off={}, d_reclen={reclen}, d_type=",
            le_u64(d, off),
            le_u64(d, off + 8)
        );
        match DT.get(ty).filter(|t| !t.is_empty()) {
            Some(t) => s.push_str(t),
            None => {
                let _ = write!(s, "{ty:#x} /* DT_??? */");
            }
        }
        s.push_str(", d_name=");
        fmt::quoted(s, &name[..n], false, hex);
        s.push('}');
        off += reclen;
    }
    if cut {
        s.push_str(if first { "..." } else { ", ..." });
    }
    s.push(']');
}

/// getdents' (not getdents64's) records, as strace shows them with -v:
/// `struct linux_dirent` has the name right after d_reclen and the type in
/// the record's last byte.
fn old_dirents(s: &mut String, d: &[u8], cut: bool, hex: fmt::HexStr) {
    s.push('[');
    let mut off = 0usize;
    let mut first = true;
    while off + 18 <= d.len() {
        let reclen = u16::from_le_bytes([d[off + 16], d[off + 17]]) as usize;
        if reclen == 0 || off + reclen > d.len() {
            break;
        }
        if !first {
            s.push_str(", ");
        }
        first = false;
        let _ = write!(
            s,
            "{{d_ino={}, d_off={}, d_reclen={reclen}",
            le_u64(d, off),
            le_u64(d, off + 8)
        );
        // the name and the type byte after the header
        let tail = reclen.saturating_sub(18);
        if tail > 0 {
            let name_len = (tail - 1).min(256);
            if name_len > 0 {
                // up to name_len - 1 characters; `...` when no NUL ends them
                let area = &d[off + 18..off + 18 + name_len];
                s.push_str(", d_name=");
                match area.iter().position(|&b| b == 0) {
                    Some(n) => fmt::quoted(s, &area[..n], false, hex),
                    None => fmt::quoted(s, &area[..name_len - 1], true, hex),
                }
            }
            s.push_str(", d_type=");
            let ty = d[off + 18 + tail - 1] as u64;
            fmt::enumv(s, ty, DIRENT_TYPES, "DT_???", fmt::Xlat::Abbrev, true);
        }
        s.push('}');
        off += reclen;
    }
    if cut {
        s.push_str(if first { "..." } else { ", ..." });
    }
    s.push(']');
}

/// strace's dirent_types.
const DIRENT_TYPES: &[(u64, &str)] = &[
    (0, "DT_UNKNOWN"),
    (1, "DT_FIFO"),
    (2, "DT_CHR"),
    (4, "DT_DIR"),
    (6, "DT_BLK"),
    (8, "DT_REG"),
    (10, "DT_LNK"),
    (12, "DT_SOCK"),
    (14, "DT_WHT"),
];

/// A getdents buffer as captured: its bytes (all of them, or as many as the
/// record held) and the number of entries (strace's `/* N entries */`,
/// `N+` when bytes were left over that make no whole entry).
struct Dents {
    data: Vec<u8>,
    whole: bool,
    count: u64,
    partial: bool,
}

impl Dents {
    fn of(call: CallView<'_>, i: usize) -> Option<Dents> {
        let (ret, caps) = call.exit?;
        let ret = usize::try_from(ret).ok()?;
        let caps: Vec<&Capture> = caps.iter().filter(|c| c.arg as usize == i).collect();
        let count = caps.iter().find(|c| c.item == CaptureItem::Count)?;
        let mut chunks: Vec<&&Capture> = caps
            .iter()
            .filter(|c| c.item == CaptureItem::Elem)
            .collect();
        chunks.sort_by_key(|c| c.elem);
        let mut data = Vec::new();
        for c in chunks {
            if c.fault || c.aux != data.len() as u64 {
                break;
            }
            data.extend_from_slice(&c.data);
        }
        data.truncate(ret);
        let whole = data.len() == ret;
        let (count, partial) = if whole {
            let (n, left) = count_dirents(&data);
            (n as u64, left)
        } else {
            // BPF walked the entries the record could not hold
            (count.aux, count.more)
        };
        Some(Dents {
            data,
            whole,
            count,
            partial,
        })
    }
}

/// Number of `struct linux_dirent64` records in a getdents buffer, and
/// whether bytes are left that make no whole record.
fn count_dirents(d: &[u8]) -> (usize, bool) {
    let mut n = 0;
    let mut off = 0usize;
    while off + 19 <= d.len() {
        let reclen = u16::from_le_bytes([d[off + 16], d[off + 17]]) as usize;
        if reclen < 19 {
            return (n, true);
        }
        n += 1;
        off += reclen;
    }
    (n, off < d.len())
}

fn dec_mremap(w: &mut ArgWriter<'_>) {
    arg(w, 0, Ptr);
    arg(w, 1, Ulong);
    arg(w, 2, Ulong);
    arg(w, 3, Flags64(c::MREMAP_FLAGS));
    // the new address means something only with MREMAP_FIXED
    if w.call.args[3] & 2 != 0 {
        arg(w, 4, Ptr);
    }
}

/// clone3's flags: clone's table, then those only clone3 takes.
static CLONE3_ALL_FLAGS: std::sync::LazyLock<Vec<(u64, &'static str)>> =
    std::sync::LazyLock::new(|| {
        c::CLONE_FLAGS
            .iter()
            .chain(c::CLONE3_FLAGS)
            .copied()
            .collect()
    });

/// The sizes of `struct clone_args`: the first version (up to tls) and the
/// largest strace 6.1 knows (up to cgroup).
const CLONE_ARGS_MIN: usize = 64;
const CLONE_ARGS_MAX: usize = 88;

/// The `int` the kernel wrote at `addr`, copied at exit in slot `slot`
/// (`[N]`), else the address.
fn int_at(w: &ArgWriter<'_>, slot: usize, addr: u64) -> String {
    let mut t = String::new();
    match w.call.exit_cap(slot).filter(|c| c.data.len() >= 4) {
        Some(c) if addr != 0 => {
            let _ = write!(t, "[{}]", le_u32(&c.data, 0) as i32);
        }
        _ => fmt::ptr(&mut t, addr),
    }
    t
}

/// clone3(args, size): `struct clone_args` of the size given, what follows
/// the part strace knows, and at exit what the kernel wrote back.
fn dec_clone3(w: &mut ArgWriter<'_>) {
    let (addr, size) = (w.call.args[0], w.call.args[1]);
    let x = w.opts.xlat;
    let fetch = (size as usize).min(CLONE_ARGS_MAX);
    let end = size.min(4096) as usize;
    w.sep();
    let head = w.call.enter_cap(5).map(|c| c.data.as_slice());
    let entered = match head.filter(|d| fetch >= CLONE_ARGS_MIN && d.len() >= fetch) {
        None => {
            fmt::ptr(&mut w.s, addr);
            None
        }
        Some(d) => {
            let mut a = [0u8; CLONE_ARGS_MAX];
            a[..fetch].copy_from_slice(&d[..fetch]);
            let f = |k: usize| le_u64(&a, k * 8);
            let flags = f(0);
            let mut t = String::from("{flags=");
            fmt::flags_hinted(&mut t, flags, &CLONE3_ALL_FLAGS, x);
            let addr_field = |t: &mut String, name: &str, v: u64| {
                let _ = write!(t, ", {name}=");
                fmt::ptr(t, v);
            };
            if flags & 0x1000 != 0 {
                addr_field(&mut t, "pidfd", f(1));
            }
            if flags & (0x0100_0000 | 0x0020_0000) != 0 {
                addr_field(&mut t, "child_tid", f(2));
            }
            if flags & 0x0010_0000 != 0 {
                addr_field(&mut t, "parent_tid", f(3));
            }
            let sig = f(4);
            if sig < i32::MAX as u64 {
                t.push_str(", exit_signal=");
                signal(&mut t, sig as i32, x);
            } else {
                let _ = write!(t, ", exit_signal={sig}");
            }
            addr_field(&mut t, "stack", f(5));
            t.push_str(", stack_size=");
            fmt::hex(&mut t, f(6));
            if flags & 0x0008_0000 != 0 {
                addr_field(&mut t, "tls", f(7));
            }
            let (set_tid, n) = (f(8), f(9));
            if set_tid != 0 || n != 0 {
                let ints = w
                    .call
                    .enter_cap(1)
                    .map(|c| c.data.as_slice())
                    .filter(|d| set_tid != 0 && n != 0 && n <= 32 && d.len() == 4 * n as usize);
                t.push_str(", set_tid=");
                match ints {
                    Some(d) => {
                        t.push('[');
                        for k in 0..n as usize {
                            if k > 0 {
                                t.push_str(", ");
                            }
                            let _ = write!(t, "{}", le_u32(d, 4 * k) as i32);
                        }
                        t.push(']');
                    }
                    None => fmt::ptr(&mut t, set_tid),
                }
                let _ = write!(t, ", set_tid_size={n}");
            }
            if fetch > 80 && (f(10) != 0 || flags & 0x2_0000_0000 != 0) {
                let _ = write!(t, ", cgroup={}", f(10));
            }
            if end > fetch {
                let whole = w.call.enter_cap(0).map(|c| c.data.as_slice());
                nonzero_tail(&mut t, whole, fetch, end, w.opts, ", ");
            }
            t.push('}');
            w.s.push_str(&t);
            Some(flags)
        }
    };
    if !w.exiting_inside() {
        return;
    }
    if entered.is_some() && w.call.ret().is_some_and(|r| r >= 0) {
        match w.call.exit_cap(5).map(|c| c.data.as_slice()) {
            Some(d) if d.len() >= fetch => {
                let flags = le_u64(d, 0);
                let mut items = Vec::new();
                if flags & 0x1000 != 0 {
                    items.push(format!("pidfd={}", int_at(w, 2, le_u64(d, 8))));
                }
                if flags & 0x0010_0000 != 0 {
                    let p = le_u64(d, 24);
                    let mut v = int_at(w, 3, p);
                    // the child's tid, which a thread that has exited since
                    // cleared (CLONE_CHILD_CLEARTID on the same word): what
                    // the call returned
                    if v == "[0]" {
                        if let Some(r) = w.call.ret().filter(|&r| r > 0 && p != 0) {
                            v = format!("[{r}]");
                        }
                    }
                    items.push(format!("parent_tid={v}"));
                }
                let mut t = String::new();
                if end > fetch {
                    let whole = w.call.exit_cap(0).map(|c| c.data.as_slice());
                    nonzero_tail(&mut t, whole, fetch, end, w.opts, "");
                }
                if !t.is_empty() {
                    items.push(t);
                }
                if !items.is_empty() {
                    let _ = write!(w.s, " => {{{}}}", items.join(", "));
                }
            }
            _ => {
                let _ = write!(w.s, " => ");
                fmt::ptr(&mut w.s, addr);
            }
        }
    }
    w.first = false;
    arg(w, 1, Ulong);
}

/// mlockall's flags.
const MCL_FLAGS: &[(u64, &str)] = &[(1, "MCL_CURRENT"), (2, "MCL_FUTURE"), (4, "MCL_ONFAULT")];

/// ARCH_GET_FS, ARCH_GET_GS: the kernel writes the base to the pointer.
const ARCH_GET_FS_GS: [u32; 2] = [0x1003, 0x1004];
/// ARCH_GET_XCOMP_SUPP, ARCH_GET_XCOMP_PERM; ARCH_GET_XCOMP_GUEST_PERM: the
/// kernel writes a mask of x86 state components to the pointer.
const ARCH_GET_XCOMP: [u32; 3] = [0x1021, 0x1022, 0x1024];

/// The x86 state components (arch/x86/include/asm/fpu/types.h), by bit.
const XFEATURE_BITS: &[(u64, &str)] = &[
    (0, "XFEATURE_FP"),
    (1, "XFEATURE_SSE"),
    (2, "XFEATURE_YMM"),
    (3, "XFEATURE_BNDREGS"),
    (4, "XFEATURE_BNDCSR"),
    (5, "XFEATURE_OPMASK"),
    (6, "XFEATURE_ZMM_Hi256"),
    (7, "XFEATURE_Hi16_ZMM"),
    (8, "XFEATURE_PT_UNIMPLEMENTED_SO_FAR"),
    (9, "XFEATURE_PKRU"),
    (10, "XFEATURE_PASID"),
    (15, "XFEATURE_LBR"),
    (17, "XFEATURE_XTILE_CFG"),
    (18, "XFEATURE_XTILE_DATA"),
];

/// Their masks, the groups first, as strace names a mask.
const XFEATURE_MASKS: &[(u64, &str)] = &[
    (0x3, "XFEATURE_MASK_FPSSE"),
    (1 << 0, "XFEATURE_MASK_FP"),
    (1 << 1, "XFEATURE_MASK_SSE"),
    (1 << 2, "XFEATURE_MASK_YMM"),
    (1 << 3, "XFEATURE_MASK_BNDREGS"),
    (1 << 4, "XFEATURE_MASK_BNDCSR"),
    (0xe0, "XFEATURE_MASK_AVX512"),
    (1 << 5, "XFEATURE_MASK_OPMASK"),
    (1 << 6, "XFEATURE_MASK_ZMM_Hi256"),
    (1 << 7, "XFEATURE_MASK_Hi16_ZMM"),
    (1 << 8, "XFEATURE_MASK_PT"),
    (1 << 9, "XFEATURE_MASK_PKRU"),
    (1 << 10, "XFEATURE_MASK_PASID"),
    (1 << 15, "XFEATURE_MASK_LBR"),
    (0x60000, "XFEATURE_MASK_XTILE"),
    (1 << 17, "XFEATURE_MASK_XTILE_CFG"),
    (1 << 18, "XFEATURE_MASK_XTILE_DATA"),
];

/// A mask of x86 state components as strace prints it in arch_prctl's
/// arguments: always the number with the names (`0x3 /* ... */`).
fn xfeature_mask(s: &mut String, v: u64, x: Xlat) {
    if x == Xlat::Raw || v == 0 {
        fmt::hex(s, v);
        return;
    }
    fmt::flags_hinted(s, v, XFEATURE_MASKS, Xlat::Verbose);
}

fn dec_arch_prctl(w: &mut ArgWriter<'_>) {
    arg(w, 0, Enum(c::ARCH_PRCTL_CODES, "ARCH_???"));
    let a = w.call.args;
    match a[0] as u32 {
        // the base written back, as strace: [0x...], or the address
        op if ARCH_GET_FS_GS.contains(&op) => {
            if !w.exiting() {
                return;
            }
            w.sep();
            let ok = w.call.ret().is_some_and(|r| r >= 0);
            match w.call.data(1).filter(|d| ok && d.len() >= 8) {
                Some(d) => {
                    w.s.push('[');
                    fmt::ptr(&mut w.s, le_u64(d, 0));
                    w.s.push(']');
                }
                None => fmt::ptr(&mut w.s, a[1]),
            }
        }
        // ARCH_GET_XCOMP_*: the mask written back, [0x3 /* ... */]
        op if ARCH_GET_XCOMP.contains(&op) => {
            if !w.exiting() {
                return;
            }
            w.sep();
            let ok = w.call.ret().is_some_and(|r| r >= 0);
            let slot = if op == ARCH_GET_XCOMP[2] { 3 } else { 2 };
            match w.call.data(slot).filter(|d| ok && d.len() >= 8) {
                Some(d) => {
                    w.s.push('[');
                    xfeature_mask(&mut w.s, le_u64(d, 0), w.opts.xlat);
                    w.s.push(']');
                }
                None => fmt::ptr(&mut w.s, a[1]),
            }
        }
        // ARCH_REQ_XCOMP_PERM, ARCH_REQ_XCOMP_GUEST_PERM: a component
        0x1023 | 0x1025 => {
            w.sep();
            let v = a[1];
            fmt::hex(&mut w.s, v);
            if w.opts.xlat != Xlat::Raw {
                let name = XFEATURE_BITS.iter().find(|(k, _)| *k == v).map(|(_, n)| *n);
                let _ = write!(w.s, " /* {} */", name.unwrap_or("XFEATURE_???"));
            }
        }
        // ARCH_GET_CPUID: no argument
        0x1011 => {}
        _ => arg(w, 1, Hex),
    }
}

/// `prctl` options whose second argument points to an `int` the call
/// fills (PR_GET_PDEATHSIG, PR_GET_UNALIGN, PR_GET_FPEMU, PR_GET_FPEXC,
/// PR_GET_ENDIAN, PR_GET_TSC, PR_GET_CHILD_SUBREAPER): slot 0 holds it.
/// And PR_GET_TID_ADDRESS (40), whose pointer the same slot holds.
const PRCTL_INT_OR_KPTR_OUT: &[u8] = &[2, 5, 9, 11, 19, 25, 37, 40];
/// Slot of the `int` of [`PRCTL_INT_OR_KPTR_OUT`] (prctl's option is never a pointer).
const PRCTL_SLOT_INT: usize = 0;
/// Slot of PR_GET_TID_ADDRESS's pointer: the int's, copying 8 bytes (an
/// int at the end of a page still serves: see prctl_out).
const PRCTL_SLOT_KPTR: usize = PRCTL_SLOT_INT;
/// Slot of PR_SET_SECCOMP's `struct sock_fprog` or program (see
/// prctl_seccomp.rs; arg 3 is never a pointer there).
const PRCTL_SLOT_FPROG: usize = 3;
/// Slot of the first 15 bytes of PR_SET_NAME's name, whatever they hold.
const PRCTL_SLOT_NAME15: usize = 2;
/// Slot of PR_SCHED_CORE_GET's cookie (the fifth argument's target).
const PRCTL_SLOT_COOKIE: usize = 5;

/// One value of a table (64-bit), unknown ones in hex with a hint.
fn xval(s: &mut String, v: u64, table: &[(u64, &str)], hint: &str, x: Xlat) {
    fmt::enumv(s, v, table, hint, x, true);
}

/// Flags as strace's printflags: `A|B|0x40`, `0`, and when no bit has a
/// name, the number with the `/* hint */` of what it should have been.
pub(super) fn flags_hint(s: &mut String, v: u64, table: &[(u64, &str)], hint: &str, x: Xlat) {
    fmt::flags_default(s, v, table, hint, x)
}

/// The names of the bits of a return value, as strace notes them after it
/// (`= 0x3 (SECBIT_NOROOT|SECBIT_NOROOT_LOCKED)`): nothing with -X raw or
/// when no bit has a name; a name for 0 when the table has one.
fn aux_flags(v: u64, table: &[(u64, &str)], x: Xlat) -> Option<String> {
    if x == Xlat::Raw {
        return None;
    }
    if v == 0 {
        return table
            .iter()
            .find(|(k, _)| *k == 0)
            .map(|(_, n)| n.to_string());
    }
    let (mut out, rest) = fmt::flag_names(v, table);
    if out.is_empty() {
        return None;
    }
    if rest != 0 {
        let _ = write!(out, "|{rest:#x}");
    }
    Some(out)
}

/// A vector length with its flags above bit 15 (PR_SVE_SET_VL, PR_SME_SET_VL):
/// `PR_SVE_VL_INHERIT|0x1f`; `aux` for the note after a return value (none
/// without flags or with -X raw).
fn vl_text(v: u64, table: &[(u64, &str)], aux: bool, x: Xlat) -> Option<String> {
    if x == Xlat::Raw {
        return (!aux).then(|| {
            let mut out = String::new();
            fmt::hex(&mut out, v);
            out
        });
    }
    let vl = v & 0xffff;
    let fl = v & !0xffff;
    if fl == 0 && aux {
        return None;
    }
    let mut names = String::new();
    if fl != 0 {
        fmt::flags(&mut names, fl, table, None, Xlat::Abbrev);
        names.push('|');
    }
    let mut out = String::new();
    if !aux && fl != 0 && x == Xlat::Verbose {
        fmt::hex(&mut out, v);
        out.push_str(" /* ");
        out.push_str(&names);
        fmt::hex(&mut out, vl);
        out.push_str(" */");
    } else {
        out.push_str(&names);
        fmt::hex(&mut out, vl);
    }
    Some(out)
}

/// PR_SET_TAGGED_ADDR_CTRL's argument (`rval`: as a note after the value
/// PR_GET_TAGGED_ADDR_CTRL returned): enable bit, MTE fault mode, tag mask.
fn tagged_addr_text(v: u64, rval: bool, x: Xlat) -> Option<String> {
    const TAG_SHIFT: u32 = 3;
    const TAG_MASK: u64 = 0xffff << TAG_SHIFT;
    let mut out = String::new();
    if !rval && x != Xlat::Abbrev {
        fmt::hex(&mut out, v);
    }
    if x == Xlat::Raw {
        return (!rval).then_some(out);
    }
    if !rval && x == Xlat::Verbose {
        out.push_str(" /* ");
    }
    let enabled = v & 1;
    let tcf = v & 6;
    let tag = v & TAG_MASK;
    let rest = v & !(1 | 6 | TAG_MASK);
    let name =
        |t: &[(u64, &'static str)], k: u64| t.iter().find(|(n, _)| *n == k).map_or("", |(_, n)| *n);
    out.push_str(name(c::PR_TAGGED_ADDR_ENABLE, enabled));
    out.push('|');
    out.push_str(name(c::PR_MTE_TCF, tcf));
    if tag != 0 {
        let _ = write!(out, "|{:#x}<<PR_MTE_TAG_SHIFT", tag >> TAG_SHIFT);
    }
    if rest != 0 {
        let _ = write!(out, "|{rest:#x}");
    }
    if !rval && x == Xlat::Verbose {
        out.push_str(" */");
    }
    Some(out)
}

/// A process id argument (strace's printpid without pid namespaces).
fn pid_arg(w: &mut ArgWriter<'_>, i: usize) {
    w.sep();
    let _ = write!(w.s, "{}", w.call.args[i] as u32 as i32);
}

/// Arguments `first..5` in hex, as strace prints prctl's unused ones.
fn prctl_rest(w: &mut ArgWriter<'_>, first: usize) {
    for i in first..5 {
        arg(w, i, Hex);
    }
}

/// An argument printed with `f` (value, -X style).
fn arg_with(w: &mut ArgWriter<'_>, i: usize, f: impl FnOnce(&mut String, u64, Xlat)) {
    w.sep();
    let v = w.call.args[i];
    let x = w.opts.xlat;
    f(&mut w.s, v, x);
}

/// The exit part of an option whose second argument points to what the
/// call fills: `[...]` from slot `slot` when it succeeded and the memory
/// could be read, the address otherwise.
fn prctl_out(
    w: &mut ArgWriter<'_>,
    slot: usize,
    len: usize,
    f: impl FnOnce(&mut String, &[u8], Xlat),
) {
    if !w.exiting() {
        return;
    }
    w.sep();
    let x = w.opts.xlat;
    let ok = w.call.ret().is_some_and(|r| r >= 0);
    match w.call.exit_prefix(slot, len).filter(|_| ok) {
        Some(c) => {
            w.s.push('[');
            f(&mut w.s, &c.data, x);
            w.s.push(']');
        }
        None => fmt::ptr(&mut w.s, w.call.args[1]),
    }
}

/// PR_SET_NAME's name: at most 15 bytes (`"..."...` when no NUL ends them
/// there), the address when fewer could be read.
fn prctl_set_name(w: &mut ArgWriter<'_>) {
    const MAX: usize = 15;
    w.sep();
    let v = w.call.args[1];
    let hex = w.opts.hex;
    let call = w.call;
    // the string (it stops at a NUL), else the 15 bytes of the second view
    // (a name without a NUL in them, running up to unreadable memory)
    let bytes: Option<Vec<u8>> = match (call.cap(1), call.data(PRCTL_SLOT_NAME15)) {
        _ if v == 0 => None,
        (Some(c), _) if !c.fault => Some(c.data.clone()),
        (_, Some(d)) if d.len() >= MAX => Some(d.to_vec()),
        _ => w.env.read_mem.and_then(|read| read(v, MAX)),
    };
    match bytes {
        Some(d) => {
            let n = d.iter().position(|&b| b == 0).unwrap_or(d.len());
            if n < MAX || d.len() >= MAX {
                fmt::quoted(&mut w.s, &d[..n.min(MAX)], n >= MAX, hex);
            } else {
                fmt::ptr(&mut w.s, v);
            }
        }
        None => fmt::ptr(&mut w.s, v),
    }
}

fn dec_prctl(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let option = a[0] as u32;
    arg_with(w, 0, |s, _, x| {
        fmt::enumv(s, option as u64, c::PRCTL_OPTIONS, "PR_???", x, true)
    });
    match option {
        // PR_GET_DUMPABLE, PR_GET_KEEPCAPS, PR_GET_TIMING, PR_GET_SECCOMP,
        // PR_GET_SECUREBITS, PR_GET_TIMERSLACK, PR_TASK_PERF_EVENTS_*,
        // PR_GET_FP_MODE, PR_SVE_GET_VL, PR_SME_GET_VL: nothing to show
        3 | 7 | 13 | 21 | 27 | 30 | 31 | 32 | 46 | 51 | 64 => {}
        // PR_GET_PDEATHSIG
        2 => prctl_out(w, PRCTL_SLOT_INT, 4, |s, d, x| {
            signal(s, le_u32(d, 0) as i32, x)
        }),
        // PR_GET_UNALIGN
        5 => prctl_out(w, PRCTL_SLOT_INT, 4, |s, d, x| {
            flags_hint(
                s,
                le_u32(d, 0) as u64,
                c::PR_UNALIGN_FLAGS,
                "PR_UNALIGN_???",
                x,
            )
        }),
        // PR_GET_TSC
        25 => prctl_out(w, PRCTL_SLOT_INT, 4, |s, d, x| {
            xval(s, le_u32(d, 0) as u64, c::PR_TSC, "PR_TSC_???", x)
        }),
        // PR_GET_FPEMU, PR_GET_FPEXC, PR_GET_ENDIAN, PR_GET_CHILD_SUBREAPER
        9 | 11 | 19 | 37 => prctl_out(w, PRCTL_SLOT_INT, 4, |s, d, _| {
            let _ = write!(s, "{}", le_u32(d, 0));
        }),
        // PR_GET_TID_ADDRESS
        40 => prctl_out(w, PRCTL_SLOT_KPTR, 8, |s, d, _| fmt::ptr(s, le_u64(d, 0))),
        // PR_GET_NAME
        16 => {
            if !w.exiting() {
                return;
            }
            w.sep();
            match w
                .call
                .exit_cap(1)
                .filter(|_| w.call.ret().is_some_and(|r| r >= 0))
            {
                Some(c) => {
                    let n = c.data.iter().position(|&b| b == 0).unwrap_or(c.data.len());
                    fmt::quoted(&mut w.s, &c.data[..n], false, w.opts.hex);
                }
                None => fmt::ptr(&mut w.s, a[1]),
            }
        }
        // PR_SET_NAME
        15 => prctl_set_name(w),
        // PR_SVE_SET_VL, PR_SME_SET_VL
        50 | 63 => {
            let t = if option == 50 {
                c::PR_SVE_VL_FLAGS
            } else {
                c::PR_SME_VL_FLAGS
            };
            arg_with(w, 1, |s, v, x| {
                s.push_str(&vl_text(v, t, false, x).unwrap_or_default())
            });
        }
        // PR_GET_SPECULATION_CTRL
        52 => arg_with(w, 1, |s, v, x| {
            xval(s, v, c::PR_SPEC_CMDS, "PR_SPEC_???", x)
        }),
        // PR_SET_TAGGED_ADDR_CTRL
        55 => {
            arg_with(w, 1, |s, v, x| {
                s.push_str(&tagged_addr_text(v, false, x).unwrap_or_default())
            });
            prctl_rest(w, 2);
        }
        // PR_SET_CHILD_SUBREAPER, PR_SET_ENDIAN, PR_SET_FPEMU, PR_SET_FPEXC,
        // PR_SET_KEEPCAPS, PR_SET_TIMING
        36 | 20 | 10 | 12 | 8 | 14 => arg(w, 1, Ulong),
        // PR_SET_DUMPABLE
        4 => arg_with(w, 1, |s, v, x| {
            xval(s, v, c::PR_DUMPABLE, "SUID_DUMP_???", x)
        }),
        // PR_CAPBSET_READ, PR_CAPBSET_DROP
        23 | 24 => arg_with(w, 1, |s, v, x| xval(s, v, CAPABILITIES, "CAP_???", x)),
        // PR_CAP_AMBIENT
        47 => {
            arg_with(w, 1, |s, v, x| {
                xval(s, v, c::PR_CAP_AMBIENT, "PR_CAP_AMBIENT_???", x)
            });
            if (1..=3).contains(&a[1]) {
                arg_with(w, 2, |s, v, x| xval(s, v, CAPABILITIES, "CAP_???", x));
                prctl_rest(w, 3);
            } else {
                prctl_rest(w, 2);
            }
        }
        // PR_MCE_KILL
        33 => {
            arg_with(w, 1, |s, v, x| {
                xval(s, v, c::PR_MCE_KILL, "PR_MCE_KILL_???", x)
            });
            if a[1] == 1 {
                arg_with(w, 2, |s, v, x| {
                    xval(s, v, c::PR_MCE_KILL_POLICY, "PR_MCE_KILL_???", x)
                });
            } else {
                arg(w, 2, Hex);
            }
            prctl_rest(w, 3);
        }
        // PR_SET_VMA
        0x5356_4d41 => {
            arg_with(w, 1, |s, v, x| {
                xval(s, v, c::PR_SET_VMA, "PR_SET_VMA_???", x)
            });
            if a[1] == 0 {
                arg(w, 2, Ptr);
                arg(w, 3, Ulong);
                arg(w, 4, Str);
            } else {
                prctl_rest(w, 2);
            }
        }
        // PR_SET_MM
        35 => {
            arg_with(w, 1, |s, v, x| {
                xval(s, v as u32 as u64, c::PR_SET_MM, "PR_SET_MM_???", x)
            });
            prctl_rest(w, 2);
        }
        // PR_SET_PDEATHSIG
        1 => {
            if a[1] > 128 {
                arg(w, 1, Ulong);
            } else {
                arg(w, 1, Signal);
            }
        }
        // PR_SET_PTRACER
        0x5961_6d61 => {
            if a[1] as u32 as i32 == -1 {
                arg_with(w, 1, |s, _, x| {
                    s.push_str(match x {
                        Xlat::Raw => "-1",
                        Xlat::Verbose => "-1 /* PR_SET_PTRACER_ANY */",
                        Xlat::Abbrev => "PR_SET_PTRACER_ANY",
                    })
                });
            } else {
                pid_arg(w, 1);
            }
        }
        // PR_SET_SECCOMP
        22 => {
            arg_with(w, 1, |s, v, x| {
                xval(s, v, c::SECCOMP_MODE, "SECCOMP_MODE_???", x)
            });
            match a[1] {
                1 => {}
                2 => prctl_seccomp::fprog(w, PRCTL_SLOT_FPROG),
                _ => prctl_rest(w, 2),
            }
        }
        // PR_SET_SECUREBITS
        28 => arg_with(w, 1, |s, v, x| {
            flags_hint(s, v, c::SECBITS, "SECBIT_???", x)
        }),
        // PR_SET_TIMERSLACK
        29 => arg(w, 1, Long),
        // PR_SET_TSC
        26 => arg_with(w, 1, |s, v, x| {
            xval(s, v as u32 as u64, c::PR_TSC, "PR_TSC_???", x)
        }),
        // PR_SET_UNALIGN
        6 => arg_with(w, 1, |s, v, x| {
            flags_hint(s, v as u32 as u64, c::PR_UNALIGN_FLAGS, "PR_UNALIGN_???", x)
        }),
        // PR_SET_NO_NEW_PRIVS, PR_SET_THP_DISABLE, PR_SET_IO_FLUSHER
        38 | 41 | 57 => {
            arg(w, 1, Ulong);
            prctl_rest(w, 2);
        }
        // PR_SET_FP_MODE
        45 => arg_with(w, 1, |s, v, x| {
            flags_hint(s, v as u32 as u64, c::PR_FP_MODE, "PR_FP_MODE_???", x)
        }),
        // PR_SET_SPECULATION_CTRL
        53 => {
            arg_with(w, 1, |s, v, x| {
                xval(s, v, c::PR_SPEC_CMDS, "PR_SPEC_???", x)
            });
            if a[1] <= 2 {
                arg_with(w, 2, |s, v, x| {
                    xval(s, v, c::PR_SPEC_SET_FLAGS, "PR_SPEC_???", x)
                });
            } else {
                arg(w, 2, Hex);
            }
        }
        // PR_PAC_RESET_KEYS
        54 => {
            arg_with(w, 1, |s, v, x| {
                flags_hint(s, v, c::PR_PAC_KEYS, "PR_PAC_???", x)
            });
            prctl_rest(w, 2);
        }
        // PR_PAC_SET_ENABLED_KEYS
        60 => {
            for i in 1..3 {
                arg_with(w, i, |s, v, x| {
                    flags_hint(s, v, c::PR_PAC_ENABLED_KEYS, "PR_PAC_???", x)
                });
            }
            prctl_rest(w, 3);
        }
        // PR_SET_SYSCALL_USER_DISPATCH
        59 => {
            arg_with(w, 1, |s, v, x| {
                xval(s, v, c::PR_SUD_CMDS, "PR_SYS_DISPATCH_???", x)
            });
            arg(w, 2, Hex);
            arg(w, 3, Hex);
            arg(w, 4, Ptr);
        }
        // PR_SCHED_CORE
        62 => {
            arg_with(w, 1, |s, v, x| {
                xval(
                    s,
                    v as u32 as u64,
                    c::PR_SCHED_CORE_CMDS,
                    "PR_SCHED_CORE_???",
                    x,
                )
            });
            pid_arg(w, 2);
            // the pid type always with its name, unless -X raw
            arg_with(w, 3, |s, v, x| {
                let x = if x == Xlat::Raw { x } else { Xlat::Verbose };
                xval(
                    s,
                    v as u32 as u64,
                    c::PR_SCHED_CORE_PIDTYPES,
                    "PIDTYPE_???",
                    x,
                )
            });
            if a[1] as u32 != 0 {
                arg(w, 4, Ptr);
                return;
            }
            // PR_SCHED_CORE_GET: the cookie, at exit
            if !w.exiting() {
                return;
            }
            w.sep();
            let ok = w.call.ret().is_some_and(|r| r >= 0);
            match w
                .call
                .exit_cap(PRCTL_SLOT_COOKIE)
                .filter(|c| ok && c.data.len() >= 8)
            {
                Some(c) => {
                    let _ = write!(w.s, "[");
                    fmt::hex(&mut w.s, le_u64(&c.data, 0));
                    w.s.push(']');
                }
                None => fmt::ptr(&mut w.s, a[4]),
            }
        }
        // PR_GET_NO_NEW_PRIVS, PR_GET_THP_DISABLE, PR_MCE_KILL_GET,
        // PR_GET_TAGGED_ADDR_CTRL, PR_PAC_GET_ENABLED_KEYS and the rest
        _ => prctl_rest(w, 1),
    }
}

/// preadv2's and pwritev2's flags.
const RWF_FLAGS: &[(u64, &str)] = &[
    (0x1, "RWF_HIPRI"),
    (0x2, "RWF_DSYNC"),
    (0x4, "RWF_SYNC"),
    (0x8, "RWF_NOWAIT"),
    (0x10, "RWF_APPEND"),
];

/// preadv2, pwritev2: the offset is one register on x86_64 (the fifth,
/// its high half, is not shown), the flags are the sixth.
fn dec_preadv2(w: &mut ArgWriter<'_>) {
    arg(w, 0, Fd);
    if w.call.nr == table::by_name("preadv2").map_or(u32::MAX, |i| i.nr) {
        if !w.exiting() {
            return;
        }
        arg(w, 1, IovOut(2));
    } else {
        arg(w, 1, IovIn(2));
    }
    arg(w, 2, Ulong);
    arg(w, 3, Long);
    arg(w, 5, Flags(RWF_FLAGS));
}

/// prctl's return value as strace prints it: some options name what they
/// return (`= 1 (SUID_DUMP_USER)`, `= 0x3 (SECBIT_NOROOT|...)`).
fn prctl_return(s: &mut String, call: &CallView<'_>, x: Xlat) -> bool {
    let ret = call.ret().unwrap_or(0);
    let a = call.args;
    let hex_note = |s: &mut String, note: Option<String>| {
        s.push_str("= ");
        fmt::hex(s, ret as u64);
        if let Some(n) = note {
            let _ = write!(s, " ({n})");
        }
    };
    let name = |t: &'static [(u64, &'static str)]| {
        t.iter().find(|(k, _)| *k == ret as u64).map(|(_, n)| *n)
    };
    match a[0] as u32 {
        // PR_GET_DUMPABLE, PR_MCE_KILL_GET: the name, whatever -X says
        3 | 34 => {
            let t = if a[0] as u32 == 3 {
                c::PR_DUMPABLE
            } else {
                c::PR_MCE_KILL_POLICY
            };
            let _ = write!(s, "= {ret}");
            if let Some(n) = name(t) {
                let _ = write!(s, " ({n})");
            }
        }
        // PR_GET_SECUREBITS, PR_GET_FP_MODE
        27 | 46 if ret != 0 => {
            let t = if a[0] as u32 == 27 {
                c::SECBITS
            } else {
                c::PR_FP_MODE
            };
            hex_note(s, aux_flags(ret as u64, t, x));
        }
        // PR_SVE_SET_VL, PR_SVE_GET_VL, PR_SME_SET_VL, PR_SME_GET_VL
        50 | 51 | 63 | 64 if ret != 0 => {
            let t = if matches!(a[0] as u32, 50 | 51) {
                c::PR_SVE_VL_FLAGS
            } else {
                c::PR_SME_VL_FLAGS
            };
            hex_note(s, vl_text(ret as u64, t, true, x));
        }
        // PR_GET_SPECULATION_CTRL
        52 if a[1] <= 2 => hex_note(s, aux_flags(ret as u64, c::PR_SPEC_GET_FLAGS, x)),
        // PR_GET_TAGGED_ADDR_CTRL
        56 => hex_note(s, tagged_addr_text(ret as u64, true, x)),
        // PR_PAC_GET_ENABLED_KEYS
        61 => hex_note(s, aux_flags(ret as u64, c::PR_PAC_ENABLED_KEYS, x)),
        _ => return false,
    }
    true
}

fn dec_prlimit(w: &mut ArgWriter<'_>) {
    arg(w, 0, Pid);
    arg(w, 1, Enum(c::RLIMIT_RESOURCES, "RLIMIT_???"));
    arg(w, 2, RlimitIn);
    if !w.exiting() {
        return;
    }
    arg(w, 3, RlimitOut);
}

/// sendfile: the offset at entry, and at exit ` => [new offset]` when the
/// call succeeded and copied something (`sendfile(4, 3, [0] => [17], 17)`).
/// A call without a readable offset is complete at entry.
fn dec_sendfile(w: &mut ArgWriter<'_>) {
    arg(w, 0, Fd);
    arg(w, 1, Fd);
    arg(w, 2, OffBoth);
    let call = w.call;
    if call.enter_cap(2).is_some_and(|c| c.data.len() >= 8) {
        if !w.exiting_inside() {
            return;
        }
        if call.ret().is_some_and(|r| r > 0) {
            if let Some(c) = call.exit_cap(2).filter(|c| c.data.len() >= 8) {
                let _ = write!(w.s, " => [{}]", le_u64(&c.data, 0));
            }
        }
    }
    arg(w, 3, Ulong);
}

/// futex, as strace 6.1's src/futex.c: which arguments follow the operation
/// depends on the command (`val` and `val2` unsigned, `val3` as a bitset, a
/// count or the wake-op encoding).
fn dec_futex(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    arg(w, 0, Ptr);
    w.sep();
    let op = a[1] as u32 as u64;
    let cmd = op & 0x7f;
    let mut t = String::new();
    fmt::enumv(&mut t, op, c::FUTEX_OPS, "FUTEX_???", x, true);
    w.s.push_str(&t);
    let val3 = a[5] as u32 as u64;
    let bitset = |w: &mut ArgWriter<'_>| {
        w.sep();
        fmt::enumv(&mut w.s, val3, FUTEX_BITSETS, "", x, true);
    };
    match cmd {
        // WAIT: val, timeout
        0 => {
            arg(w, 2, Uint);
            arg(w, 3, TimespecIn);
        }
        // LOCK_PI, LOCK_PI2: the timeout only
        6 | 13 => arg(w, 3, TimespecIn),
        // WAIT_BITSET: val, timeout, bitset
        9 => {
            arg(w, 2, Uint);
            arg(w, 3, TimespecIn);
            bitset(w);
        }
        // WAKE_BITSET: val, bitset
        10 => {
            arg(w, 2, Uint);
            bitset(w);
        }
        // REQUEUE: val, val2, uaddr2
        3 => {
            arg(w, 2, Uint);
            arg(w, 3, Uint);
            arg(w, 4, Ptr);
        }
        // CMP_REQUEUE, CMP_REQUEUE_PI: val, val2, uaddr2, val3
        4 | 12 => {
            arg(w, 2, Uint);
            arg(w, 3, Uint);
            arg(w, 4, Ptr);
            arg(w, 5, Uint);
        }
        // WAKE_OP: val, val2, uaddr2, the operation
        5 => {
            arg(w, 2, Uint);
            arg(w, 3, Uint);
            arg(w, 4, Ptr);
            w.sep();
            wake_op(&mut w.s, val3, x);
        }
        // WAIT_REQUEUE_PI: val, timeout, uaddr2
        11 => {
            arg(w, 2, Uint);
            arg(w, 3, TimespecIn);
            arg(w, 4, Ptr);
        }
        // WAKE, FD: val
        1 | 2 => arg(w, 2, Uint),
        // UNLOCK_PI, TRYLOCK_PI: nothing more
        7 | 8 => {}
        _ => {
            arg(w, 2, Uint);
            arg(w, 3, Ptr);
            arg(w, 4, Ptr);
            w.sep();
            fmt::hex(&mut w.s, val3);
        }
    }
}

/// futex's val3 bitset.
static FUTEX_BITSETS: &[(u64, &str)] = &[(0xffff_ffff, "FUTEX_BITSET_MATCH_ANY")];

/// FUTEX_WAKE_OP's encoded operation:
/// `FUTEX_OP_SET<<28|0x5<<12|FUTEX_OP_CMP_GT<<24|0x1`. As strace does, an
/// operation or comparison it cannot name (or any, with `-X raw`) gets a
/// `/* FUTEX_OP_??? */` comment after its shift.
fn wake_op(s: &mut String, v: u64, x: Xlat) {
    const OPS: &[(u64, &str)] = &[
        (0, "FUTEX_OP_SET"),
        (1, "FUTEX_OP_ADD"),
        (2, "FUTEX_OP_OR"),
        (3, "FUTEX_OP_ANDN"),
        (4, "FUTEX_OP_XOR"),
    ];
    const CMPS: &[(u64, &str)] = &[
        (0, "FUTEX_OP_CMP_EQ"),
        (1, "FUTEX_OP_CMP_NE"),
        (2, "FUTEX_OP_CMP_LT"),
        (3, "FUTEX_OP_CMP_LE"),
        (4, "FUTEX_OP_CMP_GT"),
        (5, "FUTEX_OP_CMP_GE"),
    ];
    let named = |s: &mut String, val: u64, tab: &[(u64, &str)], shift: u32, hint: &str| {
        fmt::enumv(s, val, tab, "", x, true);
        let _ = write!(s, "<<{shift}");
        if x == Xlat::Raw || !tab.iter().any(|(k, _)| *k == val) {
            let _ = write!(s, " /* {hint} */");
        }
    };
    if (v >> 28) & 8 != 0 {
        fmt::enumv(s, 8, &[(8, "FUTEX_OP_OPARG_SHIFT")], "", x, true);
        s.push_str("<<28|");
    }
    named(s, (v >> 28) & 7, OPS, 28, "FUTEX_OP_???");
    s.push('|');
    fmt::hex(s, (v >> 12) & 0xfff);
    s.push_str("<<12|");
    named(s, (v >> 24) & 0xf, CMPS, 24, "FUTEX_OP_CMP_???");
    s.push('|');
    fmt::hex(s, v & 0xfff);
}

fn dec_socket(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    arg(w, 0, Enum(c::SOCKET_FAMILIES, "AF_???"));
    w.sep();
    let ty = a[1] as u32 as u64;
    let mut t = String::new();
    fmt::enumv(&mut t, ty & 0xf, c::SOCKET_TYPES, "SOCK_???", x, false);
    if ty & !0xf != 0 {
        t.push('|');
        fmt::flags(&mut t, ty & !0xf, c::SOCKET_TYPE_FLAGS, None, x);
    }
    w.s.push_str(&t);
    w.sep();
    let proto = a[2] as u32 as u64;
    if matches!(a[0], 2 | 10) {
        fmt::enumv(&mut w.s, proto, c::IPPROTO, "IPPROTO_???", x, true);
    } else if a[0] as u32 == 16 {
        fmt::enumv(
            &mut w.s,
            proto,
            c::NETLINK_PROTOCOLS,
            "NETLINK_???",
            x,
            true,
        );
    } else {
        let _ = write!(w.s, "{proto}");
    }
}

fn dec_socketpair(w: &mut ArgWriter<'_>) {
    dec_socket(w);
    if !w.exiting() {
        return;
    }
    arg(w, 3, FdPairOut);
}

fn sockopt_head(w: &mut ArgWriter<'_>, get: bool) {
    let a = w.call.args;
    let x = w.opts.xlat;
    arg(w, 0, Fd);
    arg(w, 1, Enum(c::SOCKET_LEVELS, "SOL_??"));
    w.sep();
    // the option's name by its level, as strace: a number in hex with the
    // level's hint when unknown; a level strace does not know, in decimal
    let (table, hint): (&[(u64, &str)], &str) = match a[1] as u32 {
        0 => (SOCKOPT_IP, "IP_???"),
        // 26: SO_GET_FILTER to get, SO_ATTACH_FILTER to set
        1 if a[2] as u32 == 26 => {
            let n = if get {
                "SO_GET_FILTER"
            } else {
                "SO_ATTACH_FILTER"
            };
            fmt::enumv(&mut w.s, 26, &[(26, n)], "SO_???", x, true);
            return;
        }
        1 => (c::SOCKOPT_SOL_SOCKET, "SO_???"),
        6 => (c::SOCKOPT_TCP, "TCP_???"),
        17 => (SOCKOPT_UDP, "UDP_???"),
        // the options common to both calls, then those of one of them
        41 => {
            let own = if get {
                sock_xlat::GETSOCK_IPV6_OPTIONS
            } else {
                sock_xlat::SETSOCK_IPV6_OPTIONS
            };
            let n = a[2] as u32 as u64;
            if own.iter().any(|&(v, _)| v == n) {
                (own, "IPV6_???")
            } else {
                (sock_xlat::SOCK_IPV6_OPTIONS, "IPV6_???")
            }
        }
        255 => (&[(1, "ICMP_FILTER")], "RAW_???"),
        263 => (SOCKOPT_PACKET, "PACKET_???"),
        270 => (SOCKOPT_NETLINK, "NETLINK_???"),
        _ => {
            let _ = write!(w.s, "{}", a[2] as u32);
            return;
        }
    };
    fmt::enumv(&mut w.s, a[2] as u32 as u64, table, hint, x, true);
}

/// SOL_IP's options.
const SOCKOPT_IP: &[(u64, &str)] = &[
    (1, "IP_TOS"),
    (2, "IP_TTL"),
    (3, "IP_HDRINCL"),
    (4, "IP_OPTIONS"),
    (5, "IP_ROUTER_ALERT"),
    (6, "IP_RECVOPTS"),
    (7, "IP_RETOPTS"),
    (8, "IP_PKTINFO"),
    (9, "IP_PKTOPTIONS"),
    (10, "IP_MTU_DISCOVER"),
    (11, "IP_RECVERR"),
    (12, "IP_RECVTTL"),
    (13, "IP_RECVTOS"),
    (14, "IP_MTU"),
    (15, "IP_FREEBIND"),
    (16, "IP_IPSEC_POLICY"),
    (17, "IP_XFRM_POLICY"),
    (18, "IP_PASSSEC"),
    (19, "IP_TRANSPARENT"),
    (20, "IP_ORIGDSTADDR"),
    (21, "IP_MINTTL"),
    (22, "IP_NODEFRAG"),
    (23, "IP_CHECKSUM"),
    (24, "IP_BIND_ADDRESS_NO_PORT"),
    (25, "IP_RECVFRAGSIZE"),
    (26, "IP_RECVERR_RFC4884"),
    (32, "IP_MULTICAST_IF"),
    (33, "IP_MULTICAST_TTL"),
    (34, "IP_MULTICAST_LOOP"),
    (35, "IP_ADD_MEMBERSHIP"),
    (36, "IP_DROP_MEMBERSHIP"),
    (37, "IP_UNBLOCK_SOURCE"),
    (38, "IP_BLOCK_SOURCE"),
    (39, "IP_ADD_SOURCE_MEMBERSHIP"),
    (40, "IP_DROP_SOURCE_MEMBERSHIP"),
    (41, "IP_MSFILTER"),
    (42, "MCAST_JOIN_GROUP"),
    (43, "MCAST_BLOCK_SOURCE"),
    (44, "MCAST_UNBLOCK_SOURCE"),
    (45, "MCAST_LEAVE_GROUP"),
    (46, "MCAST_JOIN_SOURCE_GROUP"),
    (47, "MCAST_LEAVE_SOURCE_GROUP"),
    (48, "MCAST_MSFILTER"),
    (49, "IP_MULTICAST_ALL"),
    (50, "IP_UNICAST_IF"),
];

/// SOL_UDP's options.
const SOCKOPT_UDP: &[(u64, &str)] = &[
    (1, "UDP_CORK"),
    (100, "UDP_ENCAP"),
    (101, "UDP_NO_CHECK6_TX"),
    (102, "UDP_NO_CHECK6_RX"),
    (103, "UDP_SEGMENT"),
    (104, "UDP_GRO"),
];

/// SOL_PACKET's options.
const SOCKOPT_PACKET: &[(u64, &str)] = &[
    (1, "PACKET_ADD_MEMBERSHIP"),
    (2, "PACKET_DROP_MEMBERSHIP"),
    (3, "PACKET_RECV_OUTPUT"),
    (5, "PACKET_RX_RING"),
    (6, "PACKET_STATISTICS"),
    (7, "PACKET_COPY_THRESH"),
    (8, "PACKET_AUXDATA"),
    (9, "PACKET_ORIGDEV"),
    (10, "PACKET_VERSION"),
    (11, "PACKET_HDRLEN"),
    (12, "PACKET_RESERVE"),
    (13, "PACKET_TX_RING"),
    (14, "PACKET_LOSS"),
    (15, "PACKET_VNET_HDR"),
    (16, "PACKET_TX_TIMESTAMP"),
    (17, "PACKET_TIMESTAMP"),
    (18, "PACKET_FANOUT"),
    (19, "PACKET_TX_HAS_OFF"),
    (20, "PACKET_QDISC_BYPASS"),
    (21, "PACKET_ROLLOVER_STATS"),
    (22, "PACKET_FANOUT_DATA"),
    (23, "PACKET_IGNORE_OUTGOING"),
];

/// SOL_NETLINK's options.
const SOCKOPT_NETLINK: &[(u64, &str)] = &[
    (1, "NETLINK_ADD_MEMBERSHIP"),
    (2, "NETLINK_DROP_MEMBERSHIP"),
    (3, "NETLINK_PKTINFO"),
    (4, "NETLINK_BROADCAST_ERROR"),
    (5, "NETLINK_NO_ENOBUFS"),
    (6, "NETLINK_RX_RING"),
    (7, "NETLINK_TX_RING"),
    (8, "NETLINK_LISTEN_ALL_NSID"),
    (9, "NETLINK_LIST_MEMBERSHIPS"),
    (10, "NETLINK_CAP_ACK"),
    (11, "NETLINK_EXT_ACK"),
    (12, "NETLINK_GET_STRICT_CHK"),
];

fn dec_setsockopt(w: &mut ArgWriter<'_>) {
    sockopt_head(w, false);
    w.sep();
    // a copy that ran into unreadable memory still holds the head of it:
    // enough for the value when strace reads less than the length given
    let cap = w.call.cap(3);
    let (d, trunc) = (
        cap.map(|c| c.data.clone()),
        cap.is_some_and(|c| c.truncated),
    );
    sockopt::set_value(w, d.as_deref(), trunc, cap.is_some_and(|c| !c.fault));
    arg(w, 4, Int);
}

/// getsockopt(fd, level, name, optval, optlen): the value as long as the
/// kernel said (`[room => length]`); both pointers at once when the room
/// could not be read at entry, as strace.
fn dec_getsockopt(w: &mut ArgWriter<'_>) {
    sockopt_head(w, true);
    let a = w.call.args;
    let ulen = w
        .call
        .enter_cap(4)
        .filter(|c| c.data.len() >= 4)
        .map(|c| le_u32(&c.data, 0) as i32);
    let Some(ulen) = ulen.filter(|_| a[4] != 0) else {
        arg(w, 3, Ptr);
        arg(w, 4, Ptr);
        return;
    };
    if !w.exiting() {
        return;
    }
    let ok = w.call.ret().is_some_and(|r| r >= 0);
    let rlen = w
        .call
        .exit_cap(4)
        .filter(|c| ok && c.data.len() >= 4)
        .map(|c| le_u32(&c.data, 0) as i32);
    w.sep();
    match rlen {
        Some(rlen) => {
            let cap = w.call.exit.and_then(|(_, caps)| {
                caps.iter()
                    .find(|c| c.arg == 3 && c.item == CaptureItem::Data)
            });
            let (d, trunc) = (
                cap.map(|c| c.data.clone()),
                cap.is_some_and(|c| c.truncated),
            );
            let whole = cap.is_some_and(|c| !c.fault);
            sockopt::get_value(w, d.as_deref(), trunc, whole, ulen, rlen);
            w.sep();
            if ulen != rlen {
                let _ = write!(w.s, "[{ulen} => {rlen}]");
            } else {
                let _ = write!(w.s, "[{rlen}]");
            }
        }
        None => {
            fmt::ptr(&mut w.s, a[3]);
            w.sep();
            let _ = write!(w.s, "[{ulen}]");
        }
    }
}

/// The whole return text of a call, with the notes strace adds for some
/// calls: `= 0x802 (flags O_RDWR|O_NONBLOCK)`, `= 0 (Timeout)`,
/// `= 1 ([{fd=3, revents=POLLIN}])`.
pub fn return_text(name: &str, call: CallView<'_>, kind: Ret, x: Xlat) -> String {
    let mut s = String::new();
    push_return_text(&mut s, name, call, kind, x);
    s
}

/// [`return_text`] appended to `s`.
pub fn push_return_text(s: &mut String, name: &str, call: CallView<'_>, kind: Ret, x: Xlat) {
    let o = Options {
        xlat: x,
        ..Options::default()
    };
    push_return_text_with(s, name, call, kind, &o);
}

/// [`return_text`] with the options of the trace (`-s` and `-v` cut poll's
/// array as strace does).
pub fn return_text_with(name: &str, call: CallView<'_>, kind: Ret, o: &Options) -> String {
    let mut s = String::new();
    push_return_text_with(&mut s, name, call, kind, o);
    s
}

/// [`return_text_with`] appended to `s`.
pub fn push_return_text_with(
    s: &mut String,
    name: &str,
    call: CallView<'_>,
    kind: Ret,
    o: &Options,
) {
    let x = o.xlat;
    let ret = call.ret().unwrap_or(0);
    if !(-4095..0).contains(&ret) && family_return_text(s, name, &call, x) {
        return;
    }
    // fcntl's notes (flags, seals, lease, signal) stay with -X raw, as in strace
    if (-4095..0).contains(&ret)
        || (x == Xlat::Raw && !matches!(name, "fcntl" | "prctl" | "arch_prctl"))
    {
        format_return(s, ret, kind, x);
        return;
    }
    match (name, call.args[1] as u32) {
        ("fcntl", 3) => {
            s.push_str("= ");
            fmt::hex(s, ret as u64);
            // strace names the open flags here whatever -X says
            s.push_str(" (flags ");
            open_flags(s, ret as u64, Xlat::Abbrev);
            s.push(')');
        }
        // F_GETSIG: the signal's name, when there is one
        ("fcntl", 11) if ret != 0 => {
            let _ = write!(s, "= {ret} ({})", c::signal_name(ret as i32));
        }
        // F_GETLEASE: the lease's lock type
        ("fcntl", 1025) => {
            s.push_str("= ");
            fmt::hex(s, ret as u64);
            if let Some((_, n)) = LOCK_TYPES.iter().find(|(k, _)| *k == ret as u64) {
                let _ = write!(s, " ({n})");
            }
        }
        // F_GET_SEALS
        ("fcntl", 1034) if ret != 0 => {
            s.push_str("= ");
            fmt::hex(s, ret as u64);
            s.push_str(" (seals ");
            fmt::flags(s, ret as u64, SEAL_FLAGS, None, x);
            s.push(')');
        }
        ("fcntl", 1) if ret != 0 => {
            s.push_str("= ");
            fmt::hex(s, ret as u64);
            s.push_str(" (flags ");
            fmt::flags(s, ret as u64, c::FD_FLAGS, None, x);
            s.push(')');
        }
        ("prctl", _) if prctl_return(s, &call, x) => {}
        // the signal taken
        ("rt_sigtimedwait", _) if ret > 0 => {
            let _ = write!(s, "= {ret} ({})", c::signal_name(ret as i32));
        }
        ("sched_getscheduler", _) if c::SCHED_POLICIES.iter().any(|(k, _)| *k == ret as u64) => {
            let name = c::SCHED_POLICIES.iter().find(|(k, _)| *k == ret as u64);
            let _ = write!(s, "= {ret} ({})", name.map_or("", |(_, n)| *n));
        }
        ("ioprio_get", _) => {
            let _ = write!(s, "= {ret} ({})", ioprio_text(ret as u32, x));
        }
        // ARCH_REQ_XCOMP_*: the components now permitted
        ("arch_prctl", _) if matches!(call.args[0], 0x1023 | 0x1025) && ret > 0 => {
            s.push_str("= ");
            fmt::hex(s, ret as u64);
            if let Some(n) = aux_flags(ret as u64, XFEATURE_MASKS, x) {
                let _ = write!(s, " ({n})");
            }
        }
        ("select" | "pselect6", _) => {
            let _ = write!(s, "= {ret}");
            if ret == 0 {
                s.push_str(" (Timeout)");
            } else {
                // as strace builds it: the ready descriptors of each set
                // until `ret` of them are shown, then the time left; a
                // `]` closes each set once anything was written
                let nfds = select_nfds(call.args[0]);
                let need = fdset_bytes(nfds);
                let mut t = String::new();
                let mut sep = "";
                let mut ready = ret;
                for (k, what) in [(1, "in"), (2, "out"), (3, "except")] {
                    if ready <= 0 {
                        break;
                    }
                    let c = call.exit_prefix(k, need).or_else(|| call.exit_cap(k));
                    let Some(c) = c.filter(|_| call.args[k] != 0) else {
                        continue;
                    };
                    let mut first = true;
                    for j in 0..(nfds as usize).min(c.data.len() * 8) {
                        if c.data[j / 8] & (1 << (j % 8)) == 0 {
                            continue;
                        }
                        if first {
                            let _ = write!(t, "{sep}{what} [{j}");
                            first = false;
                            sep = ", ";
                        } else {
                            let _ = write!(t, " {j}");
                        }
                        ready -= 1;
                        if ready == 0 {
                            break;
                        }
                    }
                    if !t.is_empty() {
                        t.push(']');
                    }
                }
                if call.args[4] != 0 {
                    t.push_str(sep);
                    t.push_str("left ");
                    match call.exit_cap(4).filter(|t| t.data.len() >= 16) {
                        Some(c) => {
                            let unit = if name == "select" {
                                "tv_usec"
                            } else {
                                "tv_nsec"
                            };
                            let _ = write!(
                                t,
                                "{{tv_sec={}, {unit}={}}}",
                                le_i64(&c.data, 0),
                                le_i64(&c.data, 8)
                            );
                        }
                        None => fmt::ptr(&mut t, call.args[4]),
                    }
                }
                let _ = write!(s, " ({t})");
            }
        }
        ("poll" | "ppoll", _) => {
            let _ = write!(s, "= {ret}");
            if ret == 0 {
                s.push_str(" (Timeout)");
            } else if let Some(d) = call
                .exit_cap(0)
                .or_else(|| call.exit_prefix(0, (call.args[1] as u32 as usize).saturating_mul(8)))
            {
                s.push_str(" ([");
                // as strace: no more than -s entries (all with -v), then `...`
                // when another one has events
                let max = if o.verbose { usize::MAX } else { o.strsize };
                let mut k = 0;
                for p in d.data.chunks_exact(8) {
                    let revents = u16::from_le_bytes([p[6], p[7]]) as u64;
                    if revents == 0 {
                        continue;
                    }
                    if k > 0 {
                        s.push_str(", ");
                    }
                    if k >= max {
                        s.push_str("...");
                        break;
                    }
                    k += 1;
                    let _ = write!(s, "{{fd={}, revents=", le_u32(p, 0) as i32);
                    fmt::flags(s, revents, c::POLL_EVENTS, None, x);
                    s.push('}');
                }
                s.push(']');
                if name == "ppoll" {
                    if let Some(t) = call.exit_cap(2).filter(|t| t.data.len() >= 16) {
                        let _ = write!(
                            s,
                            ", left {{tv_sec={}, tv_nsec={}}}",
                            le_i64(&t.data, 0),
                            le_u64(&t.data, 8)
                        );
                    }
                }
                s.push(')');
            }
        }
        _ => format_return(s, ret, kind, x),
    }
}

/// Formats a return value as strace does: `= 3`, `= -1 ENOENT (No such file or directory)`.
pub fn format_return(s: &mut String, ret: i64, kind: Ret, x: Xlat) {
    if (-4095..0).contains(&ret) {
        let e = (-ret) as i32;
        match c::errno_name(e) {
            Some((name, msg)) if (512..=530).contains(&e) => {
                let _ = write!(s, "= ? {name} ({msg})");
            }
            Some((name, msg)) => {
                let _ = (x, e);
                let _ = write!(s, "= -1 {name} ({msg})");
            }
            None => {
                let _ = write!(s, "= -1 (errno {e})");
            }
        }
        return;
    }
    match kind {
        Ret::Hex => {
            let _ = write!(s, "= {:#x}", ret as u64);
        }
        Ret::Oct => {
            let _ = write!(s, "= {}", fmt::octal(ret as u64));
        }
        _ => {
            let _ = write!(s, "= {ret}");
        }
    }
}

/// What the decoders' unit tests share: copies as BPF makes them, and a
/// call's argument text.
#[cfg(test)]
pub(crate) mod testutil {
    use super::*;

    /// A whole copy of `data` for argument slot `arg`.
    pub(crate) fn cap(arg: u8, data: &[u8]) -> Capture {
        Capture {
            arg,
            item: CaptureItem::Data,
            elem: 0,
            fault: false,
            truncated: false,
            more: false,
            aux: data.len() as u64,
            data: data.to_vec(),
        }
    }

    /// A copy of slot `arg` that faulted.
    pub(crate) fn faulted(arg: u8) -> Capture {
        Capture {
            fault: true,
            ..cap(arg, b"")
        }
    }

    /// The argument text of call `name`.
    pub(crate) fn render(
        name: &str,
        args: [u64; 6],
        enter: &[Capture],
        exit: Option<(i64, &[Capture])>,
        o: &Options,
    ) -> String {
        let env = Env::default();
        let nr = table::by_name(name).unwrap().nr;
        write_args(
            CallView {
                nr,
                args,
                enter,
                exit,
            },
            o,
            &env,
        )
        .s
    }
}

#[cfg(test)]
mod tests {
    use super::testutil::cap;
    use super::*;

    fn render(
        name: &str,
        args: [u64; 6],
        enter: &[Capture],
        exit: Option<(i64, &[Capture])>,
    ) -> String {
        let o = Options::default();
        let env = Env::default();
        let nr = table::by_name(name).unwrap().nr;
        let w = write_args(
            CallView {
                nr,
                args,
                enter,
                exit,
            },
            &o,
            &env,
        );
        w.s
    }

    #[test]
    fn openat_like_strace() {
        let caps = [cap(1, b"/etc/ld.so.cache")];
        let s = render(
            "openat",
            [(-100i64) as u64, 1, 0o2000000, 0, 0, 0],
            &caps,
            Some((3, &[])),
        );
        assert_eq!(s, "AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC");
        let s = render(
            "openat",
            [(-100i64) as u64, 1, 0o1101, 0o644, 0, 0],
            &[cap(1, b"out")],
            Some((3, &[])),
        );
        assert_eq!(s, "AT_FDCWD, \"out\", O_WRONLY|O_CREAT|O_TRUNC, 0644");
    }

    /// The line as the text printer builds it: the entry text, then what the
    /// exit decode adds past it (`printed` bytes are already out).
    fn entry_then_exit(
        name: &str,
        args: [u64; 6],
        enter: &[Capture],
        ret: i64,
        exit: &[Capture],
    ) -> (String, String) {
        let o = Options::default();
        let env = Env::default();
        let nr = table::by_name(name).unwrap().nr;
        let view = |exit| CallView {
            nr,
            args,
            enter,
            exit,
        };
        let entry = write_args(view(None), &o, &env).s;
        let full = write_args(view(Some((ret, exit))), &o, &env).s;
        assert!(
            full.starts_with(&entry),
            "exit text {full:?} does not extend entry text {entry:?}"
        );
        (entry.clone(), format!("{entry}{}", &full[entry.len()..]))
    }

    /// strace 6.1 (`sendfile64` in src/sendfile.c): `[in]` at entry, then
    /// ` => [out]` only when the call succeeded and copied something.
    #[test]
    fn sendfile_offset_in_then_out() {
        let off = |v: i64| cap(2, &v.to_le_bytes());
        let (entry, line) = entry_then_exit(
            "sendfile",
            [4, 3, 0x1000, 17, 0, 0],
            &[off(0)],
            17,
            &[off(17)],
        );
        assert_eq!(entry, "4, 3, [0]");
        assert_eq!(line, "4, 3, [0] => [17], 17");
        let (_, line) = entry_then_exit(
            "sendfile",
            [4, 3, 0x1000, 0, 0, 0],
            &[off(17)],
            0,
            &[off(17)],
        );
        assert_eq!(line, "4, 3, [17], 0");
        let (_, line) = entry_then_exit(
            "sendfile",
            [4, 3, 0x1000, 5, 0, 0],
            &[off(36)],
            -9,
            &[off(36)],
        );
        assert_eq!(line, "4, 3, [36], 5");
        // no offset: the whole call is printed at entry
        let mut null = cap(2, b"");
        null.fault = true;
        let (entry, line) = entry_then_exit("sendfile", [4, 3, 0, 4, 0, 0], &[null], 0, &[]);
        assert_eq!(entry, "4, 3, NULL, 4");
        assert_eq!(line, "4, 3, NULL, 4");
    }

    /// strace 6.1 prints copy_file_range's and splice's offsets as they were
    /// at entry only (RVAL_DECODED in src/copy_file_range.c, src/io.c).
    #[test]
    fn copy_file_range_and_splice_offsets_at_entry() {
        let off = |a: u8, v: i64| cap(a, &v.to_le_bytes());
        let (_, line) = entry_then_exit(
            "copy_file_range",
            [3, 0x1000, 4, 0x2000, 10, 0],
            &[off(1, 17), off(3, 100)],
            10,
            &[],
        );
        assert_eq!(line, "3, [17], 4, [100], 10, 0");
        let (_, line) = entry_then_exit("splice", [5, 0, 4, 0x2000, 5, 1], &[off(3, 110)], 5, &[]);
        assert_eq!(line, "5, NULL, 4, [110], 5, SPLICE_F_MOVE");
    }

    /// Expected lines from strace 6.1 on tests/programs/futex.c.
    #[test]
    fn futex_arguments_per_command() {
        let u = 0x5575_156b_b018u64;
        let u2 = 0x5575_156b_b024u64;
        let ts = cap(3, &[0u8; 16]);
        let f = |op: u64, a: [u64; 4], caps: &[Capture]| {
            render(
                "futex",
                [u, op, a[0], a[1], a[2], a[3]],
                caps,
                Some((0, &[])),
            )
        };
        assert_eq!(
            f(0x89, [0, 0, 0, 0xffff_ffff], &[]),
            "0x5575156bb018, FUTEX_WAIT_BITSET_PRIVATE, 0, NULL, FUTEX_BITSET_MATCH_ANY"
        );
        assert_eq!(
            f(0x109, [0, 0x1000, 0, 5], std::slice::from_ref(&ts)),
            "0x5575156bb018, FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME, 0, {tv_sec=0, tv_nsec=0}, 0x5"
        );
        assert_eq!(
            f(0x8a, [1, 0, 0, 0], &[]),
            "0x5575156bb018, FUTEX_WAKE_BITSET_PRIVATE, 1, 0"
        );
        assert_eq!(
            f(0x83, [1, 2, u2, 0], &[]),
            "0x5575156bb018, FUTEX_REQUEUE_PRIVATE, 1, 2, 0x5575156bb024"
        );
        assert_eq!(
            f(0x8c, [1, 2, u2, 7], &[]),
            "0x5575156bb018, FUTEX_CMP_REQUEUE_PI_PRIVATE, 1, 2, 0x5575156bb024, 7"
        );
        assert_eq!(
            f(0x85, [1, 1, u2, 0x0400_5001], &[]),
            "0x5575156bb018, FUTEX_WAKE_OP_PRIVATE, 1, 1, 0x5575156bb024, FUTEX_OP_SET<<28|0x5<<12|FUTEX_OP_CMP_GT<<24|0x1"
        );
        assert_eq!(
            f(5, [1, 0, u2, 0x9000_37ff], &[]),
            "0x5575156bb018, FUTEX_WAKE_OP, 1, 0, 0x5575156bb024, FUTEX_OP_OPARG_SHIFT<<28|FUTEX_OP_ADD<<28|0x3<<12|FUTEX_OP_CMP_EQ<<24|0x7ff"
        );
        assert_eq!(
            f(0x85, [1, 1, u2, 0x7a00_b00c], &[]),
            "0x5575156bb018, FUTEX_WAKE_OP_PRIVATE, 1, 1, 0x5575156bb024, 0x7<<28 /* FUTEX_OP_??? */|0xb<<12|0xa<<24 /* FUTEX_OP_CMP_??? */|0xc"
        );
        assert_eq!(
            f(0x86, [0, 0, 0, 0], &[]),
            "0x5575156bb018, FUTEX_LOCK_PI_PRIVATE, NULL"
        );
        assert_eq!(
            f(0x88, [0, 0, 0, 0], &[]),
            "0x5575156bb018, FUTEX_TRYLOCK_PI_PRIVATE"
        );
        assert_eq!(
            f(0x8b, [0, 0, u2, 0], &[]),
            "0x5575156bb018, FUTEX_WAIT_REQUEUE_PI_PRIVATE, 0, NULL, 0x5575156bb024"
        );
        assert_eq!(
            f(1, [0x8000_0000, 0, 0, 0], &[]),
            "0x5575156bb018, FUTEX_WAKE, 2147483648"
        );
        assert_eq!(
            f(0xe3, [3, 4, u2, 5], &[]),
            "0x5575156bb018, 0xe3 /* FUTEX_??? */, 3, 0x4, 0x5575156bb024, 0x5"
        );
        // the timeout is copied only for the commands that take one
        let p = plan("futex", &Options::default());
        let cond = p[3].cond.expect("futex timeout capture is conditional");
        for (op, timed) in [
            (0x80, true),
            (0x189, true),
            (0x8b, true),
            (0x8d, true),
            (0x83, false),
            (0x85, false),
            (1, false),
        ] {
            assert_eq!(cond.accepts(&[0, op, 0, 0, 0, 0]), timed, "op {op:#x}");
        }
    }

    #[test]
    fn futex_wake_op_raw_and_verbose() {
        let args = [0x1000, 0x85, 1, 1, 0x2000, 0x0400_5001];
        let nr = table::by_name("futex").unwrap().nr;
        let env = Env::default();
        let text = |x| {
            let o = Options {
                xlat: x,
                ..Options::default()
            };
            write_args(
                CallView {
                    nr,
                    args,
                    enter: &[],
                    exit: Some((0, &[])),
                },
                &o,
                &env,
            )
            .s
        };
        assert_eq!(
            text(Xlat::Raw),
            "0x1000, 0x85, 1, 1, 0x2000, 0<<28 /* FUTEX_OP_??? */|0x5<<12|0x4<<24 /* FUTEX_OP_CMP_??? */|0x1"
        );
        assert_eq!(
            text(Xlat::Verbose),
            "0x1000, 0x85 /* FUTEX_WAKE_OP_PRIVATE */, 1, 1, 0x2000, 0 /* FUTEX_OP_SET */<<28|0x5<<12|0x4 /* FUTEX_OP_CMP_GT */<<24|0x1"
        );
    }

    /// strace 6.1: the lock asked for at entry; F_GETLK's struct only at
    /// exit, with l_pid; f_owner_ex.
    #[test]
    fn fcntl_flock_and_owner() {
        let mut fl = vec![0u8; 32];
        fl[0] = 1; // F_WRLCK
        fl[16] = 100;
        let (_, line) = entry_then_exit(
            "fcntl",
            [3, 37, 0x1000, 0, 0, 0],
            &[cap(2, &fl)],
            0,
            &[cap(2, &fl)],
        );
        assert_eq!(
            line,
            "3, F_OFD_SETLK, {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=0, l_len=100}"
        );
        let mut got = fl.clone();
        got[24..28].copy_from_slice(&(-1i32).to_le_bytes());
        let (entry, line) = entry_then_exit(
            "fcntl",
            [4, 36, 0x1000, 0, 0, 0],
            &[cap(2, &fl)],
            0,
            &[cap(2, &got)],
        );
        assert_eq!(entry, "4, F_OFD_GETLK");
        assert_eq!(
            line,
            "4, F_OFD_GETLK, {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=0, l_len=100, l_pid=-1}"
        );
        let (_, line) = entry_then_exit("fcntl", [3, 5, 8, 0, 0, 0], &[], -14, &[]);
        assert_eq!(line, "3, F_GETLK, 0x8");
        let owner = [1u8, 0, 0, 0, 42, 0, 0, 0];
        let (_, line) =
            entry_then_exit("fcntl", [3, 15, 0x1000, 0, 0, 0], &[cap(2, &owner)], 0, &[]);
        assert_eq!(line, "3, F_SETOWN_EX, {type=F_OWNER_PID, pid=42}");
        let p = plan("fcntl", &Options::default());
        let cond = p[2].cond.expect("conditional capture");
        for (cmd, copied) in [
            (5, true),
            (6, true),
            (7, true),
            (15, true),
            (16, true),
            (36, true),
            (38, true),
            (4, false),
            (1030, false),
        ] {
            assert_eq!(cond.accepts(&[3, cmd, 0, 0, 0, 0]), copied, "cmd {cmd}");
        }
    }

    /// A getdents64 buffer of `n` entries named `e0`, `e1`, ... (24 bytes each).
    fn dents_buf(n: usize) -> Vec<u8> {
        let mut d = Vec::new();
        for k in 0..n {
            let mut e = vec![0u8; 24];
            e[0..8].copy_from_slice(&(100 + k as u64).to_le_bytes());
            e[8..16].copy_from_slice(&(k as u64 + 1).to_le_bytes());
            e[16..18].copy_from_slice(&24u16.to_le_bytes());
            e[18] = 8; // DT_REG
            let name = format!("e{k}");
            e[19..19 + name.len()].copy_from_slice(name.as_bytes());
            d.extend_from_slice(&e);
        }
        d
    }

    /// The items BPF sends for a getdents buffer: the count, then chunks.
    fn dents_caps(count: u64, more: bool, chunks: &[&[u8]]) -> Vec<Capture> {
        let mut v = vec![Capture {
            arg: 1,
            item: CaptureItem::Count,
            elem: 0,
            fault: false,
            truncated: false,
            more,
            aux: count,
            data: Vec::new(),
        }];
        let mut off = 0;
        for (k, c) in chunks.iter().enumerate() {
            v.push(Capture {
                arg: 1,
                item: CaptureItem::Elem,
                elem: k as u8,
                fault: false,
                truncated: false,
                more: false,
                aux: off,
                data: c.to_vec(),
            });
            off += c.len() as u64;
        }
        v
    }

    #[test]
    fn getdents_counts_every_entry_and_marks_what_was_not_captured() {
        let nr = table::by_name("getdents64").unwrap().nr;
        let env = Env::default();
        let args = [3, 0x1000, 32768, 0, 0, 0];
        let text = |ret: i64, caps: &[Capture], verbose: bool| {
            let o = Options {
                verbose,
                ..Options::default()
            };
            write_args(
                CallView {
                    nr,
                    args,
                    enter: &[],
                    exit: Some((ret, caps)),
                },
                &o,
                &env,
            )
            .s
        };
        let d = dents_buf(5);
        // all captured, in two chunks: counted from the bytes
        let caps = dents_caps(0, false, &[&d[..48], &d[48..]]);
        assert_eq!(text(120, &caps, false), "3, 0x1000 /* 5 entries */, 32768");
        assert_eq!(
            text(120, &caps, true),
            "3, [{d_ino=100, d_off=1, d_reclen=24, d_type=DT_REG, d_name=\"e0\"}, \
             {d_ino=101, d_off=2, d_reclen=24, d_type=DT_REG, d_name=\"e1\"}, \
             {d_ino=102, d_off=3, d_reclen=24, d_type=DT_REG, d_name=\"e2\"}, \
             {d_ino=103, d_off=4, d_reclen=24, d_type=DT_REG, d_name=\"e3\"}, \
             {d_ino=104, d_off=5, d_reclen=24, d_type=DT_REG, d_name=\"e4\"}], 32768"
        );
        // only 2.5 entries fitted in the record: BPF's count, and `...`
        let caps = dents_caps(5, false, &[&d[..60]]);
        assert_eq!(text(120, &caps, false), "3, 0x1000 /* 5 entries */, 32768");
        assert_eq!(
            text(120, &caps, true),
            "3, [{d_ino=100, d_off=1, d_reclen=24, d_type=DT_REG, d_name=\"e0\"}, \
             {d_ino=101, d_off=2, d_reclen=24, d_type=DT_REG, d_name=\"e1\"}, ...], 32768"
        );
        // the walk stopped short: strace's `N+`
        let caps = dents_caps(4, true, &[]);
        assert_eq!(text(120, &caps, false), "3, 0x1000 /* 4+ entries */, 32768");
        assert_eq!(text(120, &caps, true), "3, [...], 32768");
        assert_eq!(text(0, &[], false), "3, 0x1000 /* 0 entries */, 32768");
        assert_eq!(text(0, &[], true), "3, [], 32768");
        assert_eq!(text(-9, &[], true), "3, 0x1000, 32768");
    }

    #[test]
    fn read_stops_at_boundary_then_resumes() {
        let env = Env::default();
        let o = Options::default();
        let nr = 0;
        let w = write_args(
            CallView {
                nr,
                args: [3, 0x1000, 832, 0, 0, 0],
                enter: &[],
                exit: None,
            },
            &o,
            &env,
        );
        assert_eq!(w.s, "3, ");
        assert_eq!(w.boundary, Some(3));
        let mut c = cap(
            1,
            b"\x7fELF\x02\x01\x01\x03\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0P\x9f\x02\0\0\0\0\0\0\0",
        );
        c.aux = 832;
        let caps = [c];
        let w = write_args(
            CallView {
                nr,
                args: [3, 0x1000, 832, 0, 0, 0],
                enter: &[],
                exit: Some((832, &caps)),
            },
            &o,
            &env,
        );
        assert_eq!(
            w.s,
            r#"3, "\177ELF\2\1\1\3\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0P\237\2\0\0\0\0\0"..., 832"#
        );
        assert_eq!(
            &w.s[w.boundary.unwrap()..],
            r#""\177ELF\2\1\1\3\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0P\237\2\0\0\0\0\0"..., 832"#
        );
    }

    #[test]
    fn failed_stat_prints_pointer() {
        let s = render(
            "newfstatat",
            [(-100i64) as u64, 1, 0x7ffd0000, 0, 0, 0],
            &[cap(1, b"nope")],
            Some((-2, &[])),
        );
        assert_eq!(s, "AT_FDCWD, \"nope\", 0x7ffd0000, 0");
    }

    #[test]
    fn returns() {
        let mut s = String::new();
        format_return(&mut s, -2, Ret::Dec, Xlat::Abbrev);
        assert_eq!(s, "= -1 ENOENT (No such file or directory)");
        s.clear();
        format_return(&mut s, 0x7f0000001000, Ret::Hex, Xlat::Abbrev);
        assert_eq!(s, "= 0x7f0000001000");
    }

    /// Every decoder, fed arbitrary registers and arbitrary captured bytes
    /// (short, long, faulted, with elements), must print something sane and
    /// never panic: the kernel hands us whatever the program passed.
    #[test]
    fn every_decoder_survives_arbitrary_input() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let opts = [
            Options::default(),
            Options {
                verbose: true,
                xlat: Xlat::Verbose,
                hex: fmt::HexStr::All,
                strsize: 4,
            },
        ];
        let env = Env::default();
        let mut decoded = 0;
        for info in table::SYSCALLS {
            if decoder_for(info.nr).is_none() {
                continue;
            }
            decoded += 1;
            for round in 0..64 {
                let mut args = [0u64; 6];
                for a in args.iter_mut() {
                    *a = match rnd() % 4 {
                        0 => 0,
                        1 => rnd() % 64,
                        2 => (rnd() as i32) as i64 as u64,
                        _ => rnd(),
                    };
                }
                let mut caps = Vec::new();
                for _ in 0..rnd() % 8 {
                    let len = match rnd() % 4 {
                        0 => 0,
                        1 => (rnd() % 16) as usize,
                        2 => (rnd() % 300) as usize,
                        _ => 4096,
                    };
                    caps.push(Capture {
                        arg: (rnd() % 6) as u8,
                        item: match rnd() % 6 {
                            0 => CaptureItem::Elem,
                            1 => CaptureItem::Count,
                            2 => CaptureItem::Msghdr,
                            3 => CaptureItem::Name,
                            4 => CaptureItem::FdIno,
                            _ => CaptureItem::Data,
                        },
                        elem: (rnd() % 70) as u8,
                        fault: rnd() % 5 == 0,
                        truncated: rnd() % 3 == 0,
                        more: rnd() % 7 == 0,
                        aux: rnd() % 5000,
                        data: (0..len).map(|_| rnd() as u8).collect(),
                    });
                }
                let ret = match rnd() % 3 {
                    0 => -((rnd() % 140) as i64),
                    1 => (rnd() % 100) as i64,
                    _ => rnd() as i64,
                };
                let o = &opts[round % 2];
                let exit = (round % 3 != 0).then_some((ret, caps.as_slice()));
                let call = CallView {
                    nr: info.nr,
                    args,
                    enter: &caps,
                    exit,
                };
                let w = write_args(call, o, &env);
                if let Some(b) = w.boundary {
                    assert!(
                        b <= w.s.len() && w.s.is_char_boundary(b),
                        "{}: boundary {b} in {:?}",
                        info.name,
                        w.s
                    );
                }
                let kind = decoder_for(info.nr).map(|d| d.ret).unwrap_or(Ret::Dec);
                let r = return_text(info.name, call, kind, o.xlat);
                assert!(r.starts_with("= "), "{}: {r}", info.name);
            }
        }
        assert!(decoded > 150, "only {decoded} syscalls have decoders");
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc_date(1_700_000_000, 0), "2023-11-14T22:13:20+0000");
        assert_eq!(utc_date(0, 5), "1970-01-01T00:00:00.000000005+0000");
    }

    #[test]
    fn sigsets() {
        let mut s = String::new();
        sigset(&mut s, (1 << 1) | (1 << 14));
        assert_eq!(s, "[INT TERM]");
        s.clear();
        sigset(&mut s, 0);
        assert_eq!(s, "[]");
        // strace inverts at two thirds of the bits: 41 of 64 set is a list
        s.clear();
        sigset(&mut s, (1u64 << 41) - 1);
        assert!(s.starts_with("[HUP INT"), "{s}");
        s.clear();
        sigset(&mut s, (1u64 << 42) - 1);
        assert_eq!(s, "~[RT_11 RT_12 RT_13 RT_14 RT_15 RT_16 RT_17 RT_18 RT_19 RT_20 RT_21 RT_22 RT_23 RT_24 RT_25 RT_26 RT_27 RT_28 RT_29 RT_30 RT_31 RT_32]");
        // a 4-byte set (rt_sigpending) counts 32 bits; -X raw and verbose
        s.clear();
        sigset_n(&mut s, u64::MAX, 4, Xlat::Abbrev);
        assert_eq!(s, "~[]");
        s.clear();
        sigset_n(&mut s, 1 << 9, 8, Xlat::Raw);
        assert_eq!(s, "[10]");
        s.clear();
        sigset_n(&mut s, 1 << 9, 8, Xlat::Verbose);
        assert_eq!(s, "[10 /* USR1 */]");
    }
}

#[cfg(test)]
mod prctl_tests {
    use super::testutil::{cap, faulted};
    use super::*;

    /// The arguments and the return text of a prctl call.
    fn prctl_x(
        args: [u64; 5],
        enter: &[Capture],
        exit: Option<(i64, &[Capture])>,
        x: Xlat,
        mem: Option<&dyn Fn(u64, usize) -> Option<Vec<u8>>>,
    ) -> String {
        let o = Options {
            xlat: x,
            ..Options::default()
        };
        let env = Env {
            read_mem: mem,
            ..Env::default()
        };
        let nr = table::by_name("prctl").unwrap().nr;
        let call = CallView {
            nr,
            args: [args[0], args[1], args[2], args[3], args[4], 0],
            enter,
            exit,
        };
        let s = write_args(call, &o, &env).s;
        match exit {
            Some(_) => format!("{s}) {}", return_text("prctl", call, Ret::Dec, x)),
            None => s,
        }
    }

    fn prctl(args: [u64; 5], exit: Option<(i64, &[Capture])>) -> String {
        prctl_x(args, &[], exit, Xlat::Abbrev, None)
    }

    #[test]
    fn set_name_reads_at_most_15_bytes() {
        let mem = |_: u64, n: usize| Some(b"0123456789abcdef"[..n.min(16)].to_vec());
        let s = prctl_x(
            [15, 0x1000, 0, 0, 0],
            &[faulted(1)],
            Some((0, &[])),
            Xlat::Abbrev,
            Some(&mem),
        );
        assert_eq!(s, "PR_SET_NAME, \"0123456789abcde\"...) = 0");
        // the 15-byte view, when the string read ran into unreadable memory
        let s = prctl_x(
            [15, 0x1000, 0, 0, 0],
            &[faulted(1), cap(PRCTL_SLOT_NAME15 as u8, b"123456789abcdef")],
            Some((0, &[])),
            Xlat::Abbrev,
            None,
        );
        assert_eq!(s, "PR_SET_NAME, \"123456789abcdef\"...) = 0");
        // a NUL within 15 bytes: no dots; nothing readable: the address
        let s = prctl_x(
            [15, 0x1000, 0, 0, 0],
            &[cap(1, b"abc")],
            Some((0, &[])),
            Xlat::Abbrev,
            None,
        );
        assert_eq!(s, "PR_SET_NAME, \"abc\") = 0");
        let s = prctl_x(
            [15, 0x1000, 0, 0, 0],
            &[faulted(1)],
            Some((0, &[])),
            Xlat::Abbrev,
            None,
        );
        assert_eq!(s, "PR_SET_NAME, 0x1000) = 0");
        assert_eq!(
            prctl([15, 0, 0, 0, 0], Some((-14, &[]))),
            "PR_SET_NAME, NULL) = -1 EFAULT (Bad address)"
        );
    }

    #[test]
    fn option_is_an_unsigned_int_and_unknown_ones_show_all_args() {
        assert_eq!(
            prctl([0xbadc_0ded_0000_0007, 1, 2, 3, 4], Some((0, &[]))),
            "PR_GET_KEEPCAPS) = 0"
        );
        assert_eq!(
            prctl(
                [0xffff_ffff, 0xfffffffe, 0xfffffffd, 0xfffffffc, 0xfffffffb],
                None
            ),
            "0xffffffff /* PR_??? */, 0xfffffffe, 0xfffffffd, 0xfffffffc, 0xfffffffb"
        );
        let s = prctl_x([0xffff_ffff, 0, 1, 2, 3], &[], None, Xlat::Raw, None);
        assert_eq!(s, "0xffffffff, 0, 0x1, 0x2, 0x3");
        // names newer than strace 6.1 are not printed
        assert_eq!(
            prctl([65, 0, 0, 0, 0], None),
            "0x41 /* PR_??? */, 0, 0, 0, 0"
        );
    }

    #[test]
    fn int_outputs_at_exit() {
        let slot = PRCTL_SLOT_INT as u8;
        let int = |v: u32| [cap(slot, &v.to_le_bytes())];
        // the entry part ends with the separator, as strace's
        assert_eq!(prctl([2, 0x1000, 0, 0, 0], None), "PR_GET_PDEATHSIG, ");
        assert_eq!(
            prctl([2, 0x1000, 0, 0, 0], Some((0, &int(2)))),
            "PR_GET_PDEATHSIG, [SIGINT]) = 0"
        );
        assert_eq!(
            prctl([2, 0x1000, 0, 0, 0], Some((-14, &[]))),
            "PR_GET_PDEATHSIG, 0x1000) = -1 EFAULT (Bad address)"
        );
        assert_eq!(
            prctl([2, 0, 0, 0, 0], Some((-14, &[]))),
            "PR_GET_PDEATHSIG, NULL) = -1 EFAULT (Bad address)"
        );
        assert_eq!(
            prctl([37, 0x1000, 0, 0, 0], Some((0, &int(7)))),
            "PR_GET_CHILD_SUBREAPER, [7]) = 0"
        );
        assert_eq!(
            prctl([25, 0x1000, 0, 0, 0], Some((0, &int(2)))),
            "PR_GET_TSC, [PR_TSC_SIGSEGV]) = 0"
        );
        assert_eq!(
            prctl([25, 0x1000, 0, 0, 0], Some((0, &int(8)))),
            "PR_GET_TSC, [0x8 /* PR_TSC_??? */]) = 0"
        );
        assert_eq!(
            prctl([5, 0x1000, 0, 0, 0], Some((0, &int(7)))),
            "PR_GET_UNALIGN, [PR_UNALIGN_NOPRINT|PR_UNALIGN_SIGBUS|0x4]) = 0"
        );
        // a short capture is not read past its end
        assert_eq!(
            prctl([5, 0x1000, 0, 0, 0], Some((0, &[cap(slot, b"\x01")]))),
            "PR_GET_UNALIGN, 0x1000) = 0"
        );
        let kptr = [cap(PRCTL_SLOT_KPTR as u8, &0x7f00_1234u64.to_le_bytes())];
        assert_eq!(
            prctl([40, 0x1000, 0, 0, 0], Some((0, &kptr))),
            "PR_GET_TID_ADDRESS, [0x7f001234]) = 0"
        );
    }

    #[test]
    fn capture_plan_follows_the_option() {
        let p = plan("prctl", &Options::default());
        let args = |opt: u64| [opt | 0xbadc_0ded_0000_0000, 0x1000, 0, 0, 0x2000, 0];
        let takes = |slot: usize, opt: u64| {
            p[slot].kind != CapKind::None && p[slot].cond.is_some_and(|c| c.accepts(&args(opt)))
        };
        for opt in [2, 5, 9, 11, 19, 25, 37] {
            assert!(takes(PRCTL_SLOT_INT, opt), "{opt}");
        }
        assert!(takes(PRCTL_SLOT_FPROG, 22) && !takes(PRCTL_SLOT_FPROG, 2));
        assert_eq!(p[PRCTL_SLOT_INT].src_arg, Some(1));
        assert!(takes(PRCTL_SLOT_KPTR, 40));
        assert!(takes(PRCTL_SLOT_COOKIE, 62));
        assert_eq!(p[PRCTL_SLOT_COOKIE].src_arg, Some(4));
        assert!(takes(4, 0x5356_4d41) && !takes(4, 62));
        assert!(takes(1, 15) && takes(1, 16) && takes(PRCTL_SLOT_NAME15, 15));
        assert!(!takes(PRCTL_SLOT_NAME15, 16));
    }

    #[test]
    fn sched_core() {
        let get = [62, 0, 1234, 0, 0x2000];
        assert_eq!(
            prctl(get, None),
            "PR_SCHED_CORE, PR_SCHED_CORE_GET, 1234, 0 /* PIDTYPE_PID */, "
        );
        let cookie = [cap(
            PRCTL_SLOT_COOKIE as u8,
            &0xdeadc0debadc0dedu64.to_le_bytes(),
        )];
        assert_eq!(
            prctl(get, Some((0, &cookie))),
            "PR_SCHED_CORE, PR_SCHED_CORE_GET, 1234, 0 /* PIDTYPE_PID */, [0xdeadc0debadc0ded]) = 0"
        );
        let s = prctl_x(
            [62, 4, 0xffff_ffff, 0xffff_ffff, 0],
            &[],
            Some((-22, &[])),
            Xlat::Raw,
            None,
        );
        assert_eq!(
            s,
            "0x3e, 0x4, -1, 0xffffffff, NULL) = -1 EINVAL (Invalid argument)"
        );
        let s = prctl_x(
            [62, 1, 5, 1, 0x2000],
            &[],
            Some((-22, &[])),
            Xlat::Verbose,
            None,
        );
        assert_eq!(
            s,
            "0x3e /* PR_SCHED_CORE */, 0x1 /* PR_SCHED_CORE_CREATE */, 5, 0x1 /* PIDTYPE_TGID */, 0x2000) = -1 EINVAL (Invalid argument)"
        );
    }

    #[test]
    fn set_arguments() {
        assert_eq!(prctl([1, 200, 0, 0, 0], None), "PR_SET_PDEATHSIG, 200");
        assert_eq!(
            prctl([4, 3, 0, 0, 0], None),
            "PR_SET_DUMPABLE, 0x3 /* SUID_DUMP_??? */"
        );
        assert_eq!(
            prctl([23, 0xff, 0, 0, 0], None),
            "PR_CAPBSET_READ, 0xff /* CAP_??? */"
        );
        assert_eq!(
            prctl([47, 2, 13, 0, 0], None),
            "PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_RAW, 0, 0"
        );
        assert_eq!(
            prctl([33, 1, 0xff, 0, 0], None),
            "PR_MCE_KILL, PR_MCE_KILL_SET, 0xff /* PR_MCE_KILL_??? */, 0, 0"
        );
        assert_eq!(
            prctl([0x5961_6d61, 0xffff_ffff, 0, 0, 0], None),
            "PR_SET_PTRACER, PR_SET_PTRACER_ANY"
        );
        let s = prctl_x(
            [0x5961_6d61, 0xffff_ffff, 0, 0, 0],
            &[],
            None,
            Xlat::Verbose,
            None,
        );
        assert_eq!(
            s,
            "0x59616d61 /* PR_SET_PTRACER */, -1 /* PR_SET_PTRACER_ANY */"
        );
        assert_eq!(
            prctl([28, 0x100, 0, 0, 0], None),
            "PR_SET_SECUREBITS, 0x100 /* SECBIT_??? */"
        );
        assert_eq!(
            prctl([54, 0x1f, 1, 2, 3], None),
            "PR_PAC_RESET_KEYS, PR_PAC_APIAKEY|PR_PAC_APIBKEY|PR_PAC_APDAKEY|PR_PAC_APDBKEY|PR_PAC_APGAKEY, 0x1, 0x2, 0x3"
        );
        let s = prctl_x([60, 0x10, 0, 0, 0], &[], None, Xlat::Verbose, None);
        assert_eq!(
            s,
            "0x3c /* PR_PAC_SET_ENABLED_KEYS */, 0x10 /* PR_PAC_??? */, 0, 0, 0"
        );
        assert_eq!(
            prctl([53, 0, 4, 0, 0], None),
            "PR_SET_SPECULATION_CTRL, PR_SPEC_STORE_BYPASS, PR_SPEC_DISABLE"
        );
        assert_eq!(
            prctl([0x5356_4d41, 0, 0x1000, 5, 0], None),
            "PR_SET_VMA, PR_SET_VMA_ANON_NAME, 0x1000, 5, NULL"
        );
        assert_eq!(
            prctl([59, 1, 0x10, 0x20, 0], None),
            "PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0x10, 0x20, NULL"
        );
    }

    #[test]
    fn vector_lengths_and_tagged_addresses() {
        let sve = |v: u64, x| prctl_x([50, v, 0, 0, 0], &[], None, x, None);
        assert_eq!(sve(0, Xlat::Abbrev), "PR_SVE_SET_VL, 0");
        assert_eq!(sve(0, Xlat::Raw), "0x32, 0");
        assert_eq!(
            sve(0x6_001f, Xlat::Abbrev),
            "PR_SVE_SET_VL, PR_SVE_SET_VL_ONEXEC|PR_SVE_VL_INHERIT|0x1f"
        );
        assert_eq!(
            sve(0x8_001f, Xlat::Verbose),
            "0x32 /* PR_SVE_SET_VL */, 0x8001f /* 0x80000|0x1f */"
        );
        let tag = |v: u64, x| prctl_x([55, v, 0, 0, 0], &[], None, x, None);
        assert_eq!(
            tag(0, Xlat::Abbrev),
            "PR_SET_TAGGED_ADDR_CTRL, !PR_TAGGED_ADDR_ENABLE|PR_MTE_TCF_NONE, 0, 0, 0"
        );
        assert_eq!(
            tag(0x1_0003, Xlat::Verbose),
            "0x37 /* PR_SET_TAGGED_ADDR_CTRL */, 0x10003 /* PR_TAGGED_ADDR_ENABLE|PR_MTE_TCF_SYNC|0x2000<<PR_MTE_TAG_SHIFT */, 0, 0, 0"
        );
        assert_eq!(tag(0x1_0000_0000, Xlat::Raw), "0x37, 0x100000000, 0, 0, 0");
    }

    #[test]
    fn return_values_named_as_strace_does() {
        let ret = |args: [u64; 5], r: i64, x| {
            let s = prctl_x(args, &[], Some((r, &[])), x, None);
            s[s.find(") = ").unwrap() + 2..].to_string()
        };
        assert_eq!(
            ret([3, 0, 0, 0, 0], 1, Xlat::Abbrev),
            "= 1 (SUID_DUMP_USER)"
        );
        assert_eq!(ret([3, 0, 0, 0, 0], 1, Xlat::Raw), "= 1 (SUID_DUMP_USER)");
        assert_eq!(ret([3, 0, 0, 0, 0], 5, Xlat::Abbrev), "= 5");
        assert_eq!(
            ret([34, 0, 0, 0, 0], 2, Xlat::Abbrev),
            "= 2 (PR_MCE_KILL_DEFAULT)"
        );
        assert_eq!(ret([27, 0, 0, 0, 0], 0, Xlat::Abbrev), "= 0");
        assert_eq!(
            ret([27, 0, 0, 0, 0], 0x1ff, Xlat::Abbrev),
            "= 0x1ff (SECBIT_NOROOT|SECBIT_NOROOT_LOCKED|SECBIT_NO_SETUID_FIXUP|SECBIT_NO_SETUID_FIXUP_LOCKED|SECBIT_KEEP_CAPS|SECBIT_KEEP_CAPS_LOCKED|SECBIT_NO_CAP_AMBIENT_RAISE|SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED|0x100)"
        );
        assert_eq!(ret([27, 0, 0, 0, 0], 0x100, Xlat::Abbrev), "= 0x100");
        assert_eq!(ret([27, 0, 0, 0, 0], 3, Xlat::Raw), "= 0x3");
        assert_eq!(
            ret([27, 0, 0, 0, 0], 3, Xlat::Verbose),
            "= 0x3 (SECBIT_NOROOT|SECBIT_NOROOT_LOCKED)"
        );
        assert_eq!(
            ret([46, 0, 0, 0, 0], 3, Xlat::Abbrev),
            "= 0x3 (PR_FP_MODE_FR|PR_FP_MODE_FRE)"
        );
        assert_eq!(
            ret([52, 0, 0, 0, 0], 0, Xlat::Abbrev),
            "= 0 (PR_SPEC_NOT_AFFECTED)"
        );
        assert_eq!(
            ret([52, 0, 0, 0, 0], 3, Xlat::Abbrev),
            "= 0x3 (PR_SPEC_PRCTL|PR_SPEC_ENABLE)"
        );
        assert_eq!(ret([52, 3, 0, 0, 0], 3, Xlat::Abbrev), "= 3");
        assert_eq!(
            ret([51, 0, 0, 0, 0], 0x2_0010, Xlat::Abbrev),
            "= 0x20010 (PR_SVE_VL_INHERIT|0x10)"
        );
        assert_eq!(ret([51, 0, 0, 0, 0], 0x10, Xlat::Abbrev), "= 0x10");
        assert_eq!(ret([51, 0, 0, 0, 0], 0x2_0010, Xlat::Raw), "= 0x20010");
        assert_eq!(
            ret([56, 0, 0, 0, 0], 0, Xlat::Abbrev),
            "= 0 (!PR_TAGGED_ADDR_ENABLE|PR_MTE_TCF_NONE)"
        );
        assert_eq!(
            ret([56, 0, 0, 0, 0], 7, Xlat::Verbose),
            "= 0x7 (PR_TAGGED_ADDR_ENABLE|PR_MTE_TCF_MASK)"
        );
        assert_eq!(
            ret([61, 0, 0, 0, 0], 0x13, Xlat::Abbrev),
            "= 0x13 (PR_PAC_APIAKEY|PR_PAC_APIBKEY|0x10)"
        );
        assert_eq!(
            ret([61, 0, 0, 0, 0], -22, Xlat::Abbrev),
            "= -1 EINVAL (Invalid argument)"
        );
    }

    #[test]
    fn descriptor_paths_escaped_as_strace_prints_them() {
        assert_eq!(fd_path_text("/tmp/a"), "</tmp/a>");
        // '<' and '>' as octal, the rest as in a string
        assert_eq!(
            fd_path_text("/t/a<b>\"c\n\u{1}d"),
            "</t/a\\74b\\76\\\"c\\n\\1d>"
        );
        assert_eq!(fd_path_text("/t/x (deleted)"), "</t/x>(deleted)");
        // --decode-fds=dev's suffix stays as it is
        assert_eq!(fd_path_text("/dev/null<char 1:3>"), "</dev/null<char 1:3>>");
        assert_eq!(fd_path_text("/t/a<b"), "</t/a\\74b>");
    }
}
