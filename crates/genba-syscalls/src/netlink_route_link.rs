//! NETLINK_ROUTE's payloads: links (ifinfomsg and its IFLA_* attributes) and link statistics (if_stats_msg)
//! (strace's rtnl_link.c and rtnl_stats.c).
//!
//! The constants' tables (netlink_route_link_xlat.rs) are generated:
//!   python3 scripts/gen-xlat.py "NETLINK_ROUTE link" \
//!       "$(cat scripts/netlink-route-link-xlat.headers)" \
//!       $(cat scripts/netlink-route-link-xlat.tables) \
//!       > crates/genba-syscalls/src/netlink_route_link_xlat.rs
//! (INET_DEVCONF_INDICES' values there are the names' numbers plus one:
//! strace's list gives `IPV4_DEVCONF_X-1` with the value of
//! `IPV4_DEVCONF_X`; the lookup below allows for it.)

use std::fmt::Write;

use super::nla::{
    family_name, ifindex, le16, le32, le64, nla_clock_t, nla_flags, nla_ifindex, nla_s32, nla_u16,
    nla_u64, nla_upto64, nla_xval,
};
use super::{fmt, hex_str, nla_struct, nla_u32, nla_u8, nlattrs_with, Hdr, Mem, Options};
use crate::fmt::{HexStr, Xlat};

#[path = "netlink_route_link_xlat.rs"]
mod lx;

const RTM_NEWLINK: u16 = 16;
const RTM_SETLINK: u16 = 19;
const RTM_NEWSTATS: u16 = 92;
const RTM_GETSTATS: u16 = 94;

const AF_INET: u8 = 2;
const AF_BRIDGE: u8 = 7;
const AF_INET6: u8 = 10;
const AF_MPLS: u8 = 28;
const AF_MCTP: u8 = 45;

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
    let stats = match h.ty {
        RTM_NEWLINK..=RTM_SETLINK => false,
        RTM_NEWSTATS | RTM_GETSTATS => true,
        _ => return false,
    };
    let Some(family) = m.get(addr, 1).map(|b| b[0]) else {
        fmt::ptr(s, addr);
        return true;
    };
    if stats {
        ifstatsmsg(s, o, m, family, addr, len);
    } else {
        ifinfomsg(s, o, m, family, addr, len);
    }
    true
}

/// A number as strace's `%#x` prints it (`0` for zero).
fn hx(v: impl Into<u64>) -> String {
    let v = v.into();
    if v == 0 {
        "0".into()
    } else {
        format!("{v:#x}")
    }
}

/// `struct ifinfomsg` (16 bytes), then its attributes.
fn ifinfomsg(s: &mut String, o: &Options, m: &Mem<'_>, family: u8, addr: u64, len: u64) {
    const SIZE: u64 = 16;
    let x = o.xlat;
    s.push_str("{ifi_family=");
    family_name(s, o, family);
    s.push_str(", ");
    let mut ok = false;
    if len >= SIZE {
        match m.get(addr, SIZE as usize) {
            Some(b) => {
                s.push_str("ifi_type=");
                fmt::enumv(
                    s,
                    u64::from(le16(b, 2)),
                    crate::decode::sockaddr::ARP_HW_TYPES,
                    "ARPHRD_???",
                    x,
                    true,
                );
                s.push_str(", ifi_index=");
                ifindex(s, le32(b, 4), x);
                s.push_str(", ifi_flags=");
                fmt::flags_default(s, u64::from(le32(b, 8)), lx::IFFFLAGS, "IFF_???", x);
                let _ = write!(s, ", ifi_change={}", hx(le32(b, 12)));
                ok = true;
            }
            None => fmt::ptr(s, addr + 1),
        }
    } else {
        s.push_str("...");
    }
    s.push('}');
    if ok && len > SIZE {
        s.push_str(", ");
        nlattrs_with(
            s,
            o,
            m,
            addr + SIZE,
            len - SIZE,
            lx::RTNL_LINK_ATTRS,
            "IFLA_???",
            &|s, o, m, ty, a, l| link_attr(s, o, m, family, ty, a, l),
        );
    }
}

// ---- attribute helpers (strace's decode_nla_*) ----

fn nla_x16(s: &mut String, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nla_struct(s, m, addr, len, 2, |s, b| {
        let _ = write!(s, "{}", hx(le16(b, 0)));
    })
}

fn nla_x32(s: &mut String, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nla_struct(s, m, addr, len, 4, |s, b| {
        let _ = write!(s, "{}", hx(le32(b, 0)));
    })
}

fn nla_fd(s: &mut String, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nla_struct(s, m, addr, len, 4, |s, b| {
        let fd = le32(b, 0) as i32;
        let _ = write!(s, "{fd}");
        if let Some(p) = fd_path(fd) {
            s.push_str(&super::super::fd_path_text(&p));
        }
    })
}

/// `-y`'s namer of the traced process's descriptors, while a buffer is
/// decoded (see [`with_fd_paths`]).
type Namer = dyn Fn(i32) -> Option<String>;

