//! NETLINK_SOCK_DIAG for AF_INET, AF_INET6 (inet_diag_req, inet_diag_req_v2,
//! inet_diag_msg and their attributes) and AF_SMC (smc_diag_req,
//! smc_diag_msg), as strace 6.1's netlink_inet_diag.c and
//! netlink_smc_diag.c print them.

use std::fmt::Write;

use super::super::sock_xlat as sx;
use super::nla::{le16, le32, le64, nla_xval};
use super::{fmt, nla_struct, nlattrs_with, x, Hdr, Mem, Options};
use crate::consts as c;
use crate::fmt::{HexStr, Xlat};

const AF_INET: u8 = 2;
const AF_INET6: u8 = 10;
const TCPDIAG_GETSOCK: u16 = 18;
const DCCPDIAG_GETSOCK: u16 = 19;

/// An address of `family` in a 16-byte field.
fn inet_addr(s: &mut String, name: &str, b: &[u8], family: u8, o: &Options) {
    match family {
        AF_INET => super::super::sockaddr::inet_addr(s, name, b, o.xlat, o.hex),
        AF_INET6 => {
            let a: [u8; 16] = b[..16].try_into().unwrap();
            super::super::sockaddr::inet6_addr(s, name, &a, o.xlat, o.hex);
        }
        _ => {
            let _ = write!(s, "{name}=");
            fmt::quoted(s, &b[..16], false, HexStr::All);
        }
    }
}

/// A port in network order.
fn net_port(s: &mut String, name: &str, b: &[u8], x: Xlat) {
    let _ = write!(s, "{name}=");
    if x != Xlat::Abbrev {
        fmt::quoted(s, &b[..2], false, HexStr::All);
    }
    let v = u16::from_be_bytes([b[0], b[1]]);
    match x {
        Xlat::Raw => {}
        Xlat::Verbose => {
            let _ = write!(s, " /* htons({v}) */");
        }
        Xlat::Abbrev => {
            let _ = write!(s, "htons({v})");
        }
    }
}

/// `struct inet_diag_sockid` (48 bytes).
fn sockid(s: &mut String, b: &[u8], family: u8, o: &Options) {
    s.push_str("id={");
    net_port(s, "idiag_sport", &b[0..2], o.xlat);
    s.push_str(", ");
    net_port(s, "idiag_dport", &b[2..4], o.xlat);
    s.push_str(", ");
    inet_addr(s, "idiag_src", &b[4..20], family, o);
    s.push_str(", ");
    inet_addr(s, "idiag_dst", &b[20..36], family, o);
    s.push_str(", idiag_if=");
    super::super::sockopt::ifindex(s, le32(b, 36), o.xlat);
    let _ = write!(s, ", idiag_cookie=[{}, {}]}}", le32(b, 40), le32(b, 44));
}

fn ext_flags(s: &mut String, v: u8, o: &Options) {
    fmt::flags_default(
        s,
        u64::from(v),
        sx::INET_DIAG_EXTENDED_FLAGS,
        "1<<INET_DIAG_???-1",
        o.xlat,
    );
}

fn state_flags(s: &mut String, v: u32, o: &Options) {
    fmt::flags_default(s, u64::from(v), x::TCP_STATE_FLAGS, "1<<TCP_???", o.xlat);
}

