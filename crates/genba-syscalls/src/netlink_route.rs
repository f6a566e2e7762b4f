//! NETLINK_ROUTE's payloads: addresses, routes, neighbours, rules, address labels, netconf and nsid, and the rtgenmsg default for every other type
//! (strace's rtnl_*.c).
//!
//! The constants' tables (netlink_route_xlat.rs) are generated from strace's
//! xlat lists and the uapi headers:
//!   python3 scripts/gen-xlat.py "NETLINK_ROUTE (addresses, routes, neighbours, rules, address labels, netconf, nsid)" \
//!       "$(cat scripts/netlink-route-xlat.headers)" $(cat scripts/netlink-route-xlat.tables) \
//!       > crates/genba-syscalls/src/netlink_route_xlat.rs

use std::fmt::Write;

use super::nla::{
    ifindex, le16, le32, le64, nla_flags, nla_ifindex, nla_s32, nla_u16, nla_u64, nla_xval, ntop6,
};
use super::{fmt, hex_str, nla_str, nla_struct, nla_u32, nla_u8, nlattrs_with, Hdr, Mem, Options};
use super::{NlaDecoder, NLMSG_DONE};
use crate::consts as c;
use crate::fmt::{HexStr, Xlat};

#[path = "netlink_route_xlat.rs"]
mod x;

// The tables netlink_route_tc.rs (nexthops) prints with too, generated once
// (here): the generated ones are visible in this module only.
pub(super) static ROUTING_SCOPES: &[(u64, &str)] = x::ROUTING_SCOPES;
pub(super) static ROUTING_PROTOCOLS: &[(u64, &str)] = x::ROUTING_PROTOCOLS;
pub(super) static ROUTE_NEXTHOP_FLAGS: &[(u64, &str)] = x::ROUTE_NEXTHOP_FLAGS;
pub(super) static LWTUNNEL_ENCAP_TYPES: &[(u64, &str)] = x::LWTUNNEL_ENCAP_TYPES;

const AF_INET: u8 = 2;
const AF_BRIDGE: u8 = 7;
const AF_INET6: u8 = 10;

/// Prints the payload of `h` when its type belongs to this group; false
/// leaves it to the next group.
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
    match h.ty {
        // links and their statistics; tc, dcb, mdb, cache reports, chains
        // and nexthops: the other groups'
        16..=19
        | 36..=38
        | 40..=42
        | 44..=46
        | 48..=50
        | 78
        | 79
        | 84..=86
        | 92
        | 94
        | 96
        | 100..=102
        | 104..=106 => false,
        // RTM_GETNEIGH of AF_BRIDGE is an ifinfomsg (the links' group)
        30 if family == AF_BRIDGE => false,
        20..=22 | 58 | 62 => {
            ifaddrmsg(s, o, m, addr, len);
            true
        }
        24..=26 => {
            rtmsg(s, o, m, addr, len);
            true
        }
        28..=30 => {
            ndmsg(s, o, m, addr, len);
            true
        }
        32..=34 => {
            fib_rule_hdr(s, o, m, addr, len);
            true
        }
        64 | 66 | 67 => {
            family_only(
                s,
                o,
                m,
                addr,
                len,
                "ndtm_family",
                4,
                x::RTNL_NEIGHTBL_ATTRS,
                "NDTA_???",
                &ndtm_attr,
            );
            true
        }
        72..=74 => {
            ifaddrlblmsg(s, o, m, addr, len);
            true
        }
        80..=82 => {
            family_only(
                s,
                o,
                m,
                addr,
                len,
                "ncm_family",
                1,
                x::RTNL_NETCONF_ATTRS,
                "NETCONFA_???",
                &netconf_attr,
            );
            true
        }
        88..=90 => {
            family_only(
                s,
                o,
                m,
                addr,
                len,
                "rtgen_family",
                1,
                x::RTNL_NSID_ATTRS,
                "NETNSA_???",
                &nsid_attr,
            );
            true
        }
        _ => {
            default(s, o, m, family, addr, len);
            true
        }
    }
}