thread_local! {
    static FD_PATHS: std::cell::Cell<Option<*const Namer>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with `namer` giving the paths descriptors print with (IFLA_XDP_FD
/// and the like under `-y`).
pub(super) fn with_fd_paths<R>(
    namer: Option<&(dyn Fn(i32) -> Option<String> + '_)>,
    f: impl FnOnce() -> R,
) -> R {
    struct Reset(Option<*const Namer>);
    impl Drop for Reset {
        fn drop(&mut self) {
            FD_PATHS.with(|p| p.set(self.0));
        }
    }
    // SAFETY: the pointer is only dereferenced (in fd_path) while `f` runs,
    // within the borrow of `namer`; the guard puts the previous value back
    // when `f` returns or unwinds.
    let ptr = namer.map(|n| unsafe {
        std::mem::transmute::<*const (dyn Fn(i32) -> Option<String> + '_), *const Namer>(
            n as *const _,
        )
    });
    let _reset = Reset(FD_PATHS.with(|p| p.replace(ptr)));
    f()
}

fn fd_path(fd: i32) -> Option<String> {
    if fd < 0 {
        return None;
    }
    let p = FD_PATHS.with(|p| p.get())?;
    // SAFETY: set by with_fd_paths, whose caller's borrow outlives this call.
    unsafe { (*p)(fd) }
}

fn nla_uid(s: &mut String, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nla_struct(s, m, addr, len, 4, |s, b| {
        let v = le32(b, 0);
        if v == u32::MAX {
            s.push_str("-1");
        } else {
            let _ = write!(s, "{v}");
        }
    })
}

/// `htons(ETH_P_*)`.
fn nla_ether_proto(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    let x = o.xlat;
    nla_upto64(s, m, addr, len, 2, |s, v| {
        s.push_str("htons(");
        fmt::enumv(
            s,
            u64::from((v as u16).swap_bytes()),
            crate::decode::sockaddr::ETH_PROTOCOLS,
            "ETHER_P_???",
            x,
            true,
        );
        s.push(')');
    })
}

/// The length strace shows of a hardware address of link type `devtype`.
fn hwaddr_size(devtype: Option<u32>) -> usize {
    match devtype {
        Some(0 | 3) => 7,
        Some(1 | 6 | 772 | 774 | 780 | 801..=803) => 6,
        Some(7 | 290 | 773 | 820 | 821) => 1,
        Some(15) => 2,
        Some(24 | 769 | 823) => 16,
        Some(27 | 804 | 805 | 825) => 8,
        Some(32) => 20,
        Some(256 | 271 | 280 | 512 | 518 | 519 | 777 | 779 | 822 | 824 | 826) => 0,
        Some(270) => 5,
        Some(768 | 776 | 778 | 783) => 4,
        _ => 255,
    }
}

/// A hardware address (strace's decode_nla_hwaddr).
fn nla_hwaddr(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    devtype: Option<u32>,
) -> bool {
    const MAX_ADDR_LEN: u64 = 32;
    if len > MAX_ADDR_LEN {
        return false;
    }
    let Some(b) = m.get(addr, len as usize) else {
        fmt::ptr(s, addr);
        return true;
    };
    let x = o.xlat;
    if x != Xlat::Abbrev {
        fmt::quoted(s, b, false, HexStr::All);
    }
    if x == Xlat::Raw {
        return true;
    }
    let n = b.len().min(hwaddr_size(devtype));
    let text = b[..n]
        .iter()
        .map(|c| format!("{c:02x}"))
        .collect::<Vec<_>>()
        .join(":");
    if x == Xlat::Verbose {
        let _ = write!(s, " /* {text} */");
    } else {
        s.push_str(&text);
    }
    true
}

/// A MAC address field (strace's PRINT_FIELD_MAC).
fn mac(s: &mut String, x: Xlat, b: &[u8]) {
    super::super::sockopt::mac(s, b, x);
}

fn in_addr(s: &mut String, x: Xlat, b: &[u8]) {
    let text = format!("{}.{}.{}.{}", b[0], b[1], b[2], b[3]);
    if x != Xlat::Abbrev {
        fmt::quoted(s, &b[..4], false, HexStr::All);
    }
    match x {
        Xlat::Raw => {}
        Xlat::Verbose => {
            let _ = write!(s, " /* inet_addr(\"{text}\") */");
        }
        Xlat::Abbrev => {
            let _ = write!(s, "inet_addr(\"{text}\")");
        }
    }
}

fn in6_addr(s: &mut String, x: Xlat, b: &[u8]) {
    let a: [u8; 16] = b[..16].try_into().unwrap();
    let w: Vec<u16> = (0..8)
        .map(|i| u16::from_be_bytes([a[2 * i], a[2 * i + 1]]))
        .collect();
    let text = if w[..6].iter().all(|&v| v == 0) && w[6] != 0 {
        format!("::{}.{}.{}.{}", a[12], a[13], a[14], a[15])
    } else {
        std::net::Ipv6Addr::from(a).to_string()
    };
    if x != Xlat::Abbrev {
        fmt::quoted(s, &a, false, HexStr::All);
    }
    match x {
        Xlat::Raw => {}
        Xlat::Verbose => {
            let _ = write!(s, " /* inet_pton(AF_INET6, \"{text}\") */");
        }
        Xlat::Abbrev => {
            let _ = write!(s, "inet_pton(AF_INET6, \"{text}\")");
        }
    }
}

fn nla_in_addr(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nla_struct(s, m, addr, len, 4, |s, b| in_addr(s, o.xlat, b))
}

fn nla_in6_addr(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nla_struct(s, m, addr, len, 16, |s, b| in6_addr(s, o.xlat, b))
}

/// An array of `elem`-byte numbers with their indices named by `names`
/// (strace's print_array_ex with PAF_PRINT_INDICES); false when the
/// attribute holds none. `off` is added to an index before its lookup.
#[allow(clippy::too_many_arguments)]
fn nla_indexed(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    elem: usize,
    names: &[(u64, &str)],
    dflt: &str,
    off: u64,
    each: &dyn Fn(&mut String, &[u8]),
) -> bool {
    let n = len / elem as u64;
    if n == 0 {
        return false;
    }
    let start = addr.saturating_sub(m.base) as usize;
    let data = m.data.get(start..).unwrap_or(&[]);
    let mut k = 0u64;
    super::super::print_array_data(s, Some((data, true)), addr, n, elem, o, |s, b| {
        s.push('[');
        let name = names.iter().find(|(v, _)| *v == k + off).map(|(_, n)| *n);
        match (name, o.xlat) {
            (Some(nm), Xlat::Abbrev) => s.push_str(nm),
            (Some(nm), Xlat::Verbose) => {
                let _ = write!(s, "{k} /* {nm} */");
            }
            (None, Xlat::Abbrev | Xlat::Verbose) => {
                let _ = write!(s, "{k} /* {dflt} */");
            }
            _ => {
                let _ = write!(s, "{k}");
            }
        }
        s.push_str("]=");
        each(s, b);
        k += 1;
    });
    true
}

/// The fields of a struct of u32s or u64s, by name.
fn uint_fields(s: &mut String, b: &[u8], names: &[&str], wide: bool) {
    s.push('{');
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let v = if wide {
            le64(b, i * 8)
        } else {
            u64::from(le32(b, i * 4))
        };
        let _ = write!(s, "{n}={v}");
    }
    s.push('}');
}

const LINK_STATS: &[&str] = &[
    "rx_packets",
    "tx_packets",
    "rx_bytes",
    "tx_bytes",
    "rx_errors",
    "tx_errors",
    "rx_dropped",
    "tx_dropped",
    "multicast",
    "collisions",
    "rx_length_errors",
    "rx_over_errors",
    "rx_crc_errors",
    "rx_frame_errors",
    "rx_fifo_errors",
    "rx_missed_errors",
    "tx_aborted_errors",
    "tx_carrier_errors",
    "tx_fifo_errors",
    "tx_heartbeat_errors",
    "tx_window_errors",
    "rx_compressed",
    "tx_compressed",
    "rx_nohandler",
    "rx_otherhost_dropped",
];

/// `struct rtnl_link_stats` (24 u32s; 23 in old kernels).
fn rtnl_link_stats(s: &mut String, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    let n = if len >= 24 * 4 {
        24
    } else if len == 23 * 4 {
        23
    } else {
        return false;
    };
    nla_struct(s, m, addr, len, n * 4, |s, b| {
        uint_fields(s, b, &LINK_STATS[..n], false)
    })
}

/// `struct rtnl_link_stats64` (25 u64s; 23 or 24 in old kernels).
fn rtnl_link_stats64(s: &mut String, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    let n = if len >= 25 * 8 {
        25
    } else if len == 24 * 8 {
        24
    } else if len == 23 * 8 {
        23
    } else {
        return false;
    };
    nla_struct(s, m, addr, len, n * 8, |s, b| {
        uint_fields(s, b, &LINK_STATS[..n], true)
    })
}

/// Nested attributes with `dec` for their payloads; always true.
#[allow(clippy::too_many_arguments)]
fn nested(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    names: &[(u64, &str)],
    dflt: &str,
    dec: super::NlaDecoder<'_>,
) -> bool {
    nlattrs_with(s, o, m, addr, len, names, dflt, dec);
    true
}

/// strace's decode_nla_af_spec: attributes of the family's own kind, or
/// the bytes in hex for a family without one.
fn af_spec(s: &mut String, o: &Options, m: &Mem<'_>, family: u8, addr: u64, len: u64) -> bool {
    match family {
        AF_BRIDGE => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_BRPORT_ATTRS,
            "IFLA_BRPORT_???",
            &brport_attr,
        ),
        AF_INET6 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_AF_SPEC_INET6_ATTRS,
            "IFLA_INET6_???",
            &inet6_attr,
        ),
        _ => {
            hex_str(s, o, m, addr, len);
            true
        }
    }
}

