//! A long tail of calls, each small (a family decoded in its own module: see
//! [`super::family_decoder`]): credentials, kernel modules, protection keys,
//! device numbers and the like, printed as strace 6.1 prints them.

use std::fmt::Write;

use super::{
    arg, custom, date_comment, le_i64, le_u32, le_u64, signal, ArgWriter, CallView, CapKind,
    CapPlan, CapWhen, Decoder, Options, Ret, Ty, Ty::*,
};
use crate::consts as c;
use crate::fmt::{self, Xlat};

/// `PKEY_*` access rights (pkey_alloc).
static PKEY_ACCESS: &[(u64, &str)] = &[
    (1, "PKEY_DISABLE_ACCESS"),
    (2, "PKEY_DISABLE_WRITE"),
    (4, "PKEY_DISABLE_EXECUTE"),
];

/// delete_module's flags.
static DELETE_MODULE_FLAGS: &[(u64, &str)] = &[(0o4000, "O_NONBLOCK"), (0o1000, "O_TRUNC")];

/// finit_module's flags.
static MODULE_INIT_FLAGS: &[(u64, &str)] = &[
    (1, "MODULE_INIT_IGNORE_MODVERSIONS"),
    (2, "MODULE_INIT_IGNORE_VERMAGIC"),
    (4, "MODULE_INIT_COMPRESSED_FILE"),
];

/// kexec_file_load's flags.
static KEXEC_FILE_FLAGS: &[(u64, &str)] = &[
    (1, "KEXEC_FILE_UNLOAD"),
    (2, "KEXEC_FILE_ON_CRASH"),
    (4, "KEXEC_FILE_NO_INITRAMFS"),
];

/// `SIGEV_*` notification kinds.
static SIGEV_NOTIFY: &[(u64, &str)] = &[
    (0, "SIGEV_SIGNAL"),
    (1, "SIGEV_NONE"),
    (2, "SIGEV_THREAD"),
    (4, "SIGEV_THREAD_ID"),
];

/// sync_file_range's flags.
static SYNC_FILE_RANGE_FLAGS: &[(u64, &str)] = &[
    (1, "SYNC_FILE_RANGE_WAIT_BEFORE"),
    (2, "SYNC_FILE_RANGE_WRITE"),
    (4, "SYNC_FILE_RANGE_WAIT_AFTER"),
];

/// signalfd4's flags.
static SFD_FLAGS: &[(u64, &str)] = &[(0o2000000, "SFD_CLOEXEC"), (0o4000, "SFD_NONBLOCK")];

/// syslog's actions.
static SYSLOG_ACTIONS: &[(u64, &str)] = &[
    (0, "SYSLOG_ACTION_CLOSE"),
    (1, "SYSLOG_ACTION_OPEN"),
    (2, "SYSLOG_ACTION_READ"),
    (3, "SYSLOG_ACTION_READ_ALL"),
    (4, "SYSLOG_ACTION_READ_CLEAR"),
    (5, "SYSLOG_ACTION_CLEAR"),
    (6, "SYSLOG_ACTION_CONSOLE_OFF"),
    (7, "SYSLOG_ACTION_CONSOLE_ON"),
    (8, "SYSLOG_ACTION_CONSOLE_LEVEL"),
    (9, "SYSLOG_ACTION_SIZE_UNREAD"),
    (10, "SYSLOG_ACTION_SIZE_BUFFER"),
];

/// The console log levels (syslog's SYSLOG_ACTION_CONSOLE_LEVEL).
static LOGLEVELS: &[(u64, &str)] = &[
    (0, "LOGLEVEL_EMERG"),
    (1, "LOGLEVEL_ALERT"),
    (2, "LOGLEVEL_CRIT"),
    (3, "LOGLEVEL_ERR"),
    (4, "LOGLEVEL_WARNING"),
    (5, "LOGLEVEL_NOTICE"),
    (6, "LOGLEVEL_INFO"),
    (7, "LOGLEVEL_DEBUG"),
    (8, "LOGLEVEL_DEBUG+1"),
];

/// swapon's flags (the priority aside).
static SWAP_FLAGS: &[(u64, &str)] = &[
    (0x8000, "SWAP_FLAG_PREFER"),
    (0x10000, "SWAP_FLAG_DISCARD"),
    (0x20000, "SWAP_FLAG_DISCARD_ONCE"),
    (0x40000, "SWAP_FLAG_DISCARD_PAGES"),
];

/// reboot's first magic number.
static REBOOT_MAGIC1: &[(u64, &str)] = &[(0xfee1dead, "LINUX_REBOOT_MAGIC1")];

/// reboot's second magic number.
static REBOOT_MAGIC2: &[(u64, &str)] = &[
    (672274793, "LINUX_REBOOT_MAGIC2"),
    (85072278, "LINUX_REBOOT_MAGIC2A"),
    (369367448, "LINUX_REBOOT_MAGIC2B"),
    (537993216, "LINUX_REBOOT_MAGIC2C"),
];

/// reboot's commands.
static REBOOT_CMDS: &[(u64, &str)] = &[
    (0x01234567, "LINUX_REBOOT_CMD_RESTART"),
    (0xCDEF0123, "LINUX_REBOOT_CMD_HALT"),
    (0x89ABCDEF, "LINUX_REBOOT_CMD_CAD_ON"),
    (0x00000000, "LINUX_REBOOT_CMD_CAD_OFF"),
    (0x4321FEDC, "LINUX_REBOOT_CMD_POWER_OFF"),
    (0xA1B2C3D4, "LINUX_REBOOT_CMD_RESTART2"),
    (0xD000FCE2, "LINUX_REBOOT_CMD_SW_SUSPEND"),
    (0x45584543, "LINUX_REBOOT_CMD_KEXEC"),
];

/// LINUX_REBOOT_CMD_RESTART2's string: the kernel copies at most 255 bytes.
const REBOOT_ARG_MAX: usize = 255;

/// unshare's flags.
static UNSHARE_FLAGS: &[(u64, &str)] = &[
    (0x80, "CLONE_NEWTIME"),
    (0x100, "CLONE_VM"),
    (0x200, "CLONE_FS"),
    (0x400, "CLONE_FILES"),
    (0x800, "CLONE_SIGHAND"),
    (0x10000, "CLONE_THREAD"),
    (0x20000, "CLONE_NEWNS"),
    (0x40000, "CLONE_SYSVSEM"),
    (0x2000000, "CLONE_NEWCGROUP"),
    (0x4000000, "CLONE_NEWUTS"),
    (0x8000000, "CLONE_NEWIPC"),
    (0x10000000, "CLONE_NEWUSER"),
    (0x20000000, "CLONE_NEWPID"),
    (0x40000000, "CLONE_NEWNET"),
];

/// setns's namespace types.
static SETNS_TYPES: &[(u64, &str)] = &[
    (0x80, "CLONE_NEWTIME"),
    (0x20000, "CLONE_NEWNS"),
    (0x2000000, "CLONE_NEWCGROUP"),
    (0x4000000, "CLONE_NEWUTS"),
    (0x8000000, "CLONE_NEWIPC"),
    (0x10000000, "CLONE_NEWUSER"),
    (0x20000000, "CLONE_NEWPID"),
    (0x40000000, "CLONE_NEWNET"),
];

/// userfaultfd's flags.
static UFFD_FLAGS: &[(u64, &str)] = &[
    (1, "UFFD_USER_MODE_ONLY"),
    (0o4000, "O_NONBLOCK"),
    (0o2000000, "O_CLOEXEC"),
];

/// seccomp's operations.
static SECCOMP_OPS: &[(u64, &str)] = &[
    (0, "SECCOMP_SET_MODE_STRICT"),
    (1, "SECCOMP_SET_MODE_FILTER"),
    (2, "SECCOMP_GET_ACTION_AVAIL"),
    (3, "SECCOMP_GET_NOTIF_SIZES"),
];

/// seccomp's filter flags.
static SECCOMP_FILTER_FLAGS: &[(u64, &str)] = &[
    (1, "SECCOMP_FILTER_FLAG_TSYNC"),
    (2, "SECCOMP_FILTER_FLAG_LOG"),
    (4, "SECCOMP_FILTER_FLAG_SPEC_ALLOW"),
    (8, "SECCOMP_FILTER_FLAG_NEW_LISTENER"),
    (16, "SECCOMP_FILTER_FLAG_TSYNC_ESRCH"),
    (32, "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV"),
];

/// A seccomp filter's return actions.
static SECCOMP_RET_ACTIONS: &[(u64, &str)] = &[
    (0x80000000, "SECCOMP_RET_KILL_PROCESS"),
    (0, "SECCOMP_RET_KILL_THREAD"),
    (0x30000, "SECCOMP_RET_TRAP"),
    (0x50000, "SECCOMP_RET_ERRNO"),
    (0x7fc00000, "SECCOMP_RET_USER_NOTIF"),
    (0x7ff00000, "SECCOMP_RET_TRACE"),
    (0x7ffc0000, "SECCOMP_RET_LOG"),
    (0x7fff0000, "SECCOMP_RET_ALLOW"),
];

