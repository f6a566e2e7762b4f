//! `struct msghdr` (sendmsg, recvmsg) as strace 6.1 prints it: the name as
//! a socket address of the length both the caller and the kernel allow, the
//! iovec's data, and msg_control's control messages decoded by level and
//! type.

use std::fmt::Write;

use super::sockaddr::{self, Namer, Style};
use super::{
    fd, iovec_raw, le_u32, le_u64, sockopt, CallView, CapCond, CapKind, CapPlan, CapWhen, Capture,
    CaptureItem, Options,
};
use crate::consts as c;
use crate::fmt;

/// recvmsg: the struct's name pointer and namelen at entry (the room the
/// caller gave), in a free slot.
const SLOT_NAMELEN: usize = 3;
/// The control buffer (msg_control, msg_controllen bytes), in a free slot.
const SLOT_CONTROL: usize = 4;

/// The struct again with up to [`NETLINK_MAX`] bytes of its iovec's data,
/// only on an AF_NETLINK socket (tagged with its protocol + 1), in a free
/// slot.
const SLOT_NETLINK: usize = 5;
const NETLINK_MAX: u32 = super::netlink::NETLINK_MAX;
const AF_NETLINK: u32 = 16;

/// The most bytes of a control buffer copied (a capture's limit).
const CONTROL_MAX: u32 = 16384;

/// sizeof(struct cmsghdr).
const CMSG_HDR: u64 = 16;

/// The capture plans of sendmsg and recvmsg beyond the struct's own.
pub(super) fn plan(name: &str, _o: &Options, out: &mut [CapPlan; 6]) {
    let (when, kind) = match name {
        "sendmsg" => (CapWhen::Enter, CapKind::Msghdr),
        "recvmsg" => (CapWhen::ExitOk, CapKind::MsghdrRet),
        _ => return,
    };
    // the iovec's data as netlink messages decode it (recvmsg's up to the
    // bytes received)
    out[SLOT_NETLINK] = CapPlan {
        kind,
        when,
        max: NETLINK_MAX,
        cond: Some(CapCond::sock_family(0, AF_NETLINK)),
        src_arg: Some(1),
        ..Default::default()
    };
    // msg_control (word 4), msg_controllen bytes (word 5)
    out[SLOT_CONTROL] = CapPlan {
        kind: CapKind::ArgLen,
        when,
        len_arg: 5,
        max: CONTROL_MAX,
        src_arg: Some(1),
        deref: Some(4),
        ..Default::default()
    };
    if name == "recvmsg" {
        out[SLOT_NAMELEN] = CapPlan {
            kind: CapKind::Fixed,
            when: CapWhen::Enter,
            max: 12,
            src_arg: Some(1),
            ..Default::default()
        };
    }
}

/// sendmsg's or recvmsg's `struct msghdr *` (argument `i`).
pub(super) fn msghdr(
    s: &mut String,
    call: CallView<'_>,
    i: usize,
    o: &Options,
    namer: Namer<'_>,
    mem: Option<&dyn Fn(u64, usize) -> Option<Vec<u8>>>,
) {
    let v = call.args[i];
    let recv = is_recv(&call);
    // the namelen the caller gave (recvmsg)
    let user_namelen = if recv {
        call.enter
            .iter()
            .find(|c| {
                c.arg as usize == SLOT_NAMELEN
                    && c.item == CaptureItem::Data
                    && !c.fault
                    && c.data.len() >= 12
            })
            .map(|c| le_u32(&c.data, 8) as i32)
    } else {
        None
    };
    if recv && call.ret().is_some_and(|r| r < 0) {
        match user_namelen {
            Some(n) => {
                let _ = write!(s, "{{msg_namelen={n}}}");
            }
            None => fmt::ptr(s, v),
        }
        return;
    }
    let items = call.items(i);
    let Some(m) = items
        .iter()
        .find(|c| c.item == CaptureItem::Msghdr && !c.fault && c.data.len() >= 56)
    else {
        return fmt::ptr(s, v);
    };
    let mut control = call.cap(SLOT_CONTROL).cloned();
    // a buffer larger than a capture: the rest from the live process, as
    // far as strace reads it
    let want = le_u64(&m.data, 40).min(optmem_max()) as usize;
    if let (Some(c), Some(read)) = (control.as_mut(), mem) {
        if c.truncated && !c.fault && c.data.len() < want {
            if let Some(all) = read(le_u64(&m.data, 32), want).filter(|d| d.len() == want) {
                c.data = all;
            }
        }
    }
    // the iovec array itself, from the live process, when a buffer may be
    // at NULL (nothing copied of it): strace prints `NULL` there
    let iov = le_u64(&m.data, 16);
    let iovlen = le_u64(&m.data, 24).min(o.strsize as u64) as usize;
    let maybe_null = items
        .iter()
        .any(|c| c.item == CaptureItem::Elem && (c.fault || c.data.is_empty()));
    let raw = match mem {
        Some(read) if iov != 0 && iovlen != 0 && maybe_null => read(iov, 16 * iovlen),
        _ => None,
    };
    let nl = netlink_iov(&call, recv, mem);
    print_nl(
        s,
        &m.data,
        &items,
        control.as_ref(),
        user_namelen,
        o,
        namer,
        nl.as_ref(),
        raw.as_deref(),
    );
}

