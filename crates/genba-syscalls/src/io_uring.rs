//! io_uring_register(fd, opcode, arg, nr_args) (a family decoded in its own
//! module: see [`super::family_decoder`]), printed as strace 6.1 prints it:
//! what `arg` points to depends on the opcode (iovecs, descriptors, a probe,
//! restrictions, resource tables, a CPU mask, worker counts, ring
//! descriptors, a buffer ring).
//!
//! `arg`'s bytes are copied at entry (a fixed amount: what lies before an
//! unmapped page is kept, which is what the arrays' `... /* ADDR */` needs),
//! and again after a successful return for the two opcodes the kernel
//! writes back (PROBE, IOWQ_MAX_WORKERS). The tables a resource structure
//! points to (its descriptors or iovecs, and its tags) are copied at entry
//! through the pointers in it.

use std::fmt::Write;

use genba_events::{Capture, CaptureItem};

use super::{
    arg, custom, fd, le_u32, le_u64, nonzero_tail, print_array_data, sched, ArgWriter, CallView,
    CapCond, CapKind, CapPlan, CapWhen, Decoder, Options, Ret, Ty,
};
use crate::fmt::{self, Xlat};

/// The slot of `arg`'s bytes at entry (its own).
const SLOT_ARG: usize = 2;
/// `arg`'s bytes after a successful return.
const SLOT_OUT: usize = 5;
/// What the structure's second word points to (FILES_UPDATE's fds, the
/// update2 structure's data).
const SLOT_W1: usize = 4;
/// What the register structure's data points to (its third word).
const SLOT_REG_DATA: usize = 0;
/// What the register structure's tags point to (its fourth word).
const SLOT_REG_TAGS: usize = 1;
/// What the update2 structure's tags point to (its third word).
const SLOT_UPD_TAGS: usize = 3;

/// The bytes copied of `arg`: a probe of 256 operations, the most strace
/// reads.
const ARG_MAX: u32 = 16 + 8 * 256;
/// The bytes copied of a table a structure points to.
const TABLE_MAX: u32 = 1024;

/// The opcodes (`uring_register_opcodes`).
static REGISTER_OPS: &[(u64, &str)] = &[
    (0, "IORING_REGISTER_BUFFERS"),
    (1, "IORING_UNREGISTER_BUFFERS"),
    (2, "IORING_REGISTER_FILES"),
    (3, "IORING_UNREGISTER_FILES"),
    (4, "IORING_REGISTER_EVENTFD"),
    (5, "IORING_UNREGISTER_EVENTFD"),
    (6, "IORING_REGISTER_FILES_UPDATE"),
    (7, "IORING_REGISTER_EVENTFD_ASYNC"),
    (8, "IORING_REGISTER_PROBE"),
    (9, "IORING_REGISTER_PERSONALITY"),
    (10, "IORING_UNREGISTER_PERSONALITY"),
    (11, "IORING_REGISTER_RESTRICTIONS"),
    (12, "IORING_REGISTER_ENABLE_RINGS"),
    (13, "IORING_REGISTER_FILES2"),
    (14, "IORING_REGISTER_FILES_UPDATE2"),
    (15, "IORING_REGISTER_BUFFERS2"),
    (16, "IORING_REGISTER_BUFFERS_UPDATE"),
    (17, "IORING_REGISTER_IOWQ_AFF"),
    (18, "IORING_UNREGISTER_IOWQ_AFF"),
    (19, "IORING_REGISTER_IOWQ_MAX_WORKERS"),
    (20, "IORING_REGISTER_RING_FDS"),
    (21, "IORING_UNREGISTER_RING_FDS"),
    (22, "IORING_REGISTER_PBUF_RING"),
    (23, "IORING_UNREGISTER_PBUF_RING"),
];

