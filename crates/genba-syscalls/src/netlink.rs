//! Netlink messages in the buffers of sendto and recvfrom, as strace
//! prints them: a `struct nlmsghdr` per message with its type and flags
//! named by the socket's protocol, an error's message, `NLMSG_DONE`'s
//! number, the rest of a payload as hex.
//!
//! Whether a buffer is netlink's is the kernel's to say: BPF copies a
//! second view of the buffer (up to [`NETLINK_MAX`]) only when the
//! descriptor is an `AF_NETLINK` socket, and tags the copy with the
//! socket's protocol (`CapCond::sock_family`). Without that copy the
//! buffer prints as a string, as before.
//!
//! The constants' tables (netlink_xlat.rs) are generated from strace's
//! xlat lists and the uapi headers:
//!   python3 scripts/gen-xlat.py netlink "$(cat scripts/netlink-xlat.headers)" \
//!       $(cat scripts/netlink-xlat.tables) > crates/genba-syscalls/src/netlink_xlat.rs

use std::fmt::Write;

use super::{arg, ArgWriter, CapCond, CapKind, CapPlan, CapWhen, Decoder, Options, Ret, Ty};
use crate::consts as c;
use crate::fmt::{self, HexStr, Xlat};

#[path = "netlink_xlat.rs"]
mod x;

#[path = "netlink_nla.rs"]
mod nla;

#[path = "netlink_sock_diag.rs"]
mod sock_diag;

#[path = "netlink_uevent.rs"]
mod uevent;

#[path = "netlink_inet_diag.rs"]
mod inet_diag;

// NETLINK_ROUTE's payloads, by message group: links and their statistics;
// traffic control, DCB, bridge MDB, nexthops and cache reports; addresses,
// routes, neighbours, rules, address labels, netconf and nsid (with the
// rtgenmsg default for every other type).
#[path = "netlink_route.rs"]
mod route;
#[path = "netlink_route_link.rs"]
mod route_link;
#[path = "netlink_route_tc.rs"]
mod route_tc;

/// The most bytes of a netlink buffer copied.
pub(super) const NETLINK_MAX: u32 = 16384;
/// The slot of the netlink copy (sendto's and recvfrom's `flags`, which
/// copy nothing).
const SLOT: usize = 3;
/// recvfrom's copy of its buffer's own length, with MSG_TRUNC.
const TRUNC_SLOT: usize = 2;
const MSG_TRUNC: u32 = 0x20;
const AF_NETLINK: u32 = 16;
const NLMSG_HDRLEN: usize = 16;

const NLMSG_ERROR: u16 = 2;
const NLMSG_DONE: u16 = 3;
const NLMSG_MIN_TYPE: u16 = 16;
const NLM_F_CAPPED: u16 = 0x100;

const NETLINK_ROUTE: u32 = 0;
const NETLINK_SOCK_DIAG: u32 = 4;
const NETLINK_SELINUX: u32 = 7;
const NETLINK_AUDIT: u32 = 9;
const NETLINK_NETFILTER: u32 = 12;
const NETLINK_GENERIC: u32 = 16;
const NETLINK_KOBJECT_UEVENT: u32 = 15;
const NETLINK_XFRM: u32 = 6;
const NETLINK_CRYPTO: u32 = 21;

pub(super) fn decoder(name: &str) -> Option<Decoder> {
    Some(match name {
        "sendto" => super::custom(dec_sendto, Ret::Dec),
        "recvfrom" => super::custom(dec_recvfrom, Ret::Dec),
        _ => return None,
    })
}

pub(super) fn custom_types(name: &str) -> Option<&'static [Ty]> {
    use Ty::*;
    match name {
        "sendto" => Some(&[Fd, BufIn(2), Ulong, Skip, SockaddrIn(5), Uint]),
        "recvfrom" => Some(&[Fd, BufOut, Ulong, Skip, SockaddrOut(5), SocklenBoth]),
        _ => None,
    }
}

/// The netlink copy of the buffer: the call's length at entry (sendto),
/// the returned length at exit (recvfrom).
pub(super) fn plan(name: &str, o: &Options, out: &mut [CapPlan; 6]) {
    if name == "recvfrom" {
        // with MSG_TRUNC the call may return more than the buffer holds:
        // the buffer's own length then, in the free slot of `len`
        out[TRUNC_SLOT] = CapPlan {
            kind: CapKind::ArgLen,
            when: CapWhen::ExitOk,
            len_arg: 2,
            max: o.strsize.min(u32::MAX as usize) as u32,
            cond: Some(CapCond {
                arg: 3,
                mask: MSG_TRUNC,
                val: MSG_TRUNC,
                val2: MSG_TRUNC,
                bitmap: false,
            }),
            src_arg: Some(1),
            ..Default::default()
        };
    }
    let (kind, when) = match name {
        "sendto" => (CapKind::ArgLen, CapWhen::Enter),
        "recvfrom" => (CapKind::RetLen, CapWhen::ExitOk),
        _ => return,
    };
    out[SLOT] = CapPlan {
        kind,
        when,
        len_arg: 2,
        max: NETLINK_MAX,
        cond: Some(CapCond::sock_family(0, AF_NETLINK)),
        src_arg: Some(1),
        ..Default::default()
    };
}

