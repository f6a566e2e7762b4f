//! The ptrace calls (a family decoded in its own module: see
//! [`super::family_decoder`]): the request, the pid, and the address and
//! data as each request reads them, with the structures strace prints
//! (siginfo, sigsets, registers and regsets, `struct ptrace_syscall_info`).
//!
//! Captures: the data argument's structure, whose size depends on the
//! request, comes through the `Ioc` capture kind with a key space of its own
//! (see [`IOC_SPACE`] and [`ioc_sizes`]); the rest through free slots copying
//! the data argument again under a condition on the request.

use std::fmt::Write;

use genba_events::{Capture, CaptureItem};

use super::{
    custom, fd, signal, table, ArgWriter, CallView, CapCond, CapKind, CapPlan, CapWhen, Decoder,
    Options, Ret, Ty,
};
use crate::consts as c;
use crate::fmt::{self, Xlat};

// ---- requests and their constants ----

const TRACEME: u64 = 0;
const PEEKTEXT: u64 = 1;
const PEEKDATA: u64 = 2;
const PEEKUSER: u64 = 3;
const POKEUSER: u64 = 6;
const CONT: u64 = 7;
const KILL: u64 = 8;
const SINGLESTEP: u64 = 9;
const GETREGS: u64 = 0xc;
const SETREGS: u64 = 0xd;
const GETFPREGS: u64 = 0xe;
const SETFPREGS: u64 = 0xf;
const ATTACH: u64 = 0x10;
const DETACH: u64 = 0x11;
const OLDSETOPTIONS: u64 = 0x15;
const SYSCALL: u64 = 0x18;
const SYSEMU: u64 = 0x1f;
const SYSEMU_SINGLESTEP: u64 = 0x20;
const SINGLEBLOCK: u64 = 0x21;
const SETOPTIONS: u64 = 0x4200;
const GETEVENTMSG: u64 = 0x4201;
const GETSIGINFO: u64 = 0x4202;
const SETSIGINFO: u64 = 0x4203;
const GETREGSET: u64 = 0x4204;
const SETREGSET: u64 = 0x4205;
const SEIZE: u64 = 0x4206;
const INTERRUPT: u64 = 0x4207;
const LISTEN: u64 = 0x4208;
const PEEKSIGINFO: u64 = 0x4209;
const GETSIGMASK: u64 = 0x420a;
const SETSIGMASK: u64 = 0x420b;
const SECCOMP_GET_FILTER: u64 = 0x420c;
const SECCOMP_GET_METADATA: u64 = 0x420d;
const GET_SYSCALL_INFO: u64 = 0x420e;

/// The requests x86_64 knows (`PTRACE_*`).
static REQUESTS: &[(u64, &str)] = &[
    (TRACEME, "PTRACE_TRACEME"),
    (PEEKTEXT, "PTRACE_PEEKTEXT"),
    (PEEKDATA, "PTRACE_PEEKDATA"),
    (PEEKUSER, "PTRACE_PEEKUSER"),
    (4, "PTRACE_POKETEXT"),
    (5, "PTRACE_POKEDATA"),
    (POKEUSER, "PTRACE_POKEUSER"),
    (CONT, "PTRACE_CONT"),
    (KILL, "PTRACE_KILL"),
    (SINGLESTEP, "PTRACE_SINGLESTEP"),
    (GETREGS, "PTRACE_GETREGS"),
    (SETREGS, "PTRACE_SETREGS"),
    (GETFPREGS, "PTRACE_GETFPREGS"),
    (SETFPREGS, "PTRACE_SETFPREGS"),
    (ATTACH, "PTRACE_ATTACH"),
    (DETACH, "PTRACE_DETACH"),
    (0x12, "PTRACE_GETFPXREGS"),
    (0x13, "PTRACE_SETFPXREGS"),
    (OLDSETOPTIONS, "PTRACE_OLDSETOPTIONS"),
    (SYSCALL, "PTRACE_SYSCALL"),
    (0x19, "PTRACE_GET_THREAD_AREA"),
    (0x1a, "PTRACE_SET_THREAD_AREA"),
    (0x1e, "PTRACE_ARCH_PRCTL"),
    (SYSEMU, "PTRACE_SYSEMU"),
    (SYSEMU_SINGLESTEP, "PTRACE_SYSEMU_SINGLESTEP"),
    (SINGLEBLOCK, "PTRACE_SINGLEBLOCK"),
    (SETOPTIONS, "PTRACE_SETOPTIONS"),
    (GETEVENTMSG, "PTRACE_GETEVENTMSG"),
    (GETSIGINFO, "PTRACE_GETSIGINFO"),
    (SETSIGINFO, "PTRACE_SETSIGINFO"),
    (GETREGSET, "PTRACE_GETREGSET"),
    (SETREGSET, "PTRACE_SETREGSET"),
    (SEIZE, "PTRACE_SEIZE"),
    (INTERRUPT, "PTRACE_INTERRUPT"),
    (LISTEN, "PTRACE_LISTEN"),
    (PEEKSIGINFO, "PTRACE_PEEKSIGINFO"),
    (GETSIGMASK, "PTRACE_GETSIGMASK"),
    (SETSIGMASK, "PTRACE_SETSIGMASK"),
    (SECCOMP_GET_FILTER, "PTRACE_SECCOMP_GET_FILTER"),
    (SECCOMP_GET_METADATA, "PTRACE_SECCOMP_GET_METADATA"),
    (GET_SYSCALL_INFO, "PTRACE_GET_SYSCALL_INFO"),
    (0x420f, "PTRACE_GET_RSEQ_CONFIGURATION"),
];

/// `PTRACE_O_*`.
static OPTIONS: &[(u64, &str)] = &[
    (0x1, "PTRACE_O_TRACESYSGOOD"),
    (0x2, "PTRACE_O_TRACEFORK"),
    (0x4, "PTRACE_O_TRACEVFORK"),
    (0x8, "PTRACE_O_TRACECLONE"),
    (0x10, "PTRACE_O_TRACEEXEC"),
    (0x20, "PTRACE_O_TRACEVFORKDONE"),
    (0x40, "PTRACE_O_TRACEEXIT"),
    (0x80, "PTRACE_O_TRACESECCOMP"),
    (0x10_0000, "PTRACE_O_EXITKILL"),
    (0x20_0000, "PTRACE_O_SUSPEND_SECCOMP"),
];

static PEEKSIGINFO_FLAGS: &[(u64, &str)] = &[(1, "PTRACE_PEEKSIGINFO_SHARED")];