/// The size of `struct timex`.
const TIMEX: usize = 208;

/// adjtimex's modes.
static ADJ_MODES: &[(u64, &str)] = &[
    (0xa001, "ADJ_OFFSET_SS_READ"),
    (0x8001, "ADJ_OFFSET_SINGLESHOT"),
    (0x0001, "ADJ_OFFSET"),
    (0x0002, "ADJ_FREQUENCY"),
    (0x0004, "ADJ_MAXERROR"),
    (0x0008, "ADJ_ESTERROR"),
    (0x0010, "ADJ_STATUS"),
    (0x0020, "ADJ_TIMECONST"),
    (0x0080, "ADJ_TAI"),
    (0x0100, "ADJ_SETOFFSET"),
    (0x1000, "ADJ_MICRO"),
    (0x2000, "ADJ_NANO"),
    (0x4000, "ADJ_TICK"),
];

/// The clock's status bits (`struct timex`'s status).
static STA_FLAGS: &[(u64, &str)] = &[
    (0x0001, "STA_PLL"),
    (0x0002, "STA_PPSFREQ"),
    (0x0004, "STA_PPSTIME"),
    (0x0008, "STA_FLL"),
    (0x0010, "STA_INS"),
    (0x0020, "STA_DEL"),
    (0x0040, "STA_UNSYNC"),
    (0x0080, "STA_FREQHOLD"),
    (0x0100, "STA_PPSSIGNAL"),
    (0x0200, "STA_PPSJITTER"),
    (0x0400, "STA_PPSWANDER"),
    (0x0800, "STA_PPSERROR"),
    (0x1000, "STA_CLOCKERR"),
    (0x2000, "STA_NANO"),
    (0x4000, "STA_MODE"),
    (0x8000, "STA_CLK"),
];

/// The clock states adjtimex returns.
static TIME_STATES: &[(u64, &str)] = &[
    (0, "TIME_OK"),
    (1, "TIME_INS"),
    (2, "TIME_DEL"),
    (3, "TIME_OOP"),
    (4, "TIME_WAIT"),
    (5, "TIME_ERROR"),
];

/// The most waiters futex_waitv takes (and strace shows).
const FUTEX_WAITV_MAX: usize = 128;

/// A futex waiter's flags.
static FUTEX_WAITER_FLAGS: &[(u64, &str)] = &[(2, "FUTEX_32"), (128, "FUTEX_PRIVATE_FLAG")];

/// The size of `struct io_uring_params`.
const IO_URING_PARAMS: usize = 120;

/// The slot of io_uring_setup's parameters as filled.
const IO_URING_OUT_SLOT: usize = 5;

/// kexec_load's architectures (the flags' upper 16 bits of 32).
static KEXEC_ARCHES: &[(u64, &str)] = &[
    (0, "KEXEC_ARCH_DEFAULT"),
    (3 << 16, "KEXEC_ARCH_386"),
    (4 << 16, "KEXEC_ARCH_68K"),
    (15 << 16, "KEXEC_ARCH_PARISC"),
    (62 << 16, "KEXEC_ARCH_X86_64"),
    (20 << 16, "KEXEC_ARCH_PPC"),
    (21 << 16, "KEXEC_ARCH_PPC64"),
    (50 << 16, "KEXEC_ARCH_IA_64"),
    (40 << 16, "KEXEC_ARCH_ARM"),
    (22 << 16, "KEXEC_ARCH_S390"),
    (42 << 16, "KEXEC_ARCH_SH"),
    (10 << 16, "KEXEC_ARCH_MIPS_LE"),
    (8 << 16, "KEXEC_ARCH_MIPS"),
    (183 << 16, "KEXEC_ARCH_AARCH64"),
    (243 << 16, "KEXEC_ARCH_RISCV"),
    (258 << 16, "KEXEC_ARCH_LOONGARCH"),
];

/// kexec_load's flags (beside the architecture).
static KEXEC_FLAGS: &[(u64, &str)] = &[(1, "KEXEC_ON_CRASH"), (2, "KEXEC_PRESERVE_CONTEXT")];

/// The most segments kexec_load takes.
const KEXEC_SEGMENT_MAX: u64 = 16;

/// The most instructions a classic BPF program has (and strace shows).
pub(super) const BPF_MAXINSNS: usize = 4096;

static BPF_CLASS: &[(u64, &str)] = &[
    (0, "BPF_LD"),
    (1, "BPF_LDX"),
    (2, "BPF_ST"),
    (3, "BPF_STX"),
    (4, "BPF_ALU"),
    (5, "BPF_JMP"),
    (6, "BPF_RET"),
    (7, "BPF_MISC"),
];
static BPF_MISCOP: &[(u64, &str)] = &[(0, "BPF_TAX"), (0x80, "BPF_TXA")];
static BPF_MODE: &[(u64, &str)] = &[
    (0, "BPF_IMM"),
    (0x20, "BPF_ABS"),
    (0x40, "BPF_IND"),
    (0x60, "BPF_MEM"),
    (0x80, "BPF_LEN"),
    (0xa0, "BPF_MSH"),
    (0xc0, "BPF_XADD"),
];
static BPF_OP_ALU: &[(u64, &str)] = &[
    (0x00, "BPF_ADD"),
    (0x10, "BPF_SUB"),
    (0x20, "BPF_MUL"),
    (0x30, "BPF_DIV"),
    (0x40, "BPF_OR"),
    (0x50, "BPF_AND"),
    (0x60, "BPF_LSH"),
    (0x70, "BPF_RSH"),
    (0x80, "BPF_NEG"),
    (0x90, "BPF_MOD"),
    (0xa0, "BPF_XOR"),
    (0xb0, "BPF_MOV"),
    (0xc0, "BPF_ARSH"),
    (0xd0, "BPF_END"),
];
static BPF_OP_JMP: &[(u64, &str)] = &[
    (0x00, "BPF_JA"),
    (0x10, "BPF_JEQ"),
    (0x20, "BPF_JGT"),
    (0x30, "BPF_JGE"),
    (0x40, "BPF_JSET"),
    (0x50, "BPF_JNE"),
    (0x60, "BPF_JSGT"),
    (0x70, "BPF_JSGE"),
    (0x80, "BPF_CALL"),
    (0x90, "BPF_EXIT"),
    (0xa0, "BPF_JLT"),
    (0xb0, "BPF_JLE"),
    (0xc0, "BPF_JSLT"),
    (0xd0, "BPF_JSLE"),
];
static BPF_RVAL: &[(u64, &str)] = &[(0, "BPF_K"), (0x08, "BPF_X"), (0x10, "BPF_A")];
static BPF_SIZE: &[(u64, &str)] = &[
    (0, "BPF_W"),
    (0x08, "BPF_H"),
    (0x10, "BPF_B"),
    (0x18, "BPF_DW"),
];
static BPF_SRC: &[(u64, &str)] = &[(0, "BPF_K"), (0x08, "BPF_X")];

/// How a program's constants read: a seccomp filter's return actions, a
/// socket filter's special offsets.
#[derive(Clone, Copy)]
pub(super) enum BpfK {
    Seccomp,
    Socket,
}

/// One table value, a number with a hint when none names it.
fn bpf_xval(s: &mut String, v: u64, tab: &[(u64, &str)], x: Xlat) {
    fmt::enumv(s, v, tab, "BPF_???", x, true);
}

/// An opcode's bits beyond those named: `|0x.. /* BPF_??? */`.
fn bpf_rest(s: &mut String, i: u64) {
    if i != 0 {
        let _ = write!(s, "|{i:#x} /* BPF_??? */");
    }
}

/// A classic BPF opcode as strace prints it: `BPF_LD|BPF_W|BPF_ABS`.
fn bpf_code(s: &mut String, code: u16, x: Xlat) {
    let code = code as u64;
    let class = code & 7;
    let i = code & !7;
    bpf_xval(s, class, BPF_CLASS, x);
    match class {
        2 | 3 => bpf_rest(s, i),
        0 | 1 => {
            s.push('|');
            bpf_xval(s, code & 0x18, BPF_SIZE, x);
            s.push('|');
            bpf_xval(s, code & 0xe0, BPF_MODE, x);
        }
        7 => {
            s.push('|');
            bpf_xval(s, code & 0xf8, BPF_MISCOP, x);
            bpf_rest(s, i & !(code & 0xf8));
        }
        4 | 5 => {
            s.push('|');
            bpf_xval(s, code & 0x08, BPF_SRC, x);
            s.push('|');
            bpf_xval(
                s,
                code & 0xf0,
                if class == 4 { BPF_OP_ALU } else { BPF_OP_JMP },
                x,
            );
        }
        _ => {
            s.push('|');
            bpf_xval(s, code & 0x18, BPF_RVAL, x);
            bpf_rest(s, i & !(code & 0x18));
        }
    }
}