/// The submission queue operations (`uring_ops`), numbered in order.
static OP_NAMES: &[&str] = &[
    "IORING_OP_NOP",
    "IORING_OP_READV",
    "IORING_OP_WRITEV",
    "IORING_OP_FSYNC",
    "IORING_OP_READ_FIXED",
    "IORING_OP_WRITE_FIXED",
    "IORING_OP_POLL_ADD",
    "IORING_OP_POLL_REMOVE",
    "IORING_OP_SYNC_FILE_RANGE",
    "IORING_OP_SENDMSG",
    "IORING_OP_RECVMSG",
    "IORING_OP_TIMEOUT",
    "IORING_OP_TIMEOUT_REMOVE",
    "IORING_OP_ACCEPT",
    "IORING_OP_ASYNC_CANCEL",
    "IORING_OP_LINK_TIMEOUT",
    "IORING_OP_CONNECT",
    "IORING_OP_FALLOCATE",
    "IORING_OP_OPENAT",
    "IORING_OP_CLOSE",
    "IORING_OP_FILES_UPDATE",
    "IORING_OP_STATX",
    "IORING_OP_READ",
    "IORING_OP_WRITE",
    "IORING_OP_FADVISE",
    "IORING_OP_MADVISE",
    "IORING_OP_SEND",
    "IORING_OP_RECV",
    "IORING_OP_OPENAT2",
    "IORING_OP_EPOLL_CTL",
    "IORING_OP_SPLICE",
    "IORING_OP_PROVIDE_BUFFERS",
    "IORING_OP_REMOVE_BUFFERS",
    "IORING_OP_TEE",
    "IORING_OP_SHUTDOWN",
    "IORING_OP_RENAMEAT",
    "IORING_OP_UNLINKAT",
    "IORING_OP_MKDIRAT",
    "IORING_OP_SYMLINKAT",
    "IORING_OP_LINKAT",
    "IORING_OP_MSG_RING",
    "IORING_OP_FSETXATTR",
    "IORING_OP_SETXATTR",
    "IORING_OP_FGETXATTR",
    "IORING_OP_GETXATTR",
    "IORING_OP_SOCKET",
    "IORING_OP_URING_CMD",
];

/// A probe operation's flags.
static OP_FLAGS: &[(u64, &str)] = &[(1, "IO_URING_OP_SUPPORTED")];

/// The register structure's flags.
static RSRC_FLAGS: &[(u64, &str)] = &[(1, "IORING_RSRC_REGISTER_SPARSE")];

/// A restriction's kinds.
static RESTRICTION_OPS: &[(u64, &str)] = &[
    (0, "IORING_RESTRICTION_REGISTER_OP"),
    (1, "IORING_RESTRICTION_SQE_OP"),
    (2, "IORING_RESTRICTION_SQE_FLAGS_ALLOWED"),
    (3, "IORING_RESTRICTION_SQE_FLAGS_REQUIRED"),
];

/// A submission queue entry's flags.
static SQE_FLAGS: &[(u64, &str)] = &[
    (1 << 0, "IOSQE_FIXED_FILE"),
    (1 << 1, "IOSQE_IO_DRAIN"),
    (1 << 2, "IOSQE_IO_LINK"),
    (1 << 3, "IOSQE_IO_HARDLINK"),
    (1 << 4, "IOSQE_ASYNC"),
    (1 << 5, "IOSQE_BUFFER_SELECT"),
    (1 << 6, "IOSQE_CQE_SKIP_SUCCESS"),
];

/// The io-wq worker kinds (IOWQ_MAX_WORKERS's indices).
static IOWQ_ACCT: &[(u64, &str)] = &[(0, "IO_WQ_BOUND"), (1, "IO_WQ_UNBOUND")];

/// A descriptor an update leaves alone.
static FILES_UPDATE_FDS: &[(u64, &str)] = &[((-2i64) as u64, "IORING_REGISTER_FILES_SKIP")];

/// The opcodes whose `arg` is read.
const ARG_READ: &[u8] = &[0, 2, 4, 6, 7, 8, 11, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23];