/// strace's decode_family: the family, and what follows in hex.
fn default(s: &mut String, o: &Options, m: &Mem<'_>, family: u8, addr: u64, len: u64) {
    s.push_str("{family=");
    af(s, o, family);
    if len > 1 {
        s.push_str(", data=");
        hex_str(s, o, m, addr + 1, len - 1);
    }
    s.push('}');
}

fn af(s: &mut String, o: &Options, family: u8) {
    fmt::enumv(
        s,
        u64::from(family),
        c::SOCKET_FAMILIES,
        "AF_???",
        o.xlat,
        true,
    );
}

/// A struct header of `size` bytes whose first byte (the family, named
/// `field`) is already read: `body` prints the rest; `...` when the payload
/// is shorter; then the attributes after it.
#[allow(clippy::too_many_arguments)]
fn with_header(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    field: &str,
    size: usize,
    body: impl FnOnce(&mut String, &[u8]),
    names: &[(u64, &str)],
    dflt: &str,
    dec: NlaDecoder<'_>,
) {
    let family = m.get(addr, 1).map_or(0, |b| b[0]);
    let _ = write!(s, "{{{field}=");
    af(s, o, family);
    s.push_str(", ");
    let mut attrs = false;
    if len >= size as u64 {
        match m.get(addr, size) {
            Some(b) => {
                body(s, b);
                attrs = true;
            }
            None => fmt::ptr(s, addr + 1),
        }
    } else {
        s.push_str("...");
    }
    s.push('}');
    let off = (size as u64 + 3) & !3;
    if attrs && len > off {
        s.push_str(", ");
        nlattrs_with(s, o, m, addr + off, len - off, names, dflt, dec);
    }
}

/// A message whose header is its family alone (ndtmsg, netconfmsg,
/// rtgenmsg), then its attributes.
#[allow(clippy::too_many_arguments)]
fn family_only(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    field: &str,
    size: u64,
    names: &[(u64, &str)],
    dflt: &str,
    dec: NlaDecoder<'_>,
) {
    let family = m.get(addr, 1).map_or(0, |b| b[0]);
    let _ = write!(s, "{{{field}=");
    af(s, o, family);
    s.push('}');
    let off = (size + 3) & !3;
    if len > off {
        s.push_str(", ");
        nlattrs_with(s, o, m, addr + off, len - off, names, dflt, dec);
    }
}

fn flags(s: &mut String, o: &Options, v: u64, t: &[(u64, &str)], dflt: &str) {
    fmt::flags_default(s, v, t, dflt, o.xlat);
}

fn xval(s: &mut String, o: &Options, v: u64, t: &[(u64, &str)], dflt: &str) {
    fmt::enumv(s, v, t, dflt, o.xlat, true);
}

// ---- addresses ----

fn ifaddrmsg(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let family = m.get(addr, 1).map_or(0, |b| b[0]);
    let body = |s: &mut String, b: &[u8]| {
        let _ = write!(s, "ifa_prefixlen={}, ifa_flags=", b[1]);
        flags(s, o, u64::from(b[2]), x::IFADDRFLAGS, "IFA_F_???");
        s.push_str(", ifa_scope=");
        xval(s, o, u64::from(b[3]), x::ROUTING_SCOPES, "");
        s.push_str(", ifa_index=");
        ifindex(s, le32(b, 4), o.xlat);
    };
    let dec = |s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, a: u64, l: u64| match ty {
        1 | 2 | 4 | 5 | 7 => inet(s, o, m, a, l, family, None),
        3 => nla_str(s, o, m, a, l),
        6 => nla_struct(s, m, a, l, 16, |s, b| {
            let _ = write!(
                s,
                "{{ifa_prefered={}, ifa_valid={}, cstamp={}, tstamp={}}}",
                le32(b, 0),
                le32(b, 4),
                le32(b, 8),
                le32(b, 12)
            );
        }),
        8 => nla_struct(s, m, a, l, 4, |s, b| {
            flags(s, o, u64::from(le32(b, 0)), x::IFADDRFLAGS, "IFA_F_???")
        }),
        9 => nla_u32(s, m, a, l),
        10 => nla_s32(s, m, a, l),
        _ => false,
    };
    with_header(
        s,
        o,
        m,
        addr,
        len,
        "ifa_family",
        8,
        body,
        x::RTNL_ADDR_ATTRS,
        "IFA_???",
        &dec,
    );
}

