//! NETLINK_ROUTE's payloads: traffic control (tcmsg, tcamsg), DCB (dcbmsg), bridge MDB (br_port_msg), nexthops (nhmsg) and cache reports
//! (strace's rtnl_*.c).
//!
//! The constants' tables (netlink_route_tc_xlat.rs) are generated from
//! strace's xlat lists and the uapi headers:
//!   python3 scripts/gen-xlat.py "NETLINK_ROUTE traffic control, DCB, MDB, nexthop and cache report" \
//!       "$(cat scripts/netlink-route-tc-xlat.headers)" $(cat scripts/netlink-route-tc-xlat.tables) \
//!       > crates/genba-syscalls/src/netlink_route_tc_xlat.rs

use std::fmt::Write;

use super::nla::{
    family_name, le16, le32, le64, nla_clock_t, nla_flags, nla_ifindex, nla_xval, ntop6,
};
use super::route as rx;
use super::{fmt, hex_str, nla_str, nla_struct, nla_u32, nla_u8, nlattrs_with, Hdr, Mem, Options};
use crate::consts as c;
use crate::fmt::{HexStr, Xlat};

#[path = "netlink_route_tc_xlat.rs"]
mod x;

const AF_INET: u8 = 2;
const AF_INET6: u8 = 10;
const RTNL_FAMILY_IPMR: u8 = 128;
const RTNL_FAMILY_IP6MR: u8 = 129;

/// The message types this group decodes.
#[derive(Clone, Copy)]
enum Kind {
    Tc,
    TcAction,
    Dcb,
    Mdb,
    CacheReport,
    Nexthop,
}

fn kind(ty: u16) -> Option<Kind> {
    Some(match ty {
        // RTM_{NEW,DEL,GET}{QDISC,TCLASS,TFILTER}, RTM_{NEW,DEL,GET}CHAIN
        36..=38 | 40..=42 | 44..=46 | 100..=102 => Kind::Tc,
        // RTM_{NEW,DEL,GET}ACTION
        48..=50 => Kind::TcAction,
        // RTM_GETDCB, RTM_SETDCB
        78 | 79 => Kind::Dcb,
        // RTM_{NEW,DEL,GET}MDB
        84..=86 => Kind::Mdb,
        // RTM_NEWCACHEREPORT
        96 => Kind::CacheReport,
        // RTM_{NEW,DEL,GET}NEXTHOP
        104..=106 => Kind::Nexthop,
        _ => return None,
    })
}

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
    let Some(k) = kind(h.ty) else {
        return false;
    };
    // the family byte first; its address when it cannot be read
    let Some(family) = m.get(addr, 1).map(|b| b[0]) else {
        fmt::ptr(s, addr);
        return true;
    };
    match k {
        Kind::Tc => tcmsg(s, o, m, family, addr, len),
        Kind::TcAction => tcamsg(s, o, m, family, addr, len),
        Kind::Dcb => dcbmsg(s, o, m, family, addr, len),
        Kind::Mdb => br_port_msg(s, o, m, family, addr, len),
        Kind::CacheReport => cachereport(s, o, m, family, addr, len),
        Kind::Nexthop => nhmsg(s, o, m, family, addr, len),
    }
    true
}