/// The decoder of one of this family's calls.
pub(super) fn decoder(name: &str) -> Option<Decoder> {
    match name {
        "io_uring_register" => Some(custom(dec_io_uring_register, Ret::Dec)),
        _ => None,
    }
}

/// The argument types a custom decoder of this family reads: none beyond
/// what [`plan`] asks for.
pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    match name {
        "io_uring_register" => Some(&[]),
        _ => None,
    }
}

/// `arg`'s bytes, at entry and after a successful return, and the tables
/// the resource structures point to.
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    if name != "io_uring_register" {
        return;
    }
    let _ = o;
    out[SLOT_ARG] = CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::Enter,
        max: ARG_MAX,
        cond: Some(CapCond::one_of(1, u32::MAX, ARG_READ)),
        ..Default::default()
    };
    out[SLOT_OUT] = CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::ExitOk,
        max: ARG_MAX,
        cond: Some(CapCond::one_of(1, u32::MAX, &[8, 19])),
        src_arg: Some(2),
        ..Default::default()
    };
    let deref = |word: u8, ops: &[u8]| CapPlan {
        kind: CapKind::Fixed,
        when: CapWhen::Enter,
        len_arg: 0xff,
        max: TABLE_MAX,
        cond: Some(CapCond::one_of(1, u32::MAX, ops)),
        src_arg: Some(2),
        deref: Some(word),
        ..Default::default()
    };
    out[SLOT_W1] = deref(1, &[6, 14, 16]);
    out[SLOT_REG_DATA] = deref(2, &[13, 15]);
    out[SLOT_REG_TAGS] = deref(3, &[13, 15]);
    out[SLOT_UPD_TAGS] = deref(2, &[14, 16]);
}

/// Nothing beyond the number.
pub(super) fn return_text(s: &mut String, name: &str, call: &CallView<'_>, x: Xlat) -> bool {
    let _ = (s, name, call, x);
    false
}

/// A copy's bytes and whether it stopped at memory that could not be read:
/// the exit's copy unless it faulted where the entry's did not.
fn copy<'a>(call: &CallView<'a>, slot: usize) -> Option<(&'a [u8], bool)> {
    let find = |caps: &'a [Capture]| {
        caps.iter()
            .find(|c| c.arg as usize == slot && c.item == CaptureItem::Data)
    };
    let pick = |c: &'a Capture| (c.data.as_slice(), c.fault);
    if let Some((_, caps)) = call.exit {
        if let Some(c) = find(caps) {
            if !c.fault || find(call.enter).is_none() {
                return Some(pick(c));
            }
        }
    }
    find(call.enter).map(pick)
}

fn dec_io_uring_register(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let op = a[1] as u32;
    let addr = a[2];
    let n = a[3] as u32;
    let x = w.opts.xlat;
    arg(w, 0, Ty::Fd);
    w.sep();
    fmt::enumv(
        &mut w.s,
        op as u64,
        REGISTER_OPS,
        "IORING_REGISTER_???",
        x,
        true,
    );
    w.sep();
    let call = w.call;
    let o = w.opts;
    let namer = w.env.fd_path;
    let argd = copy(&call, SLOT_ARG);
    match op {
        0 => iovs(&mut w.s, argd, addr, n as u64, o),
        2 | 4 | 7 => print_array_data(&mut w.s, argd, addr, n as u64, 4, o, |s, e| {
            fd(s, le_u32(e, 0) as i32, namer)
        }),
        6 => match whole(argd, addr, 16) {
            Some(d) => {
                let _ = write!(w.s, "{{offset={}", le_u32(d, 0));
                if le_u32(d, 4) != 0 {
                    let _ = write!(w.s, ", resv={:#x}", le_u32(d, 4));
                }
                w.s.push_str(", fds=");
                update_fds(&mut w.s, copy(&call, SLOT_W1), le_u64(d, 8), n, o, namer);
                w.s.push('}');
            }
            None => fmt::ptr(&mut w.s, addr),
        },
        8 => return probe(w, addr, n),
        11 => print_array_data(&mut w.s, argd, addr, n as u64, 16, o, |s, e| {
            restriction(s, e, x)
        }),
        13 | 15 => rsrc_register(w, op, addr, n),
        14 | 16 => rsrc_update(w, op, addr, n),
        17 => {
            let d = argd.map(|(d, _)| d);
            sched::affinity(&mut w.s, d, addr, n as usize)
        }
        19 => return max_workers(w, addr, n),
        20 | 21 => print_array_data(&mut w.s, argd, addr, n as u64, 16, o, |s, e| {
            ring_fd(s, e, op == 20, namer)
        }),
        22 | 23 => match whole(argd, addr, 40) {
            Some(d) => buf_reg(&mut w.s, d),
            None => fmt::ptr(&mut w.s, addr),
        },
        _ => fmt::ptr(&mut w.s, addr),
    }
    w.sep();
    let _ = write!(w.s, "{n}");
}

