//! NETLINK_SOCK_DIAG's payloads: a request or an answer by the address
//! family in its first byte (strace's netlink_sock_diag.c and its
//! per-family files).

use std::fmt::Write;

use super::nla::le32;
use super::{fmt, hex_str, nla_struct, nlattrs_with, x, Hdr, Mem, Options, NLMSG_DONE};
use crate::consts as c;

const NLM_F_REQUEST: u16 = 1;
const AF_UNIX: u8 = 1;
const AF_NETLINK: u8 = 16;
const AF_PACKET: u8 = 17;
const AF_INET: u8 = 2;
const AF_INET6: u8 = 10;
const AF_SMC: u8 = 43;

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
            (AF_NETLINK, true) => {
                netlink_req(s, o, m, addr, len);
                return true;
            }
            (AF_NETLINK, false) => {
                netlink_msg(s, o, m, addr, len);
                return true;
            }
            (AF_PACKET, true) => {
                packet_req(s, o, m, addr, len);
                return true;
            }
            (AF_PACKET, false) => {
                packet_msg(s, o, m, addr, len);
                return true;
            }
            (AF_INET | AF_INET6, true) => {
                super::inet_diag::inet_req(s, o, m, h, addr, len);
                return true;
            }
            (AF_INET | AF_INET6, false) => {
                super::inet_diag::inet_msg(s, o, m, addr, len);
                return true;
            }
            (AF_SMC, true) => {
                super::inet_diag::smc_req(s, o, m, addr, len);
                return true;
            }
            (AF_SMC, false) => {
                super::inet_diag::smc_msg(s, o, m, addr, len);
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

/// The family field, then the rest of a `size`-byte struct when the
/// payload holds it (`...` when it is shorter, the address when it cannot
/// be read); `f` prints the rest. Returns whether it did.
#[allow(clippy::too_many_arguments)]
pub(super) fn diag_struct(
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
        1 => nla_struct(s, m, addr, len, 8, |s, b| {
            // udiag_vfs_ino comes first, strace prints the device first
            s.push_str("{udiag_vfs_dev=");
            super::super::makedev(s, u64::from(le32(b, 4)));
            let _ = write!(s, ", udiag_vfs_ino={}}}", le32(b, 0));
        }),
        // UNIX_DIAG_PEER
        2 => super::nla_u32(s, m, addr, len),
        // UNIX_DIAG_ICONS: inode numbers
        3 => super::nla_u32_array(s, o, m, addr, len, None),
        // UNIX_DIAG_RQLEN
        4 => nla_struct(s, m, addr, len, 8, |s, b| {
            let _ = write!(
                s,
                "{{udiag_rqueue={}, udiag_wqueue={}}}",
                le32(b, 0),
                le32(b, 4)
            );
        }),
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
        7 => nla_struct(s, m, addr, len, 4, |s, b| super::super::uid(s, le32(b, 0))),
        _ => false,
    }
}

/// `struct netlink_diag_req` (20 bytes).
fn netlink_req(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let xl = o.xlat;
    diag_struct(s, o, m, addr, len, "sdiag_family", 20, |s, b| {
        s.push_str("sdiag_protocol=");
        // NDIAG_PROTO_ALL: every protocol
        if b[1] == 255 {
            fmt::enumv(s, 255, &[(255, "NDIAG_PROTO_ALL")], "", xl, true);
        } else {
            fmt::enumv(
                s,
                u64::from(b[1]),
                x::NETLINK_PROTOCOLS,
                "NETLINK_???",
                xl,
                true,
            );
        }
        let _ = write!(s, ", ndiag_ino={}, ndiag_show=", le32(b, 4));
        fmt::flags_default(
            s,
            u64::from(le32(b, 8)),
            x::NETLINK_DIAG_SHOW,
            "NDIAG_SHOW_???",
            xl,
        );
        s.push_str(", ndiag_cookie=");
        cookie(s, b, 12);
    });
}