/// A header struct of `size` bytes whose first byte is the family (named
/// `field`): the family, then the rest as `f` prints it when the payload
/// holds the whole struct (`...` when it is shorter, the address past the
/// family when it cannot be read). Returns whether `f` printed it.
#[allow(clippy::too_many_arguments)]
fn family_struct(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    family: u8,
    addr: u64,
    len: u64,
    field: &str,
    size: usize,
    f: impl FnOnce(&mut String, &[u8]),
) -> bool {
    let _ = write!(s, "{{{field}=");
    family_name(s, o, family);
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

/// The attributes after a header of `hdr` bytes (aligned to 4), when there
/// are any.
#[allow(clippy::too_many_arguments)]
fn attrs_after(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    hdr: u64,
    names: &[(u64, &str)],
    dflt: &str,
    dec: super::NlaDecoder<'_>,
) {
    let off = (hdr + 3) & !3;
    if len > off {
        s.push_str(", ");
        nlattrs_with(s, o, m, addr + off, len - off, names, dflt, dec);
    }
}

// ---------------------------------------------------------------------------
// Shared attribute decoders (strace's decode_nla_*)

/// An integer attribute of at least `size` bytes, read as `size` bytes.
fn nla_uint(s: &mut String, m: &Mem<'_>, addr: u64, len: u64, size: usize) -> bool {
    if len < size as u64 {
        return false;
    }
    match m.get(addr, size) {
        Some(b) => {
            let mut v = [0u8; 8];
            v[..size].copy_from_slice(b);
            let _ = write!(s, "{}", u64::from_le_bytes(v));
        }
        None => fmt::ptr(s, addr),
    }
    true
}

/// An array of `elem`-byte elements each printed by `each` (strace's
/// print_array over an attribute); false when it holds none.
fn nla_array(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    elem: usize,
    each: impl FnMut(&mut String, &[u8]),
) -> bool {
    let n = len / elem as u64;
    if n == 0 {
        return false;
    }
    let off = addr.saturating_sub(m.base) as usize;
    let data = m.data.get(off..).unwrap_or(&[]);
    super::super::print_array_data(s, Some((data, true)), addr, n, elem, o, each);
    true
}

/// strace's print_inet_addr: the address `b` of family `af` (its whole
/// `b.len()` bytes in hex unless abbreviated), named `var` when given.
fn inet_addr(s: &mut String, o: &Options, af: u8, b: &[u8], var: Option<&str>) {
    let x = o.xlat;
    let name = |s: &mut String| {
        if let Some(v) = var {
            let _ = write!(s, "{v}=");
        }
    };
    match af {
        AF_INET if b.len() >= 4 => {
            name(s);
            if x != Xlat::Abbrev {
                fmt::quoted(s, b, false, HexStr::All);
            }
            if x == Xlat::Raw {
                return;
            }
            let mut text = String::from("inet_addr(");
            let dotted = format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3]);
            fmt::quoted(&mut text, dotted.as_bytes(), false, o.hex);
            text.push(')');
            if x == Xlat::Verbose {
                let _ = write!(s, " /* {text} */");
            } else {
                s.push_str(&text);
            }
        }
        AF_INET6 if b.len() >= 16 => {
            if x != Xlat::Abbrev {
                name(s);
                fmt::quoted(s, b, false, HexStr::All);
            }
            if x == Xlat::Raw {
                return;
            }
            let a: [u8; 16] = b[..16].try_into().unwrap();
            let mut text = String::from("inet_pton(AF_INET6, ");
            fmt::quoted(&mut text, ntop6(&a).as_bytes(), false, o.hex);
            if let (Some(v), Xlat::Abbrev) = (var, x) {
                let _ = write!(text, ", &{v}");
            }
            text.push(')');
            if x == Xlat::Verbose {
                let _ = write!(s, " /* {text} */");
            } else {
                s.push_str(&text);
            }
        }
        _ => {
            name(s);
            fmt::quoted(s, b, false, HexStr::All);
        }
    }
}

/// strace's decode_inet_addr: an address of the family's size, in hex when
/// the family has none or the payload is shorter.
fn nla_inet_addr(s: &mut String, o: &Options, m: &Mem<'_>, af: u8, addr: u64, len: u64) -> bool {
    let size = match af {
        AF_INET => 4,
        AF_INET6 => 16,
        _ => 0,
    };
    if size == 0 || len < size {
        hex_str(s, o, m, addr, len);
        return true;
    }
    match m.get(addr, size as usize) {
        Some(b) => inet_addr(s, o, af, b, None),
        None => fmt::ptr(s, addr),
    }
    true
}

// ---------------------------------------------------------------------------
// Traffic control: struct tcmsg (rtnl_tc.c)

fn tcmsg(s: &mut String, o: &Options, m: &Mem<'_>, family: u8, addr: u64, len: u64) {
    let x = o.xlat;
    let done = family_struct(s, o, m, family, addr, len, "tcm_family", 20, |s, b| {
        s.push_str("tcm_ifindex=");
        super::super::sockopt::ifindex(s, le32(b, 4), x);
        let _ = write!(
            s,
            ", tcm_handle={}, tcm_parent={}, tcm_info={}",
            le32(b, 8),
            le32(b, 12),
            le32(b, 16)
        );
    });
    if done {
        attrs_after(
            s,
            o,
            m,
            addr,
            len,
            20,
            x::RTNL_TC_ATTRS,
            "TCA_???",
            &tc_attr,
        );
    }
}

