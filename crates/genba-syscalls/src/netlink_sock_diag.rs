//! NETLINK_SOCK_DIAG's payloads: a request or an answer by the address
//! family in its first byte (strace's netlink_sock_diag.c and its
//! per-family files).

use std::fmt::Write;

use super::{fmt, hex_str, nlattrs_with, x, Hdr, Mem, Options, NLMSG_DONE};
use crate::consts as c;

const NLM_F_REQUEST: u16 = 1;
const AF_UNIX: u8 = 1;

pub(super) fn payload(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    h: &Hdr,
    addr: u64,
    len: u64,
) -> bool {
    if h.ty == NLMSG_DONE {
        return false;
    }
    let Some(family) = m.get(addr, 1).map(|b| b[0]) else {
        fmt::ptr(s, addr);
        return true;
    };
    let request = h.flags & NLM_F_REQUEST != 0;
    if len > 1 {
        match (family, request) {
            (AF_UNIX, true) => {
                unix_req(s, o, m, addr, len);
                return true;
            }
            (AF_UNIX, false) => {
                unix_msg(s, o, m, addr, len);
                return true;
            }
            _ => {}
        }
    }
    // a family without a decoder: its number, the rest in hex
    s.push_str("{family=");
    fmt::enumv(
        s,
        u64::from(family),
        c::SOCKET_FAMILIES,
        "AF_???",
        o.xlat,
        true,
    );
    if len > 1 {
        s.push_str(", data=");
        hex_str(s, o, m, addr + 1, len - 1);
    }
    s.push('}');
    true
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// The family field, then the rest of a `size`-byte struct when the
/// payload holds it (`...` when it is shorter, the address when it cannot
/// be read); `f` prints the rest. Returns whether it did.
#[allow(clippy::too_many_arguments)]
fn diag_struct(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    field: &str,
    size: usize,
    f: impl FnOnce(&mut String, &[u8]),
) -> bool {
    let family = m.get(addr, 1).map_or(0, |b| b[0]);
    let _ = write!(s, "{{{field}=");
    fmt::enumv(
        s,
        u64::from(family),
        c::SOCKET_FAMILIES,
        "AF_???",
        o.xlat,
        true,
    );
    s.push_str(", ");
    let mut done = false;
    if len >= size as u64 {
        match m.get(addr, size) {
            Some(b) => {
                f(s, b);
                done = true;
            }
            None => fmt::ptr(s, addr + 1),
        }
    } else {
        s.push_str("...");
    }
    s.push('}');
    done
}

fn cookie(s: &mut String, b: &[u8], at: usize) {
    let _ = write!(s, "[{}, {}]", le32(b, at), le32(b, at + 4));
}

/// `struct unix_diag_req` (24 bytes).
fn unix_req(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let xl = o.xlat;
    diag_struct(s, o, m, addr, len, "sdiag_family", 24, |s, b| {
        let _ = write!(s, "sdiag_protocol={}, udiag_states=", b[1]);
        fmt::flags_default(
            s,
            u64::from(le32(b, 4)),
            x::TCP_STATE_FLAGS,
            "1<<TCP_???",
            xl,
        );
        let _ = write!(s, ", udiag_ino={}, udiag_show=", le32(b, 8));
        fmt::flags_default(
            s,
            u64::from(le32(b, 12)),
            x::UNIX_DIAG_SHOW,
            "UDIAG_SHOW_???",
            xl,
        );
        s.push_str(", udiag_cookie=");
        cookie(s, b, 16);
    });
}

/// `struct unix_diag_msg` (16 bytes), then its attributes.
fn unix_msg(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let xl = o.xlat;
    let done = diag_struct(s, o, m, addr, len, "udiag_family", 16, |s, b| {
        s.push_str("udiag_type=");
        fmt::enumv(s, u64::from(b[1]), c::SOCKET_TYPES, "SOCK_???", xl, true);
        s.push_str(", udiag_state=");
        fmt::enumv(s, u64::from(b[2]), x::TCP_STATES, "TCP_???", xl, true);
        let _ = write!(s, ", udiag_ino={}, udiag_cookie=", le32(b, 4));
        cookie(s, b, 8);
    });
    if done && len > 16 {
        s.push_str(", ");
        nlattrs_with(
            s,
            o,
            m,
            addr + 16,
            len - 16,
            x::UNIX_DIAG_ATTRS,
            "UNIX_DIAG_???",
            &unix_attr,
        );
    }
}

/// The attributes of a unix_diag_msg.
fn unix_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // UNIX_DIAG_NAME
        0 => super::nla_str(s, o, m, addr, len),
        // UNIX_DIAG_VFS: struct unix_diag_vfs
        1 => {
            if len < 8 {
                return false;
            }
            match m.get(addr, 8) {
                Some(b) => {
                    // udiag_vfs_ino comes first, strace prints the device first
                    s.push_str("{udiag_vfs_dev=");
                    super::super::makedev(s, u64::from(le32(b, 4)));
                    let _ = write!(s, ", udiag_vfs_ino={}}}", le32(b, 0));
                }
                None => fmt::ptr(s, addr),
            }
            true
        }
        // UNIX_DIAG_PEER
        2 => super::nla_u32(s, m, addr, len),
        // UNIX_DIAG_ICONS: inode numbers
        3 => super::nla_u32_array(s, o, m, addr, len, None),
        // UNIX_DIAG_RQLEN
        4 => {
            if len < 8 {
                return false;
            }
            match m.get(addr, 8) {
                Some(b) => {
                    let _ = write!(
                        s,
                        "{{udiag_rqueue={}, udiag_wqueue={}}}",
                        le32(b, 0),
                        le32(b, 4)
                    );
                }
                None => fmt::ptr(s, addr),
            }
            true
        }
        // UNIX_DIAG_MEMINFO
        5 => super::nla_u32_array(
            s,
            o,
            m,
            addr,
            len,
            Some((x::NETLINK_SK_MEMINFO_INDICES, "SK_MEMINFO_???")),
        ),
        // UNIX_DIAG_SHUTDOWN
        6 => super::nla_u8(s, m, addr, len),
        // UNIX_DIAG_UID
        7 => {
            if len < 4 {
                return false;
            }
            match m.u32(addr) {
                Some(v) => super::super::uid(s, v),
                None => fmt::ptr(s, addr),
            }
            true
        }
        _ => false,
    }
}