static SECCOMP_FILTER_FLAGS: &[(u64, &str)] = &[
    (0x1, "SECCOMP_FILTER_FLAG_TSYNC"),
    (0x2, "SECCOMP_FILTER_FLAG_LOG"),
    (0x4, "SECCOMP_FILTER_FLAG_SPEC_ALLOW"),
    (0x8, "SECCOMP_FILTER_FLAG_NEW_LISTENER"),
    (0x10, "SECCOMP_FILTER_FLAG_TSYNC_ESRCH"),
    (0x20, "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV"),
];

/// The ELF note types of PTRACE_GETREGSET / PTRACE_SETREGSET.
static NT_TYPES: &[(u64, &str)] = &[
    (1, "NT_PRSTATUS"),
    (2, "NT_FPREGSET"),
    (3, "NT_PRPSINFO"),
    (4, "NT_PRXREG"),
    (5, "NT_PLATFORM"),
    (6, "NT_AUXV"),
    (7, "NT_GWINDOWS"),
    (8, "NT_ASRS"),
    (10, "NT_PSTATUS"),
    (13, "NT_PSINFO"),
    (14, "NT_PRCRED"),
    (15, "NT_UTSNAME"),
    (16, "NT_LWPSTATUS"),
    (17, "NT_LWPSINFO"),
    (20, "NT_PRFPXREG"),
    (0x100, "NT_PPC_VMX"),
    (0x101, "NT_PPC_SPE"),
    (0x102, "NT_PPC_VSX"),
    (0x103, "NT_PPC_TAR"),
    (0x104, "NT_PPC_PPR"),
    (0x105, "NT_PPC_DSCR"),
    (0x106, "NT_PPC_EBB"),
    (0x107, "NT_PPC_PMU"),
    (0x108, "NT_PPC_TM_CGPR"),
    (0x109, "NT_PPC_TM_CFPR"),
    (0x10a, "NT_PPC_TM_CVMX"),
    (0x10b, "NT_PPC_TM_CVSX"),
    (0x10c, "NT_PPC_TM_SPR"),
    (0x10d, "NT_PPC_TM_CTAR"),
    (0x10e, "NT_PPC_TM_CPPR"),
    (0x10f, "NT_PPC_TM_CDSCR"),
    (0x110, "NT_PPC_PKEY"),
    (0x200, "NT_386_TLS"),
    (0x201, "NT_386_IOPERM"),
    (0x202, "NT_X86_XSTATE"),
    (0x300, "NT_S390_HIGH_GPRS"),
    (0x301, "NT_S390_TIMER"),
    (0x302, "NT_S390_TODCMP"),
    (0x303, "NT_S390_TODPREG"),
    (0x304, "NT_S390_CTRS"),
    (0x305, "NT_S390_PREFIX"),
    (0x306, "NT_S390_LAST_BREAK"),
    (0x307, "NT_S390_SYSTEM_CALL"),
    (0x308, "NT_S390_TDB"),
    (0x309, "NT_S390_VXRS_LOW"),
    (0x30a, "NT_S390_VXRS_HIGH"),
    (0x30b, "NT_S390_GS_CB"),
    (0x30c, "NT_S390_GS_BC"),
    (0x30d, "NT_S390_RI_CB"),
    (0x30e, "NT_S390_PV_CPU_DATA"),
    (0x400, "NT_ARM_VFP"),
    (0x401, "NT_ARM_TLS"),
    (0x402, "NT_ARM_HW_BREAK"),
    (0x403, "NT_ARM_HW_WATCH"),
    (0x404, "NT_ARM_SYSTEM_CALL"),
    (0x405, "NT_ARM_SVE"),
    (0x406, "NT_ARM_PAC_MASK"),
    (0x407, "NT_ARM_PACA_KEYS"),
    (0x408, "NT_ARM_PACG_KEYS"),
    (0x409, "NT_ARM_TAGGED_ADDR_CTRL"),
    (0x40a, "NT_ARM_PAC_ENABLED_KEYS"),
    (0x40b, "NT_ARM_SSVE"),
    (0x40c, "NT_ARM_ZA"),
    (0x500, "NT_METAG_CBUF"),
    (0x501, "NT_METAG_RPIPE"),
    (0x502, "NT_METAG_TLS"),
    (0x600, "NT_ARC_V2"),
    (0x700, "NT_VMCOREDD"),
    (0x800, "NT_MIPS_DSP"),
    (0x801, "NT_MIPS_FP_MODE"),
    (0x802, "NT_MIPS_MSA"),
    (0xa00, "NT_LOONGARCH_CPUCFG"),
    (0xa01, "NT_LOONGARCH_CSR"),
    (0xa02, "NT_LOONGARCH_LSX"),
    (0xa03, "NT_LOONGARCH_LASX"),
    (0xa04, "NT_LOONGARCH_LBT"),
    (0x4649_4c45, "NT_FILE"),
    (0x46e6_2b7f, "NT_PRXFPREG"),
    (0x5349_4749, "NT_SIGINFO"),
];

static SYSCALL_INFO_OPS: &[(u64, &str)] = &[
    (0, "PTRACE_SYSCALL_INFO_NONE"),
    (1, "PTRACE_SYSCALL_INFO_ENTRY"),
    (2, "PTRACE_SYSCALL_INFO_EXIT"),
    (3, "PTRACE_SYSCALL_INFO_SECCOMP"),
];

const AUDIT_ARCH_X86_64: u32 = 0xc000_003e;

// ---- structure sizes ----

/// `siginfo_t`.
const SIGINFO: usize = 128;
/// `struct user_regs_struct` (NT_PRSTATUS, PTRACE_GETREGS).
const REGS: usize = 216;
/// `struct user_fpregs_struct` (NT_FPREGSET, PTRACE_GETFPREGS).
const FPREGS: usize = 512;
/// `struct ptrace_syscall_info` as far as strace reads it (to
/// `seccomp.ret_data`), and its parts' ends.
const PSI_SECCOMP_END: usize = 84;
const PSI_EXIT_END: usize = 33;

// ---- captures ----

/// The `Ioc` capture kind's key space for ptrace's requests (its `mult`).
pub(super) const IOC_SPACE: u8 = 0x70;

/// The bytes the data argument points to, by request, for the `Ioc`
/// capture of slot 3 (read at entry and again at exit): the keys in the
/// key space [`IOC_SPACE`], for [`super::ioctl_sizes`].
pub(super) fn ioc_sizes() -> Vec<(u32, u32)> {
    let sizes: &[(u64, usize)] = &[
        (PEEKTEXT, 8),
        (PEEKDATA, 8),
        (PEEKUSER, 8),
        (GETREGS, REGS),
        (SETREGS, REGS),
        (GETFPREGS, FPREGS),
        (SETFPREGS, FPREGS),
        (GETEVENTMSG, 8),
        (GETSIGINFO, SIGINFO),
        (SETSIGINFO, SIGINFO),
        (GETREGSET, 16),
        (SETREGSET, 16),
        (GETSIGMASK, 8),
        (SETSIGMASK, 8),
        (SECCOMP_GET_METADATA, 8),
    ];
    sizes
        .iter()
        .map(|&(req, n)| ((IOC_SPACE as u32) << 24 | req as u32, n as u32))
        .collect()
}

