//! The value of a socket option (getsockopt's and setsockopt's fourth
//! argument) as strace 6.1 prints it: by level and name, partial structures
//! field by field, ints as `[N]`, the rest as a string.

use std::fmt::Write;

use super::{le_u32, ArgWriter, Options};
use crate::consts as c;
use crate::fmt::{self, HexStr, Xlat};

const SOL_SOCKET: u32 = 1;
const SOL_IP: u32 = 0;
const SOL_IPV6: u32 = 41;
const SOL_RAW: u32 = 255;
const SOL_PACKET: u32 = 263;
const SOL_NETLINK: u32 = 270;

/// SOL_SOCKET options whose value is an int (strace's list).
fn int_like(name: u32) -> bool {
    matches!(
        name,
        1 | 2
            | 5
            | 6
            | 7
            | 8
            | 9
            | 10
            | 11
            | 12
            | 14
            | 15
            | 16
            | 18
            | 19
            | 27
            | 29
            | 30
            | 32
            | 33
            | 34
            | 35
            | 36
            | 37
            | 40
            | 41
            | 42
            | 43
            | 44
            | 45
            | 46
            | 49
            | 53
            | 56
            | 60
            | 63
            | 64
            | 65
            | 68
            | 69
            | 70
            | 73
            | 75
    )
}

/// ICMP types, for ICMP_FILTER's bits.
static ICMP_TYPES: &[(u64, &str)] = &[
    (0, "ICMP_ECHOREPLY"),
    (3, "ICMP_DEST_UNREACH"),
    (4, "ICMP_SOURCE_QUENCH"),
    (5, "ICMP_REDIRECT"),
    (8, "ICMP_ECHO"),
    (11, "ICMP_TIME_EXCEEDED"),
    (12, "ICMP_PARAMETERPROB"),
    (13, "ICMP_TIMESTAMP"),
    (14, "ICMP_TIMESTAMPREPLY"),
    (15, "ICMP_INFO_REQUEST"),
    (16, "ICMP_INFO_REPLY"),
    (17, "ICMP_ADDRESS"),
    (18, "ICMP_ADDRESSREPLY"),
];

static PACKET_MR_TYPES: &[(u64, &str)] = &[
    (0, "PACKET_MR_MULTICAST"),
    (1, "PACKET_MR_PROMISC"),
    (2, "PACKET_MR_ALLMULTI"),
    (3, "PACKET_MR_UNICAST"),
];

static TXREHASH: &[(u64, &str)] = &[
    (0, "SOCK_TXREHASH_DISABLED"),
    (1, "SOCK_TXREHASH_ENABLED"),
    (255, "SOCK_TXREHASH_DEFAULT"),
];

/// `"\x.."` for bytes strace prints in hex whatever `-x` says.
fn hex_str(s: &mut String, d: &[u8]) {
    fmt::quoted(s, d, false, HexStr::All);
}

/// The fields of a struct of 32-bit fields that `len` bytes cover: whole
/// ones through `each`, a cut one as its bytes in hex (strace's
/// MAYBE_PRINT_FIELD_LEN).
fn fields_by_len(
    s: &mut String,
    addr: u64,
    d: &[u8],
    len: usize,
    names: &[&str],
    mut each: impl FnMut(&mut String, usize, u32),
) {
    // strace reads the len bytes at once
    if d.len() < len {
        fmt::ptr(s, addr);
        return;
    }
    s.push('{');
    for (k, name) in names.iter().enumerate() {
        let start = 4 * k;
        if len <= start {
            break;
        }
        if k > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{name}=");
        if len >= start + 4 && d.len() >= start + 4 {
            each(s, k, le_u32(d, start));
        } else {
            hex_str(s, &d[start..len.min(d.len())]);
        }
    }
    s.push('}');
}

/// An id as strace prints uid_t/gid_t: -1 for all bits set.
fn id(s: &mut String, v: u32) {
    if v == u32::MAX {
        s.push_str("-1");
    } else {
        let _ = write!(s, "{v}");
    }
}