/// The iovec's data copied on a netlink socket: the socket's protocol,
/// each element's copy, the array's count item, the elements' addresses
/// (when the process could be read), the most bytes shown in all.
pub(super) struct NetlinkIov<'a> {
    proto: u32,
    elems: Vec<&'a Capture>,
    count: Option<&'a Capture>,
    bases: Vec<u64>,
    data_size: u64,
}

fn netlink_iov<'a>(
    call: &'a CallView<'_>,
    recv: bool,
    mem: Option<&dyn Fn(u64, usize) -> Option<Vec<u8>>>,
) -> Option<NetlinkIov<'a>> {
    let items = call.items(SLOT_NETLINK);
    let m = items
        .iter()
        .find(|c| c.item == CaptureItem::Msghdr && !c.fault && c.data.len() >= 56)?;
    if m.elem == 0 {
        return None;
    }
    let proto = u32::from(m.elem) - 1;
    // the elements in their order (their index carries the tag)
    let elems: Vec<&Capture> = items
        .iter()
        .filter(|c| c.item == CaptureItem::Elem)
        .copied()
        .collect();
    let count = items.iter().find(|c| c.item == CaptureItem::Count).copied();
    let (iov, n) = (le_u64(&m.data, 16), elems.len());
    let bases = match mem {
        Some(read) if iov != 0 && n > 0 => read(iov, 16 * n)
            .filter(|d| d.len() == 16 * n)
            .map(|d| (0..n).map(|k| le_u64(&d, 16 * k)).collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    let data_size = match call.ret() {
        Some(r) if recv && r >= 0 => r as u64,
        _ => u64::MAX,
    };
    Some(NetlinkIov {
        proto,
        elems,
        count,
        bases,
        data_size,
    })
}

/// [`iovec`] of a netlink socket's buffers: each element's data (as far
/// as the bytes left to show) as netlink messages.
fn iovec_netlink(s: &mut String, nl: &NetlinkIov<'_>, v: u64, o: &Options, namer: Namer<'_>) {
    if nl.elems.is_empty() && nl.count.is_none_or(|c| c.fault) {
        return fmt::ptr(s, v);
    }
    let mut left = nl.data_size;
    s.push('[');
    for (k, c) in nl.elems.iter().enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        if k >= o.strsize {
            s.push_str("...");
            s.push(']');
            return;
        }
        let len = c.aux.min(left);
        left -= len;
        s.push_str("{iov_base=");
        // a buffer at NULL is copied as a fault of nothing
        let null = c.fault && c.data.is_empty();
        match nl.bases.get(k).copied().or(null.then_some(0)) {
            // strace reads nothing at NULL, whatever the length
            Some(0) => s.push_str("NULL"),
            base => {
                let data: &[u8] = if c.fault { &[] } else { &c.data };
                let base = base.unwrap_or(0);
                super::netlink::iov_buffer(s, o, nl.proto, base, data, len, namer);
            }
        }
        let _ = write!(s, ", iov_len={}}}", c.aux);
    }
    match nl.count {
        Some(c) if c.more => s.push_str(", ..."),
        None if !nl.elems.is_empty() => s.push_str(", ..."),
        Some(c) if c.fault => {
            let _ = write!(s, ", ... /* {:#x} */", v.wrapping_add(16 * c.aux));
        }
        _ => {}
    }
    s.push(']');
}