fn tc_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // TCA_KIND
        1 => nla_str(s, o, m, addr, len),
        // TCA_STATS: struct tc_stats up to backlog
        3 => nla_struct(s, m, addr, len, 36, |s, b| {
            let _ = write!(
                s,
                "{{bytes={}, packets={}, drops={}, overlimits={}, bps={}, pps={}, qlen={}, backlog={}}}",
                le64(b, 0),
                le32(b, 8),
                le32(b, 12),
                le32(b, 16),
                le32(b, 20),
                le32(b, 24),
                le32(b, 28),
                le32(b, 32)
            );
        }),
        // TCA_RATE: struct tc_estimator
        5 => nla_struct(s, m, addr, len, 2, |s, b| {
            let _ = write!(s, "{{interval={}, ewma_log={}}}", b[0] as i8, b[1]);
        }),
        // TCA_FCNT, TCA_CHAIN, TCA_INGRESS_BLOCK, TCA_EGRESS_BLOCK,
        // TCA_DUMP_FLAGS
        6 | 11 | 13 | 14 | 15 => nla_u32(s, m, addr, len),
        // TCA_STATS2
        7 => {
            tc_stats(s, o, m, addr, len);
            true
        }
        // TCA_STAB
        8 => {
            nlattrs_with(
                s,
                o,
                m,
                addr,
                len,
                x::RTNL_TCA_STAB_ATTRS,
                "TCA_STAB_???",
                &stab_attr,
            );
            true
        }
        // TCA_HW_OFFLOAD
        12 => nla_u8(s, m, addr, len),
        _ => false,
    }
}

/// strace's decode_nla_tc_stats: TCA_STATS_* attributes.
fn tc_stats(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    nlattrs_with(
        s,
        o,
        m,
        addr,
        len,
        x::RTNL_TCA_STATS_ATTRS,
        "TCA_STATS_???",
        &tc_stats_attr,
    );
}

fn tc_stats_attr(s: &mut String, _o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // TCA_STATS_BASIC, TCA_STATS_BASIC_HW: struct gnet_stats_basic
        1 | 7 => nla_struct(s, m, addr, len, 12, |s, b| {
            let _ = write!(s, "{{bytes={}, packets={}}}", le64(b, 0), le32(b, 8));
        }),
        // TCA_STATS_RATE_EST: struct gnet_stats_rate_est
        2 => nla_struct(s, m, addr, len, 8, |s, b| {
            let _ = write!(s, "{{bps={}, pps={}}}", le32(b, 0), le32(b, 4));
        }),
        // TCA_STATS_QUEUE: struct gnet_stats_queue
        3 => nla_struct(s, m, addr, len, 20, |s, b| {
            let _ = write!(
                s,
                "{{qlen={}, backlog={}, drops={}, requeues={}, overlimits={}}}",
                le32(b, 0),
                le32(b, 4),
                le32(b, 8),
                le32(b, 12),
                le32(b, 16)
            );
        }),
        // TCA_STATS_RATE_EST64: struct gnet_stats_rate_est64
        5 => nla_struct(s, m, addr, len, 16, |s, b| {
            let _ = write!(s, "{{bps={}, pps={}}}", le64(b, 0), le64(b, 8));
        }),
        // TCA_STATS_PKT64
        8 => nla_uint(s, m, addr, len, 8),
        _ => false,
    }
}

fn stab_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // TCA_STAB_BASE: struct tc_sizespec
        1 => nla_struct(s, m, addr, len, 24, |s, b| {
            let _ = write!(
                s,
                "{{cell_log={}, size_log={}, cell_align={}, overhead={}, linklayer={}, mpu={}, mtu={}, tsize={}}}",
                b[0],
                b[1],
                le16(b, 2) as i16,
                le32(b, 4) as i32,
                le32(b, 8),
                le32(b, 12),
                le32(b, 16),
                le32(b, 20)
            );
        }),
        // TCA_STAB_DATA: u16[]
        2 => nla_array(s, o, m, addr, len, 2, |s, b| {
            let _ = write!(s, "{}", le16(b, 0));
        }),
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Traffic control actions: struct tcamsg (rtnl_tc_action.c)