/// ICMP_FILTER's bit set: the ICMP types it filters, `~[...]` those it
/// does not when more than half are set.
fn icmp_filter(s: &mut String, d: &[u8], x: Xlat) {
    let mut b = [0xffu8; 4];
    b[..d.len().min(4)].copy_from_slice(&d[..d.len().min(4)]);
    let mut v = u32::from_le_bytes(b);
    if v.count_ones() > 16 {
        v = !v;
        s.push('~');
    }
    s.push('[');
    let mut first = true;
    for i in 0..32u64 {
        if v & (1 << i) != 0 {
            if !first {
                s.push(' ');
            }
            first = false;
            fmt::enumv(s, i, ICMP_TYPES, "ICMP_???", x, false);
        }
    }
    s.push(']');
}

/// An interface index as strace prints it: `if_nametoindex("lo")` when the
/// index names an interface of this machine.
pub(super) fn ifindex(s: &mut String, idx: u32, x: Xlat) {
    let mut buf = [0 as libc::c_char; libc::IF_NAMESIZE];
    // SAFETY: buf holds IF_NAMESIZE bytes, as if_indextoname requires.
    let found = idx != 0
        && x != Xlat::Raw
        && !unsafe { libc::if_indextoname(idx, buf.as_mut_ptr()) }.is_null();
    // SAFETY: if_indextoname wrote a NUL-terminated name into buf.
    let name = found.then(|| {
        unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }
            .to_string_lossy()
            .into_owned()
    });
    match (name, x) {
        (Some(n), Xlat::Verbose) => {
            let _ = write!(s, "{idx} /* if_nametoindex(\"{n}\") */");
        }
        (Some(n), _) => {
            let _ = write!(s, "if_nametoindex(\"{n}\")");
        }
        (None, _) => {
            let _ = write!(s, "{idx}");
        }
    }
}

/// A hardware address of `d.len()` bytes: `ff:ff:..`, with -X raw its bytes
/// in hex, with -X verbose both.
pub(super) fn mac(s: &mut String, d: &[u8], x: Xlat) {
    let colons = d
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(":");
    match x {
        Xlat::Abbrev => s.push_str(&colons),
        Xlat::Raw => hex_str(s, d),
        Xlat::Verbose => {
            hex_str(s, d);
            let _ = write!(s, " /* {colons} */");
        }
    }
}

/// An IPv4 address in network order: `inet_addr("1.2.3.4")`.
fn inet_addr(s: &mut String, d: &[u8]) {
    let _ = write!(s, "inet_addr(\"{}.{}.{}.{}\")", d[0], d[1], d[2], d[3]);
}