/// Free slots, each copying the data argument again.
const SLOT_SIGINFOS: usize = 0;
const SLOT_SYSCALL_INFO: usize = 1;
const SLOT_METADATA: usize = 4;
const SLOT_REGSET: usize = 5;
/// The most siginfos copied of PTRACE_PEEKSIGINFO's array.
const PEEKSIGINFO_MAX: u32 = 64;
/// `len_arg` of a constant length (genba.h's GENBA_LEN_CONST).
const LEN_CONST: u8 = 0x80;

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    match name {
        "ptrace" => Some(custom(dec_ptrace, Ret::Dec)),
        _ => None,
    }
}

/// The argument types a custom decoder of this family reads (their captures).
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    match name {
        "ptrace" => Some(&[]),
        _ => None,
    }
}

fn only(req: u64) -> Option<CapCond> {
    two(req, req)
}

fn two(a: u64, b: u64) -> Option<CapCond> {
    Some(CapCond {
        arg: 0,
        mask: u32::MAX,
        val: a as u32,
        val2: b as u32,
        bitmap: false,
    })
}

/// Captures beyond what the argument types ask for.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    if name != "ptrace" {
        return;
    }
    let data = |kind, when, max, cond| CapPlan {
        kind,
        when,
        max,
        cond,
        src_arg: Some(3),
        ..Default::default()
    };
    // the data argument's structure, as the request sizes it
    out[3] = CapPlan {
        kind: CapKind::Ioc,
        when: CapWhen::Both,
        len_arg: 0,
        mult: IOC_SPACE,
        max: FPREGS as u32,
        ..Default::default()
    };
    // PTRACE_PEEKSIGINFO's arguments (addr)
    out[2] = CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::Enter,
        max: 16,
        cond: only(PEEKSIGINFO),
        ..Default::default()
    };
    // and the siginfos it returned: as many as -s shows, one more for `...`
    let shown = (o.strsize as u32).clamp(1, PEEKSIGINFO_MAX);
    out[SLOT_SIGINFOS] = CapPlan {
        kind: CapKind::RetLen,
        when: CapWhen::ExitOk,
        mult: SIGINFO as u8,
        max: SIGINFO as u32 * shown,
        cond: only(PEEKSIGINFO),
        src_arg: Some(3),
        ..Default::default()
    };
    // struct ptrace_syscall_info, as much as the caller gave room for
    // (the decoder keeps what the kernel wrote of it)
    out[SLOT_SYSCALL_INFO] = CapPlan {
        kind: CapKind::ArgLen,
        when: CapWhen::ExitOk,
        len_arg: 2,
        max: PSI_SECCOMP_END as u32,
        cond: only(GET_SYSCALL_INFO),
        src_arg: Some(3),
        ..Default::default()
    };
    // the seccomp metadata's flags, after the call
    out[SLOT_METADATA] = data(
        CapKind::Fixed,
        CapWhen::ExitOk,
        16,
        only(SECCOMP_GET_METADATA),
    );
    // the registers the regset's one iovec points to
    out[SLOT_REGSET] = CapPlan {
        len_arg: LEN_CONST + 1,
        ..data(
            CapKind::Iov,
            CapWhen::Both,
            FPREGS as u32,
            two(GETREGSET, SETREGSET),
        )
    };
}

/// A successful return value's text, when this family shows more than the
/// number; false to leave it to the default.
pub(super) fn return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    let _ = (s, name, call, x);
    false
}

// ---- little readers that never panic ----

fn u16_at(d: &[u8], off: usize) -> u16 {
    d.get(off..off + 2)
        .map_or(0, |b| u16::from_le_bytes([b[0], b[1]]))
}

fn u32_at(d: &[u8], off: usize) -> u32 {
    d.get(off..off + 4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

fn u64_at(d: &[u8], off: usize) -> u64 {
    d.get(off..off + 8)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

/// The data copied for slot `slot` at entry (`exit` false) or exit, when
/// at least `len` bytes could be read.
fn copied<'a>(call: &CallView<'a>, slot: usize, exit: bool, len: usize) -> Option<&'a [u8]> {
    let caps: &[Capture] = if exit { call.exit?.1 } else { call.enter };
    caps.iter()
        .find(|c| c.arg as usize == slot && c.item == CaptureItem::Data && !c.fault)
        .map(|c| c.data.as_slice())
        .filter(|d| d.len() >= len)
}

/// The bytes of the regset's iovec's buffer, at entry or exit.
fn regset_bytes<'a>(call: &CallView<'a>, exit: bool) -> Option<&'a [u8]> {
    let caps: &[Capture] = if exit { call.exit?.1 } else { call.enter };
    caps.iter()
        .find(|c| {
            c.arg as usize == SLOT_REGSET && c.item == CaptureItem::Elem && c.elem == 0 && !c.fault
        })
        .map(|c| c.data.as_slice())
}

// ---- printers ----

/// An error number's name, as strace's print_err: `ENOENT`, with the number
/// (`2 /* ENOENT */`) in -Xverbose; `negated` for `-ENOENT`.
fn err(s: &mut String, v: i64, negated: bool, x: Xlat) {
    let e = if negated { v.wrapping_neg() } else { v };
    let name = i32::try_from(e)
        .ok()
        .and_then(c::errno_name)
        .map(|(n, _)| n);
    let num = |s: &mut String| {
        if negated {
            let _ = write!(s, "{v}");
        } else {
            let _ = write!(s, "{}", v as u64);
        }
    };
    let minus = if negated { "-" } else { "" };
    match (name, x) {
        (Some(n), Xlat::Abbrev) => {
            let _ = write!(s, "{minus}{n}");
        }
        (Some(n), Xlat::Verbose) => {
            num(s);
            let _ = write!(s, " /* {minus}{n} */");
        }
        _ => num(s),
    }
}