/// The buffer's netlink copy and the socket's protocol, if it is one.
fn netlink_copy<'a>(call: &super::CallView<'a>) -> Option<(&'a [u8], bool, u32)> {
    let mine = |c: &&genba_events::Capture| c.arg as usize == SLOT && c.elem > 0;
    let c = call
        .exit
        .and_then(|(_, caps)| caps.iter().find(mine))
        .or_else(|| call.enter.iter().find(mine))?;
    Some((c.data.as_slice(), c.fault, u32::from(c.elem) - 1))
}

fn dec_sendto(w: &mut ArgWriter<'_>) {
    arg(w, 0, Ty::Fd);
    let len = w.call.args[2];
    match netlink_copy(&w.call) {
        Some((data, _fault, proto)) if w.call.args[1] != 0 => {
            w.sep();
            let m = Mem {
                base: w.call.args[1],
                data,
            };
            let (s, o, a) = (&mut w.s, w.opts, w.call.args[1]);
            route_link::with_fd_paths(w.env.fd_path, || decode(s, o, proto, &m, a, len));
        }
        _ => arg(w, 1, Ty::BufIn(2)),
    }
    rest(w, false);
}

fn dec_recvfrom(w: &mut ArgWriter<'_>) {
    arg(w, 0, Ty::Fd);
    if !w.exiting() {
        return;
    }
    let ret = w.call.ret().unwrap_or(-1);
    match netlink_copy(&w.call) {
        // (a NULL buffer is NULL, whatever was copied)
        _ if w.call.args[1] == 0 => arg(w, 1, Ty::BufOut),
        Some((data, _fault, proto)) if ret >= 0 => {
            let len = (ret as u64).min(w.call.args[2]);
            w.sep();
            let m = Mem {
                base: w.call.args[1],
                data,
            };
            let (s, o, a) = (&mut w.s, w.opts, w.call.args[1]);
            route_link::with_fd_paths(w.env.fd_path, || decode(s, o, proto, &m, a, len));
        }
        // more returned than the buffer holds (MSG_TRUNC): the buffer
        _ if ret as u64 > w.call.args[2] && w.call.cap(TRUNC_SLOT).is_some() => {
            w.sep();
            let (c, v) = (w.call.cap(TRUNC_SLOT), w.call.args[1]);
            super::buffer(&mut w.s, c, v, w.opts);
        }
        _ => arg(w, 1, Ty::BufOut),
    }
    rest(w, true);
}

/// One iovec element's buffer of sendmsg or recvmsg on a netlink socket
/// of protocol `proto` (strace's iov_decode_netlink): `len` bytes at
/// `base`, of which `data` were copied.
pub(super) fn iov_buffer(
    s: &mut String,
    o: &Options,
    proto: u32,
    base: u64,
    data: &[u8],
    len: u64,
    fd_path: Option<&dyn Fn(i32) -> Option<String>>,
) {
    let m = Mem { base, data };
    route_link::with_fd_paths(fd_path, || decode(s, o, proto, &m, base, len));
}

/// The arguments after the buffer, as the table's types print them.
fn rest(w: &mut ArgWriter<'_>, out: bool) {
    arg(w, 2, Ty::Ulong);
    arg(w, 3, Ty::Flags(c::MSG_FLAGS));
    if out {
        arg(w, 4, Ty::SockaddrOut(5));
        arg(w, 5, Ty::SocklenBoth);
    } else {
        arg(w, 4, Ty::SockaddrIn(5));
        arg(w, 5, Ty::Uint);
    }
}

/// The copied memory: `data` from `base`; what lies beyond was not read
/// (a fault, or past the copy's limit).
struct Mem<'a> {
    base: u64,
    data: &'a [u8],
}

impl Mem<'_> {
    /// `n` bytes at `addr`, if they were copied.
    fn get(&self, addr: u64, n: usize) -> Option<&[u8]> {
        let off = addr.checked_sub(self.base)? as usize;
        self.data.get(off..off.checked_add(n)?)
    }

    fn u16(&self, addr: u64) -> Option<u16> {
        self.get(addr, 2)
            .map(|b| u16::from_le_bytes(b.try_into().unwrap()))
    }

    fn u32(&self, addr: u64) -> Option<u32> {
        self.get(addr, 4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
    }
}

#[derive(Clone, Copy)]
struct Hdr {
    len: u32,
    ty: u16,
    flags: u16,
    seq: u32,
    pid: u32,
}