fn tcamsg(s: &mut String, o: &Options, m: &Mem<'_>, family: u8, addr: u64, len: u64) {
    s.push_str("{tca_family=");
    family_name(s, o, family);
    s.push('}');
    attrs_after(
        s,
        o,
        m,
        addr,
        len,
        4,
        x::RTNL_TC_ACTION_ATTRS,
        "TCA_ACT_???",
        &tca_attr,
    );
}

fn tca_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // TCA_ACT_KIND
        1 => nla_str(s, o, m, addr, len),
        // TCA_ACT_INDEX, TCA_ACT_IN_HW_COUNT
        3 | 10 => nla_u32(s, m, addr, len),
        // TCA_ACT_STATS
        4 => {
            tc_stats(s, o, m, addr, len);
            true
        }
        // TCA_ACT_FLAGS
        7 => nla_flags(
            s,
            o,
            m,
            addr,
            len,
            4,
            x::RTNL_TCA_ACT_FLAGS,
            "TCA_ACT_FLAGS_???",
        ),
        // TCA_ACT_HW_STATS, TCA_ACT_USED_HW_STATS
        8 | 9 => nla_flags(
            s,
            o,
            m,
            addr,
            len,
            4,
            x::RTNL_TCA_ACT_HW_STATS,
            "TCA_ACT_HW_STATS_???",
        ),
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// DCB: struct dcbmsg (rtnl_dcb.c)

fn dcbmsg(s: &mut String, o: &Options, m: &Mem<'_>, family: u8, addr: u64, len: u64) {
    let x = o.xlat;
    let done = family_struct(s, o, m, family, addr, len, "dcb_family", 4, |s, b| {
        s.push_str("cmd=");
        fmt::enumv(s, u64::from(b[1]), x::DCB_COMMANDS, "DCB_CMD_???", x, true);
    });
    if done {
        attrs_after(
            s,
            o,
            m,
            addr,
            len,
            4,
            x::RTNL_DCB_ATTRS,
            "DCB_ATTR_???",
            &|_, _, _, _, _, _| false,
        );
    }
}

// ---------------------------------------------------------------------------
// Bridge MDB: struct br_port_msg (rtnl_mdb.c)

fn br_port_msg(s: &mut String, o: &Options, m: &Mem<'_>, family: u8, addr: u64, len: u64) {
    let x = o.xlat;
    let done = family_struct(s, o, m, family, addr, len, "family", 8, |s, b| {
        s.push_str("ifindex=");
        super::super::sockopt::ifindex(s, le32(b, 4), x);
    });
    if done {
        attrs_after(
            s,
            o,
            m,
            addr,
            len,
            8,
            x::RTNL_MDB_ATTRS,
            "MDBA_???",
            &mdb_attr,
        );
    }
}

fn mdb_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // MDBA_MDB
        1 => nlattrs_with(
            s,
            o,
            m,
            addr,
            len,
            x::RTNL_MDBA_MDB_ATTRS,
            "MDBA_MDB_???",
            &|s, o, m, ty, addr, len| {
                // MDBA_MDB_ENTRY
                if ty != 1 {
                    return false;
                }
                nlattrs_with(
                    s,
                    o,
                    m,
                    addr,
                    len,
                    x::RTNL_MDBA_MDB_ENTRY_ATTRS,
                    "MDBA_MDB_ENTRY_???",
                    &mdb_entry_attr,
                );
                true
            },
        ),
        // MDBA_ROUTER
        2 => nlattrs_with(
            s,
            o,
            m,
            addr,
            len,
            x::RTNL_MDBA_ROUTER_ATTRS,
            "MDBA_ROUTER_???",
            &|s, o, m, ty, addr, len| {
                // MDBA_ROUTER_PORT
                ty == 1 && mdba_router_port(s, o, m, addr, len)
            },
        ),
        _ => return false,
    }
    true
}