/// A request of AF_INET or AF_INET6: the old inet_diag_req for
/// TCPDIAG_GETSOCK and DCCPDIAG_GETSOCK, else inet_diag_req_v2.
pub(super) fn inet_req(s: &mut String, o: &Options, m: &Mem<'_>, h: &Hdr, addr: u64, len: u64) {
    let (size, done) = if matches!(h.ty, TCPDIAG_GETSOCK | DCCPDIAG_GETSOCK) {
        let done = super::sock_diag::diag_struct(s, o, m, addr, len, "idiag_family", 60, |s, b| {
            let _ = write!(
                s,
                "idiag_src_len={}, idiag_dst_len={}, idiag_ext=",
                b[1], b[2]
            );
            ext_flags(s, b[3], o);
            s.push_str(", ");
            sockid(s, &b[4..52], b[0], o);
            s.push_str(", idiag_states=");
            state_flags(s, le32(b, 52), o);
            let _ = write!(s, ", idiag_dbs={}", le32(b, 56));
        });
        (60, done)
    } else {
        let done = super::sock_diag::diag_struct(s, o, m, addr, len, "sdiag_family", 56, |s, b| {
            s.push_str("sdiag_protocol=");
            fmt::enumv(s, u64::from(b[1]), c::IPPROTO, "IPPROTO_???", o.xlat, true);
            s.push_str(", idiag_ext=");
            ext_flags(s, b[2], o);
            s.push_str(", idiag_states=");
            state_flags(s, le32(b, 4), o);
            s.push_str(", ");
            sockid(s, &b[8..56], b[0], o);
        });
        (56, done)
    };
    if done && len > size {
        s.push_str(", ");
        nlattrs_with(
            s,
            o,
            m,
            addr + size,
            len - size,
            sx::INET_DIAG_REQ_ATTRS,
            "INET_DIAG_REQ_???",
            &req_attr,
        );
    }
}

fn req_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // INET_DIAG_REQ_BYTECODE
        1 => bc_op(s, o, m, addr, len),
        // INET_DIAG_REQ_PROTOCOL
        3 => nla_xval(s, o, m, addr, len, 0, c::IPPROTO, "IPPROTO_???"),
        _ => false,
    }
}

/// `struct inet_diag_bc_op`.
fn print_op(s: &mut String, b: &[u8], o: &Options) {
    s.push_str("{code=");
    fmt::enumv(
        s,
        u64::from(b[0]),
        sx::INET_DIAG_BYTECODES,
        "INET_DIAG_BC_???",
        o.xlat,
        true,
    );
    let _ = write!(s, ", yes={}, no={}}}", b[1], le16(b, 2));
}

/// The bytes as a hex string (strace's printstr_ex with QUOTE_FORCE_HEX).
fn force_hex(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let n = (len as usize).min(o.strsize);
    match m.get(addr, n) {
        Some(b) => fmt::quoted(s, b, len as usize > o.strsize, HexStr::All),
        None => fmt::ptr(s, addr),
    }
}

/// A bytecode operation, then what it works on.
fn bc_op(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    if len < 4 {
        return false;
    }
    let Some(op) = m.get(addr, 4) else {
        fmt::ptr(s, addr);
        return true;
    };
    print_op(s, op, o);
    if len == 4 {
        return true;
    }
    s.push_str(", ");
    let (a, l) = (addr + 4, len - 4);
    let short = |s: &mut String, need: u64| {
        if l < need {
            force_hex(s, o, m, a, l);
            return None;
        }
        match m.get(a, need as usize) {
            Some(b) => Some(b.to_vec()),
            None => {
                fmt::ptr(s, a);
                None
            }
        }
    };
    match op[0] {
        // INET_DIAG_BC_S_COND, INET_DIAG_BC_D_COND: inet_diag_hostcond
        7 | 8 => {
            let Some(b) = short(s, 8) else { return true };
            s.push_str("{family=");
            fmt::enumv(
                s,
                u64::from(b[0]),
                c::SOCKET_FAMILIES,
                "AF_???",
                o.xlat,
                true,
            );
            let _ = write!(s, ", prefix_len={}, port={}", b[1], le32(&b, 4) as i32);
            if l > 8 {
                s.push_str(", ");
                let need = match b[0] {
                    AF_INET => 4,
                    AF_INET6 => 16,
                    _ => 0,
                };
                let (a2, l2) = (a + 8, l - 8);
                match m.get(a2, need).filter(|_| need > 0 && l2 >= need as u64) {
                    Some(ab) => {
                        let mut full = [0u8; 16];
                        full[..need].copy_from_slice(ab);
                        inet_addr(s, "addr", &full, b[0], o);
                    }
                    None if need > 0 && l2 >= need as u64 => {
                        s.push_str("addr=");
                        fmt::ptr(s, a2);
                    }
                    None => {
                        s.push_str("addr=");
                        force_hex(s, o, m, a2, l2);
                    }
                }
            }
            s.push('}');
        }
        // INET_DIAG_BC_DEV_COND: an interface
        9 => {
            let Some(b) = short(s, 4) else { return true };
            super::super::sockopt::ifindex(s, le32(&b, 0), o.xlat);
        }
        // INET_DIAG_BC_S_GE, _S_LE, _D_GE, _D_LE: another operation
        2..=5 => {
            let Some(b) = short(s, 4) else { return true };
            print_op(s, &b, o);
        }
        // INET_DIAG_BC_MARK_COND: inet_diag_markcond
        10 => {
            let Some(b) = short(s, 8) else { return true };
            let _ = write!(s, "{{mark={}, mask={}}}", le32(&b, 0), le32(&b, 4));
        }
        _ => force_hex(s, o, m, a, l),
    }
    true
}