/// `struct netlink_diag_msg` (28 bytes), then its attributes.
fn netlink_msg(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let xl = o.xlat;
    let done = diag_struct(s, o, m, addr, len, "ndiag_family", 28, |s, b| {
        s.push_str("ndiag_type=");
        fmt::enumv(s, u64::from(b[1]), c::SOCKET_TYPES, "SOCK_???", xl, true);
        s.push_str(", ndiag_protocol=");
        fmt::enumv(
            s,
            u64::from(b[2]),
            x::NETLINK_PROTOCOLS,
            "NETLINK_???",
            xl,
            true,
        );
        s.push_str(", ndiag_state=");
        fmt::enumv(
            s,
            u64::from(b[3]),
            x::NETLINK_STATES,
            "NETLINK_???",
            xl,
            true,
        );
        let _ = write!(
            s,
            ", ndiag_portid={}, ndiag_dst_portid={}, ndiag_dst_group={}, ndiag_ino={}, ndiag_cookie=",
            le32(b, 4),
            le32(b, 8),
            le32(b, 12),
            le32(b, 16)
        );
        cookie(s, b, 20);
    });
    if done && len > 28 {
        s.push_str(", ");
        nlattrs_with(
            s,
            o,
            m,
            addr + 28,
            len - 28,
            x::NETLINK_DIAG_ATTRS,
            "NETLINK_DIAG_???",
            &netlink_attr,
        );
    }
}

/// The attributes of a netlink_diag_msg.
fn netlink_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // NETLINK_DIAG_MEMINFO
        0 => super::nla_u32_array(
            s,
            o,
            m,
            addr,
            len,
            Some((x::NETLINK_SK_MEMINFO_INDICES, "SK_MEMINFO_???")),
        ),
        // NETLINK_DIAG_GROUPS: words of group bits
        1 => {
            let n = len / 8;
            if n == 0 {
                return false;
            }
            let off = addr.saturating_sub(m.base) as usize;
            let data = m.data.get(off..).unwrap_or(&[]);
            super::super::print_array_data(s, Some((data, true)), addr, n, 8, o, |s, b| {
                let v = u64::from_le_bytes(b.try_into().unwrap());
                let _ = write!(s, "{v:#x}");
            });
            true
        }
        // NETLINK_DIAG_RX_RING, NETLINK_DIAG_TX_RING
        2 | 3 => nla_struct(s, m, addr, len, 16, |s, b| {
            let _ = write!(
                s,
                "{{ndr_block_size={}, ndr_block_nr={}, ndr_frame_size={}, ndr_frame_nr={}}}",
                le32(b, 0),
                le32(b, 4),
                le32(b, 8),
                le32(b, 12)
            );
        }),
        // NETLINK_DIAG_FLAGS
        4 => nla_struct(s, m, addr, len, 4, |s, b| {
            fmt::flags_default(
                s,
                u64::from(le32(b, 0)),
                x::NETLINK_SOCKET_FLAGS,
                "NDIAG_FLAG_???",
                o.xlat,
            )
        }),
        _ => false,
    }
}

/// `struct packet_diag_req` (20 bytes).
fn packet_req(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let xl = o.xlat;
    diag_struct(s, o, m, addr, len, "sdiag_family", 20, |s, b| {
        s.push_str("sdiag_protocol=");
        fmt::hex(s, u64::from(b[1]));
        let _ = write!(s, ", pdiag_ino={}, pdiag_show=", le32(b, 4));
        fmt::flags_default(
            s,
            u64::from(le32(b, 8)),
            x::PACKET_DIAG_SHOW,
            "PACKET_SHOW_???",
            xl,
        );
        s.push_str(", pdiag_cookie=");
        cookie(s, b, 12);
    });
}

/// `struct packet_diag_msg` (16 bytes), then its attributes.
fn packet_msg(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let xl = o.xlat;
    let done = diag_struct(s, o, m, addr, len, "pdiag_family", 16, |s, b| {
        s.push_str("pdiag_type=");
        fmt::enumv(s, u64::from(b[1]), c::SOCKET_TYPES, "SOCK_???", xl, true);
        s.push_str(", pdiag_num=");
        let num = u16::from_le_bytes([b[2], b[3]]);
        fmt::enumv(
            s,
            u64::from(num),
            super::super::sockaddr::ETH_PROTOCOLS,
            "ETH_P_???",
            xl,
            true,
        );
        let _ = write!(s, ", pdiag_ino={}, pdiag_cookie=", le32(b, 4));
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
            x::PACKET_DIAG_ATTRS,
            "PACKET_DIAG_???",
            &packet_attr,
        );
    }
}