// ---- IFLA_* ----

fn link_attr(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    family: u8,
    ty: u16,
    addr: u64,
    len: u64,
) -> bool {
    match ty {
        // IFLA_ADDRESS, IFLA_BROADCAST, IFLA_PERM_ADDRESS
        1 | 2 | 54 => nla_hwaddr(s, o, m, addr, len, Some(u32::from(family))),
        // IFLA_IFNAME, IFLA_QDISC, IFLA_IFALIAS, IFLA_PHYS_PORT_NAME,
        // IFLA_ALT_IFNAME, IFLA_PARENT_DEV_NAME, IFLA_PARENT_DEV_BUS_NAME
        3 | 6 | 20 | 38 | 53 | 56 | 57 => nla_cstr(s, o, m, addr, len),
        // IFLA_MTU, IFLA_LINK, IFLA_MASTER, IFLA_TXQLEN, IFLA_WEIGHT,
        // IFLA_NET_NS_PID, IFLA_NUM_VF, IFLA_GROUP, IFLA_PROMISCUITY,
        // IFLA_NUM_TX_QUEUES, IFLA_NUM_RX_QUEUES, IFLA_CARRIER_CHANGES,
        // IFLA_GSO_MAX_SEGS, IFLA_GSO_MAX_SIZE, IFLA_CARRIER_UP_COUNT,
        // IFLA_CARRIER_DOWN_COUNT, IFLA_MIN_MTU, IFLA_MAX_MTU,
        // IFLA_GRO_MAX_SIZE, IFLA_TSO_MAX_SIZE, IFLA_TSO_MAX_SEGS,
        // IFLA_ALLMULTI
        4 | 5 | 10 | 13 | 15 | 19 | 21 | 27 | 30 | 31 | 32 | 35 | 40 | 41 | 47 | 48 | 50 | 51
        | 58 | 59 | 60 | 61 => nla_u32(s, m, addr, len),
        // IFLA_STATS
        7 => rtnl_link_stats(s, m, addr, len),
        // IFLA_PROTINFO
        12 => af_spec(s, o, m, family, addr, len),
        // IFLA_MAP: struct rtnl_link_ifmap (up to port)
        14 => nla_struct(s, m, addr, len, 28, |s, b| {
            let _ = write!(
                s,
                "{{mem_start={}, mem_end={}, base_addr={}, irq={}, dma={}, port={}}}",
                hx(le64(b, 0)),
                hx(le64(b, 8)),
                hx(le64(b, 16)),
                le16(b, 24),
                b[26],
                b[27]
            );
        }),
        // IFLA_OPERSTATE, IFLA_LINKMODE, IFLA_CARRIER, IFLA_PROTO_DOWN
        16 | 17 | 33 | 39 => nla_u8(s, m, addr, len),
        // IFLA_LINKINFO
        18 => linkinfo(s, o, m, addr, len),
        // IFLA_VFINFO_LIST
        22 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_VFINFO_LIST_ATTRS,
            "IFLA_VF_INFO_???",
            &|s, o, m, ty, a, l| {
                ty == 1
                    && nested(
                        s,
                        o,
                        m,
                        a,
                        l,
                        lx::RTNL_IFLA_VF_INFO_ATTRS,
                        "IFLA_VF_???",
                        &vf_info_attr,
                    )
            },
        ),
        // IFLA_STATS64
        23 => rtnl_link_stats64(s, m, addr, len),
        // IFLA_VF_PORTS
        24 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_VF_PORT_ATTRS,
            "IFLA_VF_PORT_???",
            &|s, o, m, ty, a, l| ty == 1 && port(s, o, m, a, l),
        ),
        // IFLA_PORT_SELF
        25 => port(s, o, m, addr, len),
        // IFLA_AF_SPEC
        26 => {
            if family == AF_BRIDGE {
                nested(
                    s,
                    o,
                    m,
                    addr,
                    len,
                    lx::RTNL_IFLA_AF_SPEC_BRIDGE_ATTRS,
                    "IFLA_BRIDGE_???",
                    &af_spec_bridge_attr,
                )
            } else {
                nested(
                    s,
                    o,
                    m,
                    addr,
                    len,
                    lx::ADDRFAMS,
                    "AF_???",
                    &|s, o, m, ty, a, l| af_attr(s, o, m, ty as u8, a, l),
                )
            }
        }
        // IFLA_NET_NS_FD
        28 => nla_fd(s, m, addr, len),
        // IFLA_EXT_MASK
        29 => nla_flags(
            s,
            o,
            m,
            addr,
            len,
            4,
            lx::RTNL_IFLA_EXT_FILTER_FLAGS,
            "RTEXT_FILTER_???",
        ),
        // IFLA_LINK_NETNSID, IFLA_NEW_NETNSID, IFLA_IF_NETNSID
        37 | 45 | 46 => nla_s32(s, m, addr, len),
        // IFLA_XDP
        43 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_XDP_ATTRS,
            "IFLA_XDP_???",
            &xdp_attr,
        ),
        // IFLA_EVENT
        44 => nla_struct(s, m, addr, len, 4, |s, b| {
            fmt::enumv(
                s,
                u64::from(le32(b, 0)),
                lx::RTNL_IFLA_EVENTS,
                "IFLA_EVENT_???",
                o.xlat,
                true,
            )
        }),
        // IFLA_NEW_IFINDEX
        49 => nla_ifindex(s, o, m, addr, len),
        // IFLA_PROP_LIST
        52 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_LINK_ATTRS,
            "IFLA_???",
            &|s, o, m, ty, a, l| ty == 53 && nla_cstr(s, o, m, a, l),
        ),
        // IFLA_PROTO_DOWN_REASON
        55 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_PROTO_DOWN_REASON_ATTRS,
            "IFLA_PROTO_DOWN_REASON_???",
            &|s, _o, m, ty, a, l| matches!(ty, 1 | 2) && nla_x32(s, m, a, l),
        ),
        _ => false,
    }
}