/// A syscall number of audit architecture `arch`: `__NR_read` (x86_64's
/// names only), the number when unknown.
fn syscall_name(s: &mut String, nr: u64, arch: u32, x: Xlat) {
    let name = (arch == AUDIT_ARCH_X86_64)
        .then(|| u32::try_from(nr).ok().and_then(table::by_nr))
        .flatten()
        .map(|i| i.name);
    match (name, x) {
        (Some(n), Xlat::Abbrev) => {
            let _ = write!(s, "__NR_{n}");
        }
        (Some(n), Xlat::Verbose) => {
            let _ = write!(s, "{nr} /* __NR_{n} */");
        }
        _ => {
            let _ = write!(s, "{nr}");
        }
    }
}

/// A signal mask of `len` bytes: `[USR1 TERM]`, `~[...]` when more than
/// half is set; the numbers in -Xraw, both in -Xverbose.
fn sigmask(s: &mut String, mask: u64, len: usize, x: Xlat) {
    let bits = (len * 8).min(64) as i32;
    let set: Vec<i32> = (1..=bits)
        .filter(|i| mask & (1u64 << (i - 1)) != 0)
        .collect();
    let (prefix, list): (&str, Vec<i32>) = if set.len() * 2 > bits as usize {
        (
            "~",
            (1..=bits)
                .filter(|i| mask & (1u64 << (i - 1)) == 0)
                .collect(),
        )
    } else {
        ("", set)
    };
    s.push_str(prefix);
    s.push('[');
    for (k, sig) in list.iter().enumerate() {
        if k > 0 {
            s.push(' ');
        }
        let name = c::signal_name(*sig);
        let short = name.strip_prefix("SIG").unwrap_or(&name);
        match x {
            Xlat::Abbrev => s.push_str(short),
            Xlat::Raw => {
                let _ = write!(s, "{sig}");
            }
            Xlat::Verbose => {
                let _ = write!(s, "{sig} /* {short} */");
            }
        }
    }
    s.push(']');
}

/// `si_code` values any signal may have.
static SI_CODES: &[(i32, &str)] = &[
    (0, "SI_USER"),
    (0x80, "SI_KERNEL"),
    (-1, "SI_QUEUE"),
    (-2, "SI_TIMER"),
    (-3, "SI_MESGQ"),
    (-4, "SI_ASYNCIO"),
    (-5, "SI_SIGIO"),
    (-6, "SI_TKILL"),
    (-7, "SI_DETHREAD"),
    (-60, "SI_ASYNCNL"),
];

/// The `si_code` names of one signal, from 1 up.
fn signal_codes(sig: i32) -> &'static [&'static str] {
    match sig {
        5 => &[
            "TRAP_BRKPT",
            "TRAP_TRACE",
            "TRAP_BRANCH",
            "TRAP_HWBKPT",
            "TRAP_UNK",
            "TRAP_PERF",
        ],
        17 => &[
            "CLD_EXITED",
            "CLD_KILLED",
            "CLD_DUMPED",
            "CLD_TRAPPED",
            "CLD_STOPPED",
            "CLD_CONTINUED",
        ],
        29 => &[
            "POLL_IN", "POLL_OUT", "POLL_MSG", "POLL_ERR", "POLL_PRI", "POLL_HUP",
        ],
        4 => &[
            "ILL_ILLOPC",
            "ILL_ILLOPN",
            "ILL_ILLADR",
            "ILL_ILLTRP",
            "ILL_PRVOPC",
            "ILL_PRVREG",
            "ILL_COPROC",
            "ILL_BADSTK",
        ],
        8 => &[
            "FPE_INTDIV",
            "FPE_INTOVF",
            "FPE_FLTDIV",
            "FPE_FLTOVF",
            "FPE_FLTUND",
            "FPE_FLTRES",
            "FPE_FLTINV",
            "FPE_FLTSUB",
            "",
            "",
            "",
            "",
            "",
            "FPE_FLTUNK",
            "FPE_CONDTRAP",
        ],
        11 => &[
            "SEGV_MAPERR",
            "SEGV_ACCERR",
            "SEGV_BNDERR",
            "SEGV_PKUERR",
            "SEGV_ACCADI",
            "SEGV_ADIDERR",
            "SEGV_ADIPERR",
            "SEGV_MTEAERR",
            "SEGV_MTESERR",
        ],
        7 => &[
            "BUS_ADRALN",
            "BUS_ADRERR",
            "BUS_OBJERR",
            "BUS_MCEERR_AR",
            "BUS_MCEERR_AO",
        ],
        31 => &["SYS_SECCOMP", "SYS_USER_DISPATCH"],
        _ => &[],
    }
}

fn si_code(s: &mut String, code: i32, sig: i32, x: Xlat) {
    let name = SI_CODES
        .iter()
        .find(|&&(v, _)| v == code)
        .map(|&(_, n)| n)
        .or_else(|| {
            usize::try_from(code)
                .ok()
                .and_then(|k| k.checked_sub(1))
                .and_then(|k| signal_codes(sig).get(k).copied())
                .filter(|n| !n.is_empty())
        });
    match (name, x) {
        (Some(n), Xlat::Abbrev) => s.push_str(n),
        (Some(n), Xlat::Verbose) => {
            let _ = write!(s, "{:#x} /* {n} */", code as u32);
        }
        _ => fmt::hex(s, code as u32 as u64),
    }
}