/// MDBA_MDB_ENTRY_INFO: struct br_mdb_entry, then MDBA_MDB_EATTR_*.
fn mdb_entry_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    const SIZE: usize = 28;
    if ty != 1 || len < SIZE as u64 {
        return false;
    }
    let x = o.xlat;
    match m.get(addr, SIZE) {
        Some(b) => {
            s.push_str("{ifindex=");
            super::super::sockopt::ifindex(s, le32(b, 0), x);
            s.push_str(", state=");
            fmt::enumv(s, u64::from(b[4]), x::MDB_STATES, "MDB_???", x, true);
            s.push_str(", flags=");
            fmt::flags_default(s, u64::from(b[5]), x::MDB_FLAGS, "MDB_FLAGS_???", x);
            let _ = write!(s, ", vid={}, addr={{", le16(b, 6));
            let proto = u16::from_be_bytes([b[24], b[25]]);
            let af = match proto {
                2 => AF_INET,
                10 => AF_INET6,
                _ => 0,
            };
            inet_addr(s, o, af, &b[8..24], Some("u"));
            s.push_str(", proto=htons(");
            fmt::enumv(s, u64::from(proto), c::SOCKET_FAMILIES, "AF_???", x, true);
            s.push_str(")}}");
        }
        None => fmt::ptr(s, addr),
    }
    if len > SIZE as u64 {
        s.push_str(", ");
        nlattrs_with(
            s,
            o,
            m,
            addr + SIZE as u64,
            len - SIZE as u64,
            x::RTNL_MDBA_MDB_EATTR_ATTRS,
            "MDBA_MDB_EATTR_???",
            &|s, o, m, ty, addr, len| {
                // MDBA_MDB_EATTR_TIMER
                ty == 1 && nla_clock_t(s, o, m, addr, len)
            },
        );
    }
    true
}

/// MDBA_ROUTER_PORT: an interface index, then MDBA_ROUTER_PATTR_*.
fn mdba_router_port(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    if len < 4 {
        return false;
    }
    match m.u32(addr) {
        Some(i) => super::super::sockopt::ifindex(s, i, o.xlat),
        None => fmt::ptr(s, addr),
    }
    if len > 4 {
        s.push_str(", ");
        nlattrs_with(
            s,
            o,
            m,
            addr + 4,
            len - 4,
            x::RTNL_MDBA_ROUTER_PATTR_ATTRS,
            "MDBA_ROUTER_PATTR_???",
            &|s, o, m, ty, addr, len| match ty {
                // MDBA_ROUTER_PATTR_TIMER, _INET_TIMER, _INET6_TIMER
                1 | 3 | 4 => nla_clock_t(s, o, m, addr, len),
                // MDBA_ROUTER_PATTR_TYPE
                2 => {
                    match m.get(addr, 1) {
                        Some(b) => fmt::enumv(
                            s,
                            u64::from(b[0]),
                            x::MULTICAST_ROUTER_TYPES,
                            "MDB_RTR_TYPE_???",
                            o.xlat,
                            true,
                        ),
                        None => fmt::ptr(s, addr),
                    }
                    true
                }
                _ => false,
            },
        );
    }
    true
}

// ---------------------------------------------------------------------------
// Nexthops: struct nhmsg (rtnl_nh.c)

fn nhmsg(s: &mut String, o: &Options, m: &Mem<'_>, family: u8, addr: u64, len: u64) {
    let x = o.xlat;
    let done = family_struct(s, o, m, family, addr, len, "nh_family", 8, |s, b| {
        s.push_str("nh_scope=");
        fmt::enumv(s, u64::from(b[1]), rx::ROUTING_SCOPES, "", x, true);
        s.push_str(", nh_protocol=");
        fmt::enumv(
            s,
            u64::from(b[2]),
            rx::ROUTING_PROTOCOLS,
            "RTPROT_???",
            x,
            true,
        );
        if b[3] != 0 {
            let _ = write!(s, ", resvd={:#x}", b[3]);
        }
        s.push_str(", nh_flags=");
        fmt::flags_default(
            s,
            u64::from(le32(b, 4)),
            rx::ROUTE_NEXTHOP_FLAGS,
            "RTNH_F_???",
            x,
        );
    });
    if done {
        attrs_after(
            s,
            o,
            m,
            addr,
            len,
            8,
            x::RTNL_NEXTHOP_ATTRS,
            "NHA_???",
            &|s, o, m, ty, a, l| nh_attr(s, o, m, family, ty, a, l),
        );
    }
}