/// IFLA_BRPORT_* (bridge port attributes).
fn brport_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // STATE, MODE, GUARD, PROTECT, FAST_LEAVE, LEARNING, UNICAST_FLOOD,
        // PROXYARP, LEARNING_SYNC, PROXYARP_WIFI, TOPOLOGY_CHANGE_ACK,
        // CONFIG_PENDING, MULTICAST_ROUTER, MCAST_FLOOD, MCAST_TO_UCAST,
        // VLAN_TUNNEL, BCAST_FLOOD, NEIGH_SUPPRESS, ISOLATED,
        // MRP_RING_OPEN, MRP_IN_OPEN, LOCKED
        1 | 4..=12 | 19 | 20 | 25 | 27 | 28 | 29 | 30 | 32 | 33 | 35 | 36 | 39 => {
            nla_u8(s, m, addr, len)
        }
        // PRIORITY, DESIGNATED_PORT, DESIGNATED_COST, ID, NO
        2 | 15..=18 => nla_u16(s, m, addr, len),
        // COST, MCAST_EHT_HOSTS_LIMIT, MCAST_EHT_HOSTS_CNT
        3 | 37 | 38 => nla_u32(s, m, addr, len),
        // ROOT_ID, BRIDGE_ID
        13 | 14 => bridge_id(s, o, m, addr, len),
        // MESSAGE_AGE_TIMER, FORWARD_DELAY_TIMER, HOLD_TIMER
        21..=23 => nla_clock_t(s, o, m, addr, len),
        // GROUP_FWD_MASK
        31 => nla_x16(s, m, addr, len),
        // BACKUP_PORT
        34 => nla_ifindex(s, o, m, addr, len),
        _ => false,
    }
}

/// `struct ifla_bridge_id`: two priority bytes and a MAC.
fn bridge_id(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nla_struct(s, m, addr, len, 8, |s, b| {
        let _ = write!(s, "{{prio=[{}, {}], addr=", b[0], b[1]);
        mac(s, o.xlat, &b[2..8]);
        s.push('}');
    })
}

/// IFLA_INET6_*.
fn inet6_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // FLAGS
        1 => nla_flags(s, o, m, addr, len, 4, lx::INET6_IF_FLAGS, "IF_???"),
        // CONF
        2 => nla_indexed(
            s,
            o,
            m,
            addr,
            len,
            4,
            lx::INET6_DEVCONF_INDICES,
            "DEVCONF_???",
            0,
            &|s, b| {
                let _ = write!(s, "{}", le32(b, 0) as i32);
            },
        ),
        // STATS
        3 => nla_indexed(
            s,
            o,
            m,
            addr,
            len,
            8,
            lx::SNMP_IP_STATS,
            "IPSTATS_MIB_???",
            0,
            &|s, b| {
                let _ = write!(s, "{}", le64(b, 0));
            },
        ),
        // CACHEINFO
        5 => nla_struct(s, m, addr, len, 16, |s, b| {
            let _ = write!(
                s,
                "{{max_reasm_len={}, tstamp={}, reachable_time={}, retrans_time={}}}",
                le32(b, 0),
                le32(b, 4),
                le32(b, 8),
                le32(b, 12)
            );
        }),
        // ICMP6STATS
        6 => nla_indexed(
            s,
            o,
            m,
            addr,
            len,
            8,
            lx::SNMP_ICMP6_STATS,
            "ICMP6_MIB_???",
            0,
            &|s, b| {
                let _ = write!(s, "{}", le64(b, 0));
            },
        ),
        // TOKEN
        7 => nla_in6_addr(s, o, m, addr, len),
        // ADDR_GEN_MODE
        8 => nla_xval(
            s,
            o,
            m,
            addr,
            len,
            1,
            lx::IN6_ADDR_GEN_MODE,
            "IN6_ADDR_GEN_MODE_???",
        ),
        // RA_MTU
        9 => nla_u32(s, m, addr, len),
        _ => false,
    }
}