/// A constant as strace prints it: by name for what the program is for.
fn bpf_k(s: &mut String, code: u16, k: u32, x: Xlat, kind: BpfK) -> bool {
    match kind {
        BpfK::Seccomp if code & 7 == 6 => {
            let action = k & 0xffff0000;
            fmt::enumv(
                s,
                action as u64,
                SECCOMP_RET_ACTIONS,
                "SECCOMP_RET_???",
                x,
                true,
            );
            if k & !action != 0 {
                let _ = write!(s, "|{:#x}", k & !action);
            }
            true
        }
        // a load from one of the special offsets
        BpfK::Socket if code & 7 == 0 && code & 0xe0 == 0x20 && k >= SKF_LL_OFF => {
            let (base, name) = if k >= SKF_AD_OFF {
                (SKF_AD_OFF, "SKF_AD_OFF")
            } else if k >= SKF_NET_OFF {
                (SKF_NET_OFF, "SKF_NET_OFF")
            } else {
                (SKF_LL_OFF, "SKF_LL_OFF")
            };
            match x {
                Xlat::Raw => {
                    let _ = write!(s, "{base:#x}");
                }
                Xlat::Verbose => {
                    let _ = write!(s, "{base:#x} /* {name} */");
                }
                Xlat::Abbrev => s.push_str(name),
            }
            s.push('+');
            if base == SKF_AD_OFF {
                fmt::enumv(s, (k - base) as u64, SKF_AD, "SKF_AD_???", x, true);
            } else {
                let _ = write!(s, "{}", k - base);
            }
            true
        }
        _ => false,
    }
}

const SKF_AD_OFF: u32 = 0xfffff000;
const SKF_NET_OFF: u32 = 0xfff00000;
const SKF_LL_OFF: u32 = 0xffe00000;

/// The ancillary data a socket filter loads from SKF_AD_OFF on.
static SKF_AD: &[(u64, &str)] = &[
    (0, "SKF_AD_PROTOCOL"),
    (4, "SKF_AD_PKTTYPE"),
    (8, "SKF_AD_IFINDEX"),
    (12, "SKF_AD_NLATTR"),
    (16, "SKF_AD_NLATTR_NEST"),
    (20, "SKF_AD_MARK"),
    (24, "SKF_AD_QUEUE"),
    (28, "SKF_AD_HATYPE"),
    (32, "SKF_AD_RXHASH"),
    (36, "SKF_AD_CPU"),
    (40, "SKF_AD_ALU_XOR_X"),
    (44, "SKF_AD_VLAN_TAG"),
    (48, "SKF_AD_VLAN_TAG_PRESENT"),
    (52, "SKF_AD_PAY_OFFSET"),
    (56, "SKF_AD_RANDOM"),
    (60, "SKF_AD_VLAN_TPID"),
];

/// The free slot of setsockopt's and getsockopt's program copy.
const SOCK_FILTER_SLOT: usize = 5;

/// `len` instructions at `addr`, as strace prints a program: all of them
/// (to BPF_MAXINSNS) with -v, else the address.
fn bpf_program(w: &mut ArgWriter<'_>, addr: u64, len: u64, slot: usize, kind: BpfK) {
    let call = w.call;
    let x = w.opts.xlat;
    if !w.opts.verbose {
        fmt::ptr(&mut w.s, addr);
        return;
    }
    let o = Options {
        verbose: false,
        strsize: BPF_MAXINSNS,
        ..w.opts.clone()
    };
    super::print_array(&mut w.s, call.cap(slot), addr, len, 8, &o, |s, e| {
        bpf_insn(s, e, x, kind)
    });
}

/// setsockopt's `struct sock_fprog` (`d`, when read whole).
pub(super) fn set_sock_fprog(w: &mut ArgWriter<'_>, d: Option<&[u8]>) {
    let addr = w.call.args[3];
    match d.filter(|d| d.len() >= 16 && w.call.args[4] as i32 == 16) {
        Some(d) => {
            let len = u16::from_le_bytes([d[0], d[1]]);
            let _ = write!(w.s, "{{len={len}, filter=");
            bpf_program(w, le_u64(d, 8), len as u64, SOCK_FILTER_SLOT, BpfK::Socket);
            w.s.push('}');
        }
        None => fmt::ptr(&mut w.s, addr),
    }
}

/// getsockopt's SO_GET_FILTER: `n` instructions.
pub(super) fn get_sock_filter(w: &mut ArgWriter<'_>, n: u64) {
    let addr = w.call.args[3];
    bpf_program(w, addr, n, SOCK_FILTER_SLOT, BpfK::Socket);
}

/// One `struct sock_filter`: BPF_JUMP(code, k, jt, jf) with jumps, else
/// BPF_STMT(code, k).
pub(super) fn bpf_insn(s: &mut String, e: &[u8], x: Xlat, kind: BpfK) {
    let code = u16::from_le_bytes([e[0], e[1]]);
    let (jt, jf, k) = (e[2], e[3], le_u32(e, 4));
    if jt != 0 || jf != 0 {
        s.push_str("BPF_JUMP(");
        bpf_code(s, code, x);
        s.push_str(", ");
        fmt::hex(s, k as u64);
        s.push_str(", ");
        fmt::hex(s, jt as u64);
        s.push_str(", ");
        fmt::hex(s, jf as u64);
    } else {
        s.push_str("BPF_STMT(");
        bpf_code(s, code, x);
        s.push_str(", ");
        if !bpf_k(s, code, k, x, kind) {
            fmt::hex(s, k as u64);
        }
    }
    s.push(')');
}