fn hdr_at(m: &Mem<'_>, addr: u64) -> Option<Hdr> {
    Some(Hdr {
        len: m.u32(addr)?,
        ty: m.u16(addr + 4)?,
        flags: m.u16(addr + 6)?,
        seq: m.u32(addr + 8)?,
        pid: m.u32(addr + 12)?,
    })
}

/// strace's printstr with QUOTE_FORCE_HEX: the bytes in `\x` form, up to
/// `-s`; the address when they cannot be read.
fn hex_str(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    str_as(s, o, m, addr, len, HexStr::All);
}

/// `len` bytes at `addr` quoted as `hex` says, up to `-s`; the address when
/// they cannot be read.
fn str_as(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64, hex: HexStr) {
    let n = (len as usize).min(o.strsize);
    match m.get(addr, n) {
        Some(b) => fmt::quoted(s, b, len as usize > o.strsize, hex),
        None => fmt::ptr(s, addr),
    }
}

/// A whole buffer of netlink messages (strace's decode_netlink).
fn decode(s: &mut String, o: &Options, proto: u32, m: &Mem<'_>, mut addr: u64, mut len: u64) {
    if proto == NETLINK_KOBJECT_UEVENT {
        // libudev's monitor header, or the kernel's text
        uevent::decode(s, o, m, addr, len);
        return;
    }
    let mut is_array = false;
    let mut elt = 0usize;
    loop {
        if len < NLMSG_HDRLEN as u64 {
            hex_str(s, o, m, addr, len);
            break;
        }
        let Some(h) = hdr_at(m, addr) else {
            if is_array {
                let _ = write!(s, "... /* {addr:#x} */");
            } else {
                fmt::ptr(s, addr);
            }
            break;
        };
        if !o.verbose && elt == o.strsize {
            s.push_str("...");
            break;
        }
        let aligned = (u64::from(h.len) + 3) & !3;
        let mut next = None;
        if h.len as usize >= NLMSG_HDRLEN {
            let next_len = len.saturating_sub(aligned);
            if next_len > 0 && len >= aligned {
                next = Some((addr + aligned, next_len));
            }
        }
        if !is_array && next.is_some() {
            s.push('[');
            is_array = true;
        }
        with_payload(s, o, proto, m, &h, addr, len);
        let Some((a, l)) = next else {
            break;
        };
        s.push_str(", ");
        addr = a;
        len = l;
        elt += 1;
    }
    if is_array {
        s.push(']');
    }
}

/// A message's header, and its payload when it has one.
fn with_payload(
    s: &mut String,
    o: &Options,
    proto: u32,
    m: &Mem<'_>,
    h: &Hdr,
    addr: u64,
    len: u64,
) {
    let n = u64::from(h.len).min(len);
    let has = n > NLMSG_HDRLEN as u64;
    if has {
        s.push('[');
    }
    header(s, o.xlat, proto, h);
    if has {
        s.push_str(", ");
        payload(
            s,
            o,
            proto,
            m,
            h,
            addr + NLMSG_HDRLEN as u64,
            n - NLMSG_HDRLEN as u64,
        );
        s.push(']');
    }
}

fn payload(s: &mut String, o: &Options, proto: u32, m: &Mem<'_>, h: &Hdr, addr: u64, len: u64) {
    if h.ty == NLMSG_ERROR {
        nlmsgerr(s, o, proto, m, addr, len, h.flags & NLM_F_CAPPED != 0);
        return;
    }
    if (h.ty >= NLMSG_MIN_TYPE || h.ty == NLMSG_DONE)
        && family_payload(s, o, proto, m, h, addr, len)
    {
        return;
    }
    if h.ty == NLMSG_DONE && len == 4 {
        match m.u32(addr) {
            Some(v) => {
                let _ = write!(s, "{}", v as i32);
            }
            None => fmt::ptr(s, addr),
        }
        return;
    }
    hex_str(s, o, m, addr, len);
}

/// A payload the protocol defines (strace's netlink_decoders); false when
/// it has no decoder for the message.
fn family_payload(
    s: &mut String,
    o: &Options,
    proto: u32,
    m: &Mem<'_>,
    h: &Hdr,
    addr: u64,
    len: u64,
) -> bool {
    match proto {
        NETLINK_SELINUX => selinux(s, o, m, h, addr, len),
        NETLINK_NETFILTER => netfilter(s, o, m, h, addr, len),
        NETLINK_SOCK_DIAG => sock_diag::payload(s, o, m, h, addr, len),
        NETLINK_ROUTE => {
            route_link::payload(s, o, m, h, addr, len)
                || route_tc::payload(s, o, m, h, addr, len)
                || route::payload(s, o, m, h, addr, len)
        }
        _ => false,
    }
}