/// `struct inet_diag_msg` (72 bytes), then its attributes.
pub(super) fn inet_msg(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let done = super::sock_diag::diag_struct(s, o, m, addr, len, "idiag_family", 72, |s, b| {
        s.push_str("idiag_state=");
        fmt::enumv(s, u64::from(b[1]), x::TCP_STATES, "TCP_???", o.xlat, true);
        let _ = write!(s, ", idiag_timer={}, idiag_retrans={}, ", b[2], b[3]);
        sockid(s, &b[4..52], b[0], o);
        let _ = write!(
            s,
            ", idiag_expires={}, idiag_rqueue={}, idiag_wqueue={}, idiag_uid={}, idiag_inode={}",
            le32(b, 52),
            le32(b, 56),
            le32(b, 60),
            le32(b, 64),
            le32(b, 68)
        );
    });
    if done && len > 72 {
        s.push_str(", ");
        nlattrs_with(
            s,
            o,
            m,
            addr + 72,
            len - 72,
            sx::INET_DIAG_ATTRS,
            "INET_DIAG_???",
            &msg_attr,
        );
    }
}

/// The fields of a struct of u32 (`h` in hex) that `len` covers.
fn u32_fields(s: &mut String, b: &[u8], names: &[(&str, bool)], len: u64) {
    s.push('{');
    for (i, &(n, hex)) in names.iter().enumerate() {
        if (i as u64 + 1) * 4 > len {
            break;
        }
        if i > 0 {
            s.push_str(", ");
        }
        let v = le32(b, 4 * i);
        if hex {
            let _ = write!(s, "{n}=");
            fmt::hex(s, u64::from(v));
        } else {
            let _ = write!(s, "{n}={v}");
        }
    }
    s.push('}');
}