// ---- routes ----

fn rtmsg(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let family = m.get(addr, 1).map_or(0, |b| b[0]);
    let body = |s: &mut String, b: &[u8]| {
        let _ = write!(s, "rtm_dst_len={}, rtm_src_len={}, rtm_tos=", b[1], b[2]);
        flags(
            s,
            o,
            u64::from(b[3]),
            x::IP_TYPE_OF_SERVICES,
            "IPTOS_TOS_???",
        );
        s.push_str(", rtm_table=");
        xval(s, o, u64::from(b[4]), x::ROUTING_TABLE_IDS, "");
        s.push_str(", rtm_protocol=");
        xval(s, o, u64::from(b[5]), x::ROUTING_PROTOCOLS, "RTPROT_???");
        s.push_str(", rtm_scope=");
        xval(s, o, u64::from(b[6]), x::ROUTING_SCOPES, "");
        s.push_str(", rtm_type=");
        xval(s, o, u64::from(b[7]), x::ROUTING_TYPES, "RTN_???");
        s.push_str(", rtm_flags=");
        flags(s, o, u64::from(le32(b, 8)), x::ROUTING_FLAGS, "RTM_F_???");
    };
    let dec = |s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, a: u64, l: u64| {
        route_attr(s, o, m, family, ty, a, l)
    };
    with_header(
        s,
        o,
        m,
        addr,
        len,
        "rtm_family",
        12,
        body,
        x::RTNL_ROUTE_ATTRS,
        "RTA_???",
        &dec,
    );
}

/// An RTA_* attribute of a route of `family`.
fn route_attr(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    family: u8,
    ty: u16,
    a: u64,
    l: u64,
) -> bool {
    match ty {
        1 | 2 | 5 | 7 | 19 => inet(s, o, m, a, l, family, None),
        3 | 4 => nla_ifindex(s, o, m, a, l),
        6 | 10 | 11 | 14 | 16 | 25 => nla_u32(s, m, a, l),
        8 => {
            let dec = |s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, a: u64, l: u64| match ty {
                1..=15 => nla_u32(s, m, a, l),
                16 => nla_str(s, o, m, a, l),
                _ => false,
            };
            nlattrs_with(s, o, m, a, l, x::RTNL_RTA_METRICS_ATTRS, "RTAX_???", &dec);
            true
        }
        9 => multipath(s, o, m, family, a, l),
        12 => nla_struct(s, m, a, l, 32, |s, b| {
            let _ = write!(
                s,
                "{{rta_clntref={}, rta_lastuse={}, rta_expires={}, rta_error={}, rta_used={}, rta_id={}, rta_ts={}, rta_tsage={}}}",
                le32(b, 0),
                le32(b, 4),
                le32(b, 8),
                le32(b, 12),
                le32(b, 16),
                // PRINT_FIELD_X: 0 without its prefix
                match le32(b, 20) {
                    0 => "0".to_string(),
                    v => format!("{v:#x}"),
                },
                le32(b, 24),
                le32(b, 28)
            );
        }),
        15 => nla_rt_class(s, o, m, a, l),
        17 => nla_struct(s, m, a, l, 24, |s, b| {
            let _ = write!(
                s,
                "{{mfcs_packets={}, mfcs_bytes={}, mfcs_wrong_if={}}}",
                le64(b, 0),
                le64(b, 8),
                le64(b, 16)
            );
        }),
        18 => {
            if l < 2 {
                return false;
            }
            match m.get(a, 2) {
                Some(b) => {
                    let vf = le16(b, 0);
                    s.push_str("{rtvia_family=");
                    xval(s, o, u64::from(vf), c::SOCKET_FAMILIES, "AF_???");
                    if l > 2 {
                        s.push_str(", ");
                        // the family is 16 bits: only its low byte can name one
                        let f = if vf > 0xff { 0 } else { vf as u8 };
                        inet(s, o, m, a + 2, l - 2, f, Some("rtvia_addr"));
                    }
                    s.push('}');
                }
                None => fmt::ptr(s, a),
            }
            true
        }
        20 | 26 | 27 => nla_u8(s, m, a, l),
        21 => nla_struct(s, m, a, l, 2, |s, b| {
            xval(
                s,
                o,
                u64::from(le16(b, 0)),
                x::LWTUNNEL_ENCAP_TYPES,
                "LWTUNNEL_ENCAP_???",
            )
        }),
        23 => nla_u64(s, m, a, l),
        28 | 29 => nla_u16(s, m, a, l),
        _ => false,
    }
}