/// `siginfo_t` (128 bytes), as strace's printsiginfo.
fn siginfo(s: &mut String, d: &[u8], w: &ArgWriter<'_>) {
    let x = w.opts.xlat;
    let signo = u32_at(d, 0) as i32;
    let errno = u32_at(d, 4) as i32;
    let code = u32_at(d, 8) as i32;
    s.push('{');
    if signo == 0 {
        s.push('}');
        return;
    }
    s.push_str("si_signo=");
    signal(s, signo, x);
    s.push_str(", si_code=");
    si_code(s, code, signo, x);
    if errno != 0 {
        s.push_str(", si_errno=");
        err(s, errno as u32 as i64, false, x);
    }
    let pid = u32_at(d, 16) as i32;
    let uid = u32_at(d, 20);
    let ptr = u64_at(d, 24);
    let source = |s: &mut String| {
        let _ = write!(s, ", si_pid={pid}, si_uid={uid}");
    };
    let sigval = |s: &mut String| {
        let _ = write!(s, ", si_int={}, si_ptr=", u32_at(d, 24) as i32);
        fmt::ptr(s, ptr);
    };
    let field_ptr = |s: &mut String, name: &str, off: usize| {
        let _ = write!(s, ", {name}=");
        fmt::ptr(s, u64_at(d, off));
    };
    let band_fd = |s: &mut String| {
        let _ = write!(s, ", si_band={}, si_fd=", u64_at(d, 16) as i64);
        fd(s, u32_at(d, 24) as i32, w.env.fd_path);
    };
    if code <= 0 {
        match code {
            0 | -6 => source(s),
            -2 => {
                // strace's %#x: 0 without 0x
                match pid as u32 {
                    0 => s.push_str(", si_timerid=0"),
                    t => {
                        let _ = write!(s, ", si_timerid={t:#x}");
                    }
                }
                let _ = write!(s, ", si_overrun={}", uid as i32);
                sigval(s);
            }
            -5 => band_fd(s),
            _ => {
                source(s);
                if ptr != 0 {
                    sigval(s);
                }
            }
        }
    } else {
        match signo {
            17 => {
                source(s);
                let status = u32_at(d, 24) as i32;
                s.push_str(", si_status=");
                if code == 1 {
                    let _ = write!(s, "{status}");
                } else {
                    signal(s, status, x);
                }
                let _ = write!(
                    s,
                    ", si_utime={}, si_stime={}",
                    u64_at(d, 32) as i64,
                    u64_at(d, 40) as i64
                );
            }
            4 | 8 | 5 => field_ptr(s, "si_addr", 16),
            7 => {
                field_ptr(s, "si_addr", 16);
                if code == 4 || code == 5 {
                    let _ = write!(s, ", si_addr_lsb={:#x}", u16_at(d, 24));
                }
            }
            11 => {
                field_ptr(s, "si_addr", 16);
                match code {
                    3 => {
                        field_ptr(s, "si_lower", 32);
                        field_ptr(s, "si_upper", 40);
                    }
                    4 => {
                        let _ = write!(s, ", si_pkey={}", u32_at(d, 32));
                    }
                    _ => {}
                }
            }
            29 => {
                if (1..=6).contains(&code) {
                    band_fd(s);
                }
            }
            31 => {
                field_ptr(s, "si_call_addr", 16);
                let arch = u32_at(d, 28);
                s.push_str(", si_syscall=");
                syscall_name(s, u32_at(d, 24) as u64, arch, x);
                s.push_str(", si_arch=");
                fmt::enumv(
                    s,
                    arch as u64,
                    super::ioctl::AUDIT_ARCHES,
                    "AUDIT_ARCH_???",
                    x,
                    true,
                );
            }
            _ => {
                if pid != 0 || uid != 0 {
                    source(s);
                }
                if ptr != 0 {
                    sigval(s);
                }
            }
        }
    }
    s.push('}');
}

/// Hex numbers of `width` bytes, `[0x1, 0]`, no more than -s of them
/// without -v.
fn hex_array(s: &mut String, d: &[u8], width: usize, o: &Options) {
    s.push('[');
    for (k, chunk) in d.chunks_exact(width).enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        if !o.verbose && k >= o.strsize {
            s.push_str("...");
            break;
        }
        let v = if width == 4 {
            u32_at(chunk, 0) as u64
        } else {
            u64_at(chunk, 0)
        };
        fmt::hex(s, v);
    }
    s.push(']');
}

static PRSTATUS_FIELDS: &[&str] = &[
    "r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx", "rdx", "rsi",
    "rdi", "orig_rax", "rip", "cs", "eflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es", "fs",
    "gs",
];

/// `struct user_regs_struct` of `size` bytes at `addr`: the fields the
/// size covers (`d` holds at least `min(size, REGS)` bytes), `...` past it.
fn prstatus(s: &mut String, d: &[u8], size: usize) {
    let fetch = size.min(REGS);
    s.push('{');
    for (k, name) in PRSTATUS_FIELDS.iter().enumerate() {
        if k * 8 >= fetch {
            break;
        }
        if k > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{name}=");
        fmt::hex(s, u64_at(d, k * 8));
    }
    if size > REGS {
        s.push_str(", ...");
    }
    s.push('}');
}

/// `struct user_fpregs_struct` of `size` bytes.
fn fpregset(s: &mut String, d: &[u8], size: usize, o: &Options) {
    let fetch = size.min(FPREGS);
    let d = &d[..fetch.min(d.len())];
    let fields: &[(&str, usize, usize)] = &[
        ("cwd", 0, 2),
        ("swd", 2, 2),
        ("ftw", 4, 2),
        ("fop", 6, 2),
        ("rip", 8, 8),
        ("rdp", 16, 8),
        ("mxcsr", 24, 4),
        ("mxcr_mask", 28, 4),
    ];
    s.push('{');
    for &(name, off, width) in fields {
        if off >= fetch {
            break;
        }
        if off > 0 {
            s.push_str(", ");
        }
        let v = match width {
            2 => u16_at(d, off) as u64,
            4 => u32_at(d, off) as u64,
            _ => u64_at(d, off),
        };
        let _ = write!(s, "{name}=");
        fmt::hex(s, v);
    }
    for &(name, start, end) in &[
        ("st_space", 32, 160),
        ("xmm_space", 160, 416),
        ("padding", 416, 512),
    ] {
        if fetch > start {
            let _ = write!(s, ", {name}=");
            let stop = fetch.min(end).min(d.len());
            hex_array(s, d.get(start..stop).unwrap_or(&[]), 4, o);
        }
    }
    if size > FPREGS {
        s.push_str(", ...");
    }
    s.push('}');
}

/// Prints a register set of a size from the bytes copied.
type RegsPrinter = fn(&mut String, &[u8], usize, &Options);

/// A regset's buffer of `len` bytes at `base` (NT_PRSTATUS, NT_FPREGSET;
/// others as the address), `d` what was copied of it; the address when
/// the call failed (`failed`), the size is not whole words or the bytes
/// could not be read.
fn regset(
    s: &mut String,
    nt: u64,
    base: u64,
    len: u64,
    d: Option<&[u8]>,
    failed: bool,
    o: &Options,
) {
    let (whole, print): (usize, RegsPrinter) = match nt {
        1 => (REGS, |s, d, n, _| prstatus(s, d, n)),
        2 => (FPREGS, fpregset),
        _ => return fmt::ptr(s, base),
    };
    if len == 0 || len & 7 != 0 || failed {
        return fmt::ptr(s, base);
    }
    let size = usize::try_from(len).unwrap_or(usize::MAX);
    match d {
        Some(d) if d.len() >= size.min(whole) => print(s, d, size, o),
        _ => fmt::ptr(s, base),
    }
}