fn msg_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // INET_DIAG_MEMINFO
        1 => nla_struct(s, m, addr, len, 16, |s, b| {
            let n = [
                ("idiag_rmem", false),
                ("idiag_wmem", false),
                ("idiag_fmem", false),
                ("idiag_tmem", false),
            ];
            u32_fields(s, b, &n, 16);
        }),
        // INET_DIAG_VEGASINFO
        3 => nla_struct(s, m, addr, len, 16, |s, b| {
            let n = [
                ("tcpv_enabled", false),
                ("tcpv_rttcnt", false),
                ("tcpv_rtt", false),
                ("tcpv_minrtt", false),
            ];
            u32_fields(s, b, &n, len);
        }),
        // INET_DIAG_CONG
        4 => super::nla_str(s, o, m, addr, len),
        // INET_DIAG_TOS, INET_DIAG_TCLASS, INET_DIAG_SKV6ONLY
        5 | 6 | 11 => super::nla_u8(s, m, addr, len),
        // INET_DIAG_SKMEMINFO
        7 => super::nla_u32_array(
            s,
            o,
            m,
            addr,
            len,
            Some((x::NETLINK_SK_MEMINFO_INDICES, "SK_MEMINFO_???")),
        ),
        // INET_DIAG_SHUTDOWN: the names in comments (not in the uapi)
        8 => {
            if len < 1 {
                return false;
            }
            let xl = if o.xlat == Xlat::Raw {
                Xlat::Raw
            } else {
                Xlat::Verbose
            };
            match m.get(addr, 1) {
                Some(b) => fmt::flags_default(
                    s,
                    u64::from(b[0]),
                    sx::INET_DIAG_SHUTDOWN_FLAGS,
                    "???_SHUTDOWN",
                    xl,
                ),
                None => fmt::ptr(s, addr),
            }
            true
        }
        // INET_DIAG_DCTCPINFO: u16, u16, then u32s
        9 => nla_struct(s, m, addr, len, 16, |s, b| {
            let _ = write!(
                s,
                "{{dctcp_enabled={}, dctcp_ce_state={}, dctcp_alpha={}, dctcp_ab_ecn={}, dctcp_ab_tot={}}}",
                le16(b, 0),
                le16(b, 2),
                le32(b, 4),
                le32(b, 8),
                le32(b, 12)
            );
        }),
        // INET_DIAG_PROTOCOL
        10 => nla_xval(s, o, m, addr, len, 0, c::IPPROTO, "IPPROTO_???"),
        // INET_DIAG_MARK, INET_DIAG_CLASS_ID
        15 | 17 => super::nla_u32(s, m, addr, len),
        // INET_DIAG_BBRINFO
        16 => nla_struct(s, m, addr, len, 20, |s, b| {
            let n = [
                ("bbr_bw_lo", true),
                ("bbr_bw_hi", true),
                ("bbr_min_rtt", false),
                ("bbr_pacing_gain", false),
                ("bbr_cwnd_gain", false),
            ];
            u32_fields(s, b, &n, len);
        }),
        // INET_DIAG_LOCALS, INET_DIAG_PEERS: sockaddr_storage each
        12 | 13 => array(s, o, m, addr, len, 128, |s, b| {
            let st = super::super::sockaddr::Style::new(o, None);
            super::super::sockaddr::print(s, b, st);
        }),
        // INET_DIAG_MD5SIG: tcp_diag_md5sig each
        18 => array(s, o, m, addr, len, 100, |s, b| {
            s.push_str("{tcpm_family=");
            fmt::enumv(
                s,
                u64::from(b[0]),
                c::SOCKET_FAMILIES,
                "AF_???",
                o.xlat,
                true,
            );
            let keylen = le16(b, 2);
            let _ = write!(s, ", tcpm_prefixlen={}, tcpm_keylen={keylen}, ", b[1]);
            inet_addr(s, "tcpm_addr", &b[4..20], b[0], o);
            s.push_str(", tcpm_key=");
            let k = usize::from(keylen).min(80);
            fmt::quoted(s, &b[20..20 + k], false, HexStr::All);
            s.push('}');
        }),
        // INET_DIAG_ULP_INFO
        19 => nested(
            s,
            o,
            m,
            addr,
            len,
            sx::INET_DIAG_ULP_INFO_ATTRS,
            "INET_ULP_INFO_???",
            &ulp_attr,
        ),
        // INET_DIAG_SK_BPF_STORAGES
        20 => nested(
            s,
            o,
            m,
            addr,
            len,
            sx::INET_DIAG_BPF_STORAGES_ATTRS,
            "SK_DIAG_BPF_STORAGE_???",
            &|s, o, m, ty, a, l| {
                // SK_DIAG_BPF_STORAGE
                ty == 1
                    && nested(
                        s,
                        o,
                        m,
                        a,
                        l,
                        sx::INET_DIAG_BPF_STORAGE_ATTRS,
                        "SK_DIAG_BPF_STORAGE_???",
                        &bpf_storage_attr,
                    )
            },
        ),
        // INET_DIAG_CGROUP_ID
        21 => int(s, m, addr, len, 8, false),
        // INET_DIAG_SOCKOPT
        22 => sockopt(s, o, m, addr, len),
        _ => false,
    }
}

/// Attributes inside an attribute.
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

/// An array of `size`-byte elements, as many as the length holds.
fn array(
    s: &mut String,
    o: &Options,
    m: &Mem<'_>,
    addr: u64,
    len: u64,
    size: u64,
    f: impl FnMut(&mut String, &[u8]),
) -> bool {
    let n = len / size;
    if n == 0 {
        return false;
    }
    let off = addr.saturating_sub(m.base) as usize;
    let data = m.data.get(off..).unwrap_or(&[]);
    super::super::print_array_data(s, Some((data, true)), addr, n, size as usize, o, f);
    true
}