/// RTA_MULTIPATH: `struct rtnexthop`s, each with its attributes.
fn multipath(s: &mut String, o: &Options, m: &Mem<'_>, family: u8, addr: u64, len: u64) -> bool {
    const NH: u64 = 8;
    if len < NH {
        return false;
    }
    let (mut cur, mut left) = (addr, len);
    let mut is_array = false;
    loop {
        let Some(b) = m.get(cur, NH as usize) else {
            fmt::ptr(s, cur);
            break;
        };
        let nh_len = u64::from(le16(b, 0));
        let n = left.min(nh_len);
        if cur == addr && nh_len < len {
            s.push('[');
            is_array = true;
        }
        if cur > addr {
            s.push_str(", ");
        }
        if n > NH {
            s.push('[');
        }
        let _ = write!(s, "{{rtnh_len={nh_len}, rtnh_flags=");
        flags(s, o, u64::from(b[2]), x::ROUTE_NEXTHOP_FLAGS, "RTNH_F_???");
        let _ = write!(s, ", rtnh_hops={}, rtnh_ifindex=", b[3]);
        ifindex(s, le32(b, 4), o.xlat);
        s.push('}');
        if n > NH {
            s.push_str(", ");
            let dec = |s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, a: u64, l: u64| {
                route_attr(s, o, m, family, ty, a, l)
            };
            nlattrs_with(
                s,
                o,
                m,
                cur + NH,
                n - NH,
                x::RTNL_ROUTE_ATTRS,
                "RTA_???",
                &dec,
            );
            s.push(']');
        }
        let step = (n + 3) & !3;
        if step >= left || step == 0 {
            break;
        }
        cur += step;
        left -= step;
    }
    if is_array {
        s.push(']');
    }
    true
}

// ---- neighbours ----