/// IFLA_AF_SPEC's per-family attributes (not AF_BRIDGE's).
fn af_attr(s: &mut String, o: &Options, m: &Mem<'_>, af: u8, addr: u64, len: u64) -> bool {
    match af {
        AF_INET => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_AF_SPEC_INET_ATTRS,
            "IFLA_INET_???",
            &|s, o, m, ty, a, l| {
                ty == 1
                    && nla_indexed(
                        s,
                        o,
                        m,
                        a,
                        l,
                        4,
                        lx::INET_DEVCONF_INDICES,
                        "IPV4_DEVCONF_???",
                        1,
                        &|s, b| {
                            let _ = write!(s, "{}", le32(b, 0) as i32);
                        },
                    )
            },
        ),
        AF_INET6 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_AF_SPEC_INET6_ATTRS,
            "IFLA_INET6_???",
            &inet6_attr,
        ),
        AF_MCTP => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_AF_SPEC_MCTP_ATTRS,
            "IFLA_MCTP_???",
            &|s, _o, m, ty, a, l| ty == 1 && nla_u32(s, m, a, l),
        ),
        _ => {
            hex_str(s, o, m, addr, len);
            true
        }
    }
}

/// `struct bridge_vlan_info`'s flags.
fn vlan_flags(s: &mut String, x: Xlat, v: u16) {
    fmt::flags_default(
        s,
        u64::from(v),
        lx::NL_BRIDGE_VLAN_FLAGS,
        "BRIDGE_VLAN_INFO_???",
        x,
    );
}

/// IFLA_BRIDGE_* (AF_BRIDGE's IFLA_AF_SPEC).
fn af_spec_bridge_attr(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    ty: u16,
    addr: u64,
    len: u64,
) -> bool {
    match ty {
        // FLAGS
        0 => nla_flags(
            s,
            o,
            m,
            addr,
            len,
            2,
            lx::RTNL_IFLA_BRIDGE_FLAGS,
            "BRIDGE_FLAGS_???",
        ),
        // MODE
        1 => nla_xval(
            s,
            o,
            m,
            addr,
            len,
            2,
            lx::RTNL_IFLA_BRIDGE_MODES,
            "BRIDGE_MODE_???",
        ),
        // VLAN_INFO
        2 => {
            if len < 4 {
                return false;
            }
            match m.get(addr, 4) {
                Some(b) => {
                    s.push_str("{flags=");
                    vlan_flags(s, o.xlat, le16(b, 0));
                    let _ = write!(s, ", vid={}}}", le16(b, 2));
                    if len > 4 {
                        s.push_str(", ");
                        hex_str(s, o, m, addr + 4, len - 4);
                    }
                }
                None => fmt::ptr(s, addr),
            }
            true
        }
        // VLAN_TUNNEL_INFO
        3 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_AF_SPEC_BRIDGE_VLAN_TUNNEL_INFO_ATTRS,
            "IFLA_BRIDGE_VLAN_TUNNEL_???",
            &|s, o, m, ty, a, l| match ty {
                1 => nla_u32(s, m, a, l),
                2 => nla_u16(s, m, a, l),
                3 => nla_flags(
                    s,
                    o,
                    m,
                    a,
                    l,
                    2,
                    lx::NL_BRIDGE_VLAN_FLAGS,
                    "BRIDGE_VLAN_INFO_???",
                ),
                _ => false,
            },
        ),
        _ => false,
    }
}

/// IFLA_PORT_* (a port's attributes).
fn port(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    nested(
        s,
        o,
        m,
        addr,
        len,
        lx::RTNL_IFLA_PORT_ATTRS,
        "IFLA_VF_PORT_???",
        &|s, o, m, ty, a, l| match ty {
            // VF
            1 => nla_u32(s, m, a, l),
            // PROFILE
            2 => nla_cstr(s, o, m, a, l),
            // VSI_TYPE: struct ifla_port_vsi
            3 => nla_struct(s, m, a, l, 8, |s, b| {
                let _ = write!(s, "{{vsi_mgr_id={}, vsi_type_id=", b[0]);
                fmt::quoted(s, &b[1..4], false, HexStr::All);
                let _ = write!(s, ", vsi_type_version={}", b[4]);
                if b[5..8].iter().any(|&c| c != 0) {
                    s.push_str(", pad=");
                    fmt::quoted(s, &b[5..8], false, HexStr::All);
                }
                s.push('}');
            }),
            // REQUEST
            6 => nla_u8(s, m, a, l),
            // RESPONSE
            7 => nla_u16(s, m, a, l),
            _ => false,
        },
    )
}

/// IFLA_XDP_*.
fn xdp_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // FD, EXPECTED_FD
        1 | 8 => nla_fd(s, m, addr, len),
        // ATTACHED
        2 => nla_xval(
            s,
            o,
            m,
            addr,
            len,
            1,
            lx::RTNL_IFLA_XDP_ATTACHED_MODE,
            "XDP_ATTACHED_???",
        ),
        // FLAGS
        3 => nla_struct(s, m, addr, len, 4, |s, b| {
            fmt::flags_default(
                s,
                u64::from(le32(b, 0)),
                lx::XDP_FLAGS,
                "XDP_FLAGS_???",
                o.xlat,
            )
        }),
        // PROG_ID, DRV_PROG_ID, SKB_PROG_ID, HW_PROG_ID
        4..=7 => nla_u32(s, m, addr, len),
        _ => false,
    }
}