/// An integer of `size` bytes (at least that many in the attribute), in
/// decimal or hex.
fn int(s: &mut String, m: &Mem<'_>, addr: u64, len: u64, size: usize, hex: bool) -> bool {
    if len < size as u64 {
        return false;
    }
    match m.get(addr, size) {
        Some(b) => {
            let mut v = [0u8; 8];
            v[..size].copy_from_slice(b);
            let v = u64::from_le_bytes(v);
            if hex {
                fmt::hex(s, v);
            } else {
                let _ = write!(s, "{v}");
            }
        }
        None => fmt::ptr(s, addr),
    }
    true
}

fn ulp_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // INET_ULP_INFO_NAME
        1 => nla_str_whole(s, o, m, addr, len),
        // INET_ULP_INFO_TLS
        2 => nested(
            s,
            o,
            m,
            addr,
            len,
            sx::INET_DIAG_ULP_INFO_TLS_ATTRS,
            "TLS_INFO_???",
            &tls_attr,
        ),
        // INET_ULP_INFO_MPTCP
        3 => nested(
            s,
            o,
            m,
            addr,
            len,
            sx::INET_DIAG_ULP_INFO_MPTCP_ATTRS,
            "MPTCP_SUBFLOW_ATTR_???",
            &mptcp_attr,
        ),
        _ => false,
    }
}

fn tls_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // TLS_INFO_VERSION
        1 => nla_xval(
            s,
            o,
            m,
            addr,
            len,
            2,
            sx::TLS_INFO_VERSIONS,
            "TLS_???_VERSION",
        ),
        // TLS_INFO_CIPHER
        2 => nla_xval(
            s,
            o,
            m,
            addr,
            len,
            2,
            sx::TLS_INFO_CIPHERS,
            "TLS_CIPHER_???",
        ),
        // TLS_INFO_TXCONF, TLS_INFO_RXCONF
        3 | 4 => nla_xval(s, o, m, addr, len, 2, sx::TLS_INFO_CONFIGS, "TLS_CONF_???"),
        _ => false,
    }
}

fn mptcp_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // TOKEN_REM, TOKEN_LOC
        1 | 2 => int(s, m, addr, len, 4, true),
        // RELWRITE_SEQ, MAP_SFSEQ, SSN_OFFSET
        3 | 5 | 6 => int(s, m, addr, len, 4, false),
        // MAP_SEQ
        4 => int(s, m, addr, len, 8, false),
        // MAP_DATALEN
        7 => int(s, m, addr, len, 2, false),
        // FLAGS
        8 => {
            if !(4..=8).contains(&len) {
                return false;
            }
            match m.u32(addr) {
                Some(v) => fmt::flags_default(
                    s,
                    u64::from(v),
                    sx::MPTCP_SUBFLOW_FLAGS,
                    "MPTCP_SUBFLOW_FLAG_???",
                    o.xlat,
                ),
                None => fmt::ptr(s, addr),
            }
            true
        }
        // ID_REM, ID_LOC
        9 | 10 => int(s, m, addr, len, 1, false),
        _ => false,
    }
}

fn bpf_storage_attr(
    s: &mut String,
    _o: &Options,
    m: &Mem<'_>,
    ty: u16,
    addr: u64,
    len: u64,
) -> bool {
    match ty {
        // SK_DIAG_BPF_STORAGE_MAP_ID
        2 => int(s, m, addr, len, 4, false),
        // SK_DIAG_BPF_STORAGE_MAP_VALUE: a number of its own size
        3 => matches!(len, 1 | 2 | 4 | 8) && int(s, m, addr, len, len as usize, true),
        _ => false,
    }
}