/// The first `len` bytes of a copy, when it holds that many (and `addr` is
/// not NULL).
fn whole(d: Option<(&[u8], bool)>, addr: u64, len: usize) -> Option<&[u8]> {
    d.filter(|(d, _)| addr != 0 && d.len() >= len)
        .map(|(d, _)| &d[..len])
}

/// An array of iovecs as addresses and lengths.
fn iovs(s: &mut String, d: Option<(&[u8], bool)>, addr: u64, n: u64, o: &Options) {
    print_array_data(s, d, addr, n, 16, o, |s, e| {
        s.push_str("{iov_base=");
        fmt::ptr(s, le_u64(e, 0));
        let _ = write!(s, ", iov_len={}}}", le_u64(e, 8));
    })
}

/// Descriptors an update installs: below -1, the special values.
fn update_fds(
    s: &mut String,
    d: Option<(&[u8], bool)>,
    addr: u64,
    n: u32,
    o: &Options,
    namer: Option<&dyn Fn(i32) -> Option<String>>,
) {
    let x = o.xlat;
    print_array_data(s, d, addr, n as u64, 4, o, |s, e| {
        let v = le_u32(e, 0) as i32;
        if v < -1 {
            fmt::enumv(s, v as i64 as u64, FILES_UPDATE_FDS, "", x, false);
        } else {
            fd(s, v, namer);
        }
    })
}

/// Hex words: `[0, 0x1, 0x2]`.
fn hex_words(s: &mut String, words: impl IntoIterator<Item = u64>) {
    s.push('[');
    for (k, v) in words.into_iter().enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        fmt::hex(s, v);
    }
    s.push(']');
}

/// A submission queue operation (unsigned, named).
fn op_name(s: &mut String, v: u64, x: Xlat, as_hex: bool) {
    let table: Vec<(u64, &str)> = OP_NAMES
        .iter()
        .enumerate()
        .map(|(k, n)| (k as u64, *n))
        .collect();
    fmt::enumv(s, v, &table, "IORING_OP_???", x, as_hex);
}

/// IORING_REGISTER_PROBE: the probe as asked (unless all zero, as it should
/// be) and as the kernel filled it; `nr_args` is printed here.
fn probe(w: &mut ArgWriter<'_>, addr: u64, n: u32) {
    let x = w.opts.xlat;
    let o = w.opts;
    let call = w.call;
    let size = 16 + 8 * n as usize;
    let mut printed = false;
    if n > 256 {
        fmt::ptr(&mut w.s, addr);
    } else {
        match whole(copy(&call, SLOT_ARG), addr, size) {
            None => fmt::ptr(&mut w.s, addr),
            Some(d) if d.iter().all(|&b| b == 0) => {
                if !w.exiting_inside() {
                    return;
                }
                probe_exit(w, addr, n, false);
                return;
            }
            Some(d) => {
                probe_struct(&mut w.s, d, n as usize, false, o, x);
                printed = true;
            }
        }
    }
    if printed {
        if !w.exiting_inside() {
            return;
        }
        probe_exit(w, addr, n, true);
        return;
    }
    w.sep();
    let _ = write!(w.s, "{n}");
}