/// inotify's event mask.
static IN_MASK: &[(u64, &str)] = &[
    (0x1, "IN_ACCESS"),
    (0x2, "IN_MODIFY"),
    (0x4, "IN_ATTRIB"),
    (0x8, "IN_CLOSE_WRITE"),
    (0x10, "IN_CLOSE_NOWRITE"),
    (0x20, "IN_OPEN"),
    (0x40, "IN_MOVED_FROM"),
    (0x80, "IN_MOVED_TO"),
    (0x100, "IN_CREATE"),
    (0x200, "IN_DELETE"),
    (0x400, "IN_DELETE_SELF"),
    (0x800, "IN_MOVE_SELF"),
    (0x2000, "IN_UNMOUNT"),
    (0x4000, "IN_Q_OVERFLOW"),
    (0x8000, "IN_IGNORED"),
    (0x1000000, "IN_ONLYDIR"),
    (0x2000000, "IN_DONT_FOLLOW"),
    (0x4000000, "IN_EXCL_UNLINK"),
    (0x10000000, "IN_MASK_CREATE"),
    (0x20000000, "IN_MASK_ADD"),
    (0x40000000, "IN_ISDIR"),
    (0x80000000, "IN_ONESHOT"),
];

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    macro_rules! sig {
        ($ret:ident; $($t:expr),* $(,)?) => {
            Decoder { args: const { &[$($t),*] }, custom: None, ret: Ret::$ret }
        };
    }
    Some(match name {
        "alarm" => sig!(Dec; Uint),
        "iopl" => sig!(Dec; Int),
        "getcpu" => sig!(Dec; UintPtrOut, UintPtrOut, Ptr),
        "lookup_dcookie" => sig!(Dec; Ulong, BufOut, Ulong),
        "inotify_add_watch" => sig!(Dec; Fd, Path, FlagsH(IN_MASK, "IN_???")),
        "inotify_rm_watch" => sig!(Dec; Fd, Int),
        "getresuid" | "getresgid" => sig!(Dec; UidPtrOut, UidPtrOut, UidPtrOut),
        "setresuid" | "setresgid" => sig!(Dec; Uid, Uid, Uid),
        "setreuid" | "setregid" => sig!(Dec; Uid, Uid),
        "setfsuid" | "setfsgid" => sig!(Dec; Uid),
        "pkey_alloc" => sig!(Dec; Hex, Flags64H(PKEY_ACCESS, "PKEY_???")),
        "pkey_free" => sig!(Dec; Int),
        "pkey_mprotect" => sig!(Dec; Ptr, Ulong, Flags64H(c::PROT, "PROT_???"), Int),
        "mlock2" => sig!(Dec; Ptr, Ulong, FlagsH(c::MLOCK_FLAGS, "MLOCK_???")),
        "delete_module" => custom(dec_delete_module, Ret::Dec),
        "init_module" => custom(dec_init_module, Ret::Dec),
        "finit_module" => custom(dec_finit_module, Ret::Dec),
        "mknod" => custom(dec_mknod, Ret::Dec),
        "_sysctl" => custom(dec_sysctl, Ret::Dec),
        "kexec_load" => custom(dec_kexec_load, Ret::Dec),
        "io_uring_setup" => custom(dec_io_uring_setup, Ret::Fd),
        "mq_timedsend" => sig!(Dec; Fd, BufIn(2), Ulong, Uint, TimespecIn),
        "mq_timedreceive" => custom(dec_mq_timedreceive, Ret::Dec),
        "mq_notify" => custom(dec_mq_notify, Ret::Dec),
        "futex_waitv" => custom(dec_futex_waitv, Ret::Dec),
        "mincore" => custom(dec_mincore, Ret::Dec),
        "adjtimex" => custom(dec_adjtimex, Ret::Dec),
        "clock_adjtime" => custom(dec_clock_adjtime, Ret::Dec),
        "io_setup" => sig!(Dec; Uint, PtrPtrOut),
        "io_destroy" => sig!(Dec; Hex),
        "io_getevents" => custom(dec_io_getevents, Ret::Dec),
        "io_pgetevents" => custom(dec_io_getevents, Ret::Dec),
        "set_mempolicy_home_node" => sig!(Dec; Ptr, Ulong, Ulong, Hex),
        "process_vm_readv" => sig!(Dec; Int, IovOut(2), Ulong, IovAddrs(4), Ulong, Ulong),
        "process_vm_writev" => sig!(Dec; Int, IovIn(2), Ulong, IovAddrs(4), Ulong, Ulong),
        "seccomp" => custom(dec_seccomp, Ret::Dec),
        "epoll_ctl" => custom(dec_epoll_ctl, Ret::Dec),
        "setxattr" | "lsetxattr" | "fsetxattr" => custom(dec_setxattr, Ret::Dec),
        "getxattr" | "lgetxattr" | "fgetxattr" => custom(dec_getxattr, Ret::Dec),
        "listxattr" | "llistxattr" | "flistxattr" => custom(dec_listxattr, Ret::Dec),
        "clock_nanosleep" => custom(dec_clock_nanosleep, Ret::Dec),
        "readahead" => sig!(Dec; Fd, Long, Ulong),
        "sync_file_range" => {
            sig!(Dec; Fd, Long, Long, FlagsH(SYNC_FILE_RANGE_FLAGS, "SYNC_FILE_RANGE_???"))
        }
        "fallocate" => sig!(Dec; Fd, FlagsH(c::FALLOC_FLAGS, "FALLOC_FL_???"), Long, Long),
        "vmsplice" => sig!(Dec; Fd, IovIn(2), Ulong, Flags(c::SPLICE_FLAGS)),
        "signalfd4" => sig!(Fd; Fd, SigsetLenIn(2), Ulong, FlagsH(SFD_FLAGS, "SFD_???")),
        "signalfd" => sig!(Fd; Fd, SigsetLenIn(2), Ulong),
        "sethostname" | "setdomainname" => custom(dec_sethostname, Ret::Dec),
        "syslog" => custom(dec_syslog, Ret::Dec),
        "swapon" => custom(dec_swapon, Ret::Dec),
        "swapoff" => sig!(Dec; Path),
        "reboot" => custom(dec_reboot, Ret::Dec),
        "ustat" => custom(dec_ustat, Ret::Dec),
        "utime" => custom(dec_utime, Ret::Dec),
        "utimes" => sig!(Dec; Path, UtimeVals),
        "getpriority" => sig!(Dec; Enum(c::PRIO_WHICH, "PRIO_???"), Int),
        "setpriority" => sig!(Dec; Enum(c::PRIO_WHICH, "PRIO_???"), Int, Int),
        "unshare" => sig!(Dec; Flags64H(UNSHARE_FLAGS, "CLONE_???")),
        "setns" => sig!(Dec; Fd, FlagsH(SETNS_TYPES, "CLONE_NEW???")),
        "userfaultfd" => sig!(Fd; FlagsH(UFFD_FLAGS, "UFFD_???")),
        "kexec_file_load" => {
            sig!(Dec; Int, Int, Ulong, BufIn(2), Flags64H(KEXEC_FILE_FLAGS, "KEXEC_FILE_???"))
        }
        "clock_settime" => sig!(Dec; Enum(c::CLOCK_IDS, "CLOCK_???"), TimespecIn),
        "time" => custom(dec_time, Ret::Dec),
        "gettimeofday" => custom(dec_gettimeofday, Ret::Dec),
        "settimeofday" => custom(dec_settimeofday, Ret::Dec),
        "getitimer" => custom(dec_getitimer, Ret::Dec),
        "setitimer" => custom(dec_setitimer, Ret::Dec),
        "timer_create" => custom(dec_timer_create, Ret::Dec),
        "timer_settime" => sig!(Dec; Int, Flags(c::TIMER_FLAGS), ItimerspecIn, ItimerspecOut),
        "timer_gettime" => sig!(Dec; Int, ItimerspecOut),
        "timer_delete" | "timer_getoverrun" => sig!(Dec; Int),
        "mknodat" => custom(dec_mknodat, Ret::Dec),
        _ => return None,
    })
}

/// The argument types a custom decoder of this family reads (their captures).
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    Some(match name {
        "mknod" => &[Path],
        "mknodat" => &[Skip, Path],
        "delete_module" => &[Str],
        "_sysctl" => &[FixedIn(48)],
        "io_uring_setup" => &[Skip, FixedIn(IO_URING_PARAMS as u16)],
        "mq_timedreceive" => &[Skip, BufOut, Skip, UintPtrOut, TimespecIn],
        "mq_notify" => &[Skip, FixedIn(32)],
        "futex_waitv" => &[Skip, Skip, Skip, TimespecIn],
        "adjtimex" => &[FixedOut(TIMEX as u16)],
        "clock_adjtime" => &[Skip, FixedOut(TIMEX as u16)],
        "io_getevents" => &[Skip, Skip, Skip, Skip, TimespecIn],
        "io_pgetevents" => &[Skip, Skip, Skip, Skip, TimespecIn, PselectSigmask],
        "seccomp" => &[Skip, Skip, Skip],
        "epoll_ctl" => &[Skip, Skip, Skip, EpollEventIn],
        "setxattr" | "lsetxattr" => &[Path, Str, BufIn(3)],
        "fsetxattr" => &[Skip, Str, BufIn(3)],
        "getxattr" | "lgetxattr" => &[Path, Str, BufOut],
        "fgetxattr" => &[Skip, Str, BufOut],
        "listxattr" | "llistxattr" => &[Path, BufOut],
        "flistxattr" => &[Skip, BufOut],
        "clock_nanosleep" => &[Skip, Skip, TimespecIn, TimespecRemain],
        "sethostname" | "setdomainname" => &[BufIn(1)],
        "syslog" => &[Skip, BufOut],
        "swapon" => &[Path],
        "utime" => &[Path, FixedIn(16)],
        "time" => &[FixedOut(8)],
        "gettimeofday" => &[FixedOut(16), FixedOut(8)],
        "settimeofday" => &[FixedIn(16), FixedIn(8)],
        "getitimer" => &[Skip, FixedOut(32)],
        "setitimer" => &[Skip, FixedIn(32), FixedOut(32)],
        "timer_create" => &[Skip, FixedIn(32), IntPtrOut],
        "init_module" => &[Skip, Skip, Str],
        "finit_module" => &[Skip, Str],
        _ => return decoder(name).map(|_| &[] as &'static [Ty]),
    })
}