fn nh_attr(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    family: u8,
    ty: u16,
    addr: u64,
    len: u64,
) -> bool {
    match ty {
        // NHA_ID, NHA_BLACKHOLE, NHA_GROUPS, NHA_FDB
        1 | 4 | 9 | 11 => nla_u32(s, m, addr, len),
        // NHA_GROUP: struct nexthop_grp[]
        2 => nla_array(s, o, m, addr, len, 8, |s, b| {
            let _ = write!(s, "{{id={}, weight={}", le32(b, 0), b[4]);
            if b[5] != 0 {
                let _ = write!(s, ", resvd1={:#x}", b[5]);
            }
            let r2 = le16(b, 6);
            if r2 != 0 {
                let _ = write!(s, ", resvd2={r2:#x}");
            }
            s.push('}');
        }),
        // NHA_GROUP_TYPE
        3 => nla_xval(
            s,
            o,
            m,
            addr,
            len,
            2,
            x::RTNL_NEXTHOP_GRP_TYPES,
            "NEXTHOP_GRP_TYPE_???",
        ),
        // NHA_OIF, NHA_MASTER
        5 | 10 => nla_ifindex(s, o, m, addr, len),
        // NHA_GATEWAY
        6 => nla_inet_addr(s, o, m, family, addr, len),
        // NHA_ENCAP_TYPE
        7 => nla_struct(s, m, addr, len, 2, |s, b| {
            fmt::enumv(
                s,
                u64::from(le16(b, 0)),
                rx::LWTUNNEL_ENCAP_TYPES,
                "LWTUNNEL_ENCAP_???",
                o.xlat,
                true,
            )
        }),
        // NHA_RES_GROUP
        12 => {
            nlattrs_with(
                s,
                o,
                m,
                addr,
                len,
                x::RTNL_NHA_RES_GROUP_ATTRS,
                "NHA_RES_GROUP_???",
                &|s, o, m, ty, addr, len| match ty {
                    // NHA_RES_GROUP_BUCKETS
                    1 => nla_uint(s, m, addr, len, 2),
                    // NHA_RES_GROUP_IDLE_TIMER, _UNBALANCED_TIMER,
                    // _UNBALANCED_TIME
                    2..=4 => nla_clock_t(s, o, m, addr, len),
                    _ => false,
                },
            );
            true
        }
        // NHA_RES_BUCKET
        13 => {
            nlattrs_with(
                s,
                o,
                m,
                addr,
                len,
                x::RTNL_NHA_RES_BUCKET_ATTRS,
                "NHA_RES_BUCKET_???",
                &|s, o, m, ty, addr, len| match ty {
                    // NHA_RES_BUCKET_INDEX
                    1 => nla_uint(s, m, addr, len, 2),
                    // NHA_RES_BUCKET_IDLE_TIME
                    2 => nla_clock_t(s, o, m, addr, len),
                    // NHA_RES_BUCKET_NH_ID
                    3 => nla_u32(s, m, addr, len),
                    _ => false,
                },
            );
            true
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------
// Multicast routing cache reports: struct rtgenmsg (rtnl_cachereport.c)

fn cachereport(s: &mut String, o: &Options, m: &Mem<'_>, family: u8, addr: u64, len: u64) {
    s.push_str("{rtgen_family=");
    let v = u64::from(family);
    if x::RTNL_FAMILY.iter().any(|(k, _)| *k == v) {
        fmt::enumv(s, v, x::RTNL_FAMILY, "", o.xlat, true);
    } else {
        fmt::enumv(s, v, c::SOCKET_FAMILIES, "RTNL_FAMILY_???", o.xlat, true);
    }
    s.push('}');
    if len <= 4 {
        return;
    }
    s.push_str(", ");
    let (addr, len) = (addr + 4, len - 4);
    match family {
        RTNL_FAMILY_IPMR => nlattrs_with(
            s,
            o,
            m,
            addr,
            len,
            x::RTNL_IPMRA_CREPORT_ATTR,
            "IPMRA_CREPORT_???",
            &|s, o, m, ty, addr, len| match ty {
                // IPMRA_CREPORT_MSGTYPE
                1 => nla_xval(
                    s,
                    o,
                    m,
                    addr,
                    len,
                    1,
                    x::RTNL_IPMRA_MSG_TYPES,
                    "IGMPMSG_???",
                ),
                // IPMRA_CREPORT_VIF_ID, IPMRA_CREPORT_TABLE
                2 | 6 => nla_u32(s, m, addr, len),
                // IPMRA_CREPORT_SRC_ADDR, IPMRA_CREPORT_DST_ADDR
                3 | 4 => nla_struct(s, m, addr, len, 4, |s, b| inet_addr(s, o, AF_INET, b, None)),
                _ => false,
            },
        ),
        RTNL_FAMILY_IP6MR => nlattrs_with(
            s,
            o,
            m,
            addr,
            len,
            x::RTNL_IP6MRA_CREPORT_ATTR,
            "IP6MRA_CREPORT_???",
            &|s, o, m, ty, addr, len| match ty {
                // IP6MRA_CREPORT_MSGTYPE
                1 => nla_xval(
                    s,
                    o,
                    m,
                    addr,
                    len,
                    1,
                    x::RTNL_IP6MRA_MSG_TYPES,
                    "MRT6MSG_???",
                ),
                // IP6MRA_CREPORT_MIF_ID
                2 => nla_u32(s, m, addr, len),
                // IP6MRA_CREPORT_SRC_ADDR, IP6MRA_CREPORT_DST_ADDR
                3 | 4 => nla_struct(s, m, addr, len, 16, |s, b| {
                    inet_addr(s, o, AF_INET6, b, None)
                }),
                _ => false,
            },
        ),
        _ => hex_str(s, o, m, addr, len),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(ty: u16, payload: &[u8], o: &Options) -> String {
        let m = Mem {
            base: 0x1000,
            data: payload,
        };
        let h = Hdr {
            len: 16 + payload.len() as u32,
            ty,
            flags: 0,
            seq: 0,
            pid: 0,
        };
        let mut s = String::new();
        assert!(super::payload(
            &mut s,
            o,
            &m,
            &h,
            0x1000,
            payload.len() as u64
        ));
        s
    }

    #[test]
    fn only_this_groups_types() {
        let m = Mem {
            base: 0x1000,
            data: &[0; 8],
        };
        for ty in [16u16, 20, 24, 52, 80, 88, 92] {
            let h = Hdr {
                len: 24,
                ty,
                flags: 0,
                seq: 0,
                pid: 0,
            };
            assert!(!payload(
                &mut String::new(),
                &Options::default(),
                &m,
                &h,
                0x1000,
                8
            ));
        }
    }

    #[test]
    fn a_tcamsg_with_its_flags_and_a_dcbmsg() {
        let mut p = vec![2, 0, 0, 0, 8, 0, 7, 0];
        p.extend_from_slice(&0x5u32.to_le_bytes());
        assert_eq!(
            show(50, &p, &Options::default()),
            "{tca_family=AF_INET}, [{nla_len=8, nla_type=TCA_ACT_FLAGS}, TCA_ACT_FLAGS_NO_PERCPU_STATS|TCA_ACT_FLAGS_SKIP_SW]"
        );
        assert_eq!(
            show(78, &[1, 0, 0, 0], &Options::default()),
            "{dcb_family=AF_UNIX, cmd=DCB_CMD_UNDEFINED}"
        );
    }

    #[test]
    fn a_nexthop_group_type_and_gateway() {
        let mut p = vec![2, 0xff, 0, 0, 0x22, 0, 0, 0, 6, 0, 3, 0, 1, 0, 0, 0];
        p.extend_from_slice(&[8, 0, 6, 0, 10, 0, 0, 1]);
        assert_eq!(
            show(106, &p, &Options::default()),
            "{nh_family=AF_INET, nh_scope=RT_SCOPE_NOWHERE, nh_protocol=RTPROT_UNSPEC, nh_flags=RTNH_F_PERVASIVE|RTNH_F_UNRESOLVED}, [[{nla_len=6, nla_type=NHA_GROUP_TYPE}, NEXTHOP_GRP_TYPE_RES], [{nla_len=8, nla_type=NHA_GATEWAY}, inet_addr(\"10.0.0.1\")]]"
        );
    }

    #[test]
    fn a_cache_report_of_an_unknown_family() {
        let o = Options {
            xlat: Xlat::Verbose,
            ..Options::default()
        };
        assert_eq!(
            show(96, &[0x80, 0, 0, 0, 5, 0, 1, 0, 3], &o),
            "{rtgen_family=0x80 /* RTNL_FAMILY_IPMR */}, [{nla_len=5, nla_type=0x1 /* IPMRA_CREPORT_MSGTYPE */}, 0x3 /* IGMPMSG_WHOLEPKT */]"
        );
        assert_eq!(
            show(96, &[0x2e, 0, 0, 0, 1, 2, 3, 4], &Options::default()),
            "{rtgen_family=0x2e /* RTNL_FAMILY_??? */}, \"\\x01\\x02\\x03\\x04\""
        );
    }
}