fn ndmsg(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let family = m.get(addr, 1).map_or(0, |b| b[0]);
    let body = |s: &mut String, b: &[u8]| {
        s.push_str("ndm_ifindex=");
        ifindex(s, le32(b, 4), o.xlat);
        s.push_str(", ndm_state=");
        flags(
            s,
            o,
            u64::from(le16(b, 8)),
            x::NEIGHBOR_CACHE_ENTRY_STATES,
            "NUD_???",
        );
        s.push_str(", ndm_flags=");
        flags(
            s,
            o,
            u64::from(b[10]),
            x::NEIGHBOR_CACHE_ENTRY_FLAGS,
            "NTF_???",
        );
        s.push_str(", ndm_type=");
        xval(s, o, u64::from(b[11]), x::ROUTING_TYPES, "RTN_???");
    };
    let dec = |s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, a: u64, l: u64| match ty {
        1 => inet(s, o, m, a, l, family, None),
        2 => {
            if l > 32 {
                return false;
            }
            match m.get(a, l as usize) {
                Some(b) => super::super::sockopt::mac(s, b, o.xlat),
                None => fmt::ptr(s, a),
            }
            true
        }
        3 => nla_struct(s, m, a, l, 16, |s, b| {
            let _ = write!(
                s,
                "{{ndm_confirmed={}, ndm_used={}, ndm_updated={}, ndm_refcnt={}}}",
                le32(b, 0),
                le32(b, 4),
                le32(b, 8),
                le32(b, 12)
            );
        }),
        4 | 7 | 10 | 11 | 13 => nla_u32(s, m, a, l),
        5 => nla_u16(s, m, a, l),
        6 => nla_struct(s, m, a, l, 2, |s, b| {
            let _ = write!(s, "htons({})", u16::from_be_bytes([b[0], b[1]]));
        }),
        8 | 9 => nla_ifindex(s, o, m, a, l),
        12 => nla_ip_proto(s, o, m, a, l),
        14 => {
            let dec = |s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, a: u64, l: u64| {
                ty == 1 && nla_flags(s, o, m, a, l, 1, x::FDB_NOTIFY_FLAGS, "FDB_NOTIFY_???")
            };
            nlattrs_with(s, o, m, a, l, x::RTNL_NEIGH_FDB_EXT_ATTRS, "NFEA_???", &dec);
            true
        }
        15 => nla_flags(
            s,
            o,
            m,
            a,
            l,
            4,
            x::NEIGHBOR_CACHE_ENTRY_EXT_FLAGS,
            "NTF_EXT_???",
        ),
        16 => nla_flags(s, o, m, a, l, 2, x::NEIGHBOR_CACHE_ENTRY_STATES, "NUD_???"),
        17 => nla_flags(s, o, m, a, l, 1, x::NEIGHBOR_CACHE_ENTRY_FLAGS, "NTF_???"),
        _ => false,
    };
    with_header(
        s,
        o,
        m,
        addr,
        len,
        "ndm_family",
        12,
        body,
        x::RTNL_NEIGH_ATTRS,
        "NDA_???",
        &dec,
    );
}

// ---- neighbour tables ----

fn ndtm_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, a: u64, l: u64) -> bool {
    match ty {
        1 => nla_str(s, o, m, a, l),
        2..=4 => nla_u32(s, m, a, l),
        5 => nla_struct(s, m, a, l, 32, |s, b| {
            let _ = write!(
                s,
                "{{ndtc_key_len={}, ndtc_entry_size={}, ndtc_entries={}, ndtc_last_flush={}, ndtc_last_rand={}, ndtc_hash_rnd={}, ndtc_hash_mask={:#010x}, ndtc_hash_chain_gc={}, ndtc_proxy_qlen={}}}",
                le16(b, 0),
                le16(b, 2),
                le32(b, 4),
                le32(b, 8),
                le32(b, 12),
                le32(b, 16),
                le32(b, 20),
                le32(b, 24),
                le32(b, 28)
            );
        }),
        6 => {
            nlattrs_with(
                s,
                o,
                m,
                a,
                l,
                x::RTNL_NEIGHTBL_PARMS_ATTRS,
                "NDTPA_???",
                &ndtpa_attr,
            );
            true
        }
        7 => {
            let size = if l >= 88 {
                88
            } else if l == 80 {
                80
            } else {
                return false;
            };
            match m.get(a, size) {
                Some(b) => {
                    const NAMES: [&str; 11] = [
                        "ndts_allocs",
                        "ndts_destroys",
                        "ndts_hash_grows",
                        "ndts_res_failed",
                        "ndts_lookups",
                        "ndts_hits",
                        "ndts_rcv_probes_mcast",
                        "ndts_rcv_probes_ucast",
                        "ndts_periodic_gc_runs",
                        "ndts_forced_gc_runs",
                        "ndts_table_fulls",
                    ];
                    s.push('{');
                    for (k, name) in NAMES.iter().take(size / 8).enumerate() {
                        if k > 0 {
                            s.push_str(", ");
                        }
                        let _ = write!(s, "{name}={}", le64(b, 8 * k));
                    }
                    s.push('}');
                }
                None => fmt::ptr(s, a),
            }
            true
        }
        8 => nla_u64(s, m, a, l),
        _ => false,
    }
}