/// IFLA_VF_* (a VF's attributes).
fn vf_info_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    let x = o.xlat;
    let two = |s: &mut String, second: &str| {
        nla_struct(s, m, addr, len, 8, |s, b| {
            let _ = write!(s, "{{vf={}, {second}={}}}", le32(b, 0), le32(b, 4));
        })
    };
    match ty {
        // MAC: struct ifla_vf_mac (vf, mac[32])
        1 => nla_struct(s, m, addr, len, 36, |s, b| {
            let _ = write!(s, "{{vf={}, mac=", le32(b, 0));
            mac(s, x, &b[4..36]);
            s.push('}');
        }),
        // VLAN
        2 => nla_struct(s, m, addr, len, 12, |s, b| {
            let _ = write!(
                s,
                "{{vf={}, vlan={}, qos={}}}",
                le32(b, 0),
                le32(b, 4),
                le32(b, 8)
            );
        }),
        // TX_RATE
        3 => two(s, "rate"),
        // SPOOFCHK, RSS_QUERY_EN, TRUST
        4 | 7 | 9 => two(s, "setting"),
        // LINK_STATE
        5 => nla_struct(s, m, addr, len, 8, |s, b| {
            let _ = write!(s, "{{vf={}, link_state=", le32(b, 0));
            fmt::enumv(
                s,
                u64::from(le32(b, 4)),
                lx::RTNL_IFLA_VF_LINK_STATES,
                "IFLA_VF_LINK_STATE_???",
                x,
                true,
            );
            s.push('}');
        }),
        // RATE
        6 => nla_struct(s, m, addr, len, 12, |s, b| {
            let _ = write!(
                s,
                "{{vf={}, min_tx_rate={}, max_tx_rate={}}}",
                le32(b, 0),
                le32(b, 4),
                le32(b, 8)
            );
        }),
        // STATS
        8 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_VF_STATS_ATTRS,
            "IFLA_VF_STATS_???",
            &|s, _o, m, ty, a, l| ty != 6 && ty <= 8 && nla_u64(s, m, a, l),
        ),
        // IB_NODE_GUID, IB_PORT_GUID
        10 | 11 => {
            let guid_at = match len {
                12 => 4,
                16 => 8,
                _ => return false,
            };
            match m.get(addr, len as usize) {
                Some(b) => {
                    let _ = write!(s, "{{vf={}, guid={}}}", le32(b, 0), hx(le64(b, guid_at)));
                }
                None => fmt::ptr(s, addr),
            }
            true
        }
        // VLAN_LIST
        12 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_VF_VLAN_LIST_ATTRS,
            "IFLA_VF_VLAN_INFO_???",
            &|s, o, m, ty, a, l| {
                ty == 1
                    && nla_struct(s, m, a, l, 16, |s, b| {
                        let _ = write!(
                            s,
                            "{{vf={}, vlan={}, qos={}, vlan_proto=htons(",
                            le32(b, 0),
                            le32(b, 4),
                            le32(b, 8)
                        );
                        fmt::enumv(
                            s,
                            u64::from(u16::from_be_bytes([b[12], b[13]])),
                            crate::decode::sockaddr::ETH_PROTOCOLS,
                            "ETH_P_???",
                            o.xlat,
                            true,
                        );
                        s.push_str(")}");
                    })
            },
        ),
        // BROADCAST: struct ifla_vf_broadcast (broadcast[32])
        13 => nla_struct(s, m, addr, len, 32, |s, b| {
            s.push_str("{broadcast=");
            mac(s, x, &b[..32]);
            s.push('}');
        }),
        _ => false,
    }
}

/// IFLA_LINKINFO: IFLA_INFO_* with the kind's data.
fn linkinfo(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    use std::cell::RefCell;
    const KIND_MAX: usize = 16;
    let kind = RefCell::new(String::new());
    let slave_kind = RefCell::new(String::new());
    // strace's update_ctx_str: the string when it ends within the buffer
    let ctx = |a: u64, l: u64| -> String {
        if l as usize >= KIND_MAX {
            return String::new();
        }
        match m.get(a, l as usize) {
            Some(b) => match b.iter().position(|&c| c == 0) {
                Some(z) => String::from_utf8_lossy(&b[..z]).into_owned(),
                None => String::new(),
            },
            None => String::new(),
        }
    };
    nested(
        s,
        o,
        m,
        addr,
        len,
        lx::RTNL_IFLA_INFO_ATTRS,
        "IFLA_INFO_???",
        &|s, o, m, ty, a, l| match ty {
            // KIND, SLAVE_KIND
            1 | 4 => {
                let v = ctx(a, l);
                if ty == 1 {
                    *kind.borrow_mut() = v;
                } else {
                    *slave_kind.borrow_mut() = v;
                }
                str0(s, o, m, a, l);
                true
            }
            // DATA
            2 => match kind.borrow().as_str() {
                "bridge" => nested(
                    s,
                    o,
                    m,
                    a,
                    l,
                    lx::RTNL_IFLA_INFO_DATA_BRIDGE_ATTRS,
                    "IFLA_BR_???",
                    &br_data_attr,
                ),
                "tun" => nested(
                    s,
                    o,
                    m,
                    a,
                    l,
                    lx::RTNL_IFLA_INFO_DATA_TUN_ATTRS,
                    "IFLA_TUN_???",
                    &tun_data_attr,
                ),
                _ => false,
            },
            // XSTATS
            3 => {
                kind.borrow().as_str() == "can"
                    && nla_struct(s, m, a, l, 24, |s, b| {
                        uint_fields(
                            s,
                            b,
                            &[
                                "bus_error",
                                "error_warning",
                                "error_passive",
                                "bus_off",
                                "arbitration_lost",
                                "restarts",
                            ],
                            false,
                        )
                    })
            }
            // SLAVE_DATA
            5 => {
                slave_kind.borrow().as_str() == "bridge"
                    && nested(
                        s,
                        o,
                        m,
                        a,
                        l,
                        lx::RTNL_IFLA_BRPORT_ATTRS,
                        "IFLA_BRPORT_???",
                        &brport_attr,
                    )
            }
            _ => false,
        },
    )
}

/// strace's printstr_ex with QUOTE_0_TERMINATED: up to the first NUL,
/// `...` when there is none within `-s` and the attribute.
fn str0(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let n = (len as usize).min(o.strsize + 1);
    let Some(b) = m.get(addr, n) else {
        fmt::ptr(s, addr);
        return;
    };
    let size = n.min(o.strsize);
    match b[..size].iter().position(|&c| c == 0) {
        Some(z) => fmt::quoted(s, &b[..z], false, o.hex),
        None => {
            let ended = b.get(size) == Some(&0);
            fmt::quoted(s, &b[..size], !ended && len > 0, o.hex);
        }
    }
}

/// A string attribute (strace's decode_nla_str: printstr_ex with
/// QUOTE_OMIT_TRAILING_0 | QUOTE_EXPECT_TRAILING_0): its bytes up to
/// `-s`, a last NUL left out, `...` when it does not end in one.
fn nla_cstr(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    let n = (len as usize).min(o.strsize + 1);
    let Some(b) = m.get(addr, n) else {
        fmt::ptr(s, addr);
        return true;
    };
    let size = n.min(o.strsize);
    if size > 0 && b[size - 1] == 0 {
        fmt::quoted(s, &b[..size - 1], false, o.hex);
    } else {
        fmt::quoted(s, &b[..size], len > 0, o.hex);
    }
    true
}