/// The probe after the call, then `nr_args`.
fn probe_exit(w: &mut ArgWriter<'_>, addr: u64, n: u32, printed: bool) {
    let x = w.opts.xlat;
    let o = w.opts;
    let call = w.call;
    if call.ret().unwrap_or(-1) < 0 {
        if !printed {
            fmt::ptr(&mut w.s, addr);
        }
    } else {
        if printed {
            w.s.push_str(" => ");
        }
        match whole(copy(&call, SLOT_OUT), addr, 16 + 8 * n as usize) {
            Some(d) => {
                let len = d[1] as usize;
                probe_struct(&mut w.s, d, len.min(n as usize), (n as usize) < len, o, x)
            }
            None => fmt::ptr(&mut w.s, addr),
        }
    }
    w.sep();
    let _ = write!(w.s, "{n}");
}

/// `struct io_uring_probe` with `count` of its operations.
fn probe_struct(s: &mut String, d: &[u8], count: usize, truncated: bool, o: &Options, x: Xlat) {
    s.push_str("{last_op=");
    op_name(s, d[0] as u64, x, false);
    let _ = write!(s, ", ops_len={}", d[1]);
    let resv = u16::from_le_bytes([d[2], d[3]]);
    if resv != 0 {
        let _ = write!(s, ", resv={resv:#x}");
    }
    let resv2 = [le_u32(d, 4), le_u32(d, 8), le_u32(d, 12)];
    if resv2.iter().any(|&v| v != 0) {
        s.push_str(", resv2=");
        hex_words(s, resv2.map(u64::from));
    }
    s.push_str(", ops=[");
    let limit = if o.verbose { usize::MAX } else { o.strsize };
    let mut cut = false;
    for k in 0..count {
        if k > 0 {
            s.push_str(", ");
        }
        if k >= limit {
            s.push_str("...");
            cut = true;
            break;
        }
        let e = &d[16 + 8 * k..24 + 8 * k];
        s.push_str("{op=");
        op_name(s, e[0] as u64, x, false);
        if e[1] != 0 {
            let _ = write!(s, ", resv={:#x}", e[1]);
        }
        s.push_str(", flags=");
        let flags = u16::from_le_bytes([e[2], e[3]]) as u64;
        fmt::flags_default(s, flags, OP_FLAGS, "IO_URING_OP_???", x);
        let resv2 = le_u32(e, 4);
        if resv2 != 0 {
            let _ = write!(s, ", resv2={resv2:#x}");
        }
        s.push('}');
    }
    if truncated && !cut {
        if count > 0 {
            s.push_str(", ");
        }
        s.push_str("...");
    }
    s.push_str("]}");
}

/// `struct io_uring_restriction`.
fn restriction(s: &mut String, e: &[u8], x: Xlat) {
    let opcode = u16::from_le_bytes([e[0], e[1]]) as u64;
    let v = e[2] as u64;
    s.push_str("{opcode=");
    fmt::enumv(
        s,
        opcode,
        RESTRICTION_OPS,
        "IORING_RESTRICTION_???",
        x,
        true,
    );
    match opcode {
        0 => {
            s.push_str(", register_op=");
            fmt::enumv(s, v, REGISTER_OPS, "IORING_REGISTER_???", x, true);
        }
        1 => {
            s.push_str(", sqe_op=");
            op_name(s, v, x, true);
        }
        2 | 3 => {
            s.push_str(", sqe_flags=");
            fmt::flags_default(s, v, SQE_FLAGS, "IOSQE_???", x);
        }
        _ => {
            s.push_str(" /* op: ");
            fmt::hex(s, v);
            s.push_str(" */");
        }
    }
    if e[3] != 0 {
        let _ = write!(s, ", resv={:#x}", e[3]);
    }
    let resv2 = [le_u32(e, 4), le_u32(e, 8), le_u32(e, 12)];
    if resv2.iter().any(|&v| v != 0) {
        s.push_str(", resv2=");
        hex_words(s, resv2.map(u64::from));
    }
    s.push('}');
}

