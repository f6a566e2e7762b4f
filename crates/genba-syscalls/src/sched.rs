//! The scheduler's calls: policies, parameters, attributes and CPU affinity.

use std::fmt::Write;

use super::{arg, le_u32, le_u64, ArgWriter, Ty::*};
use crate::consts as c;
use crate::fmt::{self, Xlat};

/// `SCHED_FLAG_*` of `struct sched_attr`.
static SCHED_FLAGS: &[(u64, &str)] = &[
    (0x01, "SCHED_FLAG_RESET_ON_FORK"),
    (0x02, "SCHED_FLAG_RECLAIM"),
    (0x04, "SCHED_FLAG_DL_OVERRUN"),
    (0x08, "SCHED_FLAG_KEEP_POLICY"),
    (0x10, "SCHED_FLAG_KEEP_PARAMS"),
    (0x20, "SCHED_FLAG_UTIL_CLAMP_MIN"),
    (0x40, "SCHED_FLAG_UTIL_CLAMP_MAX"),
];

/// The first version of `struct sched_attr`, and the one with the
/// utilization clamps (the largest strace 6.1 knows).
pub(super) const SCHED_ATTR_MIN: usize = 48;
pub(super) const SCHED_ATTR_V1: usize = 56;

/// The most of a CPU mask strace reads: the size the kernel accepts for
/// `sched_getaffinity`, which strace probes from 128 bytes up; 128 bytes hold
/// 1024 CPUs, more than any machine genba runs on reports.
pub(super) const CPUSET_MAX: usize = 128;

/// A CPU mask of `len` bytes as the numbers of its set bits, `[0 1 3]`; what
/// was not read (beyond [`CPUSET_MAX`], word-rounded) as `...`.
pub(super) fn cpu_set(s: &mut String, d: &[u8], len: usize) {
    s.push('[');
    let mut first = true;
    for (i, b) in d.iter().enumerate() {
        for bit in 0..8 {
            if b & (1 << bit) != 0 {
                if !first {
                    s.push(' ');
                }
                first = false;
                let _ = write!(s, "{}", i * 8 + bit);
            }
        }
    }
    let read = len.min(CPUSET_MAX).div_ceil(8) * 8;
    if read < len {
        if !first {
            s.push(' ');
        }
        s.push_str("...");
    }
    s.push(']');
}

/// `struct sched_attr` from `d`: `size` the bytes it claims (the kernel's
/// for sched_getattr), `usize` those the caller gave (sched_setattr), for
/// the `...` of a larger struct than strace knows.
fn sched_attr(s: &mut String, d: &[u8], set: bool, usize: usize, x: Xlat) {
    let size_field = le_u32(d, 0);
    let size = if set {
        usize.min(SCHED_ATTR_V1)
    } else {
        size_field as usize
    };
    let _ = write!(s, "{{size={size_field}");
    if size >= SCHED_ATTR_MIN && d.len() >= SCHED_ATTR_MIN {
        let policy = le_u32(d, 4);
        let flags = le_u64(d, 8);
        let keep = |bits: u64| set && flags & bits != 0;
        if !set || (policy as i32) < 0 || !keep(0x08 | 0x10) {
            s.push_str(", sched_policy=");
            fmt::enumv(s, policy as u64, c::SCHED_POLICIES, "SCHED_???", x, true);
        }
        s.push_str(", sched_flags=");
        fmt::flags_hinted(s, flags, SCHED_FLAGS, x);
        if !keep(0x10) {
            let _ = write!(
                s,
                ", sched_nice={}, sched_priority={}, sched_runtime={}, sched_deadline={}, sched_period={}",
                le_u32(d, 16) as i32,
                le_u32(d, 20),
                le_u64(d, 24),
                le_u64(d, 32),
                le_u64(d, 40)
            );
        }
        if size >= SCHED_ATTR_V1 && d.len() >= SCHED_ATTR_V1 {
            let _ = write!(
                s,
                ", sched_util_min={}, sched_util_max={}",
                le_u32(d, 48),
                le_u32(d, 52)
            );
        }
    }
    if set && usize > size {
        s.push_str(", ...");
    }
    s.push('}');
}

/// sched_setattr(pid, attr, flags): the size the kernel wrote back when the
/// struct was too big or too small for it (E2BIG).
pub(super) fn dec_sched_setattr(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    arg(w, 0, Int);
    w.sep();
    match w.call.data(1) {
        Some(d) if d.len() >= 4 => {
            let claimed = le_u32(d, 0) as usize;
            let usize = if claimed == 0 {
                SCHED_ATTR_MIN
            } else {
                claimed
            };
            if usize.min(SCHED_ATTR_V1) >= SCHED_ATTR_MIN && d.len() < usize.min(SCHED_ATTR_V1) {
                fmt::ptr(&mut w.s, a[1]);
            } else {
                sched_attr(&mut w.s, d, true, usize, x);
            }
        }
        _ => fmt::ptr(&mut w.s, a[1]),
    }
    if !w.exiting_inside() {
        return;
    }
    // E2BIG: the size the kernel supports, written back
    if w.call.ret() == Some(-7) {
        if let Some(d) = w.call.exit_cap(5).filter(|d| d.data.len() >= 4) {
            let _ = write!(w.s, " => {{size={}}}", le_u32(&d.data, 0));
        }
    }
    w.first = false;
    w.sep();
    let _ = write!(w.s, "{}", a[2] as u32);
}

/// sched_getattr(pid, attr, size, flags).
pub(super) fn dec_sched_getattr(w: &mut ArgWriter<'_>) {
    let a = w.call.args;
    let x = w.opts.xlat;
    arg(w, 0, Int);
    if !w.exiting() {
        return;
    }
    w.sep();
    let size = a[2] as u32 as usize;
    match w.call.exit_cap(1) {
        Some(cap) if size != 0 && cap.data.len() >= 4 => {
            let mut d = cap.data.clone();
            d.resize(SCHED_ATTR_V1, 0);
            sched_attr(&mut w.s, &d, false, size, x)
        }
        _ => fmt::ptr(&mut w.s, a[1]),
    }
    let _ = write!(w.s, ", {}, {}", a[2] as u32, a[3] as u32);
}

/// sched_getaffinity's and sched_setaffinity's mask.
pub(super) fn affinity(s: &mut String, d: Option<&[u8]>, addr: u64, len: usize) {
    if addr == 0 {
        s.push_str("NULL");
    } else if len == 0 {
        s.push_str("[]");
    } else {
        match d {
            Some(d) if d.len() >= len.min(CPUSET_MAX) => cpu_set(s, &d[..len.min(CPUSET_MAX)], len),
            _ => fmt::ptr(s, addr),
        }
    }
}