/// Whether the call is recvmsg (its struct is read at exit).
fn is_recv(call: &CallView<'_>) -> bool {
    crate::table::by_nr(call.nr).is_some_and(|t| t.name == "recvmsg")
}

/// A struct msghdr of 56 bytes `d`: its name from the Name item of
/// `items`, its iovec's data from their Elem and Count items, its control
/// buffer from `control`; `user_namelen` the namelen the caller gave, when
/// the struct is the kernel's answer.
pub(super) fn print(
    s: &mut String,
    d: &[u8],
    items: &[&Capture],
    control: Option<&Capture>,
    user_namelen: Option<i32>,
    o: &Options,
    namer: Namer<'_>,
) {
    print_nl(s, d, items, control, user_namelen, o, namer, None, None)
}

/// [`print`], with the iovec's data as netlink messages when the name is
/// a netlink address and `nl` the copy made on a netlink socket, and a
/// copy of the iovec array (`raw`) for its buffers' addresses.
#[allow(clippy::too_many_arguments)]
fn print_nl(
    s: &mut String,
    d: &[u8],
    items: &[&Capture],
    control: Option<&Capture>,
    user_namelen: Option<i32>,
    o: &Options,
    namer: Namer<'_>,
    nl: Option<&NetlinkIov<'_>>,
    raw: Option<&[u8]>,
) {
    let st = Style::new(o, namer);
    let namelen = le_u32(d, 8) as i32;
    let shown = match user_namelen {
        Some(u) if namelen > u => u,
        _ => namelen,
    };
    s.push_str("{msg_name=");
    let name = items.iter().find(|c| c.item == CaptureItem::Name);
    sockaddr::decode(
        s,
        name.map(|c| c.data.as_slice()),
        le_u64(d, 0),
        shown as i64,
        st,
    );
    s.push_str(", msg_namelen=");
    if let Some(u) = user_namelen.filter(|&u| u != namelen) {
        let _ = write!(s, "{u} => ");
    }
    let _ = write!(s, "{namelen}, msg_iov=");
    let rest: Vec<&Capture> = items
        .iter()
        .filter(|c| matches!(c.item, CaptureItem::Elem | CaptureItem::Count))
        .copied()
        .collect();
    // strace decodes the buffers as netlink messages when the name it
    // printed is a netlink address
    let family = name
        .filter(|c| shown >= 2 && !c.fault && c.data.len() >= 2 && le_u64(d, 0) != 0)
        .map(|c| u16::from_le_bytes([c.data[0], c.data[1]]) as u32);
    let nl = nl.filter(|_| family == Some(AF_NETLINK));
    // no array at NULL, whatever its count
    match (le_u64(d, 16), nl) {
        (0, _) => s.push_str("NULL"),
        (iov, Some(nl)) => iovec_netlink(s, nl, iov, o, namer),
        (iov, None) => iovec_raw(s, &rest, iov, o, raw),
    }
    let _ = write!(s, ", msg_iovlen={}", le_u64(d, 24));
    let controllen = le_u64(d, 40);
    if controllen != 0 {
        s.push_str(", msg_control=");
        control_msgs(s, control, le_u64(d, 32), controllen, o, namer);
    }
    let _ = write!(s, ", msg_controllen={controllen}, msg_flags=");
    fmt::flags(s, le_u32(d, 48) as u64, c::MSG_FLAGS, None, o.xlat);
    s.push('}');
}

/// The most control data the kernel takes (strace reads no more):
/// net.core.optmem_max rounded up to 8, or strace's fallback.
fn optmem_max() -> u64 {
    static MAX: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| {
        std::fs::read_to_string("/proc/sys/net/core/optmem_max")
            .ok()
            .and_then(|t| t.trim().parse::<i64>().ok())
            .filter(|&n| n > 0)
            .map_or(8 * (2 * 1024 + 512), |n| (n as u64 + 7) & !7)
    })
}