/// getsockopt's value: `ulen` the room the caller gave, `rlen` the length
/// the kernel returned; `d` the bytes copied at exit.
pub(super) fn get_value(
    w: &mut ArgWriter<'_>,
    d: Option<&[u8]>,
    truncated: bool,
    whole: bool,
    ulen: i32,
    rlen: i32,
) {
    let a = w.call.args;
    let (o, x) = (w.opts, w.opts.xlat);
    let (level, name, addr) = (a[1] as u32, a[2] as u32, a[3]);
    // SO_GET_FILTER: the program, rlen instructions
    if level == SOL_SOCKET && name == 26 && ulen > 0 && rlen > 0 {
        super::misc::get_sock_filter(w, rlen as u64);
        return;
    }
    let s = &mut w.s;
    if ulen <= 0 || rlen <= 0 || addr == 0 {
        fmt::ptr(s, addr);
        return;
    }
    let len = rlen as usize;
    let Some(d) = d else {
        fmt::ptr(s, addr);
        return;
    };
    let int = |s: &mut String, d: &[u8]| {
        if d.len() >= 4 {
            let _ = write!(s, "[{}]", le_u32(d, 0) as i32);
        } else {
            fmt::ptr(s, addr);
        }
    };
    match (level, name) {
        // SO_LINGER
        (SOL_SOCKET, 13) => fields_by_len(
            s,
            addr,
            d,
            len.min(8),
            &["l_onoff", "l_linger"],
            |s, _, v| {
                let _ = write!(s, "{}", v as i32);
            },
        ),
        // SO_PEERCRED
        (SOL_SOCKET, 17) => fields_by_len(
            s,
            addr,
            d,
            len.min(12),
            &["pid", "uid", "gid"],
            |s, k, v| {
                if k == 0 {
                    let _ = write!(s, "{}", v as i32);
                } else {
                    id(s, v);
                }
            },
        ),
        // SO_ERROR: the error as its name
        (SOL_SOCKET, 4) if len < 4 => hex_str(s, &d[..len.min(d.len())]),
        (SOL_SOCKET, 4) if d.len() >= 4 => {
            let e = le_u32(d, 0);
            match c::errno_name(e as i32).filter(|_| x != Xlat::Raw) {
                Some((n, _)) if x == Xlat::Verbose => {
                    let _ = write!(s, "[{e} /* {n} */]");
                }
                Some((n, _)) => {
                    let _ = write!(s, "[{n}]");
                }
                None => {
                    let _ = write!(s, "[{e}]");
                }
            }
        }
        // SO_TXREHASH
        (SOL_SOCKET, 74) if len < 4 => hex_str(s, &d[..len.min(d.len())]),
        (SOL_SOCKET, 74) if d.len() >= 4 => {
            s.push('[');
            fmt::enumv(
                s,
                le_u32(d, 0) as i32 as u64,
                TXREHASH,
                "SOCK_TXREHASH_???",
                x,
                false,
            );
            s.push(']');
        }
        (SOL_SOCKET, n) if int_like(n) => {
            if len >= 4 {
                int(s, d)
            } else {
                hex_str(s, &d[..len.min(d.len())])
            }
        }
        // PACKET_STATISTICS: tpacket_stats, or its v3 (a third field)
        (SOL_PACKET, 6) => fields_by_len(
            s,
            addr,
            d,
            len.min(12),
            &["tp_packets", "tp_drops", "tp_freeze_q_cnt"],
            |s, _, v| {
                let _ = write!(s, "{v}");
            },
        ),
        (SOL_RAW, 1) if d.len() >= len.min(4) => icmp_filter(s, &d[..len.min(4)], x),
        (SOL_RAW, 1) => fmt::ptr(s, addr),
        // NETLINK_LIST_MEMBERSHIPS: the groups as an array of u32
        (SOL_NETLINK, 9) => {
            let n = (ulen.min(rlen) as usize) / 4;
            let items: Vec<String> = d
                .chunks_exact(4)
                .take(n.min(o.strsize))
                .map(|e| le_u32(e, 0).to_string())
                .collect();
            if n == 0 {
                s.push_str("[]");
            } else {
                let _ = write!(s, "[{}", items.join(", "));
                if n > items.len() {
                    s.push_str(", ...");
                }
                s.push(']');
            }
        }
        (SOL_NETLINK, _) => int(s, d),
        _ if len == 4 => int(s, d),
        _ if whole => string(s, d, len, truncated, o),
        _ => fmt::ptr(s, addr),
    }
}

/// A string of `len` bytes, of which `d` were copied: up to `-s`.
fn string(s: &mut String, d: &[u8], len: usize, truncated: bool, o: &Options) {
    let n = d.len().min(len).min(o.strsize);
    fmt::quoted(s, &d[..n], truncated || len > n, o.hex);
}