/// A struct of `size` bytes: hex when the payload is shorter, the address
/// when it cannot be read, else `f` prints it.
fn fixed(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    size: usize,
    f: impl FnOnce(&mut String, &[u8]),
) {
    if len < size as u64 {
        hex_str(s, o, m, addr, len);
        return;
    }
    match m.get(addr, size) {
        Some(b) => f(s, b),
        None => fmt::ptr(s, addr),
    }
}

/// SELinux's two messages: setenforce's value and a policy load's number.
fn selinux(s: &mut String, o: &Options, m: &Mem<'_>, h: &Hdr, addr: u64, len: u64) -> bool {
    let field = match h.ty {
        0x10 => "val",
        0x11 => "seqno",
        _ => return false,
    };
    fixed(s, o, m, addr, len, 4, |s, b| {
        let v = u32::from_le_bytes(b.try_into().unwrap());
        if field == "val" {
            let _ = write!(s, "{{val={}}}", v as i32);
        } else {
            let _ = write!(s, "{{seqno={v}}}");
        }
    });
    true
}

/// `struct nfgenmsg`, then the message's attributes.
fn netfilter(s: &mut String, o: &Options, m: &Mem<'_>, h: &Hdr, addr: u64, len: u64) -> bool {
    const NFNL_SUBSYS_NFTABLES: u16 = 10;
    if h.ty == NLMSG_DONE {
        return false;
    }
    let x = o.xlat;
    fixed(s, o, m, addr, len, 4, |s, b| {
        s.push_str("{nfgen_family=");
        fmt::enumv(s, u64::from(b[0]), c::SOCKET_FAMILIES, "AF_???", x, true);
        s.push_str(", version=");
        fmt::enumv(
            s,
            u64::from(b[1]),
            &[(0, "NFNETLINK_V0")],
            "NFNETLINK_???",
            x,
            true,
        );
        s.push_str(", res_id=");
        let raw = u16::from_le_bytes([b[2], b[3]]);
        let res = u16::from_be_bytes([b[2], b[3]]);
        let named = |s: &mut String, name: &str| match x {
            Xlat::Raw => {
                let _ = write!(s, "{raw:#x}");
            }
            Xlat::Verbose => {
                let _ = write!(s, "{raw:#x} /* {name} */");
            }
            Xlat::Abbrev => s.push_str(name),
        };
        // nftables' res_id was once sent in host order (Linux 4.3)
        if h.ty >> 8 == NFNL_SUBSYS_NFTABLES && res == NFNL_SUBSYS_NFTABLES {
            named(s, "htons(NFNL_SUBSYS_NFTABLES)");
        } else if h.ty >> 8 == NFNL_SUBSYS_NFTABLES && raw == NFNL_SUBSYS_NFTABLES {
            named(s, "NFNL_SUBSYS_NFTABLES");
        } else {
            let _ = write!(s, "htons({res})");
        }
        s.push('}');
    });
    if len > 4 && m.get(addr, 4).is_some() {
        s.push_str(", ");
        if (0x10..=0x11).contains(&h.ty) || h.ty < NLMSG_MIN_TYPE {
            hex_str(s, o, m, addr + 4, len - 4);
        } else {
            nlattrs(s, o, m, addr + 4, len - 4, &[], "");
        }
    }
    true
}

/// `struct nlmsgerr`: the error, and the message it answers (its header,
/// and its payload unless the kernel capped it), then any attributes.
fn nlmsgerr(
    s: &mut String,
    o: &Options,
    proto: u32,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    capped: bool,
) {
    const SIZE: u64 = 4 + NLMSG_HDRLEN as u64;
    if len < SIZE {
        hex_str(s, o, m, addr, len);
        return;
    }
    let (Some(err), Some(msg)) = (m.u32(addr), hdr_at(m, addr + 4)) else {
        fmt::ptr(s, addr);
        return;
    };
    let (addr, len) = (addr + 4, len - 4);
    let msg_len = u64::from(msg.len).max(NLMSG_HDRLEN as u64);
    let payload = len.min(if capped { NLMSG_HDRLEN as u64 } else { msg_len });
    if len > payload {
        s.push('[');
    }
    s.push_str("{error=");
    errno_field(s, err as i32, o.xlat);
    s.push_str(", msg=");
    with_payload(s, o, proto, m, &msg, addr, payload);
    s.push('}');
    if len > payload {
        s.push_str(", ");
        nlattrs_with(
            s,
            o,
            m,
            addr + payload,
            len - payload,
            x::NLMSGERR_ATTRS,
            "NLMSGERR_ATTR_???",
            &nlmsgerr_attr,
        );
        s.push(']');
    }
}

/// NLMSGERR_ATTR_MSG, _OFFS and _COOKIE (its bytes as numbers).
fn nlmsgerr_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        1 => nla_str(s, o, m, addr, len),
        2 => nla_u32(s, m, addr, len),
        3 => {
            let off = addr.saturating_sub(m.base) as usize;
            let data = m.data.get(off..).unwrap_or(&[]);
            super::print_array_data(s, Some((data, true)), addr, len, 1, o, |s, b| {
                let _ = write!(s, "{}", b[0]);
            });
            true
        }
        _ => false,
    }
}

