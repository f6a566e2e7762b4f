//! Attribute helpers shared by the netlink decoders (strace's
//! decode_nla_* and the little readers they use).

use std::fmt::Write;

use super::{fmt, nla_struct, Mem, Options};
use crate::consts as c;
use crate::fmt::Xlat;

pub(super) use super::super::sockaddr::ntop6;
pub(super) use super::super::sockopt::ifindex;
pub(super) use super::super::{le_u16 as le16, le_u32 as le32, le_u64 as le64};

/// A socket family's name (`AF_*`).
pub(super) fn family_name(s: &mut String, o: &Options, family: u8) {
    fmt::enumv(
        s,
        u64::from(family),
        c::SOCKET_FAMILIES,
        "AF_???",
        o.xlat,
        true,
    );
}

pub(super) fn nla_u16(s: &mut String, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nla_struct(s, m, addr, len, 2, |s, b| {
        let _ = write!(s, "{}", le16(b, 0));
    })
}

pub(super) fn nla_s32(s: &mut String, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nla_struct(s, m, addr, len, 4, |s, b| {
        let _ = write!(s, "{}", le32(b, 0) as i32);
    })
}

pub(super) fn nla_u64(s: &mut String, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nla_struct(s, m, addr, len, 8, |s, b| {
        let _ = write!(s, "{}", le64(b, 0));
    })
}

/// strace's decode_nla_ifindex.
pub(super) fn nla_ifindex(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nla_struct(s, m, addr, len, 4, |s, b| ifindex(s, le32(b, 0), o.xlat))
}

/// Up to 8 bytes as a little-endian number (strace's
/// umoven_to_uint64_or_printaddr): false when the attribute is longer than
/// 8 bytes or shorter than `size`; `size` bytes read (all of them when
/// `size` is 0); the address when they cannot be read.
pub(super) fn nla_upto64(
    s: &mut String,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    size: u64,
    f: impl FnOnce(&mut String, u64),
) -> bool {
    if len > 8 || len < size {
        return false;
    }
    let n = if size > 0 { len.min(size) } else { len } as usize;
    match m.get(addr, n) {
        Some(b) => {
            let mut v = [0u8; 8];
            v[..n].copy_from_slice(b);
            f(s, u64::from_le_bytes(v));
        }
        None => fmt::ptr(s, addr),
    }
    true
}

/// strace's decode_nla_xval: a named value of `size` bytes (of the
/// attribute's length, up to 8, when `size` is 0).
#[allow(clippy::too_many_arguments)]
pub(super) fn nla_xval(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    size: u64,
    table: &[(u64, &str)],
    dflt: &str,
) -> bool {
    nla_upto64(s, m, addr, len, size, |s, v| {
        fmt::enumv(s, v, table, dflt, o.xlat, true)
    })
}

/// strace's decode_nla_flags: flags of `size` bytes.
#[allow(clippy::too_many_arguments)]
pub(super) fn nla_flags(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    size: u64,
    table: &[(u64, &str)],
    dflt: &str,
) -> bool {
    nla_upto64(s, m, addr, len, size, |s, v| {
        fmt::flags_default(s, v, table, dflt, o.xlat)
    })
}

/// strace's decode_nla_clock_t: up to 8 bytes of clock ticks.
pub(super) fn nla_clock_t(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nla_upto64(s, m, addr, len, 0, |s, v| clock_t(s, v, o.xlat))
}

/// A clock_t in ticks as strace prints it: the value, and unless -X raw,
/// when it is not 0, the seconds in a comment (siginfo's).
fn clock_t(s: &mut String, v: u64, x: Xlat) {
    if x == Xlat::Raw {
        let _ = write!(s, "{v}");
    } else {
        s.push_str(&crate::siginfo::clock_t(v));
    }
}