/// setsockopt's value of `len` bytes (`d` as copied at entry).
pub(super) fn set_value(w: &mut ArgWriter<'_>, d: Option<&[u8]>, truncated: bool, whole: bool) {
    let a = w.call.args;
    let (o, x) = (w.opts, w.opts.xlat);
    let (level, name, addr, len) = (a[1] as u32, a[2] as u32, a[3], a[4] as i32);
    // SO_ATTACH_FILTER, SO_ATTACH_REUSEPORT_CBPF: a classic BPF program
    if level == SOL_SOCKET && matches!(name, 26 | 51) {
        super::misc::set_sock_fprog(w, d.filter(|_| whole || len >= 16));
        return;
    }
    let s = &mut w.s;
    let Some(d) = d.filter(|_| addr != 0 && len >= 0) else {
        fmt::ptr(s, addr);
        return;
    };
    let ulen = len as usize;
    let int = |s: &mut String, d: &[u8]| {
        if ulen >= 4 && d.len() >= 4 {
            let _ = write!(s, "[{}]", le_u32(d, 0) as i32);
        } else {
            fmt::ptr(s, addr);
        }
    };
    match (level, name) {
        (SOL_SOCKET, 13) if ulen >= 8 && d.len() >= 8 => {
            let _ = write!(
                s,
                "{{l_onoff={}, l_linger={}}}",
                le_u32(d, 0) as i32,
                le_u32(d, 4) as i32
            );
        }
        (SOL_SOCKET, 13) => fmt::ptr(s, addr),
        (SOL_SOCKET, 74) if ulen < 4 => fmt::ptr(s, addr),
        (SOL_SOCKET, 74) if d.len() >= 4 => {
            s.push('[');
            fmt::enumv(
                s,
                le_u32(d, 0) as i32 as u64,
                TXREHASH,
                "SOCK_TXREHASH_???",
                x,
                false,
            );
            s.push(']');
        }
        (SOL_SOCKET, n) if int_like(n) => int(s, d),
        // IP_ADD_MEMBERSHIP, IP_DROP_MEMBERSHIP: struct ip_mreq
        (SOL_IP, 35 | 36) if ulen >= 8 && d.len() >= 8 => {
            s.push_str("{imr_multiaddr=");
            inet_addr(s, &d[0..4]);
            s.push_str(", imr_interface=");
            inet_addr(s, &d[4..8]);
            s.push('}');
        }
        (SOL_IP, 35 | 36) => fmt::ptr(s, addr),
        // IPV6_ADD_MEMBERSHIP, IPV6_DROP_MEMBERSHIP, IPV6_JOIN_ANYCAST,
        // IPV6_LEAVE_ANYCAST: struct ipv6_mreq
        (SOL_IPV6, 20 | 21 | 27 | 28) if ulen >= 20 && d.len() >= 20 => {
            let ip = <[u8; 16]>::try_from(&d[..16]).unwrap_or([0; 16]);
            s.push('{');
            super::sockaddr::inet6_addr(s, "ipv6mr_multiaddr", &ip, x, o.hex);
            s.push_str(", ipv6mr_interface=");
            ifindex(s, le_u32(d, 16), x);
            s.push('}');
        }
        (SOL_IPV6, 20 | 21 | 27 | 28) => fmt::ptr(s, addr),
        // MCAST_JOIN_GROUP, MCAST_LEAVE_GROUP: struct group_req (the
        // interface, padding, then a sockaddr_storage)
        (SOL_IP | SOL_IPV6, 42 | 45) if ulen >= 136 && d.len() >= 136 => {
            s.push_str("{gr_interface=");
            ifindex(s, le_u32(d, 0), x);
            s.push_str(", gr_group=");
            super::sockaddr::print(s, &d[8..136], super::sockaddr::Style::new(o, None));
            s.push('}');
        }
        (SOL_IP | SOL_IPV6, 42 | 45) => fmt::ptr(s, addr),
        // PACKET_RX_RING, PACKET_TX_RING: struct tpacket_req
        (SOL_PACKET, 5 | 13) if ulen == 16 && d.len() >= 16 => {
            let u = |k: usize| le_u32(d, 4 * k);
            let _ = write!(
                s,
                "{{tp_block_size={}, tp_block_nr={}, tp_frame_size={}, tp_frame_nr={}}}",
                u(0),
                u(1),
                u(2),
                u(3)
            );
        }
        (SOL_PACKET, 5 | 13) => fmt::ptr(s, addr),
        // PACKET_ADD_MEMBERSHIP, PACKET_DROP_MEMBERSHIP: struct packet_mreq
        (SOL_PACKET, 1 | 2) if ulen == 16 && d.len() >= 16 => {
            s.push_str("{mr_ifindex=");
            ifindex(s, le_u32(d, 0), x);
            s.push_str(", mr_type=");
            fmt::enumv(
                s,
                u16::from_le_bytes([d[4], d[5]]) as u64,
                PACKET_MR_TYPES,
                "PACKET_MR_???",
                x,
                true,
            );
            let alen = u16::from_le_bytes([d[6], d[7]]);
            let _ = write!(s, ", mr_alen={alen}, mr_address=");
            mac(s, &d[8..8 + (alen as usize).min(8)], x);
            s.push('}');
        }
        (SOL_PACKET, 1 | 2) => fmt::ptr(s, addr),
        (SOL_RAW, 1) if ulen == 0 => fmt::ptr(s, addr),
        (SOL_RAW, 1) if d.len() >= ulen.min(4) => icmp_filter(s, &d[..ulen.min(4)], x),
        (SOL_RAW, 1) => fmt::ptr(s, addr),
        (SOL_NETLINK, _) => int(s, d),
        _ if ulen == 4 => int(s, d),
        _ if whole => string(s, d, ulen, truncated, o),
        _ => fmt::ptr(s, addr),
    }
}