/// An errno field: `-ENOENT` (strace's PRINT_FIELD_ERR_D).
fn errno_field(s: &mut String, e: i32, x: Xlat) {
    let name = (e < 0).then(|| c::errno_name(-e)).flatten().map(|(n, _)| n);
    match (name, x) {
        (Some(n), Xlat::Abbrev) => {
            let _ = write!(s, "-{n}");
        }
        (Some(n), Xlat::Verbose) => {
            let _ = write!(s, "{e} /* -{n} */");
        }
        _ => {
            let _ = write!(s, "{e}");
        }
    }
}

/// Netlink attributes with no decoder of their own: each header, its
/// payload in hex.
fn nlattrs(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    names: &[(u64, &str)],
    dflt: &str,
) {
    nlattrs_with(s, o, m, addr, len, names, dflt, &|_, _, _, _, _, _| false);
}

/// An attribute's decoder: (text, options, memory, type, address, length);
/// false to have its payload printed in hex.
type NlaDecoder<'d> = &'d dyn Fn(&mut String, &Options, &Mem<'_>, u16, u64, u64) -> bool;

/// Netlink attributes (strace's decode_nlattr): each header, its payload
/// as `dec` decodes it (in hex when it does not).
#[allow(clippy::too_many_arguments)]
fn nlattrs_with(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    mut addr: u64,
    mut len: u64,
    names: &[(u64, &str)],
    dflt: &str,
    dec: NlaDecoder<'_>,
) {
    let mut is_array = false;
    let mut elt = 0usize;
    loop {
        if len < 4 {
            hex_str(s, o, m, addr, len);
            break;
        }
        let (Some(nla_len), Some(nla_type)) = (m.u16(addr), m.u16(addr + 2)) else {
            if is_array {
                let _ = write!(s, "... /* {addr:#x} */");
            } else {
                fmt::ptr(s, addr);
            }
            break;
        };
        if !o.verbose && elt == o.strsize {
            s.push_str("...");
            break;
        }
        let aligned = (u64::from(nla_len) + 3) & !3;
        let next = (nla_len >= 4 && len > aligned).then(|| (addr + aligned, len - aligned));
        if !is_array && next.is_some() {
            s.push('[');
            is_array = true;
        }
        let n = u64::from(nla_len).min(len);
        let has = n > 4;
        if has {
            s.push('[');
        }
        let _ = write!(s, "{{nla_len={nla_len}, nla_type=");
        for (bit, name) in [(0x8000, "NLA_F_NESTED"), (0x4000, "NLA_F_NET_BYTEORDER")] {
            if nla_type & bit != 0 {
                fmt::enumv(
                    s,
                    u64::from(bit),
                    &[(u64::from(bit), name)],
                    "",
                    o.xlat,
                    true,
                );
                s.push('|');
            }
        }
        fmt::enumv(s, u64::from(nla_type & 0x3fff), names, dflt, o.xlat, true);
        s.push('}');
        if has {
            s.push_str(", ");
            if !dec(s, o, m, nla_type & 0x3fff, addr + 4, n - 4) {
                hex_str(s, o, m, addr + 4, n - 4);
            }
            s.push(']');
        }
        let Some((a, l)) = next else {
            break;
        };
        s.push_str(", ");
        addr = a;
        len = l;
        elt += 1;
    }
    if is_array {
        s.push(']');
    }
}

/// A string attribute (strace's decode_nla_str): up to its terminating
/// NUL, `...` when it has none within `-s` or its length.
fn nla_str(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    let n = (len as usize).min(o.strsize + 1);
    let Some(b) = m.get(addr, n.min(len as usize)) else {
        fmt::ptr(s, addr);
        return true;
    };
    match b.iter().position(|&c| c == 0) {
        Some(z) if z <= o.strsize => fmt::quoted(s, &b[..z], false, o.hex),
        _ => {
            let shown = b.len().min(o.strsize);
            fmt::quoted(s, &b[..shown], true, o.hex);
        }
    }
    true
}

/// An attribute holding a struct of `size` bytes: false when it is shorter
/// (its payload then prints in hex), its address when it cannot be read,
/// else as `f` prints it.
fn nla_struct(
    s: &mut String,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    size: usize,
    f: impl FnOnce(&mut String, &[u8]),
) -> bool {
    if len < size as u64 {
        return false;
    }
    match m.get(addr, size) {
        Some(b) => f(s, b),
        None => fmt::ptr(s, addr),
    }
    true
}

fn nla_u32(s: &mut String, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    if len < 4 {
        return false;
    }
    match m.u32(addr) {
        Some(v) => {
            let _ = write!(s, "{v}");
        }
        None => fmt::ptr(s, addr),
    }
    true
}

fn nla_u8(s: &mut String, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    if len < 1 {
        return false;
    }
    match m.get(addr, 1) {
        Some(b) => {
            let _ = write!(s, "{}", b[0]);
        }
        None => fmt::ptr(s, addr),
    }
    true
}

/// An array of u32 (with `names`, each with its index's name:
/// `[[SK_MEMINFO_RMEM_ALLOC] = 0, ...]`).
fn nla_u32_array(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    names: Option<(&[(u64, &str)], &str)>,
) -> bool {
    let n = len / 4;
    if n == 0 {
        return false;
    }
    let off = addr.saturating_sub(m.base) as usize;
    let data = m.data.get(off..).unwrap_or(&[]);
    let mut k = 0u64;
    super::print_array_data(s, Some((data, true)), addr, n, 4, o, |s, b| {
        if let Some((t, dflt)) = names {
            s.push('[');
            fmt::enumv(s, k, t, dflt, o.xlat, false);
            s.push_str("]=");
        }
        let _ = write!(s, "{}", u32::from_le_bytes(b.try_into().unwrap()));
        k += 1;
    });
    true
}

/// The header: its type and flags by the protocol's names.
fn header(s: &mut String, x: Xlat, proto: u32, h: &Hdr) {
    let _ = write!(s, "{{nlmsg_len={}, nlmsg_type=", h.len);
    msg_type(s, x, proto, h.ty);
    s.push_str(", nlmsg_flags=");
    let table = flag_table(proto, h.ty);
    let mut all: Vec<(u64, &str)> = x::NETLINK_FLAGS.to_vec();
    all.extend_from_slice(table);
    fmt::flags_default(s, u64::from(h.flags), &all, "NLM_F_???", x);
    // a process id, signed as strace prints one (a kernel-chosen port id
    // may pass 2^31)
    let _ = write!(s, ", nlmsg_seq={}, nlmsg_pid={}}}", h.seq, h.pid as i32);
}

fn msg_type(s: &mut String, x: Xlat, proto: u32, ty: u16) {
    let v = u64::from(ty);
    if ty < NLMSG_MIN_TYPE {
        fmt::enumv(s, v, x::NETLINK_TYPES, "NLMSG_???", x, true);
        return;
    }
    let (table, dflt): (&[(u64, &str)], &str) = match proto {
        NETLINK_AUDIT => (x::NL_AUDIT_TYPES, "AUDIT_???"),
        NETLINK_CRYPTO => (x::NL_CRYPTO_TYPES, "CRYPTO_MSG_???"),
        NETLINK_ROUTE => (x::NL_ROUTE_TYPES, "RTM_???"),
        NETLINK_SELINUX => (x::NL_SELINUX_TYPES, "SELNL_MSG_???"),
        NETLINK_SOCK_DIAG => (x::NL_SOCK_DIAG_TYPES, "SOCK_DIAG_???"),
        NETLINK_XFRM => (x::NL_XFRM_TYPES, "XFRM_MSG_???"),
        NETLINK_GENERIC => (GENL_FAMILIES, "GENERIC_FAMILY_???"),
        NETLINK_NETFILTER => {
            netfilter_type(s, x, ty);
            return;
        }
        _ => (x::NETLINK_TYPES, "NLMSG_???"),
    };
    fmt::enumv(s, v, table, dflt, x, true);
}

/// Generic netlink's one fixed family id: its controller. (The others are
/// given out at run time; strace asks the kernel for them.)
const GENL_FAMILIES: &[(u64, &str)] = &[(0x10, "nlctrl")];

/// A netfilter message type: the subsystem (high byte) and its message.
fn netfilter_type(s: &mut String, x: Xlat, ty: u16) {
    // the batches' control messages first
    if x::NL_NETFILTER_MSG_TYPES
        .iter()
        .any(|(v, _)| *v == u64::from(ty))
    {
        fmt::enumv(s, u64::from(ty), x::NL_NETFILTER_MSG_TYPES, "", x, true);
        return;
    }
    let subsys = u64::from(ty >> 8);
    let msg = u64::from(ty & 0xff);
    let table: Option<(&[(u64, &str)], &str)> = match subsys {
        1 => Some((x::NF_CTNETLINK_MSG_TYPES, "IPCTNL_MSG_CT_???")),
        2 => Some((x::NF_CTNETLINK_EXP_MSG_TYPES, "IPCTNL_MSG_EXP_???")),
        3 => Some((x::NF_QUEUE_MSG_TYPES, "NFQNL_MSG_???")),
        4 => Some((x::NF_ULOG_MSG_TYPES, "NFULNL_MSG_???")),
        5 => Some((x::NF_OSF_MSG_TYPES, "OSF_MSG_???")),
        6 => Some((x::NF_IPSET_MSG_TYPES, "IPSET_CMD_???")),
        7 => Some((x::NF_ACCT_MSG_TYPES, "NFNL_MSG_ACCT_???")),
        8 => Some((x::NF_CTTIMEOUT_MSG_TYPES, "IPCTNL_MSG_TIMEOUT_???")),
        9 => Some((x::NF_CTHELPER_MSG_TYPES, "NFNL_MSG_CTHELPER_???")),
        10 => Some((x::NF_NFTABLES_MSG_TYPES, "NFT_MSG_???")),
        11 => Some((x::NF_NFT_COMPAT_MSG_TYPES, "NFNL_MSG_COMPAT_???")),
        12 => Some((x::NF_HOOK_MSG_TYPES, "NFT_MSG_HOOK_???")),
        _ => None,
    };
    // each piece as strace's printxval prints it
    fmt::enumv(
        s,
        subsys,
        x::NL_NETFILTER_SUBSYS_IDS,
        "NFNL_SUBSYS_???",
        x,
        true,
    );
    s.push_str("<<8|");
    match table {
        Some((t, dflt)) => fmt::enumv(s, msg, t, dflt, x, true),
        None => fmt::hex(s, msg),
    }
}

/// The flags a message type's request takes besides the common ones.
fn flag_table(proto: u32, ty: u16) -> &'static [(u64, &'static str)] {
    if ty < NLMSG_MIN_TYPE {
        return if ty == NLMSG_ERROR {
            x::NETLINK_ACK_FLAGS
        } else {
            &[]
        };
    }
    let new = x::NETLINK_NEW_FLAGS;
    let del = x::NETLINK_DELETE_FLAGS;
    let get = x::NETLINK_GET_FLAGS;
    match proto {
        NETLINK_ROUTE => {
            // RTM_DELACTION takes NLM_F_ROOT
            if ty == 49 {
                return get;
            }
            match ty & 3 {
                0 => new,
                1 => del,
                2 => get,
                _ => &[],
            }
        }
        NETLINK_SOCK_DIAG => get,
        NETLINK_CRYPTO => match ty {
            0x10 => new,
            0x11 | 0x14 => del,
            0x13 => get,
            _ => &[],
        },
        NETLINK_XFRM => match ty {
            // NEWSA, NEWPOLICY, NEWAE, NEWSADINFO, NEWSPDINFO
            0x10 | 0x13 | 0x1e | 0x22 | 0x24 => new,
            // DELSA, DELPOLICY
            0x11 | 0x14 => del,
            // GETSA, GETPOLICY, GETAE, GETSADINFO, GETSPDINFO
            0x12 | 0x15 | 0x1f | 0x23 | 0x25 => get,
            _ => &[],
        },
        NETLINK_NETFILTER => netfilter_flags(ty),
        _ => &[],
    }
}