/// `data=` of a resource structure: descriptors (the update's with their
/// special values) or iovecs.
#[allow(clippy::too_many_arguments)]
fn rsrc_data(
    s: &mut String,
    d: Option<(&[u8], bool)>,
    addr: u64,
    nr: u32,
    op: u32,
    o: &Options,
    namer: Option<&dyn Fn(i32) -> Option<String>>,
) {
    s.push_str(", data=");
    match op {
        13 => print_array_data(s, d, addr, nr as u64, 4, o, |s, e| {
            fd(s, le_u32(e, 0) as i32, namer)
        }),
        14 => update_fds(s, d, addr, nr, o, namer),
        _ => iovs(s, d, addr, nr as u64, o),
    }
}

/// `tags=` of a resource structure.
fn rsrc_tags(s: &mut String, d: Option<(&[u8], bool)>, addr: u64, nr: u32, o: &Options) {
    s.push_str(", tags=");
    print_array_data(s, d, addr, nr as u64, 8, o, |s, e| {
        fmt::hex(s, le_u64(e, 0))
    });
}

/// IORING_REGISTER_FILES2, IORING_REGISTER_BUFFERS2: `struct
/// io_uring_rsrc_register`, `size` bytes of it.
fn rsrc_register(w: &mut ArgWriter<'_>, op: u32, addr: u64, size: u32) {
    let call = w.call;
    let o = w.opts;
    let namer = w.env.fd_path;
    let argd = copy(&call, SLOT_ARG);
    let d = match whole(argd, addr, 32) {
        Some(d) if size >= 32 => d,
        _ => return fmt::ptr(&mut w.s, addr),
    };
    let s = &mut w.s;
    let nr = le_u32(d, 0);
    let _ = write!(s, "{{nr={nr}, flags=");
    fmt::flags_default(
        s,
        le_u32(d, 4) as u64,
        RSRC_FLAGS,
        "IORING_RSRC_REGISTER_???",
        o.xlat,
    );
    if le_u64(d, 8) != 0 {
        let _ = write!(s, ", resv2={:#x}", le_u64(d, 8));
    }
    rsrc_data(
        s,
        copy(&call, SLOT_REG_DATA),
        le_u64(d, 16),
        nr,
        op,
        o,
        namer,
    );
    rsrc_tags(s, copy(&call, SLOT_REG_TAGS), le_u64(d, 24), nr, o);
    if size > 32 {
        let all = argd.map(|(d, _)| d);
        nonzero_tail(s, all, 32, (size as usize).min(4096), o, ", ");
    }
    s.push('}');
}

/// IORING_REGISTER_FILES_UPDATE2, IORING_REGISTER_BUFFERS_UPDATE: `struct
/// io_uring_rsrc_update2`, `size` bytes of it.
fn rsrc_update(w: &mut ArgWriter<'_>, op: u32, addr: u64, size: u32) {
    let call = w.call;
    let o = w.opts;
    let namer = w.env.fd_path;
    let argd = copy(&call, SLOT_ARG);
    let d = match whole(argd, addr, 32) {
        Some(d) if size >= 32 => d,
        _ => return fmt::ptr(&mut w.s, addr),
    };
    let s = &mut w.s;
    let nr = le_u32(d, 24);
    let _ = write!(s, "{{offset={}", le_u32(d, 0));
    if le_u32(d, 4) != 0 {
        let _ = write!(s, ", resv={:#x}", le_u32(d, 4));
    }
    rsrc_data(s, copy(&call, SLOT_W1), le_u64(d, 8), nr, op, o, namer);
    rsrc_tags(s, copy(&call, SLOT_UPD_TAGS), le_u64(d, 16), nr, o);
    let _ = write!(s, ", nr={nr}");
    if le_u32(d, 28) != 0 {
        let _ = write!(s, ", resv2={:#x}", le_u32(d, 28));
    }
    if size > 32 {
        let all = argd.map(|(d, _)| d);
        nonzero_tail(s, all, 32, (size as usize).min(4096), o, ", ");
    }
    s.push('}');
}