/// Captures beyond what the argument types ask for.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    // a string's first -s + 1 bytes again, for when it runs into unmapped
    // memory before a NUL (see str_arg)
    let spare = |src: u8| CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::Enter,
        max: o.strsize.min(4000) as u32 + 1,
        src_arg: Some(src),
        ..Default::default()
    };
    if iov_raw_name(name) {
        out[IOV_RAW_SLOT] = CapPlan {
            kind: CapKind::ArgLen,
            when: CapWhen::Enter,
            len_arg: 2,
            mult: 16,
            max: super::array_max(o, 16),
            src_arg: Some(1),
            ..Default::default()
        };
    }
    match name {
        // a socket filter's program: where setsockopt's struct points, or
        // what getsockopt filled
        "setsockopt" | "getsockopt" if o.verbose => {
            let set = name == "setsockopt";
            out[SOCK_FILTER_SLOT] = CapPlan {
                kind: CapKind::Fixed,
                when: if set { CapWhen::Enter } else { CapWhen::ExitOk },
                len_arg: 0xff,
                max: 4096,
                src_arg: Some(3),
                deref: if set { Some(1) } else { None },
                cond: Some(super::CapCond::one_of(
                    2,
                    u32::MAX,
                    if set { &[26, 51] } else { &[26] },
                )),
                ..Default::default()
            }
        }
        // kexec_load's segments, 32 bytes each
        "kexec_load" => {
            out[2] = CapPlan {
                kind: CapKind::ArgLen,
                when: CapWhen::Enter,
                len_arg: 1,
                mult: 32,
                max: super::array_max(o, 32),
                ..Default::default()
            }
        }
        // io_uring_setup's parameters as the kernel filled them
        "io_uring_setup" => {
            out[IO_URING_OUT_SLOT] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::ExitOk,
                max: IO_URING_PARAMS as u32,
                src_arg: Some(1),
                ..Default::default()
            }
        }
        // futex_waitv's waiters, 24 bytes each
        "futex_waitv" => {
            out[0] = CapPlan {
                kind: CapKind::ArgLen,
                when: CapWhen::Enter,
                len_arg: 1,
                mult: 24,
                max: super::array_max(o, 24)
                    .max(24 * (FUTEX_WAITV_MAX as u32 + 1))
                    .min(4096),
                ..Default::default()
            }
        }
        // mincore's vector: a byte a page, as many as strace shows and one
        "mincore" => {
            out[2] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::ExitOk,
                max: o.strsize.min(4000) as u32 + 1,
                ..Default::default()
            }
        }
        // the events read, 32 bytes each
        "io_getevents" | "io_pgetevents" => {
            out[3] = CapPlan {
                kind: CapKind::RetLen,
                when: CapWhen::ExitOk,
                mult: 32,
                max: super::array_max(o, 32),
                ..Default::default()
            };
            if name == "io_pgetevents" {
                // the signal set behind the sixth argument's pointer
                out[0] = CapPlan {
                    kind: CapKind::Fixed,
                    when: CapWhen::Enter,
                    len_arg: 0xff,
                    max: 8,
                    src_arg: Some(5),
                    deref: Some(0),
                    ..Default::default()
                };
            }
        }
        // seccomp's argument, by operation: an action to ask about (4
        // bytes), the sizes filled (6), a filter program's head (16)
        "seccomp" => {
            let op = |op: u32| Some(super::CapCond::one_of(0, u32::MAX, &[op as u8]));
            let fixed = |when, max, cond| CapPlan {
                kind: CapKind::Fixed,
                when,
                max,
                src_arg: Some(2),
                cond,
                ..Default::default()
            };
            out[2] = fixed(CapWhen::Enter, 4, op(2));
            out[3] = fixed(CapWhen::ExitOk, 6, op(3));
            out[4] = fixed(CapWhen::Enter, 16, op(1));
            // with -v, the program the filter points to
            if o.verbose {
                out[5] = CapPlan {
                    kind: CapKind::Fixed,
                    when: CapWhen::Enter,
                    len_arg: 0xff,
                    max: 4096,
                    src_arg: Some(2),
                    deref: Some(1),
                    cond: op(1),
                    ..Default::default()
                };
            }
        }
        // pselect6's signal set, behind the pointer of its sixth argument's
        // struct (slot 0, the count's, copies nothing else)
        "pselect6" => {
            out[0] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::Enter,
                len_arg: 0xff,
                max: 8,
                src_arg: Some(5),
                deref: Some(0),
                ..Default::default()
            }
        }
        "delete_module" => out[STR_SPARE] = spare(0),
        "init_module" => out[STR_SPARE] = spare(2),
        "finit_module" => out[STR_SPARE] = spare(1),
        // LINUX_REBOOT_CMD_RESTART2's string: at most 255 bytes, and those
        // again as a block for when the string runs into unmapped memory
        "reboot" => {
            out[3] = CapPlan {
                kind: CapKind::Str,
                when: CapWhen::Enter,
                max: REBOOT_ARG_MAX as u32,
                ..Default::default()
            };
            out[STR_SPARE] = CapPlan {
                kind: CapKind::Fixed,
                when: CapWhen::Enter,
                max: REBOOT_ARG_MAX as u32,
                src_arg: Some(3),
                ..Default::default()
            };
        }
        _ => {}
    }
}

/// The free slot holding a copy of an iovec array itself (the calls of
/// [`iov_raw`]), for the addresses of buffers that could not be read.
pub(super) const IOV_RAW_SLOT: usize = 5;

fn iov_raw_name(name: &str) -> bool {
    matches!(
        name,
        "readv"
            | "writev"
            | "preadv"
            | "pwritev"
            | "vmsplice"
            | "process_vm_readv"
            | "process_vm_writev"
    )
}

/// Whether call `nr` has its iovec array copied in [`IOV_RAW_SLOT`].
pub(super) fn iov_raw(nr: u32) -> bool {
    crate::table::by_nr(nr).is_some_and(|s| iov_raw_name(s.name))
}

/// The free slot holding a string's first bytes read as a block.
const STR_SPARE: usize = 5;

/// A NUL-terminated string as strace prints it: when the copy ran into
/// unmapped memory before a NUL, its first -s characters and `...` if
/// -s + 1 bytes could be read (strace reads no more), else the address.
fn str_arg(w: &mut ArgWriter<'_>, i: usize) {
    let v = w.call.args[i];
    let faulted = v != 0 && w.call.cap(i).is_some_and(|c| c.fault);
    let n = w.opts.strsize;
    let call = w.call;
    match call.data(STR_SPARE).filter(|d| d.len() > n) {
        Some(d) if faulted && !d[..=n].contains(&0) => {
            w.sep();
            fmt::quoted(&mut w.s, &d[..n], true, w.opts.hex);
        }
        _ => arg(w, i, Str),
    }
}

fn dec_delete_module(w: &mut ArgWriter<'_>) {
    str_arg(w, 0);
    arg(w, 1, FlagsH(DELETE_MODULE_FLAGS, "O_???"));
}

fn dec_init_module(w: &mut ArgWriter<'_>) {
    arg(w, 0, Ptr);
    arg(w, 1, Ulong);
    str_arg(w, 2);
}

fn dec_finit_module(w: &mut ArgWriter<'_>) {
    arg(w, 0, Fd);
    str_arg(w, 1);
    arg(w, 2, FlagsH(MODULE_INIT_FLAGS, "MODULE_INIT_???"));
}

/// A file mode with its type, as strace's `print_symbolic_mode_t`: the
/// number alone when the type bits name no type.
pub(super) fn symbolic_mode(s: &mut String, m: u32, x: Xlat) {
    let m = m as u64;
    let known = m & 0o170000 == 0 || c::S_IFMT.iter().any(|(k, _)| *k == m & 0o170000);
    if !known || x == Xlat::Raw {
        s.push_str(&fmt::octal(m));
        return;
    }
    if x == Xlat::Verbose {
        let _ = write!(s, "{} /* ", fmt::octal(m));
        fmt::mode(s, m, true);
        s.push_str(" */");
    } else {
        fmt::mode(s, m, true);
    }
}

/// A `dev_t` as strace prints it: `makedev(MAJOR, MINOR)`.
pub(super) fn dev(s: &mut String, d: u64) {
    super::makedev(s, d);
}

fn mknod_rest(w: &mut ArgWriter<'_>, off: usize) {
    arg(w, off, Path);
    w.sep();
    let m = w.call.args[off + 1] as u16 as u32;
    symbolic_mode(&mut w.s, m, w.opts.xlat);
    if matches!(m & 0o170000, 0o020000 | 0o060000) {
        w.sep();
        dev(&mut w.s, w.call.args[off + 2] as u32 as u64);
    }
}

fn dec_mknod(w: &mut ArgWriter<'_>) {
    mknod_rest(w, 0);
}

fn dec_mknodat(w: &mut ArgWriter<'_>) {
    arg(w, 0, DirFd);
    mknod_rest(w, 1);
}

/// time(tloc): the time stored, with its date.
fn dec_time(w: &mut ArgWriter<'_>) {
    if !w.exiting() {
        return;
    }
    let call = w.call;
    match call.data(0).filter(|d| d.len() >= 8) {
        Some(d) => {
            w.sep();
            let t = le_i64(d, 0);
            let _ = write!(w.s, "[{t}");
            if let Some(date) = date_comment(t, 0, 0, 0) {
                let _ = write!(w.s, " /* {date} */");
            }
            w.s.push(']');
        }
        None => arg(w, 0, Ptr),
    }
}

/// A `struct timeval` from a copy: `{tv_sec=.., tv_usec=..}`.
fn timeval(s: &mut String, d: &[u8]) {
    let _ = write!(s, "{{tv_sec={}, tv_usec={}}}", le_i64(d, 0), le_u64(d, 8));
}

/// A `struct timeval` argument, or its address.
fn timeval_arg(w: &mut ArgWriter<'_>, i: usize) {
    let call = w.call;
    w.sep();
    match call.data(i).filter(|d| d.len() >= 16) {
        Some(d) => timeval(&mut w.s, d),
        None => fmt::ptr(&mut w.s, call.args[i]),
    }
}

/// A `struct timezone` argument, or its address.
fn timezone_arg(w: &mut ArgWriter<'_>, i: usize) {
    let call = w.call;
    w.sep();
    match call.data(i).filter(|d| d.len() >= 8) {
        Some(d) => {
            let _ = write!(
                w.s,
                "{{tz_minuteswest={}, tz_dsttime={}}}",
                le_u32(d, 0) as i32,
                le_u32(d, 4) as i32
            );
        }
        None => fmt::ptr(&mut w.s, call.args[i]),
    }
}

fn dec_gettimeofday(w: &mut ArgWriter<'_>) {
    if !w.exiting() {
        return;
    }
    timeval_arg(w, 0);
    timezone_arg(w, 1);
}