/// The attributes of a packet_diag_msg.
fn packet_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    let xl = o.xlat;
    match ty {
        // PACKET_DIAG_INFO: struct packet_diag_info
        0 => nla_struct(s, m, addr, len, 24, |s, b| {
            s.push_str("{pdi_index=");
            super::super::sockopt::ifindex(s, le32(b, 0), xl);
            s.push_str(", pdi_version=");
            fmt::enumv(
                s,
                u64::from(le32(b, 4)),
                x::AF_PACKET_VERSIONS,
                "TPACKET_???",
                xl,
                true,
            );
            let _ = write!(
                s,
                ", pdi_reserve={}, pdi_copy_thresh={}, pdi_tstamp={}, pdi_flags=",
                le32(b, 8),
                le32(b, 12),
                le32(b, 16)
            );
            fmt::flags_default(
                s,
                u64::from(le32(b, 20)),
                x::PACKET_DIAG_INFO_FLAGS,
                "PDI_???",
                xl,
            );
            s.push('}');
        }),
        // PACKET_DIAG_MCLIST: struct packet_diag_mclist[]
        1 => {
            const SIZE: usize = 44;
            let n = len / SIZE as u64;
            if n == 0 {
                return false;
            }
            let off = addr.saturating_sub(m.base) as usize;
            let data = m.data.get(off..).unwrap_or(&[]);
            super::super::print_array_data(s, Some((data, true)), addr, n, SIZE, o, |s, b| {
                s.push_str("{pdmc_index=");
                super::super::sockopt::ifindex(s, le32(b, 0), xl);
                let alen = u16::from_le_bytes([b[10], b[11]]);
                let _ = write!(
                    s,
                    ", pdmc_count={}, pdmc_type={}, pdmc_alen={alen}, pdmc_addr=",
                    le32(b, 4),
                    u16::from_le_bytes([b[8], b[9]])
                );
                let a = &b[12..12 + (alen as usize).min(32)];
                let shown = a.len().min(o.strsize);
                fmt::quoted(s, &a[..shown], a.len() > o.strsize, fmt::HexStr::All);
                s.push('}');
            });
            true
        }
        // PACKET_DIAG_RX_RING, PACKET_DIAG_TX_RING: struct packet_diag_ring
        2 | 3 => nla_struct(s, m, addr, len, 28, |s, b| {
            let _ = write!(
                s,
                "{{pdr_block_size={}, pdr_block_nr={}, pdr_frame_size={}, pdr_frame_nr={}, pdr_retire_tmo={}, pdr_sizeof_priv={}, pdr_features={}}}",
                le32(b, 0),
                le32(b, 4),
                le32(b, 8),
                le32(b, 12),
                le32(b, 16),
                le32(b, 20),
                le32(b, 24)
            );
        }),
        // PACKET_DIAG_FANOUT
        4 => super::nla_u32(s, m, addr, len),
        // PACKET_DIAG_UID
        5 => nla_struct(s, m, addr, len, 4, |s, b| super::super::uid(s, le32(b, 0))),
        // PACKET_DIAG_MEMINFO
        6 => super::nla_u32_array(
            s,
            o,
            m,
            addr,
            len,
            Some((x::NETLINK_SK_MEMINFO_INDICES, "SK_MEMINFO_???")),
        ),
        // PACKET_DIAG_FILTER: a classic BPF program, as strace prints one
        7 => {
            let n = len / 8;
            if n == 0 || n > u64::from(u16::MAX) {
                return false;
            }
            if !o.verbose {
                fmt::ptr(s, addr);
                return true;
            }
            let off = addr.saturating_sub(m.base) as usize;
            let data = m.data.get(off..).unwrap_or(&[]);
            let po = Options {
                verbose: false,
                strsize: super::super::misc::BPF_MAXINSNS,
                ..o.clone()
            };
            super::super::print_array_data(s, Some((data, true)), addr, n, 8, &po, |s, e| {
                super::super::misc::bpf_insn(s, e, xl, super::super::misc::BpfK::Socket)
            });
            true
        }
        _ => false,
    }
}