/// IFLA_BR_* (a bridge's IFLA_INFO_DATA).
fn br_data_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // FORWARD_DELAY, HELLO_TIME, MAX_AGE, AGEING_TIME, HELLO_TIMER,
        // TCN_TIMER, TOPOLOGY_CHANGE_TIMER, GC_TIMER, MCAST_*_INTVL
        1..=4 | 16..=19 | 30..=35 => nla_clock_t(s, o, m, addr, len),
        // STP_STATE, ROOT_PATH_COST, MCAST_HASH_ELASTICITY, MCAST_HASH_MAX,
        // MCAST_LAST_MEMBER_CNT, MCAST_STARTUP_QUERY_CNT
        5 | 13 | 26..=29 => nla_u32(s, m, addr, len),
        // PRIORITY, ROOT_PORT, VLAN_DEFAULT_PVID
        6 | 12 | 39 => nla_u16(s, m, addr, len),
        // VLAN_FILTERING, TOPOLOGY_CHANGE(_DETECTED), MCAST_ROUTER,
        // MCAST_SNOOPING, MCAST_QUERY_USE_IFADDR, MCAST_QUERIER,
        // NF_CALL_*, VLAN_STATS_ENABLED, MCAST_STATS_ENABLED,
        // MCAST_IGMP_VERSION, MCAST_MLD_VERSION, VLAN_STATS_PER_PORT
        7 | 14 | 15 | 22..=25 | 36..=38 | 41..=45 => nla_u8(s, m, addr, len),
        // VLAN_PROTOCOL
        8 => nla_ether_proto(s, o, m, addr, len),
        // GROUP_FWD_MASK
        9 => nla_x16(s, m, addr, len),
        // ROOT_ID, BRIDGE_ID
        10 | 11 => bridge_id(s, o, m, addr, len),
        // GROUP_ADDR
        20 => nla_hwaddr(s, o, m, addr, len, None),
        // MULTI_BOOLOPT: struct br_boolopt_multi
        46 => nla_struct(s, m, addr, len, 8, |s, b| {
            s.push_str("{optval=");
            fmt::flags_default(
                s,
                u64::from(le32(b, 0)),
                lx::RTNL_IFLA_BR_BOOLOPT_FLAGS,
                "1<<BR_BOOLOPT_???",
                o.xlat,
            );
            s.push_str(", optmask=");
            fmt::flags_default(
                s,
                u64::from(le32(b, 4)),
                lx::RTNL_IFLA_BR_BOOLOPT_FLAGS,
                "1<<BR_BOOLOPT_???",
                o.xlat,
            );
            s.push('}');
        }),
        // MCAST_QUERIER_STATE
        47 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::RTNL_IFLA_BR_MCAST_QUERIER_ATTRS,
            "BRIDGE_QUERIER_???",
            &|s, o, m, ty, a, l| match ty {
                1 => nla_in_addr(s, o, m, a, l),
                2 | 6 => nla_ifindex(s, o, m, a, l),
                3 | 7 => nla_clock_t(s, o, m, a, l),
                5 => nla_in6_addr(s, o, m, a, l),
                _ => false,
            },
        ),
        _ => false,
    }
}

/// IFLA_TUN_* (a tun device's IFLA_INFO_DATA).
fn tun_data_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // OWNER, GROUP
        1 | 2 => nla_uid(s, m, addr, len),
        // TYPE
        3 => nla_xval(s, o, m, addr, len, 1, lx::TUN_DEVICE_TYPES, "IFF_???"),
        // PI, VNET_HDR, PERSIST, MULTI_QUEUE
        4..=7 => nla_u8(s, m, addr, len),
        // NUM_QUEUES, NUM_DISABLED_QUEUES
        8 | 9 => nla_u32(s, m, addr, len),
        _ => false,
    }
}

// ---- if_stats_msg ----

/// `struct if_stats_msg` (12 bytes), then its attributes.
fn ifstatsmsg(s: &mut String, o: &Options, m: &Mem<'_>, family: u8, addr: u64, len: u64) {
    const SIZE: u64 = 12;
    let x = o.xlat;
    s.push_str("{family=");
    family_name(s, o, family);
    s.push_str(", ");
    let mut ok = false;
    if len >= SIZE {
        match m.get(addr, SIZE as usize) {
            Some(b) => {
                if b[1] != 0 {
                    let _ = write!(s, "pad1={}, ", hx(b[1]));
                }
                if le16(b, 2) != 0 {
                    let _ = write!(s, "pad2={}, ", hx(le16(b, 2)));
                }
                s.push_str("ifindex=");
                ifindex(s, le32(b, 4), x);
                s.push_str(", filter_mask=");
                fmt::flags_default(
                    s,
                    u64::from(le32(b, 8)),
                    lx::IFSTATS_ATTR_FLAGS,
                    "1<<IFLA_STATS_???",
                    x,
                );
                ok = true;
            }
            None => fmt::ptr(s, addr + 1),
        }
    } else {
        s.push_str("...");
    }
    s.push('}');
    if ok && len > SIZE {
        s.push_str(", ");
        nlattrs_with(
            s,
            o,
            m,
            addr + SIZE,
            len - SIZE,
            lx::IFSTATS_ATTRS,
            "IFLA_STATS_???",
            &stats_attr,
        );
    }
}

/// IFLA_STATS_*.
fn stats_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // LINK_64
        1 => rtnl_link_stats64(s, m, addr, len),
        // LINK_XSTATS, LINK_XSTATS_SLAVE
        2 | 3 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::IFSTATS_XSTATS_TYPE_ATTRS,
            "LINK_XSTATS_TYPE_???",
            &xstats_attr,
        ),
        // LINK_OFFLOAD_XSTATS
        4 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::IFSTATS_OFFLOAD_ATTRS,
            "IFLA_OFFLOAD_XSTATS_???",
            &|s, _o, m, ty, a, l| ty == 1 && rtnl_link_stats64(s, m, a, l),
        ),
        // AF_SPEC
        5 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::ADDRFAMS,
            "AF_???",
            &|s, o, m, af, a, l| {
                if af as u8 == AF_MPLS && af < 256 {
                    nested(
                        s,
                        o,
                        m,
                        a,
                        l,
                        lx::IFSTATS_AF_SPEC_MPLS_ATTRS,
                        "MPLS_STATS_???",
                        &|s, o, m, ty, a, l| {
                            ty == 1
                                && with_rest(s, o, m, a, l, 72, |s, b| {
                                    uint_fields(
                                        s,
                                        b,
                                        &[
                                            "rx_packets",
                                            "tx_packets",
                                            "rx_bytes",
                                            "tx_bytes",
                                            "rx_errors",
                                            "tx_errors",
                                            "rx_dropped",
                                            "tx_dropped",
                                            "rx_noroute",
                                        ],
                                        true,
                                    )
                                })
                        },
                    )
                } else {
                    hex_str(s, o, m, a, l);
                    true
                }
            },
        ),
        _ => false,
    }
}