fn dec_settimeofday(w: &mut ArgWriter<'_>) {
    timeval_arg(w, 0);
    timezone_arg(w, 1);
}

/// A `struct itimerval` argument, or its address.
fn itimerval_arg(w: &mut ArgWriter<'_>, i: usize) {
    let call = w.call;
    w.sep();
    match call.data(i).filter(|d| d.len() >= 32) {
        Some(d) => {
            w.s.push_str("{it_interval=");
            timeval(&mut w.s, d);
            w.s.push_str(", it_value=");
            timeval(&mut w.s, &d[16..]);
            w.s.push('}');
        }
        None => fmt::ptr(&mut w.s, call.args[i]),
    }
}

fn dec_getitimer(w: &mut ArgWriter<'_>) {
    arg(w, 0, Enum(c::ITIMER_WHICH, "ITIMER_???"));
    if !w.exiting() {
        return;
    }
    itimerval_arg(w, 1);
}

fn dec_setitimer(w: &mut ArgWriter<'_>) {
    arg(w, 0, Enum(c::ITIMER_WHICH, "ITIMER_???"));
    itimerval_arg(w, 1);
    if !w.exiting() {
        return;
    }
    itimerval_arg(w, 2);
}

/// A `struct sigevent`, as strace's print_sigevent.
fn sigevent(s: &mut String, d: &[u8], x: Xlat) {
    s.push('{');
    let ptr = le_u64(d, 0);
    if ptr != 0 {
        let _ = write!(
            s,
            "sigev_value={{sival_int={}, sival_ptr=",
            le_u32(d, 0) as i32
        );
        fmt::ptr(s, ptr);
        s.push_str("}, ");
    }
    let (signo, notify) = (le_u32(d, 8), le_u32(d, 12));
    s.push_str("sigev_signo=");
    if matches!(notify, 0 | 2 | 4) {
        signal(s, signo as i32, x);
    } else {
        let _ = write!(s, "{signo}");
    }
    s.push_str(", sigev_notify=");
    fmt::enumv(s, notify as u64, SIGEV_NOTIFY, "SIGEV_???", x, true);
    match notify {
        4 => {
            let _ = write!(s, ", sigev_notify_thread_id={}", le_u32(d, 16) as i32);
        }
        2 => {
            s.push_str(", sigev_notify_function=");
            fmt::ptr(s, le_u64(d, 16));
            s.push_str(", sigev_notify_attributes=");
            fmt::ptr(s, le_u64(d, 24));
        }
        _ => {}
    }
    s.push('}');
}

fn dec_timer_create(w: &mut ArgWriter<'_>) {
    arg(w, 0, Enum(c::CLOCK_IDS, "CLOCK_???"));
    let call = w.call;
    let x = w.opts.xlat;
    w.sep();
    match call.data(1).filter(|d| d.len() >= 32) {
        Some(d) => sigevent(&mut w.s, d, x),
        None => fmt::ptr(&mut w.s, call.args[1]),
    }
    if !w.exiting() {
        return;
    }
    arg(w, 2, IntPtrOut);
}