/// `struct user` offsets (PTRACE_PEEKUSER, PTRACE_POKEUSER), as strace
/// names them, with the last entry the size of the struct.
static USER_OFFSETS: &[(u64, &str)] = &[
    (0, "8*R15"),
    (8, "8*R14"),
    (16, "8*R13"),
    (24, "8*R12"),
    (32, "8*RBP"),
    (40, "8*RBX"),
    (48, "8*R11"),
    (56, "8*R10"),
    (64, "8*R9"),
    (72, "8*R8"),
    (80, "8*RAX"),
    (88, "8*RCX"),
    (96, "8*RDX"),
    (104, "8*RSI"),
    (112, "8*RDI"),
    (120, "8*ORIG_RAX"),
    (128, "8*RIP"),
    (136, "8*CS"),
    (144, "8*EFL"),
    (152, "8*RSP"),
    (160, "8*SS"),
    (216, "offsetof(struct user, u_fpvalid)"),
    (224, "offsetof(struct user, i387)"),
    (736, "offsetof(struct user, u_tsize)"),
    (744, "offsetof(struct user, u_dsize)"),
    (752, "offsetof(struct user, u_ssize)"),
    (760, "offsetof(struct user, start_code)"),
    (768, "offsetof(struct user, start_stack)"),
    (776, "offsetof(struct user, signal)"),
    (784, "offsetof(struct user, reserved)"),
    (792, "offsetof(struct user, u_ar0)"),
    (800, "offsetof(struct user, u_fpstate)"),
    (808, "offsetof(struct user, magic)"),
    (816, "offsetof(struct user, u_comm)"),
    (848, "offsetof(struct user, u_debugreg)"),
    (912, "sizeof(struct user)"),
];

fn user_offset(s: &mut String, addr: u64, x: Xlat) {
    let entry = USER_OFFSETS.iter().rev().find(|&&(off, _)| off <= addr);
    let last = USER_OFFSETS.last().map_or(0, |&(off, _)| off);
    let name = entry.filter(|&&(off, _)| !(addr > off && off == last));
    let Some(&(base, name)) = name else {
        return fmt::ptr(s, addr);
    };
    if x != Xlat::Abbrev {
        fmt::ptr(s, addr);
    }
    if x == Xlat::Raw {
        return;
    }
    if x == Xlat::Verbose {
        s.push_str(" /* ");
    }
    s.push_str(name);
    if addr != base {
        let _ = write!(s, "+{}", addr - base);
    }
    if x == Xlat::Verbose {
        s.push_str(" */");
    }
}

/// `struct ptrace_syscall_info`: `user_len` the size the caller gave.
fn syscall_info(s: &mut String, call: &CallView<'_>, addr: u64, user_len: u64, x: Xlat) {
    let ret = call.ret().unwrap_or(0).max(0) as u64;
    let fetch = user_len.min(ret).min(PSI_SECCOMP_END as u64) as usize;
    let d = match copied(call, SLOT_SYSCALL_INFO, true, fetch) {
        Some(d) if fetch > 0 => d,
        _ => return fmt::ptr(s, addr),
    };
    let op = d[0];
    s.push_str("{op=");
    fmt::enumv(
        s,
        op as u64,
        SYSCALL_INFO_OPS,
        "PTRACE_SYSCALL_INFO_???",
        x,
        true,
    );
    let arch = u32_at(d, 4);
    'fields: {
        if fetch < 8 {
            break 'fields;
        }
        s.push_str(", arch=");
        fmt::enumv(
            s,
            arch as u64,
            super::ioctl::AUDIT_ARCHES,
            "AUDIT_ARCH_???",
            x,
            true,
        );
        for (name, end) in [("instruction_pointer", 16), ("stack_pointer", 24)] {
            if fetch < end {
                break 'fields;
            }
            let _ = write!(s, ", {name}=");
            fmt::ptr(s, u64_at(d, end - 8));
        }
        if fetch < 32 {
            break 'fields;
        }
        let args = |s: &mut String, seccomp: bool| {
            s.push_str("{nr=");
            syscall_name(s, u64_at(d, 24), arch, x);
            let nargs = ((fetch - 32) / 8).min(6);
            if nargs > 0 {
                s.push_str(", args=[");
                for k in 0..nargs {
                    if k > 0 {
                        s.push_str(", ");
                    }
                    fmt::hex(s, u64_at(d, 32 + 8 * k));
                }
                s.push(']');
            }
            if seccomp && fetch >= PSI_SECCOMP_END {
                let _ = write!(s, ", ret_data={}", u32_at(d, 80));
            }
            s.push('}');
        };
        match op {
            1 => {
                s.push_str(", entry=");
                args(s, false);
            }
            3 => {
                s.push_str(", seccomp=");
                args(s, true);
            }
            2 => {
                let rval = u64_at(d, 24) as i64;
                let full = fetch >= PSI_EXIT_END;
                let is_error = d.get(32).copied().unwrap_or(0);
                s.push_str(", exit={rval=");
                if full && is_error != 0 {
                    err(s, rval, true, x);
                } else {
                    let _ = write!(s, "{rval}");
                }
                if full {
                    let _ = write!(s, ", is_error={is_error}");
                }
                s.push('}');
            }
            _ => {}
        }
    }
    s.push('}');
}

/// PTRACE_PEEKSIGINFO's arguments: `{off=, flags=, nr=}`.
fn peeksiginfo_args(s: &mut String, call: &CallView<'_>, addr: u64, x: Xlat) {
    match copied(call, 2, false, 16) {
        Some(d) if addr != 0 => {
            let _ = write!(s, "{{off={}, flags=", u64_at(d, 0));
            fmt::flags_hinted(s, u32_at(d, 8) as u64, PEEKSIGINFO_FLAGS, x);
            let _ = write!(s, ", nr={}}}", u32_at(d, 12));
        }
        _ => fmt::ptr(s, addr),
    }
}

/// The siginfos PTRACE_PEEKSIGINFO returned (`n` of them).
fn siginfo_array(s: &mut String, w: &ArgWriter<'_>, addr: u64, n: u64) {
    if n == 0 {
        return s.push_str("[]");
    }
    let d = copied(&w.call, SLOT_SIGINFOS, true, SIGINFO).unwrap_or(&[]);
    if d.is_empty() {
        return fmt::ptr(s, addr);
    }
    s.push('[');
    let have = (d.len() / SIGINFO) as u64;
    for k in 0..n {
        if k > 0 {
            s.push_str(", ");
        }
        if !w.opts.verbose && k >= w.opts.strsize as u64 {
            s.push_str("...");
            break;
        }
        if k >= have {
            s.push_str("...");
            break;
        }
        let at = k as usize * SIGINFO;
        siginfo(s, &d[at..at + SIGINFO], w);
    }
    s.push(']');
}