/// `struct inet_diag_sockopt`: bit fields, those set (all with -v), then
/// any non-zero bytes past it.
fn sockopt(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    if len < 2 {
        return false;
    }
    let Some(b) = m.get(addr, 2) else {
        fmt::ptr(s, addr);
        return true;
    };
    let names = [
        "recverr",
        "is_icsk",
        "freebind",
        "hdrincl",
        "mc_loop",
        "transparent",
        "mc_all",
        "nodefrag",
        "bind_address_no_port",
        "recverr_rfc4884",
        "defer_connect",
    ];
    let bits = u16::from_le_bytes([b[0], b[1]]);
    s.push('{');
    let mut first = true;
    let mut sep = |s: &mut String| {
        if !first {
            s.push_str(", ");
        }
        first = false;
    };
    for (i, n) in names.iter().enumerate() {
        let v = (bits >> i) & 1;
        if o.verbose || v != 0 {
            sep(s);
            let _ = write!(s, "{n}={v}");
        }
    }
    let unused = bits >> 11;
    if o.verbose || unused != 0 {
        sep(s);
        s.push_str("unused=");
        fmt::hex(s, u64::from(unused));
        s.push_str(" /* bits 3..8 */");
    }
    s.push('}');
    let end = len.min(4096);
    if end > 2 {
        if let Some(rest) = m.get(addr + 2, (end - 2) as usize) {
            if rest.iter().any(|&c| c != 0) {
                let _ = write!(s, ", /* bytes 2..{} */ ", end - 1);
                fmt::quoted(s, rest, false, HexStr::All);
            }
        }
    }
    true
}

/// `struct smc_diag_req` (52 bytes).
pub(super) fn smc_req(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    super::sock_diag::diag_struct(s, o, m, addr, len, "diag_family", 52, |s, b| {
        s.push_str("diag_ext=");
        fmt::flags_default(
            s,
            u64::from(b[3]),
            sx::SMC_DIAG_EXTENDED_FLAGS,
            "1<<SMC_DIAG_???-1",
            o.xlat,
        );
        // the socket keeps an AF_INET address
        s.push_str(", ");
        sockid(s, &b[4..52], AF_INET, o);
    });
}

/// `struct smc_diag_msg` (64 bytes), then its attributes.
pub(super) fn smc_msg(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) {
    let done = super::sock_diag::diag_struct(s, o, m, addr, len, "diag_family", 64, |s, b| {
        s.push_str("diag_state=");
        fmt::enumv(s, u64::from(b[1]), sx::SMC_STATES, "SMC_???", o.xlat, true);
        s.push_str(", diag_fallback=");
        fmt::enumv(
            s,
            u64::from(b[2]),
            sx::SMC_DIAG_MODE,
            "SMC_DIAG_MODE_???",
            o.xlat,
            true,
        );
        let _ = write!(s, ", diag_shutdown={}, ", b[3]);
        sockid(s, &b[4..52], AF_INET, o);
        let _ = write!(s, ", diag_uid={}, diag_inode={}", le32(b, 52), le64(b, 56));
    });
    if done && len > 64 {
        s.push_str(", ");
        nlattrs_with(
            s,
            o,
            m,
            addr + 64,
            len - 64,
            sx::SMC_DIAG_ATTRS,
            "SMC_DIAG_???",
            &smc_attr,
        );
    }
}

/// `struct smc_diag_cursor` (8 bytes).
fn cursor(s: &mut String, name: &str, b: &[u8]) {
    let _ = write!(
        s,
        "{name}={{reserved={}, wrap={}, count={}}}",
        le16(b, 0),
        le16(b, 2),
        le32(b, 4)
    );
}

/// A char array of its own size: up to its NUL.
fn cstring(s: &mut String, name: &str, b: &[u8], o: &Options) {
    let _ = write!(s, "{name}=");
    match b.iter().position(|&c| c == 0) {
        Some(z) => fmt::quoted(s, &b[..z], false, o.hex),
        None => fmt::quoted(s, &b[..b.len() - 1], true, o.hex),
    }
}

/// A number in hex with its name, or the default, in a comment.
fn xval_verbose(s: &mut String, v: u32, table: &[(u64, &str)], dflt: &str, x: Xlat) {
    fmt::hex(s, u64::from(v));
    if x == Xlat::Raw {
        return;
    }
    let name = table
        .iter()
        .find(|(k, _)| *k == u64::from(v))
        .map_or(dflt, |(_, n)| *n);
    let _ = write!(s, " /* {name} */");
}