/// IORING_REGISTER_IOWQ_MAX_WORKERS: the counts asked for, and (when all
/// could be read) those the kernel gave back; `nr_args` is printed here.
fn max_workers(w: &mut ArgWriter<'_>, addr: u64, n: u32) {
    let call = w.call;
    let o = w.opts;
    let argd = copy(&call, SLOT_ARG);
    let whole_read = addr != 0
        && n > 0
        && argd.is_some_and(|(d, _)| d.len() >= 4 * n as usize || d.len() >= 4 * o.strsize);
    workers(&mut w.s, argd, addr, n, o);
    if whole_read {
        w.s.push_str(" => ");
        if !w.exiting_inside() {
            return;
        }
        if call.ret().unwrap_or(-1) < 0 {
            fmt::ptr(&mut w.s, addr);
        } else {
            workers(&mut w.s, copy(&call, SLOT_OUT), addr, n, o);
        }
    }
    w.sep();
    let _ = write!(w.s, "{n}");
}

/// `[[IO_WQ_BOUND]=N, [IO_WQ_UNBOUND]=M]`.
fn workers(s: &mut String, d: Option<(&[u8], bool)>, addr: u64, n: u32, o: &Options) {
    let mut k = 0u64;
    print_array_data(s, d, addr, n as u64, 4, o, |s, e| {
        s.push('[');
        fmt::enumv(s, k, IOWQ_ACCT, "IO_WQ_???", o.xlat, false);
        let _ = write!(s, "]={}", le_u32(e, 0));
        k += 1;
    })
}

/// `struct io_uring_rsrc_update` of RING_FDS (`register`) and
/// UNREGISTER_RING_FDS.
fn ring_fd(
    s: &mut String,
    e: &[u8],
    register: bool,
    namer: Option<&dyn Fn(i32) -> Option<String>>,
) {
    let offset = le_u32(e, 0);
    if register && offset == u32::MAX {
        s.push_str("{offset=-1");
    } else {
        let _ = write!(s, "{{offset={offset}");
    }
    let resv = le_u32(e, 4);
    if resv != 0 {
        let _ = write!(s, ", resv={resv:#x}");
    }
    let data = le_u64(e, 8);
    if register {
        s.push_str(", data=");
        fd(s, data as u32 as i32, namer);
    } else if data != 0 {
        let _ = write!(s, ", data={data:#x}");
    }
    s.push('}');
}