fn ndtpa_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, a: u64, l: u64) -> bool {
    match ty {
        1 => nla_ifindex(s, o, m, a, l),
        2 | 8 | 9 | 10 | 11 | 14 | 16 | 17 => nla_u32(s, m, a, l),
        3..=7 | 12 | 13 | 15 | 19 => nla_u64(s, m, a, l),
        _ => false,
    }
}

// ---- rules ----

fn fib_rule_hdr(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let family = m.get(addr, 1).map_or(0, |b| b[0]);
    let body = |s: &mut String, b: &[u8]| {
        let _ = write!(s, "dst_len={}, src_len={}, tos=", b[1], b[2]);
        flags(
            s,
            o,
            u64::from(b[3]),
            x::IP_TYPE_OF_SERVICES,
            "IPTOS_TOS_???",
        );
        s.push_str(", table=");
        xval(s, o, u64::from(b[4]), x::ROUTING_TABLE_IDS, "RT_TABLE_???");
        s.push_str(", action=");
        xval(s, o, u64::from(b[7]), x::FIB_RULE_ACTIONS, "FR_ACT_???");
        s.push_str(", flags=");
        flags(
            s,
            o,
            u64::from(le32(b, 8)),
            x::FIB_RULE_FLAGS,
            "FIB_RULE_???",
        );
    };
    let dec = |s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, a: u64, l: u64| match ty {
        1 | 2 => inet(s, o, m, a, l, family, None),
        3 | 17 => nla_str(s, o, m, a, l),
        4 | 6 | 10 | 11 | 13 | 14 | 16 => nla_u32(s, m, a, l),
        12 => nla_struct(s, m, a, l, 8, |s, b| {
            let _ = write!(s, "htobe64({})", u64::from_be_bytes(b.try_into().unwrap()));
        }),
        15 => nla_rt_class(s, o, m, a, l),
        19 => nla_u8(s, m, a, l),
        20 => nla_struct(s, m, a, l, 8, |s, b| {
            let _ = write!(s, "{{start={}, end={}}}", le32(b, 0), le32(b, 4));
        }),
        21 => nla_struct(s, m, a, l, 1, |s, b| {
            xval(s, o, u64::from(b[0]), x::ROUTING_PROTOCOLS, "RTPROT_???")
        }),
        22 => nla_ip_proto(s, o, m, a, l),
        23 | 24 => nla_struct(s, m, a, l, 4, |s, b| {
            let _ = write!(s, "{{start={}, end={}}}", le16(b, 0), le16(b, 2));
        }),
        _ => false,
    };
    with_header(
        s,
        o,
        m,
        addr,
        len,
        "family",
        12,
        body,
        x::RTNL_RULE_ATTRS,
        "FRA_???",
        &dec,
    );
}

// ---- address labels ----

fn ifaddrlblmsg(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let family = m.get(addr, 1).map_or(0, |b| b[0]);
    let body = |s: &mut String, b: &[u8]| {
        let _ = write!(
            s,
            "ifal_prefixlen={}, ifal_flags={}, ifal_index=",
            b[2], b[3]
        );
        ifindex(s, le32(b, 4), o.xlat);
        let _ = write!(s, ", ifal_seq={}", le32(b, 8));
    };
    let dec = |s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, a: u64, l: u64| match ty {
        1 => inet(s, o, m, a, l, family, None),
        2 => nla_u32(s, m, a, l),
        _ => false,
    };
    with_header(
        s,
        o,
        m,
        addr,
        len,
        "ifal_family",
        12,
        body,
        x::RTNL_ADDRLABEL_ATTRS,
        "IFAL_???",
        &dec,
    );
}

// ---- netconf, nsid ----

fn netconf_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, a: u64, l: u64) -> bool {
    match ty {
        1 => nla_ifindex(s, o, m, a, l),
        2..=8 => nla_s32(s, m, a, l),
        _ => false,
    }
}

fn nsid_attr(s: &mut String, _o: &Options, m: &Mem<'_>, ty: u16, a: u64, l: u64) -> bool {
    match ty {
        1 | 3 | 4 | 5 => nla_s32(s, m, a, l),
        2 => nla_u32(s, m, a, l),
        _ => false,
    }
}