fn netfilter_flags(ty: u16) -> &'static [(u64, &'static str)] {
    let new = x::NETLINK_NEW_FLAGS;
    let del = x::NETLINK_DELETE_FLAGS;
    let get = x::NETLINK_GET_FLAGS;
    let msg = ty & 0xff;
    match ty >> 8 {
        // CTNETLINK: NEW, GET, DELETE, GET_CTRZERO, GET_STATS_CPU,
        // GET_STATS, GET_DYING, GET_UNCONFIRMED
        1 => match msg {
            0 => new,
            1 | 3 | 4 | 5 | 6 | 7 => get,
            2 => del,
            _ => &[],
        },
        // CTNETLINK_EXP: NEW, GET, DELETE, GET_STATS_CPU
        2 => match msg {
            0 => new,
            1 | 3 => get,
            2 => del,
            _ => &[],
        },
        // ACCT: NEW, GET, GET_CTRZERO, DEL
        7 => match msg {
            0 => new,
            1 | 2 => get,
            3 => del,
            _ => &[],
        },
        // CTTIMEOUT, CTHELPER: NEW, GET, DELETE
        8 | 9 => match msg {
            0 => new,
            1 => get,
            2 => del,
            _ => &[],
        },
        // NFTABLES
        10 => match msg {
            0 | 3 | 6 | 9 | 12 | 15 | 18 | 22 => new,
            1 | 4 | 7 | 10 | 13 | 16 | 19 | 21 | 23 => get,
            2 | 5 | 8 | 11 | 14 | 20 | 24 => del,
            _ => &[],
        },
        // NFT_COMPAT: GET; HOOK: GET
        11 | 12 if msg == 0 => get,
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mem(b: &[u8]) -> Mem<'_> {
        Mem {
            base: 0x1000,
            data: b,
        }
    }

    fn msg(len: u32, ty: u16, flags: u16, extra: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend_from_slice(&len.to_le_bytes());
        v.extend_from_slice(&ty.to_le_bytes());
        v.extend_from_slice(&flags.to_le_bytes());
        v.extend_from_slice(&0u32.to_le_bytes());
        v.extend_from_slice(&7u32.to_le_bytes());
        v.extend_from_slice(extra);
        v
    }

    fn show(proto: u32, b: &[u8]) -> String {
        let mut s = String::new();
        decode(
            &mut s,
            &Options::default(),
            proto,
            &mem(b),
            0x1000,
            b.len() as u64,
        );
        s
    }

    #[test]
    fn an_inet_diag_req_v2_with_a_protocol_attribute() {
        let mut p = vec![2u8, 6, 0, 0];
        p.extend_from_slice(&0u32.to_le_bytes());
        p.extend_from_slice(&[0u8, 80, 0, 0]);
        p.extend_from_slice(&[0u8; 44]);
        // INET_DIAG_REQ_PROTOCOL: IPPROTO_UDP
        p.extend_from_slice(&[5, 0, 3, 0, 17, 0, 0, 0]);
        let b = msg(16 + 56 + 5, 20, 1, &p);
        assert_eq!(
            show(NETLINK_SOCK_DIAG, &b),
            "[{nlmsg_len=77, nlmsg_type=SOCK_DIAG_BY_FAMILY, nlmsg_flags=NLM_F_REQUEST, \
             nlmsg_seq=0, nlmsg_pid=7}, {sdiag_family=AF_INET, sdiag_protocol=IPPROTO_TCP, \
             idiag_ext=0, idiag_states=0, id={idiag_sport=htons(80), idiag_dport=htons(0), \
             idiag_src=inet_addr(\"0.0.0.0\"), idiag_dst=inet_addr(\"0.0.0.0\"), idiag_if=0, \
             idiag_cookie=[0, 0]}}, [{nla_len=5, nla_type=INET_DIAG_REQ_PROTOCOL}, IPPROTO_UDP]]"
        );
    }

    #[test]
    fn a_libudev_header_by_its_fields_and_kernel_text_as_a_string() {
        let mut b = b"libudev\0".to_vec();
        b.extend_from_slice(&0xfeedcafeu32.to_be_bytes());
        for v in [40u32, 40, 2] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&[0; 16]);
        b.extend_from_slice(b"A=1");
        assert_eq!(
            show(NETLINK_KOBJECT_UEVENT, &b),
            "[{prefix=\"libudev\", magic=htonl(0xfeedcafe), header_size=40, properties_off=40, \
             properties_len=2, filter_subsystem_hash=htonl(0), filter_devtype_hash=htonl(0), \
             filter_tag_bloom_hi=htonl(0), filter_tag_bloom_lo=htonl(0)}, \"A=1\"]"
        );
        assert_eq!(show(NETLINK_KOBJECT_UEVENT, b"add@/x"), "\"add@/x\"");
    }

    #[test]
    fn a_header_by_its_protocol() {
        assert_eq!(
            show(NETLINK_AUDIT, &msg(16, 1000, 1, &[])),
            "{nlmsg_len=16, nlmsg_type=AUDIT_GET, nlmsg_flags=NLM_F_REQUEST, nlmsg_seq=0, nlmsg_pid=7}"
        );
        assert_eq!(
            show(NETLINK_ROUTE, &msg(20, 22, 0x301, b"abcd")),
            "[{nlmsg_len=20, nlmsg_type=RTM_GETADDR, nlmsg_flags=NLM_F_REQUEST|NLM_F_DUMP, nlmsg_seq=0, nlmsg_pid=7}, {ifa_family=0x61 /* AF_??? */, ...}]"
        );
    }

    #[test]
    fn short_buffers_and_several_messages() {
        assert_eq!(show(NETLINK_ROUTE, b"abcd"), "\"\\x61\\x62\\x63\\x64\"");
        let mut two = msg(16, 1, 0, &[]);
        two.extend(msg(16, 1, 0, &[]));
        let s = show(NETLINK_ROUTE, &two);
        assert!(
            s.starts_with("[{nlmsg_len=16, nlmsg_type=NLMSG_NOOP"),
            "{s}"
        );
        assert!(s.ends_with("nlmsg_pid=7}]"), "{s}");
    }

    #[test]
    fn an_error_with_its_request() {
        let mut e = (-13i32).to_le_bytes().to_vec();
        e.extend(msg(16, 1000, 1, &[]));
        let s = show(NETLINK_AUDIT, &msg(36, 2, 0, &e));
        assert_eq!(
            s,
            "[{nlmsg_len=36, nlmsg_type=NLMSG_ERROR, nlmsg_flags=0, nlmsg_seq=0, nlmsg_pid=7}, {error=-EACCES, msg={nlmsg_len=16, nlmsg_type=AUDIT_GET, nlmsg_flags=NLM_F_REQUEST, nlmsg_seq=0, nlmsg_pid=7}}]"
        );
    }
}