/// `struct io_uring_buf_reg`.
fn buf_reg(s: &mut String, d: &[u8]) {
    s.push_str("{ring_addr=");
    fmt::ptr(s, le_u64(d, 0));
    let _ = write!(
        s,
        ", ring_entries={}, bgid={}",
        le_u32(d, 8),
        u16::from_le_bytes([d[12], d[13]])
    );
    let pad = u16::from_le_bytes([d[14], d[15]]);
    if pad != 0 {
        let _ = write!(s, ", pad={pad:#x}");
    }
    let resv = [le_u64(d, 16), le_u64(d, 24), le_u64(d, 32)];
    if resv.iter().any(|&v| v != 0) {
        s.push_str(", resv=");
        hex_words(s, resv);
    }
    s.push('}');
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{cap, render};
    use super::super::{plan, CapKind, Options};
    use super::{SLOT_ARG, SLOT_OUT, SLOT_REG_DATA, SLOT_REG_TAGS};
    use crate::fmt::Xlat;

    const ADDR: u64 = 0x7f00_0000_1000;

    fn o(xlat: Xlat) -> Options {
        Options {
            xlat,
            ..Options::default()
        }
    }

    #[test]
    fn the_plan_copies_arg_and_the_tables_it_points_to() {
        let p = plan("io_uring_register", &Options::default());
        assert_eq!(p[SLOT_ARG].kind, CapKind::Fixed);
        assert_eq!(p[SLOT_OUT].src_arg, Some(2));
        assert_eq!(p[SLOT_REG_DATA].deref, Some(2));
        assert_eq!(p[SLOT_REG_TAGS].deref, Some(3));
    }

    #[test]
    fn restrictions_follow_xlat() {
        // REGISTER_OP BUFFERS; SQE_FLAGS_ALLOWED 0xc0 with resv; unknown 4
        let mut d = vec![0u8; 48];
        d[16..18].copy_from_slice(&2u16.to_le_bytes());
        d[18] = 0xc0;
        d[19] = 0x77;
        d[32..34].copy_from_slice(&4u16.to_le_bytes());
        let enter = [cap(2, &d)];
        let args = [0, 11, ADDR, 3, 0, 0];
        assert_eq!(
            render("io_uring_register", args, &enter, None, &o(Xlat::Abbrev)),
            "0, IORING_REGISTER_RESTRICTIONS, [{opcode=IORING_RESTRICTION_REGISTER_OP, \
             register_op=IORING_REGISTER_BUFFERS}, {opcode=IORING_RESTRICTION_SQE_FLAGS_ALLOWED, \
             sqe_flags=IOSQE_CQE_SKIP_SUCCESS|0x80, resv=0x77}, \
             {opcode=0x4 /* IORING_RESTRICTION_??? */ /* op: 0 */}], 3"
        );
        assert_eq!(
            render("io_uring_register", args, &enter, None, &o(Xlat::Raw)),
            "0, 0xb, [{opcode=0, register_op=0}, {opcode=0x2, sqe_flags=0xc0, resv=0x77}, \
             {opcode=0x4 /* op: 0 */}], 3"
        );
    }

    #[test]
    fn a_probe_filled_by_the_kernel_is_shown_after_the_arrow() {
        // all zero at entry: nothing until the exit
        let zero = vec![0u8; 16 + 8];
        let mut out = zero.clone();
        out[0] = 1; // last_op READV
        out[1] = 2; // ops_len
        out[16 + 2] = 1; // SUPPORTED
        let enter = [cap(2, &zero)];
        let exit = [cap(5, &out)];
        let args = [0, 8, ADDR, 1, 0, 0];
        assert_eq!(
            render(
                "io_uring_register",
                args,
                &enter,
                Some((0, &exit)),
                &o(Xlat::Abbrev)
            ),
            "0, IORING_REGISTER_PROBE, {last_op=IORING_OP_READV, ops_len=2, \
             ops=[{op=IORING_OP_NOP, flags=IO_URING_OP_SUPPORTED}, ...]}, 1"
        );
        assert_eq!(
            render(
                "io_uring_register",
                args,
                &enter,
                Some((-9, &[])),
                &o(Xlat::Abbrev)
            ),
            format!("0, IORING_REGISTER_PROBE, {ADDR:#x}, 1")
        );
    }

    #[test]
    fn max_workers_are_indexed() {
        let d: Vec<u8> = [0u32, 1, 0xbedf_aced]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let enter = [cap(2, &d)];
        let exit = [cap(5, &d)];
        let args = [0, 19, ADDR, 3, 0, 0];
        assert_eq!(
            render("io_uring_register", args, &enter, Some((0, &exit)), &o(Xlat::Verbose)),
            "0, 0x13 /* IORING_REGISTER_IOWQ_MAX_WORKERS */, [[0 /* IO_WQ_BOUND */]=0, \
             [1 /* IO_WQ_UNBOUND */]=1, [2 /* IO_WQ_??? */]=3202329837] => [[0 /* IO_WQ_BOUND */]=0, \
             [1 /* IO_WQ_UNBOUND */]=1, [2 /* IO_WQ_??? */]=3202329837], 3"
        );
    }
}