fn smc_attr(s: &mut String, o: &Options, m: &Mem<'_>, ty: u16, addr: u64, len: u64) -> bool {
    match ty {
        // SMC_DIAG_CONNINFO
        1 => nla_struct(s, m, addr, len, 76, |s, b| {
            let _ = write!(
                s,
                "{{token={}, sndbuf_size={}, rmbe_size={}, peer_rmbe_size={}, ",
                le32(b, 0),
                le32(b, 4),
                le32(b, 8),
                le32(b, 12)
            );
            for (i, n) in ["rx_prod", "rx_cons", "tx_prod", "tx_cons"]
                .iter()
                .enumerate()
            {
                cursor(s, n, &b[16 + 8 * i..24 + 8 * i]);
                s.push_str(", ");
            }
            for (i, n) in [
                "rx_prod_flags",
                "rx_conn_state_flags",
                "tx_prod_flags",
                "tx_conn_state_flags",
            ]
            .iter()
            .enumerate()
            {
                let _ = write!(s, "{n}=");
                fmt::hex(s, u64::from(b[48 + i]));
                s.push_str(", ");
            }
            for (i, n) in ["tx_prep", "tx_sent", "tx_fin"].iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                cursor(s, n, &b[52 + 8 * i..60 + 8 * i]);
            }
            s.push('}');
        }),
        // SMC_DIAG_LGRINFO: one link, then the role
        2 => nla_struct(s, m, addr, len, 147, |s, b| {
            let _ = write!(s, "{{lnk=[{{link_id={}, ", b[0]);
            cstring(s, "ibname", &b[1..65], o);
            let _ = write!(s, ", ibport={}, ", b[65]);
            cstring(s, "gid", &b[66..106], o);
            s.push_str(", ");
            cstring(s, "peer_gid", &b[106..146], o);
            s.push_str("}], role=");
            fmt::enumv(
                s,
                u64::from(b[146]),
                sx::SMC_LINK_GROUP_ROLES,
                "SMC_???",
                o.xlat,
                true,
            );
            s.push('}');
        }),
        // SMC_DIAG_SHUTDOWN
        3 => {
            if len < 1 {
                return false;
            }
            match m.get(addr, 1) {
                Some(b) => fmt::flags_default(
                    s,
                    u64::from(b[0]),
                    sx::INET_DIAG_SHUTDOWN_FLAGS,
                    "???_SHUTDOWN",
                    o.xlat,
                ),
                None => fmt::ptr(s, addr),
            }
            true
        }
        // SMC_DIAG_DMBINFO
        4 => nla_struct(s, m, addr, len, 40, |s, b| {
            let _ = write!(s, "{{linkid={}", le32(b, 0));
            for (i, n) in ["peer_gid", "my_gid", "token", "peer_token"]
                .iter()
                .enumerate()
            {
                let _ = write!(s, ", {n}=");
                fmt::hex(s, le64(b, 8 + 8 * i));
            }
            s.push('}');
        }),
        // SMC_DIAG_FALLBACK: codes of a header outside the uapi, verbose
        5 => nla_struct(s, m, addr, len, 8, |s, b| {
            s.push_str("{reason=");
            xval_verbose(
                s,
                le32(b, 0),
                sx::SMC_DECL_CODES,
                "SMC_CLC_DECL_???",
                o.xlat,
            );
            s.push_str(", peer_diagnosis=");
            xval_verbose(
                s,
                le32(b, 4),
                sx::SMC_DECL_CODES,
                "SMC_CLC_DECL_???",
                o.xlat,
            );
            s.push('}');
        }),
        _ => false,
    }
}

/// A string attribute as strace's decode_nla_str: every byte (NULs
/// within too) but a trailing NUL, `...` when there is none or the
/// attribute is longer than `-s`.
fn nla_str_whole(s: &mut String, o: &Options, m: &Mem<'_>, addr: u64, len: u64) -> bool {
    let size = (len as usize).min(o.strsize);
    let Some(b) = m.get(addr, size) else {
        fmt::ptr(s, addr);
        return true;
    };
    let (shown, more) = match b.split_last() {
        Some((0, head)) => (head, false),
        Some(_) => (b, true),
        None => (b, false),
    };
    fmt::quoted(s, shown, more || len as usize > o.strsize, o.hex);
    true
}