// ---- attribute helpers ----

/// A routing table id (strace's decode_nla_rt_class).
fn nla_rt_class(s: &mut String, o: &Options, m: &Mem<'_>, a: u64, l: u64) -> bool {
    nla_struct(s, m, a, l, 4, |s, b| {
        xval(s, o, u64::from(le32(b, 0)), x::ROUTING_TABLE_IDS, "")
    })
}

/// An IP protocol number of any length up to 8 (decode_nla_ip_proto).
fn nla_ip_proto(s: &mut String, o: &Options, m: &Mem<'_>, a: u64, l: u64) -> bool {
    nla_xval(s, o, m, a, l, 0, c::IPPROTO, "IPPROTO_???")
}

/// An address of `family` (strace's decode_inet_addr): IPv4 or IPv6 by
/// name, else (or when short) its bytes in hex.
fn inet(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    a: u64,
    l: u64,
    family: u8,
    name: Option<&str>,
) -> bool {
    let size = match family {
        AF_INET => 4,
        AF_INET6 => 16,
        _ => 0,
    };
    let named = |s: &mut String| {
        if let Some(n) = name {
            let _ = write!(s, "{n}=");
        }
    };
    if size == 0 || l < size {
        named(s);
        hex_str(s, o, m, a, l);
        return true;
    }
    let Some(b) = m.get(a, size as usize) else {
        named(s);
        fmt::ptr(s, a);
        return true;
    };
    let x = o.xlat;
    if family == AF_INET {
        named(s);
        if x != Xlat::Abbrev {
            fmt::quoted(s, b, false, HexStr::All);
        }
        if x == Xlat::Raw {
            return true;
        }
        if x == Xlat::Verbose {
            s.push_str(" /* ");
        }
        s.push_str("inet_addr(");
        let text = format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3]);
        fmt::quoted(s, text.as_bytes(), false, o.hex);
        s.push(')');
    } else {
        if x != Xlat::Abbrev {
            named(s);
            fmt::quoted(s, b, false, HexStr::All);
        }
        if x == Xlat::Raw {
            return true;
        }
        if x == Xlat::Verbose {
            s.push_str(" /* ");
        }
        s.push_str("inet_pton(AF_INET6, ");
        let mut a16 = [0u8; 16];
        a16.copy_from_slice(b);
        fmt::quoted(s, ntop6(&a16).as_bytes(), false, o.hex);
        if let (Some(n), Xlat::Abbrev) = (name, x) {
            let _ = write!(s, ", &{n}");
        }
        s.push(')');
    }
    if x == Xlat::Verbose {
        s.push_str(" */");
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(ty: u16, b: &[u8]) -> String {
        let m = Mem {
            base: 0x1000,
            data: b,
        };
        let h = Hdr {
            len: 16 + b.len() as u32,
            ty,
            flags: 1,
            seq: 0,
            pid: 0,
        };
        let mut s = String::new();
        assert!(payload(
            &mut s,
            &Options::default(),
            &m,
            &h,
            0x1000,
            b.len() as u64
        ));
        s
    }

    #[test]
    fn the_default_and_an_address() {
        assert_eq!(show(0xffff, b"\x00"), "{family=AF_UNSPEC}");
        assert_eq!(
            show(0xffff, b"\xfd1234"),
            "{family=0xfd /* AF_??? */, data=\"\\x31\\x32\\x33\\x34\"}"
        );
        let mut v = vec![2, 0, 0, 0, 0, 0, 0, 0];
        v.extend_from_slice(&[8, 0, 1, 0, 12, 34, 56, 78]);
        assert_eq!(
            show(22, &v),
            "{ifa_family=AF_INET, ifa_prefixlen=0, ifa_flags=0, ifa_scope=RT_SCOPE_UNIVERSE, ifa_index=0}, [{nla_len=8, nla_type=IFA_ADDRESS}, inet_addr(\"12.34.56.78\")]"
        );
    }
}