fn dec_ptrace(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let (req, pid, addr, data) = (a[0], a[1] as i32, a[2], a[3]);
    let x = w.opts.xlat;
    let o = w.opts;
    w.sep();
    fmt::enumv(&mut w.s, req, REQUESTS, "PTRACE_???", x, true);
    if req == TRACEME {
        return;
    }
    w.sep();
    let _ = write!(w.s, "{pid}");
    if matches!(req, ATTACH | INTERRUPT | KILL | LISTEN) {
        return;
    }
    let call = w.call;
    let failed = call.ret().is_some_and(|r| r < 0);
    // the registers: data only, the address is not shown
    if matches!(req, GETREGS | SETREGS | GETFPREGS | SETFPREGS) {
        let size = if matches!(req, GETREGS | SETREGS) {
            REGS
        } else {
            FPREGS
        };
        let get = matches!(req, GETREGS | GETFPREGS);
        if get {
            if !w.exiting() {
                return;
            }
        } else {
            w.sep();
        }
        let d = copied(&call, 3, get, size).filter(|_| !(get && failed));
        match d {
            Some(d) if size == REGS => prstatus(&mut w.s, d, size),
            Some(d) => fpregset(&mut w.s, d, size, o),
            None => fmt::ptr(&mut w.s, data),
        }
        return;
    }
    w.sep();
    match req {
        PEEKUSER | POKEUSER => user_offset(&mut w.s, addr, x),
        GETREGSET | SETREGSET => fmt::enumv(&mut w.s, addr, NT_TYPES, "NT_???", x, true),
        GETSIGMASK | SETSIGMASK | SECCOMP_GET_FILTER | SECCOMP_GET_METADATA | GET_SYSCALL_INFO => {
            let _ = write!(w.s, "{addr}");
        }
        PEEKSIGINFO => peeksiginfo_args(&mut w.s, &call, addr, x),
        _ => fmt::ptr(&mut w.s, addr),
    }
    match req {
        CONT | DETACH | SYSCALL | SINGLESTEP | SINGLEBLOCK | SYSEMU | SYSEMU_SINGLESTEP => {
            w.sep();
            signal(&mut w.s, data as i32, x);
        }
        SEIZE | SETOPTIONS | OLDSETOPTIONS => {
            w.sep();
            fmt::flags_hinted(&mut w.s, data, OPTIONS, x);
        }
        SETSIGINFO => {
            w.sep();
            match copied(&call, 3, false, SIGINFO) {
                Some(d) => {
                    let mut t = String::new();
                    siginfo(&mut t, d, w);
                    w.s.push_str(&t);
                }
                None => fmt::ptr(&mut w.s, data),
            }
        }
        SETSIGMASK => {
            w.sep();
            sigset_arg(&mut w.s, &call, data, addr, false, x);
        }
        GETREGSET => {
            if copied(&call, 3, false, 16).is_none() {
                w.sep();
                return fmt::ptr(&mut w.s, data);
            }
            if !w.exiting() {
                return;
            }
            let Some(iov) = copied(&call, 3, true, 16) else {
                return fmt::ptr(&mut w.s, data);
            };
            let old = u64_at(copied(&call, 3, false, 16).unwrap_or(iov), 8);
            let (base, len) = (u64_at(iov, 0), u64_at(iov, 8));
            w.s.push_str("{iov_base=");
            regset(
                &mut w.s,
                addr,
                base,
                len,
                regset_bytes(&call, true),
                failed,
                o,
            );
            let _ = write!(w.s, ", iov_len={old}");
            if old != len {
                let _ = write!(w.s, " => {len}");
            }
            w.s.push('}');
        }
        SETREGSET => {
            w.sep();
            let Some(iov) = copied(&call, 3, false, 16) else {
                return fmt::ptr(&mut w.s, data);
            };
            let (base, len) = (u64_at(iov, 0), u64_at(iov, 8));
            w.s.push_str("{iov_base=");
            regset(
                &mut w.s,
                addr,
                base,
                len,
                regset_bytes(&call, false),
                false,
                o,
            );
            let _ = write!(w.s, ", iov_len={len}");
            if !w.exiting_inside() {
                return;
            }
            if let Some(after) = copied(&call, 3, true, 16) {
                let now = u64_at(after, 8);
                if now != len {
                    let _ = write!(w.s, " => {now}");
                }
            }
            w.s.push('}');
        }
        SECCOMP_GET_METADATA => {
            w.sep();
            let filter_off = copied(&call, 3, false, 8);
            let Some(d) = filter_off.filter(|_| addr >= 8) else {
                return fmt::ptr(&mut w.s, data);
            };
            let _ = write!(w.s, "{{filter_off={}", u64_at(d, 0));
            if !w.exiting_inside() {
                return;
            }
            let size = call.ret().unwrap_or(-1);
            if size > 8 {
                w.s.push_str(", ");
                match copied(&call, SLOT_METADATA, true, 16) {
                    Some(m) if size >= 16 => {
                        w.s.push_str("flags=");
                        fmt::flags_hinted(&mut w.s, u64_at(m, 8), SECCOMP_FILTER_FLAGS, x);
                        if size > 16 {
                            w.s.push_str(", ...");
                        }
                    }
                    _ => w.s.push_str("???"),
                }
            }
            w.s.push('}');
        }
        PEEKTEXT | PEEKDATA | PEEKUSER | GETEVENTMSG | GETSIGINFO | GETSIGMASK | PEEKSIGINFO
        | SECCOMP_GET_FILTER | GET_SYSCALL_INFO => {
            if !w.exiting() {
                return;
            }
            if failed {
                return fmt::ptr(&mut w.s, data);
            }
            let out = copied(&call, 3, true, 8);
            match req {
                PEEKTEXT | PEEKDATA | PEEKUSER => match out {
                    Some(d) => {
                        w.s.push('[');
                        fmt::ptr(&mut w.s, u64_at(d, 0));
                        w.s.push(']');
                    }
                    None => fmt::ptr(&mut w.s, data),
                },
                GETEVENTMSG => match out {
                    Some(d) => {
                        let _ = write!(w.s, "[{}]", u64_at(d, 0));
                    }
                    None => fmt::ptr(&mut w.s, data),
                },
                GETSIGINFO => match copied(&call, 3, true, SIGINFO) {
                    Some(d) => {
                        let mut t = String::new();
                        siginfo(&mut t, d, w);
                        w.s.push_str(&t);
                    }
                    None => fmt::ptr(&mut w.s, data),
                },
                GETSIGMASK => sigset_arg(&mut w.s, &call, data, addr, true, x),
                PEEKSIGINFO => {
                    let n = call.ret().unwrap_or(0).max(0) as u64;
                    let mut t = String::new();
                    siginfo_array(&mut t, w, data, n);
                    w.s.push_str(&t);
                }
                GET_SYSCALL_INFO => syscall_info(&mut w.s, &call, data, addr, x),
                // the filter's instructions are not copied
                _ => fmt::ptr(&mut w.s, data),
            }
        }
        _ => {
            w.sep();
            fmt::ptr(&mut w.s, data);
        }
    }
}