/// The control messages of a buffer of `in_len` bytes at `addr`, as far as
/// strace reads it (at most optmem_max bytes).
fn control_msgs(
    s: &mut String,
    cap: Option<&Capture>,
    addr: u64,
    in_len: u64,
    o: &Options,
    namer: Namer<'_>,
) {
    let control_len = in_len.min(optmem_max());
    let buf = match cap {
        Some(c) if control_len >= CMSG_HDR && !c.fault => c.data.as_slice(),
        _ => return fmt::ptr(s, addr),
    };
    let mut left = control_len;
    let mut off = 0u64;
    s.push('[');
    while left >= CMSG_HDR {
        let at = off as usize;
        if at + CMSG_HDR as usize > buf.len() {
            // past what was copied (a buffer larger than a capture)
            if at > 0 {
                s.push_str(", ");
            }
            s.push_str("...");
            s.push(']');
            return;
        }
        let clen = le_u64(buf, at);
        let level = le_u32(buf, at + 8);
        let ty = le_u32(buf, at + 12);
        if off > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{{cmsg_len={clen}, cmsg_level=");
        fmt::enumv(s, level as u64, c::SOCKET_LEVELS, "SOL_???", o.xlat, true);
        s.push_str(", cmsg_type=");
        let len = clen.min(left);
        let data_len = len.saturating_sub(CMSG_HDR) as usize;
        let start = (at + CMSG_HDR as usize).min(buf.len());
        let data = &buf[start..(start + data_len).min(buf.len())];
        type_data(s, level, ty, data, data_len, o, namer);
        s.push('}');
        if len < CMSG_HDR {
            left -= CMSG_HDR;
            break;
        }
        let adv = clen.saturating_add(7) & !7;
        if adv >= left {
            left = 0;
            break;
        }
        off += adv;
        left -= adv;
    }
    if left > 0 {
        let _ = write!(
            s,
            ", ... /* {:#x} */",
            addr.wrapping_add(control_len - left)
        );
    } else if control_len < in_len {
        s.push_str(", ...");
    }
    s.push(']');
}

const SOL_IP: u32 = 0;
const SOL_SOCKET: u32 = 1;

/// `SOL_SOCKET` control message types (strace's scmvals).
static SCM_TYPES: &[(u64, &str)] = &[
    (1, "SCM_RIGHTS"),
    (2, "SCM_CREDENTIALS"),
    (3, "SCM_SECURITY"),
    (41, "SO_WIFI_STATUS"),
    (61, "SO_TXTIME"),
    (29, "SO_TIMESTAMP_OLD"),
    (35, "SO_TIMESTAMPNS_OLD"),
    (37, "SO_TIMESTAMPING_OLD"),
    (63, "SO_TIMESTAMP_NEW"),
    (64, "SO_TIMESTAMPNS_NEW"),
    (65, "SO_TIMESTAMPING_NEW"),
    (0x36, "SCM_TIMESTAMPING_OPT_STATS"),
    (0x3a, "SCM_TIMESTAMPING_PKTINFO"),
];

/// `SOL_IP` control message types.
static IP_TYPES: &[(u64, &str)] = &[
    (1, "IP_TOS"),
    (2, "IP_TTL"),
    (6, "IP_RECVOPTS"),
    (7, "IP_RETOPTS"),
    (8, "IP_PKTINFO"),
    (11, "IP_RECVERR"),
    (20, "IP_ORIGDSTADDR"),
    (23, "IP_CHECKSUM"),
    (3, "SCM_SECURITY"),
];

/// What a message's data is, by level and type: the shortest data printed,
/// and how.
#[derive(Clone, Copy)]
enum Data {
    Rights,
    Creds,
    Security,
    /// A pair of 64-bit numbers: tv_sec and the given field.
    Time(&'static str),
    /// Three struct timespec.
    Times,
    PktInfo,
    Uints,
    Bytes,
    RecvErr,
    OrigDst,
}

fn data_kind(level: u32, ty: u32) -> Option<(Data, usize)> {
    Some(match (level, ty) {
        (SOL_SOCKET, 1) => (Data::Rights, 4),
        (SOL_SOCKET, 2) => (Data::Creds, 12),
        (SOL_SOCKET | SOL_IP, 3) => (Data::Security, 1),
        (SOL_SOCKET, 29 | 63) => (Data::Time("tv_usec"), 1),
        (SOL_SOCKET, 35 | 64) => (Data::Time("tv_nsec"), 1),
        (SOL_SOCKET, 37 | 65) => (Data::Times, 1),
        (SOL_IP, 8) => (Data::PktInfo, 12),
        (SOL_IP, 2 | 23) => (Data::Uints, 4),
        (SOL_IP, 1 | 6 | 7) => (Data::Bytes, 1),
        (SOL_IP, 11) => (Data::RecvErr, 32),
        (SOL_IP, 20) => (Data::OrigDst, 16),
        _ => return None,
    })
}

/// The type and, when its printer takes it, the data (`len` bytes, of which
/// `d` were copied).
fn type_data(
    s: &mut String,
    level: u32,
    ty: u32,
    d: &[u8],
    len: usize,
    o: &Options,
    namer: Namer<'_>,
) {
    let x = o.xlat;
    match level {
        SOL_SOCKET => fmt::enumv(s, ty as u64, SCM_TYPES, "SCM_???", x, true),
        SOL_IP => fmt::enumv(s, ty as u64, IP_TYPES, "IP_???", x, true),
        _ => {
            fmt::hex(s, ty as u64);
            return;
        }
    }
    let Some((kind, min)) = data_kind(level, ty) else {
        return;
    };
    if len < min {
        return;
    }
    s.push_str(", cmsg_data=");
    // the elements of an array, no more than -s of them
    let array = |s: &mut String, n: usize, size: usize, each: &dyn Fn(&mut String, &[u8])| {
        s.push('[');
        for k in 0..n {
            if k > 0 {
                s.push_str(", ");
            }
            if (k >= o.strsize && !o.verbose) || (k + 1) * size > d.len() {
                s.push_str("...");
                break;
            }
            each(s, &d[k * size..(k + 1) * size]);
        }
        s.push(']');
    };
    let need = |n: usize| d.len() >= n;
    match kind {
        Data::Rights => array(s, len / 4, 4, &|s, e| fd(s, le_u32(e, 0) as i32, namer)),
        Data::Creds if need(12) => {
            let id = |v: u32| {
                if v == u32::MAX {
                    "-1".to_string()
                } else {
                    v.to_string()
                }
            };
            let _ = write!(
                s,
                "{{pid={}, uid={}, gid={}}}",
                le_u32(d, 0) as i32,
                id(le_u32(d, 4)),
                id(le_u32(d, 8))
            );
        }
        Data::Security => fmt::quoted(s, &d[..len.min(d.len())], false, o.hex),
        Data::Time(field) => {
            if len < 16 || !need(16) {
                s.push_str("???");
            } else {
                let _ = write!(
                    s,
                    "{{tv_sec={}, {field}={}}}",
                    le_u64(d, 0) as i64,
                    le_u64(d, 8)
                );
            }
        }
        Data::Times => {
            if len < 48 || !need(48) {
                s.push_str("???");
            } else {
                s.push('[');
                for k in 0..3 {
                    if k > 0 {
                        s.push_str(", ");
                    }
                    let _ = write!(
                        s,
                        "{{tv_sec={}, tv_nsec={}}}",
                        le_u64(d, 16 * k) as i64,
                        le_u64(d, 16 * k + 8)
                    );
                }
                s.push(']');
            }
        }
        Data::PktInfo if need(12) => {
            s.push_str("{ipi_ifindex=");
            sockopt::ifindex(s, le_u32(d, 0), x);
            s.push_str(", ");
            sockaddr::inet_addr(s, "ipi_spec_dst", &d[4..8], x, o.hex);
            s.push_str(", ");
            sockaddr::inet_addr(s, "ipi_addr", &d[8..12], x, o.hex);
            s.push('}');
        }
        Data::Uints => array(s, len / 4, 4, &|s, e| {
            let _ = write!(s, "{}", le_u32(e, 0));
        }),
        Data::Bytes => array(s, len, 1, &|s, e| fmt::hex(s, e[0] as u64)),
        Data::RecvErr if need(32) => {
            let _ = write!(
                s,
                "{{ee_errno={}, ee_origin={}, ee_type={}, ee_code={}, ee_info={}, ee_data={}, offender=",
                le_u32(d, 0),
                d[4],
                d[5],
                d[6],
                le_u32(d, 8),
                le_u32(d, 12)
            );
            sockaddr::print(s, &d[16..32], Style::new(o, namer));
            s.push('}');
        }
        Data::OrigDst => {
            let n = len.min(sockaddr::SOCKADDR_MAX).min(d.len());
            sockaddr::print(s, &d[..n], Style::new(o, namer));
        }
        _ => s.push_str("???"),
    }
}