/// A struct of `size` bytes printed by `f`, any bytes after it in hex.
fn with_rest(
    s: &mut String,
    o: &Options,
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
        Some(b) => {
            f(s, b);
            if len > size as u64 {
                s.push_str(", ");
                hex_str(s, o, m, addr + size as u64, len - size as u64);
            }
        }
        None => fmt::ptr(s, addr),
    }
    true
}

/// LINK_XSTATS_TYPE_*.
fn xstats_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // BRIDGE
        1 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::IFSTATS_XSTATS_BRIDGE_ATTRS,
            "BRIDGE_XSTATS_???",
            &bridge_xstats_attr,
        ),
        // BOND
        2 => nested(
            s,
            o,
            m,
            addr,
            len,
            lx::IFSTATS_XSTATS_BOND_ATTRS,
            "BOND_XSTATS_???",
            &|s, o, m, ty, a, l| {
                ty == 1
                    && nested(
                        s,
                        o,
                        m,
                        a,
                        l,
                        lx::IFSTATS_XSTATS_BOND_3AD_ATTRS,
                        "BOND_XSTATS_???",
                        &|s, _o, m, ty, a, l| ty <= 8 && nla_u64(s, m, a, l),
                    )
            },
        ),
        _ => false,
    }
}

/// BRIDGE_XSTATS_*.
fn bridge_xstats_attr(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    ty: u16,
    addr: u64,
    len: u64,
) -> bool {
    let x = o.xlat;
    match ty {
        // VLAN: struct bridge_vlan_xstats (40 bytes)
        1 => with_rest(s, o, m, addr, len, 40, |s, b| {
            let _ = write!(
                s,
                "{{rx_bytes={}, rx_packets={}, tx_bytes={}, tx_packets={}, vid={}, flags=",
                le64(b, 0),
                le64(b, 8),
                le64(b, 16),
                le64(b, 24),
                le16(b, 32)
            );
            vlan_flags(s, x, le16(b, 34));
            if le32(b, 36) != 0 {
                let _ = write!(s, ", pad2={}", hx(le32(b, 36)));
            }
            s.push('}');
        }),
        // MCAST: struct br_mcast_stats (14 pairs, 2 u64s)
        2 => with_rest(s, o, m, addr, len, 240, |s, b| {
            let fields: &[(&str, bool)] = &[
                ("igmp_v1queries", true),
                ("igmp_v2queries", true),
                ("igmp_v3queries", true),
                ("igmp_leaves", true),
                ("igmp_v1reports", true),
                ("igmp_v2reports", true),
                ("igmp_v3reports", true),
                ("igmp_parse_errors", false),
                ("mld_v1queries", true),
                ("mld_v2queries", true),
                ("mld_leaves", true),
                ("mld_v1reports", true),
                ("mld_v2reports", true),
                ("mld_parse_errors", false),
                ("mcast_bytes", true),
                ("mcast_packets", true),
            ];
            let mut at = 0;
            s.push('{');
            for (i, (name, pair)) in fields.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                let _ = write!(s, "{name}=");
                if *pair {
                    s.push('[');
                    for k in 0..2u64 {
                        if k > 0 {
                            s.push_str(", ");
                        }
                        s.push('[');
                        fmt::enumv(s, k, lx::IFSTATS_XSTATS_BRIDGE_MCAST_INDICES, "", x, false);
                        let _ = write!(s, "]={}", le64(b, at));
                        at += 8;
                    }
                    s.push(']');
                } else {
                    let _ = write!(s, "{}", le64(b, at));
                    at += 8;
                }
            }
            s.push('}');
        }),
        // STP: struct bridge_stp_xstats (6 u64s)
        4 => with_rest(s, o, m, addr, len, 48, |s, b| {
            uint_fields(
                s,
                b,
                &[
                    "transition_blk",
                    "transition_fwd",
                    "rx_bpdu",
                    "tx_bpdu",
                    "rx_tcn",
                    "tx_tcn",
                ],
                true,
            )
        }),
        _ => false,
    }
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
            flags: 0,
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
    fn an_ifinfomsg_with_its_attributes() {
        // AF_INET6, ARPHRD_ETHER, index 0, IFF_UP, change 0
        let mut b = vec![10, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
        // IFLA_IFNAME "eth0\0", IFLA_MTU 1500
        b.extend_from_slice(&[9, 0, 3, 0, b'e', b't', b'h', b'0', 0, 0, 0, 0]);
        b.extend_from_slice(&[8, 0, 4, 0]);
        b.extend_from_slice(&1500u32.to_le_bytes());
        assert_eq!(
            show(RTM_NEWLINK, &b),
            "{ifi_family=AF_INET6, ifi_type=ARPHRD_ETHER, ifi_index=0, ifi_flags=IFF_UP, \
             ifi_change=0}, [[{nla_len=9, nla_type=IFLA_IFNAME}, \"eth0\"], \
             [{nla_len=8, nla_type=IFLA_MTU}, 1500]]"
        );
        assert_eq!(show(RTM_NEWLINK, &[2, 0]), "{ifi_family=AF_INET, ...}");
    }

    #[test]
    fn an_if_stats_msg() {
        let mut b = vec![0, 0, 0, 0, 0, 0, 0, 0];
        b.extend_from_slice(&0x2u32.to_le_bytes());
        assert_eq!(
            show(RTM_GETSTATS, &b),
            "{family=AF_UNSPEC, ifindex=0, filter_mask=1<<IFLA_STATS_LINK_64}"
        );
    }

    #[test]
    fn other_route_messages_are_left_to_the_next_group() {
        let m = Mem {
            base: 0,
            data: &[0; 16],
        };
        let h = Hdr {
            len: 32,
            ty: 20,
            flags: 0,
            seq: 0,
            pid: 0,
        };
        let mut s = String::new();
        assert!(!payload(&mut s, &Options::default(), &m, &h, 0, 16));
        assert!(s.is_empty());
    }
}