/// A successful return value's text, when this family shows more than the
/// number; false to leave it to the default.
pub(super) fn return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    let _ = x;
    match name {
        // time: the date of the time returned
        "time" => {
            let t = call.ret().unwrap_or(0);
            let _ = write!(s, "= {t}");
            if let Some(date) = date_comment(t, 0, 0, 0) {
                let _ = write!(s, " ({date})");
            }
            true
        }
        // adjtimex, clock_adjtime: the clock's state, when the struct was shown
        "adjtimex" | "clock_adjtime" => {
            let r = call.ret().unwrap_or(0);
            let slot = usize::from(name == "clock_adjtime");
            match TIME_STATES.iter().find(|(k, _)| *k as i64 == r) {
                Some((_, n)) if call.data(slot).is_some_and(|d| d.len() >= TIMEX) => {
                    let _ = write!(s, "= {r} ({n})");
                    true
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// The kernel's limit on a host or domain name.
const UTS_LEN: u64 = 64;

/// sethostname(name, len), setdomainname: the name unless longer than the
/// kernel takes.
fn dec_sethostname(w: &mut ArgWriter<'_>) {
    let len = w.call.args[1] as u32 as u64;
    if len > UTS_LEN {
        arg(w, 0, Ptr);
    } else {
        arg(w, 0, BufIn(1));
    }
    arg(w, 1, Uint);
}

/// A number with its name in a comment, always (strace's
/// XLAT_STYLE_VERBOSE with a decimal number).
fn dec_commented(s: &mut String, v: i32, tab: &[(u64, &str)], hint: &str, x: Xlat) {
    let _ = write!(s, "{v}");
    if x == Xlat::Raw {
        return;
    }
    let name = tab
        .iter()
        .find(|(k, _)| *k == v as u32 as u64)
        .map(|(_, n)| *n);
    let _ = write!(s, " /* {} */", name.unwrap_or(hint));
}

/// syslog(type, buf, len): buf and len only for the actions that use them.
fn dec_syslog(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    let (ty, len) = (a[0] as i32, a[2] as i32);
    w.sep();
    dec_commented(&mut w.s, ty, SYSLOG_ACTIONS, "SYSLOG_ACTION_???", x);
    match ty {
        0 | 1 | 5 | 6 | 7 | 9 | 10 => {}
        2..=4 => {
            if !w.exiting() {
                return;
            }
            if w.call.ret().is_some_and(|r| r < 0) {
                arg(w, 1, Ptr);
            } else {
                arg(w, 1, BufOut);
            }
            w.sep();
            let _ = write!(w.s, "{len}");
        }
        8 => {
            arg(w, 1, Ptr);
            w.sep();
            dec_commented(&mut w.s, len, LOGLEVELS, "LOGLEVEL_???", x);
        }
        _ => {
            arg(w, 1, Ptr);
            w.sep();
            let _ = write!(w.s, "{len}");
        }
    }
}

/// swapon(path, flags): the flags, then the priority in the low bits.
fn dec_swapon(w: &mut ArgWriter<'_>) {
    arg(w, 0, Path);
    w.sep();
    let v = w.call.args[1] as u32;
    let (flags, prio) = (v & !0x7fff, v & 0x7fff);
    if flags != 0 {
        super::flags_hint(
            &mut w.s,
            flags as u64,
            SWAP_FLAGS,
            "SWAP_FLAG_???",
            w.opts.xlat,
        );
        w.s.push('|');
    }
    let _ = write!(w.s, "{prio}");
}

/// reboot(magic1, magic2, cmd, arg): the string for RESTART2 only.
fn dec_reboot(w: &mut ArgWriter<'_>) {
    arg(w, 0, Enum(REBOOT_MAGIC1, "LINUX_REBOOT_MAGIC_???"));
    arg(w, 1, Enum(REBOOT_MAGIC2, "LINUX_REBOOT_MAGIC_???"));
    arg(w, 2, Enum(REBOOT_CMDS, "LINUX_REBOOT_CMD_???"));
    if w.call.args[2] as u32 != 0xA1B2C3D4 {
        return;
    }
    let call = w.call;
    let v = call.args[3];
    let n = w.opts.strsize.min(REBOOT_ARG_MAX);
    let hex = w.opts.hex;
    w.sep();
    match call.cap(3) {
        Some(c) if !c.fault => {
            // no NUL among the bytes strace reads: n + 1, at most 255
            let cut = c.data.len() > n || c.data.len() >= REBOOT_ARG_MAX;
            fmt::quoted(&mut w.s, &c.data[..c.data.len().min(n)], cut, hex);
        }
        _ => match call.data(STR_SPARE).filter(|d| d.len() >= REBOOT_ARG_MAX) {
            Some(d) if v != 0 && !d.contains(&0) => fmt::quoted(&mut w.s, &d[..n], true, hex),
            _ => fmt::ptr(&mut w.s, v),
        },
    }
}

/// ustat(dev, ubuf).
fn dec_ustat(w: &mut ArgWriter<'_>) {
    w.sep();
    dev(&mut w.s, w.call.args[0] as u32 as u64);
    arg(w, 1, Ptr);
}

/// utime(path, times): a `struct utimbuf`, its times with their dates.
fn dec_utime(w: &mut ArgWriter<'_>) {
    arg(w, 0, Path);
    let call = w.call;
    w.sep();
    match call.data(1).filter(|d| d.len() >= 16) {
        Some(d) => {
            for (k, name) in ["actime", "modtime"].iter().enumerate() {
                let t = le_i64(d, 8 * k);
                let _ = write!(w.s, "{}{name}={t}", if k == 0 { "{" } else { ", " });
                if let Some(date) = date_comment(t, 0, 0, 0) {
                    let _ = write!(w.s, " /* {date} */");
                }
            }
            w.s.push('}');
        }
        None => fmt::ptr(&mut w.s, call.args[1]),
    }
}

/// clock_nanosleep(clock, flags, request, remain): the time left only for a
/// relative sleep (no flags at all), as strace.
fn dec_clock_nanosleep(w: &mut ArgWriter<'_>) {
    arg(w, 0, Enum(c::CLOCK_IDS, "CLOCK_???"));
    arg(w, 1, Flags(c::TIMER_FLAGS));
    arg(w, 2, TimespecIn);
    if !w.exiting() {
        return;
    }
    if w.call.args[1] == 0 {
        arg(w, 3, TimespecRemain);
    } else {
        arg(w, 3, Ptr);
    }
}

/// The largest value an extended attribute may have.
const XATTR_SIZE_MAX: u64 = 65536;

/// The file of an xattr call: a descriptor for the f* ones, else a path.
fn xattr_file(w: &mut ArgWriter<'_>) {
    let name = crate::table::by_nr(w.call.nr).map(|s| s.name).unwrap_or("");
    if name.starts_with('f') {
        arg(w, 0, Fd);
    } else {
        arg(w, 0, Path);
    }
}

/// An attribute's value of `size` bytes, as strace's print_xattr_val: the
/// address past XATTR_SIZE_MAX, else the bytes up to -s without a final NUL.
fn xattr_val(w: &mut ArgWriter<'_>, i: usize, size: u64) {
    let call = w.call;
    let v = call.args[i];
    w.sep();
    if size > XATTR_SIZE_MAX || v == 0 {
        fmt::ptr(&mut w.s, v);
        return;
    }
    let n = w.opts.strsize;
    if size == 0 {
        w.s.push_str("\"\"");
        return;
    }
    match call.data(i) {
        Some(d) if d.len() as u64 >= size.min(n as u64) => {
            let mut shown = &d[..(size as usize).min(n)];
            if shown.last() == Some(&0) {
                shown = &shown[..shown.len() - 1];
            }
            fmt::quoted(&mut w.s, shown, size > n as u64, w.opts.hex);
        }
        _ => fmt::ptr(&mut w.s, v),
    }
}

fn dec_setxattr(w: &mut ArgWriter<'_>) {
    xattr_file(w);
    arg(w, 1, Str);
    xattr_val(w, 2, w.call.args[3]);
    arg(w, 3, Ulong);
    arg(w, 4, FlagsH(c::XATTR_FLAGS, "XATTR_???"));
}

fn dec_getxattr(w: &mut ArgWriter<'_>) {
    xattr_file(w);
    arg(w, 1, Str);
    if !w.exiting() {
        return;
    }
    let size = w.call.ret().unwrap_or(-1) as u64;
    xattr_val(w, 2, size);
    arg(w, 3, Ulong);
}

fn dec_listxattr(w: &mut ArgWriter<'_>) {
    xattr_file(w);
    if !w.exiting() {
        return;
    }
    if w.call.args[2] == 0 || w.call.ret().is_none_or(|r| r < 0) {
        arg(w, 1, Ptr);
    } else {
        arg(w, 1, BufOut);
    }
    arg(w, 2, Ulong);
}

/// epoll_ctl(epfd, op, fd, event): no event for EPOLL_CTL_DEL (its address).
fn dec_epoll_ctl(w: &mut ArgWriter<'_>) {
    arg(w, 0, Fd);
    arg(w, 1, Enum(c::EPOLL_CTL_OPS, "EPOLL_CTL_???"));
    arg(w, 2, Fd);
    if w.call.args[1] as u32 == 2 {
        arg(w, 3, Ptr);
    } else {
        arg(w, 3, EpollEventIn);
    }
}

/// seccomp(op, flags, args), as strace: the argument by operation.
fn dec_seccomp(w: &mut ArgWriter<'_>) {
    let call = w.call;
    let x = w.opts.xlat;
    let op = call.args[0] as u32;
    arg(w, 0, Enum(SECCOMP_OPS, "SECCOMP_SET_MODE_???"));
    match op {
        2 => {
            arg(w, 1, Hex32);
            w.sep();
            match call.data(2).filter(|d| d.len() >= 4) {
                Some(d) => {
                    w.s.push('[');
                    fmt::enumv(
                        &mut w.s,
                        le_u32(d, 0) as u64,
                        SECCOMP_RET_ACTIONS,
                        "SECCOMP_RET_???",
                        x,
                        true,
                    );
                    w.s.push(']');
                }
                None => fmt::ptr(&mut w.s, call.args[2]),
            }
        }
        3 => {
            arg(w, 1, Hex32);
            if !w.exiting() {
                return;
            }
            w.sep();
            match call.data(3).filter(|d| d.len() >= 6) {
                Some(d) => {
                    let h = |k: usize| u16::from_le_bytes([d[k], d[k + 1]]);
                    let _ = write!(
                        w.s,
                        "{{seccomp_notif={}, seccomp_notif_resp={}, seccomp_data={}}}",
                        h(0),
                        h(2),
                        h(4)
                    );
                }
                None => fmt::ptr(&mut w.s, call.args[2]),
            }
        }
        1 => {
            arg(
                w,
                1,
                FlagsH(SECCOMP_FILTER_FLAGS, "SECCOMP_FILTER_FLAG_???"),
            );
            w.sep();
            match call.data(4).filter(|d| d.len() >= 16) {
                Some(d) => {
                    let len = u16::from_le_bytes([d[0], d[1]]);
                    let _ = write!(w.s, "{{len={len}, filter=");
                    if w.opts.verbose {
                        let o = Options {
                            verbose: false,
                            strsize: BPF_MAXINSNS,
                            ..w.opts.clone()
                        };
                        let addr = le_u64(d, 8);
                        // more than was copied (a program of over 512
                        // instructions): read from the process if it can be
                        let want = (len as usize).min(BPF_MAXINSNS + 1) * 8;
                        let cap = call.cap(5);
                        let short = cap.is_some_and(|c| !c.fault && c.data.len() < want);
                        let live = match w.env.read_mem {
                            Some(read) if short => read(addr, want).filter(|v| v.len() == want),
                            _ => None,
                        };
                        let data = match &live {
                            Some(v) => Some((v.as_slice(), false)),
                            None => cap.map(|c| (c.data.as_slice(), c.fault)),
                        };
                        super::print_array_data(&mut w.s, data, addr, len as u64, 8, &o, |s, e| {
                            bpf_insn(s, e, x, BpfK::Seccomp)
                        });
                    } else {
                        fmt::ptr(&mut w.s, le_u64(d, 8));
                    }
                    w.s.push('}');
                }
                None => fmt::ptr(&mut w.s, call.args[2]),
            }
        }
        _ => {
            arg(w, 1, Hex32);
            arg(w, 2, Ptr);
        }
    }
}

/// mincore(addr, length, vec): a 0 or 1 a page, at exit.
fn dec_mincore(w: &mut ArgWriter<'_>) {
    arg(w, 0, Ptr);
    arg(w, 1, Ulong);
    if !w.exiting() {
        return;
    }
    let call = w.call;
    let pages = call.args[1].div_ceil(4096);
    w.sep();
    if call.ret().is_none_or(|r| r < 0) {
        fmt::ptr(&mut w.s, call.args[2]);
        return;
    }
    super::print_array(
        &mut w.s,
        call.cap(2),
        call.args[2],
        pages,
        1,
        w.opts,
        |s, b| {
            let _ = write!(s, "{}", b[0] & 1);
        },
    );
}

/// A `struct timex` the call filled, or its address.
fn timex_arg(w: &mut ArgWriter<'_>, i: usize) {
    let call = w.call;
    let x = w.opts.xlat;
    w.sep();
    let Some(d) = call.data(i).filter(|d| d.len() >= TIMEX) else {
        fmt::ptr(&mut w.s, call.args[i]);
        return;
    };
    let l = |k: usize| le_i64(d, k);
    let s = &mut w.s;
    s.push_str("{modes=");
    super::flags_hint(s, le_u32(d, 0) as u64, ADJ_MODES, "ADJ_???", x);
    let _ = write!(
        s,
        ", offset={}, freq={}, maxerror={}, esterror={}, status=",
        l(8),
        l(16),
        l(24),
        l(32)
    );
    super::flags_hint(s, le_u32(d, 40) as u64, STA_FLAGS, "STA_???", x);
    let _ = write!(
        s,
        ", constant={}, precision={}, tolerance={}, time={{tv_sec={}, tv_usec={}}}, tick={}, ppsfreq={}, jitter={}, shift={}, stabil={}, jitcnt={}, calcnt={}, errcnt={}, stbcnt={}, tai={}}}",
        l(48),
        l(56),
        l(64),
        l(72),
        le_u64(d, 80),
        l(88),
        l(96),
        l(104),
        le_u32(d, 112) as i32,
        l(120),
        l(128),
        l(136),
        l(144),
        l(152),
        le_u32(d, 160) as i32
    );
}

fn dec_adjtimex(w: &mut ArgWriter<'_>) {
    if !w.exiting() {
        return;
    }
    timex_arg(w, 0);
}

fn dec_clock_adjtime(w: &mut ArgWriter<'_>) {
    arg(w, 0, Enum(c::CLOCK_IDS, "CLOCK_???"));
    if !w.exiting() {
        return;
    }
    timex_arg(w, 1);
}

/// io_getevents(ctx, min_nr, nr, events, timeout), io_pgetevents(.., usig):
/// the events read at exit, as strace prints them after the timeout.
fn dec_io_getevents(w: &mut ArgWriter<'_>) {
    arg(w, 0, Hex);
    arg(w, 1, Long);
    arg(w, 2, Long);
    if !w.exiting() {
        return;
    }
    let call = w.call;
    w.sep();
    match call.ret() {
        Some(r) if r >= 0 => super::print_array(
            &mut w.s,
            call.cap(3),
            call.args[3],
            r as u64,
            32,
            w.opts,
            |s, e| {
                s.push_str("{data=");
                fmt::hex(s, le_u64(e, 0));
                s.push_str(", obj=");
                fmt::ptr(s, le_u64(e, 8));
                let _ = write!(s, ", res={}, res2={}}}", le_i64(e, 16), le_i64(e, 24));
            },
        ),
        _ => fmt::ptr(&mut w.s, call.args[3]),
    }
    arg(w, 4, TimespecIn);
    if crate::table::by_nr(call.nr).is_some_and(|s| s.name == "io_pgetevents") {
        arg(w, 5, PselectSigmask);
    }
}

/// futex_waitv(waiters, nr_futexes, flags, timeout, clockid).
fn dec_futex_waitv(w: &mut ArgWriter<'_>) {
    let call = w.call;
    let x = w.opts.xlat;
    let n = call.args[1] as u32 as u64;
    // strace stops at the kernel's limit as at -s
    let o = Options {
        strsize: w.opts.strsize.min(FUTEX_WAITV_MAX),
        ..w.opts.clone()
    };
    w.sep();
    super::print_array(&mut w.s, call.cap(0), call.args[0], n, 24, &o, |s, e| {
        s.push_str("{val=");
        fmt::hex(s, le_u64(e, 0));
        s.push_str(", uaddr=");
        fmt::ptr(s, le_u64(e, 8));
        s.push_str(", flags=");
        super::flags_hint(s, le_u32(e, 16) as u64, FUTEX_WAITER_FLAGS, "FUTEX_???", x);
        let reserved = le_u32(e, 20);
        if reserved != 0 {
            let _ = write!(s, ", __reserved={reserved:#x}");
        }
        s.push('}');
    });
    arg(w, 1, Uint);
    arg(w, 2, Hex32);
    arg(w, 3, TimespecIn);
    arg(w, 4, Enum(c::CLOCK_IDS, "CLOCK_???"));
}

/// mq_timedreceive(mqdes, msg, len, prio, timeout): all but the queue at exit.
fn dec_mq_timedreceive(w: &mut ArgWriter<'_>) {
    arg(w, 0, Fd);
    if !w.exiting() {
        return;
    }
    if w.call.ret().is_none_or(|r| r < 0) {
        arg(w, 1, Ptr);
    } else {
        arg(w, 1, BufOut);
    }
    arg(w, 2, Ulong);
    arg(w, 3, UintPtrOut);
    arg(w, 4, TimespecIn);
}

/// mq_notify(mqdes, sevp).
fn dec_mq_notify(w: &mut ArgWriter<'_>) {
    arg(w, 0, Fd);
    let call = w.call;
    let x = w.opts.xlat;
    w.sep();
    match call.data(1).filter(|d| d.len() >= 32) {
        Some(d) => sigevent(&mut w.s, d, x),
        None => fmt::ptr(&mut w.s, call.args[1]),
    }
}

/// io_uring_setup(entries, params): what the call is asked at entry, what
/// the kernel filled in at its successful exit, in one struct.
fn dec_io_uring_setup(w: &mut ArgWriter<'_>) {
    arg(w, 0, Uint);
    let call = w.call;
    let x = w.opts.xlat;
    let namer = w.env.fd_path;
    w.sep();
    let Some(d) = call
        .enter_cap(1)
        .map(|c| c.data.as_slice())
        .filter(|d| d.len() >= IO_URING_PARAMS)
    else {
        fmt::ptr(&mut w.s, call.args[1]);
        return;
    };
    let u = |k: usize| le_u32(d, k);
    let s = &mut w.s;
    s.push_str("{flags=");
    super::flags_hint(
        s,
        u(8) as u64,
        c::IO_URING_SETUP_FLAGS,
        "IORING_SETUP_???",
        x,
    );
    s.push_str(", sq_thread_cpu=");
    fmt::hex(s, u(12) as u64);
    let _ = write!(s, ", sq_thread_idle={}", u(16));
    if u(8) & 0x20 != 0 {
        s.push_str(", wq_fd=");
        super::fd(s, u(24) as i32, namer);
    }
    if (0..3).any(|k| u(28 + 4 * k) != 0) {
        s.push_str(", resv=[");
        for k in 0..3 {
            if k > 0 {
                s.push_str(", ");
            }
            fmt::hex(s, u(28 + 4 * k) as u64);
        }
        s.push(']');
    }
    if !w.exiting_inside() {
        return;
    }
    let s = &mut w.s;
    if let Some(o) = call
        .data(IO_URING_OUT_SLOT)
        .filter(|d| d.len() >= IO_URING_PARAMS)
    {
        let u = |k: usize| le_u32(o, k);
        let _ = write!(s, ", sq_entries={}, cq_entries={}, features=", u(0), u(4));
        super::flags_hint(
            s,
            u(20) as u64,
            super::IORING_FEATURES,
            "IORING_FEAT_???",
            x,
        );
        let ring = |s: &mut String, base: usize, names: [&str; 7]| {
            s.push('{');
            for (k, n) in names.iter().enumerate() {
                let _ = write!(
                    s,
                    "{}{n}={}",
                    if k > 0 { ", " } else { "" },
                    u(base + 4 * k)
                );
            }
            let (r1, r2) = (u(base + 28), le_u64(o, base + 32));
            if r1 != 0 {
                let _ = write!(s, ", resv1={r1:#x}");
            }
            if r2 != 0 {
                let _ = write!(s, ", resv2={r2:#x}");
            }
            s.push('}');
        };
        s.push_str(", sq_off=");
        ring(
            s,
            40,
            [
                "head",
                "tail",
                "ring_mask",
                "ring_entries",
                "flags",
                "dropped",
                "array",
            ],
        );
        s.push_str(", cq_off=");
        ring(
            s,
            80,
            [
                "head",
                "tail",
                "ring_mask",
                "ring_entries",
                "overflow",
                "cqes",
                "flags",
            ],
        );
    }
    s.push('}');
}

/// kexec_load(entry, nr_segments, segments, flags).
fn dec_kexec_load(w: &mut ArgWriter<'_>) {
    let call = w.call;
    let x = w.opts.xlat;
    arg(w, 0, Ptr);
    arg(w, 1, Ulong);
    w.sep();
    let n = call.args[1];
    if n > KEXEC_SEGMENT_MAX {
        fmt::ptr(&mut w.s, call.args[2]);
    } else {
        super::print_array(
            &mut w.s,
            call.cap(2),
            call.args[2],
            n,
            32,
            w.opts,
            |s, e| {
                s.push_str("{buf=");
                fmt::ptr(s, le_u64(e, 0));
                let _ = write!(s, ", bufsz={}, mem=", le_u64(e, 8));
                fmt::ptr(s, le_u64(e, 16));
                let _ = write!(s, ", memsz={}}}", le_u64(e, 24));
            },
        );
    }
    w.sep();
    let f = call.args[3];
    fmt::enumv(
        &mut w.s,
        f & 0xffff0000,
        KEXEC_ARCHES,
        "KEXEC_ARCH_???",
        x,
        true,
    );
    let rest = f & !0xffff0000;
    if rest != 0 {
        w.s.push('|');
        super::flags_hint(&mut w.s, rest, KEXEC_FLAGS, "KEXEC_???", x);
    }
}

/// _sysctl(args): the `struct __sysctl_args`, its pointers as addresses.
fn dec_sysctl(w: &mut ArgWriter<'_>) {
    let call = w.call;
    w.sep();
    let Some(d) = call.data(0).filter(|d| d.len() >= 48) else {
        fmt::ptr(&mut w.s, call.args[0]);
        return;
    };
    let s = &mut w.s;
    s.push_str("{name=");
    fmt::ptr(s, le_u64(d, 0));
    let _ = write!(s, ", nlen={}, oldval=", le_u32(d, 8) as i32);
    fmt::ptr(s, le_u64(d, 16));
    s.push_str(", oldlenp=");
    fmt::ptr(s, le_u64(d, 24));
    s.push_str(", newval=");
    fmt::ptr(s, le_u64(d, 32));
    let _ = write!(s, ", newlen={}}}", le_u64(d, 40));
}