/// PTRACE_GETSIGMASK's and PTRACE_SETSIGMASK's mask of `len` bytes (only
/// a sigset_t's 8 are valid).
fn sigset_arg(s: &mut String, call: &CallView<'_>, data: u64, len: u64, exit: bool, x: Xlat) {
    if len != 8 {
        return fmt::ptr(s, data);
    }
    match copied(call, 3, exit, 8) {
        Some(d) => sigmask(s, u64_at(d, 0), 8, x),
        None => fmt::ptr(s, data),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{write_args, Env};

    fn cap(arg: u8, data: Vec<u8>) -> Capture {
        crate::decode::testutil::cap(arg, &data)
    }

    fn ptrace_nr() -> u32 {
        table::SYSCALLS
            .iter()
            .find(|s| s.name == "ptrace")
            .map(|s| s.nr)
            .unwrap()
    }

    fn text(args: [u64; 6], enter: &[Capture], exit: Option<(i64, &[Capture])>, x: Xlat) -> String {
        let o = Options {
            xlat: x,
            ..Options::default()
        };
        let env = Env::default();
        let call = CallView {
            nr: ptrace_nr(),
            args,
            enter,
            exit,
        };
        write_args(call, &o, &env).s
    }

    #[test]
    fn setsiginfo_seccomp_and_timer() {
        let mut d = vec![0u8; SIGINFO];
        d[0..4].copy_from_slice(&31i32.to_le_bytes());
        d[4..8].copy_from_slice(&2i32.to_le_bytes());
        d[8..12].copy_from_slice(&1i32.to_le_bytes());
        d[16..24].copy_from_slice(&0xfacefeeddeadbeefu64.to_le_bytes());
        d[28..32].copy_from_slice(&AUDIT_ARCH_X86_64.to_le_bytes());
        let enter = [cap(3, d.clone())];
        let args = [SETSIGINFO, 42, 0, 0x1000, 0, 0];
        let exit = Some((-3i64, &[][..]));
        assert_eq!(
            text(args, &enter, exit, Xlat::Abbrev),
            "PTRACE_SETSIGINFO, 42, NULL, {si_signo=SIGSYS, si_code=SYS_SECCOMP, \
             si_errno=ENOENT, si_call_addr=0xfacefeeddeadbeef, si_syscall=__NR_read, \
             si_arch=AUDIT_ARCH_X86_64}"
        );
        assert_eq!(
            text(args, &enter, exit, Xlat::Verbose),
            "0x4203 /* PTRACE_SETSIGINFO */, 42, NULL, {si_signo=31 /* SIGSYS */, \
             si_code=0x1 /* SYS_SECCOMP */, si_errno=2 /* ENOENT */, \
             si_call_addr=0xfacefeeddeadbeef, si_syscall=0 /* __NR_read */, \
             si_arch=0xc000003e /* AUDIT_ARCH_X86_64 */}"
        );
        // a timer's: the code is generic, the fields the timer's
        d[0..4].copy_from_slice(&1i32.to_le_bytes());
        d[8..12].copy_from_slice(&(-2i32).to_le_bytes());
        d[16..20].copy_from_slice(&0xdeadbeefu32.to_le_bytes());
        d[20..24].copy_from_slice(&(-1i32).to_le_bytes());
        d[24..32].copy_from_slice(&0xfacefeeddeadbeefu64.to_le_bytes());
        let enter = [cap(3, d)];
        assert_eq!(
            text(args, &enter, exit, Xlat::Raw),
            "0x4203, 42, NULL, {si_signo=1, si_code=0xfffffffe, si_errno=2, \
             si_timerid=0xdeadbeef, si_overrun=-1, si_int=-559038737, \
             si_ptr=0xfacefeeddeadbeef}"
        );
    }

    #[test]
    fn regset_lengths_and_syscall_info_exit() {
        // an iovec whose length the kernel cut: 224 => 216
        let base = 0x7000u64;
        let iov = |len: u64| {
            let mut v = base.to_le_bytes().to_vec();
            v.extend_from_slice(&len.to_le_bytes());
            v
        };
        let mut regs = cap(SLOT_REGSET as u8, vec![0; REGS]);
        regs.item = CaptureItem::Elem;
        regs.data[0] = 0x39;
        let enter = [cap(3, iov(224))];
        let exit_caps = [cap(3, iov(216)), regs];
        let args = [GETREGSET, 7, 1, 0x1000, 0, 0];
        let s = text(args, &enter, Some((0, &exit_caps)), Xlat::Abbrev);
        assert!(
            s.starts_with("PTRACE_GETREGSET, 7, NT_PRSTATUS, {iov_base={r15=0x39, r14=0,"),
            "{s}"
        );
        assert!(s.ends_with(", gs=0}, iov_len=224 => 216}"), "{s}");
        // not whole words: the address
        let exit_caps = [cap(3, iov(9))];
        let enter = [cap(3, iov(9))];
        assert_eq!(
            text(args, &enter, Some((-22, &exit_caps)), Xlat::Abbrev),
            "PTRACE_GETREGSET, 7, NT_PRSTATUS, {iov_base=0x7000, iov_len=9}"
        );
        // an exit's struct ptrace_syscall_info, its error named
        let mut d = vec![0u8; 40];
        d[0] = 2;
        d[4..8].copy_from_slice(&AUDIT_ARCH_X86_64.to_le_bytes());
        d[24..32].copy_from_slice(&(-2i64).to_le_bytes());
        d[32] = 1;
        let exit_caps = [cap(SLOT_SYSCALL_INFO as u8, d)];
        let args = [GET_SYSCALL_INFO, 7, 40, 0x1000, 0, 0];
        let s = text(args, &[], Some((33, &exit_caps)), Xlat::Abbrev);
        assert_eq!(
            s,
            "PTRACE_GET_SYSCALL_INFO, 7, 40, {op=PTRACE_SYSCALL_INFO_EXIT, \
             arch=AUDIT_ARCH_X86_64, instruction_pointer=NULL, stack_pointer=NULL, \
             exit={rval=-ENOENT, is_error=1}}"
        );
    }

    #[test]
    fn ioc_keys_stay_apart_from_ioctls() {
        let ioctls: Vec<u32> = super::super::ioctl::SIZES.iter().map(|&(r, _)| r).collect();
        for (k, _) in ioc_sizes() {
            assert_eq!(k >> 24, IOC_SPACE as u32);
            assert!(!ioctls.contains(&k), "{k:#x}");
        }
    }
}
